"""Branch and bound over boxes: deciding a claim for every admissible value.

A *box* gives each variable (a printed constant, or a symbol over its range) an
interval.  Interval arithmetic (:mod:`pysym.audit.interval`) bounds an
expression over a box, but loosely when a variable occurs several times.  Two
classic refinements make the bounds tight:

* **monotonicity**: where the derivative in a variable has one sign over the
  whole box (bounded by interval arithmetic too), the minimum lies at one end
  of that variable and the maximum at the other, so the bound is evaluated
  with the variable fixed there;
* **subdivision**: otherwise the box is bisected (geometrically for a
  positive variable spanning decades) along the variable that contributes
  most to the width, and the halves are bounded again.

:func:`decide` classifies the points of a box against constraints ``g >= 0``,
``g > 0`` or ``g == 0``: every point satisfies them (``all``), none does
(``none``), some do and some do not (``mixed``, with a witness box of each
kind), or the budget ran out first (``unknown``).  Only bounds that interval
arithmetic proves are used, so ``all`` and ``none`` are proofs.
:func:`enclose` gives the range of an expression over a box: an outer
enclosure (proved) and the values reached at witness points.  Whether some
point satisfies constraints, or two constraints hold at the same points, is
:mod:`pysym.audit.existence`.

>>> import sympy as sp
>>> a, b = sp.symbols("a b", positive=True)
>>> box = [Var(a, Fraction(335, 1000), Fraction(345, 1000)), Var(b, Fraction(275, 1000), Fraction(285, 1000))]
>>> r = enclose(b / (a + b), box)
>>> [f"{float(x):.6f}" for x in (r.low, r.high)]   # exact ends: the function is monotone in a and b
['0.443548', '0.459677']
>>> decide([(b / (a + b) - sp.Rational(455, 1000), ">=")], box).status
'mixed'
>>> decide([(sp.Rational(1, 2) - b / (a + b), ">")], box).status
'all'
"""

from __future__ import annotations

import heapq
import math
from collections import deque
from dataclasses import dataclass, field
from fractions import Fraction

import sympy as sp

from pysym.audit.interval import Iv, IntervalError, compile_expr, to_fraction

__all__ = ["Var", "Decision", "Enclosure", "decide", "enclose", "value_at", "fraction", "BUDGET"]

BUDGET = 3000  # boxes per decision


def fraction(x) -> Fraction:
    """A SymPy number, int, float or Fraction as an exact Fraction."""
    if isinstance(x, Fraction):
        return x
    if isinstance(x, (int, float)):
        return Fraction(x)
    r = sp.Rational(x)
    return Fraction(int(r.p), int(r.q))


@dataclass(frozen=True)
class Var:
    """A variable of a box: its symbol and its range (exact ends)."""

    symbol: sp.Symbol
    lo: Fraction
    hi: Fraction
    integer: bool = False

    def __post_init__(self):
        # an integer variable ranges over the integers of [lo, hi]: its ends are those integers, so that no
        # split, centre or witness of a box is ever a non-integer point or outside the range
        if self.integer:
            lo, hi = math.ceil(fraction(self.lo)), math.floor(fraction(self.hi))
            if lo > hi:
                raise ValueError(f"no integer lies in the range [{self.lo}, {self.hi}] of {self.symbol}")
            object.__setattr__(self, "lo", Fraction(lo))
            object.__setattr__(self, "hi", Fraction(hi))

    @property
    def geometric(self) -> bool:
        return self.lo > 0 and self.hi > 100 * self.lo


Box = tuple  # one (lo, hi) pair of Fractions per variable


def _ivs(box: Box) -> list:
    return [Iv.of(lo, hi) for lo, hi in box]


def _split_point(var: Var, lo: Fraction, hi: Fraction) -> Fraction:
    if var.integer:
        return Fraction(math.floor((lo + hi) / 2))
    if lo > 0 and hi > 100 * lo:
        g = Fraction(math.sqrt(float(lo)) * math.sqrt(float(hi)))
        if lo < g < hi:
            return g
    return (lo + hi) / 2


def _split(variables, box: Box, i: int):
    lo, hi = box[i]
    m = _split_point(variables[i], lo, hi)
    left = box[:i] + ((lo, m),) + box[i + 1:]
    right = box[:i] + ((m + 1 if variables[i].integer else m, hi),) + box[i + 1:]
    return left, right


def _admissible(variables, point: Box, box: Box) -> bool:
    """Whether the point (a box of zero width) lies in ``box`` and is an integer for
    every integer variable: only such a point may serve as a witness."""
    return all(plo == phi and lo <= plo <= hi and (not v.integer or plo.denominator == 1)
               for v, (plo, phi), (lo, hi) in zip(variables, point, box))


