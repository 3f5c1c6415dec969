"""The .olean reader and the axiom audit built on it.

Pure-Python tests build small compacted regions by hand (a miniature of
Lean's compactor below) and check that well-formed ones decode and damaged
ones raise ``OleanError``.  Tests marked ``lean`` compile one Lean file of
cases with known axiom sets once (with the session's other Lean files:
``lean_batch``), then audit its ``.olean``.
"""

from __future__ import annotations

import struct
from pathlib import Path

import pytest

from pysym.lean import terms as T
from pysym.lean.axioms import audit_graph, audit_oleans, findings, user_name
from pysym.lean.compacted import OleanError, Region
from pysym.lean.constgraph import ConstGraph, core_graph
from pysym.lean.olean import HEADER_SIZE, LEAN_GITHASH, LEAN_VERSION, read_header, read_olean
from pysym.lean.terms import Name

# --------------------------------------------------------------------------- a miniature compactor

BASE = 0x5D180000


class Writer:
    """Writes objects the way Lean's compactor does for wasm32."""

    def __init__(self):
        self.data = bytearray(HEADER_SIZE + 4)  # header, then the root pointer

    def _put(self, raw: bytes) -> int:
        raw += bytes(-len(raw) % 4)
        addr = BASE + len(self.data)
        self.data += raw
        return addr

    def ctor(self, tag: int, fields=(), scalars: bytes = b"") -> int:
        size = 8 + 4 * len(fields) + len(scalars)
        return self._put(struct.pack(f"<iHBB{len(fields)}I", 0, size, len(fields), tag, *fields) + scalars)

    def string(self, s: str) -> int:
        b = s.encode() + b"\0"
        return self._put(struct.pack("<iHBBIII", 0, 1, 0, 249, len(b), len(b), len(s)) + b)

    def array(self, items) -> int:
        return self._put(struct.pack(f"<iHBBII{len(items)}I", 0, 1, 0, 246, len(items), len(items), *items))

    def name(self, text: str) -> int:
        ptr = 0x1
        for comp in text.split("."):
            ptr = self.ctor(1, (ptr, self.string(comp)), bytes(8))
        return ptr

    def olean(self, root: int, githash: str = LEAN_GITHASH, version: int = 2, lean: str = LEAN_VERSION) -> bytes:
        header = struct.pack("<5sBB33s40sI", b"olean", version, 0, lean.encode(), githash.encode(), BASE)
        out = bytearray(self.data)
        out[:HEADER_SIZE] = header
        out[HEADER_SIZE : HEADER_SIZE + 4] = struct.pack("<I", root)
        return bytes(out)


def axiom_module(w: Writer, name="foo", type_ptr=None) -> int:
    """A ModuleData with one axiom ``name : Prop`` (``Sort 0``)."""
    n = w.name(name)
    sort0 = type_ptr if type_ptr is not None else w.ctor(3, (0x1,), bytes(8))
    cval = w.ctor(0, (n, 0x1, sort0))
    ci = w.ctor(0, (w.ctor(0, (cval,), b"\0"),))
    empty = w.array([])
    return w.ctor(0, (empty, w.array([n]), w.array([ci]), empty, empty), b"\1")


def write(tmp_path: Path, data: bytes, name="M.olean") -> Path:
    p = tmp_path / name
    p.write_bytes(data)
    return p


def theorem_module(w: Writer) -> int:
    """A ModuleData with one theorem using most kinds of Expr node and a
    universe parameter: the fuzzing target."""
    u = w.name("u")
    sort_u = w.ctor(3, (w.ctor(4, (u,), bytes(8)),), bytes(8))
    bvar0 = w.ctor(0, (0x1,), bytes(8))
    const = w.ctor(4, (w.name("Nat.succ"), w.ctor(1, (0x1, 0x1))), bytes(8))  # levels [zero]
    lit = w.ctor(9, (w.ctor(0, (0xB,)),), bytes(8))  # natVal 5
    proj = w.ctor(11, (w.name("Prod"), 0x1, w.ctor(5, (const, lit), bytes(8))), bytes(8))
    entry = w.ctor(0, (w.name("k"), w.ctor(3, (0x7,))))  # (k, ofNat 3)
    mdata = w.ctor(10, (w.ctor(1, (entry, 0x1)), proj), bytes(8))
    let = w.ctor(8, (w.name("y"), bvar0, bvar0, mdata), bytes(8) + b"\1")
    value = w.ctor(6, (w.name("x"), sort_u, let), bytes(8) + b"\0")
    type_ = w.ctor(7, (w.name("x"), sort_u, bvar0), bytes(8) + b"\1")
    n = w.name("T.t")
    cval = w.ctor(0, (n, w.ctor(1, (u, 0x1)), type_))
    ci = w.ctor(2, (w.ctor(0, (cval, value, w.ctor(1, (n, 0x1)))),))
    empty = w.array([])
    return w.ctor(0, (empty, w.array([n]), w.array([ci]), empty, empty), b"\1")


