r"""The auditor's verdict text as LaTeX: marked expressions typeset by SymPy.

The auditor prints every expression in a verdict with
:func:`pysym.audit.numbers.show`, which encloses SymPy's text of it in two
private-use characters (:data:`~pysym.audit.numbers.OPEN`,
:data:`~pysym.audit.numbers.CLOSE`).  Here each marked expression is read back
into SymPy (:func:`expr_tex`; the claims file's symbols by name, decimals as
written) and printed by SymPy's LaTeX printer (:class:`AuditLatexPrinter`:
numbers below 10^-3 or from 10^7 on as ``a \cdot 10^{k}``).  :func:`verdict_tex`
writes a whole verdict string: each marked expression becomes a placeholder
word that the prose parser (:func:`pysym.render.prose.tex_rich`) takes as one
symbol, so that ``N* = <expr>`` or ``N**(<expr>)`` around it is typeset as one
formula; the plain text between expressions goes through the prose parser
as before, with the claims file's names as symbols.

>>> import sympy as sp
>>> from pysym.audit.numbers import show
>>> x, q = sp.symbols("x q_S2", positive=True)
>>> e = 2 * sp.sqrt(x) / (4 * q) + x**2
>>> verdict_tex(show(e)) == r"\(" + sp.latex(e) + r"\)"
True
>>> print(verdict_tex("S* = " + show(sp.Symbol("q_S") / (2 * q)) + " (power balance)"))
\(S^{*} = \frac{q_{S}}{2 q_{S2}}\) (power balance)
>>> print(verdict_tex("Na* = " + show(sp.Integer(120000000000) ** (1 / (sp.Symbol("alpha") + 1))), {"Na": "N_{a}"}))
\(N_{a}^{*} = \left(1.2 \cdot 10^{11}\right)^{\frac{1}{\alpha + 1}}\)
>>> print(verdict_tex("left side 0.0007587135647, right side 0"))
left side \(7.587135647 \cdot 10^{-4}\), right side 0
>>> print(number_tex("2684000000000"), number_tex("0.340"), number_tex("3e-40"), number_tex("12"))
2.684 \cdot 10^{12} 0.340 3 \cdot 10^{-40} 12
"""

from __future__ import annotations

import re
import unicodedata
from decimal import Decimal, InvalidOperation

import sympy as sp
from sympy.parsing.sympy_parser import parse_expr, standard_transformations
from sympy.printing.latex import LatexPrinter
from sympy.printing.precedence import PRECEDENCE
from sympy.printing.str import StrPrinter

from pysym.audit.numbers import marked_parts, unmark
from pysym.render.prose import tex_rich
from pysym.render.text import tex_prose

__all__ = ["expr_tex", "number_tex", "verdict_tex", "AuditLatexPrinter", "ascii_math", "glyphs_tex"]

_SIGNIFICANT = 12
_DECIMAL = re.compile(r"(?<![\w.])(?:\d+\.\d*|\.\d+|\d+(?=[eE]))(?:[eE][+-]?\d+)?(?![\w.])|(?<![\w.])\d+[eE][+-]?\d+(?![\w.])")
_PRINTED = re.compile(r"\(\s*[\d.eE+-]+\s*±\s*[\d.eE+-]+\s*\)|\[\s*[\d.eE+-]+\s*,\s*[\d.eE+-]+\s*\]")
_NUMBER = re.compile(r"(?<![\w.\\])\d+(?:\.\d+)?(?:e[+-]?\d+)?(?![\w.])")
_IDENT = re.compile(r"[A-Za-z_][A-Za-z_0-9]*")
_FUNCTIONS = {"diff", "sqrt", "exp", "log", "Min", "Max", "Abs", "binomial", "factorial", "floor", "ceiling", "sin",
              "cos", "tan", "atan", "sinh", "cosh", "tanh", "gamma", "LambertW", "sign", "Piecewise", "re", "im"}
_CONSTANTS = {"oo", "pi", "E", "I", "zoo", "nan", "True", "False"}


def number_tex(text: str) -> str:
    """A number as written (``0.340``, ``1.2e11``, ``2684000000000``) as LaTeX: its digits
    (at most 12 significant), as ``a \\cdot 10^{k}`` below 10^-3 and from 10^7 on."""
    try:
        d = Decimal(text)
    except InvalidOperation:
        return text
    sign = "-" if d < 0 else ""
    d = abs(d)
    if d == 0:
        return "0"
    digits = d.as_tuple().digits
    significant = len(str(int("".join(map(str, digits))))) if any(digits) else 1
    if significant > _SIGNIFICANT:
        d = Decimal(f"{d:.{_SIGNIFICANT - 1}e}")
    sci = "e" in text.lower() or d.adjusted() >= 7 or d.adjusted() < -3 or -d.as_tuple().exponent > _SIGNIFICANT
    if not sci:
        return sign + (text.lstrip("+-") if significant <= _SIGNIFICANT and "e" not in text.lower() else format(d, "f"))
    mantissa, _, exponent = f"{d:e}".partition("e")
    if "." in mantissa:
        mantissa = mantissa.rstrip("0").rstrip(".")
    k = int(exponent)
    return sign + (mantissa if k == 0 else (rf"10^{{{k}}}" if mantissa == "1" else rf"{mantissa} \cdot 10^{{{k}}}"))


