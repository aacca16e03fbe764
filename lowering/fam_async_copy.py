"""Asynchronous copies -> Ori 316 (ISel: isel/fam_async_copy.py): cp.async (LDGSTS) and its groups,
cp.async.bulk / cp.reduce.async.bulk (non-tensor and tensor, prefetch, commit/wait groups),
tensormap.cp_fenceproxy, st.async, clusterlaunchcontrol. cp.async.mbarrier.arrive is an mbarrier
operation (classifier kind CP_ASYNC_ARRIVE): an Ori 315 op for phase 42 and isel/fam_mbarrier.py.
red.async is lowering/fam_atomic.py's.

Validation: ptxas's wording and order (docs/findings/async.md); every failing gate of one instruction is
reported. The sm_80 cp.async gates print the PTX-version line first, the sm_90+ bulk gates the target
line first. Attributes for ISel: form (below), and per form dst/src spaces, dim, mode, mcast, cta_group, op,
type, size, zfill, hint, read, mask.
"""
from __future__ import annotations

from . import generic
from . import ptx_ast as A
from .diagnostics import PtxError
from .fam_mbarrier import KINDS
from .fam_warp import _is_pred
from .handlers import handler
from .ori import ORI_CLASSES, Instr

ASYNC = ORI_CLASSES["async"]
_MBAR = ".mbarrier::complete_tx::bytes"
_BULK_SM, _BULK_PTX = 90, (8, 0)
# arch-specific features of the bulk tensor copies: only these targets ("Feature ... not supported on .target")
_ARCH_SPECIFIC = {(100, "a"), (100, "f"), (103, "a"), (103, "f"), (110, "a"), (110, "f")}
# clusterlaunchcontrol multicast: also the sm_120 family's a/f targets
_CLC_MULTICAST = _ARCH_SPECIFIC | {(120, "a"), (120, "f"), (121, "a"), (121, "f")}
# .multicast::cluster on a bulk copy without the Advisory warning
_MULTICAST_NATIVE = _ARCH_SPECIFIC | {(90, "a")}
_MULTICAST_ADVISORY = ("Advisory: '.multicast::cluster' modifier on instruction 'cp.async.bulk{{.tensor}}' should be "
                       "used on .target 'sm_90a/sm_100a/sm_100f/sm_103a/sm_103f/sm_110a/sm_110f' instead of .target "
                       "'{t}' as this feature is expected to have substantially reduced performance on some future "
                       "architectures")
_CP_SIZES = {".ca": (4, 8, 16), ".cg": (16,)}
_LOAD_MODES = (".tile", ".im2col", ".im2col_no_offs", ".tile::gather4", ".tile::scatter4", ".im2col::w",
               ".im2col::w::128")
# load-mode features ptxas gates at sm_90 / PTX 8.0 when spelled (the default mode is tile, not gated)
_GATED_MODES = (".tile", ".im2col", ".im2col_no_offs")
# cp.reduce.async.bulk: (destination, op) -> legal types
_RED_TYPES_G = {"add": {"u32", "s32", "u64", "f32", "f64", "f16", "bf16"}, "min": {"u32", "s32", "u64", "s64", "f16", "bf16"},
                "inc": {"u32"}, "and": {"b32", "b64"}}
_RED_TYPES_S = {"add": {"u32", "s32", "u64"}, "min": {"u32", "s32"}, "inc": {"u32"}, "and": {"b32"}}
for _t in (_RED_TYPES_G, _RED_TYPES_S):
    _t.update({"max": _t["min"], "dec": _t["inc"], "or": _t["and"], "xor": _t["and"]})
_RED_OPS = tuple(_RED_TYPES_G)
_TYPES = ("b32", "u32", "s32", "b64", "u64", "s64", "f16", "bf16", "f32", "f64", "b16", "b8")


