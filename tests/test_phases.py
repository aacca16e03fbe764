"""The sync phases (22 loop unrolling, 25, 26, 71, 72) and ptxas's sync options: PTX text in, assertions on
pylower's sync-family view, EIATTRs and messages. One-phase IR tests (IR in, that phase's output checked by
FileCheck lines) are tests/ir/ (tests/test_ir.py)."""
from pathlib import Path

import pytest

from pylower.lowering import ori
from pylower.lowering.diagnostics import PtxError
from pylower.pipeline import compile_text
from pylower.sass.eiattr import counts
from pylower.tools import ptxas_options
from pylower.tools.conformance import sync_view
from pylower.tools.pylower import run

ROOT = Path(__file__).resolve().parent.parent
BAR = {"sm_75": "BAR.SYNC 0x0", "sm_80": "BAR.SYNC.DEFER_BLOCKING 0x0", "sm_90": "BAR.SYNC.DEFER_BLOCKING 0x0",
       "sm_100a": "BAR.SYNC.DEFER_BLOCKING 0x0"}
FULL_WARPSYNC = {"sm_75": "WARPSYNC", "sm_80": "WARPSYNC", "sm_90": "WARPSYNC.ALL", "sm_100a": "WARPSYNC.ALL"}


def kernel(body: str, arch: str = "sm_75", decls: str = "") -> str:
    return (f".version 9.0\n.target {arch}\n.address_size 64\n{decls}\n.visible .entry k(.param .u64 p)\n{{\n"
            "  .reg .b32 %r<16>; .reg .b64 %rd<4>; .reg .pred %p<4>;\n  .shared .align 4 .b32 s[64];\n"
            f"  ld.param.u64 %rd1, [p];\n  mov.u32 %r1, %tid.x;\n{body}\n  ret;\n}}\n")


def compile_k(body, arch, opt=3, options=None, knobs=None, decls=""):
    return compile_text(kernel(body, arch, decls), "t.ptx", arch, opt, knobs, options)


def sync(body, arch, opt=3, options=None, knobs=None, decls=""):
    res = compile_k(body, arch, opt, options, knobs, decls)
    return sync_view(next(f for f in res.program.functions if f.name == "k"))


def coop(body, arch, opt=3, options=None):
    res = compile_k(body, arch, opt, options)
    return counts(res.program.functions[0].eiattr).get("EIATTR_COOP_GROUP_INSTR_OFFSETS", 0)


DIV_IF = """  setp.lt.u32 %p1, %r1, 16;
  mov.u32 %r4, 0;
  @!%p1 bra L1;
{inner}
L1:
  st.global.u32 [%rd1], %r4;"""

LOOP = """  mov.u32 %r3, 0;
  mov.u32 %r4, 0;
LOOP:
{pragma}  bar.sync 0;
{extra}  ld.shared.u32 %r5, [s];
  add.u32 %r4, %r4, %r5;
  st.shared.u32 [s], %r4;
  add.u32 %r3, %r3, 1;
  setp.lt.u32 %p1, %r3, {bound};
  @%p1 bra LOOP;
  st.global.u32 [%rd1], %r4;"""


def loop(bound="4", pragma="", extra="", pre=""):
    return pre + LOOP.format(bound=bound, pragma=pragma, extra=extra)

# ---------------------------------------------------------------- phase 72 / 71: CTA barriers


@pytest.mark.parametrize("arch", ["sm_75", "sm_80", "sm_90", "sm_100a"])
def test_O0_reconverges_before_every_cta_barrier(arch):
    body = "  bar.sync 0;\n  bar.arrive 1, 64;\n  bar.sync 0;"
    arv = "BAR.ARV 0x1, 0x40"
    assert sync(body, arch, 0) == [FULL_WARPSYNC[arch], BAR[arch], FULL_WARPSYNC[arch], arv, FULL_WARPSYNC[arch], BAR[arch]]
    assert sync(body, arch, 1) == [BAR[arch], arv, BAR[arch]]


@pytest.mark.parametrize("arch", ["sm_75", "sm_80", "sm_90", "sm_100a"])
def test_divergent_cta_barrier_reconverges_below_sm90_only(arch):
    body = DIV_IF.format(inner="  bar.sync 0;\n  ld.shared.u32 %r4, [s];")
    want = [BAR[arch]] if arch in ("sm_90", "sm_100a") else [FULL_WARPSYNC[arch], BAR[arch]]
    assert sync(body, arch) == want


