"""Where the BSSY of the region after a warp butterfly goes among the shuffles on sm_90+ (docs/findings/
convergence.md "... (helper nvwarp34, stop 34)"): a warp-per-row block (the row's column loop or not), an
N-step shfl.bfly chain, then a guarded column loop reading the reduced value."""
from __future__ import annotations

from pylower.tools.variations.table import run

HEAD = """.version 8.7
.target {target}
.address_size 64
.visible .entry k(.param .u64 p, .param .u64 q, .param .u32 n)
{
  .reg .pred %p<8>; .reg .b32 %r<80>; .reg .f32 %f<80>; .reg .b64 %rd<20>;
  ld.param.u64 %rd1, [p]; ld.param.u64 %rd11, [q]; ld.param.u32 %r1, [n];
  cvta.to.global.u64 %rd1, %rd1; cvta.to.global.u64 %rd11, %rd11;
  mov.u32 %r2, %tid.x;
  and.b32 %r3, %r2, 31;
  mul.wide.u32 %rd2, %r2, 4; add.s64 %rd3, %rd1, %rd2;
  setp.ge.s32 %p1, %r3, %r1;
"""
# the row guard `if (row < rows)` around everything (the butterfly then in divergent code: BRA.DIV)
GUARD = """  shr.u32 %r7, %r2, 5;
  setp.ge.u32 %p7, %r7, %r1;
  @%p7 bra JE;
"""
# the block before the butterfly: %f1 is the lane's value
PRE = {
    "loop": """  mov.f32 %f1, 0fFF7FFFFF;
  @%p1 bra J1;
  mov.u32 %r4, %r3;
L1:
  mul.wide.s32 %rd4, %r4, 4; add.s64 %rd5, %rd1, %rd4;
  ld.global.f32 %f2, [%rd5];
  max.f32 %f1, %f1, %f2;
  add.s32 %r4, %r4, 32;
  setp.lt.s32 %p2, %r4, %r1;
  @%p2 bra L1;
J1:
""",
    "ldg": "  ld.global.f32 %f1, [%rd3];\n",
    "if": """  mov.f32 %f1, 0fFF7FFFFF;
  @%p1 bra J1;
  ld.global.f32 %f1, [%rd3];
  atom.global.add.u32 %r5, [%rd3+4096], 1;
  cvt.rn.f32.u32 %f2, %r5; add.f32 %f1, %f1, %f2;
J1:
""",
}
# the column loop storing the reduced value %fm, after a test that skips it to J2
_COLUMN_LOOP = """  mov.u32 %r6, %r3;
L2:
  mul.wide.s32 %rd6, %r6, 4; add.s64 %rd7, %rd11, %rd6;
  st.global.f32 [%rd7], %fm;
  add.s32 %r6, %r6, 32;
  setp.lt.s32 %p3, %r6, %r1;
  @%p3 bra L2;
J2:
  ret;
}
"""
POST = {
    # guarded column loop reading the reduced value %fm
    "loop": "  @%p1 bra J2;\n" + _COLUMN_LOOP,
    # the test reads the reduced value
    "loop_mtest": "  setp.gt.f32 %p4, %fm, 0f00000000;\n  @%p4 bra J2;\n" + _COLUMN_LOOP,
    # an accumulator set before the guard and read after the join (the row sum of a softmax)
    "sum": """  mov.f32 %f60, 0f00000000;
  @%p1 bra J2;
  mov.u32 %r6, %r3;
L2:
  mul.wide.s32 %rd6, %r6, 4; add.s64 %rd7, %rd1, %rd6;
  ld.global.f32 %f61, [%rd7];
  sub.f32 %f62, %f61, %fm;
  add.f32 %f60, %f60, %f62;
  add.s32 %r6, %r6, 32;
  setp.lt.s32 %p3, %r6, %r1;
  @%p3 bra L2;
J2:
  st.global.f32 [%rd3+8192], %f60;
  ret;
}
""",
}


def chain(n: int, op: str = "max.f32") -> str:
    out, v = [], "%f1"
    for i in range(n):
        out += [f"  mov.b32 %r{20 + i}, {v};",
                f"  shfl.sync.bfly.b32 %r{40 + i}, %r{20 + i}, {16 >> i if i < 5 else 1}, 31, -1;",
                f"  mov.b32 %f{20 + i}, %r{40 + i};",
                f"  {op} %f{40 + i}, {v}, %f{20 + i};"]
        v = f"%f{40 + i}"
    return "\n".join(out) + "\n", v


def variations() -> dict[str, str]:
    out = {}
    for guard in ("", "g_"):
        for pre in PRE:
            for n in (1, 2, 3, 5):
                for op in ("max.f32", "add.f32"):
                    for post in POST:
                        body, v = chain(n, op)
                        text = POST[post].replace("%fm", v)
                        if guard:
                            text = text.replace("  ret;\n}", "JE:\n  st.global.u32 [%rd3+12288], %r2;\n  ret;\n}")
                        out[f"{guard}{pre}_s{n}_{op[:3]}_{post}"] = (HEAD + (GUARD if guard else "") + PRE[pre]
                                                                     + body + text)
    return out


TARGETS = ["sm_80", "sm_90", "sm_100a", "sm_120"]

if __name__ == "__main__":
    raise SystemExit(run(variations(), TARGETS, frozenset({"BSSY", "BSYNC", "SHFL"})))
