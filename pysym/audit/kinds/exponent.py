"""Kind ``exponent``: how an optimal quantity scales with another symbol.

Fields: ``law``, ``scale``, ``quantity``, ``claimed``; optional ``rel``
(``==`` by default; a one-sided ``<``, ``<=``, ``>``, ``>=``: "no faster than
the minimax rate" is ``rel = ">="`` on a negative exponent), ``minimize``
(symbols the law is minimized over), ``constraint`` (``"C = 6*N*D"``) with
``eliminate`` (both or neither), ``limit`` (``{ n = "oo" }``), ``subs``,
``at``, ``range`` (for the numeric check), ``tolerance`` (absolute, on the
exponent; default 1e-9 for an exact claimed value, the printed digits of a
printed one, or 0.01 for the numeric check), and ``claimed_coefficient`` (the
prefactor ``G`` of ``q* = G scale**a``) with ``coefficient_tolerance``
(relative, default 1e-6).  ``quantity`` may be any expression of the optimal
allocation: ``D/N`` gives the exponent of the tokens-per-parameter ratio.

The exponent is derived, in this order:

1. for ``E + sum A_i/N**a_i + sum B_j/D**b_j`` (and power products) under
   ``C = kappa N D``, by the compute-optimal engine
   (:func:`pysym.derive.optimize.compute_optimal`);
2. in closed form: the minimizer (:func:`pysym.audit.scaling.stationary_minimum`,
   which proves it is a minimum) put into ``quantity``, then ``d log q / d log
   scale`` (its limit as ``scale`` grows when it is not constant, labelled
   asymptotic, and compared only for a claim marked ``asymptotic = true``:
   over a bounded range the local exponent of ``n + n**2`` is about 1, not 2);
3. numerically: the optimum at 9 values of ``scale`` across ``range`` and the
   local log-log slopes.  **Sampled slopes never give a verdict**: each
   optimum is found by a grid and Newton's method, which can miss a narrow
   well, so slopes that agree with the claim and slopes that disagree both
   give ``inconclusive`` (the evidence shows them).

``holds`` when the derived exponent equals the claim (proved), or is within
the absolute tolerance of it; the verdict says which.  With printed numbers in
the law or the claim, the exponent is an expression in them and is compared
over every admissible value (:func:`pysym.audit.precision.compare_all`, with
the coefficient in the same decision): ``holds``, ``fails`` or
``undetermined``.  ``claimed_coefficient``
is compared with the coefficient of the quantity named in ``quantity`` (for
the loss: of its reducible part ``L* - E``); where no closed form gives that
coefficient the verdict cannot be ``holds`` and says why.

>>> from pysym.audit.examples import example
>>> example("exponent", law="N**(-exact(0.5)) + N/n", minimize=["N"], scale="n", quantity="N", claimed="2/3",
...         claimed_coefficient=0.63, coefficient_tolerance=0.01)
('holds', 'derived exponent 2/3 = 0.666667 = claimed; coefficient 0.62996052, within relative tolerance 0.01 of the claimed 0.63')
"""

from __future__ import annotations

import dataclasses
import math

import mpmath
import sympy as sp

from pysym.audit.budget import CPUTimeout, cpu_limit
from pysym.audit.context import SEED, Context
from pysym.audit.fields import (BOOLEAN, BOUNDS, EQUATION, EXPRESSION, LIMITS, POINT, REL, RELATIVE_TOLERANCE,
                                SUBSTITUTION, SYMBOL, SYMBOLS, TOLERANCE, VALUE)
from pysym.audit.numbers import num, show, tolerance_phrase
from pysym.audit.parameters import at_printed_values
from pysym.audit.precision import Check, compare_all
from pysym.audit.printed import Printed, constants_of, has_printed, midpoint, printed_in
from pysym.audit.registry import Field, Kind, register
from pysym.audit.relations import scope_note
from pysym.audit.proofs import attempt, monotone
from pysym.audit.scaling import coefficient, power_terms, scaling_exponent, stationary_minimum
from pysym.audit.exponents import compare_exponent, simplified
from pysym.audit.verdict import Outcome, Rounding
from pysym.derive import numeric
from pysym.derive.optimize import compute_optimal, minimize

__all__ = ["KIND", "evaluate"]


