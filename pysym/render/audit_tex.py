r"""The audit report as a LaTeX fragment (``build/audit/report.tex``).

``build/derivations/main.tex`` ``\input``s it, so it has no preamble; the
macros it uses are provided (``\providecommand``) by the shared
``_macros.tex.j2``.  Each paper's laws and printed numbers are typeset as
mathematics from the claims file's SymPy expressions (:func:`law_tex`); the
verdicts, their evidence and the quotes are prose whose formulas are typeset
by :func:`pysym.render.prose.tex_rich` (the ``rich`` filter).  Every verdict
shows whether rounding the printed numbers could flip it, with the admissible
range of the derived quantity.

>>> import sympy as sp
>>> from pysym.audit.printed import named, printed_literal
>>> N = sp.Symbol("N", positive=True)
>>> law_tex(named("E_0", printed_literal("1.69")) + printed_literal("406.4") / N**printed_literal("0.34"))
'406.4 N^{- 0.34} + E_{\\mathrm{0}}'
>>> number_tex(named("alpha", printed_literal("0.2383"), "Eq. 11"))
'\\(\\alpha = 0.2383 \\in [0.23825, 0.23835]\\) (Eq. 11)'
"""

from __future__ import annotations

import re

import sympy as sp

from pysym.audit.numbers import unmark
from pysym.render.audit_math import glyphs_tex, verdict_tex
from pysym.render.latex import _clean, environment
from pysym.render.text import sentence, tex_code, tex_prose

__all__ = ["audit_tex", "law_tex", "number_tex", "rich"]

# hyphenated names (Ling-mini-beta, Dense-6.1B, log-log) stay text: never a formula with a minus sign
_HYPHENATED = re.compile(r"(?<![\w.])([A-Za-z][\w.]*(?:-[A-Za-z0-9][\w.]*)+)")

_GREEK = {"alpha", "beta", "gamma", "delta", "epsilon", "lambda", "mu", "nu", "rho", "sigma", "tau", "theta", "eta",
          "kappa", "phi", "psi", "omega", "xi", "zeta", "chi"}
_VERDICTS = ("holds", "fails", "undetermined", "conditional", "inconclusive")


def _flatten(value) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k} = {_flatten(v)}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return "; ".join(_flatten(v) for v in value)
    return str(value)


def law_tex(expr) -> str:
    """A law as LaTeX math (printed numbers as printed, named constants by name)."""
    return sp.latex(expr)


def rich(text, names: dict | None = None, symbols: dict | None = None) -> str:
    r"""Prose with its formulas typeset (:func:`pysym.render.prose.tex_rich`), hyphenated names kept as text;
    expressions marked by :func:`pysym.audit.numbers.show` printed by SymPy
    (:func:`pysym.render.audit_math.verdict_tex`, ``symbols`` by name).

    >>> rich("Ling-mini-beta has G = 12")
    'Ling-mini-beta has \\(G = 12\\)'
    >>> rich("e^(−P/γ̄) ∝ N")
    '\\(e^{-P/\\bar{\\gamma}}\\) \\ensuremath{\\propto} \\(N\\)'
    """
    parts = _HYPHENATED.split(str(text))
    return "".join(glyphs_tex(tex_prose(part)) if i % 2 else verdict_tex(part, names, symbols)
                   for i, part in enumerate(parts))


def _names(cf) -> tuple[dict, dict]:
    """The claims file's symbols, constants and laws: ``({name: LaTeX}, {name: SymPy symbol})``."""
    symbols = {name: spec.symbol for name, spec in cf.symbols.items()}
    symbols.update(cf.constants)
    symbols.update({name: sp.Symbol(name) for name in cf.laws if name not in symbols})
    symbol_like = {name: s for name, s in symbols.items()  # never an English word ("loss") as a symbol
                   if len(name) <= 2 or re.search(r"[_\d]", name) or name.lower() in _GREEK}
    return {name: sp.latex(s) for name, s in symbol_like.items()}, symbols


def _ends(p) -> str:
    from pysym.audit.precision import fmt

    return "[" + ", ".join(_literal_tex(fmt(x, 8)) for x in (p.lo, p.hi)) + "]"


