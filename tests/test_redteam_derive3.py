"""Red team, third round on the derivation verifier: four false or unproved steps that verified as `sympy`.

A range that depends on another symbol cut that symbol's declared range short without saying so; the
cross-check of SymPy's symbolic limit sampled only the corners of the parameters' ranges; an identity took the
derivative of |x| at 0; a stationary point claimed on `over` was checked for smoothness on the declared range
only.  Each test plants one and asserts it is rejected, next to a true neighbour that must still verify.
"""

from __future__ import annotations

import sympy as sp

from pysym.derive import Bound, Combine, Derivation, Identity, Limit, Sign, Stationary, Var


def _detail(report) -> str:
    return " | ".join(f"{s.step.id}: {s.detail}" for s in report.steps)


def test_a_range_that_depends_on_another_symbol_must_not_be_empty_for_any_of_its_values():
    # k in [2, T] with T in [1/2, oo): for T < 2 no k exists, and `2 <= T` (false at T = 1) verified
    def derivation(t_low):
        T = Var("T", t_low, None, "experts")
        k = Var("k", 2, "T", "active experts")
        return Derivation("c2", "T >= 2", vars=[T, k], steps=[
            Bound("p", k.symbol, T.symbol, by=Sign()),
            Bound("q", 2, k.symbol, by=Sign()),
            Bound("c", 2, T.symbol, by=Combine({"p": 1, "q": 1}))], conclusion="c").verify()

    bad = derivation(sp.Rational(1, 2))
    assert not bad.ok and "the range of k, [2, T], is not proved nonempty" in _detail(bad), _detail(bad)
    assert derivation(2).ok  # T declared from 2 on: the same steps are a true statement about the declared ranges
    # a nonempty range proved by interval arithmetic where the sign prover cannot (the minimax risk's range)
    beta, n = Var("beta", sp.Rational(1, 10), 10), Var("n", 10, 10**15)
    c = Var("c", sp.Rational(1, 10**6), 1)
    r = Var("r", "c*n**(-2*beta/(2*beta + 1))", 1)
    ok = Derivation("nonempty", "t", vars=[beta, n, c, r],
                    steps=[Bound("b", 0, 1, by=Sign())], conclusion="b").verify()
    assert ok.ok, _detail(ok)


def test_a_symbolic_limit_is_cross_checked_inside_the_parameter_range_not_only_at_its_corners():
    # x**(a(4-a)) - x**2 -> -oo only where a(4-a) < 2; SymPy says -oo for every a, wrong for a in (0.59, 3.41)
    a = Var("a", sp.Rational(1, 2), sp.Rational(7, 2))
    x = sp.Symbol("x", positive=True)
    r = Derivation("lim", "t", vars=[a], steps=[Limit("lim", x**(a.symbol*(4 - a.symbol)) - x**2, x, sp.oo, -sp.oo)],
                   conclusion="lim").verify()
    assert not r.ok and "the limit is oo, not -oo" in _detail(r), _detail(r)
    b = Var("b", sp.Rational(1, 2), 1)  # b**2 < 2 throughout: the limit is -oo
    ok = Derivation("lim", "t", vars=[b], steps=[Limit("lim", x**(b.symbol**2) - x**2, x, sp.oo, -sp.oo)],
                    conclusion="lim").verify()
    assert ok.ok, _detail(ok)


def test_an_identity_with_a_derivative_needs_what_it_differentiates_smooth():
    # d|x|/dx at 0 does not exist; SymPy reads it as sign(0) = 0
    x = Var("x", -1, 1, integer=True)
    X = x.symbol
    r = Derivation("abs", "t", vars=[x], steps=[
        Identity("d0", sp.Subs(sp.Derivative(sp.Abs(X), X), X, 0), 0)], conclusion="d0").verify()
    assert not r.ok and "may not exist" in _detail(r), _detail(r)
    y = Var("y", 1, 2)  # a substitution outside the range is refused, one inside verifies
    Y = y.symbol
    out = Derivation("s", "t", vars=[y], steps=[Identity("s", sp.Subs(sp.Derivative(Y**3, Y), Y, 5), 75)],
                     conclusion="s").verify()
    assert not out.ok and "not proved inside the range" in _detail(out), _detail(out)
    inside = Derivation("s", "t", vars=[y], steps=[Identity("s", sp.Subs(sp.Derivative(Y**3, Y), Y, 2), 12)],
                        conclusion="s").verify()
    assert inside.ok, _detail(inside)


