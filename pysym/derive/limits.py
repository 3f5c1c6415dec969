"""The :class:`Limit` step: a limit SymPy computes, cross-checked where SymPy is known to go wrong.

SymPy's limit is trusted for analytic functions only (a `Piecewise` limit takes the branch at the point), is
taken again with symbolic parameters fixed at sampled values (sympy#23525) -- and then only as numeric
evidence, since a wrong window of parameters can be narrower than any sample --, and is evaluated at 300
digits at points approaching it, which must move toward the claimed value (a refutation, never a proof).
"""

from __future__ import annotations

from dataclasses import dataclass

import mpmath
import sympy as sp

from pysym.derive import numeric
from pysym.derive.defined import undefined_somewhere
from pysym.derive.steps import Step, StepResult

__all__ = ["ANALYTIC", "Limit", "same_limit"]


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
        limit of cosh(x)**2 - sinh(x)**2 - 1, which is 0 everywhere).  Values that cannot be evaluated (not
        finite reals: 300 digits lose cosh(x)**2 - sinh(x)**2 at x = 10**24 entirely, and its log came out
        complex) confirm nothing, so they are a reason too."""
        f, v = self.expr.xreplace(values), self.value.xreplace(values)
        p = self.point
        powers = (3, 6, 12, 24, 48, 96, 192)  # far enough for log(n)/n**(1/21) to have turned toward 0
        if p is sp.oo:
            xs = [sp.Integer(10) ** k for k in powers]
        elif p is -sp.oo:
            xs = [-sp.Integer(10) ** k for k in powers]
        else:
            xs = [p + sp.Integer(10) ** -k for k in powers]  # SymPy's default direction: from above
        try:
            with mpmath.workdps(300):
                ys = [sp.N(f, 300, subs={self.var: x}) for x in xs]
            lost = [(x, y) for x, y in zip(xs, ys) if not (y.is_real and y.is_finite)]
            if lost:
                x, y = lost[0]
                return (f"but its value at {sp.sstr(x)} does not evaluate to a finite real number at 300 digits "
                        f"({sp.sstr(sp.N(y, 4))}), so the values approaching it cannot confirm the limit")
            if v is sp.oo or v is -sp.oo:
                # growing, and not levelling off: each of the last two steps at least 0.6 of the one before (x
                # squares from point to point: log(log(x)) grows by equal steps, 1 - 1/log(x) by halving ones)
                sign = 1 if v is sp.oo else -1
                steps = [sign * (b - a) for a, b in zip(ys, ys[1:])]
                grows = all(d > 0 for d in steps) and sign * ys[-1] > 0 and \
                    all(b >= a * sp.Rational(3, 5) for a, b in zip(steps[-3:], steps[-2:]))
                return None if grows else (f"but the values at {', '.join(map(sp.sstr, xs))} are "
                                           f"{', '.join(sp.sstr(sp.N(y, 4)) for y in ys)}, which do not tend to "
                                           f"{sp.sstr(v)}")
            vv = sp.N(v, 300)
            gaps = [abs(y - vv) for y in ys]
            # the distance to the claimed value shrinks at each of the last two points (by a tenth at least), or
            # is negligible: a term large at the first point (-10**6/x) no longer hides values that settle
            # elsewhere (-1000, -1, ... -> 0 against a claimed 1)
            if gaps[-1] <= sp.Float(10) ** -100 or all(b <= a * sp.Rational(9, 10)
                                                        for a, b in zip(gaps[-3:], gaps[-2:])):
                return None
            return (f"but the values at {', '.join(map(sp.sstr, xs))} are {', '.join(sp.sstr(sp.N(y, 4)) for y in ys)}, "
                    f"which do not approach {sp.sstr(v)}")
        except (TypeError, ValueError, ZeroDivisionError, OverflowError) as exc:
            return (f"but its values approaching it could not be evaluated at 300 digits ({type(exc).__name__}), so "
                    "they cannot confirm the limit")

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
            if not same_limit(at, claimed):
                return (f"but at {shown} the limit is {sp.sstr(at)}, not {sp.sstr(claimed)} (SymPy's limit with "
                        "symbolic parameters is wrong here)")
            away = self._approach(values)
            if away:
                return f"at {shown}, {away}"
        return None


def same_limit(at, claimed) -> bool:
    """Whether a limit SymPy took with the parameters fixed (``at``) is ``claimed`` there: the same infinity, or
    finite numbers that agree to 40 digits (an unevaluated limit, ``nan`` or an ``AccumBounds`` never agrees)."""
    if at.is_finite is False or claimed.is_finite is False:
        return at == claimed
    with mpmath.workdps(numeric.DIGITS):
        a, c = sp.N(at, numeric.DIGITS), sp.N(claimed, numeric.DIGITS)
        return bool(a.is_number and c.is_number and not a.has(sp.nan, sp.AccumBounds, sp.Limit)
                    and abs(a - c) <= sp.Float(10) ** (-numeric.DIGITS + 10) * (1 + abs(c)))

