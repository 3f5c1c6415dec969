"""A printed statement is trusted only if its compiled type means what the text says (pysym.lean.meaning).

The Lean-backed test reads the spoofs of ``conftest.USER_LEMMA`` (checked with the session's ``real_check``,
no Lean run of its own): each prints exactly like a false fact about the naturals and is proved about something
else.  The rest builds compiled types by hand, one rule at a time, each with an input that breaks it."""

from __future__ import annotations

import json
import textwrap

import pytest
import sympy as sp
from conftest import SPOOFS

from pysym.derive import Derivation, Premise, Var
from pysym.lean.gate import scan
from pysym.lean.meaning import (PINS, REFUSED, STANDARD, constant_problems, pin_problems, type_problems,
                                usable_statement)
from pysym.lean.parse import LeanParseError, parse_statement
from pysym.lean.terms import App, BVar, Const, ConstantInfo, ForallE, Lit, Name, Proj, Sort, Succ, Zero


def const(name):
    return Const(Name.of(name), ())


def app(f, *args):
    e = const(f) if isinstance(f, str) else f
    for a in args:
        e = App(e, const(a) if isinstance(a, str) else a)
    return e


NAT = const("Nat")
PROP, TYPE = Sort(Zero()), Sort(Succ(Zero()))


def num(n):
    return app("OfNat.ofNat", NAT, Lit(n), app("instOfNatNat", Lit(n)))


def le(inst, a, b):
    return app("LE.le", NAT, inst, a, b)


def project(**types):
    """Project constants ``{real name: ConstantInfo}`` from ``name=(kind, type[, value])``."""
    out = {}
    for name, spec in types.items():
        kind, ty, *value = spec
        out[Name.of(name.replace("__", "."))] = ConstantInfo(kind, Name.of(name.replace("__", ".")), (), {},
                                                              ty, value[0] if value else None)
    return out


# --------------------------------------------------------------------------- with Lean (the shared check)


@pytest.mark.lean
def test_statements_that_print_alike_but_mean_otherwise_are_refused(real_check):
    from pysym.lean.statements import entries, usable_statements

    result, _ = real_check
    found = entries(result)
    assert found["Spoof.honest"]["meaning"] == [], found["Spoof.honest"]
    for name, printed in SPOOFS.items():  # the text alone cannot tell them from a (false) fact about the naturals
        assert found[name]["statement"] == printed, found[name]
        assert found[name]["meaning"], name
    assert "`Spoof.evilLE` uses `LE`" in " ".join(found["Spoof.by_local_instance"]["meaning"])
    assert "`LE.mk`" in " ".join(found["Spoof.by_inline_instance"]["meaning"])
    # every statement of the library and the user's honest lemma are trusted, but four unexported ones: three
    # about `n - k` (Nat subtraction truncates) and a sum of `List.map (MoeTheory.choose n)` (not applied)
    from pysym.lean.exports import EXPORTS

    assert all(found[n]["meaning"] == [] for n in EXPORTS)
    untrusted = {n: i["meaning"] for n, i in found.items() if not n.startswith(("Spoof.", "Rt.", "Rt9.")) and i["meaning"]}
    subtraction = ["it uses `instSubNat`, which is not among the core constants whose meaning the symbolic layer "
                   "knows (pysym.lean.meaning.STANDARD): the printed statement may not mean what it says"]
    assert untrusted == {"MoeTheory.choose_mul_factorial_mul_factorial": subtraction,
                         "MoeTheory.choose_symm": subtraction, "MoeTheory.descFactorial_mul_factorial": subtraction,
                         "MoeTheory.sum_range_choose": ["`MoeTheory.choose` is used without all of its 2 argument(s)"],
                         # `[[]]`: a `[] : List α` inside a `[] : List (List α)`, printed alike
                         "MoeTheory.Natarajan.allPatterns_zero": [
                             "two applications of `nil` may print alike (as `(nil )`) but differ in what the text "
                             "does not show (an implicit argument, an instance, a type, a universe level, or the "
                             "namespace of a field)"]}

    statements = usable_statements(result)
    n = Var("n", 0, 50, integer=True)
    for name, printed in SPOOFS.items():
        if printed != "∀ (n : Nat), n + 1 ≤ n":
            continue
        d = Derivation("d", "t", vars=[n], steps=[Premise("p", name, n.symbol + 1 <= n.symbol, bind={"n": n.symbol})],
                       conclusion="p")
        r = d.verify(statements).result("p")
        assert not r.ok and "not trusted to mean what it prints" in r.detail, (name, r.detail)
    assert any("constant named `MoeTheory`" in p for p in found["Spoof.by_field"]["meaning"])
    assert any("binder `n`" in p for p in found["Spoof.by_dotted_name"]["meaning"])
    assert any("another statement of the project prints alike" in p
               for p in found["Spoof.by_hidden_one"]["meaning"])
    assert any("depends on `n`, bound in the statement" in p for p in found["Spoof.by_hidden_value"]["meaning"])
    n, k = Var("n", 50, 60, integer=True), Var("k", 1, 40, integer=True)  # the same statements verify a premise on a trusted theorem
    d = Derivation("d", "t", vars=[n, k], steps=[Premise("p", "MoeTheory.choose_le_pow",
                                                         sp.binomial(n.symbol, k.symbol) <= n.symbol ** k.symbol,
                                                         bind={"n": n.symbol, "k": k.symbol})], conclusion="p")
    r = d.verify(statements).result("p")
    assert r.ok, r.detail


# --------------------------------------------------------------------------- each rule, by hand


def test_standard_instances_pass_and_no_class_type_or_constructor_is_standard():
    assert type_problems(le(const("instLENat"), num(5), num(7)), {}, "5 ≤ 7") == []
    for name in ("LE", "LT", "HAdd", "HPow", "OfNat", "NatCast", "Zero", "LE.mk", "OfNat.mk", "Nat.rec", "id"):
        assert name not in STANDARD
        assert type_problems(le(app(name, NAT), num(5), num(7)), {}, "5 ≤ 7"), name


def test_a_project_instance_or_anything_returning_one_is_refused():
    evil = project(E__inst=("defn", app("LE", NAT)),
                   E__mk=("defn", ForallE(Name.of("u"), NAT, app("LE", NAT), "default")),
                   E__pair=("defn", app("Prod", app("LE", NAT), NAT)),
                   E__pick=("defn", ForallE(Name.of("α"), TYPE, BVar(0), "implicit")),
                   E__Box__rec=("rec", ForallE(Name.of("m"), TYPE, BVar(0), "implicit")),
                   E__Alias=("defn", TYPE, app("LE", NAT)),
                   E__viaAlias=("defn", const("E.Alias")),
                   E__count=("defn", ForallE(Name.of("x"), NAT, NAT, "default")),
                   E__Pred=("defn", ForallE(Name.of("x"), NAT, PROP, "default")),
                   E__Box=("induct", TYPE))
    for name in ("E.inst", "E.mk", "E.pair", "E.pick", "E.Box.rec", "E.Alias", "E.viaAlias"):
        assert constant_problems(Name.of(name), evil), name
    for name in ("E.count", "E.Pred", "E.Box"):
        assert constant_problems(Name.of(name), evil) == [], name
    assert type_problems(le(const("E.inst"), num(5), num(7)), evil, "5 ≤ 7")
    assert type_problems(le(const("instLENat"), app("E.count", num(5)), num(7)), evil, "E.count 5 ≤ 7") == []


def test_a_raw_projection_is_refused():
    inst = Proj(Name.of("E.Box"), 0, const("E.box"))
    evil = project(E__box=("defn", const("E.Box")), E__Box=("induct", TYPE))
    assert any("proj" in p for p in type_problems(le(inst, num(5), num(7)), evil, "5 ≤ 7"))


