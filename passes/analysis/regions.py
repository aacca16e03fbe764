"""Divergent regions: where the warp may split and re-join. A region runs from a branch on a thread-dependent
predicate to its immediate post-dominator (the places BSSY/BSYNC pairs can go); loops with a divergent
exit; loops that spin on memory other threads change; and the sync instructions an extern call may reach
with the warp diverged.

Rules: docs/findings/phases.md; per-phase pages: docs/phases/.
"""
from __future__ import annotations

from pylower.records import field, record

from pylower.lowering import ori
from pylower.lowering.math_subroutines import is_subroutine_site
from pylower.lowering.ops import (ATOMIC, BARRIER, MBARRIER, SYNC, branch_target, call_target, is_aligned_cta_barrier,
                                  is_bar_warp_sync, is_cta_barrier, is_full_mask, is_sync, negated, warp_op)

from .cfg import EXIT, straight_on


@record
class Region:
    """A divergent region: from a divergent conditional branch to its immediate post-dominator.
    BSSY goes before the branch (if/else) or at the end of the loop preheader (loop); BSYNC at the start
    of the join block."""
    kind: str                    # "if" or "loop"
    bssy_block: str              # where the BSSY goes
    join: str
    body: set[str] = field(default_factory=set)
    barrier_join: bool = False   # the join starts with an aligned CTA barrier: it re-converges the warp
    head: str = ""               # the block ending in the divergent branch (if) / the preheader (loop)

    def __post_init__(self):
        self.head = self.head or self.bssy_block


# register-only work ptxas moves freely: it does not hold the warp apart before a barrier at a join (an add or a
# setp there still leaves the region without a pair; a store does not: phases/spin_if_cas_alu_bar_join)
_REGISTER_ONLY = frozenset(ori.ORI_CLASSES[c] for c in ("alu", "fpu", "move", "convert"))


def register_only(ins: ori.Instr) -> bool:
    return ins.opcode in ori.PSEUDO_OPCODES or ins.op in _REGISTER_ONLY


def before_join_barrier(i: ori.Instr) -> bool:
    """An instruction that does not keep a CTA barrier from starting its block: a pseudo-op, register-only
    work, or a kernel parameter read, which ptxas makes a constant-bank operand (nvcc/cub_block_scan_algorithms
    block_scan_memoize_inclusive_max: `J: ld.param; bar.sync` is a barrier join)."""
    return register_only(i) or i.opcode == "ld" and i.has(".param")


def _starts_with_cta_barrier(b: ori.BasicBlock, aligned: bool = True) -> bool:
    first = next((i for i in b.instrs if not before_join_barrier(i)), None)
    return first is not None and (is_aligned_cta_barrier(first) or is_aligned_cluster_arrive(first) if aligned
                                  else is_cta_barrier(first))


def join_barrier(join: str, by_label) -> ori.Instr | None:
    """The CTA barrier a barrier join (_barrier_join) starts with: past empty blocks and blocks of register-only
    work that lead only to it; None if the join is no barrier join."""
    seen: set[str] = set()
    b = by_label.get(through_empty(join, by_label))
    while b is not None and b.label not in seen:
        seen.add(b.label)
        first = next((i for i in b.instrs if not before_join_barrier(i)), None)
        if first is not None and is_cta_barrier(first):
            return first
        if len(b.succs) != 1 or not all(before_join_barrier(i) or i.opcode == "bra" and i.guard is None
                                        for i in b.instrs):
            return None
        b = by_label.get(through_empty(b.succs[0], by_label))
    return None


def is_aligned_cluster_arrive(ins: ori.Instr) -> bool:
    """barrier.cluster.arrive[.release|.relaxed].aligned: a join starting with it re-converges the warp as at an
    aligned CTA barrier (a spin region gets no pair, `WARPSYNC.ALL [MEMBAR ERRBAR CGAERRBAR] UCGABAR_ARV`;
    docs/findings/barrier.md "A join at an aligned cluster barrier (helper llvmnb, stop 23)")."""
    return ins.op == BARRIER and ins.attrs.cluster == "arrive" and ".aligned" in ins.mods


def joins_at_any_cta_barrier(join: str, by_label) -> bool:
    """_barrier_join for every CTA barrier, `barrier.sync` without .aligned too: from sm_90 ptxas issues a
    WARPSYNC.ALL before any of them, which re-converges the warp (docs/findings/convergence.md "A join at a
    non-aligned barrier.sync re-converges on sm_90+ (helper cg, stop 22)")."""
    return _barrier_join(join, by_label, aligned=False)


def _barrier_join(join: str, by_label, aligned: bool = True) -> bool:
    """Does the join start with an aligned CTA barrier, past empty fall-through blocks (a label after the
    branch: `@p bra L; J: bar.sync`, phases/spin_loop_*_bar_join_label) and past blocks of register-only work
    that lead only to it (a CAS loop's exit block `shr; cvt` falling into its enclosing if's join `add; bar.sync`:
    Triton atomic_fadd_kernel, probes phases/spin_if_cas_exit_work_bar_join; docs/findings/convergence.md "A spin
    loop's exit block of register work before a barrier join (helper tatom, stop 20)")?"""
    seen: set[str] = set()
    b = by_label[through_empty(join, by_label)]
    while not _starts_with_cta_barrier(b, aligned):
        if b.label in seen or len(b.succs) != 1 or b.succs[0] not in by_label \
                or not all(before_join_barrier(i) or i.opcode == "bra" and i.guard is None for i in b.instrs):
            return False
        seen.add(b.label)
        b = by_label[through_empty(b.succs[0], by_label)]
    return True


def one_way_fence(i: ori.Instr) -> bool:
    """A thread fence of one direction: fence.acquire.* or fence.release.* (not membar, fence.sc/acq_rel)."""
    return i.opcode == "fence" and getattr(i.attrs, "form", "") == "thread" \
        and getattr(i.attrs, "sem", "") in ("acquire", "release")


def fence_barrier_join(am, region: Region) -> bool:
    """A region's join that reaches its first aligned CTA barrier past register-only work and one-way fences
    only (not a barrier join: _barrier_join stops at the fence), inside an arm of a uniform if whose join is
    no exit block. ptxas lets a spin region's lanes arrive there diverged with no pair, the WARPSYNC at the
    join's head before the fence (`BRA.U; @P0 BRA; loop; WARPSYNC.ALL CCTL.IVALL BAR`); at the top level, or
    with a two-way fence, the region keeps its pair (docs/findings/atomic.md "A spin region's
    fenced barrier join inside a uniform if (helper tatom, stop 21)"; probes phases/spin_if_ld_*_fence_bar_join_*uniform*)."""
    by_label = am.blocks
    if region.barrier_join or region.join not in by_label:
        return False
    join = through_empty(region.join, by_label)
    fenced = False
    for i in by_label[join].instrs:
        if is_aligned_cta_barrier(i):
            break
        if one_way_fence(i):
            fenced = True
        elif not before_join_barrier(i):
            return False
    else:
        return False
    return fenced and join in _uniform_if_arms(am)


