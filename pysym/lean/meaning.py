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
* the number of coercion arrows ``↑`` in the text equals the number of
  standard casts (``Nat.cast``...) in the term, so no other function prints
  as a cast;
* a function the parser gives a meaning (:data:`pysym.lean.parse.FUNCTIONS`:
  ``MoeTheory.choose`` is ``binomial``) appears in the term under that name,
  and the project proves the equations that determine it
  (:data:`PINS`, checked by :func:`pin_problems` over all statements): the
  name alone says nothing about the definition behind it.

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
  (pysym.lean.meaning.STANDARD): the printed statement may not mean what it says']
"""

from __future__ import annotations

import re
from typing import Mapping

import sympy as sp

from pysym.lean.terms import App, BVar, Const, ForallE, Lam, LetE, MData, Name, Proj, Sort, _children

__all__ = ["STANDARD", "CASTS", "PINS", "type_problems", "constant_problems", "pin_problems", "usable_statement",
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

# standard casts: each prints as `↑x` (the parser reads it as `x`)
CASTS = frozenset({"Nat.cast", "NatCast.natCast", "Int.cast", "IntCast.intCast"})

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


def _spine_count(e, heads: frozenset) -> int:
    """How many applications in ``e`` have a head in ``heads`` and at least three arguments."""
    memo: dict[int, int] = {}

    def count(x) -> int:
        k = id(x)
        if k in memo:
            return memo[k]
        n = sum(count(c) for c in _children(x))
        if isinstance(x, App):
            args, h = 0, x
            while isinstance(h, App):
                h, args = h.fn, args + 1
            # a spine counts once, at the App that completes its third argument (an over-applied cast's outer
            # Apps have a fn with three arguments already)
            if isinstance(h, Const) and str(h.name) in heads and args >= 3:
                inner, f = 0, x.fn
                while isinstance(f, App):
                    f, inner = f.fn, inner + 1
                if inner < 3:
                    n += 1
        memo[k] = n
        return n

    return count(e)


class _Project:
    """The project's constants (``{real name: ConstantInfo}``) and which of them may appear in a statement."""

    def __init__(self, constants: Mapping[Name, object]):
        self.constants = constants
        self.verdicts: dict[Name, list[str]] = {}

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
    from pysym.lean.parse import FUNCTIONS

    project = project or _Project(constants)
    problems, unknown, ours, seen = [], set(), set(), set()
    proj = False
    for x in _nodes(type_expr):
        if isinstance(x, Proj):
            proj = True
        elif isinstance(x, Const) and x.name not in seen:
            seen.add(x.name)
            if x.name in constants:
                problems.extend(project.problems(x.name))
                ours.add(_user(x.name))
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
    arrows, casts = text.count("↑"), _spine_count(type_expr, CASTS)
    if arrows != casts:
        problems.append(f"it prints {arrows} coercion arrow(s) `↑` but its compiled type has {casts} standard "
                        "cast(s): another function prints as a cast")
    for name in FUNCTIONS:
        if re.search(rf"(?<![\w.'!?]){re.escape(name)}(?![\w'!?])", text) and name not in ours \
                and name not in {str(c) for c in seen}:
            problems.append(f"it prints `{name}`, which its compiled type does not use")
    problems.extend(_function_problems(type_expr, constants))
    problems.extend(_name_problems(type_expr, seen))
    problems.extend(_hidden_argument_problems(type_expr, constants))
    problems.extend(_binder_problems(type_expr, constants, text))
    return sorted(set(problems))


# core constants whose applications are propositions, and core types (a binder of one is data, not a proof)
PROPOSITIONS = frozenset("Eq Ne LE.le LT.lt GE.ge GT.gt And Or Not Iff True False Exists Membership.mem "
                         "List.Nodup List.Pairwise List.Perm".split())
TYPES = frozenset("Nat Int Rat Bool List Option Prod Subtype Unit PUnit Decidable DecidableEq DecidablePred "
                  "DecidableRel".split())