def test_every_coercion_arrow_must_be_a_standard_cast():
    cast = app("Nat.cast", const("Rat"), const("Rat.instNatCast"), num(5))
    rat_le = app("LE.le", const("Rat"), const("Rat.instLE"), cast, cast)
    assert type_problems(rat_le, {}, "↑5 ≤ ↑5") == []
    assert type_problems(rat_le, {}, "↑5 ≤ ↑↑5")  # one arrow more than casts: a function tagged @[coe]
    assert type_problems(rat_le, {}, "5 ≤ ↑5")


def test_a_function_with_a_meaning_must_be_in_the_term():
    evil = project(E__choose=("defn", ForallE(Name.of("x"), NAT, NAT, "default")))
    e = le(const("instLENat"), app("E.choose", num(5)), num(7))
    assert any("`MoeTheory.choose`" in p for p in type_problems(e, evil, "MoeTheory.choose 5 ≤ 7"))
    assert type_problems(e, evil, "E.choose 5 ≤ 7") == []


def test_pins_name_the_equations_the_project_does_not_prove():
    pins = {"a": "∀ (n : Nat), MoeTheory.choose n 0 = 1", "b": "∀ (k : Nat), MoeTheory.choose 0 (k + 1) = 0",
            "c": "∀ (n k : Nat), MoeTheory.choose (n + 1) (k + 1) = MoeTheory.choose n k + MoeTheory.choose n (k + 1)",
            "use": "∀ (n k : Nat), MoeTheory.choose n k ≤ n ^ k"}
    entries = {name: {"statement": text, "meaning": []} for name, text in pins.items()}
    assert pin_problems(entries)["use"] == []
    for gone in ("a", "b", "c"):  # each equation is needed; a statement of it that is itself untrusted does not count
        for replace in (None, {"statement": pins[gone], "meaning": ["untrusted"]},
                        {"statement": pins[gone].replace("= 1", "= 2").replace("= 0", "= 1").replace(" + M", " * M"),
                         "meaning": []}):
            trimmed = {k: v for k, v in entries.items() if k != gone}
            if replace:
                trimmed[gone] = replace
            found = pin_problems(trimmed)["use"]
            assert found and "does not prove that `MoeTheory.choose` is binomial" in found[0], (gone, replace)
    # binder names and the sides of an equation are free
    renamed = dict(entries, c={"statement": "∀ (a b : Nat), MoeTheory.choose a b + MoeTheory.choose a (b + 1) = "
                                            "MoeTheory.choose (a + 1) (b + 1)", "meaning": []})
    assert pin_problems(renamed)["use"] == []
    assert set(PINS) == {"binomial", "factorial"}


def test_a_refused_or_unchecked_statement_is_a_parse_error_with_the_reasons():
    assert usable_statement({"statement": "5 ≤ 7", "meaning": []}) == "5 ≤ 7"
    refused = usable_statement({"statement": "5 ≤ 7", "meaning": ["it uses `LE.mk`"]})
    assert refused.startswith(REFUSED)
    with pytest.raises(LeanParseError, match="not trusted to mean what it prints: it uses `LE.mk`"):
        parse_statement(refused)
    with pytest.raises(LeanParseError, match="older than this version"):
        parse_statement(usable_statement({"statement": "5 ≤ 7"}))


def test_load_statements_refuses_what_the_check_did_not_trust(tmp_path):
    from pysym.derive.run import load_statements

    (tmp_path / "lean").mkdir()
    (tmp_path / "lean" / "statements.json").write_text(json.dumps({"statements": {
        "A.ok": {"statement": "∀ (n : Nat), n ≤ n + 1", "meaning": []},
        "A.bad": {"statement": "∀ (n : Nat), n + 1 ≤ n", "meaning": ["the result type of `A.evil` uses `LE`"]},
        "A.old": {"statement": "∀ (n : Nat), n + 1 ≤ n"}}}))
    found = load_statements(tmp_path)
    assert found["A.ok"] == "∀ (n : Nat), n ≤ n + 1"
    assert found["A.bad"].startswith(REFUSED) and found["A.old"].startswith(REFUSED)


def test_the_gate_refuses_what_changes_how_statements_print():
    text = "def f (n : Nat) : Nat := n\nattribute [coe] f\n@[coe] def g (n : Nat) : Nat := n\nexport Nat (succ)\n"
    problems = [str(p) for p in scan(text).problems]
    assert any("attribute `coe` is not accepted" in p and ":2:" in p for p in problems), problems
    assert any("attribute `coe` is not accepted" in p and ":3:" in p for p in problems), problems
    assert any("`export` is not accepted" in p for p in problems), problems


def test_the_commands_start_only_from_trusted_statements(tmp_path, monkeypatch):
    """`derive`, `audit` and `all` take their statements from `_statements_for`: a statement the check did not
    trust reaches them as the refusal, and statements.json records why."""
    from types import SimpleNamespace

    import pysym.cli.commands as cli
    from pysym.lean.check import CheckResult

    result = CheckResult(ok=True, modules=["A"], declarations=2, theorems=2, problems=[], warnings=[],
                         statements={"A.ok": {"statement": "∀ (n : Nat), n ≤ n + 1", "meaning": []},
                                     "A.bad": {"statement": "∀ (n : Nat), n + 1 ≤ n",
                                               "meaning": ["the result type of `A.evil` uses `LE`"]}},
                         toolchain="t", seconds=0.0)
    found = cli._statements_for(SimpleNamespace(), SimpleNamespace(build=tmp_path), result)
    assert found["A.ok"] == "∀ (n : Nat), n ≤ n + 1"
    assert found["A.bad"] == REFUSED + "the result type of `A.evil` uses `LE`"
    written = json.loads((tmp_path / "lean" / "statements.json").read_text())["statements"]
    assert written["A.bad"]["meaning"] == ["the result type of `A.evil` uses `LE`"] and written["A.ok"]["meaning"] == []


def test_truncating_nat_subtraction_is_refused_on_the_term_and_in_the_text():
    # `xs.length - m + m ≥ m` is true in Lean (truncated) and would read as `length(xs) >= m`
    sub = app("HSub.hSub", NAT, NAT, NAT, app("instHSub", NAT, "instSubNat"), app("E.count", num(5)), num(7))
    evil = project(E__count=("defn", ForallE(Name.of("x"), NAT, NAT, "default")))
    assert any("`instSubNat`" in p for p in type_problems(le(const("instLENat"), sub, num(7)), evil,
                                                           "E.count 5 - 7 ≤ 7"))
    with pytest.raises(LeanParseError, match="truncated Nat subtraction"):
        parse_statement("∀ (xs : List Nat) (m : Nat), xs.length - m + m ≥ m")


def test_unary_minus_binds_looser_than_a_power_as_in_lean():
    # Lean reads `-a ^ 2` as `-(a ^ 2)`; read as `(-a) ^ 2` a true `-a ^ 2 ≤ 0` would become `a**2 <= 0`
    a = sp.Symbol("a", rational=True)
    for text, lhs in (("∀ (a : Rat), -a ^ 2 ≤ 0", -a ** 2), ("∀ (a : Rat), (-a) ^ 2 ≤ 0", a ** 2)):
        c = parse_statement(text).conclusion
        assert isinstance(c, sp.LessThan) and sp.expand(c.lhs - lhs) == 0 and c.rhs == 0, (text, c)


def test_division_is_refused_lean_divides_by_zero_and_sympy_cancels():
    # `∀ (x y : Rat), y = 0 → x / y * y = 0` is true in Lean (x / 0 = 0) and would read as `y = 0 → x = 0`
    rat = const("Rat")
    div = app("HDiv.hDiv", rat, rat, rat, app("instHDiv", rat, "Rat.instDiv"), const("x"), const("y"))
    e = app("Eq", rat, app("HMul.hMul", rat, rat, rat, app("instHMul", rat, "Rat.instMul"), div, const("y")),
            app("OfNat.ofNat", rat, Lit(0), app("Rat.instOfNat", Lit(0))))
    found = type_problems(e, {}, "x / y * y = 0")
    assert any("`HDiv.hDiv`" in p and "`Rat.instDiv`" in p for p in found), found
    assert "HDiv.hDiv" not in STANDARD and "instDivNat" not in STANDARD and "instSubNat" not in STANDARD


