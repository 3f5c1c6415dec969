r"""``#print axioms``, done outside Lean: the axioms every declaration of the
project depends on, read from the ``.olean`` files Lean wrote.

The registry (wasm) Lean refuses ``#print axioms``, so this audit computes it
from the compiled result instead of trusting the source text.  For each
constant of the given modules it follows the edges Lean's ``CollectAxioms``
follows (types, values, constructors of inductives: see
:mod:`pysym.lean.constgraph`) through the project and the core library, and
collects the axioms reached.  :func:`findings` then lists every declaration
that reaches an axiom other than ``propext``, ``Classical.choice`` and
``Quot.sound``: ``sorryAx`` (a ``sorry``, including the one Lean inserts for a
proof that failed to elaborate), ``Lean.ofReduceBool``/``Lean.ofReduceNat``
(``native_decide``: compiled code is trusted), ``Lean.trustCompiler``, the
compiler's ``lc*`` axioms, or an ``axiom`` declared in the project, each with
the chain of constants through which it is reached.  ``Lean.reduceBool`` and
``Lean.reduceNat`` count as axioms (:data:`KERNEL_EVALUATION`): the kernel
reduces them by running compiled code, with no axiom in the proof.

On a small graph (:class:`~pysym.lean.constgraph.ConstGraph` nodes are
``(name, class, used names)``):

>>> from pysym.lean.constgraph import ConstGraph
>>> core = ConstGraph.from_nodes([("propext", "axiom", []), ("sorryAx", "axiom", []),
...                               ("Nat.lemma", "stripped", [])])
>>> proj = ConstGraph.from_nodes([("ok", "body", ["propext", "Nat.lemma"]),
...                               ("helper", "body", ["sorryAx"]), ("user", "body", ["helper", "ok"])],
...                              base=core)
>>> audit = audit_graph(core, proj)
>>> audit["user"].axioms, audit["ok"].axioms, audit["ok"].unverified
(('propext', 'sorryAx'), ('propext',), 1)
>>> [(f.declaration, f.axiom, f.path) for f in findings(audit)]
[('helper', 'sorryAx', ('helper', 'sorryAx')), ('user', 'sorryAx', ('user', 'helper', 'sorryAx'))]
>>> print(findings(audit)[1].message.replace(", through", ",\nthrough"))
user depends on the axiom sorryAx (a `sorry`, or an elaboration error's stand-in proof),
through helper: user -> helper -> sorryAx

What remains trusted.  The registry toolchain's library holds only the
exported view of each core module, where a theorem (and any definition
whose body is not exposed) is an axiom-like constant without its proof.  Such
a constant is not an axiom (Lean records its original kind), but what its
proof rests on cannot be seen: the audit counts those constants per
declaration (``unverified``) and trusts them, as it trusts the Lean binary
and kernel that checked them.  So an axiom used *only* inside the proof of a
core lemma (for example ``Classical.choice`` inside ``Classical.em``, or
``Quot.sound`` inside ``funext``) is not listed; axioms used by the project's
own terms, or by core definitions whose bodies are shipped, are.

In a check, after ``lean -o build/.../MoeTheoryCheck.olean MoeTheoryCheck.lean``::

    audit = audit_oleans([olean], [toolchain.lib], cache_dir=cache)
    for f in findings(audit):            # empty for a sound tree
        print(f.message)
    audit["MoeTheory.choose_le_pow"].axioms  # for statements.json

With the core library's graph cached this takes well under a second for the
project's 403 constants (see the module :mod:`pysym.lean.constgraph`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Mapping, Sequence

from pysym.lean.compacted import OleanError
from pysym.lean.constgraph import ConstGraph, core_graph, module_nodes
from pysym.lean.olean import OleanModule, read_olean
from pysym.lean.terms import Name

__all__ = [
    "STANDARD_AXIOMS",
    "KERNEL_EVALUATION",
    "DeclAxioms",
    "Finding",
    "AxiomAudit",
    "audit_oleans",
    "audit_graph",
    "findings",
    "user_name",
]

STANDARD_AXIOMS = frozenset({"propext", "Classical.choice", "Quot.sound"})

# Not axioms, but as trusted as one: where the kernel meets `Lean.reduceBool c` (or `Lean.reduceNat c`), it
# runs `c`'s compiled code instead of reducing it, so `theorem t : Lean.reduceBool c = true := rfl` rests on
# the compiler and the interpreter with no axiom in sight (`native_decide` adds `Lean.ofReduceBool` on top).
# The audit counts them as axioms: a declaration that reaches one is a finding.
KERNEL_EVALUATION = frozenset({"Lean.reduceBool", "Lean.reduceNat"})

_WHY = {
    "sorryAx": "a `sorry`, or an elaboration error's stand-in proof",
    "Lean.ofReduceBool": "`native_decide`/`decide +native`: trusts compiled code",
    "Lean.ofReduceNat": "trusts compiled code for `Nat` arithmetic",
    "Lean.trustCompiler": "trusts the compiler",
    "Lean.reduceBool": "the kernel runs compiled code to reduce it: as trusted as an axiom",
    "Lean.reduceNat": "the kernel runs compiled code to reduce it: as trusted as an axiom",
}


def user_name(name: Name) -> Name:
    """The name a ``private`` declaration was written with: Lean stores it as
    ``_private.<module>.<n>.<name>``.

    >>> str(user_name(Name.of("_private.MoeTheoryCheck.0.MoeTheory.foo")))
    'MoeTheory.foo'
    """
    if name and name[0] == "_private":
        for i, c in enumerate(name):
            if isinstance(c, int):
                return Name(name[i + 1 :])
    return name


@dataclass(frozen=True)
class DeclAxioms:
    """What one declaration of the project rests on."""

    name: str  # as written (private prefix removed)
    full_name: str  # as stored in the .olean
    kind: str  # "thm", "defn", "axiom", ... (terms.CONSTANT_KINDS)
    module: str
    axioms: tuple[str, ...]  # sorted
    unverified: int  # core constants reached whose bodies the library does not ship

    def to_json(self) -> dict:
        return {"kind": self.kind, "module": self.module, "axioms": list(self.axioms),
                "unverified_core": self.unverified}


@dataclass(frozen=True)
class Finding:
    """A declaration that reaches a non-standard axiom, and how."""

    declaration: str
    axiom: str
    path: tuple[str, ...]  # the declaration, the constants in between, the axiom
    project_axiom: bool = False
    unsafe: bool = False  # the "axiom" is an unsafe constant: what reaches it skipped the kernel check

    @property
    def via(self) -> str | None:
        """The constant that uses the axiom directly (``None``: the declaration does)."""
        return self.path[-2] if len(self.path) > 2 else None

    @property
    def message(self) -> str:
        if self.unsafe:
            what = (f"{self.axiom} is an unsafe constant" if self.declaration == self.axiom else
                    f"{self.declaration} depends on the unsafe constant {self.axiom}")
            via = f", through {self.via}: " + " -> ".join(self.path) if self.via is not None else ""
            return (f"{what} (the kernel accepts no safe declaration that uses one: it was not kernel-checked, "
                    f"as with `set_option debug.skipKernelTC`){via}")
        why = "an axiom declared in the project" if self.project_axiom else _WHY.get(self.axiom)
        if self.declaration == self.axiom:
            return f"{self.declaration} is {why or 'an axiom'}"
        what = "" if self.axiom in KERNEL_EVALUATION and not self.project_axiom else "the axiom "
        text = f"{self.declaration} depends on {what}{self.axiom}"
        if why:
            text += f" ({why})"
        if self.via is not None:
            text += f", through {self.via}: " + " -> ".join(self.path)
        return text


class AxiomAudit:
    """The axioms of every declaration in the audited modules.

    ``audit[name]`` is a :class:`DeclAxioms`; ``name`` is the name as written
    (a ``private`` declaration without its ``_private.<module>.<n>`` prefix)
    or as stored.  Iteration yields the declarations sorted by name.  Where
    the written name of a private constant is also the name of another
    constant (of the core library, say), the stored name is shown instead, so
    a ``private axiom propext`` can never pass for Lean's ``propext``.
    """

    def __init__(self, core: ConstGraph, project: ConstGraph, results: dict[int, tuple[int, int]],
                 axiom_bits: list[int]):
        self._core, self._project = core, project
        self._shown: dict[int, str] = {}  # project node -> shown name
        self._ids: dict[str, int] = {}  # shown or stored name -> project node
        self._axiom_nodes: dict[str, tuple[int, ...]] = {}
        self._name_shown_project_nodes(core, project)
        decls = []
        for local, name in enumerate(project.names):
            if project.classes[local] == "missing":
                continue
            node = project.offset + local
            ax_mask, unv = results[node]
            ax_nodes = tuple(sorted((axiom_bits[b] for b in _bits(ax_mask)), key=self._name))
            mod = project.modules[project.module_of[local]] if project.module_of[local] >= 0 else ""
            shown = self._shown[node]
            decls.append(DeclAxioms(shown, str(name), project.kinds[local], mod,
                                    tuple(self.show(v) for v in ax_nodes), bin(unv).count("1")))
            self._axiom_nodes[shown] = ax_nodes
        self.declarations: dict[str, DeclAxioms] = {d.name: d for d in sorted(decls, key=lambda d: d.name)}

    def _name_shown_project_nodes(self, core: ConstGraph, project: ConstGraph) -> None:
        users: dict[str, list[int]] = {}
        for local, name in enumerate(project.names):
            if project.classes[local] != "missing":
                users.setdefault(str(user_name(name)), []).append(project.offset + local)
        for user, nodes in users.items():
            clash = len(nodes) > 1 or (Name.of(user) in core.index and user != str(self._name(nodes[0])))
            for node in nodes:
                shown = str(self._name(node)) if clash else user
                self._shown[node] = shown
                self._ids[shown] = node
                self._ids.setdefault(str(self._name(node)), node)

    # ----------------------------------------------------------------- graph access

    def _name(self, node: int) -> Name:
        if node < self._project.offset:
            return self._core.names[node]
        return self._project.names[node - self._project.offset]

    def show(self, node: int) -> str:
        """How constant ``node`` is named in results and messages."""
        return self._shown.get(node) or str(self._name(node))

    def is_project(self, node: int) -> bool:
        return node in self._shown

    def _deps(self, node: int) -> tuple[int, ...]:
        if node < self._project.offset:
            return self._core.deps[node]
        return self._project.deps[node - self._project.offset]

    def _class(self, node: int) -> str:
        if node < self._project.offset:
            return self._core.classes[node]
        return self._project.classes[node - self._project.offset]

    def node(self, name: str) -> int:
        """The node of a declaration of the audited modules."""
        return self._ids[name]

    def axiom_nodes(self, declaration: str) -> tuple[int, ...]:
        return self._axiom_nodes[self[declaration].name]

    # ----------------------------------------------------------------- queries

    def __getitem__(self, name: str) -> DeclAxioms:
        return self.declarations[self._shown[self._ids[name]]]

    def __contains__(self, name: str) -> bool:
        return name in self._ids

    def __iter__(self):
        return iter(self.declarations.values())

    def __len__(self) -> int:
        return len(self.declarations)

    def path_to(self, start: int, goal: int) -> tuple[str, ...]:
        """A shortest chain of constants from node ``start`` to node ``goal``."""
        parent = {start: -1}
        queue = [start]
        for v in queue:
            if v == goal:
                break
            for w in self._deps(v):
                if w not in parent:
                    parent[w] = v
                    queue.append(w)
        if goal not in parent:
            raise KeyError(f"{self.show(start)} does not depend on {self.show(goal)}")
        chain = []
        while goal != -1:
            chain.append(self.show(goal))
            goal = parent[goal]
        return tuple(reversed(chain))

    def path(self, declaration: str, axiom: str) -> tuple[str, ...]:
        """A shortest chain of constants from ``declaration`` to one of its
        axioms (named as in :attr:`DeclAxioms.axioms`)."""
        for v in self.axiom_nodes(declaration):
            if self.show(v) == axiom:
                return self.path_to(self.node(declaration), v)
        raise KeyError(f"{declaration} does not depend on {axiom}")

    def unverified(self, declaration: str) -> list[str]:
        """The core constants without shipped bodies that ``declaration``
        reaches (what :attr:`DeclAxioms.unverified` counts), sorted."""
        start = self.node(declaration)
        seen, stack, out = {start}, [start], []
        while stack:
            v = stack.pop()
            if self._class(v) in ("stripped", "missing"):
                out.append(self._name(v))
            for w in self._deps(v):
                if w not in seen:
                    seen.add(w)
                    stack.append(w)
        return [str(n) for n in sorted(out)]

    def to_json(self) -> dict:
        """``{name: {"kind", "module", "axioms", "unverified_core"}}``, sorted by name."""
        return {k: d.to_json() for k, d in self.declarations.items()}


def _bits(mask: int):
    i = 0
    while mask:
        if mask & 1:
            yield i
        mask >>= 1
        i += 1


def audit_graph(core: ConstGraph, project: ConstGraph) -> AxiomAudit:
    """Audit the nodes of ``project`` (built with ``base=core``)."""
    offset = project.offset
    axiom_bits: list[int] = []
    bit_of: dict[int, int] = {}
    unv_of: dict[int, int] = {}

    def deps(v: int) -> tuple[int, ...]:
        return core.deps[v] if v < offset else project.deps[v - offset]

    evaluated = {core.index[n] for n in map(Name.of, KERNEL_EVALUATION) if n in core.index}

    def own(v: int) -> tuple[int, int]:
        klass = core.classes[v] if v < offset else project.classes[v - offset]
        if klass in ("axiom", "unsafe") or v in evaluated:
            if v not in bit_of:
                bit_of[v] = len(axiom_bits)
                axiom_bits.append(v)
            return 1 << bit_of[v], 0
        if klass in ("stripped", "missing"):
            if v not in unv_of:
                unv_of[v] = len(unv_of)
            return 0, 1 << unv_of[v]
        return 0, 0

    starts = [offset + i for i, c in enumerate(project.classes) if c != "missing"]
    return AxiomAudit(core, project, _closures(starts, deps, own), axiom_bits)


def _closures(starts: Iterable[int], deps, own) -> dict[int, tuple[int, int]]:
    """For every node reachable from ``starts``: the OR of ``own`` over all
    nodes it reaches (itself included).  Tarjan's strongly connected
    components with an explicit stack; a component is finished after every
    component it reaches."""
    index: dict[int, int] = {}
    low: dict[int, int] = {}
    on_stack: set[int] = set()
    stack: list[int] = []
    result: dict[int, tuple[int, int]] = {}
    counter = 0
    for s in starts:
        if s in index:
            continue
        work = [[s, -1]]
        while work:
            frame = work[-1]
            v = frame[0]
            if frame[1] < 0:
                index[v] = low[v] = counter
                counter += 1
                stack.append(v)
                on_stack.add(v)
                frame[1] = 0
            ds = deps(v)
            i = frame[1]
            pushed = False
            while i < len(ds):
                w = ds[i]
                i += 1
                if w not in index:
                    frame[1] = i
                    work.append([w, -1])
                    pushed = True
                    break
                if w in on_stack and index[w] < low[v]:
                    low[v] = index[w]
            if pushed:
                continue
            work.pop()
            if low[v] == index[v]:
                comp = []
                while True:
                    x = stack.pop()
                    on_stack.discard(x)
                    comp.append(x)
                    if x == v:
                        break
                ax = unv = 0
                for x in comp:
                    a, u = own(x)
                    ax |= a
                    unv |= u
                    for w in deps(x):
                        r = result.get(w)
                        if r is not None:
                            ax |= r[0]
                            unv |= r[1]
                for x in comp:
                    result[x] = (ax, unv)
            if work:
                u = work[-1][0]
                if low[v] < low[u]:
                    low[u] = low[v]
    return result


def findings(audit: AxiomAudit, allowed: Iterable[str] = STANDARD_AXIOMS) -> list[Finding]:
    """Every (declaration, axiom) pair whose axiom is not one of the core
    library's axioms named in ``allowed``, sorted by declaration, each with
    the chain of constants that reaches the axiom.  An axiom declared in the
    audited modules is never allowed, whatever its name."""
    allowed = set(allowed)
    out = []
    for d in audit:
        start = audit.node(d.name)
        for v in audit.axiom_nodes(d.name):
            project = audit.is_project(v)
            if not project and audit.show(v) in allowed:
                continue
            path = audit.path_to(start, v) if v != start else (d.name,)
            out.append(Finding(d.name, audit.show(v), path, project_axiom=project, unsafe=audit._class(v) == "unsafe"))
    return out


def _project_module(name: str, path: Path) -> tuple[str, OleanModule]:
    mod = read_olean(path, level="private")
    if mod.is_module and mod.level != "private":
        raise OleanError(
            f"{path}: no {path.name}.private next to it; the exported part of a module hides theorem "
            "bodies, so the audit needs all the parts `lean -o` writes"
        )
    return name, mod


def audit_oleans(paths: Sequence[str | Path] | Mapping[str, str | Path], lib_dirs: Sequence[str | Path], *,
                 cache_dir: str | Path | None = None) -> AxiomAudit:
    """Audit the modules ``paths``: ``X.olean`` files written by ``lean -o``
    (their ``.private`` parts beside them), or a mapping from module name to
    file when the names are not the file names (``{"MoeTheory.Choose":
    ".../Choose.olean"}``).  Imports outside them are read from ``lib_dirs``
    (the toolchain's ``lib/``, searched like ``LEAN_PATH``).  ``cache_dir``
    keeps the core library's graph between runs (see
    :func:`~pysym.lean.constgraph.core_graph`); without it the core library
    is read every time (about 4 s for ``Init``)."""
    if isinstance(paths, Mapping):
        named = [(str(k), Path(v)) for k, v in paths.items()]
    else:
        named = [(Path(p).name.removesuffix(".olean"), Path(p)) for p in paths]
    project = [_project_module(n, p) for n, p in named]
    names = {Name.of(n) for n, _ in project}
    roots = sorted({i.module for _, m in project for i in m.imports} - names)
    core = core_graph(roots, [Path(d) for d in lib_dirs], Path(cache_dir) if cache_dir else None)
    nodes = []
    for k, (_, mod) in enumerate(project):
        nodes.extend(n + (k,) for n in module_nodes(mod))
    graph = ConstGraph.from_nodes(nodes, base=core, modules=[n for n, _ in project])
    return audit_graph(core, graph)
