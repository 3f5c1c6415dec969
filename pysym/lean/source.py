"""Reading Lean sources without Lean: modules, imports and declarations.

Everything here is read from the exact tokens of :mod:`pysym.lean.lexer`
through the gate (:mod:`pysym.lean.gate`), so a word inside a comment,
string or ``«»`` name is never mistaken for code:

>>> [d.name for d in declarations("namespace A\\ntheorem t : True := trivial -- def no\\nend A\\ndef B.f := 1")]
['A.t', 'B.f']
>>> parse_imports("import Init\\nimport MoeTheory.Choose\\n/-! doc -/")
[(1, 'Init'), (2, 'MoeTheory.Choose')]
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from pysym.errors import ProjectError
from pysym.lean.gate import ALLOWED_EXTERNAL_IMPORTS, Declaration, Problem, Scan, scan

__all__ = [
    "Problem",
    "Declaration",
    "Module",
    "declarations",
    "parse_imports",
    "discover_modules",
    "user_modules",
    "ALLOWED_EXTERNAL_IMPORTS",
]


@dataclass(frozen=True)
class Module:
    name: str  # MoeTheory.Foo
    path: Path
    relpath: str  # MoeTheory/Foo.lean
    text: str

    @cached_property
    def scan(self) -> Scan:
        """The gate's reading of this module (tokens, problems, imports, declarations)."""
        return scan(self.text, self.relpath)

    @property
    def imports(self) -> list[tuple[int, str]]:
        return [(tok.line, name) for tok, name in self.scan.imports]


def declarations(text: str) -> list[Declaration]:
    """Declarations of a module, with names qualified by open namespaces."""
    return scan(text).declarations


def parse_imports(text: str) -> list[tuple[int, str]]:
    """``(line, module)`` for each ``import`` of the file header."""
    return [(tok.line, name) for tok, name in scan(text).imports]


def discover_modules(root: Path) -> list[Module]:
    """``MoeTheory.lean`` and every ``MoeTheory/**/*.lean``, sorted by name."""
    lib = root / "MoeTheory"
    if not lib.is_dir():
        raise ProjectError(f"{root}: no MoeTheory/ folder")
    paths = sorted(lib.rglob("*.lean"))
    top = root / "MoeTheory.lean"
    if top.is_file():
        paths.append(top)
    modules = []
    seen: dict[str, str] = {}
    for p in paths:
        rel = p.relative_to(root).as_posix()
        name = rel[: -len(".lean")].replace("/", ".")
        # each folder and file name must be one plain component: `Evil.B.lean` beside `Evil/B.lean` would be the
        # same module, and only one of them would be checked while Lean imports the other
        if not all(_plain(part) for part in rel[: -len(".lean")].split("/")):
            raise ProjectError(f"{rel}: every folder and file name below MoeTheory/ must be a plain Lean identifier "
                               "(letters, digits, _ ; no dot or space), since it is a component of the module name")
        if name in seen:
            raise ProjectError(f"{rel} and {seen[name]} would both be the module {name}")
        seen[name] = rel
        try:
            text = p.read_text(encoding="utf-8")
        except UnicodeDecodeError as exc:
            raise ProjectError(f"{rel}: not UTF-8 ({exc})") from None
        modules.append(Module(name, p, rel, text))
    return sorted(modules, key=lambda m: m.name)


def user_modules(paths, base: Path | None = None) -> list[Module]:
    """A user's Lean files (files, or folders searched for ``*.lean``) as
    modules to check against the library.  A file's module name is its path
    below the folder given (``Lemmas/Bound.lean`` in ``proofs/`` is
    ``Lemmas.Bound``), or its stem when the file itself is given; problems
    are reported at the path relative to ``base`` (default: the working
    directory)."""
    base = Path(base or Path.cwd()).resolve()
    found: dict[str, Module] = {}
    for given in paths:
        given = Path(given)
        if not given.exists():
            raise ProjectError(f"{given}: no such file or folder")
        if given.is_dir():
            files = [(p, p.relative_to(given)) for p in sorted(given.rglob("*.lean"))]
            if not files:
                raise ProjectError(f"{given}: no .lean files in this folder")
        elif given.is_file() and given.suffix == ".lean":
            files = [(given, Path(given.name))]
        else:
            raise ProjectError(f"{given}: not a .lean file or a folder of them")
        for path, rel in files:
            name = ".".join(rel.with_suffix("").parts)
            try:
                text = path.read_text(encoding="utf-8")
            except UnicodeDecodeError as exc:
                raise ProjectError(f"{path}: not UTF-8 ({exc})") from None
            resolved = path.resolve()
            shown = resolved.relative_to(base).as_posix() if resolved.is_relative_to(base) else str(resolved)
            if name in found and found[name].path != resolved:
                raise ProjectError(f"{path}: two files would both be the module `{name}`")
            found[name] = Module(name, resolved, shown, text)
    return [found[n] for n in sorted(found)]


def _plain(part: str) -> bool:
    """A module-name component that needs no escaping (see :func:`pysym.lean.gate.plain_name`)."""
    from pysym.lean.lexer import is_id_first, is_id_rest

    return bool(part) and is_id_first(part[0]) and all(is_id_rest(c) for c in part[1:])
