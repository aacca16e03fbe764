"""Phase 22 LoopUnrolling: ptxas's unrolling decisions for counted loops, as seen from their sync
instructions (docs/findings/phases.md section 3).

The number and name are pylower's: ptxas's unroller runs before phase 25 StageAndFence (the seed), but
neither the seed nor the ptxas strings name its phase. Its refusal reasons are ptxas's own strings
("Not unrolled: Irregular loop", "... Ineligible instruction", "... performance", ...), counted in --stats.

Only at -O2 and above, for a single-block loop `L: body; add i, i, s; setp.cmp p, i, N; @p bra L;`
with a known start value of i:
- constant trip count T: fully unrolled when T x (body cost) fits the target's budget, else the body is
  repeated _PARTIAL_FACTOR times in the loop (plus the remainder copies);
- N loaded from a kernel parameter, or any loop-invariant N (an immediate too, with an unknown start:
  docs/findings/phases.md "An unknown start with an immediate bound is unrolled too (helper w2unroll, stop 26)")
  when the body holds no CTA barrier or warp op (with one, only a parameter or immediate bound and a start the
  same in every lane: a %tid-derived start keeps it rolled, docs/findings/phases.md "A loop holding a sync op with
  a per-thread start stays rolled (helper nv27warp, stop 27)"; a plain cp.async is no sync op there),
  never with an atomic or reduction in the body, and only while the body's cost is within the allowance
  (docs/findings/phases.md "Unknown-trip unrolling is a cost against an allowance (helper unroll28, stop 28)"): with an
  unsigned compare peel one iteration, then unroll the main loop by 4, then a 2-copy and a 1-copy remainder
  (8 copies of the body in all, as ptxas; 7 without the peel for a signed compare);
- never with `.pragma "nounroll"`, a MEMBAR-class fence in the body (findings R6), a call, or, below
  sm_90, a warp-synchronous op (loop_vote_ballot_trip4) or a release atom/red (UNROLL_RELEASE_ATOMICS). CTA
  barriers do not stop it.
"""
from __future__ import annotations

import operator
from collections import Counter

from pylower.lowering import ori
from pylower.lowering import ops
from pylower.lowering import ptx_ast as A
from pylower.lowering.fam_fence import is_membar_class
from pylower.passes.analysis.defuse import defs, uses
from pylower.passes.analysis.regions import UNROLLED_REJOIN

from .manager import PassContext, Phase

NAME = "LoopUnrolling"
_ALU, _BRANCH = ori.ORI_CLASSES["alu"], ori.ORI_CLASSES["branch"]
UNROLL_FROM_OPT = 2
# Full-unroll budget in body cost units (non-sync body instructions other than the loop control), small on
# targets with UNROLL_SMALL_BUDGET. Bisected with a 3-instruction body: sm_90/100a/120 unroll 307 trips
# fully, 308 not; sm_75 1500 but not 2000, sm_80 1000 (findings section 3).
_FULL_BUDGET = {True: 3 * 307, False: 3 * 1500}
_MAX_FULL_TRIP = 2000             # a bar-only body (cost 0) was seen fully unrolled up to here (sm_90)
_PARTIAL_FACTOR = 32              # loop_bar_sync_trip512 on sm_90+: 32 BARs in the loop
_UNKNOWN_TRIP_FACTOR = 4          # [peel 1] + 4 + 2 + 1 (loop_bar_sync_trip_unknown)
# The unknown-trip unroll cost model (_unknown_trip_cost; docs/findings/phases.md "Unknown-trip unrolling is a cost
# against an allowance (helper unroll28, stop 28)"): a loop is unrolled while the summed cost of its body's
# instructions is at most the allowance. Costs are in units of one arithmetic instruction, fitted to bisections of
# `do { FIXED; N x add.f32 } while (++i < n)` (largest N unrolled) over body kinds and targets.
_UNKNOWN_TRIP_ALLOWANCE = 18
_UNROLL_COST = {
    "induction": 0,         # `add r, r, imm` of a register the body updates and reads only there (the counter)
    "alu": 1,               # any other plain instruction (add, fma, mov, cvt, shfl, vote, ...)
    "store": 2,             # st.shared / st.global
    "shared_load": -3,      # each ld.shared *raises* the allowance: its latency is what unrolling hides
    "global_load": 2,       # ld.global / generic ld, on top of _FIRST_GLOBAL_LOAD_CREDIT
    "shared_atomic": 10,    # atom/red.shared (their warp aggregation)
    "async_copy": 1,        # cp.async (LDGSTS)
    "async_group": 1,       # cp.async.commit_group / wait_group
    # f32 arithmetic ISel expands (docs/findings/phases.md "Unknown-trip unrolling: the cost of an expanded
    # MUFU or division (helper nvwarp33, stop 33)"): the non-.ftz MUFU forms with their denormal prelude and
    # fix-up, div.full, and 32-bit integer division (the longest: never unrolled)
    "mufu_prelude": 6,      # ex2 / lg2 / rsqrt / sqrt .approx.f32
    "mufu_rcp": 7,          # rcp.approx.f32, div.approx.f32
    "div_full": 12,         # div.full.f32
    "int_div": 19,          # div / rem .s32 / .u32
}
# the rows above by opcode: (opcode, row) for .f32 forms without .ftz; integer division by type
_EXPANDED_F32 = {"ex2": "mufu_prelude", "lg2": "mufu_prelude", "rsqrt": "mufu_prelude", "sqrt": "mufu_prelude",
                 "rcp": "mufu_rcp"}
