"""The cache of derivation reports (``pysym/derive/cache.py``).

A hit must be exactly the report a fresh verification gives (the same
expressions, node for node, and the same rendered files), every input a
report depends on must be in the key, reports that depend on the machine's
speed or that pickling would change must never be stored, and a damaged or
foreign entry must be a miss, never a report.
"""

from __future__ import annotations

import pickle

import pytest
import sympy as sp

from pysym import fingerprint
from pysym.derive import budget as budget_module
from pysym.derive.cache import FORMAT, ReportCache, canonical
from pysym.derive.derivation import Report
from pysym.derive.library import build
from pysym.derive.run import run
from pysym.derive.steps import Remark, StepResult
from pysym.render import render_all

from conftest import moe

NAME = "routing_term"  # the quickest shipped derivation (about half a second)


def _entries(cache: ReportCache) -> list:
    return sorted(cache.directory.glob("*.pickle"))


def test_a_hit_is_the_fresh_report_and_renders_the_same_files(tmp_path, statements, verified):
    cache = ReportCache(tmp_path / "cache")
    (fresh,) = run([NAME], statements, cache=cache)
    assert cache.hits == 0 and len(_entries(cache)) == 1
    again = ReportCache(tmp_path / "cache")
    (hit,) = run([NAME], statements, cache=again)
    assert again.hits == 1 and hit is not fresh
    assert canonical(hit) == canonical(fresh) == canonical(verified)
    a = render_all([fresh], tmp_path / "a", statements=statements)
    b = render_all([hit], tmp_path / "b", statements=statements)
    for pa, pb in zip(sum(a.values(), []), sum(b.values(), [])):
        assert pa.read_bytes() == pb.read_bytes(), pa.name
    # read=False verifies afresh, and stores what it verified
    afresh = ReportCache(tmp_path / "cache", read=False)
    run([NAME], statements, cache=afresh)
    assert afresh.hits == 0 and len(_entries(afresh)) == 1


def test_every_input_of_a_report_is_in_the_key(tmp_path, monkeypatch):
    import pysym.derive.derivation as derivation_module
    import pysym.derive.prove as prove_module

    cache = ReportCache(tmp_path)
    key = cache.key(NAME, {"T": "1 = 1"})
    assert cache.key(NAME, {"T": "1 = 1"}) == key
    other = {"the derivation": cache.key("zhao_theorem1", {"T": "1 = 1"}),
             "the Lean statements": cache.key(NAME, {"T": "1 = 2"}),
             "no Lean statements": cache.key(NAME, None)}
    with monkeypatch.context() as m:
        m.setattr(derivation_module, "STEP_BUDGET", derivation_module.STEP_BUDGET + 1)
        other["the step budget"] = cache.key(NAME, {"T": "1 = 1"})
    with monkeypatch.context() as m:
        m.setattr(prove_module, "BUDGET", prove_module.BUDGET + 1)
        other["the provers' budget"] = cache.key(NAME, {"T": "1 = 1"})
    with monkeypatch.context() as m:  # an entry shipped in a repository is never named here (pysym.secret)
        m.setenv("MOE_THEORY_CACHE", str(tmp_path / "another-user"))
        other["this user's secret"] = cache.key(NAME, {"T": "1 = 1"})
    fingerprint.code_digest.cache_clear()
    try:
        with monkeypatch.context() as m:
            m.setattr(fingerprint.sys, "version", fingerprint.sys.version + " (another build)")
            other["the code"] = cache.key(NAME, {"T": "1 = 1"})
    finally:
        fingerprint.code_digest.cache_clear()
    assert all(k != key for k in other.values()), [name for name, k in other.items() if k == key]
    assert len(set(other.values())) == len(other)
    assert cache.key(NAME, {"T": "1 = 1"}) == key


def _unevaluated_report() -> Report:
    """A report holding an expression built unevaluated (as derivations display
    them): rebuilt with evaluation on, ``exp(log(y)) = y`` would become ``True``."""
    y = sp.Symbol("y", positive=True)
    step = Remark("shown", "a displayed identity")
    shown = sp.Eq(sp.exp(sp.log(y, evaluate=False), evaluate=False), y, evaluate=False)
    return Report(build(NAME), [StepResult(step, True, "remark", "", region={"y": shown})])


