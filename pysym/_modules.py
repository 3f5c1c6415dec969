"""Which modules this process runs, and whether each is code the key of a cached result names.

The key of a cached result (:mod:`pysym.fingerprint`) hashes folders: the
package's sources, the libraries' packages and the shared libraries they
vendor, and the modules the site's start-up files import.  The computations
it keys (an audit's claim, a derivation) run only the package, those
libraries and the standard library, so what the key hashes is the code that
ran if each of those names was loaded from its own place, and no module from
anywhere else was loaded while it ran.  Two ways around that were found:
a file on ``PYTHONPATH`` (or in the current folder) that shadows a
standard-library module SymPy imports, and a module imported for the first
time by the computation itself from an unhashed folder (an optional
dependency of a library).  So every module in ``sys.modules`` is sorted by
where its file is (an allow-list):

* **covered**: under a folder the key walks (``roots``);
* **interpreter**: in the standard library's folder (outside its
  ``site-packages``), or with no file of its own (built in, frozen, a
  namespace package, a module made in memory by code from a loaded file):
  named by the interpreter's version and path, not hashed;
* **other**: anything else (the test runner, the renderers' libraries,
  a plant).

and :func:`problems` forbids storing (and reading) a result when a module
named like the standard library, the package or a library is not from its own
place, or when an *other* module was loaded while the result was computed.
Other modules loaded before (the program around the computation, such as the
test runner) are not named by the key: like code run from a string
(``python -c``, ``exec``), a program that changes the package or its
libraries in memory is outside what a key can name.
"""

from __future__ import annotations

import functools
import os
import sys

__all__ = ["problems", "classify", "STDLIB"]

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


def problems(roots: tuple[str, ...], owned: tuple[str, ...], since: frozenset | None = None) -> list[str]:
    """Why the modules loaded now may not be the code a key names: a module
    whose top-level name is the standard library's and whose file is not in
    its folder, or whose top-level name is in ``owned`` (the package and the
    libraries) and whose file is not under ``roots``; and, given ``since``
    (the names in ``sys.modules`` when the computation began), a module
    loaded since from anywhere else."""
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
        elif since is not None and where == "other" and name not in since:
            found.append(f"{name} was loaded from {file} while the result was computed")
    return sorted(found)
