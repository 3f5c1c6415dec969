"""Kind ``value``: a quantity's value, at a stated point or at a law's minimizer.

Fields: ``quantity``, ``claimed``; optional ``rel`` (``==`` by default, or a
one-sided ``<``, ``<=``, ``>``, ``>=``: "more than 7x" is ``rel = ">"``),
``minimize`` (a law) with ``over`` (``{ x = [low, high] }``, required with
``minimize`` and only with it), ``at`` (fixed values, inside the symbols'
ranges), ``constraint`` (``"C = 6*N*D"``) with ``eliminate`` (the symbol the
engine solves it for and substitutes everywhere), ``tolerance`` (relative,
below 1) and ``abs_tolerance`` (both only with ``==``).

With ``minimize``, the law is minimized over the box with the other symbols
fixed by ``at``; ``quantity`` is evaluated at the minimizer.

**Exact numbers** (no printed number in the claim): the quantity is computed
at 50 digits (grid search, then Newton's method on the exact gradient, for a
minimizer); ``==`` holds within the relative *or* the absolute tolerance
(default relative 1e-9), and the verdict says which tolerance decided.

**Printed numbers** (:mod:`pysym.audit.printed`): the quantity is an
expression in them -- the minimizer in closed form (one variable after the
other, each a proved global minimum, :func:`pysym.audit.scaling.stationary_minimum`,
and proved inside ``over`` for every admissible value) -- and the claim is
decided over every admissible value (:func:`pysym.audit.precision.compare`):
``holds``, ``fails`` or ``undetermined``.  Where no closed form exists, the
claim is decided at the printed values only: then ``fails`` says so, and a
claim that holds there is ``inconclusive``.

>>> from pysym.audit.examples import example
>>> example("value", quantity="x", claimed=1.01, minimize="x**2 - 2*x", over={"x": [0.1, 5]}, abs_tolerance=0.05)
('holds', 'derived 1.0, claimed 1.01: within absolute tolerance 0.05 (difference 0.01)')
>>> example("value", quantity="x", claimed="1.0", minimize="x**2 - 2.00*x", over={"x": [0.1, 5]})[0]
'holds'
>>> example("value", quantity="y/x", claimed=7, rel=">", at={"y": "8.5", "x": "1.2"})[1]
'the derived value ranges over [6.76, 7.43479] (7.08333 at the printed values): some admissible values exceed the claimed 7 and others do not, so the printed precision cannot decide (it holds at 1.2 as 1.15, 8.5 as 8.55; it fails at 1.2 as 1.25, 8.5 as 8.45)'
"""

from __future__ import annotations

import mpmath
import sympy as sp

from pysym.audit.boxes import decide
from pysym.audit.budget import CPUTimeout, cpu_limit
from pysym.audit.context import Context
from pysym.audit.fields import EQUATION, POINT, RANGES, REL, RELATIVE_TOLERANCE, SYMBOL, TOLERANCE, VALUE, EXPRESSION
from pysym.audit.interval import IntervalError, sign_of
from pysym.audit.numbers import num, show, tolerance_phrase
from pysym.audit.parameters import at_printed_values
from pysym.audit.precision import box_of, compare
from pysym.audit.bracket import bracket_minimizer
from pysym.audit.printed import Printed, constants_of, has_printed, midpoint, printed_in
from pysym.audit.registry import Field, Kind, register
from pysym.audit.scaling import stationary_minimum
from pysym.audit.verdict import Outcome, Rounding
from pysym.derive import numeric
from pysym.derive.optimize import minimize

__all__ = ["KIND", "evaluate", "solve_constraint"]


