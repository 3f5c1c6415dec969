"""Red team, second round on the derivation verifier: false steps that verified, each planted here.

An adversary given only the public step API found six ways to get a false claim reported as verified
(with a concrete counterexample each): values that are not real given a sign, SymPy's wrong limit
with symbolic parameters, a monotone map proved increasing at the integers only, numeric evidence
within rounding of a violation, a step resting on numeric-only evidence labelled proved, and a small
value taken for a root.  Each test plants one and asserts it is rejected (or labelled as what it is);
each is paired with a true neighbour that must still verify, so the fix is not "reject everything".
"""

from __future__ import annotations

import mpmath
import pytest
import sympy as sp

from pysym.derive.core import Bound, Combine, Computed, Derivation, Limit, Monotone, Numeric, Sign, Var
from pysym.derive.prove import prove_nonnegative, prove_positive

TINY = sp.Rational(1, 10**12)
x_pos = sp.Symbol("x", positive=True)


# --------------------------------------------------------------------------- signs of values that are not real


@pytest.mark.parametrize("prover, expr, where", [
    # sqrt of a negative number squared is negative: an even power has a sign only when its base is real
    (prove_nonnegative, (sp.sqrt(x_pos - 5) + sp.sqrt(x_pos - 6)) ** 2, 1),
    (prove_nonnegative, sp.log(x_pos - 2) ** 2, 1),  # log(-1)**2 = (I pi)**2 = -pi**2
    # 2**(I t) = cos(t log 2) + I sin(t log 2): a positive base to an imaginary power has no sign
    (prove_positive, 2 ** sp.sqrt(x_pos - 21) + 2 ** (-sp.sqrt(x_pos - 21)), 1),
])
def test_a_power_of_a_value_that_may_not_be_real_has_no_sign(prover, expr, where):
    value = sp.N(expr.subs(x_pos, where), 30)
    assert sp.re(value) < 0 and abs(sp.im(value)) < 1e-25  # the counterexample: real and negative at x = 1
    assert not prover(expr, [(x_pos, 10)]).ok


@pytest.mark.parametrize("prover, expr", [
    (prove_nonnegative, (x_pos - 3) ** 2), (prove_positive, (x_pos - 3) ** 2 + 1), (prove_positive, 2 ** sp.sqrt(x_pos)),
    (prove_nonnegative, sp.log(x_pos + 1) ** 2), (prove_positive, 3 ** (x_pos - 7)),
])
def test_powers_of_real_values_keep_their_sign(prover, expr):
    assert prover(expr, [(x_pos, 10)]).ok


def _one_step(step, *vars_):
    return Derivation("rt", "red team", vars=list(vars_), conclusion=step.id, steps=[step]).verify()


def test_a_bound_by_sign_on_an_even_power_of_an_imaginary_value_is_rejected():
    x = Var("x", 0, 2)
    u = (x.symbol - 1) ** 2 - TINY  # negative only for |x - 1| < 1e-6, which no sample hits
    rhs = (sp.sqrt(u) + sp.sqrt(u - TINY)) ** 2
    assert sp.N(rhs.subs(x.symbol, 1)) < 0
    assert not _one_step(Bound("b", 0, rhs, by=Sign()), x).ok


def test_a_strict_bound_by_sign_with_an_imaginary_exponent_is_rejected():
    x = Var("x", 0, 2)
    u = 2 * 10**13 * ((x.symbol - 1) ** 2 - TINY)  # -20 at x = 1
    f = 2 ** sp.sqrt(u) + 2 ** (-sp.sqrt(u))
    assert sp.re(sp.N(f.subs(x.symbol, 1))) < 0
    assert not _one_step(Bound("b", 0, f, by=Sign(), strict=True), x).ok


# --------------------------------------------------------------------------- limits


