"""CTA barriers, bar.warp.sync, barrier.cluster and barriers in called functions: PTX text in, pylower's
sync view / EIATTRs / errors out (rules: docs/findings/barrier.md)."""
import pytest

from pylower.lowering.diagnostics import PtxError
from pylower.pipeline import compile_text
from pylower.sass import eiattr
from pylower.tools.conformance import sync_view

HEAD = """{extra}
.version {version}
.target {target}
.address_size 64
{funcs}
.visible .entry k(.param .u64 out)
{perf}
{{
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  .reg .pred %p<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  setp.lt.u32 %p1, %r1, 7;
{body}
  st.global.u32 [%rd1], %r1;
  ret;
}}
"""


def compile_body(body, arch="sm_90", version="9.0", funcs="", perf="", opt_level=3, extra=""):
    text = HEAD.format(body=body, target=arch, version=version, funcs=funcs, perf=perf, extra=extra)
    res = compile_text(text, "t.ptx", arch, opt_level=opt_level)
    fn = next(f for f in res.program.functions if f.name == "k")
    return sync_view(fn), eiattr.counts(fn.eiattr)


def error_of(body, arch="sm_90", version="9.0"):
    with pytest.raises(PtxError) as e:
        compile_body(body, arch, version)
    return e.value.message


# ---------------------------------------------------------------- bar / barrier (CTA)

@pytest.mark.parametrize("body,arch,sync", [
    ("bar.sync 0;", "sm_75", ["BAR.SYNC 0x0"]),
    ("bar.sync 1, 64;", "sm_80", ["BAR.SYNC.DEFER_BLOCKING 0x1, 0x40"]),
    ("bar.cta.sync 0;", "sm_120", ["BAR.SYNC.DEFER_BLOCKING 0x0"]),
    ("barrier.sync.aligned 0;", "sm_86", ["BAR.SYNC.DEFER_BLOCKING 0x0"]),
    ("barrier.sync 0;", "sm_86", ["BAR.SYNC 0x0"]),                    # non-aligned: no DB below sm_90
    ("barrier.sync 0;", "sm_90", ["BAR.SYNC.DEFER_BLOCKING 0x0"]),
    ("bar.arrive 1, 64;", "sm_90", ["BAR.ARV 0x1, 0x40"]),
    ("bar.sync 1, 0;", "sm_90", ["BAR.SYNC.DEFER_BLOCKING 0x1"]),       # count 0 is dropped
    ("bar.red.popc.u32 %r4, 0, %p1;", "sm_75", ["BAR.RED.POPC 0x0"]),  # dead result: no B2R below sm_90
    ("bar.red.popc.u32 %r4, 0, %p1;", "sm_90", ["BAR.RED.POPC.DEFER_BLOCKING 0x0", "B2R.RESULT"]),
])
def test_cta_barrier_forms(body, arch, sync):
    assert compile_body(body, arch)[0] == sync


def test_num_barriers_and_coop_group():
    _, ei = compile_body("bar.sync 3;\n  bar.sync 9;")
    assert ei["EIATTR_NUM_BARRIERS"] == 10
    _, ei = compile_body("and.b32 %r3, %r2, 15;\n  bar.sync %r3;")
    assert ei["EIATTR_NUM_BARRIERS"] == 16
    _, ei = compile_body("barrier.sync 0;")
    assert ei["EIATTR_COOP_GROUP_INSTR_OFFSETS"] == 1 and ei["EIATTR_COOP_GROUP_MASK_REGIDS"] == 1
    _, ei = compile_body("barrier.sync.aligned 0;")
    assert "EIATTR_COOP_GROUP_INSTR_OFFSETS" not in ei


