"""The patch applied to the emscripten glue (``lean.js``) of the wasm Lean.

The registry toolchain (:mod:`pysym.lean.toolchain`) keeps the glue as shipped
in ``lean/lean.shipped.js`` and runs ``lean/lean.js`` = :func:`patch` of it.
The patch is versioned by :data:`PATCH_ID`; the installed toolchain's folder
name contains it, so changing the patch (and bumping the id) makes every
existing install re-patch its shipped glue on next use.

What the patch changes, and why
===============================

1. *Symbol lookup* (``fast symbol lookup``, ``cached key array``).
   ``__dlsym_js`` resolved each symbol with
   ``Object.keys(lib.exports).indexOf(symbol)``, rebuilding and scanning a
   200,000-entry array on every lookup; importing ``Init`` performs thousands
   of lookups.  Lookups are served from a ``Map`` built once per library, and
   the key array used by ``__dlsym_catchup_js`` is cached.
2. *File access* (``extra mounts``).  The glue mounts only the host folders
   ``/home`` and ``/tmp``.  The patch also mounts each folder listed in the
   environment variable ``MOE_LEAN_MOUNTS`` (colon-separated absolute paths),
   so the toolchain cache and the project's build folder can live anywhere.
3. *Thread pool* (``thread pool size``).  The glue pre-starts
   ``pthreadPoolSize`` workers (4 as shipped) before ``main`` runs.  Every
   worker is a separate V8 isolate that re-reads and re-compiles the glue and
   re-instantiates and re-links the 137 MB wasm module, whether or not Lean
   ever uses it.  The patch sets the pool to :data:`POOL_SIZE`; threads
   beyond the pool are still created on demand (emscripten's
   ``getNewWorker``), so Lean's parallelism is unchanged.  The size was chosen
   with ``benchmarks/lean_startup.py`` (figures below).
4. *Export binding* (``compact export binding``).  The shipped glue declares
   one JavaScript variable per wasm export (201,110 of them) and assigns each
   in ``assignWasmExports``: 89 MB of the 89.5 MB glue.  Every thread parses
   that text and compiles the 68 MB function, and keeps both in memory.  Only
   about fifty of those variables are used anywhere else in the glue.  The
   patch keeps the declarations and assignments of the variables the rest of
   the glue mentions, verbatim, and drops the others; ``getCFunc`` (the one
   place that looks exports up by computed name, for ``ccall``/``cwrap``)
   falls back to ``wasmExports``.  Symbol resolution (``dlsym``, the GOT) never
   read these variables: it works from the instance's exports.  The glue shrinks
   to about 0.7 MB.
5. *Linking* (``internal symbol set``, ``GOT imports recorded``, ``undefined
   symbols from GOT imports``, ``merge loop``, ``GOT entries on demand``).  Every thread links the
   main module itself: ``mergeLibSymbols``, ``updateGOT`` and
   ``reportUndefinedSymbols`` each walk all 200,000 exports.  The patch keeps
   what they do and drops per-symbol waste: ``isInternalSym`` tests a ``Set``
   instead of building a 19-element array per call; ``mergeLibSymbols`` loops
   without allocating a closure and a pair per export; and
   ``reportUndefinedSymbols``, which looks for GOT entries still at -1,
   visits only the entries the GOT proxy created (the module's 269
   ``GOT.func`` imports and any later side module's), in the same order,
   instead of all 200,000: only the proxy ever creates an entry at -1.
   ``updateGOT`` gave every export a GOT entry, one ``WebAssembly.Global``
   each (``GOT entries on demand``): it now records the value of an export
   that has no entry yet in a ``Map``, and the GOT proxy makes the ``Global``
   (with that value) when a module imports the symbol; an entry counts as
   existing when recorded either way, so which definition wins is unchanged.
   Every exported function is still put in the table, in the same order, so
   function pointers agree between threads.  (0.9 s of CPU time less per Lean
   run on ``Init``: 5.6 s to 4.6 s, three runs each.)

6. *Reads in worker threads* (``local reads``, ``local ___syscall_stat64``, ...).
   Lean imports each ``.olean`` from a worker thread with nine file system
   calls (three ``stat``s for its parts, ``open``, ``fstat``, ``seek``, two
   ``read``s, ``close``).  The glue sends each call to the main thread, which
   is itself blocked in a wait that looks at its queue of such calls once per
   millisecond (emscripten's ``__timedwait``), so importing ``Init``'s 500
   files spent about 5 s doing nothing on either thread.  The patch lets a
   worker thread serve, with Node's ``fs``, exactly these calls itself:
   ``stat`` and read-only ``open`` (no other flag than ``O_LARGEFILE`` and
   ``O_CLOEXEC``) of a regular file named by an absolute path without ``.``,
   ``..`` or ``//`` components, inside a mounted folder both as written and
   after resolving symbolic links (the folders the main thread mounts, so
   the file is the one the main thread would have opened), and ``fstat``,
   ``seek``, ``read`` and ``close`` of the fds such an ``open`` returned
   (``2**29`` + the host fd).  Every other call, path, flag or fd goes to the
   main thread as before.  Init-only run: 9.5 s to 5.7 s wall, the same CPU
   time; the project's check file: 31.6 s to 27.3 s.

Measured with ``benchmarks/lean_startup.py`` in one run (2-core shared
machine, medians of 3; 2026-11-23): on a file importing only ``Init``, the
former patch ``glue-v1`` (a pool of 4) took 18.1 s, 23.4 s of CPU and
3.47 GB; this patch (pool 1) 8.5 s, 6.5 s of CPU and 0.89 GB.  On the
project's generated check file: 49.9 s, 65.3 s, 5.35 GB before; 33.5 s,
40.9 s, 2.24 GB now.  A pool of 0 was as fast on ``Init`` alone but slower
and larger on the files that elaborate in parallel; pools of 2 and 4 cost
more CPU and memory for no measurable gain.  The linking fix alone took
14 % of CPU and 8 % of memory off (A/B run, 4 repeats).

Discipline
==========

Each fixed replacement must match exactly once, and the export region must be
found exactly once and parse completely (every statement one of the three
shapes emscripten emits, every declared name assigned); :func:`patch` refuses
otherwise, so a different glue is never half-patched.  :func:`is_patched`
recognises a patched glue; tests check that the installed glue equals
``patch(lean.shipped.js)``.

>>> patch("x")
Traceback (most recent call last):
...
pysym.errors.ToolchainError: the Lean glue does not have the expected shape (fast symbol lookup: found 0 matches, expected 1); refusing to patch it
"""

