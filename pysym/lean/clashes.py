"""Across statements: terms that two theorems print alike but that Lean built differently.

A derivation may combine several statements and names a term by its printed text, so two statements that
print one term alike must mean one term: :func:`field_clashes` (two functions that print as the same field
`x.last`) and :func:`opaque_clashes` (an opaque term whose compiled forms differ where the text shows
nothing).  :func:`pysym.lean.meaning.statement_problems` calls each twice: once to collect what every statement
applies, once to judge each statement against the others.
"""

from __future__ import annotations

import functools
import re

from pysym.lean.meaning import _nodes, _user
from pysym.lean.reading import BOUND, TYPES, _variants
from pysym.lean.terms import App, Const

__all__ = ["field_clashes", "opaque_clashes"]


def field_clashes(types, names: "dict[str, set[str]] | None" = None, is_type=lambda name: False):
    """Across statements: two functions with the same last name in the namespace of a type (`Nat.succ`,
    `RtM.succ` with `abbrev RtM := Nat`) both print as the field `x.succ`, so a derivation that names
    `(a + b).succ` in two premises would take two different terms for one.  Without ``names``: ``{last name:
    {full names}}`` of such functions applied in ``types`` (``is_type(namespace)``: whether a name is a type of
    the project; the core types are known).  With it (what that call returned for every statement that may be
    combined): the problems of ``types``, one per such function whose last name another one shares."""
    found: dict[str, set[str]] = {}
    for t in types:
        for x in _nodes(t):
            if isinstance(x, App):
                h = x
                while isinstance(h, App):
                    h = h.fn
                if isinstance(h, Const):
                    full = _user(h.name)
                    namespace, _, last = full.rpartition(".")
                    if namespace in TYPES or is_type(namespace):  # only these can print as a field `x.last`
                        found.setdefault(last, set()).add(full)
    if names is None:
        return found
    problems = []
    for last, fulls in sorted(found.items()):
        others = sorted(names.get(last, set()) - fulls)
        for full in sorted(fulls):
            if others:
                problems.append(f"`{full}` and `{others[0]}` (in another statement of the project) may both print "
                                f"as the field `.{last}`, and would be read as one function")
    return problems


def opaque_clashes(types, constants, known: "dict[str, set[str]] | None" = None, variants=None):
    """Across statements: the parser names an opaque term by its text, so two theorems that print one term
    alike (`MoeTheory.g`, `∃ x, True`) while the compiled terms differ in what the text does not show (`@g Nat`
    in one, `@g Bool` in the other; `∃ x : Fin 0` and `∃ x : Fin 1`) would be read as one term by a derivation
    that combines them.  Without ``known``: ``{coarse printed form: {terms}}`` of the applications in
    ``types``, each term with what each theorem binds for itself made alike (type variables, universe
    parameters), the instances of subsingleton classes left out, for a core function its types, instances and
    universes left out (its value is read off the rest), and the type of a `fun` binder left out when the body
    fixes it (:func:`_variants`; ``variants``: as for :func:`reading_problems`).  With
    it (what that call returned for every statement that may be combined): the problems of ``types``, one per
    such form that another statement applies to something else."""
    found: dict[str, set[str]] = {}
    for t in types:
        for printed, forms in (variants or (lambda e: _variants(e, constants)))(t).opaque.items():
            found.setdefault(printed, set()).update(forms)
    if known is None:
        return found
    ours = {p: [_tree(f) for f in fulls] for p, fulls in found.items()}
    return [f"`{p}` names a term of `{p.split()[0][1:]}` that another statement of the project prints alike "
            "but builds otherwise where the text shows nothing (an implicit argument, an instance, a type, a "
            "universe level, the type of a `fun` or `∃` binder): a derivation combining the two would read "
            "different terms as one"
            for p, fulls in sorted(found.items())
            if any(not any(_instance_of(_tree(k), f) for f in ours[p]) for k in known.get(p, set()) - fulls)]


# what a theorem binds for itself that a derivation may instantiate, by binding it to a value (which the name of a
# term records); a type variable (`‹type›`) is no wildcard: nothing binds it, and a grant about it (`Nonempty
# (α)`) would be carried to the instance (`{f : β → Nat // False}`, empty) -- it matches a type variable only
_WILDCARDS = {BOUND, "‹type›"}


@functools.lru_cache(maxsize=None)
def _tree(form: str):
    """A compared form (:func:`_variants`) as nested tuples of its parenthesized parts (each form is read
    once, though every statement is compared with it)."""
    stack: list[list] = [[]]
    for tok in re.findall(r"(?:[^\s(){}]|\{[^{}]*\})+|\(|\)", form):  # `Nat.{()}`: universe levels in the atom
        if tok == "(":
            stack.append([])
        elif tok == ")" and len(stack) > 1:
            done = stack.pop()
            stack[-1].append(tuple(done))
        else:
            stack[-1].append(tok)
    return tuple(stack[0])


def _instance_of(a, b) -> bool:
    """Whether two compared forms are one term once what a theorem binds for itself (a variable, a type
    variable) is instantiated: a bound variable hidden in an argument is one the printed types of the shown
    variables fix (else the statement is refused), so the derivation's name for the term records it."""
    if (isinstance(a, str) and a in _WILDCARDS) or (isinstance(b, str) and b in _WILDCARDS):
        return True
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(_instance_of(x, y) for x, y in zip(a, b))
    return a == b
