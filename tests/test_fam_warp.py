"""Warp collectives (vote, match, activemask, redux, elect, shfl) and griddepcontrol / nanosleep: PTX text in,
pylower's sync view / EIATTRs / diagnostics out (rules: docs/findings/warp.md)."""
import pytest

from pylower.lowering.diagnostics import PtxError
from pylower.pipeline import compile_text
from pylower.tools.conformance import sync_view

HEAD = """
.version {version}
.target {target}
.address_size 64
{funcs}
.visible .entry k(.param .u64 out)
{{
  .reg .b32 %r<16>;
  .reg .b64 %rd<8>;
  .reg .pred %p<8>;
  .reg .f32 %f<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 7;
  cvt.u64.u32 %rd2, %r1;
  ld.global.u32 %r6, [%rd1+8];
{body}
  st.global.u32 [%rd1], %r2;
  st.global.u32 [%rd1+16], %r3;
  st.global.u32 [%rd1+20], %r4;
  st.global.f32 [%rd1+24], %f2;
  selp.u32 %r14, 1, 0, %p2;
  selp.u32 %r15, 1, 0, %p3;
  st.global.u32 [%rd1+28], %r14;
  st.global.u32 [%rd1+32], %r15;
  ret;
}}
"""


# every result the bodies write is stored: ptxas deletes a collective whose result is unused (warp.md 4a)


def compile_body(body, arch="sm_90", version="9.0", funcs="", options=None):
    text = HEAD.format(body=body, target=arch, version=version, funcs=funcs)
    res = compile_text(text, "t.ptx", arch, options=options)
    fn = next(f for f in res.program.functions if f.name == "k")
    return sync_view(fn), fn.eiattr, res.warnings


def error_of(body, arch="sm_90", version="9.0"):
    with pytest.raises(PtxError) as e:
        compile_body(body, arch, version)
    return e.value.line, e.value.message


LINE = 17          # the line of {body} in HEAD


# ---------------------------------------------------------------- selection per target group

