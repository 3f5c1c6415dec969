"""Red team: false derivation steps that used to verify, each of which must now be rejected.

Issue 9 listed thirteen ways to make the derivation verifier say `verified` about something false;
each test below plants one (or a variant an adversary would try next) and asserts rejection.  The
falsehoods are built to slip past the numeric spot-check (they fail only on a set too small to be
sampled, or the sampling itself is rigged), so only the symbolic check can catch them.  Before the fix
every planted step verified; each test names the hole it plants.
"""

from __future__ import annotations

import time

import mpmath
import sympy as sp

from pysym.derive import numeric, prove
from pysym.derive.core import (
    Assumed,
    Assumption,
    Bound,
    Combine,
    Derivation,
    Identity,
    Monotone,
    Numeric,
    Premise,
    Remark,
    Sign,
    Stationary,
    Term,
    Var,
)

TINY = sp.Rational(1, 10**12)

# Real statements of MoeTheory (as Lean elaborates them; pinned by test_derive.EXPECTED_STATEMENTS).
STATEMENTS = {
    "MoeTheory.choose_le_pow": "∀ (n k : Nat), MoeTheory.choose n k ≤ n ^ k",
    "MoeTheory.pow_le_choose_mul_pow": "∀ {n k : Nat}, k ≤ n → n ^ k ≤ MoeTheory.choose n k * k ^ k",
    "MoeTheory.length_masks": "∀ (T k : Nat), (MoeTheory.masks T k).length = MoeTheory.choose T k",
    "MoeTheory.Natarajan.card_le_pow_of_ndimLE":
        "∀ {α : Type} {labels : List α}, labels.Nodup → ∀ {m d : Nat} {P : List α → Bool}, 1 ≤ m → "
        "MoeTheory.Natarajan.NdimLE labels m P d → MoeTheory.Natarajan.card labels m P ≤ "
        "m ^ d * labels.length ^ (2 * d)",
}


def verify(*steps, vars, conclusion=None, statements=None, **kw):
    d = Derivation("redteam", "a planted false step", vars=list(vars), steps=list(steps),
                   conclusion=conclusion or steps[-1].id, **kw)
    return d.verify(statements)


def rejected(report, step_id=None) -> bool:
    if step_id is None:
        return not report.ok
    return not report.ok and not report.result(step_id).ok


def value(expr, **point):
    """``expr`` at ``point`` with 50 digits (to show the planted claim really is false)."""
    subs = {s: sp.Rational(point[s.name]) if isinstance(point[s.name], str) else point[s.name]
            for s in expr.free_symbols}
    return sp.N(expr.subs(subs), 50)


# --------------------------------------------------------------------------- 1. Monotone


def test_monotone_map_applied_outside_where_it_increases():
    """u -> u^2 is increasing for u > 0 only; the planted premise's smaller side dips below 0."""
    y = Var("y", 0, 2)
    Y = y.symbol
    u = sp.Symbol("u", positive=True)
    a, b = (Y - 1) ** 2 - TINY, (Y - 1) ** 2
    report = verify(Bound("p", a, b, by=Sign()),
                    Bound("sq", a**2, b**2, by=Monotone(sp.Lambda(u, u**2), "p")), vars=[y])
    assert value(a**2 - b**2, y=1) > 0  # false at y = 1
    assert rejected(report, "sq")
    assert "not provably in (0, oo)" in report.result("sq").detail


def test_monotone_map_with_a_pole():
    """-1/u has derivative 1/u^2 >= 0 for every real u != 0, but it is not increasing across 0."""
    y = Var("y", 0, 2)
    Y = y.symbol
    u = sp.Symbol("u", real=True)
    a, b = -(1 + Y), 1 + Y  # the mapped bound's sides are defined everywhere; the map's pole lies between them
    report = verify(Bound("p", a, b, by=Sign()),
                    Bound("inv", -1 / a, -1 / b, by=Monotone(sp.Lambda(u, -1 / u), "p")), vars=[y])
    assert value(-1 / a + 1 / b, y=1) > 0
    assert rejected(report, "inv")
    assert "not known to be smooth" in report.result("inv").detail


