"""A count-down loop (`setp.ne` exit) whose count differs between the lanes: ptxas unrolls it 4 + 2 + 1 as a
uniform one, the unrolled copies inside a pair of their own left by a BREAK (docs/findings/convergence.md "A
per-thread count-down loop is unrolled inside a BREAK nest (helper nvnest34, stop 34)")."""
from __future__ import annotations

from pylower.tools.variations.table import run

HEAD = """.version 9.0
.target {target}
.address_size 64
.visible .entry k(.param .u64 p, .param .u64 q, .param .u32 n)
{
  .reg .b32 %r<40>; .reg .b64 %rd<20>; .reg .pred %p<10>; .reg .f32 %f<10>;
  .shared .align 4 .b32 sh[256];
  ld.param.u64 %rd1, [p]; ld.param.u64 %rd2, [q]; ld.param.u32 %r20, [n];
  cvta.to.global.u64 %rd3, %rd1;
  mov.u32 %r2, %tid.x;
  mul.wide.u32 %rd4, %r2, 4; add.s64 %rd5, %rd3, %rd4;
  mov.u32 %r5, 0;
"""
# the count %r1 (per thread unless noted)
COUNT = {
    "tidy": "  mov.u32 %r1, %tid.y;\n",
    "lane_load": "  ld.global.u32 %r1, [%rd5];\n",
    "param": "  mov.u32 %r1, %r20;\n",                       # uniform: no pair
}
# the loop body on %r5 (the sum), %rd6 (the address)
BODY = {
    "alu_sts": "  add.s32 %r5, %r5, %r2;\n  st.shared.u32 [sh], %r5;\n",
    "ldg": "  ld.global.u32 %r6, [%rd6];\n  add.s32 %r5, %r5, %r6;\n  add.s64 %rd6, %rd6, 4;\n",
    "ldg4": "".join(f"  ld.global.u32 %r{6 + k}, [%rd6+{128 * k}];\n  add.s32 %r5, %r5, %r{6 + k};\n"
                    for k in range(4)) + "  add.s64 %rd6, %rd6, 512;\n",
    "alu8": "".join(f"  mad.lo.s32 %r5, %r5, %r2, {k + 1};\n" for k in range(8)),
    "alu24": "".join(f"  mad.lo.s32 %r5, %r5, %r2, {k + 1};\n" for k in range(24)),
    "bar": "  add.s32 %r5, %r5, %r2;\n  bar.sync 0;\n",
}
TAIL = {
    "stg": "  st.global.u32 [%rd5], %r5;\n  ret;\n",
    "redux": "  redux.sync.add.s32 %r30, %r5, -1;\n  st.global.u32 [%rd5], %r30;\n  ret;\n",
    "shfl": "  shfl.sync.bfly.b32 %r30, %r5, 1, 31, -1;\n  st.global.u32 [%rd5], %r30;\n  ret;\n",
}


def _kernel(count: str, body: str, tail: str, guard: bool) -> str:
    pre = COUNT[count] + "  add.s64 %rd6, %rd3, 0;\n"
    if guard:      # inside `if (count != 0)`, as nvcc emits a `for (j = b + lane; j < e; j += 32)` loop
        pre += "  setp.eq.s32 %p3, %r1, 0;\n  @%p3 bra X;\n"
    loop = "L1:\n" + BODY[body] + "  add.s32 %r1, %r1, -1;\n  setp.ne.s32 %p1, %r1, 0;\n" \
           "  @%p1 bra L1;\n"
    return HEAD + pre + loop + ("X:\n" if guard else "") + TAIL[tail] + "}\n"


ROWS = {
    "tidy_alu_sts_stg": ("tidy", "alu_sts", "stg", False),
    "tidy_ldg_stg": ("tidy", "ldg", "stg", False),
    "tidy_ldg4_stg": ("tidy", "ldg4", "stg", False),
    "lane_load_ldg_stg": ("lane_load", "ldg", "stg", False),
    "lane_load_ldg_guard_stg": ("lane_load", "ldg", "stg", True),
    "lane_load_ldg_guard_redux": ("lane_load", "ldg", "redux", True),
    "lane_load_ldg4_guard_shfl": ("lane_load", "ldg4", "shfl", True),
    "tidy_alu8_stg": ("tidy", "alu8", "stg", False),
    "tidy_alu24_stg": ("tidy", "alu24", "stg", False),
    "param_alu24_redux": ("param", "alu24", "redux", False),
    "tidy_bar_stg": ("tidy", "bar", "stg", False),
    "param_ldg_redux": ("param", "ldg", "redux", False),
}
TARGETS = ["sm_80", "sm_90", "sm_100a", "sm_120"]


def variations() -> dict[str, str]:
    return {name: _kernel(*row) for name, row in ROWS.items()}


if __name__ == "__main__":
    raise SystemExit(run(variations(), TARGETS))