@pytest.mark.parametrize("body,arch,sync", [
    ("vote.sync.any.pred %p2, %p1, 0xffffffff;", "sm_75", ["VOTE.ANY"]),
    ("vote.sync.all.pred %p2, %p1, 0xffffffff;", "sm_75", ["VOTEU.ANY", "VOTE.ANY"]),
    ("vote.sync.uni.pred %p2, !%p1, 0xffffffff;", "sm_75", ["VOTEU.ANY", "VOTE.ANY"]),
    ("vote.sync.all.pred %p2, %p1, 0xffffffff;", "sm_80", ["VOTE.ALL"]),
    ("vote.sync.uni.pred %p2, %p1, 0xffffffff;", "sm_120", ["VOTE.EQ"]),
    ("vote.sync.ballot.b32 %r2, %p1, 0xffff;", "sm_90", ["VOTE.ANY"]),
    ("match.any.sync.b64 %r2, %rd2, 0xffffffff;", "sm_75", ["MATCH.ANY.U64"]),
    ("match.all.sync.b32 %r2|%p2, %r1, 0xffffffff;", "sm_75", ["VOTE.ANY", "MATCH.ANY"]),
    ("match.all.sync.b32 %r2, %r1, %r6;", "sm_75", ["VOTEU.ANY", "MATCH.ANY"]),
    # a register only ever set to an immediate is a constant mask (VOTE), and one active-mask read per block
    ("mov.u32 %r7, -1;\n  match.all.sync.b32 %r2, %r1, %r7;\n  match.all.sync.b64 %r3, %rd2, %r7;", "sm_75",
     ["VOTE.ANY", "MATCH.ANY", "MATCH.ANY.U64"]),
    ("vote.sync.all.pred %p2, %p1, 0xffffffff;\n  vote.sync.uni.pred %p3, !%p1, 0xffffffff;", "sm_75",
     ["VOTEU.ANY", "VOTE.ANY", "VOTE.ANY"]),
    ("match.all.sync.b32 %r2, %r1, 0xffffffff;\n  vote.sync.all.pred %p2, %p1, 0xffffffff;", "sm_75",
     ["VOTE.ANY", "MATCH.ANY", "VOTE.ANY"]),     # the match needs it in a vector register: shared VOTE
    ("match.all.sync.b64 _|%p2, %rd2, 0xffffffff;", "sm_89", ["MATCH.ALL.U64"]),
    ("activemask.b32 %r2;", "sm_100a", ["VOTE.ANY"]),
    ("redux.sync.add.s32 %r2, %r1, 0xffffffff;", "sm_80", ["REDUX.SUM.S32"]),
    ("redux.sync.and.b32 %r2, %r1, 0xffffffff;", "sm_90", ["REDUX"]),
    ("redux.sync.min.u32 %r2, %r1, 0xffffffff;", "sm_103", ["CREDUX.MIN"]),
    ("redux.sync.max.s32 %r2, %r1, 0xffffffff;", "sm_110f", ["REDUX.MAX.S32"]),
    ("redux.sync.or.b32 %r2, %r1, 0xffffffff;", "sm_100a", ["REDUX.OR"]),
    ("redux.sync.max.abs.NaN.f32 %f2, %f1, 0xffffffff;", "sm_100f", ["CREDUX.MAXABS.F32.NAN"]),
    ("redux.sync.min.NaN.abs.f32 %f2, %f1, 0xffffffff;", "sm_103a", ["CREDUX.MINABS.F32.NAN"]),
    ("elect.sync %r2|%p2, 0xffffffff;", "sm_90", ["ELECT"]),
    ("elect.sync _|%p2, %r6;", "sm_120", ["ELECT"]),
    ("{ .reg .pred p;\n  elect.sync %r2|p, 0xffffffff; }", "sm_100a", ["ELECT"]),     # inline-asm scope
    ("shfl.sync.bfly.b32 %r2|%p2, %r1, 1, 0x1f, 0xffffffff;", "sm_75", ["SHFL.BFLY"]),
    ("shfl.sync.up.b32 %r2, %r1, %r6, 0, 0xffffffff;", "sm_90", ["SHFL.UP"]),
    ("shfl.sync.idx.b32 %r2, %r1, 3, 0x1f, 0xffffffff;", "sm_80", ["SHFL.IDX"]),
    ("shfl.sync.idx.b32 %r2, %r6, 3, 0x1f, 0xffffffff;", "sm_80", []),      # uniform value: folded (phase 71)
    ("griddepcontrol.wait;", "sm_90", ["ACQBULK"]),
    ("griddepcontrol.launch_dependents;", "sm_120", ["PREEXIT"]),
    ("nanosleep.u32 %r1;", "sm_75", ["NANOSLEEP.WARP"]),
    ("nanosleep.u32 100;", "sm_86", ["NANOSLEEP"]),
    # an active mask that a converged redux.sync also reduces is read as a value: ptxas keeps its VOTE.ANY on
    # sm_80-89, where a mask-only read is deleted (ptxas 13.0.88: `VOTE.ANY R, PT, PT; REDUX.SUM`)
    ("activemask.b32 %r5;\n  redux.sync.add.u32 %r2, %r5, %r5;", "sm_80", ["VOTE.ANY", "REDUX.SUM"]),
])
def test_selection(body, arch, sync):
    assert compile_body(body, arch)[0] == sync


# ---------------------------------------------------------------- EIATTRs

