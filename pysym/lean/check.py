"""``moe-theory lean check``: elaborate every module of ``MoeTheory/``.

How a check runs:

1. Read every module (:func:`pysym.lean.source.discover_modules`), order them
   by their ``import`` lines, and run the source gate over Lean's own tokens
   (:mod:`pysym.lean.gate`) on every module and on ``lakefile.lean``.  The
   gate runs on every call, cached or not: it is cheap.  Sources the gate
   refuses are never run: the check reports the gate's problems and stops.
2. Write a *combined* file (:mod:`pysym.lean.combined`): the lakefile's
   options, each module's body in its own section, one ``#check`` per
   theorem.  One file sidesteps the wasm build's module-system limits while
   the kernel still checks every proof.  With a native toolchain ``#print
   axioms`` is appended as well.
3. Run Lean on it, writing its ``.olean`` too, and map each message back to
   ``MoeTheory/File.lean:line:col``.  Errors and ``sorry`` warnings fail the
   check; the ``#check`` answers become the elaborated statements.
4. Audit what Lean produced (layer 2, :mod:`pysym.lean.produced`): every
   declaration's axioms (anything beyond ``propext``, ``Classical.choice``,
   ``Quot.sound`` fails the check), and every use of a declaration that
   ``lake build`` would not let the module see (not imported, or private to
   another module), so that sharing a file changes nothing.

**Incremental checks** (:mod:`pysym.lean.cache`).  Lean's results are cached
by tree, several at a time, so an unchanged or reverted tree re-checks
without Lean.  A check with the cache builds a *base*: a combined file of
modules compiled to ``MoeTheoryBase.olean`` and cached, with the other
modules checked on top of it, in a file that reads the base with ``import
all``; both in one Lean process (:mod:`pysym.lean.driver`), which costs about
what one combined file of everything costs.  On a first check the base holds
the modules that other modules import; after an edit, a cached base whose
modules are all unchanged is reused, so only the modules outside it are
elaborated; when none fits, the modules unchanged since the last check
become the new base.  The verdict is the same as a full check's: the same
wrapper, the same audits, statements printed the same way, and the
visibility audit holds every module to what it imports.

**A library that is not the workspace** (the read-only copy inside the
installed package, or a checkout used from another folder: see
:mod:`pysym.workspace`) is checked as one base kept in the user cache, keyed
by its content, with or without a user's files on top; the generated files
and the cache of results go to the workspace's ``build/``.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path

from pysym.errors import ProjectError, ToolchainError
from pysym.lean import source
from pysym.lean.cache import BASE_MODULE, LeanCache, module_keys
from pysym.lean.combined import Combined, classify, combine, one_line, parse_messages
from pysym.lean.driver import Job, run_jobs
from pysym.lean.gate import scan_lakefile
from pysym.lean.process import run_lean_process
from pysym.lean.produced import audit_axioms, declaration_uses, visibility_problems
from pysym.lean.source import Module, Problem
from pysym.lean.toolchain import Toolchain, find_toolchain
from pysym.paths import build_dir, cache_dir, write_atomic
from pysym.progress import Progress, Ticker
from pysym.schemas import format_fields

__all__ = ["CheckResult", "check_project", "order_modules", "combine", "classify", "one_line",
           "parse_messages", "lean_options", "run_lean"]

CHECKER_VERSION = 7
STANDARD_AXIOMS = frozenset({"propext", "Classical.choice", "Quot.sound"})
DEFAULT_TIMEOUT = 1800
TOP_MODULE = "MoeTheoryTop"
FULL_MODULE = "MoeTheoryCheck"


@dataclass
class CheckResult:
    ok: bool
    modules: list[str]
    declarations: int
    theorems: int
    problems: list[Problem]
    warnings: list[Problem]
    statements: dict[str, dict]  # name -> {"statement", "module", "line"}
    toolchain: str
    seconds: float
    cached: bool = False
    axioms: dict[str, list[str]] = field(default_factory=dict)
    uses: dict[str, list[str]] = field(default_factory=dict)  # declaration -> declarations it uses
    lean_ran: bool = True  # False when the gate refused the sources and Lean was not started
    reused: int = 0  # modules taken from a cached base (an incremental check)

    def to_json(self) -> dict:
        """The result as ``pysym/schemas/lean-check.schema.json`` describes it."""
        return {
            **format_fields("lean-check"),
            "ok": self.ok,
            "modules": self.modules,
            "declarations": self.declarations,
            "theorems": self.theorems,
            "problems": [p.__dict__ for p in self.problems],
            "warnings": [p.__dict__ for p in self.warnings],
            "statements": self.statements,
            "toolchain": self.toolchain,
            "axioms": self.axioms,
            "uses": self.uses,
        }

    def summary(self) -> str:
        state = "OK" if self.ok else f"FAILED ({len(self.problems)} problem{'s' * (len(self.problems) != 1)})"
        how = ("cached: sources unchanged" if self.cached else self.toolchain) if self.lean_ran \
            else "Lean not started: the source gate refused the sources"
        if self.reused and not self.cached:
            how += f"; {self.reused} unchanged modules reused"
        return (
            f"lean check: {state}: {len(self.modules)} modules, {self.declarations} declarations "
            f"({self.theorems} theorems), {self.seconds:.1f} s [{how}]"
        )


# --------------------------------------------------------------------------- ordering


def order_modules(modules: list[Module], extra: list[Module] = ()) -> tuple[list[Module], list[Problem]]:
    """Topological order by imports of the library ``modules`` and a user's
    ``extra`` modules; problems for unknown imports and cycles."""
    library = [m.name for m in modules]
    modules = [*modules, *extra]
    by_name = {m.name: m for m in modules}
    problems: list[Problem] = []
    deps: dict[str, list[str]] = {}
    for m in modules:
        deps[m.name] = []
        for line, imp in m.imports:
            if imp in by_name:
                deps[m.name].append(imp)
            elif imp.split(".")[0] in source.ALLOWED_EXTERNAL_IMPORTS:
                continue
            elif imp.startswith("MoeTheory"):
                problems.append(Problem(m.relpath, line, 0, f"imports `{imp}`, which has no file "
                                        f"{imp.replace('.', '/')}.lean"))
            else:
                problems.append(Problem(m.relpath, line, 0, f"imports `{imp}`: only core Lean "
                                        f"({', '.join(source.ALLOWED_EXTERNAL_IMPORTS)}) and MoeTheory "
                                        "modules are available (no Mathlib); remove the import"))
    order: list[Module] = []
    state: dict[str, int] = {}

    def visit(name: str, chain: tuple[str, ...]) -> None:
        if state.get(name) == 2:
            return
        if state.get(name) == 1:
            cycle = " -> ".join(chain[chain.index(name):] + (name,))
            problems.append(Problem(by_name[name].relpath, 1, 0, f"import cycle: {cycle}"))
            return
        state[name] = 1
        for d in deps[name]:
            visit(d, chain + (name,))
        state[name] = 2
        order.append(by_name[name])

    for m in modules:
        visit(m.name, ())
    # lake builds what MoeTheory.lean reaches; keep the check and `lake build` in agreement
    if "MoeTheory" in by_name:
        reach: set[str] = set()
        stack = ["MoeTheory"]
        while stack:
            n = stack.pop()
            if n not in reach:
                reach.add(n)
                stack.extend(deps[n])
        for m in modules:
            if m.name not in reach and m.name in library:
                problems.append(Problem(m.relpath, 1, 0, f"not imported (directly or indirectly) by "
                                        f"MoeTheory.lean, so `lake build` would skip it: add `import {m.name}`"))
    else:
        problems.append(Problem("MoeTheory.lean", 1, 0, "missing: the library root must import every module"))
    return order, problems


# --------------------------------------------------------------------------- combined file


def lean_options(root: Path) -> tuple[list[tuple[str, str]], list[Problem]]:
    """``leanOptions`` of ``lakefile.lean`` as read by the gate
    (:func:`pysym.lean.gate.scan_lakefile`), and the gate's problems with it."""
    path = root / "lakefile.lean"
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return [], [Problem("lakefile.lean", 1, 0, "missing: the project needs a standard lakefile.lean")]
    except (OSError, UnicodeDecodeError) as exc:
        return [], [Problem("lakefile.lean", 1, 0, f"cannot read: {exc}")]
    lake = scan_lakefile(text, "lakefile.lean")
    return lake.options, lake.problems