def test_monotone_map_whose_variable_borrows_a_derivation_range():
    """f(u) = u^2 - 3u is increasing only for u >= 3/2; naming the map's variable after a symbol
    whose range is [3/2, 2] must not let the prover assume that range for the map."""
    x = Var("x", sp.Rational(3, 2), 2)
    y = Var("y", 0, 2)
    X, Y = x.symbol, y.symbol
    f = sp.Lambda(X, X**2 - 3 * X)
    a, b = sp.Rational(3, 2) + (Y - 1) ** 2 - TINY, sp.Rational(3, 2) + (Y - 1) ** 2
    report = verify(Bound("p", a, b, by=Sign()), Bound("f", f(a), f(b), by=Monotone(f, "p")), vars=[x, y])
    assert value(f(a) - f(b), y=1) > 0
    assert rejected(report, "f")


# --------------------------------------------------------------------------- 2. strict


def test_strict_bound_through_monotone_from_a_non_strict_premise():
    """exp is strictly increasing, but 0 <= (y-5)^2 is not strict: 1 < exp((y-5)^2) fails at y = 5."""
    y = Var("y", 0, 10)
    Y = y.symbol
    u = sp.Symbol("u", real=True)
    report = verify(Bound("p", 0, (Y - 5) ** 2, by=Sign()),
                    Bound("e", 1, sp.exp((Y - 5) ** 2), by=Monotone(sp.Lambda(u, sp.exp(u)), "p"), strict=True),
                    vars=[y])
    assert rejected(report, "e")


def test_strict_bound_by_combining_a_non_strict_one():
    y = Var("y", 0, 10)
    Y = y.symbol
    report = verify(Bound("p", 0, (Y - 5) ** 2, by=Sign()),
                    Bound("c", 0, (Y - 5) ** 2, by=Combine({"p": 1}), strict=True), vars=[y])
    assert rejected(report, "c")


def test_strict_bound_with_a_zero_weight_on_a_strict_one():
    """A strict earlier bound counts only with a positive weight."""
    y = Var("y", 0, 10)
    Y = y.symbol
    report = verify(Bound("p", 0, 1, by=Sign(), strict=True),
                    Bound("c", 0, (Y - 5) ** 2, by=Combine({"p": 0}), strict=True), vars=[y])
    assert rejected(report, "c")


# --------------------------------------------------------------------------- 3. binomial / factorial signs


def test_binomial_of_a_real_argument_has_no_sign():
    """binomial(x, 3) = x(x-1)(x-2)/6 < 0 for 1 < x < 2; here x dips below 2 only near y = 1."""
    y = Var("y", 0, 2)
    arg = 2 + (y.symbol - 1) ** 2 - TINY
    claim = sp.binomial(arg, 3)
    report = verify(Bound("b", 0, claim, by=Sign()), vars=[y])
    assert value(claim, y=1) < 0
    assert rejected(report, "b")
    assert not prove.prove_nonnegative(sp.binomial(sp.Symbol("t", positive=True), 3)).ok


def test_factorial_of_a_real_argument_has_no_sign():
    """factorial(z) = gamma(z + 1) < 0 for -2 < z < -1."""
    y = Var("y", 0, 2)
    claim = sp.factorial(-1 + (y.symbol - 1) ** 2 - TINY)
    report = verify(Bound("f", 0, claim, by=Sign()), vars=[y])
    assert value(claim, y=1) < 0
    assert rejected(report, "f")


def test_binomial_beyond_its_range_is_not_positive():
    """binomial(n, k) = 0 for k > n: no positivity unless 0 <= k <= n is proved."""
    n, k = sp.symbols("n k", integer=True, positive=True)
    assert not prove.prove_positive(sp.binomial(n, k)).ok
    assert prove.prove_positive(sp.binomial(n, k), order=[(k, n)]).ok


# --------------------------------------------------------------------------- 4. rounding


def test_a_tiny_float_is_not_rounded_away():
    x = Var("x", 1, 2)
    report = verify(Identity("e", x.symbol + sp.Float("1e-45"), x.symbol), vars=[x])
    assert rejected(report, "e")


def test_a_violation_below_the_numeric_tolerance_is_still_a_violation():
    """A numeric-only step off by 1e-45: the 50-digit check looks again at 100 digits."""
    x = Var("x", 1, 2)
    report = verify(Bound("n", x.symbol + sp.Rational(1, 10**45), x.symbol, by=Numeric()), vars=[x])
    assert rejected(report, "n")


