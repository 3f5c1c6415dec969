"""Relations on a region: a proof, a counterexample, or neither.

:func:`relation_verdict` is shared by the ``inequality``, ``identity`` and
``sign`` kinds.  It samples the region (mpmath, 50 digits) first: a failing
point is a counterexample, and the verdict is ``fails`` with the simplest
failing point it can find (small integers, the bounds, 1, 2, 10), so that a
reader can check it by hand.  Otherwise the relation ``holds`` only if SymPy
proves it; agreement at every sampled point without a proof is
``inconclusive``, never ``holds``.

:func:`split_by_condition` checks whether a stated condition separates the
sampled points where a failing relation holds from those where it does not
(a ``conditional`` verdict, labelled as sampled).

:func:`checked_relation` is the entry point of the kinds: a relation with
printed numbers, or an identity with a tolerance, is decided by interval
branch and bound over the region and every admissible value
(:mod:`pysym.audit.region`) when every symbol has a numeric range; otherwise
at the printed values and then with the printed numbers as parameters
(:mod:`pysym.audit.parameters`).  A relation of exact numbers keeps the
proof-or-counterexample method above.

>>> describe_point({"T": 3, "j": 2, "lhs": "1.0986", "rhs": "0.8109"})
'at T = 3, j = 2: left side 1.0986, right side 0.8109'
"""

from __future__ import annotations

import math

import mpmath
import sympy as sp

import dataclasses

from pysym.audit.boxes import enclose, value_at
from pysym.audit.context import SEED, Context
from pysym.audit.interval import IntervalError
from pysym.audit.numbers import num, short, show
from pysym.audit.parameters import at_printed_values
from pysym.audit.precision import box_of, fmt, outward, point_text
from pysym.audit.printed import Printed, has_printed, midpoint, printed_in
from pysym.audit.region import numeric_box, region_verdict
from pysym.audit.verdict import Outcome, Rounding
from pysym.derive import numeric, prove

__all__ = ["RELATIONS", "relation_verdict", "checked_relation", "split_by_condition", "describe_point", "sides",
           "stated", "scope_note"]

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
        ce = _smallest_counterexample(relation, ctx)
        ce = ce if ce is not None and _violated_at(relation, ce, ctx) else None
        ce = ce or _confirmed(relation, check.counterexample, ctx)
        if ce is not None:
            ev["counterexample"] = ce
            ev["method"] = "counterexample (proved: the relation's margin has the failing sign at that point)"
            return Outcome("fails", f"{what} fails: {describe_point(ce)}", ev)
        if p.ok and _violated_at(relation, check.counterexample, ctx, strict_point=False) is False:
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
    printed numbers, within the tolerances (``==`` only); see the module docstring."""
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
            ce = _smallest_counterexample(relation, ctx)
            if ce is None:
                check = numeric.check(relation, ctx.domain(), n=200)
                ce = _confirmed(relation, check.counterexample, ctx) if check.counterexample else None
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


def _exact_value(v):
    """A point's coordinate as an exact number: an int, a Fraction, or the decimal text it is shown as."""
    if isinstance(v, bool):
        raise TypeError("not a number")
    if isinstance(v, int):
        return sp.Integer(v)
    if isinstance(v, sp.Basic) and v.is_Rational:
        return v
    if isinstance(v, mpmath.mpf):
        return sp.Rational(mpmath.nstr(v, 15))
    return sp.Rational(str(v))


def _violated_at(relation, point: dict, ctx: Context | None, *, strict_point: bool = True) -> bool | None:
    """Whether ``relation`` is proved violated at the exact ``point`` (``{name: value}``,
    values as shown): True (proved violated, and the point proved inside the region and
    an integer for integer symbols), False (proved to hold there), None (not proved either
    way: undefined there, a sign that stays unproved, a point not proved inside)."""
    from pysym.audit.interval import sign_of

    pt = {}
    try:
        for sym in relation.free_symbols:
            if str(sym) not in point:
                return None
            pt[sym] = _exact_value(point[str(sym)])
            if sym.is_integer and not pt[sym].is_Integer:
                return None
    except (TypeError, ValueError):
        return None
    if ctx is not None and strict_point and not _inside_region(_exact_point(point, ctx, pt), ctx):
        return None
    op = relation.rel_op
    margin = relation.lhs - relation.rhs if op in (">=", ">", "==") else relation.rhs - relation.lhs
    try:
        sign = sign_of(margin.xreplace(pt))
    except (TypeError, ValueError, ZeroDivisionError, OverflowError):
        return None
    if sign is None:
        return None
    if op == "==":
        return sign != 0
    return sign < 0 if op in (">=", "<=") else sign <= 0


