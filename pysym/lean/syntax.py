"""The syntax of Lean's printed statements: tokens (:func:`tokenize`), a tree
of tuples (:class:`Parser`) and the tree printed back as text (:func:`show`).
What the tree means is :mod:`pysym.lean.parse`'s concern.

>>> show(Parser(tokenize("∀ (n : Nat), n.succ ≤ 2 ^ n")).term())
'∀ (n : Nat), n.succ ≤ 2 ^ n'
"""

from __future__ import annotations

import re

__all__ = ["LeanParseError", "Parser", "show", "tokenize", "mentions", "NAME", "ID_FIRST", "ID_REST"]


class LeanParseError(ValueError):
    """A statement this project cannot read faithfully (its public home is :mod:`pysym.lean.parse`)."""

    __module__ = "pysym.lean.parse"


# Lean's identifier characters, exactly (:func:`pysym.lean.lexer.is_id_first`, ``is_id_rest``; a test compares
# them on every code point): a name Lean prints is one token here, never split where Lean reads on (`choose℘n`
# is one name, not `choose` applied to `℘n`)
_LETTER_LIKE = ("\u03b1-\u03ba\u03bc-\u03c9\u0391-\u039f\u03a1\u03a2\u03a4-\u03a9\u03ca-\u03fb\u1f00-\u1ffe"
                "\u2100-\u214f\U0001d49c-\U0001d59f\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u00ff\u0100-\u017f")
ID_FIRST = "A-Za-z_" + _LETTER_LIKE
ID_REST = ID_FIRST + "0-9'!?\u2080-\u2089\u2090-\u209c\u1d62-\u1d6a\u2c7c"
NAME = f"[{ID_FIRST}][{ID_REST}]*(?:\\.[{ID_FIRST}][{ID_REST}]*)*"

_TOKEN = re.compile(
    r"\s*(?:"
    r"(?P<num>[0-9]+(?:\.[0-9]+)?)"
    rf"|(?P<field>\.[{ID_FIRST}][{ID_REST}]*)"
    r"|(?P<op>→|↔|∧|∨|¬|≤|≥|≠|<|>|=>|::|\+\+|\|\||&&|=|\+|-|\*|/|\^|%|∣|∈|∉|×|∘|·|⦃|⦄|,|:|\(|\)|\{|\}|\[|\]|⟨|⟩|@|↦|!|↑|\?)"
    rf"|(?P<kw>∀|∃|fun|λ|if|then|else)(?![{ID_REST}])"
    rf"|(?P<id>{NAME})"
    r")"
)


def mentions(name: str, text: str) -> bool:
    """Whether ``text`` holds the name ``name`` as a whole name (not inside a longer one, nor as the field
    of one).

    >>> mentions("MoeTheory.choose", "MoeTheory.choose n k"), mentions("MoeTheory.choose", "MoeTheory.choose℘n k")
    (True, False)
    """
    return re.search(rf"(?<![{ID_REST}.]){re.escape(name)}(?![{ID_REST}])", text) is not None


def tokenize(text: str) -> list[tuple[str, str]]:
    out = []
    pos = 0
    text = text.strip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m or m.end() == pos:
            raise LeanParseError(f"cannot read `{text[pos:pos + 20]}` at position {pos}")
        kind = m.lastgroup
        out.append((kind, m.group(kind), m.start(kind) > pos))
        pos = m.end()
    return out


# AST nodes are tuples: ("num", v) ("var", name) ("app", head, [args]) ("bin", op, a, b)
# ("not", a) ("paren", a)


