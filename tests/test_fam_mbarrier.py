"""mbarrier: PTX text in, pylower's sync view / EIATTRs / errors out (rules: docs/findings/mbarrier.md)."""
import pytest

from pylower.lowering.diagnostics import PtxError
from pylower.pipeline import compile_text
from pylower.sass import eiattr
from pylower.tools.conformance import sync_view

HEAD = """.version {version}
.target {target}
.address_size 64
.visible .entry k(.param .u64 out)
{{
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  .reg .pred %p<4>;
  .shared .align 8 .b64 bar;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
{body}
  st.global.u64 [%rd1], %rd4;
  ret;
}}
"""


def compile_body(body, arch="sm_90", version="9.0", opt_level=3):
    text = HEAD.format(body=body, target=arch, version=version)
    res = compile_text(text, "t.ptx", arch, opt_level=opt_level)
    fn = next(f for f in res.program.functions if f.name == "k")
    return sync_view(fn), eiattr.counts(fn.eiattr)


def errors_of(body, arch="sm_90", version="9.0"):
    with pytest.raises(PtxError) as e:
        compile_body(body, arch, version)
    return [e.value.message, *e.value.more]


@pytest.mark.parametrize("body,arch,sync", [
    ("mbarrier.init.shared.b64 [bar], 32;", "sm_90", ["SYNCS.EXCH.64"]),
    ("mbarrier.init.shared.b64 [bar], 32;", "sm_80", []),
    ("mbarrier.init.shared.b64 [bar], %r1;", "sm_90", ["FENCE.VIEW.ASYNC.S", "SYNCS.EXCH.64"]),
    ("mbarrier.init.shared.b64 [bar], %r1;", "sm_100a", ["FENCE.VIEW.ASYNC.S", "SYNCS.CCTL.IVALL"]),
    ("setp.eq.u32 %p1, %r1, 0;\n@%p1 mbarrier.init.shared.b64 [bar], 32;", "sm_90",
     ["VOTEU.ALL", "VOTEU.ALL", "SYNCS.EXCH.64"]),
    ("mbarrier.inval.shared.b64 [bar];", "sm_90", ["SYNCS.CCTL.IV"]),
    ("mbarrier.arrive.shared.b64 %rd4, [bar];", "sm_90", ["SYNCS.ARRIVE.TRANS64.A1T0"]),
    ("mbarrier.arrive.shared.b64 %rd4, [bar];", "sm_86", ["MEMBAR.ALL.CTA", "ATOMS.ARRIVE.64"]),
    ("mbarrier.arrive.b64 %rd4, [%rd1];", "sm_80", ["MEMBAR.ALL.CTA", "ATOM.E.ARRIVE.64.STRONG.SM"]),
    ("mbarrier.arrive_drop.shared.b64 %rd4, [bar];", "sm_80",
     ["MEMBAR.ALL.CTA", "ATOMS.POPC.INC.32", "ATOMS.ARRIVE.64"]),
    ("mbarrier.arrive.noComplete.shared.b64 %rd4, [bar], 2;", "sm_80",
     ["MEMBAR.ALL.CTA", "VOTEU.ANY", "ATOMS.ADD", "SHFL.IDX"]),
    ("mbarrier.arrive_drop.noComplete.shared.b64 %rd4, [bar], 2;", "sm_120", ["SYNCS.ARRIVE.TRANS64.TMASK.OPTOUT.ART0"]),
    ("mbarrier.arrive.shared.b64 %rd4, [bar], 4;", "sm_90", ["SYNCS.ARRIVE.TRANS64.ART0"]),
    ("mbarrier.arrive.expect_tx.shared.b64 %rd4, [bar], 64;", "sm_90", ["SYNCS.ARRIVE.TRANS64"]),
    ("mbarrier.arrive.release.cluster.shared::cta.b64 %rd4, [bar];", "sm_90",
     ["MEMBAR.ALL.CTA", "MEMBAR.ALL.GPU", "ERRBAR", "CGAERRBAR", "SYNCS.ARRIVE.TRANS64.A1T0"]),
    ("mapa.shared::cluster.u32 %r2, bar, 1;\nmbarrier.arrive.relaxed.cluster.shared::cluster.b64 _, [%r2];",
     "sm_90", ["SYNCS.ARRIVE.TRANS64.RED.A1T0"]),
    ("mbarrier.expect_tx.shared.b64 [bar], 64;", "sm_90", ["SYNCS.ARRIVE.TRANS64.RED.A0TR"]),
    ("mbarrier.complete_tx.shared.b64 [bar], 64;", "sm_90", ["SYNCS.ARRIVE.TRANS64.RED.A0TX"]),
    ("mbarrier.test_wait.parity.acquire.cluster.shared.b64 %p1, [bar], 0;", "sm_90",
     ["SYNCS.PHASECHK.TRANS64", "CCTL.IVALL"]),
    ("mbarrier.test_wait.parity.shared.b64 %p1, [bar], 0;", "sm_80", []),
    ("mbarrier.try_wait.parity.shared.b64 %p1, [bar], 0, 1000;", "sm_90",
     ["SYNCS.PHASECHK.TRANS64.TRYWAIT", "NANOSLEEP.SYNCS", "SYNCS.PHASECHK.TRANS64"]),
    ("mbarrier.pending_count.b64 %r3, %rd2;", "sm_90", []),
])
def test_mbarrier_forms(body, arch, sync):
    assert compile_body(body, arch)[0] == sync