def literal_tex(text: str) -> str:
    """A printed number as written: ``0.340``, ``(0.34 ± 0.01)``, ``[0.454, 0.455]``."""
    if "±" in text:
        a, _, b = text.strip("() ").partition("±")
        return rf"\left({number_tex(a.strip())} \pm {number_tex(b.strip())}\right)"
    if text.startswith("["):
        return "[" + ", ".join(number_tex(t.strip()) for t in text[1:-1].split(",")) + "]"
    return number_tex(text)


class AuditLatexPrinter(LatexPrinter):
    """SymPy's LaTeX printer; large and small numbers as powers of ten, and
    decimal literals (symbols in ``literals``) as written."""

    def __init__(self, literals: dict | None = None, **settings):
        super().__init__(settings)
        self._literals = literals or {}

    def _print_Symbol(self, expr, style="plain"):
        if expr in self._literals:
            return literal_tex(self._literals[expr])
        return super()._print_Symbol(expr, style)

    def parenthesize(self, item, level, is_neg=False, strict=False):
        out = super().parenthesize(item, level, is_neg, strict)
        if level >= PRECEDENCE["Pow"] and r"\cdot 10^" in out and not out.startswith(r"\left("):
            return rf"\left({out}\right)"  # (1.2 \cdot 10^{11})^{a}
        return out

    def _print_Integer(self, expr):
        return number_tex(str(expr.p)) if abs(expr.p) >= 10**7 else super()._print_Rational(expr)

    def _print_Float(self, expr):
        import mpmath

        return number_tex(mpmath.nstr(mpmath.mpf(expr), _SIGNIFICANT, strip_zeros=True))

    def _print_Rational(self, expr):
        if max(len(str(abs(expr.p))), len(str(expr.q))) > _SIGNIFICANT:
            return self._print_Float(sp.Float(expr, 20))
        return super()._print_Rational(expr)


def _tidy(e):
    """An unevaluated expression without SymPy's ``1*(...)`` left by ``1/(...)``."""
    if not e.args or isinstance(e, sp.Atom):
        return e
    args = [_tidy(a) for a in e.args]
    if e.is_Mul:
        args = [a for a in args if a != 1] or [sp.Integer(1)]
        if len(args) == 1:
            return args[0]
    try:
        return e.func(*args, evaluate=False)
    except TypeError:
        return e.func(*args)


class _Literal(StrPrinter):
    def __init__(self, literals):
        super().__init__()
        self._literals = literals

    def _print_Symbol(self, expr):
        return self._literals.get(expr, expr.name)


def parse(text: str, symbols: dict | None = None):
    """``text`` (an expression as :func:`pysym.audit.numbers.show` prints it) as SymPy,
    with ``{symbol: literal}`` for its decimal literals; ``None`` if it cannot be read."""
    symbols = symbols or {}
    literals: dict = {}
    prefix = "LiTeRaL"
    while prefix in text:  # a placeholder no name of the text can be (a symbol may be called LiTeRaL0)
        prefix += "Q"

    def literal(m: re.Match) -> str:
        name = f"{prefix}{len(literals)}"
        literals[sp.Symbol(name)] = m.group(0)
        return name

    src = _DECIMAL.sub(literal, _PRINTED.sub(literal, text))
    local = {s.name: s for s in literals}
    for m in _IDENT.finditer(src):
        name = m.group(0)
        if name in local:
            continue
        call = src[m.end():m.end() + 1] == "("
        if name in symbols:
            local[name] = symbols[name]
        elif name == "diff" and call:
            local[name] = sp.Derivative
        elif (name in _FUNCTIONS and call) or (name in _CONSTANTS and not call):
            continue
        else:
            local[name] = sp.Symbol(name)
    sides = [s.strip() for s in src.split(" == ")]
    if len(sides) > 2:
        return None
    try:
        kept = [parse_expr(s, local_dict=dict(local), transformations=standard_transformations) for s in sides]
        unevaluated = [parse_expr(s, local_dict=dict(local), transformations=standard_transformations,
                                  evaluate=False) for s in sides]
    except Exception:  # noqa: BLE001 - anything SymPy's parser raises: the text stays text
        return None
    printer = _Literal(literals)
    faithful = all(isinstance(k, sp.Basic) and printer.doprint(k).replace(" ", "") == s.replace(" ", "")
                   for k, s in zip(kept, text.split(" == ")))
    chosen = kept if faithful else [_tidy(u) if isinstance(u, sp.Basic) else u for u in unevaluated]
    if not all(isinstance(c, sp.Basic) for c in chosen):
        return None
    expr = chosen[0] if len(chosen) == 1 else sp.Eq(*chosen, evaluate=False)
    return expr, literals