# a CTA barrier and an mma.sync cost 2 below sm_90 and 1 from it (UNROLL_SYNC_COST_1)
_UNROLL_SYNC_COST = {False: 2, True: 1}
_FIRST_GLOBAL_LOAD_CREDIT = 28     # once, for a body with a global or generic load (a latency to hide)
# ... and never a body of more instructions than this, whatever its loads earn (32 ld.shared + add pairs and a
# bar.sync, 67 with the loop control, are unrolled; 34 pairs are not: phases/loop_unknown_bound_param_bar_lds36)
_UNKNOWN_TRIP_MAX_BODY = 68
_MAX_SIMULATED_TRIP = 1 << 20

_CMP = {".lt": operator.lt, ".le": operator.le, ".gt": operator.gt, ".ge": operator.ge,
        ".ne": operator.ne, ".eq": operator.eq, ".lo": operator.lt, ".ls": operator.le, ".hi": operator.gt,
        ".hs": operator.ge}
_MONOTONE = {".lt", ".le", ".gt", ".ge", ".lo", ".ls", ".hi", ".hs"}

NOT_IRREGULAR = "Not unrolled: Irregular loop"
NOT_INELIGIBLE = "Not unrolled: Ineligible instruction"
NOT_PERFORMANCE = "Not unrolled: performance"
NOT_EXIT = "Not unrolled: Unsupported loop exit condition"
NOT_INDEX = "Not unrolled: Unsupported loop index variable"
NOT_PRAGMA = "Not unrolled: pragma nounroll"


def _param_loaded(fn: ori.Function, reg: str) -> bool:
    """Is every definition of reg a kernel-parameter load? ptxas unrolls an unknown-trip loop only then:
    a bound computed from a parameter (+5, *3, |255, &255), loaded from global memory, or read from
    %ctaid/%ntid/%nctaid keeps the loop rolled (probes loop_bar_sync_trip_unknown*, barrier/bar_sync_loop).
    A per-thread bound (div_loop_shfl_sync) is never a parameter."""
    ds = [i for b in fn.blocks for i in b.instrs if reg in defs(i)]
    return bool(ds) and all(i.opcode == "ld" and ".param" in i.mods for i in ds)


_ATOMICS = ("atom", "red")
_SYNC_CLASSES = (ops.SYNC, ops.BARRIER, ops.MBARRIER, ops.ASYNC)
_PLAIN_COPY_FORMS = ("ldgsts",)


def _memory_atomic(ins: ori.Instr) -> bool:
    """An atomic or reduction outside shared memory: an unknown-trip loop holding one stays rolled, whatever
    its bound (a parameter too: phases/loop_unknown_bound_param_atom, _param_red); shared-memory atomics are
    unrolled with a parameter bound (phases/bssy_bar_trailing: 8 ATOMS.POPC.INC)."""
    return ins.opcode in _ATOMICS and not ins.has(".shared")