def _exact_point(point: dict, ctx: Context, pt: dict) -> dict:
    """``pt`` with the other coordinates of ``point`` that name the claim's symbols (exact values):
    the symbols that the bounds of the relation's symbols depend on."""
    out = dict(pt)
    for r in ctx.domain().ranges:
        if r.symbol not in out and str(r.symbol) in point:
            try:
                out[r.symbol] = _exact_value(point[str(r.symbol)])
            except (TypeError, ValueError):
                continue
    return out


def _inside_region(pt: dict, ctx: Context) -> bool:
    """Whether the point (exact values of the relation's symbols) is proved inside the claim's ranges."""
    from pysym.audit.interval import sign_of

    for r in ctx.domain().ranges:
        if r.symbol not in pt:
            continue
        for bound, upper in ((r.low, False), (r.high, True)):
            b = sp.sympify(bound).xreplace(pt)
            if b.free_symbols:
                return False  # a bound on a symbol the point does not fix: not proved inside
            s = sign_of(b - pt[r.symbol] if upper else pt[r.symbol] - b)
            if s is None or s < 0:
                return False
    return True


def _confirmed(relation, point: dict, ctx: Context | None = None) -> dict | None:
    """The sampled failing ``point`` (shown to 15 digits) with both sides, if the relation is
    proved violated there (:func:`_violated_at`); None otherwise."""
    shown, full = {}, {}
    symbols = {str(r.symbol): r.symbol for r in ctx.domain().ranges} if ctx is not None else {}
    symbols.update({str(sym): sym for sym in relation.free_symbols})
    for name, sym in symbols.items():
        if name not in point:
            if sym in relation.free_symbols:
                return None
            continue
        v = point[name]
        try:
            full[name] = int(v) if sym.is_integer else mpmath.nstr(mpmath.mpf(v), 15)
        except (TypeError, ValueError):
            continue
        if sym in relation.free_symbols:
            shown[name] = full[name]
    if not _violated_at(relation, full, ctx):
        return None
    pt = {sym: _exact_value(shown[str(sym)]) for sym in relation.free_symbols}
    try:
        a, b = sp.N(relation.lhs.xreplace(pt), numeric.DIGITS), sp.N(relation.rhs.xreplace(pt), numeric.DIGITS)
    except (TypeError, ValueError, ZeroDivisionError, OverflowError):
        return None
    out = {**{str(s): shown[str(s)] for s in sorted(relation.free_symbols, key=str)},
           "lhs": num(a, 10), "rhs": num(b, 10)}
    if out["lhs"] == out["rhs"]:  # the sides print alike: show their (proved nonzero or failing) difference
        out["difference"] = num(sp.N((relation.lhs - relation.rhs).xreplace(pt), 15), 6)
    return out


def describe_point(ce: dict) -> str:
    pt = ", ".join(f"{k} = {v}" for k, v in ce.items() if k not in ("lhs", "rhs", "difference"))
    if not pt:
        pt = "every point (the relation involves no symbol)"
    if "lhs" in ce:
        diff = f" (left - right = {ce['difference']})" if "difference" in ce else ""
        return f"at {pt}: left side {ce['lhs']}, right side {ce['rhs']}{diff}"
    return f"at {pt}"


