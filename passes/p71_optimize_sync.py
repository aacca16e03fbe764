"""Phase 71 OptimizeSyncInstructions (-O1 and above): decide which sync instructions need no re-convergence.

ptxas at -O0 re-converges the warp before every CTA barrier and runs every warp-synchronous operation
through its slow path (phase 72 does both). From -O1 on, this phase proves code converged and marks it
(`!conv=1`), so phase 72 leaves it alone, and it deletes what has no effect:
- a `bar.warp.sync` with a warp-uniform mask in converged code (findings R5);
- on sm_90+ the re-convergence before an aligned CTA barrier even in divergent code (div_if_bar_sync);
- a shfl.sync of a warp-uniform value (folded to a mov);
- per-thread member masks (`bar.warp.sync %r`, `shfl.sync ... %r` with %r depending on %tid): the
  overlapping-membermask handling of the target and --no-membermask-overlap (table _PER_THREAD_MASK).
Code reached from an extern call is never proven converged (findings R7). Fences are never touched (R2).
"""
from __future__ import annotations

from pylower.lowering import ori
from pylower.lowering import ops
from pylower.lowering.ops import branch_target, redux_mask_only
from pylower.lowering import ptx_ast as A

from . import ifconvert
from . import per_thread_masks as PT
from .analysis import regions as R
from .analysis.cfg import straight_on
from .analysis.defuse import defs, operand_registers
from .analysis.demanded import demanded_halves
from .analysis.uniformity import Uniformity
from .knobs import OPT_SYNC_FROM, SYNC_GATE_KNOB, sync_gate_open
from .manager import PassContext, Phase

NAME = "OptimizeSyncInstructions"
OVERLAP_INFO = ("(C8100) Compiler assumes threads executing this sync instruction may have distinct but "
                "overlapping membermasks.")
PRINT_OPTION = "--print-potentially-overlapping-membermasks"
# Targets with OVERLAP_PRINT_OPTION honour --print-potentially-overlapping-membermasks (others: a warning).

# A per-thread member mask (a register that differs between lanes) in converged code, below sm_90, by
# (tier, --no-membermask-overlap value; None = absent): "delete" (only bar.warp.sync: nothing left),
# "plain" (the op as if converged), or "check" (a membermask test, then the op with its slow path,
# phase 72). sm_90+ never checks: phase 72 emits WARPSYNC R / WARPSYNC.EXCLUSIVE R (findings phase 71.3,
# warp.md "divergent reg"; probes bar_warp_sync_tid_mask*, *_divreg_mask).
_PER_THREAD_MASK = {
    ("turing", None): "plain", ("turing", True): "plain", ("turing", False): "check",
    ("ampere", None): "check", ("ampere", True): "plain", ("ampere", False): "check",
}
# the test ptxas puts before the slow path: a full overlap test for bar.warp.sync and shfl (sm_80+:
# VOTEU.ANY MATCH.ANY REDUX.OR), a uniformity test (REDUX.OR) for the other ops; sm_75: MATCH.ALL
_CHECK_KIND = {"warpsync": ".overlap", "shflsync_": ".overlap"}


# sm_80-89 (the redux slow-path helper waits with WARPSYNC.EXCLUSIVE): a converged redux.sync whose member mask
# is a kernel parameter as loaded (through moves) gets `WARPSYNC.EXCLUSIVE R` before it; a mask computed from
# one (`param | 1`), loaded from memory, a special register, activemask or an immediate does not (probes
# warp/redux_sync_min_u32_param_mask, _param_expr_mask; docs/findings/warp.md).
_EXCLUSIVE_PARAM_MASK = ("reduxsync_",)
_PARAM_ARITH = ("mov",)


def _from_params(reg: str, du, seen: set | None = None) -> bool:
    """Is `reg` a parameter as loaded by ld.param (possibly through moves)?"""
    seen = set() if seen is None else seen
    if reg in seen:
        return True
    seen.add(reg)
    ds = du.definitions(reg)
    if not ds:
        return False
    for d in ds:
        if d.guard is not None:
            return False
        if d.opcode == "ld" and ".param" in d.mods:
            continue
        if d.opcode not in _PARAM_ARITH or not du.uses(d):
            return False
        if any(type(o) is A.Reg and o.name.startswith("%") and "." in o.name for o in d.operands[1:]):
            return False                    # a special register (%ctaid.x, ...)
        if not all(_from_params(r, du, seen) for r in du.uses(d)):
            return False
    return True


def _param_mask_exclusive(wop: ops.WarpOp, du, target) -> bool:
    return wop.helper.startswith(_EXCLUSIVE_PARAM_MASK) and target.has("REDUX") \
        and not target.has("WARP_COLLECTIVE") and type(wop.mask) is A.Reg and _from_params(wop.mask.name, du)


_COLLECTIVES = ("vote", "shfl", "match", "redux", "activemask", "elect")


def _drop_unused_collectives(fn: ori.Function, am, phase, ctx, after_call: set) -> bool:
    """A warp collective in converged code none of whose results is read is deleted, with no
    EIATTR_COOP_GROUP entry (ptxas: unused shfl/vote/match/activemask, full or partial mask, give no SASS; probes
    warp/unused_*). Code after a divergent early return counts as converged (the lanes left run on as one:
    `@P EXIT`), as for folded shuffles (docs/findings/warp.md "A dead collective after an early return is
    deleted (helper warp28, stop 28)"). In a divergent region ptxas keeps the synchronisation (a lone
    WARPSYNC, or on sm_75-89 the slow-path call), which is not modelled: such a collective is left as it is."""
    lv, du, uni = am.liveness, am.defuse, am.uniformity
    diverged = R.divergent_blocks(am.regions)
    candidates = {id(ins) for b in fn.blocks if b.label not in diverged for ins in b.instrs
                  if ins.opcode in _COLLECTIVES and ins.op == ori.ORI_CLASSES["vote"] and id(ins) not in after_call
                  and (ins.guard is None or uni.is_uniform(ins.guard)) and du.defs(ins)}
    if not candidates:
        return False
    # a result only the dead half of a 64-bit register takes in is unused too (docs/findings/warp.md
    # "Unused high halves of 64-bit values (helper llvmnb, stop 20)")
    demand = demanded_halves(fn, du, ctx.target, lambda ins: id(ins) in candidates)
    changed = False
    for b in fn.blocks:
        if b.label in diverged:
            continue
        keep = [ins for ins in b.instrs
                if not (id(ins) in candidates
                        and not any(r in demand and lv.is_used_after(b, ins, r) for r in du.defs(ins)))]
        if len(keep) != len(b.instrs):
            ctx.count(phase, "unused warp collectives deleted", len(b.instrs) - len(keep))
            b.instrs = keep
            changed = True
    if changed:
        am.invalidate("cfg")
    return changed


def _drop_mask_only_activemask(fn: ori.Function, du, target) -> bool:
    """sm_80-89: REDUX takes no member mask, so a converged redux.sync leaves its mask unread; an activemask
    read only as such masks is dead and ptxas deletes its VOTE.ANY (sm_90+ keeps it; probes
    warp/activemask_b32_redux_mask)."""
    if not target.has("REDUX_MASK_UNREAD"):
        return False
    users: dict[str, list] = {}
    for b in fn.blocks:
        for ins in b.instrs:
            for r in du.uses(ins):
                users.setdefault(r, []).append(ins)
    dead = set()
    for b in fn.blocks:
        for ins in b.instrs:
            if ins.opcode != "activemask" or ins.guard is not None:
                continue
            reg = ins.operands[0]
            us = users.get(reg.name, []) if type(reg) is A.Reg else []
            if us and all(redux_mask_only(u, reg) for u in us) and len(du.definitions(reg.name)) == 1:
                dead.add(id(ins))
    if not dead:
        return False
    for b in fn.blocks:
        b.instrs = [i for i in b.instrs if id(i) not in dead]
    return True


