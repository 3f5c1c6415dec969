"""Numbers and expressions in verdicts: decimals as written, not fractions.

A claims file writes ``0.4545``; SymPy keeps it as the exact rational
``909/2000``.  :func:`show` prints expressions with such rationals (those
with a finite decimal expansion) as decimals again; genuine fractions such as
``14/31`` stay fractions.  :func:`num` gives a number to a few significant
digits; :func:`tolerance_phrase` says which tolerance decided.

Numbers print as plain text; any other expression is *marked*: its text is
enclosed in :data:`OPEN` and :data:`CLOSE` (two private-use characters), so
that the LaTeX report (:mod:`pysym.render.audit_tex`) can read it back and
typeset it with SymPy's LaTeX printer.  The markers never leave the auditor:
:class:`pysym.audit.verdict.Verdict` keeps a marked copy of its text for the
LaTeX report and strips them (:func:`unmark`) from everything else, and so do
the input errors.

>>> import sympy as sp
>>> x = sp.Symbol("x", positive=True)
>>> show(sp.Rational(909, 2000)), unmark(show(x**sp.Rational(-2383, 10000))), show(sp.Rational(14, 31))
('0.4545', 'x**(-0.2383)', '14/31')
>>> show(x + 1) == OPEN + "x + 1" + CLOSE
True
>>> show(sp.Rational(3, 10**40)), num(sp.Rational(14, 31)), num(2.5e-12, 3)
('3e-40', '0.4516129', '2.5e-12')
>>> unmark(show(sp.Eq(x, 2, evaluate=False)))
'x == 2'
>>> unmark({"a": [show(x), "b"]}), marked_parts("p " + show(x) + " q")
({'a': ['x', 'b']}, ['p ', ('x',), ' q'])
>>> tolerance_phrase("relative", 0.005)
'relative tolerance 0.005'
"""

from __future__ import annotations

import re
from decimal import Decimal, localcontext

import mpmath
import sympy as sp
from sympy.printing.str import StrPrinter

__all__ = ["show", "num", "decimal", "tolerance_phrase", "short", "OPEN", "CLOSE", "mark", "unmark", "marked_parts"]


def decimal(r: sp.Rational) -> str | None:
    """``r`` as an exact decimal string when its expansion terminates, else None."""
    q = int(r.q)
    for f in (2, 5):
        while q % f == 0:
            q //= f
    if q != 1:
        return None
    with localcontext() as ctx:
        ctx.prec = 2000
        d = (Decimal(int(r.p)) / Decimal(int(r.q))).normalize()
    if d == 0:
        return "0"
    if -6 <= d.adjusted() < 16:
        return format(d, "f")
    mantissa, _, exponent = format(d, "e").partition("e")
    return f"{mantissa}e{int(exponent)}"


class _Printer(StrPrinter):
    def _print_Rational(self, expr):
        return decimal(expr) or super()._print_Rational(expr)

    def _print_Equality(self, expr):  # `a == b`, as a claims file writes it, not SymPy's Eq(a, b)
        return f"{self._print(expr.lhs)} == {self._print(expr.rhs)}"


OPEN, CLOSE = "\ue000", "\ue001"  # private-use characters: they enclose an expression that show() printed
_MARKS = re.compile(f"[{OPEN}{CLOSE}]")
_MARKED = re.compile(f"{OPEN}([^{OPEN}{CLOSE}]*){CLOSE}")


def mark(text: str) -> str:
    """``text`` (an expression as :func:`show` prints it) marked as an expression."""
    return f"{OPEN}{unmark(text)}{CLOSE}"


def unmark(value):
    """``value`` (text, or lists and dicts of it) without the expression markers."""
    if isinstance(value, str):
        return _MARKS.sub("", value)
    if isinstance(value, dict):
        return {unmark(k): unmark(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(unmark(v) for v in value)
    return value


def marked_parts(text: str) -> list:
    """``text`` split into plain strings and 1-tuples ``(expression text,)``
    (a marker without its partner is dropped)."""
    out: list = []
    pos = 0
    for m in _MARKED.finditer(text):
        if m.start() > pos:
            out.append(unmark(text[pos:m.start()]))
        out.append((m.group(1),))
        pos = m.end()
    if pos < len(text):
        out.append(unmark(text[pos:]))
    return out


def show(expr) -> str:
    """``expr`` as text, with terminating rationals written as decimals; a
    number as plain text, any other expression marked (:func:`mark`)."""
    if isinstance(expr, (int, float, str)):
        return str(expr)
    e = sp.sympify(expr)
    text = _Printer().doprint(e)
    return text if getattr(e, "is_number", False) and not getattr(e, "free_symbols", True) else mark(text)


def num(v, digits: int = 8) -> str:
    """A number to ``digits`` significant digits (an expression as :func:`show`)."""
    if isinstance(v, sp.Basic) and not v.is_number:
        return show(v)
    try:
        return mpmath.nstr(mpmath.mpf(sp.N(v, 30)) if isinstance(v, sp.Basic) else mpmath.mpf(v), digits)
    except (TypeError, ValueError):
        return show(v)


def short(text: str, limit: int = 90) -> str:
    """``text`` cut to ``limit`` characters (with ``...``); a cut expression loses its markers."""
    text = str(text)
    if len(unmark(text)) <= limit:
        return text
    text = unmark(text)
    return text[: limit - 3] + "..."


def tolerance_phrase(which: str, value: float) -> str:
    """``"relative tolerance 0.005"``: which tolerance, and its value."""
    return f"{which} tolerance {num(value, 6)}"
