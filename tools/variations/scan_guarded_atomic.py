"""Where ptxas issues the BSSY of a guarded atomic's region (`@p atom`, Triton's inline-asm form) after a block scan:
Triton's stream-compaction shape (masked loads, a `tl.cumsum` of flags by a five-step `shfl.up` chain, the warps'
totals exchanged through shared memory, the block total by `tl.sum` (REDUX, butterflies or the exchange itself),
then `base = tl.atomic_add(cnt, total)` on thread 0). docs/findings/scheduling.md "The BSSY of a guarded atomic
after a block scan (helper tscan37, stop 37)"."""
from __future__ import annotations

from pylower.tools.variations.table import run

HEAD = """.version 8.7
.target {target}
.address_size 64
.visible .entry k(.param .u64 p0, .param .u64 p1, .param .u64 p2, .param .u32 n)
{
  .reg .pred %p<64>; .reg .b32 %r<256>; .reg .b64 %rd<16>;
  .shared .align 16 .b8 sm[128];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  ld.param.u64 %rd1, [p0];
  ld.param.u64 %rd2, [p1];
  ld.param.u64 %rd3, [p2];
  ld.param.u32 %r3, [n];
  and.b32 %r4, %r1, 31;
  shr.u32 %r5, %r1, 5;
  mov.u32 %r6, sm;
"""


def loads(n: int, warps: int) -> str:
    """`n` masked loads per thread (other = 0), each a flag `x > 0` summed into %r40."""
    out = [f"  mul.lo.s32 %r7, %r2, {32 * warps * n};\n  mad.lo.s32 %r8, %r1, {n}, %r7;\n"
           "  mul.wide.s32 %rd4, %r8, 4;\n  add.s64 %rd5, %rd1, %rd4;\n"]
    for i in range(n):
        out.append(f"  add.s32 %r{10 + i}, %r8, {i};\n  setp.lt.s32 %p{1 + i}, %r{10 + i}, %r3;\n"
                   f"  mov.u32 %r{20 + i}, 0;\n  @%p{1 + i} ld.global.b32 %r{20 + i}, [%rd5+{4 * i}];\n")
    for i in range(n):
        out.append(f"  setp.gt.s32 %p{10 + i}, %r{20 + i}, 0;\n  selp.b32 %r{30 + i}, 1, 0, %p{10 + i};\n")
    cur = "%r30"
    for i in range(1, n):
        out.append(f"  add.s32 %r{40 + i}, {cur}, %r{30 + i};\n")
        cur = f"%r{40 + i}"
    out.append(f"  mov.b32 %r40, {cur};\n")
    return "".join(out)


SCAN = "".join(f"  shfl.sync.up.b32 %r{60 + j}, {'%r40' if j == 0 else f'%r{70 + j - 1}'}, {1 << j}, 0, -1;\n"
               f"  setp.ge.u32 %p{20 + j}, %r4, {1 << j};\n  selp.b32 %r{65 + j}, %r{60 + j}, 0, %p{20 + j};\n"
               f"  add.s32 %r{70 + j}, {'%r40' if j == 0 else f'%r{70 + j - 1}'}, %r{65 + j};\n" for j in range(5))


def exchange(warps: int) -> str:
    """The warps' totals through shared memory: lane 31 stores, every thread adds those of the warps before it
    (%r80: its inclusive prefix) and all of them (%r81: the block total)."""
    if warps == 1:
        return "  mov.b32 %r80, %r74;\n  shfl.sync.idx.b32 %r81, %r74, 31, 31, -1;\n"
    out = ["  setp.eq.s32 %p30, %r4, 31;\n  shl.b32 %r76, %r5, 2;\n  add.s32 %r77, %r6, %r76;\n"
           "  @%p30 st.shared.b32 [%r77], %r74;\n  bar.sync 0;\n  mov.u32 %r82, 0;\n  mov.u32 %r83, 0;\n"]
    for w in range(warps):
        out.append(f"  ld.shared.b32 %r{100 + w}, [sm+{4 * w}];\n  setp.lt.u32 %p{31 + w}, {w}, %r5;\n"
                   f"  selp.b32 %r{110 + w}, %r{100 + w}, 0, %p{31 + w};\n  add.s32 %r82, %r82, %r{110 + w};\n"
                   f"  add.s32 %r83, %r83, %r{100 + w};\n")
    out.append("  add.s32 %r80, %r74, %r82;\n  mov.b32 %r81, %r83;\n  bar.sync 0;\n")
    return "".join(out)


