"""The WAR barrier between two reductions of one tile in a loop, as Triton writes a looped logsumexp / softmax /
cross-entropy (`for tile: m = max(x); s += sum(exp(x - m))`): where ptxas puts the `bar.sync` that guards the shared
exchange buffer between the first reduction's `ld.shared` and the second reduction's `st.shared`, when the second
reduction's shuffle chain waits for the first one (docs/findings/scheduling.md "In a loop, the WAR barrier waits
while the next reduction is far from its exchange (helper tslot36, stop 36)"). Each reduction: a local tree of V
values, five `shfl.bfly`, `st.shared; bar.sync; ld.shared`, K second-level shuffles (2^K warps). The second statistic
of the tile (`<second>`): `exp` = Triton's `ex2.approx.f32` of `(x - m) * log2(e)` (rescaled, no .ftz), `ftz` = the
same with `ex2.approx.ftz.f32`, `sub` = `x - m` (ALU only), `sq` = `x * x` (independent of the max). `<shape>`: `loop`
= the body of a column loop (Triton's loop-top `bar.sync`, an accumulator), `line` = the same body once, straight.
Loads plain or guarded (`g`: `mov 0; @p ld` as Triton masks them). Row names: `<shape>_<second>[_g]_v<V>_k<K>`."""
from __future__ import annotations

from pylower.tools.variations.dual_reduce_lag import _Gen
from pylower.tools.variations.table import run

TARGETS = ["sm_75", "sm_80", "sm_90", "sm_100a", "sm_120"]


def kernel(shape: str, second: str, v: int, k: int, guard: bool = False) -> str:
    g = _Gen()
    head = f""".version 8.7
.target {{target}}
.address_size 64
.visible .entry k(.param .u64 px, .param .u64 pout, .param .u32 ncols)
.maxntid {32 << k}, 1, 1
{{
  .reg .pred %p<40>; .reg .b32 %r<400>; .reg .f32 %f<4>; .reg .b64 %rd<40>;
  .shared .align 16 .b8 smem[64];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  ld.param.u64 %rd1, [px];
  ld.param.u64 %rd3, [pout];
  ld.param.u32 %r3, [ncols];
  mul.lo.s32 %r4, %r2, %r3;
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
  mov.b32 %r30, 0f00000000;
  mov.u32 %r31, 0;
"""
    if shape == "loop":
        g.lines.append("$L_loop:")
        g.op("bar.sync 0")
    xs = []
    for i in range(v):
        x = g.r()
        if guard:
            g.op(f"add.s32 %r{300 + i}, %r31, {i}")
            g.op(f"setp.lt.s32 %p{i + 1}, %r{300 + i}, %r3")
            g.op(f"mov.b32 {x}, 0")
            g.op(f"@%p{i + 1} ld.global.b32 {x}, [%rd5+{4 * i}]")
        else:
            g.op(f"ld.global.b32 {x}, [%rd5+{4 * i}]")
        xs.append(x)
    m = g.reduce(list(xs), "max.f32", k, False)
    ys = []
    for x in xs:
        y = g.r()
        if second == "sq":
            g.op(f"mul.f32 {y}, {x}, {x}")
        else:
            g.op(f"sub.f32 {y}, {x}, {m}")
            if second in ("exp", "ftz"):
                z, e = g.r(), g.r()
                g.op(f"mul.f32 {z}, {y}, 0f3FB8AA3B")
                g.op(f"ex2.approx{'.ftz' if second == 'ftz' else ''}.f32 {e}, {z}")
                y = e
        ys.append(y)
    g.op("bar.sync 0")
    t = g.reduce(ys, "add.f32", k, False)
    g.op(f"add.f32 %r30, %r30, {t}")
    if shape == "loop":
        g.op("add.s64 %rd5, %rd5, 4096")
        g.op(f"add.s32 %r31, %r31, {v * (32 << k)}")
        g.op("setp.lt.s32 %p30, %r31, %r3")
        g.op("@%p30 bra $L_loop")
    g.op("mul.wide.u32 %rd7, %r2, 4")
    g.op("add.s64 %rd8, %rd3, %rd7")
    g.op("st.global.b32 [%rd8], %r30")
    return head + "\n".join(g.lines) + "\n  ret;\n}\n"


def variations() -> dict[str, str]:
    return {f"{shape}_{second}{'_g' if guard else ''}_v{v}_k{k}": kernel(shape, second, v, k, guard)
            for shape in ("loop", "line") for second in ("exp", "ftz", "sub", "sq") for guard in (False, True)
            for v in (4, 8) for k in (1, 2, 3) if not (guard and second in ("ftz", "sq"))}


if __name__ == "__main__":
    raise SystemExit(run(variations(), TARGETS))
