"""Kind ``optimum``: where the global minimizer of a law lies in its range.

Fields: ``law``, ``argmin`` (one symbol), ``over`` (its range), ``location``
(``interior``, ``lower`` or ``upper``); optional ``region`` and ``condition``
(a relation).

The engine locates the global minimizer at 48 sampled configurations (grid,
then refinement).  Where every sampled minimum sits at the same end of
``over``, it tries to prove that this end is the global minimizer for every
configuration (``L(x) - L(end) >= 0`` with ``x`` ranging over exactly
``over``, within 2 s of CPU time; or, when every range is a number, ``dL/dx``
of one sign on the whole box by interval arithmetic): that decides ``holds``
or ``fails``.  The claim is never ``holds`` or ``fails`` without a proof: the
sampled minima are found numerically, and a grid can miss a narrow well.  A
mixed result is never ``conditional``: the split is only sampled, so a
``condition`` that separates the sampled configurations gives ``inconclusive``
with that evidence (and so does a mixed result without a separating
condition: evidence against the claim, not a proof).

>>> from pysym.audit.examples import example
>>> example("optimum", law="1/x", argmin="x", over=[1, 10], location="upper")
('holds', 'the minimizer is at the upper end for every configuration (proved)')
"""

from __future__ import annotations

import sympy as sp

from pysym.audit.argmin import describe_cfg, grid_argmin, setup
from pysym.audit.budget import CPUTimeout, cpu_limit
from pysym.audit.fields import BOUNDS, EXPRESSION, RANGES, RELATION, SYMBOL, choice
from pysym.audit.numbers import num, show
from pysym.audit.registry import Field, Kind, register
from pysym.audit.relations import scope_note
from pysym.audit.verdict import Outcome
from pysym.derive import prove

__all__ = ["KIND", "evaluate"]


PROOF_SECONDS = 2.0  # CPU time for each end's proof attempt (a failed attempt is not a verdict)


def _proof(expr, order, strict: bool = False):
    try:
        with cpu_limit(PROOF_SECONDS):
            return (prove.prove_positive if strict else prove.prove_nonnegative)(sp.cancel(expr) if strict else expr,
                                                                               order)
    except CPUTimeout:
        return None


def _only_there(a, end: str, location: str, ev) -> str | None:
    """Why the proved minimizing ``end`` is the only global minimizer as far as ``location`` goes (the law is
    larger everywhere in ``location``), or None when that is not proved: a constant law is minimal at both ends
    and inside, so an end being *a* minimizer does not make another location wrong."""
    v, order = a.v, a.order()
    bound = a.hi if end == "upper" else a.lo
    if ev.get("monotone") == end:  # strictly monotone: the end is the only minimizer
        return ev["strict"]
    if location in ("upper", "lower"):
        other = a.hi if location == "upper" else a.lo
        p = _proof(a.law.subs(v, other) - a.law.subs(v, bound), order, strict=True)
        return f"L at the {location} end exceeds L at the {end} end: {p.how}" if p is not None and p.ok else None
    # inside: L(v) - L(end) = R + S with R / |v - end| > 0 and S >= 0 on the closed range (R: the terms rational in
    # v, or all of them) proves L(v) > L(end) for every v inside
    diff = a.law - a.law.subs(v, bound)
    distance = (v - a.lo) if end == "lower" else (a.hi - v)
    terms = sp.Add.make_args(sp.expand(diff))
    rational = sp.Add(*[t for t in terms if t.is_rational_function(v)])
    for strict_part in (diff, rational):
        rest = sp.expand(diff - strict_part)
        p = _proof(strict_part / distance, order, strict=True)
        if p is None or not p.ok:
            continue
        q = _proof(rest, order) if rest != 0 else None
        if rest == 0 or (q is not None and q.ok):
            return (f"L({v}) - L({v} = {show(bound)}) is {show(strict_part)}"
                    + (f" + {show(rest)}" if rest != 0 else "") + f", the first part divided by |{v} - {show(bound)}| "
                    f"> 0 ({p.how})" + (f" and the rest >= 0 ({q.how})" if rest != 0 else "")
                    + ": L is larger everywhere inside")
    return None


