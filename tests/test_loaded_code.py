"""The code a cached result was computed with is all named by its key (``pysym/_modules.py``,
``pysym/fingerprint.py``, ``pysym/_sources.py``).

Red-team findings against the key of the caches: it hashed folders, while a
module could come from elsewhere (a file shadowing a standard-library module
on ``PYTHONPATH``, a module a ``.pth`` line imports, one an audit worker
imports), bytecode could come from ``PYTHONPYCACHEPREFIX``, a folder that
could not be listed was skipped, and a library folder (or one of the
package's) swapped and swapped back while a command ran left the hash and
every file's times as they were.  Each is planted here: the key must change,
or nothing may be stored.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from pysym import _modules, _sources, fingerprint
from pysym.audit import Budget, audit
from pysym.audit.cache import OutcomeCache

from conftest import TOY_CLAIMS


def _python(code: str, **env) -> str:
    run = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                         env={**os.environ, **env}, timeout=300)
    assert run.returncode == 0, run.stderr
    return run.stdout.strip()


PROBE = """
import pysym.fingerprint as f, fractions
print(fractions.__file__, f.code_unchanged(), f.code_problems())
"""


def test_a_module_shadowing_the_standard_library_stops_the_caches(tmp_path):
    plain = _python(PROBE).split(maxsplit=2)
    assert plain[1:] == ["True", "[]"] and _modules.classify(plain[0], fingerprint._roots()) == "interpreter"
    (tmp_path / "fractions.py").write_text("from decimal import Decimal as Fraction\n")
    planted = _python(PROBE, PYTHONPATH=str(tmp_path)).split(maxsplit=2)
    assert planted[0] == str(tmp_path / "fractions.py")  # the plant is what SymPy got
    assert planted[1] == "False" and "fractions was loaded from" in planted[2] and "not from the standard" in planted[2]


def test_the_modules_a_pth_line_imports_are_in_the_key(tmp_path, monkeypatch):
    startup = tmp_path / "zz.pth"
    startup.write_text("import zz_patch; zz_patch.install()\n")
    (tmp_path / "zz_patch.py").write_text("def install(): pass\n")
    monkeypatch.setattr(sys, "path", [*sys.path, str(tmp_path)])  # a site folder: after the program's own
    monkeypatch.setattr(fingerprint, "_startup_files", lambda: [startup])
    first, _, refused = fingerprint._libraries()
    assert refused == []
    (tmp_path / "zz_patch.py").write_text("def install(): import sympy; sympy.pi = 3\n")  # the same .pth
    assert fingerprint._libraries()[0] != first
    (tmp_path / "zz_pkg").mkdir()  # a package: its whole folder
    (tmp_path / "zz_pkg" / "__init__.py").write_text("")
    startup.write_text("import zz_pkg\n")
    second = fingerprint._libraries()[0]
    (tmp_path / "zz_pkg" / "deep.py").write_text("X = 1\n")
    assert fingerprint._libraries()[0] != second
    # a line that runs code from elsewhere is refused, whatever it imports
    startup.write_text("import os; exec(open('/tmp/zz_elsewhere.py').read())\n")
    refused = fingerprint._libraries()[2]
    assert any("a start-up line calls exec" in r for r in refused)
    fingerprint.code_digest.cache_clear()
    try:
        assert not fingerprint.code_unchanged()
    finally:
        fingerprint.code_digest.cache_clear()


def _import_as_library_code(name: str) -> None:
    """Import ``name`` from code whose file is in SymPy's folder (as an optional dependency would be)."""
    import sympy

    exec(compile(f"import {name}", os.path.join(os.path.dirname(sympy.__file__), "zz_optional.py"), "exec"), {})


@pytest.fixture
def imports(monkeypatch):
    """The record of imports, as it is now, for this test only (what it plants must not stop the caches of
    the tests after it in the same process)."""
    monkeypatch.setattr(_sources, "IMPORTS", list(_sources.IMPORTS))
    return _sources.IMPORTS