from __future__ import annotations

import re
from pathlib import Path

from pysym.errors import ToolchainError

__all__ = [
    "PATCH_ID",
    "POOL_SIZE",
    "SHIPPED_POOL_SIZE",
    "MOUNTS_ENV",
    "patch",
    "verify_patched",
    "is_patched",
    "mounts_for",
]

# glue-v2 and glue-v4 were only ever installed by development builds of this patch: skip them.
PATCH_ID = "glue-v5"
MOUNTS_ENV = "MOE_LEAN_MOUNTS"
SHIPPED_POOL_SIZE = 4
POOL_SIZE = 1

_POOL_OLD = f"var pthreadPoolSize={SHIPPED_POOL_SIZE};"

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
    (
        "exports by computed name",
        'var getCFunc=ident=>{var func=Module["_"+ident];return func};',
        'var getCFunc=ident=>{var func=Module["_"+ident]??wasmExports[ident];return func};',
    ),
)

_INTERNAL_SYMS = (
    '"memory","__memory_base","__table_base","__stack_pointer","__indirect_function_table","__cpp_exception",'
    '"__c_longjmp","__wasm_apply_data_relocs","__dso_handle","__tls_size","__tls_align","__set_stack_limits",'
    '"_emscripten_tls_init","__wasm_init_tls","__wasm_call_ctors","__start_em_asm","__stop_em_asm",'
    '"__start_em_js","__stop_em_js"'
)