class Parser:
    def __init__(self, tokens):
        self.toks = tokens
        self.i = 0

    def peek(self, k=0):
        j = self.i + k
        return self.toks[j] if j < len(self.toks) else ("eof", "", True)

    def take(self, value=None):
        tok = self.peek()
        if value is not None and tok[1] != value:
            raise LeanParseError(f"expected `{value}` but found `{tok[1] or 'end of statement'}`")
        self.i += 1
        return tok

    # term := ∀ binders, term | arrow
    def term(self):
        if self.peek()[1] == "∀":
            self.take()
            binders = self.binders()
            self.take(",")
            return ("forall", binders, self.term())
        if self.peek()[1] == "∃":
            self.take()
            binders = self.binders()
            self.take(",")
            return ("exists", binders, self.term())
        if self.peek()[1] == "if":
            self.take()
            cond = self.term()
            self.take("then")
            a = self.term()
            self.take("else")
            return ("ite", cond, a, self.term())
        return self.arrow()

    def binders(self):
        out = []  # (name, type_text or None, kind)
        while True:
            tok = self.peek()
            if tok[1] in ("(", "{", "[", "⦃"):
                close = {"(": ")", "{": "}", "[": "]", "⦃": "⦄"}[tok[1]]
                self.take()
                j = self.i
                while self.toks[j][0] == "id":
                    j += 1
                if self.toks[j][1] == ":":  # (n k : Nat)
                    names = [t[1] for t in self.toks[self.i:j]]
                    self.i = j + 1
                else:  # an anonymous instance binder [DecidableEq α]
                    names = ["_inst"]
                ty = self._until(close)
                self.take(close)
                out.extend((n, ty, tok[1]) for n in names)
            elif tok[0] == "id":
                name = self.take()[1]
                if self.peek()[1] in ("∈", "∉", "<", "≤"):  # ∀ i ∈ I, ...
                    op = self.take()[1]
                    out.append((name, f"{op} {show(self.add())}", "bounded"))
                else:
                    out.append((name, None, "plain"))
            else:
                break
        return out

    def _until(self, close):
        depth = 0
        parts = []
        while True:
            tok = self.peek()
            if tok[0] == "eof":
                raise LeanParseError(f"unclosed binder, expected `{close}`")
            if tok[1] in ("(", "{", "[", "⦃", "⟨"):
                depth += 1
            if tok[1] in (")", "}", "]", "⦄", "⟩"):
                if depth == 0 and tok[1] == close:
                    return " ".join(parts)
                depth -= 1
            parts.append(self.take()[1])

    def arrow(self):
        """``↔`` (precedence 20) binds looser than ``→`` (25): ``a ↔ b → c`` is ``a ↔ (b → c)``."""
        left = self.implication()
        if self.peek()[1] == "↔":
            self.take()
            return ("bin", "↔", left, self._right(self.implication))
        return left

    def implication(self):
        left = self.disj()
        if self.peek()[1] == "→":  # right-associative; `a → b ↔ c` is `(a → b) ↔ c`
            self.take()
            return ("bin", "→", left, self._right(self.implication))
        return left

    def _right(self, level):
        """The right operand of a binary operator: a `∀`, `∃` or `if` extends as far as it can, as in Lean."""
        return self.term() if self.peek()[1] in ("∀", "∃", "if") else level()

    def disj(self):
        left = self.conj()
        if self.peek()[1] == "∨":
            self.take()
            return ("bin", "∨", left, self.disj())
        return left

    def conj(self):
        left = self.neg()
        if self.peek()[1] == "∧":
            self.take()
            return ("bin", "∧", left, self.conj())
        return left

    def neg(self):
        if self.peek()[1] == "¬":
            self.take()
            return ("not", self.neg())
        return self.rel()

    def rel(self):
        left = self.add()
        if self.peek()[1] in ("≤", "<", "≥", ">", "=", "≠", "∣", "∈", "∉"):
            op = self.take()[1]
            return ("bin", op, left, self.add())
        return left

    def add(self):
        left = self.mul()
        while self.peek()[1] in ("+", "-", "::", "++", "||", "&&"):
            op = self.take()[1]
            left = ("bin", op, left, self.mul())
        return left

    def mul(self):
        left = self.pow()
        while self.peek()[1] in ("*", "/", "%"):
            op = self.take()[1]
            left = ("bin", op, left, self.pow())
        return left

    def pow(self):
        if self.peek()[1] == "-":  # Lean's `-x ^ 2` is `-(x ^ 2)` (`-` is prefix:75, `^` infixr:75)
            self.take()
            return ("bin", "-", ("num", "0"), self.pow())
        base = self.app()
        if self.peek()[1] == "^":
            self.take()
            return ("bin", "^", base, self.pow())
        return base

    def app(self):
        head = self.atom()
        args = []
        while self.peek()[0] in ("id", "num") or self.peek()[1] in ("(", "@", "↑", "fun", "λ", "["):
            if self.peek()[1] in ("fun", "λ"):  # a trailing lambda is the last argument
                args.append(self.lam())
                break
            args.append(self.atom())
        if not args:
            return head
        return ("app", head, args)

    def postfix(self, node):
        """Field access ``(e).length`` and indexing ``e[i]?`` after an atom."""
        while True:
            tok = self.peek()
            if tok[0] == "field":
                self.take()
                node = ("field", node, tok[1][1:])
            elif tok[1] == "[" and self.i > 0 and not self._space_before():
                self.take()
                idx = self.term()
                self.take("]")
                if self.peek()[1] in ("?", "!"):
                    self.take()
                node = ("index", node, idx)
            else:
                return node

    def _space_before(self) -> bool:
        return self.toks[self.i][2] if len(self.toks[self.i]) > 2 else True

    def lam(self):
        self.take()
        binders = self.binders()
        if self.peek()[1] not in ("=>", "↦"):
            raise LeanParseError(f"expected `=>` in a `fun`, found `{self.peek()[1]}`")
        self.take()
        return ("fun", binders, self.term())

    def atom(self):
        tok = self.peek()
        if tok[1] in ("@", "↑"):  # explicit-argument marker, coercion: no arithmetic meaning
            self.take()
            return self.atom()
        if tok[1] in ("fun", "λ"):
            return self.lam()
        if tok[1] == "∀":
            return self.term()
        if tok[1] == "(":
            self.take()
            inner = self.term()
            if self.peek()[1] == ":":  # type ascription (x : T)
                self.take()
                self._until(")")
            self.take(")")
            return self.postfix(("paren", inner))
        if tok[0] == "num":
            self.take()
            return self.postfix(("num", tok[1]))
        if tok[0] == "id":
            self.take()
            return self.postfix(("var", tok[1]))
        if tok[1] == "[":  # list literal
            self.take()
            items = []
            while self.peek()[1] != "]":
                items.append(self.term())
                if self.peek()[1] == ",":
                    self.take()
            self.take("]")
            return self.postfix(("list", items))
        if tok[1] in ("∃", "if"):
            return self.term()
        if tok[1] == "-":
            self.take()
            return ("bin", "-", ("num", "0"), self.app())
        raise LeanParseError(f"unexpected `{tok[1] or 'end of statement'}`")


