"""Item 6 of the glue patch: a pthread reads files under the mounted folders
itself instead of asking the main thread (``pysym.lean.glue._LOCAL_READS_JS``).

The shipped JavaScript runs here in the toolchain's own node, on stand-ins for
the few glue globals it uses (wasm memory views, ``UTF8ToString``,
``SYSCALLS.writeStat``): every path, flag and fd it must not serve goes to the
main thread (``undefined``), and what it serves reads the right bytes.  The
Lean runs of the other tests use it on every import."""

from __future__ import annotations

import json
import os
import subprocess

import pytest

from pysym.lean import glue

HARNESS = r"""
const fs = require("fs");
var ENVIRONMENT_IS_PTHREAD = true;
var memory = new SharedArrayBuffer(1 << 16);
var HEAPU8 = new Uint8Array(memory), HEAPU32 = new Uint32Array(memory), HEAP64 = new BigInt64Array(memory);
var growMemViews = () => {};
var ERRNO_CODES = {ENOENT: 44, EACCES: 2, EISDIR: 31, ENOTDIR: 54};
var bigintToI53Checked = n => Number(n);
var UTF8ToString = ptr => { let end = ptr; while (HEAPU8[end]) end++; return Buffer.from(HEAPU8.slice(ptr, end)).toString("utf8"); };
var SYSCALLS = {writeStat(buf, st) { HEAP64[buf >> 3] = BigInt(st.size); return 0; }};
var str = s => { const b = Buffer.from(s + "\0"); HEAPU8.set(b, 4096); return 4096; };
//GLUE//
const out = {};
const cases = JSON.parse(process.argv[2]);
for (const [name, path] of Object.entries(cases.stat)) {
  const r = moeLocal.stat(str(path), 8192);
  out["stat " + name] = r === undefined ? "main" : r === 0 ? Number(HEAP64[1024]) : r;
}
for (const [name, [path, flags]] of Object.entries(cases.open)) {
  const r = moeLocal.open(str(path), flags);
  out["open " + name] = r === undefined ? "main" : r < 0 ? r : (moeLocal.close(r), "served");
}
// a file served locally: two iovecs, seek from the end, fstat, close
const fd = moeLocal.open(str(cases.file), 32768 | 524288);
out.fd_local = fd >= 2 ** 29 && moeLocal.has(fd) && !moeLocal.has(3);
HEAPU32[0] = 200; HEAPU32[1] = 3; HEAPU32[2] = 300; HEAPU32[3] = 100;   // iov: (200, 3), (300, 100)
out.read_status = moeLocal.read(fd, 0, 2, 16);
out.read_count = HEAPU32[4];
out.read_bytes = Buffer.from(HEAPU8.slice(200, 203)).toString() + "|" + Buffer.from(HEAPU8.slice(300, 300 + HEAPU32[4] - 3)).toString();
out.seek_status = moeLocal.seek(fd, -4n, 2, 24);
out.seek_pos = Number(HEAP64[3]);
HEAPU32[0] = 200; HEAPU32[1] = 10;
moeLocal.read(fd, 0, 1, 16);
out.tail = Buffer.from(HEAPU8.slice(200, 200 + HEAPU32[4])).toString();
out.bad_seek = moeLocal.seek(fd, -100n, 0, 24);
out.fstat = moeLocal.fstat(fd, 8192) === 0 ? Number(HEAP64[1024]) : "failed";
out.close = moeLocal.close(fd);
out.closed = !moeLocal.has(fd);
console.log(JSON.stringify(out));
"""


@pytest.fixture(scope="module")
def node(toolchain):
    if toolchain.kind != "wasm":
        pytest.skip("the glue patch belongs to the registry (wasm) toolchain")
    return toolchain.node


