"""Where ptxas issues the BSSY of a guarded region that follows another guarded region and the CTA barriers after
its join, by where the second region's guard compare is made (Triton's `setp.lt; setp.gt; bar; @p atom; bar; bar;
@q atom`: both compares before the first region), how many barriers follow the join, what the guard tests (a
reduced value, the thread index), what the regions hold, and the target
(docs/findings/convergence.md "The guard compare of the next region sinks below the join's barriers (helper
tbssy39, stop 39)")."""
from __future__ import annotations

from pylower.tools.variations.table import run

HEAD = """.version 8.7
.target {target}
.address_size 64
.shared .align 16 .b8 smem[64];
.visible .entry k(.param .u64 p0, .param .u64 p1, .param .u32 n)
{
  .reg .pred %p<16>; .reg .b32 %r<64>; .reg .b64 %rd<16>;
  ld.param.u64 %rd1, [p0];
  ld.param.u64 %rd2, [p1];
  ld.param.u32 %r2, [n];
  mov.u32 %r7, %tid.x;
  setp.eq.s32 %p1, %r7, 0;
  mul.wide.u32 %rd5, %r7, 4;
  add.s64 %rd6, %rd2, %rd5;
  ld.global.b32 %r10, [%rd6];
"""
# the value the guards test: a warp max of a loaded value (Triton's reduction) or the thread index
VALUE = {
    "red": "  shfl.sync.bfly.b32 %r11, %r10, 16, 31, -1;\n  max.s32 %r12, %r10, %r11;\n"
           "  shfl.sync.bfly.b32 %r13, %r12, 8, 31, -1;\n  max.s32 %r16, %r12, %r13;\n",
    "load": "  mov.u32 %r16, %r10;\n",
    "tid": "  add.s32 %r16, %r7, -64;\n",
    # Triton's cross-warp step: the warp results through shared memory, a barrier, read back
    "smem": "  shfl.sync.bfly.b32 %r11, %r10, 16, 31, -1;\n  max.s32 %r12, %r10, %r11;\n"
            "  shr.u32 %r14, %r7, 5;\n  shl.b32 %r15, %r14, 2;\n  mov.u32 %r17, smem;\n  add.s32 %r18, %r17, %r15;\n"
            "  st.shared.b32 [%r18], %r12;\n  bar.sync 0;\n  and.b32 %r19, %r7, 3;\n  shl.b32 %r20, %r19, 2;\n"
            "  add.s32 %r21, %r17, %r20;\n  ld.shared.b32 %r22, [%r21];\n"
            "  shfl.sync.bfly.b32 %r23, %r22, 1, 31, -1;\n  max.s32 %r16, %r22, %r23;\n",
}
REGION = {
    "atom": "  @{p} atom.global.gpu.acq_rel.{op}.s32 %r{d}, [%rd1], %r16;\n",
    "red": "  @{p} red.global.gpu.relaxed.{op}.s32 [%rd1], %r16;\n",
    "st": "  @{p} st.global.b32 [%rd1+{o}], %r16;\n",
    # a plain if: a branch around an atomic and a store
    "if": "  @!{p} bra S{d};\n  atom.global.gpu.relaxed.{op}.s32 %r{d}, [%rd1], %r16;\n"
          "  st.global.b32 [%rd1+{o}], %r{d};\nS{d}:\n",
}


def region(kind: str, p: str, op: str, d: int) -> str:
    return REGION[kind].format(p=p, op=op, d=d, o=4 * d)


def row(value: str, nbar: int, where: str, kind: str, kind2: str | None = None, loop: bool = False) -> str:
    """where: 'early' (both compares before the first region, Triton's order), 'late' (the second compare after
    the barriers), 'same' (the second region under the first region's guard)."""
    kind2 = kind2 or kind
    c1 = "  setp.gt.s32 %p3, %r16, -1;\n  and.pred %p5, %p1, %p3;\n"
    c2 = "  setp.lt.s32 %p4, %r16, 0;\n  and.pred %p6, %p1, %p4;\n"
    s = HEAD + ("  mov.u32 %r30, 0;\nL1:\n" if loop else "") + VALUE[value]
    s += (c2 + c1) if where == "early" else c1
    s += "  bar.sync 0;\n" + region(kind, "%p5", "max", 20)
    s += "  bar.sync 0;\n" * nbar
    if where == "late":
        s += c2
    s += region(kind2, "%p5" if where == "same" else "%p6", "min", 21)
    s += "  bar.sync 0;\n"
    if loop:
        s += "  add.s32 %r30, %r30, 1;\n  setp.lt.u32 %p9, %r30, %r2;\n  @%p9 bra L1;\n"
    s += "  st.global.b32 [%rd6], %r7;\n  ret;\n}\n"
    return s


TARGETS = ["sm_80", "sm_90", "sm_100a", "sm_120"]


def variations() -> dict[str, str]:
    out = {}
    for value in VALUE:
        for nbar in (0, 1, 2, 3):
            for where in ("early", "late", "same"):
                out[f"{value}_bar{nbar}_{where}_atom"] = row(value, nbar, where, "atom")
    for value in ("red", "smem", "tid"):
        for nbar in (1, 2, 3):
            for where in ("early", "late"):
                out[f"loop_{value}_bar{nbar}_{where}_atom"] = row(value, nbar, where, "atom", loop=True)
    for kind in ("red", "if"):
        for nbar in (1, 2):
            out[f"loop_red_bar{nbar}_early_{kind}"] = row("red", nbar, "early", kind, loop=True)
            out[f"red_bar{nbar}_early_{kind}x"] = row("red", nbar, "early", kind)
    for nbar in (1, 2, 3):
        for where in ("early", "late", "same"):
            out[f"smem_bar{nbar}_{where}_atom"] = row("smem", nbar, where, "atom")
    for kind in ("red", "st"):
        for nbar in (1, 2):
            for where in ("early", "late"):
                out[f"red_bar{nbar}_{where}_{kind}"] = row("red", nbar, where, kind)
    return out


if __name__ == "__main__":
    raise SystemExit(run(variations(), TARGETS, frozenset({"BSSY", "BSYNC", "BAR", "BMOV", "WARPSYNC"})))
