"""Audit plots: where a figure shows a finding.

* ``optimum`` claims: the law across the optimized variable at a sampled
  configuration where the claim holds and one where it does not, minimum marked;
* numeric ``exponent`` claims: the local exponents against the scale (log
  axis) and the claim;
* ``value`` claims: the minimized law along the claimed quantity's variable
  (the first variable of ``over`` when the quantity is not one of them), with
  the derived minimizer and the claimed value.

Each figure is drawn in a worker process under a CPU-time and memory budget
(:mod:`pysym.audit.budget`), so a pathological law cannot stall the report.
File names are bounded and collision-free (:func:`plot_name`), whatever the
paper's and the claim's ids are.

>>> plot_name("zhao-2410.13964", "optimum-between-sharp")
'audit_zhao-2410.13964_optimum-between-sharp_293b2c2964.png'
>>> len(plot_name("p", "x" * 300)) <= 100
True
>>> plot_name("p", "a/b") != plot_name("p", "a_b")
True
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from pysym.audit import preload
from pysym.audit.budget import Budget, run_many
from pysym.audit.printed import midpoint
from pysym.numerics import compiled

__all__ = ["plot_name", "render_plots", "PLOT_BUDGET"]

PLOT_BUDGET = Budget(cpu_seconds=30, memory_mb=1024)


def plot_name(paper: str, claim: str) -> str:
    """A file name for a claim's plot: readable, at most 100 characters, and
    distinct for distinct (paper, claim) pairs (a hash of both ends it)."""
    def slug(text: str) -> str:
        return re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("._")[:32] or "x"

    digest = hashlib.sha256(f"{paper}\x00{claim}".encode("utf-8")).hexdigest()[:10]
    return f"audit_{slug(paper)}_{slug(claim)}_{digest}.png"


def render_plots(result, out_dir: Path, link_prefix: str) -> dict:
    """Draw the plots into ``out_dir``; returns ``{(paper, claim): [(link, caption)]}``
    with links ``link_prefix + file name`` (relative to the report)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    files = {cf.paper.id: cf for cf in result.files}
    jobs = []
    for v in result.verdicts:
        if v.claim.kind == "optimum" and ("counterexample" in v.evidence or "example" in v.evidence):
            draw = _plot_optimum
        elif v.claim.kind == "exponent" and "local_exponents" in v.evidence:
            draw = _plot_exponents
        elif v.claim.kind == "value" and ("minimizer" in v.evidence or v.claim.has("minimize")):
            draw = _plot_value
        else:
            continue
        jobs.append((v, draw, plot_name(v.paper, v.claim.id)))
    thunks = [lambda v=v, draw=draw, name=name: _draw(draw, files[v.paper], v, out_dir / name)
              for v, draw, name in jobs]
    made: dict = {}
    if thunks:
        preload.plotting()  # once, here, rather than in every worker
    for (v, _, name), (status, caption) in zip(jobs, run_many(thunks, PLOT_BUDGET)):
        if status == "ok" and caption:
            made[(v.paper, v.claim.id)] = [(f"{link_prefix}{name}", caption)]
    return made


def _draw(draw, cf, v, path: Path) -> str | None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    try:
        return draw(plt, cf, v, path)
    except (ValueError, TypeError, KeyError, ZeroDivisionError, OverflowError, IndexError, AttributeError,
            NameError):
        return None


def _save(fig, path: Path) -> None:
    from pysym.figures import save_figure

    save_figure(fig, path)


def _plot_optimum(plt, cf, v, path: Path) -> str:
    """One panel per sampled configuration (an example where the claim holds,
    one where it does not), each on its own scale, minimum marked."""
    import numpy as np
    import sympy as sp

    law = midpoint(v.claim.get("law"))  # printed numbers at their printed values
    x = v.claim.get("argmin")
    lo_e, hi_e = midpoint(v.claim.get("over"))
    panels = [(label, v.evidence[label]) for label in ("example", "counterexample") if v.evidence.get(label)]
    fig, axes = plt.subplots(1, len(panels), figsize=(4.2 * len(panels), 3.2), squeeze=False)
    for ax, (label, cfg) in zip(axes[0], panels):
        point = {cf.symbols[k].symbol: float(val) for k, val in cfg.items() if k in cf.symbols and k != str(x)}
        lo, hi = float(sp.N(lo_e.subs(point))), float(sp.N(hi_e.subs(point)))
        f = compiled(x, law.subs(point), "numpy")
        xs = np.geomspace(lo, hi, 400) if lo > 0 and hi / lo > 20 else np.linspace(lo, hi, 400)
        with np.errstate(all="ignore"):
            ys = np.broadcast_to(np.asarray(f(xs), dtype=float), xs.shape)
        i = int(np.nanargmin(ys))
        ax.plot(xs, ys)
        ax.plot([xs[i]], [ys[i]], "o")
        if xs[-1] / xs[0] > 20:
            ax.set_xscale("log")
        ax.set_yscale("log" if np.nanmin(ys) > 0 and np.nanmax(ys) / np.nanmin(ys) > 50 else "linear")
        where = "claim holds" if label == "example" else f"minimum at the {cfg.get('location', '?')} end"
        shown = ", ".join(f"{k} = {val}" for k, val in cfg.items() if k not in (str(x), "argmin", "location"))
        ax.set_title(f"{where}\n{shown}", fontsize=7)
        ax.set_xlabel(str(x))
        ax.set_ylabel(_label(v.claim.fields["law"]))
    _save(fig, path)
    return (f"{_label(v.claim.fields['law'])} against {x} at sampled configurations; the dot marks the global minimum. "
            f"Claimed location: {v.claim.get('location')}.")


