"""Zhao et al. (arXiv 2410.13964, arXiv 2410.13964 v2): Theorem 1 and its routing term.

``zhao_theorem1``
    From the Lean routing-pattern count (Eq. 13) and the union bound over
    routing patterns (Eqs. 9-11) to the logarithmic form of the count and the
    bound of Eqs. 17-18 / Theorem 1 with its delta term.
``routing_term``
    The sandwich k log(T/k) <= log C(T,k) <= k log(eT/k), both sides from Lean
    inequalities, and how Definition 5's log(T/k) relates to it.
"""

from __future__ import annotations

import mpmath
import sympy as sp

from pysym.derive.core import (
    Assumed,
    Assumption,
    Bound,
    Combine,
    Derivation,
    Identity,
    Monotone,
    Premise,
    Remark,
    Var,
)

SOURCE = "Zhao et al., Sparse Mixture-of-Experts for Compositional Generalization, arXiv 2410.13964 v2"


def _log():
    x = sp.Symbol("x", positive=True)
    return sp.Lambda(x, sp.log(x))


def zhao_theorem1() -> Derivation:
    T = Var("T", 2, 1000, "number of experts", integer=True)
    k = Var("k", 1, "T", "active experts per input", integer=True)
    N = Var("N", 1, 64, "number of tasks", integer=True)
    d = Var("d", 1, 32, "Natarajan dimension of one task's router class (d_N)", integer=True, latex="d_N")
    m = Var("m", 1, 10**9, "training samples", integer=True)
    delta = Var("delta", sp.Rational(1, 10**12), sp.Rational(1, 2), "confidence parameter", latex=r"\delta")
    eps = Var("epsilon", sp.Rational(1, 10**30), 1, "per-pattern tail probability (rational, as in Lean)",
              latex=r"\varepsilon", rational=True)
    Ts, ks, Ns, ds, ms, ds_, es = (v.symbol for v in (T, k, N, d, m, delta, eps))
    Gbar = sp.binomial(Ts, ks) ** (2 * Ns * ds) * (2 * ms) ** (Ns * ds)
    Gamma = Var("Gamma", 0, None, "number of routing patterns on the 2m points of S and S' (names the Lean count)",
                integer=True, latex=r"\Gamma")
    Pbad = Var("P_bad", 0, 1, "probability that some routing pattern's deviation is large (names the Lean "
               "probability)", latex=r"P_{\mathrm{bad}}")
    Cl = Var("C_L", sp.Rational(1, 100), 100, "Lipschitz constant of the loss", latex="C")
    R = Var("R", sp.Rational(1, 10**6), 1, "Rademacher complexity of one expert class", latex=r"\mathcal{R}_m")
    Ephi = Var("E_phi", 0, 2 * Cl.symbol * R.symbol, "expected deviation for a fixed pattern",
               latex=r"\mathbb{E}\phi")
    G, P, C_, Rs, Es = Gamma.symbol, Pbad.symbol, Cl.symbol, R.symbol, Ephi.symbol

    t = sp.sqrt((sp.log(Gbar) + sp.log(2 / ds_)) / (2 * ms))
    logbound = 2 * ks * Ns * ds * sp.log(Ts) + Ns * ds * sp.log(2 * ms)
    t18 = sp.sqrt((logbound + sp.log(2 / ds_)) / (2 * ms))
    x = sp.Symbol("x", positive=True)

    steps = [
        Premise("count", "MoeTheory.routing_patterns_le", sp.Le(G, Gbar),
                bind={"T": Ts, "k": ks, "N": Ns, "d": ds, "m": ms},
                terms={"MoeTheory.Natarajan.card": G},
                hypotheses={"MoeTheory.Natarajan.DomainNdimLE M (N * d)": "A1", "xs.length = 2 * m": "S2m"},
                text="Eq. 13: the masks realized on the 2m points of S and S' number at most "
                     "C(T,k)^{2Nd} (2m)^{Nd} (Lemma 6 with C(T,k) labels and dimension N d)."),
        Premise("union", "MoeTheory.prob_some_pattern_bad_le", sp.Le(P, Gbar * es),
                bind={"T": Ts, "k": ks, "N": Ns, "d": ds, "m": ms, "ε": es},
                terms={"MoeTheory.FinProbSpace.prob": P},
                hypotheses={"MoeTheory.Natarajan.DomainNdimLE M (N * d)": "A1", "xs.length = 2 * m": "S2m",
                            "patterns.Nodup": "S2m",
                            "∀ (p : List (MoeTheory.Mask T k)), p ∈ patterns → ∃ μ, M μ ∧ List.map μ xs = p": "S2m",
                            "∀ (p : List (MoeTheory.Mask T k)), p ∈ patterns → P.prob (Bad p) ≤ ε": "A2",
                            "Nonempty (MoeTheory.FinProbSpace Ω)": "PS"},
                text="Eqs. 9-11: a union bound over the realized routing patterns, each bad with "
                     "probability at most epsilon."),
        Remark("tail", text="Per pattern, McDiarmid's inequality bounds the deviation (Eq. 16); with the "
                            "factor 2 of Eq. 12, epsilon = 2 exp(-2 m t^2) for a deviation t above its "
                            "expectation (assumption A2)."),
        Identity("solve_t", sp.Mul(2, Gbar, sp.exp(-2 * ms * t**2, evaluate=False), evaluate=False), ds_,
                 text="Choosing t = sqrt((log Gamma-bar + log(2/delta)) / (2m)) makes the union bound equal "
                      "to delta: with probability at least 1 - delta no pattern deviates by more than t."),
        Identity("log_count", sp.log(Gbar), 2 * Ns * ds * sp.log(sp.binomial(Ts, ks)) + Ns * ds * sp.log(2 * ms),
                 text="Logarithm of the count bound (Eq. 17's numerator)."),
        Premise("choose", "MoeTheory.choose_le_pow", sp.Le(sp.binomial(Ts, ks), Ts**ks),
                bind={"n": Ts, "k": ks}, text="C(T,k) <= T^k."),
        Bound("log_choose", sp.log(sp.binomial(Ts, ks)), ks * sp.log(Ts), by=Monotone(_log(), "choose"),
              text="log C(T,k) <= k log T, as used between Eqs. 17 and 18."),
        Bound("log_gamma", sp.log(Gbar), logbound, by=Combine({"log_choose": 2 * Ns * ds}),
              text="log Gamma <= 2 k N d log T + N d log(2m)."),
        Bound("eq18", t, t18,
              by=Monotone(sp.Lambda(x, sp.sqrt((x + sp.log(2 / ds_)) / (2 * ms))), "log_gamma"),
              text="Eq. 18: the deviation term with the count replaced by its logarithmic bound."),
        Bound("lemma5", Es, 2 * C_ * Rs, by=Assumed("A3"),
              text="Lemma 5: the expected deviation for a fixed pattern is at most 2 C R_m(H)."),
        Bound("theorem1", 2 * Es + 2 * t, 4 * C_ * Rs + 2 * t18, by=Combine({"lemma5": 2, "eq18": 2}),
              text="Theorem 1 (Eq. 5): with probability at least 1 - delta, "
                   "|L_S - L_S'| <= 2 E[phi] + 2 t <= 4 C R_m(H) + 2 sqrt((2kNd log T + Nd log 2m + log(2/delta))/(2m))."),
    ]
    # Constant audit: McDiarmid over the 2m points with bounded differences 1/m.
    tt = sp.Symbol("t", positive=True)
    findings = [
        "The chain is sound as a bound up to constants. Two constants differ from a direct count: "
        "phi depends on the 2m points of S and S', each changing it by at most 1/m, so McDiarmid gives "
        f"exp(-2t^2 / (2m (1/m)^2)) = exp(-{sp.sstr(sp.simplify(2 * tt**2 / (2 * ms * (1 / ms) ** 2)))}) rather "
        "than Eq. 16's exp(-2 m t^2) (a factor sqrt(2) in the square-root term); and the ghost-sample "
        "step (Eq. 7) doubles the failure probability again, so a bound on |L_S - L_D| carries log(4/delta) "
        "instead of log(2/delta). Both only change constants inside Theorem 1's O(.).",
    ]
    return Derivation(
        "zhao_theorem1",
        "Zhao et al., Theorem 1: from the routing-pattern count to the generalization bound",
        vars=[T, k, N, d, m, delta, eps, Gamma, Pbad, Cl, R, Ephi],
        steps=steps,
        conclusion="theorem1",
        source=SOURCE + ", Theorem 1, Appendix B (Eqs. 7-18)",
        summary="The routing-pattern count Gamma <= C(T,k)^{2Nd}(2m)^{Nd} and the union bound over patterns "
                "are Lean theorems; taking logarithms and solving the union bound for the deviation gives "
                "Eqs. 17-18 and Theorem 1's bound with its log(2/delta) term.",
        assumptions=[
            Assumption("A1", "Assumption 1 of the paper: the class of masking functions has Natarajan "
                             "dimension at most N d_N."),
            Assumption("A2", "Eqs. 12 and 16: for a fixed routing pattern, the probability that the "
                             "deviation exceeds its expectation by t is at most 2 exp(-2 m t^2) "
                             "(McDiarmid, two-sided)."),
            Assumption("A3", "Lemma 5 of the paper: E[phi | mu] <= 2 C R_m(H) for a C-Lipschitz loss."),
            Assumption("PS", "The samples are drawn from a finite probability space P on the outcomes "
                             "(the union bound is a theorem about such a P; Lean's statement takes P as given)."),
            Assumption("S2m", "The sample is the 2m points of S and its ghost copy S' (m >= 1), and "
                              "the patterns listed are distinct restrictions of the mask class to it."),
        ],
        findings=findings,
    )