EXTERN = ".extern .func (.param .b32 r) ext_f (.param .b32 a);"
CALL = """  bar.sync 0;
  {
  .param .b32 pa; .param .b32 pr;
  st.param.b32 [pa], %r1;
  call.uni (pr), ext_f, (pa);
  ld.param.b32 %r4, [pr];
  }
  bar.sync 0;"""


@pytest.mark.parametrize("arch", ["sm_75", "sm_90"])
@pytest.mark.parametrize("assume", [None, True, False])
def test_barrier_after_extern_call_reconverges(arch, assume):
    options = {"compile_only": True}
    if assume is not None:
        options["assume_extern_functions_do_not_sync"] = assume
    assert sync(CALL, arch, 3, options, decls=EXTERN) == [BAR[arch], FULL_WARPSYNC[arch], BAR[arch]]


def test_extern_call_needs_c():
    with pytest.raises(PtxError, match="Unresolved extern function 'ext_f'"):
        compile_k(CALL, "sm_75", decls=EXTERN)


def test_knob_487_disables_the_sync_phases():
    assert sync("  bar.sync 0;", "sm_75", 0, knobs={"487": 0}) == [BAR["sm_75"]]
    assert sync("  bar.sync 0;", "sm_75", 0) == ["WARPSYNC", BAR["sm_75"]]

# ---------------------------------------------------------------- warp-synchronous ops


@pytest.mark.parametrize("mask", ["0xffffffff", "0x0000ffff"])
@pytest.mark.parametrize("arch", ["sm_75", "sm_90"])
def test_converged_bar_warp_sync(arch, mask):
    body = f"  bar.warp.sync {mask};"
    assert sync(body, arch, 3) == []
    assert coop(body, arch, 3) == 1             # deleted, but still listed
    o0 = ["WARPSYNC"] if arch == "sm_75" else ["WARPSYNC.COLLECTIVE", "ENDCOLLECTIVE"]
    assert sync(body, arch, 0) == o0
    assert coop(body, arch, 0) == (2 if arch == "sm_75" else 1)


TID_MASK = "  shl.b32 %r9, 1, %r1;\n  or.b32 %r9, %r9, 1;\n  bar.warp.sync %r9;"


@pytest.mark.parametrize("arch,overlap,want", [
    ("sm_75", None, []), ("sm_75", True, []), ("sm_75", False, ["MATCH.ALL", "WARPSYNC"]),
    ("sm_80", None, ["VOTEU.ANY", "MATCH.ANY", "REDUX.OR", "WARPSYNC"]), ("sm_80", True, []),
    ("sm_80", False, ["VOTEU.ANY", "MATCH.ANY", "REDUX.OR", "WARPSYNC"]),
    ("sm_90", None, ["WARPSYNC"]), ("sm_90", True, ["WARPSYNC"]), ("sm_100a", False, ["WARPSYNC"]),
])
def test_per_thread_member_mask(arch, overlap, want):
    options = {} if overlap is None else {"no_membermask_overlap": overlap}
    assert sync(TID_MASK, arch, 3, options) == want


def test_print_overlapping_membermasks():
    res = compile_k(TID_MASK, "sm_75", 3, {"print_potentially_overlapping_membermasks": True})
    assert sync_view(res.program.functions[0]) == ["MATCH.ALL", "WARPSYNC"]
    (w,) = res.warnings
    assert w.severity == "info" and w.line == 13
    assert w.message == ("(C8100) Compiler assumes threads executing this sync instruction may have distinct "
                         "but overlapping membermasks.")
    res = compile_k(TID_MASK, "sm_80", 3, {"print_potentially_overlapping_membermasks": True})
    assert [w.message for w in res.warnings] == [
        "Command line option '--print-potentially-overlapping-membermasks' not supported for 'sm_80', will be ignored"]
    assert compile_k(TID_MASK, "sm_75", 0, {"print_potentially_overlapping_membermasks": True}).warnings == []


