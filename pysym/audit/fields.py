"""Field types of claims: strict checks of TOML values, and their conversion.

Each field of a claim kind has a :class:`FieldType`.  Reading a claim checks
the TOML type of every field exactly (a boolean must be a TOML boolean, a
list a TOML list; nothing is coerced), then converts it: expressions are
parsed (:mod:`pysym.audit.expr`), symbol names looked up, ranges checked to be
finite and in order, tolerances to be finite and nonnegative.  A problem is a
:class:`FieldError` whose message says what is wrong; the loader adds the file,
the claim and the field.

>>> import sympy as sp
>>> from pysym.audit.model import SymbolSpec
>>> x = sp.Symbol("x", positive=True)
>>> r = Reader({"x": SymbolSpec("x", x, sp.Integer(1), sp.Integer(10))}, {})
>>> BOUNDS.convert([1, "x**2"], r)
(1, x**2)
>>> for bad in [[10, 1], [1, float("nan")], "abc", [1, 2, 3]]:
...     try:
...         BOUNDS.convert(bad, r)
...     except FieldError as exc:
...         print(exc)
the range [10, 1] is reversed (low must not exceed high)
nan is not a finite number (TOML reads 1e400 as inf)
expected [low, high] (a list of two bounds), got a string
expected [low, high] (a list of two bounds), got a list of 3 items
>>> TOLERANCE.convert(-0.1, r)
Traceback (most recent call last):
...
pysym.audit.fields.FieldError: must be a finite number >= 0 (got -0.1)
>>> TOLERANCE.convert("0.01", r)
Traceback (most recent call last):
...
pysym.audit.fields.FieldError: expected a number, got a string

A *value* (``claimed``, the values of ``at``, table cells, constants) is a
TOML number (exact), a string (an expression; its decimal literals carry their
printed precision), or ``[low, high]`` (an interval):

>>> [str(VALUE.convert(v, r)) for v in (0.46, "0.46", [0.454, 0.455], "0.34 ± 0.01")]
['23/50', '0.46', '[0.454, 0.455]', '(0.34 ± 0.01)']
>>> from pysym.audit.printed import describe
>>> describe(VALUE.convert("0.46", r)), VALUE.convert(0.46, r)
('0.46 = [0.455, 0.465]', 23/50)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import sympy as sp

from pysym.audit.errors import ExpressionError, bad_character, printable
from pysym.audit.expr import parse_expression, parse_relation
from pysym.audit.printed import Printed, interval, midpoint

__all__ = [
    "FieldError", "FieldType", "Reader", "type_name",
    "TEXT", "TEXT_TABLE", "EXPRESSION", "EXPRESSION_TABLE", "RELATION", "EQUATION", "SYMBOL", "SYMBOLS",
    "BOUNDS", "RANGES", "POINT", "SUBSTITUTION", "LIMITS", "TOLERANCE", "RELATIVE_TOLERANCE", "choice",
    "finite_float", "VALUE", "RELATIONS", "NAMES", "TEXTS", "ROWS", "COLUMNS", "REL", "parse_value", "integer_bounds",
]

FLOAT_MAX = 1e300


class FieldError(ValueError):
    """What is wrong with one field's value."""


def type_name(value) -> str:
    """The TOML type of ``value``, for messages."""
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, list):
        return f"a list of {len(value)} item{'s' * (len(value) != 1)}"
    return {int: "an integer", float: "a number", str: "a string", dict: "a table"}.get(type(value),
                                                                                     type(value).__name__)


@dataclass
class Reader:
    """What converting a field needs: the file's symbols and laws."""

    symbols: dict  # name -> SymbolSpec
    laws: dict
    constants: dict = None  # name -> Printed (the file's [constants])
    local: dict = None  # extra names (a table's columns) -> symbols

    @property
    def sym(self) -> dict:
        return {**{n: s.symbol for n, s in self.symbols.items()}, **(self.local or {})}

    @property
    def names(self) -> dict:
        """Laws and constants (an exact constant as its number): the names an
        expression may use besides the symbols."""
        consts = {n: (p.mid if p.exact else p) for n, p in (self.constants or {}).items()}
        return {**consts, **self.laws}

    def expr(self, raw, *, allow_infinity: bool = False):
        try:
            return parse_expression(raw, self.sym, self.names, allow_infinity=allow_infinity)
        except ExpressionError as exc:
            raise FieldError(str(exc)) from None

    def relation(self, raw):
        try:
            return parse_relation(raw, self.sym, self.names)
        except ExpressionError as exc:
            raise FieldError(str(exc)) from None

    def symbol(self, raw, what: str = "a symbol"):
        if not isinstance(raw, str):
            raise FieldError(f"expected the name of {what} of [symbols] (a string), got {type_name(raw)}")
        if raw not in self.symbols:
            raise FieldError(f"`{printable(raw)}` is not a symbol of [symbols] (symbols: "
                             f"{', '.join(self.symbols) or 'none'})")
        return self.symbols[raw].symbol


