"""The convexity step of argmin trends (``pysym.audit.trend._positive``):
decided without a CPU-time limit wherever interval arithmetic decides, so the
outcome is the same on every machine and can be cached.

``d2L/dx2 > 0`` is proved by branch and bound over numeric ranges; it is
refuted by one admissible point where ``<= 0`` is proved (a point of that
search, or a seeded sample of the claim's configurations); only what neither
decides goes to SymPy's prover under its CPU-time limit."""

from __future__ import annotations

import sympy as sp
import pytest

import pysym.audit.trend as trend
from pysym.audit.argmin import setup
from pysym.audit.schema import load_claims_text

HEADER = """
[paper]
id = "t"
title = "T"

[symbols]
c = { description = "a location", range = [0, 2] }
k = { description = "an integer", range = [1, 9], integer = true }
x = { description = "the minimized variable", range = [1, 10] }
"""


def argmin_of(over: str = "[1, 10]", law: str = "(x - c)**2"):
    text = HEADER + f"""
[[claim]]
id = "t"
kind = "sign"
quote = "..."
where = "..."
expected = "holds"
law = "{law}"
argmin = "x"
over = {over}
param = "c"
sign = "nonnegative"
"""
    cf = load_claims_text(text, "t.toml")
    assert not cf.errors, cf.errors
    return setup(cf, cf.claims[0])


@pytest.fixture
def no_sympy(monkeypatch):
    """SymPy's prover (the CPU-time-limited step) must not be reached."""
    calls = []
    monkeypatch.setattr(trend, "attempt", lambda *a, **k: calls.append(a) or False)
    return calls


def test_positive_over_numeric_ranges_is_proved_by_intervals(no_sympy):
    a = argmin_of()
    assert trend._positive(a.v ** 2 + 1, a) is True
    assert not no_sympy


def test_negative_somewhere_is_refuted_without_the_prover(no_sympy):
    a = argmin_of()
    x = [s for s in a.law.free_symbols if s.name == "x"][0]
    c = [s for s in a.law.free_symbols if s.name == "c"][0]
    assert trend._positive((x - 5) * (c + 1), a) is False  # negative for x < 5
    assert not no_sympy


def test_a_symbolic_range_is_refuted_at_a_seeded_sample(no_sympy):
    a = argmin_of(over='["c + 1", "c + 5"]')
    x = a.v
    c = [s for s in a.others if s.name == "c"][0]
    assert trend._positive(c + 3 - x, a) is False  # x > c + 3 on part of every range
    assert not no_sympy


def test_a_witness_off_the_integers_refutes_nothing(monkeypatch):
    # k is an integer symbol: (k - 5/2)**2 - 1/8 is negative only between the integers 2 and 3, so no admissible
    # point refutes it: it is proved positive, or left to the prover, never refuted by that witness
    a = argmin_of(law="(x - c)**2 + k")
    k = [s for s in a.others if s.name == "k"][0]
    box = [trend.Var(k, trend.fraction(1), trend.fraction(9), True)]
    assert trend._admissible({k: trend.fraction(sp.Rational(5, 2))}, box) is False
    assert trend._admissible({k: trend.fraction(3)}, box) is True
    asked = []
    monkeypatch.setattr(trend, "attempt", lambda *args, **kw: asked.append(args) or False)
    got = trend._positive((k - sp.Rational(5, 2)) ** 2 - sp.Rational(1, 8), a)
    assert got is True or asked