def test_a_report_that_loading_would_change_is_not_stored(tmp_path, monkeypatch):
    import pysym.derive.cache as cache_module

    report = _unevaluated_report()
    cache = ReportCache(tmp_path)
    assert cache.put("k", report) and canonical(cache.get("k", NAME)) == canonical(report)
    # red team: a loader that lets SymPy evaluate would change the report; the round trip check refuses it
    monkeypatch.setattr(cache_module, "_load", pickle.loads)
    assert pickle.loads(pickle.dumps(report)).steps[0].region["y"] is sp.true
    assert not cache.put("k2", report) and not (tmp_path / "k2.pickle").exists()


def test_a_report_reached_after_a_stopped_step_is_not_stored(tmp_path, monkeypatch, statements):
    import pysym.derive.run as run_module

    class Stopped:
        def verify(self, statements):
            budget_module.note_stop()  # as a prover's budget does when it stops an attempt
            return build(NAME).verify(statements)

    monkeypatch.setattr(run_module, "build", lambda name: Stopped())
    cache = ReportCache(tmp_path)
    (report,) = run([NAME], statements, cache=cache)
    assert report.ok and _entries(cache) == []


def test_nothing_is_stored_when_the_code_changes_during_the_run(tmp_path, monkeypatch, statements):
    monkeypatch.setattr(ReportCache, "code_unchanged", lambda self: False)
    cache = ReportCache(tmp_path)
    run([NAME], statements, cache=cache)
    assert _entries(cache) == []


@pytest.fixture(scope="module")
def verified(statements) -> Report:
    return build(NAME).verify(statements)


