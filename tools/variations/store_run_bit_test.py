"""Whether ptxas keeps a run of guarded shared stores (Triton's `@p st.shared` inline-asm form) a branch, by how its
guard is computed: a `setp.eq|ne` of an `and`/`or`/`xor` result against 0 (one predicate-writing LOP3 in SASS)
against other compares (docs/findings/convergence.md "A run of guarded stores under a bit test is predicated
(helper tscan36, stop 36)")."""
from __future__ import annotations

from pylower.tools.variations.table import run

GUARDS = {
    # kept a branch by ptxas
    "lane31": "  and.b32 %r2, %r1, 31;\n  setp.eq.s32 %p1, %r2, 31;\n",
    "lane31_ne": "  and.b32 %r2, %r1, 31;\n  setp.ne.s32 %p1, %r2, 31;\n",
    "lane_lt16": "  and.b32 %r2, %r1, 31;\n  setp.lt.u32 %p1, %r2, 16;\n",
    "lane_gt0": "  and.b32 %r2, %r1, 31;\n  setp.gt.u32 %p1, %r2, 0;\n",
    "lane_lt1": "  and.b32 %r2, %r1, 31;\n  setp.lt.u32 %p1, %r2, 1;\n",
    "bit_eq1": "  and.b32 %r2, %r1, 1;\n  setp.eq.s32 %p1, %r2, 1;\n",
    "tid_eq0": "  setp.eq.s32 %p1, %r1, 0;\n",
    "tid_ne0": "  setp.ne.s32 %p1, %r1, 0;\n",
    "bfe_eq0": "  bfe.u32 %r2, %r1, 4, 1;\n  setp.eq.s32 %p1, %r2, 0;\n",
    "shr_eq0": "  shr.u32 %r2, %r1, 5;\n  setp.eq.s32 %p1, %r2, 0;\n",
    "add_eq0": "  add.s32 %r2, %r1, %r9;\n  setp.eq.s32 %p1, %r2, 0;\n",
    "not_eq0": "  not.b32 %r2, %r1;\n  setp.eq.s32 %p1, %r2, 0;\n",
    # predicated by ptxas
    "lane0": "  and.b32 %r2, %r1, 31;\n  setp.eq.s32 %p1, %r2, 0;\n",
    "lane0_ne": "  and.b32 %r2, %r1, 31;\n  setp.ne.s32 %p1, %r2, 0;\n",
    "lane0_rev": "  and.b32 %r2, %r1, 31;\n  setp.eq.s32 %p1, 0, %r2;\n",
    "bit16": "  and.b32 %r2, %r1, 16;\n  setp.ne.s32 %p1, %r2, 0;\n",
    "shr_bit": "  shr.u32 %r3, %r1, 4;\n  and.b32 %r2, %r3, 1;\n  setp.ne.b32 %p1, %r2, 0;\n",
    "and_reg": "  and.b32 %r2, %r1, %r9;\n  setp.eq.s32 %p1, %r2, 0;\n",
    "and64": "  cvt.u64.u32 %rd9, %r1;\n  and.b64 %rd10, %rd9, 31;\n  setp.eq.s64 %p1, %rd10, 0;\n",
    "xor_eq0": "  xor.b32 %r2, %r1, %r9;\n  setp.eq.s32 %p1, %r2, 0;\n",
    "or_eq0": "  or.b32 %r2, %r1, %r9;\n  setp.eq.s32 %p1, %r2, 0;\n",
    # predicated by ptxas, not modelled (the remainder / quotient expansions)
    "rem_eq0": "  rem.u32 %r2, %r1, 3;\n  setp.eq.s32 %p1, %r2, 0;\n",
    "div_eq0": "  div.u32 %r2, %r1, %r9;\n  setp.eq.s32 %p1, %r2, 0;\n",
}

HEAD = """.version 9.0
.target {target}
.address_size 64
.visible .entry k(.param .u64 out, .param .u32 n)
{
  .reg .b32 %r<200>;
  .reg .b64 %rd<32>;
  .reg .pred %p<16>;
  .shared .align 16 .b8 smem[8192];
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r9, [n];
  mov.u32 %r1, %tid.x;
  bar.sync 0;
"""
BODY = """  mov.u32 %r40, smem;
  shr.u32 %r41, %r1, 5;
  shl.b32 %r41, %r41, 2;
  add.s32 %r42, %r40, %r41;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd1, %rd3;
"""
# (a barrier opens the kernel so that every row has a sync instruction: the `end` rows under a bit test have none else)
# after the run: a barrier, a shared load and a global store; or the kernel's end
TAILS = {"bar": "  bar.sync 0;\n  ld.shared.u32 %r50, [%r42+4];\n  st.global.u32 [%rd4], %r50;\n", "end": ""}


def kernel(guard: str, n: int, tail: str) -> str:
    text = HEAD + GUARDS[guard] + BODY
    text += "".join(f"  add.s32 %r{100 + k}, %r1, {3 + 7 * k};\n" for k in range(n))
    text += "".join(f"  @%p1 st.shared.u32 [%r42+{16 * k}], %r{100 + k};\n" for k in range(n))
    return text + TAILS[tail] + "  ret;\n}\n"


def reds(guard: str) -> str:
    """Five guarded global reds, then the barrier tail: under a compare a pair and a nest, under predicate logic
    (or a bit test) a pair each."""
    text = HEAD + GUARDS[guard] + BODY
    text += "".join(f"  @%p1 red.global.add.u32 [%rd4+{4 * k}], %r1;\n" for k in range(5))
    return text + TAILS["bar"] + "  ret;\n}\n"


RED_GUARDS = ("lane31", "lane_lt1", "bit_eq1", "tid_eq0", "lane0", "bit16", "shr_bit", "xor_eq0")


TARGETS = ["sm_75", "sm_80", "sm_90", "sm_100a"]


def variations() -> dict[str, str]:
    out = {f"{g}_n{n}_{tail}": kernel(g, n, tail) for g in GUARDS for n, tail in ((3, "bar"), (8, "end"))}
    out.update({f"{g}_red5": reds(g) for g in RED_GUARDS})
    return out


if __name__ == "__main__":
    raise SystemExit(run(variations(), TARGETS))
