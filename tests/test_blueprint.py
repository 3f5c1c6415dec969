"""The blueprint: labels, \\uses, \\leanok from the Lean check, the web build.

No Lean runs here: the check result is rebuilt from ``build/lean/statements.json``
(the project's own, else from one real check, as in ``test_render``), and
failing checks are made by adding problems to it.  Two derivations keep the
session short.  The web test needs the optional extra (``pip install -e
'.[web]'``) and is skipped, saying so, without it.
"""

from __future__ import annotations

import json
import re
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from pysym.lean.check import CheckResult
from pysym.lean.source import Problem
from pysym.render import compile_pdf, render_all
from pysym.render.blueprint import BlueprintError, blueprint_files, build_web, lean_library_tex, web_available, write_blueprint
from pysym.render.leanlib import library

from conftest import ROOT

NAMES = ["zhao_theorem1", "routing_term"]

needs_web = pytest.mark.skipif(not web_available(), reason="the optional extra `web` is not installed "
                                                           "(pip install -e '.[web]': leanblueprint, plasTeX)")
needs_pdflatex = pytest.mark.skipif(shutil.which("pdflatex") is None, reason="pdflatex is not installed")


@pytest.fixture(scope="session")
def passed(statements_file) -> CheckResult:
    """The result of a Lean check that passed, rebuilt from statements.json."""
    data = json.loads(statements_file.read_text())
    modules = sorted({info["module"] for info in data["statements"].values()})
    return CheckResult(True, modules, 0, len(data["statements"]), [], [], data["statements"],
                       data.get("toolchain", ""), 0.0, cached=True)


@pytest.fixture(scope="session")
def reports(derivation_reports, statements):
    return [derivation_reports[n] for n in NAMES], statements


def _build(tmp: Path, reports, result, uses=None) -> Path:
    reps, statements = reports
    build = tmp / "build"
    render_all(reps, build, statements=statements, library=library(ROOT, result, uses), all_names=NAMES)
    write_blueprint(build, NAMES)
    return build


@pytest.fixture(scope="session")
def built(tmp_path_factory, reports, passed) -> Path:
    return _build(tmp_path_factory.mktemp("bp"), reports, passed)


def _code(tex: str) -> str:
    """LaTeX without its comment lines."""
    return "\n".join(ln for ln in tex.splitlines() if not ln.lstrip().startswith("%"))


def _sources(build: Path) -> str:
    return "\n".join(_code(p.read_text()) for p in sorted((build / "derivations").glob("*.tex"))
                     if p.name != "main.tex")


_ENV = re.compile(r"\\begin\{(definition|lemma|theorem|assumption)\}(.*?)\\end\{\1\}(\s*\\begin\{proof\}(.*?)"
                  r"\\end\{proof\})?", re.S)


def _nodes(tex: str) -> list[dict]:
    """Each blueprint node: its label, Lean names, \\leanok in statement/proof, \\uses."""
    out = []
    for m in _ENV.finditer(tex):
        body, proof = m.group(2), m.group(4) or ""
        label = re.search(r"\\label\{([^}]*)\}", body)
        lean = re.search(r"\\lean\{([^}]*)\}", body)
        uses = [u for g in re.findall(r"\\uses\{([^}]*)\}", body + proof) for u in g.split(",")]
        out.append({"env": m.group(1), "label": label.group(1) if label else None,
                    "lean": lean.group(1).split(",") if lean else [], "uses": uses,
                    "leanok": r"\leanok" in body, "proof_leanok": r"\leanok" in proof})
    return out


# --------------------------------------------------------------------------- structure


def test_layout_is_leanblueprints(built):
    src = built / "blueprint" / "src"
    for rel in ("web.tex", "print.tex", "content.tex", "macros/common.tex", "macros/web.tex", "macros/print.tex",
                "plastex.cfg"):
        assert (src / rel).is_file(), rel
    assert r"\usepackage[dep_graph,thms=" in (src / "web.tex").read_text()
    assert "plugins=plastexdepgraph leanblueprint" in (src / "plastex.cfg").read_text()
    content = (src / "content.tex").read_text()
    assert [ln for ln in content.splitlines() if ln.startswith(r"\input")] == [
        r"\input{../../derivations/lean_library}", *(rf"\input{{../../derivations/{n}}}" for n in NAMES)]
    for n in ["lean_library", *NAMES]:
        assert (built / "derivations" / f"{n}.tex").is_file()
    main = (built / "derivations" / "main.tex").read_text()
    assert r"\newcommand{\lean}" not in main and r"\providecommand{\lean}[1]{}" in main  # no clash


def test_every_reference_has_a_label(built):
    tex = _sources(built)
    labels = re.findall(r"\\label\{([^}]*)\}", tex)
    assert len(labels) == len(set(labels)), "duplicate labels"
    used = {u for g in re.findall(r"\\uses\{([^}]*)\}", tex) for u in g.split(",")}
    refs = set(re.findall(r"\\(?:ref|hyperref\[)\{?([^}\]]*)", tex))
    assert used and not used - set(labels), f"\\uses without a \\label: {sorted(used - set(labels))}"
    assert not refs - set(labels), f"references without a \\label: {sorted(refs - set(labels))}"


