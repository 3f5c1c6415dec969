"""Counterexamples to a relation: found, simplified and confirmed exactly.

A failing sampled point is replaced by the simplest failing point that can be
found (small integers, the bounds, 1, 2, 10), so that a reader can check it by
hand (:func:`smallest_counterexample`), and a point counts only where the
violation is proved at the exact point, inside the region (:func:`violated_at`,
:func:`confirmed`).

>>> describe_point({"T": 3, "j": 2, "lhs": "1.0986", "rhs": "0.8109"})
'at T = 3, j = 2: left side 1.0986, right side 0.8109'
"""

from __future__ import annotations

import math

import mpmath
import sympy as sp

from pysym.audit.context import Context
from pysym.audit.numbers import num
from pysym.derive import numeric
from pysym.numerics import compiled

__all__ = ["exact_value", "violated_at", "confirmed", "describe_point", "smallest_counterexample"]


def exact_value(v):
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


def violated_at(relation, point: dict, ctx: Context | None, *, strict_point: bool = True) -> bool | None:
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
            pt[sym] = exact_value(point[str(sym)])
            if sym.is_integer and not pt[sym].is_Integer:
                return None
    except (TypeError, ValueError):
        return None
    if ctx is not None and strict_point and not _inside_region(_exact_point(point, ctx, pt), ctx):
        return None
    op = relation.rel_op
    margin = relation.lhs - relation.rhs if op in (">=", ">", "==") else relation.rhs - relation.lhs
    try:
        for side in (relation.lhs, relation.rhs):  # each side a real number there: the margin alone may hide a
            value = side.xreplace(pt)               # pole both sides share (1/(x - 1) - 1/(x - 1) is 0)
            if value.has(sp.zoo, sp.nan, sp.oo, -sp.oo) or value.is_extended_real is False:
                return None
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
                out[r.symbol] = exact_value(point[str(r.symbol)])
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


def confirmed(relation, point: dict, ctx: Context | None = None) -> dict | None:
    """The sampled failing ``point`` (shown to 15 digits) with both sides, if the relation is
    proved violated there (:func:`violated_at`); None otherwise."""
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
    if not violated_at(relation, full, ctx):
        return None
    pt = {sym: exact_value(shown[str(sym)]) for sym in relation.free_symbols}
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



def smallest_counterexample(relation, ctx: Context) -> dict | None:
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
    lhs_f = compiled(syms, relation.lhs, "mpmath")
    rhs_f = compiled(syms, relation.rhs, "mpmath")
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
    lhs_f = compiled(syms, relation.lhs, "mpmath")
    rhs_f = compiled(syms, relation.rhs, "mpmath")
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