def routing_term() -> Derivation:
    T = Var("T", 2, 10**6, "number of experts", integer=True)
    k = Var("k", 1, "T", "active experts", integer=True)
    Ts, ks = T.symbol, k.symbol
    C = sp.binomial(Ts, ks)
    steps = [
        Premise("upper", "MoeTheory.choose_mul_factorial_le_pow", sp.Le(C * sp.factorial(ks), Ts**ks),
                bind={"n": Ts, "k": ks}, text="C(T,k) k! <= T^k (the falling factorial is at most T^k)."),
        Bound("stirling", (ks / sp.E) ** ks, sp.factorial(ks), by=Assumed("B1"),
              text="k! >= (k/e)^k."),
        Bound("choose_upper", C, (sp.E * Ts / ks) ** ks,
              by=Combine({"upper": 1 / sp.factorial(ks), "stirling": Ts**ks / (sp.factorial(ks) * (ks / sp.E) ** ks)}),
              text="C(T,k) <= T^k / k! <= (eT/k)^k."),
        Bound("log_upper", sp.log(C), ks * sp.log(sp.E * Ts / ks), by=Monotone(_log(), "choose_upper"),
              text="The sharper routing term: log C(T,k) <= k log(eT/k)."),
        Premise("lower", "MoeTheory.pow_le_choose_mul_pow", sp.Le(Ts**ks, C * ks**ks),
                bind={"n": Ts, "k": ks}, text="T^k <= C(T,k) k^k, i.e. (T/k)^k <= C(T,k)."),
        Bound("log_lower_raw", ks * sp.log(Ts), sp.log(C) + ks * sp.log(ks), by=Monotone(_log(), "lower"),
              text="Taking logarithms."),
        Bound("log_lower", ks * sp.log(Ts / ks), sp.log(C), by=Combine({"log_lower_raw": 1}),
              text="k log(T/k) <= log C(T,k): Definition 5's factor is a lower bound on log C(T,k)."),
        Identity("gap", ks * sp.log(sp.E * Ts / ks) - ks * sp.log(Ts / ks), ks,
                 text="The two bounds differ by exactly k."),
    ]
    with mpmath.workdps(30):
        c42 = mpmath.log(mpmath.binomial(4, 2))
        d42 = 2 * mpmath.log(2)
    findings = [
        "log C(T,k) lies between k log(T/k) and k log(eT/k). Theorem 1 uses the weaker k log T.",
        "Definition 5's factor log(T/k) is the LOWER end of the sandwich. It is not an upper bound on "
        f"log C(T,k) / k: at T = 4, k = 2, log C(4,2) = log 6 = {mpmath.nstr(c42, 6)} > "
        f"2 log(4/2) = {mpmath.nstr(d42, 6)}. At k = T it vanishes, although the estimation error of a "
        "model with all T experts active is not zero. Using log(eT/k) keeps the upper bound and adds k "
        "to the bracket.",
    ]
    return Derivation(
        "routing_term",
        "The routing term: k log(T/k) <= log C(T,k) <= k log(eT/k)",
        vars=[T, k], steps=steps, conclusion="log_upper",
        source=SOURCE + ", Eq. 18 and Definition 5",
        summary="Both ends of the standard sandwich for log C(T,k) follow from Lean inequalities and k! >= (k/e)^k.",
        assumptions=[Assumption("B1", "k! >= (k/e)^k for every k >= 1: e^k = sum_j k^j/j! >= k^k/k!.")],
        findings=findings,
    )
