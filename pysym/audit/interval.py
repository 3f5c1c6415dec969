"""Rigorous interval arithmetic for SymPy expressions, on FLINT's ``arb``.

An :class:`Iv` is a closed interval ``[lo, hi]`` whose ends are exact binary
numbers.  Every operation computes its result's ends with ``arb`` ball
arithmetic (python-flint), which bounds every rounding error, and takes the
ball's lower and upper bound: the result is **outward rounded**, so it always
contains the exact result for every point of the inputs.  Monotone functions
(``exp``, ``log``, ``sqrt``, powers with a fixed sign of the exponent) are
evaluated at the ends; ``x**y`` with both an interval is ``exp(y log x)``,
whose extremes lie at the four corners.

:func:`compile_expr` turns an expression into a function of the intervals of
its variables (printed constants, :class:`pysym.audit.printed.Printed`, bring
their own interval).  An operation that is undefined somewhere on its input
(``log`` of an interval reaching 0, a division by an interval containing 0, a
fractional power of an interval reaching below 0) raises
:class:`IntervalError`: an interval result is never returned for an
expression that is not defined everywhere on the box.

>>> import sympy as sp
>>> x = sp.Symbol("x", positive=True)
>>> f = compile_expr(x**2 - 2*x, [x])
>>> f([Iv.of(1, 3)])    # the dependency problem: a valid, loose enclosure of [-1, 3]
[-5, 7]
>>> third = compile_expr(sp.Rational(1, 3), [])([])
>>> from fractions import Fraction
>>> lo, hi = third.fractions()
>>> lo < Fraction(1, 3) < hi, float(hi - lo) < 1e-30
(True, True)
>>> compile_expr(sp.log(x - 1), [x])([Iv.of(1, 2)])
Traceback (most recent call last):
...
pysym.audit.interval.IntervalError: log of an interval that reaches 0 or below: [0, 1]
"""

from __future__ import annotations

import math
from contextlib import contextmanager
from fractions import Fraction

import sympy as sp
from flint import arb, ctx, fmpq, fmpz

from pysym.audit.printed import Printed

__all__ = ["Iv", "IntervalError", "compile_expr", "working_precision", "PRECISION", "sign_of"]

PRECISION = 128  # bits of every arb operation


class IntervalError(ValueError):
    """An expression that is undefined (or not supported) somewhere on the box."""


@contextmanager
def working_precision(bits: int = PRECISION):
    """Run the block with ``bits`` bits of arb precision (restored afterwards)."""
    old = ctx.prec
    ctx.prec = bits
    try:
        yield
    finally:
        ctx.prec = old


def _exact(x) -> arb:
    """An exact arb for an int, Fraction, SymPy Rational or Float (a ball if it cannot be exact)."""
    if isinstance(x, arb):
        return x
    if isinstance(x, bool):
        raise TypeError("not a number")
    if isinstance(x, int):
        return arb(fmpz(x))
    if isinstance(x, Fraction):
        return arb(fmpq(x.numerator, x.denominator))
    if isinstance(x, float):
        return arb(x)
    if isinstance(x, sp.Integer):
        return arb(fmpz(int(x)))
    if isinstance(x, sp.Rational):
        return arb(fmpq(int(x.p), int(x.q)))
    if isinstance(x, sp.Float):
        return _exact(sp.Rational(x))
    raise TypeError(f"not a number: {x!r}")


