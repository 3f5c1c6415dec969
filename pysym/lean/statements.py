"""Elaborated statements of the project's theorems.

Every ``lean check`` asks Lean for ``#check @Name`` of every theorem declared
in ``MoeTheory/``, so statements come with the check (and its cache).
:func:`extract_statements` returns the requested ones and writes all of them
to ``build/lean/statements.json`` (sorted, without timings: byte-identical for
an unchanged tree).

Names may be given in full (``MoeTheory.choose_le_pow``) or by a unique
suffix (``choose_le_pow``):

>>> resolve_names(["pow"], ["MoeTheory.a.pow", "MoeTheory.b.pow"])
Traceback (most recent call last):
...
pysym.errors.UserError: `pow` is ambiguous; candidates: MoeTheory.a.pow, MoeTheory.b.pow
>>> resolve_names(["choose_le_po"], ["MoeTheory.choose_le_pow"])
Traceback (most recent call last):
...
pysym.errors.UserError: unknown theorem `choose_le_po`: no theorem of that name is declared in MoeTheory/; did you mean MoeTheory.choose_le_pow?
>>> resolve_names(["choose_le_pow"], ["MoeTheory.choose_le_pow"])
['MoeTheory.choose_le_pow']
"""

from __future__ import annotations

import difflib
import json
from pathlib import Path

from pysym.errors import UserError
from pysym.lean.check import CheckResult, check_project
from pysym.lean.exports import EXPORTS
from pysym.paths import build_dir, write_atomic
from pysym.progress import Progress

__all__ = ["resolve_names", "extract_statements", "write_statements", "entries", "usable_statements",
           "missing_exports"]


def resolve_names(names: list[str], known: list[str]) -> list[str]:
    """Full names for ``names``; a clear :class:`UserError` for unknown ones."""
    short: dict[str, list[str]] = {}
    for k in known:
        short.setdefault(k.rsplit(".", 1)[-1], []).append(k)
    out = []
    for name in names:
        if name in known:
            out.append(name)
            continue
        matches = sorted(k for k in known if k.endswith("." + name))
        if len(matches) == 1:
            out.append(matches[0])
            continue
        if matches:
            raise UserError(f"`{name}` is ambiguous; candidates: {', '.join(matches)}")
        close = difflib.get_close_matches(name, known, n=3, cutoff=0.6)
        for s in difflib.get_close_matches(name.rsplit(".", 1)[-1], list(short), n=3, cutoff=0.6):
            close.extend(short[s])
        hint = f"; did you mean {', '.join(dict.fromkeys(close))}?" if close else ""
        raise UserError(f"unknown theorem `{name}`: no theorem of that name is declared in MoeTheory/{hint}")
    return out


AXIOMS_NOTE = (
    "`axioms` lists the axioms each theorem depends on, read from the .olean files Lean wrote "
    "(pysym.lean.axioms) or, with a native Lean, from `#print axioms`. With the registry toolchain, core "
    "Lean ships its theorems without proofs, so axioms used only inside core proofs are not visible; "
    "null means the axioms were not audited."
)


MEANING_NOTE = (
    "`meaning` lists why a printed statement may not mean what it says, judged on its type in the .olean files "
    "(pysym.lean.meaning): a non-standard instance, an unknown core constant, a cast that is not one, a function "
    "given a meaning the project does not prove. A statement with a non-empty `meaning` is refused as a premise."
)


def missing_exports(result: CheckResult) -> list[str]:
    return [n for n in EXPORTS if n not in result.statements]


def entries(result: CheckResult) -> dict[str, dict]:
    """The entries of ``statements.json`` for ``result``: each theorem's statement, module, position, axioms,
    whether it is exported, and ``meaning``: the problems of its compiled type, and the functions it prints that
    the project does not pin down (:func:`pysym.lean.meaning.pin_problems`)."""
    from pysym.lean.meaning import pin_problems
    from pysym.lean.produced import NOT_READ

    statements = {name: dict(info, exported=name in EXPORTS, axioms=result.axioms.get(name),
                             meaning=list(info.get("meaning", [NOT_READ])))
                  for name, info in sorted(result.statements.items())}
    for name, problems in pin_problems(statements).items():
        statements[name]["meaning"] = sorted(set(statements[name]["meaning"]) | set(problems))
    return statements


def usable_statements(result: CheckResult, found: dict | None = None) -> dict[str, str]:
    """``{theorem: statement}`` for what starts from Lean (derivations, ``premise`` claims): each statement as
    printed, or, when its meaning failed its check, the refusal the parser reports
    (:func:`pysym.lean.meaning.usable_statement`).  ``found``: :func:`entries` of ``result``, when a caller
    has it already (the pins are checked once per command)."""
    from pysym.lean.meaning import usable_statement

    return {name: usable_statement(info) for name, info in (found or entries(result)).items()}


def write_statements(result: CheckResult, build: Path, found: dict | None = None) -> Path:
    """Write every theorem's statement to ``build/lean/statements.json``,
    with its axioms and the problems of its meaning (``meaning``: the
    compiled type's, and the functions it prints that the project does not
    pin down: :func:`pysym.lean.meaning.pin_problems`)."""
    statements = found or entries(result)
    data = {
        "toolchain": result.toolchain,
        "axioms_note": AXIOMS_NOTE,
        "meaning_note": MEANING_NOTE,
        "statements": statements,
    }
    path = build / "lean" / "statements.json"
    write_atomic(path, json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n")
    return path


def extract_statements(
    root: Path,
    names: list[str] | None = None,
    *,
    progress: Progress | None = None,
    result: CheckResult | None = None,
    build: Path | None = None,
    found: dict | None = None,
) -> dict[str, str]:
    """``{full name: elaborated statement}`` for ``names`` (default: the
    exported theorems), checking the tree first (cached); a statement whose
    meaning failed its check is the refusal the parser reports."""
    build = build or build_dir(root)
    if result is None:
        result = check_project(root, progress=progress, build=build)
    if not result.ok:
        raise UserError("the Lean check failed, so no statements were extracted; "
                        "run `moe-theory lean check` and fix the problems it lists", exit_code=1)
    found = found or entries(result)
    write_statements(result, build, found)
    wanted = resolve_names(list(names) if names else list(EXPORTS), sorted(result.statements))
    usable = usable_statements(result, found)
    return {n: usable[n] for n in wanted}
