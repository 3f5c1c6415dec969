"""Closed forms for scaling claims: optima, elasticities, coefficients.

:func:`stationary_minimum` finds the minimizer ``x*`` of ``f`` over ``x > 0``
in closed form, and proves that it *is* the minimizer:

* **power balance**: when ``df/dx = c_a x**a + c_b x**b`` (coefficients free
  of ``x``) with ``a < b``, ``c_a < 0 < c_b`` (all proved from the ranges),
  then ``df/dx = x**a (c_a + c_b x**(b-a))`` is negative below
  ``x* = (-c_a/c_b)**(1/(b-a))`` and positive above: ``x*`` is the global
  minimizer on ``x > 0``;
* otherwise SymPy's ``solve``: the unique positive stationary point, accepted
  only with its second-order condition ``f''(x*) > 0`` proved.

A stationary point that is a maximum is never taken for a minimizer.

:func:`elasticity` is ``d log q / d log s`` (term by term for sums of power
laws with one exponent); :func:`coefficient` is ``G`` in ``q* = G s**a``.

>>> import sympy as sp
>>> x, n = sp.symbols("x n", positive=True)
>>> star, how = stationary_minimum(x**sp.Rational(-1, 2) + x / n, x, [])
>>> star, how.split(":")[0]
(2**(1/3)*n**(2/3)/2, 'power balance')
>>> stationary_minimum(sp.sqrt(x) - x / n, x, [])[0] is None
True
>>> elasticity(star, n), coefficient(star, n, sp.Rational(2, 3))
(2/3, 2**(1/3)/2)
"""

from __future__ import annotations

import sympy as sp

from pysym.audit.budget import CPUTimeout, cpu_limit
from pysym.audit.numbers import show
from pysym.audit.proofs import attempt, not_smooth
from pysym.derive import prove
from pysym.derive.limits import same_limit

__all__ = ["stationary_minimum", "power_terms", "elasticity", "scaling_exponent", "coefficient"]


def power_terms(expr, x) -> dict | None:
    """``{exponent: coefficient}`` writing ``expr`` as a sum of ``c * x**e``
    (``c`` free of ``x``; exponents may be symbolic); None if it has another shape."""
    terms: dict = {}
    for t in sp.Add.make_args(sp.expand(expr)):
        c, e = sp.S.One, sp.S.Zero
        for f in sp.Mul.make_args(sp.expand_power_base(t, force=False)):
            base, ex = f.as_base_exp()
            if base == x:
                e += ex
            elif f.has(x):
                return None
            else:
                c *= f
        e = sp.simplify(e)
        terms[e] = terms.get(e, 0) + c
    return {e: c for e, c in terms.items() if c != 0}


def _power_balance(f, x, order):
    terms = power_terms(sp.diff(f, x), x)
    if terms is None or len(terms) != 2:
        return None
    (e1, c1), (e2, c2) = terms.items()
    if attempt("positive", e1 - e2, order):
        (e1, c1), (e2, c2) = (e2, c2), (e1, c1)
    elif not attempt("positive", e2 - e1, order):
        return None
    # now e1 < e2 (proved)
    if not (attempt("positive", -c1, order) and attempt("positive", c2, order)):
        return None
    gap = sp.simplify(e2 - e1)
    factor, rest = sp.factor_terms(-c1 / c2).as_coeff_Mul()
    if factor.is_Rational and gap.is_number and not (1 / gap).is_Integer and max(abs(factor.p), factor.q) > 10**6:
        # an exact root of a large rational makes SymPy factor its numerator and denominator: use 50 digits
        factor = sp.Float(factor, 60) ** sp.Float(1 / gap, 60)
    else:
        factor = factor ** (1 / gap)
    star = factor * sp.powsimp(rest ** (1 / gap), force=True)
    how = (f"power balance: d/d{x} = {x}**({show(e1)}) * ({show(c1)} + {show(c2)}*{x}**({show(gap)})), "
           f"negative below {x}* and positive above (signs proved): the global minimum over {x} > 0")
    return star, how


def real_solutions(sols):
    """The solutions of ``sp.solve`` that may be real (values, or dicts of them),
    or None when that cannot be decided.  SymPy writes the three real roots of a
    cubic with ``I`` (casus irreducibilis), so a solution with ``I`` is never
    simply dropped: a number is kept when its imaginary part vanishes at 50
    digits (and dropped when it does not); with free symbols it is undecided.

    >>> x = sp.Symbol("x")
    >>> len(real_solutions(sp.solve(x**3 - 6*x**2 + 9*x - 1, x))), real_solutions([sp.I, 2])
    (3, [2])
    >>> real_solutions(sp.solve(x**3 - 6*x**2 + 9*x - sp.Symbol("c"), x)) is None
    True
    """
    out = []
    for sol in sols:
        values = [sp.sympify(v) for v in (sol.values() if isinstance(sol, dict) else [sol])]
        keep = True
        for v in values:
            if v.has(sp.I):
                if v.free_symbols:
                    return None
                re, im = sp.N(v, 50).as_real_imag()
                if abs(im) > sp.Float("1e-40") * (1 + abs(re)):
                    keep = False
            elif v.is_real is False:
                keep = False
        if keep:
            out.append(sol)
    return out