class _Errs(list):
    def add(self, cond, msg):
        if cond:
            self.append(msg)

    def target(self, ctx, sm, what):
        self.add(ctx.target.sm < sm, f"{what} requires .target sm_{sm} or higher")

    def version(self, ctx, need, what):
        self.add(ctx.version < need, f"{what} requires PTX ISA .version {need[0]}.{need[1]} or later")

    def gate(self, ctx, sm, need, what, version_first=False):
        if version_first:
            self.version(ctx, need, what)
        self.target(ctx, sm, what)
        if not version_first:
            self.version(ctx, need, what)

    def raise_for(self, ins, ctx):
        if self:
            raise PtxError(self[0], ins.line, ins.col, ctx.file, more=tuple(self[1:]))


def _key(t) -> tuple[int, str]:
    return (t.sm, t.suffix)


def _imm(o):
    return o.value if type(o) is A.Imm and isinstance(o.value, int) else None


def _async(ins, ctx, form, **attrs):
    return [ctx.instr(ASYNC, ins, form=form, **attrs)]


# ---------------------------------------------------------------- cp.async (sm_80)

def _cp_async(ins, ctx):
    mods = ins.mods
    e = _Errs()
    level = next((m for m in mods if m in _CP_SIZES), None)
    ops = ins.operands
    e.gate(ctx, 80, (7, 0), "Feature 'cp.async'", version_first=True)
    hint = ".L2::cache_hint" in mods
    if hint:
        e.target(ctx, 80, "Modifier '.L2::cache_hint'")
    rest = list(ops[3:])
    if hint and rest:
        rest.pop()
    ignore = bool(rest) and _is_pred(rest[-1], ctx)
    if ignore:
        rest.pop()
        e.version(ctx, (7, 5), "Feature 'igonre-src on cp.async'")
    size = _imm(ops[2]) if len(ops) > 2 else None
    if level is None or len(ops) < 3 or ignore and rest:     # src-size and ignore-src exclude each other
        e.append("Arguments mismatch for instruction 'cp.async'")
    elif size is not None and size not in _CP_SIZES[level]:
        want = " or ".join(str(v) for v in _CP_SIZES[level])
        e.append(f"Argument 2 of instruction 'cp.async': unexpected value '{size}', expected to be {want}")
    e.raise_for(ins, ctx)
    prefetch = next((m[5:] for m in mods if m in (".L2::64B", ".L2::128B", ".L2::256B")), None)
    attrs = {"level": level[1:], "size": size or 16}
    # a source size other than the copy size zero-fills the rest; the constant 0 is the ignore-src form
    # instead (`LDGSTS.E [d], [s], !PT`, no .ZFILL: probes/async/cp_async_src_size_zero)
    if rest and _imm(rest[0]) not in (size, 0):
        attrs["zfill"] = 1
    if prefetch:
        attrs["prefetch"] = prefetch
    return _async(ins, ctx, "ldgsts", **attrs)


def _cp_async_group(ins, ctx, op):
    e = _Errs()
    e.gate(ctx, 80, (7, 0), f"Feature 'cp.async.{op}'", version_first=True)
    n = None
    if op == "wait_group":
        n = _imm(ins.operands[0]) if len(ins.operands) == 1 else None
        if n is None:
            e[:] = ["Arguments mismatch for instruction 'cp.async.wait_group'"]
    e.raise_for(ins, ctx)
    return _async(ins, ctx, op, **({} if n is None else {"n": n}))


def _cp_async_mbarrier_arrive(ins, ctx):
    e = _Errs()
    e.gate(ctx, 80, (7, 0), "Feature 'cp.async.mbarrier.arrive'", version_first=True)
    e.add(".shared::cta" in ins.mods and ctx.version < (7, 8), "Feature '::cta' requires PTX ISA .version 7.8 or later")
    e.raise_for(ins, ctx)
    space = "shared" if any(m in (".shared", ".shared::cta") for m in ins.mods) else "generic"
    attrs = {"op": "cp_async_arrive", "classifier": KINDS["CP_ASYNC_ARRIVE"], "space": space, "sem": "default",
             "scope": "cta"}
    if ".noinc" in ins.mods:
        attrs["noinc"] = 1
    return [ctx.instr(ORI_CLASSES["mbarrier"], ins, **attrs)]