def total(kind: str, warps: int) -> str:
    """The block total %r90: the exchange's (`shared`), or `tl.sum` of the flags again, by REDUX or butterflies."""
    if kind == "shared":
        return "  mov.b32 %r90, %r81;\n"
    if kind == "redux":
        warp = "  redux.sync.add.s32 %r84, %r40, -1;\n"
    else:
        warp, cur = "", "%r40"
        for j in range(5):
            warp += f"  shfl.sync.bfly.b32 %r{120 + j}, {cur}, {16 >> j}, 31, -1;\n  add.s32 %r{125 + j}, {cur}, %r{120 + j};\n"
            cur = f"%r{125 + j}"
        warp += f"  mov.b32 %r84, {cur};\n"
    if warps == 1:
        return warp + "  mov.b32 %r90, %r84;\n"
    out = warp + ("  setp.eq.s32 %p40, %r4, 0;\n  shl.b32 %r85, %r5, 2;\n  add.s32 %r86, %r6, %r85;\n"
                  "  @%p40 st.shared.b32 [%r86+64], %r84;\n  bar.sync 0;\n"
                  f"  setp.lt.s32 %p41, %r1, {warps};\n  shl.b32 %r87, %r1, 2;\n  add.s32 %r88, %r6, %r87;\n"
                  "  mov.u32 %r89, 0;\n  @%p41 ld.shared.b32 %r89, [%r88+64];\n")
    if kind == "redux":
        out += "  redux.sync.add.s32 %r90, %r89, -1;\n"
    else:
        cur = "%r89"
        for j in range(5):
            out += f"  shfl.sync.bfly.b32 %r{130 + j}, {cur}, {16 >> j}, 31, -1;\n  add.s32 %r{135 + j}, {cur}, %r{130 + j};\n"
            cur = f"%r{135 + j}"
        out += f"  mov.b32 %r90, {cur};\n"
    return out


def tail(op: str) -> str:
    """Thread 0 adds the total to the counter; every thread stores its flag's exclusive position."""
    out = "  setp.eq.s32 %p50, %r1, 0;\n  sub.s32 %r91, %r80, %r40;\n"
    if op == "red":
        out += ("  @%p50 red.global.add.u32 [%rd2], %r90;\n  mov.u32 %r93, 0;\n")
    else:
        sem = ".gpu.acq_rel" if op == "acqrel" else ""
        out += (f"  mov.u32 %r92, 0;\n  @%p50 atom.global{sem}.add.u32 %r92, [%rd2], %r90;\n"
                "  @%p50 st.shared.b32 [sm+120], %r92;\n  bar.sync 0;\n  ld.shared.b32 %r93, [sm+120];\n")
    return out + ("  add.s32 %r94, %r93, %r91;\n  mul.wide.s32 %rd6, %r8, 4;\n  add.s64 %rd7, %rd3, %rd6;\n"
                  "  st.global.b32 [%rd7], %r94;\n  ret;\n}\n")


TARGETS = ["sm_80", "sm_90", "sm_100a", "sm_120"]


def variations() -> dict[str, str]:
    out = {}
    for n in (1, 4):
        for warps in (1, 4, 8):
            for kind in ("shared", "redux", "bfly"):
                for op in ("acqrel", "relaxed", "red"):
                    out[f"l{n}_w{warps}_{kind}_{op}"] = HEAD + loads(n, warps) + SCAN + exchange(warps) \
                        + total(kind, warps) + tail(op)
    for n in (2, 3, 5, 6, 7, 8):            # the number of loads per thread, four warps, a relaxed atomic
        for kind in ("shared", "redux", "bfly"):
            out[f"l{n}_w4_{kind}_relaxed"] = HEAD + loads(n, 4) + SCAN + exchange(4) + total(kind, 4) + tail("relaxed")
    return out


if __name__ == "__main__":
    raise SystemExit(run(variations(), TARGETS))
