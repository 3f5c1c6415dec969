"""Kind ``table``: the rows of a paper's table checked against a formula.

Fields: ``columns`` (names; a name of ``[symbols]`` is that symbol, so the
file's laws apply to it, any other name is local to the claim), ``rows`` (one
list of values per row: TOML numbers are exact, strings carry their printed
precision, ``[low, high]`` is an interval), ``formula`` (a relation in the
columns, or a list of them); optional ``labels`` (one per row), ``tolerance``
(relative) and ``abs_tolerance`` (with ``==``).

Write an equation as *printed column* ``==`` *expression of the other
columns*: the left side's printed digits are its tolerance, as for a claimed
value (:func:`pysym.audit.precision.compare`).  ``FLOPs == 6*N*D`` with
``"3.8e25"`` in the FLOPs column accepts any 6ND in [3.75e25, 3.85e25].  A
one-sided relation must hold for every admissible value of both sides.

Each row gets a verdict (``holds``, ``fails``, ``undetermined``); the claim
``fails`` when some row fails (the failing rows are listed), else is
``undetermined`` when some row is, ``inconclusive`` when some row could not be
decided, and ``holds`` when every row holds.  Rows that share a named constant
of the file are decided together.

>>> from pysym.audit.examples import example
>>> example("table", columns=["C", "P", "T"], rows=[["3.67e22", "6.11e9", "1.00e12"], [2e22, 3e9, 1e12]],
...         formula="C == 6*P*T", labels=["dense", "moe"])[1]
'2 rows: 1 fails, 1 undetermined; fails at row 2 (moe): 6*P*T is 1.8e+22: it does not match the claimed C = 2e+22'
"""

from __future__ import annotations


import sympy as sp

from pysym.audit.fields import COLUMNS, RELATIONS, RELATIVE_TOLERANCE, ROWS, TEXTS, TOLERANCE
from pysym.audit.numbers import show
from pysym.audit.precision import Check, compare_all, fmt
from pysym.audit.printed import Printed, constants_of, printed_in
from pysym.audit.registry import Field, Kind, register
from pysym.audit.verdict import Outcome, Rounding

__all__ = ["KIND", "evaluate"]

_FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}


def check(values: dict) -> str | None:
    columns, rows = values.get("columns", []), values.get("rows", [])
    for i, row in enumerate(rows, start=1):
        if len(row) != len(columns):
            return f"row {i} has {len(row)} values for {len(columns)} columns"
    if "labels" in values and len(values["labels"]) != len(rows):
        return f"`labels` has {len(values['labels'])} entries for {len(rows)} rows"
    return None


def _checks(claim, row):
    cols = claim.get("columns")
    sub = dict(zip(cols, row))
    out = []
    for rel in claim.get("formula"):
        lhs, rhs = rel.lhs.xreplace(sub), rel.rhs.xreplace(sub)
        loose = {x for x in (lhs.free_symbols | rhs.free_symbols) if not isinstance(x, Printed)}
        if loose:
            return None, f"the formula uses {', '.join(sorted(map(str, loose)))}, which no column gives"
        op = rel.rel_op
        shown = f"{show(rel.lhs)} = {_cell(lhs)}" if rel.lhs.is_Symbol else None
        if op == "==":
            out.append(Check(rhs, lhs, "==", claim.get("tolerance"), claim.get("abs_tolerance"), show(rel.rhs), shown))
        else:  # lhs op rhs, stated as: rhs (flipped op) lhs
            out.append(Check(rhs, lhs, _FLIP[op], None, None, show(rel.rhs), shown))
    return out, None


def _outside(cf, col, cell) -> str | None:
    """Why the cell cannot be a value of the column's symbol of [symbols] (the formula was read with its range and
    integrality: `Abs(N)` is `N` for a positive N), or None (:func:`pysym.audit.fields.outside_range`)."""
    from pysym.audit.fields import outside_range

    if col.name not in cf.symbols or cf.symbols[col.name].symbol != col:
        return None  # a column of the table's own
    if {x for x in sp.sympify(cell).free_symbols if not isinstance(x, Printed)}:
        return None
    problem = outside_range(cell, cf.symbols[col.name])
    return f"the cell {_cell(cell)} {problem}" if problem else None