def stationary_minimum(f, x, order, budget: float = 20):
    """``(x*, how)``: the proved global minimizer of ``f`` over ``x > 0`` (power
    balance), or the unique positive stationary point with ``f''(x*) > 0``
    proved; ``(None, why)`` otherwise."""
    if not x.is_positive:
        return None, f"{x} is not known to be positive"
    rough = not_smooth(f, order)
    if rough:  # a pole or a kink: a second well beyond it goes unseen by the stationary point
        return None, f"the law may not be smooth where {x} ranges: {rough}"
    try:
        with cpu_limit(budget):
            found = _power_balance(f, x, order)
    except CPUTimeout:
        found = None
    if found is not None:
        return found
    if prove.heavy(f, [x]):
        return None, "no closed form (the stationarity condition is too heavy for SymPy's solve)"
    # floats make solve work in machine precision: roots come back with imaginary dust, and real ones are lost
    f = f.xreplace({c: sp.Rational(str(c)) for c in f.atoms(sp.Float)})
    try:
        with cpu_limit(budget):
            sols = real_solutions(sp.solve(sp.diff(f, x), x))
            if sols is not None:  # positive: a root written with I is compared by its real part
                sols = [s for s in sols if (sp.re(sp.N(s, 50)) > 0 if s.has(sp.I) else s.is_positive is not False)]
    except (CPUTimeout, NotImplementedError, ValueError, TypeError):
        return None, "SymPy's solve found no closed form within its budget"
    if sols is None:
        return None, "SymPy writes a stationary point with I: whether it is real is not decided"
    if len(sols) != 1:
        return None, f"SymPy's solve found {len(sols)} positive stationary points"
    star = sols[0]
    try:
        with cpu_limit(budget):
            second = sp.simplify(sp.diff(f, x, 2).subs(x, star))
    except CPUTimeout:
        return None, f"the second-order condition at {x}* = {show(star)} could not be simplified within its budget"
    if attempt("positive", second, order):
        return star, f"the unique positive stationary point, with d2/d{x}2 > 0 there (proved)"
    if attempt("positive", -second, order):
        return None, f"the only stationary point {x}* = {show(star)} is a maximum (proved), not a minimum"
    return None, f"the second-order condition at the stationary point {x}* = {show(star)} could not be proved"


def elasticity(q, scale):
    """d log q / d log scale, term by term when q is a sum of power-law terms
    sharing one exponent (which SymPy's simplify often fails to see).
    Floating-point constants are held as symbols meanwhile, so that an exact
    exponent stays exact."""
    floats = {f: sp.Dummy("c", positive=True) * (1 if f > 0 else -1) for f in q.atoms(sp.Float) if f != 0}
    back = {d: f for f, expr in floats.items() for d in expr.atoms(sp.Dummy)}
    return _elasticity(q.xreplace(floats), scale).xreplace({d: abs(f) for d, f in back.items()})


def _elasticity(q, scale):
    terms = sp.Add.make_args(sp.expand(q))
    es = [sp.simplify(sp.expand_log(scale * sp.diff(sp.log(t), scale), force=True)) for t in terms]
    if len(es) > 1 and all(not e.has(scale) for e in es) and all(prove.prove_equal(e, es[0]).ok for e in es[1:]):
        return es[0]
    return sp.simplify(sp.expand_log(scale * sp.diff(sp.log(q), scale), force=True))


def scaling_exponent(q, scale, ev: dict, budget: float = 20, samples=lambda: []):
    """d log q / d log scale, or its limit as scale grows (noted in ``ev``);
    None if SymPy cannot get it within the budget.

    SymPy's limit with symbolic parameters decides comparisons it cannot know
    (the limit of the exponent of ``n + n**a`` came out 1 for ``a`` in [2, 3]):
    such a limit is taken again at each of the points ``samples()`` gives
    (``{symbol: number}``, covering every parameter; drawn only for such a
    limit) and must agree there, else None (the
    disagreement is noted in ``ev``); an agreeing one is marked in ``ev``
    (``asymptotic_parameters``) as evidence, not a proof."""
    try:
        with cpu_limit(budget):
            e = elasticity(q, scale)
            if e.has(scale):
                limit = sp.limit(e, scale, sp.oo)
                params = sorted(e.free_symbols - {scale}, key=str)
                if params:
                    samples = samples()
                    why = _limit_disagrees(e, limit, scale, params, samples)
                    if why:
                        ev["limit_check"] = why
                        return None
                    ev["asymptotic_parameters"] = (f"taken with symbolic {', '.join(map(str, params))}, and again "
                                                   f"at {len(samples)} values of them, where it agrees: evidence, "
                                                   "not a proof for every value")
                e = limit
                ev["asymptotic"] = f"asymptotic exponent ({scale} -> oo)"
            return e
    except (CPUTimeout, NotImplementedError, ValueError, TypeError):
        return None


def _limit_disagrees(e, limit, scale, params, samples) -> str | None:
    """Why the limit of ``e`` as ``scale`` grows, taken with the parameters fixed at each sample, is not
    ``limit`` there (or cannot be checked); None when every sample agrees."""
    if not samples:
        return "the limit has symbolic parameters and there are no values of them to check it at"
    for point in samples:
        missing = [p for p in params if p not in point]
        if missing:
            return f"no value of {', '.join(map(str, missing))} to check the limit at"
        values = {p: point[p] for p in params}
        shown = ", ".join(f"{p} = {show(v)}" for p, v in values.items())
        at = sp.limit(e.xreplace(values), scale, sp.oo)
        if not same_limit(at, limit.xreplace(values)):
            return (f"SymPy's limit as {scale} -> oo with symbolic parameters is {show(limit)}, but at {shown} it "
                    f"is {show(at)}: not trusted")
    return None


def coefficient(q_star, scale, exponent, budget: float = 20):
    """``G`` with ``q* = G * scale**exponent`` (None when ``q*`` is not a pure power of ``scale``)."""
    try:
        with cpu_limit(budget):
            g = sp.powsimp(sp.expand_power_base(sp.simplify(q_star / scale ** exponent), force=True), force=True)
            if g.has(scale):
                g = sp.simplify(g)
    except (CPUTimeout, NotImplementedError, ValueError, TypeError):
        return None
    return None if g.has(scale) else g
