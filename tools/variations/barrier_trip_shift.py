"""A load if whose value is staged to shared memory (`s[tid] = i < n ? x[i] : INIT`), `bar.sync`, then a block
reduction's loop `for (s = ntid / 2; s > 0; s >>= 1) { [if (tid < s)] { s[tid] op= s[tid + s] }; bar.sync }`
behind its uniform trip test, then a lane-0 tail: whether ptxas keeps the load if's pair, by the form of the
trip test (docs/findings/convergence.md, helper nvbar37, stop 37)."""
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
  mov.u32 %r6, %ntid.x; mov.u32 %r4, %ctaid.x; mov.u32 %r5, %tid.x;
  mad.lo.s32 %r1, %r4, %r6, %r5;
  setp.ge.s32 %p1, %r1, %r2;
  mov.f32 %f1, 0fFF800000;
"""
REGIONS = {
    # nvcc's `s[t] = i < n ? x[i] : -inf`: the load in the region, the store at the join
    "jsts": """  @%p1 bra J;
  cvta.to.global.u64 %rd2, %rd1; mul.wide.s32 %rd3, %r1, 4; add.s64 %rd4, %rd2, %rd3;
  ld.global.f32 %f1, [%rd4];
J:
  shl.b32 %r31, %r5, 2; mov.u32 %r32, sf; add.s32 %r33, %r32, %r31;
  st.shared.f32 [%r33], %f1;
  bar.sync 0;
""",
    # `if (i < n) s[t] = x[i]`: load and store in the region
    "sts": """  shl.b32 %r31, %r5, 2; mov.u32 %r32, sf; add.s32 %r33, %r32, %r31;
  @%p1 bra J;
  cvta.to.global.u64 %rd2, %rd1; mul.wide.s32 %rd3, %r1, 4; add.s64 %rd4, %rd2, %rd3;
  ld.global.f32 %f1, [%rd4];
  st.shared.f32 [%r33], %f1;
J:
  bar.sync 0;
""",
}
# the trip test and first trip count: s = N / 2 tested against 0 (nvcc's `for (s = blockDim.x / 2; s > 0; ...)`),
# or the count compared with an immediate (nvcc after unrolling a `s > 32` loop), N = %ntid.x or a parameter
TRIPS = {
    "ntid_shr": """  shr.u32 %r30, %r6, 1;
  setp.eq.s32 %p2, %r30, 0;
  @%p2 bra E;
""",
    "param_shr": """  shr.u32 %r30, %r3, 1;
  setp.eq.s32 %p2, %r30, 0;
  @%p2 bra E;
""",
    "ntid_imm": """  shr.u32 %r30, %r6, 1;
  setp.lt.u32 %p2, %r6, 2;
  @%p2 bra E;
""",
    "param_imm": """  shr.u32 %r30, %r3, 1;
  setp.lt.s32 %p2, %r3, 2;
  @%p2 bra E;
""",
}
# the loop's latch after the body's barrier (s >>= 1; s > 0)
LATCH = """  bar.sync 0;
  shr.u32 %r30, %r30, 1;
  setp.ne.s32 %p4, %r30, 0;
  @%p4 bra L;
"""
# `if (t < s)`: the test and the thread's own slot
IF_TEST = """L:
  setp.ge.u32 %p3, %r5, %r30;
  @%p3 bra B;
  ld.shared.f32 %f2, [%r33];
"""
BODIES = {
    # a value if (`x = t >= s ? s[t - s] : 0`, a scan step): the if holds one shared load and no store
    "val": """L:
  mov.f32 %f3, 0f00000000;
  setp.lt.u32 %p3, %r5, %r30;
  @%p3 bra B;
  shl.b32 %r34, %r30, 2; sub.s32 %r35, %r33, %r34;
  ld.shared.f32 %f3, [%r35];
B:
  bar.sync 0;
  ld.shared.f32 %f2, [%r33];
  add.f32 %f4, %f2, %f3;
  st.shared.f32 [%r33], %f4;
""" + LATCH,
    # the same if holding a global load instead of the shared partner's
    "ifldg": IF_TEST + """  cvta.to.global.u64 %rd5, %rd1; mul.wide.u32 %rd6, %r30, 4; add.s64 %rd7, %rd5, %rd6;
  ld.global.f32 %f3, [%rd7];
  max.f32 %f4, %f2, %f3;
  st.shared.f32 [%r33], %f4;
B:
""" + LATCH,
    # an if of 14 instructions (a polynomial in the partner's value): kept a branch by its size
    "ifbig": IF_TEST + """  shl.b32 %r34, %r30, 2; add.s32 %r35, %r33, %r34;
  ld.shared.f32 %f3, [%r35];
  fma.rn.f32 %f5, %f3, %f3, %f2; fma.rn.f32 %f5, %f5, %f3, %f2; fma.rn.f32 %f5, %f5, %f3, %f2;
  fma.rn.f32 %f5, %f5, %f3, %f2; fma.rn.f32 %f5, %f5, %f3, %f2; fma.rn.f32 %f5, %f5, %f3, %f2;
  fma.rn.f32 %f5, %f5, %f3, %f2; fma.rn.f32 %f5, %f5, %f3, %f2; fma.rn.f32 %f5, %f5, %f3, %f2;
  fma.rn.f32 %f5, %f5, %f3, %f2; fma.rn.f32 %f5, %f5, %f3, %f2; fma.rn.f32 %f5, %f5, %f3, %f2;
  max.f32 %f4, %f2, %f5;
  st.shared.f32 [%r33], %f4;
