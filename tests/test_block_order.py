"""Block placement before ISel (isel/block_order.py): reverse postorder, a branch's target walked before its
fall-through (probes phases/layout_*)."""
from pylower.pipeline import compile_text
from pylower.tools.conformance import sync_view


def _sync(body: str, arch: str = "sm_75") -> list[str]:
    text = (f".version 9.0\n.target {arch}\n.address_size 64\n.visible .entry k(.param .u64 p, .param .u32 n)\n{{\n"
            "  .reg .b32 %r<16>; .reg .b64 %rd<4>; .reg .pred %p<4>;\n  .shared .align 4 .b32 s[64];\n"
            f"  ld.param.u64 %rd1, [p];\n  ld.param.u32 %r2, [n];\n  mov.u32 %r1, %tid.x;\n{body}\n}}\n")
    res = compile_text(text, "t.ptx", arch, 3, None, None)
    return sync_view(next(f for f in res.program.functions if f.name == "k"))


def test_block_after_return_is_placed_after_its_predecessor():
    body = """  setp.lt.u32 %p1, %r2, 2;
  @%p1 bra TAIL;
  bra.uni SIDE;
TAIL:
  bar.sync 1;
  st.global.u32 [%rd1], %r2;
  ret;
SIDE:
  bar.sync 2;
  add.s32 %r2, %r2, 5;
  bra.uni TAIL;"""
    assert _sync(body) == ["BAR.SYNC 0x2", "BAR.SYNC 0x1"]
    assert _sync(body, "sm_90") == ["BAR.SYNC.DEFER_BLOCKING 0x2", "BAR.SYNC.DEFER_BLOCKING 0x1"]


def test_loop_after_return_block_precedes_the_exit():
    body = """  bar.sync 0;
  setp.lt.u32 %p1, %r2, 2;
  @%p1 bra EXITB;
  bra.uni LOOP;
EXITB:
  ld.shared.u32 %r4, [s];
  add.s32 %r4, %r4, %r1;
  shfl.sync.down.b32 %r5, %r4, 1, 31, -1;
  st.global.u32 [%rd1], %r5;
  ret;
LOOP:
  st.shared.u32 [s], %r2;
  bar.sync 1;
  shr.u32 %r2, %r2, 1;
  setp.gt.u32 %p2, %r2, 1;
  @%p2 bra LOOP;
  bra.uni EXITB;"""
    assert _sync(body) == ["BAR.SYNC 0x0", "BAR.SYNC 0x1", "SHFL.DOWN"]


def test_ptx_order_kept_when_already_a_reverse_postorder():
    body = """  setp.lt.u32 %p1, %r2, 2;
  @%p1 bra L2;
  bar.sync 1;
  bra.uni L3;
L2:
  bar.sync 2;
L3:
  bar.sync 3;
  ret;"""
    assert _sync(body) == ["BAR.SYNC 0x1", "BAR.SYNC 0x2", "BAR.SYNC 0x3"]


def _arrive_then(op: str, arch: str) -> list[str]:
    body = f"""  setp.gt.u32 %p1, %r1, 63;
  @%p1 bra L3;
  st.shared.u32 [s], %r1;
  bar.arrive 1, 64;
L3:
{op}
  st.global.u32 [%rd1], %r5;
  ret;"""
    return _sync(body, arch)


def test_warp_op_after_a_diverged_barrier_takes_its_slow_path_below_sm90():
    # phase 71 (passes/p71_optimize_sync.py after_diverged_barrier): the helper's WARPSYNC + op after the fast path
    assert _arrive_then("  barrier.sync 0;", "sm_75") == \
        ["WARPSYNC", "BAR.ARV 0x1, 0x40", "BAR.SYNC 0x0", "WARPSYNC", "BAR.SYNC 0x0"]
    assert _arrive_then("  vote.sync.ballot.b32 %r5, %p1, -1;", "sm_80") == \
        ["WARPSYNC", "BAR.ARV 0x1, 0x40", "VOTE.ANY", "WARPSYNC", "VOTE.ANY"]
    assert _arrive_then("  barrier.sync 0;", "sm_90") == ["BAR.ARV 0x1, 0x40", "BAR.SYNC.DEFER_BLOCKING 0x0"]


def test_cta_barrier_after_a_diverged_barrier_stays_as_is():
    # nvcc/named_barrier_imm: the join's bar.red needs no WARPSYNC when no slow path came between
    assert _arrive_then("  bar.red.popc.u32 %r5, 3, %p1;", "sm_75") == \
        ["WARPSYNC", "BAR.ARV 0x1, 0x40", "BAR.RED.POPC 0x3", "B2R.RESULT"]
