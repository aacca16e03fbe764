"""Loops with divergent exits (CAS, spin and flag loops): BSSY/BSYNC placement and form, and the sm_75
loop convergence test (rules: docs/phases/72_LateExpandSyncInstructions.md; probes phases/loop_*)."""
import pytest

from pylower.pipeline import compile_text
from pylower.sass import eiattr
from pylower.tools.conformance import sync_view

HEAD = """.version 9.0
.target {target}
.address_size 64
.visible .entry k(.param .u64 p)
{{
  .reg .b32 %r<16>;
  .reg .b64 %rd<8>;
  .reg .pred %p<4>;
  ld.param.u64 %rd1, [p];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd2, %rd3;
  mov.u32 %r5, 0;
  mov.u32 %r3, 0;
$L_loop:
{body}
  @%p1 bra $L_loop;
  st.global.u32 [%rd2], %r5;
  ret;
}}
"""
SPIN_ATOM = """  atom.global.add.u32 %r4, [%rd4], 1;
  add.u32 %r5, %r5, 1;
  setp.ne.u32 %p1, %r4, 0;"""
SPIN_VOLATILE = """  ld.volatile.global.u32 %r4, [%rd4];
  add.u32 %r5, %r5, 1;
  setp.ne.u32 %p1, %r4, 0;"""
PLAIN_LOAD = """  ld.global.u32 %r4, [%rd4];
  add.u32 %r5, %r5, 1;
  add.s64 %rd4, %rd4, 4;
  setp.ne.u32 %p1, %r4, 0;"""
COUNTED_ATOM = """  atom.global.add.u32 %r4, [%rd2], 1;
  add.u32 %r5, %r5, %r4;
  add.u32 %r3, %r3, 1;
  setp.lt.u32 %p1, %r3, %r1;"""


def compile_loop(body, arch, opt_level=3):
    res = compile_text(HEAD.format(body=body, target=arch), "t.ptx", arch, opt_level=opt_level)
    fn = next(f for f in res.program.functions if f.name == "k")
    return sync_view(fn), eiattr.counts(fn.eiattr)


@pytest.mark.parametrize("body", [SPIN_ATOM, SPIN_VOLATILE])
def test_spin_loop_pair_stays_plain_on_sm100(body):
    view, _ = compile_loop(body, "sm_100a")
    assert view[0] == "BSSY" and view[-1] == "BSYNC"


@pytest.mark.parametrize("body", [PLAIN_LOAD, COUNTED_ATOM])
def test_other_loops_reconvergent_on_sm100(body):
    view, _ = compile_loop(body, "sm_100a")
    assert view[0] == "BSSY.RECONVERGENT" and view[-1] == "BSYNC.RECONVERGENT"


@pytest.mark.parametrize("body", [SPIN_ATOM, SPIN_VOLATILE, COUNTED_ATOM])
def test_sm75_loop_test_when_loop_reads_shared_state(body):
    view, counts = compile_loop(body, "sm_75")
    assert view[:2] == ["BMOV.32.CLEAR", "BSSY"] and view[-3:] == ["VOTE.ANY", "VOTEU.ANY", "BSYNC"]
    assert counts.get("EIATTR_INT_WARP_WIDE_INSTR_OFFSETS", 0) >= 2


def test_no_loop_test_for_plain_loads_or_after_sm75():
    assert compile_loop(PLAIN_LOAD, "sm_75")[0] == ["BMOV.32.CLEAR", "BSSY", "BSYNC"]
    assert "VOTE.ANY" not in compile_loop(SPIN_ATOM, "sm_80")[0]


def test_O0_loop_test_uses_two_votes():
    view, _ = compile_loop(SPIN_ATOM, "sm_75", opt_level=0)
    assert view.count("VOTE.ANY") == 2 and "VOTEU.ANY" not in view


