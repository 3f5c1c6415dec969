"""Red team for the auditor (issue 9): each hole planted in a claims file, and how it is handled now.

Every test here plants one way a claims file used to get a wrong verdict, crash the audit, hang it, or leak
into the terminal or the reports, and asserts that it is now rejected (exit 2 with file, claim and what is
wrong), refuted, or reported honestly.  Variants are written as an adversary would: trying to make a false
claim say `holds`.

No test depends on the machine's speed: budgets are CPU time, and a test that would hang stops because the
parse-time guard refuses the expression or the kernel's CPU limit ends the worker.  Tests assert verdicts
and messages, never durations.
"""

from __future__ import annotations

import json
import re
import textwrap
from pathlib import Path

import pytest

from pysym.audit import audit, exit_code, load_claims_file
from pysym.audit.engine import evaluate
from pysym.audit.schema import AuditInputError

from conftest import moe as run_moe
from conftest import write_project

HEADER = """
[paper]
id = "red"
title = "Red team"
arxiv = "0000.00000"

[symbols]
x = { description = "a positive real", range = [1, 10] }
y = { description = "another one", range = [1, 30] }
c = { description = "a location", range = [0, 2] }
n = { description = "a scale", range = [10, 1000] }
N = { description = "parameters", range = [1, 1e12] }
D = { description = "tokens", range = [1, 1e14] }
C = { description = "compute", range = [1e15, 1e26] }
j = { description = "an integer", range = [1, 1000000000], integer = true }

[laws]
L = "1.69 + 406.4/N**0.34 + 410.7/D**0.28"
"""


def claim(cid: str, kind: str, expected: str = "holds", **fields) -> str:
    lines = ["[[claim]]", f'id = "{cid}"', f'kind = "{kind}"', 'quote = "q"', 'where = "w"', f'expected = "{expected}"']
    lines += [f"{key} = {val}" for key, val in fields.items()]
    return "\n".join(lines) + "\n\n"


def write(tmp_path: Path, body: str, name: str = "red.toml", header: str = HEADER) -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(header) + textwrap.dedent(body), encoding="utf-8")
    return path


def verdicts(path: Path, **kw) -> dict:
    cf = load_claims_file(path)
    assert not cf.errors, cf.errors
    return {c.id: evaluate(cf, c, **kw) for c in cf.claims}


def one(path: Path, **kw):
    (v,) = verdicts(path, **kw).values()
    return v


def input_error(path: Path) -> str:
    """The one input error of a claims file (file level or claim level), as text."""
    try:
        cf = load_claims_file(path)
    except AuditInputError as exc:
        return str(exc)
    assert len(cf.errors) == 1, (cf.errors, [c.id for c in cf.claims])
    return str(cf.errors[0])


def moe(tmp_path: Path, *args):
    """`moe-theory --project <scratch project> ARGS` (no Lean needed without premise claims)."""
    project = tmp_path / "project"
    if not project.exists():
        write_project(project, {"MoeTheory.A": "theorem a : True := trivial\n"})
    return run_moe(tmp_path, "--project", str(project), *args, timeout=900)


# --------------------------------------------------------------------------- claimed_coefficient


def test_a_wrong_coefficient_fails_outside_the_compute_optimal_engine(tmp_path):
    # N* = (n/2)**(2/3) = 0.63 n**(2/3); the claim says 4e10 n**(2/3).  It used to be silently ignored: `holds`.
    law = dict(law='"N**(-exact(0.5)) + N/n"', minimize='["N"]', scale='"n"', quantity='"N"', claimed='"2/3"')
    v = one(write(tmp_path, claim("coef", "exponent", claimed_coefficient="4e10", **law)))
    assert v.verdict == "fails"
    assert "the coefficient of N is 0.62996052, not 4.0e+10" in v.summary
    v = one(write(tmp_path, claim("coef", "exponent", claimed_coefficient='"2**(1/3)/2"', **law), "good.toml"))
    assert v.verdict == "holds" and "coefficient 0.62996052 = claimed" in v.summary


def test_the_coefficient_of_the_loss_is_not_compared_with_that_of_d_star(tmp_path):
    # With quantity = the loss, its coefficient used to be compared with D*'s: D*'s coefficient "held".
    from pysym.derive.optimize import compute_optimal
    import sympy as sp

    N, D, C = sp.symbols("N D C", positive=True)
    law = sp.Rational("1.69") + sp.Rational("406.4") / N ** sp.Rational("0.34") + sp.Rational("410.7") / D ** sp.Rational("0.28")
    d_coefficient = float(sp.N(compute_optimal(law, N, D, C, 6).coefficient_D))
    common = dict(law='"exact(L)"', constraint='"C = 6*N*D"', eliminate='"D"', minimize='["N"]', scale='"C"',
                  quantity='"exact(L)"', claimed='"exact(-0.34*0.28/0.62)"', coefficient_tolerance="0.001")
    v = one(write(tmp_path, claim("loss", "exponent", claimed_coefficient=repr(d_coefficient), **common)))
    assert v.verdict == "fails" and "the coefficient of" in v.summary
    v = one(write(tmp_path, claim("loss", "exponent", claimed_coefficient="1071.3649", **common), "ok.toml"))
    assert v.verdict == "holds", v.summary


def test_a_coefficient_that_cannot_be_derived_is_never_holds(tmp_path):
    # q = n**2 + n scales like n**2 only asymptotically: no coefficient G with q = G n**2 exists
    v = one(write(tmp_path, claim("asym", "exponent", law='"n"', scale='"n"', quantity='"n**2 + n"', claimed="2",
                                  claimed_coefficient="1", asymptotic="true")))
    assert v.verdict == "inconclusive" and "cannot be checked" in v.summary


# --------------------------------------------------------------------------- strict, typed schema


