r"""Several Lean files in one Lean process (wasm toolchain only).

Start-up is the largest fixed cost of a wasm Lean run (about 4 s: the 89 MB
glue parsed and the wasm module linked, then ``Init`` loaded), and each fresh
process pays again the first use of ``simp``, ``grind``, ``decide``...  A
check that builds a base and then checks modules on top of it would pay
both twice.  The *driver* is a small Lean program run with ``lean --run``:
for each job it calls ``Lean.Elab.runFrontend`` -- the function ``lean
--json -o OLEAN FILE`` itself calls -- with the same arguments, so each job's
messages, exit status and ``.olean`` files are those of a separate ``lean``
run; only the process is shared.  Measured on the project (one session,
interleaved): base and top in one driver run took about the time of the one
full check file (31.5 / 35.8 s against 38.1 / 32.2 s).  The driver itself
(importing ``Lean.Elab.Frontend``, elaborating this program) adds about 2.5 s
to the process (``import Lean`` instead: about 1 s more).

**Kernel replay.**  After a job elaborates, the driver sends every constant
the job added (what ``-o`` writes to its ``.olean``) to the kernel again, on
an environment holding only the job's imports, read afresh: the checks stand
on what Lean produced, not on what the source says.  A declaration that
reached the environment without the kernel's check (``set_option
debug.skipKernelTC true``, which the source gate refuses, is the known way)
is rejected here, and the job fails with ``moe-theory-driver NONCE kernel
CONSTANT<tab>WHAT THE KERNEL SAID`` before its status line.  Constructors and
recursors must equal those the kernel generates for their inductive type;
``unsafe`` constants are not replayed (the ``.olean`` audit counts them as
axioms), and a constant that uses ``Lean.reduceBool`` or ``ofReduceBool`` is
taken as stated (an axiom: this environment holds no compiled code to run;
the audit refuses it too).  Measured on the project: about 3 s on the base
(400 constants: 0.4 s reading the imports, the rest the kernel), 1 s on
the modules on top.

The output is Lean's JSON messages, each job's followed by a line
``moe-theory-driver NONCE ok|failed FILE``, then ``... done``; the driver
exits through ``IO.Process.exit`` (returning from ``main`` sometimes ended
the wasm process with a random status at tear-down, and with the replay
the process sometimes fails while it tears down after ``done``: every
status and ``.olean`` is written by then, so only a missing ``done`` counts
as a failure of the driver).  The nonce is drawn
per run and passed on the command line, which the files being checked
cannot read, so they cannot print a line that ends a job early.  A job
that fails (errors) stops the driver: later jobs build on it.

>>> out = '\n'.join(['moe-theory-driver n1 start',
...                  '{"severity": "error", "pos": {"line": 1, "column": 0}, "data": "x", "fileName": "/a.lean"}',
...                  'moe-theory-driver n1 failed /a.lean', 'moe-theory-driver n1 done'])
>>> [(o.code, len(o.messages)) if o else None for o in split_output(out, "n1", [Path("/a.lean"), Path("/b.lean")])]
[(1, 1), None]
>>> out = '\n'.join(['moe-theory-driver n1 start', 'moe-theory-driver n1 kernel _private.A.0.bad._proof_1\tapplication',
...                  'type mismatch', 'moe-theory-driver n1 failed /a.lean', 'moe-theory-driver n1 done'])
>>> split_output(out, "n1", [Path("/a.lean")])[0].kernel
('_private.A.0.bad._proof_1', 'application type mismatch')
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from pathlib import Path

from pysym.errors import ToolchainError
from pysym.lean.combined import parse_messages
from pysym.lean.process import run_lean_process
from pysym.paths import write_atomic

__all__ = ["Job", "Outcome", "run_jobs", "split_output", "DRIVER_SOURCE", "DRIVER_MODULE"]

DRIVER_MODULE = "MoeTheoryDriver"
MARK = "moe-theory-driver"

# The kernel replay (:data:`REPLAY_SOURCE`) is written with lists and hand-written recursion only: this
# build's Lean libraries ship their exported `.olean` files, without the compiled code of private and
# specialized helpers, so a program that calls `Std.HashMap.insert`, `List.map`, `List.reverse`, `++` on
# lists or `Name.toString` fails to compile here ("Unknown constant `List.reverse._redArg`"); and reading
# `.olean` files with `readModuleDataParts` or importing with `importModules` from the program crashed the
# wasm process.  So each job's own constants come from `mkModuleData` (what `-o` writes to the `.olean`),
# and the environment of its imports from running the frontend on its `import` lines alone.
REPLAY_SOURCE = """\
abbrev Consts := List (Name × ConstantInfo)

