"""Steps of a derivation and their results (bounds and Lean premises have
their own modules, :mod:`pysym.derive.bounds` and :mod:`pysym.derive.premises`).

Each step states one relation and checks why it holds, in the step's
:class:`~pysym.derive.domain.Scope` (the ranges, restricted by
:meth:`Step.on`, plus the derivation's restrictions):

* :class:`Identity` -- SymPy simplifies ``lhs - rhs`` to 0 (floats exactly);
* :class:`Stationary` -- the first derivative vanishes at a point that lies
  in the range, with the second-order condition proved (or spot-checked and
  labelled numeric);
* :class:`Elasticity` -- ``d log(y) / d log(x)`` along a solution of
  ``F = 0``, by implicit differentiation (``F_y != 0`` is proved);
* :class:`Computed`, :class:`Evaluate` -- numeric values, labelled as such;
* :class:`~pysym.derive.limits.Limit` (its own module) -- a limit computed by SymPy;
* :class:`Restriction` -- a relation between symbols that the derivation's
  points satisfy: proved from the ranges, or a named assumption;
* :class:`Remark` -- prose, claims nothing.

A stationary point must lie where it is claimed (here ``x = 5`` is outside
``[0, 1]``), and a second-order condition SymPy evaluates to ``False`` is false:

>>> import sympy as sp
>>> from pysym.derive.derivation import Derivation
>>> from pysym.derive.domain import Var
>>> x = Var("x", 0, 1)
>>> s = Stationary("opt", (x.symbol - 5)**2, x.symbol, 5)
>>> r = Derivation("d", "t", vars=[x], steps=[s], conclusion="opt").verify().result("opt")
>>> r.ok, r.detail
(False, 'the point x = 5 is not in [0, 1]: 5 <= 1 fails')
>>> y = Var("y", -2, 2)
>>> s = Stationary("opt", y.symbol**3 - 3 * y.symbol, y.symbol, -1, kind="min")
>>> Derivation("d", "t", vars=[y], steps=[s], conclusion="opt").verify().result("opt").ok
False
"""

from __future__ import annotations

from dataclasses import dataclass, field

import mpmath
import sympy as sp

from pysym.derive import numeric
from pysym.derive.defined import differentiated_names, undefined_somewhere
from pysym.derive.domain import finite
from pysym.numerics import compiled

__all__ = [
    "Step",
    "StepResult",
    "Remark",
    "Identity",
    "Stationary",
    "Elasticity",
    "Computed",
    "Evaluate",
    "Restriction",
]


@dataclass
class StepResult:
    step: "Step"
    ok: bool
    method: str  # sympy | lean | assumption | numeric | remark | budget
    detail: str
    numeric: numeric.NumericCheck | None = None
    lean: str | None = None
    assumption: str | None = None
    undischarged: list = field(default_factory=list)  # Lean hypotheses neither implied nor granted
    region: dict | None = None  # {var name: (low, high)}: the sub-range the step holds on (None: everywhere)
    hypotheses: list = field(default_factory=list)  # Lean premises: (hypothesis, how it holds), in order
    unchecked: str | None = None  # why the numeric spot-check was not counted (None: it was, or none applies)

    def describe(self) -> str:
        return self.detail


@dataclass
class Step:
    id: str
    text: str = ""
    where = None  # {var name: (low, high)}: a sub-range on which this step is claimed

    def on(self, **ranges) -> "Step":
        """Restrict the step to sub-ranges of some variables (for its proof and
        its spot-check), e.g. ``step.on(ell=(1, 60))``.  A later step that uses
        this one must be restricted to (a part of) the same sub-range."""
        self.where = dict(ranges)
        return self

    @property
    def claim(self):
        raise NotImplementedError

    def check(self, d, ctx: dict) -> StepResult:
        raise NotImplementedError

    @property
    def numeric_claim(self):
        """The relation spot-checked numerically (``None``: nothing to evaluate)."""
        return self.claim

    @property
    def stated_symbols(self) -> set:
        """The symbols the step's claim is about (each must be a symbol of the derivation)."""
        claim = self.claim
        return set(claim.free_symbols) if isinstance(claim, sp.Basic) else set()


