"""A run of full-mask shuffles that takes the out-of-line collective slow path (sm_90+): when is its first
collective in a BSSY/BSYNC pair of its own? Varied: how the run is reached diverged (after an early exit,
inside an if), what the code before the run does (loads only, a store, a loop with a store), targets."""
from __future__ import annotations

from pylower.tools.variations.table import run

HEAD = """.version 8.7
.target {target}
.address_size 64
.visible .entry k(.param .u64 pin, .param .u64 pout, .param .u32 n)
{
  .reg .pred %p<16>; .reg .b32 %r<64>; .reg .f32 %f<32>; .reg .b64 %rd<32>;
  ld.param.u64 %rd1, [pin];
  ld.param.u64 %rd2, [pout];
  ld.param.u32 %r1, [n];
  cvta.to.global.u64 %rd1, %rd1;
  cvta.to.global.u64 %rd2, %rd2;
  mov.u32 %r2, %tid.x;
  mov.u32 %r4, %ctaid.x;
  mov.u32 %r5, %ntid.x;
  mad.lo.s32 %r6, %r4, %r5, %r2;
  mul.wide.s32 %rd4, %r6, 4;
  add.s64 %rd5, %rd1, %rd4;
  add.s64 %rd6, %rd2, %rd4;
"""
RUN0 = ("  ld.global.f32 %f20, [%rd5+128];\n  mov.b32 %r20, %f20;\n  shfl.sync.bfly.b32 %r21, %r20, 16, 31, -1;\n"
        "  shfl.sync.bfly.b32 %r22, %r21, 8, 31, -1;\n  st.global.u32 [%rd6+128], %r22;\n")
RUN0_DOWN = ("  ld.global.f32 %f20, [%rd5+128];\n  mov.b32 %r20, %f20;\n  shfl.sync.down.b32 %r21, %r20, 16, 31, -1;\n"
             "  shfl.sync.down.b32 %r22, %r21, 8, 31, -1;\n  st.global.u32 [%rd6+128], %r22;\n")
RUN0_BALLOT = ("  ld.global.f32 %f20, [%rd5+128];\n  setp.gt.f32 %p8, %f20, 0f00000000;\n"
               "  vote.sync.ballot.b32 %r21, %p8, -1;\n  setp.lt.f32 %p9, %f20, 0f3F800000;\n"
               "  vote.sync.ballot.b32 %r22, %p9, -1;\n  xor.b32 %r22, %r22, %r21;\n  st.global.u32 [%rd6+128], %r22;\n")
RUN1 = ("  ld.global.f32 %f20, [%rd5+128];\n  mov.b32 %r20, %f20;\n  shfl.sync.bfly.b32 %r21, %r20, 16, 31, -1;\n"
        "  st.global.u32 [%rd6+128], %r21;\n")
GUARD_OPEN = {"exit": "  setp.ge.s32 %p1, %r6, %r1;\n  @%p1 ret;\n",
              "if": "  setp.ge.s32 %p1, %r6, %r1;\n  @%p1 bra DONE;\n",
              # an if with work at its join, then an early exit before the run
              "if_exit": "  setp.ge.s32 %p1, %r6, %r1;\n  @%p1 bra J0;\n  st.global.f32 [%rd6], 0f3F800000;\nJ0:\n"
                         "  st.global.f32 [%rd2+4], 0f3F800000;\n  setp.ge.s32 %p2, %r2, %r1;\n  @%p2 ret;\n",
              # an if holding a run of its own (its slow path), then an early exit before the run
              "ifrun_exit": "  setp.ge.s32 %p1, %r6, %r1;\n  @%p1 bra J0;\n" + RUN0 + "J0:\n"
                            "  setp.ge.s32 %p2, %r2, %r1;\n  @%p2 ret;\n",
              "ifrun_if": "  setp.ge.s32 %p1, %r6, %r1;\n  @%p1 bra J0;\n" + RUN0 + "J0:\n"
                          "  setp.ge.s32 %p2, %r2, %r1;\n  @%p2 bra DONE;\n",
              # a CTA barrier between the first if and the exit
              "ifrun_bar_exit": "  setp.ge.s32 %p1, %r6, %r1;\n  @%p1 bra J0;\n" + RUN0 + "J0:\n  bar.sync 0;\n"
                                "  setp.ge.s32 %p2, %r2, %r1;\n  @%p2 ret;\n",
              # the earlier run after the later one's block: in a sibling arm (if/else)
              "ifelse": "  setp.ge.s32 %p1, %r6, %r1;\n  @%p1 bra ELSE;\n" + RUN0 + "  bra.uni J0;\nELSE:\n",
              # one ballot (its kind's only op: inline WARPSYNC.ALL) in the first if
              "ifvote1_exit": "  setp.ge.s32 %p1, %r6, %r1;\n  @%p1 bra J0;\n" + RUN0_BALLOT.split("  setp.lt")[0]
                              + "  st.global.u32 [%rd6+128], %r21;\nJ0:\n  setp.ge.s32 %p2, %r2, %r1;\n  @%p2 ret;\n",
              # the run in a loop after an early exit: uniform trip count (param) or per-lane (tid-based)
              "exit_uloop": "  setp.ge.s32 %p2, %r2, %r1;\n  @%p2 ret;\n  mov.u32 %r30, 0;\nLOOP:\n",
              "exit_dloop": "  setp.ge.s32 %p2, %r2, %r1;\n  @%p2 ret;\n  mov.u32 %r30, %r2;\nLOOP:\n",
              "ifdown_exit": "  setp.ge.s32 %p1, %r6, %r1;\n  @%p1 bra J0;\n" + RUN0_DOWN + "J0:\n"
                             "  setp.ge.s32 %p2, %r2, %r1;\n  @%p2 ret;\n",
              "ifballot_exit": "  setp.ge.s32 %p1, %r6, %r1;\n  @%p1 bra J0;\n" + RUN0_BALLOT + "J0:\n"
                               "  setp.ge.s32 %p2, %r2, %r1;\n  @%p2 ret;\n",
              # two earlier ifs with runs: is the third run paired too (the second is)?
              "ifrun2_exit": "  setp.ge.s32 %p1, %r6, %r1;\n  @%p1 bra J0;\n" + RUN0 + "J0:\n"
                             "  setp.ge.s32 %p3, %r4, %r1;\n  @%p3 bra J1;\n" + RUN0.replace("+128", "+256") + "J1:\n"
                             "  setp.ge.s32 %p2, %r2, %r1;\n  @%p2 ret;\n",
              # the same with one shuffle in the first if (a lone op: WARPSYNC.ALL)
              "if1_exit": "  setp.ge.s32 %p1, %r6, %r1;\n  @%p1 bra J0;\n" + RUN1 + "J0:\n"
                          "  setp.ge.s32 %p2, %r2, %r1;\n  @%p2 ret;\n",
              # an if with a loop-free region before, the run in a second if
              "if_if": "  setp.ge.s32 %p1, %r6, %r1;\n  @%p1 bra J0;\n  st.global.f32 [%rd6], 0f3F800000;\nJ0:\n"
                       "  setp.ge.s32 %p2, %r2, %r1;\n  @%p2 bra DONE;\n"}