def lakefile_digest(root: Path) -> str:
    """The SHA-256 of ``lakefile.lean`` (part of every cache key: any edit of it is a new check)."""
    try:
        return hashlib.sha256((root / "lakefile.lean").read_bytes()).hexdigest()
    except OSError:
        return "missing"




# --------------------------------------------------------------------------- one Lean run


def run_lean(toolchain: Toolchain, lean_file: Path, timeout: float, olean: Path | None = None,
             lean_path=()) -> tuple[int, str, str]:
    """Run Lean on ``lean_file`` in its own process group; it never outlives
    this call, even when the command is interrupted (:mod:`pysym.lean.process`)."""
    argv, env = toolchain.command(lean_file, lean_file.parent, olean, lean_path)
    return run_lean_process(argv, env, lean_file.parent, timeout)


@dataclass
class _Tree:
    """What every run of one check shares."""

    order: list[Module]
    options: list[tuple[str, str]]
    toolchain: Toolchain
    timeout: float
    progress: Progress
    where: dict  # declaration -> (module, path, line, private)
    theorems: dict  # theorem -> Module

    def names(self, modules: list[Module]) -> list[str]:
        mods = {m.name for m in modules}
        return [n for n, m in self.theorems.items() if m.name in mods]


def _write(tree: _Tree, modules: list[Module], lean_file: Path, olean: Path | None, imports=()) -> Combined:
    """Write the combined file of ``modules`` (removing stale ``olean`` files)."""
    names = tree.names(modules)
    combined = combine(modules, tree.options, names, imports=imports, name=lean_file.stem,
                       print_axioms=names if tree.toolchain.supports_print_axioms else ())
    write_atomic(lean_file, combined.text)
    if olean is not None:
        for stale in olean.parent.glob(olean.name + "*"):
            stale.unlink()
    return combined


