"""Whether a statement's printed text reads as the term Lean compiled: the checks of
:func:`pysym.lean.meaning.type_problems` on how the text can misread a term made of trusted constants.

The parser (:mod:`pysym.lean.parse`) reads the text; these checks look at the compiled type for what the text
does not show or shows ambiguously (:func:`reading_problems`):

* casts: as many coercion arrows ``↑`` in the text as standard casts in the term (no other function prints
  as a cast);
* functions with a meaning (:data:`pysym.lean.parse.FUNCTIONS`): printed only if the term uses them, with
  explicit natural-number arguments only, applied to all of them;
* names: no binder named like the first part of a dotted constant (``n.succ``), nothing named like the
  namespace of a function with a meaning (a constant ``MoeTheory`` prints ``MoeTheory.choose`` for its field);
* hidden arguments: no two applications in the statement that may print alike and differ in what the text
  does not show (an implicit argument, a type, an instance, a field's namespace, a `fun` binder's type); none
  across the tree's statements either (:mod:`pysym.lean.clashes`); no value the statement binds hidden in an
  implicit argument of a project function or type that the shown arguments do not fix, nor in the unprinted
  type of a `fun` or `∃` binder;
* the binder chain the parser splits into binders, hypotheses and a conclusion: no proof in a binder, no name
  bound twice, numeric binder types exactly the core ones.
"""

from __future__ import annotations

import re

from pysym.lean.meaning import PINS, STANDARD, _head, _is_prop, _nodes, _spine, _strip, _user
from pysym.lean.syntax import ID_REST, mentions
from pysym.lean.terms import App, BVar, Const, ForallE, Lam, LetE, MData, Name, Sort, Succ, _children

__all__ = ["BOUND", "CASTS", "PROPOSITIONS", "TYPES", "reading_problems"]

# standard casts: each prints as `↑x` (the parser reads it as `x`)
CASTS = frozenset({"Nat.cast", "NatCast.natCast", "Int.cast", "IntCast.intCast"})


def reading_problems(type_expr, constants, text: str, seen, variants=None) -> list[str]:
    """Why ``text`` may not read as ``type_expr`` (see the module docstring); ``constants``: the project's
    constants by real name; ``seen``: the names of the constants in ``type_expr``; ``variants``: a function
    giving :func:`_variants` of a type (one that remembers them, when a caller judges many statements)."""
    from pysym.lean.parse import FUNCTIONS

    problems = []
    arrows, casts = text.count("↑"), _applications(type_expr, CASTS, 3, str)  # core casts by their kernel names
    if arrows != casts:
        problems.append(f"it prints {arrows} coercion arrow(s) `↑` but its compiled type has {casts} standard "
                        "cast(s): another function prints as a cast")
    used = {_user(c) for c in seen}
    for name in FUNCTIONS:
        if mentions(name, text) and name not in used:
            problems.append(f"it prints `{name}`, which its compiled type does not use")
    problems.extend(_function_problems(type_expr, constants))
    problems.extend(_name_problems(type_expr, seen))
    problems.extend(_hidden_argument_problems((variants or (lambda e: _variants(e, constants)))(type_expr)))
    problems.extend(_binder_problems(type_expr, constants, text))
    return problems


def _applications(e, heads, arity, name=_user) -> int:
    """How many applications in ``e`` have a head whose ``name`` (default: as written, private prefix removed;
    ``str``: the kernel's name) is in ``heads`` and exactly ``arity`` arguments (an over-applied one counts
    once: its ``arity``-argument part is a node of its own)."""
    return sum(1 for x in _nodes(e) if isinstance(x, App) and len(_spine(x)[1]) == arity
               and isinstance(h := _spine(x)[0], Const) and name(h.name) in heads)


# core constants whose applications are propositions, and core types (a binder of one is data, not a proof)
PROPOSITIONS = frozenset("Eq Ne LE.le LT.lt GE.ge GT.gt And Or Not Iff True False Exists Membership.mem "
                         "List.Nodup List.Pairwise List.Perm".split())