def split_by_condition(ctx: Context, relation, cond, cond_text: str, ev: dict) -> Outcome:
    """Does the condition separate where the failing ``relation`` holds?

    ``conditional`` only when the split is *established*: ``relation`` and
    ``cond`` proved equivalent on the whole region (:func:`_proved_split`).
    ``fails`` when a point is proved where they disagree (a sampled
    disagreement, or one next to the condition's boundary, is re-checked with
    proved signs at the point shown).  Agreement at the sampled points
    without a proof is ``inconclusive``, with the sampled evidence."""
    pts = ctx.domain().sample(400, SEED)
    syms = sorted(relation.free_symbols | cond.free_symbols, key=str)
    rel_f = numeric.compile_relation(relation, syms)
    cond_f = numeric.compile_relation(cond, syms)
    agree = n_true = 0
    candidates = []
    with mpmath.workdps(numeric.DIGITS):
        for pt in pts:
            args = [pt[s] for s in syms]
            r, c = bool(rel_f(*args)), bool(cond_f(*args))
            agree += r == c
            n_true += r
            if r != c and len(candidates) < 20:
                candidates.append({str(s): pt[s] for s in syms})
    ev["condition"] = cond_text
    ev["condition_agreement"] = f"{agree} of {len(pts)}"
    if agree == len(pts):
        witness = _boundary_disagreement(pts, syms, rel_f, cond_f)
        if witness is not None:
            candidates.append(witness)
    for cand in candidates:
        proved = _proved_disagreement(relation, cond, cand, ctx)
        if proved is not None:
            ev["condition_counterexample"] = proved
            shown = ", ".join(f"{k} = {v}" for k, v in proved.items())
            sampled = "" if agree == len(pts) else f" ({agree} of {len(pts)} sampled points agree)"
            return Outcome("fails", f"fails (e.g. {describe_point(ev['counterexample'])}), and {cond_text} does not "
                                    f"separate where it holds: at {shown} the condition and the claim disagree "
                                    f"(proved at that point){sampled}", ev)
    how = _proved_split(ctx, relation, cond)
    if isinstance(how, dict):  # a part of the region where they provably disagree
        ev["condition_counterexample"] = how
        shown = ", ".join(f"{k} = {v}" for k, v in how.items())
        return Outcome("fails", f"fails (e.g. {describe_point(ev['counterexample'])}), and {cond_text} does not "
                                f"separate where it holds: at {shown} the condition and the claim disagree (interval "
                                "arithmetic)", ev)
    if how is not None:
        ev["condition_proof"] = how
        return Outcome("conditional", f"holds exactly when {cond_text} (proved: {how}; {n_true} of {len(pts)} "
                                      "sampled points satisfy it)", ev)
    ev["condition_proof"] = "none: the split is only sampled"
    if agree == len(pts):
        return Outcome("inconclusive", f"fails as stated (e.g. {describe_point(ev['counterexample'])}); it holds "
                                       f"exactly when {cond_text} at all {len(pts)} sampled points ({n_true} satisfy "
                                       "it), but the split is not proved (sampled agreement is not a proof)", ev)
    return Outcome("inconclusive", f"fails as stated (e.g. {describe_point(ev['counterexample'])}); {cond_text} "
                                   f"does not separate where it holds at {len(pts) - agree} of {len(pts)} sampled "
                                   "points, but no such point is proved (the relation or the condition is too close "
                                   "to its boundary there)", ev)


def _proved_disagreement(relation, cond, point: dict, ctx: Context) -> dict | None:
    """``point`` (shown to 15 digits) if the relation and the condition are proved to
    disagree there, inside the region; else None."""
    shown = {}
    for sym in relation.free_symbols | cond.free_symbols:
        v = point.get(str(sym))
        if v is None:
            return None
        try:
            shown[str(sym)] = int(v) if sym.is_integer else mpmath.nstr(mpmath.mpf(v), 15)
        except (TypeError, ValueError):
            return None
    r_bad, c_bad = _violated_at(relation, shown, ctx), _violated_at(cond, shown, ctx)
    if r_bad is None or c_bad is None or r_bad == c_bad:
        return None
    return dict(sorted(shown.items()))


