"""Kind ``match``: the scale at which one law reaches a target (composition of laws).

Fields: ``law`` (a function of ``scale``), ``target`` (the value to reach: a
number, or an expression such as another law, evaluated at ``at``), ``scale``,
``claimed``; optional ``quantity`` (``ratio``: the matching scale divided by
the reference scale in ``at``, the default when ``at`` fixes ``scale``;
``scale``: the matching scale itself), ``at`` (fixed values; ``scale`` there
is the reference scale at which ``target`` is evaluated), ``rel``,
``tolerance``, ``abs_tolerance``, and ``minimize`` with ``constraint`` and
``eliminate``: then both ``law`` and ``target`` are first replaced by their
compute-optimal frontiers ``L*(scale)`` (:func:`pysym.derive.optimize.compute_optimal`).

"A dense model needs 20x the compute to match the MoE's loss" is ``law =
"L_dense"``, ``target = "L_moe"``, ``at = { C = 1e22 }``, ``claimed = 20``:
the engine inverts the dense frontier at the MoE's loss, ``C_dense* =
L_dense*^-1(L_moe*(1e22))``, and compares ``C_dense*/1e22`` with 20.

The inverse is solved in closed form (SymPy), with ``law`` proved strictly
monotone in ``scale`` (interval arithmetic over the scale's range and every
admissible value), so the matching scale is unique; the ratio is then an
expression in the printed numbers, compared over every admissible value
(:func:`pysym.audit.precision.compare`): ``holds``, ``fails`` or
``undetermined``.  Without a closed form the claim is ``inconclusive``.

>>> from pysym.audit.examples import example
>>> example("match", law="1 + 1/n", target="1 + 2/n", scale="n", at={"n": 100}, claimed=0.5)
('holds', 'the ratio of scales is 0.5: it matches the claimed 0.5')
>>> example("match", law="1 + 2.0/n", target="1 + 1.0/n", scale="n", at={"n": 100}, claimed=1.5, rel=">")[1]
'the ratio of scales ranges over [1.85714, 2.1579] (2 at the printed values): it exceeds the claimed 1.5 for every admissible value'
"""

from __future__ import annotations

import sympy as sp

from pysym.audit.boxes import Var, decide, fraction
from pysym.audit.budget import CPUTimeout, cpu_limit
from pysym.audit.fields import (EQUATION, EXPRESSION, POINT, REL, RELATIVE_TOLERANCE, SYMBOL, SYMBOLS, TOLERANCE,
                                VALUE, choice)
from pysym.audit.interval import IntervalError
from pysym.audit.numbers import show
from pysym.audit.precision import box_of, compare
from pysym.audit.printed import Printed
from pysym.audit.registry import Field, Kind, register
from pysym.audit.verdict import Outcome, Rounding
from pysym.derive.optimize import compute_optimal

__all__ = ["KIND", "evaluate"]


def check(values: dict) -> str | None:
    if ("constraint" in values) != ("eliminate" in values) or ("minimize" in values) != ("constraint" in values):
        return "`minimize`, `constraint` and `eliminate` go together (the frontiers of both laws)"
    if values.get("quantity") == "ratio" and values.get("scale") not in values.get("at", {}):
        return "`quantity = \"ratio\"` needs the reference scale in `at`"
    if values.get("rel", "==") != "==" and ("tolerance" in values or "abs_tolerance" in values):
        return "a tolerance goes with `rel = \"==\"` only"
    return None


def _frontier(cf, claim, expr, ev, name):
    """``expr`` as a function of the scale: its compute-optimal frontier when the claim asks for one."""
    if not claim.has("minimize") or not (set(claim.get("minimize")) | {claim.get("eliminate")}) & expr.free_symbols:
        return expr
    (m,) = claim.get("minimize") if len(claim.get("minimize")) == 1 else (None,)
    if m is None:
        raise cf.error(claim, "`minimize` takes one symbol here (the frontier of a law of N and D under C = k N D)")
    left, right = claim.get("constraint")
    scale, elim = claim.get("scale"), claim.get("eliminate")
    with cpu_limit(20):
        sol = sp.solve(sp.Eq(left, right), elim)
    if len(sol) != 1:
        raise cf.error(claim, f"cannot solve the constraint for `{elim}`")
    kappa = sp.simplify(scale / (sol[0] * m))
    if kappa.free_symbols - set(kappa.atoms(Printed)):
        raise cf.error(claim, "the constraint must read scale = kappa * minimized * eliminated")
    r = compute_optimal(expr, m, elim, scale, kappa)
    if r.L_star is None:
        raise ValueError(f"no closed-form frontier for the {name} ({r.method})")
    ev[f"{name}_frontier"] = f"{show(expr)} at the optimum: {show(r.L_star)}"
    return r.L_star


