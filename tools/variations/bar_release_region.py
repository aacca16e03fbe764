"""Where ptxas issues the BSSY of a guarded atomic's region (`@p red`, Triton's masked form) that follows a run of
CTA barriers at a join, by how many predicates are live across the join (K guards `tid + 64k < n`, each used by a
region before and after the barriers) and what PTX work lies between the barriers; and, not at a join, by what
comes before the barriers (docs/findings/atomic.md "The BSSY after a join's barriers when the guards do not fit in
P registers (helper tatom35, stop 35)")."""
from __future__ import annotations

from pylower.tools.variations.table import run

HEAD = """.version 8.7
.target {target}
.address_size 64
.visible .entry k(.param .u64 p0, .param .u32 n)
{
  .reg .pred %p<20>; .reg .b32 %r<64>; .reg .b64 %rd<16>;
  mov.u32 %r1, %tid.x;
  ld.param.u64 %rd1, [p0];
  ld.param.u32 %r2, [n];
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd1, %rd3;
"""
# PTX work between the barriers: none, a dependent index chain whose result the tail stores, independent selects
# whose results the tail stores, 64-bit pointer adds the regions after use
BETWEEN = {
    "none": ("", "%r1"),
    "chain": ("  shr.u32 %r40, %r1, 3;\n  and.b32 %r41, %r40, 12;\n  add.s32 %r42, %r41, %r2;\n"
              "  xor.b32 %r43, %r42, 7;\n", "%r43"),
    "selp": ("  selp.b32 %r40, %r1, %r2, %p1;\n  selp.b32 %r41, %r2, %r1, %p2;\n", "%r40"),
    "ptradd": ("  add.s64 %rd5, %rd4, 4096;\n  add.s64 %rd6, %rd4, 4352;\n", "%r1"),
    "chainaddr": ("  shr.u32 %r40, %r1, 3;\n  and.b32 %r41, %r40, 12;\n  add.s32 %r42, %r41, %r2;\n"
                  "  mul.wide.u32 %rd7, %r42, 4;\n  add.s64 %rd5, %rd1, %rd7;\n", "%r1"),
}
# the regions after the barriers that read the work's address (else [%rd4+off])
ADDRESS = {"ptradd": {0: "%rd5", 1: "%rd6"}, "chainaddr": {0: "%rd5"}}
TAIL = "  bar.sync 0;\n  st.global.b32 [%rd4+8192], {v};\n  ret;\n}}\n"


def pressure(K: int, bars: int, between: str) -> str:
    t = HEAD
    for k in range(K):
        t += f"  add.s32 %r{10 + k}, %r1, {64 * k};\n  setp.lt.u32 %p{k + 1}, %r{10 + k}, %r2;\n"
    for k in range(K):
        t += f"  @%p{k + 1} red.global.cta.relaxed.and.b32 [%rd4+{256 * k}], %r1;\n"
    work, v = BETWEEN[between]
    t += "  bar.sync 0;\n" + work + "  bar.sync 0;\n" * (bars - 1)
    for k in range(K):
        a = ADDRESS.get(between, {}).get(k, f"%rd4+{4096 + 256 * k}")
        t += f"  @%p{k + 1} red.global.cta.release.and.b32 [{a}], %r1;\n"
    return t + TAIL.format(v=v)


# not at a join (the entry block): what comes before the barriers
PRE = {
    "none": "",
    "red": "  red.global.cta.relaxed.and.b32 [%rd4+4], %r1;\n",
    "stg": "  st.global.b32 [%rd4+4], %r1;\n",
}


def entry(pre: str, bars: int) -> str:
    return (HEAD + "  setp.lt.u32 %p1, %r1, %r2;\n" + PRE[pre] + "  bar.sync 0;\n" * bars
            + "  @%p1 red.global.cta.relaxed.and.b32 [%rd4+512], %r1;\n"
            + "  bar.sync 0;\n  @%p1 red.global.cta.relaxed.and.b32 [%rd4+1024], %r1;\n" + TAIL.format(v="%r1"))


TARGETS = ["sm_80", "sm_90"]


def variations() -> dict[str, str]:
    out = {}
    for K in (6, 7, 8, 9):
        for bars in (1, 2, 3):
            out[f"join_K{K}_b{bars}"] = pressure(K, bars, "none")
        for between in ("chain", "chainaddr", "selp", "ptradd"):
            out[f"join_K{K}_b2_{between}"] = pressure(K, 2, between)
    for pre in PRE:
        for bars in (1, 2):
            out[f"entry_{pre}_b{bars}"] = entry(pre, bars)
    return out


if __name__ == "__main__":
    raise SystemExit(run(variations(), TARGETS, frozenset({"BSSY", "BSYNC", "BAR", "MEMBAR", "BMOV"})))
