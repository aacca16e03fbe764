"""Plain arithmetic of an if-region's join, hoisted above the region (below sm_90, JOIN_WORK_HOISTED).

ptxas 13.0.88 on sm_75..sm_89 computes the ALU work that follows a one-armed if (`bssy B; [@!p bra J;] ...;
J: bsync B; ...`) and reads nothing the region or the join's earlier kept instructions write before the
region's branch: a warp collective of that value then issues at once after the BSYNC, ahead of a CTA
barrier that comes first in the PTX (`BSYNC REDUX BAR`, not `BSYNC BAR REDUX`). From sm_90 only part of such
a chain moves (probes/scheduling/join_alu_hoisted*; docs/findings/scheduling.md "Join arithmetic is hoisted
above a one-armed if below sm_90 (helper trow26, stop 26)").

Works on the function's selected (Ori instruction, SASS sequence) pairs, block by block, before the scheduler
(isel/select.py): a hoisted pair moves to just before the region's `bssy`, into the block and the run the
scheduler lists there.
"""
from __future__ import annotations

from pylower.lowering import ori
from pylower.passes.analysis.defuse import defs as ori_defs, uses as ori_uses
from pylower.sass.instr import VIRTUAL

from .schedule import ATOMIC, BARRIER, COLLECTIVE, CONTROL, FENCE, LOAD, STORE

# SASS that is no plain arithmetic to move across the region: memory, ordering points, collectives, control,
# special-register and constant-bank reads.
_NOT_PLAIN = CONTROL | FENCE | BARRIER | ATOMIC | STORE | LOAD | COLLECTIVE | frozenset(
    "S2R S2UR CS2R LDC ULDC".split())


def _plain(ins: ori.Instr, seq: list) -> bool:
    """Unguarded arithmetic that selected to plain ALU instructions (or to nothing: a folded move)."""
    if ins.opcode in ori.PSEUDO_OPCODES or ins.guard is not None or ins.opcode in ("bra", "ret", "exit", "call"):
        return False
    return all(s.label is None and (s.opcode == VIRTUAL or s.opcode not in _NOT_PLAIN
                                    and not s.opcode.startswith("PTX.")) for s in seq)


def _bar_reg(ins: ori.Instr) -> str | None:
    return str(ins.operands[0]) if ins.operands else None


def _one_armed(region: list, join_label: str | None) -> bool:
    """The region between a bssy and its bsync is one arm: no nested region, loop, exit or call, no instruction
    selected with branches of its own, and its only branches are conditional ones to the join (an if-else region
    holds the then-arm's `bra J`; probes/scheduling/join_setp_stays: nothing moves above an aggregated atomic)."""
    for ins, seq in region:
        if ins.opcode != "bra" and any(s.label is not None or s.opcode in CONTROL for s in seq):
            return False        # branches of its own (an aggregated atomic's uniform-lane test): no one arm
        op = ins.opcode
        if op in ("bssy", "ret", "exit", "call", "trap") or op in ori.PSEUDO_OPCODES and op not in ("bsync",):
            return False
        if op == "bra":
            target = ins.operands[0].name if ins.operands and hasattr(ins.operands[0], "name") else None
            if ins.guard is None or target != join_label:
                return False
    return True


def hoist_join_work(blocks: list, selections: list, is_predicate=lambda reg: False) -> None:
    """Move each one-armed region's join arithmetic above its bssy, in place: `selections[i]` holds the
    (Ori instruction, SASS sequence) pairs of `blocks[i]`; a hoisted pair joins the bssy's block. A compare
    writing a predicate stays (ptxas keeps the next region's guard test after the BSYNC: Triton
    atomic_rmw_kernel and_gpu_i64 on sm_75, `BSYNC BAR ISETP BMOV.32.CLEAR BSSY`)."""
    items = [(i, ins, seq) for i, sel in enumerate(selections) for ins, seq in sel]
    block_of = {id(ins): blocks[i].label for i, ins, _ in items}
    k = 0
    while k < len(items):
        bi, ins, _ = items[k]
        if ins.opcode != "bssy":
            k += 1
            continue
        reg = _bar_reg(ins)
        end = next((j for j in range(k + 1, len(items))
                    if items[j][1].opcode in ("bsync", "bssy") and _bar_reg(items[j][1]) == reg), None)
        if end is None or items[end][1].opcode != "bsync":
            k += 1
            continue
        region = [(x[1], x[2]) for x in items[k + 1:end]]
        if not _one_armed(region, block_of.get(id(items[end][1]))):
            k += 1
            continue
        written, read = set(), set()
        for r_ins, _ in region + [(items[end][1], items[end][2])]:
            written.update(ori_defs(r_ins))
            read.update(ori_uses(r_ins))
        hoisted = []
        j = end + 1
        while j < len(items):
            _, c_ins, c_seq = items[j]
            if c_ins.opcode in ori.PSEUDO_OPCODES or c_ins.opcode in ("bra", "ret", "exit", "call") \
                    or _labelled(blocks, items, j):
                break
            d, u = ori_defs(c_ins), ori_uses(c_ins)
            if _plain(c_ins, c_seq) and d and not any(is_predicate(r) for r in d) and not written.intersection(u) \
                    and not written.intersection(d) and not read.intersection(d):
                hoisted.append((bi, c_ins, c_seq))
                items.pop(j)
                continue
            written.update(d)
            read.update(u)
            j += 1
        if hoisted:
            items[k:k] = hoisted
            k += len(hoisted)
        k += 1
    for sel in selections:
        sel.clear()
    for i, ins, seq in items:
        selections[i].append((ins, seq))


def _labelled(blocks: list, items: list, j: int) -> bool:
    """Item j starts a block something other than the previous block's fall-through enters."""
    i = items[j][0]
    if items[j - 1][0] == i:
        return False
    return any(p != blocks[i - 1].label for p in blocks[i].preds) if i > 0 else True
