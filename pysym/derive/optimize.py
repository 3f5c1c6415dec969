"""Minimizers and the compute-optimal engine.

:func:`minimize` finds the minimum of an expression over a box of positive
variables: a grid search in log coordinates, then Newton's method on the exact
(SymPy) gradient and Hessian at 50 digits.  It reports whether the minimum is
interior (gradient zero, Hessian positive definite) or on the boundary.

>>> import sympy as sp
>>> G = sp.Symbol("G", positive=True)
>>> m = minimize(0.1577 * G + 7.2446 / G, {G: (1, 64)})
>>> round(float(m.point[G]), 4), m.interior
(6.7778, True)

:func:`compute_optimal` takes a law ``L(N, D)`` and the constraint
``C = kappa * N * D`` and returns how ``N*``, ``D*`` and ``L*`` scale with
``C``: exactly (SymPy) when the stationarity condition has a closed-form
solution, otherwise from the dominant power terms, confirmed numerically.

>>> N, D, C = sp.symbols("N D C", positive=True)
>>> a, b, A, B, E = sp.symbols("alpha beta A B E", positive=True)
>>> r = compute_optimal(E + A / N**a + B / D**b, N, D, C, kappa=6)
>>> r.exponent_N, r.exponent_D, r.exponent_loss
(beta/(alpha + beta), alpha/(alpha + beta), -alpha*beta/(alpha + beta))
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import mpmath
import sympy as sp

from pysym.derive.numeric import DIGITS
from pysym.numerics import compiled

__all__ = ["Minimum", "minimize", "ComputeOptimal", "compute_optimal", "local_exponent"]


@dataclass
class Minimum:
    point: dict  # symbol -> mpf
    value: mpmath.mpf
    interior: bool
    at_bounds: dict = field(default_factory=dict)  # symbol -> "low" | "high" for active bounds
    method: str = ""

    def describe(self) -> str:
        pt = ", ".join(f"{s} = {mpmath.nstr(v, 8)}" for s, v in self.point.items())
        where = "interior minimum" if self.interior else (
            "minimum on the boundary (" + ", ".join(f"{s} at its {b} bound" for s, b in self.at_bounds.items()) + ")")
        return f"{where} at {pt}; value {mpmath.nstr(self.value, 10)}"


def minimize(expr, box: dict, fixed: dict | None = None, *, grid: int | None = None) -> Minimum:
    """Minimum of ``expr`` over ``box`` (``{symbol: (low, high)}``, all > 0).

    Works in ``y = log(x)``; the grid has ``grid`` points per variable
    (default: 400 for one variable, 60 for two, 18 for three).  Raises
    ``ValueError`` when it cannot be done (a value missing, too many
    variables, derivatives that cannot be evaluated numerically).
    """
    expr = sp.sympify(expr)
    if fixed:
        expr = expr.subs(fixed)
    syms = list(box)
    extra = expr.free_symbols - set(syms)
    if extra:
        raise ValueError(f"values missing for {sorted(map(str, extra))}")
    n = len(syms)
    if n == 0 or n > 3:
        raise ValueError("minimize handles one to three variables")
    grid = grid or {1: 400, 2: 60, 3: 18}[n]
    ys = [sp.Dummy(f"y_{s}") for s in syms]
    g = expr.subs({s: sp.exp(y) for s, y in zip(syms, ys)})
    try:
        f = compiled(ys, g, "mpmath")
        grad = [compiled(ys, sp.diff(g, y), "mpmath") for y in ys]
        hess = [[compiled(ys, sp.diff(g, a, b), "mpmath") for b in ys] for a in ys]
    except NotImplementedError as exc:  # Abs(x - 3) has a derivative SymPy leaves unevaluated at the kink
        raise ValueError(f"its derivatives cannot be computed numerically ({type(exc).__name__}: a function "
                         "that is not differentiable everywhere, such as Abs, Min or Max)") from None
    with mpmath.workdps(DIGITS):
        lo = [mpmath.log(mpmath.mpf(box[s][0])) for s in syms]
        hi = [mpmath.log(mpmath.mpf(box[s][1])) for s in syms]
        axes = [[lo[i] + (hi[i] - lo[i]) * j / (grid - 1) for j in range(grid)] for i in range(n)]
        best_y = _grid_numpy(g, ys, [float(a) for a in lo], [float(b) for b in hi], grid)
        best = None
        if best_y is not None:
            try:
                best = _real(f(*best_y))
            except (ValueError, ZeroDivisionError, TypeError):
                best = None
        if best is None:  # numpy could not evaluate it: grid at full precision
            for y in itertools.product(*axes):
                try:
                    v = _real(f(*y))
                except (ValueError, ZeroDivisionError, TypeError):
                    continue
                if best is None or v < best:
                    best, best_y = v, list(y)
        if best is None:
            raise ValueError("the expression could not be evaluated anywhere in the box")
        y = _newton(grad, hess, best_y, lo, hi)
        interior = y is not None
        if interior:
            val = _real(f(*y))
            if val > best + mpmath.mpf(10) ** (-DIGITS + 15) * (1 + abs(best)):
                interior, y = False, best_y  # Newton found a worse stationary point
        if not interior:
            y, val = _refine_boundary(f, best_y, lo, hi, axes)
        at = {}
        tol = mpmath.mpf(10) ** -(DIGITS // 3)
        for i, s in enumerate(syms):
            if abs(y[i] - lo[i]) < tol:
                at[s] = "low"
            elif abs(y[i] - hi[i]) < tol:
                at[s] = "high"
        point = {s: mpmath.exp(y[i]) for i, s in enumerate(syms)}
        return Minimum(point, val, interior and not at, at, "grid + Newton on the exact gradient")


def _grid_numpy(g, ys, lo, hi, grid):
    """Best grid point (as mpf coordinates) using a float64 evaluation, or None."""
    import numpy as np

    try:
        fn = compiled(ys, g, "numpy")
        axes = [np.linspace(a, b, grid) for a, b in zip(lo, hi)]
        mesh = np.meshgrid(*axes, indexing="ij")
        with np.errstate(all="ignore"):
            vals = np.asarray(fn(*mesh), dtype=float)
        vals = np.broadcast_to(vals, mesh[0].shape)
        vals = np.where(np.isfinite(vals), vals, np.inf)
        if not np.isfinite(vals).any():
            return None
        idx = np.unravel_index(int(np.argmin(vals)), vals.shape)
        return [mpmath.mpf(float(axes[i][j])) for i, j in enumerate(idx)]
    except Exception:  # noqa: BLE001 - any failure means: fall back to mpmath
        return None


def _real(v):
    v = mpmath.mpmathify(v)
    if isinstance(v, mpmath.mpc):
        if abs(v.imag) > mpmath.mpf(10) ** (-DIGITS + 5):
            raise ValueError("complex value")
        v = v.real
    if not mpmath.isfinite(v):
        raise ValueError("not finite")
    return v


def _newton(grad, hess, y0, lo, hi, iters: int = 80):
    """Newton on grad = 0 from y0; the point if it converges inside the box
    with a positive definite Hessian, else None."""
    n = len(y0)
    y = mpmath.matrix(y0)
    for _ in range(iters):
        try:
            gv = mpmath.matrix([_real(gi(*y)) for gi in grad])
            hv = mpmath.matrix([[_real(h(*y)) for h in row] for row in hess])
            step = mpmath.lu_solve(hv, gv)
        except (ValueError, ZeroDivisionError, TypeError):
            return None
        y = y - step
        if any(y[i] < lo[i] - 1 or y[i] > hi[i] + 1 for i in range(n)):
            return None
        if mpmath.norm(step) < mpmath.mpf(10) ** (-DIGITS + 8):
            break
    else:
        return None
    if any(y[i] < lo[i] or y[i] > hi[i] for i in range(n)):
        return None
    try:
        hv = mpmath.matrix([[_real(h(*y)) for h in row] for row in hess])
        mpmath.cholesky(hv)  # positive definite?
    except (ValueError, ZeroDivisionError):
        return None
    return [y[i] for i in range(n)]


def _refine_boundary(f, y0, lo, hi, axes):
    """Golden-section coordinate refinement, clamped to the box."""
    y = list(y0)
    step = [(hi[i] - lo[i]) / (len(axes[i]) - 1) for i in range(len(y))]
    for _ in range(3):
        for i in range(len(y)):
            a, b = max(lo[i], y[i] - step[i]), min(hi[i], y[i] + step[i])

            def fi(t, i=i):
                z = list(y)
                z[i] = t
                return _real(f(*z))

            y[i] = _golden(fi, a, b)
    return y, _real(f(*y))


def _golden(fn, a, b, iters: int = 200):
    invphi = (mpmath.sqrt(5) - 1) / 2
    c, d = b - invphi * (b - a), a + invphi * (b - a)
    fc, fd = fn(c), fn(d)
    for _ in range(iters):
        if fc < fd:
            b, d, fd = d, c, fc
            c = b - invphi * (b - a)
            fc = fn(c)
        else:
            a, c, fc = c, d, fd
            d = a + invphi * (b - a)
            fd = fn(d)
    cands = [(fn(a), a), (fc, c), (fd, d), (fn(b), b)]
    return min(cands, key=lambda t: t[0])[1]


# --------------------------------------------------------------------------- compute-optimal


@dataclass
class ComputeOptimal:
    law: sp.Expr
    N: sp.Symbol
    D: sp.Symbol
    C: sp.Symbol
    kappa: object
    N_star: sp.Expr | None  # closed form in C (None if not found)
    D_star: sp.Expr | None
    L_star: sp.Expr | None
    exponent_N: sp.Expr
    exponent_D: sp.Expr
    exponent_loss: sp.Expr  # of L* - E (the reducible loss)
    coefficient_N: sp.Expr | None = None
    coefficient_D: sp.Expr | None = None
    method: str = ""
    notes: list[str] = field(default_factory=list)
    rest_scales: bool = False  # the part of L that does not depend on N depends on C: not in exponent_loss


def _power_terms(expr, var):
    """``{exponent: coefficient}`` of ``expr`` as a sum of ``c * var**e``
    (exponents may be symbolic); None if it is not of that form."""
    terms: dict = {}
    for t in sp.Add.make_args(sp.expand(expr)):
        c, e = sp.S.One, sp.S.Zero
        for f in sp.Mul.make_args(t):
            if f == var:
                e += 1
            elif f.is_Pow and f.base == var:
                e += f.exp
            elif var in f.free_symbols:
                return None
            else:
                c *= f
        terms[e] = terms.get(e, 0) + c
    return terms


def compute_optimal(law, N, D, C, kappa=6) -> ComputeOptimal:
    """Scaling of the compute-optimal allocation of ``law`` under ``C = kappa*N*D``.

    After ``D = C/(kappa N)`` every term of the law must be a power product
    ``c N**e C**g`` (this covers ``A/N**a + B/D**b`` and products such as
    ``A/(N**a D**b)``).  With two terms that depend on N, one falling and one
    rising in N, the optimum has a closed form, derived here and verified by
    substituting it back into the stationarity condition.  For the separable
    law ``E + sum_i A_i/N**a_i + sum_j B_j/D**b_j`` with more terms, the
    smallest exponents dominate as ``C`` grows and the exponents returned are
    that limit.

    A product example, a data term that shrinks with model size:

    >>> N, D, C, A, B = sp.symbols("N D C A B", positive=True)
    >>> r = compute_optimal(A / N + B / (sp.sqrt(N) * D**2), N, D, C, kappa=6)
    >>> r.exponent_N, r.exponent_D, r.exponent_loss
    (4/5, 1/5, -4/5)
    """
    law = sp.sympify(law)
    kappa = sp.sympify(kappa)
    f = sp.expand(law.subs(D, C / (kappa * N)))
    monos = _monomials(f, N, C)
    if monos is None:
        raise ValueError("the law is not a sum of power products of N and D; audit it with a numeric "
                         "exponent instead")
    moving = [(c, e, g) for c, e, g in monos if e != 0]
    rest = sp.Add(*[c * C**g for c, e, g in monos if e == 0])
    if len(moving) == 2:
        (c1, e1, g1), (c2, e2, g2) = sorted(moving, key=lambda t: 0 if t[1].is_negative else 1)
        if e1.is_negative and e2.is_positive and c1.is_positive and c2.is_positive:
            a = sp.simplify((g1 - g2) / (e2 - e1))
            N_star = (-c1 * e1 / (c2 * e2)) ** (1 / (e2 - e1)) * C**a
            from pysym.derive.prove import prove_zero

            if not prove_zero(sp.diff(f, N).subs(N, N_star)).ok:  # pragma: no cover - an algebra bug
                raise ValueError("the closed-form optimum failed its stationarity check")
            D_star = C / (kappa * N_star)
            exp_D = sp.simplify(1 - a)
            exp_L = sp.simplify(g1 + e1 * a)
            notes = [f"the part of L that does not depend on N is {sp.sstr(rest)}"]
            if rest.has(C):
                notes.append("that part depends on C as well: the loss exponent is that of the N-dependent part")
            return ComputeOptimal(
                law, N, D, C, kappa, N_star, D_star, f.subs(N, N_star), a, exp_D, exp_L,
                sp.simplify(N_star / C**a), sp.simplify(D_star / C**exp_D),
                "closed form: N* solves dL/dN = 0 after D = C/(kappa N) (verified by substitution)", notes,
                rest_scales=bool(rest.has(C)))
    parts_N = _power_parts(law, N, D)
    parts_D = _power_parts(law, D, N)
    if not parts_N or not parts_D:
        raise ValueError("no closed form for this law (it needs one term falling and one rising in N after "
                         "D = C/(kappa N)); audit it with a numeric exponent instead")
    a = sp.Min(*[e for e, _ in parts_N])
    b = sp.Min(*[e for e, _ in parts_D])
    return ComputeOptimal(law, N, D, C, kappa, None, None, None, sp.simplify(b / (a + b)),
                          sp.simplify(a / (a + b)), sp.simplify(-a * b / (a + b)), None, None,
                          "asymptotic: the smallest exponents in N and in D dominate as C grows",
                          ["exponents are the C -> infinity limit; at finite C the local exponent differs "
                           "(see local_exponent)"])


def _monomials(f, N, C):
    """``[(coefficient, e, g), ...]`` writing ``f`` as a sum of ``c N**e C**g``
    (like terms merged); None if some term has another shape."""
    out: dict = {}
    for t in sp.Add.make_args(f):
        c, e, g = sp.S.One, sp.S.Zero, sp.S.Zero
        for factor in sp.Mul.make_args(sp.expand_power_base(t, force=True)):
            base, ex = factor.as_base_exp()
            if base == N:
                e += ex
            elif base == C:
                g += ex
            elif factor.has(N) or factor.has(C):
                return None
            else:
                c *= factor
        key = (sp.simplify(e), sp.simplify(g))
        out[key] = out.get(key, 0) + c
    return [(sp.simplify(c), e, g) for (e, g), c in out.items() if c != 0]


def _power_parts(law, var, other):
    """``[(a, c), ...]`` for the terms ``c * var**(-a)`` (a > 0) of ``law``;
    None when a term mixes ``var`` with ``other`` or has another shape."""
    parts = []
    for t in sp.Add.make_args(sp.expand(law)):
        if var not in t.free_symbols:
            continue
        if other in t.free_symbols:
            return None
        pt = _power_terms(t, var)
        if pt is None or len(pt) != 1:
            return None
        ((e, c),) = pt.items()
        if (-e).is_positive is False:
            return None
        parts.append((sp.simplify(-e), c))
    return parts


def local_exponent(fn, c1, c2) -> mpmath.mpf:
    """``d log fn / d log C`` between ``c1`` and ``c2`` (a secant in log-log)."""
    with mpmath.workdps(DIGITS):
        return (mpmath.log(fn(c2)) - mpmath.log(fn(c1))) / (mpmath.log(c2) - mpmath.log(c1))
