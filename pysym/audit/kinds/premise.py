"""Kind ``premise``: a statement that a Lean theorem proves.

Fields: ``theorem`` (a full name, or a unique suffix), ``statement`` (a
relation); optional ``bind`` (Lean variable = expression), ``terms`` (Lean
head or application = expression) and ``hypotheses`` (fragment of a Lean
hypothesis = why it is granted).

The theorem's elaborated statement (``build/lean/statements.json``) is parsed
into SymPy and its conclusion compared with ``statement`` up to SymPy
equivalence (:class:`pysym.derive.Premise`).  Every hypothesis must follow
from the symbols' ranges or be granted.  ``holds`` when the conclusion matches
and every hypothesis is discharged; ``conditional`` when the conclusion
matches but a hypothesis the ranges do not guarantee remains (the verdict
states it); ``fails`` when the conclusion does not match and the statement
itself is false (a proved counterexample); ``inconclusive`` when the
conclusion does not match otherwise (the theorem does not prove the statement
as written, which does not make it false), or when the theorem cannot be applied as the claim binds it (for example a real
symbol bound to a ``Rat`` binder: a theorem about the rationals says nothing
about the reals; declare the symbol ``rational = true`` if that is what the
paper means).  Lean variables named like a symbol of the file stand for that
symbol.

>>> from pysym.audit.examples import example
>>> example("premise", theorem="MoeTheory.choose_le_pow", statement="x <= 1")
('inconclusive', 'no Lean statements available (the Lean check did not run)')
"""

from __future__ import annotations

from pysym.audit.context import Context
from pysym.audit.fields import EXPRESSION_TABLE, RELATION, TEXT, TEXT_TABLE
from pysym.audit.registry import Field, Kind, register
from pysym.audit.verdict import Outcome
from pysym.derive import Assumption, Premise

__all__ = ["KIND", "evaluate"]


def evaluate(job):
    cf, claim, statements = job.cf, job.claim, job.statements
    theorem = claim.get("theorem")
    if statements is None:
        return Outcome("inconclusive", "no Lean statements available (the Lean check did not run)", {})
    if theorem not in statements:
        from pysym.errors import UserError
        from pysym.lean.statements import resolve_names

        try:
            theorem = resolve_names([theorem], sorted(statements))[0]
        except UserError as exc:
            raise cf.error(claim, str(exc)) from None
    relation = claim.get("statement")
    bind = {name: spec.symbol for name, spec in cf.symbols.items()}
    bind.update(claim.get("bind", {}))
    terms = dict(claim.get("terms", {}))
    hyps = dict(claim.get("hypotheses", {}))
    d = Context(cf, claim).derivation()
    d.assumptions = [Assumption(why, why) for why in hyps.values()]
    step = Premise(claim.id, theorem, relation, bind=bind, terms=terms, hypotheses=hyps)
    res = step.check(d, {"statements": statements, "steps": {}})
    ev = {"theorem": theorem, "lean_statement": statements[theorem], "method": "Lean theorem (kernel-checked)",
          "detail": res.detail}
    if res.ok:
        return Outcome("holds", f"the Lean theorem `{theorem}` proves it ({res.detail.split('; ', 1)[-1]})", ev)
    if "does not match" in res.detail:  # the theorem does not state it: that says nothing on whether it is true
        false = _refuted(cf, claim, relation)
        if false is not None:
            return Outcome("fails", f"{res.detail}; and the statement itself is false: {false.summary}",
                           {**ev, **false.evidence})
        return Outcome("inconclusive", res.detail + " (the theorem does not prove the statement as written; that "
                                                    "does not make it false)", ev)
    if res.undischarged:
        cond = " and ".join(res.undischarged)
        ev["condition"] = cond
        return Outcome("conditional", f"holds only if {cond}: the Lean theorem `{theorem}` needs it, and the claim's "
                                      "ranges do not guarantee it", ev)
    return Outcome("inconclusive", f"the Lean theorem `{theorem}` could not be applied to this claim as stated: "
                                   f"{res.detail}", ev)


def _refuted(cf, claim, relation) -> Outcome | None:
    """The ``fails`` outcome of the statement itself, with a proved counterexample, or None."""
    import sympy as sp

    from pysym.audit.relations import relation_verdict

    ops = {sp.LessThan: "<=", sp.StrictLessThan: "<", sp.GreaterThan: ">=", sp.StrictGreaterThan: ">",
           sp.Equality: "=="}
    op = ops.get(type(relation))
    if op is None:
        return None
    o = relation_verdict(Context(cf, claim), relation.lhs, op, relation.rhs, "the statement", sp.sstr(relation))
    return o if o.verdict == "fails" else None


KIND = register(Kind(
    "premise",
    (Field("theorem", TEXT, True, "the Lean theorem (full name or unique suffix)"),
     Field("statement", RELATION, True, "the paper's statement"),
     Field("bind", EXPRESSION_TABLE, doc="Lean variable = expression"),
     Field("terms", EXPRESSION_TABLE, doc="Lean head or application = expression"),
     Field("hypotheses", TEXT_TABLE, doc="fragment of a Lean hypothesis = why it is granted")),
    evaluate,
    doc="Compares the Lean theorem's elaborated conclusion with `statement`; every Lean hypothesis must follow from "
        "the ranges or be granted, else `conditional`.",
    reads_lean=True,
))