# --------------------------------------------------------------------------- 5. Lean hypotheses


def _natarajan(hypotheses, m_low=0):
    m0 = Var("m0", m_low, 8, "points of a sample", integer=True)
    d = Var("d", 1, 4, "dimension", integer=True)
    K = Var("K", 1, 6, "labels", integer=True)
    G = Var("G", 0, m0.symbol**d.symbol * K.symbol ** (2 * d.symbol), "patterns")
    rel = G.symbol <= m0.symbol**d.symbol * K.symbol ** (2 * d.symbol)
    p = Premise("lemma6", "MoeTheory.Natarajan.card_le_pow_of_ndimLE", rel,
                bind={"m": m0.symbol, "d": d.symbol},
                terms={"MoeTheory.Natarajan.card": G.symbol, "length(labels)": K.symbol},
                hypotheses=hypotheses)
    return verify(p, vars=[m0, d, K, G], statements=STATEMENTS,
                  assumptions=[Assumption("A", "the labels are distinct and the class has dimension d")])


def test_a_hypothesis_fragment_grants_nothing():
    """The lemma needs 1 <= m; at m = 0 it is false (one empty pattern, bound 0).  The fragment "m"
    used to grant `1 <= m0` through assumption A, whose text says nothing about m."""
    report = _natarajan({"Nodup": "A", "NdimLE": "A", "m": "A"})
    assert rejected(report, "lemma6")
    assert "1 <= m0" in report.result("lemma6").undischarged


def test_an_empty_fragment_grants_nothing():
    report = _natarajan({"": "A"})
    assert rejected(report, "lemma6")


def test_whole_hypotheses_are_granted_and_the_rest_must_follow_from_the_ranges():
    granted = {"labels.Nodup": "A", "MoeTheory.Natarajan.NdimLE labels m P d": "A"}
    assert "1 <= m0" in _natarajan(granted).result("lemma6").undischarged
    assert _natarajan(granted, m_low=1).ok


# --------------------------------------------------------------------------- 6. binders and terms


def test_a_nat_binder_takes_only_natural_numbers():
    """choose_le_pow holds for naturals; bound to w = (y-1)^2 - 1 - 1e-12 (< -1 near y = 1) it is false."""
    y = Var("y", 0, 2)
    w = (y.symbol - 1) ** 2 - 1 - TINY
    rel = sp.binomial(w, 3) <= w**3
    report = verify(Premise("c", "MoeTheory.choose_le_pow", rel, bind={"n": w, "k": 3}), vars=[y],
                    statements=STATEMENTS)
    assert value(rel.lhs - rel.rhs, y=1) > 0
    assert rejected(report, "c")
    assert "is not provably an integer" in report.result("c").detail


def test_a_continuous_symbol_cannot_fill_a_nat_binder():
    T, k = Var("T", 2, 100, integer=True), Var("k", 1, "T", "continuous")
    rel = sp.binomial(T.symbol, k.symbol) <= T.symbol**k.symbol
    report = verify(Premise("c", "MoeTheory.choose_le_pow", rel, bind={"n": T.symbol, "k": k.symbol}),
                    vars=[T, k], statements=STATEMENTS)
    assert rejected(report, "c")


def test_terms_cannot_give_an_opaque_term_an_arbitrary_value():
    """(masks T k).length = choose T k; `terms` used to let it equal choose T k + (k - 1)/10^60 'by Lean'."""
    T, k = Var("T", 2, 50, integer=True), Var("k", 1, "T", integer=True)
    C = sp.binomial(T.symbol, k.symbol)
    wrong = C + (k.symbol - 1) / 10**60
    p = Premise("len", "MoeTheory.length_masks", sp.Eq(wrong, C, evaluate=False), bind={"T": T.symbol, "k": k.symbol},
                terms={"length(MoeTheory.masks(T, k))": wrong})
    report = verify(p, vars=[T, k], statements=STATEMENTS)
    assert rejected(report, "len")