@dataclass
class Remark(Step):
    """Prose between steps (claims nothing, verifies nothing)."""

    @property
    def claim(self):
        return None

    @property
    def numeric_claim(self):
        return None

    def check(self, d, ctx):
        return StepResult(self, True, "remark", "")


def dependency(ctx: dict, sid: str, scope, kinds: tuple):
    """The verified result of the earlier step ``sid`` (one of ``kinds``) that
    a step relies on, and ``None``; or ``None`` and why it cannot be used."""
    prev = ctx["steps"].get(sid)
    if prev is None or not isinstance(prev.step, kinds):
        return None, f"`{sid}` is not an earlier {' or '.join(k.__name__ for k in kinds)} step"
    if not prev.ok:
        return None, f"depends on `{sid}`, which failed"
    outside = scope.within(prev.region)
    if outside:
        return None, f"`{sid}` holds only on a sub-range ({outside}); restrict this step to it"
    ctx.setdefault("used", []).append(prev)  # what the step rests on: its label can be no stronger
    return prev, None


@dataclass
class Identity(Step):
    lhs: object = None
    rhs: object = None

    def __init__(self, id, lhs, rhs, text=""):
        super().__init__(id, text)
        self.lhs, self.rhs = sp.sympify(lhs), sp.sympify(rhs)

    @property
    def claim(self):
        return sp.Eq(self.lhs, self.rhs, evaluate=False)

    def check(self, d, ctx):
        scope = d.scope(self.where)
        # both sides must be defined on the whole domain: (x^2 - 1)/(x - 1) = x + 1 is false at x = 1
        for side in (self.lhs, self.rhs):
            why = undefined_somewhere(scope.plain(side), scope)
            if why:
                return StepResult(self, False, "sympy", f"{why} on the domain, where the identity would be undefined")
        p = scope.prove_zero(self.lhs - self.rhs)
        return StepResult(self, p.ok, "sympy", p.how)


# functions defined at every real number; any other function must be shown defined where it is used
def _interval(lo, hi, open_: bool) -> str:
    return ("(" if open_ else "[") + f"{sp.sstr(lo)}, {sp.sstr(hi)}" + (")" if open_ else "]")


