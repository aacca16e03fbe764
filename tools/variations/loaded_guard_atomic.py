"""Where ptxas issues the BSSY of a guarded atomic (`@p red` / `@p atom`, Triton's masked form, which pylower keeps
as a predicated body inside its pair and ptxas branches around) whose guard is read from memory: Triton's mask
layout conversion (`st.shared.b8 mask; bar.sync; ld.shared.b8; and; setp`), a guard loaded from global memory, or a
guard computed from registers (control). Varied: the atomic's kind, memory order and scope, result used or not,
the barriers after the guard's load, the guard's source (helper tconv37, stop 37; docs/findings/atomic.md)."""
from __future__ import annotations

from pylower.tools.variations.table import run

HEAD = """.version 8.7
.target {target}
.address_size 64
.visible .entry k(.param .u64 p0, .param .u64 p1, .param .u32 n)
{
  .reg .pred %p<20>; .reg .b16 %rs<20>; .reg .b32 %r<64>; .reg .b64 %rd<16>;
  .shared .align 16 .b8 sm[4096];
  mov.u32 %r1, %tid.x;
  ld.param.u64 %rd1, [p0];
  ld.param.u64 %rd2, [p1];
  ld.param.u32 %r2, [n];
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd1, %rd3;
  add.s64 %rd5, %rd2, %rd3;
  mov.u32 %r3, sm;
  add.s32 %r4, %r3, %r1;
  xor.b32 %r5, %r4, 33;
  ld.global.u32 %r6, [%rd5];
  setp.lt.u32 %p1, %r1, %r2;
  setp.gt.s32 %p2, %r6, -1;
  and.pred %p3, %p1, %p2;
"""
# the guard %p5 the region tests
GUARD = {
    # Triton's mask layout conversion through shared memory, then `bars` barriers
    "lds": "  selp.b16 %rs1, 1, 0, %p3;\n  st.shared.b8 [%r4], %rs1;\n  bar.sync 0;\n  ld.shared.b8 %rs2, [%r5];\n"
           "  and.b16 %rs3, %rs2, 1;\n  setp.ne.b16 %p5, %rs3, 0;\n",
    # loaded from global memory
    "ldg": "  bar.sync 0;\n  ld.global.u32 %r7, [%rd5+512];\n  setp.ne.s32 %p5, %r7, 0;\n",
    # computed from registers and the early load (control: no load right before)
    "reg": "  bar.sync 0;\n  and.pred %p5, %p3, %p1;\n",
}
KIND = {
    "red_add_relaxed": "  @%p5 red.global.gpu.relaxed.add.u32 [%rd4], %r1;\n",
    "red_min_cta": "  @%p5 red.global.cta.relaxed.min.s32 [%rd4], %r6;\n",
    "atom_add_acqrel_dead": "  @%p5 atom.global.gpu.acq_rel.add.u32 %r8, [%rd4], 1;\n",
    "atom_max_release_sys": "  @%p5 atom.global.sys.release.max.s32 %r8, [%rd4], %r6;\n",
    "red_add_f32": "  @%p5 red.global.gpu.relaxed.add.f32 [%rd4], 1.0;\n",
}
TAIL = "  bar.sync 0;\n  st.global.u32 [%rd5+1024], %r1;\n  ret;\n}\n"


def row(guard: str, bars: int, kind: str, second: bool = False) -> str:
    t = HEAD + GUARD[guard] + "  bar.sync 0;\n" * bars + KIND[kind]
    if second:                     # a second region on another guard after it (Triton's next element)
        t += KIND[kind].replace("%p5", "%p3").replace("[%rd4]", "[%rd4+4]")
    return t + TAIL


TARGETS = ["sm_80", "sm_90"]


def variations() -> dict[str, str]:
    out = {}
    for guard in GUARD:
        for bars in (0, 1, 2):
            for kind in KIND:
                out[f"{guard}_b{bars}_{kind}"] = row(guard, bars, kind)
        out[f"{guard}_b1_red_add_relaxed_x2"] = row(guard, 1, "red_add_relaxed", second=True)
    return out


if __name__ == "__main__":
    raise SystemExit(run(variations(), TARGETS, frozenset({"BSSY", "BSYNC", "BAR", "LDS", "LDG", "STS"})))