def test_a_stationary_point_on_over_needs_smoothness_on_over():
    # (x-3)^2 + (3-x)^(5/2) is not real right of 3: x = 3 is no minimum on (0, oo), though smooth on [1, 2]
    x = Var("x", 1, 2)
    X = x.symbol
    r = Derivation("m", "t", vars=[x], steps=[
        Stationary("m", (X - 3)**2 + (3 - X)**sp.Rational(5, 2), X, 3, kind="min", over=(0, sp.oo))],
        conclusion="m").verify()
    assert not r.ok and "not known to be smooth" in _detail(r), _detail(r)
    ok = Derivation("m", "t", vars=[x], steps=[Stationary("m", (X - 3)**2 + X, X, sp.Rational(5, 2), kind="min",
                                                          over=(0, sp.oo))], conclusion="m").verify()
    assert ok.ok, _detail(ok)


def test_a_binder_applied_as_a_function_carries_what_its_type_depends_on():
    # round 9 (Lean): `∀ (m : Nat) (f : Nat → Box m), (f 0).v = m` read `f 0` as one function `f` whatever m is
    # bound to: naming `(f 0).v` V at m := 3 and at m := 4 concluded V = 3 and 4 = V, hence V + 1 <= V
    from pysym.derive import Assumption, Premise

    statements = {"RtLean2.box_app": "∀ (m : Nat) (f : Nat → RtLean2.Box m), (f 0).v = m",
                  "RtLean2.box_app_symm": "∀ (m : Nat) (f : Nat → RtLean2.Box m), m = (f 0).v"}
    V = Var("V", -100, 100)
    hyp = {"Nonempty (Nat → RtLean2.Box m)": "A"}

    def premise(pid, lean, rel, m):
        return Premise(pid, lean, rel, bind={"m": m}, terms={"v(f(0))": V.symbol}, hypotheses=hyp)

    def run(m3, m4):
        return Derivation("h2", "t", vars=[V], steps=[
            premise("q3", "RtLean2.box_app", sp.Eq(V.symbol, m3), m3),
            premise("q4", "RtLean2.box_app_symm", sp.Eq(m4, V.symbol), m4),
            Bound("bad", V.symbol + 1, V.symbol, by=Combine({"q3": 1, "q4": 1}))], conclusion="bad",
            assumptions=[Assumption("A", "Box m is inhabited")]).verify(statements)

    r = run(3, 4)
    assert not r.ok and "already names another term" in _detail(r), _detail(r)
    same = run(3, 3)  # one binding: one term, and the two premises agree (the bound step is then false)
    assert same.result("q3").ok and same.result("q4").ok, _detail(same)


# --------------------------------------------------------------------------- a second round

def test_a_limit_without_parameters_is_checked_where_it_is_approached():
    # SymPy 1.14: lim_{x -> oo} cosh(x)^2 - sinh(x)^2 - 1 = 1, though the expression is 0 everywhere
    x = Var("x", 1, None)
    X = x.symbol
    r = Derivation("l", "t", vars=[x], steps=[Limit("lim", sp.cosh(X)**2 - sp.sinh(X)**2 - 1, X, sp.oo, 1)],
                   conclusion="lim").verify()
    assert not r.ok and "which do not approach 1" in _detail(r), _detail(r)
    slow = Derivation("l", "t", vars=[x], steps=[Limit("lim", 1 / sp.log(X + 1), X, sp.oo, 0)],
                      conclusion="lim").verify()  # a true limit approached slowly still verifies
    assert slow.ok, _detail(slow)
    up = Derivation("l", "t", vars=[x], steps=[Limit("lim", X**2 - X, X, sp.oo, sp.oo)], conclusion="lim").verify()
    assert up.ok, _detail(up)