TYPES = frozenset("Nat Int Rat Bool List Option Prod Subtype Unit PUnit Decidable DecidableEq DecidablePred "
                  "DecidableRel".split())
# core functions with an implicit argument that is neither a type nor an instance (which `hidden` recognizes):
# its positions (`getElem? {coll idx elem} {valid : coll → idx → Prop} [inst] xs i`, `Subtype.val {α} {p} x`)
IMPLICIT = {"GetElem?.getElem?": (0, 1, 2, 3, 4), "Subtype.val": (0, 1)}


def _binder_problems(type_expr, constants, text: str) -> list[str]:
    """The chain of `∀` and `→` the parser splits into binders, hypotheses and a conclusion, checked on the
    compiled type: a proof binder the text shows as a binder (`∀ {h : P}`, `∀ (h : P), ... h ...`) would lose
    its hypothesis; two binders of one name would be merged into one variable; and a binder the text types as a
    number (`Nat`, `ℚ`, ...) must be of exactly that core type (a project `abbrev ℚ := Nat` is not `Rat`)."""
    from pysym.lean.parse import NUMERIC_TYPES, LeanParseError, parse_statement

    problems, ctx, binders, shown = [], [], [], []
    e = type_expr
    while isinstance(e, (ForallE, MData)):
        if isinstance(e, MData):
            e = e.expr
            continue
        name = printed_name(e.binder_name)
        if e.binder_info != "default" or _depends(e.body, 0):  # printed as a binder, not as `P →`
            binders.append((name, e.binder_type))
            if e.binder_info != "instImplicit":  # an instance is never named in the text: `inst`, `inst_1` are free
                shown.append(name)
            if _proposition(e.binder_type, ctx, constants) is not False:
                problems.append(f"its binder `{name}` may be a proof of a hypothesis, which the text shows as a "
                                "binder and the parser would not read as a hypothesis")
        ctx.append(e.binder_type)
        e = e.body
    twice = sorted({n for n in shown if shown.count(n) > 1})
    if twice:
        problems.append(f"it binds {', '.join(f'`{n}`' for n in twice)} twice, and the parser would merge them")
    try:
        printed = parse_statement(text).binders
        in_text = _printed_binders(text)
    except (LeanParseError, ValueError, TypeError):
        printed, in_text = {}, None
    if in_text is not None and in_text != shown:  # matched by position: the text names what the term binds
        problems.append(f"its binders print as {', '.join(in_text) or 'none'} but the compiled type binds "
                        f"{', '.join(shown) or 'none'} (Lean renamed one)")
    for name, ty in binders:
        numeric = NUMERIC_TYPES.get((printed.get(name) or "").strip())
        if numeric and not (isinstance(ty, Const) and str(ty.name) == numeric):
            problems.append(f"its binder `{name}` is printed with the type `{printed[name]}` but is not of the core "
                            f"type {numeric}")
    return problems


def _printed_binders(text: str) -> list[str]:
    """The names of the binders the statement parser reads off ``text`` (the chain of `∀` and `→`), instance
    binders left out."""
    from pysym.lean.syntax import Parser, tokenize

    node, out = Parser(tokenize(text)).term(), []
    while True:
        if node[0] == "forall":
            out += [name for name, _, kind in node[1] if kind != "["]
            node = node[2]
        elif node[0] == "bin" and node[1] == "→":
            node = node[3]
        else:
            return out


def printed_name(name) -> str:
    """The binder name ``name`` as Lean prints it: without its macro scopes (`_` binds a hygienic
    `x._@.M._hyg.3`, printed `x`; beside another `x` Lean prints `x_1`, which the positional comparison of
    :func:`_binder_problems` refuses).

    >>> from pysym.lean.terms import Name
    >>> printed_name(Name.of("x.«_@».M._hyg.3")), printed_name(Name.of("n"))
    ('x', 'n')
    """
    parts = list(name)
    if "_@" in parts:
        parts = parts[:parts.index("_@")]
    return str(type(name)(parts)) if parts else "[anonymous]"


