"""What an Ori instruction is, as the sync phases and ISel ask it: CTA barrier (aligned or not), bar.warp.sync,
a warp-synchronous operation and its member mask; and the constructors of the instructions phases insert.

Rules: docs/findings/phases.md. Every stage asks these questions here instead of testing opcodes itself.
"""
from __future__ import annotations

from pylower.records import record

from . import ori
from . import ptx_ast as A
from .ori_schema import replace_attrs

SYNC = ori.ORI_CLASSES["sync"]
BARRIER = ori.ORI_CLASSES["barrier"]
ATOMIC = ori.ORI_CLASSES["atomic"]
MBARRIER = ori.ORI_CLASSES["mbarrier"]
ASYNC = ori.ORI_CLASSES["async"]
# The full warp member mask: every lane.
FULL_MASK = 0xFFFFFFFF
# warp collectives that take a member mask (last operand) when spelled .sync; by stem, whatever Ori
# class their family's handler gives them
WARP_SYNC_STEMS = frozenset({"vote", "shfl", "match", "redux", "elect"})
TERMINATORS = frozenset({"bra", "brx", "ret", "exit", "trap"})


def pseudo(opcode: str, mods=(), operands=(), by: str = "", line: int = 0, **attrs) -> ori.Instr:
    """A class-130 sync pseudo-op (stems: ori.PSEUDO_OPCODES)."""
    assert opcode in ori.PSEUDO_OPCODES, opcode
    return ori.Instr(SYNC, opcode, tuple(mods), tuple(operands), None, attrs, line, by)


def clone(ins: ori.Instr, by: str, **attrs) -> ori.Instr:
    """A copy of `ins` made by phase `by` (provenance), with attributes added."""
    return ori.Instr(ins.op, ins.opcode, ins.mods, ins.operands, ins.guard, replace_attrs(ins.attrs, **attrs),
                     ins.line, by)


def imm(v: int) -> A.Imm:
    return A.Imm(hex(v))


def is_cta_barrier(ins: ori.Instr) -> bool:
    return ins.op == BARRIER and ins.attrs.mode != ""


def is_aligned_cta_barrier(ins: ori.Instr) -> bool:
    """bar.* and barrier.*.aligned: every thread of the warp executes it, so ptxas only re-converges
    before it (a WARPSYNC) and never treats the code around it as divergent."""
    return is_cta_barrier(ins) and (ins.opcode == "bar" or ".aligned" in ins.mods)


def is_bar_warp_sync(ins: ori.Instr) -> bool:
    return ins.op == BARRIER and ins.opcode == "bar" and ".warp" in ins.mods


@record(frozen=True)
class WarpOp:
    """A warp-synchronous operation: its member mask (None: the whole warp) and the name of ptxas's
    out-of-line `__cuda_sm70_<helper>` slow path on sm_75-89."""
    helper: str
    mask: object
    inline: bool          # False: nothing runs on the fast path (bar.warp.sync is only the WARPSYNC)
    user: bool = True     # written by the user (vs. compiler-made); decides .RECONVERGENT on sm_100+


def _mask(o, consts: dict[str, int] | None):
    if consts and type(o) is A.Reg and o.name in consts:
        return imm(consts[o.name] & FULL_MASK)
    return o


def warp_op(ins: ori.Instr, consts: dict[str, int] | None = None) -> WarpOp | None:
    """The warp-synchronous op `ins` is, if any; `consts` (analysis.constants) resolves register masks."""
    if ins.op != BARRIER and ins.opcode not in WARP_SYNC_STEMS:
        return None                     # (most instructions: each case below needs one or the other)
    if is_bar_warp_sync(ins):
        return WarpOp("warpsync", _mask(ins.operands[0], consts) if ins.operands else None, False)
    if is_cta_barrier(ins) and ins.attrs.mode == "sync" and not is_aligned_cta_barrier(ins):
        # non-aligned barrier.sync waits for the whole warp itself (barrier.arrive/.red do not:
        # barrier_red_*, barrier_arrive_* have no COOP_GROUP entry)
        # ptxas's helper names: `barrier_sync`, `_<id>` for a constant id, `_count` with a thread count
        # (`barrier_sync_1_count`, `barrier_sync_count`); helpers are numbered and placed in name order
        bid = ins.operands[0]
        suffix = (f"_{bid.value}" if type(bid) is A.Imm else "") + ("_count" if len(ins.operands) > 1 else "")
        return WarpOp(f"barrier_sync{suffix}", None, True)
    if ins.opcode in WARP_SYNC_STEMS and ".sync" in ins.mods and ins.operands:
        sub = next((m[1:] for m in ins.mods if m != ".sync"), "")
        return WarpOp(f"{ins.opcode}sync_{sub}", _mask(ins.operands[-1], consts), True)
    return None


def is_sync(ins: ori.Instr) -> bool:
    """A CTA barrier or a warp-synchronous op."""
    return is_cta_barrier(ins) or warp_op(ins) is not None


def negated(guard):
    """The opposite guard: `!p` for `p`, `p` for `!p`."""
    return guard.inner if type(guard) is A.Not else A.Not(guard)


def guard_register(guard) -> str | None:
    """The predicate register a guard tests, in either polarity (None for a constant guard)."""
    g = guard.inner if type(guard) is A.Not else guard
    return g.name if type(g) is A.Reg else None


def redux_mask_only(u: ori.Instr, reg=None) -> bool:
    """Is `u` a converged redux.sync (one mask for the warp) reading `reg` (default: its mask operand, a register)
    only as its member mask? On REDUX_MASK_UNREAD targets its REDUX reads no mask."""
    if u.opcode != "redux" or not u.attrs.conv or u.attrs.permask or len(u.operands) <= 2:
        return False
    reg = u.operands[2] if reg is None else reg
    return type(reg) is A.Reg and u.operands[2] == reg and reg not in u.operands[:2]


def is_full_mask(mask) -> bool:
    return mask is None or (type(mask) is A.Imm and isinstance(mask.value, int) and mask.value & FULL_MASK == FULL_MASK)


def is_const_mask(mask) -> bool:
    return mask is None or type(mask) is A.Imm


def branch_target(ins: ori.Instr) -> str | None:
    """The label a bra jumps to."""
    return next((o.name for o in ins.operands if type(o) is A.Sym), None)


def call_target(ins: ori.Instr) -> str | None:
    if ins.opcode != "call":
        return None
    return next((o.name for o in ins.operands if type(o) is A.Sym), None)