class Iv:
    """The closed interval ``[lo, hi]`` (exact arb ends)."""

    __slots__ = ("lo", "hi")

    def __init__(self, lo: arb, hi: arb):
        self.lo, self.hi = lo, hi

    @classmethod
    def of(cls, lo, hi=None) -> "Iv":
        """The interval from numbers (ints, Fractions, SymPy Rationals, floats); a
        rational that is not a binary number is enclosed outward."""
        hi = lo if hi is None else hi
        a, b = _exact(lo), _exact(hi)
        return cls(a.lower(), b.upper())

    @classmethod
    def ball(cls, x: arb) -> "Iv":
        if not x.is_finite():
            raise IntervalError("a value is not finite on the box")
        return cls(x.lower(), x.upper())

    @classmethod
    def hull(cls, balls) -> "Iv":
        lo = hi = None
        for b in balls:
            if not b.is_finite():
                raise IntervalError("a value is not finite on the box")
            low, up = b.lower(), b.upper()  # exact values: comparisons between them are exact
            if lo is None or low < lo:
                lo = low
            if hi is None or up > hi:
                hi = up
        return cls(lo, hi)

    # ------------------------------------------------------------- queries

    def is_point(self) -> bool:
        return self.lo == self.hi

    def contains(self, value) -> bool:
        v = _exact(value)
        return bool(self.lo <= v) and bool(v <= self.hi)

    def width(self) -> float:
        return float(self.hi - self.lo)

    def mid(self) -> arb:
        return ((self.lo + self.hi) / 2).mid()

    def fractions(self) -> tuple[Fraction, Fraction]:
        return to_fraction(self.lo), to_fraction(self.hi)

    def __repr__(self) -> str:
        lo, hi = self.fractions()
        return f"[{_short(lo)}, {_short(hi)}]"

    # ------------------------------------------------------------- arithmetic

    def __add__(self, other: "Iv") -> "Iv":
        return Iv((self.lo + other.lo).lower(), (self.hi + other.hi).upper())

    def __neg__(self) -> "Iv":
        return Iv(-self.hi, -self.lo)

    def __sub__(self, other: "Iv") -> "Iv":
        return self + (-other)

    def __mul__(self, other: "Iv") -> "Iv":
        if self.lo >= 0 and other.lo >= 0:  # the common case, two products instead of four
            lo, hi = self.lo * other.lo, self.hi * other.hi
            if not (lo.is_finite() and hi.is_finite()):
                raise IntervalError("a value is not finite on the box")
            return Iv(lo.lower(), hi.upper())
        return Iv.hull([a * b for a in (self.lo, self.hi) for b in (other.lo, other.hi)])

    def inverse(self) -> "Iv":
        if not (self.lo > 0 or self.hi < 0):
            raise IntervalError(f"division by an interval that contains 0: {self!r}")
        return Iv.hull([1 / self.hi, 1 / self.lo])

    def __truediv__(self, other: "Iv") -> "Iv":
        return self * other.inverse()

    def power_int(self, n: int) -> "Iv":
        if n == 0:
            return Iv.of(1)
        if n < 0:
            return self.inverse().power_int(-n)
        a, b = self.lo ** n, self.hi ** n
        if self.lo >= 0:
            if not (a.is_finite() and b.is_finite()):
                raise IntervalError("a value is not finite on the box")
            return Iv(a.lower(), b.upper())
        if n % 2 == 1:
            return Iv.hull([a, b])
        if self.hi <= 0:
            return Iv.hull([a, b])
        top = a.upper() if a.upper() > b.upper() else b.upper()
        return Iv(arb(0), top)  # an even power of an interval around 0

    def log(self) -> "Iv":
        if not self.lo > 0:
            raise IntervalError(f"log of an interval that reaches 0 or below: {self!r}")
        return Iv(self.lo.log().lower(), self.hi.log().upper())

    def exp(self) -> "Iv":
        return Iv(self.lo.exp().lower(), self.hi.exp().upper())

    def sqrt(self) -> "Iv":
        if self.lo < 0:
            raise IntervalError(f"square root of an interval that reaches below 0: {self!r}")
        return Iv(self.lo.sqrt().lower(), self.hi.sqrt().upper())

    def power(self, e: "Iv") -> "Iv":
        """``self**e`` for a real exponent interval (the base must be positive unless ``e`` is an integer)."""
        if e.is_point():
            f = to_fraction(e.lo)
            if f.denominator == 1:
                return self.power_int(f.numerator)
            if f.denominator == 2 and self.lo >= 0:
                return self.sqrt().power_int(f.numerator)
        if not self.lo > 0:
            if self.lo == 0 and e.lo > 0:  # 0**e = 0 for e > 0: extend by continuity
                if self.hi == 0:
                    return Iv(arb(0), arb(0))
                upper = Iv(self.hi, self.hi).power(e)
                return Iv(arb(0), upper.hi)
            raise IntervalError(f"a fractional power of an interval that reaches 0 or below: {self!r}")
        return Iv.hull([x ** y for x in (self.lo, self.hi) for y in (e.lo, e.hi)])

    def abs(self) -> "Iv":
        if self.lo >= 0:
            return self
        if self.hi <= 0:
            return -self
        return Iv(arb(0), -self.lo if -self.lo > self.hi else self.hi)

    def sign(self) -> "Iv":
        if self.lo > 0:
            return Iv.of(1)
        if self.hi < 0:
            return Iv.of(-1)
        return Iv.of(-1, 1)


