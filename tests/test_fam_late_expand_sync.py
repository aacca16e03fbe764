"""Phase 72 convergence forms: a partial-mask warp op alone in an if region (inline `BSSY; WARPSYNC mask; op;
BSYNC` on sm_90+), the sm_80-89 redux slow path (WARPSYNC.EXCLUSIVE), and divergent-guarded loads/fences
turned into a branch with its own pair (rules: docs/phases/72_LateExpandSyncInstructions.md)."""
import pytest

from pylower.pipeline import compile_text
from pylower.tools.conformance import sync_view

HEAD = """.version 9.0
.target {target}
.address_size 64
.visible .entry k(.param .u64 p)
{{
  .reg .b32 %r<16>; .reg .b64 %rd<8>; .reg .pred %p<4>;
  ld.param.u64 %rd1, [p];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.u32 %r2, [%rd4+512];
  ld.global.u32 %r3, [%rd4+256];
  mov.u32 %r9, 0;
  setp.lt.u32 %p1, %r1, 7;
  setp.ge.u32 %p3, %r1, 16;
{body}
  st.global.u32 [%rd1], %r9;
  ret;
}}
"""
IF = "  @%p3 bra L1;\n{op}\nL1:"
OPS = {
    "vote": "  vote.sync.ballot.b32 %r9, %p1, 0x0000ffff;",
    "redux": "  redux.sync.add.u32 %r9, %r2, 0x0000ffff;",
    "elect": "  elect.sync _|%p2, 0x0000ffff;\n  selp.u32 %r9, 1, 0, %p2;",
}
OP = {"vote": "VOTE.ANY", "redux": "REDUX.SUM", "elect": "ELECT"}


def compile_k(body, arch, opt_level=3):
    res = compile_text(HEAD.format(body=body, target=arch), "t.ptx", arch, opt_level=opt_level)
    return next(f for f in res.program.functions if f.name == "k")


def sync(body, arch, opt_level=3):
    return sync_view(compile_k(body, arch, opt_level))


@pytest.mark.parametrize("arch", ["sm_90", "sm_100a", "sm_120"])
@pytest.mark.parametrize("op", sorted(OPS))
def test_sole_partial_mask_op_of_if_inline(op, arch):
    assert sync(IF.format(op=OPS[op]), arch) == ["BSSY", "WARPSYNC", OP[op], "BSYNC"]


@pytest.mark.parametrize("arch", ["sm_90", "sm_100a"])
def test_partial_mask_ops_of_if_else_out_of_line(arch):
    body = """  @%p3 bra L2;
  vote.sync.ballot.b32 %r9, %p1, 0x00ffffff;
  bra L1;
L2:
  vote.sync.ballot.b32 %r9, %p1, 0xffffff00;
L1:"""
    assert sync(body, arch).count("WARPSYNC.COLLECTIVE") == 2


@pytest.mark.parametrize("arch", ["sm_80", "sm_86", "sm_89"])
def test_redux_constant_partial_mask_fast_path_warpsync(arch):
    assert sync(IF.format(op=OPS["redux"]), arch) == ["BSSY", "WARPSYNC", "REDUX.SUM", "BSYNC", "WARPSYNC", "REDUX.SUM"]


@pytest.mark.parametrize("arch", ["sm_80", "sm_89"])
def test_redux_register_mask_exclusive(arch):
    assert sync("  redux.sync.add.u32 %r9, %r2, %r3;", arch) == [
        "REDUX.OR", "BSSY", "BSYNC", "BSSY", "WARPSYNC.EXCLUSIVE", "REDUX.SUM", "BSYNC", "WARPSYNC.EXCLUSIVE", "REDUX.SUM"]
    assert sync("  redux.sync.add.u32 %r9, %r2, 0xffffffff;", arch, opt_level=0) == [
        "REDUX.SUM", "WARPSYNC.EXCLUSIVE", "REDUX.SUM"]


@pytest.mark.parametrize("arch,pair", [("sm_75", ["BMOV.32.CLEAR", "BSSY", "BSYNC"]), ("sm_90", ["BSSY", "BSYNC"]),
                                       ("sm_100a", ["BSSY.RECONVERGENT", "BSYNC.RECONVERGENT"])])
@pytest.mark.parametrize("opt", [0, 3])
def test_guarded_global_load_is_a_branch(arch, pair, opt):
    assert sync("  @%p1 ld.global.u32 %r9, [%rd1+8];", arch, opt) == pair


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_guarded_fence_is_a_branch(arch):
    s = sync("  @%p1 membar.gl;", arch)
    assert (s[0], s[1], s[-1]) == ("BSSY", "MEMBAR.SC.GPU", "BSYNC")


