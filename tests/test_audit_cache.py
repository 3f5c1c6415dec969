"""The cache of audit outcomes (``pysym/audit/cache.py``).

A hit must give exactly the verdict a fresh evaluation gives, so every input
the verdict depends on must be in the key (each is changed here and must miss),
outcomes that depend on the machine's speed must never be stored, and an entry
that is damaged or belongs to another key must be a miss, never a verdict.
"""

from __future__ import annotations

import json

import pytest

from pysym.audit import Budget, audit
from pysym import fingerprint
from pysym.audit.budget import CPUTimeout, cpu_limit
from pysym.audit.cache import OutcomeCache
from pysym.audit.verdict import Outcome

from conftest import TOY_CLAIMS, moe

CLAIMS = TOY_CLAIMS + """
[[claim]]
id = "wrong"
kind = "inequality"
quote = "x^2 >= 3x for every x"
where = "Eq. 2"
expected = "fails"
lhs = "x**2"
rel = ">="
rhs = "3*x"
"""

BUDGET = Budget(cpu_seconds=30, memory_mb=1024)


def _json(result) -> list:
    return [v.to_json() for v in result.verdicts]


@pytest.fixture
def claims(tmp_path):
    path = tmp_path / "paper_checks" / "toy.toml"
    path.parent.mkdir()
    path.write_text(CLAIMS)
    return path


def test_a_hit_is_the_fresh_verdict_and_skips_the_evaluation(claims, tmp_path):
    cache = OutcomeCache(tmp_path / "cache")
    fresh = audit([claims], None, budget=BUDGET, cache=cache)
    assert cache.hits == 0 and len(list((tmp_path / "cache").glob("*.json"))) == 2
    assert [v.verdict for v in fresh.verdicts] == ["holds", "fails"]
    again = OutcomeCache(tmp_path / "cache")
    cached = audit([claims], None, budget=BUDGET, cache=again)
    assert again.hits == 2
    assert _json(cached) == _json(fresh)
    assert [v.marked for v in cached.verdicts] == [v.marked for v in fresh.verdicts]  # the LaTeX report's text too
    # read=False: nothing is read, everything evaluated and stored again
    none = OutcomeCache(tmp_path / "cache", read=False)
    assert _json(audit([claims], None, budget=BUDGET, cache=none)) == _json(fresh) and none.hits == 0


def test_every_input_of_a_verdict_is_in_the_key(claims, tmp_path, monkeypatch):
    from pysym.audit.schema import load_claims_file

    cache = OutcomeCache(tmp_path / "cache")
    cf = load_claims_file(claims, "paper_checks/toy.toml")
    claim = cf.claims[0]
    key = cache.key(cf, claim, {"T": "1 = 1"}, BUDGET)

    def first(other) -> str:
        return cache.key(other, other.claims[0], {"T": "1 = 1"}, BUDGET)

    assert key == first(load_claims_file(claims, "paper_checks/toy.toml"))
    other = {
        "the claims file's text": first(_edited(claims, tmp_path)),
        "the shown path": first(load_claims_file(claims, "elsewhere.toml")),
        "the claim": cache.key(cf, cf.claims[1], {"T": "1 = 1"}, BUDGET),
        "the Lean statements": cache.key(cf, claim, {"T": "1 = 2"}, BUDGET),
        "no Lean statements": cache.key(cf, claim, None, BUDGET),
        "the budget": cache.key(cf, claim, {"T": "1 = 1"}, Budget(cpu_seconds=31, memory_mb=1024)),
        "no budget": cache.key(cf, claim, {"T": "1 = 1"}, None),
    }
    with monkeypatch.context() as m:  # an entry shipped in a repository is never named here (pysym.secret)
        m.setenv("MOE_THEORY_CACHE", str(tmp_path / "another-user"))
        other["this user's secret"] = first(cf)
    assert all(k != key for k in other.values()), [name for name, k in other.items() if k == key]
    assert len(set(other.values())) == len(other)
    # the auditor's code and the libraries' versions: a different digest is a different key
    fingerprint.code_digest.cache_clear()
    monkeypatch.setattr(fingerprint.sys, "version", fingerprint.sys.version + " (another build)")
    try:
        assert cache.key(cf, claim, {"T": "1 = 1"}, BUDGET) != key
    finally:
        monkeypatch.undo()
        fingerprint.code_digest.cache_clear()
    assert cache.key(cf, claim, {"T": "1 = 1"}, BUDGET) == key