def _mask_tier(target) -> str | None:
    if target.has("PER_THREAD_MASK_WARPSYNC"):
        return None
    return "turing" if target.has("PER_THREAD_MASK_TURING") else "ampere"


def _checked_when_diverged(target, overlap) -> bool:
    """sm_80-89: a per-thread-mask op in divergent code gets the member-mask check of converged code (`MATCH.ANY
    REDUX.OR VOTEU.ANY; LOP3 P; @!P BRA.CONV UR, fast; CALL helper`) inside its region's pair, as in converged
    code (sm_75 keeps the plain `BRA.CONV; CALL`; probes warp/div_permask_*; docs/findings/warp.md "A per-thread
    member mask in divergent code is checked on sm_80-89 (helper cg, stop 23)")."""
    tier = _mask_tier(target)
    return tier == "ampere" and _PER_THREAD_MASK[(tier, overlap)] == "check"


_UNIFORM_HERE = ("activemask", "vote")


def _uniform_here(mask, before: list, dirty: set[int]) -> bool:
    """Is the member mask written earlier in its block by an activemask or a ballot (of converged code)? Its
    value there is warp-uniform though the register is written elsewhere with a per-lane value (the uniformity
    analysis is flow-insensitive): ptxas gives the op no member-mask check (nvcc/cg_labeled_binary_partition:
    `m = activemask; ballot(p, m)` before a branch that does `m &= ...`; probes warp/am_mask_redefined)."""
    if type(mask) is not A.Reg:
        return False
    for i in reversed(before):
        if mask.name in defs(i):
            return i.opcode in _UNIFORM_HERE and i.guard is None and id(i) not in dirty and (
                i.opcode == "activemask" or i.attrs.mode == "ballot")
    return False


def _collective_mask(mask, du) -> bool:
    """Is every definition of the member-mask register a warp collective's result (match.any, a ballot)?"""
    ds = du.definitions(mask.name) if type(mask) is A.Reg else ()
    return bool(ds) and all(d.opcode in ("match", "vote", "activemask") for d in ds)


def _unconverged_ballot(mask, du, dirty: set[int]) -> bool:
    """sm_80-89: is the member mask a ballot taken where the warp is not proven converged (after a warp op in
    divergent code, phase 71's `dirty`)? ptxas then takes the ballot's value as differing between lanes (VOTE.ANY R,
    and the member-mask check of the op reading it; nvcc/syncwarp_masks, probes warp/div_permask_ballot_*)."""
    if type(mask) is not A.Reg:
        return False
    ds = du.definitions(mask.name)
    return bool(ds) and all(d.opcode == "vote" and d.attrs.mode == "ballot" and id(d) in dirty for d in ds)


def _checked_once_more(run: tuple, wop: ops.WarpOp, tier: str | None) -> bool:
    """sm_80-89: does this shuffle or bar.warp.sync share the member-mask overlap test of the ops before it?
    In a row of such ops with one mask register (nothing but non-sync work between them, the register not written again), ptxas tests
    the first alone and then the second once for all the others: one `VOTEU.ANY MATCH.ANY REDUX.OR` and one
    BRA.DIV before the rest, their slow paths calling the helper in turn (probes warp/permask_run_*;
    nvcc/cub_warp_exchange_load_store: two tests for twelve `shfl.sync.bfly` with `255 << (laneid & -8)`;
    docs/findings/warp.md "Shuffles with one per-thread mask in a row share the overlap test")."""
    return tier == "ampere" and _check_kind(wop) == ".overlap" and run[1] >= 2 and run[0] == _run_key(wop)


def _run_key(wop: ops.WarpOp) -> tuple:
    """The ops of a run share their member-mask register itself: masks equal in value but computed apart (each
    from its own `mov %laneid`) keep a full test each, with the active lanes read first (nvcc/
    cg_tiled_partition_sizes cg_static_tiles: three `shfl.sync.bfly`, three tests)."""
    return _check_kind(wop), wop.mask.name if type(wop.mask) is A.Reg else str(wop.mask)


def _check_kind(wop: ops.WarpOp) -> str:
    return next((k for prefix, k in _CHECK_KIND.items() if wop.helper.startswith(prefix)), ".uniform")


class _ShuffleUniformity(Uniformity):
    """Uniformity in which a shfl.sync of a warp-uniform value is itself uniform (every lane reads the
    same value, whichever lane it reads it from)."""

    def __init__(self, fn: ori.Function, defuse, ipdom, liveness=None, native_match_all: bool = False,
                 lane_drift: bool = True):
        # call results come back through the function's own .param variables: per-thread values
        self.call_params = {d.name for d in fn.decls if isinstance(d, A.VarDecl) and d.space == ".param"}
        super().__init__(fn, defuse, ipdom, liveness, native_match_all, lane_drift)

    def _value_divergent(self, ins: ori.Instr) -> bool:
        if _foldable_shfl(ins):
            return self.is_divergent_operand(ins.operands[1])
        if ins.opcode == "ld" and ".param" in ins.mods and any(
                type(o) is A.Addr and any(type(i) is A.Sym and i.name in self.call_params for i in o.items)
                for o in ins.operands):
            return True
        return super()._value_divergent(ins)


def _foldable_shfl(ins: ori.Instr) -> bool:
    # `shfl.sync.mode.b32 d, a, b, c, mask` with a plain destination (d|p also reports the lane validity)
    return ins.opcode == "shfl" and ".sync" in ins.mods and len(ins.operands) == 5 and type(ins.operands[0]) is A.Reg


def _shfl_with_valid_lane(ins: ori.Instr) -> bool:
    """`shfl.sync.mode.b32 d|p, a, b, c, mask`: the value and the source lane's validity."""
    return ins.opcode == "shfl" and ".sync" in ins.mods and len(ins.operands) == 5 \
        and type(ins.operands[0]) is A.Pair and type(ins.operands[0].first) is A.Reg \
        and type(ins.operands[0].second) is A.Reg


def _valid_lane_dead(am, block: ori.BasicBlock, ins: ori.Instr) -> bool:
    """A `d|p` shuffle whose validity predicate nothing reads folds like the plain form (probes
    warp/shfl_uniform_valid_lane_{dead,used}; docs/findings/warp.md "A uniform shuffle whose validity
    predicate is dead folds (helper nvnew25, stop 25)")."""
    return _shfl_with_valid_lane(ins) and not am.liveness.is_used_after(block, ins, ins.operands[0].second.name)


