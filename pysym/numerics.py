"""The global numeric settings every verdict and verification runs under.

python-flint's working precision and thread count, mpmath's precision and
complex trapping, SymPy's global evaluation switches, the generator that orders
its assumption checks, and its printers' global settings (``init_printing(order=...)`` changes every ``sstr`` and
``lambdify``), and the standard ``decimal`` context are process-wide, so a
program that changed one of them (a notebook that raised ``flint.ctx.prec``)
would otherwise change what the auditor or a derivation computes, and a
cached result would differ from a fresh one computed under the defaults
(more flint threads also deadlocked forked workers).  :func:`standard` sets each to its default for the duration of
a computation and restores the caller's afterwards.

>>> import mpmath
>>> mpmath.mp.dps = 5
>>> with standard():
...     mpmath.mp.dps
15
>>> mpmath.mp.dps
5
>>> mpmath.mp.dps = 15
"""

from __future__ import annotations

import decimal
from contextlib import contextmanager

__all__ = ["standard", "compiled"]


@contextmanager
def standard():
    """Run the block under the default numeric settings (restored afterwards)."""
    import mpmath
    from sympy.core.parameters import global_parameters

    try:
        from flint import ctx as flint_ctx
    except ImportError:  # python-flint is optional for the derivations
        flint_ctx = None
    from sympy.printing.printer import Printer

    saved_flint = None if flint_ctx is None else (flint_ctx.prec, flint_ctx.pretty, flint_ctx.cap, flint_ctx.threads)
    saved_printing = dict(Printer._global_settings)
    saved_mp = (mpmath.mp.prec, mpmath.mp.trap_complex)
    saved_sympy = (global_parameters.evaluate, global_parameters.distribute, global_parameters.exp_is_pow)
    saved_decimal = decimal.getcontext()
    # SymPy shuffles the order in which its assumptions system checks related facts, with a generator it never
    # seeds: seeded here, so that a handler whose answer depends on the order answers alike in every run
    try:
        from sympy.core.random import _assumptions_rng as assumptions_rng
    except ImportError:  # another SymPy: no such generator
        assumptions_rng = None
    saved_rng = None if assumptions_rng is None else assumptions_rng.getstate()
    try:
        if assumptions_rng is not None:
            assumptions_rng.seed(20261127)
        if flint_ctx is not None:
            flint_ctx.prec, flint_ctx.pretty, flint_ctx.cap, flint_ctx.threads = 53, True, 10, 1
        Printer._global_settings.clear()
        mpmath.mp.prec = 53
        mpmath.mp.trap_complex = False
        global_parameters.evaluate = True
        global_parameters.distribute = True
        global_parameters.exp_is_pow = False
        decimal.setcontext(decimal.Context())
        yield
    finally:
        if flint_ctx is not None:
            flint_ctx.prec, flint_ctx.pretty, flint_ctx.cap, flint_ctx.threads = saved_flint
        Printer._global_settings.clear()
        Printer._global_settings.update(saved_printing)
        mpmath.mp.prec, mpmath.mp.trap_complex = saved_mp
        global_parameters.evaluate, global_parameters.distribute, global_parameters.exp_is_pow = saved_sympy
        decimal.setcontext(saved_decimal)
        if assumptions_rng is not None:
            assumptions_rng.setstate(saved_rng)


def compiled(args, expr, modules: str):
    """``sympy.lambdify(args, expr, modules=modules)``, with every argument renamed first.

    lambdify names the function's arguments after the symbols and puts each symbol into the function's
    namespace under its name, so a symbol named like what the printer writes for a constant or a function
    (``e``, ``pi``, ``euler``, ``phi``, ``log``, ``mpf``) would take its place: ``E + e/2`` would be computed
    as ``e + e/2``.  The arguments are renamed to names no printer writes (with the same assumptions, so the
    expression is the same):

    >>> import sympy as sp
    >>> e = sp.Symbol("e", positive=True)
    >>> float(compiled([e], sp.E + e / 2, "mpmath")(1))
    3.218281828459045
    """
    import sympy as sp

    single = isinstance(args, sp.Basic)
    originals = [args] if single else list(args)
    renamed = [sp.Symbol(f"_moe_arg{i}", **getattr(a, "assumptions0", {})) for i, a in enumerate(originals)]
    body = sp.sympify(expr).xreplace(dict(zip(originals, renamed)))
    return sp.lambdify(renamed[0] if single else renamed, body, modules=modules)

