"""Audit outcomes cached by everything a verdict depends on.

A claim's outcome is a function of the claims file's text (and the name it
is shown under), the claim's place in it, the Lean statements it reads
(``premise`` claims only), the budget, the auditor's own code (every module of
:mod:`pysym`, as it was when imported), Python, and the libraries SymPy,
mpmath, python-flint and NumPy (their files and environment variables).  The
key of an entry hashes all of them (the code's part: :mod:`pysym.fingerprint`),
so a hit returns what evaluating the claim again would compute; changing any
one of them is a miss.  (The package's
modules are loaded only from the sources that were hashed:
:mod:`pysym._sources`.)

Only outcomes the evaluator reached on its own are stored.  A claim that ran
out of its budget, raised or died, or one where any CPU-time limit stopped a
step (:func:`pysym.audit.budget.cpu_limit`, or a prover's own budget,
:mod:`pysym.derive.budget`: how far a step gets before its limit depends on the
machine's speed), is evaluated afresh every time; and nothing is stored when
:mod:`pysym`'s files changed while the audit ran.

An entry that cannot be read, does not parse, or does not name its own key
is a miss, never an error, and so is one that another user owns or may
write (:func:`pysym.fingerprint.private_file`); entries are written atomically
(:func:`pysym.paths.write_atomic`); beyond :data:`KEEP` entries the least
recently used are removed.  ``moe-theory audit --no-cache`` (and ``all
--no-cache``) evaluate every claim afresh, and rewrite the entries.

>>> import tempfile
>>> from pathlib import Path
>>> from pysym.audit.verdict import Outcome, Rounding
>>> c = OutcomeCache(Path(tempfile.mkdtemp()))
>>> c.get("k") is None
True
>>> c.put("k", Outcome("holds", "proved", {"method": "m", "points": [1, 2]}, Rounding("exact")))
>>> c.get("k")
Outcome(verdict='holds', summary='proved', evidence={'method': 'm', 'points': [1, 2]}, rounding=Rounding(status='exact', range_of='', low=None, high=None, at_printed=None, numbers=(), note=''))
"""

from __future__ import annotations

import dataclasses
import hashlib
import json

from pysym.audit.verdict import ROUNDING, VERDICTS, Outcome, Rounding
from pysym.fingerprint import ResultCache, code_digest
from pysym.paths import write_atomic
from pysym.secret import keyed

__all__ = ["OutcomeCache", "KEEP", "FORMAT"]

KEEP = 4000  # entries kept (about 2 KB each)
FORMAT = "moe-theory-audit-outcome/1"


class OutcomeCache(ResultCache):
    """Outcomes in ``directory`` (the workspace's ``build/.cache/audit/``), one
    JSON file per key.  With ``read=False`` nothing is read (every claim is
    evaluated afresh) and what is evaluated is still stored."""

    SUFFIX = ".json"
    KEEP = KEEP

    def key(self, cf, claim, statements: dict | None, budget) -> str | None:
        """The key of ``claim`` of ``cf``; ``None`` (not cacheable) for a claims
        file not read from text (it has no digest) or a claim not in it."""
        index = next((i for i, c in enumerate(cf.claims) if c is claim), None)
        if not getattr(cf, "digest", "") or index is None:
            return None
        h = hashlib.sha256(code_digest().encode())
        for part in (cf.digest, cf.path, str(index), claim.id,
                     json.dumps(statements, sort_keys=True, default=str, ensure_ascii=False),
                     "unbounded" if budget is None else budget.describe(), keyed("moe-theory audit")):  # the user's secret
            h.update(b"\0" + part.encode("utf-8", "surrogatepass"))
        return h.hexdigest()

    def get(self, key: str) -> Outcome | None:
        path = self._path(key)
        if not self._readable(path):
            return None
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            outcome = _outcome(data, key)
        except (OSError, ValueError, TypeError, KeyError):
            return None
        self._hit(path)
        return outcome

    def put(self, key: str, outcome: Outcome) -> None:
        rounding = None if outcome.rounding is None else dataclasses.asdict(outcome.rounding)
        data = {"format": FORMAT, "key": key, "verdict": outcome.verdict, "summary": outcome.summary,
                "evidence": outcome.evidence, "rounding": rounding}
        try:
            write_atomic(self._path(key), json.dumps(data, ensure_ascii=False), private=True)
        except (OSError, TypeError, ValueError):  # a read-only build folder, or evidence that is not JSON
            return


def _outcome(data: dict, key: str) -> Outcome:
    """The outcome an entry holds; ``ValueError`` if it is not exactly one."""
    if data.get("format") != FORMAT or data.get("key") != key:
        raise ValueError("not an entry for this key")
    verdict, summary, evidence = data["verdict"], data["summary"], data["evidence"]
    if verdict not in VERDICTS or not isinstance(summary, str) or not isinstance(evidence, dict):
        raise ValueError("not an outcome")
    r = data["rounding"]
    rounding = None
    if r is not None:
        if r["status"] not in ROUNDING:
            raise ValueError("not a rounding status")
        rounding = Rounding(**dict(r, numbers=tuple(r["numbers"])))
    return Outcome(verdict, summary, evidence, rounding)
