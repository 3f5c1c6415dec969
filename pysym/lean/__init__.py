"""Lean 4 side: toolchain, checking, statement extraction.

>>> from pysym.lean import EXPORTS
>>> "MoeTheory.choose_le_pow" in EXPORTS
True
"""

from pysym.lean.check import CheckResult, check_project
from pysym.lean.exports import EXPORTS
from pysym.lean.install import install_wasm
from pysym.lean.statements import extract_statements, resolve_names
from pysym.lean.toolchain import find_toolchain

__all__ = [
    "CheckResult",
    "check_project",
    "EXPORTS",
    "extract_statements",
    "resolve_names",
    "find_toolchain",
    "install_wasm",
]
