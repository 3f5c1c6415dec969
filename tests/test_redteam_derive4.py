"""Red team, fourth round on the derivation verifier: three false steps that verified.

A symbol's sign assumption came from SymPy's sign of its lower bound (wrong for 1/(k + s) - 1 with integers);
a symbol named `e` took the place of Euler's number in every compiled spot-check; a limit whose values
approaching it could not be evaluated (complex at 300 digits) kept SymPy's wrong value as proved.  Each test
plants one and asserts it is rejected, next to a true neighbour that must still verify.
"""

from __future__ import annotations

import sympy as sp

from pysym.derive import Bound, Derivation, Limit, Numeric, Sign, Var
from pysym.derive.numeric import Domain, Range


def _detail(report) -> str:
    return " | ".join(f"{s.step.id}: {s.detail}" for s in report.steps)


def test_a_lower_bound_gives_a_sign_only_by_the_provers_rules():
    # y >= 1/(k + s) - 1 with integers k >= 1, s >= 0: y = -1/2 at k = 2, s = 0; SymPy calls the bound
    # nonnegative, y became a nonnegative symbol and `0 <= y` was proved (unbounded above: nothing sampled)
    def derivation(low):
        k = Var("k", 1, 10, integer=True)
        s = Var("s", 0, 10, integer=True)
        y = Var("y", low(k.symbol, s.symbol), None)
        return Derivation("f1", "y is nonnegative", vars=[k, s, y],
                          steps=[Bound("pos", 0, y.symbol, by=Sign())], conclusion="pos").verify({})

    bad = derivation(lambda k, s: 1 / (k + s) - 1)
    assert not bad.ok and "no sign rule shows" in _detail(bad), _detail(bad)
    assert derivation(lambda k, s: 1 / (k + s)).ok  # a bound the sign rules prove positive still gives the sign
    assert Var("y", "1/(k + s) - 1", None).symbol.is_nonnegative is None


def test_a_symbol_named_like_a_constant_is_not_that_constant_in_the_spot_check():
    # E + e/2 <= 2e fails at e = 1 (3.22 > 2); the compiled check computed e + e/2 <= 2e
    def derivation(lhs):
        e = Var("e", 1, 2)
        return Derivation("f2", "claim", vars=[e], steps=[Bound("b", lhs(e.symbol), 2 * e.symbol, by=Numeric())],
                          conclusion="b").verify({})

    bad = derivation(lambda e: sp.E + e / 2)
    assert not bad.ok and "fails" in _detail(bad), _detail(bad)
    assert derivation(lambda e: sp.E / 4 + e / 2).ok  # E/4 + e/2 <= 2e: true for e >= 1


def test_a_limit_whose_approach_cannot_be_evaluated_is_not_confirmed():
    # cosh(x)**2 - sinh(x)**2 is 1: SymPy's limit of its log at oo is 1 (it is 0), and 300 digits at x = 10**6
    # give a complex number, which used to count as no verdict
    x = sp.Symbol("x", positive=True)
    t = Var("t", 1, 2)

    def derivation(expr, value):
        return Derivation("f3", "lim", vars=[t], steps=[Limit("L", expr, x, sp.oo, value)], conclusion="L").verify({})

    bad = derivation(sp.log(sp.cosh(x) ** 2 - sp.sinh(x) ** 2), 1)
    assert not bad.ok and "does not evaluate to a finite real number" in _detail(bad), _detail(bad)
    assert derivation(sp.log(1 + 1 / x), 0).ok


def test_a_limit_whose_values_settle_away_from_the_claimed_value_is_refuted():
    # cosh(log x)**2 - sinh(log x)**2 - 1 - 10**6/x is -10**6/x, which tends to 0; SymPy's limit is 1, and the
    # values (-1000, -1, -1e-6, -1e-18) came closer to 1 from the first point to the last, which was enough
    x = Var("x", 1, None)
    X = x.symbol

    def derivation(expr, value):
        return Derivation("f4", "lim", vars=[x], steps=[Limit("L", expr, X, sp.oo, value)], conclusion="L").verify({})

    g = sp.log(X)
    bad = derivation(sp.cosh(g) ** 2 - sp.sinh(g) ** 2 - 1 - 10**6 / X, 1)
    assert not bad.ok and "which do not approach 1" in _detail(bad), _detail(bad)
    # slow limits still verify: 1/log(log(x)) -> 0, log(log(x)) -> oo, x*exp(-x/10**4) -> 0
    for expr, value in ((1 / sp.log(g), 0), (sp.log(g), sp.oo), (X * sp.exp(-X / 10**4), 0)):
        assert derivation(expr, value).ok, sp.sstr(expr)


def test_a_range_from_zero_is_sampled_at_every_scale():
    # x <= x**2 fails on (0, 1): uniform draws on [0, 10**6] land there once in a million, and the corners 0 and
    # 10**6 satisfy it, so the numeric check passed
    def derivation(high):
        x = Var("x", 0, high)
        return Derivation("f5", "t", vars=[x], steps=[Bound("b", x.symbol, x.symbol**2, by=Numeric())],
                          conclusion="b").verify({})

    bad = derivation(10**6)
    assert not bad.ok and "fails" in _detail(bad), _detail(bad)
    x = Var("x", 0, 10**6)
    drawn = [p[x.symbol] for p in Domain([Range(x.symbol, 0, 10**6)]).sample(120)]
    assert sum(1 for v in drawn if 0 < v < 1) >= 20 and max(drawn) == 10**6