def check(values: dict) -> str | None:
    if ("constraint" in values) != ("eliminate" in values):
        return "`constraint` and `eliminate` go together: give both (the equation and the symbol it eliminates) " \
               "or neither"
    if "coefficient_tolerance" in values and "claimed_coefficient" not in values:
        return "`coefficient_tolerance` needs `claimed_coefficient`"
    scale, mins = values.get("scale"), values.get("minimize", [])
    if scale in mins or (values.get("eliminate") is not None and values.get("eliminate") in mins + [scale]):
        return "`scale`, `eliminate` and the `minimize` symbols must be different symbols"
    fixed = set(values.get("at", {})) & ({scale, values.get("eliminate")} | set(mins))
    if fixed:
        return f"`at` may not fix {', '.join(sorted(map(str, fixed)))}: the scale and the optimized symbols vary"
    if values.get("rel", "==") != "==" and ("tolerance" in values or "claimed_coefficient" in values):
        return "a one-sided `rel` compares the exponent only: no `tolerance` or `claimed_coefficient` with it"
    return None


class _Setup:
    """The claim's law and quantity after `subs`, `limit` and the constraint."""

    def __init__(self, cf, claim):
        self.cf, self.claim = cf, claim
        self.law, self.quantity = claim.get("law"), claim.get("quantity")
        self.scale, self.claimed = claim.get("scale"), claim.get("claimed")
        self.at = claim.get("at", {})
        self.mvars = list(claim.get("minimize", []))
        self.ctx = Context(cf, claim)
        self.eliminated = self.elim_expr = None
        subs = claim.get("subs")
        if subs:
            self.law, self.quantity = self.law.subs(subs), self.quantity.subs(subs)
        for v, target in (claim.get("limit") or {}).items():
            with cpu_limit(30):
                self.law, self.quantity = sp.limit(self.law, v, target), sp.limit(self.quantity, v, target)
        if claim.has("constraint"):
            left, right = claim.get("constraint")
            self.eliminated = claim.get("eliminate")
            with cpu_limit(30):
                sol = sp.solve(sp.Eq(left, right), self.eliminated)
            if len(sol) != 1:
                raise cf.error(claim, f"cannot solve the constraint for `{self.eliminated}` (solutions: {len(sol)})")
            if not monotone(left - right, self.eliminated, self.ctx.order()):  # else SymPy's may be one branch
                raise ValueError(f"the constraint is not proved monotone in {self.eliminated}: it may have several "
                                 "solutions")
            self.elim_expr = sol[0]


def evaluate(job):
    cf, claim = job.cf, job.claim
    try:
        s = _Setup(cf, claim)
    except (CPUTimeout, NotImplementedError, ValueError) as exc:
        what = "ran out of its CPU budget" if isinstance(exc, CPUTimeout) else "failed"
        return Outcome("inconclusive", f"taking the limit or solving the constraint {what}", {"method": "SymPy"})
    ev: dict = {"claimed": _as_written(claim.fields["claimed"], s.claimed)}
    found = _engine(s, ev) or _closed_form(s, ev)
    printed = has_printed(claim.values)
    if found is not None:
        derived, q_star, method = found
        if printed:
            return _parametric_limit(_compare_box(s, derived, q_star, method, ev), ev)
        return _parametric_limit(_with_rounding(compare_exponent(s, derived, q_star, method, ev), s, derived), ev)
    if "limit_check" in ev:
        return Outcome("inconclusive", f"no exponent: {ev['limit_check']}", ev)
    o = _numeric_printed(job, ev) if printed else _numeric(s, ev)
    refused = ev.get("engine_refused") or o.evidence.get("engine_refused")
    if refused and o.verdict == "inconclusive":
        return o._replace(summary=f"{o.summary}; {refused}")
    return o


def _parametric_limit(o: Outcome, ev) -> Outcome:
    """A derived exponent that is SymPy's limit with symbolic parameters agrees with the limits taken at sampled
    values of them (else there is no exponent), which is evidence, not a proof for every value: it never gives
    ``holds``."""
    if o.verdict not in ("holds", "conditional") or "asymptotic_parameters" not in {**ev, **o.evidence}:
        return o
    return Outcome("inconclusive", f"{o.summary}; but the exponent is a limit {ev['asymptotic_parameters']}",
                   {**ev, **o.evidence}, Rounding("unknown", numbers=o.rounding.numbers))


def _with_rounding(o: Outcome, s: _Setup, derived) -> Outcome:
    """An exact verdict, with the derived exponent as its (one-point) range."""
    d = derived.subs(s.at)
    value = num(d, 6) if d.is_number else None
    return Outcome(o.verdict, o.summary, o.evidence, Rounding("exact", "the derived exponent", value, value))


