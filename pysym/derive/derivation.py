"""A derivation: symbols, assumptions, restrictions, steps, a conclusion; and
its verification.

:meth:`Derivation.verify` checks, in order:

1. the declarations: distinct symbol names and step ids, bounds that use only
   symbols declared before;
2. the **restrictions** (``orders`` and ``constraints``, see
   :class:`~pysym.derive.steps.Restriction`): each is proved from the ranges or
   rests on a named assumption, and appears in the document as a step;
3. every step, under a CPU-time budget of :data:`STEP_BUDGET` seconds: its
   own check (:mod:`pysym.derive.steps`, :mod:`pysym.derive.bounds`,
   :mod:`pysym.derive.premises`), then a numeric spot-check at 50 digits
   (:mod:`pysym.derive.numeric`) on its scope.  A spot-check that cannot test
   anything is not counted: one that samples a term name or an unbounded
   symbol, or one whose claim a symbol's own bound or a restriction already
   states.  A step verified *only* by its spot-check (``Numeric``) then fails;
4. the **conclusion**: it must name a step that verified, that claims
   something (not a remark), and that holds on the whole domain.

Running out of the budget fails the step with a message naming the budget;
it never turns into another outcome.  Budgets count CPU time, so a loaded
machine gives the same verdicts.

>>> import sympy as sp
>>> from pysym.derive.bounds import Bound, Numeric, Sign
>>> from pysym.derive.domain import Var
>>> from pysym.derive.steps import Identity
>>> x = Var("x", 1, 100, "a positive real")
>>> d = Derivation("demo", "Logarithm of a square", vars=[x], steps=[
...     Identity("sq", sp.log(x.symbol**2), 2 * sp.log(x.symbol), "log of a power"),
...     Bound("pos", 0, 2 * sp.log(x.symbol), by=Sign(), text="x >= 1"),
... ], conclusion="pos")
>>> report = d.verify()
>>> report.ok, [s.method for s in report.steps]
(True, ['sympy', 'sympy'])

A conclusion that names no verified claim fails the derivation:

>>> d.conclusion = "nothing"
>>> report = d.verify()
>>> report.ok, report.failures()[0].detail
(False, 'the conclusion `nothing` is not a step of the derivation')

A numeric check whose answer the ranges already give proves nothing:

>>> g = Var("g", 0, "x**2")
>>> d = Derivation("circ", "circular", vars=[x, g], conclusion="c",
...                steps=[Bound("c", g.symbol, x.symbol**2, by=Numeric())])
>>> print(d.verify().result("c").detail)  # doctest: +NORMALIZE_WHITESPACE
checked numerically only (not proved); the range of g (g <= x**2) already encodes it: the numeric check it
rests on cannot fail
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import sympy as sp

from pysym.derive import numeric
from pysym.derive.bounds import Assumed, Bound, Numeric, inequality
from pysym.derive.budget import OutOfTime, budget, remaining
from pysym.derive.domain import Assumption, Scope, ScopeError, Var, finite, parse_bound
from pysym.derive.premises import Premise
from pysym.derive.steps import Remark, Restriction, Step, StepResult

__all__ = ["Derivation", "Report", "DerivationError", "STEP_BUDGET"]

STEP_BUDGET = 60.0  # CPU seconds per step; the slowest shipped step needs about 2 s


class DerivationError(Exception):
    """A derivation that does not verify; the message names it and the step."""


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


def _evaluated(claim):
    """The claim with derivatives, substitutions and limits carried out on each
    side (``Eq(...).doit()`` would collapse a true identity to ``True``)."""
    if isinstance(claim, sp.core.relational.Relational):
        return claim.func(claim.lhs.doit(), claim.rhs.doit(), evaluate=False)
    return claim.doit()


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
    constraints: list = field(default_factory=list)  # relations every point satisfies (or Restriction)
    orders: list = field(default_factory=list)  # (a, b) pairs meaning a <= b (or Restriction)
    plots: list[Callable] = field(default_factory=list)
    findings: list[str] = field(default_factory=list)  # plain-language results for the reader

    # ---- declarations

    def symbols(self) -> list[sp.Symbol]:
        return [v.symbol for v in self.vars]

    def sym(self, name: str) -> sp.Symbol:
        return next(v.symbol for v in self.vars if v.name == name)

    def assumption_names(self) -> set[str]:
        return {a.name for a in self.assumptions}

    def premises(self) -> list[str]:
        return [s.lean for s in self.steps if isinstance(s, Premise)]

    def names(self) -> set:
        """The symbols that name Lean terms (``terms=`` of a premise)."""
        symbols = set(self.symbols())
        out = set()
        for s in self.steps:
            if isinstance(s, Premise):
                out |= s.names() & symbols
        return out

    def restrictions(self) -> list[Restriction]:
        """``orders`` and ``constraints`` as :class:`Restriction` steps."""
        local = {v.name: v.symbol for v in self.vars}
        out = []
        for i, o in enumerate(self.orders, 1):
            if isinstance(o, Restriction):
                out.append(o)
            else:
                a, b = (parse_bound(e, local) for e in o)
                out.append(Restriction(f"order-{i}", sp.LessThan(a, b, evaluate=False),
                                       text="An ordering of the symbols that proofs may use (declared in `orders`)."))
        for i, c in enumerate(self.constraints, 1):
            if isinstance(c, Restriction):
                out.append(c)
            else:
                out.append(Restriction(f"constraint-{i}", parse_bound(c, local),
                                       text="A relation every point satisfies (declared in `constraints`)."))
        return out

    def declaration_problems(self) -> list[str]:
        problems = []
        names = [v.name for v in self.vars]
        dup = sorted({n for n in names if names.count(n) > 1})
        if dup:
            problems.append(f"symbols declared twice: {', '.join(dup)}")
        try:
            self.scope(check=False)
        except ScopeError as exc:
            problems.append(str(exc))
        else:
            problems += self._unreachable()
        ids = [s.id for s in self.restrictions() + self.steps]
        dup = sorted({i for i in ids if ids.count(i) > 1})
        if dup:
            problems.append(f"step ids used twice: {', '.join(dup)}")
        return problems

    def _unreachable(self) -> list[str]:
        """A range that depends on earlier symbols must be nonempty for every value of them (proved from their
        ranges and the restrictions on them): `k` in [2, T] with `T` in [1/2, oo) would quietly cut `T` to
        [2, oo), and a step would prove `2 <= T`, false at `T = 1` in `T`'s declared range."""
        scope = self.scope(check=False)
        rels = [r.relation for r in self.restrictions()]
        out = []
        for i, (v, s, lo, hi) in enumerate(scope.vars):
            integer = bool(s.is_integer)
            symbolic = sp.sympify(lo).free_symbols | sp.sympify(hi).free_symbols
            if not (finite(lo) and finite(hi)) or not (symbolic or integer):
                continue
            # an integer symbol needs an integer in its range: [1/2, T] holds none for T < 1, though T - 1/2 >= 0
            gap = hi - sp.ceiling(lo) if integer else hi - lo
            before = scope.vars[:i]
            known = {x for _, x, _, _ in before}
            earlier = Scope(before, {}, [r for r in rels if r.free_symbols <= known], scope.names)
            if not (earlier.prove_nonnegative(gap).ok or (not gap.has(sp.ceiling) and _nonnegative_on_box(gap, before))):
                what = "to hold an integer" if integer else "nonempty"
                out.append(f"the range of {v.name}, [{sp.sstr(lo)}, {sp.sstr(hi)}], is not proved {what} for every "
                           "value of the symbols it depends on (their ranges would be cut short without saying so; "
                           "declare them so that the range is never empty)")
        return out

    # ---- scopes

    def scope(self, where: dict | None = None, *, restrictions=None, extra_names=(), check: bool = True) -> Scope:
        """What a step restricted to ``where`` (``{name: (low, high)}``) may
        assume; ``restrictions`` defaults to all of them.  With ``check``, a
        sub-range must lie inside the declared range (else :class:`ScopeError`)."""
        where = dict(where or {})
        unknown = sorted(set(where) - {v.name for v in self.vars})
        if unknown:
            raise ScopeError(f"the sub-range names unknown symbol(s) {', '.join(unknown)}")
        symbols: dict[str, sp.Symbol] = {}
        rows, full, region = [], [], {}
        for v in self.vars:
            s = v.symbol
            lo, hi = parse_bound(v.low, symbols), parse_bound(v.high, symbols)
            _declared_before(v.name, lo, hi, symbols)
            full.append((v, s, lo, hi))
            if v.name in where:
                wlo, whi = (parse_bound(e, symbols) for e in where[v.name])
                _declared_before(v.name, wlo, whi, symbols)
                region[s] = (wlo, whi)
                rows.append((v, s, wlo, whi))
            else:
                rows.append((v, s, lo, hi))
            symbols[v.name] = s
        # a term name is, in every proof, an arbitrary real of the same name
        plain = {s: sp.Symbol(s.name, real=True) for s in self.names() | set(extra_names)}
        rels = [r.relation for r in (self.restrictions() if restrictions is None else restrictions)]
        if check and region:
            base = Scope(full, {}, rels, plain)
            for v, s, lo, hi in full:
                if s not in region:
                    continue
                wlo, whi = region[s]
                ok_lo = not finite(lo) or (finite(wlo) and base.prove_nonnegative(wlo - lo).ok)
                ok_hi = not finite(hi) or (finite(whi) and base.prove_nonnegative(hi - whi).ok)
                if not (ok_lo and ok_hi):
                    raise ScopeError(f"the sub-range of {v.name}, [{sp.sstr(wlo)}, {sp.sstr(whi)}], is not inside "
                                     f"its range [{sp.sstr(lo)}, {sp.sstr(hi)}]")
        return Scope(rows, region, rels, plain)

    def order(self, where: dict | None = None) -> list:
        """Pairs ``(a, b)`` meaning ``a <= b`` that the sign prover may use
        (see :attr:`pysym.derive.domain.Scope.order`)."""
        return self.scope(where, check=False).order

    def domain(self, where: dict | None = None) -> numeric.Domain:
        """Where spot-checks sample (see :meth:`pysym.derive.domain.Scope.domain`)."""
        return self.scope(where, check=False).domain()

    # ---- steps

    def step(self, step_id: str) -> Step:
        for s in self.steps:
            if s.id == step_id:
                return s
        raise KeyError(f"{self.name}: no step `{step_id}`")

    @property
    def result(self):
        return self.step(self.conclusion).claim

    def verify(self, statements: dict[str, str] | None = None) -> Report:
        """Check the declarations, the restrictions, every step (symbolically,
        then numerically) in order, and the conclusion, under the default
        numeric settings (:func:`pysym.numerics.standard`)."""
        from pysym.numerics import standard

        with standard():
            return self._verify(statements)

    def _verify(self, statements):
        problems = self.declaration_problems()
        if problems:
            text = "; ".join(problems)
            results = [StepResult(Remark("declarations", f"The declarations are invalid: {text}."), False, "sympy",
                                  text)]
            results += [StepResult(s, False, "sympy", "not checked: the derivation's declarations are invalid")
                        for s in self.steps]
            return Report(self, results)
        ctx: dict = {"statements": statements, "steps": {}, "names": {}}
        results = []
        restrictions = self.restrictions()
        for i, r in enumerate(restrictions):
            ctx["restrictions_before"] = restrictions[:i]
            results.append(self._run(r, ctx, restrictions[:i]))
        ctx.pop("restrictions_before", None)
        empty = self._empty()
        if empty:
            results.append(StepResult(Remark("domain", f"The domain is empty: {empty}."), False, "sympy", empty))
        for step in self.steps:
            results.append(self._run(step, ctx, None))
        why = self._conclusion_problem(ctx)
        if why:
            results.append(StepResult(Remark("conclusion", f"The conclusion does not hold: {why}."), False, "sympy",
                                      why))
        return Report(self, results)

    def verify_or_raise(self, statements=None) -> Report:
        report = self.verify(statements)
        if not report.ok:
            lines = [f"derivation `{self.name}` does not verify:"]
            lines += [f"  step `{r.step.id}` ({r.method}): {r.detail}" for r in report.failures()]
            raise DerivationError("\n".join(lines))
        return report

    def _run(self, step: Step, ctx: dict, restrictions) -> StepResult:
        try:
            with budget(STEP_BUDGET):
                res = self._check(step, ctx, restrictions)
                left = remaining()
                if left is not None and left <= 0:
                    raise OutOfTime(STEP_BUDGET)
        except OutOfTime as exc:
            res = StepResult(step, False, "budget", f"the step {exc}, so it is not verified (budgets count CPU "
                             "time: the outcome does not depend on the machine's load)")
        except ScopeError as exc:
            res = StepResult(step, False, "sympy", str(exc))
        ctx["steps"][step.id] = res
        return res

    def _check(self, step: Step, ctx: dict, restrictions) -> StepResult:
        scope = self.scope(step.where, restrictions=restrictions)
        # every symbol a step states must be a symbol of the derivation, with its range (a stray `a` that prints
        # like the declared one, with other assumptions, would be proved about something else): checked first, as
        # the step's own check may fail on it in ways that do not say so
        stray = sorted(map(str, step.stated_symbols - set(scope.symbols())))
        if stray:
            return StepResult(step, False, "sympy", f"the step uses {', '.join(stray)}, which "
                              f"{'is' if len(stray) == 1 else 'are'} not a symbol of the derivation (declare it with "
                              "a range)")
        ctx["used"] = []
        res = step.check(self, ctx)
        numeric_only = [u.step.id for u in ctx.pop("used") if u.method == "numeric"]
        if res.ok and numeric_only and res.method not in ("numeric", "budget"):
            # a step proved from steps that are only checked numerically is itself only checked numerically
            res.method = "numeric"
            res.detail += (f"; it rests on {', '.join(f'`{s}`' for s in numeric_only)}, checked numerically only "
                           "(not proved)")
        if step.where:
            res.region = {v.name: scope.where[s] for v, s, _, _ in scope.vars if s in scope.where}
        evidence = isinstance(step, Bound) and isinstance(step.by, Numeric)
        claim = step.numeric_claim
        if not res.ok:
            return res
        if claim is None or claim is sp.true:
            if evidence:
                res.ok, res.detail = False, res.detail + "; there is nothing to check numerically"
            return res
        evaluated = _evaluated(claim)
        stray = sorted(map(str, (evaluated.free_symbols if isinstance(evaluated, sp.Basic) else set())
                           - set(scope.symbols())))
        if stray:
            res.ok = False
            res.detail += f"; it uses {', '.join(stray)}, which {'is' if len(stray) == 1 else 'are'} not a symbol " \
                          "of the derivation (declare it with a range)"
            return res
        reason = self._unsampled(step, evaluated, scope)
        if reason is None and (isinstance(step, Premise) or (isinstance(step, Bound)
                                                              and isinstance(step.by, (Assumed, Numeric)))):
            reason = _circular(claim, scope)
        if reason:
            res.unchecked = reason
            if evidence:
                res.ok = False
                res.detail += f"; {reason}: the numeric check it rests on cannot fail"
            else:
                res.detail += f"; not spot-checked: {reason}"
            return res
        symbols = evaluated.free_symbols if isinstance(evaluated, sp.Basic) else set()
        res.numeric = numeric.check(evaluated, scope.domain().restricted(symbols), evidence=evidence)
        if not res.numeric.ok:
            res.ok = False
            res.detail += f"; numeric spot-check FAILED {res.numeric.detail}"
        return res

    def _unsampled(self, step, evaluated, scope: Scope) -> str | None:
        """Why ``evaluated`` cannot be sampled meaningfully, or ``None``."""
        symbols = evaluated.free_symbols if isinstance(evaluated, sp.Basic) else set()
        named = sorted(map(str, symbols & set(scope.names)))
        if named:
            one = len(named) == 1
            return (f"{', '.join(named)} name{'s a' if one else ''} Lean term{'' if one else 's'}, of which no "
                    "sample is known")
        unbounded = sorted(map(str, scope.domain().unbounded(symbols & set(scope.symbols()))))
        if unbounded:
            return f"{', '.join(unbounded)} {'has' if len(unbounded) == 1 else 'have'} no finite range to sample"
        return None

    def _empty(self) -> str | None:
        """Why the domain may be empty (then every claim would hold vacuously), or ``None``."""
        dom = self.scope(check=False).domain()
        # an unbounded side is sampled within _WIDE of the other (or of 0): a point found there is a witness that
        # the domain is not empty, and the restrictions are never dropped
        ranges = []
        for r in dom.ranges:
            lo, hi = (r.low if finite(r.low) else None), (r.high if finite(r.high) else None)
            if lo is None and hi is None:
                lo, hi = -_WIDE, _WIDE
            elif lo is None:
                lo = sp.sympify(hi) - 2 * _WIDE
            elif hi is None:
                hi = sp.sympify(lo) + 2 * _WIDE
            ranges.append(numeric.Range(r.symbol, lo, hi))
        sub = numeric.Domain(ranges, dom.constraints)
        try:
            points = sub.sample(8)
        except (TypeError, ValueError, ZeroDivisionError) as exc:
            return f"its ranges could not be sampled to find a point of the domain ({type(exc).__name__}: {exc})"
        if sub.ranges and not points:
            return "no point satisfies the ranges and restrictions (sampled)"
        return None

    def _conclusion_problem(self, ctx: dict) -> str | None:
        c = self.conclusion
        if not c:
            return "the derivation names no conclusion"
        step = next((s for s in self.steps if s.id == c), None)
        if step is None:
            return f"the conclusion `{c}` is not a step of the derivation"
        if isinstance(step, Remark) or step.claim is None:
            return f"the conclusion `{c}` is a remark, which claims nothing"
        res = ctx["steps"].get(c)
        if res is None or not res.ok:
            return f"the conclusion `{c}` does not verify"
        if res.region:
            where = ", ".join(f"{n} in [{sp.sstr(lo)}, {sp.sstr(hi)}]" for n, (lo, hi) in res.region.items())
            return (f"the conclusion `{c}` holds only on a sub-range ({where}); the conclusion must hold on the "
                    "whole domain (narrow the symbols' ranges instead)")
        return None


