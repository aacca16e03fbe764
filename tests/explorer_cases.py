"""Inputs the explorer tests share (tests/test_explorer.py, tests/test_explorer_browser.py)."""
from __future__ import annotations

# Two kernels: a shfl and a CTA barrier under divergent control (phase 72 inserts WARPSYNCs), a warp-aggregated
# atomic, and a release atomic after a fence (ISel sequences).
TWO_KERNELS = """\
.version 8.0
.target sm_90
.address_size 64

.visible .entry divergent_shfl(
	.param .u64 divergent_shfl_param_0
)
{
	.reg .pred 	%p<3>;
	.reg .b32 	%r<8>;
	.reg .b64 	%rd<3>;

	ld.param.u64 	%rd1, [divergent_shfl_param_0];
	cvta.to.global.u64 	%rd2, %rd1;
	mov.u32 	%r1, %tid.x;
	setp.lt.u32 	%p1, %r1, 16;
	mov.u32 	%r2, 0;
	@%p1 bra 	$L__low;
	shfl.sync.bfly.b32 	%r2, %r1, 1, 31, -1;
$L__low:
	bar.sync 	0;
	atom.global.add.u32 	%r3, [%rd2], %r2;
	st.global.u32 	[%rd2+4], %r3;
	ret;
}

.visible .entry release_flag(
	.param .u64 release_flag_param_0,
	.param .u32 release_flag_param_1
)
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<4>;
	.reg .b64 	%rd<3>;

	ld.param.u64 	%rd1, [release_flag_param_0];
	ld.param.u32 	%r1, [release_flag_param_1];
	cvta.to.global.u64 	%rd2, %rd1;
	st.global.u32 	[%rd2+8], %r1;
	membar.gl;
	atom.release.gpu.global.add.u32 	%r2, [%rd2], 1;
	setp.eq.s32 	%p1, %r2, 0;
	@%p1 bra 	$L__done;
	red.global.add.u32 	[%rd2+4], %r2;
$L__done:
	ret;
}
"""

# What ptxas 13.0.88 made of TWO_KERNELS for sm_90 (tools/ptxas_ref.compile_ptx(..., full=False)), recorded so
# that the page's comparison is tested without ptxas.
TWO_KERNELS_PTXAS_SM90 = {
    "accepted": True, "messages": [],
    "kernels": {
        "divergent_shfl": {
            "sync": ["WARPSYNC.ALL", "SHFL.BFLY", "WARPSYNC.ALL", "BAR.SYNC.DEFER_BLOCKING 0x0", "VOTE.ANY",
                     "ATOMG.E.ADD.STRONG.GPU", "SHFL.UP", "SHFL.UP", "SHFL.UP", "SHFL.UP", "SHFL.UP",
                     "ATOMG.E.ADD.STRONG.GPU", "SHFL.UP", "SHFL.IDX"],
            "sync_lines": ["WARPSYNC.ALL", "SHFL.BFLY PT, R5, R0, 0x1, 0x1f", "WARPSYNC.ALL",
                           "BAR.SYNC.DEFER_BLOCKING 0x0", "VOTE.ANY R0, PT, PT",
                           "@!P0 ATOMG.E.ADD.STRONG.GPU PT, R7, desc[UR4][R2.64], R5",
                           "SHFL.UP P0, R0, R5, 0x1, RZ", "SHFL.UP P0, R0, R9, 0x2, RZ",
                           "SHFL.UP P0, R0, R9, 0x4, RZ", "SHFL.UP P0, R0, R9, 0x8, RZ",
                           "SHFL.UP P0, R0, R9, 0x10, RZ", "@P1 ATOMG.E.ADD.STRONG.GPU PT, R0, desc[UR4][R2.64], R9",
                           "SHFL.UP P0, R4, R9, 0x1, RZ", "SHFL.IDX PT, R7, R0, 0x1f, 0x1f"],
            "eiattr": {"EIATTR_CUDA_API_VERSION": 130, "EIATTR_SPARSE_MMA_MASK": 0, "EIATTR_MAXREG_COUNT": 255,
                       "EIATTR_NUM_BARRIERS": 1, "EIATTR_INT_WARP_WIDE_INSTR_OFFSETS": 8,
                       "EIATTR_COOP_GROUP_MASK_REGIDS": 1, "EIATTR_COOP_GROUP_INSTR_OFFSETS": 1,
                       "EIATTR_EXIT_INSTR_OFFSETS": 1, "EIATTR_CRS_STACK_SIZE": 0, "EIATTR_SW_WAR": 8},
            "n_instrs": 35,
        },
        "release_flag": {
            "sync": ["MEMBAR.SC.GPU", "ERRBAR", "CGAERRBAR", "CCTL.IVALL", "VOTEU.ANY", "MEMBAR.ALL.GPU", "ERRBAR",
                     "CGAERRBAR", "ATOMG.E.ADD.STRONG.GPU", "SHFL.IDX", "REDUX.SUM", "VOTEU.ANY",
                     "REDG.E.ADD.STRONG.GPU"],
            "sync_lines": ["MEMBAR.SC.GPU", "ERRBAR", "CGAERRBAR", "CCTL.IVALL", "VOTEU.ANY UR4, UPT, PT",
                           "@P0 MEMBAR.ALL.GPU", "@P0 ERRBAR", "@P0 CGAERRBAR",
                           "@P0 ATOMG.E.ADD.STRONG.GPU PT, R5, desc[UR8][R2.64], R5", "SHFL.IDX PT, R0, R5, R4, 0x1f",
                           "REDUX.SUM UR7, R0", "VOTEU.ANY UR4, UPT, PT",
                           "@P0 REDG.E.ADD.STRONG.GPU desc[UR8][R2.64+-0x4], R5"],
            "eiattr": {"EIATTR_CUDA_API_VERSION": 130, "EIATTR_SPARSE_MMA_MASK": 0, "EIATTR_MAXREG_COUNT": 255,
                       "EIATTR_INT_WARP_WIDE_INSTR_OFFSETS": 4, "EIATTR_EXIT_INSTR_OFFSETS": 2, "EIATTR_SW_WAR": 8},
            "n_instrs": 38,
        },
    },
}


