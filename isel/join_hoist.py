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
    items = _items(selections)
    block_of = {id(ins): blocks[i].label for i, ins, _ in items}
    fused = _param_address_work(items)
    k = 0
    while k < len(items):
        bi = items[k][0]
        end = _closing_bsync(items, k)
        if end is None or not _one_armed([(x[1], x[2]) for x in items[k + 1:end]], block_of.get(id(items[end][1]))):
            k += 1
            continue
        written, read = _effects(items[k + 1:end + 1])
        hoisted = []
        j = end + 1
        while j < len(items):
            _, c_ins, c_seq = items[j]
            if c_ins.opcode in ori.PSEUDO_OPCODES or c_ins.opcode in ("bra", "ret", "exit", "call") \
                    or _labelled(blocks, items, j):
                break
            d, u = ori_defs(c_ins), ori_uses(c_ins)
            if _plain(c_ins, c_seq) and d and id(c_ins) not in fused and not any(is_predicate(r) for r in d) \
                    and not written.intersection(u) \
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
    _write_back(items, selections)


def _param_address_work(items: list) -> set:
    """The id()s of the 64-bit adds of a kernel parameter's pointer (`ld.param`, or `cvta.to.global` of it) and of
    the `mul.wide` offsets only such an add reads: ptxas makes the pair one `IMAD.WIDE R, Ri, 4, c[0x0][..]`, a
    constant-bank read, which stays in its join (probes/scheduling/guard_test_nested_region_param_stays; docs/findings/
    scheduling.md "A region holding a region keeps the next if's test in its join (helper joinlo33, stop 33)")."""
    pointers: set = set()
    for _, ins, _ in items:
        if ins.opcode == "ld" and ".param" in ins.name and (".u64" in ins.mods or ".b64" in ins.mods) \
                or ins.opcode == "cvta" and set(ori_uses(ins)) & pointers:
            pointers.update(ori_defs(ins))
    readers: dict = {}
    for _, ins, _ in items:
        for r in ori_uses(ins):
            readers.setdefault(r, []).append(ins)
    out = set()
    for _, ins, _ in items:
        if ins.opcode == "add" and set(ori_uses(ins)) & pointers:
            out.add(id(ins))
    for _, ins, _ in items:
        if ins.opcode == "mul" and ".wide" in ins.mods:
            rs = [x for r in ori_defs(ins) for x in readers.get(r, [])]
            if rs and all(id(x) in out for x in rs):
                out.add(id(ins))
    return out


# special registers whose value changes while the thread runs: their reads never move
_VOLATILE_SREGS = ("%clock", "%clock64", "%globaltimer", "%globaltimer_lo", "%globaltimer_hi", "%lanemask",
                   "%pm", "%nsmid", "%smid", "%warpid", "%dynamic_smem", "%total_smem", "%aggr_smem")


def _movable(ins: ori.Instr, seq: list) -> bool:
    """Plain arithmetic, or a read of a special register fixed for the thread (`%tid`, `%ctaid`, `%ntid`: S2R)
    or of a kernel parameter (LDC)."""
    if _plain(ins, seq):
        return True
    if ins.guard is not None or ins.opcode in ori.PSEUDO_OPCODES or ins.opcode not in ("mov", "ld", "cvta"):
        return False
    if any(str(o).startswith(_VOLATILE_SREGS) for o in ins.operands[1:]):
        return False
    return all(s.label is None and s.opcode in ("S2R", "LDC", "ULDC", VIRTUAL) or s.opcode == VIRTUAL for s in seq) \
        and (ins.opcode != "ld" or ".param" in ins.name)