# --------------------------------------------------------------------------- header


GOOD_HEADER = struct.pack("<5sBB33s40sI", b"olean", 2, 0, LEAN_VERSION.encode(), LEAN_GITHASH.encode(), BASE)


@pytest.mark.parametrize(
    "data, complaint",
    [
        (b"", "not an .olean file"),
        (b"olea", "not an .olean file"),
        (b"\x7fELF" + bytes(200), "not an .olean file"),
        (GOOD_HEADER[:50], "truncated .olean header"),
        (GOOD_HEADER[:83], "truncated .olean header"),
        (GOOD_HEADER[:5] + b"\x01" + GOOD_HEADER[6:] + bytes(8), "format version 1"),
        (GOOD_HEADER[:7] + b"4.27.0".ljust(33, b"\0") + GOOD_HEADER[40:] + bytes(8), "written by Lean '4.27.0'"),
        (GOOD_HEADER[:40] + b"f" * 40 + GOOD_HEADER[80:] + bytes(8), "commit ffffffffffff"),
        (GOOD_HEADER[:6] + b"\x01" + GOOD_HEADER[7:] + bytes(8), "GMP"),
        (GOOD_HEADER, "not a 32-bit compacted region"),
        (GOOD_HEADER + bytes(6), "not a 32-bit compacted region"),
    ],
)
def test_header_refuses_anything_but_this_toolchains_files(data, complaint):
    with pytest.raises(OleanError, match=complaint):
        read_header(data, "x.olean")


def test_header_of_a_good_file():
    h = read_header(GOOD_HEADER + bytes(8))
    assert (h.version, h.lean_version, h.githash, h.base_addr) == (2, LEAN_VERSION, LEAN_GITHASH, BASE)


def test_missing_file_is_an_olean_error(tmp_path):
    with pytest.raises(OleanError, match="no such .olean file"):
        read_olean(tmp_path / "Nope.olean")


# --------------------------------------------------------------------------- regions


def test_hand_written_module_decodes(tmp_path):
    w = Writer()
    mod = read_olean(write(tmp_path, w.olean(axiom_module(w, "A.foo"))))
    assert mod.is_module and mod.level == "exported" and mod.imports == []
    (c,) = mod.constants.values()
    assert (c.kind, c.name, c.level_params, c.value) == ("axiom", Name.of("A.foo"), (), None)
    assert c.type == T.Sort(T.Zero())
    assert c.type_constants() == set()


def _set(data: bytes, off: int, raw: bytes) -> bytes:
    return data[:off] + raw + data[off + len(raw) :]


ROOT_PTR = HEADER_SIZE  # where the root pointer sits


@pytest.mark.parametrize(
    "damage, complaint",
    [
        (lambda d, root: d[: root + 4], "outside the module's region"),
        (lambda d, root: _set(d, ROOT_PTR, struct.pack("<I", BASE + root + 2)), "outside the module's region"),
        (lambda d, root: _set(d, ROOT_PTR, struct.pack("<I", 0x10)), "outside the module's region"),
        (lambda d, root: _set(d, ROOT_PTR, struct.pack("<I", 0x7)), "found the scalar 3"),
        (lambda d, root: _set(d, root + 7, b"\xf6"), "expected ModuleData, found an object with tag 246"),
        (lambda d, root: _set(d, root, b"\x01"), "reference count 1"),
        (lambda d, root: _set(d, root + 6, b"\x04"), "expected ModuleData with 5 fields, found 4"),
        (lambda d, root: _set(d, root + 4, b"\x0c\x00"), "bad object size 12"),
        (lambda d, root: _set(d, root + 16, b"\x00\x00\x00\x00"), "outside the module's region"),
    ],
)
def test_damaged_regions_raise(tmp_path, damage, complaint):
    w = Writer()
    root = axiom_module(w)
    data = damage(w.olean(root), root - BASE)
    with pytest.raises(OleanError, match=complaint):
        read_olean(write(tmp_path, data)).constants