def to_fraction(x: arb) -> Fraction:
    """An exact arb as a Fraction."""
    man, exp = x.man_exp()
    man, exp = int(man), int(exp)
    return Fraction(man * 2**exp) if exp >= 0 else Fraction(man, 2**-exp)


def _short(f: Fraction) -> str:
    if f.denominator == 1 and abs(f.numerator) < 10**12:
        return str(f.numerator)
    return f"{float(f):.6g}"


def _pick(values, smaller: bool):
    best = None
    for v in values:
        if best is None or (v < best if smaller else v > best):
            best = v
    return best


def _min(ivs):
    return Iv(_pick((v.lo for v in ivs), True), _pick((v.hi for v in ivs), True))


def _max(ivs):
    return Iv(_pick((v.lo for v in ivs), False), _pick((v.hi for v in ivs), False))


# --------------------------------------------------------------------------- compilation


def compile_expr(expr, variables: list, bits: int = PRECISION):
    """A function ``f(values) -> Iv`` of the intervals of ``variables`` (in
    order); printed constants not among ``variables`` take their own interval.
    Every operation runs at ``bits`` bits.  Raises :class:`IntervalError` for a
    construct it cannot bound (the caller then falls back to other methods)."""
    with working_precision(bits):
        return _compile_expr(expr, variables, bits)


def _compile_expr(expr, variables: list, bits: int):
    index = {v: i for i, v in enumerate(variables)}
    expr = sp.sympify(expr)
    try:  # common subexpressions are bounded once (the same interval serves every occurrence)
        replacements, (reduced,) = sp.cse(expr, symbols=sp.numbered_symbols("_cse", cls=sp.Dummy))
    except (TypeError, ValueError, RecursionError):
        replacements, reduced = [], expr
    steps = []
    for sym, sub in replacements:
        steps.append(_compile(sub, index))
        index[sym] = len(index)
    fn = _compile(reduced, index)
    n = len(variables)

    def run(values):
        with working_precision(bits):
            vals = list(values[:n])
            for step in steps:
                vals.append(step(vals))
            return fn(vals)

    return run


def _const(iv: Iv):
    return lambda vals: iv


