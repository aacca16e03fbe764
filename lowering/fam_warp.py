"""Warp collectives: vote, match, activemask, redux, elect, shfl (ptxas handlers sub_580E50 vote, sub_5801D0
shfl, sub_58A730 match, sub_567680 redux) and griddepcontrol, nanosleep. Validation messages and their
order are ptxas 13.0.88's (docs/findings/warp.md, tests/corpus/probes/warp); ptxas reports several errors
for one instruction, pylower the first of them.

Every form becomes one Ori instruction (class 119 for the collectives) keeping its PTX spelling; the
member-mask handling (slow paths, WARPSYNC) is phases 71/72's, the SASS choice isel/fam_warp.py's.
"""
from __future__ import annotations

from pylower.lazy_re import lazy_compile

from . import ptx_ast as A
from .diagnostics import PtxError
from .handlers import handler
from .ori import ORI_CLASSES

_WARP = ORI_CLASSES["vote"]
_CONTROL = ORI_CLASSES["control"]
_TYPES = (".pred", ".b16", ".b32", ".b64", ".u16", ".u32", ".u64", ".s16", ".s32", ".s64", ".f16", ".f32", ".f64")

# The legacy (non-.sync) vote/shfl: an error from PTX ISA 6.4 on, two warnings before (sm_70+ targets only).
_LEGACY_CUTOFF = (6, 4)
_LEGACY_WARNINGS = (
    "Instruction '{op}' without '.sync' may produce unpredictable results on sm_70 and later architectures",
    "Instruction '{op}' without '.sync' is deprecated since PTX ISA version 6.0 and will be discontinued in a "
    "future PTX ISA version",
)

_VOTE_MODES = (".all", ".any", ".uni", ".ballot")
_SHFL_MODES = (".idx", ".up", ".down", ".bfly")
_MATCH_MODES = (".any", ".all")
# redux operation -> the types it accepts
_REDUX_OPS = {".add": (".u32", ".s32"), ".min": (".u32", ".s32", ".f32"), ".max": (".u32", ".s32", ".f32"),
              ".and": (".b32",), ".or": (".b32",), ".xor": (".b32",)}
_REDUX_TYPES = (".u32", ".s32", ".b32", ".f32")
# first SM of each feature (ptxas: "... requires .target sm_XX or higher")
_REDUX_SM, _REDUX_ABS_SM, _REDUX_NAN_SM = 80, 86, 80
_ELECT_SM, _GRIDDEP_SM = 90, 90
_GRIDDEP_ACTIONS = (".wait", ".launch_dependents")

# a register operand: %name, or a name without % (declared in an inline-asm scope: `.reg .pred p;`), parsed as a symbol
_NAMES = (A.Reg, A.Sym)
_RANGE_RE = lazy_compile(r"^(.*?)(\d+)$")
_REG_TYPES: dict[int, tuple] = {}


def _reg_types(ctx) -> tuple[dict, dict]:
    """Declared .reg types of the current function: (name -> type, range prefix -> type), cached. Read from the
    builder's declarations (ctx.decls: nested scopes opened, shadowing names made unique)."""
    fn, decls = ctx.function, ctx.decls
    hit = _REG_TYPES.get(id(decls))
    if hit is not None and hit[0] is decls:
        return hit[1], hit[2]
    names: dict[str, str] = {}
    ranges: dict[str, str] = {}
    for st in decls:
        if type(st) is A.VarDecl and st.space == ".reg":
            t = next((a for a in st.attrs if a in _TYPES), None)
            (ranges if st.count is not None else names)[st.name] = t
    for p in fn.params:
        if p.space == ".reg":
            names[p.name] = next((a for a in p.attrs if a in _TYPES), None)
    _REG_TYPES.clear()
    _REG_TYPES[id(decls)] = (decls, names, ranges)
    return names, ranges


def _is_pred(o, ctx) -> bool:
    if type(o) is A.Not:
        o = o.inner
    if type(o) not in _NAMES:
        return False
    names, ranges = _reg_types(ctx)
    if o.name in names:
        return names[o.name] == ".pred"
    m = _RANGE_RE.match(o.name)
    return bool(m) and ranges.get(m.group(1)) == ".pred"


def _value(o, ctx) -> bool:
    """A non-predicate source: an immediate or a data register."""
    return type(o) is A.Imm or (type(o) in _NAMES and not _is_pred(o, ctx))


def _dest(o, ctx, pred: bool) -> bool:
    if type(o) is A.Sink:
        return True
    return type(o) in _NAMES and _is_pred(o, ctx) == pred


def _pred_src(o, ctx) -> bool:
    return type(o) is A.Imm or _is_pred(o, ctx)


def _first(mods, choices):
    return next((m for m in mods if m in choices), None)


def _type(mods):
    return _first(mods, _TYPES)


