"""Rendering derivations: LaTeX (compiled with pdflatex), notebooks (executed), plots.

The derivations' reports are read once per session against the Lean
statements (``build/lean/statements.json`` when it exists, else from a real
Lean check: the ``real_check`` fixture; slow): from the checkout's cache of
reports when `make run` filled it, else verified here.  Tests marked
``notebook`` execute the generated notebooks with nbclient, one after another
in one kernel (a few seconds each), each verifying its derivation afresh, and
compare what that kernel renders with this process's rendering (a cached
report must render byte for byte as a fresh one); select or skip them with ``-m notebook`` / ``-m "not notebook"``.  Tests needing pdflatex are
skipped, saying so, only when it is not installed.
"""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import nbformat
import pytest
import sympy as sp

from pysym.derive.core import Assumption, Bound, Derivation, Identity, Premise, Remark, Sign, Var
from pysym.render import (
    LatexError,
    compile_pdf,
    derivation_tex,
    master_tex,
    notebook_json,
    pdflatex_available,
    render_all,
)
from pysym.lean.check import CheckResult
from pysym.render.leanlib import library
from pysym.render.prose import tex_rich
from pysym.render.text import md_prose, tex_escape, tex_prose

from conftest import ROOT

needs_pdflatex = pytest.mark.skipif(shutil.which("pdflatex") is None,
                                    reason="pdflatex is not installed (apt-get install texlive-latex-base "
                                           "texlive-latex-recommended)")


# --------------------------------------------------------------------------- fixtures


@pytest.fixture(scope="session")
def statements_json(statements_file) -> Path:
    return statements_file


@pytest.fixture(scope="session")
def reports(derivation_reports):
    reports = list(derivation_reports.values())
    assert all(r.ok for r in reports), [(r.derivation.name, [f.step.id for f in r.failures()]) for r in reports]
    return reports


@pytest.fixture(scope="session")
def project(tmp_path_factory, statements_json) -> Path:
    """A project root (lakefile.lean, MoeTheory/, build/lean/statements.json) for rendering into."""
    root = tmp_path_factory.mktemp("project")
    (root / "lakefile.lean").write_text((ROOT / "lakefile.lean").read_text())
    (root / "MoeTheory").mkdir()
    (root / "build" / "lean").mkdir(parents=True)
    shutil.copy(statements_json, root / "build" / "lean" / "statements.json")
    return root


@pytest.fixture(scope="session")
def lean_library(statements_json):
    """The Lean library under a check that passed (rebuilt from statements.json; no Lean runs)."""
    data = json.loads(statements_json.read_text())
    result = CheckResult(True, [], 0, len(data["statements"]), [], [], data["statements"], "", 0.0)
    return library(ROOT, result)


@pytest.fixture(scope="session")
def rendered(reports, statements, project, lean_library) -> dict[str, list[Path]]:
    return render_all(reports, project / "build", statements=statements,
                      extra_inputs=["../audit/report.tex"], library=lean_library)


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and p.suffix in (".tex", ".ipynb", ".png")}


def _step_block(tex: str, label: str) -> str:
    """A step's environment and its proof (up to the next step)."""
    start = tex.index(r"\label{" + label + "}")
    end = tex.find(r"\end{proof}", start)
    return tex[start:end if end > 0 else len(tex)]


# --------------------------------------------------------------------------- layout and determinism


def test_render_all_layout(rendered, reports, project):
    build = project / "build"
    names = [r.derivation.name for r in reports]
    assert rendered["derivations"] == [build / "derivations" / f"{n}.tex" for n in names] + [
        build / "derivations" / "lean_library.tex"]
    assert rendered["master"] == [build / "derivations" / "main.tex"]
    assert rendered["notebooks"] == [build / "notebooks" / f"{n}.ipynb" for n in names]
    assert {p.name for p in rendered["plots"]} == {"zhao_error_curves.png", "zhao_regimes.png",
                                                   "comprehensive_ratio.png"}
    for paths in rendered.values():
        for p in paths:
            assert p.is_file() and p.stat().st_size > 0
    assert not [p for p in build.rglob("*.tmp")], "temporary files left behind"