def expr_tex(text: str, symbols: dict | None = None) -> tuple[str, object] | None:
    """``(LaTeX, SymPy expression)`` of an expression printed by ``show``, or ``None``."""
    got = parse(text, symbols)
    if got is None:
        return None
    expr, literals = got
    try:
        return AuditLatexPrinter(literals).doprint(expr), expr
    except Exception:  # noqa: BLE001 - a printer failure leaves the text as text
        return None


def _placeholder(i: int) -> str:
    letters = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        letters = chr(ord("a") + r) + letters
    return f"Xqzmark{letters}"


_PLACEHOLDER = re.compile(r"Xqzmark[a-z]+")


def _needs_parens(expr, before: str, after: str) -> bool:
    """Whether ``expr`` placed between ``before`` and ``after`` (the text around it) needs brackets."""
    b, a = before.rstrip(), after.lstrip()
    if a.startswith(("**", "^")):
        return not (isinstance(expr, sp.Symbol) or (expr.is_Integer and expr >= 0))
    if b.endswith(("**", "^")):
        return False
    if b.endswith(("*", "/", "-")) or a.startswith(("*", "/")):
        return bool(expr.is_Add or expr.is_Relational or expr.could_extract_minus_sign())
    return False


_CHUNK = r"[\w.()*/]+(?:, [\w.()*/]+)*"
_RUN = re.compile(rf"(?<![\w.*/)])-?{_CHUNK}(?: [+-] -?{_CHUNK})*")
_GREEK_WORDS = {"alpha", "beta", "gamma", "delta", "epsilon", "lambda", "mu", "nu", "rho", "sigma", "tau", "theta",
                "eta", "kappa", "phi", "psi", "omega", "xi", "zeta", "chi", "pi"}


def sympy_runs(text: str, symbols: dict | None = None) -> list:
    """``text`` with the SymPy strings in it that nobody marked (``2*sqrt(q_G)*x**2 - y``:
    a power, a product or a root, balanced brackets, every name a symbol) as marked parts.

    >>> sympy_runs("S* = q_S/(2*q_S2) (power balance)", {"q_S": 1, "q_S2": 1})
    ['S* = ', ('q_S/(2*q_S2)',), ' (power balance)']
    """
    out: list = []
    pos = 0
    for m in _RUN.finditer(text):
        run = m.group(0)
        while run and run.count("(") < run.count(")") and run.endswith(")"):
            run = run[:-1]
        if not any(op in run for op in ("*", "sqrt(")) or run.count("(") != run.count(")"):
            continue
        names = set(_IDENT.findall(_DECIMAL.sub("0", run)))
        if not all(n in (symbols or {}) or n in _FUNCTIONS or n in _GREEK_WORDS or len(n) == 1 for n in names):
            continue
        if parse(run, symbols) is None:
            continue
        if m.start() > pos:
            out.append(text[pos:m.start()])
        out.append((run,))
        pos = m.start() + len(run)
    if pos < len(text):
        out.append(text[pos:])
    return out


def _unmarked_runs(parts: list, symbols: dict | None) -> list:
    out: list = []
    for part in parts:
        out.extend(sympy_runs(part, symbols) if isinstance(part, str) else [part])
    return out


def verdict_tex(text, names: dict | None = None, symbols: dict | None = None) -> str:
    """Verdict text (with expressions marked by ``show``) as LaTeX: marked expressions
    printed by :class:`AuditLatexPrinter`, long numbers as powers of ten, the rest
    through :func:`pysym.render.prose.tex_rich` with ``names`` (``{name: LaTeX}``)."""
    if _PLACEHOLDER.search(unmark(str(text))):
        # text that already holds a placeholder's spelling would be misread: typeset it as plain text
        return glyphs_tex(tex_prose(unmark(str(text))))
    parts = _unmarked_runs(marked_parts(ascii_math(str(text))), symbols)
    names = dict(names or {})
    out, tex = [], {}
    for k, part in enumerate(parts):
        if isinstance(part, tuple):
            got = expr_tex(part[0], symbols)
            if got is None:
                out.append(part[0])
                continue
            latex, expr = got
            before = "".join(p if isinstance(p, str) else "x" for p in parts[:k])
            after = "".join(p if isinstance(p, str) else "x" for p in parts[k + 1:])
            if _needs_parens(expr, before, after):
                latex = rf"\left({latex}\right)"
        else:
            part = _NUMBER.sub(lambda m: _long_number(m, tex), part)
            out.append(_GLUED.sub(lambda m: _glued(m, names, tex), part) if _GLUED.search(part) else part)
            continue
        key = _placeholder(len(tex))
        tex[key] = latex
        out.append(key)
    joined = "".join(out)
    names.update(tex)
    rendered = tex_rich(joined, names)
    return glyphs_tex(_PLACEHOLDER.sub(lambda m: rf"\({tex[m.group(0)]}\)" if m.group(0) in tex else m.group(0),
                                       rendered))


