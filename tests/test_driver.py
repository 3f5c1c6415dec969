"""The driver that checks several Lean files in one Lean process (:mod:`pysym.lean.driver`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pysym.errors import ToolchainError
from pysym.lean.driver import split_output

A, B = Path("/w/A.lean"), Path("/w/B.lean")


def message(file: Path, severity: str = "error", text: str = "oops") -> str:
    return json.dumps({"severity": severity, "pos": {"line": 1, "column": 0}, "data": text,
                       "fileName": str(file)})


def test_each_job_gets_the_messages_printed_before_its_mark():
    out = "\n".join([
        message(A, text="the driver's own elaboration, before the start mark: not a job's"),
        "moe-theory-driver N start",
        message(A, "warning"), "moe-theory-driver N ok /w/A.lean",
        message(B), message(B, "information"), "moe-theory-driver N failed /w/B.lean",
        "moe-theory-driver N done",
    ])
    a, b = split_output(out, "N", [A, B])
    assert (a.code, [m["severity"] for m in a.messages]) == (0, ["warning"])
    assert (b.code, [m["severity"] for m in b.messages]) == (1, ["error", "information"])


def test_a_failed_job_leaves_the_later_ones_unrun():
    out = "\n".join(["moe-theory-driver N start", message(A), "moe-theory-driver N failed /w/A.lean",
                     "moe-theory-driver N done"])
    first, second = split_output(out, "N", [A, B])
    assert first.code == 1 and second is None


def test_marks_without_the_runs_nonce_are_not_marks():
    """A line that looks like a mark but carries another nonce (say, printed
    by the file being checked) neither ends a job nor counts as a message."""
    out = "\n".join(["moe-theory-driver N start", message(A),
                     "moe-theory-driver GUESS ok /w/A.lean",
                     "moe-theory-driver N failed /w/A.lean", "moe-theory-driver N done"])
    (only,) = split_output(out, "N", [A])
    assert only.code == 1 and len(only.messages) == 1


@pytest.mark.parametrize("lines", [
    ["moe-theory-driver N ok /w/A.lean"],  # before the start mark
    ["moe-theory-driver N start", "moe-theory-driver N ok /w/B.lean"],  # another job's file
    ["moe-theory-driver N start", "moe-theory-driver N maybe /w/A.lean"],
    ["moe-theory-driver N start", message(B), "moe-theory-driver N ok /w/A.lean"],  # a message about B in A's job
])
def test_output_out_of_order_is_a_toolchain_error(lines):
    with pytest.raises(ToolchainError):
        split_output("\n".join(lines + ["moe-theory-driver N done"]), "N", [A, B])


# the driver's cases, run last in the session's batch of Lean files (``lean_batch`` in conftest.py): a clean
# file; a file on top of it (`import all`) that defines a name the first one's private structure generated; a
# file with an error; a file after it
# What the kernel replay must accept (each a construct whose kernel declaration differs from a plain
# definition: structures and `deriving`, mutual and nested inductive types, well-founded and mutual
# structural recursion, `partial` blocks, instances, `opaque`, `native_decide`); run in the batch.
REPLAY_CASES = """\
universe u
inductive Tree where
  | leaf : Nat → Tree
  | node : List Tree → Tree

mutual
inductive Even : Nat → Prop
  | zero : Even 0
  | succ : Odd n → Even (n + 1)
inductive Odd : Nat → Prop
  | succ : Even n → Odd (n + 1)
end

structure Pt where
  x : Nat
  y : Nat := 3
deriving DecidableEq

class Sz (α : Type) where
  sz : α → Nat

instance : Sz Pt := ⟨fun p => p.x + p.y⟩

private def helper (n : Nat) : Nat := n + 1

def fib : Nat → Nat
  | 0 => 0
  | 1 => 1
  | n + 2 => fib n + fib (n + 1)

def ack : Nat → Nat → Nat
  | 0, n => n + 1
  | m + 1, 0 => ack m 1
  | m + 1, n + 1 => ack m (ack (m + 1) n)
termination_by m n => (m, n)

partial def loop (n : Nat) : Nat := if n > 100 then n else loop (n * 2 + 1)

