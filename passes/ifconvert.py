"""Which divergent regions ptxas predicates (if-conversion) and which it keeps as branches, so that the warp
really splits and re-joins there (and phase 72 gives the region a BSSY/BSYNC pair, phase 71 keeps the
WARPSYNC before a barrier in it, phase 42 keeps mbarrier inits behind a branch).

A region stays a branch when it loads from memory other than shared/param/const (global, local, generic,
textures), holds an atomic, or is long. Probes: a lone ld.global region gets BSSY/BSYNC at -O1+
(div_if_ld_global*; also ld.local, generic ld, atom), a lone ld.shared does not (div_if_ld_shared; also
ld.param, ld.const, six stores), 20 dependent multiplies do not (div_if_alu_20), 24 ALU instructions do
(div_if_alu_long). Rules: docs/findings/phases.md (phase 72).
"""
from __future__ import annotations

from pylower.lowering import ori
from pylower.lowering.ops import ASYNC, is_aligned_cta_barrier, warp_op

from .analysis.regions import LOADS, Region, arm

_PREDICATED_LOAD_SPACES = (".shared", ".param", ".const")
# never predicated: atomics (div_if_atom_global). mbarrier / cp.async regions are, in real kernels, often
# not paired (nvcc/cuda_pipeline_memcpy_async vs cuda_barrier_producer_consumer): left out.
_UNPREDICATED = ("atom", "red")
KEPT_REGION_MIN_SIZE = 21


def _is_branch_load(ins: ori.Instr) -> bool:
    """A load ptxas only predicates when it pays: global/local/generic memory, or a cp.async (LDGSTS reads
    global memory: probes/async/cp_async_if_diamond)."""
    return ins.opcode in LOADS and not ins.has(*_PREDICATED_LOAD_SPACES) \
        or ins.op == ASYNC and ins.attrs.form == "ldgsts"


def branch_when_guarded(ins: ori.Instr) -> bool:
    """A load or fence ptxas does not predicate: under a divergent guard in converged code it becomes a
    branch around it with its own BSSY/BSYNC, at every -O level (memory/ld_acquire_gpu_global_pred;
    phases/guard_ld_global, guard_membar_gl; guarded atomics are lowered to a branch already)."""
    return ins.attrs.nopred or _is_branch_load(ins)


def _contents(by_label, body) -> tuple[bool, bool, int]:
    """(holds an op ptxas never predicates, holds a load it only predicates when it pays, size)."""
    hard, loads, size = False, False, 0
    for label in body:
        for ins in by_label[label].instrs:
            hard |= ins.opcode in _UNPREDICATED or ins.attrs.nopred   # nopred: lowering/fam_fence.py, phase 42
            loads |= _is_branch_load(ins)
            size += ins.opcode not in ori.PSEUDO_OPCODES and ins.opcode != "bra"
    return hard, loads, size


def is_kept_region(am, region: Region, target) -> bool:
    """Does ptxas keep this divergent region as a branch (`am`: the function's analysis manager)?"""
    by_label = am.blocks
    hard, loads, size = _contents(by_label, region.body)
    if hard or size >= KEPT_REGION_MIN_SIZE:
        return True
    if not loads:
        return False
    # a lone load if stays a branch (div_if_ld_global), a loop always (nvcc/decoupled_lookback_scan); ptxas
    # predicates a load if next to another one (phases/div_if_ld_global_twice) and, with the target feature
    # PREDICATE_LOAD_BEFORE_BARRIER, one whose warp meets at a CTA barrier after the join anyway
    # (div_if_ld_global_{st,alu}_bar)
    loops = am.loops
    if region.kind == "loop" or any(loops.ends_in_back_edge(by_label[x]) for x in region.body):
        return True
    if _load_in_each_arm(region, by_label):
        return False
    if _next_to_load_if(am, region):
        return False
    return not (target.has("PREDICATE_LOAD_BEFORE_BARRIER") and _joins_before_cta_barrier(am, region))


def _load_in_each_arm(region: Region, by_label) -> bool:
    """An if/else with a load on each side is predicated, like two load ifs in a row
    (phases/div_ifelse_ld_global, async/cp_async_if_diamond, nvcc/pipeline_primitives_cp_async)."""
    succs = by_label[region.bssy_block].succs
    if region.kind != "if" or len(succs) != 2 or region.join in succs:
        return False
    return all(_contents(by_label, arm(s, region.join, by_label))[1] for s in succs)


def _load_if_at(am, label: str) -> bool:
    """Does block `label` open a small forward if holding a load (and nothing ptxas never predicates)?"""
    by_label, loops = am.blocks, am.loops
    b = by_label.get(label)
    if b is None or len(b.succs) != 2 or loops.ends_in_back_edge(b):
        return False
    join, body, work = am.ipdom.get(label), set(), [x for x in b.succs]
    while work:
        x = work.pop()
        if x in body or x == join or x not in by_label:
            continue
        if loops.ends_in_back_edge(by_label[x]):
            return False
        body.add(x)
        work.extend(by_label[x].succs)
    hard, loads, size = _contents(by_label, body)
    return loads and not hard and size < KEPT_REGION_MIN_SIZE


def _next_to_load_if(am, region: Region) -> bool:
    """Does a load if start at this region's join, or end where this one starts?"""
    ipdom = am.ipdom
    before = [b.label for b in am.fn.blocks if ipdom.get(b.label) == region.bssy_block and b.label != region.bssy_block]
    return any(_load_if_at(am, x) for x in [region.join] + before)


def _joins_before_cta_barrier(am, region: Region) -> bool:
    """Does every path from the region's join reach an aligned CTA barrier before leaving the kernel or
    taking a back edge? Forward branches on the way are skipped to their post-dominator."""
    by_label, ipdom, loops = am.blocks, am.ipdom, am.loops
    label, seen = region.join, set()
    while label in by_label and label not in seen:
        seen.add(label)
        b = by_label[label]
        for ins in b.instrs:
            if is_aligned_cta_barrier(ins):
                return True
            if ins.opcode in ("ret", "exit"):
                return False
        if len(b.succs) == 1:
            label = b.succs[0]
            continue
        if loops.ends_in_back_edge(b):                # the barrier is not on every path
            return False
        label = ipdom.get(label)
    return False


def is_branch_region(am, region: Region, target) -> bool:
    """Does the region stay a branch at all (so the warp reaches its join diverged)? A kept region, or
    one holding a warp-synchronous op or a nested branch; a small one of plain stores/ALU work is
    predicated (nvcc/block_scan: `if (lane == 0) smem[w] = v; __syncthreads();`)."""
    if is_kept_region(am, region, target):
        return True
    by_label = am.blocks
    return any(warp_op(i) is not None or (i.opcode == "bra" and i.guard is not None)
               for label in region.body for i in by_label[label].instrs)