-- every list function below is tail-recursive: interpreted recursion runs on the wasm stack, and a
-- recursion as deep as the module is long (400 constants) ran out of it

def nameStr (n : Name) : String :=
  go n []
where
  go : Name → List String → String
    | .anonymous, [] => "[anonymous]"
    | .anonymous, acc => String.intercalate "." acc
    | .str p s, acc => go p (s :: acc)
    | .num p k, acc => go p (Nat.repr k :: acc)

def lookup (n : Name) : Consts → Option ConstantInfo
  | [] => none
  | (m, c) :: rest => if m == n then some c else lookup n rest

def zipC (acc : Consts) : List Name → List ConstantInfo → Consts
  | n :: ns, c :: cs => zipC ((n, c) :: acc) ns cs
  | _, _ => acc

def revN (acc : List α) : List α → List α
  | [] => acc
  | x :: xs => revN (x :: acc) xs

def importsOf (acc : String) : List Import → String
  | [] => acc
  | i :: is => importsOf (acc ++ (if i.importAll then "import all " else "import ") ++ nameStr i.module ++ "\\n") is

def anyIn (s : List Name) : List Name → Bool
  | [] => false
  | x :: xs => if s.contains x then true else anyIn s xs

def insertAll (s : NameSet) : List Name → NameSet
  | [] => s
  | n :: ns => insertAll (s.insert n) ns

def kind : Kernel.Exception → String
  | .unknownConstant _ n => "unknown constant " ++ nameStr n
  | .alreadyDeclared _ n => "already declared: " ++ nameStr n
  | .declTypeMismatch .. => "declaration type mismatch"
  | .declHasMVars .. => "declaration has metavariables"
  | .declHasFVars .. => "declaration has free variables"
  | .funExpected .. => "function expected"
  | .typeExpected .. => "type expected"
  | .letTypeMismatch .. => "let type mismatch"
  | .exprTypeMismatch .. => "type mismatch"
  | .appTypeMismatch .. => "application type mismatch"
  | .invalidProj .. => "invalid projection"
  | .thmTypeIsNotProp .. => "theorem type is not a proposition"
  | .other msg => msg
  | .deterministicTimeout => "deterministic timeout"
  | .excessiveMemory => "excessive memory"
  | .deepRecursion => "deep recursion"
  | .interrupted => "interrupted"

/-- Raised with the constant's name and what the kernel said. -/
def reject (n : Name) (why : String) : IO α := throw (IO.userError (nameStr n ++ "\t" ++ why))

structure St where
  env : Kernel.Environment
  done : NameSet   -- the job's constants handled (sent to the kernel, generated by it, or skipped)

/-- The constants of the job that constant `ci` (with its mutual block, constructors included) uses. -/
partial def usedOf (consts : Consts) (acc : List Name) : List Name → IO (List Name)
  | [] => pure acc
  | m :: ms => do
    let some ci := lookup m consts | reject m "a constant of its mutual block is missing"
    let acc := revN acc ci.getUsedConstantsAsSet.toList
    match ci with
    | .inductInfo v => usedOf consts acc (revN ms v.ctors)
    | _ => usedOf consts acc ms

def defnsOf (consts : Consts) (acc : List DefinitionVal) : List Name → IO (List DefinitionVal)
  | [] => pure (revN [] acc)
  | m :: ms => do
    let some (.defnInfo v) := lookup m consts | reject m "a definition of its mutual block is missing"
    defnsOf consts (v :: acc) ms

def ctorsOf (consts : Consts) (acc : List Constructor) : List Name → IO (List Constructor)
  | [] => pure (revN [] acc)
  | c :: cs => do
    let some ci := lookup c consts | reject c "a constructor is missing"
    ctorsOf consts ({ name := c, type := ci.type } :: acc) cs