def test_non_aligned_barrier_sync_is_a_warp_op():
    body = "  barrier.sync 0;\n  barrier.sync 0;"
    assert sync(body, "sm_75", 0) == [BAR["sm_75"], BAR["sm_75"], "WARPSYNC", BAR["sm_75"]]   # helper once
    assert coop(body, "sm_75", 0) == 4
    # -O0 on sm_90+: the id travels in a register inside the collective, NUM_BARRIERS still counts it
    assert sync(body, "sm_90", 0) == ["WARPSYNC.COLLECTIVE.ALL", "BAR.SYNC.DEFER_BLOCKING", "ENDCOLLECTIVE"] * 2
    assert counts(compile_k(body, "sm_90", 0).program.functions[0].eiattr)["EIATTR_NUM_BARRIERS"] == 1
    assert sync(body, "sm_75", 3) == [BAR["sm_75"]] * 2 and coop(body, "sm_75", 3) == 2


@pytest.mark.parametrize("arch,want,entries", [
    ("sm_75", ["BMOV.32.CLEAR", "BSSY", "BSYNC", "WARPSYNC"], 2),
    ("sm_80", ["BSSY", "BSYNC", "WARPSYNC"], 2),
    ("sm_90", ["WARPSYNC.ALL"], 1),
])
def test_divergent_bar_warp_sync(arch, want, entries):
    body = DIV_IF.format(inner="  bar.warp.sync 0xffffffff;")
    assert sync(body, arch) == want and coop(body, arch) == entries


def test_sole_partial_mask_op_of_if_inline_on_sm90():
    # checked with ptxas 13.0.88: the only warp op of an if region keeps `WARPSYNC mask` inline in its pair
    body = DIV_IF.format(inner="  bar.warp.sync 0x0000ffff;")
    assert sync(body, "sm_90") == ["BSSY", "WARPSYNC", "BSYNC"]
    assert coop(body, "sm_90") == 1

# ---------------------------------------------------------------- BSSY / BSYNC placement


STORE_REGION = DIV_IF.format(inner="  st.global.u32 [%rd1+4], %r1;")
LOAD_REGION = DIV_IF.format(inner="  ld.global.u32 %r4, [%rd1+4];")


@pytest.mark.parametrize("arch,want", [
    ("sm_75", ["BMOV.32.CLEAR", "BSSY", "BSYNC"]), ("sm_90", ["BSSY", "BSYNC"]),
    ("sm_100a", ["BSSY.RECONVERGENT", "BSYNC.RECONVERGENT"]),
])
def test_every_divergent_region_is_paired_at_O0(arch, want):
    assert sync(STORE_REGION, arch, 0) == want
    assert sync(STORE_REGION, arch, 3) == []
    assert sync(LOAD_REGION, arch, 3) == want            # a load keeps the branch (not predicated)


def test_region_with_cta_barrier_or_exit_join_is_not_paired():
    assert sync(DIV_IF.format(inner="  bar.sync 0;"), "sm_90", 0) == ["WARPSYNC.ALL", BAR["sm_90"]]
    exit_join = "  setp.lt.u32 %p1, %r1, 16;\n  @!%p1 bra L1;\n  ld.global.u32 %r4, [%rd1+4];\n" \
                "  st.global.u32 [%rd1], %r4;\nL1:"
    assert sync(exit_join, "sm_75", 3) == []


def test_sm87_prologue():
    seq = sync("  st.global.u32 [%rd1], %r1;", "sm_87")
    assert seq == ["BMOV.32"] + ["BMOV.32.CLEAR"] * 15 + ["BMOV.32"]
    assert sync("  st.global.u32 [%rd1], %r1;", "sm_88") == []

# ---------------------------------------------------------------- loop unrolling (phase 22)


@pytest.mark.parametrize("opt,trips,n", [(3, "4", 4), (2, "8", 8), (1, "4", 1), (3, "100", 100)])
def test_constant_trip_loops_unroll_fully_from_O2(opt, trips, n):
    assert sync(loop(trips), "sm_90", opt) == [BAR["sm_90"]] * n