@dataclass
class Stationary(Step):
    """``point`` is a stationary point of ``expr`` in ``var``; with ``kind``
    'min' or 'max' the second derivative's sign is proved (or, failing a
    proof, spot-checked and labelled numeric).

    The point must lie in ``var``'s range, or, with ``over=(low, high)``, in
    that open interval (for an unconstrained optimum, e.g. ``over=(0, oo)``);
    proved, or checked numerically and labelled so.  ``var`` must be a real
    (continuous) variable: an integer one's assumptions do not hold between
    the integers."""

    expr: object = None
    var: object = None
    point: object = None
    kind: str = "min"
    second_form: object = None
    over: tuple | None = None

    def __init__(self, id, expr, var, point, *, kind="min", second=None, over=None, text=""):
        super().__init__(id, text)
        self.expr, self.var, self.point, self.kind = sp.sympify(expr), var, sp.sympify(point), kind
        self.second_form = None if second is None else sp.sympify(second)
        self.over = None if over is None else (sp.sympify(over[0]), sp.sympify(over[1]))

    @property
    def claim(self):
        return sp.Eq(sp.Subs(sp.Derivative(self.expr, self.var), self.var, self.point), 0, evaluate=False)

    def second(self):
        return sp.diff(self.expr, self.var, 2).subs(self.var, self.point)

    def check(self, d, ctx):
        if self.kind not in ("min", "max"):
            return StepResult(self, False, "sympy", f"kind must be 'min' or 'max', not {self.kind!r}")
        scope = d.scope(self.where)
        if self.var not in scope.symbols():
            return StepResult(self, False, "sympy", f"{sp.sstr(self.var)} is not a symbol of the derivation")
        if self.point.has(self.var):
            return StepResult(self, False, "sympy", f"the point depends on {sp.sstr(self.var)} itself")
        named = differentiated_names(scope, self.expr)
        if named:
            return StepResult(self, False, "sympy", named)
        if self.var.is_integer:  # its assumptions (n >= 1 for a positive integer) would be used between the integers
            return StepResult(self, False, "sympy", f"{sp.sstr(self.var)} is an integer symbol: a stationary point "
                              "is a statement about a real variable (declare a continuous one for the optimization)")
        for part, what in ((self.point, "the point"), (self.second_form, "the second derivative's form")):
            why = undefined_somewhere(scope.plain(part), scope) if part is not None else None
            if why:
                return StepResult(self, False, "sympy", f"{what} is not defined on the whole domain: {why}")
        if self.over is not None:  # the variable's assumptions (its sign) are used on `over` too: they must hold there
            low = self.over[0]
            for kind, holds in (("positive", self.var.is_positive), ("nonnegative", self.var.is_nonnegative)):
                if holds and not (sp.sympify(low).is_number and low >= 0 or scope.prove_nonnegative(low).ok):
                    return StepResult(self, False, "sympy", f"`over` reaches below 0, but {sp.sstr(self.var)} is "
                                      f"declared {kind} (its range), which the proofs on `over` would assume")
        # a kink (Piecewise, Abs, Max) has a derivative SymPy reads branch by branch; smooth where the point is
        # claimed to lie: on `over` when it is given (it may reach beyond the declared range)
        rough_scope = scope if self.over is None else d.scope({**(self.where or {}), self.var.name: self.over}, check=False)
        rough = rough_scope.smooth(self.expr)
        if rough:
            return StepResult(self, False, "sympy", f"{sp.sstr(self.expr)} is not known to be smooth: {rough[0]}")
        first = scope.prove_zero(sp.diff(self.expr, self.var).subs(self.var, self.point))
        if not first.ok:
            return StepResult(self, False, "sympy", "the first derivative does not vanish at the point")
        parts, numeric_parts = ["first derivative vanishes (proved)"], []
        # the point lies in the range
        if self.over is not None:
            lo, hi, open_ = self.over[0], self.over[1], True
        else:
            (lo, hi), open_ = scope.range(self.var), False
        where = _interval(lo, hi, open_)
        name = f"{sp.sstr(self.var)} = {sp.sstr(self.point)}"
        rel_type = sp.StrictLessThan if open_ else sp.LessThan
        unproved = []
        for small, big in ((lo, self.point), (self.point, hi)):
            if not finite(small) or not finite(big):
                continue
            p = (scope.prove_positive if open_ else scope.prove_nonnegative)(big - small)
            if not p.ok:
                unproved.append(rel_type(small, big, evaluate=False))
        if unproved:
            for rel in unproved:
                num = numeric.check(rel, scope.domain().restricted(rel.free_symbols))
                if not num.ok:
                    return StepResult(self, False, "sympy", f"the point {name} is not in {where}: "
                                      f"{sp.sstr(rel)} fails" + (f" ({num.detail})" if num.counterexample else ""))
            numeric_parts.append(f"the point {name} lies in {where} (checked numerically, not proved)")
        else:
            parts.append(f"the point lies in {where} (proved)")
        # second-order condition
        sec = self.second()
        via = ""
        if self.second_form is not None:  # a simpler equivalent form, itself proved equal
            if scope.prove_equal(sec, self.second_form).ok:
                sec, via = self.second_form, f" (it equals {sp.sstr(self.second_form)})"
        p = scope.prove_positive(sec if self.kind == "min" else -sec)
        sign = ">" if self.kind == "min" else "<"
        if p.ok:
            parts.append(f"second derivative {sign} 0 (proved){via}")
        else:
            rel = (sp.StrictGreaterThan if self.kind == "min" else sp.StrictLessThan)(sec, 0, evaluate=False)
            num = numeric.check(rel, scope.domain().restricted(rel.free_symbols))
            if not num.ok:
                return StepResult(self, False, "numeric", "; ".join(parts) + f"; the second-order condition "
                                  f"{sp.sstr(sec)} {sign} 0 fails: {num.describe()}")
            numeric_parts.append(f"second-order condition {sp.sstr(sec)} {sign} 0 checked numerically only, not "
                                 f"proved: {num.describe()}")
        detail = "; ".join(parts + numeric_parts)
        return StepResult(self, True, "numeric" if numeric_parts else "sympy", detail)


