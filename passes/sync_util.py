"""What the sync phases (25, 26, 71, 72) share: which Ori instructions are CTA barriers or warp-synchronous
operations, where an extern call may have left the warp diverged, the divergent regions of a function
(the places BSSY/BSYNC pairs can go), and a constructor for the class-130 pseudo-ops the phases insert.

Rules: docs/findings/phases.md; per-phase pages: docs/phases/.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from pylower.lowering import ori
from pylower.lowering import ptx_ast as A

from .analysis.cfg import EXIT, dominates, dominators, post_dominators
from .analysis.defuse import defs, uses

SYNC = ori.ORI_CLASSES["sync"]
BARRIER = ori.ORI_CLASSES["barrier"]
# warp collectives that take a member mask (last operand) when spelled .sync; by stem, whatever Ori
# class their family's handler gives them
WARP_SYNC_STEMS = frozenset({"vote", "shfl", "match", "redux", "elect"})
FULL_MASK = 0xFFFFFFFF
# The -O level from which ptxas optimizes sync instructions (phase 71) and unrolls loops (findings 1, 3).
OPT_SYNC_FROM = 1
# knob 487: master gate of phases 25, 71, 72 (seed "Knobs and Gating"); on unless set to 0
SYNC_GATE_KNOB = "487"


def sync_gate_open(ctx) -> bool:
    """Knob 487, the seed's master gate of phases 25, 71 and 72 (default on)."""
    return ctx.knob(SYNC_GATE_KNOB, 1) != 0


def pseudo(opcode: str, mods=(), operands=(), by: str = "", line: int = 0, **attrs) -> ori.Instr:
    """A class-130 sync pseudo-op (stems: ori.PSEUDO_OPCODES)."""
    assert opcode in ori.PSEUDO_OPCODES, opcode
    return ori.Instr(SYNC, opcode, tuple(mods), tuple(operands), None, attrs, line, by)


def clone(ins: ori.Instr, by: str, **attrs) -> ori.Instr:
    return ori.Instr(ins.op, ins.opcode, ins.mods, ins.operands, ins.guard, {**ins.attrs, **attrs}, ins.line, by)


def imm(v: int) -> A.Imm:
    return A.Imm(hex(v))


def is_cta_barrier(ins: ori.Instr) -> bool:
    return ins.op == BARRIER and "kind" in ins.attrs


def is_aligned_cta_barrier(ins: ori.Instr) -> bool:
    """bar.* and barrier.*.aligned: every thread of the warp executes it, so ptxas only re-converges
    before it (a WARPSYNC) and never treats the code around it as divergent."""
    return is_cta_barrier(ins) and (ins.opcode == "bar" or ".aligned" in ins.mods)


def is_bar_warp_sync(ins: ori.Instr) -> bool:
    return ins.op == BARRIER and ins.opcode == "bar" and ".warp" in ins.mods


@dataclass(frozen=True)
class WarpOp:
    """A warp-synchronous operation: its member mask (None: the whole warp) and the name of ptxas's
    out-of-line `__cuda_sm70_<helper>` slow path on sm_75-89."""
    helper: str
    mask: object
    inline: bool          # False: nothing runs on the fast path (bar.warp.sync is only the WARPSYNC)
    user: bool = True     # written by the user (vs. compiler-made); decides .RECONVERGENT on sm_100+


def constant_registers(fn: ori.Function) -> dict[str, int]:
    """Registers with a single definition in fn, an unguarded `mov r, imm` (a mask kept in a register,
    as nvcc writes `mov.u32 %r12, -1; shfl.sync ... %r12`)."""
    seen: dict[str, object] = {}
    for ins in fn.instructions():
        for r in defs(ins):
            seen[r] = None if r in seen else ins
    out = {}
    for r, ins in seen.items():
        if ins is not None and ins.opcode == "mov" and ins.guard is None and len(ins.operands) == 2 \
                and type(ins.operands[1]) is A.Imm and isinstance(ins.operands[1].value, int):
            out[r] = ins.operands[1].value
    return out