@dataclass(frozen=True)
class FieldType:
    """A field's type: its name in messages and docs, and its converter."""

    name: str
    convert: Callable  # (raw TOML value, Reader) -> converted value; raises FieldError
    doc: str = ""

    def __repr__(self) -> str:
        return f"FieldType({self.name!r})"


def finite_float(value, what: str = "number") -> float:
    """``value`` (a TOML integer or float, not a boolean) as a finite float."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise FieldError(f"expected a {what}, got {type_name(value)}")
    if isinstance(value, float) and not math.isfinite(value):
        raise FieldError(f"{value} is not a finite number (TOML reads 1e400 as inf)")
    if abs(value) > FLOAT_MAX:
        raise FieldError(f"{value} is too large (numbers are at most 1e300 in magnitude)")
    return float(value)


# --------------------------------------------------------------------------- text


def _text(raw, r=None) -> str:
    if not isinstance(raw, str):
        raise FieldError(f"expected a string, got {type_name(raw)}")
    if not raw.strip():
        raise FieldError("must not be empty")
    bad = bad_character(raw, allow_newlines=True)
    if bad:
        raise FieldError(f"contains {bad}")
    return raw.strip()


def _text_table(raw, r=None) -> dict:
    if not isinstance(raw, dict):
        raise FieldError(f"expected a table like {{ \"fragment\" = \"reason\" }}, got {type_name(raw)}")
    out = {}
    for key, value in raw.items():
        if not key.strip() or bad_character(key):
            raise FieldError(f"key `{printable(key)}` is empty or contains a control character")
        try:
            out[key] = _text(value)
        except FieldError as exc:
            raise FieldError(f"`{printable(key)}`: {exc}") from None
    return out


TEXT = FieldType("text", _text, "a string")
TEXT_TABLE = FieldType("text table", _text_table, "a table of strings")


# --------------------------------------------------------------------------- expressions


def _expression(raw, r: Reader):
    if not isinstance(raw, (str, int, float)) or isinstance(raw, bool):
        raise FieldError(f"expected an expression (a string or a number), got {type_name(raw)}")
    return r.expr(raw)


def _expression_table(raw, r: Reader) -> dict:
    if not isinstance(raw, dict):
        raise FieldError(f"expected a table like {{ name = \"expression\" }}, got {type_name(raw)}")
    out = {}
    for key, value in raw.items():
        if not key.strip() or bad_character(key):
            raise FieldError(f"key `{printable(key)}` is empty or contains a control character")
        try:
            out[key] = _expression(value, r)
        except FieldError as exc:
            raise FieldError(f"`{printable(key)}`: {exc}") from None
    return out


def _relation(raw, r: Reader):
    return r.relation(raw)


def _equation(raw, r: Reader):
    if not isinstance(raw, str):
        raise FieldError(f"expected an equation like \"C = 6*N*D\" (a string), got {type_name(raw)}")
    text = raw.replace("==", "=")
    if text.count("=") != 1 or any(c in text for c in "<>"):
        raise FieldError(f"expected one equation like \"C = 6*N*D\", got `{printable(raw)}`")
    left, right = text.split("=")
    return r.expr(left), r.expr(right)


EXPRESSION = FieldType("expression", _expression, "an expression (a string, or a number)")
EXPRESSION_TABLE = FieldType("expression table", _expression_table, "a table of expressions")
RELATION = FieldType("relation", _relation, "a relation: two expressions and one of <=, <, >=, >, ==")
EQUATION = FieldType("equation", _equation, "an equation \"lhs = rhs\"")


# --------------------------------------------------------------------------- symbols


def _symbols(raw, r: Reader) -> list:
    items = [raw] if isinstance(raw, str) else raw
    if not isinstance(items, list) or not items:
        raise FieldError(f"expected a symbol name or a non-empty list of them, got {type_name(raw)}")
    out = [r.symbol(x) for x in items]
    if len(set(out)) != len(out):
        raise FieldError("names a symbol twice")
    return out


SYMBOL = FieldType("symbol", lambda raw, r: r.symbol(raw), "the name of a symbol of [symbols]")
SYMBOLS = FieldType("symbols", _symbols, "a symbol name, or a list of them")


# --------------------------------------------------------------------------- ranges and points


def _bound_value(e) -> float | None:
    """A bound's value as a float when it is a number (None when it involves symbols)."""
    if e.free_symbols:
        return None
    try:
        value = float(sp.N(e, 30))
    except (TypeError, ValueError, OverflowError):
        raise FieldError(f"the bound {sp.sstr(e)} is not a real number") from None
    if not math.isfinite(value) or abs(value) > FLOAT_MAX:
        raise FieldError(f"the bound {sp.sstr(e)} is not a finite number below 1e300 in magnitude")
    return value


