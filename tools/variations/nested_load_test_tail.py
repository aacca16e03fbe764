"""An if that loads a value and tests it in an inner if: does it keep its BSSY/BSYNC pair, against the code at its
join (docs/findings/convergence.md "A load-tested nested if keeps its pair unless its join runs straight to the
return (helper nvjoin34, stop 34)"). ptxas copies a join that runs straight to the return (no barrier, fence, warp
op or branch) into both paths and leaves the branch without a pair; any other join keeps the pair."""
from __future__ import annotations

from pylower.tools.variations.table import run

HEAD = """.version 8.7
.target {target}
.address_size 64
.visible .entry k(.param .u64 pp, .param .u64 pq, .param .u32 pn)
{
.reg .pred %p<30>; .reg .b32 %r<100>; .reg .b64 %rd<20>;
.shared .align 4 .b8 tile[4096];
ld.param.u64 %rd1, [pp]; ld.param.u64 %rd2, [pq]; ld.param.u32 %r1, [pn];
mov.u32 %r2, %tid.x; mov.u32 %r3, %ctaid.x; shl.b32 %r4, %r3, 8; add.s32 %r5, %r4, %r2;
mul.wide.s32 %rd3, %r5, 4; add.s64 %rd4, %rd1, %rd3; add.s64 %rd9, %rd2, %rd3;
mul.wide.u32 %rd5, %r2, 4; mov.u64 %rd6, tile; add.s64 %rd7, %rd6, %rd5;
st.shared.b32 [%rd7], %r5;
  bar.sync 0;
  setp.ne.s32 %p2, %r2, 0;
  @%p2 bra J2;
  ld.shared.b32 %r10, [%rd7+-4];
  setp.eq.s32 %p3, %r10, %r5;
  @%p3 bra J2;
  st.shared.b32 [%rd7+1024], %r2;
J2:
{TAIL}
ret;
}
"""


def _if(k: int) -> str:
    """A small if after the join (ptxas predicates it)."""
    return f"setp.eq.s32 %p{10 + k}, %r5, {k}; @%p{10 + k} bra I{k}; st.shared.b32 [%rd7+{2048 + 4 * k}], %r2; I{k}:"


_BAR = "bar.sync 0; ld.shared.b32 %r20, [%rd7+4]; st.global.b32 [%rd9], %r20;"
_ALU3 = "add.s32 %r30, %r2, %r5; mul.lo.s32 %r31, %r30, %r30; xor.b32 %r32, %r31, %r1;"
# the code at the join, before the kernel's `ret`
TAILS = {
    "bar": _BAR,
    "stg_ret": "st.global.b32 [%rd9], %r2;",
    "sts_ret": "st.shared.b32 [%rd7+8], %r2;",
    "alu3_stg_ret": _ALU3 + " st.global.b32 [%rd9], %r32;",
    "stg_bar": "st.global.b32 [%rd9], %r2; " + _BAR.replace("[%rd9]", "[%rd4]"),
    "alu3_bar": _ALU3 + " bar.sync 0; ld.shared.b32 %r20, [%rd7+4]; add.s32 %r33, %r20, %r32; "
                        "st.global.b32 [%rd9], %r33;",
    "sts_bar": "st.shared.b32 [%rd7+8], %r2; " + _BAR,
    "if1_bar": _if(1) + _BAR,
    "if3_bar": _if(1) + _if(2) + _if(3) + _BAR,
    "if1_ret": _if(1),
    "if3_ret": _if(1) + _if(2) + _if(3),
    "if3_stg_ret": _if(1) + _if(2) + _if(3) + "st.global.b32 [%rd9], %r2;",
    "sts4_ret": "st.shared.b32 [%rd7+8], %r2; st.shared.b32 [%rd7+12], %r5; st.shared.b32 [%rd7+16], %r1; "
                "st.shared.b32 [%rd7+20], %r3;",
    "alu40_stg_ret": " ".join(f"add.s32 %r{40 + i}, %r{39 + i if i else 5}, {i + 1};" for i in range(39))
                     + " st.global.b32 [%rd9], %r78;",
    "bar_ret": "bar.sync 0;",
    "membar_stg_ret": "membar.gl; st.global.b32 [%rd9], %r2;",
    "uni_if_ret": "setp.eq.s32 %p20, %r1, 0; @%p20 bra U1; st.global.b32 [%rd9], %r2; U1:",
    "stg_uni_if_ret": "st.global.b32 [%rd4], %r2; setp.eq.s32 %p20, %r1, 0; @%p20 bra U1; "
                      "st.global.b32 [%rd9], %r2; U1:",
    "ldg_stg_ret": "ld.global.b32 %r60, [%rd4]; st.global.b32 [%rd9], %r60;",
    "alu12_stg_ret": " ".join(f"add.s32 %r{40 + i}, %r{39 + i if i else 5}, {i + 1};" for i in range(12))
                     + " st.global.b32 [%rd9], %r51;",
}
TARGETS = ["sm_75", "sm_80", "sm_90", "sm_100a", "sm_120"]


def variations() -> dict[str, str]:
    return {name: HEAD.replace("{TAIL}", tail) for name, tail in TAILS.items()}


if __name__ == "__main__":
    raise SystemExit(run(variations(), TARGETS))