def _cell(v) -> str:
    if isinstance(v, Printed):
        return v.text
    return fmt(v, 10) if v.is_number else show(v)


def evaluate(job):
    cf, claim = job.cf, job.claim
    rows = claim.get("rows")
    labels = claim.get("labels") or [None] * len(rows)
    for i, row in enumerate(rows, start=1):
        for j, (col, cell) in enumerate(zip(claim.get("columns"), row), start=1):
            problem = _outside(cf, col, cell)
            if problem:
                raise cf.error(claim, f"row {i}, column {j} ({col}): {problem}")
    per_row, all_checks, ev = [], [], {}
    for i, (row, label) in enumerate(zip(rows, labels), start=1):
        checks, problem = _checks(claim, row)
        if problem:
            raise cf.error(claim, problem)
        o = compare_all(checks)
        name = f"row {i}" + (f" ({label})" if label else "")
        per_row.append((name, o))
        all_checks.append(checks)
        ev[name] = f"{o.verdict}: {o.summary}"
    counts = {v: sum(o.verdict == v for _, o in per_row) for v in ("holds", "fails", "undetermined", "inconclusive")}
    head = f"{len(rows)} row{'s' * (len(rows) != 1)}: " + ", ".join(f"{n} {v}" for v, n in counts.items() if n)
    shared = _shared(all_checks)
    if shared:
        joint = compare_all([c for cs in all_checks for c in cs])
        verdict = joint.verdict
        ev["joint"] = f"rows share {', '.join(sorted(map(str, shared)))}: decided together ({joint.verdict})"
    elif counts["fails"]:
        verdict = "fails"
    elif counts["undetermined"]:
        verdict = "undetermined"
    elif counts["inconclusive"]:
        verdict = "inconclusive"
    else:
        verdict = "holds"
    listed = [(n, o) for n, o in per_row if o.verdict == verdict]
    tail = ""
    if listed and (verdict != "holds" or len(rows) <= 3):
        tail = f"; {verdict} at " + "; ".join(f"{n}: {o.summary.split(' (it holds at ')[0]}" for n, o in listed[:4])
        if len(listed) > 4:
            tail += f"; and {len(listed) - 4} more"
    numbers = tuple(printed_in([[c.derived, c.claimed] for cs in all_checks for c in cs]))
    status = ("exact" if not numbers else
              {"holds": "robust", "fails": "robust", "undetermined": "rounding decides"}.get(verdict, "unknown"))
    first = per_row[0][1].rounding if len(per_row) == 1 else Rounding(status)
    rounding = Rounding(status, first.range_of, first.low, first.high, first.at_printed, numbers)
    ev["method"] = "each row over every admissible value of its printed cells (interval branch and bound)"
    return Outcome(verdict, head + tail, ev, rounding)


def _shared(all_checks) -> set:
    seen: dict = {}
    for i, checks in enumerate(all_checks):
        for c in checks:
            for p in constants_of([c.derived, c.claimed]):
                if not p.exact:
                    seen.setdefault(p, set()).add(i)
    return {p for p, rows in seen.items() if len(rows) > 1}


KIND = register(Kind(
    "table",
    (Field("columns", COLUMNS, True, "column names (a name of [symbols] is that symbol)"),
     Field("rows", ROWS, True, "one list of values per row"),
     Field("formula", RELATIONS, True, "printed column == expression of the others (or a list of relations)"),
     Field("labels", TEXTS, doc="one label per row"),
     Field("tolerance", RELATIVE_TOLERANCE, doc="relative tolerance (with ==)"),
     Field("abs_tolerance", TOLERANCE, doc="absolute tolerance (with ==)")),
    evaluate,
    check=check,
    doc="Checks every row against the formula over the admissible values of its printed cells; fails with the "
        "failing rows listed.",
    precision="box",
))
