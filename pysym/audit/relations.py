"""Relations on a region: a proof, a counterexample, or neither.

:func:`relation_verdict` is shared by the ``inequality``, ``identity`` and
``sign`` kinds.  It samples the region (mpmath, 50 digits) first: a failing
point is a counterexample, and the verdict is ``fails`` with the simplest
failing point it can find (small integers, the bounds, 1, 2, 10), so that a
reader can check it by hand.  Otherwise the relation ``holds`` only if SymPy
proves it; agreement at every sampled point without a proof is
``inconclusive``, never ``holds``.

:func:`pysym.audit.conditions.split_by_condition` checks whether a stated
condition separates where a failing relation holds from where it does not;
:mod:`pysym.audit.counterexamples` finds, simplifies and confirms failing points.

:func:`checked_relation` is the entry point of the kinds: a relation with
printed numbers, or an identity with a tolerance, is decided by interval
branch and bound over the region and every admissible value
(:mod:`pysym.audit.region`) when every symbol has a numeric range; otherwise
at the printed values and then with the printed numbers as parameters
(:mod:`pysym.audit.parameters`).  A relation of exact numbers keeps the
proof-or-counterexample method above.

"""

from __future__ import annotations

import dataclasses

import sympy as sp

from pysym.audit.boxes import enclose, value_at
from pysym.audit.context import Context
from pysym.audit.counterexamples import confirmed, describe_point, smallest_counterexample, violated_at
from pysym.audit.interval import IntervalError
from pysym.audit.numbers import short, show
from pysym.audit.parameters import at_printed_values
from pysym.audit.precision import box_of, fmt, outward, point_text
from pysym.audit.printed import Printed, has_printed, midpoint, printed_in
from pysym.audit.region import numeric_box, region_verdict, undefined_note
from pysym.audit.verdict import Outcome, Rounding
from pysym.derive import numeric, prove

__all__ = ["RELATIONS", "relation_verdict", "checked_relation", "defined_or_inconclusive", "written_conditions",
           "sides", "stated", "scope_note"]

RELATIONS = {"<=": sp.Le, "<": sp.Lt, ">=": sp.Ge, ">": sp.Gt, "==": sp.Eq}


def relation_verdict(ctx: Context, lhs, rel: str, rhs, what: str, shown: str) -> Outcome:
    """Prove ``lhs rel rhs`` on the claim's region, else look for a counterexample.

    ``what`` names the claim in sentences ("the inequality"); ``shown`` is the
    relation as the claim states it (with its substitutions and region)."""
    order = ctx.order()
    if rel == "==":
        p = prove.prove_equal(lhs, rhs, order)
    else:
        small, big = (lhs, rhs) if rel in ("<=", "<") else (rhs, lhs)
        p = (prove.prove_positive if rel in ("<", ">") else prove.prove_nonnegative)(big - small, order)
    relation = RELATIONS[rel](lhs, rhs, evaluate=False)
    check = numeric.check(relation, ctx.domain(), n=400)
    ev = {"statement": show(relation), "points": check.points}
    if not check.ok and check.counterexample is not None:
        # a point where the sampled check failed is a counterexample only if the relation is proved violated
        # there: at the exact point shown, inside the region, with a proved sign of the margin (interval
        # arithmetic up to 8192 bits, or SymPy); a rounded evaluation, or an evaluation error such as a
        # gamma-function pole, is not a counterexample
        ce = smallest_counterexample(relation, ctx)
        ce = ce if ce is not None and violated_at(relation, ce, ctx) else None
        ce = ce or confirmed(relation, check.counterexample, ctx)
        if ce is not None:
            ev["counterexample"] = ce
            ev["method"] = "counterexample (proved: the relation's margin has the failing sign at that point)"
            return Outcome("fails", f"{what} fails: {describe_point(ce)}", ev)
        if p.ok and violated_at(relation, check.counterexample, ctx, strict_point=False) is False:
            # the sampled failure was a rounding artefact (the relation is proved to hold at that point), not an
            # evaluation error: the symbolic proof decides
            ev["method"] = "proved (SymPy)"
            ev["proof"] = p.how
            ev["note"] = "a sampled point seemed to fail at 50 digits, but the relation is proved to hold there"
            return Outcome("holds", f"proved: {shown} ({p.how})", ev)
        ev["method"] = "numeric"
        ev["numeric_check"] = check.detail
        return Outcome("inconclusive", f"could not evaluate {what} everywhere ({check.detail})"
                                       + ("; SymPy proves it, but a relation that cannot be evaluated on its whole "
                                          "region is not reported as holding" if p.ok else ""), ev)
    if p.ok:
        ev["method"] = "proved (SymPy)"
        ev["proof"] = p.how
        return Outcome("holds", f"proved: {shown} ({p.how})", ev)
    if not check.ok:
        ev["method"] = "numeric"
        return Outcome("inconclusive", f"could not evaluate {what}: {check.detail}", ev)
    ev["method"] = "numeric (no proof)"
    return Outcome("inconclusive", f"{what}: no counterexample at {check.points} sampled points, but no symbolic "
                                   "proof either (sampled agreement is not a proof)", ev)