def test_every_declaration_and_step_is_a_node(built, reports):
    nodes = _nodes(_sources(built))
    lean = {name for n in nodes for name in n["lean"] if n["label"].startswith("lean:")}
    lib = library(ROOT, None)
    assert lean == {d.name for d in lib.decls()}
    steps = {n["label"] for n in nodes if n["label"].startswith("step:")}
    expected = {f"step:{r.derivation.name}.{s.step.id}" for r in reports[0] for s in r.steps
                if type(s.step).__name__ not in ("Remark", "Check")}
    assert steps == expected
    assumptions = {n["label"] for n in nodes if n["env"] == "assumption"}
    assert "assumption:routing_term.B1" in assumptions


def test_dependencies_follow_the_justifications(built):
    nodes = {n["label"]: n for n in _nodes(_sources(built))}
    assert nodes["step:routing_term.choose_upper"]["uses"] == ["step:routing_term.upper", "step:routing_term.stirling"]
    assert nodes["step:routing_term.log_upper"]["uses"] == ["step:routing_term.choose_upper"]
    assert nodes["step:routing_term.lower"]["uses"] == ["lean:pow_le_choose_mul_pow"]
    assert nodes["step:routing_term.stirling"]["uses"] == ["assumption:routing_term.B1"]
    count = nodes["step:zhao_theorem1.count"]
    assert count["uses"][0] == "lean:routing_patterns_le" and "assumption:zhao_theorem1.A1" in count["uses"]


# --------------------------------------------------------------------------- \leanok


def _leanok_matches(build: Path, status: dict) -> tuple[int, int]:
    """Check that \\leanok appears exactly where the status allows it; return counts."""
    marked = total = 0
    for n in _nodes(_sources(build)):
        if not n["lean"]:
            assert not n["leanok"] and not n["proof_leanok"], n["label"]
            continue
        total += 1
        allowed = all(status.get(name, False) for name in n["lean"])
        if n["label"].startswith("lean:"):
            assert n["leanok"] == allowed, n["label"]
        else:
            assert not n["leanok"] or allowed, n["label"]
        if n["leanok"]:
            marked += 1
    return marked, total


def test_leanok_where_the_check_passed(built, passed):
    lib = library(ROOT, passed)
    assert all(lib.status().values())
    marked, total = _leanok_matches(built, lib.status())
    assert marked == total > 100


def test_no_leanok_where_the_check_failed(tmp_path, reports, passed):
    broken = replace(passed, ok=False, problems=[Problem("MoeTheory/Choose.lean", 100, 0, "error: type mismatch")])
    lib = library(ROOT, broken)
    status = lib.status()
    assert not status["MoeTheory.choose_le_pow"]  # in the failing module
    assert not status["MoeTheory.routing_patterns_le"]  # RoutingCount imports Choose
    assert status["MoeTheory.FinProbSpace.prob_le_one"]  # UnionBound does not
    build = _build(tmp_path, reports, broken)
    marked, total = _leanok_matches(build, status)
    assert 0 < marked < total
    routing = _code((build / "derivations" / "routing_term.tex").read_text())
    assert r"\leanok" not in routing
    assert "The Lean check did not pass" in (build / "derivations" / "lean_library.tex").read_text()


def test_no_leanok_without_lean(passed):
    gated = replace(passed, ok=False, lean_ran=False, problems=[Problem("MoeTheory/Masks.lean", 3, 0, "sorry")])
    tex = _code(lean_library_tex(library(ROOT, gated)))
    assert r"\leanok" not in tex and "Lean did not run" in tex
    outside = replace(passed, ok=False, problems=[Problem("pysym/lean/exports.py", 0, 0, "missing export")])
    assert not any(library(ROOT, outside).status().values())


def test_lean_to_lean_uses(passed):
    uses = {"MoeTheory.choose_le_pow": ["MoeTheory.choose", "MoeTheory.choose_pos", "Nat.le"]}
    tex = lean_library_tex(library(ROOT, passed, uses))
    node = next(n for n in _nodes(tex) if n["label"] == "lean:choose_le_pow")
    assert node["uses"] == ["lean:choose", "lean:choose_pos"]  # only declarations of the library
    assert "are not drawn" not in tex
    # a declaration is only checked if what it uses is
    broken = replace(passed, statements={k: v for k, v in passed.statements.items() if k != "MoeTheory.choose_pos"})
    status = library(ROOT, broken, uses).status()
    assert not status["MoeTheory.choose_pos"] and not status["MoeTheory.choose_le_pow"]
    assert "are not drawn" in lean_library_tex(library(ROOT, passed, None))


def test_blueprint_sources_are_deterministic():
    assert blueprint_files(NAMES) == blueprint_files(NAMES)


# --------------------------------------------------------------------------- builds


@needs_pdflatex
def test_print_version_compiles(built):
    pdf = compile_pdf(built / "derivations" / "main.tex")
    log = pdf.with_suffix(".log").read_text(errors="replace")
    assert "There were undefined references" not in log
    assert "Reference `" not in log