@dataclass
class Elasticity(Step):
    """An elasticity (comparative statics) by the implicit function theorem.

    Where ``equation`` (an expression ``F``) vanishes, it defines ``unknown``
    as a function of the other symbols wherever ``dF/d unknown != 0``; then
    ``d unknown/d wrt = -F_wrt / F_unknown``.  The step claims the elasticity
    ``d log(of) / d log(wrt) = value`` along that solution, where ``of`` is an
    expression in ``unknown`` and the parameters (default: ``unknown``) and
    ``name`` is how the document writes it (default ``of``'s text with a star).

    Checked: ``F`` is smooth and ``F_unknown`` is proved nonzero on the
    step's scope, and ``wrt/of * (d of/d wrt + d of/d unknown * d unknown/d wrt)``
    simplifies to ``value``.  The identity is spot-checked on the domain.
    """

    equation: object = None
    unknown: object = None
    wrt: object = None
    value: object = None
    of: object = None
    name: str = ""

    def __init__(self, id, equation, unknown, wrt, value, *, of=None, name=None, text=""):
        super().__init__(id, text)
        self.equation, self.unknown, self.wrt = sp.sympify(equation), unknown, wrt
        self.value = sp.sympify(value)
        self.of = sp.sympify(unknown if of is None else of)
        self.name = name or f"{sp.sstr(self.of)}*"

    def formula(self):
        """``d log(of) / d log(wrt)`` along the solution, by the implicit function theorem."""
        F, x, w = self.equation, self.unknown, self.wrt
        dx = -sp.diff(F, w) / sp.diff(F, x)
        return w / self.of * (sp.diff(self.of, w) + sp.diff(self.of, x) * dx)

    @property
    def claim(self):
        f = sp.Function(self.name)(self.wrt)
        return sp.Eq(sp.Mul(self.wrt, sp.Derivative(sp.log(f), self.wrt), evaluate=False), self.value,
                     evaluate=False)

    @property
    def numeric_claim(self):
        return sp.Eq(self.formula(), self.value, evaluate=False)

    def check(self, d, ctx):
        scope = d.scope(self.where)
        for s in (self.unknown, self.wrt):
            if s not in scope.symbols():
                return StepResult(self, False, "sympy", f"{sp.sstr(s)} is not a symbol of the derivation")
        named = differentiated_names(scope, self.equation, self.of if self.of is not None else 0)
        if named:
            return StepResult(self, False, "sympy", named)
        if self.wrt == self.unknown:
            return StepResult(self, False, "sympy", "the parameter must differ from the unknown the equation "
                              "solves for")
        problems = scope.smooth(self.equation) + scope.smooth(self.of)
        if problems:
            return StepResult(self, False, "sympy", "the implicit function theorem needs a smooth equation: "
                              + "; ".join(problems))
        Fx = sp.diff(self.equation, self.unknown)
        if not scope.prove_nonzero(Fx).ok:
            return StepResult(self, False, "sympy", f"cannot prove dF/d{sp.sstr(self.unknown)} = {sp.sstr(Fx)} "
                              "is nonzero here, so the implicit function theorem does not apply")
        of = self.of if self.of is not None else self.unknown
        if not scope.prove_nonzero(of).ok:  # an elasticity is d log(of): of = 0 makes it 0/0
            return StepResult(self, False, "sympy", f"cannot prove {sp.sstr(of)} is nonzero here, so its "
                              "elasticity (a derivative of its logarithm) may not exist")
        why = undefined_somewhere(scope.plain(self.value), scope)
        if why:
            return StepResult(self, False, "sympy", f"the stated value is not defined on the whole domain: {why}")
        p = scope.prove_zero(self.formula() - self.value)
        if not p.ok:
            return StepResult(self, False, "sympy", "implicit differentiation gives "
                              f"{sp.sstr(sp.simplify(self.formula()))}, which SymPy cannot reduce to the stated value")
        return StepResult(self, True, "sympy",
                          f"implicit differentiation of {sp.sstr(self.equation)} = 0 "
                          f"(dF/d{sp.sstr(self.unknown)} is nonzero here, proved); {p.how}")