# Item 5 of the module docstring: the same linking, without per-symbol waste.
_LINK_REPLACEMENTS = (
    (
        "internal symbol set",
        f'var isInternalSym=symName=>[{_INTERNAL_SYMS}].includes(symName)||symName.startsWith("__em_js__");',
        f'var moeInternalSyms=new Set([{_INTERNAL_SYMS}]);'
        'var isInternalSym=symName=>moeInternalSyms.has(symName)||symName.startsWith("__em_js__");',
    ),
    (
        "GOT imports recorded",
        'var GOT={};var GOTHandler={get(weakImports,symName){var rtn=GOT[symName];if(!rtn){'
        'rtn=GOT[symName]=new WebAssembly.Global({value:"i32",mutable:true},-1)}',
        'var GOT={};var moeGOTImported=[];var moeGOTLazy=new Map;var GOTHandler={get(weakImports,symName){'
        'var rtn=GOT[symName];if(!rtn&&moeGOTLazy.has(symName)){'
        'rtn=GOT[symName]=new WebAssembly.Global({value:"i32",mutable:true},moeGOTLazy.get(symName));'
        'moeGOTLazy.delete(symName)}if(!rtn){'
        'rtn=GOT[symName]=new WebAssembly.Global({value:"i32",mutable:true},-1);moeGOTImported.push(symName)}',
    ),
    (
        "GOT entries on demand: existing",
        "var existingEntry=GOT[symName]&&GOT[symName].value!=-1;",
        "var existingEntry=GOT[symName]?GOT[symName].value!=-1:moeGOTLazy.has(symName);",
    ),
    (
        "GOT entries on demand: recorded",
        'GOT[symName]??=new WebAssembly.Global({value:"i32",mutable:true});GOT[symName].value=newValue}',
        'if(GOT[symName]){GOT[symName].value=newValue}else{moeGOTLazy.set(symName,+newValue)}}',
    ),
    (
        "undefined symbols from GOT imports",
        "var reportUndefinedSymbols=()=>{for(var[symName,entry]of Object.entries(GOT)){if(entry.value==-1){",
        "var reportUndefinedSymbols=()=>{for(var symName of moeGOTImported){var entry=GOT[symName];if(entry.value==-1){",
    ),
    (
        "merge loop",
        "var mergeLibSymbols=(exports,libName)=>{for(var[sym,exp]of Object.entries(exports)){const setImport=target=>"
        "{if(!isSymbolDefined(target)){wasmImports[target]=exp}};setImport(sym);const main_alias=\"__main_argc_argv\";"
        "if(sym==\"main\"){setImport(main_alias)}if(sym==main_alias){setImport(\"main\")}}};",
        "var mergeLibSymbols=(exports,libName)=>{for(var sym of Object.keys(exports)){var exp=exports[sym];"
        "if(!isSymbolDefined(sym)){wasmImports[sym]=exp}"
        "if(sym==\"main\"&&!isSymbolDefined(\"__main_argc_argv\")){wasmImports[\"__main_argc_argv\"]=exp}"
        "if(sym==\"__main_argc_argv\"&&!isSymbolDefined(\"main\")){wasmImports[\"main\"]=exp}}};",
    ),
)

# The export region: `var <every export variable>;function assignWasmExports(wasmExports){<one
# assignment per variable>}`.  Its first declared names are fixed by the build (`main` first).
_EXPORTS_START = "var _main,_lean_main,"
_EXPORTS_FN = ";function assignWasmExports(wasmExports){"
_COMPACT_MARK = "/*moe:compact-exports*/"
_IDENT = r"[A-Za-z_$][\w$]*"
_IDENT_RE = re.compile(_IDENT)
# `_x=Module["_x"]=wasmExports["x"]`, `_x=Module["_x"]=wasmExports["x"].value` (data symbols), and
# `__indirect_function_table=Module["__indirect_function_table"]=wasmTable=wasmExports["..."]`.
_ASSIGN_RE = re.compile(
    rf'(?P<var>{_IDENT})=Module\["(?P=var)"\]=(?:(?P<alias>{_IDENT})=)?wasmExports\["[^"\\]+"\](?:\.value)?'
)

