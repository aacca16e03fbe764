"""Atomics and reductions: atom, red, red.async -> Ori 314 (ptxas's handler sub_6C0D90).

The qualifiers are decoded into one record (the handler's token array), validated in ptxas's order with
its wording (docs/findings/atomic.md section 9; every failing check of one instruction is reported, as
ptxas does), and packed into the modifier word (lowering/atomic_word.py) kept as `!word=0x6...`. A
shared-memory symbol operand is first materialised into a register by an Ori 130 pseudo (`lea`), since
ATOMS takes a register address.

Attributes ISel reads (isel/fam_atomic.py): kind (atom / red / async), op, type, space (global / shared /
generic / cluster = .shared::cluster), sem (relaxed / acquire / release / acq_rel), scope (cta / gpu / sys /
cluster), vec (element count of a vector atom), hint, mmio, mbar (red.async completion mechanism).
"""
from __future__ import annotations

from . import ptx_ast as A
from .atomic_word import instruction_name, pack_word
from .diagnostics import PtxError
from .handlers import handler
from .ori import ORI_CLASSES, Instr

_SEMS = {".relaxed": "relaxed", ".acquire": "acquire", ".release": "release", ".acq_rel": "acq_rel", ".sc": "sc"}
_SCOPES = {".cta": "cta", ".gpu": "gpu", ".sys": "sys", ".cluster": "cluster"}
_SPACES = {".global": "global", ".shared": "shared", ".shared::cta": "shared", ".shared::cluster": "cluster",
           ".local": "local", ".const": "const", ".param": "param"}
_OPS = ("add", "min", "max", "inc", "dec", "and", "or", "xor", "exch", "cas")
_TYPES = ("u32", "s32", "u64", "s64", "b16", "b32", "b64", "b128", "f16", "f16x2", "bf16", "bf16x2", "f32", "f64",
          "u16", "s16")
_VECS = {".v2": 2, ".v4": 4, ".v8": 8}
_HINT, _NOFTZ, _MMIO, _ASYNC = ".L2::cache_hint", ".noftz", ".mmio", ".async"
_MBAR = ".mbarrier::complete_tx::bytes"

# op -> (legal types, ptxas's list in "Operation .<op> requires ... type" (sic: "f16 or f16x2" undotted))
_OP_TYPES = {
    "add": ({"u32", "s32", "u64", "f64", "f16", "f16x2", "f32", "bf16", "bf16x2"},
            ".u32 or .s32 or .u64 or .f64 or f16 or f16x2 or .f32 or .bf16 or .bf16x2"),
    "min": ({"u32", "s32", "u64", "s64", "f16", "f16x2", "bf16", "bf16x2"},
            ".u32 or .s32 or .u64 or .s64 or .f16 or .f16x2 or .bf16 or .bf16x2"),
    "and": ({"b32", "b64"}, ".b32 or .b64"),
    "inc": ({"u32"}, ".u32"),
    "exch": ({"b16", "b32", "b64", "b128"}, ".b32 or .b64 or .b128"),
    "cas": ({"b16", "b32", "b64", "b128"}, None),
}
for _a, _b in (("max", "min"), ("or", "and"), ("xor", "and"), ("dec", "inc")):
    _OP_TYPES[_a] = _OP_TYPES[_b]
_F16_FAMILY = ("f16", "bf16", "f16x2", "bf16x2")
_NOFTZ_TYPES = _F16_FAMILY
# (op, type) features with their first SM and PTX version ("Instruction 'atom.add.bf16.global' requires ...")
_TYPE_GATES = {
    ("add", "f16"): (0, (6, 3)), ("cas", "b16"): (0, (6, 3)),
    ("add", "bf16"): (90, (7, 8)), ("add", "bf16x2"): (90, (7, 8)),
    ("cas", "b128"): (90, (8, 3)), ("exch", "b128"): (90, (8, 3)),
}
for _o in ("min", "max"):
    for _t in _F16_FAMILY:
        _TYPE_GATES[(_o, _t)] = (90, (7, 8))
