"""A load if `v = i < n ? x[i] : 0`, then at its join `s[t + 1] = v` (or other uses of v), then a lane-0 if ptxas
predicates (`if (t == 0) { s[0] = 0; ... }`, a halo load `if (t == 0) s[t] = x[g - 1]`, ...), then `bar.sync` and
shared-memory work: whether ptxas keeps the load if's pair (docs/findings/convergence.md "A load if staged to
shared memory before a predicated if keeps its pair (helper nvbar36, stop 36)")."""
from __future__ import annotations

from pylower.tools.variations.table import run

HEAD = """.version 9.0
.target {target}
.address_size 64
.visible .entry k(.param .u64 px, .param .u64 po, .param .u32 pn, .param .u32 pm)
{
  .reg .pred %p<20>; .reg .b32 %r<60>; .reg .f32 %f<20>; .reg .b64 %rd<20>;
  .shared .align 4 .b8 sf[1032]; .shared .align 4 .b8 sg[1032];
  ld.param.u64 %rd1, [px]; ld.param.u64 %rd9, [po]; ld.param.u32 %r2, [pn]; ld.param.u32 %r3, [pm];
  mov.u32 %r5, %tid.x; mov.u32 %r4, %ctaid.x; shl.b32 %r7, %r4, 8; add.s32 %r1, %r7, %r5;
  cvta.to.global.u64 %rd2, %rd1; mul.wide.s32 %rd3, %r1, 4; add.s64 %rd4, %rd2, %rd3;
  cvta.to.global.u64 %rd10, %rd9; add.s64 %rd12, %rd10, %rd3;
  shl.b32 %r31, %r5, 2; mov.u32 %r32, sf; add.s32 %r33, %r32, %r31;
  setp.ge.s32 %p1, %r1, %r2;
  mov.f32 %f1, 0f00000000;
  @%p1 bra J;
  ld.global.f32 %f1, [%rd4];
J:
"""


def zero_if(k: int) -> str:
    """if (t == 0) { k zero stores }"""
    tg = ["[sf]", "[sg]", "[sf+1028]", "[sg+1028]"] + [f"[sg+{4 * i}]" for i in range(4, 8)]
    return ("  setp.ne.s32 %p2, %r5, 0;\n  @%p2 bra Z;\n  mov.u32 %r21, 0;\n"
            + "".join(f"  st.shared.u32 {tg[i]}, %r21;\n" for i in range(k)) + "Z:\n")


NEXT = {
    "zero1": zero_if(1),
    "zero4": zero_if(4),
    "zero8": zero_if(8),
    # if (t < 16) sg[0] = t * m
    "tid_mul": """  setp.gt.u32 %p2, %r5, 15;
  @%p2 bra Z;
  mul.lo.s32 %r22, %r5, %r3;
  st.shared.u32 [sg], %r22;
Z:
""",
    # if (t == 0) s[t] = x[g - 1]: a load of its own
    "halo": """  setp.ne.s32 %p2, %r5, 0;
  @%p2 bra Z;
  ld.global.f32 %f7, [%rd4+-4];
  st.shared.f32 [%r33], %f7;
Z:
""",
}
STS = "  st.shared.f32 [%r33+4], %f1;\n"
ALU6 = "".join(f"  add.s32 %r{40 + i}, %r{39 + i if i else 3}, {i + 3};\n" for i in range(6)) \
    + "  st.shared.u32 [sg+8], %r45;\n"
# what the join does before the next if / after it
JOIN = {
    "sts": (STS, ""),
    "sts_alu6": (STS + ALU6, ""),
    "alu6_sts": (ALU6 + STS, ""),
    "later_sts": ("", STS),
    "mul_later_sts": ("  mul.f32 %f9, %f1, 0f40000000;\n", "  st.shared.f32 [%r33+4], %f9;\n"),
    "stg": ("  st.global.f32 [%rd12+4096], %f1;\n", ""),
}
AFTER = {
    "bar": "  bar.sync 0;\n",
    # nvcc's time loop behind its trip test (the Jacobi ping-pong / diffusion kernels)
    "bar_loop": """  bar.sync 0;
  setp.lt.s32 %p3, %r3, 1;
  @%p3 bra E;
  mov.u32 %r30, 0;
L:
  ld.shared.f32 %f2, [%r33];
  ld.shared.f32 %f3, [%r33+8];
  add.f32 %f4, %f2, %f3;
  bar.sync 0;
  st.shared.f32 [%r33+4], %f4;
  bar.sync 0;
  add.s32 %r30, %r30, 1;
  setp.lt.s32 %p4, %r30, %r3;
  @%p4 bra L;
E:
""",
}
WORK = """  ld.shared.f32 %f2, [%r33];
  ld.shared.f32 %f3, [%r33+8];
  add.f32 %f4, %f2, %f3;
  st.shared.f32 [%r33+4], %f4;
"""
TAIL = """  ld.shared.f32 %f5, [%r33+4];
  @%p1 bra X;
  st.global.f32 [%rd12], %f5;
X:
  ret;
}
"""
ROWS = [(j, n, a) for j in ("sts", "sts_alu6", "alu6_sts") for n in NEXT for a in ("bar",)] \
    + [("sts", n, "bar_loop") for n in ("zero1", "zero4", "halo")] \
    + [(j, n, "bar") for j in ("later_sts", "mul_later_sts", "stg") for n in ("zero1", "zero4")]
TARGETS = ["sm_75", "sm_80", "sm_90"]


def variations() -> dict[str, str]:
    return {f"{j}_{n}_{a}": HEAD + JOIN[j][0] + NEXT[n] + JOIN[j][1] + AFTER[a] + WORK + TAIL for j, n, a in ROWS}


if __name__ == "__main__":
    raise SystemExit(run(variations(), TARGETS))
