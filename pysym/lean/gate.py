"""The source gate: an allow-list over the tokens Lean reads.

``moe-theory lean check`` accepts a module only if every construct in it is
on an allow-list, read from the exact tokens of :mod:`pysym.lean.lexer`
(comments, strings and ``«»`` names are never mistaken for code, nor code
for them).  Layer 2 of the check (:mod:`pysym.lean.axioms`) then audits what
Lean produced; this layer is what stops the things an ``.olean`` cannot
show, such as a kernel check switched off by an option.

What is accepted:

* commands: declarations (``theorem def abbrev instance example structure
  inductive class opaque``, with modifiers ``private protected
  noncomputable partial nonrec local scoped``, attributes and doc
  comments), ``namespace section end open variable universe mutual
  attribute set_option deriving omit include`` and ``#check``;
* options (``set_option`` anywhere, in any spelling, and the lakefile's
  ``leanOptions``): :data:`ALLOWED_OPTIONS`, values ``true``, ``false`` or a
  number;
* attributes: :data:`ALLOWED_ATTRIBUTES`;
* imports: only at the start of a file, of core Lean or the project.

What is rejected, with ``path:line:col``, the construct and why: any other
command (``axiom``, ``#guard_msgs``, ``#exit``, ``#eval``, ``elab``, ...),
any other option or attribute, words that leave a proof unfinished or trust
compiled code wherever they occur (``sorry``, ``native_decide``,
``native``, ``ofReduceBool``, ...), a line at column 0 that does not start
an accepted command, and text whose reading depends on Lean's token table
(a string containing ``{`` that may be interpolated, a comment or literal
glued to a symbol).

>>> [str(p) for p in scan("set_option «debug».skipKernelTC true in\\ntheorem t : 1 = 1 := rfl").problems]
['<input>:1:11: option `debug.skipKernelTC` is not accepted: it can switch off kernel checking']
>>> [d.name for d in scan("namespace A\\ntheorem t : True := trivial\\nend A\\ndef B.f := 1").declarations]
['A.t', 'B.f']
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pysym.lean.lexer import LexError, Token, is_id_first, is_id_rest, tokenize

__all__ = [
    "Problem",
    "Declaration",
    "Scan",
    "scan",
    "ALLOWED_COMMANDS",
    "ALLOWED_OPTIONS",
    "ALLOWED_ATTRIBUTES",
    "ALLOWED_EXTERNAL_IMPORTS",
]

ALLOWED_EXTERNAL_IMPORTS = ("Init", "Std")


@dataclass(frozen=True, order=True)
class Problem:
    """A located problem, printed as ``path:line:col: message``."""

    path: str
    line: int
    col: int
    message: str
    severity: str = "error"

    def __str__(self) -> str:
        sev = "" if self.severity == "error" else f"{self.severity}: "
        return f"{self.path}:{self.line}:{self.col}: {sev}{self.message}"


@dataclass(frozen=True)
class Declaration:
    kind: str  # theorem, def, abbrev, instance, structure, inductive, class, opaque (or a refused axiom)
    name: str  # fully qualified ("" for an anonymous instance or an example)
    line: int
    private: bool = False


# --------------------------------------------------------------------------- the allow-lists

DECLARATION_KEYWORDS = frozenset({"theorem", "def", "abbrev", "instance", "example", "structure",
                                  "inductive", "class", "opaque"})
MODIFIERS = frozenset({"private", "protected", "noncomputable", "partial", "nonrec", "local", "scoped"})
SCOPE_COMMANDS = frozenset({"namespace", "section", "end", "open", "variable", "universe", "mutual",
                            "attribute", "set_option", "deriving", "omit", "include"})
ALLOWED_COMMANDS = DECLARATION_KEYWORDS | MODIFIERS | SCOPE_COMMANDS
ALLOWED_HASH = frozenset({"#check"})
# words that may begin a line at column 0 inside a command
LINE_CONTINUATIONS = frozenset({"termination_by", "decreasing_by", "where", "deriving", "with"})

ALLOWED_OPTIONS = frozenset({
    "autoImplicit", "relaxedAutoImplicit", "maxHeartbeats", "maxRecDepth",
    "synthInstance.maxHeartbeats", "synthInstance.maxSize",
})
ALLOWED_OPTION_PREFIXES = ("linter.",)  # linters only add warnings

ALLOWED_ATTRIBUTES = frozenset({
    "simp", "reducible", "irreducible", "semireducible", "instance", "inline", "noinline", "specialize",
    "grind", "ext", "default_instance", "induction_eliminator", "cases_eliminator", "elab_as_elim",
    "match_pattern", "refl", "symm", "trans", "congr", "norm_cast", "push_cast", "expose", "deprecated",
    "pp_nodot", "simp_arith",
})

_META = "runs meta code, which can add declarations the kernel never checked"
_SYNTAX = "extends Lean's syntax or elaborator; the check accepts only plain declarations"
# reserved command words of core Lean that are not accepted, and why
KNOWN_COMMANDS: dict[str, str] = {
    "axiom": "asserts a fact without proof: prove it as a theorem, or take it as a hypothesis",
    "unsafe": "unsafe code is not checked by the kernel",
    "with_weak_namespace": "changes the current namespace in a way the check does not follow",
    "end_local_scope": "changes the current scope in a way the check does not follow",
    "coinductive": "declares constants the check does not record",
    "assert_not_exists": "not needed by a proof",
    "assert_not_imported": "not needed by a proof",
    "set_library_suggestions": "declares meta code that a tactic runs later: " + _META,
    "gen_injective_theorems": "declares constants the check does not record",
    "reset_grind_attrs": "changes attributes of the library's theorems",
    "docs_to_verso": "not needed by a proof",
    "import": "`import` is only accepted at the start of a file",
    "prelude": "changes what the file is checked against",
    "module": "Lean's module system is not supported by the check (plain `lake build` files only)",
    "public": "Lean's module system is not supported by the check (plain `lake build` files only)",
    "meta": "meta code can add declarations the kernel never checked",
    "initialize": _META, "builtin_initialize": _META, "run_cmd": _META, "run_elab": _META,
    "run_meta": _META, "simproc": _META, "dsimproc": _META, "builtin_simproc": _META,
    "builtin_dsimproc": _META, "simproc_decl": _META, "dsimproc_decl": _META,
    "builtin_simproc_decl": _META, "builtin_dsimproc_decl": _META, "declare_config_elab": _META,
    "register_builtin_option": _META, "register_option": _META, "register_simp_attr": _META,
    "register_label_attr": _META, "declare_simp_like_tactic": _META, "grind_propagator": _META,
    "builtin_grind_propagator": _META, "register_tactic_tag": _META, "tactic_extension": _META,
    "register_error_explanation": _META, "register_linter_set": _META,
    "elab": _SYNTAX, "elab_rules": _SYNTAX, "macro": _SYNTAX, "macro_rules": _SYNTAX, "syntax": _SYNTAX,
    "notation": _SYNTAX, "infix": _SYNTAX, "infixl": _SYNTAX, "infixr": _SYNTAX, "prefix": _SYNTAX,
    "postfix": _SYNTAX, "declare_syntax_cat": _SYNTAX, "binder_predicate": _SYNTAX, "unif_hint": _SYNTAX,
    "grind_pattern": _SYNTAX, "add_decl_doc": _SYNTAX, "recommended_spelling": _SYNTAX,
    "export": "adds aliases, which change how names print in the statements the symbolic layer reads",
    "init_quot": "adds the quotient axioms by fiat", "seal": _SYNTAX, "unseal": _SYNTAX,
}
_HASH_REASONS = {
    "#guard_msgs": "it can hide errors and warnings, so a failed proof would pass",
    "#exit": "it stops Lean from reading the rest of the file",
    "#eval": "it runs compiled code, which can add declarations the kernel never checked",
    "#guard": "it runs compiled code",
    "#print": "`#print axioms` is not available here; the check audits axioms itself",
}
# words refused wherever they occur (any component of a name, escaped or not)
_FORBIDDEN_WORDS: dict[str, str] = {
    "sorry": "leaves a proof unfinished: complete the proof",
    "admit": "leaves a proof unfinished: complete the proof",
    "sorryAx": "is the axiom behind `sorry`: complete the proof",
    "native_decide": "trusts compiled code: use `decide` (checked by the kernel)",
    "native": "native evaluation trusts compiled code: use the kernel (`decide`, `decide +kernel`)",
    "bv_decide": "trusts compiled code (`Lean.ofReduceBool`)",
    "ofReduceBool": "trusts the compiler: it is an axiom outside the standard three",
    "ofReduceNat": "trusts the compiler: it is an axiom outside the standard three",
    "reduceBool": "the kernel reduces it by running compiled code: use `decide` (checked by the kernel)",
    "reduceNat": "the kernel reduces it by running compiled code: use `decide` (checked by the kernel)",
    "trustCompiler": "trusts the compiler: it is an axiom outside the standard three",
    "implemented_by": "swaps in unchecked code",
    "extern": "swaps in unchecked code",
    "by_elab": _META, "run_tac": _META,
}
_OPEN = {"(": ")", "[": "]", "{": "}", "⟨": "⟩", "⦃": "⦄", "⟦": "⟧", "@[": "]", "#[": "]", "‹": "›"}
_CLOSE = set(_OPEN.values())


# --------------------------------------------------------------------------- scanning a module


@dataclass
class Scan:
    """What the gate read from one module."""

    tokens: list[Token]
    problems: list[Problem]
    imports: list[tuple[Token, str]] = field(default_factory=list)  # (the `import` token, module)
    import_spans: list[tuple[int, int]] = field(default_factory=list)  # source spans of the header
    declarations: list[Declaration] = field(default_factory=list)


def scan(text: str, path: str = "<input>") -> Scan:
    """Tokenize ``text`` and apply the gate (see the module docstring)."""
    try:
        tokens = tokenize(text)
    except LexError as exc:
        return Scan([], [Problem(path, exc.line, exc.col, f"Lean cannot read this: {exc.message}")])
    g = _Gate(text, path, tokens)
    g.run()
    return Scan(tokens, sorted(set(g.problems)), g.imports, g.import_spans, g.declarations)


class _Gate:
    def __init__(self, text: str, path: str, tokens: list[Token]):
        self.text, self.path, self.toks = text, path, tokens
        self.problems: list[Problem] = []
        self.imports: list[tuple[Token, str]] = []
        self.import_spans: list[tuple[int, int]] = []
        self.declarations: list[Declaration] = []
        self.lines = text.split("\n")

    def problem(self, tok: Token, message: str) -> None:
        self.problems.append(Problem(self.path, tok.line, tok.col, message))

    # the header ----------------------------------------------------------------

    def header(self) -> int:
        """Read the ``import`` lines at the start; return the index after them."""
        i, toks = 0, self.toks
        while i < len(toks) and _word(toks[i]) == "import":
            if i + 1 >= len(toks) or toks[i + 1].kind != "ident":
                self.problem(toks[i], "`import` must name a module")
                return i + 1
            mod = toks[i + 1]
            if not plain_name(mod):
                # the check writes imports into its generated file: `«Core set_option debug».x` would read back as
                # an import and a command
                self.problem(mod, "an imported module's name must be plain identifiers joined by dots")
                return i + 2
            self.imports.append((toks[i], mod.value))
            self.import_spans.append((toks[i].start, mod.end))
            i += 2
        return i

    # the body --------------------------------------------------------------------

    def run(self) -> None:
        start = self.header()
        toks = self.toks
        for i in range(start, len(toks)):
            self.check_token(toks[i], i)
        depth: list[str] = []  # open brackets
        scopes: list[tuple[str, Token, list[str]]] = []  # (kind, where it opened, names)
        prev: Token | None = toks[start - 1] if start else None
        i = start
        while i < len(toks):
            tok = toks[i]
            top = tok.depth == 0 and not depth
            if top and (prev is None or prev.line < tok.line) and self._indent(tok) == 0 \
                    and tok.kind == "ident" and _word(tok) not in ALLOWED_COMMANDS | LINE_CONTINUATIONS \
                    and _word(tok) not in KNOWN_COMMANDS:
                self.problem(tok, f"`{tok.text}` at column 0 does not start an accepted command "
                                  "(declarations, namespace/section/end, open, variable, universe, "
                                  "attribute, set_option, #check): indent it if it continues the command "
                                  "above")
            if top and tok.kind == "doc" and (tok.text.startswith("/-!") or not self._doc_prefix(i)):
                prev = tok  # a module docstring, or the docstring of a field or constructor
                i += 1
                continue
            if top and _word(tok) == "axiom":  # refused above; recorded so that reports can locate it
                i = self.declaration("axiom", i + 1, tok, scopes, False)
                prev = toks[i - 1]
                continue
            if top and (tok.kind == "doc" or tok.value == "@[" or _word(tok) in ALLOWED_COMMANDS):
                i = self.command(i, scopes)
                prev = toks[i - 1]
                continue
            if tok.kind == "symbol" and tok.depth == 0:
                if tok.value in _OPEN:
                    depth.append(_OPEN[tok.value])
                elif tok.value in _CLOSE and depth and depth[-1] == tok.value:
                    depth.pop()
            prev = tok
            i += 1
        for kind, at, names in scopes:  # what is still open when the file ends (see `command`, `end`)
            self.problem(at, f"`{kind}{' ' + '.'.join(names) if names else ''}` is not closed: close it with "
                             f"`end{' ' + '.'.join(names) if names else ''}` before the end of the file (the "
                             "check reads each theorem's statement after the file, which must not run inside "
                             "its namespaces, sections or variables)")

    def _doc_prefix(self, i: int) -> bool:
        """Whether the doc comment at ``i`` documents a command (not a field)."""
        nxt = self.toks[i + 1] if i + 1 < len(self.toks) else None
        return nxt is not None and (nxt.value == "@[" or _word(nxt) in ALLOWED_COMMANDS
                                    or (nxt.kind == "ident" and _word(nxt) in KNOWN_COMMANDS))

    def _indent(self, tok: Token) -> int:
        line = self.lines[tok.line - 1]
        return len(line) - len(line.lstrip(" "))

    # single tokens -----------------------------------------------------------------

    def check_token(self, tok: Token, i: int) -> None:
        if tok.kind == "symbol" and tok.value == "@[":
            # every attribute list, wherever it stands: inside a term (`(let rec @[term_parser] p := ...; 0)`) a
            # parser attribute added a token (`zz--`) that hid the rest of its line from the gate (a command's
            # list is checked again by `command`: the same problems, kept once)
            self.attributes(i + 1, "]")
        if tok.kind == "hash":
            if tok.value not in ALLOWED_HASH:
                why = _HASH_REASONS.get(tok.value, "only `#check` is accepted among `#` commands")
                self.problem(tok, f"`{tok.value}` is not accepted: {why}")
            return
        if tok.kind == "symbol" and tok.glued:
            self.problem(tok, f"a comment starts right after `{tok.text}`, where Lean may read a longer symbol "
                              "instead (`x <--y` is `<-` then `-y` to Lean): put a space before the comment")
        elif tok.glued:
            self.problem(tok, f"`{tok.text[:12]}` follows a symbol without a space, where Lean's token table "
                              "decides how it reads: put a space before it")
        if tok.kind == "istr" and tok.text.startswith('"'):  # each interpolated string once, at its opening
            self.problem(tok, "an interpolated string (`s!`, `f!`) is not accepted: no proof needs one, and the "
                              "gate would have to read the code inside it as Lean does (write a plain string)")
        if tok.kind == "string" and "{" in tok.text:
            self.problem(tok, "a string literal containing `{` may be an interpolated string whose code the "
                              "gate cannot see: remove the brace or the string")
        if tok.kind in ("ident", "name"):
            for part in tok.parts:
                if part in _FORBIDDEN_WORDS:
                    self.problem(tok, f"`{part}`: {_FORBIDDEN_WORDS[part]}")
                    break
            word = _word(tok)
            if word in KNOWN_COMMANDS and word not in ALLOWED_COMMANDS:
                self.problem(tok, f"`{word}` is not accepted: {KNOWN_COMMANDS[word]}")
            if word == "set_option":
                self.option(i)

    def option(self, i: int) -> None:
        toks = self.toks
        if i + 2 >= len(toks) or toks[i + 1].kind != "ident":
            self.problem(toks[i], "`set_option` must be followed by an option name and a value")
            return
        name_tok, value = toks[i + 1], toks[i + 2]
        why = ("an option's name must be plain identifiers joined by dots (no component with a dot or a space)"
               if not plain_name(name_tok) else option_problem(".".join(name_tok.parts), value.text, value.kind))
        if why:
            self.problem(name_tok, why)

    # commands ----------------------------------------------------------------------

    def command(self, i: int, scopes: list) -> int:
        """Read a command's prefix (doc comment, attributes, modifiers) and
        keyword; record declarations and scopes; return the index after the
        keyword (and the name)."""
        toks = self.toks
        if toks[i].kind == "doc":
            i += 1
        attrs_at = None
        while i < len(toks) and toks[i].kind == "symbol" and toks[i].value == "@[" and toks[i].depth == 0:
            attrs_at = i
            i = self.attributes(i + 1, "]")
        mods = []
        while i < len(toks) and _word(toks[i]) in MODIFIERS:
            mods.append(_word(toks[i]))
            i += 1
        if i >= len(toks):
            return i
        tok = toks[i]
        word = _word(tok)
        if word not in ALLOWED_COMMANDS:
            if not (tok.kind == "ident" and word in KNOWN_COMMANDS) and tok.kind != "hash":
                what = tok.text if tok.kind != "doc" else "a second doc comment"
                self.problem(tok, f"expected an accepted command after "
                                  f"{'attributes' if attrs_at is not None else 'modifiers'}, found `{what[:20]}`")
            return i + 1 if tok.kind != "hash" else i
        i += 1
        if word == "class" and i < len(toks) and _word(toks[i]) == "inductive":
            i += 1
            word = "class"
        if word in DECLARATION_KEYWORDS:
            return self.declaration(word, i, tok, scopes, "private" in mods)
        # `namespace A.B` opens one scope per component, `end B` closes one and `end A.B` two, as in Lean
        if word == "namespace":
            if i < len(toks) and toks[i].kind == "ident":
                if any("." in c or not c for c in toks[i].parts):
                    # `namespace «A.B»` then `theorem t` is Lean's `«A.B».t`, which the check would know as `A.B.t`
                    self.problem(toks[i], f"the namespace `{toks[i].text}` has a component holding `.`; the check "
                                          "knows declarations by their dotted names, so it cannot tell those in it "
                                          "apart: rename it")
                scopes.extend(("namespace", tok, [c]) for c in toks[i].parts)
                return i + 1
            self.problem(tok, "`namespace` needs a name")
            return i
        if word == "section":
            named = i < len(toks) and toks[i].kind == "ident" and toks[i].line == tok.line
            if not named and i < len(toks) and toks[i].kind == "ident" and toks[i].col > 0 \
                    and _word(toks[i]) not in ALLOWED_COMMANDS:
                # Lean reads an indented name on a later line as the section's name
                self.problem(toks[i], "write the name of the `section` on its line, or start the next command at "
                                      "the start of its line")
            scopes.extend(("section", tok, [c] if c else []) for c in (toks[i].parts if named else [None]))
            return i + 1 if named else i
        if word == "mutual":
            scopes.append(("mutual", tok, []))
            return i
        if word == "end":
            named = i < len(toks) and toks[i].kind == "ident" and toks[i].line == tok.line \
                and _word(toks[i]) not in ALLOWED_COMMANDS
            if not named and i < len(toks) and toks[i].kind == "ident" and toks[i].col > 0 \
                    and _word(toks[i]) not in ALLOWED_COMMANDS:
                # Lean may read an indented name on a later line as the name `end` closes
                self.problem(toks[i], "write the name that `end` closes on the line of `end`, or start the "
                                      "next command at the start of its line")
            closes = len(toks[i].parts) if named else 1
            if closes > len(scopes):
                # in the generated file this would close the check's own wrapper around the module
                self.problem(tok, "`end` closes no namespace or section of this file")
            del scopes[len(scopes) - min(len(scopes), closes):]
            return i + 1 if named else i
        if word == "deriving" and i < len(toks) and _word(toks[i]) == "instance":
            return i + 1
        if word == "attribute":
            if i < len(toks) and toks[i].kind == "symbol" and toks[i].value == "[":
                return self.attributes(i + 1, "]")
            self.problem(tok, "`attribute` must be followed by `[...]`")
            return i
        return i

    def declaration(self, kind: str, i: int, kw: Token, scopes: list, private: bool) -> int:
        toks = self.toks
        if kind == "instance" and i < len(toks) and toks[i].kind == "symbol" and toks[i].value == "(":
            i = self._skip_group(i)  # (priority := n)
        name = ""
        if kind != "example" and i < len(toks) and toks[i].kind == "ident" \
                and _word(toks[i]) not in ALLOWED_COMMANDS:
            raw = toks[i]
            parts = list(raw.parts)
            if any("." in c or not c for c in parts):
                self.problem(raw, f"the name `{raw.text}` has a component holding `.`; the check knows "
                                  "declarations by their dotted names, so it cannot tell this one apart: rename it")
            if parts and parts[0] == "_root_":
                parts = parts[1:]
            else:
                parts = [c for kind, _, comps in scopes if kind == "namespace" for c in comps] + parts
            name = ".".join(parts)
            i += 1
        elif kind not in ("instance", "example"):
            self.problem(kw, f"`{kind}` needs a name")
        if kind != "example":
            self.declarations.append(Declaration(kind, name, kw.line, private))
        return i

    def _skip_group(self, i: int) -> int:
        depth = 0
        while i < len(self.toks):
            t = self.toks[i]
            if t.kind == "symbol" and t.value in _OPEN:
                depth += 1
            elif t.kind == "symbol" and t.value in _CLOSE:
                depth -= 1
                if depth == 0:
                    return i + 1
            i += 1
        return i

    def attributes(self, i: int, close: str) -> int:
        """Check the attribute entries up to the matching ``close``."""
        toks = self.toks
        entry_start = True
        depth = 0
        while i < len(toks):
            t = toks[i]
            if t.kind == "symbol" and t.value in _OPEN:
                depth += 1
            elif t.kind == "symbol" and t.value in _CLOSE:
                if depth == 0:
                    return i + 1
                depth -= 1
            elif depth == 0 and t.kind == "symbol" and t.value == ",":
                entry_start = True
                i += 1
                continue
            if entry_start and depth == 0:
                if _word(t) in ("local", "scoped") or (t.kind == "symbol" and t.value == "-"):
                    i += 1
                    continue
                entry_start = False
                name = t.value if t.kind == "ident" else t.text
                if t.kind != "ident" or name not in ALLOWED_ATTRIBUTES:
                    self.problem(t, f"attribute `{name}` is not accepted (accepted: "
                                    f"{', '.join(sorted(ALLOWED_ATTRIBUTES))})")
            i += 1
        return i


def _word(tok: Token) -> str | None:
    """The reserved word a token is, if it can be one: an identifier written
    without ``«»`` and without dots."""
    if tok.kind == "ident" and len(tok.parts) == 1 and tok.text == tok.parts[0]:
        return tok.text
    if tok.kind == "hash":
        return tok.value
    return None


def plain_name(tok) -> bool:
    """Whether every component of the name token ``tok`` is a plain identifier
    (``«debug».skipKernelTC`` is; ``«linter.x true set_option debug.y»``, one
    component holding dots and spaces, is not).  Names the check writes into its
    generated file (imports, the lakefile's options) must be plain, so that they
    read back as the same name and nothing else.

    >>> from pysym.lean.lexer import tokenize
    >>> [plain_name(t) for t in tokenize("«debug».skipKernelTC «a b» «x.y» Init.Core")]
    [True, False, False, True]
    """
    return bool(tok.parts) and all(part and is_id_first(part[0]) and all(is_id_rest(c) for c in part[1:])
                                   for part in tok.parts)


def option_problem(name: str, value: str, value_kind: str = "ident") -> str | None:
    """Why ``set_option name value`` is refused, or None.

    >>> option_problem("autoImplicit", "false") is None
    True
    >>> option_problem("debug.skipKernelTC", "true")
    'option `debug.skipKernelTC` is not accepted: it can switch off kernel checking'
    """
    if name.startswith("debug."):
        return f"option `{name}` is not accepted: it can switch off kernel checking"
    if name not in ALLOWED_OPTIONS and not name.startswith(ALLOWED_OPTION_PREFIXES):
        return (f"option `{name}` is not accepted (accepted: {', '.join(sorted(ALLOWED_OPTIONS))}, "
                f"{', '.join(p + '*' for p in ALLOWED_OPTION_PREFIXES)})")
    if not (value in ("true", "false") or value_kind == "number"):
        return f"option `{name}` must be set to true, false or a number (found `{value[:20]}`)"
    return None
