"""Layers 2 and 3 of `moe-theory lean check` on their own: what the `.olean` audit catches with the
source gate off (axioms, kernel evaluation, computed sorts, visibility), and what the kernel replay
rejects (:mod:`pysym.lean.replay`)."""

from __future__ import annotations

import pytest

from pysym.lean.check import check_project

from conftest import write_project
from test_check import QUIET, REFUSED

LAYER2 = {
    "MoeTheory.Hidden": """
        namespace MoeTheory
        #guard_msgs (drop error) in
        theorem bad : 2 + 2 = 5 := by decide
        theorem uses_bad : 2 + 2 = 5 := bad
        end MoeTheory
        """,
    "MoeTheory.Trust": REFUSED["MoeTheory.Trust"],
    "MoeTheory.Native": """
        namespace MoeTheory
        theorem by_native : 10 < 20 := by native_decide
        end MoeTheory
        """,
    # the kernel reduces `Lean.reduceBool` by running compiled code: no axiom in the proof term
    "MoeTheory.Kernel": """
        namespace MoeTheory
        def big : Bool := decide (2 ^ 64 < 2 ^ 65)
        theorem by_kernel_evaluation : Lean.reduceBool big = true := rfl
        end MoeTheory
        """,
    "MoeTheory.Escaped": """
        namespace MoeTheory
        #guard_msgs (drop warning) in
        theorem explicit : 1 = 2 := «sorryAx» _ false
        end MoeTheory
        """,
    # a kernel bug of Lean 4.28 (red-team, after lean4 PR #14807): an inductive whose universe is a term that
    # reduces to `Prop` only for a variable lets a `Bool` be projected out of a proof; `False` with no axiom,
    # accepted by the kernel and its replay alike.  Refused on what Lean produced: the universe must be a sort
    "MoeTheory.Stuck": """
namespace RTStuck

def step (x : Bool) (n : Nat) (ih : (m : Nat) → m < n → Bool) : Bool :=
  match n with
  | 0 => x
  | k + 1 => ih k (Nat.lt_succ_self k)

def run (x : Bool) (n : Nat) (h : Acc (· < ·) n) : Bool :=
  Acc.rec (fun m _ => step x m) h

opaque seed : Acc (· < ·) 1 := Nat.lt_wfRel.wf.apply 1
def a := run false 1 seed
def b := run false 1 (Acc.intro 1 fun _ => Acc.inv seed)
def c := run false 0 (Acc.inv seed (Nat.lt_succ_self 0))

theorem run_eq (x : Bool) (n : Nat) (h : Acc (· < ·) n) : run x n h = x := by
  induction h with
  | intro n smaller ih =>
    cases n with
    | zero => rfl
    | succ n => simpa only [run, step] using ih n (Nat.lt_succ_self n)

def P : Prop := a = b
def Q : Prop := a = c

opaque witness : Q := (run_eq false _ _).trans (run_eq false _ _).symm

def gate (h : P) : Type :=
  Eq.rec (motive := fun _ _ => Type) Prop h

theorem observedProofsFalse (T : Prop) (observe : T → Bool) (p q : T)
    (onFalse : observe p = false) (onTrue : observe q = true) : False := by
  have same : p = q := proof_irrel p q
  exact Bool.noConfusion (onFalse.symm.trans ((congrArg observe same).trans onTrue))

inductive Owner (h : P) : gate h where
  | mk (bit : Bool) : Owner h

def asProp (h : P) : Prop := Owner h

def proposition : Prop := asProp witness

def idO (h : P) (p : Owner h) : Owner h := p

def observe (q : proposition) : Bool := (idO witness q).1

def falseProof : proposition := Owner.mk (h := witness) false

def trueProof : proposition := Owner.mk (h := witness) true

theorem observe_false : observe falseProof = false := rfl

theorem observe_true : observe trueProof = true := rfl

theorem inconsistent : False :=
  observedProofsFalse proposition observe falseProof trueProof observe_false observe_true

theorem bad : 2 + 2 = 5 := inconsistent.elim

end RTStuck
""",
    # what `lake build` rejects but one combined file would accept: the visibility audit
    "MoeTheory.Owner": """
        namespace MoeTheory
        private theorem secret : 1 + 1 = 2 := rfl
        theorem shown : 2 + 2 = 4 := rfl
        theorem uses_secret : 1 + 1 = 2 := secret
        end MoeTheory
        """,
    "MoeTheory.Peeker": """
        import MoeTheory.Owner
        namespace MoeTheory
        theorem peeks : 1 + 1 = 2 := secret
        end MoeTheory
        """,
    "MoeTheory.Stranger": """
        namespace MoeTheory
        theorem borrows : 2 + 2 = 4 := shown
        end MoeTheory
        """,
}


