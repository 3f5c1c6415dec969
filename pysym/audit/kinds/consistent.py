"""Kind ``consistent``: do *some* admissible values satisfy the statement?

Fields: ``statement`` (a relation, or a list of relations that must hold
together); optional ``over`` (``{ x = [low, high] }``: symbols that may take
any value in their range, like the printed numbers).

Where the other kinds ask whether a claim holds for *every* admissible value,
this one asks whether the printed numbers are *consistent* with a statement:
"a = 0.46 (0.454, 0.455), b = 0.54 (0.542, 0.543), with a + b = 1 for every
fit" is consistent only if some a in [0.454, 0.455] and b in [0.542, 0.543]
have a + b = 1 (they do not: a + b <= 0.998).

* ``holds``: some admissible values (and values of the ``over`` symbols)
  satisfy every relation -- a witness box where the inequalities hold and,
  for an equation ``g = 0``, where ``g`` takes both signs, so that ``g = 0``
  somewhere in between (intermediate value theorem);
* ``fails``: none does (interval branch and bound excludes every box);
* ``inconclusive``: the budget ran out, or several equations share variables
  (existence is proved for one equation per group of variables that the
  relations link);
* never ``undetermined``: the question is about the admissible values
  themselves, so they always decide it.

Relations on disjoint sets of variables are decided separately (a product of
boxes has a point satisfying all of them exactly when each part has one).

>>> from pysym.audit.examples import example
>>> example("consistent", statement="[0.454, 0.455] + [0.542, 0.543] == 1")
('fails', 'no admissible value satisfies [0.454, 0.455] + [0.542, 0.543] == 1: it is never true on the box ([0.454, 0.455] + [0.542, 0.543] - 1 ranges over [-0.004, -0.002])')
>>> example("consistent", statement=["0.0655*15.2582 == 1", "0.5422 + 0.4578 == 1"])[0]
'holds'
"""

from __future__ import annotations

import sympy as sp

from pysym.audit.boxes import Var, enclose, fraction
from pysym.audit.existence import exists
from pysym.audit.context import Context
from pysym.audit.fields import RANGES, RELATIONS
from pysym.audit.interval import IntervalError
from pysym.audit.precision import box_of, outward, point_text
from pysym.audit.printed import Printed, constants_of, printed_in
from pysym.audit.registry import Field, Kind, register
from pysym.audit.verdict import Outcome, Rounding

__all__ = ["KIND", "evaluate", "constraint_of"]


def constraint_of(rel) -> tuple:
    """``(g, op)`` meaning ``g op 0`` for a SymPy relation."""
    lhs, rhs, op = rel.lhs, rel.rhs, rel.rel_op
    if op in ("<=", "<"):
        return rhs - lhs, ">=" if op == "<=" else ">"
    if op in (">=", ">"):
        return lhs - rhs, ">=" if op == ">=" else ">"
    return lhs - rhs, "=="


def _components(constraints, variables):
    """Groups of constraints linked by shared variables, with their variables."""
    groups: list = []
    for c in constraints:
        syms = {v.symbol for v in variables if c[0].has(v.symbol)}
        merged = [g for g in groups if g[1] & syms]
        for g in merged:
            groups.remove(g)
        groups.append(([c] + [x for g in merged for x in g[0]], syms.union(*[g[1] for g in merged])))
    return [(cs, [v for v in variables if v.symbol in syms]) for cs, syms in groups]


def evaluate(job):
    cf, claim = job.cf, job.claim
    rels = claim.get("statement")
    over = claim.get("over") or {}
    shown = "; ".join(str(x) for x in ([claim.fields["statement"]] if isinstance(claim.fields["statement"], str)
                                       else claim.fields["statement"]))
    constraints = [constraint_of(r) for r in rels]
    free = {x for g, _ in constraints for x in g.free_symbols if not isinstance(x, Printed)}
    extra = free - set(over)
    if extra:
        raise cf.error(claim, f"the statement uses {', '.join(sorted(map(str, extra)))}: give their ranges in `over`")
    Context(cf, claim, over)  # the `over` ranges keep each symbol's sign and integrality (the laws rely on them)
    xvars = []
    for sym, (lo, hi) in over.items():
        if not (lo.is_number and hi.is_number):
            raise cf.error(claim, f"`over`: the range of {sym} must be numbers")
        xvars.append(Var(sym, fraction(lo), fraction(hi), bool(sym.is_integer)))
    outcome = _decide(constraints, xvars, shown)
    repeated = _repeated_literals(constraints)
    if outcome.verdict != "holds" or not repeated:
        return outcome
    # each occurrence of a literal is its own quantity, a wider set of admissible values: for a claim that
    # some values exist, that can make it hold where one quantity printed twice would not
    one = {p: group[0] for group in repeated.values() for p in group}
    linked = _decide([(g.xreplace(one), op) for g, op in constraints], xvars, shown)
    if linked.verdict == "holds":
        return outcome
    texts = ", ".join(f"`{text}` ({len(group)} times)" for (text, *_), group in sorted(repeated.items()))
    return Outcome("inconclusive", f"{outcome.summary}; but the statement repeats the printed number {texts}, and "
                   f"taken as one quantity it does not hold ({linked.verdict}: {linked.summary}): name it in "
                   "[constants], once if it is one quantity, twice if two", outcome.evidence,
                   Rounding("unknown", numbers=outcome.rounding.numbers))


