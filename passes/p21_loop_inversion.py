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

from .analysis.regions import OWN_JOIN, exits, register_only, through_empty
from .manager import PassContext, Phase

NAME = "LoopInversion"
INVERT_FROM_OPT = 1


def _header_region(by_label: dict, header: str, body, loops) -> tuple[list[str], str] | None:
    """The blocks every trip runs before its exit test, and the block ending with that test: the blocks of the
    loop reached from the header without leaving the one block with a successor outside the loop. A chain of
    blocks only their predecessor enters (`$L__tmpN:` debug-line labels of Triton and LLVM -g, findings/
    scheduling.md: Triton collatz_steps_kernel `L: bar.sync; $L__tmp1: ... @p bra OUT`) or ifs ptxas predicates
    or keeps (CUB's sort loop, entered in its middle by nvcc's `bra.uni H; L: bar.sync; H: ...; @p bra L`:
    docs/findings/convergence.md "A loop entered in its middle") alike. None without one exiting block, with a
    branch back to the header before the test, or with a loop inside the region (ptxas then copies nothing:
    probes phases/loop_inversion_region_inner_loop)."""
    exiting = [x for x in body if any(s not in body for s in by_label[x].succs)]
    if len(exiting) != 1:
        return None
    x = exiting[0]
    region, work, seen = [header], [header], {header}
    while work:
        b = work.pop()
        if b == x:
            continue
        for s in by_label[b].succs:
            if s == header:
                return None                          # a trip that ends before the test
            if s not in seen:
                seen.add(s)
                region.append(s)
                work.append(s)
    headers = loops.headers
    if any(b in headers and b != header for b in region):
        return None
    return region, x


def _only_branches(b: ori.BasicBlock) -> bool:
    return all(i.opcode == "bra" and i.guard is None for i in b.instrs)


def _bra(dest: str, line: int, guard=None, mods=(".uni",)) -> ori.Instr:
    from pylower.lowering.generic import ori_class
    return ori.Instr(ori_class("bra", mods), "bra", mods, (A.Sym(dest),), guard, {}, line, NAME)


def _line(b: ori.BasicBlock) -> int:
    return b.instrs[-1].line if b.instrs else 0


def _retarget(ins: ori.Instr, old: str, new: str) -> None:
    ins.operands = tuple(A.Sym(new) if type(o) is A.Sym and o.name == old else o for o in ins.operands)


def _exit_over_back_edge(fn: ori.Function, ctx: PassContext, phase) -> bool:
    """A back edge that jumps over the loop's exit to the header laid out right behind it -- `LAT: ..; @p bra H;
    bra.uni RET; H: ..` (LLVM's rotated loops, the latch before the header) or `@p bra H; ret; H:` -- is a
    predicated exit for ptxas: `@!p EXIT` falling into the header, the loop closed by the body's uniform jump to
    the latch (`@P0 EXIT; BRA head`). The lanes that leave are gone, so the loop has no divergent back edge and
    its warp ops run converged on every target (`VOTE.ANY`, no WARPSYNC, slow path or pair), where the same loop
    laid out header first (`@!P0 BRA head; EXIT`) runs them diverged. docs/findings/warp.md "A back edge over a
    returning exit is a predicated EXIT (helper nvwarp31, stop 31)"."""
    am = ctx.analyses(fn)
    changed = False
    k = 0
    while k + 2 < len(fn.blocks):
        b, f, h = fn.blocks[k], fn.blocks[k + 1], fn.blocks[k + 2]
        last = b.instrs[-1] if b.instrs else None
        k += 1
        if last is None or last.opcode != "bra" or last.guard is None or branch_target(last) != h.label \
                or f.label not in b.succs or f.preds != [b.label] or not am.dom.dominates(h.label, b.label):
            continue
        by_label = {x.label: x for x in fn.blocks}
        if exits(f):
            out = f.label
            fn.blocks.append(fn.blocks.pop(k))
        elif _only_branches(f) and len(f.succs) == 1 and exits(by_label[through_empty(f.label, by_label)]):
            out = through_empty(f.label, by_label)
            del fn.blocks[k]
        else:
            continue
        _retarget(last, h.label, out)
        last.guard = ops.negated(last.guard)
        b.succs = [out, h.label]
        ori.link_preds(fn)
        am.invalidate("none")
        am = ctx.analyses(fn)
        ctx.count(phase, "back edges over a returning exit made predicated exits")
        changed = True
    return changed