def test_theorem_module_decodes(tmp_path):
    w = Writer()
    (c,) = read_olean(write(tmp_path, w.olean(theorem_module(w)))).constants.values()
    n = Name.of
    u = T.Sort(T.Param(n("u")))
    assert (c.kind, c.level_params, c.info["all"]) == ("thm", (n("u"),), (n("T.t"),))
    assert c.type == T.ForallE(n("x"), u, T.BVar(0), "implicit")
    inner = T.App(T.Const(n("Nat.succ"), (T.Zero(),)), T.Lit(5))
    assert c.value == T.Lam(n("x"), u, T.LetE(n("y"), T.BVar(0), T.BVar(0), T.MData(
        ((n("k"), 3),), T.Proj(n("Prod"), 0, inner)), True), "default")
    assert c.value_constants() == {n("Nat.succ")}


def test_random_damage_raises_olean_error_or_nothing(tmp_path):
    """Whatever bytes of the region are changed, reading ends, and with
    either a result or an OleanError: no other exception, no hang."""
    import random

    w = Writer()
    good = w.olean(theorem_module(w))
    rng = random.Random(20261123)
    path = tmp_path / "F.olean"
    outcomes = {"ok": 0, "refused": 0}
    for _ in range(400):
        data = bytearray(good)
        for _ in range(rng.randint(1, 4)):
            data[rng.randrange(HEADER_SIZE, len(data))] = rng.randrange(256)
        path.write_bytes(bytes(data))
        try:
            mod = read_olean(path)
            for c in mod.constants.values():
                c.type, c.value, c.type_constants(), c.value_constants()
            outcomes["ok"] += 1
        except OleanError:
            outcomes["refused"] += 1
    assert outcomes["ok"] and outcomes["refused"]


def test_cyclic_name_is_reported_not_followed(tmp_path):
    w = Writer()
    s = w.string("loop")
    addr = BASE + len(w.data)  # the next object points to itself
    n = w.ctor(1, (addr, s), bytes(8))
    assert n == addr
    cval_type = w.ctor(3, (0x1,), bytes(8))
    cval = w.ctor(0, (n, 0x1, cval_type))
    ci = w.ctor(0, (w.ctor(0, (cval,), b"\0"),))
    e = w.array([])
    root = w.ctor(0, (e, w.array([n]), w.array([ci]), e, e), b"\1")
    with pytest.raises(OleanError, match="cyclic"):
        read_olean(write(tmp_path, w.olean(root)))


def test_cyclic_expression_is_reported(tmp_path):
    w = Writer()
    addr = BASE + len(w.data)
    app = w.ctor(5, (addr, addr), bytes(8))  # App f a with f = a = itself
    mod = read_olean(write(tmp_path, w.olean(axiom_module(w, type_ptr=app))))
    (c,) = mod.constants.values()
    with pytest.raises(OleanError, match="cyclic"):
        c.type
    assert c.type_constants() == set()  # the constants walk keeps a visited set


def test_wrong_shapes_are_reported(tmp_path):
    w = Writer()
    bad_expr = w.ctor(5, (0x1,), bytes(8))  # App with one field
    mod = read_olean(write(tmp_path, w.olean(axiom_module(w, type_ptr=bad_expr))))
    with pytest.raises(OleanError, match="Expr.app with 1 fields"):
        mod.constants
    w = Writer()
    s = w.string("x")
    raw = bytearray(w.data)
    raw[-4] = 0xFF  # not UTF-8
    w.data = raw
    with pytest.raises(OleanError, match="UTF-8"):
        Region([("r", bytes(w.data), BASE)]).string(s)