def _repeated_literals(constraints) -> dict:
    """``{(text, low, high): [Printed, ...]}``: the literals written more than once (each occurrence its own
    quantity), not named constants (one quantity wherever they are used)."""
    groups: dict = {}
    for p in sorted(constants_of([g for g, _ in constraints]), key=lambda p: (p.name, p.dummy_index)):
        if p.name == p.text and not p.exact:  # a literal (a named constant is named, and one quantity)
            groups.setdefault((p.text, p.lo, p.hi), []).append(p)
    return {k: v for k, v in groups.items() if len(v) > 1}


def _decide(constraints, xvars, shown) -> Outcome:
    """The verdict on ``constraints`` over the box of the ``xvars`` and the printed numbers."""
    variables = xvars + box_of([g for g, _ in constraints])
    numbers = tuple(printed_in([g for g, _ in constraints]))
    ev: dict = {"method": "interval branch and bound (arb, outward rounded); equations by the intermediate value "
                          "theorem"}
    rounding = Rounding("robust" if numbers else "exact", numbers=numbers)
    try:
        rng = _range(constraints[0][0], variables)
        if rng:
            rounding = Rounding(rounding.status, f"{sp.sstr(constraints[0][0])}", *rng, None, numbers)
        results = [(cs, vs, exists(cs, vs)) for cs, vs in _components(constraints, variables)]
    except (IntervalError, ZeroDivisionError) as exc:
        return Outcome("inconclusive", f"the statement could not be bounded on the box ({exc})", ev,
                       Rounding("unknown", numbers=numbers))
    if any(d.status == "none" for _, _, d in results):
        cs = next(cs for cs, _, d in results if d.status == "none")
        part = "; ".join(f"{sp.sstr(g)} {op} 0" for g, op in cs)
        tail = f" ({rounding.range_text()})" if rounding.low is not None and len(constraints) == 1 else ""
        return Outcome("fails", f"no admissible value satisfies {shown}: it is never true on the box{tail}"
                       if len(results) == 1 else f"no admissible value satisfies {shown}: {part} is never true on "
                       "the box", ev, rounding)
    if all(d.status == "all" for _, _, d in results):
        parts = []
        for cs, vs, d in results:
            pt = {v.symbol: lo if lo == hi or v.integer else (lo + hi) / 2 for v, (lo, hi) in zip(vs, d.satisfied)}
            where = point_text(pt) if vs else "the printed values"
            for g, op in cs:
                try:
                    rng = _range(g, vs)
                except (IntervalError, ZeroDivisionError, ValueError):
                    rng = None
                ev.setdefault("ranges", {})[f"{sp.sstr(g)} ({op} 0)"] = "[{}, {}]".format(*rng) if rng else "exact"
            if not vs:
                continue
            parts.append(f"near {where}" if any(op == "==" for _, op in cs) else f"at {where}")
        n_eq = sum(op == "==" for cs, vs, _ in results if vs for _, op in cs)
        how = (f"{'each' if n_eq > 1 else 'the'} equation changes sign on the admissible box, so it is solved there "
               "(intermediate values)" if n_eq else "a witness" if variables else "true as written")
        if len(results) > 1:
            how += f"; the {len(results)} groups share no printed number"
        unique = list(dict.fromkeys(parts))
        where = f" ({'; '.join(unique)})" if unique else ""
        return Outcome("holds", f"some admissible values satisfy {shown}: {how}{where}", ev, rounding)
    notes = [d.note for _, _, d in results if d.status != "all" and d.note]
    why = "; ".join(dict.fromkeys(notes)) if notes else "budget, or several equations linking the same numbers"
    return Outcome("inconclusive", f"could not decide whether some admissible values satisfy {shown} ({why})", ev,
                   Rounding("unknown", numbers=numbers))


def _range(g, variables):
    used = [v for v in variables if g.has(v.symbol)]
    if not used:
        return None
    e = enclose(g, used, budget=200, rel_tol=1e-6)
    return outward(e.low, e.high)


KIND = register(Kind(
    "consistent",
    (Field("statement", RELATIONS, True, "a relation, or a list of relations that must hold together"),
     Field("over", RANGES, doc="symbols that may take any value in these ranges, like the printed numbers")),
    evaluate,
    doc="Existence: do some admissible values of the printed numbers (and of the `over` symbols) satisfy every "
        "relation? A witness (equations by the intermediate value theorem), or a proof that none does.",
    precision="box",
))
