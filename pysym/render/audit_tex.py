r"""The audit report as a LaTeX fragment (``build/audit/report.tex``).

``build/derivations/main.tex`` ``\input``s it, so it has no preamble; the
macros it uses are provided (``\providecommand``) by the shared
``_macros.tex.j2``.  All text goes through :func:`pysym.render.text.tex_prose`.
"""

from __future__ import annotations

from pysym.render.latex import _clean, environment

__all__ = ["audit_tex"]


def _flatten(value) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k} = {_flatten(v)}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return ", ".join(_flatten(v) for v in value)
    return str(value)


def audit_tex(result, plots: dict | None = None) -> str:
    """The LaTeX of an :class:`pysym.audit.run.AuditResult`."""
    plots = plots or {}
    papers = []
    for cf in result.files:
        vs = [v for v in result.verdicts if v.paper == cf.paper.id]
        papers.append({
            "title": cf.paper.title,
            "arxiv": cf.paper.arxiv,
            "version": cf.paper.version,
            "path": cf.path,
            "sources": "; ".join(cf.paper.sources),
            "verdicts": [{
                "id": v.claim.id,
                "verdict": v.verdict,
                "expected": v.claim.expected,
                "matches": v.matches,
                "summary": v.summary,
                "quote": v.claim.quote,
                "where": v.claim.where,
                "kind": v.claim.kind,
                "note": v.claim.note,
                "details": [(k.replace("_", " "), _flatten(val)) for k, val in v.evidence.items()],
                "plots": plots.get((v.paper, v.claim.id), []),
            } for v in vs],
        })
    counts = {k: sum(v.verdict == k for v in result.verdicts) for k in ("holds", "fails", "conditional",
                                                                          "inconclusive")}
    intro = (f"{len(result.verdicts)} claims from {len(result.files)} papers, each re-derived from the paper's "
             "own law or theorem: " + ", ".join(f"{n} {k}" for k, n in counts.items() if n)
             + f"; {len(result.mismatches)} differ from the verdict recorded in the claims file.")
    return _clean(environment().get_template("audit_report.tex.j2").render(papers=papers, intro=intro))