def _plot_value(plt, cf, v, path: Path) -> str:
    """The minimized law along the claimed quantity's variable (else the first
    variable of ``over``), the derived minimizer, and the claimed value."""
    import numpy as np
    import sympy as sp

    law = midpoint(v.claim.get("minimize"))  # printed numbers at their printed values
    over = midpoint(v.claim.get("over"))
    quantity = v.claim.get("quantity")
    inside = [s for s in over if quantity is not None and s in getattr(quantity, "free_symbols", ())]
    x = quantity if quantity in over else (inside[0] if len(inside) == 1 else next(iter(over)))
    name = str(x)
    fixed = {s: float(sp.N(midpoint(val))) for s, val in v.claim.get("at", {}).items()}
    minimizer = {str(k): float(val) for k, val in v.evidence.get("minimizer", {}).items()}
    if not minimizer:  # a closed-form verdict: the minimizer at the printed values, numerically
        from pysym.derive.optimize import minimize

        box = {s: tuple(float(sp.N(b.subs(fixed))) for b in ends) for s, ends in over.items()}
        minimizer = {str(k): float(val) for k, val in minimize(law, box, fixed).point.items()}
    fixed.update({cf.symbols[k].symbol: val for k, val in minimizer.items() if k != name})
    lo, hi = (float(sp.N(b.subs(fixed))) for b in over[x])
    f = compiled(x, law.subs(fixed), "numpy")
    xs = np.geomspace(lo, hi, 400) if lo > 0 and hi / lo > 20 else np.linspace(lo, hi, 400)
    with np.errstate(all="ignore"):
        ys = np.broadcast_to(np.asarray(f(xs), dtype=float), xs.shape)
    fig, ax = plt.subplots(figsize=(5, 3.2))
    ax.plot(xs, ys, label=_label(v.claim.fields["minimize"]))
    best = minimizer[name]
    ax.axvline(best, color="C0", linestyle=":", label=f"derived minimizer {name} = {best:.4g}")
    claimed_at = _claimed_at(v, quantity, x, fixed)
    if claimed_at is not None:
        ax.axvline(claimed_at, color="C3", linestyle="--", label=f"claimed: {name} = {claimed_at:.4g}")
    if xs[-1] / xs[0] > 20 and xs[0] > 0:
        ax.set_xscale("log")
    if np.nanmin(ys) > 0 and np.nanmax(ys) / np.nanmin(ys) > 50:
        ax.set_yscale("log")
    ax.set_xlabel(name)
    ax.set_ylabel(_label(v.claim.fields["minimize"]))
    ax.legend(fontsize=7)
    _save(fig, path)
    return (f"{_label(v.claim.fields['minimize'])} along {name} (other variables at the minimizer or the stated "
            "values), with the derived minimizer" + (" and the claimed value." if claimed_at is not None else "."))


def _claimed_at(v, quantity, x, fixed) -> float | None:
    """The value of ``x`` at which the claimed quantity takes its claimed value (``None`` if not one)."""
    import sympy as sp

    claimed = float(v.evidence["claimed"]) if "claimed" in v.evidence else \
        float(sp.N(midpoint(v.claim.get("claimed")).subs(fixed)))
    if quantity == x:
        return claimed
    q = midpoint(quantity).subs({k: val for k, val in fixed.items() if k != x})
    roots = [r for r in sp.solve(sp.Eq(q, sp.nsimplify(claimed)), x) if r.is_real and r.is_positive]
    return float(roots[0]) if len(roots) == 1 else None


def _plot_exponents(plt, cf, v, path: Path) -> str:
    """The local log-log slopes against the scale (log axis), each at the geometric
    midpoint of its two scales, and the claimed exponent (a band for a range)."""
    import sympy as sp

    local = [float(x) for x in v.evidence["local_exponents"]]
    scale = v.claim.get("scale")
    at = {s: midpoint(val) for s, val in v.claim.get("at", {}).items()}
    lo, hi = (float(sp.N(midpoint(b).subs(at))) for b in v.claim.get("range"))
    n = len(local)
    scales = [lo * (hi / lo) ** (i / n) for i in range(n + 1)]
    mids = [(a * b) ** 0.5 for a, b in zip(scales, scales[1:])]
    fig, ax = plt.subplots(figsize=(5, 3.0))
    ax.plot(mids, local, "o-", label="derived (local log-log slope)")
    claimed = str(v.evidence.get("claimed_value") or "").strip()
    if claimed.startswith("["):
        c_lo, c_hi = (float(t) for t in claimed[1:-1].split(","))
        ax.axhspan(c_lo, c_hi, color="gray", alpha=0.3, label=f"claimed [{c_lo:g}, {c_hi:g}]")
    elif claimed:
        ax.axhline(float(claimed), linestyle="--", color="gray", label=f"claimed {float(claimed):g}")
    ax.set_xscale("log")
    ax.set_xlabel(f"{scale} (log scale)")
    ax.set_ylabel(f"local exponent in {scale}")
    ax.legend(fontsize=7)
    _save(fig, path)
    return (f"Local exponent of {_label(v.claim.fields['quantity'])} in {scale}, between neighbouring "
            f"log-spaced values of {scale}, against the claimed value.")


def _label(text) -> str:
    """A field's text for a caption or an axis: one line, at most 60 characters."""
    text = " ".join(str(text).split())
    return text if len(text) <= 60 else text[:57] + "..."
