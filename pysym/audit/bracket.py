"""Where a minimizer lies, proved from the sign of the derivative: brackets.

A ``value`` claim about the minimizer of a law without a closed form ("P* is
7-8 bits") can still be decided for every admissible value of the printed
numbers.  If ``dL/dx < 0`` on ``[lo, a]`` for every admissible value, no point
of ``[lo, a]`` is a global minimizer over ``[lo, hi]`` (``L`` still falls just
beyond ``a``), so every minimizer lies above ``a``; likewise ``dL/dx > 0`` on
``[b, hi]`` puts every minimizer below ``b``.  The signs are proved by interval
branch and bound over ``x`` and the printed numbers together
(:func:`pysym.audit.boxes.decide`), so

* ``holds``: the minimizer lies inside the accepted interval of the claimed
  value (``[7, 8]``; ``"7.5"`` accepts [7.45, 7.55]; one-sided: above or below
  every admissible claimed value) for every admissible value;
* ``fails``: it lies outside that interval (short of every admissible claimed
  value, for a one-sided claim) for every admissible value;
* ``None``: neither is proved (the caller keeps its verdict at the printed
  values, which rounding could flip).

The claimed value must not share printed numbers with the law (its interval
would then move with them).

>>> import sympy as sp
>>> from pysym.audit.printed import interval, printed_literal
>>> x = sp.Symbol("x", positive=True)
>>> law = x * sp.log(x) - printed_literal("2.0") * x        # minimizer e**(2.0 - 1) in [2.5857, 2.8577]
>>> b = bracket_minimizer(law, x, sp.Integer(1), sp.Integer(10), interval("[2.5, 2.9]", 2.5, 2.9), "==")
>>> b.verdict, b.low, b.high
('holds', '2.5', '2.9')
>>> bracket_minimizer(law, x, sp.Integer(1), sp.Integer(10), sp.Integer(3), ">").verdict
'fails'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

import sympy as sp

from pysym.audit.boxes import Var, decide, fraction
from pysym.audit.interval import IntervalError
from pysym.audit.precision import DEFAULT_RELATIVE, acceptance, box_of, fmt
from pysym.audit.printed import constants_of

__all__ = ["Bracket", "bracket_minimizer", "BRACKET_BUDGET"]

BRACKET_BUDGET = 3000  # boxes per sign proof


@dataclass
class Bracket:
    """A proved verdict on a minimizer's location: ``low``/``high`` bound the
    minimizer for every admissible value (the range's end where a side is open)."""

    verdict: str
    summary: str
    evidence: dict = field(default_factory=dict)
    range_of: str = ""
    low: str | None = None
    high: str | None = None


def _sign_on(d, x, a: Fraction, b: Fraction, sign: int) -> bool:
    """``sign * d > 0`` at every point of ``x in [a, b]`` for every admissible value (proved)."""
    if a > b:
        return True
    box = [Var(x, a, b)] + box_of([d])
    try:
        return decide([(sign * d, ">")], box, budget=BRACKET_BUDGET).status == "all"
    except (IntervalError, ZeroDivisionError, ValueError, TypeError):
        return False


def _falls(d, x, lo, a):
    """``d < 0`` on ``[lo, a]``: every minimizer over ``[lo, hi]`` lies above ``a`` (when ``a < hi``)."""
    return _sign_on(d, x, lo, a, -1)


def _rises(d, x, b, hi):
    """``d > 0`` on ``[b, hi]``: every minimizer lies below ``b`` (when ``b > lo``)."""
    return _sign_on(d, x, b, hi, 1)


def bracket_minimizer(law, x, lo, hi, claimed, rel: str = "==", tol_rel=None, tol_abs=None) -> Bracket | None:
    """The verdict on "the global minimizer of ``law`` over ``x in [lo, hi]``
    ``rel`` ``claimed``" for every admissible value, from the sign of
    ``dlaw/dx`` (see the module docstring); None when nothing is proved."""
    lo, hi = fraction(lo), fraction(hi)
    claimed = sp.sympify(claimed)
    if not lo < hi or constants_of(claimed) & constants_of(law):
        return None
    d = sp.diff(law, x)
    try:
        if rel == "==":
            if tol_rel is None and tol_abs is None:  # the claim's own digits, else exact within 1e-9
                own = any(not c.exact for c in constants_of(claimed))
                tol_rel, tol_abs = (0, 0) if own else (DEFAULT_RELATIVE, 0)
            inner, outer = acceptance(claimed, "==", tol_rel or 0, tol_abs or 0)
        else:
            c_lo, c_hi = acceptance(claimed, "==", 0, 0)[1]
    except (IntervalError, ZeroDivisionError, ValueError, TypeError):
        return None
    what = f"the minimizer {x}*"
    ev = {"method": f"the sign of d/d{x} proved on each side (interval branch and bound over {x} and every "
                    f"admissible value): every global minimizer over [{fmt(lo, 8)}, {fmt(hi, 8)}] lies between"}

    def proved(verdict, a, b, text):
        a, b = (lo if a is None else a), (hi if b is None else b)
        ev["bracket"] = f"{x}* in [{fmt(a, 8)}, {fmt(b, 8)}]"
        return Bracket(verdict, text, dict(ev), what, fmt(a, 6), fmt(b, 6))

    if rel == "==":
        a, b = inner
        a_ok = a <= lo or (a < hi and _falls(d, x, lo, a))
        b_ok = b >= hi or (b > lo and _rises(d, x, b, hi))
        if a_ok and b_ok:
            return proved("holds", max(a, lo), min(b, hi),
                          f"{what} lies in [{fmt(max(a, lo), 8)}, {fmt(min(b, hi), 8)}] for every admissible value "
                          f"(d/d{x} < 0 below, > 0 above: proved), inside the accepted interval of the claim")
        a, b = outer
        if b < hi and (b < lo or _falls(d, x, lo, b)):
            return proved("fails", max(b, lo), None,
                          f"{what} lies above {fmt(b, 8)} for every admissible value (d/d{x} < 0 on "
                          f"[{fmt(lo, 8)}, {fmt(b, 8)}]: proved), outside the accepted interval of the claim")
        if a > lo and (a > hi or _rises(d, x, a, hi)):
            return proved("fails", None, min(a, hi),
                          f"{what} lies below {fmt(a, 8)} for every admissible value (d/d{x} > 0 on "
                          f"[{fmt(a, 8)}, {fmt(hi, 8)}]: proved), outside the accepted interval of the claim")
        return None
    # one-sided: holds beyond every admissible claimed value, fails short of every one
    def above():
        if c_hi < hi and (c_hi < lo or _falls(d, x, lo, c_hi)):
            return (max(c_hi, lo), None), f"{what} lies above {fmt(c_hi, 8)} for every admissible value (d/d{x} < 0 " \
                                          "up to there: proved)"
        return None

    def below():
        if c_lo > lo and (c_lo > hi or _rises(d, x, c_lo, hi)):
            return (None, min(c_lo, hi)), f"{what} lies below {fmt(c_lo, 8)} for every admissible value (d/d{x} > " \
                                          "0 from there on: proved)"
        return None

    want, other = (above, below) if rel in (">", ">=") else (below, above)
    for verdict, side in (("holds", want), ("fails", other)):
        found = side()
        if found is not None:
            return proved(verdict, *found[0], found[1])
    return None
