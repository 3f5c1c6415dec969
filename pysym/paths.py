"""Where things live: the project root, the build folder, the user cache.

>>> from pysym.paths import find_project_root
>>> (find_project_root() / "lakefile.lean").is_file()
True
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from pysym.errors import ProjectError

__all__ = ["find_project_root", "build_dir", "cache_dir", "write_atomic"]

_MARKERS = ("lakefile.lean", "MoeTheory")


def _is_root(path: Path) -> bool:
    return (path / "lakefile.lean").is_file() and (path / "MoeTheory").is_dir()


def find_project_root(start: str | os.PathLike | None = None) -> Path:
    """The project root: ``start`` (or the working directory) or a parent of it
    holding ``lakefile.lean`` and ``MoeTheory/``; failing that, the checkout
    this package was installed from (so the command works from any folder)."""
    if start is not None:
        path = Path(start).resolve()
        if _is_root(path):
            return path
        raise ProjectError(
            f"{path}: not a moe-theory project (expected {' and '.join(_MARKERS)} there)"
        )
    for candidate in [Path.cwd().resolve(), *Path.cwd().resolve().parents]:
        if _is_root(candidate):
            return candidate
    here = Path(__file__).resolve().parent.parent
    if _is_root(here):
        return here
    raise ProjectError(
        "no moe-theory project found in the working directory or its parents; "
        "run the command inside a checkout or pass --project DIR"
    )


def build_dir(root: Path) -> Path:
    """The git-ignored folder that receives every generated artifact."""
    return root / "build"


def cache_dir() -> Path:
    """Per-user cache (toolchains): ``$MOE_THEORY_CACHE``, else
    ``$XDG_CACHE_HOME/moe-theory``, else ``~/.cache/moe-theory``."""
    env = os.environ.get("MOE_THEORY_CACHE")
    if env:
        return Path(env).expanduser().resolve()
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".cache"
    return (base / "moe-theory").resolve()


def write_atomic(path: Path, data: str | bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file and a rename, so a
    failure never leaves a half-written file behind."""
    path.parent.mkdir(parents=True, exist_ok=True)
    mode = "wb" if isinstance(data, bytes) else "w"
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    umask = os.umask(0)
    os.umask(umask)
    try:
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp creates 0600; give the file the usual mode
        with os.fdopen(fd, mode, **({} if mode == "wb" else {"encoding": "utf-8", "newline": "\n"})) as fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
