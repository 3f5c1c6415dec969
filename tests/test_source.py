"""The source gate and the source scanner (no Lean needed)."""

import pytest

from pysym.lean.source import blank, declarations, forbidden_constructs, parse_imports


@pytest.mark.parametrize(
    "snippet, word",
    [
        ("theorem t : False := by\n  sorry", "sorry"),
        ("theorem t : False := by admit", "admit"),
        ("axiom bad : False", "axiom"),
        ("private axiom bad : False", "axiom"),
        ("example : 10 < 20 := by native_decide", "native_decide"),
        ("example : 10 < 20 := by decide +native", "decide +native"),
        ("example : 10 < 20 := by decide (config := { native := true })", "native := true"),
        ('@[implemented_by foo] def f : Nat := 1', "implemented_by"),
        ('@[extern "c_f"] opaque f : Nat → Nat', "extern"),
        ("unsafe def f : Nat := 1", "unsafe"),
        ("set_option debug.skipKernelTC true in\ntheorem t : True := trivial", "debug.skipKernelTC"),
        ("theorem t : True := Lean.ofReduceBool _ _ rfl", "Lean.ofReduceBool"),
        ("theorem t : True := Lean.trustCompiler", "Lean.trustCompiler"),
        ("elab \"x\" : tactic => pure ()", "elab"),
        ("macro_rules | `(tactic| foo) => `(tactic| rfl)", "macro_rules"),
        ("run_cmd pure ()", "run_cmd"),
        ("#eval 1 + 1", "#eval"),
        ("prelude\ntheorem t : True := trivial", "prelude"),
    ],
)
def test_forbidden_constructs_are_reported_with_position(snippet, word):
    problems = forbidden_constructs(snippet, "MoeTheory/X.lean")
    assert problems, f"{word!r} was not caught"
    p = problems[0]
    lines = snippet.split("\n")
    assert lines[p.line - 1][p.col:].startswith(word.split()[0]), (p, word)
    assert str(p).startswith(f"MoeTheory/X.lean:{p.line}:{p.col}: ")


@pytest.mark.parametrize(
    "snippet",
    [
        "-- we never use sorry or axiom here\ntheorem t : True := trivial",
        "/-- docstring mentioning native_decide and `sorry` -/\ntheorem t : True := trivial",
        "/- nested /- sorry -/ still a comment: axiom -/ theorem t : True := trivial",
        'def s : String := "sorry, axiom, #eval"',
        "theorem sorry_free : True := trivial\ntheorem axioms_used : True := trivial",
        "theorem t (h' : True) : True := h'",
        "def externalCount : Nat := 0",
        "theorem decide_works : 2 < 3 := by decide",
    ],
)
def test_harmless_text_is_not_reported(snippet):
    assert forbidden_constructs(snippet) == []


def test_blank_keeps_positions():
    text = 'a -- c\nb /- x\ny -/ "s\\"t" c'
    out = blank(text)
    assert len(out) == len(text)
    assert out.split("\n")[0] == "a     "
    assert out.endswith(" c") and "s" not in out.replace("  ", "")[3:]


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


def test_doc_comment_before_imports_is_reported():
    from pysym.lean.source import header_problems

    bad = "/-! # Title -/\nimport MoeTheory.A\n"
    assert [(p.line, p.col) for p in header_problems(bad, "M.lean")] == [(1, 0)]
    good = "-- a plain comment\n/- another -/\nimport MoeTheory.A\n/-! # Title -/\n"
    assert header_problems(good, "M.lean") == []
