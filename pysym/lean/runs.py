"""One Lean run of a combined file, and what the check takes from it.

:func:`write` writes the combined file of some modules
(:mod:`pysym.lean.combined`); :func:`run` runs Lean on it; :func:`interpret`
turns Lean's exit status and messages, and the ``.olean`` it wrote, into
Lean's part of a check's result: problems, warnings, the elaborated
statements, each theorem's axioms (read from the ``.olean``:
:mod:`pysym.lean.produced`) and each declaration's uses.  :func:`merge`
joins the parts of several runs (a base and the modules on top of it).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pysym.errors import ToolchainError
from pysym.lean.axioms import STANDARD_AXIOMS, user_name
from pysym.lean.combined import Combined, classify, combine, parse_messages
from pysym.lean.process import run_lean_process
from pysym.lean.produced import (NOT_READ, audit_axioms, computed_sorts, declaration_uses, name_clashes, owner,
                                 statement_meanings)
from pysym.lean.source import Module, Problem
from pysym.lean.terms import Name
from pysym.lean.toolchain import Toolchain
from pysym.paths import write_atomic
from pysym.progress import Progress, Ticker

__all__ = ["Tree", "run_lean", "write", "run", "interpret", "merge", "PARTS"]

PARTS = ("problems", "warnings", "statements", "axioms", "uses")  # what a run contributes to a result


def run_lean(toolchain: Toolchain, lean_file: Path, timeout: float, olean: Path | None = None,
             lean_path=()) -> tuple[int, str, str]:
    """Run Lean on ``lean_file`` in its own process group; it never outlives
    this call, even when the command is interrupted (:mod:`pysym.lean.process`)."""
    argv, env = toolchain.command(lean_file, lean_file.parent, olean, lean_path)
    return run_lean_process(argv, env, lean_file.parent, timeout)


@dataclass
class Tree:
    """What every run of one check shares."""

    order: list[Module]
    options: list[tuple[str, str]]
    toolchain: Toolchain
    timeout: float
    progress: Progress
    where: dict  # declaration -> (module, path, line, private)
    theorems: dict  # theorem -> Module
    replay: bool = True  # the kernel replay after each Lean run (False only in tests of layer 2 alone)

    def names(self, modules: list[Module]) -> list[str]:
        mods = {m.name for m in modules}
        return [n for n, m in self.theorems.items() if m.name in mods]


def write(tree: Tree, modules: list[Module], lean_file: Path, olean: Path | None, imports=()) -> Combined:
    """Write the combined file of ``modules`` (removing stale ``olean`` files)."""
    names = tree.names(modules)
    combined = combine(modules, tree.options, names, imports=imports, name=lean_file.stem,
                       print_axioms=names if tree.toolchain.supports_print_axioms else ())
    write_atomic(lean_file, combined.text)
    if olean is not None:
        for stale in olean.parent.glob(olean.name + "*"):
            stale.unlink()
    return combined


def run(tree: Tree, modules: list[Module], lean_file: Path, *, olean: Path | None,
         audit: dict[str, Path] | None = None, imports=(), lean_path=()) -> dict:
    """Elaborate ``modules`` as one combined file in one Lean run; return
    Lean's part of the result for them (see :func:`interpret`)."""
    combined = write(tree, modules, lean_file, olean, imports)
    if tree.toolchain.reads_oleans and olean is not None and tree.replay:  # the wasm build: through the driver,
        from pysym.lean.driver import Job, run_jobs  # which replays the kernel's check (one job, one Lean process)

        with Ticker(tree.progress, "  elaborating"):
            (outcome,) = run_jobs(tree.toolchain, [Job(lean_file.stem, lean_file, olean)], lean_file.parent,
                                  tree.timeout, lean_path)
        return interpret(tree, modules, combined, outcome.code, outcome.messages, olean=olean, audit=audit,
                         kernel=outcome.kernel)
    with Ticker(tree.progress, "  elaborating"):
        code, out, err = run_lean(tree.toolchain, lean_file, tree.timeout, olean, lean_path)
    messages = parse_messages(out)
    if code not in (0, 1) or (code == 1 and not any(m.get("severity") == "error" for m in messages)):
        tail = "\n".join((err or out).strip().splitlines()[-15:])
        raise ToolchainError(f"Lean exited with status {code} without reporting an error; "
                             f"its last output:\n{tail}")
    return interpret(tree, modules, combined, code, messages, olean=olean, audit=audit)


