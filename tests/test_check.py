"""`moe-theory lean check` and statement extraction, with the real Lean."""

import json
import subprocess

import pytest

from pysym.errors import UserError
from pysym.lean.check import check_project, classify, combine, one_line, order_modules, parse_messages
from pysym.lean.exports import EXPORTS
from pysym.lean.source import discover_modules
from pysym.lean.statements import extract_statements, resolve_names
from pysym.progress import Progress

from conftest import ROOT, write_project
from conftest import moe as run_moe

QUIET = Progress(quiet=True)


def moe(*args, cwd=None):
    return run_moe(cwd or ROOT, *args, timeout=3600)


BROKEN = {
    "MoeTheory.Base": """
        namespace MoeTheory
        def double (n : Nat) : Nat := n + n
        theorem double_eq (n : Nat) : double n = 2 * n := by
          unfold double; omega
        end MoeTheory
        """,
    "MoeTheory.TypeError": """
        import MoeTheory.Base
        namespace MoeTheory
        theorem ok_one : double 1 = 2 := rfl
        theorem wrong : double 2 = 5 := by
          decide
        end MoeTheory
        """,
}
REFUSED = {
    "MoeTheory.Holes": """
        namespace MoeTheory
        theorem unfinished (n : Nat) : n ≥ n := by
          sorry
        end MoeTheory
        """,
    "MoeTheory.Trust": """
        namespace MoeTheory
        axiom everything : 1 = 2
        theorem uses : 1 = 2 := everything
        end MoeTheory
        """,
}


@pytest.mark.lean
def test_clean_tree_passes(real_check):
    result, _ = real_check
    assert result.ok, "\n".join(map(str, result.problems))
    assert result.theorems >= 1 and len(result.modules) >= 2


@pytest.mark.lean
def test_a_users_file_is_checked_on_top_of_the_library(real_check, toolchain, tmp_path):
    from pysym.lean.source import user_modules

    result, build = real_check
    # the library is a base: built in the same Lean process, or taken from the cache of bases
    assert "UserLemma" in result.modules and result.reused in (0, len(result.modules) - 1)
    st = result.statements["MyPaper.two_choose_le"]
    assert st["path"] == "UserLemma.lean" and st["statement"].startswith("∀ (n k : Nat), 2 * MoeTheory.choose n k")
    assert result.axioms["MyPaper.two_choose_le"] == []
    assert result.uses["MyPaper.two_choose_le"] == ["MoeTheory.choose", "MoeTheory.choose_le_pow"]
    # the same layers apply to the user's files: a gate refusal never starts Lean
    bad = tmp_path / "Bad.lean"
    bad.write_text("import MoeTheory.Choose\naxiom cheat : False\n")
    refused = check_project(ROOT, toolchain=toolchain, progress=QUIET, build=tmp_path / "b",
                            extra=user_modules([bad], base=tmp_path))
    assert not refused.ok and not refused.lean_ran
    assert [str(p) for p in refused.problems][0].startswith("Bad.lean:2:0: `axiom` is not accepted")


@pytest.mark.lean
def test_incremental_checks_reuse_unchanged_modules_and_keep_the_verdict(toolchain, tmp_path):
    """Cold check (one Lean process: the imported module as a base, the
    other on top); an edit with an error (reuses that base, re-checks only
    the edited module); a revert (a cache hit).  Two small Lean runs in all.
    (Which modules each run gets, in more cases: ``test_incremental_plans``; a check that reuses a base and passes, with
    the statements, axioms and uses of the module checked on top: ``real_check``.)"""
    root = write_project(tmp_path, BROKEN)
    bad = root / "MoeTheory" / "TypeError.lean"
    wrong = bad.read_text()
    bad.write_text(wrong.replace("double 2 = 5", "double 2 = 4"))
    cold = check_project(root, toolchain=toolchain, progress=QUIET)
    assert cold.ok and cold.reused == 0 and not cold.cached, cold.problems
    assert cold.axioms["MoeTheory.wrong"] == [] and cold.uses["MoeTheory.wrong"] == ["MoeTheory.double"]

    bad.write_text(wrong)
    broken = check_project(root, toolchain=toolchain, progress=QUIET)
    assert not broken.ok and broken.lean_ran and broken.reused == 1  # MoeTheory.Base came from the base
    errors = [p for p in broken.problems if p.path == "MoeTheory/TypeError.lean"]
    assert [(p.line, p.col) for p in errors] == [(5, 2)], errors  # `decide` on line 5
    assert "decide" in errors[0].message
    assert set(broken.statements) >= {"MoeTheory.double_eq"}  # the base's statements are kept

    bad.write_text(wrong.replace("double 2 = 5", "double 2 = 4"))
    again = check_project(root, toolchain=toolchain, progress=QUIET)
    assert again.cached and again.ok
    assert again.statements == cold.statements and again.axioms == cold.axioms and again.uses == cold.uses