def test_a_module_a_library_imports_from_elsewhere_stops_the_caches(tmp_path, monkeypatch, imports):
    # mpmath falls back to `import gmpy`, SymPy and NumPy look for optional modules, the standard library's
    # copy looks for `org`: such a module found on PYTHONPATH runs as part of the computation
    assert fingerprint.code_unchanged()
    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / "zz_program_module.py").write_text("X = 1\n")
    (tmp_path / "zz_optional_dep.py").write_text("X = 2\n")
    try:
        __import__("zz_program_module")  # the program around the computations (here: a test) may import
        assert fingerprint.code_unchanged()
        _import_as_library_code("zz_optional_dep")
        assert fingerprint.code_problems() == [
            f"zz_optional_dep was found at {tmp_path / 'zz_optional_dep.py'} for "
            f"{os.path.join(os.path.dirname(sys.modules['sympy'].__file__), 'zz_optional.py')}, "
            "outside the folders the key hashes"]
    finally:
        sys.modules.pop("zz_program_module", None)
        sys.modules.pop("zz_optional_dep", None)


def test_a_module_that_lies_about_its_file_is_judged_by_where_it_was_found(tmp_path, monkeypatch, imports):
    # red team: a shadow of `fractions` that ran the real module's code and then set __file__ to the standard
    # library's path passed a check of what modules say of themselves
    import fractions

    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / "zz_liar.py").write_text(f"__file__ = {fractions.__file__!r}\n")
    try:
        _import_as_library_code("zz_liar")
        assert _modules.classify(sys.modules["zz_liar"].__file__, fingerprint._roots()) == "interpreter"
        assert any(p.startswith("zz_liar was found at " + str(tmp_path)) for p in fingerprint.code_problems())
    finally:
        sys.modules.pop("zz_liar", None)


def test_a_library_module_from_outside_its_folder_stops_the_caches(monkeypatch, tmp_path):
    import types

    planted = types.ModuleType("sympy.zz_planted")
    planted.__file__ = str(tmp_path / "zz_planted.py")
    monkeypatch.setitem(sys.modules, "sympy.zz_planted", planted)
    assert fingerprint.loaded_problems() == [f"sympy.zz_planted was loaded from {planted.__file__}, "
                                             "outside the folders the key hashes"]


