"""Start-up cost of the registry (wasm) Lean: the shipped glue against patched glues.

One run measures, on the same machine and in the same session, every glue variant on
every workload, and reports for each the median over the repeats of

* wall time,
* CPU time (user + sys of node and all its threads, from ``os.wait4``), and
* peak resident memory (``ru_maxrss`` of the node process, which holds every worker
  thread).

Glue variants (all built from the installed ``lean.shipped.js`` with
:func:`pysym.lean.glue.patch`):

``shipped``
    the glue as shipped (linear symbol lookup, pool of 4).  About ten times
    slower than the rest, so it runs ``--shipped-repeats`` times (default 1).
``pool N``
    symbol lookup and mounts fixed (the former ``glue-v1`` is ``pool 4``),
    ``N`` pre-started pthread workers.
``pool N + compact``
    the same with the compact export binding (item 4 of :mod:`pysym.lean.glue`);
``pool N + compact + linking``
    items 1-5 of :mod:`pysym.lean.glue`;
``pool N + compact + linking + reads``
    all of the patch (items 1-6: worker threads read files themselves).  The
    installed glue (``PATCH_ID``) is ``pool POOL_SIZE + compact + linking + reads``.
``... + node flags`` (``--flag-sets``)
    the whole patch run with V8 options: by default the ones the check's
    driver runs with (:data:`pysym.lean.toolchain.NODE_FLAGS`; a plain ``lean
    FILE`` run uses none), and any other sets given.  Without ``+ node flags``
    a variant runs with none.

Workloads:

``init``
    a file that only imports ``Init`` (the floor of every Lean run);
``parallel``
    eight independent theorems with ``decide``, ``omega``, ``simp`` and ``grind``
    proofs, so that Lean's task parallelism (and thus the worker threads) matters;
``driver``
    the check's driver (:mod:`pysym.lean.driver`, compiled once, then imported
    by a file run with ``lean --run``) given no file to check: the start-up of
    every Lean process of ``moe-theory lean check`` (it imports
    ``Lean.Elab.Frontend``);
``FILE``
    any file given with ``--file`` (for example the project's generated check file
    ``build/lean/work/MoeTheoryCheck.lean``).

Runs are interleaved (each repeat runs every variant on every workload, the variant
order rotating between repeats), so that the load of a shared machine falls on all
variants alike.  The machine is shared and noisy: compare ratios within one run, not
absolute times across runs.  Every run must succeed (exit 0, no error message), or the
benchmark stops.

    .venv/bin/python benchmarks/lean_startup.py                  # about 20 minutes
    .venv/bin/python benchmarks/lean_startup.py --file build/lean/work/MoeTheoryCheck.lean  # about 35
    .venv/bin/python benchmarks/lean_startup.py --repeats 5 --json /tmp/startup.json
    .venv/bin/python benchmarks/lean_startup.py --no-shipped --pools 1 --repeats 1
    .venv/bin/python benchmarks/lean_startup.py --no-shipped --pools "" --full-pools 1 --reads-pools 1
    .venv/bin/python benchmarks/lean_startup.py --profile-only   # CPU profile of the installed glue
    .venv/bin/python benchmarks/lean_startup.py --no-shipped --pools "" --full-pools "" --reads-pools 1 \
        --flag-sets "installed;--liftoff-only;--single-threaded" --workloads init,parallel,driver  # V8 options

``--profile`` (or ``--profile-only``) also runs the installed glue once on ``init``
under ``node --cpu-prof`` and prints, per thread, where the time went.

Needs the registry toolchain (``moe-theory lean install``).
"""

from __future__ import annotations

import argparse
import collections
import datetime
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from pysym.lean import glue
from pysym.lean.check import parse_messages
from pysym.lean.driver import DRIVER_MODULE, compiled
from pysym.lean.install import load_wasm
from pysym.lean.toolchain import NODE_FLAGS

__all__ = ["Variant", "Measurement", "WORKLOADS", "variants", "measure", "main"]

RUNNER = f"{DRIVER_MODULE}Run"  # the file that imports the compiled driver and runs it

