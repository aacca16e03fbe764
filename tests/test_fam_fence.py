"""Memory barriers and fences: PTX text in, pylower's sync view / SASS / EIATTRs / errors out
(rules: docs/findings/fence.md, probes tests/corpus/probes/fence)."""
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
  .reg .b64 %rd<4>;
  .reg .pred %p<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 7;
  st.global.u32 [%rd1+8], %r1;
{body}
  st.global.u32 [%rd1], %r1;
  ret;
}}
"""
FENCE_LINE = 13


def compile_fn(body, arch="sm_90", version="9.0"):
    res = compile_text(HEAD.format(body=body, target=arch, version=version), "t.ptx", arch)
    return next(f for f in res.program.functions if f.name == "k")


def sync_of(body, arch="sm_90", version="9.0"):
    return sync_view(compile_fn(body, arch, version))


def errors_of(body, arch="sm_90", version="9.0"):
    with pytest.raises(PtxError) as e:
        compile_fn(body, arch, version)
    assert e.value.line == FENCE_LINE
    return [e.value.message, *e.value.more]


GPU_P = ["ERRBAR", "CCTL.IVALL"]                       # sm_75-89
GPU_H = ["ERRBAR", "CGAERRBAR", "CCTL.IVALL"]          # sm_90 and later


# ---------------------------------------------------------------- thread fences and membar, per tier

@pytest.mark.parametrize("fence,arch,sync", [
    ("membar.cta;", "sm_75", ["MEMBAR.SC.CTA"]),
    ("fence.sc.cta;", "sm_120", ["MEMBAR.SC.CTA"]),
    ("fence.acq_rel.cta;", "sm_100a", ["MEMBAR.ALL.CTA"]),
    ("fence.cta;", "sm_89", ["MEMBAR.ALL.CTA"]),
    ("membar.gl;", "sm_80", ["MEMBAR.SC.GPU"] + GPU_P),
    ("membar.gl;", "sm_90", ["MEMBAR.SC.GPU"] + GPU_H),
    ("fence.sc.gpu;", "sm_86", ["MEMBAR.SC.GPU"] + GPU_P),
    ("fence.acq_rel.gpu;", "sm_100a", ["MEMBAR.ALL.GPU"] + GPU_H),
    ("fence.gpu;", "sm_75", ["MEMBAR.ALL.GPU"] + GPU_P),
    ("membar.sys;", "sm_75", ["MEMBAR.SC.SYS"] + GPU_P),
    ("fence.sc.sys;", "sm_90a", ["MEMBAR.SC.SYS"] + GPU_H),
    ("fence.sys;", "sm_121f", ["MEMBAR.ALL.SYS"] + GPU_H),
    # cluster scope is a GPU-scope MEMBAR
    ("fence.sc.cluster;", "sm_90", ["MEMBAR.SC.GPU"] + GPU_H),
    ("fence.cluster;", "sm_110", ["MEMBAR.ALL.GPU"] + GPU_H),
    # release = acq_rel without the CCTL; acquire = only the CCTL (nothing at CTA scope)
    ("fence.release.cta;", "sm_90", ["MEMBAR.ALL.CTA"]),
    ("fence.release.cluster;", "sm_90", ["MEMBAR.ALL.GPU", "ERRBAR", "CGAERRBAR"]),
    ("fence.release.sys;", "sm_100a", ["MEMBAR.ALL.SYS", "ERRBAR", "CGAERRBAR"]),
    ("fence.acquire.cta;", "sm_90", []),
    ("fence.acquire.gpu;", "sm_120", ["CCTL.IVALL"]),
    ("fence.acquire.cluster;", "sm_90", ["CCTL.IVALL"]),
])
def test_thread_fence_sequences(fence, arch, sync):
    assert sync_of(fence, arch) == sync


@pytest.mark.parametrize("arch", ["sm_100a", "sm_103f", "sm_120"])
def test_blackwell_keeps_membar_no_fence_opcodes(arch):
    """The seed's FENCE_G/S/T for sc/acq_rel fences on sm_100+ does not hold in 13.0.88: still MEMBAR."""
    got = sync_of("fence.sc.cta;\n fence.sc.gpu;\n fence.acq_rel.cta;", arch)
    assert got == ["MEMBAR.SC.CTA", "MEMBAR.SC.GPU"] + GPU_H + ["MEMBAR.ALL.CTA"]
    assert not any(s.startswith(("FENCE_G", "FENCE_S", "FENCE_T")) for s in got)