def _release_atomic(ins: ori.Instr, target) -> bool:
    """Below sm_90 a release (acq_rel) atom/red keeps its loop rolled, as the MEMBAR it issues would: whether or
    not it is aggregated, at .cta or .gpu scope, with a constant or an unknown trip count (docs/findings/atomic.md
    "A release atomic keeps its loop rolled below sm_90 (helper nv27atom, stop 27)")."""
    return ins.opcode in _ATOMICS and not target.has("UNROLL_RELEASE_ATOMICS") and \
        any(m in (".release", ".acq_rel") for m in ins.mods)


def _holds_sync(body) -> bool:
    """A CTA barrier, warp op, mbarrier or async-copy op or shared-memory atomic in the loop body: only such a
    loop needs its unknown bound loaded from a kernel parameter to be unrolled (mbarrier/mbarrier_arrive_in_loop,
    phases/loop_may_spin_red_shared_bar_join: a %tid bound keeps it rolled). A loop of plain work (loads, stores, arithmetic) is unrolled 4 + 2 + 1 whatever its
    loop-invariant bound is: loaded from global or shared memory, computed from a parameter, %ntid, %tid
    (phases/loop_unknown_bound_*; nvcc/cub_warp_reduce_scan csr_spmv_*: the pairs around its remainders)."""
    return any(ops.is_sync(i) or i.op in _SYNC_CLASSES and not _plain_copy(i) or i.opcode in _ATOMICS for i in body)


def _plain_copy(ins: ori.Instr) -> bool:
    """A cp.async copy (LDGSTS) is memory work, not a sync op, to the unroller: a loop of them with a per-thread
    start and an immediate bound is unrolled; its commit_group / wait_group are sync ops."""
    return ins.op == ops.ASYNC and ins.attrs.form in _PLAIN_COPY_FORMS


def _unsigned(setp: ori.Instr) -> bool:
    """Does the loop test compare unsigned (`setp.lt.u32`, `setp.lo.s32`)?"""
    return any(m in (".lo", ".ls", ".hi", ".hs") or m.startswith((".u", ".b")) for m in setp.mods)


def _budget(target) -> int:
    return _FULL_BUDGET[target.has("UNROLL_SMALL_BUDGET")]


def _imm_int(o) -> int | None:
    if type(o) is A.Imm and isinstance(o.value, int):
        return o.value
    return None


def _cost_kind(ins: ori.Instr, inductions: set) -> str:
    """The row of _UNROLL_COST an instruction of the loop body falls under."""
    if ins.opcode == "add" and id(ins) in inductions:
        return "induction"
    if ins.opcode == "ld":
        return "shared_load" if ins.has(".shared") else "alu" if ins.has(".const") or ins.has(".param") \
            else "global_load"
    if ins.opcode == "st":
        return "store"
    if ins.opcode in _ATOMICS:
        return "shared_atomic"
    if ins.op == ops.ASYNC:
        return "async_copy" if _plain_copy(ins) else "async_group"
    if ins.has(".f32") and not ins.has(".ftz"):
        if ins.has(".approx"):
            row = "mufu_rcp" if ins.opcode == "div" else _EXPANDED_F32.get(ins.opcode)
            if row is not None:
                return row
        elif ins.opcode == "div" and ins.has(".full"):
            return "div_full"
    if ins.opcode in ("div", "rem") and (ins.has(".s32") or ins.has(".u32")):
        return "int_div"
    return "alu"


def _induction_updates(body, counter) -> set:
    """The loop counter's update, and `add r, r, imm` whose register the body writes only there and reads nowhere
    else (an address advanced but not used): free. One the body reads (an address it loads or stores through)
    costs 1."""
    writers: dict = {}
    readers: dict = {}
    for i in body:
        for r in defs(i):
            writers[r] = writers.get(r, 0) + 1
    steps = [i for i in body if i.opcode == "add" and i.guard is None and len(i.operands) == 3
             and type(i.operands[0]) is A.Reg and i.operands[1] == i.operands[0]
             and _imm_int(i.operands[2]) is not None and writers.get(i.operands[0].name) == 1]
    for i in body:
        for r in uses(i):
            readers[r] = readers.get(r, 0) + 1
    return {id(i) for i in steps if readers.get(i.operands[0].name, 0) <= 1} | {id(counter)}