def test_a_term_name_carries_no_facts_from_its_range():
    """G names the Lean count; its declared range [10^6, 10^7] is not a fact about the count."""
    m0 = Var("m0", 1, 8, integer=True)
    d = Var("d", 1, 4, integer=True)
    K = Var("K", 1, 6, integer=True)
    G = Var("G", 10**6, 10**7, "names the Lean count")
    rel = G.symbol <= m0.symbol**d.symbol * K.symbol ** (2 * d.symbol)
    p = Premise("lemma6", "MoeTheory.Natarajan.card_le_pow_of_ndimLE", rel, bind={"m": m0.symbol, "d": d.symbol},
                terms={"MoeTheory.Natarajan.card": G.symbol, "length(labels)": K.symbol},
                hypotheses={"labels.Nodup": "A", "MoeTheory.Natarajan.NdimLE labels m P d": "A"})
    big = Bound("big", 10**6, G.symbol, by=Sign())
    report = verify(p, big, vars=[m0, d, K, G], statements=STATEMENTS, assumptions=[Assumption("A", "granted")])
    assert rejected(report, "big")


def test_a_name_for_a_term_whose_binder_type_depends_on_a_bound_value_stays_one_term():
    """`M : Mask T → Prop` is another `M` for another `T`, and prints the same: `dim M` bound at `T = 1` and at
    `T = 2` are two terms (a derivation naming both `D` verified `D = 1` and `D = 2`)."""
    statements = {"Spoof.s": "∀ {T : Nat} (M : MoeTheory.Mask T → Prop), MoeTheory.dim M = T"}
    D = Var("D", 0, 100)

    def at(step, t):
        return Premise(step, "Spoof.s", sp.Eq(D.symbol, t), bind={"T": t}, terms={"MoeTheory.dim": D.symbol})

    report = verify(at("one", 1), at("two", 2), at("again", 1), vars=[D], statements=statements)
    assert report.result("one").ok and report.result("again").ok
    assert rejected(report, "two") and "already names another term" in report.result("two").detail
    # nor can the theorem at `T = 2` give the term at `T = 1` a value (`dim M = 2`, so `dim M ≤ 1` reads `2 ≤ 1`)
    statements["Spoof.le"] = "∀ {T : Nat} (M : MoeTheory.Mask T → Prop) (x : Nat), x ≤ MoeTheory.dim M → x ≤ T"
    x = Var("x", 0, 5, integer=True)
    valued = Premise("valued", "Spoof.le", sp.Implies(x.symbol <= 2, x.symbol <= 1), bind={"T": 1, "x": x.symbol},
                     terms={"MoeTheory.dim": Term(2, "Spoof.s", bind={"T": 2})})
    report = verify(valued, vars=[x], statements=statements)
    assert rejected(report, "valued") and "bound otherwise there than here" in report.result("valued").detail, \
        report.result("valued").detail


def test_a_name_for_a_term_records_the_types_of_its_unbound_binders():
    """`g.val 3` with `g : { f // f 3 = 0 }` in one theorem and `g : { f // f 3 = 1 }` in another: one text, two
    terms (a third red-team round verified `G + 1 <= G` from the two)."""
    statements = {"Rt3.natA": "∀ (g : { f // f 3 = 0 }), g.val 3 = 0",
                  "Rt3.natB": "∀ (g : { f // f 3 = 1 }), 1 = g.val 3",
                  "Rt3.natC": "∀ (g : { f // f 3 = 0 }), 0 = g.val 3"}
    G = Var("G", 0, 10, integer=True)

    def named(step, lean, rel, hyp):
        return Premise(step, lean, rel, terms={"val(g, 3)": G.symbol}, hypotheses={hyp: "A"})

    report = verify(named("a", "Rt3.natA", sp.Eq(G.symbol, 0), "Nonempty ({ f // f 3 = 0 })"),
                    named("b", "Rt3.natB", sp.Eq(1, G.symbol), "Nonempty ({ f // f 3 = 1 })"),
                    named("c", "Rt3.natC", sp.Eq(0, G.symbol), "Nonempty ({ f // f 3 = 0 })"),
                    vars=[G], statements=statements, assumptions=[Assumption("A", "granted")])
    assert report.result("a").ok and report.result("c").ok
    assert rejected(report, "b") and "already names another term" in report.result("b").detail


# --------------------------------------------------------------------------- 7. string bounds


def test_a_string_lower_bound_is_read_not_guessed():
    """"-1/10**12" used to make x positive; x*(x + 1e-12) < 0 for -1e-12 < x < 0."""
    x = Var("x", "-1/10**12", 1)
    claim = x.symbol * (x.symbol + TINY)
    report = verify(Bound("b", 0, claim, by=Sign()), vars=[x])
    assert rejected(report, "b")
    assert Var("z", "T", 5).symbol.is_positive is None