def _edited(path, tmp_path):
    from pysym.audit.schema import load_claims_file

    edited = tmp_path / "edited.toml"
    edited.write_text(path.read_text().replace("A toy paper", "A toy paper, second version"))
    return load_claims_file(edited, "paper_checks/toy.toml")


def test_the_code_digest_covers_every_module_of_the_package(tmp_path):
    import shutil
    from pathlib import Path

    import pysym
    from pysym import _sources

    copy = tmp_path / "pysym"
    shutil.copytree(Path(pysym.__file__).parent, copy, ignore=shutil.ignore_patterns("__pycache__"))
    digest = _sources.sources_digest(copy)
    assert digest == _sources.sources_digest(copy) == _sources.AT_IMPORT  # the copy is the code running here
    prove = copy / "derive" / "prove.py"  # a verdict depends on the sign prover as much as on pysym.audit
    prove.write_text(prove.read_text() + "\n# an edit\n")
    edited = _sources.sources_digest(copy)
    assert edited != digest
    (copy / "audit" / "kinds" / "extra.py").write_text("")  # a new module
    assert _sources.sources_digest(copy) not in (digest, edited)


def test_a_library_patched_under_the_same_version_is_another_library(tmp_path, monkeypatch):
    lib = tmp_path / "lib"
    (lib / "sub").mkdir(parents=True)
    (lib / "core.py").write_text("def factor(f):\n    return f.factor()\n")
    (lib / "sub" / "x.py").write_text("")
    first = fingerprint.tree_fingerprint(lib)
    assert fingerprint.tree_fingerprint(lib) == first
    (lib / "core.py").write_text("def factor(f):\n    return f\n")  # shorter: another size
    second = fingerprint.tree_fingerprint(lib)
    import os
    import shutil

    os.utime(lib / "sub" / "x.py", ns=(1, 1))  # same size, another modification time
    third = fingerprint.tree_fingerprint(lib)
    # the same size and modification time, as `cp -a` and `touch -r` keep them: another file all the same
    st = os.stat(lib / "core.py")
    (lib / "core.py").write_text("def factor(f):\n    return g\n")
    os.utime(lib / "core.py", ns=(st.st_atime_ns, st.st_mtime_ns))
    fourth = fingerprint.tree_fingerprint(lib)
    shutil.copytree(lib, tmp_path / "copy", copy_function=shutil.copy2)  # a copy elsewhere, times kept
    assert len({first, second, third, fourth, fingerprint.tree_fingerprint(tmp_path / "copy")}) == 5
    # the libraries' environment variables are part of the code too
    base = fingerprint.current_code_digest()
    for name, value in (("SYMPY_GROUND_TYPES", "python"), ("NPY_DISABLE_CPU_FEATURES", "AVX512F"),
                        ("PYTHONINTMAXSTRDIGITS", "640")):
        monkeypatch.setenv(name, value)
        assert fingerprint.current_code_digest() != base, name
        monkeypatch.delenv(name)
    assert fingerprint.current_code_digest() == base
    assert set(fingerprint.LIBRARIES) >= {"sympy", "mpmath", "flint", "numpy"}


