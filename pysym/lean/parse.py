"""Parse Lean's elaborated statements (as ``#check`` prints them) into SymPy.

Covers the fragment the exported theorems use: binders (``∀ (n k : Nat),``,
implicit and instance binders), implications, ``∧``, the relations ``≤ < ≥ >
= ≠``, ``+ * ^`` and ``/`` on ``Rat``, numerals, function application,
field notation (``xs.length``) and ``MoeTheory.choose``.

>>> st = parse_statement("∀ (n k : Nat), MoeTheory.choose n k ≤ n ^ k")
>>> st.binders
{'n': 'Nat', 'k': 'Nat'}
>>> st.conclusion
binomial(n, k) <= n**k

Hypotheses (the left of each ``→``) are kept in order; terms SymPy has no
meaning for become opaque functions named after their Lean head:

>>> st = parse_statement("∀ (m d : Nat) (P : List Bool → Bool), 1 ≤ m → Foo.dimLe P d → Foo.card m P ≤ m ^ d * 2 ^ (2 * d)")
>>> st.hypotheses
[1 <= m, Foo.dimLe(P, d)]
>>> st.conclusion
Foo.card(m, P) <= 2**(2*d)*m**d

Nat subtraction and division truncate, so they are refused rather than
mistranslated:

>>> parse_statement("∀ (n k : Nat), n - k ≤ n")
Traceback (most recent call last):
...
pysym.lean.parse.LeanParseError: truncated Nat subtraction `n - k` has no faithful SymPy meaning
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import sympy as sp

from pysym.lean.inhabited import inhabited
from pysym.lean.syntax import ID_FIRST, ID_REST, LeanParseError, Parser, show, tokenize

__all__ = ["LeanParseError", "Statement", "parse_statement", "FUNCTIONS"]


# Lean heads with a SymPy meaning: the library's own functions (core Lean has no `Nat.choose` or
# `Nat.factorial`, so a file could define them as anything).  A statement that uses one is trusted only if the
# project proves the equations that determine it (pysym.lean.meaning.PINS).
FUNCTIONS = {
    "MoeTheory.choose": sp.binomial,
    "MoeTheory.factorial": sp.factorial,
}

NUMERIC_TYPES = {"Nat": "Nat", "ℕ": "Nat", "Int": "Int", "ℤ": "Int", "Rat": "Rat", "ℚ": "Rat"}

@dataclass
class Statement:
    """A theorem's statement: binders, hypotheses (in order), conclusion."""

    binders: dict[str, str] = field(default_factory=dict)  # name -> Lean type (as text)
    hypotheses: list = field(default_factory=list)  # SymPy relations or opaque applications
    conclusion: object = None
    symbols: dict[str, sp.Symbol] = field(default_factory=dict)
    nonempty: set = field(default_factory=set)  # indices of the hypotheses that a binder's type be inhabited


def parse_statement(text: str, types: dict[str, str] | None = None, opaque: tuple[str, ...] = ()) -> Statement:
    """Parse the statement part of ``#check`` output (after ``name : ``).
    The functions named in ``opaque`` are read as unknown functions, not by
    their meaning in :data:`FUNCTIONS`.  A statement whose meaning failed its
    check on the compiled term (:func:`pysym.lean.meaning.usable_statement`)
    is refused with the reasons:

    >>> parse_statement("⊘ not trusted: it uses `LE.mk`")
    Traceback (most recent call last):
    ...
    pysym.lean.parse.LeanParseError: Lean's statement is not trusted to mean what it prints: it uses `LE.mk`
    """
    from pysym.lean.meaning import REFUSED

    if text.startswith(REFUSED):
        raise LeanParseError("Lean's statement is not trusted to mean what it prints: " + text[len(REFUSED):])
    parser = Parser(tokenize(text))
    ast = parser.term()
    if parser.peek()[0] != "eof":
        raise LeanParseError(f"unexpected `{parser.peek()[1]}` after the statement")
    st = Statement()
    node = ast
    while True:
        if node[0] == "forall":
            for name, ty, kind in node[1]:
                if kind == "bounded":  # `∀ i ∈ I, ...`: its bound is a hypothesis the binder list would lose
                    raise LeanParseError(f"the bounded binder `{name} {ty}` is not read (write the bound as a "
                                         "hypothesis)")
                if not inhabited(ty or "?", set(st.binders)):
                    st.nonempty.add(len(st.hypotheses))
                    st.hypotheses.append(("nonempty", ty or "?"))  # what the binder needs: a hypothesis
                if not (kind == "[" and name == "_inst"):  # an anonymous instance binder names nothing
                    st.binders[name] = ty or "?"
            node = node[2]
        elif node[0] == "bin" and node[1] == "→":
            st.hypotheses.append(node[2])
            node = node[3]
        else:
            break
    conv = _Converter(st.binders | (types or {}), {k: v for k, v in FUNCTIONS.items() if k not in opaque})
    st.hypotheses = [conv.opaque_text(f"Nonempty ({h[1]})".replace(" / / ", " // ")) if h[0] == "nonempty"
                     else conv.prop(h)
                     for h in st.hypotheses]
    st.conclusion = conv.prop(node)
    st.symbols = conv.symbols
    return st


