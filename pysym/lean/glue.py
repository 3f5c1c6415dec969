"""The patch applied to the emscripten glue (``lean.js``) of the wasm Lean.

As shipped, the glue has two problems on a real machine:

1. *Start-up cost.*  ``__dlsym_js`` resolves each symbol with
   ``Object.keys(lib.exports).indexOf(symbol)``, rebuilding and scanning a
   200,000-entry array on every lookup; importing ``Init`` performs thousands
   of lookups.  The patch serves lookups from a ``Map`` built once per library
   and caches the key array used by ``__dlsym_catchup_js``.  (Measured figures
   are in the README.)
2. *File access.*  The glue mounts only the host folders ``/home`` and
   ``/tmp``.  The patch also mounts each folder listed in the environment
   variable ``MOE_LEAN_MOUNTS`` (colon-separated absolute paths), so the
   toolchain cache and the project's build folder can live anywhere.

Each replacement must match exactly once; :func:`patch` refuses otherwise,
so a different glue is never half-patched.

>>> patch("x")
Traceback (most recent call last):
...
pysym.errors.ToolchainError: the Lean glue does not have the expected shape (fast symbol lookup: found 0 matches, expected 1); refusing to patch it
"""

from __future__ import annotations

from pathlib import Path

from pysym.errors import ToolchainError

__all__ = ["PATCH_ID", "MOUNTS_ENV", "patch", "verify_patched", "is_patched", "mounts_for"]

PATCH_ID = "glue-v1"
MOUNTS_ENV = "MOE_LEAN_MOUNTS"

_REPLACEMENTS = (
    (
        "fast symbol lookup",
        "newSymIndex=Object.keys(lib.exports).indexOf(symbol);",
        "var moeIx=lib.moeSymIndex||(lib.moeSymIndex=new Map(Object.keys(lib.exports).map((k,i)=>[k,i])));"
        "newSymIndex=moeIx.has(symbol)?moeIx.get(symbol):-1;",
    ),
    (
        "cached key array",
        "var symName=Object.keys(symDict)[symbolIndex];",
        "var symName=(lib.moeSymKeys||(lib.moeSymKeys=Object.keys(symDict)))[symbolIndex];",
    ),
    (
        "extra mounts",
        'FS.mount(NODEFS,{root:"/home"},"/home");FS.mount(NODEFS,{root:"/tmp"},"/tmp");',
        'FS.mount(NODEFS,{root:"/home"},"/home");FS.mount(NODEFS,{root:"/tmp"},"/tmp");'
        f'(process.env["{MOUNTS_ENV}"]||"").split(":").filter(p=>p).forEach(p=>{{FS.mkdirTree(p);FS.mount(NODEFS,{{root:p}},p)}});',
    ),
)

_ALWAYS_MOUNTED = (Path("/home"), Path("/tmp"))


def patch(text: str) -> str:
    """Return the patched glue; raise if any replacement does not match once."""
    for label, old, new in _REPLACEMENTS:
        n = text.count(old)
        if n != 1:
            raise ToolchainError(
                f"the Lean glue does not have the expected shape ({label}: found {n} matches, "
                "expected 1); refusing to patch it"
            )
        text = text.replace(old, new)
    return text


def is_patched(text: str) -> bool:
    """Whether every replacement is present and no original remains."""
    return all(text.count(new) == 1 and text.count(old) == new.count(old) for _, old, new in _REPLACEMENTS)


def verify_patched(text: str) -> None:
    if not is_patched(text):
        raise ToolchainError("the patched Lean glue failed verification; reinstall the toolchain")


def mounts_for(paths) -> list[str]:
    """The folders to mount so that every path in ``paths`` is reachable:
    absolute, resolved, minus those under ``/home`` or ``/tmp`` (mounted by
    the glue itself) and minus those inside another listed folder.

    >>> mounts_for(["/tmp/x", "/opt/a/b", "/opt/a", "/srv/c"])
    ['/opt/a', '/srv/c']
    """
    resolved = sorted({Path(p).resolve() for p in paths})
    keep: list[Path] = []
    for p in resolved:
        if any(p == m or m in p.parents for m in _ALWAYS_MOUNTED):
            continue
        if any(k == p or k in p.parents for k in keep):
            continue
        keep.append(p)
    return [str(p) for p in keep]
