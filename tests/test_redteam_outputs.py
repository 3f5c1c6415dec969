"""Red team on what the outputs say: a report must show the verdicts that were computed, and a PDF must not
carry chapters made from other code or an older audit.

Each test plants what made an output say something that was not computed: Markdown that CommonMark reads as
HTML, two claims files of one paper id, input errors missing from the LaTeX report, a PDF built next to stale
chapters, a symbol named like the renderer's placeholder."""

from __future__ import annotations

import os
import textwrap
import time
from pathlib import Path
from types import SimpleNamespace

import sympy as sp

from pysym.audit.report import md_inline


def test_markdown_code_spans_come_only_from_paired_single_backticks():
    # ``` is a run CommonMark pairs only with another ```: what followed it was live HTML, a fake `holds` row
    hostile = "Eq. 1```</td><td><strong>holds</strong></td></tr><tr hidden><td>`"
    out = md_inline(hostile)
    assert "<td>" not in out and "<strong>" not in out and "`" not in out, out
    assert md_inline("a `x**2` b") == "a `x**2` b"  # a formula in a pair of single backticks stays code


def _claims(path: Path, paper: str, title: str, claim: str, lhs: str) -> Path:
    path.write_text(textwrap.dedent(f'''\
        [paper]
        id = "{paper}"
        title = "{title}"

        [symbols]
        x = {{ description = "x", range = [1, 2] }}

        [[claim]]
        id = "{claim}"
        kind = "inequality"
        quote = "q"
        where = "w"
        expected = "holds"
        lhs = "{lhs}"
        rel = ">="
        rhs = "1"
        '''), encoding="utf-8")
    return path


def test_two_claims_files_of_one_paper_id_are_an_input_error(tmp_path):
    from pysym.audit import audit

    a = _claims(tmp_path / "a.toml", "dup", "Paper A", "c1", "x")
    b = _claims(tmp_path / "b.toml", "dup", "Paper B", "c1", "x - 5")
    result = audit([a, b], None, budget=None)
    assert [v.claim.id for v in result.verdicts] == ["c1"] and result.verdicts[0].verdict == "holds"
    assert len(result.errors) == 1 and "already the id of" in str(result.errors[0]), result.errors


def test_the_latex_report_lists_the_input_problems(tmp_path):
    from pysym.audit import audit
    from pysym.render.audit_tex import audit_tex

    good = _claims(tmp_path / "good.toml", "good", "Good", "c1", "x")
    broken = tmp_path / "broken.toml"
    broken.write_text("[[claim\n", encoding="utf-8")
    tex = audit_tex(audit([good, broken], None, budget=None))
    assert "1 input problem" in tex and r"\subsection{Input problems}" in tex and "broken.toml" in tex, tex[-800:]


def test_main_pdf_is_stale_once_the_audit_chapter_changes(tmp_path):
    from pysym.cli.commands import _stale_pdf
    from pysym.paths import write_atomic

    (tmp_path / "derivations").mkdir()
    (tmp_path / "audit").mkdir()
    pdf = tmp_path / "derivations" / "main.pdf"
    (tmp_path / "derivations" / "main.tex").write_text("x")
    pdf.write_bytes(b"%PDF")
    report = tmp_path / "audit" / "report.tex"
    report.write_text("old")
    past = time.time() - 100
    os.utime(tmp_path / "derivations" / "main.tex", (past, past))
    os.utime(report, (past, past))
    assert _stale_pdf(tmp_path) is None
    # the same report written again (an audit with nothing changed) leaves it, and the PDF, as they are: a plain
    # `moe-theory audit` after `make run` used to remove a main.pdf that showed exactly these verdicts
    write_atomic(report, "old")
    assert _stale_pdf(tmp_path) is None
    write_atomic(report, "new verdicts")  # written after the PDF
    assert _stale_pdf(tmp_path) == pdf


def test_a_pdf_of_some_derivations_verifies_the_other_chapters(tmp_path, monkeypatch, capsys):
    # `derive zhao_theorem1 --pdf` compiled main.pdf with routing_term's chapter from an earlier run, after a
    # change that made routing_term fail
    import pysym.derive.library as library
    from pysym.cli import commands
    from pysym.derive import Bound, Derivation, Sign, Var

    def made(name, low):  # `low <= x` on [0, 1]: true for low = 0, false for low = 1
        x = Var("x", 0, 1)
        return lambda: Derivation(name, name, vars=[x], steps=[Bound("b", low, x.symbol, by=Sign())],
                                  conclusion="b")

    for name in list(library.REGISTRY):  # the one registry every module holds: emptied, then two derivations
        monkeypatch.delitem(library.REGISTRY, name)
    monkeypatch.setitem(library.REGISTRY, "good", made("good", 0))
    monkeypatch.setitem(library.REGISTRY, "broken", made("broken", 1))
    ws = SimpleNamespace(build=tmp_path / "build", library=None, show=str)
    args = SimpleNamespace(no_cache=True, quiet=True)
    code = commands._derive(args, ws, {}, ["good"], pdf=True)
    out = capsys.readouterr().out
    assert code == 1 and "pdf: not compiled: broken, also chapters" in out, out
    assert not (tmp_path / "build" / "derivations" / "main.pdf").exists()


def test_a_symbol_named_like_the_renderers_placeholder_stays_a_symbol():
    from pysym.render.audit_math import expr_tex, parse

    expr, literals = parse("LiTeRaL0 > 0.5")
    assert sp.Symbol("LiTeRaL0") in expr.free_symbols and list(literals.values()) == ["0.5"], (expr, literals)
    tex, _ = expr_tex("LiTeRaL0 > 0.5")
    assert tex.count("0.5") == 1, tex  # it printed `0.5 > 0.5`