class _Converter:
    def __init__(self, binders: dict[str, str], functions: dict | None = None):
        self.binders = binders
        self.functions = FUNCTIONS if functions is None else functions
        self.symbols: dict[str, sp.Symbol] = {}

    def opaque(self, node):
        """A piece with no SymPy meaning, named by its Lean text, applied to the numeric binders its text
        mentions: binding one of them reaches it (``[decide (0 < n)]`` at ``n = 0`` and at ``n = 1`` are two
        terms, not one symbol)."""
        return self.opaque_text(show(node))

    def opaque_text(self, text: str):
        """:meth:`opaque` of the Lean text ``text``."""
        mentioned = sorted({w.split(".")[0] for w in re.findall(rf"[{ID_FIRST}][{ID_REST}.]*", text)}
                           & {n for n, t in self.binders.items() if NUMERIC_TYPES.get((t or "").strip())})
        name = f"⟪{text}⟫"
        return sp.Function(name)(*[self.symbol(n) for n in mentioned]) if mentioned else sp.Symbol(name)

    def symbol(self, name: str) -> sp.Symbol:
        if name not in self.symbols:
            ty = NUMERIC_TYPES.get((self.binders.get(name) or "").strip())
            if ty == "Nat":
                self.symbols[name] = sp.Symbol(name, integer=True, nonnegative=True)
            elif ty == "Int":
                self.symbols[name] = sp.Symbol(name, integer=True)
            elif ty == "Rat":
                self.symbols[name] = sp.Symbol(name, rational=True)
            else:
                self.symbols[name] = sp.Symbol(name)
        return self.symbols[name]

    def kind_of(self, node) -> str:
        """'Nat' when a subterm is Nat-valued (to refuse truncating ops)."""
        if node[0] == "var":
            if node[1].endswith(".length"):  # `xs.length`
                return "Nat"
            return NUMERIC_TYPES.get((self.binders.get(node[1]) or "").strip(), "?")
        if node[0] == "num":
            return "Nat"
        if node[0] == "paren":
            return self.kind_of(node[1])
        if node[0] == "bin":
            a, b = self.kind_of(node[2]), self.kind_of(node[3])
            return a if a == b else ("Rat" if "Rat" in (a, b) else "?")
        if node[0] == "app":
            head = node[1][1] if node[1][0] == "var" else ""
            if head in self.functions or head.endswith(".length"):
                return "Nat"
        if node[0] == "field" and node[2] == "length":  # `xs.length`
            return "Nat"
        return "?"

    def prop(self, node):
        if node[0] == "paren":
            return self.prop(node[1])
        if node[0] == "bin" and node[1] in ("≤", "<", "≥", ">", "=", "≠"):
            a, b = self.term(node[2]), self.term(node[3])
            return {"≤": sp.Le, "<": sp.Lt, "≥": sp.Ge, ">": sp.Gt, "=": sp.Eq, "≠": sp.Ne}[node[1]](
                a, b, evaluate=False)
        if node[0] == "bin" and node[1] == "∧":
            return sp.And(self.prop(node[2]), self.prop(node[3]), evaluate=False)
        if node[0] == "bin" and node[1] == "∨":
            return sp.Or(self.prop(node[2]), self.prop(node[3]), evaluate=False)
        if node[0] == "bin" and node[1] == "→":
            return sp.Implies(self.prop(node[2]), self.prop(node[3]), evaluate=False)
        if node[0] == "not":
            return sp.Not(self.prop(node[1]), evaluate=False)
        if node[0] in ("forall", "fun", "exists", "ite", "list", "index"):
            return self.opaque(node)
        if node[0] == "bin" and node[1] in ("∈", "∉", "∣", "↔"):
            return self.opaque(node)
        return self.term(node)  # an opaque predicate application

    def term(self, node):
        tag = node[0]
        if tag == "paren":
            return self.term(node[1])
        if tag == "num":
            return sp.Rational(node[1]) if "." in node[1] else sp.Integer(int(node[1]))
        if tag == "var":
            name = node[1]
            if "." in name and name.split(".")[0] in self.binders:  # field notation xs.length
                base, fld = name.split(".", 1)
                return sp.Function(fld)(self.symbol(base))
            if name in self.binders:
                return self.symbol(name)
            return sp.Symbol(name)  # a constant (e.g. a definition without arguments)
        if tag == "bin":
            op = node[1]
            if op in ("::", "++", "||", "&&", "∈", "∉", "∣"):
                return self.opaque(node)
            if op == "-" and self.kind_of(node) == "Nat" and node[2] != ("num", "0"):
                raise LeanParseError(
                    f"truncated Nat subtraction `{show(node[2])} - {show(node[3])}` has no faithful SymPy meaning")
            if op in ("/", "%") and self.kind_of(node) == "Nat":
                raise LeanParseError(f"Nat `{op}` truncates and has no faithful SymPy meaning")
            a, b = self.term(node[2]), self.term(node[3])
            if op == "+":
                return a + b
            if op == "-":
                return a - b
            if op == "*":
                return a * b
            if op == "/":
                return a / b
            if op == "^":
                return a ** b
            return self.opaque(node)
        if tag in ("forall", "fun", "exists", "ite", "list", "index"):
            return self.opaque(node)
        if tag == "field":
            return sp.Function(node[2])(self.term(node[1]))
        if tag == "app":
            head = node[1]
            args = [self.term(a) for a in node[2]]
            if head[0] == "var":
                name = head[1]
                if name in self.functions:
                    try:
                        return self.functions[name](*args)
                    except TypeError:  # partial application, e.g. `List.map (choose n)`
                        return self.opaque(node)
                if "." in name and name.split(".")[0] in self.binders:
                    base, fld = name.split(".", 1)
                    return sp.Function(fld)(self.symbol(base), *args)
                return sp.Function(name)(*args)
            return self.opaque(node)
        raise LeanParseError(f"cannot translate `{show(node)}`")


def opaque(node) -> sp.Symbol:
    """A proposition or function with no SymPy meaning, named by its Lean text."""
    return sp.Symbol(f"⟪{show(node)}⟫")
