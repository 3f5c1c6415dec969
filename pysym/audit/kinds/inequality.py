"""Kind ``inequality``: ``lhs rel rhs`` for every point of the region.

Fields: ``lhs``, ``rel`` (``<=``, ``<``, ``>=``, ``>``), ``rhs``; optional
``region``, ``subs`` and ``condition`` (a relation).  ``holds`` when SymPy
proves it (or, with printed numbers, interval branch and bound proves it for
every admissible value), ``fails`` with the simplest counterexample found,
``undetermined`` when it holds on the whole region for some admissible values
and fails for others, else ``inconclusive``.  With ``condition``, a failing
inequality is checked for holding exactly where the condition holds (at the
printed values): the verdict is ``conditional`` only when that split is
*proved* on the whole region (the inequality's margin a proved-positive
multiple of the condition's, or interval branch and bound deciding both on
every part of the region); ``fails`` when a point is proved where they
disagree; and ``inconclusive`` (with the sampled evidence) when 400 sampled
points agree but nothing proves the split.

>>> from pysym.audit.examples import example
>>> example("inequality", lhs="x**2", rel=">=", rhs="3*x", condition="x >= 3")
('conditional', "holds exactly when x >= 3 (proved: the claim's margin is x times the condition's, a factor proved positive on the region (SymPy); 312 of 400 sampled points satisfy it)")
>>> example("inequality", lhs="x**2 + 1", rel=">=", rhs="2.0*x")[0]   # 2.0 is [1.95, 2.05]
'undetermined'
"""

from __future__ import annotations

import dataclasses

from pysym.audit.context import Context
from pysym.audit.fields import EXPRESSION, RANGES, RELATION, SUBSTITUTION, choice
from pysym.audit.printed import has_printed, midpoint
from pysym.audit.registry import Field, Kind, register
from pysym.audit.conditions import split_by_condition
from pysym.audit.relations import RELATIONS, check_subs, checked_relation, defined_or_inconclusive, sides, stated

__all__ = ["KIND", "evaluate"]


def evaluate(job):
    cf, claim = job.cf, job.claim
    rel = claim.get("rel")
    ctx = Context(cf, claim, claim.get("region"))
    check_subs(ctx)
    lhs, rhs = sides(claim)
    outcome = checked_relation(ctx, lhs, rel, rhs, "the inequality",
                               stated(claim, f"{claim.fields['lhs']} {rel} {claim.fields['rhs']}"))
    if outcome.verdict == "fails" and claim.has("condition"):
        condition = claim.get("condition")
        if claim.get("subs"):  # the condition speaks of the same symbols as the sides: substituted alike
            condition = condition.subs(claim.get("subs"))
        if has_printed([lhs, rhs, condition]):
            mid = dataclasses.replace(claim, values=midpoint(claim.values))
            ctx, lhs, rhs = Context(cf, mid, mid.get("region")), midpoint(lhs), midpoint(rhs)
            ev = dict(outcome.evidence)
            ev.setdefault("counterexample", {})
            split = split_by_condition(ctx, RELATIONS[rel](lhs, rhs, evaluate=False),
                                       midpoint(condition), str(claim.fields["condition"]), ev)
            status = ("printed values only" if split.verdict == "conditional" else
                      "unknown" if split.verdict == "inconclusive" else outcome.rounding.status)
            return defined_or_inconclusive(
                ctx, split._replace(summary=split.summary + " (at the printed values)",
                                    rounding=dataclasses.replace(outcome.rounding, status=status)),
                (lhs, rhs), "the inequality")
        split = split_by_condition(ctx, RELATIONS[rel](lhs, rhs, evaluate=False), condition,
                                   str(claim.fields["condition"]), outcome.evidence)
        return defined_or_inconclusive(
            ctx, split._replace(rounding=outcome.rounding if split.verdict != "inconclusive" else
                                dataclasses.replace(outcome.rounding, status="unknown")), (lhs, rhs), "the inequality")
    return outcome


KIND = register(Kind(
    "inequality",
    (Field("lhs", EXPRESSION, True, "left side"),
     Field("rel", choice("<=", "<", ">=", ">"), True, "the comparison"),
     Field("rhs", EXPRESSION, True, "right side"),
     Field("region", RANGES, doc="ranges replacing the symbols' ranges for this claim"),
     Field("subs", SUBSTITUTION, doc="substitutions made in both sides (and the condition) first"),
     Field("condition", RELATION, doc="where a failing inequality is claimed to hold")),
    evaluate,
    doc="Proves the inequality on the region, or finds a counterexample, preferring simple points; with printed "
        "numbers, interval branch and bound over the region and every admissible value.",
    precision="box",
))