@pytest.mark.notebook
def test_rendering_is_deterministic_across_processes(rendered, project, kernel_run):
    """Another process (the notebooks' kernel, hash seed 12345) ran every
    notebook (verifying the derivations of ``FRESH`` afresh) and rendered
    them all again: same bytes."""
    first, second = _files(project / "build"), _files(kernel_run["rendered"])
    assert sorted(first) == sorted(second)
    different = [name for name in first if first[name] != second[name]]
    assert not different, f"not byte-identical: {different}"


def test_render_twice_in_process_is_identical(reports, statements, tmp_path):
    small = [r for r in reports if r.derivation.name in ("routing_term", "comprehensive_law")]
    a = render_all(small, tmp_path / "a", statements=statements)
    b = render_all(small, tmp_path / "b", statements=statements)
    for pa, pb in zip(sum(a.values(), []), sum(b.values(), [])):
        assert pa.read_bytes() == pb.read_bytes(), pa.name


def test_single_file_functions(reports, statements, tmp_path):
    from pysym.render import render_derivation, render_master, render_notebook, render_plots

    r = next(r for r in reports if r.derivation.name == "comprehensive_law")
    plots = render_plots(r, tmp_path / "plots")
    assert [(p.name, p.is_file()) for p, _ in plots] == [("comprehensive_ratio.png", True)]
    tex = render_derivation(r, tmp_path / "derivations", statements=statements)  # renders its plots too
    assert tex == tmp_path / "derivations" / "comprehensive_law.tex"
    assert r"\mtgraphic{comprehensive_ratio.png}" in tex.read_text()  # main.tex: \graphicspath{{../plots/}}
    main = render_master(tmp_path / "derivations", ["comprehensive_law"])
    assert main.read_text().count(r"\input{") == 2  # the Lean chapter and the derivation
    nb = render_notebook(r, tmp_path / "notebooks")
    nbformat.validate(nbformat.read(nb, as_version=4))
    with pytest.raises(ValueError):
        master_tex(["bad name%"])


def test_failure_writes_nothing(tmp_path):
    def broken_plot(out, plt):
        fig, ax = plt.subplots()
        fig.savefig(out / "half.png")
        raise RuntimeError("plot failed")

    x = Var("x", 1, 10, "a number")
    d = Derivation("broken", "Broken plot", vars=[x], steps=[
        Bound("pos", 0, x.symbol, by=Sign(), text="x > 0")], conclusion="pos", plots=[broken_plot])
    with pytest.raises(RuntimeError, match="plot failed"):
        render_all([d.verify()], tmp_path / "build", statements={})
    assert not [p for p in (tmp_path / "build").rglob("*") if p.is_file()]


# --------------------------------------------------------------------------- LaTeX content


def test_lean_premise_is_marked_for_leanblueprint(rendered, project):
    tex = (project / "build" / "derivations" / "zhao_theorem1.tex").read_text()
    block = _step_block(tex, "step:zhao_theorem1.choose")
    assert r"\lean{MoeTheory.choose_le_pow}" in block and r"\leanok" in block
    assert r"\uses{lean:choose_le_pow}" in block
    assert "Lean statement" in block and r"\ensuremath{\le}" in block  # the statement, Unicode mapped
    count = _step_block(tex, "step:zhao_theorem1.count")
    # every hypothesis whole, on its own line, with how it holds (never cut off)
    assert "if \\mtcode{\\texttt{\\frenchspacing xs.\\allowbreak{}length = 2 * m}} (assumption S2m)" in count
    assert "..." not in count
    routing = (project / "build" / "derivations" / "routing_term.tex").read_text()
    assert r"\lean{MoeTheory.choose_mul_factorial_le_pow}" in _step_block(routing, "step:routing_term.upper")
    main = (project / "build" / "derivations" / "main.tex").read_text()
    assert r"\newcommand{\lean}" not in main and r"\providecommand{\lean}[1]{}" in main