def test_a_bound_or_a_weight_undefined_somewhere_on_the_domain_is_not_proved():
    from pysym.derive import Assumed, Assumption

    n = Var("n", 0, 10**6, integer=True)
    N = n.symbol
    gap = (N - 1)**2 * ((N - 1)**2 - sp.Rational(1, 2))  # >= 0 at every integer; the weight has a pole at n = 1
    r = Derivation("w", "t", vars=[n], assumptions=[Assumption("A1", "true at every integer")], steps=[
        Bound("gap", 0, gap, by=Assumed("A1")),
        Bound("bad", sp.Rational(1, 2), (N - 1)**2, by=Combine({"gap": (N - 1)**-2}))], conclusion="bad").verify()
    assert not r.ok and "not defined on the whole domain" in _detail(r), _detail(r)
    x = Var("x", 0, 2)
    X = x.symbol
    pole = Derivation("s", "t", vars=[x], steps=[Bound("b", 0, 1 / (X - 1)**2, by=Sign())], conclusion="b").verify()
    assert not pole.ok and "not proved nonzero" in _detail(pole), _detail(pole)
    # a Limit object inside a bound is not evaluated behind the Limit step's back
    y = sp.Symbol("y", real=True)
    lim = sp.Limit(sp.Piecewise((0, y <= 0), (X + 1, True)), y, 0)
    hidden = Derivation("h", "t", vars=[x], steps=[Bound("b", lim, 0, by=Sign())], conclusion="b").verify()
    assert not hidden.ok, _detail(hidden)
    fine = Derivation("f", "t", vars=[x], steps=[Bound("b", 0, 1 / (X + 1)**2, by=Sign())], conclusion="b").verify()
    assert fine.ok, _detail(fine)


def test_a_limit_may_not_read_the_range_of_a_symbol_naming_a_lean_term():
    from pysym.derive import Premise

    statements = {"MoeTheory.length_masks": "∀ (T k : Nat), (MoeTheory.masks T k).length = MoeTheory.choose T k"}
    T, k = Var("T", 1, 5, integer=True), Var("k", 1, 10, integer=True)
    L, x = Var("L", 1, 100, integer=True), Var("x", 1, None)
    r = Derivation("n", "t", vars=[T, k, L, x], steps=[
        Premise("len", "MoeTheory.length_masks", sp.Eq(L.symbol, sp.binomial(T.symbol, k.symbol)),
                bind={"T": T.symbol, "k": k.symbol}, terms={"length(MoeTheory.masks(T, k))": L.symbol}),
        Limit("lim", x.symbol**(-L.symbol), x.symbol, sp.oo, 0)], conclusion="lim").verify(statements)
    assert not r.ok and "name Lean terms" in _detail(r), _detail(r)  # L = C(1, 2) = 0 there: the limit is 1


def test_a_step_that_differentiates_does_not_take_a_named_lean_term_for_a_constant():
    # X names (List.replicate T 0).length, which is T: d/dT (X + T**2) at T = 0 is 1, not 0
    from pysym.derive import Premise

    statements = {"Rt.rep_len": "∀ (n : Nat), (List.replicate n 0).length = n"}
    T, X = Var("T", 0, 10, integer=True), Var("X", 0, 10)
    name = Premise("len", "Rt.rep_len", sp.Eq(X.symbol, T.symbol), bind={"n": T.symbol},
                   terms={"length": X.symbol})
    stat = Derivation("s", "t", vars=[T, X], steps=[
        name, Stationary("s", X.symbol + T.symbol**2, T.symbol, 0, kind="min")], conclusion="s").verify(statements)
    assert not stat.ok and "name" in stat.result("s").detail and "Lean terms" in stat.result("s").detail, \
        _detail(stat)
    ident = Derivation("i", "t", vars=[T, X], steps=[
        name, Identity("i", sp.Derivative(X.symbol + T.symbol**2, T.symbol), 2 * T.symbol)],
        conclusion="i").verify(statements)
    assert not ident.ok and "Lean terms" in ident.result("i").detail, _detail(ident)


