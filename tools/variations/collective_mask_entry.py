"""A warp collective over the active lanes (or the full mask) in converged code, whose result is the member mask of
a later op (sm_90+): does the later per-thread-mask op make ptxas re-converge the collective (`WARPSYNC.ALL` /
`WARPSYNC R` before it)? Varied: the producer (match.any / ballot over an activemask or -1), what reads its result
as a member mask (redux, shfl.idx, bar.warp.sync; in the same block, after a leader if, inside an if), an earlier
early exit, targets."""
from __future__ import annotations

from pylower.tools.variations.table import run

HEAD = """.version 8.7
.target {target}
.address_size 64
.visible .entry k(.param .u64 pin, .param .u64 pout, .param .u32 n)
{
  .reg .pred %p<16>; .reg .b32 %r<64>; .reg .b64 %rd<32>;
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
  and.b32 %r7, %r2, 31;
"""
GUARD = {"exit": "  setp.ge.s32 %p1, %r6, %r1;\n  @%p1 bra DONE;\n", "none": ""}
LOAD = "  ld.global.nc.u32 %r8, [%rd5];\n  and.b32 %r9, %r8, 127;\n  ld.global.nc.u32 %r10, [%rd5+4096];\n"
PROD = {
    "match_act": "  activemask.b32 %r11;\n  match.any.sync.b32 %r12, %r9, %r11;\n",
    "match_full": "  match.any.sync.b32 %r12, %r9, -1;\n",
    "ballot_act": "  activemask.b32 %r11;\n  setp.gt.u32 %p2, %r9, 40;\n  vote.sync.ballot.b32 %r12, %p2, %r11;\n",
    "ballot_full": "  setp.gt.u32 %p2, %r9, 40;\n  vote.sync.ballot.b32 %r12, %p2, -1;\n",
    # no collective makes the mask: a full-mask shuffle, then a mask loaded from memory
    "bfly_ldmask": "  shfl.sync.bfly.b32 %r17, %r10, 1, 31, -1;\n  add.s32 %r10, %r10, %r17;\n"
                   "  ld.global.nc.u32 %r12, [%rd5+8192];\n",
    # the match's result made per-lane by a store/load round trip (not a collective's result any more)
    "match_ldmask": "  match.any.sync.b32 %r18, %r9, -1;\n  st.global.u32 [%rd6+8192], %r18;\n"
                    "  ld.global.u32 %r12, [%rd6+8192];\n",
}
LEADER = "  brev.b32 %r13, %r12;\n  bfind.shiftamt.u32 %r14, %r13;\n  setp.ne.s32 %p3, %r7, %r14;\n"
ATOM = "  mul.wide.u32 %rd8, %r9, 4;\n  add.s64 %rd9, %rd2, %rd8;\n  popc.b32 %r15, %r12;\n"
USE = {
    # the result's reader in the same block
    "redux": "  redux.sync.add.u32 %r20, %r10, %r12;\n" + LEADER + "  @%p3 bra DONE;\n" + ATOM +
             "  red.global.add.u32 [%rd9], %r20;\n",
    "shfl": "  shfl.sync.idx.b32 %r20, %r10, 0, 31, %r12;\n  st.global.u32 [%rd6], %r20;\n",
    "syncwarp": "  st.global.u32 [%rd6], %r10;\n  bar.warp.sync %r12;\n  ld.global.u32 %r20, [%rd6+4];\n"
                "  st.global.u32 [%rd6+8], %r20;\n",
    # no reader: the leader if only
    "none": LEADER + "  @%p3 bra DONE;\n" + ATOM + "  red.global.add.u32 [%rd9], %r15;\n",
    # the leader's atomic, its result broadcast at the join (z37_check_group_reserve)
    "if_shfl": LEADER + "  mov.u32 %r16, 0;\n  @%p3 bra J;\n" + ATOM + "  atom.global.add.u32 %r16, [%rd9], %r15;\nJ:\n"
               "  shfl.sync.idx.b32 %r20, %r16, %r14, 31, %r12;\n  st.global.u32 [%rd6], %r20;\n",
    # a redux after the leader if
    "if_redux": LEADER + "  @%p3 bra J;\n" + ATOM + "  red.global.add.u32 [%rd9], %r15;\nJ:\n"
                "  redux.sync.add.u32 %r20, %r10, %r12;\n  st.global.u32 [%rd6], %r20;\n",
    # the reader inside an if on the data
    "in_if_shfl": "  setp.lt.u32 %p4, %r10, 9;\n  @%p4 bra DONE;\n  shfl.sync.idx.b32 %r20, %r10, 0, 31, %r12;\n"
                  "  st.global.u32 [%rd6], %r20;\n",
}
# where the full-mask op B (`shfl.bfly -1`, result stored) sits against the per-thread-mask op d (`shfl.idx` over a
# loaded mask) and the branches between them
B = "  shfl.sync.bfly.b32 %r17, %r10, 1, 31, -1;\n  st.global.u32 [%rd6+512], %r17;\n"
D = "  shfl.sync.idx.b32 %r20, %r10, 0, 31, %r12;\n  st.global.u32 [%rd6], %r20;\n"
LDM = "  ld.global.nc.u32 %r12, [%rd5+8192];\n"
IFST = "  setp.lt.u32 %p4, %r8, 9;\n  @%p4 bra J{n};\n  st.global.u32 [%rd6+1024], %r8;\nJ{n}:\n"
UIF = "  setp.lt.u32 %p5, %r1, 9;\n  @%p5 bra J{n};\n  st.global.u32 [%rd6+1024], %r8;\nJ{n}:\n"
# a kept if: a loop with a per-lane trip count inside
KIF = ("  setp.lt.u32 %p4, %r8, 9;\n  @%p4 bra J{n};\n  mov.u32 %r31, 0;\n  mov.u64 %rd20, %rd5;\nLP{n}:\n"
       "  ld.global.u32 %r32, [%rd20+4096];\n  add.s32 %r10, %r10, %r32;\n  add.s64 %rd20, %rd20, 4;\n"
       "  add.s32 %r31, %r31, 1;\n  setp.lt.u32 %p7, %r31, %r32;\n  @%p7 bra LP{n};\nJ{n}:\n")