def _proved_split(ctx: Context, relation, cond):
    """How ``relation`` is proved to hold exactly where ``cond`` does on the claim's
    region (a text); a dict (a point of the region where they provably disagree);
    or None (neither).

    * symbolically: with both written ``g op 0`` with the same ``op``,
      ``g_relation = q * g_condition`` (SymPy proves the identity) with ``q``
      proved positive on the region: the two have the same sign everywhere;
    * by interval arithmetic, when every range is numeric: the region (and every
      admissible value of the printed numbers) is split into boxes on each of
      which both are proved true or both false
      (:func:`pysym.audit.boxes.equivalent`)."""
    from pysym.audit.boxes import equivalent
    from pysym.audit.budget import CPUTimeout, cpu_limit
    from pysym.audit.kinds.consistent import constraint_of
    from pysym.audit.proofs import attempt

    if not isinstance(cond, sp.core.relational.Relational) or cond.rel_op == "==" or relation.rel_op == "==":
        return None
    (gr, opr), (gc, opc) = constraint_of(relation), constraint_of(cond)
    order = ctx.order()

    def proportional(a, b):
        """``q`` with ``a = q * b`` (proved identity) and ``q > 0`` proved, else None."""
        from pysym.audit.proofs import safe_simplify

        def by_factors(e):  # a / b with a factored over the algebraic numbers of b: x**2 - 2 over x - sqrt(2)
            ext = [p for p in b.atoms(sp.Pow) if p.is_number and p.exp.is_Rational and not p.exp.is_Integer]
            return sp.factor(a, extension=ext) / b if ext else e

        tried = set()  # the forms often coincide: each is proved equal and positive once
        for simplify in (lambda e: sp.cancel(sp.together(e)), by_factors, safe_simplify):
            try:
                with cpu_limit(8):
                    q = simplify(a / b)
                    if q in tried:
                        continue
                    tried.add(q)
                    same = prove.prove_zero(sp.expand(a - q * b)).ok or safe_simplify(a - q * b) == 0
            except (CPUTimeout, TypeError, ValueError, ZeroDivisionError):
                continue
            if same and not q.has(sp.zoo, sp.nan, sp.oo) and attempt("positive", q, order):
                return q
        return None

    def sign_kernel(g):
        """``(sigma, k)``: ``g`` is ``sigma * k`` times factors proved positive, up to replacing a factor
        ``log(u)`` by ``u - 1`` (the same sign for ``u > 0``, which defining the log needs); None if more
        than one factor has no proved sign."""
        sigma, rest = 1, []
        try:
            factors = sp.Mul.make_args(sp.factor_terms(g))
        except (TypeError, ValueError):
            return None
        for f in factors:
            if attempt("positive", f, order, seconds=3):
                continue
            if attempt("positive", -f, order, seconds=3):
                sigma = -sigma
                continue
            rest.append(f)
        if len(rest) != 1:
            return None
        (k,) = rest
        if isinstance(k, sp.log):
            k = k.args[0] - 1
        return sigma, k

    if opr == opc:
        q = proportional(gr, gc)
        if q is not None:
            return (f"the claim's margin is {short(show(q), 60)} times the condition's, a factor proved positive "
                    "on the region (SymPy)")
        kr, kc = sign_kernel(gr), sign_kernel(gc)
        if kr is not None and kc is not None:
            q = proportional(kr[0] * kr[1], kc[0] * kc[1])
            if q is not None:
                return ("the claim's margin and the condition's have the same sign everywhere on the region: set "
                        "aside their factors of proved sign (log(u) read as u - 1), one is a positive multiple of "
                        "the other (SymPy)")
    syms = {x for x in (gr.free_symbols | gc.free_symbols) if not isinstance(x, Printed)}
    xvars = numeric_box(ctx, syms)
    if xvars is None:
        return None
    variables = xvars + box_of([gr, gc])
    try:
        status, found = equivalent((gr, opr), (gc, opc), variables)
    except (IntervalError, ZeroDivisionError, ValueError):
        return None
    if status == "equivalent":
        return f"interval branch and bound over the region{' and every admissible value' if len(variables) > len(xvars) else ''} ({found} boxes, each proved on one side of both)"
    if status == "differ":
        return {str(k): (int(v) if v.denominator == 1 else fmt(v, 15)) for k, v in found.items()}
    return None


_PAIRS = 60  # sampled pairs across the condition's boundary that are refined


def _boundary_disagreement(pts, syms, rel_f, cond_f) -> dict | None:
    """A point where the condition and the relation disagree, found next to the
    condition's boundary, or None.  Sampled points rarely land in a sliver
    between the two boundaries (``x >= 1.4142`` against ``x**2 >= 2``); along
    the segment between two sampled points on either side of the condition,
    bisection (at 50 digits) finds the condition's boundary, and the relation
    is evaluated just beyond it on both sides.  Not for integer symbols (a
    segment leaves the integers)."""
    if not syms or any(s.is_integer for s in syms):
        return None
    with mpmath.workdps(numeric.DIGITS):
        flags = [bool(cond_f(*[pt[s] for s in syms])) for pt in pts]
        pairs = [(i, i + 1) for i in range(len(pts) - 1) if flags[i] != flags[i + 1]][:_PAIRS]
        for i, j in pairs:
            a, b = [pts[i][s] for s in syms], [pts[j][s] for s in syms]

            def at(t, a=a, b=b):
                return [x + t * (y - x) for x, y in zip(a, b)]

            lo, hi = mpmath.mpf(0), mpmath.mpf(1)  # cond(at(lo)) == flags[i] != cond(at(hi))
            for _ in range(120):
                mid = (lo + hi) / 2
                if bool(cond_f(*at(mid))) == flags[i]:
                    lo = mid
                else:
                    hi = mid
            for t in (hi, lo):  # 2**-120 apart, on either side of the condition's boundary
                args = at(t)
                try:
                    if bool(rel_f(*args)) != bool(cond_f(*args)):
                        return {str(s): mpmath.nstr(v, 15) for s, v in zip(syms, args)}
                except (TypeError, ValueError, ZeroDivisionError):
                    continue
    return None


