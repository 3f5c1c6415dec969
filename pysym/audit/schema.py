"""Claims files: reading and validating ``paper_checks/*.toml``.

A claims file has four parts (``paper_checks/README.md`` is the full
reference):

``[paper]``
    ``id``, ``title``, ``arxiv``, ``version``, ``sources`` (where each item
    was read).
``[symbols]``
    ``name = { description = "...", range = [low, high], integer = false }``;
    bounds are numbers or expressions in symbols listed before.
``[laws]``
    ``name = "expression"``; a law may use earlier laws.
``[[claim]]``
    ``id``, ``kind``, ``quote`` (the paper's words), ``where`` (section or
    equation), ``expected`` (holds | fails | conditional | inconclusive) and
    the fields of its kind (see :data:`KINDS`).

Expressions are read by a whitelist tokenizer, never by ``eval`` of raw text:
only numbers, the file's symbols and laws, the functions in
:data:`FUNCTIONS`, and ``+ - * / ** ( ) ,`` are accepted.

>>> syms = {"N": sympy.Symbol("N", positive=True)}
>>> parse_expression("2*N**2 + log(N)", syms, {})
2*N**2 + log(N)
>>> parse_expression("N + M", syms, {})
Traceback (most recent call last):
...
pysym.audit.schema.ExpressionError: unknown symbol `M`
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import sympy

__all__ = [
    "AuditInputError",
    "ExpressionError",
    "Paper",
    "Claim",
    "ClaimsFile",
    "load_claims_file",
    "parse_expression",
    "KINDS",
    "VERDICTS",
    "FUNCTIONS",
]

VERDICTS = ("holds", "fails", "conditional", "inconclusive")

FUNCTIONS = {
    "log": sympy.log,
    "exp": sympy.exp,
    "sqrt": sympy.sqrt,
    "binomial": sympy.binomial,
    "factorial": sympy.factorial,
    "diff": sympy.diff,
    "Min": sympy.Min,
    "Max": sympy.Max,
    "Abs": sympy.Abs,
}
CONSTANTS = {"E": sympy.E, "pi": sympy.pi, "oo": sympy.oo}

# kind -> (required fields, optional fields)
KINDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "value": (("quantity", "claimed"), ("minimize", "over", "at", "tolerance", "abs_tolerance")),
    "exponent": (("law", "scale", "quantity", "claimed"),
                 ("minimize", "constraint", "eliminate", "at", "tolerance", "range", "limit", "subs",
                  "claimed_coefficient", "coefficient_tolerance")),
    "sign": (("sign",), ("expr", "wrt", "region", "law", "argmin", "over", "param", "eliminate")),
    "inequality": (("lhs", "rel", "rhs"), ("region", "subs", "condition")),
    "identity": (("lhs", "rhs"), ("region", "subs")),
    "independence": (("law", "argmin", "over", "of"), ("at", "region")),
    "premise": (("theorem", "statement"), ("bind", "terms", "hypotheses")),
    "optimum": (("law", "argmin", "over", "location"), ("region", "condition")),
}
COMMON = ("id", "kind", "quote", "where", "expected", "note")


class AuditInputError(Exception):
    """A problem in a claims file: where it is and what is wrong."""

    def __init__(self, path: str, claim: str | None, message: str):
        self.path, self.claim, self.message = path, claim, message
        where = f"{path}" + (f": claim `{claim}`" if claim else "")
        super().__init__(f"{where}: {message}")


class ExpressionError(ValueError):
    pass


_TOKEN = re.compile(r"\s*(?:(?P<num>\d+(?:\.\d*)?(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?)"
                    r"|(?P<name>[A-Za-z_][A-Za-z0-9_]*)|(?P<op>\*\*|[-+*/(),]))")


_RELOPS = {"<=": sympy.Le, ">=": sympy.Ge, "==": sympy.Eq, "<": sympy.Lt, ">": sympy.Gt}


def parse_expression(text, symbols: dict, laws: dict, *, allow_undefined: bool = False):
    """SymPy expression for ``text`` (a string or number) using ``symbols``
    and ``laws``; :class:`ExpressionError` names what is wrong.  One
    comparison (``<=``, ``<``, ``>=``, ``>``, ``==``) makes it a relation."""
    if isinstance(text, str):
        parts = re.split(r"(<=|>=|==|<|>)", text)
        if len(parts) == 3:
            lhs = _parse_term(parts[0], symbols, laws, allow_undefined)
            rhs = _parse_term(parts[2], symbols, laws, allow_undefined)
            return _RELOPS[parts[1]](lhs, rhs, evaluate=False)
        if len(parts) > 3:
            raise ExpressionError(f"`{text}`: at most one comparison is allowed")
    return _parse_term(text, symbols, laws, allow_undefined)


def _parse_term(text, symbols: dict, laws: dict, allow_undefined: bool):
    if isinstance(text, bool):
        raise ExpressionError(f"expected an expression, got {text!r}")
    if isinstance(text, (int, float)):
        return sympy.Rational(repr(text)) if isinstance(text, float) else sympy.Integer(text)
    if not isinstance(text, str) or not text.strip():
        raise ExpressionError(f"expected an expression, got {text!r}")
    pos, out = 0, []
    names = {}
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m or m.end() == pos:
            if text[pos:].strip() == "":
                break
            raise ExpressionError(f"cannot read `{text[pos:pos + 15].strip()}` (allowed: numbers, symbols, "
                                  "laws, + - * / ** ( ), and the functions " + ", ".join(FUNCTIONS) + ")")
        if m.group("num"):
            out.append(f"Rational('{m.group('num')}')" if any(c in m.group("num") for c in ".eE")
                       else f"Integer({m.group('num')})")
        elif m.group("name"):
            name = m.group("name")
            if name in FUNCTIONS or name in CONSTANTS:
                out.append(name)
            elif name in symbols or name in laws:
                key = f"_v{len(names)}"
                names[key] = symbols[name] if name in symbols else laws[name]
                out.append(key)
            elif allow_undefined:
                key = f"_v{len(names)}"
                names[key] = sympy.Symbol(name)
                out.append(key)
            else:
                raise ExpressionError(f"unknown symbol `{name}`")
        else:
            out.append(m.group("op"))
        pos = m.end()
    env = {"__builtins__": {}, "Rational": sympy.Rational, "Integer": sympy.Integer,
           **FUNCTIONS, **CONSTANTS, **names}
    try:
        value = eval(" ".join(out), env)  # noqa: S307 - tokens are whitelisted above
    except SyntaxError:
        raise ExpressionError(f"`{text}` is not a well-formed expression") from None
    except (TypeError, ValueError, ZeroDivisionError) as exc:
        raise ExpressionError(f"`{text}`: {exc}") from None
    return sympy.sympify(value)


@dataclass
class SymbolSpec:
    name: str
    symbol: sympy.Symbol
    low: object
    high: object
    description: str = ""
    integer: bool = False


@dataclass
class Paper:
    id: str
    title: str
    arxiv: str = ""
    version: str = ""
    sources: list[str] = field(default_factory=list)


@dataclass
class Claim:
    id: str
    kind: str
    quote: str
    where: str
    expected: str
    fields: dict
    note: str = ""


@dataclass
class ClaimsFile:
    path: str
    paper: Paper
    symbols: dict[str, SymbolSpec]
    laws: dict[str, sympy.Expr]
    claims: list[Claim]
    errors: list[AuditInputError] = field(default_factory=list)  # claim-level problems

    @property
    def sym(self) -> dict[str, sympy.Symbol]:
        return {n: s.symbol for n, s in self.symbols.items()}

    def parse(self, claim: Claim, key: str, value=None):
        """Parse a claim field as an expression (claim-level error on failure)."""
        text = claim.fields.get(key) if value is None else value
        try:
            return parse_expression(text, self.sym, self.laws)
        except ExpressionError as exc:
            raise AuditInputError(self.path, claim.id, f"field `{key}`: {exc}") from None


def _toml_error(path: str, exc: tomllib.TOMLDecodeError) -> AuditInputError:
    m = re.search(r"\(at line (\d+), column (\d+)\)", str(exc))
    msg = str(exc).split(" (at line")[0]
    if m:
        return AuditInputError(f"{path}:{m.group(1)}:{m.group(2)}", None, f"invalid TOML: {msg}")
    return AuditInputError(path, None, f"invalid TOML: {msg}")


def load_claims_file(path: Path, display: str | None = None) -> ClaimsFile:
    """Read and validate one claims file.

    File-level problems (unreadable, invalid TOML, a broken ``[paper]``,
    ``[symbols]`` or ``[laws]`` section) raise :class:`AuditInputError`;
    problems confined to one claim are collected in ``errors`` so the other
    claims can still be audited.
    """
    shown = display or str(path)
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise AuditInputError(shown, None, f"cannot read: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise AuditInputError(shown, None, "not UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        raise _toml_error(shown, exc) from None

    unknown_top = set(data) - {"paper", "symbols", "laws", "claim"}
    if unknown_top:
        raise AuditInputError(shown, None, f"unknown section(s) {sorted(unknown_top)}; expected [paper], "
                                           "[symbols], [laws] and [[claim]]")
    p = data.get("paper")
    if not isinstance(p, dict):
        raise AuditInputError(shown, None, "missing [paper] section (needs at least `id` and `title`)")
    for key in ("id", "title"):
        if not isinstance(p.get(key), str) or not p[key].strip():
            raise AuditInputError(shown, None, f"[paper] needs `{key}` (a non-empty string)")
    paper = Paper(p["id"], p["title"], str(p.get("arxiv", "")), str(p.get("version", "")),
                  [str(s) for s in p.get("sources", [])])

    symbols: dict[str, SymbolSpec] = {}
    raw_syms = data.get("symbols", {})
    if not isinstance(raw_syms, dict):
        raise AuditInputError(shown, None, "[symbols] must be a table of `name = { ... }` entries")
    for name, spec in raw_syms.items():
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name) or name in FUNCTIONS or name in CONSTANTS:
            raise AuditInputError(shown, None, f"[symbols] `{name}`: not a usable symbol name")
        if not isinstance(spec, dict) or "range" not in spec:
            raise AuditInputError(shown, None, f"[symbols] `{name}` needs `range = [low, high]`")
        rng = spec["range"]
        if not (isinstance(rng, list) and len(rng) == 2):
            raise AuditInputError(shown, None, f"[symbols] `{name}`: `range` must be [low, high]")
        sofar = {n: s.symbol for n, s in symbols.items()}
        try:
            low = parse_expression(rng[0], sofar, {})
            high = parse_expression(rng[1], sofar, {})
        except ExpressionError as exc:
            raise AuditInputError(shown, None, f"[symbols] `{name}` range: {exc}") from None
        integer = bool(spec.get("integer", False))
        positive = bool(low.is_positive) or (low.is_number and low > 0) or bool(low.free_symbols)
        nonneg = bool(low.is_nonnegative) or (low.is_number and low >= 0)
        kw = {"integer": True} if integer else {"real": True}
        if positive:
            kw["positive"] = True
        elif nonneg:
            kw["nonnegative"] = True
        symbols[name] = SymbolSpec(name, sympy.Symbol(name, **kw), low, high, str(spec.get("description", "")),
                                   integer)

    laws: dict[str, sympy.Expr] = {}
    raw_laws = data.get("laws", {})
    if not isinstance(raw_laws, dict):
        raise AuditInputError(shown, None, "[laws] must be a table of `name = \"expression\"`")
    sym = {n: s.symbol for n, s in symbols.items()}
    for name, text in raw_laws.items():
        if name in symbols:
            raise AuditInputError(shown, None, f"[laws] `{name}` is also a symbol")
        try:
            laws[name] = parse_expression(text, sym, laws)
        except ExpressionError as exc:
            raise AuditInputError(shown, None, f"[laws] `{name}`: {exc}") from None

    claims, errors, seen = [], [], set()
    raw_claims = data.get("claim", [])
    if not isinstance(raw_claims, list):
        raise AuditInputError(shown, None, "claims must be written as [[claim]] tables")
    for i, c in enumerate(raw_claims, start=1):
        cid = c.get("id") if isinstance(c.get("id"), str) else f"#{i}"
        try:
            claims.append(_check_claim(shown, cid, c, seen))
        except AuditInputError as exc:
            errors.append(exc)
    if not claims and not errors:
        raise AuditInputError(shown, None, "no [[claim]] entries")
    return ClaimsFile(shown, paper, symbols, laws, claims, errors)


def _check_claim(path: str, cid: str, c: dict, seen: set) -> Claim:
    if not isinstance(c.get("id"), str) or not c["id"].strip():
        raise AuditInputError(path, cid, "missing field `id`")
    if cid in seen:
        raise AuditInputError(path, cid, "duplicate claim id")
    seen.add(cid)
    kind = c.get("kind")
    if kind not in KINDS:
        raise AuditInputError(path, cid, f"`kind` must be one of {', '.join(KINDS)} (got {kind!r})")
    for key in ("quote", "where", "expected"):
        if not isinstance(c.get(key), str) or not c[key].strip():
            raise AuditInputError(path, cid, f"missing field `{key}`")
    if c["expected"] not in VERDICTS:
        raise AuditInputError(path, cid, f"`expected` must be one of {', '.join(VERDICTS)}")
    required, optional = KINDS[kind]
    missing = [k for k in required if k not in c]
    if missing:
        raise AuditInputError(path, cid, f"missing field{'s' * (len(missing) > 1)} "
                                         f"{', '.join(f'`{m}`' for m in missing)} for kind `{kind}`")
    extra = set(c) - set(required) - set(optional) - set(COMMON)
    if extra:
        raise AuditInputError(path, cid, f"unknown field(s) {sorted(extra)} for kind `{kind}` "
                                         f"(allowed: {', '.join(required + optional)})")
    fields = {k: v for k, v in c.items() if k not in COMMON}
    return Claim(cid, kind, c["quote"].strip(), c["where"].strip(), c["expected"], fields,
                 str(c.get("note", "")).strip())
