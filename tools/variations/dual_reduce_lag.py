"""Two independent reductions in one Triton-shaped block: where ptxas puts the exchange barriers among the shuffles
(docs/findings/scheduling.md "Two independent reductions in one block ... (helper tslot34, stop 34)"; rebuilds
helper tslot33's lost scratch generator). The block is a straight-line logsumexp as Triton writes it: V values per
thread loaded from x, their max (a local tree, five first-level `shfl.bfly`, `st.shared; bar.sync; ld.shared`, K
second-level shuffles for 2^K warps), a WAR `bar.sync`, the ex2 of `(x - max) * log2e`, their sum the same way, and
the log. A second reduction of another loaded array y (a sum, a max, or a masked gather-sum `setp.eq; selp` as
cross-entropy's target logit) is independent of it and written before the max (`early`), between the max's exchange
and the ex2s (`mid`) or after the sum (`late`); each reduction after the first gets Triton's WAR barrier before its
`st.shared`. Row names: `<kind>_<position>_v<V>_k<K>`, plus `none_v<V>_k<K>` (no second reduction)."""
from __future__ import annotations

from pylower.tools.variations.table import run

TARGETS = ["sm_75", "sm_80", "sm_90", "sm_100a", "sm_120"]
LOG2E = "0f3FB8AA3B"


class _Gen:
    def __init__(self) -> None:
        self.lines: list[str] = []
        self.n = 100

    def r(self) -> str:
        self.n += 1
        return f"%r{self.n}"

    def op(self, text: str) -> None:
        self.lines.append(f"  {text};")

    def tree(self, vals: list[str], opname: str) -> str:
        while len(vals) > 1:
            nxt = []
            for a, b in zip(vals[0::2], vals[1::2]):
                d = self.r()
                self.op(f"{opname} {d}, {a}, {b}")
                nxt.append(d)
            vals = nxt
        return vals[0]

    def reduce(self, vals: list[str], opname: str, k: int, war: bool) -> str:
        """Triton's block reduction: local tree, five shuffles, the warp partials through shared memory, K more."""
        v = self.tree(vals, opname)
        for off in (16, 8, 4, 2, 1):
            s = self.r()
            self.op(f"shfl.sync.bfly.b32 {s}, {v}, {off}, 31, -1")
            d = self.r()
            self.op(f"{opname} {d}, {v}, {s}")
            v = d
        if war:
            self.op("bar.sync 0")
        self.op(f"st.shared.b32 [%r20], {v}")
        self.op("bar.sync 0")
        v = self.r()
        self.op(f"ld.shared.b32 {v}, [%r21]")
        for off in [1 << i for i in reversed(range(k))]:
            s = self.r()
            self.op(f"shfl.sync.bfly.b32 {s}, {v}, {off}, 31, -1")
            d = self.r()
            self.op(f"{opname} {d}, {v}, {s}")
            v = d
        return v


def kernel(kind: str, pos: str, v: int, k: int) -> str:
    g = _Gen()
    head = f""".version 8.7
.target {{target}}
.address_size 64
.visible .entry k(.param .u64 px, .param .u64 py, .param .u64 pout, .param .u32 label)
.maxntid {32 << k}, 1, 1
{{
  .reg .pred %p<40>; .reg .b32 %r<400>; .reg .f32 %f<4>; .reg .b64 %rd<40>;
  .shared .align 16 .b8 smem[64];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  ld.param.u64 %rd1, [px];
  ld.param.u64 %rd2, [py];
  ld.param.u64 %rd3, [pout];
  ld.param.u32 %r3, [label];
  mul.lo.s32 %r4, %r2, {v * (32 << k)};
  shl.b32 %r5, %r1, {(v - 1).bit_length()};
  add.s32 %r6, %r4, %r5;
  mul.wide.s32 %rd4, %r6, 4;
  add.s64 %rd5, %rd1, %rd4;
  add.s64 %rd6, %rd2, %rd4;
  mov.u32 %r7, smem;
  shr.u32 %r8, %r1, 3;
  and.b32 %r9, %r8, {4 * ((1 << k) - 1)};
  add.s32 %r20, %r7, %r9;
  shl.b32 %r10, %r1, 2;
  and.b32 %r11, %r10, {4 * ((1 << k) - 1)};
  add.s32 %r21, %r7, %r11;
"""
    xs, ys = [], []
    for i in range(v):
        x = g.r()
        g.op(f"ld.global.b32 {x}, [%rd5+{4 * i}]")
        xs.append(x)
    if kind != "none":
        for i in range(v):
            y = g.r()
            g.op(f"ld.global.b32 {y}, [%rd6+{4 * i}]")
            ys.append(y)
    nred = [0]

    def second() -> str:
        war = nred[0] > 0
        nred[0] += 1
        if kind == "sum":
            return g.reduce(ys, "add.f32", k, war)
        if kind == "max":
            return g.reduce(ys, "max.f32", k, war)
        vals = []
        for i, y in enumerate(ys):
            idx, p, s = g.r(), f"%p{i + 1}", g.r()
            g.op(f"add.s32 {idx}, %r6, {i}")
            g.op(f"setp.eq.s32 {p}, {idx}, %r3")
            g.op(f"selp.f32 {s}, {y}, 0f00000000, {p}")
            vals.append(s)
        return g.reduce(vals, "add.f32", k, war)

    other = second() if pos == "early" else None
    m = g.reduce(xs, "max.f32", k, nred[0] > 0)
    nred[0] += 1
    if pos == "mid":
        other = second()
    es = []
    for x in xs:
        d, l, e = g.r(), g.r(), g.r()
        g.op(f"sub.f32 {d}, {x}, {m}")
        g.op(f"mul.f32 {l}, {d}, {LOG2E}")
        g.op(f"ex2.approx.f32 {e}, {l}")
        es.append(e)
    s = g.reduce(es, "add.f32", k, True)
    nred[0] += 1
    if pos == "late":
        other = second()
    lg, res = g.r(), g.r()
    g.op(f"lg2.approx.f32 {lg}, {s}")
    g.op(f"fma.rn.f32 {res}, {lg}, 0f3F317218, {m}")
    if other is not None:
        g.op(f"sub.f32 {res}, {res}, {other}")
    g.op("mul.wide.u32 %rd7, %r2, 4")
    g.op("add.s64 %rd8, %rd3, %rd7")
    g.op(f"st.global.b32 [%rd8], {res}")
    return head + "\n".join(g.lines) + "\n  ret;\n}\n"


def variations() -> dict[str, str]:
    out = {}
    for v in (4, 8, 16):
        for k in (2, 3):
            out[f"none_v{v}_k{k}"] = kernel("none", "", v, k)
            for kind in ("sum", "max", "gather"):
                for pos in ("early", "mid", "late"):
                    out[f"{kind}_{pos}_v{v}_k{k}"] = kernel(kind, pos, v, k)
    return out


if __name__ == "__main__":
    raise SystemExit(run(variations(), TARGETS))