def test_sympys_wrong_limit_with_symbolic_parameters_is_caught_at_sample_values():
    # sympy#23525: the acoustic branch's slope at k = 0 is a sqrt(C / (2 (M1 + M2))), but with symbolic
    # parameters sp.limit says 0
    C, M1, M2, a = (Var(n, 1, 2) for n in ("C", "M_1", "M_2", "a"))
    k = Var("k", -1, 1)
    Cs, m1, m2, A, K = C.symbol, M1.symbol, M2.symbol, a.symbol, k.symbol
    omega = sp.sqrt(2 * Cs * ((m1 + m2) - sp.sqrt((m1 + m2) ** 2 - m1 * m2 * (2 - 2 * sp.cos(K * A)))) / (2 * m1 * m2))
    slope = sp.diff(omega, K)
    assert sp.limit(slope, K, 0) == 0  # the wrong answer this test is about
    report = _one_step(Limit("v0", slope, K, 0, 0), C, M1, M2, a, k)
    r = report.result("v0")
    assert not r.ok and "at C = " in r.detail and "the limit is" in r.detail
    # the true value cannot be verified either (SymPy's symbolic answer disagrees with it): not verified, not false
    true = A * sp.sqrt(Cs / (2 * (m1 + m2)))
    assert not _one_step(Limit("v0", slope, K, 0, true), C, M1, M2, a, k).ok


def test_a_true_limit_with_parameters_still_verifies():
    b, n = Var("b", 1, 3), Var("n", 1, sp.oo)
    report = _one_step(Limit("l", sp.log(n.symbol) / n.symbol ** b.symbol, n.symbol, sp.oo, 0), b, n)
    assert report.ok, report.result("l").detail


# --------------------------------------------------------------------------- monotone maps


def test_a_map_increasing_only_at_the_integers_is_not_monotone():
    K = sp.Integer(10) ** 12
    y = Var("y", -1, 1)
    u = sp.Symbol("u", integer=True)
    f = sp.Lambda(u, (2 * K * u - 1) ** 3 / (6 * K) - u)  # f' = (2Ku - 1)^2 - 1: -1 at u = 1/(2K)
    D = 1 / (2 * K)
    y0 = 1 / (4 * K)
    assert f(y0) > f(y0 + D)  # the counterexample
    d = Derivation("rt", "integer map variable", vars=[y], conclusion="m", steps=[
        Bound("p", y.symbol, y.symbol + D, by=Sign()), Bound("m", f(y.symbol), f(y.symbol + D), by=Monotone(f, "p"))])
    r = d.verify().result("m")
    assert not r.ok and "not integer" in r.detail
    v = sp.Symbol("v", real=True)  # the same map of a real variable: its derivative is not >= 0 everywhere
    assert not Derivation("rt", "real map", vars=[y], conclusion="m", steps=[
        Bound("p", y.symbol, y.symbol + D, by=Sign()),
        Bound("m", f(y.symbol), f(y.symbol + D), by=Monotone(sp.Lambda(v, f.expr.xreplace({u: v})), "p"))]).verify().ok


# --------------------------------------------------------------------------- numeric evidence and its label


def test_numeric_evidence_within_rounding_of_a_violation_is_rejected():
    x = Var("x", 1, 2)
    big = x.symbol * sp.Integer(10) ** 100
    r = _one_step(Bound("n", big + 1, big, by=Numeric()), x).result("n")  # false by 1 everywhere
    assert not r.ok and "fails by a relative 5.0e-101 (seen at 200 digits)" in r.detail


def test_a_step_resting_on_numeric_evidence_is_labelled_numeric_not_proved():
    x = Var("x", 1, 2)
    X = x.symbol
    t = sp.Symbol("t", real=True)
    d = Derivation("rt", "label", vars=[x], conclusion="c", steps=[
        Bound("n", X, sp.exp(X - 1), by=Numeric()),  # true (e^(x-1) >= x), and here only checked numerically
        Bound("c", 2 * X, 2 * sp.exp(X - 1), by=Combine({"n": 2})),
        Bound("m", sp.exp(X), sp.exp(sp.exp(X - 1)), by=Monotone(sp.Lambda(t, sp.exp(t)), "n")),
        Bound("s", X, X + 1, by=Sign())])
    report = d.verify()
    assert report.ok
    methods = {r.step.id: r.method for r in report.steps}
    assert methods == {"n": "numeric", "c": "numeric", "m": "numeric", "s": "sympy"}, methods
    assert "rests on `n`, checked numerically only" in report.result("c").detail


