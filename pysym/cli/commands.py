"""What each ``moe-theory`` subcommand does (its arguments are defined in
:mod:`pysym.cli.parser`): check the Lean proofs, read their statements,
derive, audit, write the blueprint, and ``all`` of them in order."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from pysym.errors import UserError


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
    from pysym.lean.install import install_wasm, load_wasm, wasm_install_dir

    if load_wasm() is not None:
        print(f"already installed: {wasm_install_dir()}")
        return 0
    install_wasm(progress=_progress(args))
    return 0


def _cmd_info(args) -> int:
    import os
    import shutil

    from pysym.lean.install import load_wasm, wasm_install_dir
    from pysym.lean.toolchain import native_at

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
    sources += [p for p in (build / "audit" / "report.tex",) if p.is_file()]  # \input by main.tex
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
    # main.pdf has a chapter for every derivation: a PDF built from some names verifies the others too (through
    # the cache when unchanged), so that no chapter is one an earlier run rendered from other code
    others = run([n for n in REGISTRY if n not in (names or REGISTRY)], statements, progress, cache=cache) \
        if pdf and names else []
    library = _library(ws.library, result) if result is not None else None
    written = render_all(reports + others, build, extra_inputs=["../audit/report.tex"], statements=statements,
                         library=library, all_names=list(REGISTRY))
    failed = [r for r in reports if not r.ok]
    failed_others = [r.derivation.name for r in others if not r.ok]
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
    if pdf and failed_others:
        print(f"  pdf: not compiled: {', '.join(failed_others)}, also chapters of main.pdf, do not verify "
              "(`moe-theory derive` shows why)")
        return 1
    if pdf:
        if pdflatex_available():
            progress.step("  compiling build/derivations/main.pdf (pdflatex)")
            notes: list[str] = []
            print(f"  pdf: {compile_pdf(build / 'derivations' / 'main.tex', notes=notes)}")
            for note in notes:
                print(f"  pdf: {note}")
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
    stale = None if adhoc else _stale_pdf(ws.build)
    if stale is not None:  # it includes the audit chapter just rewritten: it would show the old verdicts
        stale.unlink()
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
    if stale is not None:
        print("  main.pdf removed: its audit chapter changed (`moe-theory derive --pdf` rebuilds it)",
              file=sys.stderr if getattr(args, "json", False) else sys.stdout)
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
            notes: list[str] = []
            compile_pdf(build / "derivations" / "main.tex", notes=notes)
            for note in notes:
                print(f"      (main.pdf: {note})")
        else:
            print("      (main.pdf not compiled: pdflatex is not installed)")
    code = max(derive_code, audit_code, blueprint_code)
    state = "done" if code == 0 else "finished with problems (see above)"
    print(f"moe-theory all: {state} in {time.monotonic() - t0:.1f} s; reports in {build}")
    return code


