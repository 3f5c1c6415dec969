"""What the code of a cached result is (``pysym/fingerprint.py``, ``pysym/_sources.py``).

Red-team findings against the caches of reports and outcomes: a file changed
and changed back while a command ran hashed the same as before although a
module may have been compiled from the other version; "unchecked" hash-based
bytecode ran whatever the source said; a library upgraded under a running
process, a wheel's vendored shared library or a ``.pth`` start-up file were
not part of the key.  Each is planted here and must stop the caches from
storing (or change the key).
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import py_compile
import sys
import time

from pysym import _sources, fingerprint
from pysym._sources import ContentStampedLoader


def _run(loader_class, src):
    loader = loader_class(src.stem, str(src))
    module = importlib.util.module_from_spec(importlib.util.spec_from_loader(src.stem, loader))
    loader.exec_module(module)
    return module.VALUE


def test_hash_based_bytecode_of_another_source_never_runs(tmp_path, monkeypatch):
    # Python runs "unchecked" hash-based bytecode without reading the source (`compileall --invalidation-mode
    # unchecked-hash`, as some images precompile); the package's loader runs only bytecode it can tie to the
    # bytes it read
    monkeypatch.setattr(sys, "pycache_prefix", str(tmp_path / "cache"))
    for loader_class, after_edit in ((importlib.machinery.SourceFileLoader, 1), (ContentStampedLoader, 2)):
        src = tmp_path / f"u_{loader_class.__name__}.py"
        src.write_text("VALUE = 1\n")
        py_compile.compile(str(src), cfile=importlib.util.cache_from_source(str(src)),
                           invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
        src.write_text("VALUE = 2 + 0\n")  # an edit (or a pull) after the bytecode was made
        assert _run(loader_class, src) == after_edit, loader_class.__name__


def test_the_loaders_own_bytecode_is_used_for_the_same_bytes_only(tmp_path, monkeypatch):
    monkeypatch.setattr(sys, "pycache_prefix", str(tmp_path / "cache"))
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    src = tmp_path / "m.py"
    src.write_text("VALUE = 1\n")
    assert _run(ContentStampedLoader, src) == 1
    pyc = importlib.util.cache_from_source(str(src))
    assert os.path.isfile(pyc)
    compiled = []
    monkeypatch.setattr(ContentStampedLoader, "source_to_code",
                        lambda self, data, path: compiled.append(path) or compile(data, path, "exec"))
    assert _run(ContentStampedLoader, src) == 1 and compiled == []  # the same bytes: the bytecode ran
    src.write_text("VALUE = 3\n")
    assert _run(ContentStampedLoader, src) == 3 and compiled == [str(src)]


def test_a_file_written_after_the_code_was_loaded_stops_the_caches(tmp_path, monkeypatch):
    # a file changed and changed back while a command runs, or a library upgraded under a running process,
    # hashes as before: what counts is that it was written after this process started reading code
    assert fingerprint.code_problems() == []
    startup = tmp_path / "zz_patch.pth"
    monkeypatch.setattr(fingerprint, "_startup_files", lambda: [startup])
    monkeypatch.setattr(_sources, "LOADED_SINCE", time.time() - 1)
    startup.write_text("import sys\n")  # written now: after the code was (said to be) loaded
    fingerprint.code_digest.cache_clear()
    try:
        assert not fingerprint.code_unchanged()
        monkeypatch.setattr(_sources, "LOADED_SINCE", time.time() + 1)  # written before it: fine
        assert fingerprint.code_unchanged()
    finally:
        fingerprint.code_digest.cache_clear()


def test_a_library_file_written_after_the_code_was_loaded_stops_the_caches(tmp_path, monkeypatch):
    # the same for a file inside a library's folder (here a vendored one), seen by the walk that also hashes it
    vendored = tmp_path / "python_flint.libs"
    (vendored / "deep" / "er").mkdir(parents=True)
    (vendored / "deep" / "er" / "libflint.so").write_bytes(b"\0" * 8)
    monkeypatch.setattr(fingerprint, "_vendored", lambda: [vendored])
    fingerprint.code_digest.cache_clear()
    try:
        monkeypatch.setattr(_sources, "LOADED_SINCE", time.time() + 1)
        assert fingerprint.code_unchanged()
        monkeypatch.setattr(_sources, "LOADED_SINCE", time.time() - 1)
        assert not fingerprint.code_unchanged()
    finally:
        fingerprint.code_digest.cache_clear()


def test_one_walk_gives_the_trees_hash_and_its_newest_file(tmp_path):
    tree = tmp_path / "lib"
    (tree / "sub" / "__pycache__").mkdir(parents=True)
    (tree / "a.py").write_text("a")
    (tree / "sub" / "b.py").write_text("b")
    old = time.time() - 1000
    for path in (tree / "a.py", tree / "sub" / "b.py"):
        os.utime(path, (old, old))
    digest, newest, _ = fingerprint._scan(tree)
    assert newest >= time.time() - 10  # a status change (the utime itself) counts, not only the modification
    (tree / "sub" / "__pycache__" / "b.cpython-311.pyc").write_bytes(b"x")
    with_bytecode, newest_after, _ = fingerprint._scan(tree)
    assert with_bytecode != digest and newest_after == newest  # bytecode is hashed, but not a newer file
    (tree / "sub" / "b.py").write_text("B")
    assert fingerprint._scan(tree)[0] not in (digest, with_bytecode)
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "big.py").write_text("x")
    os.symlink(tmp_path / "elsewhere", tree / "link")  # a link to a folder is walked
    os.symlink(tree, tree / "sub" / "loop")  # once
    linked, _, _ = fingerprint._scan(tree)
    (tmp_path / "elsewhere" / "big.py").write_text("yy")
    changed, newest_linked, _ = fingerprint._scan(tree)
    assert changed != linked and newest_linked >= newest
    assert fingerprint.tree_fingerprint(tree) == changed
    # red team: a link re-pointed at another folder walked anyway (`seen`) must change the hash
    (tree / "aa").mkdir()
    (tree / "aa" / "clean").mkdir()
    (tree / "aa" / "evil").mkdir()
    os.symlink(tree / "aa" / "evil", tree / "zz")
    evil = fingerprint._scan(tree)[0]
    os.remove(tree / "zz")
    os.symlink(tree / "aa" / "clean", tree / "zz")
    assert fingerprint._scan(tree)[0] != evil


def test_start_up_files_and_vendored_libraries_are_in_the_key(tmp_path, monkeypatch):
    startup = tmp_path / "site.pth"
    startup.write_text("import sys\n")
    vendored = tmp_path / "python_flint.libs"
    vendored.mkdir()
    (vendored / "libflint.so").write_bytes(b"\0" * 8)
    monkeypatch.setattr(fingerprint, "_startup_files", lambda: [startup])
    monkeypatch.setattr(fingerprint, "_vendored", lambda: [vendored])
    first = fingerprint.libraries_fingerprint()
    startup.write_text("import sympy.printing.str as s; s.StrPrinter._print_factorial = None\n")
    second = fingerprint.libraries_fingerprint()
    (vendored / "libflint.so").write_bytes(b"\1" * 8)
    third = fingerprint.libraries_fingerprint()
    assert len({first, second, third}) == 3
    # the real site: its .pth files and the wheels' *.libs folders are found
    monkeypatch.undo()
    site_files = {p.suffix for p in fingerprint._startup_files()}
    assert site_files <= {".pth", ".py"}
    assert all(p.name.endswith(".libs") and p.is_dir() for p in fingerprint._vendored())


def test_a_module_of_the_package_loaded_without_its_source_stops_the_caches(monkeypatch):
    assert fingerprint.code_problems() == []
    monkeypatch.setattr(_sources, "FOREIGN", ["pysym.planted"])
    assert not fingerprint.code_unchanged()


def test_stale_bytecode_of_the_packages_first_modules_is_seen(tmp_path):
    """Red team: ``pysym/__init__.py`` and ``_sources.py`` load before the
    package's own loader, with Python's, which runs bytecode whose recorded
    size and whole-second modification time match the source: a version
    saved and undone within one second ran while the digest named the other.
    Their running code is compared with their sources compiled."""
    import shutil
    import subprocess
    from pathlib import Path

    import pysym

    copy = tmp_path / "pysym"
    shutil.copytree(Path(pysym.__file__).parent, copy, ignore=shutil.ignore_patterns("__pycache__"))
    init = copy / "__init__.py"
    real = init.read_bytes()
    other = real.replace(b'__version__ = "0.1.0"', b'__version__ = "0.1.X"')  # the same size, other code
    assert other != real and len(other) == len(real)
    probe = "import pysym, pysym._sources as s; print(pysym.__version__, s.FOREIGN)"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = str(tmp_path)
    init.write_bytes(other)
    st = os.stat(init)
    assert subprocess.run([sys.executable, "-c", probe], env=env, cwd=tmp_path, capture_output=True,
                          text=True).stdout.startswith("0.1.X []")  # bytecode of the other version written
    init.write_bytes(real)
    os.utime(init, ns=(st.st_atime_ns, st.st_mtime_ns))  # undone, with the same size and modification time
    out = subprocess.run([sys.executable, "-c", probe], env=env, cwd=tmp_path, capture_output=True, text=True)
    assert out.stdout.strip() == "0.1.X ['pysym/__init__.py']", out.stdout + out.stderr  # the stale code ran: seen


def test_every_claim_computes_under_the_default_numeric_settings(monkeypatch):
    """Red team: python-flint's working precision is process-wide; at 8 bits
    some verdicts changed (`holds` became `fails`), and an audit run so filled
    the cache.  Claims and derivations run under the defaults, whatever the
    process set."""
    from pathlib import Path

    import mpmath
    from flint import ctx

    from pysym.audit.engine import evaluate
    from pysym.audit.schema import load_claims_file

    root = Path(__file__).resolve().parent.parent
    cf = load_claims_file(root / "paper_checks" / "llama3-2407.21783.toml")
    claim = next(c for c in cf.claims if c.id == "six-N-D-pair-7-percent")
    expected = evaluate(cf, claim).verdict
    monkeypatch.setattr(ctx, "prec", 8)
    monkeypatch.setattr(mpmath.mp, "prec", 12)
    assert evaluate(cf, claim).verdict == expected == "holds"
    assert (ctx.prec, mpmath.mp.prec) == (8, 12)  # the caller's settings are left as they were


def test_the_callers_printing_settings_and_flint_threads_do_not_reach_a_claim(monkeypatch):
    """Red team round 3: ``init_printing(order="rev-lex")`` (a notebook's
    display choice) reordered every printed expression and every ``lambdify``,
    which changed evidence texts and a derivation's residual, and reached the
    cache; more python-flint threads deadlocked forked workers.  Both are set
    to the defaults for each claim and derivation."""
    from pathlib import Path

    from flint import ctx
    from sympy.printing.printer import Printer

    from pysym.audit.engine import evaluate
    from pysym.audit.schema import load_claims_file
    from pysym.numerics import standard

    root = Path(__file__).resolve().parent.parent
    cf = load_claims_file(root / "paper_checks" / "kumar-2411.04330.toml")
    claim = next(c for c in cf.claims if c.id == "eq7-as-printed")
    expected = evaluate(cf, claim)
    monkeypatch.setattr(Printer, "_global_settings", {"order": "rev-lex"})
    got = evaluate(cf, claim)
    assert (got.verdict, got.summary, got.evidence) == (expected.verdict, expected.summary, expected.evidence)
    assert Printer._global_settings == {"order": "rev-lex"}  # the caller's settings are back
    monkeypatch.setattr(ctx, "threads", 2)
    with standard():
        assert ctx.threads == 1 and Printer._global_settings == {}
    assert ctx.threads == 2
    # SymPy orders its assumption checks with an unseeded generator: seeded inside, the caller's state kept
    from sympy.core.random import _assumptions_rng

    draws = []
    for caller in (1, 2):
        _assumptions_rng.seed(caller)
        outside = _assumptions_rng.getstate()
        with standard():
            draws.append(_assumptions_rng.random())
        assert _assumptions_rng.getstate() == outside
    assert draws[0] == draws[1]
