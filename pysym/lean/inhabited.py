"""Which binder types always have a value: the rest are hypotheses the printed binder list hides.

A theorem ``∀ (n : Nat) {w : { x // False }}, n * n ≤ 2 * n`` is provable (no ``w`` exists), and its binder
list prints like data.  The parser (:func:`pysym.lean.parse.parse_statement`) reads a binder whose type is not
surely inhabited as the hypothesis ``Nonempty (T)``, which a derivation must grant like any other.
"""

from __future__ import annotations

import re

__all__ = ["INHABITED", "inhabited"]

# the types whose every instance has a value, whatever the binders (a `Decidable p` exists classically); a binder
# of any other type (a type variable `α`, `{ x // P }`, `Fin n`, a structure of the project, a class) needs its
# type to be inhabited: a hypothesis the printed binder list does not state as one (`∀ {w : { x // False }}, 1 = 0`
# is provable), so the parser adds it as one (`Nonempty (T)`), to be granted like any other
INHABITED = frozenset({"Nat", "ℕ", "Int", "ℤ", "Rat", "ℚ", "Bool", "Prop", "Type", "Sort", "List", "Option",
                       "Decidable", "DecidablePred", "DecidableRel", "DecidableEq"})


def inhabited(ty: str, bound: set) -> bool:
    """Whether the binder type ``ty`` (as Lean prints it) has a value whatever the binders ``bound`` before
    it are: one of :data:`INHABITED` (not shadowed by a binder), or a function type into one.

    >>> inhabited("(i : ι) → DecidablePred (A i)", {"A"}), inhabited("α → { y // False }", {"α"})
    (True, False)
    >>> inhabited("List (MoeTheory.Mask T k)", {"T", "k"}), inhabited("Nat × { x // False }", set())
    (True, False)
    """
    t = ty.strip()
    depth, cut = 0, None
    for i, ch in enumerate(t):
        if ch in "([{⟨":
            depth += 1
        elif ch in ")]}⟩":
            depth -= 1
        elif ch == "→" and depth == 0:
            cut = i
    if cut is not None:
        return inhabited(t[cut + 1:], bound)
    while t.startswith("(") and t.endswith(")") and _balanced(t[1:-1]):
        t = t[1:-1].strip()
    depth = 0
    for ch in t:  # a head and its arguments only: no operator between them (`Nat × { x // False }` is empty)
        depth += ch in "([{⟨"
        depth -= ch in ")]}⟩"
        if depth == 0 and not (ch.isalnum() or ch.isspace() or ch in "_.'!?)]}⟩"):
            return False
    head = re.match(r"[^\s()\[\]{}]+", t)
    return bool(head) and head.group(0) in INHABITED and head.group(0) not in bound


def _balanced(t: str) -> bool:
    depth = 0
    for ch in t:
        depth += ch in "([{⟨"
        depth -= ch in ")]}⟩"
        if depth < 0:
            return False
    return depth == 0
