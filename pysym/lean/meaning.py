"""Whether a theorem's printed statement means what it says, read from the term Lean compiled.

The symbolic layer reads a theorem as ``#check`` prints it (``k ≤ n → n ^ k ≤
MoeTheory.choose n k * k ^ k``) and gives the notation its usual meaning:
``≤`` is the order of the naturals, ``^`` their power, ``MoeTheory.choose``
the binomial coefficient.  The printed text hides what carries that meaning.
A project could declare ``local instance : LE Nat := ⟨fun _ _ => True⟩``
before a theorem, or build an instance inline (``LE.mk``), or tag a function
``@[coe]`` so that it prints as ``↑n``: the text stays the same, the theorem
becomes trivial, and a derivation or a ``premise`` claim would take it as
the usual fact.

So every statement is also checked on its type as Lean compiled it (the
``.olean``), with allow-lists, never a list of known tricks
(:func:`statement_problems`):

* every constant of core Lean in the type is in :data:`STANDARD`: types,
  logic, the arithmetic operations and *their standard instances*
  (``instLENat``, ``instHPow``, ``Rat.instLE`` ...).  No class type
  (``LE``, ``HAdd``...) and no structure constructor (``LE.mk``) is in it, so
  an instance can only be a standard one; the kernel's type check then fixes
  its arguments (``instOfNatNat 7`` cannot stand for the numeral ``5``);
* every constant of the project in the type has a *result type* made of
  :data:`STANDARD` constants and the project's inductive types or predicates
  (:func:`constant_problems`): a project function can return a number, a
  list, a proposition, a project structure, but never an instance (``LE
  Nat``), a pair holding one, a type alias of one, or a value of a type
  parameter (a recursor, ``fun {α} (a : α) => a``);
* no ``proj`` node (a raw structure projection reaches into any structure);
* the text reads as the term (:mod:`pysym.lean.reading`): casts, names,
  arguments the text hides, field notation, the binder chain;
* the parser's reading of the text equals the compiled type's own reading
  (:mod:`pysym.lean.translate`: relations, arithmetic, numerals, casts and
  the functions with a meaning, translated from the kernel term by an
  allow-list), opaque pieces compared as boxes;
* a function the parser gives a meaning (:data:`pysym.lean.parse.FUNCTIONS`:
  ``MoeTheory.choose`` is ``binomial``) is pinned: the project proves the
  equations that determine it (:data:`PINS`, checked by :func:`pin_problems`
  over all statements), since the name alone says nothing about the
  definition behind it.

A statement with a problem is kept in ``statements.json`` with its problems
(``meaning``), and :func:`usable_statement` turns it into a refusal that the
parser reports: a premise that rests on it is never "verified" or "holds".

>>> from pysym.lean.terms import App, Const, Lit, Name
>>> nat = Const(Name.of("Nat"), ())
>>> le = lambda inst, a, b: App(App(App(App(Const(Name.of("LE.le"), ()), nat), inst), a), b)
>>> five = App(App(App(Const(Name.of("OfNat.ofNat"), ()), nat), Lit(5)), App(Const(Name.of("instOfNatNat"), ()), Lit(5)))
>>> type_problems(le(Const(Name.of("instLENat"), ()), five, five), {}, "5 ≤ 5")
[]
>>> evil = App(App(Const(Name.of("LE.mk"), ()), nat), Const(Name.of("Nat.lt"), ()))
>>> type_problems(le(evil, five, five), {}, "5 ≤ 5")  # doctest: +NORMALIZE_WHITESPACE
['it uses `LE.mk` and `Nat.lt`, which are not among the core constants whose meaning the symbolic layer knows
  (pysym.lean.meaning.STANDARD): the printed statement may not mean what it says',
 'its compiled type has `LE.le` on a type or with an instance the translation does not know
  (pysym.lean.translate reads only the core numeric types with their standard instances)']
"""

from __future__ import annotations

from typing import Mapping

import sympy as sp

from pysym.lean.syntax import mentions
from pysym.lean.terms import App, Const, ForallE, Lam, MData, Name, Proj, Sort, _children

__all__ = ["STANDARD", "PINS", "type_problems", "constant_problems", "pin_problems", "usable_statement",
           "REFUSED"]

