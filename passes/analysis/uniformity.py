"""Warp-uniformity (divergence) analysis: which registers hold the same value in every active lane,
and which blocks run under divergent control.

Sources of divergence are thread-varying special registers and results of per-lane operations (atomics,
shuffles, per-lane loads); a value computed from a divergent value, or written under divergent control
(a guarded write, or a write in a block control-dependent on a divergent branch whose value is still live
where the branch's paths join), is divergent. A value written under divergent control and used only
before the join is the same in every lane that runs it (a flag a single lane polls in a loop: probes
phases/ifconvert_spin_*). Flow-insensitive over registers (PTX is not SSA), iterated to a fixpoint;
conservative in the divergent direction.
"""
from __future__ import annotations

from pylower.lowering import ori
from pylower.lowering import ptx_ast as A

from pylower.lowering.ops import is_aligned_cta_barrier, warp_op

from .cfg import EXIT, DomTree, dominators, post_dominators
from .defuse import DefUse
from .reaching import ReachingValues

# special registers that differ between lanes of a warp. The clocks (%clock, %clock64, %globaltimer), %smid and
# the performance counters are read once per warp: ptxas gives a branch on them no pair on any target (probes
# phases/sreg_branch_*; docs/findings/convergence.md "Loops whose divergent arm sleeps or syncs the warp carry per-lane values (helper nvasync, stop 21)").
# %warpid stays per lane: below sm_90 ptxas pairs a branch on it.
_DIVERGENT_SREGS = ("%tid", "%laneid", "%lanemask", "%warpid")
# results that are the same in every lane (warp collectives) even though inputs vary
_UNIFORM_RESULT = {"vote", "activemask", "redux"}
# per-lane results regardless of inputs
# (an mbarrier's arrival token and phase test are the same for every lane using the same barrier at once:
# a wait loop on a warp-uniform barrier is no divergent loop; probes/mbarrier/mbarrier_test_wait_spin_loop,
# mbarrier_test_wait_token_spin_loop)
# Matrix instructions that fetch their tiles from memory hand each lane other elements (wgmma.mma_async through
# shared-memory descriptors, ldmatrix, tcgen05.ld), whatever the operands: a shfl.sync reducing such a fragment is
# no shuffle of a warp-uniform value (probes/warp/wgmma_fragment_shfl, ldmatrix_fragment_shfl; Triton attn_fwd on
# sm_90a). mma.sync of warp-uniform register fragments does give a uniform result (mma_fragment_shfl: ptxas folds
# the shuffles). docs/findings/warp.md "Matrix fragments from memory are per-lane (helper tmisc, stop 20)".
_FRAGMENT_RESULT = {"wgmma", "ldmatrix", "tcgen05"}
_DIVERGENT_RESULT = {"atom", "elect", "shfl", "match"} | _FRAGMENT_RESULT
# ... but the software mbarrier of sm_80-89 arrives with a shared-memory atomic: its token is per lane
# (mbarrier_test_wait_token_spin_loop on sm_80 keeps its pair)
_SW_ATOMIC_MBARRIER = ("arrive", "arrive_drop")


# loads whose value lanes of one warp may see change while they poll
_POLLED_LOADS = (".relaxed", ".acquire", ".volatile")
_SPACES = (".global", ".shared", ".local", ".const", ".param")


# Warp-aligned thread-index tests (probes phases/reqntid_*): in a block of one dimension (`.reqntid N`, or
# N, 1, 1) the warps hold consecutive %tid.x values from a multiple of 32, so %tid.x >> k (k >= 5) and a
# compare of %tid.x with a bound on a warp boundary are the same in every lane of a warp. ptxas takes them as
# uniform only under .reqntid (.maxntid, or a 2-D block, leave them divergent). Comparison -> what must be added
# to the immediate for the bound to be a multiple of 32 (tid < 32, tid >= 64, tid <= 31, tid > 63).
_ALIGNED_BOUND = {".lt": 0, ".ge": 0, ".le": 1, ".gt": 1}
_WARP = 32
_WIDE_TYPES = frozenset({".b64", ".u64", ".s64"})
_HALF_DEPTH = 6                          # definitions followed back by the 64-bit halves model
_WARP_SHIFT = 5


