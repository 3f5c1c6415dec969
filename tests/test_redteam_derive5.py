"""Red team, fifth round on the derivation verifier: two false steps that verified, both through an integer
symbol treated as if it could be read between the integers.

An integer range [1/2, T] holds no integer for T < 1, but only `T - 1/2 >= 0` was asked, and a step then proved
`1 <= T` on T's declared [1/2, oo); a stationary point of a function of an integer symbol was checked smooth on
`over` with the symbol's integer assumptions (n - 1/2 > 0 because n >= 1).  Each test plants one and asserts it
is rejected, next to a true neighbour that must still verify.
"""

from __future__ import annotations

import sympy as sp

from pysym.derive import Bound, Combine, Derivation, Sign, Stationary, Var

HALF = sp.Rational(1, 2)


def _detail(report) -> str:
    return " | ".join(f"{s.step.id}: {s.detail}" for s in report.steps)


def test_an_integer_range_must_hold_an_integer_for_every_value_of_its_bounds():
    def derivation(low):
        T = Var("T", low, None, "experts")
        n = Var("n", HALF, "T", "an integer count", integer=True)
        steps = [Bound("p", n.symbol, T.symbol, by=Sign()), Bound("q", 1, n.symbol, by=Sign()),
                 Bound("c", 1, T.symbol, by=Combine({"p": 1, "q": 1}))]
        return Derivation("f1", "an integer below T", vars=[T, n], steps=steps, conclusion="c").verify({})

    bad = derivation(HALF)  # 1 <= T, false at T = 7/10
    assert not bad.ok and "the range of n, [1/2, T], is not proved to hold an integer" in _detail(bad), _detail(bad)
    assert derivation(1).ok, _detail(derivation(1))  # T >= 1: [1/2, T] holds the integer 1


def test_a_stationary_point_of_an_integer_symbol_is_refused():
    def derivation(integer):
        n = Var("n", 1, 3, "a count", integer=integer)
        f = (n.symbol - HALF) ** sp.Rational(5, 2) + (n.symbol - HALF) ** 2
        step = Stationary("s", f, n.symbol, HALF, kind="min", over=(sp.Rational(1, 4), sp.oo))
        return Derivation("f2", "a minimum", vars=[n], steps=[step], conclusion="s").verify({})

    bad = derivation(True)  # (n - 1/2)**(5/2) is not real on (1/4, 1/2): n - 1/2 > 0 only at the integers
    assert not bad.ok and "integer symbol" in _detail(bad), _detail(bad)
    assert not derivation(False).ok  # the real variable was already refused: not smooth on `over`
    good = Derivation("f3", "a minimum", vars=[Var("x", 1, 3)],
                      steps=[Stationary("s", (sp.Symbol("x", positive=True) - 2) ** 2, sp.Symbol("x", positive=True),
                                        2, kind="min")], conclusion="s").verify({})
    assert good.ok, _detail(good)
