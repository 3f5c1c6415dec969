r"""Derivations as LaTeX: one ``.tex`` file per derivation and a master document.

The text comes from Jinja2 templates in ``pysym/render/templates/`` written
with LaTeX-friendly delimiters -- ``\BLOCK{...}`` for statements,
``\VAR{...}`` for values, ``\#{...}`` for comments -- so LaTeX's own braces
need no escaping.  Templates receive a :class:`pysym.render.view.DerivationView`
(math already printed by SymPy) and write all prose with the filter ``rich``
(:func:`pysym.render.prose.tex_rich`: formulas in the text typeset as math,
the rest escaped), Lean names and statements with ``code`` (typewriter text
that wraps), and plain labels with ``tex`` and ``esc``.

Each derivation file is a chapter of the blueprint (:mod:`pysym.render.blueprint`):
every step a ``lemma`` (the conclusion a ``theorem``) with its ``\label``,
``\lean{...}`` for a Lean premise, its justification as the proof with
``\uses{...}`` naming what it rests on, and ``\leanok`` only where the Lean
check passed for the theorem used (``lean_status``).  The files define no
macros: ``main.tex`` (the print version) and the web version do, from the
same templates (``templates/blueprint/``).

Layout of ``build/``::

    derivations/main.tex          the print blueprint: \input's the chapters below
    derivations/lean_library.tex  the Lean declarations (when the Lean library is known)
    derivations/<name>.tex        one \section per derivation
    plots/<file>.png              figures (main.tex sets \graphicspath to ../plots/)
    audit/report.tex              (optional) \input when it exists

The LaTeX needs pdflatex with packages from TeX Live's ``latex-base`` and
``latex-recommended`` collections only (amsmath, amssymb, amsthm, graphicx,
array, booktabs, geometry, url, hyperref, expl3); :func:`compile_pdf` runs it.

>>> import sympy as sp
>>> from pysym.derive.core import Derivation, Identity, Var
>>> delta = Var("delta", 0.01, 1, "a small number", latex=r"\delta")
>>> d = Derivation("demo", "Logarithm of a square", vars=[delta], steps=[
...     Identity("sq", sp.log(delta.symbol**2), 2 * sp.log(delta.symbol), "log of a power")],
...     conclusion="sq")
>>> report = d.verify()
>>> tex = derivation_tex(report)
>>> print(next(line for line in tex.splitlines() if line.startswith(r"\begin{theorem}")))
\begin{theorem}[\texttt{\frenchspacing sq}: identity]\label{step:demo.sq}
>>> print(next(line for line in tex.splitlines() if line.startswith(r"\[")))
\[ \mtfit{\log{\left(\delta^{2} \right)} = 2 \log{\left(\delta \right)}} \]
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path, PurePosixPath
from typing import Iterable

import jinja2

from pysym.derive.core import Report
from pysym.errors import UserError
from pysym.paths import write_atomic
from pysym.render.citations import cite
from pysym.render.prose import tex_rich
from pysym.render.text import drop_prefix, sentence, tex_code, tex_escape, tex_pdfstring, tex_prose
from pysym.render.view import build_view

__all__ = [
    "LatexError",
    "environment",
    "derivation_tex",
    "master_tex",
    "render_derivation",
    "render_master",
    "pdflatex_available",
    "compile_pdf",
    "PLOTS_DIR",
    "LEAN_LIBRARY",
]

PLOTS_DIR = "../plots"  # where the figures are, relative to the folder of main.tex
LEAN_LIBRARY = "lean_library"  # the Lean chapter, beside the derivation files
# how a step verified, as the blueprint colours it (templates/blueprint/moestatus.py)
STATUS_MACROS = {"sympy": r"\sympyok", "numeric": r"\numericok", "assumption": r"\assumedok"}


class LatexError(UserError):
    """pdflatex is missing or failed; the message ends with the log's tail."""

    exit_code = 1


