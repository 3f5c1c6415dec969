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
    """``{theorem: statement}`` from ``build/lean/statements.json``."""
    path = Path(build_dir) / "lean" / "statements.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UserError(f"{path} is missing: run `moe-theory lean check` first") from None
    except ValueError as exc:
        raise UserError(f"{path}: not valid JSON ({exc}); re-run `moe-theory lean check`") from None
    return {name: info["statement"] for name, info in data.get("statements", {}).items()}


def select(names: list[str] | None) -> list[str]:
    """The derivations to run, in registry order; unknown names are an error."""
    if not names:
        return list(REGISTRY)
    unknown = [n for n in names if n not in REGISTRY]
    if unknown:
        raise UserError(f"unknown derivation(s) {', '.join(unknown)}; known: {', '.join(REGISTRY)}")
    return [n for n in REGISTRY if n in names]


def run(names: list[str] | None, statements: dict[str, str], progress=None) -> list[Report]:
    """Build and verify the named derivations (all by default)."""
    reports = []
    for name in select(names):
        if progress is not None:
            progress.step(f"  deriving {name}")
        reports.append(build(name).verify(statements))
    return reports
