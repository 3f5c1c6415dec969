"""Expressions in claims files: a small parser with bounded sizes.

A claims file's expressions are read by a recursive-descent parser, never by
``eval``: numbers, the file's symbols and laws, ``+ - * / **``, parentheses,
the functions in :data:`FUNCTIONS` and the constants ``E``, ``pi`` (and
``oo`` where a limit target is expected).  A *relation* adds one comparison
``<=``, ``<``, ``>=``, ``>`` or ``==``.

Every expression is built with bounded sizes, so that no claims file can make
the parser (or SymPy's eager arithmetic behind it) hang or exhaust memory; the
limits are in :data:`LIMITS`:

* a number written in the file lies in [1e-300, 1e300] in magnitude (or is 0);
* exact numbers stay below ``max_bits`` bits: ``2**2**2**2**2**2`` is refused
  before SymPy starts computing it;
* an integer exponent of a non-numeric base is at most ``max_exponent``;
* ``factorial`` of a number at most ``max_factorial``; ``binomial`` of numbers
  at most ``max_binomial``; ``diff`` to total order at most ``max_diff_order``;
* at most ``max_length`` characters and ``max_depth`` levels of nesting.

Undefined or non-real values (``1/0``, ``log(0)``, ``sqrt(-1)``) are errors.

Numbers carry their printed precision (:mod:`pysym.audit.printed`): a decimal
literal with a point or an exponent (``0.34``, ``85e9``) becomes a printed
constant standing for ±½ unit in its last digit, ``0.34 ± 0.01`` (or
``0.34 +/- 0.01``) and ``[0.33, 0.35]`` for that interval; integer literals
are exact, and
``exact(...)`` takes every number inside it -- literals, named constants, and
those of the laws it uses -- at its printed value.  The size and definedness checks below
apply to the printed values.

>>> import sympy
>>> N = sympy.Symbol("N", positive=True)
>>> parse_expression("2*N**2 + log(N)", {"N": N}, {})
2*N**2 + log(N)
>>> parse_expression("-N**2", {"N": N}, {})
-N**2
>>> parse_relation("N**exact(0.5) <= 10", {"N": N}, {})
sqrt(N) <= 10
>>> e = parse_expression("1.69 + (406.4 ± 0.1)/N**0.34", {"N": N}, {})
>>> e, sorted(str(p) for p in e.atoms(Printed))
(1.69 + (406.4 ± 0.1)/N**0.34, ['(406.4 ± 0.1)', '0.34', '1.69'])
>>> for text in ["N + M", "1/0", "log(0)", "factorial(10**9)", "2**2**2**2**2**2", "diff(N**2, N, 100000)",
...              "1e400", "N < 2"]:
...     try:
...         parse_expression(text, {"N": N}, {})
...     except ExpressionError as exc:
...         print(exc)
unknown symbol `M`
`1/0`: division by zero
`log(0)` is undefined
`factorial(1000000000)`: factorial of a number above 500 (the limit for exact factorials)
`2**65536`: the exact number 2**65536 would have more than 4096 bits
`diff`: the total order of differentiation is at most 10 (got 100000)
`1e400`: numbers in claims files must lie between 1e-300 and 1e300 in magnitude
`N < 2` is a relation, but a value is expected here
"""

from __future__ import annotations

import math
import re

import sympy as sp

from pysym.audit.definedness import NEEDS, lost, power_conditions
from pysym.audit.errors import ExpressionError, printable
from pysym.audit.printed import Printed, interval, midpoint, plus_minus, printed_literal

__all__ = ["Printed", "parse_expression", "parse_relation", "parse_number", "FUNCTIONS", "CONSTANTS", "LIMITS", "RELATIONS"]

LIMITS = {
    "max_length": 4000,
    "max_depth": 60,
    "max_bits": 4096,
    "max_exponent": 1000,
    "max_factorial": 500,
    "max_binomial": 4096,
    "max_diff_order": 10,
    "max_literal": sp.Integer(10) ** 300,
}

FUNCTIONS = {
    "log": sp.log,
    "exp": sp.exp,
    "sqrt": sp.sqrt,
    "binomial": sp.binomial,
    "factorial": sp.factorial,
    "diff": sp.diff,
    "Min": sp.Min,
    "Max": sp.Max,
    "Abs": sp.Abs,
}
_ARITY = {"log": (1, 2), "exp": (1, 1), "sqrt": (1, 1), "binomial": (2, 2), "factorial": (1, 1),
          "Min": (1, 20), "Max": (1, 20), "Abs": (1, 1)}
