"""Inequality steps: :class:`Bound` and the ways it can be justified.

``Bound(id, lhs, rhs, by=...)`` claims ``lhs <= rhs`` (``lhs < rhs`` with
``strict=True``) on the step's scope, justified by one of

* :class:`Sign` -- SymPy proves ``rhs - lhs >= 0`` (``> 0``) from the ranges;
* :class:`Combine` -- ``rhs - lhs = sum_i c_i (rhs_i - lhs_i) + r`` over earlier
  bounds with weights ``c_i`` proved ``>= 0`` and a remainder ``r`` proved
  ``>= 0``.  Strict needs a positive weight on a strict bound, or ``r > 0``;
* :class:`Monotone` -- an increasing map applied to both sides of an earlier
  bound.  The map ``f = Lambda(u, ...)`` lives on the interval its variable
  declares (``u`` positive: ``(0, oo)``; nonnegative: ``[0, oo)``; real: all
  reals); ``f`` must be smooth there with ``f' >= 0`` (``> 0`` for strict, which
  also needs a strict earlier bound), and the smaller side of the earlier bound
  must provably lie in that interval;
* :class:`Assumed` -- rests on a named assumption, stated in the document;
* :class:`Numeric` -- checked by the spot-check only, labelled as such.

Every earlier step used must hold on (a superset of) this step's sub-range.

``u -> u^2`` is increasing for positive ``u`` only, so it cannot be applied to
sides that may be negative; a non-strict bound does not become strict through a
strictly increasing map:

>>> import sympy as sp
>>> from pysym.derive.derivation import Derivation
>>> from pysym.derive.domain import Var
>>> y = Var("y", 0, 10)
>>> u = sp.Symbol("u", positive=True)
>>> Y = y.symbol
>>> d = Derivation("d", "t", vars=[y], conclusion="sq", steps=[
...     Bound("p", Y - 1, Y, by=Sign()),
...     Bound("sq", (Y - 1)**2, Y**2, by=Monotone(sp.Lambda(u, u**2), "p"))])
>>> d.verify().result("sq").detail
'the smaller side y - 1 of `p` is not provably in (0, oo), where u**2 is increasing'
>>> d = Derivation("d", "t", vars=[y], conclusion="e", steps=[
...     Bound("p", 0, (Y - 5)**2, by=Sign()),
...     Bound("e", 1, sp.exp((Y - 5)**2), by=Monotone(sp.Lambda(u, sp.exp(u)), "p"), strict=True)])
>>> d.verify().result("e").detail
'a strict bound needs a strict earlier bound, and `p` is not strict'
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

from pysym.derive.premises import Premise
from pysym.derive.defined import undefined_somewhere
from pysym.derive.steps import Step, StepResult, dependency

__all__ = ["Bound", "Sign", "Combine", "Monotone", "Assumed", "Numeric", "inequality"]

_LESS = (sp.LessThan, sp.StrictLessThan)
_GREATER = (sp.GreaterThan, sp.StrictGreaterThan)


def inequality(rel):
    """``(small, big, strict)`` for ``small <= big`` / ``small < big`` (either
    orientation), ``(lhs, rhs, False)`` for an equality, ``None`` otherwise."""
    if isinstance(rel, _LESS):
        return rel.lhs, rel.rhs, isinstance(rel, sp.StrictLessThan)
    if isinstance(rel, _GREATER):
        return rel.rhs, rel.lhs, isinstance(rel, sp.StrictGreaterThan)
    if isinstance(rel, sp.Equality):
        return rel.lhs, rel.rhs, False
    return None


@dataclass(frozen=True)
class Sign:
    """``rhs - lhs >= 0`` (``> 0`` if strict) is proved by SymPy from the ranges."""


@dataclass(frozen=True)
class Combine:
    """``rhs - lhs = sum c_i (rhs_i - lhs_i) + r`` with ``c_i >= 0``, ``r >= 0``."""

    weights: dict  # step id -> coefficient


@dataclass(frozen=True)
class Monotone:
    """``f(lhs_i) <= f(rhs_i)`` for an increasing ``f`` (a SymPy Lambda) on
    the interval its variable's assumptions declare."""

    f: sp.Lambda
    of: str


@dataclass(frozen=True)
class Assumed:
    assumption: str


@dataclass(frozen=True)
class Numeric:
    """Verified only by the numeric spot-check (labelled as such, never as proved)."""

    why: str = ""