def test_adjacent_fences_are_never_merged():
    assert sync_of("membar.sys;\n membar.sys;\n fence.sc.gpu;", "sm_80") == \
        ["MEMBAR.SC.SYS"] + GPU_P + ["MEMBAR.SC.SYS"] + GPU_P + ["MEMBAR.SC.GPU"] + GPU_P


@pytest.mark.parametrize("arch", ["sm_75", "sm_90"])
def test_membar_sys_drives_no_eiattr(arch):
    """ptxas 13.0.88 emits neither SW_WAR_MEMBAR_SYS_INSTR_OFFSETS nor GEN_ERRBAR_AT_EXIT (re-checked)."""
    ei = eiattr.counts(compile_fn("membar.sys;", arch).eiattr)
    assert "EIATTR_SW_WAR_MEMBAR_SYS_INSTR_OFFSETS" not in ei and "EIATTR_GEN_ERRBAR_AT_EXIT" not in ei


def test_undecodable_pre_hopper_acquire_release_is_accepted():
    # ISA: sm_90+; ptxas accepts them on sm_75-89 (its cubin does not disassemble), without the 8.6 gate
    compile_fn("fence.acquire.gpu;\n fence.release.cta;", "sm_80", version="8.5")


# ---------------------------------------------------------------- proxy fences

@pytest.mark.parametrize("fence,arch,sync", [
    ("fence.proxy.async;", "sm_90", ["MEMBAR.ALL.GPU", "FENCE.VIEW.ASYNC.S"]),
    ("fence.proxy.async.shared::cluster;", "sm_100a", ["MEMBAR.ALL.GPU", "FENCE.VIEW.ASYNC.S"]),
    ("fence.proxy.async.shared::cta;", "sm_120", ["MEMBAR.ALL.CTA", "FENCE.VIEW.ASYNC.S"]),
    ("fence.proxy.async.global;", "sm_90", ["FENCE.VIEW.ASYNC.G"]),
    ("fence.proxy.tensormap::generic.release.cta;", "sm_90", ["MEMBAR.ALL.GPU", "ERRBAR", "CGAERRBAR"]),
    ("fence.proxy.tensormap::generic.release.sys;", "sm_100a", ["MEMBAR.ALL.SYS", "ERRBAR", "CGAERRBAR"]),
    ("fence.proxy.tensormap::generic.acquire.gpu [%rd1], 128;", "sm_90", ["DEPBAR {5,4,3,2,1,0}", "UTMACCTL.IV"]),
    ("fence.proxy.tensormap::generic.acquire.sys [%rd1+64], 128;", "sm_100a",
     ["DEPBAR {5,4,3,2,1,0}", "CCTL.E.C.LDCU.IV.DEEP", "UTMACCTL.IV"]),
    ("fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster;", "sm_90",
     ["MEMBAR.ALL.CTA", "FENCE.VIEW.ASYNC.S"]),
    ("fence.proxy.async::generic.acquire.sync_restrict::shared::cluster.cluster;", "sm_90", []),
    ("fence.release.sync_restrict::shared::cta.cluster;", "sm_100a", ["MEMBAR.ALL.CTA", "FENCE.VIEW.ASYNC.S"]),
    ("fence.acquire.sync_restrict::shared::cluster.cluster;", "sm_90", []),
    ("fence.mbarrier_init.release.cluster;", "sm_90", []),
    # alias: static on sm_75, a run-time choice from sm_80 (layout order differs by tier)
    ("fence.proxy.alias;", "sm_75", ["MEMBAR.SC.GPU", "CCTL.IVALL"]),
    ("membar.proxy.alias;", "sm_80", ["MEMBAR.SC.SYS", "MEMBAR.SC.GPU", "CCTL.IVALL"]),
    ("fence.proxy.alias;", "sm_90", ["MEMBAR.SC.GPU", "MEMBAR.SC.SYS", "CCTL.IVALL"]),
])
def test_proxy_fence_sequences(fence, arch, sync):
    assert sync_of(fence, arch) == sync


