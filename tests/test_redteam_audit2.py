"""Red team for the auditor, a later round: exact comparisons, proved counterexamples, integer ranges,
continuity for intermediate values, the compute-optimal engine's shape, and proved condition splits.

Each test plants a claims file that used to get a confidently wrong verdict (a false `holds`, a wrong
`fails`, a sampled `conditional`) and asserts that the verdict is now right or honestly inconclusive.
"""

from __future__ import annotations

import textwrap
from fractions import Fraction
from pathlib import Path

import sympy as sp

from pysym.audit import load_claims_file
from pysym.audit.boxes import Var, decide
from pysym.audit.existence import continuous_form, exists
from pysym.audit.engine import evaluate
from pysym.audit.schema import AuditInputError


def _write(tmp_path: Path, body: str, name: str = "red2.toml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(body), encoding="utf-8")
    return path


def _verdicts(path: Path) -> dict:
    cf = load_claims_file(path)
    assert not cf.errors, cf.errors
    return {c.id: evaluate(cf, c) for c in cf.claims}


HEAD = '''
[paper]
id = "red2"
title = "Red team 2"

[symbols]
x = { description = "dummy", range = [1, 2] }
'''


# ------------------------------------------------------------------ 1. the compute-optimal engine's shape

def test_the_asymptotic_engine_refuses_a_law_with_a_negative_coefficient(tmp_path, monkeypatch):
    # L = 1 + 4/N^(1/2) - 1/N^(1/4) + 1/D^(1/4): the -1/N^(1/4) term is not a penalty, so the smallest
    # exponent does not dominate (N* tends to 4096, exponent 0); the engine used to say 1/2.  (SymPy's solve finds
    # no closed form for its minimizer, within 20 CPU seconds or 1: the test gives it 1; the claims run in forks
    # of this process, which see the patch.)
    import functools

    import pysym.audit.kinds.exponent as exponent
    from pysym.audit.scaling import stationary_minimum

    monkeypatch.setattr(exponent, "stationary_minimum", functools.partial(stationary_minimum, budget=1))
    path = _write(tmp_path, '''
        [paper]
        id = "asym"
        title = "t"
        [symbols]
        N = { description = "parameters", range = [1, 1e13] }
        D = { description = "tokens", range = [1, 1e14] }
        C = { description = "FLOPs", range = [1e3, 1e26] }
        [laws]
        L = "1 + 4/N**(1/2) - 1/N**(1/4) + 1/D**(1/4)"
        [[claim]]
        id = "half"
        kind = "exponent"
        quote = "q"
        where = "w"
        expected = "fails"
        law = "L"
        constraint = "C = 6*N*D"
        eliminate = "D"
        minimize = ["N"]
        scale = "C"
        quantity = "N"
        claimed = "1/2"
        [[claim]]
        id = "zero"
        kind = "exponent"
        quote = "q"
        where = "w"
        expected = "holds"
        law = "L"
        constraint = "C = 6*N*D"
        eliminate = "D"
        minimize = ["N"]
        scale = "C"
        quantity = "N"
        claimed = 0
        ''')
    v = _verdicts(path)
    assert v["half"].verdict != "holds", v["half"].summary
    assert v["zero"].verdict != "fails", v["zero"].summary
    for cid in ("half", "zero"):
        assert v[cid].verdict == "inconclusive"
        assert "not proved positive" in v[cid].summary and "-1" in v[cid].summary


# ------------------------------------------------------------------ 2. exact value comparisons

def test_a_value_claim_with_exact_inputs_is_compared_exactly_not_at_30_digits(tmp_path):
    path = _write(tmp_path, HEAD + '''
        [[claim]]
        id = "le"
        kind = "value"
        quote = "q"
        where = "w"
        expected = "fails"
        quantity = "1 + exp(-100)"
        claimed = 1
        rel = "<="
        [[claim]]
        id = "gt"
        kind = "value"
        quote = "q"
        where = "w"
        expected = "holds"
        quantity = "1 + exp(-100)"
        claimed = 1
        rel = ">"
        [[claim]]
        id = "eq0"
        kind = "value"
        quote = "q"
        where = "w"
        expected = "fails"
        quantity = "1 + exp(-100)"
        claimed = 1
        tolerance = 0
        [[claim]]
        id = "same"
        kind = "value"
        quote = "q"
        where = "w"
        expected = "holds"
        quantity = "log(4)"
        claimed = "2*log(2)"
        tolerance = 0
        ''')
    v = _verdicts(path)
    assert {k: o.verdict for k, o in v.items()} == {"le": "fails", "gt": "holds", "eq0": "fails", "same": "holds"}
    assert "3.72e-44" in v["eq0"].summary


# ------------------------------------------------------------------ 3. proved counterexamples

def test_a_counterexample_must_be_proved_not_seen_at_50_digits(tmp_path):
    path = _write(tmp_path, HEAD + '''
        [[claim]]
        id = "lt-tiny"
        kind = "inequality"
        quote = "q"
        where = "w"
        expected = "holds"
        lhs = "x"
        rel = "<"
        rhs = "x + exp(-200)"
        [[claim]]
        id = "lt-const"
        kind = "inequality"
        quote = "q"
        where = "w"
        expected = "holds"
        lhs = "1"
        rel = "<"
        rhs = "1 + exp(-200)"
        [[claim]]
        id = "really-fails"
        kind = "inequality"
        quote = "q"
        where = "w"
        expected = "fails"
        lhs = "x + exp(-200)"
        rel = "<="
        rhs = "x"
        ''')
    v = _verdicts(path)
    assert v["lt-tiny"].verdict != "fails", v["lt-tiny"].summary
    assert v["lt-const"].verdict != "fails", v["lt-const"].summary
    assert v["really-fails"].verdict == "fails", v["really-fails"].summary


def test_a_one_sided_exponent_is_not_refuted_by_rounding(tmp_path):
    # the derived exponent 1/2 + exp(-200) exceeds 1/2: at 50 digits the two print equal
    path = _write(tmp_path, HEAD.replace('x = { description = "dummy", range = [1, 2] }',
                                         'N = { description = "p", range = [1, 1e6] }\n'
                                         'n = { description = "s", range = [1, 1e6] }') + '''
        [[claim]]
        id = "one-sided"
        kind = "exponent"
        quote = "q"
        where = "w"
        expected = "holds"
        law = "N**(-exact(1)) + N/n**(1 + 2*exp(-200))"
        minimize = ["N"]
        scale = "n"
        quantity = "N"
        claimed = "1/2"
        rel = ">"
        ''')
    o = _verdicts(path)["one-sided"]
    assert o.verdict != "fails", o.summary


# ------------------------------------------------------------------ 4. integer symbols

def test_an_integer_symbols_range_is_the_integers_inside_it(tmp_path):
    path = _write(tmp_path, '''
        [paper]
        id = "int"
        title = "t"
        [symbols]
        n = { description = "count", range = [1.5, 10], integer = true }
        [[claim]]
        id = "c1"
        kind = "inequality"
        quote = "q"
        where = "w"
        expected = "holds"
        lhs = "n"
        rel = ">="
        rhs = "1.9"
        [[claim]]
        id = "c2"
        kind = "inequality"
        quote = "q"
        where = "w"
        expected = "holds"
        lhs = "n"
        rel = ">="
        rhs = "2"
        region = { n = [1.5, 3.5] }
        ''')
    cf = load_claims_file(path)
    assert (cf.symbols["n"].low, cf.symbols["n"].high) == (2, 10)
    v = _verdicts(path)
    assert v["c1"].verdict == "holds", v["c1"].summary
    assert v["c2"].verdict == "holds", v["c2"].summary


def test_an_integer_range_without_an_integer_is_an_input_error(tmp_path):
    path = _write(tmp_path, '''
        [paper]
        id = "int"
        title = "t"
        [symbols]
        n = { description = "count", range = [1.2, 1.8], integer = true }
        ''')
    try:
        load_claims_file(path)
    except AuditInputError as exc:
        assert "contains no integer" in str(exc)
    else:
        raise AssertionError("an integer symbol with no integer in its range was accepted")


def test_integer_boxes_never_have_non_integer_ends_or_witnesses_outside():
    n = sp.Symbol("n", integer=True, positive=True)
    v = Var(n, Fraction(6, 5), Fraction(14, 5), True)
    assert (v.lo, v.hi) == (2, 2)
    d = decide([(3 - 2 * n, ">")], [v])
    assert d.status == "none"
    # a witness point outside the box is never taken, even if offered
    d = decide([(3 - 2 * n, ">")], [v], first={n: Fraction(1)})
    assert d.satisfied is None


# ------------------------------------------------------------------ 5. existence claims

CONSIST = '''
[paper]
id = "consist"
title = "t"
[symbols]
x = { description = "real", range = [0, 2] }
y = { description = "real", range = [0, 2] }
n = { description = "integer", range = [1, 3], integer = true }
'''


def test_intermediate_values_need_continuity_by_an_allow_list(tmp_path):
    path = _write(tmp_path, CONSIST + '''
        [[claim]]
        id = "ivt-sign"
        kind = "consistent"
        quote = "q"
        where = "w"
        expected = "fails"
        statement = "diff(Abs(x - 1), x) + 1/2 == 0"
        over = { x = [0.5, 2] }
        [[claim]]
        id = "ivt-pole"
        kind = "consistent"
        quote = "q"
        where = "w"
        expected = "fails"
        statement = ["y >= 0", "1/(x - 1) == 0"]
        over = { x = [0, 2], y = [0, 2] }
        [[claim]]
        id = "ivt-continuous"
        kind = "consistent"
        quote = "q"
        where = "w"
        expected = "holds"
        statement = "exp(x) - 3 == 0"
        over = { x = [0, 2] }
        ''')
    v = _verdicts(path)
    assert v["ivt-sign"].verdict == "inconclusive" and "not continuous" in v["ivt-sign"].summary
    assert v["ivt-pole"].verdict == "inconclusive" and "not defined on every part" in v["ivt-pole"].summary
    assert "internal error" not in v["ivt-pole"].summary
    assert v["ivt-continuous"].verdict == "holds", v["ivt-continuous"].summary
    x = sp.Symbol("x", real=True)
    assert not continuous_form(sp.sign(x)) and not continuous_form(sp.Heaviside(x)) and not continuous_form(sp.floor(x))
    assert not continuous_form(sp.Piecewise((x, x > 0), (0, True)))
    assert continuous_form(sp.Max(x, 1) * sp.log(x + 3))


def test_an_integer_witness_lies_in_its_box(tmp_path):
    path = _write(tmp_path, CONSIST + '''
        [[claim]]
        id = "int-witness"
        kind = "consistent"
        quote = "q"
        where = "w"
        expected = "fails"
        statement = "2*n < 3"
        over = { n = [1.2, 2.8] }
        ''')
    o = _verdicts(path)["int-witness"]
    assert o.verdict == "fails", o.summary


def test_exists_across_a_pole_is_never_all():
    x, y = sp.symbols("x y", nonnegative=True)
    d = exists([(y, ">="), (1 / (x - 1), "==")], [Var(x, Fraction(0), Fraction(2)), Var(y, Fraction(0), Fraction(2))])
    assert d.status != "all"


# ------------------------------------------------------------------ 6. condition splits

def test_a_sampled_condition_split_is_never_conditional(tmp_path):
    path = _write(tmp_path, '''
        [paper]
        id = "cond"
        title = "t"
        [symbols]
        x = { description = "dummy", range = [1, 10] }
        [[claim]]
        id = "sliver"
        kind = "inequality"
        quote = "q"
        where = "w"
        expected = "fails"
        lhs = "(x - 3)*((x - 7)**2 - 10**(-20))"
        rel = ">="
        rhs = "0"
        condition = "x >= 3"
        [[claim]]
        id = "proved"
        kind = "inequality"
        quote = "q"
        where = "w"
        expected = "conditional"
        lhs = "x**2"
        rel = ">="
        rhs = "3*x"
        condition = "x >= 3"
        ''')
    v = _verdicts(path)
    assert v["sliver"].verdict in ("fails", "inconclusive"), v["sliver"].summary
    assert v["proved"].verdict == "conditional" and "proved" in v["proved"].summary


def test_a_split_that_cannot_be_proved_is_inconclusive_with_the_sampled_evidence(tmp_path):
    # exp(x) >= exp(3) exactly when x >= 3 is true, but the two boundaries coincide (no box resolves x = 3)
    # and no positive factor is proved: the sampled agreement alone must not give `conditional`
    path = _write(tmp_path, '''
        [paper]
        id = "cond2"
        title = "t"
        [symbols]
        x = { description = "dummy", range = [1, 10] }
        [[claim]]
        id = "unproved"
        kind = "inequality"
        quote = "q"
        where = "w"
        expected = "inconclusive"
        lhs = "exp(x)"
        rel = ">="
        rhs = "exp(3)"
        condition = "x >= 3"
        ''')
    o = _verdicts(path)["unproved"]
    assert o.verdict == "inconclusive", o.summary
    assert "400 sampled points" in o.summary and "not proved" in o.summary


# ------------------------------------------------------------------ a second round (match, independence, sign, exponent)



def test_a_match_with_a_target_the_law_never_reaches_is_not_derived(tmp_path):
    # 2 + 1/sqrt(n) > 2 never equals 3/2 + 1/10; SymPy's inverse A**2/(T - E)**2 is positive all the same
    path = _write(tmp_path, '''
        [paper]
        id = "m"
        title = "t"
        [symbols]
        n = { description = "scale", range = [1, 1e10] }
        [[claim]]
        id = "unreachable"
        kind = "match"
        quote = "q"
        where = "w"
        expected = "fails"
        law = "2 + 1/sqrt(n)"
        target = "3/2 + 1/sqrt(n)"
        scale = "n"
        at = { n = 100 }
        claimed = "1/16"
        [[claim]]
        id = "reachable"
        kind = "match"
        quote = "q"
        where = "w"
        expected = "holds"
        law = "2 + 1/sqrt(n)"
        target = "2 + 2/sqrt(n)"
        scale = "n"
        at = { n = 100 }
        claimed = "1/4"
        ''')
    v = _verdicts(path)
    assert v["unreachable"].verdict == "inconclusive" and "may never reach it" in v["unreachable"].summary
    assert v["reachable"].verdict == "holds", v["reachable"].summary


def test_a_unique_interior_minimum_in_two_variables_is_not_the_minimum_of_the_box(tmp_path):
    # x**2 + y**2 (1 - x)**3: one stationary point, a strict local minimum at 0, yet f(c, 3) = c**2 + 9 (1 - c)**3 < 0
    path = _write(tmp_path, '''
        [paper]
        id = "i"
        title = "t"
        [symbols]
        c = { description = "c", range = [3, 4] }
        x = { description = "x", range = [-1, 10] }
        y = { description = "y", range = [-3, 3] }
        [[claim]]
        id = "boundary"
        kind = "independence"
        quote = "q"
        where = "w"
        expected = "fails"
        law = "x**2 + y**2*(1 - x)**3"
        argmin = ["x", "y"]
        over = { x = [-1, "c"], y = [-3, 3] }
        of = ["c"]
        ''')
    assert _verdicts(path)["boundary"].verdict != "holds"


def test_an_interior_sign_with_no_interior_minimum_is_not_evidence_against_the_claim(tmp_path):
    # law x over [c/log(c + 1), 1000]: the minimizer is the lower end, increasing in c; L_xc = 0 "proves" an
    # interior x* that does not move, but there is no interior minimum
    path = _write(tmp_path, '''
        [paper]
        id = "s"
        title = "t"
        [symbols]
        c = { description = "c", range = [2, 10] }
        x = { description = "x", range = [0.01, 100000] }
        [[claim]]
        id = "end"
        kind = "sign"
        quote = "q"
        where = "w"
        expected = "holds"
        law = "x"
        argmin = "x"
        over = ["c/log(c + 1)", 1000]
        param = "c"
        sign = "positive"
        ''')
    o = _verdicts(path)["end"]
    assert o.verdict not in ("fails", "conditional"), o.summary


def test_symbolic_exponents_that_differ_only_by_rounding_do_not_fail(tmp_path):
    # sqrt(a + 2 sqrt(a) + 1) - sqrt(a) = 1 exactly; at a = 1e120 with 50 digits it evaluates to 0
    path = _write(tmp_path, '''
        [paper]
        id = "e"
        title = "t"
        [symbols]
        a = { description = "a", range = [1e120, 1e130] }
        C = { description = "compute", range = [1e15, 1e26] }
        [[claim]]
        id = "rounded"
        kind = "exponent"
        quote = "q"
        where = "w"
        expected = "holds"
        law = "C"
        scale = "C"
        quantity = "C**(sqrt(a + 2*sqrt(a) + 1) - sqrt(a))"
        claimed = 1
        ''')
    o = _verdicts(path)["rounded"]
    assert o.verdict == "inconclusive" and "not by a margin proved" in o.summary, o.summary
