"""Phase 72 LateExpandSyncInstructions: the warp re-convergence ptxas inserts around sync instructions.

Every sync instruction phase 71 did not mark converged (`!conv=1`; at -O0 none is) is expanded here into
class-130 pseudo-ops (`by=LateExpandSyncInstructions`, ISel: isel/fam_sync_pseudo.py):
- an aligned CTA barrier gets `warpsync 0xffffffff` before it (WARPSYNC 0xffffffff / WARPSYNC.ALL);
- a warp-synchronous op (bar.warp.sync, non-aligned barrier.*, vote/shfl/match/... .sync) gets the
  target's divergent-warp form (_FORMS): on sm_75-89 a fast path plus an out-of-line helper
  `$__cuda_sm70_<op>` after EXIT holding `warpsync mask; op` (BRA.CONV/CALL.REL.NOINC); on sm_90+ at -O0
  an inline WARPSYNC.COLLECTIVE ... ENDCOLLECTIVE, from -O1 an inline `warpsync` for full masks (and
  constant partial masks of shfl or of an if region's only warp op) or else an out-of-line collective
  block reached by BRA.DIV;
- a load or fence ptxas does not predicate, under a divergent guard in converged code, gets its own pair
  (ptxas makes it a branch);
- divergent regions get BSSY/BSYNC pairs: at -O0 every region without an aligned CTA barrier, from -O1
  the regions whose warp ops need re-convergence, that hold a warp-aggregated atomic or a non-aligned
  cluster barrier, or that ptxas keeps as a branch (passes/ifconvert.is_kept_region); BMOV.32.CLEAR
  before BSSY on sm_75; .RECONVERGENT on sm_100+ when the region holds no user warp op;
- sm_87 kernels start with the BMOV.32 prologue (findings, phases 99/100), at every -O level.
Rules and probes: docs/findings/phases.md (phase 72), docs/phases/72_LateExpandSyncInstructions.md.
"""
from __future__ import annotations

from collections import Counter

from pylower.lowering import ori
from pylower.lowering import ops
from pylower.lowering import ptx_ast as A

from . import ifconvert
from .analysis import regions as R
from .knobs import OPT_SYNC_FROM, SYNC_GATE_KNOB, sync_gate_open
from .manager import PassContext, Phase

NAME = "LateExpandSyncInstructions"
# what ends a straight-line stretch of a block: control leaves it (a call returns elsewhere in the listing)
_LEAVES_BLOCK = frozenset({"bra", "brx", "ret", "exit", "call"})

# Warp ops whose constant partial mask is handled inline (`WARPSYNC mask; op`) on sm_90+ at -O1+ wherever
# they are (div_if_shfl_sync); the others only as the sole warp op of their divergent region
# (vote_sync_ballot_b32_divergent, redux_sync_add_u32_divergent, elect_sync_divergent), else out of line
# (if/else: div_ifelse_vote_sync_overlap, div_ifelse_bar_warp_sync_*).
_INLINE_PARTIAL_MASK = ("shflsync_",)
# sm_80-89 redux slow path (`__cuda_reduxsync_*`): its helper waits with `WARPSYNC.EXCLUSIVE R` when the mask is
# in a register (always at -O0: redux_sync_add_u32_O0); a constant partial mask also gets `WARPSYNC mask` on the
# fast path (redux_sync_add_u32_divergent); a per-thread mask puts the helper call and the fast path
# (`WARPSYNC.EXCLUSIVE R; op`) each in a pair (redux_sync_add_u32_divreg_mask).
_EXCLUSIVE_HELPER = ("reduxsync_",)
# Per-thread masks on sm_90+: a plain `WARPSYNC R; op` for these, `BSSY; WARPSYNC.EXCLUSIVE R; op; BSYNC`
# for the others (warp.md "divergent reg")
_PLAIN_WARPSYNC_PER_THREAD = ("shflsync_", "warpsync")
# Target features read here (lowering/target.py): WARP_COLLECTIVE (the divergent-warp form: inline
# WARPSYNC.COLLECTIVE ... ENDCOLLECTIVE, else a fast path + out-of-line __cuda_sm70_* helper),
# BMOV_CLEAR_BEFORE_BSSY, BSSY_RECONVERGENT, LOOP_CONVERGENCE_TEST (the back edge of a divergent loop that may
# spin tests the warp: VOTE.ANY + VOTEU.ANY, BRA.U) and BMOV_PROLOGUE (B0 = all lanes, B1..B15 cleared from
# their predecessor, B15 = 0).
_NUM_CONVERGENCE_BARRIERS = 16
# consecutive kept guards (reds, atoms) under one setp-made guard share a branch and pair up to this many: three
# are a pair of two and a pair of one, four two pairs of two (docs/findings/convergence.md "Guarded reds in a
# row: pairs of two, none under predicate logic (helper tri27, stop 27)")
GUARD_PAIR_MAX = 2
# ... and from this many on a pair over the first two and a nest over the rest (probe phases/guard_red_five_same)
GUARD_NEST_FROM = 5
_LOOP_INVERSION = "LoopInversion"       # the `by` of the blocks phase 21 copies


def _mask_operand(wop: ops.WarpOp):
    return ops.imm(ops.FULL_MASK) if wop.mask is None else wop.mask


def _aggregated_atomic(ins: ori.Instr, uni) -> bool:
    """An atom/red to a warp-uniform address: ptxas aggregates it across the warp (VOTEU ... SHFL.IDX),
    which needs a converged warp (div_if_atom_global)."""
    if ins.op != ori.ORI_CLASSES["atomic"]:
        return False
    addr = next((o for o in ins.operands if type(o) is A.Addr), None)
    return addr is not None and uni.is_uniform(addr)


def _unaligned_cluster_barrier(ins: ori.Instr) -> bool:
    """barrier.cluster.arrive/wait without .aligned: its ISel re-converges the warp around it (WARPSYNC.ALL),
    so a divergent region holding it gets a pair (barrier/barrier_cluster_arrive_divergent)."""
    return ins.op == ops.BARRIER and ins.attrs.cluster != "" and ".aligned" not in ins.mods