def inductTypes (consts : Consts) (acc : List InductiveType) : List Name → IO (List InductiveType)
  | [] => pure (revN [] acc)
  | m :: ms => do
    let some (.inductInfo v) := lookup m consts | reject m "an inductive type of its mutual block is missing"
    inductTypes consts ({ name := m, type := v.type, ctors := ← ctorsOf consts [] v.ctors } :: acc) ms

/-- The constructors and recursors of the job that the kernel generated with the inductive `block`. -/
def generated (block : List Name) (acc : List Name) : Consts → List Name
  | [] => acc
  | (n, .ctorInfo v) :: rest => generated block (if block.contains v.induct then n :: acc else acc) rest
  | (n, .recInfo v) :: rest => generated block (if anyIn block v.all then n :: acc else acc) rest
  | _ :: rest => generated block acc rest

def addD (d : Declaration) (n : Name) (st : St) (block : List Name) : IO St :=
  match st.env.addDecl {} d with
  | .ok env => pure { env, done := insertAll st.done block }
  | .error e => reject n (kind e)

/-- Send constant `n` (with its mutual block) to the kernel. -/
def send (consts : Consts) (n : Name) (ci : ConstantInfo) (st : St) : IO St := do
  let used := ci.getUsedConstantsAsSet
  if used.contains ``Lean.reduceBool || used.contains ``Lean.reduceNat || used.contains ``Lean.ofReduceBool
      || used.contains ``Lean.ofReduceNat then
    -- the kernel would run compiled code, which this environment does not hold: taken as stated (an
    -- axiom), as the `.olean` audit counts it
    return ← addD (.axiomDecl { name := n, levelParams := ci.levelParams, type := ci.type, isUnsafe := false })
      n st [n]
  match ci with
  | .inductInfo v =>
    let st ← addD (.inductDecl v.levelParams v.numParams (← inductTypes consts [] v.all) v.isUnsafe) n st v.all
    pure { st with done := insertAll st.done (generated v.all [] consts) }
  | .defnInfo v =>
    if v.safety == .safe then addD (.defnDecl v) n st [n]
    else addD (.mutualDefnDecl (← defnsOf consts [] v.all)) n st v.all  -- a `partial` block refers to itself
  | .thmInfo v => addD (.thmDecl v) n st [n]
  | .opaqueInfo v => addD (.opaqueDecl v) n st [n]
  | .axiomInfo v => addD (.axiomDecl v) n st [n]
  | .quotInfo _ => reject n "a module may not declare the quotient type"
  | _ => pure st

def blockOf : ConstantInfo → Name → List Name
  | .inductInfo v, _ => v.all
  | .defnInfo v, n => if v.safety == .safe then [n] else v.all
  | _, n => [n]

/-- A constant to send, with the constants of its mutual block (`own`: for an inductive type, its
constructors and recursors too, which the kernel generates with it) and the job's other constants it uses. -/
structure Item where
  name : Name
  ci : ConstantInfo
  own : List Name
  deps : List Name

def onlyMine (mine : NameSet) (own : List Name) (acc : List Name) : List Name → List Name
  | [] => acc
  | d :: ds => onlyMine mine own (if mine.contains d && !own.contains d then d :: acc else acc) ds

/-- The constants to send: every constant of the job but constructors and recursors (generated with
their type) and `unsafe` ones (never accepted anyway: the `.olean` audit counts them as axioms). -/
def itemsOf (consts : Consts) (mine : NameSet) (acc : List Item) : Consts → IO (List Item)
  | [] => pure acc
  | (n, ci) :: rest => do
    match ci with
    | .ctorInfo _ | .recInfo _ => itemsOf consts mine acc rest
    | _ =>
      if ci.isUnsafe then return ← itemsOf consts mine acc rest
      let block := blockOf ci n
      let own := match ci with | .inductInfo _ => generated block block consts | _ => block
      let deps := onlyMine mine own [] (← usedOf consts [] block)
      itemsOf consts mine ({ name := n, ci, own, deps } :: acc) rest

