"""Saving matplotlib figures the same way everywhere: tight layout, 110 dpi,
no software stamp in the PNG (so the bytes depend only on the picture)."""

from __future__ import annotations

from pathlib import Path

__all__ = ["save_figure"]


def save_figure(fig, path: Path) -> None:
    import matplotlib.pyplot as plt

    fig.tight_layout()
    fig.savefig(path, dpi=110, metadata={"Software": None})
    plt.close(fig)