def _mask(o, consts: dict[str, int] | None):
    if consts and type(o) is A.Reg and o.name in consts:
        return imm(consts[o.name] & FULL_MASK)
    return o


def warp_op(ins: ori.Instr, consts: dict[str, int] | None = None) -> WarpOp | None:
    """The warp-synchronous op `ins` is, if any; `consts` (constant_registers) resolves register masks."""
    if is_bar_warp_sync(ins):
        return WarpOp("warpsync", _mask(ins.operands[0], consts) if ins.operands else None, False)
    if is_cta_barrier(ins) and ins.attrs["kind"] == "sync" and not is_aligned_cta_barrier(ins):
        # non-aligned barrier.sync waits for the whole warp itself (barrier.arrive/.red do not:
        # barrier_red_*, barrier_arrive_* have no COOP_GROUP entry)
        bid = ins.operands[0]
        suffix = f"_{bid.value}" if type(bid) is A.Imm else ""
        return WarpOp(f"barrier_sync{suffix}", None, True)
    if ins.opcode in WARP_SYNC_STEMS and ".sync" in ins.mods and ins.operands:
        sub = next((m[1:] for m in ins.mods if m != ".sync"), "")
        return WarpOp(f"{ins.opcode}sync_{sub}", _mask(ins.operands[-1], consts), True)
    return None


def is_full_mask(mask) -> bool:
    return mask is None or (type(mask) is A.Imm and isinstance(mask.value, int) and mask.value & FULL_MASK == FULL_MASK)


def is_const_mask(mask) -> bool:
    return mask is None or type(mask) is A.Imm


def extern_callees(module: ori.Module | None, fn: ori.Function) -> set[str]:
    """Callees of fn with no body in the module (extern .func; only legal with -c)."""
    if module is None:
        return set()
    return {c for c in fn.callees if module.function(c) is None}


def _call_target(ins: ori.Instr) -> str | None:
    if ins.opcode != "call":
        return None
    return next((o.name for o in ins.operands if type(o) is A.Sym), None)


def _is_sync(ins: ori.Instr) -> bool:
    return is_cta_barrier(ins) or warp_op(ins) is not None


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
                if _call_target(ins) in ext:
                    d = True
                elif _is_sync(ins):
                    if d:
                        out.add(id(ins))
                    d = False
            for s in b.succs:
                if d and s in by_label and not dirty_in[s]:
                    dirty_in[s] = True
                    changed = True
    return out


@dataclass
class Region:
    """A divergent region: from a divergent conditional branch to its immediate post-dominator.
    BSSY goes before the branch (if/else) or at the end of the loop preheader (loop); BSYNC at the start
    of the join block."""
    kind: str                    # "if" or "loop"
    bssy_block: str
    join: str
    body: set[str] = field(default_factory=set)
    barrier_join: bool = False   # the join starts with an aligned CTA barrier: it re-converges the warp


def _starts_with_cta_barrier(b: ori.BasicBlock) -> bool:
    first = next((i for i in b.instrs if i.opcode not in ori.PSEUDO_OPCODES), None)
    return first is not None and is_aligned_cta_barrier(first)


def _natural_loop(fn: ori.Function, header: str, latch: str) -> set[str]:
    preds = {b.label: b.preds for b in fn.blocks}
    body, work = {header, latch}, [latch]
    while work:
        x = work.pop()
        if x == header:
            continue
        for p in preds.get(x, ()):
            if p not in body:
                body.add(p)
                work.append(p)
    return body


def _exits(b: ori.BasicBlock) -> bool:
    """A join block that only leaves the kernel: the threads that skipped the region are gone, so the
    region runs with every thread still alive, like converged code (div_if_shfl_sync_exit_join,
    examples/block_reduce.ptx)."""
    return all(i.opcode in ("ret", "exit") or i.op == SYNC and i.opcode in ori.PSEUDO_OPCODES for i in b.instrs) \
        and not b.succs