def test_generic_values():
    w = Writer()
    s = w.string("héllo")
    arr = w.array([s, 0x5, w.ctor(2, (s,), b"\x07")])
    r = Region([("r", bytes(w.data), BASE)])
    assert r.value(arr) == ("héllo", 2, r.value(arr)[2])
    ctor = r.value(arr)[2]
    assert (ctor.tag, ctor.fields, ctor.scalars) == (2, ("héllo",), b"\x07")


def test_deep_expression_needs_no_recursion(tmp_path):
    w = Writer()
    e = w.ctor(0, (0x1,), bytes(8))  # bvar 0
    const = w.ctor(4, (w.name("f"), 0x1), bytes(8))
    for _ in range(20000):
        e = w.ctor(5, (const, e), bytes(8))
    mod = read_olean(write(tmp_path, w.olean(axiom_module(w, type_ptr=e))))
    (c,) = mod.constants.values()
    assert c.type_constants() == {Name.of("f")}
    assert sum(1 for x in T.walk(c.type) if type(x) is T.App) == 20000


# --------------------------------------------------------------------------- names and graphs


def test_names():
    assert Name.of("a.«b.c».3") == Name(("a", "b.c", 3))
    assert str(Name(("a", "b.c", 3))) == "a.«b.c».3"
    assert sorted([Name.of("b"), Name.of("a.2"), Name.of("a.b"), Name.of("a.1")]) == [
        Name.of("a.1"), Name.of("a.2"), Name.of("a.b"), Name.of("b")]
    assert str(user_name(Name.of("_private.Foo.Bar.0.X.y"))) == "X.y"


def test_audit_follows_collect_axioms_semantics():
    core = ConstGraph.from_nodes([
        ("propext", "axiom", []),
        ("Classical.choice", "axiom", []),
        ("Classical.em", "stripped", ["Or"]),
        ("Or", "body", ["Or.inl"]),  # an inductive reaches its constructors
        ("Or.inl", "body", ["Or"]),
    ])
    proj = ConstGraph.from_nodes([
        ("T", "body", ["T.mk"]),
        ("T.mk", "body", ["T", "pick"]),  # a cycle through an inductive and its constructor
        ("pick", "body", ["Classical.choice"]),
        ("uses_t", "body", ["T"]),
        ("uses_em", "body", ["Classical.em"]),
        ("uses_gone", "body", ["Gone.helper", "propext"]),
        ("bad", "axiom", []),
        ("uses_bad", "body", ["bad"]),
    ], base=core)
    audit = audit_graph(core, proj)
    got = {d.name: (d.axioms, d.unverified) for d in audit}
    assert got == {
        "T": (("Classical.choice",), 0),
        "T.mk": (("Classical.choice",), 0),
        "pick": (("Classical.choice",), 0),
        "uses_t": (("Classical.choice",), 0),
        "uses_em": ((), 1),
        "uses_gone": (("propext",), 1),
        "bad": (("bad",), 0),
        "uses_bad": (("bad",), 0),
    }
    assert audit.unverified("uses_em") == ["Classical.em"]
    assert [(f.declaration, f.axiom, f.path, f.project_axiom) for f in findings(audit)] == [
        ("bad", "bad", ("bad",), True),
        ("uses_bad", "bad", ("uses_bad", "bad"), True),
    ]


def test_a_private_axiom_named_like_a_standard_one_is_still_a_finding():
    core = ConstGraph.from_nodes([("propext", "axiom", [])])
    fake = "_private.M.0.propext"
    proj = ConstGraph.from_nodes([(fake, "axiom", []), ("t", "body", [fake, "propext"])], base=core)
    audit = audit_graph(core, proj)
    assert audit["t"].axioms == (fake, "propext")  # shown by its stored name: no confusion
    assert [(f.declaration, f.axiom, f.project_axiom) for f in findings(audit)] == [
        (fake, fake, True), ("t", fake, True)]