def test_alias_runtime_choice_branches_to_numbered_labels():
    text = [i.text() for i in compile_fn("fence.proxy.alias;", "sm_80").instrs]
    assert "BRA `(.L_x_0)" in text and "BRA `(.L_x_1)" in text
    labels = [i.label for i in compile_fn("fence.proxy.alias;", "sm_80").instrs if i.label]
    assert labels == [".L_x_0", ".L_x_1"]


def test_tensormap_acquire_per_thread_address_retry_loop():
    per_thread = compile_fn("mul.wide.u32 %rd2, %r1, 128;\n add.u64 %rd2, %rd1, %rd2;\n"
                            " fence.proxy.tensormap::generic.acquire.gpu [%rd2], 128;", "sm_90")
    uniform = compile_fn("add.u64 %rd2, %rd1, 256;\n fence.proxy.tensormap::generic.acquire.gpu [%rd2], 128;")
    assert any(i.mnemonic == "BRA.U.ANY" for i in per_thread.instrs)
    assert any(i.opcode == "R2UR" for i in per_thread.instrs)
    assert not any(i.mnemonic == "BRA.U.ANY" for i in uniform.instrs)
    assert sync_view(per_thread) == sync_view(uniform) == ["DEPBAR {5,4,3,2,1,0}", "UTMACCTL.IV"]


@pytest.mark.parametrize("fence,kept", [
    ("membar.sys;", True), ("fence.acq_rel.cta;", True), ("fence.proxy.async;", True),
    ("fence.release.cta;", False), ("fence.acquire.gpu;", False),
])
def test_divergent_region_with_fence_keeps_its_branch(fence, kept):
    """ptxas never predicates membar / sc / acq_rel / proxy fences: their divergent region gets BSSY/BSYNC;
    acquire/release thread fences are if-converted like ordinary instructions."""
    sync = sync_of(f"@%p1 bra $L_skip;\n st.global.u32 [%rd1+4], %r1;\n {fence}\n$L_skip:", "sm_90")
    assert (sync[0] == "BSSY" and sync[-1] == "BSYNC") is kept


# ---------------------------------------------------------------- diagnostics (ptxas's text and order)

