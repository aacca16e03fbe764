"""atom / red / red.async: PTX text in, pylower's sync view / EIATTRs / errors / modifier word out
(rules: docs/findings/atomic.md, probes tests/corpus/probes/atomic)."""
import pytest

from pylower.lowering import atomic_word as W
from pylower.lowering import build, ori, parser
from pylower.lowering.diagnostics import PtxError
from pylower.lowering.target import parse_target
from pylower.pipeline import compile_text
from pylower.sass import eiattr
from pylower.tools.conformance import sync_view

HEAD = """.version {version}
.target {target}
.address_size 64
.visible .entry k(.param .u64 p)
{{
  .reg .pred %p<4>;
  .reg .b32 %r<16>;
  .reg .b64 %rd<16>;
  .reg .f32 %f<8>;
  .shared .align 16 .b8 s[2048];
  ld.param.u64 %rd1, [p];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd2, %rd3;
  mov.u32 %r2, s;
  mad.lo.u32 %r3, %r1, 4, %r2;
  mov.b32 %f1, %r1;
{body}
  ret;
}}
"""


def compile_body(body, arch="sm_90", version="9.0", opt_level=3):
    res = compile_text(HEAD.format(body=body, target=arch, version=version), "t.ptx", arch, opt_level=opt_level)
    fn = res.program.functions[0]
    return sync_view(fn), eiattr.counts(fn.eiattr)


def sync_of(body, arch="sm_90", **kw):
    return compile_body(body, arch, **kw)[0]


def errors_of(body, arch="sm_90", version="9.0"):
    with pytest.raises(PtxError) as e:
        compile_body(body, arch, version)
    return (e.value.message,) + e.value.more


USED = "  st.global.u32 [%rd4], %r10;"


# ---------------------------------------------------------------- modifier word
def test_word_layout_follows_the_seed():
    w = W.pack_word("max", "s32", True, "cta", True)
    assert w >> 28 == 0x6
    assert w >> 13 & 3 == 1 and w >> 10 & 7 == 2 and w & 0x100
    assert w >> 5 & 7 == 4 and w >> 2 & 7 == 5 and w & 3 == 1
    assert W.unpack_word(W.pack_word("add", "u32", False, "gpu", False)) == {
        "type": 0, "op": "add", "noret": False, "order": 4, "scope": "gpu", "addr32": False, "data_u32": True}


def test_nvptx_packing_and_token_order():
    assert W.pack_atomic_modifier(W.ORDER["acquire"], W.SCOPE_CTA) == 0x12
    assert W.pack_atomic_modifier(W.ORDER["relaxed"], W.map_sync_scope(""), True) == 0x221
    assert W.instruction_name("atom", "add", "u32", "shared", "relaxed", "cta") == "atom.relaxed.cta.add.u32.shared"


def test_ir_carries_the_word():
    text = HEAD.format(body="  atom.shared.add.u32 %r10, [s], %r1;\n" + USED, target="sm_90", version="9.0")
    mod = build.build(parser.parse(text, "t.ptx"), parse_target("sm_90"))
    dump = ori.print_module(mod)
    assert "!word=0x60000" in dump and "lea.shared %lea_s, s;" in dump      # ATOMS needs a register address
    assert ori.print_module(ori.parse_ir(dump)) == dump


# ---------------------------------------------------------------- opcode selection
@pytest.mark.parametrize("arch,red", [("sm_80", "RED"), ("sm_90", "REDG"), ("sm_120", "REDG")])
def test_dead_result_becomes_red(arch, red):
    assert sync_of("  atom.global.add.u32 %r10, [%rd4], %r1;", arch) == [f"{red}.E.ADD.STRONG.GPU"]
    assert sync_of("  atom.global.add.u32 %r10, [%rd4], %r1;\n" + USED, arch) == ["ATOMG.E.ADD.STRONG.GPU"]
    assert sync_of("  atom.global.exch.b32 %r10, [%rd4], %r1;", arch) == ["ATOMG.E.EXCH.STRONG.GPU"]