def hoist_guard_tests(blocks: list, selections: list, is_predicate=lambda reg: False) -> None:
    """Move the guard test of the if that follows a region's join above that region's bssy, in place (below sm_90,
    GUARD_TEST_HOISTED): `J: bsync B; [bar.sync;] ...; setp p, ...; bssy B2; @p bra K` where the compare and the
    plain arithmetic, special-register and parameter reads it depends on read nothing the region (or the join's
    earlier kept instructions) writes. ptxas computes such a test in the block that opens the region (above a
    loop too): the join keeps `BSYNC [BAR] BSSY @P BRA` (nvcc a27_hist_weighted). The next if must be one arm
    (its test crosses a CTA barrier of the join), or nothing but movable work may lie between the BSYNC and the
    test (an if-else's test stays behind a barrier: `BSYNC BAR ISETP BSSY`); see docs/findings/scheduling.md
    "The next if's guard test is computed above the region before it (helper hoist29, stop 29)". A region holding a
    region of its own (an inner if, or a loop ptxas pairs) keeps the test in its join (docs/findings/scheduling.md
    "A region holding a region keeps the next if's test in its join (helper joinlo33, stop 33)")."""
    items = _items(selections)
    block_of = {id(ins): blocks[i].label for i, ins, _ in items}
    k = 0
    while k < len(items):
        bi = items[k][0]
        end = _closing_bsync(items, k)
        if end is None or any(items[m][1].opcode == "bssy" for m in range(k + 1, end)):
            k += 1          # a region holding a region of its own keeps the next test in its join
            continue
        # the join's instructions up to the next region's bssy and its guarded branch
        j = end + 1
        while j < len(items) and items[j][1].opcode not in ori.PSEUDO_OPCODES \
                and items[j][1].opcode not in ("bra", "ret", "exit", "call") and not _labelled(blocks, items, j):
            j += 1
        if j + 1 >= len(items) or items[j][1].opcode != "bssy" or items[j + 1][1].opcode != "bra" \
                or items[j + 1][1].guard is None or items[j + 1][0] != items[j][0] \
                or any(x[0] != items[end][0] for x in items[end:j]):
            k += 1
            continue
        next_end = _closing_bsync(items, j)
        if next_end is None:
            k += 1
            continue
        # the next if has no else: its branch goes to its join (its body may hold loops of its own)
        bra_ops = items[j + 1][1].operands
        one_arm = bool(bra_ops) and getattr(bra_ops[0], "name", None) == block_of.get(id(items[next_end][1]))
        guard = set(ori_uses(items[j + 1][1]))
        join = list(range(end + 1, j))
        # the test's chain in the join: what defines the guard, and what defines what those read
        need = set(guard)
        chain = set()
        for m in reversed(join):
            d = set(ori_defs(items[m][1]))
            if d & need:
                chain.add(m)
                need |= set(ori_uses(items[m][1]))
        if not chain or not any(guard & set(ori_defs(items[m][1])) for m in chain):
            k += 1
            continue
        written, read = _effects(items[k + 1:end + 1])
        ok, moved = True, []
        for m in join:
            c_ins, c_seq = items[m][1], items[m][2]
            d, u = set(ori_defs(c_ins)), set(ori_uses(c_ins))
            free = not (written & u or written & d or read & d)
            if m in chain:
                if not _movable(c_ins, c_seq) or not free:
                    ok = False
                    break
                moved.append(m)
            elif free and d and _plain(c_ins, c_seq) and not any(is_predicate(r) for r in d):
                moved.append(m)     # the join's other independent arithmetic goes with it
            else:
                if not one_arm and not _movable(c_ins, c_seq):
                    ok = False      # an if-else's test does not cross the join's barrier
                    break
                written |= d
                read |= u
        if not ok:
            k += 1
            continue
        hoisted = [items[m] for m in moved]
        for m in sorted(moved, reverse=True):
            items.pop(m)
        items[k:k] = [(bi, h[1], h[2]) for h in hoisted]
        k += len(hoisted) + 1
    _write_back(items, selections)


def _items(selections: list) -> list:
    """The function's (block index, Ori instruction, SASS sequence) triples in layout order."""
    return [(i, ins, seq) for i, sel in enumerate(selections) for ins, seq in sel]


def _write_back(items: list, selections: list) -> None:
    """Refill each block's selection from the (possibly reordered) triples."""
    for sel in selections:
        sel.clear()
    for i, ins, seq in items:
        selections[i].append((ins, seq))


def _closing_bsync(items: list, k: int) -> int | None:
    """The index of the bsync that closes the bssy at items[k] (the next bssy/bsync on its barrier register), or
    None when items[k] is no bssy or its register is set again before it is released."""
    if items[k][1].opcode != "bssy":
        return None
    reg = _bar_reg(items[k][1])
    end = next((j for j in range(k + 1, len(items))
                if items[j][1].opcode in ("bsync", "bssy") and _bar_reg(items[j][1]) == reg), None)
    return end if end is not None and items[end][1].opcode == "bsync" else None


def _effects(span: list) -> tuple[set, set]:
    """The registers the instructions of a span of triples write and read."""
    written, read = set(), set()
    for _, ins, _ in span:
        written.update(ori_defs(ins))
        read.update(ori_uses(ins))
    return written, read


def _labelled(blocks: list, items: list, j: int) -> bool:
    """Item j starts a block something other than the previous block's fall-through enters."""
    i = items[j][0]
    if items[j - 1][0] == i:
        return False
    return any(p != blocks[i - 1].label for p in blocks[i].preds) if i > 0 else True
