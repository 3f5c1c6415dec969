r"""The blueprint: the Lean library and the derivations as one leanblueprint document.

`leanblueprint <https://github.com/PatrickMassot/leanblueprint>`_ is the Lean
community's format for a formalization's plan: LaTeX where every definition,
lemma and theorem carries ``\label``, ``\lean{...}`` (its Lean name),
``\uses{...}`` (what it depends on) and ``\leanok`` (formalized), built as a
PDF and as a web page with a dependency graph (plasTeX with the
plastexdepgraph plugin).  moe-theory writes its results in that layout::

    build/blueprint/src/web.tex            the web version (plasTeX)
    build/blueprint/src/print.tex          the print version (pdflatex)
    build/blueprint/src/content.tex        \input's the chapters, for both
    build/blueprint/src/macros/common.tex  theorem environments (also `assumption`)
    build/blueprint/src/macros/print.tex   \lean, \leanok, \uses ... for pdflatex
    build/blueprint/src/macros/web.tex     layout helpers for plasTeX
    build/blueprint/src/plastex.cfg        leanblueprint's plasTeX configuration
    build/blueprint/src/moestatus.py       plasTeX package: colours for SymPy/numeric/assumed/failed steps
    build/blueprint/src/moestatus_templates/   (its renderer templates)
    build/blueprint/src/extra_styles.css
    build/blueprint/web/index.html         (with the extra `web`) the web version,
    build/blueprint/web/dep_graph_document.html   and its dependency graph

The chapters themselves are the files of ``build/derivations/``:
``lean_library.tex`` (:func:`lean_library_tex`: every named declaration of
``MoeTheory/``) and one file per derivation (:func:`pysym.render.latex.derivation_tex`).
``build/derivations/main.tex`` is the print version compiled to ``main.pdf``:
the same chapters under the same macros (rendered from the same templates).

**Dependencies.**  A derivation step uses the earlier steps its justification
names (the weights of a ``Combine``, the ``of`` of a ``Monotone``), the Lean
theorem of a premise (and of a ``Term`` value), and the assumptions it rests on
(:func:`pysym.render.deps.step_uses`).  A Lean declaration uses the library's
declarations its statement and proof mention, when the compiled library can
be read (:mod:`pysym.render.leandeps`); otherwise no Lean-to-Lean edge is drawn.

**Status.**  ``\leanok`` comes only from the Lean check
(:func:`pysym.render.leanlib.status`): a Lean declaration is marked when the
check passed for it, and a premise step when it verified and the check passed
for its theorem.  Steps proved by SymPy, checked numerically, resting on an
assumption or failing are coloured by ``\sympyok``, ``\numericok``,
``\assumedok`` and ``\stepfailed`` (failing steps also carry ``\notready``).

>>> import tempfile
>>> with tempfile.TemporaryDirectory() as tmp:
...     paths = write_blueprint(Path(tmp), ["routing_term"])
...     sorted(str(p.relative_to(tmp)) for p in paths)[:3]
...     print((Path(tmp) / "blueprint/src/content.tex").read_text().splitlines()[-1])
['blueprint/src/content.tex', 'blueprint/src/extra_styles.css', 'blueprint/src/macros/common.tex']
\input{../../derivations/routing_term}
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Iterable

from pysym.errors import UserError
from pysym.paths import write_atomic
from pysym.render.latex import LEAN_LIBRARY, _clean, _input_path, environment
from pysym.render.citations import cite
from pysym.render.prose import segments, tex_rich
from pysym.render.text import tex_prose

__all__ = ["BlueprintError", "THMS", "lean_prose", "lean_library_tex", "blueprint_files", "write_blueprint",
           "web_available", "build_web", "WEB_EXTRA"]

THMS = "definition+lemma+proposition+theorem+corollary+assumption"  # environments in the graph
WEB_EXTRA = ("plasTeX", "plastexdepgraph", "leanblueprint")  # what `pip install -e '.[web]'` brings
DERIVATIONS = "../../derivations/"  # the chapters, relative to build/blueprint/src/


class BlueprintError(UserError):
    """plasTeX failed on the blueprint; the message ends with its output's tail."""

    exit_code = 1