@pytest.mark.parametrize("symbols, message", [
    ('w = { range = [0.1, 2], integer = "false" }', "`integer` must be true or false (a TOML boolean), not a string"),
    ("w = { range = [0.1, 2], integer = 0 }", "`integer` must be true or false (a TOML boolean), not an integer"),
    ('w = { range = [0.1, 2], colour = "red" }', "unknown key `colour` (allowed: range, description, integer, rational)"),
    ("w = { range = [1, nan] }", "nan is not a finite number"),
    ("w = { range = [1, inf] }", "inf is not a finite number"),
    ("w = { range = [1, 1e400] }", "inf is not a finite number (TOML reads 1e400 as inf)"),
    ('w = { range = ["1e400", 2] }', "numbers in claims files must lie between 1e-300 and 1e300"),
    ("w = { range = [10, 1] }", "the range [10, 1] is reversed"),
    ('w = { range = [1, 2], description = 5 }', "`description` must be a string, not an integer"),
    ("w = [1, 2]", "must be a table { range = [low, high], ... }, not a list of 2 items"),
])
def test_bad_symbols_are_file_errors_and_other_files_still_run(tmp_path, symbols, message):
    # `integer = "false"` used to be read as true (bool("false")): w**2 >= w was then "proved" on [0.1, 2]
    header = HEADER.replace("[laws]", symbols + "\n\n[laws]")
    bad = write(tmp_path, claim("sq", "inequality", "fails", lhs='"w**2"', rel='">="', rhs='"w"'), "bad.toml", header)
    good = write(tmp_path, claim("fine", "identity", lhs='"x"', rhs='"x"'), "good.toml")
    result = audit([bad, good], None)
    assert [v.claim.id for v in result.verdicts] == ["fine"]
    assert len(result.errors) == 1 and message in str(result.errors[0]) and "bad.toml" in str(result.errors[0])
    assert exit_code(result) == 2


@pytest.mark.parametrize("paper, message", [
    ('sources = "abc"', "`sources` must be a list of strings, not a string"),
    ('colour = "red"', "[paper]: unknown key `colour` (allowed: id, title, arxiv, version, sources)"),
    ("arxiv = 2410.13964", "`arxiv` must be a string, not a number"),
    ('sources = ["ok", 3]', "`sources` item 2 must be a string, not an integer"),
])
def test_bad_paper_sections_are_errors(tmp_path, paper, message):
    # `sources = "abc"` used to become three sources, "a", "b" and "c"
    header = HEADER.replace('arxiv = "0000.00000"', 'arxiv = "0000.00000"\n' + paper)
    header = header.replace('arxiv = "0000.00000"\narxiv', "arxiv")
    path = write(tmp_path, claim("fine", "identity", lhs='"x"', rhs='"x"'), header=header)
    assert message in input_error(path)


def test_unknown_top_level_sections_are_errors(tmp_path):
    path = write(tmp_path, "[extra]\na = 1\n" + claim("fine", "identity", lhs='"x"', rhs='"x"'))
    assert "top level: unknown key `extra`" in input_error(path)


@pytest.mark.parametrize("kind, fields, message", [
    ("value", dict(quantity='"x"', claimed="1", tolerance='"abc"', at="{ x = 1 }"),
     "field `tolerance`: expected a number, got a string"),
    ("value", dict(quantity='"x"', claimed="1", tolerance="-0.1", at="{ x = 1 }"),
     "field `tolerance`: must be a finite number >= 0 (got -0.1)"),
    ("value", dict(quantity='"x"', claimed="1", tolerance="true", at="{ x = 1 }"),
     "field `tolerance`: expected a number, got a boolean"),
    ("value", dict(quantity='"x"', claimed="1", tolerance="nan", at="{ x = 1 }"), "nan is not a finite number"),
    ("value", dict(quantity='"x"', claimed="1", tolerance="2", at="{ x = 1 }"),
     "a relative tolerance must be below 1"),
    ("value", dict(quantity='"x"', claimed="nan", at="{ x = 1 }"), "field `claimed`: nan is not a finite number"),
    ("value", dict(quantity='"x"', claimed="inf", at="{ x = 1 }"), "field `claimed`: inf is not a finite number"),
    ("value", dict(quantity='"x"', claimed='"1/0"', at="{ x = 1 }"), "field `claimed`: `1/0`: division by zero"),
    ("value", dict(quantity='"x"', claimed='"x < 1"', at="{ x = 1 }"),
     "field `claimed`: `x < 1` is a relation, but a value is expected here"),
    ("value", dict(quantity='"x"', claimed="1", at="{ x = 100 }"), "`x` = 100 lies outside x's range [1, 10]"),
    ("value", dict(quantity='"j"', claimed="1", at="{ j = 2.5 }"), "`j` = 2.5 is not an exact integer"),
    ("value", dict(quantity='"x"', claimed="1", over="{ x = [1, 2] }"), "`minimize` and `over` go together"),
    ("value", dict(quantity='"x"', claimed="1", minimize='"x**2"', over="[1, 2]"),
     "field `over`: expected a table like { x = [low, high] }, got a list of 2 items"),
    ("value", dict(quantity='"x"', claimed="1", minimize='"x**2"', over="{ x = [1, 2], zz = [1, 2] }"),
     "`zz` is not a symbol of [symbols]"),
    ("identity", dict(lhs='"log(0)"', rhs='"1"'), "field `lhs`: `log(0)` is undefined"),
    ("identity", dict(lhs='"x"', rhs='"x"', region="{ x = [5, 2] }"), "the range [5, 2] is reversed"),
    ("identity", dict(lhs='"x"', rhs='"x"', region="{ x = [1, nan] }"), "nan is not a finite number"),
    ("optimum", dict(law='"x"', argmin='"x"', over="[10, 1]", location='"lower"'), "the range [10, 1] is reversed"),
    ("optimum", dict(law='"x"', argmin="5", over="[1, 10]", location='"lower"'),
     "field `argmin`: expected the name of a symbol of [symbols] (a string), got an integer"),
    ("sign", dict(expr='"x"', sign='"positive"', law='"x"'), "give either `expr`"),
    ("inequality", dict(lhs='"x"', rel='"=<"', rhs='"1"'), "field `rel`: must be one of <=, <, >=, >"),
    ("identity", dict(lhs='"x"', rhs='"x"', quote="5"), None),
])
def test_bad_claim_fields_are_input_errors_not_inconclusive(tmp_path, kind, fields, message):
    # these used to give `inconclusive` carrying a raw Python exception, or were silently coerced/ignored
    if "quote" in fields:
        body = claim("bad", kind, **{k: v for k, v in fields.items() if k != "quote"}).replace('quote = "q"',
                                                                                               "quote = 5")
        message = "`quote` must be a string, not an integer"
    else:
        body = claim("bad", kind, **fields)
    path = write(tmp_path, body + claim("fine", "identity", lhs='"x"', rhs='"x"'))
    result = audit([path], None)
    assert [v.claim.id for v in result.verdicts] == ["fine"]
    assert len(result.errors) == 1, result.errors
    err = str(result.errors[0])
    assert err.startswith(f"{path}: claim `bad`: ") and message in err, err
    assert exit_code(result) == 2


