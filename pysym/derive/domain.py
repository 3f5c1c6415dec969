"""The domain of a derivation: symbols with ranges, named assumptions, and the
facts a step may use (:class:`Scope`).

A :class:`Var` is a symbol with the range its claims are made on.  A bound is a
number, a SymPy expression in symbols declared earlier, a string naming them,
or ``None`` (unbounded).  The symbol's SymPy assumptions come from what the
:class:`Var` itself can see: a lower bound that is a positive number (or a
SymPy expression SymPy knows to be positive) makes it positive.  A string is
parsed, never guessed from: ``"T"`` says nothing about the sign, ``"-5"`` is
negative.

>>> import sympy as sp
>>> Var("k", 1, "T").symbol.is_positive
True
>>> Var("x", "-5", 10).symbol.is_positive, Var("y", "T", 10).symbol.is_positive
(None, None)
>>> Var("G", None, None).low
-oo

A :class:`Scope` is what one step may assume: the ranges (on the step's
sub-range, see :meth:`pysym.derive.steps.Step.on`), the derivation's checked
restrictions, and nothing about a symbol that names a Lean term (see
:class:`pysym.derive.premises.Premise`): such a name is an arbitrary real in
every proof.  Its provers apply all that:

>>> from pysym.derive.derivation import Derivation
>>> T, k = Var("T", 10, 100, integer=True), Var("k", 1, "T", integer=True)
>>> d = Derivation("demo", "a demo", vars=[T, k])
>>> d.scope().prove_nonnegative(T.symbol - k.symbol).ok
True
>>> d.scope({"k": (1, 5)}).range(k.symbol)
(1, 5)

A sub-range must lie inside the declared range; a step that uses another must
be on (a part of) that step's sub-range:

>>> d.scope({"k": (0, 5)})
Traceback (most recent call last):
...
pysym.derive.domain.ScopeError: the sub-range of k, [0, 5], is not inside its range [1, T]
>>> d.scope({"k": (2, 3)}).within({"k": (1, 5)}), d.scope().within({"k": (1, 5)})
(None, 'k is restricted to [1, 5] there')
>>> d.scope({"k": (1, 20)})
Traceback (most recent call last):
...
pysym.derive.domain.ScopeError: the sub-range of k, [1, 20], is not inside its range [1, T]
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field

import sympy as sp

from pysym.derive import numeric, prove

__all__ = ["Var", "Assumption", "Scope", "ScopeError", "parse_bound", "finite", "SMOOTH_FUNCTIONS"]

# functions that are smooth wherever their argument is real
SMOOTH_FUNCTIONS = (sp.exp, sp.sin, sp.cos, sp.atan, sp.sinh, sp.cosh, sp.tanh)

_IDENT = re.compile(r"\b[A-Za-z_][A-Za-z_0-9]*\b(?!\s*\()")


class ScopeError(ValueError):
    """A sub-range or bound that cannot be used (unknown symbol, outside the range, ...)."""


def finite(bound) -> bool:
    """True if ``bound`` (a SymPy expression) is not infinite or undefined."""
    return not sp.sympify(bound).has(sp.oo, -sp.oo, sp.zoo, sp.nan)


def parse_bound(bound, symbols: dict[str, sp.Symbol] | None = None):
    """A bound as SymPy.  Strings are parsed with every identifier a symbol:
    the one of that name in ``symbols`` if given, else a plain symbol (with no
    assumptions); ``None`` is unbounded (``oo``; the caller negates it for a
    lower bound)."""
    if bound is None:
        return sp.oo
    if isinstance(bound, str):
        local = {}
        for m in _IDENT.finditer(bound):
            name = m.group(0)
            local[name] = (symbols or {}).get(name, sp.Symbol(name))
        try:
            return sp.sympify(bound, locals=local)
        except (sp.SympifyError, SyntaxError, TypeError) as exc:
            raise ScopeError(f"cannot read the bound `{bound}`: {exc}") from None
    expr = sp.sympify(bound)
    if symbols:
        expr = expr.subs({sp.Symbol(n): s for n, s in symbols.items() if sp.Symbol(n) != s})
    return expr


@functools.lru_cache(maxsize=1024)
def lower_sign(low) -> str | None:
    """``"positive"``, ``"nonnegative"`` or None: what a lower bound proves of the symbol it bounds, by the
    provers' own sign rules (:func:`pysym.derive.prove._sign`), not by SymPy's assumptions, which are wrong for
    some expressions (SymPy 1.14: ``1/(k + s) - 1`` is nonnegative for integers k >= 1, s >= 0: a symbol
    bounded below by it would be taken for nonnegative, and ``y >= 0`` proved for y = -1/2)."""
    if prove._sign(low, True):
        return "positive"
    if prove._sign(low, False):
        return "nonnegative"
    return None


@dataclass(frozen=True)
class Var:
    """A symbol with its kind, the range its claims are made on, and a description.

    ``low``/``high`` may be numbers, expressions or strings in symbols declared
    earlier, or ``None`` (unbounded: stored as ``-oo``/``oo``).  ``integer``
    and ``rational`` set the kind (default: real)."""

    name: str
    low: object
    high: object
    description: str = ""
    integer: bool = False
    latex: str | None = None
    rational: bool = False

    def __post_init__(self):
        if self.low is None:
            object.__setattr__(self, "low", -sp.oo)
        if self.high is None:
            object.__setattr__(self, "high", sp.oo)

    @property
    def symbol(self) -> sp.Symbol:
        kw = {"integer": True} if self.integer else ({"rational": True} if self.rational else {"real": True})
        low = parse_bound(self.low)
        if finite(low):
            sign = lower_sign(low)
            if sign:
                kw[sign] = True
        return sp.Symbol(self.name, **kw)

    @property
    def kind(self) -> str:
        return "integer" if self.integer else ("rational" if self.rational else "real")


@dataclass(frozen=True)
class Assumption:
    """A named assumption, stated in the document; steps that rest on it say so."""

    name: str
    text: str


# --------------------------------------------------------------------------- scope


@dataclass
class Scope:
    """What a step may assume: every symbol in its range (on the step's
    sub-range), the derivation's restrictions, nothing about term names.

    Build it with :meth:`pysym.derive.derivation.Derivation.scope`."""

    vars: list  # [(Var, symbol, low, high)] in declaration order, effective bounds
    where: dict = field(default_factory=dict)  # {symbol: (low, high)}: the sub-range
    relations: list = field(default_factory=list)  # restrictions (relations) taken as facts
    names: dict = field(default_factory=dict)  # {symbol of a term name: a plain real symbol of its name}

    # ---- ranges

    def range(self, symbol) -> tuple:
        for _, s, lo, hi in self.vars:
            if s == symbol:
                return lo, hi
        raise KeyError(symbol)

    def symbols(self) -> list[sp.Symbol]:
        return [s for _, s, _, _ in self.vars]

    def within(self, region: dict | None) -> str | None:
        """``None`` if this scope lies inside ``region`` (``{name: (lo, hi)}``,
        resolved), else why not."""
        for name, (lo, hi) in (region or {}).items():
            sym = next(s for v, s, _, _ in self.vars if v.name == name)
            my_lo, my_hi = self.range(sym)
            if not (self.prove_nonnegative(my_lo - lo).ok and self.prove_nonnegative(hi - my_hi).ok):
                return f"{name} is restricted to [{sp.sstr(lo)}, {sp.sstr(hi)}] there"
        return None

    # ---- facts for the provers

    @property
    def order(self) -> list:
        """Pairs ``(a, b)`` meaning ``a <= b`` for the sign prover: symbolic upper
        bounds first (latest symbol first), then the sub-range's lower bounds,
        the restrictions, numeric upper bounds of positive real symbols, and
        numeric lower bounds the symbol's assumptions do not already imply.
        Term names and infinite bounds contribute nothing."""
        pairs = []
        for v, s, lo, hi in reversed(self.vars):
            if s in self.names or not finite(hi) or hi.is_number:
                continue
            if isinstance(hi, sp.Symbol):
                pairs.append((s, hi))
            elif hi.is_Add and len(hi.free_symbols) == 1:  # high = S + c: v - c <= S
                (s_,) = hi.free_symbols
                c = hi - s_
                if c.is_number and hi == s_ + c:
                    pairs.append((s - c, s_))
        for s, (lo, _) in self.where.items():
            if finite(lo):
                pairs.append((lo, s))
        for rel in self.relations:
            small, big = _sides(rel)
            pairs.append((small, big))
        for v, s, lo, hi in self.vars:  # 0 < x <= U (a number): x = U / (1 + s)
            if s in self.names or not finite(hi):
                continue
            if not v.integer and hi.is_number and s.is_positive:
                pairs.append((s, hi))
        for v, s, lo, hi in reversed(self.vars):
            if s in self.names or not finite(lo) or s in self.where:
                continue
            if lo.is_number and lo > 0 and not (v.integer and lo <= 1):
                pairs.append((lo, s))
        names = set(self.names)
        return [p for p in pairs if not (sp.sympify(p[0]).free_symbols | sp.sympify(p[1]).free_symbols) & names]

    def plain(self, expr):
        """``expr`` with every term name replaced by an arbitrary real."""
        expr = sp.sympify(expr)
        return expr.xreplace(self.names) if self.names else expr

    def prove_zero(self, expr) -> prove.Proof:
        return prove.prove_zero(self.plain(expr), self.order)

    def prove_equal(self, a, b) -> prove.Proof:
        return prove.prove_equal(self.plain(a), self.plain(b), self.order)

    def prove_nonnegative(self, expr) -> prove.Proof:
        return prove.prove_nonnegative(self.plain(expr), self.order)

    def prove_positive(self, expr) -> prove.Proof:
        return prove.prove_positive(self.plain(expr), self.order)

    def prove_nonzero(self, expr) -> prove.Proof:
        """Prove ``expr > 0`` or ``expr < 0``; the sign ``expr`` has at a sampled
        point is tried first (the sample only orders the two attempts: a
        failed attempt at the wrong sign costs the prover's every fallback)."""
        first = -expr if self._negative_at_a_sample(expr) else expr
        p = self.prove_positive(first)
        return p if p.ok else self.prove_positive(-first)

    def _negative_at_a_sample(self, expr) -> bool:
        """Whether ``expr`` is negative at one sampled point (past the first
        corners, where it may vanish); False when that cannot be told.  Only an
        ordering hint: any failure here just keeps the default order."""
        try:
            points = self.domain().sample(n=4)
            if not points:
                return False
            value = sp.sympify(expr).xreplace({s: sp.Float(v, 30) for s, v in points[-1].items()}).evalf(30)
            return bool(value.is_real and value.is_number and value < 0)
        except Exception:  # noqa: BLE001 - a hint, never a verdict
            return False

    def smooth(self, expr) -> list[str]:
        """Why ``expr`` might fail to be smooth (infinitely differentiable) on
        this scope: a power of a base not proved positive (nonzero for integer
        exponents), a logarithm of an argument not proved positive, or a
        function with no known smoothness.  Empty if it is smooth."""
        problems = []
        for sub in sp.preorder_traversal(sp.sympify(expr)):
            if sub.is_Atom or sub.is_Add or sub.is_Mul:
                continue
            if sub.is_Pow:
                base, e = sub.args
                if e.is_Integer and e >= 0:
                    continue
                if e.is_Integer:
                    if not self.prove_nonzero(base).ok:
                        problems.append(f"{sp.sstr(base)} is not proved nonzero")
                elif not self.prove_positive(base).ok:
                    problems.append(f"{sp.sstr(base)} is not proved positive (under the power {sp.sstr(e)})")
            elif isinstance(sub, sp.log):
                if not self.prove_positive(sub.args[0]).ok:
                    problems.append(f"the argument of {sp.sstr(sub)} is not proved positive")
            elif isinstance(sub, SMOOTH_FUNCTIONS):
                continue
            else:
                problems.append(f"{sp.sstr(sub.func)} is not known to be smooth")
        return problems

    # ---- sampling

    def domain(self) -> numeric.Domain:
        """Where spot-checks sample: the (sub-)ranges and the restrictions."""
        ranges = [numeric.Range(s, lo, hi) for _, s, lo, hi in self.vars]
        return numeric.Domain(ranges, list(self.relations))


def _sides(rel):
    """``(small, big)`` of an inequality ``small <= big`` (or ``<``)."""
    if isinstance(rel, (sp.GreaterThan, sp.StrictGreaterThan)):
        return rel.rhs, rel.lhs
    return rel.lhs, rel.rhs
