"""Imports that every forked worker would otherwise repeat, done once in the parent.

The auditor evaluates claims and draws plots in forked worker processes
(:func:`pysym.audit.budget.run_many`).  A worker starts with every module its
parent had imported; what it imports itself is lost when it exits, and the
next worker imports it again.  NumPy's lazily loaded submodules (which
``lambdify`` pulls in with ``from numpy import *``), lambdify's module
namespaces and matplotlib cost up to about a second of CPU time per worker, and
``moe-theory audit`` starts two workers for the claims and two for the plots
(a process that audits several times, a notebook or the test suite, starts
two more each time).  :func:`numeric` and :func:`plotting` import them once,
in the parent, just before it forks.

Only imports happen here: nothing is computed that a verdict could depend on
(SymPy's caches are not warmed), so the outcomes are the same with or without
them; only the CPU time the workers spend changes.  Each function does its
work once per process.  :func:`plotting` does not choose a matplotlib backend
(the workers choose ``Agg`` themselves), so a notebook that audits keeps its
own.
"""

from __future__ import annotations

import functools
import importlib

__all__ = ["numeric", "plotting"]


@functools.cache
def numeric() -> None:
    """What evaluating claims imports: lambdify's namespaces for the modules
    the auditor evaluates with (``numpy`` brings all of NumPy's lazy submodules)."""
    import sympy as sp

    x = sp.Symbol("x")
    for modules in ("numpy", "mpmath", "math"):
        sp.lambdify([x], x, modules=modules)


@functools.cache
def plotting() -> None:
    """What drawing the audit's plots imports (without choosing a backend)."""
    numeric()
    for module in ("matplotlib.figure", "matplotlib.backends.backend_agg", "matplotlib.pyplot"):
        importlib.import_module(module)