def _uniform_if_arms(am) -> set[str]:
    """The blocks of the arms of forward branches on warp-uniform predicates whose join is a block that does
    more than leave the kernel."""
    by_label, uni, ipdom = am.blocks, am.uniformity, am.ipdom
    out: set[str] = set()
    for b in am.fn.blocks:
        last = b.instrs[-1] if b.instrs else None
        if last is None or last.opcode != "bra" or last.guard is None or uni.is_divergent_operand(last.guard):
            continue
        join = ipdom.get(b.label)
        if join is None or join == EXIT or join not in by_label or exits(by_label[through_empty(join, by_label)]):
            continue
        target = branch_target(last)
        if target in by_label and am.dom.dominates(target, b.label):
            continue                      # a loop's back edge
        for s in b.succs:
            if s != join:
                out |= arm(s, join, by_label)
    return out


def exits(b: ori.BasicBlock) -> bool:
    """A join block that only leaves the kernel: the threads that skipped the region are gone, so the
    region runs with every thread still alive, like converged code (div_if_shfl_sync_exit_join,
    examples/block_reduce.ptx). A bar.warp.sync phase 71 deleted there (`membermask.elided`) still counts:
    ptxas pairs `if (lane == 0) { loop }; bar.warp.sync -1; ret` (phases/warp_join_loop_bws)."""
    return all(i.opcode in ("ret", "exit") or i.op == SYNC and i.opcode in ori.PSEUDO_OPCODES
               and not (i.opcode == "membermask" and ".elided" in i.mods) for i in b.instrs) \
        and not b.succs


def divergent_branch(b: ori.BasicBlock, uni) -> bool:
    last = b.instrs[-1] if b.instrs else None
    return last is not None and last.opcode == "bra" and last.guard is not None \
        and uni.is_divergent_operand(last.guard)


def arm(start: str, join: str, by_label) -> set[str]:
    """The blocks reachable from `start` before `join`."""
    body, work = set(), [start]
    while work:
        x = work.pop()
        if x in body or x == join or x not in by_label:
            continue
        body.add(x)
        work.extend(by_label[x].succs)
    return body


# the label suffix of an inverted loop's own join (phase 21 `_own_pair_blocks`): an empty block on the loop's exit
# edge whose region keeps its pair inside the guard's, whose join is the next block
OWN_JOIN = "$ownjoin"


# the label suffix of the empty block phase 22 puts before a per-thread count-down loop it unrolled (`_unknown_ne`):
# the join of the unrolled copies, where the lanes left enter the rolled loop; the unrolled copies' pair is
# `.reliable` and the lanes that finish in them leave it by a BREAK (phase 72 `_unrolled_nests`)
UNROLLED_REJOIN = "$nerolled"


def through_empty(label: str, by_label) -> str:
    """The first block from `label` on that holds an instruction other than an unguarded branch, following
    empty fall-through blocks (ptxas merges them away)."""
    seen = set()
    while label not in seen and label in by_label:
        b = by_label[label]
        if len(b.succs) != 1 or any(i.opcode != "bra" or i.guard is not None for i in b.instrs):
            break
        seen.add(label)
        label = b.succs[0]
    return label


def divergent_regions(am) -> list[Region]:
    """Every region opened by a branch on a divergent predicate whose join is a real reconvergence
    point, outermost first (`am`: the function's analysis manager); one pair per join (below)."""
    return _one_pair_per_join(am.all_regions, am.blocks)


def all_divergent_regions(am) -> list[Region]:
    """The regions of every divergent branch, before the one-pair-per-join rule drops inner ones."""
    fn, uni, ipdom, idom, by_label = am.fn, am.uniformity, am.ipdom, am.idom, am.blocks
    dominates = am.dom.dominates
    order = {b.label: i for i, b in enumerate(fn.blocks)}
    regions: list[Region] = []
    returning = _returning_loop_joins(am)
    for b in fn.blocks:
        if b.label in returning:
            _, preheader, join, body = returning[b.label]
            regions.append(Region("loop", preheader, join, set(body), _barrier_join(join, by_label)))
            continue
        if not divergent_branch(b, uni):
            if _own_join_latch(b, uni):
                target = branch_target(b.instrs[-1])
                body = set(am.loops.body(target, b.label))
                outside = [p for p in by_label[target].preds if p not in body]
                if len(outside) == 1:
                    join = branch_target(b.instrs[-2])
                    regions.append(Region("loop", outside[0], join, body, _barrier_join(join, by_label)))
            continue
        join = ipdom.get(b.label)
        target = branch_target(b.instrs[-1])
        latch = target in by_label and dominates(target, b.label)
        skip = _skip_to_returning_join(am, b, returning.values(), join)
        if skip is not None:
            regions.append(Region("if", b.label, skip[0], skip[1], _barrier_join(skip[0], by_label)))
            continue
        if join is None or join == EXIT or join not in by_label or exits(by_label[through_empty(join, by_label)]) \
                and latch:
            if latch and am.target_has("EXIT_LOOP_TEST_RECONVERGES"):
                # a loop that leaves the kernel (exiting_divergent_loops); sm_75: its convergence test keeps the
                # warp together, and a per-lane break to code of its own joins there
                body = set(am.loops.body(target, b.label))
                outside = [p for p in by_label[target].preds if p not in body]
                brk = _tested_break_join(am, b.label, body) if len(outside) == 1 else None
                if brk is not None:
                    regions.append(Region("loop", outside[0], brk, body, _barrier_join(brk, by_label)))
            continue
        if exits(by_label[join]):
            continue
        if latch:
            body = set(am.loops.body(target, b.label))
            outside = [p for p in by_label[target].preds if p not in body]
            if len(outside) != 1:
                continue
            regions.append(Region("loop", outside[0], join, body, _barrier_join(join, by_label)))
        else:
            body = set().union(*(arm(s, join, by_label) for s in b.succs if s != join))
            loop = _exited_loop(am, b.label, join) if b.label in body and am.target_has("HEADER_EXIT_LOOP_PAIR") \
                else None
            if loop is not None:
                regions.append(Region("loop", loop[0], join, loop[1], _barrier_join(join, by_label)))
                continue
            # the BSSY must dominate its BSYNC: a region whose join other paths reach too (an arm of an
            # enclosing uniform if that ends at the same join) opens where they part, at the join's immediate
            # dominator (nvcc/cub_block_load_store: the partial-tile arm's last load if joins after both arms)
            place = b.label if dominates(b.label, join) else idom.get(join, b.label)
            regions.append(Region("if", place, join, body, _barrier_join(join, by_label), b.label))
    regions.sort(key=lambda r: (-len(r.body), order[r.bssy_block]))
    return regions


