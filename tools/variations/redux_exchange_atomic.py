"""Where ptxas issues the BSSY of a guarded atomic after an integer block reduction whose first stage is a warp
REDUX (Triton's integer `tl.max`/`tl.sum` from sm_80: `L` masked loads combined per thread, `redux.sync`,
`st.shared; bar; ld.shared`, the post-exchange stage over the warps' totals, the closing `bar.sync`, then `@tid==0`
atom/red), and whether the closing barrier waits for the post-exchange stage (docs/findings/scheduling.md
"The BSSY of a guarded atomic after a REDUX block reduction (helper tshfl39, stop 39)").

Variations: L = 1, 2, 4, 8 loads per thread (each under its own compare; `tid`: no load, the value from %tid);
the post-exchange stage `bfly1` (two warps: one butterfly step + max), `bfly2` (four warps: two steps), `redux`
(a second REDUX); op max / add; `atom` (acq_rel, dead result) or `red` (relaxed); straight or in a persistent
loop."""
from __future__ import annotations

from pylower.tools.variations.table import run

HEAD = """.version 8.7
.target {target}
.address_size 64
.visible .entry k(.param .u64 p0, .param .u64 p1, .param .u32 n, .param .u32 tiles)
{
  .reg .pred %p<16>; .reg .b32 %r<96>; .reg .b64 %rd<16>;
  .shared .align 16 .b8 sm[64];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  ld.param.u64 %rd1, [p0];
  ld.param.u64 %rd2, [p1];
  ld.param.u32 %r5, [n];
  ld.param.u32 %r6, [tiles];
  mov.u32 %r40, sm;
  shr.u32 %r41, %r1, 3;
  and.b32 %r42, %r41, {wmask};
  add.s32 %r3, %r40, %r42;
  shl.b32 %r44, %r1, 2;
  and.b32 %r45, %r44, {xmask};
  add.s32 %r4, %r40, %r45;
  setp.eq.s32 %p10, %r1, 0;
  shl.b32 %r56, %r1, 3;
  mov.u32 %r57, %r2;
"""
LOOP_OPEN = "L2:\n"
LOOP_CLOSE = """  add.s32 %r57, %r57, 108;
  add.s32 %r56, %r56, 110592;
  setp.lt.s32 %p11, %r57, %r6;
  @%p11 bra L2;
"""


def loads(n: int, op: str) -> str:
    if n == 0:
        return f"  mul.lo.s32 %r60, %r1, %r57;\n"
    out = ["  mul.wide.s32 %rd4, %r56, 4;\n  add.s64 %rd5, %rd1, %rd4;\n"]
    other = "-2147483647" if op == "max" else "0"
    for j in range(n):
        out.append(f"  add.s32 %r{10 + j}, %r56, {j};\n  setp.lt.s32 %p{j + 1}, %r{10 + j}, %r5;\n")
    for j in range(n):
        out.append(f"  mov.u32 %r{20 + j}, {other};\n  @%p{j + 1} ld.global.b32 %r{20 + j}, [%rd5+{4 * j}];\n")
    acc = "%r20"
    for j in range(1, n):
        out.append(f"  {op}.s32 %r{30 + j}, {acc}, %r{20 + j};\n")
        acc = f"%r{30 + j}"
    out.append(f"  mov.b32 %r60, {acc};\n")
    return "".join(out)


def block(n: int, post: str, op: str, sem: str) -> str:
    text = loads(n, op)
    text += f"  redux.sync.{op}.s32 %r61, %r60, -1;\n"
    text += "  st.shared.b32 [%r3], %r61;\n  bar.sync 0;\n  ld.shared.b32 %r72, [%r4];\n"
    if post == "redux":
        text += f"  redux.sync.{op}.s32 %r80, %r72, -1;\n"
        v = 80
    else:
        cur, k = 72, 73
        for o in ([1] if post == "bfly1" else [2, 1]):
            text += f"  shfl.sync.bfly.b32 %r{k}, %r{cur}, {o}, 31, -1;\n  {op}.s32 %r{k + 1}, %r{cur}, %r{k};\n"
            cur, k = k + 1, k + 2
        v = cur
    text += "  bar.sync 0;\n"
    if sem == "atom":
        text += f"  mov.u32 %r90, 0x0;\n  @%p10 atom.global.gpu.acq_rel.{op}.s32 %r90, [%rd2], %r{v};\n"
    else:
        text += f"  @%p10 red.global.gpu.relaxed.{op}.s32 [%rd2], %r{v};\n"
    return text + "  bar.sync 0;\n"


TARGETS = ["sm_80", "sm_90", "sm_100a", "sm_120"]
WARPS = {"bfly1": 2, "bfly2": 4, "redux": 8}


def variations() -> dict[str, str]:
    out = {}
    for shape in ("straight", "loop"):
        for n in (0, 1, 2, 4, 8):
            for post in ("bfly1", "bfly2", "redux"):
                for op in ("max", "add"):
                    for sem in ("atom", "red"):
                        if shape == "loop" and (op == "add" or sem == "red"):
                            continue
                        body = block(n, post, op, sem)
                        if shape == "loop":
                            body = LOOP_OPEN + body + LOOP_CLOSE
                        w = WARPS[post]
                        head = HEAD.replace("{xmask}", str(4 * w - 4)).replace("{wmask}", str(4 * w - 4))
                        out[f"{shape}_l{n if n else 'tid'}_{post}_{op}_{sem}"] = head + body + "  ret;\n}\n"
    return out


KEEP = frozenset({"BSSY", "BSYNC", "BAR", "SHFL", "REDUX", "ATOMG", "REDG", "RED", "MEMBAR"})

if __name__ == "__main__":
    raise SystemExit(run(variations(), TARGETS, keep=KEEP))