_WIDE = 1000  # how far an unbounded symbol is sampled when looking for a point of the domain


def _declared_before(name, lo, hi, symbols: dict) -> None:
    stray = (sp.sympify(lo).free_symbols | sp.sympify(hi).free_symbols) - set(symbols.values())
    if stray:
        raise ScopeError(f"the range of {name} uses {', '.join(sorted(map(str, stray)))}, which is not a symbol "
                         "declared before it")


def _circular(claim, scope: Scope) -> str | None:
    """Why sampling cannot refute ``claim`` because the domain encodes it (a
    symbol's own bound on that side, or a restriction that differs from it by a
    nonnegative constant), or ``None``.  (A claim that merely follows from the
    ranges is true on the domain; this looks for the domain *stating* it.)"""
    ineq = inequality(claim) if not isinstance(claim, sp.Equality) else None
    if ineq is None:
        return None
    small, big, strict = ineq
    holds = scope.prove_positive if strict else scope.prove_nonnegative
    for v, s, lo, hi in scope.vars:
        if small == s and finite(hi) and holds(big - hi).ok:
            return f"the range of {s} ({s} <= {sp.sstr(hi)}) already encodes it"
        if big == s and finite(lo) and holds(lo - small).ok:
            return f"the range of {s} ({sp.sstr(lo)} <= {s}) already encodes it"
    for rel in scope.relations:
        r = inequality(rel)
        if r is None:
            continue
        gap = sp.expand((big - small) - (r[1] - r[0]))
        if gap.is_number and (gap > 0 if strict and not r[2] else gap >= 0):
            return f"the restriction {sp.sstr(rel)} already encodes it"
    return None


def _nonnegative_on_box(expr, rows) -> bool:
    """Whether ``expr >= 0`` on the box of the numeric ranges ``rows`` (``[(Var, symbol, low, high)]``), proved by
    outward-rounded interval branch and bound (:func:`pysym.audit.boxes.decide`); False when a symbol of ``expr``
    has no finite numeric range there, or the boxes cannot decide."""
    from pysym.audit.boxes import Var as BoxVar, decide, fraction
    from pysym.audit.interval import IntervalError

    ranges = {s: (v, lo, hi) for v, s, lo, hi in rows}
    box = []
    for x in sorted(sp.sympify(expr).free_symbols, key=str):
        if x not in ranges:
            return False
        v, lo, hi = ranges[x]
        if not (finite(lo) and finite(hi) and sp.sympify(lo).is_number and sp.sympify(hi).is_number):
            return False
        box.append(BoxVar(x, fraction(lo), fraction(hi), bool(v.integer)))
    try:
        return decide([(expr, ">=")], box, budget=2000).status == "all"
    except (IntervalError, ZeroDivisionError, ValueError, TypeError):
        return False
