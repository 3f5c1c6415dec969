"""The source gate: an allow-list over Lean's tokens (no Lean needed).

Every bypass found against the earlier word-list gate is here, with variants;
each must be refused with its position and a reason."""

import pytest

from pysym.lean.gate import scan
from pysym.lean.lakefile import scan_lakefile
from pysym.lean.source import declarations, parse_imports

# (name, source, text the first problem's message must contain, line, col)
BYPASSES = [
    # 1. errors hidden by #guard_msgs (Lean keeps the theorem with an error-recovery sorry)
    ("guard_msgs_error", "#guard_msgs (drop error) in\ntheorem bad : 2 + 2 = 5 := by decide\n"
                         "theorem use : False := absurd bad (by decide)", "`#guard_msgs` is not accepted", 1, 0),
    ("guard_msgs_warning", "#guard_msgs (drop warning) in\ntheorem bad : False := sorryAx _ false",
     "`#guard_msgs` is not accepted", 1, 0),
    # 2. options spelled with guillemets, anywhere
    ("option_guillemet", "set_option «debug».skipKernelTC true in\ntheorem bad : 2 + 2 = 5 := by decide +kernel",
     "option `debug.skipKernelTC`", 1, 11),
    ("option_guillemet_tail", "set_option debug.«skipKernelTC» true in\ntheorem bad : 2 + 2 = 5 := by decide",
     "option `debug.skipKernelTC`", 1, 11),
    ("option_in_tactic", "theorem bad : 2 + 2 = 5 := by\n  set_option debug.skipKernelTC true in\n  decide +kernel",
     "option `debug.skipKernelTC`", 2, 13),
    ("option_in_term", "theorem bad : 2 + 2 = 5 := (set_option «debug».skipKernelTC true in by decide +kernel)",
     "option `debug.skipKernelTC`", 1, 39),
    ("option_unknown", "set_option pp.all true", "option `pp.all` is not accepted", 1, 11),
    ("option_value", "set_option maxHeartbeats foo", "must be set to true, false or a number", 1, 11),
    # 3. a guillemet name that looks like a comment opener
    ("guillemet_comment", "def «/-» : Nat := 1\naxiom bad : False\ndef «-/» : Nat := 2", "`axiom` is not accepted",
     2, 0),
    # 4. a character literal after a symbol, and the string it seemed to open
    ("char_after_symbol", "theorem t : ('\"' : Char) ∈'\"' :: [] := by decide\naxiom bad : False\n-- \"",
     "follows a symbol without a space", 1, 26),
    # 5. a command on the same line; code inside an interpolated string
    ("same_line", "def «--» : Nat := 1 axiom bad : False", "`axiom` is not accepted", 1, 20),
    ("interpolated", 'def s : String := s!"{(by native_decide : 2 + 2 = 4)}"', "`native_decide`", 1, 26),
    ("interpolated_nested", 's!"{s!"{(sorry : Nat)}"}"', "`sorry`", 1, 9),
    ("maybe_interpolated", 'def f : IO Unit := throwError "{(by native_decide : 1 = 1)}"',
     "may be an interpolated string", 1, 30),
    # 6. `m!` is an ordinary name under Init (Lean.Message defines the interpolation): the gate read `m! "{"`
    # as the start of an interpolated string and everything up to a later `}"` as code inside a string literal
    ("m_bang", 'def m! (s : String) : String := s\ndef x : String := m! "{"\nset_option debug.skipKernelTC true\n'
               'def y : String := "}"\ntheorem bad : 2 + 2 = 5 := by decide +kernel',
     "may be an interpolated string", 2, 21),
    ("m_bang_axiom", 'def m! (s : String) : String := s\ndef x : String := m! "{"\naxiom bad : False\n'
                     'def y : String := "}"', "`axiom` is not accepted", 3, 0),
    # ... and after a glued `.` (`.s!`, `(e).f!`, `e |>.s!`) Lean reads `s!`/`f!` as a field name, not the prefix
    ("dot_s_bang", 'def hide : Foo := .s! "{"\nset_option debug.skipKernelTC true\n-- "}"\n'
                   'theorem bad : 2 + 2 = 5 := by decide +kernel', "may be an interpolated string", 1, 22),
    ("pipe_dot_s_bang", 'def hide := base |>.s! "{"\nset_option debug.skipKernelTC true\n-- "}"',
     "may be an interpolated string", 1, 23),
    ("field_f_bang", 'def hide := (base).f! "{"\n#guard_msgs in\n-- "}"', "may be an interpolated string", 1, 22),
    # 8. attributes inside a term: a parser attribute added the token `zz--`, and Lean read the rest of the line
    # (an unsafe def, skipKernelTC, a false theorem) as code where the gate saw a comment
    ("term_attribute", 'def aux : Nat := (let rec @[term_parser] p : Lean.ParserDescr := Lean.ParserDescr.node '
                       '`Lean.Parser.Term.prop 1024 (Lean.ParserDescr.symbol "zz--"); 0)\n'
                       'def ok : Type := zz-- unsafe def loop : False := loop', "attribute `term_parser`", 1, 28),
    # a command in mid-line that moves the namespace: Lean named the theorems otherwise than the gate recorded
    ("weak_namespace", "theorem ok : True := trivial with_weak_namespace X namespace X\ntheorem s : 1 = 1 := rfl\n"
                       "end X", "`with_weak_namespace` is not accepted", 1, 29),
    ("library_suggestions", "theorem ok : True := trivial set_library_suggestions (fun g _ => pure #[])",
     "`set_library_suggestions` is not accepted", 1, 29),
    ("injective_theorems", "theorem ok : True := trivial gen_injective_theorems% Foo",
     "`gen_injective_theorems` is not accepted", 1, 29),
    # so no interpolated string is accepted at all: whichever way a string is read, its code is never unseen
    ("interpolation", 'def s : String := s!"a{1}b"', "an interpolated string (`s!`, `f!`) is not accepted", 1, 20),
    # 7. native evaluation in a configuration
    ("native_config", "theorem t : 2 + 2 = 4 := by decide (config := { native := (true) })", "native evaluation", 1, 48),
    ("native_flag", "example : 1 = 1 := by decide +native", "native evaluation", 1, 30),
    ("native_decide", "example : 10 < 20 := by native_decide", "`native_decide`", 1, 24),
    # words that leave proofs unfinished or trust the compiler, in any spelling
    ("sorry", "theorem t : False := by\n  sorry", "`sorry`", 2, 2),
    ("admit", "theorem t : False := by admit", "`admit`", 1, 24),
    ("sorryAx_escaped", "theorem bad : False := «sorryAx» False false", "`sorryAx`", 1, 23),
    ("ofReduceBool", "theorem bad : False := Lean.ofReduceBool _ _ rfl", "`ofReduceBool`", 1, 23),
    ("trustCompiler", "theorem bad : True := Lean.trustCompiler", "`trustCompiler`", 1, 22),
    # the kernel runs compiled code for these, and the proof records no axiom (the .olean audit counts them too)
    ("reduceBool", "theorem t : Lean.reduceBool b = true := rfl", "`reduceBool`", 1, 12),
    ("reduceNat", "theorem t : Lean.reduceNat n = 4 := rfl", "`reduceNat`", 1, 12),
    ("by_elab", "theorem bad : False := by_elab pure (Lean.mkConst ``True.intro)", "`by_elab`", 1, 23),
    ("run_tac", "theorem bad : True := by run_tac pure ()", "`run_tac`", 1, 25),
    # commands off the allow-list, wherever they stand
    ("exit", "theorem ok : True := trivial\n#exit\ntheorem bad : False := by decide", "`#exit` is not accepted", 2, 0),
    ("eval", "#eval 1", "`#eval` is not accepted", 1, 0),
    ("print_axioms", "#print axioms foo", "`#print` is not accepted", 1, 0),
    ("indented_axiom", "theorem ok : True := trivial\n  axiom bad : False", "`axiom` is not accepted", 2, 2),
    ("axiom_after_comment", "/- c -/ axiom bad : False", "`axiom` is not accepted", 1, 8),
    ("private_axiom", "private axiom bad : False", "`axiom` is not accepted", 1, 8),
    ("mutual_axiom", "mutual\naxiom a : False\nend", "`axiom` is not accepted", 2, 0),
    ("unsafe", "unsafe def f : Nat := 1", "`unsafe` is not accepted", 1, 0),
    ("macro", "macro \"x\" : term => `(1)", "`macro` is not accepted", 1, 0),
    ("macro_rules", "macro_rules | `(tactic| foo) => `(tactic| rfl)", "`macro_rules` is not accepted", 1, 0),
    ("elab", "elab \"x\" : tactic => pure ()", "`elab` is not accepted", 1, 0),
    ("notation", "local notation \"x\" => 1", "`notation` is not accepted", 1, 6),
    ("initialize", "initialize pure ()", "`initialize` is not accepted", 1, 0),
    ("run_cmd", "run_cmd pure ()", "`run_cmd` is not accepted", 1, 0),
    ("prelude", "prelude\ntheorem t : True := trivial", "`prelude` is not accepted", 1, 0),
    ("module", "module\ntheorem t : True := trivial", "`module` is not accepted", 1, 0),
    ("unknown_command", "foo_command bar", "`foo_command` at column 0 does not start an accepted command", 1, 0),
    ("escaped_at_column_0", "«axiom» bad : False", "at column 0 does not start an accepted command", 1, 0),
    ("import_late", "theorem t : True := trivial\nimport Lean", "`import` is only accepted at the start", 2, 0),
    ("import_after_doc", "/-! doc -/\nimport Init", "`import` is only accepted at the start", 2, 0),
    # attributes off the allow-list
    ("implemented_by", "@[implemented_by foo] def f : Nat := 1", "`implemented_by`", 1, 2),
    ("extern", '@[extern "c"] opaque f : Nat → Nat', "`extern`", 1, 2),
    ("attribute_command", "attribute [implemented_by g] f", "`implemented_by`", 1, 11),
    ("csimp", "@[csimp] theorem t : True := trivial", "attribute `csimp` is not accepted", 1, 2),
    ("local_attribute", "attribute [local command_elab] f", "attribute `command_elab` is not accepted", 1, 17),
    # text whose reading depends on Lean's token table
    ("glued_comment", "def x : Nat := 1\ntheorem t : x <--y\n  x := rfl", "a comment starts right after `<`", 2, 14),
    ("tab", "theorem t : True :=\ttrivial", "tabs", 1, 19),
    ("unterminated", "theorem t : True := trivial /- never closed", "unterminated comment", 1, 28),
]