def _legacy(ins, ctx, op: str) -> None:
    """vote/shfl without .sync."""
    if ctx.version >= _LEGACY_CUTOFF:
        raise ctx.error(f"Instruction '{op}' without '.sync' is not supported on .target sm_70 and higher from "
                        f"PTX ISA version {_LEGACY_CUTOFF[0]}.{_LEGACY_CUTOFF[1]}", ins)
    for w in _LEGACY_WARNINGS:
        ctx.diags.warn(w.format(op=op), ins.line, ins.col)


def _mismatch(ins, ctx, what: str):
    return ctx.error(f"Arguments mismatch for instruction '{what}'", ins)


@handler("vote")
def lower_vote(ins: A.Instruction, ctx):
    mods, ops = ins.mods, ins.operands
    sync = ".sync" in mods
    if sync:
        ctx.require_version(ins, 6, 0, "vote.sync")
    else:
        _legacy(ins, ctx, "vote")
    mode = _first(mods, _VOTE_MODES)
    if mode is None:
        raise ctx.error(".mode modifier required for instruction 'vote'", ins)
    typ = _type(mods)
    if typ not in (".pred", ".b32"):
        raise ctx.error("Unexpected instruction types specified for 'vote'", ins)
    want = ".b32" if mode == ".ballot" else ".pred"
    if typ != want:
        raise ctx.error(f"Instruction 'vote' requires '{want}' type with '{mode}' modifier.", ins)
    if len(ops) != (3 if sync else 2) or not _dest(ops[0], ctx, typ == ".pred") or not _pred_src(ops[1], ctx) \
            or (sync and not _value(ops[2], ctx)):
        raise _mismatch(ins, ctx, "vote")
    return [ctx.instr(_WARP, ins, mode=mode[1:])]


@handler("shfl")
def lower_shfl(ins: A.Instruction, ctx):
    mods, ops = ins.mods, ins.operands
    sync = ".sync" in mods
    if sync:
        ctx.require_version(ins, 6, 0, "shfl.sync")
    else:
        _legacy(ins, ctx, "shfl")
    mode = _first(mods, _SHFL_MODES)
    if mode is None:
        raise ctx.error("Shuffle modifier required for instruction 'shfl'", ins)
    if _type(mods) != ".b32":
        raise ctx.error("Unexpected instruction types specified for 'shfl'", ins)
    d = ops[0] if ops else None
    d_ok = _dest(d, ctx, False) or (type(d) is A.Pair and _dest(d.first, ctx, False) and _dest(d.second, ctx, True))
    if len(ops) != (5 if sync else 4) or not d_ok or not all(_value(o, ctx) for o in ops[1:]):
        raise _mismatch(ins, ctx, "shfl")
    return [ctx.instr(_WARP, ins, mode=mode[1:])]


@handler("match")
def lower_match(ins: A.Instruction, ctx):
    mods, ops = ins.mods, ins.operands
    if ".sync" not in mods:
        raise ctx.error(".sync modifier required for instruction 'match'", ins)
    ctx.require_version(ins, 6, 0, "match")
    mode = _first(mods, _MATCH_MODES)
    if mode is None:
        raise ctx.error("'.any' or '.all' modifier required for instruction 'match'", ins)
    if _type(mods) not in (".b32", ".b64"):
        raise ctx.error("Unexpected instruction types specified for 'match'", ins)
    d = ops[0] if ops else None
    if type(d) is A.Pair and mode == ".any":
        raise ctx.error("Predicate output not allowed for instruction 'match.any'", ins)
    d_ok = _dest(d, ctx, False) or (type(d) is A.Pair and _dest(d.first, ctx, False) and _dest(d.second, ctx, True))
    if len(ops) != 3 or not d_ok or not _value(ops[1], ctx) or not _value(ops[2], ctx):
        raise _mismatch(ins, ctx, "match")
    return [ctx.instr(_WARP, ins, mode=mode[1:])]


@handler("activemask")
def lower_activemask(ins: A.Instruction, ctx):
    ctx.require_version(ins, 6, 2, "activemask")
    if _type(ins.mods) != ".b32":
        raise ctx.error("Unexpected instruction types specified for 'activemask'", ins)
    if len(ins.operands) != 1 or not _dest(ins.operands[0], ctx, False):
        raise _mismatch(ins, ctx, "activemask")
    return [ctx.instr(_WARP, ins)]