def unsafeNames (acc : List Name) : Consts → List Name
  | [] => acc
  | (n, ci) :: rest => unsafeNames (if ci.isUnsafe then n :: acc else acc) rest

def allIn (done : NameSet) : List Name → Bool
  | [] => true
  | d :: ds => if done.contains d then allIn done ds else false

/-- One pass over the items not yet sent: send each whose constants of the job are all in the kernel's
environment; return the others. -/
def pass (consts : Consts) (st : St) (left : List Item) (progress : Bool) : List Item → IO (St × List Item × Bool)
  | [] => pure (st, left, progress)
  | it :: rest => do
    if st.done.contains it.name then pass consts st left progress rest
    else if allIn st.done it.deps then pass consts (← send consts it.name it.ci st) left true rest
    else pass consts st (it :: left) progress rest

partial def passes (consts : Consts) (st : St) (todo : List Item) : IO St := do
  let (st, left, progress) ← pass consts st [] false todo
  match left with
  | [] => pure st
  | it :: _ =>
    if progress then passes consts st left
    else reject it.name "uses a constant of its module that the kernel never accepted"

/-- Every constructor and recursor of the job equals the one the kernel generated. -/
def compareGenerated (env : Kernel.Environment) : Consts → IO Unit
  | [] => pure ()
  | (n, ci) :: rest => do
    match ci, env.find? n with
    | .ctorInfo v, some (.ctorInfo w) => unless v == w do reject n "differs from the constructor the kernel generates"
    | .recInfo v, some (.recInfo w) => unless v == w do reject n "differs from the recursor the kernel generates"
    | .ctorInfo v, _ => unless v.isUnsafe do reject n "is not a constructor the kernel generates"
    | .recInfo v, _ => unless v.isUnsafe do reject n "is not a recursor the kernel generates"
    | _, _ => pure ()
    compareGenerated env rest

def namesOf (acc : List Name) : Consts → List Name
  | [] => acc
  | (n, _) :: rest => namesOf (n :: acc) rest