def check(values: dict) -> str | None:
    if ("minimize" in values) != ("over" in values):
        return "`minimize` and `over` go together: give both (the law and the box it is minimized over) or neither"
    fixed = set(values.get("at", {})) & set(values.get("over", {}))
    if fixed:
        return f"`at` may not fix {', '.join(sorted(map(str, fixed)))}: it is minimized over"
    if ("constraint" in values) != ("eliminate" in values):
        return "`constraint` and `eliminate` go together: give both (the equation and the symbol it eliminates) " \
               "or neither"
    elim = values.get("eliminate")
    if elim is not None and (elim in values.get("at", {}) or elim in values.get("over", {})):
        return f"`eliminate`: {elim} is solved from the constraint, so `at` and `over` may not give it"
    if values.get("rel", "==") != "==" and ("tolerance" in values or "abs_tolerance" in values):
        return "a tolerance goes with `rel = \"==\"` only: a one-sided claim has no tolerance"
    return None


def solve_constraint(cf, claim, exprs: list):
    """``exprs`` with the claim's ``constraint`` solved for ``eliminate`` and substituted."""
    if not claim.has("constraint"):
        return exprs
    left, right = claim.get("constraint")
    v = claim.get("eliminate")
    try:
        with cpu_limit(20):
            sol = sp.solve(sp.Eq(left, right), v)
    except (CPUTimeout, NotImplementedError, ValueError) as exc:
        raise cf.error(claim, f"cannot solve the constraint for `{v}` ({type(exc).__name__})") from None
    if len(sol) != 1:
        raise cf.error(claim, f"cannot solve the constraint for `{v}` (solutions: {len(sol)})")
    _one_root(cf, claim, left - right, v, sol[0])
    return [e.subs(v, sol[0]) if isinstance(e, sp.Basic) else e for e in exprs]


class NotTheRoot(Exception):
    """SymPy's solution of the constraint may not be the one root inside the eliminated symbol's range."""


def _one_root(cf, claim, g, v, root) -> None:
    """``root`` is the only solution of ``g = 0`` for ``v`` in its range where the claim is evaluated: ``g`` is
    proved monotone in ``v`` on the range (at most one root there), and ``root`` proved inside the range at ``at``
    (SymPy may give one branch of several: ``y = x exp(-x)`` gives ``-LambertW(-y)``, 0.357 at y = 1/4, outside
    x in [1, 10], where the root is 2.153).  Raises :class:`NotTheRoot` with why not."""
    from pysym.audit.proofs import attempt, monotone

    ctx = Context(cf, claim)
    order = ctx.order()
    lo, hi = ctx.range(cf.spec(v))
    at = claim.get("at", {})
    value = root.subs(at)
    if not {x for x in value.free_symbols if not isinstance(x, Printed)}:
        # a number at `at`: the constraint monotone on v's range (at most one root there), the root inside it
        if not monotone(g, v, order):
            raise NotTheRoot(f"the constraint is not proved monotone in {v} on its range, so it may have several "
                             f"solutions there; SymPy's, {v} = {show(root)}, need not be the one meant")
        constraints = [(value - lo.subs(at), ">="), (hi.subs(at) - value, ">=")]
        try:
            inside = decide(constraints, box_of([c for c, _ in constraints])).status == "all"
        except IntervalError:
            inside = False
        if not inside:
            raise NotTheRoot(f"the constraint's solution {v} = {show(root)} is not proved inside {v}'s range "
                             f"[{show(lo)}, {show(hi)}] where the claim is evaluated")
        return
    # it depends on what is minimized: the constraint monotone in v wherever v's sign allows (not only on its
    # range), and the root of that sign: then it is the one root there, wherever the minimizer lies
    free = [(a, b) for a, b in order if v not in (sp.sympify(a).free_symbols | sp.sympify(b).free_symbols)]
    if not monotone(g, v, free):
        raise NotTheRoot(f"the constraint is not proved monotone in {v} (for every {v} of its sign), so it may "
                         f"have several solutions; SymPy's, {v} = {show(root)}, need not be the one meant")
    for kind, test in (("positive", v.is_positive), ("nonnegative", v.is_nonnegative)):
        if test and not attempt(kind, root, order):
            raise NotTheRoot(f"the constraint's solution {v} = {show(root)} is not proved {kind}, as {v} is")


