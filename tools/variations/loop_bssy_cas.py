"""Where the BSSY opening a program's CAS retry loop goes, against the block in front of the loop (docs/findings/
scheduling.md "The BSSY opening a program's loop is a unit of its block (lead, stop 33)")."""
from __future__ import annotations

from pylower.tools.variations.table import run

HEAD = """.version 8.7
.target {target}
.address_size 64
.visible .entry k(.param .u64 p0, .param .u64 p1, .param .u32 n)
{
  .reg .pred %p<8>; .reg .b32 %r<40>; .reg .b64 %rd<40>;
  .shared .align 8 .b8 sm[1024];
  mov.u32 %r2, %tid.x;
  ld.param.u64 %rd3, [p0];
  ld.param.u64 %rd4, [p1];
  mul.wide.u32 %rd5, %r2, 8;
  add.s64 %rd6, %rd4, %rd5;
  mov.u32 %r31, sm;
  shl.b32 %r32, %r2, 3;
  add.s32 %r33, %r31, %r32;
"""
LOOP = """  ld.relaxed.sys.global.b64 %rd11, [%rd3+16];
L3:
  mad.lo.s64 %rd9, %rd1, %rd1, %rd11;
  atom.acq_rel.sys.global.cas.b64 %rd2, [%rd3+16], %rd11, %rd9;
  setp.ne.b64 %p2, %rd2, %rd11;
  mov.b64 %rd11, %rd2;
  @%p2 bra L3;
  st.global.u64 [%rd3+32], %rd2;
  ret;
}
"""
# the block in front of the loop (%rd1: the value the loop reads)
PRE = {
    "ldg": "ld.global.b64 %rd1, [%rd6];",
    "param": "mov.b64 %rd1, %rd5;",
    "ldg_red1": "ld.global.b64 %rd1, [%rd6]; red.global.add.u64 [%rd3], %rd1;",
    "ldg_red2": "ld.global.b64 %rd1, [%rd6]; red.global.add.u64 [%rd3], %rd1; red.global.add.u64 [%rd3+8], %rd1;",
    "param_red2": "mov.b64 %rd1, %rd5; red.global.add.u64 [%rd3], %rd1; red.global.add.u64 [%rd3+8], %rd1;",
    "ldg_atom2_used": "ld.global.b64 %rd1, [%rd6]; atom.global.add.u64 %rd7, [%rd3], %rd1; "
                      "atom.global.add.u64 %rd8, [%rd3+8], %rd1; add.s64 %rd1, %rd1, %rd7; add.s64 %rd1, %rd1, %rd8;",
    "param_atom1_used": "atom.global.add.u64 %rd7, [%rd3], %rd5; add.s64 %rd1, %rd5, %rd7;",
    "ldg_stg": "ld.global.b64 %rd1, [%rd6]; st.global.u64 [%rd3], %rd1;",
    "param_stg": "mov.b64 %rd1, %rd5; st.global.u64 [%rd3], %rd1;",
    "ldg_sts_bar": "ld.global.b64 %rd1, [%rd6]; st.shared.u64 [%r33], %rd1; bar.sync 0; ld.shared.u64 %rd1, [%r33+8];",
    "param_bar": "mov.b64 %rd1, %rd5; bar.sync 0;",
    "lds": "ld.shared.u64 %rd1, [%r33];",
    "lds_atoms": "ld.shared.u64 %rd1, [%r33]; atom.shared.add.u32 %r20, [%r33+512], 1; cvt.u64.u32 %rd12, %r20; "
                 "add.s64 %rd1, %rd1, %rd12;",
    "param_fence": "mov.b64 %rd1, %rd5; fence.acq_rel.gpu;",
    "ldg_fence": "ld.global.b64 %rd1, [%rd6]; fence.acq_rel.gpu;",
    "param_shfl": "cvt.u32.u64 %r21, %rd5; shfl.sync.bfly.b32 %r22, %r21, 1, 31, -1; cvt.u64.u32 %rd1, %r22;",
    "ldg_shfl": "ld.global.b64 %rd13, [%rd6]; cvt.u32.u64 %r21, %rd13; shfl.sync.bfly.b32 %r22, %r21, 1, 31, -1; "
                "cvt.u64.u32 %rd1, %r22;",
    "ldg_vote": "ld.global.b64 %rd1, [%rd6]; setp.ne.s64 %p5, %rd1, 0; vote.sync.ballot.b32 %r23, %p5, -1; "
                "st.global.u32 [%rd3+128], %r23;",
}
TARGETS = ["sm_75", "sm_80", "sm_90", "sm_100a"]


def variations() -> dict[str, str]:
    return {name: HEAD + "".join(f"  {s.strip()};\n" for s in pre.split(";") if s.strip()) + LOOP
            for name, pre in PRE.items()}


if __name__ == "__main__":
    raise SystemExit(run(variations(), TARGETS))
