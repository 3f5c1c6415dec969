"""Which modules this process runs, and whether each is code the key of a cached result names.

The key of a cached result (:mod:`pysym.fingerprint`) hashes folders: the
package's sources, the libraries' packages and the shared libraries they
vendor, and the modules the site's start-up files import; the standard
library is named by where it is.  The computations it keys (an audit's
claim, a derivation) run the package, those libraries and the standard
library, so what the key names is the code that ran if each of those was
found in its own place and imported nothing from anywhere else.  Red-team
ways around that: a file on ``PYTHONPATH`` that shadows a standard-library
module SymPy imports (and then sets its ``__file__`` to the real one's), and
a module a library or the standard library looks for and finds on
``PYTHONPATH`` (mpmath's fallback ``gmpy``, ``copy``'s ``org``, NumPy's
optional imports, ``sysconfig``'s ``_sysconfigdata_*``).  So modules are
sorted by where their code is (an allow-list):

* **covered**: under a folder the key walks (``roots``);
* **interpreter**: in the standard library's folder (outside its
  ``site-packages``), built in or frozen, or without code of its own (a
  namespace package);
* **other**: anything else (the test runner, the renderers' libraries, a plant).

:func:`import_problems` judges every module found since the package was
imported by where the import system found it (recorded by the package's
finder, :data:`pysym._sources.IMPORTS`, not by what the module says of
itself) and by the code that asked for it; :func:`problems` judges the
modules loaded before by their ``__file__``.  Other modules the program
around the computations imports (the test runner, ``python -c``) are not
named by the key: like code run from a string, a program that changes the
package or its libraries in memory is outside what a key can name.
"""

from __future__ import annotations

import functools
import os
import sys

from pysym._startup import STDLIB_NAMES

__all__ = ["problems", "import_problems", "mapped_problems", "renderer_folders", "classify", "STDLIB"]

STDLIB = os.path.dirname(os.path.realpath(os.__file__))
_SITE_FOLDERS = ("site-packages", "dist-packages")


@functools.lru_cache(maxsize=None)
def classify(file: str, roots: tuple[str, ...]) -> str:
    """``"covered"``, ``"interpreter"`` or ``"other"`` for a module loaded
    from ``file``, given the folders the key walks (each ending in a
    separator); the path as given is tried first, then with links resolved."""
    for form in (file, os.path.realpath(file)):
        if form.startswith(roots):
            return "covered"
        if form.startswith(STDLIB + os.sep) and \
                not any(part in _SITE_FOLDERS for part in form[len(STDLIB):].split(os.sep)):
            return "interpreter"
    return "other"


def problems(roots: tuple[str, ...], owned: tuple[str, ...]) -> list[str]:
    """Why the modules loaded now may not be the code a key names, by what
    each says of itself (``__file__``; the modules found since the package
    was imported are judged by where the import system found them instead:
    :func:`import_problems`): a module whose top-level name is the standard
    library's and whose file is not in its folder, or whose top-level name is
    in ``owned`` (the package and the libraries) and whose file is not under
    ``roots``."""
    found = []
    for name, module in list(sys.modules.items()):
        file = getattr(module, "__file__", None)
        if not isinstance(file, str):
            continue
        where = classify(file, roots)
        top = name.partition(".")[0]
        if top in owned and where != "covered":
            found.append(f"{name} was loaded from {file}, outside the folders the key hashes")
        elif top in STDLIB_NAMES and top not in owned and where != "interpreter":
            found.append(f"{name} was loaded from {file}, not from the standard library ({STDLIB})")
    return sorted(found)


@functools.lru_cache(maxsize=1)
def renderer_folders() -> tuple[str, ...]:
    """Where the packages the installed ``moe-theory`` distribution requires
    (and what they require, and its ``web`` extra) are installed: the
    renderers (jinja2, nbformat, matplotlib, the web blueprint's plasTeX) and
    their dependencies, found through the distributions' own records (not on
    ``sys.path``, where a file on ``PYTHONPATH`` comes first); each ending in a
    separator.  Empty when the distribution is not installed."""
    import importlib.metadata as metadata
    import re

    def key(name: str) -> str:
        return re.sub(r"[-_.]+", "-", name).lower()

    try:
        root = metadata.distribution("moe-theory")
    except metadata.PackageNotFoundError:
        return ()
    extras = ("web",)  # the web blueprint's renderers; the test extra is the program around, not a renderer
    seen, todo, folders = set(), [(root, True)], set()
    while todo:
        dist, is_root = todo.pop()
        if key(dist.metadata["Name"] or "") in seen:
            continue
        seen.add(key(dist.metadata["Name"] or ""))
        listed = None if is_root else dist.read_text("top_level.txt")  # cheaper than the whole RECORD
        tops = set() if is_root else set(listed.split()) if listed else {f.parts[0] for f in dist.files or []}
        for top in tops:
            if top not in ("..", "__pycache__") and not top.endswith((".dist-info", ".data")):
                path = os.path.realpath(dist.locate_file(top))
                # a package's folder; a module's file (top_level.txt names `m` for m.py or m.cpython-*.so)
                folders.add(path + os.sep if os.path.isdir(path) else path if os.path.isfile(path) else path + ".")
        for line in dist.requires or []:
            name = re.match(r"[A-Za-z0-9][A-Za-z0-9._-]*", line)
            marker = line.partition(";")[2]
            if name is None or "extra" in marker and not (is_root and any(f'"{e}"' in marker for e in extras)):
                continue
            try:
                todo.append((metadata.distribution(name.group(0)), False))
            except metadata.PackageNotFoundError:
                continue
    return tuple(sorted(folders))