# Item 6 of the module docstring: a pthread serves read-only opens of regular files under the mounted
# folders itself.  Its fds are 2**29 + the host fd (unique in the process while open: a thread never
# takes another thread's fd for its own); any other fd, path or flag goes to the main thread as before.
_LOCAL_FD_BASE = 1 << 29
_LOCAL_READS_JS = """var moeLocal=(()=>{if(!ENVIRONMENT_IS_PTHREAD)return null;
var roots=["/home","/tmp"].concat((process.env["%(env)s"]||"").split(":")).filter(r=>/^\\/[^\\0]*[^\\/]$/.test(r));
var under=p=>roots.some(r=>p===r||p.startsWith(r+"/"));
var files=new Map();
var errno=e=>(e&&typeof e.code=="string"&&ERRNO_CODES[e.code])||29;
var hostPath=ptr=>{var p=UTF8ToString(ptr);
if(p[0]!="/"||/\\/\\/|\\/\\.\\.?(\\/|$)/.test(p)||!under(p))return null;
try{if(!under(fs.realpathSync(p)))return null}catch(e){if(e.code!=="ENOENT")return null}
return p};
return{
has:fd=>files.has(fd),
stat(ptr,buf){var p=hostPath(ptr);if(p===null)return undefined;
try{return SYSCALLS.writeStat(buf,fs.statSync(p))}catch(e){return-errno(e)}},
open(ptr,flags){if((flags&~(32768|524288))!==0)return undefined;var p=hostPath(ptr);if(p===null)return undefined;
var nfd;try{nfd=fs.openSync(p,"r")}catch(e){return-errno(e)}
try{if(!fs.fstatSync(nfd).isFile()){fs.closeSync(nfd);return undefined}}catch(e){fs.closeSync(nfd);return-errno(e)}
var fd=%(base)d+nfd;files.set(fd,{nfd,pos:0});return fd},
fstat(fd,buf){try{return SYSCALLS.writeStat(buf,fs.fstatSync(files.get(fd).nfd))}catch(e){return-errno(e)}},
read(fd,iov,iovcnt,pnum){var f=files.get(fd),ret=0;try{for(var i=0;i<iovcnt;i++){
var ptr=(growMemViews(),HEAPU32)[iov+8*i>>2],len=(growMemViews(),HEAPU32)[iov+8*i+4>>2],got=0;
while(got<len){var n=fs.readSync(f.nfd,(growMemViews(),HEAPU8),ptr+got,len-got,f.pos);if(n===0)break;got+=n;f.pos+=n}
ret+=got;if(got<len)break}}catch(e){return errno(e)}
(growMemViews(),HEAPU32)[pnum>>2]=ret;return 0},
seek(fd,offset,whence,newOffset){var f=files.get(fd);offset=bigintToI53Checked(offset);if(isNaN(offset))return 61;
var pos;try{pos=whence===0?offset:whence===1?f.pos+offset:whence===2?fs.fstatSync(f.nfd).size+offset:NaN}catch(e){return errno(e)}
if(!(pos>=0))return 28;f.pos=pos;(growMemViews(),HEAP64)[newOffset>>3]=BigInt(pos);return 0},
close(fd){var f=files.get(fd);files.delete(fd);try{fs.closeSync(f.nfd);return 0}catch(e){return errno(e)}}}})();
""" % {"env": MOUNTS_ENV, "base": _LOCAL_FD_BASE}
_PROXY_DEF = "var proxyToMainThread=(funcIndex,emAsmAddr,sync,...callArgs)=>{"


def _local(name: str, params: str, index: int, local: str) -> tuple[str, str, str]:
    """The replacement that serves ``name`` in a pthread by ``local`` (an
    expression; ``undefined`` means: ask the main thread, as shipped)."""
    proxy = f"proxyToMainThread({index},0,1,{params})"
    return (f"local {name}", f"function {name}({params}){{if(ENVIRONMENT_IS_PTHREAD)return {proxy};",
            f"function {name}({params}){{if(ENVIRONMENT_IS_PTHREAD){{var moeR={local};"
            f"return moeR!==undefined?moeR:{proxy}}}")


_LOCAL_READS = (
    ("local reads", _PROXY_DEF, _LOCAL_READS_JS + _PROXY_DEF),
    _local("___syscall_stat64", "path,buf", 45, "moeLocal.stat(path,buf)"),
    _local("___syscall_openat", "dirfd,path,flags,varargs", 34, "moeLocal.open(path,flags)"),
    _local("___syscall_fstat64", "fd,buf", 20, "moeLocal.has(fd)?moeLocal.fstat(fd,buf):undefined"),
    _local("_fd_read", "fd,iov,iovcnt,pnum", 158, "moeLocal.has(fd)?moeLocal.read(fd,iov,iovcnt,pnum):undefined"),
    _local("_fd_seek", "fd,offset,whence,newOffset", 159,
           "moeLocal.has(fd)?moeLocal.seek(fd,offset,whence,newOffset):undefined"),
    _local("_fd_close", "fd", 154, "moeLocal.has(fd)?moeLocal.close(fd):undefined"),
)