def _run(tree: _Tree, modules: list[Module], lean_file: Path, *, olean: Path | None,
         audit: dict[str, Path] | None = None, imports=(), lean_path=()) -> dict:
    """Elaborate ``modules`` as one combined file in one Lean run; return
    Lean's part of the result for them (see :func:`_interpret`)."""
    combined = _write(tree, modules, lean_file, olean, imports)
    with Ticker(tree.progress, "  elaborating"):
        code, out, err = run_lean(tree.toolchain, lean_file, tree.timeout, olean, lean_path)
    messages = parse_messages(out)
    if code not in (0, 1) or (code == 1 and not any(m.get("severity") == "error" for m in messages)):
        tail = "\n".join((err or out).strip().splitlines()[-15:])
        raise ToolchainError(f"Lean exited with status {code} without reporting an error; "
                             f"its last output:\n{tail}")
    return _interpret(tree, modules, combined, code, messages, olean=olean, audit=audit)


def _interpret(tree: _Tree, modules: list[Module], combined: Combined, code: int, messages: list[dict], *,
               olean: Path | None, audit: dict[str, Path] | None = None) -> dict:
    """Lean's part of the result for ``modules`` (problems, warnings,
    statements, axioms, uses) from the run of ``combined``: its exit status
    (0 or 1) and messages, and the ``.olean`` it wrote (with ``audit``, the
    compiled files it builds on as well)."""
    tc = tree.toolchain
    names = tree.names(modules)
    if code == 1 and not any(m.get("severity") == "error" for m in messages):
        raise ToolchainError(f"Lean reported a failure of {olean or 'the check'} without an error message")
    problems, warnings, raw, axioms, tail_errors = classify(combined, messages)
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
        problems.extend(p for p in found if p.path in {m.relpath for m in modules} or p.path.startswith("<"))
        axioms = {n: audited[n] for n in names if n in audited}
        declared = {d for d, w in tree.where.items() if w[0] in ours}
        uses = {d: u for d, u in declaration_uses(list((audit or {olean.stem: olean}).values()),
                                                  set(tree.where)).items() if d in declared}
    return {
        "ok": code == 0 and not problems,
        "problems": [p.__dict__ for p in sorted(set(problems))],
        "warnings": [p.__dict__ for p in sorted(set(warnings))],
        "statements": statements,
        "axioms": axioms,
        "uses": uses,
    }


