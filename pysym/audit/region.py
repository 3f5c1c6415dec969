"""Claims for every point of a region, with printed numbers: who quantifies over what.

An ``inequality``, ``identity`` or ``sign`` claim says that a relation ``R(x, c)``
holds for every point ``x`` of its region; the printed numbers ``c`` range
over their admissible intervals.  Its verdict is about the statement
``P(c) = "R(x, c) for every x"``:

* ``holds``: ``P(c)`` for every admissible ``c`` -- the relation holds on the
  whole box of ``x`` and ``c`` (branch and bound proves it);
* ``fails``: ``P(c)`` for no admissible ``c`` -- proved by one point ``x0``
  where the relation fails for every admissible ``c``;
* ``undetermined``: ``P(c)`` for some admissible ``c`` (proved at one ``c``
  over the whole region) and not for others (a counterexample);
* otherwise, with a counterexample at the printed values, ``fails`` with the
  rounding status "printed values only"; else ``inconclusive``.

:func:`region_verdict` needs every symbol of the relation to have a numeric
range (integer symbols are bounded as reals, and their witnesses are integers).

>>> import sympy as sp
>>> from fractions import Fraction
>>> from pysym.audit.boxes import Var
>>> from pysym.audit.printed import printed_literal
>>> x = sp.Symbol("x", positive=True)
>>> X = [Var(x, Fraction(1), Fraction(10))]
>>> region_verdict([(x**2 - printed_literal("3.0")*x, ">=")], X).verdict   # fails at x = 1 for all c
'fails'
>>> region_verdict([(x**2 + 1 - printed_literal("2.0")*x, ">=")], X).verdict  # x**2 + 1 >= c x: c <= 2 only
'undetermined'
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import sympy as sp

from pysym.audit.boxes import Var, decide, fraction
from pysym.audit.precision import box_of, point_text

__all__ = ["RegionResult", "region_verdict", "numeric_box", "undefined_note"]


@dataclass
class RegionResult:
    """``verdict`` (holds, fails, undetermined, inconclusive), ``status`` (its
    rounding status) and the witnesses: ``counterexample`` (a point of the
    region and, for a robust failure, every admissible value), ``holds_at``
    (admissible values where the relation holds on the whole region)."""

    verdict: str
    status: str
    counterexample: dict | None = None
    holds_at: dict | None = None
    boxes: int = 0
    notes: list = field(default_factory=list)

    def describe_counterexample(self) -> str:
        return point_text(self.counterexample) if self.counterexample else ""


def numeric_box(ctx, symbols) -> list[Var] | None:
    """Box variables for ``symbols`` from the claim's ranges, or None if a range is not numeric."""
    out = []
    specs = {s.symbol: s for s in ctx.specs}
    for sym in sorted(symbols, key=str):
        spec = specs.get(sym)
        if spec is None:
            return None
        lo, hi = ctx.range(spec)
        if not (lo.is_number and hi.is_number):
            return None
        # the box is the region exactly: a rational or a float is its own value; any other number (1 - exp(-50),
        # sqrt(2)) has no exact end here, and `nsimplify` would round it to a nearby rational (1 - exp(-50) to 1)
        if not all(b.is_Rational or b.is_Float for b in (lo, hi)):
            return None
        try:
            out.append(Var(sym, fraction(sp.Rational(lo)), fraction(sp.Rational(hi)), bool(spec.integer)))
        except (TypeError, ValueError):
            return None
    return out


def undefined_note(ctx, needed, *, budget: int = 600) -> str | None:
    """None when every condition of ``needed`` (``{(kind, d)}``, as
    :func:`pysym.audit.definedness.conditions` gives them: each denominator nonzero,
    each logarithm's argument positive, each fractional power's base
    nonnegative) is proved at every point of the claim's region and for every
    admissible value of its printed numbers, by SymPy or by interval branch
    and bound over the region; else why not.  A relation
    whose two sides are undefined at the same point (``1/(x - 1) == 1/(x -
    1)`` on ``[1, 10]``) is not a relation that holds there, although the
    difference of its sides is 0."""
    from pysym.audit.definedness import NEEDS
    from pysym.audit.numbers import show
    from pysym.audit.printed import Printed

    for kind, d in sorted(needed, key=lambda c: (sp.default_sort_key(c[1]), c[0])):
        what = f"{show(d)} {NEEDS[kind]}"
        if _proved_by_sympy(ctx, kind, d):
            continue
        xvars = numeric_box(ctx, {s for s in d.free_symbols if not isinstance(s, Printed)})
        if xvars is None:
            return f"where it is defined ({what}) is not proved, and a range of its symbols is not numeric"
        box = xvars + box_of([d])
        if kind == "nonzero":
            decisions = [decide([(d, ">")], box, budget=budget), decide([(-d, ">")], box, budget=budget)]
        else:
            decisions = [decide([(d, ">" if kind == "positive" else ">=")], box, budget=budget)]
        if any(dd.status == "all" for dd in decisions):
            continue
        bad = [dd.violated for dd in decisions if dd.violated is not None]
        if kind == "nonzero":  # d reaches 0 where it takes both signs, or is 0 at a point
            bad = bad if len(bad) == len(decisions) else []
        where = f" (not at {point_text(_point(box, bad[0]))})" if bad and len(decisions) == 1 else ""
        return f"it is a real number only where {what}, which is not proved on the whole region{where}"
    return None


