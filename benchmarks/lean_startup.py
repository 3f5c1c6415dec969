"""Start-up time of the registry (wasm) Lean: the shipped glue against the patched one.

Runs `lean --json` on a file that only imports `Init` (the floor of every check),
once with each glue, in the same session, and prints the times and their ratio.
The machines are shared and noisy: compare the ratio, not the absolute times.

    .venv/bin/python benchmarks/lean_startup.py          # about 2.5 minutes
    .venv/bin/python benchmarks/lean_startup.py --runs 3

Needs the registry toolchain (`moe-theory lean install`).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from pysym.lean import glue
from pysym.lean.toolchain import load_wasm


def _link_or_copy(src, dst):
    try:
        os.link(src, dst)
    except OSError:
        shutil.copy2(src, dst)


def timed_run(node: Path, glue_js: Path, lib: Path, root: Path, lean_file: Path) -> float:
    env = {"LEAN_PATH": str(lib), glue.MOUNTS_ENV: ":".join(glue.mounts_for([root, lean_file.parent])),
           "PATH": "/usr/bin:/bin"}
    t0 = time.monotonic()
    proc = subprocess.run([str(node), "--stack-size=65500", str(glue_js), "--json", str(lean_file)],
                          cwd=lean_file.parent, env=env, capture_output=True, text=True)
    elapsed = time.monotonic() - t0
    if proc.returncode != 0:
        sys.exit(f"lean failed with {glue_js.name}: {proc.stderr[-500:]}")
    return elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1, help="runs per glue (default 1)")
    args = parser.parse_args()
    tc = load_wasm()
    if tc is None:
        sys.exit("the registry toolchain is not installed: run `moe-theory lean install`")
    with tempfile.TemporaryDirectory(dir="/tmp") as tmp:
        # The shipped glue can only reach /home and /tmp (the patch's second fix), so both glues run
        # through the same symlinked view of the toolchain under /tmp.
        view = Path(tmp) / "toolchain"
        view.mkdir()
        for part in ("lean", "lib", "node"):  # hard links: instant, and real files to the wasm runtime
            shutil.copytree(tc.root / part, view / part, copy_function=_link_or_copy)
        f = Path(tmp) / "Empty.lean"
        f.write_text("-- imports Init implicitly\n")
        results = {}
        for label, glue_name in (("patched", tc.glue.name), ("shipped", tc.shipped_glue.name)):
            glue_js = view / "lean" / glue_name
            times = [timed_run(view / "node" / "bin" / "node", glue_js, view / "lib", view, f)
                     for _ in range(args.runs)]
            results[label] = statistics.median(times)
            print(f"{label:8} glue: {results[label]:6.1f} s (median of {args.runs})", flush=True)
    print(f"shipped / patched: {results['shipped'] / results['patched']:.1f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
