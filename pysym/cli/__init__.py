"""The ``moe-theory`` command.

``moe-theory all`` is the main job: check the Lean proofs, extract their
statements, re-derive, audit, and write every report under ``build/``.
Each stage is also a command of its own; ``moe-theory COMMAND --help`` explains
it.  Exit codes: 0 success, 1 a check or audit failed, 2 invalid input or
usage, 3 toolchain problem, 130 interrupted (SIGINT), 143 terminated
(SIGTERM), 129 hangup (SIGHUP).
"""

from __future__ import annotations

import signal
import sys

from pysym.cli.parser import build_parser
from pysym.errors import UserError

__all__ = ["main", "build_parser"]


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help(sys.stderr)
        return 2
    from pysym.lean.process import LeanInterrupted, terminate_as_interrupt

    try:
        with terminate_as_interrupt():
            return int(args.func(args) or 0)
    except UserError as exc:
        print(f"moe-theory: error: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt as exc:
        code = exc.exit_code if isinstance(exc, LeanInterrupted) else 130
        print(f"moe-theory: interrupted ({signal.Signals(code - 128).name}); "
              "Lean was stopped and no partial results were written", file=sys.stderr)
        return code
    except BrokenPipeError:
        return 0