def _constraints(lhs, rel, rhs, tol_rel, tol_abs):
    if rel == "==":
        if tol_rel or tol_abs:
            t = sp.Max(sp.Rational(str(tol_abs or 0)), sp.Rational(str(tol_rel or 0)) * sp.Abs(rhs))
            return [(lhs - rhs + t, ">="), (rhs + t - lhs, ">=")], lhs - rhs, "the difference left - right"
        return [(lhs - rhs, "==")], lhs - rhs, "the difference left - right"
    if rel in ("<=", "<"):
        return [(rhs - lhs, ">=" if rel == "<=" else ">")], rhs - lhs, "the margin right - left"
    return [(lhs - rhs, ">=" if rel == ">=" else ">")], lhs - rhs, "the margin left - right"


def _sides_at(lhs, rhs, point: dict) -> str:
    """``left side L, right side R`` at a point (ranges where printed numbers remain)."""
    out = []
    for name, e in (("left side", lhs), ("right side", rhs)):
        try:
            v = value_at(e.xreplace({k: sp.Rational(val) for k, val in point.items()}), {})
            lo, hi = v.fractions()
            text = fmt((lo + hi) / 2, 10) if hi - lo <= abs(lo + hi) * 1e-12 + 1e-300 else \
                "[{}, {}]".format(*outward(lo, hi))
        except (IntervalError, TypeError, ValueError, ZeroDivisionError):
            text = "?"
        out.append(f"{name} {text}")
    return ", ".join(out)


def checked_relation(ctx: Context, lhs, rel: str, rhs, what: str, shown: str, *, tol_rel=None,
                     tol_abs=None) -> Outcome:
    """``lhs rel rhs`` on the claim's region, for every admissible value of its
    printed numbers, within the tolerances (``==`` only); see the module
    docstring.  It holds only where both sides are proved defined on the whole
    region (:func:`pysym.audit.region.undefined_note`)."""
    outcome = _checked_relation(ctx, lhs, rel, rhs, what, shown, tol_rel, tol_abs)
    return defined_or_inconclusive(ctx, outcome, (lhs, rhs), what)


def defined_or_inconclusive(ctx: Context, outcome: Outcome, exprs, what: str) -> Outcome:
    """``outcome``, or ``inconclusive`` in place of ``holds``, ``conditional`` or
    ``undetermined`` (each says the relation holds somewhere for every point of
    the region) when ``exprs`` are not proved defined on the whole region."""
    if outcome.verdict not in ("holds", "conditional", "undetermined"):
        return outcome
    note = undefined_note(ctx, written_conditions(ctx, exprs))
    if note is None:
        return outcome
    ev = dict(outcome.evidence, definedness=note, would_be=outcome.verdict)
    return outcome._replace(verdict="inconclusive", evidence=ev,
                            summary=f"{what} is not decided on the whole region: {note} "
                                    f"(otherwise: {outcome.verdict}: {outcome.summary})")


def written_conditions(ctx: Context, exprs) -> set:
    """Where ``exprs`` are defined (:func:`pysym.audit.definedness.conditions`), and
    where the claim's expressions were, as written, before its ``subs``: ``(y -
    1)/(x - 1)`` with ``y = x`` is 1, but only where ``x != 1``."""
    from pysym.audit.definedness import conditions

    needed = set()
    for e in exprs:
        needed |= conditions(e)
    subs = ctx.claim.get("subs") or {}
    for name in ("lhs", "rhs", "expr"):
        e = ctx.claim.get(name) if ctx.claim.has(name) else None
        if isinstance(e, sp.Basic):
            needed |= {(kind, d.subs(subs) if subs else d) for kind, d in conditions(e)}
    return needed