def test_an_audit_worker_that_loads_other_code_stores_nothing(tmp_path, monkeypatch, imports):
    # claims are evaluated in forked workers: a module one loads is not in the parent's sys.modules
    from pysym.audit import engine

    claims = tmp_path / "paper_checks" / "toy.toml"
    claims.parent.mkdir()
    claims.write_text(TOY_CLAIMS)
    (tmp_path / "zz_worker_module.py").write_text("X = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    real = engine._evaluate

    def evaluate(*args):
        _import_as_library_code("zz_worker_module")
        return real(*args)

    monkeypatch.setattr(engine, "_evaluate", evaluate)
    cache = OutcomeCache(tmp_path / "cache")
    result = audit([claims], None, budget=Budget(cpu_seconds=30, memory_mb=1024), cache=cache)
    assert [v.verdict for v in result.verdicts] == ["holds"]
    assert "zz_worker_module" not in sys.modules  # it was loaded in the worker only
    assert list((tmp_path / "cache").glob("*.json")) == []
    monkeypatch.setattr(engine, "_evaluate", real)  # the same claim without it: stored
    audit([claims], None, budget=Budget(cpu_seconds=30, memory_mb=1024), cache=cache)
    assert len(list((tmp_path / "cache").glob("*.json"))) == 1


def test_bytecode_from_a_pycache_prefix_stops_the_caches(monkeypatch, tmp_path):
    assert fingerprint.code_unchanged()
    monkeypatch.setattr(sys, "pycache_prefix", str(tmp_path))
    assert any("PYTHONPYCACHEPREFIX" in p for p in fingerprint.code_problems())


def test_a_folder_that_cannot_be_listed_stops_the_caches(tmp_path, monkeypatch):
    vendored = tmp_path / "python_flint.libs"
    (vendored / "hidden").mkdir(parents=True)
    monkeypatch.setattr(fingerprint, "_vendored", lambda: [vendored])
    monkeypatch.setattr(_sources, "LOADED_SINCE", time.time() + 1)  # made before the code was loaded
    fingerprint.code_digest.cache_clear()
    try:
        fingerprint.code_digest()
        assert fingerprint.code_unchanged()
        real = os.scandir

        def scandir(path):  # as for a folder of mode 000 read by another user than root
            if os.fspath(path).endswith("hidden"):
                raise PermissionError(13, "Permission denied")
            return real(path)

        monkeypatch.setattr(os, "scandir", scandir)
        assert f"{vendored / 'hidden'} cannot be listed (Permission denied)" in fingerprint.code_problems()
        fingerprint.code_digest.cache_clear()  # even when the key is taken with the folder unreadable
        fingerprint.code_digest()
        assert fingerprint.code_problems() == [f"{vendored / 'hidden'} cannot be listed (Permission denied)"]
    finally:
        fingerprint.code_digest.cache_clear()


def test_a_library_folder_swapped_and_swapped_back_counts_as_written(tmp_path):
    tree = tmp_path / "lib"
    (tree / "core").mkdir(parents=True)
    (tree / "core" / "add.py").write_text("X = 1\n")
    files_only = fingerprint._scan(tree, folder_times=False)
    time.sleep(0.05)  # the file system's clock may be coarse: the renames come strictly later
    os.rename(tree / "core", tmp_path / "core.real")
    (tree / "core").mkdir()  # another folder was here for a while ...
    os.rmdir(tree / "core")
    os.rename(tmp_path / "core.real", tree / "core")  # ... and the original is back
    digest, newest, unreadable = fingerprint._scan(tree)
    assert digest == files_only[0] and unreadable == []  # every file as it was
    assert newest >= os.stat(tree / "core").st_ctime > files_only[1]  # but the folder was renamed


def test_a_package_module_read_from_other_bytes_than_those_hashed_is_foreign(monkeypatch):
    monkeypatch.setattr(_sources, "FOREIGN", [])
    path = str(_sources.PACKAGE / "paths.py")
    loader = _sources._PackageLoader("pysym.paths", path)
    with open(path, "rb") as fh:
        loader.read_source("pysym.paths", path, fh.read())
    assert _sources.FOREIGN == []
    loader.read_source("pysym.paths", path, b"def write_atomic(*a): pass\n")  # a swapped folder's version
    assert _sources.FOREIGN == ["pysym.paths"]


@pytest.mark.parametrize("name", ["LD_PRELOAD", "LD_LIBRARY_PATH", "OPENBLAS_CORETYPE", "OMP_NUM_THREADS",
                                  "GLIBC_TUNABLES", "SAGE_ROOT"])
def test_the_native_loaders_and_threads_environment_is_in_the_key(monkeypatch, name):
    base = fingerprint.current_code_digest()
    monkeypatch.setenv(name, "x")
    assert fingerprint.current_code_digest() != base


def test_where_the_standard_library_is_is_in_the_key(monkeypatch):
    # red team: PYTHONHOME (or a venv's `home`) pointing at an edited copy of the standard library kept the key
    base = fingerprint.current_code_digest()
    for name in ("prefix", "base_prefix", "exec_prefix"):
        with monkeypatch.context() as m:
            m.setattr(sys, name, "/tmp/zz-elsewhere")
            assert fingerprint.current_code_digest() != base, name
    monkeypatch.setattr(_modules, "STDLIB", "/tmp/zz-elsewhere/lib/python3")
    assert fingerprint.current_code_digest() != base


def test_pth_lines_are_split_as_every_python_splits_them():
    # red team: Python 3.11 reads .pth files with universal newlines, so "# note\rimport evil" runs the import
    from pysym._startup import import_lines

    assert import_lines("# start-up\rimport evil\n") == ["import evil"]
    assert import_lines("# a\x0cimport evil2\n") == ["import evil2"]  # 3.12+: str.splitlines
    assert import_lines("\ufeffimport evil3\n") == ["import evil3"]  # 3.12+ decodes with utf-8-sig


def test_a_start_up_module_is_found_on_the_path_not_in_sys_modules(tmp_path, monkeypatch):
    # red team: a module a .pth line imports that sets `__spec__ = None` was hashed as "not found"
    import types

    startup = tmp_path / "zz.pth"
    startup.write_text("import zz_hidden\n")
    (tmp_path / "zz_hidden.py").write_text("X = 1\n")
    monkeypatch.setattr(sys, "path", [*sys.path, str(tmp_path)])
    monkeypatch.setattr(fingerprint, "_startup_files", lambda: [startup])
    hidden = types.ModuleType("zz_hidden")
    hidden.__spec__ = None
    monkeypatch.setitem(sys.modules, "zz_hidden", hidden)
    first, _, refused = fingerprint._libraries()
    assert refused == []
    (tmp_path / "zz_hidden.py").write_text("X = 2  # other code\n")
    assert fingerprint._libraries()[0] != first
    startup.write_text("import zz_nowhere\n")
    assert fingerprint._libraries()[2] == [f"{startup}: zz_nowhere, which a start-up line imports, "
                                           "is not found on sys.path"]


def test_the_packages_bytecode_is_read_only_from_the_users_private_cache(tmp_path, monkeypatch):
    # red team: bytecode in pysym/__pycache__ with the stamp of the untouched source (its hash and size are
    # public) and other code ran under the key of the source
    import hashlib

    monkeypatch.setenv("MOE_THEORY_CACHE", str(tmp_path / "cache"))
    path = str(_sources.PACKAGE / "paths.py")
    with open(path, "rb") as fh:
        source = fh.read()
    loader = _sources._PackageLoader("pysym.paths", path)
    where = loader.bytecode_path(path, source)
    assert where == os.path.join(str(tmp_path / "cache"), "bytecode",
                                 f"{sys.implementation.cache_tag}-{hashlib.sha256(source).hexdigest()}.pyc")
    loader.write_bytecode(where, b"data")
    assert loader.read_bytecode(where) == b"data" and os.stat(where).st_mode & 0o777 == 0o600
    os.chmod(where, 0o666)  # another user could have written it
    with pytest.raises(OSError):
        loader.read_bytecode(where)


def test_a_library_imported_before_the_package_stops_the_caches():
    # what a library imports before the package's finder is installed is not noted anywhere
    plain = _python("import pysym.fingerprint as f, sympy; print(f.code_problems())")
    assert plain == "[]"
    early = _python("import sympy, pysym.fingerprint as f; print(f.code_problems())")
    assert "sympy was imported before pysym" in early



# --------------------------------------------------------------------------- third red-team round


def test_a_renderers_import_from_elsewhere_stops_the_caches(tmp_path, monkeypatch, imports):
    # red team: jinja2 (a renderer the package requires) imported `markupsafe` from PYTHONPATH, which then
    # patched the verifier in the computing process; a renderer's imports must come from the renderers' folders
    import jinja2

    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / "zz_markup.py").write_text("X = 1\n")
    as_jinja2 = os.path.join(os.path.dirname(jinja2.__file__), "zz_runtime.py")
    try:
        exec(compile("import zz_markup", as_jinja2, "exec"), {})
        assert any(p.startswith(f"zz_markup was found at {tmp_path / 'zz_markup.py'} for {as_jinja2}")
                   for p in fingerprint.code_problems())
    finally:
        sys.modules.pop("zz_markup", None)
    assert os.path.realpath(os.path.dirname(jinja2.__file__)) + os.sep in _modules.renderer_folders()