def test_step_justifications_are_labelled(rendered, project):
    tex = (project / "build" / "derivations" / "zhao_optimal_k.tex").read_text()
    assert "checked numerically only, not proved" in _step_block(tex, "step:zhao_optimal_k.tie_below")
    assert "computed numerically, not proved" in _step_block(tex, "step:zhao_optimal_k.rho_star")
    assert "proved by SymPy" in _step_block(tex, "step:zhao_optimal_k.lit_global")
    assert r"\mtgraphic{zhao_regimes.png}" in tex  # \includegraphics, shrunk to the text width
    thm = (project / "build" / "derivations" / "zhao_theorem1.tex").read_text()
    lemma5 = _step_block(thm, "step:zhao_theorem1.lemma5")
    assert r"rests on assumption \hyperref[assumption:zhao_theorem1.A3]{\textbf{A3}}" in lemma5
    assert "Lemma 5 of the paper" in lemma5 and r"\assumedok" in lemma5
    assert "Numeric spot-check" in _step_block(thm, "step:zhao_theorem1.theorem1")
    main = (project / "build" / "derivations" / "main.tex").read_text()
    assert r"\IfFileExists{../audit/report.tex}{\clearpage\input{../audit/report.tex}}{}" in main
    assert all(rf"\IfFileExists{{{n}.tex}}{{\input{{{n}}}}}{{}}" in main
               for n in ("lean_library", "zhao_theorem1", "compute_optimal"))


def test_text_escaping():
    assert tex_escape("a_b 50% R&D #1 $x {y} ~ ^ \\") == (
        r"a\_b 50\% R\&D \#1 \$x \{y\} \textasciitilde{} \textasciicircum{} \textbackslash{}")
    assert tex_prose("k <= T and `n_k`") == r"k \ensuremath{\le} T and \texttt{\frenchspacing n\char95{}\allowbreak{}k}"
    assert "[U+2603]" in tex_escape("☃")
    assert md_prose("a_b * $x$") == r"a\_b \* \$x\$"


HOSTILE = "Text with _ % & # $ { } ~ ^ \\ and ∀ ε ≤ Γ ⟪μ⟫, plus <= and a `code_span%#` and long_token_" + "x" * 80


def _hostile_derivation() -> Derivation:
    x = Var("x_1", 1, 10**6, "the 50% & #1 quantity_x {braces}", latex="x_1")
    return Derivation(
        "hostile_case", "Escaping: 100% of A_B & C#", vars=[x],
        steps=[
            Premise("prem", "MoeTheory.choose_le_pow", sp.Le(x.symbol, x.symbol**2), text=HOSTILE),
            Remark("note", text=HOSTILE),
            Identity("same", sp.log(x.symbol**2), 2 * sp.log(x.symbol), text=HOSTILE),
            Bound("pos", 0, x.symbol, by=Sign(), text="x_1 >= 0 & 5% ~"),
        ],
        conclusion="pos", source="Source_with % & #", summary=HOSTILE,
        assumptions=[Assumption("A_1", HOSTILE)], findings=[HOSTILE],
    )


def test_escaping_in_rendered_latex():
    report = _hostile_derivation().verify({})  # no statements: the premise fails, visibly
    assert not report.ok
    tex = derivation_tex(report)
    assert r"Escaping: 100\% of A\_B \& C\#" in tex
    assert r"the 50\% \& \#1 quantity\_x \{braces\}" in tex
    assert r"\lean{MoeTheory.choose_le_pow}" in tex
    assert "This derivation does not verify" in tex
    assert tex_rich(HOSTILE) in tex
    assert r"\_ \% \& \# \$ \{ \} \textasciitilde{} \textasciicircum{} \textbackslash{}" in tex
    assert all(ord(c) < 128 for c in tex), "non-ASCII left in the LaTeX"


@needs_pdflatex
def test_hostile_text_compiles(tmp_path):
    folder = tmp_path / "derivations"
    folder.mkdir()
    (folder / "hostile_case.tex").write_text(derivation_tex(_hostile_derivation().verify({})))
    (folder / "main.tex").write_text(master_tex(["hostile_case"], ["../audit/report.tex"]))
    pdf = compile_pdf(folder / "main.tex")
    assert pdf.is_file() and pdf.stat().st_size > 1000
    _assert_no_overfull(folder / "main.log")


def _assert_no_overfull(log: Path, tolerance_pt: float = 3.0):
    text = log.read_text(errors="replace")
    wide = [float(m) for m in re.findall(r"Overfull \\hbox \(([\d.]+)pt too wide\)", text)]
    assert all(w <= tolerance_pt for w in wide), f"overfull boxes: {wide}"


