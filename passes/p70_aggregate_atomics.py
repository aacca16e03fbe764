"""Warp aggregation of atomics (pylower's phase; docs/findings/atomic.md section 3).

ptxas aggregates an atom/red whose address is the same in every lane of the warp: one lane performs the
operation for all (VOTEU + REDUX, the sm_75 SHFL.BFLY tree, the used-result prefix scan, POPC). Not at -O0
(agg_*_O0). This phase marks the candidates `!agg=1` (`!agg=2`: inside a loop or under divergent control,
where ptxas schedules the REDUX before the VOTEU); isel/fam_atomic.py picks the variant from the op, the
result and the value. A shared-memory `add 1` with no result aggregates whatever its address
(ATOMS.POPC.INC, agg_ctx_atom_shared_add_u32_tid_imm_dead), so it is marked too.
Straight-line `!agg=1` atomics of a block form a run (`!agg_run=N`) that shares one VOTEU.ANY and has its
REDUXes hoisted ahead of the REDs (section 3.5); a fence (fence/membar or an atomic with a
release/acquire order) ends the run.
"""
from __future__ import annotations

from pylower.lowering import ori
from pylower.lowering import ptx_ast as A

from .analysis.cfg import dominates
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
            if ins.op == ATOMIC and ins.attrs.agg == 1 and ins.guard is None:
                ins.attrs.agg_run = run


def _shared_add_one(ins: ori.Instr) -> bool:
    v = ins.operands[-1]
    return ins.attrs.space == "shared" and ins.attrs.op == "add" and \
        type(v) is A.Imm and v.value == 1


# ---- single-lane code: ptxas does not aggregate an atomic only one lane of the warp executes
# (docs/findings/atomic.md section 3.6). A lane-unique value differs in every lane: %tid.x, %laneid, and that
# plus or minus a uniform value (also the addend of a mad.lo of uniform values); a product or shift of it is
# not followed (`tid*4 == 0` aggregates). A predicate true in at most one lane: setp.eq of a lane-unique value
# with a uniform one, elect.sync's predicate, a not.pred of the matching setp.ne, their mov.pred copies.
_LANE_IDS = ("%tid.x", "%laneid")


def _reg_in(o, regs) -> bool:
    return type(o) is A.Reg and (o.name in regs or o.name in _LANE_IDS)


class _SingleLane:
    """Registers holding lane-unique values, predicates true in one lane (`one`) or in all but one lane
    (`but_one`), and the blocks only one lane reaches."""

    def __init__(self, fn: ori.Function, am):
        self.uni, du = am.uniformity, am.defuse
        self.unique: set[str] = set()
        self.one: set[str] = set()
        self.but_one: set[str] = set()
        regs = {r for b in fn.blocks for i in b.instrs for r in du.defs(i)}
        changed = True
        while changed:
            changed = False
            for r in regs:
                ds = du.definitions(r)
                for kind, out in (("unique", self.unique), ("one", self.one), ("but_one", self.but_one)):
                    if r not in out and ds and all(self._def_is(kind, i, r) for i in ds):
                        out.add(r)
                        changed = True
        self.blocks = self._single_blocks(fn, am)

    def _uniform(self, o) -> bool:
        return type(o) is A.Imm or self.uni.is_uniform(o)

    def _def_is(self, kind: str, ins: ori.Instr, r: str) -> bool:
        op, ops = ins.opcode, ins.operands
        if kind == "unique":
            if op == "mov":
                return _reg_in(ops[1], self.unique)
            if op in ("add", "sub") and len(ops) == 3:
                a, b = ops[1], ops[2]
                return _reg_in(a, self.unique) and self._uniform(b) or \
                    op == "add" and _reg_in(b, self.unique) and self._uniform(a)
            if op == "mad" and ".lo" in ins.mods and len(ops) == 4:
                return _reg_in(ops[3], self.unique) and self._uniform(ops[1]) and self._uniform(ops[2])
            return False
        same, other = (self.one, self.but_one) if kind == "one" else (self.but_one, self.one)
        if op == "elect":
            return kind == "one" and type(ops[0]) is A.Pair and type(ops[0].second) is A.Reg \
                and ops[0].second.name == r or kind == "one" and type(ops[0]) is A.Reg and ops[0].name == r
        if op == "mov" and ".pred" in ins.mods:
            return type(ops[1]) is A.Reg and ops[1].name in same
        if op == "not" and ".pred" in ins.mods:
            return type(ops[1]) is A.Reg and ops[1].name in other
        if op == "setp" and len(ops) == 3 and type(ops[0]) is A.Reg:
            cmp = ".eq" if kind == "one" else ".ne"
            a, b = ops[1], ops[2]
            return cmp in ins.mods and (_reg_in(a, self.unique) and self._uniform(b) or
                                        _reg_in(b, self.unique) and self._uniform(a))
        return False

    def guard_is_one(self, g) -> bool | None:
        """True: the guard holds in at most one lane; False: in all lanes but one; None: neither."""
        neg = type(g) is A.Not
        r = g.inner if neg else g
        if type(r) is not A.Reg:
            return None
        if r.name in self.one:
            return not neg
        if r.name in self.but_one:
            return neg
        return None

    def _single_blocks(self, fn, am) -> set[str]:
        preds = {b.label: list(b.preds) for b in fn.blocks}
        heads = set()
        for b in fn.blocks:
            last = b.instrs[-1] if b.instrs else None
            if last is None or last.opcode != "bra" or last.guard is None or len(b.succs) != 2:
                continue
            one = self.guard_is_one(last.guard)
            if one is None:
                continue
            taken = next((o.name for o in last.operands if type(o) in (A.Reg, A.Sym)), None)
            head = taken if one else next((x for x in b.succs if x != taken), None)
            if head is not None and preds.get(head) == [b.label]:
                heads.add(head)
        if not heads:
            return set()
        idom = am.idom
        return {b.label for b in fn.blocks if b.label in idom and any(dominates(idom, h, b.label) for h in heads)}

    def executes_alone(self, b: ori.BasicBlock, ins: ori.Instr) -> bool:
        return b.label in self.blocks or ins.guard is not None and self.guard_is_one(ins.guard) is True


class AggregateAtomics(Phase):
    number = 70
    name = "AggregateAtomics"
    description = "mark warp-uniform-address atom/red for warp aggregation (not at -O0)"
    preserves = "all"                    # only attributes change

    def enabled(self, ctx: PassContext) -> bool:
        return ctx.opt_level >= AGG_FROM_OPT

    def run(self, fn: ori.Function, ctx: PassContext) -> bool:
        atoms = [(b, i) for b in fn.blocks for i in b.instrs
                 if i.op == ATOMIC and i.attrs.kind in ("atom", "red")]
        if not atoms:
            return False
        am = ctx.analyses(fn)
        uni = am.uniformity
        single = _SingleLane(fn, am)
        changed = False
        for b, ins in atoms:
            addr = next(o for o in ins.operands if type(o) is A.Addr)
            if not (uni.is_uniform(addr) or _shared_add_one(ins)):
                continue
            if single.executes_alone(b, ins):
                ctx.count(self, "single-lane atomics left alone")
                continue
            late = b.label in uni.divergent_blocks or ins.guard is not None or am.loops.on_cycle(b.label)
            ins.attrs.agg = 2 if late else 1
            ctx.count(self, "atomics marked")
            changed = True
        _mark_runs(fn, ctx.target)
        return changed


PHASE = AggregateAtomics()