@pytest.mark.parametrize("name, text, message, line, col", BYPASSES, ids=[b[0] for b in BYPASSES])
def test_bypass_is_refused_with_its_position(name, text, message, line, col):
    problems = scan(text, "MoeTheory/X.lean").problems
    assert problems, f"{name}: not refused"
    hit = [p for p in problems if message in p.message]
    assert hit, (name, [str(p) for p in problems])
    assert (hit[0].line, hit[0].col) == (line, col), str(hit[0])
    assert str(hit[0]).startswith(f"MoeTheory/X.lean:{line}:{col}: ")


HARMLESS = [
    "-- we never use sorry or axiom here\ntheorem t : True := trivial",
    "/-- docstring mentioning native_decide and `sorry` -/\ntheorem t : True := trivial",
    "/- nested /- sorry -/ still a comment: axiom -/ theorem t : True := trivial",
    'def s : String := "sorry, axiom, #eval"',
    "theorem sorry_free : True := trivial\ntheorem axioms_used : True := trivial",
    "theorem t (h' : True) : True := h'",
    "def externalCount : Nat := 0",
    "theorem decide_works : 2 < 3 := by decide",
    "theorem k : 2 < 3 := by decide +kernel",
    "open Classical in\ntheorem t : True := trivial",
    "structure S where\n  /-- doc -/\n  x : Nat\n  y : Nat\nderiving Repr",
    "@[simp] theorem t : True := trivial\nattribute [local simp] t",
    "def f : Nat → Nat\n  | 0 => 1\n  | n + 1 => f n\ntermination_by n => n",
    "set_option maxRecDepth 2000 in\ntheorem t : True := trivial",
    "set_option linter.unusedVariables false",
    "instance (priority := 100) foo : Inhabited Nat := ⟨0⟩",
    "inductive T where\n  | a\n  | b\nderiving DecidableEq",
    "/-! # Module doc -/\n\nnamespace A\nvariable {α : Type}\nuniverse u\nend A",
    "#check Nat.add_comm",
    "example : ('\"' : Char) ∈ '\"' :: [] := by decide",
]


