"""A block tree reduction entered at a join: the closed region before (a guarded load, a grid-stride loop, a
guarded global store) joins, `st.shared; bar.sync`, then N unrolled steps `if (t < o) s[t] += s[t + o];
bar.sync` that ptxas predicates, then the `if (t < 32)` region of a shuffle tail (its BSSY) and a lane-0 store:
whether ptxas issues that region's BSSY above the join's first barrier or right after it (the later steps'
compares issued there first); `reuse` rows compare the steps' tests before the join (an earlier identical
tree's), `max` rows use an s32 max step (docs/findings/convergence.md, helper nvbar38, stop 38)."""
from __future__ import annotations

from pylower.tools.variations.table import run

TARGETS = ["sm_75", "sm_80", "sm_90", "sm_100a"]

HEAD = """.version 9.0
.target {target}
.address_size 64
.visible .entry k(.param .u64 px, .param .u64 po, .param .u32 pn)
{
  .reg .pred %p<40>; .reg .b32 %r<80>; .reg .f32 %f<60>; .reg .b64 %rd<20>;
  .shared .align 4 .b8 sf[4096];
  ld.param.u64 %rd1, [px]; ld.param.u64 %rd2, [po]; ld.param.u32 %r3, [pn];
  mov.u32 %r4, %ctaid.x; mov.u32 %r6, %tid.x;
  shl.b32 %r5, %r4, 10; add.s32 %r1, %r5, %r6;
  mov.f32 %f24, 0f00000000;
"""
BEFORE = {
    # `v = i < n ? x[i] : 0`
    "loadif": """  setp.ge.u32 %p1, %r1, %r3;
  @%p1 bra J;
  cvta.to.global.u64 %rd3, %rd1; mul.wide.u32 %rd4, %r1, 4; add.s64 %rd5, %rd3, %rd4;
  ld.global.f32 %f24, [%rd5];
J:
""",
    # `for (i = ctaid * 1024 + t; i < n; i += 1024 * nctaid) v += x[i]`
    "loop": """  setp.ge.u32 %p1, %r1, %r3;
  @%p1 bra J;
  mov.u32 %r7, %nctaid.x; shl.b32 %r8, %r7, 10; cvta.to.global.u64 %rd3, %rd1; mov.u32 %r9, %r1;
L:
  mul.wide.u32 %rd4, %r9, 4; add.s64 %rd5, %rd3, %rd4;
  ld.global.f32 %f1, [%rd5]; add.f32 %f24, %f24, %f1;
  add.s32 %r9, %r9, %r8;
  setp.lt.u32 %p2, %r9, %r3;
  @%p2 bra L;
J:
""",
    # `if (i < n) { v = 1; out[i] = 0; }`
    "storeif": """  setp.ge.u32 %p1, %r1, %r3;
  @%p1 bra J;
  cvta.to.global.u64 %rd3, %rd2; mul.wide.u32 %rd4, %r1, 4; add.s64 %rd5, %rd3, %rd4;
  mov.f32 %f24, 0f3F800000; st.global.f32 [%rd5], %f24;
J:
""",
}
OFFSETS = [512, 256, 128, 64]


def _steps(n: int, op: str, reuse: bool) -> str:
    out = []
    for k, o in enumerate(OFFSETS[len(OFFSETS) - n:]):
        test = "" if reuse else f"  setp.gt.u32 %p{10 + k}, %r6, {o - 1};\n"
        body = (f"  ld.shared.f32 %f{30 + k}, [%r12+{o * 4}]; add.f32 %f24, %f24, %f{30 + k}; st.shared.f32 [%r12], %f24;\n"
                if op == "add" else
                f"  ld.shared.u32 %r{40 + k}, [%r12+{o * 4}]; mov.b32 %r50, %f24; max.s32 %r51, %r50, %r{40 + k};"
                f" mov.b32 %f24, %r51; st.shared.u32 [%r12], %r51;\n")
        out.append(f"{test}  @%p{10 + k} bra S{k};\n{body}S{k}:\n  bar.sync 0;\n")
    return "".join(out)


def _reused_tests(n: int) -> str:
    return "".join(f"  setp.gt.u32 %p{10 + k}, %r6, {o - 1};\n" for k, o in enumerate(OFFSETS[len(OFFSETS) - n:]))


TAIL = """  setp.gt.u32 %p20, %r6, 31;
  @%p20 bra T;
  ld.shared.f32 %f40, [%r12+128]; add.f32 %f24, %f24, %f40;
  mov.b32 %r60, %f24; shfl.sync.down.b32 %r61|%p21, %r60, 16, 31, -1; mov.b32 %f41, %r61; add.f32 %f24, %f24, %f41;
  mov.b32 %r62, %f24; shfl.sync.down.b32 %r63|%p22, %r62, 8, 31, -1; mov.b32 %f42, %r63; add.f32 %f24, %f24, %f42;
T:
  setp.ne.s32 %p23, %r6, 0;
  @%p23 bra X;
  cvta.to.global.u64 %rd6, %rd2; mul.wide.u32 %rd7, %r4, 4; add.s64 %rd8, %rd6, %rd7;
  st.global.f32 [%rd8], %f24;
X:
  ret;
}
"""


def variations() -> dict[str, str]:
    rows = {}
    for before, code in BEFORE.items():
        for n in range(0, 5):
            for op, reuse in (("add", False), ("max", False), ("add", True)):
                if (op == "max" or reuse) and n < 2:
                    continue
                name = f"{before}_n{n}" + ("_max" if op == "max" else "") + ("_reuse" if reuse else "")
                pre = _reused_tests(n) if reuse else ""
                rows[name] = (HEAD + pre + code + "  shl.b32 %r10, %r6, 2; mov.u32 %r11, sf; add.s32 %r12, %r11, %r10;\n"
                              "  st.shared.f32 [%r12], %f24;\n  bar.sync 0;\n" + _steps(n, op, reuse) + TAIL)
    return rows


def main(argv=None) -> int:
    return run(variations(), TARGETS, frozenset({"BSSY", "BSYNC", "BAR", "BMOV", "WARPSYNC"}), argv)


if __name__ == "__main__":
    raise SystemExit(main())