def _ends_kernel(join, by_label) -> bool:
    """Is `join` (an immediate post-dominator) the kernel's end: none, EXIT, or a block that only exits?"""
    return join is None or join == EXIT or join in by_label and exits(by_label[through_empty(join, by_label)])


def _returning_loop_joins(am) -> dict[str, tuple[str, str, str, frozenset]]:
    """Latch label -> (header, preheader, join, body) of the divergent loops whose paths meet only where the kernel ends and
    that a break leaves (`for (i = b; i < e; ++i) if (a[i] == key) { out = i; return; } out = -1;`): ptxas still
    pairs such a loop, BSSY at the end of the preheader, BSYNC where the latch's exit runs code of its own (the
    not-found store), or, when that exit only returns, at the one break target that does (the found store); the
    lanes leaving by the other exit end the kernel inside the region. No pair when no exit has code of its own, and
    none for a loop that may spin or holds a warp op (those are exiting_divergent_loops' rules). Every target
    (sm_75 with its BMOV.32.CLEAR). docs/findings/convergence.md "A search loop whose break returns (helper nvreg36,
    stop 36)"."""
    uni, ipdom, by_label = am.uniformity, am.ipdom, am.blocks
    out = {}
    for b in am.fn.blocks:
        if not divergent_branch(b, uni) or not am.loops.ends_in_back_edge(b):
            continue
        if not _ends_kernel(ipdom.get(b.label), by_label):
            continue
        header = branch_target(b.instrs[-1])
        if header not in by_label or may_spin(am, b.label):
            continue
        body = am.loops.body(header, b.label)
        outside = [p for p in by_label[header].preds if p not in body]
        if len(outside) != 1 or any(is_sync(i) for x in body for i in by_label[x].instrs):
            continue
        latch_exit = next((s for s in b.succs if s not in body), None)
        breaks = {s for x in body if x != b.label for s in by_label[x].succs if s not in body}
        if latch_exit is None or not breaks - {latch_exit}:
            continue                        # no break: an exiting loop as before
        if not exits(by_label[through_empty(latch_exit, by_label)]):
            out[b.label] = (header, outside[0], latch_exit, body)
            continue
        own = {s for s in breaks if not exits(by_label[through_empty(s, by_label)])}
        if len(own) == 1:
            out[b.label] = (header, outside[0], own.pop(), body)
    return out


def _skip_to_returning_join(am, b: ori.BasicBlock, loops, join) -> tuple[str, set[str]] | None:
    """(join, body) of a divergent branch before a returning loop (`_returning_loop_joins`) that skips it to the
    loop's join (`if (b >= e) goto NF`), its own paths meeting only at the kernel's end: one pair from this branch
    to the loop's join (the loop's own pair is inside it, _one_pair_per_join drops it)."""
    by_label = am.blocks
    if not loops or not divergent_branch(b, am.uniformity):
        return None
    if not _ends_kernel(join, by_label):
        return None
    for header, _, j, body in loops:
        if b.label in body or through_empty(j, by_label) not in {through_empty(s, by_label) for s in b.succs}:
            continue
        # the blocks from the branch that reach the join without passing it
        reach, work = set(), [j]
        while work:
            x = work.pop()
            for p in by_label[x].preds if x in by_label else ():
                if p not in reach and p != j:
                    reach.add(p)
                    work.append(p)
        region = arm(b.label, j, by_label) & reach
        if header in region:
            return j, region - {b.label}
    return None


def _per_lane_break_targets(am, body, latches) -> set[str]:
    """The targets outside `body` of its per-lane branches other than its latches that run code of their own
    (not a block that only returns)."""
    uni, by_label = am.uniformity, am.blocks
    return {s for x in body if x not in latches and divergent_branch(by_label[x], uni)
            for s in by_label[x].succs if s not in body and not exits(by_label[through_empty(s, by_label)])}


def _tested_break_join(am, latch: str, body) -> str | None:
    """sm_75 (EXIT_LOOP_TEST_RECONVERGES): the join of a loop whose latch leaves the kernel, whose back edge gets
    the convergence test (may_spin) and that one per-lane break leaves for code of its own: ptxas pairs it, BSSY
    at the end of the preheader, BSYNC at the break's target (`for (..) { s = __shfl_xor_sync(..); if (s) break; }
    st`; docs/findings/warp.md "The sm_75 loop test re-converges an exiting loop (helper nvwarp30b, stop 30)")."""
    if not may_spin(am, latch):
        return None
    targets = _per_lane_break_targets(am, body, {latch})
    return targets.pop() if len(targets) == 1 else None


def _exited_loop(am, label: str, join: str) -> tuple[str, set[str]] | None:
    """(preheader, body) of the loop a divergent branch in block `label` leaves when its arm runs round the loop
    back to it: a header-tested loop (`L: ...; @p bra OUT; ...; bra.uni L`) that is left by a per-lane test. Below
    sm_90 (HEADER_EXIT_LOOP_PAIR) ptxas pairs it as a divergent loop, the BSSY at the end of the preheader and the
    BSYNC at the exit, not at the exit branch inside the loop (probes phases/loop_head_exit_*; Triton
    collatz_steps_kernel; docs/findings/convergence.md "A header-tested loop left by a per-lane test is paired as
    a loop (helper tred26, stop 26)"). None when the loop has more than one entry from outside."""
    best = None
    for latch, header in am.loops.back_edges:
        body = set(am.loops.body(header, latch))
        if label not in body or join in body:
            continue
        if best is None or len(body) > len(best[1]):
            best = (header, body)
    if best is None:
        return None
    header, body = best
    by_label = am.blocks
    at = header                     # the exit is in the header, or in a block that only continues it (a debug label)
    while at != label:
        nxt = by_label[at].succs[0] if len(by_label[at].succs) == 1 else None
        if nxt is None or not straight_on(by_label[at], by_label[nxt]):
            return None             # an exit further down the loop keeps its if pair (probes warp/join_warpsync_all_
        at = nxt                    # lane0_atom_divloop: the exit after a lane-0 if's join)
    outside = [p for p in by_label[header].preds if p not in body]
    return (outside[0], body) if len(outside) == 1 else None


