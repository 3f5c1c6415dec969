"""The audit report as a reader sees it: expressions typeset, no marker anywhere else.

:func:`pysym.audit.numbers.show` marks the expressions it prints; the LaTeX
report reads them back and typesets them with SymPy
(:mod:`pysym.render.audit_math`), and every plain-text output (terminal,
Markdown, JSON, input errors) strips the markers.  A small claims file whose
evidence has powers, roots, products, subscripted constants and large numbers
is audited once per module (a few seconds) and compiled into a main.pdf.
"""

from __future__ import annotations

import json
import re
import subprocess

import pytest
import sympy as sp

from pysym.audit.errors import AuditInputError, printable
from pysym.audit.numbers import CLOSE, OPEN, mark, show, unmark
from pysym.audit.report import json_text, markdown, terminal_table, write_reports
from pysym.audit.run import audit
from pysym.audit.verdict import Outcome, Rounding, Verdict, unmarked
from pysym.render.audit_math import expr_tex, number_tex, verdict_tex
from pysym.render.audit_tex import audit_tex

from test_render import _NOT_FOR_READERS, needs_pdflatex, needs_pdftotext

MARKERS = re.compile(f"[{OPEN}{CLOSE}]")

TOY = '''
[paper]
id = "toy-0000.00000"
title = "A toy law with subscripted constants"
arxiv = "0000.00000"
version = "v1"
sources = ["Eq. 1, with its fitted constants"]

[symbols]
G = { description = "experts", range = [1, 64] }
N = { description = "total parameters", range = [1e8, 1e13] }
Na = { description = "activated parameters", range = [1e6, "N"] }

[constants]
q_G = { value = "0.1577", where = "Eq. 1 (coefficient of G)" }
q_invG = { value = "7.2446", where = "Eq. 1 (coefficient of 1/G)" }
q_S2 = { value = "5.1395", where = "Eq. 1" }
alpha = { value = "0.2383", where = "Eq. 1 (exponent of Na)" }
p_a = { value = "0.0013", where = "Eq. 1 (coefficient of Na^-alpha)" }
p_r = { value = "0.0450", where = "Eq. 1 (coefficient of Na/N)" }
c_a = { value = "31.096", where = "Eq. 1" }
a_x = { value = 0.25, where = "Eq. 3 (exact)" }
c_b = { value = 31, where = "Eq. 3 (exact)" }

[laws]
Q = "q_G*G + q_invG/G + q_S2"
L = "c_b*Na**(-a_x) + Na/N"

[[claim]]
id = "G-opt"
kind = "value"
quote = "the optimal G is about 6.78"
where = "Section 5"
expected = "holds"
quantity = "G"
claimed = 6.78
tolerance = 0.005
minimize = "Q"
over = { G = [1, 64] }

[[claim]]
id = "ratio"
kind = "value"
quote = "the optimal Na/N is about 1% at N = 120B"
where = "Section 5"
expected = "fails"
quantity = "Na/N"
claimed = 0.01
tolerance = 0.05
minimize = "L"
over = { Na = [1e6, 1.2e11] }
at = { N = 1.2e11 }

[[claim]]
id = "exponent"
kind = "exponent"
quote = "the optimal Na grows as N^(1/(1 + a))"
where = "Eq. 4"
expected = "holds"
law = "L"
minimize = ["Na"]
scale = "N"
quantity = "Na"
claimed = "1/(1 + a_x)"

[[claim]]
id = "identity"
kind = "identity"
quote = "sqrt(q_G q_invG) squared is q_G q_invG"
where = "Eq. 2"
expected = "holds"
lhs = "sqrt(q_G*q_invG)**2"
rhs = "q_G*q_invG"
'''


@pytest.fixture(scope="module")
def toy_result(tmp_path_factory):
    folder = tmp_path_factory.mktemp("toy")
    path = folder / "toy-0000.00000.toml"
    path.write_text(TOY)
    result = audit([path], {}, root=folder)
    assert not result.errors, [str(e) for e in result.errors]
    assert not result.mismatches, [(v.claim.id, v.verdict, v.summary) for v in result.mismatches]
    return result


# --------------------------------------------------------------------------- the markers


def test_show_marks_expressions_not_numbers():
    x = sp.Symbol("x", positive=True)
    assert show(x**2 + 1) == OPEN + "x**2 + 1" + CLOSE
    assert show(sp.Rational(909, 2000)) == "0.4545" and show(3) == "3"
    assert unmark({"a": [show(x), (show(x + 1), "b")]}) == {"a": ["x", ("x + 1", "b")]}