def test_cli_invalid_numbers_exit_2_without_traceback_and_the_other_files_are_audited(tmp_path):
    bad = write(tmp_path, claim("fine", "identity", lhs='"x"', rhs='"x"'), "bad.toml",
                HEADER.replace("x = { description = \"a positive real\", range = [1, 10] }",
                               "x = { description = \"a positive real\", range = [1, nan] }"))
    worse = write(tmp_path, claim("fine", "identity", lhs='"x"', rhs='"x"'), "worse.toml",
                  HEADER.replace("range = [1, 30]", "range = [1, 1e400]"))
    good = write(tmp_path, claim("fine", "identity", lhs='"x"', rhs='"x"'), "good.toml")
    out = moe(tmp_path, "-q", "audit", str(bad), str(worse), str(good), "--json")
    assert out.returncode == 2, out.stderr
    assert "Traceback" not in out.stderr + out.stdout
    data = json.loads(out.stdout)
    assert [v["claim"] for v in data["verdicts"]] == ["fine"]
    assert sorted(Path(e["file"]).name for e in data["errors"]) == ["bad.toml", "worse.toml"]
    assert all(e["message"] and e["claim"] is None for e in data["errors"])


# --------------------------------------------------------------------------- budgets: nothing hangs


@pytest.mark.parametrize("expr, message", [
    ('"factorial(10**9)"', "factorial of a number above 500"),
    ('"diff(L, N, 100000)"', "the total order of differentiation is at most 10"),
    ('"2**2**2**2**2**2"', "would have more than 4096 bits"),
    ('"3**(10**9)"', "would have more than 4096 bits"),
    ('"binomial(10**9, 5*10**8)"', "binomial of a number above 4096"),
    ('"N**(10**9)"', "numeric exponents are at most 1000"),
    ('"1e999999999"', "numbers in claims files must lie between"),
    ('"' + "(" * 200 + "x" + ")" * 200 + '"', "nest at most 60 levels"),
])
def test_pathological_expressions_are_refused_while_reading(tmp_path, expr, message):
    # each of these used to hang the audit or exhaust memory
    path = write(tmp_path, claim("huge", "identity", lhs=expr, rhs='"1"'))
    assert message in input_error(path)


def test_a_claim_that_runs_out_of_cpu_time_is_inconclusive_and_names_the_budget(tmp_path):
    from pysym.audit import Budget

    # factorial(j) at j = 10**8 passes the parse-time guard (j is a symbol) and is then computed exactly:
    # far more than 1 s of CPU time on any machine.  The kernel stops the worker; the next claim still runs.
    path = write(tmp_path, claim("slow", "value", quantity='"factorial(j)"', claimed="1", at="{ j = 100000000 }")
                 + claim("fine", "identity", lhs='"x"', rhs='"x"'))
    result = audit([path], None, budget=Budget(cpu_seconds=1, memory_mb=512))
    got = {v.claim.id: v for v in result.verdicts}
    assert got["slow"].verdict == "inconclusive"
    assert re.search(r"ran out of its (CPU time|memory) budget \((1 s|512 MB)\)", got["slow"].summary)
    assert got["fine"].verdict == "holds"


def test_the_cpu_limit_stops_c_level_big_integer_arithmetic():
    from pysym.audit.budget import Budget, Exhausted, run_budgeted

    # one call into C that never returns to the interpreter, so Python signal handlers cannot run:
    # big-integer sums in constant memory (hours of work); only the kernel's CPU limit stops it
    assert run_budgeted(lambda: sum(range(10 ** 15)), Budget(cpu_seconds=1)) == (
        "budget", Exhausted("CPU time", "1 s"))


def test_the_memory_limit_stops_an_allocation():
    from pysym.audit.budget import Budget, Exhausted, run_budgeted

    assert run_budgeted(lambda: bytearray(10 ** 11), Budget(cpu_seconds=10, memory_mb=256)) == (
        "budget", Exhausted("memory", "256 MB"))


def test_workers_leave_the_parents_heap_to_it_and_the_parent_keeps_its_collector():
    # a worker's garbage collections skip what the parent held when it forked (else its first full collection
    # copies every page of the parent's heap); the parent's collector is as it was, a caller's own freeze too
    import gc

    from pysym.audit.budget import Budget, run_many

    held = [object() for _ in range(1000)]
    assert gc.get_freeze_count() == 0
    [(status, frozen)] = run_many([gc.get_freeze_count], Budget(cpu_seconds=30))
    assert status == "ok" and frozen >= len(held)
    assert gc.get_freeze_count() == 0
    gc.freeze()
    try:
        mine = gc.get_freeze_count()
        assert run_many([gc.get_freeze_count], Budget(cpu_seconds=30))[0][0] == "ok"
        # still frozen (a frozen object freed meanwhile leaves the count; an unfreeze would empty it)
        assert gc.get_freeze_count() > mine // 2
    finally:
        gc.unfreeze()


def test_the_step_limit_counts_cpu_time_not_sleep():
    import time

    from pysym.audit.budget import CPUTimeout, cpu_limit

    with cpu_limit(0.05):
        time.sleep(0.2)  # a loaded machine delays work but does not spend its CPU budget
    with pytest.raises(CPUTimeout):
        with cpu_limit(0.05):
            while True:
                pass


# --------------------------------------------------------------------------- ids, terminal, Markdown


def value_claim(cid: str) -> str:
    return claim(cid, "value", quantity='"x"', claimed="1", minimize='"x**2 - 2*x"', over="{ x = [0.1, 5] }",
                 tolerance="1e-6")


def test_a_300_character_id_does_not_crash_the_report_and_plot_names_stay_distinct(tmp_path):
    from pysym.audit.report import write_reports

    long_a, long_b = "a" * 299 + "1", "a" * 299 + "2"  # the same 299-character prefix
    path = write(tmp_path, value_claim(long_a) + value_claim(long_b))
    result = audit([path], None)
    written = write_reports(result, tmp_path / "build")
    assert {"md", "json", "tex"} <= set(written)
    plots = sorted((tmp_path / "build" / "plots").glob("*.png"))
    assert len(plots) == 2 and all(len(p.name) <= 100 for p in plots)
    assert long_a in written["md"].read_text()