def run_harness(node, tmp_path, mounts: str, cases: dict) -> dict:
    script = tmp_path / "harness.js"
    script.write_text(HARNESS.replace("//GLUE//", glue._LOCAL_READS_JS))
    env = {"PATH": os.environ.get("PATH", ""), glue.MOUNTS_ENV: mounts}
    proc = subprocess.run([str(node), str(script), json.dumps(cases)], capture_output=True, text=True, env=env,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_a_thread_serves_only_plain_read_only_opens_of_regular_files_under_the_mounts(node, tmp_path):
    root = tmp_path / "mounted"
    (root / "sub").mkdir(parents=True)
    data = root / "sub" / "Data.olean"
    data.write_bytes(b"0123456789abcdefghij")
    (root / "escape").symlink_to("/etc/hostname" if os.path.exists("/etc/hostname") else "/etc/passwd")
    (root / "inside").symlink_to(data)
    outside = "/etc/passwd"
    r = run_harness(node, tmp_path, str(root), {
        "file": str(data),
        "stat": {
            "file": str(data), "missing": str(root / "nope.olean"), "inside link": str(root / "inside"),
            "outside": outside, "escaping link": str(root / "escape"), "relative": "sub/Data.olean",
            "dot-dot": f"{root}/sub/../sub/Data.olean", "dot": f"{root}/./sub/Data.olean",
            "double slash": f"{root}//sub/Data.olean", "trailing dot-dot": f"{root}/sub/..",
            "prefix of a root": "/tmpx/Data.olean", "prefix of home": "/homes/Data.olean",
        },
        "open": {
            "read-only": [str(data), 32768], "read-only, cloexec": [str(data), 32768 | 524288],
            "write": [str(data), 1], "read-write": [str(data), 2], "create": [str(data), 64],
            "truncate": [str(data), 512], "append": [str(data), 1024], "directory flag": [str(data), 65536],
            "no-follow": [str(root / "inside"), 131072], "a directory": [str(root / "sub"), 0],
            "missing": [str(root / "nope.olean"), 0], "outside": [outside, 0],
            "escaping link": [str(root / "escape"), 0], "dot-dot": [f"{root}/sub/../sub/Data.olean", 0],
        },
    })
    assert r["stat file"] == 20 and r["stat inside link"] == 20 and r["stat missing"] == -44
    for name in ("outside", "escaping link", "relative", "dot-dot", "dot", "double slash", "trailing dot-dot",
                 "prefix of a root", "prefix of home"):
        assert r[f"stat {name}"] == "main", name  # the main thread decides, as without the patch
    assert r["open read-only"] == r["open read-only, cloexec"] == "served"
    assert r["open missing"] == -44
    for name in ("write", "read-write", "create", "truncate", "append", "directory flag", "no-follow",
                 "a directory", "outside", "escaping link", "dot-dot"):
        assert r[f"open {name}"] == "main", name
    assert r["fd_local"] is True
    assert r["read_status"] == 0 and r["read_count"] == 20 and r["read_bytes"] == "012|3456789abcdefghij"
    assert r["seek_status"] == 0 and r["seek_pos"] == 16 and r["tail"] == "ghij"
    assert r["bad_seek"] == 28  # EINVAL, the position unchanged
    assert r["fstat"] == 20 and r["close"] == 0 and r["closed"] is True


def test_nothing_is_served_on_the_main_thread_or_outside_the_listed_folders(node, tmp_path):
    data = tmp_path / "Data.olean"
    data.write_bytes(b"x")
    # /tmp is always mounted (tmp_path lives there); a mount list of odd entries adds nothing
    r = run_harness(node, tmp_path, "relative/dir::/", {"file": str(data), "stat": {"root": "/etc/passwd"},
                                                          "open": {}})
    assert r["stat root"] == "main"
    script = tmp_path / "main.js"
    script.write_text("var ENVIRONMENT_IS_PTHREAD = false;\n" + glue._LOCAL_READS_JS + "console.log(moeLocal);\n")
    proc = subprocess.run([str(node), str(script)], capture_output=True, text=True, timeout=60)
    assert proc.stdout.strip() == "null", proc.stderr