def _depends(e, depth: int) -> bool:
    """Whether ``e`` mentions the bound variable ``depth`` binders out."""
    if isinstance(e, BVar):
        return e.index == depth
    if isinstance(e, (ForallE, Lam)):
        return _depends(e.binder_type, depth) or _depends(e.body, depth + 1)
    if isinstance(e, LetE):
        return _depends(e.type, depth) or _depends(e.value, depth) or _depends(e.body, depth + 1)
    return any(_depends(c, depth) for c in _children(e))


def _proposition(t, ctx: list, constants) -> "bool | None":
    """Whether the type ``t`` (under binders of types ``ctx``, outermost first) is a proposition: ``True``,
    ``False`` (a type: its values are data), or ``None`` when that cannot be told without type inference."""
    while isinstance(t, MData):
        t = t.expr
    if isinstance(t, Sort):
        return False
    if isinstance(t, ForallE):
        return _proposition(t.body, ctx + [t.binder_type], constants)
    head, args = t, 0
    while isinstance(head, (App, MData)):
        if isinstance(head, App):
            head, args = head.fn, args + 1
        else:
            head = head.expr
    if isinstance(head, Const):
        if str(head.name) in PROPOSITIONS:
            return True
        if str(head.name) in TYPES and head.name not in constants:
            return False
        info = constants.get(head.name)
        if info is None:
            return None
        kind_type = info.type
    elif isinstance(head, BVar) and head.index < len(ctx):
        kind_type = ctx[-1 - head.index]
    else:
        return None
    binders = 0
    while isinstance(kind_type, (ForallE, MData)):
        if isinstance(kind_type, ForallE):
            kind_type, binders = kind_type.body, binders + 1
        else:
            kind_type = kind_type.expr
    if binders != args or not isinstance(kind_type, Sort):
        return None
    return _is_prop(kind_type)


def _hidden_argument_problems(found: "_Found") -> list[str]:
    """Two applications in one statement that may print alike but differ in what the text does not show, and
    values the statement binds hidden where the text does not show them (``found``: :func:`_variants` of the
    statement): the symbolic layer, which names an opaque term by its text, would take different terms for
    one."""
    return [f"two applications of `{p.split()[0][1:]}` may print alike (as `{p}`) but differ in what the text "
            "does not show (an implicit argument, an instance, a type, a universe level, or the namespace of a "
            "field)" for p, fulls in sorted(found.variants.items()) if len(fulls) > 1] + found.dependent


# the classes whose instances are all equal (a `Decidable p` holds a proof or a disproof of `p`): an argument in
# an instance position of one of these types means the same whichever instance it is
SUBSINGLETON_CLASSES = frozenset({"Decidable", "DecidablePred", "DecidableRel", "DecidableEq"})


class _Found:
    """What :func:`_variants` collects from one statement."""

    def __init__(self):
        self.variants: dict[str, set[str]] = {}  # coarse printed form: {whole terms}
        self.opaque: dict[str, set[str]] = {}  # the same, in the form compared across statements
        self.dependent: list[str] = []  # what hides a value bound in the statement (an argument, a binder's type)


def _scoped(e):
    """Every node of ``e`` with the number of binders of ``e`` it sits under (a bound variable ``BVar(i)`` at
    depth ``d`` is bound outside ``e`` when ``i >= d``)."""
    stack = [(e, 0)]
    while stack:
        x, depth = stack.pop()
        yield x, depth
        if isinstance(x, (ForallE, Lam)):
            stack += [(x.binder_type, depth), (x.body, depth + 1)]
        elif isinstance(x, LetE):
            stack += [(x.type, depth), (x.value, depth), (x.body, depth + 1)]
        else:
            stack += [(c, depth) for c in _children(x)]


def _type_variable(binder_type) -> bool:
    """Whether a binder of this type binds a type (`α : Type u`), which no derivation instantiates with a value."""
    while isinstance(binder_type, MData):
        binder_type = binder_type.expr
    return isinstance(binder_type, Sort) and isinstance(binder_type.level, Succ)


def _canonical_levels(text: str) -> str:
    """Universe parameters renamed to one placeholder: each theorem binds its own (``u`` in one, ``u_1`` in
    another), and any of them can be instantiated."""
    return re.sub(r"Param\(name=Name\([^()]*\)\)", "Param(?)", text)