CONSTANTS = {"E": sp.E, "pi": sp.pi, "oo": sp.oo}
RELATIONS = {"<=": sp.Le, ">=": sp.Ge, "==": sp.Eq, "<": sp.Lt, ">": sp.Gt}

_TOKEN = re.compile(r"(?P<num>\d+(?:\.\d*)?(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?)"
                    r"|(?P<name>[A-Za-z_][A-Za-z0-9_]*)"
                    r"|(?P<op>\+/-|±|\*\*|<=|>=|==|[-+*/(),<>\[\]])")
_PLUS_MINUS = ("±", "+/-")
_SPACE = " \t\r\n"


def parse_expression(text, symbols: dict, laws: dict, *, allow_infinity: bool = False) -> sp.Expr:
    """The SymPy value of ``text`` (a string, or a TOML integer or float).

    ``symbols`` and ``laws`` map names to SymPy objects.  A relation is an
    error here (use :func:`parse_relation`); ``oo`` only with ``allow_infinity``.
    """
    if isinstance(text, bool):
        raise ExpressionError(f"expected an expression, got the boolean {str(text).lower()}")
    if isinstance(text, (int, float)):
        return parse_number(text)
    value = _build(text, symbols, laws, allow_infinity)
    if isinstance(value, sp.core.relational.Relational):
        raise ExpressionError(f"`{_short(text)}` is a relation, but a value is expected here")
    return value


def parse_relation(text, symbols: dict, laws: dict) -> sp.core.relational.Relational:
    """The SymPy relation of ``text``: two expressions and one comparison."""
    if not isinstance(text, str):
        raise ExpressionError(f"expected a relation such as \"x <= 1\" (a string), got {_type(text)}")
    value = _build(text, symbols, laws, False)
    if not isinstance(value, sp.core.relational.Relational):
        raise ExpressionError(f"`{_short(text)}` has no comparison (<=, <, >=, > or ==)")
    return value


def _build(text, symbols, laws, allow_infinity):
    try:
        return _Parser(text, symbols, laws, allow_infinity).parse()
    except ExpressionError:
        raise
    except (TypeError, ValueError, AttributeError, ZeroDivisionError, OverflowError, NotImplementedError,
            RecursionError) as exc:  # SymPy refusing to build it: still the file's problem, not a crash
        raise ExpressionError(f"`{_short(text)}` cannot be built ({type(exc).__name__}: {_short(exc, 80)})") from None


