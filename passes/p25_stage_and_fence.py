"""Phase 25 StageAndFence: fences after loop unrolling.

The seed describes a pass that inserts fence pseudo-ops at the iteration boundaries of unrolled loops
and merges adjacent fences. ptxas 13.0.88 shows neither (docs/findings/phases.md, phase 25 and R2):
unrolled barrier loops hold exactly N x the body's sync instructions, loops with a MEMBAR-class fence
are not unrolled at all (phase 22 refuses them), and adjacent fences are never merged. So by default
this phase changes nothing.

Knob `StageAndFenceMerge` (pylower's, default 0) turns on the merge the seed describes: of two fences
with nothing between them in a block, the one that is at least as strong in both ordering (sc >
acq_rel/release/acquire) and scope (sys > gpu > cluster > cta) is kept. Knob 487 = 0 disables the phase.
"""
from __future__ import annotations

from pylower.lowering import ori

from .knobs import SYNC_GATE_KNOB, sync_gate_open
from .manager import PassContext, Phase

NAME = "StageAndFence"
MERGE_KNOB = "StageAndFenceMerge"

# ordering strength and scope rank of a fence; membar.<scope> is an sc fence
_ORDER = {".sc": 2, ".acq_rel": 1, ".release": 1, ".acquire": 1}
_SCOPE = {".cta": 0, ".cluster": 1, ".gpu": 2, ".gl": 2, ".sys": 3}


def fence_strength(ins: ori.Instr) -> tuple[int, int] | None:
    """(ordering, scope) of a membar / fence.{sc,acq_rel,...}; None for anything else (incl. fence.proxy)."""
    if ins.guard is not None or ins.opcode not in ("membar", "fence"):
        return None
    order = 2 if ins.opcode == "membar" else next((_ORDER[m] for m in ins.mods if m in _ORDER), None)
    scope = next((_SCOPE[m] for m in ins.mods if m in _SCOPE), None)
    if order is None or scope is None:
        return None
    return order, scope


def _covers(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return a[0] >= b[0] and a[1] >= b[1]


class StageAndFence(Phase):
    number = 25
    name = NAME
    description = "post-unroll fences: none in 13.0.88 (identity); knob StageAndFenceMerge merges adjacent fences"
    knobs = (SYNC_GATE_KNOB, MERGE_KNOB)
    preserves = "cfg"

    def enabled(self, ctx: PassContext) -> bool:
        return sync_gate_open(ctx) and ctx.knob(MERGE_KNOB) != 0

    def run(self, fn: ori.Function, ctx: PassContext) -> bool:
        changed = False
        for b in fn.blocks:
            out: list[ori.Instr] = []
            for ins in b.instrs:
                cur = fence_strength(ins)
                prev = fence_strength(out[-1]) if out and cur is not None else None
                if prev is not None and _covers(prev, cur):
                    ctx.count(self, "fences merged")
                    changed = True
                    continue
                if prev is not None and _covers(cur, prev):
                    out[-1] = ins
                    ctx.count(self, "fences merged")
                    changed = True
                    continue
                out.append(ins)
            b.instrs = out
        return changed


PHASE = StageAndFence()
