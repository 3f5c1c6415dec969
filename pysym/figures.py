r"""Figures drawn the same way everywhere.

* :func:`save_figure` -- tight layout, 110 dpi, no software stamp in the PNG
  (so the bytes depend only on the picture);
* :func:`math_label` -- a label or legend entry with its formulas in
  matplotlib's mathtext, from the same ASCII notation the prose uses
  (:mod:`pysym.render.prose`), so a plot never shows ``N^(-alpha/(1+alpha))``:

  >>> print(math_label("rho = A N^1.5 m^0.5 / (B d^0.5 T^1.5)"))
  $\rho = A N^{1.5} m^{0.5} / (B d^{0.5} T^{1.5})$
  >>> print(math_label("derived: N^(-alpha/(1+alpha))"))
  derived: $N^{-\alpha/(1+\alpha)}$

* :func:`plot_exponent` -- an exponent against the scale variable it belongs
  to (``N``, ``D`` or ``C`` on a logarithmic axis), never against a step index:
  the local log-log slope ``d log y / d log x`` at each scale, and the claimed
  exponent as a horizontal line.

  >>> import matplotlib
  >>> matplotlib.use("Agg")
  >>> import matplotlib.pyplot as plt
  >>> fig, ax = plt.subplots()
  >>> plot_exponent(ax, [1e9, 1e10, 1e11], [2.0e8, 6.4e8, 2.0e9], claimed=-0.8, scale="N", of="N_a*")
  >>> ax.get_xscale(), ax.get_xlabel()
  ('log', '$N$')
  >>> [round(float(v), 3) for v in ax.lines[0].get_ydata()]
  [0.505, 0.495]
  >>> plt.close(fig)
"""

from __future__ import annotations

import io
import math
from pathlib import Path
from typing import Sequence

from pysym.paths import write_atomic

__all__ = ["save_figure", "math_label", "plot_exponent"]

# what mathtext lacks, in the LaTeX the prose printer writes
_MATHTEXT = {r"\lesssim": r"\leq", r"\gtrsim": r"\geq", r"\lVert": r"\Vert", r"\rVert": r"\Vert"}


def save_figure(fig, path: Path) -> None:
    import matplotlib.pyplot as plt

    fig.tight_layout()
    png = io.BytesIO()
    fig.savefig(png, format="png", dpi=110, metadata={"Software": None})
    plt.close(fig)
    write_atomic(Path(path), png.getvalue())  # whole, and untouched when the picture is the same


def math_label(text: str, names: dict | None = None) -> str:
    """``text`` with each formula as ``$...$`` (matplotlib mathtext)."""
    from pysym.render.prose import segments

    out = []
    for seg in segments(text, names):
        if seg.kind == "math":
            tex = seg.value
            for a, b in _MATHTEXT.items():
                tex = tex.replace(a, b)
            out.append(f"${tex}$")
        else:
            out.append(seg.value.replace("$", r"\$"))
    return "".join(out)


def plot_exponent(ax, xs: Sequence[float], ys: Sequence[float], *, claimed: float | None = None,
                  scale: str = "N", of: str = "y", label: str = "derived (local log-log slope)") -> None:
    """Plot the local exponent ``d log y / d log x`` of ``ys`` against the scale
    variable ``xs`` (midpoints of consecutive points, logarithmic axis), with the
    ``claimed`` exponent as a dashed line."""
    mids, slopes = [], []
    for (x0, y0), (x1, y1) in zip(zip(xs, ys), zip(xs[1:], ys[1:])):
        mids.append(math.sqrt(x0 * x1))
        slopes.append((math.log(abs(y1)) - math.log(abs(y0))) / (math.log(x1) - math.log(x0)))
    ax.plot(mids, slopes, marker="o", label=label)
    if claimed is not None:
        ax.axhline(claimed, color="grey", linestyle="--", label=f"claimed: {claimed:g}")
    ax.set_xscale("log")
    ax.set_xlabel(math_label(scale))
    ax.set_ylabel(f"exponent of {math_label(of)} in {math_label(scale)}")
    ax.legend(fontsize="small")
