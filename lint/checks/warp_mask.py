"""warp-mask: a warp collective with a constant full member mask (0xffffffff) executed where the lanes of a
warp may have split: under a lane-dependent branch, guard or early exit.

`shfl.sync`, `vote.sync`, `match.sync`, `redux.sync`, `elect.sync` and `bar.warp.sync` wait for every lane
named in the mask; with the full mask every lane of the warp must execute that same instruction. Lanes that
went the other way, exited, or are guarded off never arrive: the result is undefined (a hang or garbage
on sm_70+). The fix is a mask of the lanes that do arrive (`activemask`, a ballot of the branch
condition) or moving the collective out of the divergent code. Warp-dependent control flow (a branch on
the warp index) keeps whole warps together and is not reported. docs/lint/warp-mask.md.
"""
from __future__ import annotations

from pylower.lowering import ptx_printer as P

from .. import threads as T
from ..finding import check
from ..sync import FULL, member_mask
from .common import finding, guard_text, text, why

ID = "warp-mask"


@check(ID, "a full-mask warp collective executed in lane-divergent code")
def run(m):
    for fn in m.functions():
        f = m.facts(fn)
        for b in fn.blocks:
            if not f.control.live(b.label):
                continue
            for ins in b.instrs:
                mask = member_mask(ins)
                if mask is None:
                    continue
                c = f.values.const(mask)
                if c is None or c & FULL != FULL:
                    continue
                level, who = f.execution(ins)
                if level != T.LANE:
                    continue
                shown = P.operand(mask) + ("" if type(mask).__name__ == "Imm" else f" (= {c & FULL:#x})")
                if who is ins:
                    msg = (f"`{text(ins)}` names every lane in its member mask {shown} but is guarded by "
                           f"{guard_text(f, ins, level)}, which is lane-dependent: the lanes guarded off never arrive")
                else:
                    msg = (f"`{text(ins)}` names every lane in its member mask {shown} but runs under "
                           f"lane-dependent control flow: lanes that took the other path never arrive")
                yield finding(m, f, ID, ins, msg, why(m, f, who, level))