@pytest.mark.parametrize("body,arch,masks", [
    ("vote.sync.ballot.b32 %r2, %p1, 0xffffffff;", "sm_75", [0xFFFFFFFF]),
    ("vote.sync.ballot.b32 %r2, %p1, 0xffff;", "sm_89", [0xFFFFFFFF]),
    ("vote.sync.ballot.b32 %r2, %p1, 0xffff;", "sm_90", [0x05000000]),     # materialized in a register
    ("match.any.sync.b32 %r2, %r1, %r6;", "sm_80", [0x05000000]),
    ("redux.sync.add.u32 %r2, %r1, 0xffffffff;\n  shfl.sync.bfly.b32 %r3, %r1, 1, 0x1f, 0xffffffff;", "sm_80",
     [0xFFFFFFFF, 0xFFFFFFFF]),
    ("activemask.b32 %r2;", "sm_90", None),
    ("elect.sync %r2|%p2, 0xffffffff;", "sm_90", None),
    ("nanosleep.u32 %r1;", "sm_90", None),
])
def test_coop_group_entries(body, arch, masks):
    _, ei, _ = compile_body(body, arch)
    assert ei.get("EIATTR_COOP_GROUP_MASK_REGIDS") == masks
    assert len(ei.get("EIATTR_COOP_GROUP_INSTR_OFFSETS", [])) == len(masks or [])
    assert "EIATTR_INT_WARP_WIDE_INSTR_OFFSETS" not in ei


def test_activemask_with_redux_is_uniform():
    body = "redux.sync.add.u32 %r3, %r1, 0xffffffff;\n  activemask.b32 %r4;\n  add.u32 %r2, %r3, %r4;"
    assert compile_body(body, "sm_80")[0] == ["REDUX.SUM", "VOTEU.ANY"]


def test_legacy_vote_v63_warns_and_has_no_coop_entry():
    sync, ei, warnings = compile_body("vote.all.pred %p2, %p1;", "sm_75", version="6.3")
    assert sync == ["VOTE.ALL"]
    assert "EIATTR_COOP_GROUP_INSTR_OFFSETS" not in ei
    assert [w.message for w in warnings] == [
        "Instruction 'vote' without '.sync' may produce unpredictable results on sm_70 and later architectures",
        "Instruction 'vote' without '.sync' is deprecated since PTX ISA version 6.0 and will be discontinued in "
        "a future PTX ISA version"]


def test_sm70_intrinsic_call_is_a_coop_site():
    decl = ".extern .func (.param .b32 r) {name} (.param .b32 a, .param .b32 m);"
    call = ("{{ .param .b32 a0; .param .b32 a1; .param .b32 r0;\n  st.param.b32 [a0], %r1;\n"
            "  st.param.b32 [a1], -1;\n  call (r0), {name}, (a0, a1);\n  ld.param.b32 %r2, [r0]; }}")
    for name, coop in (("__cuda_sm70_votesync_ballot", 1), ("__cuda_sm70_shflsync_idx", 1),
                       ("__cuda_reduxsync_u32_add", 1), ("__cuda_sm70_votesync", 0), ("my_ballot", 0)):
        _, ei, _ = compile_body(call.format(name=name), "sm_90", funcs=decl.format(name=name),
                                options={"compile_only": True})
        assert len(ei.get("EIATTR_COOP_GROUP_INSTR_OFFSETS", [])) == coop, name


# ---------------------------------------------------------------- diagnostics (ptxas's first message)