def _bounds(raw, r: Reader):
    if not isinstance(raw, list) or len(raw) != 2:
        raise FieldError(f"expected [low, high] (a list of two bounds), got {type_name(raw)}")
    for b in raw:
        if isinstance(b, float) and not math.isfinite(b):
            raise FieldError(f"{b} is not a finite number (TOML reads 1e400 as inf)")
    # a range is the claim's domain, chosen by the auditor: its numbers are exact, never printed
    lo, hi = midpoint(r.expr(raw[0])), midpoint(r.expr(raw[1]))
    a, b = _bound_value(lo), _bound_value(hi)
    if a is not None and b is not None and a > b:
        raise FieldError(f"the range [{printable(raw[0])}, {printable(raw[1])}] is reversed "
                         "(low must not exceed high)")
    return lo, hi


def integer_bounds(lo, hi, raw=None):
    """An integer symbol's range ``[lo, hi]`` as the integers inside it: numeric ends
    rounded inward (``[1.5, 10]`` is ``[2, 10]``), so that no check ever uses a
    non-integer end as a point; a range with no integer is an input error.
    Symbolic ends are kept (they are bounds on the integers too)."""
    a, b = _bound_value(lo), _bound_value(hi)
    if a is not None:
        lo = sp.ceiling(lo)
    if b is not None:
        hi = sp.floor(hi)
    if a is not None and b is not None and lo > hi:
        shown = f"[{printable(raw[0])}, {printable(raw[1])}]" if raw else f"[{sp.sstr(lo)}, {sp.sstr(hi)}]"
        raise FieldError(f"the range {shown} contains no integer, and the symbol is an integer symbol")
    return lo, hi


def _ranges(raw, r: Reader) -> dict:
    if not isinstance(raw, dict) or not raw:
        raise FieldError(f"expected a table like {{ x = [low, high] }}, got {type_name(raw)}")
    out = {}
    for name, rng in raw.items():
        sym = r.symbol(name)
        try:
            out[sym] = _bounds(rng, r)
            if r.symbols[name].integer:
                out[sym] = integer_bounds(*out[sym], rng)
        except FieldError as exc:
            raise FieldError(f"`{name}`: {exc}") from None
    return out


def outside_range(value, spec) -> str | None:
    """Why ``value`` (a closed expression: numbers and printed constants) may not be a value of ``spec``'s symbol,
    or None: its whole admissible range, bounded by interval arithmetic (not only its printed value, and not
    only a bare printed literal: `"-2.0"` is `-1 * 2.0`), must lie in the symbol's numeric range, and an integer
    symbol's value must be an exact integer.  The laws are read with the symbol's range (`sqrt(x**2)` is `x` for
    a positive `x`), so a value outside it would be computed with the wrong formula."""
    from pysym.audit.boxes import enclose
    from pysym.audit.interval import IntervalError, sign_of
    from pysym.audit.precision import box_of

    value = sp.sympify(value)
    box = box_of([value])
    if spec.integer and (box or not value.is_integer):
        return f"is not an exact integer, and `{spec.name}` is an integer symbol"
    if box:
        try:
            enc = enclose(value, box)
        except IntervalError:
            return "could not be bounded over its printed interval"
        low, high = sp.Rational(enc.low.numerator, enc.low.denominator), sp.Rational(enc.high.numerator,
                                                                                      enc.high.denominator)
        verb = f"(the interval [{sp.sstr(low)}, {sp.sstr(high)}]) reaches"
    else:
        low = high = value
        verb = "lies"
    for bound, gap in ((spec.low, low - sp.sympify(spec.low)), (spec.high, sp.sympify(spec.high) - high)):
        if sp.sympify(bound).free_symbols or sp.sympify(bound) in (sp.oo, -sp.oo):
            continue
        sign = sign_of(gap)
        if sign is None or sign < 0:
            return (f"{verb} outside {spec.name}'s range [{sp.sstr(spec.low)}, {sp.sstr(spec.high)}]"
                    + (" (or cannot be proved inside it)" if sign is None else ""))
    # a bound in other symbols (`range = ["T", 100]`) is not compared here, but the sign it gives the symbol is
    # what the laws were read with (`Abs(k)` is `k` for a positive `k`): the value must have that sign, proved
    for holds, words, strict in ((spec.symbol.is_positive, "positive", True),
                                 (spec.symbol.is_nonnegative, "nonnegative", False)):
        if holds is True:
            sign = sign_of(low)
            if sign is None or sign < 0 or (strict and sign == 0):
                return (f"{verb} outside {spec.name}'s range [{sp.sstr(spec.low)}, {sp.sstr(spec.high)}]: "
                        f"`{spec.name}` is {words} there" + (" (or cannot be proved so)" if sign is None else ""))
            break
    return None