class _StandIn:
    """In place of a toolchain, for :func:`test_incremental_plans`: Lean itself is replaced."""
    ident = "stand-in"
    reads_oleans = True
    supports_print_axioms = False

    def describe(self):
        return "a stand-in for Lean"


def test_incremental_plans(tmp_path, monkeypatch):
    """Which modules each Lean process of a check elaborates, with Lean
    replaced by a stand-in that records them.  A first check is one process:
    the modules other modules import, compiled as a base, then the rest on top
    of it.  After an edit, the largest cached base that still fits is reused
    (one run on top of it); when none fits, the modules unchanged since the
    last check become the new base, again with the rest on top in the same
    process.  A base that does not check cleanly is not used (one run of
    everything, which reports the problems); ``--no-cache`` is one run."""
    import pysym.lean.driver as driver_module
    import pysym.lean.runs as runs_module
    from pysym.lean.driver import Outcome

    planned, failing, written = [], set(), {}

    def names_of(modules):
        return sorted(m.name.removeprefix("MoeTheory.") for m in modules)

    def record_write(tree, modules, lean_file, olean, imports=()):
        written[lean_file] = (names_of(modules), "on a base" if imports else "alone")
        return real_write(tree, modules, lean_file, olean, imports)

    def outcome(names):
        return {"ok": not set(names) & failing, "warnings": [], "statements": {}, "axioms": {}, "uses": {},
                "problems": [{"path": "x", "line": 1, "col": 0, "message": "planted"}] if set(names) & failing else []}

    def stand_in_run(tree, modules, lean_file, *, olean, imports=(), **kwargs):
        planned.append([(names_of(modules), "on a base" if imports else "alone")])
        if olean is not None:
            olean.parent.mkdir(parents=True, exist_ok=True)
            olean.write_bytes(b"")
        return outcome(names_of(modules))

    def stand_in_jobs(toolchain, jobs, workdir, timeout, lean_path=()):
        done = []
        for j in jobs:  # like the driver: a job that fails stops the run
            j.olean.write_bytes(b"")
            done.append(Outcome(0 if not set(written[j.lean_file][0]) & failing else 1, []))
            if done[-1].code:
                break
        planned.append([written[j.lean_file] for j in jobs[:len(done)]])  # the jobs that ran
        return done + [None] * (len(jobs) - len(done))

    def stand_in_interpret(tree, modules, combined, code, messages, *, olean, audit=None, kernel=None):
        assert code == (1 if set(names_of(modules)) & failing else 0)
        return outcome(names_of(modules))

    real_write = runs_module.write
    monkeypatch.setattr(runs_module, "write", record_write)
    monkeypatch.setattr(runs_module, "run", stand_in_run)
    monkeypatch.setattr(driver_module, "run_jobs", stand_in_jobs)
    monkeypatch.setattr(runs_module, "interpret", stand_in_interpret)
    # A is imported by B; C stands alone; the root MoeTheory.lean imports all three
    root = write_project(tmp_path, {"MoeTheory.A": "def a : Nat := 1\n",
                                    "MoeTheory.B": "import MoeTheory.A\ndef b : Nat := a\n",
                                    "MoeTheory.C": "def c : Nat := 3\n"})
    a, c = root / "MoeTheory" / "A.lean", root / "MoeTheory" / "C.lean"
    everything = [(["A", "B", "C", "MoeTheory"], "alone")]

    def check(**kwargs):
        planned.clear()
        result = check_project(root, toolchain=_StandIn(), progress=QUIET, **kwargs)
        return result, list(planned)

    result, plan = check()  # A is imported by B: it is the base
    assert plan == [[(["A"], "alone"), (["B", "C", "MoeTheory"], "on a base")]] and result.reused == 0
    result, plan = check()
    assert result.cached and plan == []
    c.write_text("def c : Nat := 4\n")  # the base of A still fits
    result, plan = check()
    assert plan == [[(["B", "C", "MoeTheory"], "on a base")]] and result.reused == 1
    a.write_text("def a : Nat := 2\n")  # no base fits; only C is unchanged since the last check
    result, plan = check()
    assert plan == [[(["C"], "alone"), (["A", "B", "MoeTheory"], "on a base")]] and result.reused == 0
    c.write_text("def c : Nat := 5\n")  # a base of C=4 does not fit: A and B are unchanged
    assert check()[1] == [[(["A", "B"], "alone"), (["C", "MoeTheory"], "on a base")]]
    c.write_text("def c : Nat := 4\n")  # a revert: a cache hit
    result, plan = check()
    assert result.cached and plan == []
    c.write_text("def c : Nat := 6\n")  # bases of A=1, C=4, A=2 and B: the last one fits
    result, plan = check()
    assert plan == [[(["C", "MoeTheory"], "on a base")]] and result.reused == 2
    assert check(use_cache=False)[1] == [everything]

    failing.add("A")
    a.write_text("def a : Nat := 6\n")  # a new base of C=6, and the run on it reports the problem
    result, plan = check()
    assert plan == [[(["C"], "alone"), (["A", "B", "MoeTheory"], "on a base")]] and not result.ok
    c.write_text("def c : Nat := 7\n")  # a new base of A and B, which does not check cleanly: then one run
    result, plan = check()
    assert plan == [[(["A", "B"], "alone")], everything] and not result.ok

    failing.clear()
    # a library that is not the workspace: all of it is one base, kept in the user cache, checked as one file
    monkeypatch.setenv("MOE_THEORY_CACHE", str(tmp_path / "user-cache"))
    result, plan = check(shared_library=True, build=tmp_path / "elsewhere")
    assert plan == [everything] and result.ok and result.reused == 0
    result, plan = check(shared_library=True, build=tmp_path / "elsewhere-too")  # another workspace
    assert plan == [] and result.ok and result.reused == 4