@pytest.mark.parametrize("body,arch,version,msg", [
    ("vote.ballot.b32 %r2, %p1;", "sm_90", "9.0",
     "Instruction 'vote' without '.sync' is not supported on .target sm_70 and higher from PTX ISA version 6.4"),
    ("shfl.idx.b32 %r2, %r1, 1, 0x1f;", "sm_80", "8.0",
     "Instruction 'shfl' without '.sync' is not supported on .target sm_70 and higher from PTX ISA version 6.4"),
    ("vote.sync.all.b32 %r2, %p1, 0xffffffff;", "sm_90", "9.0",
     "Instruction 'vote' requires '.pred' type with '.all' modifier."),
    ("vote.sync.ballot.pred %p2, %p1, 0xffffffff;", "sm_90", "9.0",
     "Instruction 'vote' requires '.b32' type with '.ballot' modifier."),
    ("vote.sync.ballot.b64 %rd3, %p1, 0xffffffff;", "sm_90", "9.0", "Unexpected instruction types specified for 'vote'"),
    ("vote.sync.ballot.b32 %r2, %p1, %p3;", "sm_90", "9.0", "Arguments mismatch for instruction 'vote'"),
    ("vote.sync.ballot.b32 %r2, %p1;", "sm_90", "9.0", "Arguments mismatch for instruction 'vote'"),
    ("match.any.sync.b32 %r2|%p2, %r1, 0xffffffff;", "sm_90", "9.0",
     "Predicate output not allowed for instruction 'match.any'"),
    ("match.any.b32 %r2, %r1, 0xffffffff;", "sm_90", "9.0", ".sync modifier required for instruction 'match'"),
    ("match.any.sync.u32 %r2, %r1, 0xffffffff;", "sm_90", "9.0", "Unexpected instruction types specified for 'match'"),
    ("activemask.b64 %rd3;", "sm_90", "9.0", "Unexpected instruction types specified for 'activemask'"),
    ("redux.sync.add.u32 %r2, %r1, 0xffffffff;", "sm_75", "9.0", "Feature 'redux' requires .target sm_80 or higher"),
    ("redux.sync.add.u32 %r2, %r1, 0xffffffff;", "sm_75", "6.3", "Feature 'redux' requires .target sm_80 or higher"),
    ("redux.sync.add.u64 %rd3, %rd2, 0xffffffff;", "sm_75", "9.0", "Unexpected instruction types specified for 'redux'"),
    ("redux.sync.add.b32 %r2, %r1, 0xffffffff;", "sm_90", "9.0",
     "Incorrect type '.b32' for operation '.add' in instruction 'redux'"),
    ("redux.sync.min.abs.s32 %r2, %r1, 0xffffffff;", "sm_80", "9.0", "Feature '.abs' requires .target sm_86 or higher"),
    ("redux.sync.min.abs.s32 %r2, %r1, 0xffffffff;", "sm_90", "9.0",
     "Instruction 'redux' requires '.f32' type with '.abs' modifier."),
    ("redux.sync.min.f32 %f2, %f1, 0xffffffff;", "sm_100", "9.0", "Instruction 'redux.f32' not supported on .target 'sm_100'"),
    ("redux.sync.min.f32 %f2, %f1, 0xffffffff;", "sm_120a", "9.0",
     "Instruction 'redux.f32' not supported on .target 'sm_120a'"),
    ("redux.sync.min.NaN.f32 %f2, %f1, 0xffffffff;", "sm_100a", "8.6", None),
    ("redux.sync.add.f32 %f2, %f1, 0xffffffff;", "sm_103f", "9.0",
     "Incorrect type '.f32' for operation '.add' in instruction 'redux'"),
    ("redux.add.u32 %r2, %r1, 0xffffffff;", "sm_80", "9.0", ".sync modifier required for instruction 'redux'"),
    ("elect.sync %r2|%p2, 0xffffffff;", "sm_89", "9.0", "Feature 'elect' requires .target sm_90 or higher"),
    ("elect.sync %r2, 0xffffffff;", "sm_90", "9.0", "Predicate output expected for instruction 'elect'"),
    ("elect.sync %r2|%p2, 0xffffffff;", "sm_90", "7.8", "Feature 'elect' requires PTX ISA .version 8.0 or later"),
    ("griddepcontrol.wait;", "sm_89", "9.0", "Modifier '.wait' requires .target sm_90 or higher"),
    ("griddepcontrol.launch_dependents;", "sm_90", "7.8", None),
    ("griddepcontrol.signal;", "sm_90", "9.0", "Unknown modifier '.signal'"),
    ("shfl.sync.idx.f32 %f2, %f1, 1, 0x1f, 0xffffffff;", "sm_90", "9.0",
     "Unexpected instruction types specified for 'shfl'"),
    ("shfl.sync.idx.b32 %r2, %r1, 1, 0x1f;", "sm_90", "9.0", "Arguments mismatch for instruction 'shfl'"),
    ("nanosleep.u64 %rd2;", "sm_90", "9.0", "Unexpected instruction types specified for 'nanosleep'"),
])
def test_diagnostics(body, arch, version, msg):
    if msg is None:
        compile_body(body, arch, version)          # accepted
        return
    assert error_of(body, arch, version) == (LINE, msg)