def test_a_function_with_a_meaning_hides_nothing_and_is_fully_applied():
    hidden = project(MoeTheory__choose=("defn", ForallE(Name.of("h"), NAT, ForallE(Name.of("n"), NAT, ForallE(
        Name.of("k"), NAT, NAT, "default"), "default"), "implicit")))
    e = app("Eq", NAT, app("MoeTheory.choose", num(0), num(3), num(1)), num(7))
    assert any("explicit" in p for p in type_problems(e, hidden, "MoeTheory.choose 3 1 = 7"))
    plain = project(MoeTheory__choose=("defn", ForallE(Name.of("n"), NAT, ForallE(Name.of("k"), NAT, NAT, "default"),
                                                        "default")))
    assert type_problems(app("Eq", NAT, app("MoeTheory.choose", num(3), num(1)), num(3)), plain,
                         "MoeTheory.choose 3 1 = 3") == []
    partial = app("Eq", app("Prod", NAT, NAT), app("Prod.mk", app("MoeTheory.choose", num(3)), num(1)), num(3))
    assert any("without all of its 2" in p for p in type_problems(partial, plain, "(MoeTheory.choose 3, 1) = 3"))


def test_names_that_print_like_a_field_or_a_meaningful_namespace_are_refused():
    dotted = project(n__succ=("defn", NAT), MoeTheory=("defn", NAT))
    e = ForallE(Name.of("n"), NAT, le(const("instLENat"), const("n.succ"), BVar(0)), "default")
    assert any("binder `n`" in p for p in type_problems(e, dotted, "∀ (n : Nat), n.succ ≤ n"))
    e = le(const("instLENat"), const("MoeTheory"), num(1))
    assert any("constant named `MoeTheory`" in p for p in type_problems(e, dotted, "MoeTheory ≤ 1"))
    e = ForallE(Name.of("MoeTheory"), NAT, le(const("instLENat"), BVar(0), num(1)), "default")
    assert any("binder `MoeTheory`" in p for p in type_problems(e, dotted, "∀ (MoeTheory : Nat), MoeTheory ≤ 1"))
    e = ForallE(Name.of("m"), NAT, le(const("instLENat"), BVar(0), num(1)), "default")
    assert type_problems(e, dotted, "∀ (m : Nat), m ≤ 1") == []


def test_applications_that_print_alike_but_differ_in_a_hidden_argument_are_refused():
    # `@g Nat = 1 → @g Bool = 0` prints as `MoeTheory.g = 1 → MoeTheory.g = 0`: read as one term, a false implication
    ours = project(MoeTheory__g=("defn", ForallE(Name.of("α"), TYPE, NAT, "implicit")))

    def eq(lhs, n):
        return app("Eq", NAT, lhs, num(n))

    two = ForallE(Name.of("h"), eq(app("MoeTheory.g", NAT), 1), eq(app("MoeTheory.g", const("Bool")), 0), "default")
    found = type_problems(two, ours, "MoeTheory.g = 1 → MoeTheory.g = 0")
    assert any("differ in what the text does not show" in p for p in found), found
    same = ForallE(Name.of("h"), eq(app("MoeTheory.g", NAT), 1), eq(app("MoeTheory.g", NAT), 1), "default")
    assert type_problems(same, ours, "MoeTheory.g = 1 → MoeTheory.g = 1") == []
    # the same name bound twice (`∀ α, g = 1 → ∀ α, g = 0`): refused as a name bound twice
    shadow = ForallE(Name.of("α"), TYPE, ForallE(Name.of("h"), eq(app("MoeTheory.g", BVar(0)), 1), ForallE(
        Name.of("α"), TYPE, eq(app("MoeTheory.g", BVar(0)), 0), "default"), "default"), "default")
    assert type_problems(shadow, ours, "∀ (α : Type), MoeTheory.g = 1 → ∀ (α : Type), MoeTheory.g = 0")


def test_the_binder_chain_is_read_as_lean_compiled_it():
    hyp = app("LE.le", NAT, const("instLENat"), app("HAdd.hAdd", NAT, NAT, NAT, app("instHAdd", NAT, "instAddNat"),
                                                       BVar(0), num(1)), BVar(0))
    concl = app("LE.le", NAT, const("instLENat"), app("HAdd.hAdd", NAT, NAT, NAT, app("instHAdd", NAT, "instAddNat"),
                                                         BVar(1), num(1)), BVar(1))
    for info in ("implicit", "strictImplicit"):  # `∀ (n : Nat) {h : n + 1 ≤ n}, n + 1 ≤ n`: the hypothesis is lost
        e = ForallE(Name.of("n"), NAT, ForallE(Name.of("h"), hyp, concl, info), "default")
        found = type_problems(e, {}, "∀ (n : Nat) {h : n + 1 ≤ n}, n + 1 ≤ n")
        assert any("binder `h` may be a proof" in p for p in found), (info, found)
    arrow = ForallE(Name.of("n"), NAT, ForallE(Name.of("h"), hyp, concl, "default"), "default")
    assert type_problems(arrow, {}, "∀ (n : Nat), n + 1 ≤ n → n + 1 ≤ n") == []
    # `∀ (n : Nat), n = n → ∀ (n : Nat), n ≤ n`: two binders named `n` would be one variable
    refl = app("Eq", NAT, BVar(0), BVar(0))
    twice = ForallE(Name.of("n"), NAT, ForallE(Name.of("h"), refl, ForallE(Name.of("n"), NAT, app(
        "LE.le", NAT, const("instLENat"), BVar(0), BVar(0)), "default"), "default"), "default")
    assert any("binds `n` twice" in p for p in type_problems(twice, {}, "∀ (n : Nat), n = n → ∀ (n : Nat), n ≤ n"))
    # a project type printed `ℚ` is not Rat
    alias = project(ℚ=("defn", TYPE, NAT))
    e = ForallE(Name.of("x"), const("ℚ"), app("LE.le", NAT, const("instLENat"), BVar(0), BVar(0)), "default")
    found = type_problems(e, alias, "∀ (x : ℚ), x ≤ x")
    assert any("not of the core type Rat" in p for p in found), found
    e = ForallE(Name.of("x"), const("Rat"), app("LE.le", const("Rat"), const("Rat.instLE"), BVar(0), BVar(0)),
                "default")
    assert type_problems(e, {}, "∀ (x : Rat), x ≤ x") == []


def test_iff_binds_looser_than_an_arrow_and_bounded_binders_are_not_read():
    st = parse_statement("∀ (n : Nat), n = n ↔ n = 5 → n = 5")  # Lean: `n = n ↔ (n = 5 → n = 5)`
    assert st.hypotheses == [] and "↔" in str(st.conclusion)
    st = parse_statement("∀ (n : Nat), 1 ≤ n → ∀ (k : Nat), k ≤ n → k ≤ n + 1")
    assert len(st.hypotheses) == 2
    with pytest.raises(LeanParseError, match="bounded binder"):
        parse_statement("∀ i ∈ I, i ≤ 3")


def test_field_notation_cannot_make_two_functions_print_alike():
    # `Nat.succ (a + b)` and `RtM.succ (@HAdd.hAdd RtM ... a b)` with `abbrev RtM := Nat` both print as
    # `(a + b).succ` (a third red-team round): one statement with both is refused
    ours = project(RtM=("defn", TYPE, NAT), RtM__succ=("defn", ForallE(Name.of("m"), const("RtM"), NAT, "default")))

    def plus(ty, a, b):
        return app("HAdd.hAdd", ty, ty, ty, app("instHAdd", ty, "instAddNat"), a, b)

    nat_succ = app("Nat.succ", plus(NAT, BVar(1), BVar(0)))
    rtm_succ = app("RtM.succ", plus(const("RtM"), BVar(1), BVar(0)))
    e = ForallE(Name.of("a"), NAT, ForallE(Name.of("b"), NAT, app("Eq", NAT, rtm_succ, app(
        "HAdd.hAdd", NAT, NAT, NAT, app("instHAdd", NAT, "instAddNat"), nat_succ, num(1))), "default"), "default")
    found = type_problems(e, ours, "∀ (a b : Nat), (a + b).succ = (a + b).succ + 1")
    assert any("`succ` may print alike" in p for p in found), found
    honest = ForallE(Name.of("a"), NAT, ForallE(Name.of("b"), NAT, app("Eq", NAT, nat_succ, app(
        "HAdd.hAdd", NAT, NAT, NAT, app("instHAdd", NAT, "instAddNat"), plus(NAT, BVar(1), BVar(0)), num(1))),
        "default"), "default")
    assert type_problems(honest, ours, "∀ (a b : Nat), (a + b).succ = a + b + 1") == []


