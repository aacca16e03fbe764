"""The thread-dependence model of pylower-lint (lint/threads.py) on small register computations: which
values are the same in the CTA, in a warp, or differ between lanes."""
from __future__ import annotations

import pytest

from pylower.lint import threads as T
from pylower.lint.facts import ModuleFacts
from pylower.lowering import ptx_ast as A

PTX = """
.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out, .param .u32 n)
{
	.reg .pred 	%p<20>;
	.reg .b32 	%r<60>;
	.reg .b64 	%rd<8>;
	.shared .align 4 .b8 smem[512];
	ld.param.u64 	%rd1, [out];
	ld.param.u32 	%r50, [n];
	mov.u32 	%r1, %tid.x;
	shr.u32 	%r2, %r1, 5;             // warp index
	div.u32 	%r3, %r1, 32;
	and.b32 	%r4, %r1, -32;
	and.b32 	%r5, %r1, 31;            // lane (the same pattern in every warp)
	setp.lt.u32 	%p1, %r1, 128;
	setp.lt.u32 	%p2, %r1, 100;
	setp.gt.u32 	%p3, %r1, 63;
	mov.u32 	%r6, %laneid;
	setp.lt.u32 	%p4, %r6, 32;            // always true
	bfe.u32 	%r7, %r1, 5, 3;
	mov.u32 	%r8, %ctaid.x;
	setp.ne.s32 	%p5, %r1, 0;
	bar.red.or.pred 	%p6, 0, %p5;
	setp.lt.u32 	%p7, %r6, 16;
	vote.sync.any.pred 	%p8, %p7, -1;           // the same in every warp
	shfl.sync.bfly.b32 	%r10, %r1, 16, 31, -1;
	max.u32 	%r11, %r1, %r10;
	shfl.sync.bfly.b32 	%r12, %r11, 8, 31, -1;
	max.u32 	%r13, %r11, %r12;
	shfl.sync.bfly.b32 	%r14, %r13, 4, 31, -1;
	max.u32 	%r15, %r13, %r14;
	shfl.sync.bfly.b32 	%r16, %r15, 2, 31, -1;
	max.u32 	%r17, %r15, %r16;
	shfl.sync.bfly.b32 	%r18, %r17, 1, 31, -1;
	max.u32 	%r19, %r17, %r18;        // butterfly: the warp's maximum
	mov.u32 	%r20, smem;
	and.b32 	%r21, %r1, 3;
	shl.b32 	%r22, %r21, 2;
	add.s32 	%r23, %r20, %r22;
	ld.shared.u32 	%r24, [%r23];            // smem[lane & 3]: lane-only
	redux.sync.max.u32 	%r25, %r24, -1;     // the same in the whole CTA
	mov.u32 	%r26, %tid.y;
	mov.u32 	%r27, %ntid.x;
	mad.lo.s32 	%r28, %r26, %r27, %r1;     // linear thread id
	shr.u32 	%r29, %r28, 5;
	shfl.sync.idx.b32 	%r30, %r1, 0, 31, -1;   // broadcast of lane 0
	mov.u32 	%r31, 0;
	@%p2 bra 	$L1;
	mov.u32 	%r31, 1;
$L1:
	add.s32 	%r32, %r31, %r50;        // a phi of a lane-dependent branch
	atom.global.add.u32 	%r33, [%rd1], 1;
	elect.sync 	%r34|%p9, -1;
	st.global.u32 	[%rd1], %r32;
	ret;
}
"""


@pytest.fixture(scope="module")
def th():
    m = ModuleFacts(PTX, "k.ptx")
    return m.facts(m.kernels()[0]).threads


U, W, L = T.UNIFORM, T.WARP, T.LANE


@pytest.mark.parametrize("reg,level", [
    ("%r2", W), ("%r3", W), ("%r4", W), ("%r5", L), ("%p1", W), ("%p2", L), ("%p3", W), ("%p4", U),
    ("%r7", W), ("%r8", U), ("%r50", U), ("%p6", U), ("%p8", U), ("%r10", L), ("%r11", L), ("%r19", W),
    ("%r24", L), ("%r25", U), ("%r29", W), ("%r30", W), ("%r32", L), ("%r33", L), ("%r34", W), ("%p9", L),
])
def test_levels(th, reg, level):
    v = th.reg(reg)
    assert T.level(v) == level, f"{reg}: {v}"


def test_lane_only_values(th):
    assert th.reg("%r5").warps == 0 and th.reg("%r24").warps == 0      # lane & 31, smem[lane & 3]
    assert th.reg("%r1").warps == 1
    assert th.reg("%r22").lanes == 0b11                               # depends on lane bits 0 and 1 only


def test_one_warp_cta_makes_warp_values_uniform():
    m = ModuleFacts(PTX.replace(".visible .entry k(.param .u64 out, .param .u32 n)",
                                ".visible .entry k(.param .u64 out, .param .u32 n)\n.reqntid 32"), "k.ptx")
    th = m.facts(m.kernels()[0]).threads
    assert th.level_of(A.Reg("%r2")) == U and th.level_of(A.Reg("%p2")) == L