def _variants(type_expr, constants) -> _Found:
    """The applications the text of ``type_expr`` names, for comparing what prints alike.  An implicit
    argument, an instance, a type or a universe level is not printed (`@g Nat = 1 → @g Bool = 0` prints as
    `g = 1 → g = 0`), and field notation prints `T.f x` as `x.f` whatever `T` is (`Nat.succ (a + b)` and
    `RtM.succ (a + b)`, with `abbrev RtM := Nat`, both print as `(a + b).succ`).  So each application is
    compared by a coarse form of its text (the head's last name component; for a project function its explicit
    arguments, for a core one every argument that is not a type or an instance) against its whole term; coarser
    than the text, never finer, so whatever prints alike is compared.  Bound variables are compared by name, as
    the parser reads them (a name bound twice in the chain the parser splits is refused by
    :func:`_binder_problems`; inside a nested `∀` the whole proposition is one opaque term).

    Two more things are collected.  Each term's form for comparison across statements (:func:`opaque_clashes`):
    the whole term with what each theorem binds for itself made alike (universe parameters, type variables),
    arguments in an instance position of a class whose instances are all equal (:data:`SUBSINGLETON_CLASSES`)
    left out, a core function's types, instances and universes left out, and a `fun` binder's type left out
    when a variable with a printed type fixes it.  And every value the statement binds that hides where the
    text does not show it: in an implicit argument of a project function or type that the shown arguments do
    not fix (`∀ n, @g n = n` prints `∀ n, g = n`: read as one term `g`, it would equal every `n`), or in the
    type of a `fun` or `∃` binder."""
    found = _Found()
    binders = [0]
    signatures: dict[Name, list[tuple[str, bool]]] = {}
    # the binders of the chain the parser splits, which a derivation instantiates (by binding, or by granting
    # their hypotheses): only these are wildcards across statements; a variable bound inside a term (`∃ α`,
    # `fun x`, a nested `∀`) is compared by position, as the term it belongs to fixes it
    chain, top = type_expr, set()
    while isinstance(chain, (ForallE, MData)):
        if isinstance(chain, ForallE):
            top.add(id(chain))
            chain = chain.body
        else:
            chain = chain.expr
    top_ids: set[int] = set()
    # the names the statement binds: across statements, `g n` in one and `g m` in another print one term
    bound = {printed_name(x.binder_name) for x in _nodes(type_expr) if isinstance(x, (ForallE, Lam))}
    bound |= {printed_name(x.name) for x in _nodes(type_expr) if isinstance(x, LetE)}
    bound_word = re.compile(rf"(?<![{ID_REST}.])(?:" + "|".join(map(re.escape, sorted(bound, key=len, reverse=True)))
                            + rf")(?![{ID_REST}])") if bound else None

    def unbound(printed: str) -> str:
        """``printed`` with every name the statement binds written alike (a constant printed like one is
        merged too: more comparisons, never fewer)."""
        return bound_word.sub(BOUND, printed) if bound_word else printed

    def infos(name: Name) -> list[tuple[str, bool]]:
        """``[(binder info, whether an instance of a subsingleton class)]`` of each argument of ``name``."""
        if name not in signatures:
            t, out = constants[name].type, []
            while isinstance(t, (ForallE, MData)):
                if isinstance(t, ForallE):
                    cls = _head(_strip(t.binder_type))
                    out.append((t.binder_info, t.binder_info == "instImplicit" and isinstance(cls, Const)
                                and str(cls.name) in SUBSINGLETON_CLASSES))
                    t = t.body
                else:
                    t = t.expr
            signatures[name] = out
        return signatures[name]

    def hidden(arg, ctx) -> bool:
        """Whether ``arg`` may be left out of the text: a type, an instance, a type variable."""
        while isinstance(arg, MData):
            arg = arg.expr
        if isinstance(arg, Sort):
            return True
        head = _head(arg)
        if isinstance(head, BVar):
            return head.index < len(ctx) and isinstance(ctx[-1 - head.index][2], Sort)
        if not isinstance(head, Const):
            return False
        name = str(head.name)
        if head.name in constants:
            target = _strip(constants[head.name].type)
            return isinstance(target, Sort) and not _is_prop(target)  # a type of the project (not a predicate)
        last = name.rsplit(".", 1)[-1]
        return name in TYPES or last.startswith("inst") or (name in STANDARD and not last[:1].islower()
                                                             and name not in PROPOSITIONS)  # `∃ x, p` is printed

    def free(arg, ctx) -> set[int]:
        """The positions in ``ctx`` of the statement's binders that ``arg`` mentions."""
        return {len(ctx) - 1 - (x.index - depth) for x, depth in _scoped(arg)
                if isinstance(x, BVar) and depth <= x.index < depth + len(ctx)}

    def fixed_by(positions, ctx) -> set[int]:
        """The binders that the printed types of the binders at ``positions`` mention (a `fun` or `∃` binder's
        type is not printed)."""
        out = set()
        for j in positions:
            if j < len(ctx) and ctx[j][3]:
                out |= free(ctx[j][2], ctx[:j])
        return out

    def undetermined(hidden_args, shown_args, ctx) -> list[str]:
        """The binders of values (not of types) that the hidden arguments mention and that the shown ones do not
        fix through the printed types of the variables they contain (`@DomainNdimLE X (Mask T k) M d` hides `T`
        and `k`, fixed by the type of `M`; `@g n` hides `n`, fixed by nothing the text shows)."""
        fixed = fixed_by(set().union(*(free(a, ctx) for a in shown_args)), ctx)
        return sorted({ctx[j][0] for a in hidden_args for j in free(a, ctx)
                       if j not in fixed and not _type_variable(ctx[j][2])})

    def typed_by_use(body, ctx) -> bool:
        """Whether the variable bound by a `fun` (its type not printed) has its type fixed by what the body
        shows: it is an argument of a variable whose type is printed (`Bad p ω`), or the element in a
        membership in such a variable (`p ∈ patterns`); not `x = x`, nor `True`, nor `List.replicate n x` (a
        core function's other arguments need not fix it)."""
        for x, depth in _scoped(body):
            if not isinstance(x, App):
                continue
            head, args = _spine(x)
            if any(isinstance(a, BVar) and a.index == depth for a in args):
                if isinstance(head, Const) and str(head.name) == "Membership.mem":
                    partners = [a for a in args if isinstance(a, BVar) and a.index != depth]
                else:
                    partners = [head]
                if any(isinstance(a, BVar) and depth < a.index <= depth + len(ctx)
                       and ctx[len(ctx) - (a.index - depth)][3] for a in partners):
                    return True
        return False

    def hides(what: str, depends: list[str], printed: str) -> None:
        found.dependent.append(f"{what} that the text does not show depends on "
                               f"{', '.join(f'`{n}`' for n in depends)}, bound in the statement: the printed "
                               f"`{printed}` would be read as one term for every value")

    def go(e, ctx: tuple, record: bool = True, head: bool = False) -> tuple[str, str, str]:
        """``(coarse printed form, whole term, whole term as compared across statements)`` of ``e``."""
        if isinstance(e, MData):
            return go(e.expr, ctx, record)
        if isinstance(e, BVar):
            name, which, binder_type, _ = ctx[-1 - e.index] if e.index < len(ctx) else ("?", 0, None, False)
            if which not in top_ids:  # bound inside a term: the same variable at the same position, nothing else
                return name, name, f"‹{e.index}›"
            # across statements a variable of the chain is any value (a derivation binds `g n` and `g m` alike)
            return name, name, "‹type›" if _type_variable(binder_type) else BOUND  # names bound twice: _binder_problems
        if isinstance(e, Const):
            full = f"{e.name}.{{{e.levels!r}}}"
            shown = _user(e.name).rsplit(".", 1)[-1]
            if record and not head and e.levels and e.name in constants:
                # a constant of the project standing alone prints without its universe levels: `c.{0}` and `c.{1}`
                # both print `c` (an application records its head with it)
                found.variants.setdefault(f"({shown} )", set()).add(full)
                found.opaque.setdefault(unbound(f"({shown} )"), set()).add(_canonical_levels(full))
            return shown, full, _canonical_levels(full)
        if isinstance(e, (ForallE, Lam)):
            binders[0] += 1
            if id(e) in top:
                top_ids.add(binders[0])
            shown_name = printed_name(e.binder_name)
            inner = ctx + ((shown_name, binders[0], e.binder_type, isinstance(e, ForallE)),)
            t = go(e.binder_type, ctx, record)
            b = go(e.body, inner, record)
            if isinstance(e, Lam):  # printed `fun x => ...` (`∃ x, ...`): without the binder's type
                fixed = fixed_by(free(e.body, inner), inner)
                depends = sorted({ctx[j][0] for j in free(e.binder_type, ctx)
                                  if j not in fixed and not _type_variable(ctx[j][2])})
                if depends:
                    hides(f"the type of the bound `{shown_name}`", depends, b[0])
                by_use = typed_by_use(e.body, ctx)
                numeric = sorted({str(x.name) for x in _nodes(e.binder_type)
                                  if isinstance(x, Const) and str(x.name) in ("Int", "Rat")})
                if not by_use and numeric:
                    # read alone, `∃ x, x + 1 = 0` binds a natural number (Lean's default for numerals), and
                    # `∃ f, f true < 0` a function to the naturals
                    found.dependent.append(f"the type of the bound `{shown_name}` involves {' and '.join(numeric)}, "
                                           f"which the text does not show: read alone, `{b[0]}` would be about "
                                           "natural numbers")
                typed = "‹›" if by_use else t[2]  # across statements: what the body fixes
                return f"(fun {shown_name}, {b[0]})", f"(fun {shown_name} : {t[1]}, {b[1]})", \
                    f"(fun {BOUND} : {typed}, {b[2]})"
            return (f"(∀ {shown_name} : {t[0]}, {b[0]})", f"(∀ {shown_name} : {t[1]}, {b[1]})",
                    f"(∀ {BOUND} : {t[2]}, {b[2]})")
        if isinstance(e, LetE):
            binders[0] += 1
            parts = [go(e.type, ctx, record), go(e.value, ctx, record),
                     go(e.body, ctx + ((printed_name(e.name), binders[0], e.type, False),), record)]
            return tuple("(let " + " ".join(p[i] for p in parts) + ")" for i in range(3))
        if isinstance(e, App):
            head, args = e, []
            while isinstance(head, App):
                args.append(head.arg)
                head = head.fn
            args.reverse()
            hp, hf, hc = go(head, ctx, record, head=True)
            ours = isinstance(head, Const) and head.name in constants
            if ours:
                info = infos(head.name)
                shown = [bi == "default" for bi, _ in info] + [True] * (len(args) - len(info))
                same = [sub for _, sub in info] + [False] * (len(args) - len(info))
            else:
                implicit = IMPLICIT.get(str(head.name), ()) if isinstance(head, Const) else ()
                shown = [not hidden(a, ctx) and i not in implicit for i, a in enumerate(args)]
                same = [False] * len(args)
            # what sits in an argument the text does not show is not printed at all: not compared
            rendered = [go(a, ctx, record and keep) for a, keep in zip(args, shown)]
            printed = f"({hp} " + " ".join(r[0] for r, keep in zip(rendered, shown) if keep) + ")"
            full = f"({hf} " + " ".join(r[1] for r in rendered) + ")"
            if ours:  # the instances of a subsingleton class are one
                canon = f"({hc} " + " ".join("‹instance›" if sub else r[2] for r, sub in zip(rendered, same)) + ")"
            else:  # a core function's value is read off its other arguments: not its types, instances, universes
                core = str(head.name) if isinstance(head, Const) else hc
                canon = f"({core} " + " ".join(r[2] if keep else "‹›" for r, keep in zip(rendered, shown)) + ")"
            # a term the text names (core types and instances are not named; a type of the project is: `@Msk 0` and
            # `@Msk 1` both print `Msk`, and a binder of either type prints alike)
            if record and (ours or not hidden(e, ctx)):
                found.variants.setdefault(printed, set()).add(full)
                # a part that mentions a variable bound inside the statement's terms (`A i` under `∃ i`) is no
                # term a derivation can name: it is compared as part of the piece that binds the variable
                if all(ctx[j][1] in top_ids for j in free(e, ctx)):
                    found.opaque.setdefault(unbound(printed), set()).add(canon)
            if ours:  # also a type of the project (`@Msk T` prints `Msk`)
                depends = undetermined([a for a, keep, sub in zip(args, shown, same) if not keep and not sub],
                                       [a for a, keep in zip(args, shown) if keep], ctx)
                if depends:
                    hides(f"an argument of `{hp}`", depends, printed)
            return printed, full, canon
        text = repr(e)
        return text, text, _canonical_levels(text)

    go(type_expr, ())
    return found