BIG_SECTIONS = 450  # sections of big_kernel_ptx that make a kernel of over 10,000 SASS instructions


def big_kernel_ptx(sections: int) -> str:
    """One kernel of `sections` repeats of: a divergent branch around a load and an atomic add, a CTA
    barrier, a butterfly shuffle, a shared store (about 23 SASS instructions each on sm_90: BIG_SECTIONS
    make a 10k-instruction kernel, with BSSY/BSYNC pairs, aggregated atomics and phase edits)."""
    body = []
    for k in range(sections):
        body += [
            f"\tsetp.eq.s32 \t%p1, %r3, {k % 32};",
            f"\t@%p1 bra \t$L__skip{k};",
            f"\tld.global.u32 \t%r4, [%rd1+{4 * k}];",
            "\tatom.global.add.u32 \t%r5, [%rd2], %r4;",
            "\tadd.s32 \t%r2, %r2, %r5;",
            f"$L__skip{k}:",
            "\tbar.sync \t0;",
            f"\tshfl.sync.bfly.b32 \t%r6, %r2, {1 << (k % 5)}, 31, -1;",
            "\tadd.s32 \t%r2, %r2, %r6;",
            f"\tst.shared.u32 \t[smem+{4 * (k % 64)}], %r2;",
        ]
    return "\n".join([
        ".version 8.0", ".target sm_90", ".address_size 64", "",
        ".shared .align 4 .b8 smem[256];", "",
        ".visible .entry big(", "\t.param .u64 big_param_0,", "\t.param .u64 big_param_1", ")", "{",
        "\t.reg .pred \t%p<4>;", "\t.reg .b32 \t%r<8>;", "\t.reg .b64 \t%rd<4>;", "",
        "\tld.param.u64 \t%rd1, [big_param_0];", "\tld.param.u64 \t%rd2, [big_param_1];",
        "\tcvta.to.global.u64 \t%rd1, %rd1;", "\tcvta.to.global.u64 \t%rd2, %rd2;",
        "\tmov.u32 \t%r1, %tid.x;", "\tand.b32 \t%r3, %r1, 31;", "\tmov.u32 \t%r2, 0;",
        *body,
        "\tst.global.u32 \t[%rd2+4], %r2;", "\tret;", "}", ""])