@pytest.mark.lean
def test_layer2_alone_catches_what_the_gate_would(toolchain, tmp_path):
    root = write_project(tmp_path, LAYER2)
    result = check_project(root, toolchain=toolchain, progress=QUIET, use_cache=False, build=tmp_path / "b",
                           _gate=False, _replay=False)
    assert not result.ok and result.lean_ran
    text = "\n".join(map(str, result.problems))
    # Lean itself reports nothing for the hidden error: only the audit sees the sorry behind it
    assert not any(p.path == "MoeTheory/Hidden.lean" and "error" in p.message.lower() and "axiom" not in p.message
                   for p in result.problems), text
    assert "MoeTheory/Hidden.lean:4:0: MoeTheory.uses_bad depends on the axiom sorryAx" in text
    assert "MoeTheory.uses_bad -> MoeTheory.bad -> sorryAx" in text
    assert "MoeTheory/Trust.lean:2:0: MoeTheory.everything is an axiom declared in the project" in text
    assert "<generated>" not in text  # auxiliary constants are reported at their declaration
    owner_line = 1 + LAYER2["MoeTheory.Stuck"].lstrip("\n").splitlines().index("inductive Owner (h : P) : gate h where")
    assert (f"MoeTheory/Stuck.lean:{owner_line}:0: the inductive type `RTStuck.Owner` declares its universe by a "
            "term that reduces to a sort") in text
    assert any(p.path == "MoeTheory/Native.lean" and "Lean.ofReduceBool" in p.message for p in result.problems)
    assert any(p.path == "MoeTheory/Escaped.lean" and "sorryAx" in p.message for p in result.problems)
    assert ("MoeTheory/Kernel.lean:3:0: MoeTheory.by_kernel_evaluation depends on Lean.reduceBool (the kernel runs "
            "compiled code to reduce it: as trusted as an axiom)") in text
    assert result.axioms["MoeTheory.uses_bad"] == ["sorryAx"]
    # the visibility audit: a private declaration of another module, a module not imported
    assert "MoeTheory/Peeker.lean:3:0: `MoeTheory.peeks` uses `MoeTheory.secret`, a private declaration" in text
    assert ("MoeTheory/Stranger.lean:2:0: `MoeTheory.borrows` uses `MoeTheory.shown` of module MoeTheory.Owner, "
            "which module MoeTheory.Stranger does not import") in text
    assert not any("uses_secret" in p.message for p in result.problems)  # its own private: fine


FALSE_BY_KERNEL = {"MoeTheory.Skip": "theorem fine : 2 + 2 = 4 := by decide\n\ntheorem ok : 1 = 1 := rfl\n\n"
                                     "theorem bad : 2 + 2 = 5 := by decide +kernel\n"}


@pytest.mark.lean
def test_the_kernel_replay_is_the_kernels_check(toolchain, tmp_path):
    """The driver elaborates with the kernel's check off and sends every
    constant Lean produced to the kernel afterwards (:mod:`pysym.lean.replay`):
    a false ``decide +kernel``, which only the kernel can refuse, gets through
    the elaboration and is rejected there, at the declaration it belongs to,
    with every layer of the check on."""
    root = write_project(tmp_path, FALSE_BY_KERNEL)
    result = check_project(root, toolchain=toolchain, progress=QUIET, use_cache=False, build=tmp_path / "b")
    assert not result.ok and result.lean_ran
    if not getattr(toolchain, "reads_oleans", False):
        return  # a native Lean has no driver: its elaboration's own kernel check refused it
    rejected = [p for p in result.problems if "the kernel rejects" in p.message]
    assert [(p.path, p.line) for p in rejected] == [("MoeTheory/Skip.lean", 5)], result.problems
    assert "`bad._proof" in rejected[0].message and "application type mismatch" in rejected[0].message
    assert len(result.problems) == 1, result.problems  # Lean itself reported nothing: elaboration skipped the kernel


def test_an_axiom_finding_compiled_in_this_run_is_kept_whatever_name_it_has(tmp_path, monkeypatch):
    """A run on top of a base keeps the axiom audit's findings of its own
    modules; a constant it compiled but named like a declaration of the base
    (``namespace MoeTheory.a`` in a user's file) used to be placed in the
    base's file, and dropped with the base's findings."""
    from types import SimpleNamespace

    import pysym.lean.runs as runs
    from pysym.lean.source import Problem

    found = [(Problem("MoeTheory/A.lean", 1, 0, "MoeTheory.a.inst depends on the axiom sorryAx"), "MoeTheoryTop"),
             (Problem("MoeTheory/A.lean", 1, 0, "MoeTheory.a depends on the axiom sorryAx"), "MoeTheoryBase"),
             (Problem("MoeTheory/B.lean", 2, 0, "MoeTheory.b depends on the axiom sorryAx"), "MoeTheoryTop")]
    monkeypatch.setattr(runs, "audit_axioms", lambda oleans, lib, where: ({}, found))
    monkeypatch.setattr(runs, "declaration_uses", lambda oleans, declared: {})
    monkeypatch.setattr(runs, "name_clashes", lambda audit, where: [])
    monkeypatch.setattr(runs, "computed_sorts", lambda oleans, where: [])
    monkeypatch.setattr(runs, "statement_meanings", lambda oleans, statements, declared: {})
    tree = runs.Tree([], [], SimpleNamespace(lib=tmp_path, supports_print_axioms=False), 60, QUIET,
                     {"MoeTheory.a": ("MoeTheory.A", "MoeTheory/A.lean", 1, False),
                      "MoeTheory.b": ("MoeTheory.B", "MoeTheory/B.lean", 2, False)}, {})
    top = [SimpleNamespace(name="MoeTheory.B", relpath="MoeTheory/B.lean")]
    olean = tmp_path / "MoeTheoryTop.olean"
    result = runs.interpret(tree, top, None, 0, [], olean=olean,
                            audit={"MoeTheoryBase": tmp_path / "MoeTheoryBase.olean", "MoeTheoryTop": olean})
    assert not result["ok"]
    assert [(p["path"], p["message"]) for p in result["problems"]] == [
        ("<MoeTheoryTop>", "MoeTheory.a.inst depends on the axiom sorryAx (a constant of this run named like a "
                           "declaration of MoeTheory/A.lean)"),
        ("MoeTheory/B.lean", "MoeTheory.b depends on the axiom sorryAx")]