def _arity(name: str) -> int:
    from pysym.lean.parse import FUNCTIONS

    return len(PINS[FUNCTIONS[name].__name__][-1][0])  # the last equation binds every argument


def _function_problems(type_expr, constants) -> list[str]:
    """A function given a meaning must be exactly ``Nat → ... → Nat`` with explicit arguments (nothing hidden
    that the printed text would not show), and applied to all of them wherever the term uses it."""
    from pysym.lean.parse import FUNCTIONS

    problems = []
    uses: dict[str, int] = {}
    for x in _nodes(type_expr):
        if isinstance(x, Const) and _user(x.name) in FUNCTIONS:
            uses[_user(x.name)] = uses.get(_user(x.name), 0) + 1
            info = constants.get(x.name)
            t, n = (info.type if info is not None else None), 0
            while isinstance(t, ForallE) and t.binder_info == "default" and t.binder_type == Const(Name.of("Nat"), ()):
                t, n = t.body, n + 1
            if t != Const(Name.of("Nat"), ()) or n != _arity(_user(x.name)):
                problems.append(f"`{_user(x.name)}` is not a function of {_arity(_user(x.name))} explicit natural "
                                "number(s) returning a natural number, so its printed form can hide what it is "
                                "applied to")
    for name, n in uses.items():
        if _applications(type_expr, {name}, _arity(name)) != n:
            problems.append(f"`{name}` is used without all of its {_arity(name)} argument(s)")
    return problems