def test_kernel_evaluation_counts_as_an_axiom():
    # `theorem t : Lean.reduceBool c = true := rfl`: the kernel runs c's compiled code, and the proof names no axiom
    core = ConstGraph.from_nodes([("propext", "axiom", []), ("Lean.reduceBool", "body", []),
                                  ("Lean.reduceNat", "stripped", [])])
    proj = ConstGraph.from_nodes([("c", "body", []), ("t", "body", ["Lean.reduceBool", "c"]),
                                  ("u", "body", ["t", "propext"]), ("n", "body", ["Lean.reduceNat"]),
                                  ("fine", "body", ["c", "propext"])], base=core)
    audit = audit_graph(core, proj)
    assert {d.name: d.axioms for d in audit} == {"c": (), "t": ("Lean.reduceBool",),
                                                 "u": ("Lean.reduceBool", "propext"), "n": ("Lean.reduceNat",),
                                                 "fine": ("propext",)}
    found = {(f.declaration, f.axiom): f for f in findings(audit)}
    assert sorted(found) == [("n", "Lean.reduceNat"), ("t", "Lean.reduceBool"), ("u", "Lean.reduceBool")]
    assert found[("u", "Lean.reduceBool")].message == (
        "u depends on Lean.reduceBool (the kernel runs compiled code to reduce it: as trusted as an axiom), "
        "through t: u -> t -> Lean.reduceBool")


def test_an_unsafe_constant_counts_as_an_axiom():
    # a safe theorem that uses an unsafe constant was not checked by the kernel (set_option debug.skipKernelTC)
    core = ConstGraph.from_nodes([("propext", "axiom", []), ("unsafeCast", "unsafe", [])])
    proj = ConstGraph.from_nodes([("loop", "unsafe", ["loop"]), ("bad", "body", ["loop"]),
                                  ("cast_user", "body", ["unsafeCast"]), ("fine", "body", ["propext"])], base=core)
    audit = audit_graph(core, proj)
    assert {d.name: d.axioms for d in audit} == {"loop": ("loop",), "bad": ("loop",), "cast_user": ("unsafeCast",),
                                                 "fine": ("propext",)}
    found = {(f.declaration, f.axiom): f for f in findings(audit)}
    assert sorted(found) == [("bad", "loop"), ("cast_user", "unsafeCast"), ("loop", "loop")]
    assert all(f.unsafe for f in found.values())
    assert found[("loop", "loop")].message.startswith("loop is an unsafe constant (the kernel accepts no safe")


def test_long_dependency_chains_need_no_recursion():
    n = 20000
    core = ConstGraph.from_nodes([("sorryAx", "axiom", [])])
    nodes = [(f"c{i}", "body", [f"c{i + 1}"]) for i in range(n)] + [(f"c{n}", "body", ["sorryAx"])]
    audit = audit_graph(core, ConstGraph.from_nodes(nodes, base=core))
    assert audit["c0"].axioms == ("sorryAx",)
    assert len(audit.path("c0", "sorryAx")) == n + 2


# --------------------------------------------------------------------------- with Lean