_ENV: jinja2.Environment | None = None


def environment() -> jinja2.Environment:
    """The Jinja2 environment for the LaTeX templates (``\\BLOCK``/``\\VAR`` delimiters)."""
    global _ENV
    if _ENV is None:
        env = jinja2.Environment(
            loader=jinja2.PackageLoader("pysym.render", "templates"),
            block_start_string=r"\BLOCK{",
            block_end_string="}",
            variable_start_string=r"\VAR{",
            variable_end_string="}",
            comment_start_string=r"\#{",
            comment_end_string="}",
            trim_blocks=True,
            lstrip_blocks=True,
            keep_trailing_newline=True,
            autoescape=False,
            undefined=jinja2.StrictUndefined,
        )
        env.filters.update(tex=tex_prose, code=tex_code, esc=tex_escape, pdf=tex_pdfstring, period=sentence,
                           drop=drop_prefix, rich=_rich)
        _ENV = env
    return _ENV


def _rich(text, view=None) -> str:
    """The ``rich`` filter: prose with its formulas typeset, under the view's symbol names."""
    if view is None:
        return tex_rich(cite(text))
    return tex_rich(cite(text), getattr(view, "names", None), getattr(view, "codes", ()))


def _clean(text: str) -> str:
    """Trailing spaces off and exactly one final newline (stable bytes)."""
    text = "\n".join(line.rstrip() for line in text.splitlines())
    text = re.sub(r"\n{3,}", "\n\n", text)
    return text.strip("\n") + "\n"


def derivation_tex(report: Report, plots=(), statements: dict[str, str] | None = None,
                   lean_status: dict[str, bool] | None = None,
                   lean_axioms: dict[str, list[str]] | None = None) -> str:
    """The LaTeX of one derivation (a ``\\section`` of the blueprint), as a string.

    ``plots``: ``(file name, caption)`` pairs from :func:`pysym.render.plots.render_plots`;
    ``statements``: Lean statements (``{theorem: text}``) to quote under each premise;
    ``lean_status``: ``{Lean declaration: the check passed for it}`` (``\\leanok``);
    ``lean_axioms``: ``{Lean theorem: the axioms it depends on}``, shown under each premise."""
    view = build_view(report, plots, statements, lean_status, lean_axioms)
    return _clean(environment().get_template("derivation.tex.j2").render(d=view, status=STATUS_MACROS))


_SAFE_INPUT = re.compile(r"[A-Za-z0-9._/-]+")


def _input_path(path) -> str:
    text = PurePosixPath(Path(path).as_posix()).as_posix()
    if text.endswith(".tex"):
        text = text[:-4]
    if not _SAFE_INPUT.fullmatch(text):
        raise ValueError(f"{path}: a LaTeX \\input path may only use letters, digits and . _ / -")
    return text


def master_tex(names: Iterable[str], extra_inputs: Iterable = ()) -> str:
    """The LaTeX of ``main.tex``, the print version of the blueprint: the
    Lean chapter (``lean_library.tex``), each derivation, then each of
    ``extra_inputs`` (paths relative to main.tex's folder); a file that does
    not exist at compile time is skipped.  Its preamble and macros are those
    of the blueprint's ``print.tex`` (same templates)."""
    names = [_input_path(n) for n in names]
    extras = [_input_path(p) + ".tex" for p in extra_inputs]
    return _clean(environment().get_template("blueprint/print.tex.j2").render(
        file="main.tex", inline_macros=True, plots=PLOTS_DIR + "/", inputs=[LEAN_LIBRARY] + names,
        extra_inputs=extras, note="The same chapters make the web version: build/blueprint/src/content.tex."))