def test_verdict_keeps_marked_text_and_shows_plain_text():
    x = sp.Symbol("x")
    v = Verdict("p", None, "holds", f"derived {show(x**2)}", {"d": {"k": show(sp.sqrt(x))}},
                Rounding("robust", f"the value {show(x + 1)}", "1", "2", "1.5", (show(x),)))
    assert v.summary == "derived x**2" and v.evidence == {"d": {"k": "sqrt(x)"}}
    assert v.rounding.range_of == "the value x + 1" and v.rounding.numbers == ("x",)
    assert v.marked["summary"] == f"derived {show(x**2)}"
    o = unmarked(Outcome("holds", show(x), {"e": [show(x)]}, None))
    assert not MARKERS.search(repr(o))


def test_errors_and_terminal_text_never_show_markers():
    assert printable("a " + mark("x**2")) == "a x**2"
    err = AuditInputError("f.toml", "c", f"the bound {mark('x + 1')} is not a number")
    assert not MARKERS.search(str(err) + json.dumps(err.to_json()))


@pytest.mark.parametrize("expr", [
    "x**2 + sqrt(y)/(2*q_S2)", "sqrt(q_invG)/sqrt(q_G)", "beta/(alpha + beta)", "exp(-m*t**2)",
    "N_a**(1/(alpha + 1))*c_a", "binomial(T, k)*(2*m)**(N*d)",
])
def test_marked_expression_is_typeset_by_sympy(expr):
    names = {"x", "y", "q_S2", "q_invG", "q_G", "alpha", "beta", "m", "t", "N_a", "c_a", "T", "k", "N", "d"}
    symbols = {n: sp.Symbol(n) for n in names}
    e = sp.sympify(expr, locals=symbols)
    assert verdict_tex(show(e), symbols=symbols) == r"\(" + sp.latex(e) + r"\)"
    assert expr_tex(show(e)[1:-1], symbols)[0] == sp.latex(e)


def test_numbers_as_powers_of_ten():
    assert number_tex("120000000000") == r"1.2 \cdot 10^{11}"
    assert number_tex("1.2e11") == r"1.2 \cdot 10^{11}"
    assert number_tex("0.0450") == "0.0450" and number_tex("6.78") == "6.78"
    assert expr_tex("120000000000**(1/(alpha + 1))")[0] == r"\left(1.2 \cdot 10^{11}\right)^{\frac{1}{\alpha + 1}}"


def test_prose_around_a_marked_expression_is_one_formula():
    tex = verdict_tex("power balance: d/dx = x**(" + show(-sp.Symbol("a") - 1) + ") * (" + show(sp.Symbol("b") + 2)
                      + "), negative below x*")
    assert "**" not in tex and "*" not in tex.replace("x^{*}", "")
    assert r"x^{- a - 1}" in tex


# --------------------------------------------------------------------------- the toy audit


def test_plain_outputs_have_no_markers(toy_result, tmp_path):
    outputs = [terminal_table(toy_result), markdown(toy_result), json_text(toy_result)]
    written = write_reports(toy_result, tmp_path, adhoc=True)
    outputs += [written["md"].read_text(), written["json"].read_text()]
    for text in outputs:
        assert not MARKERS.search(text)
    assert any(MARKERS.search(v.marked["summary"] + json.dumps(v.marked["evidence"], ensure_ascii=False))
               for v in toy_result.verdicts)  # the LaTeX report has them
    assert not MARKERS.search(written["tex"].read_text())


def test_toy_report_tex_is_typeset(toy_result):
    tex = audit_tex(toy_result)
    assert not MARKERS.search(tex)
    assert "**" not in tex and "sqrt(" not in tex
    assert r"\sqrt{" in tex


@needs_pdflatex
@needs_pdftotext
def test_audit_chapter_pdf_text_is_typeset_mathematics(toy_result, tmp_path):
    from pysym.render import compile_pdf, master_tex

    build = tmp_path / "build"
    write_reports(toy_result, build)
    main = build / "derivations" / "main.tex"
    main.parent.mkdir(parents=True)
    main.write_text(master_tex([], ["../audit/report.tex"]))
    pdf = compile_pdf(main)
    text = subprocess.run(["pdftotext", "-enc", "UTF-8", str(pdf), "-"], capture_output=True, text=True,
                          check=True).stdout
    assert "Audit of the papers" in text and "A toy law with subscripted constants" in text
    found = {what: sorted(set(p.findall(text)))[:5] for what, p in _NOT_FOR_READERS.items() if p.search(text)}
    assert not found, found
    assert not re.search(r"\balpha\b|sqrt\(|\w\*\w", text), re.findall(r".{20}(?:\balpha\b|sqrt\(|\w\*\w).{20}", text)
