"""Printed precision: what numbers stand for, verdicts over every admissible value, the rounding flag.

Every answer below is known in closed form: the laws are small enough to work out by hand, and each test says
how.  Pure Python (no Lean), no timing assertions.
"""

from __future__ import annotations

import json
import random
import textwrap
from fractions import Fraction

import mpmath
import pytest
import sympy as sp

from pysym.audit import audit
from pysym.audit.engine import evaluate_unbudgeted
from pysym.audit.interval import Iv, compile_expr
from pysym.audit.printed import Printed
from pysym.audit.schema import AuditInputError, load_claims_text


HEADER = """
[paper]
id = "precision"
title = "Printed precision"

[symbols]
x = { description = "a positive real", range = [1, 10] }
y = { description = "another one", range = [1, 10] }
n = { description = "a scale", range = [10, 1000] }
N = { description = "parameters", range = [1e6, 1e13] }
D = { description = "tokens", range = [1e6, 1e14] }
C = { description = "compute", range = [1e15, 1e26] }
"""


def claim(cid: str, kind: str, **fields) -> str:
    lines = ["[[claim]]", f'id = "{cid}"', f'kind = "{kind}"', 'quote = "q"', 'where = "w"', 'expected = "holds"']
    lines += [f"{k} = {v}" for k, v in fields.items()]
    return "\n".join(lines) + "\n\n"


def load(body: str, extra: str = ""):
    cf = load_claims_text(textwrap.dedent(HEADER) + textwrap.dedent(extra) + "\n" + textwrap.dedent(body), "p.toml")
    assert not cf.errors, cf.errors
    return cf


def run(body: str, extra: str = "") -> dict:
    cf = load(body, extra)
    return {c.id: evaluate_unbudgeted(cf, c) for c in cf.claims}


def one(body: str, extra: str = ""):
    (o,) = run(body, extra).values()
    return o


def interval_of(text: str) -> tuple:
    cf = load(claim("c", "value", quantity='"x"', claimed=text, at="{ x = 1 }"))
    v = cf.claims[0].get("claimed")
    if isinstance(v, Printed):
        return v.lo, v.hi
    return v, v


# --------------------------------------------------------------------------- what a number stands for


@pytest.mark.parametrize("text, lo, hi", [
    ('"0.34"', "0.335", "0.345"),
    ('"0.340"', "0.3395", "0.3405"),
    ('"85e9"', "84.5e9", "85.5e9"),
    ('"1.63e-2"', "0.01625", "0.01635"),
    ('"5.28e+16"', "5.275e16", "5.285e16"),
    ('"12."', "11.5", "12.5"),
    ('".5"', "0.45", "0.55"),
    ('"0.34 ± 0.01"', "0.33", "0.35"),
    ('"0.34 +/- 0.01"', "0.33", "0.35"),
    ("[0.454, 0.455]", "0.454", "0.455"),
    ('"[0.454, 0.455]"', "0.454", "0.455"),
    ('"12"', "12", "12"),
    ('"exact(0.34)"', "0.34", "0.34"),
    ("0.34", "0.34", "0.34"),
    ("0.340", "0.34", "0.34"),  # a bare TOML float: its digits are gone, so it is exact
])
def test_a_number_stands_for_its_printed_interval(text, lo, hi):
    assert interval_of(text) == (sp.Rational(lo), sp.Rational(hi))


def test_named_constants_are_one_quantity_and_literals_are_independent():
    extra = '[constants]\nalpha = "0.34"\nbeta = { value = "-7.61e-2", where = "Table 2" }\nk = 6\n'
    got = run(claim("named", "value", quantity='"alpha - alpha"', claimed="0")
              + claim("literals", "value", quantity='"0.34 - 0.34"', claimed="0")
              + claim("negative", "value", quantity='"beta"', claimed="0", rel='"<"')
              + claim("exact", "value", quantity='"k*alpha/alpha"', claimed="6"), extra)
    assert got["named"].verdict == "holds" and got["named"].rounding.status in ("exact", "robust")
    # two printed 0.34 are two quantities: their difference ranges over [-0.01, 0.01]
    assert got["literals"].verdict == "undetermined"
    assert (got["literals"].rounding.low, got["literals"].rounding.high) == ("-0.01", "0.01")
    assert got["negative"].verdict == "holds"
    assert got["exact"].verdict == "holds"


