"""Proof attempts with a CPU-time limit of their own.

A sign proof that cannot succeed may search for a long time before it gives
up.  Where the engine tries several proofs for one claim (both directions of
a trend, both ends of a range), each attempt gets a few CPU seconds
(:func:`pysym.audit.budget.cpu_limit`), so that the claim stays well inside
its budget; running out is a failed attempt, never a verdict.

>>> import sympy as sp
>>> x = sp.Symbol("x", positive=True)
>>> attempt("positive", x + 1, []), attempt("nonnegative", x - 1, [])
(True, False)

:func:`safe_simplify` is SymPy's ``simplify`` except where it could crash the
worker: a number such as 0.4965 written as an exponent (``N**(-993/2000)``,
``exp(1.4072 - P/2.2102)``) makes SymPy's polynomial algorithms work in
``N**(1/2000)`` to degree 993, and its heuristic GCD then evaluates such
polynomials at huge integers, nested once per generator, until GMP (under
FLINT) gives up with ``SIGFPE``, a signal no Python code can catch.  Such an
expression is left as it is (the sign provers work on it directly):

>>> N = sp.Symbol("N", positive=True)
>>> explosive(N**sp.Rational(-993, 2000) + sp.exp(sp.Rational(7036, 5000) - N)), explosive(N**sp.Rational(17, 50))
(True, False)

A sign of an expression in printed numbers only (:mod:`pysym.audit.printed`)
that SymPy cannot prove is proved by interval arithmetic over their admissible
intervals (:func:`pysym.audit.boxes.decide`):

>>> from pysym.audit.printed import printed_literal
>>> a, b, c, d = (printed_literal(t) for t in ("0.1577", "7.2446", "3.2363", "5.1395"))
>>> attempt("positive", 2*sp.sqrt(a*b) - c**2/(4*d), [])
True
"""

from __future__ import annotations

import sympy as sp

from pysym.audit.budget import CPUTimeout, cpu_limit
from pysym.derive import prove

__all__ = ["attempt", "ATTEMPT_SECONDS", "explosive", "safe_simplify", "not_smooth"]

ATTEMPT_SECONDS = 8.0


def attempt(kind: str, expr, order, seconds: float = ATTEMPT_SECONDS) -> bool:
    """Whether ``expr`` is proved ``positive`` (> 0), ``nonnegative`` (>= 0) or
    ``zero`` within ``seconds`` of CPU time."""
    prover = {"positive": prove.prove_positive, "nonnegative": prove.prove_nonnegative,
              "zero": prove.prove_zero}[kind]
    if kind != "zero" and _has_printed(expr):  # interval arithmetic first: fast, and rigorous
        if _by_intervals(kind, expr) or _by_factors(kind, expr, order, seconds):
            return True
    try:
        with cpu_limit(seconds):
            if prover(expr, order).ok:
                return True
    except CPUTimeout:
        pass
    return False


def _has_printed(expr) -> bool:
    from pysym.audit.printed import Printed

    return isinstance(expr, sp.Basic) and expr.has(Printed)


def _by_factors(kind: str, expr, order, seconds: float) -> bool:
    """A product whose factors are proved positive one by one (printed-number
    factors by interval arithmetic, the others by SymPy)."""
    from pysym.audit.printed import Printed

    expr = sp.factor_terms(sp.sympify(expr))
    if kind == "zero" or not expr.is_Mul or not expr.has(Printed):
        return False
    coeff, factors = expr.as_coeff_mul()
    if not coeff > 0:
        return False
    for f in factors:
        if f.is_Pow and f.exp.is_real and attempt("positive", f.base, order, seconds):
            continue
        if _by_intervals("positive", f):
            continue
        try:
            with cpu_limit(seconds):
                if prove.prove_positive(f, order).ok:
                    continue
        except CPUTimeout:
            pass
        return False
    return True


def _by_intervals(kind: str, expr) -> bool:
    from pysym.audit.boxes import decide
    from pysym.audit.interval import IntervalError
    from pysym.audit.precision import box_of
    from pysym.audit.printed import Printed

    expr = sp.sympify(expr)
    if kind == "zero" or any(not isinstance(x, Printed) for x in expr.free_symbols) or not expr.free_symbols:
        return False
    try:
        return decide([(expr, ">" if kind == "positive" else ">=")], box_of([expr]), budget=500).status == "all"
    except (IntervalError, ZeroDivisionError, ValueError):
        return False


_EXPLOSIVE = 100  # the largest denominator of a rational exponent that SymPy's polynomial algebra handles at ease


def explosive(expr) -> bool:
    """Whether a rational number with a denominator above 100 sits in an
    exponent of ``expr`` (of a power, or inside ``exp``), or a float does: then
    ``simplify``, ``cancel`` and ``factor`` work with polynomials of that degree
    in several generators at once, which may exhaust GMP (see the module docstring)."""
    expr = sp.sympify(expr)
    exponents = [p.exp for p in expr.atoms(sp.Pow)] + [f.args[0] for f in expr.atoms(sp.exp)]
    for e in exponents:
        for r in [e] if e.is_Number else e.atoms(sp.Number):
            if r.is_Float or (r.is_Rational and r.q > _EXPLOSIVE):
                return True
    return False


def safe_simplify(expr):
    """``sp.simplify(expr)``, or ``expr`` itself when :func:`explosive`."""
    return expr if explosive(expr) else sp.simplify(expr)


def monotone(g, v, order) -> bool:
    """Whether ``g`` is proved monotone in ``v`` (``dg/dv`` of one sign) under ``order``: an equation ``g = 0`` has
    at most one root in ``v`` there, so the one solution SymPy gives is not one branch of several."""
    slope = sp.diff(g, v)
    return attempt("nonnegative", slope, order) or attempt("nonnegative", -slope, order)


SMOOTH_EVERYWHERE = (sp.exp, sp.sin, sp.cos, sp.atan, sp.sinh, sp.cosh, sp.tanh)


def not_smooth(f, order) -> str | None:
    """Why ``f`` may have a pole or a kink where the symbols range (``order``: their bounds), or None: every
    power whose exponent is not a nonnegative integer has a base proved positive, every logarithm an argument
    proved positive, and every other function is one that is smooth everywhere (an allow-list).  A unique
    stationary point with a positive second derivative is the minimum of an interval only where the law is
    smooth: 1/x + 1/(x - 5)**2 has one at 2.61 and falls below it beyond its pole at 5.

    >>> x = sp.Symbol("x", positive=True)
    >>> not_smooth(1 / x + x**2, [(1, x)]) is None
    True
    >>> not_smooth(1 / x + 1 / (x - 5)**2, [(1, x), (x, 10)])
    'the base `x - 5` of `(x - 5)**(-2)` is not proved positive'
    """
    for sub in sp.preorder_traversal(sp.sympify(f)):
        if isinstance(sub, sp.Pow):
            if sub.exp.is_integer and sub.exp.is_nonnegative:
                continue
            if not attempt("positive", sub.base, order):
                return f"the base `{sp.sstr(sub.base)}` of `{sp.sstr(sub)}` is not proved positive"
        elif isinstance(sub, sp.log):
            if not attempt("positive", sub.args[0], order):
                return f"the argument of `{sp.sstr(sub)}` is not proved positive"
        elif isinstance(sub, (sp.Function, sp.Piecewise)) and not isinstance(sub, SMOOTH_EVERYWHERE):
            return f"`{sp.sstr(sub.func)}` is not one of the functions smooth everywhere"
    return None

