"""Phase 21 LoopInversion (pylower's name and place, before loop unrolling; the ptxas pass doing it was not
identified): a loop whose header tests for the exit -- `H: ...; @p bra OUT; <body blocks>; bra H` -- is
turned into a bottom-tested loop. The header stays in front of the loop as its guard, and a copy of it
ends the loop: every back edge goes to the copy, which leaves the loop or branches back into the body. The
header's instructions are therefore issued twice, and so are the sync instructions in it: a
`mbarrier.test_wait` / `try_wait` spin with a back-off body (cuda::barrier::wait, cuda::pipeline), a
`ld.acquire` or `atom.cas` spin lock with nanosleep, a `bar.sync` in the header
(probes/phases/loop_inversion_*, docs/findings/phases.md).

Not inverted: at -O0; a loop whose header is its only block (already bottom-tested) or whose other blocks
only branch back (`L: test; @p bra OUT; bra L` is the single-block loop); a loop that is also left from
another block (nvcc's atomicMax CAS loop `L: if (v <= old) goto OUT; old = cas(..); if (changed) goto L`:
nvcc/atomic_cas_loops); below sm_90 (INVERT_WARP_OPS) a header holding a warp-synchronous op (vote.sync,
shfl.sync, ...: nvcc/warp_intrinsics_divergent poll_with_backoff, cub_single_pass_scan), which is also what
keeps such loops from unrolling there; a header with more than one successor inside or outside the loop.

The phase also sinks loop-invariant register work that only code after a loop reads out of the loop, into a
new block on its exit edge, as ptxas does (_sink_exit_work): that block is the loop's own join.
"""
from __future__ import annotations

from pylower.lowering import ori
from pylower.lowering import ptx_ast as A
from pylower.lowering import ops
from pylower.lowering.ops import branch_target, clone

from .analysis.regions import register_only, through_empty
from .manager import PassContext, Phase

NAME = "LoopInversion"
INVERT_FROM_OPT = 1


def _header_chain(fn: ori.Function, by_label: dict, header: str, body, latches) -> list[ori.BasicBlock]:
    """The header and the blocks it falls through into that only it enters (a label nothing branches to: the
    `$L__tmpN:` debug-line labels of Triton and LLVM -g split no block for ptxas, findings/scheduling.md): the
    exit test ends the last of them (Triton collatz_steps_kernel: `L: bar.sync; $L__tmp1: ... @p bra OUT`)."""
    chain = [by_label[header]]
    while True:
        b = chain[-1]
        k = fn.blocks.index(b)
        if len(b.succs) != 1 or k + 1 >= len(fn.blocks) or b.instrs and b.instrs[-1].opcode == "bra":
            return chain
        nxt = fn.blocks[k + 1]
        if nxt.label != b.succs[0] or nxt.label not in body or nxt.label in latches or nxt.label == header \
                or nxt.preds != [b.label]:
            return chain
        chain.append(nxt)


def _only_branches(b: ori.BasicBlock) -> bool:
    return all(i.opcode == "bra" and i.guard is None for i in b.instrs)


def _bra(dest: str, line: int, guard=None, mods=(".uni",)) -> ori.Instr:
    from pylower.lowering.generic import ori_class
    return ori.Instr(ori_class("bra", mods), "bra", mods, (A.Sym(dest),), guard, {}, line, NAME)


def _retarget(ins: ori.Instr, old: str, new: str) -> None:
    ins.operands = tuple(A.Sym(new) if type(o) is A.Sym and o.name == old else o for o in ins.operands)