@pytest.mark.parametrize("damage", ["garbage", "truncated", "another key", "another derivation", "not a report"])
def test_a_damaged_or_foreign_entry_is_a_miss(tmp_path, statements, verified, damage):
    cache = ReportCache(tmp_path)
    key = cache.key(NAME, statements)
    assert cache.put(key, verified)
    (entry,) = _entries(cache)
    data = entry.read_bytes()
    header = f"{FORMAT} {key}\n".encode()
    assert entry.stem == key and data.startswith(header)
    other = Report(build("comprehensive_law"), [])
    entry.write_bytes({"garbage": b"not a pickle",
                       "truncated": data[:len(data) // 2],
                       "another key": f"{FORMAT} {'0' * 64}\n".encode() + data[len(header):],
                       "another derivation": header + pickle.dumps(other),
                       "not a report": header + pickle.dumps({"ok": True})}[damage])
    again = ReportCache(tmp_path)
    assert again.get(key, NAME) is None and again.hits == 0
    if damage == "garbage":  # the next run verifies afresh and replaces the entry
        (fresh,) = run([NAME], statements, cache=again)
        assert again.hits == 0 and fresh.ok and entry.read_bytes().startswith(header)
        assert canonical(ReportCache(tmp_path).get(key, NAME)) == canonical(verified)


@pytest.mark.lean
def test_cli_reuses_reports_and_no_cache_verifies_afresh(real_check, tmp_path, monkeypatch):
    """`moe-theory derive NAME` twice, outside a checkout (the library's check is
    the one ``real_check`` cached: no Lean run; the outputs go to ./build/): the
    second run takes the report from build/.cache/derive/ and says so;
    `--no-cache` verifies again (and does not re-run Lean)."""
    first = moe(tmp_path, "derive", NAME)
    assert first.returncode == 0 and "verified by an earlier run" not in first.stdout, first.stdout + first.stderr
    assert len(list((tmp_path / "build" / ".cache" / "derive").glob("*.pickle"))) == 1
    second = moe(tmp_path, "derive", NAME)
    assert second.returncode == 0, second.stderr
    assert "1 of 1 derivations verified (1 verified by an earlier run with the same code and statements" \
        in second.stdout, second.stdout
    import pysym.lean.driver as driver_module
    import pysym.lean.runs as runs_module

    def no_lean(*args, **kwargs):
        raise AssertionError("Lean was started")

    for module in (driver_module, runs_module):  # the forked command inherits these
        monkeypatch.setattr(module, "run_lean_process", no_lean)
    third = moe(tmp_path, "derive", NAME, "--no-cache")
    assert third.returncode == 0 and "verified by an earlier run" not in third.stdout, third.stdout + third.stderr


def test_a_variant_built_in_memory_is_another_derivation(tmp_path, statements, monkeypatch):
    """Red team: a report of a derivation changed in memory (a step dropped,
    "does it verify without it?") was stored under the shipped derivation's
    key.  The key names the derivation as built."""
    import pysym.derive.run as run_module

    shipped = run_module.build

    def without_last_step(name):
        d = shipped(name)
        d.steps = d.steps[:-1]
        return d

    cache = ReportCache(tmp_path)
    monkeypatch.setattr(run_module, "build", without_last_step)
    (variant,) = run([NAME], statements, cache=cache)
    monkeypatch.setattr(run_module, "build", shipped)
    again = ReportCache(tmp_path)
    (report,) = run([NAME], statements, cache=again)
    assert again.hits == 0 and len(report.steps) == len(variant.steps) + 1
    assert cache.key(NAME, statements) != cache.key(NAME, statements, without_last_step(NAME))


def test_a_report_verified_where_budgets_do_not_apply_is_not_stored(tmp_path, statements):
    """Red team: budgets are a signal timer, so they apply in the main thread
    only; a report verified in another thread ran unbounded."""
    import threading

    cache = ReportCache(tmp_path)
    out = {}
    worker = threading.Thread(target=lambda: out.setdefault("r", run([NAME], statements, cache=cache)))
    worker.start()
    worker.join()
    assert out["r"][0].ok and _entries(cache) == []


def test_sympy_state_beyond_the_arguments_counts(tmp_path):
    """Red team: unpickling rebuilds a SymPy object from its arguments, which
    loses a polynomial's domain or modulus, a wildcard's exclusions, a unit's
    LaTeX form; a report holding one must not be stored (it would load as
    another report)."""
    from sympy.physics.units import degree

    X = sp.Symbol("X")
    for held in (sp.Poly(X**2 + 4, X, modulus=5), sp.Poly(X**2 + 1, X, domain="QQ"),
                 sp.Wild("w", exclude=[X]), 2 * degree * X):
        report = Report(build(NAME), [StepResult(Remark("held", ""), True, "remark", "", region={"x": held})])
        assert not ReportCache(tmp_path).put("k", report), held
    assert not list(tmp_path.iterdir())


def test_only_this_users_private_entries_are_read(tmp_path, verified, statements):
    """An entry another user could have written is never loaded (a pickle
    runs code when loaded; a planted audit entry would be a planted verdict):
    entries are written 0600, and one writable by others, a symbolic link, or
    (where this test may change owners) a file of another user is a miss."""
    import os
    import stat

    cache = ReportCache(tmp_path)
    key = cache.key(NAME, statements)
    assert cache.put(key, verified)
    (entry,) = _entries(cache)
    assert stat.S_IMODE(entry.stat().st_mode) == 0o600
    assert cache.get(key, NAME) is not None
    entry.chmod(0o620)
    assert cache.get(key, NAME) is None
    entry.chmod(0o600)
    moved = tmp_path / "elsewhere.pickle"
    entry.rename(moved)
    entry.symlink_to(moved)
    assert cache.get(key, NAME) is None
    entry.unlink()
    moved.rename(entry)
    assert cache.get(key, NAME) is not None
    if os.getuid() == 0:
        os.chown(entry, 4242, -1)
        assert cache.get(key, NAME) is None


def test_a_functions_assumptions_are_part_of_what_a_derivation_is():
    """Red team: ``Function("f", positive=True)`` and ``Function("f")`` had one
    text, so a derivation about a positive f and one about any f had one key."""
    x = sp.Symbol("x")
    assert canonical(sp.Function("f", positive=True)(x)) != canonical(sp.Function("f")(x))
    assert canonical(sp.Function("f")(x)) == canonical(sp.Function("f")(x))


def test_no_entry_is_read_once_the_code_changed_under_the_process(tmp_path, statements, verified, monkeypatch):
    """Red team: keys are taken from the code as imported; a module loaded
    later (or reloaded) may be a newer version, so once the files changed no
    entry is read, nor stored."""
    cache = ReportCache(tmp_path)
    key = cache.key(NAME, statements)
    assert cache.put(key, verified)
    monkeypatch.setattr(ReportCache, "code_unchanged", lambda self: False)
    run([NAME], statements, cache=cache)
    assert cache.hits == 0