def exits_before_barrier(am, region: Region, stop=is_aligned_cta_barrier) -> bool:
    """Is a divergent loop (`region`, kind "loop") also left, towards its join, by an exit the trip reaches before
    any aligned CTA barrier (`L: @(param == 5) bra out; st; bar.sync; i++; @(i + tid < n) bra L; out:`)? ptxas
    then pairs the loop from its preheader to the join although the body holds a barrier, on every target; with
    only the latch leaving, an exit after a barrier of the trip, or exits to different blocks that both leave the
    kernel, it does not (probes barrier/loop_two_exit_*; docs/findings/convergence.md "A divergent loop with a
    second exit before its barrier keeps its pair (helper w3pair, stop 27)"). `stop`: the instructions that
    re-converge the warp like the barrier (p72 passes a lone full-mask warp op's, its inline WARPSYNC.ALL)."""
    by_label = am.blocks
    pre = by_label.get(region.bssy_block)
    header = next((s for s in pre.succs if s in region.body), None) if pre is not None else None
    if header is None:
        return False
    latches = {x for x in region.body if header in by_label[x].succs}
    seen, work = set(), [header]
    while work:
        x = work.pop()
        if x in seen or x not in region.body:
            continue
        seen.add(x)
        if any(stop(i) for i in by_label[x].instrs):
            continue                    # the trip passes a barrier before anything after it
        if x not in latches and any(s not in region.body and region.join in arm(s, "", by_label) | {s}
                                    for s in by_label[x].succs):
            return True
        work.extend(by_label[x].succs)
    return False


def _own_join_latch(b: ori.BasicBlock, uni) -> bool:
    """Phase 21's inverted latch `@p bra J; bra.uni BODY` whose exit J is the loop's own join (OWN_JOIN), p
    divergent: the loop region of an inverted loop that keeps its own pair."""
    if len(b.instrs) < 2:
        return False
    last, prev = b.instrs[-1], b.instrs[-2]
    return last.opcode == "bra" and last.guard is None and prev.opcode == "bra" and prev.guard is not None \
        and branch_target(prev).endswith(OWN_JOIN) and uni.is_divergent_operand(prev.guard)


def _one_pair_per_join(regions: list[Region], by_label) -> list[Region]:
    # one pair per join: a loop exit in the loop header (a CAS loop's `if (done) break`) or an inner region
    # joining where its enclosing region joins, or in an empty block falling into that join, re-converges at
    # that region's BSYNC (nvcc/atomic_cas_loops, nvcc/decoupled_lookback_scan: one BSSY per loop;
    # nvcc/cg_block_split_barrier: `if (t < n) do { cp.async } while (..)`) ...
    ends = {r.join: r.join if r.join.endswith(OWN_JOIN) else through_empty(r.join, by_label) for r in regions}
    by_end: dict[str, list[int]] = {}
    for i, r in enumerate(regions):
        by_end.setdefault(ends[r.join], []).append(i)
    keep = []
    for i, r in enumerate(regions):
        # ... but the fast-path site of a math subroutine keeps its own pair (probes phases/subroutine_*)
        # ... and so does an exit of a loop whose region joins there, when the exit's own BSSY would go above
        # the loop (the join is also reached around the loop: `if (n > 0) { for (..) if (hit) goto J; } J:`,
        # one pair at the loop: docs/findings/convergence.md "A loop's exits to its join share the loop's pair
        # (helper nvatom, stop 23)")
        inside = not is_subroutine_site(by_label[r.head]) and any(
            r.bssy_block in regions[j].body or r.bssy_block == regions[j].bssy_block and j < i
            or r.kind == "if" and regions[j].kind == "loop" and r.head in regions[j].body
            for j in by_end[ends[r.join]] if j != i)
        if not inside:
            keep.append(r)
    return keep


def divergent_blocks(regions: list[Region]) -> set[str]:
    """Blocks where the warp may be diverged: the bodies of the divergent regions."""
    out: set[str] = set()
    for r in regions:
        out |= r.body
    return out


def entered_from(regions: list[Region], home: str, here: str) -> bool:
    """Is block `home` inside a divergent region and block `here` inside a region that does not hold `home`
    (a region entered after `home`, nested in its own)? ptxas takes an active mask read at `home` as per lane
    at `here` (docs/findings/atomic.md "The value ptxas aggregates as uniform (helper cg, stop 22)")."""
    return home != here and any(home in r.body for r in regions) and \
        any(here in r.body and home not in r.body for r in regions)


def active_set_regions(am) -> list[Region]:
    """The regions `entered_from` asks about: every divergent region, and for each divergent branch whose two
    sides both end the kernel with code on each side (exit_arm_branches: no join, so no region of its own) a
    region holding both arms. ptxas takes an active mask read in such an arm as per lane to an atomic in a
    divergent if nested in it, as inside any region (the warp-aggregated partition `if (v < pivot) lo[agg_inc()]
    else hi[agg_inc()]`); a one-armed if whose join only returns is a predicated EXIT to it, converged code
    (probes atomic/agg_value_activemask_*_exit_*; docs/findings/atomic.md "An if/else whose arms both return
    splits the active set (helper nv27atom, stop 27)")."""
    out = list(am.regions)
    for head, arms in exit_arm_branches(am):
        body = set().union(*map(set, arms))
        out.append(Region("if", head, EXIT, body, False, head))
    return out


def innermost_map(regions: list[Region]) -> dict[str, Region]:
    """Block label -> the innermost region whose body holds it (the smallest; among equal ones the first in
    `regions`' order). Built once per region list: a lookup per block instead of a scan of every region."""
    out: dict[str, Region] = {}
    for r in regions:
        n = len(r.body)
        for label in r.body:
            cur = out.get(label)
            if cur is None or n < len(cur.body):
                out[label] = r
    return out


def loop_test(b: ori.BasicBlock) -> ori.Instr | None:
    """The guarded branch that decides whether the loop closed by b goes round again: b's last instruction,
    or, for phase 21's inverted copy `@p bra exit; bra.uni body` (ptxas folds it into `@!p BRA body`), the exit
    branch before the unconditional back edge (phases/if_around_loop_ld_volatile_bar_join on sm_75)."""
    last = b.instrs[-1] if b.instrs else None
    if last is None or last.opcode != "bra":
        return None
    if last.guard is not None:
        return last
    prev = b.instrs[-2] if len(b.instrs) > 1 else None
    return prev if prev is not None and prev.opcode == "bra" and prev.guard is not None else None


def divergent_latches(am, uniform: bool = True) -> list[str]:
    """Blocks ending in a divergent conditional back edge (to a block dominating them), or in phase 21's
    `@p bra exit; bra.uni header` with a divergent p: the loops some threads of a warp may leave before the
    others, whatever their exit leads to. uniform=False: every conditional back edge (-O0, where ptxas runs no
    uniformity analysis)."""
    out = []
    uni = am.uniformity if uniform else None
    inside = divergent_blocks(am.regions) if uni is not None else set()
    for b in am.fn.blocks:
        test = loop_test(b)
        if test is None:
            # an unconditional back edge in divergent code tests the warp too (sm_75: a spin lock's loop
            # around `__all_sync`, which phase 21 does not invert there, goes back from its critical section
            # and from its back-off: docs/findings/convergence.md "Every back edge of a divergent spin loop
            # tests the warp on sm_75 (helper nvatom, stop 23)")
            if b.label in inside and _jumps_back(am, b):
                out.append(b.label)
            continue
        # a loop whose exit test is the same in every lane that runs it, but runs in divergent code, counts
        # too (a single lane polling a flag: phases/ifconvert_spin_volsh_st on sm_75)
        if uni is not None and not (uni.is_divergent_operand(test.guard) or b.label in inside
                                    or _tests_broadcast(am, b, test)):
            continue
        if am.loops.ends_in_back_edge(b):
            out.append(b.label)
    return out


