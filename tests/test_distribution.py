"""The installed tool in someone else's project: what `pip install .` gives a user.

The wheel is built from a copy of the working tree (tracked files and new ones that
git does not ignore, so uncommitted work is what is tested) and installed into a
fresh virtual environment.  To keep the test fast, that environment takes the
third-party dependencies from the project's own environment through a ``.pth``
file; ``pysym`` itself comes from the wheel only (asserted).  In an unrelated
temporary folder the installed ``moe-theory`` then scaffolds a claims file and a CI
workflow, audits the scaffold and a copy of a shipped claims file, and checks a Lean
file that proves a new lemma on top of ``MoeTheory.Choose``; every output must land
in that folder, and nothing in the checkout or in the installed package may change.

The Lean check costs about 10 s when the library's base is in the user cache (the
``real_check`` fixture puts it there), about 55 s otherwise.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

from conftest import ROOT, USER_LEMMA

pytestmark = pytest.mark.packaging  # `make test-packaging` (CI runs it after `make test`)

EXAMPLE = "comprehensive-2509.23678"


def git_status() -> list[str]:
    """``git status --porcelain`` of the checkout, without its own build/."""
    out = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout
    return sorted(line for line in out.splitlines() if not line[3:].startswith("build/"))


def snapshot(folder: Path) -> dict[str, tuple[int, int]]:
    """Every file under ``folder`` with its size and modification time."""
    return {p.relative_to(folder).as_posix(): (p.stat().st_size, p.stat().st_mtime_ns)
            for p in sorted(folder.rglob("*")) if p.is_file()}


def working_tree_copy(dest: Path) -> Path:
    """The checkout's files that git would commit, copied to ``dest``."""
    names = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                           capture_output=True, check=True).stdout.decode().split("\0")
    for name in filter(None, names):
        src = ROOT / name
        if src.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            (dest / name).write_bytes(src.read_bytes())
    return dest


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    src = working_tree_copy(tmp_path_factory.mktemp("src"))
    dist = tmp_path_factory.mktemp("dist")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(dist), str(src)],
                   check=True, capture_output=True, timeout=600)
    (found,) = dist.glob("moe_theory-*.whl")
    return found


@pytest.fixture(scope="module")
def venv(wheel, tmp_path_factory) -> Path:
    """A fresh virtual environment with the wheel; its dependencies come from ours (a .pth file)."""
    env = tmp_path_factory.mktemp("venv")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(env)], check=True, timeout=300)
    python = env / "bin" / "python"
    purelib = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                                  capture_output=True, text=True, check=True).stdout.strip())
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "--quiet",
                    str(wheel)], check=True, capture_output=True, timeout=600)
    # after the install, so that pip never sees (or touches) our own editable install
    ours = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    (purelib / "_moe_theory_test_deps.pth").write_text("".join(f"{p}\n" for p in sorted(ours)))
    return env


def run(venv: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "MOE_THEORY_LEAN")}
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    return subprocess.run(["moe-theory", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=1800)


def test_the_wheel_carries_what_the_tool_needs_at_run_time(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    lean = {p.relative_to(ROOT).as_posix() for p in ROOT.glob("MoeTheory/**/*.lean")}
    assert lean and {f"pysym/_shipped/lean/{p}" for p in lean} <= names
    for name in ("lakefile.lean", "lean-toolchain", "MoeTheory.lean"):
        assert f"pysym/_shipped/lean/{name}" in names
    assert "pysym/_shipped/paper_checks/README.md" in names
    assert f"pysym/_shipped/paper_checks/{EXAMPLE}.toml" in names
    for name in ("pysym/schemas/audit.schema.json", "pysym/schemas/lean-check.schema.json",
                 "pysym/scaffold/templates/claims.toml.j2", "pysym/scaffold/templates/workflow.yml",
                 "pysym/render/templates/notebook.j2", "pysym/render/templates/blueprint/web.tex.j2"):
        assert name in names, name
    assert not any(n.startswith(("tests/", "paper_checks/", "MoeTheory/")) for n in names)


@pytest.mark.lean
def test_the_installed_tool_works_in_an_unrelated_folder(venv, real_check, tmp_path):
    jsonschema = pytest.importorskip("jsonschema")
    from pysym.schemas import load_schema

    site = next((venv / "lib").glob("python3*/site-packages"))
    package = site / "pysym"
    probe = subprocess.run([str(venv / "bin" / "python"), "-c", "import pysym; print(pysym.__file__)"],
                           capture_output=True, text=True, check=True, cwd=tmp_path,
                           env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"})
    assert Path(probe.stdout.strip()) == package / "__init__.py"  # pysym from the wheel, not the checkout
    assert (package / "_shipped" / "lean" / "MoeTheory" / "Choose.lean").is_file()
    status, installed = git_status(), snapshot(site)

    work = tmp_path / "my-paper"
    work.mkdir()
    out = run(venv, work, "init", "--ci", "--example", EXAMPLE)
    assert out.returncode == 0, out.stderr
    scaffold = work / "paper_checks" / "my-paper.toml"
    example = work / "paper_checks" / f"{EXAMPLE}.toml"
    assert scaffold.is_file() and (work / ".github" / "workflows" / "moe-theory.yml").is_file()
    assert example.read_bytes() == (package / "_shipped" / "paper_checks" / example.name).read_bytes()
    assert str(package / "_shipped" / "paper_checks" / "README.md") in out.stdout  # the format reference

    out = run(venv, work, "-q", "audit", "--json")
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr
    report = json.loads(out.stdout)
    jsonschema.validate(report, load_schema("audit"))
    assert report["summary"]["files"] == 2 and report["summary"]["differ_from_expected"] == 0
    assert {v["paper"] for v in report["verdicts"]} == {"my-paper", EXAMPLE}
    assert json.loads((work / "build" / "audit" / "report.json").read_text()) == report

    (work / "lean").mkdir()
    (work / "lean" / "MyLemma.lean").write_text(USER_LEMMA)
    out = run(venv, work, "-q", "lean", "check", "lean/", "--json")
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr
    check = json.loads(out.stdout)
    jsonschema.validate(check, load_schema("lean-check"))
    assert check["ok"] and "MyLemma" in check["modules"]
    assert check["statements"]["MyPaper.two_choose_le"]["path"] == "lean/MyLemma.lean"
    assert check["axioms"]["MyPaper.two_choose_le"] == []

    again = run(venv, work, "init")
    assert again.returncode == 2 and "never overwrites" in again.stderr and "Traceback" not in again.stderr

    # every output is under the folder, and nothing was written anywhere else
    assert sorted(p.name for p in tmp_path.iterdir()) == ["my-paper"]
    produced = {p.relative_to(work).as_posix() for p in work.rglob("*") if p.is_file()}
    assert {"build/audit/report.json", "build/audit/report.md", "build/lean/check.json",
            "build/lean/work/MoeTheoryTop.lean"} <= produced
    assert all(p.startswith(("build/", "paper_checks/", ".github/", "lean/")) for p in produced), produced
    assert git_status() == status, "the installed tool wrote into the checkout"
    assert snapshot(site) == installed, "the installed tool wrote into its own package"
