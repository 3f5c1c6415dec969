"""A fingerprint of this package's sources, taken when the package is first imported.

The audit's cache (:mod:`pysym.audit.cache`) keys outcomes by the code that
computed them.  Hashing the files when the cache is first used would be too
late: the modules in memory were read earlier, and a file saved in between
would give old code's outcomes the new code's key.  So :data:`AT_IMPORT` is
taken here, when ``import pysym`` runs (about 10 ms), before any other module
of the package is read, and the cache stores nothing unless the files still
hash the same after the evaluation (:func:`sources_digest` again).

>>> len(AT_IMPORT), AT_IMPORT == sources_digest()
(64, True)
"""

from __future__ import annotations

import hashlib
from pathlib import Path

__all__ = ["AT_IMPORT", "sources_digest"]

PACKAGE = Path(__file__).resolve().parent


def sources_digest(package: Path = PACKAGE) -> str:
    """A hash of every ``*.py`` file under ``package``: its path and its bytes."""
    h = hashlib.sha256()
    for path in sorted(package.rglob("*.py")):
        h.update(b"\0" + path.relative_to(package).as_posix().encode() + b"\0" + path.read_bytes())
    return h.hexdigest()


AT_IMPORT = sources_digest()
