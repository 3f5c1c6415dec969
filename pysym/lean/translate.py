"""A theorem's statement read from the term Lean compiled, compared with the parser's reading of its text.

The parser (:mod:`pysym.lean.parse`) reads the printed text; the checks of :mod:`pysym.lean.reading` look for
the ways a text can misread a term.  This module closes the gap from the other side: it translates the
compiled type itself into SymPy (:func:`term_reading`), by an allow-list of kernel constants with a meaning,
and :func:`translation_problems` refuses a statement whose two readings differ.  Whatever a notation, a macro,
an unexpander or a name prints, the meaning a derivation or a ``premise`` claim takes from the statement is
then the compiled term's.

The translation knows, and only for the core numeric types ``Nat``, ``Int`` and ``Rat`` with their standard
instances: the relations ``≤ < ≥ > = ≠``, ``+``, ``*``, ``^`` (natural exponent), ``-`` except on ``Nat``,
numerals, the standard casts, ``∧ ∨ ¬ →``, the binder chain, and the functions of
:data:`pysym.lean.parse.FUNCTIONS` (``MoeTheory.choose`` is ``binomial``).  Everything else is a *box*: a piece
with no SymPy meaning.  The parser's reading is compared with its opaque pieces (the ``⟪…⟫`` texts, unknown
functions and constants) boxed alike, so the comparison is exact on all that carries a meaning and leaves the
identity of opaque pieces to :mod:`pysym.lean.reading` (hidden arguments, clashes across statements).  A
construct the translation refuses (a relation on a non-numeric type, an instance it does not know, ``Nat``
subtraction) becomes a *refusal mark* that equals nothing the parser produces.

>>> from pysym.lean.terms import App, BVar, Const, ForallE, Lit, Name
>>> c = lambda n: Const(Name.of(n), ())
>>> def app(f, *xs):
...     for x in xs:
...         f = App(f, x)
...     return f
>>> le = lambda a, b: app(c("LE.le"), c("Nat"), c("instLENat"), a, b)
>>> pow_ = lambda a, b: app(c("HPow.hPow"), c("Nat"), c("Nat"), c("Nat"),
...                         app(c("instHPow"), c("Nat"), c("Nat"), app(c("instPowNat"), c("Nat"), c("instNatPowNat"))), a, b)
>>> t = ForallE(Name.of("n"), c("Nat"), ForallE(Name.of("k"), c("Nat"), le(BVar(0), pow_(BVar(1), BVar(0))), "default"),
...             "default")
>>> r = term_reading(t, {})
>>> r.binders, r.hypotheses, r.conclusion
([('n', 'Nat'), ('k', 'Nat')], [], k <= n**k)
>>> translation_problems(t, {}, "∀ (n k : Nat), k ≤ n ^ k")
[]
>>> translation_problems(t, {}, "∀ (n k : Nat), n ≤ k ^ n")  # doctest: +NORMALIZE_WHITESPACE
['its printed statement reads as `n <= k**n` but its compiled type means `k <= n**k` (read by
  pysym.lean.translate): the text does not show what Lean proved']
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

import sympy as sp
from sympy.core.function import AppliedUndef
from sympy.logic.boolalg import BooleanFunction

from pysym.lean.meaning import _spine
from pysym.lean.reading import _depends
from pysym.lean.terms import BVar, Const, ForallE, Lit, MData

__all__ = ["BOX", "TermReading", "term_reading", "translation_problems", "written_names"]

BOX = sp.Symbol("□")  # a piece with no SymPy meaning
_REFUSE = "✗"  # prefix of a refusal mark: a construct the translation does not read; equals nothing parsed

NUMERIC = ("Nat", "Int", "Rat")
# the standard instances, by operation and type: the head constant of the instance argument (the kernel's type
# check fixes the rest of it) -- any other instance is refused
_REL_INSTANCES = {
    "LE.le": {"Nat": "instLENat", "Rat": "Rat.instLE", "Int": "Int.instLEInt"},
    "LT.lt": {"Nat": "instLTNat", "Rat": "Rat.instLT", "Int": "Int.instLTInt"},
}
_RELATIONS = {"LE.le": sp.Le, "LT.lt": sp.Lt, "GE.ge": sp.Ge, "GT.gt": sp.Gt}
_ARITH = {  # heterogeneous operation: (homogeneous instance wrapper, {type: its instance}, SymPy operation)
    "HAdd.hAdd": ("instHAdd", {"Nat": "instAddNat", "Rat": "Rat.instAdd", "Int": "Int.instAdd"}, sp.Add),
    "HMul.hMul": ("instHMul", {"Nat": "instMulNat", "Rat": "Rat.instMul", "Int": "Int.instMul"}, sp.Mul),
    "HSub.hSub": ("instHSub", {"Rat": "Rat.instSub", "Int": "Int.instSub"}, lambda a, b: a - b),
}
_CASTS = {"Nat.cast": 3, "NatCast.natCast": 3, "Int.cast": 3, "IntCast.intCast": 3}  # name: arity
_CAST_INSTANCES = {"Rat": ("Rat.instNatCast", "Rat.instIntCast"), "Int": ("instNatCastInt",)}


@dataclass
class TermReading:
    """A statement as its compiled type means it: numeric binders (name, type) in order, hypotheses in order,
    conclusion; opaque pieces are :data:`BOX`."""

    binders: list = field(default_factory=list)  # [(printed name, "Nat" | "Int" | "Rat" | "")]
    hypotheses: list = field(default_factory=list)
    conclusion: object = None


def _refuse(why: str) -> sp.Symbol:
    return sp.Symbol(f"{_REFUSE} {why}")


def _const(e) -> str | None:
    while isinstance(e, MData):
        e = e.expr
    return str(e.name) if isinstance(e, Const) else None


def _instance_head(e) -> str | None:
    return _const(_spine(e)[0])


def written_names(constants: Mapping) -> dict[str, str]:
    """Each of ``constants``' real names -> its name as written (the private prefix removed)."""
    from pysym.lean.axioms import user_name

    return {str(n): str(user_name(n)) for n in constants}


