"""Derivations: named symbols, premises from Lean, verified steps, a conclusion.

This module gathers the derivation model in one namespace; each concept lives
in its own module:

* :mod:`pysym.derive.domain` -- :class:`Var` (a symbol and its range),
  :class:`Assumption`, and the :class:`~pysym.derive.domain.Scope` of facts a
  step may use;
* :mod:`pysym.derive.steps` -- :class:`Identity`, :class:`Stationary`,
  :class:`Elasticity`, :class:`Computed`, :class:`Evaluate`,
  :class:`Limit`, :class:`Restriction`, :class:`Remark`, and
  :class:`StepResult`;
* :mod:`pysym.derive.bounds` -- :class:`Bound` with its justifications
  :class:`Sign`, :class:`Combine`, :class:`Monotone`, :class:`Assumed`,
  :class:`Numeric`;
* :mod:`pysym.derive.premises` -- :class:`Premise` (a Lean theorem's
  statement) and :class:`Term`;
* :mod:`pysym.derive.derivation` -- :class:`Derivation`, :class:`Report`,
  and the verification (restrictions, steps under CPU-time budgets,
  spot-checks, the conclusion).

Each step states one relation and says why it holds; :meth:`Derivation.verify`
checks every reason, spot-checks every claim that can be sampled with mpmath
at 50 digits, and checks that the conclusion is a verified claim.

A minimal derivation, run end to end:

>>> import sympy as sp
>>> x = Var("x", 1, 100, "a positive real")
>>> d = Derivation("demo", "Logarithm of a square", vars=[x], steps=[
...     Identity("sq", sp.log(x.symbol**2), 2 * sp.log(x.symbol), "log of a power"),
...     Bound("pos", 0, 2 * sp.log(x.symbol), by=Sign(), text="x >= 1"),
... ], conclusion="pos")
>>> report = d.verify()
>>> report.ok, [s.method for s in report.steps]
(True, ['sympy', 'sympy'])
"""

from __future__ import annotations

from pysym.derive.bounds import Assumed, Bound, Combine, Monotone, Numeric, Sign
from pysym.derive.derivation import STEP_BUDGET, Derivation, DerivationError, Report
from pysym.derive.domain import Assumption, Scope, ScopeError, Var
from pysym.derive.limits import Limit
from pysym.derive.premises import Premise, Term
from pysym.derive.steps import (
    Computed,
    Evaluate,
    Identity,
    Elasticity,
    Remark,
    Restriction,
    Stationary,
    Step,
    StepResult,
)

__all__ = [
    "Var",
    "Assumption",
    "Scope",
    "ScopeError",
    "Step",
    "Premise",
    "Term",
    "Identity",
    "Bound",
    "Sign",
    "Combine",
    "Monotone",
    "Assumed",
    "Numeric",
    "Stationary",
    "Elasticity",
    "Computed",
    "Evaluate",
    "Limit",
    "Restriction",
    "Remark",
    "StepResult",
    "Report",
    "Derivation",
    "DerivationError",
    "STEP_BUDGET",
]