def test_two_functions_of_one_last_name_in_different_statements_are_refused():
    # `Nat.succ (a + b)` in one theorem and `RtM.succ (a + b)` in another both print `(a + b).succ`: a derivation
    # naming that term in both premises would take two functions for one
    from pysym.lean.meaning import statement_problems

    def theorem(name, body):
        return Name.of(name), ConstantInfo("thm", Name.of(name), (), {}, body, None)

    rtm = app("RtM.succ", BVar(0))
    ours = project(RtM=("defn", TYPE, NAT), RtM__succ=("defn", ForallE(Name.of("m"), const("RtM"), NAT, "default")))
    ours.update([theorem("A.nat", ForallE(Name.of("a"), NAT, app("Eq", NAT, app("Nat.succ", BVar(0)), BVar(0)),
                                          "default")),
                 theorem("A.rtm", ForallE(Name.of("a"), NAT, app("Eq", NAT, rtm, BVar(0)), "default"))])
    texts = {"A.nat": "∀ (a : Nat), a.succ = a", "A.rtm": "∀ (a : Nat), a.succ = a"}
    found = statement_problems(["A.nat", "A.rtm"], ours, texts, ["A.nat", "A.rtm"])
    assert all(any("may both print as the field `.succ`" in p for p in found[n]) for n in texts), found
    alone = statement_problems(["A.nat"], {k: v for k, v in ours.items() if str(k) != "A.rtm"}, texts, ["A.nat"])
    assert not any("field" in p for p in alone["A.nat"]), alone


def test_one_opaque_term_applied_to_different_hidden_arguments_in_two_statements_is_refused():
    # `@g Nat = 1` in one theorem and `@g Bool = 0` in another both print `MoeTheory.g`: a derivation naming that
    # term in both premises would conclude `1 = 0`
    from pysym.lean.meaning import statement_problems

    def theorem(name, body):
        return Name.of(name), ConstantInfo("thm", Name.of(name), (), {}, body, None)

    def g_is(ty, n):
        return app("Eq", NAT, app("MoeTheory.g", ty), num(n))

    ours = project(MoeTheory__g=("defn", ForallE(Name.of("α"), TYPE, NAT, "implicit")))
    ours.update([theorem("A.at_nat", g_is(NAT, 1)), theorem("A.at_bool", g_is(const("Bool"), 0)),
                 theorem("A.again", g_is(NAT, 1))])
    texts = {"A.at_nat": "MoeTheory.g = 1", "A.at_bool": "MoeTheory.g = 0", "A.again": "MoeTheory.g = 1"}
    found = statement_problems(list(texts), ours, texts, list(texts))
    assert all(any("another statement of the project prints alike" in p
                   for p in found[n]) for n in texts), found
    # the same term in two statements: nothing to refuse
    same = {k: v for k, v in ours.items() if str(k) != "A.at_bool"}
    found = statement_problems(["A.at_nat", "A.again"], same, texts, ["A.at_nat", "A.again"])
    assert found == {"A.at_nat": [], "A.again": []}, found


def test_what_each_theorem_binds_for_itself_does_not_make_two_statements_differ():
    # a type variable (`X` in one theorem, `β` in another), a universe parameter (`u`, `u_1`) and an instance of a
    # class whose instances are all equal (`DecidablePred`) are not what a term is: the same term in both
    from pysym.lean.meaning import statement_problems
    from pysym.lean.terms import Param

    def theorem(name, body):
        return Name.of(name), ConstantInfo("thm", Name.of(name), (), {}, body, None)

    def sort(u):  # `Type u`
        return Sort(Succ(Param(Name.of(u))))

    pred = ForallE(Name.of("x"), BVar(0), PROP, "default")
    # MoeTheory.p.{u} : {α : Type u} → (A : α → Prop) → [DecidablePred A] → Nat
    ours = project(MoeTheory__p=("defn", ForallE(Name.of("α"), sort("u"), ForallE(Name.of("A"), pred, ForallE(
        Name.of("inst"), app("DecidablePred", BVar(1), BVar(0)), NAT, "instImplicit"), "default"), "implicit")))

    def p_of(level, inst):  # `@p.{level} α A inst = 0` under `∀ {α : Type level} (A : α → Prop) [inst : ...]`
        body = app("Eq", NAT, app(Const(Name.of("MoeTheory.p"), (Param(Name.of(level)),)), BVar(2), BVar(1), inst),
                   num(0))
        return ForallE(Name.of(level == "u" and "X" or "β"), sort(level), ForallE(Name.of("A"), ForallE(
            Name.of("x"), BVar(0), PROP, "default"), ForallE(Name.of("inst"), app("DecidablePred", BVar(1), BVar(0)),
                                                           body, "instImplicit"), "default"), "implicit")

    ours.update([theorem("A.one", p_of("u", BVar(0))),
                 theorem("A.two", p_of("u_1", app("Classical.propDecidable", app(BVar(1), BVar(0)))))])
    texts = {"A.one": "MoeTheory.p A = 0", "A.two": "MoeTheory.p A = 0"}
    found = statement_problems(list(texts), ours, texts, list(texts))
    assert not any("another statement" in p for n in texts for p in found[n]), found
    # but a type in one and a type variable in the other are two terms
    closed = ForallE(Name.of("A"), ForallE(Name.of("x"), NAT, PROP, "default"), app(
        "Eq", NAT, app(Const(Name.of("MoeTheory.p"), (Succ(Zero()),)), NAT, BVar(0),
                       app("Classical.propDecidable", app(BVar(0), BVar(0)))), num(0)), "default")
    ours.update([theorem("A.nat", closed)])
    texts["A.nat"] = "∀ (A : Nat → Prop), MoeTheory.p A = 0"
    found = statement_problems(list(texts), ours, texts, list(texts))
    assert all(any("another statement" in p for p in found[n]) for n in texts), found


def test_a_hidden_argument_that_depends_on_a_bound_value_is_refused():
    # `∀ (n : Nat), @h n = n` prints `∀ (n : Nat), MoeTheory.h = n`: read as one term `h`, it equals every `n`
    ours = project(MoeTheory__h=("defn", ForallE(Name.of("k"), NAT, NAT, "implicit")),
                   MoeTheory__Vec=("induct", ForallE(Name.of("k"), NAT, TYPE, "default")),
                   MoeTheory__len=("defn", ForallE(Name.of("k"), NAT, ForallE(
                       Name.of("v"), app("MoeTheory.Vec", BVar(0)), NAT, "default"), "implicit")))
    e = ForallE(Name.of("n"), NAT, app("Eq", NAT, app("MoeTheory.h", BVar(0)), BVar(0)), "default")
    found = type_problems(e, ours, "∀ (n : Nat), MoeTheory.h = n")
    assert any("depends on `n`, bound in the statement" in p for p in found), found
    # `∀ {n} (v : Vec n), @len n v = n`: the hidden `n` is fixed by the type of `v`, which the text shows
    e = ForallE(Name.of("n"), NAT, ForallE(Name.of("v"), app("MoeTheory.Vec", BVar(0)), app(
        "Eq", NAT, app("MoeTheory.len", BVar(1), BVar(0)), BVar(1)), "default"), "implicit")
    assert type_problems(e, ours, "∀ {n : Nat} (v : MoeTheory.Vec n), MoeTheory.len v = n") == []
    # a hidden type variable is not a value: `∀ {α : Type}, @g α = 0` says `g = 0` at every type
    ours.update(project(MoeTheory__g=("defn", ForallE(Name.of("α"), TYPE, NAT, "implicit"))))
    e = ForallE(Name.of("α"), TYPE, app("Eq", NAT, app("MoeTheory.g", BVar(0)), num(0)), "implicit")
    assert type_problems(e, ours, "∀ {α : Type}, MoeTheory.g = 0") == []


