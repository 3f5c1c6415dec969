"""Where an expression is defined, as a real number: the conditions SymPy's simplification may hide.

:func:`conditions` lists, for an expression as SymPy holds it, where it is a
real number: ``d != 0`` for every power with an exponent that may be negative,
``d >= 0`` for a fractional (or symbolic) power, ``d > 0`` for a logarithm --
those SymPy does not already prove from the symbols' signs.  SymPy simplifies
as it builds (``(x - 1)/(x - 1)`` is ``1``, ``sqrt(x - 5)**2`` is ``x - 5``,
``log(c) - log(c)`` is ``0``), so the claims parser asks :func:`lost` after
every step which conditions of the operands the result no longer shows
(:mod:`pysym.audit.expr`), and the relations hold only where their sides'
conditions are proved on the region (:func:`pysym.audit.region.undefined_note`).

>>> import sympy as sp
>>> x, c = sp.Symbol("x", positive=True), sp.Symbol("c", nonnegative=True)
>>> sorted(conditions(1 / (x - 1) + sp.log(c)), key=str)
[('nonzero', x - 1), ('positive', c)]
>>> lost(sp.Integer(1), (x - 1, 1 / (x - 1)), set()), lost(sp.Integer(1), (x, 1 / x), set())
([('nonzero', x - 1)], [])
"""

from __future__ import annotations

import sympy as sp

from pysym.audit.printed import midpoint

__all__ = ["NEEDS", "conditions", "power_conditions", "lost"]


NEEDS = {"nonzero": "!= 0", "nonnegative": ">= 0", "positive": "> 0"}


def power_conditions(base, exp) -> set:
    """Where ``base**exp`` is a real number: a base that is not 0 for an
    exponent that may be negative, and not negative for one that may be
    fractional (or symbolic)."""
    if isinstance(base, sp.Basic) and base.is_number:
        return set()  # numbers are checked as they are built (check_defined)
    out = set()
    if exp.is_integer is not True:
        out.add(("nonnegative", base))
    if exp.is_nonnegative is not True:
        out.add(("nonzero", base))
    return out


def conditions(e) -> set:
    """``{(kind, d)}``: where the expression ``e``, as SymPy holds it, is
    defined as a real number: ``d != 0`` (``nonzero``), ``d >= 0``
    (``nonnegative``) or ``d > 0`` (``positive``) for every power and
    logarithm in it; those SymPy proves from the symbols' signs are left out."""
    if not isinstance(e, sp.Basic):
        return set()
    out = set()
    for p in e.atoms(sp.Pow):
        out |= power_conditions(p.base, p.exp)
    for f in e.atoms(sp.log):
        out.add(("positive", f.args[0]))
    return {c for c in out if not _proved(c)}


def _proved(condition) -> bool:
    kind, d = condition
    d = midpoint(d)
    return {"nonzero": d.is_zero is False, "nonnegative": d.is_nonnegative is True,
            "positive": d.is_positive is True}[kind]


def _normal(conds) -> set:
    """Conditions in a form that does not depend on how SymPy arranged the
    expression: ``2*x*y**2 != 0`` is ``x != 0`` and ``y != 0``; the factors of
    a sign condition that SymPy proves positive are dropped (``N*log(T/k)/m >=
    0`` is ``log(T/k) >= 0`` for positive ``N`` and ``m``)."""
    out = set()
    for kind, d in conds:
        if _proved((kind, d)):
            continue
        if kind == "nonzero":
            for f in sp.Mul.make_args(sp.factor_terms(d)):
                while f.is_Pow and f.exp.is_positive:
                    f = f.base
                if not f.is_number and not _proved(("nonzero", f)):
                    out.add(("nonzero", f))
        else:  # the sign of d is the sign of its factors not proved positive
            rest = [f for f in sp.Mul.make_args(d) if midpoint(f).is_positive is not True]
            if rest:
                out.add((kind, sp.Mul(*rest)))
    return out


def lost(value, operands, own: set) -> list:
    """The conditions of ``operands`` (and ``own``, the step's: a divisor
    nonzero, a logarithm's argument positive) that ``value``, the result of the
    step, no longer shows, in a form that does not depend on how SymPy arranged
    it; sorted."""
    needed = set(own)
    for operand in operands:
        needed |= conditions(operand)
    return sorted(_normal(needed) - _normal(conditions(value)), key=str)