# ---------------------------------------------------------------- bulk copies (sm_90)


def _spaces(mods):
    sp = [m for m in mods if m in (".shared::cluster", ".shared::cta", ".global", ".shared")]
    return (sp[0][1:] if sp else None), (sp[1][1:] if len(sp) > 1 else None)


def _bulk_common(e, ctx, mods):
    """The gates after the op's own: completion mechanism / bulk_group."""
    if _MBAR in mods:
        e.gate(ctx, 90, (8, 0), f"Feature '{_MBAR}'")
    elif ".bulk_group" in mods:
        e.gate(ctx, 90, (8, 0), "Feature '.bulk_group'")


def _multicast_warning(ins, ctx):
    if _key(ctx.target) not in _MULTICAST_NATIVE:
        ctx.diags.warn(_MULTICAST_ADVISORY.format(t=ctx.target.name), ins.line, ins.col)


def _cp_bulk(ins, ctx):
    mods = ins.mods
    dst, src = _spaces(mods)
    e = _Errs()
    e.gate(ctx, _BULK_SM, _BULK_PTX, "Feature 'cp.async.bulk'")
    # one state space instead of two (ptxas 13.0.88, `cp.async.bulk.shared::cluster.mbarrier::...`): both messages
    e.add(src is None, "State space incorrect for instruction 'cp.async.bulk'")
    e.add(src is None, "Unexpected number of state spaces specified in instruction 'cp.async.bulk'")
    mcast = ".multicast::cluster" in mods
    if dst == "shared::cta" and src == "global":
        e.version(ctx, (8, 6), "Feature 'cp.async.bulk with destination state space as .shared::cta'")
        e.add(mcast, "Illegal modifier '.multicast::cluster' for instruction 'cp.async.bulk' with '.shared::cta.global'")
    if mcast:
        e.target(ctx, 90, "Modifier '.multicast::cluster'")
        _multicast_warning(ins, ctx)
    if ".cp_mask" in mods:
        e.target(ctx, 100, "Feature '.cp_mask'")
    e.add(dst != "global" and _MBAR not in mods or dst == "global" and ".bulk_group" not in mods,
          ".completion_mechanism modifier required for instruction 'cp.async.bulk'")
    _bulk_common(e, ctx, mods)
    e.raise_for(ins, ctx)
    attrs = {"dst": dst, "src": src}
    for flag, m in (("mcast", ".multicast::cluster"), ("mask", ".cp_mask"), ("hint", ".L2::cache_hint")):
        if m in mods:
            attrs[flag] = 1
    return _async(ins, ctx, "bulk", **attrs)


def _cp_bulk_group(ins, ctx, op):
    e = _Errs()
    read = ".read" in ins.mods
    if read:
        e.target(ctx, 90, "Modifier '.read'")
    e.gate(ctx, _BULK_SM, _BULK_PTX, f"Feature 'cp.async.bulk.{op}'")
    n = None
    if op == "wait_group":
        n = _imm(ins.operands[0]) if len(ins.operands) == 1 else None
        e.add(n is None, "Arguments mismatch for instruction 'cp.async.bulk.wait_group'")
    e.raise_for(ins, ctx)
    attrs = {} if n is None else {"n": n}
    if read:
        attrs["read"] = 1
    return _async(ins, ctx, "bulk_" + op, **attrs)


def _tensor_mode(mods):
    return next((m for m in mods if m in _LOAD_MODES), None)


def _arch_feature(e, ctx, cond, what):
    e.add(cond and _key(ctx.target) not in _ARCH_SPECIFIC, f"Feature '{what}' not supported on .target '{ctx.target.name}'")


