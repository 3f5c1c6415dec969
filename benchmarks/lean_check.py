"""`moe-theory lean check` against the Lean start-up floor, in one run (issue 12).

Measured in the same session, interleaved, ``--repeats`` times (medians):

``v1 init``
    a file importing only ``Init``, run with the former glue ``glue-v1``
    (pool of 4 workers, fast symbol lookup only): the reference of the ratios;
``init``
    the same file with the installed glue;
``full``
    the first check of a copy of the project, with an empty cache: one Lean
    process compiles the modules that other modules import into a cached
    base, then checks the others on top of it (the axiom and visibility
    audits included);
``full --no-cache``
    the same tree checked with ``--no-cache`` in another build folder: every
    module in one combined file, one Lean run, no base;
``first edit``
    the check after appending a theorem to ``MoeTheory/Examples.lean`` (after
    ``full``): the edited module and the modules outside the base are checked
    on top of the cached base;
``edit``
    the check after a further edit of the same module (the same base).

For each: wall time, CPU time of the Lean processes (user + sys) and their
peak memory.  The machine is shared and noisy: compare the ratios, which are
taken within one run.

    .venv/bin/python benchmarks/lean_check.py                # about 6 minutes
    .venv/bin/python benchmarks/lean_check.py --repeats 1 --json /tmp/check.json
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import resource
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from lean_startup import WORKLOADS, _conditions, _link_or_copy, measure  # noqa: E402

from pysym.lean import glue  # noqa: E402
from pysym.lean.check import check_project  # noqa: E402
from pysym.lean.install import load_wasm  # noqa: E402
from pysym.progress import Progress  # noqa: E402

EDIT = "\ntheorem bench_edit_{n} : {n} + 1 = {m} := rfl\n"


def _children() -> tuple[float, float]:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime, r.ru_maxrss / 1024**2


def _check_here(root: Path, build: Path, use_cache: bool, conn) -> None:
    cpu0, _ = _children()
    t0 = time.monotonic()
    result = check_project(root, progress=Progress(quiet=True), use_cache=use_cache, build=build)
    wall = time.monotonic() - t0
    cpu, peak = _children()
    conn.send((wall, cpu - cpu0, peak, result.ok, "\n".join(map(str, result.problems))))


def _check(root: Path, build: Path, *, use_cache: bool) -> tuple[float, float, float]:
    """One check in a forked process: its wall time, and the CPU time and peak
    memory of its own Lean processes (a process's peak of its children is the
    largest child it ever waited for, so each check needs a process of its own)."""
    ctx = multiprocessing.get_context("fork")
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_check_here, args=(root, build, use_cache, child))
    proc.start()
    wall, cpu, peak, ok, problems = parent.recv()
    proc.join()
    if not ok:
        sys.exit("the check failed:\n" + problems)
    return wall, cpu, peak


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    tc = load_wasm()
    if tc is None:
        sys.exit("the registry toolchain is not installed: run `moe-theory lean install`")
    rows: dict[str, dict[str, list[float]]] = {}

    def add(name, wall, cpu, rss=None):
        row = rows.setdefault(name, {"wall": [], "cpu": [], "rss_gb": []})
        row["wall"].append(wall)
        row["cpu"].append(cpu)
        if rss is not None:
            row["rss_gb"].append(rss)

    before = _conditions()
    with tempfile.TemporaryDirectory(dir="/tmp", prefix="lean-check-bench-") as tmp:
        tmp = Path(tmp)
        view = tmp / "toolchain"
        view.mkdir()
        for part in ("node", "lib"):
            shutil.copytree(tc.root / part, view / part, copy_function=_link_or_copy)
        (view / "lean").mkdir()
        for name in ("lean.wasm", "lean.shipped.js"):
            _link_or_copy(tc.root / "lean" / name, view / "lean" / name)
        shipped = (view / "lean" / "lean.shipped.js").read_text(encoding="utf-8")
        v1 = view / "lean" / "glue-v1.js"
        v1.write_text(glue.patch(shipped, pool_size=4, compact_exports=False, fast_linking=False, local_reads=False),
                      encoding="utf-8")
        current = view / "lean" / "lean.js"
        current.write_text(glue.patch(shipped), encoding="utf-8")
        init = tmp / "BenchInit.lean"
        init.write_text(WORKLOADS["init"], encoding="utf-8")
        node, lib = view / "node" / "bin" / "node", view / "lib"
        print(f"{before['cpus']} CPUs, load {before['loadavg'][0]:.1f} at start, {before['date']}", flush=True)
        for rep in range(args.repeats):
            add("v1 init", *measure(node, v1, lib, init))
            add("init", *measure(node, current, lib, init))
            project = tmp / f"project{rep}"
            shutil.copytree(ROOT / "MoeTheory", project / "MoeTheory")
            for part in ("MoeTheory.lean", "lakefile.lean", "lean-toolchain"):
                shutil.copyfile(ROOT / part, project / part)
            build = project / "build"
            add("full", *_check(project, build, use_cache=True))
            add("full --no-cache", *_check(project, project / "build-no-cache", use_cache=False))
            examples = project / "MoeTheory" / "Examples.lean"
            text = examples.read_text(encoding="utf-8")
            examples.write_text(text + EDIT.format(n=1, m=2), encoding="utf-8")
            add("first edit", *_check(project, build, use_cache=True))
            examples.write_text(text + EDIT.format(n=2, m=3), encoding="utf-8")
            add("edit", *_check(project, build, use_cache=True))
            print(f"repeat {rep + 1}: " + ", ".join(f"{k} {v['wall'][-1]:.1f} s" for k, v in rows.items()),
                  flush=True)
    after = _conditions()
    ref = statistics.median(rows["v1 init"]["wall"])
    print(f"\nmedians of {args.repeats} (load {before['loadavg'][0]:.1f} -> {after['loadavg'][0]:.1f}); "
          f"ratio = wall / wall of `v1 init`")
    print(f"{'run':16s} {'wall s':>8s} {'CPU s':>8s} {'ratio':>7s} {'peak GB':>8s}")
    summary = {}
    for name, row in rows.items():
        wall, cpu = statistics.median(row["wall"]), statistics.median(row["cpu"])
        rss = max(row["rss_gb"]) if row["rss_gb"] else float("nan")
        summary[name] = {"wall": wall, "cpu": cpu, "ratio": wall / ref, "peak_gb": rss, "runs": row}
        print(f"{name:16s} {wall:8.1f} {cpu:8.1f} {wall / ref:7.2f} {rss:8.2f}")
    print("(peak GB: the largest Lean process of the run, over the repeats)")
    if args.json:
        args.json.write_text(json.dumps({"before": before, "after": after, "results": summary}, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