def test_control_characters_never_reach_the_terminal(tmp_path):
    body = (claim("esc\\u001b[31m", "identity", lhs='"x"', rhs='"x"')
            + claim("bell", "identity", lhs='"x"', rhs='"x"').replace('quote = "q"', 'quote = "ring\\u0007"')
            + claim("bidi", "identity", lhs='"x"', rhs='"x"').replace('where = "w"', 'where = "\\u202egnp.exe"')
            + claim("fine", "identity", lhs='"x"', rhs='"x"'))
    path = write(tmp_path, body)
    out = moe(tmp_path, "-q", "audit", str(path))
    assert out.returncode == 2
    for stream in (out.stdout, out.stderr):
        assert not re.search("[\x00-\x08\x0b-\x1f\x7f\u202e]", stream), repr(stream)
    assert "control character U+001B" in out.stderr and "control character U+0007" in out.stderr
    assert "text-direction control U+202E" in out.stderr
    assert "fine" in out.stdout


def test_raw_html_and_markdown_structure_do_not_reach_the_report(tmp_path):
    from pysym.audit.report import markdown

    body = claim("x|y`z`", "identity", lhs='"x"', rhs='"x"').replace(
        'quote = "q"', 'quote = "<script>alert(1)</script>\\n# Injected heading\\n\\n| a | b |"').replace(
        'where = "w"', 'where = "<img src=x onerror=alert(1)> ## also"') + 'note = "[link](javascript:alert(1))"\n'
    md = markdown(audit([write(tmp_path, body)], None))
    assert not re.search(r"(?<!\\)<(script|img)", md) and not re.search(r"(?<!\\)\]\(javascript:", md)
    assert "\\<script\\>" in md  # shown as text
    headings = [line for line in md.splitlines() if line.startswith("#")]
    assert headings == ["# Audit report", "## Red team", "### x\\|y`z` — holds"]
    row = next(line for line in md.splitlines() if line.startswith("| x"))
    assert len(re.findall(r"(?<!\\)\|", row)) == 7  # six cells: no pipe of the claim escapes


# --------------------------------------------------------------------------- ad-hoc audits, JSON


def test_an_adhoc_audit_never_overwrites_the_project_report(tmp_path):
    path = write(tmp_path, value_claim("v"))
    out = moe(tmp_path, "-q", "audit", str(tmp_path / "missing.toml"))  # creates the scratch project
    project = tmp_path / "project"
    (project / "build" / "audit").mkdir(parents=True, exist_ok=True)
    for name in ("report.md", "report.tex", "report.json"):
        (project / "build" / "audit" / name).write_text("the project's report\n")
    out = moe(tmp_path, "-q", "audit", str(path))
    assert out.returncode == 0, out.stderr
    for name in ("report.md", "report.tex", "report.json"):
        assert (project / "build" / "audit" / name).read_text() == "the project's report\n"
        assert (project / "build" / "audit" / "adhoc" / name).is_file()
    assert "build/audit/adhoc/" in out.stdout
    assert any((project / "build" / "audit" / "adhoc" / "plots").glob("*.png"))


def test_json_includes_the_input_errors(tmp_path):
    path = write(tmp_path, claim("bad", "identity", lhs='"x + w"', rhs='"1"'))
    out = moe(tmp_path, "-q", "audit", str(path), "--json")
    assert out.returncode == 2
    data = json.loads(out.stdout)
    assert data["verdicts"] == []
    assert [{**e, "file": Path(e["file"]).name} for e in data["errors"]] == [
        {"file": path.name, "claim": "bad", "message": "field `lhs`: unknown symbol `w`"}]


# --------------------------------------------------------------------------- messages


def test_the_message_says_which_tolerance_decided(tmp_path):
    body = (claim("abs", "value", quantity='"x"', claimed="1", at="{ x = 1.05 }", tolerance="0.01",
                  abs_tolerance="0.1")
            + claim("rel", "value", quantity='"x"', claimed="1", at="{ x = 1.05 }", tolerance="0.1")
            + claim("neither", "value", "fails", quantity='"x"', claimed="1", at="{ x = 2 }", tolerance="0.01",
                    abs_tolerance="0.5"))
    got = verdicts(write(tmp_path, body))
    assert got["abs"].verdict == "holds" and "within absolute tolerance 0.1" in got["abs"].summary
    assert got["rel"].verdict == "holds" and "within relative tolerance 0.1" in got["rel"].summary
    assert got["neither"].verdict == "fails"
    assert "> relative tolerance 0.01" in got["neither"].summary
    assert "> absolute tolerance 0.5" in got["neither"].summary


def test_a_claimed_zero_is_not_matched_by_a_relative_tolerance(tmp_path):
    # with claimed = 0 the relative tolerance used to act as an absolute one: 1e-10 "held" against 0
    v = one(write(tmp_path, claim("zero", "value", "fails", quantity='"x - 1"', claimed="0", at="{ x = 1.0000000001 }",
                                  tolerance="1e-9")))
    assert v.verdict == "fails" and "only the absolute tolerance applies" in v.summary


def test_within_tolerance_is_never_called_equal_and_decimals_stay_decimals(tmp_path):
    common = dict(law='"N**(-exact(0.5)) + N/n"', minimize='["N"]', scale='"n"', quantity='"N"')
    v = one(write(tmp_path, claim("near", "exponent", claimed='0.6667', tolerance="0.001", **common)))
    assert v.verdict == "holds"
    assert "= claimed" not in v.summary and "within absolute tolerance 0.001 of the claimed 0.6667" in v.summary
    v = one(write(tmp_path, claim("far", "exponent", "fails", claimed='0.4545', **common), "far.toml"))
    assert v.verdict == "fails" and "0.4545" in v.summary and "909/2000" not in v.summary


def test_a_conditional_optimum_always_states_its_condition(tmp_path):
    # the minimizer of (x - n/100)**2 on [1, 10] is at the lower end for n <= 100 and interior above (up to
    # n = 900); without a condition this used to be "conditional" with no condition at all
    common = dict(law='"(x - n/100)**2"', argmin='"x"', over="[1, 10]", location='"interior"',
                  region="{ n = [10, 900] }")
    v = one(write(tmp_path, claim("mixed", "optimum", "inconclusive", **common)))
    assert v.verdict == "inconclusive" and "no `condition` is stated" in v.summary
    v = one(write(tmp_path, claim("mixed", "optimum", "inconclusive", condition='"n > 100"', **common), "c.toml"))
    # a split of sampled minima is never `conditional` (not proved): the condition is stated with that evidence
    assert v.verdict == "inconclusive" and "holds exactly when n > 100" in v.summary


def test_numeric_local_slope_agreement_never_gives_holds(tmp_path):
    # no closed form (three power terms with awkward exponents): the local slopes agree with 0.5 at every scale
    v = one(write(tmp_path, claim("slopes", "exponent", "inconclusive",
                                  law='"N**1.4999/n + N**(-0.4999) + N**(-1.4999)/1000"', minimize='["N"]',
                                  scale='"n"', quantity='"N"', claimed="0.5", tolerance="0.01", range="[10, 1000]")))
    assert v.verdict == "inconclusive"
    assert "sampled agreement is not a proof" in v.summary
    assert "never give a verdict" in v.evidence["rule"]


