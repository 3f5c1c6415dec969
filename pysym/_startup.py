"""What the site's ``.pth`` start-up files run before anything else, for the key of cached results.

Python executes every line of a ``.pth`` file in a site folder that begins
with ``import`` before any program code, so such a line may patch SymPy in
every process.  The key (:mod:`pysym.fingerprint`) hashes the files' text;
:func:`imported_by` says which modules those lines import, so that their
code is hashed too, and refuses (an allow-list) a line that does anything
else whose code the key could not name: a line may import modules, assign
names, compare and combine values, call ``__import__`` with a constant name,
call a function of a module it imported that is not the standard library's
(whose code is then hashed; not a function of something that module holds),
and read ``os.environ.get``.  (A start-up module that itself reads other
files is beyond what the key names.)

>>> imported_by("import os; var = 'X'; on = os.environ.get(var, 'local') == 'local'; "
...             "on and __import__('_distutils_hack').add_shim(); ")
(['_distutils_hack'], [])
>>> imported_by("import _virtualenv")
(['_virtualenv'], [])
>>> imported_by("import os; exec(open('/tmp/x').read())")[1]
['calls exec', 'calls open(...).read', 'calls open']
>>> imported_by("import runpy; runpy.run_path('/tmp/x.py')")[1]
['calls runpy.run_path']
>>> imported_by("import zz; zz.os.system('python /tmp/x.py')")
(['zz'], ['calls zz.os.system'])
"""

from __future__ import annotations

import ast
import sys

__all__ = ["imported_by", "import_lines", "imports_of", "STDLIB_NAMES"]

STDLIB_NAMES = frozenset(getattr(sys, "stdlib_module_names", ()))
_ALLOWED_NODES = (ast.Module, ast.Import, ast.alias, ast.Expr, ast.Assign, ast.Name, ast.Load, ast.Store,
                  ast.Constant, ast.Attribute, ast.Compare, ast.BoolOp, ast.UnaryOp, ast.Call, ast.Eq,
                  ast.NotEq, ast.And, ast.Or, ast.Not, ast.keyword)


def import_lines(text: str) -> list[str]:
    """The lines of a ``.pth`` file that Python executes (those beginning with
    ``import``), as any Python version splits and decodes it: universal
    newlines (3.11 and before) or every line boundary ``str.splitlines``
    knows (3.12 and after), with or without a leading byte-order mark."""
    lines = []
    for variant in (text, text.lstrip("\ufeff")):
        for line in variant.replace("\r\n", "\n").replace("\r", "\n").split("\n") + variant.splitlines():
            if line.startswith(("import ", "import\t")) and line not in lines:
                lines.append(line)
    return lines


def _dotted(node: ast.AST) -> str:
    if isinstance(node, ast.Attribute):
        return f"{_dotted(node.value)}.{node.attr}"
    if isinstance(node, ast.Call):
        return f"{_dotted(node.func)}(...)"
    return node.id if isinstance(node, ast.Name) else type(node).__name__


def _constant_import(node: ast.AST) -> str | None:
    """``x`` for ``__import__('x')``."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "__import__" \
            and len(node.args) == 1 and not node.keywords and isinstance(node.args[0], ast.Constant) \
            and isinstance(node.args[0].value, str):
        return node.args[0].value
    return None


def imported_by(line: str, keep_stdlib: bool = False) -> tuple[list[str], list[str]]:
    """The top-level modules a start-up line imports that are not the
    standard library's (``keep_stdlib``: all of them), and what in it the key
    cannot name (empty when nothing)."""
    try:
        tree = ast.parse(line)
    except SyntaxError as error:
        return [], [f"cannot be read as Python ({error.msg})"]
    modules, bound, refused = set(), {}, []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                bound[alias.asname or alias.name.partition(".")[0]] = alias.name.partition(".")[0]
                modules.add(alias.name.partition(".")[0])
        elif (name := _constant_import(node)) is not None:
            modules.add(name.partition(".")[0])
    for node in ast.walk(tree):
        if not isinstance(node, _ALLOWED_NODES):
            refused.append(f"uses {type(node).__name__}")
        elif isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id in bound for t in node.targets):
            refused.append("rebinds an imported name")
        elif isinstance(node, ast.Call) and _constant_import(node) is None:
            func, dotted = node.func, _dotted(node.func)
            # a function of an imported module itself (not of something it holds), or os.environ.get
            if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
                base = bound.get(func.value.id)
            elif isinstance(func, ast.Attribute):
                base = (_constant_import(func.value) or "").partition(".")[0] or None
            else:
                base = None
            if not (base is not None and base not in STDLIB_NAMES or dotted == "os.environ.get"
                    and bound.get("os") == "os"):
                refused.append(f"calls {dotted}")
    return sorted(m for m in modules if keep_stdlib or m not in STDLIB_NAMES), refused


def imports_of(file: str) -> list[str]:
    """The top-level modules other than the standard library's that the
    module in ``file`` imports when it runs (its statements outside functions
    and classes' methods; a relative import stays in its own package, which
    is hashed with it), or ``["(unreadable)"]``."""
    try:
        with open(file, "rb") as fh:
            tree = ast.parse(fh.read())
    except (OSError, SyntaxError, ValueError):
        return ["(unreadable)"]
    found, stack = set(), list(tree.body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            continue
        if isinstance(node, ast.Import):
            found |= {alias.name.partition(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            found.add(node.module.partition(".")[0])
        elif (name := _constant_import(node)) is not None:
            found.add(name.partition(".")[0])
        stack.extend(ast.iter_child_nodes(node))
    return sorted(m for m in found if m not in STDLIB_NAMES)