def _point(at: dict) -> dict:
    # numbers become 50-digit floats: exact powers like 3e10**(2383/10000) would explode (only numbers that 50
    # digits represent exactly: the others are pinned, see evaluate)
    return {s: sp.Float(v, numeric.DIGITS) if v.is_number and not s.is_integer else v for s, v in at.items()}


def _shown(e, digits: int):
    """``e`` to ``digits`` digits, its exact printed points evaluated by mpmath (not substituted into SymPy,
    which would expand their powers, nor rounded first, which loses a difference of 10**-60)."""
    atoms = e.atoms(Printed) if isinstance(e, sp.Basic) else set()
    return sp.N(e, digits, subs={p: p.mid for p in atoms}) if atoms else sp.N(e, digits)


def _floated(e):
    """``e`` with its exact printed points as 50-digit numbers: for what is shown and searched numerically,
    never for a decision."""
    if isinstance(e, dict):
        return {k: _floated(v) for k, v in e.items()}
    if not isinstance(e, sp.Basic):
        return e
    atoms = e.atoms(Printed)
    return e.xreplace({p: sp.Float(p.mid, numeric.DIGITS) for p in atoms}) if atoms else e


def evaluate(job):
    cf, claim = job.cf, job.claim
    at = claim.get("at", {})
    integers = sorted(str(s) for s in (claim.get("over") or {}) if s.is_integer)
    if integers:
        return Outcome("inconclusive", f"the law is minimized over {', '.join(integers)}, an integer symbol: the engine "
                                       "minimizes over the reals, whose minimizer need not be an integer's", {})
    try:
        quantity, claimed, law = solve_constraint(cf, claim, [claim.get("quantity"), claim.get("claimed"),
                                                              claim.get("minimize")])
    except NotTheRoot as exc:
        return Outcome("inconclusive", str(exc), {})
    if has_printed([quantity, claimed, law, at]):
        return _printed(cf, claim, quantity, claimed, law, at)
    # every number `at` gives a real symbol is pinned as an exact point (evaluated by interval arithmetic, never
    # substituted as a 50-digit number: SymPy computes with that eagerly, and 1 + 1/N at N = 2**200, log(x) at
    # x = 2 would be rounded before the comparison; integers stay exact numbers for integer symbols)
    numbers = {s: v for s, v in at.items() if _real_number(v, s)}
    irrational = [s for s, v in numbers.items() if not v.is_Rational]
    if irrational:
        return Outcome("inconclusive", "`at` gives " + ", ".join(f"{s} = {sp.sstr(at[s])}" for s in irrational)
                       + ", an irrational value: the value claims compute with rational points only", {})
    pinned = {s: Printed(sp.sstr(v), v, v, v) if s in numbers else v for s, v in at.items()}
    return _exact(cf, claim, quantity, claimed, law, pinned)


def _real_number(v, s) -> bool:
    """Whether ``v`` is a number given to the symbol ``s``, which is not an integer symbol."""
    return isinstance(v, sp.Basic) and v.is_number and not s.is_integer


# --------------------------------------------------------------------------- exact numbers


def _exact_number(cf, claim, quantity, law, at, ev, claimed=None):
    """The quantity at ``at`` (at the minimizer of ``law`` when there is one), to
    30 digits, or an ``inconclusive`` :class:`Outcome`."""
    point = dict(at)
    if law is not None:
        m = _minimize(cf, claim, law, at, ev)
        if isinstance(m, Outcome):
            return m
        point.update({s: sp.Float(mpmath.nstr(v, 40), 40) for s, v in m.point.items()})
    extra = quantity.subs(point).free_symbols | (claimed.free_symbols if claimed is not None else set())
    extra = {s for s in extra if not isinstance(s, Printed)}
    if extra:
        raise cf.error(claim, f"`at` must fix {sorted(map(str, extra))} to evaluate the value")
    exact = quantity.subs(point)
    derived = _shown(exact, 30)
    if not (derived.is_real and derived.is_finite):
        return Outcome("inconclusive", f"the quantity is not a finite real number there (derived {num(derived)})", ev)
    return exact