# --------------------------------------------------------------------------- adversarial variants


def test_an_optimum_is_proved_over_the_range_claimed_not_the_symbols_range(tmp_path):
    # x is declared on [1, 10] but the claim is about [1, 100]: (x - 55)**2 has its minimum at 55, yet the
    # end x = 100 used to be "proved" the minimizer because the prover assumed x <= 10
    v = one(write(tmp_path, claim("wider", "optimum", "inconclusive", law='"(x - 55)**2"', argmin='"x"',
                                  over="[1, 100]", location='"upper"')))
    # never proved at the upper end; the samples (interior, at 55) are evidence against it, not a proof
    assert v.verdict == "inconclusive" and "never upper" in v.summary


def test_a_stationary_point_outside_the_box_proves_no_independence(tmp_path):
    # the stationary point x = 20 lies outside [1, y] for y < 20, where the minimizer is y itself
    v = one(write(tmp_path, claim("outside", "independence", "inconclusive", law='"(x - 20)**2"', argmin='["x"]',
                                  over='{ x = [1, "y"] }', of='["y"]')))
    # the sampled minimizers move with y: evidence (found numerically), never `holds`
    assert v.verdict == "inconclusive" and "move with y" in v.summary


def test_a_maximum_is_not_taken_for_the_optimum(tmp_path):
    # sqrt(N) - N/n has one stationary point, N = n**2/4, a maximum: the exponent 2 used to "hold"
    v = one(write(tmp_path, claim("max", "exponent", "inconclusive", law='"N**0.5 - N/n"', minimize='["N"]',
                                  scale='"n"', quantity='"N"', claimed="2")))
    assert v.verdict != "holds" and "is a maximum (proved)" in v.summary


def test_a_proof_with_substitutions_says_so(tmp_path):
    # log(x + y) = log(x) + log(y) holds for y = x/(x - 1) only; the verdict used to read as the general identity
    v = one(write(tmp_path, claim("subs", "identity", lhs='"log(x + y)"', rhs='"log(x) + log(y)"',
                                  subs='{ y = "x/(x - 1)" }', region='{ x = [2, 10] }')))
    assert v.verdict == "holds" and "with y = x/(x - 1) on x in [2, 10]" in v.summary


def test_a_region_cannot_change_a_symbols_sign(tmp_path):
    # x is declared positive; a region reaching below 0 would let proofs assume x > 0 where it is not
    path = write(tmp_path, claim("neg", "identity", lhs='"sqrt(x**2)"', rhs='"x"', region="{ x = [-5, 5] }"))
    cf = load_claims_file(path)
    with pytest.raises(AuditInputError, match="does not keep x positive"):
        evaluate(cf, cf.claims[0])


def test_a_symbolic_lower_bound_does_not_make_a_symbol_positive(tmp_path):
    header = HEADER.replace("[laws]", 'k = { range = ["x - 100", "x"] }\n\n[laws]')
    cf = load_claims_file(write(tmp_path, claim("fine", "identity", lhs='"x"', rhs='"x"'), header=header))
    assert cf.symbols["k"].symbol.is_positive is None
    assert cf.symbols["x"].symbol.is_positive is True


# --------------------------------------------------------------------------- printed precision (issue 10)
#
# Each test below plants a claim that a precision-blind auditor gets wrong: it reads a printed number as exact,
# decides at the printed value only, or trusts floating point.  All of them failed before numbers carried
# their printed precision.


def test_holding_at_the_printed_value_but_failing_elsewhere_is_not_holds(tmp_path):
    # Written with the fields an auditor without printed precision accepts (`expected = "holds"`): it proves all
    # three, reading 1.0, 2.0 and 0.50 as exact.
    # 1.0 stands for [0.95, 1.05]: x*1.0 >= 1 on [1, 10] holds at the printed value and fails at x = 1, 0.95
    v = one(write(tmp_path, claim("mid", "inequality", lhs='"x*1.0"', rel='">="', rhs='"1"')))
    assert v.verdict == "undetermined" and v.rounding.status == "rounding decides"
    assert "x = 1" in v.summary
    # x**2 + 1 >= 2 x is proved for the exact 2, but 2.0 reaches 2.05
    v = one(write(tmp_path, claim("region", "inequality", lhs='"x**2 + 1"', rel='">="', rhs='"2.0*x"'), "r.toml"))
    assert v.verdict == "undetermined"
    # a proof kind: the minimum of (x - 1.0)**2 on [1, 10] is at the lower end only for 1.0 <= 1
    v = one(write(tmp_path, claim("optimum", "optimum", law='"(x - 1.0)**2"', argmin='"x"', over="[1, 10]",
                                  location='"lower"'), "o.toml"))
    # (proved at the printed value; elsewhere the minimizer is only sampled, so not undetermined either)
    assert v.verdict == "inconclusive"
    # N**(-0.50) + N/n: the exponent of N* in n is 1/(1 + a), in [0.6645, 0.6689] for a in [0.495, 0.505];
    # at the printed a it is exactly 2/3
    v = one(write(tmp_path, claim("exp", "exponent", law='"N**(-0.50) + N/n"', minimize='["N"]', scale='"n"',
                                  quantity='"N"', claimed='"2/3"'), "e.toml"))
    assert v.verdict == "undetermined"


def test_a_box_so_wide_that_both_outcomes_occur_is_undetermined(tmp_path):
    # 1e1 stands for [5, 15]: x/1e1 at x = 8 ranges over [0.533, 1.6], across the claimed 1
    v = one(write(tmp_path, claim("wide", "value", quantity='"x/1e1"', claimed="1", tolerance="0.1",
                                  at="{ x = 8 }")))
    assert v.verdict == "undetermined"
    assert (v.rounding.low, v.rounding.high) == ("0.533333", "1.6")
    assert v.evidence["satisfied_at"] and v.evidence["violated_at"]