@pytest.mark.parametrize("text", HARMLESS)
def test_harmless_text_is_accepted(text):
    assert [str(p) for p in scan(text).problems] == []


def test_the_project_modules_pass_the_gate():
    from conftest import ROOT

    for path in [ROOT / "MoeTheory.lean", *sorted((ROOT / "MoeTheory").rglob("*.lean"))]:
        assert scan(path.read_text(), str(path)).problems == [], path


# --------------------------------------------------------------------------- the lakefile

LAKE_HEAD = "import Lake\nopen Lake DSL\n\npackage MoeTheory where\n"


@pytest.mark.parametrize("text, message", [
    (LAKE_HEAD + "  leanOptions := #[⟨`autoImplicit, false⟩, ⟨`debug.skipKernelTC, true⟩]",
     "option `debug.skipKernelTC`"),
    (LAKE_HEAD + "  leanOptions := #[⟨`«debug».skipKernelTC, true⟩]", "option `debug.skipKernelTC`"),
    (LAKE_HEAD + "  leanOptions := #[⟨`warn.sorry, false⟩]", "option `warn.sorry` is not accepted"),
    (LAKE_HEAD + "  moreLeanArgs := #[\"-Ddebug.skipKernelTC=true\"]", "`moreLeanArgs` is not an accepted field"),
    (LAKE_HEAD + "  leanOptions := opts", "literal array"),
    (LAKE_HEAD + "\nscript foo do return 0", "`script` is not accepted in the lakefile"),
    (LAKE_HEAD + "\n@[default_target, extern_lib] lean_lib X", "only the attribute `@[default_target]`"),
    ("import Lake\nopen Lake DSL\nrun_cmd pure ()", "`run_cmd` is not accepted in the lakefile"),
    ("import Lean\nopen Lake DSL", "expected `import Lake`"),
    # a library the check does not read: lake build would compile evil/MoeTheory.lean, or Extra.lean
    (LAKE_HEAD + "\n@[default_target]\nlean_lib MoeTheory where\n  srcDir := \"evil\"",
     "`srcDir` is not an accepted field of `lean_lib`"),
    (LAKE_HEAD + "\nlean_lib MoeTheory where\n  roots := #[`Evil]", "`roots` is not an accepted field"),
    (LAKE_HEAD + "\nlean_lib MoeTheory\nlean_lib Extra where\n  roots := #[`Extra]", "one library"),
    (LAKE_HEAD + "\nlean_lib Other", "one library, `lean_lib MoeTheory`"),
    # one escaped component that starts with `linter.` and smuggles a second command into the generated file
    (LAKE_HEAD + "  leanOptions := #[⟨`«linter.unusedVariables true set_option debug.skipKernelTC», true⟩]",
     "must be plain identifiers"),
])
def test_lakefile_gate(text, message):
    problems = scan_lakefile(text).problems
    assert any(message in p.message for p in problems), [str(p) for p in problems]