class _Reader:
    def __init__(self, constants: Mapping, functions: Mapping, written: Mapping[str, str] | None = None):
        self.functions = functions
        self.project = written_names(constants) if written is None else written  # real name -> name as written
        self.ctx: list[tuple[str, sp.Basic]] = []  # innermost last: (printed name, SymPy value of the binder)

    def name(self, e) -> str | None:
        """The constant's name as written (private prefix removed), or None."""
        n = _const(e)
        return None if n is None else self.project.get(n, n)

    def numeric(self, ty) -> str:
        n = _const(ty)
        return n if n in NUMERIC else ""

    def binder(self, e, shift: int = 0):
        """The value of the bound variable ``e``; anything bound inside an opaque piece is never reached."""
        i = e.index - shift
        if 0 <= i < len(self.ctx):
            return self.ctx[len(self.ctx) - 1 - i][1]
        return _refuse("a loose bound variable")

    # ------------------------------------------------------------------ propositions

    def prop(self, e):
        while isinstance(e, MData):
            e = e.expr
        if isinstance(e, ForallE):
            if e.binder_info == "default" and not _depends(e.body, 0):  # `P → Q`
                hyp = self.prop(e.binder_type)
                self.ctx.append(("", BOX))
                try:
                    return sp.Implies(hyp, self.prop(e.body), evaluate=False)
                finally:
                    self.ctx.pop()
            return BOX  # `∀ x, ...` inside a proposition: opaque to the parser too
        head, args = _spine(e)
        name = self.name(head)
        if name in _RELATIONS and len(args) == 4:
            ty, inst, a, b = args
            kind = self.numeric(ty)
            base = {"GE.ge": "LE.le", "GT.gt": "LT.lt"}.get(name, name)
            if not kind or _instance_head(inst) != _REL_INSTANCES[base][kind]:
                return _refuse(f"`{name}` on a type or with an instance the translation does not know")
            return _RELATIONS[name](self.term(a), self.term(b), evaluate=False)
        if name in ("Eq", "Ne") and len(args) == 3:
            ty, a, b = args
            rel = sp.Eq if name == "Eq" else sp.Ne
            if self.numeric(ty):
                return rel(self.term(a), self.term(b), evaluate=False)
            return rel(self.opaque_or_binder(a), self.opaque_or_binder(b), evaluate=False)
        if name in ("And", "Or") and len(args) == 2:
            return (sp.And if name == "And" else sp.Or)(self.prop(args[0]), self.prop(args[1]), evaluate=False)
        if name == "Not" and len(args) == 1:
            return sp.Not(self.prop(args[0]), evaluate=False)
        if isinstance(head, BVar) and not args:
            return self.binder(head)
        return BOX

    def opaque_or_binder(self, e):
        """A non-numeric value: a binder stays itself (the parser names it), anything else is a box."""
        while isinstance(e, MData):
            e = e.expr
        if isinstance(e, BVar):
            return self.binder(e)
        return BOX

    # ------------------------------------------------------------------ numbers

    def term(self, e):
        while isinstance(e, MData):
            e = e.expr
        if isinstance(e, BVar):
            value = self.binder(e)
            if not (value.is_integer or value.is_rational):  # a binder of another type (`x : N` with `N := Nat`)
                return _refuse("a number whose binder is not of a core number type")
            return value
        if isinstance(e, Lit):
            return sp.Integer(e.value) if isinstance(e.value, int) else BOX
        head, args = _spine(e)
        name = self.name(head)
        if name == "OfNat.ofNat" and len(args) == 3:
            ty, lit, inst = args
            kind, inst_head = self.numeric(ty), _instance_head(inst)
            if isinstance(lit, Lit) and isinstance(lit.value, int) and (
                    (kind == "Nat" and inst_head == "instOfNatNat")
                    or (kind == "Rat" and inst_head == "Rat.instOfNat")
                    or (kind == "Int" and inst_head == "instOfNat")):
                return sp.Integer(lit.value)
            return _refuse("a numeral of a type or instance the translation does not know")
        if name in _ARITH and len(args) == 6:
            a_ty, b_ty, c_ty, inst, a, b = args
            wrapper, instances, op = _ARITH[name]
            kind = self.numeric(a_ty)
            if (not kind or self.numeric(b_ty) != kind or self.numeric(c_ty) != kind
                    or not _homogeneous(inst, wrapper, instances.get(kind))):
                return _refuse(f"`{name}` on a type or with an instance the translation does not know")
            return op(self.term(a), self.term(b))
        if name == "HPow.hPow" and len(args) == 6:
            a_ty, b_ty, c_ty, inst, a, b = args
            kind = self.numeric(a_ty)
            if not (kind == "Nat" and self.numeric(b_ty) == "Nat" and self.numeric(c_ty) == "Nat"
                    and _nat_pow(inst)):
                return _refuse("a power of a type or with an instance the translation does not know")
            return self.term(a) ** self.term(b)
        if name in _CASTS and len(args) == _CASTS[name]:
            ty, inst, x = args
            if _instance_head(inst) not in _CAST_INSTANCES.get(self.numeric(ty), ()):
                return _refuse("a cast to a type or with an instance the translation does not know")
            return self.term(x)
        if name in self.functions:
            arity = 2 if self.functions[name] is sp.binomial else 1
            if len(args) == arity:
                return self.functions[name](*[self.term(a) for a in args])
            return BOX
        return BOX