@pytest.mark.parametrize("body,sync,nbar", [
    ("mov.u32 %r3, 3;\n  bar.sync %r3;", ["BAR.SYNC.DEFER_BLOCKING 0x3"], 4),
    ("mov.u32 %r3, 3;\n  add.u32 %r4, %r3, 2;\n  bar.sync %r4;", ["BAR.SYNC.DEFER_BLOCKING 0x5"], 6),
    ("mov.u32 %r3, 17;\n  bar.sync %r3;", ["BAR.SYNC.DEFER_BLOCKING 0x1"], 2),           # id modulo 16
    ("mov.u32 %r3, 96;\n  bar.sync 1, %r3;", ["BAR.SYNC.DEFER_BLOCKING 0x1, 0x60"], 2),
    ("mov.u32 %r3, 3;\n  @%p1 mov.u32 %r3, 4;\n  bar.sync %r3;", ["BAR.SYNC.DEFER_BLOCKING"], 16),
])
def test_register_operands_fold(body, sync, nbar):
    got, ei = compile_body(body)
    assert got == sync and ei["EIATTR_NUM_BARRIERS"] == nbar


def test_no_folding_at_O0():
    got, ei = compile_body("mov.u32 %r3, 3;\n  bar.sync %r3;", opt_level=0)
    assert got == ["WARPSYNC.ALL", "BAR.SYNC.DEFER_BLOCKING"] and ei["EIATTR_NUM_BARRIERS"] == 16


@pytest.mark.parametrize("body,message", [
    ("bar 0;", "Barrier modifier required for instruction 'bar'"),
    ("barrier.sync 16;", "Barrier number '16' out of range, expected to be in range [0..15]"),
    ("bar.sync 1, 48;", "Number of threads participating in barrier must be in multiple of warp size"),
    ("bar.arrive 1, 0;", "Instruction 'bar.arrive' requires a non-zero thread count argument"),
    ("barrier.arrive 1;", "Arguments mismatch for instruction 'barrier.arrive'"),
    ("bar.red.popc.b32 %r4, 0, %p1;", "Unexpected instruction types specified for 'bar.red'"),
    ("bar.red.and.u32 %r4, 0, %p1;", "Operation requires .pred type"),
    ("bar.red.xor.pred %p2, 0, %p1;", "Illegal reduction operation for instruction 'bar.red.pred'"),
])
def test_cta_barrier_errors(body, message):
    assert error_of(body) == message


def test_bar_cta_version_gate():
    assert error_of("bar.cta.sync 0;", "sm_75", "7.7") == "Feature 'bar.cta' requires PTX ISA .version 7.8 or later"


# ---------------------------------------------------------------- bar.warp.sync

def test_bar_warp_sync_converged_is_deleted_but_listed():
    got, ei = compile_body("bar.warp.sync 0xffffffff;")
    assert got == [] and ei["EIATTR_COOP_GROUP_INSTR_OFFSETS"] == 1


@pytest.mark.parametrize("arch,mask,sync", [
    ("sm_80", "0xffffffff", ["WARPSYNC 0xffffffff"]),
    ("sm_90", "0xffffffff", ["WARPSYNC.ALL"]),
    ("sm_90", "%r2", ["WARPSYNC %r2"]),
])
def test_bar_warp_sync_per_instruction(arch, mask, sync):
    """With the sync phases off (knob 487=0) the instruction is selected by itself: one WARPSYNC."""
    text = HEAD.format(body=f"bar.warp.sync {mask};", target=arch, version="9.0", funcs="", perf="", extra="")
    res = compile_text(text, "t.ptx", arch, knobs={"487": 0})
    fn = res.program.functions[0]
    assert [i.text() for i in fn.instrs if i.opcode == "WARPSYNC"] == sync
    assert eiattr.counts(fn.eiattr)["EIATTR_COOP_GROUP_INSTR_OFFSETS"] == 1


# ---------------------------------------------------------------- barrier.cluster

ARRIVE = ["MEMBAR.ALL.GPU", "ERRBAR", "CGAERRBAR", "UCGABAR_ARV"]
WAIT = ["UCGABAR_WAIT", "CCTL.IVALL"]


