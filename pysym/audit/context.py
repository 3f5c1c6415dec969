"""The ranges one claim is checked on: symbols, regions, the optimized variable.

A :class:`Context` gives the sign prover its ordered pairs (``order()``: ``a <=
b`` facts that follow from the ranges) and the samplers their domain
(``domain()``).  A claim's ``region`` *replaces* a symbol's range for that
claim, and so does the ``over`` range of the variable an ``optimum`` or
``sign`` claim optimizes: whatever the prover may assume about that symbol
then comes from the range the claim is about, never from a wider or a
narrower one.

Two rules keep this sound:

* a replaced range must imply the assumptions of the file's symbol (a region
  may not reach down to 0 for a symbol declared positive);
* a bound may use only symbols declared before the symbol it bounds (the
  samplers draw symbols in declaration order).

The printed numbers of the claim (:mod:`pysym.audit.printed`) are parameters
of the context, each ranging over its admissible interval: a proof covers every
admissible value, and the samplers draw them too.

>>> import sympy as sp
>>> from pysym.audit.model import SymbolSpec, ClaimsFile, Paper, Claim
>>> x = sp.Symbol("x", positive=True)
>>> cf = ClaimsFile("f.toml", Paper("p", "t"), {"x": SymbolSpec("x", x, sp.Integer(1), sp.Integer(10))}, {}, [])
>>> claim = Claim("c", "identity", "q", "w", "holds", {})
>>> Context(cf, claim).order()
[(x, 10), (1, x)]
>>> Context(cf, claim, {x: (sp.Integer(2), sp.Integer(100))}).order()
[(x, 100), (2, x)]
>>> Context(cf, claim, {x: (sp.Integer(-1), sp.Integer(1))})
Traceback (most recent call last):
...
pysym.audit.errors.AuditInputError: f.toml: claim `c`: the range [-1, 1] of `x` does not keep x positive, as its range in [symbols] does: narrow the range instead
"""

from __future__ import annotations

import sympy as sp

from pysym.audit.model import Claim, ClaimsFile, SymbolSpec
from pysym.audit.printed import constants_of
from pysym.derive import numeric
from pysym.derive.core import Derivation, Var
from pysym.derive.domain import lower_sign

__all__ = ["Context", "SAMPLES", "SEED"]

SAMPLES = 48  # configurations sampled by the argmin-based evaluators
SEED = 20261121


def _keeps_assumptions(spec: SymbolSpec, low) -> str | None:
    """None if ``low`` as lower bound implies the symbol's sign assumptions, else the one it breaks."""
    sign = lower_sign(sp.sympify(low))  # by the provers' sign rules, not SymPy's assumptions (see lower_sign)
    positive, nonnegative = sign == "positive", sign in ("positive", "nonnegative")
    if spec.symbol.is_positive and not positive:
        return "positive"
    if spec.symbol.is_nonnegative and not nonnegative:
        return "nonnegative"
    return None


class Context:
    """Symbols, ranges and helpers for one claim (``ranges`` replace symbols' ranges)."""

    def __init__(self, cf: ClaimsFile, claim: Claim, ranges: dict | None = None):
        self.cf, self.claim = cf, claim
        self.ranges = dict(ranges or {})
        params = sorted((p for p in constants_of(claim.values) if not p.exact), key=lambda p: (p.name, p.dummy_index))
        self.params = [SymbolSpec(str(p), p, p.lo, p.hi) for p in params]
        self.specs = self.params + list(cf.symbols.values())
        for sym, (low, high) in self.ranges.items():
            spec = cf.spec(sym)
            earlier = {s.symbol for s in self.specs[: self.specs.index(spec)]}
            late = (sp.sympify(low).free_symbols | sp.sympify(high).free_symbols) - earlier
            if late:
                raise cf.error(claim, f"the range of `{spec.name}` uses {', '.join(sorted(map(str, late)))}, which "
                                      f"[symbols] declares after (or as) {spec.name}: bounds may use only symbols "
                                      "declared before")
            broken = _keeps_assumptions(spec, low)
            if broken:
                raise cf.error(claim, f"the range [{sp.sstr(low)}, {sp.sstr(high)}] of `{spec.name}` does not keep "
                                      f"{spec.name} {broken}, as its range in [symbols] does: narrow the range "
                                      "instead")

    def range(self, spec: SymbolSpec) -> tuple:
        low, high = self.ranges.get(spec.symbol, (spec.low, spec.high))
        return sp.sympify(low), sp.sympify(high)

    def order(self) -> list:
        """Pairs ``(a, b)`` meaning ``a <= b`` that the sign prover may use:
        symbolic upper bounds (latest symbol first), the symbolic lower bounds
        of replaced ranges, numeric upper bounds of positive reals, then
        numeric lower bounds the assumptions do not already imply."""
        pairs = []
        for spec in reversed(self.specs):
            hi = self.range(spec)[1]
            if isinstance(hi, sp.Symbol):
                pairs.append((spec.symbol, hi))
            elif hi.is_Add and len(hi.free_symbols) == 1:  # high = S + c: x - c <= S
                (s_,) = hi.free_symbols
                c = hi - s_
                if c.is_number and hi == s_ + c:
                    pairs.append((spec.symbol - c, s_))
        for sym, (low, _) in self.ranges.items():  # symbolic lower ends (numeric ones come last, below)
            if not sp.sympify(low).is_number:
                pairs.append((sp.sympify(low), sym))
        for spec in self.specs:  # 0 < x <= U (a number): x = U / (1 + s)
            hi = self.range(spec)[1]
            if not spec.integer and hi.is_number and spec.symbol.is_positive:
                pairs.append((spec.symbol, hi))
        for spec in reversed(self.specs):
            lo = self.range(spec)[0]
            if lo.is_number and lo > 0 and not (spec.integer and lo <= 1):
                pairs.append((lo, spec.symbol))
        return pairs

    def domain(self) -> numeric.Domain:
        """The sampling domain: every symbol in declaration order, on its (replaced) range."""
        return numeric.Domain([numeric.Range(s.symbol, *self.range(s)) for s in self.specs])

    def symbols(self) -> list:
        return [s.symbol for s in self.specs]

    def sample(self, n: int = SAMPLES, seed: int = SEED) -> list[dict]:
        """``n`` seeded configurations ``{symbol: mpf}`` of the claim's ranges."""
        return self.domain().sample(n, seed)

    def derivation(self) -> Derivation:
        """A :class:`pysym.derive.Derivation` over the file's symbols and their
        declared ranges (for Lean premises)."""
        return Derivation(f"{self.cf.paper.id}:{self.claim.id}", self.claim.id,
                          vars=[Var(s.name, s.low, s.high, s.description, integer=s.integer,
                                    **({"rational": True} if s.rational else {}))
                                for s in self.specs if s not in self.params])
