"""Verdicts over the precision box: every admissible value of the printed numbers.

The kinds derive a quantity (a value, an exponent, a ratio) as an expression
in the claim's printed constants (:mod:`pysym.audit.printed`); this module
compares it with the claim over the *box* of all admissible values, by interval
branch and bound (:mod:`pysym.audit.boxes`):

* ``holds`` when every admissible value satisfies the claim (proved);
* ``fails`` when none does (proved);
* ``undetermined`` when some do and some do not, with a witness of each: the
  printed precision cannot decide;
* ``inconclusive`` when the boxes could not be decided within the budget.

How ``claimed`` is read (``paper_checks/README.md`` has the table):

* with ``rel = "=="`` (the default), the claimed value's own printed digits are
  its tolerance: "0.46" accepts every derived value in [0.455, 0.465];
  ``tolerance`` (relative) and ``abs_tolerance`` widen that interval.  A claimed
  value without printed digits (a TOML number, an integer, a fraction) is exact,
  with the default relative tolerance 1e-9;
* with a one-sided ``rel`` (``<``, ``<=``, ``>``, ``>=``) the claim must hold for
  every admissible value of *both* sides: "EL > 7.0" holds only if the derived
  value exceeds 7.05 everywhere.

Every verdict carries a :class:`pysym.audit.verdict.Rounding`: whether
rounding could flip it, and the admissible range of the derived quantity.

>>> import sympy as sp
>>> from pysym.audit.printed import printed_literal as p
>>> a, b = p("0.34"), p("0.28")
>>> o = compare(b / (a + b), p("0.46"), what="the exponent")
>>> o.verdict, o.rounding.low, o.rounding.high
('undetermined', '0.443548', '0.459678')
>>> compare(b / (a + b), sp.Rational(1, 2), rel="<", what="the exponent").verdict
'holds'
>>> compare(b / (a + b), p("0.50"), what="the exponent").verdict
'fails'
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal, localcontext
from fractions import Fraction

import sympy as sp

from pysym.audit.boxes import Var, decide, enclose, fraction, value_at
from pysym.audit.existence import continuous_form, continuum
from pysym.audit.interval import IntervalError
from pysym.audit.numbers import show
from pysym.audit.printed import Printed, constants_of, midpoint, printed_in
from pysym.audit.verdict import Outcome, Rounding

__all__ = ["Check", "compare", "compare_all", "box_of", "fmt", "outward", "rounding_for", "closed_rounding", "DEFAULT_RELATIVE",
           "point_text", "acceptance"]

DEFAULT_RELATIVE = sp.Rational(1, 10**9)
_OPS = {"<": (">", -1), "<=": (">=", -1), ">": (">", 1), ">=": (">=", 1)}


def _tol(x) -> Fraction:
    """A tolerance as an exact Fraction (a TOML float read as the decimal it was written as)."""
    if isinstance(x, float):
        return Fraction(Decimal(repr(x)))
    return fraction(x)


def box_of(exprs) -> list[Var]:
    """The printed constants of ``exprs`` whose interval is not a point, as box variables."""
    ps = sorted((c for c in constants_of(exprs) if not c.exact), key=lambda c: (c.name, c.dummy_index))
    return [Var(c, fraction(c.lo), fraction(c.hi)) for c in ps]


def fmt(x, digits: int = 6, rounding=None) -> str:
    """A number to ``digits`` significant digits (``rounding``: ROUND_FLOOR or ROUND_CEILING)."""
    f = fraction(x)
    if f == 0:
        return "0"
    with localcontext() as ctx:
        ctx.prec = digits
        if rounding:
            ctx.rounding = rounding
        d = +(Decimal(f.numerator) / Decimal(f.denominator))
    d = d.normalize()
    if -4 <= d.adjusted() < 7:
        return format(d, "f")
    return f"{d:e}".replace("E", "e")


def outward(lo, hi, digits: int = 6) -> tuple[str, str]:
    """``[lo, hi]`` printed to ``digits`` digits, rounded outward."""
    return fmt(lo, digits, ROUND_FLOOR), fmt(hi, digits, ROUND_CEILING)


def point_text(point: dict) -> str:
    """A witness point ``{constant or symbol: value}`` as text: ``"the printed
    values"`` when every printed constant is at its printed value; a literal
    constant reads ``0.34 as 0.335``, a named one or a symbol ``alpha = 0.335``."""
    consts = {k: v for k, v in point.items() if isinstance(k, Printed)}
    rest = {k: v for k, v in point.items() if not isinstance(k, Printed)}
    parts = [f"{k} = {fmt(v, 8)}" for k, v in sorted(rest.items(), key=lambda kv: str(kv[0]))]
    if consts and all(fraction(v) == fraction(k.mid) for k, v in consts.items()):
        parts.append("the printed values")
    else:
        moved = 0
        for k, v in sorted(consts.items(), key=lambda kv: (str(kv[0]), kv[0].dummy_index)):
            if fraction(v) == fraction(k.mid):
                continue
            moved += 1
            parts.append(f"{k} as {fmt(v, 8)}" if k.name == k.text else f"{k} = {fmt(v, 8)}")
        if moved < len(consts):
            parts.append("the other printed numbers as printed")
    return ", ".join(parts) or "the printed values"


def _at_printed(expr) -> str | None:
    try:
        v = value_at(midpoint(expr), {})
    except (IntervalError, TypeError, ValueError, ZeroDivisionError):
        return None
    lo, hi = v.fractions()
    return fmt((lo + hi) / 2, 6)


def rounding_for(status: str, derived, what: str, numbers_of=None) -> Rounding:
    """A :class:`Rounding` with the admissible range of ``derived`` (a closed
    expression in printed constants), when interval arithmetic can bound it."""
    numbers = tuple(printed_in(numbers_of if numbers_of is not None else derived))
    low = high = None
    if derived is not None:
        try:
            box = box_of(derived)
            if box:
                r = enclose(derived, box)
                low, high = outward(r.low, r.high)
            else:
                v = value_at(derived, {})
                lo, hi = v.fractions()
                low = high = fmt((lo + hi) / 2, 6) if hi - lo <= abs(lo + hi) * Fraction(1, 10**12) + \
                    Fraction(1, 10**300) else None
                if low is None:
                    low, high = outward(lo, hi)
        except (IntervalError, TypeError, ValueError, ZeroDivisionError):
            low = high = None
    at = _at_printed(derived) if derived is not None and numbers else None
    return Rounding(status, what, low, high, at, numbers)


def closed_rounding(verdict: str, derived, what: str, numbers_of=None) -> Rounding:
    """The rounding of a verdict decided over the whole box (or exactly)."""
    numbers = printed_in(numbers_of if numbers_of is not None else derived)
    if not numbers:
        status = "exact"
    else:
        status = {"holds": "robust", "fails": "robust", "undetermined": "rounding decides"}.get(verdict, "unknown")
    return rounding_for(status, derived, what, numbers_of)


def acceptance(claimed, rel: str, tol_rel, tol_abs):
    """``(inner, outer)`` intervals of accepted derived values for ``rel = "=="``:
    the claimed value's admissible range widened by the tolerances (``inner``
    from values it reaches, ``outer`` from proved bounds; equal when exact)."""
    box = box_of(claimed)
    if isinstance(claimed, Printed) or claimed.is_Rational:
        lo = fraction(claimed.lo if isinstance(claimed, Printed) else claimed)
        hi = fraction(claimed.hi if isinstance(claimed, Printed) else claimed)
        inner = outer = (lo, hi)
    elif box:
        r = enclose(claimed, box)
        inner, outer = (r.reached_low, r.reached_high), (r.low, r.high)
    else:
        v = value_at(claimed, {})
        lo, hi = v.fractions()
        inner = outer = (lo, hi)

    def widen(lo, hi):
        t_lo = max(_tol(tol_abs), _tol(tol_rel) * abs(lo))
        t_hi = max(_tol(tol_abs), _tol(tol_rel) * abs(hi))
        return lo - t_lo, hi + t_hi

    return widen(*inner), widen(*outer)


class Accepted(tuple):
    """``(low, high)``, the derived values a claim accepts, and whether each end
    is accepted (``ends``: ``">="`` it is, ``">"`` it is not)."""

    def __new__(cls, low, high, ends=(">=", ">=")):
        obj = tuple.__new__(cls, (low, high))
        obj.ends = tuple(ends)
        return obj

    def __getnewargs__(self):
        return (self[0], self[1], self.ends)


def interval_text(accepted, lo, hi) -> str:
    """``[lo, hi]``, with ``(`` or ``)`` for an end ``accepted`` does not accept."""
    ends = getattr(accepted, "ends", (">=", ">="))
    return f"{'[' if ends[0] == '>=' else '('}{lo}, {hi}{']' if ends[1] == '>=' else ')'}"


def tie_ops(claimed) -> tuple[tuple[str, str], tuple[str, str]]:
    """How the ends of a printed claimed value's interval count, with no
    tolerance: ``((low, high) surely, (low, high) possibly)``, each ``">="``
    (the end counts) or ``">"`` (it does not).  The ends are rounding ties: a
    value there prints as the claimed digits under one convention and perhaps
    not under another (for an exact derived value: one computed from printed
    inputs reaches an end only at inputs on their own ends, and is read closed
    like them).  For a printed decimal ``d`` (last digit ``k``), under
    round-half-up and round-half-to-even, the two conventions in use: the lower
    tie prints as ``d`` under half up, and under half to even when ``k`` is
    even; the upper tie prints as ``d`` only under half to even, when ``k`` is
    even.  So 0.455 surely prints as 0.46 and surely not as 0.45; 0.465 may or
    may not print as 0.46.  An explicit ``0.45 ± 0.005`` or ``[0.445, 0.455]``
    states its ends: both count.  Any other claimed value with printed numbers
    (an expression of them, a negative literal): neither end counts surely,
    both possibly.

    >>> from pysym.audit.printed import printed_literal
    >>> tie_ops(printed_literal("0.46")), tie_ops(printed_literal("0.45"))
    ((('>=', '>'), ('>=', '>=')), (('>', '>'), ('>=', '>')))
    """
    from pysym.audit.printed import printed_literal

    if isinstance(claimed, Printed):
        try:
            literal = printed_literal(claimed.text) if claimed.text else None
        except ValueError:
            literal = None
        if literal is None or (literal.lo, literal.hi) != (claimed.lo, claimed.hi):
            return (">=", ">="), (">=", ">=")  # an explicit error bar or interval: its ends are stated, not rounded
        if claimed.mid > 0:
            even = Decimal(claimed.text.strip()).as_tuple().digits[-1] % 2 == 0
            return (">=" if even else ">", ">"), (">=", ">=" if even else ">")
    return (">", ">"), (">=", ">=")


@dataclass
class Check:
    """One comparison of a closed ``derived`` expression with ``claimed``."""

    derived: sp.Expr
    claimed: sp.Expr
    rel: str = "=="
    tol_rel: object = None
    tol_abs: object = None
    what: str = "the derived value"
    claimed_text: str | None = None

    def constraints(self):
        """``(inner, outer, accepted)``: constraints ``(g, op)`` whose points surely
        satisfy the check (``inner``) and outside which it surely fails (``outer``),
        and the outer accepted interval for ``==`` (None when it depends on the box)."""
        derived, claimed = sp.sympify(self.derived), sp.sympify(self.claimed)
        shared = constants_of(derived) & constants_of(claimed)
        own = {c for c in constants_of(claimed) if not c.exact} - shared
        if self.rel != "==":
            op, sign = _OPS[self.rel]
            cs = [(sign * (derived - claimed), op)]
            return cs, cs, None
        if own and shared:
            raise ValueError("the claimed value mixes constants of the derived value with printed numbers of "
                             "its own; write its own numbers exact(...)")
        tol_rel, tol_abs = self.tol_rel, self.tol_abs
        default = tol_rel is None and tol_abs is None
        if default:
            tol_rel, tol_abs = (0, 0) if own else (DEFAULT_RELATIVE, 0)
        tol_rel, tol_abs = tol_rel or 0, tol_abs or 0
        if not own:
            t = sp.Max(sp.Rational(_tol(tol_abs)), sp.Rational(_tol(tol_rel)) * sp.Abs(claimed))
            cs = [(derived - claimed + t, ">="), (claimed + t - derived, ">=")]
            show_accepted = not default and not constants_of(claimed)
            accepted = acceptance(claimed, "==", tol_rel, tol_abs)[1] if show_accepted else None
            return cs, cs, accepted
        inner, outer = acceptance(claimed, "==", tol_rel, tol_abs)
        # an exact derived value on an end of a printed claimed value is a rounding tie (tie_ops); one computed from
        # printed inputs reaches an end only at inputs on their own ends, read like them (closed)
        ties = not (tol_rel or tol_abs) and not constants_of(derived)
        (in_lo, in_hi), (out_lo, out_hi) = tie_ops(claimed) if ties else ((">=",) * 2,) * 2
        return ([(derived - sp.Rational(inner[0]), in_lo), (sp.Rational(inner[1]) - derived, in_hi)],
                [(derived - sp.Rational(outer[0]), out_lo), (sp.Rational(outer[1]) - derived, out_hi)],
                Accepted(outer[0], outer[1], (out_lo, out_hi)))


class _Enclosed:
    """A decision read off the range of one expression: the range is an
    interval (the box is connected, and the expression is continuous: built
    only from continuous operations, :func:`pysym.audit.existence.continuous_form`,
    and bounded by interval arithmetic on the whole box), so any value between
    two reached values is reached."""

    def __init__(self, status, sat_text=None, bad_text=None):
        self.status, self.sat_text, self.bad_text = status, sat_text, bad_text
        self.satisfied = self.violated = None
        self.variables = []


def _by_range(check):
    """The decision of one check from the range of one expression, or None."""
    derived, claimed = sp.sympify(check.derived), sp.sympify(check.claimed)
    if check.rel == "==":
        shared = constants_of(derived) & constants_of(claimed)
        own = {c for c in constants_of(claimed) if not c.exact} - shared
        if shared or (not own and constants_of(claimed)):
            return None
        h = derived
        inner, outer, _ = check.constraints()
        ends_in, ends_out = (inner[0][1], inner[1][1]), (outer[0][1], outer[1][1])  # ">" where an end does not count
        a_in, b_in = _bounds_of(inner, derived)
        a_out, b_out = _bounds_of(outer, derived)
    else:
        op, sign = _OPS[check.rel]
        h = sign * (derived - claimed)
        ends_in = ends_out = (op, "")
        a_in = a_out = Fraction(0)
        b_in = b_out = None
    box = box_of([h])
    if not box:
        return None
    r = enclose(h, box)
    lo, hi, rl, rh = r.low, r.high, r.reached_low, r.reached_high

    def inside(x_lo, x_hi, a, b, ends):  # [x_lo, x_hi] within the accepted set (an end counts where ">=")
        left = x_lo > a if ends[0] == ">" else x_lo >= a
        return left and (b is None or (x_hi < b if ends[1] == ">" else x_hi <= b))

    def outside(x_lo, x_hi, a, b, ends):  # [x_lo, x_hi] disjoint from the accepted set
        return (x_hi <= a if ends[0] == ">" else x_hi < a) or (
            b is not None and (x_lo >= b if ends[1] == ">" else x_lo > b))

    if inside(lo, hi, a_in, b_in, ends_in):
        return _Enclosed("all")
    if outside(lo, hi, a_out, b_out, ends_out):
        return _Enclosed("none")
    argmin, argmax = point_text(_with_mid(r.argmin, box)), point_text(_with_mid(r.argmax, box))
    bad = argmin if outside(lo, rl, a_out, b_out, ends_out) else \
        argmax if outside(rh, hi, a_out, b_out, ends_out) else None
    if check.rel == "==":
        sat = None
        reaches = (rh > a_in if ends_in[0] == ">" else rh >= a_in) and (
            b_in is None or (rl < b_in if ends_in[1] == ">" else rl <= b_in))
        if rl <= rh and reaches and continuous_form(h) and all(continuum(v) for v in box):
            sat = f"some admissible values between {argmin} and {argmax} (intermediate values)"
    else:
        sat = argmax if inside(rh, rh, a_in, b_in, ends_in) else None
    if sat and bad:
        return _Enclosed("mixed", sat, bad)
    return None


def _bounds_of(constraints, derived):
    """``(a, b)`` of the constraints ``derived - a >= 0`` and ``b - derived >= 0``."""
    (g1, _), (g2, _) = constraints
    return fraction(sp.expand(derived - g1)), fraction(sp.expand(g2 + derived))


def _with_mid(point, box):
    return {**{v.symbol: fraction(v.symbol.mid) for v in box}, **point}


def _decide_checks(checks):
    """The joint decision of several checks: ``(decision, accepted intervals)``."""
    if len(checks) == 1:
        try:
            quick = _by_range(checks[0])
        except (IntervalError, ZeroDivisionError, ValueError, TypeError):
            quick = None
        if quick is not None:
            return quick, [checks[0].constraints()[2]]
    parts = [c.constraints() for c in checks]
    inner = [g for p in parts for g in p[0]]
    outer = [g for p in parts for g in p[1]]
    exprs = [c.derived for c in checks] + [c.claimed for c in checks]
    d_in = _decide(inner, exprs)
    if inner == outer or d_in.status == "all":
        return d_in, [p[2] for p in parts]
    d_out = _decide(outer, exprs)
    if d_out.status == "none":
        return d_out, [p[2] for p in parts]
    if d_in.satisfied is not None and d_out.violated is not None:
        d_in.status, d_in.violated, d_in.variables_bad = "mixed", d_out.violated, d_out.variables
        return d_in, [p[2] for p in parts]
    return _Unknown(), [p[2] for p in parts]


def compare(derived, claimed, *, rel: str = "==", tol_rel=None, tol_abs=None, what: str = "the derived value",
            claimed_text: str | None = None) -> Outcome:
    """Compare ``derived`` with ``claimed`` (closed expressions: numbers and
    printed constants) over every admissible value; see the module docstring."""
    return compare_all([Check(sp.sympify(derived), sp.sympify(claimed), rel, tol_rel, tol_abs, what, claimed_text)])


def compare_all(checks: list) -> Outcome:
    """Every check must hold at the same admissible values: ``holds`` if all hold
    everywhere, ``fails`` if no admissible value satisfies all of them,
    ``undetermined`` with a witness of each; the summary has one part per check."""
    ev: dict = {}
    try:
        d, accepted = _decide_checks(checks)
    except (IntervalError, ZeroDivisionError, ValueError) as exc:
        ev["interval_arithmetic"] = str(exc)
        first = checks[0]
        return Outcome("inconclusive", f"{first.what} could not be bounded over the admissible values ({exc})", ev,
                       closed_rounding("inconclusive", None, first.what, [first.derived, first.claimed]))
    verdict = {"all": "holds", "none": "fails", "mixed": "undetermined"}.get(d.status, "inconclusive")
    texts, roundings = [], []
    for c, acc in zip(checks, accepted):
        if len(checks) > 1:
            single, acc1 = _decide_checks([c])
        else:
            single, acc1 = d, [acc]
        o = _outcome(single, c.derived, c.claimed, c.rel, c.claimed_text or show(c.claimed), c.what, acc1[0], {})
        texts.append(o.summary.split(" (it holds at ")[0])
        roundings.append(o.rounding)
        if acc is not None and len(checks) == 1:
            lo, hi = outward(*acc)
            if lo != hi:
                ev["accepted"] = interval_text(acc, lo, hi)
    summary = "; ".join(texts)
    if verdict == "undetermined":
        ev["satisfied_at"] = _witness(d, "satisfied")
        ev["violated_at"] = _witness(d, "violated")
        if len(checks) > 1:
            summary += ": some admissible values satisfy every part of the claim and others do not"
        summary += f" (it holds at {ev['satisfied_at']}; it fails at {ev['violated_at']})"
    elif verdict == "inconclusive" and len(checks) > 1:
        summary += ": the engine could not decide the parts together within its budget of boxes"
    status = roundings[0].status if len(checks) == 1 else (
        "exact" if all(r.status == "exact" for r in roundings) else
        {"holds": "robust", "fails": "robust", "undetermined": "rounding decides"}.get(verdict, "unknown"))
    rounding = dataclasses.replace(roundings[0], status=status,
                                   numbers=tuple(printed_in([[c.derived, c.claimed] for c in checks])))
    return Outcome(verdict, summary, ev, rounding)


class _Unknown:
    status = "unknown"
    satisfied = violated = None


def _decide(constraints, exprs):
    box = box_of(exprs)
    first = {v.symbol: v.symbol.mid for v in box}
    probes = []
    try:  # the corners where the derived value is smallest and largest: readable witnesses
        e = enclose(exprs[0], box, budget=50)
        probes = [{**first, **e.argmin}, {**first, **e.argmax}]
    except (IntervalError, ZeroDivisionError, ValueError):
        pass
    d = decide(constraints, box, first=first, probes=probes)
    d.variables_bad = d.variables
    return d


def _witness(d, which: str) -> str:
    if isinstance(d, _Enclosed):
        return (d.sat_text if which == "satisfied" else d.bad_text) or ""
    box = d.satisfied if which == "satisfied" else d.violated
    variables = d.variables if which == "satisfied" else getattr(d, "variables_bad", d.variables)
    if box is None or not variables:
        return ""
    pt = {v.symbol: lo if lo == hi else (lo + hi) / 2 for v, (lo, hi) in zip(variables, box)}
    return point_text(pt)


_WORDS = {"==": ("matches", "match", "does not match"), "<": ("is below", "are below", "is not below"),
          "<=": ("is at most", "are at most", "exceeds"), ">": ("exceeds", "exceed", "does not exceed"),
          ">=": ("is at least", "are at least", "is below")}


def _outcome(d, derived, claimed, rel, shown, what, accepted, ev) -> Outcome:
    verdict = {"all": "holds", "none": "fails", "mixed": "undetermined"}.get(d.status, "inconclusive")
    rounding = closed_rounding(verdict, derived, what, [derived, claimed])
    rng = rounding.range_text() or f"{what} is {show(derived)}"
    if accepted is not None:
        lo, hi = outward(*accepted)
        target = f"the claimed {shown}" + ("" if lo == hi else f" (accepting {interval_text(accepted, lo, hi)})")
    else:
        target = f"the claimed {shown}"
    one, many, neg = _WORDS[rel]
    if d.status == "all":
        every = "" if rounding.status == "exact" else " for every admissible value"
        return Outcome("holds", f"{rng}: it {one} {target}{every}", ev, rounding)
    if d.status == "none":
        every = "" if rounding.status == "exact" else " for any admissible value"
        return Outcome("fails", f"{rng}: it {neg} {target}{every}", ev, rounding)
    if d.status == "mixed":
        ev["satisfied_at"] = _witness(d, "satisfied")
        ev["violated_at"] = _witness(d, "violated")
        return Outcome("undetermined", f"{rng}: some admissible values {many} {target} and others do not, so the "
                                       f"printed precision cannot decide (it holds at {ev['satisfied_at']}; it "
                                       f"fails at {ev['violated_at']})", ev, rounding)
    if rel == "==" and accepted is not None and _on_a_tie(derived, claimed, accepted):
        return Outcome("inconclusive", f"{rng}: it lies on an end of {target}, a rounding tie of the printed digits "
                                       "(it prints as them under one rounding convention and not under another)",
                       ev, rounding)
    return Outcome("inconclusive", f"{rng}: the engine could not decide within its budget of boxes whether it "
                                   f"{one} {target} for every admissible value", ev, rounding)


def _on_a_tie(derived, claimed, accepted) -> bool:
    """Whether an exact ``derived`` is an end of the interval a printed ``claimed`` (no tolerance) accepts."""
    derived = sp.sympify(derived)
    if not derived.is_Rational or box_of([derived]) or not constants_of(sp.sympify(claimed)):
        return False
    return fraction(derived) in (accepted[0], accepted[1])
