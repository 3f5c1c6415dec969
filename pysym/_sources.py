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
  very bytes and their size.  That stamp tells stale bytecode from fresh,
  not forged from genuine (the hash of a public source is public), so the
  package's bytecode is kept in the user's cache under the full SHA-256 of
  its source and read only from a file no one else may write
  (:class:`_PackageLoader`).  The two modules loaded before it (the
  package's ``__init__`` and this one) are compared with their sources
  compiled; a difference puts them in :data:`FOREIGN`, and nothing is cached;
* a folder swapped for another and swapped back while a command runs leaves
  every file's bytes and times as they were.  So each module the loader reads
  later must be the very bytes hashed into :data:`AT_IMPORT`
  (:data:`AT_IMPORT_FILES`); any other puts it in :data:`FOREIGN`.

The package's finder, first on ``sys.meta_path``, also notes where every
other module imported after it is found, and for which code
(:data:`IMPORTS`, judged by :func:`pysym._modules.import_problems`).

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
        from importlib.util import MAGIC_NUMBER

        path = self.get_filename(fullname)
        source = self.get_data(path)
        self.read_source(fullname, path, source)
        header = MAGIC_NUMBER + (0).to_bytes(4, "little") + _stamp(source).to_bytes(4, "little") + \
            (len(source) & 0xFFFFFFFF).to_bytes(4, "little")
        bytecode_path = self.bytecode_path(path, source)
        if bytecode_path is not None:
            try:
                data = self.read_bytecode(bytecode_path)
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
                self.write_bytecode(bytecode_path, header + marshal.dumps(code))
            except OSError:
                pass
        return code

    def bytecode_path(self, path: str, source: bytes) -> str | None:
        """Where the bytecode of ``source`` (read from ``path``) is kept: Python's own place."""
        from importlib.util import cache_from_source

        try:
            return cache_from_source(path)
        except NotImplementedError:
            return None

    def read_bytecode(self, path: str) -> bytes:
        return self.get_data(path)

    def write_bytecode(self, path: str, data: bytes) -> None:
        self.set_data(path, data)


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

    def bytecode_path(self, path, source):
        """The package's bytecode is kept in the user's cache, named by the
        SHA-256 of the source it was compiled from, and read only from a file
        of this user that no one else may write (:func:`private`): bytecode in
        the package's ``__pycache__`` could be written by anyone who may write
        there, with the stamp of the untouched source and other code."""
        if sys.pycache_prefix is not None:  # nothing is cached then (pysym.fingerprint); keep Python's choice
            return super().bytecode_path(path, source)
        tag = sys.implementation.cache_tag
        return None if tag is None else \
            os.path.join(_user_cache(), "bytecode", f"{tag}-{hashlib.sha256(source).hexdigest()}.pyc")

    def read_bytecode(self, path):
        if not private(path):
            raise OSError(f"{path} is not a private file of this user")
        with open(path, "rb") as fh:
            return fh.read()

    def write_bytecode(self, path, data):
        # as pysym.paths.write_atomic(private=True), which the loader cannot import while it loads the package
        folder = os.path.dirname(path)
        os.makedirs(folder, mode=0o700, exist_ok=True)
        temporary = f"{path}.{os.getpid()}.tmp"
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
            os.replace(temporary, path)
        except BaseException:
            try:
                os.unlink(temporary)
            except OSError:
                pass
            raise


def _user_cache() -> str:
    """The per-user cache folder (as :func:`pysym.paths.cache_dir`, which cannot be imported here)."""
    env = os.environ.get("MOE_THEORY_CACHE")
    if env:
        return os.path.abspath(os.path.expanduser(env))
    xdg = os.environ.get("XDG_CACHE_HOME")
    return os.path.join(os.path.expanduser(xdg) if xdg else os.path.join(os.path.expanduser("~"), ".cache"),
                        "moe-theory")


def private(path: str) -> bool:
    """Whether ``path`` is a regular file of this user that no one else may
    write (:func:`pysym.fingerprint.private_file` says why; here, because the
    package's loader cannot import other modules of the package)."""
    import stat

    if not hasattr(os, "getuid"):
        return True
    try:
        st = os.lstat(path)
    except OSError:
        return False
    return stat.S_ISREG(st.st_mode) and st.st_uid == os.getuid() and not st.st_mode & 0o022


class _Finder:
    """First on ``sys.meta_path``: finds ``pysym.*`` modules as the path finder
    does, with :class:`_PackageLoader`; finds every other module by asking the
    finders after it, as the import system would, and notes in
    :data:`IMPORTS` which module was found where (``spec.origin``: the file
    the loader reads, not what the module later says of itself) for which
    code (the file of the first frame outside the import machinery)."""

    @staticmethod
    def find_spec(fullname, path=None, target=None):
        if fullname.startswith("pysym.") and path is not None:
            spec = importlib.machinery.PathFinder.find_spec(fullname, path, target)
            if spec is not None and type(spec.loader) is importlib.machinery.SourceFileLoader:
                spec.loader = _PackageLoader(fullname, spec.origin)
            elif spec is not None and spec.loader is not None:  # bytecode without source, an extension module
                FOREIGN.append(fullname)
            return spec
        spec, found = None, False
        for finder in list(sys.meta_path):
            if isinstance(finder, _Finder):
                continue
            find = getattr(finder, "find_spec", None)
            if find is None:  # a finder of the old protocol: where it finds things is not known
                IMPORTS.append((fullname, "?", _importer()))
                return None
            spec = find(fullname, path, target)
            if spec is not None:
                found = True
                break
        if found:
            if spec.has_location or spec.origin in ("built-in", "frozen"):
                origin = spec.origin
            elif spec.origin is None and spec.submodule_search_locations is not None:
                origin = None  # a namespace package: no code of its own
            else:
                origin = "?"
            IMPORTS.append((fullname, origin, _importer()))
        return spec


_IMPORT_MACHINERY = ("<frozen importlib", os.path.dirname(importlib.__file__) + os.sep)


def _importer() -> str:
    """The file of the code that asked for the import being found (frames of
    ``importlib``, which imports on others' behalf, skipped)."""
    frame = sys._getframe(2)
    while frame is not None and frame.f_code.co_filename.startswith(_IMPORT_MACHINERY):
        frame = frame.f_back
    return "?" if frame is None else frame.f_code.co_filename


# every module found since the package was imported, other than its own: (name, where its code is read from,
# or None for a namespace package, "?" when unknown; the file of the code that imported it)
IMPORTS: list[tuple[str, str | None, str]] = []


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