def show_binders(binders) -> str:
    parts = []
    for name, ty, kind in binders:
        if kind == "bounded":
            parts.append(f"{name} {ty}")
        elif ty:
            parts.append(f"({name} : {ty})")
        else:
            parts.append(name)
    return " ".join(parts)


def show(node) -> str:
    tag = node[0]
    if tag == "forall":
        return f"∀ {show_binders(node[1])}, {show(node[2])}"
    if tag == "fun":
        return f"fun {show_binders(node[1])} => {show(node[2])}"
    if tag == "not":
        return f"¬{show(node[1])}"
    if tag == "exists":
        return f"∃ {show_binders(node[1])}, {show(node[2])}"
    if tag == "ite":
        return f"if {show(node[1])} then {show(node[2])} else {show(node[3])}"
    if tag == "list":
        return "[" + ", ".join(show(a) for a in node[1]) + "]"
    if tag == "field":
        return f"{show(node[1])}.{node[2]}"
    if tag == "index":
        return f"{show(node[1])}[{show(node[2])}]"
    if tag in ("num", "var"):
        return node[1]
    if tag == "paren":
        return f"({show(node[1])})"
    if tag == "bin":
        return f"{show(node[2])} {node[1]} {show(node[3])}"
    if tag == "app":
        return " ".join([show(node[1])] + [show(a) for a in node[2]])
    return str(node)
