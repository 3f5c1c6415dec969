r"""Formulas inside prose, typeset as mathematics.

Derivation authors and the verifier write prose as plain text with ASCII
formulas in it: ``C(T,k)^{2Nd}(2m)^{Nd}``, ``2 exp(-2 m t^2)``,
``N* ~ C^(d/(2beta+2d))``, or SymPy's own strings (``m*t**2``,
``binomial(T, k)``, ``(0, oo)``).  :func:`segments` finds each formula with a
small parser for that notation and translates it into LaTeX math, keeping the
author's order of terms; everything else stays text, and `code spans` stay
code.  :func:`tex_rich` and :func:`md_rich` then write the text for LaTeX
(``\(...\)``) and for Markdown (``$...$``).

The parser only accepts what reads as a formula: an operator (``+ - / = <= ~``
...), a power, subscript, factorial, prime or star, a function (``log``,
``exp``, ``sqrt``, ``min``, ``O(.)``), a Greek letter, two operands side by
side, or a lone symbol (a single letter other than the article *a*, or a name
from ``names``).  English words end a formula, so do ``, ; :`` and a full stop
outside brackets.  Number ranges (``Eqs. 9-11``), hyphenated words
(``C-Lipschitz``), enumerators (``(a)``), units (``30B``, ``40%``) and
possessives (``Eq. 16's``) stay text.

>>> print(tex_rich("the count C(T,k)^{2Nd}(2m)^{Nd} is small"))
the count \(\binom{T}{k}^{2Nd}(2m)^{Nd}\) is small
>>> print(tex_rich("at most 2 exp(-2 m t^2) (McDiarmid, two-sided)."))
at most \(2 \exp(-2 m t^{2})\) (McDiarmid, two-sided).
>>> print(tex_rich("N* ~ C^(d/(2beta+2d)) and risk <~ N_eff^(-2 beta/d)"))
\(N^{*} \sim C^{d/(2\beta+2d)}\) and risk \(\lesssim N_{\mathrm{eff}}^{-2 \beta/d}\)
>>> print(tex_rich("exp(-m*t**2) on (0, oo)"))
\(\exp(-m\,t^{2})\) on \((0, \infty)\)
>>> print(tex_rich("Eqs. 9-11 and Eq. 16's factor; a bound for T experts"))
Eqs. 9--11 and Eq. 16's factor; a bound for \(T\) experts
>>> print(tex_rich("with d = 3", {"d": "d_N"}))
with \(d_N = 3\)
>>> print(tex_rich("d log k*/d log N = 3 ell (1 + ell)"))
\(\mathrm{d} \log k^{*}/\mathrm{d} \log N = 3 \ell (1 + \ell)\)
>>> print(md_rich("G* = sqrt(f/e) = 6.78 at 30B, i.e. 40%"))
$G^{*} = \sqrt{f/e} = 6.78$ at 30B, i.e. 40%
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pysym.render.asciimath import BINOPS, NotAFormula, Parser, Token, long_fractions
from pysym.render.text import md_prose, tex_prose


@dataclass(frozen=True)
class Segment:
    kind: str  # "text", "math" (LaTeX math) or "code"
    value: str


def _accept(p: Parser, stats: dict, features: int, first: Token, latex: str) -> bool:
    if stats["ops"] or features:
        return True
    if stats["operands"] >= 2 and stats["idents"]:
        return True
    if stats["operands"] == 1 and stats["idents"] == 1:
        return first.value not in ("a", "I")
    if first.kind == "num" and ("e" in first.value or "10^" in latex):
        return True
    return False


_RELATIONS = {"<=", ">=", "<", ">", "=", "~", "<~", ">>", "->", "!="}
_LABELS = {"appendix", "section", "sect", "figure", "fig", "table", "assumption", "assumptions", "lemma",
           "theorem", "thm", "thms", "eq", "eqs", "step", "definition", "remark", "corollary", "claim"}


def _label(p: Parser, i: int) -> bool:
    """``Appendix B``, ``assumption D1``: a label after its kind, not a symbol."""
    t = p.toks[i]
    if not (t.kind == "num" or (t.kind == "word" and len(t.value) == 1 and t.value.isupper())):
        return False
    j = i - 1
    while j >= 0 and p.toks[j].kind == "ws":
        j -= 1
    if j >= 0 and p.toks[j].value == ".":
        j -= 1
    return j >= 0 and p.toks[j].kind == "word" and p.toks[j].value.lower() in _LABELS


def _unprimed(p: Parser, latex: str, j: int, stats: dict) -> tuple[str, int, dict]:
    """A formula that ends in a power and ``'`` (``'... C^alpha'``): the ``'`` closes a
    quote, it is no prime (a prime after a superscript is a double superscript in LaTeX)."""
    if latex.endswith("}'") and "^{" in latex and p.is_(j - 1, "op", "'"):
        return latex[:-1], j - 1, stats
    return latex, j, stats


def math_of(text: str, names: dict | None = None) -> list[Segment]:
    """Text (no code spans) split into text and math segments."""
    p = Parser(long_fractions(text), dict(names or {}))
    out: list[Segment] = []
    buf = ""
    i = 0
    while i < len(p.toks):
        t = p.toks[i]
        prev = p.toks[i - 1] if i else None
        if t.value == "(" and p._enumerator(i):
            buf += "".join(x.value for x in p.toks[i:i + 3])
            i += 3
            continue
        start_ok = prev is None or prev.kind == "ws" or (prev.kind != "word" and prev.kind != "num"
                                                          and prev.value not in ("'", "_", "^", "."))
        if t.value in _RELATIONS and prev is not None and prev.kind == "ws" and p.is_(i + 1, "ws") \
                and p._operand_start(i + 2, attached=False):
            p.features = 0
            try:
                latex, j, stats = _unprimed(p, *p.expr(i + 2, 0))
            except NotAFormula:
                latex = None
            nxt = p.tok(j) if latex is not None else None
            if latex is not None and not (nxt is not None and nxt.kind in ("word", "num")):
                if buf:
                    out.append(Segment("text", buf))
                    buf = ""
                out.append(Segment("math", f"{BINOPS[t.value]} {latex}"))  # "risk <~ N^(-a)"
                i = j
                continue
        if start_ok and p._operand_start(i, attached=False) or (
                start_ok and t.value in ("-",) and p._operand_start(i + 1, attached=True) and
                (prev is None or prev.kind == "ws")):
            p.features = 0
            try:
                latex, j, stats = _unprimed(p, *p.expr(i, 0))
            except NotAFormula:
                latex = None
            if latex is not None and _accept(p, stats, p.features, t, latex) and not _label(p, i):
                nxt = p.tok(j)
                if not (nxt is not None and nxt.kind in ("word", "num")):  # ends inside a word: not a formula
                    if buf:
                        out.append(Segment("text", buf))
                        buf = ""
                    out.append(Segment("math", latex))
                    i = j
                    continue
            # not a formula: copy this token (or this word with its sub-parts) as text
        buf += t.value
        i += 1
    if buf:
        out.append(Segment("text", buf))
    return out


_PROTECT = re.compile(r"\b(?:i\.e\.|e\.g\.|cf\.|vs\.|et al\.)|arXiv:?\s*\d{4}\.\d{4,5}(?:\s*v\d+)?")
_CODE_LIKE = re.compile(r"(?<![\w.])[A-Za-z_]\w*(?:\.[A-Za-z_]\w*){2,}(?![\w.]*\w)")


def segments(text: str, names: dict | None = None, codes=()) -> list[Segment]:
    """``text`` as text, math and code segments: `code spans`, dotted names
    (``pysym.derive.optimize``) and the words in ``codes`` (step ids) after
    "step" are code."""
    text = str(text)
    if "`" not in text:
        text = _CODE_LIKE.sub(lambda m: f"`{m.group()}`", text)
        for c in sorted(codes, key=len, reverse=True):
            text = re.sub(rf"(\b[Ss]teps? ){re.escape(c)}(?![\w`])", rf"\1`{c}`", text)
    parts = text.split("`")
    if len(parts) % 2 == 0:  # an unmatched backtick: no code spans
        parts = [text]
    out: list[Segment] = []
    for k, part in enumerate(parts):
        if k % 2:
            out.append(Segment("code", part))
            continue
        pos = 0
        for m in _PROTECT.finditer(part):
            out.extend(math_of(part[pos:m.start()], names))
            out.append(Segment("text", m.group()))
            pos = m.end()
        out.extend(math_of(part[pos:], names))
    return _merge(out)


def _merge(segs: list[Segment]) -> list[Segment]:
    out: list[Segment] = []
    for s in segs:
        if s.value == "":
            continue
        if out and out[-1].kind == s.kind == "text":
            out[-1] = Segment("text", out[-1].value + s.value)
        else:
            out.append(s)
    return out


def _quotes(text: str) -> str:
    """An opening single quote after a space or ``(`` as LaTeX's opening quote."""
    return re.sub(r"(^|(?<=[\s(]))'(?=\w)", "`", text)


def tex_rich(text, names: dict | None = None, codes=()) -> str:
    """Prose for LaTeX text mode: formulas as ``\\(...\\)``, text escaped
    (:func:`pysym.render.text.tex_prose`), `code spans` in typewriter type."""
    out = []
    for s in segments(text, names, codes):
        if s.kind == "math":
            out.append(rf"\({s.value}\)")
        elif s.kind == "code":
            out.append(tex_prose(f"`{s.value}`"))
        else:
            out.append(re.sub(r"(?<=\d)-(?=\d)", "--", tex_prose(_quotes(s.value))))
    return "".join(out)


def md_rich(text, names: dict | None = None, codes=()) -> str:
    """Prose for Markdown (Jupyter): formulas as ``$...$``, text escaped."""
    out = []
    for s in segments(text, names, codes):
        if s.kind == "math":
            out.append(f"${s.value}$")
        elif s.kind == "code":
            out.append(f"`{s.value}`")
        else:
            out.append(md_prose(s.value))
    return "".join(out)