def _point(raw, r: Reader) -> dict:
    """Fixed values: numbers must lie in the symbol's range (integers for integer symbols)."""
    if not isinstance(raw, dict) or not raw:
        raise FieldError(f"expected a table like {{ x = 3.0 }}, got {type_name(raw)}")
    out = {}
    for name, value in raw.items():
        sym = r.symbol(name)
        spec = r.symbols[name]
        try:
            v = parse_value(value, r)
        except FieldError as exc:
            raise FieldError(f"`{name}`: {exc}") from None
        if not {x for x in v.free_symbols if not isinstance(x, Printed)}:  # a closed value: its whole range
            problem = outside_range(v, spec)
            if problem:
                raise FieldError(f"`{name}` = {printable(value)} {problem}")
        out[sym] = v
    return out


def _substitution(raw, r: Reader) -> dict:
    if not isinstance(raw, dict) or not raw:
        raise FieldError(f"expected a table like {{ k = \"T/E\" }}, got {type_name(raw)}")
    out = {}
    for name, value in raw.items():
        sym = r.symbol(name)
        try:
            out[sym] = _expression(value, r)
        except FieldError as exc:
            raise FieldError(f"`{name}`: {exc}") from None
    return out


def _limits(raw, r: Reader) -> dict:
    if not isinstance(raw, dict) or not raw:
        raise FieldError(f"expected a table like {{ n = \"oo\" }}, got {type_name(raw)}")
    out = {}
    for name, value in raw.items():
        sym = r.symbol(name)
        if not isinstance(value, (str, int, float)) or isinstance(value, bool):
            raise FieldError(f"`{name}`: expected an expression or \"oo\", got {type_name(value)}")
        out[sym] = r.expr(value, allow_infinity=True)
    return out


BOUNDS = FieldType("bounds", _bounds, "[low, high]: numbers or expressions in the symbols")
RANGES = FieldType("ranges", _ranges, "a table { x = [low, high], ... } of symbols of [symbols]")
POINT = FieldType("point", _point, "a table { x = value, ... } fixing symbols (values inside their ranges)")
SUBSTITUTION = FieldType("substitution", _substitution, "a table { x = \"expression\", ... }")
LIMITS = FieldType("limits", _limits, "a table { x = \"oo\" or a value, ... }")


# --------------------------------------------------------------------------- numbers and choices


def _tolerance(raw, r=None) -> float:
    value = finite_float(raw)
    if value < 0:
        raise FieldError(f"must be a finite number >= 0 (got {raw})")
    return value


def _relative_tolerance(raw, r=None) -> float:
    value = _tolerance(raw)
    if value >= 1:
        raise FieldError(f"a relative tolerance must be below 1 (got {raw}); 1 or more accepts any value "
                         "of the same sign")
    return value


TOLERANCE = FieldType("tolerance", _tolerance, "a number >= 0")


def _boolean(raw, r=None) -> bool:
    if not isinstance(raw, bool):
        raise FieldError(f"expected true or false, got {type_name(raw)}")
    return raw


BOOLEAN = FieldType("boolean", _boolean, "true or false")
RELATIVE_TOLERANCE = FieldType("relative tolerance", _relative_tolerance, "a number in [0, 1)")


def choice(*options: str) -> FieldType:
    """A string that must be one of ``options``."""

    def convert(raw, r=None):
        if not isinstance(raw, str):
            raise FieldError(f"expected one of {', '.join(options)} (a string), got {type_name(raw)}")
        if raw not in options:
            raise FieldError(f"must be one of {', '.join(options)} (got `{printable(raw)}`)")
        return raw

    return FieldType("one of " + " | ".join(options), convert, "one of " + ", ".join(f"`{o}`" for o in options))