def _binder_problems(type_expr, constants, text: str) -> list[str]:
    """The chain of `∀` and `→` the parser splits into binders, hypotheses and a conclusion, checked on the
    compiled type: a proof binder the text shows as a binder (`∀ {h : P}`, `∀ (h : P), ... h ...`) would lose
    its hypothesis; two binders of one name would be merged into one variable; and a binder the text types as a
    number (`Nat`, `ℚ`, ...) must be of exactly that core type (a project `abbrev ℚ := Nat` is not `Rat`)."""
    from pysym.lean.parse import NUMERIC_TYPES, LeanParseError, parse_statement

    problems, names, ctx, binders = [], [], [], []
    e = type_expr
    while isinstance(e, (ForallE, MData)):
        if isinstance(e, MData):
            e = e.expr
            continue
        name = str(e.binder_name)
        if e.binder_info != "default" or _depends(e.body, 0):  # printed as a binder, not as `P →`
            names.append(name)
            binders.append((name, e.binder_type))
            if _proposition(e.binder_type, ctx, constants) is not False:
                problems.append(f"its binder `{name}` may be a proof of a hypothesis, which the text shows as a "
                                "binder and the parser would not read as a hypothesis")
        ctx.append(e.binder_type)
        e = e.body
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        problems.append(f"it binds {', '.join(f'`{n}`' for n in twice)} twice, and the parser would merge them")
    try:
        printed = parse_statement(text).binders
    except (LeanParseError, ValueError, TypeError):
        printed = {}
    for name, ty in binders:
        numeric = NUMERIC_TYPES.get((printed.get(name) or "").strip())
        if numeric and not (isinstance(ty, Const) and str(ty.name) == numeric):
            problems.append(f"its binder `{name}` is printed with the type `{printed[name]}` but is not of the core "
                            f"type {numeric}")
    return problems


def _depends(e, depth: int) -> bool:
    """Whether ``e`` mentions the bound variable ``depth`` binders out."""
    if isinstance(e, BVar):
        return e.index == depth
    if isinstance(e, (ForallE, Lam)):
        return _depends(e.binder_type, depth) or _depends(e.body, depth + 1)
    if isinstance(e, LetE):
        return _depends(e.type, depth) or _depends(e.value, depth) or _depends(e.body, depth + 1)
    return any(_depends(c, depth) for c in _children(e))


def _proposition(t, ctx: list, constants) -> "bool | None":
    """Whether the type ``t`` (under binders of types ``ctx``, outermost first) is a proposition: ``True``,
    ``False`` (a type: its values are data), or ``None`` when that cannot be told without type inference."""
    while isinstance(t, MData):
        t = t.expr
    if isinstance(t, Sort):
        return False
    if isinstance(t, ForallE):
        return _proposition(t.body, ctx + [t.binder_type], constants)
    head, args = t, 0
    while isinstance(head, (App, MData)):
        if isinstance(head, App):
            head, args = head.fn, args + 1
        else:
            head = head.expr
    if isinstance(head, Const):
        if str(head.name) in PROPOSITIONS:
            return True
        if str(head.name) in TYPES and head.name not in constants:
            return False
        info = constants.get(head.name)
        if info is None:
            return None
        kind_type = info.type
    elif isinstance(head, BVar) and head.index < len(ctx):
        kind_type = ctx[-1 - head.index]
    else:
        return None
    binders = 0
    while isinstance(kind_type, (ForallE, MData)):
        if isinstance(kind_type, ForallE):
            kind_type, binders = kind_type.body, binders + 1
        else:
            kind_type = kind_type.expr
    if binders != args or not isinstance(kind_type, Sort):
        return None
    return _is_prop(kind_type)