def test_code_mapped_from_elsewhere_stops_the_caches(monkeypatch):
    # red team: an LD_PRELOAD library served other bytes for SymPy's files, whose times and sizes it kept
    import io

    maps = ("7f00-7f01 r-xp 00000000 08:01 1 /usr/lib/x86_64-linux-gnu/libc.so.6\n"
            "7f02-7f03 r--p 00000000 08:01 2 /tmp/zz/data.bin\n"
            "7f04-7f05 r-xp 00000000 08:01 3 /tmp/zz/lib.so\n"
            "7f06-7f07 r-xp 00000000 00:00 0 [vdso]\n")
    monkeypatch.setattr(_modules, "open", lambda *a, **k: io.StringIO(maps), raising=False)
    assert _modules.mapped_problems(fingerprint._roots()) == [
        "/tmp/zz/lib.so is mapped as code from outside the folders the key hashes"]


def _startup_check(tmp_path, monkeypatch, line: str) -> list[str]:
    startup = tmp_path / "site" / "zz.pth"
    startup.write_text(line + "\n")
    monkeypatch.setattr(fingerprint, "_startup_files", lambda: [startup])
    return fingerprint._libraries()[2]


@pytest.fixture
def site(tmp_path, monkeypatch):
    (tmp_path / "site").mkdir()
    (tmp_path / "program").mkdir()
    monkeypatch.setattr(sys, "path", [str(tmp_path / "program"), *sys.path, str(tmp_path / "site")])
    return tmp_path


