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

__all__ = ["problems", "import_problems", "classify", "STDLIB", "RENDERERS"]

STDLIB = os.path.dirname(os.path.realpath(os.__file__))
_SITE_FOLDERS = ("site-packages", "dist-packages")
_STDLIB_NAMES = frozenset(getattr(sys, "stdlib_module_names", ()))


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
        elif top in _STDLIB_NAMES and top not in owned and where != "interpreter":
            found.append(f"{name} was loaded from {file}, not from the standard library ({STDLIB})")
    return sorted(found)


# The code the computations run is the package, the libraries and the standard library; the package also
# imports the renderers it declares (LaTeX, notebooks, plots, the web blueprint), which the computations do
# not call.
RENDERERS = ("jinja2", "markupsafe", "nbformat", "matplotlib", "leanblueprint", "plasTeX", "plastexdepgraph")


def import_problems(roots: tuple[str, ...], owned: tuple[str, ...]) -> list[str]:
    """Why the modules imported since the package was (:data:`pysym._sources.IMPORTS`:
    where the import system found each, and for which code) may not be code a
    key names: a standard-library, package or library name found elsewhere,
    or a module found outside the folders the key walks and the standard
    library for code of the package (other than its renderers), of a library
    or of the standard library (an optional dependency, a fallback such as
    mpmath's ``gmpy``, a module the standard library looks for)."""
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
        if top in _STDLIB_NAMES:
            if where != "interpreter":
                found.append(f"{name} was found at {origin}, not in the standard library ({STDLIB})")
            continue
        if where in ("covered", "interpreter"):
            continue
        # found elsewhere (or where, is not known): fine only for the program around the computations
        if importer == "?":
            by = "unknown"
        else:  # a file's path; or code run from a string ("<string>", "<stdin>"): the program's
            by = classify(importer, roots) if os.path.isabs(importer) else "other"
        if by == "other" or by == "covered" and _in_package(importer) and top in RENDERERS:
            continue
        found.append(f"{name} was found at {origin} for {importer}, outside the folders the key hashes")
    return sorted(set(found))


def _in_package(file: str) -> bool:
    from pysym import _sources

    return os.path.realpath(file).startswith(str(_sources.PACKAGE) + os.sep)
