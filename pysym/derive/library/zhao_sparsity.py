"""Zhao et al., Section 4.3: the optimal number of active experts.

The total error of Section 4.3.3 is modelled as

    E(k) = A N^2 / k + B sqrt(N k d L(T, k) / m),    1 <= k <= T,

with L = log(T/k) as in Definition 5 ("literal") or L = log(eT/k), the upper
bound on log C(T,k)/k ("sharp", see ``routing_term``).

``zhao_remark3``
    Remark 3: the estimation term is concave in k with its maximum at T/e.
``zhao_optimal_k``
    The global minimizer in both cases, the exact condition for an interior
    optimum, the comparative statics of k*, and the closed form when the
    logarithm is frozen.
"""

from __future__ import annotations

from pathlib import Path

import mpmath
import sympy as sp

from pysym.figures import save_figure
from pysym.derive.core import (
    Assumption,
    Bound,
    Computed,
    Derivation,
    Identity,
    Elasticity,
    Numeric,
    Remark,
    Sign,
    Stationary,
    Var,
)
from pysym.numerics import compiled

SOURCE = "Zhao et al., arXiv 2410.13964 v2, Section 4.3 (Definitions 4-5, Remark 3, Section 4.3.3)"


def _common():
    A = Var("A", sp.Rational(1, 1000), 1000, "constant of the approximation term")
    B = Var("B", sp.Rational(1, 1000), 1000, "constant of the estimation term")
    N = Var("N", 1, 100, "number of tasks", integer=True)
    d = Var("d", 1, 100, "router Natarajan dimension d_N", integer=True, latex="d_N")
    m = Var("m", 1, 10**9, "training samples", integer=True)
    T = Var("T", 2, 10**4, "number of experts", integer=True)
    return A, B, N, d, m, T


def zhao_remark3() -> Derivation:
    A, B, N, d, m, _ = _common()
    # T >= 3: at T = 2 the maximizer T/e = 0.74 lies below k = 1, outside [1, T - 1]
    T = Var("T", 3, 10**4, "number of experts", integer=True)
    k = Var("k", 1, "T - 1", "active experts (continuous)")
    As, Bs, Ns, ds, ms, Ts, ks = (v.symbol for v in (A, B, N, d, m, T, k))
    L = sp.log(Ts / ks)
    f = ks * L
    Eest = Bs * sp.sqrt(Ns * ds / ms) * sp.sqrt(f)
    second = -Bs * sp.sqrt(Ns * ds / ms) * (2 * L + (L - 1) ** 2) / (4 * (ks * L) ** sp.Rational(3, 2))
    steps = [
        Identity("f_prime", sp.Derivative(f, ks), sp.log(Ts / ks) - 1,
                 text="f(k) = k log(T/k) has f'(k) = log(T/k) - 1 and f''(k) = -1/k < 0."),
        Stationary("f_max", f, ks, Ts / sp.E, kind="max",
                   text="f is maximal at k = T/e, which lies in [1, T - 1] for T >= 3."),
        Identity("second", sp.Derivative(Eest, (ks, 2)), second,
                 text="Second derivative of the estimation term E_est = B sqrt(N d f(k) / m)."),
        Bound("concave", sp.Derivative(Eest, (ks, 2)), 0, by=Sign(),
              text="E_est'' <= 0 on 1 <= k < T: the estimation term is concave (Remark 3)."),
        Stationary("est_max", Eest, ks, Ts / sp.E, kind="max",
                   text="E_est is maximal at k = T/e, and decreasing on [T/e, T] (Remark 3)."),
    ]
    return Derivation(
        "zhao_remark3", "Remark 3: the estimation term is concave with its maximum at k = T/e",
        vars=[A, B, N, d, m, T, k], steps=steps, conclusion="est_max", source=SOURCE + ", Remark 3",
        summary="With L = log(T/k), E_est(k) = B sqrt(N d k log(T/k) / m) is concave on [1, T) and, for T >= 3, "
                "peaks at T/e.",
        orders=[(ks + 1, Ts)],
        findings=["Remark 3 holds as stated for T >= 3: E_est is concave in k on [1, T) with its maximum at "
                  "k = T/e. At T = 2 the point T/e = 0.74 lies below k = 1, so on [1, T] the estimation term "
                  "only decreases."],
    )


# --------------------------------------------------------------------------- optimal k

LOG0 = (sp.sqrt(7) - 1) / 3  # root of 3 l^2 + 2 l - 2 (where R'(u) = 0)


def _R(ell):
    """R at u = exp(-ell): u^{3/2} (-log u) / (2 sqrt(1 - log u))."""
    return sp.exp(-sp.Rational(3, 2) * ell) * ell / (2 * sp.sqrt(1 + ell))