def test_a_start_up_module_is_hashed_where_it_ran_from(site, monkeypatch):
    # red team: .pth lines run before the program's folder is put first on sys.path: a harmless decoy there
    # was hashed in place of the module that ran
    (site / "site" / "zz_boot.py").write_text("X = 1\n")
    assert _startup_check(site, monkeypatch, "import zz_boot") == []
    (site / "program" / "zz_boot.py").write_text("X = 1\n")
    assert _startup_check(site, monkeypatch, "import zz_boot") == [
        f"{site / 'site' / 'zz.pth'}: zz_boot, which a start-up line imports, is found elsewhere without the "
        "first entry of sys.path"]


def test_a_standard_library_name_a_start_up_line_imports_must_be_the_standard_librarys(site, monkeypatch):
    # red team: `import winreg` (absent on Linux) found a plant in site-packages, which then claimed a __file__
    # in the standard library
    (site / "site" / "winreg.py").write_text("X = 1\n")
    assert _startup_check(site, monkeypatch, "import winreg") == [
        f"{site / 'site' / 'zz.pth'}: winreg, which a start-up line imports, is found at "
        f"{site / 'site' / 'winreg.py'}, not in the standard library"]
    assert _startup_check(site, monkeypatch, "import os, sys") == []  # a standard one, a built-in one


def test_a_start_up_module_that_imports_more_than_the_standard_library_is_refused(site, monkeypatch):
    # red team: the hashed start-up module imported an unhashed helper
    (site / "site" / "zz_boot2.py").write_text("import os\nimport zz_helper\ndef later():\n    import zz_other\n")
    assert _startup_check(site, monkeypatch, "import zz_boot2") == [
        f"{site / 'site' / 'zz.pth'}: zz_boot2, which a start-up line imports, imports zz_helper when it runs"]


def test_a_sitecustomize_that_ran_but_cannot_be_found_stops_the_caches(monkeypatch):
    # red team: a sitecustomize on PYTHONPATH that removed its folder from sys.path was hashed as absent
    import types

    monkeypatch.setitem(sys.modules, "sitecustomize", types.ModuleType("sitecustomize"))
    monkeypatch.setattr(fingerprint, "_path_spec", lambda name, path=None: None)
    files = fingerprint._startup_files()
    assert Path("<sitecustomize is not found on sys.path>") in files
    assert "<sitecustomize is not found on sys.path> cannot be read" in fingerprint._libraries()[2]