def _jumps_back(am, b: ori.BasicBlock) -> bool:
    """Does b end in an unconditional branch, or fall through, to a block dominating it?"""
    last = b.instrs[-1] if b.instrs else None
    if last is not None and last.opcode == "bra":
        return last.guard is None and am.loops.ends_in_back_edge(b)
    if last is not None and last.opcode in ("ret", "exit", "trap", "brx") or len(b.succs) != 1:
        return False
    return am.dom.dominates(b.succs[0], b.label)


def _tests_broadcast(am, latch: ori.BasicBlock, test: ori.Instr) -> bool:
    """sm_75's loop test takes a shuffle's result as per lane: a loop exiting on a value broadcast from a constant
    lane (warp-uniform for everything else, uniformity._broadcast) still gets its VOTE.ANY test (Triton
    spin_lock_accumulate_kernel; probe phases/shfl_idx_const_lane_loop on sm_75; docs/findings/convergence.md
    "A shuffle from a constant lane is warp-uniform (helper tatom, stop 20)")."""
    by_label = am.blocks
    body = am.loops.latch_body(latch.label)
    need = {r for r in am.defuse.uses(test)}
    writers = [i for x in body for i in by_label[x].instrs]
    seen: set[int] = set()
    while need:
        hit = [i for i in writers if id(i) not in seen and set(am.defuse.defs(i)) & need]
        if not hit:
            return False
        need = set()
        for i in hit:
            seen.add(id(i))
            if i.opcode == "shfl":
                return True
            need |= set(am.defuse.uses(i))
    return False


def exiting_divergent_loops(am, meet_at_end: bool = False) -> list[frozenset]:
    """The bodies of the loops with a divergent back edge that are no divergent region because their exit
    only leaves the kernel: ptxas runs their warp ops as diverged (WARPSYNC, slow paths) but opens no
    BSSY/BSYNC for the loop itself (probes/warp/divloop_*_exit; an *if* that exits is converged).
    `meet_at_end` (for warp ops): also a loop whose exits run code of their own (a break to a ballot, a store)
    before paths that meet only where the kernel ends (the latch's post-dominator returns): no join, no pair,
    its warp ops diverged all the same (probes warp/exitloop_break_*; docs/findings/warp.md "A divergent loop
    whose paths meet only at the kernel's end (helper nvwarp30, stop 30)"). Not for CTA barriers: there the
    narrower set stays (probes barrier/loop_two_exit_apart_bar keeps one WARPSYNC.ALL)."""
    uni, by_label = am.uniformity, am.blocks
    covered = {r.bssy_block for r in am.regions if r.kind == "loop"}
    out = []
    for b in am.fn.blocks:
        if not divergent_branch(b, uni) or not am.loops.ends_in_back_edge(b):
            continue
        header = branch_target(b.instrs[-1])
        body = am.loops.body(header, b.label)
        outside = [p for p in by_label[header].preds if p not in body]
        exits_to = [s for x in body for s in by_label[x].succs if s not in body]
        if len(outside) == 1 and outside[0] in covered or not exits_to:
            continue
        if all(exits(by_label[through_empty(s, by_label)]) for s in exits_to):
            out.append(body)
        elif meet_at_end:
            join = am.ipdom.get(b.label)
            if join is None or join == EXIT or join in by_label and exits(by_label[through_empty(join, by_label)]):
                out.append(body)
    return out


def tested_exiting_loops(am, bodies: list[frozenset]) -> list[frozenset]:
    """sm_75 (EXIT_LOOP_TEST_RECONVERGES): of the exiting divergent loops `bodies` (meet_at_end), those whose
    back edge gets the loop convergence test (may_spin: a warp op in the loop) and that no per-lane break leaves
    for code of its own: lanes that leave exit, the rest take the back edge together (`VOTE.ANY; VOTEU.ANY;
    BRA.U`), so ptxas runs their warp ops converged (a never-taken `@!PT BRA` to a helper without WARPSYNC).
    A per-lane break to a store or a ballot makes ptxas pair the loop (`BSSY` before it, `BSYNC` at the break's
    target) and keep the helper's WARPSYNC. docs/findings/warp.md "The sm_75 loop test re-converges an exiting
    loop (helper nvwarp30b, stop 30)"."""
    uni, by_label = am.uniformity, am.blocks
    out = []
    for body in bodies:
        latches = [x for x in body if am.loops.ends_in_back_edge(by_label[x]) and divergent_branch(by_label[x], uni)]
        if not latches or not any(may_spin(am, x) for x in latches):
            continue
        if not _per_lane_break_targets(am, body, set(latches)):
            out.append(body)
    return out


def left_exiting_loops(am, bodies: list[frozenset]) -> set[str]:
    """The blocks a break out of an exiting divergent loop (`bodies`, exiting_divergent_loops) runs before the kernel
    ends: the lanes that left early are still away, so ptxas runs their warp ops as diverged too (`for (..) { v =
    i < n ? ld : 0; if (__any_sync(-1, v < 0)) { m = __ballot_sync(-1, ..); ..; break; } }`: `WARPSYNC.ALL VOTE`
    for the ballot on sm_90+, its slow path below; docs/findings/warp.md "A divergent loop whose paths meet only
    at the kernel's end (helper nvwarp30, stop 30)")."""
    by_label = am.blocks
    inside = set().union(*bodies) if bodies else set()
    out: set[str] = set()
    work = [s for x in inside for s in by_label[x].succs if s not in inside]
    while work:
        x = work.pop()
        if x in out or x in inside or x not in by_label:
            continue
        out.add(x)
        work.extend(by_label[x].succs)
    return out


# What a spin loop waits on: a value another thread may change, read with a strong load, an atomic or an
# mbarrier test (probes phases/loop_exit_on_{atom,ld_volatile,ld_acquire}).
_SPIN_LOADS = (".volatile", ".relaxed", ".acquire")
_SPIN_CLASSES = (ATOMIC, MBARRIER)
LOADS = ("ld", "ldu", "tex", "tld4", "suld")


def _reads_shared_state(ins: ori.Instr) -> bool:
    """A `red` to .global memory is fire-and-forget like a store (phases/loop_may_spin_red_global_bar_join);
    red.shared and a generic red are not."""
    if ins.opcode == "red" and ins.has(".global"):
        return False
    return ins.op in _SPIN_CLASSES or ins.opcode in LOADS and ins.has(*_SPIN_LOADS)