@pytest.mark.lean
def test_a_fourth_red_team_round_is_refused_or_read_with_what_it_needs(real_check, tmp_path):
    """The `Rt` section of ``conftest.USER_LEMMA`` (a fourth red-team round: each theorem is proved, and each
    made a derivation verify `D + 1 <= D`, or a `premise` claim hold on a false statement)."""
    from pysym.audit import audit
    from pysym.derive.core import Bound, Combine
    from pysym.lean.statements import entries, usable_statements

    result, _ = real_check
    found = entries(result)
    # what the text hides, found on the compiled term: refused
    refused = {"Rt.dim_eq": "depends on `T`", "Rt.dim_eq'": "depends on `T`", "Rt.dimc_eq": "depends on `T`",
               "Rt.gx_exists": "depends on `T`", "Rt.gx_exists'": "depends on `T`",
               "Rt.core_zero": "another statement of the project", "Rt.core_one": "another statement of the project",
               "Rt.Ctl.hv_eq": "depends on `n`", "Rt.Ctl.gty_eq": "depends on `T`",
               "Rt.Ctl.f2_prop_hyp": "binder `h` may be a proof"}
    for name, reason in refused.items():
        assert any(reason in p for p in found[name]["meaning"]), (name, found[name])
    # a ninth round: the pieces print alike and differ inside their `∃` (a variable bound there is no wildcard)
    for name in ("Rt9.ex_one", "Rt9.ex_zero"):
        assert any("another statement of the project prints alike" in p for p in found[name]["meaning"]), \
            (name, found[name])
    statements = usable_statements(result, found)
    D = Var("D", 0, 100)
    n = Var("n", 0, 50, integer=True)

    def absurd(*steps, vars):  # two facts about one term, then `D + 1 <= D`
        return Derivation("d", "t", vars=vars, steps=[*steps, Bound("absurd", D.symbol + 1, D.symbol,
                                                                     by=Combine({"lo": 1, "hi": 1}))],
                          conclusion="absurd").verify(statements)

    # a binder whose type may be empty is a hypothesis the text does not state as one: read as `Nonempty (T)`,
    # to be granted like any other (a data binder holding a proof, a class, a type variable's value)
    for name in ("Rt.f_hidden_hyp", "Rt.f_class_hyp"):
        report = absurd(Premise("hyp", name, sp.Eq(D.symbol, n.symbol + 1), bind={"n": n.symbol},
                                terms={"Rt.f": D.symbol}),
                        Premise("lo", "Rt.f_val", sp.Eq(n.symbol + 2, D.symbol), bind={"n": n.symbol},
                                terms={"Rt.f": D.symbol}), vars=[D, n])
        assert not report.ok and not report.result("hyp").ok, name
        assert "Nonempty" in report.result("hyp").detail, report.result("hyp").detail
    k = Var("k", 0, 50, integer=True)
    report = absurd(Premise("lo", "Rt.card0_empty", sp.Eq(D.symbol, k.symbol), bind={"k": k.symbol},
                            terms={"Rt.card0": D.symbol}),
                    Premise("hi", "Rt.card0_inhabited", sp.Eq(k.symbol + 1, D.symbol), bind={"k": k.symbol},
                            terms={"Rt.card0": D.symbol}), vars=[D, k])
    assert not report.result("lo").ok and not report.result("hi").ok
    # a bound value inside a piece read as is (a list literal) is carried by it: two values, two terms
    report = absurd(Premise("zero", "Rt.frozen", sp.Eq(D.symbol, 0), bind={"n": 0}, terms={"List.count": D.symbol}),
                    Premise("one", "Rt.frozen'", sp.Eq(1, D.symbol), bind={"n": 1}, terms={"List.count": D.symbol}),
                    vars=[D])
    assert report.result("zero").ok and not report.result("one").ok, report.result("one").detail
    # a value hidden in a binder type that the text shows: the name records it (a control, trusted)
    assert found["Rt.Ctl.dimv_eq"]["meaning"] == []
    # `premise` claims on a theorem with a hypothesis hidden in a binder: never `holds`, at most `conditional` on
    # the binder's type being inhabited
    claims = tmp_path / "redteam.toml"
    claims.write_text(textwrap.dedent('''\
        [paper]
        id = "redteam"
        title = "premise claims on theorems whose binders hide a hypothesis"

        [symbols]
        n = { description = "a natural number", range = [2, 100], integer = true }
        k = { description = "a natural number", range = [1, "n"], integer = true }

        [[claim]]
        id = "square-le-double"
        kind = "premise"
        quote = "n^2 <= 2n"
        where = "red team"
        expected = "conditional"
        theorem = "Rt.sq_le_double"
        statement = "n**2 <= 2*n"

        [[claim]]
        id = "pow-le-choose"
        kind = "premise"
        quote = "n^k <= C(n, k)"
        where = "red team"
        expected = "conditional"
        theorem = "Rt.pow_le_choose"
        statement = "n**k <= binomial(n, k)"
        '''))
    verdicts = {v.claim.id: v for v in audit([claims], statements).verdicts}
    assert {i: v.verdict for i, v in verdicts.items()} == {"square-le-double": "conditional",
                                                          "pow-le-choose": "conditional"}, verdicts
    assert all(v.evidence["condition"] == "⟪Nonempty ({ x // False })⟫" for v in verdicts.values()), verdicts


def test_a_binder_whose_type_may_be_empty_is_read_as_a_hypothesis():
    # `∀ (n : Nat) {w : { x // False }}, n * n ≤ 2 * n` is provable: the binder is a hypothesis the text hides
    st = parse_statement("∀ (n : Nat) {w : { x // False }}, n * n ≤ 2 * n")
    assert [sp.sstr(h) for h in st.hypotheses] == ["⟪Nonempty ({ x // False })⟫"]
    st = parse_statement("∀ (n : Nat) [Rt.Witness n], Rt.f n = n + 1")  # a class, its proof field: the same
    assert [sp.sstr(h) for h in st.hypotheses] == ["⟪Nonempty (Rt.Witness n)⟫(n)"]
    st = parse_statement("∀ {α : Type} {x : α} (k : Nat), k + 1 = Rt.card0 k")  # a value of a type variable
    assert [sp.sstr(h) for h in st.hypotheses] == ["⟪Nonempty (α)⟫"]
    # numbers, lists, predicates, types, decidability: always inhabited; a binder named `List` is not the list type
    st = parse_statement("∀ {α : Type} (xs : List α) (A : α → Prop) [inst : DecidablePred A] (n : Nat) (q : Rat), "
                         "n = n")
    assert st.hypotheses == []
    st = parse_statement("∀ (List : Type → Type) (xs : List Nat), xs.length = 0")
    assert [sp.sstr(h) for h in st.hypotheses] == ["⟪Nonempty (List Nat)⟫"]


def test_a_piece_read_as_is_carries_the_numbers_it_mentions():
    # `[decide (0 < n)]` is one opaque piece; binding `n` must reach it (at n = 0 and n = 1 they are two terms)
    st = parse_statement("∀ (n : Nat), n ≤ 1 → List.count true [decide (0 < n)] = n")
    (piece,) = [a for a in st.conclusion.atoms(sp.Function) if a.func.__name__.startswith("⟪")]
    n = st.symbols["n"]
    assert piece.args == (n,) and piece.subs(n, 0) != piece.subs(n, 1)


