"""The lakefile gate: ``lakefile.lean`` is read strictly, token by token
(:func:`scan_lakefile`), because its ``leanOptions`` reach every module and
its fields choose which files ``lake build`` compiles; the options it sets
pass the same allow-list as ``set_option`` in a module
(:func:`pysym.lean.gate.option_problem`)."""

from __future__ import annotations

from dataclasses import dataclass

from pysym.lean.gate import Problem, option_problem, plain_name
from pysym.lean.lexer import LexError, Token, tokenize

__all__ = ["scan_lakefile", "LakefileScan"]


@dataclass
class LakefileScan:
    problems: list[Problem]
    options: list[tuple[str, str]]  # (name, value) from leanOptions


_PACKAGE_FIELDS = frozenset({"leanOptions"})
# no field of `lean_lib`: `srcDir`, `roots` and `globs` would make `lake build` compile files the check never
# reads (it reads MoeTheory.lean and MoeTheory/**, the defaults of `lean_lib MoeTheory`)
_LIB_FIELDS: frozenset = frozenset()
_LIB_NAME = "MoeTheory"


def scan_lakefile(text: str, path: str = "lakefile.lean") -> LakefileScan:
    """Read ``lakefile.lean`` strictly: ``import Lake``, ``open Lake DSL``, one
    ``package`` whose only field is ``leanOptions`` (accepted options only)
    and one ``lean_lib MoeTheory`` target without fields (the sources the check
    reads: ``MoeTheory.lean`` and ``MoeTheory/**``).  Anything
    else would change how ``lake build`` checks the sources without the
    check knowing, so it is refused.

    >>> scan_lakefile("import Lake\\nopen Lake DSL\\npackage P where\\n  leanOptions := #[⟨`autoImplicit, false⟩]").options
    [('autoImplicit', 'false')]
    >>> [p.message[:34] for p in scan_lakefile("import Lake\\nopen Lake DSL\\npackage P where\\n"
    ...     "  leanOptions := #[⟨`«debug».skipKernelTC, true⟩]").problems]
    ['option `debug.skipKernelTC` is not']
    """
    problems: list[Problem] = []
    try:
        toks = tokenize(text)
    except LexError as exc:
        return LakefileScan([Problem(path, exc.line, exc.col, f"Lean cannot read this: {exc.message}")], [])
    options: list[tuple[str, str]] = []
    libs: list[Token] = []
    i = 0

    def bad(t: Token, msg: str) -> None:
        problems.append(Problem(path, t.line, t.col, msg))

    def expect_words(words: tuple[str, ...]) -> bool:
        nonlocal i
        for w in words:
            if i >= len(toks) or toks[i].text != w:
                bad(toks[min(i, len(toks) - 1)], f"expected `{' '.join(words)}`")
                return False
            i += 1
        return True

    if not toks:
        return LakefileScan([Problem(path, 1, 0, "empty lakefile")], [])
    if not (expect_words(("import", "Lake")) and expect_words(("open", "Lake", "DSL"))):
        return LakefileScan(problems, options)
    while i < len(toks):
        t = toks[i]
        if t.kind == "doc":
            i += 1
            continue
        if t.kind == "symbol" and t.value == "@[":
            if i + 2 < len(toks) and toks[i + 1].text == "default_target" and toks[i + 2].text == "]":
                i += 3
                continue
            bad(t, "only the attribute `@[default_target]` is accepted in the lakefile")
            return LakefileScan(problems, options)
        if t.text not in ("package", "lean_lib") or i + 1 >= len(toks) or toks[i + 1].kind != "ident":
            bad(t, f"`{t.text[:20]}` is not accepted in the lakefile: the check reads only `package` (with "
                   "`leanOptions`) and `lean_lib` targets; other settings would change how Lean checks the "
                   "sources")
            return LakefileScan(problems, options)
        if t.text == "lean_lib":
            if toks[i + 1].value != _LIB_NAME or libs:
                bad(toks[i + 1], f"the lakefile may declare one library, `lean_lib {_LIB_NAME}`: the check reads only "
                                 f"{_LIB_NAME}.lean and {_LIB_NAME}/, and another target would build unchecked files")
                return LakefileScan(problems, options)
            libs.append(toks[i + 1])
        fields = _PACKAGE_FIELDS if t.text == "package" else _LIB_FIELDS
        i += 2
        if i < len(toks) and toks[i].text == "where":
            i += 1
            while i < len(toks) and toks[i].col > 0:
                f = toks[i]
                if f.kind != "ident" or f.value not in fields or i + 1 >= len(toks) or toks[i + 1].value != ":=":
                    bad(f, f"`{f.text[:20]}` is not an accepted field of `{t.text}` "
                           f"(accepted: {', '.join(sorted(fields)) or 'none: the check reads the default sources'})")
                    return LakefileScan(problems, options)
                i += 2
                if f.value == "leanOptions":
                    i = _lean_options(toks, i, path, problems, options)
                else:
                    while i < len(toks) and toks[i].col > 0 and not (
                            toks[i].kind == "ident" and i + 1 < len(toks) and toks[i + 1].value == ":="):
                        if toks[i].kind not in ("symbol", "name", "string", "ident"):
                            bad(toks[i], "unexpected value in the lakefile")
                        i += 1
    return LakefileScan(problems, options)


def _lean_options(toks, i, path, problems, options) -> int:
    """``#[⟨`name, value⟩, ...]`` starting at ``toks[i]``."""

    def bad(t, msg):
        problems.append(Problem(path, t.line, t.col, msg))

    if i >= len(toks) or toks[i].value != "#[":
        bad(toks[min(i, len(toks) - 1)], "`leanOptions` must be a literal array `#[⟨`name, value⟩, ...]`")
        return len(toks)
    i += 1
    while i < len(toks) and toks[i].value != "]":
        if i + 4 >= len(toks) or toks[i].value != "⟨" or toks[i + 1].kind != "name" \
                or toks[i + 2].value != "," or toks[i + 4].value != "⟩":
            bad(toks[i], "each option must be written `⟨`name, value⟩`")
            return len(toks)
        name, value = ".".join(toks[i + 1].parts), toks[i + 3]
        why = ("an option's name must be plain identifiers joined by dots (no component with a dot or a space)"
               if not plain_name(toks[i + 1]) else option_problem(name, value.text, value.kind))
        if why:
            bad(toks[i + 1], why)
        else:
            options.append((name, value.text))
        i += 5
        if i < len(toks) and toks[i].value == ",":
            i += 1
    return i + 1
