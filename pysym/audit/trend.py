"""Comparative statics: in which direction does a minimizer move with a parameter?

Used by ``sign`` claims with ``argmin`` (:mod:`pysym.audit.kinds.sign`).  The
minimizer ``x*`` of ``law`` over ``x in [lo, hi]`` is, at each configuration,
either interior or at one end of the range:

* **interior minima**: ``dx*/dθ = -L_xθ / L_xx`` with ``L_xx > 0``, so the
  sign of ``-L_xθ`` decides; it is proved by SymPy, if need be after
  eliminating one parameter with the stationarity condition ``L_x = 0``;
* **minima at an end**: ``x* = lo`` or ``x* = hi``, so the sign of ``d lo/dθ``
  or ``d hi/dθ`` decides; it is proved by SymPy too (``x* = T`` does not move
  with ``m``: a claim that it strictly increases fails there);
* which regimes occur, and the global minimizer's direction across them, come
  from 48 sampled configurations (global argmin at ``θ`` and ``1.01 θ``).

``holds`` needs every regime that occurs to be proved to move the claimed way
(regime switches are covered only by the sampled configurations, and the
evidence says so).  A regime proved to move the other way makes the verdict
``conditional`` (stating where it holds) or ``fails``.

>>> from pysym.audit.examples import example
>>> example("sign", law="(x - c)**2", argmin="x", over=[0.1, 10], param="c", sign="nonnegative")[1][:62]
'x* does not decrease with c at every interior minimum and at t'
"""

from __future__ import annotations

import sympy as sp

from pysym.audit.argmin import describe_cfg, grid_argmin, setup
from pysym.audit.budget import CPUTimeout, cpu_limit
from pysym.audit.context import SEED
from pysym.audit.numbers import num, show
from pysym.audit.verdict import Outcome
from pysym.audit.boxes import Var, decide, fraction
from pysym.audit.interval import IntervalError
from pysym.audit.precision import box_of
from pysym.audit.printed import Printed
from pysym.audit.proofs import attempt, safe_simplify
from pysym.audit.region import numeric_box
from pysym.derive import numeric

__all__ = ["argmin_trend"]

_WANT = {"positive": 1, "nonnegative": 1, "negative": -1, "nonpositive": -1}
_WORDS = {1: "increases", -1: "decreases"}
_WEAK_WORDS = {1: "does not decrease", -1: "does not increase"}


def _likely_sign(expr, ctx) -> int:
    """+1 or -1: the sign ``expr`` mostly takes at four sampled points (+1 if unknown)."""
    try:
        pts = ctx.domain().sample(4, SEED)
        vals = [numeric.evaluate(expr, {s: pt[s] for s in expr.free_symbols}) for pt in pts]
        if sum(1 for v in vals if v < 0) > len(vals) / 2:
            return -1
    except (ValueError, KeyError, TypeError, ZeroDivisionError):
        pass
    return 1


def _interior_sign(a, theta, sign, elim, ev):
    """``(direction, strict)``: ``direction`` is +want if dx*/dθ provably has the
    claimed sign at interior minima, -want if it provably has the opposite one
    (strictly, for a weak claim), None if neither is proved; ``strict`` says
    whether the proved sign is strict."""
    v, law = a.v, a.law
    want = _WANT[sign]
    weak = sign in ("nonnegative", "nonpositive")
    Fv = sp.diff(law, v)
    cross = -sp.diff(Fv, theta)
    # the parameter the claim says to eliminate first; else first without eliminating anything
    cands = [elim, None] if elim is not None else [None] + [s for s in a.others if s != theta]
    order = a.order()
    for p in cands:
        try:
            with cpu_limit(20):
                if p is None:
                    reduced = safe_simplify(cross)
                else:
                    sol = sp.solve(Fv, p)
                    if len(sol) != 1:
                        continue
                    reduced = safe_simplify(cross.subs(p, sol[0]))
        except (CPUTimeout, NotImplementedError, ValueError, TypeError):
            continue
        # the attempts that can settle it, the likelier direction first (a failed proof attempt is slow)
        attempts = [(want, not weak), (-want, True)] + ([] if weak else [(-want, False)])
        if _likely_sign(reduced, a.ctx) != want:
            attempts = attempts[1:] + attempts[:1]
        found = word = None
        for direction, strict in attempts:
            if attempt("positive" if strict else "nonnegative", direction * reduced, order):
                found = direction
                word = {(True, 1): "positive", (True, -1): "negative", (False, 1): "nonnegative",
                        (False, -1): "nonpositive"}[(strict, direction)]
                break
        if found is not None:
            how = "" if p is None else f"eliminating {p} with L_{v} = 0 gives "
            ev["interior_proof"] = (f"at an interior minimum d{v}*/d{theta} = -L_{v}{theta}/L_{v}{v}; "
                                    f"{how}-L_{v}{theta} = {show(reduced)}, which is {word} (proved)")
            return found, word in ("positive", "negative")
    return None, None