def test_a_value_hidden_in_a_type_or_a_binder_type_is_refused():
    # `∀ (T : Nat), gx (∃ x : {y // y < T}, True) = T` prints `gx (∃ x, True) = T`: one term equal to every `T`
    from pysym.lean.terms import Lam

    ours = project(MoeTheory__gx=("defn", ForallE(Name.of("p"), PROP, NAT, "default")),
                   MoeTheory__Msk=("defn", ForallE(Name.of("T"), NAT, TYPE, "implicit"), NAT))

    def below(i):  # `{y : Nat // y < T}`, `T` the bound variable of index `i` outside the `fun y`
        return app("Subtype", NAT, Lam(Name.of("y"), NAT, app("LT.lt", NAT, const("instLTNat"), BVar(0),
                                                              BVar(i + 1)), "default"))

    exists = app("Exists", below(0), Lam(Name.of("x"), below(0), const("True"), "default"))
    e = ForallE(Name.of("T"), NAT, app("Eq", NAT, app("MoeTheory.gx", exists), BVar(0)), "default")
    found = type_problems(e, ours, "∀ (T : Nat), MoeTheory.gx (∃ x, True) = T")
    assert any("the type of the bound `x` that the text does not show depends on `T`" in p for p in found), found
    # a type of the project whose argument is implicit: `M : @Msk T → Prop` prints `M : MoeTheory.Msk → Prop`
    e = ForallE(Name.of("T"), NAT, ForallE(Name.of("M"), ForallE(Name.of("a"), app("MoeTheory.Msk", BVar(0)), PROP,
                                                                   "default"), app("Eq", NAT, BVar(1), BVar(1)),
                                           "default"), "implicit")
    found = type_problems(e, ours, "∀ {T : Nat} (M : MoeTheory.Msk → Prop), T = T")
    assert any("an argument of `Msk` that the text does not show depends on `T`" in p for p in found), found


def test_core_terms_that_print_alike_across_statements_must_be_one_term():
    # `∃ x : {y // y < 0}, True` and `∃ x : {y // y < 1}, True` both print `∃ x, True`
    from pysym.lean.meaning import statement_problems
    from pysym.lean.terms import Lam

    def theorem(name, body):
        return Name.of(name), ConstantInfo("thm", Name.of(name), (), {}, body, None)

    def exists_below(n):
        t = app("Subtype", NAT, Lam(Name.of("y"), NAT, app("LT.lt", NAT, const("instLTNat"), BVar(0), num(n)),
                                    "default"))
        return app("Exists", t, Lam(Name.of("x"), t, const("True"), "default"))

    def about(n, body):  # `(∃ x : {y // y < n}, True) ↔ body`
        return app("Iff", exists_below(n), body)

    ours = dict([theorem("A.zero", about(0, const("False"))), theorem("A.one", about(1, const("True")))])
    texts = {"A.zero": "(∃ x, True) ↔ False", "A.one": "(∃ x, True) ↔ True"}
    found = statement_problems(list(texts), ours, texts, list(texts))
    assert all(any("another statement of the project prints alike" in p for p in found[n]) for n in texts), found
    # the same term in both (and a binder type the body fixes, as in `∃ p, p ∈ patterns`): nothing to refuse
    ours = dict([theorem("A.zero", about(0, const("False"))), theorem("A.one", about(0, const("False")))])
    assert statement_problems(list(texts), ours, texts, list(texts)) == {"A.zero": [], "A.one": []}


def test_a_fun_binder_type_counts_unless_a_printed_type_fixes_it():
    # `∃ x : Nat, (List.replicate n x).length = n` and the same over `{y // False}` print alike; `replicate`'s other
    # argument `n` does not fix the type of `x` (a second red-team round)
    from pysym.lean.meaning import statement_problems
    from pysym.lean.terms import Lam

    def theorem(name, body):
        return Name.of(name), ConstantInfo("thm", Name.of(name), (), {}, body, None)

    empty = app("Subtype", NAT, Lam(Name.of("y"), NAT, const("False"), "default"))

    def replicated(ty, answer):  # `∀ (n : Nat), (∃ x : ty, (List.replicate n x).length = n) ↔ answer`
        body = app("Eq", NAT, app("List.length", ty, app("List.replicate", ty, BVar(1), BVar(0))), BVar(1))
        return ForallE(Name.of("n"), NAT, app("Iff", app("Exists", ty, Lam(Name.of("x"), ty, body, "default")),
                                               const(answer)), "default")

    ours = dict([theorem("A.nat", replicated(NAT, "True")), theorem("A.empty", replicated(empty, "False"))])
    texts = {"A.nat": "∀ (n : Nat), (∃ x, (List.replicate n x).length = n) ↔ True",
             "A.empty": "∀ (n : Nat), (∃ x, (List.replicate n x).length = n) ↔ False"}
    found = statement_problems(list(texts), ours, texts, list(texts))
    assert all(any("another statement of the project prints alike" in p for p in found[n]) for n in texts), found


def test_a_type_of_the_project_with_a_hidden_argument_is_one_type_across_statements():
    # `M : @Msk 0 → Prop` and `M : @Msk 1 → Prop` both print `M : MoeTheory.Msk → Prop`: a term of `M` named in
    # two premises would be two terms under one name
    from pysym.lean.meaning import statement_problems

    def theorem(name, body):
        return Name.of(name), ConstantInfo("thm", Name.of(name), (), {}, body, None)

    ours = project(MoeTheory__Msk=("induct", ForallE(Name.of("T"), NAT, TYPE, "implicit")))

    def about(n):  # `∀ (M : @Msk n → Prop), 0 = 0`
        pred = ForallE(Name.of("x"), app("MoeTheory.Msk", num(n)), PROP, "default")
        return ForallE(Name.of("M"), pred, app("Eq", NAT, num(0), num(0)), "default")

    ours.update([theorem("A.zero", about(0)), theorem("A.one", about(1))])
    texts = {n: "∀ (M : MoeTheory.Msk → Prop), 0 = 0" for n in ("A.zero", "A.one")}
    found = statement_problems(list(texts), ours, texts, list(texts))
    assert all(any("another statement of the project prints alike" in p for p in found[n]) for n in texts), found


def test_renaming_the_bound_variable_does_not_hide_a_term_from_the_comparison():
    # a fifth red-team round: `∀ n, n + 1 = @g 1 n` and `∀ m, @g 0 m = m` print `g n` and `g m`; a derivation binds
    # `n` and `m` to one value and reads one function `g`, so they must be compared (they differ where the text
    # shows nothing: the implicit argument)
    from pysym.lean.meaning import statement_problems

    def theorem(name, body):
        return Name.of(name), ConstantInfo("thm", Name.of(name), (), {}, body, None)

    ours = project(RtC__g=("defn", ForallE(Name.of("k"), NAT, ForallE(Name.of("n"), NAT, NAT, "default"),
                                           "implicit")))

    def g(k, arg):
        return app("RtC.g", num(k), arg)

    one = ForallE(Name.of("n"), NAT, app("Eq", NAT, app("HAdd.hAdd", NAT, NAT, NAT, app("instHAdd", NAT, "instAddNat"),
                                                        BVar(0), num(1)), g(1, BVar(0))), "default")
    zero = ForallE(Name.of("m"), NAT, app("Eq", NAT, g(0, BVar(0)), BVar(0)), "default")
    consts = dict([theorem("RtC.g_one", one), theorem("RtC.g_zero", zero), *ours.items()])
    texts = {"RtC.g_one": "∀ (n : Nat), n + 1 = RtC.g n", "RtC.g_zero": "∀ (m : Nat), RtC.g m = m"}
    found = statement_problems(list(texts), consts, texts, list(texts))
    assert all(any("another statement of the project prints alike" in p for p in found[n]) for n in texts), found
    # the same function under other names: one term, nothing to refuse
    same = ForallE(Name.of("m"), NAT, app("Eq", NAT, g(1, BVar(0)), g(1, BVar(0))), "default")
    consts = dict([theorem("RtC.g_one", one), theorem("RtC.g_zero", same), *ours.items()])
    texts["RtC.g_zero"] = "∀ (m : Nat), RtC.g m = RtC.g m"
    assert statement_problems(list(texts), consts, texts, list(texts)) == {"RtC.g_one": [], "RtC.g_zero": []}