def test_bytecode_of_an_edit_of_the_same_size_and_time_never_runs(tmp_path, monkeypatch):
    # Python's own loader trusts bytecode whose recorded size and modification time (whole seconds) match the
    # source; the package's modules are loaded by a loader whose bytecode records a hash of the text instead
    import importlib.machinery
    import importlib.util
    import os
    import sys

    from pysym._sources import ContentStampedLoader

    monkeypatch.setattr(sys, "dont_write_bytecode", False)

    def run(loader_class, src):
        loader = loader_class(src.stem, str(src))
        module = importlib.util.module_from_spec(importlib.util.spec_from_loader(src.stem, loader))
        loader.exec_module(module)
        return module.VALUE

    for loader_class, after_edit in ((importlib.machinery.SourceFileLoader, 1), (ContentStampedLoader, 2)):
        monkeypatch.setattr(sys, "pycache_prefix", str(tmp_path / loader_class.__name__))
        src = tmp_path / f"m_{loader_class.__name__}.py"
        src.write_text("VALUE = 1\n")
        assert run(loader_class, src) == 1  # compiled, bytecode written
        st = os.stat(src)
        src.write_text("VALUE = 2\n")  # the same size ...
        os.utime(src, ns=(st.st_atime_ns, st.st_mtime_ns))  # ... and modification time
        assert run(loader_class, src) == after_edit, loader_class.__name__  # 1: the old bytecode ran
    import pysym.audit.engine

    assert isinstance(pysym.audit.engine.__spec__.loader, ContentStampedLoader)


def test_nothing_is_stored_when_the_code_changes_during_the_audit(claims, tmp_path, monkeypatch):
    from pysym import _sources

    cache = OutcomeCache(tmp_path / "cache")
    real = _sources.sources_digest
    monkeypatch.setattr(_sources, "sources_digest", lambda *a: "0" * 64)  # a file saved while the claims ran
    result = audit([claims], None, budget=BUDGET, cache=cache)
    assert [v.verdict for v in result.verdicts] == ["holds", "fails"]
    assert not list((tmp_path / "cache").glob("*.json"))
    monkeypatch.setattr(_sources, "sources_digest", real)
    audit([claims], None, budget=BUDGET, cache=cache)
    assert len(list((tmp_path / "cache").glob("*.json"))) == 2


def test_a_claimsfile_not_read_from_text_is_never_cached(tmp_path):
    import sympy as sp

    from pysym.audit.model import ClaimsFile, Paper, SymbolSpec

    cf = ClaimsFile("f.toml", Paper("p", "t"), {"x": SymbolSpec("x", sp.Symbol("x"), sp.Integer(1), sp.Integer(2))},
                    {}, [])
    assert OutcomeCache(tmp_path).key(cf, object(), None, BUDGET) is None


@pytest.mark.parametrize("damage", ["garbage", "other key", "bad verdict", "bad rounding", "not a dict"])
def test_a_damaged_entry_is_a_miss_and_is_replaced(claims, tmp_path, damage):
    cache = OutcomeCache(tmp_path / "cache")
    fresh = audit([claims], None, budget=BUDGET, cache=cache)
    for entry in (tmp_path / "cache").glob("*.json"):
        data = json.loads(entry.read_text())
        data_false = dict(data, verdict="holds" if data["verdict"] == "fails" else "fails")
        text = {"garbage": "{not json",
                "other key": json.dumps(dict(data_false, key="0" * 64)),
                "bad verdict": json.dumps(dict(data, verdict="probably")),
                "bad rounding": json.dumps(dict(data, rounding={**data["rounding"], "status": "fine"})),
                "not a dict": json.dumps(dict(data, evidence=["x"]))}[damage]
        entry.write_text(text)
    again = OutcomeCache(tmp_path / "cache")
    assert _json(audit([claims], None, budget=BUDGET, cache=again)) == _json(fresh) and again.hits == 0
    assert OutcomeCache(tmp_path / "cache").get(again.key(fresh.files[0], fresh.files[0].claims[0], None, BUDGET))


