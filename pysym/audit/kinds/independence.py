"""Kind ``independence``: the minimizer of a law does not depend on some symbols.

Fields: ``law``, ``argmin`` (symbols minimized over), ``over`` (their box),
``of`` (the symbols the minimizer is claimed not to depend on); optional
``at`` and ``region``.

In order:

1. **structure**: when no first-order condition involves ``of`` and the box
   does not either, the law is ``F(argmin) + G(of)`` and its minimizer cannot
   depend on ``of`` (``holds``).
2. **stationary point**: SymPy solves the first-order conditions.  A unique
   solution that is free of ``of``, proved to lie inside the box for every
   configuration, with a Hessian proved positive definite, gives ``holds``;
   one that is a proved minimum inside the box and involves ``of`` gives
   ``fails``.
3. **sampling**: the minimizer at sampled values of ``of``; if it moves,
   ``fails``; if not, ``inconclusive`` (sampled agreement is not a proof).

>>> from pysym.audit.examples import example
>>> example("independence", law="(x - 3)**2 + y*c", argmin=["x"], over={"x": [1, 10]}, of=["y", "c"])[1]
'the first-order conditions dL/dx = 0 do not involve y, c, nor does the box: the minimizer cannot depend on them'
>>> example("independence", law="(x - 3)**2*y + c", argmin=["x"], over={"x": [1, 10]}, of=["y", "c"])[1]
'the unique stationary point x = 3 is a minimum inside the box (proved) and does not involve y, c'
"""

from __future__ import annotations

import sympy as sp

from pysym.audit.budget import CPUTimeout, cpu_limit
from pysym.audit.context import Context
from pysym.audit.fields import EXPRESSION, POINT, RANGES, SYMBOLS
from pysym.audit.numbers import num, show
from pysym.audit.proofs import attempt, not_smooth
from pysym.audit.registry import Field, Kind, register
from pysym.audit.scaling import real_solutions
from pysym.audit.relations import scope_note
from pysym.audit.verdict import Outcome
from pysym.derive import prove
from pysym.derive.optimize import minimize

__all__ = ["KIND", "evaluate"]


def check(values: dict) -> str | None:
    vs, of, box = values.get("argmin", []), values.get("of", []), values.get("over", {})
    if set(vs) & set(of):
        return "`argmin` and `of` must not share a symbol"
    if set(box) != set(vs):
        return "`over` must give a range for each `argmin` symbol, and only for them"
    fixed = set(values.get("at", {})) & (set(vs) | set(of))
    if fixed:
        return f"`at` may not fix {', '.join(sorted(map(str, fixed)))}: the minimizer and `of` vary"
    return None


def _inside(sol: dict, box: dict, order) -> bool:
    """Is the solution inside the box for every configuration (proved)?"""
    for v, (lo, hi) in box.items():
        x = sol[v]
        if not (attempt("nonnegative", x - lo, order) and attempt("nonnegative", hi - x, order)):
            return False
    return True


def _stationary(cf, claim, law, vs, ofs, box, ev):
    if prove.heavy(law, vs):
        return None
    try:
        with cpu_limit(30):
            sols = sp.solve([sp.diff(law, v) for v in vs], vs, dict=True)
    except (CPUTimeout, NotImplementedError, ValueError, TypeError):
        return None
    sols = real_solutions(sols)  # a real root SymPy writes with I stays: uniqueness is counted over all of them
    if sols is None:
        return None
    sols = [s for s in sols if set(s) == set(vs)]
    ctx = Context(cf, claim, claim.get("region"))
    order = ctx.order()
    possible = []
    for s in sols:  # drop the ones that are certainly outside the box
        try:
            if all(float(sp.N(box[v][0])) <= float(sp.N(s[v])) <= float(sp.N(box[v][1])) for v in vs):
                possible.append(s)
        except (TypeError, ValueError):
            possible.append(s)  # symbolic: decided below
    if len(possible) != 1:
        return None
    s = possible[0]
    ev["stationary_point"] = {str(k): show(val) for k, val in s.items()}
    ev["values"] = {str(k): num(val) for k, val in s.items() if val.is_number}
    ev["method"] = "solved the stationarity conditions (SymPy)"
    hess = sp.hessian(law, vs).subs(s)
    minimum = all(attempt("positive", sp.Matrix(hess[:i, :i]).det(), order) for i in range(1, len(vs) + 1))
    ev["second_order"] = "Hessian positive definite (proved)" if minimum else "Hessian not proved positive definite"
    inside = _inside(s, box, order)
    ev["inside"] = "inside the box for every configuration (proved)" if inside else "not proved inside the box"
    dep = sorted({str(x) for val in s.values() for x in val.free_symbols} & {str(o) for o in ofs})
    if not (minimum and inside):
        return None  # not a proved interior minimum: decide by the other means
    rough = not_smooth(law, order)
    if rough:
        # the only stationary point of an interval is its minimum only where the law is smooth (1/x + 1/(x-5)**2
        # has one at 2.61, and falls below it beyond its pole at 5)
        ev["global"] = f"the law may not be smooth on the box: {rough}"
        return None
    if len(vs) > 1:
        # in one variable the only stationary point of an interval, a minimum, is the minimum; in two it need not
        # be (x**2 + y**2*(1 - x)**3 has one, at 0, and goes below it on the box's faces): the law must be proved
        # convex (its Hessian positive definite everywhere)
        full = sp.hessian(law, vs)
        if not all(attempt("positive", sp.Matrix(full[:i, :i]).det(), order) for i in range(1, len(vs) + 1)):
            ev["global"] = "the law is not proved convex, so the interior minimum is not proved the minimum of the box"
            return None
        ev["global"] = "the law is convex (Hessian positive definite everywhere, proved): the minimum of the box"
    if not dep:
        return Outcome("holds", f"the unique stationary point {_point_text(ev['stationary_point'])} is a minimum inside the box "
                                f"(proved) and does not involve {', '.join(map(str, ofs))}", ev)
    return Outcome("fails", f"the optimum depends on {', '.join(dep)}: {_point_text(ev['stationary_point'])} (a proved minimum "
                            "inside the box)", ev)