SHAPES = {
    "B_d": B + D,
    "B_if_d": B + IFST.format(n=1) + D,
    "if_B_d": IFST.format(n=1) + B + D,
    "B_uif_d": B + UIF.format(n=1) + D,
    "uif_B_d": UIF.format(n=1) + B + D,
    "B_exit_d": B + "  setp.lt.u32 %p4, %r8, 9;\n  @%p4 bra DONE;\n" + D,
    "B_d_if_d": B + D + IFST.format(n=1) + D.replace("%rd6]", "%rd6+4]"),
    "B_if_B_d": B + IFST.format(n=1) + B.replace("512", "516") + D,
    "B_bar_if_d": B + "  bar.sync 0;\n" + IFST.format(n=1) + D,
    "B_uloop_d": B + "  mov.u32 %r30, 0;\nUL:\n" + D.replace("%rd6]", "%rd6+4]") +
                 "  add.s32 %r30, %r30, 1;\n  setp.lt.s32 %p6, %r30, %r1;\n  @%p6 bra UL;\n",
    # the if / exit on the thread index instead of loaded data
    "tif_B_d": IFST.format(n=1).replace("%r8, 9", "%r2, 9") + B + D,
    "B_tif_d": B + IFST.format(n=1).replace("%r8, 9", "%r2, 9") + D,
    "B_texit_d": B + "  setp.lt.u32 %p4, %r2, 9;\n  @%p4 bra DONE;\n" + D,
    "exit_B_d": "  setp.lt.u32 %p4, %r8, 9;\n  @%p4 bra DONE;\n" + B + D,
    "texit_B_d": "  setp.lt.u32 %p4, %r2, 9;\n  @%p4 bra DONE;\n" + B + D,
    # two per-thread ops after an if (kept / predicated), with and without a full-mask op before it
    "if_d_d": IFST.format(n=1) + D + D.replace("0, 31", "1, 31").replace("%rd6]", "%rd6+4]"),
    "kif_d_d": KIF.format(n=1) + D + D.replace("0, 31", "1, 31").replace("%rd6]", "%rd6+4]"),
    "B_kif_d_d": B + KIF.format(n=1) + D + D.replace("0, 31", "1, 31").replace("%rd6]", "%rd6+4]"),
    "B_kif_d": B + KIF.format(n=1) + D,
    "kif_B_d": KIF.format(n=1) + B + D,
    "B_if_d_d": B + IFST.format(n=1) + D + D.replace("0, 31", "1, 31").replace("%rd6]", "%rd6+4]"),
}
TARGETS = ["sm_90", "sm_100a"]
KEEP = frozenset({"WARPSYNC", "BSSY", "BSYNC", "MATCH", "VOTE", "REDUX", "SHFL", "BAR"})
MODS = frozenset({"ALL", "EXCLUSIVE"})


def variations() -> dict[str, str]:
    out = {}
    for g, gt in GUARD.items():
        for p, pt in PROD.items():
            for u, ut in USE.items():
                out[f"{g}_{p}_{u}"] = HEAD + gt + LOAD + pt + ut + "DONE:\n  ret;\n}\n"
        for sh, st in SHAPES.items():
            out[f"{g}_shape_{sh}"] = HEAD + gt + LOAD + LDM + st + "DONE:\n  ret;\n}\n"
    return out


if __name__ == "__main__":
    raise SystemExit(run(variations(), TARGETS, KEEP, mods=MODS))