CASES = """
-- Theorems with known axiom sets, for the .olean axiom audit.
namespace Cases

theorem none_rfl : 1 + 1 = 2 := rfl

theorem only_propext (a b : Prop) (h : a ↔ b) : a = b := propext h

-- `Classical.em` is proved in core; its proof is not shipped.
theorem em_core (p : Prop) : p ∨ ¬p := Classical.em p

noncomputable def pick (h : Nonempty Nat) : Nat := Classical.choice h

theorem choice_user (h : Nonempty Nat) : pick h = pick h := rfl

noncomputable def decideAny (p : Prop) : Bool := @decide p (Classical.propDecidable p)

theorem choice_via_core_def (p : Prop) : decideAny p = decideAny p := rfl

theorem quot_direct (r : Nat → Nat → Prop) (h : r 0 1) : Quot.mk r 0 = Quot.mk r 1 := Quot.sound h

theorem funext_core (f g : Nat → Nat) (h : ∀ x, f x = g x) : f = g := funext h

axiom myAx : 1 = 2

theorem level1 : 1 = 2 := myAx

theorem level2 : 2 = 1 := level1.symm

theorem with_sorry : 1 = 2 := sorry

theorem by_native_decide : 10 + 10 = 20 := by native_decide

theorem by_decide_native : 3 * 7 = 21 := by decide +native

theorem by_decide_kernel : 2 + 2 = 4 := by decide +kernel

def bigBool : Bool := decide (2 ^ 64 < 2 ^ 65)

-- the kernel evaluates `Lean.reduceBool` by running compiled code: no axiom in the proof
theorem by_reduce_bool : Lean.reduceBool bigBool = true := rfl

unsafe def loopU : False := loopU

-- the kernel would refuse a safe theorem that uses an unsafe constant; with its check skipped, nothing does
set_option debug.skipKernelTC true in
theorem by_unsafe : 2 + 2 = 5 := loopU.elim

#guard_msgs (drop error) in
theorem hidden_bad : 2 + 2 = 5 := by decide

theorem uses_hidden : 2 + 2 = 5 := hidden_bad

private theorem priv_propext (a b : Prop) (h : a ↔ b) : a = b := propext h

theorem uses_private (h : True ↔ True) : True = True := priv_propext True True h

class Pointed (α : Type) where
  pt : α

noncomputable instance instPointedNat : Pointed Nat := ⟨Classical.choice ⟨0⟩⟩

theorem instance_user : (Pointed.pt : Nat) = Pointed.pt := rfl

instance instPointedBool : Pointed Bool := ⟨true⟩

theorem plain_instance_user : (Pointed.pt : Bool) = true := rfl

inductive Color where
  | red
  | green

theorem color_by_rec (c : Color) : c = .red ∨ c = .green :=
  Color.rec (motive := fun c => c = .red ∨ c = .green) (Or.inl rfl) (Or.inr rfl) c

structure Pt where
  x : Nat
  y : Nat

theorem pt_eta (p : Pt) : Pt.mk p.x p.y = p := by cases p; rfl

noncomputable def chosenNat : Nat := Classical.choice ⟨0⟩

-- the constructor's type uses `chosenNat`, so the inductive reaches `Classical.choice`
inductive Tagged : Nat → Prop where
  | mk : Tagged chosenNat

theorem tagged_user (n : Nat) (h : Tagged n) : Tagged n := h

end Cases
"""

EXPECTED = {
    "Cases.none_rfl": (),
    "Cases.only_propext": ("propext",),
    "Cases.em_core": (),  # Classical.choice is inside core's (unshipped) proof of Classical.em
    "Cases.pick": ("Classical.choice",),
    "Cases.choice_user": ("Classical.choice",),
    "Cases.decideAny": ("Classical.choice",),
    "Cases.choice_via_core_def": ("Classical.choice",),
    "Cases.quot_direct": ("Quot.sound",),
    "Cases.funext_core": (),  # Quot.sound is inside core's (unshipped) proof of funext
    "Cases.myAx": ("Cases.myAx",),
    "Cases.level1": ("Cases.myAx",),
    "Cases.level2": ("Cases.myAx",),
    "Cases.with_sorry": ("sorryAx",),
    "Cases.by_native_decide": ("Lean.ofReduceBool", "Lean.reduceBool"),  # the axiom's statement names reduceBool
    "Cases.by_decide_native": ("Lean.ofReduceBool", "Lean.reduceBool"),  # the axiom's statement names reduceBool
    "Cases.by_decide_kernel": (),
    "Cases.bigBool": (),
    "Cases.by_reduce_bool": ("Lean.reduceBool",),
    "Cases.loopU": ("Cases.loopU",),
    "Cases.by_unsafe": ("Cases.loopU",),
    "Cases.hidden_bad": ("sorryAx",),
    "Cases.uses_hidden": ("sorryAx",),
    "Cases.priv_propext": ("propext",),
    "Cases.uses_private": ("propext",),
    "Cases.Pointed": (),
    "Cases.instPointedNat": ("Classical.choice",),
    "Cases.instance_user": ("Classical.choice",),
    "Cases.instPointedBool": (),
    "Cases.plain_instance_user": (),
    "Cases.Color": (),
    "Cases.Color.rec": (),
    "Cases.color_by_rec": (),
    "Cases.Pt": (),
    "Cases.Pt.rec": (),
    "Cases.pt_eta": (),
    "Cases.chosenNat": ("Classical.choice",),
    "Cases.Tagged": ("Classical.choice",),
    "Cases.Tagged.mk": ("Classical.choice",),
    "Cases.Tagged.rec": ("Classical.choice",),
    "Cases.tagged_user": ("Classical.choice",),
}