def holds_cycle(am, region: Region) -> bool:
    """Does a back edge of the function lie inside the region (a loop in its body)?"""
    body, by_latch = region.body, am.loops.by_latch
    if len(body) > len(by_latch):
        return any(l in body and any(h in body for h in hs) for l, hs in by_latch.items())
    return any(h in body for l in body for h in by_latch.get(l, ()))


def is_spin_loop(am, region: Region) -> bool:
    """Does the loop's back edge depend, inside the loop, on a value read from memory shared with other
    threads (a CAS loop, a flag or mbarrier wait)? ptxas keeps such a loop's BSSY/BSYNC plain on sm_100+
    where a counted or plain-load loop gets .RECONVERGENT (loop_exit_on_ld_global, loop_counted_ld_volatile)."""
    body = [b for b in am.fn.blocks if b.label in region.body]
    du = am.defuse
    # the loop's exit tests: its guarded back edges, and for an if region that is a loop with its exit
    # test in the header (`@p bra out; ...; bra.uni header`) the branch to the join (llvm/locks_flags)
    # (and an inverted loop's exit to its own join: phase 21's `@p bra J; bra.uni body`)
    exit_to = region.body | ({region.join} if region.kind == "if" and holds_cycle(am, region)
                             or region.join.endswith(OWN_JOIN) else set())
    tests = [i for b in body for i in b.instrs[-2:] if i.opcode == "bra" and i.guard is not None
             and branch_target(i) in exit_to]
    want = {r for i in tests for r in du.uses(i)}
    seen: set[str] = set()
    while want:
        reg = want.pop()
        seen.add(reg)
        for b in body:
            for ins in b.instrs:
                if reg not in du.defs(ins):
                    continue
                if _reads_shared_state(ins):
                    return True
                want |= set(du.uses(ins)) - seen
    return False


def holds_nanosleep(am, region: Region) -> bool:
    """Does the region's body hold a nanosleep? (ptxas keeps its pair plain on sm_100+.)"""
    return any(i.opcode == "nanosleep" for x in region.body for i in am.blocks[x].instrs)


def may_spin(am, latch: str) -> bool:
    """Does the loop closed by `latch` read memory other threads change (an atomic, a strong load, an
    mbarrier test) or hold a warp-synchronous op? A loop of plain loads/stores, fences or nanosleep does
    not (probes loop_exit_on_ld_global, loop_counted_atom; misc_atom_global_add_u32_uni_loop)."""
    by_label = am.blocks
    body = am.loops.latch_body(latch)
    return any(_reads_shared_state(i) or warp_op(i) is not None for x in body for i in by_label[x].instrs)


def extern_callees(module: ori.Module | None, fn: ori.Function) -> set[str]:
    """Callees of fn with no body in the module (extern .func; only legal with -c)."""
    if module is None:
        return set()
    return {c for c in fn.callees if module.function(c) is None}


def after_extern_call(fn: ori.Function, module: ori.Module | None) -> set[int]:
    """ids of the sync instructions that an extern call may reach without a sync instruction between:
    the callee may return with the warp diverged, so they need re-convergence even in converged code
    (probes call_extern_between_bar_sync*, call_extern_then_shfl_sync)."""
    ext = extern_callees(module, fn)
    if not ext:
        return set()
    by_label = {b.label: b for b in fn.blocks}
    dirty_in: dict[str, bool] = {b.label: False for b in fn.blocks}
    out: set[int] = set()
    changed = True
    while changed:
        changed = False
        for b in fn.blocks:
            d = dirty_in[b.label]
            for ins in b.instrs:
                if call_target(ins) in ext:
                    d = True
                elif is_sync(ins):
                    if d:
                        out.add(id(ins))
                    d = False
            for s in b.succs:
                if d and s in by_label and not dirty_in[s]:
                    dirty_in[s] = True
                    changed = True
    return out


def exit_arms(am) -> list[list[list[str]]]:
    return [arms for _, arms in exit_arm_branches(am)]


def holds_trap(am, arms) -> bool:
    """Does an arm of an exit-arm branch trap? ptxas branches around BPT.TRAP and takes the other arm as
    converged code (phases/trap_arm_then_uniform_loop_if_bar)."""
    return any(i.opcode == "trap" for a in arms for x in a for i in am.blocks[x].instrs)


def exit_arm_branches(am) -> list[tuple[str, list[list[str]]]]:
    """(the branch's block, its arms) for each such branch. The arms (block labels in layout order; the fall-through arm first, the branch target's second) of
    every divergent branch whose two sides both end the kernel with code on each side: there is no join,
    so no region, but ptxas does not take the arms as converged code at a CTA barrier (phase 71
    EXIT_ARMS_DIVERGED below sm_90, phase 72's WARPSYNC.ALL at the target arm from sm_90; an arm that only
    returns makes the branch a predicated EXIT and the rest converged code; docs/findings/barrier.md)."""
    fn, uni, by_label = am.fn, am.uniformity, am.blocks
    order = {b.label: i for i, b in enumerate(fn.blocks)}
    out = []
    for b in fn.blocks:
        if not divergent_branch(b, uni) or len(b.succs) != 2:
            continue
        join = am.ipdom.get(b.label)
        if not (join is None or join == EXIT or join not in by_label or exits(by_label[join])):
            continue
        target = branch_target(b.instrs[-1])
        succs = sorted(b.succs, key=lambda s: s == target)
        arms = [sorted(arm(s, join, by_label), key=order.get) for s in succs]
        if any(not a or all(exits(by_label[x]) for x in a) for a in arms):
            continue
        out.append((b.label, arms))
    return out


def arm_syncs_warp(am, r: Region) -> bool:
    """Does one arm of the if run an unguarded full-mask bar.warp.sync on every path to its join (the blocks of
    its post-dominator chain that it dominates)? Before phase 72's expansion; its `_arm_runs_warpsync_all`
    asks the same of the expanded WARPSYNC.ALL."""
    by_label, ipdom, dom = am.blocks, am.ipdom, am.dom
    head = by_label.get(r.head)
    if head is None or r.kind != "if":
        return False
    for entry in head.succs:
        x = entry
        while x in r.body and x != r.join and dom.dominates(entry, x):
            if any(is_bar_warp_sync(i) and i.guard is None and is_full_mask(i.operands[0] if i.operands else None)
                   for i in by_label[x].instrs):
                return True
            x = ipdom.get(x)
    return False


