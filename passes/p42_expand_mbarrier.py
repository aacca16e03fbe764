"""Phase 42 ExpandMbarrier: the mbarrier pseudo-ops (Ori 315, lowering/fam_mbarrier.py) become the target's
sequence, chosen from an arch table (ptxas: vtable[45] of the arch backend). docs/findings/mbarrier.md.

- `impl`: "syncs" from sm_90 (the SYNCS unit), "sw" on sm_80-89 (shared-memory atomics / loads / stores,
  no tx-count; ptxas has no SYNCS there).
- Fences become their own class-130 `fence` ops before the arrive (selected by isel/fam_fence.py): the
  software arrive is a release at CTA scope (MEMBAR.ALL.CTA); a spelled-out `.release.cluster` arrive on
  SYNCS is the cluster release (MEMBAR.ALL.GPU, ERRBAR, CGAERRBAR), which ISel precedes by MEMBAR.ALL.CTA as
  every wide MEMBAR in a kernel with mbarrier ops (isel/sequences.rows, MBARRIER_CTA_MEMBAR).
- `remote`: the arrive goes to another CTA's barrier (SYNCS ...RED): a .shared::cluster address, or a
  generic address with a sink destination and .release.cluster.
- init: `inloop` (in a loop: the barrier count is unknown, NUM_MBARRIERS 0xffff), `vote` (under a divergent
  guard or in a divergent region ptxas predicates: a VOTEU.ALL-guarded EXCH), `nopred` (in a region kept as
  a branch), `fence` (in a loop or a kept region: one FENCE.VIEW.ASYNC.S before the block's first init),
  `perthread` (per-thread count or address: a waterfall loop on sm_90, STS + SYNCS.CCTL.IVALL from sm_100).
- arrive with a count that is the constant 1: `count1` (the plain A1T0 arrival).
- A try_wait spin loop (the block starts with the try_wait and branches back to itself, directly or
  through a `bra` block) keeps one try_wait inline (without the suspend hint) and retries in an
  out-of-line block placed after EXIT, which holds the full try_wait.
- cp.async.mbarrier.arrive on sm_80-89: its warp vote (`part=vote`) moves ahead of the cp.async copies
  right before it.
- `nopred`: ops ptxas keeps behind a branch (so a divergent region holding them gets BSSY/BSYNC in phase 72):
  every software arrive (an atomic), a software token test_wait in a loop, a SYNCS arrive in a divergent loop.
"""
from __future__ import annotations

from pylower.lowering import ori
from pylower.lowering import ops
from pylower.lowering import ptx_ast as A

from . import ifconvert
from .analysis import regions as R
from .manager import PassContext, Phase

NAME = "ExpandMbarrier"
MBAR = ori.ORI_CLASSES["mbarrier"]

# (impl, op, scope of a spelled-out .release) -> fences before the op, as (sem, scope)
_FENCES = {
    ("sw", "arrive"): (("release", "cta"),),
    ("sw", "arrive_drop"): (("release", "cta"),),
    ("syncs", "arrive", "cluster"): (("release", "cluster"),),
    ("syncs", "arrive_drop", "cluster"): (("release", "cluster"),),
}
_ARRIVES = ("arrive", "arrive_drop")


def implementation(target) -> str | None:
    """The arch backend's ExpandMbarrier: the SYNCS unit, or shared-memory atomics (target features)."""
    if target.has("MBARRIER_SYNCS"):
        return "syncs"
    return "sw" if target.has("MBARRIER_SW") else None


def _fence(sem: str, scope: str, line: int) -> ori.Instr:
    return ori.Instr(ops.SYNC, "fence", (f".{sem}", f".{scope}"), (), None,
                     {"form": "thread", "sem": sem, "scope": scope}, line, NAME)


