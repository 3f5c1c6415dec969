"""Red team for the auditor, a third round: exact `at` values that 50 digits round, tolerances decided on
floats, an end proved to be *a* minimizer read as the only one, and an exponent that is a limit the claim does
not ask about.

Each test plants a claims file that used to get a confidently wrong verdict and asserts that the verdict is
now right or honestly inconclusive.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

from pysym.audit import load_claims_file
from pysym.audit.engine import evaluate


def _verdicts(tmp_path: Path, body: str) -> dict:
    path = tmp_path / "red3.toml"
    path.write_text(textwrap.dedent(body), encoding="utf-8")
    cf = load_claims_file(path)
    assert not cf.errors, cf.errors
    return {c.id: evaluate(cf, c) for c in cf.claims}


def test_an_exact_at_value_is_not_rounded_to_50_digits(tmp_path):
    # (x - 1/3)*10^70 at x = 1/3 + 10^-60 is 10^10, and 1/3 + 10^-60 > 1/3: both were `holds` on 50-digit floats
    v = _verdicts(tmp_path, '''
        [paper]
        id = "red3"
        title = "exact at values"

        [symbols]
        x = { description = "x", range = [0.01, 2] }
        a = { description = "a", range = [0.1, 0.9] }

        [[claim]]
        id = "tiny-eq"
        kind = "value"
        quote = "q"
        where = "w"
        expected = "holds"
        quantity = "(x - 1/3)*10**70"
        claimed = 0
        abs_tolerance = 1e-3
        at = { x = "1/3 + 10**-60" }

        [[claim]]
        id = "tiny-le"
        kind = "value"
        quote = "q"
        where = "w"
        expected = "holds"
        quantity = "x + 10**-60"
        claimed = "1/3"
        rel = "<="
        at = { x = "1/3" }

        [[claim]]
        id = "argmin-le"
        kind = "value"
        quote = "q"
        where = "w"
        expected = "holds"
        quantity = "x"
        claimed = "1/3"
        rel = "<="
        minimize = "(x - a)**2 + 1"
        over = { x = [0.01, 1] }
        at = { a = "1/3 + 10**-60" }

        [[claim]]
        id = "argmin-gt"
        kind = "value"
        quote = "q"
        where = "w"
        expected = "holds"
        quantity = "x"
        claimed = "1/3"
        rel = ">"
        minimize = "(x - a)**2 + 1"
        over = { x = [0.01, 1] }
        at = { a = "1/3 + 10**-60" }
        ''')
    assert {k: o.verdict for k, o in v.items()} == {"tiny-eq": "fails", "tiny-le": "fails", "argmin-le": "fails",
                                                    "argmin-gt": "holds"}, v
    assert "derived 1.0e+10" in v["tiny-eq"].summary, v["tiny-eq"].summary


def test_exponent_tolerances_are_decided_exactly(tmp_path):
    # the exponent 0.02 + 10^-18 is 0.01 + 10^-18 away from 0.01, outside the tolerance 0.01 (15 digits said
    # inside); the coefficient 2^(-2/3) is 1% + 1.6e-40 away from the claimed one (30 digits said inside)
    v = _verdicts(tmp_path, '''
        [paper]
        id = "red3"
        title = "exponent tolerances"

        [symbols]
        n = { description = "n", range = [1, 1e6] }
        N = { description = "N", range = [1, 1e9] }

        [[claim]]
        id = "exp-tol-edge"
        kind = "exponent"
        quote = "q"
        where = "w"
        expected = "holds"
        law = "exp((2/100 + 10**-18)*log(n))"
        scale = "n"
        quantity = "exp((2/100 + 10**-18)*log(n))"
        claimed = 0.01
        tolerance = 0.01

        [[claim]]
        id = "coef-edge"
        kind = "exponent"
        quote = "q"
        where = "w"
        expected = "holds"
        law = "N**(-1/2) + N/n"
        minimize = ["N"]
        scale = "n"
        quantity = "N"
        claimed = "2/3"
        claimed_coefficient = "2**(-2/3)/(1 + 1/100) - 10**-40"
        coefficient_tolerance = 0.01

        [[claim]]
        id = "coef-inside"
        kind = "exponent"
        quote = "q"
        where = "w"
        expected = "holds"
        law = "N**(-1/2) + N/n"
        minimize = ["N"]
        scale = "n"
        quantity = "N"
        claimed = "2/3"
        claimed_coefficient = "2**(-2/3)/(1 + 1/100) + 10**-40"
        coefficient_tolerance = 0.01
        ''')
    assert {k: o.verdict for k, o in v.items()} == {"exp-tol-edge": "fails", "coef-edge": "fails",
                                                    "coef-inside": "holds"}, v


def test_an_end_that_is_a_minimizer_is_not_the_only_one(tmp_path):
    # (x-1)^2 (x-3)^2 c is minimal at x = 1 and at x = 3 (inside); a constant law is minimal everywhere: an end
    # proved to be a global minimizer made every other location `fails`
    v = _verdicts(tmp_path, '''
        [paper]
        id = "red3"
        title = "optimum ties"

        [symbols]
        x = { description = "x", range = [1, 4] }
        c = { description = "c", range = [1, 2] }

        [[claim]]
        id = "tie-interior"
        kind = "optimum"
        quote = "q"
        where = "w"
        expected = "holds"
        law = "(x-1)**2*(x-3)**2*c"
        argmin = "x"
        over = [1, 4]
        location = "interior"

        [[claim]]
        id = "flat-lower"
        kind = "optimum"
        quote = "q"
        where = "w"
        expected = "holds"
        law = "7"
        argmin = "x"
        over = [1, 4]
        location = "lower"

        [[claim]]
        id = "strict-lower"
        kind = "optimum"
        quote = "q"
        where = "w"
        expected = "holds"
        law = "c/x"
        argmin = "x"
        over = [1, 4]
        location = "lower"

        [[claim]]
        id = "strict-interior"
        kind = "optimum"
        quote = "q"
        where = "w"
        expected = "holds"
        law = "c/x"
        argmin = "x"
        over = [1, 4]
        location = "interior"
        ''')
    got = {k: o.verdict for k, o in v.items()}
    assert got["tie-interior"] == "inconclusive" and got["flat-lower"] == "holds", v
    # a strictly decreasing law: the upper end is the only minimizer, so the other locations fail (proved)
    assert got["strict-lower"] == "fails" and got["strict-interior"] == "fails", v


def test_an_exponent_that_is_a_limit_needs_a_claim_about_the_limit(tmp_path):
    # n + n^2 on n in [1e-9, 1e-3] grows like n (local exponent (1 + 2n)/(1 + n) <= 1.001); its limit as n -> oo
    # is 2, which gave `holds` to "grows as n^2" and `fails` to "grows linearly"
    body = '''
        [paper]
        id = "red3"
        title = "asymptotic exponents"

        [symbols]
        n = { description = "n", range = [1e-9, 1e-3] }

        [[claim]]
        id = "square"
        kind = "exponent"
        quote = "q"
        where = "w"
        expected = "holds"
        law = "n + n**2"
        scale = "n"
        quantity = "n + n**2"
        claimed = 2
        {extra}
        [[claim]]
        id = "linear"
        kind = "exponent"
        quote = "q"
        where = "w"
        expected = "holds"
        law = "n + n**2"
        scale = "n"
        quantity = "n + n**2"
        claimed = 1
        tolerance = 0.01
        {extra}
        '''
    v = _verdicts(tmp_path, body.replace("{extra}", ""))
    assert {k: o.verdict for k, o in v.items()} == {"square": "inconclusive", "linear": "inconclusive"}, v
    assert "asymptotic = true" in v["square"].summary
    v = _verdicts(tmp_path, body.replace("{extra}", "asymptotic = true"))  # a claim about large n: the limit
    assert {k: o.verdict for k, o in v.items()} == {"square": "holds", "linear": "fails"}, v


# --------------------------------------------------------------------------- a second round: the other kinds

HEAD2 = '''
    [paper]
    id = "red3b"
    title = "other kinds"

    [symbols]
    T = { description = "experts", range = [2, 50], integer = true }
    j = { description = "active", range = [1, "T"], integer = true }
    N = { description = "params", range = [1, 1e13] }
    n = { description = "n", range = [1, 20], integer = true }
    x = { description = "x", range = [1, 10] }
    y = { description = "y", range = [0.01, 0.3] }
    k = { description = "k", range = [1, 100] }
    w = { description = "w", range = [0.1, 10] }
    '''


def _claim(cid, kind, **fields):
    lines = ["[[claim]]", f'id = "{cid}"', f'kind = "{kind}"', 'quote = "q"', 'where = "w"', 'expected = "holds"']
    return "\n".join(lines + [f"{k} = {v}" for k, v in fields.items()]) + "\n\n"


def _one(tmp_path, body, statements=None):
    from pysym.audit.schema import AuditInputError

    path = tmp_path / "red3b.toml"
    path.write_text(textwrap.dedent(HEAD2) + body, encoding="utf-8")
    cf = load_claims_file(path)
    assert not cf.errors, cf.errors
    (claim,) = cf.claims
    try:
        return evaluate(cf, claim, statements)
    except AuditInputError as exc:
        return exc


STATEMENTS = {"MoeTheory.choose_le_pow": "∀ (n k : Nat), MoeTheory.choose n k ≤ n ^ k",
              "MoeTheory.succ_mul_choose_eq":
                  "∀ (n k : Nat), (n + 1) * MoeTheory.choose n k = MoeTheory.choose (n + 1) (k + 1) * (k + 1)"}


def test_a_premise_written_another_way_is_the_theorem_and_a_mismatch_fails_only_when_false(tmp_path):
    bind = '{ n = "T", k = "j" }'
    swapped = _one(tmp_path, _claim("p", "premise", theorem='"MoeTheory.succ_mul_choose_eq"', bind=bind,
                                    statement='"binomial(T + 1, j + 1)*(j + 1) == (T + 1)*binomial(T, j)"'), STATEMENTS)
    moved = _one(tmp_path, _claim("p", "premise", theorem='"MoeTheory.choose_le_pow"', bind=bind,
                                  statement='"0 <= T**j - binomial(T, j)"'), STATEMENTS)
    assert swapped.verdict == "holds" and moved.verdict == "holds", (swapped, moved)
    weaker = _one(tmp_path, _claim("p", "premise", theorem='"MoeTheory.choose_le_pow"', bind=bind,
                                   statement='"binomial(T, j) <= T**j + 1"'), STATEMENTS)
    assert weaker.verdict == "inconclusive", weaker  # true, but not what the theorem states: used to be `fails`
    false = _one(tmp_path, _claim("p", "premise", theorem='"MoeTheory.choose_le_pow"', bind=bind,
                                  statement='"binomial(T, j) <= j**T"'), STATEMENTS)
    assert false.verdict == "fails" and "the statement itself is false" in false.summary, false


def test_a_constraint_solved_on_a_branch_outside_the_range_is_not_a_verdict(tmp_path):
    # y = x exp(-x) at y = 1/4: SymPy's -LambertW(-y) is 0.357, outside x in [1, 10] (the root there is 2.153)
    v = _one(tmp_path, _claim("c", "value", quantity='"x"', claimed="1", rel='"<"', constraint='"y = x*exp(-x)"',
                              eliminate='"x"', at='{ y = 0.25 }'))
    assert v.verdict == "inconclusive" and "not proved inside x's range" in v.summary, v


def test_values_outside_a_symbols_range_are_input_errors_where_the_law_was_read_with_it(tmp_path):
    from pysym.audit.schema import AuditInputError

    cells = _one(tmp_path, _claim("t", "table", columns='["N", "Y"]', rows="[[-2, -2]]", formula='"Y == Abs(N)"'))
    assert isinstance(cells, AuditInputError) and "lies outside N's range" in str(cells), cells
    parity = _one(tmp_path, _claim("t", "table", columns='["n", "Y"]', rows="[[2.5, -1]]", formula='"Y == (-1)**(2*n)"'))
    assert isinstance(parity, AuditInputError) and "is not an exact integer" in str(parity), parity
    cons = _one(tmp_path, _claim("c", "consistent", statement='"sqrt(N**2) == N"', over='{ N = [-3, -1] }'))
    assert isinstance(cons, AuditInputError) and "does not keep N positive" in str(cons), cons
    indep = _one(tmp_path, _claim("i", "independence", law='"x**2 + k*(x - Abs(x))"', argmin='["x"]',
                                  over='{ x = [-5, 5] }', of='["k"]'))
    assert isinstance(indep, AuditInputError) and "does not keep x positive" in str(indep), indep


def test_an_integer_minimizer_is_not_taken_from_the_reals(tmp_path):
    # over the integers 2..10, (2n - 3)^2 ((n - 3)^2 + 1/10) is smallest at n = 3 (interior), not at the end 1.5
    opt = _one(tmp_path, _claim("o", "optimum", law='"(2*n - 3)**2*((n - 3)**2 + 1/10)"', argmin='"n"',
                                over="[1.5, 10]", location='"lower"'))
    assert opt.verdict != "holds", opt
    val = _one(tmp_path, _claim("v", "value", quantity='"n"', claimed="2", minimize='"(n - 12/5)**2"',
                                over='{ n = [1, 10] }'))
    assert val.verdict == "inconclusive" and "integer symbol" in val.summary, val  # was `fails` (derived 2.4)


def test_a_condition_is_substituted_like_the_sides(tmp_path):
    v = _one(tmp_path, _claim("s", "inequality", lhs='"k"', rel='">="', rhs='"15"', subs='{ k = "x + 5" }',
                              condition='"k >= 15"'))
    assert v.verdict == "fails" or v.verdict == "conditional", v
    # x + 5 >= 15 exactly when x >= 10: only x = 10 on [1, 10]: the claim and the substituted condition agree
    assert v.verdict == "conditional", v


# --------------------------------------------------------------------------- a third round: printed values as wholes

def test_a_printed_value_is_bounded_as_a_whole_against_its_symbols_range(tmp_path):
    from pysym.audit.schema import AuditInputError

    head = '''
    [paper]
    id = "red3c"
    title = "printed values"

    [symbols]
    x = { description = "x", range = [1, 10] }
    k = { description = "k", range = [0.01, 10] }
    '''

    def run(body):
        path = tmp_path / "red3c.toml"
        path.write_text(textwrap.dedent(head) + body, encoding="utf-8")
        cf = load_claims_file(path)
        if cf.errors:
            return cf.errors[0]
        try:
            return evaluate(cf, cf.claims[0])
        except AuditInputError as exc:
            return exc

    # `"-2.0"` is -1 * 2.0, no bare printed literal: it escaped the range check, and sqrt(x**2), read as x for
    # a positive x, gave `fails` with the range [-2.05, -1.95]
    for at in ('"-2.0"', '"0 - 2.0"', '"2*10.0"'):
        e = run(_claim("a", "value", quantity='"sqrt(x**2)"', claimed='"2.0"', at=f"{{ x = {at} }}"))
        assert isinstance(e, AuditInputError) and "reaches outside x's range" in str(e), (at, e)
    cell = run(_claim("t", "table", columns='["y", "x"]', rows='[["2.0", "-2.0"]]', formula='"y == sqrt(x**2)"'))
    assert isinstance(cell, AuditInputError) and "reaches outside x's range" in str(cell), cell
    subs = run(_claim("s", "inequality", lhs='"sqrt(k**2)"', rel='">="', rhs='"0"', subs='{ k = "0.5 ± 1" }'))
    assert isinstance(subs, AuditInputError) and "reaches outside k's range" in str(subs), subs
    sign = run(_claim("s", "inequality", lhs='"sqrt(k**2)"', rel='">="', rhs='"k"', subs='{ k = "x - 5" }'))
    assert isinstance(sign, AuditInputError) and "is not proved positive" in str(sign), sign  # k < 0 for x < 5
    kept = run(_claim("s", "inequality", lhs='"sqrt(k**2)"', rel='">="', rhs='"k"', subs='{ k = "x/2" }'))
    assert kept.verdict == "holds", kept
    inside = run(_claim("a", "value", quantity='"sqrt(x**2)"', claimed='"2.0"', at='{ x = "2.0" }'))
    assert inside.verdict == "holds", inside


def test_a_zero_base_to_a_printed_power_is_zero():
    from pysym.audit.interval import Iv

    z = Iv.of(0, 0).power(Iv.of(0.3, 0.4))  # recursed forever
    assert z.lo == 0 and z.hi == 0


def test_region_bounds_are_not_rounded_to_a_nearby_rational(tmp_path):
    # nsimplify made 1 - exp(-50) the bound 1: `(x - 1)*2.0 >= 0` held on [1 - e^-50, 2] (it fails at its lower
    # end), and `(x - 1)*2.0 > 0` failed on [1 + e^-50, 2] "at x = 1", outside the region
    v = _verdicts(tmp_path, '''
        [paper]
        id = "red3d"
        title = "region bounds"

        [symbols]
        x = { description = "x", range = [0.5, 3] }
        y = { description = "y", range = [0.5, 3] }

        [[claim]]
        id = "lower"
        kind = "inequality"
        quote = "q"
        where = "w"
        expected = "fails"
        lhs = "(x - 1)*2.0"
        rel = ">="
        rhs = "0"
        region = { x = ["1 - exp(-50)", 2] }

        [[claim]]
        id = "strict"
        kind = "inequality"
        quote = "q"
        where = "w"
        expected = "holds"
        lhs = "(x - 1)*2.0"
        rel = ">"
        rhs = "0"
        region = { x = ["1 + exp(-50)", 2] }

        [[claim]]
        id = "end"
        kind = "optimum"
        quote = "q"
        where = "w"
        expected = "fails"
        law = "x*(y - 1 + exp(-60))"
        argmin = "x"
        over = [1, 2]
        location = "lower"
        region = { y = ["1 - exp(-50)", 2] }
        ''')
    got = {k: o.verdict for k, o in v.items()}
    assert got["lower"] != "holds" and got["strict"] != "fails" and got["end"] != "holds", v
