"""The graph of Lean constants that the axiom audit walks, built from ``.olean``
files, and its per-toolchain cache for the core library.

Each constant becomes a node whose edges are exactly those Lean's
``CollectAxioms.collect`` (``src/Lean/Util/CollectAxioms.lean``, 4.28) follows:

=========================  ======================================
constant                   edges to the constants used in
=========================  ======================================
``axiom``                  its type (and it is an axiom itself)
``def``/``theorem``/       its type and its value
``opaque``
``inductive``              its type, and its constructors
``constructor``/recursor   its type
``quot``                   nothing
=========================  ======================================

A node has one of these classes (:data:`CLASSES`):

``axiom``
    a genuine axiom (declared with ``axiom``).
``stripped``
    shown as an axiom in a module's exported view because its body is not
    exported (``privateConstKindsExt`` names its real kind).  The registry
    toolchain's library ships only exported views, so the proofs of almost
    all core theorems are absent: what they rest on cannot be seen.
``missing``
    used but found in no module read (core-private helpers that exposed
    definitions mention; Lean skips unknown constants too).
``unsafe``
    an ``unsafe`` definition (or other constant): the kernel accepts no safe
    declaration that uses one, so a theorem that reaches one was not checked
    by the kernel (``set_option debug.skipKernelTC``); the audit counts it as
    an axiom.
``body``
    anything else: its edges say everything about it.

>>> g = ConstGraph.from_nodes([("ax", "axiom", []), ("t", "body", ["ax", "gone"])])
>>> [(str(n), g.classes[i], [str(g.names[j]) for j in g.deps[i]]) for i, n in enumerate(g.names)]
[('ax', 'axiom', []), ('t', 'body', ['ax', 'gone']), ('gone', 'missing', [])]

Reading all of ``Init`` (506 modules, 46k constants) takes about 4 s, so
:func:`core_graph` keeps the core part in a cache file (600 KB, loaded in
about 0.25 s) keyed by the library folder, the root modules and a hash of
the reader's own code, and checks on load that every module file still has
the size and modification time it had.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Sequence

from pysym.lean.compacted import OleanError
from pysym.lean.olean import LEAN_GITHASH, OleanModule, module_path, read_olean
from pysym.lean.terms import Name
from pysym.paths import write_atomic

__all__ = ["CLASSES", "GRAPH_VERSION", "ConstGraph", "module_nodes", "build_graph", "core_graph", "import_closure"]

CLASSES = ("axiom", "stripped", "missing", "body", "unsafe")
# Bump when the reader or the graph's meaning changes: it keys the cache.
GRAPH_VERSION = 2


@dataclass
class ConstGraph:
    """Constants (``names``), their class and module, and their edges."""

    names: list[Name] = field(default_factory=list)
    classes: list[str] = field(default_factory=list)
    deps: list[tuple[int, ...]] = field(default_factory=list)
    module_of: list[int] = field(default_factory=list)  # index into ``modules``; -1 for missing
    modules: list[str] = field(default_factory=list)
    kinds: list[str] = field(default_factory=list)  # ConstantInfo kind as stored ("" for missing)
    index: dict[Name, int] = field(default_factory=dict)  # name -> id
    offset: int = 0  # ids of this graph's nodes start here (after its base graph's)

    def __len__(self) -> int:
        return len(self.names)

    @classmethod
    def from_nodes(cls, nodes: Iterable[tuple], base: "ConstGraph | None" = None,
                   modules: Sequence[str] = ("",)) -> "ConstGraph":
        """A graph of ``(name, class, used names[, kind[, module index]])``
        nodes; names are ``Name`` or dotted strings.  With ``base``, the new
        nodes get ids from ``len(base)`` on and a used name that is not among
        them resolves to ``base``'s node (only the new nodes are stored).
        Unresolved names become ``missing`` nodes, after the others.  A name
        given twice (Lean realizes some auxiliary lemmas in several modules)
        is one node with the edges of both."""
        if base is not None and base.offset:
            raise ValueError("the base graph must not itself have a base")
        offset = len(base) if base is not None else 0
        g = cls(modules=list(modules), offset=offset)
        raw = []
        for node in nodes:
            name = Name.of(node[0]) if isinstance(node[0], str) else node[0]
            if node[1] not in CLASSES:
                raise ValueError(f"unknown class {node[1]!r}")
            if name in g.index:
                # the same auxiliary (e.g. an equation lemma) realized in two modules: one node
                raw[g.index[name] - offset] = set(raw[g.index[name] - offset]) | set(node[2])
                continue
            g.index[name] = offset + len(g.names)
            g.names.append(name)
            g.classes.append(node[1])
            g.kinds.append(node[3] if len(node) > 3 else "")
            g.module_of.append(node[4] if len(node) > 4 else 0)
            raw.append(node[2])
        raw = [{Name.of(u) if isinstance(u, str) else u for u in used} for used in raw]
        known = g.index if base is None else _Chain(g.index, base.index)
        missing = {u for used in raw for u in used if u not in known}
        for u in sorted(missing):  # sorted: ids must not depend on set order (string hashing)
            g.index[u] = offset + len(g.names)
            g.names.append(u)
            g.classes.append("missing")
            g.kinds.append("")
            g.module_of.append(-1)
        find = known.__getitem__
        deps = [tuple(sorted(set(map(find, used)))) for used in raw]
        g.deps = deps + [()] * (len(g.names) - len(deps))
        return g


class _Chain:
    """Look a name up in a graph's own index, then in its base's."""

    def __init__(self, first: dict, second: dict):
        self.first, self.second = first, second

    def __contains__(self, key) -> bool:
        return key in self.first or key in self.second

    def __getitem__(self, key):
        got = self.first.get(key)
        return self.second[key] if got is None else got


def module_nodes(mod: OleanModule) -> list[tuple[Name, str, set[Name], str]]:
    """The nodes of one module: ``(name, class, used names, kind)``."""
    exported_view = mod.is_module and mod.level != "private"
    original = mod.original_kinds() if exported_view else {}
    out = []
    for name, c in mod.constants.items():
        kind = c.kind
        if kind == "quot":
            used: set[Name] = set()
        elif kind in ("defn", "thm", "opaque"):
            used = c.type_constants() | c.value_constants()
        elif kind == "induct":
            used = c.type_constants() | set(c.info["ctors"])
        else:
            used = c.type_constants()
        if kind == "axiom":
            klass = "stripped" if original.get(name, "axiom") != "axiom" else "axiom"
        elif c.info.get("is_unsafe") is True or c.info.get("safety") == "unsafe":
            klass = "unsafe"
        else:
            klass = "body"
        out.append((name, klass, used, kind))
    return out


def import_closure(imports: Iterable[Name], lib_dirs: Sequence[Path],
                   opened: dict[Path, OleanModule] | None = None) -> list[tuple[Name, Path]]:
    """Every module reachable from ``imports`` through ``import``, each with
    its file under ``lib_dirs`` (searched in order, as ``LEAN_PATH``);
    dependencies come before the modules importing them.  Modules read on the
    way are left in ``opened`` (path -> module) for reuse."""
    opened = {} if opened is None else opened
    order: list[tuple[Name, Path]] = []
    state: dict[Name, int] = {}  # 1 = on the stack, 2 = done
    for root in imports:
        stack: list[list] = [[root, None, None]]
        while stack:
            frame = stack[-1]
            mod = frame[0]
            if frame[1] is None:
                if state.get(mod) == 2:
                    stack.pop()
                    continue
                path = _find(mod, lib_dirs)
                if path not in opened:
                    opened[path] = read_olean(path)
                state[mod] = 1
                frame[1] = [i.module for i in opened[path].imports]
                frame[2] = path
            pending = frame[1]
            while pending and state.get(pending[0]) == 2:
                pending.pop(0)
            if not pending:
                stack.pop()
                state[mod] = 2
                order.append((mod, frame[2]))
            elif state.get(pending[0]) == 1:
                raise OleanError(f"import cycle through module {pending[0]}")
            else:
                stack.append([pending.pop(0), None, None])
    return order


def _find(mod: Name, lib_dirs: Sequence[Path]) -> Path:
    for d in lib_dirs:
        p = module_path(d, mod)
        if p.is_file():
            return p
    where = ", ".join(map(str, lib_dirs))
    raise OleanError(f"module {mod} is imported but no {'/'.join(map(str, mod))}.olean is in {where}")


def build_graph(modules: Sequence[tuple[Name, Path]], base: ConstGraph | None = None,
                level: str = "private", opened: dict[Path, OleanModule] | None = None) -> ConstGraph:
    """One graph for the modules ``(name, path)`` (on top of ``base``)."""
    nodes = []
    for k, (_name, path) in enumerate(modules):
        mod = (opened or {}).get(path) or read_olean(path, level=level)
        nodes.extend(n + (k,) for n in module_nodes(mod))
    return ConstGraph.from_nodes(nodes, base=base, modules=[str(m) for m, _ in modules])


# --------------------------------------------------------------------------- core cache


def _files_signature(modules: Sequence[tuple[Name, Path]]) -> list[list]:
    out = []
    for name, path in modules:
        st = os.stat(path)
        out.append([str(name), str(path), st.st_size, st.st_mtime_ns])
    return out


def core_graph(roots: Sequence[Name | str], lib_dirs: Sequence[Path], cache_dir: Path | None = None) -> ConstGraph:
    """The graph of every constant in the import closure of ``roots`` (for
    example ``Init``), read from ``lib_dirs`` or from the cache in
    ``cache_dir`` (``None``: no cache)."""
    roots = sorted(Name.of(r) if isinstance(r, str) else r for r in roots)
    lib_dirs = [Path(d).resolve() for d in lib_dirs]
    key = hashlib.sha256(json.dumps(
        {"v": GRAPH_VERSION, "reader": _reader_fingerprint(), "lean": LEAN_GITHASH,
         "roots": [str(r) for r in roots], "lib": [str(d) for d in lib_dirs]}, sort_keys=True).encode()
    ).hexdigest()[:20]
    path = Path(cache_dir) / f"core-axiom-graph-{key}.json.z" if cache_dir is not None else None
    if path is not None and path.is_file():
        g = _load(path)
        if g is not None:
            return g
    opened: dict[Path, OleanModule] = {}
    modules = import_closure(roots, lib_dirs, opened)
    g = build_graph(modules, opened=opened)
    if path is not None:
        _save(path, g, _files_signature(modules))
    return g


def _reader_fingerprint() -> str:
    """A hash of the reader's own code, so a changed reader never trusts a
    graph an older one cached."""
    from pysym.lean import compacted, decode, olean, terms

    digest = hashlib.sha256()
    for module in (compacted, decode, olean, terms, sys.modules[__name__]):
        digest.update(Path(module.__file__).read_bytes())
    return digest.hexdigest()


def _save(path: Path, g: ConstGraph, files: list[list]) -> None:
    data = {
        "version": GRAPH_VERSION,
        "lean": LEAN_GITHASH,
        "files": files,
        "modules": g.modules,
        "names": [list(n) for n in g.names],
        "classes": "".join(c[0] for c in g.classes),
        "kinds": g.kinds,
        "module_of": g.module_of,
        "deps": [list(d) for d in g.deps],
    }
    text = json.dumps(data, separators=(",", ":"), sort_keys=True)
    write_atomic(path, zlib.compress(text.encode(), 6))


_CLASS_OF = {c[0]: c for c in CLASSES}


def _load(path: Path) -> ConstGraph | None:
    """The cached graph, or ``None`` if unreadable or stale."""
    try:
        data = json.loads(zlib.decompress(path.read_bytes()))
        if data["version"] != GRAPH_VERSION or data["lean"] != LEAN_GITHASH:
            return None
        for _name, file, size, mtime in data["files"]:
            st = os.stat(file)
            if st.st_size != size or st.st_mtime_ns != mtime:
                return None
        names = [Name(n) for n in data["names"]]
        g = ConstGraph(
            names=names,
            classes=[_CLASS_OF[c] for c in data["classes"]],
            deps=[tuple(d) for d in data["deps"]],
            module_of=data["module_of"],
            modules=data["modules"],
            kinds=data["kinds"],
            index={n: i for i, n in enumerate(names)},
        )
        if not (len(g.classes) == len(g.deps) == len(g.module_of) == len(g.kinds) == len(names)):
            return None
        return g
    except (OSError, ValueError, KeyError, TypeError, zlib.error):
        return None
