"""A lane-0 if in a grid-stride loop whose join starts with a full-mask warp op (`if (lane == 0) v =
atomicAdd(c, ..); v = __shfl_sync(-1, v, 0)`), against what the loop body runs before the if (docs/findings/
warp.md "A warp op before a loop's lane-0 if and guarded work after its join keep the if's pair (helper
nvvote34, stop 34)")."""
from __future__ import annotations

from pylower.tools.variations.table import run

HEAD = """.version 8.7
.target {target}
.address_size 64
.visible .entry k(.param .u64 pin, .param .u64 pout, .param .u64 pcnt, .param .u32 n)
{
  .reg .pred %p<16>; .reg .b32 %r<64>; .reg .b64 %rd<32>;
  ld.param.u64 %rd1, [pin];
  ld.param.u64 %rd2, [pout];
  ld.param.u64 %rd3, [pcnt];
  ld.param.u32 %r1, [n];
  cvta.to.global.u64 %rd1, %rd1;
  cvta.to.global.u64 %rd2, %rd2;
  cvta.to.global.u64 %rd3, %rd3;
  mov.u32 %r2, %tid.x;
  and.b32 %r3, %r2, 31;
  mov.u32 %r4, %ctaid.x;
  mov.u32 %r5, %ntid.x;
  mad.lo.s32 %r6, %r4, %r5, %r2;
  mov.u32 %r7, %nctaid.x;
  mul.lo.s32 %r8, %r7, %r5;
"""
# the loop around the body (grid: `for (i = ..; i < n; i += stride)`, bottom-tested; none: straight code)
LOOP_OPEN = {"grid": "  setp.ge.s32 %p1, %r6, %r1;\n  @%p1 bra L_end;\nL_body:\n", "none": ""}
LOOP_CLOSE = {"grid": "  add.s32 %r6, %r6, %r8;\n  setp.lt.s32 %p1, %r6, %r1;\n  @%p1 bra L_body;\nL_end:\n",
              "none": ""}
LOAD = """  mul.wide.s32 %rd4, %r6, 4;
  add.s64 %rd5, %rd1, %rd4;
  ld.global.u32 %r10, [%rd5];
  mov.u32 %r13, 1;
"""
# what the body runs before the lane-0 if (%r13: the count the atomic adds)
PRE = {
    "none": "",
    "ballot": "setp.ne.s32 %p2, %r10, 0; vote.sync.ballot.b32 %r11, %p2, -1; popc.b32 %r13, %r11;",
    "bfly": "shfl.sync.bfly.b32 %r11, %r10, 1, 31, -1; add.s32 %r13, %r11, %r10;",
    "ballot_cont": "setp.ne.s32 %p2, %r10, 0; vote.sync.ballot.b32 %r11, %p2, -1; popc.b32 %r13, %r11; "
                   "setp.eq.s32 %p6, %r11, 0; @%p6 bra L_next;",
}
# the lane-0 if (%r12: its result, 0 in the other lanes): a warp-aggregated atomic (uniform address: atom, red),
# a per-lane-address atomic (atom_lane), a load-add-store (ldst)
IF = {
    "atom": "atom.global.add.u32 %r12, [%rd3], %r13;",
    "red": "red.global.add.u32 [%rd3], %r13; mov.u32 %r12, %r13;",
    "atom_lane": "atom.global.add.u32 %r12, [%rd5], %r13;",
    "ldst": "ld.global.u32 %r12, [%rd3]; add.s32 %r12, %r12, %r13; st.global.u32 [%rd3], %r12;",
}
# the join's first instructions
JOIN = {
    "shfl": "shfl.sync.idx.b32 %r14, %r12, 0, 31, -1;",
    "ballot": "setp.ne.s32 %p4, %r12, 0; vote.sync.ballot.b32 %r14, %p4, -1;",
}
# after the join op: the store of the result, plain (st), in an if on the loaded value (if_x: a branch in the
# PTX, which ptxas predicates) or guarded in the PTX (pred_x)
TAIL = {
    "st": "  add.s32 %r15, %r14, %r10;\n  add.s64 %rd6, %rd2, %rd4;\n  st.global.u32 [%rd6], %r15;\n",
    "if_x": "  setp.eq.s32 %p7, %r10, 0;\n  @%p7 bra L_skip;\n  add.s32 %r15, %r14, %r10;\n  add.s64 %rd6, %rd2, %rd4;\n"
            "  st.global.u32 [%rd6], %r15;\nL_skip:\n",
    "pred_x": "  setp.ne.s32 %p7, %r10, 0;\n  add.s32 %r15, %r14, %r10;\n  add.s64 %rd6, %rd2, %rd4;\n"
              "  @%p7 st.global.u32 [%rd6], %r15;\n",
}
TARGETS = ["sm_80", "sm_90", "sm_100a"]


def _lines(text: str) -> str:
    return "".join(f"  {s.strip()};\n" for s in text.split(";") if s.strip())


def variations() -> dict[str, str]:
    out = {}
    for loop in LOOP_OPEN:
        for pre, pre_text in PRE.items():
            if pre == "ballot_cont" and loop == "none":
                continue
            for body, body_text in IF.items():
                for (join, join_text), (tail, tail_text) in ((j, t) for j in JOIN.items() for t in TAIL.items()):
                    lane0 = "  setp.ne.s32 %p3, %r3, 0;\n  mov.u32 %r12, 0;\n  @%p3 bra L_join;\n" + \
                        _lines(body_text) + "L_join:\n" + _lines(join_text)
                    nxt = "L_next:\n" if pre == "ballot_cont" else ""
                    out[f"{loop}_{pre}_{body}_{join}_{tail}"] = HEAD + LOOP_OPEN[loop] + LOAD + _lines(pre_text) + lane0 + \
                        tail_text + nxt + LOOP_CLOSE[loop] + "  ret;\n}\n"
    return out


if __name__ == "__main__":
    raise SystemExit(run(variations(), TARGETS))
