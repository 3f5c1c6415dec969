"""Printed numbers as parameters: for kinds whose methods are proofs and sampling.

The ``optimum``, ``independence``, ``premise`` and argmin-``sign`` kinds (and
the relation kinds where interval branch and bound does not apply) decide a
claim with SymPy proofs and sampled configurations, not with interval
arithmetic.  With printed numbers in the claim they run twice:

1. **at the printed values** (every printed number replaced by its printed
   value): the verdict there;
2. if that verdict is ``holds``: **with the printed numbers as parameters**,
   each ranging over its admissible interval like a symbol over its range
   (:class:`pysym.audit.context.Context`): a proof then covers every admissible
   value, and a sampled configuration may pick any of them.

So ``holds`` needs a proof for every admissible value (rounding: robust); a
claim that holds at the printed values but fails for some admissible values is
``undetermined`` (rounding decides); a claim that fails at the printed values
keeps that verdict, with the rounding status "printed values only" (other
admissible values were not examined, so rounding could flip it); a claim
already ``undetermined`` at the printed values (the claimed value's own printed
numbers decide both ways there) stays so, and rounding decides.

>>> from pysym.audit.verdict import Outcome
>>> o = at_printed_values(Outcome("holds", "proved", {}), lambda: Outcome("fails", "at x = 2", {}), ["c = [1, 2]"])
>>> o.verdict, o.rounding.status
('undetermined', 'rounding decides')
>>> at_printed_values(Outcome("fails", "at x = 1", {}), None, ["c = [1, 2]"]).rounding.phrase()
'printed values only (rounding could flip it)'
"""

from __future__ import annotations

import dataclasses

from pysym.audit.printed import midpoint, printed_in
from pysym.audit.verdict import Outcome, Rounding

__all__ = ["at_printed_values", "evaluate_with_parameters"]


def at_printed_values(o_mid: Outcome, run_joint, numbers) -> Outcome:
    """Combine the verdict at the printed values with the run where the printed
    numbers are parameters (``run_joint()``, called only when needed)."""
    numbers = tuple(numbers)
    ev = dict(o_mid.evidence)
    if o_mid.verdict != "holds":
        # undetermined already at the printed values (the claimed value's own printed numbers decide both
        # ways): other admissible values of the rest cannot remove either witness
        status = {"inconclusive": "unknown", "undetermined": "rounding decides"}.get(o_mid.verdict,
                                                                                   "printed values only")
        return Outcome(o_mid.verdict, f"at the printed values: {o_mid.summary}", ev, Rounding(status, numbers=numbers))
    o_box = run_joint()
    ev = {**o_box.evidence, "at the printed values": o_mid.summary}
    ev.update({k: v for k, v in o_mid.evidence.items() if k in ("values", "derived", "counterexample") and v})
    if o_box.verdict == "holds":
        return Outcome("holds", f"{o_box.summary}, for every admissible value of the printed numbers", ev,
                       Rounding("robust", numbers=numbers))
    if o_box.verdict in ("fails", "conditional", "undetermined"):
        return Outcome("undetermined", f"holds at the printed values ({o_mid.summary}), but not for every "
                                       f"admissible value of the printed numbers: {o_box.summary}", ev,
                       Rounding("rounding decides", numbers=numbers))
    return Outcome("inconclusive", f"holds at the printed values ({o_mid.summary}), but the engine could not check "
                                   f"the other admissible values of the printed numbers ({o_box.summary})", ev,
                   Rounding("unknown", numbers=numbers))


def evaluate_with_parameters(evaluate, job) -> Outcome:
    """``evaluate(job)`` at the printed values, then (if it holds) with the printed numbers as parameters."""
    mid_claim = dataclasses.replace(job.claim, values=midpoint(job.claim.values))
    o_mid = evaluate(dataclasses.replace(job, claim=mid_claim))
    return at_printed_values(o_mid, lambda: evaluate(job), printed_in(job.claim.values))