def _center(variables, box: Box) -> Box:
    out = []
    for v, (lo, hi) in zip(variables, box):
        c = _split_point(v, lo, hi) if hi > lo else lo
        if v.integer:
            c = Fraction(math.floor(c))
        out.append((c, c))
    return tuple(out)


def _rel_width(var: Var, lo: Fraction, hi: Fraction) -> float:
    if hi <= lo:
        return 0.0
    if var.lo > 0 and var.geometric:
        return math.log(float(hi) / float(lo)) / math.log(float(var.hi) / float(var.lo))
    return float((hi - lo) / (var.hi - var.lo))


def _tidy(expr):
    """A derivative in a form interval arithmetic bounds more tightly: powers of
    the same base merged (``c x**a / x**b`` as ``c x**(a - b)``), common factors
    pulled out, so that terms that cancel are not bounded separately."""
    try:
        return sp.factor_terms(sp.powsimp(expr, force=True))
    except (TypeError, ValueError, RecursionError):
        return expr


# compiled functions and derivatives by (expression, symbols): a claim's checks build the same ones several times
# (each region, each condition), and so do the claims that share a worker; what is compiled depends on nothing
# else (a printed constant is a Dummy, equal only to itself), so a hit is exactly what compiling gives
_COMPILED: dict = {}
_COMPILED_MAX = 512


def _compiled(expr, syms: tuple) -> tuple:
    """``(f, [gradient or None or "constant" per symbol])`` of ``expr``, compiled for boxes."""
    key = (expr, syms)
    hit = _COMPILED.get(key)
    if hit is not None:
        return hit
    f, grads = compile_expr(expr, list(syms)), []
    for x in syms:
        d = None
        if expr.has(x):
            try:
                d = compile_expr(_tidy(sp.diff(expr, x)), list(syms))
            except (IntervalError, TypeError, ValueError):
                d = None
        grads.append(d if expr.has(x) else "constant")
    if len(_COMPILED) >= _COMPILED_MAX:
        _COMPILED.pop(next(iter(_COMPILED)))  # the oldest
    _COMPILED[key] = (f, grads)
    return f, grads


class _Function:
    """An expression compiled for boxes, with its derivatives (for monotonicity)."""

    def __init__(self, expr, variables):
        self.variables = variables
        self.f, grads = _compiled(expr, tuple(v.symbol for v in variables))
        self.grads = list(grads)

    def signs(self, ivs) -> list:
        """+1 / -1 where the function is monotone in a variable over the box, 0 for
        a variable it does not involve, None where the sign is not proved.  Also
        sets ``smear``: for each variable, the largest |derivative| times the
        variable's width (how much it can move the function), None if unknown."""
        out, self.smear = [], []
        for g, iv in zip(self.grads, ivs):
            if g == "constant":
                out.append(0)
                self.smear.append(0.0)
                continue
            if g is None:
                out.append(None)
                self.smear.append(None)
                continue
            try:
                d = g(ivs)
            except (IntervalError, ZeroDivisionError, ValueError):
                out.append(None)
                self.smear.append(None)
                continue
            out.append(1 if d.lo >= 0 else -1 if d.hi <= 0 else None)
            try:
                self.smear.append(max(abs(float(d.lo)), abs(float(d.hi))) * float(iv.hi - iv.lo))
            except (OverflowError, ValueError):
                self.smear.append(None)
        return out

    def bounds(self, box: Box) -> tuple[Iv, Iv, list]:
        """``(lower, upper, signs)``: intervals whose ``lo`` bounds the minimum and
        whose ``hi`` bounds the maximum over the box (monotone variables fixed at
        the right end)."""
        ivs = _ivs(box)
        if any(lo != hi for lo, hi in box):
            signs = self.signs(ivs)
        else:
            signs, self.smear = [0] * len(box), [0.0] * len(box)
        low_box, high_box = list(box), list(box)
        for i, s in enumerate(signs):
            if s == 1:
                low_box[i], high_box[i] = (box[i][0],) * 2, (box[i][1],) * 2
            elif s == -1:
                low_box[i], high_box[i] = (box[i][1],) * 2, (box[i][0],) * 2
        if all(s is not None for s in signs):
            return self.f(_ivs(low_box)), self.f(_ivs(high_box)), signs
        whole = self.f(ivs)
        lower = self.f(_ivs(low_box)) if low_box != list(box) else whole
        upper = self.f(_ivs(high_box)) if high_box != list(box) else whole
        return lower, upper, signs