def _checked_relation(ctx: Context, lhs, rel: str, rhs, what: str, shown: str, tol_rel, tol_abs) -> Outcome:
    printed = has_printed([lhs, rhs])
    tolerant = rel == "==" and bool(tol_rel or tol_abs)
    if not printed and not tolerant:
        return relation_verdict(ctx, lhs, rel, rhs, what, shown)._replace(rounding=Rounding("exact"))
    numbers = tuple(printed_in([lhs, rhs]))
    if rel == "==" and printed and prove.prove_equal(lhs, rhs, ctx.order()).ok:
        return Outcome("holds", f"proved: {shown} (SymPy simplifies the difference to 0, whatever the printed "
                                "numbers)", {"method": "proved (SymPy)"}, Rounding("robust", numbers=numbers))
    constraints, margin, margin_name = _constraints(lhs, rel, rhs, tol_rel, tol_abs)
    syms = {x for x in (lhs - rhs).free_symbols if not isinstance(x, Printed)}
    xvars = numeric_box(ctx, syms)
    if xvars is not None:
        try:
            r = region_verdict(constraints, xvars)
        except IntervalError:
            r = None
        if r is not None and r.verdict != "inconclusive":
            return _region_outcome(r, lhs, rhs, xvars, margin, margin_name, what, shown, numbers, tol_rel, tol_abs)
    if not printed:  # a tolerance without printed numbers: the interval method was the only one
        return Outcome("inconclusive", f"{what} with its tolerance could not be decided by interval arithmetic on "
                                       "the region (a range that is not numeric, or a function it does not cover)",
                       {"method": "interval branch and bound"}, Rounding("exact"))
    mid_claim = dataclasses.replace(ctx.claim, values=midpoint(ctx.claim.values))
    mid_ctx = Context(ctx.cf, mid_claim, midpoint(ctx.ranges))
    o_mid = relation_verdict(mid_ctx, midpoint(lhs), rel, midpoint(rhs), what, shown)
    return at_printed_values(o_mid, lambda: relation_verdict(ctx, lhs, rel, rhs, what, shown), numbers)


def _region_outcome(r, lhs, rhs, xvars, margin, margin_name, what, shown, numbers, tol_rel, tol_abs) -> Outcome:
    ev = {"method": "interval branch and bound (arb, outward rounded) over the region"
                    + (" and every admissible value of the printed numbers" if numbers else ""),
          "boxes": r.boxes}
    if tol_rel or tol_abs:
        ev["tolerance"] = ", ".join(t for t in (f"relative {tol_rel}" if tol_rel else "",
                                                 f"absolute {tol_abs}" if tol_abs else "") if t)
    low = high = None
    try:
        box = xvars + box_of([margin])
        if box:
            e = enclose(margin, box, budget=60, rel_tol=1e-4)
            e_low = e.low
            if r.verdict == "holds" and not (tol_rel or tol_abs) and e_low < 0:
                # proved: the margin is >= 0 on the whole box; an enclosure below 0 is only looser than the proof
                e_low = 0
            low, high = outward(e_low, e.high)
    except (IntervalError, ZeroDivisionError, ValueError):
        pass
    rounding = Rounding(r.status, f"{margin_name} over the region", low, high, None, numbers)
    every = " for every admissible value of the printed numbers" if numbers else ""
    if r.verdict == "holds":
        return Outcome("holds", f"{shown} holds at every point of the region{every} (interval arithmetic)", ev,
                       rounding)
    ce = r.counterexample or {}
    region_pt = {k: v for k, v in ce.items() if not isinstance(k, Printed)}
    ev["counterexample"] = {str(k): fmt(v, 10) for k, v in sorted(ce.items(), key=lambda kv: str(kv[0]))}
    at = point_text(ce)
    if r.verdict == "fails" and r.status in ("robust", "exact"):
        where = point_text(region_pt) if region_pt else "every point"
        tail = " for every admissible value of the printed numbers" if numbers else ""
        return Outcome("fails", f"{what} fails: at {where}: {_sides_at(lhs, rhs, region_pt)}{tail}", ev, rounding)
    if r.verdict == "undetermined":
        ev["holds_on_the_region_at"] = point_text(r.holds_at)
        return Outcome("undetermined", f"{what} holds on the whole region at {point_text(r.holds_at)}, but fails "
                                       f"at {at} ({_sides_at(lhs, rhs, ce)}): the printed precision cannot decide",
                       ev, rounding)
    return Outcome("fails", f"{what} fails at the printed values: at {at}: {_sides_at(lhs, rhs, ce)}", ev, rounding)


def _keeps_what_the_law_assumes(ctx: Context, sym, value, lo, hi) -> None:
    """The laws were read with ``sym``'s assumptions (`sqrt(k**2)` is `k` for a positive `k`): a value put in its
    place must keep them for every admissible value of its printed numbers, proved (an input error otherwise).
    A closed value with printed numbers is bounded as a whole against the range (`"0.5 ± 1"` reaches -0.5)."""
    from dataclasses import replace

    from pysym.audit.fields import outside_range
    from pysym.audit.printed import Printed
    from pysym.audit.proofs import attempt

    claim, spec = ctx.claim, ctx.cf.spec(sym)
    written = claim.fields["subs"][str(sym)]
    if not {x for x in value.free_symbols if not isinstance(x, Printed)}:
        problem = outside_range(value, replace(spec, low=lo, high=hi))
        if problem:
            raise ctx.cf.error(claim, f"`subs`: {sym} = {written} {problem}")
        return
    kind = "positive" if sym.is_positive else "nonnegative" if sym.is_nonnegative else None
    if kind and not attempt(kind, value, ctx.order()):
        raise ctx.cf.error(claim, f"`subs`: {sym} = {written} is not proved {kind} on the region, as {sym} is "
                                  "declared (the laws are read with that): restrict `region`")
    if sym.is_integer and value.is_integer is not True:
        raise ctx.cf.error(claim, f"`subs`: {sym} = {written} is not an integer, as {sym} is declared")