def test_unroll_limits_and_refusals():
    assert len(sync(loop("512"), "sm_90")) == 32 and len(sync(loop("512"), "sm_80")) == 512
    assert sync(loop("4", pragma='  .pragma "nounroll";\n'), "sm_90") == [BAR["sm_90"]]
    for fence in ("membar.cta", "membar.gl", "fence.acq_rel.cta", "fence.sc.gpu"):
        assert sync(loop("2", extra=f"  {fence};\n"), "sm_75").count(BAR["sm_75"]) == 1
    assert sync(loop("4", extra="  fence.proxy.async;\n"), "sm_90").count(BAR["sm_90"]) == 4
    assert sync(loop("4", extra="  vote.sync.any.pred %p2, %p1, 0xffffffff;\n"), "sm_80").count(BAR["sm_80"]) == 1


def test_unknown_trip_loop_is_peeled_and_unrolled_by_4():
    param = "  ld.param.u32 %r9, [p+8];\n"
    assert sync(loop("%r9", pre=param), "sm_75") == [BAR["sm_75"]] * 8
    computed = param + "  add.u32 %r9, %r9, 5;\n"
    assert sync(loop("%r9", pre=computed), "sm_75") == [BAR["sm_75"]]
    res = compile_k(loop("%r9", pre=param), "sm_75")
    assert ori.parse_ir(ori.print_module(res.module)) is not None    # the unrolled IR reads back

# ---------------------------------------------------------------- phases 25 / 26 (knobs)


def test_phase26_removes_nothing_by_default_and_follows_knob_358():
    back_to_back = "  bar.sync 0;\n  add.u32 %r2, %r1, 1;\n  bar.sync 0;"
    with_global = "  bar.sync 0;\n  st.global.u32 [%rd1+4], %r1;\n  bar.sync 0;"
    assert len(sync(back_to_back, "sm_90")) == 2
    assert len(sync(back_to_back, "sm_90", knobs={"358": 1})) == 1
    assert len(sync(with_global, "sm_90", knobs={"358": 1})) == 2
    assert len(sync(with_global, "sm_90", knobs={"358": 2})) == 1
    split = "  bar.sync 0;\n  bra NEXT;\nNEXT:\n  bar.sync 0;"
    assert len(sync(split, "sm_90", knobs={"358": 1})) == 1
    assert len(sync(split, "sm_90", knobs={"358": 1, "472": 1})) == 2      # block-local liveness


def test_phase26_multi_function_mode_looks_into_callees():
    decls = ".func (.param .b32 r) nf (.param .b32 a)\n{\n  .reg .b32 %t<4>;\n  ld.param.b32 %t1, [a];\n" \
            "  st.param.b32 [r], %t1;\n  ret;\n}"
    body = CALL.replace("ext_f", "nf")
    assert len(sync(body, "sm_90", decls=decls, knobs={"358": 2})) == 2
    assert len(sync(body, "sm_90", decls=decls, knobs={"358": 3})) == 1


def test_phase25_is_identity_unless_merge_knob():
    body = "  membar.cta;\n  membar.gl;"
    res = compile_k(body, "sm_75", knobs={"StageAndFenceMerge": 1})
    fences = [i for i in res.module.functions[0].instructions() if i.opcode == "membar"]
    assert [i.mods for i in fences] == [(".gl",)]
    res = compile_k(body, "sm_75")
    assert len([i for i in res.module.functions[0].instructions() if i.opcode == "membar"]) == 2

# ---------------------------------------------------------------- options


@pytest.mark.parametrize("args,message", [
    (["--assume-extern-functions-do-not-sync"], "argument expected after '--assume-extern-functions-do-not-sync'"),
    (["--assume-extern-functions-do-not-sync=maybe"], "'maybe': expected true or false"),
    (["--no-membermask-overlap", "k.ptx"], "'k.ptx': expected true or false"),
    (["--print-potentially-overlapping-membermasks=true"],
     "no argument expected after '--print-potentially-overlapping-membermasks'"),
    (["-knob", "X=1"], "Unknown option 'knob'"), (["--knob", "X=1"], "Unknown option '-knob'"),
    (["-Ofoo"], "'foo': expected a number"),
])
def test_option_errors_have_ptxas_wording(args, message):
    with pytest.raises(ptxas_options.OptionError) as e:
        ptxas_options.parse(args)
    assert e.value.message == message