def _monotone_end(a, ev):
    """The end proved to be the minimizer because the law is monotone in the
    variable over the whole box (interval branch and bound; numeric ranges only)."""
    from pysym.audit.boxes import Var, decide, fraction
    from pysym.audit.interval import IntervalError
    from pysym.audit.precision import box_of
    from pysym.audit.region import numeric_box

    if not (a.lo.is_number and a.hi.is_number):
        return None
    d = sp.diff(a.law, a.v)
    others = numeric_box(a.ctx, {x for x in d.free_symbols if x != a.v and x in {s.symbol for s in a.ctx.specs}
                                 and x not in {p.symbol for p in a.ctx.params}})
    if others is None:
        return None
    box = [Var(a.v, fraction(a.lo), fraction(a.hi))] + others + box_of([d])
    for sign, end in ((1, "lower"), (-1, "upper")):
        try:
            if decide([(sign * d, ">=")], box, budget=500).status == "all":
                ev["proof"] = (f"dL/d{a.v} {'>=' if sign == 1 else '<='} 0 on the whole box (interval arithmetic): "
                               f"L is monotone in {a.v}, so the {end} end is the minimizer")
                if decide([(sign * d, ">")], box, budget=500).status == "all":
                    ev["monotone"] = end
                    ev["strict"] = f"dL/d{a.v} {'>' if sign == 1 else '<'} 0 on the whole box: the only minimizer"
                return end
        except (IntervalError, ZeroDivisionError):
            return None
    return None


def evaluate(job):
    o = _evaluate(job)
    return Outcome(o.verdict, o.summary + scope_note(job.claim), o.evidence)