def _dim(ins, ctx, mods):
    d = next((m for m in mods if len(m) == 3 and m[1] in "12345" and m[2] == "d"), None)
    if d is None:
        raise ctx.error("Parsing error near 'd': syntax error", ins)
    return int(d[1])


def _cp_tensor(ins, ctx, prefetch=False):
    mods = ins.mods
    dim = _dim(ins, ctx, mods)
    dst, src = _spaces(mods)
    mode = _tensor_mode(mods)
    e = _Errs()
    name = "cp.async.bulk.prefetch.tensor" if prefetch else "cp.async.bulk.tensor"
    e.gate(ctx, _BULK_SM, _BULK_PTX, f"Feature '{name}'")
    group = next((m for m in mods if m.startswith(".cta_group::")), None)
    if group:
        _arch_feature(e, ctx, True, group)
    if prefetch:
        _arch_feature(e, ctx, mode == ".tile::gather4", ".tile::gather4 with cp.async.bulk.prefetch.tensor")
    elif dst == "shared::cluster":
        _arch_feature(e, ctx, mode == ".tile::gather4", ".tile::gather4 with destination state space as .shared::cluster")
        _arch_feature(e, ctx, mode == ".im2col::w", ".im2col::w with destination state space as .shared::cluster")
    _arch_feature(e, ctx, mode == ".im2col::w::128", ".im2col::w::128")
    _arch_feature(e, ctx, mode == ".tile::scatter4", ".tile::scatter4")
    mcast = ".multicast::cluster" in mods
    if mcast:
        e.target(ctx, 90, "Modifier '.multicast::cluster'")
        _multicast_warning(ins, ctx)
    if mode in _GATED_MODES:
        e.gate(ctx, 90, (8, 0), f"Feature '{mode}'")
    if not prefetch:
        _bulk_common(e, ctx, mods)
    e.raise_for(ins, ctx)
    form = "tensor_prefetch" if prefetch else ("tensor_store" if dst == "global" else "tensor_load")
    attrs = {"dim": dim, "mode": (mode or ".tile")[1:], "dst": dst or "", "src": src or ""}
    if mcast:
        attrs["mcast"] = 1
    if group:
        attrs["cta_group"] = int(group[-1])
    return _async(ins, ctx, form, **attrs)


def _cp_reduce(ins, ctx):
    mods = ins.mods
    dst, src = _spaces(mods)
    tensor = ".tensor" in mods
    name = "cp.reduce.async.bulk" + (".tensor" if tensor else "")
    op = next((m[1:] for m in mods if m[1:] in _RED_OPS), None)
    typ = next((m[1:] for m in mods if m[1:] in _TYPES), None)
    e = _Errs()
    e.gate(ctx, _BULK_SM, _BULK_PTX, f"Feature '{name}'")
    if not tensor:               # one state space instead of two: ptxas 13.0.88's two messages
        e.add(src is None, "State space incorrect for instruction 'cp.reduce.async.bulk'")
        e.add(src is None, "Unexpected number of state spaces specified in instruction 'cp.reduce.async.bulk'")
    mode = None
    if tensor:
        mode = _tensor_mode(mods)
        if mode in _GATED_MODES:
            e.gate(ctx, 90, (8, 0), f"Feature '{mode}'")
    elif op is not None and typ is not None:
        legal = (_RED_TYPES_G if dst == "global" else _RED_TYPES_S)[op]
        if typ not in legal:
            if dst == "global":
                e.append(f"Incorrect type '.{typ}' for operation '.{op}' in instruction '{name}'")
            else:
                e.append(f"Illegal reduction operation for instruction '{name}.{dst}.{src}.{typ}'")
    _bulk_common(e, ctx, mods)
    e.raise_for(ins, ctx)
    attrs = {"dst": dst, "src": src, "op": op or "add"}
    if typ:
        attrs["type"] = typ
    if tensor:
        attrs.update(dim=_dim(ins, ctx, mods), mode=(mode or ".tile")[1:])
        return _async(ins, ctx, "tensor_reduce", **attrs)
    return _async(ins, ctx, "bulk_reduce", **attrs)