def _unknown_trip_cost(body, counter, target) -> int:
    """ptxas's cost of unrolling an unknown-trip loop with this body (see _UNROLL_COST): the sum of the rows of its
    instructions, a CTA barrier or an mma.sync _UNROLL_SYNC_COST, less _FIRST_GLOBAL_LOAD_CREDIT once for a body
    that loads from global memory."""
    sync_cost = _UNROLL_SYNC_COST[target.has("UNROLL_SYNC_COST_1")]
    inductions = _induction_updates(body, counter)
    kinds = [_cost_kind(i, inductions) for i in body]
    cost = sum(sync_cost if ops.is_cta_barrier(i) or i.opcode == "mma" else _UNROLL_COST[k]
               for i, k in zip(body, kinds))
    if "global_load" in kinds:
        cost -= _FIRST_GLOBAL_LOAD_CREDIT
    return cost


class _Loop:
    """A single-block counted loop and its induction variable."""

    def __init__(self, fn: ori.Function, idx: int):
        self.fn, self.idx = fn, idx
        self.block = fn.blocks[idx]
        self.pre = fn.blocks[idx - 1] if idx > 0 else None
        self.exit = fn.blocks[idx + 1] if idx + 1 < len(fn.blocks) else None

    def analyse(self) -> str | None:
        """None if this is a counted loop (fields set), else ptxas's reason for not unrolling it."""
        b = self.block
        ins = b.instrs
        if self.pre is None or self.exit is None or len(ins) < 3 or sorted(b.preds) != sorted({self.pre.label, b.label}) \
                or b.label not in self.pre.succs or self.pre.instrs and self.pre.instrs[-1].opcode == "bra":
            return NOT_IRREGULAR
        br, setp = ins[-1], ins[-2]
        if type(br.guard) is not A.Reg or setp.opcode != "setp" or type(setp.operands[0]) is not A.Reg \
                or setp.operands[0].name != br.guard.name or len(setp.operands) != 3:
            return NOT_EXIT
        self.pred, self.cmp = br.guard, next((m for m in setp.mods if m in _CMP), None)
        self.setp = setp
        var, bound = setp.operands[1], setp.operands[2]
        if self.cmp is None or type(var) is not A.Reg:
            return NOT_EXIT
        updates = [i for i in ins[:-2] if var.name in defs(i)]
        if len(updates) != 1 or updates[0].opcode != "add" or updates[0].guard is not None:
            return NOT_INDEX
        upd = updates[0]
        step = _imm_int(upd.operands[2]) if len(upd.operands) == 3 and upd.operands[1] == var else None
        if not step:
            return NOT_INDEX
        self.var, self.step, self.update = var, step, upd
        self.bound = _imm_int(bound)
        self.bound_reg = bound if type(bound) is A.Reg else None
        if self.bound is None and (self.bound_reg is None or any(bound.name in defs(i) for i in ins)):
            return NOT_EXIT
        self.init = None
        for i in reversed(self.pre.instrs):
            if var.name in defs(i):
                if i.opcode == "mov" and i.guard is None:
                    self.init = _imm_int(i.operands[1])
                break
        self.body = ins[:-2]
        return None

    def trip_count(self) -> int | None:
        if self.bound is None or self.init is None:
            return None
        i, n, cmp = self.init, self.bound, _CMP[self.cmp]
        for trips in range(1, _MAX_SIMULATED_TRIP):
            i += self.step
            if not cmp(i, n):
                return trips
        return None