def test_sm70_intrinsic_table_and_prefix_matcher():
    from pylower.lowering.sm70_intrinsics import SEED_PREFIXES, intrinsic_names, is_sm70_warp_sync
    names = intrinsic_names()
    assert sum(n.startswith("__cuda_sm70_barrier_") for n in names) == 160
    assert all(is_sm70_warp_sync(n) for n in names)
    seed_hits = [n for n in names if n.startswith(SEED_PREFIXES)]
    assert len(seed_hits) == 4 + 4 + 1          # votesync x4, matchsync x4, warpsync
    assert not is_sm70_warp_sync("__cuda_sm70_votesync") and is_sm70_warp_sync("__cuda_sm70_warpsyncX")


@pytest.mark.parametrize("probe, in_order", [
    ("pred_pressure_loop_invariant_8", True), ("pred_pressure_guards_8", True),
    ("pred_pressure_loop_invariant_7", False), ("pred_pressure_lane_tests_recomputed", False),
    ("pred_pressure_no_loop", False)])
def test_collectives_in_program_order_above_seven_predicates(probe, in_order):
    # more predicates held at once than P registers (7): the scan's SHFL.UPs all go before the independent
    # SHFL.BFLYs (docs/findings/scheduling.md "More live predicates than P registers: collectives in program order
    # (helper tsched25, stop 25)")
    from pathlib import Path
    text = (Path(__file__).parent / "corpus" / "probes" / "scheduling" / f"{probe}.ptx").read_text()
    for arch in ("sm_80", "sm_90"):
        fn = next(f for f in compile_text(text, "p.ptx", arch).program.functions if f.is_entry)
        kinds = "".join("U" if s.startswith("SHFL.UP") else "B" for s in sync_view(fn) if s.startswith("SHFL"))
        assert (kinds == "UUUUUUBBB") == in_order, (arch, kinds)


@pytest.mark.parametrize("reader, opcode", [
    ("add.u32 %r2, %r5, %r1;", "VOTEU.ANY"),
    ("popc.b32 %r7, %r5;\n  add.u32 %r2, %r7, %r1;", "VOTEU.ANY"),
    ("setp.ne.u32 %p4, %r5, 0;\n  selp.u32 %r2, %r1, 7, %p4;", "VOTEU.ANY"),
    ("setp.eq.u32 %p4, %r5, -1;\n  selp.u32 %r2, %r1, 7, %p4;", "VOTE.ANY"),
    ("mov.u32 %r2, %r5;", "VOTE.ANY"),
])
def test_ballot_of_uniform_predicate_into_uniform_readers_is_voteu(reader, opcode):
    # docs/findings/warp.md "A ballot of a warp-uniform predicate into uniform readers is VOTEU"
    body = f"ld.param.u32 %r8, [out];\n  setp.gt.u32 %p5, %r8, 3;\n  vote.sync.ballot.b32 %r5, %p5, -1;\n  {reader}"
    for arch in ("sm_75", "sm_90"):
        assert compile_body(body, arch)[0] == [opcode]
    divergent = body.replace("setp.gt.u32 %p5, %r8, 3;", "setp.gt.u32 %p5, %r1, 3;")
    assert compile_body(divergent, "sm_80")[0] == ["VOTE.ANY"]