class LoopInversion(Phase):
    number = 21
    name = NAME
    description = "-O1+: a loop testing for its exit in the header gets a copy of the header at its bottom"

    def run(self, fn: ori.Function, ctx: PassContext) -> bool:
        if ctx.opt_level < INVERT_FROM_OPT:
            return False
        changed = False
        done: set[str] = set()
        inverted = True
        while inverted:                  # after an inversion the loops are found again
            am = ctx.analyses(fn)
            latches: dict[str, list[str]] = {}       # header -> its latches, headers in back-edge order
            for lt, h in am.loops.back_edges:
                latches.setdefault(h, []).append(lt)
            inverted = False
            for header, lts in latches.items():
                if header in done:
                    continue
                done.add(header)
                if self._invert(fn, header, lts, am, ctx):
                    ori.link_preds(fn)
                    am.invalidate("none")
                    changed = inverted = True
                    break
        return _sink_exit_work(fn, ctx, self) or changed

    def _invert(self, fn: ori.Function, header: str, latches: list[str], am, ctx: PassContext) -> bool:
        by_label, loops = am.blocks, am.loops
        body = frozenset().union(*(loops.body(header, lt) for lt in latches))
        chain = _header_chain(fn, by_label, header, body, latches)
        h = chain[-1]                    # the block ending the header: its exit test
        heads = {b.label for b in chain}
        h_instrs = [i for b in chain for i in b.instrs]
        last = h.instrs[-1] if h.instrs else None
        if header in latches or last is None or last.opcode != "bra" or last.guard is None or len(h.succs) != 2:
            return False
        inside = [s for s in h.succs if s in body]
        outside = [s for s in h.succs if s not in body]
        if len(inside) != 1 or len(outside) != 1:
            return False
        if all(_only_branches(by_label[x]) for x in body if x not in heads):
            ctx.count(self, "not inverted: nothing but the header")
            return False
        if not ctx.target.has("INVERT_WARP_OPS") and any(
                ops.warp_op(i) is not None and not ops.is_cta_barrier(i) for i in h_instrs):
            ctx.count(self, "not inverted: a warp-synchronous op in the header")
            return False
        if any(s not in body for x in body if x not in heads for s in by_label[x].succs):
            ctx.count(self, "not inverted: the loop leaves from another block too")
            return False
        target = branch_target(last)
        fall = h.succs[-1] if h.succs[-1] != target else None
        copy_label = f"{header}$inv"
        instrs = [clone(i, NAME) for i in h_instrs]
        if fall is not None:
            instrs.append(_bra(fall, last.line))
        copy = ori.BasicBlock(copy_label, instrs, list(h.succs))
        # every back edge now goes to the copy
        place = None
        for lt in latches:
            b = by_label[lt]
            b.succs = [copy_label if s == header else s for s in b.succs]
            for i in b.instrs:
                if i.opcode == "bra":
                    _retarget(i, header, copy_label)
            ends_in_jump = b.instrs and b.instrs[-1].opcode == "bra" and b.instrs[-1].guard is None
            if not ends_in_jump and fn.blocks.index(b) + 1 < len(fn.blocks) and \
                    fn.blocks[fn.blocks.index(b) + 1].label == header:
                place = fn.blocks.index(b) + 1            # the latch fell through into the header
        if place is None:
            place = max(fn.blocks.index(by_label[x]) for x in body) + 1
        fn.blocks.insert(place, copy)
        ctx.count(self, "loops inverted")
        return True


# ---------------------------------------------------------------- loop-invariant work sunk to the loop's exit

def _sink_exit_work(fn: ori.Function, ctx: PassContext, phase) -> bool:
    """Loop-invariant register work that only code after the loop reads leaves the loop: ptxas sinks it into
    a new block on the exit edge (`L: ...; mov r9, r8; @p bra L; J:` -> `L: ...; @p bra L; E: mov r9, r8; J:`),
    so a loop that exits to the join of an enclosing region gets its own join and its own BSSY/BSYNC pair
    nested in that region's (nvcc/cg_scan_compaction cg_scan_divergent's binary search; probes
    phases/loop_exit_sink_*; docs/findings/convergence.md "Loop-invariant work sinks to the loop's exit (helper
    cg, stop 21)"). Only for loops left from their one latch alone, whose exit has other predecessors."""
    am = ctx.analyses(fn)
    by_label, du = am.blocks, am.defuse
    changed = False
    for latch, header in list(am.loops.back_edges):
        body = set(am.loops.body(header, latch))
        lb = by_label[latch]
        last = lb.instrs[-1] if lb.instrs else None
        if last is None or last.opcode != "bra" or last.guard is None or len(lb.succs) != 2:
            continue
        exits = [(x, s) for x in body for s in by_label[x].succs if s not in body]
        if len(exits) != 1 or exits[0][0] != latch:
            continue
        out = exits[0][1]
        k = fn.blocks.index(lb)
        if k + 1 >= len(fn.blocks) or fn.blocks[k + 1].label != out or branch_target(last) == out:
            continue                      # the exit is the latch's fall-through ...
        ob = by_label[out]
        empty = ob.preds == [latch] and all(i.opcode == "bra" and i.guard is None for i in ob.instrs)
        if len(by_label[through_empty(out, by_label)].preds) < 2 or not empty and len(ob.preds) < 2:
            continue                      # ... into a join other paths reach too (else nothing changes)
        written: dict[str, int] = {}
        read: set[str] = set()
        for x in body:
            for i in by_label[x].instrs:
                for r in du.defs(i):
                    written[r] = written.get(r, 0) + 1
                read.update(du.uses(i))
        sunk = [i for x in body if am.dom.dominates(x, latch) for i in by_label[x].instrs
                if i.guard is None and register_only(i) and i.opcode not in ori.PSEUDO_OPCODES
                and len(du.defs(i)) == 1 and written.get(du.defs(i)[0]) == 1 and du.defs(i)[0] not in read
                and not any(r in written for r in du.uses(i))]
        if not sunk:
            continue
        for x in body:
            b = by_label[x]
            b.instrs = [i for i in b.instrs if not any(i is s for s in sunk)]
        if empty:                         # an empty block on the exit edge holds them
            ob.instrs[:0] = sunk
        else:
            label = f"{latch}$exit"
            fn.blocks.insert(k + 1, ori.BasicBlock(label, sunk, [out]))
            lb.succs = [label if s == out else s for s in lb.succs]
        ori.link_preds(fn)
        am.invalidate("none")
        ctx.count(phase, "loops with invariant work sunk to their exit")
        changed = True
        am = ctx.analyses(fn)
        by_label, du = am.blocks, am.defuse
    return changed


PHASE = LoopInversion()