def _exact(cf, claim, quantity, claimed, law, at):
    """Exact inputs: the quantity computed at 50 digits and compared.  At a
    minimizer, the numeric one (grid + Newton) is only a candidate: the verdict
    stands when the minimizer has a closed form (proved global) or the sign of
    the derivative brackets it (:mod:`pysym.audit.bracket`); otherwise it is
    ``inconclusive`` (a narrow well between the grid's points would be missed)."""
    o = _exact_compare(cf, claim, quantity, claimed, law, at)
    if law is None or o.verdict not in ("holds", "fails"):
        return o
    over = {s: (sp.sympify(lo).subs(at), sp.sympify(hi).subs(at)) for s, (lo, hi) in claim.get("over").items()}
    try:
        sol, why = closed_minimizer(cf, claim, law.subs(at), over)
    except (CPUTimeout, NotImplementedError, ValueError, TypeError) as exc:
        sol, why = None, f"no closed form ({type(exc).__name__})"
    if sol is not None:
        proved = _exact_compare(cf, claim, quantity.subs(sol), claimed, None, at)
        ev = {**proved.evidence, "minimizer": {str(k): show(v) for k, v in sol.items()},
              "closed_form": why, "method": "computed at 50 digits at the closed-form minimizer (proved global)"}
        return Outcome(proved.verdict, proved.summary, ev, proved.rounding)
    b = _bracketed(claim, quantity, claimed.subs(at), law, at, o, ())
    if b is not None:
        return Outcome(b.verdict, b.summary, b.evidence, Rounding("exact", b.rounding.range_of, b.rounding.low,
                                                                  b.rounding.high))
    ev = {**o.evidence, "closed_form": why}
    return Outcome("inconclusive", f"at the minimizer found numerically (grid + Newton: not proved global) the claim "
                                   f"{o.verdict} ({o.summary}); no closed form and no proof from the sign of the "
                                   "derivative, so this is not a verdict", ev, o.rounding)


def _exact_compare(cf, claim, quantity, claimed, law, at):
    claimed = claimed.subs(at)
    ev: dict = {}
    exact = _exact_number(cf, claim, quantity, law, at, ev, claimed)
    if isinstance(exact, Outcome):
        return exact
    derived = _shown(exact, 30)  # for the text only: every comparison below is decided exactly (sign_of)
    target = _shown(claimed, 30)
    if not (target.is_real and target.is_finite):
        return Outcome("inconclusive", f"the claimed value is not a finite real number (claimed {num(target)})", ev)
    gap = sign_of(exact - claimed)
    if gap == 0:  # proved equal: shown alike (30 digits of log(x) - log(2) at x = 2 can print as 5e-166)
        derived = target
    ev.update(derived=num(derived, 10), claimed=num(target, 10))
    ev["method"] = ("computed at 50 digits" + (" (grid + Newton minimizer)" if law is not None else "")
                    + "; compared exactly (proved signs: interval arithmetic up to 8192 bits, or SymPy)")
    rounding = Rounding("exact", "the derived value", num(derived), num(derived))
    rel = claim.get("rel", "==")
    shown = f"derived {num(derived)}, claimed {num(target)}"
    if gap is None:
        return Outcome("inconclusive", f"{shown}: the sign of derived - claimed could not be proved (interval "
                                       "arithmetic up to 8192 bits does not separate them, and SymPy does not prove "
                                       "them equal)", ev, Rounding("unknown"))
    if rel != "==":
        ok = {"<": gap < 0, "<=": gap <= 0, ">": gap > 0, ">=": gap >= 0}[rel]
        return Outcome("holds" if ok else "fails", f"{shown}: derived {rel} claimed is {'true' if ok else 'false'}"
                       + (" (they differ by less than the printed digits show)" if gap and derived == target else ""),
                       ev, rounding)
    diff = abs(_shown(exact - claimed, 15))  # the difference itself at 15 digits (not of two rounded values)
    tol_rel = claim.get("tolerance", 1e-9)
    tol_abs = claim.get("abs_tolerance", 0.0)
    rel_err = diff / abs(target) if target != 0 else None
    ev["absolute_difference"] = num(diff, 3)
    if rel_err is not None:
        ev["relative_difference"] = num(rel_err, 3)
    if gap == 0:
        return Outcome("holds", f"derived {num(derived)} = claimed {num(target)} (proved equal)", ev, rounding)
    distance = sp.Abs(exact - claimed)
    within_rel = sign_of(sp.Rational(str(tol_rel)) * sp.Abs(claimed) - distance) if tol_rel else -1
    within_abs = sign_of(sp.Rational(str(tol_abs)) - distance) if tol_abs else -1
    if within_rel is not None and within_rel >= 0:
        return Outcome("holds", f"{shown}: within {tolerance_phrase('relative', tol_rel)} (relative difference "
                                f"{num(rel_err, 3)})", ev, rounding)
    if within_abs is not None and within_abs >= 0:
        return Outcome("holds", f"{shown}: within {tolerance_phrase('absolute', tol_abs)} (difference "
                                f"{num(diff, 3)})", ev, rounding)
    if within_rel is None or within_abs is None:
        return Outcome("inconclusive", f"{shown}: the difference {num(diff, 3)} could not be proved inside or "
                                       "outside the tolerance (it lies on its edge to every precision tried)", ev,
                       Rounding("unknown"))
    rel_part = (f"relative difference {num(rel_err, 3)} > {tolerance_phrase('relative', tol_rel)}"
                if rel_err is not None else "the claimed value is 0, so only the absolute tolerance applies")
    return Outcome("fails", f"{shown}: {rel_part}, and difference {num(diff, 3)} > "
                            f"{tolerance_phrase('absolute', tol_abs)}", ev, rounding)


