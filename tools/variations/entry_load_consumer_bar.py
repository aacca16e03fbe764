"""Entry block `ld.global x; [use of x]; bar.sync x1-2; @g red/atom`: where ptxas issues the region's BSSY by what
reads the loaded value (the guard's compare or the atomic's operand, before or after the barriers, or nothing) and
how many barriers precede the region (helper tconv37, stop 37; docs/findings/atomic.md, measured, not modelled)."""
from __future__ import annotations

from pylower.tools.variations.table import run

TARGETS = ["sm_80", "sm_90"]
H = """.version 8.7
.target {target}
.address_size 64
.visible .entry k(.param .u64 p0, .param .u64 p1, .param .u32 n)
{
  .reg .pred %p<20>; .reg .b32 %r<64>; .reg .b64 %rd<16>;
  mov.u32 %r1, %tid.x;
  ld.param.u64 %rd1, [p0];
  ld.param.u64 %rd2, [p1];
  ld.param.u32 %r2, [n];
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd1, %rd3;
  add.s64 %rd5, %rd2, %rd3;
  setp.lt.u32 %p1, %r1, %r2;
  ld.global.u32 %r6, [%rd5];
"""
C = {
 "setp_guard": ("  setp.gt.s32 %p2, %r6, -1;\n  and.pred %p3, %p1, %p2;\n", "%p3", "%r1"),
 "add_value": ("  add.s32 %r7, %r6, %r1;\n", "%p1", "%r7"),
 "after_guard": ("", "%p4", "%r1"),
 "after_value": ("", "%p1", "%r6"),
 "dead": ("", "%p1", "%r1"),
}
T = "  bar.sync 0;\n  st.global.u32 [%rd5+1024], %r1;\n  ret;\n}\n"
def variations():
    out = {}
    for c, (pre, g, v) in C.items():
        for bars in (1, 2):
            post = "  setp.gt.s32 %p4, %r6, -1;\n" if g == "%p4" else ""
            for kind, a in (("red", f"  @{g} red.global.gpu.relaxed.add.u32 [%rd4], {v};\n"),
                            ("atomacq", f"  @{g} atom.global.gpu.acquire.add.u32 %r9, [%rd4], {v};\n  st.global.u32 [%rd5+2048], %r9;\n")):
                out[f"{c}_b{bars}_{kind}"] = H + pre + "  bar.sync 0;\n" * bars + post + a + T
    return out
if __name__ == "__main__":
    raise SystemExit(run(variations(), TARGETS, frozenset({"BSSY", "BSYNC", "BAR", "LDG"})))