# Each module plants something layer 2 (the axiom audit of the .olean) must catch on
# its own, with the source gate switched off.
def test_gate_refusal_stops_before_lean(tmp_path):
    """Refused sources are reported with positions and never run: no toolchain is needed."""
    root = write_project(tmp_path, {**BROKEN, **REFUSED})
    result = check_project(root, toolchain=None, progress=QUIET, use_cache=False, build=tmp_path / "build")
    assert not result.ok and not result.lean_ran
    text = "\n".join(map(str, result.problems))
    assert "MoeTheory/Holes.lean:3:2: `sorry`: leaves a proof unfinished" in text
    assert "MoeTheory/Trust.lean:2:0: `axiom` is not accepted" in text
    assert "Lean not started" in result.summary()
    assert not (tmp_path / "build" / "lean").exists()


def test_lakefile_is_gated(tmp_path):
    root = write_project(tmp_path, {"MoeTheory.A": "theorem a : True := trivial\n"})
    lake = root / "lakefile.lean"
    lake.write_text(lake.read_text().replace("⟨`autoImplicit, false⟩", "⟨`autoImplicit, false⟩, ⟨`warn.sorry, false⟩"))
    result = check_project(root, toolchain=None, progress=QUIET, use_cache=False, build=tmp_path / "build")
    assert not result.ok
    assert any(p.path == "lakefile.lean" and "`warn.sorry`" in p.message for p in result.problems)


def test_refused_project_exits_1_with_path_line_col(tmp_path):
    root = write_project(tmp_path, {"MoeTheory.Trust": REFUSED["MoeTheory.Trust"]})
    out = moe("--project", str(root), "lean", "check")
    assert out.returncode == 1
    assert "MoeTheory/Trust.lean:2:0: `axiom` is not accepted" in out.stdout
    assert "lean check: FAILED" in out.stdout


