"""ISel for thread-block barriers (Ori 96): BAR.SYNC / BAR.ARV / BAR.RED.* (+ B2R.RESULT); also dispatches
bar.warp.sync (a WARPSYNC) and barrier.cluster (isel/fam_barrier_cluster.py).

Tier table (probes in tests/corpus/probes/barrier): .DEFER_BLOCKING from sm_80 for aligned barriers and all
reductions, from sm_90 for non-aligned `barrier.sync`; the reduction result is moved out with B2R.RESULT
when it is used, and always from sm_90 on.
"""
from __future__ import annotations

from pylower.lowering import ptx_ast as A
from pylower.sass.instr import VIRTUAL

from .rules import block_def, operand_text, rule
from .sequences import warpsync

# (kind, aligned) -> (SASS modifiers after BAR, the target feature that adds .DEFER_BLOCKING or None).
# `bar.*` is always aligned; non-aligned `barrier.sync` defers only from sm_90 (probed).
_MODS = {
    ("sync", True): (("SYNC",), "DEFER_BLOCKING"),
    ("sync", False): (("SYNC",), "DEFER_BLOCKING_UNALIGNED"),
    ("arrive", True): (("ARV",), None),
    ("arrive", False): (("ARV",), None),
    ("red", True): (("RED", "{op}"), "DEFER_BLOCKING"),
    ("red", False): (("RED", "{op}"), "DEFER_BLOCKING"),
}


def _bar_operands(ops) -> tuple[str, ...]:
    # a count of 0 means "all threads" and is dropped, as ptxas prints it
    out = [operand_text(ops[0])]
    if len(ops) > 1 and not (type(ops[1]) is A.Imm and ops[1].value == 0):
        out.append(operand_text(ops[1]))
    return tuple(out)


def _select_warp_sync(ins, sel):
    """bar.warp.sync that reaches ISel (the sync phases left it alone): one WARPSYNC of its mask (no
    EIATTR_COOP_GROUP entry for the one an aligned op implies: lowering/tensormap_copy.py)."""
    return [warpsync(sel, ins, ins.operands[0], tags=() if ins.attrs.implicit else ("COOP_GROUP",))]


def _source_predicate(p, sel, ins):
    """The predicate a reduction reads, through the bool round trip nvcc writes for __syncthreads_count/and/or
    (`selp.u32 %r, 1, 0, %q; setp.ne.u32 %p, %r, 0`): ptxas reads %q itself, negated for setp.eq
    (`BAR.RED.POPC.DEFER_BLOCKING 0x0, !P0`; nvcc/syncthreads_count_and_or)."""
    neg = type(p) is A.Not
    reg = p.inner if neg else p
    setp = block_def(reg, sel, ins)
    if setp is None or setp.opcode != "setp" or len(setp.operands) != 3 or not any(
            m in setp.mods for m in (".ne", ".eq")) or not (type(setp.operands[2]) is A.Imm and setp.operands[2].value == 0):
        return p
    selp = block_def(setp.operands[1], sel, setp)
    if selp is None or selp.opcode != "selp" or len(selp.operands) != 4 or not (
            type(selp.operands[1]) is A.Imm and selp.operands[1].value == 1
            and type(selp.operands[2]) is A.Imm and selp.operands[2].value == 0):
        return p
    q = selp.operands[3]
    neg ^= ".eq" in setp.mods
    if type(q) is A.Not:
        q, neg = q.inner, not neg
    return A.Not(q) if neg else q


@rule("bar", "barrier")
def select_bar(ins, sel):
    kind = ins.attrs.mode
    if not kind:
        if ins.attrs.cluster:
            from .fam_barrier_cluster import select_cluster     # (imported by runs with cluster barriers only)
            return select_cluster(ins, sel)
        return _select_warp_sync(ins, sel)
    aligned = ins.opcode == "bar" or ".aligned" in ins.mods
    base, defer = _MODS[(kind, aligned)]
    mods = tuple(m.format(op=ins.attrs.redop.upper()) for m in base)
    if defer is not None and sel.target.has(defer):
        mods += ("DEFER_BLOCKING",)
    ops = ins.operands[1:-1] if kind == "red" else ins.operands
    # a non-aligned barrier.sync is a warp-synchronous op: listed in EIATTR_COOP_GROUP_INSTR_OFFSETS, except
    # its copy in an out-of-line slow path (`!copy=1`, passes/p72_late_expand_sync.py)
    coop = ("COOP_GROUP",) if kind == "sync" and not aligned and not ins.attrs.copy else ()
    if ins.attrs.regid:
        # inside the -O0 WARPSYNC.COLLECTIVE form (sm_90+) the id and count travel in a register
        # (`BAR.SYNC.DEFER_BLOCKING R8, R8`); the id still counts for EIATTR_NUM_BARRIERS (zero-size marker)
        r = sel.role(ins, "bar")
        out = [sel.sass(ins, "MOV", (), (r, _bar_operands(ops)[0] if ops else "0x0"),
                        reason="the barrier id (and count) in a register, as the collective form takes it"),
               sel.sass(ins, "BAR", mods, (r, r), tags=coop),
               sel.sass(ins, VIRTUAL, (), _bar_operands(ops), tags=("BARRIER_ID",))]
    else:
        # BAR.RED's predicate operand (an immediate one is PT / !PT, as ptxas prints it)
        p = ins.operands[-1] if kind == "red" else None
        pred = () if p is None else (("PT" if p.value else "!PT",) if type(p) is A.Imm else
                                     (operand_text(_source_predicate(p, sel, ins)),))
        out = [sel.sass(ins, "BAR", mods, tuple(_bar_operands(ops)) + pred, tags=("BARRIER_ID",) + coop)]
    if kind == "red":
        dest = ins.operands[0]
        if sel.target.has("B2R_ALWAYS") or sel.result_used(ins, dest):
            # a .pred result (bar.red.and/.or) lands in a predicate: `B2R.RESULT RZ, P1`, as ptxas prints it
            pred_dest = ins.attrs.redop in ("and", "or")
            out.append(sel.sass(ins, "B2R", ("RESULT",), ("RZ", operand_text(dest)) if pred_dest
                                else (operand_text(dest),)))
    return out