/-- Send every constant the job added to `env` to the kernel again, on an environment of its imports
alone (read afresh by the frontend from its `import` lines): `none` if the kernel accepts them all,
else `some "CONSTANT<tab>WHAT THE KERNEL SAID"`. -/
def replay (file : String) (env : Environment) : IO (Option String) := do
  let data ← mkModuleData env
  let consts := zipC [] data.constNames.toList data.constants.toList
  let some imported ← Lean.Elab.runFrontend (importsOf (if env.header.isModule then "module\\n" else "")
      env.header.imports.toList) {} file `MoeTheoryReplay
      (jsonOutput := true)
    | return some "[imports]\tthe imports did not load again"
  try
    let items ← itemsOf consts (insertAll {} (namesOf [] consts)) [] consts
    let st ← passes consts { env := imported.toKernelEnv, done := insertAll {} (unsafeNames [] consts) } items
    compareGenerated st.env consts
    return none
  catch e => return some (toString e)
"""

DRIVER_SOURCE = f"""\
-- Generated by `moe-theory lean check`; do not edit.  See pysym/lean/driver.py.
import Lean.Elab.Frontend
import Lean.Util.FoldConsts
open Lean Elab

{REPLAY_SOURCE}
/-- Check each `MODULE FILE OLEAN MODE` job in turn as `lean --json -o OLEAN FILE` would, then (MODE
`replay`) replay its constants in the kernel, printing `{MARK} NONCE ok|failed FILE` after each (`kernel TEXT` before a
`failed` the replay caused); stop after a job that fails. -/
partial def runJobs (nonce : String) : List String → IO Unit
  | mod :: file :: olean :: mode :: more => do
    let input ← IO.FS.readFile file
    let env? ← Lean.Elab.runFrontend input {{}} file mod.toName
      (oleanFileName? := some olean) (jsonOutput := true)
    let out ← IO.getStdout
    let rejected ← match env? with
      | some env => if mode == "replay" then replay file env else pure none
      | none => pure none
    if let some why := rejected then
      out.putStrLn s!"{MARK} {{nonce}} kernel {{why}}"
    let ok := env?.isSome && rejected.isNone
    out.putStrLn s!"{MARK} {{nonce}} {{if ok then "ok" else "failed"}} {{file}}"
    out.flush
    if ok then runJobs nonce more
  | [] => pure ()
  | _ => throw (IO.userError "{MARK}: jobs come as MODULE FILE OLEAN replay|no-replay")

public def main (args : List String) : IO UInt32 := do
  searchPathRef.set (← addSearchPathFromEnv [])
  let nonce :: jobs := args | throw (IO.userError "{MARK}: no arguments")
  let out ← IO.getStdout
  out.putStrLn s!"{MARK} {{nonce}} start"
  out.flush
  runJobs nonce jobs
  out.putStrLn s!"{MARK} {{nonce}} done"
  out.flush
  IO.Process.exit 0
"""


@dataclass
class Job:
    module: str  # the module name Lean gives the file (its stem, as `lean FILE` does)
    lean_file: Path
    olean: Path
    replay: bool = True  # False only in tests of the other layers alone (the `.olean` audit)


@dataclass
class Outcome:
    code: int  # 0 or 1, as `lean` would have exited
    messages: list[dict]
    kernel: tuple[str, str] | None = None  # (constant, what the kernel said) when the replay rejected one


def run_jobs(toolchain, jobs: list[Job], workdir: Path, timeout: float, lean_path=()) -> list[Outcome | None]:
    """Run ``jobs`` in one Lean process; one :class:`Outcome` per job, ``None``
    for a job not run because an earlier one failed."""
    nonce = secrets.token_hex(12)
    driver = workdir / f"{DRIVER_MODULE}.lean"
    write_atomic(driver, DRIVER_SOURCE)
    args = [nonce] + [str(x) for j in jobs
                      for x in (j.module, j.lean_file, j.olean, "replay" if j.replay else "no-replay")]
    argv, env = toolchain.driver_command(driver, args, workdir, lean_path,
                                         [p for j in jobs for p in (j.lean_file.parent, j.olean.parent)])
    code, out, err = run_lean_process(argv, env, workdir, timeout)
    # Every job's status is printed (and its `.olean` written) before `done`; the wasm process sometimes
    # fails while it tears down after that line, so only a missing `done` is a failure of the driver.
    if f"{MARK} {nonce} done" not in out.splitlines():
        tail = "\n".join((err or out).strip().splitlines()[-15:])
        raise ToolchainError(f"Lean (the check's driver) exited with status {code} before it finished; "
                             f"its last output:\n{tail}")
    return split_output(out, nonce, [j.lean_file for j in jobs])


def split_output(out: str, nonce: str, files: list[Path]) -> list[Outcome | None]:
    """Each job's messages and status from the driver's output (see the
    module docstring); a message that names another file than its job's, or
    marks out of order, are a :class:`ToolchainError`."""
    outcomes: list[Outcome | None] = [None] * len(files)
    current: list[str] = []
    started, i, kernel = False, 0, None
    for line in out.splitlines():
        if line.startswith(f"{MARK} {nonce} "):
            word, _, rest = line[len(MARK) + len(nonce) + 2:].partition(" ")
            if word == "start" and not started:
                started = True
                current = []
            elif word == "kernel" and started and kernel is None:
                constant, _, said = rest.partition("\t")
                kernel = (constant, " ".join(said.split()))
            elif word in ("ok", "failed") and started and i < len(files) and rest == str(files[i]) \
                    and not (kernel and word == "ok"):
                messages = parse_messages("\n".join(current))
                for m in messages:
                    if m.get("fileName", rest) != rest:
                        raise ToolchainError(f"the check's driver reported a message about {m.get('fileName')!r} "
                                             f"while checking {rest}")
                outcomes[i] = Outcome(0 if word == "ok" else 1, messages, kernel)
                i, current, kernel = i + 1, [], None
            elif word == "done" and started:
                break
            else:
                raise ToolchainError(f"the check's driver printed an unexpected line: {line!r}")
        elif kernel is not None:  # the kernel's text went on over a line break (a name may hold one)
            kernel = (kernel[0], " ".join(f"{kernel[1]} {line}".split()))
        elif started:
            current.append(line)
    return outcomes
