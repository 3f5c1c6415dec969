"""Symbolic re-derivations, each starting from statements Lean proved.

See :mod:`pysym.derive.core` for the model (symbols, premises, verified
steps), :mod:`pysym.derive.library` for the derivations themselves and
:mod:`pysym.derive.optimal` for the compute-optimal engine.
"""

from pysym.derive.core import (
    Assumed,
    Assumption,
    Bound,
    Combine,
    Computed,
    Derivation,
    DerivationError,
    Evaluate,
    Identity,
    Limit,
    Monotone,
    Numeric,
    Premise,
    Remark,
    Report,
    Sign,
    Stationary,
    Var,
)

__all__ = [
    "Assumed",
    "Assumption",
    "Bound",
    "Combine",
    "Computed",
    "Derivation",
    "DerivationError",
    "Evaluate",
    "Identity",
    "Limit",
    "Monotone",
    "Numeric",
    "Premise",
    "Remark",
    "Report",
    "Sign",
    "Stationary",
    "Var",
]
