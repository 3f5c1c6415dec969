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
* :class:`Limit` -- a limit computed by SymPy;
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
from pysym.derive.domain import finite

__all__ = [
    "Step",
    "StepResult",
    "Remark",
    "Identity",
    "Stationary",
    "Elasticity",
    "Computed",
    "Limit",
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
DEFINED_EVERYWHERE = (sp.exp, sp.sin, sp.cos, sp.atan, sp.sinh, sp.cosh, sp.tanh, sp.Abs)


def differentiated_names(scope, *exprs) -> str | None:
    """Why a step may not differentiate ``exprs``: they involve symbols naming Lean terms (``None`` if not).  A
    name is an arbitrary real in every proof, but the term it names may vary with the other symbols
    (`(List.replicate T 0).length` is `T`): a derivative would take it for a constant."""
    marks = set(scope.names) | set(scope.names.values())
    named = sorted({str(x) for e in exprs for x in sp.sympify(e).free_symbols if x in marks})
    if named:
        return (f"it differentiates {', '.join(named)}, which name{'s' if len(named) == 1 else ''} Lean terms: the "
                "terms may vary with the other symbols, and a name is an arbitrary real")
    return None


def undefined_somewhere(expr, scope) -> str | None:
    """Why ``expr`` may be undefined somewhere on ``scope`` (``None``: defined everywhere), by an allow-list:
    a power whose exponent may be negative needs a base proved nonzero (`b**n` with `n` in [-3, -1] too), a
    logarithm an argument proved nonzero, `binomial` integer arguments; any other function (`tan`, `gamma`:
    poles) is refused."""
    def nonzero(q) -> bool:
        return scope.prove_positive(q).ok or scope.prove_positive(-q).ok

    for sub in sp.preorder_traversal(sp.sympify(expr)):
        if isinstance(sub, sp.Derivative):  # it exists only where what it is taken of is smooth (not |x| at 0)
            named = differentiated_names(scope, sub.expr)
            if named:
                return named
            rough = scope.smooth(sub.expr)
            if rough:
                return f"the derivative `{sp.sstr(sub)}` may not exist: {rough[0]}"
            continue  # (what it is taken of is looked at in turn)
        if isinstance(sub, sp.Subs):  # taken at a point of the domain, where the rest is looked at
            for var, point in zip(sub.variables, sub.point):
                try:
                    lo, hi = scope.range(var)
                except KeyError:
                    continue  # a variable of its own: what it is substituted into is looked at in turn
                if not ((not finite(lo) or scope.prove_nonnegative(point - lo).ok)
                        and (not finite(hi) or scope.prove_nonnegative(hi - point).ok)):
                    return (f"`{sp.sstr(sub)}` is taken at {sp.sstr(var)} = {sp.sstr(point)}, not proved inside "
                            f"the range [{sp.sstr(lo)}, {sp.sstr(hi)}] of {sp.sstr(var)}")
            continue
        if sub.is_Atom or sub.is_Add or sub.is_Mul or isinstance(sub, sp.Tuple):
            continue
        if sub.is_Pow:
            base, e = sub.args
            if e.is_nonnegative is not True and not base.is_number and not nonzero(base):
                return f"the denominator `{sp.sstr(base)}` is not proved nonzero"
        elif isinstance(sub, sp.log):
            if not nonzero(sub.args[0]):
                return f"the argument of `{sp.sstr(sub)}` is not proved nonzero"
        elif isinstance(sub, sp.binomial):  # the combinatorial binomial: SymPy's gamma rewriting holds there only
            if not all(a.is_integer and scope.prove_nonnegative(a).ok for a in sub.args):
                return f"`{sp.sstr(sub)}` has arguments not proved nonnegative integers"
        elif isinstance(sub, sp.factorial):  # the gamma function's poles are at the negative integers
            if not (sub.args[0].is_integer and scope.prove_nonnegative(sub.args[0]).ok):
                return f"`{sp.sstr(sub)}` needs an argument proved a nonnegative integer"
        elif not isinstance(sub, DEFINED_EVERYWHERE):
            return f"`{sp.sstr(sub)}` is not known to be defined everywhere (a function with poles?)"
    return None


def _interval(lo, hi, open_: bool) -> str:
    return ("(" if open_ else "[") + f"{sp.sstr(lo)}, {sp.sstr(hi)}" + (")" if open_ else "]")


@dataclass
class Stationary(Step):
    """``point`` is a stationary point of ``expr`` in ``var``; with ``kind``
    'min' or 'max' the second derivative's sign is proved (or, failing a
    proof, spot-checked and labelled numeric).

    The point must lie in ``var``'s range, or, with ``over=(low, high)``, in
    that open interval (for an unconstrained optimum, e.g. ``over=(0, oo)``);
    proved, or checked numerically and labelled so."""

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
        f = sp.lambdify(self.symbol, self.equation, modules="mpmath")
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
ANALYTIC = (sp.exp, sp.log, sp.sin, sp.cos, sp.tan, sp.atan, sp.sinh, sp.cosh, sp.tanh)


@dataclass
class Limit(Step):
    """``lim_{var -> point} expr = value``, computed by SymPy."""

    expr: object = None
    var: object = None
    point: object = None
    value: object = None

    def __init__(self, id, expr, var, point, value, text=""):
        super().__init__(id, text)
        self.expr, self.var, self.point, self.value = sp.sympify(expr), var, sp.sympify(point), sp.sympify(value)

    @property
    def claim(self):
        return sp.Eq(sp.Limit(self.expr, self.var, self.point), self.value, evaluate=False)

    @property
    def numeric_claim(self):
        return None

    def check(self, d, ctx):
        for sub in sp.preorder_traversal(self.expr):
            if isinstance(sub, (sp.Function, sp.Piecewise)) and not isinstance(sub, ANALYTIC):
                # SymPy takes the branch that holds at the point itself: lim_{x->0+} Piecewise((0, x <= 0), (t, True))
                # came out 0
                return StepResult(self, False, "sympy", f"SymPy's limit is trusted for analytic functions only, and "
                                  f"{sp.sstr(sub.func)} is not one")
        scope = d.scope(self.where)
        # a symbol naming a Lean term is an arbitrary real here: its declared range is no fact about the term
        named = sorted(map(str, (self.expr.free_symbols | self.value.free_symbols) & set(scope.names)))
        if named:
            return StepResult(self, False, "sympy", f"the limit involves {', '.join(named)}, which name Lean terms: "
                              "arbitrary reals here, whose declared ranges say nothing about the terms")
        try:
            got = sp.limit(self.expr, self.var, self.point)
        except (NotImplementedError, ValueError) as exc:
            return StepResult(self, False, "sympy", f"SymPy could not take the limit: {exc}")
        if isinstance(got, sp.Limit) or got.has(sp.nan, sp.AccumBounds):
            return StepResult(self, False, "sympy", f"SymPy could not determine the limit ({sp.sstr(got)})")
        why = undefined_somewhere(scope.plain(self.value), scope)
        if why:
            return StepResult(self, False, "sympy", f"the stated limit is not defined on the whole domain: {why}")
        ok = scope.prove_zero(got - self.value).ok if got.is_finite is not False else got == self.value
        detail = f"SymPy computes the limit: {sp.sstr(got)}"
        if ok:
            problem = self._cross_check(scope)
            if problem:
                return StepResult(self, False, "sympy", detail + f"; {problem}")
            if (self.expr.free_symbols | self.value.free_symbols) - {self.var}:
                # SymPy's limit with symbolic parameters decides signs it cannot know (a window of the parameters
                # where it is wrong can be narrower than any sample): agreement at samples is evidence only
                return StepResult(self, True, "numeric", detail + f" with symbolic parameters, and again at "
                                  f"{self.SAMPLES * 2} sampled parameter values, where the values approaching it "
                                  "agree too: not a proof for every parameter value")
        return StepResult(self, ok, "sympy", detail)

    def _approach(self, values: dict) -> str | None:
        """Why the expression at points approaching the limit (300 digits) does not tend to the claimed value
        at the parameter values ``values``, or None: a refutation, never a proof (SymPy 1.14 gives 1 for the
        limit of cosh(x)**2 - sinh(x)**2 - 1, which is 0 everywhere)."""
        f, v = self.expr.xreplace(values), self.value.xreplace(values)
        p = self.point
        if p is sp.oo:
            xs = [sp.Integer(10) ** k for k in (3, 6, 12, 24)]
        elif p is -sp.oo:
            xs = [-sp.Integer(10) ** k for k in (3, 6, 12, 24)]
        else:
            xs = [p + sp.Integer(10) ** -k for k in (3, 6, 12, 24)]  # SymPy's default direction: from above
        try:
            with mpmath.workdps(300):
                ys = [sp.N(f, 300, subs={self.var: x}) for x in xs]
            if not all(y.is_real and y.is_finite for y in ys):
                return None  # no verdict from a value that is not a finite real
            if v is sp.oo or v is -sp.oo:
                sign = 1 if v is sp.oo else -1
                grows = all(sign * b > sign * a for a, b in zip(ys, ys[1:])) and sign * ys[-1] > 0
                return None if grows else (f"but the values at {', '.join(map(sp.sstr, xs))} are "
                                           f"{', '.join(sp.sstr(sp.N(y, 4)) for y in ys)}, which do not tend to "
                                           f"{sp.sstr(v)}")
            vv = sp.N(v, 300)
            gaps = [abs(y - vv) for y in ys]
            if gaps[-1] <= sp.Float(10) ** -100 or gaps[-1] < gaps[0] * sp.Rational(9, 10):
                return None
            return (f"but the values at {', '.join(map(sp.sstr, xs))} are {', '.join(sp.sstr(sp.N(y, 4)) for y in ys)}, "
                    f"which do not approach {sp.sstr(v)}")
        except (TypeError, ValueError, ZeroDivisionError, OverflowError):
            return None

    SAMPLES = 3

    def _cross_check(self, scope) -> str | None:
        """SymPy's limit with symbolic parameters has known wrong answers
        (sympy#23525): take the limit again with the parameters fixed at
        sample values (another computation) and compare it with the value
        claimed there; ``None`` when every sample agrees, else why not."""
        params = (self.expr.free_symbols | self.value.free_symbols) - {self.var}
        if not params:
            return self._approach({})
        # the sampler's first tries are corners of the ranges: interior points too (a wrong symbolic limit may be
        # wrong only inside, `x**(a*(4 - a)) - x**2` for a in (0.59, 3.41))
        drawn = scope.domain().restricted(params).sample(self.SAMPLES + 8)
        points = drawn[:self.SAMPLES] + drawn[8:]
        if not points:
            return "no sample of the parameters to take the limit at"
        for point in points:
            values = {s: (sp.Integer(int(v)) if s.is_integer else sp.Rational(mpmath.nstr(v, 6)))
                      for s, v in point.items() if s in params}
            shown = ", ".join(f"{sp.sstr(s)} = {sp.sstr(v)}" for s, v in values.items())
            try:
                at = sp.limit(self.expr.xreplace(values), self.var, self.point)
            except (NotImplementedError, ValueError) as exc:
                return f"SymPy could not take the limit at {shown} to confirm it: {exc}"
            claimed = self.value.xreplace(values)
            if at.is_finite is False or claimed.is_finite is False:
                agree = at == claimed
            else:
                with mpmath.workdps(numeric.DIGITS):
                    a, c = sp.N(at, numeric.DIGITS), sp.N(claimed, numeric.DIGITS)
                    agree = bool(a.is_number and c.is_number and not a.has(sp.nan, sp.AccumBounds, sp.Limit)
                             and abs(a - c) <= sp.Float(10) ** (-numeric.DIGITS + 10) * (1 + abs(c)))
            if not agree:
                return (f"but at {shown} the limit is {sp.sstr(at)}, not {sp.sstr(claimed)} (SymPy's limit with "
                        "symbolic parameters is wrong here)")
            away = self._approach(values)
            if away:
                return f"at {shown}, {away}"
        return None


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