class _Expander:
    def __init__(self, fn: ori.Function, ctx: PassContext, phase: Phase):
        self.fn, self.ctx, self.phase = fn, ctx, phase
        self.target = ctx.target
        self.reconvergent = ctx.target.has("BSSY_RECONVERGENT")
        # the modifiers of a BREAK nest's inner pair and its BREAKs (store runs, guard runs, unrolled count-downs)
        self.break_mods = (".reliable",) if ctx.target.has("BREAK_LOOP_RELIABLE") else ()
        self.o0 = ctx.opt_level < OPT_SYNC_FROM
        self.form = "collective" if ctx.target.has("WARP_COLLECTIVE") else "helper"
        self.am = ctx.analyses(fn)
        self.uni = self.am.uniformity
        self.after_call = R.after_extern_call(fn, ctx.module)
        self.after_warp_ops = R.barriers_after_divergent_warp_ops(self.am)   # before the expansion
        self.regions = self.am.regions
        self.region_of = R.innermost_map(self.regions)
        self.consts = self.am.constants
        self._ops_per_block: dict[str, int] = {}
        self.paired: list[R.Region] = []
        self._paired_keys: set = set()               # _value_key of each paired region (membership in O(1))
        self._forms: dict[str, dict[int, str]] = {}   # block -> _run_forms (shared by the blocks of a _chain)
        self._chains: dict[str, list[str]] | None = None   # block -> the blocks if-conversion makes one with it
        self._loop_blocks: set | None = None         # blocks in loop regions; block -> regions holding it
        self._holding: dict | None = None
        self._slow_blocks: list[str] = []          # blocks where a warp op took its out-of-line collective
        self._exiting: list[frozenset] | None = None    # bodies of divergent loops that exit the kernel
        self.ool: list[ori.BasicBlock] = []          # out-of-line blocks, placed after EXIT
        self.helpers: dict[str, str] = {}
        self._synced_helpers: set[str] = set()        # helpers a call site needs the WARPSYNC of
        self.joins = 0                                # reconvergence points made for single expansions
        self.span, self.kinds = self._count_kinds()
        # block -> Counter of its warp ops by kind, before the expansion rewrites them (_loop_kind_ops)
        self._kinds_per_block = {b.label: Counter(
            _count_kind(w) for i in b.instrs for w in (ops.warp_op(i, self.consts),)
            if w is not None and not i.attrs.conv and not _implicit(i)) for b in fn.blocks}
        self._mask_loop_latches: set[str] = set()    # latches of _per_thread_mask_loops that test the warp
        self._diverged_sync_loops: dict[tuple, bool] = {}   # loops paired for a diverged sync op -> .RECONVERGENT
        self._user_op: set[str] = set()              # blocks holding a user warp op before the expansion
        self._spin_first: set[int] = set()           # the first warp op of each spin region's join (run())
        self._warp_barrier_syncs: set[int] = set()   # the WARPSYNC.ALL a full-mask bar.warp.sync became (warp())
        self._kept_pairs: list[R.Region] = []         # the pairs before a barrier or WARPSYNC.ALL replaces some (_break_nests)
        self._nest_keys: dict[tuple, str] = {}       # unrolled count-down nests: value key -> the BREAK's block
        self._nest_depth: dict[tuple, int] = {}      # ... -> the depth of its pair (_insert_pairs)
        self._escape_keys: set[tuple] = set()        # value keys of the escape nests' pairs (_escape_nests)
        self._barrier_bodies: set[str] = set()       # blocks holding an aligned CTA barrier (run())

    def _count_kinds(self) -> tuple[dict[int, int], Counter]:
        """({id(op): span}, Counter of (span, kind)): the warp ops still to expand, by kind (their
        `__cuda_sm70_<helper>`), counted per span of the layout between re-convergence points: a CTA barrier
        or a full-mask warp op outside the divergent regions (its WARPSYNC.ALL, or the warp already converged).
        Two ifs each with one `shfl.bfly %m` in a row: both out of line; with a `vote.sync -1` between them:
        both inline (probes warp/div_partial_seq_ifs*; nvcc/syncwarp_masks)."""
        diverged = R.divergent_blocks(self.regions)
        # the ops at a spin region's join run diverged: none of them closes a span (docs/findings/convergence.md
        # "A run of collectives at a spin region's join keeps the pair (helper nvws32, stop 32)")
        spin_run = {id(w) for r in self.regions for w in ifconvert.spin_join_warp_ops(self.am, r, self.consts,
                                                                                      self.target)[:-1]} \
            if self.target.has("SPIN_JOIN_WARP_OP_RECONVERGES") else set()
        span, kinds, k = {}, Counter(), 0
        for b in self.fn.blocks:
            for i in b.instrs:
                w = ops.warp_op(i, self.consts)
                if w is None:
                    k += ops.is_cta_barrier(i)
                    continue
                if not i.attrs.conv and not i.attrs.form and not _implicit(i):
                    span[id(i)] = k
                    kinds[k, _count_kind(w)] += 1
                if ops.is_full_mask(w.mask) and b.label not in diverged and id(i) not in spin_run and (
                        i.guard is None or self.uni.is_uniform(i.guard)):
                    k += 1
        return span, kinds

    def _kind_count(self, ins: ori.Instr, wop: ops.WarpOp) -> int:
        return self.kinds[self.span.get(id(ins)), _count_kind(wop)]

    def _warp_ops_in(self, b: ori.BasicBlock) -> int:
        n = self._ops_per_block.get(b.label)
        if n is None:
            n = self._ops_per_block[b.label] = sum(
                1 for i in b.instrs if ops.warp_op(i, self.consts) is not None and not i.attrs.conv
                and not _implicit(i))
        return n

    def p(self, opcode, mods=(), operands=(), line=0, **attrs) -> ori.Instr:
        return ops.pseudo(opcode, mods, operands, NAME, line, **attrs)

    def _pair(self, region: R.Region | None) -> None:
        if region is not None:
            key = _value_key(region)
            if key not in self._paired_keys:         # regions are compared by value (record equality)
                self._paired_keys.add(key)
                self.paired.append(region)

    def _join_reconverges(self, region: R.Region | None) -> bool:
        """sm_90+: does a full-mask warp op in the region's join block, before any branch or CTA barrier,
        re-converge the warp there (its `WARPSYNC.ALL`)? Then a partial-mask op's region needs no pair of its
        own: `if (lane < 16) { __syncwarp(0xffff) }; __ballot_sync(-1, ..)` is `WARPSYNC R; WARPSYNC.ALL;
        VOTE.ANY` with no BSSY, a plain store at the join keeps the pair (nvcc/syncwarp_masks; probes
        warp/pm_join_*; docs/findings/warp.md "A full-mask warp op at the join re-converges a partial-mask
        region (helper cg, stop 20)")."""
        if region is None or region.kind != "if" or not self.target.has("WARPSYNC_ALL_UNPAIRS"):
            return False
        join = next((b for b in self.fn.blocks if b.label == region.join), None)
        if join is None or self._in_loop_region(join.label):
            return False
        for i in join.instrs:
            wop = ops.warp_op(i, self.consts)
            if wop is not None:
                return not i.attrs.conv and ops.is_full_mask(wop.mask)
            if i.opcode in _LEAVES_BLOCK or ops.is_cta_barrier(i):
                return False
        return False

    def _first_warp_op(self, b: ori.BasicBlock) -> ori.Instr | None:
        """The block's first warp op still to expand (the block as the builder left it)."""
        return next((i for i in b.instrs if ops.warp_op(i, self.consts) is not None and not i.attrs.conv), None)

    def _exiting_loops(self) -> list[frozenset]:
        if self._exiting is None:
            self._exiting = R.exiting_divergent_loops(self.am, meet_at_end=True)
        return self._exiting

    def _loop_ops(self, label: str) -> int:
        """Warp ops (counted before expansion) in the innermost divergent loop holding the block: with
        several, each runs its out-of-line collective when diverged, even in different blocks
        (probes/warp/divloop_two_warpsync_inner_loop)."""
        loops = [r.body for r in self.am.region_holders.get(label, ()) if r.kind == "loop"] + \
            [x for x in self._exiting_loops() if label in x]
        if not loops:
            return 0
        body = min(loops, key=len)
        return sum(self._warp_ops_in(x) for x in self.fn.blocks if x.label in body)

    def _loop_kind_ops(self, label: str, wop: ops.WarpOp) -> int:
        """Warp ops of wop's kind (_count_kind) in the innermost divergent loop holding the block (0 outside
        loops). ptxas counts a loop's ops by kind, as _count_kinds counts a span: an op that is the one of its
        kind in the loop gets the inline WARPSYNC.ALL (which re-converges the warp for the ops after it in its
        block), two of one kind each run their collective when diverged, whatever the other kinds
        (docs/findings/warp.md "In a divergent loop warp ops are counted by kind (helper w2loopws, stop 27)";
        probes warp/divloop_kinds_*)."""
        body = self._loop_body(label)
        if body is None:
            return 0
        kind = _count_kind(wop)
        return sum(self._kinds_per_block[x.label][kind] for x in self.fn.blocks if x.label in body)

    def _loop_body(self, label: str):
        loops = [r.body for r in self.am.region_holders.get(label, ()) if r.kind == "loop"] + \
            [x for x in self._exiting_loops() if label in x]
        return min(loops, key=len) if loops else None

    def _warp_op_before(self, b: ori.BasicBlock) -> bool:
        """A warp op earlier on the straight-line chain of blocks ending at b (one predecessor, whose one
        successor is b: ptxas's block after an unrolled loop; llvm/warp_aggregated syncwarp_transpose)."""
        by_label, seen = self.am.blocks, {b.label}
        while len(b.preds) == 1 and b.preds[0] not in seen:
            p = by_label[b.preds[0]]
            if len(p.succs) != 1:
                return False
            if self._warp_ops_in(p):
                return True
            seen.add(p.label)
            b = p
        return False

    def _sole_op_of(self, region: R.Region | None) -> bool:
        """The region holds exactly one warp op (counted before expansion)."""
        return region is not None and region.kind == "if" and \
            sum(self._warp_ops_in(b) for b in self.fn.blocks if b.label in region.body) == 1

    def _kept_without_warp_op(self, region: R.Region) -> bool:
        """A region ptxas keeps as a branch for what it holds (not for a warp op, nor for a loop nested in an
        if): it keeps its pair when it joins at a CTA barrier (ifconvert_loop_alu_bar, ifconvert_load_bar;
        an if around a spin loop, or a spin loop, re-converges at the barrier: ifconvert_spin_*_bar)."""
        if ifconvert.arrives_diverged_at_barrier(self.am, region, self.target):
            return False
        # the barrier re-converges the warp anyway after a warp op run diverged before the region: no pair
        # (docs/findings/convergence.md "The first barrier after a divergent warp op re-converges (helper
        # nvcub25, stop 25)")
        bar = R.join_barrier(region.join, self.am.blocks)
        if bar is not None and id(bar) in self.after_warp_ops:
            return False
        return ifconvert.is_kept_region(self.am, region, self.target) and not any(
            self._warp_ops_in(b) for b in self.fn.blocks if b.label in region.body)

    def _kept_for_later_predicated_branch(self, region: R.Region) -> bool:
        """sm_75-89: a region paired for its warp ops that joins at a CTA barrier keeps its pair (BSSY ...
        BSYNC WARPSYNC BAR) when, after the join, a branch ptxas predicates (a divergent if it does not keep,
        or a guarded load or store) is followed by another CTA barrier: `if (tid < 32) { shfl.up x5 };
        bar.sync; if (tid < 16) { lds; sts }; bar.sync` (CUB's radix down-sweep). Without the later barrier,
        with a kept branch there, or with only a guarded ALU op, the barrier's WARPSYNC re-converges it alone.
        docs/findings/convergence.md "A warp-op region joining at a barrier keeps its pair before a later
        predicated if (helper cub, stop 22)"; probes warp/bar_join_pair_*."""
        if not self.target.has("BAR_JOIN_PAIR_BEFORE_PREDICATED_IF") or region.kind != "if":
            return False
        by = self.am.blocks
        if not any(self._warp_ops_in(by[x]) for x in region.body if x in by):
            return False
        heads = {r.head: r for r in self.regions if r.kind == "if"}
        stop = set(region.body) | {region.head}
        start = R.through_empty(region.join, by)
        order, seen = [start], {start}
        for label in order:                       # the blocks reachable from the join, outside the region
            for s in by[label].succs:
                if s not in seen and s not in stop and s in by:
                    seen.add(s)
                    order.append(s)

        # the blocks (of those) from whose start a CTA barrier is reachable, outside the region
        last_bar = {x: max((k for k, i in enumerate(by[x].instrs) if ops.is_cta_barrier(i)), default=-1)
                    for x in order}
        reaches = {x for x in order if last_bar[x] >= 0}
        grown = True
        while grown:
            grown = False
            for x in reversed(order):
                if x not in reaches and any(s in reaches for s in by[x].succs):
                    reaches.add(x)
                    grown = True

        def barrier_after(label: str, index: int) -> bool:
            return last_bar.get(label, -1) >= index or any(s in reaches for s in by[label].succs)

        for label in order:
            b = by[label]
            for k, ins in enumerate(b.instrs):
                if ins.guard is not None and ins.opcode in ("ld", "st") and barrier_after(label, k + 1):
                    return True
            r = heads.get(label)
            if r is not None and r is not region and not ifconvert.is_kept_region(self.am, r, self.target) \
                    and by.get(r.join) is not None and barrier_after(r.join, 0):
                return True
        return False

    def _in_loop_region(self, label: str) -> bool:
        if self._loop_blocks is None:
            self._loop_blocks = {x for r in self.regions if r.kind == "loop" for x in r.body}
        return label in self._loop_blocks

    def _regions_holding(self, label: str) -> int:
        if self._holding is None:
            self._holding = {}
            for r in self.regions:
                for x in r.body:
                    self._holding[x] = self._holding.get(x, 0) + 1
        return self._holding.get(label, 0)

    def _helper(self, ins: ori.Instr, wop: ops.WarpOp) -> str:
        """The out-of-line `__cuda_sm70_<op>` slow path: a block after EXIT (one per op kind and function),
        or with -c a function of its own (one per module; call_extern_then_shfl_sync)."""
        if not (ins.attrs.rejoined and not self.o0):        # (phase 71 sets it for full masks but in sm_75's tested loops)
            self._synced_helpers.add(wop.helper)
        label = self.helpers.get(wop.helper)
        if label is not None:
            return label
        exclusive = wop.helper.startswith(_EXCLUSIVE_HELPER) and (self.o0 or not ops.is_const_mask(wop.mask))
        body = [self.p("warpsync", (".exclusive",) if exclusive else (), (_mask_operand(wop),), ins.line)]
        if wop.inline:
            body.append(ops.clone(ins, NAME, copy=1))
        body.append(self.p("ret_helper", line=ins.line))
        module = self.ctx.module
        if self.ctx.options.get("compile_only") and module is not None:
            label = f"__cuda_sm70_{wop.helper}"
            if module.function(label) is None:
                decl = A.Function(".func", (), label, ())
                module.functions.append(ori.Function(decl, [], [ori.BasicBlock("$entry", body)]))
        else:
            label = f"$__internal_{len(self.helpers)}_$__cuda_sm70_{wop.helper}"
            self.ool.append(ori.BasicBlock(label, body))
        self.helpers[wop.helper] = label
        self.ctx.count(self.phase, "slow-path helpers")
        return label

    def _unsynced_helpers(self) -> None:
        """sm_75-89: a helper whose every call site runs after the CTA barrier that re-converged its block's warp
        (phase 71's `rejoined`: `WARPSYNC; BAR; BRA.CONV ~URZ; CALL ...`) starts without a WARPSYNC (Triton
        collatz_steps_kernel's REDUX and SHFL.BFLY helpers; probes phases/helper_after_barrier_*; docs/findings/
        convergence.md "A slow path after a re-converging barrier needs no WARPSYNC (helper tred26, stop 26)")."""
        for helper, label in self.helpers.items():
            if helper in self._synced_helpers:
                continue
            for b in self.ool:
                if b.label == label and b.instrs and b.instrs[0].opcode == "warpsync" and not b.instrs[0].mods:
                    del b.instrs[0]

    def _number_helpers(self) -> None:
        """ptxas numbers and places a function's `__cuda_sm70_*` helpers in the alphabetical order of their
        names, not in order of first use (nvcc/syncwarp_masks: votesync_ballot before the earlier warpsync;
        nvcc/cg_block_tiles, cg_coalesced, reduce_cub_block)."""
        kinds = {label: helper for helper, label in self.helpers.items()}
        slots = [k for k, b in enumerate(self.ool) if b.label in kinds]
        blocks = sorted((self.ool[k] for k in slots), key=lambda b: kinds[b.label])
        rename = {}
        for n, (k, b) in enumerate(zip(slots, blocks)):
            rename[b.label] = f"$__internal_{n}_$__cuda_sm70_{kinds[b.label]}"
            self.ool[k] = ori.BasicBlock(rename[b.label], b.instrs)
        for b in self.fn.blocks:
            for ins in b.instrs:
                if any(type(o) is A.Sym and o.name in rename for o in ins.operands):
                    ins.operands = tuple(A.Sym(rename[o.name]) if type(o) is A.Sym and o.name in rename else o
                                         for o in ins.operands)

    def _collective(self, ins: ori.Instr, wop: ops.WarpOp, out_of_line: bool) -> list[ori.Instr]:
        mods = (".collective",) + ((".all",) if wop.mask is None else ())
        site = {} if wop.inline or out_of_line else {"coop": 1}
        seq = [self.p("warpsync", mods, () if wop.mask is None else (wop.mask,), ins.line, **site)]
        if wop.inline:
            # a barrier inside a collective (inline at -O0, or out of line) takes its id from a register
            # (regid: `BAR.SYNC.DEFER_BLOCKING R4, R4`; probes warp/div_full_*barrier*)
            extra = ({"copy": 1} if out_of_line else {}) | ({"regid": 1} if ops.is_cta_barrier(ins) else {})
            seq.append(ops.clone(ins, NAME, **extra))
        seq.append(self.p("endcollective", line=ins.line))
        return seq

    def warp(self, b: ori.BasicBlock, ins: ori.Instr, wop: ops.WarpOp, region) -> list[ori.Instr]:
        """The expansion of one warp-synchronous op that may run with the warp diverged."""
        ctx, line = self.ctx, ins.line
        fast = [ins] if wop.inline else []
        # EIATTR_COOP_GROUP entries: one for the op's site (the op itself when it stays inline, else the
        # pseudo-op standing in for it) and one for a slow path
        if _implicit(ins):
            # the sync an aligned op implies is part of that op: a plain WARPSYNC.ALL, no EIATTR entry, and
            # it does not count among the warp ops of its span (async/tensormap_cp_fenceproxy_guard_after_bar_warp_sync)
            return [self.p("warpsync", (), (ops.imm(ops.FULL_MASK),), line)]
        # a folded uniform shuffle's sync (phase 71 `_kept_warp_sync`) lists only its slow path, as the shuffle did
        site = {} if wop.inline or ops.is_bar_warp_sync(ins) and ins.attrs.folded else {"coop": 1}
        permask = ins.attrs.permask
        after_call = id(ins) in self.after_call
        ctx.count(self.phase, "warp ops expanded")
        if self.form == "helper":
            label = self._helper(ins, wop)
            conv = [self.p("bra_conv", (), (A.Sym(label),), line)] if wop.inline else []
            if not permask or not ins.attrs.conv:      # (a checked op reached unconverged keeps its pair)
                self._pair(region)
            call = [self.p("call_helper", (), (A.Sym(label),), line, coop_slow=1, **site)]
            if wop.helper.startswith(_EXCLUSIVE_HELPER) and not self.o0:
                if permask:
                    call = self._wrap_pair(call, line)
                    fast = self._wrap_pair([self.p("warpsync", (".exclusive",), (wop.mask,), line)] + fast, line)
                elif not ops.is_full_mask(wop.mask):
                    fast = [self.p("warpsync", (), (wop.mask,), line)] + fast
            return conv + call + fast
        if self.o0:
            seq = self._collective(ins, wop, False)
            per_thread = wop.mask is not None and self.uni.is_divergent_operand(wop.mask)
            if per_thread or self._in_loop_region(b.label):
                seq = self._wrap_pair(seq, line, depth=self._regions_holding(b.label))
            return seq
        form = ins.attrs.form                 # phase 71's choice around per-thread masks (PER_THREAD_MASK_FORMS)
        if form in ("slow", "slow_paired"):
            return self._out_of_line(b, ins, wop, region, site, fast, form == "slow_paired")
        if form == "inline":
            # a warp-uniform register mask (an activemask read in converged code) stays the register:
            # `WARPSYNC R; MATCH.ANY` (nvcc/v34_reduce_sync v34r_match_reduce; variations collective_mask_entry)
            mask = wop.mask if wop.mask is not None and not ops.is_const_mask(wop.mask) and \
                self.target.has("INLINE_REGISTER_MASK_WARPSYNC") else ops.imm(ops.FULL_MASK)
            return [self.p("warpsync", (), (mask,), line, **site)] + fast
        if permask:
            if wop.helper.startswith(_PLAIN_WARPSYNC_PER_THREAD):
                return [self.p("warpsync", (), (wop.mask,), line, **site)] + fast
            return self._wrap_pair([self.p("warpsync", (".exclusive",), (wop.mask,), line, **site)] + fast,
                                   line, self.reconvergent)
        # ptxas inlines a warp op's helper (`WARPSYNC.ALL; op`, `WARPSYNC mask; op` for a partial mask: a
        # constant or a warp-uniform register) when it is the one op of its kind between two re-convergence
        # points, else each runs its out-of-line collective (BRA.DIV) when diverged: if/else with two votes
        # of one kind (div_ifelse_vote_sync_overlap) or two non-aligned barriers, two ifs in a row each with a
        # `vote.sync -1` (probes warp/div_full_*), but `ballot` and `any` (div_ifelse_vote_sync), `bfly; down`
        # or `vote; shfl` (warp/div_partial_*) inline; nvcc/syncwarp_masks, cg_tiled_partition_sizes. In a
        # block, a WARPSYNC.ALL re-converges the warp for the ops after it (_run_forms).
        several = self._chain_ops(b.label) > 1 or self._loop_ops(b.label) > 1
        run_form = None
        if several and not after_call and self.target.has("LONE_WARP_OP_WARPSYNC_ALL"):
            run_form = self._run_forms(b).get(id(ins))
            if run_form == "warpsync":
                if self._keeps_loop_join_pair(b, ins, wop):
                    return fast
                return [self.p("warpsync", (), (ops.imm(ops.FULL_MASK),), line, **site)] + fast
            if run_form == "converged":
                return fast
        if not after_call and run_form != "run" and self._kind_count(ins, wop) == 1 and (
                self._loop_ops(b.label) <= 1 or self._loop_kind_ops(b.label, wop) <= 1
                and self.target.has("LONE_WARP_OP_WARPSYNC_ALL") and ops.is_full_mask(wop.mask)):
            if ops.is_full_mask(wop.mask):
                if self._keeps_loop_join_pair(b, ins, wop):
                    return fast
                sync = self.p("warpsync", (), (ops.imm(ops.FULL_MASK),), line, **site)
                if ops.is_bar_warp_sync(ins):
                    self._warp_barrier_syncs.add(id(sync))
                # its WARPSYNC.ALL re-converges the loop as a CTA barrier does, unless the loop has a second
                # exit before it (probes warp/loop_two_exit_*; R.exits_before_barrier)
                if region is not None and region.kind == "loop" and R.exits_before_barrier(
                        self.am, region, lambda i: i is ins or ops.is_aligned_cta_barrier(i)):
                    self._pair(region)          # sm_100+ .RECONVERGENT (a barrier's loop stays plain)
                    self._diverged_sync_loops.setdefault(_value_key(region), not any(
                        ops.is_aligned_cta_barrier(i) for x in region.body for i in self.am.blocks[x].instrs))
                return [sync] + fast
            if not self._join_reconverges(region):
                self._pair(region)
            return [self.p("warpsync", (), (wop.mask,), line, **site)] + fast
        label = f"$__collective_{len(self.ool)}"
        body = self._collective(ins, wop, True)
        # in a divergent loop the slow path that starts at a block's first warp op re-converges after its
        # collective: BSSY Bn ; WARPSYNC.COLLECTIVE ; ENDCOLLECTIVE ; BSYNC Bn (probes/warp/divloop_two_warpsync*)
        # ... and so does a bar.warp.sync that starts a join block (several predecessors) outside loops: numba
        # syncwarp_partial's `bar.warp.sync 0xffff` at an inner if's join and `bar.warp.sync -1` at the outer
        # one's (shuffles there do not: nvcc/reduce_warp_xor_allreduce) (docs/findings/warp.md "A collective at a join re-converges after it (helper llvmnb, stop 22)")
        in_loop = self._in_loop_region(b.label) or any(b.label in x for x in self._exiting_loops())
        at_join = len(b.preds) > 1 and ins.opcode == "bar" and ".warp" in ins.mods
        # ... and so does the first op of a spin region's join, whose lanes arrive diverged (docs/findings/
        # convergence.md "A run of collectives at a spin region's join keeps the pair (helper nvws32, stop 32)")
        at_join = at_join or id(ins) in self._spin_first
        first = self._first_warp_op(b) is ins and not self._warp_op_before(b)
        if (in_loop or at_join) and first or self._ends_arm(b, ins, region) \
                or first and self._after_slow_path(b.label, own=not ops.is_const_mask(wop.mask)):
            body = self._wrap_pair(body, line, depth=self._regions_holding(b.label))
        self._slow_blocks.append(b.label)
        body = body + [self.p("bra_back", line=line)]
        self.ool.append(ori.BasicBlock(label, body))
        self._pair(region)
        return [self.p("bra_div", (), (A.Sym(label),), line, coop_slow=1, **site)] + fast

    def _after_slow_path(self, label: str, own: bool = False) -> bool:
        """sm_90+ (SLOW_PATH_AFTER_SLOW_PATH_PAIRED): is the block reached from another block where a warp op took
        its out-of-line collective, with no CTA barrier on the way? The first collective of its own slow path then
        re-converges in a pair (`BSSY; WARPSYNC.COLLECTIVE; op; ENDCOLLECTIVE; BSYNC; ...` for the first op of
        the run, the rest plain): the second warp reduction of a softmax or of a two-row layer norm, an early
        exit after an if holding a run of shuffles (tools/variations/collective_run_pair.py; docs/findings/
        warp.md "A collective slow path reached from another one re-converges in a pair (helper nvcoll35,
        stop 35)"). An earlier inline op (`WARPSYNC.ALL; op`) does not count, nor one in a sibling arm, nor one in
        a block ptxas makes one with this (_chain: probes warp/warpsync_all_run_pred_if_nosync). `own`: the
        block's own slow path counts around a loop (an op over a register mask, `__any_sync(__activemask(), ..)` in
        vt33_any_skip's loops; a full-mask run in a loop stays unpaired: nvcc/w27_cg_tiles w27_cg_reduce_scan)."""
        if not self.target.has("SLOW_PATH_AFTER_SLOW_PATH_PAIRED"):
            return False
        by = self.am.blocks
        chain = set(self._chain(label))        # blocks ptxas makes one with it (the ifs it predicates between)
        for src in dict.fromkeys(self._slow_blocks + [label]):
            if src == label and not own or src != label and src in chain:
                continue
            seen, work = set(), list(by[src].succs) if src in by else []
            while work:
                x = work.pop()
                if x in seen or x not in by:
                    continue
                seen.add(x)
                if x == label:
                    return True
                if any(ops.is_cta_barrier(i) for i in by[x].instrs):
                    continue
                work.extend(by[x].succs)
        return False

    def _keeps_loop_join_pair(self, b: ori.BasicBlock, ins: ori.Instr, wop: ops.WarpOp) -> bool:
        """Pair the if region of _loop_join_kept_pair instead of giving `ins` its WARPSYNC.ALL; False if there is none."""
        kept = self._loop_join_kept_pair(b, ins, wop)
        if kept is not None:
            self._pair(kept)
        return kept is not None

    def _loop_join_kept_pair(self, b: ori.BasicBlock, ins: ori.Instr, wop: ops.WarpOp) -> R.Region | None:
        """sm_90+ (LOOP_JOIN_PAIR_BEFORE_PREDICATED_WORK): the if region whose join `ins` (a lone full-mask op
        about to take `WARPSYNC.ALL; op`) starts, when ptxas keeps that if's pair instead and runs the op plain
        after its BSYNC: the if is in a divergent loop, holds no warp op and stays a branch (it holds a
        warp-aggregated atomic, or ifconvert keeps it: a per-lane atomic, ...), a warp op earlier in the loop
        body comes before its branch (the warp enters the if converged), and after the op
        the join block does work guarded by a per-lane predicate (a guarded instruction, or a forward branch
        ptxas predicates). `for (..; i < n; ..) { m = ballot(x != 0); if (lane == 0) b = atomicAdd(c, popc(m));
        b = shfl(b, 0); if (x != 0) out[b + ..] = x; }` is `WARPSYNC.ALL VOTE.ANY BSSY VOTEU.ANY ATOMG SHFL.IDX
        BSYNC SHFL.IDX`; without the guarded store, or with no warp op before the if, `... WARPSYNC.ALL SHFL.IDX`
        (_join_runs_warpsync_all). tools/variations/loop_lane0_join_op.py; docs/findings/warp.md "A warp op before
        a loop's lane-0 if and guarded work after its join keep the if's pair (helper nvvote34, stop 34)"."""
        if not self.target.has("LOOP_JOIN_PAIR_BEFORE_PREDICATED_WORK") or ins.guard is not None \
                or not ops.is_full_mask(wop.mask) or self._first_warp_op(b) is not ins:
            return None
        body = self._loop_body(b.label)
        if body is None:
            return None
        by, uni, dom = self.am.blocks, self.uni, self.am.dom
        region = next((r for r in self.regions if r.kind == "if" and r.head in body
                       and R.through_empty(r.join, by) == b.label), None)
        if region is None or any(self._warp_ops_in(by[x]) for x in region.body if x in by) or not (
                any(_aggregated_atomic(i, uni) for x in region.body if x in by for i in by[x].instrs)
                or ifconvert.is_kept_region(self.am, region, self.target)):
            return None
        if not any(self._warp_ops_in(by[x]) and (x == region.head or dom.dominates(x, region.head))
                   for x in body if x in by and x not in region.body):
            return None
        heads = self.am.loops.headers
        after = b.instrs[b.instrs.index(ins) + 1:]
        for i in after:
            if i.guard is None or not uni.is_divergent_operand(i.guard):
                continue
            if i.opcode != "bra":
                return region
            target = next((o.name for o in i.operands if type(o) is A.Sym), None)
            if target is not None and target in body and target not in heads and target != b.label:
                return region
        return None

    def _ends_arm(self, b: ori.BasicBlock, ins: ori.Instr, region) -> bool:
        """Is `ins` a bar.warp.sync ending an if region's arm, after another warp op of its block, its fast path
        going straight on to the region's BSYNC? Its slow path re-converges in a pair of its own (`BSSY B1;
        WARPSYNC.COLLECTIVE; ENDCOLLECTIVE; BSYNC B1; BRA back`; nvcc/reduce_smem_unrolled's last `__syncwarp()`,
        probes warp/collective_ends_arm*; an arm's only warp op has none: phases/div_ifelse_bar_warp_sync_disjoint;
        docs/findings/warp.md "A collective that ends an arm re-converges in a pair (helper nvatom, stop 23)")."""
        if region is None or region.kind != "if" or not b.instrs or b.instrs[-1] is not ins or len(b.succs) != 1 \
                or self._first_warp_op(b) is ins or not (ins.opcode == "bar" and ".warp" in ins.mods):
            return False            # a run of shuffles shares one slow path (probes warp/div_partial_reg_two_bfly)
        by = self.am.blocks
        return R.through_empty(b.succs[0], by) == R.through_empty(region.join, by)

    def _chain(self, label: str) -> list[str]:
        """The blocks ptxas's if-conversion makes one with `label`: from a block, over each divergent if it
        predicates (not kept, no warp op nor CTA barrier inside) to its join, in layout order. A WARPSYNC.ALL
        re-converges the warp for the ops after it across such ifs as in one block (CUB's argmax warp
        reduction on sm_90+: `__syncwarp(); shfl.down x2; if (lane <= 30) {compare}; shfl.down x2; ...` is
        `WARPSYNC.ALL SHFL.DOWN x10`, no collectives; docs/findings/convergence.md "A WARPSYNC.ALL re-converges
        across the ifs ptxas predicates (helper cub, stop 22)"; probes warp/warpsync_all_run_pred_if*)."""
        if self._chains is None:
            by = self.am.blocks
            heads = {r.head: r for r in self.regions if r.kind == "if"}
            self._chains = {}
            for blk in self.fn.blocks:
                if blk.label in self._chains:
                    continue
                chain = [blk.label]
                self._chains[blk.label] = chain
                r = heads.get(blk.label)
                while r is not None and not ifconvert.is_kept_region(self.am, r, self.target) and not any(
                        x not in by or self._warp_ops_in(by[x]) or any(ops.is_cta_barrier(i) for i in by[x].instrs)
                        for x in r.body):
                    nxt = R.through_empty(r.join, by)
                    if nxt in self._chains or nxt not in by:
                        break
                    chain.append(nxt)
                    self._chains[nxt] = chain
                    r = heads.get(nxt)
        return self._chains.get(label, [label])

    def _chain_ops(self, label: str) -> int:
        by = self.am.blocks
        return sum(self._warp_ops_in(by[x]) for x in self._chain(label))

    def _run_forms(self, b: ori.BasicBlock) -> dict[int, str]:
        """sm_90+: the warp ops of a block (not in a loop) in runs of one kind (shfl.up, shfl.idx, vote.ballot,
        ...). A run of two or more takes the collective slow path (BRA.DIV); a lone op (the one of its kind
        between re-convergence points, _count_kinds) gets WARPSYNC.ALL, which re-converges the warp, so every
        op after it in the block runs plain (probes warp/run_*: `up; up; idx` -> `BRA.DIV SHFL.UP SHFL.UP WARPSYNC.ALL SHFL.IDX`, `up; idx` -> `WARPSYNC.ALL SHFL.UP SHFL.IDX`;
        nvcc/cub_block_discontinuity rle_run_heads). An op with a partial mask leaves the warp unconverged (its
        own form: `WARPSYNC m; op` or out of line), but runs plain after a WARPSYNC.ALL (probes
        warp/div_partial_full_then_reg, div_partial_imm_then_full). {id(op): "warpsync" | "converged" | "run"}; empty
        when an op of the block has a per-thread mask or no inline form, or the block is in a loop or holds a
        CTA barrier."""
        forms = self._forms.get(b.label)
        if forms is not None:
            return forms
        by = self.am.blocks
        chain = [by[x] for x in self._chain(b.label)]
        forms = {}
        for x in chain:
            self._forms[x.label] = forms
        # not in a loop nor with a CTA barrier in the block (triton collatz_steps_kernel: `loop: bar; redux; bar;
        # shfl.bfly` keeps both slow paths)
        # ... except in a divergent loop, where the ops are counted by kind over the loop (_loop_kind_ops)
        in_loop = self.target.has("LONE_WARP_OP_WARPSYNC_ALL") and all(
            self._loop_body(x.label) is not None for x in chain)
        if any(not in_loop and (self._loop_ops(x.label) > 1 or self._in_loop_region(x.label)
                                or self.am.loops.on_cycle(x.label))
               or any(ops.is_cta_barrier(i) for i in x.instrs) for x in chain):
            return forms
        run = [(i, w) for x in chain for i in x.instrs if not (i.attrs.copy or i.attrs.conv and not i.attrs.permask)
               for w in (ops.warp_op(i, self.consts),) if w is not None]
        # a full-mask bar.warp.sync (no fast path: it is the WARPSYNC.ALL) re-converges like a lone op's
        # WARPSYNC.ALL (nvcc/reduce_cub_block raking: `if (tid < 32) { __syncwarp(); shfl.down x5 }`, probes
        # warp/div_bws_full_then_run)
        if any(not (w.inline or ops.is_full_mask(w.mask)) or i.attrs.permask for i, w in run):
            return forms
        k, converged = 0, False
        while k < len(run):
            end = k
            while end + 1 < len(run) and run[end + 1][1].helper == run[k][1].helper:
                end += 1
            if converged:
                forms.update((id(i), "converged") for i, _ in run[k:end + 1])
            elif any(not ops.is_full_mask(w.mask) for _, w in run[k:end + 1]):
                pass                 # a partial mask: its own form (warp()), the warp stays unconverged
            elif end == k and self._kind_count(*run[k]) == 1 and (
                    not in_loop or self._loop_kind_ops(b.label, run[k][1]) <= 1):
                forms[id(run[k][0])] = "warpsync"
                converged = True
            elif end > k:
                # a run of two or more: its collective slow path, whatever the span count says (the ops at a spin
                # region's join are counted in spans of one: docs/findings/convergence.md "A run of collectives
                # at a spin region's join keeps the pair (helper nvws32, stop 32)")
                forms.update((id(i), "run") for i, _ in run[k:end + 1])
            k = end + 1
        return forms

    def _slow_run(self, b: ori.BasicBlock, special: set) -> tuple[int, int] | None:
        """sm_75-89 (SLOW_PATH_RUNS): the block's span [first, last] of full-mask warp ops that each take the
        slow-path call (`BRA.CONV ~URZ; CALL helper`), of distinct helpers, with a CTA barrier between them and
        only plain instructions besides: ptxas tests the warp once for the whole span and copies the code
        between the ops, barriers included, into the slow path (`BRA.CONV ~URZ, fast; CALL a; STS; BAR; LDS;
        CALL b; BRA join; fast: REDUX; STS; BAR; LDS; SHFL`: Triton collatz_steps_kernel's `redux; st.shared;
        bar.sync; ld.shared; shfl.bfly`; probes phases/slow_run_*; docs/findings/convergence.md "Slow paths of
        one block around a CTA barrier share one convergence test (helper w2slow, stop 26)"). `special`: ids of
        the instructions the expansion handles on their own (kept guards, store runs)."""
        if self.form != "helper" or self.o0 or not self.target.has("SLOW_PATH_RUNS"):
            return None
        # sm_75 (LOOP_CONVERGENCE_TEST): in a loop's latch the run's slow path goes out of line instead (`BRA.DIV;
        # fast path` and `CALL; STS; BAR; LDS; CALL; BRA back` after EXIT; probes phases/slow_run_latch_sm75):
        # not modelled, the ops keep their own tests there
        if self.target.has("LOOP_CONVERGENCE_TEST") and any(x == b.label for x, _h in self.am.loops.back_edges):
            return None
        at, helpers = [], set()
        for k, ins in enumerate(b.instrs):
            wop = ops.warp_op(ins, self.consts)
            if wop is None or ins.attrs.copy or ins.attrs.conv and not ins.attrs.permask:
                continue
            if _implicit(ins) or not wop.inline or ins.attrs.permask or ins.guard is not None \
                    or not ops.is_full_mask(wop.mask) or wop.helper in helpers:
                return None
            helpers.add(wop.helper)
            at.append(k)
        if len(at) < 2:
            return None
        barrier = False
        for ins in b.instrs[at[0]:at[-1] + 1]:
            if ops.warp_op(ins, self.consts) is not None:
                if ins.attrs.copy or ins.attrs.conv and not ins.attrs.permask:
                    return None
            elif ops.is_cta_barrier(ins):
                if not ops.is_aligned_cta_barrier(ins) or ins.guard is not None:
                    return None
                barrier = True
            elif id(ins) in special or ins.opcode in ori.PSEUDO_OPCODES or ins.op == ops.SYNC \
                    or ins.guard is not None and ins.opcode == "st" \
                    or ins.opcode in _LEAVES_BLOCK:
                return None
        if not barrier:
            return None
        return at[0], at[-1]

    def _run_expansion(self, b: ori.BasicBlock, first: int, last: int, region) -> list[ori.Instr]:
        """The one convergence test of a _slow_run: `bra_conv(run=n)`, the slow path (each op's helper call, the
        code between copied; a copied barrier keeps its WARPSYNC unless the run's first op follows the barrier
        that re-converged the block, phase 71's `rejoined`), then the fast path (the instructions themselves, a
        barrier without WARPSYNC: the warp is converged there)."""
        span = b.instrs[first:last + 1]
        slow, n = [], 0
        rejoined = span[0].attrs.rejoined
        for ins in span:
            wop = ops.warp_op(ins, self.consts)
            if wop is not None:
                self.ctx.count(self.phase, "warp ops expanded")
                label = self._helper(ins, wop)
                self._pair(region)
                slow.append(self.p("call_helper", (), (A.Sym(label),), ins.line, coop_slow=1))
                n += 1
                continue
            if ops.is_cta_barrier(ins) and not rejoined:
                slow.append(self.p("warpsync", (), (ops.imm(ops.FULL_MASK),), ins.line))
            slow.append(ops.clone(ins, NAME))
        label = self.helpers[ops.warp_op(span[0], self.consts).helper]
        self.ctx.count(self.phase, "slow-path runs")
        return [self.p("bra_conv", (), (A.Sym(label),), span[0].line, run=n)] + slow + list(span)

    def _merge_collective_run(self, out: list[ori.Instr]) -> list[ori.Instr]:
        """sm_90+ (COLLECTIVE_SLOW_PATH_RUNS): the block's consecutive out-of-line collectives (each `bra_div` to
        a plain `WARPSYNC.COLLECTIVE; op; ENDCOLLECTIVE; BRA back`, only plain instructions between them) share ONE
        convergence test: one `bra_div(run=n)` to one out-of-line block holding every op's collective with the code
        between copied, back after the n-th op of the fast path (ptxas `BRA.DIV UR U U` and `.L: COLL U ENDC; IADD;
        COLL U ENDC; BRA back`). The EIATTR_COOP_GROUP_INSTR_OFFSETS entries stay one per op.
        docs/findings/scheduling.md "One convergence test for a block's run of collectives (helper bradiv31, stop 31)". """
        ool = {blk.label: blk for blk in self.ool}

        def simple(ins):
            if ins.opcode != "bra_div" or not ins.operands or type(ins.operands[0]) is not A.Sym:
                return None
            blk = ool.get(ins.operands[0].name)
            if blk is None or any(i.opcode in ("bssy", "bsync") for i in blk.instrs):
                return None
            return blk

        def test_at(j, head=False):
            """The out-of-line block of a plain collective's test at out[j] that its fast op follows (the run's
            first may re-converge in a pair: _after_slow_path)."""
            blk = simple(out[j]) if not head else paired_head(out[j])
            return blk if blk is not None and j + 1 < len(out) and ops.warp_op(out[j + 1], self.consts) is not None \
                else None

        def paired_head(ins):
            blk = simple(ins)
            if blk is not None or ins.opcode != "bra_div" or not ins.operands or type(ins.operands[0]) is not A.Sym:
                return blk
            blk = ool.get(ins.operands[0].name)
            ok = blk is not None and len(blk.instrs) > 2 and blk.instrs[0].opcode == "bssy" \
                and blk.instrs[-2].opcode == "bsync" and not any(i.opcode in ("bssy", "bsync") for i in blk.instrs[1:-2])
            return blk if ok else None

        res: list[ori.Instr] = []
        k = 0
        dropped: set = set()
        while k < len(out):
            head = test_at(k, head=True)
            if head is None:
                res.append(out[k])
                k += 1
                continue
            # the run: head, then (plain code, fast op, bra_div ...)*
            members, between, j, end = [(k, head)], [], k + 1, k + 1
            while j < len(out):
                x = out[j]
                nxt = test_at(j)
                if nxt is not None:
                    members.append((j, nxt))
                    between.append(list(out[end:j]))
                    end = j + 1
                    j += 1
                    continue
                # a fence between is plain code to the run (`shfl.up; membar.cta; shfl.up`: one BRA.DIV)
                if x.opcode in ori.PSEUDO_OPCODES or ops.is_cta_barrier(x) \
                        or x.op == ops.SYNC and x.opcode not in ("membar", "fence") \
                        or x.opcode in _LEAVES_BLOCK:
                    break
                j += 1
            if len(members) < 2:
                res.append(out[k])
                k += 1
                continue
            # one fast op follows each bra_div (its `fast`); the span ends at the last op
            last_at = members[-1][0] + 1
            body = list(head.instrs[:-1])
            for (at, blk), code in zip(members[1:], between):
                body += [ops.clone(i, NAME) for i in code[1:]]
                coll = list(blk.instrs[:-1])
                coll[0] = ops.clone(coll[0], NAME, coop_slow=1)
                body += coll
                dropped.add(blk.label)
            head.instrs = body + [head.instrs[-1]]
            first = out[k]
            first.attrs.run = len(members)
            res.append(first)
            for x in out[k + 1:last_at + 1]:
                if simple(x) is None:
                    res.append(x)
            self.ctx.count(self.phase, "collective slow-path runs")
            k = last_at + 1
        if dropped:
            self.ool = [blk for blk in self.ool if blk.label not in dropped]
        return res

    def _out_of_line(self, b, ins, wop, region, site, fast, paired: bool) -> list[ori.Instr]:
        """`BRA.DIV` to an out-of-line collective (in a BSSY/BSYNC pair when `paired`), then the fast path."""
        label = f"$__collective_{len(self.ool)}"
        body = self._collective(ins, wop, True)
        if paired:
            body = self._wrap_pair(body, ins.line, depth=self._regions_holding(b.label))
        self.ool.append(ori.BasicBlock(label, body + [self.p("bra_back", line=ins.line)]))
        self._pair(region)
        return [self.p("bra_div", (), (A.Sym(label),), ins.line, coop_slow=1, **site)] + fast

    def _bssy(self, depth: int, join: str, reconvergent: bool, line: int) -> list[ori.Instr]:
        """`bssy Bn, join` (ISel adds the BMOV.32.CLEAR some targets need first: isel/sequences.py)."""
        mods = (".reconvergent",) if reconvergent else ()
        return [self.p("bssy", mods, (A.Sym(f"B{depth}"), A.Sym(join)), line)]

    def _wrap_pair(self, seq: list[ori.Instr], line: int, reconvergent: bool = False, depth: int = 0) -> list[ori.Instr]:
        """A pair around one expansion (a guarded op in converged code, an -O0 collective in a loop, a
        WARPSYNC.EXCLUSIVE of a per-thread mask: .RECONVERGENT on sm_100+)."""
        join = f"$__join_{self.joins}"
        self.joins += 1
        self.ctx.count(self.phase, "BSSY/BSYNC pairs")
        mods = (".reconvergent",) if reconvergent else ()
        return self._bssy(depth, join, reconvergent, line) + seq + [self.p("bsync", mods, (A.Sym(f"B{depth}"),), line)]

    def _store_run(self, seq: list[ori.Instr], run: "ifconvert.StoreRun", b: ori.BasicBlock) -> list[ori.Instr]:
        """The convergence structure of a run of guarded stores ptxas keeps as a branch (ifconvert.StoreRun.shape;
        findings/convergence.md 8 and 23): one pair around it, two pairs (over the first two stores and the rest),
        or a pair and a nest: `bssy B0; bssy B1; ...; @!p break B1; store; bsync B1; store; bsync B0` then a
        WARPSYNC (STORE_NEST_WARPSYNC), B1 .reliable where the target has BREAK_LOOP_RELIABLE. A last store the structure
        does not cover stays after it, predicated."""
        line = b.instrs[run.last].line
        if run.shape == "pair":
            return self._wrap_pair(seq, line, self.reconvergent)
        ids = [id(b.instrs[k]) for k in run.stores]
        at = {x: n for n, x in enumerate(id(i) for i in seq)}
        pos = [at[x] for x in ids if x in at]
        if len(pos) != len(ids):                # the stores are not where the run left them: one pair
            return self._wrap_pair(seq, line, self.reconvergent)
        end = pos[run.covered - 1] + 1          # after the last covered store
        first = self._wrap_pair(seq[:pos[1] + 1], line, self.reconvergent)
        rest, outside = seq[pos[1] + 1:end], seq[end:]
        if run.shape == "two pairs":
            return first + self._wrap_pair(rest, line, self.reconvergent) + outside
        cut = pos[run.covered - 2] - pos[1] - 1      # the second-to-last covered store, in `rest`
        guard = b.instrs[run.stores[0]].guard
        reliable = self.break_mods
        leave = self.p("break", reliable, (A.Sym("B1"),), line)
        leave.guard = ops.negated(guard)
        inner_join, outer_join = f"$__join_{self.joins}", f"$__join_{self.joins + 1}"
        outer_mods = (".reconvergent",) if self.reconvergent else ()
        nest = (self._bssy(0, outer_join, self.reconvergent, line)
                + [self.p("bssy", reliable, (A.Sym("B1"), A.Sym(inner_join)), line)]
                + rest[:cut] + [leave, rest[cut], self.p("bsync", reliable, (A.Sym("B1"),), line)]
                + rest[cut + 1:] + [self.p("bsync", outer_mods, (A.Sym("B0"),), line)])
        self.joins += 2
        self.ctx.count(self.phase, "BSSY/BSYNC pairs", 2)
        if self.target.has("STORE_NEST_WARPSYNC"):
            nest.append(self.p("warpsync", (), (ops.imm(ops.FULL_MASK),), line))
        return first + nest + outside

    def _kept_guard_nests(self, b: ori.BasicBlock, kept_guards: set, compared: set) -> dict[int, list]:
        """Runs of GUARD_NEST_FROM or more adjacent kept guards under one setp-made guard: {id of the first: the
        run}. ptxas gives them a pair over the first two and a nest over the rest (_guard_nest)."""
        runs: dict[int, list] = {}
        cur: list = []
        for ins in b.instrs + [None]:
            if ins is not None and id(ins) in kept_guards and ops.guard_register(ins.guard) in compared \
                    and (not cur or repr(cur[0].guard) == repr(ins.guard)):
                cur.append(ins)
                continue
            if len(cur) >= GUARD_NEST_FROM:
                runs[id(cur[0])] = cur
            cur = [ins] if ins is not None and id(ins) in kept_guards \
                and ops.guard_register(ins.guard) in compared else []
        return runs

    def _guard_nest(self, run: list) -> list[ori.Instr]:
        """A long run of kept guards under one guard: a pair over the first two, then `bssy B0; bssy B1; ...;
        <third-to-last>; @!p break B1; <second-to-last>; @!p break B1; bsync B1; <last>; bsync B0` (B1 .reliable where
        BREAK_LOOP_RELIABLE) and a WARPSYNC where STORE_NEST_WARPSYNC: the store runs' nest with two BREAKs (docs/findings/convergence.md "Guarded reds in
        a row: pairs of two, none under predicate logic (helper tri27, stop 27)"; probe phases/guard_red_five_same)."""
        line = run[0].line
        first = self._wrap_pair(run[:GUARD_PAIR_MAX], line, self.reconvergent)
        rest = run[GUARD_PAIR_MAX:]
        reliable = self.break_mods
        inner_join, outer_join = f"$__join_{self.joins}", f"$__join_{self.joins + 1}"
        outer_mods = (".reconvergent",) if self.reconvergent else ()
        leaves = []
        for _ in range(2):                     # the lanes without the guard leave the nest after each of the
            leave = self.p("break", reliable, (A.Sym("B1"),), line)       # two reds before its BSYNC
            leave.guard = ops.negated(run[0].guard)
            leaves.append(leave)
        nest = (self._bssy(0, outer_join, self.reconvergent, line)
                + [self.p("bssy", reliable, (A.Sym("B1"), A.Sym(inner_join)), line)]
                + rest[:-2] + [leaves[0], rest[-2], leaves[1], self.p("bsync", reliable, (A.Sym("B1"),), line),
                               rest[-1], self.p("bsync", outer_mods, (A.Sym("B0"),), line)])
        self.joins += 2
        self.ctx.count(self.phase, "BSSY/BSYNC pairs", 2)
        if self.target.has("STORE_NEST_WARPSYNC"):
            nest.append(self.p("warpsync", (), (ops.imm(ops.FULL_MASK),), line))
        return first + nest

    def _exit_arm_warpsync(self) -> bool:
        """sm_90+: the branch-target arm of a divergent branch whose two sides both end the kernel
        (regions.exit_arms) re-converges with one WARPSYNC.ALL when it holds a CTA barrier where ptxas predicates
        the fall-through arm with its EXIT (ifconvert.predicated_exit_arms: the target arm is then straight-line
        code; after its leading barriers and register work) or traps; where the branch stays its arms are
        divergent code (phase 71, first_syncs_of_kept_exit_arms). A trap's fall-through arm too long to predicate
        re-converges at its first CTA barrier (Triton device_assert_kernel; helper tatom). docs/findings/
        barrier.md; findings/convergence.md, "exit arms" (helper bar)."""
        changed = False
        by_label = self.am.blocks
        predicated = ifconvert.predicated_exit_arms(self.am, self.target)
        branches = R.exit_arm_branches(self.am)
        all_arms = [arms for _, arms in branches]
        for branch, arms in branches:
            fall, target = arms[0], arms[-1]
            trap = R.holds_trap(self.am, arms)
            # a branch inside an arm of another such branch (Julia's bounds check `if (i <= n) { if (i-1 >= n)
            # trap; ... }`): the warp re-converges once, in the outer branch's target arm (phases/
            # bssy_bar_red_b2r_trap_join: one WARPSYNC.ALL)
            nested = any(target[0] in arm and target[0] not in other[-1] for other in all_arms if other is not arms
                         for arm in other)
            if (branch in predicated or trap) and not nested \
                    and any(ops.is_cta_barrier(i) for x in target for i in by_label[x].instrs):
                head = by_label[target[0]]
                skip = ops.is_cta_barrier if trap else (lambda i: ops.is_cta_barrier(i) or R.register_only(i))
                k = next((n for n, i in enumerate(head.instrs) if not skip(i)), len(head.instrs))
                line = head.instrs[k].line if k < len(head.instrs) else 0
                head.instrs.insert(k, self.p("warpsync", (), (ops.imm(ops.FULL_MASK),), line, conv=1))
                self.ctx.count(self.phase, "WARPSYNC.ALL in exit arms")
                changed = True
            if not trap:
                continue
            head = by_label[fall[0]]
            k = next((n for n, i in enumerate(head.instrs) if ops.is_cta_barrier(i)), None)
            if k is not None and ifconvert.too_long_to_predicate(i for x in fall for i in by_label[x].instrs):
                head.instrs.insert(k, self.p("warpsync", (), (ops.imm(ops.FULL_MASK),), head.instrs[k].line, conv=1))
                self.ctx.count(self.phase, "WARPSYNC.ALL in long fall-through exit arms")
                changed = True
        return changed

    def run(self) -> bool:
        fn, uni = self.fn, self.uni
        changed = False
        if self.ctx.target.has("EXIT_ARM_WARPSYNC_ALL") and not self.o0:
            changed = self._exit_arm_warpsync()
        # spin regions whose join starts with an unconverged warp op (decided before the expansion)
        # ... when that op takes the inline `WARPSYNC.ALL; op` (a lone op); one that starts a run of its kind takes
        # the run's BRA.DIV slow path and the region keeps its pair (docs/findings/convergence.md "A run of
        # collectives at a spin region's join keeps the pair (helper nvws32, stop 32)")
        spin_joins = {_value_key(r): id(w) for r in self.regions
                      if (w := ifconvert.spin_join_warp_op(self.am, r, self.consts, self.target)) is not None
                      and not w.attrs.conv} if self.target.has("SPIN_JOIN_WARP_OP_RECONVERGES") else {}
        spin_first = self._spin_first = set(spin_joins.values())
        inline_first: dict[int, bool] = {}      # spin join's first op -> did it take `WARPSYNC.ALL; op`
        # spin regions joining at a barrier behind a one-way fence inside a uniform if: no pair, the WARPSYNC
        # before the fence (regions.fence_barrier_join)
        fence_joins = {R.through_empty(r.join, self.am.blocks) for r in self.regions
                       if R.fence_barrier_join(self.am, r) and ifconvert.arrives_diverged_at_barrier(self.am, r, self.target)}
        # joins at an aligned cluster barrier that a spin region's lanes reach diverged: the WARPSYNC before
        # it, as before a CTA barrier (regions.is_aligned_cluster_arrive)
        cluster_joins = {R.through_empty(r.join, self.am.blocks) for r in self.regions
                         if r.barrier_join and ifconvert.arrives_diverged_at_barrier(self.am, r, self.target)}
        user_op: set[str] = set()                   # blocks holding a user warp op (before expansion)
        barrier_blocks: set[str] = set()
        paired_blocks: set[str] = set()
        for b in fn.blocks:
            for ins in b.instrs:
                if ops.warp_op(ins, self.consts) is not None:
                    user_op.add(b.label)
                if ops.is_aligned_cta_barrier(ins):
                    barrier_blocks.add(b.label)
                if _aggregated_atomic(ins, uni) or _unaligned_cluster_barrier(ins):
                    paired_blocks.add(b.label)
        self._user_op = user_op
        self._barrier_bodies = barrier_blocks
        # guarded instructions ptxas lowers as a branch and keeps as one (decided before any expansion)
        declared = self._declared_uniform() if self.target.has("WARPSYNC_ALL_UNPAIRS") and not self.o0 else {}
        kept_guards = {id(ins) for b in fn.blocks if b.label not in self.region_of
                       for k, ins in enumerate(b.instrs)
                       if ins.guard is not None and uni.is_divergent_operand(ins.guard)
                       and ifconvert.guard_becomes_branch(self.am, b, ins)
                       and (self.o0 or ifconvert.is_kept_guard(self.am, b, k, self.target))
                       and not self._declared(declared, ins, b.label)}
        store_runs = {} if self.o0 else ifconvert.kept_store_runs(self.am, fn, uni, self.target)
        compared = ifconvert.compare_guards(fn)     # guards only setp writes: kept guards under one share a pair
        mask_loops = [] if self.o0 else self._per_thread_mask_loops()   # (before the warp ops are expanded)
        if self.target.has("LONE_WARP_OP_WARPSYNC_ALL") and not self.o0:
            for b in fn.blocks:                # from the instructions as they are before any expansion
                if len(self._chain(b.label)) > 1:
                    self._run_forms(b)
        special = kept_guards | set(store_runs)        # instructions expanded on their own (_slow_run)
        for b in list(fn.blocks):
            region = self.region_of.get(b.label)
            out: list[ori.Instr] = []
            run_end, run_start = -1, 0
            open_guard = None                  # (guard, len(out)) right after a kept guard's pair
            open_count = 0                     # how many kept guards that pair holds
            nests = self._kept_guard_nests(b, kept_guards, compared)
            in_nest: set[int] = {id(x) for run in nests.values() for x in run[1:]}
            slow_run = None if b.label in cluster_joins or b.label in fence_joins else self._slow_run(b, special)
            for k, ins in enumerate(b.instrs):
                if slow_run is not None and slow_run[0] <= k <= slow_run[1]:
                    if k == slow_run[0]:
                        out.extend(self._run_expansion(b, *slow_run, region))
                        changed = True
                    continue
                if region is None and id(ins) in store_runs:
                    run = store_runs[id(ins)]
                    run_start, run_end = len(out), run.last
                if k == run_end + 1 and run_end >= 0:
                    out[run_start:] = self._store_run(out[run_start:], run, b)
                    run_end = -1
                    changed = True
                if ins.attrs.copy or ins.attrs.conv and not ins.attrs.permask:
                    out.append(ins)
                    continue
                wop = ops.warp_op(ins, self.consts)
                if b.label in cluster_joins and R.is_aligned_cluster_arrive(ins) \
                        and all(R.before_join_barrier(x) for x in out):
                    out.append(self.p("warpsync", (), (ops.imm(ops.FULL_MASK),), ins.line))
                    out.append(ins)
                    changed = True
                    continue
                if wop is None and ops.is_cta_barrier(ins):
                    at = len(out)
                    if b.label in fence_joins and not any(ops.is_cta_barrier(x) for x in out):
                        at = next((j for j, x in enumerate(out) if R.one_way_fence(x)), at)
                    out.insert(at, self.p("warpsync", (), (ops.imm(ops.FULL_MASK),), ins.line))
                    out.append(ins)
                    self.ctx.count(self.phase, "WARPSYNC before CTA barriers")
                    changed = True
                    continue
                if wop is None:
                    if id(ins) in nests:
                        out.extend(self._guard_nest(nests[id(ins)]))
                        open_guard = None
                        changed = True
                    elif id(ins) in in_nest:
                        pass
                    elif id(ins) in kept_guards and open_guard == (ins.guard, len(out)) \
                            and open_count < GUARD_PAIR_MAX and ops.guard_register(ins.guard) in compared:
                        out.insert(len(out) - 1, ins)       # the same guard again: one branch (guard_red_*)
                        open_guard = (ins.guard, len(out))
                        open_count += 1
                    elif id(ins) in kept_guards:
                        out.extend(self._wrap_pair([ins], ins.line, self.reconvergent))
                        open_guard = (ins.guard, len(out))
                        open_count = 1
                        changed = True
                    else:
                        out.append(ins)
                    continue
                seq = self.warp(b, ins, wop, region)
                if id(ins) in spin_first:
                    inline_first[id(ins)] = bool(seq) and _warpsync_all(seq[0])
                guarded = ins.guard is not None and uni.is_divergent_operand(ins.guard)
                if region is None and guarded and self.form == "helper" and not (ins.attrs.permask and ins.attrs.conv):
                    seq = self._wrap_pair(seq, ins.line)
                out.extend(seq)
                changed = True
            if run_end >= 0:
                out[run_start:] = self._store_run(out[run_start:], run, b)
                changed = True
            if self.form == "collective" and not self.o0 and self.target.has("COLLECTIVE_SLOW_PATH_RUNS"):
                out = self._merge_collective_run(out)
            b.instrs = out
        if self.o0:
            for r in self.regions:
                if not (r.body & barrier_blocks):
                    self._pair(r)
        else:
            for r in self.regions:
                if (r.body & paired_blocks or ifconvert.is_kept_region(self.am, r, self.target)) \
                        and (not (r.body & barrier_blocks) or r.kind == "loop" and R.exits_before_barrier(self.am, r)):
                    self._pair(r)
        self._kept_pairs = list(self.paired)       # before the pairs a barrier or WARPSYNC.ALL replaces (_break_nests)
        # a region paired for its warp ops that joins at a barrier re-converges there (WARPSYNC + BAR); one
        # ptxas keeps as a branch keeps its pair (ifconvert_loop_alu_bar, ifconvert_load_bar: BSSY BSYNC BAR)
        self.paired = [r for r in self.paired if not self._barrier_rejoins(r) or self._kept_without_warp_op(r)
                       or self._kept_for_later_predicated_branch(r)]
        if spin_joins:
            self.paired = [r for r in self.paired if (first := spin_joins.get(_value_key(r))) is None
                           or not inline_first.get(first, True)]
        if fence_joins:
            self.paired = [r for r in self.paired if R.through_empty(r.join, self.am.blocks) not in fence_joins
                           or self._kept_without_warp_op(r)]
        if self.target.has("WARPSYNC_ALL_UNPAIRS"):
            self.paired = [r for r in self.paired if not self._arm_runs_warpsync_all(r)
                           and not self._declared_branch(declared, r) and not self._join_runs_warpsync_all(r)]
        if self.target.has("LOOP_CONVERGENCE_TEST") and any(r.join.endswith(R.OWN_JOIN) for r in self.paired):
            # an inverted loop's own pair gives way to the loop test where its latch gets one (sm_75: a CAS or
            # volatile-load loop keeps only the guard's pair, a plain-load loop both: docs/findings/
            # convergence.md "An inverted loop's own pair: header values read after it (helper llvm25, stop 25)")
            tested = set(self._spin_latches({b.label: k for k, b in enumerate(self.fn.blocks)}))
            self.paired = [r for r in self.paired if not (r.kind == "loop" and r.join.endswith(R.OWN_JOIN)
                                                          and r.body & tested)]
        if mask_loops:
            # stable: the new loops go after the regions of their size, outermost first as _insert_pairs needs
            self.regions = sorted(list(self.regions) + mask_loops, key=lambda r: -len(r.body))
            for r in mask_loops:
                self._pair(r)
        nests = self._unrolled_nests()
        escapes = [] if self.o0 else self._escape_nests()
        changed |= self._insert_pairs(user_op)
        if nests:
            self._break_nests(nests)
            changed = True
        if escapes:
            self._escape_breaks(escapes)
            changed = True
        if self.target.has("LOOP_CONVERGENCE_TEST"):
            changed |= self._loop_tests()
        if self.ool:
            self._unsynced_helpers()
            self._number_helpers()
            fn.blocks.extend(self.ool)
            changed = True
        return changed

    def _per_thread_op(self, wop: ops.WarpOp) -> bool:
        return wop.mask is not None and not ops.is_const_mask(wop.mask) and self.uni.is_divergent_operand(wop.mask)

    def _per_thread_mask_loops(self) -> list[R.Region]:
        """Uniform loops (outside every divergent region) that ptxas pairs for their per-thread-mask warp ops:
        the loop from its preheader to its exit in BSSY/BSYNC as a divergent loop. sm_90+ (LOOP_PAIR_UNCONVERGED_
        LATCH): when the warp reaches the back edge unconverged: a per-thread-mask op with no full-mask op
        taking its WARPSYNC.ALL (inline form) nor CTA barrier after it in the body. Below sm_90: when the body
        holds two or more warp ops taking the slow-path call (per-thread masks, full masks after one), or one
        that is not a bar.warp.sync (its fast path and slow path rejoin). docs/findings/convergence.md "A
        uniform loop holding a per-thread-mask warp op gets a pair (helper cub24, stop 24)"; probes
        warp/permask_uniform_loop_*."""
        am, uni, by_label = self.am, self.uni, self.am.blocks
        diverged = R.divergent_blocks(self.regions)
        exiting = set().union(*self._exiting_loops()) if self._exiting_loops() else set()
        order = {b.label: n for n, b in enumerate(self.fn.blocks)}
        latch_state = self.target.has("LOOP_PAIR_UNCONVERGED_LATCH")
        self._mask_loop_latches = set()
        # uniform loops running a barrier or warp op in a divergent if (regions.diverged_sync_loops)
        sync_loops = {frozenset(r.body): r for r in R.diverged_sync_loops(am, self.regions, self.consts)}
        out: list[R.Region] = []
        for latch, header in am.loops.back_edges:
            b = by_label[latch]
            if R.divergent_branch(b, uni) or header in diverged or header in exiting:
                continue
            body = set(am.loops.body(header, latch))
            outside = [p for p in by_label[header].preds if p not in body]
            exits = {s for x in body for s in by_label[x].succs if s not in body and s in by_label}
            if len(outside) != 1 or len(exits) != 1:
                continue
            instrs = [i for x in sorted(body, key=order.__getitem__) for i in by_label[x].instrs]
            wops = [(i, w) for i in instrs if (w := ops.warp_op(i, self.consts)) is not None]
            if not any(self._per_thread_op(w) for _i, w in wops):
                r = sync_loops.get(frozenset(body))
                if r is not None:
                    out.append(r)
                    # sm_100+: .RECONVERGENT unless an aligned CTA barrier runs in the diverged arm (probes
                    # phases/loop_pair_diverged_bar: plain; _barrier_sync, a shuffle: .RECONVERGENT)
                    self._diverged_sync_loops[_value_key(r)] = not any(
                        ops.is_aligned_cta_barrier(i) for x in body & diverged for i in by_label[x].instrs)
                continue
            if latch_state:
                unconverged = False
                for i in instrs:
                    w = ops.warp_op(i, self.consts)
                    if w is None:
                        unconverged = unconverged and not ops.is_cta_barrier(i)
                    elif self._per_thread_op(w):
                        unconverged = True
                    elif i.attrs.form == "inline" or i.attrs.conv:
                        unconverged = False
                pair = unconverged
            else:
                slow = [(i, w) for i, w in wops if i.attrs.permask or not i.attrs.conv]
                fast = any(not ops.is_bar_warp_sync(i) for i, _w in slow)
                pair = len(slow) >= 2 or fast
                if fast:                # sm_75 tests the warp at its back edge too (VOTE.ANY; VOTEU.ANY)
                    self._mask_loop_latches.add(latch)
            if pair:
                join = exits.pop()
                out.append(R.Region("loop", outside[0], join, body, R._barrier_join(join, by_label)))
        return out

    def _declared_uniform(self) -> dict[str, list[str]]:
        """sm_90+: predicate register -> joins of the ifs that branches on it and whose arm runs a full-mask
        bar.warp.sync on every path (R.arm_syncs_warp). The whole warp took that arm, so ptxas takes the
        predicate as warp-uniform after the join: later branches and kept guards on it (either polarity)
        get no pair, a different divergent predicate keeps its pair (probes warp/warpsync_arm_then_*;
        Triton's guarded tensormap.cp_fenceproxy and its `@p` fence, commit and wait; docs/findings/
        convergence.md "A WARPSYNC.ALL arm's join reaches a CTA barrier unconverged (helper tmisc, stop 22)")."""
        out: dict[str, list[str]] = {}
        for r in ifconvert.warpsync_arm_ifs(self.am, self.target):
            p = _branch_predicate(self.am.blocks[r.head])
            if p is not None and len(self.am.defuse.definitions(p)) == 1:
                out.setdefault(p, []).append(r.join)
        return out

    def _declared(self, declared: dict[str, list[str]], ins: ori.Instr, label: str) -> bool:
        """Is this kept guard (of block `label`) on a declared-uniform predicate, after the join that declared it?"""
        return bool(declared) and any(self.am.dom.dominates(j, label)
                                      for j in declared.get(ops.guard_register(ins.guard), ()))

    def _declared_branch(self, declared: dict[str, list[str]], r: R.Region) -> bool:
        """Does the region branch on a declared-uniform predicate after the join that declared it?"""
        if not declared or r.kind != "if" or r.head not in self.am.blocks:
            return False
        p = _branch_predicate(self.am.blocks[r.head])
        return any(j != r.join and self.am.dom.dominates(j, r.head) for j in declared.get(p, ()))

    def _barrier_rejoins(self, region: R.Region) -> bool:
        """Does the region join at a CTA barrier that re-converges the warp: an aligned one on every target, from
        sm_90 (WARPSYNC_ALL_UNPAIRS) a `barrier.sync` without .aligned too (its WARPSYNC.ALL; cooperative groups'
        block.sync() after a coalesced_group's invoke_one: nvcc/cg_invoke_one_elect coalesced_invoke_one; probes
        warp/pm_join_barrier_nonaligned_*)."""
        return region.barrier_join or self.target.has("WARPSYNC_ALL_UNPAIRS") and \
            R.joins_at_any_cta_barrier(region.join, self.am.blocks)

    def _arm_runs_warpsync_all(self, region: R.Region) -> bool:
        """sm_90+: an if one of whose arms runs a WARPSYNC.ALL on every path to the join (a full-mask
        bar.warp.sync, a lone warp op's inline form; after the expansion) has no pair: the program declares the
        whole warp there, so the branch does not split it (nvcc/reduce_cub_block raking: `if (tid < 32) {
        __syncwarp(); shfl.down x5 }`). In an if/else one arm is enough; a WARPSYNC.ALL inside an inner if of
        the arm is not (BSSY kept); runs of collectives before it do not matter. Probes
        warp/warpsync_all_arm_*; docs/findings/convergence.md "A WARPSYNC.ALL on every path of an arm"."""
        if region.kind != "if":
            return False
        by_label, ipdom, dom = self.am.blocks, self.am.ipdom, self.am.dom
        head = by_label.get(region.head)
        if head is None:
            return False
        for entry in head.succs:
            x = entry
            # only blocks the arm reaches forward: a loop header it goes back to runs its WARPSYNC.ALL in the
            # next trip (nvcc/cg_invoke_one_elect warp_work_queue keeps its pair)
            while x in region.body and x != region.join and dom.dominates(entry, x):
                if any(_warpsync_all(i) for i in by_label[x].instrs):
                    return True
                x = ipdom.get(x)
        return False

    def _join_runs_warpsync_all(self, region: R.Region) -> bool:
        """sm_90+: an if without warp ops of its own (kept for an atomic, a load ...) whose join starts with a
        full-mask warp op the warp reaches unconverged (its inline `WARPSYNC.ALL; op`, after the expansion;
        no branch, CTA barrier or other sync instruction before it in the join block) has no pair: the
        WARPSYNC.ALL re-converges the warp there. cooperative groups' invoke_one_broadcast in a loop whose
        back edge is divergent (`for (;;) { if (elect) v = atomicAdd(); v = shfl(v, leader); ...; if (j < n)
        continue; ... }`: nvcc/cg_invoke_one_elect warp_work_queue `ELECT; @!P0 BRA; ATOMG; WARPSYNC.ALL;
        SHFL.IDX`); where the warp reaches the join converged the op is plain and the if keeps its pair
        (probes warp/join_warpsync_all_*; docs/findings/warp.md "An unconverged full-mask op at an if's join
        replaces its pair (helper nvcg25, stop 25)"). From JOIN_WARP_BARRIER_UNPAIRS a full-mask bar.warp.sync
        that starts the join is that WARPSYNC.ALL itself (the consumer ring's strided loop before `__syncwarp()`
        in the else arm of `if (warp == 0)`; probes warp/join_warp_barrier_*)."""
        if region.kind != "if":
            return False
        by_label = self.am.blocks
        if region.body & self._user_op and not self._inline_ops_rejoined(region):
            return False
        join = by_label.get(R.through_empty(region.join, by_label))
        if join is None:
            return False
        seen_warpsync = False
        for i in join.instrs:
            if _warpsync_all(i) and id(i) in self._warp_barrier_syncs and self.target.has("JOIN_WARP_BARRIER_UNPAIRS"):
                # a full-mask bar.warp.sync the warp reaches unconverged is that WARPSYNC.ALL itself
                # (docs/findings/convergence.md "An unconverged __syncwarp at a join replaces its pair (helper nvws33, stop 33)")
                return not seen_warpsync
            if _warpsync_all(i):
                seen_warpsync = True
                continue
            if i.opcode in _LEAVES_BLOCK or ops.is_cta_barrier(i) \
                    or i.op == ops.SYNC and not seen_warpsync:
                return False
            if ops.warp_op(i, self.consts) is not None:
                return seen_warpsync
        return False

    def _inline_ops_rejoined(self, region: R.Region) -> bool:
        """An if kept as a branch whose own warp ops all took their inline form (`WARPSYNC mask; op`, no
        collective) and whose join's first warp op has a full mask (_join_reconverges): the join's WARPSYNC.ALL
        re-converges the warp for both, no pair (`if (i < n) { x = ld; __all_sync(__activemask(), x > 0) }`
        before a `__any_sync(-1, ..)` loop test; docs/findings/warp.md "The warp reaches a loop's back edge
        converged only through a full-mask op (helper warp29, stop 29)")."""
        by_label = self.am.blocks
        return self._join_reconverges(region) and not any(
            i.opcode == "bra_div" for x in region.body for i in by_label[x].instrs)

    def _backward_in_text(self, latch: str, order: dict[str, int]) -> bool:
        """Does the latch's back edge branch up the function's text? A rotated loop whose entry jumps into its
        body below the latch (`bra.uni B; L: ...; @p bra B; bra.uni X; B: body; bra.uni L`: the back edge
        `@p bra B` jumps down) gets no convergence test (probes phases/loop_test_rotated_*; docs/findings/
        convergence.md "sm_75's loop test only on a back edge that jumps up (helper llvmnb, stop 23)"). `order`:
        each block's index in the function's text."""
        b = self.am.blocks[latch]
        if any(i.by == _LOOP_INVERSION for i in b.instrs):
            return True                 # phase 21 laid this latch out itself: the text order says nothing
        for ins in b.instrs[-2:]:
            t = ops.branch_target(ins) if ins.opcode == "bra" else None
            if t in order and self.am.dom.dominates(t, latch):
                return order[t] <= order[latch]
        return True

    def _spin_latches(self, order: dict[str, int]) -> list[str]:
        """The divergent latches that get the loop convergence test: may spin, back edge backwards in the text."""
        return [x for x in R.divergent_latches(self.am, uniform=not self.o0) if R.may_spin(self.am, x)
                and self._backward_in_text(x, order)]

    def _loop_tests(self) -> bool:
        """`looptest` before each divergent back edge (sm_75: spin, CAS and data-dependent loops)."""
        by_label = {b.label: b for b in self.fn.blocks}
        order = {b.label: k for k, b in enumerate(self.fn.blocks)}     # the blocks' text order, made once
        latches = self._spin_latches(order)
        # a uniform loop paired for a per-thread-mask op with a fast path (_per_thread_mask_loops)
        latches += [x for x in sorted(self._mask_loop_latches, key=order.__getitem__) if x not in latches]
        # -O0 has no uniform datapath: the test is two VOTE.ANY (loop_atom_shared_trip4_O0)
        mods = (".nouniform",) if self.o0 else ()
        for label in latches:
            instrs = by_label[label].instrs
            last = instrs[-1] if instrs else None
            if R.loop_test(by_label[label]) is None:        # an unconditional back edge: before it, or at the end
                at = len(instrs) - 1 if last is not None and last.opcode == "bra" else len(instrs)
            else:
                at = len(instrs) - 1 if instrs[-1].guard is not None else len(instrs) - 2   # before the loop's test
            instrs.insert(at, self.p("looptest", mods, line=instrs[min(at, len(instrs) - 1)].line if instrs else 0))
            self.ctx.count(self.phase, "loop convergence tests")
        return bool(latches)

    def _unrolled_nests(self) -> dict[tuple, str]:
        """The pairs of the count-down loops with a per-thread count phase 22 unrolled (its `_unknown_ne`, an empty
        block regions.UNROLLED_REJOIN before the rolled loop): ptxas puts the unrolled copies (the check for four
        left, the 4-copy loop, the 2-copy remainder, the test for none left) in a pair of their own, opened with
        the region around the whole loop and closed where the lanes left enter the rolled loop; the lanes done in
        the copies leave it by a BREAK before their branch to the loop's exit (probe
        phases/loop_ne_countdown_divergent; docs/findings/convergence.md "A per-thread count-down loop is unrolled
        inside a BREAK nest (helper nvnest34, stop 34)"). Adds those regions to the paired ones: {value key: the
        block of the BREAK}."""
        nests: dict[tuple, str] = {}
        labels = [b.label for b in self.fn.blocks]
        at = {x: k for k, x in enumerate(labels)}
        for label in labels:
            if not label.endswith(R.UNROLLED_REJOIN):
                continue
            head = label[:-len(R.UNROLLED_REJOIN)] + "$ne"
            if head not in at or at[head] >= at[label] - 1:
                continue
            body = labels[at[head] + 1:at[label]]
            region = R.Region("if", head, label, set(body), False, head)
            key = _value_key(region)
            nests[key] = body[-1]
            self._paired_keys.add(key)
            self.paired.append(region)
            self.regions = sorted(list(self.regions) + [region], key=lambda r: -len(r.body))
        self._nest_keys = nests
        return nests

    def _break_nests(self, nests: dict[tuple, str]) -> None:
        """The BREAK of each unrolled nest (_unrolled_nests) before its branch to the loop's exit, and the WARPSYNC
        (STORE_NEST_WARPSYNC) after the BSYNC of the outermost pair around the nest, as after a store nest, unless
        a collective there tests convergence itself."""
        by_label = {b.label: b for b in self.fn.blocks}
        reliable = self.break_mods
        synced: set[str] = set()
        for key, last in nests.items():
            b = by_label[last]
            br = b.instrs[-1]
            leave = self.p("break", reliable, (A.Sym(f"B{self._nest_depth[key]}"),), br.line)
            leave.guard = br.guard
            b.instrs.insert(len(b.instrs) - 1, leave)
            if not self.target.has("STORE_NEST_WARPSYNC"):
                continue
            head = key[1]
            around = [r for r in self._kept_pairs if _value_key(r) not in nests and (head in r.body or r.head == head)]
            if not around:
                continue
            join = max(around, key=lambda r: len(r.body)).join
            if join in synced:
                continue
            synced.add(join)
            instrs = by_label[join].instrs
            # not where the warp re-converges anyway: a collective with its own WARPSYNC (`WARPSYNC.ALL; REDUX`,
            # the pair it replaced) or its own convergence test (a `BRA.DIV` slow path: nvcc/w28_spmv_rows
            # w28_csr_spmv_int, the nest in a grid-stride loop), a barrier's WARPSYNC
            if any(x.opcode in ("bra_div", "bra_conv", "warpsync") for x in instrs):
                continue
            k = next((j + 1 for j, x in enumerate(instrs) if x.opcode == "bsync"), 0)
            instrs.insert(k, self.p("warpsync", (), (ops.imm(ops.FULL_MASK),), br.line))

    def _escape_nests(self) -> list:
        """The ifs left by a conditional branch out of them (regions.break_nests) whose leaving branches stay
        inside a kept pair: their pair to M, added to the paired ones (BSSY in the if's block after the pair
        around it, .reliable where BREAK_LOOP_RELIABLE). Returns the nests that got a pair."""
        kept = []
        for nest in R.break_nests(self.am):
            r = nest.region
            if _value_key(r) in self._paired_keys:
                continue
            def holds(q):
                return (r.head in q.body or q.head == r.head) \
                    and all(t in q.body or self._post_dominated(t, q.join) for t in nest.targets)
            around = [q for q in self.paired if holds(q)]
            if not around:
                # the region around a BREAK nest keeps its pair (a loop of register work left by the nest's
                # break, which if-conversion would leave unpaired from sm_90: every target pairs it)
                around = [q for q in self.regions if holds(q) and not (q.body & self._barrier_bodies)]
                loop = None if around else self._nest_loop(nest)
                if loop is not None and holds(loop):
                    around = [loop]
                    self.regions = sorted(list(self.regions) + [loop], key=lambda q: -len(q.body))
                if not around:
                    continue
                outer = max(around, key=lambda q: len(q.body))
                self._pair(outer)
                around = [outer]
            kept.append((nest, around))
            key = _value_key(r)
            self._escape_keys.add(key)
            self._paired_keys.add(key)
            self.paired.append(r)
        if kept:
            self.regions = sorted(list(self.regions) + [n.region for n, _ in kept], key=lambda r: -len(r.body))
        return kept

    def _nest_loop(self, nest) -> R.Region | None:
        """The loop around a BREAK nest that no region pairs (sm_90+: a header-tested or uniform-count loop left
        only by the nest's break, whose header and break regions each hold the other's BSSY block and give way,
        regions._one_pair_per_join): a loop region from its preheader to the nest if's post-dominator, as ptxas
        pairs it on every target."""
        head = nest.region.head
        header, body = self.am.loops.innermost_loop(head)
        join = self.am.ipdom.get(head)
        if header is None or join is None or join in body or body & self._barrier_bodies:
            return None
        if any(t in body or not self._post_dominated(t, join) for t in nest.targets):
            return None
        outside = [p for p in self.am.blocks[header].preds if p not in body]
        if len(outside) != 1 or R._ends_kernel(join, self.am.blocks):
            return None
        return R.Region("loop", outside[0], join, set(body), R._barrier_join(join, self.am.blocks))

    def _post_dominated(self, label: str, join: str) -> bool:
        """Does every way from `label` pass `join` (or is it `join`)?"""
        seen = set()
        end = R.through_empty(join, self.am.blocks)
        while label is not None and label not in seen:
            if label == join or label == end:
                return True
            seen.add(label)
            label = self.am.ipdom.get(label)
        return False

    def _skipped_uniformly(self, outer: R.Region) -> bool:
        """Is the join of `outer` also reached around it by a uniform branch (`for (k = 0; k < tries; ++k)`:
        the skip of a loop whose count is the same for every lane)?"""
        blocks = self.am.blocks
        for p in blocks[outer.join].preds:
            if p in outer.body or p not in blocks:
                continue
            ins = blocks[p].instrs
            br = next((x for x in reversed(ins[-2:]) if x.opcode == "bra" and x.guard is not None), None)
            if br is not None and not self.uni.is_divergent_operand(br.guard):
                return True
        return False

    def _escape_breaks(self, kept: list) -> None:
        """A BREAK of each escape nest's pair before each branch leaving it; where STORE_NEST_WARPSYNC, a WARPSYNC
        after the BSYNC of the outermost pair around the nest, unless a uniform branch skips to that join too (a
        loop with a uniform count: `for (k = 0; k < tries; ++k)`) or the join lies in a loop (the nest in a
        grid-stride or tile loop)."""
        by_label = {b.label: b for b in self.fn.blocks}
        synced: set[str] = set()
        for nest, around in kept:
            depth = self._nest_depth[_value_key(nest.region)]
            for label, br, guard in nest.escapes:
                b = by_label[label]
                k = next(j for j, x in enumerate(b.instrs) if x is br)
                leave = self.p("break", self.break_mods, (A.Sym(f"B{depth}"),), br.line)
                leave.guard = guard
                b.instrs.insert(k, leave)
            if not self.target.has("STORE_NEST_WARPSYNC"):
                continue
            head = nest.region.head
            outer = max((q for q in self.paired if _value_key(q) not in self._escape_keys
                         and (head in q.body or q.head == head)), key=lambda r: len(r.body), default=None)
            if outer is None:
                continue
            if outer.join in synced or self._skipped_uniformly(outer) or self.am.loops.on_cycle(outer.join):
                continue
            synced.add(outer.join)
            instrs = by_label[outer.join].instrs
            if any(x.opcode in ("bra_div", "bra_conv", "warpsync") for x in instrs):
                continue
            k = next((j + 1 for j, x in enumerate(instrs) if x.opcode == "bsync"), 0)
            instrs.insert(k, self.p("warpsync", (), (ops.imm(ops.FULL_MASK),), instrs[0].line if instrs else 0))

    def _insert_pairs(self, user_op: set[str]) -> bool:
        by_label = {b.label: b for b in self.fn.blocks}
        paired = {_value_key(r) for r in self.paired}
        order = [r for r in self.regions if _value_key(r) in paired]     # outermost first
        enclosing: dict[str, int] = {}               # block -> how many paired regions hold it
        for q in order:
            for label in q.body:
                enclosing[label] = enclosing.get(label, 0) + 1
        nests = self._nest_keys
        for r in order:
            depth = enclosing.get(r.bssy_block, 0) - (r.bssy_block in r.body)
            if _value_key(r) in nests or _value_key(r) in self._escape_keys:
                # opened in the block that opens the region around the whole loop, inside it (_unrolled_nests);
                # an escape nest in the block of its if, inside the if's own pair (_escape_nests)
                depth += sum(1 for q in order if q is not r and q.bssy_block == r.bssy_block and r.body < q.body)
                self._nest_depth[_value_key(r)] = depth
                reliable = self.break_mods
                head = by_label[r.bssy_block]
                at = len(head.instrs) - (bool(head.instrs) and head.instrs[-1].opcode in ("bra", "brx", "ret", "exit"))
                line = head.instrs[-1].line if head.instrs else 0
                head.instrs[at:at] = [self.p("bssy", reliable, (A.Sym(f"B{depth}"), A.Sym(r.join)), line)]
                by_label[r.join].instrs.insert(0, self.p("bsync", reliable, (A.Sym(f"B{depth}"),), line))
                self.ctx.count(self.phase, "BSSY/BSYNC pairs")
                continue
            # a spin loop's pair stays plain (CAS and flag loops: nvcc/atomic_cas_loops, llvm/atomic_expand_cas)
            # ... and so does a region that sleeps (probes phases/loop_div_arm_*, sm_100a); an if inside a spin loop
            # does not: docs/findings/convergence.md "An if inside a spin loop keeps .RECONVERGENT (helper tgt29, stop 29)"
            reconv = self.reconvergent and not (r.body & user_op) \
                and not ((r.kind == "loop" or R.holds_cycle(self.am, r)) and R.is_spin_loop(self.am, r)) \
                and not R.holds_nanosleep(self.am, r)
            if _value_key(r) in self._diverged_sync_loops:
                reconv = self.reconvergent and self._diverged_sync_loops[_value_key(r)]
            head = by_label[r.bssy_block]
            line = head.instrs[-1].line if head.instrs else 0
            at = len(head.instrs)
            if head.instrs and head.instrs[-1].opcode in ("bra", "brx", "ret", "exit"):
                at -= 1
            head.instrs[at:at] = self._bssy(depth, r.join, reconv, line)
            mods = (".reconvergent",) if reconv else ()
            by_label[r.join].instrs.insert(0, self.p("bsync", mods, (A.Sym(f"B{depth}"),), line))
            self.ctx.count(self.phase, "BSSY/BSYNC pairs")
        return bool(order)