def _minimize(cf, claim, law, at, ev):
    box = claim.get("over")
    missing = (law.free_symbols - set(box)) - set(at)
    if missing:
        raise cf.error(claim, f"`at` must fix {sorted(map(str, missing))} (every symbol of the law that is not "
                              "minimized)")
    box_num = {}
    for s, (lo, hi) in box.items():
        try:
            box_num[s] = (float(sp.N(_floated(lo.subs(at)))), float(sp.N(_floated(hi.subs(at)))))
        except TypeError:
            raise cf.error(claim, f"`over`: the range of {s} must be numbers once `at` is applied") from None
        if not 0 < box_num[s][0] <= box_num[s][1]:
            raise cf.error(claim, f"`over`: the range of {s} must be positive and in order (the minimizer works "
                                  f"in log coordinates); got [{num(box_num[s][0])}, {num(box_num[s][1])}]")
    try:
        m = minimize(law, box_num, _floated(at))
    except ValueError as exc:
        return Outcome("inconclusive", f"could not minimize: {exc}", {})
    ev["minimizer"] = {str(s): num(v) for s, v in m.point.items()}
    ev["minimum"] = num(m.value)
    ev["optimizer"] = m.describe()
    if not m.interior:
        ev["note"] = "the minimum lies on the boundary of the search box"
    return m


# --------------------------------------------------------------------------- printed numbers


def closed_minimizer(cf, claim, law, over: dict, region: dict | None = None):
    """``({x: x*}, how)``: the minimizer of ``law`` over the box ``over`` in closed
    form (a proved global minimum over each variable in turn, proved inside the
    box for every admissible value of the printed numbers), or ``(None, why)``."""
    ctx = Context(cf, claim, {**(region or {}), **over})
    order = ctx.order()
    variables = list(over)
    for attempt_order in (variables, variables[::-1]) if len(variables) > 1 else (variables,):
        f, sol, hows, why = law, {}, [], ""
        for v in attempt_order:
            star, how = stationary_minimum(f, v, order)
            if star is None:
                why = f"{v}: {how}"
                break
            sol = {k: e.subs(v, star) for k, e in sol.items()}
            sol[v] = star
            hows.append(f"{v}* = {sp.sstr(star)} ({how.split(':')[0]})")
            f = f.subs(v, star)
        else:
            inside = _inside(sol, over)
            if inside is True:
                return sol, "; ".join(hows) + "; inside `over` for every admissible value (interval arithmetic)"
            why = inside
    return None, why


