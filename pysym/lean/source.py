"""Reading Lean sources without Lean: modules, imports, declarations, and the
gate against constructs that would let an unproved fact through.

Comments and string literals are blanked first (every character replaced by a
space, newlines kept), so positions stay valid and a word such as ``sorry`` in
a docstring is not mistaken for a proof hole:

>>> blank('theorem t : True := trivial -- no sorry here\\n/- nor /- here -/ -/')
'theorem t : True := trivial                 \\n                    '

The gate reports each forbidden construct with its position:

>>> [(p.line, p.col, p.message.split(":")[0]) for p in forbidden_constructs("theorem x : 1 = 1 := by\\n  sorry")]
[(2, 2, '`sorry` leaves a proof unfinished')]

Declarations are named in full, following ``namespace``/``end``:

>>> [d.name for d in declarations("namespace A\\ntheorem t : True := trivial\\nend A\\ndef B.f := 1")]
['A.t', 'B.f']
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from pysym.errors import ProjectError

__all__ = [
    "Problem",
    "Declaration",
    "Module",
    "blank",
    "forbidden_constructs",
    "declarations",
    "parse_imports",
    "header_problems",
    "discover_modules",
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
    kind: str  # theorem, def, abbrev, instance, structure, inductive, class, opaque, axiom
    name: str  # fully qualified ("" for an anonymous instance)
    line: int
    private: bool = False


@dataclass(frozen=True)
class Module:
    name: str  # MoeTheory.Foo
    path: Path
    relpath: str  # MoeTheory/Foo.lean
    text: str

    @property
    def blanked(self) -> str:
        return blank(self.text)


# --------------------------------------------------------------------------- lexing


def blank(text: str) -> str:
    """``text`` with comments and string/char literals replaced by spaces."""
    out = list(text)
    n = len(text)
    i = 0

    def wipe(a: int, b: int) -> None:
        for j in range(a, min(b, n)):
            if out[j] != "\n":
                out[j] = " "

    while i < n:
        c = text[i]
        if c == "-" and text.startswith("--", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            wipe(i, j)
            i = j
        elif c == "/" and text.startswith("/-", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/-", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("-/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            wipe(i, j)
            i = j
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            wipe(i, j + 1)
            i = j + 1
        elif c == "r" and re.match(r'r(#*)"', text[i:i + 12]) and (i == 0 or not _ident_char(text[i - 1])):
            hashes = re.match(r'r(#*)"', text[i:]).group(1)
            end = text.find('"' + hashes, i + 2 + len(hashes))
            end = n if end < 0 else end + 1 + len(hashes)
            wipe(i, end)
            i = end
        elif c == "'" and (i == 0 or not _ident_char(text[i - 1])):
            m = re.match(r"'(\\.[^']*|[^'\\\n])'", text[i:])
            if m:
                wipe(i, i + m.end())
                i += m.end()
            else:
                i += 1
        else:
            i += 1
    return "".join(out)


def _ident_char(c: str) -> bool:
    return c.isalnum() or c in "_'!?." or ord(c) > 127 and c not in "→←↔∀∃λ≤≥≠∧∨¬×⟨⟩·∘"


# --------------------------------------------------------------------------- the gate

_W = r"(?<![\w'])"  # no identifier character before (a dot is allowed: Lean.ofReduceBool)
_E = r"(?![\w'!?])"  # no identifier character after

_FORBIDDEN: tuple[tuple[str, str], ...] = (
    (_W + r"sorry" + _E, "`sorry` leaves a proof unfinished: complete the proof"),
    (_W + r"admit" + _E, "`admit` leaves a proof unfinished: complete the proof"),
    (_W + r"axiom" + _E,
     "`axiom` asserts a fact without proof: state it as a theorem and prove it, or take it as a hypothesis"),
    (_W + r"native_decide" + _E, "`native_decide` trusts compiled code: use `decide` (checked by the kernel)"),
    (r"(?<![\w'])decide\s*\+\s*native" + _E, "`decide +native` trusts compiled code: use `decide`"),
    (_W + r"native\s*:=\s*true", "`native := true` trusts compiled code: use the kernel"),
    (_W + r"implemented_by" + _E, "`implemented_by` swaps in unchecked code: remove it"),
    (_W + r"extern" + _E, "`extern` swaps in unchecked code: remove it"),
    (_W + r"unsafe" + _E, "`unsafe` code is not checked: remove it"),
    (_W + r"debug\.[\w.]+", "`debug.*` options can skip kernel checks: remove the option"),
    (_W + r"(?:Lean\.)?ofReduceBool" + _E, "`ofReduceBool` trusts the compiler: remove it"),
    (_W + r"(?:Lean\.)?trustCompiler" + _E, "`trustCompiler` trusts the compiler: remove it"),
    (_W + r"(?:elab|elab_rules|macro|macro_rules|initialize|builtin_initialize)" + _E,
     "user elaborators and macros can build unchecked declarations: remove it"),
    (r"(?<![\w'])(?:run_cmd|run_elab|run_meta|run_tac)" + _E,
     "running meta code can add unchecked declarations: remove it"),
    (r"#eval" + _E, "`#eval` runs compiled code and can add unchecked declarations: remove it"),
    (r"(?m)^\s*prelude" + _E, "`prelude` changes what the file is checked against: remove it"),
)
_FORBIDDEN_RE = [(re.compile(p), msg) for p, msg in _FORBIDDEN]


def forbidden_constructs(text: str, path: str = "<input>") -> list[Problem]:
    """Every forbidden construct in ``text`` (outside comments and strings)."""
    code = blank(text)
    starts = _line_starts(code)
    found = []
    for rx, msg in _FORBIDDEN_RE:
        for m in rx.finditer(code):
            pos = m.start() + (len(m.group(0)) - len(m.group(0).lstrip()))
            line, col = _position(starts, pos)
            found.append(Problem(path, line, col, msg))
    return sorted(found)


def _line_starts(text: str) -> list[int]:
    starts = [0]
    starts.extend(m.end() for m in re.finditer("\n", text))
    return starts


def _position(starts: list[int], offset: int) -> tuple[int, int]:
    """1-based line, 0-based column (as Lean reports them)."""
    lo, hi = 0, len(starts) - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if starts[mid] <= offset:
            lo = mid
        else:
            hi = mid - 1
    return lo + 1, offset - starts[lo]


# --------------------------------------------------------------------------- structure

_IMPORT_RE = re.compile(r"\s*import\s+([\w.«»]+)\s*$")


def parse_imports(text: str) -> list[tuple[int, str]]:
    """``(line, module)`` for each ``import`` of the file header."""
    imports = []
    for lineno, line in enumerate(blank(text).split("\n"), start=1):
        if not line.strip():
            continue
        m = _IMPORT_RE.match(line)
        if not m:
            break
        imports.append((lineno, m.group(1)))
    return imports


def header_problems(text: str, path: str = "<input>") -> list[Problem]:
    """``import`` lines after a doc comment or other command: Lean (and
    ``lake build``) only accept imports at the very start of a file, after
    plain comments.  The check blanks imports, so this must be caught here."""
    imports = parse_imports(text)
    if not imports:
        return []
    last = imports[-1][0]
    lines = text.split("\n")
    problems = []
    code = blank(text).split("\n")
    for lineno in range(1, last):
        raw = lines[lineno - 1].lstrip()
        if raw.startswith(("/-!", "/--")) and code[lineno - 1].strip() == "":
            problems.append(Problem(path, lineno, 0, "a doc comment comes before `import`: Lean only accepts "
                                    "imports at the start of a file; move the docstring below the imports"))
            break
    return problems


_DECL_RE = re.compile(
    r"^\s*(?:@\[[^\]]*\]\s*)*"
    r"(?P<mods>(?:(?:private|protected|noncomputable|partial|nonrec|unsafe)\s+)*)"
    r"(?P<kind>theorem|def|abbrev|instance|structure|inductive|class\s+inductive|class|opaque|axiom)"
    r"(?![\w'])\s*(?P<name>[^\s:(\[{⦃]+)?"
)
_NS_RE = re.compile(r"^\s*namespace\s+([\w.'«»]+)")
_SECTION_RE = re.compile(r"^\s*(?:noncomputable\s+)?section(?:\s+([\w.'«»]+))?\s*$")
_END_RE = re.compile(r"^\s*end(?:\s+([\w.'«»]+))?\s*$")


def declarations(text: str) -> list[Declaration]:
    """Declarations of a module, with names qualified by open namespaces."""
    scopes: list[tuple[str, list[str]]] = []  # (kind, namespace components)
    decls = []
    for lineno, line in enumerate(blank(text).split("\n"), start=1):
        if m := _NS_RE.match(line):
            scopes.append(("namespace", m.group(1).split(".")))
            continue
        if m := _SECTION_RE.match(line):
            scopes.append(("section", []))
            continue
        if m := _END_RE.match(line):
            if scopes:
                scopes.pop()
            continue
        m = _DECL_RE.match(line)
        if not m:
            continue
        kind = m.group("kind").split()[-1]
        if kind == "inductive" and "class" in m.group("kind"):
            kind = "class"
        raw = m.group("name") or ""
        if kind == "instance" and (not raw or raw.startswith(("(", "[", ":"))):
            raw = ""
        prefix = [c for _, comps in scopes for c in comps]
        if raw.startswith("_root_."):
            name = raw[len("_root_."):]
        elif raw:
            name = ".".join(prefix + [raw])
        else:
            name = ""
        decls.append(Declaration(kind, name, lineno, private="private" in m.group("mods")))
    return decls


def discover_modules(root: Path) -> list[Module]:
    """``MoeTheory.lean`` and every ``MoeTheory/**/*.lean``, sorted by name."""
    lib = root / "MoeTheory"
    if not lib.is_dir():
        raise ProjectError(f"{root}: no MoeTheory/ folder")
    paths = sorted(lib.rglob("*.lean"))
    top = root / "MoeTheory.lean"
    if top.is_file():
        paths.append(top)
    modules = []
    for p in paths:
        rel = p.relative_to(root).as_posix()
        name = rel[: -len(".lean")].replace("/", ".")
        try:
            text = p.read_text(encoding="utf-8")
        except UnicodeDecodeError as exc:
            raise ProjectError(f"{rel}: not UTF-8 ({exc})") from None
        modules.append(Module(name, p, rel, text))
    return sorted(modules, key=lambda m: m.name)
