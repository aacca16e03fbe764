"""Where ptxas issues the BSSY of a guarded atomic (`@p atom`, Triton's inline-asm form) that follows a block
reduction whose shared-memory exchange ends in a WAR barrier (`shfl x5; st.shared; bar; ld.shared; shfl xk;
bar; @p atom; bar`), in a persistent loop's body against a straight block: the Triton persistent tile-sum
kernels (docs/findings/scheduling.md "The BSSY against the exchange's closing barrier (helper tbar38, stop 38)")."""
from __future__ import annotations

from pylower.tools.variations.table import run

HEAD = """.version 8.7
.target {target}
.address_size 64
.visible .entry k(.param .u64 p0, .param .u64 p1, .param .u32 n, .param .u32 tiles)
{
  .reg .pred %p<16>; .reg .b32 %r<96>; .reg .f32 %f<64>; .reg .b64 %rd<16>;
  .shared .align 16 .b8 sm[64];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  ld.param.u64 %rd1, [p0];
  ld.param.u64 %rd2, [p1];
  ld.param.u32 %r5, [n];
  ld.param.u32 %r6, [tiles];
  mov.u32 %r40, sm;
  shr.u32 %r41, %r1, 3;
  and.b32 %r42, %r41, 28;
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


def loads(n: int) -> str:
    out = ["  mul.wide.s32 %rd4, %r56, 4;\n  add.s64 %rd5, %rd1, %rd4;\n"]
    for j in range(n):
        out.append(f"  add.s32 %r{10 + j}, %r56, {j};\n  setp.lt.s32 %p{j + 1}, %r{10 + j}, %r5;\n")
    for j in range(n):
        out.append(f"  mov.f32 %f{j + 1}, 0f00000000;\n  @%p{j + 1} ld.global.f32 %f{j + 1}, [%rd5+{4 * j}];\n")
    acc = "%f1"
    for j in range(1, n):
        out.append(f"  add.f32 %f{20 + j}, {acc}, %f{j + 1};\n")
        acc = f"%f{20 + j}"
    out.append(f"  mov.b32 %r60, {acc};\n")
    return "".join(out)


def shuffles(src: int, dst0: int, offs: list[int]) -> tuple[str, int]:
    out, cur, k = [], src, dst0
    for o in offs:
        out.append(f"  shfl.sync.bfly.b32 %r{k}, %r{cur}, {o}, 31, -1;\n"
                   f"  add.f32 %r{k + 1}, %r{cur}, %r{k};\n")
        cur, k = k + 1, k + 2
    return "".join(out), cur


def block(n: int, k: int, addr: str, sem: str) -> str:
    text = loads(n)
    t1, v = shuffles(60, 61, [16, 8, 4, 2, 1])
    text += t1 + f"  st.shared.b32 [%r3], %r{v};\n  bar.sync 0;\n  ld.shared.b32 %r72, [%r4];\n"
    t2, v = shuffles(72, 73, [1 << (k - 1 - j) for j in range(k)])
    text += t2 + "  bar.sync 0;\n"
    if addr == "tile":
        text += "  mul.wide.s32 %rd6, %r57, 4;\n  add.s64 %rd7, %rd2, %rd6;\n"
    else:
        text += "  mov.u64 %rd7, %rd2;\n"
    if sem == "acq_rel":
        text += f"  mov.u32 %r90, 0x0;\n  @%p10 atom.global.gpu.acq_rel.add.f32 %r90, [%rd7], %r{v};\n"
    else:
        text += f"  @%p10 red.global.gpu.relaxed.add.f32 [%rd7], %r{v};\n"
    return text + "  bar.sync 0;\n"


TARGETS = ["sm_80", "sm_90", "sm_100a", "sm_120"]


def variations() -> dict[str, str]:
    out = {}
    for shape in ("loop", "straight"):
        for n in (1, 4, 8):
            for k in (1, 2, 3):
                for addr in ("param", "tile"):
                    for sem in ("acq_rel", "relaxed"):
                        body = block(n, k, addr, sem)
                        if shape == "loop":
                            body = LOOP_OPEN + body + LOOP_CLOSE
                        head = HEAD.replace("{xmask}", str((4 << k) - 4))
                        out[f"{shape}_l{n}_k{k}_{addr}_{sem}"] = head + body + "  ret;\n}\n"
    return out


if __name__ == "__main__":
    raise SystemExit(run(variations(), TARGETS))
