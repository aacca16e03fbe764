"""Where ptxas issues the BSSY of a guarded atomic's region in a block that starts with a CTA barrier (Triton's
`bar.sync; setp tid == 0; @p atom; @p st.shared; bar.sync; ld.shared` ticket / work-queue form): by where the
guard is computed, the atomic's kind and order, whether its result is used, and whether the block is the entry
(docs/findings/atomic.md "A ticket atomic's BSSY above the barrier that starts its block (helper tatom36, stop 36)")."""
from __future__ import annotations

from pylower.tools.variations.table import run

HEAD = """.version 8.7
.target {target}
.address_size 64
.shared .align 16 .b8 smem[16];
.visible .entry k(.param .u64 p0, .param .u64 p1, .param .u32 n)
{
  .reg .pred %p<8>; .reg .b32 %r<64>; .reg .b64 %rd<16>;
  ld.param.u64 %rd1, [p0];
  ld.param.u64 %rd2, [p1];
  ld.param.u32 %r2, [n];
"""
GUARD = {
    "lane0": "  mov.u32 %r7, %tid.x;\n  and.b32 %r8, %r7, 31;\n  shr.u32 %r9, %r7, 5;\n  or.b32 %r1, %r8, %r9;\n"
             "  setp.eq.b32 %p2, %r1, 0;\n",
    "tid0": "  mov.u32 %r7, %tid.x;\n  setp.eq.b32 %p2, %r7, 0;\n",
    "ltn": "  mov.u32 %r7, %tid.x;\n  setp.lt.u32 %p2, %r7, %r2;\n",
}
ATOM = {
    "add_relaxed": "  mov.u32 %r4, 0;\n  @%p2 atom.global.gpu.relaxed.add.u32 %r4, [%rd1], 1;\n",
    "add_acqrel": "  mov.u32 %r4, 0;\n  @%p2 atom.global.gpu.acq_rel.add.u32 %r4, [%rd1], 1;\n",
    "add_acquire": "  mov.u32 %r4, 0;\n  @%p2 atom.global.gpu.acquire.add.u32 %r4, [%rd1], 1;\n",
    "cas_relaxed": "  mov.u32 %r4, 0;\n  @%p2 atom.global.gpu.relaxed.cas.b32 %r4, [%rd1], 0, 1;\n",
    "exch_acqrel": "  mov.u32 %r4, 0;\n  @%p2 atom.global.gpu.acq_rel.exch.b32 %r4, [%rd1], 1;\n",
    "add_cta": "  mov.u32 %r4, 0;\n  @%p2 atom.global.cta.relaxed.add.u32 %r4, [%rd1], 1;\n",
    "red_relaxed": "  @%p2 red.global.gpu.relaxed.add.u32 [%rd1], 1;\n  mov.u32 %r4, %r2;\n",
}
USE = {
    "smem": "  mov.u32 %r6, smem;\n  @%p2 st.shared.b32 [%r6], %r4;\n  bar.sync 0;\n  ld.shared.b32 %r5, [smem];\n",
    "stg": "  @%p2 st.global.b32 [%rd2+4], %r4;\n  mov.u32 %r5, %r2;\n",
}
TAIL = "  mul.wide.u32 %rd5, %r7, 4;\n  add.s64 %rd6, %rd2, %rd5;\n  st.global.b32 [%rd6], %r5;\n  ret;\n}\n"


def row(guard: str, atom: str, use: str, order: str, loop: bool = False) -> str:
    """order: 'bar_guard' (bar.sync, then the guard), 'guard_bar' (the guard, then bar.sync), 'none' (no
    barrier); loop: the block is the body of a loop (entered from the entry block by a back edge)."""
    g, a = GUARD[guard], ATOM[atom]
    pre = {"bar_guard": "  bar.sync 0;\n" + g, "guard_bar": g + "  bar.sync 0;\n", "none": g}[order]
    if loop:
        return (HEAD + "  mov.u32 %r20, 0;\nL1:\n" + pre + a + USE[use]
                + "  add.s32 %r20, %r20, %r5;\n  setp.lt.u32 %p3, %r20, %r2;\n  @%p3 bra L1;\n"
                + "  mov.u32 %r5, %r20;\n" + TAIL)
    return HEAD + pre + a + USE[use] + TAIL


TARGETS = ["sm_80", "sm_90"]


def variations() -> dict[str, str]:
    out = {}
    for atom in ATOM:
        for order in ("bar_guard", "guard_bar"):
            out[f"lane0_{atom}_smem_{order}"] = row("lane0", atom, "smem", order)
    for guard in ("tid0", "ltn"):
        for order in ("bar_guard", "guard_bar"):
            out[f"{guard}_add_acqrel_smem_{order}"] = row(guard, "add_acqrel", "smem", order)
            out[f"{guard}_add_relaxed_smem_{order}"] = row(guard, "add_relaxed", "smem", order)
    for atom in ("add_relaxed", "add_acqrel"):
        out[f"lane0_{atom}_stg_bar_guard"] = row("lane0", atom, "stg", "bar_guard")
        out[f"lane0_{atom}_smem_none"] = row("lane0", atom, "smem", "none")
        out[f"loop_lane0_{atom}_smem_bar_guard"] = row("lane0", atom, "smem", "bar_guard", loop=True)
    return out


if __name__ == "__main__":
    raise SystemExit(run(variations(), TARGETS, frozenset({"BSSY", "BSYNC", "BAR", "MEMBAR", "BMOV"})))