def _homogeneous(inst, wrapper: str, expected: str | None) -> bool:
    """``inst`` is ``wrapper T (expected ...)``: the standard homogeneous instance."""
    head, args = _spine(inst)
    return (expected is not None and _const(head) == wrapper and len(args) == 2
            and _instance_head(args[1]) == expected)


def _nat_pow(inst) -> bool:
    """``instHPow Nat Nat (instPowNat Nat instNatPowNat)``: the standard power of the naturals."""
    head, args = _spine(inst)
    if _const(head) != "instHPow" or len(args) != 3:
        return False
    h2, a2 = _spine(args[2])
    return _const(h2) == "instPowNat" and len(a2) == 2 and _const(a2[1]) == "instNatPowNat"


def term_reading(type_expr, constants: Mapping, functions: Mapping | None = None, *,
                 written: Mapping[str, str] | None = None) -> TermReading:
    """The statement ``type_expr`` (a theorem's compiled type) as the parser splits a text: binders (instance
    binders left out), hypotheses and conclusion, read by the allow-list of the module docstring;
    ``constants``: the project's constants by real name (for names as written); ``functions``: the functions
    with a meaning (default :data:`pysym.lean.parse.FUNCTIONS`); ``written``: :func:`written_names` of
    ``constants``, when the caller has it already."""
    from pysym.lean.parse import FUNCTIONS
    from pysym.lean.reading import printed_name

    reader = _Reader(constants, FUNCTIONS if functions is None else functions, written)
    out = TermReading()
    e = type_expr
    while True:
        while isinstance(e, MData):
            e = e.expr
        if not isinstance(e, ForallE):
            break
        name = printed_name(e.binder_name)
        if e.binder_info != "default" or _depends(e.body, 0):  # printed as a binder
            kind = reader.numeric(e.binder_type)
            if e.binder_info != "instImplicit":
                out.binders.append((name, kind))
            value = _symbol(name, kind)
        else:  # printed as `P → ...`
            out.hypotheses.append(reader.prop(e.binder_type))
            value = BOX
        reader.ctx.append((name, value))
        e = e.body
    out.conclusion = reader.prop(e)
    return out