@pytest.mark.parametrize("body,sync,coop,nbar", [
    ("barrier.cluster.arrive;", ARRIVE, 1, None),
    ("barrier.cluster.arrive.release.aligned;", ARRIVE, 1, None),
    ("barrier.cluster.arrive.relaxed;", ["UCGABAR_ARV"], 1, None),
    ("barrier.cluster.wait;", WAIT + ["BAR.SYNC.DEFER_BLOCKING 0x0"], None, 1),
    ("barrier.cluster.arrive;\n  barrier.cluster.wait.acquire;", ARRIVE + WAIT + ["BAR.SYNC.DEFER_BLOCKING 0x0"], 1, 1),
])
def test_cluster_barrier_runtime_paths(body, sync, coop, nbar):
    for arch in ("sm_90", "sm_100a", "sm_121f"):
        got, ei = compile_body(body, arch)
        assert got == sync
        assert ei.get("EIATTR_COOP_GROUP_INSTR_OFFSETS") == coop and ei.get("EIATTR_NUM_BARRIERS") == nbar


def test_cluster_barrier_explicit_cluster_has_no_fallback():
    got, ei = compile_body("barrier.cluster.arrive;\n  barrier.cluster.wait;", perf=".explicitcluster")
    assert got == ARRIVE + WAIT and "EIATTR_COOP_GROUP_INSTR_OFFSETS" not in ei and "EIATTR_NUM_BARRIERS" not in ei


def test_cluster_barrier_divergent_warpsyncs_both_paths():
    got, _ = compile_body("@%p1 barrier.cluster.wait;")
    # (the BSSY/BSYNC pair around it is phase 72's business)
    assert [s for s in got if not s.startswith(("BSSY", "BSYNC"))] == \
        ["WARPSYNC.ALL", *WAIT, "WARPSYNC.ALL", "BAR.SYNC.DEFER_BLOCKING 0x0"]


@pytest.mark.parametrize("body,arch,version,message", [
    ("barrier.cluster.arrive;", "sm_89", "9.0", "Feature 'barrier.cluster.arrive' requires .target sm_90 or higher"),
    ("barrier.cluster.wait;", "sm_75", "7.7", "Feature 'barrier.cluster.wait' requires PTX ISA .version 7.8 or later"),
    ("barrier.cluster.arrive.acquire;", "sm_90", "9.0",
     "Illegal modifier '.acquire' for instruction 'barrier.cluster.arrive'"),
    ("barrier.cluster.wait.relaxed;", "sm_90", "9.0", "Illegal modifier '.relaxed' for instruction 'barrier.cluster.wait'"),
    ("barrier.cluster.arrive.relaxed;", "sm_90", "7.8",
     "Modifier '.relaxed' on 'barrier.cluster.arrive' requires PTX ISA .version 8.0 or later"),
    ("barrier.cluster.wait.acquire;", "sm_90", "7.8",
     "Modifier '.acquire' on 'barrier.cluster.wait' requires PTX ISA .version 8.0 or later"),
])
def test_cluster_barrier_errors(body, arch, version, message):
    assert error_of(body, arch, version) == message


# ---------------------------------------------------------------- barriers in called functions

FUNCS = """.func zeta()
{
  bar.sync 1;
  call mid;
  ret;
}
.func mid()
{
  bar.sync 3;
  ret;
}
.func alpha()
{
  bar.sync 2;
  ret;
}
"""


def test_callee_bodies_follow_the_kernel_in_name_order():
    got, ei = compile_body("bar.sync 0;\n  call zeta;\n  call alpha;", funcs=FUNCS)
    assert got == ["BAR.SYNC.DEFER_BLOCKING " + i for i in ("0x0", "0x2", "0x3", "0x1")]
    assert ei["EIATTR_NUM_BARRIERS"] == 4


def test_callees_keep_their_own_sections_with_c():
    text = HEAD.format(body="call alpha;", target="sm_90", version="9.0", funcs=FUNCS, perf="", extra="")
    res = compile_text(text, "t.ptx", "sm_90", options={"compile_only": True})
    k = next(f for f in res.program.functions if f.name == "k")
    assert sync_view(k) == [] and {f.name for f in res.program.functions} >= {"alpha", "mid", "zeta"}
