"""A load if whose value goes to memory (`if (i < n) { v = x[i]; s[tid] = v }`, or `s[tid] = i < n ? x[i] : 0`),
then `bar.sync`, then a branch around a loop or an if (a block reduction's trip test on %ntid, a row loop's
`if (row >= rows || tid >= cols) skip`): whether ptxas keeps the load if's pair (docs/findings/convergence.md,
helper nvbar36, stop 36)."""
from __future__ import annotations

from pylower.tools.variations.table import run

HEAD = """.version 9.0
.target {target}
.address_size 64
.visible .entry k(.param .u64 px, .param .u64 po, .param .u32 pn, .param .u32 pm)
{
  .reg .pred %p<20>; .reg .b32 %r<60>; .reg .f32 %f<20>; .reg .b64 %rd<20>;
  .shared .align 4 .b8 sf[1024];
  ld.param.u64 %rd1, [px]; ld.param.u64 %rd9, [po]; ld.param.u32 %r2, [pn]; ld.param.u32 %r3, [pm];
  cvta.to.global.u64 %rd2, %rd1; cvta.to.global.u64 %rd10, %rd9;
  mov.u32 %r4, %ctaid.x; mov.u32 %r5, %tid.x; mov.u32 %r6, %ntid.x;
  mad.lo.s32 %r1, %r4, %r6, %r5;
  shl.b32 %r31, %r5, 2; mov.u32 %r32, sf; add.s32 %r33, %r32, %r31;
  setp.ge.s32 %p1, %r1, %r2;
  mov.f32 %f1, 0f00000000;
"""
# the region: load + shared store in it / load in it, stored at the join / load + global store in it
R_STS = """  @%p1 bra J;
  mul.wide.s32 %rd3, %r1, 4; add.s64 %rd4, %rd2, %rd3;
  ld.global.f32 %f1, [%rd4];
  st.shared.f32 [%r33], %f1;
J:
  bar.sync 0;
"""
R_JSTS = """  @%p1 bra J;
  mul.wide.s32 %rd3, %r1, 4; add.s64 %rd4, %rd2, %rd3;
  ld.global.f32 %f1, [%rd4];
J:
  st.shared.f32 [%r33], %f1;
  bar.sync 0;
"""
R_STG = """  @%p1 bra J;
  mul.wide.s32 %rd3, %r1, 4; add.s64 %rd4, %rd2, %rd3;
  ld.global.f32 %f1, [%rd4];
  add.s64 %rd5, %rd10, %rd3;
  st.global.f32 [%rd5], %f1;
J:
  bar.sync 0;
"""
# after the barrier: a uniform trip test (on %ntid or a parameter) around a loop
SKIP_NTID = """  setp.lt.u32 %p2, %r6, 66;
  @%p2 bra E;
"""
SKIP_PARAM = """  setp.lt.s32 %p2, %r3, 1;
  @%p2 bra E;
"""
# the row kernel's `if (row >= rows || tid >= cols)`: a test reading the load if's predicate
SKIP_OR = """  setp.ge.s32 %p3, %r4, %r3;
  or.pred %p2, %p3, %p1;
  @%p2 bra E;
"""
# a per-thread test
SKIP_TID = """  setp.ge.s32 %p2, %r5, %r3;
  @%p2 bra E;
"""
LOOP_BAR = """  mov.u32 %r30, %r6;
L:
  shr.u32 %r30, %r30, 1;
  ld.shared.f32 %f2, [%r33];
  add.f32 %f3, %f2, 0f3F800000;
  st.shared.f32 [%r33], %f3;
  bar.sync 0;
  setp.gt.u32 %p4, %r30, 65;
  @%p4 bra L;
"""
LOOP_ALU = """  mov.u32 %r30, 0;
  ld.shared.f32 %f4, [%r33+4];
L:
  fma.rn.f32 %f4, %f4, 0f3F000000, 0f3F800000;
  add.s32 %r30, %r30, 1;
  setp.lt.s32 %p4, %r30, %r3;
  @%p4 bra L;
  st.shared.f32 [%r33+4], %f4;
"""
LOOP_LDG = """  mov.u32 %r30, %r5;
L:
  mul.wide.s32 %rd6, %r30, 4;
  add.s64 %rd7, %rd2, %rd6;
  ld.global.f32 %f2, [%rd7+16384];
  ld.shared.f32 %f3, [%r33];
  mul.f32 %f2, %f2, %f3;
  add.s64 %rd8, %rd10, %rd6;
  st.global.f32 [%rd8], %f2;
  add.s32 %r30, %r30, %r6;
  setp.lt.s32 %p4, %r30, %r3;
  @%p4 bra L;
"""
IF_LDS = """  ld.shared.f32 %f4, [%r33+4];
  add.s64 %rd11, %rd10, 8192;
  st.global.f32 [%rd11], %f4;
"""
WORK2 = """  mul.lo.s32 %r40, %r3, %r2;
  add.s32 %r41, %r40, %r4;
  mul.wide.s32 %rd12, %r41, 4;
  add.s64 %rd13, %rd10, %rd12;
  st.global.u32 [%rd13+4096], %r41;
"""
TAIL = """E:
  ld.shared.f32 %f6, [%r33];
  add.s64 %rd14, %rd10, 4;
  st.global.f32 [%rd14], %f6;
  ret;
}
"""
TAIL_LANE0 = """E:
  setp.ne.s32 %p6, %r5, 0;
  @%p6 bra X;
  ld.shared.f32 %f6, [sf];
  st.global.f32 [%rd10], %f6;
X:
  ret;
}
"""
AFTER = {
    "ntid_loop_bar": SKIP_NTID + LOOP_BAR,
    "param_loop_bar": SKIP_PARAM + LOOP_BAR,
    "param_loop_alu": SKIP_PARAM + LOOP_ALU,
    "param_if_lds": SKIP_PARAM + IF_LDS,
    "or_loop_ldg": SKIP_OR + LOOP_LDG,
    "param_loop_ldg": SKIP_PARAM + LOOP_LDG,
    "tid_loop_ldg": SKIP_TID + LOOP_LDG,
    "work_ntid_loop_bar": WORK2 + SKIP_NTID + LOOP_BAR,
    "straight": IF_LDS,
}
REGIONS = {"sts": R_STS, "jsts": R_JSTS, "stg": R_STG}
TAILS = {"": TAIL, "_lane0": TAIL_LANE0}
TARGETS = ["sm_75", "sm_80", "sm_90", "sm_100a"]


def variations() -> dict[str, str]:
    return {f"{r}_{a}{t}": HEAD + region + after + tail for r, region in REGIONS.items()
            for a, after in AFTER.items() for t, tail in TAILS.items()}


if __name__ == "__main__":
    raise SystemExit(run(variations(), TARGETS))
