"""Where an expression is defined: the allow-list a proved step's expressions must pass (an identity's sides,
a proved bound and its weights, a limit's value, a stationary point, a premise's relation, a restriction), so
that SymPy, which cancels across a pole (`(x**2 - 1)/(x - 1)` is `x + 1` to it), never proves what is false at
a point of the domain; and the rule that no step differentiates a symbol naming a Lean term.

>>> import sympy as sp
>>> from pysym.derive.derivation import Derivation
>>> from pysym.derive.domain import Var
>>> x = Var("x", 0, 2)
>>> undefined_somewhere(1 / (x.symbol - 1), Derivation("d", "t", vars=[x], steps=[]).scope())
'the denominator `x - 1` is not proved nonzero'
"""

from __future__ import annotations

import sympy as sp

from pysym.derive.domain import finite

__all__ = ["DEFINED_EVERYWHERE", "differentiated_names", "undefined_somewhere"]

DEFINED_EVERYWHERE = (sp.exp, sp.sin, sp.cos, sp.atan, sp.sinh, sp.cosh, sp.tanh, sp.Abs)


def differentiated_names(scope, *exprs) -> str | None:
    """Why a step may not differentiate ``exprs``: they involve symbols naming Lean terms (``None`` if not).  A
    name is an arbitrary real in every proof, but the term it names may vary with the other symbols
    (`(List.replicate T 0).length` is `T`): a derivative would take it for a constant."""
    marks = set(scope.names) | set(scope.names.values())
    named = sorted({str(x) for e in exprs for x in sp.sympify(e).free_symbols if x in marks})
    if named:
        return (f"it differentiates {', '.join(named)}, which name{'s' if len(named) == 1 else ''} Lean terms: the "
                "terms may vary with the other symbols, and a name is an arbitrary real")
    return None


def undefined_somewhere(expr, scope) -> str | None:
    """Why ``expr`` may be undefined somewhere on ``scope`` (``None``: defined everywhere), by an allow-list:
    a power whose exponent may be negative needs a base proved nonzero (`b**n` with `n` in [-3, -1] too), a
    logarithm an argument proved nonzero, `binomial` integer arguments; any other function (`tan`, `gamma`:
    poles) is refused."""
    def nonzero(q) -> bool:
        return scope.prove_positive(q).ok or scope.prove_positive(-q).ok

    for sub in sp.preorder_traversal(sp.sympify(expr)):
        if isinstance(sub, sp.Derivative):  # it exists only where what it is taken of is smooth (not |x| at 0)
            named = differentiated_names(scope, sub.expr)
            if named:
                return named
            rough = scope.smooth(sub.expr)
            if rough:
                return f"the derivative `{sp.sstr(sub)}` may not exist: {rough[0]}"
            continue  # (what it is taken of is looked at in turn)
        if isinstance(sub, sp.Subs):  # taken at a point of the domain, where the rest is looked at
            for var, point in zip(sub.variables, sub.point):
                try:
                    lo, hi = scope.range(var)
                except KeyError:
                    continue  # a variable of its own: what it is substituted into is looked at in turn
                if not ((not finite(lo) or scope.prove_nonnegative(point - lo).ok)
                        and (not finite(hi) or scope.prove_nonnegative(hi - point).ok)):
                    return (f"`{sp.sstr(sub)}` is taken at {sp.sstr(var)} = {sp.sstr(point)}, not proved inside "
                            f"the range [{sp.sstr(lo)}, {sp.sstr(hi)}] of {sp.sstr(var)}")
            continue
        if sub.is_Atom or sub.is_Add or sub.is_Mul or isinstance(sub, sp.Tuple):
            continue
        if sub.is_Pow:
            base, e = sub.args
            if e.is_nonnegative is not True and not base.is_number and not nonzero(base):
                return f"the denominator `{sp.sstr(base)}` is not proved nonzero"
        elif isinstance(sub, sp.log):
            if not nonzero(sub.args[0]):
                return f"the argument of `{sp.sstr(sub)}` is not proved nonzero"
        elif isinstance(sub, sp.binomial):  # the combinatorial binomial: SymPy's gamma rewriting holds there only
            if not all(a.is_integer and scope.prove_nonnegative(a).ok for a in sub.args):
                return f"`{sp.sstr(sub)}` has arguments not proved nonnegative integers"
        elif isinstance(sub, sp.factorial):  # the gamma function's poles are at the negative integers
            if not (sub.args[0].is_integer and scope.prove_nonnegative(sub.args[0]).ok):
                return f"`{sp.sstr(sub)}` needs an argument proved a nonnegative integer"
        elif not isinstance(sub, DEFINED_EVERYWHERE):
            return f"`{sp.sstr(sub)}` is not known to be defined everywhere (a function with poles?)"
    return None