class LoopInversion(Phase):
    number = 21
    name = NAME
    description = "-O1+: a loop testing for its exit in the header gets a copy of the header at its bottom"

    def run(self, fn: ori.Function, ctx: PassContext) -> bool:
        if ctx.opt_level < INVERT_FROM_OPT:
            return False
        changed = _exit_over_back_edge(fn, ctx, self)
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
        got = _header_region(by_label, header, body, loops)
        if got is None:
            if sum(any(s not in body for s in by_label[x].succs) for x in body) > 1:
                ctx.count(self, "not inverted: the loop leaves from another block too")
            return False
        region, x = got
        h = by_label[x]                  # the block ending the header region: its exit test
        heads = set(region)
        last = h.instrs[-1] if h.instrs else None
        if header in latches or last is None or last.opcode != "bra" or last.guard is None or len(h.succs) != 2:
            return False
        inside = [s for s in h.succs if s in body]
        outside = [s for s in h.succs if s not in body]
        if len(inside) != 1 or len(outside) != 1:
            return False
        if all(_only_branches(by_label[y]) for y in body if y not in heads):
            ctx.count(self, "not inverted: nothing but the header")
            return False
        h_instrs = [i for y in region for i in by_label[y].instrs]
        if any(i.opcode == "brx" for i in h_instrs):
            return False
        if not ctx.target.has("INVERT_WARP_OPS") and any(
                ops.warp_op(i) is not None and not ops.is_cta_barrier(i) for i in h_instrs):
            ctx.count(self, "not inverted: a warp-synchronous op in the header")
            return False
        # ptxas copies no header region of several blocks that holds an atomic (phases/loop_inversion_region_atomic*;
        # docs/findings/convergence.md "A loop entered in its middle: the header region is copied in front of it",
        # its paragraph "An atomic in a header region of several blocks keeps the loop as it is")
        if len(region) > 1 and any(i.opcode in ("atom", "red") for i in h_instrs):
            ctx.count(self, "not inverted: an atomic in the header")
            return False
        own = _header_values_leave(am, region, x, outside[0]) and am.uniformity.is_divergent_operand(last.guard) \
            and branch_target(last) == outside[0]
        copies = self._copy_region(fn, region, by_label)
        copy_label = copies[0].label
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
            place = max(fn.blocks.index(by_label[y]) for y in body) + 1
        fn.blocks[place:place] = copies
        if own:
            _own_pair_blocks(fn, h, inside[0], copies, outside[0])
            ctx.count(self, "inverted loops with their own pair")
        ctx.count(self, "loops inverted")
        return True

    @staticmethod
    def _copy_region(fn: ori.Function, region: list[str], by_label: dict) -> list[ori.BasicBlock]:
        """Copies of the header region's blocks, in block order with the header's first, branching among
        themselves. A block falling through into a block only it enters (a chain split by a label nothing
        branches to) is copied into one block with it; any other fall-through becomes a jump when its copy
        does not follow."""
        order = sorted(region, key=lambda y: (y != region[0], fn.blocks.index(by_label[y])))
        name = {y: f"{y}$inv" for y in order}
        pos = {b.label: k for k, b in enumerate(fn.blocks)}

        def fall(b: ori.BasicBlock) -> str | None:
            last = b.instrs[-1] if b.instrs else None
            if last is not None and last.opcode == "bra" and last.guard is None or not b.succs:
                return None
            nxt = fn.blocks[pos[b.label] + 1] if pos[b.label] + 1 < len(fn.blocks) else None
            return nxt.label if nxt is not None and nxt.label in b.succs else None

        copies: list[ori.BasicBlock] = []
        prev = prev_fall = None          # the last block copied, where it falls through to
        for y in order:
            b = by_label[y]
            instrs = [clone(i, NAME) for i in b.instrs]
            for i in instrs:
                if i.opcode == "bra":
                    t = branch_target(i)
                    if t in name:
                        _retarget(i, t, name[t])
            succs = [name.get(s, s) for s in b.succs]
            if copies and prev_fall is not None and prev_fall != y:
                copies[-1].instrs.append(_bra(name.get(prev_fall, prev_fall), _line(copies[-1])))
            if copies and prev_fall == y and b.preds == [prev] and len(by_label[prev].succs) == 1:
                copies[-1].instrs.extend(instrs)          # one block, as the chain it copies
                copies[-1].succs = succs
            else:
                copies.append(ori.BasicBlock(name[y], instrs, succs))
            prev, prev_fall = y, fall(b)
        if prev_fall is not None:
            copies[-1].instrs.append(_bra(name.get(prev_fall, prev_fall), _line(copies[-1])))
        return copies