@dataclass
class Decision:
    """``status``: ``all``, ``none``, ``mixed`` or ``unknown``; a witness box
    (a point when possible) where the constraints all hold and one where one fails."""

    status: str
    satisfied: Box | None = None
    violated: Box | None = None
    boxes: int = 0
    variables: list = field(default_factory=list)
    note: str = ""  # why an existence could not be proved (for the verdict's reason)

    def point(self, which: str) -> dict | None:
        box = self.satisfied if which == "satisfied" else self.violated
        if box is None:
            return None
        return {v.symbol: lo if lo == hi else (lo + hi) / 2 for v, (lo, hi) in zip(self.variables, box)}


def _state(fs, ops, box, variables=None):
    """True (every constraint holds on the box), False (one fails everywhere), or
    None; and the split score of each variable (its share of the spread of the
    undecided constraints, or its relative width where that is unknown)."""
    undecided = False
    score = [0.0] * len(box)
    for f, op in zip(fs, ops):
        try:
            lower, upper, signs = f.bounds(box)
        except (IntervalError, ZeroDivisionError, ValueError):
            undecided = True
            score = [max(s, 1.0) for s in score]
            continue
        lo, hi = lower.lo, upper.hi
        if op == ">=":
            ok, bad = lo >= 0, hi < 0
        elif op == ">":
            ok, bad = lo > 0, hi <= 0
        elif op == "==":
            ok, bad = (lo == 0 and hi == 0), (lo > 0 or hi < 0)
        else:
            raise ValueError(f"unknown constraint `{op}` (use >=, > or ==)")
        if bad:
            return False, score
        if not ok:
            undecided = True
            smear = getattr(f, "smear", [None] * len(box))
            known = [m for m in smear if m is not None]
            top = max(known) if known else 0.0
            for i, m in enumerate(smear):
                if m is None:
                    score[i] = max(score[i], 1.0)
                elif top > 0:
                    score[i] = max(score[i], m / top)
    return (None if undecided else True), score


def decide(constraints, variables: list[Var], *, budget: int = BUDGET, stop_when_mixed: bool = True,
           first: dict | None = None, probes: list | None = None) -> Decision:
    """Classify the box of ``variables`` against ``constraints`` (pairs
    ``(g, op)`` with ``op`` in ``>=``, ``>``, ``==``: each means ``g op 0``).

    ``first`` (a point ``{symbol: value}``) is examined before any box, so that a
    verdict at the printed values is found at once.  A variable's box must
    contain only values at which the expressions are defined; a box where they
    are not is left undecided (never counted as satisfied or violated)."""
    fs = [_Function(sp.sympify(g), variables) for g, _ in constraints]
    ops = [op for _, op in constraints]
    root = tuple((v.lo, v.hi) for v in variables)
    sat = bad = None
    n = 0
    for p in ([first] if first is not None else []) + list(probes or []):
        pt = tuple((fraction(p[v.symbol]),) * 2 for v in variables)
        if not _admissible(variables, pt, root):
            continue  # a point outside the box (or not an integer) is never a witness
        state, _ = _state(fs, ops, pt)
        if state is True and sat is None:
            sat = pt
        elif state is False and bad is None:
            bad = pt
    queue = deque([root])  # breadth first: a witness that fills part of the box is found early
    dropped = False  # a box left undecided (the budget, or a point on the boundary)
    while queue:
        if n >= budget:
            return Decision("mixed" if sat and bad else "unknown", sat, bad, n, variables)
        box = queue.popleft()
        n += 1
        state, score = _state(fs, ops, box)
        if state is True:
            sat = sat or box
        elif state is False:
            bad = bad or box
        else:
            if sat is None or bad is None:  # a point of the box may already decide a witness
                c = _center(variables, box)
                cs, _ = _state(fs, ops, c) if _admissible(variables, c, box) else (None, None)
                if cs is True and sat is None:
                    sat = c
                elif cs is False and bad is None:
                    bad = c
            weights = [s * _rel_width(v, lo, hi) for s, v, (lo, hi) in zip(score, variables, box)]
            i = max(range(len(box)), key=lambda j: weights[j]) if box else 0
            if not box or weights[i] <= 1e-14:
                if box and max(_rel_width(v, lo, hi) for v, (lo, hi) in zip(variables, box)) > 1e-14:
                    weights = [_rel_width(v, lo, hi) for v, (lo, hi) in zip(variables, box)]
                    i = max(range(len(box)), key=lambda j: weights[j])
                else:
                    dropped = True  # a point that stays undecided (an equality, or a value on the boundary)
                    continue
            queue.extend(_split(variables, box, i))
        if stop_when_mixed and sat is not None and bad is not None:
            return Decision("mixed", sat, bad, n, variables)
    if sat is not None and bad is not None:
        return Decision("mixed", sat, bad, n, variables)
    if not dropped and sat is not None:
        return Decision("all", sat, None, n, variables)
    if not dropped and bad is not None:
        return Decision("none", None, bad, n, variables)
    return Decision("unknown", sat, bad, n, variables)