def test_scope_suffix_per_tier():
    body = "  atom.relaxed.cta.global.min.s32 %r10, [%rd4], %r1;\n" + USED
    assert sync_of(body, "sm_75") == ["ATOMG.E.MIN.S32.STRONG.CTA"]
    assert sync_of(body, "sm_80") == ["ATOMG.E.MIN.S32.STRONG.SM"]


def test_fences_around_ordered_atomics():
    body = "  atom.acq_rel.sys.global.add.u32 %r10, [%rd4], %r1;\n" + USED
    assert sync_of(body, "sm_80") == ["MEMBAR.ALL.SYS", "ERRBAR", "ATOMG.E.ADD.STRONG.SYS", "CCTL.IVALL"]
    assert sync_of(body, "sm_90") == ["MEMBAR.ALL.SYS", "ERRBAR", "CGAERRBAR", "ATOMG.E.ADD.STRONG.SYS", "CCTL.IVALL"]
    shared = "  atom.acquire.sys.shared.add.u32 %r10, [%r3], %r1;\n" + USED
    assert sync_of(shared, "sm_80") == ["ATOMS.ADD"]
    assert sync_of(shared, "sm_90") == ["ATOMS.ADD", "CCTL.IVALL"]


def test_shared_cas_loop_pairs_only_a_used_result():
    body = "  atom.shared.add.f32 %f2, [%r3], %f1;\n  st.global.f32 [%rd4], %f2;"
    assert sync_of(body, "sm_75") == ["BMOV.32.CLEAR", "BSSY", "ATOMS.CAST.SPIN", "BSYNC"]
    assert sync_of(body, "sm_100a") == ["BSSY.RECONVERGENT", "ATOMS.CAST.SPIN", "BSYNC.RECONVERGENT"]
    assert sync_of("  red.shared.add.f32 [%r3], %f1;", "sm_90") == ["ATOMS.CAST.SPIN"]


def test_generic_runtime_dispatch():
    body = "  atom.add.f32 %f2, [%rd4], %f1;\n  st.global.f32 [%rd4], %f2;"
    assert sync_of(body, "sm_80") == ["ATOM.E.ADD.F32.FTZ.RN.STRONG.GPU", "BSSY", "BSSY", "ATOMS.CAST.SPIN",
                                      "BSYNC", "BSYNC"]
    assert sync_of(body, "sm_90") == ["ATOM.E.ADD.F32.FTZ.RN.STRONG.GPU", "BSSY", "BSSY", "ATOMS.CAST.SPIN",
                                      "BSYNC", "BSSY", "ATOM.E.CAST.SPIN", "BSYNC", "BSYNC"]
    sync, ei = compile_body("  red.add.f32 [%rd4], %f1;", "sm_90")
    assert sync == ["ATOM.E.ADD.F32.FTZ.RN.STRONG.GPU", "ATOMS.CAST.SPIN", "ATOM.E.CAST.SPIN"]
    assert ei["EIATTR_EXIT_INSTR_OFFSETS"] == 4          # every path leaves the kernel itself


def test_vector_atom():
    body = "  atom.global.v2.f32.add {%f2, %f3}, [%rd4], {%f1, %f1};\n  st.global.f32 [%rd4], %f3;"
    assert sync_of(body, "sm_90") == ["ATOMG.E.ADD.F32x2.FTZ.RN.STRONG.GPU"]
    assert sync_of("  red.global.add.noftz.v4.f16x2 [%rd4], {%r1, %r1, %r1, %r1};") == ["REDG.E.ADD.F16x8.RN.STRONG.GPU"]