WORKLOADS = {
    "init": "-- imports Init only\n",
    "parallel": """\
theorem moe_d1 : ∀ x : Fin 120, (x.val * x.val) % 7 ≠ 3 := by decide
theorem moe_d2 : ∀ x : Fin 120, (x.val * x.val * x.val) % 9 ≠ 4 := by decide
theorem moe_d3 : ∀ x : Fin 100, ∀ y : Fin 8, (x.val + y.val) % 113 ≠ 112 := by decide
theorem moe_d4 : ∀ x : Fin 120, (x.val * x.val + 1) % 3 ≠ 0 := by decide
theorem moe_o1 (a b c d e : Nat) (h1 : a + 2 * b ≤ 3 * c) (h2 : c ≤ d + 5) (h3 : d < e) :
    b ≤ 3 * e + 20 := by omega
theorem moe_o2 (x y z : Int) (h1 : 2 * x + 3 * y ≤ 12) (h2 : x ≥ 0) (h3 : y ≥ 0) (h4 : z ≤ x - y)
    (h5 : z ≥ -20) : x + y ≤ 6 ∧ z ≤ 6 ∧ y ≤ 24 + x := by omega
theorem moe_s1 (n : Nat) : (n + 1) * (n + 2) * (n + 3) = n * n * n + 6 * n * n + 11 * n + 6 := by grind
theorem moe_g1 (xs : List Nat) : (xs ++ [1, 2] ++ xs).length = 2 * xs.length + 2 := by
  simp; omega
""",
}


@dataclass(frozen=True)
class Variant:
    pool: int | None  # None: the shipped glue
    compact: bool = False
    linking: bool = False
    reads: bool = False
    flags: tuple[str, ...] = ()  # V8 options of the node command

    @property
    def label(self) -> str:
        if self.pool is None:
            return "shipped"
        flags = ""
        if self.flags:
            flags = " + node flags" if self.flags == NODE_FLAGS else f" + {' '.join(self.flags)}"
        return (f"pool {self.pool}" + " + compact" * self.compact + " + linking" * self.linking
                + " + reads" * self.reads + flags)

    @property
    def filename(self) -> str:
        if self.pool is None:
            return "lean.shipped.js"
        return f"bench-pool{self.pool}{'-compact' * self.compact}{'-linking' * self.linking}{'-reads' * self.reads}.js"

    @property
    def installed(self) -> bool:
        return self.pool == glue.POOL_SIZE and self.compact and self.linking and self.reads


@dataclass
class Measurement:
    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    rss_gb: list[float] = field(default_factory=list)


def variants(pools: list[int], shipped: bool, compact_pools: list[int], full_pools: list[int],
             reads_pools: list[int] = (), flag_sets: list[tuple[str, ...]] = ()) -> list[Variant]:
    out = [Variant(None)] if shipped else []
    out += [Variant(n) for n in pools]
    out += [Variant(n, compact=True) for n in compact_pools]
    out += [Variant(n, compact=True, linking=True) for n in full_pools]
    out += [Variant(n, compact=True, linking=True, reads=True) for n in reads_pools]
    out += [Variant(glue.POOL_SIZE, compact=True, linking=True, reads=True, flags=f) for f in flag_sets if f]
    return out


def flag_sets(text: str) -> list[tuple[str, ...]]:
    """``--flag-sets``: sets of V8 options separated by ``;``, ``installed`` for :data:`NODE_FLAGS`.

    >>> flag_sets("installed; --liftoff-only --single-threaded")[1]
    ('--liftoff-only', '--single-threaded')
    """
    return [NODE_FLAGS if part.strip() == "installed" else tuple(part.split()) for part in text.split(";")
            if part.strip()]


def _link_or_copy(src, dst):
    try:
        os.link(src, dst)
    except OSError:
        shutil.copy2(src, dst)