@pytest.fixture(scope="session")
def master_pdf(rendered) -> Path:
    """``main.pdf`` (the Lean chapter and every derivation), compiled once for the tests that read it."""
    return compile_pdf(rendered["master"][0])


@needs_pdflatex
def test_master_document_compiles(rendered, master_pdf):
    assert pdflatex_available()
    main = rendered["master"][0]
    pdf = master_pdf
    assert pdf == main.with_suffix(".pdf") and pdf.read_bytes().startswith(b"%PDF")
    log = main.with_suffix(".log").read_text(errors="replace")
    assert "Rerun to get" not in log  # the second run settled the references
    assert "There were undefined references" not in log
    _assert_no_overfull(main.with_suffix(".log"))


@needs_pdflatex
def test_files_planted_beside_main_tex_are_never_read_by_pdflatex(tmp_path):
    """TeX reads a package from its working folder before the installed one, and an old ``main.aux`` as TeX
    code: a repository that shipped ``build/derivations/amsmath.sty`` could make the PDF say anything
    (red-team, twelfth session).  pdflatex runs in a private copy of what ``main.tex`` names."""
    from pysym.render.latex import master_tex

    here = tmp_path / "derivations"
    here.mkdir()
    (here / "main.tex").write_text(master_tex(["demo"]))
    (here / "demo.tex").write_text("\\section{Demo}\nA chapter.\n")
    for planted in ("amsmath.sty", "main.aux", "demo.aux"):
        (here / planted).write_text("\\errmessage{planted file read}\n")
    pdf = compile_pdf(here / "main.tex")
    assert pdf == here / "main.pdf" and pdf.read_bytes().startswith(b"%PDF")
    log = (here / "main.log").read_text(errors="replace")
    assert "planted file read" not in log and "demo.tex" in log  # the chapter was read, the planted files not
    assert (here / "amsmath.sty").read_text() == "\\errmessage{planted file read}\n"  # left where it was


@needs_pdflatex
def test_an_audit_chapter_this_user_did_not_write_is_left_out_of_the_pdf(tmp_path):
    """Red-team: `derive --pdf` took `build/audit/report.tex` as it found it, so a repository could ship an
    audit chapter saying every claim holds (and `\\input` any file of the machine into the PDF).  The
    chapter goes in only with the seal this user's audit wrote beside it; TeX may read no file outside its
    private folder."""
    from pysym.render.latex import master_tex, seal_audit_chapter

    here, audit, plots = tmp_path / "derivations", tmp_path / "audit", tmp_path / "plots"
    for d in (here, audit, plots):
        d.mkdir()
    (here / "main.tex").write_text(master_tex(["demo"], extra_inputs=["../audit/report.tex"]))
    (here / "demo.tex").write_text("\\section{Demo}\nA chapter.\n")
    (audit / "report.tex").write_text("\\section{Audit}\nEvery claim holds, says the repository.\n")
    notes = []
    compile_pdf(here / "main.tex", notes=notes)
    assert "audit/report.tex" not in (here / "main.log").read_text(errors="replace")
    assert len(notes) == 1 and "left out" in notes[0] and "report.tex" in notes[0]
    seal_audit_chapter(audit / "report.tex", plots)  # as this user's `moe-theory audit` does
    notes = []
    compile_pdf(here / "main.tex", notes=notes)
    assert notes == [] and "audit/report.tex" in (here / "main.log").read_text(errors="replace")
    secret = tmp_path / "elsewhere.txt"  # a sealed chapter that reads a file outside the folder: refused by TeX
    secret.write_text("not for the PDF\n")
    (audit / "report.tex").write_text(f"\\section{{Audit}}\n\\input{{{secret}}}\n")
    seal_audit_chapter(audit / "report.tex", plots)
    with pytest.raises(LatexError):
        compile_pdf(here / "main.tex")


needs_pdftotext = pytest.mark.skipif(shutil.which("pdftotext") is None,
                                     reason="pdftotext is not installed (apt-get install poppler-utils)")

