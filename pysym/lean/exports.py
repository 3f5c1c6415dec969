"""The theorems the symbolic layer starts from, listed in one place.

Each entry names a Lean theorem of ``MoeTheory/`` and the paper step it
formalizes.  ``moe-theory lean statements`` (with no names) extracts exactly
these, and ``moe-theory lean check`` fails if one of them is missing.
"""

from __future__ import annotations

__all__ = ["EXPORTS"]

EXPORTS: dict[str, str] = {
    "MoeTheory.choose_le_pow": "C(n,k) <= n^k; gives log C(T,k) <= k log T (seed 004, Eq. 17-18)",
}
