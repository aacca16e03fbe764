"""Compares after a predicated if: does ptxas keep them behind it? One warp (no exchange): V loaded values per
thread, a butterfly sum A (five `shfl.bfly`), then Triton's `tl.log` fixup if on A's result (`setp.lt.u32 p, a,
0x7f800000; @p bra J; mov; fma; J:`, `body` = 1 or 2 instructions, or `big`: 12), then a second reduction B of the
loaded values masked by a compare with a loaded scalar t (`setp.eq x_i, t; selp x_i, 0` = Triton's
`tl.where(offs == t, x, 0)`) and five `shfl.down` (told apart from A's in the sync view). How the compares are used: `sel` only by the selects,
`guard` also as the guard of a store after B (`@p st`: a later region's guard test, nvcc cub's `@P0 STS; BAR;
ISETP; BSSY`), `both` the first compare both. ptxas: B's tree and first shuffles interleave with A's chain (the
compares issued before the if) when the compares only feed selects; pylower before the rule pinned every compare
after a predicated if. docs/findings/scheduling.md "Compares that feed only selects cross a predicated if (helper
tslot39, stop 39)". Rows: `<use>_v<V>_<body>`."""
from __future__ import annotations

from pylower.tools.variations.table import run

TARGETS = ["sm_75", "sm_80", "sm_90", "sm_100a", "sm_120"]


def kernel(use: str, v: int, body: str) -> str:
    L = [f""".version 8.7
.target {{target}}
.address_size 64
.visible .entry k(.param .u64 px, .param .u64 pt, .param .u64 pout)
.maxntid 32, 1, 1
{{
  .reg .pred %p<40>; .reg .b32 %r<400>; .reg .b64 %rd<40>;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  ld.param.u64 %rd1, [px];
  ld.param.u64 %rd2, [pt];
  ld.param.u64 %rd3, [pout];
  mad.lo.s32 %r4, %r2, {32 * v}, %r1;
  mul.wide.s32 %rd4, %r4, 4;
  add.s64 %rd5, %rd1, %rd4;
  mul.wide.u32 %rd6, %r2, 4;
  add.s64 %rd7, %rd2, %rd6;
  ld.global.b32 %r3, [%rd7];"""]
    for i in range(v):
        L.append(f"  ld.global.b32 %r{10 + i}, [%rd5+{128 * i}];")
    acc = 10
    for i in range(1, v):          # A: a chain of adds
        L.append(f"  add.f32 %r{40 + i}, %r{acc}, %r{10 + i};")
        acc = 40 + i
    for s, lane in enumerate((16, 8, 4, 2, 1)):
        L.append(f"  shfl.sync.bfly.b32 %r{60 + s}, %r{acc}, {lane}, 31, -1;")
        L.append(f"  add.f32 %r{70 + s}, %r{acc}, %r{60 + s};")
        acc = 70 + s
    L.append(f"  setp.lt.u32 %p1, %r{acc}, 2139095040;")
    L.append("  mov.b32 %r80, %r74;")
    L.append("  @%p1 bra $J;")
    n = {"b1": 1, "b2": 2, "big": 12}[body]
    if n == 1:
        L.append("  fma.rn.ftz.f32 %r80, %r74, 0f7F800000, 0f7F800000;")
    else:
        L.append("  mov.b32 %r81, 0f7F800000;")
        L.append("  fma.rn.ftz.f32 %r80, %r74, %r81, %r81;")
        for j in range(n - 2):
            L.append(f"  fma.rn.ftz.f32 %r80, %r80, %r81, %r74;")
    L.append("$J:")
    for i in range(v):
        L.append(f"  setp.eq.b32 %p{10 + i}, %r{10 + i}, %r3;")
        L.append(f"  selp.f32 %r{100 + i}, %r{10 + i}, 0f00000000, %p{10 + i};")
    acc = 100
    for i in range(1, v):
        L.append(f"  add.f32 %r{120 + i}, %r{acc}, %r{100 + i};")
        acc = 120 + i
    for s, lane in enumerate((16, 8, 4, 2, 1)):
        L.append(f"  shfl.sync.down.b32 %r{140 + s}, %r{acc}, {lane}, 31, -1;")
        L.append(f"  add.f32 %r{150 + s}, %r{acc}, %r{140 + s};")
        acc = 150 + s
    L.append(f"  sub.f32 %r160, %r80, %r{acc};")
    L.append("  mul.wide.u32 %rd8, %r2, 4;")
    L.append("  add.s64 %rd9, %rd3, %rd8;")
    L.append("  st.global.b32 [%rd9], %r160;")
    if use in ("guard", "both"):
        L.append("  @%p10 st.global.b32 [%rd9+4], %r160;" if use == "guard" else
                 "  @%p10 st.global.b32 [%rd9+4], %r80;")
    L.append("  ret;\n}")
    return "\n".join(L) + "\n"


def variations() -> dict[str, str]:
    return {f"{use}_v{v}_{body}": kernel(use, v, body)
            for use in ("sel", "guard") for v in (2, 4, 8) for body in ("b1", "b2", "big")}


if __name__ == "__main__":
    raise SystemExit(run(variations(), TARGETS, frozenset({"SHFL", "BAR"}), mods=frozenset({"BFLY", "DOWN"})))
