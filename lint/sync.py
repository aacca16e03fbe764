"""The synchronization instructions as the checks see them: CTA barriers with their id and thread count,
warp collectives with their member mask, mbarrier operations with their barrier address, asynchronous
copies with what they read, write and signal."""
from __future__ import annotations

from pylower.lowering import ptx_ast as A
from pylower.lowering.ops import ASYNC, MBARRIER, is_cta_barrier

FULL = 0xFFFFFFFF


def barrier_operands(ins):
    """(id operand, count operand or None) of a CTA barrier (bar/barrier .sync/.arrive/.red)."""
    ops = ins.operands
    if ins.attrs.mode == "red":
        inner = ops[1:-1]
    else:
        inner = ops
    if not inner:
        return None, None
    return inner[0], (inner[1] if len(inner) > 1 else None)


def is_cluster_barrier(ins) -> bool:
    return ins.opcode == "barrier" and ins.attrs.cluster != ""


# ---------------------------------------------------------------- warp collectives

WARP_COLLECTIVES = ("shfl", "vote", "match", "redux", "elect")


def member_mask(ins):
    """The member-mask operand of a warp collective (.sync form) or bar.warp.sync, else None."""
    if ins.opcode == "bar" and ".warp" in ins.mods:
        return ins.operands[0] if ins.operands else None
    if ins.opcode in WARP_COLLECTIVES and ".sync" in ins.mods and ins.operands:
        return ins.operands[-1]
    return None


# ---------------------------------------------------------------- mbarriers

def is_mbarrier(ins) -> bool:
    return ins.op == MBARRIER


def mbarrier_operand(ins):
    """The mbarrier address operand of an mbarrier op (including cp.async.mbarrier.arrive)."""
    for o in ins.operands:
        if type(o) is A.Addr:
            return o
    return None


WAITS = ("test_wait", "try_wait")


# ---------------------------------------------------------------- async copies

_COMPLETE_TX = ".mbarrier::complete_tx::bytes"


def async_form(ins) -> str:
    return ins.attrs.form if ins.op == ASYNC else ""


def signals_mbarrier(ins):
    """The mbarrier operand a bulk copy / st.async / red.async completes transactions on, else None."""
    if _COMPLETE_TX not in ins.mods:
        return None
    ops = ins.operands
    if ins.opcode == "cp":
        addrs = [o for o in ops if type(o) is A.Addr]
        return addrs[2] if len(addrs) >= 3 else None
    addrs = [o for o in ops if type(o) is A.Addr]
    if ins.opcode in ("st", "red"):
        return addrs[1] if len(addrs) >= 2 else None
    return addrs[-1] if len(addrs) >= 2 else None


def reads_shared_async(ins) -> bool:
    """An async-proxy operation that reads shared memory: bulk / tensor copies and reductions whose source
    is shared memory."""
    form = async_form(ins)
    if form in ("bulk", "tensor_store", "bulk_reduce", "tensor_reduce"):
        return (ins.attrs.src or "").startswith("shared")
    return False


def copy_source(ins):
    """The source memory operand of a bulk copy (the second address)."""
    addrs = [o for o in ins.operands if type(o) is A.Addr]
    if async_form(ins) in ("tensor_store", "tensor_reduce"):
        return addrs[1] if len(addrs) > 1 else None
    return addrs[1] if len(addrs) > 1 else None


def cta_barrier(ins) -> bool:
    return is_cta_barrier(ins)