def linear_block(fn: ori.Function) -> bool:
    """Does the kernel declare a one-dimensional block size (.reqntid N or N, 1, 1)?"""
    for d in fn.decl.perf:
        if d.name == ".reqntid":
            dims = d.text.replace(",", " ").split()
            return all(x.strip() == "1" for x in dims[1:])
    return False


def _imm(o) -> int | None:
    v = getattr(o, "value", None) if type(o) is A.Imm else None
    return v if isinstance(v, int) else None


def _broadcast(ins: ori.Instr) -> bool:
    """shfl.sync.idx over the full warp (mask -1, c = 31: one 32-lane segment) from a constant lane: every lane
    gets the same value (ptxas: a spin loop exiting on it is no divergent loop, no WARPSYNC at the shuffle;
    Triton's `atom.cas` lock taken by lane 0 and broadcast. Findings: docs/findings/convergence.md "A shuffle
    from a constant lane is warp-uniform (helper tatom, stop 20)"; probes phases/shfl_idx_*_loop)."""
    ops = ins.operands
    if ".sync" not in ins.mods or getattr(ins.attrs, "mode", "") != "idx" or len(ops) != 5 or type(ops[0]) is A.Pair:
        return False
    lane, c, mask = _imm(ops[2]), _imm(ops[3]), _imm(ops[4])
    return lane is not None and c is not None and (c >> 8) & 0x1F == 0 and mask is not None \
        and mask & 0xFFFFFFFF == 0xFFFFFFFF


def _generic(ins: ori.Instr) -> bool:
    return not any(m.startswith(_SPACES) for m in ins.mods)


def _lets_lanes_drift(ins: ori.Instr) -> bool:
    """A nanosleep or a warp-synchronous op (shfl/vote/match/bar.warp.sync ...; not a non-aligned CTA barrier,
    not probed: llvm/barrier_legacy named_barrier_pingpong on sm_75 keeps its EIATTRs with it left out)."""
    if ins.opcode == "nanosleep":
        return True
    if ins.opcode == "mbarrier" and getattr(ins.attrs, "impl", "") == "sw" \
            and getattr(ins.attrs, "op", "") in ("test_wait", "try_wait"):
        # sm_80-89's software phase test (an LDS of the barrier word): a loop polling it lets the lanes drift,
        # the loop around carries per-lane values (its stage index: ARRIVES.LDGSTSBAR's R2UR loop, the
        # loop's own pair; tools/variations/arrives_waterfall.py, helper nvreg39, stop 39)
        return True
    w = warp_op(ins)
    return w is not None and not w.helper.startswith("barrier_sync")


def _is_divergent_sreg(name: str) -> bool:
    return name.startswith(_DIVERGENT_SREGS)