@needs_web
def test_the_dependency_graph_is_written_in_the_order_of_its_labels(monkeypatch):
    """plastexdepgraph keeps the graph's nodes in sets of document nodes, which hash by address: the same
    graph built from other objects (inserted in another order) must still give the same DOT text."""
    from types import SimpleNamespace

    from pysym.render.blueprint import _ORDERED_GRAPH

    depgraph = pytest.importorskip("plastexdepgraph.Packages.depgraph")
    monkeypatch.setattr(depgraph.DepGraph, "to_dot", depgraph.DepGraph.to_dot)  # restored afterwards
    exec(_ORDERED_GRAPH, {})

    class Node:  # hashed by identity, as plasTeX's nodes are
        def __init__(self, label):
            self.id, self.thmName, self.parentNode = f"lean:{label}", "theorem", None

    def dot(labels):
        nodes = {label: Node(label) for label in labels}
        graph = depgraph.DepGraph()
        graph.document = SimpleNamespace(userdata={"dep_graph": {}})
        graph.nodes = set(nodes.values())
        order = sorted(labels)  # several edges from each node, of each kind
        graph.edges = {(nodes[a], nodes[b]) for i, a in enumerate(order) for b in order[i + 1:i + 4]}
        graph.proof_edges = {(nodes[a], nodes[b]) for i, a in enumerate(order) for b in order[i + 4:i + 7]}
        return graph.to_dot({}).string()

    labels = [f"t{i:02d}" for i in range(40)]
    first = dot(labels)
    assert all(dot(labels[::-1] if i % 2 else labels) == first for i in range(4))
    assert first.index('"lean:t00"') < first.index('"lean:t01"') < first.index('"lean:t39"')


def _plant(src: Path, marker: Path) -> None:
    """What a repository could ship in `build/blueprint/src/` (red-team, twelfth session): a package named like
    one plasTeX's runner imports, which the runner found first in its working directory and ran as the user's
    code, and a `web.paux`, which plasTeX unpickles."""
    import pickle

    class Payload:
        def __reduce__(self):
            return (exec, (f"open({str(marker)!r}, 'a').write('paux ran\\n')",))

    (src / "plastexdepgraph").mkdir(parents=True, exist_ok=True)
    (src / "plastexdepgraph" / "__init__.py").write_text(f"open({str(marker)!r}, 'a').write('package ran\\n')\n")
    (src / "web.paux").write_bytes(pickle.dumps(Payload()))


def test_web_version_builds(built, tmp_path):
    marker = tmp_path / "ran"
    _plant(built / "blueprint" / "src", marker)  # planted after the sources were written: build_web alone
    index = build_web(built)
    assert not marker.exists(), marker.read_text()  # neither ran (python -I, the folder searched last; no old paux)
    web = built / "blueprint" / "web"
    assert index == web / "index.html" and index.is_file()
    graph = (web / "dep_graph_document.html").read_text()
    for node in ("lean:choose_le_pow", "step:routing_term.upper", "assumption:routing_term.B1"):
        assert f'"{node}"' in graph, node
    assert '"step:routing_term.upper" -> "step:routing_term.choose_upper"' in graph
    assert "#D9CCF5" in graph  # a step proved by SymPy has its own colour


def test_writing_the_blueprint_leaves_nothing_else_in_its_sources_folder(tmp_path):
    src = tmp_path / "blueprint" / "src"
    _plant(src, tmp_path / "ran")
    (src / "amsmath.sty").write_text("% would stand in for the installed package\n")
    written = write_blueprint(tmp_path, NAMES)
    assert sorted(p for p in src.rglob("*") if p.is_file()) == sorted(p for p in written if src in p.parents)


@needs_web
def test_the_web_build_finds_files_by_path_without_tex_and_refuses_a_missing_one(tmp_path, monkeypatch):
    """plasTeX finds a file named by a path (``\\input{../chapters/one}``) with
    TeX's `kpsewhich`; a machine without TeX used to leave the chapters out of
    the page with a warning, and the build passed.  Here no TeX is on PATH: the
    chapter that exists is read, the one that does not stops the build."""
    for rel, text in blueprint_files(NAMES).items():  # the blueprint's own sources, with chapters of ours
        (tmp_path / "blueprint" / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "blueprint" / rel).write_text(text)
    (tmp_path / "chapters").mkdir()
    (tmp_path / "chapters" / "one.tex").write_text(
        "\\begin{theorem}\\label{thm:found}\\lean{found}\\leanok\nA chapter read by its path.\n\\end{theorem}\n")
    content = tmp_path / "blueprint" / "src" / "content.tex"
    monkeypatch.setenv("PATH", str(tmp_path / "no-tex-here"))
    content.write_text("\\input{../../chapters/one}\n")
    build_web(tmp_path)
    assert '"thm:found"' in (tmp_path / "blueprint" / "web" / "dep_graph_document.html").read_text()
    content.write_text("\\input{../../chapters/one}\n\\input{../../chapters/two}\n")
    with pytest.raises(BlueprintError, match=r"File not found: \.\./\.\./chapters/two") as error:
        build_web(tmp_path)
    assert "chapters/one" not in str(error.value)