@dataclass
class Computed(Step):
    """A value computed numerically: ``symbol = value`` where ``equation``
    (an expression in ``symbol``) vanishes; found with mpmath.findroot from
    ``guess`` and confirmed by the residual and by lying in the symbol's range."""

    symbol: object = None
    equation: object = None
    guess: object = None
    value: object = None

    def __init__(self, id, symbol, equation, guess, text=""):
        super().__init__(id, text)
        self.symbol, self.equation, self.guess = symbol, sp.sympify(equation), guess
        self.value = None

    @property
    def claim(self):
        return sp.Eq(self.symbol, self.value if self.value is not None else sp.nan, evaluate=False)

    @property
    def stated_symbols(self) -> set:
        return set(sp.sympify(self.equation).free_symbols) - {self.symbol}  # the symbol it computes is its own

    @property
    def numeric_claim(self):
        return None

    def check(self, d, ctx):
        extra = self.equation.free_symbols - {self.symbol}
        if extra:
            return StepResult(self, False, "numeric", f"the equation has other symbols: {sorted(map(str, extra))}")
        f = compiled(self.symbol, self.equation, "mpmath")
        with mpmath.workdps(numeric.DIGITS):
            try:
                root = mpmath.findroot(f, self.guess)
            except (ValueError, ZeroDivisionError, TypeError) as exc:
                return StepResult(self, False, "numeric", f"root finding failed: {exc}")
            if isinstance(root, mpmath.mpc):
                if abs(root.imag) > mpmath.mpf(10) ** (-numeric.DIGITS + 5):
                    return StepResult(self, False, "numeric", f"the root {mpmath.nstr(root, 8)} is not real")
                root = root.real
            resid = abs(f(root))
            self.value = sp.Float(mpmath.nstr(root, 40), 40)
            # a small value is not a root (exp(-t) is 1e-53 at t = 121): the equation must change sign across
            # the value reported, in an interval far narrower than its 40 digits can tell apart
            width = mpmath.mpf(10) ** (-numeric.DIGITS + 20) * max(1, abs(root))
            try:
                ends = [f(root - width), f(root + width)]
            except (ValueError, ZeroDivisionError, TypeError):
                ends = []
            crossing = len(ends) == 2 and all(isinstance(e, mpmath.mpf) for e in ends) and ends[0] * ends[1] <= 0
        ok = resid < mpmath.mpf(10) ** (-numeric.DIGITS + 10) and crossing
        detail = f"root found with mpmath at {numeric.DIGITS} digits (residual {mpmath.nstr(resid, 3)})"
        if not crossing:
            detail += ("; the equation does not change sign across it (a small value is not a root; a root where "
                       "the equation touches zero without crossing cannot be confirmed numerically)")
        if self.symbol in d.symbols():
            lo, hi = d.scope().range(self.symbol)
            inside = all(not e.is_number or bool(e >= 0) for e in (self.value - lo, hi - self.value))
            if not inside:
                return StepResult(self, False, "numeric", detail + f"; the root is outside the range "
                                  f"[{sp.sstr(lo)}, {sp.sstr(hi)}] of {sp.sstr(self.symbol)}")
        ctx.setdefault("values", {})[self.id] = self.value
        return StepResult(self, ok, "numeric", detail)


