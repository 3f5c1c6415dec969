"""`moe-theory init`, the CI workflow it writes, the pre-commit hooks file, and the
README's "Use it in your project".  No Lean runs here."""

from __future__ import annotations

import re

import pytest

from pysym.audit import audit
from pysym.cli import build_parser
from pysym.scaffold import REPOSITORY, claims_text, init, workflow_text

from conftest import ROOT, moe

COMMON_KINDS = {"value", "exponent", "sign", "inequality", "identity", "optimum", "table"}



def readme_section(title: str) -> str:
    return (ROOT / "README.md").read_text().split(f"\n## {title}\n")[1].split("\n## ")[0]


def test_the_scaffold_audits_cleanly_as_written(tmp_path):
    (path,) = init(tmp_path, "kim-2026")
    result = audit([path], None)
    assert not result.errors, [str(e) for e in result.errors]
    assert not result.mismatches, [(v.claim.id, v.verdict, v.summary) for v in result.mismatches]
    assert {v.claim.kind for v in result.verdicts} >= COMMON_KINDS
    assert {v.verdict for v in result.verdicts} == {"holds", "undetermined"}  # printed precision at work
    text = path.read_text()
    assert text == claims_text("kim-2026") and 'id = "kim-2026"' in text
    assert all(v.claim.quote and v.claim.where for v in result.verdicts)
    # the README's walk-through shows the real summary line
    from pysym.audit.report import terminal_table

    summary = next(line for line in terminal_table(result).splitlines() if line.startswith("audit: "))
    assert f"```\n{summary}\n```" in readme_section("Auditing a paper")


def test_init_writes_into_the_current_folder_and_never_overwrites(tmp_path):
    out = moe(tmp_path, "init", "--paper", "smith-2025", "--ci")
    assert out.returncode == 0, out.stderr
    claims = tmp_path / "paper_checks" / "smith-2025.toml"
    workflow = tmp_path / ".github" / "workflows" / "moe-theory.yml"
    assert claims.read_text() == claims_text("smith-2025") and workflow.read_text() == workflow_text()
    assert "paper_checks/README.md" in out.stdout  # where the format is documented
    claims.write_text("# my edits\n")
    for args in (["init", "--paper", "smith-2025"], ["init", "--paper", "other", "--ci"]):
        again = moe(tmp_path, *args)
        assert again.returncode == 2, again.stderr
        assert "exists: init never overwrites a file" in again.stderr and "Traceback" not in again.stderr
    assert claims.read_text() == "# my edits\n"
    assert not (tmp_path / "paper_checks" / "other.toml").exists()  # all or nothing
    bad = moe(tmp_path, "init", "--paper", "x", "--example", "no-such-paper")
    assert bad.returncode == 2 and "no such shipped claims file" in bad.stderr
    assert not (tmp_path / "paper_checks" / "x.toml").exists()
    assert not (tmp_path / "build").exists()  # init writes inputs only


def test_examples_are_the_shipped_claims_files(tmp_path):
    out = moe(tmp_path, "init", "--list-examples")
    assert out.returncode == 0, out.stderr
    names = [line.split()[0] for line in out.stdout.splitlines()]
    assert names == sorted(p.stem for p in (ROOT / "paper_checks").glob("*.toml"))
    out = moe(tmp_path, "init", "--example", names[0])
    assert out.returncode == 0, out.stderr
    copy = tmp_path / "paper_checks" / f"{names[0]}.toml"
    assert copy.read_bytes() == (ROOT / "paper_checks" / copy.name).read_bytes()


def test_the_ci_workflow_caches_the_toolchain_and_runs_both_checks():
    yaml = pytest.importorskip("yaml")
    flow = yaml.safe_load(workflow_text())
    steps = flow["jobs"]["check"]["steps"]
    cache = next(s for s in steps if s.get("uses", "").startswith("actions/cache@"))
    assert cache["with"]["path"] == "~/.cache/moe-theory"
    runs = " ".join(s.get("run", "") for s in steps)
    assert f"git+{REPOSITORY}@main" in runs
    assert "moe-theory audit" in runs and "moe-theory lean check" in runs
    assert any(s.get("uses", "").startswith("actions/upload-artifact@") for s in steps)
    # the README shows the same workflow
    assert workflow_text() in (ROOT / "README.md").read_text()


def test_pre_commit_hooks_run_real_commands_on_the_right_files():
    yaml = pytest.importorskip("yaml")
    hooks = {h["id"]: h for h in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())}
    assert set(hooks) == {"moe-theory-audit", "moe-theory-lean-check"}
    parser = build_parser()
    for hook in hooks.values():
        assert hook["language"] == "python" and hook["require_serial"] is True
        argv = hook["entry"].split()
        assert argv[0] == "moe-theory"
        args = parser.parse_args(argv[1:] + ["changed.file"])  # pre-commit appends the changed files
        assert args.func is not None
    audit_files, lean_files = re.compile(hooks["moe-theory-audit"]["files"]), re.compile(
        hooks["moe-theory-lean-check"]["files"])
    assert audit_files.search("paper_checks/kim-2026.toml") and audit_files.search("docs/paper_checks/a.toml")
    assert not audit_files.search("pyproject.toml") and not audit_files.search("paper_checks/sub/a.toml")
    assert lean_files.search("lean/MyLemma.lean") and not lean_files.search("notes.md")
    exclude = re.compile(hooks["moe-theory-lean-check"]["exclude"])
    assert exclude.search(".lake/packages/MoeTheory/MoeTheory/Choose.lean") and not exclude.search("lean/A.lean")


def test_readme_use_it_in_your_project():
    section = readme_section("Use it in your project")
    body = [line for line in section.strip().splitlines()]
    assert len(body) < 30, len(body)
    for needle in ("pip install", "moe-theory init", "moe-theory audit", "moe-theory lean check", "pre-commit",
                   "--ci", f"git+{REPOSITORY}@main", f"repo: {REPOSITORY}"):
        assert needle in section, needle
    quick = readme_section("Quickstart").split("```sh")[1].split("```")[0]
    assert [line.split("#")[0].strip() for line in quick.strip().splitlines()] == ["make run", "make test"]


def test_readme_names_every_command():
    table = readme_section("Commands")
    for command in ("init", "schema", "audit", "lean check", "derive", "blueprint", "all"):
        assert f"`moe-theory {command}" in table, command
    assert "--out" in table


def test_readme_lake_require_line_names_the_package():
    """Lake's `require NAME from git URL @ REV`: NAME is the `package` of our lakefile."""
    package = re.search(r"^package\s+(\S+)", (ROOT / "lakefile.lean").read_text(), re.M).group(1)
    line = f'require {package} from git "{REPOSITORY}" @ "main"'
    assert line in (ROOT / "README.md").read_text()
