"""Async copies, bulk/TMA, st.async, tensormap, clusterlaunchcontrol: PTX text in, pylower's sync view /
errors out (rules: docs/findings/async.md)."""
import pytest

from pylower.lowering.diagnostics import PtxError
from pylower.pipeline import compile_text
from pylower.sass import eiattr
from pylower.tools.conformance import sync_view

HEAD = """.version {version}
.target {target}
.address_size 64
.visible .entry k(.param .u64 out, .param .u64 gp)
{{
  .reg .b32 %r<16>;
  .reg .b64 %rd<8>;
  .reg .pred %p<4>;
  .shared .align 8 .b64 bar;
  .shared .align 128 .b8 buf[1024];
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd2, [gp];
  mov.u32 %r1, %tid.x;
  mov.u32 %r10, 0;
  mov.u32 %r11, 1;
  mov.u32 %r12, 2;
{body}
  st.global.u32 [%rd1], 0;
  ret;
}}
"""


def compile_body(body, arch="sm_90", version="9.0"):
    res = compile_text(HEAD.format(body=body, target=arch, version=version), "t.ptx", arch)
    fn = next(f for f in res.program.functions if f.name == "k")
    return sync_view(fn), eiattr.counts(fn.eiattr), res.warnings


def errors_of(body, arch="sm_90", version="9.0"):
    with pytest.raises(PtxError) as e:
        compile_body(body, arch, version)
    return [e.value.message, *e.value.more]


_G2S = "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [buf], [%rd2], 256, [bar];"
_TMA = "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [buf], [%rd2, {%r10, %r11}], [bar];"


@pytest.mark.parametrize("body,arch,sync", [
    ("cp.async.ca.shared.global [buf], [%rd2], 8;\ncp.async.wait_all;", "sm_80",
     ["LDGSTS.E.64", "LDGDEPBAR", "DEPBAR.LE SB0, 0x0"]),
    ("cp.async.cg.shared.global.L2::256B [buf], [%rd2], 16, %r1;\ncp.async.commit_group;\ncp.async.wait_group 3;",
     "sm_90", ["LDGSTS.E.BYPASS.LTC256B.128.ZFILL", "LDGDEPBAR", "DEPBAR.LE SB0, 0x3"]),
    # a constant source size: 0 is the ignore-src form (no .ZFILL), a smaller non-zero size zero-fills
    ("cp.async.ca.shared.global [buf], [%rd2], 4, 0;\ncp.async.cg.shared.global [buf], [%rd2], 16, 0;\n"
     "cp.async.cg.shared.global [buf], [%rd2], 16, 8;\ncp.async.ca.shared.global [buf], [%rd2], 8, 8;", "sm_80",
     ["LDGSTS.E", "LDGSTS.E.BYPASS.128", "LDGSTS.E.BYPASS.128.ZFILL", "LDGSTS.E.64"]),
    ("cp.async.mbarrier.arrive.shared.b64 [bar];", "sm_80", ["VOTE.ALL", "ATOMS.ADD.S32", "ARRIVES.LDGSTSBAR.64"]),
    ("cp.async.ca.shared.global [buf], [%rd2], 4;\ncp.async.mbarrier.arrive.shared.b64 [bar];", "sm_86",
     ["VOTE.ALL", "LDGSTS.E", "ATOMS.ADD.S32", "ARRIVES.LDGSTSBAR.64"]),
    ("cp.async.mbarrier.arrive.noinc.shared.b64 [bar];", "sm_90", ["ARRIVES.LDGSTSBAR.64.ARVCNT"]),
    (_G2S, "sm_90", ["ELECT", "UBLKCP.S.G"]),
    ("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [buf], [%rd2], 256, "
     "[bar], %rs1;", "sm_120", []),                    # the sm_120 family: only the syscall
    ("cp.async.bulk.global.shared::cta.bulk_group [%rd2], [buf], 256;\ncp.async.bulk.commit_group;\n"
     "cp.async.bulk.wait_group 0;", "sm_100a", ["UBLKCP.G.S", "UTMACMDFLUSH", "DEPBAR.LE SB0, 0x0", "CCTL.IVALL"]),
    ("cp.async.bulk.wait_group.read 7;", "sm_90", ["DEPBAR.LE SB0, 0x7"]),
    ("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32 [%rd2], [buf], 256;", "sm_90",
     ["ELECT", "UBLKRED.G.S.ADD.F32.RN"]),
    ("cp.async.bulk.prefetch.L2.global [%rd2], 256;", "sm_90", ["UBLKPF.L2"]),
    (_TMA, "sm_90", ["ELECT", "UTMALDG.2D"]),
    ("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%rd2, {%r10, %r11}], [buf];", "sm_90",
     ["UTMASTG.2D"]),
    ("cp.async.bulk.prefetch.tensor.3d.L2.global.im2col [%rd2, {%r10, %r11, %r12}], {%rs1};", "sm_90",
     ["UTMAPF.L2.3D.IM2COL"]),
    ("cp.reduce.async.bulk.tensor.2d.global.shared::cta.max.tile.bulk_group [%rd2, {%r10, %r11}], [buf];", "sm_90",
     ["ELECT", "UTMAREDG.2D.MAX"]),
    ("tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.sys.sync.aligned [%rd2], [buf], 128;",
     "sm_90", ["ATOMG.E.EXCH.STRONG.SYS"]),
    ("mapa.shared::cluster.u32 %r2, buf, 1;\nmapa.shared::cluster.u32 %r3, bar, 1;\n"
     "st.async.shared::cluster.mbarrier::complete_tx::bytes.v2.b32 [%r2], {%r1, %r1}, [%r3];", "sm_90", ["STAS.64"]),
    ("st.async.mmio.release.gpu.global.b32 [%rd2], %r1;", "sm_100a", []),
    ("clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.b128 [buf], [bar];", "sm_100a",
     ["ELECT", "UGETNEXTWORKID.SELFCAST"]),
])
def test_async_forms(body, arch, sync):
    body = ".reg .b16 %rs<4>;\n" + body
    assert compile_body(body, arch)[0] == sync