def divergent_regions(fn: ori.Function, uni) -> list[Region]:
    """Every region opened by a branch on a divergent predicate whose join is a real reconvergence
    point, outermost first."""
    ipdom = post_dominators(fn)
    idom = dominators(fn)
    by_label = {b.label: b for b in fn.blocks}
    order = {b.label: i for i, b in enumerate(fn.blocks)}

    regions: list[Region] = []
    for b in fn.blocks:
        if not _divergent_branch(b, uni):
            continue
        join = ipdom.get(b.label)
        if join is None or join == EXIT or join not in by_label or _exits(by_label[join]):
            continue
        target = _branch_target(b)
        if target in by_label and dominates(idom, target, b.label):
            body = _natural_loop(fn, target, b.label)
            outside = [p for p in by_label[target].preds if p not in body]
            if len(outside) != 1:
                continue
            regions.append(Region("loop", outside[0], join, body, _starts_with_cta_barrier(by_label[join])))
        else:
            body = set().union(*(_arm(s, join, by_label) for s in b.succs if s != join))
            regions.append(Region("if", b.label, join, body, _starts_with_cta_barrier(by_label[join])))
    regions.sort(key=lambda r: (-len(r.body), order[r.bssy_block]))
    # one pair per join: a loop exit in the loop header (a CAS loop's `if (done) break`) or an inner region
    # joining where its enclosing region joins, or in an empty block falling into that join, re-converges at
    # that region's BSYNC (nvcc/atomic_cas_loops, nvcc/decoupled_lookback_scan: one BSSY per loop;
    # nvcc/cg_block_split_barrier: `if (t < n) do { cp.async } while (..)`)
    ends = {r.join: _through_empty(r.join, by_label) for r in regions}
    return [r for i, r in enumerate(regions)
            if not any(ends[q.join] == ends[r.join] and (r.bssy_block in q.body or r.bssy_block == q.bssy_block and j < i)
                       for j, q in enumerate(regions) if q is not r)]


def _through_empty(label: str, by_label) -> str:
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


def _divergent_branch(b: ori.BasicBlock, uni) -> bool:
    last = b.instrs[-1] if b.instrs else None
    return last is not None and last.opcode == "bra" and last.guard is not None \
        and uni.is_divergent_operand(last.guard)


def _branch_target(b: ori.BasicBlock) -> str | None:
    return next((o.name for o in b.instrs[-1].operands if type(o) is A.Sym), None)


# What a spin loop waits on: a value another thread may change, read with a strong load, an atomic or an
# mbarrier test (probes phases/loop_exit_on_{atom,ld_volatile,ld_acquire}).
_SPIN_LOADS = (".volatile", ".relaxed", ".acquire")
_SPIN_CLASSES = (ori.ORI_CLASSES["atomic"], ori.ORI_CLASSES["mbarrier"])


def is_spin_loop(fn: ori.Function, region: Region) -> bool:
    """Does the loop's back edge depend, inside the loop, on a value read from memory shared with other
    threads (a CAS loop, a flag or mbarrier wait)? ptxas keeps such a loop's BSSY/BSYNC plain on sm_100+
    where a counted or plain-load loop gets .RECONVERGENT (loop_exit_on_ld_global, loop_counted_ld_volatile)."""
    body = [b for b in fn.blocks if b.label in region.body]
    latches = [b for b in body if b.instrs and b.instrs[-1].opcode == "bra" and b.instrs[-1].guard is not None
               and _branch_target(b) in region.body]
    want = {r for b in latches for r in uses(b.instrs[-1])}
    seen: set[str] = set()
    while want:
        reg = want.pop()
        seen.add(reg)
        for b in body:
            for ins in b.instrs:
                if reg not in defs(ins):
                    continue
                if _reads_shared_state(ins):
                    return True
                want |= set(uses(ins)) - seen
    return False


def _reads_shared_state(ins: ori.Instr) -> bool:
    return ins.op in _SPIN_CLASSES or ins.opcode in _LOADS and ins.has(*_SPIN_LOADS)


def may_spin(fn: ori.Function, latch: str) -> bool:
    """Does the loop closed by `latch` read memory other threads change (an atomic, a strong load, an
    mbarrier test) or hold a warp-synchronous op? A loop of plain loads/stores, fences or nanosleep does
    not (probes loop_exit_on_ld_global, loop_counted_atom; misc_atom_global_add_u32_uni_loop)."""
    by_label = {b.label: b for b in fn.blocks}
    body = _natural_loop(fn, _branch_target(by_label[latch]), latch)
    return any(_reads_shared_state(i) or warp_op(i) is not None for x in body for i in by_label[x].instrs)


