"""Whether ptxas predicates a run of guarded shared stores (`@p st.shared` under one lane test, Triton's inline-asm
form of a scan's or reduction's per-warp total) or keeps it a branch, by the number of stores and by what follows
them in the block: a CTA barrier, a shared load, both, or only unguarded global work that ptxas can issue before
them (docs/findings/convergence.md "Two guarded shared stores before shared-memory work stay a branch (helper
tscan35, stop 35)"). Every row broadcasts lane 0's index with a shuffle before the stores (a sync instruction in every row's view)."""
from __future__ import annotations

from pylower.tools.variations.table import run

HEAD = """.version 8.7
.target {target}
.address_size 64
.visible .entry k(.param .u64 p0)
{
  .reg .pred %p<8>; .reg .b32 %r<32>; .reg .f32 %f<16>; .reg .b64 %rd<8>;
  .shared .align 4 .b8 sm[256];
  mov.u32 %r1, %tid.x;
  ld.param.u64 %rd1, [p0];
  and.b32 %r2, %r1, 31;
  shfl.sync.idx.b32 %r30, %r1, 0, 31, -1;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.f32 %f1, [%rd4];
  ld.global.f32 %f2, [%rd4+512];
  setp.eq.u32 %p1, %r2, 31;
  mov.u32 %r10, sm;
  shr.u32 %r11, %r1, 3;
  and.b32 %r12, %r11, 124;
  add.s32 %r13, %r10, %r12;
"""
NO_LOAD_HEAD = HEAD.replace("  ld.global.f32 %f1, [%rd4];\n  ld.global.f32 %f2, [%rd4+512];\n",
                            "  cvt.rn.f32.u32 %f1, %r1;\n  cvt.rn.f32.u32 %f2, %r2;\n")
STORES = ["  @%p1 st.shared.f32 [%r13], %f1;\n", "  @%p1 st.shared.f32 [%r13+128], %f2;\n",
          "  @%p1 st.shared.f32 [%r13+64], %f2;\n"]
# what follows the run (then the loaded values' sum, stored unguarded: the loads are no branch-only work)
TAILS = {
    "bar_lds": "  bar.sync 0;\n  ld.shared.f32 %f3, [%r10];\n",
    "lds": "  ld.shared.f32 %f3, [%r10];\n",
    "bar": "  bar.sync 0;\n  mov.f32 %f3, 0f00000000;\n",
    "stg": "  mov.f32 %f3, 0f00000000;\n  st.global.f32 [%rd4+1024], %f1;\n",
    "alu": "  mov.f32 %f3, 0f00000000;\n",
}
END = """  st.global.u32 [%rd4+8], %r30;
  add.f32 %f5, %f1, %f2;
  add.f32 %f6, %f5, %f3;
  st.global.f32 [%rd4], %f6;
  ret;
}
"""
TARGETS = ["sm_80", "sm_90", "sm_100a"]


# the same pair as global stores (a run of global stores, docs/findings/convergence.md "A guarded atomic after a run;
# runs of global stores (helper tconv25, stop 25)")
GLOBAL_PAIR = ["  @%p1 st.global.f32 [%rd4+2048], %f1;\n", "  @%p1 st.global.f32 [%rd4+2052], %f2;\n"]


def variations() -> dict[str, str]:
    out = {f"stores{n}_{tail}": HEAD + "".join(STORES[:n]) + text + END
           for n in (1, 2, 3) for tail, text in TAILS.items()}
    out.update({f"global2_{tail}": HEAD + "".join(GLOBAL_PAIR) + text + END for tail, text in TAILS.items()})
    # the shared pair with no global load before it (its values computed from the thread index)
    out.update({f"noload2_{tail}": NO_LOAD_HEAD + "".join(STORES[:2]) + TAILS[tail] + END
                for tail in ("bar_lds", "lds", "bar")})
    return out


if __name__ == "__main__":
    raise SystemExit(run(variations(), TARGETS, frozenset({"BSSY", "BSYNC", "BAR", "WARPSYNC", "BRA"})))