def test_try_wait_spin_loop_has_out_of_line_retry():
    body = "$Lw:\n  mbarrier.try_wait.parity.shared.b64 %p1, [bar], 0, 1000;\n  @!%p1 bra $Lw;"
    sync, _ = compile_body(body, "sm_100a")
    assert sync == ["SYNCS.PHASECHK.TRANS64.TRYWAIT", "SYNCS.PHASECHK.TRANS64.TRYWAIT", "NANOSLEEP.SYNCS",
                    "SYNCS.PHASECHK.TRANS64"]


def test_arrive_in_divergent_loop_gets_bssy():
    body = ("mov.u32 %r3, 0;\n$Ll:\n  mbarrier.arrive.shared.b64 %rd4, [bar];\n  add.u32 %r3, %r3, 1;\n"
            "  setp.lt.u32 %p2, %r3, %r1;\n  @%p2 bra $Ll;")
    assert compile_body(body, "sm_90")[0] == ["BSSY", "SYNCS.ARRIVE.TRANS64.A1T0", "BSYNC"]
    assert compile_body(body, "sm_80")[0] == ["BSSY", "MEMBAR.ALL.CTA", "ATOMS.ARRIVE.64", "BSYNC"]


def test_eiattrs_count_inits_and_records():
    _, ei = compile_body("mbarrier.init.shared.b64 [bar], 32;\nmbarrier.init.shared.b64 [bar], 32;\n"
                         "mbarrier.arrive.shared.b64 %rd4, [bar];", "sm_90")
    assert ei["EIATTR_NUM_MBARRIERS"] == 2 and ei["EIATTR_MBARRIER_INSTR_OFFSETS"] == 3
    _, ei = compile_body("mbarrier.arrive.expect_tx.shared.b64 %rd4, [bar], 64;", "sm_90")
    assert "EIATTR_NUM_MBARRIERS" not in ei and "EIATTR_MBARRIER_INSTR_OFFSETS" not in ei


def test_init_in_loop_is_unknown_count():
    body = ("mov.u32 %r3, 0;\n$Ll:\n  mbarrier.init.shared.b64 [bar], 32;\n  add.u32 %r3, %r3, 1;\n"
            "  cvt.u32.u64 %r4, %rd1;\n  setp.lt.u32 %p2, %r3, %r4;\n  @%p2 bra $Ll;")
    sync, ei = compile_body(body, "sm_90")
    assert sync == ["FENCE.VIEW.ASYNC.S", "SYNCS.EXCH.64"] and ei["EIATTR_NUM_MBARRIERS"] == 0xFFFF


@pytest.mark.parametrize("body,arch,version,msgs", [
    ("mbarrier.init.shared.b32 [bar], 32;", "sm_90", "9.0", ["Unexpected instruction types specified for 'mbarrier.init'"]),
    ("mbarrier.init.shared.b64 [bar], 32;", "sm_75", "9.0", ["Feature 'mbarrier.init' requires .target sm_80 or higher"]),
    ("mbarrier.arrive.shared.b64 %rd4, [bar], 4;", "sm_80", "9.0",
     ["Feature 'mbarrier.arrive with count argument and without '.noComplete' modifier' requires .target sm_90 or higher",
      ".noComplete modifier required for instruction 'mbarrier.arrive with count argument'"]),
    ("mbarrier.arrive.acquire.shared.b64 %rd4, [bar];", "sm_90", "9.0",
     ["Illegal modifier '.acquire' for instruction 'mbarrier.arrive'"] * 2),
    ("mbarrier.try_wait.shared.b64 %p1, [bar], %rd2;", "sm_89", "9.0",
     ["Feature 'mbarrier.try_wait' requires .target sm_90 or higher"]),
    ("mbarrier.try_wait.relaxed.cta.shared.b64 %p1, [bar], %rd2;", "sm_90", "8.5",
     ["Modifier '.relaxed' on 'mbarrier.try_wait' requires PTX ISA .version 8.6 or later"]),
    ("mbarrier.arrive.noComplete.release.cluster.shared.b64 %rd4, [bar], 1;", "sm_90", "9.0",
     ["Modifier '.cluster' cannot be combined with modifier '.noComplete'"]),
    ("mbarrier.arrive.shared::cluster.b64 %rd4, [%r1];", "sm_90", "9.0",
     ["Sink '_' is expected as a destination operand for instruction 'mbarrier.arrive' with '.shared::cluster'"]),
    ("mbarrier.test_wait.shared.b64 %p1, [bar], %rd2, 1000;", "sm_90", "9.0",
     ["Arguments mismatch for instruction 'mbarrier.test_wait'"]),
    ("mbarrier.init.shared::cluster.b64 [bar], 1;", "sm_90", "9.0",
     ["Illegal modifier '::cluster' for instruction 'mbarrier.init'"]),
])
def test_mbarrier_errors(body, arch, version, msgs):
    assert errors_of(body, arch, version) == msgs