@pytest.mark.parametrize("limit", ["cpu_limit", "prover budget"])
def test_an_outcome_reached_after_a_stopped_step_is_not_stored(claims, tmp_path, monkeypatch, limit):
    # both CPU-time limits: the audit's per-step `cpu_limit` and the provers' own budget (which a prover turns
    # into "no proof", so the claim still gets an outcome)
    import pysym.audit.engine as engine
    from pysym.derive.budget import OutOfTime, budget

    def slow_step(cf, claim, statements=None):
        try:
            with (cpu_limit(0.05) if limit == "cpu_limit" else budget(0.05)):
                while True:
                    pass
        except (CPUTimeout, OutOfTime):
            return Outcome("inconclusive", "a step ran out of its CPU time", {"method": "test"})

    monkeypatch.setattr(engine, "_evaluate", slow_step)
    cache = OutcomeCache(tmp_path / "cache")
    result = audit([claims], None, budget=None, cache=cache)  # in this process, so the patch applies
    assert [v.verdict for v in result.verdicts] == ["inconclusive", "inconclusive"]
    assert not list((tmp_path / "cache").glob("*.json"))


def test_a_claim_that_runs_out_of_its_budget_is_not_stored(tmp_path):
    path = tmp_path / "slow.toml"
    path.write_text(TOY_CLAIMS.replace('range = [1, 10] }', 'range = [1, 10] }\nj = { description = "j", '
                                       'range = [1, 1000000000], integer = true }') + """
[[claim]]
id = "slow"
kind = "value"
quote = "q"
where = "w"
expected = "inconclusive"
quantity = "factorial(j)"
claimed = "1"
at = { j = 100000000 }
""")
    cache = OutcomeCache(tmp_path / "cache")
    result = audit([path], None, budget=Budget(cpu_seconds=1, memory_mb=512), cache=cache)
    assert [v.verdict for v in result.verdicts] == ["holds", "inconclusive"]
    assert len(list((tmp_path / "cache").glob("*.json"))) == 1  # only `same`


def test_the_cache_keeps_the_most_recently_used_entries(tmp_path):
    cache = OutcomeCache(tmp_path)
    for i in range(5):
        cache.put(f"k{i}", Outcome("holds", "s", {}))
    cache.get("k0")  # used again: now the most recent
    import os
    import time

    for i, name in enumerate(["k1", "k2", "k3", "k4", "k0"]):  # mtimes in that order, whatever the clock's resolution
        os.utime(tmp_path / f"{name}.json", (time.time(), 1_000_000 + i))
    cache.prune(keep=3)
    assert sorted(p.stem for p in tmp_path.glob("*.json")) == ["k0", "k3", "k4"]


def test_cli_uses_the_cache_and_no_cache_evaluates_afresh(claims, tmp_path):
    root = claims.parent.parent
    first = moe(root, "audit", "--json")
    assert first.returncode == 0, first.stderr
    second = moe(root, "audit", "--json")
    assert "2 of 2 claims unchanged since an earlier audit" in second.stderr
    assert json.loads(second.stdout) == json.loads(first.stdout)
    fresh = moe(root, "audit", "--json", "--no-cache")
    assert "from the cache" not in fresh.stderr and json.loads(fresh.stdout) == json.loads(first.stdout)


PREMISE = """
[[claim]]
id = "lean"
kind = "premise"
quote = "C(n, j) <= n^j"
where = "Lemma 1"
expected = "holds"
theorem = "MoeTheory.choose_le_pow"
statement = "binomial(n, j) <= n**j"
bind = { k = "j" }
"""