def fold_uniform_shuffles(fn: ori.Function, phase: Phase, ctx: PassContext) -> bool:
    """shfl.sync of a warp-uniform value -> mov (findings phase 71 item 4: loop_shfl_uniform_value_trip4)."""
    if not any((_foldable_shfl(ins) or _shfl_with_valid_lane(ins)) and ins.guard is None
               for ins in fn.instructions()):
        return False        # nothing to fold: the analysis is not built
    am = ctx.analyses(fn)
    uni = _ShuffleUniformity(fn, am.defuse, am.ipdom, am.liveness, am.native_match_all)
    diverged = R.divergent_blocks(am.regions)
    changed = False
    for b in fn.blocks:
        out: list[ori.Instr] = []
        for ins in b.instrs:
            dest = None
            if ins.guard is not None:
                pass
            elif _foldable_shfl(ins):
                dest = ins.operands[0]
            elif _valid_lane_dead(am, b, ins):
                dest = ins.operands[0].first
            if dest is None or uni.is_divergent_operand(ins.operands[1]) or uni.is_divergent_operand(ins.operands[4]):
                out.append(ins)
                continue
            if b.label in diverged:
                if not ctx.target.has("DIVERGED_UNIFORM_SHFL_FOLDS"):
                    out.append(ins)
                    continue
                out.append(_kept_warp_sync(ins))
            out.append(ori.Instr(ori.ORI_CLASSES["move"], "mov", (".b32",), (dest, ins.operands[1]), None, {},
                                 ins.line, NAME))
            ctx.count(phase, "uniform shuffles folded")
            changed = True
        b.instrs[:] = out
    return changed


def _kept_warp_sync(ins: ori.Instr) -> ori.Instr:
    """What a folded shuffle in divergent code leaves: its warp synchronisation, a `bar.warp.sync` of its member
    mask (sm_75-89, DIVERGED_UNIFORM_SHFL_FOLDS: the pair, the BRA.CONV test and a helper that only runs
    WARPSYNC, one EIATTR_COOP_GROUP_INSTR_OFFSETS entry; from sm_90 the shuffle is not folded there at all:
    `WARPSYNC.ALL; SHFL`); probes warp/shfl_uniform_div_*;
    docs/findings/warp.md "A folded uniform shuffle in divergent code keeps its warp sync (helper w2ushfl, stop 27)")."""
    return ori.Instr(ori.ORI_CLASSES["barrier"], "bar", (".warp", ".sync"), (ins.operands[4],), None,
                     {"folded": True}, ins.line, NAME)


def _elided(ins: ori.Instr, wop: ops.WarpOp) -> list[ori.Instr]:
    """What is left of a deleted bar.warp.sync: no code, but ptxas still lists it in
    EIATTR_COOP_GROUP_INSTR_OFFSETS (bar_warp_sync_converged_*, bar_warp_sync_imm_*); nothing of the one an
    aligned op implies (lowering/tensormap_copy.py: async/tensormap_cp_fenceproxy_guard_uniform)."""
    if ins.attrs.implicit or ins.attrs.folded:
        return []
    return [ops.pseudo("membermask", (".elided",), (wop.mask,), NAME, ins.line, coop=1)]


# after_diverged_barrier states: the warp may have left a CTA barrier diverged / it has since been through
# a warp op's slow path (a helper call)
_CLEAN, _DIVERGED, _SLOW = 0, 1, 2


def first_barriers_of_exit_arms(am) -> set[int]:
    """sm_75-89 (EXIT_ARMS_DIVERGED): ids of the first CTA barrier in each arm of a divergent branch whose
    two sides both end the kernel (regions.exit_arms); ptxas re-converges before it (WARPSYNC; probes
    barrier/exit_arms_*)."""
    by_label = am.blocks
    out: set[int] = set()
    for arms in R.exit_arms(am):
        for arm in arms:
            first = next((i for x in arm for i in by_label[x].instrs
                          if ops.is_cta_barrier(i) and ops.warp_op(i) is None), None)
            if first is not None:
                out.add(id(first))
    return out


def first_syncs_of_kept_exit_arms(am, target) -> set[int]:
    """ids of the first CTA barrier or warp op in each arm of a divergent branch whose two sides both end the
    kernel and which ptxas keeps (ifconvert.predicated_exit_arms does not predicate its fall-through arm): the
    arms are divergent code, so it re-converges there, every target (sm_90+: WARPSYNC.ALL before the BAR or the
    SHFL of either arm; sm_75-89: WARPSYNC before the BAR, a warp op's slow path: probes
    barrier/exit_arm_bar6, exit_arm_shfl; docs/findings/convergence.md, "exit arms"). Not a trap's arm
    (phases/trap_arm_then_uniform_loop_if_bar: `@!P0 BRA` over BPT.TRAP, the code after it converged)."""
    by_label = am.blocks
    predicated = ifconvert.predicated_exit_arms(am, target)
    out: set[int] = set()
    for branch, arms in R.exit_arm_branches(am):
        if branch in predicated or R.holds_trap(am, arms):
            continue
        for arm in arms:
            first = next((i for x in arm for i in by_label[x].instrs
                          if ops.is_cta_barrier(i) or ops.warp_op(i) is not None), None)
            if first is not None:
                out.add(id(first))
    return out


def warp_ops_of_exit_arms(am, target) -> set[int]:
    """ids of the warp-synchronous ops in the arms of a divergent branch whose two sides both end the kernel,
    each holding code (regions.exit_arms): there is no join and no BSSY, but each arm runs with part of the
    warp, so its warp ops take their divergent form (sm_90+: `WARPSYNC.ALL; op`, `WARPSYNC R; op`; sm_75-89
    the slow path; probes warp/exit_ifelse_*, nvcc/warp_intrinsics_divergent warp_partial_mask_reduce). An if
    whose other side only returns stays converged code (div_if_shfl_sync_exit_join), and so does one whose
    fall-through arm ptxas predicates with its EXIT (ifconvert.predicated_exit_arms)."""
    by_label = am.blocks
    predicated = ifconvert.predicated_exit_arms(am, target)
    return {id(i) for branch, arms in R.exit_arm_branches(am) if branch not in predicated
            for a in arms for x in a for i in by_label[x].instrs if ops.warp_op(i) is not None}


def _after_reconverging_barrier(out: list, consts) -> bool:
    """Is there an unguarded CTA barrier among `out` (a block's instructions so far) that re-converges the warp
    (its WARPSYNC: not marked converged)?"""
    return any(ops.is_cta_barrier(i) and ops.warp_op(i, consts) is None and i.guard is None and not i.attrs.conv
               for i in out)


def _after_block_barrier(out: list, consts) -> bool:
    """Is the last sync instruction of `out` (a block's instructions so far) an unguarded CTA barrier?"""
    last = next((i for i in reversed(out) if ops.is_cta_barrier(i) or ops.warp_op(i, consts) is not None), None)
    return last is not None and last.guard is None and ops.is_cta_barrier(last) and ops.warp_op(last, consts) is None


def divergent_code(am, diverged: set[str]) -> set[str]:
    """`diverged` and the blocks between a divergent branch and its immediate post-dominator: all the blocks after
    it when its paths meet only at the kernel's end (the arms of a warp-specialised kernel without a final
    barrier, which get no region)."""
    by_label, uni, ipdom = am.blocks, am.uniformity, am.ipdom
    under = set(diverged)
    for h in am.fn.blocks:
        last = h.instrs[-1] if h.instrs else None
        if last is None or last.opcode != "bra" or last.guard is None or not uni.is_divergent_operand(last.guard):
            continue
        stop, work = ipdom.get(h.label), list(h.succs)
        while work:
            x = work.pop()
            if x == stop or x in under or x not in by_label:
                continue
            under.add(x)
            work.extend(by_label[x].succs)
    return under