def _inside(sol, over):
    constraints = []
    for v, (lo, hi) in over.items():
        x = sol[v]
        if x.free_symbols - set(x.atoms(Printed)):
            return f"{v}* = {sp.sstr(x)} depends on symbols that `at` does not fix"
        constraints += [(x - lo, ">="), (hi - x, ">=")]
    try:
        d = decide(constraints, box_of([c for c, _ in constraints]))
    except IntervalError as exc:
        return f"the minimizer could not be bounded ({exc})"
    return True if d.status == "all" else "the closed-form minimizer is not inside `over` for every admissible value"


def _printed(cf, claim, quantity, claimed, law, at):
    claimed = claimed.subs(at)
    ev: dict = {}
    point = dict(at)
    if law is not None:
        law_at = law.subs(at)
        missing = {s for s in law_at.free_symbols if not isinstance(s, Printed)} - set(claim.get("over"))
        if missing:
            raise cf.error(claim, f"`at` must fix {sorted(map(str, missing))} (every symbol of the law that is not "
                                  "minimized)")
        over = {s: (lo.subs(at), hi.subs(at)) for s, (lo, hi) in claim.get("over").items()}
        sol, how = closed_minimizer(cf, claim, law_at, over)
        if sol is None:
            ev["closed_form"] = how
            return _printed_values_only(cf, claim, quantity, claimed, law, at, ev)
        ev["closed_form_minimizer"] = how
        point.update(sol)
    derived = quantity.subs(point)
    extra = {s for s in (derived.free_symbols | claimed.free_symbols) if not isinstance(s, Printed)}
    if extra:
        raise cf.error(claim, f"`at` must fix {sorted(map(str, extra))} to evaluate the value")
    o = compare(derived, claimed, rel=claim.get("rel", "=="), tol_rel=claim.get("tolerance"),
                tol_abs=claim.get("abs_tolerance"), what="the derived value",
                claimed_text=_written(claim.fields.get("claimed"), claimed))
    return Outcome(o.verdict, o.summary, {**ev, **o.evidence, "method": "interval branch and bound over every "
                                          "admissible value (arb, outward rounded)"}, o.rounding)


def _printed_values_only(cf, claim, quantity, claimed, law, at, ev):
    """No closed form: the quantity at the printed values of its own printed
    numbers, compared with every admissible value of the claimed one (a claimed
    interval ``[7, 8]`` accepts every value in it, a printed ``"7.0"`` every value
    in [6.95, 7.05]; never only their printed value), then, where the claim is
    about the minimizer itself, the bracket proofs of :mod:`pysym.audit.bracket`
    over every admissible value; a claim that holds at the printed values without
    such a proof is ``inconclusive``."""
    numbers = printed_in([quantity, claimed, law, at])
    ev = dict(ev)
    derived = _exact_number(cf, claim, midpoint(quantity), midpoint(law), _point(midpoint(at)), ev,
                            midpoint(claimed))
    if isinstance(derived, Outcome):
        return at_printed_values(derived, None, numbers)
    # the claimed value keeps its own printed numbers; those it shares with the law are at their printed values
    shared = constants_of([quantity, law, at]) & constants_of(claimed)
    own_claimed = claimed.xreplace({p: p.mid for p in shared})
    value = sp.Rational(derived)
    o_mid = compare(value, own_claimed, rel=claim.get("rel", "=="), tol_rel=claim.get("tolerance"),
                    tol_abs=claim.get("abs_tolerance"), what="the derived value",
                    claimed_text=_written(claim.fields.get("claimed"), claimed))
    ev.update(o_mid.evidence)
    ev["derived"] = num(derived, 10)
    ev["method"] = "computed at the printed values (grid + Newton minimizer), compared with every admissible " \
                   "value of the claimed one"
    o_mid = Outcome(o_mid.verdict, o_mid.summary, ev, o_mid.rounding)
    proved = _bracketed(claim, quantity, own_claimed if not shared else None, law, at, o_mid, numbers)
    if proved is not None:
        return proved
    if o_mid.verdict in ("fails", "undetermined"):
        # the minimizer was found numerically, which does not prove it global: not a verdict even there
        return Outcome("inconclusive", f"at the printed values, at the minimizer found numerically (grid + Newton: "
                                       f"not proved global), the claim {o_mid.verdict}: {o_mid.summary}; no closed "
                                       "form and no proof from the sign of the derivative, so this is not a verdict",
                       ev, Rounding("unknown", numbers=tuple(numbers)))

    def joint():
        return Outcome("inconclusive", f"no closed form for the minimizer ({ev.get('closed_form', '')}), so the "
                                       "other admissible values were not checked", {})

    return at_printed_values(o_mid, joint, numbers)