def lean_prose(text: str) -> str:
    """A Lean docstring as LaTeX: a `code span` that is one formula is typeset
    as math, any other stays code; the prose around it goes through
    :func:`pysym.render.prose.tex_rich`.

    >>> print(lean_prose("`C(n, k) ≤ n ^ k` for all `n`; see `Nat.choose`"))
    \\(\\binom{n}{k} \\leq n^{k}\\) for all \\(n\\); see \\texttt{\\frenchspacing Nat.\\allowbreak{}choose}
    """
    pieces = re.split(r"\*\*(.+?)\*\*", cite(text))  # Markdown **bold**
    if len(pieces) > 1:
        return "".join(rf"\textbf{{{_lean_piece(p)}}}" if i % 2 else _lean_piece(p) for i, p in enumerate(pieces))
    return _lean_piece(pieces[0])


def _lean_piece(text: str) -> str:
    parts = text.split("`")
    if len(parts) % 2 == 0:
        return tex_rich(text)
    out = []
    for i, part in enumerate(parts):
        if i % 2 == 0:
            out.append(tex_rich(part))
            continue
        segs = segments(part.replace(" ^ ", "^"))
        if len(segs) == 1 and segs[0].kind == "math":
            out.append(rf"\({segs[0].value}\)")
        else:
            out.append(tex_prose(f"`{part}`"))
    return "".join(out)


def lean_library_tex(lib) -> str:
    """``lean_library.tex``: the chapter of a :class:`pysym.render.leanlib.Library`."""
    env = environment()
    env.filters.setdefault("leanrich", lean_prose)
    return _clean(env.get_template("blueprint/lean_library.tex.j2").render(lib=lib))


def _render(template: str, **kw) -> str:
    return _clean(environment().get_template(template).render(**kw))


def blueprint_files(names: Iterable[str]) -> dict[str, str]:
    """``{path under build/blueprint/: text}`` of the blueprint's sources for
    the derivations ``names`` (the chapters are in ``build/derivations/``)."""
    inputs = [DERIVATIONS + _input_path(n) for n in [LEAN_LIBRARY, *names]]
    static = Path(__file__).parent / "templates" / "blueprint"
    return {
        "src/web.tex": _render("blueprint/web.tex.j2", thms=THMS),
        "src/print.tex": _render("blueprint/print.tex.j2", file="print.tex", inline_macros=False,
                                 plots="../../plots/", inputs=["content"], extra_inputs=[],
                                 note="build/derivations/main.tex is the same document, compiled to main.pdf."),
        "src/content.tex": _render("blueprint/content.tex.j2", inputs=inputs),
        "src/macros/common.tex": _render("blueprint/common.tex.j2"),
        "src/macros/print.tex": _render("blueprint/print_macros.tex.j2"),
        "src/macros/web.tex": _render("blueprint/web_macros.tex.j2"),
        "src/plastex.cfg": _render("blueprint/plastex.cfg.j2"),
        "src/moestatus.py": (static / "moestatus.py").read_text(encoding="utf-8"),
        "src/extra_styles.css": (static / "extra_styles.css").read_text(encoding="utf-8"),
        "src/moestatus_templates/moestatus.jinja2s": "name: sympyok numericok assumedok stepfailed\n\n",
    }


def write_blueprint(build_dir: Path, names: Iterable[str]) -> list[Path]:
    """Write the blueprint's sources under ``build_dir/blueprint/``; return the paths."""
    root = Path(build_dir) / "blueprint"
    # plasTeX runs with the sources' folder as its working directory and imports the status plugin from it:
    # nothing but these files may be there (a package planted in a repository's `build/` ran as the user's code)
    src = root / "src"
    if src.is_symlink() or src.is_file():
        src.unlink()  # (a link is removed, never followed)
    else:
        shutil.rmtree(src, ignore_errors=True)
    written = []
    for rel, text in sorted(blueprint_files(names).items()):
        write_atomic(root / rel, text)
        written.append(root / rel)
    return written


def web_available() -> bool:
    """Whether the optional extra ``web`` (leanblueprint, plasTeX, plastexdepgraph) is installed."""
    return all(importlib.util.find_spec(m) is not None for m in WEB_EXTRA)