# --------------------------------------------------------------------------- 8. sub-ranges


def test_a_sub_range_step_cannot_be_combined_on_the_full_range():
    """0 <= y (y - 1e-12) holds on [1e-12, 2] but not on (0, 1e-12)."""
    y = Var("y", 0, 2)
    Y = y.symbol
    report = verify(Bound("p", 0, Y * (Y - TINY), by=Sign()).on(y=(TINY, 2)),
                    Bound("q", 0, 3 * Y * (Y - TINY), by=Combine({"p": 3})), vars=[y])
    assert rejected(report, "q")
    assert "holds only on a sub-range" in report.result("q").detail


def test_a_sub_range_step_cannot_feed_a_monotone_map_on_the_full_range():
    y = Var("y", 0, 2)
    Y = y.symbol
    u = sp.Symbol("u", real=True)
    report = verify(Bound("p", 0, Y * (Y - TINY), by=Sign()).on(y=(TINY, 2)),
                    Bound("q", 1, sp.exp(Y * (Y - TINY)), by=Monotone(sp.Lambda(u, sp.exp(u)), "p")), vars=[y])
    assert rejected(report, "q")


def test_a_sub_range_step_is_not_a_conclusion():
    y = Var("y", 0, 2)
    Y = y.symbol
    report = verify(Bound("p", 0, Y * (Y - TINY), by=Sign()).on(y=(TINY, 2)), vars=[y])
    assert rejected(report)
    assert report.result("p").ok


def test_a_sub_range_must_lie_inside_the_range():
    """x is positive from its range [1, 10]; a 'sub-range' reaching below 0 would borrow that."""
    x = Var("x", 1, 10)
    X = x.symbol
    report = verify(Bound("b", 0, X * (X + TINY), by=Sign()).on(x=(-TINY, 5)), vars=[x])
    assert rejected(report, "b")
    assert "is not inside its range" in report.result("b").detail


def test_a_combination_restricted_to_the_same_sub_range_verifies():
    y = Var("y", 0, 2)
    Y = y.symbol
    report = verify(Bound("p", 0, Y * (Y - TINY), by=Sign()).on(y=(TINY, 2)),
                    Bound("q", 0, 3 * Y * (Y - TINY), by=Combine({"p": 3})).on(y=(1, 2)),
                    Bound("r", 0, Y**2, by=Sign()), vars=[y])
    assert report.ok, [(r.step.id, r.detail) for r in report.failures()]


# --------------------------------------------------------------------------- 9. orders and constraints


def test_an_order_must_follow_from_the_ranges():
    """x (1e-12 - x) <= z is false only for tiny x and z; the order used to be taken on faith."""
    x, z = Var("x", 0, 1), Var("z", 0, 1)
    a = x.symbol * (TINY - x.symbol)
    report = verify(Bound("b", a, z.symbol, by=Sign()), vars=[x, z], orders=[(a, z.symbol)])
    assert rejected(report)
    assert not report.result("order-1").ok


def test_a_constraint_must_follow_from_the_ranges():
    z = Var("z", 0, 1)
    report = verify(Bound("half", sp.Rational(1, 2), z.symbol, by=Numeric()), vars=[z],
                    constraints=[z.symbol >= sp.Rational(1, 2)])
    assert rejected(report)


def test_orders_and_constraints_are_in_the_document():
    from pysym.render.latex import derivation_tex

    k, T = Var("k", 1, "T - 1"), Var("T", 3, 100, integer=True)
    d = Derivation("doc", "restrictions are shown", vars=[T, k], orders=[(k.symbol + 1, T.symbol)],
                   steps=[Bound("b", k.symbol + 1, T.symbol, by=Sign())], conclusion="b")
    report = d.verify()
    assert report.ok
    restriction = report.result("order-1")
    assert restriction.method == "sympy" and "implied by the ranges" in restriction.detail
    tex = derivation_tex(report)
    assert "order-1" in tex and "restriction" in tex


# --------------------------------------------------------------------------- 10. conclusion


def test_the_conclusion_must_name_a_step():
    x = Var("x", 1, 2)
    assert rejected(verify(Identity("e", x.symbol, x.symbol), vars=[x], conclusion="no_such_step"))


