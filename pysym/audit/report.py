"""Audit reports: terminal table, Markdown, JSON.

Rendering only: every number and sentence comes from the verdicts' evidence
(:mod:`pysym.audit.engine`); the LaTeX report is rendered by
:mod:`pysym.render.audit_tex` from the same data, the plots by
:mod:`pysym.audit.plots`.

Text from a claims file is never trusted by a renderer: on the terminal,
control characters are shown as escapes (:func:`pysym.audit.errors.printable`);
in Markdown, text goes through :func:`pysym.render.text.md_prose` (raw HTML,
``#`` headings, emphasis and table pipes are escaped) on one line.

:func:`write_reports` writes the project report ``build/audit/report.*``
(which ``main.pdf`` includes), or, for an ad-hoc audit of files named on the
command line, ``build/audit/adhoc/report.*`` with its own plots.

>>> md_inline("<script>x</script>\\n# heading | cell `a|b`")
'\\\\<script\\\\>x\\\\</script\\\\> \\\\# heading \\\\| cell `a\\\\|b`'
"""

from __future__ import annotations

import json
import shutil
import textwrap
from pathlib import Path

from pysym.audit.errors import one_line, printable
from pysym.audit.numbers import unmark
from pysym.audit.plots import render_plots
from pysym.audit.printed import describe
from pysym.audit.run import AuditResult
from pysym.paths import write_atomic

__all__ = ["terminal_table", "markdown", "json_text", "write_reports", "md_inline", "report_dir"]

_COLORS = {"holds": "32", "fails": "31", "undetermined": "35", "conditional": "33", "inconclusive": "36"}
_ID_WIDTH = 36  # claim ids wider than this are cut in the terminal table (the reports have them whole)


def _term(text) -> str:
    return printable(one_line(text))


def terminal_table(result: AuditResult, *, color: bool = False, width: int | None = None) -> str:
    """One block per paper: claim, verdict, whether it matches ``expected``,
    the key evidence (wrapped to the terminal width), and whether rounding
    could flip the verdict, with the admissible range."""
    width = width or shutil.get_terminal_size((120, 24)).columns
    lines = []
    for cf in result.files:
        vs = [v for v in result.verdicts if v.paper == cf.paper.id]
        if not vs:
            continue
        arxiv = f" (arXiv {_term(cf.paper.arxiv)})" if cf.paper.arxiv else ""
        lines.append(f"{_term(cf.paper.title)}{arxiv} — {_term(cf.path)}")
        ids = {id(v): _term(v.claim.id) for v in vs}
        ids = {k: (t if len(t) <= _ID_WIDTH else t[: _ID_WIDTH - 3] + "...") for k, t in ids.items()}
        idw = max(len(t) for t in ids.values())
        for v in vs:
            verdict = f"{v.verdict:<12}"
            if color:
                verdict = f"\033[{_COLORS[v.verdict]}m{verdict}\033[0m"
            mark = "  " if v.matches else "≠ "
            head = f"  {ids[id(v)]:<{idw}}  {verdict} {mark}"
            room = max(30, width - idw - 20)
            text = _term(v.summary if v.matches else f"[expected {v.claim.expected}] {v.summary}")
            wrapped = textwrap.wrap(text, room) or [""]
            lines.append(head + wrapped[0])
            indent = " " * (idw + 19)  # under the first line's text
            lines.extend(indent + w for w in wrapped[1:3])
            if len(wrapped) > 3:
                lines[-1] += " ..."
            lines.extend(indent + w for w in textwrap.wrap(f"[{_term(v.rounding.tag())}]", room))
        lines.append("")
    counts = result.counts()
    summary = ", ".join(f"{n} {k}" for k, n in counts.items() if n) or "no verdicts"
    nv, nf = len(result.verdicts), len(result.files)
    line = (f"audit: {nv} claim{'s' * (nv != 1)} in {nf} file{'s' * (nf != 1)}: {summary}; "
            f"{len(result.mismatches)} differ{'s' * (len(result.mismatches) == 1)} from expected")
    if result.errors:
        line += f"; {len(result.errors)} input error{'s' * (len(result.errors) != 1)}"
    lines.append(line)
    return "\n".join(lines)


def json_text(result: AuditResult) -> str:
    """The JSON report: verdicts, input errors (file, claim, message) and a summary
    (never an expression marker of :func:`pysym.audit.numbers.show`)."""
    return json.dumps(unmark(result.to_json()), indent=2, ensure_ascii=False) + "\n"


def md_inline(text) -> str:
    """Plain text for one line of Markdown (a table cell, a list item, a heading):
    ``md_prose`` escaping with code spans kept, table pipes escaped, on one line."""
    from pysym.render.text import md_prose

    text = printable(one_line(text))
    if text.count("`") % 2 or "``" in text:  # code spans from single paired backticks only (see md_prose)
        text = text.replace("`", "'")
    parts = md_prose(text).split("`")  # md_prose escapes | outside code spans; a table needs it inside too
    return "`".join(p.replace("|", "\\|") if i % 2 else p for i, p in enumerate(parts))


def _md_code(text) -> str:
    """Text as an inline code span (no backticks inside), or escaped prose."""
    text = printable(one_line(text))
    if "`" in text or len(text) >= 200:
        return md_inline(text)
    return f"`{text}`"


def _md_value(val) -> str:
    if isinstance(val, dict):
        return ", ".join(f"{md_inline(k)} = {_md_value(x)}" for k, x in val.items())
    if isinstance(val, list):
        return ", ".join(_md_value(x) for x in val)
    text = str(val)
    return _md_code(text) if any(c in text for c in "*_^") and len(text) < 200 else md_inline(text)


