r"""Lean premises: a step whose relation *is* a Lean theorem's statement.

The theorem's elaborated statement (from ``build/lean/statements.json``) is
parsed (:mod:`pysym.lean.parse`), its binders bound to the derivation's
expressions, and its conclusion compared with the step's relation up to
SymPy equivalence.  Nothing is taken on faith:

* **bind** -- a value bound to a ``Nat`` binder must be provably a natural
  number on the step's scope (integer-valued and ``>= 0``), to an ``Int``
  binder an integer, to a ``Rat`` binder a rational (a theorem about the
  rationals says nothing about the reals); only numeric binders can be bound
  (names the theorem does not bind are ignored: its binders left unbound stay
  Lean symbols, which match nothing).
* **terms** -- a Lean term with no SymPy meaning (``Natarajan.card ...``,
  ``xs.length``) may be *named* by a symbol of the derivation: the symbol then
  stands for that one term, in every step.  A name is an arbitrary real in every
  proof (its range is not a fact about the term), and a relation that contains
  a name is not spot-checked (no sample of the term is known).  To give a term
  a *value* instead, justify it with :class:`Term`: another Lean theorem whose
  conclusion, under its own binding, is ``term = value``.
* **hypotheses** -- each hypothesis of the theorem must be implied by the
  ranges (proved, with term names as arbitrary reals), or granted by a named
  assumption of the derivation for that exact hypothesis:
  ``hypotheses={"<the whole hypothesis>": "A1"}``, where the key is the
  hypothesis as Lean states it (``"xs.length = 2 * m"``) or as the parsed
  statement prints it (``"Eq(length(xs), 2*m)"``).  A key that is not a whole
  hypothesis of the theorem is an error, never a partial match.

>>> import sympy as sp
>>> from pysym.derive.derivation import Derivation
>>> from pysym.derive.domain import Assumption, Var
>>> T, k = Var("T", 2, 50, integer=True), Var("k", 0, 80, integer=True)
>>> statements = {"MoeTheory.pow_le_choose_mul_pow":
...     "∀ {n k : Nat}, k ≤ n → n ^ k ≤ MoeTheory.choose n k * k ^ k"}
>>> rel = T.symbol**k.symbol <= sp.binomial(T.symbol, k.symbol) * k.symbol**k.symbol
>>> p = Premise("p", "MoeTheory.pow_le_choose_mul_pow", rel, bind={"n": T.symbol, "k": k.symbol},
...             hypotheses={"k": "A"})
>>> d = Derivation("d", "t", vars=[T, k], steps=[p], conclusion="p",
...                assumptions=[Assumption("A", "anything")])
>>> print(d.verify(statements).result("p").detail)  # doctest: +NORMALIZE_WHITESPACE
Lean theorem `MoeTheory.pow_le_choose_mul_pow`: `k` is not a whole hypothesis of the theorem (its hypotheses:
`k <= n`); its hypothesis `k <= T` is neither implied by the domain nor granted by a named assumption
>>> p = Premise("p", "MoeTheory.pow_le_choose_mul_pow", rel, bind={"n": T.symbol, "k": k.symbol},
...             hypotheses={"k ≤ n": "A"})
>>> r = Derivation("d", "t", vars=[T, k], steps=[p], conclusion="p",
...                assumptions=[Assumption("A", "k <= T")]).verify(statements).result("p")
>>> r.ok, r.detail.split("; ")[1]
(False, 'its hypotheses: `k <= n`: assumption A')
>>> r.numeric.counterexample  # the assumption is false where k > T
{'T': '2', 'k': '80'}
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import sympy as sp

from pysym.derive.defined import undefined_somewhere
from pysym.derive.domain import ScopeError
from pysym.derive.steps import Step, StepResult
from pysym.lean.parse import NUMERIC_TYPES, LeanParseError, parse_statement
from pysym.lean.syntax import ID_FIRST, ID_REST

__all__ = ["Premise", "Term", "same_relation"]

_OPAQUE = sp.core.function.AppliedUndef


@dataclass(frozen=True)
class Term:
    """The value of an opaque Lean term, justified by the Lean theorem ``lean``:
    its conclusion, with its binders bound by ``bind``, must be the equation
    ``term = value`` (either way round) and its hypotheses must follow from the
    ranges."""

    value: object
    lean: str
    bind: dict = field(default_factory=dict)


def _normalize(rel):
    if isinstance(rel, sp.GreaterThan):
        return sp.LessThan(rel.rhs, rel.lhs, evaluate=False)
    if isinstance(rel, sp.StrictGreaterThan):
        return sp.StrictLessThan(rel.rhs, rel.lhs, evaluate=False)
    if isinstance(rel, (sp.LessThan, sp.StrictLessThan, sp.Equality)):
        return rel
    return None


def same_relation(a, b, scope) -> bool:
    """``a`` and ``b`` are the same relation (``<=``, ``<`` or ``=``), up to proved SymPy equality: side by
    side, or with the same difference ``rhs - lhs`` (``0 <= b - a`` is ``a <= b``; an equation either way round)."""
    a, b = _normalize(a), _normalize(b)
    if a is None or b is None or type(a) is not type(b):
        return False
    if scope.prove_zero(a.lhs - b.lhs).ok and scope.prove_zero(a.rhs - b.rhs).ok:
        return True
    gap = (a.rhs - a.lhs) - (b.rhs - b.lhs)
    if scope.prove_zero(gap).ok:
        return True
    return isinstance(a, sp.Equality) and scope.prove_zero((a.rhs - a.lhs) + (b.rhs - b.lhs)).ok


@dataclass
class Premise(Step):
    """A relation taken from a Lean theorem, checked against its statement."""

    lean: str = ""
    relation: object = None
    bind: dict = field(default_factory=dict)  # Lean binder name -> SymPy expression
    terms: dict = field(default_factory=dict)  # Lean head or application -> name symbol or Term
    hypotheses: dict = field(default_factory=dict)  # whole Lean hypothesis -> assumption name

    def __init__(self, id, lean, relation, *, bind=None, terms=None, hypotheses=None, text=""):
        super().__init__(id, text)
        self.lean, self.relation = lean, sp.sympify(relation)
        self.bind, self.terms, self.hypotheses = dict(bind or {}), dict(terms or {}), dict(hypotheses or {})

    @property
    def claim(self):
        return self.relation

    def names(self) -> set:
        """The symbols this premise uses as names of Lean terms."""
        return {v for v in self.terms.values() if isinstance(v, sp.Symbol)}

    def check(self, d, ctx):
        fail = lambda why, **kw: StepResult(self, False, "lean", f"Lean theorem `{self.lean}`: {why}",  # noqa: E731
                                            lean=self.lean, **kw)
        statements = ctx.get("statements")
        if statements is None:
            return StepResult(self, False, "lean", "no Lean statements available (run `moe-theory lean check`)",
                              lean=self.lean)
        if self.lean not in statements:
            return StepResult(self, False, "lean", f"`{self.lean}` is not a theorem of MoeTheory/ "
                              "(missing from build/lean/statements.json)", lean=self.lean)
        try:
            st = parse_statement(statements[self.lean])
        except LeanParseError as exc:
            return StepResult(self, False, "lean", f"cannot parse the statement of `{self.lean}`: {exc}",
                              lean=self.lean)
        try:
            scope = d.scope(self.where, extra_names=self.names())
        except ScopeError as exc:
            return fail(str(exc))
        subs, problems = _binding(st, self.bind, scope)
        if problems:
            return fail("; ".join(problems))
        bound = [h.subs(subs, simultaneous=True) for h in st.hypotheses]
        conclusion = st.conclusion.subs(subs, simultaneous=True)
        replace, problems = self._terms(d, ctx, scope, statements, bound + [conclusion], st, subs)
        if problems:
            return fail("; ".join(problems))
        conclusion = conclusion.xreplace(replace) if replace else conclusion
        # in the hypotheses a term name is an arbitrary real: its declared range is no fact about the term
        plain = {t: scope.plain(v) for t, v in replace.items()}
        bound = [h.xreplace(plain) if plain else h for h in bound]
        problems = []
        for side in (self.relation.lhs, self.relation.rhs) if isinstance(self.relation, sp.Rel) else ():
            why = undefined_somewhere(scope.plain(side), scope)
            if why:
                return fail(f"the premise is not defined on the whole domain: {why}")
        if not same_relation(conclusion, self.relation, scope):
            problems.append(f"its conclusion `{sp.sstr(conclusion)}` does not match the premise "
                            f"`{sp.sstr(self.relation)}`")
        grants, bad_keys = _grants(st, self.hypotheses)
        problems += bad_keys
        discharged, open_hyps, accounted = [], [], []
        for i, (raw, h) in enumerate(zip(st.hypotheses, bound)):
            why = _implied(h, d, scope)
            if why is None and i in grants:
                name = grants[i]
                if name in d.assumption_names():
                    # a short name (A1) refers to the derivation's list; a sentence says why it is granted
                    why = f"assumption {name}" if re.fullmatch(r"\w{1,6}", name) else f"granted: {name}"
                else:
                    problems.append(f"its hypothesis `{sp.sstr(h)}` is granted by `{name}`, which is not a named "
                                    "assumption of the derivation")
                    open_hyps.append(sp.sstr(h))
                    continue
            if why is None:
                open_hyps.append(sp.sstr(h))
                problems.append(f"its hypothesis `{sp.sstr(h)}` is neither implied by the domain nor granted by a "
                                "named assumption")
            else:
                discharged.append(f"`{sp.sstr(raw)}`: {why}")  # whole: a cut hypothesis is unreadable
                accounted.append((sp.sstr(raw), why))
        if problems:
            return fail("; ".join(problems), undischarged=open_hyps)
        detail = f"the conclusion of `{self.lean}` as Lean elaborates it"
        named = sorted(sp.sstr(s) for s in replace.values() if isinstance(s, sp.Symbol))
        if named:
            detail += (f" ({', '.join(named)} name{'s a' if len(named) == 1 else ''} Lean "
                       f"term{'s' if len(named) > 1 else ''})")
        if discharged:
            detail += "; its hypotheses: " + "; ".join(discharged)
        return StepResult(self, True, "lean", detail, lean=self.lean, hypotheses=accounted)

    # ---- terms

    def _terms(self, d, ctx, scope, statements, exprs, st, subs):
        """``{opaque term: name symbol or value}`` for the ``terms`` entries, and problems.  A name stands for
        one term in every step: the term as bound, and the values bound to the binders that the types of its
        unbound binders mention (`M : Mask T k → Prop` is another `M` for another `T`, under the same name)."""
        replace, problems = {}, []
        before = set().union(*(e.free_symbols for e in exprs))
        registry = ctx.setdefault("names", {})
        for key, target in self.terms.items():
            matched = set()
            for e in exprs:
                matched |= {a for a in e.atoms(_OPAQUE) if _matches(a, key)}
            if not matched:
                problems.append(f"`terms` key `{key}` matches no term of the statement")
                continue
            if len(matched) > 1:
                problems.append(f"`terms` key `{key}` matches several different terms "
                                f"({', '.join(sorted(map(sp.sstr, matched)))}); name each by its whole application")
                continue
            (term,) = matched
            if isinstance(target, Term):
                value, why = _justify(term, target, d, scope, statements, _type_binding(term, st, subs))
                if why:
                    problems.append(why)
                else:
                    replace[term] = value
                continue
            if not isinstance(target, sp.Symbol):
                problems.append(f"`terms` maps `{key}` to the expression `{sp.sstr(target)}`: a term can only be "
                                "named by a symbol of the derivation, or given a value justified by a Lean theorem "
                                "(Term(value, lean=...))")
                continue
            if target not in d.symbols():
                problems.append(f"`terms` names `{key}` by `{target}`, which is not a symbol of the derivation")
                continue
            if target in before:
                problems.append(f"`{target}` cannot name `{key}`: it already occurs in the bound statement")
                continue
            if target in replace.values():
                problems.append(f"`{target}` names two different terms")
                continue
            ident = (sp.srepr(term), _type_binding(term, st, subs))
            known = registry.get(target)
            if known is not None and known[1] != ident:
                problems.append(f"`{target}` already names another term (in `{known[0]}`)")
                continue
            registry[target] = (self.lean, ident)
            replace[term] = target
        return replace, problems


def _type_binding(term, st, subs) -> tuple:
    """``((binder, type), ..., (binder, bound value), ...)``: the type of each of ``term``'s unbound binders (a
    binder `g` of type `{ f // f 3 = 0 }` in one theorem and `{ f // f 3 = 1 }` in another is two things under one
    name), and the values bound to the binders that those types mention, transitively (what fixes them: `T`
    and `k` for `M : (X → Mask T k) → Prop`)."""
    names = {str(s) for s in term.free_symbols} & set(st.binders)
    # a binder applied as a function (`f 0`, read as the function `f`) or mentioned in a piece read as text
    # (`⟪∀ i, i ∈ I → ...⟫`) is no free symbol, and is as much part of the term
    for f in term.atoms(_OPAQUE):
        name = f.func.__name__
        words = re.findall(rf"[{ID_FIRST}][{ID_REST}]*", name) if name.startswith("⟪") else [name.split(".")[0]]
        names |= set(words) & set(st.binders)
    types = tuple(sorted((name, "type", st.binders[name]) for name in names))
    seen, todo = set(), list(names)
    while todo:
        name = todo.pop()
        for word in re.findall(rf"[{ID_FIRST}][{ID_REST}]*", st.binders.get(name, "")):
            if word in st.binders and word not in seen and word != name:
                seen.add(word)
                todo.append(word)
    out = []
    for name in sorted(seen):
        symbol = st.symbols.get(name)
        value = subs.get(symbol) if symbol is not None else None
        out.append((name, sp.srepr(value) if value is not None else None))
    return types + tuple(out)


def _matches(term, key: str) -> bool:
    if "(" in key:  # a whole application, e.g. "length(xs)"
        return sp.sstr(term) == key
    name = term.func.__name__  # field notation (P.prob x) gives the bare field name
    return name == key or name.rsplit(".", 1)[-1] == key.rsplit(".", 1)[-1]


def _binding(st, bind: dict, scope):
    """``{Lean symbol: value}`` for ``bind``, and problems (unknown or
    non-numeric binders, values of the wrong kind)."""
    subs, problems = {}, []
    for name, value in bind.items():
        value = sp.sympify(value)
        if name not in st.binders:
            continue  # nothing to bind (a binder left unbound stays a Lean symbol and matches nothing)
        kind = NUMERIC_TYPES.get((st.binders.get(name) or "").strip())
        if kind is None:
            problems.append(f"its binder `{name}` has type `{st.binders[name]}`, not a number; it cannot be bound")
            continue
        why = _kind_problem(value, kind, scope)
        if why:
            problems.append(f"the value `{sp.sstr(value)}` bound to `{name} : {kind}` {why}")
            continue
        if name in st.symbols:
            subs[st.symbols[name]] = value
    return subs, problems


def _kind_problem(value, kind: str, scope) -> str | None:
    v = scope.plain(value)
    if kind in ("Nat", "Int") and v.is_integer is not True:
        return "is not provably an integer"
    if kind == "Rat" and v.is_rational is not True:
        return "is not provably rational"
    if kind == "Nat" and not scope.prove_nonnegative(value).ok:
        return "is not provably >= 0"
    return None


def _grants(st, hypotheses: dict):
    """``{index of a hypothesis: assumption name}`` for the keys that are whole
    hypotheses of ``st``, and problems for the keys that are not."""
    grants, problems = {}, []
    shown = ", ".join(f"`{sp.sstr(h)}`" for h in st.hypotheses) or "none"
    for key, name in hypotheses.items():
        hits = [i for i, h in enumerate(st.hypotheses) if _is_hypothesis(key, h, st)]
        if not hits:
            problems.append(f"`{key}` is not a whole hypothesis of the theorem (its hypotheses: {shown})")
        for i in hits:
            grants[i] = str(name)
    return grants, problems


def _is_hypothesis(key: str, hyp, st) -> bool:
    if key == sp.sstr(hyp):
        return True
    name = hyp.name if isinstance(hyp, sp.Symbol) else hyp.func.__name__ if isinstance(hyp, _OPAQUE) else None
    if name is not None and name in (key, f"⟪{key}⟫"):  # a piece read as is (`Nonempty (T)` for a binder of type
        return True  # T), named with or without its brackets; its arguments are the theorem's own binders
    try:
        parsed = parse_statement(f"({key})", types=st.binders)
    except (LeanParseError, ValueError, TypeError, SyntaxError):
        return False
    if parsed.hypotheses:
        return False
    mine = {n: s for n, s in parsed.symbols.items()}
    theirs = st.symbols
    # the key's binders are the theorem's: identify symbols by name
    parsed_hyp = parsed.conclusion.xreplace({s: theirs[n] for n, s in mine.items() if n in theirs})
    return parsed_hyp == hyp


def _implied(h, d, scope) -> str | None:
    """Why the (bound) hypothesis ``h`` holds on the domain, or ``None``."""
    if h is sp.true:
        return "true for the derivation's symbols"
    if not isinstance(h, (sp.LessThan, sp.StrictLessThan, sp.GreaterThan, sp.StrictGreaterThan, sp.Equality)):
        return None
    if h.free_symbols - set(d.symbols()):
        return None
    if isinstance(h, sp.Equality):
        return "implied by the domain" if scope.prove_zero(h.lhs - h.rhs).ok else None
    small, big = (h.lhs, h.rhs) if isinstance(h, (sp.LessThan, sp.StrictLessThan)) else (h.rhs, h.lhs)
    strict = isinstance(h, (sp.StrictLessThan, sp.StrictGreaterThan))
    p = (scope.prove_positive if strict else scope.prove_nonnegative)(big - small)
    return "implied by the domain" if p.ok else None


def _justify(term, target: Term, d, scope, statements, binding=()):
    """``(value, None)`` if the theorem ``target.lean`` proves ``term = value``
    on the domain, else ``(None, why)``.  ``binding``: what fixes the types of
    the term's unbound binders where it occurs (:func:`_type_binding`), which
    the theorem's binding must give them too."""
    head = f"`terms` value for `{sp.sstr(term)}` (by `{target.lean}`)"
    if target.lean not in statements:
        return None, f"{head}: `{target.lean}` is not a theorem of MoeTheory/"
    try:
        st = parse_statement(statements[target.lean])
    except LeanParseError as exc:
        return None, f"{head}: cannot parse its statement: {exc}"
    subs, problems = _binding(st, target.bind, scope)
    if problems:
        return None, f"{head}: " + "; ".join(problems)
    for h in st.hypotheses:
        hb = h.subs(subs, simultaneous=True)
        if _implied(hb, d, scope) is None:
            return None, f"{head}: its hypothesis `{sp.sstr(hb)}` is not implied by the domain"
    eq = st.conclusion.subs(subs, simultaneous=True)
    value = sp.sympify(target.value)
    if isinstance(eq, sp.Equality):
        for a, b in ((eq.lhs, eq.rhs), (eq.rhs, eq.lhs)):
            if a == term and _type_binding(a, st, subs) != binding:
                return None, (f"{head}: the binders in `{sp.sstr(term)}` have other types there, or their types "
                              "depend on values bound otherwise there than here")
            if a == term and scope.prove_zero(b - value).ok:
                return value, None
    return None, f"{head}: its conclusion `{sp.sstr(eq)}` is not `{sp.sstr(term)} = {sp.sstr(value)}`"