def parse_number(value) -> sp.Expr:
    """A TOML integer or float as an exact SymPy number (finite, bounded)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ExpressionError(f"expected a number, got {_type(value)}")
    if isinstance(value, float) and not math.isfinite(value):
        raise ExpressionError(f"{value} is not a finite number (TOML reads 1e400 as inf)")
    number = sp.Integer(value) if isinstance(value, int) else sp.Rational(repr(value))
    _check_literal(number, repr(value))
    return number


def _type(value) -> str:
    return {bool: "a boolean", int: "an integer", float: "a number", str: "a string", list: "a list",
            dict: "a table"}.get(type(value), type(value).__name__)


def _short(text, n: int = 60) -> str:
    text = printable(" ".join(str(text).split()))
    return text if len(text) <= n else text[: n - 3] + "..."


def _check_literal(number, shown: str) -> None:
    if number != 0 and not (1 / LIMITS["max_literal"] <= abs(number) <= LIMITS["max_literal"]):
        raise ExpressionError(f"`{shown}`: numbers in claims files must lie between 1e-300 and 1e300 in magnitude")


def _operand(e) -> str:
    text = _short(sp.sstr(e), 30)
    atomic = e.is_Symbol or e.is_Integer and e >= 0 or (e.is_Function and not e.is_Pow)
    return text if atomic else f"({text})"


def _printed_value(e):
    """``e`` at the printed values of its printed constants (for the size and definedness checks)."""
    return midpoint(e) if isinstance(e, sp.Basic) and e.has(Printed) else e


def _bits(r: sp.Rational) -> int:
    return max(int(abs(r.p)).bit_length(), int(r.q).bit_length())


class _Parser:
    """expr := term (('+'|'-') term)*; term := unary (('*'|'/') unary)*;
    unary := ('+'|'-') unary | power; power := atom ('**' unary)?;
    atom := number | name | name '(' args ')' | '(' expr ')'."""

    def __init__(self, text, symbols, laws, allow_infinity):
        if not isinstance(text, str) or not text.strip():
            raise ExpressionError(f"expected an expression, got {_type(text) if not isinstance(text, str) else 'an empty string'}")
        if len(text) > LIMITS["max_length"]:
            raise ExpressionError(f"expressions are at most {LIMITS['max_length']} characters long (got {len(text)})")
        self.text, self.symbols, self.laws, self.allow_infinity = text, symbols, laws, allow_infinity
        self.tokens = self._tokenize(text)
        self.i = 0
        self.depth = 0
        self.exact = 0  # > 0 inside exact(...)

    def _tokenize(self, text):
        out, pos = [], 0
        while pos < len(text):
            if text[pos] in _SPACE:
                pos += 1
                continue
            m = _TOKEN.match(text, pos)
            if not m:
                raise ExpressionError(f"cannot read `{_short(text[pos:pos + 15])}` (allowed: numbers, symbols, laws, "
                                      "+ - * / ** ( ), one comparison, and the functions " + ", ".join(FUNCTIONS) + ")")
            kind = m.lastgroup
            out.append((kind, m.group(kind)))
            pos = m.end()
        return out

    # ---------------------------------------------------------------- grammar

    def parse(self):
        value = self.expr()
        if self.peek() in RELATIONS:
            op = self.take()[1]
            rhs = self.expr()
            if self.peek() in RELATIONS:
                raise ExpressionError(f"`{_short(self.text)}`: at most one comparison is allowed")
            value = RELATIONS[op](value, rhs, evaluate=False)
        if self.i != len(self.tokens):
            raise ExpressionError(f"`{_short(self.text)}` is not a well-formed expression "
                                  f"(unexpected `{printable(self.tokens[self.i][1])}`)")
        for side in (value.args if isinstance(value, sp.core.relational.Relational) else (value,)):
            self.check_defined(side, self.text)
        return value

    def peek(self):
        return self.tokens[self.i][1] if self.i < len(self.tokens) else None

    def take(self):
        if self.i >= len(self.tokens):
            raise ExpressionError(f"`{_short(self.text)}` is not a well-formed expression (it ends too early)")
        tok = self.tokens[self.i]
        self.i += 1
        return tok

    def expect(self, op):
        kind, val = self.take()
        if val != op:
            raise ExpressionError(f"`{_short(self.text)}` is not a well-formed expression (expected `{op}`, "
                                  f"found `{printable(val)}`)")

    def nest(self):
        self.depth += 1
        if self.depth > LIMITS["max_depth"]:
            raise ExpressionError(f"expressions nest at most {LIMITS['max_depth']} levels deep")

    def expr(self):
        self.nest()
        value = self.term()
        while self.peek() in ("+", "-"):
            op = self.take()[1]
            rhs = self.term()
            value = self.arith(value, rhs, op)
        self.depth -= 1
        return value

    def term(self):
        value = self.unary()
        while self.peek() in ("*", "/"):
            op = self.take()[1]
            rhs = self.unary()
            value = self.arith(value, rhs, op)
        return value

    def unary(self):
        if self.peek() in ("+", "-"):
            op = self.take()[1]
            self.nest()
            value = self.unary()
            self.depth -= 1
            return -value if op == "-" else value
        return self.power()

    def power(self):
        base = self.atom()
        if self.peek() == "**":
            self.take()
            self.nest()
            exp = self.unary()
            self.depth -= 1
            return self.pow(base, exp)
        return base

    def atom(self):
        kind, val = self.take()
        if kind == "num":
            number = self.number(val)
            if self.peek() in _PLUS_MINUS:
                self.take()
                kind2, err = self.take()
                if kind2 != "num":
                    raise ExpressionError(f"`{_short(self.text)}`: ± must be followed by a number (the error)")
                self.number(err)
                if self.exact:
                    raise ExpressionError(f"`{val} ± {err}` inside exact(...): an exact number has no error")
                try:
                    return plus_minus(val, err)
                except ValueError as exc:
                    raise ExpressionError(str(exc)) from None
            if self.exact or not any(c in val for c in ".eE"):
                return number
            return printed_literal(val)
        if val in _PLUS_MINUS:
            raise ExpressionError(f"`{_short(self.text)}`: ± may only follow a number, as in 0.34 ± 0.01")
        if kind == "name":
            if val == "exact" and self.peek() == "(":
                self.take()
                self.exact += 1
                self.nest()
                value = self.expr()
                self.expect(")")
                self.depth -= 1
                self.exact -= 1
                return midpoint(value)  # laws and constants inside are taken at their printed values too
            if self.peek() == "(":
                return self.call(val)
            if val in FUNCTIONS:
                raise ExpressionError(f"`{val}` is a function: write {val}(...)")
            if val in CONSTANTS:
                if val == "oo" and not self.allow_infinity:
                    raise ExpressionError("`oo` (infinity) is allowed only as a limit target")
                return CONSTANTS[val]
            if val in self.symbols:
                return self.symbols[val]
            if val in self.laws:
                return self.laws[val]
            raise ExpressionError(f"unknown symbol `{printable(val)}`")
        if val == "(":
            value = self.expr()
            self.expect(")")
            return value
        if val == "[":
            return self.interval()
        raise ExpressionError(f"`{_short(self.text)}` is not a well-formed expression (unexpected `{printable(val)}`)")

    def interval(self):
        """``[low, high]``: two numbers (signs allowed), taken exactly."""
        ends, texts = [], []
        for closing in (",", "]"):
            sign = ""
            if self.peek() in ("-", "+"):
                sign = self.take()[1]
            kind, val = self.take()
            if kind != "num":
                raise ExpressionError(f"`{_short(self.text)}`: an interval is [low, high] with two numbers")
            number = self.number(val)
            ends.append(-number if sign == "-" else number)
            texts.append(("-" if sign == "-" else "") + val)
            self.expect(closing)
        if self.exact:
            raise ExpressionError(f"`[{texts[0]}, {texts[1]}]` inside exact(...): an exact number is not an interval")
        try:
            return interval(f"[{texts[0]}, {texts[1]}]", *ends)
        except ValueError as exc:
            raise ExpressionError(str(exc)) from None

    def number(self, val):
        """The exact value of a number token (its printed value), within the size limits."""
        mantissa, _, exponent = val.lower().partition("e")
        if exponent and abs(int(exponent)) > 400:  # before SymPy builds 10**exponent
            raise ExpressionError(f"`{val}`: numbers in claims files must lie between 1e-300 and 1e300 "
                                  "in magnitude")
        number = sp.Rational(val) if any(c in val for c in ".eE") else sp.Integer(val)
        _check_literal(number, val)
        return number

    def call(self, name):
        if name not in FUNCTIONS:
            raise ExpressionError(f"`{printable(name)}` is not a function (allowed: {', '.join(FUNCTIONS)})")
        self.expect("(")
        self.nest()
        args = [self.expr()]
        while self.peek() == ",":
            self.take()
            args.append(self.expr())
        self.expect(")")
        self.depth -= 1
        if name == "diff":
            return self.diff(args)
        lo, hi = _ARITY[name]
        if not lo <= len(args) <= hi:
            want = str(lo) if lo == hi else f"{lo} to {hi}"
            raise ExpressionError(f"`{name}` takes {want} argument{'s' * (hi > 1)} (got {len(args)})")
        shown = f"{name}({', '.join(sp.sstr(a) for a in args)})"
        args_m = [_printed_value(a) for a in args]
        if name == "factorial" and args_m[0].is_number and abs(args_m[0]) > LIMITS["max_factorial"]:
            raise ExpressionError(f"`{_short(shown)}`: factorial of a number above {LIMITS['max_factorial']} "
                                  "(the limit for exact factorials)")
        if name == "binomial" and any(a.is_number and abs(a) > LIMITS["max_binomial"] for a in args_m):
            raise ExpressionError(f"`{_short(shown)}`: binomial of a number above {LIMITS['max_binomial']} "
                                  "(the limit for exact binomials)")
        if name == "log" and len(args) == 2 and args_m[1].is_number and (args_m[1].is_positive is not True
                                                                         or args_m[1] == 1):
            raise ExpressionError(f"`{_short(shown)}`: the base of a logarithm must be a positive number other than 1")
        value = FUNCTIONS[name](*args)
        self.check_defined(value, shown)
        own = {("positive", args[0])} if name == "log" else {("nonnegative", args[0])} if name == "sqrt" else set()
        self.check_kept(value, args, own, shown)
        return value

    def diff(self, args):
        if len(args) < 2:
            raise ExpressionError("`diff` needs an expression and a symbol: diff(f, x) or diff(f, x, 2)")
        spec, total, i = [], 0, 1
        while i < len(args):
            var = args[i]
            if not isinstance(var, sp.Symbol) or var not in self.symbols.values():
                raise ExpressionError(f"`diff`: `{_short(sp.sstr(var))}` is not a symbol of the file")
            order = 1
            if i + 1 < len(args) and not isinstance(args[i + 1], sp.Symbol):
                order = args[i + 1]
                if not (order.is_Integer and order >= 0):
                    raise ExpressionError(f"`diff`: the order must be a whole number (got {_short(sp.sstr(order))})")
                i += 1
            total += int(min(order, 10 ** 9))
            if total > LIMITS["max_diff_order"]:
                raise ExpressionError(f"`diff`: the total order of differentiation is at most "
                                      f"{LIMITS['max_diff_order']} (got {order if len(spec) == 0 else total})")
            spec += [var, int(order)]
            i += 1
        return sp.diff(args[0], *spec)

    # ---------------------------------------------------------------- bounded arithmetic

    def arith(self, a, b, op):
        if op == "/" and _printed_value(b).is_zero is True:
            raise ExpressionError(f"`{_short(sp.sstr(a))}/{_short(sp.sstr(b))}`: division by zero")
        value = {"+": lambda: a + b, "-": lambda: a - b, "*": lambda: a * b, "/": lambda: a / b}[op]()
        self.check_size(value)
        self.check_kept(value, (a, b), {("nonzero", b)} if op == "/" else set(),
                        f"{_operand(a)} {op} {_operand(b)}")
        return value

    def pow(self, base, exp):
        shown = f"{_operand(base)}**{_operand(exp)}"
        symbolic = (base, exp)
        base, exp = _printed_value(base), _printed_value(exp)  # the size checks apply to the printed values
        if exp.is_Rational and not exp.is_Integer and exp.q > 10 ** 6:
            raise ExpressionError(f"`{shown}`: exponents with a denominator above 1e6 are not accepted")
        if base.is_zero and exp.is_negative:
            raise ExpressionError(f"`{shown}`: division by zero")
        if base.is_number and exp.is_number:
            # SymPy computes powers of numbers eagerly: bound the size of the result first
            try:
                if base.is_Rational:
                    logb = max(math.log2(abs(base.p)) if base.p else 0.0, math.log2(base.q))
                else:
                    logb = abs(math.log2(abs(float(base)))) if base.is_zero is False else 0.0
                bits = abs(float(exp)) * logb
            except (TypeError, ValueError, OverflowError, ZeroDivisionError):
                bits = math.inf
            if bits > LIMITS["max_bits"]:
                raise ExpressionError(f"`{shown}`: the exact number {shown} would have more than "
                                      f"{LIMITS['max_bits']} bits")
        elif exp.is_number and not base.is_number:
            try:
                big = abs(float(exp)) > LIMITS["max_exponent"]
            except (TypeError, ValueError, OverflowError):
                big = True
            if big:
                raise ExpressionError(f"`{shown}`: numeric exponents are at most {LIMITS['max_exponent']} "
                                      "in magnitude")
        value = symbolic[0] ** symbolic[1]
        self.check_size(value)
        self.check_defined(value, shown)
        self.check_kept(value, symbolic, power_conditions(*symbolic), shown)
        return value

    def check_size(self, value):
        if isinstance(value, sp.Rational) and _bits(value) > LIMITS["max_bits"]:
            raise ExpressionError(f"`{_short(self.text)}`: an exact number in it has more than "
                                  f"{LIMITS['max_bits']} bits")

    def check_kept(self, value, operands, own: set, shown: str) -> None:
        """Refuse a step after which SymPy's automatic simplification no longer
        shows where the expression is undefined (:func:`pysym.audit.definedness.lost`)."""
        gone = lost(value, operands, own)
        if gone:
            kind, d = gone[0]
            raise ExpressionError(
                f"`{_short(shown)}`: SymPy simplifies this as it reads it, and the result no longer shows that it "
                f"is undefined unless {_short(sp.sstr(d), 40)} {NEEDS[kind]}; write the expression "
                "without the part that cancels, or give the symbols ranges on which it is defined")

    def check_defined(self, value, shown):
        value = _printed_value(value)
        if value.has(sp.zoo, sp.nan):
            raise ExpressionError(f"`{_short(shown)}` is undefined")
        if value.has(sp.I) or (value.is_number and value.is_extended_real is False) or any(
                p.is_extended_real is False for p in value.atoms(sp.Pow) if p.is_number):
            raise ExpressionError(f"`{_short(shown)}` is not real")
        if not self.allow_infinity and value.has(sp.oo, -sp.oo):
            raise ExpressionError(f"`{_short(shown)}` is infinite")