# Core constants a statement may use.  Types and logic; the arithmetic and list operations the statements use,
# with exactly their standard instances; decidability (its instances carry proofs, so any one means the same).
# Deliberately absent: every class type (LE, LT, HAdd, OfNat, NatCast, Zero, ...), every structure constructor
# (LE.mk ...), every recursor and eliminator, generic combinators that could carry a project value into an
# instance position; and Nat's subtraction and division (instSubNat, instDivNat): they truncate, and SymPy's
# `-` and `/` do not (`xs.length - m + m ≥ m` is true in Lean and reads as `length(xs) >= m`); and division
# (HDiv.hDiv): Lean's is total (`x / 0 = 0`), SymPy's is not and cancels `x / y * y` to `x`, so the true
# `y = 0 → x / y * y = 0` would read as `y = 0 → x = 0`.
STANDARD = frozenset("""
Nat Int Rat Bool Prop List Option Prod Subtype Unit PUnit
True False And Or Not Iff Eq Ne Exists
Bool.true Bool.false Bool.and Bool.or Bool.not
Decidable Decidable.decide DecidableEq DecidablePred DecidableRel Classical.propDecidable
instDecidableTrue instDecidableFalse instDecidableOr instDecidableAnd instDecidableNot instDecidableIff
instDecidableEqNat instDecidableEqBool instDecidableEqRat instDecidableEqInt Nat.decLe Nat.decLt Nat.decEq
Rat.instDecidableLt Rat.instDecidableLe Option.instDecidableEq List.decidableBEx List.instDecidableMemOfLawfulBEq
instBEqOfDecidableEq Nat.instLawfulBEq
ite
LE.le LT.lt GE.ge GT.gt HAdd.hAdd HSub.hSub HMul.hMul HPow.hPow OfNat.ofNat
instLENat instLTNat instHAdd instHSub instHMul instHPow instAddNat instMulNat
instPowNat instNatPowNat instOfNatNat instMinNat
Rat.instLE Rat.instLT Rat.instAdd Rat.instSub Rat.instMul Rat.instOfNat Rat.instNatCast
Zero.ofOfNat0 Zero.toOfNat0
Nat.cast NatCast.natCast Nat.succ
Min.min
Membership.mem List.instMembership GetElem?.getElem? List.instGetElem?NatLtLength
List.nil List.cons List.length List.map List.sum List.range List.replicate List.zip List.take List.filter
List.flatMap List.any List.all List.count List.countP List.Nodup List.Pairwise List.Perm
Option.none Option.some Prod.fst Prod.snd Prod.mk Subtype.val
""".split())

# the equations that determine each function the parser gives a meaning, by meaning: ((binders, lhs, rhs) with
# `F` for the function); a function is pinned when, for each equation, a statement whose own meaning is sound
# states it (binders all `Nat`, no hypotheses, binder names free)
_N, _K = sp.symbols("n k", integer=True, nonnegative=True)
_F = sp.Function("F")
PINS = {
    "binomial": [((_N,), _F(_N, 0), sp.Integer(1)),
                 ((_K,), _F(0, _K + 1), sp.Integer(0)),
                 ((_N, _K), _F(_N + 1, _K + 1), _F(_N, _K) + _F(_N, _K + 1))],
    "factorial": [((), _F(0), sp.Integer(1)),
                  ((_N,), _F(_N + 1), (_N + 1) * _F(_N))],
}

REFUSED = "⊘ not trusted: "  # starts the text of a statement whose meaning failed its check (see usable_statement)


def usable_statement(info: Mapping) -> str:
    """The statement text of a ``statements.json`` entry, or, when its
    ``meaning`` check found problems (or is absent: a file written before the
    check existed), a refusal that :func:`pysym.lean.parse.parse_statement`
    reports instead of reading it."""
    problems = info.get("meaning")
    if problems is None:
        problems = ["the check of what it means did not run (statements.json is older than this version of "
                    "moe-theory): run `moe-theory lean check --no-cache`"]
    if problems:
        return REFUSED + "; ".join(problems)
    return info["statement"]


# --------------------------------------------------------------------------- the checks on the compiled type


def _user(name: Name) -> str:
    from pysym.lean.axioms import user_name

    return str(user_name(name))


def _strip(e):
    while True:
        if isinstance(e, ForallE):
            e = e.body
        elif isinstance(e, MData):
            e = e.expr
        else:
            return e


def _spine(e) -> tuple:
    """``(head, [arguments])`` of an application (``(e, [])`` for anything else)."""
    args = []
    while isinstance(e, (App, MData)):
        if isinstance(e, App):
            args.append(e.arg)
            e = e.fn
        else:
            e = e.expr
    return e, args[::-1]


def _head(e):
    while isinstance(e, (App, MData)):
        e = e.fn if isinstance(e, App) else e.expr
    return e


def _nodes(e):
    """Every node of ``e``, a shared node once per occurrence (a tree walk: statements are small)."""
    stack = [e]
    while stack:
        x = stack.pop()
        yield x
        stack.extend(_children(x))