def test_a_binder_named_like_a_constant_it_uses_is_refused():
    # a sixth red-team round: on top of a base a user's `def m : Nat := 0` is private, and `pp.privateNames` prints
    # it as `m` once its prefix is removed, like the binder `m`: `∀ m, 3 ^ _root_.m ≤ 2 * m + 1` printed as the false
    # `∀ (m : Nat), 3 ^ m ≤ 2 * m + 1`
    ours = project(m=("defn", NAT))
    pow_ = app("HPow.hPow", NAT, NAT, NAT, app("instHPow", NAT, NAT, "instPowNat"), num(3), const("m"))
    e = ForallE(Name.of("m"), NAT, le(const("instLENat"), pow_, BVar(0)), "default")
    found = type_problems(e, ours, "∀ (m : Nat), 3 ^ m ≤ m")
    assert any("binder `m` has the name of the constant `m`" in p for p in found), found
    e = ForallE(Name.of("j"), NAT, le(const("instLENat"), pow_, BVar(0)), "default")
    assert not any("has the name of the constant" in p for p in type_problems(e, ours, "∀ (j : Nat), 3 ^ m ≤ j"))


def test_names_are_read_with_leans_identifier_characters():
    # a sixth red-team round: `MoeTheory.choose℘n` (℘ is a letter to Lean) was read as `MoeTheory.choose` applied
    # to `℘n`; the statement parser's names are Lean's, character for character
    import re

    from pysym.lean.lexer import is_id_first, is_id_rest
    from pysym.lean.syntax import ID_FIRST, ID_REST, mentions

    first, rest = re.compile(f"[{ID_FIRST}]"), re.compile(f"[{ID_REST}]")
    differ = [hex(c) for c in range(0x30000) if bool(first.fullmatch(chr(c))) != is_id_first(chr(c))
              or bool(rest.fullmatch(chr(c))) != is_id_rest(chr(c))]
    assert differ == []
    st = parse_statement("∀ (℘n k : Nat), MoeTheory.choose℘n k ≤ MoeTheory.choose k k")
    assert "binomial" not in str(st.conclusion.lhs) and str(st.conclusion.rhs) == "1"
    assert not mentions("MoeTheory.factorial", "MoeTheory.factorial᾽n * 2") and mentions("n", "(n + 1)")


def test_a_general_statement_and_an_instance_of_it_are_one_term():
    # `∀ {α} (H : α → Prop), D H` and `∀ (M : Nat → Prop), D M` print `D H` and `D M`, compared as one term since
    # the bound names do not count; the first's type variable may be instantiated to `Nat`, so they agree (the
    # library's `DomainNdimLE H d` over `{X α : Type}` and `DomainNdimLE M d` over masks are such a pair)
    from pysym.lean.meaning import statement_problems

    def theorem(name, body):
        return Name.of(name), ConstantInfo("thm", Name.of(name), (), {}, body, None)

    pred = ForallE(Name.of("x"), BVar(0), const("Prop"), "default")
    ours = project(Q__D=("defn", ForallE(Name.of("α"), TYPE, ForallE(Name.of("H"), pred, const("Prop"), "default"),
                                         "implicit")))
    general = ForallE(Name.of("α"), TYPE, ForallE(Name.of("H"), ForallE(Name.of("x"), BVar(0), const("Prop"),
                                                                          "default"),
                                                  app("Q.D", BVar(1), BVar(0)), "default"), "implicit")
    special = ForallE(Name.of("M"), ForallE(Name.of("x"), NAT, const("Prop"), "default"), app("Q.D", NAT, BVar(0)),
                      "default")
    consts = dict([theorem("Q.general", general), theorem("Q.special", special), *ours.items()])
    texts = {"Q.general": "∀ {α : Type} (H : α → Prop), Q.D H", "Q.special": "∀ (M : Nat → Prop), Q.D M"}
    found = statement_problems(list(texts), consts, texts, list(texts))
    assert not any("another statement of the project prints alike" in p for ps in found.values() for p in ps), found


def test_a_binder_is_compared_under_the_name_lean_prints():
    # a seventh red-team round: `∀ (_ : Nat), ‹Nat› < ‹Nat› + x` binds a hygienic `x._@.M._hyg.3`, which Lean prints
    # as `x`, beside the constant `x`: `∀ (x : Nat), x < x + x`; and beside a binder `x` Lean prints it `x_1`
    ours = project(x=("defn", NAT), x_1=("defn", NAT))
    hyg = Name.of("x.«_@».M._hyg.3")
    add = app("HAdd.hAdd", NAT, NAT, NAT, app("instHAdd", NAT, "instAddNat"), BVar(0), const("x"))
    e = ForallE(hyg, NAT, app("LT.lt", NAT, const("instLTNat"), BVar(0), add), "default")
    found = type_problems(e, ours, "∀ (x : Nat), x < x + x")
    assert any("binder `x` has the name of the constant `x`" in p for p in found), found
    mul = app("HMul.hMul", NAT, NAT, NAT, app("instHMul", NAT, "instMulNat"), BVar(0), const("x_1"))
    outer = app("HMul.hMul", NAT, NAT, NAT, app("instHMul", NAT, "instMulNat"), BVar(1), const("x_1"))
    renamed = ForallE(Name.of("x"), NAT, ForallE(hyg, NAT, app("Eq", NAT, mul, outer), "default"), "default")
    found = type_problems(renamed, ours, "∀ (x x_1 : Nat), x_1 * x_1 = x * x_1")
    assert any("print as x, x_1 but the compiled type binds x, x (Lean renamed one)" in p for p in found), found
    # instance binders are never named in the text: `[inst : DecidablePred A] [inst_1 : ...]` is not a renaming
    pred = ForallE(Name.of("a"), NAT, const("Prop"), "default")
    dec = ForallE(Name.of("A"), pred, ForallE(Name.of("inst.«_@».M._hyg.8"), app("DecidablePred", NAT, BVar(0)),
                                              ForallE(Name.of("inst.«_@».M._hyg.9"), app("DecidablePred", NAT, BVar(1)),
                                                      const("True"), "instImplicit"), "instImplicit"), "default")
    found = type_problems(dec, {}, "∀ (A : Nat → Prop) [inst : DecidablePred A] [inst_1 : DecidablePred A], True")
    assert not any("renamed" in p or "twice" in p for p in found), found


# --------------------------------------------------------------------------- the compiled term's own reading


def nat_op(op, inst, a, b):
    return app(op, NAT, NAT, NAT, app("instH" + op.split(".")[0][1:], NAT, inst), a, b)


def nat_pow(a, b):
    return app("HPow.hPow", NAT, NAT, NAT, app("instHPow", NAT, NAT, app("instPowNat", NAT, "instNatPowNat")), a, b)


def translated(e, consts, text):
    return [p for p in type_problems(e, consts, text) if "pysym.lean.translate" in p]


