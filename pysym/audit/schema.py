"""Claims files: reading and validating ``paper_checks/*.toml``.

A claims file has four parts (``paper_checks/README.md`` is the full
reference):

``[paper]``
    ``id``, ``title`` (required), ``arxiv``, ``version`` (strings),
    ``sources`` (a list of strings: where each item was read).
``[symbols]``
    ``name = { description = "...", range = [low, high], integer = false,
    rational = false }``; bounds are numbers or expressions in symbols listed
    before.
``[constants]``
    ``name = "0.34"`` (a printed number: ±½ unit in its last digit),
    ``"0.34 ± 0.01"``, ``[0.454, 0.455]``, a TOML number (exact), or
    ``{ value = "0.34", where = "Table 2", description = "..." }``: one quantity
    wherever the name is used (:mod:`pysym.audit.printed`).
``[laws]``
    ``name = "expression"``; a law may use earlier laws and the constants.
``[[claim]]``
    ``id``, ``kind``, ``quote`` (the paper's words), ``where`` (section or
    equation), ``expected`` (holds | fails | undetermined | conditional |
    inconclusive),
    optional ``note``, and the fields of its kind.  Each kind's fields and
    their types come from the registry (:mod:`pysym.audit.registry`).

The schema is strict: every value must have its TOML type (``integer =
"false"`` is an error, not ``true``), unknown keys anywhere are errors that
name the allowed ones, numbers must be finite, ranges in order, text free of
control characters.  Nothing is coerced.  File-level problems raise
:class:`AuditInputError`; a problem confined to one claim is collected in
``ClaimsFile.errors`` and the other claims are still audited.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "bad.toml"
>>> _ = path.write_text('[paper]\\nid = "p"\\ntitle = "t"\\n[symbols]\\nx = { range = [1, 2], integer = "false" }\\n')
>>> load_claims_file(path, "bad.toml")
Traceback (most recent call last):
...
pysym.audit.errors.AuditInputError: bad.toml: [symbols] `x`: `integer` must be true or false (a TOML boolean), not a string
"""

from __future__ import annotations

import hashlib
import dataclasses
import re
import tomllib
from pathlib import Path

import sympy as sp

from pysym.audit.errors import AuditInputError, ExpressionError, bad_character, one_line, printable
from pysym.audit.expr import CONSTANTS, FUNCTIONS, parse_expression
from pysym.audit.fields import BOUNDS, FieldError, Reader, integer_bounds, parse_value, type_name
from pysym.audit.model import Claim, ClaimsFile, Paper, SymbolSpec
from pysym.audit.printed import Printed, named
from pysym.audit.registry import COMMON, kinds
from pysym.audit.verdict import VERDICTS
from pysym.derive.core import Var

__all__ = [
    "AuditInputError",
    "ExpressionError",
    "Paper",
    "Claim",
    "ClaimsFile",
    "load_claims_file",
    "load_claims_text",
    "parse_expression",
    "kind_fields",
    "VERDICTS",
    "FUNCTIONS",
]

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_PAPER_KEYS = ("id", "title", "arxiv", "version", "sources")
_SYMBOL_KEYS = ("range", "description", "integer", "rational")
_CONSTANT_KEYS = ("value", "where", "description")


def kind_fields() -> dict[str, tuple[tuple[str, ...], tuple[str, ...]]]:
    """``{kind: (required fields, optional fields)}``, from the registry."""
    return {name: (k.required, k.optional) for name, k in kinds().items()}


def _toml_error(path: str, exc: tomllib.TOMLDecodeError) -> AuditInputError:
    m = re.search(r"\(at line (\d+), column (\d+)\)", str(exc))
    msg = str(exc).split(" (at line")[0]
    if m:
        return AuditInputError(f"{path}:{m.group(1)}:{m.group(2)}", None, f"invalid TOML: {msg}")
    return AuditInputError(path, None, f"invalid TOML: {msg}")


def _unknown(keys, allowed, where: str) -> str | None:
    extra = [k for k in keys if k not in allowed]
    if extra:
        return (f"{where}: unknown key{'s' * (len(extra) > 1)} {', '.join(f'`{printable(k)}`' for k in extra)} "
                f"(allowed: {', '.join(allowed)})")
    return None


def _text(value, what: str, *, required: bool = True, multiline: bool = True) -> str:
    if not isinstance(value, str):
        raise FieldError(f"{what} must be a string, not {type_name(value)}")
    if required and not value.strip():
        raise FieldError(f"{what} must not be empty")
    bad = bad_character(value, allow_newlines=multiline)
    if bad:
        raise FieldError(f"{what} contains {bad}")
    return one_line(value)