def test_interval_arithmetic_is_outward_rounded():
    from fractions import Fraction

    import sympy as sp

    from pysym.audit.interval import Iv, compile_expr

    tenth = Iv.of(Fraction(1, 10))  # not a binary number: the interval must strictly contain it
    lo, hi = tenth.fractions()
    assert lo < Fraction(1, 10) < hi
    x = sp.Symbol("x", positive=True)
    total = compile_expr(sum([x] * 10), [x])([tenth])  # 0.1 ten times
    lo, hi = total.fractions()
    assert lo <= 1 <= hi and lo < hi
    third = compile_expr(3 * x, [x])([Iv.of(Fraction(1, 3))])
    lo, hi = third.fractions()
    assert lo <= 1 <= hi
    for f in (sp.exp(sp.log(x)), sp.sqrt(x)**2, (x**sp.Rational(1, 3))**3, 1 / (1 / x)):
        for v in (Fraction(1, 10), Fraction(2, 3), Fraction(10**20 + 1, 10**20), Fraction(7)):
            lo, hi = compile_expr(f, [x])([Iv.of(v)]).fractions()
            assert lo <= v <= hi, (f, v)
    # a float-rounding mistake would put 0.1 + 0.2 above 0.3 and prove a false "<": intervals never do
    y = sp.Symbol("y", positive=True)
    s = compile_expr(x + y - sp.Rational(3, 10), [x, y])([Iv.of(Fraction(1, 10)), Iv.of(Fraction(2, 10))])
    lo, hi = s.fractions()
    assert lo <= 0 <= hi


def test_a_decision_that_runs_out_of_boxes_is_unknown_never_all():
    import sympy as sp
    from fractions import Fraction

    from pysym.audit.boxes import Var, decide

    x = sp.Symbol("x", positive=True)
    box = [Var(x, Fraction(1), Fraction(2))]
    # x**2 - 2 x + 1 = (x - 1)**2 >= 0 is true, but touches 0 at x = 1: with one box the decision is unknown
    assert decide([(x**2 - 2*x + 1, ">")], box, budget=1).status in ("unknown", "mixed")
    assert decide([(x**2 - 2*x + 1 - sp.Rational(1, 10**30), ">=")], box, budget=3).status != "all"


def test_printed_numbers_cannot_bomb_the_parser_or_divide_by_zero(tmp_path):
    assert "would have more than 4096 bits" in input_error(write(tmp_path, claim("bomb", "identity",
                                                                                  lhs='"2**(1e300)"', rhs='"1"')))
    assert "division by zero" in input_error(write(tmp_path, claim("zero", "identity", lhs='"1/0.0"', rhs='"1"'),
                                                   "z.toml"))


def test_a_substitution_that_leaves_its_symbols_range_is_refused(tmp_path):
    # Zhao's Remark 3 peak k = T/e is below k's range [1, T] at T = 2 (T/e = 0.74); the identity at that point
    # used to be "proved" on T in [2, 4096]
    header = HEADER.replace("[laws]", 'T = { range = [2, 4096], integer = true }\nk = { range = [1, "T"] }\n\n[laws]')
    path = write(tmp_path, claim("peak", "identity", lhs='"diff(k*log(T/k), k)"', rhs='"0"', subs='{ k = "T/E" }'),
                 header=header)
    cf = load_claims_file(path)
    with pytest.raises(AuditInputError, match=r"leaves the range \[1, T\] of k \(at T = 2"):
        evaluate(cf, cf.claims[0])
    path = write(tmp_path, claim("peak", "identity", lhs='"diff(k*log(T/k), k)"', rhs='"0"', subs='{ k = "T/E" }',
                                 region="{ T = [3, 4096] }"), "ok.toml", header=header)
    assert one(path).verdict == "holds"


def test_linked_equations_are_never_claimed_solvable(tmp_path):
    # a + b = 1 and a - b = 0 with a, b in [0.49, 0.51] do have the solution a = b = 0.5, but the engine only
    # proves existence one equation at a time: inconclusive, never a guess
    header = HEADER.replace("[laws]", "[constants]\na = [0.49, 0.51]\nb = [0.49, 0.51]\n\n[laws]")
    v = one(write(tmp_path, claim("linked", "consistent", "inconclusive", statement='["a + b == 1", "a - b == 0"]'),
                  header=header))
    assert v.verdict == "inconclusive"


def test_a_one_sided_claim_takes_a_tolerance_as_an_input_error(tmp_path):
    assert "a tolerance goes with" in input_error(write(tmp_path, claim("t", "value", quantity='"x"', claimed="1",
                                                                        rel='">"', tolerance="0.1",
                                                                        at="{ x = 2 }")))


# --------------------------------------------------------------------------- a claimed interval is an interval


def batch(path: Path) -> dict:
    """Every claim of a file, in the two budgeted workers at once."""
    from pysym.audit.engine import evaluate_many

    cf = load_claims_file(path)
    assert not cf.errors, cf.errors
    return {c.id: v for c, v in zip(cf.claims, evaluate_many([(cf, c) for c in cf.claims]))}


# x log x - 2x + exp(-x) on [1, 10]: minimizer 2.8758993048 (log x = 1 + exp(-x)), which SymPy cannot solve for
NO_CLOSED_FORM = '"x*log(x) - 2*x + exp(-x)"'
INSIDE = ["[2.8, 2.9]", "[2, 7]", "[2.8758, 2.876]", '"[2.87, 2.88]"', '"2.9"', '"2.876"', '"2.88 ± 0.01"']
OUTSIDE = ["[2.9, 3.5]", "[1, 2.8]", "[2.876, 2.9]", "[2.87, 2.8758]", '"2.8"', '"2.87"', '"2.86 ± 0.01"']


def test_a_minimizer_inside_a_claimed_interval_never_fails_and_outside_never_holds(tmp_path):
    # Kumar's P* = 7.0021 against `claimed = [7, 8]` came out `fails`: without a closed form the engine compared
    # the derived value with the interval's midpoint at the tight default tolerance.  An interval claim means
    # "the value lies in [7, 8]"; a printed "2.9" accepts [2.85, 2.95]
    body = "".join(claim(f"in{i}", "value", quantity='"x"', claimed=c, minimize=NO_CLOSED_FORM, over="{ x = [1, 10] }")
                   for i, c in enumerate(INSIDE))
    body += "".join(claim(f"out{i}", "value", "fails", quantity='"x"', claimed=c, minimize=NO_CLOSED_FORM,
                          over="{ x = [1, 10] }") for i, c in enumerate(OUTSIDE))
    got = batch(write(tmp_path, body))
    for cid, v in got.items():
        want = "holds" if cid.startswith("in") else "fails"
        # the law is exact: the sign of the derivative on both sides of the interval decides
        assert v.verdict == want, (cid, v.verdict, v.summary)
        assert v.rounding.status == "robust", (cid, v.rounding)
    assert "lies in [2.8, 2.9] for every admissible value" in got["in0"].summary


