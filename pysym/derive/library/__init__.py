"""The derivations shipped with moe-theory, by name.

>>> sorted(REGISTRY)[:2]
['comprehensive_law', 'compute_optimal']
"""

from __future__ import annotations

from typing import Callable

from pysym.derive.core import Derivation
from pysym.derive.library import scaling, zhao_bound, zhao_sparsity

__all__ = ["REGISTRY", "build", "names"]

REGISTRY: dict[str, Callable[[], Derivation]] = {
    "zhao_theorem1": zhao_bound.zhao_theorem1,
    "routing_term": zhao_bound.routing_term,
    "zhao_remark3": zhao_sparsity.zhao_remark3,
    "zhao_optimal_k": zhao_sparsity.zhao_optimal_k,
    "mayaki_scaling": scaling.mayaki_scaling,
    "comprehensive_law": scaling.comprehensive_law,
    "compute_optimal": scaling.compute_optimal,
}


def names() -> list[str]:
    return list(REGISTRY)


def build(name: str) -> Derivation:
    try:
        return REGISTRY[name]()
    except KeyError:
        raise KeyError(f"unknown derivation `{name}`; known: {', '.join(REGISTRY)}") from None
