"""Which Lean library a command uses, where it reads its inputs, and where it
writes: the *library* and the *workspace*.

Every command resolves both once (:func:`resolve_workspace`):

* **Inside a checkout** (the working directory is a checkout of this
  repository or below one), or with ``--project DIR``: the checkout is both the
  library and the workspace.  Inputs are its ``paper_checks/``, outputs go to
  its ``build/``: ``make run`` and ``make test`` behave as they always did.
* **Anywhere else**: the workspace is the working directory (inputs from
  ``./paper_checks/``, outputs to ``./build/``), and the library is the
  checkout the package was installed from in an editable install, else the
  read-only copy of the Lean sources inside the installed package.

``--out DIR`` puts the outputs in ``DIR`` instead of ``build/``.  No command
writes into a library that is not its workspace: the Lean check of a foreign
library writes its generated files to the workspace's ``build/`` and keeps the
compiled library as a base in the user cache (:func:`pysym.paths.cache_dir`),
keyed by its content, so every workspace after the first reuses it.  An
output folder inside the installed package is refused.

>>> import tempfile, os
>>> here = Path(tempfile.mkdtemp())
>>> ws = resolve_workspace(cwd=here)
>>> ws.root == here.resolve() and ws.build == here.resolve() / "build"
True
>>> ws.owns_library
False
>>> ws.show(ws.build / "audit" / "report.md")
'build/audit/report.md'
>>> resolve_workspace(cwd=here, out="reports").build == here.resolve() / "reports"
True
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from pysym.errors import ProjectError
from pysym.paths import PACKAGE_DIR, find_checkout, installed_checkout, is_checkout, packaged_library

__all__ = ["Workspace", "resolve_workspace", "symlinks_under"]


@dataclass(frozen=True)
class Workspace:
    """``root``: where inputs (``paper_checks/``) are read; ``build``: where
    every output is written; ``library``: the Lean library's folder
    (``lakefile.lean``, ``MoeTheory/``), with ``library_from`` saying which
    rule chose it."""

    root: Path
    build: Path
    library: Path
    library_from: str  # "checkout" | "editable install" | "installed package"

    @property
    def owns_library(self) -> bool:
        """Whether the library is this workspace's own checkout (else it is
        read-only here, and its check goes through the user cache)."""
        return self.library == self.root

    @property
    def claims_dir(self) -> Path:
        return self.root / "paper_checks"

    def show(self, path: Path) -> str:
        """``path`` relative to the workspace (or the working directory) when it
        lies below it, else in full."""
        path = Path(path)
        for base in (self.root, Path.cwd()):
            try:
                return path.resolve().relative_to(base.resolve()).as_posix()
            except ValueError:
                continue
        return str(path)


def symlinks_under(folder: Path) -> list[Path]:
    """The symbolic links at ``folder`` and anywhere under it (not followed), sorted."""
    folder = Path(folder)
    if folder.is_symlink():
        return [folder]
    found = []
    for here, dirs, files in os.walk(folder):
        found += [Path(here) / n for n in dirs + files if os.path.islink(os.path.join(here, n))]
    return sorted(found)


def resolve_workspace(project: str | os.PathLike | None = None, out: str | os.PathLike | None = None,
                      cwd: str | os.PathLike | None = None) -> Workspace:
    """The workspace and library for a command run in ``cwd`` (default: the
    working directory) with ``--project`` and ``--out`` as given; see the
    module docstring for the rules."""
    cwd = Path(cwd or Path.cwd()).resolve()
    if project is not None:
        root = (cwd / project).resolve()
        if not is_checkout(root):
            raise ProjectError(f"{root}: not a moe-theory checkout (expected lakefile.lean and MoeTheory/ "
                               "there); leave out --project to work in the current folder")
        library, library_from = root, "checkout"
    elif (checkout := find_checkout(cwd)) is not None:
        root, library, library_from = checkout, checkout, "checkout"
    else:
        root = cwd
        editable = installed_checkout()
        if editable is not None:
            library, library_from = editable, "editable install"
        elif (shipped := packaged_library()) is not None:
            library, library_from = shipped, "installed package"
        else:
            raise ProjectError("the installed package carries no Lean library (pysym/_shipped/lean is "
                               "missing): reinstall it with `pip install .` from a checkout, or run the "
                               "command inside a checkout")
    build = (cwd / out).resolve() if out is not None else root / "build"
    if build.is_relative_to(PACKAGE_DIR):
        raise ProjectError(f"{build}: inside the installed package, which is never written to; "
                           "choose another --out folder")
    links = symlinks_under(build)
    if links:
        shown = ", ".join(f"{p} -> {os.readlink(p)}" for p in links[:3]) + (" ..." if len(links) > 3 else "")
        raise ProjectError(f"{shown}: a symbolic link in the output folder; moe-theory writes and removes "
                           f"files under {build} and would reach what the link points to (a repository can "
                           "ship such a link): remove it, or the whole folder, and run the command again")
    return Workspace(root=root, build=build, library=library, library_from=library_from)
