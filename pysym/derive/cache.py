"""Derivation reports cached by everything a report depends on.

A derivation's report is a function of the derivation (as built, before it is
verified: every step, expression and range, :func:`canonical`), the Lean
statements it reads, the CPU-time budgets of its steps and proofs, and the
code that verifies it (every module
of :mod:`pysym`, Python, SymPy, mpmath, python-flint, NumPy and their
environment variables: :mod:`pysym.fingerprint`).  The key of an entry hashes
all of them, so a hit is the report that verifying again would give; changing
any one of them is a miss.

Only reports reached with every CPU-time budget in force (the main thread)
and none stopping work are stored (a step that ran out of its budget, or a
proof attempt its prover's own budget stopped: how far work gets before its
limit depends on the machine's speed),
and nothing is stored when :mod:`pysym`'s files changed while the derivation
was verified.

An entry is the pickled report behind a header line naming the format and
the key.  SymPy rebuilds a pickled expression by calling its class again,
which would evaluate what the derivation built unevaluated (a displayed
``Eq(e**(-log(2/delta) ...), delta)`` would come back as ``delta = delta``), so
entries are loaded with evaluation off, and a report is stored only if what
loading it gives is the same report, every SymPy expression in it compared by
its full structure (:func:`canonical`); a report that does not survive the
round trip exactly is verified afresh each time.  An entry that cannot be
read, names another key, or does not hold a
:class:`~pysym.derive.derivation.Report` of the derivation asked for is a
miss, never an error.  Entries are written atomically
(:func:`pysym.paths.write_atomic`); beyond :data:`KEEP` entries the least
recently used are removed.  Loading a pickle can run code, so the only files
ever loaded are the workspace's own entries named by a key, owned by this
user and writable by no one else (entries are written with mode 0600:
:func:`pysym.fingerprint.private_file`), and a key hashes the interpreter's
path and the libraries' inodes and change times
(:func:`pysym.fingerprint.tree_fingerprint`): no entry written on another
machine, or shipped in a repository, is ever named by one computed here.
``moe-theory derive --no-cache`` (and ``all --no-cache``) verify every
derivation afresh and rewrite the entries.

>>> import tempfile
>>> from pathlib import Path
>>> from pysym.derive import Derivation, Identity, Var
>>> x = Var("x", 1, 100, "a positive real")
>>> d = Derivation("demo", "Logarithm of a square", vars=[x], steps=[
...     Identity("sq", sp.log(x.symbol**2), 2 * sp.log(x.symbol), "log of a power")], conclusion="sq")
>>> cache = ReportCache(Path(tempfile.mkdtemp()))
>>> key = cache.key("demo", {}, d)
>>> cache.get(key, "demo") is None
True
>>> cache.put(key, d.verify())
True
>>> cache.get(key, "demo").ok, cache.hits
(True, 1)
"""

from __future__ import annotations

import hashlib
import json
import pickle
import types

import sympy as sp

from pysym.fingerprint import ResultCache, code_digest
from pysym.paths import write_atomic
from pysym.secret import keyed

__all__ = ["ReportCache", "KEEP", "FORMAT"]

KEEP = 200  # entries kept (about 5-50 KB each)
FORMAT = "moe-theory-derivation-report/1"


class ReportCache(ResultCache):
    """Reports in ``directory`` (the workspace's ``build/.cache/derive/``), one
    file per key.  With ``read=False`` nothing is read (every derivation is
    verified afresh) and what is verified is still stored."""

    SUFFIX = ".pickle"
    KEEP = KEEP

    def key(self, name: str, statements: dict | None, derivation=None) -> str:
        """The key of derivation ``name`` (as ``derivation``, built but not yet
        verified, is: :func:`canonical` of it; default: as the library builds it)
        under ``statements``, the budgets and the code."""
        from pysym.derive.derivation import STEP_BUDGET
        from pysym.derive.library import build
        from pysym.derive.prove import BUDGET

        built = canonical(build(name) if derivation is None else derivation)
        h = hashlib.sha256(code_digest().encode())
        for part in (FORMAT, name, built, json.dumps(statements, sort_keys=True, ensure_ascii=False),
                     f"{STEP_BUDGET!r} {BUDGET!r}", keyed("moe-theory derive")):  # this user's secret
            h.update(b"\0" + part.encode("utf-8", "surrogatepass"))
        return h.hexdigest()

    def get(self, key: str, name: str):
        """The cached report of derivation ``name`` under ``key``, or ``None``."""
        from pysym.derive.derivation import Report

        path = self._path(key)
        header = f"{FORMAT} {key}\n".encode()
        if not self._readable(path):  # loading a pickle runs code: only this user's own entries
            return None
        try:
            data = path.read_bytes()
            if not data.startswith(header):
                return None
            report = _load(data[len(header):])
        except Exception:  # unreadable, truncated or not a pickle of this code's objects: a miss
            return None
        if not isinstance(report, Report) or getattr(report.derivation, "name", None) != name:
            return None
        self._hit(path)
        return report

    def put(self, key: str, report) -> bool:
        """Store ``report`` under ``key`` if it survives the round trip exactly;
        whether it was stored."""
        try:
            blob = pickle.dumps(report, protocol=pickle.HIGHEST_PROTOCOL)
            if canonical(_load(blob)) != canonical(report):
                return False
            write_atomic(self._path(key), f"{FORMAT} {key}\n".encode() + blob, private=True)
        except Exception:  # a read-only folder, an object that does not pickle or load: not stored
            return False
        return True


def _load(blob: bytes):
    """Unpickle with SymPy's evaluation off: each expression is rebuilt from its
    arguments exactly as they were, not simplified again."""
    with sp.evaluate(False):
        return pickle.loads(blob)