@pytest.mark.lean
def test_statements_of_exported_theorems(real_check):
    result, build = real_check
    found = extract_statements(ROOT, result=result, build=build)
    assert set(found) == set(EXPORTS)
    axioms = json.loads((build / "lean" / "statements.json").read_text())["statements"]
    assert axioms["MoeTheory.choose_le_pow"]["axioms"] == []
    assert axioms["MoeTheory.routing_patterns_le"]["axioms"] == ["Classical.choice", "propext"]
    for name, info in axioms.items():  # only the three standard axioms, for every theorem
        assert info["axioms"] is not None and set(info["axioms"]) <= {"propext", "Classical.choice", "Quot.sound"}
    assert found["MoeTheory.choose_le_pow"] == "∀ (n k : Nat), MoeTheory.choose n k ≤ n ^ k"
    data = json.loads((build / "lean" / "statements.json").read_text())
    assert data["statements"]["MoeTheory.choose_le_pow"]["exported"] is True
    assert data["statements"]["MoeTheory.choose_le_pow"]["path"] == "MoeTheory/Choose.lean"


@pytest.mark.lean
def test_unknown_theorem_name_is_a_clear_error(real_check):
    result, build = real_check
    with pytest.raises(UserError, match=r"unknown theorem `choose_le_powr`.*did you mean MoeTheory\.choose_le_pow"):
        extract_statements(ROOT, ["choose_le_powr"], result=result, build=build)


@pytest.mark.lean
def test_unchanged_tree_is_served_from_cache(real_check, toolchain):
    from pysym.lean.source import user_modules

    result, build = real_check
    again = check_project(ROOT, toolchain=toolchain, progress=QUIET, build=build,
                          extra=user_modules([result.user_dir / "UserLemma.lean"], base=result.user_dir))
    assert again.cached and again.ok
    assert again.statements == result.statements and again.axioms == result.axioms