@pytest.fixture(scope="module")
def wasm_toolchain(toolchain):
    """The toolchain, when it is the registry (wasm32) build whose files the .olean reader reads; else the
    test is skipped, saying so (a native toolchain writes 64-bit files)."""
    if toolchain.kind != "wasm":
        pytest.skip("the .olean reader reads the registry (wasm32) toolchain's files")
    return toolchain


@pytest.fixture(scope="module")
def cases_olean(wasm_toolchain, lean_batch):
    """``AxiomCases.olean`` (and its parts), compiled by the wasm Lean (in the
    session's batch of Lean files: ``lean_batch`` in conftest.py)."""
    outcome = lean_batch["outcomes"]["AxiomCases"]
    assert outcome is not None
    errors = [f"{m['pos']['line']}: {m['data']}" for m in outcome.messages if m.get("severity") == "error"]
    assert not errors and outcome.code == 0, errors
    out = lean_batch["jobs"]["AxiomCases"].olean
    assert out.is_file() and Path(str(out) + ".private").is_file()
    return out


@pytest.fixture(scope="module")
def core_cache():
    """The user cache of the core library's graph that checks use (a check of the project, `make run`
    in CI, fills it; reading the core library afresh costs about 10 s): what it holds is checked
    against the files it was read from (``test_core_graph_cache_is_reused_and_equal``)."""
    from pysym.paths import cache_dir

    return cache_dir() / "olean-axioms"


@pytest.fixture(scope="module")
def cases_audit(toolchain, cases_olean, core_cache):
    return audit_oleans([cases_olean], [toolchain.lib], cache_dir=core_cache)


@pytest.mark.lean
def test_axiom_sets_of_the_cases(cases_audit):
    got = {name: cases_audit[name].axioms for name in EXPECTED}
    assert got == EXPECTED


@pytest.mark.lean
def test_unshipped_core_proofs_are_counted_not_guessed(cases_audit):
    assert cases_audit.unverified("Cases.em_core") == ["Classical.em"]
    assert cases_audit.unverified("Cases.funext_core") == ["funext"]
    assert cases_audit["Cases.em_core"].unverified == 1
    assert cases_audit["Cases.only_propext"].unverified == 0


@pytest.mark.lean
def test_findings_name_the_declaration_the_axiom_and_the_path(cases_audit):
    found = {(f.declaration, f.axiom) for f in findings(cases_audit)}
    user = {pair for pair in found if "._" not in pair[0]}  # leave out Lean's auxiliary _proof_ / _nativeDecide_
    assert user == {
        ("Cases.myAx", "Cases.myAx"),
        ("Cases.level1", "Cases.myAx"),
        ("Cases.level2", "Cases.myAx"),
        ("Cases.with_sorry", "sorryAx"),
        ("Cases.by_native_decide", "Lean.ofReduceBool"),
        ("Cases.by_decide_native", "Lean.ofReduceBool"),
        ("Cases.by_native_decide", "Lean.reduceBool"),
        ("Cases.by_decide_native", "Lean.reduceBool"),
        ("Cases.by_reduce_bool", "Lean.reduceBool"),
        ("Cases.loopU", "Cases.loopU"),
        ("Cases.by_unsafe", "Cases.loopU"),
        ("Cases.hidden_bad", "sorryAx"),
        ("Cases.uses_hidden", "sorryAx"),
    }
    by = {(f.declaration, f.axiom): f for f in findings(cases_audit)}
    level2 = by[("Cases.level2", "Cases.myAx")]
    assert level2.path == ("Cases.level2", "Cases.level1", "Cases.myAx") and level2.project_axiom
    assert "through Cases.level1" in level2.message and "declared in the project" in level2.message
    hidden = by[("Cases.uses_hidden", "sorryAx")]
    assert hidden.path == ("Cases.uses_hidden", "Cases.hidden_bad", "sorryAx")
    lenient = findings(cases_audit, allowed={"propext", "Classical.choice", "Quot.sound", "sorryAx",
                                             "Lean.ofReduceBool", "Lean.reduceBool", "Cases.myAx"})
    # the project's own axioms are findings whatever `allowed` says
    assert {(f.declaration, f.project_axiom) for f in lenient} == {
        ("Cases.myAx", True), ("Cases.level1", True), ("Cases.level2", True), ("Cases.loopU", True),
        ("Cases.by_unsafe", True)}
    unsafe = by[("Cases.by_unsafe", "Cases.loopU")]
    assert unsafe.unsafe and unsafe.message.startswith(
        "Cases.by_unsafe depends on the unsafe constant Cases.loopU (the kernel accepts no safe declaration")