def threshold() -> tuple[mpmath.mpf, mpmath.mpf]:
    """(rho*, u_c): the interior optimum is global iff rho < rho*; it then lies below u_c T."""
    ell = sp.Symbol("ell", positive=True)
    G = _R(ell) * sp.exp(ell) + sp.exp(-ell / 2) * sp.sqrt(1 + ell) - 1 - _R(ell)
    g = compiled(ell, G, "mpmath")
    r = compiled(ell, _R(ell), "mpmath")
    with mpmath.workdps(50):
        lc = mpmath.findroot(g, 0.93)
        return r(lc), mpmath.exp(-lc)


def zhao_optimal_k() -> Derivation:
    A, B, N, d, m, T = _common()
    k = Var("k", 1, "T", "active experts (continuous)")
    ell = Var("ell", sp.Rational(1, 100), 60, "ell = log(T/k) = -log u", latex=r"\ell")
    L0 = Var("L", sp.Rational(1, 100), 20, "a frozen value of the logarithm")
    As, Bs, Ns, ds, ms, Ts, ks, ls, Ls = (v.symbol for v in (A, B, N, d, m, T, k, ell, L0))
    E_lit = As * Ns**2 / ks + Bs * sp.sqrt(Ns * ks * ds * sp.log(Ts / ks) / ms)
    E_sharp = As * Ns**2 / ks + Bs * sp.sqrt(Ns * ks * ds * sp.log(sp.E * Ts / ks) / ms)
    rho = As * Ns ** sp.Rational(3, 2) * sp.sqrt(ms) / (Bs * sp.sqrt(ds) * Ts ** sp.Rational(3, 2))
    u = ks / Ts
    F = rho / u + sp.sqrt(u * (1 - sp.log(u)))
    eps = sp.Rational(3, 2) - 1 / ls + 1 / (2 * (1 + ls))  # d log R / d log u at u = exp(-ell)
    rho_star, u_c = threshold()
    foc = sp.log(_R(ls)) - sp.log(rho)  # = 0 at an interior stationary point, ell = log(T/k)
    D = 3 * ls**2 + 2 * ls - 2
    branch = (LOG0 + sp.Rational(1, 100), 60)  # the minimum branch, ell > ell_0
    E_froz = As * Ns**2 / ks + Bs * sp.sqrt(Ns * ks * ds * Ls / ms)
    k_froz = (2 * As / Bs) ** sp.Rational(2, 3) * Ns * (ms / (ds * Ls)) ** sp.Rational(1, 3)
    steps = [
        Remark("lit", text="Literal model, L = log(T/k) (Definition 5 and Section 4.3.3 as written)."),
        Identity("lit_at_T", sp.Subs(E_lit, ks, Ts), As * Ns**2 / Ts,
                 text="At full activation the estimation term vanishes: E(T) = A N^2 / T."),
        Bound("lit_global", As * Ns**2 / Ts, E_lit, by=Sign(),
              text="E(T) <= E(k) for every 1 <= k <= T: full activation is the global minimizer, for all "
                   "values of A, B, N, d_N, m and T."),
        Remark("sharp", text="Sharp model, L = log(eT/k) (the upper bound on log C(T,k)/k)."),
        Identity("sharp_slope_T", sp.Subs(sp.Derivative(E_sharp, ks), ks, Ts), -As * Ns**2 / Ts**2,
                 text="E'(T) = -A N^2 / T^2 < 0: full activation is always a local minimum."),
        Identity("scaling", E_sharp, Bs * sp.sqrt(Ns * ds * Ts / ms) * F,
                 text="E(k) = B sqrt(N d T / m) F(k/T) with F(u) = rho/u + sqrt(u (1 - log u)) and "
                      "rho = A N^{3/2} m^{1/2} / (B d^{1/2} T^{3/2}): the optimal fraction u* = k*/T depends "
                      "on the parameters only through rho."),
        Identity("F_prime", sp.diff(F, ks) * Ts,
                 (Ts**2 / ks**2) * (_R(sp.log(Ts / ks)) - rho),
                 text="F'(u) = (R(u) - rho) / u^2 with R(u) = u^{3/2} (-log u) / (2 sqrt(1 - log u)): "
                      "interior stationary points solve R(u) = rho."),
        Identity("elasticity", -sp.Derivative(sp.log(_R(ls)), ls), eps,
                 text="Elasticity of R: d log R / d log u = 3/2 - 1/ell + 1/(2(1+ell)) with ell = -log u."),
        Identity("elasticity_form", eps, (3 * ls**2 + 2 * ls - 2) / (2 * ls * (1 + ls)),
                 text="So R increases (a local minimum of F) exactly where 3 ell^2 + 2 ell - 2 > 0, i.e. "
                      "ell > ell_0 = (sqrt 7 - 1)/3, u < u_m = exp(-ell_0) = 0.5778."),
        Identity("ell0", 3 * LOG0**2 + 2 * LOG0 - 2, 0, text="ell_0 = (sqrt 7 - 1)/3 is the root."),
        Computed("rho_star", ls, _R(ls) * sp.exp(ls) + sp.exp(-ls / 2) * sp.sqrt(1 + ls) - 1 - _R(ls), 0.93,
                 text="The interior local minimum ties with full activation, F(u_1) = F(1) = 1 + rho, at "
                      f"ell_c (u_c = {mpmath.nstr(u_c, 6)}), i.e. rho* = R(u_c) = {mpmath.nstr(rho_star, 8)}."),
        Bound("tie_below", _R(ls) * sp.exp(ls) + sp.exp(-ls / 2) * sp.sqrt(1 + ls) - _R(ls), 1,
              by=Numeric("on ell >= ell_c, F(u_1) <= 1 + rho"),
              text="For rho < rho* the interior minimum beats full activation (checked on ell in [ell_c, 60])."
              ).on(ell=(sp.Float(-mpmath.log(u_c), 40), 60)),
        Remark("regimes", text=f"Hence: if rho < rho* = {mpmath.nstr(rho_star, 6)} the global minimizer over "
                               f"0 < k <= T is interior, k* = T u_1(rho) < {mpmath.nstr(u_c, 4)} T; if rho > rho* it "
                               "is full activation k* = T. On 1 <= k <= T, if T u_1 < 1 the interior minimum lies "
                               "below k = 1, and E increases and then decreases on [1, T] (F' changes sign at most "
                               "twice), so the minimizer is an end point, k = 1 or k = T, whichever has the smaller "
                               "error (at T = 2 it can be either)."),
        Remark("statics", text="Comparative statics, by implicit differentiation. At an interior stationary point "
                               "ell = log(T/k*) solves G = log R(ell) - log rho = 0 (step F_prime); on the minimum "
                               "branch ell >= ell_0 + 1/100, dG/d ell = -(3 ell^2 + 2 ell - 2)/(2 ell (1 + ell)) is "
                               "nonzero, so k* = T exp(-ell) is a smooth function of N, m, d_N and T there, with "
                               "d log k*/d log x = -x d ell/dx = x (dG/dx) / (dG/d ell), plus 1 for x = T."),
        Elasticity("dk_dN", foc, ls, Ns, 3 * ls * (1 + ls) / D, of=Ts * sp.exp(-ls), name="k^*",
                   text="(a) d log k*/d log N = 3 ell (1 + ell) / (3 ell^2 + 2 ell - 2).").on(ell=branch),
        Bound("dk_dN_sign", 1, 3 * ls * (1 + ls) / D, by=Sign(), strict=True,
              text="It exceeds 1 (numerator minus denominator is ell + 2 > 0): k* grows with N, faster than "
                   "linearly.").on(ell=branch),
        Elasticity("dk_dm", foc, ls, ms, ls * (1 + ls) / D, of=Ts * sp.exp(-ls), name="k^*",
                   text="(b) d log k*/d log m = ell (1 + ell) / (3 ell^2 + 2 ell - 2).").on(ell=branch),
        Bound("dk_dm_sign", 0, ls * (1 + ls) / D, by=Sign(), strict=True,
              text="Positive: k* increases with m.").on(ell=branch),
        Elasticity("dk_dd", foc, ls, ds, -ls * (1 + ls) / D, of=Ts * sp.exp(-ls), name="k^*",
                   text="(c) d log k*/d log d_N = -ell (1 + ell) / (3 ell^2 + 2 ell - 2).").on(ell=branch),
        Bound("dk_dd_sign", -ls * (1 + ls) / D, 0, by=Sign(), strict=True,
              text="Negative: k* decreases with d_N.").on(ell=branch),
        Elasticity("dk_dT", foc, ls, Ts, -(ls + 2) / D, of=Ts * sp.exp(-ls), name="k^*",
                   text="d log k*/d log T = -(ell + 2) / (3 ell^2 + 2 ell - 2).").on(ell=branch),
        Bound("dk_dT_sign", -(ls + 2) / D, 0, by=Sign(), strict=True,
              text="Negative on the minimum branch: in the interior regime k* DEcreases as T grows."
              ).on(ell=branch),
        Remark("frozen", text="Frozen logarithm: L(T,k) replaced by a constant L."),
        Stationary("frozen_opt", E_froz, ks, k_froz, kind="min", over=(0, sp.oo),
                   text="k* = (2A/B)^{2/3} N (m / (d_N L))^{1/3}, the minimizer over k > 0 (it need not lie in "
                        "[1, T]: then the constrained minimizer is the nearer end point): linear in N, increasing "
                        "in m, decreasing in d_N and in L."),
    ]
    return Derivation(
        "zhao_optimal_k",
        "Optimal sparsity: the global minimizer of E(k) = A N^2/k + B sqrt(N k d_N L / m)",
        vars=[A, B, N, d, m, T, k, ell, L0], steps=steps, conclusion="lit_global",
        source=SOURCE,
        summary="With Definition 5's log(T/k), full activation k = T minimizes the total error for every "
                "parameter value. With log(eT/k), an interior optimum exists exactly when "
                f"rho = A N^(3/2) m^(1/2) / (B d_N^(1/2) T^(3/2)) < rho* = {mpmath.nstr(rho_star, 6)}; then k* "
                "increases with N (faster than linearly), with m, decreases with d_N, and decreases with T.",
        assumptions=[Assumption("C1", "Definitions 4 and 5 with their O(.) constants made explicit as A and B.")],
        findings=[
            "Literal model: E(T) = A N^2/T <= E(k) for all k, so full activation is always optimal; the "
            "claimed optimum 'between minimal activation (1-2 experts) and full activation' does not exist "
            "for E_total as written.",
            f"Sharp model: interior optimum iff rho < rho* = {mpmath.nstr(rho_star, 8)}; the optimum then lies "
            f"below {mpmath.nstr(u_c, 4)} T and jumps to T when rho crosses rho*.",
            "Comparative statics (interior regime): k* increases with m and with N (elasticity > 1 in N) and "
            "decreases with d_N, as conclusions (a)-(c) say; but k* decreases with T, so conclusion (d), k "
            "grown proportionally with T, holds only in the full-activation regime.",
        ],
        plots=[plot_error_curves, plot_regimes],
    )