def test_with_printed_numbers_in_the_law_an_interval_claim_is_never_compared_with_its_midpoint(tmp_path):
    # the minimizer of x log x - (2.0 +- 0.05) x + exp(-x) moves over [2.746, 3.013]: [2.8, 2.9] holds at the
    # printed values (2.8759) but not for every admissible value; its midpoint 2.85 is not the claim
    law = '"x*log(x) - 2.0*x + exp(-x)"'
    body = (claim("inside", "value", quantity='"x"', claimed="[2.8, 2.9]", minimize=law, over="{ x = [1, 10] }")
            + claim("wide", "value", quantity='"x"', claimed="[2.6, 3.2]", minimize=law, over="{ x = [1, 10] }")
            + claim("above", "value", quantity='"x"', claimed='"2.9"', rel='">"', minimize=law, over="{ x = [1, 10] }")
            + claim("far", "value", quantity='"x"', claimed="[4, 5]", minimize=law, over="{ x = [1, 10] }"))
    got = batch(write(tmp_path, body))
    assert got["inside"].verdict == "inconclusive" and "holds at the printed values" in got["inside"].summary
    assert got["wide"].verdict == "holds" and got["wide"].rounding.status == "robust"
    # 2.8759 exceeds some admissible values of "2.9" ([2.85, 2.95]) and not others, at a minimizer found
    # numerically (no bracket proof for a split verdict): not a verdict
    assert got["above"].verdict == "inconclusive" and "not proved global" in got["above"].summary
    assert got["far"].verdict == "fails" and got["far"].rounding.status == "robust"


def test_numeric_exponents_compare_slopes_with_the_whole_claimed_interval_and_the_claimed_side(tmp_path):
    # no closed form: the local slopes are 0.5 at every scale.  The interval [0.49, 0.7] contains them (its
    # midpoint 0.595 does not), and "above 0" is what they are: neither may be refuted by the slopes
    law = '"N**1.4999/n + N**(-0.4999) + N**(-1.4999)/1000"'
    common = dict(law=law, minimize='["N"]', scale='"n"', quantity='"N"', range="[10, 1000]")
    got = batch(write(tmp_path, claim("interval", "exponent", "inconclusive", claimed="[0.49, 0.7]", **common)
                      + claim("positive", "exponent", "inconclusive", claimed="0", rel='">"', **common)
                      + claim("negative", "exponent", "inconclusive", claimed="0", rel='"<"', **common)
                      + claim("away", "exponent", "inconclusive", claimed="[0.6, 0.7]", **common)))
    # slopes that disagree are evidence, not a proof: each optimum was found numerically (see the next test)
    assert {k: v.verdict for k, v in got.items()} == {"interval": "inconclusive", "positive": "inconclusive",
                                                      "negative": "inconclusive", "away": "inconclusive"}
    assert "evidence against the claim, not a proof" in got["away"].summary


# --------------------------------------------------------------------------- evidence never contradicts the verdict


def test_a_proved_inequality_never_shows_a_margin_range_below_zero(tmp_path):
    # x^3 (1 + p) >= (x - 0.1)^3 + 0.01, p printed: the margin 0.3 x^2 - 0.03 x + 0.001 - 0.01 + p x^3 > 0 on [1, 10],
    # but interval arithmetic encloses it loosely ([-8.3, 33.6] in 60 boxes: x^3 and (x - 0.1)^3 vary together),
    # and the evidence once showed such a range for a claim proved to hold everywhere
    body = claim("loose", "inequality", lhs='"x**3*(1 + 0.5e-9)"', rel='">="', rhs='"(x - 1/10)**3 + 1/100"')
    v = one(write(tmp_path, body))
    assert v.verdict == "holds", v.summary
    assert v.rounding.low is not None and float(v.rounding.low) >= 0, v.rounding


# --------------------------------------------------------------------------- a numeric minimizer is only a candidate

# a tilted double well on [1, 6]: local minima at 2.0000056 (L = -2.0e-4) and 5.0000056 (L = -5.0e-4, the global
# one); the grid's points lie closer to the well at 2, so grid + Newton settle there
DOUBLE_WELL = '"(x - 2)**2*(x - 5)**2 - x/10000"'


def test_a_minimizer_found_numerically_never_decides_a_value_claim(tmp_path):
    # both verdicts were once given: `holds` for "x* = 2" (exact inputs, "computed at 50 digits") and `fails` for
    # the true "x* = 5.00"; neither minimizer has a closed form, and the derivative changes sign three times, so
    # no bracket proof exists either
    body = (claim("two", "value", "inconclusive", quantity='"x"', claimed="2", abs_tolerance="0.01",
                  minimize=DOUBLE_WELL, over="{ x = [1, 6] }")
            + claim("five", "value", "inconclusive", quantity='"x"', claimed='"5.00"', minimize=DOUBLE_WELL,
                    over="{ x = [1, 6] }"))
    got = batch(write(tmp_path, body))
    assert {k: v.verdict for k, v in got.items()} == {"two": "inconclusive", "five": "inconclusive"}
    assert all("not proved global" in v.summary for v in got.values())


def test_a_numeric_minimizer_with_a_bracket_proof_still_decides(tmp_path):
    # one well: the sign of the derivative proves where the global minimizer lies, with exact inputs too
    law = '"x*log(x) - 2*x + exp(-x)"'  # minimizer 2.8758993048
    body = (claim("in", "value", quantity='"x"', claimed="2.8759", abs_tolerance="0.001", minimize=law,
                  over="{ x = [1, 10] }")
            + claim("out", "value", "fails", quantity='"x"', claimed="3", abs_tolerance="0.01", minimize=law,
                    over="{ x = [1, 10] }"))
    got = batch(write(tmp_path, body))
    assert {k: v.verdict for k, v in got.items()} == {"in": "holds", "out": "fails"}, \
        {k: v.summary for k, v in got.items()}


@pytest.mark.parametrize("field", ["id", "quote", "where", "note"])
def test_private_use_characters_are_refused_in_claims_text(tmp_path, field):
    # the auditor marks expressions in its own text with U+E000/U+E001: a claims file may not bring them in
    fields = {"id": "m\ue000x\ue001"} if field == "id" else {}
    text = claim(fields.get("id", "m"), "value", quantity='"x"', claimed="2", at="{ x = 2 }")
    if field != "id":
        text = text.replace('where = "w"', 'where = "w"\nnote = "n"') if field == "note" else text
        text = text.replace(f'{field} = "{ {"quote": "q", "where": "w", "note": "n"}[field] }"',
                            f'{field} = "a \\ue000holds\\ue001"')
    assert "private-use character U+E000" in input_error(write(tmp_path, text))