def guarded_loop_barriers(am, diverged: set[str], target) -> set[int]:
    """ids of the CTA barriers ptxas re-converges before (a WARPSYNC predicated with them) though the warp reaches
    them converged: the barrier is the only sync instruction of a block that a uniform forward branch skips (an
    if ptxas predicates: `if (c + 2 < n) bar.arrive id, cnt` of a producer/consumer ring), on a loop in divergent
    code (a warp-specialised arm). Not when the if makes the barrier's id or count from the loop's counter itself
    (a register written before the loop and again at its back edge: `bar.arrive 3 + (c & 1)` inside the if); else
    below sm_90 (GUARDED_LOOP_BARRIER_RESYNC) when the if holds at most one instruction besides moves of
    constants and those making the id, and from sm_90 (GUARDED_LOOP_BARRIER_RESYNC_ID) only when the if makes the
    id (from a value of the iteration: `s = c & 1` before the if) and holds nothing else. Straight code keeps the
    barrier plain, and so does a bigger if (tools/variations/guarded_named_barrier.py; docs/findings/barrier.md "A guarded named barrier in a loop of
    divergent code re-converges (helper nvwarp39, stop 39)")."""
    below, from90 = target.has("GUARDED_LOOP_BARRIER_RESYNC"), target.has("GUARDED_LOOP_BARRIER_RESYNC_ID")
    if not (below or from90):
        return set()
    by_label, uni = am.blocks, am.uniformity
    under = divergent_code(am, diverged)
    out: set[int] = set()
    for b in am.fn.blocks:
        if b.label not in under or len(b.preds) != 1 or len(b.succs) != 1 or not am.loops.on_cycle(b.label):
            continue
        head = by_label.get(b.preds[0])
        if head is None or not head.instrs or head.instrs[-1].opcode != "bra" or head.instrs[-1].guard is None \
                or uni.is_divergent_operand(head.instrs[-1].guard) or b.succs[0] not in head.succs:
            continue
        syncs = [i for i in b.instrs if ops.is_sync(i)]
        if len(syncs) != 1 or not ops.is_cta_barrier(syncs[0]) or ops.warp_op(syncs[0]) is not None \
                or syncs[0].guard is not None:
            continue
        bar = syncs[0]
        work = [i for i in b.instrs if i is not bar and i.opcode not in ori.PSEUDO_OPCODES and i.opcode != "bra"
                and not (i.opcode == "mov" and len(i.operands) == 2 and isinstance(i.operands[1], A.Imm))]
        # the if's instructions that make the barrier's id or count, and the registers they read from before it
        need = {r for o in bar.operands for r in operand_registers(o)}
        made: list = []
        for i in reversed(work):
            if set(defs(i)) & need:
                made.append(i)
                need |= {r for o in i.operands[1:] for r in operand_registers(o)}
        inside = {r for i in made for r in defs(i)}
        outside = {r for i in made for o in i.operands[1:] for r in operand_registers(o)} - inside
        # an id made from the loop's counter itself (`3 + (c & 1)` inside the if: a register written before the
        # loop and at its back edge) leaves the barrier plain; one made from a value of the iteration (`s = c & 1`
        # before the if) re-converges
        carried = any(len(am.defuse.definitions(r)) > 1 for r in outside)
        if made and carried or len(work) - len(made) > (0 if from90 else 1) or from90 and not made:
            continue
        out.add(id(bar))
    return out


def barriers_after_warpsync_arms(am, target) -> set[int]:
    """sm_90+ (WARPSYNC_ALL_UNPAIRS): ids of the first CTA barrier after the join of an if that stays a branch
    and whose arm runs a full-mask bar.warp.sync on every path: the if has no pair (phase 72), so the warp
    reaches that barrier unconverged and re-converges first (WARPSYNC.ALL), also when other code, even paired
    regions, lies between the join and the barrier (probes warp/warpsync_arm_then_*; Triton's guarded
    tensormap.cp_fenceproxy, lowering/tensormap_copy.py; docs/findings/convergence.md "A WARPSYNC.ALL arm's
    join reaches a CTA barrier unconverged (helper tmisc, stop 22)")."""
    by_label, ipdom = am.blocks, am.ipdom
    out: set[int] = set()
    for r in ifconvert.warpsync_arm_ifs(am, target):
        x, seen = r.join, set()
        while x in by_label and x not in seen:
            seen.add(x)
            first = next((i for i in by_label[x].instrs if ops.is_cta_barrier(i) and ops.warp_op(i) is None), None)
            if first is not None:
                if first.guard is None:
                    out.add(id(first))
                break
            x = ipdom.get(x)
    return out


def barrier_reach(am, regions, target) -> dict[int, bool]:
    """For each unguarded aligned CTA barrier (by id): does the warp reach it converged, i.e. does every path to it
    pass another such barrier after the last branch that splits the warp? A divergent branch splits it unless ptxas
    predicates its if region (ifconvert.is_branch_region false, no CTA barrier inside); a loop's divergent back
    edge, a divergent branch of a loop that only leaves the kernel and a guarded divergent exit always split it; the
    join of a kept region that gets its pair (no barrier join) is as converged as the warp was at its BSSY. A
    greatest fixed point over the CFG. ptxas re-converges (WARPSYNC) only before the barriers the warp may reach
    unconverged: in a divergent loop `loop: sts; { bar; if (tid < k) {lds; sts}; bar } x n; if (tid == 0) stg; bar;
    @p bra loop` only the first barrier after the loop's head (docs/findings/convergence.md "Barriers a divergent
    loop reaches converged (helper nvcub25, stop 25)"; probes phases/divloop_*, uniform_loop_bar_after_pair)."""
    fn, uni, by_label = am.fn, am.uniformity, am.blocks
    predicated = {r.head for r in am.all_regions if r.kind == "if" and not ifconvert.is_branch_region(am, r, target)
                  and not any(ops.is_cta_barrier(i) for x in r.body for i in by_label[x].instrs)}
    paired_joins: dict[str, list[str]] = {}      # join of a kept region with its pair -> where its BSSYs go
    for r in regions:
        if not r.barrier_join and ifconvert.is_kept_region(am, r, target):
            paired_joins.setdefault(R.through_empty(r.join, by_label), []).append(r.bssy_block)

    def is_barrier(i) -> bool:
        return i.guard is None and ops.is_aligned_cta_barrier(i) and ops.warp_op(i) is None

    def divides(b) -> bool:
        last = b.instrs[-1] if b.instrs else None
        if last is None or last.guard is None or not uni.is_divergent_operand(last.guard):
            return False
        if last.opcode == "bra":
            return b.label not in predicated or am.loops.ends_in_back_edge(b)
        return last.opcode in ("ret", "exit")

    def left_diverged(b) -> bool:
        # a back edge of a loop that a divergent branch leaves early: the lanes still in the loop come back to its
        # head without the others, past any barrier between that exit and the back edge (docs/findings/barrier.md
        # "A loop left by a divergent branch is re-entered unconverged (helper nv27bar, stop 27)")
        if not am.loops.ends_in_back_edge(b):
            return False
        body = am.loops.body(branch_target(b.instrs[-1]), b.label)
        return any(x != b.label and x in by_label and by_label[x].instrs and by_label[x].instrs[-1].opcode == "bra"
                   and divides(by_label[x]) and any(s not in body for s in by_label[x].succs) for x in body)

    left = {b.label for b in fn.blocks if left_diverged(b)}

    def splits(b) -> bool:
        return divides(b) or b.label in left

    has_barrier = {b.label: any(is_barrier(i) for i in b.instrs) for b in fn.blocks}
    entry = fn.blocks[0].label if fn.blocks else None
    conv_in = {b.label: True for b in fn.blocks}
    changed = True
    while changed:
        changed = False
        for b in fn.blocks:
            if not conv_in[b.label] or b.label == entry:
                continue
            if b.label in paired_joins:          # the BSYNC restores the warp as it was at the BSSY
                ok = all(has_barrier[h] or conv_in[h] for h in paired_joins[b.label] if h in conv_in)
            else:
                ok = all(p in by_label and (has_barrier[p] or conv_in[p]) and not splits(by_label[p])
                         for p in b.preds)
            if not ok:
                conv_in[b.label] = False
                changed = True
    out: dict[int, bool] = {}
    for b in fn.blocks:
        state = conv_in[b.label]
        for i in b.instrs:
            if is_barrier(i):
                out[id(i)] = state
                state = True
    return out


