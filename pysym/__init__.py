"""moe-theory: checkable theory for sparse Mixture-of-Experts models.

The package is organised by concern:

- :mod:`pysym.lean` -- the Lean 4 toolchain (native or the registry-built wasm
  one), ``lean check`` and statement extraction;
- :mod:`pysym.derive` -- symbolic re-derivations (SymPy, mpmath);
- :mod:`pysym.audit` -- claims files and verdicts;
- :mod:`pysym.render` -- LaTeX, notebooks and plots;
- :mod:`pysym.workspace` -- which Lean library a command uses, and where it reads
  and writes (a checkout, or any folder with the installed library);
- :mod:`pysym.scaffold` -- ``moe-theory init``: a first claims file, a CI workflow;
- :mod:`pysym.schemas` -- the JSON Schemas of the machine-readable outputs;
- :mod:`pysym.cli` -- the ``moe-theory`` command.
"""

from pysym import _sources  # noqa: F401  (the sources' fingerprint, taken before any other module is read)

__version__ = "0.1.0"

__all__ = ["__version__"]