def test_a_quote_spelling_a_placeholder_is_typeset_as_written(tmp_path):
    from pysym.render.audit_math import verdict_tex

    tex = verdict_tex("x**2 then Xqzmarka and Xqzmarkb")
    assert "Xqzmarka" in tex and "Xqzmarkb" in tex


# --------------------------------------------------------------------------- round 2: closed forms and sampled regimes

def header(symbols: str) -> str:
    return f'[paper]\nid = "red2"\ntitle = "Red team, round 2"\narxiv = "0000.00000"\n\n[symbols]\n{symbols}\n'


def test_real_roots_that_sympy_writes_with_i_are_counted():
    # f' = (x - 18/5)(x^3 - 6x^2 + 9x - 1): the cubic's three real roots come back with I (casus irreducibilis);
    # dropping them made 18/5 "the unique positive stationary point", a "proved global minimum" on [1, 5], where
    # the minimizer is 2.3472963553 (f = -10.2526 < f(3.6) = -9.7563)
    import sympy as sp

    from pysym.audit.scaling import stationary_minimum

    x = sp.Symbol("x", positive=True)
    f = x**5 / 5 - sp.Rational(12, 5) * x**4 + sp.Rational(51, 5) * x**3 - sp.Rational(167, 10) * x**2 \
        + sp.Rational(18, 5) * x
    star, why = stationary_minimum(f, x, [])
    assert star is None and "4 positive stationary points" in why, (star, why)


def test_a_minimizer_that_jumps_between_wells_is_never_independent_of_the_parameter(tmp_path):
    # L' = (x - 22/5)(x^3 - 6x^2 + 9x - 1)(1 + c x^2): the global minimizer on [1, 5] is 2.3473 for c < 0.332 and
    # 4.4 above; independence once held ("the unique stationary point x = 4.4") and so did "x* = 4.4 at c = 0.1"
    law = ('"c*x**7/7 - 26*c*x**6/15 + 177*c*x**5/25 - 203*c*x**4/20 + 22*c*x**3/15 + x**5/5 - 13*x**4/5 '
           '+ 59*x**3/5 - 203*x**2/10 + 22*x/5"')
    body = (claim("indep", "independence", "inconclusive", law=law, argmin='["x"]', over="{ x = [1, 5] }",
                  of='["c"]')
            + claim("value", "value", "inconclusive", quantity='"x"', claimed='"22/5"', minimize=law,
                    over="{ x = [1, 5] }", at="{ c = 0.1 }"))
    got = batch(write(tmp_path, body, header=header('x = { description = "x", range = [1, 5] }\n'
                                                     'c = { description = "c", range = [0.1, 1] }')))
    assert {k: v.verdict for k, v in got.items()} == {"indep": "inconclusive", "value": "inconclusive"}, \
        {k: v.summary for k, v in got.items()}


def test_an_optimum_the_grid_misses_is_not_refuted_by_samples(tmp_path):
    # a well 1e-4 wide at 5.0003 (value -5 there; the law is about x elsewhere, so the sampled minimum is at 1),
    # and a law whose values tie in floating point (1e20 + (x - 2)^2): both minimizers are interior, and both
    # claims were once `fails` from the samples alone
    body = (claim("well", "optimum", "inconclusive", law='"x - 10*exp(-(10000*(x - 50003/10000))**2)"',
                  argmin='"x"', over="[1, 10]", location='"interior"')
            + claim("flat", "optimum", "inconclusive", law='"10**20 + (x - 2)**2"', argmin='"x"', over="[1, 10]",
                    location='"interior"'))
    got = batch(write(tmp_path, body, header=header('x = { description = "x", range = [1, 10] }')))
    assert all(v.verdict != "fails" for v in got.values()), {k: (v.verdict, v.summary) for k, v in got.items()}


def test_a_regime_the_samples_miss_keeps_a_trend_from_holding(tmp_path):
    # x* = max(lower(t), 10 t) with a lower end that spikes near t = 0.6137: x* falls there (7.5 at t = 0.6137,
    # 6.90 at 0.6140); the 48 samples never land in that regime, and the claim once held
    body = claim("rare", "sign", "inconclusive", law='"(x - 10*t)**2"', argmin='"x"', param='"t"',
                 sign='"positive"', over='["1/2 + 7*exp(-(1000*(t - 6137/10000))**2)", 10]')
    got = batch(write(tmp_path, body, header=header('t = { description = "theta", range = [0.1, 0.9] }\n'
                                                     'x = { description = "x", range = [0.5, 10] }')))
    assert got["rare"].verdict != "holds", got["rare"].summary


def test_a_convex_trend_with_proved_ends_still_holds(tmp_path):
    # the same law with a fixed range: x* = 10 t is interior for t in [0.1, 0.9] (the ends are never minimizers,
    # proved from dL/dx there) and L is convex in x: the claim is proved
    body = claim("convex", "sign", law='"(x - 10*t)**2"', argmin='"x"', param='"t"', sign='"positive"',
                 over='["1/2", 10]')
    got = batch(write(tmp_path, body, header=header('t = { description = "theta", range = [0.1, 0.9] }\n'
                                                     'x = { description = "x", range = [0.5, 10] }')))
    assert got["convex"].verdict == "holds", got["convex"].summary


def test_a_condition_off_by_a_sliver_at_its_boundary_is_caught(tmp_path):
    # x >= 1.4142 is not where x**2 >= 2 holds: x in [1.4142, 1.41421356) satisfies the condition and not the
    # claim.  None of the 400 sampled points lands there, and the verdict was once `conditional`; bisection
    # along a sampled segment finds the condition's boundary and the claim failing just beyond it
    body = claim("sliver", "inequality", "fails", lhs='"x**2"', rel='">="', rhs='"2"', condition='"x >= 14142/10000"',
                 region="{ x = [1, 2] }")
    v = one(write(tmp_path, body))
    assert v.verdict == "fails" and "does not separate" in v.summary, v.summary
    assert 1.4142 <= float(v.evidence["condition_counterexample"]["x"]) < 2 ** 0.5
    # the right condition stays conditional
    v = one(write(tmp_path, claim("right", "inequality", "conditional", lhs='"x**2"', rel='">="', rhs='"2"',
                                  condition='"x >= sqrt(2)"', region="{ x = [1, 2] }"), "r.toml"))
    assert v.verdict == "conditional", v.summary