# --------------------------------------------------------------------------- a third round

def test_every_symbol_a_step_states_is_a_symbol_of_the_derivation():
    a, x = Var("a", -1, 1), Var("x", 1, None)
    fake = sp.Symbol("a", positive=True)  # prints as `a`; is not the declared a in [-1, 1]
    r = Derivation("s", "t", vars=[a, x], steps=[Limit("l", x.symbol**(-fake), x.symbol, sp.oo, 0)],
                   conclusion="l").verify()
    assert not r.ok and "not a symbol of the derivation" in _detail(r), _detail(r)


def test_a_limit_with_symbolic_parameters_is_evidence_not_a_proof():
    # x**(2 + 1e-6 - (a - 1/2)**2) - x**2 -> -oo except for |a - 1/2| < 1e-3: no sample finds the window
    a, x = Var("a", sp.Rational(1, 10), 1), Var("x", 1, None)
    e = x.symbol**(2 + sp.Rational(1, 10**6) - (a.symbol - sp.Rational(1, 2))**2) - x.symbol**2
    r = Derivation("w", "t", vars=[a, x], steps=[Limit("l", e, x.symbol, sp.oo, -sp.oo)], conclusion="l").verify()
    assert r.result("l").method == "numeric", _detail(r)


def test_binomials_in_identities_need_nonnegative_integer_arguments():
    # C(n, k) = C(n, n - k) is false for n < 0 (SymPy's gamma rewriting "proves" it)
    n, k = Var("n", None, -1, integer=True), Var("k", 0, 3, integer=True)
    r = Derivation("b", "t", vars=[n, k], steps=[
        Identity("s", sp.binomial(n.symbol, k.symbol), sp.binomial(n.symbol, n.symbol - k.symbol))],
        conclusion="s").verify()
    assert not r.ok and "not proved nonnegative integers" in _detail(r), _detail(r)


def test_over_may_not_leave_the_sign_the_variable_is_declared_with():
    x = Var("x", 1, 10)
    X = x.symbol
    f = (X + 1)**2 + (X + 1)**3 * sp.sqrt(X)  # not real on either side of -1
    r = Derivation("o", "t", vars=[x], steps=[Stationary("s", f, X, -1, kind="min", over=(-5, 5))],
                   conclusion="s").verify()
    assert not r.ok and "`over` reaches below 0" in _detail(r), _detail(r)


