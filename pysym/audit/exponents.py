"""Comparing a derived exponent with a claim: the ``exponent`` kind's verdicts.

:func:`compare_exponent` decides ``derived rel claimed`` for an exponent found
in closed form (proved equal, within the absolute tolerance decided exactly, a
one-sided relation proved or refuted, or, for symbolic exponents SymPy cannot
prove equal, compared at sampled points, which can refute but never prove);
:func:`check_coefficient` then compares the prefactor ``G`` of ``q* = G
scale**a`` with ``claimed_coefficient``.  ``s`` is the claim's setup
(:class:`pysym.audit.kinds.exponent._Setup`: the law, the quantity, the scale,
the claimed value, ``at`` and the context).
"""

from __future__ import annotations

import sympy as sp

from pysym.audit.budget import cpu_limit
from pysym.audit.context import SEED
from pysym.audit.numbers import num, show, tolerance_phrase
from pysym.audit.relations import scope_note
from pysym.audit.scaling import coefficient
from pysym.audit.verdict import Outcome
from pysym.derive import numeric, prove

__all__ = ["compare_exponent", "check_coefficient", "simplified", "unasked_limit", "within"]


def unasked_limit(s, ev) -> Outcome | None:
    """``inconclusive`` when the derived exponent is a limit as the scale grows (d log q / d log scale is not
    constant) and the claim does not say it is about that limit: over a bounded range of the scale the local
    exponent is another number (n + n**2 on [1e-9, 1e-3] grows like n, not n**2)."""
    if "asymptotic" not in ev or s.claim.get("asymptotic", False):
        return None
    return Outcome("inconclusive", f"d log q / d log {s.scale} varies with {s.scale}, so the quantity has no one "
                                   f"exponent over the range of {s.scale}; its limit as {s.scale} -> oo is "
                                   f"{ev['derived']}, but the claim does not say it is about that limit (write "
                                   "`asymptotic = true` for a claim about large scales)", ev)


def simplified(s, derived, ev):
    """``(derived, outcome)``: the derived exponent simplified (and shown in
    ``ev``), and the outcome to give instead of comparing it when it is a limit
    the claim did not ask about (:func:`unasked_limit`), else None."""
    with cpu_limit(20):
        derived = sp.simplify(derived)
    ev["derived"] = show(derived)
    return derived, unasked_limit(s, ev)


def compare_exponent(s, derived, q_star, method, ev) -> Outcome:
    """The verdict on the claimed exponent (and coefficient) against ``derived``,
    an exponent of exact numbers (see the module docstring)."""
    derived, unasked = simplified(s, derived, ev)
    if unasked is not None:
        return unasked
    if derived.is_number and not derived.is_Integer:
        ev["derived"] += f" = {num(derived, 6)}"
    ev["method"] = method
    claimed = s.claimed
    rel = s.claim.get("rel", "==")
    if rel != "==":
        return _one_sided(s, derived, claimed, rel, ev)
    tol = s.claim.get("tolerance", 1e-9)
    asym = " (asymptotic)" if "asymptotic" in ev or method.startswith("asymptotic") else ""
    if prove.prove_equal(derived, claimed, s.ctx.order()).ok:
        verdict, summary = "holds", f"derived exponent {ev['derived']}{asym} = claimed"
    else:
        dnum, cnum = sp.N(derived.subs(s.at)), sp.N(claimed.subs(s.at))
        if dnum.is_number and cnum.is_number:
            ev["derived_value"], ev["claimed_value"] = num(dnum), num(cnum)
            diff = abs(dnum - cnum)
            inside = within(derived.subs(s.at) - claimed.subs(s.at), tol)  # decided exactly, not on 15 digits
            if inside is None:
                verdict, summary = "inconclusive", (f"derived exponent {ev['derived']}{asym}, claimed "
                                                    f"{ev['claimed']}: the difference {num(diff, 3)} could not be "
                                                    f"proved inside or outside {tolerance_phrase('absolute', tol)}")
            elif inside >= 0:
                verdict, summary = "holds", (f"derived exponent {ev['derived']}{asym} is within "
                                             f"{tolerance_phrase('absolute', tol)} of the claimed {ev['claimed']} "
                                             f"(difference {num(diff, 3)})")
            else:
                verdict, summary = "fails", (f"derived exponent {ev['derived']}{asym}, claimed {ev['claimed']} "
                                             f"(difference {num(diff, 3)} > {tolerance_phrase('absolute', tol)})")
        else:
            verdict, summary = _compare_sampled(s, derived, claimed, tol, ev, asym)
    summary += scope_note(s.claim)
    if s.claim.has("claimed_coefficient"):
        return check_coefficient(s, derived, q_star, verdict, summary, ev)
    return Outcome(verdict, summary, ev)


def _one_sided(s, derived, claimed, rel, ev) -> Outcome:
    """derived rel claimed, exact numbers: proved, or refuted at a sampled point."""
    from pysym.audit.relations import relation_verdict

    asym = " (asymptotic)" if "asymptotic" in ev or ev.get("method", "").startswith("asymptotic") else ""
    o = relation_verdict(s.ctx, derived.subs(s.at), rel, claimed.subs(s.at), "the comparison",
                         f"{show(derived)} {rel} {show(claimed)}")
    words = {"holds": f"derived exponent {ev['derived']}{asym} {rel} claimed {ev['claimed']} (proved)",
             "fails": f"derived exponent {ev['derived']}{asym}, claimed {rel} {ev['claimed']}: {o.summary}"}
    return Outcome(o.verdict, words.get(o.verdict, o.summary) + scope_note(s.claim), {**ev, **o.evidence})