def _compare_box(s: _Setup, derived, q_star, method, ev) -> Outcome:
    """Printed numbers: the exponent (and the coefficient) over every admissible value."""
    claim = s.claim
    derived, unasked = simplified(s, derived, ev)
    if unasked is not None:
        return unasked
    ev["method"] = method + "; compared over every admissible value (interval branch and bound)"
    d_at, c_at = derived.subs(s.at), s.claimed.subs(s.at)
    if {x for x in (d_at.free_symbols | c_at.free_symbols) if not isinstance(x, Printed)}:
        # symbolic exponents: the proof-or-sample comparison, at the printed values, then over the parameters
        own = _own_printed(claim)
        if own:
            return Outcome("inconclusive", f"the derived exponent {show(derived)} depends on symbols that `at` does "
                                           f"not fix, and the claimed value has printed digits of its own "
                                           f"({', '.join(own)}): the engine compares such a claim only with an "
                                           "exponent that is a number once `at` is applied (fix the symbols with "
                                           "`at`, or write the claimed value exact(...))", ev, Rounding("unknown"))
        mid = _Setup(s.cf, dataclasses.replace(claim, values=midpoint(claim.values)))
        o_mid = compare_exponent(mid, midpoint(derived), None if q_star is None else midpoint(q_star), method, dict(ev))
        return at_printed_values(o_mid, lambda: compare_exponent(s, derived, q_star, method, dict(ev)),
                                 printed_in(claim.values))
    asym = " (asymptotic)" if "asymptotic" in ev or method.startswith("asymptotic") else ""
    checks = [Check(d_at, c_at, claim.get("rel", "=="), None, claim.get("tolerance"), f"the derived exponent{asym}",
                    _as_written(claim.fields["claimed"], s.claimed))]
    if claim.has("claimed_coefficient"):
        g = None if q_star is None else coefficient(q_star, s.scale, derived)
        if g is None:
            ev["coefficient"] = "not derived: " + ("no closed form gives the optimum" if q_star is None
                                                    else f"the optimal {show(s.quantity)} is not a pure power")
        else:
            cc = claim.get("claimed_coefficient").subs(s.at)
            checks.append(Check(g.subs(s.at), cc, "==", claim.get("coefficient_tolerance", 1e-6), None,
                                f"the coefficient of {show(s.quantity)}",
                                _as_written(claim.fields["claimed_coefficient"], cc)))
    o = compare_all(checks)
    summary = o.summary + scope_note(claim)
    if "coefficient" in ev and ev["coefficient"].startswith("not derived"):
        if o.verdict == "holds":
            return Outcome("inconclusive", f"{summary}, but the claimed coefficient cannot be checked: "
                                           f"{ev['coefficient']}", {**ev, **o.evidence}, o.rounding)
        summary += f"; the coefficient is not checked ({ev['coefficient']})"
    return Outcome(o.verdict, summary, {**ev, **o.evidence}, o.rounding)


_CLAIMED = ("claimed", "claimed_coefficient")


def _own_printed(claim) -> list[str]:
    """The printed numbers of the claimed value (and coefficient) that the rest of the claim does not use."""
    rest = constants_of({k: v for k, v in claim.values.items() if k not in _CLAIMED})
    return printed_in([c for c in constants_of([claim.values.get(k) for k in _CLAIMED]) - rest])


def _mid_but_claimed(claim):
    """The claim at the printed values, except the claimed value's own printed numbers: a claimed
    interval [0.4, 0.5] keeps accepting every value in it (never only its middle)."""
    rest = {k: v for k, v in claim.values.items() if k not in _CLAIMED}
    mids = {p: p.mid for p in constants_of(rest)}
    values = {k: (v.xreplace(mids) if k in _CLAIMED and isinstance(v, sp.Basic) else midpoint(v))
              for k, v in claim.values.items()}
    return dataclasses.replace(claim, values=values)


def _numeric_printed(job, ev) -> Outcome:
    """No closed form with printed numbers: the local slopes at the printed values only."""
    mid_claim = _mid_but_claimed(job.claim)
    o_mid = _numeric(_Setup(job.cf, mid_claim), dict(ev))

    def joint():
        return Outcome("inconclusive", "no closed form for the exponent, so the other admissible values were not "
                                       "checked", {})

    return at_printed_values(o_mid, joint, printed_in(job.claim.values))