def _point_text(point: dict) -> str:
    return ", ".join(f"{k} = {v}" for k, v in point.items())


def evaluate(job):
    o = _evaluate(job)
    return Outcome(o.verdict, o.summary + scope_note(job.claim), o.evidence)


def _evaluate(job):
    cf, claim = job.cf, job.claim
    law, vs, ofs, box = claim.get("law"), claim.get("argmin"), claim.get("of"), claim.get("over")
    # the box keeps each symbol's sign, which the law was read (and simplified) with
    from pysym.audit.context import _keeps_assumptions

    for sym, (low, high) in box.items():
        broken = _keeps_assumptions(cf.spec(sym), low)
        if broken:
            raise cf.error(claim, f"the range [{sp.sstr(low)}, {sp.sstr(high)}] of `{sym}` does not keep {sym} "
                                  f"{broken}, as its range in [symbols] does: narrow the range instead")
    at = claim.get("at", {})
    names = ", ".join(map(str, ofs))
    ev: dict = {}
    # structural (cheap, and a proof): first-order conditions that do not involve the `of` symbols, on a box
    # that does not either
    firsts = [sp.diff(law, v) for v in vs]
    box_syms = set().union(*(lo.free_symbols | hi.free_symbols for lo, hi in box.values()))
    if not any(f.free_symbols & set(ofs) for f in firsts) and not box_syms & set(ofs):
        ev["method"] = "first-order conditions (SymPy)"
        ev["structure"] = (f"no dL/d{', dL/d'.join(map(str, vs))} involves {names} and the box does not either: L = F({', '.join(map(str, vs))})"
                           f" + G({names}, ...), so the minimizer cannot depend on {names}")
        return Outcome("holds", f"the first-order conditions dL/d{', dL/d'.join(map(str, vs))} = 0 do not involve "
                                f"{names}, nor does the box: the minimizer cannot depend on them", ev)
    found = _stationary(cf, claim, law, vs, ofs, box, ev)
    if found is not None:
        return found
    ctx = Context(cf, claim, claim.get("region"))
    pts = ctx.sample()
    # numeric: argmin at sampled values of the `of` symbols
    base_pt = pts[0]
    found_min = []
    others = (law.free_symbols | box_syms) - set(vs)
    for pt in pts[:6]:
        fixed = {s: sp.Float(float((pt if s in ofs else base_pt)[s]), 30) for s in others}
        fixed.update(at)
        try:
            bx = {v: (float(sp.N(box[v][0].subs(fixed))), float(sp.N(box[v][1].subs(fixed)))) for v in vs}
            m = minimize(law, bx, fixed)
        except (TypeError, ValueError) as exc:
            ev["method"] = "numeric minimization at sampled values"
            return Outcome("inconclusive", f"no closed form, and the numeric minimization failed: {exc}", ev)
        found_min.append((fixed, m))
    base = found_min[0][1].point
    ev["method"] = "numeric minimization at sampled values"
    for fixed, m in found_min[1:]:
        for v in vs:
            if abs(m.point[v] - base[v]) > 1e-6 * (1 + abs(base[v])):
                ev["counterexample"] = {"argmin_1": {str(k): num(x) for k, x in base.items()},
                                        "argmin_2": {str(k): num(x) for k, x in m.point.items()},
                                        "at_2": {str(k): num(x) for k, x in fixed.items() if k in ofs}}
                return Outcome("inconclusive", f"the argmin appears to move with {names}: {ev['counterexample']} "
                                               "(minimizers found numerically: evidence, not a proof)", ev)
    return Outcome("inconclusive", f"the argmin did not move across {len(found_min)} sampled values of {names}, but "
                                   "no closed form was found to prove it (sampled agreement is not a proof)", ev)


KIND = register(Kind(
    "independence",
    (Field("law", EXPRESSION, True, "the law"),
     Field("argmin", SYMBOLS, True, "the symbols it is minimized over"),
     Field("over", RANGES, True, "their box { x = [low, high], ... }"),
     Field("of", SYMBOLS, True, "the symbols the minimizer is claimed not to depend on"),
     Field("at", POINT, doc="fixed values for the numeric minimizations"),
     Field("region", RANGES, doc="ranges replacing the symbols' ranges for this claim")),
    evaluate,
    check=check,
    doc="Solves the first-order conditions and proves the second-order condition and that the point is inside "
        "the box; or notes that the first-order conditions and the box do not involve `of`. Otherwise minimizes "
        "at several values of `of` (never `holds`).",
))
