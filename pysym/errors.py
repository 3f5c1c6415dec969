"""Errors that are the user's to fix, as opposed to bugs.

The command line prints a :class:`UserError` as one clear message (no
traceback) and exits with its ``exit_code``.
"""

__all__ = ["UserError", "ToolchainError", "ProjectError"]


class UserError(Exception):
    """A problem the user can fix: bad input, missing tool, failing check."""

    exit_code = 2

    def __init__(self, message: str, *, exit_code: int | None = None):
        super().__init__(message)
        if exit_code is not None:
            self.exit_code = exit_code


class ToolchainError(UserError):
    """The Lean toolchain is missing, cannot be installed, or misbehaves."""

    exit_code = 3


class ProjectError(UserError):
    """The project tree is not usable (no ``MoeTheory/``, import cycle, ...)."""
