"""A guarded load `v = i < n ? x[i] : 0` followed by a loop behind its trip test (`if (steps < 1) goto end`), a
per-thread loop, or straight code: whether ptxas keeps the load if's pair (docs/findings/convergence.md "A load if
before a skipped loop keeps its pair (helper nvreg35, stop 35)")."""
from __future__ import annotations

from pylower.tools.variations.table import run

HEAD = """.version 9.0
.target {target}
.address_size 64
.visible .entry k(.param .u64 px, .param .u64 po, .param .u32 pn, .param .u32 ps)
{
  .reg .pred %p<20>; .reg .b32 %r<60>; .reg .f32 %f<20>; .reg .b64 %rd<20>;
  .shared .align 4 .b8 sf[1024];
  ld.param.u64 %rd1, [px]; ld.param.u64 %rd9, [po]; ld.param.u32 %r2, [pn]; ld.param.u32 %r3, [ps];
  cvta.to.global.u64 %rd2, %rd1; cvta.to.global.u64 %rd10, %rd9;
  bar.sync 0;
  mov.u32 %r4, %ctaid.x; mov.u32 %r5, %tid.x; mov.u32 %r6, %ntid.x;
  mad.lo.s32 %r1, %r4, %r6, %r5;
"""
# the index work of a 2D guard (`x < nx && y < ny`, index y * nx + x): more work before the branch
INDEX_2D = """  mov.u32 %r20, %ctaid.y; mov.u32 %r21, %tid.y;
  shl.b32 %r22, %r20, 4; add.s32 %r23, %r22, %r21;
  setp.lt.s32 %p10, %r1, %r2; setp.lt.s32 %p11, %r23, %r3;
  and.pred %p12, %p10, %p11; not.pred %p1, %p12;
  mad.lo.s32 %r1, %r23, %r2, %r1;
"""
INDEX_1D = """  setp.ge.s32 %p1, %r1, %r2;
"""
LOAD_IF = """  mul.wide.s32 %rd3, %r1, 4;
  add.s64 %rd4, %rd2, %rd3;
  mov.f32 %f1, 0f00000000;
  mov.f32 %f5, 0f00000000;
  mov.u32 %r41, 0;
  @%p1 bra J;
  ld.global.f32 %f1, [%rd4];
J:
"""
SKIP = """  setp.lt.s32 %p2, %r3, 1;
  @%p2 bra E;
"""
LOOP_ALU = """  mov.u32 %r30, 0;
L:
  fma.rn.f32 %f1, %f1, 0f3F000000, 0f3F800000;
  add.s32 %r30, %r30, 1;
  setp.lt.s32 %p3, %r30, %r3;
  @%p3 bra L;
"""
LOOP_LD = """  mov.u32 %r30, 0;
  mov.u64 %rd5, %rd4;
L:
  ld.global.f32 %f2, [%rd5+16384];
  fma.rn.f32 %f1, %f1, 0f3F000000, %f2;
  add.s64 %rd5, %rd5, 4096;
  add.s32 %r30, %r30, 1;
  setp.lt.s32 %p3, %r30, %r3;
  @%p3 bra L;
"""
LOOP_STS_BAR = """  shl.b32 %r31, %r5, 2; mov.u32 %r32, sf; add.s32 %r33, %r32, %r31;
  mov.u32 %r30, 0;
L:
  st.shared.f32 [%r33], %f1;
  bar.sync 0;
  ld.shared.f32 %f2, [%r33+4];
  add.f32 %f1, %f1, %f2;
  bar.sync 0;
  add.s32 %r30, %r30, 1;
  setp.lt.s32 %p3, %r30, %r3;
  @%p3 bra L;
"""
PRE_LD = """  ld.global.f32 %f3, [%rd4+16384];
"""
LOOP_PRE = """  mov.u32 %r30, 0;
L:
  fma.rn.f32 %f1, %f1, %f3, 0f3F800000;
  add.s32 %r30, %r30, 1;
  setp.lt.s32 %p3, %r30, %r3;
  @%p3 bra L;
"""
CONST_LOOP = """  mov.u32 %r30, 0;
L:
  fma.rn.f32 %f1, %f1, 0f3F000000, 0f3F800000;
  add.s32 %r30, %r30, 1;
  setp.lt.s32 %p3, %r30, 8;
  @%p3 bra L;
"""
# for (i = tid; i < steps; i += ntid) acc += x[i + 4096]: the skip test is per thread
TID_LOOP = """  setp.ge.s32 %p2, %r5, %r3;
  @%p2 bra E;
  mov.u32 %r30, %r5;
L:
  mul.wide.s32 %rd6, %r30, 4;
  add.s64 %rd7, %rd2, %rd6;
  ld.global.f32 %f2, [%rd7+16384];
  add.f32 %f1, %f1, %f2;
  add.s32 %r30, %r30, %r6;
  setp.lt.s32 %p3, %r30, %r3;
  @%p3 bra L;
"""
UIF_LD = """  setp.lt.s32 %p4, %r3, 4;
  @%p4 bra U;
  ld.global.f32 %f4, [%rd4+32768];
  add.f32 %f1, %f1, %f4;
U:
"""
UIF_ALU = """  setp.lt.s32 %p4, %r3, 4;
  @%p4 bra U;
  fma.rn.f32 %f1, %f1, 0f3F000000, 0f3F800000;
U:
"""
# the loop reads the loaded value without changing it (a sum of its own)
LOOP_READS = """  mov.u32 %r30, 0;
L:
  fma.rn.f32 %f5, %f1, 0f3F000000, %f5;
  add.s32 %r30, %r30, 1;
  setp.lt.s32 %p3, %r30, %r3;
  @%p3 bra L;
"""
# independent work in the join before the trip test (its result stored at the end)
ADD1 = "  add.s32 %r41, %r3, -1;\n"
ADD_MUL = "  add.s32 %r40, %r3, -1;\n  mul.lo.s32 %r41, %r40, %r2;\n"
ADD2 = "  add.s32 %r40, %r3, -1;\n  add.s32 %r41, %r40, %r2;\n"
S2R = "  mov.u32 %r41, %ctaid.y;\n"
TAIL = """E:
  add.s64 %rd11, %rd10, %rd3;
  add.f32 %f1, %f1, %f5;
  st.global.f32 [%rd11], %f1;
  st.global.u32 [%rd11+4], %r41;
  ret;
}
"""
ROWS = {
    # a loop behind its trip test after the join
    "skip_loop_alu": (INDEX_1D, SKIP + LOOP_ALU),
    "skip_loop_ld": (INDEX_1D, SKIP + LOOP_LD),
    "skip_loop_sts_bar": (INDEX_1D, SKIP + LOOP_STS_BAR),
    "skip_preheader_ld_loop": (INDEX_1D, SKIP + PRE_LD + LOOP_PRE),
    "index2d_skip_loop_alu": (INDEX_2D, SKIP + LOOP_ALU),
    "index2d_skip_loop_ld": (INDEX_2D, SKIP + LOOP_LD),
    "tid_loop_ld": (INDEX_1D, TID_LOOP),
    "skip_loop_reads": (INDEX_1D, SKIP + LOOP_READS),
    # independent work in the join before the trip test
    "add_then_skip_loop": (INDEX_1D, ADD1 + SKIP + LOOP_ALU),
    "s2r_then_skip_loop": (INDEX_1D, S2R + SKIP + LOOP_ALU),
    "add_mul_then_skip_loop": (INDEX_1D, ADD_MUL + SKIP + LOOP_ALU),
    "two_adds_then_skip_loop": (INDEX_1D, ADD2 + SKIP + LOOP_ALU),
    # something before the trip test
    "ld_then_skip_loop": (INDEX_1D, PRE_LD + SKIP + LOOP_PRE),
    "uif_ld_then_skip_loop": (INDEX_1D, UIF_LD + SKIP + LOOP_ALU),
    "uif_alu_then_skip_loop": (INDEX_1D, UIF_ALU + SKIP + LOOP_ALU),
    # no trip test: a counted loop entered at the join, a uniform if, straight code
    "const_loop": (INDEX_1D, CONST_LOOP),
    "uif_ld": (INDEX_1D, UIF_LD),
    "straight": (INDEX_1D, "  fma.rn.f32 %f1, %f1, 0f3F000000, 0f3F800000;\n"),
}
TARGETS = ["sm_75", "sm_80", "sm_90", "sm_100a"]


def variations() -> dict[str, str]:
    return {name: HEAD + index + LOAD_IF + after + TAIL for name, (index, after) in ROWS.items()}


if __name__ == "__main__":
    raise SystemExit(run(variations(), TARGETS))