def _proved_by_sympy(ctx, kind: str, d) -> bool:
    """``d`` proved positive, nonnegative or nonzero on the claim's ranges by
    SymPy (:mod:`pysym.derive.prove`, as the relations are), with every printed
    number a symbol over its interval."""
    from pysym.audit.printed import has_printed
    from pysym.derive import prove

    if has_printed([d]):
        return False  # the box method covers the printed numbers' intervals
    order = ctx.order()
    if kind == "nonzero":
        return prove.prove_positive(d, order).ok or prove.prove_positive(-d, order).ok
    return (prove.prove_positive if kind == "positive" else prove.prove_nonnegative)(d, order).ok


def _fix(constraints, point: dict):
    return [(sp.sympify(g).xreplace({k: sp.Rational(v) for k, v in point.items()}), op) for g, op in constraints]


def _point(variables, box) -> dict:
    """A point of ``box``: its centre, or its lower end for an integer symbol (an integer of the box)."""
    return {v.symbol: lo if lo == hi or v.integer else (lo + hi) / 2 for v, (lo, hi) in zip(variables, box)}


def region_verdict(constraints, xvars: list[Var], *, budget: int = 3000) -> RegionResult:
    """The verdict of "every constraint ``(g, op)`` (``g op 0``) holds at every
    point of the box ``xvars``", with the printed constants of the constraints
    ranging over their intervals (see the module docstring)."""
    cvars = box_of([g for g, _ in constraints])
    exact = not cvars
    joint = xvars + cvars
    mid = {v.symbol: v.symbol.mid for v in cvars}
    probes = [{**dict(zip((v.symbol for v in xvars), ends)), **mid}
              for ends in itertools.product(*[(v.lo, v.hi) for v in xvars])] if len(xvars) <= 4 else []
    d = decide(constraints, joint, budget=budget, first={**{v.symbol: _inside(v) for v in xvars}, **mid},
               probes=probes, stop_when_mixed=True)
    if d.status == "all":
        return RegionResult("holds", "exact" if exact else "robust", boxes=d.boxes)
    # counterexamples: from the joint search, and at the printed values
    at_printed = decide(_fix(constraints, mid), xvars, budget=budget, stop_when_mixed=True,
                        probes=[{k: v for k, v in p.items() if k in {x.symbol for x in xvars}} for p in probes]) \
        if cvars else d
    candidates = []
    for dd, variables in ((at_printed, xvars), (d, joint)):
        if dd.violated is not None:
            pt = _point(variables, dd.violated)
            candidates.append({v.symbol: pt[v.symbol] for v in xvars})
    if exact:
        if candidates:
            return RegionResult("fails", "exact", counterexample=candidates[0], boxes=d.boxes)
        return RegionResult("inconclusive", "exact", boxes=d.boxes)
    for x0 in candidates:
        at_x0 = decide(_fix(constraints, x0), cvars, budget=budget, stop_when_mixed=True)
        if at_x0.status == "none":
            return RegionResult("fails", "robust", counterexample=x0, boxes=d.boxes + at_x0.boxes)
    # some admissible c for which the relation holds on the whole region?
    for c in _c_candidates(cvars, at_printed):
        dc = decide(_fix(constraints, c), xvars, budget=budget, stop_when_mixed=True)
        if dc.status == "all" and candidates:
            bad = dict(candidates[-1])
            if d.violated is not None:
                bad = _point(joint, d.violated)
            return RegionResult("undetermined", "rounding decides", counterexample=bad, holds_at=c,
                                boxes=d.boxes)
    if at_printed.violated is not None:
        return RegionResult("fails", "printed values only", counterexample={**candidates[0], **mid}, boxes=d.boxes)
    return RegionResult("inconclusive", "unknown", boxes=d.boxes)


def _inside(v: Var):
    return v.lo if v.integer else (v.lo + v.hi) / 2


def _c_candidates(cvars, at_printed):
    """Admissible values to try: the printed ones (if they already hold there), then the corners."""
    mid = {v.symbol: fraction(v.symbol.mid) for v in cvars}
    if at_printed.status == "all":
        yield mid
    if len(cvars) <= 6:
        for ends in itertools.product(*[(v.lo, v.hi) for v in cvars]):
            yield dict(zip((v.symbol for v in cvars), ends))
    else:
        for i in range(len(cvars)):
            for end in ("lo", "hi"):
                c = dict(mid)
                c[cvars[i].symbol] = getattr(cvars[i], end)
                yield c