B:
""" + LATCH,
    # every thread updates its slot, then the `if (t < s)` (the if is not the body's first code)
    "workif": """L:
  ld.shared.f32 %f7, [%r33+512];
  add.f32 %f7, %f7, 0f3F800000;
  st.shared.f32 [%r33+512], %f7;
  setp.ge.u32 %p3, %r5, %r30;
  @%p3 bra B;
  ld.shared.f32 %f2, [%r33];
  shl.b32 %r34, %r30, 2; add.s32 %r35, %r33, %r34;
  ld.shared.f32 %f3, [%r35];
  max.f32 %f4, %f2, %f3;
  st.shared.f32 [%r33], %f4;
B:
""" + LATCH,
    # `if (t < s) s[t] = max(s[t], s[t + s])` then the barrier
    "if": IF_TEST + """  shl.b32 %r34, %r30, 2; add.s32 %r35, %r33, %r34;
  ld.shared.f32 %f3, [%r35];
  max.f32 %f4, %f2, %f3;
  st.shared.f32 [%r33], %f4;
B:
""" + LATCH,
    # every thread updates its own slot, then the barrier
    "all": """L:
  ld.shared.f32 %f2, [%r33];
  add.f32 %f3, %f2, 0f3F800000;
  st.shared.f32 [%r33], %f3;
""" + LATCH,
}
TAILS = {
    # the lane-0 tail also stores the load if's own value (live across the loop)
    "live": """E:
  setp.ne.s32 %p6, %r5, 0;
  @%p6 bra X;
  ld.shared.f32 %f6, [sf];
  add.f32 %f6, %f6, %f1;
  cvta.to.global.u64 %rd10, %rd9;
  st.global.f32 [%rd10], %f6;
X:
  ret;
}
""",
    "lane0": """E:
  setp.ne.s32 %p6, %r5, 0;
  @%p6 bra X;
  ld.shared.f32 %f6, [sf];
  cvta.to.global.u64 %rd10, %rd9;
  st.global.f32 [%rd10], %f6;
X:
  ret;
}
""",
    "all": """E:
  ld.shared.f32 %f6, [sf];
  cvta.to.global.u64 %rd10, %rd9; mul.wide.u32 %rd11, %r5, 4; add.s64 %rd12, %rd10, %rd11;
  st.global.f32 [%rd12], %f6;
  ret;
}
""",
}
# the test of an if run once straight after the barrier (`if (TEST) s[t] = max(s[t], s[t + 1])`): how much work
# ptxas moves above the barrier for it (a compare reads %ntid or a parameter as an operand; a shift or an add of one
# needs it in a uniform register first; a mul.lo and its add are one IMAD)
TESTS = {
    "tid_imm": "  setp.ge.s32 %p3, %r5, 1;\n",
    "tid_param": "  setp.ge.s32 %p3, %r5, %r3;\n",
    "tid_ntid": "  setp.ge.s32 %p3, %r5, %r6;\n",
    "tidshr_param": "  shr.u32 %r40, %r5, 3;\n  setp.ge.s32 %p3, %r40, %r3;\n",
    "tidmad_param": "  mul.lo.s32 %r40, %r5, 3;\n  add.s32 %r41, %r40, %r4;\n  setp.ge.s32 %p3, %r41, %r3;\n",
    "tid_paramshr": "  shr.u32 %r40, %r3, 1;\n  setp.ge.s32 %p3, %r5, %r40;\n",
    "tid_ntidm1": "  add.s32 %r40, %r6, -1;\n  setp.ge.s32 %p3, %r5, %r40;\n",
    "tidmadxor_param": "  mul.lo.s32 %r40, %r5, 3;\n  add.s32 %r41, %r40, %r4;\n  xor.b32 %r42, %r41, %r3;\n"
                       "  setp.ge.s32 %p3, %r42, %r3;\n",
}
TEST_IF = """  @%p3 bra B;
  ld.shared.f32 %f2, [%r33];
  ld.shared.f32 %f3, [%r33+4];
  max.f32 %f4, %f2, %f3;
  st.shared.f32 [%r33], %f4;
B:
  bar.sync 0;
"""
TARGETS = ["sm_75", "sm_80", "sm_90", "sm_100a"]


def variations() -> dict[str, str]:
    rows = {f"{r}_{t}_{b}_{e}": HEAD + region + trip + body + tail for r, region in REGIONS.items()
            for t, trip in TRIPS.items() for b, body in BODIES.items() for e, tail in TAILS.items()
            if r == "jsts" and e == "lane0" or t == "ntid_shr" and b in ("if", "all")}
    # no trip test and no loop: the body's code runs once, straight after the barrier (s = ntid / 2)
    for b, body in BODIES.items():
        once = body.replace("  @%p4 bra L;\n", "")
        for e in ("lane0", "live"):
            rows[f"jsts_once_{b}_{e}"] = HEAD + REGIONS["jsts"] + "  shr.u32 %r30, %r6, 1;\n" + once + TAILS[e]
    for b in ("if", "all", "val"):
        rows[f"jsts_ntid_shr_{b}_live"] = HEAD + REGIONS["jsts"] + TRIPS["ntid_shr"] + BODIES[b] + TAILS["live"]
    for k, test in TESTS.items():
        rows[f"jsts_test_{k}_lane0"] = HEAD + REGIONS["jsts"] + test + TEST_IF + TAILS["lane0"]
    return rows


if __name__ == "__main__":
    raise SystemExit(run(variations(), TARGETS))