PRE = {
    "ld": "  ld.global.f32 %f1, [%rd5];\n",
    "ld_st": "  ld.global.f32 %f1, [%rd5];\n  st.global.f32 [%rd6], %f1;\n",
    "#ld_st_other": "  ld.global.f32 %f1, [%rd5];\n  add.f32 %f2, %f1, %f1;\n  st.global.f32 [%rd6], %f2;\n",
    "#ld_red": "  ld.global.f32 %f1, [%rd5];\n  red.global.add.f32 [%rd2], %f1;\n",
    "#st_first": "  st.global.f32 [%rd6], 0f00000000;\n  ld.global.f32 %f1, [%rd5];\n",
}
RUN = {
    "bfly2": "  mov.b32 %r10, %f1;\n  shfl.sync.bfly.b32 %r11, %r10, 16, 31, -1;\n  mov.b32 %f3, %r11;\n"
             "  add.f32 %f4, %f1, %f3;\n  mov.b32 %r12, %f4;\n  shfl.sync.bfly.b32 %r13, %r12, 8, 31, -1;\n"
             "  mov.b32 %f5, %r13;\n  add.f32 %f6, %f4, %f5;\n",
}
TAIL = "  st.global.f32 [%rd2], %f6;\n"
GUARD_CLOSE = {"exit": "", "if": "DONE:\n  st.global.f32 [%rd2+8], 0f3F800000;\n", "if_exit": "", "ifvote1_exit": "",
               "exit_uloop": "  add.s32 %r30, %r30, 1;\n  setp.lt.s32 %p5, %r30, %r1;\n  @%p5 bra LOOP;\n",
               "exit_dloop": "  add.s32 %r30, %r30, 32;\n  setp.lt.s32 %p5, %r30, %r1;\n  @%p5 bra LOOP;\n", "ifrun_exit": "", "ifrun_bar_exit": "", "ifelse": "J0:\n", "ifdown_exit": "", "ifballot_exit": "", "ifrun2_exit": "", "if1_exit": "",
               "ifrun_if": "DONE:\n  st.global.f32 [%rd2+8], 0f3F800000;\n",
               "if_if": "DONE:\n  st.global.f32 [%rd2+8], 0f3F800000;\n"}
TARGETS = ["sm_90", "sm_100a"]


def variations() -> dict[str, str]:
    out = {}
    for g in GUARD_OPEN:
        for pre, pre_text in PRE.items():
            if pre.startswith("#"):
                continue
            for r, r_text in RUN.items():
                out[f"{g}_{pre}_{r}"] = HEAD + GUARD_OPEN[g] + pre_text + r_text + TAIL + GUARD_CLOSE[g] + \
                    "  ret;\n}\n"
    return out


if __name__ == "__main__":
    raise SystemExit(run(variations(), TARGETS))