# --------------------------------------------------------------------------- values, lists and tables


def parse_value(raw, r: Reader):
    """A value: a TOML number (exact), a string (an expression whose decimal
    literals carry their printed precision), or ``[low, high]`` (an interval
    with exact ends)."""
    if isinstance(raw, list):
        if len(raw) != 2:
            raise FieldError(f"an interval is [low, high] (a list of two numbers), got {type_name(raw)}")
        ends = []
        for x in raw:
            if isinstance(x, str):
                v = r.expr(f"exact({x})") if x.strip() else None
                if v is None or not v.is_Rational:
                    raise FieldError(f"the interval's ends must be numbers, got `{printable(x)}`")
                ends.append(v)
            else:
                finite_float(x, "number (an end of the interval)")
                ends.append(x)
        text = "[" + ", ".join(x.strip() if isinstance(x, str) else repr(x) for x in raw) + "]"
        try:
            return interval(text, *ends)
        except ValueError as exc:
            raise FieldError(str(exc)) from None
    return _expression(raw, r)


def _relations(raw, r: Reader) -> list:
    items = [raw] if isinstance(raw, str) else raw
    if not isinstance(items, list) or not items:
        raise FieldError(f"expected a relation or a non-empty list of relations, got {type_name(raw)}")
    out = []
    for i, x in enumerate(items, start=1):
        try:
            out.append(r.relation(x))
        except FieldError as exc:
            raise FieldError(f"relation {i}: {exc}" if len(items) > 1 else str(exc)) from None
    return out


def _names(raw, r=None) -> list:
    import re

    if not isinstance(raw, list) or not raw or not all(isinstance(x, str) for x in raw):
        raise FieldError(f"expected a non-empty list of names (strings), got {type_name(raw)}")
    for x in raw:
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", x):
            raise FieldError(f"`{printable(x)}` is not a usable name (letters, digits and _)")
    if len(set(raw)) != len(raw):
        raise FieldError("names a column twice")
    return list(raw)


def _texts(raw, r=None) -> list:
    if not isinstance(raw, list) or not raw:
        raise FieldError(f"expected a non-empty list of strings, got {type_name(raw)}")
    return [_text(x) for x in raw]


def _columns(raw, r: Reader) -> list:
    """A table's column names; the claim's later fields may use them as symbols
    (a name of [symbols] is that symbol, so that laws apply to the column)."""
    from pysym.audit.expr import CONSTANTS, FUNCTIONS

    names = _names(raw)
    reserved = [n for n in names if n in CONSTANTS or n in FUNCTIONS or n == "exact"]
    if reserved:
        raise FieldError(f"`{reserved[0]}` is a function or a constant of the expression language (E is e = "
                         "2.718...), not a usable column name")
    clash = [n for n in names if n in r.names]
    if clash:
        raise FieldError(f"`{clash[0]}` is a law or a constant of the file, not a column name")
    local = {n: sp.Symbol(n, real=True) for n in names if n not in r.symbols}
    r.local = {**(r.local or {}), **local}
    return [r.symbols[n].symbol if n in r.symbols else local[n] for n in names]


def _rows(raw, r: Reader) -> list:
    """A table's rows: lists of values (numbers, printed strings, intervals)."""
    if not isinstance(raw, list) or not raw or not all(isinstance(row, list) and row for row in raw):
        raise FieldError(f"expected a list of rows, each a non-empty list of values, got {type_name(raw)}")
    out = []
    for i, row in enumerate(raw, start=1):
        cells = []
        for j, cell in enumerate(row, start=1):
            try:
                v = parse_value(cell, Reader({}, {}))
            except FieldError as exc:
                raise FieldError(f"row {i}, column {j}: {exc}") from None
            cells.append(v)
        out.append(cells)
    return out


VALUE = FieldType("value", parse_value, "a number (exact), a string (printed precision), or [low, high]")
RELATIONS = FieldType("relations", _relations, "a relation, or a list of relations")
NAMES = FieldType("names", _names, "a list of names")
TEXTS = FieldType("texts", _texts, "a list of strings")
ROWS = FieldType("rows", _rows, "a list of rows, each a list of values (numbers, printed strings, [low, high])")
COLUMNS = FieldType("columns", _columns, "a list of column names (usable as symbols in the claim's formula)")
REL = choice("==", "<", "<=", ">", ">=")
