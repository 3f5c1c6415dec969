"""Verdicts: checking each claim of a claims file, within a budget.

:func:`evaluate` looks up the claim's kind in the registry
(:mod:`pysym.audit.registry`; one module per kind under
:mod:`pysym.audit.kinds`) and runs its evaluator in a worker process under a
CPU-time and memory budget (:mod:`pysym.audit.budget`).

Every evaluator returns a verdict: ``holds`` (proved symbolically, computed
exactly at the stated point, or given by a Lean theorem, for every admissible
value of the printed numbers), ``fails`` (with the derived value or a
counterexample), ``undetermined`` (the printed precision cannot decide: some
admissible values satisfy the claim, others do not), ``conditional`` (holds
only under a condition the verdict states), or ``inconclusive`` (the engine
could not decide; it says why).  Numeric sampling alone never yields ``holds``
for a claim about a whole region: without a proof such a claim is
inconclusive, however many points agree.

Every verdict says whether rounding could flip it
(:class:`pysym.audit.verdict.Rounding`): kinds registered with
``precision="box"`` decide over every admissible value themselves; for the
others the engine runs the kind at the printed values and, when it holds
there, again with the printed numbers as parameters
(:mod:`pysym.audit.parameters`).  A claim that runs out of its budget is
``inconclusive`` and the verdict names the budget; invalid input found while
evaluating raises :class:`pysym.audit.errors.AuditInputError`.

>>> from pysym.audit.examples import EXAMPLE_SYMBOLS
>>> from pysym.audit.schema import load_claims_text
>>> cf = load_claims_text(EXAMPLE_SYMBOLS + '''
... [[claim]]
... id = "am-gm"
... kind = "inequality"
... quote = "x^2 + 1 >= 2x"
... where = "Eq. 1"
... expected = "holds"
... lhs = "x**2 + 1"
... rel = ">="
... rhs = "2*x"
... ''')
>>> v = evaluate(cf, cf.claims[0])  # in a worker process, under DEFAULT_BUDGET
>>> v.verdict, v.matches
('holds', True)
"""

from __future__ import annotations

import dataclasses

import sympy as sp

from pysym.audit import preload
from pysym.audit.budget import DEFAULT_BUDGET, Budget, run_many, steps_stopped
from pysym.audit.cache import OutcomeCache
from pysym.audit.errors import AuditInputError
from pysym.audit.model import Claim, ClaimsFile
from pysym.audit.parameters import evaluate_with_parameters
from pysym.audit.printed import has_printed, printed_in
from pysym.audit.registry import Job, kind
from pysym.audit.verdict import VERDICTS, Outcome, Rounding, Verdict, plain_evidence, unmarked
from pysym.fingerprint import loaded_problems

__all__ = ["Verdict", "evaluate", "evaluate_many", "evaluate_unbudgeted"]


def evaluate_unbudgeted(cf: ClaimsFile, claim: Claim, statements: dict | None = None) -> Outcome:
    """The claim's :class:`Outcome`, computed in this process (no budget), as plain text."""
    return unmarked(_evaluate(cf, claim, statements))


def lean_input(claim: Claim, statements: dict | None) -> dict | None:
    """What the claim's evaluator is given of the Lean statements: all of them
    for a kind that reads them (``premise``), else nothing."""
    return statements if kind(claim.kind).reads_lean else None


def _minimized_over_a_restricted_symbol(claim: Claim) -> str | None:
    """Why a claim that minimizes over a symbol that takes only some real
    values (a `rational` one) cannot be decided, or None: every minimization of
    the engine is over the reals, and the minimizer over the rationals may not
    exist (``(q**2 - 2)**2`` on [1, 2]).  Integer symbols are the kinds' own
    business (each refuses or handles them)."""
    from pysym.audit.existence import real_continuum

    symbols = []
    for name in ("argmin", "minimize"):
        if claim.has(name):
            value = claim.get(name)
            symbols += [s for s in (value if isinstance(value, (list, tuple)) else [value]) if isinstance(s, sp.Symbol)]
    if claim.kind == "value" and claim.has("over"):
        symbols += [s for s in claim.get("over") if isinstance(s, sp.Symbol)]
    restricted = sorted({str(s) for s in symbols if s.is_integer is not True and not real_continuum(s)})
    if not restricted:
        return None
    return (f"the claim minimizes over {', '.join(restricted)}, which takes only rational values: the engine "
            "minimizes over the reals, and over the rationals the minimum need not be attained (or the minimizer "
            "rational)")