def evaluate(job):
    cf, claim = job.cf, job.claim
    scale, at = claim.get("scale"), dict(claim.get("at", {}))
    quantity = claim.get("quantity", "ratio" if scale in at else "scale")
    ev: dict = {}
    try:
        law = _frontier(cf, claim, claim.get("law"), ev, "law")
        target = _frontier(cf, claim, claim.get("target"), ev, "target")
    except (ValueError, CPUTimeout) as exc:
        return Outcome("inconclusive", f"no frontier in closed form: {exc}", ev, Rounding("unknown"))
    s0 = at.pop(scale, None)
    t = target.subs(at).subs(scale, s0) if s0 is not None else target.subs(at)
    f = law.subs(at)
    loose = {x for x in (t.free_symbols | f.free_symbols) if not isinstance(x, Printed)} - {scale}
    if loose or t.has(scale):
        raise cf.error(claim, f"`at` must fix {sorted(map(str, loose | ({scale} if t.has(scale) else set())))}: the "
                              "target must be a number and the law a function of the scale alone")
    T = sp.Dummy("T", positive=True)
    try:
        with cpu_limit(20):
            sols = [x for x in sp.solve(sp.Eq(f, T), scale) if not x.has(sp.I)]
    except (CPUTimeout, NotImplementedError, ValueError):
        sols = []
    if len(sols) != 1:
        return Outcome("inconclusive", f"SymPy found {len(sols)} closed-form solutions of {show(f)} = target for "
                                       f"{scale}, so the matching scale is not derived", ev, Rounding("unknown"))
    ev["inverse"] = f"{scale}* = {show(sols[0]).replace(str(T), 'target')}"
    monotone = _monotone(cf, f, scale)
    if monotone is not True:
        return Outcome("inconclusive", f"{monotone}, so the matching scale may not be unique", ev, Rounding("unknown"))
    ev["monotone"] = f"{show(f)} is strictly monotone in {scale} over its range (interval arithmetic)"
    star = sols[0].subs(T, t)
    reached = _reached(cf, f, t, star, scale)
    if reached is not True:
        return Outcome("inconclusive", f"{reached}, so the matching {scale} is not derived", ev, Rounding("unknown"))
    ev["reached"] = (f"the target lies between the law's values at the ends of the range of {scale}, and "
                     f"{scale}* inside that range (interval arithmetic, every admissible value)")
    derived = star / s0 if quantity == "ratio" else star
    what = "the ratio of scales" if quantity == "ratio" else f"the matching {scale}"
    o = compare(derived, claim.get("claimed"), rel=claim.get("rel", "=="), tol_rel=claim.get("tolerance"),
                tol_abs=claim.get("abs_tolerance"), what=what, claimed_text=_text(claim.fields.get("claimed")))
    return Outcome(o.verdict, o.summary, {**ev, **o.evidence, "method": "closed-form inverse; compared over every "
                                          "admissible value (interval branch and bound)"}, o.rounding)


def _text(raw) -> str | None:
    if isinstance(raw, str):
        return " ".join(raw.split())
    if isinstance(raw, (int, float)) and not isinstance(raw, bool):
        return repr(raw)
    return None


def _reached(cf, f, t, star, scale):
    """True when the monotone law takes the value ``t`` inside its scale's range and the solution ``star``
    lies in that range, proved for every admissible value; else why not (SymPy's inverse of
    ``E + A/sqrt(n) = T`` is ``A**2/(T - E)**2``, positive even for a target below ``E``, which the law never
    reaches)."""
    spec = cf.spec(scale)
    lo, hi = spec.low, spec.high
    checks = (((t - f.subs(scale, lo)) * (f.subs(scale, hi) - t), "the target is not proved to lie between the "
               f"law's values at {scale} = {show(lo)} and {scale} = {show(hi)} (the law may never reach it)"),
              ((star - lo) * (hi - star), f"the solution {scale}* is not proved to lie in [{show(lo)}, {show(hi)}]"))
    for expr, why in checks:
        try:
            if decide([(expr, ">=")], box_of([expr]), budget=300).status != "all":
                return why
        except (IntervalError, ZeroDivisionError, TypeError, ValueError):
            return why
    return True


def _monotone(cf, f, scale):
    spec = cf.spec(scale)
    if not (spec.low.is_number and spec.high.is_number):
        return f"the range of {scale} is not numeric"
    d = sp.factor_terms(sp.powsimp(sp.diff(sp.powsimp(f, force=True), scale), force=True))
    box = [Var(scale, fraction(spec.low), fraction(spec.high))] + box_of([d])
    try:
        for op_sign in (1, -1):
            if decide([(op_sign * d, ">")], box, budget=300).status == "all":
                return True
    except (IntervalError, ZeroDivisionError):
        return f"the derivative of the law in {scale} could not be bounded"
    return f"the law is not proved strictly monotone in {scale} over [{show(spec.low)}, {show(spec.high)}]"


KIND = register(Kind(
    "match",
    (Field("law", EXPRESSION, True, "the law whose scale is solved for (a function of `scale`)"),
     Field("target", VALUE, True, "the value it must reach: a number, or an expression evaluated at `at`"),
     Field("scale", SYMBOL, True, "the scale symbol (compute, parameters, ...)"),
     Field("claimed", VALUE, True, "the claimed ratio of scales, or the claimed scale"),
     Field("quantity", choice("ratio", "scale"), doc="ratio (default with a reference scale in `at`) or scale"),
     Field("at", POINT, doc="fixed values; the scale here is the reference scale of the target"),
     Field("rel", REL, doc="how the result compares with `claimed`: == (default), <, <=, >, >="),
     Field("minimize", SYMBOLS, doc="with `constraint`: compare compute-optimal frontiers"),
     Field("constraint", EQUATION, doc="an equation such as \"C = 6*N*D\""),
     Field("eliminate", SYMBOL, doc="the symbol the constraint eliminates"),
     Field("tolerance", RELATIVE_TOLERANCE, doc="relative tolerance (with ==)"),
     Field("abs_tolerance", TOLERANCE, doc="absolute tolerance (with ==)")),
    evaluate,
    check=check,
    doc="Inverts `law` at `target` (both frontiers, with `minimize`/`constraint`) in closed form, with `law` proved "
        "monotone in `scale`, and compares the matching scale or ratio with `claimed` over every admissible value.",
    precision="box",
))