def _name_problems(type_expr, seen) -> list[str]:
    """Names that can make the printed text misread: a binder named like a constant of the statement (a private
    constant `m` prints as `m`, like the binder `m`) or like the first part of a constant's name (a constant
    `n.succ` prints as `n.succ`, like the field `succ` of a binder `n`), and anything named like a
    namespace of a function given a meaning (a constant or binder `MoeTheory` prints `MoeTheory.choose 3 1`
    for its field `choose`)."""
    from pysym.lean.parse import FUNCTIONS

    binders = {printed_name(x.binder_name) for x in _nodes(type_expr) if isinstance(x, (ForallE, Lam))}
    binders |= {printed_name(x.name) for x in _nodes(type_expr) if isinstance(x, LetE)}
    names = {_user(c) for c in seen}
    prefixes = {".".join(k.split(".")[:i]) for k in FUNCTIONS for i in range(1, k.count(".") + 1)}
    problems = []
    for b in sorted(binders):
        if b in names:  # a private constant prints by its bare name (after the `_private` prefix is removed)
            problems.append(f"its binder `{b}` has the name of the constant `{b}` it also uses, so the printed "
                            f"`{b}` could be read as the binder")
        clash = sorted(n for n in names if n.split(".")[0] == b and "." in n)
        if clash:
            problems.append(f"its binder `{b}` has the name of the first part of `{clash[0]}`, so the printed "
                            f"`{clash[0]}` could be read as a field of `{b}`")
        if b in prefixes:
            problems.append(f"its binder `{b}` is named like the namespace of `{b}.…`, whose functions have a "
                            "meaning")
    for n in sorted(names & prefixes):
        problems.append(f"it uses a constant named `{n}`, like the namespace of functions that have a meaning")
    return problems


BOUND = "‹bound›"  # a variable the statement binds, as terms are compared across statements
