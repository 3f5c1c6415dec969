"""What the code that computes a result is: the fingerprint that keys the caches of results.

An audit outcome (:mod:`pysym.audit.cache`) or a derivation's report
(:mod:`pysym.derive.cache`) is a function of its inputs and of the code that
computed it: :mod:`pysym`'s own sources as they were when it was imported
(:data:`pysym._sources.AT_IMPORT`), Python, the libraries SymPy, mpmath,
python-flint and NumPy (their files, not only their versions), the
environment variables that change how they compute.  :func:`code_digest`
hashes all of them; a cache stores a result only when :func:`code_problems`
finds nothing after the computation (the same hash from the files as they are
then, no file written since the process read its code, every module loaded
from where the key looked: :mod:`pysym._modules`; otherwise the result may
come from other code).
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import sys
from pathlib import Path

__all__ = ["LIBRARIES", "ENVIRONMENT", "code_digest", "current_code_digest", "code_unchanged", "code_problems",
           "loaded_problems",
           "libraries_fingerprint", "tree_fingerprint", "private_file", "ResultCache"]

FORMAT = "moe-theory-code/2"


# the libraries a result is computed with (each fingerprinted by its files), and the environment variables
# that change how they compute: their own, and the native loader's (which shared libraries are loaded: an
# LD_LIBRARY_PATH entry comes before a wheel's RUNPATH) and the numeric libraries' (kernels, threads)
# gmpy2 (or mpmath's fallback gmpy): SymPy's and mpmath's integers when installed
LIBRARIES = ("sympy", "mpmath", "flint", "numpy", "gmpy2", "gmpy")
ENVIRONMENT = ("SYMPY_", "MPMATH", "NPY_", "NUMPY_", "PYTHONINTMAXSTRDIGITS", "LD_", "GLIBC_", "OPENBLAS", "GOTO",
               "OMP_", "MKL_", "BLIS_", "FLINT_", "SAGE_", "PYTHONPATH", "PYTHONHOME", "PYTHONUSERBASE",
               "PYTHONNOUSERSITE", "PYTHONSAFEPATH", "PYTHONSTARTUP", "PYTHONPLATLIBDIR")


@functools.lru_cache(maxsize=1)
def code_digest() -> str:
    """What the code of a result is: :mod:`pysym`'s sources as they were when
    it was imported (:data:`pysym._sources.AT_IMPORT`), Python's version, the
    libraries (:func:`libraries_fingerprint`) and their environment variables."""
    from pysym import _sources

    return _combine(_sources.AT_IMPORT)


def current_code_digest() -> str:
    """:func:`code_digest` from the files as they are now (not cached)."""
    from pysym import _sources

    return _combine(_sources.sources_digest())


def code_unchanged() -> bool:
    """Whether a result computed in this process may be stored under
    :func:`code_digest` (and an entry read): nothing :func:`code_problems` names."""
    return not code_problems()


def code_problems() -> list[str]:
    """Why a result computed in this process may not be code_digest()'s, if at all:

    * the files hash otherwise than they did;
    * a file of the package or of the libraries (their vendored shared
      libraries, the site's start-up files and the modules they import), or a
      library's folder, was written or renamed since this process may have
      read its code (:data:`pysym._sources.LOADED_SINCE`): a file changed and
      changed back while a command runs, a folder swapped and swapped back, or
      a library upgraded under a running process, hashes the same as before
      but may not be the code that ran;
    * a module of the package was loaded from bytecode without source, from
      an extension module, or from bytes other than those hashed at import
      (:data:`pysym._sources.FOREIGN`);
    * a module named like the standard library, the package or a library was
      loaded from another place, or the package, a library or the standard
      library imported a module from outside the folders the key walks
      (:func:`loaded_problems`), or a library was imported before the package
      (whose finder notes where imports are found);
    * bytecode is read from ``sys.pycache_prefix`` (``PYTHONPYCACHEPREFIX``),
      a folder the key does not walk;
    * a folder or file of the code could not be read."""
    from pysym import _sources

    problems = [f"{name} was not loaded from the source hashed at import" for name in _sources.FOREIGN]
    problems += [f"{name} was imported before pysym: where what it imported was found is not known"
                 for name in LIBRARIES if name in _sources.PRELOADED]
    if sys.pycache_prefix is not None:
        problems.append(f"bytecode is read from {sys.pycache_prefix} (PYTHONPYCACHEPREFIX), which no key hashes")
    libraries, newest, unreadable = _libraries()
    _, package_newest, package_unreadable = _scan(_sources.PACKAGE, folder_times=False)
    problems += unreadable + package_unreadable + loaded_problems()
    if _combine(_sources.sources_digest(), libraries) != code_digest():
        problems.append("the code's files are not those the key names")
    if max(newest, package_newest) >= _sources.LOADED_SINCE:
        problems.append("a file of the code was written after this process may have read it")
    return problems


def loaded_problems() -> list[str]:
    """:func:`pysym._modules.problems` and :func:`pysym._modules.import_problems`
    for the modules loaded now: what a worker process that computed a result
    checks before handing it back to be stored (the modules it loaded are not
    in its parent's ``sys.modules``)."""
    from pysym import _modules

    roots, owned = _roots(), ("pysym",) + LIBRARIES
    return _modules.problems(roots, owned) + _modules.import_problems(roots, owned) + \
        _modules.mapped_problems(roots)


@functools.lru_cache(maxsize=1)
def _roots() -> tuple[str, ...]:
    """The folders the key walks (each ending in a separator), as found and with links resolved."""
    from pysym import _sources

    folders = {_sources.PACKAGE, *_package_dirs(), *_package_dirs(resolve=False), *_vendored()}
    forms = {os.fspath(f) for f in folders} | {os.path.realpath(f) for f in folders}
    return tuple(sorted(f.rstrip(os.sep) + os.sep for f in forms))


def _combine(sources: str, libraries: str | None = None) -> str:
    h = hashlib.sha256(FORMAT.encode())
    env = sorted((k, v) for k, v in os.environ.items() if k.startswith(ENVIRONMENT))
    from pysym import _modules

    # the interpreter and where its standard library is (PYTHONHOME, a venv's `home`): named, not hashed
    interpreter = f"{sys.version} {sys.executable} {os.path.realpath(sys.executable)} {sys.prefix} " \
                  f"{sys.base_prefix} {sys.exec_prefix} {_modules.STDLIB} {sys.flags} " \
                  f"int_max_str_digits={sys.get_int_max_str_digits()}"
    if libraries is None:
        libraries = libraries_fingerprint()
    for part in (interpreter, sources, libraries, _numpy_dispatch(), json.dumps(env)):
        h.update(b"\0" + part.encode("utf-8", "surrogatepass"))
    return h.hexdigest()


def _numpy_dispatch() -> str:
    """The CPU features NumPy dispatches to (they change the last bits of its ``exp`` or ``log``)."""
    try:
        from numpy._core._multiarray_umath import __cpu_features__ as features
    except ImportError:
        try:
            from numpy.core._multiarray_umath import __cpu_features__ as features
        except ImportError:
            return "unknown"
    return ",".join(sorted(k for k, v in features.items() if v))


def libraries_fingerprint() -> str:
    """Each library of :data:`LIBRARIES`: its version and every file of its
    package (path, size, inode, times), so a patched copy that keeps the
    version number is a different library; the shared libraries wheels vendor
    beside the packages (``site-packages/*.libs``: libflint, OpenBLAS); and
    the site's start-up files (``*.pth``, ``sitecustomize``), which run before
    any of it and may patch it."""
    return _libraries()[0]


def _libraries() -> tuple[str, float, list[str]]:
    """:func:`libraries_fingerprint`; the latest modification or status
    change of those files and folders (bytecode in ``__pycache__`` left out:
    Python writes it itself), from one walk of each folder; and what could not
    be read."""
    import importlib

    h = hashlib.sha256()
    newest, unreadable = 0.0, []
    for name in LIBRARIES:
        try:
            module = importlib.import_module(name)
        except ImportError:
            h.update(f"\0{name}: not installed".encode())
            continue
        h.update(f"\0{name} {getattr(module, '__version__', '?')}".encode())
        digest, latest, missed = _scan(Path(module.__file__).resolve().parent)
        h.update(digest.encode())
        newest, unreadable = max(newest, latest), unreadable + missed
    for root in _vendored():
        digest, latest, missed = _scan(root)
        h.update(b"\0" + digest.encode())
        newest, unreadable = max(newest, latest), unreadable + missed
    for path in _startup_files():
        try:
            text = path.read_bytes()
            st = os.stat(path)
        except OSError:
            unreadable.append(f"{path} cannot be read")
            continue
        h.update(b"\0" + os.fsencode(path) + b"\0" + text)
        newest = max(newest, st.st_mtime, st.st_ctime)
        if path.suffix == ".pth":
            digest, latest, refused = _startup_modules(path, text.decode("utf-8", "surrogateescape"))
            h.update(b"\0" + digest.encode())
            newest, unreadable = max(newest, latest), unreadable + refused
    return h.hexdigest(), newest, unreadable


def _startup_modules(path: Path, text: str) -> tuple[str, float, list[str]]:
    """The code of the modules a ``.pth`` file's lines import
    (:func:`pysym._startup.imported_by`): a package's folder walked, a single
    module's file and bytecode looked at; the latest change among them; and
    what the key cannot name: a line that does more than import and call
    them, a module not found where it ran from (:func:`_start_up_spec`), a
    standard-library name found outside the standard library, a module that
    itself imports, when it is run, anything but the standard library
    (:func:`pysym._startup.imports_of`)."""
    from pysym import _modules, _startup

    h = hashlib.sha256()
    newest, refused = 0.0, []
    for line in _startup.import_lines(text):
        modules, wrong = _startup.imported_by(line, keep_stdlib=True)
        refused += [f"{path}: a start-up line {why}: {line.strip()}" for why in wrong]
        for name in modules:
            if name in sys.builtin_module_names:  # built into the interpreter: nothing to find
                continue
            spec, why = _start_up_spec(name)
            if why:
                refused.append(f"{path}: {name}, which a start-up line imports, {why}")
                continue
            if name in _startup.STDLIB_NAMES:
                if spec.origin not in ("built-in", "frozen") and \
                        _modules.classify(spec.origin or "?", _roots()) != "interpreter":
                    refused.append(f"{path}: {name}, which a start-up line imports, is found at {spec.origin}, "
                                   "not in the standard library")
                continue
            if spec.submodule_search_locations:
                for folder in spec.submodule_search_locations:
                    digest, latest, missed = _scan(Path(folder))
                    h.update(f"\0{name}\0{digest}".encode())
                    newest, refused = max(newest, latest), refused + missed
            else:
                for file in (spec.origin, spec.cached):
                    try:
                        st = os.stat(file) if file else None
                    except OSError:
                        st = None
                    h.update(f"\0{name}\0{file}\0".encode("utf-8", "surrogateescape") +
                             (f"{st.st_size}\0{st.st_ino}\0{st.st_mtime_ns}\0{st.st_ctime_ns}" if st else "-")
                             .encode())
                    if st is not None and file == spec.origin:
                        newest = max(newest, st.st_mtime, st.st_ctime)
            others = _startup.imports_of(spec.origin) if spec.origin and spec.origin.endswith(".py") else []
            refused += [f"{path}: {name}, which a start-up line imports, imports {other} when it runs"
                        for other in others]
    return h.hexdigest(), newest, refused


def _package_dirs(resolve: bool = True) -> list[Path]:
    """The folder of each library's package (found without importing it),
    with links resolved (or, ``resolve=False``, as found)."""
    import importlib.util

    roots = []
    for name in LIBRARIES:
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            continue
        if spec is not None and spec.origin:
            roots.append(Path(spec.origin).resolve().parent if resolve else Path(spec.origin).parent)
    return roots


def _vendored() -> list[Path]:
    """The shared libraries wheels vendor beside the packages (``site-packages/*.libs``)."""
    parents = {root.parent for root in _package_dirs()}
    return sorted(d for parent in parents for d in parent.glob("*.libs") if d.is_dir())


def _startup_files() -> list[Path]:
    """The ``.pth`` files of the site folders, and ``sitecustomize``/``usercustomize``."""
    import site

    folders = list(getattr(site, "getsitepackages", lambda: [])())
    if getattr(site, "ENABLE_USER_SITE", False):
        folders.append(site.getusersitepackages())
    files = sorted(p for folder in folders if os.path.isdir(folder) for p in Path(folder).glob("*.pth"))
    for name in ("sitecustomize", "usercustomize"):
        spec, why = _start_up_spec(name)
        if spec is not None and spec.origin and os.path.isfile(spec.origin):
            files.append(Path(spec.origin))
        elif name in sys.modules:  # it ran, but where from is not known: a path that cannot be read
            files.append(Path(f"<{name} {why}>"))
    return files


def _start_up_spec(name: str):
    """Where the top-level module ``name`` that start-up code imports was
    found, and an empty reason; or ``None`` and why that is not known: not
    found, or found elsewhere on ``sys.path`` without its first entry (put
    there after start-up: the program's folder), or elsewhere than the file
    the loaded module names."""
    spec = _path_spec(name)
    if spec is None or not (spec.submodule_search_locations or spec.origin):
        return None, "is not found on sys.path"
    if sys.path:
        at_start = _path_spec(name, sys.path[1:])
        if at_start is None or at_start.origin != spec.origin:
            return None, "is found elsewhere without the first entry of sys.path"
    module = sys.modules.get(name)
    if module is not None and getattr(module, "__file__", spec.origin) != spec.origin:
        return None, f"ran from {getattr(module, '__file__', None)}, not from where it is found ({spec.origin})"
    return spec, ""


def _path_spec(name: str, path: list | None = None):
    """Where the path finder finds the top-level module ``name`` on ``sys.path``
    (not what ``sys.modules`` holds: a loaded module may say anything of itself)."""
    import importlib.machinery

    try:
        return importlib.machinery.PathFinder.find_spec(name, sys.path if path is None else path)
    except (ImportError, ValueError):
        return None


def tree_fingerprint(root: Path) -> str:
    """A hash of where ``root`` is and, for every file under it, its relative
    path, size, inode, modification and status-change times.  A copy, or a
    file written again, differs in its inode or its status-change time, which
    no tool can set back (``cp -a`` and ``touch -r`` keep only the
    modification time)."""
    return _scan(root)[0]


def _scan(root: Path, *, folder_times: bool = True) -> tuple[str, float, list[str]]:
    """:func:`tree_fingerprint` of the folder ``root``; the latest
    modification or status change of a file under it, or (``folder_times``)
    status change of a folder (a folder renamed, or an entry added, removed or
    renamed in it); and what could not be read (a folder that cannot be listed,
    a file that cannot be looked at), from one walk: files in order of their
    relative paths; links to folders are followed, each folder walked once, a
    link's target text hashed, a folder met again hashed as where it was first
    walked.  Bytecode and ``__pycache__`` folders are hashed but left out of
    the latest time (Python writes them itself)."""
    h = hashlib.sha256(os.fsencode(os.path.realpath(root)))
    update = h.update
    newest, unreadable = 0.0, []
    seen: dict[tuple[int, int], str] = {}  # each folder walked, and where it was walked first
    stack = [(os.fspath(root), "", False)]
    while stack:
        folder, rel, bytecode = stack.pop()
        try:
            if os.path.islink(folder):  # a link: what it points to, not only what is there now
                update(f"\0{rel}\0link\0{os.readlink(folder)}".encode("utf-8", "surrogateescape"))
            st = os.stat(folder)
            first = seen.get((st.st_dev, st.st_ino))
            if first is not None:  # the same folder again: say which one
                update(f"\0{rel}\0seen\0{first}".encode("utf-8", "surrogateescape"))
                continue
            seen[(st.st_dev, st.st_ino)] = rel
            if folder_times and not bytecode:
                newest = max(newest, st.st_ctime)
            with os.scandir(folder) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError as error:
            update(f"\0{rel}\0unreadable".encode("utf-8", "surrogateescape"))
            unreadable.append(f"{folder} cannot be listed ({error.strerror})")
            continue
        folders = []
        for entry in entries:
            try:
                if entry.is_dir():
                    folders.append((entry.path, f"{rel}{entry.name}/", bytecode or entry.name == "__pycache__"))
                    continue
                st = entry.stat()
            except OSError as error:
                update(f"\0{rel}{entry.name}\0unreadable".encode("utf-8", "surrogateescape"))
                unreadable.append(f"{entry.path} cannot be looked at ({error.strerror})")
                continue
            update(f"\0{rel}{entry.name}\0{st.st_size}\0{st.st_ino}\0{st.st_mtime_ns}\0{st.st_ctime_ns}"
                   .encode("utf-8", "surrogateescape"))
            if not bytecode:
                newest = max(newest, st.st_mtime, st.st_ctime)
        stack.extend(reversed(folders))
    return h.hexdigest(), newest, unreadable


def private_file(path: Path) -> bool:
    """Whether ``path`` is a regular file of this user that no one else may
    write: only then is a cached result read from it (another local user who
    could write a cache entry could plant a verdict, or code in a pickle; one
    who may write the folder can only replace an entry by a file of their own).
    The caches write their entries with mode 0600.  (The package's loader
    reads its bytecode by the same rule: :func:`pysym._sources.private`.)"""
    from pysym import _sources

    return _sources.private(os.fspath(path))


class ResultCache:
    """What the caches of results have in common: entries ``<key><SUFFIX>`` in
    ``directory``, one per key; with ``read=False`` nothing is read (everything
    is computed afresh) and what is computed is still stored; ``hits`` counts
    the entries read."""

    SUFFIX = ""
    KEEP = 1000

    def __init__(self, directory: Path, *, read: bool = True):
        self.directory = Path(directory)
        self.read = read
        self.hits = 0
        self._code_read_ok: bool | None = None  # code_unchanged() when the first entry was asked for

    def _path(self, key: str) -> Path:
        return self.directory / f"{key}{self.SUFFIX}"

    def _readable(self, path: Path) -> bool:
        """Whether an entry may be read at all: not once a file of the code
        changed under this process (a module loaded later, or reloaded, may be
        the new version, so a key may not name the code that would run; checked
        once, at the first entry asked for), and only a private one
        (:func:`private_file`)."""
        if not self.read:
            return False
        if self._code_read_ok is None:
            self._code_read_ok = self.code_unchanged()
        return self._code_read_ok and private_file(path)

    def _hit(self, path: Path) -> None:
        try:
            os.utime(path)  # recently used
        except OSError:
            pass
        self.hits += 1

    def code_unchanged(self) -> bool:
        """Whether the code is still what the keys name (checked after the
        computation, before its results are stored): :func:`code_unchanged`."""
        return code_unchanged()

    def prune(self, keep: int | None = None) -> None:
        """Remove the least recently used entries beyond ``keep`` (default :attr:`KEEP`)."""
        from pysym.paths import prune_least_recent

        prune_least_recent(self.directory, f"*{self.SUFFIX}", self.KEEP if keep is None else keep)
