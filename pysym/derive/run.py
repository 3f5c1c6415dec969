"""Running derivations: load the Lean statements, build, verify.

>>> from pysym.derive.run import run
>>> [r.derivation.name for r in run(["routing_term"], statements={})]
['routing_term']
"""

from __future__ import annotations

import json
from pathlib import Path

from pysym.derive.core import Report
from pysym.derive.library import REGISTRY, build
from pysym.errors import UserError

__all__ = ["load_statements", "run", "select"]


def load_statements(build_dir: Path) -> dict[str, str]:
    """``{theorem: statement}`` from ``build/lean/statements.json``; a
    statement whose meaning failed its check is replaced by the refusal the
    parser reports (:func:`pysym.lean.meaning.usable_statement`)."""
    path = Path(build_dir) / "lean" / "statements.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UserError(f"{path} is missing: run `moe-theory lean check` first") from None
    except ValueError as exc:
        raise UserError(f"{path}: not valid JSON ({exc}); re-run `moe-theory lean check`") from None
    from pysym.lean.meaning import usable_statement

    return {name: usable_statement(info) for name, info in data.get("statements", {}).items()}


def select(names: list[str] | None) -> list[str]:
    """The derivations to run, in registry order; unknown names are an error."""
    if not names:
        return list(REGISTRY)
    unknown = [n for n in names if n not in REGISTRY]
    if unknown:
        raise UserError(f"unknown derivation(s) {', '.join(unknown)}; known: {', '.join(REGISTRY)}")
    return [n for n in REGISTRY if n in names]


def run(names: list[str] | None, statements: dict[str, str], progress=None, cache=None) -> list[Report]:
    """Build and verify the named derivations (all by default).  With ``cache``
    (a :class:`pysym.derive.cache.ReportCache`), a derivation whose report is
    cached is not verified again, and what is verified is stored (the cache's
    module says when that is safe)."""
    from pysym.derive.budget import enforced, stops

    reports, storable = [], []
    for name in select(names):
        derivation = build(name)
        # the key names the derivation as built here (a variant made in memory is another derivation)
        key = cache.key(name, statements, derivation) if cache is not None else None
        report = cache.get(key, name) if cache is not None else None
        if report is not None:
            reports.append(report)
            continue
        if progress is not None:
            progress.step(f"  deriving {name}")
        before = stops()
        report = derivation.verify(statements)
        reports.append(report)
        # a report is stored only if every budget was in force and none stopped any work
        stopped = not enforced() or stops() != before or any(s.method == "budget" for s in report.steps)
        if cache is not None and not stopped:
            storable.append((key, report))
    if storable and cache.code_unchanged():  # checked once all are verified: the code that ran is the keys'
        for key, report in storable:
            cache.put(key, report)
    if cache is not None:
        cache.prune()
    return reports