def test_project_lakefile_is_accepted():
    from conftest import ROOT

    lake = scan_lakefile((ROOT / "lakefile.lean").read_text())
    assert lake.problems == [] and ("autoImplicit", "false") in lake.options


# --------------------------------------------------------------------------- the scanner


def test_declarations_follow_namespaces_and_modifiers():
    text = """
namespace MoeTheory
/-- doc -/
@[simp] theorem a : True := trivial
private theorem b : True := trivial
namespace Inner
protected def c : Nat := 1
end Inner
section S
noncomputable def d : Nat := 1
instance : Inhabited Nat := ⟨0⟩
theorem _root_.top : True := trivial
end S
end MoeTheory
structure P where
  x : Nat
example : True := trivial
deriving instance Repr for P
"""
    decls = declarations(text)
    assert [(d.kind, d.name) for d in decls] == [
        ("theorem", "MoeTheory.a"),
        ("theorem", "MoeTheory.b"),
        ("def", "MoeTheory.Inner.c"),
        ("def", "MoeTheory.d"),
        ("instance", ""),
        ("theorem", "top"),
        ("structure", "P"),
    ]
    assert decls[1].private and not decls[0].private


def test_parse_imports_reads_only_the_header():
    text = "-- header comment\nimport MoeTheory.Choose\nimport Init\n\n/-! doc -/\ntheorem import_x : True := trivial\n"
    assert parse_imports(text) == [(2, "MoeTheory.Choose"), (3, "Init")]