def test_option_values():
    assert ptxas_options.parse(["-O0", "--no-membermask-overlap", "true", "-c"]) == \
        (0, {"no_membermask_overlap": True, "compile_only": True})
    assert ptxas_options.parse(["-O5", "--assume-extern-functions-do-not-sync=false"]) == \
        (3, {"assume_extern_functions_do_not_sync": False})


def test_cli_option_errors_and_values(tmp_path, capsys):
    src = tmp_path / "k.ptx"
    src.write_text(kernel(TID_MASK, "sm_80"))
    assert run([str(src), "--arch", "sm_80", "--no-membermask-overlap=maybe"]) == 1
    assert "'maybe': expected true or false" in capsys.readouterr().err
    assert run([str(src), "--arch", "sm_80", "--no-membermask-overlap=true"]) == 0
    assert "MATCH" not in capsys.readouterr().out
    assert run([str(src), "--arch", "sm_80", "-O0"]) == 0
    assert "WARPSYNC" in capsys.readouterr().out

def test_slow_path_helpers_are_functions_with_c():
    decls = EXTERN
    body = CALL.replace("  bar.sync 0;", "", 1).replace("  bar.sync 0;", "  shfl.sync.bfly.b32 %r4, %r4, 1, 31, 0xffffffff;")
    res = compile_k(body, "sm_75", 3, {"compile_only": True}, decls=decls)
    helper = next(f for f in res.program.functions if f.name == "__cuda_sm70_shflsync_bfly")
    assert sync_view(helper) == ["WARPSYNC", "SHFL.BFLY"]
    assert sync_view(res.program.functions[0]) == ["SHFL.BFLY"]
    text = ori.print_module(res.module)
    assert ori.print_module(ori.parse_ir(text)) == text


def test_region_joining_at_a_barrier_reconverges_there():
    # shfls in `if (tid < 32)` that joins at bar.sync: no BSSY pair, WARPSYNC before the barrier
    body = """  setp.gt.u32 %p1, %r1, 31;
  mov.u32 %r4, 0;
  @%p1 bra L1;
  ld.shared.u32 %r4, [s];
  shfl.sync.bfly.b32 %r4, %r4, 1, 31, 0xffffffff;
  st.shared.u32 [s], %r4;
L1:
  bar.sync 0;
  st.global.u32 [%rd1], %r4;"""
    assert sync(body, "sm_75") == ["SHFL.BFLY", "WARPSYNC", BAR["sm_75"], "WARPSYNC", "SHFL.BFLY"]
    assert sync(body, "sm_90") == ["WARPSYNC.ALL", "SHFL.BFLY", "WARPSYNC.ALL", BAR["sm_90"]]
    # two warp ops in one block: tested once each, out-of-line collectives on sm_90+
    two = body.replace("  shfl.sync.bfly.b32 %r4, %r4, 1, 31, 0xffffffff;\n",
                       "  shfl.sync.bfly.b32 %r4, %r4, 1, 31, 0xffffffff;\n  shfl.sync.bfly.b32 %r4, %r4, 2, 31, 0xffffffff;\n")
    assert sync(two, "sm_90") == ["SHFL.BFLY", "SHFL.BFLY", "WARPSYNC.ALL", BAR["sm_90"]] + \
        ["WARPSYNC.COLLECTIVE", "SHFL.BFLY", "ENDCOLLECTIVE"] * 2


# a global load after the first CTA barrier of a join block whose store of the region's result makes that barrier
# wait: the BSSY goes after the barrier (docs/findings/convergence.md "A global load after a join's first barrier:
# the BSSY follows the barrier (helper tatom26, stop 26)"; probes phases/bssy_join_sts_bar_*)
JOIN_STS_BAR = """  setp.lt.u32 %p1, %r1, 64;
  mul.wide.u32 %rd2, %r1, 4; add.s64 %rd3, %rd1, %rd2;
  mov.u32 %r4, 0; mov.u32 %r7, 0;
  @!%p1 bra J1;
  atom.global.acq_rel.sys.add.u32 %r4, [%rd3], 1;
J1:
  @%p1 st.shared.u32 [s], %r4;
  bar.sync 0;
  ld.shared.u32 %r5, [s+4];
{x}  bar.sync 0;
  @!%p1 bra J2;
  atom.global.acq_rel.sys.add.u32 %r7, [%rd3+8], %r6;
J2:
  st.global.u32 [%rd3+4], %r7;
  st.global.u32 [%rd3+12], %r5;"""