def test_the_conclusion_cannot_be_a_remark():
    x = Var("x", 1, 2)
    report = verify(Identity("e", x.symbol, x.symbol), Remark("r", text="the moon is made of cheese"), vars=[x],
                    conclusion="r")
    assert rejected(report)


# --------------------------------------------------------------------------- 11. numeric truth values


def test_numeric_check_fails_on_false_and_on_non_relations():
    x = sp.Symbol("x", positive=True)
    dom = numeric.Domain([numeric.Range(x, 1, 2)])
    assert not numeric.check(sp.false, dom).ok
    assert not numeric.check(sp.StrictGreaterThan(-6, 0), dom).ok
    assert not numeric.check(sp.Ne(x, 3), dom).ok
    assert not numeric.check(sp.And(x > 0, x < 0), dom).ok


def test_a_false_second_order_condition_is_rejected():
    """x^3 - 3x at x = -1 is a maximum (f'' = -6), not a minimum."""
    y = Var("y", -2, 2)
    Y = y.symbol
    report = verify(Stationary("opt", Y**3 - 3 * Y, Y, -1, kind="min"), vars=[y])
    assert rejected(report, "opt")


# --------------------------------------------------------------------------- 12. optimum in the domain


def test_an_optimum_must_lie_in_the_domain():
    x = Var("x", 0, 1)
    report = verify(Stationary("opt", (x.symbol - 5) ** 2, x.symbol, 5, kind="min"), vars=[x])
    assert rejected(report, "opt")
    assert "is not in [0, 1]" in report.result("opt").detail


def test_an_unconstrained_optimum_must_lie_in_its_stated_interval():
    x = Var("x", 0, 1)
    report = verify(Stationary("opt", (x.symbol + 5) ** 2, x.symbol, -5, kind="min", over=(0, sp.oo)), vars=[x])
    assert rejected(report, "opt")


# --------------------------------------------------------------------------- 13. circular spot-checks


def test_a_numeric_check_cannot_sample_a_range_that_encodes_the_claim():
    x = Var("x", 1, 2)
    g = Var("g", 0, x.symbol**2, "a quantity whose range is the claim")
    report = verify(Bound("c", g.symbol, x.symbol**2, by=Numeric()), vars=[x, g])
    assert rejected(report, "c")


def test_a_numeric_check_cannot_rest_on_what_the_ranges_already_say():
    x = Var("x", 1, 100)
    report = verify(Bound("c", x.symbol, 100, by=Numeric()), vars=[x])
    assert rejected(report, "c")


def test_an_assumption_encoded_by_a_range_is_not_reported_as_spot_checked():
    x = Var("x", 1, 2)
    g = Var("g", 0, x.symbol**2)
    report = verify(Bound("a", g.symbol, x.symbol**2, by=Assumed("A")), vars=[x, g],
                    assumptions=[Assumption("A", "g <= x^2")])
    r = report.result("a")
    assert r.numeric is None and "not spot-checked" in r.detail


# --------------------------------------------------------------------------- Also: zhao_optimal_k


def test_the_regimes_remark_no_longer_claims_k_equals_one():
    """At T = 2 and rho = 0.09 the interior minimum u_1 lies below 1/T, yet k = T beats k = 1."""
    from pysym.derive.library import build

    rho, T = mpmath.mpf("0.09"), 2

    def F(u):
        return rho / u + mpmath.sqrt(u * (1 - mpmath.log(u)))

    def R(u):
        return u**1.5 * (-mpmath.log(u)) / (2 * mpmath.sqrt(1 - mpmath.log(u)))

    u1 = mpmath.findroot(lambda u: R(u) - rho, (mpmath.mpf("0.01"), mpmath.mpf("0.5")), solver="bisect")
    assert T * u1 < 1 and F(1) < F(mpmath.mpf(1) / T)  # the minimizer on [1, T] is k = T, not k = 1
    text = build("zhao_optimal_k").step("regimes").text
    assert "the constrained minimizer is k = 1" not in text
    assert "k = 1 or k = T" in text