def after_diverged_barrier(fn: ori.Function, diverged: set[str]) -> set[int]:
    """sm_75-89: ids of the sync instructions ptxas does not take as converged after a CTA barrier in
    divergent code (whose WARPSYNC it predicates): the warp-synchronous ops reached from there take their
    slow path, and the first CTA barrier after such a slow path re-converges (WARPSYNC); a CTA barrier
    reached directly ends the state as it is (probes phases/if_arrive_join_*, llvm/named_barriers_red on
    sm_75, nvcc/named_barrier_imm)."""
    by_label = {b.label: b for b in fn.blocks}
    state_in = {b.label: _CLEAN for b in fn.blocks}
    out: set[int] = set()
    work = [b.label for b in fn.blocks]
    while work:
        b = by_label[work.pop()]
        st = state_in[b.label]
        for ins in b.instrs:
            if ops.is_cta_barrier(ins) and ops.warp_op(ins) is None:
                if st == _SLOW:
                    out.add(id(ins))
                st = _DIVERGED if b.label in diverged else _CLEAN
            elif st != _CLEAN and ops.warp_op(ins) is not None:
                out.add(id(ins))
                st = _SLOW
        for s in b.succs:
            if s in by_label and st > state_in[s]:
                state_in[s] = st
                work.append(s)
    return out


def after_nanosleep(fn: ori.Function, consts) -> set[int]:
    """sm_90+ (NANOSLEEP_UNCONVERGES): ids of the warp-synchronous ops that follow a nanosleep in its block with
    no other warp op between (a CTA barrier, a non-aligned barrier.sync too, neither ends the state nor takes
    it): ptxas does not take the warp as converged after the sleep, so that op re-converges it first (`NANOSLEEP;
    WARPSYNC.ALL; VOTE`, `WARPSYNC R; op` for another member mask; the op after it runs plain). A block falls
    into its one successor when that has no other predecessor (a rotated loop's body and bottom). Not across
    other blocks: a warp op after the join of an if whose arm sleeps, after a sleeping loop or in a loop entered after
    a sleep stays plain. Probes warp/nanosleep_then_*; nvcc/warp_intrinsics_divergent poll_with_backoff
    (docs/findings/warp.md "A nanosleep leaves the warp unconverged on sm_90+ (helper nvcg25, stop 25)")."""
    by_label = {b.label: b for b in fn.blocks}
    out: set[int] = set()
    carried: set[str] = set()            # blocks a sleeping straight-line predecessor falls into
    for b in fn.blocks:
        slept = b.label in carried
        for ins in b.instrs:
            if ins.opcode == "nanosleep":
                slept = True
            elif slept and ops.warp_op(ins, consts) is not None and not ops.is_cta_barrier(ins):
                out.add(id(ins))
                slept = False
        nxt = by_label.get(b.succs[0]) if len(b.succs) == 1 else None
        if slept and nxt is not None and straight_on(b, nxt):
            carried.add(nxt.label)        # one straight-line block for ptxas (as a rotated loop's bottom)
    return out


_DIVERGED_OP, _PER_THREAD_OP = 1, 2          # after_divergent_warp_op's taints (bits)


def after_divergent_warp_op(fn: ori.Function, diverged: set[str], uni: Uniformity,
                            permask_taints: bool = False, seeds: frozenset[int] = frozenset()) -> set[int]:
    """ids of the warp-synchronous ops reached from one that runs in divergent code, up to the next CTA
    barrier: ptxas does not take the warp as converged after such an op, even past its region's BSYNC, so
    they too take their divergent form (sm_75-89 slow path, sm_90+ `WARPSYNC.ALL; op`; probes
    phases/div_if_*_then_join_vote_sync, nvcc/syncwarp_masks). With `permask_taints` (sm_80+:
    PER_THREAD_MASK_TAINTS) an op whose member mask differs between lanes taints the ops after it the same
    way, except those with a per-thread mask of their own, which keep their per-mask lowering (probes
    warp/after_permask_*: a later `bar.warp.sync -1` becomes BRA.CONV ~URZ + CALL __cuda_sm70_warpsync + NOP;
    nvcc/cg_block_tiles). `seeds`: ids of further warp ops that run diverged (spin_join_barriers): they are in
    the result and taint the ops after them alike."""
    by_label = {b.label: b for b in fn.blocks}
    dirty_in = {b.label: 0 for b in fn.blocks}
    out: set[int] = set()
    work = [b.label for b in fn.blocks]
    while work:
        b = by_label[work.pop()]
        d = dirty_in[b.label]
        for ins in b.instrs:
            wop = ops.warp_op(ins)
            if wop is not None:
                per_thread = permask_taints and wop.mask is not None and not ops.is_const_mask(wop.mask) \
                    and uni.is_divergent_operand(wop.mask)
                if d & _DIVERGED_OP or d & _PER_THREAD_OP and not per_thread or id(ins) in seeds:
                    out.add(id(ins))
                if b.label in diverged or id(ins) in seeds or (
                        ins.guard is not None and uni.is_divergent_operand(ins.guard)):
                    d |= _DIVERGED_OP
                if per_thread:
                    d |= _PER_THREAD_OP
            elif ops.is_cta_barrier(ins):
                d = 0
        for s in b.succs:
            if s in by_label and d | dirty_in[s] != dirty_in[s]:
                dirty_in[s] |= d
                work.append(s)
    return out


def spin_join_barriers(am, regions, target) -> frozenset[int]:
    """ids of the non-aligned `barrier.sync` that is the first sync instruction at the join of a region whose
    lanes arrive there diverged (ifconvert.arrives_diverged_at_barrier: a spin loop, an if around one). Unlike
    an aligned barrier (which re-converges the warp there), ptxas runs it diverged: below sm_90 its slow path
    (`BRA.CONV; CALL __cuda_sm70_barrier_sync_0`), from sm_90 `WARPSYNC.ALL` or an out-of-line collective; and
    the warp ops and non-aligned barriers after it, around a loop's back edge too, run diverged as after a warp
    op in divergent code (nvcc/cg_grid_sync_jacobi: cooperative groups' grid.sync() is an `if (tid == 0)` spin
    on the arrival counter between two `barrier.sync 0`; probes phases/spin_join_nonaligned_*;
    docs/findings/convergence.md "A spin region's join at a non-aligned barrier.sync runs diverged (helper cg24,
    stop 24)")."""
    out = set()
    for syncs in _spin_join_syncs(am, regions, target):
        if syncs and syncs[0].guard is None and _nonaligned_barrier(syncs[0]):
            out.add(id(syncs[0]))
    if out and target.has("SPIN_JOIN_BARRIER_LOOPS"):
        # sm_75-89: then the non-aligned barriers in loops run diverged too, also a loop before the spin region
        # (nvcc/cg_grid_sync's tree reduction `for (s..) { if (tid < s) ..; barrier.sync 0 }`; probes
        # phases/spin_join_loop_before*: not when the join's barrier is aligned or absent, nor from sm_90)
        out.update(id(i) for b in am.fn.blocks if am.loops.on_cycle(b.label)
                   for i in b.instrs if i.guard is None and _nonaligned_barrier(i))
    return frozenset(out)


