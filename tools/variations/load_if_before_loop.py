"""A load if `v = g < n ? in[g] : 0` whose join leads (straight, or behind a uniform `if (steps < 1) skip`) into a
loop of `st.shared v; [halo if]; bar.sync; ...; bar.sync` (a Jacobi time-step loop, nvcc j34_jacobi1d_r*,
jl33_jacobi_steps): which loop bodies make ptxas predicate the load if (docs/findings/convergence.md "A load if
before a uniform guard of a loop stays a branch (helper nvbar35, stop 35; measured, rule not kept)"; the rule is not in pylower)."""
from __future__ import annotations

from pylower.tools.variations.table import run

HEAD = """.version 9.0
.target {target}
.address_size 64
.visible .entry k(.param .u64 p0, .param .u64 p1, .param .u32 p2, .param .u32 p3)
.maxntid 256, 1, 1
{
  .reg .pred %p<23>; .reg .f32 %f<91>; .reg .b32 %r<22>; .reg .b64 %rd<9>;
  .shared .align 4 .b8 s[1032];
  ld.param.u64 %rd2, [p0]; ld.param.u64 %rd3, [p1]; ld.param.u32 %r11, [p2]; ld.param.u32 %r12, [p3];
  cvta.to.global.u64 %rd4, %rd3;
  mov.u32 %r13, %ctaid.x; shl.b32 %r14, %r13, 8; mov.u32 %r1, %tid.x; add.s32 %r2, %r14, %r1;
  setp.ge.s32 %p1, %r2, %r11;
  mul.wide.s32 %rd5, %r2, 4; add.s64 %rd1, %rd4, %rd5;
  mov.f32 %f90, 0f00000000;
  @%p1 bra L2;
  ld.global.f32 %f90, [%rd1];
L2:
"""
GUARD = "  setp.lt.s32 %p2, %r12, 1;\n  @%p2 bra L38;\n"
PRE = """  add.s32 %r3, %r2, 256; shl.b32 %r15, %r1, 2; mov.u32 %r16, s; add.s32 %r4, %r16, %r15;
  mov.u32 %r21, %r12;
L31:
  st.shared.f32 [%r4+4], %f90;
"""
# the halo if of the loop body: `if (tid == 0) { s[0] = g > 0 ? in[g-1] : 0; s[257] = g+256 < n ? in[g+256] : 0 }`
HALO = """  setp.ne.s32 %p18, %r1, 0;
  @%p18 bra L37;
  setp.lt.s32 %p19, %r2, 1;
  mov.f32 %f89, 0f00000000; mov.f32 %f88, %f89;
  @%p19 bra L34;
  ld.global.f32 %f88, [%rd1+-4];
L34:
  st.shared.f32 [s], %f88;
  setp.ge.s32 %p20, %r3, %r11;
  @%p20 bra L36;
  ld.global.f32 %f89, [%rd1+1024];
L36:
  st.shared.f32 [s+1028], %f89;
L37:
"""
# the same if storing zeros (no loads)
HALO_ZERO = """  setp.ne.s32 %p18, %r1, 0;
  @%p18 bra L37;
  st.shared.f32 [s], 0f00000000;
  st.shared.f32 [s+1028], 0f00000000;
L37:
"""
# an unguarded global load in the loop
LOAD = """  ld.global.f32 %f88, [%rd1+-4];
  st.shared.f32 [s], %f88;
"""
STEP = """  bar.sync 0;
  ld.shared.f32 %f69, [%r4]; ld.shared.f32 %f71, [%r4+4]; add.f32 %f72, %f69, %f71;
  ld.shared.f32 %f73, [%r4+8]; add.f32 %f90, %f72, %f73;
  bar.sync 0;
  add.s32 %r21, %r21, -1;
  setp.ne.s32 %p21, %r21, 0;
  @%p21 bra L31;
L38:
"""
TAIL = {
    "store": "  cvta.to.global.u64 %rd6, %rd2;\n  add.s64 %rd8, %rd6, %rd5;\n  st.global.f32 [%rd8], %f90;\n  ret;\n}\n",
    "same": "  @%p1 bra L40;\n  cvta.to.global.u64 %rd6, %rd2;\n  add.s64 %rd8, %rd6, %rd5;\n"
            "  st.global.f32 [%rd8], %f90;\nL40:\n  ret;\n}\n",
}
BODIES = {"plain": "", "halo": HALO, "halo_zero": HALO_ZERO, "load": LOAD}
# the same bodies run once (no loop: the uniform if's body is straight code)
ONCE = """  bar.sync 0;
  ld.shared.f32 %f69, [%r4]; ld.shared.f32 %f71, [%r4+4]; add.f32 %f72, %f69, %f71;
  ld.shared.f32 %f73, [%r4+8]; add.f32 %f90, %f72, %f73;
  bar.sync 0;
L38:
"""
TARGETS = ["sm_75", "sm_80", "sm_90", "sm_100a", "sm_120"]


def variations() -> dict[str, str]:
    out = {}
    for guard in (False, True):
        for body, text in BODIES.items():
            for tail, t in TAIL.items():
                name = ("guard_" if guard else "straight_") + body + ("_same" if tail == "same" else "")
                out[name] = HEAD + (GUARD if guard else "") + PRE + text + STEP + t
                if guard and tail == "store":
                    out["guard_once_" + body] = HEAD + GUARD + PRE.replace("L31:\n", "") + text + ONCE + t
    return out


if __name__ == "__main__":
    raise SystemExit(run(variations(), TARGETS, frozenset({"BSSY", "BSYNC", "BAR"})))
