"""The claim kinds: one registry mapping a kind's name to its fields and evaluator.

Each kind lives in its own module under :mod:`pysym.audit.kinds` and
registers one :class:`Kind`: its name, its :class:`Field` list (name, type,
required or not, what it means), an optional cross-field rule, and its
evaluator.  The claims-file schema (:mod:`pysym.audit.schema`) takes every
kind's field types from here, and the engine (:mod:`pysym.audit.engine`)
dispatches through it, so adding a kind is one new module.

>>> sorted(kinds())
['consistent', 'exponent', 'identity', 'independence', 'inequality', 'match', 'optimum', 'premise', 'sign', 'table', 'value']
>>> k = kind("identity")
>>> k.required, k.optional, k.precision
(('lhs', 'rhs'), ('region', 'subs', 'tolerance', 'abs_tolerance'), 'box')
>>> k.field("region").type.name
'ranges'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from pysym.audit.fields import FieldType

__all__ = ["Field", "Kind", "Job", "register", "kind", "kinds", "COMMON"]

# fields every claim has, whatever its kind
COMMON = ("id", "kind", "quote", "where", "expected", "note")


@dataclass(frozen=True)
class Field:
    name: str
    type: FieldType
    required: bool = False
    doc: str = ""


@dataclass
class Job:
    """One claim to evaluate: its file, the claim, and the Lean statements (premise claims)."""

    cf: object  # ClaimsFile
    claim: object  # Claim
    statements: dict | None = None


@dataclass(frozen=True)
class Kind:
    """A claim kind: fields, an optional cross-field ``check`` (returns a
    message or None), and ``evaluate(job) -> Outcome``.

    ``precision`` says how the kind treats printed numbers: ``"box"`` (it
    decides over every admissible value itself, :mod:`pysym.audit.precision`)
    or ``"parameters"`` (the engine runs it at the printed values, then with the
    printed numbers as parameters, :mod:`pysym.audit.parameters`).
    ``reads_lean``: the evaluator is given the Lean statements (the engine
    gives every other kind ``None``, and caches its outcomes without them)."""

    name: str
    fields: tuple[Field, ...]
    evaluate: Callable
    check: Callable | None = None
    doc: str = ""
    precision: str = "parameters"
    reads_lean: bool = False

    @property
    def required(self) -> tuple[str, ...]:
        return tuple(f.name for f in self.fields if f.required)

    @property
    def optional(self) -> tuple[str, ...]:
        return tuple(f.name for f in self.fields if not f.required)

    def field(self, name: str) -> Field:
        return next(f for f in self.fields if f.name == name)


_REGISTRY: dict[str, Kind] = {}


def register(k: Kind) -> Kind:
    """Add a kind (its name must be new)."""
    if k.name in _REGISTRY:
        raise ValueError(f"claim kind `{k.name}` is registered twice")
    _REGISTRY[k.name] = k
    return k


def kinds() -> dict[str, Kind]:
    """Every registered kind, in registration order."""
    import pysym.audit.kinds  # noqa: F401 - importing the package registers the shipped kinds

    return dict(_REGISTRY)


def kind(name: str) -> Kind:
    """The kind called ``name`` (``KeyError`` if there is none)."""
    return kinds()[name]
