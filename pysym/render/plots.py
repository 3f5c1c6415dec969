r"""Figures: each derivation's plot functions, run with matplotlib's Agg backend.

A derivation lists plot callables ``f(out_dir, plt) -> [(file name, caption)]``
(:attr:`pysym.derive.core.Derivation.plots`).  :func:`plot_images` runs
them into a private temporary folder under fixed settings -- matplotlib's
built-in defaults (a user's ``matplotlibrc`` is ignored) plus the
:data:`RC` overrides -- and returns the bytes, so a failing plot leaves
nothing behind; :func:`render_plots` then writes each file atomically.
The plot functions save with ``metadata={"Software": None}``, so the same
inputs give byte-identical PNGs.

>>> import sympy as sp
>>> from pysym.derive.core import Derivation, Identity, Var
>>> delta = Var("delta", 0.01, 1, "a small number", latex=r"\delta")
>>> d = Derivation("demo", "Logarithm of a square", vars=[delta], steps=[
...     Identity("sq", sp.log(delta.symbol**2), 2 * sp.log(delta.symbol), "log of a power")],
...     conclusion="sq")
>>> report = d.verify()
>>> plot_images(report)  # this derivation has no plots
[]
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from pysym.derive.core import Report
from pysym.paths import write_atomic

__all__ = ["RC", "plot_images", "render_plots", "pyplot"]

RC = {
    "svg.hashsalt": "moe-theory",  # fixed ids should a plot be saved as SVG
    "svg.fonttype": "path",
    "pdf.fonttype": 42,
    "font.family": ["DejaVu Sans"],  # ships with matplotlib
    "text.usetex": False,
    "axes.formatter.use_locale": False,
    "figure.dpi": 100,
    "savefig.dpi": 110,
    "path.simplify": True,
    "agg.path.chunksize": 0,
}


def pyplot():
    """``matplotlib.pyplot`` on the Agg backend (switched to it if needed)."""
    import matplotlib

    if matplotlib.get_backend().lower() != "agg":
        matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    return plt


def plot_images(report: Report) -> list[tuple[str, bytes, str]]:
    """Run the derivation's plot functions; ``[(file name, PNG bytes, caption)]``."""
    d = report.derivation
    if not d.plots:
        return []
    import matplotlib

    plt = pyplot()
    out: list[tuple[str, bytes, str]] = []
    with tempfile.TemporaryDirectory(prefix="moe-theory-plots-") as tmp:
        folder = Path(tmp)
        for func in d.plots:
            with matplotlib.style.context("default"), matplotlib.rc_context(RC):
                try:
                    made = func(folder, plt)
                finally:
                    plt.close("all")
            for name, caption in made:
                if Path(name).name != name:
                    raise ValueError(f"{d.name}: plot file name {name!r} must be a plain file name")
                if any(name == n for n, _, _ in out):
                    raise ValueError(f"{d.name}: two plots write {name}")
                out.append((name, (folder / name).read_bytes(), caption))
    return out


def render_plots(report: Report, out_dir: Path) -> list[tuple[Path, str]]:
    """Write the derivation's figures into ``out_dir``; ``[(path, caption)]``."""
    out_dir = Path(out_dir)
    written = []
    for name, data, caption in plot_images(report):
        path = out_dir / name
        write_atomic(path, data)
        written.append((path, caption))
    return written