# --------------------------------------------------------------------------- names written into the generated file


def test_an_import_that_smuggles_a_command_is_refused():
    # `import Init.«Core set_option debug».«skipKernelTC true»` was written back as
    # `import Init.Core set_option debug.skipKernelTC true`: a second command, switching the kernel off
    text = "import Init.«Core set_option debug».«skipKernelTC true»\ntheorem t : 2 + 2 = 5 := by decide +kernel\n"
    problems = scan(text, "MoeTheory/Evil.lean").problems
    assert any("imported module's name must be plain" in p.message and (p.line, p.col) == (1, 7)
               for p in problems), [str(p) for p in problems]


def test_an_option_name_with_a_dotted_component_is_refused_in_a_module_too():
    problems = scan("set_option «linter.unusedVariables» false\n", "MoeTheory/A.lean").problems
    assert any("must be plain identifiers" in p.message for p in problems), [str(p) for p in problems]


def test_the_generated_file_reads_back_as_exactly_what_was_written():
    from pathlib import Path

    from pysym.lean.combined import GeneratedFileError, _reads_back, combine, lean_name
    from pysym.lean.source import Module

    # whatever reaches it, a name is written so that it stays one name ...
    assert lean_name("linter.x true set_option debug.skipKernelTC") == "linter.«x true set_option debug».skipKernelTC"
    with pytest.raises(GeneratedFileError):
        lean_name("a.«b»")
    m = Module("MoeTheory.A", Path("A.lean"), "MoeTheory/A.lean", "theorem t : True := trivial\n")
    text = combine([m], [("linter.x true set_option debug.skipKernelTC", "true")], ["t"]).text
    assert "\nset_option linter.«x true set_option debug».skipKernelTC true\n" in text
    # ... and a header that Lean would read as more than its imports and options is refused
    with pytest.raises(GeneratedFileError, match="more than its imports and options"):
        _reads_back("set_option linter.x true set_option debug.skipKernelTC true", [("set_option", "linter.x", "true")])


def test_a_file_name_with_a_line_break_cannot_end_the_generated_comment():
    from pathlib import Path

    from pysym.lean.combined import GeneratedFileError, combine
    from pysym.lean.source import Module

    rel = "MoeTheory/X\nset_option debug.skipKernelTC true\n.lean"
    m = Module("MoeTheory.X", Path(rel), rel, "theorem t : True := trivial\n")
    with pytest.raises(GeneratedFileError, match="control character"):
        combine([m], [], ["t"])


def test_two_files_for_one_module_are_refused(tmp_path):
    # MoeTheory/Evil/B.lean and MoeTheory/Evil.B.lean were both `MoeTheory.Evil.B`: the check kept one, and Lean
    # imports the other (which held an axiom)
    from pysym.errors import ProjectError
    from pysym.lean.source import discover_modules

    (tmp_path / "MoeTheory" / "Evil").mkdir(parents=True)
    (tmp_path / "MoeTheory" / "Evil" / "B.lean").write_text("axiom bad : False\n")
    (tmp_path / "MoeTheory" / "Evil.B.lean").write_text("theorem t : True := trivial\n")
    with pytest.raises(ProjectError, match="plain Lean identifier"):
        discover_modules(tmp_path)
    (tmp_path / "MoeTheory" / "Evil.B.lean").unlink()
    assert [m.name for m in discover_modules(tmp_path)] == ["MoeTheory.Evil.B"]


def test_any_edit_of_the_lakefile_changes_the_cache_key(tmp_path):
    from pysym.lean.check import lakefile_digest

    (tmp_path / "lakefile.lean").write_text(LAKE_HEAD + "  leanOptions := #[⟨`autoImplicit, false⟩]\n")
    before = lakefile_digest(tmp_path)
    (tmp_path / "lakefile.lean").write_text(LAKE_HEAD + "  leanOptions := #[⟨`autoImplicit, false⟩]\n-- edit\n")
    assert lakefile_digest(tmp_path) != before


