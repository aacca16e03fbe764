"""A guarded load (`v = i < n ? x[i] : 0`) before a divergent if that uses its value and runs to the kernel's end
(a warp leader's update of shuffled sums, locked or not): is the load if predicated? (docs/findings/async.md
"Guarded cp.async copies: shared joins, group commits and the shared window (helper nvlock34, stop 34)", rule 4.)
Rows: what the leader's if holds (a CAS lock around loads and stores, plain loads and stores, a red or an atom
beside them, the lock alone), with or without the shuffles between, and one whose if does not use the value."""
from __future__ import annotations

from pylower.tools.variations.table import run

HEAD = """.version 8.7
.target {target}
.address_size 64
.visible .entry k(.param .u64 a, .param .u64 b, .param .u64 c, .param .u32 n)
{
 .reg .pred %p<10>; .reg .b32 %r<40>; .reg .b64 %rd<30>; .reg .f32 %f<20>;
 ld.param.u64 %rd1, [a]; ld.param.u64 %rd2, [b]; ld.param.u64 %rd3, [c]; ld.param.u32 %r4, [n];
 mov.u32 %r1, %ntid.x; mov.u32 %r5, %ctaid.x; mov.u32 %r2, %tid.x; mad.lo.s32 %r3, %r5, %r1, %r2;
 mov.f32 %f1, 0f00000000;
 setp.ge.s32 %p1, %r3, %r4; @%p1 bra J;
 mul.wide.s32 %rd4, %r3, 4; add.s64 %rd5, %rd1, %rd4; ld.global.nc.f32 %f1, [%rd5];
J:
 mul.f32 %f2, %f1, %f1;
"""
SHFL = """ mov.b32 %r10, %f1;
 shfl.sync.bfly.b32 %r11, %r10, 16, 31, -1;
 mov.b32 %f3, %r11; add.f32 %f4, %f1, %f3;
 mov.b32 %r12, %f2;
 shfl.sync.bfly.b32 %r13, %r12, 16, 31, -1;
 mov.b32 %f5, %r13; add.f32 %f6, %f2, %f5;
"""
NOSHFL = " add.f32 %f4, %f1, %f1;\n add.f32 %f6, %f2, %f2;\n"
# the shuffles read the thread index, not the loaded value (the if still uses it through %f4/%f6 = f(%f1))
INDSHFL = SHFL.replace("%r11, %r10, 16", "%r11, %r2, 16").replace("%r13, %r12, 16", "%r13, %r2, 8")
IF = " and.b32 %r14, %r2, 31; setp.ne.s32 %p2, %r14, 0; @%p2 bra E;\n"
BODY = {
    "cas_ld_st": """L:
 atom.global.cas.b32 %r20, [%rd3], 0, 1; setp.ne.s32 %p3, %r20, 0; @%p3 bra L;
 membar.gl;
 ld.global.f32 %f7, [%rd2]; add.f32 %f8, %f7, %f4; st.global.f32 [%rd2], %f8;
 ld.global.f32 %f9, [%rd2+4]; add.f32 %f10, %f9, %f6; st.global.f32 [%rd2+4], %f10;
 membar.gl;
 atom.global.exch.b32 %r21, [%rd3], 0;
""",
    "ld_st": """ ld.global.f32 %f7, [%rd2]; add.f32 %f8, %f7, %f4; st.global.f32 [%rd2], %f8;
 ld.global.f32 %f9, [%rd2+4]; add.f32 %f10, %f9, %f6; st.global.f32 [%rd2+4], %f10;
""",
    "red_ld_st": """ red.global.add.f32 [%rd3], %f4;
 ld.global.f32 %f7, [%rd2]; add.f32 %f8, %f7, %f4; st.global.f32 [%rd2], %f8;
""",
    "atom_ld_st": """ atom.global.add.u32 %r20, [%rd3], 1;
 ld.global.f32 %f7, [%rd2]; add.f32 %f8, %f7, %f4; st.global.f32 [%rd2], %f8; st.global.u32 [%rd2+8], %r20;
""",
    "cas_only": """L:
 atom.global.cas.b32 %r20, [%rd3], 0, 1; setp.ne.s32 %p3, %r20, 0; @%p3 bra L;
 st.global.f32 [%rd2], %f4;
 atom.global.exch.b32 %r21, [%rd3], 0;
""",
}
TAIL = "E:\n ret;\n}\n"
# the leader's if uses loaded values of its own only; the shuffled sums are stored after it by every thread
INDEP = BODY["ld_st"].replace("add.f32 %f8, %f7, %f4;", "add.f32 %f8, %f7, %f7;") \
    .replace("add.f32 %f10, %f9, %f6;", "add.f32 %f10, %f9, %f9;")
INDEP_TAIL = "E:\n st.global.f32 [%rd1+64], %f6;\n st.global.f32 [%rd1+68], %f4;\n ret;\n}\n"


def variations() -> dict[str, str]:
    rows = {f"shfl/{k}": HEAD + SHFL + IF + v + TAIL for k, v in BODY.items()}
    rows["noshfl/ld_st"] = HEAD + NOSHFL + IF + BODY["ld_st"] + TAIL
    rows["noshfl/cas_ld_st"] = HEAD + NOSHFL + IF + BODY["cas_ld_st"] + TAIL
    rows["indshfl/ld_st"] = HEAD + INDSHFL + IF + BODY["ld_st"] + TAIL
    rows["shfl/independent_if"] = HEAD + SHFL + IF + INDEP + INDEP_TAIL
    return rows


TARGETS = ["sm_75", "sm_80", "sm_90", "sm_100a", "sm_120"]
KEEP = frozenset({"BSSY", "BSYNC", "SHFL", "ATOMG", "RED", "REDG", "MEMBAR", "WARPSYNC", "VOTEU", "VOTE"})

if __name__ == "__main__":
    raise SystemExit(run(variations(), TARGETS, KEEP))