def _is_renderer(file: str) -> bool:
    return os.path.realpath(file).startswith(renderer_folders()) if os.path.isabs(file) else False


def import_problems(roots: tuple[str, ...], owned: tuple[str, ...]) -> list[str]:
    """Why the modules imported since the package was (:data:`pysym._sources.IMPORTS`:
    where the import system found each, and for which code) may not be code a
    key names: a standard-library, package or library name found elsewhere;
    or a module found outside the folders the key walks and the standard
    library for code of the package, of a library or of the standard library
    (an optional dependency, a fallback such as mpmath's ``gmpy``, a module
    the standard library looks for), unless it is one of the installed
    renderers the package requires (:func:`renderer_folders`), whose own
    imports must then come from those folders too (jinja2's ``markupsafe``
    found on ``PYTHONPATH`` would run in the computing process).  The
    renderers are named by where they are installed, not hashed."""
    from pysym import _sources

    found = []
    for name, origin, importer in list(_sources.IMPORTS):
        top = name.partition(".")[0]
        if origin is None or origin in ("built-in", "frozen"):
            where = "interpreter"
        elif origin == "?":
            where = "unknown"
        else:
            where = classify(origin, roots)
        if top in owned:
            if where != "covered":
                found.append(f"{name} was found at {origin}, outside the folders the key hashes")
            continue
        if top in STDLIB_NAMES:
            if where != "interpreter":
                found.append(f"{name} was found at {origin}, not in the standard library ({STDLIB})")
            continue
        if where in ("covered", "interpreter"):
            continue
        # found elsewhere (or where, is not known): fine for the program around the computations, and for
        # the code of the package, a library, the standard library or a renderer only if it is a renderer
        if importer == "?":
            by = "unknown"
        elif not os.path.isabs(importer):  # code run from a string ("<string>", "<stdin>"): the program's
            by = "other"
        else:
            by = classify(importer, roots)
            if by == "other" and _is_renderer(importer):
                by = "renderer"
        if by == "other" or where == "other" and _is_renderer(origin):
            continue
        found.append(f"{name} was found at {origin} for {importer}, outside the folders the key hashes")
    return sorted(set(found))


_SYSTEM_LIBRARIES = ("/lib/", "/lib64/", "/usr/lib/", "/usr/lib64/", "/usr/libexec/")


def mapped_problems(roots: tuple[str, ...]) -> list[str]:
    """Machine code mapped into this process (Linux: ``/proc/self/maps``, the
    executable mappings) from anywhere but the folders the key walks, the
    interpreter's own folders and the system's library folders: a library
    ``LD_PRELOAD`` or ``LD_AUDIT`` loads, or one found on ``LD_LIBRARY_PATH``
    before a wheel's own (it could serve other bytes for any file the key
    hashes).  The system's libraries are named by where they are, not hashed."""
    try:
        with open("/proc/self/maps", encoding="utf-8", errors="surrogateescape") as fh:
            lines = fh.read().splitlines()
    except OSError:
        return []
    interpreter = tuple({os.path.realpath(p) + os.sep for p in (sys.prefix, sys.base_prefix, sys.exec_prefix)})
    allowed = roots + interpreter + (STDLIB + os.sep,) + _SYSTEM_LIBRARIES
    found = set()
    for line in lines:
        fields = line.split(maxsplit=5)
        if len(fields) < 6 or "x" not in fields[1] or not fields[5].startswith("/"):
            continue
        path = fields[5]
        if path.endswith(" (deleted)") or not (path.startswith(allowed) or
                                               os.path.realpath(path).startswith(allowed) or
                                               path == os.path.realpath(sys.executable)):
            found.add(f"{path} is mapped as code from outside the folders the key hashes")
    return sorted(found)