def _cp_bulk_prefetch(ins, ctx):
    e = _Errs()
    e.gate(ctx, _BULK_SM, _BULK_PTX, "Feature 'cp.async.bulk.prefetch'")
    e.raise_for(ins, ctx)
    return _async(ins, ctx, "bulk_prefetch")


@handler("cp")
def lower_cp(ins: A.Instruction, ctx):
    mods = ins.mods
    if any(type(o) is A.Vec and not o.items for o in ins.operands):
        raise ctx.error("Parsing error near '}': syntax error", ins)        # an empty offset list `{}`
    if ".reduce" in mods:
        return _cp_reduce(ins, ctx)
    if ".bulk" in mods:
        for op in ("commit_group", "wait_group"):
            if f".{op}" in mods:
                return _cp_bulk_group(ins, ctx, op)
        if ".prefetch" in mods:
            return _cp_tensor(ins, ctx, prefetch=True) if ".tensor" in mods else _cp_bulk_prefetch(ins, ctx)
        return _cp_tensor(ins, ctx) if ".tensor" in mods else _cp_bulk(ins, ctx)
    if ".mbarrier" in mods:
        return _cp_async_mbarrier_arrive(ins, ctx)
    for op in ("commit_group", "wait_group", "wait_all"):
        if f".{op}" in mods:
            return _cp_async_group(ins, ctx, op)
    return _cp_async(ins, ctx)

# ---------------------------------------------------------------- tensormap, st.async, clusterlaunchcontrol


@handler("tensormap")
def lower_tensormap(ins: A.Instruction, ctx):
    if ".replace" in ins.mods:          # tensormap.replace: a generic instruction (gated in lowering/isa_gates.py)
        return [Instr(generic.ori_class(ins.opcode, ins.mods), ins.opcode, ins.mods, ins.operands, ins.guard, {},
                      ins.line, "build")]
    e = _Errs()
    e.version(ctx, (8, 3), "Feature 'tensormap.cp_fenceproxy'")
    e.add(ctx.target.sm < 90, f"Instruction 'tensormap.cp_fenceproxy' not supported on .target '{ctx.target.name}'")
    size = _imm(ins.operands[2]) if len(ins.operands) == 3 else None
    e.add(size is not None and size != 128,
          f"Argument 2 of instruction 'tensormap.cp_fenceproxy': unexpected value '{size}', expected to be 128")
    e.raise_for(ins, ctx)
    scope = next((m[1:] for m in ins.mods if m in (".cta", ".cluster", ".gpu", ".sys")), "gpu")
    return _async(ins, ctx, "tensormap_cp", scope=scope)


_ST_ASYNC_SM, _ST_ASYNC_PTX = 90, (8, 1)
_ST_GLOBAL_SM, _ST_GLOBAL_PTX = 100, (8, 7)
_TYPE_BITS = {".b32": 32, ".s32": 32, ".u32": 32, ".f32": 32, ".b64": 64, ".s64": 64, ".u64": 64, ".f64": 64}


