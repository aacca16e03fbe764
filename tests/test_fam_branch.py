"""Guarded tails: `@p X; ret;` in a kernel becomes an early `@!p EXIT` (a second entry of
EIATTR_EXIT_INSTR_OFFSETS) from -O1 up; an unguarded instruction before the ret, or -O0, keeps one EXIT
(isel/fam_branch.py; probes phases/tail_guard_*)."""
import pytest

from pylower.pipeline import compile_text

HEAD = """.version 9.0
.target {target}
.address_size 64
.visible .entry k(.param .u64 p)
{{
  .reg .b32 %r<8>; .reg .b16 %h<2>; .reg .b64 %rd<4>; .reg .pred %p<4>;
  ld.param.u64 %rd1, [p];
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 16;
  cvt.u16.u32 %h1, %r1;
{tail}
  ret;
}}
"""


def exits(tail, arch="sm_90", opt=3):
    res = compile_text(HEAD.format(tail=tail, target=arch), "t.ptx", arch, opt_level=opt)
    fn = next(f for f in res.program.functions if f.name == "k")
    return [i.guard for i in fn.instrs if i.opcode == "EXIT"]


@pytest.mark.parametrize("arch", ["sm_75", "sm_90", "sm_120"])
@pytest.mark.parametrize("tail", ["  @%p1 st.global.u32 [%rd1], %r1;",
                                  "  @!%p1 st.global.u16 [%rd1], %h1;",
                                  "  @%p1 st.global.u32 [%rd1], %r1;\n  @%p1 st.global.u32 [%rd1+4], %r1;"])
def test_guarded_tail_exits_early(tail, arch):
    guards = exits(tail, arch)
    assert len(guards) == 2
    neg = "@!%p1" if "@%p1" in tail.splitlines()[-1] else "@%p1"
    assert guards[0] == neg and guards[1] == ""


@pytest.mark.parametrize("tail", ["  @%p1 st.global.u32 [%rd1], %r1;\n  st.global.u32 [%rd1+4], %r1;",
                                  "  st.global.u32 [%rd1], %r1;"])
def test_unguarded_last_instruction_keeps_one_exit(tail):
    assert len(exits(tail)) == 1


def test_O0_keeps_one_exit():
    assert len(exits("  @%p1 st.global.u32 [%rd1], %r1;", opt=0)) == 1