def markdown(result: AuditResult, plots: dict | None = None) -> str:
    plots = plots or {}
    out = ["# Audit report", ""]
    counts = result.counts()
    out.append(f"{len(result.verdicts)} claims from {len(result.files)} papers: "
               + ", ".join(f"**{n}** {k}" for k, n in counts.items() if n)
               + f"; {len(result.mismatches)} differ from the recorded expectation.")
    out.append("")
    out.append("Verdicts: *holds* (for every admissible value of the printed numbers: proved, computed, or a "
               "Lean theorem), *fails* (for none of them, with the derived value or a counterexample), "
               "*undetermined* (the printed precision cannot decide: some admissible values satisfy the claim, "
               "others do not), *conditional* (only under the stated condition), *inconclusive* (the engine could "
               "not decide, and says why). Each verdict says whether rounding the printed numbers could flip it, "
               "and over what range the derived quantity varies.")
    out.append("")
    for cf in result.files:
        vs = [v for v in result.verdicts if v.paper == cf.paper.id]
        out.append(f"## {md_inline(cf.paper.title)}")
        out.append("")
        out.append(f"arXiv {md_inline(cf.paper.arxiv)} ({md_inline(cf.paper.version)}); claims file "
                   f"{_md_code(cf.path)}.")
        if cf.paper.sources:
            out.append("Read from: " + "; ".join(md_inline(s) for s in cf.paper.sources) + ".")
        out.append("")
        if cf.constants:
            out.append("Printed numbers: " + "; ".join(md_inline(describe(c) + (f" ({c.where})" if c.where else ""))
                                                        for c in cf.constants.values()) + ".")
            out.append("")
        out.append("| claim | where | verdict | rounding | expected | evidence |")
        out.append("|---|---|---|---|---|---|")
        for v in vs:
            exp = v.claim.expected if v.matches else f"**{v.claim.expected}** (differs)"
            out.append(f"| {md_inline(v.claim.id)} | {md_inline(v.claim.where)} | **{v.verdict}** | "
                       f"{md_inline(v.rounding.tag())} | {exp} | {md_inline(v.summary)} |")
        out.append("")
        for v in vs:
            out.append(f"### {md_inline(v.claim.id)} — {v.verdict}")
            out.append("")
            out.append(f"> {md_inline(v.claim.quote)}")
            out.append("")
            out.append(f"*{md_inline(v.claim.where)}*; kind `{v.claim.kind}`.")
            out.append("")
            out.append(f"- **Verdict:** {md_inline(v.summary)}")
            out.append(f"- **Rounding:** {md_inline(v.rounding.phrase())}")
            if v.rounding.numbers:
                out.append(f"- printed numbers: {md_inline('; '.join(v.rounding.numbers))}")
            for key, val in v.evidence.items():
                out.append(f"- {md_inline(key.replace('_', ' '))}: {_md_value(val)}")
            if v.claim.note:
                out.append(f"- note: {md_inline(v.claim.note)}")
            for path, caption in plots.get((v.paper, v.claim.id), []):
                out.append("")
                out.append(f"![{md_inline(caption)}]({path})")
            out.append("")
    if result.errors:
        out.append("## Input problems")
        out.append("")
        out.extend(f"- {md_inline(e)}" for e in result.errors)
        out.append("")
    return "\n".join(out)


def report_dir(build: Path, *, adhoc: bool = False) -> Path:
    """``build/audit`` (the project report), or ``build/audit/adhoc`` for an ad-hoc audit."""
    return build / "audit" / "adhoc" if adhoc else build / "audit"


def write_reports(result: AuditResult, build: Path, *, adhoc: bool = False) -> dict[str, Path]:
    """``report.{md,json,tex}`` and plots; returns the paths written.

    The project report (``adhoc=False``) goes to ``build/audit/`` with plots in
    ``build/plots/``; an ad-hoc audit writes everything under
    ``build/audit/adhoc/`` and never touches the project report."""
    audit_dir = report_dir(build, adhoc=adhoc)
    plot_dir = audit_dir / "plots" if adhoc else build / "plots"
    plots = render_plots(result, plot_dir, "plots/" if adhoc else "../plots/")
    _remove_stale_plots(plot_dir, plots)
    paths = {}
    write_atomic(audit_dir / "report.json", json_text(result))
    paths["json"] = audit_dir / "report.json"
    write_atomic(audit_dir / "report.md", markdown(result, plots))
    paths["md"] = audit_dir / "report.md"
    try:
        from pysym.render.audit_tex import audit_tex
    except ImportError:  # pragma: no cover - render package incomplete
        return paths
    write_atomic(audit_dir / "report.tex", audit_tex(result, plots))
    paths["tex"] = audit_dir / "report.tex"
    if not adhoc:  # main.pdf takes this chapter only with its seal (pysym.render.latex.audit_chapter_sealed)
        from pysym.render.latex import seal_audit_chapter

        seal_audit_chapter(audit_dir / "report.tex", plot_dir)
    return paths


def _remove_stale_plots(plot_dir: Path, plots: dict) -> None:
    """Remove the audit plots (``audit_*.png``) of ``plot_dir`` that this audit did
    not draw: a plot left from an earlier audit would sit beside the new report
    as if it belonged to it.  Other plots (the derivations') are not touched."""
    made = {Path(link).name for entries in plots.values() for link, _ in entries}
    for path in plot_dir.glob("audit_*.png"):
        if path.name not in made:
            path.unlink(missing_ok=True)
