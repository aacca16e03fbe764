"""Where ptxas opens the convergence region of a guarded atomic (or store) that follows a block reduction, as
Triton writes `tl.atomic_*(ptr, tl.sum|max(x))`: loads (one plain, or four masked), a butterfly chain (warp only, or
the cross-warp exchange `st.shared; bar; ld.shared; shfl x2`), Triton's trailing `bar.sync`, the guard `tid == 0`
computed at the kernel's head or right before the atomic, the atomic kind, straight or inside a persistent loop
(docs/findings/convergence.md "The BSSY of a reduce-then-atomic region (helper tpers37, stop 37)")."""
from __future__ import annotations

from pylower.tools.variations.table import run

HEAD = """.version 8.7
.target {target}
.address_size 64
.visible .entry k(.param .u64 p0, .param .u64 p1, .param .u32 n, .param .u32 nt)
{
  .reg .pred %p<16>; .reg .b32 %r<80>; .reg .f32 %f<80>; .reg .b64 %rd<16>;
  .shared .align 4 .b8 sm[128];
  mov.u32 %r1, %tid.x;
  ld.param.u64 %rd1, [p0];
  ld.param.u64 %rd2, [p1];
  ld.param.u32 %r2, [n];
  ld.param.u32 %r4, [nt];
  mov.u32 %r5, %ctaid.x;
  mov.u32 %r40, sm;
  shr.u32 %r41, %r1, 3;
  and.b32 %r42, %r41, 12;
  add.s32 %r43, %r40, %r42;
  shl.b32 %r44, %r1, 2;
  and.b32 %r45, %r44, 12;
  add.s32 %r46, %r40, %r45;
"""
GUARD = "  setp.eq.s32 %p1, %r1, 0;\n"


def loads(kind: str) -> str:
    """%f10 = the per-thread value of the tile starting at element %r6 (the tile index * 512)."""
    t = "  shl.b32 %r6, %r5, 9;\n  add.s32 %r7, %r6, %r1;\n  mul.wide.s32 %rd3, %r7, 4;\n  add.s64 %rd4, %rd1, %rd3;\n"
    if kind == "1":
        return t + "  ld.global.f32 %f1, [%rd4];\n  abs.f32 %f10, %f1;\n"
    for j in range(4):
        t += (f"  add.s32 %r{10 + j}, %r7, {128 * j};\n  setp.lt.s32 %p{4 + j}, %r{10 + j}, %r2;\n"
              f"  mov.f32 %f{1 + j}, 0f00000000;\n  @%p{4 + j} ld.global.f32 %f{1 + j}, [%rd4+{512 * j}];\n")
    return t + ("  mul.f32 %f5, %f1, %f1;\n  fma.rn.f32 %f6, %f2, %f2, %f5;\n  fma.rn.f32 %f7, %f3, %f3, %f6;\n"
                "  fma.rn.f32 %f10, %f4, %f4, %f7;\n")


def chain(k: int, src: str, base: int, first: int = 16) -> tuple[str, str]:
    out, cur = [], src
    for j in range(k):
        out.append(f"  mov.b32 %r{50 + base + j}, {cur};\n"
                   f"  shfl.sync.bfly.b32 %r{60 + base + j}, %r{50 + base + j}, {first >> j}, 31, -1;\n"
                   f"  mov.b32 %f{20 + base + j}, %r{60 + base + j};\n"
                   f"  add.f32 %f{40 + base + j}, {cur}, %f{20 + base + j};\n")
        cur = f"%f{40 + base + j}"
    return "".join(out), cur


def reduction(kind: str) -> tuple[str, str]:
    text, v = chain(5, "%f10", 0)
    if kind == "x":
        text += f"  st.shared.f32 [%r43], {v};\n  bar.sync 0;\n  ld.shared.f32 %f11, [%r46];\n"
        t2, v = chain(2, "%f11", 5, first=2)
        text += t2
    return text + "  bar.sync 0;\n", v


def atomic(op: str, v: str) -> str:
    return {"addf": f"  @%p1 atom.global.gpu.acq_rel.add.f32 %f70, [%rd2], {v};\n",
            "red": f"  @%p1 red.global.gpu.add.f32 [%rd2], {v};\n",
            "maxs": f"  mov.b32 %r70, {v};\n  @%p1 atom.global.gpu.relaxed.max.s32 %r71, [%rd2], %r70;\n",
            "st": f"  mul.wide.s32 %rd8, %r5, 4;\n  add.s64 %rd9, %rd2, %rd8;\n  @%p1 st.global.f32 [%rd9], {v};\n"}[op]


TARGETS = ["sm_80", "sm_90"]


def kernel(ld: str, red: str, guard: str, op: str, loop: str, tail: str = "bar") -> str:
    r, v = reduction(red)
    body = loads(ld) + r + (GUARD if guard == "late" else "") + atomic(op, v) + ("  bar.sync 0;\n" if tail == "bar" else "")
    head = HEAD + (GUARD if guard == "head" else "")
    if loop == "straight":
        return head + body + "  ret;\n}\n"
    return (head + "  setp.ge.s32 %p2, %r5, %r4;\n  @%p2 bra DONE;\nLOOP:\n" + body
            + "  add.s32 %r5, %r5, 132;\n  setp.lt.s32 %p3, %r5, %r4;\n  @%p3 bra LOOP;\nDONE:\n  ret;\n}\n")


def n_loads(n: int, guarded: bool) -> str:
    """`n` loads (masked as Triton does, or plain) whose squares are summed in a chain into %f10."""
    t = "  shl.b32 %r6, %r5, 9;\n  add.s32 %r7, %r6, %r1;\n  mul.wide.s32 %rd3, %r7, 4;\n  add.s64 %rd4, %rd1, %rd3;\n"
    for j in range(n):
        t += (f"  add.s32 %r{10 + j}, %r7, {128 * j};\n  setp.lt.s32 %p{4 + j}, %r{10 + j}, %r2;\n"
              f"  mov.f32 %f{1 + j}, 0f00000000;\n" + (f"  @%p{4 + j} " if guarded else "  ")
              + f"ld.global.f32 %f{1 + j}, [%rd4+{512 * j}];\n")
    t += "  mul.f32 %f30, %f1, %f1;\n"
    cur = "%f30"
    for j in range(1, n):
        t += f"  fma.rn.f32 %f{31 + j}, %f{1 + j}, %f{1 + j}, {cur};\n"
        cur = f"%f{31 + j}"
    return t + f"  mov.f32 %f10, {cur};\n"


def count_kernel(n: int, guarded: bool) -> str:
    r, v = reduction("x")
    text = HEAD + n_loads(n, guarded) + r + GUARD + atomic("addf", v) + "  bar.sync 0;\n  ret;\n}\n"
    return text.replace("%p<16>", "%p<40>").replace("%f<80>", "%f<120>")


def variations() -> dict[str, str]:
    out = {f"count_n{n}_{'g' if g else 'u'}": count_kernel(n, g)
           for n in (1, 2, 3, 4, 5, 6, 7, 8, 9, 12) for g in (True, False) if g or n in (4, 8)}
    for loop in ("straight", "persist"):
        for ld in ("1", "4g"):
            for red in ("w", "x"):
                for tail in ("bar", "none"):
                    for op in ("addf", "red", "maxs", "st"):
                        out[f"{loop}_ld{ld}_{red}_{tail}_{op}"] = kernel(ld, red, "late", op, loop, tail)
    return out


KEEP = frozenset({"BSSY", "BSYNC", "SHFL", "BAR"})

if __name__ == "__main__":
    raise SystemExit(run(variations(), TARGETS, keep=KEEP))