# functions whose limits SymPy's algorithm is trusted with (analytic where defined)
@dataclass
class Evaluate(Step):
    """A closed-form value evaluated at 50 digits (e.g. an optimum at the
    paper's fitted constants); ``expected`` (optional) is the value the paper
    reports, compared within ``tol`` (relative)."""

    name: str = ""
    expr: object = None
    expected: object = None
    tol: float = 0.0

    def __init__(self, id, name, expr, *, expected=None, tol=0.0, text=""):
        super().__init__(id, text)
        self.name, self.expr, self.expected, self.tol = name, sp.sympify(expr), expected, tol
        self.value = None

    @property
    def claim(self):
        return sp.Eq(sp.Symbol(self.name), self.value if self.value is not None else self.expr, evaluate=False)

    @property
    def stated_symbols(self) -> set:
        return set(sp.sympify(self.value if self.value is not None else self.expr).free_symbols)  # not its name

    @property
    def numeric_claim(self):
        return None

    def check(self, d, ctx):
        if self.expr.free_symbols:
            return StepResult(self, False, "numeric", f"free symbols {sorted(map(str, self.expr.free_symbols))}")
        with mpmath.workdps(numeric.DIGITS):
            num = sp.N(self.expr, numeric.DIGITS)
            if not num.is_real or not num.is_finite:
                return StepResult(self, False, "numeric", f"the value {sp.sstr(num)} is not a finite real number")
            v = mpmath.mpf(str(num))
        self.value = sp.Float(mpmath.nstr(v, 30), 30)
        ctx.setdefault("values", {})[self.id] = self.value
        detail = f"evaluated at {numeric.DIGITS} digits: {mpmath.nstr(v, 8)}"
        ok = True
        if self.expected is not None:
            rel = abs(v - mpmath.mpf(self.expected)) / abs(mpmath.mpf(self.expected))
            ok = rel <= self.tol
            detail += (f"; the paper reports {self.expected} (relative difference {mpmath.nstr(rel, 2)}, "
                       f"tolerance {self.tol})")
        return StepResult(self, ok, "numeric", detail)


@dataclass
class Restriction(Step):
    """A relation between the symbols that every point of the derivation
    satisfies (``Derivation(orders=..., constraints=...)``).

    Without ``assumption`` it must follow from the ranges (and the
    restrictions before it), proved by the sign prover; with ``assumption``
    (the name of one of the derivation's assumptions) it restricts the domain
    and rests on that assumption.  Either way it is part of the document and,
    once checked, a fact for every later proof and a filter for sampling."""

    relation: object = None
    assumption: str | None = None

    def __init__(self, id, relation, *, assumption=None, text=""):
        super().__init__(id, text)
        self.relation, self.assumption = sp.sympify(relation), assumption

    @property
    def claim(self):
        return self.relation

    @property
    def numeric_claim(self):
        return None if self.assumption else self.relation

    def check(self, d, ctx):
        rel = self.relation
        if not isinstance(rel, (sp.LessThan, sp.StrictLessThan, sp.GreaterThan, sp.StrictGreaterThan)):
            return StepResult(self, False, "sympy", f"`{sp.sstr(rel)}` is not an inequality (<=, <, >=, >)")
        if self.where:
            # a restriction is a fact for every later proof on the whole domain: proved on a sub-range, it is not
            return StepResult(self, False, "sympy", "a restriction holds on the whole domain: it cannot be limited "
                                                    "to a sub-range with .on(...) (narrow the symbols' ranges "
                                                    "instead)")
        if self.assumption is not None:
            if self.assumption not in d.assumption_names():
                return StepResult(self, False, "assumption", f"unknown assumption `{self.assumption}`")
            return StepResult(self, True, "assumption",
                              f"a restriction of the domain, resting on assumption {self.assumption}",
                              assumption=self.assumption)
        scope = d.scope(self.where, restrictions=ctx.get("restrictions_before", []))
        for side in (rel.lhs, rel.rhs):
            why = undefined_somewhere(scope.plain(side), scope)
            if why:
                return StepResult(self, False, "sympy", f"the restriction is not defined on the whole domain: {why}")
        small, big = (rel.lhs, rel.rhs) if isinstance(rel, (sp.LessThan, sp.StrictLessThan)) else (rel.rhs, rel.lhs)
        strict = isinstance(rel, (sp.StrictLessThan, sp.StrictGreaterThan))
        p = (scope.prove_positive if strict else scope.prove_nonnegative)(big - small)
        if not p.ok:
            return StepResult(self, False, "sympy", "not implied by the ranges; if it is meant as an assumption, "
                              f"name one: Restriction(..., assumption=...) ({p.how})")
        return StepResult(self, True, "sympy", f"implied by the ranges: {p.how}")