def test_only_a_claim_that_reads_lean_depends_on_the_statements(tmp_path):
    # the statements are the engine's input of `premise` claims only: the others are given None and keyed so,
    # and a premise claim is evaluated again when a statement changes
    path = tmp_path / "p.toml"
    path.write_text(TOY_CLAIMS.replace('range = [1, 10] }', 'range = [1, 10] }\nn = { description = "n", range = '
                                       '[1, 100], integer = true }\nj = { description = "j", range = [1, 100], '
                                       'integer = true }') + PREMISE)
    proved = {"MoeTheory.choose_le_pow": "∀ (n k : Nat), MoeTheory.choose n k ≤ n ^ k"}
    other = {"MoeTheory.choose_le_pow": "∀ (n k : Nat), MoeTheory.choose n k ≤ k ^ n"}
    cache = OutcomeCache(tmp_path / "cache")
    assert [v.verdict for v in audit([path], proved, budget=BUDGET, cache=cache).verdicts] == ["holds", "holds"]
    cache = OutcomeCache(tmp_path / "cache")
    got = audit([path], other, budget=BUDGET, cache=cache)
    # (the theorem no longer states the claim, which stays true: `inconclusive`, no longer `holds`)
    assert cache.hits == 1 and [v.verdict for v in got.verdicts] == ["holds", "inconclusive"]
    assert audit([path], other, budget=BUDGET).verdicts[1].verdict == "inconclusive"  # what a fresh evaluation says


def test_no_cache_of_the_audit_reevaluates_the_claims_but_keeps_the_lean_checks_cache(tmp_path, monkeypatch):
    # `audit --no-cache` is about claims: the Lean check it needs for a premise claim keeps its own cache (which
    # is keyed by the tree and the checker); `lean check --no-cache` re-runs Lean.  The forked command inherits
    # this stand-in for the check, which records how it was asked to run.
    import pysym.lean.check as check_module
    from pysym.lean.check import CheckResult

    asked = tmp_path / "asked"

    def fake_check(root, *, use_cache=True, **kwargs):
        with asked.open("a") as f:
            f.write(f"use_cache={use_cache}\n")
        # trusted statements (`meaning` empty), with the equations that pin `MoeTheory.choose` to the binomial
        statements = {name: {"statement": text, "module": "MoeTheory.Choose", "path": "MoeTheory/Choose.lean",
                             "meaning": []} for name, text in (
            ("MoeTheory.choose_le_pow", "∀ (n k : Nat), MoeTheory.choose n k ≤ n ^ k"),
            ("MoeTheory.choose_zero_right", "∀ (n : Nat), MoeTheory.choose n 0 = 1"),
            ("MoeTheory.choose_zero_succ", "∀ (k : Nat), MoeTheory.choose 0 (k + 1) = 0"),
            ("MoeTheory.choose_succ_succ", "∀ (n k : Nat), MoeTheory.choose (n + 1) (k + 1) = "
                                           "MoeTheory.choose n k + MoeTheory.choose n (k + 1)"))}
        return CheckResult(True, ["MoeTheory.Choose"], 0, 4, [], [], statements, "fake", 0.0, cached=use_cache)

    monkeypatch.setattr(check_module, "check_project", fake_check)
    monkeypatch.setattr("pysym.lean.statements.missing_exports", lambda result: [])
    (tmp_path / "paper_checks").mkdir()
    (tmp_path / "paper_checks" / "p.toml").write_text(
        TOY_CLAIMS.replace('range = [1, 10] }', 'range = [1, 10] }\nn = { description = "n", range = [1, 100], '
                           'integer = true }\nj = { description = "j", range = [1, 100], integer = true }') + PREMISE)
    (tmp_path / "lakefile.lean").write_text("")
    fresh = moe(tmp_path, "audit", "--no-cache", "--out", str(tmp_path / "build"))
    assert fresh.returncode == 0, fresh.stdout + fresh.stderr
    assert asked.read_text() == "use_cache=True\n"
    rerun = moe(tmp_path, "lean", "check", "--no-cache", "--out", str(tmp_path / "build"))
    assert asked.read_text().splitlines()[-1] == "use_cache=False", rerun.stdout + rerun.stderr