def after_aligned_spin_join(am, regions, target) -> set[int]:
    """sm_75-89 (SPIN_JOIN_LATER_BARRIER): ids of the non-aligned `barrier.sync` that is the next sync
    instruction after the aligned barrier (`bar.sync`) starting the join of a spin region, in the same block:
    the aligned barrier re-converges the warp (WARPSYNC; BAR), yet ptxas runs that barrier.sync diverged (its
    slow path) — and nothing after it: a shuffle after it stays plain, so it is no seed of
    after_divergent_warp_op (probes phases/spin_join_aligned_bar_then_nonaligned; docs/findings/convergence.md
    "A spin region's join at a non-aligned barrier.sync runs diverged (helper cg24, stop 24)")."""
    if not target.has("SPIN_JOIN_LATER_BARRIER"):
        return set()
    out = set()
    for syncs in _spin_join_syncs(am, regions, target):
        if len(syncs) >= 2 and syncs[0].guard is None and ops.is_aligned_cta_barrier(syncs[0]) \
                and syncs[0].attrs.mode == "sync" and syncs[1].guard is None and _nonaligned_barrier(syncs[1]):
            out.add(id(syncs[1]))
    return out


def _spin_join_syncs(am, regions, target):
    """For each branch region whose lanes arrive at its join diverged (a spin loop, an if around one): the sync
    instructions of the block the join leads to."""
    by_label = am.blocks
    for r in regions:
        if r.join in by_label and ifconvert.is_branch_region(am, r, target) \
                and ifconvert.arrives_diverged_at_barrier(am, r, target):
            yield [i for i in by_label[R.through_empty(r.join, by_label)].instrs if ops.is_sync(i)]


def _holds_cta_barrier(am, region) -> bool:
    """Does the region's body hold a CTA barrier? Such a region kept as a branch gets no BSSY/BSYNC pair (phase
    72), so the warp reaches a barrier at its join diverged: ptxas re-converges it there (`@!P BRA; ...; BAR.ARV;
    WARPSYNC.ALL; BAR.SYNC`; probes barrier/join_after_kept_arm_*; docs/findings/barrier.md "A barrier at the join
    of a kept arm that holds a barrier (helper nvmisc26, stop 26)")."""
    return any(ops.is_cta_barrier(i) for x in region.body for i in am.blocks[x].instrs)


def _nonaligned_barrier(ins) -> bool:
    return ops.is_cta_barrier(ins) and ops.warp_op(ins) is not None


def _holds_warp_op(am, region, consts, target) -> bool:
    """... or a (may-)spin loop (phase 72 drops such a region's pair at a barrier join)."""
    return any(ops.warp_op(i, consts) is not None for x in region.body for i in am.blocks[x].instrs) or \
        ifconvert.arrives_diverged_at_barrier(am, region, target)


