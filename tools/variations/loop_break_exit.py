"""A divergent search loop whose per-lane break leaves for code that ends the kernel (`for (..) if (a[i] == key)
{ out = i; return; } out = -1;`): where ptxas puts the loop's pair when no block post-dominates the loop
(docs/findings/convergence.md "A search loop whose break returns (helper nvreg36, stop 36)")."""
from __future__ import annotations

from pylower.tools.variations.table import run

HEAD = """.version 9.0
.target {target}
.address_size 64
.visible .entry k(.param .u64 pa, .param .u64 ps, .param .u64 po, .param .u32 pn, .param .u32 pk)
{
  .reg .pred %p<20>; .reg .b32 %r<60>; .reg .f32 %f<20>; .reg .b64 %rd<20>;
  ld.param.u64 %rd3, [pa]; ld.param.u64 %rd4, [ps]; ld.param.u64 %rd5, [po];
  ld.param.u32 %r7, [pn]; ld.param.u32 %r6, [pk];
  bar.sync 0;
  mov.u32 %r8, %ntid.x; mov.u32 %r9, %ctaid.x; mov.u32 %r10, %tid.x;
  mad.lo.s32 %r1, %r9, %r8, %r10;
  cvta.to.global.u64 %rd2, %rd3;
"""
GUARD = """  setp.ge.s32 %p1, %r1, %r7;
  @%p1 bra END;
"""
# per-thread bounds [b, e) loaded from a segment table
BOUNDS = """  cvta.to.global.u64 %rd6, %rd4;
  mul.wide.s32 %rd7, %r1, 4;
  add.s64 %rd8, %rd6, %rd7;
  ld.global.u32 %r2, [%rd8+4];
  ld.global.u32 %r13, [%rd8];
  cvta.to.global.u64 %rd9, %rd5;
  add.s64 %rd1, %rd9, %rd7;
"""
# uniform bounds [0, n): only the break is per lane
UBOUNDS = """  cvta.to.global.u64 %rd9, %rd5;
  mul.wide.s32 %rd7, %r1, 4;
  add.s64 %rd1, %rd9, %rd7;
  mov.u32 %r13, 0;
  mov.u32 %r2, %r7;
"""
SKIP = """  setp.ge.s32 %p2, %r13, %r2;
  @%p2 bra NF;
"""
USKIP = """  setp.lt.s32 %p2, %r7, 1;
  @%p2 bra NF;
"""
LOOP = """L:
  mul.wide.s32 %rd10, %r13, 4;
  add.s64 %rd11, %rd2, %rd10;
  ld.global.u32 %r11, [%rd11];
  setp.eq.s32 %p3, %r11, %r6;
  @%p3 bra F;
  add.s32 %r13, %r13, 1;
  setp.lt.s32 %p4, %r13, %r2;
  @%p4 bra L;
"""
# a second break on a sentinel value, to the same not-found code
LOOP2 = """L:
  mul.wide.s32 %rd10, %r13, 4;
  add.s64 %rd11, %rd2, %rd10;
  ld.global.u32 %r11, [%rd11];
  setp.eq.s32 %p3, %r11, %r6;
  @%p3 bra F;
  setp.eq.s32 %p5, %r11, -1;
  @%p5 bra NF;
  add.s32 %r13, %r13, 1;
  setp.lt.s32 %p4, %r13, %r2;
  @%p4 bra L;
"""
# the break tests a value every lane loads from the same address (warp-uniform)
LOOP_UBRK = """L:
  mul.wide.s32 %rd10, %r13, 4;
  add.s64 %rd11, %rd2, %rd10;
  ld.global.u32 %r11, [%rd11];
  ld.global.u32 %r16, [%rd2];
  setp.eq.s32 %p3, %r16, %r13;
  @%p3 bra F;
  add.s32 %r13, %r13, %r11;
  setp.lt.s32 %p4, %r13, %r2;
  @%p4 bra L;
"""
# a shuffle of the loaded value decides the break
LOOP_SHFL = """L:
  mul.wide.s32 %rd10, %r13, 4;
  add.s64 %rd11, %rd2, %rd10;
  ld.global.u32 %r11, [%rd11];
  shfl.sync.bfly.b32 %r17, %r11, 1, 31, -1;
  setp.eq.s32 %p3, %r17, %r6;
  @%p3 bra F;
  add.s32 %r13, %r13, 1;
  setp.lt.s32 %p4, %r13, %r2;
  @%p4 bra L;
"""
# an if storing to a second array in the loop body (a region inside the loop's)
LOOP_IF = """L:
  mul.wide.s32 %rd10, %r13, 4;
  add.s64 %rd11, %rd2, %rd10;
  ld.global.u32 %r11, [%rd11];
  setp.eq.s32 %p3, %r11, %r6;
  @%p3 bra F;
  setp.gt.s32 %p7, %r11, %r6;
  @%p7 bra SK;
  ld.global.u32 %r18, [%rd11+4096];
  add.s32 %r18, %r18, %r11;
  st.global.u32 [%rd11+4096], %r18;
SK:
  add.s32 %r13, %r13, 1;
  setp.lt.s32 %p4, %r13, %r2;
  @%p4 bra L;
"""
NF = """NF:
  mov.u32 %r12, -1;
  st.global.u32 [%rd1], %r12;
  bra.uni END;
"""
NF_RET = """NF:
  ret;
"""
NF_WORK = """NF:
  mov.u32 %r12, -1;
  mov.u32 %r20, 0;
W:
  mad.lo.s32 %r12, %r12, 3, %r20;
  add.s32 %r20, %r20, 1;
  setp.lt.s32 %p6, %r20, %r6;
  @%p6 bra W;
  st.global.u32 [%rd1], %r12;
  bra.uni END;
"""
NF_IF = """NF:
  mov.u32 %r12, -1;
  setp.eq.s32 %p6, %r2, 0;
  @%p6 bra NF2;
  ld.global.u32 %r12, [%rd2];
NF2:
  st.global.u32 [%rd1], %r12;
  bra.uni END;
"""
NF_BAR = """NF:
  mov.u32 %r12, -1;
  st.global.u32 [%rd1], %r12;
  bra.uni END;
"""
F = """F:
  st.global.u32 [%rd1], %r13;
"""
F_WORK = """F:
  ld.global.u32 %r14, [%rd11+4];
  add.s32 %r15, %r14, %r13;
  st.global.u32 [%rd1], %r15;
"""
F_RET = """F:
"""
END = """END:
  ret;
}
"""
ROWS = {
    "find_first": (GUARD, BOUNDS, SKIP, LOOP, NF, F),
    "no_guard": ("", BOUNDS, SKIP, LOOP, NF, F),
    "no_skip": (GUARD, BOUNDS, "", LOOP, NF, F),
    "uniform_bounds": (GUARD, UBOUNDS, USKIP, LOOP, NF, F),
    "uniform_bounds_no_skip": (GUARD, UBOUNDS, "", LOOP, NF, F),
    "nf_ret": (GUARD, BOUNDS, SKIP, LOOP, NF_RET, F),
    "found_ret": (GUARD, BOUNDS, SKIP, LOOP, NF, F_RET),
    "nf_loop": (GUARD, BOUNDS, SKIP, LOOP, NF_WORK, F),
    "nf_if": (GUARD, BOUNDS, SKIP, LOOP, NF_IF, F),
    "found_work": (GUARD, BOUNDS, SKIP, LOOP, NF, F_WORK),
    "two_breaks": (GUARD, BOUNDS, SKIP, LOOP2, NF, F),
    "inner_if": (GUARD, BOUNDS, SKIP, LOOP_IF, NF, F),
    "both_ret": (GUARD, BOUNDS, SKIP, LOOP, NF_RET, F_RET),
    "uniform_break": (GUARD, BOUNDS, SKIP, LOOP_UBRK, NF, F),
    "shfl_break": (GUARD, BOUNDS, SKIP, LOOP_SHFL, NF, F),
    "shfl_break_nf_ret": (GUARD, BOUNDS, SKIP, LOOP_SHFL, NF_RET, F),
}
TARGETS = ["sm_75", "sm_80", "sm_90", "sm_100a"]


def variations() -> dict[str, str]:
    return {name: HEAD + "".join(parts) + END for name, parts in ROWS.items()}


if __name__ == "__main__":
    raise SystemExit(run(variations(), TARGETS))
