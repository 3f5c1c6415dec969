"""Where things live: checkouts, the Lean library shipped in the package, the
build folder, the user cache.

A *checkout* is a folder holding ``lakefile.lean`` and ``MoeTheory/`` (this
repository, or a fork of it).  The installed package carries a read-only copy
of the Lean library (:func:`packaged_library`, written by ``setup.py`` when
the wheel is built); it is never taken for a checkout, so no command can
mistake it for a place to write to.  Which library and which output folder a
command uses is decided in :mod:`pysym.workspace`.

>>> from pysym.paths import find_checkout, is_checkout
>>> root = find_checkout(Path(__file__))
>>> root is None or is_checkout(root)
True
>>> is_checkout(Path("/"))
False
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from pysym.errors import ProjectError

__all__ = ["PACKAGE_DIR", "is_checkout", "find_checkout", "installed_checkout", "packaged_library",
           "find_project_root", "build_dir", "cache_dir", "write_atomic", "prune_least_recent"]

_MARKERS = ("lakefile.lean", "MoeTheory")

PACKAGE_DIR = Path(__file__).resolve().parent
"""The installed ``pysym`` package: never written to."""


def _inside_package(path: Path) -> bool:
    return path.resolve().is_relative_to(PACKAGE_DIR)


def is_checkout(path: Path) -> bool:
    """Whether ``path`` holds ``lakefile.lean`` and ``MoeTheory/`` (the
    package's own read-only copy of the library does not count)."""
    path = Path(path)
    return ((path / "lakefile.lean").is_file() and (path / "MoeTheory").is_dir()
            and not _inside_package(path))


def find_checkout(start: str | os.PathLike) -> Path | None:
    """The checkout ``start`` is in: ``start`` or its nearest parent that is one."""
    start = Path(start).resolve()
    for candidate in [start, *start.parents]:
        if is_checkout(candidate):
            return candidate
    return None


def installed_checkout() -> Path | None:
    """The checkout this package was installed from in an editable install
    (``pip install -e .``): the folder above ``pysym/``; ``None`` otherwise."""
    here = PACKAGE_DIR.parent
    return here if is_checkout(here) else None


def packaged_library() -> Path | None:
    """The read-only copy of the Lean library inside an installed wheel
    (``pysym/_shipped/lean``), or ``None`` (an editable install has none)."""
    lib = PACKAGE_DIR / "_shipped" / "lean"
    return lib if (lib / "lakefile.lean").is_file() and (lib / "MoeTheory").is_dir() else None


def find_project_root(start: str | os.PathLike | None = None) -> Path:
    """The checkout ``start`` names, or the one containing the working
    directory, or the one this package was installed from; an error otherwise.
    (Commands resolve their library and output folder with
    :func:`pysym.workspace.resolve_workspace`.)"""
    if start is not None:
        path = Path(start).resolve()
        if is_checkout(path):
            return path
        raise ProjectError(
            f"{path}: not a moe-theory checkout (expected {' and '.join(_MARKERS)} there)"
        )
    found = find_checkout(Path.cwd()) or installed_checkout()
    if found is None:
        raise ProjectError(
            "no moe-theory checkout found in the working directory or its parents; "
            "run the command inside a checkout or pass --project DIR"
        )
    return found


def build_dir(root: Path) -> Path:
    """The git-ignored folder of a checkout that receives every generated artifact."""
    return root / "build"


def cache_dir() -> Path:
    """Per-user cache (toolchains, checked library bases): ``$MOE_THEORY_CACHE``,
    else ``$XDG_CACHE_HOME/moe-theory``, else ``~/.cache/moe-theory``."""
    env = os.environ.get("MOE_THEORY_CACHE")
    if env:
        return Path(env).expanduser().resolve()
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".cache"
    return (base / "moe-theory").resolve()


def write_atomic(path: Path, data: str | bytes, *, private: bool = False) -> None:
    """Write ``data`` to ``path`` through a temporary file and a rename, so a
    failure never leaves a half-written file behind; ``private``: readable and
    writable by this user only (mode 0600), whatever the umask.  A regular file
    that already holds exactly ``data`` is left as it is (not private ones,
    whose mode is set afresh), so that its modification time says when its
    content last changed (what decides whether main.pdf is out of date)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    blob = data if isinstance(data, bytes) else data.encode("utf-8")
    if not private and path.is_file() and not path.is_symlink():
        try:
            if path.stat().st_size == len(blob) and path.read_bytes() == blob:
                return
        except OSError:
            pass
    mode = "wb" if isinstance(data, bytes) else "w"
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    umask = os.umask(0)
    os.umask(umask)
    try:
        if not private:
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


def prune_least_recent(directory: Path, pattern: str, keep: int) -> None:
    """Remove the files of ``directory`` matching ``pattern`` beyond the ``keep``
    most recently modified (a cache's least recently used entries)."""
    try:
        entries = sorted(Path(directory).glob(pattern), key=lambda p: (p.stat().st_mtime, p.name))
    except OSError:
        return
    for path in entries[:max(0, len(entries) - keep)]:
        try:
            path.unlink()
        except OSError:
            pass