# vector atom/red (sm_90, PTX 8.1): element type -> the widths ptxas accepts, per op
_VEC_WIDTHS = {"f16": (2, 4, 8), "bf16": (2, 4, 8), "f16x2": (2, 4), "bf16x2": (2, 4), "f32": (2, 4)}
_VEC_BITS = {"f16": 16, "bf16": 16, "f16x2": 32, "bf16x2": 32, "f32": 32}
_VEC_OPS = {"add": set(_VEC_WIDTHS), "min": set(_F16_FAMILY), "max": set(_F16_FAMILY)}
_CLUSTER_SM, _HINT_SM, _VEC_SM, _BF16_SM = 90, 80, 90, 80

# red.async: op -> legal types; forms: (sm, PTX) gates of the features ptxas names
_ASYNC_TYPES = {"add": {"u32", "s32", "u64", "s64"}, "inc": {"u32"}, "dec": {"u32"}, "min": {"u32", "s32"},
                "max": {"u32", "s32"}, "and": {"b32"}, "or": {"b32"}, "xor": {"b32"}}
_ASYNC_SM, _ASYNC_PTX = 90, (8, 1)
_ASYNC_GLOBAL_SM, _ASYNC_GLOBAL_PTX = 100, (8, 7)


class _Errors(list):
    def add(self, cond: bool, msg: str) -> None:
        if cond:
            self.append(msg)


def _decode(mods):
    d = {"sem": [], "scope": [], "space": None, "op": None, "type": None, "vec": 0, "other": []}
    for m in mods:
        if m in _SEMS:
            d["sem"].append(_SEMS[m])
        elif m in _SCOPES:
            d["scope"].append(_SCOPES[m])
        elif m in _SPACES:
            d["space"] = m
        elif m in _VECS:
            d["vec"] = _VECS[m]
        elif m[1:] in _OPS:
            d["op"] = m[1:]
        elif m[1:] in _TYPES:
            d["type"] = m[1:]
        else:
            d["other"].append(m)
    return d


def _version_gate(ctx, errs, need, what):
    errs.add(ctx.version < need, f"{what} requires PTX ISA .version {need[0]}.{need[1]} or later")


def _sm_gate(ctx, errs, sm, what):
    errs.add(ctx.target.sm < sm, f"{what} requires .target sm_{sm} or higher")