def _literal_tex(text: str) -> str:
    """A number as written (``1.63e-2``, ``0.34 ± 0.01``, ``[0.454, 0.455]``) as LaTeX math."""
    def one(t):
        mantissa, _, exponent = t.strip().lower().partition("e")
        return mantissa if not exponent else rf"{mantissa} \cdot 10^{{{int(exponent)}}}"

    text = text.strip()
    if "±" in text:
        a, _, b = text.partition("±")
        return rf"{one(a)} \pm {one(b)}"
    if text.startswith("[") and text.endswith("]"):
        return "[" + ", ".join(one(t) for t in text[1:-1].split(",")) + "]"
    try:
        return one(text)
    except ValueError:
        return text


def number_tex(p, names: tuple = ()) -> str:
    """A printed constant: its name, printed value and admissible interval, and where it is printed."""
    name, shown = sp.latex(p), _literal_tex(p.text)
    head = name if name.replace(" ", "") == shown.replace(" ", "") else f"{name} = {shown}"
    out = rf"\({head}\)" + " (exact)" if p.exact else rf"\({head} \in {_ends(p)}\)"
    if p.where:
        out += f" ({rich(p.where, *names)})"
    return out


def _marked(v, what: str):
    """The verdict's ``summary``, ``evidence`` or ``rounding`` with its expressions marked."""
    marked = getattr(v, "marked", None) or {}
    return marked.get(what, getattr(v, what))


def audit_tex(result, plots: dict | None = None) -> str:
    """The LaTeX of an :class:`pysym.audit.run.AuditResult`."""
    plots = plots or {}
    papers = []
    for cf in result.files:
        vs = [v for v in result.verdicts if v.paper == cf.paper.id]
        names = _names(cf)

        def text(value, names=names):
            return rich(value, *names)

        papers.append({
            "title": cf.paper.title,
            "arxiv": cf.paper.arxiv,
            "version": cf.paper.version,
            "path": cf.path,
            "sources": rich("; ".join(cf.paper.sources)),
            "numbers": [number_tex(c, names) for c in cf.constants.values()],
            "laws": [(sp.latex(sp.Symbol(name)), law_tex(expr)) for name, expr in cf.laws.items()],
            "verdicts": [{
                "id": tex_code(v.claim.id).replace("-", r"-\allowbreak{}"),
                "verdict": v.verdict,
                "expected": v.claim.expected,
                "matches": v.matches,
                "summary": text(_marked(v, "summary")),
                "rounding": text(_marked(v, "rounding").tag()),
                "rounding_phrase": text(_marked(v, "rounding").phrase()),
                "numbers": text("; ".join(_marked(v, "rounding").numbers)),
                "quote": rich(v.claim.quote),
                "where": text(v.claim.where),
                "kind": v.claim.kind,
                "note": text(sentence(v.claim.note)) if v.claim.note else "",
                "details": [(k.replace("_", " "), tex_code(unmark(_flatten(val))) if "lean" in k else text(_flatten(val)))
                            for k, val in _marked(v, "evidence").items()],
                "plots": [(path, text(caption)) for path, caption in plots.get((v.paper, v.claim.id), [])],
            } for v in vs],
        })
    counts = {k: sum(v.verdict == k for v in result.verdicts) for k in _VERDICTS}
    intro = (f"{len(result.verdicts)} claims from {len(result.files)} papers, each re-derived from the paper's "
             "own law or theorem over every admissible value of its printed numbers: "
             + ", ".join(f"{n} {k}" for k, n in counts.items() if n)
             + f"; {len(result.mismatches)} differ from the verdict recorded in the claims file.")
    problems = [tex_prose(str(e)) for e in result.errors]
    if problems:
        intro += (f" {len(problems)} input problem{'s' if len(problems) != 1 else ''} kept claims from being audited "
                  "(listed at the end of this chapter).")
    return _clean(environment().get_template("audit_report.tex.j2").render(papers=papers, intro=intro,
                                                                             problems=problems))
