"""A secret of this user, mixed into the keys of caches that live in a workspace.

The Lean check caches its results under ``build/.cache/lean/`` of the
workspace, keyed by a hash of the sources, the options, the toolchain and the
checker's code: everything a repository's author knows too.  A repository (or
a pull request) that ships ``build/.cache/lean/results/<key>.json`` could then
make ``moe-theory lean check`` print OK on a false theorem without Lean ever
running.  So every such key also hashes :func:`user_secret`: 32 random bytes
kept in the user cache (``~/.cache/moe-theory/secret``, mode 0600), which no
file of a workspace can know.  An entry written on another machine, by
another user, or shipped in a repository is never named by a key computed
here; it is a miss, and the check runs Lean.

The secret is made on first use.  A file there that is not a private regular
file of this user with 32 bytes is replaced by a new secret (every cached
result becomes a miss, which costs time, never trust).  Where the user cache
cannot be written, a secret drawn for this process alone is used: nothing
cached by another process is ever read.

>>> len(user_secret()) == 32 and user_secret() == user_secret()
True
>>> keyed("lean check") != keyed("audit")
True
"""

from __future__ import annotations

import hashlib
import hmac
import os
import stat

from pysym.paths import cache_dir, write_atomic

__all__ = ["user_secret", "keyed", "seal", "SECRET_FILE"]

SECRET_FILE = "secret"
_SIZE = 32
_PROCESS_SECRET = os.urandom(_SIZE)  # when the user cache cannot hold one


def _private_secret(path) -> bytes | None:
    try:
        st = os.lstat(path)
        if not stat.S_ISREG(st.st_mode) or st.st_mode & 0o077 or (hasattr(os, "getuid") and st.st_uid != os.getuid()):
            return None
        data = path.read_bytes()
    except OSError:
        return None
    return data if len(data) == _SIZE else None


def user_secret() -> bytes:
    """This user's secret (see the module docstring)."""
    path = cache_dir() / SECRET_FILE
    found = _private_secret(path)
    if found is not None:
        return found
    try:
        write_atomic(path, os.urandom(_SIZE), private=True)
    except OSError:
        return _PROCESS_SECRET
    return _private_secret(path) or _PROCESS_SECRET


def keyed(purpose: str) -> str:
    """A hex digest of ``purpose`` under this user's secret: the part of a cache
    key that a file of a workspace cannot know."""
    return hmac.new(user_secret(), purpose.encode(), hashlib.sha256).hexdigest()


def seal(files) -> str:
    """A digest of the files ``files`` (their names and bytes) under this user's secret: written beside a
    file this user's run made, it tells a later run that the files are still those (a repository that ships
    them cannot make one).  A missing file seals as missing."""
    h = hashlib.sha256()
    for f in files:
        try:
            data = f.read_bytes()
        except OSError:
            data = None
        h.update(f.name.encode() + b"\0" + (b"-" if data is None else hashlib.sha256(data).digest()) + b"\0")
    return keyed("files " + h.hexdigest())