def _check_atom(ins, ctx, stem, d) -> _Errors:
    errs = _Errors()
    op, typ, vec, space = d["op"], d["type"], d["vec"], d["space"]
    other = set(d["other"])
    vfeat = f"Feature '{stem} instruction with vector types'"
    int_vec = vec and typ not in _VEC_WIDTHS
    errs.add(int_vec, f"Vector qualifier is not allowed for instruction '{stem}'")
    for s in d["sem"]:
        errs.add(s == "sc" or stem == "red" and s in ("acquire", "acq_rel"), f"Illegal modifier '.{s}' for instruction '{stem}'")
    errs.add(_MMIO in other, f"Illegal modifier '.mmio' for instruction '{stem}'")
    errs.add(_NOFTZ in other and typ not in _NOFTZ_TYPES, f"Illegal modifier '.noftz' for instruction '{stem}'")
    errs.add(_HINT in other and op == "cas", f"Illegal modifier '.L2::cache_hint' for instruction '{stem}'")
    if typ in ("bf16", "bf16x2"):
        _sm_gate(ctx, errs, _BF16_SM, f"Feature '.{typ}'")
    errs.add(op == "add" and typ in _NOFTZ_TYPES and _NOFTZ not in other,
             f"'.noftz' modifier required for instruction '{stem}' with type '.{typ}'")
    errs.add(len(d["scope"]) > 1, "Multiple scope modifiers specified")
    errs.add(space in (".local", ".const", ".param"), f"State space incorrect for instruction '{stem}'")
    if space == ".shared::cluster":
        _version_gate(ctx, errs, (7, 8), "Feature '::cluster'")
        _sm_gate(ctx, errs, _CLUSTER_SM, "Feature '::cluster'")
    elif space == ".shared::cta":
        _version_gate(ctx, errs, (7, 8), "Feature '::cta'")
    if op is None or typ is None:
        errs.append(f"Unexpected instruction types specified for '{stem}'")
        return errs
    legal, listed = _OP_TYPES[op]
    if typ not in legal:
        errs.append(f"Operation .{op} requires {listed} type for instruction '{stem}'" if listed
                    else f"Unexpected instruction types specified for '{stem}'")
        return errs
    gate = _TYPE_GATES.get((op, typ))
    if gate:
        name = instruction_name(stem, op, typ) + (f".{space[1:]}" if space else " with generic state space")
        if space is None and typ in ("f16", "b16"):
            name = instruction_name(stem, op, typ, "global")     # no generic spelling in these messages
        _sm_gate(ctx, errs, gate[0], f"Instruction '{name}'")
        _version_gate(ctx, errs, gate[1], f"Instruction '{name}'")
    errs.add(not vec and op in ("min", "max") and typ in _F16_FAMILY,
             f"Vector modifier required for instruction '{instruction_name(stem, op, typ, (space or '.global')[1:])}'")
    if vec:
        _sm_gate(ctx, errs, _VEC_SM, vfeat)
        _version_gate(ctx, errs, (8, 1), vfeat)
        errs.add(int_vec, f"Unexpected instruction types specified for '{stem} instruction with vector types'")
        if typ not in _VEC_OPS.get(op, ()) and not int_vec:
            errs.append(f"Operation .{op} requires {_OP_TYPES[op][1]} type for instruction '{stem}'")
        elif vec not in _VEC_WIDTHS.get(typ, (2, 4)) or int_vec:
            errs.append(f"Only .v2 or .v4 vector modifier supported with type .{typ} on .{op} operation for {stem} "
                        "instruction with vector types")
            errs.add(vec * _VEC_BITS.get(typ, 32) > 128, "Vector type too large, exceeds 128 bit limit")
        errs.add(space in (".shared", ".shared::cta", ".shared::cluster"), f"State space incorrect for feature "
                 f"'{stem} instruction with vector types'")
        if int_vec:
            errs.extend(f"Vector operand is not allowed for instruction '{stem}'"
                        for o in ins.operands if type(o) is A.Vec)
    if _HINT in other and op != "cas":
        _sm_gate(ctx, errs, _HINT_SM, "Modifier '.L2::cache_hint'")
        _version_gate(ctx, errs, (7, 4), "Modifier '.L2::cache_hint'")
        errs.add(space in (".shared", ".shared::cta", ".shared::cluster"),
                 f"Modifier '.L2::cache_hint' cannot be applied to '.shared' space for instruction '{stem}'")
    if typ == "b128" and "sys" in d["scope"]:
        _version_gate(ctx, errs, (8, 4), "Feature '.b128 with .sys'")
    if "cluster" in d["scope"]:
        _sm_gate(ctx, errs, _CLUSTER_SM, "Feature '.cluster scope'")
        _version_gate(ctx, errs, (7, 8), "Feature '.cluster scope'")
    if d["sem"]:
        _version_gate(ctx, errs, (6, 0), f"Feature '.{d['sem'][0]}'")
    errs.add(op == "exch" and typ == "b16", f"Arguments mismatch for instruction '{stem}'")
    return errs