def _evaluate(cf: ClaimsFile, claim: Claim, statements: dict | None = None) -> Outcome:
    """The claim's :class:`Outcome` with its expressions marked (for :class:`Verdict`)."""
    k = kind(claim.kind)
    job = Job(cf, claim, lean_input(claim, statements))
    printed = has_printed(claim.values)
    refused = _minimized_over_a_restricted_symbol(claim)
    if refused is not None:
        outcome = Outcome("inconclusive", refused, {"method": "none: the minimizations are over the reals"})
    elif printed and k.precision != "box":
        outcome = evaluate_with_parameters(k.evaluate, job)
    else:
        outcome = k.evaluate(job)
    if outcome.verdict not in VERDICTS:  # pragma: no cover - an evaluator bug
        raise ValueError(f"kind `{claim.kind}` returned the verdict {outcome.verdict!r}")
    rounding = outcome.rounding
    if rounding is None:
        rounding = Rounding("unknown" if printed else "exact", numbers=tuple(printed_in(claim.values)))
    if printed and rounding.status == "exact":  # the derived quantity does not involve the printed numbers
        rounding = dataclasses.replace(rounding, status="robust")
    return Outcome(outcome.verdict, outcome.summary, plain_evidence(outcome.evidence), rounding)


def evaluate(cf: ClaimsFile, claim: Claim, statements: dict | None = None, *,
             budget: Budget | None = DEFAULT_BUDGET) -> Verdict:
    """The verdict on one claim, computed under ``budget`` (``None``: in this
    process, unbounded).  Raises :class:`AuditInputError` for bad input."""
    result = evaluate_many([(cf, claim)], statements, budget=budget)[0]
    if isinstance(result, AuditInputError):
        raise result
    return result


def evaluate_many(pairs: list, statements: dict | None = None, *,
                  budget: Budget | None = DEFAULT_BUDGET, cache: OutcomeCache | None = None) -> list:
    """A :class:`Verdict`, or the :class:`AuditInputError` found while
    evaluating, for each ``(claims file, claim)`` pair, each claim under its
    own ``budget`` (the claims share worker processes, see
    :func:`pysym.audit.budget.run_many`).  With ``cache``, a claim whose
    outcome is cached is not evaluated again, and what is evaluated is stored
    (:mod:`pysym.audit.cache` says what is and why that is safe)."""
    keys = [cache.key(cf, claim, lean_input(claim, statements), budget) if cache is not None else None
            for cf, claim in pairs]
    found: list = [None] * len(pairs)
    for i, key in enumerate(keys):
        if key is not None and (hit := cache.get(key)) is not None:
            found[i] = ("ok", hit)
    todo = [i for i, f in enumerate(found) if f is None]
    check = cache is not None
    if check and todo:
        loaded_problems()  # once here, before the workers are forked: what it finds out once is theirs too
    thunks = [lambda cf=pairs[i][0], claim=pairs[i][1]: _evaluate_counted(cf, claim, statements, check)
              for i in todo]
    weights = [_weight(pairs[i][1]) for i in todo]
    if thunks and budget is not None:
        preload.numeric()  # once, here, rather than in every worker
    done = run_many(thunks, budget, weights=weights) if thunks else []  # every outcome cached: no worker
    storable = cache is not None and todo and cache.code_unchanged()
    for i, (status, value) in zip(todo, done):
        if status == "ok":
            value, stopped, loaded_ok = value
            if storable and keys[i] is not None and not stopped and loaded_ok:
                cache.put(keys[i], value)
        found[i] = (status, value)
    if cache is not None:
        cache.prune()
    return [_verdict(cf, claim, status, value, budget) for (cf, claim), (status, value) in zip(pairs, found)]


def _evaluate_counted(cf: ClaimsFile, claim: Claim, statements: dict | None,
                      check: bool = True) -> tuple[Outcome, int, bool]:
    """The claim's outcome; how many of its steps a CPU-time limit stopped;
    and whether every module loaded (in the worker that evaluated it: its
    parent does not see what it imports) is code the cache's key names
    (:func:`pysym.fingerprint.loaded_problems`; with ``check`` false, when
    nothing will be stored, not looked at and false)."""
    from pysym.numerics import standard

    before = steps_stopped()
    with standard():  # whatever precision or switches the process set, every claim computes alike
        outcome = _evaluate(cf, claim, statements)
    return outcome, steps_stopped() - before, check and not loaded_problems()


def _weight(claim: Claim) -> float:
    """A static estimate of a claim's cost, to share the claims fairly between the workers."""
    if claim.kind == "optimum":
        return 4.0
    if claim.kind == "sign" and claim.has("argmin") or claim.has("condition") or claim.has("range"):
        return 2.0
    return 1.0


def _verdict(cf, claim, status, value, budget):
    if status == "ok":
        return Verdict(cf.paper.id, claim, *value)
    if status == "raised" and isinstance(value, AuditInputError):
        return value
    unknown = Rounding("unknown", numbers=tuple(printed_in(claim.values))) if has_printed(claim.values) \
        else Rounding("exact")
    if status == "budget":
        return Verdict(cf.paper.id, claim, "inconclusive",
                       f"the engine ran out of {value.describe()} on this claim, so it could not decide",
                       {"method": "stopped by the per-claim budget", "budget": budget.describe() if budget else "",
                        "exhausted": value.resource}, unknown)
    detail = f"{type(value).__name__}: {value}" if status == "raised" else str(value)
    return Verdict(cf.paper.id, claim, "inconclusive",
                   "the engine failed on this claim (an internal error, reported as such, not a verdict on the claim)",
                   {"method": "engine error", "error": detail}, unknown)
