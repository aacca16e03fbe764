"""An if whose body loads values and tests them in an inner if: where its join is decides whether ptxas keeps
its pair (docs/findings/convergence.md "An if testing its own load keeps its pair unless its join runs to the end (helper
nvnest34, stop 34)")."""
from __future__ import annotations

from pylower.tools.variations.table import run

HEAD = """.version 9.0
.target {target}
.address_size 64
.visible .entry k(.param .u64 pp, .param .u32 pn, .param .u32 pk)
{
  .reg .pred %p<20>; .reg .b32 %r<60>; .reg .f32 %f<10>; .reg .b64 %rd<20>;
  .shared .align 4 .b8 sf[4096];
  ld.param.u64 %rd1, [pp]; ld.param.u32 %r23, [pn]; ld.param.u32 %r10, [pk];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r45, %tid.x; mov.u32 %r5, %ntid.x; mov.u32 %r29, sf;
  shl.b32 %r28, %r45, 2; add.s32 %r6, %r29, %r28;
  mul.wide.u32 %rd3, %r45, 4; add.s64 %rd4, %rd2, %rd3;
  bar.sync 0;
"""
# the if: `if (i ^ k > i) { a = lds; b = lds; if (a > b) { sts; sts } }`, joining at J
IF = """  xor.b32 %r14, %r44, %r10;
  setp.le.s32 %p6, %r14, %r44;
  @%p6 bra J;
  shl.b32 %r31, %r14, 2;
  add.s32 %r16, %r29, %r31;
  ld.shared.f32 %f1, [%r16];
  ld.shared.f32 %f2, [%r43];
  setp.gt.f32 %p8, %f2, %f1;
  @!%p8 bra J;
  st.shared.f32 [%r43], %f1;
  st.shared.f32 [%r16], %f2;
J:
"""
LATCH = """  add.s32 %r43, %r43, %r7;
  add.s32 %r44, %r44, %r5;
  setp.lt.s32 %p12, %r44, %r23;
  @%p12 bra L;
"""
# a loop over i = tid, tid + ntid, ... < n inside `if (tid < n)` (the bitonic sort's step of n34_bitonic_f32_n)
LOOP_TID = """  setp.ge.s32 %p1, %r45, %r23;
  @%p1 bra OUT;
  shl.b32 %r7, %r5, 2;
  mov.u32 %r43, %r6; mov.u32 %r44, %r45;
L:
"""
# a loop over i = 0 .. n (uniform trip count), the if's test per thread through i ^ k with k = tid
LOOP_UNI = """  shl.b32 %r7, %r5, 2;
  mov.u32 %r43, %r6; mov.u32 %r44, 0; mov.u32 %r10, %r45;
  setp.lt.s32 %p1, %r23, 1;
  @%p1 bra OUT;
L:
"""
STRAIGHT = """  mov.u32 %r43, %r6; mov.u32 %r44, %r45;
"""
ROWS = {
    # in a loop, the join the latch
    "loop_tid_bar": (LOOP_TID, LATCH, "OUT:\n  bar.sync 0;\n  st.global.u32 [%rd4], %r45;\n  ret;\n"),
    "loop_tid_tail": (LOOP_TID, LATCH, "OUT:\n  st.global.u32 [%rd4], %r45;\n  ret;\n"),
    "loop_tid_work": (LOOP_TID, "  mul.lo.s32 %r50, %r44, %r44;\n  add.s32 %r51, %r51, %r50;\n" + LATCH,
                      "OUT:\n  st.global.u32 [%rd4], %r51;\n  ret;\n"),
    "loop_uni_bar": (LOOP_UNI, LATCH, "OUT:\n  bar.sync 0;\n  st.global.u32 [%rd4], %r45;\n  ret;\n"),
    "loop_uni_tail": (LOOP_UNI, LATCH, "OUT:\n  st.global.u32 [%rd4], %r45;\n  ret;\n"),
    # straight code after the join
    "straight_bar": (STRAIGHT, "  bar.sync 0;\n  st.global.u32 [%rd4], %r45;\n  ret;\n", ""),
    "straight_tail": (STRAIGHT, "  st.global.u32 [%rd4], %r45;\n  ret;\n", ""),
    "straight_stg_bar": (STRAIGHT, "  st.global.u32 [%rd4], %r45;\n  bar.sync 0;\n  ld.shared.u32 %r52, [%r6];\n"
                                   "  st.global.u32 [%rd4+4], %r52;\n  ret;\n", ""),
    "straight_uniform_if": (STRAIGHT, "  setp.lt.s32 %p13, %r23, 5;\n  @%p13 bra E;\n  st.global.u32 [%rd4], %r45;\n"
                                      "E:\n  ret;\n", ""),
    "straight_then_loop": (STRAIGHT, "  mov.u32 %r53, 0;\nL2:\n  ld.shared.u32 %r52, [%r6];\n  add.s32 %r53, %r53, 1;\n"
                                     "  st.global.u32 [%rd4], %r52;\n  setp.lt.s32 %p14, %r53, %r23;\n  @%p14 bra L2;\n"
                                     "  ret;\n", ""),
}
TARGETS = ["sm_75", "sm_80", "sm_90", "sm_100a"]


def variations() -> dict[str, str]:
    return {name: HEAD + pre + IF + join + after + "}\n" for name, (pre, join, after) in ROWS.items()}


if __name__ == "__main__":
    raise SystemExit(run(variations(), TARGETS))
