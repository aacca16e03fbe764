"""Where ptxas issues the BSSY of a guarded shared-store run after independent warp scans: Triton's 2-D
`tl.cumsum(x, 1)` shape (L masked `ld.global` per thread, other = 0; one S-step `shfl.up` scan per loaded value;
then Triton's layout conversion: R `@p st.shared` of the scanned values under one warp test, `bar.sync`,
`ld.shared`, masked `st.global`). docs/findings/scheduling.md "The BSSY of a store run after independent scans
(helper tshfl38, stop 38)"."""
from __future__ import annotations

from pylower.tools.variations.table import run

TARGETS = ["sm_80", "sm_90", "sm_120"]

HEAD = """.version 8.7
.target {target}
.address_size 64
.visible .entry k(.param .u64 p0, .param .u64 p1, .param .u32 n)
{
  .reg .pred %p<128>; .reg .b32 %r<4096>; .reg .b64 %rd<64>;
  .shared .align 16 .b8 sm[4096];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  ld.param.u64 %rd1, [p0];
  ld.param.u64 %rd2, [p1];
  ld.param.u32 %r3, [n];
  and.b32 %r4, %r1, 31;
  shr.u32 %r5, %r1, 5;
  mov.u32 %r6, sm;
  shl.b32 %r7, %r2, 10;
  or.b32 %r8, %r7, %r1;
  mul.wide.s32 %rd4, %r8, 4;
  add.s64 %rd5, %rd1, %rd4;
  add.s64 %rd6, %rd2, %rd4;
"""


def body(n: int, steps: int, stores: int, op: str = "add", lanetest: str = "ge", rows: bool = False,
         reuse: bool = True) -> str:
    out = []
    for i in range(n):          # masked loads, other = 0
        if rows:                # Triton's 2-D tile: each row's own 64-bit address (row * n_cols + col)
            out.append(f"  add.s32 %r{20 + i}, %r5, {4 * i};\n  setp.lt.s32 %p{1 + i}, %r{20 + i}, %r3;\n"
                       f"  mad.lo.s32 %r{140 + i}, %r{20 + i}, %r3, %r4;\n  mul.wide.s32 %rd{20 + i}, %r{140 + i}, 4;\n"
                       f"  add.s64 %rd{40 + i}, %rd1, %rd{20 + i};\n"
                       f"  mov.u32 %r{40 + i}, 0;\n  @%p{1 + i} ld.global.b32 %r{40 + i}, [%rd{40 + i}];\n")
            continue
        out.append(f"  add.s32 %r{20 + i}, %r8, {128 * i};\n  setp.lt.s32 %p{1 + i}, %r{20 + i}, %r3;\n"
                   f"  mov.u32 %r{40 + i}, 0;\n  @%p{1 + i} ld.global.b32 %r{40 + i}, [%rd5+{512 * i}];\n")
    vals = []
    for i in range(n):          # one scan per loaded value
        cur = f"%r{40 + i}"
        for j in range(steps):
            t, s, v = f"%r{1000 + 8 * i + j}", f"%r{2000 + 8 * i + j}", f"%r{3000 + 8 * i + j}"
            out.append(f"  shfl.sync.up.b32 {t}, {cur}, {1 << j}, 0, -1;\n"
                       f"  setp.{lanetest}.u32 %p{40 + j}, %r4, {1 << j};\n"
                       f"  selp.b32 {s}, {t}, 0, %p{40 + j};\n"
                       f"  {op}.s32 {v}, {cur}, {s};\n")
            cur = v
        vals.append(cur)
    out.append("  setp.eq.s32 %p60, %r5, 0;\n  shl.b32 %r10, %r4, 2;\n  add.s32 %r11, %r6, %r10;\n")
    for k in range(stores):     # the layout conversion's store run under one warp test
        out.append(f"  @%p60 st.shared.b32 [%r11+{128 * k}], {vals[k % n]};\n")
    out.append("  bar.sync 0;\n")
    for i in range(n):
        out.append(f"  ld.shared.b32 %r{460 + i}, [%r11+{128 * i}];\n"
                   f"  {f'@%p{1 + i} ' if reuse else ''}st.global.b32 [%rd6+{512 * i}], %r{460 + i};\n")
    out.append("  ret;\n}\n")
    return "".join(out)


def variations() -> dict[str, str]:
    out = {}
    for n in (1, 2, 4, 8, 16):
        for steps in (1, 3, 5):
            for stores in sorted({1, n}):
                out[f"l{n}_s{steps}_r{stores}"] = HEAD + body(n, steps, stores)
    for n in (10, 12, 14):
        for steps in (3, 5):
            out[f"l{n}_s{steps}_r{n}"] = HEAD + body(n, steps, n)
    for n in (8, 10, 12, 14, 16):       # the stores at the end unguarded: the load guards die at the loads
        for steps in (3, 5):
            out[f"noreuse_l{n}_s{steps}"] = HEAD + body(n, steps, n, reuse=False)
    for n in (4, 6, 8, 10, 12, 16):     # each load its own row address
        for steps in (3, 5):
            out[f"rows_l{n}_s{steps}"] = HEAD + body(n, steps, n, rows=True)
    return out


if __name__ == "__main__":
    raise SystemExit(run(variations(), TARGETS, frozenset({"BSSY", "BSYNC", "SHFL", "BAR", "WARPSYNC"})))