class OptimizeSyncInstructions(Phase):
    number = 71
    name = NAME
    description = "-O1+: mark converged sync ops (no WARPSYNC/slow path), delete no-op bar.warp.sync, per-thread masks"
    knobs = (SYNC_GATE_KNOB,)
    preserves = "cfg"
    _code_changed = True

    def preserved(self) -> str:
        # only `conv`/`permask` marks (read by no analysis) after the analyses were made: they all stay valid
        return "cfg" if self._code_changed else "all"

    def enabled(self, ctx: PassContext) -> bool:
        return sync_gate_open(ctx)

    def run(self, fn: ori.Function, ctx: PassContext) -> bool:
        target = ctx.target
        honoured = target.has("OVERLAP_PRINT_OPTION")
        printing = bool(ctx.options.get("print_potentially_overlapping_membermasks"))
        if printing and not honoured and ctx.module is not None and fn is ctx.module.functions[0]:
            ctx.diags.warn(f"Command line option '{PRINT_OPTION}' not supported for '{ctx.target.name}', will be ignored")
        if ctx.opt_level < OPT_SYNC_FROM:
            return False
        overlap = ctx.options.get("no_membermask_overlap")
        if printing and honoured:
            overlap = False                  # the print option implies the overlap-safe lowering
        self._code_changed = False           # instructions replaced or inserted after the analyses below
        changed = fold_uniform_shuffles(fn, self, ctx)
        am = ctx.analyses(fn)
        if changed:
            am.invalidate("cfg")
        if _drop_unused_collectives(fn, am, self, ctx, R.after_extern_call(fn, ctx.module)):
            changed = True                   # (the analyses below are made after the deletion)
        uni = am.uniformity
        dirty = R.after_extern_call(fn, ctx.module)
        extern_dirty = set(dirty)
        regions = am.regions
        diverged = R.divergent_blocks(regions)
        if target.has("DIVERGED_BARRIER_TAINTS"):
            dirty |= after_diverged_barrier(fn, diverged)
        forms_target = target.has("PER_THREAD_MASK_FORMS")
        # a warp op at the join of a spin region runs diverged (findings/convergence.md 17.1)
        join_ops = [found for r in regions if (found := ifconvert.spin_join_warp_ops(am, r, am.constants, target))]
        spin_joins = frozenset(id(found[0]) for found in join_ops)
        # below sm_90 the warp ops after it run diverged too, up to the next CTA barrier (SPIN_JOIN_WARP_OP_TAINTS:
        # `while (atomicCAS(..) != EMPTY) ..; __syncwarp(); __ballot_sync` keeps the ballot's slow path;
        # docs/findings/convergence.md "The warp op at a spin region's join taints the ops after it below sm_90
        # (helper nvlock32, stop 32)")
        seeds = spin_join_barriers(am, regions, target)
        if target.has("SPIN_JOIN_WARP_OP_TAINTS"):
            seeds = seeds | spin_joins
        dirty |= after_divergent_warp_op(fn, diverged, uni,
                                         target.has("PER_THREAD_MASK_TAINTS") and not forms_target, seeds)
        dirty |= after_aligned_spin_join(am, regions, target)
        if target.has("EXIT_ARMS_DIVERGED"):
            dirty |= first_barriers_of_exit_arms(am)
        # from sm_90 the run of warp ops it starts runs diverged too (ifconvert.spin_join_warp_ops)
        dirty |= {id(w) for found in join_ops for w in found}
        dirty |= warp_ops_of_exit_arms(am, target)
        dirty |= first_syncs_of_kept_exit_arms(am, target)
        # sm_90+ re-converges before an aligned barrier only where the branch really stays a branch
        kept = R.divergent_blocks([r for r in regions if ifconvert.is_kept_region(am, r, target)])
        # a barrier in the divergent if of a uniform loop ptxas pairs for it keeps its WARPSYNC.ALL on sm_90+
        # (regions.diverged_sync_loops; probes phases/loop_pair_diverged_bar)
        kept |= diverged & set().union(*(r.body for r in R.diverged_sync_loops(am, regions, am.constants, to_exit=True)))
        # a region that joins at a barrier gets no BSSY/BSYNC: the warp arrives there diverged, so that
        # barrier re-converges first on every target (nvcc/block_scan, nvcc/reduce_warp_xor_allreduce)
        consts = am.constants
        barrier_joins = {R.through_empty(r.join, am.blocks) for r in regions if r.barrier_join and ifconvert.is_branch_region(am, r, target)
                         and not (ifconvert.is_kept_region(am, r, target) and not _holds_warp_op(am, r, consts, target)
                                  and not _holds_cta_barrier(am, r))}
        # a spin region whose join does memory work (a store, a fence) before its barrier keeps its pair, and the
        # barrier still re-converges the warp (docs/findings/convergence.md "A spin region's join with a fence
        # before its barrier (helper tatom, stop 20)"; probes phases/spin_if_cas_*_bar_join)
        spin_joins = {R.through_empty(r.join, am.blocks) for r in regions if not r.barrier_join
                      and r.join in am.blocks and ifconvert.is_branch_region(am, r, target)
                      and ifconvert.arrives_diverged_at_barrier(am, r, target)}
        exiting_loops = set().union(*R.exiting_divergent_loops(am))
        # warp ops: also the loops whose paths meet only at the kernel's end, and the code their breaks run
        warp_bodies = R.exiting_divergent_loops(am, meet_at_end=True)
        warp_exiting = set().union(*warp_bodies) | R.left_exiting_loops(am, warp_bodies)
        # sm_75: the loop test re-converges such a loop: its warp ops keep a helper without WARPSYNC
        tested = R.tested_exiting_loops(am, warp_bodies) if target.has("EXIT_LOOP_TEST_RECONVERGES") else []
        test_converged = set().union(*tested) | R.left_exiting_loops(am, tested) if tested else set()
        # sm_75-89: with an atomic in the function, a loop header's warp ops keep a never-taken slow path
        loop_heads = R.atomic_loop_heads(am, target) if target.has("ATOMIC_LOOP_HEAD_SLOW_PATH") else set()
        reach = barrier_reach(am, regions, target)
        after_warp_ops = R.barriers_after_divergent_warp_ops(am)
        forms, rewarp = {}, set()
        if forms_target:
            blocks_of = {id(i): b.label for b in fn.blocks for i in b.instrs}

            def per_thread_op(ins, wop):
                return wop.mask is not None and not ops.is_const_mask(wop.mask) and \
                    uni.is_divergent_operand(wop.mask)

            def candidate(ins, wop):
                # a full-mask op in converged code; a per-thread-mask op anywhere (divergent code too:
                # nvcc/cg_labeled_binary_partition) but after an extern call
                label = blocks_of[id(ins)]
                if per_thread_op(ins, wop):
                    return id(ins) not in after_calls
                return id(ins) not in dirty and label not in diverged and label not in warp_exiting and (
                    ins.guard is None or uni.is_uniform(ins.guard))
            after_calls = R.after_extern_call(fn, ctx.module)
            forms, rewarp = PT.per_thread_forms(fn, consts, candidate, per_thread_op,
                                                lambda ins: blocks_of[id(ins)] in diverged,
                                                {R.through_empty(r.join, am.blocks) for r in regions
                                                 if not ifconvert.is_branch_region(am, r, target)}
                                                if target.has("PER_THREAD_MASK_ENTRY_LOCAL") else None)
        if target.has("WARPSYNC_ALL_UNPAIRS"):
            rewarp = rewarp | barriers_after_warpsync_arms(am, target)
        slept = after_nanosleep(fn, consts) if target.has("NANOSLEEP_UNCONVERGES") else set()
        rejoins = not target.has("DIVERGED_BARRIER_TAINTS")
        guarded_resync = guarded_loop_barriers(am, diverged, target)
        last_ampere = None                   # sm_80-89: (kind, mask) of the last member-mask test in layout order
        prev, prev_rejoined = None, False    # the block before in layout; did a barrier re-converge the warp in it
        for b in fn.blocks:
            divergent_block = b.label in diverged
            # a block that only continues the one before it (split by a debug-line label) shares its barriers
            rejoined = prev_rejoined and straight_on(prev, b)
            out: list[ori.Instr] = []
            last_check = None                # (kind, mask value) of the block's last member-mask check
            check_run = (None, 0)            # sm_80-89: (kind, mask value) of the ops checked in a row, how many
            for ins in b.instrs:
                wop = ops.warp_op(ins, consts)
                if not (ops.is_cta_barrier(ins) or wop):
                    if check_run[0] is not None and check_run[0][1] in defs(ins):
                        check_run = (None, 0)            # the mask register is written again
                    out.append(ins)
                    continue
                run, check_run = check_run, (None, 0)
                form = forms.get(id(ins))
                if form is None or form != PT.SLOW_PAIRED or wop is None:
                    last_check = None
                if id(ins) in rewarp:        # a CTA barrier the warp may reach unconverged re-converges first
                    out.append(ins)
                    continue
                if form is not None and form != PT.PLAIN and not ins.attrs.permask and not (
                        wop.mask is not None and not ops.is_const_mask(wop.mask)
                        and uni.is_divergent_operand(wop.mask)):
                    ins.attrs.form = form    # a full-mask op: phase 72 gives it this form
                    self._code_changed = changed = True
                    out.append(ins)
                    continue
                after_call = id(ins) in dirty
                if divergent_block and rejoins and not ins.guard and _after_reconverging_barrier(out, consts):
                    # sm_90+: the warp re-converged (WARPSYNC.ALL) at a CTA barrier earlier in this block: the
                    # sync ops after it run converged (Triton collatz_steps_kernel's bottom-tested loop:
                    # WARPSYNC.ALL BAR REDUX BAR SHFL, no slow paths). A barrier that needs no re-convergence
                    # (BARRIER_RECONVERGES_IN_REGION) does not do that: a shfl after it keeps its WARPSYNC.ALL
                    # (tests/test_check_listing.py's kernel: WARPSYNC.ALL SHFL BAR)
                    divergent_block = False
                converged = not after_call and not divergent_block and (
                    ins.guard is None or uni.is_uniform(ins.guard)) and not (wop and b.label in warp_exiting)
                if converged and id(ins) in slept:
                    # re-converges after a nanosleep: `WARPSYNC.ALL; op`, `WARPSYNC mask; op` (phase 72)
                    ctx.count(self, "warp ops re-converging after a nanosleep")
                    if ops.is_full_mask(wop.mask):
                        ins.attrs.form = PT.INLINE
                        self._code_changed = changed = True
                        out.append(ins)
                        continue
                    converged = False
                if wop is None and divergent_block and not rejoins and not ins.guard and not after_call \
                        and _after_block_barrier(out, consts):
                    # sm_75-89: the barrier before it in this block re-converged the warp (its WARPSYNC) and no warp
                    # op came between: no second WARPSYNC (`bar.sync 1, 128; lds; stg; bar.arrive 3, 128` in one
                    # arm: WARPSYNC BAR.SYNC BAR.ARV; probes/barrier/named_arm_sync_then_arrive; docs/findings/
                    # barrier.md "Barriers after a barrier in a divergent arm (helper nvasync, stop 22)")
                    ins.attrs.conv = True
                    ctx.count(self, "barriers without re-convergence")
                    changed = True
                    out.append(ins)
                    continue
                if wop is None and id(ins) in guarded_resync:
                    out.append(ins)                  # a guarded barrier in a divergent loop re-converges first
                    ctx.count(self, "guarded loop barriers re-converging")
                    continue
                if wop is None:                      # a CTA barrier that is not a warp op
                    if b.label in barrier_joins and all(R.before_join_barrier(i) for i in out):  # first in a barrier join
                        out.append(ins)
                        continue
                    if b.label in spin_joins and not any(ops.is_cta_barrier(i) or ops.warp_op(i, consts) for i in out):
                        out.append(ins)              # the first barrier after a spin region's join
                        continue
                    if not divergent_block and id(ins) in after_warp_ops:
                        out.append(ins)              # the first barrier after a warp op run diverged
                        continue
                    if b.label in exiting_loops and not divergent_block and reach.get(id(ins)) is False:
                        out.append(ins)              # the first barrier on a path from a divergent loop's head
                        continue
                    if converged or (target.has("BARRIER_RECONVERGES_IN_REGION") and not after_call
                                     and b.label not in kept) \
                            or divergent_block and not after_call and reach.get(id(ins)) is True:
                        ins.attrs.conv = True
                        ctx.count(self, "barriers without re-convergence")
                        changed = True
                    out.append(ins)
                    continue
                per_thread = wop.mask is not None and not ops.is_const_mask(wop.mask) and (
                    uni.is_divergent_operand(wop.mask) and not _uniform_here(wop.mask, out, dirty)
                    or _checked_when_diverged(target, overlap) and _unconverged_ballot(wop.mask, am.defuse, dirty))
                if per_thread and converged and target.has("PER_THREAD_MASK_LOOP_SLOW") and am.loops.on_cycle(b.label):
                    # sm_75: in a loop (a uniform one too) the op keeps its slow-path call (`BRA.CONV; CALL
                    # __cuda_sm70_warpsync`); straight-line converged code drops it (docs/findings/convergence.md
                    # "A uniform loop holding a per-thread-mask warp op gets a pair (helper cub24, stop 24)")
                    converged = False
                if per_thread and printing and honoured:
                    ctx.diags.info(OVERLAP_INFO, ins.line)
                tier = _mask_tier(target)
                # sm_80-89: a per-thread-mask op takes the member-mask check in divergent code too (an if arm,
                # a divergent loop: nvcc/warp_aggregated_atomics per_key_aggregate; probes warp/permask_div_*;
                # docs/findings/warp.md "Per-thread masks in divergent code on sm_80-89 (helper isel, stop 23)")
                ampere_check = per_thread and id(ins) not in extern_dirty \
                    and _checked_when_diverged(target, overlap)      # (=true: REDUX.OR there, not modelled)
                head_slow = converged and not per_thread and b.label in loop_heads and not ins.guard \
                    and not ops.is_bar_warp_sync(ins) and ins.op != ops.BARRIER   # (a CTA barrier: plain)
                if head_slow:
                    converged = False                # (docs/findings/warp.md, see regions.atomic_loop_heads)
                    ctx.count(self, "loop-head warp ops keeping a never-taken slow path")
                if not converged and not (per_thread and form == PT.SLOW_PAIRED) and not ampere_check:
                    if not rejoins and not per_thread and not ins.guard and (
                            ops.is_full_mask(wop.mask) and divergent_block
                            and (rejoined or _after_reconverging_barrier(out, consts))
                            or not divergent_block and id(ins) not in extern_dirty
                            and (b.label in test_converged or head_slow)
                            and not ops.is_bar_warp_sync(ins)):     # (a bar.warp.sync keeps its WARPSYNC)
                        # sm_75-89: its slow path needs no WARPSYNC in the helper (phase 72, _unsynced_helpers);
                        # sm_75: also in a loop its convergence test re-converges (EXIT_LOOP_TEST_RECONVERGES),
                        # whatever the member mask (`__activemask()` too)
                        ins.attrs.rejoined = True
                        changed = True
                    out.append(ins)
                    continue
                if not per_thread:
                    if ops.is_bar_warp_sync(ins):
                        out.extend(_elided(ins, wop))
                        ctx.count(self, "bar.warp.sync deleted")
                        changed = self._code_changed = True
                        continue
                    ins.attrs.conv = True
                    if _param_mask_exclusive(wop, am.defuse, target):
                        out.append(ops.pseudo("warpsync", (".exclusive",), (wop.mask,), NAME, ins.line))
                        ctx.count(self, "parameter-mask WARPSYNC.EXCLUSIVE")
                        self._code_changed = True
                    out.append(ins)
                    changed = True
                    continue
                # (reached unconverged, the op keeps its divergent expansion and phase 72 its region's pair)
                ins.attrs.conv = converged or form == PT.SLOW_PAIRED
                changed = True
                action = _PER_THREAD_MASK[(tier, overlap)] if tier is not None else "permask"
                if form == PT.SLOW_PAIRED:
                    # sm_90+: two or more per-thread-mask ops of a kind: the member-mask check, one for ops
                    # whose masks hold the same value in a row
                    key = (_check_kind(wop), PT.value_key(wop.mask, am.defuse))
                    if key != last_check:
                        out.append(ops.pseudo("membermask", (key[0],), (wop.mask,), NAME, ins.line))
                        ctx.count(self, "membermask checks")
                    last_check = key
                    ins.attrs.form = form
                    self._code_changed = True
                if action == "plain" and ops.is_bar_warp_sync(ins):
                    out.extend(_elided(ins, wop))
                    ctx.count(self, "bar.warp.sync deleted")
                    self._code_changed = True
                    continue
                if action == "check":
                    if _checked_once_more(run, wop, tier):
                        check_run = (run[0], run[1] + 1)
                        ctx.count(self, "membermask checks shared by a run")
                    else:
                        key = _run_key(wop)
                        # the test repeated for the same mask reads the active lanes last (sm_80-89 too)
                        # and so does the test of an op in a loop (probes warp/permask_div_loop*)
                        # and so does a test for the mask of the function's last test, in another block
                        # (nvcc/cg_labeled_binary_partition cg_labeled_accumulate: the loop's and the join's)
                        # and a test of a mask a warp collective made before the block, in divergent or
                        # converged code (match.any, ballot: probes warp/div_permask_match_shfl,
                        # div_permask_ballot_*; the join after a match.any leader's atomic: nvcc/v29_warp_ctrl
                        # v29_bucket_leaders, vt33_votes vt33_bucket_insert, probes warp/
                        # div_reciprocal_bssy_divs_match; a loaded mask or one computed in the block is read
                        # after the active lanes: warp/permask_div_arm, div_permask_mask_in_block)
                        again = (".repeat",) if tier == "ampere" and (
                            run[0] == key or last_ampere == key or am.loops.on_cycle(b.label)
                            or not any(wop.mask.name in defs(i) for i in out)
                            and _collective_mask(wop.mask, am.defuse)) else ()
                        last_ampere = key
                        out.append(ops.pseudo("membermask", (key[0],) + again, (wop.mask,), NAME, ins.line))
                        ctx.count(self, "membermask checks")
                        check_run = (key, run[1] + 1 if run[0] == key else 1)
                    self._code_changed = True
                if action != "plain":
                    ins.attrs.permask = True
                out.append(ins)
            b.instrs = out
            prev, prev_rejoined = b, rejoined or _after_reconverging_barrier(out, consts)
        if _drop_mask_only_activemask(fn, am.defuse, target):
            ctx.count(self, "activemask read only as a redux mask deleted")
            changed = self._code_changed = True
        return changed


PHASE = OptimizeSyncInstructions()