def lower_st_async(ins: A.Instruction, ctx):
    """st.async (the `st` handler of lowering/fam_memory.py hands it over)."""
    mods = ins.mods
    stem = "st.async"
    e = _Errs()
    sem = next((m for m in mods if m in (".relaxed", ".release", ".acquire")), None)
    scope = next((m for m in mods if m in (".cta", ".cluster", ".gpu", ".sys")), None)
    space = next((m for m in mods if m in (".shared::cluster", ".global", ".shared", ".shared::cta")), None)
    mbar = _MBAR in mods
    is_global = space == ".global"
    e.target(ctx, _ST_ASYNC_SM, f"Feature '{stem}'")
    e.version(ctx, _ST_ASYNC_PTX, f"Feature '{stem}'")
    e.add(sem == ".relaxed" or sem == ".acquire", f"Illegal modifier '{sem}' for instruction '{stem}'")
    if sem == ".release":
        e.add(scope == ".cluster", f"Illegal modifier '.cluster' for instruction '{stem}' with '.release'")
    if scope == ".cluster":
        e.add(space not in (None, ".shared::cluster"), f"Modifier '.cluster' requires '.shared::cluster' space for "
              f"instruction '{stem}'")
        e.add(not mbar, f"Modifier '.cluster' requires modifier '.completion_mechanism' for instruction '{stem}'")
    if space == ".shared::cluster":
        e.target(ctx, 90, "Feature '::cluster'")
    if ".mmio" in mods:
        e.target(ctx, _ST_GLOBAL_SM, "Feature 'st.async/red.async with .mmio modifier'")
    if is_global:
        bad = ctx.target.sm < _ST_GLOBAL_SM or ctx.version < _ST_GLOBAL_PTX
        e.gate(ctx, _ST_GLOBAL_SM, _ST_GLOBAL_PTX, "Feature 'st.async/red.async with .global state space'")
        e.add(bad, f"State space incorrect for instruction '{stem}'")
    if mbar:
        e.target(ctx, 90, f"Feature '{_MBAR}'")
    if sem == ".release":
        bad = ctx.target.sm < _ST_GLOBAL_SM or ctx.version < _ST_GLOBAL_PTX
        e.gate(ctx, _ST_GLOBAL_SM, _ST_GLOBAL_PTX, "Feature 'st.async/red.async with .release modifier'")
        e.add(bad, f"Illegal modifier '.release' for instruction '{stem}'")
    vec = next((int(m[2]) for m in mods if m in (".v2", ".v4")), 1)
    bits = vec * next((b for m, b in _TYPE_BITS.items() if m in mods), 32)
    e.add(bits > 128, "Vector type too large, exceeds 128 bit limit")
    e.raise_for(ins, ctx)
    attrs = {"bits": bits}
    if is_global:
        attrs["to_global"] = 1
    return _async(ins, ctx, "st_async", **attrs)


_CLC_SM, _CLC_PTX = 100, (8, 6)
_CLC_QUERIES = (".is_canceled", ".get_first_ctaid::x", ".get_first_ctaid::y", ".get_first_ctaid::z",
                ".get_first_ctaid")


@handler("clusterlaunchcontrol")
def lower_clusterlaunchcontrol(ins: A.Instruction, ctx):
    mods = ins.mods
    e = _Errs()
    if ".try_cancel" in mods:
        e.version(ctx, _CLC_PTX, "Feature 'clusterlaunchcontrol.try_cancel.async'")
        e.target(ctx, _CLC_SM, "Feature 'clusterlaunchcontrol.try_cancel.async'")
        mcast = ".multicast::cluster::all" in mods
        e.add(mcast and _key(ctx.target) not in _CLC_MULTICAST,
              f"Feature '.multicast::cluster::all' not supported on .target '{ctx.target.name}'")
        if _MBAR in mods:
            e.target(ctx, 90, f"Feature '{_MBAR}'")
        e.raise_for(ins, ctx)
        return _async(ins, ctx, "clc_try_cancel", **({"mcast": 1} if mcast else {}))
    query = next((m for m in mods if m in _CLC_QUERIES), None)
    if query:
        e.target(ctx, _CLC_SM, f"Feature '{query}'")
    e.version(ctx, _CLC_PTX, "Feature 'clusterlaunchcontrol.query_cancel'")
    e.target(ctx, _CLC_SM, "Feature 'clusterlaunchcontrol.query_cancel'")
    e.raise_for(ins, ctx)
    return _async(ins, ctx, "clc_query")
