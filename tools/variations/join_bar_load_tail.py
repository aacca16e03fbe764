"""Where ptxas issues the BSSY of a guarded atomic after a join whose first CTA barrier is followed by global loads
(tatom26's rule: right after that barrier), by what lies between the loads and the region's branch: more barriers,
a shared-memory exchange of the loaded values, stores of them (plain or guarded) (helper tconv37, stop 37)."""
from __future__ import annotations

from pylower.tools.variations.table import run

HEAD = """.version 8.7
.target {target}
.address_size 64
.visible .entry k(.param .u64 pa, .param .u64 pb, .param .u64 pc)
{
.reg .pred %p<10>; .reg .b32 %r<64>; .reg .b64 %rd<40>;
.shared .align 8 .b8 sm[2048];
ld.param.u64 %rd1, [pa]; ld.param.u64 %rd2, [pb]; ld.param.u64 %rd20, [pc];
mov.u32 %r1, %tid.x; and.b32 %r2, %r1, 128; setp.eq.b32 %p1, %r2, 0; setp.lt.u32 %p2, %r1, 100;
mul.wide.u32 %rd3, %r1, 8; add.s64 %rd4, %rd1, %rd3; add.s64 %rd5, %rd2, %rd3; add.s64 %rd21, %rd20, %rd3;
mov.u32 %r5, sm; shl.b32 %r6, %r1, 3; add.s32 %r7, %r5, %r6; xor.b32 %r8, %r7, 64;
ld.global.u64 %rd6, [%rd5]; ld.global.u64 %rd7, [%rd5+8];
mov.u64 %rd8, 0;
@%p1 atom.global.acq_rel.sys.cas.b64 %rd8, [%rd4], %rd6, %rd7;
@%p1 st.shared.b64 [%r7], %rd8; bar.sync 0; ld.shared.b64 %rd9, [%r7];
ld.global.u64 %rd12, [%rd5+16]; ld.global.u64 %rd13, [%rd5+24];
"""
TAIL = """bar.sync 0;
mov.u64 %rd14, 0; @%p1 atom.global.acq_rel.sys.cas.b64 %rd14, [%rd4+8], %rd12, %rd13;
@%p1 st.shared.b64 [%r7], %rd14; bar.sync 0; ld.shared.b64 %rd15, [sm];
st.global.u64 [%rd20], %rd9; st.global.u64 [%rd20+8], %rd15; ret;
}
"""
# between the loads and the last barrier before the region
MID = {
    "none": "",
    "bar": "bar.sync 0;\n",
    "bar_bar": "bar.sync 0;\nbar.sync 0;\n",
    "xchg": "add.s64 %rd16, %rd12, %rd13;\nbar.sync 0;\nst.shared.b64 [%r7], %rd16;\nbar.sync 0;\n"
            "ld.shared.b64 %rd17, [%r8];\nst.global.u64 [%rd21], %rd17;\n",
    "xchg_guarded_st": "add.s64 %rd16, %rd12, %rd13;\nbar.sync 0;\nst.shared.b64 [%r7], %rd16;\nbar.sync 0;\n"
                       "ld.shared.b64 %rd17, [%r8];\n@%p2 st.global.u64 [%rd21], %rd17;\n",
    "stg": "add.s64 %rd16, %rd12, %rd13;\nst.global.u64 [%rd21], %rd16;\n",
    "stg_guarded": "add.s64 %rd16, %rd12, %rd13;\n@%p2 st.global.u64 [%rd21], %rd16;\n",
    "xchg_noguard_noadd": "bar.sync 0;\nst.shared.b64 [%r7], %rd12;\nbar.sync 0;\nld.shared.b64 %rd17, [%r8];\n"
                          "st.global.u64 [%rd21], %rd17;\n",
    "sts_bar_lds": "st.shared.b64 [%r7], %rd12;\nbar.sync 0;\nld.shared.b64 %rd17, [%r8];\nst.global.u64 [%rd21], %rd17;\n",
}

TARGETS = ["sm_80", "sm_90"]


def variations() -> dict[str, str]:
    return {name: HEAD + mid + TAIL for name, mid in MID.items()}


if __name__ == "__main__":
    raise SystemExit(run(variations(), TARGETS, frozenset({"BSSY", "BSYNC", "BAR", "LDG", "STG", "STS", "LDS"})))