def render_derivation(report: Report, out_dir: Path, *, plots=None,
                      statements: dict[str, str] | None = None, lean_status: dict[str, bool] | None = None) -> Path:
    """Write ``out_dir/<name>.tex`` and return its path.

    Without ``plots``, the derivation's plots are rendered into the sibling
    folder ``out_dir/../plots`` first (see :func:`pysym.render.plots.render_plots`)."""
    out_dir = Path(out_dir)
    if plots is None:
        from pysym.render.plots import render_plots

        plots = render_plots(report, out_dir.parent / "plots")
    path = out_dir / f"{report.derivation.name}.tex"
    write_atomic(path, derivation_tex(report, plots, statements, lean_status))
    return path


def render_master(out_dir: Path, names: Iterable[str], extra_inputs: Iterable = ()) -> Path:
    """Write ``out_dir/main.tex`` (see :func:`master_tex`) and return its path."""
    path = Path(out_dir) / "main.tex"
    write_atomic(path, master_tex(names, extra_inputs))
    return path


def pdflatex_available() -> bool:
    """Whether ``pdflatex`` is on PATH."""
    return shutil.which("pdflatex") is not None


def _tail(path: Path, fallback: str, lines: int = 30) -> str:
    """The useful part of a TeX log: from the first error on, else the last lines."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        text = fallback
    m = re.search(r"^(?:! |\S*\.tex:\d+: )", text, re.M)
    if m:
        return "\n".join(text[m.start():].splitlines()[:lines])
    return "\n".join(text.splitlines()[-lines:])


_INPUT = re.compile(r"\\(?:input|IfFileExists)\{([^{}]+)\}")
_GRAPHIC = re.compile(r"\\mtgraphic\{\.\./plots/([A-Za-z0-9._-]+\.png)\}")
AUDIT_CHAPTER = "../audit/report.tex"  # main.tex's optional chapter, relative to its folder


def _audit_files(report: Path, plots: Path) -> list[Path]:
    try:
        text = report.read_text(encoding="utf-8")
    except OSError:
        text = ""
    return [report] + [plots / n for n in sorted(set(_GRAPHIC.findall(text)))]


def seal_audit_chapter(report: Path, plots: Path) -> None:
    """Write ``report.tex.seal`` beside the audit's LaTeX report: its bytes and the plots it names, under
    this user's secret (:func:`pysym.secret.seal`)."""
    from pysym.secret import seal

    write_atomic(report.with_name(report.name + ".seal"), seal(_audit_files(report, plots)) + "\n", private=True)


def audit_chapter_sealed(report: Path, plots: Path) -> bool:
    """Whether ``report`` and the plots it names are those this user's audit wrote (its seal matches)."""
    import hmac

    from pysym.secret import seal

    try:
        written = report.with_name(report.name + ".seal").read_text(encoding="utf-8").strip()
    except OSError:
        return False
    return report.is_file() and hmac.compare_digest(written, seal(_audit_files(report, plots)))


def _private_copy(main_tex: Path, work: Path, notes: list) -> Path:
    """Copy ``main_tex``, the files it inputs and the figures into the empty folder ``work``, all under one
    folder (``../plots/`` and ``../audit/`` become ``plots/`` and ``audit/``, so TeX may be held to the
    working folder); return the copy of ``main_tex``.  The audit chapter is copied only with its seal
    (written by this user's `moe-theory audit`), and the audit's figures only with it."""
    here = work / "derivations"
    (here / "plots").mkdir(parents=True)
    text = main_tex.read_text(encoding="utf-8")
    plots = main_tex.parent / PLOTS_DIR
    for name in sorted(set(_INPUT.findall(text))):
        rel = name if name.endswith(".tex") else name + ".tex"
        source = main_tex.parent / rel
        if not source.is_file():
            continue
        if rel == AUDIT_CHAPTER:
            if not audit_chapter_sealed(source, plots):
                notes.append(f"the audit chapter ({source.resolve()}) was left out: this user's `moe-theory audit` did not "
                             "write it, or it or its figures changed since (run `moe-theory audit`)")
                continue
            (here / "audit").mkdir(exist_ok=True)
            (here / "audit" / "report.tex").write_text(source.read_text(encoding="utf-8").replace(
                "{../plots/", "{plots/"), encoding="utf-8")
            for png in _audit_files(source, plots)[1:]:
                if png.is_file():
                    shutil.copyfile(png, here / "plots" / png.name)
        elif "/" not in rel:
            shutil.copyfile(source, here / rel)
    if plots.is_dir():
        for png in plots.glob("*.png"):
            if not png.name.startswith("audit_"):  # a derivation's figure, drawn by this run
                shutil.copyfile(png, here / "plots" / png.name)
    copy = here / main_tex.name
    copy.write_text(text.replace("{" + AUDIT_CHAPTER, "{audit/report.tex").replace(
        "{" + PLOTS_DIR + "/}", "{plots/}"), encoding="utf-8")
    return copy


