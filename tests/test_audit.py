"""The auditor: every claim kind, bad input, exit codes, the JSON shape."""

from __future__ import annotations

import json
import re
import textwrap
from pathlib import Path

import pytest

from pysym.audit import audit, exit_code, load_claims_file
from pysym.audit.engine import evaluate
from pysym.audit.schema import AuditInputError

from conftest import ROOT, write_project
from conftest import moe as run_moe

HEADER = """
[paper]
id = "toy"
title = "A toy paper"
arxiv = "0000.00000"

[symbols]
x = { description = "a positive real", range = [1, 10] }
y = { description = "another one", range = [1, 10] }
z = { description = "a third", range = [1, 10] }
b = { description = "a shift", range = [1, 5] }
c = { description = "a location", range = [0, 2] }
n = { description = "an integer", range = [1, 50], integer = true }
j = { description = "an integer below n", range = [0, "n"], integer = true }
N = { description = "parameters", range = [1e6, 1e13] }
D = { description = "tokens", range = [1e6, 1e14] }
C = { description = "compute", range = [1e15, 1e26] }

[laws]
L = "1.69 + 406.4/N**0.34 + 410.7/D**0.28"
"""


def toy(tmp_path: Path, claims: str, name: str = "toy.toml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(HEADER) + textwrap.dedent(claims))
    return path


def verdict_of(path: Path, statements=None) -> dict[str, str]:
    cf = load_claims_file(path)
    assert not cf.errors, cf.errors
    return {c.id: evaluate(cf, c, statements).verdict for c in cf.claims}


def claim(cid: str, kind: str, **fields) -> str:
    lines = ["[[claim]]", f'id = "{cid}"', f'kind = "{kind}"', 'quote = "q"', 'where = "w"', 'expected = "holds"']
    for key, val in fields.items():
        lines.append(f"{key} = {val}")
    return "\n".join(lines) + "\n\n"


@pytest.mark.parametrize(
    "kind, good, bad",
    [
        ("value",
         dict(quantity='"x"', claimed="1", minimize='"x**2 - 2*x"', over="{ x = [0.1, 5] }", tolerance="1e-6"),
         dict(quantity='"x"', claimed="2", minimize='"x**2 - 2*x"', over="{ x = [0.1, 5] }", tolerance="1e-6")),
        ("exponent",
         dict(law='"L"', constraint='"C = 6*N*D"', eliminate='"D"', minimize='["N"]', scale='"C"',
              quantity='"N"', claimed='"0.28/0.62"'),
         dict(law='"L"', constraint='"C = 6*N*D"', eliminate='"D"', minimize='["N"]', scale='"C"',
              quantity='"N"', claimed="0.5", tolerance="0.001")),
        ("sign", dict(expr='"log(x)"', wrt='"x"', sign='"positive"'),
         dict(expr='"log(x)"', wrt='"x"', sign='"negative"')),
        ("inequality", dict(lhs='"x**2 + 1"', rel='">="', rhs='"2*x"'),
         dict(lhs='"x**2"', rel='">="', rhs='"3*x"')),
        ("identity", dict(lhs='"log(x*y)"', rhs='"log(x) + log(y)"'),
         dict(lhs='"log(x + y)"', rhs='"log(x) + log(y)"')),
        ("independence", dict(law='"(x - 3)**2 + y*z"', argmin='["x"]', over="{ x = [1, 10] }", of='["y", "z"]'),
         dict(law='"(x - y)**2"', argmin='["x"]', over="{ x = [1, 10] }", of='["y"]')),
        ("optimum", dict(law='"1/x"', argmin='"x"', over="[1, 10]", location='"upper"'),
         dict(law='"1/x"', argmin='"x"', over="[1, 10]", location='"interior"')),
    ],
)
def test_each_kind_has_a_claim_that_holds_and_one_that_fails(tmp_path, kind, good, bad):
    path = toy(tmp_path, claim("good", kind, **good) + claim("bad", kind, **bad))
    assert verdict_of(path) == {"good": "holds", "bad": "fails"}


def test_argmin_trend_holds_and_fails(tmp_path):
    common = dict(law='"(x - b)**2"', argmin='"x"', over="[0.1, 10]", param='"b"')
    path = toy(tmp_path, claim("up", "sign", sign='"positive"', **common)
               + claim("down", "sign", sign='"negative"', **common))
    assert verdict_of(path) == {"up": "holds", "down": "fails"}


def test_optimum_with_a_sampled_split_states_its_condition_but_is_not_conditional(tmp_path):
    # the split of sampled minima is never proved: the condition is stated, with the sampled evidence
    path = toy(tmp_path, claim("inside", "optimum", law='"(x - c)**2"', argmin='"x"', over="[0.001, 1]",
                               location='"interior"', condition='"c < 1"', region="{ c = [0.5, 2] }"))
    cf = load_claims_file(path)
    v = evaluate(cf, cf.claims[0])
    assert v.verdict == "inconclusive" and v.evidence["condition_separates"] is True
    assert "holds exactly when c < 1" in v.summary and "not proved" in v.summary
    # over a wider range the minimizer also sits at the lower end for c near 0: the condition alone
    # no longer separates, so the verdict is not conditional (it must state a condition that separates the
    # cases); the sampled minima are evidence against the claim, not a proof: inconclusive
    path = toy(tmp_path, claim("inside", "optimum", law='"(x - c)**2"', argmin='"x"', over="[0.001, 1]",
                               location='"interior"', condition='"c < 1"'), "wide.toml")
    cf = load_claims_file(path)
    v = evaluate(cf, cf.claims[0])
    assert v.verdict == "inconclusive" and v.evidence["condition_separates"] is False
    assert "the stated condition c < 1 does not separate them" in v.summary


def test_counterexample_is_simple_and_checkable(tmp_path):
    path = toy(tmp_path, claim("lower", "inequality", lhs='"log(binomial(n, j))"', rel='"<="', rhs='"j*log(n/j)"',
                               region="{ j = [1, \"n\"] }"))
    cf = load_claims_file(path)
    v = evaluate(cf, cf.claims[0])
    assert v.verdict == "fails"
    assert v.evidence["counterexample"]["n"] == 3 and v.evidence["counterexample"]["j"] == 2


def test_unproved_agreement_is_inconclusive_not_holds(tmp_path):
    # true on the region (x*sin-free transcendental mix) but beyond the structural prover
    path = toy(tmp_path, claim("hard", "inequality", lhs='"log(x)"', rel='"<="', rhs='"x - 1 + (x - 1)**3"'))
    assert verdict_of(path)["hard"] in ("holds", "inconclusive")
    path2 = toy(tmp_path, claim("hard2", "inequality", lhs='"log(x)*exp(-x)"', rel='"<="', rhs='"1/E"'), "t2.toml")
    assert verdict_of(path2)["hard2"] == "inconclusive"


@pytest.mark.lean
def test_premise_holds_and_fails(real_check, tmp_path):
    from pysym.lean.statements import usable_statements

    result, _ = real_check
    statements = usable_statements(result)
    path = toy(tmp_path, claim("ok", "premise", theorem='"MoeTheory.choose_le_pow"',
                               statement='"binomial(n, j) <= n**j"', bind='{ k = "j" }')
               + claim("wrong", "premise", theorem='"MoeTheory.choose_le_pow"',
                       statement='"binomial(n, j) <= j**n"', bind='{ k = "j" }')
               # proved under a local `LE Nat` instance: prints as this false fact, is refused (tests/test_meaning.py)
               + claim("spoof", "premise", theorem='"Spoof.by_local_instance"', statement='"n + 1 <= n"'))
    assert verdict_of(path, statements) == {"ok": "holds", "wrong": "fails", "spoof": "inconclusive"}


# --------------------------------------------------------------------------- bad input


def moe(tmp_path, *args):
    """`moe-theory --project <scratch project> ARGS`: the reports land in the scratch project's
    build/, never in the checkout's (auditing without premise claims needs no Lean)."""
    project = tmp_path / "project"
    if not project.exists():
        write_project(project, {"MoeTheory.A": "theorem a : True := trivial\n"})
    return run_moe(tmp_path, "--project", str(project), *args, timeout=900)


def test_malformed_toml_reports_file_line_and_column(tmp_path):
    bad = tmp_path / "broken.toml"
    bad.write_text('[paper]\nid = "x"\ntitle = "t"\n[[claim]\nid = "a"\n')
    with pytest.raises(AuditInputError) as info:
        load_claims_file(bad, "broken.toml")
    assert re.match(r"broken\.toml:4:\d+: invalid TOML", str(info.value))


@pytest.mark.parametrize(
    "fields, message",
    [
        (dict(lhs='"x + w"', rel='"<="', rhs='"1"'), "field `lhs`: unknown symbol `w`"),
        (dict(lhs='"x + * 2"', rel='"<="', rhs='"1"'), "field `lhs`: `x + * 2` is not a well-formed expression"),
        (dict(lhs='"__import__(1)"', rel='"<="', rhs='"1"'), "`__import__` is not a function"),
        (dict(lhs='"__import__"', rel='"<="', rhs='"1"'), "unknown symbol `__import__`"),
        (dict(lhs='"x"', rhs='"1"'), "missing field `rel` for kind `inequality`"),
        (dict(lhs='"x"', rel='"<="', rhs='"1"', colour='"red"'),
         "unknown field `colour` (allowed: id, kind, quote, where, expected, note, lhs, rel, rhs, region, subs, "
         "condition)"),
    ],
)
def test_bad_claims_are_reported_with_file_and_claim_and_others_still_run(tmp_path, fields, message):
    path = toy(tmp_path, claim("broken", "inequality", **fields) + claim("fine", "identity", lhs='"x"', rhs='"x"'))
    result = audit([path], None)
    assert [v.claim.id for v in result.verdicts] == ["fine"]
    assert len(result.errors) == 1
    err = str(result.errors[0])
    assert err.startswith(f"{path}: claim `broken`: ") and message in err
    assert exit_code(result) == 2


def test_cli_bad_input_exit_2_without_traceback_and_other_files_audited(tmp_path):
    good = toy(tmp_path, claim("fine", "identity", lhs='"x"', rhs='"x"'), "good.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("this is not toml = = \n")
    missing = tmp_path / "missing.toml"
    out = moe(tmp_path, "-q", "audit", str(good), str(bad), str(missing), "--json")
    assert out.returncode == 2, out.stderr
    assert "Traceback" not in out.stderr
    assert "bad.toml:1:" in out.stderr and "invalid TOML" in out.stderr
    assert "missing.toml: cannot read" in out.stderr
    data = json.loads(out.stdout)
    assert [d["claim"] for d in data["verdicts"]] == ["fine"]
    assert {e["file"].rsplit("/", 1)[-1] for e in data["errors"]} == {"bad.toml:1:6", "missing.toml"}


def test_cli_exit_codes_and_json_shape(tmp_path):
    ok = toy(tmp_path, claim("fine", "identity", lhs='"x"', rhs='"x"'), "ok.toml")
    out = moe(tmp_path, "-q", "audit", str(ok), "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert set(data) == {"format", "format_version", "verdicts", "errors", "summary"} and data["errors"] == []
    assert (data["format"], data["format_version"]) == ("moe-theory.audit", 1)
    verdicts = data["verdicts"]
    assert isinstance(verdicts, list) and len(verdicts) == 1
    assert {"paper", "claim", "verdict", "expected", "evidence", "rounding"} <= set(verdicts[0])
    assert verdicts[0]["rounding"]["status"] == "exact" and verdicts[0]["rounding"]["could_flip"] is False
    assert verdicts[0]["paper"] == "toy" and verdicts[0]["verdict"] == "holds" and verdicts[0]["expected"] == "holds"
    assert isinstance(verdicts[0]["evidence"], dict) and verdicts[0]["evidence"]["summary"]
    assert data["summary"]["holds"] == 1 and data["summary"]["input_errors"] == 0
    wrong = toy(tmp_path, claim("fine", "identity", lhs='"x"', rhs='"x + 1"'), "wrong.toml")
    out = moe(tmp_path, "-q", "audit", str(wrong))
    assert out.returncode == 1
    assert "expected holds" in out.stdout


def test_readme_worked_example(tmp_path):
    from pysym.audit.report import terminal_table

    text = (ROOT / "paper_checks" / "README.md").read_text()
    block = text.split("Save this as\n`paper_checks/example-fictional.toml`:")[1].split("```toml")[1].split("```")[0]
    path = tmp_path / "example-fictional.toml"
    path.write_text(block)
    result = audit([path], None)  # every claim in one batch of workers, as `moe-theory audit` runs them
    verdicts = {v.claim.id: v for v in result.verdicts}
    assert {k: v.verdict for k, v in verdicts.items()} == {"N-exponent": "undetermined", "D-exponent": "fails",
                                                          "data-outgrows-model": "holds"}
    n = verdicts["N-exponent"]
    assert n.evidence["derived"] == "beta/(alpha + beta)"
    assert (n.rounding.status, n.rounding.low, n.rounding.high) == ("rounding decides", "0.445454", "0.463637")
    assert verdicts["D-exponent"].rounding.status == "robust"
    # the terminal output the README shows is the real one
    shown = text.split("for `D*`, and bounds them over every admissible")[1].split("```\n")[1].split("```")[0]
    table = terminal_table(result, width=110).splitlines()
    for line in shown.splitlines():
        assert line in table, line
    # exact constants: the exponent is 0.4545 exactly, which does not print as 0.46
    path.write_text(block.replace('value = "0.30"', "value = 0.30").replace('value = "0.25"', "value = 0.25"))
    cf = load_claims_file(path)
    assert evaluate(cf, cf.claims[0]).verdict == "fails"
    # an exact claimed 0.46 (a TOML number): some admissible values give exactly 0.46
    path.write_text(block.replace('claimed = "0.46"', "claimed = 0.46"))
    cf = load_claims_file(path)
    assert evaluate(cf, cf.claims[0]).verdict == "undetermined"


def test_top_level_readme_precision_example(tmp_path):
    from pysym.audit.report import terminal_table

    example = (ROOT / "paper_checks" / "README.md").read_text()
    block = example.split("Save this as\n`paper_checks/example-fictional.toml`:")[1].split("```toml")[1].split("```")[0]
    section = (ROOT / "README.md").read_text().split("## Auditing a paper")[1].split("\n## ")[0]
    snippet = section.split("```toml")[1].split("```")[0]
    path = tmp_path / "top.toml"
    path.write_text(block.split("[[claim]]")[0] + snippet)
    result = audit([path], None)
    assert [v.verdict for v in result.verdicts] == ["undetermined"]
    shown = section.split("```toml")[1].split("```\n")[2].split("```")[0]
    table = terminal_table(result, width=110).splitlines()
    for line in shown.splitlines():
        assert line in table, line
    path.write_text(block.split("[[claim]]")[0].replace('value = "0.30"', "value = 0.30")
                    .replace('value = "0.25"', "value = 0.25") + snippet)
    assert [v.verdict for v in audit([path], None).verdicts] == ["fails"]


@pytest.mark.lean
def test_shipped_claims_files_match_their_expected_verdicts(shipped_audit):
    res = shipped_audit
    assert len({v.paper for v in res.verdicts}) >= 4
    assert not res.errors, res.errors
    assert not res.mismatches, [(v.claim.id, v.verdict, v.summary) for v in res.mismatches]
    assert len(res.verdicts) >= 30
    # the real papers exercise every verdict, printed precision included
    counts = res.counts()
    assert all(counts[k] >= 1 for k in ("holds", "fails", "conditional")), counts
    assert counts["undetermined"] >= 3, counts


def test_reports_are_byte_identical_across_runs(tmp_path):
    from pysym.audit.report import write_reports

    claims = (claim("v", "value", quantity='"x"', claimed="1", minimize='"x**2 - 2*x"', over="{ x = [0.1, 5] }",
                    tolerance="1e-6")
              + claim("o", "optimum", law='"(x - c)**2"', argmin='"x"', over="[0.001, 1]", location='"interior"')
              + claim("s", "sign", expr='"log(x)"', wrt='"x"', sign='"positive"'))
    path = toy(tmp_path, claims)
    outputs = []
    for run in ("a", "b"):
        build = tmp_path / run
        written = write_reports(audit([path], None), build)
        files = sorted(p for p in build.rglob("*") if p.is_file())
        assert {"md", "json", "tex"} <= set(written) and any(p.suffix == ".png" for p in files)
        outputs.append({p.relative_to(build): p.read_bytes() for p in files})
    assert outputs[0] == outputs[1]


def test_the_project_report_removes_audit_plots_it_did_not_draw(tmp_path):
    from pysym.audit.report import write_reports

    path = toy(tmp_path, claim("v", "value", quantity='"x"', claimed="1", minimize='"x**2 - 2*x"',
                               over="{ x = [0.1, 5] }", tolerance="1e-6"))
    plots = tmp_path / "build" / "plots"
    plots.mkdir(parents=True)
    (plots / "audit_gone-paper_old-claim.png").write_bytes(b"old")
    (plots / "routing_term.png").write_bytes(b"a derivation's plot")
    write_reports(audit([path], None), tmp_path / "build")
    names = sorted(p.name for p in plots.iterdir())
    assert "audit_gone-paper_old-claim.png" not in names and "routing_term.png" in names
    assert any(n.startswith("audit_") for n in names)  # this audit's own plot