def _evaluate(job):
    cf, claim = job.cf, job.claim
    location = claim.get("location")
    a = setup(cf, claim)
    v = a.v
    ev: dict = {}
    cond = claim.get("condition")
    if cond is not None and v in cond.free_symbols:
        raise cf.error(claim, f"`condition` may not involve {v}, the variable minimized over")
    f_np, lo_f, hi_f = a.numeric()
    rows = []
    for pt in a.ctx.sample():
        args = [float(pt[s]) for s in a.others]
        x, where = grid_argmin(f_np, float(lo_f(*args)), float(hi_f(*args)), args)
        c_ok = None if cond is None else bool(cond.subs({s: sp.Float(float(pt[s]), 20) for s in cond.free_symbols}))
        rows.append((pt, x, where, where == location, c_ok))
    # a proof that one end is the minimizer for every configuration is attempted only for an end where every
    # sampled minimum sits: where the samples already disagree, no end can be (and the proof would fail)
    ends = {r[2] for r in rows}
    proof_end = None
    order = a.order()
    for end, bound in (("upper", a.hi), ("lower", a.lo)):
        if ends != {end}:
            continue
        p = _proof(a.law - a.law.subs(v, bound), order)
        if p is not None and p.ok:
            proof_end = end
            ev["proof"] = f"L({v}) - L({v} = {show(bound)}) >= 0 for every {v} in [{show(a.lo)}, {show(a.hi)}]: {p.how}"
            break
    if proof_end is None and len(ends) == 1 and ends <= {"upper", "lower"}:
        proof_end = _monotone_end(a, ev)
    n_ok = sum(r[3] for r in rows)
    ev["configurations"] = len(rows)
    ev["matching"] = n_ok
    ex_ok = next((r for r in rows if r[3]), None)
    ex_bad = next((r for r in rows if not r[3]), None)
    if ex_bad:
        ev["counterexample"] = {**{str(s): num(ex_bad[0][s], 6) for s in a.others}, "argmin": num(ex_bad[1], 6),
                                "location": ex_bad[2]}
    if ex_ok:
        ev["example"] = {**{str(s): num(ex_ok[0][s], 6) for s in a.others}, "argmin": num(ex_ok[1], 6)}
    if proof_end is not None:
        ev["method"] = "proved (SymPy) and sampled"
        if proof_end == location:
            return Outcome("holds", f"the minimizer is at the {proof_end} end for every configuration (proved)", ev)
        only = _only_there(a, proof_end, location, ev)
        ev.pop("monotone", None), ev.pop("strict", None)
        if only is None and location != "interior":  # a tie: the claimed end may be a global minimizer as well
            bound = a.hi if location == "upper" else a.lo
            p = _proof(a.law - a.law.subs(v, bound), order)
            if p is not None and p.ok:
                ev["proof_claimed_end"] = f"L({v}) - L({v} = {show(bound)}) >= 0 for every {v}: {p.how}"
                return Outcome("holds", f"the {location} end is a global minimizer for every configuration (proved; "
                                        f"so is the {proof_end} end: the minimum is attained at both)", ev)
        if only is None:
            return Outcome("inconclusive", f"the {proof_end} end ({show(a.hi if proof_end == 'upper' else a.lo)}) is "
                                           "a global minimizer for every configuration (proved), but that the law is "
                                           f"larger everywhere {'inside' if location == 'interior' else 'at the ' + location + ' end'}"
                                           " is not proved: the minimum may also be attained there", ev)
        ev["uniqueness"] = only
        return Outcome("fails", f"the minimizer is at the {proof_end} end "
                                f"({show(a.hi if proof_end == 'upper' else a.lo)}) for every configuration (proved), "
                                f"not {location}", ev)
    ev["method"] = f"global argmin at {len(rows)} sampled configurations (grid + refinement)"
    if n_ok == len(rows):
        return Outcome("inconclusive", f"the minimizer is {location} in all {len(rows)} sampled configurations, but no "
                                       "proof covers the whole region (sampled agreement is not a proof)", ev)
    if n_ok == 0:
        return Outcome("inconclusive", f"the minimizer is never {location} in {len(rows)} sampled configurations, "
                                       f"e.g. {describe_cfg(ev['counterexample'])}; but each was found numerically (a "
                                       "grid can miss a narrow well), so this is evidence against the claim, not a "
                                       "proof", ev)
    mixed = (f"the minimizer is {location} in {n_ok} of {len(rows)} sampled configurations (e.g. "
             f"{describe_cfg(ev['example'])}) and not in the others (e.g. {describe_cfg(ev['counterexample'])})")
    if cond is not None:
        disagree = sum(r[3] != r[4] for r in rows)
        ev["condition"] = str(claim.fields["condition"])
        ev["condition_separates"] = disagree == 0
        if disagree == 0:  # a split seen at sampled configurations only is never `conditional`
            return Outcome("inconclusive", f"apparently conditional: holds exactly when {ev['condition']} in all "
                                           f"{len(rows)} sampled configurations ({n_ok} satisfy it), but the split is "
                                           "not proved (the minimizers were found numerically, and sampled agreement "
                                           "is not a proof)", ev)
        return Outcome("inconclusive", f"apparently not in general: {mixed}; the stated condition {ev['condition']} "
                                       f"does not separate them ({disagree} of {len(rows)} configurations disagree "
                                       "with it); the minimizers were found numerically, so this is not a proof", ev)
    return Outcome("inconclusive", f"apparently not in general: {mixed}; no `condition` is stated that separates "
                                   "them; the minimizers were found numerically, so this is not a proof", ev)


KIND = register(Kind(
    "optimum",
    (Field("law", EXPRESSION, True, "the law"),
     Field("argmin", SYMBOL, True, "the variable it is minimized over"),
     Field("over", BOUNDS, True, "its range [low, high]"),
     Field("location", choice("interior", "lower", "upper"), True, "where the minimizer is claimed to lie"),
     Field("region", RANGES, doc="ranges replacing the other symbols' ranges for this claim"),
     Field("condition", RELATION, doc="where the claim is claimed to hold")),
    evaluate,
    doc="Tries to prove that one end of `over` is the global minimizer for every configuration; otherwise "
        "locates the global minimizer at 48 sampled configurations. A mixed result is `conditional` only with a "
        "`condition` that separates the cases (sampled), else `fails`.",
))