@dataclass
class Bound(Step):
    """``lhs <= rhs`` (or ``<`` with ``strict=True``)."""

    lhs: object = None
    rhs: object = None
    by: object = None
    strict: bool = False

    def __init__(self, id, lhs, rhs, *, by, strict=False, text=""):
        super().__init__(id, text)
        self.lhs, self.rhs, self.by, self.strict = sp.sympify(lhs), sp.sympify(rhs), by, strict

    @property
    def claim(self):
        return (sp.StrictLessThan if self.strict else sp.LessThan)(self.lhs, self.rhs, evaluate=False)

    def check(self, d, ctx):
        by = self.by
        scope = d.scope(self.where)
        if isinstance(by, (Sign, Combine, Monotone)):  # a proof: of a bound defined on the whole domain
            weights = list(by.weights.values()) if isinstance(by, Combine) else []
            for part in [self.lhs, self.rhs] + [sp.sympify(c) for c in weights]:
                why = undefined_somewhere(scope.plain(part), scope)
                if why:
                    return StepResult(self, False, "sympy", f"the bound is not defined on the whole domain: {why} "
                                      "(1/(x - 1)**2 >= 0 fails at x = 1, and SymPy cancels across such a point)")
        if isinstance(by, Sign):
            p = (scope.prove_positive if self.strict else scope.prove_nonnegative)(self.rhs - self.lhs)
            return StepResult(self, p.ok, "sympy", p.how)
        if isinstance(by, Numeric):
            return StepResult(self, True, "numeric",
                              "checked numerically only (not proved)" + (f": {by.why}" if by.why else ""))
        if isinstance(by, Assumed):
            if by.assumption not in d.assumption_names():
                return StepResult(self, False, "assumption", f"unknown assumption `{by.assumption}`")
            return StepResult(self, True, "assumption", f"rests on assumption {by.assumption}",
                              assumption=by.assumption)
        if isinstance(by, Combine):
            return self._combine(by, scope, ctx)
        if isinstance(by, Monotone):
            return self._monotone(by, scope, ctx)
        return StepResult(self, False, "sympy", f"unknown justification {by!r}")

    def _combine(self, by: Combine, scope, ctx) -> StepResult:
        rest = self.rhs - self.lhs
        strict_part = False
        for sid, c in by.weights.items():
            prev, why = dependency(ctx, sid, scope, (Bound, Premise))
            if prev is None:
                return StepResult(self, False, "sympy", why)
            ineq = inequality(prev.step.claim)
            if ineq is None:
                return StepResult(self, False, "sympy", f"`{sid}` is not an inequality or an equality")
            small, big, strict = ineq
            c = sp.sympify(c)
            if c.has(sp.oo, -sp.oo, sp.zoo, sp.nan) or not scope.prove_nonnegative(c).ok:
                return StepResult(self, False, "sympy", f"weight {sp.sstr(c)} of `{sid}` is not provably >= 0")
            if self.strict and strict and not strict_part and scope.prove_positive(c).ok:
                strict_part = True
            rest -= c * (big - small)
        names = ", ".join(f"{sp.sstr(sp.sympify(c))}×({sid})" for sid, c in by.weights.items())
        if self.strict and not strict_part:
            p = scope.prove_positive(rest)
            if not p.ok:
                return StepResult(self, False, "sympy", f"a strict bound needs a positive weight on a strict "
                                  f"earlier bound or a remainder proved > 0; the remainder after {names} is not")
            return StepResult(self, True, "sympy", f"combination of {names} with nonnegative weights; the "
                              "remainder is provably > 0")
        p = scope.prove_zero(rest)
        if not p.ok:
            p = scope.prove_nonnegative(rest)
        if not p.ok:
            return StepResult(self, False, "sympy", f"the remainder after {names} is not provably >= 0")
        strict_note = " (a positive weight on a strict bound makes it strict)" if self.strict else ""
        return StepResult(self, True, "sympy", f"nonnegative combination of {names}; the remainder is provably "
                          f">= 0{strict_note}")

    def _monotone(self, by: Monotone, scope, ctx) -> StepResult:
        prev, why = dependency(ctx, by.of, scope, (Bound, Premise))
        if prev is None:
            return StepResult(self, False, "sympy", why)
        ineq = inequality(prev.step.claim)
        if ineq is None:
            return StepResult(self, False, "sympy", f"`{by.of}` is not an inequality or an equality")
        small, big, strict = ineq
        if not isinstance(by.f, sp.Lambda) or len(by.f.variables) != 1:
            return StepResult(self, False, "sympy", "the map must be a SymPy Lambda of one variable")
        (u,) = by.f.variables
        if u.is_positive:
            interval, inside, kind = "(0, oo)", scope.prove_positive, {"positive": True}
        elif u.is_nonnegative:
            interval, inside, kind = "[0, oo)", scope.prove_nonnegative, {"nonnegative": True}
        elif u.is_real:
            interval, inside, kind = "the reals", None, {"real": True}
        else:
            kind = None
        # the derivative is proved for every real point of the interval, so the variable may assume nothing
        # more (an integer variable would prove it at the integers only)
        x = sp.Dummy(u.name, **kind) if kind else None
        if x is None or {k: v for k, v in u.assumptions0.items() if v is not None} != x.assumptions0:
            return StepResult(self, False, "sympy", f"declare the map's variable {u} real, nonnegative or positive "
                              "and nothing else (not integer): it says on which interval the map is increasing")
        fx = by.f.expr.xreplace({u: x})
        what = sp.sstr(by.f.expr)
        rough = scope.smooth(fx)
        if rough:
            return StepResult(self, False, "sympy",
                              f"{what} is not known to be smooth on {interval}: " + "; ".join(rough))
        if self.strict and not strict:
            return StepResult(self, False, "sympy", f"a strict bound needs a strict earlier bound, and `{by.of}` "
                              "is not strict")
        deriv = sp.diff(fx, x)
        inc = (scope.prove_positive if self.strict else scope.prove_nonnegative)(deriv)
        if not inc.ok:
            kind = "strictly increasing" if self.strict else "increasing"
            return StepResult(self, False, "sympy", f"cannot prove that {what} is {kind} on {interval}")
        if inside is not None and not inside(small).ok:
            return StepResult(self, False, "sympy", f"the smaller side {sp.sstr(small)} of `{by.of}` is not provably "
                              f"in {interval}, where {what} is increasing")
        same = scope.prove_zero(self.lhs - by.f(small)).ok and scope.prove_zero(self.rhs - by.f(big)).ok
        if not same:
            return StepResult(self, False, "sympy", f"the two sides are not the map applied to the sides of `{by.of}`")
        sign = ">" if self.strict else ">="
        return StepResult(self, True, "sympy", f"apply the {'strictly ' if self.strict else ''}increasing map {what} "
                          f"(smooth on {interval}, derivative {sp.sstr(sp.diff(by.f.expr, u))} {sign} 0) to `{by.of}`, "
                          f"whose sides lie in {interval}")
