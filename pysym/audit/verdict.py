"""Verdicts, their evidence, and whether rounding could flip them.

An evaluator returns an :class:`Outcome`: the verdict (one of
:data:`VERDICTS`), a one-sentence summary, the evidence (a dict of plain
values: strings, numbers, lists and dicts of them), and a :class:`Rounding`:
whether the printed precision of the claim's numbers could flip the verdict,
and the range of the derived quantity over every admissible value.
:class:`Verdict` adds the paper and the claim, and compares the verdict with
the claim's ``expected``.

The verdicts: ``holds`` (every admissible value satisfies the claim),
``fails`` (none does), ``undetermined`` (some admissible values satisfy it and
others do not: the printed precision cannot decide), ``conditional`` (holds
only under a stated condition), ``inconclusive`` (the engine could not decide
within its budget or methods).

>>> o = Outcome("holds", "proved", {"method": "proved (SymPy)", "points": 400})
>>> plain_evidence({"x": __import__("sympy").Rational(1, 3), "ok": True})
{'x': '1/3', 'ok': True}
>>> r = Rounding("rounding decides", "the derived exponent", "0.443548", "0.459678", "0.451613")
>>> r.could_flip, r.phrase()
(True, 'rounding decides: the derived exponent ranges over [0.443548, 0.459678] (0.451613 at the printed values)')
>>> Rounding("exact").phrase()
'exact inputs: nothing to round'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

import mpmath
import sympy as sp

from pysym.audit.model import Claim
from pysym.audit.numbers import mark, unmark

__all__ = ["VERDICTS", "ROUNDING", "Outcome", "Rounding", "Verdict", "plain", "plain_evidence", "unmarked"]

VERDICTS = ("holds", "fails", "undetermined", "conditional", "inconclusive")

# what each rounding status says, and whether rounding could flip the verdict
ROUNDING = {
    "exact": ("no printed number enters the claim: nothing to round", False),
    "robust": ("every admissible value of the printed numbers gives this verdict", False),
    "rounding decides": ("some admissible values satisfy the claim and others do not", True),
    "printed values only": ("checked at the printed values only: other admissible values could flip it", True),
    "unknown": ("the engine could not decide, so neither could it tell what rounding does", None),
}


@dataclass(frozen=True)
class Rounding:
    """Whether rounding could flip a verdict (``status``, a key of :data:`ROUNDING`),
    and the range of the derived quantity over every admissible value:
    ``low``/``high`` enclose it (rounded outward), ``at_printed`` is its value at
    the printed values; ``numbers`` lists the printed numbers involved."""

    status: str
    range_of: str = ""
    low: str | None = None
    high: str | None = None
    at_printed: str | None = None
    numbers: tuple = ()
    note: str = ""

    @property
    def could_flip(self) -> bool | None:
        return ROUNDING[self.status][1]

    def range_text(self) -> str:
        if self.low is None:
            return ""
        span = self.low if self.low == self.high else f"[{self.low}, {self.high}]"
        at = f" ({self.at_printed} at the printed values)" if self.at_printed and self.low != self.high else ""
        verb = "is" if self.low == self.high else "ranges over"
        return f"{self.range_of or 'the derived value'} {verb} {span}{at}"

    def phrase(self) -> str:
        """One line for the reports: the status and the admissible range."""
        head = {"exact": "exact inputs", "robust": "robust to rounding", "rounding decides": "rounding decides",
                "printed values only": "printed values only (rounding could flip it)",
                "unknown": "rounding: not assessed"}[self.status]
        rng = self.range_text()
        if self.status == "exact" and not rng:
            return "exact inputs: nothing to round"
        return f"{head}: {rng}" if rng else head

    def tag(self) -> str:
        """A short label for tables: the status, and the admissible range when there is one."""
        head = {"exact": "exact inputs", "robust": "robust to rounding", "rounding decides": "rounding decides",
                "printed values only": "printed values only: rounding could flip it",
                "unknown": "rounding not assessed"}[self.status]
        if self.low is None or self.status == "exact":
            return head
        span = self.low if self.low == self.high else f"[{self.low}, {self.high}]"
        return f"{head}; range {span}"

    def to_json(self) -> dict:
        return {"status": self.status, "could_flip": self.could_flip, "meaning": ROUNDING[self.status][0],
                "range": None if self.low is None else {"of": self.range_of, "low": self.low, "high": self.high},
                "at_printed_values": self.at_printed, "printed_numbers": list(self.numbers),
                **({"note": self.note} if self.note else {})}


class Outcome(NamedTuple):
    verdict: str
    summary: str
    evidence: dict
    rounding: Rounding | None = None


def plain(v):
    """``v`` as JSON-able data (SymPy as text, floats to 12 digits)."""
    if isinstance(v, dict):
        return {str(k): plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [plain(x) for x in v]
    if isinstance(v, (str, int, bool)) or v is None:
        return v
    if isinstance(v, float):
        return float(f"{v:.12g}")
    if isinstance(v, (mpmath.mpf, sp.Float)):
        return float(mpmath.nstr(mpmath.mpf(v), 12))
    if isinstance(v, sp.Basic):
        return sp.sstr(v) if v.is_number or isinstance(v, sp.logic.boolalg.BooleanAtom) else mark(sp.sstr(v))
    return str(v)


def plain_evidence(evidence: dict) -> dict:
    return {str(k): plain(v) for k, v in evidence.items()}


def unmarked(outcome: Outcome) -> Outcome:
    """``outcome`` without the expression markers of :func:`pysym.audit.numbers.show`."""
    return Outcome(outcome.verdict, unmark(outcome.summary), unmark(outcome.evidence),
                   _unmark_rounding(outcome.rounding))


def _unmark_rounding(r: Rounding | None) -> Rounding | None:
    if r is None:
        return None
    return Rounding(r.status, unmark(r.range_of), unmark(r.low), unmark(r.high), unmark(r.at_printed),
                    tuple(unmark(list(r.numbers))), unmark(r.note))


@dataclass
class Verdict:
    """A claim's verdict.  ``summary``, ``evidence`` and ``rounding`` are plain
    text; ``marked`` keeps them with the expressions marked by
    :func:`pysym.audit.numbers.show`, for the LaTeX report only."""

    paper: str
    claim: Claim
    verdict: str
    summary: str
    evidence: dict = field(default_factory=dict)
    rounding: Rounding = field(default_factory=lambda: Rounding("exact"))
    marked: dict | None = field(default=None, repr=False, compare=False)

    def __post_init__(self):  # the one place verdict text leaves the auditor: markers stay in `marked`
        if self.marked is None:
            self.marked = {"summary": self.summary, "evidence": self.evidence, "rounding": self.rounding}
        self.summary = unmark(self.summary)
        self.evidence = unmark(self.evidence)
        self.rounding = _unmark_rounding(self.rounding)

    @property
    def matches(self) -> bool:
        return self.verdict == self.claim.expected

    def to_json(self) -> dict:
        return {
            "paper": self.paper,
            "claim": self.claim.id,
            "kind": self.claim.kind,
            "where": self.claim.where,
            "quote": self.claim.quote,
            "verdict": self.verdict,
            "expected": self.claim.expected,
            "matches": self.matches,
            "rounding": self.rounding.to_json(),
            "evidence": {"summary": self.summary, **plain_evidence(self.evidence)},
        }
