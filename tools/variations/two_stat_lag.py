"""Two reductions of one loaded row, written one after the other as Triton writes `tl.sum(x); tl.sum(x * x)`: where
ptxas puts the first reduction's exchange barrier among the second reduction's first-level shuffles
(docs/findings/scheduling.md "Two statistics of one row: the second chain's last shuffle after the first exchange
barrier (helper tslotB35, stop 35)"). Each reduction: a local tree of V values, five `shfl.bfly`, `st.shared;
bar.sync; ld.shared`, K second-level shuffles (2^K warps); the second gets Triton's WAR `bar.sync` before its
`st.shared`. Second statistic: the sum of squares (`sq`), the max (`max`) or the sum of |x| (`abs`). Row names:
`<second>_v<V>_k<K>`; the sync view is compared without lane offsets, so a row fits when the number of shuffles
before each barrier fits (ptxas: `9 | 1` where the second chain's last shuffle waits for the first barrier)."""
from __future__ import annotations

from pylower.tools.variations.dual_reduce_lag import _Gen
from pylower.tools.variations.table import run

TARGETS = ["sm_75", "sm_80", "sm_90", "sm_100a", "sm_120"]


def kernel(second: str, v: int, k: int, guard: bool = False) -> str:
    g = _Gen()
    head = f""".version 8.7
.target {{target}}
.address_size 64
.visible .entry k(.param .u64 px, .param .u64 pout)
.maxntid {32 << k}, 1, 1
{{
  .reg .pred %p<40>; .reg .b32 %r<400>; .reg .f32 %f<4>; .reg .b64 %rd<40>;
  .shared .align 16 .b8 smem[64];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  ld.param.u64 %rd1, [px];
  ld.param.u64 %rd3, [pout];
  mul.lo.s32 %r4, %r2, {v * (32 << k)};
  shl.b32 %r5, %r1, {(v - 1).bit_length()};
  add.s32 %r6, %r4, %r5;
  mul.wide.s32 %rd4, %r6, 4;
  add.s64 %rd5, %rd1, %rd4;
  mov.u32 %r7, smem;
  shr.u32 %r8, %r1, 3;
  and.b32 %r9, %r8, {4 * ((1 << k) - 1)};
  add.s32 %r20, %r7, %r9;
  shl.b32 %r10, %r1, 2;
  and.b32 %r11, %r10, {4 * ((1 << k) - 1)};
  add.s32 %r21, %r7, %r11;
"""
    xs = []
    for i in range(v):
        x = g.r()
        if guard:       # Triton's masked load: `mov 0; @p ld` with p = index < n
            g.op(f"add.s32 %r{300 + i}, %r6, {i}")
            g.op(f"setp.lt.s32 %p{i + 1}, %r{300 + i}, %r2")
            g.op(f"mov.b32 {x}, 0")
            g.op(f"@%p{i + 1} ld.global.b32 {x}, [%rd5+{4 * i}]")
        else:
            g.op(f"ld.global.b32 {x}, [%rd5+{4 * i}]")
        xs.append(x)
    s = g.reduce(list(xs), "add.f32", k, False)
    ys = []
    if second == "sqfma":   # Triton's sum of squares: half the squares by mul, the other half folded into fma
        half = []
        for a in xs[1::2]:
            y = g.r()
            g.op(f"mul.f32 {y}, {a}, {a}")
            half.append(y)
        g.op("bar.sync 0")
        for a, h in zip(xs[0::2], half):
            y = g.r()
            g.op(f"fma.rn.f32 {y}, {a}, {a}, {h}")
            ys.append(y)
    for x in xs if second != "sqfma" else ():
        y = g.r()
        g.op(f"mul.f32 {y}, {x}, {x}" if second == "sq" else f"abs.f32 {y}, {x}" if second == "abs"
             else f"mov.b32 {y}, {x}")
        ys.append(y)
    t = g.reduce(ys, "max.f32" if second == "max" else "add.f32", k, second != "sqfma")
    g.op("mul.wide.u32 %rd7, %r2, 8")
    g.op("add.s64 %rd8, %rd3, %rd7")
    g.op(f"st.global.v2.b32 [%rd8], {{{s}, {t}}}")
    return head + "\n".join(g.lines) + "\n  ret;\n}\n"


def variations() -> dict[str, str]:
    out = {f"{second}_v{v}_k{k}": kernel(second, v, k)
           for second in ("sq", "max", "abs") for v in (4, 8) for k in (1, 2, 3)}
    out.update({f"{second}_guard_v{v}_k{k}": kernel(second, v, k, True)
                for second in ("sq", "sqfma", "max") for v in (4, 8) for k in (1, 2, 3)})
    return out


if __name__ == "__main__":
    raise SystemExit(run(variations(), TARGETS))
