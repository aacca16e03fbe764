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
    """The source memory operand of a bulk copy: its second address ([dst], [src], ... and, for a tensor copy,
    [tensorMap, {coords}], [src])."""
    addrs = [o for o in ins.operands if type(o) is A.Addr]
    return addrs[1] if len(addrs) > 1 else None


def cta_barrier(ins) -> bool:
    return is_cta_barrier(ins)


# ---------------------------------------------------------------- mbarrier uses

class MbarOp:
    """One operation on an mbarrier: kind is init / inval / arrive / expect_tx / wait / cp_async_arrive (the
    generic proxy, by the executing thread) or complete_tx / commit (the async proxy: a bulk or tensor copy,
    st.async / red.async, tcgen05.commit, clusterlaunchcontrol signalling it)."""
    __slots__ = ("ins", "kind", "operand")

    def __init__(self, ins, kind, operand):
        self.ins, self.kind, self.operand = ins, kind, operand

    @property
    def async_proxy(self) -> bool:
        return self.kind in ("complete_tx", "commit")


_MBAR_KIND = {"init": "init", "inval": "inval", "arrive": "arrive", "arrive_drop": "arrive",
              "expect_tx": "expect_tx", "complete_tx": "arrive", "test_wait": "wait", "try_wait": "wait",
              "cp_async_arrive": "cp_async_arrive"}


def mbarrier_op(ins) -> MbarOp | None:
    if ins.op == MBARRIER:
        kind = _MBAR_KIND.get(ins.attrs.op)
        if kind is None:
            return None
        if kind == "arrive" and ins.attrs.expect_tx:
            kind = "expect_tx"
        opnd = mbarrier_operand(ins)
        return MbarOp(ins, kind, opnd) if opnd is not None else None
    sig = signals_mbarrier(ins)
    if sig is not None:
        return MbarOp(ins, "complete_tx", sig)
    if ins.opcode == "tcgen05" and ".commit" in ins.mods:
        opnd = mbarrier_operand(ins)
        return MbarOp(ins, "commit", opnd) if opnd is not None else None
    return None
