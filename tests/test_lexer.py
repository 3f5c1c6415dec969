"""The Lean tokenizer, on tricky snippets, and against Lean's own reading."""

import pytest

from pysym.lean.gate import scan
from pysym.lean.lexer import LexError, is_id_first, is_id_rest, split_name, tokenize



def kinds(text):
    return [(t.kind, t.text) for t in tokenize(text)]


@pytest.mark.parametrize("text, expected", [
    ("a -- b\nc", [("ident", "a"), ("ident", "c")]),
    ("a /- b /- c -/ d -/ e", [("ident", "a"), ("ident", "e")]),
    ("/-- doc /- nested -/ -/ x", [("doc", "/-- doc /- nested -/ -/"), ("ident", "x")]),
    ("/-! mod -/", [("doc", "/-! mod -/")]),
    ("«/-» «--» «a b».c", [("ident", "«/-»"), ("ident", "«--»"), ("ident", "«a b».c")]),
    ("x.axiom", [("ident", "x.axiom")]),
    ("x'' y!", [("ident", "x''"), ("ident", "y!")]),
    ("'\"' '\\'' '\\x41' '\\u0041' 'a'", [("char", "'\"'"), ("char", "'\\''"), ("char", "'\\x41'"),
                                         ("char", "'\\u0041'"), ("char", "'a'")]),
    ('"a \\" -- b" c', [("string", '"a \\" -- b"'), ("ident", "c")]),
    ('r#"a"b"# c', [("string", 'r#"a"b"#'), ("ident", "c")]),
    ('r"x" r', [("string", 'r"x"'), ("ident", "r")]),
    ("`«a b».c `d", [("name", "`«a b».c"), ("name", "`d")]),
    ("1_000 0x1F 0b10 0o7 2.5e-3 2.", [("number", "1_000"), ("number", "0x1F"), ("number", "0b10"),
                                       ("number", "0o7"), ("number", "2.5e-3"), ("number", "2.")]),
    ("#check #guard_msgs #[1]", [("hash", "#check"), ("hash", "#guard_msgs"), ("symbol", "#["),
                                 ("number", "1"), ("symbol", "]")]),
    ("é ā xⱼ α₁ ℕ", [("ident", "é"), ("ident", "ā"), ("ident", "xⱼ"), ("ident", "α₁"), ("ident", "ℕ")]),
    ("λx", [("symbol", "λ"), ("ident", "x")]),
    ("Σ' n, Nat ×' Nat", [("symbol", "Σ'"), ("ident", "n"), ("symbol", ","), ("ident", "Nat"), ("symbol", "×'"),
                          ("ident", "Nat")]),
    # a field index is digits only, not a scientific literal `2.e…`; a number elsewhere keeps its point
    ("h.2.elim (f x).1 2.5", [("ident", "h"), ("symbol", "."), ("number", "2"), ("symbol", "."), ("ident", "elim"),
                              ("symbol", "("), ("ident", "f"), ("ident", "x"), ("symbol", ")"), ("symbol", "."),
                              ("number", "1"), ("number", "2.5")]),
    ("a∈'\"'", [("ident", "a"), ("symbol", "∈"), ("char", "'\"'")]),
])
def test_tokens(text, expected):
    assert kinds(text) == expected


def test_interpolated_string_code_is_tokenized():
    toks = tokenize('s!"a{f "}" x}b{y}" z')
    assert [(t.kind, t.text, t.depth) for t in toks] == [
        ("ident", "s!", 0), ("istr", '"a{', 1), ("ident", "f", 1), ("string", '"}"', 1), ("ident", "x", 1),
        ("istr", "}b{", 1), ("ident", "y", 1), ("istr", '}"', 1), ("ident", "z", 0)]


def test_string_gap_and_escapes():
    assert kinds('"a\\\n   b" c') == [("string", '"a\\\n   b"'), ("ident", "c")]
    with pytest.raises(LexError, match="invalid escape"):
        tokenize('"\\q"')
    with pytest.raises(LexError, match="hexadecimal"):  # Lean 4.28 has no \u{...} escape (measured)
        tokenize("'\\u{22}'")