# plasTeX, as `plastex` runs it, except that
# - a jinja2 template is compiled once per environment and source: plasTeX compiles a node's template again
#   every time it renders a node (about 17,000 times for the blueprint, half of its run), and the same source
#   in the same environment compiles to the same template;
# - plastexdepgraph adds the dependency graph's nodes in the order of a set of document nodes, which hash
#   by their addresses in memory (a different order in every run): here they are added in the order of
#   their labels, so that the page is the same bytes every time;
# - a file named by a path (`\input{../../derivations/routing_term}`, `macros/common`) is found beside the
#   working directory whether or not TeX is installed: plasTeX asks TeX's `kpsewhich`, and without it
#   looks for the name in a directory listing, which finds no name with a `/` in it (and the chapters were
#   left out with a warning).
_ORDERED_GRAPH = """\
from plastexdepgraph.Packages import depgraph


class _Ordered(set):
    def __iter__(self):
        return iter(sorted(set.__iter__(self), key=lambda node: node.id))


_to_dot = depgraph.DepGraph.to_dot


def to_dot(self, shapes):
    self.nodes = _Ordered(self.nodes)  # graphviz writes each node's edges after it, whatever order they came in
    return _to_dot(self, shapes)


depgraph.DepGraph.to_dot = to_dot
"""

_LOCAL_FILES = """\
import os
import sys

# run with `python -I`: the working directory is not searched first; the status plugin (moestatus.py) is
# found there, after everything installed, so no file of the folder can stand in for an installed module
sys.path.append(os.getcwd())
from plasTeX.TeX import TeX

_kpsewhich = TeX.kpsewhich


def kpsewhich(self, name):
    if os.path.isfile(name):  # relative to the working directory, which kpsewhich searches first
        return os.path.abspath(name)
    return _kpsewhich(self, name)


TeX.kpsewhich = kpsewhich
"""

_PLASTEX = _ORDERED_GRAPH + _LOCAL_FILES + """\
import sys
import jinja2

_compile = jinja2.Environment.from_string
_compiled = {}


def from_string(self, source, globals=None, template_class=None):
    if globals is not None or template_class is not None or not isinstance(source, str):
        return _compile(self, source, globals, template_class)
    hit = _compiled.get((id(self), source))
    if hit is None or hit[0] is not self:
        hit = _compiled[(id(self), source)] = (self, _compile(self, source))
    return hit[1]


jinja2.Environment.from_string = from_string
from plasTeX.client import plastex

sys.argv[0] = "plastex"
sys.exit(plastex())
"""


def build_web(build_dir: Path, *, timeout: float = 900) -> Path:
    """Run plasTeX on ``build_dir/blueprint/src/web.tex`` (what ``leanblueprint
    web`` runs) and return ``build_dir/blueprint/web/index.html``; raise
    :class:`BlueprintError` if plasTeX fails, reports an error, or writes no
    page or no dependency graph."""
    if not web_available():
        raise BlueprintError("the web blueprint needs the optional extra: pip install -e '.[web]' "
                             "(leanblueprint, plasTeX, plastexdepgraph)")
    src = Path(build_dir) / "blueprint" / "src"
    web = src.parent / "web"
    shutil.rmtree(web, ignore_errors=True)  # plasTeX writes the whole site: no page of an earlier run (or planted) stays
    web.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, SOURCE_DATE_EPOCH=os.environ.get("SOURCE_DATE_EPOCH", "0"))
    try:
        (src / "web.paux").unlink(missing_ok=True)  # plasTeX unpickles it: never one it did not write in this run
        proc = subprocess.run([sys.executable, "-I", "-c", _PLASTEX, "-c", "plastex.cfg", "web.tex"], cwd=src,
                              stdin=subprocess.DEVNULL, capture_output=True, text=True, errors="replace",
                              timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        raise BlueprintError(f"plasTeX gave no result after {timeout:.0f} s") from None
    output = proc.stdout + proc.stderr
    # an error, or a file it could not find (plasTeX leaves the `\input` out and goes on)
    errors = [ln for ln in output.splitlines() if re.match(r"\s*(ERROR\b|WARNING: File not found)", ln)]
    index, graph = web / "index.html", web / "dep_graph_document.html"
    if proc.returncode != 0 or errors or not index.is_file() or not graph.is_file():
        tail = "\n".join((errors or output.strip().splitlines())[-20:])
        raise BlueprintError(f"plasTeX failed on {src / 'web.tex'} (exit {proc.returncode}):\n{tail}")
    return index