# --------------------------------------------------------------------------- plots


def _E_num(A, B, N, d, m, T, sharp):
    def e(k):
        L = mpmath.log(T / k) + (1 if sharp else 0)
        return A * N**2 / k + B * mpmath.sqrt(max(N * k * d * L / m, 0))
    return e


def plot_error_curves(out: Path, plt) -> list[tuple[str, str]]:
    """E(k) for both models at two parameter sets (interior vs full activation)."""
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.4))
    T = 64
    for ax, (A, title) in zip(axes, [(0.02, "rho below rho*"), (0.2, "rho above rho*")]):
        B, N, d, m = 1.0, 4, 4, 2000
        ks = [1 + (T - 1) * i / 400 for i in range(401)]
        for sharp, style, label in [(False, "--", "log(T/k) (Def. 5)"), (True, "-", "log(eT/k)")]:
            e = _E_num(A, B, N, d, m, T, sharp)
            vals = [float(e(k)) for k in ks]
            ax.plot(ks, vals, style, label=label)
            i = min(range(len(vals)), key=vals.__getitem__)
            ax.plot([ks[i]], [vals[i]], "o", color=ax.lines[-1].get_color())
        rho = A * N**1.5 * m**0.5 / (B * d**0.5 * T**1.5)
        ax.set_title(f"{title}: rho = {rho:.3f}", fontsize=9)
        ax.set_xlabel("k (active experts), T = 64")
        ax.set_ylabel("E(k)")
        ax.legend(fontsize=7)
    name = "zhao_error_curves.png"
    save_figure(fig, out / name)
    return [(name, "E(k) with Definition 5's log(T/k) (dashed; always minimal at k = T) and with log(eT/k) "
                   "(solid; interior minimum only when rho < rho*). Dots mark the minima.")]


def plot_regimes(out: Path, plt) -> list[tuple[str, str]]:
    """k*/T against rho for the sharp model."""
    rho_star, _ = threshold()
    rhos, ratios = [], []
    import numpy as np

    us = np.logspace(-6, 0, 1501)
    shape = np.sqrt(us * (1 - np.log(us)))
    for i in range(241):
        rho = 10 ** (-4 + 3 * i / 240)
        rhos.append(rho)
        ratios.append(float(us[int(np.argmin(rho / us + shape))]))
    fig, ax = plt.subplots(figsize=(5, 3.2))
    ax.semilogx(rhos, ratios)
    ax.axvline(float(rho_star), linestyle=":", color="gray")
    ax.text(float(rho_star) * 1.1, 0.5, "rho*", fontsize=8)
    ax.set_xlabel("rho = A N^1.5 m^0.5 / (B d^0.5 T^1.5)")
    ax.set_ylabel("k*/T")
    name = "zhao_regimes.png"
    save_figure(fig, out / name)
    return [(name, "The optimal fraction k*/T of the sharp model: interior below rho*, full activation above.")]
