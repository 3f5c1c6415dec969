"""The package's own sources: fingerprinted when the package is first imported,
and the only thing its modules are loaded from.

The audit's cache (:mod:`pysym.audit.cache`) keys outcomes by the code that
computed them.  Two things could make the running code differ from the files
that key names:

* hashing the files when the cache is first used would be too late: the
  modules in memory were read earlier, and a file saved in between would give
  old code's outcomes the new code's key.  So :data:`AT_IMPORT` is taken here,
  when ``import pysym`` runs (about 10 ms), before any other module of the
  package is read, and the cache stores nothing unless the files still hash
  the same after the evaluation (:func:`sources_digest` again);
* Python runs a module's cached bytecode (``__pycache__/*.pyc``) when the
  source's size and modification time (in whole seconds) match what the
  bytecode records, so an edit of the same size within the same second (or
  with the time set back) would leave the old bytecode running.  So the
  package's modules are loaded by :class:`ContentStampedLoader`, whose
  bytecode records a hash of the source's content instead of its time: any
  edit makes the old bytecode stale.

>>> len(AT_IMPORT), AT_IMPORT == sources_digest()
(64, True)
>>> import pysym.paths
>>> type(pysym.paths.__spec__.loader).__name__
'ContentStampedLoader'
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import sys
from pathlib import Path

__all__ = ["AT_IMPORT", "sources_digest", "ContentStampedLoader", "install"]

PACKAGE = Path(__file__).resolve().parent


def sources_digest(package: Path = PACKAGE) -> str:
    """A hash of every ``*.py`` file under ``package``: its path and its bytes."""
    h = hashlib.sha256()
    for path in sorted(package.rglob("*.py")):
        h.update(b"\0" + path.relative_to(package).as_posix().encode() + b"\0" + path.read_bytes())
    return h.hexdigest()


class ContentStampedLoader(importlib.machinery.SourceFileLoader):
    """A source loader whose bytecode is valid only for the exact source text:
    where Python compares the source's modification time with the one the
    bytecode records, this loader reports 32 bits of the SHA-256 of the
    source's bytes instead."""

    def path_stats(self, path):
        stats = super().path_stats(path)
        with open(path, "rb") as fh:
            digest = hashlib.sha256(fh.read()).digest()
        return {"mtime": int.from_bytes(digest[:4], "little"), "size": stats["size"]}


class _Finder:
    """Finds ``pysym.*`` modules as the path finder does, with :class:`ContentStampedLoader`."""

    @staticmethod
    def find_spec(fullname, path=None, target=None):
        if not fullname.startswith("pysym.") or path is None:
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path, target)
        if spec is not None and type(spec.loader) is importlib.machinery.SourceFileLoader:
            spec.loader = ContentStampedLoader(fullname, spec.origin)
        return spec


def install() -> None:
    """Load every later ``pysym.*`` module with :class:`ContentStampedLoader` (once)."""
    if not any(isinstance(f, _Finder) for f in sys.meta_path):
        sys.meta_path.insert(0, _Finder())


install()
AT_IMPORT = sources_digest()