# --------------------------------------------------------------------------- simple counterexamples


def _smallest_counterexample(relation, ctx: Context) -> dict | None:
    """A counterexample that is easy to check by hand: small values of the
    integer symbols (from their lower bounds), or simple values (the bounds,
    1, 2, 10) of every symbol."""
    dom = ctx.domain()
    free = relation.free_symbols
    ranges = [r for r in dom.ranges if r.symbol in free]
    if not ranges or len(ranges) > 6:
        return None
    if not all(r.integer for r in ranges) or len(ranges) > 4:
        return _simple_counterexample(relation, ranges)
    syms = [r.symbol for r in ranges]
    lhs_f = sp.lambdify(syms, relation.lhs, modules="mpmath")
    rhs_f = sp.lambdify(syms, relation.rhs, modules="mpmath")
    op = relation.rel_op
    with mpmath.workdps(numeric.DIGITS):
        for total in range(0, 40):
            for combo in _compositions(total, len(syms)):
                point, vals = {}, []
                ok = True
                for r, off in zip(ranges, combo):
                    lo = sp.sympify(r.low).subs(point)
                    hi = sp.sympify(r.high).subs(point)
                    try:
                        v = int(math.ceil(float(lo))) + off
                        if v > float(hi):
                            ok = False
                            break
                    except (TypeError, ValueError, OverflowError):  # a bound outside the relation's symbols
                        return None
                    point[r.symbol] = sp.Integer(v)
                    vals.append(mpmath.mpf(v))
                if not ok:
                    continue
                try:
                    a, b = lhs_f(*vals), rhs_f(*vals)
                except (ValueError, ZeroDivisionError, TypeError):
                    continue
                if not _holds(op, a, b):
                    best = {str(s): int(v) for s, v in point.items()}
                    best.update(lhs=mpmath.nstr(a, 10), rhs=mpmath.nstr(b, 10))
                    return best
    return None


def _holds(op, a, b) -> bool:
    if isinstance(a, mpmath.mpc) or isinstance(b, mpmath.mpc):
        return True  # not a real counterexample
    return {"<=": a <= b, "<": a < b, ">=": a >= b, ">": a > b,
            "==": abs(a - b) <= mpmath.mpf(10) ** -40 * (1 + abs(a) + abs(b))}[op]


def _simple_counterexample(relation, ranges) -> dict | None:
    syms = [r.symbol for r in ranges]
    lhs_f = sp.lambdify(syms, relation.lhs, modules="mpmath")
    rhs_f = sp.lambdify(syms, relation.rhs, modules="mpmath")
    op = relation.rel_op

    def candidates(r, point):
        try:
            lo = float(sp.N(sp.sympify(r.low).subs(point)))
        except (TypeError, ValueError, OverflowError):
            lo = 1.0
        try:
            hi = float(sp.N(sp.sympify(r.high).subs(point)))
        except (TypeError, ValueError, OverflowError):  # the bound depends on a symbol outside the relation
            hi = max(lo + 1, 2 * lo)
        vals = [lo, lo + 1, 2 * lo, 1, 2, 10, hi] if r.integer else [lo, 1, 2, 10, 2 * lo, hi]
        out = []
        for v in vals:
            v = float(math.ceil(v)) if r.integer else v
            if lo <= v <= hi and v not in out:
                out.append(v)
        return out

    with mpmath.workdps(numeric.DIGITS):
        def search(i, point, vals):
            if i == len(ranges):
                try:
                    a, b = lhs_f(*vals), rhs_f(*vals)
                except (ValueError, ZeroDivisionError, TypeError):
                    return None
                if _holds(op, a, b):
                    return None
                out = {str(s): (int(v) if r.integer else num(v, 6)) for s, v, r in zip(syms, vals, ranges)}
                out.update(lhs=mpmath.nstr(a, 10), rhs=mpmath.nstr(b, 10))
                return out
            r = ranges[i]
            for v in candidates(r, point):
                got = search(i + 1, {**point, r.symbol: sp.Float(v)}, vals + [mpmath.mpf(v)])
                if got:
                    return got
            return None

        return search(0, {}, [])


def _compositions(total: int, parts: int):
    if parts == 1:
        yield (total,)
        return
    for i in range(total + 1):
        for rest in _compositions(total - i, parts - 1):
            yield (i,) + rest