@dataclass
class Enclosure:
    """The range of an expression over a box: ``low``/``high`` enclose every
    value (proved); ``reached_low``/``reached_high`` are values taken at the
    witness points ``argmin``/``argmax``."""

    low: Fraction
    high: Fraction
    reached_low: Fraction
    reached_high: Fraction
    argmin: dict
    argmax: dict

    @property
    def exact(self) -> bool:
        return self.low == self.reached_low and self.high == self.reached_high


def _bound(f: _Function, variables, sign: int, budget: int, rel_tol: float):
    """``(proved, reached, point)`` for the minimum (``sign=1``) or the maximum
    (``sign=-1``): ``proved`` bounds it (from below for the minimum), ``reached``
    is a value taken at ``point`` (from the other side)."""

    def lower(box):
        lo_iv, hi_iv, signs = f.bounds(box)
        return (to_fraction(lo_iv.lo) if sign == 1 else -to_fraction(hi_iv.hi)), signs

    def at(pt):
        v = f.f(_ivs(pt))
        return to_fraction(v.hi) if sign == 1 else -to_fraction(v.lo)

    def corner(box, signs):
        center = _center(variables, box)
        pts = []
        for i, (lo, hi) in enumerate(box):
            s = signs[i]
            if s is not None and s != 0 and s * sign > 0:
                pts.append((lo, lo))
            elif s is not None and s != 0:
                pts.append((hi, hi))
            else:
                pts.append(center[i])
        return tuple(pts)

    root = tuple((v.lo, v.hi) for v in variables)
    lb, signs = lower(root)
    best_pt = corner(root, signs)
    best = at(best_pt)
    heap, settled, tick, n = [(lb, 0, root)], [], 1, 0
    while heap and n < budget:
        lb, _, box = heapq.heappop(heap)
        scale = abs(best) if best != 0 else Fraction(1)
        if best - lb <= Fraction(rel_tol) * scale:
            heapq.heappush(heap, (lb, tick, box))
            tick += 1
            break
        n += 1
        box_signs = f.signs(_ivs(box))
        free = [i for i, s in enumerate(box_signs) if s is None and box[i][0] != box[i][1]]
        if not free:
            settled.append(lb)
            continue
        i = max(free, key=lambda j: _rel_width(variables[j], *box[j]))
        for child in _split(variables, box, i):
            clb, csigns = lower(child)
            cpt = corner(child, csigns)
            val = at(cpt)
            if val < best:
                best, best_pt = val, cpt
            heapq.heappush(heap, (clb, tick, child))
            tick += 1
    proved = min([h[0] for h in heap] + settled + [best])
    point = {v.symbol: lo for v, (lo, _) in zip(variables, best_pt)}
    return proved * sign, best * sign, point


def enclose(expr, variables: list[Var], *, budget: int = 400, rel_tol: float = 1e-9) -> Enclosure:
    """The range of ``expr`` over the box (raises :class:`IntervalError` if it
    is not defined on the whole box).  Where the expression is monotone in
    every variable over the whole box, its extremes are at two corners, and a
    rational value there is computed exactly."""
    expr = sp.sympify(expr)
    f = _Function(expr, variables)
    lo, reached_lo, argmin = _bound(f, variables, 1, budget, rel_tol)
    hi, reached_hi, argmax = _bound(f, variables, -1, budget, rel_tol)
    root = tuple((v.lo, v.hi) for v in variables)
    if root and all(s is not None for s in f.signs(_ivs(root))):
        lo, reached_lo = _exact_at(expr, argmin, lo, reached_lo)
        hi, reached_hi = _exact_at(expr, argmax, hi, reached_hi)
    return Enclosure(lo, hi, reached_lo, reached_hi, argmin, argmax)


def _exact_at(expr, point, proved, reached):
    """The exact value at a corner where the extreme is attained, when the
    expression is rational there (sums, products, integer powers only)."""
    if any(not p.exp.is_Integer for p in expr.atoms(sp.Pow)) or expr.atoms(sp.Function) or expr.has(sp.E, sp.pi):
        return proved, reached
    try:
        v = expr.xreplace({k: sp.Rational(val.numerator, val.denominator) for k, val in point.items()})
    except (TypeError, ValueError, OverflowError):
        return proved, reached
    if v.is_Rational:
        exact = fraction(v)
        if min(proved, reached) <= exact <= max(proved, reached):
            return exact, exact
    return proved, reached


def value_at(expr, point: dict) -> Iv:
    """``expr`` at a point ``{symbol: number}`` (printed constants not in the point keep their interval)."""
    syms = list(point)
    return compile_expr(sp.sympify(expr), syms)([Iv.of(fraction(point[s])) for s in syms])
