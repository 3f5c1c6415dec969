"""Shared fixtures.

Tests marked ``lean`` run the real Lean toolchain (installed on first use:
a native ``lean`` on PATH, else the registry wasm build).  Each Lean run costs
about 5 s of start-up (8 s of CPU time) with the wasm build, so the fixtures
below run Lean as few times as possible: ``real_check`` checks the real tree
(with a user's file on top) once, ``lean_batch`` elaborates the separate files
three test modules need in one Lean process.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
import traceback
from pathlib import Path

import pytest

import pysym  # noqa: F401  (first of the package and its libraries: its finder notes where every later import is found)

ROOT = Path(__file__).resolve().parent.parent


def write_project(root: Path, modules: dict[str, str]) -> Path:
    """A miniature moe-theory project: lakefile, root module, given modules."""
    (root / "MoeTheory").mkdir(parents=True, exist_ok=True)
    (root / "lakefile.lean").write_text((ROOT / "lakefile.lean").read_text())
    for name, text in modules.items():
        path = root / (name.replace(".", "/") + ".lean")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip("\n"))
    (root / "MoeTheory.lean").write_text("".join(f"import {n}\n" for n in sorted(modules)))
    return root


def moe(cwd: Path, *args: str, timeout: float = 1800, fresh: bool = False) -> subprocess.CompletedProcess:
    """`moe-theory ARGS` run from ``cwd`` (this checkout's package), output captured.

    By default the command runs in a forked copy of this process: the same as
    ``python -m pysym ARGS`` (its own process, working directory, standard
    streams and exit status, a traceback and exit 1 for an uncaught
    exception) without starting an interpreter and importing SymPy again,
    which costs about a second per call.  ``fresh=True`` starts a new
    interpreter (``test_entry_point_is_a_fresh_interpreter`` keeps that path
    tested)."""
    if fresh or not hasattr(os, "fork"):
        # os.environ, as the forked copy sees it (a library may have set variables such as COLUMNS beside it)
        return subprocess.run([sys.executable, "-m", "pysym", *args], cwd=cwd, capture_output=True, text=True,
                              timeout=timeout, env=dict(os.environ))
    return _forked_cli(list(args), Path(cwd), timeout)


def _forked_cli(argv: list[str], cwd: Path, timeout: float) -> subprocess.CompletedProcess:
    from pysym.audit.budget import fork_frozen

    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        pid = fork_frozen()  # as the audit's workers are forked: the child's collections leave our heap alone
        if pid == 0:  # the child: never returns into pytest
            code = 1
            try:
                os.chdir(cwd)
                null = os.open(os.devnull, os.O_RDONLY)
                os.dup2(null, 0)
                os.dup2(out.fileno(), 1)
                os.dup2(err.fileno(), 2)
                sys.stdin = open(0, closefd=False)
                sys.stdout = open(1, "w", encoding="utf-8", closefd=False)
                sys.stderr = open(2, "w", encoding="utf-8", errors="backslashreplace", closefd=False)
                for sig in (signal.SIGINT, signal.SIGTERM):
                    signal.signal(sig, signal.default_int_handler if sig == signal.SIGINT else signal.SIG_DFL)
                from pysym.cli import main

                code = main(argv)  # what `python -m pysym` does: raise SystemExit(main())
            except SystemExit as exc:
                if exc.code is None or isinstance(exc.code, int):
                    code = exc.code or 0
                else:
                    print(exc.code, file=sys.stderr)
            except BaseException:  # as the interpreter would: the traceback on stderr, exit 1
                traceback.print_exc()
                code = 1
            finally:
                for stream in (sys.stdout, sys.stderr):
                    try:
                        stream.flush()
                    except Exception:
                        pass
                os._exit(code if isinstance(code, int) and 0 <= code < 256 else 1)
        deadline = time.monotonic() + timeout
        while True:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                break
            if time.monotonic() > deadline:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                raise subprocess.TimeoutExpired(["moe-theory", *argv], timeout)
            time.sleep(0.005)
        out.seek(0)
        err.seek(0)
        return subprocess.CompletedProcess(["moe-theory", *argv], os.waitstatus_to_exitcode(status),
                                           out.read().decode("utf-8"), err.read().decode("utf-8"))


# a claims file that audits cleanly: one identity that holds
TOY_CLAIMS = """\
[paper]
id = "toy"
title = "A toy paper"

[symbols]
x = { description = "a number", range = [1, 10] }

[[claim]]
id = "same"
kind = "identity"
quote = "x is x"
where = "Eq. 1"
expected = "holds"
lhs = "x"
rhs = "x"
"""


USER_LEMMA = """\
import MoeTheory.Choose

namespace MyPaper

/-- A lemma of a user's own paper, proved on top of the library. -/
theorem two_choose_le (n k : Nat) : 2 * MoeTheory.choose n k ≤ 2 * n ^ k := by
  have := MoeTheory.choose_le_pow n k
  omega

end MyPaper

/-! Statements that print as `∀ (n : Nat), n + 1 ≤ n` (or `5 = 0`) but are proved about something else:
the check of what statements mean (`pysym.lean.meaning`) must refuse each one (`tests/test_meaning.py`). -/
namespace Spoof

section
local instance evilLE : LE Nat := ⟨fun _ _ => True⟩
theorem by_local_instance : ∀ (n : Nat), n + 1 ≤ n := fun _ => trivial
end

theorem by_inline_instance : ∀ (n : Nat), @LE.le Nat ⟨fun _ _ => True⟩ (n + 1) n := fun _ => trivial

def Alias : Type := LE Nat
def viaAlias : Alias := ⟨fun _ _ => True⟩
theorem by_alias : ∀ (n : Nat), @LE.le Nat viaAlias (n + 1) n := fun _ => trivial

def pair : LE Nat × Nat := (⟨fun _ _ => True⟩, 0)
theorem by_pair : ∀ (n : Nat), @LE.le Nat pair.1 (n + 1) n := fun _ => trivial

structure Box where
  val : LE Nat
def box : Box := ⟨⟨fun _ _ => True⟩⟩
theorem by_box : ∀ (n : Nat), @LE.le Nat box.val (n + 1) n := fun _ => trivial

theorem by_numeral : (@OfNat.ofNat Nat 5 ⟨0⟩ : Nat) = 0 := rfl

theorem honest : ∀ (n : Nat), n ≤ n + 1 := fun n => Nat.le_succ n

/- Field notation on a constant named `MoeTheory` prints `MoeTheory.choose 3 1`; the real `choose` hides in an
implicit argument (found by a red-team helper). -/
structure Receiver where
  u : Unit
def Receiver.choose {_h : Nat} (_ : Receiver) (_ _ : Nat) : Nat := 7
end Spoof
def MoeTheory : Spoof.Receiver := ⟨()⟩
namespace Spoof
theorem by_field : @Receiver.choose (MoeTheory.choose 0 0) _root_.MoeTheory 3 1 = 7 := rfl

/- A constant `n.succ` prints like the field `succ` of the binder `n`. -/
end Spoof
def n.succ : Nat := 0
namespace Spoof
theorem by_dotted_name : ∀ (n : Nat), _root_.n.succ ≤ n := fun n => Nat.zero_le n

/- A hypothesis in an implicit binder, two binders of one name, a project type printed `ℚ` (a second
red-team round). -/
theorem by_implicit_hypothesis : ∀ (n : Nat) {h : n + 1 ≤ n}, n + 1 ≤ n := by
  intro _ h
  exact h

theorem by_shadowing : ∀ (n : Nat), n * 2 = 1 → ∀ (n : Rat), n = 7 := by
  intro n h
  exfalso
  omega

end Spoof
abbrev ℚ : Type := Nat
namespace Spoof
theorem nat_lemma : ∀ (y : Nat), y * 2 ≠ 1 := by
  intro y h
  omega

theorem by_alias_type : ∀ (x : ℚ), x * 2 ≠ 1 := by
  first
  | exact nat_lemma
  | (intro x h; exact nat_lemma x h)

/- `RtM.succ` and `Nat.succ` of `a + b` both print as `(a + b).succ` (a third round). -/
abbrev RtM := Nat
def RtM.succ (m : RtM) : Nat := m + 2
theorem by_field_namespace (a b : Nat) :
    RtM.succ (@HAdd.hAdd RtM RtM RtM (@instHAdd RtM instAddNat) a b) = Nat.succ (a + b) + 1 := by
  show a + b + 2 = Nat.succ (a + b) + 1
  omega

/- One term in two theorems, applied to different hidden arguments: `@hidden 1` and `@hidden 0` both print
`Spoof.hidden` (a derivation naming it in both would conclude `1 = 0`). -/
def hidden {k : Nat} : Nat := k
theorem by_hidden_one : @hidden 1 = 1 := rfl
theorem by_hidden_zero : @hidden 0 = 0 := rfl
/- The hidden argument is the bound `n`: read as one term `Spoof.hidden`, it would equal every `n`. -/
theorem by_hidden_value : ∀ (n : Nat), @hidden n = n := fun _ => rfl

end Spoof
/-! A fourth red-team round: hypotheses in data binders, hidden values in binder types, frozen pieces, core terms
across statements (each must be refused, or read with what it needs: tests/test_meaning.py). -/
namespace Rt

/-! A. A hypothesis carried by a data binder (core `Subtype`, or a project class) is not read as one. -/

def f (n : Nat) : Nat := n + 2

theorem f_val : ∀ (n : Nat), n + 2 = f n := fun _ => rfl

theorem f_hidden_hyp : ∀ (n : Nat) {w : {x : Nat // n + 2 = n + 1}}, f n = n + 1 := by
  intro n w
  exact absurd w.property (by omega)

class Witness (n : Nat) : Type where
  h : n + 2 = n + 1

theorem f_class_hyp : ∀ (n : Nat) [Witness n], f n = n + 1 := by
  intro n _
  exact absurd (Witness.h (n := n)) (by omega)

/-! B. Type variables made alike across theorems, each restricted by a data binder. -/

noncomputable def card0 {α : Type} (k : Nat) : Nat := @ite Nat (Nonempty α) (Classical.propDecidable _) (k + 1) k

theorem card0_inhabited : ∀ {α : Type} {x : α} (k : Nat), k + 1 = @card0 α k := by
  intro α x k
  unfold card0
  split
  · rfl
  · next h => exact absurd (Nonempty.intro x) h

theorem card0_empty : ∀ {α : Type} {e : α → {y : Nat // False}} (k : Nat), @card0 α k = k := by
  intro α e k
  unfold card0
  split
  · next h =>
    obtain ⟨a⟩ := h
    exact False.elim (e a).property
  · rfl

/-! C. A binder type whose text hides the value that fixes it (`M : Msk → Prop`, `M : { x // True } → Prop`). -/

def Msk {T : Nat} : Type := {x : Nat // x < T}

def dim {T : Nat} (_M : @Msk T → Prop) : Nat := T

theorem dim_eq : ∀ {T : Nat} (M : @Msk T → Prop), dim M = T := fun _ => rfl

theorem dim_eq' : ∀ {T : Nat} (M : @Msk T → Prop), T = dim M := fun _ => rfl

def dimc {T : Nat} (_M : {x : {y : Nat // y < T} // True} → Prop) : Nat := T

theorem dimc_eq : ∀ {T : Nat} (M : {x : {y : Nat // y < T} // True} → Prop), dimc M = T := fun _ => rfl

theorem dimc_eq' : ∀ {T : Nat} (M : {x : {y : Nat // y < T} // True} → Prop), T = dimc M := fun _ => rfl

/-! D. A bound value hidden in the binder type of an `∃` (printed `∃ x, True`). -/

noncomputable def gx (p : Prop) : Nat := @ite Nat p (Classical.propDecidable p) 1 0

theorem gx_exists : ∀ (T : Nat), T ≤ 1 → gx (∃ x : {y : Nat // y < T}, True) = T := by
  intro T h
  unfold gx
  split
  · next hx =>
    obtain ⟨⟨y, hy⟩, _⟩ := hx
    omega
  · next hx =>
    by_cases hT : T = 0
    · omega
    · exact (hx ⟨⟨0, by omega⟩, trivial⟩).elim

theorem gx_exists' : ∀ (T : Nat), T ≤ 1 → T = gx (∃ x : {y : Nat // y < T}, True) := by
  intro T h
  exact (gx_exists T h).symm

/-! E. A bound value shown in the text but frozen inside an opaque piece (a list literal). -/

theorem frozen : ∀ (n : Nat), n ≤ 1 → List.count true [decide (0 < n)] = n
  | 0, _ => by decide
  | 1, _ => by decide
  | _ + 2, h => absurd h (by omega)

theorem frozen' : ∀ (n : Nat), n ≤ 1 → n = List.count true [decide (0 < n)] := by
  intro n h
  exact (frozen n h).symm

/-! F. Core terms are not compared across statements: a hidden type makes two terms print alike. -/

theorem core_zero :
    List.count true [@decide (∃ x : {y : Nat // y < 0}, True) (Classical.propDecidable _)] = 0 := by
  have h : ¬ (∃ x : {y : Nat // y < 0}, True) := fun ⟨⟨y, hy⟩, _⟩ => absurd hy (Nat.not_lt_zero y)
  cases Classical.propDecidable (∃ x : {y : Nat // y < 0}, True) with
  | isFalse _ => rfl
  | isTrue hp => exact absurd hp h

theorem core_one :
    1 = List.count true [@decide (∃ x : {y : Nat // y < 1}, True) (Classical.propDecidable _)] := by
  have h : (∃ x : {y : Nat // y < 1}, True) := ⟨⟨0, Nat.zero_lt_one⟩, trivial⟩
  cases Classical.propDecidable (∃ x : {y : Nat // y < 1}, True) with
  | isFalse hn => exact absurd h hn
  | isTrue _ => rfl



/-! G. The same hidden hypothesis, for `premise` audit claims (no term names, no spot-check). -/

theorem sq_le_double : ∀ (n : Nat) {w : {x : Nat // False}}, n * n ≤ 2 * n := by
  intro n w
  exact False.elim w.property

theorem pow_le_choose : ∀ (n k : Nat) {w : {x : Nat // False}}, n ^ k ≤ MoeTheory.choose n k := by
  intro n k w
  exact False.elim w.property

/-! Controls, expected to be refused or told apart. -/
namespace Ctl

def hv {k : Nat} (m : Nat) : Nat := k + m

theorem hv_eq : ∀ (n : Nat), @hv n 0 = n := fun _ => rfl

def dimv {T : Nat} (_M : {y : Nat // y < T} → Prop) : Nat := T

theorem dimv_eq : ∀ {T : Nat} (M : {y : Nat // y < T} → Prop), dimv M = T := fun _ => rfl

def gty {α : Type} (k : Nat) : Nat := k

theorem gty_eq : ∀ (T : Nat), @gty {y : Nat // y < T} 0 = 0 := fun _ => rfl

def f2 (n : Nat) : Nat := n + 2

theorem f2_prop_hyp : ∀ (n : Nat) {h : n + 2 = n + 1}, f2 n = n + 1 := by
  intro n h
  exact absurd h (by omega)

end Ctl
end Rt

namespace Rt9
/- A ninth red-team round: two statements print alike, `(if ∃ α, Rt9.g n = n + 1 then 1 else 0) = ...`, and differ
inside the `∃` (`g` at the bound `α` in one, at an empty type built from it in the other). -/
noncomputable def g {α : Type} (n : Nat) : Nat :=
  @ite Nat (Nonempty α) (Classical.propDecidable _) (n + 1) n

theorem ex_one (n : Nat) :
    @ite Nat (∃ α : Type, @g α n = n + 1) (Classical.propDecidable _) 1 0 = 1 := by
  apply if_pos
  exact ⟨Unit, by unfold g; exact if_pos ⟨()⟩⟩

theorem ex_zero (n : Nat) :
    @ite Nat (∃ α : Type, @g {f : α → Nat // False} n = n + 1) (Classical.propDecidable _) 1 0 = 0 := by
  apply if_neg
  intro ⟨α, h⟩
  have e : @g {f : α → Nat // False} n = n := by
    unfold g
    exact if_neg (fun ⟨⟨_, hf⟩⟩ => hf)
  omega
end Rt9
"""

# each spoof and how Lean prints it
SPOOFS = {"Spoof.by_local_instance": "∀ (n : Nat), n + 1 ≤ n", "Spoof.by_inline_instance": "∀ (n : Nat), n + 1 ≤ n",
          "Spoof.by_alias": "∀ (n : Nat), n + 1 ≤ n", "Spoof.by_pair": "∀ (n : Nat), n + 1 ≤ n",
          "Spoof.by_box": "∀ (n : Nat), n + 1 ≤ n", "Spoof.by_numeral": "OfNat.ofNat 5 = 0",
          "Spoof.by_field": "MoeTheory.choose 3 1 = 7", "Spoof.by_dotted_name": "∀ (n : Nat), n.succ ≤ n",
          "Spoof.by_implicit_hypothesis": "∀ (n : Nat) {h : n + 1 ≤ n}, n + 1 ≤ n",
          "Spoof.by_shadowing": "∀ (n : Nat), n * 2 = 1 → ∀ (n : Rat), n = 7",
          "Spoof.by_alias_type": "∀ (x : ℚ), x * 2 ≠ 1",
          "Spoof.by_field_namespace": "∀ (a b : Nat), (a + b).succ = (a + b).succ + 1",
          "Spoof.by_hidden_one": "Spoof.hidden = 1", "Spoof.by_hidden_zero": "Spoof.hidden = 0",
          "Spoof.by_hidden_value": "∀ (n : Nat), Spoof.hidden = n"}


@pytest.fixture(scope="session")
def toolchain():
    from pysym.lean.toolchain import find_toolchain
    from pysym.progress import Progress

    return find_toolchain(Progress())


@pytest.fixture(scope="session")
def lean_batch(toolchain, tmp_path_factory) -> dict:
    """Lean files that three test modules need elaborated, run in one Lean
    process (the check's driver, :mod:`pysym.lean.driver`: one start-up,
    about 8 s of CPU, instead of one per file), in this order: the axiom
    cases compiled to an ``.olean`` (``test_olean.py``), the tokenizer corpus
    (``test_lexer.py``), what the kernel replay must accept and the driver's
    own cases (``test_driver.py``),
    whose third file fails, so that the file after it is not run.  Returns
    ``{"folder": Path, "jobs": {name: Job}, "outcomes": {name: Outcome or None}}``.
    With a toolchain that has no driver (a native ``lean``), each file is one
    ``lean -o`` run, stopping at the first failure likewise."""
    from test_driver import DRIVER_CASES, REPLAY_CASES
    from test_lexer import corpus_file
    from test_olean import CASES

    from pysym.lean.driver import Job, Outcome, run_jobs

    folder = tmp_path_factory.mktemp("lean-batch")
    files = {"AxiomCases": textwrap.dedent(CASES).lstrip(), "Corpus": corpus_file()[0], "ReplayCases": REPLAY_CASES,
             **DRIVER_CASES}
    jobs = {}
    for name, text in files.items():
        source = folder / f"{name}.lean"
        source.write_text(text, encoding="utf-8")
        # the axiom cases skip the kernel's check on purpose: they test the `.olean` audit alone, which the
        # kernel replay would otherwise stand in front of (its own tests: test_check_layers.py, and "ReplayCases");
        # the tokenizer's corpus is about what Lean reads, not about the kernel
        jobs[name] = Job(name, source, folder / f"{name}.olean", replay=name not in ("AxiomCases", "Corpus"))
    if getattr(toolchain, "reads_oleans", False):
        outcomes = run_jobs(toolchain, list(jobs.values()), folder, 1800, lean_path=[folder])
    else:
        from pysym.lean.check import parse_messages
        from pysym.lean.process import run_lean_process

        outcomes, failed = [], False
        for job in jobs.values():
            if failed:
                outcomes.append(None)
                continue
            argv, env = toolchain.command(job.lean_file, folder, olean=job.olean)
            code, out, _ = run_lean_process(argv, env, folder, 1800)
            outcomes.append(Outcome(0 if code == 0 else 1, parse_messages(out)))
            failed = code != 0
    return {"folder": folder, "jobs": jobs, "outcomes": dict(zip(jobs, outcomes))}


@pytest.fixture(scope="session")
def real_check(toolchain, tmp_path_factory):
    """One check of the project's own tree together with a user's Lean file
    that builds on it (``USER_LEMMA``, as `moe-theory lean check FILE` runs it):
    the library is checked as a base (or taken from the cache of bases, which
    is keyed by its exact content and the checker), the user's file on top."""
    from pysym.lean.check import check_project
    from pysym.lean.source import user_modules
    from pysym.progress import Progress

    user = tmp_path_factory.mktemp("user")
    (user / "UserLemma.lean").write_text(USER_LEMMA)
    build = tmp_path_factory.mktemp("build")
    result = check_project(ROOT, toolchain=toolchain, progress=Progress(quiet=True), build=build,
                           extra=user_modules([user / "UserLemma.lean"], base=user))
    result.user_dir = user
    return result, build


# --------------------------------------------------------------------------- shared derivation results


@pytest.fixture(scope="session")
def statements_file(request) -> Path:
    """``statements.json`` of the real tree: the checkout's, when a check wrote it
    (CI runs `make run` before the tests), else one written from ``real_check``
    (which runs Lean)."""
    path = ROOT / "build" / "lean" / "statements.json"
    if path.is_file():
        return path
    from pysym.lean.statements import write_statements

    result, build = request.getfixturevalue("real_check")
    assert result.ok, result.problems
    return write_statements(result, build)


@pytest.fixture(scope="session")
def statements(statements_file) -> dict[str, str]:
    """``{theorem: elaborated statement}`` of the real tree."""
    from pysym.derive.run import load_statements

    return load_statements(statements_file.parent.parent)


@pytest.fixture(scope="session")
def derivation_reports(statements) -> dict:
    """Every shipped derivation's report, once for the whole session: ``{name:
    Report}``, from the checkout's cache of reports (``build/.cache/derive``,
    which `make run` fills; its keys cover the derivation, the statements, the
    budgets and the code, and a hit is exactly the report a fresh verification
    gives: ``test_derive_cache.py``), else verified here.  (The notebooks'
    kernel verifies every derivation afresh: ``test_render.py::kernel_run``.)"""
    from pysym.derive.cache import ReportCache
    from pysym.derive.run import run

    cache = ReportCache(ROOT / "build" / ".cache" / "derive")
    return {r.derivation.name: r for r in run(None, statements, cache=cache)}


@pytest.fixture(scope="session")
def shipped_audit(statements):
    """The audit of every shipped claims file, run once for the whole session,
    with the checkout's cache of outcomes (``build/.cache/audit``, which `make
    run` fills and whose keys cover the claims, the statements, the budget and
    the auditor's code: see ``test_audit_cache.py``), as `moe-theory audit` runs it."""
    from pysym.audit import audit
    from pysym.audit.cache import OutcomeCache

    return audit(sorted((ROOT / "paper_checks").glob("*.toml")), statements,
                 cache=OutcomeCache(ROOT / "build" / ".cache" / "audit"))


# the expensive fixtures that tests share, and the xdist group of the tests that use each (first match wins)
_SHARED = (("real_check", "lean-real"), ("lean_batch", "lean-batch"), ("derivation_reports", "derivations"),
           ("wheel", "packaging"), ("hooks_repo", "pre-commit"))


def pytest_itemcollected(item):
    """With ``pytest -n 2 --dist loadgroup`` (what `make test` runs), the tests
    that share an expensive fixture (the session's check of the real tree, the
    batch of Lean files, the derivations' reports, the wheel) run on one worker,
    so that it is built once; every other test goes wherever a worker is free.
    (Marked as each item is collected: xdist reads the groups in its own
    ``pytest_collection_modifyitems``, which may run before one of ours.)"""
    names = getattr(item, "fixturenames", ())
    for fixture, group in _SHARED:
        if fixture in names:
            item.add_marker(pytest.mark.xdist_group(group))
            return
