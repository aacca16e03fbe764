"""A guarded load if in a loop whose join starts with a warp collective (`for (..) { p = false; if (j < n) p =
a[j] == key; b = ballot(p); if (b) break; }`): when does ptxas keep the if's pair before the collective
(docs/findings/warp.md "A loop that leaves on a collective's result keeps the pair of the if before it (helper
nvcoll37, stop 37)")."""
from __future__ import annotations

from pylower.tools.variations.table import run

HEAD = """.version 9.0
.target {target}
.address_size 64
.visible .entry k(.param .u64 pa, .param .u64 po, .param .u32 pn, .param .u32 pk)
{
  .reg .pred %p<20>; .reg .b32 %r<60>; .reg .b64 %rd<20>;
  ld.param.u64 %rd1, [pa]; ld.param.u64 %rd2, [po]; ld.param.u32 %r1, [pn]; ld.param.u32 %r2, [pk];
  mov.u32 %r3, %tid.x; and.b32 %r4, %r3, 31;
  cvta.to.global.u64 %rd3, %rd1;
  mul.wide.u32 %rd4, %r4, 4; add.s64 %rd5, %rd3, %rd4;
  mov.u32 %r10, 0;
  mov.u32 %r11, -1;
  mov.u32 %r30, 0;
"""
HEAD_LOOP = "L:\n"
# the guarded if: the loaded value compared inside (a predicate merged at the join)
IF_LDCMP = """  add.s32 %r12, %r10, %r4;
  setp.ge.s32 %p1, %r12, %r1;
  mov.pred %p2, 0;
  @%p1 bra J;
  ld.global.u32 %r13, [%rd5];
  setp.eq.s32 %p2, %r13, %r2;
J:
"""
# the loaded value merged at the join (a default before the branch), compared after it
IF_LD = """  add.s32 %r12, %r10, %r4;
  setp.ge.s32 %p1, %r12, %r1;
  mov.u32 %r13, 0;
  @%p1 bra J;
  ld.global.u32 %r13, [%rd5];
J:
  setp.eq.s32 %p2, %r13, %r2;
"""
# two loads in the if
IF_LD2 = """  add.s32 %r12, %r10, %r4;
  setp.ge.s32 %p1, %r12, %r1;
  mov.pred %p2, 0;
  @%p1 bra J;
  ld.global.u32 %r13, [%rd5];
  ld.global.u32 %r14, [%rd5+4096];
  add.s32 %r13, %r13, %r14;
  setp.eq.s32 %p2, %r13, %r2;
J:
"""
# no load: arithmetic only
IF_ALU = """  add.s32 %r12, %r10, %r4;
  setp.ge.s32 %p1, %r12, %r1;
  mov.pred %p2, 0;
  @%p1 bra J;
  mul.lo.s32 %r13, %r12, %r12;
  xor.b32 %r13, %r13, %r12;
  setp.eq.s32 %p2, %r13, %r2;
J:
"""
# the collective and what the loop does with its result
OP = {
    "ballot": """  vote.sync.ballot.b32 %r15, %p2, -1;
  setp.ne.s32 %p3, %r15, 0;
""",
    "any": """  vote.sync.any.pred %p3, %p2, -1;
  selp.u32 %r15, 1, 0, %p3;
""",
    "all": """  vote.sync.all.pred %p3, %p2, -1;
  selp.u32 %r15, 1, 0, %p3;
""",
    "bfly": """  selp.u32 %r16, 1, 0, %p2;
  shfl.sync.bfly.b32 %r17, %r16, 16, 31, -1;
  or.b32 %r16, %r16, %r17;
  shfl.sync.bfly.b32 %r17, %r16, 8, 31, -1;
  or.b32 %r15, %r16, %r17;
  setp.ne.s32 %p3, %r15, 0;
""",
}
# the loop leaves on the collective's result (brk), keeps going (none: the result accumulates), or leaves on a
# per-lane test of the loaded value (lane)
TAIL = {
    "brk": """  @%p3 bra F;
  add.s32 %r30, %r30, %r15;
""",
    "none": """  add.s32 %r30, %r30, %r15;
""",
    "brk_after": """  add.s32 %r30, %r30, %r15;
  setp.gt.u32 %p6, %r30, 100;
  @%p6 bra F;
""",
}
LATCH = """  add.s32 %r10, %r10, 32; add.s64 %rd5, %rd5, 128;
  setp.lt.s32 %p4, %r10, %r1;
  @%p4 bra L;
  bra.uni E;
F:
  add.s32 %r11, %r10, %r30;
E:
"""
STRAIGHT = """  @%p3 bra F;
  add.s32 %r30, %r30, %r15;
  bra.uni E;
F:
  add.s32 %r11, %r10, %r30;
E:
"""
END = """  setp.ne.s32 %p5, %r4, 0;
  @%p5 bra R;
  add.s32 %r11, %r11, %r30;
  st.global.u32 [%rd2], %r11;
R:
  ret;
}
"""
IFS = {"ldcmp": IF_LDCMP, "ld": IF_LD, "ld2": IF_LD2, "alu": IF_ALU}
TARGETS = ["sm_75", "sm_80", "sm_90", "sm_100a"]


def variations() -> dict[str, str]:
    rows = {}
    for ifn, ifs in IFS.items():
        for op, opt in OP.items():
            for tail, tt in TAIL.items():
                rows[f"loop_{ifn}_{op}_{tail}"] = HEAD + HEAD_LOOP + ifs + opt + tt + LATCH + END
            rows[f"straight_{ifn}_{op}"] = HEAD + ifs + opt + STRAIGHT + END
    return rows


if __name__ == "__main__":
    raise SystemExit(run(variations(), TARGETS, frozenset({"BSSY", "BSYNC", "VOTE", "VOTEU", "SHFL", "WARPSYNC",
                                                           "BMOV"})))
