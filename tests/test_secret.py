"""This user's secret in the keys of the workspace's caches (:mod:`pysym.secret`): a cache entry shipped
in a repository is never a hit."""

from __future__ import annotations

import json
import os
import stat

import pytest

from pysym.lean import cache as lean_cache
from pysym.lean.check import check_project
from pysym.progress import Progress
from pysym.secret import SECRET_FILE, keyed, user_secret

from conftest import write_project

QUIET = Progress(quiet=True)


def test_the_secret_is_made_once_private_and_replaced_when_it_is_not(tmp_path, monkeypatch):
    monkeypatch.setenv("MOE_THEORY_CACHE", str(tmp_path / "cache"))
    first = user_secret()
    path = tmp_path / "cache" / SECRET_FILE
    assert len(first) == 32 and path.read_bytes() == first
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert user_secret() == first and keyed("x") == keyed("x")
    path.chmod(0o644)  # readable by others: someone else may know it
    second = user_secret()
    assert second != first and stat.S_IMODE(path.stat().st_mode) == 0o600
    path.write_bytes(b"short")
    path.chmod(0o600)
    assert len(user_secret()) == 32 and user_secret() != b"short"


def test_without_a_writable_user_cache_the_secret_is_this_process_own(tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("MOE_THEORY_CACHE", str(blocker / "cache"))
    assert len(user_secret()) == 32 and user_secret() == user_secret()
    monkeypatch.setenv("MOE_THEORY_CACHE", str(tmp_path / "other"))
    assert user_secret() != user_secret.__globals__["_PROCESS_SECRET"]


class _LeanRan(Exception):
    pass


class _NoLean:
    """A toolchain that must never run: a check that reaches Lean raises :class:`_LeanRan`."""

    ident = "stand-in"
    reads_oleans = False
    supports_print_axioms = False

    def describe(self):
        return "a stand-in for Lean"

    def command(self, *args, **kwargs):
        raise _LeanRan()


FALSE = {"MoeTheory.Bad": "theorem bad : 2 + 2 = 5 := by decide\n"}


def test_a_cache_entry_shipped_in_a_workspace_is_never_a_hit(tmp_path, monkeypatch):
    """Red-team: the key of the Lean check's cache entry hashed only what a
    repository's author knows (sources, options, toolchain, the checker's
    code), so a repository could ship ``build/.cache/lean/results/<key>.json``
    saying the check found no problem, and `moe-theory lean check` printed OK
    on a false theorem from the cache.  The key now hashes this user's
    secret too."""
    root = write_project(tmp_path / "repo", FALSE)
    asked = []
    real_result = lean_cache.LeanCache.result

    def spy(self, key):
        asked.append((self.results, key))
        return real_result(self, key)

    monkeypatch.setattr(lean_cache.LeanCache, "result", spy)
    # the repository's author, on their machine: the key the check computes there, and a "clean" entry under it
    monkeypatch.setenv("MOE_THEORY_CACHE", str(tmp_path / "author-cache"))
    with pytest.raises(_LeanRan):
        check_project(root, toolchain=_NoLean(), progress=QUIET)
    results, key = asked[-1]
    results.mkdir(parents=True, exist_ok=True)
    clean = {"problems": [], "warnings": [], "statements": {}, "axioms": {}, "uses": {}}
    (results / f"{key}.json").write_text(json.dumps({"lean": clean, "module_keys": {}}))
    # where the key matches, such an entry is what the check reports (so this test can fail) ...
    planted = check_project(root, toolchain=_NoLean(), progress=QUIET)
    assert planted.ok and planted.cached
    # ... but a user who clones the repository has another secret: a miss, and Lean runs
    monkeypatch.setenv("MOE_THEORY_CACHE", str(tmp_path / "user-cache"))
    with pytest.raises(_LeanRan):
        check_project(root, toolchain=_NoLean(), progress=QUIET)
    assert asked[-1][1] != key and os.path.exists(results / f"{key}.json")