def _header_values_leave(am, region: list[str], x: str, out: str) -> bool:
    """Is a register the header region writes read after the loop (live into its exit `out`)? The inverted
    loop then defines it in two places, the guard and the copy, that meet at the exit; ptxas gives the loop a
    pair of its own inside the guard's (`BSSY B0; @p BRA OUT; BSSY B1; L: ..; @!p BRA L; BSYNC B1; OUT: BSYNC
    B0`), where a loop whose header values die in it, or whose carried values alone leave it, has the guard's
    pair only (docs/findings/convergence.md "An inverted loop's own pair: header values read after it (helper
    llvm25, stop 25)"; probes phases/inverted_loop_own_pair_*)."""
    by_label, du, live = am.blocks, am.defuse, am.liveness
    idx = live.index
    live_in = live.live_in[out]
    written = {r for y in region for i in by_label[y].instrs for r in du.defs(i)}
    return any(r in idx and live_in[idx[r]] for r in written)


def _own_pair_blocks(fn: ori.Function, guard: ori.BasicBlock, body: str, copies: list, out: str) -> None:
    """The blocks of an inverted loop's own pair: an empty preheader on the guard's edge into the body (its
    BSSY goes after the guard's branch) and the loop's own join on the copy's exit edge, in front of `out`
    (regions.OWN_JOIN: one pair per join keeps it)."""
    pos = fn.blocks.index(guard)
    if pos + 1 < len(fn.blocks) and fn.blocks[pos + 1].label == body:
        pre = ori.BasicBlock(f"{body}$pre", [], [body])
        guard.succs = [pre.label if s == body else s for s in guard.succs]
        fn.blocks.insert(pos + 1, pre)
    exiting = next(c for c in copies if out in c.succs)
    join = ori.BasicBlock(f"{exiting.label}{OWN_JOIN}", [_bra(out, _line(exiting))], [out])
    exiting.succs = [join.label if s == out else s for s in exiting.succs]
    for i in exiting.instrs:
        if i.opcode == "bra" and i.guard is not None:
            _retarget(i, out, join.label)
    fn.blocks.insert(fn.blocks.index(copies[-1]) + 1, join)


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
    position = None                       # block label -> index in fn.blocks (made again after an insertion)
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
        if position is None:
            position = {b.label: i for i, b in enumerate(fn.blocks)}
        k = position[latch]
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
        in_order = [b.label for b in fn.blocks if b.label in body]      # sunk in program order, not set order
        sunk = [i for x in in_order if am.dom.dominates(x, latch) for i in by_label[x].instrs
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
            position = None
            lb.succs = [label if s == out else s for s in lb.succs]
        ori.link_preds(fn)
        am.invalidate("none")
        ctx.count(phase, "loops with invariant work sunk to their exit")
        changed = True
        am = ctx.analyses(fn)
        by_label, du = am.blocks, am.defuse
    return changed


PHASE = LoopInversion()