class _Project:
    """The project's constants (``{real name: ConstantInfo}``) and which of them may appear in a statement."""

    def __init__(self, constants: Mapping[Name, object]):
        self.constants = constants
        self.verdicts: dict[Name, list[str]] = {}
        self.found: dict[int, tuple] = {}  # id of a type: (the type, what reading._variants found in it)
        self._written: dict[str, str] | None = None

    @property
    def written(self) -> dict[str, str]:
        """Each project constant's real name -> its name as written (private prefix removed), computed once."""
        if self._written is None:
            from pysym.lean.translate import written_names

            self._written = written_names(self.constants)
        return self._written

    def variants(self, type_expr):
        """:func:`pysym.lean.reading._variants` of ``type_expr``, computed once per type."""
        from pysym.lean.reading import _variants

        hit = self.found.get(id(type_expr))
        if hit is None:
            hit = self.found[id(type_expr)] = (type_expr, _variants(type_expr, self.constants))
        return hit[1]

    def problems(self, name: Name) -> list[str]:
        if name in self.verdicts:
            return self.verdicts[name]
        self.verdicts[name] = []  # a cycle (a recursive type alias) is judged by its other parts
        self.verdicts[name] = found = self._judge(name)
        return found

    def _judge(self, name: Name) -> list[str]:
        info = self.constants[name]
        shown = _user(name)
        if info.kind == "thm":
            return []  # a proof: it carries no data (proof irrelevance)
        if info.kind in ("rec", "quot", "axiom"):
            return [f"`{shown}` is a {'recursor' if info.kind == 'rec' else info.kind} of the project"]
        target = _strip(info.type)
        head = _head(target)
        if isinstance(target, Sort):
            if _is_prop(target) or info.kind == "induct":
                return []  # a predicate, or an inductive type of the project
            if info.kind == "defn" and info.value is not None:  # a type alias: what it stands for must be data
                body = info.value
                while isinstance(body, (Lam, MData)):
                    body = body.body if isinstance(body, Lam) else body.expr
                bad = self._foreign(body)
                return [f"`{shown}` is a type that stands for something other than data: {bad}"] if bad else []
            return [f"`{shown}` is a type of the project that is neither an inductive type nor an alias of one"]
        if not isinstance(head, Const):
            return [f"`{shown}` returns a value of a type parameter (it could stand for any value, an instance "
                    "included)"]
        bad = self._foreign(target)
        return [f"the result type of `{shown}` uses {bad}"] if bad else []

    def _foreign(self, e) -> str:
        """What in ``e`` is neither a standard constant nor an acceptable project constant ('' if nothing)."""
        out = []
        for x in _nodes(e):
            if isinstance(x, Proj):
                out.append("a structure projection")
            elif isinstance(x, Const):
                if x.name in self.constants:
                    if self.problems(x.name):
                        out.append(f"`{_user(x.name)}`")
                elif str(x.name) not in STANDARD:
                    out.append(f"`{x.name}`")
        return ", ".join(sorted(set(out)))


def _is_prop(e) -> bool:
    from pysym.lean.terms import Zero

    return isinstance(e, Sort) and isinstance(e.level, Zero)


def constant_problems(name: Name, constants: Mapping[Name, object]) -> list[str]:
    """Why the project constant ``name`` may not appear in a statement ([] if it may); ``constants``: every
    project constant by real name."""
    return _Project(constants).problems(name)


def type_problems(type_expr, constants: Mapping[Name, object], text: str, project: "_Project | None" = None
                  ) -> list[str]:
    """Why the statement ``text`` (as ``#check`` printed it) may not mean what it says, judged on
    ``type_expr``, its type as Lean compiled it; ``constants``: the project's constants by real name."""
    project = project or _Project(constants)
    problems, unknown, seen = [], set(), set()
    proj = False
    for x in _nodes(type_expr):
        if isinstance(x, Proj):
            proj = True
        elif isinstance(x, Const) and x.name not in seen:
            seen.add(x.name)
            if x.name in constants:
                problems.extend(project.problems(x.name))
            elif str(x.name) not in STANDARD:
                unknown.add(str(x.name))
    if unknown:
        names = sorted(unknown)
        listed = ", ".join(f"`{n}`" for n in names[:-1]) + (" and " if len(names) > 1 else "") + f"`{names[-1]}`"
        problems.append(f"it uses {listed}, which {'is' if len(names) == 1 else 'are'} not among the core "
                        "constants whose meaning the symbolic layer knows (pysym.lean.meaning.STANDARD): the "
                        "printed statement may not mean what it says")
    if proj:
        problems.append("its compiled type takes a structure apart directly (a `proj` node), which the printed "
                        "statement does not show")
    from pysym.lean.reading import reading_problems

    problems.extend(reading_problems(type_expr, constants, text, seen, project.variants))
    from pysym.lean.translate import translation_problems

    problems.extend(translation_problems(type_expr, constants, text, written=project.written))
    return sorted(set(problems))