def _symbol(name: str, kind: str) -> sp.Symbol:
    """The binder's symbol, made exactly as the parser makes it (:meth:`pysym.lean.parse._Converter.symbol`)."""
    if kind == "Nat":
        return sp.Symbol(name, integer=True, nonnegative=True)
    if kind == "Int":
        return sp.Symbol(name, integer=True)
    if kind == "Rat":
        return sp.Symbol(name, rational=True)
    return sp.Symbol(name)


def _boxed(e, keep: set):
    """The parser's reading with its opaque pieces boxed: a symbol that is not a binder, an unknown function."""
    if isinstance(e, sp.Symbol):
        return e if e in keep else BOX
    if isinstance(e, AppliedUndef):
        return BOX
    if not e.args:
        return e
    args = [_boxed(a, keep) for a in e.args]
    if isinstance(e, (sp.core.relational.Relational, BooleanFunction)):
        return e.func(*args, evaluate=False)
    return e.func(*args)


def translation_problems(type_expr, constants: Mapping, text: str, *,
                         written: Mapping[str, str] | None = None) -> list[str]:
    """Why the parser's reading of ``text`` differs from the compiled type's (:func:`term_reading`), compared
    with opaque pieces boxed ([] when they agree, or when the parser does not read the text: such a statement
    is refused wherever it is used)."""
    from pysym.lean.parse import LeanParseError, NUMERIC_TYPES, parse_statement

    try:
        st = parse_statement(text)
    except (LeanParseError, ValueError, TypeError, RecursionError):
        return []
    reading = term_reading(type_expr, constants, written=written)
    marks = sorted({str(x)[len(_REFUSE) + 1:] for part in (*reading.hypotheses, reading.conclusion)
                    for x in sp.sympify(part).atoms(sp.Symbol) if str(x).startswith(_REFUSE)})
    if marks:
        return [f"its compiled type has {m} (pysym.lean.translate reads only the core numeric types with their "
                "standard instances)" for m in marks]
    problems = []
    printed = [(n, NUMERIC_TYPES.get((t or "").strip(), "")) for n, t in st.binders.items()]
    if [b for b in printed if b[1]] != [b for b in reading.binders if b[1]]:
        problems.append("its numeric binders print as "
                        + (", ".join(f"{n} : {k}" for n, k in printed if k) or "none")
                        + " but its compiled type binds "
                        + (", ".join(f"{n} : {k}" for n, k in reading.binders if k) or "none")
                        + " (read by pysym.lean.translate)")
    keep = {s for s in st.symbols.values()}
    hyps = [_boxed(h, keep) for i, h in enumerate(st.hypotheses) if i not in st.nonempty]
    if hyps != reading.hypotheses:
        problems.append(f"its printed hypotheses read as {_show(hyps)} but its compiled type's as "
                        f"{_show(reading.hypotheses)} (read by pysym.lean.translate): the text does not show what "
                        "Lean proved")
    concl = _boxed(st.conclusion, keep)
    if concl != reading.conclusion:
        problems.append(f"its printed statement reads as `{sp.sstr(concl)}` but its compiled type means "
                        f"`{sp.sstr(reading.conclusion)}` (read by pysym.lean.translate): the text does not show "
                        "what Lean proved")
    return problems


def _show(items) -> str:
    return "[" + ", ".join(f"`{sp.sstr(x)}`" for x in items) + "]"