_ALWAYS_MOUNTED = (Path("/home"), Path("/tmp"))


def _refuse(label: str, detail: str) -> ToolchainError:
    return ToolchainError(
        f"the Lean glue does not have the expected shape ({label}: {detail}); refusing to patch it"
    )


def _replace_once(text: str, label: str, old: str, new: str) -> str:
    n = text.count(old)
    if n != 1:
        raise _refuse(label, f"found {n} matches, expected 1")
    return text.replace(old, new)


def _compact_exports(text: str) -> str:
    """Replace the export region by the declarations and assignments that the
    rest of the glue uses (see the module docstring, item 4)."""
    label = "compact export binding"
    for marker in (_EXPORTS_START, _EXPORTS_FN):
        n = text.count(marker)
        if n != 1:
            raise _refuse(label, f"found {n} matches of {marker[:32]!r}, expected 1")
    start = text.index(_EXPORTS_START)
    fn = text.index(_EXPORTS_FN)
    end = text.find("}", fn)
    if fn < start or end < 0:
        raise _refuse(label, "the export declarations do not precede assignWasmExports")
    declared = text[start + len("var "):fn].split(",")
    body = text[fn + len(_EXPORTS_FN):end]
    statements = body[:-1].split(";") if body.endswith(";") else body.split(";")
    parsed: list[tuple[str, tuple[str, ...]]] = []  # (statement, the names it assigns)
    for stmt in statements:
        m = _ASSIGN_RE.fullmatch(stmt)
        if m is None:
            raise _refuse(label, f"unexpected statement {stmt[:80]!r} in assignWasmExports")
        parsed.append((stmt, (m["var"], m["alias"]) if m["alias"] else (m["var"],)))
    if not all(_IDENT_RE.fullmatch(d) for d in declared):
        raise _refuse(label, "the export declarations are not a plain list of names")
    assigned = [name for _, names in parsed for name in names]
    if len(set(assigned)) != len(assigned) or set(declared) != set(assigned) or len(declared) != len(assigned):
        raise _refuse(label, f"{len(declared)} names declared, {len(assigned)} assigned by "
                             f"{len(parsed)} statements")
    rest = text[:start] + text[end + 1:]
    mentioned = set(_IDENT_RE.findall(rest))
    kept = [(stmt, names) for stmt, names in parsed if any(n in mentioned for n in names)]
    kept_names = {n for _, names in kept for n in names}
    decl = [d for d in declared if d in kept_names]
    region = f"var {','.join(decl)};{_COMPACT_MARK}function assignWasmExports(wasmExports){{{';'.join(stmt for stmt, _ in kept)}}}"
    return text[:start] + region + text[end + 1:]


def patch(text: str, *, pool_size: int = POOL_SIZE, compact_exports: bool = True,
          fast_linking: bool = True, local_reads: bool = True) -> str:
    """Return the patched glue; raise :class:`ToolchainError` if any part
    does not match exactly once.  ``pool_size``, ``compact_exports``,
    ``fast_linking`` and ``local_reads`` exist for
    ``benchmarks/lean_startup.py``; the installed glue uses the defaults."""
    if pool_size < 0:
        raise ValueError("pool_size must be >= 0")
    for label, old, new in (_REPLACEMENTS + (_LINK_REPLACEMENTS if fast_linking else ())
                            + (_LOCAL_READS if local_reads else ())):
        text = _replace_once(text, label, old, new)
    text = _replace_once(text, "thread pool size", _POOL_OLD, f"var pthreadPoolSize={pool_size};/*moe:pool*/")
    if compact_exports:
        text = _compact_exports(text)
    return text


def is_patched(text: str) -> bool:
    """Whether ``text`` is a glue patched by this version of :func:`patch`
    (with the default pool size and compact exports): every replacement
    present once, no original left."""
    fixed = all(text.count(new) == 1 and text.count(old) == new.count(old)
                for _, old, new in _REPLACEMENTS + _LINK_REPLACEMENTS + _LOCAL_READS)
    pool = text.count(f"var pthreadPoolSize={POOL_SIZE};/*moe:pool*/") == 1 and \
        (POOL_SIZE == SHIPPED_POOL_SIZE or _POOL_OLD not in text)
    compact = text.count(_COMPACT_MARK) == 1 and _EXPORTS_START not in text
    return fixed and pool and compact


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