def _merge(*runs: dict) -> dict:
    out = {"problems": [], "warnings": [], "statements": {}, "axioms": {}, "uses": {}}
    for r in runs:
        out["problems"] += r["problems"]
        out["warnings"] += r["warnings"]
        for k in ("statements", "axioms", "uses"):
            out[k].update(r[k])
    return out


# --------------------------------------------------------------------------- the check


def check_project(
    root: Path,
    *,
    toolchain: Toolchain | None = None,
    progress: Progress | None = None,
    use_cache: bool = True,
    build: Path | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    extra: list[Module] = (),
    shared_library: bool = False,
    _gate: bool = True,
) -> CheckResult:
    """Check every module of the project at ``root`` and the user's ``extra``
    modules (Lean files that import the library: :func:`user_modules`); see
    the module docstring.  ``build`` receives the generated files and the
    cache of results.  With ``extra``, or with ``shared_library`` (a library
    that is not the caller's workspace: the copy inside the installed package,
    or a checkout used from another folder), the library is checked as one
    base kept in the user cache, keyed by its content, so that every workspace
    reuses it; nothing is written under ``root``.

    ``_gate=False`` (tests only) skips layer 1, to show what layer 2 alone
    catches; it is never exposed to users."""
    progress = progress or Progress()
    build = build or build_dir(root)
    modules = source.discover_modules(root)
    if not modules:
        raise ProjectError(f"{root}/MoeTheory: no .lean files")
    clash = sorted({m.name for m in extra} & {m.name for m in modules})
    if clash:
        raise ProjectError(f"{', '.join(clash)}: your Lean files must not have the names of the library's "
                           "modules; rename them")
    order, problems = order_modules(modules, list(extra))
    options, lake_problems = lean_options(root)
    if _gate:
        for m in order:
            problems.extend(m.scan.problems)
        problems.extend(lake_problems)
    decls = {m.name: m.scan.declarations for m in order}
    where = {d.name: (m.name, m.relpath, d.line, d.private) for m in order for d in decls[m.name] if d.name}
    problems.extend(_declared_twice(order))
    theorems = {d.name: m for m in order for d in decls[m.name] if d.kind == "theorem" and d.name}
    n_decls = sum(len(v) for v in decls.values())

    def result(lean: dict, seconds: float, *, cached: bool = False, reused: int = 0) -> CheckResult:
        every = sorted(set(problems) | {Problem(**p) for p in lean.get("problems", [])})
        return CheckResult(
            ok=not every, modules=[m.name for m in order], declarations=n_decls, theorems=len(theorems),
            problems=every, warnings=sorted({Problem(**p) for p in lean.get("warnings", [])}),
            statements=lean.get("statements", {}), toolchain=toolchain.describe() if toolchain else "",
            seconds=seconds, cached=cached, axioms=lean.get("axioms", {}), uses=lean.get("uses", {}),
            lean_ran=bool(lean), reused=reused)

    if problems:  # never run code the gate refused
        return result({}, 0.0)
    toolchain = toolchain or find_toolchain(progress)
    deps = {m.name: [imp for _, imp in m.imports if imp in {o.name for o in order}] for m in order}
    sees = _closure(deps)
    salt = (f"checker={CHECKER_VERSION}:{_checker_digest()}\0toolchain={toolchain.ident}\0"
            f"options={options!r}\0lakefile={lakefile_digest(root)}\0gate={_gate}")
    keys = module_keys(order, deps, salt)
    tree_key = hashlib.sha256("".join(f"{m}={k}\0" for m, k in sorted(keys.items())).encode()).hexdigest()
    shared = bool(extra) or shared_library
    cache = LeanCache(build / ".cache" / "lean", bases=cache_dir() / "lean-bases" if shared else None)
    t0 = time.monotonic()
    if use_cache and _gate and (hit := cache.result(tree_key)) is not None:
        return result(hit["lean"], time.monotonic() - t0, cached=True)

    tree = _Tree(order, options, toolchain, timeout, progress, where, theorems)
    work = build / "lean" / "work"
    lean, reused = None, 0
    if use_cache and _gate and toolchain.reads_oleans:
        library = {m.name for m in modules} if shared else None
        lean, reused = _incremental(tree, cache, keys, deps, work, library)
    if lean is None:
        progress.step(f"Checking {len(order)} modules with {toolchain.describe()} "
                      "(one Lean run; start-up alone takes about 5 s with the wasm build)")
        olean = work / f"{FULL_MODULE}.olean" if toolchain.reads_oleans else None
        lean = _run(tree, order, work / f"{FULL_MODULE}.lean", olean=olean)
    lean.pop("ok", None)
    if lean["uses"]:
        lean["problems"] += [p.__dict__ for p in visibility_problems(lean["uses"], where, sees)]
    if _gate:
        cache.store_result(tree_key, lean, keys)
    return result(lean, time.monotonic() - t0, reused=reused)


