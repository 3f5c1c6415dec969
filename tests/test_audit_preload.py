"""The auditor's preloading (pysym/audit/preload.py): a forked worker finds
what it evaluates and draws with already imported, and the parent keeps its
own matplotlib backend.  Run in a fresh interpreter: this test process has
imported NumPy and matplotlib long before."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

SCRIPT = textwrap.dedent("""
    import json, sys
    import matplotlib
    matplotlib.use("pdf")  # a user's own backend (a notebook's, say)
    from pysym.audit import preload
    from pysym.audit.budget import Budget, run_many
    import sympy as sp
    x = sp.Symbol("x")
    expr = x**2 + 1  # the claims are parsed in the parent, before it forks
    if sys.argv[1] == "preload":
        preload.plotting()

    def work():
        before = set(sys.modules)
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot  # noqa: F401
        for modules in ("numpy", "mpmath", "math"):
            assert sp.lambdify([x], expr, modules=modules)(2) == 5
        return sorted(set(sys.modules) - before)

    [(status, new)] = run_many([work], Budget(cpu_seconds=60))
    print(json.dumps({"status": status, "new": sorted(set(new)), "backend": matplotlib.get_backend()}))
""")


def _run(mode: str) -> dict:
    out = subprocess.run([sys.executable, "-c", SCRIPT, mode], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_a_worker_imports_nothing_after_preloading_and_the_backend_stays():
    got = _run("preload")
    assert got["status"] == "ok"
    assert got["new"] == [], f"imported in the worker, not preloaded: {got['new']}"
    assert got["backend"] == "pdf"


def test_without_preloading_each_worker_imports_numpy_and_matplotlib_itself():
    """The control: what the preloading saves every worker."""
    got = _run("none")
    assert got["status"] == "ok", got
    assert "numpy.f2py" in got["new"] and "matplotlib.figure" in got["new"], got["new"]