def _hidden_argument_problems(type_expr, constants) -> list[str]:
    """Two applications in one statement that may print alike but differ in what the text does not show: the
    symbolic layer, which names an opaque term by its text, would take them for one term.  An implicit
    argument, an instance, a type or a universe level is not printed (`@g Nat = 1 → @g Bool = 0` prints as
    `g = 1 → g = 0`), and field notation prints `T.f x` as `x.f` whatever `T` is (`Nat.succ (a + b)` and
    `RtM.succ (a + b)`, with `abbrev RtM := Nat`, both print as `(a + b).succ`).  So each application is
    compared by a coarse form of its text (the head's last name component; for a project function its explicit
    arguments, for a core one every argument that is not a type or an instance) against its whole term; coarser
    than the text, never finer, so whatever prints alike is compared.  Bound variables are compared by name, as
    the parser reads them (a name bound twice in the chain the parser splits is refused by
    :func:`_binder_problems`; inside a nested `∀` the whole proposition is one opaque term)."""
    variants: dict[str, set[str]] = {}
    binders = [0]
    signatures: dict[Name, list[str]] = {}

    def infos(name: Name) -> list[str]:
        if name not in signatures:
            t, out = constants[name].type, []
            while isinstance(t, (ForallE, MData)):
                if isinstance(t, ForallE):
                    out.append(t.binder_info)
                    t = t.body
                else:
                    t = t.expr
            signatures[name] = out
        return signatures[name]

    def hidden(arg, ctx) -> bool:
        """Whether ``arg`` may be left out of the text: a type, an instance, a type variable."""
        while isinstance(arg, MData):
            arg = arg.expr
        if isinstance(arg, Sort):
            return True
        head = _head(arg)
        if isinstance(head, BVar):
            return head.index < len(ctx) and isinstance(ctx[-1 - head.index][2], Sort)
        if not isinstance(head, Const):
            return False
        name = str(head.name)
        if head.name in constants:
            target = _strip(constants[head.name].type)
            return isinstance(target, Sort) and not _is_prop(target)  # a type of the project (not a predicate)
        last = name.rsplit(".", 1)[-1]
        return name in TYPES or last.startswith("inst") or name in STANDARD and not last[:1].islower()

    def go(e, ctx: tuple, record: bool = True) -> tuple[str, str]:
        if isinstance(e, MData):
            return go(e.expr, ctx, record)
        if isinstance(e, BVar):
            name = ctx[-1 - e.index][0] if e.index < len(ctx) else "?"
            return name, name  # two binders of one name are refused by _binder_problems
        if isinstance(e, Const):
            return _user(e.name).rsplit(".", 1)[-1], f"{e.name}.{{{e.levels!r}}}"
        if isinstance(e, (ForallE, Lam)):
            binders[0] += 1
            tp, tf = go(e.binder_type, ctx, record)
            bp, bf = go(e.body, ctx + ((str(e.binder_name), binders[0], e.binder_type),), record)
            return f"(∀ {e.binder_name} : {tp}, {bp})", f"(∀ {e.binder_name} : {tf}, {bf})"
        if isinstance(e, LetE):
            binders[0] += 1
            parts = [go(e.type, ctx, record), go(e.value, ctx, record),
                     go(e.body, ctx + ((str(e.name), binders[0], e.type),), record)]
            return "(let " + " ".join(p for p, _ in parts) + ")", "(let " + " ".join(f for _, f in parts) + ")"
        if isinstance(e, App):
            head, args = e, []
            while isinstance(head, App):
                args.append(head.arg)
                head = head.fn
            args.reverse()
            hp, hf = go(head, ctx, record)
            if isinstance(head, Const) and head.name in constants:
                shown = infos(head.name)
                shown = [bi == "default" for bi in shown] + [True] * (len(args) - len(shown))
            else:
                shown = [not hidden(a, ctx) for a in args]
            # what sits in an argument the text does not show is not printed at all: not compared
            rendered = [go(a, ctx, record and keep) for a, keep in zip(args, shown)]
            printed = f"({hp} " + " ".join(p for (p, _), keep in zip(rendered, shown) if keep) + ")"
            full = f"({hf} " + " ".join(f for _, f in rendered) + ")"
            if record and not hidden(e, ctx):  # a term the text names (types and instances are not named)
                variants.setdefault(printed, set()).add(full)
            return printed, full
        text = repr(e)
        return text, text

    go(type_expr, ())
    return [f"two applications of `{p.split()[0][1:]}` may print alike (as `{p}`) but differ in what the text "
            "does not show (an implicit argument, an instance, a type, a universe level, or the namespace of a "
            "field)" for p, fulls in sorted(variants.items()) if len(fulls) > 1]


