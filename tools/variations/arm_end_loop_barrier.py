"""The first barrier of a loop in a warp-specialised arm that meets the other arm only at the kernel's end, reached
on a path without a barrier (a uniform skip around an unrolled main loop into the remainder loop: nvcc's
`for (t = 0; t < tiles; ++t) { named_sync; ...}` of a consumer whose producer returns): does ptxas re-converge
first? Rows: what comes before the skip target (a loop, straight code, nothing), what the skip leads to (a loop,
straight code), the arms ending in `ret` or meeting at a final `bar.sync 0` (docs/findings/barrier.md "A guarded
named barrier in a loop of divergent code re-converges (helper nvwarp39, stop 39)")."""
from __future__ import annotations

from pylower.tools.variations.guarded_named_barrier import HEAD as _HEAD
from pylower.tools.variations.table import run

# the kernel head of guarded_named_barrier, then the warp-specialised split into the producer arm
HEAD = _HEAD + "  setp.lt.u32 %p1, %r1, 32;\n  @%p1 bra PROD;\n"
FIRST = {
    "loop": """  setp.lt.s32 %p2, %r30, 4;
  @%p2 bra SECOND;
MAIN:
  bar.sync 1, 64;
  ld.shared.u32 %r5, [%r4];
  add.s32 %r11, %r11, %r5;
  add.s32 %r10, %r10, 1;
  setp.lt.s32 %p3, %r10, %r30;
  @%p3 bra MAIN;
""",
    "line": """  setp.lt.s32 %p2, %r30, 4;
  @%p2 bra SECOND;
  bar.sync 1, 64;
  ld.shared.u32 %r5, [%r4];
  add.s32 %r11, %r11, %r5;
""",
    "none": "",
}
SECOND = {
    "loop": """SECOND:
  mov.u32 %r12, 0;
REM:
  and.b32 %r13, %r12, 1;
  add.s32 %r14, %r13, 2;
  bar.sync %r14, 64;
  ld.shared.u32 %r5, [%r4+128];
  add.s32 %r11, %r11, %r5;
  add.s32 %r12, %r12, 1;
  setp.lt.s32 %p4, %r12, %r30;
  @%p4 bra REM;
""",
    "line": """SECOND:
  bar.sync 2, 64;
  ld.shared.u32 %r5, [%r4+128];
  add.s32 %r11, %r11, %r5;
""",
}
TAIL = "  cvt.u64.u32 %rd2, %r2;\n  add.s64 %rd3, %rd1, %rd2;\n  st.global.u32 [%rd3], %r11;\n"
PROD = "PROD:\n  st.shared.u32 [%r4], %r1;\n  bar.arrive 1, 64;\n  bar.arrive 2, 64;\n"


def kernel(first: str, second: str, end: str) -> str:
    body = FIRST[first] + SECOND[second] + TAIL
    if end == "ret":
        body += "  ret;\n" + PROD + "  ret;\n}\n"
    else:
        body += "  bra.uni END;\n" + PROD + "END:\n  bar.sync 0;\n  ret;\n}\n"
    return HEAD + body


def variations() -> dict[str, str]:
    return {f"{f}_{s}_{e}": kernel(f, s, e) for f in FIRST for s in SECOND for e in ("ret", "bar")}


TARGETS = ["sm_80", "sm_90"]

if __name__ == "__main__":
    raise SystemExit(run(variations(), TARGETS, keep=frozenset({"WARPSYNC", "BAR", "BSSY", "BSYNC"})))