def test_multicast_advisory_only_off_arch_specific_targets():
    body = ("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster "
            "[buf], [%rd2], 256, [bar], %rs1;")
    body = ".reg .b16 %rs<4>;\n" + body
    sync, _, warns = compile_body(body, "sm_90")
    assert sync == ["ELECT", "UBLKCP.S.G.MULTICAST"] and "instead of .target 'sm_90'" in warns[0].message
    assert compile_body(body, "sm_90a")[2] == []


def test_perthread_unicast_on_sm120_reconverges():
    body = ("mov.u32 %r5, buf;\nshl.b32 %r6, %r1, 4;\nadd.u32 %r5, %r5, %r6;\n"
            "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r5], [%rd2], 16, [bar];")
    assert compile_body(body, "sm_120")[0] == ["BSSY.RECONVERGENT", "ELECT", "UBLKCP.S.G", "BSYNC.RECONVERGENT"]
    assert compile_body(body, "sm_90")[0] == ["ELECT", "UBLKCP.S.G"]


@pytest.mark.parametrize("body,arch,version,msgs", [
    ("cp.async.ca.shared.global [buf], [%rd2], 2;", "sm_80", "9.0",
     ["Argument 2 of instruction 'cp.async': unexpected value '2', expected to be 4 or 8 or 16"]),
    ("cp.async.ca.shared.global [buf], [%rd2], 4;", "sm_75", "6.4",
     ["Feature 'cp.async' requires PTX ISA .version 7.0 or later", "Feature 'cp.async' requires .target sm_80 or higher"]),
    ("cp.async.wait_group %r1;", "sm_80", "9.0", ["Arguments mismatch for instruction 'cp.async.wait_group'"]),
    (_G2S, "sm_89", "9.0", ["Feature 'cp.async.bulk' requires .target sm_90 or higher",
                            "Feature '.mbarrier::complete_tx::bytes' requires .target sm_90 or higher"]),
    ("cp.async.bulk.shared::cluster.global [buf], [%rd2], 256, [bar];", "sm_90", "9.0",
     [".completion_mechanism modifier required for instruction 'cp.async.bulk'"]),
    ("cp.reduce.async.bulk.global.shared::cta.bulk_group.min.f32 [%rd2], [buf], 256;", "sm_90", "9.0",
     ["Incorrect type '.f32' for operation '.min' in instruction 'cp.reduce.async.bulk'"]),
    (_TMA.replace(".tile", ".tile.cta_group::2"), "sm_100", "9.0",
     ["Feature '.cta_group::2' not supported on .target 'sm_100'"]),
    ("tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [%rd2], [buf], 64;",
     "sm_90", "9.0", ["Argument 2 of instruction 'tensormap.cp_fenceproxy': unexpected value '64', expected to be 128"]),
    ("clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.multicast::cluster::all.b128 "
     "[buf], [bar];", "sm_120", "9.0", ["Feature '.multicast::cluster::all' not supported on .target 'sm_120'"]),
])
def test_async_errors(body, arch, version, msgs):
    assert errors_of(body, arch, version) == msgs


PROBES = "tests/corpus/probes/async/"


@pytest.mark.parametrize("probe, on", [("ltc_fragment_pipelined", True), ("ltc_fragment_pipelined_ca4", True),
                                       ("ltc_fragment_other_loop", True), ("ltc_fragment_same_trip", False),
                                       ("ltc_fragment_b_invariant", False), ("ltc_fragment_carried_only", False),
                                       ("ltc_fragment_b_same_trip", False),
                                       ("ltc_fragment_second_accumulator_same_trip", False)])
def test_l2_line_prefetch_of_a_software_pipelined_mma_loop(probe, on):
    """Every LDGSTS without its own .L2:: size gets .LTC128B when a loop of the function is a software-pipelined
    mma loop (docs/findings/async.md "cp.async `.LTC128B`: a software-pipelined mma loop (helper ldg28, stop 28)")."""
    from pathlib import Path
    text = (Path(__file__).resolve().parent.parent / PROBES / f"{probe}.ptx").read_text()
    res = compile_text(text, f"{probe}.ptx", "sm_80")
    ldgsts = [s for s in sync_view(res.program.functions[0]) if s.startswith("LDGSTS")]
    assert ldgsts and all(("LTC128B" in s) == on for s in ldgsts)


def test_l2_line_prefetch_only_at_O3():
    from pathlib import Path
    text = (Path(__file__).resolve().parent.parent / PROBES / "ltc_fragment_pipelined.ptx").read_text()
    res = compile_text(text, "p.ptx", "sm_80", opt_level=2)
    assert not any("LTC" in s for s in sync_view(res.program.functions[0]))
