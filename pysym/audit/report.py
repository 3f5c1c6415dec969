"""Audit reports: terminal table, Markdown, JSON, plots.

Rendering only: every number and sentence comes from the verdicts' evidence
(:mod:`pysym.audit.engine`).  The LaTeX report is rendered by
:mod:`pysym.render.audit_tex` from the same data.
"""

from __future__ import annotations

import json
import shutil
import textwrap
from pathlib import Path

from pysym.figures import save_figure
from pysym.audit.run import AuditResult
from pysym.paths import write_atomic

__all__ = ["terminal_table", "markdown", "json_text", "write_reports", "render_plots"]

_COLORS = {"holds": "32", "fails": "31", "conditional": "33", "inconclusive": "36"}


def terminal_table(result: AuditResult, *, color: bool = False, width: int | None = None) -> str:
    """One block per paper: claim, verdict, whether it matches ``expected``,
    and the key evidence (wrapped to the terminal width)."""
    width = width or shutil.get_terminal_size((120, 24)).columns
    lines = []
    for cf in result.files:
        vs = [v for v in result.verdicts if v.paper == cf.paper.id]
        if not vs:
            continue
        lines.append(f"{cf.paper.title} (arXiv {cf.paper.arxiv}) — {cf.path}")
        idw = max(len(v.claim.id) for v in vs)
        for v in vs:
            verdict = f"{v.verdict:<12}"
            if color:
                verdict = f"\033[{_COLORS[v.verdict]}m{verdict}\033[0m"
            mark = "  " if v.matches else "≠ "
            head = f"  {v.claim.id:<{idw}}  {verdict} {mark}"
            room = max(30, width - idw - 20)
            text = v.summary if v.matches else f"[expected {v.claim.expected}] {v.summary}"
            wrapped = textwrap.wrap(text, room) or [""]
            lines.append(head + wrapped[0])
            lines.extend(" " * (idw + 20) + w for w in wrapped[1:3])
            if len(wrapped) > 3:
                lines[-1] += " ..."
        lines.append("")
    counts = {k: sum(v.verdict == k for v in result.verdicts) for k in _COLORS}
    summary = ", ".join(f"{n} {k}" for k, n in counts.items() if n)
    nv, nf = len(result.verdicts), len(result.files)
    lines.append(f"audit: {nv} claim{'s' * (nv != 1)} in {nf} file{'s' * (nf != 1)}: {summary}; "
                 f"{len(result.mismatches)} differ{'s' * (len(result.mismatches) == 1)} from expected")
    return "\n".join(lines)


def json_text(result: AuditResult) -> str:
    return json.dumps(result.to_json(), indent=2, ensure_ascii=False) + "\n"


def _md_escape(text: str) -> str:
    """Plain text for a Markdown table cell: md_prose escaping (code spans kept), one line."""
    from pysym.render.text import md_prose

    return md_prose(text).replace("\n", " ")