def test_the_comparative_statics_are_checked_implicit_derivatives():
    from pysym.derive.library import build

    d = build("zhao_optimal_k")
    for sid in ("dk_dN", "dk_dm", "dk_dd", "dk_dT"):
        assert type(d.step(sid)).__name__ == "Elasticity", sid  # implicit differentiation, not prose
    wrong = d.step("dk_dT")
    wrong.value = -wrong.value  # the opposite sign: k* growing with T
    report = d.verify()
    assert not report.result("dk_dT").ok
    assert report.result("dk_dN").ok and report.result("dk_dN").method == "sympy"


# --------------------------------------------------------------------------- budgets


def test_budgets_count_cpu_time_not_wall_time():
    start = time.monotonic()
    with prove.budget(0.5):
        time.sleep(1.0)  # a loaded machine looks like this to a wall-clock budget
    assert time.monotonic() - start >= 1.0


def test_running_out_of_the_budget_fails_the_step_and_names_it(monkeypatch):
    """A sign proof that never ends must fail the step, not fall back to a numeric 'verified'."""
    import sys

    def endless(e, strict, depth=0):
        while True:
            pass

    monkeypatch.setattr(prove, "_sign", endless)
    monkeypatch.setattr(sys.modules[Derivation.__module__], "STEP_BUDGET", 0.5, raising=False)
    monkeypatch.setattr(prove, "BUDGET", 0.5)
    x = Var("x", 1, 2)
    report = verify(Stationary("opt", (x.symbol - sp.Rational(3, 2)) ** 2, x.symbol, sp.Rational(3, 2)), vars=[x])
    r = report.result("opt")
    assert not r.ok
    assert r.method == "budget" and "CPU budget of 0.5 s" in r.detail


def test_a_term_names_range_does_not_discharge_a_hypothesis():
    """`1 <= xs.length` must not follow from the range [1, 8] declared for the symbol naming xs.length."""
    statements = {"MoeTheory.Natarajan.card_restrictClass_le_pow_of_domainNdimLE":
                  "∀ {α X : Type} {labels : List α}, labels.Nodup → ∀ {H : (X → α) → Prop} {d : Nat}, "
                  "MoeTheory.Natarajan.DomainNdimLE H d → ∀ (xs : List X), 1 ≤ xs.length → "
                  "MoeTheory.Natarajan.card labels xs.length (MoeTheory.Natarajan.restrictClass H xs) ≤ "
                  "xs.length ^ d * labels.length ^ (2 * d)"}
    m0, d, K = Var("m0", 1, 8, integer=True), Var("d", 1, 4, integer=True), Var("K", 1, 6, integer=True)
    G = Var("G", 0, 10**6)
    rel = G.symbol <= m0.symbol**d.symbol * K.symbol ** (2 * d.symbol)
    p = Premise("lemma6", "MoeTheory.Natarajan.card_restrictClass_le_pow_of_domainNdimLE", rel, bind={"d": d.symbol},
                terms={"MoeTheory.Natarajan.card": G.symbol, "length(xs)": m0.symbol, "length(labels)": K.symbol},
                hypotheses={"Nodup(labels)": "A", "MoeTheory.Natarajan.DomainNdimLE(H, d)": "A"})
    report = verify(p, vars=[m0, d, K, G], statements=statements, assumptions=[Assumption("A", "granted")])
    assert rejected(report, "lemma6")
    assert report.result("lemma6").undischarged == ["1 <= m0"]


# --------------------------------------------------------------------------- round 3 (an adversarial helper)


def test_a_complex_exponential_has_no_sign():
    # exp(I y) + exp(-I y) = 2 cos y is -2 at y = pi; every exp(...) was taken as positive
    y = Var("y", None, None)
    Y = y.symbol
    assert abs(value(sp.exp(sp.I * Y) + sp.exp(-sp.I * Y), y=sp.pi) + 2) < 1e-40
    assert rejected(verify(Bound("b", 0, sp.exp(sp.I * Y) + sp.exp(-sp.I * Y), by=Sign()), vars=[y]), "b")
    # sin written with exponentials is not an increasing map
    u = sp.Symbol("u", real=True)
    sine = sp.Lambda(u, (sp.exp(sp.I * u) - sp.exp(-sp.I * u)) / (2 * sp.I))
    report = verify(Bound("p", Y, Y + 1, by=Sign()), Bound("m", sine(Y), sine(Y + 1), by=Monotone(sine, "p")),
                    vars=[y])
    assert rejected(report, "m")


