"""What a claims file holds once it is read: paper, symbols, laws, claims.

:func:`pysym.audit.schema.load_claims_file` builds these objects; every
field of a claim is already checked and converted (:mod:`pysym.audit.fields`)
when a kind's evaluator sees it:

* ``claim.fields`` keeps the text as written in the file (for messages);
* ``claim.values`` holds the checked values: SymPy expressions and relations,
  symbols, ranges ``(low, high)``, numbers.

>>> import sympy as sp
>>> c = Claim("c1", "identity", "q", "w", "holds", {"lhs": "x"}, values={"lhs": sp.Symbol("x")})
>>> c.get("lhs"), c.get("region", {})
(x, {})
"""

from __future__ import annotations

from dataclasses import dataclass, field

import sympy as sp

from pysym.audit.errors import AuditInputError, ExpressionError
from pysym.audit.expr import parse_expression

__all__ = ["SymbolSpec", "Paper", "Claim", "ClaimsFile"]


@dataclass
class SymbolSpec:
    """A symbol of ``[symbols]``: its SymPy symbol (assumptions follow from its
    range) and the range its checks sample (bounds may use earlier symbols)."""

    name: str
    symbol: sp.Symbol
    low: sp.Expr
    high: sp.Expr
    description: str = ""
    integer: bool = False
    rational: bool = False


@dataclass
class Paper:
    id: str
    title: str
    arxiv: str = ""
    version: str = ""
    sources: list[str] = field(default_factory=list)


@dataclass
class Claim:
    id: str
    kind: str
    quote: str
    where: str
    expected: str
    fields: dict  # as written in the file
    note: str = ""
    values: dict = field(default_factory=dict)  # checked and converted (see pysym.audit.fields)

    def get(self, key: str, default=None):
        """The checked value of field ``key`` (``default`` when absent)."""
        return self.values.get(key, default)

    def has(self, key: str) -> bool:
        return key in self.values


@dataclass
class ClaimsFile:
    path: str
    paper: Paper
    symbols: dict[str, SymbolSpec]
    laws: dict[str, sp.Expr]
    claims: list[Claim]
    errors: list[AuditInputError] = field(default_factory=list)  # claim-level problems
    constants: dict = field(default_factory=dict)  # name -> Printed ([constants])
    digest: str = ""  # SHA-256 of the text it was read from ("" when built otherwise)

    @property
    def sym(self) -> dict[str, sp.Symbol]:
        return {n: s.symbol for n, s in self.symbols.items()}

    def spec(self, symbol: sp.Symbol) -> SymbolSpec:
        return self.symbols[symbol.name]

    def parse(self, claim: Claim, key: str, value=None):
        """Parse ``value`` (default: the claim's field ``key`` as written) as an
        expression; an :class:`AuditInputError` names the claim and field."""
        text = claim.fields.get(key) if value is None else value
        try:
            consts = {n: (p.mid if p.exact else p) for n, p in self.constants.items()}
            return parse_expression(text, self.sym, {**consts, **self.laws})
        except ExpressionError as exc:
            raise AuditInputError(self.path, claim.id, f"field `{key}`: {exc}") from None

    def error(self, claim: Claim, message: str) -> AuditInputError:
        return AuditInputError(self.path, claim.id, message)
