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