def test_values_points_premises_and_restrictions_are_defined_on_the_whole_domain():
    from pysym.derive import Elasticity, Premise

    a, x, z = Var("a", sp.Rational(1, 2), 2), Var("x", 1, None), Var("z", 0, 3)
    A, X, Z = a.symbol, x.symbol, z.symbol
    one = (A**2 - 1) / (A - 1) - A  # 1, except 0/0 at a = 1
    lim = Derivation("l", "t", vars=[a, x], steps=[Limit("l", A + 1 / X, X, sp.oo, (A**2 - 1) / (A - 1) - 1)],
                     conclusion="l").verify()
    stat = Derivation("s", "t", vars=[a, z], steps=[Stationary("s", (Z - 1)**2, Z, one, kind="min")],
                      conclusion="s").verify()
    w, y = Var("w", sp.Rational(1, 2), 2), Var("y", sp.Rational(1, 2), 2)
    W, Y = w.symbol, y.symbol
    el = Derivation("e", "t", vars=[w, y], steps=[
        Elasticity("e", Y - W, Y, W, W / Y + (W**2 - 1) / (W - 1) - W - 1)], conclusion="e").verify()
    T, k, u = Var("T", 2, 50, integer=True), Var("k", 1, "T", integer=True), Var("u", 0, 2)
    st = {"MoeTheory.choose_le_pow": "∀ (n k : Nat), MoeTheory.choose n k ≤ n ^ k"}
    prem = Derivation("p", "t", vars=[T, k, u], steps=[Premise(
        "p", "MoeTheory.choose_le_pow",
        sp.binomial(T.symbol, k.symbol) * ((u.symbol**2 - 1) / (u.symbol - 1) - u.symbol) <= T.symbol**k.symbol,
        bind={"n": T.symbol, "k": k.symbol})], conclusion="p").verify(st)
    restr = Derivation("r", "t", vars=[u], constraints=[sp.Le(0, 1 / (u.symbol - 1)**2)],
                       steps=[Bound("b", 0, u.symbol, by=Sign())], conclusion="b").verify()
    for name, rep in (("limit", lim), ("stationary", stat), ("elasticity", el), ("premise", prem),
                      ("restriction", restr)):
        assert not rep.ok and "not defined on the whole domain" in _detail(rep), (name, _detail(rep))
    zero = Derivation("z", "t", vars=[w, Var("v", -1, 1)], steps=[
        Elasticity("e", W * sp.Symbol("v", real=True), sp.Symbol("v", real=True), W, -1)], conclusion="e")
    assert not zero.verify().ok  # the solution v = 0: its elasticity is 0/0


def test_sympys_sign_of_a_reciprocal_of_integers_is_not_trusted():
    # SymPy 1.14: (1/(k + s) - 1).is_nonnegative is True for integers k >= 1, s >= 0 (false at k = 2, s = 0); with
    # the order k <= n (n = k + s) the prover "proved" log(k/n) >= 0, and a derivation log T <= log k + ... verified
    from pysym.derive import prove

    n, k = sp.symbols("n k", integer=True, positive=True)
    s = sp.Symbol("s", integer=True, nonnegative=True)
    assert not prove.prove_nonnegative(sp.log(k / n), [(k, n)]).ok
    assert not prove.prove_nonnegative(1 / (k + s) - 1).ok
    assert prove.prove_nonnegative(sp.log(n / k), [(k, n)]).ok  # the true direction is still proved
    T, kk = Var("T", 2, 1000, integer=True), Var("k", 1, "T", integer=True)
    x = Var("x", 0, 1)
    r = Derivation("b", "t", vars=[T, kk, x], steps=[
        Bound("b", sp.log(T.symbol), sp.log(kk.symbol) + sp.Integer(10)**30 * (x.symbol - sp.Rational(1, 2))**2,
              by=Sign())], conclusion="b").verify()
    assert not r.ok, _detail(r)


def test_selectors_and_rational_reciprocals_do_not_borrow_sympys_wrong_signs():
    # Max(1, 1/(k + s)) re-evaluated to 1/(k + s) under the substitution n = k + s; a rational symbol's reciprocal
    # took SymPy's wrong sign like an integer's
    from pysym.derive import prove

    k, n = sp.symbols("k n", integer=True, positive=True)
    x, y = sp.symbols("x y", rational=True, nonnegative=True)
    assert not prove.prove_nonnegative(k * (1 / n - sp.Max(1, 1 / n)), [(k, n)]).ok  # -1/2 at k = 1, n = 2
    assert not prove.prove_nonnegative(k * sp.Min(1, 1 / n) - k, [(k, n)]).ok
    assert not prove.prove_positive(1 / (x + y + 1) - sp.Rational(1, 2)).ok  # -1/6 at x = y = 1
    assert not prove.prove_nonnegative(sp.log(1 / (x + y + 1))).ok
    assert prove.prove_nonnegative(k * sp.log(n / k), [(k, n)]).ok  # without selectors, substitutions still prove
