"""The package's own sources: fingerprinted when the package is first imported,
and the only thing its modules are loaded from.

The caches of audit outcomes and derivation reports (:mod:`pysym.audit.cache`,
:mod:`pysym.derive.cache`) key results by the code that computed them
(:mod:`pysym.fingerprint`).  Four things could make the running code differ
from the files that key names:

* hashing the files when the cache is first used would be too late: the
  modules in memory were read earlier, and a file saved in between would give
  old code's outcomes the new code's key.  So :data:`AT_IMPORT` is taken here,
  when ``import pysym`` runs (about 10 ms), before any other module of the
  package is read, and the caches store nothing unless the files still hash
  the same after the evaluation (:func:`sources_digest` again);
* a file changed and changed back while a command runs hashes the same
  before and after, though a module may have been compiled from the other
  version in between.  So the caches also store nothing when any file of the
  package (or of the libraries) was written since :data:`LOADED_SINCE`, the
  moment this process started reading code;
* Python runs a module's cached bytecode (``__pycache__/*.pyc``) when the
  source's size and modification time (in whole seconds) match what the
  bytecode records, and runs "unchecked" hash-based bytecode without looking
  at the source at all, so an edit could leave old bytecode running.  So the
  package's modules are loaded by :class:`ContentStampedLoader`, which reads
  each source once, compiles those bytes, and uses bytecode only when it is
  the kind this loader writes and records 32 bits of the SHA-256 of those
  very bytes and their size.  The two modules loaded before it (the
  package's ``__init__`` and this one) are compared with their sources
  compiled; a difference puts them in :data:`FOREIGN`, and nothing is cached;
* a folder swapped for another and swapped back while a command runs leaves
  every file's bytes and times as they were.  So each module the loader reads
  later must be the very bytes hashed into :data:`AT_IMPORT`
  (:data:`AT_IMPORT_FILES`); any other puts it in :data:`FOREIGN`.

>>> len(AT_IMPORT), AT_IMPORT == sources_digest()
(64, True)
>>> import pysym.paths
>>> isinstance(pysym.paths.__spec__.loader, ContentStampedLoader)
True
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import os
import sys
import time
from pathlib import Path

__all__ = ["AT_IMPORT", "AT_IMPORT_FILES", "file_hashes", "sources_digest", "ContentStampedLoader", "install"]

PACKAGE = Path(__file__).resolve().parent


def file_hashes(package: Path = PACKAGE) -> dict[str, bytes]:
    """The SHA-256 of every ``*.py`` file under ``package``, by its path relative to it."""
    return {path.relative_to(package).as_posix(): hashlib.sha256(path.read_bytes()).digest()
            for path in sorted(package.rglob("*.py"))}


def sources_digest(package: Path = PACKAGE, hashes: dict[str, bytes] | None = None) -> str:
    """A hash of every ``*.py`` file under ``package``: its path and its bytes
    (from :func:`file_hashes`, or ``hashes`` already taken)."""
    h = hashlib.sha256()
    for rel, digest in sorted((file_hashes(package) if hashes is None else hashes).items()):
        h.update(b"\0" + rel.encode() + b"\0" + digest)
    return h.hexdigest()


def _stamp(source: bytes) -> int:
    return int.from_bytes(hashlib.sha256(source).digest()[:4], "little")


class ContentStampedLoader(importlib.machinery.SourceFileLoader):
    """A source loader whose bytecode is valid only for the exact source text.
    It reads the source once and runs either those bytes compiled, or bytecode
    whose header is a timestamp-style one (flags 0) recording, where Python
    records the source's modification time, 32 bits of the SHA-256 of those
    bytes, and their size.  Hash-based bytecode (checked or not) and bytecode
    of another stamp are never run."""

    def path_stats(self, path):
        stats = super().path_stats(path)
        with open(path, "rb") as fh:
            return {"mtime": _stamp(fh.read()), "size": stats["size"]}

    def read_source(self, fullname: str, path: str, source: bytes) -> None:
        """Called with the bytes of each source read, before anything runs (nothing here)."""

    def get_code(self, fullname):
        import marshal
        from importlib.util import MAGIC_NUMBER, cache_from_source

        path = self.get_filename(fullname)
        source = self.get_data(path)
        self.read_source(fullname, path, source)
        header = MAGIC_NUMBER + (0).to_bytes(4, "little") + _stamp(source).to_bytes(4, "little") + \
            (len(source) & 0xFFFFFFFF).to_bytes(4, "little")
        try:
            bytecode_path = cache_from_source(path)
        except NotImplementedError:
            bytecode_path = None
        if bytecode_path is not None:
            try:
                data = self.get_data(bytecode_path)
            except OSError:
                data = b""
            if data[:16] == header:
                try:
                    return marshal.loads(memoryview(data)[16:])
                except (EOFError, ValueError, TypeError):
                    pass
        code = self.source_to_code(source, path)
        if bytecode_path is not None and not sys.dont_write_bytecode:
            try:
                self.set_data(bytecode_path, header + marshal.dumps(code))
            except OSError:
                pass
        return code


class _PackageLoader(ContentStampedLoader):
    """:class:`ContentStampedLoader` for the package's own modules: a source
    whose bytes are not those hashed into :data:`AT_IMPORT` (a file saved, or
    a folder swapped, after the import and before this module was loaded)
    puts the module in :data:`FOREIGN`, even if the files are back as they
    were when a result is stored."""

    def read_source(self, fullname, path, source):
        try:
            rel = Path(os.path.realpath(path)).relative_to(PACKAGE).as_posix()
        except ValueError:
            rel = None
        if rel is None or AT_IMPORT_FILES.get(rel) != hashlib.sha256(source).digest():
            FOREIGN.append(fullname)


class _Finder:
    """Finds ``pysym.*`` modules as the path finder does, with :class:`_PackageLoader`."""

    @staticmethod
    def find_spec(fullname, path=None, target=None):
        if not fullname.startswith("pysym.") or path is None:
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path, target)
        if spec is not None and type(spec.loader) is importlib.machinery.SourceFileLoader:
            spec.loader = _PackageLoader(fullname, spec.origin)
        elif spec is not None and spec.loader is not None:  # bytecode without source, an extension module
            FOREIGN.append(fullname)
        return spec


def install() -> None:
    """Load every later ``pysym.*`` module with :class:`ContentStampedLoader` (once)."""
    if not any(isinstance(f, _Finder) for f in sys.meta_path):
        sys.meta_path.insert(0, _Finder())


def _process_start() -> float:
    """When this process started (Linux: ``/proc``), rounded down; ``0.0`` when unknown."""
    try:
        with open("/proc/self/stat", encoding="ascii") as fh:
            ticks = int(fh.read().rsplit(")", 1)[1].split()[19])  # field 22, starttime, in clock ticks
        with open("/proc/stat", encoding="ascii") as fh:
            boot = next(int(line.split()[1]) for line in fh if line.startswith("btime "))
        return boot + ticks / os.sysconf("SC_CLK_TCK") - 1.0
    except (OSError, ValueError, IndexError, StopIteration):
        return 0.0


# The moment from which this process may hold code read from files: a file of the package or of a library
# changed at or after it may differ from what runs here, so no result computed here is cached
# (:func:`pysym.fingerprint.code_unchanged`).  Normally the package's import (before it imports any library;
# a margin covers the file system's coarser clock); if one of the libraries was loaded before it, the start of
# the process (or, when that is unknown, the beginning of time: nothing is cached).
LOADED_SINCE = time.time() - 0.05
# When this process started (0.0 when unknown): a module loaded before the package may have been read from its
# file at any moment since (:mod:`pysym._modules`).
PROCESS_START = _process_start()
PRELOADED = frozenset(sys.modules)  # the modules loaded before the package
if any(name in sys.modules for name in ("sympy", "mpmath", "flint", "numpy")):
    LOADED_SINCE = min(LOADED_SINCE, PROCESS_START)

def _running_other_code() -> list[str]:
    """The package's first two modules (its ``__init__`` and this one) load
    before :class:`ContentStampedLoader` is installed, with Python's own loader,
    which may run bytecode of another version of the source (saved within the
    same second at the same size, or copied with its times): their running
    code objects are compared with their sources compiled."""
    found, frame = [], sys._getframe(1)  # this module's own frame, then the frames importing it
    while frame is not None:
        code = frame.f_code
        path = Path(code.co_filename)
        if code.co_name == "<module>" and path.parent == PACKAGE and path.name in ("__init__.py", "_sources.py"):
            try:
                again = compile(path.read_bytes(), code.co_filename, "exec", dont_inherit=True)
            except (OSError, SyntaxError, ValueError):
                again = None
            if again != code:
                found.append(f"pysym/{path.name}")
        frame = frame.f_back
    return found


FOREIGN: list[str] = []  # modules of the package loaded from something else than their source: nothing is cached
AT_IMPORT_FILES = file_hashes()
AT_IMPORT = sources_digest(hashes=AT_IMPORT_FILES)
install()
FOREIGN += _running_other_code()
