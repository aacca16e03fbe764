"""An if whose paths meet at a store except one inner `continue` that skips it (`if (v < lo) { if (v < 2 * lo)
continue; v = lo; } else if (v > hi) v = hi; out[i] = v;`): ptxas opens a second pair at the outer branch to the
store and leaves it by a BREAK on the skipping path (docs/findings/convergence.md "A search loop whose break
returns (helper nvreg36, stop 36)"; modelled by "An if left by a break or continue gets a BREAK nest (helper
nvreg38, stop 38)": 22/24, the straight rows on sm_75 left)."""
from __future__ import annotations

from pylower.tools.variations.table import run

HEAD = """.version 9.0
.target {target}
.address_size 64
.visible .entry k(.param .u64 pi, .param .u64 po, .param .u32 pn, .param .u32 ps, .param .f32 plo, .param .f32 phi)
{
  .reg .pred %p<20>; .reg .b32 %r<60>; .reg .f32 %f<20>; .reg .b64 %rd<20>;
  ld.param.u64 %rd4, [pi]; ld.param.u64 %rd5, [po]; ld.param.u32 %r8, [pn]; ld.param.u32 %r9, [ps];
  ld.param.f32 %f5, [plo]; ld.param.f32 %f6, [phi];
  bar.sync 0;
  cvta.to.global.u64 %rd2, %rd4; cvta.to.global.u64 %rd1, %rd5;
  mov.u32 %r1, %ntid.x; mov.u32 %r2, %ctaid.x; mov.u32 %r3, %tid.x;
  mad.lo.s32 %r16, %r2, %r1, %r3;
  add.f32 %f1, %f5, %f5;
  mov.u32 %r19, 0;
"""
LOOP_HEAD = """  setp.ge.s32 %p2, %r16, %r8;
  @%p2 bra DONE;
L:
"""
BODY = """  mul.wide.s32 %rd7, %r16, 4;
  add.s64 %rd8, %rd2, %rd7;
  ld.global.f32 %f2, [%rd8];
"""
NAN = """  setp.nan.f32 %p3, %f2, %f2;
  @%p3 bra DONE;
"""
IF_ELSE = """  setp.lt.f32 %p4, %f2, %f5;
  @%p4 bra THEN;
  setp.gt.f32 %p5, %f2, %f6;
  selp.f32 %f7, %f6, %f2, %p5;
  bra.uni ST;
THEN:
  setp.lt.f32 %p6, %f2, %f1;
  mov.f32 %f7, %f5;
  @%p6 bra NEXT;
ST:
  add.s64 %rd10, %rd1, %rd7;
  st.global.f32 [%rd10], %f7;
  add.s32 %r19, %r19, 1;
NEXT:
"""
# no else arm: `if (v < lo) { if (v < 2 * lo) continue; v = lo; } out[i] = v;`
IF_ONLY = """  mov.f32 %f7, %f2;
  setp.lt.f32 %p4, %f2, %f5;
  @!%p4 bra ST;
  setp.lt.f32 %p6, %f2, %f1;
  mov.f32 %f7, %f5;
  @%p6 bra NEXT;
ST:
  add.s64 %rd10, %rd1, %rd7;
  st.global.f32 [%rd10], %f7;
  add.s32 %r19, %r19, 1;
NEXT:
"""
LATCH = """  add.s32 %r16, %r16, %r9;
  setp.lt.s32 %p7, %r16, %r8;
  @%p7 bra L;
DONE:
"""
TAIL = """  mul.wide.s32 %rd11, %r3, 4;
  add.s64 %rd12, %rd1, %rd11;
  st.global.u32 [%rd12+65536], %r19;
  ret;
}
"""
ROWS = {
    "loop_nan_if_else": LOOP_HEAD + BODY + NAN + IF_ELSE + LATCH,
    "loop_if_else": LOOP_HEAD + BODY + IF_ELSE + LATCH,
    "loop_nan_if_only": LOOP_HEAD + BODY + NAN + IF_ONLY + LATCH,
    "loop_if_only": LOOP_HEAD + BODY + IF_ONLY + LATCH,
    "straight_if_else": BODY + IF_ELSE,
    "straight_if_only": BODY + IF_ONLY,
}
TARGETS = ["sm_75", "sm_80", "sm_90", "sm_100a"]


def variations() -> dict[str, str]:
    return {name: HEAD + body + TAIL for name, body in ROWS.items()}


if __name__ == "__main__":
    raise SystemExit(run(variations(), TARGETS))