def divergent_latches(fn: ori.Function, uni) -> list[str]:
    """Blocks ending in a divergent conditional back edge (to a block dominating them): the loops some
    threads of a warp may leave before the others, whatever their exit leads to. uni None: every
    conditional back edge (-O0, where ptxas runs no uniformity analysis)."""
    idom = dominators(fn)
    out = []
    for b in fn.blocks:
        last = b.instrs[-1] if b.instrs else None
        if not (_divergent_branch(b, uni) if uni is not None else
                last is not None and last.opcode == "bra" and last.guard is not None):
            continue
        target, x = _branch_target(b), b.label
        while x is not None and x != target:
            up = idom.get(x)
            x = None if up == x else up
        if x is not None:
            out.append(b.label)
    return out


# A divergent region ptxas keeps as a branch (does not predicate), so the warp really splits and re-joins:
# it loads from memory other than shared/param/const (global, local, generic, textures), holds an
# atomic, or it is long. Probes: a lone ld.global region gets BSSY/BSYNC at -O1+ (div_if_ld_global*; also
# ld.local, generic ld, atom), a lone ld.shared does not (div_if_ld_shared; also ld.param, ld.const, six
# stores), 20 dependent multiplies do not (div_if_alu_20), 24 ALU instructions do (div_if_alu_long).
_PREDICATED_LOAD_SPACES = (".shared", ".param", ".const")
_LOADS = ("ld", "ldu", "tex", "tld4", "suld")
# never predicated: atomics (div_if_atom_global). mbarrier / cp.async regions are, in real kernels, often
# not paired (nvcc/cuda_pipeline_memcpy_async vs cuda_barrier_producer_consumer): left out.
_UNPREDICATED = ("atom", "red")
KEPT_REGION_MIN_SIZE = 21


def _is_branch_load(ins: ori.Instr) -> bool:
    """A load ptxas only predicates when it pays: global/local/generic memory, or a cp.async (LDGSTS reads
    global memory: probes/async/cp_async_if_diamond)."""
    return ins.opcode in _LOADS and not ins.has(*_PREDICATED_LOAD_SPACES) \
        or ins.opcode == "cp" and ins.attrs.get("form") == "ldgsts"


def branch_when_guarded(ins: ori.Instr) -> bool:
    """A load or fence ptxas does not predicate: under a divergent guard in converged code it becomes a
    branch around it with its own BSSY/BSYNC, at every -O level (memory/ld_acquire_gpu_global_pred;
    phases/guard_ld_global, guard_membar_gl; guarded atomics are lowered to a branch already)."""
    return bool(ins.attrs.get("nopred")) or _is_branch_load(ins)


def _contents(by_label, body) -> tuple[bool, bool, int]:
    """(holds an op ptxas never predicates, holds a load it only predicates when it pays, size)."""
    hard, loads, size = False, False, 0
    for label in body:
        for ins in by_label[label].instrs:
            hard |= ins.opcode in _UNPREDICATED or bool(ins.attrs.get("nopred"))   # nopred: lowering/fam_fence.py
            loads |= _is_branch_load(ins)
            size += ins.opcode not in ori.PSEUDO_OPCODES and ins.opcode != "bra"
    return hard, loads, size


def is_kept_region(fn: ori.Function, region: Region, target) -> bool:
    by_label = {b.label: b for b in fn.blocks}
    hard, loads, size = _contents(by_label, region.body)
    if hard or size >= KEPT_REGION_MIN_SIZE:
        return True
    if not loads:
        return False
    # a lone load if stays a branch (div_if_ld_global), a loop always (nvcc/decoupled_lookback_scan); ptxas
    # predicates a load if next to another one (phases/div_if_ld_global_twice) and, with the target feature
    # PREDICATE_LOAD_BEFORE_BARRIER, one whose warp meets at a CTA barrier after the join anyway
    # (div_if_ld_global_{st,alu}_bar)
    idom = dominators(fn)
    if region.kind == "loop" or any(_back_edge(by_label[x], idom) for x in region.body):
        return True
    if _load_in_each_arm(region, by_label):
        return False
    ipdom = post_dominators(fn)
    if _next_to_load_if(fn, region, by_label, idom, ipdom):
        return False
    return not (target.has("PREDICATE_LOAD_BEFORE_BARRIER") and _joins_before_cta_barrier(region, by_label, idom, ipdom))


