"""Incremental checks: a cached *base* of modules, and the rest checked on top of it.

A *base* is a combined file of some modules compiled to ``MoeTheoryBase.olean``
and kept in the check's cache (:mod:`pysym.lean.cache`) with its results.
The other modules are checked in a file that reads it with ``import all``
(:func:`pysym.lean.combined.combine`).  Which base:

* a cached base whose modules are all unchanged, the largest one: only the
  modules outside it are elaborated, in one plain Lean run;
* otherwise a new base, built in the same Lean process as the check on top
  of it (:mod:`pysym.lean.driver`): the modules unchanged since the last
  check, or on a first check, the modules that other modules import
  (:func:`imported`), so that the first edit of a module nothing imports
  already finds a base;
* for a library that is not the workspace, the whole library, kept in the
  user cache, with the user's files on top.

A base that does not check cleanly is not used: the caller then checks
everything as one file, which reports the problems.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from pysym.errors import ToolchainError
from pysym.lean import driver, runs
from pysym.lean.cache import BASE_MODULE, LeanCache
from pysym.lean.source import Module, Problem
from pysym.progress import Ticker

__all__ = ["incremental", "imported", "TOP_MODULE"]

TOP_MODULE = "MoeTheoryTop"


def incremental(tree: runs.Tree, cache: LeanCache, keys: dict[str, str], deps: dict[str, list[str]], work: Path,
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
        base_part = {k: run[k] for k in runs.PARTS}
        if not top:  # the library alone (a library that is not the workspace): the base is the whole check
            return runs.merge(base_part), len(in_base)
        s = "s" * (len(top) != 1)
        tree.progress.step(f"Checking your {len(top)} Lean file{s} on top of the library ({len(in_base)} modules, "
                           f"checked once and cached) with {tree.toolchain.describe()}" if library is not None else
                           f"Checking {len(top)} module{s} (what changed, what imports it, what the cached base "
                           f"leaves out) on top of {len(in_base)} unchanged ({tree.toolchain.describe()})")
        top_olean = work / f"{TOP_MODULE}.olean"
        top_run = runs.run(tree, top, work / f"{TOP_MODULE}.lean", olean=top_olean, imports=(BASE_MODULE,),
                           lean_path=[folder],
                           audit={BASE_MODULE: folder / f"{BASE_MODULE}.olean", TOP_MODULE: top_olean})
        return runs.merge(base_part, top_run), len(in_base)

    if library is not None:
        base = [m for m in tree.order if m.name in library]
        what = "your files" if len(base) < len(tree.order) else "every workspace"
        tree.progress.step(f"Checking the library ({len(base)} modules) once, as a base for {what} "
                           f"({tree.toolchain.describe()}; cached for later checks)")
    else:
        before = (cache.latest() or {}).get("module_keys", {})
        base = [m for m in tree.order if before.get(m.name) == keys[m.name]] or imported(tree.order, deps)
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
            base_run = runs.run(tree, base, staging / f"{BASE_MODULE}.lean", olean=base_olean)
        else:
            jobs = [driver.Job(BASE_MODULE, staging / f"{BASE_MODULE}.lean", base_olean, tree.replay),
                    driver.Job(TOP_MODULE, work / f"{TOP_MODULE}.lean", top_olean, tree.replay)]
            written = [runs.write(tree, base, jobs[0].lean_file, base_olean),
                       runs.write(tree, top, jobs[1].lean_file, top_olean, imports=(BASE_MODULE,))]
            with Ticker(tree.progress, "  elaborating"):
                outcomes = driver.run_jobs(tree.toolchain, jobs, work, tree.timeout, lean_path=[staging])
            base_run = runs.interpret(tree, base, written[0], outcomes[0].code, outcomes[0].messages,
                                      olean=base_olean, kernel=outcomes[0].kernel)
        if not base_run["ok"]:  # the full check reports the problems
            first = base_run["problems"][0] if base_run["problems"] else {}
            tree.progress.step("  the base did not check cleanly" + (f" ({Problem(**first)})" if first else "")
                               + "; checking everything in one run")
            return None, 0
        folder = cache.store_base(staging, cache.base_key({m.name: keys[m.name] for m in base}),
                                  dict(base_run, module_keys={m.name: keys[m.name] for m in base}))
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    base_part = {k: base_run[k] for k in runs.PARTS}
    if not top:
        return runs.merge(base_part), 0
    if outcomes[1] is None:
        raise ToolchainError("the check's driver did not check the modules on top of the base")
    top_run = runs.interpret(tree, top, written[1], outcomes[1].code, outcomes[1].messages, olean=top_olean,
                             audit={BASE_MODULE: folder / f"{BASE_MODULE}.olean", TOP_MODULE: top_olean},
                             kernel=outcomes[1].kernel)
    return runs.merge(base_part, top_run), 0


def imported(order: list[Module], deps: dict[str, list[str]]) -> list[Module]:
    """The modules that a module with declarations imports, directly or not
    (in import order): those an edit is least likely to touch first."""
    inner = {d for m in order if m.scan.declarations for d in deps.get(m.name, [])}
    for m in reversed(order):  # importers come after what they import
        if m.name in inner:
            inner.update(deps.get(m.name, []))
    return [m for m in order if m.name in inner]