# ---------------------------------------------------------------- warp aggregation
@pytest.mark.parametrize("arch,seq,ww", [
    ("sm_75", ["VOTE.ANY", "RED.E.ADD.STRONG.GPU"] + ["SHFL.BFLY"] * 5 + ["RED.E.ADD.STRONG.GPU"], 6),
    ("sm_80", ["VOTEU.ANY", "REDUX.SUM", "RED.E.ADD.STRONG.GPU"], 2),
    ("sm_90", ["VOTEU.ANY", "REDUX.SUM", "REDG.E.ADD.STRONG.GPU"], 2),
])
def test_aggregation_dead_result(arch, seq, ww):
    sync, ei = compile_body("  red.global.add.u32 [%rd2], %r1;", arch)
    assert sync == seq and ei["EIATTR_INT_WARP_WIDE_INSTR_OFFSETS"] == ww
    assert sync_of("  red.global.add.u32 [%rd2], %r1;", arch, opt_level=0)[-1].endswith("ADD.STRONG.GPU")
    assert len(sync_of("  red.global.add.u32 [%rd2], %r1;", arch, opt_level=0)) == 1


def test_aggregation_min_is_credux_on_sm100():
    assert sync_of("  red.global.min.u32 [%rd2], %r1;", "sm_100a") == ["VOTEU.ANY", "CREDUX.MIN", "REDG.E.MIN.STRONG.GPU"]
    assert sync_of("  red.global.min.u32 [%rd2], %r1;", "sm_120") == ["VOTEU.ANY", "REDUX.MIN", "REDG.E.MIN.STRONG.GPU"]


def test_aggregation_used_result_scan_and_popc():
    scan = sync_of("  atom.global.add.u32 %r10, [%rd2], %r1;\n" + USED, "sm_90")
    assert scan == ["VOTE.ANY", "ATOMG.E.ADD.STRONG.GPU"] + ["SHFL.UP"] * 5 + \
        ["ATOMG.E.ADD.STRONG.GPU", "SHFL.UP", "SHFL.IDX"]
    assert sync_of("  atom.global.add.u32 %r10, [%rd2], 1;\n" + USED, "sm_90") == \
        ["VOTEU.ANY", "ATOMG.E.ADD.STRONG.GPU", "SHFL.IDX"]
    assert sync_of("  atom.global.min.u32 %r10, [%rd2], %r1;\n" + USED, "sm_90") == ["ATOMG.E.MIN.STRONG.GPU"]


def test_shared_increment_is_popc_inc():
    assert sync_of("  red.shared.add.u32 [%r3], 1;", "sm_80") == ["ATOMS.POPC.INC.32"]
    assert sync_of("  red.shared.add.u32 [%r3], 1;", "sm_75") == ["ATOMS.ADD"]


def test_predicated_aggregation_is_a_branch_in_a_pair():
    body = "  @%p1 atom.global.add.u32 %r10, [%rd2], %r1;\n" + USED
    text = body.replace("  @%p1", "  setp.lt.u32 %p1, %r1, 16;\n  @%p1")
    assert sync_of(text, "sm_90")[0] == "BSSY" and sync_of(text, "sm_90")[-1] == "BSYNC"


def test_predicated_aggregation_pair_is_unguarded_and_passes_the_block_barrier():
    # ptxas: `BSSY; BAR; ...; @!P BRA; VOTEU ...; BSYNC`, the pair itself not predicated (Triton's ticket form
    # `bar.sync; @p atom.add; @p st.shared; bar.sync`; tools/variations/entry_bar_atomic_region.py)
    text = "  bar.sync 0;\n  setp.lt.u32 %p1, %r1, 16;\n  @%p1 atom.global.add.u32 %r10, [%rd2], 1;\n" + USED
    for arch in ("sm_80", "sm_90"):
        res = compile_text(HEAD.format(body=text, target=arch, version="9.0"), "t.ptx", arch)
        fn = res.program.functions[0]
        assert sync_view(fn)[:2] == ["BSSY", "BAR.SYNC.DEFER_BLOCKING 0x0"]
        assert not any(i.guard for i in fn.instrs if i.opcode in ("BSSY", "BSYNC"))