@pytest.mark.parametrize("arch", ["sm_80", "sm_90", "sm_100a"])
def test_bssy_after_join_barrier_before_global_load(arch):
    def join(x):
        view = sync(JOIN_STS_BAR.format(x=x), arch)
        j = next(i for i, s in enumerate(view) if s.startswith("BSYNC"))
        return [s.split(".")[0] if s.startswith("BSSY") else s for s in view[j + 1:j + 4]]
    assert join("  ld.global.u32 %r6, [%rd3+16];\n") == [BAR[arch], "BSSY", BAR[arch]]
    assert join("  add.u32 %r6, %r5, 1;\n") == ["BSSY", BAR[arch], BAR[arch]]


@pytest.mark.parametrize("arch", ["sm_75", "sm_90"])
@pytest.mark.parametrize("tail,converged", [("bra.uni DONE;", True), ("ret;", True),
                                            ("st.global.u32 [%rd1], %r2;\n  ret;", False)])
def test_back_edge_over_returning_exit_is_predicated_exit(arch, tail, converged):
    """docs/findings/warp.md "A back edge over a returning exit is a predicated EXIT (helper nvwarp31, stop 31)":
    the latch laid out before the header, its fall-through only returning: the loop's ballot runs converged."""
    body = (f"  mov.u32 %r2, %r1;\n  bra.uni L;\nLAT:\n  add.u32 %r2, %r2, 128;\n  setp.lt.u32 %p2, %r2, 4000;\n"
            f"  @%p2 bra L;\n  {tail}\nL:\n  setp.ne.u32 %p3, %r2, 7;\n  vote.sync.ballot.b32 %r3, %p3, -1;\n"
            "  st.global.u32 [%rd1], %r3;\n  bra.uni LAT;\nDONE:")
    got = sync_view(next(f for f in compile_k(body, arch).program.functions if f.is_entry))
    assert (got == ["VOTE.ANY"]) == converged, got



@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
@pytest.mark.parametrize("k,between,after", [(7, "none", False), (8, "none", True), (9, "selp", True),
                                             (8, "chain", True)])
def test_bssy_after_join_barriers_under_predicate_pressure(arch, k, between, after):
    """docs/findings/atomic.md "The BSSY after a join's barriers when the guards do not fit in P registers (helper
    tatom35, stop 35)": K masked atomics before and after `bar.sync; bar.sync` on the same K guards; from 8 live
    guards ptxas restores the guard after the barriers and opens the region there (`BSYNC BAR BAR BSSY`), else
    between them (`BSYNC BAR BSSY BAR`)."""
    from pylower.tools.variations.bar_release_region import pressure
    fn = next(f for f in compile_text(pressure(k, 2, between).replace("{target}", arch), "k.ptx", arch)
              .program.functions if f.is_entry)
    view = [s.split(".")[0] for s in sync_view(fn)]
    j = [i for i, s in enumerate(view) if s == "BSYNC"][k - 1]          # the join after the K regions
    assert view[j + 1:j + 4] == (["BAR", "BAR", "BSSY"] if after else ["BAR", "BSSY", "BAR"]), view


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
@pytest.mark.parametrize("guard,expect", [("ldg", ["BAR", "BSSY", "BAR"]), ("lds", ["BSSY", "BAR", "BAR"])])
def test_predicated_atomic_bssy_waits_for_global_guard_load(arch, guard, expect):
    """docs/findings/atomic.md "A guarded atomic's guard loaded from global memory; the entry block's BSSY among
    Triton's barriers (helper tconv37, stop 37)": a masked red pylower predicates inside its pair waits for the global
    load its guard tests (`BAR LDG BSSY .. BAR`), not for a guard read back from shared memory (`BSSY BAR LDS BAR`)."""
    from pylower.tools.variations.loaded_guard_atomic import row
    fn = next(f for f in compile_text(row(guard, 1, "red_add_relaxed").replace("{target}", arch), "k.ptx", arch)
              .program.functions if f.is_entry)
    view = [s.split(".")[0] for s in sync_view(fn)]
    assert view[:3] == expect, view
