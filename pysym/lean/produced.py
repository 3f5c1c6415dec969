"""Checks on what Lean produced: the ``.olean`` files of a check.

Layer 2 of ``moe-theory lean check`` reads the compiled result, never the
source text:

* :func:`audit_axioms` -- every declaration's axioms
  (:mod:`pysym.lean.axioms`); anything beyond ``propext``,
  ``Classical.choice`` and ``Quot.sound`` is a problem;
* :func:`declaration_uses` -- which declarations of the library each one
  uses (:mod:`pysym.lean.uses`), for the blueprint and for
* :func:`statement_meanings` -- whether each theorem's printed statement
  means what it says (:mod:`pysym.lean.meaning`);
* :func:`computed_sorts` -- every inductive type declares its universe
  as a literal ``Sort`` (an allow-list against a kernel bug of this Lean);
* :func:`visibility_problems` -- a combined file lets a module see every
  module before it, but ``lake build`` lets it see only what it imports and
  never another module's ``private`` declarations.  A declaration whose
  compiled term uses a declaration its module could not see under ``lake
  build`` is a problem, so the check accepts exactly what ``lake build``
  would, whichever modules happen to share a file.

>>> from pysym.lean.gate import Declaration
>>> where = {"A.a": ("A", "A.lean", 1, True), "B.b": ("B", "B.lean", 3, False), "C.c": ("C", "C.lean", 2, False)}
>>> sees = {"A": {"A"}, "B": {"A", "B"}, "C": {"C"}}
>>> [str(p) for p in visibility_problems({"B.b": ["A.a"], "C.c": ["B.b"]}, where, sees)]  # doctest: +NORMALIZE_WHITESPACE
['B.lean:3:0: `B.b` uses `A.a`, a private declaration of module A: `lake build` would reject it (private
  declarations are visible only in their own file)', 'C.lean:2:0: `C.c` uses `B.b` of module B, which module C
  does not import (directly or indirectly): `lake build` would reject it; add `import B`']
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Mapping

from pysym.lean.source import Problem

__all__ = ["audit_axioms", "declaration_uses", "visibility_problems", "name_clashes", "statement_meanings",
           "computed_sorts", "NOT_READ"]

NOT_READ = ("what Lean compiled was not read (Lean failed, or the toolchain's .olean files cannot be read), so "
            "whether the printed statement means what it says was not checked")


def audit_axioms(oleans: Mapping[str, Path], lib: Path, where: Mapping[str, tuple]):
    """``({declaration: [axioms]}, [(problem, module)])`` for the modules
    ``oleans`` (``{module name: .olean}``), each problem with the module of
    ``oleans`` that holds the constant; ``where`` maps declarations to
    ``(module, path, line, private)`` for the problems' positions."""
    from pysym.lean.axioms import audit_oleans, findings
    from pysym.lean.compacted import OleanError
    from pysym.paths import cache_dir

    try:
        audit = audit_oleans(dict(oleans), [lib], cache_dir=cache_dir() / "olean-axioms")
    except (OleanError, OSError) as exc:
        return {}, [(Problem("<axiom audit>", 0, 0, f"cannot read what Lean wrote ({exc}); the axioms of the "
                                                   "proofs could not be audited"), "")]
    problems = []
    for f in findings(audit):
        name = owner(str(f.declaration), where)
        _, path, line, _ = where.get(name, ("", "<generated>", 0, False))
        problems.append((Problem(path, line, 0, f.message), audit[f.declaration].module))
    axioms = {str(d.name): list(d.axioms) for d in audit}
    return axioms, problems


def owner(name: str, where: Mapping[str, tuple]) -> str:
    """The declaration an auxiliary constant belongs to (``foo._proof_1`` -> ``foo``)."""
    while name not in where and "." in name:
        name = name.rsplit(".", 1)[0]
    return name


def statement_meanings(oleans: list[Path], statements: Mapping[str, dict], declared=()) -> dict[str, list[str]]:
    """``{theorem: problems}``: whether each printed statement means what it
    says, judged on its type in the ``.olean`` files (:mod:`pysym.lean.meaning`);
    ``declared``: every theorem of the tree."""
    from pysym.lean.compacted import OleanError
    from pysym.lean.meaning import statement_problems
    from pysym.lean.olean import read_olean

    constants: dict = {}
    try:
        for path in oleans:
            constants.update(read_olean(Path(path), level="private").constants)
    except (OleanError, OSError) as exc:
        return {n: [f"cannot read what Lean wrote ({exc}), so whether the printed statement means what it says "
                    "was not checked"] for n in statements}
    return statement_problems(list(statements), constants, {n: i["statement"] for n, i in statements.items()},
                              declared)


def declaration_uses(oleans: list[Path], declared: set[str]) -> dict[str, list[str]]:
    """``{declaration: [declarations of the library it uses]}``; empty if
    the files cannot be read."""
    from pysym.lean.compacted import OleanError
    from pysym.lean.uses import uses_from_oleans

    try:
        return uses_from_oleans(list(oleans), declared)
    except (OleanError, OSError):
        return {}