@pytest.mark.parametrize("body", ["  @%p1 ld.shared.u32 %r9, [%r1];", "  @%p1 st.global.u32 [%rd1+8], %r1;",
                                  "  setp.eq.u64 %p2, %rd1, 0;\n  @%p2 ld.global.u32 %r9, [%rd1+8];"])
def test_predicated_guards_get_no_pair(body):
    assert not any(s.startswith("BSSY") for s in sync(body, "sm_90"))


# A warp op run in divergent code leaves the warp not taken as converged: the next warp op, even after the
# region's BSYNC, takes its divergent form (phases/div_if_{shfl_sync,bar_warp_sync}_then_join_vote_sync).
JOIN_VOTE = "  vote.sync.ballot.b32 %r9, %p1, -1;"


@pytest.mark.parametrize("arch,inner,expected", [
    ("sm_90", "  shfl.sync.bfly.b32 %r9, %r2, 1, 31, -1;",
     ["WARPSYNC.ALL", "SHFL.BFLY", "WARPSYNC.ALL", "VOTE.ANY"]),
    ("sm_80", "  shfl.sync.bfly.b32 %r9, %r2, 1, 31, -1;",
     ["BSSY", "SHFL.BFLY", "BSYNC", "VOTE.ANY", "WARPSYNC", "SHFL.BFLY", "WARPSYNC", "VOTE.ANY"]),
    ("sm_90", "  st.global.u32 [%rd1+4], %r2;", ["VOTE.ANY"]),
    ("sm_80", "  st.global.u32 [%rd1+4], %r2;", ["VOTE.ANY"]),
])
def test_warp_op_after_join_of_divergent_warp_op(arch, inner, expected):
    fn = compile_k(IF.format(op=inner) + "\n" + JOIN_VOTE, arch)
    assert sync_view(fn) == expected


def test_helpers_numbered_in_name_order():
    # ptxas numbers and places the sm_75-89 helpers alphabetically, not by first use (div_ifelse_vote_sync)
    body = ("  @%p3 bra L1;\n  vote.sync.ballot.b32 %r9, %p1, -1;\n  bra.uni L2;\n"
            "L1:\n  vote.sync.any.pred %p2, %p1, -1;\n  selp.u32 %r9, 1, 0, %p2;\nL2:")
    fn = compile_k(body, "sm_80")
    calls = [i.operands[0] for i in fn.instrs if i.opcode == "CALL"]       # in code order: ballot first
    assert calls == ["`($__internal_1_$__cuda_sm70_votesync_ballot)", "`($__internal_0_$__cuda_sm70_votesync_any)"]


LOOP_BAR_SHFL = """  mov.u32 %r5, 0;
L3:
{pre}  shfl.sync.bfly.b32 %r6, %r2, 1, 31, -1;
  add.u32 %r2, %r2, %r6;
  setp.lt.u32 %p2, %r2, %r3;
  @%p2 bra L3;
{post}  mov.u32 %r9, %r2;"""
LATE_SHFL = "  @%p3 bra L4;\n  shfl.sync.bfly.b32 %r7, %r2, 2, 31, -1;\n  add.u32 %r2, %r2, %r7;\nL4:\n"


def _helper_body(fn):
    k = next(n for n, (name, _) in fn.symbols.items() if "__cuda_sm70_shflsync_bfly" in name)
    return [i.opcode for i in fn.instrs[k:k + 2]]


@pytest.mark.parametrize("arch", ["sm_75", "sm_80", "sm_89"])
@pytest.mark.parametrize("pre, post, synced", [
    ("  bar.sync 0;\n", "", False),             # every call site after the re-converging barrier
    ("", "", True),                             # no barrier
    ("  bar.sync 0;\n", LATE_SHFL, True),       # a second site of the kind in a divergent if: shared helper
])
def test_helper_after_reconverging_barrier(arch, pre, post, synced):
    # docs/findings/convergence.md "A slow path after a re-converging barrier needs no WARPSYNC (helper tred26,
    # stop 26)"; probes phases/helper_after_barrier_*
    fn = compile_k(LOOP_BAR_SHFL.format(pre=pre, post=post), arch)
    assert _helper_body(fn) == (["WARPSYNC", "SHFL"] if synced else ["SHFL", "RET"])