def statement_problems(names, constants: Mapping[Name, object], texts: Mapping[str, str],
                       declared=()) -> dict[str, list[str]]:
    """``{theorem: problems}`` for the theorems ``names`` (user names), judged on their compiled types in
    ``constants`` (the project's constants by real name); ``texts``: their printed statements.  ``declared``:
    every theorem the sources declare (user names, those of a base included), whose statements a derivation
    may combine with these (:func:`pysym.lean.clashes.field_clashes`,
    :func:`pysym.lean.clashes.opaque_clashes`)."""
    from pysym.lean.clashes import field_clashes, opaque_clashes

    by_user = {}
    for real in constants:
        by_user.setdefault(_user(real), real)
    project = _Project(constants)
    out = {}
    for name in names:
        real = by_user.get(name)
        if real is None or constants[real].kind != "thm":
            out[name] = ["its compiled form was not found in what Lean wrote"]
            continue
        out[name] = type_problems(constants[real].type, constants, texts.get(name, ""), project)
    def is_type(namespace: str) -> bool:  # a type of the project (an inductive type or an alias), not a predicate
        real = by_user.get(namespace)
        if real is None:
            return False
        target = _strip(constants[real].type)
        return isinstance(target, Sort) and not _is_prop(target)

    others = [constants[by_user[n]].type for n in set(declared) | set(names)
              if n in by_user and constants[by_user[n]].kind == "thm"]
    clashes = field_clashes(others, is_type=is_type)
    terms = opaque_clashes(others, constants, variants=project.variants)
    for name in names:
        if name in out and by_user.get(name) is not None and constants[by_user[name]].kind == "thm":
            own = [constants[by_user[name]].type]
            out[name] = sorted(set(out[name]) | set(field_clashes(own, clashes, is_type))
                               | set(opaque_clashes(own, constants, terms, project.variants)))
    return out


# --------------------------------------------------------------------------- pins


def pin_problems(statements: Mapping[str, Mapping]) -> dict[str, list[str]]:
    """``{theorem: problems}``: for each statement (``statements.json`` entries whose ``meaning`` has been
    checked) that prints a function of :data:`pysym.lean.parse.FUNCTIONS`, the equations of :data:`PINS`
    that no sound statement of the set proves for that function."""
    from pysym.lean.parse import FUNCTIONS

    sound = {n: i["statement"] for n, i in statements.items() if i.get("meaning") == []}
    missing: dict[str, list[str]] = {}
    for name, func in FUNCTIONS.items():
        meaning = func.__name__ if hasattr(func, "__name__") else str(func)
        wanted = PINS.get(meaning)
        if wanted is None:
            missing[name] = [f"no equations are known that pin `{name}` to {meaning}"]
            continue
        lacking = [_show_pin(name, pin) for pin in wanted
                   if not any(_states(text, name, pin) for text in sound.values())]
        if lacking:
            missing[name] = [f"the project does not prove that `{name}` is {meaning} (missing: "
                             + "; ".join(lacking) + ")"]
    out = {}
    for theorem, info in statements.items():
        text = info.get("statement", "")
        found = []
        for name, problems in missing.items():
            if mentions(name, text):
                found.extend(problems)
        out[theorem] = found
    return out


def _show_pin(name: str, pin) -> str:
    binders, lhs, rhs = pin
    body = f"{sp.sstr(lhs)} = {sp.sstr(rhs)}".replace("F(", f"{name}(")
    return (f"∀ {' '.join(map(str, binders))} : Nat, " if binders else "") + body


def _states(text: str, name: str, pin) -> bool:
    """Whether ``text`` states the equation ``pin`` of the function ``name`` (binders renamed freely)."""
    from itertools import permutations

    from pysym.lean.parse import LeanParseError, parse_statement

    try:
        st = parse_statement(text, opaque=(name,))
    except (LeanParseError, ValueError, TypeError):
        return False
    binders, lhs, rhs = pin
    if st.hypotheses or len(st.binders) != len(binders) or any(t != "Nat" for t in st.binders.values()):
        return False
    concl = st.conclusion
    if not isinstance(concl, sp.Equality):
        return False
    f = sp.Function(name)
    for order in permutations(list(st.binders)):
        sub = {st.symbols[b]: v for b, v in zip(order, binders) if b in st.symbols}
        if len(sub) != len(binders):
            continue
        a = concl.lhs.xreplace(sub).replace(f, _F)
        b = concl.rhs.xreplace(sub).replace(f, _F)
        for x, y in ((a, b), (b, a)):
            if sp.expand(x - lhs) == 0 and sp.expand(y - rhs) == 0:
                return True
    return False