def compile_pdf(main_tex: Path, *, runs: int = 2, timeout: float = 300, max_runs: int = 4,
                notes: list | None = None) -> Path:
    """Run ``pdflatex -interaction=nonstopmode -halt-on-error`` on ``main_tex``
    (``runs`` times, then again while LaTeX asks for a rerun, up to
    ``max_runs``: contents and references settle) and return the PDF's path
    (beside ``main_tex``, with its log); raise :class:`LatexError` with the
    log's tail on failure.

    TeX reads a package from the working folder before the installed one,
    and ``main.aux`` from an earlier run as TeX code: a repository that ships
    ``build/derivations/amsmath.sty`` or a ``main.aux`` could make the PDF say
    anything.  So pdflatex runs in a private temporary folder holding copies
    of ``main_tex``, the files it ``\\input``s and its figures, and nothing
    else, and may read no file outside it (``openin_any=p``).  The audit's
    chapter is taken only with the seal this user's audit wrote; otherwise it
    is left out, and ``notes`` (a list) says so."""
    main_tex = Path(main_tex).resolve()
    exe = shutil.which("pdflatex")
    if exe is None:
        raise LatexError("pdflatex is not installed (Debian/Ubuntu: apt-get install texlive-latex-base "
                         "texlive-latex-recommended)")
    cmd = [exe, "-interaction=nonstopmode", "-halt-on-error", "-file-line-error", "-no-shell-escape",
           main_tex.name]
    env = dict(os.environ, SOURCE_DATE_EPOCH=os.environ.get("SOURCE_DATE_EPOCH", "0"),
               FORCE_SOURCE_DATE="1", openin_any="p")
    log = main_tex.with_suffix(".log")
    notes = [] if notes is None else notes
    with tempfile.TemporaryDirectory(prefix="moe-theory-pdf-") as tmp:
        copy = _private_copy(main_tex, Path(tmp), notes)
        work_log = copy.with_suffix(".log")
        try:
            i = 0
            while i < runs or (i < max_runs and "Rerun to get" in work_log.read_text(errors="replace")):
                try:
                    proc = subprocess.run(cmd, cwd=copy.parent, stdin=subprocess.DEVNULL, capture_output=True,
                                          text=True, errors="replace", timeout=timeout, env=env)
                except subprocess.TimeoutExpired:
                    raise LatexError(f"pdflatex {main_tex.name}: no result after {timeout:.0f} s "
                                     f"(log: {log})") from None
                if proc.returncode != 0:
                    raise LatexError(f"pdflatex failed on {main_tex} (run {i + 1}, exit {proc.returncode}); "
                                     f"log: {log}\n" + _tail(work_log, proc.stdout))
                i += 1
        finally:
            if work_log.is_file():
                shutil.copyfile(work_log, log)
        made = copy.with_suffix(".pdf")
        if not made.is_file():
            raise LatexError(f"pdflatex wrote no {made.name}; log: {log}\n" + _tail(work_log, ""))
        pdf = main_tex.with_suffix(".pdf")
        write_atomic(pdf, made.read_bytes())
    return pdf