def test_powers_are_merged_only_over_positive_bases():
    # sqrt(x - 20) sqrt(x - 30) / sqrt((x - 20)(x - 30)) is -1 on [1, 10]: `second=` once "equalled" x there,
    # turning a maximum into a "minimum"
    x, t = Var("x", 1, 10), Var("t", -10, 10)
    X, T = x.symbol, t.symbol
    c = X * sp.sqrt(X - 20) * sp.sqrt(X - 30) / sp.sqrt((X - 20) * (X - 30))
    assert abs(value(c, x=5) + 5) < 1e-40
    assert not prove.prove_equal(c, X).ok
    assert rejected(verify(Stationary("opt", c * T**2 / 2, T, 0, kind="min", second=X), vars=[x, t]), "opt")


def test_a_restriction_proved_on_a_sub_range_is_not_a_fact_of_the_domain():
    from pysym.derive.core import Restriction

    y = Var("y", 0, 10)
    Y = y.symbol
    report = verify(Bound("c", 5, Y, by=Sign()), vars=[y], orders=[Restriction("r", sp.Le(5, Y)).on(y=(5, 10))])
    assert rejected(report) and not report.result("r").ok  # 5 <= y is false at y = 0


def test_the_provers_fresh_symbols_cannot_be_a_derivations_symbol():
    # the prover substitutes x = 2/(1 + s) with a fresh s; a variable named like it was the same symbol
    x, s = Var("x", sp.Rational(1, 2), 2), Var("s_0_x", 0, 1)
    X, S = x.symbol, s.symbol
    assert value((X * (1 + S) - 3)**2, x=2, s_0_x="1/2") == 0
    assert rejected(verify(Bound("c", TINY, (X * (1 + S) - 3)**2, by=Sign()), vars=[x, s]), "c")


def test_an_empty_domain_is_found_through_an_unbounded_symbol():
    # x in [1/2, 1] and x >= y^2 + 2: no point; the emptiness check dropped every restriction when a symbol
    # had no finite range, so y^2 + 1 <= 0 "followed"
    from pysym.derive.core import Restriction

    x, y = Var("x", sp.Rational(1, 2), 1), Var("y", None, None)
    X, Y = x.symbol, y.symbol
    report = verify(Bound("c1", Y**2 + 2, X, by=Sign()), Bound("c2", X, 1, by=Sign()),
                    Bound("c", Y**2 + 1, 0, by=Combine({"c1": 1, "c2": 1})), vars=[x, y],
                    assumptions=[Assumption("A", "x >= y^2 + 2")],
                    constraints=[Restriction("r", sp.Ge(X, Y**2 + 2), assumption="A")])
    assert not report.ok


def test_a_range_over_an_unbounded_symbol_is_sampled_not_a_crash():
    z, w = Var("z", None, None), Var("w", "z", "z + 1")
    report = verify(Bound("c", z.symbol, w.symbol, by=Sign()), vars=[z, w])
    assert report.result("c") is not None  # verified or not, but no TypeError from sampling w's bounds


def test_an_identity_undefined_at_a_point_of_the_domain_is_refused():
    x = Var("x", 0, 3)
    X = x.symbol
    report = verify(Identity("i", (X**2 - 1) / (X - 1), X + 1), vars=[x])
    assert rejected(report, "i") and "denominator" in report.result("i").detail
    # defined everywhere (x + 1 > 0 on the domain): still proved
    assert verify(Identity("j", (X**2 + 2 * X + 1) / (X + 1), X + 1), vars=[x]).ok


def test_an_order_substitution_keeps_the_integers_in_range():
    # 1 <= x <= 10 becomes x = 1 + s with s >= 0; declaring s a non-integer (integer=False) made (s - 4)**2
    # "positive", so (x - 5)**2 > 0 was "proved" although it is 0 at x = 5
    x = sp.Symbol("x", positive=True)
    order = [(x, 10), (1, x)]
    assert not prove.prove_positive((x - 5) ** 2, order).ok
    assert not prove.prove_positive((x - 5) ** 2 * (x + 1), order).ok
    assert prove.prove_nonnegative((x - 5) ** 2, order).ok
    assert prove.prove_positive((x - 5) ** 2 + 1, order).ok
    k = sp.Symbol("k", integer=True, positive=True)  # an integer range keeps its integer substitution
    assert prove.prove_positive(k - sp.Rational(1, 2), [(1, k)]).ok
