"""More guards than P registers in a Triton-shaped block with two independent reductions: does ptxas run the
collectives in program order (docs/findings/scheduling.md "Guards beside butterfly reductions do not order them (helper tslotA35,
stop 35)")? V masked loads of one row (`setp.lt` guard per value, `@p ld.global`, zero default), their sum and the max
of `where(mask, x, -inf)` (a `selp` re-reading each guard), each a local tree, five `shfl.bfly`, `st.shared;
bar.sync; ld.shared`, two more shuffles (4 warps), Triton's WAR `bar.sync` before the second `st.shared`. Varied:
V = 4/6/8/12/16 guards; `sel`: the max reads the guards through `selp` (`nosel`: a plain max of the zero-defaulted
values); `rr`: the guards guard V stores of `x * sum` at the end (held across the reductions); `loop`: the block is
a grid-stride loop body over rows (guards computed in the body). Row names `<shape>_<sel>_<rr>_v<V>`; `three` rows
add a third reduction (the min of `where(mask, x, inf)`) after the max."""
from __future__ import annotations

from pylower.tools.variations.table import run

TARGETS = ["sm_80", "sm_90", "sm_120"]


def kernel(v: int, sel: bool, rr: bool, loop: bool, three: bool = False) -> str:
    n = [200]
    lines: list[str] = []

    def r() -> str:
        n[0] += 1
        return f"%r{n[0]}"

    def op(t: str) -> None:
        lines.append(f"  {t};")

    def reduce(vals, opname, war):
        while len(vals) > 1:
            nxt = []
            for a, b in zip(vals[0::2], vals[1::2]):
                d = r()
                op(f"{opname} {d}, {a}, {b}")
                nxt.append(d)
            vals = nxt
        x = vals[0]
        for off in (16, 8, 4, 2, 1):
            s, d = r(), r()
            op(f"shfl.sync.bfly.b32 {s}, {x}, {off}, 31, -1")
            op(f"{opname} {d}, {x}, {s}")
            x = d
        if war:
            op("bar.sync 0")
        op(f"st.shared.b32 [%r20], {x}")
        op("bar.sync 0")
        x = r()
        op(f"ld.shared.b32 {x}, [%r21]")
        for off in (2, 1):
            s, d = r(), r()
            op(f"shfl.sync.bfly.b32 {s}, {x}, {off}, 31, -1")
            op(f"{opname} {d}, {x}, {s}")
            x = d
        return x

    xs, ms = [], []
    for i in range(v):
        idx, x = r(), r()
        op(f"add.s32 {idx}, %r5, {128 * i}")
        op(f"setp.lt.s32 %p{i + 1}, {idx}, %r3")
        op(f"mov.b32 {x}, 0")
        op(f"@%p{i + 1} ld.global.b32 {x}, [%rd5+{512 * i}]")
        xs.append(x)
    if sel:
        for i, x in enumerate(xs):
            m = r()
            op(f"selp.f32 {m}, {x}, 0fFF800000, %p{i + 1}")
            ms.append(m)
    else:
        ms = list(xs)
    s = reduce(list(xs), "add.f32", False)
    m = reduce(ms, "max.f32", True)
    if three:
        op("mul.wide.u32 %rd9, %r2, 16")
        op("add.s64 %rd10, %rd3, %rd9")
        ns = []
        for i, x in enumerate(xs):
            q = r()
            op(f"selp.f32 {q}, {x}, 0f7F800000, %p{i + 1}" if sel else f"mov.b32 {q}, {x}")
            ns.append(q)
        lo = reduce(ns, "min.f32", True)
        op(f"st.global.b32 [%rd10+8], {lo}")
    op("mul.wide.u32 %rd7, %r2, 16")
    op("add.s64 %rd8, %rd3, %rd7")
    op(f"st.global.v2.b32 [%rd8], {{{s}, {m}}}")
    if rr:
        for i, x in enumerate(xs):
            y = r()
            op(f"mul.f32 {y}, {x}, {s}")
            op(f"@%p{i + 1} st.global.b32 [%rd6+{512 * i}], {y}")
    body = "\n".join(lines)
    head = """.version 8.7
.target {target}
.address_size 64
.visible .entry k(.param .u64 px, .param .u64 py, .param .u64 pout, .param .u32 ncols, .param .u32 nrows)
.maxntid 128, 1, 1
{
  .reg .pred %p<40>; .reg .b32 %r<600>; .reg .b64 %rd<40>;
  .shared .align 16 .b8 smem[64];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  ld.param.u64 %rd1, [px];
  ld.param.u64 %rd2, [py];
  ld.param.u64 %rd3, [pout];
  ld.param.u32 %r3, [ncols];
  ld.param.u32 %r4, [nrows];
  mov.u32 %r7, smem;
  shr.u32 %r8, %r1, 3;
  and.b32 %r9, %r8, 12;
  add.s32 %r20, %r7, %r9;
  shl.b32 %r10, %r1, 2;
  and.b32 %r11, %r10, 12;
  add.s32 %r21, %r7, %r11;
  and.b32 %r5, %r1, 127;
"""
    if loop:
        pre = """  mov.u32 %r12, %nctaid.x;
$L_loop:
  mul.lo.s32 %r13, %r2, %r3;
  add.s32 %r14, %r13, %r5;
  mul.wide.s32 %rd4, %r14, 4;
  add.s64 %rd5, %rd1, %rd4;
  add.s64 %rd6, %rd2, %rd4;
"""
        post = """
  add.s32 %r2, %r2, %r12;
  setp.lt.s32 %p30, %r2, %r4;
  @%p30 bra $L_loop;
  ret;
}
"""
    else:
        pre = """  mul.lo.s32 %r13, %r2, %r3;
  add.s32 %r14, %r13, %r5;
  mul.wide.s32 %rd4, %r14, 4;
  add.s64 %rd5, %rd1, %rd4;
  add.s64 %rd6, %rd2, %rd4;
"""
        post = "\n  ret;\n}\n"
    return head + pre + body + post


def variations() -> dict[str, str]:
    out = {}
    for loop in (False, True):
        for sel in (True, False):
            for rr in (False, True):
                for v in (4, 6, 8, 12, 16):
                    name = f"{'loop' if loop else 'line'}_{'sel' if sel else 'nosel'}_{'rr' if rr else 'no'}_v{v}"
                    out[name] = kernel(v, sel, rr, loop)
    for loop in (False, True):
        for rr in (False, True):
            for v in (4, 8, 16):
                out[f"{'loop' if loop else 'line'}_three_{'rr' if rr else 'no'}_v{v}"] = kernel(v, True, rr, loop, True)
    return out


if __name__ == "__main__":
    raise SystemExit(run(variations(), TARGETS, frozenset({"SHFL", "BAR"})))