def markdown(result: AuditResult, plots: dict | None = None) -> str:
    plots = plots or {}
    out = ["# Audit report", ""]
    counts = {k: sum(v.verdict == k for v in result.verdicts) for k in _COLORS}
    out.append(f"{len(result.verdicts)} claims from {len(result.files)} papers: "
               + ", ".join(f"**{n}** {k}" for k, n in counts.items() if n)
               + f"; {len(result.mismatches)} differ from the recorded expectation.")
    out.append("")
    out.append("Verdicts: *holds* (proved, computed exactly, or a Lean theorem), *fails* (with the derived value "
               "or a counterexample), *conditional* (only under the stated condition), *inconclusive* (the "
               "engine could not decide, and says why).")
    out.append("")
    for cf in result.files:
        vs = [v for v in result.verdicts if v.paper == cf.paper.id]
        out.append(f"## {cf.paper.title}")
        out.append("")
        out.append(f"arXiv {cf.paper.arxiv} ({cf.paper.version}); claims file `{cf.path}`.")
        if cf.paper.sources:
            out.append("Read from: " + "; ".join(cf.paper.sources) + ".")
        out.append("")
        out.append("| claim | where | verdict | expected | evidence |")
        out.append("|---|---|---|---|---|")
        for v in vs:
            exp = v.claim.expected if v.matches else f"**{v.claim.expected}** (differs)"
            out.append(f"| `{v.claim.id}` | {_md_escape(v.claim.where)} | **{v.verdict}** | {exp} | "
                       f"{_md_escape(v.summary)} |")
        out.append("")
        for v in vs:
            out.append(f"### `{v.claim.id}` — {v.verdict}")
            out.append("")
            out.append(f"> {v.claim.quote}")
            out.append("")
            out.append(f"*{v.claim.where}*; kind `{v.claim.kind}`.")
            out.append("")
            out.append(f"- **Verdict:** {v.summary}")
            for key, val in v.evidence.items():
                out.append(f"- {key.replace('_', ' ')}: {_md_value(val)}")
            if v.claim.note:
                out.append(f"- note: {v.claim.note}")
            for path, caption in plots.get((v.paper, v.claim.id), []):
                out.append("")
                out.append(f"![{caption}]({path})")
            out.append("")
    if result.errors:
        out.append("## Input problems")
        out.append("")
        out.extend(f"- {e}" for e in result.errors)
        out.append("")
    return "\n".join(out)


def _md_value(val) -> str:
    if isinstance(val, dict):
        return ", ".join(f"{k} = {_md_value(x)}" for k, x in val.items())
    if isinstance(val, list):
        return ", ".join(_md_value(x) for x in val)
    text = str(val)
    return f"`{text}`" if any(c in text for c in "*_^") and len(text) < 200 else text


# --------------------------------------------------------------------------- plots