# what must never reach a reader: ASCII stand-ins for math, SymPy's own notation, internal names
_NOT_FOR_READERS = {
    "ASCII circumflex": re.compile("\u02c6"),  # (a caret inside Lean code is Lean's own notation)
    "ASCII tilde": re.compile("\u02dc"),
    "unmapped character": re.compile(r"\[U\+[0-9A-F]{4}\]"),
    "SymPy repr": re.compile(r"\b(?:Eq|Symbol|Rational|Integer|Float|Mul|Add|Pow|binomial|factorial)\(|\*\*"),
    "internal dummy name": re.compile(r"\bs_\d+_\w+|\bDummy\b|_Dummy"),
    "cut-off hypothesis": re.compile(r"\.\.\.:"),
    "rational with more than 12 digits": re.compile(r"\d{13,}\s*/\s*\d|\d\s*/\s*\d{13,}"),
    "number with more than 12 digits": re.compile(r"\d{13,}|\d\.\d{13,}"),
}


@needs_pdflatex
@needs_pdftotext
def test_pdf_text_is_typeset_mathematics(master_pdf):
    """main.pdf (the Lean chapter and every derivation) reads as mathematics.

    The audit section is left out here (this project has no build/audit/report.tex):
    its rendering belongs to the auditor (pysym/audit, audit_tex.py)."""
    text = subprocess.run(["pdftotext", "-enc", "UTF-8", str(master_pdf), "-"], capture_output=True, text=True,
                          check=True).stdout
    assert "The Lean library" in text and "The routing term" in text
    found = {what: sorted(set(p.findall(text)))[:5] for what, p in _NOT_FOR_READERS.items() if p.search(text)}
    assert not found, found


@needs_pdflatex
def test_compile_error_reports_log_tail(tmp_path):
    main = tmp_path / "main.tex"
    main.write_text("\\documentclass{article}\n\\begin{document}\n\\undefinedmacro\n\\end{document}\n")
    with pytest.raises(LatexError) as info:
        compile_pdf(main)
    assert "Undefined control sequence" in str(info.value)


# --------------------------------------------------------------------------- notebooks


def test_notebooks_are_valid_and_unexecuted(rendered):
    for path in rendered["notebooks"]:
        nb = nbformat.read(path, as_version=4)
        nbformat.validate(nb)
        assert nb.metadata.kernelspec.name == "python3"
        code = [c for c in nb.cells if c.cell_type == "code"]
        assert code and all(c.execution_count is None and c.outputs == [] for c in code)
        assert len({c.id for c in nb.cells}) == len(nb.cells)
        name = path.stem
        assert f'build("{name}")' in code[0].source
        assert "assert report.ok" in code[-1].source


def test_notebook_steps(rendered, reports):
    r = next(r for r in reports if r.derivation.name == "zhao_theorem1")
    nb = nbformat.reads(notebook_json(r), as_version=4)
    sources = [c.source for c in nb.cells]
    step = next(i for i, s in enumerate(sources) if s.startswith("### Step `choose`"))
    assert "$$\n{\\binom{T}{k}} \\leq T^{k}\n$$" in sources[step]
    assert 'report.result("choose")' in sources[step + 1]


NOTEBOOKS = ["zhao_theorem1", "routing_term", "zhao_remark3", "zhao_optimal_k", "mayaki_scaling",
             "comprehensive_law", "compute_optimal"]

# run in the kernel after every notebook: keep the report it verified (`%reset -f` clears the names, not builtins)
_KEEP = "import builtins; builtins.__dict__.setdefault('_moe_reports', []).append(report)"

# These notebooks verify afresh in the kernel (another process, another hash seed: the reports must render to
# the same bytes).  The others take their report from the checkout's cache of reports when it has it (the report
# a fresh verification gives: test_derive_cache.py), since verifying them again costs about 13 s of CPU time
# and runs the same code; the notebook's own cells run in full either way.
FRESH = ("zhao_theorem1", "routing_term", "zhao_remark3", "comprehensive_law")

# run in the kernel first: Derivation.verify looks in the cache for the other notebooks; records which it did
_CACHED = """\
import builtins
from pathlib import Path
from pysym.derive import derivation as _derivation
from pysym.derive.cache import ReportCache

def _verify(self, statements=None, *, _fresh=_derivation.Derivation.verify, _cache=ReportCache(Path({cache!r})),
            _log=builtins.__dict__.setdefault('_moe_verified', [])):  # defaults: `%reset -f` clears the names
    report = None
    if self.name not in {fresh!r}:
        report = _cache.get(_cache.key(self.name, statements, self), self.name)
    _log.append((self.name, report is None))
    return _fresh(self, statements) if report is None else report

_derivation.Derivation.verify = _verify
"""

