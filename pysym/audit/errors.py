"""Errors of the auditor, and text that is safe to show.

:class:`AuditInputError` is a problem in a claims file: the file (with
``:line:column`` for TOML syntax errors), the claim id when the problem is
confined to one claim, and what is wrong.  The command line reports it and
exits with 2; the other claims and files are still audited.

Everything a claims file says may end up on a terminal or in a report, so
control characters (an ``ESC`` starting a terminal escape sequence, a bell,
a carriage return that overwrites the line) and the Unicode controls that
reorder text are never shown raw: :func:`printable` writes them as escapes.

>>> printable("ok\\x1b[31mred\\u202e")
'ok\\\\x1b[31mred\\\\u202e'
>>> print(AuditInputError("a.toml", "bad\\x07id", "`tolerance` must be a number"))
a.toml: claim `bad\\x07id`: `tolerance` must be a number
>>> bad_character("line one\\nline two", allow_newlines=True) is None
True
>>> bad_character("x\\x1by")
'the control character U+001B'
"""

from __future__ import annotations

import unicodedata

__all__ = ["AuditInputError", "ExpressionError", "printable", "bad_character", "one_line"]

# Unicode "format" characters that reorder or hide text (bidirectional overrides and isolates)
_BIDI = set("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def _unsafe(ch: str) -> bool:
    # private-use characters too: the auditor marks the expressions of its own text with two of them
    return unicodedata.category(ch) in ("Cc", "Co") or ch in _BIDI


def printable(text) -> str:
    """``text`` with control and text-reordering characters written as escapes."""
    out = []
    for ch in str(text):
        if ch in "\ue000\ue001":  # the expression markers of pysym.audit.numbers.show: never shown
            continue
        if _unsafe(ch):
            code = ord(ch)
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")
        else:
            out.append(ch)
    return "".join(out)


def bad_character(text: str, *, allow_newlines: bool = False) -> str | None:
    """A description of the first character of ``text`` that may not appear in
    a claims file's text (None if there is none).  Tabs, and newlines when
    ``allow_newlines``, are allowed."""
    for ch in text:
        if ch == "\t" or (allow_newlines and ch in "\n\r"):
            continue
        if _unsafe(ch):
            kind = {"Cc": "control character", "Co": "private-use character"}.get(unicodedata.category(ch),
                                                                                 "text-direction control")
            return f"the {kind} U+{ord(ch):04X}"
    return None


def one_line(text) -> str:
    """``text`` on one line: runs of white space (newlines included) become one space."""
    return " ".join(str(text).split())


class AuditInputError(Exception):
    """A problem in a claims file: where it is and what is wrong."""

    def __init__(self, path: str, claim: str | None, message: str):
        from pysym.audit.numbers import unmark

        self.path, self.claim, self.message = str(path), claim, unmark(str(message))
        super().__init__(self.describe())

    def describe(self) -> str:
        where = printable(self.path) + (f": claim `{printable(self.claim)}`" if self.claim else "")
        return f"{where}: {printable(self.message)}"

    def __str__(self) -> str:
        return self.describe()

    def __reduce__(self):  # picklable although __init__ takes three arguments
        return (AuditInputError, (self.path, self.claim, self.message))

    def to_json(self) -> dict:
        return {"file": self.path, "claim": self.claim, "message": self.message}


class ExpressionError(ValueError):
    """An expression a claims file may not contain, and why."""