def barriers_after_divergent_warp_ops(am) -> frozenset[int]:
    """ids of the unguarded CTA barriers that a warp-synchronous op run in divergent code (a divergent region's body
    before any CTA barrier of its block, or under a divergent guard) reaches with no CTA barrier between: ptxas does
    not take the warp as converged after such an op, even past its region's BSYNC (as for the warp ops after it: p71
    after_divergent_warp_op), so that barrier re-converges it (WARPSYNC / WARPSYNC.ALL) and an if ptxas keeps that
    joins there has no pair (`if (tid < 32) { shfl x2 }; if (tid == 0) { ldg; stg }; bar.sync` is `BSSY SHFL SHFL
    BSYNC @P BRA LDG STG WARPSYNC BAR` on every target; docs/findings/convergence.md "The first barrier after a
    divergent warp op re-converges (helper nvcub25, stop 25)"; probes phases/warpop_then_*). Once per function until
    its code changes."""
    memo = am.memo("barriers_after_divergent_warp_ops")
    out = memo.get(None)
    if out is not None:
        return out
    fn, uni = am.fn, am.uniformity
    diverged = divergent_blocks(am.regions)
    by_label = am.blocks
    dirty_in = {b.label: False for b in fn.blocks}
    found: set[int] = set()
    work = [b.label for b in fn.blocks]
    while work:
        b = by_label[work.pop()]
        d = dirty_in[b.label]
        split = b.label in diverged           # a CTA barrier earlier in the block re-converged the warp
        for ins in b.instrs:
            if warp_op(ins) is not None:
                d = d or split or ins.guard is not None and uni.is_divergent_operand(ins.guard)
            elif is_cta_barrier(ins):
                if d and ins.guard is None and is_aligned_cta_barrier(ins):
                    found.add(id(ins))
                d = split = False
        if d:
            for s in b.succs:
                if s in dirty_in and not dirty_in[s]:
                    dirty_in[s] = True
                    work.append(s)
    out = memo[None] = frozenset(found)
    return out


def diverged_sync_loops(am, regions: list[Region], consts=None, to_exit: bool = False) -> list[Region]:
    """Uniform loops (back edge on a uniform test, outside every divergent region, one way in and one way out)
    whose body runs a CTA barrier.sync or a warp-synchronous op in a divergent if of the loop, with no CTA barrier
    of converged code after it in the body: ptxas pairs such a loop as a divergent one on every target (`BSSY B0;
    loop: ..; @P WARPSYNC; @P BAR.SYNC R; ..; @!P BRA loop; BSYNC B0`), and from sm_90 the barrier in the arm keeps
    its WARPSYNC.ALL there. A divergent if holding neither, or a CTA barrier after its join, leaves the loop
    without a pair; so does a loop whose exit only leaves the kernel (`exits`), whose WARPSYNC.ALL stays
    (`to_exit`: those loops too). docs/findings/convergence.md "A uniform loop running a barrier or warp op in a divergent if
    gets a pair (helper llvm26, stop 26)"; probes phases/loop_pair_diverged_*."""
    from pylower.lowering import ops
    by_label, uni = am.blocks, am.uniformity
    diverged = divergent_blocks(regions)
    order = {b.label: n for n, b in enumerate(am.fn.blocks)}
    rpo = am.rpo_index
    rejoins = am.target_has("FULL_MASK_OP_STOPS_DRIFT") is True
    exiting = set().union(*exiting_divergent_loops(am))
    out: list[Region] = []
    for latch, header in am.loops.back_edges:
        if divergent_branch(by_label[latch], uni) or header in diverged:
            continue
        body = set(am.loops.body(header, latch))
        outside = [p for p in by_label[header].preds if p not in body]
        outs = {s for x in body for s in by_label[x].succs if s not in body and s in by_label}
        if len(outside) != 1 or len(outs) != 1 or header in exiting:
            continue
        tainted = False
        # in execution order from the header (the layout puts an inverted loop's latch before its arms)
        for x in sorted(body, key=lambda x: (rpo.get(x, len(rpo)), order[x])):
            for i in by_label[x].instrs:
                if ops.warp_op(i, consts) is None and not (ops.is_cta_barrier(i) and i.attrs.mode == "sync"):
                    continue
                if x in diverged:
                    tainted = True
                elif ops.is_cta_barrier(i) or rejoins and i.guard is None and ops.is_full_mask(
                        ops.warp_op(i, consts).mask):
                    # sm_90+: an unguarded full-mask warp op of converged code re-converges the warp too (its
                    # WARPSYNC.ALL, or its collective; probes warp/vote_loop_arm_*; docs/findings/warp.md "The
                    # warp reaches a loop's back edge converged only through a full-mask op (helper warp29, stop 29)")
                    tainted = False
        join = outs.pop()
        if tainted and (to_exit or not exits(by_label[through_empty(join, by_label)])):
            out.append(Region("loop", outside[0], join, body, _barrier_join(join, by_label)))
    return out



def _decided_by_warp_op(am, guard, consts) -> bool:
    """Is a branch guard a warp collective's result (`vote.any.pred p`), or a test of one (`setp.eq b, 0` of a
    ballot), possibly negated? Such a loop exit is warp-uniform by construction."""
    while hasattr(guard, "inner"):           # !%p
        guard = guard.inner
    name = getattr(guard, "name", None)
    seen: set[str] = set()
    while name is not None and name not in seen:
        seen.add(name)
        defs = am.defuse.definitions(name)
        if len(defs) != 1:
            return False
        d = defs[0]
        if warp_op(d, consts) is not None:
            return True
        if d.opcode not in ("setp", "not"):
            return False
        srcs = [o.inner if hasattr(o, "inner") else o for o in d.operands[1:]]
        regs = [o for o in srcs if getattr(o, "name", None) is not None and o.name not in consts]
        if len(regs) != 1:
            return False
        name = regs[0].name
    return False


# the atom/red ops that make ptxas distrust a loop's back edge: the integer reductions (the ops of redux.sync);
# inc/dec, exch, cas and floating-point adds do not (docs/findings/warp.md "Only an integer reduction atomic
# keeps the loop-head slow path (helper nvvote31b, stop 31)")
_LOOP_HEAD_ATOMIC_OPS = frozenset({"add", "min", "max", "and", "or", "xor"})
_INTEGER_TYPES = frozenset({"u32", "s32", "u64", "s64", "b32", "b64"})


def _integer_reduction_atomic(ins) -> bool:
    return ins.op == ATOMIC and ins.attrs.kind in ("atom", "red") and \
        ins.attrs.op in _LOOP_HEAD_ATOMIC_OPS and ins.attrs.type in _INTEGER_TYPES