def test_aggregation_run_shares_vote_and_hoists_redux():
    two = "  red.global.add.u32 [%rd2], %r1;\n  red.global.max.u32 [%rd2+4], %r2;"
    assert sync_of("  add.u32 %r2, %r1, 7;\n" + two, "sm_90") == \
        ["VOTEU.ANY", "REDUX.SUM", "REDUX.MAX", "REDG.E.ADD.STRONG.GPU", "REDG.E.MAX.STRONG.GPU"]
    # value computed inside the run: its REDUX stays in place, the vote is still shared
    late = two.replace("\n", "\n  ld.global.u32 %r2, [%rd4];\n")
    assert sync_of(late, "sm_80") == \
        ["VOTEU.ANY", "REDUX.SUM", "RED.E.ADD.STRONG.GPU", "REDUX.MAX", "RED.E.MAX.STRONG.GPU"]
    alu = two.replace("\n", "\n  shl.b32 %r2, %r1, 3;\n")
    assert sync_of(alu, "sm_90")[:3] == ["VOTEU.ANY", "REDUX.SUM", "REDUX.MAX"]
    # a fence ends the run; a barrier does not, but below sm_90 it costs a second VOTEU
    assert sync_of(two.replace("\n", "\n  fence.acq_rel.gpu;\n"), "sm_90").count("VOTEU.ANY") == 2
    bar = "  add.u32 %r2, %r1, 7;\n" + two.replace("\n", "\n  bar.sync 0;\n")
    assert sync_of(bar, "sm_90")[:3] == ["VOTEU.ANY", "REDUX.SUM", "REDUX.MAX"]
    assert sync_of(bar, "sm_86")[:4] == ["VOTEU.ANY", "VOTEU.ANY", "REDUX.SUM", "REDUX.MAX"]


# ---------------------------------------------------------------- red.async
def test_red_async_forms():
    mb = "  mov.u32 %r4, s;\n"
    cl = mb + "  red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u64 [%r3], %rd3, [%r4];"
    assert sync_of(cl, "sm_90") == ["REDAS.ADD.64"]
    rel = "  red.async.release.gpu.global.add.u32 [%rd4], %r1;"
    assert sync_of(rel, "sm_100a") == ["ELECT", "MEMBAR.ALL.CTA", "UREDGR.E.ADD.NA.STRONG.GPU", "DEPBAR.LE SB0, 0x0"]
    assert sync_of(rel, "sm_120") == ["MEMBAR.ALL.GPU", "ERRBAR", "CGAERRBAR", "REDG.E.ADD.STRONG.GPU"]


# ---------------------------------------------------------------- errors
@pytest.mark.parametrize("body,arch,msg", [
    ("atom.global.add.b32 %r10, [%rd4], %r1;", "sm_90", "Operation .add requires .u32 or .s32 or .u64 or .f64 or "
     "f16 or f16x2 or .f32 or .bf16 or .bf16x2 type for instruction 'atom'"),
    ("atom.global.cas.u32 %r10, [%rd4], %r1, %r2;", "sm_90", "Unexpected instruction types specified for 'atom'"),
    ("atom.sc.gpu.global.add.u32 %r10, [%rd4], %r1;", "sm_90", "Illegal modifier '.sc' for instruction 'atom'"),
    ("red.acquire.gpu.global.add.u32 [%rd4], %r1;", "sm_90", "Illegal modifier '.acquire' for instruction 'red'"),
    ("atom.global.add.u32.L2::cache_hint.cas %r10, [%rd4], %r1, %r2, %rd9;", "sm_90", None),
    ("atom.global.max.f16 %h1, [%rd4], %h2;", "sm_90", "Vector modifier required for instruction 'atom.max.f16.global'"),
    ("atom.add.noftz.bf16x2 %r10, [%rd4], %r1;", "sm_80",
     "Instruction 'atom.add.bf16x2 with generic state space' requires .target sm_90 or higher"),
    ("atom.relaxed.cluster.global.add.u32 %r10, [%rd4], %r1;", "sm_80", "Feature '.cluster scope' requires .target sm_90 or higher"),
    ("atom.shared.v2.f32.add {%f2, %f3}, [%r3], {%f1, %f1};", "sm_90",
     "State space incorrect for feature 'atom instruction with vector types'"),
    ("red.async.release.gpu.global.add.u32 [%rd4], %r1;", "sm_90",
     "Feature 'st.async/red.async with .global state space' requires .target sm_100 or higher"),
])
def test_rejections(body, arch, msg):
    msgs = errors_of("  .reg .b16 %h<4>;\n  " + body if "%h" in body else "  " + body, arch)
    if msg is not None:
        assert msg in msgs


