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
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import mpmath
import sympy as sp

__all__ = ["Range", "Domain", "NumericCheck", "check", "compile_relation", "evaluate", "DIGITS", "POINTS"]

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

    def sample(self, n: int = POINTS, seed: int = SEED) -> list[dict]:
        """``n`` points as ``{symbol: mpf}`` (integers for integer symbols)."""
        rng = random.Random(seed)
        syms = self.symbols()
        bounds = [(_compile(r.low, syms), _compile(r.high, syms)) for r in self.ranges]
        constraints = [compile_relation(c, syms) for c in self.constraints]
        points: list[dict] = []
        tries = 0
        with mpmath.workdps(DIGITS):
            while len(points) < n and tries < 50 * n:
                tries += 1
                values: list = []
                for r, (lo_f, hi_f) in zip(self.ranges, bounds):
                    args = values + [mpmath.mpf(0)] * (len(syms) - len(values))
                    lo, hi = mpmath.mpf(lo_f(*args)), mpmath.mpf(hi_f(*args))
                    if r.integer:
                        lo, hi = mpmath.ceil(lo), mpmath.floor(hi)
                    if hi < lo:
                        break
                    values.append(_draw(rng, lo, hi, r.integer, corner=tries <= 8))
                else:
                    if all(c(*values) for c in constraints):
                        points.append(dict(zip(syms, values)))
        return points


def _compile(expr, syms):
    return sp.lambdify(syms, sp.sympify(expr), modules="mpmath")


def compile_relation(rel, syms):
    lhs = _compile(rel.lhs, syms)
    rhs = _compile(rel.rhs, syms)
    op = rel.rel_op
    ops = {"<=": lambda a, b: a <= b, "<": lambda a, b: a < b, ">=": lambda a, b: a >= b,
           ">": lambda a, b: a > b, "==": lambda a, b: a == b}
    return lambda *v: ops[op](lhs(*v), rhs(*v))


def _draw(rng: random.Random, lo, hi, integer: bool, corner: bool):
    """Boundary values first (corner cases), then log-uniform or uniform draws."""
    if corner:
        pick = rng.choice([lo, hi])
    elif lo > 0 and hi / lo > 50:
        pick = mpmath.exp(mpmath.log(lo) + (mpmath.log(hi) - mpmath.log(lo)) * mpmath.mpf(rng.random()))
    else:
        pick = lo + (hi - lo) * mpmath.mpf(rng.random())
    if integer:
        return min(max(mpmath.nint(pick), lo), hi)
    return pick


def evaluate(expr: sp.Expr, point: dict) -> mpmath.mpf:
    """``expr`` at ``point`` with :data:`DIGITS` digits."""
    syms = list(point)
    with mpmath.workdps(DIGITS):
        value = _compile(expr, syms)(*point.values())
        return _real(value, expr)


def _real(value, expr):
    value = mpmath.mpmathify(value)
    if isinstance(value, mpmath.mpc):
        if abs(value.imag) > mpmath.mpf(10) ** (-DIGITS + 5) * (1 + abs(value.real)):
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

    def describe(self) -> str:
        if not self.ok:
            return self.detail
        if self.max_error is not None:
            return f"{self.points} points, {DIGITS} digits: max relative error {self.max_error:.1e}"
        return f"{self.points} points, {DIGITS} digits: holds at every point"


def check(relation, domain: Domain, n: int = POINTS, seed: int = SEED) -> NumericCheck:
    """Evaluate ``relation`` (Eq, <=, <, >=, >, or an expression claimed to be
    0) at ``n`` sampled points; the first failing point is the counterexample."""
    relation = sp.sympify(relation)
    points = domain.sample(n, seed)
    if not points:
        return NumericCheck(False, 0, detail="no point of the domain could be sampled")
    syms = domain.symbols()
    is_rel = isinstance(relation, sp.core.relational.Relational)
    identity = not is_rel or isinstance(relation, sp.Equality)
    if is_rel:
        lhs_e, rhs_e, op = relation.lhs, relation.rhs, relation.rel_op
    else:
        lhs_e, rhs_e, op = relation, sp.Integer(0), "=="
    missing = (lhs_e.free_symbols | rhs_e.free_symbols) - set(syms)
    if missing:
        return NumericCheck(False, 0, detail=f"symbols without a sampling range: {sorted(map(str, missing))}")
    lhs_f, rhs_f = _compile(lhs_e, syms), _compile(rhs_e, syms)
    tol = mpmath.mpf(10) ** (-(DIGITS - 10))
    worst_err = mpmath.mpf(0)
    with mpmath.workdps(DIGITS):
        for point in points:
            args = list(point.values())
            try:
                a, b = _real(lhs_f(*args), lhs_e), _real(rhs_f(*args), rhs_e)
            except (ValueError, TypeError, ZeroDivisionError) as exc:
                return _fail(points, point, f"evaluation failed: {exc}")
            scale = 1 + abs(a) + abs(b)
            if identity:
                err = abs(a - b) / scale
                worst_err = max(worst_err, err)
                if err > tol:
                    return _fail(points, point, f"{sp.sstr(lhs_e)} = {mpmath.nstr(a, 15)} but "
                                                f"{sp.sstr(rhs_e)} = {mpmath.nstr(b, 15)}")
                continue
            small, big = (a, b) if op in ("<=", "<") else (b, a)
            rel_scale = abs(a) + abs(b)
            slack = (big - small) / (rel_scale if rel_scale > 0 else 1)
            ok = slack > tol if op in ("<", ">") else slack >= -tol
            if not ok:
                return _fail(points, point, f"{sp.sstr(lhs_e)} = {mpmath.nstr(a, 15)}, "
                                            f"{sp.sstr(rhs_e)} = {mpmath.nstr(b, 15)}: `{op}` fails")
    if identity:
        return NumericCheck(True, len(points), max_error=float(worst_err))
    return NumericCheck(True, len(points))


def _fail(points, point, detail) -> NumericCheck:
    shown = {str(k): _short(v) for k, v in point.items()}
    where = ", ".join(f"{k} = {v}" for k, v in shown.items())
    return NumericCheck(False, len(points), counterexample=shown, detail=f"at {where}: {detail}")


def _short(v) -> str:
    v = mpmath.mpf(v)
    return str(int(v)) if v == mpmath.floor(v) and abs(v) < 10**15 else mpmath.nstr(v, 12)