def _incremental(tree: _Tree, cache: LeanCache, keys: dict[str, str], deps: dict[str, list[str]], work: Path,
                 library: set[str] | None):
    """Check only what changed, on top of a base of unchanged modules; ``(None,
    0)`` when there is nothing to build on (then the caller checks in full).
    With a user's files, the base is the whole ``library``.  Without a cached
    base, one is built in the same Lean process as the check on top of it
    (:mod:`pysym.lean.driver`): of the modules unchanged since the last check,
    or on a first check, of the modules that other modules import, so that
    the first edit of a module nothing imports already finds a base."""
    found = (cache.find_base(keys) if library is None
             else cache.find_base({m: k for m, k in keys.items() if m in library}, whole=True))
    if found is not None:
        folder, run = found
        in_base = set(run["module_keys"])
        top = [m for m in tree.order if m.name not in in_base]
        base_part = {k: run[k] for k in ("problems", "warnings", "statements", "axioms", "uses")}
        if not top:  # the library alone (a library that is not the workspace): the base is the whole check
            return _merge(base_part), len(in_base)
        s = "s" * (len(top) != 1)
        tree.progress.step(f"Checking your {len(top)} Lean file{s} on top of the library ({len(in_base)} modules, "
                           f"checked once and cached) with {tree.toolchain.describe()}" if library is not None else
                           f"Checking {len(top)} module{s} (what changed, what imports it, what the cached base "
                           f"leaves out) on top of {len(in_base)} unchanged ({tree.toolchain.describe()})")
        top_olean = work / f"{TOP_MODULE}.olean"
        top_run = _run(tree, top, work / f"{TOP_MODULE}.lean", olean=top_olean, imports=(BASE_MODULE,),
                       lean_path=[folder],
                       audit={BASE_MODULE: folder / f"{BASE_MODULE}.olean", TOP_MODULE: top_olean})
        return _merge(base_part, top_run), len(in_base)

    if library is not None:
        base = [m for m in tree.order if m.name in library]
        what = "your files" if len(base) < len(tree.order) else "every workspace"
        tree.progress.step(f"Checking the library ({len(base)} modules) once, as a base for {what} "
                           f"({tree.toolchain.describe()}; cached for later checks)")
    else:
        before = (cache.latest() or {}).get("module_keys", {})
        base = [m for m in tree.order if before.get(m.name) == keys[m.name]] or _imported(tree.order, deps)
        if not base or len(base) == len(tree.order):
            return None, 0
        tree.progress.step(f"Checking {len(tree.order)} modules with {tree.toolchain.describe()}: "
                           f"{len(base)} as a base for later checks (cached), then the other "
                           f"{len(tree.order) - len(base)} on top of it, in one Lean run")
    in_base = {m.name for m in base}
    top = [m for m in tree.order if m.name not in in_base]
    staging = cache.staging()
    base_olean, top_olean = staging / f"{BASE_MODULE}.olean", work / f"{TOP_MODULE}.olean"
    try:
        if not top:  # the library alone: one file, no driver needed
            base_run = _run(tree, base, staging / f"{BASE_MODULE}.lean", olean=base_olean)
        else:
            jobs = [Job(BASE_MODULE, staging / f"{BASE_MODULE}.lean", base_olean),
                    Job(TOP_MODULE, work / f"{TOP_MODULE}.lean", top_olean)]
            written = [_write(tree, base, jobs[0].lean_file, base_olean),
                       _write(tree, top, jobs[1].lean_file, top_olean, imports=(BASE_MODULE,))]
            with Ticker(tree.progress, "  elaborating"):
                outcomes = run_jobs(tree.toolchain, jobs, work, tree.timeout, lean_path=[staging])
            base_run = _interpret(tree, base, written[0], outcomes[0].code, outcomes[0].messages,
                                  olean=base_olean)
        if not base_run["ok"]:  # the full check reports the problems
            first = base_run["problems"][0] if base_run["problems"] else {}
            tree.progress.step("  the base did not check cleanly" + (f" ({Problem(**first)})" if first else "")
                               + "; checking everything in one run")
            return None, 0
        folder = cache.store_base(staging, cache.base_key({m.name: keys[m.name] for m in base}),
                                  dict(base_run, module_keys={m.name: keys[m.name] for m in base}))
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    base_part = {k: base_run[k] for k in ("problems", "warnings", "statements", "axioms", "uses")}
    if not top:
        return _merge(base_part), 0
    if outcomes[1] is None:
        raise ToolchainError("the check's driver did not check the modules on top of the base")
    top_run = _interpret(tree, top, written[1], outcomes[1].code, outcomes[1].messages, olean=top_olean,
                         audit={BASE_MODULE: folder / f"{BASE_MODULE}.olean", TOP_MODULE: top_olean})
    return _merge(base_part, top_run), 0