def render_plots(result: AuditResult, out_dir: Path) -> dict:
    """Plots where they show a finding: for ``optimum`` claims the law across
    the optimized variable at a sampled configuration, with its minimum;
    for numeric ``exponent`` claims the local exponents against the claim.
    Returns ``{(paper, claim): [(relative path, caption)]}``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out_dir.mkdir(parents=True, exist_ok=True)
    made: dict = {}
    files = {cf.paper.id: cf for cf in result.files}
    for v in result.verdicts:
        cf = files[v.paper]
        name = f"audit_{v.paper}_{v.claim.id}.png".replace("/", "_")
        try:
            if v.claim.kind == "optimum" and ("counterexample" in v.evidence or "example" in v.evidence):
                caption = _plot_optimum(plt, cf, v, out_dir / name)
            elif v.claim.kind == "exponent" and "local_exponents" in v.evidence:
                caption = _plot_exponents(plt, cf, v, out_dir / name)
            elif v.claim.kind == "value" and "minimizer" in v.evidence:
                caption = _plot_value(plt, cf, v, out_dir / name)
            else:
                continue
        except (ValueError, TypeError, KeyError, ZeroDivisionError, OverflowError):
            continue
        made[(v.paper, v.claim.id)] = [(f"../plots/{name}", caption)]
    return made


def _plot_optimum(plt, cf, v, path: Path) -> str:
    """One panel per sampled configuration (an example where the claim holds,
    one where it does not), each on its own scale, minimum marked."""
    import numpy as np
    import sympy as sp

    law = cf.parse(v.claim, "law")
    x = cf.symbols[v.claim.fields["argmin"]].symbol
    lo_e, hi_e = (cf.parse(v.claim, "over", b) for b in v.claim.fields["over"])
    panels = [(label, v.evidence[label]) for label in ("example", "counterexample") if v.evidence.get(label)]
    fig, axes = plt.subplots(1, len(panels), figsize=(4.2 * len(panels), 3.2), squeeze=False)
    for ax, (label, cfg) in zip(axes[0], panels):
        point = {cf.symbols[k].symbol: float(val) for k, val in cfg.items() if k in cf.symbols and k != str(x)}
        lo, hi = float(sp.N(lo_e.subs(point))), float(sp.N(hi_e.subs(point)))
        f = sp.lambdify(x, law.subs(point), modules="numpy")
        xs = np.geomspace(lo, hi, 400) if lo > 0 and hi / lo > 20 else np.linspace(lo, hi, 400)
        with np.errstate(all="ignore"):
            ys = np.asarray(f(xs), dtype=float)
        i = int(np.nanargmin(ys))
        ax.plot(xs, ys)
        ax.plot([xs[i]], [ys[i]], "o")
        if xs[-1] / xs[0] > 20:
            ax.set_xscale("log")
        ax.set_yscale("log" if np.nanmin(ys) > 0 and np.nanmax(ys) / np.nanmin(ys) > 50 else "linear")
        where = "claim holds" if label == "example" else f"minimum at the {cfg.get('location', '?')} end"
        shown = ", ".join(f"{k} = {val}" for k, val in cfg.items() if k not in (str(x), "argmin", "location"))
        ax.set_title(f"{where}\n{shown}", fontsize=7)
        ax.set_xlabel(str(x))
        ax.set_ylabel(v.claim.fields["law"])
    save_figure(fig, path)
    return (f"{v.claim.fields['law']} against {x} at sampled configurations; the dot marks the global minimum. "
            f"Claimed location: {v.claim.fields['location']}.")


def _plot_value(plt, cf, v, path: Path) -> str:
    """The minimized law along its first variable, the minimizer, and the claim."""
    import numpy as np
    import sympy as sp

    law = cf.parse(v.claim, "minimize")
    over = v.claim.fields["over"]
    name = next(iter(over))
    x = cf.symbols[name].symbol
    fixed = {cf.symbols[k].symbol: float(val) for k, val in v.claim.fields.get("at", {}).items()}
    fixed.update({cf.symbols[k].symbol: float(val) for k, val in v.evidence["minimizer"].items() if k != name})
    lo, hi = (float(sp.N(cf.parse(v.claim, "over", b).subs(fixed))) for b in over[name])
    f = sp.lambdify(x, law.subs(fixed), modules="numpy")
    xs = np.geomspace(lo, hi, 400) if lo > 0 and hi / lo > 20 else np.linspace(lo, hi, 400)
    with np.errstate(all="ignore"):
        ys = np.asarray(f(xs), dtype=float)
    fig, ax = plt.subplots(figsize=(5, 3.2))
    ax.plot(xs, ys, label=str(v.claim.fields["minimize"]))
    best = float(v.evidence["minimizer"][name])
    ax.axvline(best, color="C0", linestyle=":", label=f"derived minimizer {name} = {best:.4g}")
    if str(v.claim.fields["quantity"]).strip() == name:
        claimed = float(v.evidence["claimed"])
        ax.axvline(claimed, color="C3", linestyle="--", label=f"claimed {claimed:.4g}")
    if xs[-1] / xs[0] > 20 and xs[0] > 0:
        ax.set_xscale("log")
    ax.set_xlabel(name)
    ax.legend(fontsize=7)
    save_figure(fig, path)
    return (f"{v.claim.fields['minimize']} along {name} (other variables at the minimizer or the stated values), "
            f"with the derived minimizer and the claimed value.")


def _plot_exponents(plt, cf, v, path: Path) -> str:
    local = v.evidence["local_exponents"]
    claimed = v.evidence.get("claimed_value")
    fig, ax = plt.subplots(figsize=(5, 3.0))
    ax.plot(range(1, len(local) + 1), local, "o-", label="derived (local log-log slope)")
    if claimed is not None:
        ax.axhline(float(claimed), linestyle="--", color="gray", label="claimed")
    ax.set_xlabel(f"step along {v.claim.fields['scale']} (log-spaced)")
    ax.set_ylabel("exponent")
    ax.legend(fontsize=7)
    save_figure(fig, path)
    return f"Local exponent of {v.claim.fields['quantity']} in {v.claim.fields['scale']} against the claimed value."


def write_reports(result: AuditResult, build: Path) -> dict[str, Path]:
    """``build/audit/report.{md,json}`` and plots; the LaTeX report too when
    the render package is available.  Returns the paths written."""
    audit_dir = build / "audit"
    plots = render_plots(result, build / "plots")
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
    return paths