@pytest.mark.parametrize("text, message", [
    ("/- never closed", "unterminated comment"),
    ('"never closed', "unterminated string"),
    ("«never closed", "unterminated identifier escape"),
    ("a\tb", "tabs"),
    ("a\rb", "carriage return"),
    ("1.e", "exponent"),
])
def test_lexical_errors_are_located(text, message):
    with pytest.raises(LexError, match=message) as info:
        tokenize(text)
    assert info.value.line == 1


def test_glued_comment_and_literals_are_marked():
    toks = tokenize("x <--y")
    assert toks[1].text == "<" and toks[1].glued  # Lean reads `<-` then `-y` (measured)
    assert tokenize("a∈'\"'")[-1].glued
    assert not tokenize("a ∈ '\"'")[-1].glued
    assert not any(t.glued for t in tokenize("f (x) -- c\n[y] /- c -/"))


def test_positions_are_lean_columns():
    toks = tokenize("αβ := 1\n  «x» y")
    assert [(t.line, t.col) for t in toks] == [(1, 0), (1, 3), (1, 6), (2, 2), (2, 6)]


def test_character_classes_follow_lean():
    assert all(is_id_first(c) for c in "aZ_αΩℕé")
    assert not any(is_id_first(c) for c in "λΠΣ∀∈×÷0'")
    assert all(is_id_rest(c) for c in "0'!?₁ⱼ")
    assert split_name("«debug».skipKernelTC") == ("debug", "skipKernelTC")


# --------------------------------------------------------------------------- against Lean

# Valid Lean snippets whose reading is easy to get wrong.  `seen` names must be
# declared (Lean knows them), `hidden` names appear only inside comments,
# strings or escapes (Lean must not know them).  Our reading of each snippet
# (the declarations the gate's scanner finds) must agree with Lean's.
CORPUS = [
    ("def «/-» : Nat := 1\ndef seenA : Nat := 1\ndef «-/» : Nat := 2", ["/-", "seenA", "-/"], []),
    ("def «--» : Nat := 1 def seenB : Nat := 2", ["--", "seenB"], []),
    ("theorem tC : ('\"' : Char) ∈ '\"' :: [] := by decide\ndef seenC : Nat := 3", ["tC", "seenC"], []),
    ("def cD : Char := '\\''\ndef seenD : Nat := 1 -- '", ["cD", "seenD"], []),
    ('def sE : String := "a \\" -- no comment"\ndef seenE : Nat := 1', ["sE", "seenE"], []),
    ('def sF : String := "gap\\\n   next"\ndef seenF : Nat := 1', ["sF", "seenF"], []),
    ('def rG : String := r#"a"b -/ "#\ndef seenG : Nat := 1', ["rG", "seenG"], []),
    ("/- a /- b -/ def hiddenH : Nat := 1 -/\ndef seenH : Nat := 1", ["seenH"], ["hiddenH"]),
    ("/-- doc /- nested -/ def hiddenI : Nat := 1 -/\ndef seenI : Nat := 1", ["seenI"], ["hiddenI"]),
    ('def sJ : String := s!"x{"}" ++ "y"}z"\ndef seenJ : Nat := 1', ["sJ", "seenJ"], []),
    ("def xK.axiom : Nat := 1", ["xK.axiom"], []),
    ("def cL : Char := '\\x41'\ndef cL2 : Char := '\\u0041'", ["cL", "cL2"], []),
    ("def nM := `«a b».c\ndef seenM : Nat := 1", ["nM", "seenM"], []),
    ("-- /-\ndef seenN : Nat := 1\n-- -/", ["seenN"], []),
    ("/- -- -/ def seenO : Nat := 1", ["seenO"], []),
    ("def xP' : Nat := 1\ndef xP'' : Nat := 2\ndef seenP : Nat := xP'' -- '", ["xP'", "xP''", "seenP"], []),
    ("def éQ : Nat := 1\ndef αQ₁ : Nat := 1\ndef ℕQ : Nat := 1\ndef xⱼQ : Nat := 1", ["éQ", "αQ₁", "ℕQ", "xⱼQ"],
     []),
    ("def «def» : Nat := 1", ["def"], []),
    ("def nR : Nat := 1_000 + 0x1F + 0b10 + 0o7", ["nR"], []),
    ('def sS : String := "/-"\ndef seenS : Nat := 1\ndef sS2 : String := "-/"', ["sS", "seenS", "sS2"], []),
    ("def cT : List Char := ['a','\"','b']\ndef seenT : Nat := 1", ["cT", "seenT"], []),
    ('def sU : String := "-- \\"def hiddenU : Nat := 1"\ndef seenU : Nat := 1', ["sU", "seenU"], ["hiddenU"]),
    ("/-! module /- doc -/ def hiddenV : Nat := 1 -/\ndef seenV : Nat := 1", ["seenV"], ["hiddenV"]),
    ("theorem tW (h : True ∧ False) : False := h.2.elim\ndef seenW : Nat := 1", ["tW", "seenW"], []),
    # `m!` is an ordinary name under Init: the string after it is plain (and may not hold a `{`: the gate refuses it)
    ('def m! (s : String) : String := s\ndef sX : String := m! "a -- b"\ndef seenX : Nat := 1', ["m!", "sX", "seenX"],
     []),
    ("def pY : Σ' n : Nat, n = n := ⟨0, rfl⟩\ndef qY : Nat ×' Nat := ⟨1, 2⟩ -- '\ndef seenY : Nat := 1",
     ["pY", "qY", "seenY"], []),
    # `s!` and `f!` are Init's interpolation prefixes; after a glued `.` Lean reads `s!` as a field name
    ('def sZ : String := s!"a{1}b"\ndef fZ : Std.Format := f!"a{1}b"\ndef seenZ : Nat := 1', ["sZ", "fZ", "seenZ"],
     []),
    ('structure FooA where\n  x : String\ndef FooA.s! (x : String) : FooA := ⟨x⟩\ndef hA : FooA := .s! "a"\n'
     'def seenA2 : Nat := 1', ["FooA", "FooA.s!", "hA", "seenA2"], []),
]


