"""Phase 72 around cp.async and loads: which divergent regions ptxas keeps as a branch (BSSY/BSYNC) and
which it predicates, and one pair per join (docs/phases/72_LateExpandSyncInstructions.md)."""
import pytest

from pylower.pipeline import compile_text
from pylower.tools.conformance import sync_view

CP0 = "cp.async.ca.shared.global [%r5], [%rd3], 4, 4;"
CP1 = "cp.async.ca.shared.global [%r5], [%rd3+64], 4, 4;"
LD0 = "ld.global.u32 %r6, [%rd3];"
LD1 = "ld.global.u32 %r6, [%rd3+64];"
ALU = "mul.lo.u32 %r6, %r2, 3;"
PAIR = {"sm_80": ["BSSY", "BSYNC"], "sm_90": ["BSSY", "BSYNC"], "sm_100a": ["BSSY.RECONVERGENT", "BSYNC.RECONVERGENT"]}


def kernel(arch: str, body: str) -> str:
    return (f".version 9.0\n.target {arch}\n.address_size 64\n.visible .entry k(.param .u64 p, .param .u32 n)\n{{\n"
            "  .reg .pred %p<3>; .reg .b32 %r<9>; .reg .b64 %rd<5>;\n  .shared .align 16 .b8 s[4096];\n"
            "  ld.param.u64 %rd1, [p];\n  ld.param.u32 %r1, [n];\n  mov.u32 %r2, %tid.x;\n"
            "  mul.wide.u32 %rd2, %r2, 16;\n  add.s64 %rd3, %rd1, %rd2;\n  shl.b32 %r3, %r2, 4;\n"
            "  mov.u32 %r4, s;\n  add.s32 %r5, %r4, %r3;\n  setp.lt.u32 %p1, %r2, %r1;\n"
            f"{body}\n  st.shared.u32 [%r5], %r6;\n  cp.async.wait_all;\n  ret;\n}}\n")


def pairs(arch: str, body: str) -> list[str]:
    res = compile_text(kernel(arch, body), "t.ptx", arch)
    return [s for s in sync_view(res.program.functions[0]) if s.startswith(("BSSY", "BSYNC"))]


def diamond(taken: str, fall: str) -> str:
    return f"  @%p1 bra A;\n  {fall}\n  bra.uni J;\nA:\n  {taken}\nJ:"


@pytest.mark.parametrize("arch", ["sm_80", "sm_90", "sm_100a"])
def test_if_else_with_a_load_on_each_side_is_predicated(arch):
    assert pairs(arch, diamond(CP1, CP0)) == []
    assert pairs(arch, diamond(LD1, LD0)) == []
    assert pairs(arch, diamond(CP1, LD0)) == []


@pytest.mark.parametrize("arch", ["sm_80", "sm_90", "sm_100a"])
def test_load_on_one_side_keeps_the_branch(arch):
    assert pairs(arch, f"  @%p1 bra J;\n  {CP0}\nJ:") == PAIR[arch]
    assert pairs(arch, diamond(ALU, CP0)) == PAIR[arch]
    assert pairs(arch, diamond(ALU, LD0)) == PAIR[arch]


@pytest.mark.parametrize("arch", ["sm_80", "sm_100a"])
def test_guarded_cp_async_in_converged_code_is_a_branch(arch):
    assert pairs(arch, f"  @%p1 {CP0}") == PAIR[arch]


@pytest.mark.parametrize("arch", ["sm_80", "sm_90", "sm_100a"])
def test_if_around_a_loop_with_the_same_join_gets_one_pair(arch):
    # the loop exit falls through an empty block into the if's join (nvcc/cg_block_split_barrier)
    body = ("  @%p1 bra J;\n  cvt.u64.u32 %rd4, %r2;\n  mov.u32 %r7, %ntid.x;\n  cvt.u64.u32 %rd2, %r7;\nL:\n"
            "  shl.b64 %rd3, %rd4, 2;\n  add.s64 %rd3, %rd1, %rd3;\n  " + CP0 + "\n  add.s64 %rd4, %rd4, %rd2;\n"
            "  setp.lt.u64 %p2, %rd4, 256;\n  @%p2 bra L;\n\nJ:")
    assert pairs(arch, body) == PAIR[arch]
