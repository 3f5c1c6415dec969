"""The repository's pre-commit hooks (.pre-commit-hooks.yaml), run by pre-commit itself.

So that uncommitted work is what is tested, the hooks' repository is a temporary git
repository holding one commit of the current working tree.  Two ways in, as a user meets
them:

* `pre-commit try-repo REPO HOOK` (trying a hook before adopting it) runs the audit hook;
* a `.pre-commit-config.yaml` naming the repository and the commit, then `pre-commit run`,
  runs both hooks, as the README's "Use it in your project" shows.

Each installs moe-theory from that commit into an environment of its own (under a
temporary PRE_COMMIT_HOME; pip takes the dependencies from PyPI or its cache): about 30 s
each (try-repo clones the repository anew at every call, hence one call).  The runs after
an install cost what their commands cost; the Lean hook's about 10 s with the library's
base in the user cache (real_check).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import TOY_CLAIMS, USER_LEMMA
from test_distribution import working_tree_copy

pytestmark = pytest.mark.packaging  # `make test-packaging` (CI runs it after `make test`)

pytest.importorskip("pre_commit")
if shutil.which("git") is None:
    pytest.skip("git is not installed", allow_module_level=True)

GIT = ["git", "-c", "user.name=moe-theory tests", "-c", "user.email=tests@localhost", "-c", "commit.gpgsign=false"]


def git(cwd: Path, *args: str) -> None:
    subprocess.run([*GIT, *args], cwd=cwd, check=True, capture_output=True, timeout=300)


@pytest.fixture(scope="module")
def hooks_repo(tmp_path_factory) -> tuple[Path, dict]:
    """A git repository with one commit of the working tree, and the environment pre-commit runs in."""
    repo = working_tree_copy(tmp_path_factory.mktemp("hooks-repo"))
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "the working tree under test")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PRE_COMMIT_HOME")}
    env["PRE_COMMIT_HOME"] = str(tmp_path_factory.mktemp("pre-commit-home"))
    return repo, env


def pre_commit(hooks_repo, cwd: Path, *args: str) -> subprocess.CompletedProcess:
    _, env = hooks_repo
    return subprocess.run([sys.executable, "-m", "pre_commit", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=1800)


def user_repo(path: Path, files: dict[str, str]) -> Path:
    path.mkdir()
    git(path, "init", "-q")
    for name, text in files.items():
        (path / name).parent.mkdir(parents=True, exist_ok=True)
        (path / name).write_text(text)
    git(path, "add", "-A")
    return path


TOY = TOY_CLAIMS


def test_audit_hook_through_try_repo(hooks_repo, tmp_path):
    wrong = TOY.replace('id = "toy"', 'id = "wrong"').replace('expected = "holds"', 'expected = "fails"')
    user = user_repo(tmp_path / "paper", {"paper_checks/toy.toml": TOY, "paper_checks/wrong.toml": wrong,
                                          "pyproject.toml": "[project]\n"})
    repo, _ = hooks_repo
    out = pre_commit(hooks_repo, user, "try-repo", str(repo), "moe-theory-audit", "--verbose", "--all-files")
    assert out.returncode == 1, out.stdout[-3000:] + out.stderr  # a verdict differs from its `expected`
    assert "moe-theory audit (claims files)" in out.stdout and "Failed" in out.stdout
    # both claims files and nothing else (pyproject.toml is no claims file)
    assert "audit: 2 claims in 2 files: 2 holds; 1 differs from expected" in out.stdout
    assert (user / "build" / "audit" / "adhoc" / "report.json").is_file()  # the reports stay in the user's repo


@pytest.mark.lean
def test_both_hooks_from_a_pre_commit_config(hooks_repo, real_check, tmp_path):
    repo, _ = hooks_repo
    sha = subprocess.run(["git", "rev-parse", "HEAD"], cwd=repo, capture_output=True, text=True,
                         check=True).stdout.strip()
    config = (f"repos:\n  - repo: {repo}\n    rev: {sha}\n    hooks:\n"
              "      - id: moe-theory-audit\n      - id: moe-theory-lean-check\n")
    user = user_repo(tmp_path / "paper", {".pre-commit-config.yaml": config, "paper_checks/toy.toml": TOY,
                                          "lean/MyLemma.lean": USER_LEMMA})
    out = pre_commit(hooks_repo, user, "run", "--all-files", "--verbose")
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr
    assert out.stdout.count("Passed") == 2
    assert "audit: 1 claim in 1 file: 1 holds; 0 differ from expected" in out.stdout
    assert "lean check: OK: 10 modules" in out.stdout
    (user / "lean" / "MyLemma.lean").write_text(USER_LEMMA.replace("omega", "sorry"))
    out = pre_commit(hooks_repo, user, "run", "--files", "lean/MyLemma.lean")
    assert out.returncode == 1, out.stdout[-3000:] + out.stderr
    assert "lean/MyLemma.lean:8:2: `sorry`" in out.stdout and "Lean not started" in out.stdout
    assert "moe-theory audit (claims files)" in out.stdout and "(no files to check)Skipped" in out.stdout