@pytest.mark.lean
def test_cli_works_from_another_directory(real_check, tmp_path):
    """Outside a checkout the current folder is the workspace: the library is the checkout the
    package was installed from, read-only (its check is the base in the user cache that
    real_check built: no Lean run), and the outputs go to ./build/, never into the checkout."""
    status = subprocess.run(["git", "status", "--porcelain"], cwd=ROOT, capture_output=True, text=True).stdout
    out = moe("lean", "statements", "choose_le_pow", "choose_symm", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.strip().splitlines()
    assert lines[:2] == ["MoeTheory.choose_le_pow : ∀ (n k : Nat), MoeTheory.choose n k ≤ n ^ k", "  -- axioms: none"]
    # a statement the symbolic layer does not start from (Nat subtraction truncates) says so, and why
    assert lines[2].startswith("MoeTheory.choose_symm : ∀ {n k : Nat}, k ≤ n → MoeTheory.choose n (n - k) =")
    assert lines[4].startswith("  -- not trusted as a premise: it uses `instSubNat`")
    data = json.loads((tmp_path / "build" / "lean" / "statements.json").read_text())
    assert data["statements"]["MoeTheory.choose_le_pow"]["path"] == "MoeTheory/Choose.lean"
    assert json.loads((tmp_path / "build" / "lean" / "check.json").read_text())["ok"]
    assert subprocess.run(["git", "status", "--porcelain"], cwd=ROOT, capture_output=True,
                          text=True).stdout == status


def test_import_problems_are_reported(tmp_path):
    root = write_project(tmp_path, {
        "MoeTheory.A": "import Mathlib.Tactic\ntheorem a : True := trivial\n",
        "MoeTheory.B": "import MoeTheory.Missing\ntheorem b : True := trivial\n",
    })
    (root / "MoeTheory.lean").write_text("import MoeTheory.A\n")  # B not reachable
    _, problems = order_modules(discover_modules(root))
    text = "\n".join(map(str, problems))
    assert "MoeTheory/A.lean:1:0: imports `Mathlib.Tactic`: only core Lean" in text
    assert "MoeTheory/B.lean:1:0: imports `MoeTheory.Missing`, which has no file" in text
    assert "MoeTheory/B.lean:1:0: not imported (directly or indirectly) by MoeTheory.lean" in text


def test_import_cycle_is_reported(tmp_path):
    root = write_project(tmp_path, {"MoeTheory.A": "import MoeTheory.B\n", "MoeTheory.B": "import MoeTheory.A\n"})
    _, problems = order_modules(discover_modules(root))
    assert any("import cycle" in p.message for p in problems)


def test_messages_map_back_to_modules(tmp_path):
    """Lean's JSON lines, as the wasm build prints them among debug output."""
    root = write_project(tmp_path, {**BROKEN, **REFUSED})
    order, _ = order_modules(discover_modules(root))
    combined = combine(order, [], ["MoeTheory.double_eq"])
    seg = next(s for s in combined.segments if s.module.name == "MoeTheory.Holes")
    lean_line = seg.start + 2  # line 3 of Holes.lean
    out = "\n".join([
        "[DEBUG:G] run_shell_main entered",
        "-- Generated by `moe-theory lean check`",
        json.dumps({"severity": "warning", "pos": {"line": lean_line, "column": 8}, "kind": "hasSorry",
                    "data": "declaration uses `sorry`", "fileName": "x.lean"}),
        json.dumps({"severity": "information", "pos": {"line": combined.tail_start, "column": 0},
                    "data": "MoeTheory.double_eq : ∀ (n : Nat),\n  MoeTheory.double n = 2 * n"}),
    ])
    problems, warnings, statements, _, tail_errors = classify(combined, parse_messages(out))
    assert [str(p) for p in problems] == [
        "MoeTheory/Holes.lean:3:8: declaration uses `sorry` (an unfinished proof)"]
    assert one_line(statements["MoeTheory.double_eq"]).endswith("MoeTheory.double n = 2 * n")
    assert not warnings and not tail_errors


def test_resolve_names_prefers_exact_and_rejects_ambiguity():
    known = ["MoeTheory.a.le", "MoeTheory.b.le", "MoeTheory.choose_le_pow"]
    assert resolve_names(["MoeTheory.a.le", "choose_le_pow"], known) == ["MoeTheory.a.le", "MoeTheory.choose_le_pow"]
    with pytest.raises(UserError, match="ambiguous"):
        resolve_names(["le"], known)


@pytest.mark.parametrize("args", [[], ["all"], ["lean"], ["lean", "check"], ["lean", "statements"],
                                  ["lean", "install"], ["lean", "info"]])
def test_every_command_explains_itself(args):
    out = moe(*args, "--help")
    assert out.returncode == 0, out.stderr
    assert "usage: moe-theory" in out.stdout
    assert len(out.stdout.splitlines()) >= 4


def test_a_name_declared_in_two_modules_is_refused_before_lean_runs(tmp_path):
    """Not private in both: ``lake build`` rejects it.  Private in one of
    them (a red-team case): ``lake build`` accepts it, but one combined file
    fails on it in Lean while a module checked on top of a base did not, and
    the audits know declarations by name; so the sources are checked for both
    on every path, before Lean runs."""
    root = write_project(tmp_path, {
        "MoeTheory.A": "namespace MoeTheory\ndef dup : Nat := 1\nprivate def mine : Nat := 1\nend MoeTheory\n",
        "MoeTheory.B": "import MoeTheory.A\nnamespace MoeTheory\ndef mine : Nat := 2\n\n"
                       "def dup : Nat := 2\nend MoeTheory\n"})
    result = check_project(root, toolchain=_StandIn(), progress=QUIET)
    assert not result.ok and not result.lean_ran
    assert [str(p) for p in result.problems] == [
        "MoeTheory/B.lean:3:0: `MoeTheory.mine` is already declared in MoeTheory/A.lean:3; one of them is private, "
        "which `lake build` accepts, but the check knows declarations by name and cannot tell the two apart: "
        "rename one",
        "MoeTheory/B.lean:5:0: `MoeTheory.dup` is already declared in MoeTheory/A.lean:2; "
        "`lake build` rejects a second declaration of a name"]