def _lean_name(name: str) -> str:
    out = []
    for part in name.split("."):
        try:
            plain = tokenize(part)
        except LexError:
            plain = []
        ok = len(plain) == 1 and plain[0].kind == "ident" and plain[0].text == part and part not in ("def",)
        out.append(part if ok else f"«{part}»")
    return ".".join(out)


def test_corpus_reading_matches_the_scanner():
    """Without Lean: what our scanner declares for each corpus snippet."""
    for text, seen, hidden in CORPUS:
        names = [d.name for d in scan(text).declarations]
        assert names == seen, (text, names)


def corpus_file() -> tuple[str, dict]:
    """One Lean file of the corpus, each snippet in its own namespace, then a
    command per name: ``#check`` for a name Lean must know, ``#check_failure``
    (which turns the failure it expects into information, and a success into
    an error) for one it must not; and ``{line: (snippet, name, known)}``."""
    lines, expect = [], {}
    for n, (text, seen, hidden) in enumerate(CORPUS):
        lines.append(f"namespace C{n}")
        lines.extend(text.split("\n"))
        lines.append(f"end C{n}")
        for name, present in [(s, True) for s in seen] + [(h, False) for h in hidden]:
            lines.append(f"#check{'' if present else '_failure'} @C{n}.{_lean_name(name)}")
            expect[len(lines)] = (n, name, present)
    return "\n".join(lines) + "\n", expect


@pytest.mark.lean
def test_corpus_reading_matches_lean(lean_batch):
    """Lean's reading of the corpus (elaborated in the session's batch of
    Lean files: ``lean_batch`` in conftest.py) is the scanner's."""
    _, expect = corpus_file()
    outcome = lean_batch["outcomes"]["Corpus"]
    assert outcome is not None
    by_line = {}
    for m in outcome.messages:
        by_line.setdefault(m["pos"]["line"], []).append(m)
    errors = [m for ms in by_line.values() for m in ms if m["severity"] == "error"]
    assert not errors and outcome.code == 0, errors  # a #check of an unknown name, or an unexpected success
    for line, (n, name, present) in expect.items():
        got = by_line.get(line, [])
        if present:
            assert any(m["severity"] == "information" for m in got), (CORPUS[n][0], name, got)
        else:  # the failure #check_failure expected: the name is unknown
            assert any("unknown" in m["data"].lower() for m in got), (CORPUS[n][0], name, got)
