"""Derivations: named symbols, premises from Lean, verified steps, a conclusion.

A :class:`Derivation` is a list of steps.  Each step states one relation and
says why it holds; :meth:`Derivation.verify` checks every reason:

* :class:`Premise` -- the relation *is* a Lean theorem's statement: the
  elaborated statement (from ``build/lean/statements.json``) is parsed
  (:mod:`pysym.lean.parse`), its variables bound to the derivation's symbols,
  and its conclusion compared with the step's relation up to SymPy
  equivalence.  Its hypotheses must hold on the derivation's domain or be
  named assumptions of the derivation.
* :class:`Identity` -- SymPy simplifies ``lhs - rhs`` to 0.
* :class:`Bound` with ``by=`` one of

  - :class:`Sign`: SymPy proves ``rhs - lhs >= 0`` from the symbols'
    assumptions (:func:`pysym.derive.prove.prove_nonnegative`);
  - :class:`Combine`: the bound is a nonnegative combination of earlier
    bounds plus a provably nonnegative remainder (transitivity, scaling and
    adding inequalities are all instances);
  - :class:`Monotone`: an increasing function (derivative proved ``>= 0``)
    applied to both sides of an earlier bound;
  - :class:`Assumed`: rests on a named assumption, stated in the document.

* :class:`Stationary` -- a point where the first derivative vanishes
  (proved by SymPy) with its second-order condition.
* :class:`Computed` -- a value obtained numerically (root finding with
  mpmath); labelled as numeric, never as proved.

Every step is also spot-checked with mpmath at 50 digits on many points of the
domain (:mod:`pysym.derive.numeric`); a failing point fails the derivation
and is reported as a counterexample.

A minimal derivation, run end to end:

>>> import sympy as sp
>>> x = Var("x", 1, 100, "a positive real")
>>> d = Derivation("demo", "Logarithm of a square", vars=[x], steps=[
...     Identity("sq", sp.log(x.symbol**2), 2 * sp.log(x.symbol), "log of a power"),
...     Bound("pos", 0, 2 * sp.log(x.symbol), by=Sign(), text="x >= 1"),
... ], conclusion="pos")
>>> report = d.verify()
>>> report.ok, [s.method for s in report.steps]
(True, ['sympy', 'sympy'])
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable

import mpmath
import sympy as sp

from pysym.derive import numeric, prove
from pysym.lean.parse import LeanParseError, parse_statement

__all__ = [
    "Var",
    "Assumption",
    "Step",
    "Premise",
    "Identity",
    "Bound",
    "Sign",
    "Combine",
    "Monotone",
    "Assumed",
    "Numeric",
    "Stationary",
    "Computed",
    "Evaluate",
    "Limit",
    "Remark",
    "StepResult",
    "Report",
    "Derivation",
    "DerivationError",
]


class DerivationError(Exception):
    """A derivation that does not verify; the message names it and the step."""


@dataclass(frozen=True)
class Var:
    """A symbol with its assumptions and the range its spot-checks sample.

    ``low``/``high`` may be expressions in symbols declared earlier.
    """

    name: str
    low: object
    high: object
    description: str = ""
    integer: bool = False
    latex: str | None = None

    @property
    def symbol(self) -> sp.Symbol:
        low = self.low if not isinstance(self.low, str) else sp.Symbol(self.low.split()[0], positive=True)
        low = sp.sympify(low)
        positive = bool(low.is_number and low > 0) or bool(low.is_positive)
        nonneg = bool(low.is_number and low >= 0) or bool(low.is_nonnegative)
        kw = {"integer": True} if self.integer else {"real": True}
        if positive:
            kw["positive"] = True
        elif nonneg:
            kw["nonnegative"] = True
        return sp.Symbol(self.name, **kw)


@dataclass(frozen=True)
class Assumption:
    name: str
    text: str


# --------------------------------------------------------------------------- results


@dataclass
class StepResult:
    step: "Step"
    ok: bool
    method: str  # sympy | lean | assumption | numeric
    detail: str
    numeric: numeric.NumericCheck | None = None
    lean: str | None = None
    assumption: str | None = None
    undischarged: list = field(default_factory=list)  # Lean hypotheses neither implied nor assumed

    def describe(self) -> str:
        return self.detail


@dataclass
class Report:
    derivation: "Derivation"
    steps: list[StepResult]

    @property
    def ok(self) -> bool:
        return all(s.ok for s in self.steps)

    def failures(self) -> list[StepResult]:
        return [s for s in self.steps if not s.ok]

    def result(self, step_id: str) -> StepResult:
        return next(s for s in self.steps if s.step.id == step_id)


# --------------------------------------------------------------------------- steps


@dataclass
class Step:
    id: str
    text: str = ""
    where = None  # {var name: (low, high)}: a sub-range on which this step is claimed

    def on(self, **ranges) -> "Step":
        """Restrict the step to sub-ranges of some variables (for its proof and
        its spot-check), e.g. ``step.on(ell=(1, 60))``."""
        self.where = dict(ranges)
        return self

    @property
    def claim(self):
        raise NotImplementedError

    def check(self, d: "Derivation", ctx: dict) -> StepResult:
        raise NotImplementedError

    @property
    def numeric_claim(self):
        """The relation spot-checked numerically (``None``: nothing to evaluate)."""
        return self.claim


@dataclass
class Remark(Step):
    """Prose between steps (claims nothing, verifies nothing)."""

    @property
    def claim(self):
        return None

    @property
    def numeric_claim(self):
        return None

    def check(self, d, ctx):
        return StepResult(self, True, "remark", "")


@dataclass
class Premise(Step):
    """A relation taken from a Lean theorem, checked against its statement."""

    lean: str = ""
    relation: object = None
    bind: dict = field(default_factory=dict)  # Lean binder name -> SymPy expression
    terms: dict = field(default_factory=dict)  # Lean head (function) name -> SymPy expression
    hypotheses: dict = field(default_factory=dict)  # Lean head / text fragment -> assumption name

    def __init__(self, id, lean, relation, *, bind=None, terms=None, hypotheses=None, text=""):
        super().__init__(id, text)
        self.lean, self.relation = lean, sp.sympify(relation)
        self.bind, self.terms, self.hypotheses = dict(bind or {}), dict(terms or {}), dict(hypotheses or {})

    @property
    def claim(self):
        return self.relation

    def check(self, d, ctx):
        statements = ctx.get("statements")
        if statements is None:
            return StepResult(self, False, "lean", "no Lean statements available (run `moe-theory lean check`)",
                              lean=self.lean)
        if self.lean not in statements:
            return StepResult(self, False, "lean", f"`{self.lean}` is not a theorem of MoeTheory/ "
                              "(missing from build/lean/statements.json)", lean=self.lean)
        text = statements[self.lean]
        try:
            st = parse_statement(text)
        except LeanParseError as exc:
            return StepResult(self, False, "lean", f"cannot parse the statement of `{self.lean}`: {exc}",
                              lean=self.lean)
        subs = {}
        for name, sym in st.symbols.items():
            if name in self.bind:
                subs[sym] = sp.sympify(self.bind[name])
        conclusion = self._rewrite(st.conclusion, subs)
        problems = []
        if not _same_relation(conclusion, self.relation, d.order()):
            problems.append(f"its conclusion `{sp.sstr(conclusion)}` does not match the premise "
                            f"`{sp.sstr(self.relation)}`")
        discharged, open_hyps = [], []
        for hyp in st.hypotheses:
            h = self._rewrite(hyp, subs)
            why = self._hypothesis_ok(h, d)
            if why is None:
                open_hyps.append(sp.sstr(h))
                problems.append(f"its hypothesis `{sp.sstr(h)}` is neither implied by the domain nor a named "
                                "assumption of the derivation")
            else:
                discharged.append(f"`{_short_text(hyp)}`: {why}")
        if problems:
            return StepResult(self, False, "lean", f"Lean theorem `{self.lean}`: " + "; ".join(problems),
                              lean=self.lean, undischarged=open_hyps)
        detail = f"the conclusion of `{self.lean}` as Lean elaborates it"
        if discharged:
            detail += "; its hypotheses: " + "; ".join(discharged)
        return StepResult(self, True, "lean", detail, lean=self.lean)

    def _rewrite(self, expr, subs):
        expr = expr.subs(subs, simultaneous=True) if subs else expr
        for head, value in self.terms.items():
            if "(" in head:  # a whole application, e.g. "length(xs)"
                expr = expr.replace(lambda e, h=head: isinstance(e, sp.core.function.AppliedUndef)
                                    and sp.sstr(e) == h, lambda e, v=value: sp.sympify(v))
                continue
            short = head.rsplit(".", 1)[-1]
            expr = expr.replace(lambda e: isinstance(e, sp.core.function.AppliedUndef)
                                and e.func.__name__ in (head, short),
                                lambda e: sp.sympify(value))
        return expr

    def _hypothesis_ok(self, h, d) -> str | None:
        if h is sp.true:
            return "true for the derivation's symbols"
        text = sp.sstr(h)
        for key, assumption in self.hypotheses.items():
            if key in text:
                if assumption not in d.assumption_names():
                    return None
                # a short name (A1) refers to the derivation's list; a sentence says why it is granted
                return f"assumption {assumption}" if re.fullmatch(r"\w{1,6}", assumption) else f"granted: {assumption}"
        if isinstance(h, sp.core.relational.Relational) and not h.free_symbols - set(d.symbols()):
            lhs, rhs = (h.lhs, h.rhs) if h.rel_op in ("<=", "<") else (h.rhs, h.lhs)
            if h.rel_op in ("<=", ">=") and prove.prove_nonnegative(rhs - lhs, d.order()).ok:
                return "implied by the domain"
            if h.rel_op in ("<", ">") and prove.prove_positive(rhs - lhs, d.order()).ok:
                return "implied by the domain"
        return None


def _evaluated(claim):
    """The claim with derivatives, substitutions and limits carried out on each
    side (``Eq(...).doit()`` would collapse a true identity to ``True``)."""
    if isinstance(claim, sp.core.relational.Relational):
        return claim.func(claim.lhs.doit(), claim.rhs.doit(), evaluate=False)
    return claim.doit()


def _short_text(expr, limit: int = 70) -> str:
    text = sp.sstr(expr)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _same_relation(a, b, order=None) -> bool:
    a, b = _normalize(a), _normalize(b)
    if a is None or b is None or type(a) is not type(b):
        return False
    return prove.prove_zero(a.lhs - b.lhs, order).ok and prove.prove_zero(a.rhs - b.rhs, order).ok


def _normalize(rel):
    if isinstance(rel, sp.GreaterThan):
        return sp.LessThan(rel.rhs, rel.lhs, evaluate=False)
    if isinstance(rel, sp.StrictGreaterThan):
        return sp.StrictLessThan(rel.rhs, rel.lhs, evaluate=False)
    if isinstance(rel, sp.core.relational.Relational):
        return rel
    return None


@dataclass
class Identity(Step):
    lhs: object = None
    rhs: object = None

    def __init__(self, id, lhs, rhs, text=""):
        super().__init__(id, text)
        self.lhs, self.rhs = sp.sympify(lhs), sp.sympify(rhs)

    @property
    def claim(self):
        return sp.Eq(self.lhs, self.rhs, evaluate=False)

    def check(self, d, ctx):
        p = prove.prove_zero(self.lhs - self.rhs, d.order(self.where))
        return StepResult(self, p.ok, "sympy", p.how)


# proofs of bounds ----------------------------------------------------------------


@dataclass(frozen=True)
class Sign:
    """``rhs - lhs >= 0`` is proved by SymPy from the assumptions."""


@dataclass(frozen=True)
class Combine:
    """``rhs - lhs = sum c_i (rhs_i - lhs_i) + r`` with ``c_i >= 0``, ``r >= 0``."""

    weights: dict  # step id -> coefficient


@dataclass(frozen=True)
class Monotone:
    """``f(lhs_i) <= f(rhs_i)`` for an increasing ``f`` (a SymPy Lambda)."""

    f: sp.Lambda
    of: str


@dataclass(frozen=True)
class Assumed:
    assumption: str


@dataclass(frozen=True)
class Numeric:
    """Verified only by the numeric spot-check (labelled as such, never as proved)."""

    why: str = ""


@dataclass
class Bound(Step):
    """``lhs <= rhs`` (or ``<`` with ``strict=True``)."""

    lhs: object = None
    rhs: object = None
    by: object = None
    strict: bool = False

    def __init__(self, id, lhs, rhs, *, by, strict=False, text=""):
        super().__init__(id, text)
        self.lhs, self.rhs, self.by, self.strict = sp.sympify(lhs), sp.sympify(rhs), by, strict

    @property
    def claim(self):
        return (sp.StrictLessThan if self.strict else sp.LessThan)(self.lhs, self.rhs, evaluate=False)

    def check(self, d, ctx):
        by, order = self.by, d.order(self.where)
        gap = self.rhs - self.lhs
        if isinstance(by, Sign):
            p = (prove.prove_positive if self.strict else prove.prove_nonnegative)(gap, order)
            return StepResult(self, p.ok, "sympy", p.how)
        if isinstance(by, Numeric):
            return StepResult(self, True, "numeric",
                              "checked numerically only (not proved)" + (f": {by.why}" if by.why else ""))
        if isinstance(by, Assumed):
            if by.assumption not in d.assumption_names():
                return StepResult(self, False, "assumption", f"unknown assumption `{by.assumption}`")
            return StepResult(self, True, "assumption", f"rests on assumption {by.assumption}",
                              assumption=by.assumption)
        if isinstance(by, Combine):
            rest = gap
            for sid, c in by.weights.items():
                prev = ctx["steps"].get(sid)
                if prev is None or not isinstance(prev.step, (Bound, Premise)):
                    return StepResult(self, False, "sympy", f"`{sid}` is not an earlier bound")
                if not prev.ok:
                    return StepResult(self, False, "sympy", f"depends on `{sid}`, which failed")
                rel = _normalize(prev.step.claim)
                c = sp.sympify(c)
                if not prove.prove_nonnegative(c, order).ok:
                    return StepResult(self, False, "sympy", f"weight {c} of `{sid}` is not provably >= 0")
                rest -= c * (rel.rhs - rel.lhs)
            p = prove.prove_zero(rest, order)
            if not p.ok:
                p = prove.prove_nonnegative(rest, order)
            names = ", ".join(f"{c}×({sid})" for sid, c in by.weights.items())
            return StepResult(self, p.ok, "sympy",
                              f"nonnegative combination of {names}; the remainder is provably >= 0" if p.ok
                              else f"the remainder after {names} is not provably >= 0")
        if isinstance(by, Monotone):
            prev = ctx["steps"].get(by.of)
            if prev is None or not prev.ok:
                return StepResult(self, False, "sympy", f"depends on `{by.of}`, which is missing or failed")
            rel = _normalize(prev.step.claim)
            (x,) = by.f.variables
            deriv = sp.diff(by.f.expr, x)
            inc = prove.prove_nonnegative(deriv, order)
            same = (prove.prove_zero(self.lhs - by.f(rel.lhs), order).ok
                    and prove.prove_zero(self.rhs - by.f(rel.rhs), order).ok)
            ok = inc.ok and same
            what = (f"apply the increasing map {sp.sstr(by.f.expr)} (its derivative {sp.sstr(deriv)} is >= 0) "
                    f"to `{by.of}`")
            if not inc.ok:
                what = f"cannot prove that {sp.sstr(by.f.expr)} is increasing"
            elif not same:
                what = f"the two sides are not the map applied to the sides of `{by.of}`"
            return StepResult(self, ok, "sympy", what)
        return StepResult(self, False, "sympy", f"unknown justification {by!r}")


@dataclass
class Stationary(Step):
    """``point`` is a stationary point of ``expr`` in ``var``; with ``kind``
    'min' or 'max' the second derivative's sign is proved (or, failing a
    proof, spot-checked and labelled numeric)."""

    expr: object = None
    var: object = None
    point: object = None
    kind: str = "min"
    second_form: object = None

    def __init__(self, id, expr, var, point, *, kind="min", second=None, text=""):
        super().__init__(id, text)
        self.expr, self.var, self.point, self.kind = sp.sympify(expr), var, sp.sympify(point), kind
        self.second_form = None if second is None else sp.sympify(second)

    @property
    def claim(self):
        return sp.Eq(sp.Subs(sp.Derivative(self.expr, self.var), self.var, self.point), 0, evaluate=False)

    def second(self):
        return sp.diff(self.expr, self.var, 2).subs(self.var, self.point)

    def check(self, d, ctx):
        first = prove.prove_zero(sp.diff(self.expr, self.var).subs(self.var, self.point), d.order(self.where))
        if not first.ok:
            return StepResult(self, False, "sympy", "the first derivative does not vanish at the point")
        sec = self.second()
        order = d.order(self.where)
        via = ""
        if self.second_form is not None:  # a simpler equivalent form, itself proved equal
            if prove.prove_equal(sec, self.second_form, order).ok:
                sec, via = self.second_form, f" (it equals {sp.sstr(self.second_form)})"
        p = prove.prove_positive(sec if self.kind == "min" else -sec, order)
        if p.ok:
            return StepResult(self, True, "sympy", f"first derivative vanishes; second derivative "
                              f"{'>' if self.kind == 'min' else '<'} 0 (proved){via}")
        rel = sp.StrictGreaterThan(sec, 0) if self.kind == "min" else sp.StrictLessThan(sec, 0)
        num = numeric.check(rel, d.domain(self.where))
        return StepResult(self, num.ok, "numeric",
                          "first derivative vanishes (proved); second-order condition checked numerically: "
                          + num.describe())


@dataclass
class Computed(Step):
    """A value computed numerically: ``symbol = value`` where ``equation``
    (an expression in ``symbol``) vanishes; found with mpmath.findroot from
    ``guess`` and confirmed by the residual."""

    symbol: object = None
    equation: object = None
    guess: object = None
    value: object = None

    def __init__(self, id, symbol, equation, guess, text=""):
        super().__init__(id, text)
        self.symbol, self.equation, self.guess = symbol, sp.sympify(equation), guess
        self.value = None

    @property
    def claim(self):
        return sp.Eq(self.symbol, self.value if self.value is not None else sp.nan, evaluate=False)

    @property
    def numeric_claim(self):
        return None

    def check(self, d, ctx):
        f = sp.lambdify(self.symbol, self.equation, modules="mpmath")
        with mpmath.workdps(numeric.DIGITS):
            try:
                root = mpmath.findroot(f, self.guess)
            except (ValueError, ZeroDivisionError) as exc:
                return StepResult(self, False, "numeric", f"root finding failed: {exc}")
            resid = abs(f(root))
            self.value = sp.Float(mpmath.nstr(root, 40), 40)
        ok = resid < mpmath.mpf(10) ** (-numeric.DIGITS + 10)
        ctx.setdefault("values", {})[self.id] = self.value
        return StepResult(self, ok, "numeric",
                          f"root found with mpmath at {numeric.DIGITS} digits "
                          f"(residual {mpmath.nstr(resid, 3)})")


@dataclass
class Limit(Step):
    """``lim_{var -> point} expr = value``, computed by SymPy."""

    expr: object = None
    var: object = None
    point: object = None
    value: object = None

    def __init__(self, id, expr, var, point, value, text=""):
        super().__init__(id, text)
        self.expr, self.var, self.point, self.value = sp.sympify(expr), var, sp.sympify(point), sp.sympify(value)

    @property
    def claim(self):
        return sp.Eq(sp.Limit(self.expr, self.var, self.point), self.value, evaluate=False)

    @property
    def numeric_claim(self):
        return None

    def check(self, d, ctx):
        try:
            got = sp.limit(self.expr, self.var, self.point)
        except (NotImplementedError, ValueError) as exc:
            return StepResult(self, False, "sympy", f"SymPy could not take the limit: {exc}")
        ok = prove.prove_zero(got - self.value).ok if got.is_finite is not False else got == self.value
        return StepResult(self, ok, "sympy", f"SymPy computes the limit: {sp.sstr(got)}")


@dataclass
class Evaluate(Step):
    """A closed-form value evaluated at 50 digits (e.g. an optimum at the
    paper's fitted constants); ``expected`` (optional) is the value the paper
    reports, compared within ``tol`` (relative)."""

    name: str = ""
    expr: object = None
    expected: object = None
    tol: float = 0.0

    def __init__(self, id, name, expr, *, expected=None, tol=0.0, text=""):
        super().__init__(id, text)
        self.name, self.expr, self.expected, self.tol = name, sp.sympify(expr), expected, tol
        self.value = None

    @property
    def claim(self):
        return sp.Eq(sp.Symbol(self.name), self.value if self.value is not None else self.expr, evaluate=False)

    @property
    def numeric_claim(self):
        return None

    def check(self, d, ctx):
        if self.expr.free_symbols:
            return StepResult(self, False, "numeric", f"free symbols {sorted(map(str, self.expr.free_symbols))}")
        with mpmath.workdps(numeric.DIGITS):
            num = sp.N(self.expr, numeric.DIGITS)
            if not num.is_real:
                return StepResult(self, False, "numeric", f"the value {sp.sstr(num)} is not real")
            v = mpmath.mpf(str(num))
        self.value = sp.Float(mpmath.nstr(v, 30), 30)
        ctx.setdefault("values", {})[self.id] = self.value
        detail = f"evaluated at {numeric.DIGITS} digits: {mpmath.nstr(v, 8)}"
        ok = True
        if self.expected is not None:
            rel = abs(v - mpmath.mpf(self.expected)) / abs(mpmath.mpf(self.expected))
            ok = rel <= self.tol
            detail += (f"; the paper reports {self.expected} (relative difference {mpmath.nstr(rel, 2)}, "
                       f"tolerance {self.tol})")
        return StepResult(self, ok, "numeric", detail)


# --------------------------------------------------------------------------- derivation


@dataclass
class Derivation:
    name: str
    title: str
    vars: list[Var] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    conclusion: str = ""  # id of the step that is the result
    source: str = ""
    summary: str = ""
    assumptions: list[Assumption] = field(default_factory=list)
    constraints: list = field(default_factory=list)  # extra relations sample points satisfy
    orders: list = field(default_factory=list)  # extra (a, b) pairs meaning a <= b for the prover
    plots: list[Callable] = field(default_factory=list)
    findings: list[str] = field(default_factory=list)  # plain-language results for the reader

    def symbols(self) -> list[sp.Symbol]:
        return [v.symbol for v in self.vars]

    def sym(self, name: str) -> sp.Symbol:
        return next(v.symbol for v in self.vars if v.name == name)

    def assumption_names(self) -> set[str]:
        return {a.name for a in self.assumptions}

    def premises(self) -> list[str]:
        return [s.lean for s in self.steps if isinstance(s, Premise)]

    def order(self, where: dict | None = None) -> list:
        """Pairs ``(a, b)`` meaning ``a <= b`` that the sign prover may use:
        symbolic upper bounds first (latest variable first), then constant
        lower bounds that the symbol's assumptions do not already imply."""
        pairs = []
        for v in reversed(self.vars):
            low, high = (where or {}).get(v.name, (v.low, v.high))
            hi = self._expr(high)
            if isinstance(hi, sp.Symbol):
                pairs.append((v.symbol, self._as_symbol(hi)))
            elif hi.is_Add and len(hi.free_symbols) == 1:  # high = S + c: v - c <= S
                (s_,) = hi.free_symbols
                c = hi - s_
                if c.is_number and hi == s_ + c:
                    pairs.append((v.symbol - c, s_))
        for name, (lo, hi) in (where or {}).items():
            pairs.append((self._expr(lo), self.sym(name)))
        pairs += list(self.orders)
        for v in self.vars:  # 0 < x <= U (a number): x = U / (1 + s)
            hi = self._expr(v.high)
            if not v.integer and hi.is_number and v.symbol.is_positive:
                pairs.append((v.symbol, hi))
        for v in reversed(self.vars):
            lo = self._expr(v.low)
            if lo.is_number and lo > 0 and not (v.integer and lo <= 1):
                pairs.append((lo, v.symbol))
        return pairs

    def _expr(self, bound):
        """A bound (number, expression, or string naming earlier symbols) as SymPy."""
        if isinstance(bound, str):
            return sp.sympify(bound, locals={v.name: v.symbol for v in self.vars})
        return sp.sympify(bound).subs({sp.Symbol(v.name): v.symbol for v in self.vars})

    def _as_symbol(self, s: sp.Symbol) -> sp.Symbol:
        for v in self.vars:
            if v.name == s.name:
                return v.symbol
        return s

    def domain(self, where: dict | None = None) -> numeric.Domain:
        ranges = []
        for v in self.vars:
            low, high = (where or {}).get(v.name, (v.low, v.high))
            lo, hi = self._expr(low), self._expr(high)
            ranges.append(numeric.Range(v.symbol, lo, hi))
        return numeric.Domain(ranges, list(self.constraints))

    def step(self, step_id: str) -> Step:
        for s in self.steps:
            if s.id == step_id:
                return s
        raise KeyError(f"{self.name}: no step `{step_id}`")

    @property
    def result(self):
        return self.step(self.conclusion).claim

    def verify(self, statements: dict[str, str] | None = None) -> Report:
        """Check every step (symbolically, then numerically) in order."""
        ctx: dict = {"statements": statements, "steps": {}}
        results = []
        for step in self.steps:
            res = step.check(self, ctx)
            claim = step.numeric_claim
            if res.ok and claim is not None and claim not in (sp.true,):
                res.numeric = numeric.check(_evaluated(claim), self.domain(step.where))
                if not res.numeric.ok:
                    res.ok = False
                    res.detail += f"; numeric spot-check FAILED {res.numeric.detail}"
            ctx["steps"][step.id] = res
            results.append(res)
        return Report(self, results)

    def verify_or_raise(self, statements=None) -> Report:
        report = self.verify(statements)
        if not report.ok:
            lines = [f"derivation `{self.name}` does not verify:"]
            lines += [f"  step `{r.step.id}` ({r.method}): {r.detail}" for r in report.failures()]
            raise DerivationError("\n".join(lines))
        return report
