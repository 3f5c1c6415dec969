"""Existence and equivalence over boxes, by the branch and bound of :mod:`pysym.audit.boxes`.

:func:`exists` asks whether some point of a box satisfies constraints: for an
equation ``g == 0`` it needs a part of the box on which ``g`` is continuous and
takes both signs (intermediate values), so it allows only operations known to
be continuous (:func:`continuous_form`).  :func:`equivalent` asks whether two
constraints hold at exactly the same points of a box.  Only what interval
arithmetic proves is used: ``all``, ``none``, ``equivalent`` and ``differ``
are proofs.
"""

from __future__ import annotations

from collections import deque
from fractions import Fraction  # noqa: F401  (the doctests' boxes)

import sympy as sp

# the branch-and-bound machinery these decisions share with decide() and enclose()
from pysym.audit.boxes import BUDGET, Decision, Var, _Function, _ivs, _rel_width, _split, _state, decide
from pysym.audit.interval import IntervalError

__all__ = ["exists", "continuum", "real_continuum", "continuous_form", "equivalent"]


def exists(constraints, variables: list[Var], *, budget: int = BUDGET) -> Decision:
    """Is there a point of the box where every constraint holds?

    ``all`` gives a witness box where every inequality holds; for one
    equality ``g == 0`` the witness is a box where the inequalities hold and
    ``g`` takes both signs at two points, so that ``g = 0`` somewhere between
    them (intermediate value theorem: ``g`` is built only from continuous
    operations (:func:`continuous_form`, an allow-list) and interval arithmetic
    defines it on the whole witness box, so it is continuous there; every
    variable takes every real value of its interval: :func:`continuum`).  ``none`` proves that no
    point satisfies them; ``unknown`` is the rest (several equalities sharing
    variables are never proved solvable)."""
    equalities = [(g, op) for g, op in constraints if op == "=="]
    others = [(g, op) for g, op in constraints if op != "=="]
    if not equalities:
        d = decide(others, variables, budget=budget)
        if d.satisfied is not None:  # a witness is all existence needs
            return Decision("all", d.satisfied, d.violated, d.boxes, variables)
        return d
    if len(equalities) > 1 or not all(continuum(v) for v in variables):
        d = decide(constraints, variables, budget=budget, stop_when_mixed=False)
        restricted = [str(v.symbol) for v in variables if not continuum(v)]
        note = (f"an equation is not solved by intermediate values in {', '.join(restricted)}, which does not take "
                "every real value of its range (an integer or rational symbol)") if restricted else ""
        return Decision("none", None, d.violated, d.boxes, variables) if d.status == "none" else \
            Decision("unknown", None, d.violated, d.boxes, variables, note)
    g = sp.sympify(equalities[0][0])
    continuous = continuous_form(g)
    note = ""
    fg = _Function(g, variables)
    fo = [_Function(sp.sympify(h), variables) for h, _ in others]
    ops = [op for _, op in others]
    queue = deque([tuple((v.lo, v.hi) for v in variables)])
    n = 0
    violated = None
    undecided = False
    while queue and n < budget:
        box = queue.popleft()
        n += 1
        state, _ = _state(fo + [fg], ops + ["=="], box)
        if state is False:
            violated = violated or box
            continue
        if state is True:  # the equation is exactly 0 on the box (a point, or an identity)
            return Decision("all", box, violated, n, variables)
        inner, _ = _state(fo, ops, box) if fo else (True, None)
        if inner is True:  # intermediate values need continuity on the whole box
            if not continuous:
                note = (f"{sp.sstr(g)} = 0 is not solved by intermediate values: it uses an operation that is not "
                        "continuous (only +, *, powers, exp, log, Abs, Min, Max are taken to be)")
            elif not _continuous_on(fg, g, box):
                note = note or (f"{sp.sstr(g)} is not defined on every part of the box (a pole, or a log or root "
                                "of 0 or below), so intermediate values do not apply there")
            elif _opposite_signs(fg, variables, box) is not None:
                return Decision("all", box, violated, n, variables)
        widths = [_rel_width(v, lo, hi) for v, (lo, hi) in zip(variables, box)]
        i = max(range(len(box)), key=lambda j: widths[j]) if box else 0
        if not box or widths[i] <= 1e-14:
            undecided = True
            continue
        queue.extend(_split(variables, box, i))
    if not queue and not undecided:
        return Decision("none", None, violated, n, variables)
    return Decision("unknown", None, violated, n, variables, note)


# What a symbol may be told about itself and still take every real value of its interval: its sign, and being
# real or finite.  An allow-list: `rational` (q**2 == 2 has no rational root in [1, 2], though q**2 - 2 changes
# sign there), `integer`, `algebraic`, `prime` or any other restriction makes it no continuum.
_CONTINUUM_FACTS = frozenset({
    "commutative", "complex", "real", "extended_real", "finite", "infinite", "hermitian", "imaginary",
    "positive", "negative", "nonnegative", "nonpositive", "nonzero", "zero", "extended_positive",
    "extended_negative", "extended_nonnegative", "extended_nonpositive", "extended_nonzero"})


def real_continuum(symbol) -> bool:
    """Whether ``symbol`` is a real number told nothing but its sign: it takes
    every real value of its range."""
    return symbol.is_real is True and set(symbol.assumptions0) <= _CONTINUUM_FACTS