def _branch_predicate(b: ori.BasicBlock) -> str | None:
    """The predicate register of the block's closing conditional branch."""
    last = b.instrs[-1] if b.instrs else None
    return ops.guard_register(last.guard) if last is not None and last.opcode == "bra" and last.guard is not None \
        else None


def _count_kind(wop: ops.WarpOp) -> str:
    """The kind an op counts as in _count_kinds: its helper, except that every non-aligned `barrier.sync` is one
    kind whatever its id and thread count (its collective takes both in registers: `BAR.SYNC R4, R4`):
    `if {barrier.sync 1}; if {barrier.sync 2, 64}` sends both out of line, as does a divergent `barrier.sync %r, 256`
    followed by a converged `barrier.sync 0` (docs/findings/eiattr.md "Non-aligned barriers are one kind for the
    out-of-line count (helper w2eia, stop 26)"; probes warp/div_nal_bar_ids_*)."""
    return "barrier_sync" if wop.helper.startswith("barrier_sync") else wop.helper


def _implicit(ins: ori.Instr) -> bool:
    """The bar.warp.sync an aligned op implies (lowering/tensormap_copy.py): no EIATTR_COOP_GROUP entry."""
    return ops.is_bar_warp_sync(ins) and ins.attrs.implicit


def _warpsync_all(ins: ori.Instr) -> bool:
    """A plain full-mask `warpsync` pseudo-op (WARPSYNC.ALL), not a collective's nor an exclusive one."""
    return ins.opcode == "warpsync" and ins.by == NAME and ins.guard is None and not ins.mods and len(ins.operands) == 1 \
        and ops.is_full_mask(ins.operands[0])