def visibility_problems(uses: Mapping[str, list[str]], where: Mapping[str, tuple],
                        sees: Mapping[str, set[str]]) -> list[Problem]:
    """Uses that ``lake build`` would reject (see the module docstring).
    ``where``: declaration -> ``(module, path, line, private)``; ``sees``:
    module -> the modules it imports, transitively, and itself."""
    problems = []
    for name in sorted(uses):
        if name not in where:
            continue
        module, path, line, _ = where[name]
        for used in uses[name]:
            if used not in where:
                continue
            other, _, _, private = where[used]
            if other not in sees.get(module, {module}):
                problems.append(Problem(path, line, 0, f"`{name}` uses `{used}` of module {other}, which module "
                                        f"{module} does not import (directly or indirectly): `lake build` "
                                        f"would reject it; add `import {other}`"))
            elif private and other != module:
                problems.append(Problem(path, line, 0, f"`{name}` uses `{used}`, a private declaration of "
                                        f"module {other}: `lake build` would reject it (private declarations "
                                        "are visible only in their own file)"))
    return problems


_REALIZED = re.compile(r"\.(eq_\d+|eq_def|eq_unfold|induct|induct_unfolding|mutual_induct|fun_cases|"
                       r"fun_cases_unfolding|splitter|congr_eq_\d+)$")


def name_clashes(oleans: Mapping[str, Path], where: Mapping[str, tuple]) -> list[Problem]:
    """A name that two of the files ``oleans`` both define, private prefixes
    removed: generated constants included (a structure's ``Foo.val``, an
    instance's name...).  One combined file rejects such a tree in Lean; a
    module checked on top of a base does not (the base's constants are private
    to its file), and the audits know declarations by name; so it is refused
    on what Lean wrote, which the source scan cannot list in full.  Not
    compared: the compiler's auxiliary constants, and the names Lean realizes
    on demand in each file that needs them (equation lemmas, functional
    induction, match splitters), unless the sources declare that name."""
    from pysym.lean.axioms import user_name
    from pysym.lean.compacted import OleanError
    from pysym.lean.olean import read_olean

    seen: dict[str, str] = {}
    problems = []
    for module, path in oleans.items():
        try:
            mod = read_olean(path)
        except (OleanError, OSError) as exc:
            return [Problem("<name audit>", 0, 0, f"cannot read what Lean wrote ({exc}); the names it defined "
                                                  "could not be compared")]
        for name in sorted({str(user_name(n)) for n in mod.const_names}):
            if _REALIZED.search(name) and name not in where:
                continue  # realized on demand in every file that uses it (`simp [f]` makes `f.eq_1`)
            if name in seen and seen[name] != module:
                _, path_, line, _ = where.get(owner(name, where), ("", "<generated>", 0, False))
                problems.append(Problem(path_, line, 0, f"`{name}` is defined in two modules (one of them "
                                        "private, or generated by Lean from a declaration): one combined file "
                                        "rejects it, and the check knows declarations by name: rename one"))
            seen.setdefault(name, module)
    return problems


def computed_sorts(oleans: Mapping[str, Path], where: Mapping[str, tuple]) -> list[Problem]:
    """An inductive type (``inductive``, ``structure``, ``class``) of the
    files ``oleans`` whose type, after its binders, is not literally a sort
    (``Prop``, ``Type u``, ``Sort u``) but a term that reduces to one.  Lean
    4.28's kernel decides whether a projection takes data out of a proof
    from the sort of the structure's type; where that sort is stuck (an
    ``Eq.rec`` over a proof of an equation the kernel cannot decide), it
    let a ``Bool`` be projected out of a proposition, and with proof
    irrelevance a theorem ``False`` checked with no axiom (red-team, after
    lean4 PR #14807; kernel replay included, since it is the same kernel).
    An allow-list on what Lean produced: every inductive's type ends in a
    ``Sort``, so the sort of every structure's type reduces by substitution
    alone.

    >>> from pysym.lean import terms as T
    >>> literal = T.ForallE(T.Name.of("h"), T.Const(T.Name.of("P"), ()), T.Sort(T.Zero()), "default")
    >>> _ends_in_sort(literal), _ends_in_sort(T.ForallE(T.Name.of("h"), T.Const(T.Name.of("P"), ()),
    ...                                        T.App(T.Const(T.Name.of("gate"), ()), T.BVar(0)), "default"))
    (True, False)
    """
    from pysym.lean.axioms import user_name
    from pysym.lean.compacted import OleanError
    from pysym.lean.olean import read_olean

    problems = []
    for path in oleans.values():
        try:
            mod = read_olean(path)
        except (OleanError, OSError) as exc:
            return [Problem("<sort audit>", 0, 0, f"cannot read what Lean wrote ({exc}); the sorts of its "
                                                  "inductive types could not be checked")]
        for name, info in sorted(mod.constants.items(), key=lambda kv: str(kv[0])):
            if info.kind != "induct" or _ends_in_sort(info.type):
                continue
            shown = str(user_name(name))
            _, path_, line, _ = where.get(owner(shown, where), ("", "<generated>", 0, False))
            problems.append(Problem(path_, line, 0, f"the inductive type `{shown}` declares its universe by a "
                                    "term that reduces to a sort, not a literal `Prop`, `Type u` or `Sort u`: "
                                    "this Lean's kernel decides projections out of proofs from that sort and "
                                    "can be led to accept `False` this way; write the sort itself"))
    return problems


def _ends_in_sort(e) -> bool:
    from pysym.lean import terms as T

    while True:
        if isinstance(e, T.MData):
            e = e.expr
        elif isinstance(e, T.ForallE):
            e = e.body
        else:
            return isinstance(e, T.Sort)
