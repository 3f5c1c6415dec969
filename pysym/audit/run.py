"""Auditing claims files: every claim of every file, bad input collected.

:func:`audit` never stops at the first problem: a file that cannot be read
or a claim with a missing field is recorded as an :class:`AuditInputError`
and the remaining files and claims are still audited.  Each claim runs under
its own budget (:mod:`pysym.audit.budget`); an unexpected failure inside the
engine is reported as an ``inconclusive`` verdict that says so, never as a
silent ``holds``.

>>> result = audit([Path("no-such-file.toml")], None)
>>> exit_code(result), result.to_json()["errors"][0]["message"]
(2, 'cannot read: No such file or directory')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from pysym.audit.budget import DEFAULT_BUDGET, Budget
from pysym.audit.cache import OutcomeCache
from pysym.audit.engine import Verdict, evaluate_many
from pysym.audit.errors import AuditInputError
from pysym.audit.model import ClaimsFile
from pysym.audit.schema import load_claims_file
from pysym.audit.verdict import VERDICTS
from pysym.schemas import format_fields

__all__ = ["AuditResult", "audit", "default_files", "exit_code"]


@dataclass
class AuditResult:
    files: list[ClaimsFile] = field(default_factory=list)
    verdicts: list[Verdict] = field(default_factory=list)
    errors: list[AuditInputError] = field(default_factory=list)

    @property
    def mismatches(self) -> list[Verdict]:
        return [v for v in self.verdicts if not v.matches]

    def counts(self) -> dict[str, int]:
        return {k: sum(v.verdict == k for v in self.verdicts) for k in VERDICTS}

    def to_json(self) -> dict:
        """``{"format", "format_version", "verdicts": [...], "errors": [{"file", "claim", "message"}],
        "summary": {...}}``, as ``pysym/schemas/audit.schema.json`` describes."""
        return {
            **format_fields("audit"),
            "verdicts": [v.to_json() for v in self.verdicts],
            "errors": [e.to_json() for e in self.errors],
            "summary": {"claims": len(self.verdicts), "files": len(self.files), **self.counts(),
                        "differ_from_expected": len(self.mismatches), "input_errors": len(self.errors)},
        }


def default_files(root: Path) -> list[Path]:
    """``paper_checks/*.toml`` of the project, sorted."""
    return sorted((root / "paper_checks").glob("*.toml"))


def exit_code(result: AuditResult) -> int:
    """2 for invalid input, 1 when a verdict differs from its ``expected``, else 0."""
    if result.errors:
        return 2
    return 1 if result.mismatches else 0


def audit(paths: list[Path], statements: dict | None, *, root: Path | None = None, progress=None,
          budget: Budget | None = DEFAULT_BUDGET, cache: OutcomeCache | None = None) -> AuditResult:
    """Audit every claim of every file in ``paths``, each under ``budget``;
    with ``cache``, outcomes computed before for exactly the same inputs are
    reused (:mod:`pysym.audit.cache`)."""
    result = AuditResult()
    pairs = []
    for path in paths:
        shown = _display(path, root)
        try:
            cf = load_claims_file(path, shown)
        except AuditInputError as exc:
            result.errors.append(exc)
            continue
        same = next((other for other in result.files if other.paper.id == cf.paper.id), None)
        if same is not None:  # the reports group verdicts by paper id: two files of one id would mix their claims
            result.errors.append(AuditInputError(cf.path, None, f"[paper] id `{cf.paper.id}` is already the id of "
                                                                f"{same.path}: give each claims file its own id"))
            continue
        result.files.append(cf)
        result.errors.extend(cf.errors)
        if progress is not None:
            progress.step(f"  auditing {cf.path} ({len(cf.claims)} claims)")
        pairs += [(cf, claim) for claim in cf.claims]
    for found in evaluate_many(pairs, statements, budget=budget, cache=cache):
        (result.errors if isinstance(found, AuditInputError) else result.verdicts).append(found)
    if progress is not None and cache is not None and cache.hits:
        progress.step(f"  {cache.hits} of {len(pairs)} claims unchanged since an earlier audit: their outcomes "
                      f"come from the cache (--no-cache evaluates every claim)")
    return result


def _display(path: Path, root: Path | None) -> str:
    path = Path(path)
    for base in (Path.cwd(), root):
        if base is None:
            continue
        try:
            return str(path.resolve().relative_to(Path(base).resolve()))
        except ValueError:
            continue
    return str(path)
