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

**Incremental checks** (:mod:`pysym.lean.incremental`, :mod:`pysym.lean.cache`).
Lean's results are cached by tree, several at a time, so an unchanged or
reverted tree re-checks without Lean.  A check with the cache builds a
*base*: a combined file of modules compiled to ``MoeTheoryBase.olean`` and
cached, with the other modules checked on top of it, in a file that reads
the base with ``import all``; both in one Lean process
(:mod:`pysym.lean.driver`), which costs about what one combined file of
everything costs.  On a first check the base holds the modules that other
modules import; after an edit, a cached base whose modules are all unchanged
is reused, so only the modules outside it are elaborated; when none fits,
the modules unchanged since the last check become the new base.  The verdict
is the same as a full check's: the same wrapper, the same audits,
statements printed the same way, and the visibility audit holds every
module to what it imports.

**A library that is not the workspace** (the read-only copy inside the
installed package, or a checkout used from another folder: see
:mod:`pysym.workspace`) is checked as one base kept in the user cache, keyed
by its content, with or without a user's files on top; the generated files
and the cache of results go to the workspace's ``build/``.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass, field
from pathlib import Path

from pysym.errors import ProjectError
from pysym.lean import runs, source
from pysym.lean.cache import LeanCache, module_keys
from pysym.lean.combined import classify, combine, one_line, parse_messages
from pysym.lean.lakefile import scan_lakefile
from pysym.lean.incremental import incremental
from pysym.lean.produced import visibility_problems
from pysym.lean.runs import run_lean
from pysym.lean.source import Module, Problem
from pysym.lean.toolchain import Toolchain, find_toolchain
from pysym.paths import build_dir, cache_dir
from pysym.progress import Progress
from pysym.secret import keyed
from pysym.schemas import format_fields

__all__ = ["CheckResult", "check_project", "order_modules", "combine", "classify", "one_line",
           "parse_messages", "lean_options", "run_lean"]

CHECKER_VERSION = 18
DEFAULT_TIMEOUT = 1800
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
    (:func:`pysym.lean.lakefile.scan_lakefile`), and the gate's problems with it."""
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
    _replay: bool = True,
) -> CheckResult:
    """Check every module of the project at ``root`` and the user's ``extra``
    modules (Lean files that import the library: :func:`user_modules`); see
    the module docstring.  ``build`` receives the generated files and the
    cache of results.  With ``extra``, or with ``shared_library`` (a library
    that is not the caller's workspace: the copy inside the installed package,
    or a checkout used from another folder), the library is checked as one
    base kept in the user cache, keyed by its content, so that every workspace
    reuses it; nothing is written under ``root``.

    ``_gate=False`` (tests only) skips layer 1, and ``_replay=False`` the
    kernel replay (:mod:`pysym.lean.replay`), to show what layer 2 alone
    catches; neither is exposed to users, and such a check is never cached."""
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
    # `user=`: a secret of this user (pysym.secret), so that no cache entry shipped in a workspace is ever a hit
    salt = (f"checker={CHECKER_VERSION}:{_checker_digest()}\0toolchain={toolchain.ident}\0"
            f"options={options!r}\0lakefile={lakefile_digest(root)}\0gate={_gate}\0replay={_replay}\0"
            f"user={keyed('moe-theory lean check')}")
    keys = module_keys(order, deps, salt)
    tree_key = hashlib.sha256("".join(f"{m}={k}\0" for m, k in sorted(keys.items())).encode()).hexdigest()
    shared = bool(extra) or shared_library
    cache = LeanCache(build / ".cache" / "lean", bases=cache_dir() / "lean-bases" if shared else None)
    t0 = time.monotonic()
    cacheable = _gate and _replay
    use_cache = use_cache and cacheable
    if use_cache and (hit := cache.result(tree_key)) is not None:
        return result(hit["lean"], time.monotonic() - t0, cached=True)

    tree = runs.Tree(order, options, toolchain, timeout, progress, where, theorems, replay=_replay)
    work = build / "lean" / "work"
    lean, reused = None, 0
    if use_cache and toolchain.reads_oleans:
        library = {m.name for m in modules} if shared else None
        lean, reused = incremental(tree, cache, keys, deps, work, library)
    if lean is None:
        progress.step(f"Checking {len(order)} modules with {toolchain.describe()} "
                      "(one Lean run; start-up alone takes about 5 s with the wasm build)")
        olean = work / f"{FULL_MODULE}.olean" if toolchain.reads_oleans else None
        lean = runs.run(tree, order, work / f"{FULL_MODULE}.lean", olean=olean)
    lean.pop("ok", None)
    if lean["uses"]:
        lean["problems"] += [p.__dict__ for p in visibility_problems(lean["uses"], where, sees)]
    if cacheable:
        cache.store_result(tree_key, lean, keys)
    return result(lean, time.monotonic() - t0, reused=reused)


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


