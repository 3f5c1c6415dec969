"""High-precision numeric spot-checks with mpmath.

Every derivation step is evaluated at many points of its domain with 50
significant digits.  Points come from a seeded generator, so checks (and the
reports quoting them) are deterministic.  A symbol's range may depend on
symbols listed before it (``k`` in ``[1, T]``); ranges over several decades
are sampled log-uniformly.

>>> import sympy as sp
>>> T, k = sp.symbols("T k", positive=True, integer=True)
>>> dom = Domain([Range(T, 2, 10**6), Range(k, 1, T)])
>>> check(sp.binomial(T, k) <= T**k, dom).ok
True
>>> bad = check(sp.binomial(T, k) <= k**T, dom)
>>> bad.ok, bad.counterexample is not None
(False, True)

Only definite truth values pass: a relation that SymPy already evaluated to
``False`` fails, and so does anything that is not a relation or an expression
claimed to be zero (``Ne``, ``And``, ...):

>>> check(sp.StrictGreaterThan(-6, 0), dom).ok
False
>>> check(sp.Ne(T, k), dom).detail
'`Ne(T, k)` is not a relation the spot-check can evaluate (use Eq, <=, <, >= or >)'

A point where a relation fails by less than the 50-digit tolerance is
evaluated again at twice the precision, so a tiny but real violation is not
mistaken for rounding noise:

>>> x = sp.Symbol("x", positive=True)
>>> check(sp.Eq(x + sp.Rational(1, 10**45), x), Domain([Range(x, 1, 2)])).ok
False

A symbol whose range is not finite (a quantity with no numeric model) cannot
be sampled; :meth:`Domain.unbounded` names such symbols and
:meth:`Domain.restricted` keeps the ranges a relation needs:

>>> G = sp.Symbol("G", real=True)
>>> dom2 = Domain([Range(T, 2, 10), Range(G, -sp.oo, sp.oo)])
>>> dom2.unbounded({G}), dom2.restricted({T}).symbols()
([G], [T])
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import mpmath
import sympy as sp

from pysym.numerics import compiled

__all__ = ["Range", "Domain", "NumericCheck", "check", "compile_relation", "evaluate", "DIGITS", "POINTS",
           "CHECKABLE"]

DIGITS = 50
POINTS = 120
SEED = 20261121


@dataclass(frozen=True)
class Range:
    """Sampling range of one symbol; bounds may be expressions in earlier symbols."""

    symbol: sp.Symbol
    low: object
    high: object

    @property
    def integer(self) -> bool:
        return bool(self.symbol.is_integer)


@dataclass
class Domain:
    ranges: list[Range]
    constraints: list = field(default_factory=list)  # extra relations points must satisfy

    def symbols(self) -> list[sp.Symbol]:
        return [r.symbol for r in self.ranges]

    def unbounded(self, symbols) -> list[sp.Symbol]:
        """Those of ``symbols`` (and of the symbols their ranges depend on)
        whose range is not finite: they cannot be sampled."""
        out = []
        for r in self.restricted(symbols).ranges:
            if any(not _finite_bound(b) for b in (r.low, r.high)):
                out.append(r.symbol)
        return out

    def restricted(self, symbols) -> "Domain":
        """The ranges of ``symbols``, of the symbols their ranges depend on, and
        of every symbol a constraint ties to them (with those constraints)."""
        need = set(symbols)
        constraints: list = []
        while True:
            before = len(need), len(constraints)
            for r in self.ranges:
                if r.symbol in need:
                    need |= sp.sympify(r.low).free_symbols | sp.sympify(r.high).free_symbols
            constraints = [c for c in self.constraints if c.free_symbols & need]
            for c in constraints:
                need |= c.free_symbols
            if (len(need), len(constraints)) == before:
                break
        return Domain([r for r in self.ranges if r.symbol in need], constraints)

    def sample(self, n: int = POINTS, seed: int = SEED) -> list[dict]:
        """``n`` points as ``{symbol: mpf}`` (integers for integer symbols)."""
        rng = random.Random(seed)
        syms = self.symbols()
        constraints = [compile_relation(c, syms) for c in self.constraints]
        points: list[dict] = []
        tries = 0
        with mpmath.workdps(DIGITS):
            draws = [_Draw(r, syms) for r in self.ranges]
            while len(points) < n and tries < 50 * n:
                tries += 1
                values: list = []
                for draw in draws:
                    value = draw(rng, values, corner=tries <= 8)
                    if value is None:
                        break
                    values.append(value)
                else:
                    if all(c(*values) for c in constraints):
                        points.append(dict(zip(syms, values)))
        return points


class _Draw:
    """Draws one symbol's value: boundary values first (corner cases), then
    log-uniform draws over ranges of more than a factor 50 above zero (and over
    the 15 decades below the upper end of a range [0, H] with H > 50), else
    uniform ones; integers rounded into the range.  A range whose bounds are
    constants has them (and their logarithms) computed once; the values are
    the same as computing them afresh at every draw, since the arithmetic is."""

    def __init__(self, r: Range, syms: list):
        self.integer = r.integer
        self.width = len(syms)
        self.constant = not (sp.sympify(r.low).free_symbols or sp.sympify(r.high).free_symbols)
        self.low_f, self.high_f = _compile(r.low, syms), _compile(r.high, syms)
        if self.constant:
            self.plan = self._plan(*self._bounds([]))

    def _bounds(self, values: list):
        args = values + [mpmath.mpf(0)] * (self.width - len(values))
        lo, hi = mpmath.mpf(self.low_f(*args)), mpmath.mpf(self.high_f(*args))
        if self.integer:
            lo, hi = mpmath.ceil(lo), mpmath.floor(hi)
        return lo, hi

    @staticmethod
    def _plan(lo, hi):
        if hi < lo:
            return None
        if lo > 0 and hi / lo > 50:
            log_lo = mpmath.log(lo)
            return lo, hi, True, log_lo, mpmath.log(hi) - log_lo
        if lo == 0 and hi > 50:
            # [0, 10**6] drawn uniformly almost never gives a value below 1 (x <= x**2 passed every check): the
            # scales down to 10**-15 of the upper end, log-uniformly (0 itself is a corner)
            log_lo = mpmath.log(hi) - 15 * mpmath.log(10)
            return lo, hi, True, log_lo, mpmath.log(hi) - log_lo
        return lo, hi, False, lo, hi - lo

    def __call__(self, rng: random.Random, values: list, corner: bool):
        plan = self.plan if self.constant else self._plan(*self._bounds(values))
        if plan is None:
            return None
        lo, hi, logarithmic, start, span = plan
        if corner:
            pick = rng.choice([lo, hi])
        elif logarithmic:
            pick = mpmath.exp(start + span * mpmath.mpf(rng.random()))
        else:
            pick = start + span * mpmath.mpf(rng.random())
        if self.integer:
            return min(max(mpmath.nint(pick), lo), hi)
        return pick


def _compile(expr, syms):
    return compiled(syms, sp.sympify(expr), "mpmath")


_OPS = {"<=": lambda a, b: a <= b, "<": lambda a, b: a < b, ">=": lambda a, b: a >= b,
        ">": lambda a, b: a > b, "==": lambda a, b: a == b}

CHECKABLE = (sp.Equality, sp.LessThan, sp.StrictLessThan, sp.GreaterThan, sp.StrictGreaterThan)


def _finite_bound(b) -> bool:
    b = sp.sympify(b)
    return not b.has(sp.oo, -sp.oo, sp.zoo, sp.nan)


def compile_relation(rel, syms):
    """A function of the values of ``syms`` returning whether ``rel`` holds
    (``True``/``False`` constants give constant functions; other Boolean
    forms are refused with ``ValueError``)."""
    rel = sp.sympify(rel)
    if rel is sp.true or rel is sp.false:
        value = rel is sp.true
        return lambda *v: value
    if not isinstance(rel, CHECKABLE):
        raise ValueError(f"`{sp.sstr(rel)}` is not a relation that can be evaluated (use Eq, <=, <, >= or >)")
    lhs = _compile(rel.lhs, syms)
    rhs = _compile(rel.rhs, syms)
    op = _OPS[rel.rel_op]
    return lambda *v: bool(op(lhs(*v), rhs(*v)))


def evaluate(expr: sp.Expr, point: dict) -> mpmath.mpf:
    """``expr`` at ``point`` with :data:`DIGITS` digits."""
    syms = list(point)
    with mpmath.workdps(DIGITS):
        value = _compile(expr, syms)(*point.values())
        return _real(value, expr)


def _real(value, expr, digits: int = DIGITS):
    value = mpmath.mpmathify(value)
    if isinstance(value, mpmath.mpc):
        if abs(value.imag) > mpmath.mpf(10) ** (-digits + 5) * (1 + abs(value.real)):
            raise ValueError(f"{sp.sstr(expr)} is not real there")
        value = value.real
    if not mpmath.isfinite(value):
        raise ValueError(f"{sp.sstr(expr)} is not finite there")
    return value


@dataclass
class NumericCheck:
    ok: bool
    points: int
    worst_slack: float | None = None  # min over points of (rhs - lhs), relative
    max_error: float | None = None  # for identities: max |lhs - rhs| relative
    counterexample: dict | None = None
    detail: str = ""
    ties: int = 0  # points where the two sides of evidence agree to 190 digits (a violation that small would hide)

    def describe(self) -> str:
        if not self.ok:
            return self.detail
        if self.max_error is not None:
            return f"{self.points} points, {DIGITS} digits: max relative error {self.max_error:.1e}"
        tied = f" (at {self.ties} of them the two sides agree to {4 * DIGITS - 10} digits)" if self.ties else ""
        return f"{self.points} points, {DIGITS} digits: holds at every point{tied}"


def check(relation, domain: Domain, n: int = POINTS, seed: int = SEED, *, evidence: bool = False) -> NumericCheck:
    """Evaluate ``relation`` (Eq, <=, <, >=, >, or an expression claimed to be
    0) at ``n`` sampled points; the first failing point is the counterexample.

    Only definite truth values pass: SymPy's ``False`` fails, ``True`` passes,
    any other Boolean (``Ne``, ``And``, ...) fails as not checkable.  Where a
    point fails by less than the tolerance, it is re-evaluated at twice the
    precision and fails if the violation persists.

    With ``evidence`` (the check is all a step rests on), an inequality must
    hold with a margin at every point: where the two sides are not apart at
    50 digits they must be apart at twice the precision, else they are
    compared at four times the precision, where a violation fails and a tie
    is counted and reported (``x 10^100 + 1 <= x 10^100`` agrees to 100
    digits and fails at 200):

    >>> x = sp.Symbol("x", positive=True)
    >>> big = x * sp.Integer(10) ** 100
    >>> false = sp.Le(big + 1, big, evaluate=False)
    >>> check(false, Domain([Range(x, 1, 2)])).ok  # a spot-check: within its tolerance
    True
    >>> check(false, Domain([Range(x, 1, 2)]), evidence=True).detail
    'at x = 1: ...: `<=` fails by a relative 5.0e-101 (seen at 200 digits)'
    >>> check(sp.Le(x, sp.exp(x - 1)), Domain([Range(x, 1, 2)]), evidence=True).describe()
    '120 points, 50 digits: holds at every point (at 5 of them the two sides agree to 190 digits)'
    """
    relation = sp.sympify(relation)
    if relation is sp.false:
        return NumericCheck(False, 0, detail="the relation evaluates to False")
    if relation is sp.true:
        return NumericCheck(True, 0, detail="the relation evaluates to True")
    is_rel = isinstance(relation, CHECKABLE)
    if not is_rel and isinstance(relation, sp.logic.boolalg.Boolean):
        return NumericCheck(False, 0, detail=f"`{sp.sstr(relation)}` is not a relation the spot-check can evaluate "
                                             "(use Eq, <=, <, >= or >)")
    if not is_rel and not isinstance(relation, sp.Expr):
        return NumericCheck(False, 0, detail=f"`{relation!r}` is not a relation the spot-check can evaluate")
    unbounded = domain.unbounded(relation.free_symbols)
    if unbounded:
        have = "has" if len(unbounded) == 1 else "have"
        return NumericCheck(False, 0, detail=f"{', '.join(map(str, unbounded))} {have} no finite range to sample")
    points = domain.sample(n, seed)
    if not points:
        return NumericCheck(False, 0, detail="no point of the domain could be sampled")
    syms = domain.symbols()
    identity = not is_rel or isinstance(relation, sp.Equality)
    if is_rel:
        lhs_e, rhs_e, op = relation.lhs, relation.rhs, relation.rel_op
    else:
        lhs_e, rhs_e, op = relation, sp.Integer(0), "=="
    missing = (lhs_e.free_symbols | rhs_e.free_symbols) - set(syms)
    if missing:
        return NumericCheck(False, 0, detail=f"symbols without a sampling range: {sorted(map(str, missing))}")
    lhs_f, rhs_f = _compile(lhs_e, syms), _compile(rhs_e, syms)
    worst_err = mpmath.mpf(0)

    def measure(point, digits):
        """(a, b, error or slack) at ``point`` with ``digits`` digits."""
        with mpmath.workdps(digits):
            args = [mpmath.mpf(v) for v in point.values()]
            a, b = _real(lhs_f(*args), lhs_e, digits), _real(rhs_f(*args), rhs_e, digits)
            if identity:
                return a, b, abs(a - b) / (1 + abs(a) + abs(b))
            small, big = (a, b) if op in ("<=", "<") else (b, a)
            rel_scale = abs(a) + abs(b)
            return a, b, (big - small) / (rel_scale if rel_scale > 0 else 1)

    tol = mpmath.mpf(10) ** (-(DIGITS - 10))
    fine = mpmath.mpf(10) ** (-(2 * DIGITS - 10))
    ultra = mpmath.mpf(10) ** (-(4 * DIGITS - 10))
    ties = 0
    for point in points:
        try:
            a, b, m = measure(point, DIGITS)
            if (identity and m > 0) or (not identity and m <= 0):
                # within the tolerance but not clearly satisfied: look again at twice the precision
                a2, b2, m2 = measure(point, 2 * DIGITS)
            else:
                m2 = None
        except (ValueError, TypeError, ZeroDivisionError) as exc:
            return _fail(points, point, f"evaluation failed: {exc}")
        with mpmath.workdps(DIGITS):
            if identity:
                worst_err = max(worst_err, m)
                if m > tol or (m2 is not None and m2 > fine):
                    return _fail(points, point, f"{sp.sstr(lhs_e)} = {mpmath.nstr(a, 15)} but "
                                                f"{sp.sstr(rhs_e)} = {mpmath.nstr(b, 15)}"
                                 + ("" if m > tol else f" (they differ by a relative {mpmath.nstr(m2, 3)} "
                                                       f"at {2 * DIGITS} digits)"))
                continue
            ok = m > tol if op in ("<", ">") else m >= -tol
            if ok and m2 is not None and (m2 < -fine or (op in ("<", ">") and m2 <= 0)):
                ok = False
            if ok and evidence and m2 is not None and m2 <= fine:
                # the sides agree to 90 digits: look at four times the precision; a tie there is reported
                try:
                    m4 = measure(point, 4 * DIGITS)[2]
                except (ValueError, TypeError, ZeroDivisionError) as exc:
                    return _fail(points, point, f"evaluation failed: {exc}")
                if m4 < -ultra or (op in ("<", ">") and m4 <= ultra):
                    return _fail(points, point, f"{sp.sstr(lhs_e)} = {mpmath.nstr(a, 15)}, "
                                                f"{sp.sstr(rhs_e)} = {mpmath.nstr(b, 15)}: `{op}` fails by a relative "
                                                f"{mpmath.nstr(abs(m4), 3)} (seen at {4 * DIGITS} digits)")
                ties += m4 <= ultra
            if not ok:
                return _fail(points, point, f"{sp.sstr(lhs_e)} = {mpmath.nstr(a, 15)}, "
                                            f"{sp.sstr(rhs_e)} = {mpmath.nstr(b, 15)}: `{op}` fails")
    if identity:
        return NumericCheck(True, len(points), max_error=float(worst_err))
    return NumericCheck(True, len(points), ties=ties)


def _fail(points, point, detail) -> NumericCheck:
    shown = {str(k): _short(v) for k, v in point.items()}
    where = ", ".join(f"{k} = {v}" for k, v in shown.items())
    return NumericCheck(False, len(points), counterexample=shown, detail=f"at {where}: {detail}")


def _short(v) -> str:
    v = mpmath.mpf(v)
    return str(int(v)) if v == mpmath.floor(v) and abs(v) < 10**15 else mpmath.nstr(v, 12)