@pytest.mark.parametrize("fence,arch,version,messages", [
    ("fence.sc;", "sm_90", "9.0", ["Scope modifier required for instruction 'fence'",
                                   "Modifier '.sc' requires scope with 'fence' instruction"]),
    ("fence;", "sm_75", "9.0", ["Scope modifier required for instruction 'fence'",
                                "Modifier '.acq_rel' requires scope with 'fence' instruction"]),
    ("membar.gpu;", "sm_90", "9.0", ["Illegal modifier '.gpu' for instruction 'membar'"]),
    ("membar;", "sm_80", "9.0", ["Membar level required for instruction 'membar'"]),
    ("membar.cta.sys;", "sm_80", "9.0", ["Multiple scope modifiers specified"]),
    ("fence.sc.acq_rel.gpu;", "sm_90", "9.0", ["Duplicate .acq_rel modifier"]),
    ("fence.sc.gpu %r1;", "sm_90", "9.0", ["Arguments mismatch for instruction 'fence'"]),
    ("membar.proxy.async;", "sm_80", "9.0", ["Modifier '.async' requires .target sm_90 or higher",
                                            "Illegal modifier '.async' for instruction 'membar.proxy'"]),
    ("fence.sc.cluster;", "sm_88", "7.7", ["Feature '.cluster scope' requires .target sm_90 or higher",
                                           "Feature '.cluster scope' requires PTX ISA .version 7.8 or later"]),
    ("fence.acquire.sync_restrict::shared::cta.cluster;", "sm_80", "9.0", [
        "Feature '.sync_restrict' requires .target sm_90 or higher",
        "Modifier '.sync_restrict::shared::cta' cannot be combined with modifier '.acquire'",
        "Feature '.cluster scope' requires .target sm_90 or higher"]),
    ("fence.release.sync_restrict::shared::cta.gpu;", "sm_90", "9.0",
     ["Modifier '.sync_restrict::shared::cta' cannot be combined with modifier '.gpu'"]),
    ("fence.mbarrier_init.release.cluster;", "sm_86", "7.8", [
        "Feature '.op_restrict' requires .target sm_90 or higher",
        "Feature '.op_restrict' requires PTX ISA .version 8.0 or later",
        "Modifier '.mbarrier_init' requires PTX ISA .version 8.0 or later",
        "Modifier '.mbarrier_init' requires .target sm_90 or higher",
        "Feature '.cluster scope' requires .target sm_90 or higher"]),
    ("fence.mbarrier_init.release;", "sm_90", "9.0", [
        "Modifier '.mbarrier_init' requires modifier 'scope'",
        "Modifier '.mbarrier_init' cannot be combined with modifier ''",
        "Scope modifier required for instruction 'fence'",
        "Modifier '.release' requires scope with 'fence' instruction"]),
    ("fence.proxy.async.shared;", "sm_90", "9.0", ["State space incorrect for instruction 'fence.proxy'"]),
    ("fence.proxy.async.shared::cluster;", "sm_75", "9.0", [
        "Modifier '.async' requires .target sm_90 or higher",
        "Feature '::cluster' requires .target sm_90 or higher"]),
    ("fence.proxy.alias;", "sm_86", "7.4", ["Modifier '.alias' requires PTX ISA .version 7.5 or later",
                                           "Feature 'fence.proxy' requires PTX ISA .version 7.5 or later"]),
    ("fence.proxy.tensormap;", "sm_80", "9.0", [
        ".proxykind modifier required for instruction 'fence.proxy'",
        "Illegal modifier '.tensormap' for instruction 'fence.proxy'",
        "Modifier '.tensormap' requires .target sm_90 or higher",
        "Illegal modifier '.tensormap' for instruction 'fence.proxy'"]),
    ("fence.proxy.generic::tensormap.release.gpu;", "sm_90", "9.0", [
        "Unknown modifier '.generic::tensormap'",
        ".proxykind modifier required for instruction 'fence.proxy'",
        "Illegal modifier '.release' for instruction 'fence.proxy'",
        "Illegal modifier '.gpu' for instruction 'fence.proxy'"]),
    ("fence.proxy.tensormap::generic.release.gpu;", "sm_80", "8.2", [
        "Feature 'fence.proxy with unidirection proxy fence' requires PTX ISA .version 8.3 or later",
        "Instruction 'fence.proxy with unidirection proxy fence' not supported on .target 'sm_80'"]),
    ("fence.proxy.tensormap::generic.acquire.gpu [%rd1], 64;", "sm_90", "9.0",
     ["Argument 1 of instruction 'fence.proxy': unexpected value '64', expected to be 128"]),
    ("fence.proxy.tensormap::generic.acquire.gpu [%rd1], %r1;", "sm_80", "9.0",
     ["Arguments mismatch for instruction 'fence.proxy'"]),
    ("fence.proxy.tensormap::generic.acquire.gpu;", "sm_90", "9.0",
     [".acquire modifier required for instruction 'fence.proxy' with 2 arguments"]),
    ("fence.proxy.tensormap::generic.release.gpu [%rd1], 128;", "sm_90", "9.0",
     [".release modifier required for instruction 'fence.proxy' with 0 arguments"]),
    ("fence.proxy.tensormap::generic.gpu;", "sm_90", "9.0",
     [".acquire/.release modifier required for instruction 'fence.proxy'"]),
    ("fence.proxy.async::generic.release.gpu;", "sm_90", "9.0", [
        ".cluster modifier required for instruction 'fence.proxy'",
        ".sync_restrict::shared::cta modifier required for instruction 'fence.proxy'"]),
    ("fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster;", "sm_80", "8.0", [
        "Feature 'fence.proxy with unidirection proxy fence' requires PTX ISA .version 8.3 or later",
        "Instruction 'fence.proxy with unidirection proxy fence' not supported on .target 'sm_80'",
        "Feature '.sync_restrict' requires .target sm_90 or higher",
        "Feature '.sync_restrict' requires PTX ISA .version 8.6 or later",
        "Feature '.cluster scope' requires .target sm_90 or higher"]),
])
def test_errors(fence, arch, version, messages):
    assert errors_of(fence, arch, version) == messages