def _compile(e, index):  # noqa: C901 - one case per SymPy node type
    if e in index:
        i = index[e]
        return lambda vals: vals[i]
    if isinstance(e, Printed):
        iv = Iv.of(e.lo, e.hi)
        return _const(iv)
    if e.is_Symbol:
        raise IntervalError(f"no interval for the symbol {e}")
    if e is sp.E:  # constants at the precision compile_expr set
        return _const(Iv.ball(arb.const_e()))
    if e is sp.pi:
        return _const(Iv.ball(arb.pi()))
    if e.is_Rational:
        return _const(Iv.of(e))
    if e.is_Float:
        return _const(Iv.of(sp.Rational(e)))
    if e.is_Add:
        parts = [_compile(a, index) for a in e.args]

        def add(vals):
            out = parts[0](vals)
            for p in parts[1:]:
                out = out + p(vals)
            return out
        return add
    if e.is_Mul:
        parts = [_compile(a, index) for a in e.args]

        def mul(vals):
            out = parts[0](vals)
            for p in parts[1:]:
                out = out * p(vals)
            return out
        return mul
    if e.is_Pow:
        base = _compile(e.base, index)
        if e.exp.is_Integer:
            n = int(e.exp)
            return lambda vals: base(vals).power_int(n)
        if e.exp == sp.Rational(1, 2):
            return lambda vals: base(vals).sqrt()
        ex = _compile(e.exp, index)
        return lambda vals: base(vals).power(ex(vals))
    if isinstance(e, sp.exp):
        a = _compile(e.args[0], index)
        return lambda vals: a(vals).exp()
    if isinstance(e, sp.log):
        a = _compile(e.args[0], index)
        return lambda vals: a(vals).log()
    if isinstance(e, sp.Abs):
        a = _compile(e.args[0], index)
        return lambda vals: a(vals).abs()
    if isinstance(e, sp.sign):
        a = _compile(e.args[0], index)
        return lambda vals: a(vals).sign()
    if isinstance(e, (sp.Min, sp.Max)):
        parts = [_compile(a, index) for a in e.args]
        pick = _min if isinstance(e, sp.Min) else _max
        return lambda vals: pick([p(vals) for p in parts])
    if isinstance(e, (sp.factorial, sp.binomial)):
        return _compile_integer_function(e, index)
    raise IntervalError(f"interval arithmetic does not cover `{type(e).__name__}`")


def _compile_integer_function(e, index):
    """factorial and binomial at integer points only (a box of integers would need enumeration)."""
    args = [_compile(a, index) for a in e.args]

    def run(vals):
        ints = []
        for a in args:
            v = a(vals)
            if not v.is_point():
                raise IntervalError(f"`{type(e).__name__}` of an interval that is not one integer")
            f = to_fraction(v.lo)
            if f.denominator != 1 or f < 0 or f > 4096:
                raise IntervalError(f"`{type(e).__name__}` of {f}: not an integer in [0, 4096]")
            ints.append(f.numerator)
        value = math.factorial(ints[0]) if len(ints) == 1 else math.comb(ints[0], ints[1])
        return Iv.of(value)
    return run


# --------------------------------------------------------------------------- proved signs of numbers

SIGN_BITS = (128, 512, 2048, 8192)  # the precisions tried in turn


def sign_of(expr, *, zero_seconds: float = 5.0) -> int | None:
    """The sign (-1, 0 or 1) of a closed real expression, proved; None when it
    cannot be proved.

    Interval arithmetic at 128, 512, 2048 and 8192 bits: a sign is reported
    only when the outward-rounded enclosure lies on one side of 0 (or is the
    point 0).  An enclosure that keeps containing 0 is 0 only if SymPy proves
    the expression zero; otherwise the sign is unknown (never guessed from a
    rounded value).  An expression that is undefined, or uses a function the
    interval arithmetic does not cover, has no proved sign.  Exact printed
    numbers (a :class:`~pysym.audit.printed.Printed` point) enter as their own
    enclosures, so SymPy never expands them (``(1/3)**(2383/10000)``).

    >>> sign_of(1 + sp.exp(-100) - 1), sign_of(sp.Integer(1) - (1 + sp.exp(-200))), sign_of(sp.log(4) - 2*sp.log(2))
    (1, -1, 0)
    """
    expr = sp.sympify(expr)
    if any(not (isinstance(x, Printed) and x.exact) for x in expr.free_symbols):
        return None  # a variable, or a printed number that stands for an interval: no one sign to prove
    if expr.is_zero is True:
        return 0
    for bits in SIGN_BITS:
        try:
            iv = compile_expr(expr, [], bits)([])
        except (IntervalError, ZeroDivisionError, ValueError, TypeError, OverflowError):
            return None
        if iv.lo > 0:
            return 1
        if iv.hi < 0:
            return -1
        if iv.lo == 0 and iv.hi == 0:
            return 0
    from pysym.audit.budget import CPUTimeout, cpu_limit
    from pysym.derive import prove

    from pysym.audit.printed import exact_values

    try:
        with cpu_limit(zero_seconds):
            if prove.prove_zero(exact_values(expr)).ok:
                return 0
    except (CPUTimeout, ValueError, OverflowError):
        pass
    return None