_GLUED = re.compile(r"(?<![\w\\])[A-Za-z]\w*[A-Za-z]\d\w*|(?<![\w\\])[A-Za-z]\w*_\w*[A-Za-z]\d\w*")


def _glued(m: re.Match, names: dict, tex: dict) -> str:
    """A name with a digit glued to a letter (``q_S2``, ``E0``): one symbol, not ``q_S`` times 2."""
    if m.group(0) not in names:
        return m.group(0)
    key = _placeholder(len(tex))
    tex[key] = names[m.group(0)]
    return key


def _long_number(m: re.Match, tex: dict) -> str:
    shown = number_tex(m.group(0))
    if shown == m.group(0):
        return m.group(0)
    key = _placeholder(len(tex))
    tex[key] = shown
    return key


_GREEK_NAME = re.compile(r"GREEK (SMALL|CAPITAL) LETTER ([A-Z]+)")


def ascii_math(text: str) -> str:
    """Unicode math the prose parser does not read, as its ASCII notation: the
    minus sign, Greek letters (``γx`` as ``gamma_x``), a macron (``γ̄`` as ``gamma-bar``), and
    a quote closed right after a bracket (``'e^(x)'.``) is a quote, not a prime."""
    def greek(m: re.Match) -> str:
        ch, bar, tail = m.group(1), m.group(2), m.group(3)
        found = _GREEK_NAME.fullmatch(unicodedata.name(ch, ""))
        if not found:
            return m.group(0)
        name = {"lamda": "lambda"}.get(found.group(2).lower(), found.group(2).lower())
        if found.group(1) == "CAPITAL":
            name = name.capitalize()
        lead = " " if m.start() and text[m.start() - 1].isalpha() else ""
        return lead + name + ("-bar" if bar else "") + (f"_{tail}" if tail and not bar else (f" {tail}" if tail else ""))

    text = re.sub("([\u0391-\u03a9\u03b1-\u03c9])(\u0304?)([A-Za-z]*)", greek, text)
    text = text.replace("\u2212", "-")
    text = re.sub(r"(?<![\w')])'(?=[A-Za-z(])", "\u2018", text)  # an opening quote, so that a formula may follow
    text = re.sub("\u2018([^'\u2019]*)'(?=[\\s.,;:!?)]|$)", "\u2018\\1\u2019", text)  # ... and its closing quote
    text = re.sub(r"`Eq\(([^`,()]*(?:\([^`()]*\))?[^`,()]*), ([^`]*)\)`", r"`\1 = \2`", text)  # SymPy's Eq(a, b)
    text = re.sub(r"(?<=[)\]])'(?=[\s.,;:!?]|$)", "\u2019", text)  # a closing quote after a bracket, not a prime

    return text


_GLYPHS = {"221D": r"\ensuremath{\propto}", "22C6": r"\ensuremath{\star}", "2212": r"\ensuremath{-}",
           "0304": r"\={}", "2248": r"\ensuremath{\approx}", "2032": r"\ensuremath{'}", "02C6": r"\^{}",
           "2215": "/", "2009": r"\,", "202F": r"\,", "2011": "-", "2010": "-", "00D7": r"\ensuremath{\times}"}


def glyphs_tex(tex: str) -> str:
    """Characters the text escaping left as ``[U+XXXX]``: as LaTeX where known, else by name."""
    def sub(m: re.Match) -> str:
        code = m.group(1)
        if code in _GLYPHS:
            return _GLYPHS[code]
        return r"\textit{" + unicodedata.name(chr(int(code, 16)), "character").lower() + "}"

    tex = re.sub(r"\[U\+([0-9A-F]{4,6})\]", sub, tex)
    # a power the prose parser could not read (``1.0163^(exponent)``): a superscript, not a circumflex
    return re.sub(r"\\textasciicircum\{\}(?:\(((?:[^()]|\([^()]*\))*)\)|([\w.]+))",
                  lambda m: r"\textsuperscript{" + (m.group(1) if m.group(1) is not None else m.group(2)) + "}", tex)