def check_subs(ctx: Context) -> None:
    """Each value of the claim's ``subs`` must stay inside its symbol's range on
    the claim's region: ``k = T/E`` with ``k`` in [1, T] and ``T = 2`` puts ``k``
    at 0.74, a point the claim's ranges exclude (an input error that names the
    point).  A value proved inside, or with no counterexample found, passes."""
    claim = ctx.claim
    for sym, value in (claim.get("subs") or {}).items():
        spec = ctx.cf.spec(sym)
        lo, hi = ctx.range(spec)
        _keeps_what_the_law_assumes(ctx, sym, value, lo, hi)
        for bound, rel in ((lo, sp.Ge), (hi, sp.Le)):
            relation = rel(midpoint(value), midpoint(bound), evaluate=False)
            if relation is sp.true or relation.lhs.has(sym) or relation.rhs.has(sym):
                continue
            gap = relation.lhs - relation.rhs if rel is sp.Ge else relation.rhs - relation.lhs
            if prove.prove_nonnegative(gap, ctx.order()).ok:
                continue
            ce = smallest_counterexample(relation, ctx)
            if ce is None:
                check = numeric.check(relation, ctx.domain(), n=200)
                ce = confirmed(relation, check.counterexample, ctx) if check.counterexample else None
            if ce is not None:
                where = ", ".join(f"{k} = {v}" for k, v in ce.items() if k not in ("lhs", "rhs"))
                raise ctx.cf.error(claim, f"`subs`: {sym} = {claim.fields['subs'][str(sym)]} leaves the range "
                                          f"[{show(lo)}, {show(hi)}] of {sym} (at {where}: {sym} = {ce['lhs']}); "
                                          "restrict `region` so that it stays inside")


def sides(claim):
    """The claim's ``lhs`` and ``rhs`` with its ``subs`` carried out."""
    lhs, rhs = claim.get("lhs"), claim.get("rhs")
    subs = claim.get("subs")
    if subs:
        lhs, rhs = lhs.subs(subs), rhs.subs(subs)
    return lhs, rhs


def stated(claim, text: str) -> str:
    """``text`` (the relation as written) with the claim's substitutions and region,
    so that a verdict never reads as more general than what was checked."""
    parts = [short(text)]
    if claim.get("subs"):
        parts.append("with " + ", ".join(f"{k} = {_written(claim.fields['subs'].get(str(k)), v)}"
                                         for k, v in claim.get("subs").items()))
    if claim.get("region"):
        raw = claim.fields["region"]
        parts.append("on " + ", ".join(f"{k} in [{_written(raw[str(k)][0], a)}, {_written(raw[str(k)][1], b)}]"
                                       for k, (a, b) in claim.get("region").items()))
    return " ".join(parts)


def scope_note(claim) -> str:
    """`` (with ..., in the limit ..., on ...)`` for a claim's ``subs``, ``limit``
    and ``region``, so that a verdict never reads as more general than what was checked."""
    parts = []
    if claim.get("subs"):
        parts.append("with " + ", ".join(f"{k} = {_written(claim.fields['subs'].get(str(k)), v)}"
                                         for k, v in claim.get("subs").items()))
    if claim.get("limit"):
        parts.append("in the limit " + ", ".join(f"{k} -> {_written(claim.fields['limit'].get(str(k)), v)}"
                                                 for k, v in claim.get("limit").items()))
    if claim.get("region"):
        raw = claim.fields["region"]
        parts.append("on " + ", ".join(f"{k} in [{_written(raw[str(k)][0], a)}, {_written(raw[str(k)][1], b)}]"
                                       for k, (a, b) in claim.get("region").items()))
    return f" ({'; '.join(parts)})" if parts else ""


def _written(raw, value) -> str:
    """A value as the claims file writes it (numbers and strings), else as SymPy prints it."""
    if isinstance(raw, str):
        return " ".join(raw.split())
    if isinstance(raw, (int, float)) and not isinstance(raw, bool):
        return repr(raw)
    return show(value)
