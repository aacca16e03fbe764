"""Where ptxas issues the barrier that closes a Triton integer block reduction (`redux.sync; st.shared; bar.sync;
ld.shared; [selp]; redux.sync; bar.sync`) against the second-level REDUX, outside a loop: what follows the barrier
(a guarded atomic, a guarded store, a second reduction), whether the REDUX reads the shared load directly (max/min)
or through Triton's `selp` (sum/xor), and independent work after it (docs/findings/scheduling.md "The barrier
closing an integer block reduction (helper tsched36, stop 36)")."""
from __future__ import annotations

from pylower.tools.variations.table import run

HEAD = """.version 8.7
.target {target}
.address_size 64
.extern .shared .align 16 .b8 global_smem[];
.visible .entry k(.param .u64 p0, .param .u64 p1, .param .u32 n)
{
  .reg .pred %p<32>; .reg .b32 %r<128>; .reg .b64 %rd<16>;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  ld.param.u64 %rd1, [p0];
  ld.param.u64 %rd2, [p1];
  ld.param.u32 %r3, [n];
  shl.b32 %r4, %r2, 10;
  and.b32 %r5, %r1, 127;
  shl.b32 %r6, %r5, 2;
  or.b32 %r7, %r4, %r6;
  mul.wide.s32 %rd3, %r7, 4;
  add.s64 %rd4, %rd1, %rd3;
"""

IDENT = {"max": "-2147483647", "min": "2147483647", "add": "0", "xor": "0"}
OPS = {"max": "max.s32", "min": "min.s32", "add": "add.s32", "xor": "xor.b32"}
RED = {"max": "max.s32", "min": "min.s32", "add": "add.s32", "xor": "xor.b32"}


def loads(v: int, base: int) -> str:
    """v guarded loads of s32 at %rd4 + 4*i (Triton's `mov other; @p ld`), into %r{base}..; guards %p{base-? }."""
    out = []
    for i in range(v):
        out.append(f"  add.s32 %r{base + 40 + i}, %r7, {i};\n  setp.lt.s32 %p{1 + i}, %r{base + 40 + i}, %r3;\n")
    for i in range(v):
        out.append(f"  mov.u32 %r{base + i}, 0;\n  @%p{1 + i} ld.global.b32 %r{base + i}, [%rd4+{4 * i}];\n")
    return "".join(out)


def tree(op: str, v: int, base: int, dst: int) -> str:
    out, cur = [], f"%r{base}"
    for i in range(1, v):
        out.append(f"  {OPS[op]} %r{dst + i}, {cur}, %r{base + i};\n")
        cur = f"%r{dst + i}"
    return "".join(out), cur


def reduction(op: str, src: str, n: int) -> tuple[str, str]:
    """Triton's two-level integer block reduction over 4 warps; result %r{n+5}."""
    text = (f"  mov.b32 %r{n}, -1;\n  redux.sync.{RED[op]} %r{n + 1}, {src}, %r{n};\n"
            f"  shr.u32 %r{n + 10}, %r1, 3;\n  and.b32 %r{n + 11}, %r{n + 10}, 12;\n"
            f"  mov.b32 %r{n + 12}, global_smem;\n  add.s32 %r{n + 13}, %r{n + 12}, %r{n + 11};\n"
            f"  st.shared.b32 [%r{n + 13}], %r{n + 1};\n  bar.sync 0;\n"
            f"  shl.b32 %r{n + 14}, %r1, 2;\n  and.b32 %r{n + 15}, %r{n + 14}, 12;\n"
            f"  add.s32 %r{n + 16}, %r{n + 12}, %r{n + 15};\n  ld.shared.b32 %r{n + 2}, [%r{n + 16}];\n")
    v = f"%r{n + 2}"
    if op in ("add", "xor"):
        text += (f"  and.b32 %r{n + 17}, %r1, 28;\n  setp.eq.b32 %p20, %r{n + 17}, 0;\n"
                 f"  selp.b32 %r{n + 3}, %r{n + 2}, 0, %p20;\n")
        v = f"%r{n + 3}"
    text += f"  redux.sync.{RED[op]} %r{n + 5}, {v}, %r{n};\n"
    return text, f"%r{n + 5}"


def tail(kind: str, v: str) -> str:
    if kind == "atom":
        return (f"  bar.sync 0;\n  setp.eq.b32 %p21, %r1, 0;\n  mov.u32 %r120, 0x0;\n"
                f"  @%p21 atom.global.gpu.acq_rel.max.s32 %r120, [%rd2], {v};\n  bar.sync 0;\n")
    if kind == "red":
        return f"  bar.sync 0;\n  setp.eq.b32 %p21, %r1, 0;\n  @%p21 red.global.gpu.relaxed.add.s32 [%rd2], {v};\n"
    if kind == "st":
        return f"  setp.eq.b32 %p21, %r1, 0;\n  @%p21 st.global.b32 [%rd2], {v};\n"
    if kind == "barst":
        return f"  bar.sync 0;\n  setp.eq.b32 %p21, %r1, 0;\n  @%p21 st.global.b32 [%rd2], {v};\n"
    raise KeyError(kind)


TARGETS = ["sm_80", "sm_90", "sm_100a", "sm_120"]


def variations() -> dict[str, str]:
    out = {}
    for op in ("max", "min", "add", "xor"):
        for v in (4, 8):
            for tk in ("atom", "red", "st", "barst"):
                for after in ("none", "second"):
                    body = loads(v, 10)
                    t, cur = tree(op, v, 10, 60 - 1)
                    body += t
                    r, res = reduction(op, cur, 80)
                    body += r + tail(tk, res)
                    if after == "second":
                        # a second, independent reduction of the same values (Triton's WAR barrier first)
                        op2 = {"max": "min", "min": "max", "add": "max", "xor": "add"}[op]
                        t2, cur2 = tree(op2, v, 10, 100 - 1)
                        body += "  bar.sync 0;\n" + t2
                        r2, res2 = reduction(op2, cur2, 110)
                        r2 = r2.replace(f"%r{110 + 12}, global_smem", f"%r{110 + 12}, global_smem")
                        body += r2 + f"  @%p21 st.global.b32 [%rd2+4], {res2};\n" if tk != "atom" else \
                            r2 + f"  setp.eq.b32 %p22, %r1, 0;\n  @%p22 st.global.b32 [%rd2+4], {res2};\n"
                        if tk in ("atom",):
                            pass
                    out[f"{op}_v{v}_{tk}_{after}"] = HEAD + body + "  ret;\n}\n"
    return out


KEEP = frozenset({"REDUX", "CREDUX", "BAR", "BSSY", "ATOMG", "RED", "REDG", "STG"})

if __name__ == "__main__":
    raise SystemExit(run(variations(), TARGETS, KEEP))
