"""Where ptxas issues the BSSY of a guarded atomic's region (`@p atom`, Triton's inline-asm form) after a warp
reduction, in a loop's exit block against a straight block (docs/findings/scheduling.md "The BSSY of a guarded
atomic after a loop's reduction (helper tconv34, stop 34)")."""
from __future__ import annotations

from pylower.tools.variations.table import run

HEAD = """.version 8.7
.target {target}
.address_size 64
.visible .entry k(.param .u64 p0, .param .u64 p1, .param .u32 n)
{
  .reg .pred %p<8>; .reg .b32 %r<64>; .reg .f32 %f<64>; .reg .b64 %rd<16>;
  .shared .align 4 .b8 sm[128];
  mov.u32 %r1, %tid.x;
  ld.param.u64 %rd1, [p0];
  ld.param.u64 %rd2, [p1];
  ld.param.u32 %r2, [n];
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd1, %rd3;
  mov.u32 %r40, sm;
  shr.u32 %r41, %r1, 3;
  and.b32 %r42, %r41, 12;
  add.s32 %r43, %r40, %r42;
  shl.b32 %r44, %r1, 2;
  and.b32 %r45, %r44, 12;
  add.s32 %r46, %r40, %r45;
  setp.eq.s32 %p1, %r1, 0;
"""
# the value reduced (%f10): accumulated by a loop (its exit block holds the reduction), or loaded in the block
SHAPES = {
    "loop": """  mov.f32 %f10, 0f00000000;
  mov.u32 %r3, 0;
L1:
  mul.wide.u32 %rd5, %r3, 512;
  add.s64 %rd6, %rd4, %rd5;
  ld.global.f32 %f1, [%rd6];
  abs.f32 %f2, %f1;
  max.f32 %f10, %f10, %f2;
  add.s32 %r3, %r3, 1;
  setp.lt.u32 %p2, %r3, %r2;
  @%p2 bra L1;
""",
    "straight": """  ld.global.f32 %f1, [%rd4];
  abs.f32 %f10, %f1;
""",
}
# the loop, then one more load in its exit block
SHAPES["loop_ldg"] = SHAPES["loop"] + """  ld.global.f32 %f3, [%rd4+4];
  max.f32 %f10, %f10, %f3;
"""


def chain(k: int, src: str, tag: str) -> tuple[str, str]:
    out, cur = [], src
    for j in range(k):
        out.append(f"  mov.b32 %r{50 + j}, {cur};\n  shfl.sync.bfly.b32 %r{56 + j}, %r{50 + j}, {16 >> j}, 31, -1;\n"
                   f"  mov.b32 %f{20 + j + (10 if tag == 'b' else 0)}, %r{56 + j};\n"
                   f"  max.f32 %f{40 + j + (10 if tag == 'b' else 0)}, {cur}, %f{20 + j + (10 if tag == 'b' else 0)};\n")
        cur = f"%f{40 + j + (10 if tag == 'b' else 0)}"
    return "".join(out), cur


def reduction(kind: str) -> tuple[str, str]:
    text, v = chain(5 if kind != "s1" else 1, "%f10", "a")
    if kind == "s5x":
        text += f"  st.shared.f32 [%r43], {v};\n  bar.sync 0;\n  ld.shared.f32 %f11, [%r46];\n"
        t2, v = chain(2, "%f11", "b")
        text += t2.replace("16, 31", "2, 31").replace("8, 31", "1, 31") + "  bar.sync 0;\n"
    return text, v


def atomic(op: str, test: str, v: str) -> str:
    pre = "  mov.b32 %r30, " + v + ";\n"
    if test == "tid":
        pre += "  mov.pred %p3, %p1;\n"
    else:
        pre += "  setp.gt.s32 %p4, %r30, -1;\n  and.pred %p3, %p1, %p4;\n"
    body = {"acqmax": "@%p3 atom.global.gpu.acq_rel.max.s32 %r31, [%rd2], %r30;",
            "addf": "@%p3 atom.global.gpu.acq_rel.add.f32 %f60, [%rd2], " + v + ";"}[op]
    return pre + "  " + body + "\n  bar.sync 0;\n  st.global.f32 [%rd4], %f10;\n  ret;\n}\n"


TARGETS = ["sm_80", "sm_90"]


def variations() -> dict[str, str]:
    out = {}
    for shape, text in SHAPES.items():
        for red in ("s1", "s5", "s5x"):
            for test in ("tid", "val"):
                for op in ("acqmax", "addf"):
                    r, v = reduction(red)
                    out[f"{shape}_{red}_{test}_{op}"] = HEAD + text + r + atomic(op, test, v)
    return out


if __name__ == "__main__":
    raise SystemExit(run(variations(), TARGETS))