def test_exact_takes_laws_and_constants_at_their_printed_values():
    extra = '[constants]\na = "0.5"\n[laws]\nL = "N**(-a) + N/n"\n'
    cf = load(claim("c", "exponent", law='"exact(L)"', minimize='["N"]', scale='"n"', quantity='"N"',
                    claimed='"2/3"'), extra)
    assert not [p for p in cf.claims[0].get("law").atoms(Printed) if not p.exact]
    assert evaluate_unbudgeted(cf, cf.claims[0]).verdict == "holds"


# --------------------------------------------------------------------------- verdicts over the box


def test_value_holds_fails_and_undetermined_with_the_range():
    # y/x with x = 2.0 and y = 6.0 (each +-0.05): the ratio lies in [5.95/2.05, 6.05/1.95] = [2.9024, 3.1026]
    at = 'at = { x = "2.0", y = "6.0" }'
    body = "".join(claim(cid, "value", quantity='"y/x"', **kw).replace("\n\n", f"\n{at}\n\n") for cid, kw in [
        ("undetermined", dict(claimed='"3.0"')),            # [2.95, 3.05] is straddled
        ("tolerant", dict(claimed='"3.0"', abs_tolerance="0.2")),  # [2.75, 3.25] contains the range
        ("above", dict(claimed="2.5", rel='">"')),
        ("not-above", dict(claimed="3.2", rel='">"')),
        ("far", dict(claimed='"4.0"')),
    ])
    got = run(body)
    assert {k: v.verdict for k, v in got.items()} == {"undetermined": "undetermined", "tolerant": "holds",
                                                      "above": "holds", "not-above": "fails", "far": "fails"}
    r = got["undetermined"].rounding
    assert (r.status, r.low, r.high, r.at_printed) == ("rounding decides", "2.90243", "3.10257", "3")
    assert r.could_flip is True and got["above"].rounding.could_flip is False
    ev = got["undetermined"].evidence
    assert ev["satisfied_at"] and ev["violated_at"]


@pytest.mark.parametrize("x, verdict", [("0.4649", "holds"), ("0.455", "holds"), ("0.46", "holds"),
                                        ("0.4651", "fails"), ("0.4549", "fails")])
def test_the_default_tolerance_is_the_claimed_values_printed_digits(x, verdict):
    # "0.46" accepts [0.455, 0.465]; the quantity is exact (a TOML number)
    assert one(claim("c", "value", quantity='"x/10"', claimed='"0.46"', at=f"{{ x = {float(x) * 10!r} }}")).verdict \
        == verdict


def test_an_exact_claimed_value_keeps_the_tight_default():
    assert one(claim("c", "value", quantity='"x/10"', claimed="0.46", at="{ x = 4.649 }")).verdict == "fails"


def test_exponent_over_the_box_closed_form():
    # N* ~ C^(beta/(alpha + beta)) with alpha = 0.34, beta = 0.28 (each +-0.005):
    # the exponent ranges over [0.275/0.620, 0.285/0.620] = [0.443548, 0.459677]
    law = 'law = "1.69 + 406.4/N**0.34 + 410.7/D**0.28"'
    common = dict(constraint='"C = 6*N*D"', eliminate='"D"', minimize='["N"]', scale='"C"', quantity='"N"')
    got = run("".join(claim(cid, "exponent", claimed=c, **common).replace("\n\n", f"\n{law}\n\n")
                      for cid, c in [("u", '"0.46"'), ("f", '"0.50"'), ("h", '"0.45"')]))
    assert {k: v.verdict for k, v in got.items()} == {"u": "undetermined", "f": "fails", "h": "undetermined"}
    assert (got["u"].rounding.low, got["u"].rounding.high) == ("0.443548", "0.459678")
    got = run(claim("below", "exponent", claimed="0.5", rel='"<"', **common).replace("\n\n", f"\n{law}\n\n"))
    assert got["below"].verdict == "holds"


def test_a_region_claim_with_printed_numbers():
    # x**2 + 1 >= c x on [1, 10] holds exactly when c <= 2 (minimum 1 - c**2/4 at x = c/2 for c >= 2)
    got = run(claim("u", "inequality", lhs='"x**2 + 1"', rel='">="', rhs='"2.0*x"')
              + claim("h", "inequality", lhs='"x**2 + 1"', rel='">="', rhs='"1.5*x"')
              + claim("f", "inequality", lhs='"x**2"', rel='">="', rhs='"3.0*x"'))
    assert {k: v.verdict for k, v in got.items()} == {"u": "undetermined", "h": "holds", "f": "fails"}
    assert got["f"].rounding.status == "robust" and "x = 1" in got["f"].summary