def canonical(obj) -> str:
    """A text that determines ``obj`` as the cache compares it: SymPy objects by
    their tree (each node's class and its arguments in their stored order;
    numbers exactly, symbols and dummies with their assumptions and indices),
    containers and plain objects by their parts, functions by their qualified
    names."""
    out: list[str] = []
    _walk(obj, out, set())
    return "".join(out)


def _sympy(x, out: list) -> None:
    kind = type(x).__name__
    if isinstance(x, sp.Dummy):
        out.append(f"D{x.name!r}#{x.dummy_index}{sorted(x.assumptions0.items())}")
    elif isinstance(x, sp.Symbol):
        out.append(f"S{kind}{x.name!r}{sorted(x.assumptions0.items())}")
    elif isinstance(x, sp.Integer):
        out.append(f"I{x.p:#x}")
    elif isinstance(x, sp.Rational):
        out.append(f"Q{x.p:#x}/{x.q:#x}")
    elif isinstance(x, sp.Float):
        sign, man, exp, bc = x._mpf_
        out.append(f"F{sign},{man:#x},{exp},{bc},{x._prec}")
    elif not x.args:
        out.append(f"A{type(x).__module__}.{type(x).__qualname__}:{x!r}")
    else:
        out.append(f"N{type(x).__module__}.{type(x).__qualname__}(")
        for a in x.args:
            _sympy(a, out) if isinstance(a, sp.Basic) else _walk(a, out, set())
            out.append(",")
        out.append(")")
    # state beyond the arguments (a polynomial's domain, a wildcard's exclusions, a unit's LaTeX form): what a
    # rebuild from the arguments would lose shows here, so such a report fails the round trip and is not stored
    extra = {k: v for k, v in _state(x).items() if k not in _SYMPY_BOOKKEEPING}
    if extra:
        out.append("+")
        _walk(extra, out, set())
    # a class made at run time (`Function("f", positive=True)`) or outside SymPy and the package: its name does
    # not say what it is, so its assumptions, attributes and methods' code do
    cls = type(x)
    if not (cls.__module__ or "").startswith(("sympy.", "pysym.")):
        out.append("K")
        _walk({k: v for k, v in vars(cls).items() if k not in _CLASS_BOOKKEEPING}, out, set())


# SymPy's own caches and the parts covered above
_SYMPY_BOOKKEEPING = {"_mhash", "_args", "_assumptions", "_assumptions0", "_assumptions_orig", "__weakref__",
                      "name", "dummy_index", "p", "q", "_mpf_", "_prec", "_hash", "_cached_hash"}


_CLASS_BOOKKEEPING = {"__module__", "__doc__", "__dict__", "__weakref__", "__slots__", "_prop_handler", "_sage_"}


def _state(x) -> dict:
    fields = dict(getattr(x, "__dict__", {}))
    for cls in type(x).__mro__:
        for slot in getattr(cls, "__slots__", ()):
            if slot not in fields and hasattr(x, slot):
                fields[slot] = getattr(x, slot)
    return fields


def _filled(cell) -> bool:
    try:
        cell.cell_contents
    except ValueError:
        return False
    return True


def _walk(x, out: list, active: set) -> None:
    if isinstance(x, sp.Basic):
        _sympy(x, out)
    elif isinstance(x, int):  # bool too; hexadecimal: no limit on the number of digits
        out.append(f"{type(x).__name__}{x:#x}")
    elif x is None or isinstance(x, (float, complex, str, bytes)):
        out.append(type(x).__name__ + repr(x))
    elif isinstance(x, types.FunctionType):  # by name, code, constants, defaults and captured values
        out.append(f"F{x.__module__}.{x.__qualname__}:{x.__code__.co_code.hex()}")
        _walk([x.__code__.co_consts, x.__code__.co_names, x.__defaults__, x.__kwdefaults__,
               [c.cell_contents for c in (x.__closure__ or ()) if _filled(c)]], out, active)
    elif isinstance(x, types.CodeType):
        out.append(f"C{getattr(x, 'co_qualname', x.co_name)}:{x.co_code.hex()}")
        _walk([x.co_consts, x.co_names], out, active)
    elif callable(x) and hasattr(x, "__qualname__"):
        out.append(f"F{getattr(x, '__module__', '')}.{x.__qualname__}")
    else:
        if id(x) in active:
            out.append("<cycle>")
            return
        active.add(id(x))
        try:
            if isinstance(x, (list, tuple)):
                out.append(type(x).__name__ + "[")
                for item in x:
                    _walk(item, out, active)
                    out.append(",")
                out.append("]")
            elif isinstance(x, (set, frozenset)):
                out.append(type(x).__name__ + "{" + ",".join(sorted(canonical(i) for i in x)) + "}")
            elif isinstance(x, dict):
                items = sorted(((canonical(k), v) for k, v in x.items()), key=lambda kv: kv[0])
                out.append("{")
                for k, v in items:
                    out.append(k + ":")
                    _walk(v, out, active)
                    out.append(",")
                out.append("}")
            elif hasattr(x, "__dict__") or hasattr(type(x), "__slots__"):
                fields = dict(getattr(x, "__dict__", {}))
                for slot in getattr(type(x), "__slots__", ()):
                    if hasattr(x, slot):
                        fields[slot] = getattr(x, slot)
                out.append(f"O{type(x).__module__}.{type(x).__qualname__}")
                _walk(fields, out, active)
            else:
                out.append(f"R{type(x).__module__}.{type(x).__qualname__}:{x!r}")
        finally:
            active.discard(id(x))