class ExpandMbarrier(Phase):
    number = 42
    name = NAME
    description = "mbarrier pseudo-ops -> per-target sequences (arch table), fences, try_wait retry blocks"

    def run(self, fn: ori.Function, ctx: PassContext) -> bool:
        if not any(i.op == MBAR for i in fn.instructions()):
            return False
        impl = implementation(ctx.target)
        am = ctx.analyses(fn)
        uni = am.uniformity
        loops = am.loops.in_loop
        regions = am.regions
        div_loops = set().union(*(r.body for r in regions if r.kind == "loop")) if regions else set()
        consts = am.constants
        ool: list[ori.BasicBlock] = []
        for bi, b in enumerate(list(fn.blocks)):
            out: list[ori.Instr] = []
            for ins in b.instrs:
                if ins.op != MBAR or ins.attrs.impl:
                    out.append(ins)
                    continue
                a = ins.attrs
                op = a.op
                a.impl = impl
                explicit = a.sem == "release" and a.scope or None
                for sem, scope in _FENCES.get((impl, op), _FENCES.get((impl, op, explicit), ())):
                    out.append(_fence(sem, scope, ins.line))
                    ctx.count(self, "fences")
                if impl == "syncs" and op in _ARRIVES and (
                        a.space == "cluster" or a.space == "generic" and a.sink and explicit == "cluster"):
                    a.remote = True
                if op == "init":
                    region = R.innermost_region(regions, b.label)
                    if b.label in loops:
                        a.inloop = True
                    if region is not None and self._branch_region(am, region, ctx.target):
                        a.nopred = True
                    elif ins.guard is not None and uni.is_divergent_operand(ins.guard) or region is not None:
                        a.vote = True
                    elif any(uni.is_divergent_operand(o) for o in ins.operands):
                        a.perthread = True
                    if (a.inloop or a.nopred) and not any(
                            i.op == MBAR and i.attrs.op == "init" for i in out):
                        a.fence = True          # one FENCE.VIEW.ASYNC.S before the block's first init
                if a.count and not a.nocomplete and consts.get(getattr(ins.operands[2], "name", None),
                                                 getattr(ins.operands[2], "value", None)) == 1:
                    a.count1 = True             # a count of one is the plain arrival (A1T0)
                keep = (impl == "sw" and (op in _ARRIVES or op == "test_wait" and not a.parity and b.label in loops)
                        or impl == "syncs" and op in _ARRIVES and b.label in div_loops)
                if keep:
                    a.nopred = True
                if op == "cp_async_arrive" and impl == "sw" and not a.noinc:
                    # the warp vote of the software pending-count increment is scheduled ahead of the
                    # cp.async copies just before it
                    at = len(out)
                    while at and out[at - 1].op == ops.ASYNC and out[at - 1].attrs.form == "ldgsts":
                        at -= 1
                    out.insert(at, ops.clone(ins, NAME, part="vote"))
                out.append(ins)
                ctx.count(self, f"{op} expanded")
            b.instrs = out
            first = b.instrs[0] if b.instrs else None
            nxt = fn.blocks[bi + 1] if bi + 1 < len(fn.blocks) else None
            if impl == "syncs" and first is not None and first.op == MBAR and first.attrs.op == "try_wait" \
                    and nxt is not None:
                retry = self._retry_block(fn, b, first, nxt, len(ool))
                if retry is not None:
                    ool.append(retry)
                    ctx.count(self, "try_wait retry blocks")
        if ool:
            fn.blocks.extend(ool)
            ori.link_preds(fn)
        return True

    @staticmethod
    def _branch_region(am, region, target) -> bool:
        """Does ptxas keep this divergent region as a branch (BSSY/BSYNC) rather than predicate it? As
        phase 72 decides, and also when it spans several blocks or holds more than one init (a lone
        init is predicated with the VOTEU.ALL form)."""
        if region.kind == "loop" or len(region.body) > 1 or ifconvert.is_kept_region(am, region, target):
            return True
        by_label = am.blocks
        return sum(1 for lb in region.body for i in by_label[lb].instrs
                   if i.op == MBAR and i.attrs.op == "init") > 1

    def _retry_block(self, fn, b: ori.BasicBlock, tw: ori.Instr, nxt: ori.BasicBlock, n: int):
        """A try_wait spin loop keeps its first try_wait inline and retries in a block after EXIT:
        `L: try_wait; ...; @g bra L`            -> L: ...; @g bra R      R: try_wait; ...; @g bra R; bra <next>
        `L: try_wait; ...; @g bra X; [bra L]`  -> the back edge goes to R: try_wait; ...; @g bra X; bra R."""
        last = b.instrs[-1]
        if last.opcode != "bra" or last.guard is None or len(b.instrs) < 2:
            return None
        target = next((o.name for o in last.operands if type(o) is A.Sym), None)
        back_block = len(nxt.instrs) == 1 and nxt.instrs[0].opcode == "bra" and nxt.instrs[0].guard is None \
            and any(type(o) is A.Sym and o.name == b.label for o in nxt.instrs[0].operands)
        if target != b.label and not back_block:
            return None
        label = f"$__mbarrier_retry_{fn.name}_{n}"
        body = [ops.clone(tw, NAME, ool=1)] + [ops.clone(i, NAME) for i in b.instrs[1:-1]]
        if tw.attrs.hint:
            tw.attrs.nohint = True

        def bra(dest, guard=None):
            return ori.Instr(last.op, "bra", (), (A.Sym(dest),), guard, {}, last.line, NAME)

        if target == b.label:
            b.instrs[-1] = bra(label, last.guard)
            b.succs = [label if s == b.label else s for s in b.succs]
            body += [bra(label, last.guard), bra(nxt.label)]
            return ori.BasicBlock(label, body, [label, nxt.label])
        nxt.instrs[0] = bra(label)
        nxt.succs = [label]
        body += [bra(target, last.guard), bra(label)]
        return ori.BasicBlock(label, body, [target, label])


PHASE = ExpandMbarrier()