def _compare_sampled(s, derived, claimed, tol, ev, asym):
    """Symbolic exponents SymPy could not prove equal: compare them at sampled points."""
    gap = (derived - claimed).subs(s.at)
    syms = sorted(gap.free_symbols, key=str)
    unproved = 0  # sampled points where they seem to differ, but not by a proved margin
    for pt in s.ctx.sample(60, SEED):
        try:
            value = numeric.evaluate(gap, {x: pt[x] for x in syms})
        except (ValueError, KeyError, TypeError, ZeroDivisionError):
            continue
        if abs(value) > tol and not _proved_apart(gap, {x: pt[x] for x in syms}, tol):
            unproved += 1
        elif abs(value) > tol:
            where = ", ".join(f"{x} = {num(pt[x], 6)}" for x in syms)
            ev["counterexample"] = {**{str(x): num(pt[x], 6) for x in syms},
                                    "derived": num(derived.subs(s.at).subs({x: pt[x] for x in syms}), 6),
                                    "claimed": num(claimed.subs(s.at).subs({x: pt[x] for x in syms}), 6)}
            return "fails", (f"derived exponent {ev['derived']}{asym}, claimed {ev['claimed']}: they differ, e.g. at "
                             f"{where} ({ev['counterexample']['derived']} vs {ev['counterexample']['claimed']})")
    if unproved:
        return "inconclusive", (f"derived exponent {ev['derived']}{asym} and the claimed {ev['claimed']} seem to differ "
                                f"at {unproved} of 60 sampled points, but not by a margin proved at the exact point "
                                "(rounding), and SymPy could not prove them equal")
    return "inconclusive", (f"derived exponent {ev['derived']}{asym} and the claimed {ev['claimed']} agree within "
                            f"{tolerance_phrase('absolute', tol)} at 60 sampled points, but SymPy could not prove "
                            "them equal")


def _proved_apart(gap, point, tol) -> bool:
    """Whether ``|gap| > tol`` is proved at the exact point (a sampled value is rounded: sqrt(a + 2 sqrt(a) + 1)
    - sqrt(a) evaluates to 0 at a = 1e120 with 50 digits, though it is 1)."""
    from pysym.audit.interval import sign_of

    exact = gap.subs({x: sp.Rational(sp.Float(v, 60)) for x, v in point.items()})
    bound = sp.Rational(tol)
    return sign_of(exact - bound) == 1 or sign_of(-exact - bound) == 1


def check_coefficient(s, derived, q_star, verdict, summary, ev) -> Outcome:
    claim = s.claim
    cc = claim.get("claimed_coefficient").subs(s.at)
    tol = claim.get("coefficient_tolerance", 1e-6)
    g = None if q_star is None else coefficient(q_star, s.scale, derived)
    if g is None:
        why = ("no closed form gives the optimum" if q_star is None
               else f"the optimal {show(s.quantity)} is not a pure power of {s.scale}")
        ev["coefficient"] = f"not derived: {why}"
        if verdict == "holds":
            return Outcome("inconclusive", f"{summary}, but the claimed coefficient {show(cc)} cannot be checked: "
                                           f"{why}", ev)
        return Outcome(verdict, summary + f"; the coefficient is not checked ({why})", ev)
    got, want = sp.N(g.subs(s.at), 30), sp.N(cc, 30)
    if not (got.is_number and want.is_number):
        missing = sorted(map(str, (got.free_symbols | want.free_symbols)))
        raise s.cf.error(claim, f"`at` must fix {missing} to compare the coefficient with `claimed_coefficient`")
    ev["coefficient"], ev["claimed_coefficient"] = num(got), num(want)
    rel = abs(got - want) / abs(want) if want != 0 else abs(got - want)
    exact_got = g.subs(s.at)
    inside = within((exact_got - cc) / (sp.Abs(cc) if want != 0 else 1), tol)  # decided exactly
    if inside is None:
        return Outcome("inconclusive", f"{summary}; the coefficient {num(got)} could not be proved inside or "
                                       f"outside {tolerance_phrase('relative', tol)} of the claimed {num(want)}", ev)
    if inside < 0:
        return Outcome("fails", f"{summary.replace('derived exponent', 'exponent', 1)}; but the coefficient of "
                                f"{show(s.quantity)} is {num(got)}, not {num(want)} (relative difference "
                                f"{num(rel, 3)} > {tolerance_phrase('relative', tol)})", ev)
    if verdict != "holds":
        return Outcome(verdict, summary + f"; the coefficient {num(got)} is within "
                                          f"{tolerance_phrase('relative', tol)} of the claimed {num(want)}", ev)
    return Outcome("holds", summary + f"; coefficient {num(got)}" + (
        " = claimed" if got == want else f", within {tolerance_phrase('relative', tol)} of the claimed {num(want)}"),
        ev)


def within(difference, tol) -> int | None:
    """The sign of ``tol - |difference|``, proved (:func:`pysym.audit.interval.sign_of`), with the tolerance
    read as the decimal it was written as; None when it cannot be proved."""
    from pysym.audit.interval import sign_of
    from pysym.audit.precision import _tol

    t = _tol(tol)
    return sign_of(sp.Rational(t.numerator, t.denominator) - sp.Abs(difference))