class Uniformity:
    def __init__(self, fn: ori.Function, defuse: DefUse | None = None, ipdom: dict[str, str] | None = None,
                 liveness=None, native_match_all: bool = False, lane_drift: bool = True):
        self.fn = fn
        # match.all's mask and predicate are the same in every lane where it is one instruction (MATCH.ALL,
        # sm_80+: target feature NATIVE_VOTE_ALL); sm_75 emulates it with per-lane MATCH.ANY results
        # (probes/warp/match_all_*_branch)
        self.native_match_all = native_match_all
        self.lane_drift = lane_drift           # apply _lane_iterated (not for ISel's data uniformity)
        self.du = defuse or DefUse(fn)
        self._ipdom = ipdom
        self._liveness = liveness
        self.divergent: set[str] = set()
        self.divergent_blocks: set[str] = set()
        self._joins: dict[str, set[str]] = {}     # divergent block -> the joins of the branches it depends on
        self._left_loops: dict[str, set[str]] = {}  # divergent block -> headers of loops a per-lane exit leaves
        # blocks holding a generic-address store (see _strong_generic_load_beside_store)
        self._generic_store_blocks = {b.label for b in fn.blocks
                                      if any(i.opcode == "st" and _generic(i) for i in b.instrs)}
        self._cfg_reach: dict[str, set[str]] = {}  # block -> blocks reachable from it
        self._at: ori.Instr | None = None         # while running: the instruction whose operands are asked about
        self._values: ReachingValues | None = None   # registers written more than once (_reaching)
        self._linear = fn.decl.is_entry and linear_block(fn)
        self._loop_list: list[tuple[str, frozenset]] | None = None
        self._loop_by_header: dict[str, list[frozenset]] | None = None
        self._dom: DomTree | None = None
        self._deep: set[int] = set()              # setps whose halves model read registers beyond their operands
        self._block_of: dict[int, str] | None = None
        self._run()
        self._at = None

    def _divergent_sreg(self, name: str) -> bool:
        return _is_divergent_sreg(name)

    def _live_at_join(self, label: str, reg: str) -> bool:
        """Is `reg` live where a divergent branch that block `label` depends on joins again?"""
        lv = self._liveness
        if lv is None:
            return True
        i = lv.index.get(reg)
        if i is None:
            return False
        # a branch whose paths only meet at the kernel's end (one arm traps or exits) joins where nothing is live
        if any(j != EXIT and (j not in lv.live_in or lv.live_in[j][i]) for j in self._joins.get(label, ())):
            return True
        # a value carried around a loop that lanes leave in different trips (docs/findings/convergence.md
        # "Values carried around a loop with a per-lane exit are per lane (helper nvasync24, stop 24)")
        return any(h in lv.live_in and lv.live_in[h][i] for h in self._left_loops.get(label, ()))

    def _loops_left(self, b: ori.BasicBlock, join: str) -> list[tuple[str, frozenset]]:
        """The loops whose latch `b` ends in a divergent branch leaving them (its join lies outside): the loop's
        own back-edge test. An exit test in a loop's header that is not its latch (a `for` whose body runs
        under `if (i < n[tid])`, the exit arm after it: nvcc/cuda_barrier_variants barrier_split_and_drop)
        does not count."""
        if self._loop_by_header is None:
            self._loop_by_header = {}
            for h, body in self._loops():
                self._loop_by_header.setdefault(h, []).append(body)
        return [(h, body) for h in dict.fromkeys(b.succs) for body in self._loop_by_header.get(h, ())
                if b.label in body and join not in body and not self._barrier_to_latch(body, b.label)]

    def _barrier_to_latch(self, body, latch: str) -> bool:
        """Does every trip of the loop to its back-edge test `latch` pass an aligned CTA barrier (bar.sync,
        bar.arrive, bar.red, barrier.*.aligned in a block of the loop dominating the latch)? The lanes still
        in the loop are then in the same trip, so ptxas keeps what they carry around it warp-uniform however
        the back edge splits the warp (only lanes that left see other values). A barrier under an if of the
        loop, or a non-aligned `barrier.sync`, does not count (docs/findings/convergence.md "A CTA barrier on
        every trip keeps a per-lane-exit loop's counter uniform (helper w2uni, stop 27)")."""
        by_label = {b.label: b for b in self.fn.blocks}
        dom = self._dom_tree()
        return any(x in by_label and dom.dominates(x, latch)
                   and any(is_aligned_cta_barrier(i) for i in by_label[x].instrs) for x in body)

    def _dom_tree(self) -> DomTree:
        if self._dom is None:
            self._dom = DomTree(dominators(self.fn))
        return self._dom

    def _loops(self) -> list[tuple[str, frozenset]]:
        """(header, body) of every natural loop (a back edge to a block dominating its source)."""
        if self._loop_list is None:
            dom = self._dom_tree()
            by_label = {b.label: b for b in self.fn.blocks}
            out = []
            for b in self.fn.blocks:
                for h in b.succs:
                    if h in by_label and dom.dominates(h, b.label):
                        body, work = {h, b.label}, [b.label]
                        while work:
                            x = work.pop()
                            if x != h:
                                for q in by_label[x].preds:
                                    if q not in body and q in by_label:
                                        body.add(q)
                                        work.append(q)
                        out.append((h, frozenset(body)))
            self._loop_list = out
        return self._loop_list

    def _lane_iterated(self) -> set[tuple[str, str]]:
        """(block, register) of the definitions ptxas takes as per lane because lanes of a warp may be in
        different trips of their loop: a loop holding a divergent branch whose arm (before its join, inside the
        loop) runs a nanosleep or a warp-synchronous op (shfl/vote/bar.warp.sync ...) lets the lanes drift apart,
        so the registers carried around it, or around a loop nested in it, are per lane (its counter, and all
        computed from it: nvcc/cuda_barrier_producer_consumer, whose stage index picks the mbarrier each wait
        polls). A plain store, fence, atomic or strong load in the arm does not (probes phases/loop_div_arm_*,
        sreg_branch_*, mbar_wait_backoff_*; docs/findings/convergence.md "Loops whose divergent arm sleeps or
        syncs the warp carry per-lane values (helper nvasync, stop 21)")."""
        lv = self._liveness
        if lv is None or not self.lane_drift:
            return set()
        by_label = {b.label: b for b in self.fn.blocks}
        loops = self._loops()
        drifting = [body for _, body in loops
                    if any(x in body and by_label[x].label in self.divergent_blocks
                           and any(j in body for j in self._joins.get(x, ()))
                           and any(_lets_lanes_drift(i) for i in by_label[x].instrs)
                           for x in body)
                    and not self._barrier_each_trip(body, by_label)]
        out: set[tuple[str, str]] = set()
        for h, body in loops:
            if not any(body <= d for d in drifting) or h not in lv.live_in:
                continue
            live = lv.live_in[h]
            for x in body:
                for ins in by_label[x].instrs:
                    for r in self.du.defs(ins):
                        i = lv.index.get(r)
                        if i is not None and live[i]:
                            out.add((x, r))
        return out

    def _barrier_each_trip(self, body, by_label) -> bool:
        """Does the loop run an aligned CTA barrier outside its divergent code (every lane, every trip)? Then
        its lanes cannot be in different trips: ptxas takes its carried values as uniform (probes
        phases/loop_div_arm_shfl_atom_bar*; docs/findings/convergence.md "Drifting loops on sm_75, and a CTA
        barrier in the loop stops the drift (helper pphase24, stop 24)")."""
        return any(x not in self.divergent_blocks and any(is_aligned_cta_barrier(i) for i in by_label[x].instrs)
                   for x in body)

    def _value_divergent(self, ins: ori.Instr) -> bool:
        op = ins.opcode
        if (op in _UNIFORM_RESULT or op == "match" and self.native_match_all and ".all" in ins.mods) \
                and not self._per_lane_mask(ins):
            return False                     # a warp collective gives every lane the same value
        if op == "shfl" and _broadcast(ins):
            return False                     # every lane reads the same lane
        if op in _DIVERGENT_RESULT or op == "mbarrier" and getattr(ins.attrs, "impl", "") == "sw" \
                and getattr(ins.attrs, "op", "") in _SW_ATOMIC_MBARRIER:
            return True                      # per-lane results (atomics, shuffles, ...)
        if self._linear and self._warp_aligned(ins):
            return False
        if op == "setp" and any(m in _WIDE_TYPES for m in ins.mods):
            self._deep.add(id(ins))
            return any(any(self._halves(r, _HALF_DEPTH)) for r in self.du.uses(ins))
        # everything else (incl. loads: same address -> same value) is divergent iff an input is
        return any(self._reg_divergent(r) for r in self.du.uses(ins))

    def _halves(self, name: str, depth: int) -> tuple[bool, bool]:
        """(low, high) 32-bit halves of a 64-bit register: is each divergent? ptxas splits 64-bit bitwise ops
        and shifts by 32 into 32-bit ones and judges each half on its own: a zero-extended per-lane 32-bit value
        has a uniform (zero) high half, which an `or`/`and`/`xor` with a uniform value keeps, so LLVM's
        bypass-slow-division test `((a | b) & 0xffffffff00000000) != 0` is a uniform branch (docs/findings/
        convergence.md "A 64-bit value's high half is uniform on its own (helper tri28, stop 28)"). A register
        written more than once, guarded, or in divergent code is judged whole."""
        whole = self._reg_divergent(name)
        if not whole or depth == 0:
            return whole, whole
        ds = self.du.definitions(name)
        if len(ds) != 1 or ds[0].guard is not None:
            return whole, whole
        d = ds[0]
        if self._block_of is None:
            self._block_of = {id(i): b.label for b in self.fn.blocks for i in b.instrs}
        if self._block_of.get(id(d)) in self.divergent_blocks:
            return whole, whole
        op, ops = d.opcode, d.operands
        if op == "cvt" and len(ops) == 2 and ".u64" in d.mods and any(m in (".u32", ".u16", ".u8") for m in d.mods):
            return self.is_divergent_operand(ops[1]), False            # zero-extended: the high half is 0
        if op in ("or", "and", "xor") and len(ops) == 3 and ".b64" in d.mods:
            a, b = (self._operand_halves(o, depth - 1) for o in ops[1:])
            lo, hi = a[0] or b[0], a[1] or b[1]
            if op == "and":                                           # a half masked by zero is zero
                for o in ops[1:]:
                    v = _imm(o)
                    if v is not None:
                        lo = lo and (v & 0xffffffff) != 0
                        hi = hi and (v >> 32) & 0xffffffff != 0
            return lo, hi
        if op == "shr" and len(ops) == 3 and (".u64" in d.mods or ".b64" in d.mods):
            k = _imm(ops[2])
            if k is not None and 32 <= k < 64:
                return self._operand_halves(ops[1], depth - 1)[1], False
        return whole, whole

    def _operand_halves(self, o, depth: int) -> tuple[bool, bool]:
        if type(o) is A.Reg:
            return self._halves(o.name, depth)
        d = self.is_divergent_operand(o)
        return d, d

    def _per_lane_mask(self, ins: ori.Instr) -> bool:
        """A vote/redux over a member mask that differs between lanes (`0xffff << (laneid & ~15)`: a tile of a
        tiled partition) gives each group of lanes its own result: ptxas aggregates an atomic of it with a REDUX
        (not the uniform value times the lane count). A constant or parameter mask keeps the result uniform
        (docs/findings/warp.md "A collective over a per-lane member mask has a per-lane result (helper nvcg26,
        stop 26)")."""
        if ins.opcode == "activemask" or ".sync" not in ins.mods or not ins.operands:
            return False
        mask = ins.operands[-1]
        return type(mask) is A.Reg and self._reg_divergent(mask.name)

    def _tid_x(self, o) -> bool:
        """Is operand `o` %tid.x, or a register only ever (unguarded) moved from it?"""
        if type(o) is not A.Reg:
            return False
        if o.name == "%tid.x":
            return True
        ds = self.du.definitions(o.name)
        return bool(ds) and all(d.opcode in ("mov", "cvt") and d.guard is None and len(d.operands) == 2
                                and type(d.operands[1]) is A.Reg and d.operands[1].name == "%tid.x" for d in ds)

    def _warp_aligned(self, ins: ori.Instr) -> bool:
        """%tid.x >> k (k >= 5), or %tid.x compared with a bound on a warp boundary (_ALIGNED_BOUND)."""
        ops = ins.operands
        if len(ops) != 3 or type(ops[0]) is not A.Reg:
            return False
        if ins.opcode == "shr":
            k = _imm(ops[2])
            return k is not None and k >= _WARP_SHIFT and self._tid_x(ops[1])
        if ins.opcode == "setp":
            add = next((v for m, v in _ALIGNED_BOUND.items() if m in ins.mods), None)
            bound = _imm(ops[2])
            return add is not None and bound is not None and bound >= 0 and (bound + add) % _WARP == 0 \
                and self._tid_x(ops[1])
        return False

    def _strong_generic_load_beside_store(self, b: ori.BasicBlock, ins: ori.Instr) -> bool:
        """A generic-address strong load (relaxed, acquire or volatile) in a function that holds a
        generic-address store of any kind (plain, weak, relaxed, release, volatile; before or after it,
        converged or not): ptxas treats the loaded value as per lane, so a branch on it is divergent (a spin
        loop on a parameter's flag keeps its BSSY/BSYNC: nvcc/atomic_ref_orders; probes
        phases/strong_ld_generic_st_*). A .global load, or only .global/.shared stores, do not count, nor a
        store on another path only (the other arm of an if: nvcc/atomic_wait_notify atomic_flag_notify)."""
        if not self._generic_store_blocks or ins.opcode != "ld" or not ins.has(*_POLLED_LOADS) \
                or not _generic(ins):
            return False
        here = b.label
        return any(x == here or x in self._reachable(here) or here in self._reachable(x)
                   for x in self._generic_store_blocks)

    def _reachable(self, label: str) -> set[str]:
        r = self._cfg_reach.get(label)
        if r is None:
            by_label = {b.label: b for b in self.fn.blocks}
            r, work = set(), list(by_label[label].succs) if label in by_label else []
            while work:
                x = work.pop()
                if x in r or x not in by_label:
                    continue
                r.add(x)
                work.extend(by_label[x].succs)
            self._cfg_reach[label] = r
        return r

    def _polled_while_stored(self, b: ori.BasicBlock, ins: ori.Instr, by_label) -> bool:
        """A generic-address strong load (relaxed, acquire or volatile) in a loop under divergent control,
        with a generic-address store (of any kind) after it before the branch joins: ptxas treats the
        loaded value as per lane (lanes that left the loop may store where the others still poll), so
        the loop keeps its BSSY/BSYNC (the decoupled look-back of nvcc/decoupled_lookback_scan). A .global
        load or a .global store does not count (probes phases/poll_generic_*)."""
        if ins.opcode != "ld" or not ins.has(*_POLLED_LOADS) or not _generic(ins):
            return False
        joins = self._joins.get(b.label, set())
        seen, work, cyclic, stores = set(), list(b.succs), False, False
        while work:
            x = work.pop()
            if x == b.label:
                cyclic = True
            if x in seen or x in joins or x not in by_label:
                continue
            seen.add(x)
            stores = stores or any(i.opcode == "st" and _generic(i) for i in by_label[x].instrs)
            work.extend(by_label[x].succs)
        return cyclic and stores

    def _reaching(self, rows: list) -> ReachingValues | None:
        """The reaching definitions of the registers written more than once (a register written once is
        divergent or not as a whole)."""
        seen: set[str] = set()
        multi: set[str] = set()
        for _, row in rows:
            for _, ds, _ in row:
                for r in ds:
                    if r in seen:
                        multi.add(r)
                    seen.add(r)
        if not multi:
            return None
        lv = self._liveness
        if lv is None:
            from .liveness import Liveness
            lv = Liveness(self.fn, self.du)
        return ReachingValues(self.fn, rows, multi, lv)

    def _reg_divergent(self, name: str) -> bool:
        """Is register `name` divergent where self._at reads it (any reaching definition divergent), or anywhere
        (any definition divergent) outside the analysis?"""
        if self._divergent_sreg(name):
            return True
        if self._at is not None and self._values is not None:
            value = self._values.uses.get((id(self._at), name))
            if value is not None:
                return value in self._values.marked
        return name in self.divergent

    def _run(self) -> None:
        """Iterate the divergence rules to their fixpoint, block by block in order. An instruction is evaluated
        again only when something it reads changed since its last evaluation (a register it uses gained a
        divergent definition, its block became divergent or gained a join, the lane-drift pairs grew): the rules
        read nothing else, so skipping it gives the same answer the full pass would."""
        defs_uses = self.du.defs_uses
        rows = [(b, [(ins, *defs_uses(ins)) for ins in b.instrs]) for b in self.fn.blocks]
        values = self._values = self._reaching(rows)
        number = values.defs if values is not None else {}
        marked = values.marked if values is not None else set()
        fn = self.fn
        ipdom = self._ipdom if self._ipdom is not None else post_dominators(fn)
        by_label = {b.label: b for b in fn.blocks}
        divergent, divergent_blocks = self.divergent, self.divergent_blocks
        # per block, the instructions that write registers, what they write and read
        writers = [(b, [e for e in row if e[1]]) for b, row in rows]
        clock = 0                        # counts changes; each stamp below is the count at its last change
        reg_stamp: dict[str, int] = {}   # register -> when one of its definitions became divergent
        block_stamp: dict[str, int] = {}  # block -> when it became divergent or gained a join
        iter_stamp = 0                   # when the lane-drift pairs grew
        evaluated: dict[int, int] = {}   # id(instruction) -> the count when it was last evaluated
        walked: set[str] = set()         # blocks whose divergent branch has been followed to its join
        iterated: set = set()
        iterated_at = -1                 # the count when `iterated` was last computed
        changed = True
        while changed:
            changed = False
            # control divergence: blocks between a divergent branch and its immediate post-dominator (following
            # a branch again adds nothing: the walk reads only the CFG)
            for b in fn.blocks:
                if not b.instrs or b.label in walked:
                    continue
                last = b.instrs[-1]
                if last.opcode == "bra" and last.guard is None and len(b.instrs) > 1 \
                        and b.instrs[-2].opcode == "bra" and b.instrs[-2].guard is not None:
                    last = b.instrs[-2]          # `@p bra X; bra Y` (phase 21's inverted loop test)
                self._at = last
                if last.opcode in ("bra", "brx") and last.guard is not None and self.is_divergent_operand(last.guard):
                    walked.add(b.label)
                    join = ipdom.get(b.label)
                    work = [s for s in b.succs if s != join]
                    left = self._loops_left(b, join) if self._liveness is not None else ()
                    seen: set[str] = set()
                    while work:
                        x = work.pop()
                        if x in seen or x == join or x not in by_label:
                            continue
                        seen.add(x)
                        joins = self._joins.setdefault(x, set())
                        if join not in joins:
                            joins.add(join)
                            clock += 1
                            block_stamp[x] = clock
                            changed = True
                        if x not in divergent_blocks:
                            divergent_blocks.add(x)
                            clock += 1
                            block_stamp[x] = clock
                            changed = True
                        for h, body in left:
                            if x in body and h not in (heads := self._left_loops.setdefault(x, set())):
                                heads.add(h)
                                clock += 1
                                block_stamp[x] = clock
                                changed = True
                        work.extend(s for s in by_label[x].succs if s != join)
            if iterated_at < max(block_stamp.values(), default=0):
                iterated_at = clock
                now = self._lane_iterated()
                if now != iterated:
                    iterated = now
                    clock += 1
                    iter_stamp = clock
            for b, writes in writers:
                label = b.label
                in_div = label in divergent_blocks
                b_stamp = max(block_stamp.get(label, 0), iter_stamp)
                for ins, ds, us in writes:
                    last_seen = evaluated.get(id(ins))
                    if last_seen is not None and b_stamp <= last_seen and id(ins) not in self._deep and \
                            all(reg_stamp.get(r, 0) <= last_seen for r in us):
                        continue                 # nothing it reads changed
                    evaluated[id(ins)] = clock
                    div = None                   # computed once a definition is not divergent yet
                    self._at = ins
                    for r in ds:
                        d = number.get((id(ins), r))
                        if r in divergent if d is None else d in marked:
                            continue
                        if div is None:
                            div = self._value_divergent(ins) or self._strong_generic_load_beside_store(b, ins) or (
                                ins.guard is not None and self.is_divergent_operand(ins.guard)) or \
                                in_div and self._polled_while_stored(b, ins, by_label)
                        if div or in_div and self._live_at_join(label, r) or (label, r) in iterated:
                            if d is not None:
                                values.mark(d)
                            divergent.add(r)
                            clock += 1
                            reg_stamp[r] = clock
                            changed = True

    def is_divergent_operand(self, o) -> bool:
        t = type(o)
        if t is A.Reg:
            return self._reg_divergent(o.name)
        if t in (A.Not, A.Neg):
            return self.is_divergent_operand(o.inner)
        if t in (A.Addr, A.Vec, A.Paren):
            return any(self.is_divergent_operand(i) for i in o.items)
        if t is A.Pair:
            return self.is_divergent_operand(o.first) or self.is_divergent_operand(o.second)
        return False

    def is_uniform(self, o) -> bool:
        return not self.is_divergent_operand(o)