theorem fib_5 : fib 5 = 5 := by decide
theorem helper_pos (n : Nat) : 0 < helper n := Nat.succ_pos n
theorem pt_eq : (Pt.mk 1 2 == Pt.mk 1 2) = true := by decide
theorem even2 : Even 2 := .succ (.succ .zero)
opaque secret : Nat
mutual
partial def pe (n : Nat) : Bool := if n == 0 then true else po (n - 1)
partial def po (n : Nat) : Bool := if n == 0 then false else pe (n - 1)
end
mutual
def ev : Nat → Bool
  | 0 => true
  | n + 1 => od n
def od : Nat → Bool
  | 0 => false
  | n + 1 => ev n
end
theorem ev4 : ev 4 = true := by decide
def bigB : Bool := true
theorem by_rb : bigB = true := by native_decide
structure Base (α : Type u) where
  a : α
structure Ext (α : Type u) extends Base α where
  b : Nat := 0
inductive Vec (α : Type u) : Nat → Type u
  | nil : Vec α 0
  | cons : α → Vec α n → Vec α (n + 1)
def Q := Quot (fun (a b : Nat) => a % 3 = b % 3)
def Q.val (q : Q) : Nat := Quot.lift (fun n => n % 3) (fun _ _ h => h) q
theorem Q.val_mk (n : Nat) : Q.val (Quot.mk _ n) = n % 3 := rfl
def evens := {n : Nat // n % 2 = 0}
def two : evens := ⟨2, rfl⟩
"""


class _ScriptedDriver:
    """In place of the wasm toolchain: the driver is a Python script that
    prints ``lines`` (``{n}`` is the run's nonce) and exits with ``status``."""

    def __init__(self, lines: list[str], status: int):
        self.lines, self.status = lines, status

    def driver_command(self, driver, args, workdir, lean_path=(), mounts=()):
        import sys

        script = f"print({self.lines!r} and '\\n'.join({self.lines!r}).format(n={args[0]!r})); raise SystemExit({self.status})"
        return [sys.executable, "-c", script], None


@pytest.mark.parametrize("status", [0, 1])
def test_a_run_counts_when_its_last_line_is_printed_whatever_the_exit_status(tmp_path, status, monkeypatch):
    """The wasm process sometimes fails while it tears down after the
    driver's last line; every status is printed by then.  Without that line
    the run is a failure of the driver, whatever its exit status."""
    import pysym.lean.driver as driver_module
    from pysym.lean.driver import Job, run_jobs

    monkeypatch.setattr(driver_module, "compiled", lambda toolchain, timeout=0: tmp_path)  # no Lean to compile it

    job = Job("A", tmp_path / "A.lean", tmp_path / "A.olean")
    done = ["moe-theory-driver {n} start", "moe-theory-driver {n} kernel c\tapplication type mismatch",
            f"moe-theory-driver {{n}} failed {job.lean_file}", "moe-theory-driver {n} done"]
    (outcome,) = run_jobs(_ScriptedDriver(done, status), [job], tmp_path, 60)
    assert (outcome.code, outcome.kernel) == (1, ("c", "application type mismatch"))
    with pytest.raises(ToolchainError, match="before it finished"):
        run_jobs(_ScriptedDriver(done[:-1], status), [job], tmp_path, 60)
    with pytest.raises(ToolchainError, match="unexpected line"):  # a job's status is never `ok` after a rejection
        run_jobs(_ScriptedDriver([done[0], done[1], f"moe-theory-driver {{n}} ok {job.lean_file}", done[3]], status),
                 [job], tmp_path, 60)


class _Compiler:
    """In place of the wasm toolchain for :func:`pysym.lean.driver.compiled`:
    "compiling" writes the ``.olean`` (or fails as Lean does), and counts."""

    ident = "stand-in"

    def __init__(self, fail: bool = False):
        self.fail, self.runs = fail, 0

    def command(self, lean_file, workdir, olean=None, lean_path=()):
        import sys

        self.runs += 1
        if self.fail:
            error = json.dumps({"severity": "error", "pos": {"line": 3, "column": 0}, "data": "unknown identifier"})
            return [sys.executable, "-c", f"print({error!r}); raise SystemExit(1)"], None
        return [sys.executable, "-c", f"open({str(olean)!r}, 'w').write('compiled')"], None


def test_the_driver_is_compiled_once_per_version_into_a_complete_folder(tmp_path, monkeypatch):
    import pysym.lean.driver as driver_module

    monkeypatch.setenv("MOE_THEORY_CACHE", str(tmp_path / "cache"))
    tc = _Compiler()
    folder = driver_module.compiled(tc)
    assert (folder / "MoeTheoryDriver.olean").read_text() == "compiled" and tc.runs == 1
    assert (folder / "MoeTheoryDriver.lean").read_text() == driver_module.DRIVER_SOURCE
    assert driver_module.compiled(tc) == folder and tc.runs == 1  # reused, not compiled again
    monkeypatch.setattr(driver_module, "DRIVER_SOURCE", driver_module.DRIVER_SOURCE + "-- another version\n")
    assert driver_module.compiled(tc) != folder and tc.runs == 2  # another source: another folder
    failing = _Compiler(fail=True)
    monkeypatch.setattr(driver_module, "DRIVER_SOURCE", driver_module.DRIVER_SOURCE + "-- a third\n")
    with pytest.raises(ToolchainError, match="could not compile the check's driver .*unknown identifier"):
        driver_module.compiled(failing)
    # nothing half-built is left under the cache, and only complete folders carry a version's name
    assert sorted(f.name.startswith(".") for f in (tmp_path / "cache" / "lean-driver").iterdir()) == [False, False]
    for n in range(3):  # the cache keeps the drivers of the latest three versions, the one in use among them
        monkeypatch.setattr(driver_module, "DRIVER_SOURCE", driver_module.DRIVER_SOURCE + f"-- v{n}\n")
        latest = driver_module.compiled(tc)
    kept = list((tmp_path / "cache" / "lean-driver").iterdir())
    assert len(kept) == driver_module.KEEP_DRIVERS and latest in kept and folder not in kept


DRIVER_CASES = {
    "Good": "private structure Foo where\n  val : Nat\ntheorem good : 1 + 1 = 2 := rfl\n",
    "Top": "module\nimport all Good\ndef Foo.val : Nat := 2\n",
    "Bad": "theorem bad : 1 + 1 = 3 := by decide\n",
    "After": "theorem after : 1 + 1 = 2 := rfl\n",
}


@pytest.mark.lean
def test_the_driver_runs_each_file_as_lean_does_and_stops_at_a_failure(toolchain, lean_batch):
    """With the real toolchain, in one process (after the batch's other
    files): a clean file passes and writes its ``.olean``; a file on top of
    it (``import all``) passes; a file with an error fails (status 1, its
    error, no ``.olean`` written) and the file after it is not run.  The two
    files that passed define the same generated name (a private structure's
    ``Foo.val``, and a ``def Foo.val`` on top), which Lean accepts across
    files and one combined file rejects (red-team): the name audit of what
    Lean wrote refuses it."""
    if not getattr(toolchain, "reads_oleans", False):
        pytest.skip("the driver is used with the registry (wasm) toolchain only")
    from pysym.lean.produced import name_clashes

    jobs, outcomes = lean_batch["jobs"], lean_batch["outcomes"]
    assert list(jobs)[-len(DRIVER_CASES):] == list(DRIVER_CASES)  # the batch ends with these, in this order
    for name in ("Good", "Top"):
        ok = outcomes[name]
        assert ok.code == 0 and not [m for m in ok.messages if m["severity"] == "error"], ok.messages
        assert jobs[name].olean.is_file()
    bad = outcomes["Bad"]
    assert bad.code == 1 and any(m["severity"] == "error" and m["pos"]["line"] == 1 for m in bad.messages)
    assert not jobs["Bad"].olean.exists() and outcomes["After"] is None and not jobs["After"].olean.exists()
    clashes = name_clashes({"Good": jobs["Good"].olean, "Top": jobs["Top"].olean}, {})
    assert [p.message.split("`")[1] for p in clashes] == ["Foo.val"], clashes


def test_private_prefixes_are_removed_from_names_only():
    """The statements of a file checked on top of a base are printed with
    ``pp.privateNames`` and the prefixes of the two generated files removed
    (:func:`pysym.lean.combined.unprivate`); text inside string literals,
    escaped quotes included, and other files' prefixes stay as Lean printed them."""
    from pysym.lean.combined import unprivate

    mods = ("MoeTheoryBase", "MoeTheoryTop")
    assert unprivate("_private.MoeTheoryTop.0.t : _private.MoeTheoryBase.0.MoeTheory.Mask 3 1", mods) \
        == "t : MoeTheory.Mask 3 1"
    literal = '"a \\" _private.MoeTheoryBase.0.x" = s ∧ `_private.MoeTheoryBase.0.y = n'
    assert unprivate(literal, mods) == literal
    assert unprivate("_private.Other.0.z = _private.MoeTheoryBase.0.z", mods) == "_private.Other.0.z = z"


def test_a_character_literal_quote_does_not_flip_what_counts_as_a_string():
    """Red-team finding: Lean prints ``'"'`` as ``'\\"'``; a reading of string
    literals that ignored character literals took that quote as the start of
    a string, and removed a prefix *inside* the next string literal, so a
    theorem about ``"_private.MoeTheoryTop.0.x" ≠ "x"`` was reported as
    proving ``"x" ≠ "x"``.  Lean's tokenizer decides what is a literal."""
    from pysym.lean.combined import unprivate

    mods = ("MoeTheoryBase", "MoeTheoryTop")
    printed = "_private.MoeTheoryTop.0.evil : '\\\"'.toNat = 34 ∧ \"_private.MoeTheoryTop.0.x\" ≠ \"x\""
    assert unprivate(printed, mods) == "evil : '\\\"'.toNat = 34 ∧ \"_private.MoeTheoryTop.0.x\" ≠ \"x\""
    escaped = "_private.MoeTheoryTop.0.evil2 : «a b _private.MoeTheoryTop.0.y» = 1"
    assert unprivate(escaped, mods) == "evil2 : «a b _private.MoeTheoryTop.0.y» = 1"
    # text that does not tokenize is refused (None), never guessed at
    assert unprivate("_private.MoeTheoryTop.0.t : \"unterminated", mods) is None


def test_a_statement_with_a_name_literal_is_refused_on_every_path():
    """Red-team round 3: Lean prints a name literal without escapes
    (`` `x» y ``), so neither the tokenizer nor the line-break undoing can
    read such a statement safely (a prefix was removed and a line break joined,
    reporting false statements).  A statement holding a name literal is not
    recorded: one file and a file on top of a base refuse it alike."""
    from pysym.lean.combined import classify, combine
    from pysym.lean.source import Module

    m = Module("MoeTheory.A", Path("A.lean"), "MoeTheory/A.lean", "theorem t : True := trivial\n")
    for imports in ((), ("MoeTheoryBase",)):
        c = combine([m], [], ["t"], imports=imports, name="MoeTheoryTop")
        msg = {"severity": "information", "pos": {"line": c.tail_start, "column": 0},
               "data": "t : Lean.Name.mkStr1 \"x» y\" ≠ `x»\n    y"}
        problems, _, statements, _, tail_errors = classify(c, [msg])
        assert statements == {} and len(tail_errors) == 1 and "name literal" in tail_errors[0]


@pytest.mark.lean
def test_the_kernel_replay_accepts_what_the_kernel_accepted(toolchain, lean_batch):
    """The driver's kernel replay (:mod:`pysym.lean.driver`) sends every
    constant of ``REPLAY_CASES`` to the kernel again and accepts them all:
    inductive blocks with their generated constructors and recursors,
    ``partial`` blocks as one mutual declaration, a ``native_decide`` proof as
    stated (the ``.olean`` audit counts its kernel evaluation).  (What it
    rejects: ``test_check_layers.py::test_the_kernel_replay_is_the_kernels_check``.)"""
    if not getattr(toolchain, "reads_oleans", False):
        pytest.skip("the driver is used with the registry (wasm) toolchain only")
    from pysym.lean.produced import computed_sorts

    outcome = lean_batch["outcomes"]["ReplayCases"]
    assert outcome is not None and outcome.code == 0 and outcome.kernel is None, outcome
    assert not [m for m in outcome.messages if m["severity"] == "error"], outcome.messages
    # nor does the literal-sort rule refuse any of these inductive types (indexed families, `extends`...)
    assert computed_sorts({"ReplayCases": lean_batch["jobs"]["ReplayCases"].olean}, {}) == []
