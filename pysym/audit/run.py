"""Auditing claims files: every claim of every file, bad input collected.

:func:`audit` never stops at the first problem: a file that cannot be read
or a claim with a missing field is recorded as an :class:`AuditInputError`
and the remaining files and claims are still audited.  An unexpected failure
inside the engine is reported as an ``inconclusive`` verdict that names it,
never as a silent ``holds``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from pysym.audit.engine import Verdict, evaluate
from pysym.audit.schema import AuditInputError, ClaimsFile, load_claims_file

__all__ = ["AuditResult", "audit", "default_files", "exit_code"]


@dataclass
class AuditResult:
    files: list[ClaimsFile] = field(default_factory=list)
    verdicts: list[Verdict] = field(default_factory=list)
    errors: list[AuditInputError] = field(default_factory=list)

    @property
    def mismatches(self) -> list[Verdict]:
        return [v for v in self.verdicts if not v.matches]

    def to_json(self) -> list[dict]:
        return [v.to_json() for v in self.verdicts]


def default_files(root: Path) -> list[Path]:
    """``paper_checks/*.toml`` of the project, sorted."""
    return sorted((root / "paper_checks").glob("*.toml"))


def exit_code(result: AuditResult) -> int:
    """2 for invalid input, 1 when a verdict differs from its ``expected``, else 0."""
    if result.errors:
        return 2
    return 1 if result.mismatches else 0


def audit(paths: list[Path], statements: dict | None, *, root: Path | None = None, progress=None) -> AuditResult:
    result = AuditResult()
    for path in paths:
        shown = _display(path, root)
        try:
            cf = load_claims_file(path, shown)
        except AuditInputError as exc:
            result.errors.append(exc)
            continue
        result.files.append(cf)
        result.errors.extend(cf.errors)
        if progress is not None:
            progress.step(f"  auditing {shown} ({len(cf.claims)} claims)")
        for claim in cf.claims:
            try:
                result.verdicts.append(evaluate(cf, claim, statements))
            except AuditInputError as exc:
                result.errors.append(exc)
            except Exception as exc:  # noqa: BLE001 - an engine failure must not hide the other claims
                result.verdicts.append(Verdict(cf.paper.id, claim, "inconclusive",
                                               f"the engine failed on this claim ({type(exc).__name__}: {exc})",
                                               {"method": "engine error"}))
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
