"""Warp aggregation of atomics (pylower's phase; docs/findings/atomic.md section 3).

ptxas aggregates an atom/red whose address is the same in every lane of the warp: one lane performs the
operation for all (VOTEU + REDUX, the sm_75 SHFL.BFLY tree, the used-result prefix scan, POPC). Not at -O0
(agg_*_O0), nor where at most one lane of the warp can run it (`if (threadIdx.x == 0)`, `laneid == leader`,
elect.sync: passes/analysis/single_lane.py). This phase marks the candidates `!agg=1` (`!agg=2`: inside a loop or under divergent control,
where ptxas schedules the REDUX before the VOTEU); isel/fam_atomic.py picks the variant from the op, the
result and the value. A shared-memory `add 1` with no result aggregates whatever its address
(ATOMS.POPC.INC, agg_ctx_atom_shared_add_u32_tid_imm_dead), so it is marked too.
Straight-line `!agg=1` atomics of a block form a run (`!agg_run=N`) that shares one VOTEU.ANY and has its
REDUXes hoisted ahead of the REDs (section 3.5); a thread fence ends the run, and below sm_90 so does an
atomic with a release order (it opens the next run).
"""
from __future__ import annotations

from pylower.lowering import ori
from pylower.lowering import ptx_ast as A

from .manager import PassContext, Phase

ATOMIC = ori.ORI_CLASSES["atomic"]
SYNC = ori.ORI_CLASSES["sync"]
AGG_FROM_OPT = 1


def _fences(ins: ori.Instr, target) -> bool:
    """Does `ins` end an aggregation run? A thread fence always; an atomic's own release fence only below
    sm_90 (VOTE_SURVIVES_BARRIER: ptxas shares the vote across it there); an acquire never (atomic.md 3.5)."""
    if ins.op == ATOMIC:
        return ins.attrs.sem in ("release", "acq_rel") and not target.has("VOTE_SURVIVES_BARRIER")
    return ins.op == SYNC and ins.opcode in ("membar", "fence")


def _mark_runs(fn: ori.Function, target) -> None:
    run = 0
    for b in fn.blocks:
        run += 1
        for ins in b.instrs:
            if _fences(ins, target):
                run += 1                 # a release atomic starts the next run (its vote is shared after it)
            if ins.op == ATOMIC and ins.attrs.agg in (1, 2) and ins.guard is None:
                ins.attrs.agg_run = run


def _shared_add_one(ins: ori.Instr) -> bool:
    v = ins.operands[-1]
    return ins.attrs.space == "shared" and ins.attrs.op == "add" and \
        type(v) is A.Imm and v.value == 1


class AggregateAtomics(Phase):
    number = 70
    name = "AggregateAtomics"
    description = "mark warp-uniform-address atom/red for warp aggregation (not at -O0)"
    preserves = "analyses"               # only attributes change (the agg marks if-conversion reads)

    def enabled(self, ctx: PassContext) -> bool:
        return ctx.opt_level >= AGG_FROM_OPT

    def run(self, fn: ori.Function, ctx: PassContext) -> bool:
        atoms = [(b, i) for b in fn.blocks for i in b.instrs
                 if i.op == ATOMIC and i.attrs.kind in ("atom", "red")]
        if not atoms:
            return False
        am = ctx.analyses(fn)
        uni = am.uniformity
        changed = False
        for b, ins in atoms:
            addr = next(o for o in ins.operands if type(o) is A.Addr)
            if not (uni.is_uniform(addr) or _shared_add_one(ins)):
                continue
            if am.single_lane.runs_one_lane(b.label, ins):
                continue                     # at most one lane runs it (`if (tid.x == 0)`): nothing to share
            late = b.label in uni.divergent_blocks or ins.guard is not None or am.loops.on_cycle(b.label)
            ins.attrs.agg = 2 if late else 1
            ctx.count(self, "atomics marked")
            changed = True
        _mark_runs(fn, ctx.target)
        return changed


PHASE = AggregateAtomics()