def _declared_twice(order: list[Module]) -> list[Problem]:
    """A name declared in two modules.  Not ``private`` in both: ``lake
    build`` rejects it.  ``private`` in one or both: ``lake build`` accepts
    it, but the check cannot tell the two apart (one combined file fails on
    it in Lean, a module checked on top of a base does not, and the audits
    know declarations by name), so it refuses it on every path alike."""
    first: dict[str, tuple[Module, object]] = {}
    out = []
    for m in order:
        for d in m.scan.declarations:
            if not d.name:
                continue
            if d.name in first and first[d.name][0] is not m:
                other, od = first[d.name]
                why = ("`lake build` rejects a second declaration of a name" if not (d.private or od.private) else
                       "one of them is private, which `lake build` accepts, but the check knows declarations by "
                       "name and cannot tell the two apart: rename one")
                out.append(Problem(m.relpath, d.line, 0,
                                   f"`{d.name}` is already declared in {other.relpath}:{od.line}; {why}"))
            first.setdefault(d.name, (m, d))
    return out


def _imported(order: list[Module], deps: dict[str, list[str]]) -> list[Module]:
    """The modules that a module with declarations imports, directly or not
    (in import order): those an edit is least likely to touch first."""
    inner = {d for m in order if m.scan.declarations for d in deps.get(m.name, [])}
    for m in reversed(order):  # importers come after what they import
        if m.name in inner:
            inner.update(deps.get(m.name, []))
    return [m for m in order if m.name in inner]


def _closure(deps: dict[str, list[str]]) -> dict[str, set[str]]:
    """module -> itself and every module it imports, transitively."""
    out: dict[str, set[str]] = {}

    def visit(m: str) -> set[str]:
        if m not in out:
            out[m] = {m}
            for d in deps.get(m, []):
                out[m] |= visit(d)
        return out[m]

    for m in deps:
        visit(m)
    return out


def _checker_digest() -> str:
    """A hash of the checker's own code (every module of :mod:`pysym.lean`)."""
    h = hashlib.sha256()
    for path in sorted(Path(__file__).parent.glob("*.py")):
        h.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