def _bracketed(claim, quantity, claimed, law, at, o_mid, numbers):
    """The verdict over every admissible value when the claim is about the
    minimizer itself and its derivative brackets it (:mod:`pysym.audit.bracket`),
    agreeing with the verdict at the printed values; else None."""
    if law is None or claimed is None or o_mid.verdict not in ("holds", "fails"):
        return None
    over = claim.get("over")
    if len(over) != 1:
        return None
    (x, (lo, hi)), = over.items()
    law_at, lo, hi = law.subs(at), sp.sympify(lo).subs(at), sp.sympify(hi).subs(at)
    if quantity.subs(at) != x or not (lo.is_Rational and hi.is_Rational) or \
            {s for s in law_at.free_symbols if not isinstance(s, Printed)} != {x}:
        return None
    b = bracket_minimizer(law_at, x, lo, hi, claimed, claim.get("rel", "=="), claim.get("tolerance"),
                          claim.get("abs_tolerance"))
    if b is None or b.verdict != o_mid.verdict:
        return None
    ev = {**o_mid.evidence, **b.evidence, "at the printed values": o_mid.summary}
    return Outcome(b.verdict, f"{b.summary} (at the printed values: {o_mid.summary})", ev,
                   Rounding("robust", b.range_of, b.low, b.high, ev.get("derived"), tuple(numbers)))


def _written(raw, value) -> str:
    if isinstance(raw, str):
        return " ".join(raw.split())
    if isinstance(raw, list):
        return "[" + ", ".join(str(x) for x in raw) + "]"
    from pysym.audit.numbers import show

    return show(value)


KIND = register(Kind(
    "value",
    (Field("quantity", EXPRESSION, True, "what is evaluated"),
     Field("claimed", VALUE, True, "the paper's value (its printed digits are its tolerance)"),
     Field("rel", REL, doc="how the quantity compares with `claimed`: == (default), <, <=, >, >="),
     Field("minimize", EXPRESSION, doc="a law minimized over `over` first"),
     Field("over", RANGES, doc="the box { x = [low, high] } the law is minimized over"),
     Field("at", POINT, doc="fixed values of the other symbols"),
     Field("constraint", EQUATION, doc="an equation such as \"C = 6*N*D\", solved for `eliminate`"),
     Field("eliminate", SYMBOL, doc="the symbol the constraint eliminates"),
     Field("tolerance", RELATIVE_TOLERANCE, doc="relative tolerance (default 1e-9 for an exact claimed value)"),
     Field("abs_tolerance", TOLERANCE, doc="absolute tolerance (default 0)")),
    evaluate,
    check=check,
    doc="Evaluates `quantity` (at the minimizer of `minimize`, with `at` fixed and `constraint` substituted) "
        "and compares it with `claimed` over every admissible value of the printed numbers.",
    precision="box",
))