def _as_written(raw, value) -> str:
    """The claimed value as the file writes it (with its decimal value when that differs)."""
    if isinstance(raw, str):
        text = " ".join(raw.split())
        return text if not value.is_number or text == show(value) else f"{text} = {num(value, 6)}"
    return show(value)


def _engine(s: _Setup, ev):
    """The compute-optimal engine: (exponent, q*(scale) or None, method) or None."""
    if s.eliminated is None or len(s.mvars) != 1 or s.scale not in s.elim_expr.free_symbols:
        return None
    m = s.mvars[0]
    kappa = sp.simplify(s.scale / (s.elim_expr * m))
    if kappa.free_symbols:
        return None
    try:
        r = compute_optimal(s.law, m, s.eliminated, s.scale, kappa)
    except ValueError:
        return None
    if r.N_star is None:  # the asymptotic branch: it assumes the law's shape, which is checked here
        bad = _not_separable(s.law, m, s.eliminated, s.ctx.order())
        if bad:
            ev["engine_refused"] = (f"the compute-optimal engine's asymptotic exponents (the smallest exponents "
                                    f"dominate) need L = E + sum A_i/{m}**a_i + sum B_j/{s.eliminated}**b_j with "
                                    f"every A_i, B_j and exponent proved positive: {bad}")
            return None
        # its exponents are limits as the scale grows: a claim must say it is about that limit (pysym.audit.exponents.unasked_limit)
        ev["asymptotic"] = f"asymptotic exponent ({s.scale} -> oo), the smallest exponents dominating"
    q = s.quantity
    if r.N_star is not None:
        ev["optimal_allocation"] = f"{m}* = {show(r.N_star)}"
    if q == m:
        return r.exponent_N, r.N_star, r.method
    if q == s.eliminated:
        return r.exponent_D, r.D_star, r.method
    with cpu_limit(20):
        is_law = q == s.law or sp.simplify(q - s.law) == 0
    if is_law:
        ev["note"] = "the exponent of the reducible loss L* - E (the part of L* that varies with the scale)"
        q_star = None
        if r.L_star is not None:
            q_star = sp.Add(*[t for t in sp.Add.make_args(sp.expand(r.L_star)) if t.has(s.scale)])
        if r.rest_scales:
            # the engine's loss exponent is that of the N-dependent part; a part that depends on the scale alone
            # (1/(N*D)**(1/10) = (C/6)**(-1/10)) moves the loss too: the exponent of the whole varying part
            if q_star is None:
                return None
            derived = scaling_exponent(q_star, s.scale, ev, samples=lambda: _limit_samples(s))
            return None if derived is None else (derived, q_star, r.method)
        return r.exponent_loss, q_star, r.method
    if r.N_star is None:
        return None
    q_star = q.subs({s.eliminated: r.D_star, m: r.N_star})
    derived = scaling_exponent(q_star, s.scale, ev, samples=lambda: _limit_samples(s))
    return None if derived is None else (derived, q_star, r.method)


def _limit_samples(s: _Setup) -> list[dict]:
    """Values of the claim's symbols and printed numbers at which a limit with symbolic parameters is taken
    again (:func:`pysym.audit.scaling.scaling_exponent`): two corners of the symbols' ranges and three interior
    points, each printed number at its low end, printed value and high end in turn."""
    drawn = s.ctx.sample(11, SEED)
    points = drawn[:2] + drawn[8:]
    printed = sorted((p for p in constants_of(s.claim.values) if not p.exact), key=lambda p: (p.name, p.dummy_index))
    out = []
    for i, point in enumerate(points or [{}]):
        values = {sym: sp.Integer(int(v)) if sym.is_integer else sp.Rational(mpmath.nstr(v, 8))
                  for sym, v in point.items()}
        values.update({p: (p.lo, p.mid, p.hi)[i % 3] for p in printed})
        out.append(values)
    return out