class LoopUnrolling(Phase):
    number = 22
    name = NAME
    description = "-O2+: unroll counted single-block loops (full / partial / peel+4+2+1) as ptxas decides"

    def run(self, fn: ori.Function, ctx: PassContext) -> bool:
        if ctx.opt_level < UNROLL_FROM_OPT:
            return False
        changed = False
        idx = 0
        while idx < len(fn.blocks):
            b = fn.blocks[idx]
            last = b.instrs[-1] if b.instrs else None
            if last is not None and last.opcode == "bra" and last.guard is not None and \
                    any(type(o) is A.Sym and o.name == b.label for o in last.operands):
                reason = self._unroll(fn, idx, ctx)
                if reason is None:
                    changed = True
                    ori.link_preds(fn)
                    ctx.analyses(fn).invalidate()
                else:
                    ctx.count(self, reason)
            idx += 1
        return changed

    def _unroll(self, fn: ori.Function, idx: int, ctx: PassContext) -> str | None:
        loop = _Loop(fn, idx)
        body = loop.block.instrs
        if any("nounroll" in i.attrs.pragma for i in body):
            return NOT_PRAGMA
        for i in body:
            if is_membar_class(i) or i.opcode in ("call", "ret", "exit", "brx") or _release_atomic(i, ctx.target) or \
                    (not ctx.target.has("UNROLL_WARP_OPS") and ops.warp_op(i) is not None and not ops.is_cta_barrier(i)):
                return NOT_INELIGIBLE
        reason = loop.analyse()
        if reason is not None:
            return reason
        if loop.pre.label.endswith(UNROLLED_REJOIN):        # the rolled loop of copies made here
            return NOT_IRREGULAR
        trips = loop.trip_count()
        if trips is not None:
            return self._constant(loop, trips, ctx)
        if loop.cmp == ".ne":
            # a per-thread trip count: ptxas unrolls it the same way, the unrolled copies inside a pair of their
            # own that the lanes done there leave by a BREAK (phases/loop_ne_countdown_divergent; phase 72
            # `_unrolled_nests`); not with a sync op in the body (not measured)
            divergent = ctx.analyses(fn).uniformity.is_divergent_operand(loop.pred)
            if divergent and _holds_sync(loop.body):
                return NOT_EXIT
            if self._unknown_trip_too_big(loop, ctx.target):      # the same limit (phases/loop_ne_body_*)
                return NOT_PERFORMANCE
            return self._unknown_ne(loop, ctx, divergent)
        if loop.cmp not in _MONOTONE or loop.bound_reg is None and loop.bound is None:
            return NOT_EXIT
        if any(_memory_atomic(i) for i in loop.body):
            return NOT_PERFORMANCE
        if loop.bound_reg is not None and not _param_loaded(fn, loop.bound_reg.name) and _holds_sync(loop.body):
            return NOT_PERFORMANCE
        if _holds_sync(loop.body) and ctx.analyses(fn).uniformity.is_divergent_operand(loop.var):
            # ... and a start that differs between the lanes (%tid.x, %tid.x & -32, a lane index) keeps it
            # rolled on every target, whatever the bound; plain work is unrolled (docs/findings/phases.md "A loop
            # holding a sync op with a per-thread start stays rolled (helper nv27warp, stop 27)")
            return NOT_PERFORMANCE
        if self._unknown_trip_too_big(loop, ctx.target):
            return NOT_PERFORMANCE
        return self._unknown(loop, ctx)

    # -- transformations

    @staticmethod
    def _copies(loop: _Loop, n: int) -> list[ori.Instr]:
        """n copies of the body, the first one the original instructions."""
        out: list[ori.Instr] = []
        for k in range(n):
            out.extend(i if k == 0 else ops.clone(i, NAME) for i in loop.body)
        return out

    @staticmethod
    def _clones(loop: _Loop, n: int, fold: bool = False) -> list[ori.Instr]:
        """n fresh copies of the body. `fold`: the free induction updates (_induction_updates: the counter, an
        address nothing in the body reads) once, by n steps, after the copies, as ptxas's copies have them
        (`IADD3 R0, R0, -0x2` in the 2-copy remainder: what if-conversion counts of a per-thread count's
        remainder, probe phases/loop_ne_countdown_divergent)."""
        if not fold or n == 1:
            return [ops.clone(i, NAME) for _ in range(n) for i in loop.body]
        read = Counter(r for i in loop.body for r in uses(i))
        by_id = {id(i): i for i in loop.body}
        free = {x for x in _induction_updates(loop.body, loop.update)       # (a counter the body reads stays)
                if read[by_id[x].operands[0].name] <= 1}
        copies = [ops.clone(i, NAME) for _ in range(n) for i in loop.body if id(i) not in free]
        for i in loop.body:
            if id(i) in free:
                step = ops.clone(i, NAME)
                step.operands = (*i.operands[:2], ops.imm(_imm_int(i.operands[2]) * n))
                copies.append(step)
        return copies

    @staticmethod
    def _size(loop: _Loop, mma: int = 1) -> int:
        """The body's instructions but the induction update and the barriers, an mma.sync counting `mma`."""
        return sum(mma if i.opcode == "mma" else 1 for i in loop.body
                   if i is not loop.update and i.op not in (ops.BARRIER, ops.SYNC))

    @staticmethod
    def _unknown_trip_too_big(loop: _Loop, target) -> bool:
        """Is the body too costly for ptxas to unroll the unknown-trip loop (_unknown_trip_cost)?"""
        return len(loop.body) > _UNKNOWN_TRIP_MAX_BODY or \
            _unknown_trip_cost(loop.body, loop.update, target) > _UNKNOWN_TRIP_ALLOWANCE

    def _constant(self, loop: _Loop, trips: int, ctx: PassContext) -> str | None:
        b = loop.block
        full = trips <= _MAX_FULL_TRIP and trips * self._size(loop) <= _budget(ctx.target)
        if full:
            b.instrs = self._copies(loop, trips) + [loop.setp]
            b.succs = [s for s in b.succs if s != b.label]
            ctx.count(self, "loops fully unrolled")
            return None
        factor = _PARTIAL_FACTOR
        if trips < 2 * factor:
            return NOT_PERFORMANCE
        q, r = divmod(trips, factor)
        end = loop.init + q * factor * loop.step
        setp_end = ops.clone(loop.setp, NAME)
        setp_end.mods = tuple(".ne" if m == loop.cmp else m for m in setp_end.mods)
        setp_end.operands = (loop.setp.operands[0], loop.var, ops.imm(end))
        b.instrs = self._copies(loop, factor) + [setp_end, b.instrs[-1]]
        if r:
            tail = ori.BasicBlock(f"{b.label}$rem", self._clones(loop, r) + [ops.clone(loop.setp, NAME)],
                                  [loop.exit.label])
            b.succs = [b.label, tail.label]
            loop.fn.blocks.insert(loop.idx + 1, tail)
        ctx.count(self, "loops partially unrolled")
        return None

    def _unknown(self, loop: _Loop, ctx: PassContext) -> str | None:
        fn, b = loop.fn, loop.block
        exit_label = loop.exit.label
        typ = next((m for m in loop.setp.mods if m not in _CMP), ".s32")
        t, q = A.Reg(f"%unroll_t{loop.idx}"), A.Reg(f"%unroll_p{loop.idx}")
        fn.decls.extend([A.VarDecl(".reg", (typ if typ.startswith((".u", ".s", ".b")) else ".b32",), t.name),
                         A.VarDecl(".reg", (".pred",), q.name)])
        bound = loop.bound_reg if loop.bound_reg is not None else ops.imm(loop.bound)
        setp_mods = tuple(loop.setp.mods)
        line = b.instrs[-1].line

        def at_least(k: int, label: str) -> list[ori.Instr]:
            """Branch to `label` unless k more iterations remain (monotone compare)."""
            return [ori.Instr(_ALU, "add", (loop.update.mods[0] if loop.update.mods else ".s32",),
                              (t, loop.var, ops.imm((k - 1) * loop.step)), None, {}, line, NAME),
                    ori.Instr(_ALU, "setp", setp_mods, (q, t, bound), None, {}, line, NAME),
                    ori.Instr(_BRANCH, "bra", (), (A.Sym(label),), A.Not(q), {}, line, NAME)]

        def leave_unless_more() -> list[ori.Instr]:
            return [ops.clone(loop.setp, NAME), ori.Instr(_BRANCH, "bra", (), (A.Sym(exit_label),), A.Not(loop.pred), {}, line, NAME)]

        main, rem2, rem1 = f"{b.label}$main", f"{b.label}$rem2", f"{b.label}$rem1"
        k = _UNKNOWN_TRIP_FACTOR
        if _unsigned(loop.setp):
            # an unsigned compare: one iteration is peeled first (phases/loop_bar_sync_trip_unknown: 8 copies);
            # a signed one goes straight to the unrolled loop (phases/loop_unknown_bound_param_bar_*: 7)
            peel = self._copies(loop, 1) + leave_unless_more()
            blocks = [ori.BasicBlock(b.label, peel, [exit_label, f"{b.label}$check"]),
                      ori.BasicBlock(f"{b.label}$check", at_least(k, rem2), [rem2, main])]
        else:
            blocks = [ori.BasicBlock(b.label, at_least(k, rem2), [rem2, main])]
        blocks += [
            ori.BasicBlock(main, self._clones(loop, k) + at_least(k, rem2)[:2] +
                           [ori.Instr(_BRANCH, "bra", (), (A.Sym(main),), q, {}, line, NAME)], [main, rem2]),
            ori.BasicBlock(rem2, at_least(2, rem1), [rem1, f"{rem2}$body"]),
            ori.BasicBlock(f"{rem2}$body", self._clones(loop, 2), [rem1]),
            ori.BasicBlock(rem1, leave_unless_more(), [exit_label, f"{rem1}$body"]),
            ori.BasicBlock(f"{rem1}$body", self._clones(loop, 1) + [ops.clone(loop.setp, NAME)],
                           [exit_label]),
        ]
        fn.blocks[loop.idx:loop.idx + 1] = blocks
        ctx.count(self, "unknown-trip loops unrolled")
        return None


    def _unknown_ne(self, loop: _Loop, ctx: PassContext, divergent: bool = False) -> str | None:
        """An unknown-trip loop whose exit test is `setp.ne` of the counter against a loop-invariant value (a
        count-down `add i, i, -1; setp.ne p, i, 0`, or a count-up to a register): ptxas tests whether iterations
        remain (else it goes straight to the rolled loop, which also covers a counter past the bound), runs
        the body 4 times while 4 or more remain, then 2 copies if 2 remain, then the original rolled loop if
        any remain: 4 + 2 + 1 copies, no peeled iteration; whatever the bound is computed from and with
        atomics in the body (probes phases/loop_ne_*; docs/findings/phases.md "Count-down loops with a
        setp.ne exit (helper nvatom, stop 20)"). A per-thread count (`divergent`) enters the rolled loop through an
        empty block (regions.UNROLLED_REJOIN), where the unrolled copies' own pair ends (docs/findings/convergence.md
        "A per-thread count-down loop is unrolled inside a BREAK nest (helper nvnest34, stop 34)")."""
        fn, b = loop.fn, loop.block
        exit_label = loop.exit.label
        typ = loop.update.mods[0] if loop.update.mods else ".s32"
        signed = ".s" + typ[2:] if typ[:2] in (".u", ".b", ".s") else ".s32"
        t, q = A.Reg(f"%unroll_t{loop.idx}"), A.Reg(f"%unroll_p{loop.idx}")
        fn.decls.extend([A.VarDecl(".reg", (signed,), t.name), A.VarDecl(".reg", (".pred",), q.name)])
        bound = loop.bound_reg if loop.bound_reg is not None else ops.imm(loop.bound)
        line = b.instrs[-1].line
        size = abs(loop.step)

        def remain(cmp: str, k: int, label: str, when: bool) -> list[ori.Instr]:
            """Branch to `label` when (the iterations left, in counter units) `cmp` k holds (`when`) or not."""
            left = (t, loop.var, bound) if loop.step < 0 else (t, bound, loop.var)
            return [ori.Instr(_ALU, "sub", (signed,), left, None, {}, line, NAME),
                    ori.Instr(_ALU, "setp", (cmp, signed), (q, t, ops.imm(k)), None, {}, line, NAME),
                    ori.Instr(_BRANCH, "bra", (), (A.Sym(label),), q if when else A.Not(q), {}, line, NAME)]

        check, main, rem2, rem1 = (f"{b.label}$ne{x}" for x in ("check", "main", "rem2", "rem1"))
        rolled = f"{b.label}{UNROLLED_REJOIN}" if divergent else b.label
        k = _UNKNOWN_TRIP_FACTOR
        blocks = [
            ori.BasicBlock(f"{b.label}$ne", remain(".gt", 0, rolled, False), [rolled, check]),
            ori.BasicBlock(check, remain(".gt", k * size - 1, rem2, False), [rem2, main]),
            ori.BasicBlock(main, self._clones(loop, k, divergent) + remain(".gt", k * size - 1, main, True),
                           [main, rem2]),
            ori.BasicBlock(rem2, remain(".gt", 2 * size - 1, rem1, False), [rem1, f"{rem2}$body"]),
            ori.BasicBlock(f"{rem2}$body", self._clones(loop, 2, divergent), [rem1]),
            ori.BasicBlock(rem1, remain(".ne", 0, exit_label, False), [exit_label, rolled]),
        ]
        if divergent:
            blocks.append(ori.BasicBlock(rolled, [], [b.label]))
        fn.blocks[loop.idx:loop.idx] = blocks
        # the preheader now falls into the first check, not into the rolled loop
        loop.pre.succs = [blocks[0].label if s == b.label else s for s in loop.pre.succs]
        ctx.count(self, "unknown-trip loops unrolled")
        return None


PHASE = LoopUnrolling()