def kernel_problem(kernel: tuple[str, str], where) -> Problem:
    """The problem for a constant the driver's kernel replay rejected
    (:mod:`pysym.lean.driver`), placed at the declaration it belongs to.

    >>> str(kernel_problem(("_private.MoeTheoryCheck.0.MoeTheory.bad._proof_1_1", "application type mismatch"),
    ...                    {"MoeTheory.bad": ("MoeTheory.A", "MoeTheory/A.lean", 3, True)}))[:68]
    'MoeTheory/A.lean:3:0: the kernel rejects `MoeTheory.bad._proof_1_1` '
    """
    constant, said = kernel
    shown = str(user_name(Name.of(constant)))  # without the `_private.<module>.<n>.` prefix
    _, path, line, _ = where.get(owner(shown, where), ("", "<generated>", 0, False))
    return Problem(path, line, 0, f"the kernel rejects `{shown}` ({said}) when the check sends it what Lean "
                                  f"produced: a false `decide +kernel`, or a term the elaborator accepted "
                                  f"and the kernel does not")


def interpret(tree: Tree, modules: list[Module], combined: Combined, code: int, messages: list[dict], *,
               olean: Path | None, audit: dict[str, Path] | None = None, kernel: tuple[str, str] | None = None
               ) -> dict:
    """Lean's part of the result for ``modules`` (problems, warnings,
    statements, axioms, uses) from the run of ``combined``: its exit status
    (0 or 1) and messages, and the ``.olean`` it wrote (with ``audit``, the
    compiled files it builds on as well); ``kernel``: the constant the
    driver's kernel replay rejected, and why."""
    tc = tree.toolchain
    names = tree.names(modules)
    if code == 1 and kernel is None and not any(m.get("severity") == "error" for m in messages):
        raise ToolchainError(f"Lean reported a failure of {olean or 'the check'} without an error message")
    problems, warnings, raw, axioms, tail_errors = classify(combined, messages)
    if kernel is not None:
        code = 1
        problems.append(kernel_problem(kernel, tree.where))
    statements = {}
    for name, text in sorted(raw.items()):
        for prefix in (f"{name} : ", f"@{name} : "):
            if text.startswith(prefix):
                text = text[len(prefix):]
                break
        m = tree.theorems[name]
        statements[name] = {"statement": text, "module": m.name, "path": m.relpath,
                            "line": tree.where[name][2]}
    if not problems:
        problems.extend(Problem("<statement extraction>", 0, 0, e) for e in tail_errors)
        for name in names:
            if name not in statements and not tail_errors:
                problems.append(Problem(tree.theorems[name].relpath, tree.where[name][2], 0,
                                        f"Lean did not report the statement of `{name}`: it was not elaborated"))
    for name, used in sorted(axioms.items()):
        extra = [a for a in used if a not in STANDARD_AXIOMS]
        if extra:
            problems.append(Problem(tree.theorems[name].relpath, tree.where[name][2], 0,
                                    f"`{name}` depends on non-standard axioms {extra}"))
    uses: dict[str, list[str]] = {}
    if olean is not None and code == 0:
        ours = {m.name for m in modules}
        audited, found = audit_axioms(audit or {olean.stem: olean}, tc.lib, tree.where)
        paths = {m.relpath for m in modules}
        for p, module in found:
            if p.path in paths or p.path.startswith("<"):
                problems.append(p)
            elif module == olean.stem:  # compiled in this run, but named like a declaration of a module it builds
                problems.append(Problem(f"<{olean.stem}>", 0, 0, f"{p.message} (a constant of this run named "
                                                                 f"like a declaration of {p.path})"))
        axioms = {n: audited[n] for n in names if n in audited}
        declared = {d for d, w in tree.where.items() if w[0] in ours}
        uses = {d: u for d, u in declaration_uses(list((audit or {olean.stem: olean}).values()),
                                                  set(tree.where)).items() if d in declared}
        if audit and len(audit) > 1:
            problems.extend(name_clashes(audit, tree.where))
        problems.extend(computed_sorts({olean.stem: olean}, tree.where))
        meanings = statement_meanings(list((audit or {olean.stem: olean}).values()), statements, tree.theorems)
    else:
        meanings = {n: [NOT_READ] for n in statements}
    for name, info in statements.items():
        info["meaning"] = meanings.get(name, [NOT_READ])
    return {
        "ok": code == 0 and not problems,
        "problems": [p.__dict__ for p in sorted(set(problems))],
        "warnings": [p.__dict__ for p in sorted(set(warnings))],
        "statements": statements,
        "axioms": axioms,
        "uses": uses,
    }


def merge(*runs: dict) -> dict:
    out: dict = {k: [] if k in ("problems", "warnings") else {} for k in PARTS}
    for r in runs:
        for k in PARTS:
            if isinstance(out[k], list):
                out[k] += r[k]
            else:
                out[k].update(r[k])
    return out