def load_claims_file(path: Path, display: str | None = None) -> ClaimsFile:
    """Read and validate one claims file.

    File-level problems (unreadable, invalid TOML, a broken ``[paper]``,
    ``[symbols]`` or ``[laws]`` section) raise :class:`AuditInputError`;
    problems confined to one claim are collected in ``errors`` so the other
    claims can still be audited.
    """
    shown = printable(display or str(path))
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise AuditInputError(shown, None, f"cannot read: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise AuditInputError(shown, None, "not UTF-8 text") from None
    return load_claims_text(text, shown)


def load_claims_text(text: str, display: str = "<text>") -> ClaimsFile:
    """Validate a claims file given as text (as :func:`load_claims_file`)."""
    shown = printable(display)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise _toml_error(shown, exc) from None
    except (ValueError, RecursionError) as exc:  # e.g. an integer literal with thousands of digits
        raise AuditInputError(shown, None, f"invalid TOML: {exc}") from None

    def fail(message):
        raise AuditInputError(shown, None, message)

    unknown = _unknown(data, ("paper", "symbols", "constants", "laws", "claim"), "top level")
    if unknown:
        fail(unknown + "; the sections are [paper], [symbols], [constants], [laws] and [[claim]]")
    paper = _paper(data.get("paper"), fail)
    symbols = _symbols(data.get("symbols", {}), fail)
    constants = _constants(data.get("constants", {}), symbols, fail)
    laws = _laws(data.get("laws", {}), symbols, constants, fail)

    claims, errors, seen = [], [], set()
    raw_claims = data.get("claim", [])
    if not isinstance(raw_claims, list) or not all(isinstance(c, dict) for c in raw_claims):
        fail("claims must be written as [[claim]] tables")
    reader = Reader(symbols, laws, constants)
    for i, c in enumerate(raw_claims, start=1):
        cid = c.get("id") if isinstance(c.get("id"), str) and not bad_character(c["id"]) else f"#{i}"
        try:
            claims.append(_claim(shown, cid, c, seen, dataclasses.replace(reader)))  # a claim may add local names
        except AuditInputError as exc:
            errors.append(exc)
    if not claims and not errors:
        fail("no [[claim]] entries")
    return ClaimsFile(shown, paper, symbols, laws, claims, errors, constants,
                      hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest())


def _paper(p, fail) -> Paper:
    if not isinstance(p, dict):
        fail("missing [paper] section (needs at least `id` and `title`)")
    unknown = _unknown(p, _PAPER_KEYS, "[paper]")
    if unknown:
        fail(unknown)
    try:
        for key in ("id", "title"):
            if key not in p:
                raise FieldError(f"`{key}` is missing (a non-empty string)")
        ident, title = _text(p["id"], "`id`", multiline=False), _text(p["title"], "`title`")
        arxiv = _text(p["arxiv"], "`arxiv`", multiline=False) if "arxiv" in p else ""
        version = _text(p["version"], "`version`") if "version" in p else ""
        sources = p.get("sources", [])
        if not isinstance(sources, list):
            raise FieldError(f"`sources` must be a list of strings, not {type_name(sources)}")
        sources = [_text(s, f"`sources` item {i + 1}") for i, s in enumerate(sources)]
    except FieldError as exc:
        fail(f"[paper] {exc}")
    return Paper(ident, title, arxiv, version, sources)


def _symbols(raw, fail) -> dict[str, SymbolSpec]:
    if not isinstance(raw, dict):
        fail("[symbols] must be a table of `name = { range = [low, high], ... }` entries")
    symbols: dict[str, SymbolSpec] = {}
    for name, spec in raw.items():
        where = f"[symbols] `{printable(name)}`"
        if not _NAME.fullmatch(name) or name in FUNCTIONS or name in CONSTANTS or name == "exact":
            fail(f"{where}: not a usable symbol name (letters, digits and _, not a function or constant name)")
        if not isinstance(spec, dict):
            fail(f"{where} must be a table {{ range = [low, high], ... }}, not {type_name(spec)}")
        unknown = _unknown(spec, _SYMBOL_KEYS, where)
        if unknown:
            fail(unknown)
        if "range" not in spec:
            fail(f"{where} needs `range = [low, high]`")
        integer, rational = spec.get("integer", False), spec.get("rational", False)
        for key, flag in (("integer", integer), ("rational", rational)):
            if not isinstance(flag, bool):
                fail(f"{where}: `{key}` must be true or false (a TOML boolean), not {type_name(flag)}")
        if integer and rational:
            fail(f"{where}: give `integer` or `rational`, not both (an integer is rational)")
        try:
            description = _text(spec["description"], "`description`", required=False) if "description" in spec else ""
            low, high = BOUNDS.convert(spec["range"], Reader(symbols, {}))
            if integer:  # the integers of the range: [1.5, 10] is [2, 10] everywhere (boxes, samples, proofs)
                low, high = integer_bounds(low, high, spec["range"])
        except FieldError as exc:
            fail(f"{where}: {exc}" if str(exc).startswith("`") else f"{where} range: {exc}")
        kind = {"rational": True} if rational else {}  # (only rational symbols need Var's `rational`)
        symbol = Var(name, low, high, description, integer=integer, **kind).symbol
        symbols[name] = SymbolSpec(name, symbol, low, high, description, integer, rational)
    return symbols


def _constants(raw, symbols, fail) -> dict[str, Printed]:
    """``[constants]``: named numbers, each one quantity wherever it is used."""
    if not isinstance(raw, dict):
        fail("[constants] must be a table of `name = \"0.34\"` entries")
    out: dict[str, Printed] = {}
    reader = Reader({}, {})
    for name, spec in raw.items():
        where = f"[constants] `{printable(name)}`"
        if not _NAME.fullmatch(name) or name in FUNCTIONS or name in CONSTANTS or name == "exact":
            fail(f"{where}: not a usable constant name (letters, digits and _, not a function or constant name)")
        if name in symbols:
            fail(f"{where} is also a symbol")
        details = {}
        if isinstance(spec, dict):
            unknown = _unknown(spec, _CONSTANT_KEYS, where)
            if unknown:
                fail(unknown)
            if "value" not in spec:
                fail(f"{where} needs `value`")
            try:
                details = {k: _text(spec[k], f"`{k}`") for k in ("where", "description") if k in spec}
            except FieldError as exc:
                fail(f"{where}: {exc}")
            spec = spec["value"]
        try:
            value = parse_value(spec, reader)
        except FieldError as exc:
            fail(f"{where}: {exc}")
        negated = isinstance(value, sp.Mul) and len(value.args) == 2 and value.args[0] == -1 and \
            isinstance(value.args[1], Printed)
        if not (isinstance(value, Printed) or value.is_Rational or negated):
            fail(f"{where} must be one number: \"0.34\", \"0.34 ± 0.01\", [low, high] or a TOML number "
                 f"(got `{printable(spec)}`)")
        out[name] = named(name, value, details.get("where", ""), details.get("description", ""))
    return out


def _laws(raw, symbols, constants, fail) -> dict[str, sp.Expr]:
    if not isinstance(raw, dict):
        fail("[laws] must be a table of `name = \"expression\"`")
    laws: dict[str, sp.Expr] = {}
    sym = {n: s.symbol for n, s in symbols.items()}
    for name, text in raw.items():
        where = f"[laws] `{printable(name)}`"
        if not _NAME.fullmatch(name) or name in FUNCTIONS or name in CONSTANTS or name == "exact":
            fail(f"{where}: not a usable law name (letters, digits and _, not a function or constant name)")
        if name in symbols or name in constants:
            fail(f"{where} is also a {'symbol' if name in symbols else 'constant'}")
        if not isinstance(text, (str, int, float)) or isinstance(text, bool):
            fail(f"{where} must be an expression (a string), not {type_name(text)}")
        try:
            laws[name] = parse_expression(text, sym, {**{n: (p.mid if p.exact else p) for n, p in constants.items()},
                                                      **laws})
        except ExpressionError as exc:
            fail(f"{where}: {exc}")
    return laws


def _claim(path: str, cid: str, c: dict, seen: set, reader: Reader) -> Claim:
    def fail(message):
        raise AuditInputError(path, cid, message)

    try:
        if "id" not in c:
            raise FieldError("missing field `id`")
        ident = _text(c["id"], "`id`", multiline=False)
    except FieldError as exc:
        fail(str(exc))
    if ident in seen:
        fail("duplicate claim id")
    seen.add(ident)
    registry = kinds()
    kind = c.get("kind")
    if not isinstance(kind, str) or kind not in registry:
        fail(f"`kind` must be one of {', '.join(registry)} (got {printable(repr(kind))})")
    k = registry[kind]
    unknown = _unknown(c, COMMON + k.required + k.optional, f"kind `{kind}`")
    if unknown:
        fail(unknown.replace("unknown key", "unknown field"))
    texts = {}
    try:
        for key in ("quote", "where", "expected"):
            if key not in c:
                raise FieldError(f"missing field `{key}`")
            texts[key] = _text(c[key], f"`{key}`")
        texts["note"] = _text(c["note"], "`note`", required=False) if "note" in c else ""
    except FieldError as exc:
        fail(str(exc))
    if c["expected"] not in VERDICTS:
        fail(f"`expected` must be one of {', '.join(VERDICTS)} (got `{printable(c['expected'])}`)")
    missing = [f for f in k.required if f not in c]
    if missing:
        fail(f"missing field{'s' * (len(missing) > 1)} {', '.join(f'`{m}`' for m in missing)} for kind `{kind}`")
    values = {}
    for f in k.fields:
        if f.name in c:
            try:
                values[f.name] = f.type.convert(c[f.name], reader)
            except FieldError as exc:
                fail(f"field `{f.name}`: {exc}")
    if k.check is not None:
        problem = k.check(values)
        if problem:
            fail(problem)
    fields = {key: val for key, val in c.items() if key not in COMMON}
    return Claim(ident, kind, texts["quote"], texts["where"], c["expected"], fields, texts["note"], values)