def _value_key(r: R.Region) -> tuple:
    """A region's value as record equality sees it (every field), hashable."""
    return (r.kind, r.bssy_block, r.join, frozenset(r.body), r.barrier_join, r.head)


def _prologue() -> list[ori.Instr]:
    seq = [ops.pseudo("bmov", (".32",), (A.Sym("B0"), ops.imm(ops.FULL_MASK)), NAME)]
    for i in range(1, _NUM_CONVERGENCE_BARRIERS):
        seq.append(ops.pseudo("bmov", (".32", ".clear"), (A.Sym(f"B{i}"), A.Sym(f"B{i - 1}")), NAME))
    seq.append(ops.pseudo("bmov", (".32",), (A.Sym(f"B{_NUM_CONVERGENCE_BARRIERS - 1}"), ops.imm(0)), NAME))
    return seq


class LateExpandSyncInstructions(Phase):
    number = 72
    name = NAME
    description = "WARPSYNC before CTA barriers, slow paths / collectives for warp ops, BSSY/BSYNC pairs"
    knobs = (SYNC_GATE_KNOB,)

    def enabled(self, ctx: PassContext) -> bool:
        return sync_gate_open(ctx)

    def run(self, fn: ori.Function, ctx: PassContext) -> bool:
        am = ctx.analyses(fn)
        am.editing_in_place = True           # the expander rewrites blocks and asks is_kept_region in between
        try:
            changed = _Expander(fn, ctx, self).run()
        finally:
            am.editing_in_place = False
        if ctx.target.has("BMOV_PROLOGUE") and fn.is_entry and fn.blocks:
            fn.blocks[0].instrs[0:0] = _prologue()
            changed = True
        return changed


PHASE = LateExpandSyncInstructions()