def _not_separable(law, n, d, order) -> str | None:
    """None when ``law`` is proved to be ``E + sum_i A_i n**(-a_i) + sum_j B_j d**(-b_j)``
    with every coefficient ``A_i, B_j`` and every exponent ``a_i, b_j`` proved positive
    (an allow-list of the one shape whose asymptotic exponents are the smallest ones);
    else the first term that is not of that shape, with why."""
    for t in sp.Add.make_args(sp.expand(law)):
        has_n, has_d = t.has(n), t.has(d)
        if not (has_n or has_d):
            continue
        if has_n and has_d:
            return f"the term {show(t)} involves both {n} and {d}"
        var = n if has_n else d
        pt = power_terms(t, var)
        if pt is None or len(pt) != 1:
            return f"the term {show(t)} is not a power of {var}"
        ((e, c),) = pt.items()
        if not attempt("positive", -e, order, seconds=4):
            return f"the exponent of {var} in {show(t)} is not proved negative"
        if not attempt("positive", c, order, seconds=4):
            return f"the coefficient {show(c)} of {show(t / c)} is not proved positive"
    return None


def _closed_form(s: _Setup, ev):
    """Stationary point (proved minimum) put into the quantity: (exponent, q*, method) or None."""
    f, q = s.law, s.quantity
    if s.eliminated is not None:
        f, q = f.subs(s.eliminated, s.elim_expr), q.subs(s.eliminated, s.elim_expr)
    if len(s.mvars) == 1:
        v = s.mvars[0]
        star, how = stationary_minimum(f, v, s.ctx.order())
        if star is None:
            ev["closed_form"] = how
            return None
        ev["optimum"] = f"{v}* = {show(star)}"
        ev["optimum_proof"] = how
        q_star = q.subs(v, star)
    elif not s.mvars:
        q_star = q
    else:
        ev["closed_form"] = "no closed form is attempted for several minimized symbols"
        return None
    derived = scaling_exponent(q_star, s.scale, ev, samples=lambda: _limit_samples(s))
    return None if derived is None else (derived, q_star, "closed form (SymPy)")


def _numeric(s: _Setup, ev) -> Outcome:
    """The optimum at 9 scales and its local log-log slopes: fails or inconclusive, never holds."""
    cf, claim = s.cf, s.claim
    rng = claim.get("range")
    if rng is None:
        why = f" ({ev['closed_form']})" if "closed_form" in ev else ""
        return Outcome("inconclusive", f"no closed form found{why}, and no `range` for a numeric check of the "
                                       "exponent", ev)
    f, q = s.law, s.quantity
    if s.eliminated is not None:
        f, q = f.subs(s.eliminated, s.elim_expr), q.subs(s.eliminated, s.elim_expr)
    lo, hi = (float(sp.N(b.subs(s.at))) if not b.subs(s.at).free_symbols else None for b in rng)
    if lo is None or hi is None or not 0 < lo < hi:
        raise cf.error(claim, "`range` must be two positive numbers, low below high (the scale is log-spaced)")
    rest = (f.free_symbols | q.free_symbols) - set(s.mvars) - {s.scale} - set(s.at)
    if rest:
        raise cf.error(claim, f"`at` must fix {sorted(map(str, rest))} for a numeric exponent")
    at = {x: sp.Float(v, numeric.DIGITS) if v.is_number and not x.is_integer else v for x, v in s.at.items()}
    scales = [lo * (hi / lo) ** (i / 8) for i in range(9)]
    qs = []
    for c in scales:
        fixed = dict(at)
        fixed[s.scale] = sp.Float(c, 30)
        pt = fixed
        if s.mvars:
            box = {}
            for v in s.mvars:
                spec = cf.spec(v)
                try:
                    box[v] = (float(sp.N(spec.low.subs(fixed))), float(sp.N(spec.high.subs(fixed))))
                except TypeError:
                    raise cf.error(claim, f"`at` must fix the symbols in the range of {v}") from None
            try:
                m = minimize(f, box, fixed)
            except ValueError as exc:
                return Outcome("inconclusive", f"the numeric minimization failed at {s.scale} = {c:g}: {exc}", ev)
            pt = {**fixed, **{x: sp.Float(mpmath.nstr(val, 30), 30) for x, val in m.point.items()}}
        value = sp.N(q.subs(pt))
        if not (value.is_number and value.is_positive and value.is_finite):
            return Outcome("inconclusive", f"the quantity is not a positive number at {s.scale} = {c:g}", ev)
        qs.append(float(value))
    local = [math.log(qs[i + 1] / qs[i]) / math.log(scales[i + 1] / scales[i]) for i in range(len(qs) - 1)]
    c_lo, c_hi = _claimed_range(s.claimed.subs(at))
    shown = f"{c_lo:.4f}" if c_lo == c_hi else f"[{c_lo:.4f}, {c_hi:.4f}]"
    tol = claim.get("tolerance", 0.01)
    rel = claim.get("rel", "==")
    ev.update(method="numeric: optimum at 9 scales, local log-log slopes",
              rule="sampled slopes never give a verdict: the optimum at each scale is found numerically (grid + "
                   "Newton), which does not prove it global, so agreeing and disagreeing slopes alike give "
                   "inconclusive",
              local_exponents=[round(x, 6) for x in local], claimed_value=shown)
    span = f"over {s.scale} in [{lo:g}, {hi:g}]"
    # a slope disagrees when it misses every admissible claimed value by more than the tolerance
    if rel == "==":
        def off(x):
            return max(c_lo - x, x - c_hi)
        agree_text = f"lie within {tolerance_phrase('absolute', tol)} of the claimed {shown}"
        miss_text = f"differs by more than {tolerance_phrase('absolute', tol)}"
    else:
        def off(x):
            return c_lo - x if rel in (">", ">=") else x - c_hi
        agree_text = f"are not clearly {'below' if rel in ('>', '>=') else 'above'} the claimed {shown} " \
                     f"(by more than {tolerance_phrase('absolute', tol)})"
        miss_text = f"is {'below' if rel in ('>', '>=') else 'above'} it by more than " \
                    f"{tolerance_phrase('absolute', tol)}"
    if all(off(x) <= tol for x in local):
        return Outcome("inconclusive", f"local exponents {local[0]:.4f} ... {local[-1]:.4f} {span} all {agree_text}, "
                                       "but no closed form was found: sampled agreement is not a proof", ev)
    worst = max(local, key=off)
    tail = (" (only the last ones agree: at most an asymptotic statement)" if off(local[-1]) <= tol else "")
    return Outcome("inconclusive", f"local exponents {local[0]:.4f} ... {local[-1]:.4f} {span}, claimed {rel} "
                                   f"{shown}: {worst:.4f} {miss_text}{tail}; but the optima were found numerically "
                                   "(not proved global), so the slopes are evidence against the claim, not a proof",
                   ev)