def measure(node: Path, glue_js: Path, lib: Path, lean_file: Path, extra_args=()) -> tuple[float, float, float]:
    """Run Lean once on ``lean_file`` (``lean --json FILE``, or ``lean --run FILE`` for the check's
    driver); return (wall s, user+sys CPU s, peak RSS GB).  Exits on failure."""
    env = {"LEAN_PATH": f"{lib}:{lean_file.parent}", "PATH": "/usr/bin:/bin",
           glue.MOUNTS_ENV: ":".join(glue.mounts_for([glue_js.parent.parent, lean_file.parent]))}
    out_path = lean_file.with_suffix(".out")
    with open(out_path, "w") as out:
        t0 = time.monotonic()
        run = ["--run", str(lean_file), "bench"] if lean_file.stem == RUNNER else ["--json", str(lean_file)]
        proc = subprocess.Popen([str(node), "--stack-size=65500", *extra_args, str(glue_js), *run],
                                cwd=lean_file.parent, env=env, stdout=out,
                                stderr=subprocess.STDOUT)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.monotonic() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    text = out_path.read_text(encoding="utf-8", errors="replace")
    errors = [m for m in parse_messages(text) if m.get("severity") == "error"]
    if lean_file.stem == RUNNER and "moe-theory-driver bench done" not in text:
        errors = errors or [{"data": "the driver did not finish"}]
    if proc.returncode != 0 or errors:
        detail = errors[0]["data"] if errors else text[-800:]
        sys.exit(f"Lean failed ({glue_js.name} on {lean_file.name}, exit {proc.returncode}): {detail}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024**2


def _conditions() -> dict:
    return {
        "date": datetime.datetime.now().isoformat(timespec="seconds"),
        "host": platform.node(),
        "cpus": os.cpu_count(),
        "loadavg": os.getloadavg(),
    }


def _table(results, order, workloads, reference) -> str:
    ref = {w: results[(reference, w)] for w in workloads if (reference, w) in results}
    lines = []
    for w in workloads:
        lines.append(f"\n{w}: median [min-max] over the repeats; ratios to `{reference.label}` on the same workload")
        lines.append("| glue | runs | wall s | CPU s | peak RSS GB | wall ratio | CPU ratio | RSS ratio |")
        lines.append("|---|---|---|---|---|---|---|---|")
        for v in order:
            m = results.get((v, w))
            if m is None or not m.wall:
                continue
            med = [statistics.median(x) for x in (m.wall, m.cpu, m.rss_gb)]
            rng = [f"{statistics.median(x):.1f} [{min(x):.1f}-{max(x):.1f}]" for x in (m.wall, m.cpu)]
            r = ref.get(w)
            ratios = [f"{a / statistics.median(b):.2f}" for a, b in zip(med, (r.wall, r.cpu, r.rss_gb))] \
                if r else ["-"] * 3
            name = v.label + (" (installed glue)" if v.installed else "")
            lines.append(f"| {name} | {len(m.wall)} | {rng[0]} | {rng[1]} | {med[2]:.2f} | " + " | ".join(ratios) + " |")
    return "\n".join(lines)


# --------------------------------------------------------------------------- profile


def _profile_summary(profiles: list[Path], wasm: Path) -> str:
    """Per thread: sampled time by phase.  Samples are wall-clock (a thread
    blocked in a futex is sampled too), so `lean: futex wait` is waiting, not work."""
    futex = _wasm_function_index(wasm, "emscripten_futex_wait")
    phases = {
        "wrapSafe": "compile lean.js", "readFileUtf8": "read lean.js", "readFileSync": "read lean.js",
        "Instance": "instantiate wasm", "instantiate": "instantiate wasm",
        "updateGOT": "link: updateGOT", "reportUndefinedSymbols": "link: reportUndefinedSymbols",
        "mergeLibSymbols": "link: mergeLibSymbols", "assignWasmExports": "link: assignWasmExports",
        "receiveInstance": "link: receiveInstance (incl. lazy compiles)",
    }
    lines = []
    for i, path in enumerate(sorted(profiles)):
        prof = json.loads(path.read_text())
        nodes = {n["id"]: n for n in prof["nodes"]}
        parent = {c: n["id"] for n in prof["nodes"] for c in n.get("children", [])}
        buckets: collections.Counter = collections.Counter()
        for sample, delta in zip(prof["samples"], prof["timeDeltas"]):
            fn = nodes[sample]["callFrame"]["functionName"]
            if fn == "(idle)":
                buckets["idle"] += delta
                continue
            if fn == "(garbage collector)":
                buckets["garbage collector"] += delta
                continue
            if futex is not None and fn == f"wasm-function[{futex}]":
                buckets["lean: futex wait"] += delta
                continue
            phase, j = None, sample
            while j is not None and phase is None:
                name = nodes[j]["callFrame"]["functionName"]
                phase = phases.get(name)
                if phase is None and (name.startswith("wasm-function") or name in ("callMain", "invokeEntryPoint")):
                    phase = "lean (wasm code)"
                j = parent.get(j)
            buckets[phase or "other JS"] += delta
        span = (prof["endTime"] - prof["startTime"]) / 1e6
        parts = ", ".join(f"{k} {v / 1e6:.2f}" for k, v in buckets.most_common())
        lines.append(f"  thread {i} ({'main' if i == 0 else 'worker'}), {span:.1f} s: {parts}")
    return "\n".join(lines)


def _wasm_function_index(wasm: Path, name: str) -> int | None:
    """Function index of an exported wasm function (for naming profile frames)."""
    data = wasm.read_bytes()

    def leb(i):
        r = s = 0
        while True:
            b = data[i]
            i += 1
            r |= (b & 0x7F) << s
            s += 7
            if b < 0x80:
                return r, i

    i = 8
    while i < len(data):
        sid = data[i]
        size, i = leb(i + 1)
        if sid == 7:
            n, j = leb(i)
            for _ in range(n):
                ln, j = leb(j)
                nm = data[j:j + ln]
                j += ln
                kind = data[j]
                idx, j = leb(j + 1)
                if kind == 0 and nm == name.encode():
                    return idx
            return None
        i += size
    return None


# --------------------------------------------------------------------------- main


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3, help="runs per variant and workload (default 3)")
    parser.add_argument("--shipped-repeats", type=int, default=1, help="runs of the shipped glue (default 1)")
    parser.add_argument("--no-shipped", action="store_true", help="leave out the shipped glue")
    parser.add_argument("--pools", default="4,2,1,0", help="pool sizes without compaction (default 4,2,1,0)")
    parser.add_argument("--compact-pools", default="", help="pool sizes with compaction only (default none)")
    parser.add_argument("--full-pools", default="4,2,1,0",
                        help="pool sizes with items 1-5 of the patch (default 4,2,1,0)")
    parser.add_argument("--reads-pools", default="1",
                        help="pool sizes with the whole patch, items 1-6 (default 1)")
    parser.add_argument("--flag-sets", default="installed",
                        help="V8 options to run the whole patch with, sets separated by ';' ('installed': the "
                             "ones the check's driver uses; default installed)")
    parser.add_argument("--workloads", default="init,parallel,driver",
                        help="built-in workloads: init, parallel, driver (default all three)")
    parser.add_argument("--file", action="append", default=[], type=Path, help="also run Lean on this file")
    parser.add_argument("--json", type=Path, help="write every measurement to this file")
    parser.add_argument("--profile", action="store_true", help="also profile the installed glue on init")
    parser.add_argument("--profile-only", action="store_true", help="only profile the installed glue")
    args = parser.parse_args()
    tc = load_wasm()
    if tc is None:
        sys.exit("the registry toolchain is not installed: run `moe-theory lean install`")
    as_list = lambda s: [int(x) for x in s.split(",") if x.strip()]  # noqa: E731
    order = [] if args.profile_only else variants(as_list(args.pools), not args.no_shipped,
                                                    as_list(args.compact_pools), as_list(args.full_pools),
                                                    as_list(args.reads_pools), flag_sets(args.flag_sets))
    workloads = [w for w in args.workloads.split(",") if w]
    before = _conditions()
    with tempfile.TemporaryDirectory(dir="/tmp", prefix="lean-startup-") as tmp:
        # The shipped glue can only reach /home and /tmp, so every glue runs through the same
        # hard-linked copy of the toolchain under /tmp (instant, and real files to the runtime).
        view = Path(tmp) / "toolchain"
        view.mkdir()
        for part in ("node", "lib"):
            shutil.copytree(tc.root / part, view / part, copy_function=_link_or_copy)
        (view / "lean").mkdir()
        for name in ("lean.wasm", "lean.shipped.js"):
            _link_or_copy(tc.root / "lean" / name, view / "lean" / name)
        shipped = (view / "lean" / "lean.shipped.js").read_text(encoding="utf-8")
        installed = Variant(glue.POOL_SIZE, compact=True, linking=True, reads=True)
        written = set()
        for v in set(order) | {installed}:
            if v.pool is not None and v.filename not in written:
                written.add(v.filename)
                text = glue.patch(shipped, pool_size=v.pool, compact_exports=v.compact, fast_linking=v.linking,
                                  local_reads=v.reads)
                (view / "lean" / v.filename).write_text(text, encoding="utf-8")
        files: dict[str, Path] = {}
        for w in workloads:
            files[w] = Path(tmp) / (f"{RUNNER}.lean" if w == "driver" else f"Bench{w.capitalize()}.lean")
            files[w].write_text(f"import {DRIVER_MODULE}\n" if w == "driver" else WORKLOADS[w], encoding="utf-8")
            if w == "driver":  # the compiled driver, beside the file that imports it (the shipped glue reads /tmp)
                for part in compiled(tc).iterdir():
                    shutil.copyfile(part, Path(tmp) / part.name)
        for extra in args.file:
            files[extra.name] = Path(tmp) / extra.name
            shutil.copyfile(extra, files[extra.name])
        node, lib = view / "node" / "bin" / "node", view / "lib"
        print(f"node {subprocess.run([str(node), '--version'], capture_output=True, text=True).stdout.strip()}, "
              f"{before['cpus']} CPUs, load {before['loadavg'][0]:.1f} at start, {before['date']}", flush=True)
        results: dict[tuple[Variant, str], Measurement] = {}
        for rep in range(args.repeats if order else 0):
            rot = order[rep % len(order):] + order[:rep % len(order)]
            for name, path in files.items():
                for v in rot:
                    if v.pool is None and rep >= args.shipped_repeats:
                        continue
                    wall, cpu, rss = measure(node, view / "lean" / v.filename, lib, path, v.flags)
                    m = results.setdefault((v, name), Measurement())
                    m.wall.append(wall)
                    m.cpu.append(cpu)
                    m.rss_gb.append(rss)
                    print(f"  repeat {rep + 1}: {v.label:18} {name:22} wall {wall:6.1f} s  CPU {cpu:6.1f} s  "
                          f"RSS {rss:4.2f} GB  (load {os.getloadavg()[0]:.1f})", flush=True)
        after = _conditions()
        if results:
            reference = next((v for v in order if v.pool == glue.SHIPPED_POOL_SIZE and not v.compact), order[0])
            # (`pool 4` is the former glue-v1, the glue every figure before this benchmark was measured with)
            print(f"\nConditions: {before['cpus']} CPUs, load average {before['loadavg'][0]:.1f} at start and "
                  f"{after['loadavg'][0]:.1f} at end, {before['date']} to {after['date']}; repeats {args.repeats} "
                  f"(shipped {min(args.shipped_repeats, args.repeats)}).")
            print(_table(results, order, list(files), reference))
            ref_init = results.get((reference, "init"))
            if ref_init:
                unit = statistics.median(ref_init.wall)
                print(f"\nWall time as a multiple of `{reference.label}` on init ({unit:.1f} s):")
                for (v, w), m in results.items():
                    if v.installed:
                        print(f"  {v.label} on {w}: {statistics.median(m.wall) / unit:.2f}x")
        if args.json and results:
            args.json.write_text(json.dumps({
                "before": before, "after": after,
                "runs": [{"glue": v.label, "pool": v.pool, "compact": v.compact, "linking": v.linking,
                          "reads": v.reads, "flags": list(v.flags), "workload": w,
                          "wall": m.wall, "cpu": m.cpu, "rss_gb": m.rss_gb} for (v, w), m in results.items()],
            }, indent=1))
        if args.profile or args.profile_only:
            prof_dir = Path(tmp) / "profile"
            wall, cpu, rss = measure(node, view / "lean" / installed.filename, lib, files.get("init") or
                                     next(iter(files.values())),
                                     ("--cpu-prof", f"--cpu-prof-dir={prof_dir}"))
            print(f"\nCPU profile of `{installed.label}` on init (wall {wall:.1f} s, CPU {cpu:.1f} s, "
                  f"RSS {rss:.2f} GB), sampled seconds per thread:")
            print(_profile_summary(list(prof_dir.glob("*.cpuprofile")), view / "lean" / "lean.wasm"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
