"""Red team for the auditor, a fourth round: exact `at` values that 50 digits represent exactly (2**200, 2, 1)
but whose arithmetic they do not, and repeated printed numbers in an existence claim.

Each test plants a claims file that used to get a confidently wrong verdict and asserts that the verdict is
now right or honestly inconclusive.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from pysym.audit import load_claims_file
from pysym.audit.engine import evaluate
from pysym.audit.errors import AuditInputError

HEADER = '''
[paper]
id = "red4"
title = "red team, round 4"

[symbols]
N = { description = "parameters", range = [1, 1e300] }
x = { description = "x", range = [1, 10] }
'''


def _claim(cid: str, kind: str, **fields) -> str:
    lines = ["[[claim]]", f'id = "{cid}"', f'kind = "{kind}"', 'quote = "q"', 'where = "w"', 'expected = "holds"']
    lines += [f"{key} = {val}" for key, val in fields.items()]
    return "\n".join(lines) + "\n\n"


def _verdicts(tmp_path: Path, body: str, header: str = HEADER) -> dict:
    path = tmp_path / "red4.toml"
    path.write_text(textwrap.dedent(header) + "\n" + body, encoding="utf-8")
    cf = load_claims_file(path)
    assert not cf.errors, cf.errors
    return {c.id: evaluate(cf, c) for c in cf.claims}


def test_an_exact_at_value_is_not_computed_with_in_50_digits(tmp_path):
    # 1 + 1/N at N = 2**200 is 1 + 6.2e-61 (50-digit arithmetic gave 1.0: `<= 1` held); log(x) at x = 2 is log(2)
    # exactly (50 digits made one side smaller: `<` held); (x + 10**-60)**2 - x**2 at x = 1 is 2e-60 (`== 0` held)
    v = _verdicts(tmp_path, "".join([
        _claim("at-most-one", "value", quantity='"1 + 1/N"', claimed=1, rel='"<="', at='{ N = "2**200" }'),
        _claim("above-one", "value", quantity='"1 + 1/N"', claimed=1, rel='">"', at='{ N = "2**200" }'),
        _claim("log-below", "value", quantity='"log(x)"', claimed='"log(2)"', rel='"<"', at="{ x = 2 }"),
        _claim("log-above", "value", quantity='"log(x)"', claimed='"log(2)"', rel='">"', at="{ x = 2 }"),
        _claim("log-zero", "value", quantity='"log(x) - log(2)"', claimed=0, at="{ x = 2 }"),
        _claim("cancel-zero", "value", quantity='"(x + 1/10**60)**2 - x**2"', claimed=0, at="{ x = 1 }"),
    ]))
    got = {k: o.verdict for k, o in v.items()}
    assert got == {"at-most-one": "fails", "above-one": "holds", "log-below": "fails", "log-above": "fails",
                   "log-zero": "holds", "cancel-zero": "fails"}, {k: o.summary for k, o in v.items()}
    assert "derived 0.0 = claimed 0.0" in v["log-zero"].summary  # proved equal: shown alike, not as 5e-166


def test_a_symbol_named_e_is_not_eulers_number_where_the_law_is_evaluated(tmp_path):
    # E + e/2 <= 2e fails at e = 1 (3.22 > 2): the compiled sides computed e + e/2, which holds
    v = _verdicts(tmp_path, _claim("e-shadow", "inequality", lhs='"E + e/2"', rel='"<="', rhs='"2*e"'),
                  header=HEADER.replace('x = { description = "x", range = [1, 10] }',
                                        'e = { description = "a number", range = [1, 2] }'))
    assert v["e-shadow"].verdict == "fails", v["e-shadow"].summary
    assert "left side 3.218281828" in v["e-shadow"].summary


def test_a_claims_range_keeps_the_sign_only_by_the_provers_rules(tmp_path):
    # y is nonnegative in [symbols]; a claim's range from 1/(k + s) - 1 (SymPy: nonnegative for integers k >= 1,
    # s >= 0; -1/2 at k = 2, s = 0) would let y be negative while it is a nonnegative symbol
    header = HEADER + '''k = { description = "k", range = [1, 10], integer = true }
s = { description = "s", range = [0, 10], integer = true }
y = { description = "y", range = [0, 10] }
'''
    path = tmp_path / "red4.toml"
    path.write_text(textwrap.dedent(header) + "\n" + _claim("y-range", "inequality", lhs='"0"', rel='"<="', rhs='"y"',
                                                            region='{ y = ["1/(k + s) - 1", 10] }'), encoding="utf-8")
    cf = load_claims_file(path)
    assert not cf.errors, cf.errors
    with pytest.raises(AuditInputError, match="does not keep y nonnegative"):
        evaluate(cf, cf.claims[0])


def test_a_literal_printed_twice_in_an_existence_claim_is_decided_both_ways(tmp_path):
    # each `0.34` is its own quantity: 0.34 - 0.34 == 0.005 "holds" for two quantities in [0.335, 0.345], and
    # fails if the paper's two 0.34 are one; named constants say which reading is meant
    header = HEADER + '''
[constants]
a = "0.34"
b = "0.34"
'''
    v = _verdicts(tmp_path, "".join([
        _claim("repeat", "consistent", statement='"0.34 - 0.34 == 0.005"'),
        _claim("named-two", "consistent", statement='"a - b == 0.005"'),
        _claim("named-one", "consistent", statement='"a - a == 0.005"'),
        _claim("repeat-both", "consistent", statement='"0.34 + 0.34 == 0.68"'),
    ]), header=header)
    got = {k: o.verdict for k, o in v.items()}
    assert got == {"repeat": "inconclusive", "named-two": "holds", "named-one": "fails", "repeat-both": "holds"}, got
    assert "repeats the printed number `0.34` (2 times)" in v["repeat"].summary