def test_error_format_prints_every_message():
    with pytest.raises(PtxError) as e:
        compile_fn("fence.sc;")
    lines = e.value.format("t.ptx").splitlines()
    assert all(line.startswith("t.ptx:13:") for line in lines)
    assert [line.split(": error: ")[1] for line in lines] == [
        "Scope modifier required for instruction 'fence'", "Modifier '.sc' requires scope with 'fence' instruction"]


LOOP = """  mov.u32 %r3, 0;
$L_loop:
  ld.global.u32 %r4, [%rd1+16];
  {fence}
  add.u32 %r3, %r3, 1;
  setp.lt.u32 %p2, %r3, 4;
  @%p2 bra $L_loop;"""


@pytest.mark.parametrize("fence,copies", [
    ("membar.cta;", 1), ("fence.gpu;", 1), ("fence.sc.sys;", 1),
    ("fence.acquire.gpu;", 4), ("fence.release.cta;", 4), ("fence.proxy.alias;", 4),
])
def test_only_sc_and_acq_rel_fences_stop_unrolling(fence, copies):
    one = sync_of(fence, "sm_90")
    assert sync_of(LOOP.format(fence=fence), "sm_90") == one * copies


def test_knob_disable_errbar_after_membar():
    from pylower.pipeline import compile_text
    from pylower.tools.conformance import sync_view as view
    text = """.version 9.0
.target sm_90
.address_size 64
.visible .entry k()
{
    membar.sys;
    ret;
}
"""
    default = compile_text(text, "k.ptx", "sm_90")
    assert view(default.program.functions[0]) == ["MEMBAR.SC.SYS", "ERRBAR", "CGAERRBAR", "CCTL.IVALL"]
    knob = compile_text(text, "k.ptx", "sm_90", knobs={"DisableErrbarAfterMembar": 1})
    assert view(knob.program.functions[0]) == ["MEMBAR.SC.SYS", "CCTL.IVALL"]


def test_knob_disable_errbar_after_membar_reaches_every_release_sequence():
    """One release-fence sequence (isel/sequences.py) for fences, atomics, ordered stores and cluster
    barriers: the knob drops the error barriers from all of them."""
    from pylower.pipeline import compile_text
    from pylower.tools.conformance import sync_view as view
    text = """.version 9.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 p)
{
    .reg .b32 %r<4>;
    .reg .b64 %rd<2>;
    ld.param.u64 %rd1, [p];
    atom.release.gpu.global.add.u32 %r1, [%rd1], 1;
    atom.acq_rel.gpu.global.add.u32 %r2, [%rd1], %r1;
    red.release.gpu.global.add.u32 [%rd1], %r2;
    st.release.gpu.global.u32 [%rd1], %r2;
    barrier.cluster.arrive.release;
    barrier.cluster.wait;
    ret;
}
"""
    default = view(compile_text(text, "k.ptx", "sm_90").program.functions[0])
    knob = view(compile_text(text, "k.ptx", "sm_90", knobs={"DisableErrbarAfterMembar": 1}).program.functions[0])
    # six: the aggregated acq_rel prefix scan's leader issues the release fence before each of its two ATOMGs
    # from sm_90 (AGG_LEADER_FENCES; ptxas 13.0.88 gives this kernel the same sync sequence)
    assert default.count("ERRBAR") == 6 and default.count("CGAERRBAR") == 6
    assert "ERRBAR" not in knob and "CGAERRBAR" not in knob
    assert [s for s in default if s not in ("ERRBAR", "CGAERRBAR")] == knob