def test_the_text_must_read_as_the_compiled_term_reads_itself():
    """pysym.lean.translate reads the kernel term by an allow-list and compares it with the parser's reading of
    the text: whatever a notation or an unexpander prints, the premise means what Lean proved."""
    n, k = BVar(1), BVar(0)
    chain = lambda body: ForallE(Name.of("n"), NAT, ForallE(Name.of("k"), NAT, body, "default"), "default")
    honest = chain(le(const("instLENat"), k, nat_pow(n, k)))
    assert translated(honest, {}, "∀ (n k : Nat), k ≤ n ^ k") == []
    found = translated(honest, {}, "∀ (n k : Nat), n ≤ k ^ n")  # the same shape, the binders swapped
    assert found == ["its printed statement reads as `n <= k**n` but its compiled type means `k <= n**k` (read by "
                     "pysym.lean.translate): the text does not show what Lean proved"], found
    # a project function that prints as `^` (a notation, an unexpander): the text's power is not Lean's
    ours = project(E__mypow=("defn", ForallE(Name.of("a"), NAT, ForallE(Name.of("b"), NAT, NAT, "default"), "default")))
    spoof = chain(le(const("instLENat"), k, app("E.mypow", n, k)))
    assert any("reads as `k <= n**k`" in p and "means `k <= □`" in p
               for p in translated(spoof, ours, "∀ (n k : Nat), k ≤ n ^ k"))
    # `≥` printed as `≤`, a numeral printed as another, `*` printed as `+`
    ge = chain(app("GE.ge", NAT, const("instLENat"), k, n))
    assert translated(ge, {}, "∀ (n k : Nat), k ≥ n") == []
    assert translated(ge, {}, "∀ (n k : Nat), k ≤ n")
    assert translated(ge, {}, "∀ (n k : Nat), n ≤ k")  # the same meaning, but not as Lean prints it: refused
    m = BVar(0)
    three = ForallE(Name.of("n"), NAT, le(const("instLENat"), nat_op("HAdd.hAdd", "instAddNat", m, num(1)),
                                          nat_op("HMul.hMul", "instMulNat", m, num(3))), "default")
    assert translated(three, {}, "∀ (n : Nat), n + 1 ≤ n * 3") == []
    assert translated(three, {}, "∀ (n : Nat), n + 1 ≤ n * 2")
    assert translated(three, {}, "∀ (n : Nat), n + 1 ≤ n + 3")
    # a hypothesis the text leaves out, or one it adds
    hyp = chain(ForallE(Name.of("h"), le(const("instLENat"), num(1), n), le(const("instLENat"), BVar(1), BVar(2)),
                        "default"))
    assert translated(hyp, {}, "∀ (n k : Nat), 1 ≤ n → k ≤ n") == []
    assert any("hypotheses read as []" in p for p in translated(hyp, {}, "∀ (n k : Nat), k ≤ n"))
    assert translated(honest, {}, "∀ (n k : Nat), 1 ≤ n → k ≤ n ^ k")
    # a numeric binder of another type than the text shows
    rat = ForallE(Name.of("x"), NAT, app("LE.le", const("Rat"), const("Rat.instLE"),
                                         app("Nat.cast", const("Rat"), const("Rat.instNatCast"), BVar(0)),
                                         app("OfNat.ofNat", const("Rat"), Lit(2), app("Rat.instOfNat", Lit(2)))),
                  "default")
    assert translated(rat, {}, "∀ (x : Nat), ↑x ≤ 2") == []
    assert any("numeric binders print as x : Rat" in p for p in translated(rat, {}, "∀ (x : Rat), x ≤ 2"))


def test_what_the_translation_does_not_read_is_refused_never_boxed():
    """A relation or an operation with an instance the allow-list does not know, Nat subtraction, a power with a
    non-standard instance: a refusal mark, never a box that would match any opaque text."""
    n = BVar(0)
    odd_le = ForallE(Name.of("n"), NAT, le(app("E.inst"), n, n), "default")
    assert any(p.startswith("its compiled type has `LE.le` on a type or with an instance")
               for p in translated(odd_le, project(E__inst=("defn", NAT)), "∀ (n : Nat), n ≤ n"))
    sub = ForallE(Name.of("n"), NAT, app("Eq", NAT, nat_op("HSub.hSub", "instSubNat", n, n), num(0)), "default")
    assert any("`HSub.hSub` on a type" in p for p in translated(sub, {}, "∀ (n : Nat), n * 1 = 0"))
    odd_pow = ForallE(Name.of("n"), NAT, le(const("instLENat"), n, app("HPow.hPow", NAT, NAT, NAT,
                                                                       app("E.pow"), n, num(2))), "default")
    assert any("a power of a type or with an instance" in p
               for p in translated(odd_pow, project(E__pow=("defn", NAT)), "∀ (n : Nat), n ≤ n ^ 2"))


def test_an_exists_binder_of_a_numeric_type_the_text_does_not_show_is_refused():
    # an eighth red-team round: `∃ x : Rat, x + 1 = 0` prints `∃ x, x + 1 = 0`, which read alone binds a natural
    # number (false); every constant in it is standard
    from pysym.lean.terms import Lam

    rat = const("Rat")

    def exists(ty, inst_add, one, zero):
        add = app("HAdd.hAdd", ty, ty, ty, app("instHAdd", ty, inst_add), BVar(0), one)
        return app("Exists", ty, Lam(Name.of("x"), ty, app("Eq", ty, add, zero), "default"))

    def rat_num(n):
        return app("OfNat.ofNat", rat, Lit(n), app("Rat.instOfNat", Lit(n)))

    found = type_problems(exists(rat, "Rat.instAdd", rat_num(1), rat_num(0)), {}, "∃ x, x + 1 = 0")
    assert any("the type of the bound `x` involves Rat, which the text does not show" in p for p in found), found
    found = type_problems(exists(NAT, "instAddNat", num(1), num(0)), {}, "∃ x, x + 1 = 0")
    assert not any("the bound `x`" in p for p in found), found  # a natural number, as the text reads
    # round 9: `∃ f : Bool → Rat, f true < 0` prints `∃ f, f true < 0`; read alone f returns a natural number
    fn = ForallE(Name.of("b"), const("Bool"), rat, "default")
    lt = app("LT.lt", rat, const("Rat.instLT"), App(BVar(0), const("Bool.true")), rat_num(0))
    found = type_problems(app("Exists", fn, Lam(Name.of("f"), fn, lt, "default")), {}, "∃ f, f true < 0")
    assert any("the type of the bound `f` involves Rat" in p for p in found), found


def test_a_binder_named_inst_is_a_binder_unless_it_is_an_anonymous_instance():
    # round 9: `(_inst : Nat → Nat)` was dropped from the binders, so `_inst 0` read as a function of the library
    assert "_inst" in parse_statement("∀ (m : Nat) (_inst : Nat → Nat), _inst 0 = m").binders
    assert "_inst" not in parse_statement("∀ (m : Nat) [DecidableEq Nat], m = m").binders


def test_a_constant_at_two_universe_levels_is_two_terms():
    # round 11: `c.{0} = 0 ∧ c.{1} = 1` prints `RtB.c = 0 ∧ RtB.c = 1` (a bare constant prints without its levels)
    from pysym.lean.meaning import statement_problems
    from pysym.lean.terms import ConstantInfo

    consts = {Name.of("RtB.c"): ConstantInfo("defn", Name.of("RtB.c"), (Name.of("u"),), {}, NAT, None)}
    c0, c1 = Const(Name.of("RtB.c"), (Zero(),)), Const(Name.of("RtB.c"), (Succ(Zero()),))
    terms = {"RtB.both": app("And", app("Eq", NAT, c0, num(0)), app("Eq", NAT, c1, num(1))),
             "RtB.t0": app("Eq", NAT, c0, num(0)), "RtB.t1": app("Eq", NAT, c1, num(1))}
    for n, ty in terms.items():
        consts[Name.of(n)] = ConstantInfo("thm", Name.of(n), (), {}, ty, None)
    texts = {"RtB.both": "RtB.c = 0 ∧ RtB.c = 1", "RtB.t0": "RtB.c = 0", "RtB.t1": "RtB.c = 1"}
    found = statement_problems(list(texts), consts, texts, declared=list(texts))
    assert all(found[n] for n in texts), found


def test_a_binder_of_an_alias_type_used_as_a_number_is_refused():
    # round 11: `∀ (x : N), x ≤ x * x` with `N := Nat` read x as an unrestricted symbol (false at x = 1/2)
    ours = project(N=("defn", TYPE, NAT))
    x = BVar(0)
    t = ForallE(Name.of("x"), const("N"), le(const("instLENat"), x, nat_op("HMul.hMul", "instMulNat", x, x)),
                "default")
    found = type_problems(t, ours, "∀ (x : N), x ≤ x * x")
    assert any("binder is not of a core number type" in p for p in found), found