CAS_HEADER_EXIT = """.version 9.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 p)
{
  .reg .b32 %r<20>;
  .reg .f32 %f<4>;
  .reg .b64 %rd<8>;
  .reg .pred %p<4>;
  ld.param.u64 %rd1, [p];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %tid.x;
  cvt.rn.f32.u32 %f1, %r1;
  mov.b32 %r3, %f1;
  ld.global.u32 %r16, [%rd2];
$L__BB0_1:
  mov.b32 %f2, %r16;
  setp.le.f32 %p1, %f1, %f2;
  @%p1 bra $L__BB0_3;
  atom.global.cas.b32 %r5, [%rd2], %r16, %r3;
  setp.ne.s32 %p2, %r5, %r16;
  mov.u32 %r16, %r5;
  @%p2 bra $L__BB0_1;
$L__BB0_3:
  st.global.u32 [%rd2+4], %r16;
  ret;
}
"""


def test_cas_loop_exit_in_header_gets_one_pair():
    res = compile_text(CAS_HEADER_EXIT, "t.ptx", "sm_80")
    fn = next(f for f in res.program.functions if f.name == "k")
    assert sync_view(fn) == ["BSSY", "ATOMG.E.CAS.STRONG.GPU", "BSYNC"]


HEADER_TESTED = """.version 8.7
.target {target}
.address_size 64
.shared .align 4 .b8 sm[128];
.visible .entry k(.param .u64 p, .param .u32 n)
{{
.reg .b32 %r<40>;
.reg .b64 %rd<10>;
.reg .pred %p<10>;
ld.param.u64 %rd1, [p];
ld.param.u32 %r9, [n];
mov.u32 %r1, %tid.x;
mul.wide.u32 %rd2, %r1, 4;
add.s64 %rd3, %rd1, %rd2;
ld.global.u32 %r2, [%rd3];
mov.u32 %r5, 0;
L:
{pre}shfl.sync.bfly.b32 %r3, %r2, 1, 31, -1;
setp.ge.s32 %p1, %r3, %r9;
@%p1 bra OUT;
add.u32 %r2, %r2, %r3;
add.u32 %r5, %r5, 1;
bra.uni L;
OUT:
st.global.u32 [%rd3], %r5;
ret;
}}
"""


@pytest.mark.parametrize("arch", ["sm_80", "sm_89"])
@pytest.mark.parametrize("pre, expected", [
    ("", ["BSSY", "SHFL.BFLY", "BSYNC"]),
    ("bar.sync 0;\n", ["BSSY", "WARPSYNC", "BAR.SYNC.DEFER_BLOCKING 0x0", "SHFL.BFLY", "BSYNC"]),
])
def test_header_tested_loop_pair_in_preheader(arch, pre, expected):
    # a header-tested loop left by a per-lane test: the BSSY at the end of the preheader, not at the exit branch
    # (docs/findings/convergence.md "A header-tested loop left by a per-lane test is paired as a loop (helper
    # tred26, stop 26)"; probes phases/loop_head_exit_*)
    res = compile_text(HEADER_TESTED.format(target=arch, pre=pre), "t.ptx", arch)
    view = sync_view(res.program.functions[0])
    assert view[:len(expected)] == expected


@pytest.mark.parametrize("arch", ["sm_80", "sm_90", "sm_100a"])
@pytest.mark.parametrize("row, expected", [
    # a break out of one arm of an if/else in a do-while loop: the if's own pair to the latch, left by a BREAK,
    # inside the loop's pair; a WARPSYNC after the loop's BSYNC
    ("do_then", ["BSSY", "BSSY", "BREAK", "BSYNC", "BSYNC", "WARPSYNC"]),
    # the loop skipped by a uniform count test: no WARPSYNC
    ("for_then", ["BSSY", "BSSY", "BREAK", "BSYNC", "BSYNC"]),
    # an arm that only leaves (`if (odd) { r = -1; break; }`) is a plain loop exit: one pair
    ("skipdiv_uncond", ["BSSY", "BSYNC"]),
    # straight code whose M holds only register work: no inner pair
    ("straight_alu", ["BSSY", "BSYNC"]),
])
def test_if_left_by_break_gets_break_nest(arch, row, expected):
    # docs/findings/convergence.md "An if left by a break or continue gets a BREAK nest (helper nvreg38, stop 38)"
    from pylower.tools.variations.break_nest import variations
    res = compile_text(variations()[row].replace("{target}", arch), "t.ptx", arch)
    view = [s.split()[0].split(".")[0] for s in sync_view(res.program.functions[0])]
    assert view == expected