def _arm(start: str, join: str, by_label) -> set[str]:
    body, work = set(), [start]
    while work:
        x = work.pop()
        if x in body or x == join or x not in by_label:
            continue
        body.add(x)
        work.extend(by_label[x].succs)
    return body


def _load_in_each_arm(region: Region, by_label) -> bool:
    """An if/else with a load on each side is predicated, like two load ifs in a row
    (phases/div_ifelse_ld_global, async/cp_async_if_diamond, nvcc/pipeline_primitives_cp_async)."""
    succs = by_label[region.bssy_block].succs
    if region.kind != "if" or len(succs) != 2 or region.join in succs:
        return False
    return all(_contents(by_label, _arm(s, region.join, by_label))[1] for s in succs)


def _load_if_at(label: str, by_label, idom, ipdom) -> bool:
    """Does block `label` open a small forward if holding a load (and nothing ptxas never predicates)?"""
    b = by_label.get(label)
    if b is None or len(b.succs) != 2 or _back_edge(b, idom):
        return False
    join, body, work = ipdom.get(label), set(), [x for x in b.succs]
    while work:
        x = work.pop()
        if x in body or x == join or x not in by_label:
            continue
        if _back_edge(by_label[x], idom):
            return False
        body.add(x)
        work.extend(by_label[x].succs)
    hard, loads, size = _contents(by_label, body)
    return loads and not hard and size < KEPT_REGION_MIN_SIZE


def _next_to_load_if(fn: ori.Function, region: Region, by_label, idom, ipdom) -> bool:
    """Does a load if start at this region's join, or end where this one starts?"""
    before = [b.label for b in fn.blocks if ipdom.get(b.label) == region.bssy_block and b.label != region.bssy_block]
    return any(_load_if_at(x, by_label, idom, ipdom) for x in [region.join] + before)


def _joins_before_cta_barrier(region: Region, by_label, idom, ipdom) -> bool:
    """Does every path from the region's join reach an aligned CTA barrier before leaving the kernel or
    taking a back edge? Forward branches on the way are skipped to their post-dominator."""
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
        if _back_edge(b, idom):                       # the barrier is not on every path
            return False
        label = ipdom.get(label)
    return False


def _back_edge(b: ori.BasicBlock, idom) -> bool:
    """Does b end in a branch to a block dominating it?"""
    if not b.instrs or b.instrs[-1].opcode != "bra":
        return False
    target, x = _branch_target(b), b.label
    while x is not None and x != target:
        up = idom.get(x)
        x = None if up == x else up
    return x is not None


def is_branch_region(fn: ori.Function, region: Region, target) -> bool:
    """Does the region stay a branch at all (so the warp reaches its join diverged)? A kept region, or
    one holding a warp-synchronous op or a nested branch; a small one of plain stores/ALU work is
    predicated (nvcc/block_scan: `if (lane == 0) smem[w] = v; __syncthreads();`)."""
    if is_kept_region(fn, region, target):
        return True
    by_label = {b.label: b for b in fn.blocks}
    return any(warp_op(i) is not None or (i.opcode == "bra" and i.guard is not None)
               for label in region.body for i in by_label[label].instrs)


def divergent_blocks(regions: list[Region]) -> set[str]:
    """Blocks where the warp may be diverged: the bodies of the divergent regions."""
    out: set[str] = set()
    for r in regions:
        out |= r.body
    return out


def innermost_region(regions: list[Region], label: str) -> Region | None:
    best = None
    for r in regions:
        if label in r.body and (best is None or len(r.body) < len(best.body)):
            best = r
    return best