def _claimed_range(claimed) -> tuple[float, float]:
    """The claimed value's admissible range (a point for an exact value), as floats rounded outward."""
    import math

    from pysym.audit.precision import acceptance

    if not has_printed(claimed):
        v = float(sp.N(claimed))
        return v, v
    lo, hi = acceptance(claimed, "==", 0, 0)[1]
    return math.nextafter(float(lo), -math.inf), math.nextafter(float(hi), math.inf)


KIND = register(Kind(
    "exponent",
    (Field("law", EXPRESSION, True, "the law"),
     Field("scale", SYMBOL, True, "the symbol the quantity scales with"),
     Field("quantity", EXPRESSION, True, "the optimal quantity (a symbol, the law, or an expression)"),
     Field("claimed", VALUE, True, "the claimed exponent (its printed digits are its tolerance)"),
     Field("rel", REL, doc="how the exponent compares with `claimed`: == (default), <, <=, >, >="),
     Field("minimize", SYMBOLS, doc="symbols the law is minimized over"),
     Field("constraint", EQUATION, doc="an equation such as \"C = 6*N*D\""),
     Field("eliminate", SYMBOL, doc="the symbol the constraint eliminates"),
     Field("limit", LIMITS, doc="limits taken first, such as { n = \"oo\" }"),
     Field("asymptotic", BOOLEAN, doc="the claim is about the limit as `scale` grows (needed where d log q / d log "
                                      "scale varies with the scale; default false)"),
     Field("subs", SUBSTITUTION, doc="substitutions made first"),
     Field("at", POINT, doc="fixed values for the numeric check and the comparison"),
     Field("range", BOUNDS, doc="range of `scale` for the numeric check"),
     Field("tolerance", TOLERANCE, doc="absolute tolerance on the exponent (default 1e-9; 0.01 numeric)"),
     Field("claimed_coefficient", VALUE, doc="the prefactor G of quantity* = G scale**exponent"),
     Field("coefficient_tolerance", RELATIVE_TOLERANCE, doc="relative tolerance on G (default 1e-6)")),
    evaluate,
    check=check,
    doc="Finds how the optimal `quantity` scales with `scale`: compute-optimal engine, closed form with a proved "
        "minimum, or local log-log slopes at 9 scales (never `holds`); over every admissible value of printed "
        "numbers.",
    precision="box",
))