def _end_agrees(a, bound, theta, sign, want) -> bool | None:
    """At an end ``x* = bound``: True if d bound/dθ has the claimed sign (proved),
    False if it provably has not, None if neither is proved."""
    d = sp.diff(bound, theta)
    order = a.order()
    if sign in ("nonnegative", "nonpositive"):
        if attempt("nonnegative", want * d, order):
            return True
        return False if attempt("positive", -want * d, order) else None
    if attempt("positive", want * d, order):
        return True
    if d == 0 or attempt("nonnegative", -want * d, order):
        return False
    return None


def _positive(expr, a) -> bool:
    """``expr > 0`` for every configuration and every ``v`` in its symbol's range.

    In this order, each step deciding when it can: interval branch and bound
    over the ranges when they are numbers (a budget of boxes); ``expr <= 0``
    proved at one admissible point (of that search, or a seeded sample of the
    claim's configurations): not positive, so no prover need try; SymPy's sign
    prover under a CPU-time limit.  Only that last step depends on the
    machine's speed, and an outcome it stops is never cached
    (:mod:`pysym.audit.cache`); the first two make the answer the same on every
    machine wherever they decide.  A point never proves positivity, and a
    refutation only withholds a proof, so neither can make a claim hold."""
    box = numeric_box(a.ctx, {s for s in expr.free_symbols if not isinstance(s, Printed)})
    if box is not None:
        try:
            found = decide([(expr, ">")], box + box_of([expr]), budget=200)
        except (IntervalError, ZeroDivisionError, ValueError, TypeError):
            pass
        else:
            if found.status == "all":
                return True
            if _admissible(found.point("violated"), box):
                return False
    if _refuted_at_a_sample(expr, a):
        return False
    return attempt("positive", expr, a.order(), seconds=1.5)


def _admissible(point: dict | None, box) -> bool:
    """Whether ``point`` (a witness of :func:`decide` over ``box``) is a value
    the claim admits: an integer for an integer symbol (the box's ranges hold)."""
    if point is None:
        return False
    return all(point[v.symbol].denominator == 1 for v in box if v.integer)


def _refuted_at_a_sample(expr, a) -> bool:
    """Whether ``expr <= 0`` is proved (interval arithmetic at one point) at
    one of the claim's seeded admissible configurations."""
    symbols = sorted(expr.free_symbols, key=str)
    for pt in a.ctx.sample():
        if any(s not in pt for s in symbols):
            return False
        try:
            exact = {s: fraction(sp.Float(pt[s])) for s in symbols}
            point = [Var(s, exact[s], exact[s]) for s in symbols]
            if decide([(expr, ">")], point, budget=1).status == "none":
                return True
        except (IntervalError, ZeroDivisionError, ValueError, TypeError):
            continue
    return False


