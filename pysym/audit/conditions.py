"""Whether a stated condition separates where a failing relation holds from where it fails.

:func:`split_by_condition` gives ``conditional`` only when the relation and
the condition are proved equivalent on the whole region (:func:`_proved_split`);
``fails`` when a point where they disagree is proved (sampled, next to the
condition's boundary, or a part of the region found by interval arithmetic);
a split that is only sampled is ``inconclusive``.
"""

from __future__ import annotations

import mpmath
import sympy as sp

from pysym.audit.context import SEED, Context
from pysym.audit.counterexamples import describe_point, violated_at
from pysym.audit.interval import IntervalError
from pysym.audit.numbers import short, show
from pysym.audit.precision import box_of, fmt
from pysym.audit.printed import Printed
from pysym.audit.region import numeric_box
from pysym.audit.verdict import Outcome
from pysym.derive import numeric, prove

__all__ = ["split_by_condition"]


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
    r_bad, c_bad = violated_at(relation, shown, ctx), violated_at(cond, shown, ctx)
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
      (:func:`pysym.audit.existence.equivalent`)."""
    from pysym.audit.existence import equivalent
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