def test_all_errors_of_one_instruction_are_reported():
    msgs = errors_of("  atom.global.v8.f32.add {%f1, %f1, %f1, %f1, %f1, %f1, %f1, %f1}, [%rd4], "
                     "{%f1, %f1, %f1, %f1, %f1, %f1, %f1, %f1};", "sm_80")
    assert msgs == ("Feature 'atom instruction with vector types' requires .target sm_90 or higher",
                    "Only .v2 or .v4 vector modifier supported with type .f32 on .add operation for atom instruction "
                    "with vector types", "Vector type too large, exceeds 128 bit limit")


@pytest.mark.parametrize("body, arch, opcode", [
    ("  fence.sc.cta;\n  atom.global.add.u32 %r5, [%rd4], %r1;", "sm_90", "ATOMG.E.ADD.STRONG.GPU"),
    ("  atom.global.add.u32 %r5, [%rd4], %r1;\n  membar.gl;", "sm_100a", "ATOMG.E.ADD.STRONG.GPU"),
    ("  atom.global.add.u32 %r5, [%rd4], %r1;\n  membar.gl;", "sm_80", "RED.E.ADD.STRONG.GPU"),
    ("  atom.global.add.u32 %r5, [%rd4], %r1;\n  fence.proxy.async;", "sm_90", "REDG.E.ADD.STRONG.GPU"),
    ("  red.global.add.u32 [%rd4], %r1;\n  fence.sc.cta;", "sm_90", "REDG.E.ADD.STRONG.GPU"),
])
def test_dead_atom_with_thread_fence_keeps_atomg(body, arch, opcode):
    # sm_90+: an sc/acq_rel thread fence anywhere in the function keeps a dead-result atom an ATOMG
    # (probes phases/atom_dead_fence_*, red_fence_after; llvm/atomics_syncscope)
    view, _ = compile_body(body, arch)
    assert opcode in view


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_used_popc_shares_run_vote(arch):
    # a used-result uniform add (POPC + SHFL.IDX) joins the run's single VOTEU.ANY (agg_run_*popc_used)
    view, _ = compile_body("  ld.param.u32 %r6, [p];\n  atom.global.add.u32 %r5, [%rd2], %r6;\n"
                           "  atom.global.add.u32 %r7, [%rd2+4], %r6;\n  st.global.u32 [%rd2+8], %r7;", arch)
    assert view.count("VOTEU.ANY") == 1 and "SHFL.IDX" in view


def test_acquire_broadcast_orders_what_follows_below_sm90():
    # docs/findings/scheduling.md "An acquire atomic's broadcast orders what follows it below sm_90"
    body = ("  atom.global.add.u32 %r10, [%rd2], 1;\n  atom.acquire.cta.global.add.u32 %r11, [%rd2], -2;\n"
            "  atom.global.min.s32 %r12, [%rd2], %r1;\n  add.s32 %r13, %r10, %r11;\n  add.s32 %r13, %r13, %r12;\n"
            "  st.global.u32 [%rd4], %r13;")
    assert sync_of(body, "sm_80") == ["VOTEU.ANY", "ATOMG.E.ADD.STRONG.GPU", "ATOMG.E.ADD.STRONG.SM", "SHFL.IDX",
                                      "ATOMG.E.MIN.S32.STRONG.GPU", "SHFL.IDX"]
    assert sync_of(body, "sm_90") == ["VOTEU.ANY", "ATOMG.E.ADD.STRONG.GPU", "ATOMG.E.ADD.STRONG.SM",
                                      "ATOMG.E.MIN.S32.STRONG.GPU", "SHFL.IDX", "SHFL.IDX"]
    gpu = body.replace(".cta", ".gpu")
    assert sync_of(gpu, "sm_80")[3:6] == ["SHFL.IDX", "CCTL.IVALL", "ATOMG.E.MIN.S32.STRONG.GPU"]
