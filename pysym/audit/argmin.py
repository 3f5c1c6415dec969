"""Where a law is minimized over one variable: shared by ``optimum`` and ``sign``.

:func:`setup` reads a claim's ``law``, ``argmin`` and ``over`` and returns an
:class:`Argmin`: the law, the variable, its range, the other symbols, and a
:class:`pysym.audit.context.Context` in which the variable's range *is*
``over`` (so a proof about the minimizer covers exactly the range the claim
is about).  :func:`grid_argmin` locates the global minimizer of the law at one
configuration numerically (a 2001-point grid, log-spaced over wide ranges,
then golden-section refinement) and says whether it is at the lower end, the
upper end, or interior.

>>> import numpy as np
>>> grid_argmin(lambda x: (x - 2.0) ** 2, 0.5, 10.0, [])[1]
'interior'
>>> grid_argmin(lambda x: 1 / x, 1.0, 10.0, [])
(10.0, 'upper')
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import sympy as sp

from pysym.audit.context import Context
from pysym.numerics import compiled

__all__ = ["Argmin", "setup", "grid_argmin", "describe_cfg"]


@dataclass
class Argmin:
    law: sp.Expr
    v: sp.Symbol
    lo: sp.Expr
    hi: sp.Expr
    others: list  # the other symbols of the law and of the range, sorted by name
    ctx: Context

    def numeric(self):
        """``f(v, *others)`` (numpy) and the range ends ``lo(*others)``, ``hi(*others)``."""
        f_np = compiled([self.v, *self.others], self.law, "numpy")
        lo_f = compiled(self.others, self.lo, "math")
        hi_f = compiled(self.others, self.hi, "math")
        return f_np, lo_f, hi_f

    def order(self) -> list:
        """The prover's ordered pairs, with ``lo <= v <= hi`` among them."""
        return self.ctx.order()


def setup(cf, claim) -> Argmin:
    law, v = claim.get("law"), claim.get("argmin")
    lo, hi = claim.get("over")
    region = dict(claim.get("region") or {})
    if v in region:
        raise cf.error(claim, f"`region` may not include {v}, the variable minimized over: give its range in `over`")
    if v in (lo.free_symbols | hi.free_symbols):
        raise cf.error(claim, f"`over`: the range of {v} cannot depend on {v}")
    if v.is_integer:  # an integer ranges over the integers inside `over`: its ends are those integers
        lo, hi = sp.ceiling(lo), sp.floor(hi)
    others = sorted((law.free_symbols - {v}) | lo.free_symbols | hi.free_symbols, key=str)
    ctx = Context(cf, claim, {**region, v: (lo, hi)})
    return Argmin(law, v, lo, hi, others, ctx)


def grid_argmin(f_np, lo: float, hi: float, args, n: int = 2001):
    """Global argmin on [lo, hi]; returns (x, where) with where in lower|upper|interior."""
    if lo <= 0 or hi / lo < 20:
        xs = np.linspace(lo, hi, n)
    else:
        xs = np.geomspace(lo, hi, n)
    with np.errstate(all="ignore"):
        vals = np.broadcast_to(np.asarray(f_np(xs, *args), dtype=float), xs.shape)
    vals = np.where(np.isfinite(vals), vals, np.inf)
    i = int(np.argmin(vals))
    # values at the ends that tie the best within rounding count as the end
    if i == n - 1 or vals[-1] <= vals[i] + 1e-12 * abs(vals[i]):
        return hi, "upper"
    if i == 0:
        return lo, "lower"
    a, b = xs[i - 1], xs[i + 1]
    with np.errstate(all="ignore"):
        for _ in range(80):  # golden section inside the bracket
            c, d = b - (b - a) * 0.618033988749895, a + (b - a) * 0.618033988749895
            fc = np.asarray(f_np(np.array([c]), *args), dtype=float).reshape(-1)[0]
            fd = np.asarray(f_np(np.array([d]), *args), dtype=float).reshape(-1)[0]
            if fc < fd:
                b = d
            else:
                a = c
    return (a + b) / 2, "interior"


def describe_cfg(cfg: dict) -> str:
    return "{" + ", ".join(f"{k} = {val}" for k, val in cfg.items()) + "}"