def test_dotted_namespaces_open_one_scope_per_component():
    """Red-team: after ``namespace A.B`` ... ``end B``, Lean is still in
    ``A``; the scanner dropped both scopes and named the next declaration
    ``tt`` instead of ``A.tt`` (a statement reported for the wrong line, and a
    clash with another module's ``A.q`` not seen)."""
    text = ("theorem tt : 1 = 1 := rfl\nnamespace A.B\nend B\ntheorem tt : 2 + 2 = 4 := rfl\nend A\n"
            "namespace X.Y\ndef f := 1\nend X.Y\ndef g := 2\nsection S.T\nend T\ndef h := 3\nend S\n")
    assert [d.name for d in scan(text).declarations] == ["tt", "A.tt", "X.Y.f", "g", "h"]


def test_names_the_check_cannot_tell_apart_are_refused():
    """Red-team round 3: ``«a.b».c`` was recorded as ``a.b.c``, another
    constant's name, so ``#check @a.b.c`` reported that constant's statement;
    and ``end`` followed by an indented name on the next line closes what Lean
    reads there, not what the scanner read."""
    dotted = scan("theorem «a.b».c : True := trivial\n")
    assert [p.message.split(";")[0] for p in dotted.problems] == [
        "the name `«a.b».c` has a component holding `.`"]
    # round 12: `namespace «A.B»` then `theorem t` is Lean's `«A.B».t`, recorded as `A.B.t`, another theorem's name
    spaced = scan("namespace «A.B»\ntheorem t (n : Nat) : n ≤ n + 1 := Nat.le_succ n\nend «A.B»\n")
    assert [(p.line, p.message.split(";")[0]) for p in spaced.problems] == [
        (1, "the namespace `«A.B»` has a component holding `.`")]
    assert not scan("namespace «A».B\ntheorem t : True := trivial\nend «A».B\n").problems
    split_end = scan("namespace X.Y\nend\n  X.Y\ndef g := 1\n")
    assert [(p.line, p.col) for p in split_end.problems] == [(1, 0), (3, 2)]  # and X stays open
    assert not scan("namespace X\nend X\ndef g := 1\nsection\nend\ntheorem t : True := trivial\n").problems
    # round 8: `section` with its name indented on the next line opens the named scopes in Lean, one in the scanner
    split_section = scan("section\n  A.B\ntheorem t : True := trivial\nend A.B\n")
    assert [(p.line, p.col) for p in split_section.problems][:1] == [(2, 2)], split_section.problems


def test_every_namespace_and_section_is_closed_in_its_file():
    """Red-team round 5: a file that leaves `namespace Rc` and a `section` open made the generated file's
    `#check @Name` lines run inside them, where a section `variable` named like a theorem (or `Rc.Name`, a decoy)
    is what `Name` means: the check printed a false statement under a true theorem's name.  Every scope a file
    opens must be closed in it, and an `end` may not close the check's own wrapper around the file."""
    text = ("theorem rc : True := trivial\nnamespace Rc\nsection\n"
            "variable (rc : ∀ (n : Nat), n + 1 ≤ n)\nsection\n")
    found = [(p.line, p.message.split(":")[0]) for p in scan(text).problems]
    assert found == [(2, "`namespace Rc` is not closed"), (3, "`section` is not closed"),
                     (5, "`section` is not closed")], found
    assert [p.message for p in scan("namespace A\nsection B\nmutual\n").problems] and \
        [p.line for p in scan("namespace A\nsection B\nmutual\n").problems] == [1, 2, 3]
    assert [p.message for p in scan("theorem t : True := trivial\nend\n").problems] == [
        "`end` closes no namespace or section of this file"]
    assert [p.message for p in scan("namespace A\nend A.B\n").problems] == [
        "`end` closes no namespace or section of this file"]
    assert not scan("namespace A.B\nsection S\nvariable (x : Nat)\nend S\nend A.B\nmutual\nend\n").problems