def test_proof_kinds_run_at_the_printed_values_then_over_the_parameters():
    # (x - c)**2 on [1, 10] with c = 1.0 (+-0.05): at c = 1 the minimum is the lower end (proved), at c = 1.05
    # it is interior, so the claim that the minimum sits at the lower end is undetermined
    got = run(claim("u", "optimum", law='"(x - 1.0)**2"', argmin='"x"', over="[1, 10]", location='"lower"')
              + claim("h", "optimum", law='"(x - 0.50)**2"', argmin='"x"', over="[1, 10]", location='"lower"'))
    # proved at the printed 1.0; for 1.0 as 1.05 the minimizer (1.05) is only sampled: not a proof either way
    assert got["u"].verdict == "inconclusive"
    assert got["h"].verdict == "holds" and got["h"].rounding.status == "robust"


# --------------------------------------------------------------------------- rigour of the arithmetic


def _mp(expr, point):
    with mpmath.workdps(60):
        return sp.N(expr.subs({k: sp.Rational(v) for k, v in point.items()}), 60)


def test_interval_arithmetic_encloses_the_exact_value():
    x, y = sp.symbols("x y", positive=True)
    exprs = [x**sp.Rational(34, 100) / (y + 1), sp.log(x) * sp.exp(-y) + sp.sqrt(x * y), (x - y)**2 - x * y / 3,
             1 / (1 / x + 1 / (y + sp.Rational(1, 10))), x**y, sp.Abs(x - 2 * y) + sp.Max(x, y)]
    rng = random.Random(1)
    for e in exprs:
        f = compile_expr(e, [x, y])
        for _ in range(20):
            a, b = sorted(Fraction(rng.randint(1, 10**6), 10**5) for _ in range(2))
            c, d = sorted(Fraction(rng.randint(1, 10**6), 10**5) for _ in range(2))
            box = f([Iv.of(a, b), Iv.of(c, d)])
            lo, hi = box.fractions()
            for px, py in ((a, c), (b, d), ((a + b) / 2, (c + d) / 2)):
                v = Fraction(str(_mp(e, {x: px, y: py})))
                assert lo - Fraction(1, 10**40) <= v <= hi + Fraction(1, 10**40), (e, px, py)


def test_report_json_md_tex_and_terminal_carry_the_rounding_flag(tmp_path):
    from pysym.audit.report import markdown, terminal_table, write_reports

    path = tmp_path / "p.toml"
    path.write_text(textwrap.dedent(HEADER) + claim("printed", "value", quantity='"y/x"', claimed="2.5", rel='">"',
                                                    at='{ x = "2.0", y = "6.0" }')
                    + claim("exact", "value", quantity='"y/x"', claimed="3", at="{ x = 2, y = 6 }"))
    result = audit([path], None)
    data = result.to_json()
    rounding = {v["claim"]: v["rounding"] for v in data["verdicts"]}
    assert rounding["printed"]["status"] == "robust" and rounding["printed"]["could_flip"] is False
    assert rounding["printed"]["range"] == {"of": "the derived value", "low": "2.90243", "high": "3.10257"}
    assert rounding["printed"]["printed_numbers"] == ["2.0 = [1.95, 2.05]", "6.0 = [5.95, 6.05]"]
    assert rounding["exact"]["status"] == "exact"
    assert set(data["summary"]) >= {"holds", "fails", "undetermined", "conditional", "inconclusive"}
    md = markdown(result)
    assert "| claim | where | verdict | rounding | expected | evidence |" in md
    assert "robust to rounding; range [2.90243, 3.10257]" in md
    assert "[robust to rounding; range [2.90243, 3.10257]]" in terminal_table(result, width=120)
    written = write_reports(result, tmp_path / "build")
    tex = written["tex"].read_text()
    assert "robust to rounding" in tex and "undetermined" in tex
    assert json.loads(written["json"].read_text())["verdicts"][0]["rounding"]["status"] == "robust"


def test_printed_numbers_in_at_must_fit_the_symbols_range():
    with pytest.raises(AuditInputError, match=r"reaches outside x's range"):
        cf = load_claims_text(textwrap.dedent(HEADER) + claim("c", "value", quantity='"x"', claimed="1",
                                                              at='{ x = "1.0" }'), "p.toml")
        raise cf.errors[0]