def _arity(name: str) -> int:
    from pysym.lean.parse import FUNCTIONS

    return len(PINS[FUNCTIONS[name].__name__][-1][0])  # the last equation binds every argument


def _function_problems(type_expr, constants) -> list[str]:
    """A function given a meaning must be exactly ``Nat → ... → Nat`` with explicit arguments (nothing hidden
    that the printed text would not show), and applied to all of them wherever the term uses it."""
    from pysym.lean.parse import FUNCTIONS

    problems = []
    heads: dict[str, int] = {}
    for x in _nodes(type_expr):
        if isinstance(x, App):
            h, args = x, 0
            while isinstance(h, App):
                h, args = h.fn, args + 1
            if isinstance(h, Const) and _user(h.name) in FUNCTIONS and args == _arity(_user(h.name)):
                f = x.fn
                inner = 0
                while isinstance(f, App):
                    f, inner = f.fn, inner + 1
                if inner == args - 1:
                    heads[_user(h.name)] = heads.get(_user(h.name), 0) + 1
    uses: dict[str, int] = {}
    for x in _nodes(type_expr):
        if isinstance(x, Const) and _user(x.name) in FUNCTIONS:
            uses[_user(x.name)] = uses.get(_user(x.name), 0) + 1
            info = constants.get(x.name)
            t, n = (info.type if info is not None else None), 0
            while isinstance(t, ForallE) and t.binder_info == "default" and t.binder_type == Const(Name.of("Nat"), ()):
                t, n = t.body, n + 1
            if t != Const(Name.of("Nat"), ()) or n != _arity(_user(x.name)):
                problems.append(f"`{_user(x.name)}` is not a function of {_arity(_user(x.name))} explicit natural "
                                "number(s) returning a natural number, so its printed form can hide what it is "
                                "applied to")
    for name, n in uses.items():
        if heads.get(name, 0) != n:
            problems.append(f"`{name}` is used without all of its {_arity(name)} argument(s)")
    return problems


def _name_problems(type_expr, seen) -> list[str]:
    """Names that can make the printed text misread: a binder named like the first part of a constant's name
    (a constant `n.succ` prints as `n.succ`, like the field `succ` of a binder `n`), and anything named like a
    namespace of a function given a meaning (a constant or binder `MoeTheory` prints `MoeTheory.choose 3 1`
    for its field `choose`)."""
    from pysym.lean.parse import FUNCTIONS

    binders = {str(x.binder_name) for x in _nodes(type_expr) if isinstance(x, (ForallE, Lam))}
    binders |= {str(x.name) for x in _nodes(type_expr) if isinstance(x, LetE)}
    names = {_user(c) for c in seen}
    prefixes = {".".join(k.split(".")[:i]) for k in FUNCTIONS for i in range(1, k.count(".") + 1)}
    problems = []
    for b in sorted(binders):
        clash = sorted(n for n in names if n.split(".")[0] == b and "." in n)
        if clash:
            problems.append(f"its binder `{b}` has the name of the first part of `{clash[0]}`, so the printed "
                            f"`{clash[0]}` could be read as a field of `{b}`")
        if b in prefixes:
            problems.append(f"its binder `{b}` is named like the namespace of `{b}.…`, whose functions have a "
                            "meaning")
    for n in sorted(names & prefixes):
        problems.append(f"it uses a constant named `{n}`, like the namespace of functions that have a meaning")
    return problems


def statement_problems(names, constants: Mapping[Name, object], texts: Mapping[str, str]) -> dict[str, list[str]]:
    """``{theorem: problems}`` for the theorems ``names`` (user names), judged on their compiled types in
    ``constants`` (the project's constants by real name); ``texts``: their printed statements."""
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
            if re.search(rf"(?<![\w.'!?]){re.escape(name)}(?![\w'!?])", text):
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
