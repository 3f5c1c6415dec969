"""A Lean 4 tokenizer that reads source text the way Lean's parser does.

The source gate (:mod:`pysym.lean.gate`) must see exactly the code Lean sees:
a home-made comment stripper that disagrees with Lean about where a comment,
string or identifier ends lets code hide from the gate.  This module follows
Lean's own lexical rules (``Lean.Parser.Basic``, ``StrInterpolation``,
``Init.Meta``):

* whitespace and comments: ``--`` to the end of the line; ``/- ... -/`` nested;
  ``/--`` and ``/-!`` start *doc comments*, which are tokens whose body is
  read with the same nesting rule;
* identifiers: a first character that is an ASCII letter, ``_`` or
  letter-like (Greek but λ Π Σ, Coptic, the letter-like block, Latin-1 and
  Latin Extended-A letters, ...; measured on this Lean: ``é`` is one), then
  ASCII letters and digits, ``_ ' ! ?``, letter-like characters and
  subscripts; ``«...»`` escapes a component; ``.`` followed by an identifier
  start continues the name;
* string literals with escapes (``\\\\ \\" \\' \\n \\t \\r``, ``\\xHH``,
  ``\\uHHHH``, a backslash-newline gap), raw strings ``r#"..."#``,
  interpolated strings after ``s!`` and ``f!`` (the code between
  ``{`` and ``}`` is tokenized as code);
* character literals: a ``'`` where a token starts that is not followed by
  another ``'``;
* name literals ```name`` and numbers (decimal, scientific, ``0x``, ``0b``,
  ``0o``, with ``_`` separators).

Every other character is a one-character symbol, except ``#word`` (one token:
``#check``, ``#eval``, ...), ``@[``, ``#[`` and ``:=``.  Lean's token table
is not available outside Lean, so where the table could make Lean read a
spot differently (a comment, string or character literal glued to a
preceding symbol, as in ``x<--y``), the token carries ``glued=True`` and the
gate refuses it rather than guess.

Positions are 1-based lines and 0-based columns counted in characters, as
Lean reports them.

>>> [t.text for t in tokenize("theorem t : 1 = 1 := rfl -- done")]
['theorem', 't', ':', '1', '=', '1', ':=', 'rfl']
>>> [(t.kind, t.value) for t in tokenize("def «/-» := 1 /- axiom -/")]
[('ident', 'def'), ('ident', '/-'), ('symbol', ':='), ('number', '1')]
>>> [(t.kind, t.text) for t in tokenize("('\\"' : Char) ∈'\\"' :: []")][:6]
[('symbol', '('), ('char', '\\'"\\''), ('symbol', ':'), ('ident', 'Char'), ('symbol', ')'), ('symbol', '∈')]
>>> [t.text for t in tokenize('s!"a{by native_decide}b"')]
['s!', '"a{', 'by', 'native_decide', '}b"']
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Token", "LexError", "tokenize", "is_id_first", "is_id_rest", "split_name"]

# The interpolated-string prefixes of Init (the only library a file imports besides the project and `Std`):
# `s!` (Init.Data.ToString.Macro) and `f!` (Init.Data.Format.Macro).  Whether another word ending in `!` is one
# depends on what is imported (`m!` is Lean.Message's), so no other is read as one.
INTERPOLATIONS = ("s!", "f!")


class LexError(ValueError):
    """Text Lean's parser would reject at the lexical level (Lean reports an
    error there too), with its position."""

    def __init__(self, message: str, line: int, col: int):
        super().__init__(f"{line}:{col}: {message}")
        self.message, self.line, self.col = message, line, col


@dataclass(frozen=True)
class Token:
    """One token.

    ``kind`` is ``ident``, ``symbol``, ``hash`` (``#check``...), ``number``,
    ``string``, ``char``, ``name`` (a name literal), ``doc`` (a doc comment,
    ``/--`` or ``/-!``), or one of the pieces of an interpolated string:
    ``istr`` (the text from the opening ``"`` or a ``}`` up to the next ``{``
    or the closing ``"``).  ``value`` is the identifier (or name literal)
    with ``«»`` escapes removed, components joined by ``.``; ``parts`` holds
    its components.  ``glued`` marks a literal or comment that directly
    follows a symbol character, where Lean's token table could read the
    text differently.
    """

    kind: str
    text: str
    start: int
    end: int
    line: int
    col: int
    value: str = ""
    parts: tuple[str, ...] = ()
    glued: bool = False
    depth: int = 0  # interpolated-string nesting depth (0: plain code)


# --------------------------------------------------------------------------- character classes


def is_letter_like(c: str) -> bool:
    v = ord(c)
    return ((0x3B1 <= v <= 0x3C9 and v != 0x3BB)  # lower Greek but lambda
            or (0x391 <= v <= 0x3A9 and v not in (0x3A0, 0x3A3))  # upper Greek but Pi, Sigma
            or 0x3CA <= v <= 0x3FB  # Coptic
            or 0x1F00 <= v <= 0x1FFE  # polytonic Greek
            or 0x2100 <= v <= 0x214F  # letter-like block
            or 0x1D49C <= v <= 0x1D59F  # script, double-struck, Fraktur
            or (0xC0 <= v <= 0xFF and v not in (0xD7, 0xF7))  # Latin-1 letters
            or 0x100 <= v <= 0x17F)  # Latin Extended-A


def is_subscript_alnum(c: str) -> bool:
    v = ord(c)
    return 0x2080 <= v <= 0x2089 or 0x2090 <= v <= 0x209C or 0x1D62 <= v <= 0x1D6A or v == 0x2C7C


def _ascii_alpha(c: str) -> bool:
    return ("a" <= c <= "z") or ("A" <= c <= "Z")


def is_id_first(c: str) -> bool:
    """Lean's ``isIdFirst`` (``Char.isAlpha`` is ASCII-only in Lean).

    >>> is_id_first("α"), is_id_first("λ"), is_id_first("∈"), is_id_first("é"), is_id_first("×")
    (True, False, False, True, False)
    """
    return _ascii_alpha(c) or c == "_" or is_letter_like(c)


def is_id_rest(c: str) -> bool:
    """Lean's ``isIdRest``."""
    return (_ascii_alpha(c) or ("0" <= c <= "9") or c in "_'!?"
            or is_letter_like(c) or is_subscript_alnum(c))


_WHITESPACE = " \t\r\n"
_SAFE_BEFORE = set("([{⟨,;") | set(_WHITESPACE)


# --------------------------------------------------------------------------- the tokenizer


class _Lexer:
    def __init__(self, text: str):
        self.text = text
        self.n = len(text)
        self.tokens: list[Token] = []
        self._line_starts = [0]
        for i, ch in enumerate(text):
            if ch == "\n":
                self._line_starts.append(i + 1)

    # positions ---------------------------------------------------------------

    def pos(self, offset: int) -> tuple[int, int]:
        lo, hi = 0, len(self._line_starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self._line_starts[mid] <= offset:
                lo = mid
            else:
                hi = mid - 1
        return lo + 1, offset - self._line_starts[lo]

    def error(self, message: str, offset: int) -> LexError:
        line, col = self.pos(offset)
        return LexError(message, line, col)

    def at(self, i: int) -> str:
        return self.text[i] if i < self.n else ""

    def emit(self, kind, start, end, *, value="", parts=(), glued=False, depth=0) -> None:
        line, col = self.pos(start)
        value = value or self.text[start:end]
        self.tokens.append(Token(kind, self.text[start:end], start, end, line, col, value, tuple(parts),
                                 glued, depth))

    def glued_at(self, start: int) -> bool:
        """A literal or comment starting right after a symbol character."""
        if start == 0:
            return False
        prev = self.text[start - 1]
        return prev not in _SAFE_BEFORE and not is_id_rest(prev) and prev not in "»\"'"

    # whitespace and comments --------------------------------------------------

    def skip_block_comment(self, i: int, start: int) -> int:
        """``i`` just after ``/-`` (or after ``/--``/``/-!``): the end of the
        comment, nesting included (Lean's ``finishCommentBlock``)."""
        depth = 1
        while True:
            if i >= self.n:
                raise self.error("unterminated comment", start)
            c = self.text[i]
            if c == "-" and self.at(i + 1) == "/":
                depth -= 1
                i += 2
                if depth == 0:
                    return i
            elif c == "/" and self.at(i + 1) == "-":
                depth += 1
                i += 2
            else:
                i += 1

    def whitespace(self, i: int) -> tuple[int, list[tuple[int, int]]]:
        """Skip whitespace and comments from ``i``; return the new offset and
        the spans of the comments skipped."""
        comments = []
        while i < self.n:
            c = self.text[i]
            if c == "\t":
                raise self.error("tabs are not allowed (Lean rejects them)", i)
            if c == "\r":
                if self.at(i + 1) != "\n":
                    raise self.error("isolated carriage returns are not allowed", i)
                i += 1
                continue
            if c in " \n":
                i += 1
            elif c == "-" and self.at(i + 1) == "-":
                j = self.text.find("\n", i)
                j = self.n if j < 0 else j
                comments.append((i, j))
                i = j
            elif c == "/" and self.at(i + 1) == "-" and self.at(i + 2) not in ("-", "!"):
                j = self.skip_block_comment(i + 2, i)
                comments.append((i, j))
                i = j
            else:
                break
        return i, comments

    # literals -----------------------------------------------------------------

    def quoted_char(self, i: int, *, in_string: bool, interpolated: bool = False) -> int:
        """``i`` just after a backslash: the offset after the escape."""
        c = self.at(i)
        if c == "":
            raise self.error("unterminated escape", i)
        if c in "\\\"'rnt" or (interpolated and c == "{"):
            return i + 1
        if c == "x":
            return self.hex_digits(i + 1, 2)
        if c == "u":
            return self.hex_digits(i + 1, 4)
        if in_string and c == "\n":
            return self.string_gap(i)
        raise self.error("invalid escape sequence", i)

    def hex_digits(self, i: int, count: int) -> int:
        for k in range(count):
            if self.at(i + k) == "" or self.at(i + k) not in "0123456789abcdefABCDEF":
                raise self.error("invalid hexadecimal numeral in escape", i + k)
        return i + count

    def string_gap(self, i: int) -> int:
        seen_newline = False
        while i < self.n:
            c = self.text[i]
            if c == "\n":
                if seen_newline:
                    raise self.error("unexpected additional newline in string gap", i)
                seen_newline = True
                i += 1
            elif c in _WHITESPACE:
                i += 1
            else:
                break
        return i

    def string(self, start: int) -> int:
        """A plain string literal starting at ``start`` (the ``"``)."""
        i = start + 1
        while True:
            if i >= self.n:
                raise self.error("unterminated string literal", start)
            c = self.text[i]
            if c == '"':
                return i + 1
            if c == "\\":
                i = self.quoted_char(i + 1, in_string=True)
            else:
                i += 1

    def raw_string(self, start: int) -> int:
        """``start`` at the ``r`` of ``r#*"``."""
        i = start + 1
        hashes = 0
        while self.at(i) == "#":
            hashes += 1
            i += 1
        i += 1  # the opening quote
        close = '"' + "#" * hashes
        j = self.text.find(close, i)
        if j < 0:
            raise self.error("unterminated raw string literal", start)
        return j + len(close)

    def char(self, start: int) -> int:
        i = start + 1
        c = self.at(i)
        if c == "":
            raise self.error("unterminated character literal", start)
        i = self.quoted_char(i + 1, in_string=False) if c == "\\" else i + 1
        if self.at(i) != "'":
            raise self.error("missing end of character literal", start)
        return i + 1

    def number(self, start: int) -> int:
        text, i = self.text, start
        if text[i] == "0" and self.at(i + 1) in ("b", "B", "o", "O", "x", "X") and self.at(i + 1) != "":
            base = self.at(i + 1).lower()
            digits = {"b": "01", "o": "01234567", "x": "0123456789abcdefABCDEF"}[base]
            i = self.digits(i + 2, digits, need=True)
            return i
        i = self.digits(i, "0123456789", need=False)
        if self.at(i) in (".", "e", "E") and self.at(i) != "":
            if self.at(i) == ".":
                i += 1
                if self.at(i).isascii() and self.at(i).isdigit():
                    i = self.digits(i, "0123456789", need=False)
            if self.at(i) in ("e", "E") and self.at(i) != "":
                i += 1
                if self.at(i) in ("-", "+") and self.at(i) != "":
                    i += 1
                if not (self.at(i).isascii() and self.at(i).isdigit()):
                    raise self.error("missing exponent digits in scientific literal", i)
                i = self.digits(i, "0123456789", need=False)
        return i

    def digits(self, i: int, allowed: str, need: bool) -> int:
        while i < self.n and (self.text[i] in allowed or self.text[i] == "_"):
            if self.text[i] == "_":
                need = True
            else:
                need = False
            i += 1
        if need:
            raise self.error("expected a digit", i)
        return i

    # identifiers ---------------------------------------------------------------

    def ident(self, start: int) -> tuple[int, list[str]]:
        """An identifier (possibly dotted, possibly with «» escapes)."""
        i, parts = start, []
        while True:
            c = self.at(i)
            if c == "«":
                j = self.text.find("»", i + 1)
                if j < 0:
                    raise self.error("unterminated identifier escape", i + 1)
                parts.append(self.text[i + 1:j])
                i = j + 1
            elif c and is_id_first(c):
                j = i + 1
                while j < self.n and is_id_rest(self.text[j]):
                    j += 1
                parts.append(self.text[i:j])
                i = j
            else:  # pragma: no cover - callers check the first character
                raise self.error("expected an identifier", i)
            if self.at(i) == "." and (self.at(i + 1) == "«" or (self.at(i + 1) and is_id_first(self.at(i + 1)))):
                i += 1
                continue
            return i, parts

    # interpolated strings ---------------------------------------------------------

    def interpolated(self, start: int, depth: int) -> int:
        """``start`` at the opening ``"``; emits ``istr`` pieces and the code
        tokens between ``{`` and ``}``; returns the offset after the closing ``"``."""
        i = start + 1
        piece = start
        while True:
            if i >= self.n:
                raise self.error("unterminated string literal", start)
            c = self.text[i]
            if c == '"':
                self.emit("istr", piece, i + 1, depth=depth + 1)
                return i + 1
            if c == "\\":
                i = self.quoted_char(i + 1, in_string=True, interpolated=True)
            elif c == "{":
                self.emit("istr", piece, i + 1, depth=depth + 1)
                i = self.code(i + 1, depth + 1, stop_at_brace=True)
                if self.at(i) != "}":
                    raise self.error("expected `}` closing an interpolation", i)
                piece = i
                i += 1
            else:
                i += 1

    # the main loop -------------------------------------------------------------------

    def code(self, i: int, depth: int = 0, stop_at_brace: bool = False) -> int:
        braces = 0
        while True:
            i, _ = self.whitespace(i)
            if i >= self.n:
                if stop_at_brace:
                    raise self.error("unterminated interpolation", i)
                return i
            c = self.text[i]
            start = i
            if stop_at_brace and c == "}" and braces == 0:
                return i
            if c == '"':
                prev = self.tokens[-1] if self.tokens else None
                # only the interpolations Init defines: `m!` is an ordinary name without `import Lean`, and a
                # string after it plain text to Lean (a `{` in it is then refused, as any string's may be code);
                # after a glued `.` (`.s!`, `(e).s!`, `e |>.s!`) Lean reads `s!` as a field name, not the keyword
                if prev is not None and prev.kind == "ident" and prev.text in INTERPOLATIONS \
                        and prev.depth == depth and not self._after_glued_dot(len(self.tokens) - 1):
                    i = self.interpolated(i, depth)
                    continue
                i = self.string(i)
                self.emit("string", start, i, glued=self.glued_at(start), depth=depth)
            elif c == "'" and self.at(i + 1) != "'":
                i = self.char(i)
                self.emit("char", start, i, glued=self.glued_at(start), depth=depth)
            elif c.isascii() and c.isdigit():
                prev = self.tokens[-1] if self.tokens else None
                if prev is not None and prev.kind == "symbol" and prev.text == "." and prev.end == start \
                        and len(self.tokens) > 1 and self.tokens[-2].end == prev.start:
                    # a field index (`h.2.elim`): after a `.` glued on both sides Lean reads digits only, not a
                    # scientific literal `2.e…`
                    i = self.digits(i, "0123456789", need=False)
                else:
                    i = self.number(i)
                self.emit("number", start, i, depth=depth)
            elif c == "`" and (self.at(i + 1) == "«" or (self.at(i + 1) and is_id_first(self.at(i + 1)))):
                i, parts = self.ident(i + 1)
                self.emit("name", start, i, value=".".join(parts), parts=parts, depth=depth)
            elif c == "r" and self._raw_start(i + 1):
                i = self.raw_string(i)
                self.emit("string", start, i, glued=self.glued_at(start), depth=depth)
            elif c == "«" or is_id_first(c):
                i, parts = self.ident(i)
                self.emit("ident", start, i, value=".".join(parts), parts=parts, depth=depth)
            elif c == "/" and self.at(i + 1) == "-" and self.at(i + 2) in ("-", "!"):
                i = self.skip_block_comment(i + 3, i)
                self.emit("doc", start, i, glued=self.glued_at(start), depth=depth)
            elif c == "#" and self.at(i + 1) and is_id_first(self.at(i + 1)):
                j = i + 2
                while j < self.n and is_id_rest(self.text[j]):
                    j += 1
                i = j
                self.emit("hash", start, i, value=self.text[start:i], depth=depth)
            elif self.text.startswith(("@[", "#[", ":=", "Σ'", "×'"), i):  # Σ' and ×' are Init's tokens: no char
                i += 2
                self.emit("symbol", start, i, value=self.text[start:i], depth=depth)
            else:
                if c == "{":
                    braces += 1
                elif c == "}":
                    braces -= 1
                i += 1
                self.emit("symbol", start, i, value=c, depth=depth)
            # a comment glued to the token just read (``x<--y``): Lean's token
            # table decides whether `--` starts a comment there
            j, comments = self.whitespace(i)
            for a, _ in comments:
                if a == i and self.tokens and self.tokens[-1].kind == "symbol" and self.glued_at(a):
                    self.tokens[-1] = _replace(self.tokens[-1], glued=True)
            i = j if comments else i

    def _after_glued_dot(self, k: int) -> bool:
        """Whether token ``k`` directly follows a `.` (no space between), where Lean reads a name, not a keyword."""
        if k < 1:
            return False
        dot = self.tokens[k - 1]
        return dot.kind == "symbol" and dot.text.endswith(".") and dot.end == self.tokens[k].start

    def _raw_start(self, i: int) -> bool:
        while self.at(i) == "#":
            i += 1
        return self.at(i) == '"'


def _replace(tok: Token, **changes) -> Token:
    data = dict(tok.__dict__)
    data.update(changes)
    return Token(**data)


def tokenize(text: str) -> list[Token]:
    """The tokens of ``text``; :class:`LexError` where Lean would reject it."""
    lexer = _Lexer(text)
    lexer.code(0)
    return lexer.tokens


def split_name(name: str) -> tuple[str, ...]:
    """Components of a dotted name as written in source (``«»`` escapes
    removed): the form in which option names are compared.

    >>> split_name("«debug».skipKernelTC")
    ('debug', 'skipKernelTC')
    >>> split_name("a.«b.c»")
    ('a', 'b.c')
    """
    tokens = tokenize(name)
    if len(tokens) != 1 or tokens[0].kind != "ident":
        raise ValueError(f"not a name: {name!r}")
    return tokens[0].parts