def _check_async(ins, ctx, d) -> _Errors:
    errs = _Errors()
    stem = "red.async"
    other = set(d["other"])
    space, scope = d["space"], (d["scope"] or [None])[0]
    sem = (d["sem"] or [None])[0]
    mbar = _MBAR in other
    is_global = space == ".global"
    if d["op"] not in _ASYNC_TYPES or d["type"] not in {"u32", "s32", "u64", "s64", "b32", "b64"}:
        errs.append(f"Unexpected instruction types specified for '{stem}'")
        return errs
    _sm_gate(ctx, errs, _ASYNC_SM, "Feature 'red.async'")
    _version_gate(ctx, errs, _ASYNC_PTX, "Feature 'red.async'")
    errs.add(d["type"] not in _ASYNC_TYPES[d["op"]], f"Incorrect type '.{d['type']}' for operation '.{d['op']}' "
             f"in instruction '{stem}'")
    if sem == "release":
        errs.add(scope == "cluster", f"Illegal modifier '.cluster' for instruction '{stem}' with '.release'")
        errs.add(space == ".shared::cluster", f"Illegal modifier '.shared::cluster' for instruction '{stem}' with '.release'")
    if scope == "cluster":
        errs.add(space not in (None, ".shared::cluster"), f"Modifier '.cluster' requires '.shared::cluster' space for "
                 f"instruction '{stem}'")
        errs.add(not mbar, f"Modifier '.cluster' requires modifier '.completion_mechanism' for instruction '{stem}'")
    errs.add(space == ".shared::cluster" and not mbar and sem != "release",
             f"Modifier '.shared::cluster' requires modifier '.completion_mechanism' for instruction '{stem}'")
    if scope in ("gpu", "sys"):
        errs.add(space not in (None, ".global"), f"Modifier '.{scope}' requires '.global' space for instruction '{stem}'")
        errs.add(mbar, f"Illegal modifier '{_MBAR}' for instruction '{stem}' with '.{scope}'")
        errs.add(mbar and is_global, f"Illegal modifier '{_MBAR}' for instruction '{stem}' with '.global'")
    if space == ".shared::cluster":
        _sm_gate(ctx, errs, _CLUSTER_SM, "Feature '::cluster'")
    if _MMIO in other:
        _sm_gate(ctx, errs, _ASYNC_GLOBAL_SM, "Feature 'st.async/red.async with .mmio modifier'")
    if is_global:
        bad = ctx.target.sm < _ASYNC_GLOBAL_SM or ctx.version < _ASYNC_GLOBAL_PTX
        _sm_gate(ctx, errs, _ASYNC_GLOBAL_SM, "Feature 'st.async/red.async with .global state space'")
        _version_gate(ctx, errs, _ASYNC_GLOBAL_PTX, "Feature 'st.async/red.async with .global state space'")
        errs.add(bad, f"State space incorrect for instruction '{stem}'")
    if mbar:
        _sm_gate(ctx, errs, _CLUSTER_SM, f"Feature '{_MBAR}'")
        errs.add(scope in ("gpu", "sys") and is_global, f"State space mismatch between instruction and address in "
                 f"instruction '{stem}'")
    if sem == "release":
        bad = ctx.target.sm < _ASYNC_GLOBAL_SM or ctx.version < _ASYNC_GLOBAL_PTX
        _sm_gate(ctx, errs, _ASYNC_GLOBAL_SM, "Feature 'st.async/red.async with .release modifier'")
        _version_gate(ctx, errs, _ASYNC_GLOBAL_PTX, "Feature 'st.async/red.async with .release modifier'")
        errs.add(bad, f"Illegal modifier '.release' for instruction '{stem}'")
    if scope == "cluster":
        _sm_gate(ctx, errs, _CLUSTER_SM, "Feature '.cluster scope'")
    return errs


def _shared_lea(ins, ctx, addr: A.Addr) -> tuple[list[Instr], A.Addr]:
    """[sym(+off)] on shared memory: an Ori 130 `lea` puts the symbol's address in a register first."""
    sym = next((o for o in addr.items if type(o) is A.Sym), None)
    if sym is None:
        return [], addr
    reg = A.Reg(f"%lea_{sym.name}")
    lea = Instr(ORI_CLASSES["sync"], "lea", (".shared",), (reg, sym), None, {}, ins.line, "build")
    return [lea], A.Addr(tuple(reg if o is sym else o for o in addr.items))


@handler("atom", "red")
def lower_atomic(ins: A.Instruction, ctx):
    d = _decode(ins.mods)
    kind = "async" if _ASYNC in d["other"] else ins.opcode
    errs = _check_async(ins, ctx, d) if kind == "async" else _check_atom(ins, ctx, ins.opcode, d)
    if errs:
        raise PtxError(errs[0], ins.line, ins.col, ctx.file, more=tuple(errs[1:]))
    space = _SPACES.get(d["space"], "generic")
    sem = (d["sem"] or ["relaxed"])[0]
    scope = (d["scope"] or ["gpu"])[0]
    attrs = {"kind": kind, "op": d["op"], "type": d["type"], "space": space, "sem": sem, "scope": scope}
    if d["vec"]:
        attrs["vec"] = d["vec"]
    for flag, mod in (("hint", _HINT), ("mmio", _MMIO), ("mbar", _MBAR)):
        if mod in d["other"]:
            attrs[flag] = 1
    ops = list(ins.operands)
    ai = next(i for i, o in enumerate(ops) if type(o) is A.Addr)
    pre: list[Instr] = []
    if space == "shared":
        pre, ops[ai] = _shared_lea(ins, ctx, ops[ai])
    addr32 = space in ("shared", "cluster")
    attrs["word"] = pack_word(d["op"], d["type"], kind != "atom", scope, addr32)
    return pre + [ctx.instr(ORI_CLASSES["atomic"], ins, operands=ops, **attrs)]