# --------------------------------------------------------------------------- roots


@pytest.mark.parametrize("equation, guess", [
    (lambda t: sp.exp(-t), 100),  # positive everywhere: findroot stops where it is 1e-53
    (lambda t: 1 / (1 + t ** 2), 10**30),
])
def test_a_small_value_is_not_a_root(equation, guess):
    t = sp.Symbol("t", real=True)
    r = _one_step(Computed("r", t, equation(t), guess)).result("r")
    assert not r.ok and "does not change sign" in r.detail


def test_a_crossing_root_is_still_found():
    t = sp.Symbol("t", real=True)
    r = _one_step(Computed("r", t, sp.exp(t) - 3, 1)).result("r")
    assert r.ok, r.detail
    assert abs(mpmath.mpf(str(r.step.value)) - mpmath.log(3)) < 1e-35


# --------------------------------------------------------------------------- a second round


def test_sympys_sign_of_atan_at_an_integer_is_not_trusted():
    # SymPy 1.14: atan(n).is_positive is True for a nonnegative integer n, though atan(0) = 0
    n = Var("n", 0, 10**6, integer=True)
    claim = sp.atan((n.symbol - 777777) ** 2)
    assert claim.subs(n.symbol, 777777) == 0
    assert not prove_positive(sp.atan(n.symbol)).ok
    assert not _one_step(Bound("pos", 0, claim, by=Sign(), strict=True), n).ok
    assert prove_positive(sp.exp(n.symbol) + sp.log(n.symbol + 2)).ok  # vetted functions still count


def test_a_kink_is_not_a_stationary_point():
    from pysym.derive.core import Stationary

    x = Var("x", -1, 1)
    X = x.symbol
    f = sp.Piecewise((X ** 2, X <= 0), (X ** 2 - X, True))  # f(0.1) = -0.09 < f(0) = 0
    r = _one_step(Stationary("opt", f, X, 0, kind="min"), x).result("opt")
    assert not r.ok and "not known to be smooth" in r.detail
    assert _one_step(Stationary("opt", X ** 2, X, 0, kind="min"), x).ok


def test_sympys_limit_of_a_piecewise_at_its_break_is_not_trusted():
    x, t = Var("x", 0, 1), Var("t", 1, 10)
    f = sp.Piecewise((0, x.symbol <= 0), (t.symbol, True))  # the limit from above is t
    r = _one_step(Limit("L", f, x.symbol, 0, 0), x, t).result("L")
    assert not r.ok and "analytic functions only" in r.detail


@pytest.mark.parametrize("lhs, rhs, bad", [
    (lambda x, y, n: sp.tan(x) * sp.cos(x), lambda x, y, n: sp.sin(x), "tan(x)"),  # undefined at x = pi/2
    (lambda x, y, n: y * sp.gamma(y), lambda x, y, n: sp.gamma(y + 1), "gamma(y)"),  # undefined at y = 0
    # (x - 1/3)**n with n in [-3, -1]: undefined at x = 1/3, though SymPy does not know n < 0
    (lambda x, y, n: sp.Mul((x - sp.Rational(1, 3)) ** n, x - sp.Rational(1, 3), evaluate=False),
     lambda x, y, n: (x - sp.Rational(1, 3)) ** (n + 1), "x - 1/3"),
])
def test_an_identity_undefined_at_a_point_of_the_domain_is_rejected(lhs, rhs, bad):
    from pysym.derive.core import Identity

    x, y, n = Var("x", 0, 3), Var("y", "-1/2", "1/2"), Var("n", -3, -1, integer=True)
    r = _one_step(Identity("i", lhs(x.symbol, y.symbol, n.symbol), rhs(x.symbol, y.symbol, n.symbol)), x, y, n)
    assert not r.ok and bad in r.result("i").detail
    assert _one_step(Identity("i", sp.log(x.symbol + 1) * 2, sp.log((x.symbol + 1) ** 2)), x).ok