@handler("redux")
def lower_redux(ins: A.Instruction, ctx):
    mods, ops, t = ins.mods, ins.operands, ctx.target
    typ = _type(mods)
    f32 = typ == ".f32"
    if typ not in _REDUX_TYPES:            # reported alone, before the target checks (redux_sync_add_u64_bad_type)
        raise ctx.error("Unexpected instruction types specified for 'redux'", ins)
    errs = []                              # ptxas reports the target gates and the operation's type errors together
    if ".abs" in mods and t.sm < _REDUX_ABS_SM:
        errs.append(f"Feature '.abs' requires .target sm_{_REDUX_ABS_SM} or higher")
    if f32 and not t.has_redux_float:
        errs.append(f"Instruction 'redux.f32' not supported on .target '{t.name}'")
    if not f32 and t.sm < _REDUX_SM:
        errs.append(f"Feature 'redux' requires .target sm_{_REDUX_SM} or higher")
    if ".NaN" in mods and t.sm < _REDUX_NAN_SM:
        errs.append(f"Modifier '.NaN' requires .target sm_{_REDUX_NAN_SM} or higher")
    if ".sync" not in mods:
        errs.append(".sync modifier required for instruction 'redux'")
    if not errs:
        if f32:
            ctx.require_version(ins, 8, 6, "redux.f32")
        else:
            ctx.require_version(ins, 7, 0, "redux")
    op = _first(mods, _REDUX_OPS)
    if op is None:
        errs.append("Reduction operation is required for instruction 'redux'")
    elif typ not in _REDUX_OPS[op]:
        errs.append(f"Incorrect type '{typ}' for operation '{op}' in instruction 'redux'")
    for m in (".abs", ".NaN"):
        if m in mods and not f32:
            errs.append(f"Instruction 'redux' requires '.f32' type with '{m}' modifier.")
    if errs:
        raise PtxError(errs[0], ins.line, ins.col, ctx.file, more=tuple(errs[1:]))
    if len(ops) != 3 or not _dest(ops[0], ctx, False) or not _value(ops[1], ctx) or not _value(ops[2], ctx):
        raise _mismatch(ins, ctx, "redux")
    return [ctx.instr(_WARP, ins, redop=op[1:])]


@handler("elect")
def lower_elect(ins: A.Instruction, ctx):
    ctx.require_version(ins, 8, 0, "elect")
    if ctx.target.sm < _ELECT_SM:
        raise ctx.error(f"Feature 'elect' requires .target sm_{_ELECT_SM} or higher", ins)
    if ".sync" not in ins.mods:
        raise ctx.error(".sync modifier required for instruction 'elect'", ins)
    ops = ins.operands
    if len(ops) != 2 or not _value(ops[1], ctx):
        raise _mismatch(ins, ctx, "elect")
    d = ops[0]
    if type(d) is not A.Pair:
        raise ctx.error("Predicate output expected for instruction 'elect'", ins)
    if not (_dest(d.first, ctx, False) and _dest(d.second, ctx, True)):
        raise _mismatch(ins, ctx, "elect")
    return [ctx.instr(_WARP, ins)]


@handler("griddepcontrol")
def lower_griddepcontrol(ins: A.Instruction, ctx):
    # a known modifier other than the two actions is illegal (unknown ones were reported by the builder); on an
    # old target ptxas puts it between the action's gate and the instruction's (probe errors_illegal_modifiers)
    illegal = [f"Illegal modifier '{m}' for instruction 'griddepcontrol'" for m in ins.mods if m not in _GRIDDEP_ACTIONS]
    acts = [m for m in ins.mods if m in _GRIDDEP_ACTIONS]
    if not acts and not illegal and ctx.dropped_modifiers:
        return []                          # only an unknown modifier (already reported): nothing more (probed)
    if not acts:
        raise PtxError(*(illegal[:1] or ["'.launch_dependents' or '.wait' modifier required for instruction "
                                         "'griddepcontrol'"]), ins.line, ins.col, ctx.file, more=tuple(illegal[1:]))
    if len(acts) > 1:
        raise ctx.error(f"Modifier '{acts[0]}' cannot be combined with modifier '{acts[1]}'", ins)
    act = acts[0]
    if ctx.target.sm < _GRIDDEP_SM:
        raise PtxError(f"Modifier '{act}' requires .target sm_{_GRIDDEP_SM} or higher", ins.line, ins.col, ctx.file,
                       more=tuple(illegal) + (f"Instruction 'griddepcontrol' requires .target sm_{_GRIDDEP_SM} or higher",))
    if illegal:
        raise PtxError(illegal[0], ins.line, ins.col, ctx.file, more=tuple(illegal[1:]))
    if ctx.version < (7, 8):
        raise ctx.error(f"Modifier '{act}' requires PTX ISA .version 7.8 or later", ins)
    if ins.operands:
        raise _mismatch(ins, ctx, "griddepcontrol")
    return [ctx.instr(_CONTROL, ins, action=act[1:])]


@handler("nanosleep")
def lower_nanosleep(ins: A.Instruction, ctx):
    if _type(ins.mods) != ".u32":
        raise ctx.error("Unexpected instruction types specified for 'nanosleep'", ins)
    if len(ins.operands) != 1 or not _value(ins.operands[0], ctx):
        raise _mismatch(ins, ctx, "nanosleep")
    return [ctx.instr(_CONTROL, ins)]
