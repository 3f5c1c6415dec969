"""Verdicts: checking each claim of a claims file.

Every evaluator returns a :class:`Verdict`: ``holds`` (proved symbolically,
computed exactly at the stated point, or given by a Lean theorem), ``fails``
(with the derived value or a counterexample), ``conditional`` (holds only
under a condition the engine states), or ``inconclusive`` (the engine could not
decide; it says why).  Numeric sampling alone never yields ``holds`` for a
claim about a whole region: without a proof such a claim is inconclusive,
however many points agree.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import mpmath
import numpy as np
import sympy as sp

from pysym.audit.schema import AuditInputError, Claim, ClaimsFile
from pysym.derive import numeric, prove
from pysym.derive.core import Assumption, Derivation, Premise, Var
from pysym.derive.optimize import compute_optimal, minimize

__all__ = ["Verdict", "evaluate"]

SAMPLES = 48  # configurations sampled by the argmin-based evaluators
SEED = 20261121


@dataclass
class Verdict:
    paper: str
    claim: Claim
    verdict: str
    summary: str
    evidence: dict = field(default_factory=dict)

    @property
    def matches(self) -> bool:
        return self.verdict == self.claim.expected

    def to_json(self) -> dict:
        return {
            "paper": self.paper,
            "claim": self.claim.id,
            "kind": self.claim.kind,
            "where": self.claim.where,
            "quote": self.claim.quote,
            "verdict": self.verdict,
            "expected": self.claim.expected,
            "matches": self.matches,
            "evidence": {"summary": self.summary, **{k: _jsonable(v) for k, v in self.evidence.items()}},
        }


def _jsonable(v):
    if isinstance(v, dict):
        return {str(k): _jsonable(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_jsonable(x) for x in v]
    if isinstance(v, (str, int, bool)) or v is None:
        return v
    if isinstance(v, float):
        return float(f"{v:.12g}")
    if isinstance(v, (mpmath.mpf, sp.Float)):
        return float(mpmath.nstr(mpmath.mpf(v), 12))
    if isinstance(v, sp.Basic):
        return sp.sstr(v)
    return str(v)


def _num(v, digits: int = 8) -> str:
    if isinstance(v, sp.Basic) and not v.is_number:
        return sp.sstr(v)
    try:
        return mpmath.nstr(mpmath.mpf(sp.N(v, 30)) if isinstance(v, sp.Basic) else mpmath.mpf(v), digits)
    except (TypeError, ValueError):
        return str(v)


# --------------------------------------------------------------------------- context


class _Context:
    """Symbols, ranges and helpers for one claim (regions override ranges)."""

    def __init__(self, cf: ClaimsFile, claim: Claim, region: dict | None = None):
        self.cf, self.claim = cf, claim
        self.region = {}
        for name, rng in (region or {}).items():
            if name not in cf.symbols:
                raise AuditInputError(cf.path, claim.id, f"`region` names unknown symbol `{name}`")
            if not (isinstance(rng, list) and len(rng) == 2):
                raise AuditInputError(cf.path, claim.id, f"`region.{name}` must be [low, high]")
            self.region[name] = (cf.parse(claim, f"region.{name}", rng[0]), cf.parse(claim, f"region.{name}", rng[1]))
        self.deriv = Derivation(
            f"{cf.paper.id}:{claim.id}", claim.id,
            vars=[Var(s.name, s.low, s.high, s.description, integer=s.integer) for s in cf.symbols.values()])

    def order(self):
        return self.deriv.order(self.region)

    def domain(self):
        return self.deriv.domain(self.region)

    def symbols(self):
        return self.deriv.symbols()


def _parse_ranges(cf: ClaimsFile, claim: Claim, key: str) -> dict:
    raw = claim.fields.get(key)
    if not isinstance(raw, dict) or not raw:
        raise AuditInputError(cf.path, claim.id, f"`{key}` must be a table like {{ x = [low, high] }}")
    out = {}
    for name, rng in raw.items():
        if name not in cf.symbols:
            raise AuditInputError(cf.path, claim.id, f"`{key}` names unknown symbol `{name}`")
        if not (isinstance(rng, list) and len(rng) == 2):
            raise AuditInputError(cf.path, claim.id, f"`{key}.{name}` must be [low, high]")
        out[cf.symbols[name].symbol] = (cf.parse(claim, key, rng[0]), cf.parse(claim, key, rng[1]))
    return out


def _parse_point(cf: ClaimsFile, claim: Claim, key: str) -> dict:
    raw = claim.fields.get(key, {})
    if not isinstance(raw, dict):
        raise AuditInputError(cf.path, claim.id, f"`{key}` must be a table like {{ x = 3.0 }}")
    out = {}
    for name, val in raw.items():
        if name not in cf.symbols:
            raise AuditInputError(cf.path, claim.id, f"`{key}` names unknown symbol `{name}`")
        v = cf.parse(claim, key, val)
        sym = cf.symbols[name].symbol
        # numbers become 50-digit floats: exact powers like 3e10**(2383/10000) would explode
        out[sym] = sp.Float(v, numeric.DIGITS) if v.is_number and not sym.is_integer else v
    return out


def _var(cf: ClaimsFile, claim: Claim, key: str, value=None) -> sp.Symbol:
    name = claim.fields.get(key) if value is None else value
    if not isinstance(name, str) or name not in cf.symbols:
        raise AuditInputError(cf.path, claim.id, f"`{key}` must name a symbol of [symbols] (got {name!r})")
    return cf.symbols[name].symbol


# --------------------------------------------------------------------------- relations


_RELS = {"<=": sp.Le, "<": sp.Lt, ">=": sp.Ge, ">": sp.Gt, "==": sp.Eq}


def _relation_verdict(cf, claim, ctx: _Context, lhs, rel: str, rhs, what: str,
                      shown: str | None = None) -> tuple[str, str, dict]:
    """Prove ``lhs rel rhs`` on the region, else look for a counterexample."""
    order = ctx.order()
    if rel == "==":
        p = prove.prove_equal(lhs, rhs, order)
    else:
        small, big = (lhs, rhs) if rel in ("<=", "<") else (rhs, lhs)
        p = (prove.prove_positive if rel in ("<", ">") else prove.prove_nonnegative)(big - small, order)
    relation = _RELS[rel](lhs, rhs, evaluate=False)
    check = numeric.check(relation, ctx.domain(), n=400)
    ev = {"statement": sp.sstr(relation), "points": check.points}
    if not check.ok and check.counterexample is not None:
        names = {str(x) for x in relation.free_symbols}
        ce = _smallest_counterexample(relation, ctx) or {k: v for k, v in check.counterexample.items()
                                                         if k in names}
        if "lhs" not in ce:
            pt = {sym: sp.Float(ce[str(sym)], 30) if not sym.is_integer else sp.Integer(ce[str(sym)])
                  for sym in relation.free_symbols if str(sym) in ce}
            try:
                ce["lhs"], ce["rhs"] = _num(relation.lhs.subs(pt), 10), _num(relation.rhs.subs(pt), 10)
            except (TypeError, ValueError):
                pass
        ev["counterexample"] = ce
        ev["method"] = "counterexample (mpmath, 50 digits)"
        return "fails", f"{what} fails: {_describe_point(ce)}", ev
    if p.ok:
        ev["method"] = "proved (SymPy)"
        ev["proof"] = p.how
        shown = shown or sp.sstr(relation)
        shown = shown if len(shown) <= 90 else shown[:87] + "..."
        return "holds", f"proved: {shown} ({p.how})", ev
    if not check.ok:
        ev["method"] = "numeric"
        return "inconclusive", f"could not evaluate {what}: {check.detail}", ev
    ev["method"] = "numeric (no proof)"
    return "inconclusive", (f"{what}: no counterexample at {check.points} sampled points, but no symbolic "
                            "proof either"), ev


def _describe_point(ce: dict) -> str:
    pt = ", ".join(f"{k} = {v}" for k, v in ce.items() if k not in ("lhs", "rhs"))
    if "lhs" in ce:
        return f"at {pt}: left side {ce['lhs']}, right side {ce['rhs']}"
    return f"at {pt}"


def _smallest_counterexample(relation, ctx: _Context) -> dict | None:
    """A counterexample that is easy to check by hand: small values of the
    integer symbols (from their lower bounds), or simple values (the bounds,
    1, 2, 10) of every symbol."""
    dom = ctx.domain()
    free = relation.free_symbols
    ranges = [r for r in dom.ranges if r.symbol in free]
    if not ranges or len(ranges) > 6:
        return None
    if not all(r.integer for r in ranges) or len(ranges) > 4:
        return _simple_counterexample(relation, ranges)
    syms = [r.symbol for r in ranges]
    lhs_f = sp.lambdify(syms, relation.lhs, modules="mpmath")
    rhs_f = sp.lambdify(syms, relation.rhs, modules="mpmath")
    op = relation.rel_op
    best = None
    with mpmath.workdps(numeric.DIGITS):
        for total in range(0, 40):
            for combo in _compositions(total, len(syms)):
                point, vals = {}, []
                ok = True
                for r, off in zip(ranges, combo):
                    lo = sp.sympify(r.low).subs(point)
                    hi = sp.sympify(r.high).subs(point)
                    v = int(math.ceil(float(lo))) + off
                    if v > float(hi):
                        ok = False
                        break
                    point[r.symbol] = sp.Integer(v)
                    vals.append(mpmath.mpf(v))
                if not ok:
                    continue
                try:
                    a, b = lhs_f(*vals), rhs_f(*vals)
                except (ValueError, ZeroDivisionError):
                    continue
                holds = {"<=": a <= b, "<": a < b, ">=": a >= b, ">": a > b,
                         "==": abs(a - b) <= mpmath.mpf(10) ** -40 * (1 + abs(a))}[op]
                if not holds:
                    best = {str(s): int(v) for s, v in point.items()}
                    best.update(lhs=mpmath.nstr(a, 10), rhs=mpmath.nstr(b, 10))
                    return best
    return best


def _simple_counterexample(relation, ranges) -> dict | None:
    syms = [r.symbol for r in ranges]
    lhs_f = sp.lambdify(syms, relation.lhs, modules="mpmath")
    rhs_f = sp.lambdify(syms, relation.rhs, modules="mpmath")
    op = relation.rel_op

    def candidates(r, point):
        try:
            lo = float(sp.N(sp.sympify(r.low).subs(point)))
        except TypeError:
            lo = 1.0
        try:
            hi = float(sp.N(sp.sympify(r.high).subs(point)))
        except TypeError:  # the bound depends on a symbol outside the relation
            hi = max(lo + 1, 2 * lo)
        vals = [lo, lo + 1, 2 * lo, 1, 2, 10, hi] if r.integer else [lo, 1, 2, 10, 2 * lo, hi]
        out = []
        for v in vals:
            v = float(math.ceil(v)) if r.integer else v
            if lo <= v <= hi and v not in out:
                out.append(v)
        return out

    with mpmath.workdps(numeric.DIGITS):
        def search(i, point, vals):
            if i == len(ranges):
                try:
                    a, b = lhs_f(*vals), rhs_f(*vals)
                except (ValueError, ZeroDivisionError, TypeError):
                    return None
                ok = {"<=": a <= b, "<": a < b, ">=": a >= b, ">": a > b,
                      "==": abs(a - b) <= mpmath.mpf(10) ** -40 * (1 + abs(a) + abs(b))}[op]
                if ok:
                    return None
                out = {str(s): (int(v) if r.integer else _num(v, 6)) for s, v, r in zip(syms, vals, ranges)}
                out.update(lhs=mpmath.nstr(a, 10), rhs=mpmath.nstr(b, 10))
                return out
            r = ranges[i]
            for v in candidates(r, point):
                got = search(i + 1, {**point, r.symbol: sp.Float(v)}, vals + [mpmath.mpf(v)])
                if got:
                    return got
            return None

        return search(0, {}, [])


def _compositions(total: int, parts: int):
    if parts == 1:
        yield (total,)
        return
    for i in range(total + 1):
        for rest in _compositions(total - i, parts - 1):
            yield (i,) + rest


# --------------------------------------------------------------------------- kinds


def _sides(cf, claim):
    lhs, rhs = cf.parse(claim, "lhs"), cf.parse(claim, "rhs")
    if "subs" in claim.fields:
        raw = claim.fields["subs"]
        if not isinstance(raw, dict):
            raise AuditInputError(cf.path, claim.id, "`subs` must be a table like { k = \"T/E\" }")
        subs = {_var(cf, claim, "subs", n): cf.parse(claim, f"subs.{n}", v) for n, v in raw.items()}
        lhs, rhs = lhs.subs(subs), rhs.subs(subs)
    return lhs, rhs


def _inequality(cf, claim):
    rel = claim.fields["rel"]
    if rel not in ("<=", "<", ">=", ">"):
        raise AuditInputError(cf.path, claim.id, "`rel` must be one of <=, <, >=, >")
    ctx = _Context(cf, claim, claim.fields.get("region"))
    lhs, rhs = _sides(cf, claim)
    verdict, summary, ev = _relation_verdict(cf, claim, ctx, lhs, rel, rhs, "the inequality",
                                             f"{claim.fields['lhs']} {rel} {claim.fields['rhs']}")
    if verdict == "fails" and "condition" in claim.fields:
        return _split_by_condition(cf, claim, ctx, _RELS[rel](lhs, rhs, evaluate=False), ev)
    return verdict, summary, ev


def _split_by_condition(cf, claim, ctx, relation, ev):
    """Does the stated condition separate the points where the relation holds?"""
    cond = cf.parse(claim, "condition")
    pts = ctx.domain().sample(400, SEED)
    syms = sorted(relation.free_symbols | cond.free_symbols, key=str)
    rel_f = numeric.compile_relation(relation, syms)
    cond_f = numeric.compile_relation(cond, syms)
    agree = n_true = 0
    with mpmath.workdps(numeric.DIGITS):
        for pt in pts:
            args = [pt[s] for s in syms]
            r, c = bool(rel_f(*args)), bool(cond_f(*args))
            agree += r == c
            n_true += r
    ev["condition"] = str(claim.fields["condition"])
    ev["condition_agreement"] = f"{agree} of {len(pts)}"
    if agree == len(pts):
        return "conditional", (f"holds exactly when {ev['condition']} at all {len(pts)} sampled points "
                               f"({n_true} satisfy it); the split is sampled, not proved"), ev
    return "fails", f"fails (e.g. {_describe_point(ev['counterexample'])}), and {ev['condition']} does not "                     f"separate where it holds ({agree} of {len(pts)} points agree)", ev


def _identity(cf, claim):
    ctx = _Context(cf, claim, claim.fields.get("region"))
    lhs, rhs = _sides(cf, claim)
    return _relation_verdict(cf, claim, ctx, lhs, "==", rhs, "the identity",
                             f"{claim.fields['lhs']} == {claim.fields['rhs']}")


_SIGNS = {"positive": ">", "negative": "<", "nonnegative": ">=", "nonpositive": "<="}


def _sign(cf, claim):
    sign = claim.fields["sign"]
    if sign not in _SIGNS:
        raise AuditInputError(cf.path, claim.id, f"`sign` must be one of {', '.join(_SIGNS)}")
    if "argmin" in claim.fields:
        return _argmin_trend(cf, claim, sign)
    if "expr" not in claim.fields:
        raise AuditInputError(cf.path, claim.id, "kind `sign` needs `expr` (optionally `wrt`), or `argmin`, "
                                                 "`over` and `param`")
    ctx = _Context(cf, claim, claim.fields.get("region"))
    expr = cf.parse(claim, "expr")
    what, shown = "the sign", f"{claim.fields['expr']} {_SIGNS[sign]} 0"
    if "wrt" in claim.fields:
        v = _var(cf, claim, "wrt")
        expr = sp.diff(expr, v)
        what = f"the sign of the derivative in {v}"
        shown = f"d/d{v} [{claim.fields['expr']}] {_SIGNS[sign]} 0"
    return _relation_verdict(cf, claim, ctx, expr, _SIGNS[sign], sp.Integer(0), what, shown)


def _value(cf, claim):
    at = _parse_point(cf, claim, "at")
    quantity = cf.parse(claim, "quantity")
    claimed = cf.parse(claim, "claimed").subs(at)
    ev: dict = {}
    point = dict(at)
    if "minimize" in claim.fields:
        law = cf.parse(claim, "minimize")
        box = _parse_ranges(cf, claim, "over")
        missing = (law.free_symbols - set(box)) - set(at)
        if missing:
            raise AuditInputError(cf.path, claim.id, f"`at` must fix {sorted(map(str, missing))} "
                                                     "(every symbol of the law that is not minimized)")
        box_num = {s: (float(sp.N(lo.subs(at))), float(sp.N(hi.subs(at)))) for s, (lo, hi) in box.items()}
        try:
            m = minimize(law, box_num, at)
        except ValueError as exc:
            return "inconclusive", f"could not minimize: {exc}", {}
        point.update({s: sp.Float(mpmath.nstr(v, 40), 40) for s, v in m.point.items()})
        ev["minimizer"] = {str(s): _num(v) for s, v in m.point.items()}
        ev["minimum"] = _num(m.value)
        ev["optimizer"] = m.describe()
        if not m.interior:
            ev["note"] = "the minimum lies on the boundary of the search box"
    extra = quantity.subs(point).free_symbols | claimed.free_symbols
    if extra:
        raise AuditInputError(cf.path, claim.id, f"`at` must fix {sorted(map(str, extra))} to evaluate the value")
    derived = sp.N(quantity.subs(point), 30)
    target = sp.N(claimed, 30)
    ev.update(derived=_num(derived, 10), claimed=_num(target, 10))
    diff = abs(derived - target)
    tol_rel = float(claim.fields.get("tolerance", 1e-9))
    tol_abs = float(claim.fields.get("abs_tolerance", 0))
    rel_err = diff / abs(target) if target != 0 else diff
    ev["relative_difference"] = _num(rel_err, 3)
    ok = diff <= tol_abs or rel_err <= tol_rel
    ev["method"] = "computed at 50 digits" + (" (grid + Newton minimizer)" if "minimize" in claim.fields else "")
    if ok:
        return "holds", f"derived {_num(derived)} vs claimed {_num(target)} (within tolerance)", ev
    return "fails", (f"derived {_num(derived)}, claimed {_num(target)} (relative difference "
                     f"{_num(rel_err, 3)} > tolerance {tol_rel})"), ev


def _premise(cf, claim):
    statements = claim.fields.get("_statements")
    theorem = claim.fields["theorem"]
    if statements is None:
        return "inconclusive", "no Lean statements available (the Lean check did not run)", {}
    if theorem not in statements:
        from pysym.lean.statements import resolve_names
        from pysym.errors import UserError

        try:
            theorem = resolve_names([theorem], sorted(statements))[0]
        except UserError as exc:
            raise AuditInputError(cf.path, claim.id, str(exc)) from None
    relation = cf.parse(claim, "statement")
    # Lean binders named like a symbol of the file stand for that symbol
    bind = {name: spec.symbol for name, spec in cf.symbols.items()}
    bind.update({k: cf.parse(claim, f"bind.{k}", v) for k, v in claim.fields.get("bind", {}).items()})
    terms = {k: cf.parse(claim, f"terms.{k}", v) for k, v in claim.fields.get("terms", {}).items()}
    hyps = claim.fields.get("hypotheses", {})
    if not isinstance(hyps, dict):
        raise AuditInputError(cf.path, claim.id, "`hypotheses` must map a fragment of a Lean hypothesis to "
                                                 "the reason it is granted")
    names = {frag: str(why) for frag, why in hyps.items()}
    ctx = _Context(cf, claim)
    d = ctx.deriv
    d.assumptions = [Assumption(str(why), str(why)) for why in hyps.values()]
    step = Premise(claim.id, theorem, relation, bind=bind, terms=terms, hypotheses=names)
    res = step.check(d, {"statements": statements, "steps": {}})
    ev = {"theorem": theorem, "lean_statement": statements[theorem], "method": "Lean theorem (kernel-checked)",
          "detail": res.detail}
    if res.ok:
        return "holds", f"the Lean theorem `{theorem}` proves it ({res.detail.split('; ', 1)[-1]})", ev
    if res.undischarged and "does not match" not in res.detail:
        cond = " and ".join(res.undischarged)
        ev["condition"] = cond
        return "conditional", (f"holds only if {cond}: the Lean theorem `{theorem}` needs it, and the claim's "
                               "ranges do not guarantee it"), ev
    return "fails", res.detail, ev


# ---- exponents ----------------------------------------------------------------


def _exponent(cf, claim):
    law = cf.parse(claim, "law")
    scale = _var(cf, claim, "scale")
    at = _parse_point(cf, claim, "at")
    claimed = cf.parse(claim, "claimed")
    mins = claim.fields.get("minimize", [])
    mins = [mins] if isinstance(mins, str) else list(mins)
    mvars = [_var(cf, claim, "minimize", m) for m in mins]
    quantity = cf.parse(claim, "quantity")
    subs = {_var(cf, claim, "subs", n): cf.parse(claim, f"subs.{n}", v)
            for n, v in (claim.fields.get("subs") or {}).items()}
    if subs:
        law, quantity = law.subs(subs), quantity.subs(subs)
    for name, val in (claim.fields.get("limit") or {}).items():
        v = _var(cf, claim, "limit", name)
        target = cf.parse(claim, f"limit.{name}", val)
        law, quantity = sp.limit(law, v, target), sp.limit(quantity, v, target)
    eliminated = None
    if "constraint" in claim.fields:
        text = claim.fields["constraint"]
        if not isinstance(text, str) or text.count("=") != 1:
            raise AuditInputError(cf.path, claim.id, "`constraint` must be an equation like \"C = 6*N*D\"")
        left, right = text.split("=")
        eq = sp.Eq(cf.parse(claim, "constraint", left), cf.parse(claim, "constraint", right))
        eliminated = _var(cf, claim, "eliminate")
        sol = sp.solve(eq, eliminated)
        if len(sol) != 1:
            raise AuditInputError(cf.path, claim.id, f"cannot solve the constraint for `{eliminated}`")
        elim_expr = sol[0]
    ev: dict = {"claimed": sp.sstr(claimed)}
    # closed-form engine for sums of power terms under C = kappa N D
    if eliminated is not None and len(mvars) == 1 and scale in elim_expr.free_symbols:
        kappa = sp.simplify(scale / (elim_expr * mvars[0]))
        if not kappa.free_symbols:
            try:
                r = compute_optimal(law, mvars[0], eliminated, scale, kappa)
            except ValueError:
                r = None
            if r is not None:
                q = quantity
                exps = {mvars[0]: r.exponent_N, eliminated: r.exponent_D}
                if q in exps:
                    derived = exps[q]
                elif q == law or sp.simplify(q - law) == 0:
                    derived = r.exponent_loss
                    ev["note"] = "the exponent of the reducible loss L* - E"
                else:
                    derived = None
                if derived is not None:
                    return _compare_exponent(cf, claim, derived, claimed, at, ev, r.method, r)
    # symbolic: stationarity in one variable
    f = law if eliminated is None else law.subs(eliminated, elim_expr)
    q = quantity
    if eliminated is not None:
        q = q.subs(eliminated, elim_expr)
    derived = None
    if len(mvars) == 1 and not prove.heavy(f, mvars):
        v = mvars[0]
        try:
            with prove.budget(10):
                sols = [s for s in sp.solve(sp.diff(f, v), v) if s.is_positive is not False and not s.has(sp.I)]
        except (prove.OutOfTime, NotImplementedError, ValueError, TypeError):
            sols = []
        if len(sols) == 1:
            derived = _scaling_exponent(q.subs(v, sols[0]), scale, ev)
            if derived is not None:
                ev["optimum"] = sp.sstr(sols[0])
    elif not mvars:
        derived = _scaling_exponent(q, scale, ev)
    if derived is not None:
        return _compare_exponent(cf, claim, derived, claimed, at, ev, "closed form (SymPy)", None)
    return _numeric_exponent(cf, claim, f, q, scale, mvars, at, claimed, ev)


def _elasticity(q, scale):
    """d log q / d log scale, term by term when q is a sum of power-law terms
    sharing one exponent (which SymPy's simplify often fails to see)."""
    terms = sp.Add.make_args(sp.expand(q))
    es = [sp.simplify(sp.expand_log(scale * sp.diff(sp.log(t), scale), force=True)) for t in terms]
    if len(es) > 1 and all(not e.has(scale) for e in es) and all(prove.prove_equal(e, es[0]).ok for e in es[1:]):
        return es[0]
    return sp.simplify(sp.expand_log(scale * sp.diff(sp.log(q), scale), force=True))


def _scaling_exponent(q, scale, ev):
    """d log q / d log scale, or its limit as scale grows (noted in ``ev``);
    None if SymPy cannot get it within the time budget."""
    try:
        with prove.budget(10):
            e = _elasticity(q, scale)
            if e.has(scale):
                e = sp.limit(e, scale, sp.oo)
                ev["note"] = "asymptotic exponent (scale -> infinity)"
            return e
    except (prove.OutOfTime, NotImplementedError, ValueError):
        return None


def _compare_exponent(cf, claim, derived, claimed, at, ev, method, engine):
    derived = sp.simplify(derived)
    ev["derived"] = sp.sstr(derived)
    if derived.is_number and not derived.is_Integer:
        ev["derived"] += f" = {_num(derived, 6)}"
    ev["method"] = method
    if engine is not None and engine.N_star is not None:
        ev["optimal_allocation"] = f"N* = {sp.sstr(engine.N_star)}"
    same = prove.prove_equal(derived, claimed).ok
    if not same and (derived.free_symbols | claimed.free_symbols):
        dnum, cnum = sp.N(derived.subs(at)), sp.N(claimed.subs(at))
        if dnum.is_number and cnum.is_number:
            ev["derived_value"], ev["claimed_value"] = _num(dnum), _num(cnum)
            same = abs(dnum - cnum) <= float(claim.fields.get("tolerance", 1e-9)) * max(1, abs(cnum))
    elif not same:
        same = abs(sp.N(derived) - sp.N(claimed)) <= float(claim.fields.get("tolerance", 1e-9))
    coef_note = ""
    if same and "claimed_coefficient" in claim.fields and engine is not None and engine.coefficient_N is not None:
        cc = sp.N(cf.parse(claim, "claimed_coefficient").subs(at))
        q = cf.parse(claim, "quantity")
        coef = engine.coefficient_N if q == engine.N else engine.coefficient_D
        got = sp.N(coef.subs(at))
        tol = float(claim.fields.get("coefficient_tolerance", 1e-6))
        ev["coefficient"], ev["claimed_coefficient"] = _num(got), _num(cc)
        if abs(got - cc) > tol * abs(cc):
            return "fails", f"exponent {ev['derived']} matches, but the coefficient is {_num(got)}, not {_num(cc)}", ev
        coef_note = f"; coefficient {_num(got)}"
    if same:
        return "holds", f"derived exponent {ev['derived']} = claimed{coef_note}", ev
    return "fails", f"derived exponent {ev['derived']}, claimed {sp.sstr(claimed)}", ev


def _numeric_exponent(cf, claim, f, q, scale, mvars, at, claimed, ev):
    rng = claim.fields.get("range")
    if not (isinstance(rng, list) and len(rng) == 2):
        return "inconclusive", ("no closed form found, and no `range` for a numeric check of the exponent"), ev
    lo, hi = float(sp.N(cf.parse(claim, "range", rng[0]))), float(sp.N(cf.parse(claim, "range", rng[1])))
    rest = (f.free_symbols | q.free_symbols) - set(mvars) - {scale} - set(at)
    if rest:
        raise AuditInputError(cf.path, claim.id, f"`at` must fix {sorted(map(str, rest))} for a numeric exponent")
    scales = [lo * (hi / lo) ** (i / 8) for i in range(9)]
    qs = []
    for c in scales:
        fixed = dict(at)
        fixed[scale] = sp.Float(c, 30)
        if mvars:
            box = {}
            for v in mvars:
                spec = cf.symbols[str(v)]
                box[v] = (float(sp.N(spec.low.subs(fixed))), float(sp.N(spec.high.subs(fixed))))
            m = minimize(f, box, fixed)
            pt = {**fixed, **{s: sp.Float(mpmath.nstr(x, 30), 30) for s, x in m.point.items()}}
        else:
            pt = fixed
        qs.append(float(sp.N(q.subs(pt))))
    local = [math.log(qs[i + 1] / qs[i]) / math.log(scales[i + 1] / scales[i]) for i in range(len(qs) - 1)]
    target = float(sp.N(claimed.subs(at)))
    tol = float(claim.fields.get("tolerance", 0.01))
    ev.update(method="numeric: optimum at 9 scales, local log-log slopes", local_exponents=[round(x, 6) for x in local],
              claimed_value=round(target, 6))
    if all(abs(x - target) <= tol for x in local):
        return "holds", f"local exponents {local[0]:.4f} ... {local[-1]:.4f} match {target:.4f}", ev
    if abs(local[-1] - target) <= tol:
        return "conditional", (f"only asymptotically: local exponents move from {local[0]:.4f} to "
                               f"{local[-1]:.4f} (claimed {target:.4f}) over {str(scale)} in [{lo:g}, {hi:g}]"), ev
    return "fails", f"local exponents {local[0]:.4f} ... {local[-1]:.4f}, claimed {target:.4f}", ev


# ---- optima: location, independence, comparative statics ------------------------


def _sampler(cf, claim, region_key: str = "region", exclude=()):
    """Configurations of the non-optimized symbols: seeded draws in the
    region (log-uniform over wide ranges)."""
    ctx = _Context(cf, claim, claim.fields.get(region_key))
    dom = ctx.domain()
    pts = dom.sample(SAMPLES, SEED)
    return ctx, pts


def _grid_argmin(f_np, lo: float, hi: float, args, n: int = 2001):
    """Global argmin on [lo, hi] (log-spaced grid if the range is wide), then
    a bracketed refinement; returns (x, where) with where in lower|upper|interior."""
    if lo <= 0 or hi / lo < 20:
        xs = np.linspace(lo, hi, n)
    else:
        xs = np.geomspace(lo, hi, n)
    with np.errstate(all="ignore"):
        vals = np.asarray(f_np(xs, *args), dtype=float)
    vals = np.where(np.isfinite(vals), vals, np.inf)
    i = int(np.argmin(vals))
    # values at the ends that tie the best within rounding count as the end
    if i == n - 1 or vals[-1] <= vals[i] + 1e-12 * abs(vals[i]):
        return hi, "upper"
    if i == 0:
        return lo, "lower"
    a, b = xs[i - 1], xs[i + 1]
    for _ in range(80):  # golden section inside the bracket
        c, d = b - (b - a) * 0.618033988749895, a + (b - a) * 0.618033988749895
        fc, fd = f_np(np.array([c]), *args)[0], f_np(np.array([d]), *args)[0]
        if fc < fd:
            b = d
        else:
            a = c
    return (a + b) / 2, "interior"


def _optimum_setup(cf, claim):
    law = cf.parse(claim, "law")
    v = _var(cf, claim, "argmin")
    over = claim.fields.get("over")
    if not (isinstance(over, list) and len(over) == 2):
        raise AuditInputError(cf.path, claim.id, "`over` must be [low, high] for the argmin variable")
    lo, hi = cf.parse(claim, "over", over[0]), cf.parse(claim, "over", over[1])
    others = sorted(law.free_symbols - {v} | (lo.free_symbols | hi.free_symbols), key=str)
    f_np = sp.lambdify([v, *others], law, modules="numpy")
    lo_f = sp.lambdify(others, lo, modules="math")
    hi_f = sp.lambdify(others, hi, modules="math")
    return law, v, lo, hi, others, f_np, lo_f, hi_f


def _optimum(cf, claim):
    location = claim.fields["location"]
    if location not in ("interior", "lower", "upper"):
        raise AuditInputError(cf.path, claim.id, "`location` must be interior, lower or upper")
    law, v, lo, hi, others, f_np, lo_f, hi_f = _optimum_setup(cf, claim)
    ctx, pts = _sampler(cf, claim)
    ev: dict = {}
    # a proof that the upper (or lower) end is the global minimizer for every configuration
    proof_end = None
    for end, bound in (("upper", hi), ("lower", lo)):
        p = prove.prove_nonnegative(law - law.subs(v, bound), ctx.order() + _between(v, lo, hi))
        if p.ok:
            proof_end = end
            ev["proof"] = f"L({v}) - L({v} = {sp.sstr(bound)}) >= 0 on the whole range: {p.how}"
            break
    cond = cf.parse(claim, "condition") if "condition" in claim.fields else None
    rows = []
    for pt in pts:
        args = [float(pt[s]) for s in others]
        a, b = float(lo_f(*args)), float(hi_f(*args))
        x, where = _grid_argmin(f_np, a, b, args)
        ok = where == location
        c_ok = None if cond is None else bool(cond.subs({s: sp.Float(float(pt[s]), 20) for s in others}))
        rows.append((pt, x, where, ok, c_ok))
    n_ok = sum(r[3] for r in rows)
    ev["configurations"] = len(rows)
    ev["matching"] = n_ok
    ex_ok = next((r for r in rows if r[3]), None)
    ex_bad = next((r for r in rows if not r[3]), None)
    if ex_bad:
        ev["counterexample"] = {**{str(s): _num(ex_bad[0][s], 6) for s in others}, "argmin": _num(ex_bad[1], 6),
                                "location": ex_bad[2]}
    if ex_ok:
        ev["example"] = {**{str(s): _num(ex_ok[0][s], 6) for s in others}, "argmin": _num(ex_ok[1], 6)}
    if proof_end is not None:
        ev["method"] = "proved (SymPy) and sampled"
        if proof_end == location:
            return "holds", f"the minimizer is at the {proof_end} end for every configuration (proved)", ev
        return "fails", (f"the minimizer is at the {proof_end} end ({sp.sstr(hi if proof_end == 'upper' else lo)}) "
                         f"for every configuration (proved), not {location}"), ev
    ev["method"] = f"global argmin at {len(rows)} sampled configurations (grid + refinement)"
    if n_ok == len(rows):
        return "inconclusive", (f"the minimizer is {location} in all {len(rows)} sampled configurations, but no "
                                "proof covers the whole region"), ev
    if n_ok == 0:
        return "fails", (f"the minimizer is never {location} in {len(rows)} sampled configurations, e.g. "
                         f"{_describe_cfg(ev['counterexample'])}"), ev
    if cond is not None:
        agree = all(r[3] == r[4] for r in rows)
        ev["condition"] = str(claim.fields["condition"])
        ev["condition_separates"] = agree
        if agree:
            return "conditional", (f"holds exactly when {ev['condition']} in all {len(rows)} sampled configurations "
                                   f"({n_ok} satisfy it)"), ev
    return "conditional", (f"holds in {n_ok} of {len(rows)} sampled configurations, e.g. "
                           f"{_describe_cfg(ev['example'])}; fails e.g. {_describe_cfg(ev['counterexample'])}"), ev


def _between(v, lo, hi):
    pairs = []
    if isinstance(hi, sp.Symbol):
        pairs.append((v, hi))
    return pairs


def _describe_cfg(cfg: dict) -> str:
    return "{" + ", ".join(f"{k} = {val}" for k, val in cfg.items()) + "}"


def _independence(cf, claim):
    law = cf.parse(claim, "law")
    argv = claim.fields["argmin"]
    argv = [argv] if isinstance(argv, str) else list(argv)
    vs = [_var(cf, claim, "argmin", a) for a in argv]
    of = claim.fields["of"]
    of = [of] if isinstance(of, str) else list(of)
    ofs = [_var(cf, claim, "of", o) for o in of]
    box = _parse_ranges(cf, claim, "over")
    at = _parse_point(cf, claim, "at")
    ev: dict = {}
    sols = []
    if not prove.heavy(law, vs):
        try:
            with prove.budget(15):
                sols = sp.solve([sp.diff(law, v) for v in vs], vs, dict=True)
        except (prove.OutOfTime, NotImplementedError, ValueError, TypeError):
            sols = []
    sols = [s for s in sols if all(val.is_real is not False and not val.has(sp.I) for val in s.values())]
    inside = []
    for s in sols:
        try:
            fine = all(float(sp.N(box[v][0])) <= float(sp.N(s[v])) <= float(sp.N(box[v][1])) for v in vs)
        except (TypeError, ValueError):
            fine = True  # symbolic: keep
        if fine:
            inside.append(s)
    if len(inside) == 1:
        s = inside[0]
        dep = sorted({str(x) for val in s.values() for x in val.free_symbols} & {str(o) for o in ofs})
        ev["stationary_point"] = {str(k): sp.sstr(val) for k, val in s.items()}
        ev["values"] = {str(k): _num(val) for k, val in s.items() if val.is_number}
        ev["method"] = "solved the stationarity conditions (SymPy)"
        if not dep:
            hess = sp.hessian(law, vs).subs(s)
            ctx = _Context(cf, claim, claim.fields.get("region"))
            proved = all(prove.prove_positive(sp.Matrix(hess[:i, :i]).det(), ctx.order()).ok
                         for i in range(1, len(vs) + 1))
            ev["second_order"] = "Hessian positive definite (proved)" if proved else "Hessian not proved positive"
            if proved:
                return "holds", (f"the unique stationary point {ev['stationary_point']} is a minimum and does not "
                                 f"involve {', '.join(of)}"), ev
            return "inconclusive", "the stationary point is free of those variables, but its second-order " \
                                   "condition could not be proved", ev
        return "fails", f"the optimum depends on {', '.join(dep)}: {ev['stationary_point']}", ev
    # structural: first-order conditions that do not involve the `of` variables
    firsts = [sp.diff(law, v) for v in vs]
    if not any(f.free_symbols & set(ofs) for f in firsts):
        ctx, pts = _sampler(cf, claim)
        base = {s: sp.Float(float(pts[0][s]), 30) for s in law.free_symbols if s not in vs}
        base.update(at)
        bx = {v: (float(sp.N(box[v][0].subs(base))), float(sp.N(box[v][1].subs(base)))) for v in vs}
        m = minimize(law, bx, base)
        ev["method"] = "first-order conditions (SymPy) + one minimization"
        ev["minimizer"] = {str(k): _num(x) for k, x in m.point.items()}
        if m.interior:
            return "holds", (f"the first-order conditions dL/d{', dL/d'.join(argv)} = 0 do not involve "
                             f"{', '.join(of)}, and the minimum is interior ({m.describe()}): the minimizer cannot "
                             "depend on them"), ev
    # numeric: argmin at sampled values of the `of` variables
    ctx, pts = _sampler(cf, claim)
    base_pt = pts[0]
    found = []
    for pt in pts[:6]:
        fixed = {s: sp.Float(float((pt if s in ofs else base_pt)[s]), 30) for s in law.free_symbols if s not in vs}
        fixed.update(at)
        bx = {v: (float(sp.N(box[v][0].subs(fixed))), float(sp.N(box[v][1].subs(fixed)))) for v in vs}
        m = minimize(law, bx, fixed)
        found.append((fixed, m))
    base = found[0][1].point
    for fixed, m in found[1:]:
        for v in vs:
            if abs(m.point[v] - base[v]) > 1e-6 * (1 + abs(base[v])):
                ev["counterexample"] = {"argmin_1": {str(k): _num(x) for k, x in base.items()},
                                        "argmin_2": {str(k): _num(x) for k, x in m.point.items()},
                                        "at_2": {str(k): _num(x) for k, x in fixed.items() if k in ofs}}
                ev["method"] = "numeric minimization at sampled values"
                return "fails", f"the argmin moves with {', '.join(of)}: {ev['counterexample']}", ev
    ev["method"] = "numeric minimization at sampled values"
    return "inconclusive", (f"the argmin did not move across {len(found)} sampled values of {', '.join(of)}, "
                            "but no closed form was found to prove it"), ev


def _likely_signs(expr, ctx) -> list[int]:
    """[+1, -1] or [-1, +1]: the sign ``expr`` takes at a sampled point first."""
    try:
        pts = ctx.domain().sample(4, SEED)
        vals = [numeric.evaluate(expr, {s: pt[s] for s in expr.free_symbols}) for pt in pts]
        if sum(1 for v in vals if v < 0) > len(vals) / 2:
            return [-1, 1]
    except (ValueError, KeyError, TypeError, ZeroDivisionError):
        pass
    return [1, -1]


def _argmin_trend(cf, claim, sign):
    """Sign of d(argmin)/d(param): implicit differentiation at interior minima
    (proved after eliminating one parameter with the stationarity condition)
    plus global argmins at sampled configurations."""
    law, v, lo, hi, others, f_np, lo_f, hi_f = _optimum_setup(cf, claim)
    theta = _var(cf, claim, "param")
    if theta not in others:
        raise AuditInputError(cf.path, claim.id, f"`param` {theta} does not appear in the law or its range")
    want = {"positive": 1, "nonnegative": 1, "negative": -1, "nonpositive": -1}[sign]
    ev: dict = {}
    # symbolic interior sign: sign(dv*/dtheta) = sign(-L_{v theta}) where L_vv > 0
    Fv = sp.diff(law, v)
    cross = -sp.diff(Fv, theta)
    interior_sign = None
    elim = claim.fields.get("eliminate")
    cands = [_var(cf, claim, "eliminate")] if elim else [s for s in others if s != theta]
    ctx = _Context(cf, claim, claim.fields.get("region"))
    order = ctx.order() + _between(v, lo, hi)
    for p in [None] + cands:  # first without eliminating anything
        if p is None:
            reduced, p = sp.simplify(cross), "nothing"
        else:
            try:
                with prove.budget(6):
                    sol = sp.solve(Fv, p)
            except (prove.OutOfTime, NotImplementedError, ValueError, TypeError):
                continue
            if len(sol) != 1:
                continue
            reduced = sp.simplify(cross.subs(p, sol[0]))
        weak = sign in ("nonnegative", "nonpositive")
        prover = prove.prove_nonnegative if weak else prove.prove_positive
        for guess in _likely_signs(reduced, ctx):
            if prover(guess * reduced, order).ok:
                interior_sign = guess
                break
        if interior_sign is not None:
            word = ("nonnegative" if interior_sign > 0 else "nonpositive") if weak else (
                "positive" if interior_sign > 0 else "negative")
            how = "" if p == "nothing" else f"eliminating {p} with L_{v} = 0 gives "
            ev["interior_proof"] = (f"at an interior minimum d{v}*/d{theta} = -L_{{{v}{theta}}}/L_{{{v}{v}}}; "
                                    f"{how}-L_{{{v}{theta}}} = {sp.sstr(reduced)}, which is {word} (proved)")
            break
    # numeric: global argmin at theta and theta*(1+h)
    _, pts = _sampler(cf, claim)
    k_theta = others.index(theta)
    rows = []
    for pt in pts:
        args = [float(pt[s]) for s in others]
        x0, w0 = _grid_argmin(f_np, float(lo_f(*args)), float(hi_f(*args)), args)
        args2 = list(args)
        args2[k_theta] *= 1.01
        x1, w1 = _grid_argmin(f_np, float(lo_f(*args2)), float(hi_f(*args2)), args2)
        slope = (x1 - x0) / (args2[k_theta] - args[k_theta])
        direction = 0 if abs(x1 - x0) <= 1e-7 * (1 + abs(x0)) else (1 if x1 > x0 else -1)
        rows.append((pt, x0, w0, direction, slope))
    def agrees(d):
        return d == want or (d == 0 and sign in ("nonnegative", "nonpositive"))
    by_regime: dict = {}
    for pt, x0, w0, dirn, _ in rows:
        by_regime.setdefault(w0, []).append(agrees(dirn) or (dirn == 0 and w0 != "interior"))
    ev["regimes"] = {w: f"{sum(a)} of {len(a)} agree" for w, a in sorted(by_regime.items())}
    bad = [r for r in rows if not agrees(r[3]) and not (r[3] == 0 and r[2] != "interior")]
    if bad:
        pt, x0, w0, dirn, slope = bad[0]
        ev["counterexample"] = {**{str(s): _num(pt[s], 6) for s in others}, f"{v}*": _num(x0, 6),
                                f"d{v}*/d{theta}": _num(slope, 4), "optimum": w0}
    ev["method"] = "implicit differentiation (SymPy) + global argmins at sampled configurations"
    interior_ok = interior_sign is None or interior_sign == want
    words = {1: "increases", -1: "decreases"}
    if interior_sign is not None and not interior_ok:
        boundary_ok = [w for w, a in by_regime.items() if w != "interior" and a and all(a)]
        if boundary_ok:
            return "conditional", (f"holds only where the optimum sits at the {'/'.join(boundary_ok)} end of its "
                                   f"range; at every interior minimum {v}* {words[interior_sign]} with {theta} "
                                   "(proved)"), ev
        return "fails", f"at every interior minimum {v}* {words[interior_sign]} with {theta} (proved)", ev
    if not bad:
        if interior_sign == want:
            return "holds", (f"{v}* {words[want]} with {theta} at every interior minimum (proved); the sampled "
                             "global optima agree"), ev
        return "inconclusive", (f"all {len(rows)} sampled configurations agree, but the interior sign could not "
                                "be proved"), ev
    regimes_bad = sorted({r[2] for r in bad})
    if interior_sign is None:
        return "inconclusive", (f"the sampled optima disagree with the claim where the optimum is "
                                f"{'/'.join(regimes_bad)} (e.g. {_describe_cfg(ev['counterexample'])}), and the "
                                "interior sign could not be proved"), ev
    return "conditional", (f"holds at interior minima (proved) but not where the optimum is at the "
                           f"{'/'.join(regimes_bad)} end, e.g. {_describe_cfg(ev['counterexample'])}"), ev


# --------------------------------------------------------------------------- dispatch

_EVALUATORS = {
    "value": _value,
    "exponent": _exponent,
    "sign": _sign,
    "inequality": _inequality,
    "identity": _identity,
    "independence": _independence,
    "premise": _premise,
    "optimum": _optimum,
}


def evaluate(cf: ClaimsFile, claim: Claim, statements: dict | None = None) -> Verdict:
    """The verdict on one claim (raises :class:`AuditInputError` for bad input)."""
    if claim.kind == "premise":
        claim.fields["_statements"] = statements
    try:
        verdict, summary, ev = _EVALUATORS[claim.kind](cf, claim)
    finally:
        claim.fields.pop("_statements", None)
    return Verdict(cf.paper.id, claim, verdict, summary, ev)