def _unproved_structure(a, theta, sign, want, ev) -> list[str]:
    """What ``holds`` still needs beyond the interior sign, unproved: ``L_vv > 0``
    (one minimizer, moving continuously: no jump between two wells), and at each
    end of the range either ``x* = end`` proved impossible (the law falls away from
    it) or the end moving the claimed way.  Empty when all of it is proved."""
    v = a.v
    gaps = []
    if _positive(sp.diff(a.law, v, 2), a):
        ev["convexity"] = f"d2L/d{v}2 > 0 (proved): one minimizer, continuous in the parameters"
    else:  # the first gap decides the verdict: the ends are not examined
        return [f"d2L/d{v}2 > 0 is not proved (the global minimizer could jump between two wells)"]
    slope = sp.diff(a.law, v)
    for end, bound, falls_away in (("lower", a.lo, -slope.subs(v, a.lo)), ("upper", a.hi, slope.subs(v, a.hi))):
        if _positive(falls_away, a):
            ev[f"{end}_end_never"] = f"{v}* = {show(bound)} never (dL/d{v} points into the range there: proved)"
        elif _end_agrees(a, bound, theta, sign, want) is not True:
            gaps.append(f"at the {end} end {v}* = {show(bound)} is neither proved impossible nor proved to move "
                        "the claimed way")
    return gaps