@pytest.mark.lean
def test_reader_on_compiled_file(cases_olean):
    mod = read_olean(cases_olean)
    assert mod.level == "private" and mod.is_module
    assert [str(i.module) for i in mod.imports] == ["Init"]
    byname = {str(user_name(n)): c for n, c in mod.constants.items()}
    c = byname["Cases.only_propext"]
    assert str(c.name).startswith("_private.AxiomCases.0.")
    prop, iff = T.Sort(T.Zero()), T.Const(Name.of("Iff"), ())
    eq = T.Const(Name.of("Eq"), (T.Succ(T.Zero()),))
    n = Name.of
    assert c.type == T.ForallE(n("a"), prop, T.ForallE(n("b"), prop, T.ForallE(
        n("h"), T.App(T.App(iff, T.BVar(1)), T.BVar(0)),
        T.App(T.App(T.App(eq, prop), T.BVar(2)), T.BVar(1)), "default"), "default"), "default")
    assert c.value == T.Lam(n("a"), prop, T.Lam(n("b"), prop, T.Lam(
        n("h"), T.App(T.App(iff, T.BVar(1)), T.BVar(0)),
        T.App(T.App(T.App(T.Const(n("propext"), ()), T.BVar(2)), T.BVar(1)), T.BVar(0)), "default"),
        "default"), "default")
    assert T.Lit(2) in set(T.walk(byname["Cases.none_rfl"].type))
    ctors = byname["Cases.Color"].info["ctors"]
    assert [str(user_name(x)) for x in ctors] == ["Cases.Color.red", "Cases.Color.green"]
    assert byname["Cases.myAx"].kind == "axiom" and not byname["Cases.myAx"].has_value()
    level1 = byname["Cases.level1"]
    assert level1.kind == "thm" and level1.value_constants() == {byname["Cases.myAx"].name}
    exported = read_olean(cases_olean, level="exported")
    assert exported.level == "exported" and len(exported.constants) < len(mod.constants)


@pytest.mark.lean
def test_core_graph_cache_is_reused_and_equal(wasm_toolchain, tmp_path, monkeypatch):
    # a fresh read of the core library, the same read written to an empty cache, and that cache read back are
    # one graph (on a small closure: the property does not depend on its size), and a reuse leaves the cache as
    # it was
    lib = [wasm_toolchain.lib]
    fresh = core_graph(["Init.Prelude"], lib, cache_dir=None)
    written = core_graph(["Init.Prelude"], lib, cache_dir=tmp_path)
    (cache,) = tmp_path.iterdir()
    first = cache.read_bytes()
    import pysym.lean.constgraph as constgraph

    monkeypatch.setattr(constgraph, "import_closure", lambda *a: pytest.fail("the cache was not reused"))
    again = core_graph(["Init.Prelude"], lib, cache_dir=tmp_path)
    assert fresh == written == again and len(fresh) > 1000
    assert cache.read_bytes() == first


@pytest.mark.lean
def test_a_damaged_core_graph_cache_is_rebuilt_not_trusted(wasm_toolchain, tmp_path):
    toolchain = wasm_toolchain
    built = core_graph(["Init.Prelude"], [toolchain.lib], cache_dir=tmp_path)  # a small closure: quick to read
    (cache,) = tmp_path.iterdir()
    first = cache.read_bytes()
    assert len(built) > 1000
    cache.write_bytes(b"garbage")
    again = core_graph(["Init.Prelude"], [toolchain.lib], cache_dir=tmp_path)
    assert cache.read_bytes() == first and len(again) == len(built)
