"""Which library and which folders a command uses (pysym/workspace.py), and the CLI
run from a folder that is not a checkout.  No Lean runs here."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

import pysym.paths
import pysym.workspace
from pysym.errors import ProjectError
from pysym.workspace import resolve_workspace

from conftest import ROOT, TOY_CLAIMS, moe, write_project

TOY = TOY_CLAIMS



def test_inside_the_checkout_it_is_library_and_workspace():
    for where in (ROOT, ROOT / "tests", ROOT / "MoeTheory"):
        ws = resolve_workspace(cwd=where)
        assert (ws.root, ws.library, ws.build, ws.library_from) == (ROOT, ROOT, ROOT / "build", "checkout")
        assert ws.owns_library and ws.claims_dir == ROOT / "paper_checks"
    assert resolve_workspace(cwd=ROOT / "tests", out="../elsewhere").build == ROOT / "elsewhere"


def test_another_folder_is_the_workspace_and_the_installed_library_is_read_only(tmp_path):
    ws = resolve_workspace(cwd=tmp_path)
    assert (ws.root, ws.build) == (tmp_path.resolve(), tmp_path.resolve() / "build")
    assert (ws.library, ws.library_from) == (ROOT, "editable install") and not ws.owns_library
    assert resolve_workspace(cwd=tmp_path, out="/tmp/x").build == Path("/tmp/x")


def test_project_option_names_a_checkout(tmp_path):
    project = write_project(tmp_path / "proj", {"MoeTheory.A": "theorem a : True := trivial\n"})
    ws = resolve_workspace(project=str(project), cwd=tmp_path)
    assert ws.root == ws.library == project.resolve() and ws.build == project.resolve() / "build"
    with pytest.raises(ProjectError, match="not a moe-theory checkout"):
        resolve_workspace(project=str(tmp_path), cwd=tmp_path)


def test_the_installed_package_is_never_a_workspace(tmp_path, monkeypatch):
    """A wheel install: the library is the package's copy, never a checkout to write into."""
    package = tmp_path / "site-packages" / "pysym"
    shipped = write_project(package / "_shipped" / "lean", {"MoeTheory.A": "theorem a : True := trivial\n"})
    for module in (pysym.paths, pysym.workspace):
        monkeypatch.setattr(module, "PACKAGE_DIR", package.resolve())
    monkeypatch.setattr(pysym.workspace, "installed_checkout", lambda: None)
    user = tmp_path / "user"
    user.mkdir()
    ws = resolve_workspace(cwd=user)
    assert (ws.library, ws.library_from, ws.root) == (shipped.resolve(), "installed package", user.resolve())
    assert not pysym.paths.is_checkout(shipped)
    with pytest.raises(ProjectError, match="inside the installed package"):
        resolve_workspace(cwd=shipped)  # run inside the copy: it is no checkout, and no output may go there
    with pytest.raises(ProjectError, match="inside the installed package"):
        resolve_workspace(cwd=user, out=str(package / "out"))


def test_cli_from_another_folder_reads_and_writes_there(tmp_path):
    (tmp_path / "paper_checks").mkdir()
    (tmp_path / "paper_checks" / "toy.toml").write_text(TOY)
    out = moe(tmp_path, "audit")
    assert out.returncode == 0, out.stderr
    assert "reports: build/audit/report.json, build/audit/report.md, build/audit/report.tex" in out.stdout
    assert json.loads((tmp_path / "build" / "audit" / "report.json").read_text())["summary"]["holds"] == 1
    out = moe(tmp_path, "audit", "paper_checks/toy.toml", "--out", "reports")
    assert out.returncode == 0, out.stderr
    assert (tmp_path / "reports" / "audit" / "adhoc" / "report.json").is_file()
    assert "reports: reports/audit/adhoc/report.json" in out.stdout


def test_no_claims_files_is_a_clear_error(tmp_path):
    out = moe(tmp_path, "audit")
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert "paper_checks has no *.toml" in out.stderr and "moe-theory init" in out.stderr
    out = moe(tmp_path, "lean", "check", "Missing.lean")
    assert out.returncode == 2 and "Missing.lean: no such file or folder" in out.stderr


def test_entry_point_is_a_fresh_interpreter(tmp_path):
    # the tests run `moe-theory` in a forked copy of the test process (conftest.moe); here the real entry point,
    # `python -m pysym` in a new interpreter, gives the same output and exit status for a good and a bad input
    (tmp_path / "paper_checks").mkdir()
    (tmp_path / "paper_checks" / "toy.toml").write_text(TOY_CLAIMS)
    (tmp_path / "bad.toml").write_text("[paper\n")
    for args, code in ((("audit", "--no-cache"), 0), (("audit", "--no-cache", "bad.toml"), 2)):
        fresh, forked = moe(tmp_path, *args, fresh=True), moe(tmp_path, *args)
        assert (forked.returncode, forked.stdout, forked.stderr) == (fresh.returncode, fresh.stdout, fresh.stderr)
        assert fresh.returncode == code and "Traceback" not in fresh.stderr


def test_a_symbolic_link_in_the_output_folder_stops_every_command(tmp_path):
    """A repository can ship `build/blueprint/src` (or `build` itself) as a link to a folder of the user's:
    the commands write and remove files there.  Every command refuses such an output folder first."""
    from pysym.errors import ProjectError
    from pysym.workspace import resolve_workspace

    root = write_project(tmp_path / "repo", {"MoeTheory.A": "theorem a : True := trivial\n"})
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "precious.txt").write_text("keep me")
    (root / "build" / "blueprint").mkdir(parents=True)
    (root / "build" / "blueprint" / "src").symlink_to(victim, target_is_directory=True)
    with pytest.raises(ProjectError, match="symbolic link"):
        resolve_workspace(cwd=root)
    out = moe(root, "lean", "check")
    assert out.returncode != 0 and "symbolic link" in out.stderr + out.stdout and "Traceback" not in out.stderr
    assert (victim / "precious.txt").read_text() == "keep me"
    (root / "build" / "blueprint" / "src").unlink()
    shutil.rmtree(root / "build")
    (root / "build").symlink_to(victim, target_is_directory=True)
    with pytest.raises(ProjectError, match="symbolic link"):
        resolve_workspace(cwd=root)
    (root / "build").unlink()
    assert resolve_workspace(cwd=root).build == root.resolve() / "build"