def argmin_trend(cf, claim) -> Outcome:
    sign = claim.get("sign")
    a = setup(cf, claim)
    v, theta = a.v, claim.get("param")
    if theta not in a.others:
        raise cf.error(claim, f"`param` {theta} does not appear in the law or in the range of {v}")
    want = _WANT[sign]
    ev: dict = {}
    if v.is_integer:
        # the minimizer over the integers moves in steps (k* = round(m) for (k - m)**2: constant between the
        # steps, never strictly increasing); the derivatives below are those of the minimizer over the reals
        return Outcome("inconclusive", f"{v} is an integer symbol: its minimizer moves in steps as {theta} grows, "
                                       f"and the engine proves how the minimizer over the reals moves, not the "
                                       "integers' one", ev)
    interior, strict = _interior_sign(a, theta, sign, claim.get("eliminate"), ev)
    # numeric: global argmin at theta and theta*(1+h)
    f_np, lo_f, hi_f = a.numeric()
    k_theta = a.others.index(theta)
    rows = []
    for pt in a.ctx.sample():
        args = [float(pt[s]) for s in a.others]
        x0, w0 = grid_argmin(f_np, float(lo_f(*args)), float(hi_f(*args)), args)
        args2 = list(args)
        args2[k_theta] += 0.01 * abs(args[k_theta]) if args[k_theta] != 0 else 0.01
        x1, _ = grid_argmin(f_np, float(lo_f(*args2)), float(hi_f(*args2)), args2)
        slope = (x1 - x0) / (args2[k_theta] - args[k_theta])
        direction = 0 if abs(x1 - x0) <= 1e-7 * (1 + abs(x0)) else (1 if x1 > x0 else -1)
        rows.append((pt, x0, w0, direction, slope))

    def agrees(d):
        return d == want or (d == 0 and sign in ("nonnegative", "nonpositive"))

    regimes = sorted({r[2] for r in rows})
    ends = {w: _end_agrees(a, a.lo if w == "lower" else a.hi, theta, sign, want) for w in regimes if w != "interior"}
    by_regime: dict = {}
    for pt, x0, w0, dirn, _ in rows:
        by_regime.setdefault(w0, []).append(agrees(dirn) or (dirn == 0 and w0 != "interior"))
    ev["regimes"] = {w: f"{sum(x)} of {len(x)} sampled configurations agree" for w, x in sorted(by_regime.items())}
    for w, ok in ends.items():
        bound = a.lo if w == "lower" else a.hi
        ev[f"{w}_end"] = (f"{v}* = {show(bound)}: d/d{theta} = {show(sp.diff(bound, theta))}, "
                          + {True: "the claimed direction (proved)", False: "not the claimed direction (proved)",
                             None: "sign not proved"}[ok])
    bad = [r for r in rows if not agrees(r[3]) and not (r[3] == 0 and r[2] != "interior")]
    if bad:
        pt, x0, w0, dirn, slope = bad[0]
        ev["counterexample"] = {**{str(s): num(pt[s], 6) for s in a.others}, f"{v}*": num(x0, 6),
                                f"d{v}*/d{theta}": num(slope, 4), "optimum": w0}
    ev["method"] = ("implicit differentiation and derivatives of the range ends (SymPy) + global argmins at "
                    f"{len(rows)} sampled configurations (regime switches are sampled, not proved)")
    ends_ok = sorted(w for w, ok in ends.items() if ok)
    ends_bad = sorted(w for w, ok in ends.items() if ok is False)
    ends_unknown = sorted(w for w, ok in ends.items() if ok is None)
    if interior is not None and interior != want and "interior" not in regimes:
        # the interior sign speaks only where minima are interior; none was seen (x* = c/log(c + 1) at the lower end
        # increases with c although L_xc = 0 "proves" an interior x* that does not)
        return Outcome("inconclusive", f"at an interior minimum {v}* would move against the claim (proved), but no "
                                       f"sampled configuration has one: the optimum sits at the "
                                       f"{'/'.join(regimes)} end, where the direction is "
                                       + ("proved as claimed" if not ends_bad and not ends_unknown else
                                          "not proved as claimed"), ev)
    if interior is not None and interior != want:
        moves = (_WORDS if strict else _WEAK_WORDS)[interior]
        if ends_ok:
            return Outcome("conditional", f"holds only where the optimum sits at the {'/'.join(ends_ok)} end of its "
                                          f"range; at every interior minimum {v}* {moves} with {theta} "
                                          "(proved)", ev)
        return Outcome("fails", f"at every interior minimum {v}* {moves} with {theta} (proved)", ev)
    if interior is None:
        if bad:
            return Outcome("inconclusive", f"the sampled optima disagree with the claim where the optimum is "
                                           f"{'/'.join(sorted({r[2] for r in bad}))} (e.g. "
                                           f"{describe_cfg(ev['counterexample'])}), and the interior sign could "
                                           "not be proved", ev)
        return Outcome("inconclusive", f"all {len(rows)} sampled configurations agree, but the interior sign could "
                                       "not be proved (sampled agreement is not a proof)", ev)
    # the interior sign is the claimed one (proved)
    words = _WEAK_WORDS if sign in ("nonnegative", "nonpositive") else _WORDS
    if (ends_bad or bad) and "interior" not in regimes:
        # holding at interior minima says nothing where no sampled optimum is interior: no `conditional` on a
        # regime that may not occur
        where = "/".join(ends_bad) if ends_bad else "/".join(sorted({r[2] for r in bad}))
        return Outcome("inconclusive", f"at an interior minimum {v}* {words[want]} with {theta} (proved), but no "
                                       f"sampled configuration has one: the optimum sits at the {'/'.join(regimes)} "
                                       f"end, and at the {where} end the direction is not the claimed one", ev)
    if ends_bad:
        return Outcome("conditional", f"holds where the minimum is interior: there {v}* {words[want]} with {theta} "
                                      f"(proved); not where it sits at the {'/'.join(ends_bad)} end of its range",
                       ev)
    if bad:
        regimes_bad = "/".join(sorted({r[2] for r in bad}))
        return Outcome("conditional", f"holds at interior minima (proved) but not where the optimum is "
                                      f"{regimes_bad} (sampled), e.g. {describe_cfg(ev['counterexample'])}", ev)
    if ends_unknown:
        return Outcome("inconclusive", f"{v}* {words[want]} with {theta} at every interior minimum (proved), but at "
                                       f"the {'/'.join(ends_unknown)} end of the range the direction is not proved",
                       ev)
    gaps = _unproved_structure(a, theta, sign, want, ev)
    if gaps:
        return Outcome("inconclusive", f"{v}* {words[want]} with {theta} at every interior minimum (proved), and the "
                                       f"{len(rows)} sampled global optima agree, but {'; '.join(gaps)}: which regime "
                                       "the global minimizer is in is only sampled", ev)
    at_ends = f" and at the {'/'.join(ends_ok)} end of its range" if ends_ok else ""
    return Outcome("holds", f"{v}* {words[want]} with {theta} at every interior minimum{at_ends} (proved); the "
                            f"global optima at {len(rows)} sampled configurations agree across regimes", ev)
