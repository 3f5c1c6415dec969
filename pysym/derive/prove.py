"""Small, sound symbolic provers used to verify derivation steps.

Each prover returns a :class:`Proof` (``ok`` and a one-line account of how it
succeeded) and never guesses: when no rule applies, ``ok`` is ``False``.

Identities are proved by simplifying ``lhs - rhs`` to zero under the symbols'
assumptions:

>>> import sympy as sp
>>> x, y = sp.symbols("x y", positive=True)
>>> prove_zero(sp.log(x * y**2) - sp.log(x) - 2 * sp.log(y)).ok
True

Signs are proved structurally (sums of nonnegative terms, products and
quotients of signed factors, ``log(u) >= 0`` from ``u >= 1``, ...), after
optionally rewriting ordered pairs ``a <= b`` as ``b = a + s`` with ``s >= 0``:

>>> k, T = sp.symbols("k T", positive=True)
>>> prove_nonnegative(1 / k - 1 / T, order=[(k, T)]).ok
True
>>> prove_nonnegative(sp.log(T / k), order=[(k, T)]).ok
True
>>> prove_nonnegative(x - y).ok
False

Floats are exact binary numbers and are compared exactly: nothing is rounded
to a nearby rational, so a tiny float never vanishes:

>>> prove_zero(x + sp.Float("1e-45") - x).ok
False

``binomial(n, k)`` and ``factorial(n)`` have a sign only where they are the
combinatorial numbers: integer arguments with ``0 <= k <= n``.  There they are
at least 1; elsewhere (``binomial(5/4, 3) < 0``) nothing is assumed:

>>> n, j = sp.symbols("n j", integer=True, positive=True)
>>> prove_positive(sp.binomial(n, j), order=[(j, n)]).ok
True
>>> prove_nonnegative(sp.binomial(x, 3)).ok
False
>>> prove_nonnegative(sp.log(sp.binomial(n, j)), order=[(j, n)]).ok
True

Every prover runs under a CPU-time budget (:mod:`pysym.derive.budget`).  Inside
a caller's budget (a derivation step) running out raises
:class:`~pysym.derive.budget.OutOfTime`, which fails the step and names the
budget; called on its own, a prover gets :data:`BUDGET` CPU seconds and
returns a failed :class:`Proof` that names the budget.
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

from pysym.derive.budget import OutOfTime, active, budget

__all__ = [
    "Proof",
    "OutOfTime",
    "BUDGET",
    "budget",
    "exact",
    "heavy",
    "valid_combinatorial",
    "prove_equal",
    "prove_zero",
    "prove_nonnegative",
    "prove_positive",
    "simplify_candidates",
]

BUDGET = 20.0  # CPU seconds for one proof attempt made outside any caller's budget



@dataclass(frozen=True)
class Proof:
    ok: bool
    how: str

    def __bool__(self) -> bool:
        return self.ok


def heavy(expr, wrt=None) -> bool:
    """True when polynomial algebra (factor, together, simplify, solve) could
    blow up: powers with fractional exponents of large denominator, or floats,
    or integer exponents over 64; exponentials whose argument has such a number
    in a term with a symbol (``exp(1000*t)`` is ``exp(t)**1000`` to the
    polynomial code, a dense polynomial of degree 1000); only powers whose base
    involves ``wrt``, if given.

    >>> t = sp.Symbol("t")
    >>> heavy(sp.exp(-(1000*t - 613)**2)), heavy(sp.exp(-3*t/2 + sp.Rational(97, 200))), heavy(t**100)
    (True, False, True)
    """
    def big(n) -> bool:
        return n.is_Float or (n.is_Rational and (n.q > 12 or abs(n.p) > 64))

    for p in expr.atoms(sp.Pow):
        if wrt is not None and not (p.base.free_symbols & set(wrt)):
            continue
        q = p.exp
        if q.is_Float or (q.is_Rational and q.q > 12) or (q.is_Integer and abs(q) > 64):
            return True
        if not q.is_number and any(big(a) for a in q.atoms(sp.Number)):
            return True
    for e in expr.atoms(sp.exp):
        arg = e.args[0]
        if wrt is not None and not (arg.free_symbols & set(wrt)):
            continue
        terms = [t for t in sp.Add.make_args(sp.expand(arg)) if not t.is_number]  # a constant term is a factor
        if any(big(n) for t in terms for n in t.atoms(sp.Number)):
            return True
    return False


def simplify_candidates(expr: sp.Expr):
    """Equivalent forms of ``expr`` tried in turn (cheap ones first)."""
    yield expr
    yield sp.expand(expr)
    if heavy(expr):
        yield sp.expand(sp.powsimp(sp.expand_power_base(expr, force=False), force=False))
        return
    yield sp.together(expr)
    yield sp.expand(sp.expand_log(expr, force=False))
    yield sp.expand(sp.powsimp(sp.expand_power_base(expr, force=False), force=False))
    yield sp.simplify(expr)
    yield sp.simplify(sp.expand_log(sp.expand_power_exp(sp.expand_power_base(expr)), force=False))
    yield sp.simplify(sp.logcombine(expr, force=False))


def exact(expr):
    """``expr`` with every Float replaced by the rational number it is exactly
    (a binary fraction): proofs then compare floats exactly, never rounded."""
    expr = sp.sympify(expr)
    floats = expr.atoms(sp.Float)
    if not floats:
        return expr
    return expr.xreplace({f: sp.Rational(f) for f in floats})


def _bounded(work, failure: str) -> "Proof":
    """Run ``work()`` under the caller's budget if there is one (running out
    then propagates), else under :data:`BUDGET` (running out is a failed proof)."""
    if active():
        return work()
    try:
        with budget(BUDGET):
            return work()
    except OutOfTime as exc:
        return Proof(False, f"{failure}: {exc}")


def _finite(expr) -> bool:
    return not expr.has(sp.oo, -sp.oo, sp.zoo, sp.nan)


def prove_zero(expr: sp.Expr, order=None) -> Proof:
    """Prove ``expr == 0`` identically (under the symbols' assumptions).

    ``binomial``/``factorial`` atoms that are provably positive (using the
    ordered pairs ``order``) are first replaced by positive symbols, so that
    logarithms and powers of them expand; proving the identity for every
    positive value proves it for the actual one.
    """
    return _bounded(lambda: _prove_zero(expr, order), "SymPy did not simplify the difference to 0")


def _prove_zero(expr, order) -> Proof:
    expr = exact(sp.sympify(expr).doit())
    if not _finite(expr):
        return Proof(False, "the difference involves an infinite or undefined value")
    expr, replaced = _positive_atoms(expr, order)
    for i, form in enumerate(simplify_candidates(expr)):
        if form == 0 or form.is_zero is True:
            how = "SymPy simplifies the difference to 0" if i else "both sides evaluate to the same expression"
            if replaced:
                how += f" (treating {', '.join(replaced)} as positive)"
            return Proof(True, how)
    return Proof(False, "SymPy could not simplify the difference to 0")


def prove_equal(a, b, order=None) -> Proof:
    """Prove ``a == b``: as :func:`prove_zero` of ``a - b``, then (when every
    symbol is positive) by reducing ``a / b`` to 1 with power rules that are
    valid for positive bases."""
    return _bounded(lambda: _prove_equal(a, b, order), "SymPy did not prove the two sides equal")


def _prove_equal(a, b, order) -> Proof:
    a, b = exact(sp.sympify(a).doit()), exact(sp.sympify(b).doit())
    p = _prove_zero(a - b, order)
    if p.ok:
        return p
    if not _finite(a) or not _finite(b) or b.is_zero is not False:
        return p
    ratio, replaced = _positive_atoms(a / b, order)
    if all(s.is_positive for s in ratio.free_symbols) and not ratio.has(sp.I) and _positive_bases(ratio, order):
        r = sp.powsimp(sp.expand_power_base(sp.expand_power_exp(ratio), force=True), force=True)
        if sp.simplify(r) == 1:
            return Proof(True, "the ratio of the two sides reduces to 1 (every base of a power proved positive)")
    return p


def _positive_bases(expr, order) -> bool:
    """Every base of a non-integer power in ``expr`` is proved positive: only then
    are ``(ab)^c = a^c b^c`` and ``a^c a^d = a^(c+d)`` (``force=True``) valid
    (``sqrt(x - 20) sqrt(x - 30)`` is not ``sqrt((x - 20)(x - 30))`` for x < 20)."""
    for p in expr.atoms(sp.Pow):
        if p.exp.is_integer:
            continue
        if not _sign(p.base, True):
            return False
    return True


def valid_combinatorial(atom, order=None) -> bool:
    """True if ``atom`` (a ``binomial`` or ``factorial``) is provably a
    combinatorial number: integer arguments, ``n >= 0`` for ``n!``, and
    ``0 <= k <= n`` for ``binomial(n, k)`` (using the ordered pairs ``order``).
    Such a number is at least 1."""
    if isinstance(atom, sp.factorial):
        (n,) = atom.args
        return n.is_integer is True and n.is_nonnegative is True
    if isinstance(atom, sp.binomial):
        n, k = atom.args
        if not (n.is_integer is True and k.is_integer is True):
            return False
        if k.is_nonnegative is not True and not _prove_sign_unbounded(k, order, strict=False).ok:
            return False
        return _prove_sign_unbounded(n - k, order, strict=False).ok
    return False


def _positive_atoms(expr, order, at_least_one: bool = False):
    """Replace the valid ``binomial``/``factorial`` atoms (see
    :func:`valid_combinatorial`) by fresh symbols: positive ones, or
    ``1 + s`` with ``s >= 0`` when ``at_least_one``.  Proving a statement for
    every such value proves it for the actual one."""
    subs, names = {}, []
    for atom in sorted(expr.atoms(sp.binomial, sp.factorial), key=sp.default_sort_key):
        if atom.atoms(sp.binomial, sp.factorial) - {atom}:
            continue  # nested: the inner atom is replaced on its own
        if valid_combinatorial(atom, order):
            if at_least_one:
                subs[atom] = 1 + sp.Dummy(f"c{len(subs)}", nonnegative=True)
            else:
                subs[atom] = sp.Dummy(f"pos{len(subs)}", positive=True)
            names.append(sp.sstr(atom))
    return (expr.xreplace(subs) if subs else expr), names


def _order_substitutions(order, numeric_upper: bool = True, relevant=None):
    """Sequential substitutions ``b -> a + s`` (``s >= 0``) for pairs ``a <= b``.

    Each upper end is rewritten once; a later pair may rewrite a symbol that an
    earlier replacement introduced, so chains ``1 <= k <= T`` reduce fully.
    Proving a sign after the substitution proves it on a superset of the
    domain, which is sound.
    """
    steps = []
    names = []
    seen = set()
    relevant = None if relevant is None else set(relevant)
    for i, (lo, hi) in enumerate(order or ()):
        if isinstance(lo, sp.Symbol) and sp.sympify(hi).is_number:
            if not numeric_upper or not lo.is_positive or lo in seen:
                continue
            if relevant is not None and lo not in relevant:
                continue
            # 0 < lo <= hi (a number): lo = hi / (1 + s)
            seen.add(lo)
            s = sp.Dummy(f"s_{i}_{lo.name}", nonnegative=True)  # a Dummy: no symbol of the caller can be it
            steps.append((lo, sp.sympify(hi) / (1 + s)))
            names.append(f"{sp.sstr(lo)} = {sp.sstr(hi)}/(1 + {s.name})")
            continue
        if not isinstance(hi, sp.Symbol) or hi in seen:
            continue
        lo = sp.sympify(lo)
        if relevant is not None and (hi not in relevant or not lo.free_symbols <= relevant):
            continue
        seen.add(hi)
        if relevant is not None:
            relevant |= lo.free_symbols
        # integer only when both ends are: `integer=False` would declare s a non-integer, which excludes the
        # integers from the range: (s - 4)**2 > 0 holds for every non-integer s, not for every s >= 0
        kind = {"integer": True} if hi.is_integer and lo.is_integer else {}
        s = sp.Dummy(f"s_{i}_{hi.name}", nonnegative=True, **kind)
        steps.append((hi, lo + s))
        names.append(f"{sp.sstr(hi)} = {sp.sstr(lo)} + {s.name}")
    return steps, names


def _apply(expr, steps):
    for sym, value in steps:
        expr = expr.subs(sym, value)
    return expr


def prove_nonnegative(expr: sp.Expr, order=None) -> Proof:
    """Prove ``expr >= 0`` for all values allowed by the symbols' assumptions
    and the ordered pairs ``order`` (``[(a, b), ...]`` meaning ``a <= b``)."""
    return _prove_sign(expr, order, strict=False)


def prove_positive(expr: sp.Expr, order=None) -> Proof:
    """Prove ``expr > 0`` (as :func:`prove_nonnegative`, strictly)."""
    return _prove_sign(expr, order, strict=True)


def _prove_sign(expr, order, strict: bool) -> Proof:
    rel = "> 0" if strict else ">= 0"
    return _bounded(lambda: _prove_sign_unbounded(expr, order, strict), f"no proof that the expression is {rel}")


def _prove_sign_unbounded(expr, order, strict: bool) -> Proof:
    expr = exact(sp.sympify(expr).doit())
    order = [(exact(a), exact(b)) for a, b in (order or ())]  # float bounds are exact binary numbers, too
    rel = "> 0" if strict else ">= 0"
    if not _finite(expr):
        return Proof(False, "the expression involves an infinite or undefined value")
    expr, replaced = _positive_atoms(expr, order, at_least_one=True)
    atoms = f" (with {', '.join(replaced)} >= 1, integer arguments in range)" if replaced else ""
    attempts = [(expr, [])]
    # Min, Max, Abs and Piecewise are evaluated again by every rewrite, with SymPy's sign of their arguments, which
    # is wrong for some expressions in rational symbols (Max(1, 1/(k + s)) became 1/(k + s)): such an expression
    # is judged as written only
    selectors = expr.atoms(sp.Min, sp.Max, sp.Abs, sp.Piecewise) and any(x.is_rational for x in expr.free_symbols)
    for numeric_upper in (False, True):
        subs, names = _order_substitutions(order, numeric_upper, expr.free_symbols)
        if subs and not selectors:
            attempts.append((_apply(expr, subs), names))
    tried = set()
    for form, names in attempts:
        if form in tried:
            continue
        tried.add(form)
        cands = (lambda: form,) if selectors else (lambda: form, lambda: sp.expand(form)) if heavy(form) else (
            lambda: form, lambda: sp.expand_log(form, force=False), lambda: sp.factor(sp.together(form)),
            lambda: sp.expand(form), lambda: sp.simplify(form))
        for make in cands:
            if _sign(make(), strict):
                via = f" after substituting {', '.join(names)}" if names else ""
                return Proof(True, f"every part of the difference has a known sign{via}{atoms}, so the difference "
                                   f"is {rel}")
    return Proof(False, f"no sign rule shows the expression is {rel}")


TRUSTED_SIGNS = (sp.exp, sp.log, sp.Abs)  # functions whose SymPy sign assumptions _sign relies on


def _sign(e: sp.Expr, strict: bool, depth: int = 0) -> bool:
    """Structural sign proof: True if ``e > 0`` (strict) or ``e >= 0``.

    Rewrites of a sum (merging logarithms, combining over a common
    denominator, collecting terms) are tried only near the top of the
    expression, which keeps the search linear in its size.
    """
    if e.has(sp.I, sp.zoo, sp.nan):  # a complex or undefined value has no sign (even powers and exp included)
        return False
    # SymPy's own sign, for expressions of functions whose assumptions are vetted (atan(n).is_positive is True for
    # an integer n that may be 0: SymPy 1.14 takes "not rational" for "not zero")
    trusted = not any(isinstance(f, sp.Function) and not isinstance(f, TRUSTED_SIGNS) for f in e.atoms(sp.Function))
    # nor with a reciprocal (a power not known nonnegative) of an expression in integer symbols: SymPy 1.14 gives
    # (1/(k + s) - 1).is_nonnegative = True for integers k >= 1, s >= 0 (its monotonic-sign shortcut takes the
    # value at the lower end for the least), and log(k/n) >= 0 would follow from it
    trusted = trusted and not any(p.exp.is_nonnegative is not True and any(x.is_rational for x in p.base.free_symbols)
                                  for p in e.atoms(sp.Pow))  # (rational symbols too: the shortcut needs only that)
    if trusted and strict and e.is_positive is True:
        return True
    if trusted and not strict and e.is_nonnegative is True:
        return True
    if e.is_Number:
        if not e.is_finite:
            return False
        return bool(e > 0) if strict else bool(e >= 0)
    sub = depth + 1
    if e.is_Add:
        terms = e.args
        if all(_sign(t, False, sub) for t in terms):
            return not strict or any(_sign(t, True, sub) for t in terms)
        if depth > 2:
            return False
        if e.has(sp.log):
            merged = sp.logcombine(e, force=False)
            if merged != e and (not merged.is_Add or len(merged.args) < len(terms)) and _sign(merged, strict, sub):
                return True
        if heavy(e):
            return False
        combined = sp.factor(sp.together(e))
        if combined != e and not combined.is_Add and _sign(combined, strict, sub):
            return True
        syms_sorted = sorted(e.free_symbols, key=sp.default_sort_key)
        collected = sp.collect(sp.expand(e), syms_sorted)
        if collected != e and collected.is_Add and all(_sign(t, False, sub) for t in collected.args):
            return not strict or any(_sign(t, True, sub) for t in collected.args)
        # combine only the rational part; keep roots, logs, ... as separate terms
        syms = list(e.free_symbols)
        rational = [t for t in terms if t.is_rational_function(*syms)]
        other = [t for t in terms if not t.is_rational_function(*syms)]
        if rational and other:
            part = sp.factor(sp.together(sp.Add(*rational)))
            if _sign(part, False, sub) and all(_sign(t, False, sub) for t in other):
                return not strict or _sign(part, True, sub) or any(_sign(t, True, sub) for t in other)
        return False
    if e.is_Mul:
        coeff, rest = e.as_coeff_Mul()
        factors = sp.Mul.make_args(rest)
        if coeff.is_negative:
            # absorb the sign into one factor: -log(x) = log(1/x), -(a + b) = (-a - b)
            for i, f in enumerate(factors):
                if isinstance(f, sp.log):
                    flipped = sp.log(1 / f.args[0])
                elif f.is_Add:
                    flipped = sp.Add(*[-t for t in f.args])
                else:
                    continue
                others = factors[:i] + factors[i + 1:]
                if _sign(sp.Mul(-coeff, flipped, *others, evaluate=False), strict, sub):
                    return True
            return False
        if strict:
            return coeff.is_positive is not False and all(_sign(f, True, sub) for f in factors)
        return all(_sign(f, False, sub) for f in factors)
    if e.is_Pow:
        base, exp = e.args
        if exp.is_integer and exp.is_even:
            # a square of a real number: sqrt(-1)**2 = -1 is why the base must be known real
            if strict:
                return _sign(base, True, sub) or _neg(base)
            return base.is_extended_real is True or _sign(base, False, sub) or _neg(base)
        if exp.is_extended_real is not True:  # 2**(I*t) = cos(t log 2) + I sin(t log 2) has no sign
            return False
        if _sign(base, True, sub):
            return True
        if not strict and _sign(base, False, sub) and exp.is_positive:
            return True
        return False
    if isinstance(e, sp.log):
        a = e.args[0]
        if a.is_Pow and not a.exp.is_Integer and _sign(a.base, True, sub):  # log(x^c) = c log(x), x > 0
            if _sign(a.exp, True, sub):
                return _sign(a.base - 1, strict, 0)
            if _sign(-a.exp, True, sub):
                return _sign(1 - a.base, strict, 0)
        return _sign(a - 1, strict, 0)  # a fresh, usually small, problem
    if isinstance(e, sp.exp):
        return e.args[0].is_extended_real is True  # exp(I y) = cos y + I sin y has no sign
    # binomial/factorial: only the valid ones have a sign, and those were replaced by 1 + s before
    return False


def _neg(e: sp.Expr) -> bool:
    return _sign(-e, True)