# run in the kernel at the end: render the kept reports as `rendered` does in this process
_RENDER = """\
import builtins, json
from pathlib import Path
from pysym.derive.run import load_statements
from pysym.lean.check import CheckResult
from pysym.render import render_all
from pysym.render.leanlib import library
st = load_statements(Path({statements!r}))
data = json.loads((Path({statements!r}) / "lean" / "statements.json").read_text())
lib = library(Path({root!r}), CheckResult(True, [], 0, 0, [], [], data["statements"], "", 0.0))
render_all(builtins._moe_reports, Path({out!r}), statements=st, extra_inputs=["../audit/report.tex"], library=lib)
"""


@pytest.fixture(scope="session")
def kernel_run(rendered, project, statements_json, tmp_path_factory):
    """Every notebook executed, in order, in one Jupyter kernel started in the
    notebooks' folder (another process, with the hash seed 12345; one kernel,
    as starting one costs a second or two), each after ``%reset -f`` so that
    none sees the names another defined (the derivations not in ``FRESH``
    take their reports from the cache of reports, see ``_CACHED``); then, in
    that kernel, the reports the notebooks verified rendered again into
    another folder.  Returns ``{"notebooks": {name: executed notebook},
    "rendered": that folder, "verified": {name: whether it verified afresh}}``."""
    pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    from jupyter_client.manager import KernelManager
    from nbclient import NotebookClient

    folder = project / "build" / "notebooks"
    assert sorted(NOTEBOOKS) == sorted(p.stem for p in rendered["notebooks"])  # every notebook is executed
    out = tmp_path_factory.mktemp("kernel") / "build"
    km = KernelManager(kernel_name="python3")
    km.start_kernel(cwd=str(folder), env=dict(os.environ, PYTHONHASHSEED="12345"))
    try:
        setup = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(
            _CACHED.format(cache=str(ROOT / "build" / ".cache" / "derive"), fresh=FRESH))])
        NotebookClient(setup, km=km, timeout=300, kernel_name="python3").execute()
        executed = {}
        for name in NOTEBOOKS:
            nb = nbformat.read(folder / f"{name}.ipynb", as_version=4)
            nb.cells.insert(0, nbformat.v4.new_code_cell("%reset -f"))
            nb.cells.append(nbformat.v4.new_code_cell(_KEEP))
            NotebookClient(nb, km=km, timeout=300, kernel_name="python3").execute()
            nb.cells = nb.cells[1:-1]
            executed[name] = nb
        last = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(
            _RENDER.format(statements=str(statements_json.parent.parent), root=str(ROOT), out=str(out)))])
        NotebookClient(last, km=km, timeout=600, kernel_name="python3").execute()
        how = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(
            "import builtins; print(repr(builtins._moe_verified))")])
        NotebookClient(how, km=km, timeout=60, kernel_name="python3").execute()
        verified = dict(ast.literal_eval(how.cells[0].outputs[0]["text"]))
    finally:
        km.shutdown_kernel(now=True)
    return {"notebooks": executed, "rendered": out, "verified": verified}


@pytest.mark.notebook
@pytest.mark.parametrize("name", NOTEBOOKS)
def test_notebook_executes(kernel_run, name):
    nb = kernel_run["notebooks"][name]
    assert name in kernel_run["verified"] and (name not in FRESH or kernel_run["verified"][name])
    last = "".join(o.get("text", "") for o in nb.cells[-1].outputs)
    assert f"steps of {name} verify" in last
    claims = [c for c in nb.cells if c.cell_type == "code" and "report.result(" in c.source]
    assert claims and all(any(o.output_type == "execute_result" for o in c.outputs) for c in claims)
    assert all("ok: True" in "".join(o.get("text", "") for o in c.outputs) for c in claims)


def test_paths_in_json_are_relative(rendered):
    for path in rendered["notebooks"]:
        assert str(ROOT) not in path.read_text() and "/tmp" not in path.read_text()
    data = json.loads(rendered["notebooks"][0].read_text())
    assert data["metadata"]["language_info"] == {"name": "python"}