def atomic_loop_heads(am, target) -> set[str]:
    """sm_75-89 (ATOMIC_LOOP_HEAD_SLOW_PATH): in a function holding an integer reduction atomic (atom or red
    add/min/max/and/or/xor on an integer type, any space, anywhere),
    the warp ops of a loop's header block keep their slow path as a never-taken check (`@!PT BRA` to a
    `__cuda_sm70_*` helper without WARPSYNC), in a uniform loop too; warp ops after a branch or join inside the
    loop (a uniform if too) are plain. From sm_80 (VOTE_EXIT_LOOP_HEAD_CONVERGED) a loop every exit of which is
    decided by a warp collective's result is exempt. docs/findings/warp.md "A warp op at the head of a loop in
    a function with an atomic keeps a never-taken slow path (helper nvvote31, stop 31)"."""
    fn, by_label, loops = am.fn, am.blocks, am.loops
    if not loops.back_edges or not any(_integer_reduction_atomic(i) for b in fn.blocks for i in b.instrs):
        return set()
    consts = am.constants
    exempt = target.has("VOTE_EXIT_LOOP_HEAD_CONVERGED")
    out: set[str] = set()
    order = {b.label: k for k, b in enumerate(fn.blocks)}
    for latch, header in loops.back_edges:
        if header in out:
            continue
        last = by_label[latch].instrs[-1] if by_label[latch].instrs else None
        if order[latch] + 1 == order[header] and not (last is not None and last.opcode == "bra"
                                                      and branch_target(last) == header):
            # the latch falls through into the header (a predicated exit over the back edge, phase 21
            # _exit_over_back_edge): the loop's first block in the SASS layout is the latch, and the header's warp
            # ops are plain (llvm/l28_warp_collectives group_by_key_count sm_80-89)
            continue
        if exempt:
            body = loops.body(header, latch)
            exits = [by_label[x].instrs[-1] for x in body
                     if by_label[x].instrs and any(s not in body for s in by_label[x].succs)]
            guards = [i.guard for i in exits if i.opcode == "bra" and i.guard is not None]
            if guards and all(_decided_by_warp_op(am, g, consts) for g in guards):
                continue
        out.add(header)
    return out


@record
class EscapeNest:
    """A divergent if whose paths meet at `region.join` (M) except the ones that leave it by a conditional branch
    to code M does not reach (a `continue` to the latch, a `break` to the loop's exit, a skip past the join):
    ptxas gives it a pair of its own to M, nested in the pair around it, and each such branch leaves the pair by
    a BREAK first (break_nests)."""
    region: Region
    escapes: list = field(default_factory=list)   # (block, the branch, escape guard) per leaving branch
    targets: set = field(default_factory=set)     # the blocks the escapes branch to


def _escape_edge(b: ori.BasicBlock, target: str, inside: set[str], by_label):
    """(the branch, guard under which `b` branches to `target`) when `b` leaves for `target` by a
    conditional branch while its other way stays inside (`inside`: the region's blocks and its join), else None."""
    ins = b.instrs
    if not ins or ins[-1].opcode != "bra":
        return None
    last = ins[-1]
    if last.guard is not None:
        tgt = branch_target(last)
        other = [s for s in b.succs if s != tgt]
        if tgt == target and other and all(s in inside for s in other):
            return last, last.guard
        if tgt in inside and other == [target]:
            return last, negated(last.guard)
        return None
    if len(ins) < 2 or ins[-2].opcode != "bra" or ins[-2].guard is None:
        return None
    if branch_target(last) == target and branch_target(ins[-2]) in inside:
        return ins[-2], negated(ins[-2].guard)
    if branch_target(ins[-2]) == target and branch_target(last) in inside:
        return ins[-2], ins[-2].guard
    return None


def break_nests(am) -> list[EscapeNest]:
    """The divergent ifs whose paths meet at a block M before their immediate post-dominator except for
    conditional branches from inside straight out (`if (v < lo) { if (v < 2 * lo) continue; v = lo; } else if
    (v > hi) v = hi; out[i] = v;`, `while (..) { if (odd) { if (x > lim) { c = -1; break; } x = 3x + 1; } else
    x >>= 1; ++c; }`): ptxas pairs the if to M inside the pair around it (BSSY in the if's block, BSYNC at M) and
    each leaving branch is preceded by a BREAK of that pair (docs/findings/convergence.md "An if left by a break
    or continue gets a BREAK nest (helper nvreg38, stop 38)"). M: the first block after the if, dominated by it,
    that every way from the if reaches before leaving, where leaving means branching conditionally to a block
    that cannot reach M again without passing the if, and that holds more than register work (or is a latch). None with a warp
    op, CTA barrier or exit inside."""
    fn, uni, ipdom, by_label = am.fn, am.uniformity, am.ipdom, am.blocks
    dominates = am.dom.dominates
    order = {b.label: i for i, b in enumerate(fn.blocks)}
    out: list[EscapeNest] = []
    if any(x.label.endswith(UNROLLED_REJOIN) for x in fn.blocks):
        return out          # the unrolled count-down nests' own BREAKs (phase 72 _unrolled_nests) are left alone
    for b in fn.blocks:
        if not divergent_branch(b, uni):
            continue
        target = branch_target(b.instrs[-1])
        if target not in by_label or dominates(target, b.label):
            continue
        join = ipdom.get(b.label)
        if _ends_kernel(join, by_label):
            continue
        end = through_empty(join, by_label)
        body = set().union(*(arm(s, join, by_label) for s in b.succs if s != join))
        cands = sorted((m for m in body if m != b.label and order[m] > order[b.label] and dominates(b.label, m)
                        and len(by_label[m].preds) >= 2 and through_empty(m, by_label) != end), key=order.get)
        loop = am.loops.innermost_body(b.label)
        for m in cands:
            if loop and m not in loop:
                continue        # M outside the if's loop: the loop's exits, which share the loop's pair
            nest = _escape_nest(am, b, m, by_label)
            if nest is not None:
                out.append(nest)
                break
    return out


def _escape_nest(am, b: ori.BasicBlock, m: str, by_label) -> EscapeNest | None:
    # M must hold more than register work (a store, a load, a conditional branch, a loop's back edge); ptxas pairs
    # the if to M only then (`M: r = x + 5; J: out = r;` keeps just the pair to J)
    if all(register_only(i) or i.opcode == "bra" and i.guard is None and not am.dom.dominates(branch_target(i), m)
           for i in by_label[m].instrs):
        return None
    back = {m}                                   # blocks that reach M without passing the if
    work = [m]
    while work:
        x = work.pop()
        for p in by_label[x].preds:
            if p not in back and p != b.label and p in by_label:
                back.add(p)
                work.append(p)
    inside: set[str] = set()
    work = [s for s in b.succs if s != m]
    edges: list[tuple[str, str]] = []
    if any(s not in back for s in b.succs):
        return None
    while work:
        x = work.pop()
        if x in inside or x == m:
            continue
        if x == b.label or x not in by_label:
            return None
        inside.add(x)
        blk = by_label[x]
        if exits(blk) or not blk.succs or any(i.opcode in ("ret", "exit") or is_cta_barrier(i) or warp_op(i, am.constants) is not None
                                              for i in blk.instrs):
            return None
        for s in blk.succs:
            if s in back:
                work.append(s)
            else:
                edges.append((x, s))
    if not edges:
        return None
    escapes, targets = [], set()
    for x, s in edges:
        e = _escape_edge(by_label[x], s, inside | {m}, by_label)
        if e is None:
            return None
        escapes.append((x, *e))
        targets.add(s)
    return EscapeNest(Region("if", b.label, m, inside, False, b.label), escapes, targets)