def continuum(v: Var) -> bool:
    """Whether the variable takes every real value of its interval, so that
    intermediate values are values it takes.

    >>> x, q = sp.Symbol("x", positive=True), sp.Symbol("q", rational=True, positive=True)
    >>> continuum(Var(x, Fraction(1), Fraction(2))), continuum(Var(q, Fraction(1), Fraction(2)))
    (True, False)
    """
    return not v.integer and real_continuum(v.symbol)


# the operations continuous wherever they are defined; with interval arithmetic defined on a whole box (it raises
# for a log or fractional power reaching 0 or below, a division by an interval containing 0, a value that is not
# finite), an expression built only from them is continuous on the box.  An allow-list: sign, Heaviside, floor,
# Piecewise, factorial, binomial and anything else not listed here is never taken to be continuous.
_CONTINUOUS = (sp.Add, sp.Mul, sp.Pow, sp.exp, sp.log, sp.Abs, sp.Min, sp.Max)


def continuous_form(expr) -> bool:
    """Whether ``expr`` uses only operations continuous wherever they are defined
    (:data:`_CONTINUOUS`), real symbols, printed constants and finite real numbers.

    >>> x = sp.Symbol("x", real=True)
    >>> continuous_form(sp.exp(x) / (x - 1) + sp.Abs(x)), continuous_form(sp.diff(sp.Abs(x - 1), x))
    (True, False)
    """
    for node in sp.preorder_traversal(sp.sympify(expr)):
        if node.is_Atom:
            if node.is_Symbol:
                if node.is_real is not True and not node.is_extended_real:
                    return False
            elif not (node.is_number and node.is_real is True and node.is_finite is True):
                return False
        elif not isinstance(node, _CONTINUOUS):
            return False
    return True


def _continuous_on(f: _Function, expr, box) -> bool:
    """``expr`` is continuous on ``box``: continuous operations only, and interval
    arithmetic defines it on the whole box (no pole, no log of 0, ...)."""
    if not continuous_form(expr):
        return False
    try:
        f.f(_ivs(box))
    except (IntervalError, ZeroDivisionError, ValueError, OverflowError):
        return False
    return True


def _opposite_signs(f: _Function, variables, box):
    """Two points of ``box`` where ``f`` is proved negative and positive (the
    corners the monotonicity signs point to, else the box's extreme corners)."""
    try:
        signs = f.signs(_ivs(box))
    except (IntervalError, ZeroDivisionError, ValueError):
        return None
    low = tuple((lo, lo) if s == 1 else (hi, hi) if s == -1 else (lo, lo) for s, (lo, hi) in zip(signs, box))
    high = tuple((hi, hi) if s == 1 else (lo, lo) if s == -1 else (hi, hi) for s, (lo, hi) in zip(signs, box))
    try:
        a, b = f.f(_ivs(low)), f.f(_ivs(high))
    except (IntervalError, ZeroDivisionError, ValueError):
        return None
    if (a.hi < 0 and b.lo > 0) or (a.lo > 0 and b.hi < 0):
        return low, high
    return None


def equivalent(first: tuple, second: tuple, variables: list[Var], *, budget: int = 4000):
    """Whether ``g1 op1 0`` holds exactly where ``g2 op2 0`` does, on the whole box:
    ``("equivalent", boxes)`` when branch and bound splits the box into parts on
    each of which interval arithmetic proves both true or both false;
    ``("differ", point)`` with a point of a part where one is proved true and the
    other false (an integer for integer variables); ``("unknown", boxes)`` when
    the budget runs out or a part cannot be decided (a shared boundary that no
    box resolves).

    >>> x = sp.Symbol("x", positive=True)
    >>> X = [Var(x, Fraction(1), Fraction(10))]
    >>> equivalent((x - 3, ">="), (x - 2, ">"), X)[0], equivalent((x - 3, ">="), (x**2 - 9, ">="), X)[0]
    ('differ', 'unknown')
    >>> n = sp.Symbol("n", integer=True, positive=True)
    >>> equivalent((n / sp.E - 1, ">="), (n - 3, ">="), [Var(n, Fraction(2), Fraction(4096), True)])[0]
    'equivalent'
    """
    fa, fb = _Function(sp.sympify(first[0]), variables), _Function(sp.sympify(second[0]), variables)
    queue = deque([tuple((v.lo, v.hi) for v in variables)])
    n = 0
    while queue:
        if n >= budget:
            return "unknown", n
        box = queue.popleft()
        n += 1
        a, score_a = _state([fa], [first[1]], box)
        b, score_b = _state([fb], [second[1]], box)
        if a is not None and b is not None:
            if a == b:
                continue
            point = tuple((lo, lo) if v.integer else ((lo + hi) / 2,) * 2 for v, (lo, hi) in zip(variables, box))
            return "differ", {v.symbol: lo for v, (lo, _) in zip(variables, point)}
        score = [max(x, y) for x, y in zip(score_a, score_b)]
        weights = [max(sc, 1e-3) * _rel_width(v, lo, hi) for sc, v, (lo, hi) in zip(score, variables, box)]
        if not box or max(weights) <= 1e-14:
            return "unknown", n
        i = max(range(len(box)), key=lambda j: weights[j])
        queue.extend(_split(variables, box, i))
    return "equivalent", n
