r"""Plain text into LaTeX and Markdown: escaping, Unicode, code spans.

Text written by derivation authors and by the verifier (step texts,
justifications, Lean statements) is plain text: it may contain LaTeX's
special characters, Unicode from Lean (``∀ → ≤ ⟪ ⟫ μ ε Γ``) and code spans
in backticks.  :func:`tex_prose` makes it safe for pdflatex with only the
standard fonts: specials are escaped, ``<=``/``>=``/``->`` become the math
symbols, every non-ASCII character is mapped to a LaTeX command (Greek
letters and common math symbols; anything else is written as ``[U+XXXX]``
rather than breaking the build), and backtick spans become ``\texttt``
with break points, so long Lean names and expressions wrap instead of
running into the margin.

>>> print(tex_escape("50% of N_a & #1 costs $3 {~^\\}"))
50\% of N\_a \& \#1 costs \$3 \{\textasciitilde{}\textasciicircum{}\textbackslash{}\}
>>> print(tex_prose("C(T,k) <= T^k"))
C(T,k) \ensuremath{\le} T\textasciicircum{}k
>>> print(tex_prose("`MoeTheory.choose_le_pow` holds"))
\texttt{\frenchspacing MoeTheory.\allowbreak{}choose\char95{}\allowbreak{}le\char95{}\allowbreak{}pow} holds
>>> print(tex_escape("∀ ε ≤ Γ, ⟪x⟫, café, ☃"))
\ensuremath{\forall} \ensuremath{\varepsilon} \ensuremath{\le} \ensuremath{\Gamma}, \ensuremath{\langle\!\langle}x\ensuremath{\rangle\!\rangle}, caf\'{e}, [U+2603]
>>> print(md_prose("N_a * 2 costs $3; see `a_b`"))
N\_a \* 2 costs \$3; see `a_b`
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["tex_escape", "tex_prose", "tex_code", "tex_pdfstring", "md_prose", "md_escape", "unicode_to_tex",
           "sentence", "drop_prefix"]

# --------------------------------------------------------------------------- plain text


def sentence(text: str) -> str:
    """``text`` ending with a full stop (added unless it ends with . ! or ?)."""
    text = str(text).rstrip()
    return text if not text or text[-1] in ".!?" else text + "."


def drop_prefix(text: str, prefix: str) -> str:
    """``text`` without a leading ``prefix`` (and the ``: ;`` after it)."""
    text = str(text)
    return text[len(prefix):].lstrip(":; ") if text.startswith(prefix) else text


# --------------------------------------------------------------------------- LaTeX

_SPECIAL = {
    "\\": r"\textbackslash{}",
    "{": r"\{",
    "}": r"\}",
    "_": r"\_",
    "%": r"\%",
    "&": r"\&",
    "#": r"\#",
    "$": r"\$",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "<": r"\textless{}",  # the default OT1 text fonts have no < > |
    ">": r"\textgreater{}",
    "|": r"\textbar{}",
}

_PROSE_SEQUENCES = {
    "<=": r"\ensuremath{\le}",
    ">=": r"\ensuremath{\ge}",
    "!=": r"\ensuremath{\ne}",
    "->": r"\ensuremath{\to}",
    "<-": r"\ensuremath{\leftarrow}",
}

_MATH_SYMBOLS = {
    "∀": r"\forall", "∃": r"\exists", "→": r"\to", "←": r"\leftarrow", "↔": r"\leftrightarrow",
    "⇒": r"\Rightarrow", "⇔": r"\Leftrightarrow", "↦": r"\mapsto", "≤": r"\le", "≥": r"\ge",
    "≠": r"\ne", "≈": r"\approx", "≡": r"\equiv", "∧": r"\wedge", "∨": r"\vee", "¬": r"\neg",
    "∈": r"\in", "∉": r"\notin", "⊆": r"\subseteq", "⊂": r"\subset", "∪": r"\cup", "∩": r"\cap",
    "∅": r"\emptyset", "×": r"\times", "·": r"\cdot", "∘": r"\circ", "↑": r"\uparrow",
    "↓": r"\downarrow", "∑": r"\sum", "∏": r"\prod", "∞": r"\infty", "√": r"\surd", "∣": r"\mid",
    "⌊": r"\lfloor", "⌋": r"\rfloor", "⌈": r"\lceil", "⌉": r"\rceil", "⟨": r"\langle", "⟩": r"\rangle",
    "⟪": r"\langle\!\langle", "⟫": r"\rangle\!\rangle", "±": r"\pm", "∂": r"\partial",
    "ℕ": r"\mathbb{N}", "ℤ": r"\mathbb{Z}", "ℚ": r"\mathbb{Q}", "ℝ": r"\mathbb{R}", "ℂ": r"\mathbb{C}",
    "⁻": r"^{-}", "¹": r"^{1}", "²": r"^{2}", "³": r"^{3}", "′": r"'", "≫": r"\gg", "≪": r"\ll",
    "∼": r"\sim", "⊢": r"\vdash", "⊤": r"\top", "⊥": r"\bot", "ℓ": r"\ell", "⋯": r"\cdots",
    "‖": r"\|", "⊙": r"\odot", "⊗": r"\otimes", "⊕": r"\oplus", "⋃": r"\bigcup", "⋂": r"\bigcap",
    "∖": r"\setminus", "≃": r"\simeq", "≅": r"\cong", "⟶": r"\longrightarrow", "∗": r"\ast",
}
_MATH_SYMBOLS.update({chr(0x2080 + i): f"_{{{i}}}" for i in range(10)})  # ₀ ... ₉

_TEXT_SYMBOLS = {
    "–": "--", "—": "---", "‘": "`", "’": "'", "“": "``", "”": "''", "…": r"\ldots{}",
    "\u00a0": "~", "§": r"\S{}", "°": r"\ensuremath{^\circ}",
}

_ACCENTS = {"\u0301": "'", "\u0300": "`", "\u0302": "^", "\u0308": '"', "\u0303": "~", "\u0327": "c"}

_GREEK_VARIANTS = {"epsilon": "varepsilon", "phi": "varphi"}  # as Lean users expect them to look
_GREEK_NO_TEX = {"alpha", "beta", "epsilon", "zeta", "eta", "iota", "kappa", "mu", "nu", "omicron",
                 "rho", "tau", "chi"}  # capitals that are Latin letters in LaTeX


def unicode_to_tex(ch: str) -> str:
    """One non-ASCII character as LaTeX that pdflatex sets with its standard fonts."""
    if ch in _MATH_SYMBOLS:
        return rf"\ensuremath{{{_MATH_SYMBOLS[ch]}}}"
    if ch in _TEXT_SYMBOLS:
        return _TEXT_SYMBOLS[ch]
    name = unicodedata.name(ch, "")
    m = re.fullmatch(r"(?:MATHEMATICAL ITALIC )?GREEK (SMALL|CAPITAL) LETTER ([A-Z]+)(?: SYMBOL)?", name)
    if m:
        letter = m.group(2).lower()
        letter = {"lamda": "lambda"}.get(letter, letter)
        if m.group(1) == "SMALL":
            if letter == "omicron":
                return "o"
            return rf"\ensuremath{{\{_GREEK_VARIANTS.get(letter, letter)}}}"
        if letter in _GREEK_NO_TEX:
            return {"alpha": "A", "beta": "B", "epsilon": "E", "zeta": "Z", "eta": "H", "iota": "I",
                    "kappa": "K", "mu": "M", "nu": "N", "omicron": "O", "rho": "P", "tau": "T",
                    "chi": "X"}[letter]
        return rf"\ensuremath{{\{letter.capitalize()}}}"
    decomposed = unicodedata.normalize("NFD", ch)
    if len(decomposed) == 2 and decomposed[0].isascii() and decomposed[1] in _ACCENTS:
        return rf"\{_ACCENTS[decomposed[1]]}{{{decomposed[0]}}}"
    return f"[U+{ord(ch):04X}]"


_TOKEN = re.compile(r"<=|>=|!=|->|<-|[\\{}_%&#$~^<>|]|[^\x00-\x7f]")
_BREAK = "\x00"  # placeholder for a permitted line break, inserted before escaping
_BREAK_AFTER = {"prose": "*/,=(_", "code": "._,(*/="}
_LONG = 18  # tokens longer than this get break points in prose


# In typewriter type the font has every ASCII glyph at its code point.
_CODE_SPECIAL = dict(_SPECIAL, **{c: rf"\char{ord(c)}{{}}" for c in "\\{}_~^<>|"})


def _escape(text: str, sequences: bool, code: bool = False) -> str:
    special = _CODE_SPECIAL if code else _SPECIAL

    def sub(m: re.Match) -> str:
        tok = m.group(0)
        if len(tok) == 2:
            return _PROSE_SEQUENCES[tok] if sequences else "".join(special.get(c, c) for c in tok)
        if tok in special:
            return special[tok]
        return unicode_to_tex(tok)

    pattern = _TOKEN if sequences else re.compile(r"[\\{}_%&#$~^<>|]|[^\x00-\x7f]")
    return pattern.sub(sub, text).replace(_BREAK, r"\allowbreak{}")


def tex_escape(text: str) -> str:
    """Escape plain text for LaTeX text mode (no other change)."""
    return _escape(str(text).replace(_BREAK, ""), sequences=False)


def _with_breaks(text: str, chars: str, long: int = 0, chunk: int = 24) -> str:
    """Mark break points in words longer than ``long``: after any of ``chars``,
    and inside any stretch of more than ``chunk`` characters without one."""
    def mark(word: str) -> str:
        if len(word) <= long:
            return word
        out, run = [], 0
        for i, c in enumerate(word):
            out.append(c)
            run += 1
            last = i + 1 == len(word)
            if not last and ((c in chars and word[i + 1] not in chars + ")") or run >= chunk):
                out.append(_BREAK)
                run = 0
        return "".join(out)

    return re.sub(r"\S+", lambda m: mark(m.group(0)), text)


def tex_code(text: str) -> str:
    """Text set in typewriter type (Lean names, statements, SymPy output),
    breakable after ``. _ , ( * / =`` and at spaces."""
    text = str(text).replace(_BREAK, "")
    return r"\texttt{\frenchspacing " + _escape(_with_breaks(text, _BREAK_AFTER["code"]), False, code=True) + "}"


def tex_prose(text: str) -> str:
    """Prose: escaped, ``<=``-style operators as symbols, `code spans` in
    typewriter type, very long tokens breakable."""
    parts = str(text).replace(_BREAK, "").split("`")
    if len(parts) % 2 == 0:  # an unmatched backtick: treat it literally
        parts = [str(text).replace(_BREAK, "")]
    out = []
    for i, part in enumerate(parts):
        if i % 2:
            out.append(tex_code(part))
        else:
            out.append(_escape(_with_breaks(part, _BREAK_AFTER["prose"], _LONG), sequences=True))
    return "".join(out)


def tex_pdfstring(text: str) -> str:
    """Text for a PDF bookmark (the second argument of ``\\texorpdfstring``):
    specials escaped, ``<=``-style operators and non-ASCII characters spelled in ASCII."""
    text = str(text)
    for seq, word in (("<=", " <= "), (">=", " >= "), ("->", " -> ")):
        text = text.replace(seq, word)
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c if c.isascii() else _ascii_name(c) for c in text if not unicodedata.combining(c))
    text = re.sub(r" {2,}", " ", text)
    return re.sub(r"[\\{}_%&#$~^]", lambda m: _SPECIAL[m.group(0)], text)  # < > | are fine there


def _ascii_name(ch: str) -> str:
    m = re.fullmatch(r"GREEK (SMALL|CAPITAL) LETTER ([A-Z]+)", unicodedata.name(ch, ""))
    if m:
        return m.group(2).lower() if m.group(1) == "SMALL" else m.group(2).capitalize()
    return {"≤": "<=", "≥": ">=", "→": "->", "×": "x", "·": "*", "–": "-", "—": "--"}.get(ch, "?")


# --------------------------------------------------------------------------- Markdown

_MD_SPECIAL = re.compile(r"([\\*_<>#$|~]|\](?=\())")  # not [ ]: Jupyter reads \[ as math


def md_escape(text: str) -> str:
    """Escape plain text for a Jupyter Markdown cell (no math, no emphasis)."""
    return _MD_SPECIAL.sub(r"\\\1", str(text))


_MD_SEQUENCES = re.compile(r"<=|>=|!=|->")
_MD_SYMBOLS = {"<=": "≤", ">=": "≥", "!=": "≠", "->": "→"}


def md_prose(text: str) -> str:
    """Prose for Markdown: escaped, ``<=``-style operators as symbols, `code spans` kept as code."""
    parts = str(text).split("`")
    if len(parts) % 2 == 0 or "``" in str(text):
        # only single backticks, in pairs, make code spans: CommonMark pairs runs of equal length, so an unpaired
        # run (```) would leave what follows it as live inline HTML
        parts = [str(text)]

    def plain(p: str) -> str:
        return md_escape(_MD_SEQUENCES.sub(lambda m: _MD_SYMBOLS[m.group(0)], p))

    return "".join(f"`{p}`" if i % 2 else plain(p) for i, p in enumerate(parts))
