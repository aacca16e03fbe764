"""Which divergent load regions ptxas predicates rather than pairs with BSSY/BSYNC: two load ifs in a row,
and from sm_90 a load if whose join reaches a CTA barrier (rules: docs/phases/72_LateExpandSyncInstructions.md;
probes phases/div_if_ld_global*)."""
from pathlib import Path

import pytest

from pylower.pipeline import compile_text
from pylower.tools.conformance import sync_view

HEAD = """.version 9.0
.target {target}
.address_size 64
.visible .entry k(.param .u64 p)
{{
  .reg .b32 %r<64>; .reg .b64 %rd<8>; .reg .pred %p<4>;
  .shared .align 4 .b32 s[64];
  ld.param.u64 %rd1, [p];
  mov.u32 %r1, %tid.x;
  mov.u32 %r5, 0;
  setp.lt.u32 %p1, %r1, 16;
  @!%p1 bra L1;
  ld.global.u32 %r5, [%rd1+4];
{region}
L1:
{join}
  st.global.u32 [%rd1], %r5;
  ret;
}}
"""
ALU = "\n".join("  mul.lo.u32 %r5, %r5, %r1;" for _ in range(31))
BAR = "  st.shared.u32 [s], %r5;\n  bar.sync 0;"
SHFL_BAR = "  shfl.sync.down.b32 %r5, %r5, 1, 31, -1;\n" + BAR


def sync(region, join, arch):
    res = compile_text(HEAD.format(region=region, join=join, target=arch), "t.ptx", arch, opt_level=3)
    return [s for s in sync_view(next(f for f in res.program.functions if f.name == "k"))
            if s.startswith(("BSSY", "BSYNC"))]


@pytest.mark.parametrize("arch", ["sm_80", "sm_90", "sm_100a"])
def test_load_region_kept_without_barrier(arch):
    assert sync("", "", arch)[:1] == ["BSSY" + (".RECONVERGENT" if arch == "sm_100a" else "")]


@pytest.mark.parametrize("arch,pairs", [("sm_75", 2), ("sm_89", 2), ("sm_90", 0), ("sm_120", 0)])
@pytest.mark.parametrize("join", [BAR, ALU + "\n" + BAR])
def test_load_region_before_barrier_predicated_from_sm90(arch, pairs, join):
    assert len(sync("", join, arch)) == pairs


@pytest.mark.parametrize("arch", ["sm_75", "sm_80", "sm_90", "sm_100a"])
def test_two_load_regions_in_a_row_predicated(arch):
    second = """  add.s32 %r3, %r1, 32;
  setp.lt.u32 %p2, %r3, 40;
  @!%p2 bra L2;
  ld.global.u32 %r6, [%rd1+8];
  add.s32 %r5, %r5, %r6;
L2:"""
    assert sync("", second, arch) == []


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_long_region_before_barrier_kept(arch):
    assert len(sync(ALU, BAR, arch)) == 2


@pytest.mark.parametrize("arch,pairs", [("sm_75", 2), ("sm_89", 2), ("sm_90", 0), ("sm_100a", 0)])
def test_warp_op_before_barrier(arch, pairs):
    assert len(sync("", SHFL_BAR, arch)) == pairs


# ---- phase 72's per-block answer for guarded instructions is the per-load scan's (a speed-up, same rule)

@pytest.mark.parametrize("path,arch", [
    ("triton/layer_norm-layer_norm_fwd_fused-sm90-w4s2.ptx", "sm_90a"),
    ("probes/phases/guard_ld_global.ptx", "sm_90"),
])
def test_guard_stages_to_shared_matches_the_scan(path, arch, monkeypatch):
    """ifconvert._guard_stages_to_shared (one walk per block, phase 72's guarded loads) answers what
    _stages_to_shared answers for each guarded instruction: a change to one rule must go into both."""
    from pathlib import Path

    from pylower.passes import ifconvert as ic
    asked = []
    original = ic.is_kept_guard

    def checked(am, block, index, target):
        ins = block.instrs[index]
        slow = ic._stages_to_shared(am, [ins], block.label, index + 1, set(am.defuse.defs(ins)))
        asked.append((ic._guard_stages_to_shared(am, block)[index], slow))
        return original(am, block, index, target)

    monkeypatch.setattr(ic, "is_kept_guard", checked)
    src = Path(__file__).parent / "corpus" / path
    compile_text(src.read_text(), str(src), arch)
    assert asked and all(fast == slow for fast, slow in asked)


# runs of guarded shared stores (docs/findings/convergence.md 8 and 23): a pair, two pairs, or a pair and a nest
RUN = """.version 9.0
.target {target}
.address_size 64
.visible .entry k(.param .u64 out, .param .u32 n)
{{
  .reg .b32 %r<64>; .reg .b64 %rd<8>; .reg .pred %p<4>;
  .shared .align 16 .b8 s[1024];
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r9, [n];
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 31;
  setp.eq.s32 %p1, %r2, 31;
  setp.lt.s32 %p2, %r1, %r9;
  mov.u32 %r3, s;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd1, %rd3;
{stores}
  bar.sync 0;
  ld.shared.u32 %r50, [%r3+4];
  @%p2 st.global.u32 [%rd4], %r50;
  ret;
}}
"""
NEST = ["BSSY", "BSYNC", "BSSY", "BSSY", "BREAK", "BSYNC", "BSYNC"]


@pytest.mark.parametrize("n, arch, want", [
    (2, "sm_80", ["BSSY", "BSYNC", "BAR.SYNC.DEFER_BLOCKING 0x0"]),
    (4, "sm_80", ["BSSY", "BSYNC", "BSSY", "BSYNC", "BAR.SYNC.DEFER_BLOCKING 0x0"]),
    (8, "sm_80", NEST + ["WARPSYNC", "BAR.SYNC.DEFER_BLOCKING 0x0"]),
    (5, "sm_90", NEST + ["WARPSYNC.ALL", "BAR.SYNC.DEFER_BLOCKING 0x0"]),
    (5, "sm_75", ["BMOV.32.CLEAR", "BSSY", "BSYNC", "BMOV.32.CLEAR", "BSSY", "BMOV.32.CLEAR", "BSSY", "BREAK", "BSYNC",
                  "BSYNC", "BAR.SYNC 0x0"]),
    (5, "sm_100a", ["BSSY.RECONVERGENT", "BSYNC.RECONVERGENT", "BSSY.RECONVERGENT", "BSSY.RELIABLE",
                    "BREAK.RELIABLE", "BSYNC.RELIABLE", "BSYNC.RECONVERGENT", "WARPSYNC.ALL",
                    "BAR.SYNC.DEFER_BLOCKING 0x0"]),
])
def test_guarded_store_run_shape(n, arch, want):
    stores = "\n".join(f"  @%p1 st.shared.u32 [%r3+{16 * k}], %r1;" for k in range(n))
    res = compile_text(RUN.format(stores=stores, target=arch), "t.ptx", arch, opt_level=3)
    assert sync_view(next(f for f in res.program.functions if f.name == "k")) == want


# a guard ptxas computes as one predicate-writing LOP3 (`setp.eq|ne` of an and/or/xor result against 0) predicates
# the run however long; the same run under `== 31`, `< 1` or an unmasked tid stays a branch (docs/findings/
# convergence.md "A run of guarded stores under a bit test is predicated (helper tscan36, stop 36)")
@pytest.mark.parametrize("test, kept", [
    ("and.b32 %r2, %r1, 31;\n  setp.eq.s32 %p1, %r2, 0;", False),
    ("and.b32 %r2, %r1, 16;\n  setp.ne.s32 %p1, %r2, 0;", False),
    ("xor.b32 %r2, %r1, %r9;\n  setp.eq.s32 %p1, %r2, 0;", False),
    ("and.b32 %r2, %r1, 31;\n  setp.lt.u32 %p1, %r2, 1;", True),
    ("and.b32 %r2, %r1, 1;\n  setp.eq.s32 %p1, %r2, 1;", True),
    ("setp.eq.s32 %p1, %r1, 0;", True),
])
def test_guarded_store_run_bit_test(test, kept):
    stores = "\n".join(f"  @%p1 st.shared.u32 [%r3+{16 * k}], %r1;" for k in range(8))
    text = RUN.format(stores=stores, target="sm_80").replace(
        "  and.b32 %r2, %r1, 31;\n  setp.eq.s32 %p1, %r2, 31;", "  " + test)
    res = compile_text(text, "t.ptx", "sm_80", opt_level=3)
    view = sync_view(next(f for f in res.program.functions if f.name == "k"))
    assert view == (NEST + ["WARPSYNC"] if kept else []) + ["BAR.SYNC.DEFER_BLOCKING 0x0"]


# work between the stores of a run ends it (docs/findings/convergence.md "Work between guarded stores splits the
# run (helper tconv25, stop 25)"): four stores, <between>, four more on the new address
TWO_PAIRS = ["BSSY", "BSYNC", "BSSY", "BSYNC"]


@pytest.mark.parametrize("between, arch, want", [
    # a mask of an address: two runs of four (two pairs each)
    ("or.b32 %r20, %r4, 112;\n  add.s32 %r21, %r3, %r20;", "sm_80", TWO_PAIRS * 2),
    # an immediate offset: one run of eight (a pair and a nest)
    ("add.s32 %r21, %r3, 1000;", "sm_80", NEST + ["WARPSYNC"]),
    # the shared variable's address plus a register: folded below sm_90, work from sm_90 (SHARED_WINDOW_ADDRESS)
    ("add.s32 %r21, %r3, %r4;", "sm_80", NEST + ["WARPSYNC"]),
    ("add.s32 %r21, %r3, %r4;", "sm_90", TWO_PAIRS * 2),
])
def test_guarded_store_run_split(between, arch, want):
    # (stored values computed before the run: a store of %tid.x's own register is another case, not modelled)
    stores = "\n".join(f"  @%p1 st.shared.u32 [%r3+{16 * k}], %r5;" for k in range(4))
    stores = "  shl.b32 %r4, %r1, 2;\n  add.s32 %r5, %r1, 3;\n" + stores + "\n  " + between + "\n" + \
        "\n".join(f"  @%p1 st.shared.u32 [%r21+{16 * k}], %r5;" for k in range(4))
    res = compile_text(RUN.format(stores=stores, target=arch), "t.ptx", arch, opt_level=3)
    assert sync_view(next(f for f in res.program.functions if f.name == "k")) == want + ["BAR.SYNC.DEFER_BLOCKING 0x0"]


# a guarded atomic after a run of two keeps it a branch; global stores form runs; a pack of halves between the
# stores ends the run (docs/findings/convergence.md "A guarded atomic after a run; runs of global stores (helper
# tconv25, stop 25)"; ptxas 13.0.88 gives these on sm_80)
ATOM_AFTER = """.version 9.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 out, .param .u32 n)
{{
  .reg .b32 %r<64>; .reg .b64 %rd<8>; .reg .pred %p<4>; .reg .b16 %rs<8>;
  .shared .align 16 .b8 s[1024];
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r9, [n];
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 31;
  setp.eq.s32 %p1, %r2, 31;
  setp.eq.s32 %p2, %r1, 0;
  mov.u32 %r3, s;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd1, %rd3;
  add.s32 %r5, %r1, 3;
  cvt.u16.u32 %rs1, %r1;
  cvt.u16.u32 %rs2, %r9;
{stores}
  bar.sync 0;
  bar.sync 0;
  @%p2 atom.global.exch.b32 %r7, [%rd1], %r9;
  bar.sync 0;
  ret;
}}
"""
SASS_BAR = "BAR.SYNC.DEFER_BLOCKING 0x0"
ATOM_TAIL = ["BSSY", SASS_BAR, SASS_BAR, "ATOMG.E.EXCH.STRONG.GPU", "BSYNC", SASS_BAR]


@pytest.mark.parametrize("stores, want", [
    ("  @%p1 st.shared.u32 [%r3], %r5;\n  @%p1 st.shared.u32 [%r3+16], %r5;", ["BSSY", "BSYNC"] + ATOM_TAIL),
    ("  @%p1 st.global.u32 [%rd4], %r5;\n  @%p1 st.global.u32 [%rd4+512], %r5;", ["BSSY", "BSYNC"] + ATOM_TAIL),
    ("  @%p1 st.global.u32 [%rd4], %r5;\n  mov.b32 %r8, {%rs1, %rs2};\n  @%p1 st.global.u32 [%rd4+512], %r8;",
     ATOM_TAIL),
])
def test_guarded_store_run_before_atomic(stores, want):
    res = compile_text(ATOM_AFTER.format(stores=stores), "t.ptx", "sm_80", opt_level=3)
    view = sync_view(next(f for f in res.program.functions if f.name == "k"))
    # the atomic's pair is issued before the two barriers (the list scheduler's placement)
    assert [x for x in view if x != SASS_BAR] == [x for x in want if x != SASS_BAR]


LOOP = """.version 9.0
.target {target}
.address_size 64
.visible .entry k(.param .u64 out, .param .u64 in, .param .u32 n)
{{
  .reg .b32 %r<40>; .reg .b64 %rd<32>; .reg .pred %p<8>;
  ld.param.u64 %rd1, [out]; ld.param.u64 %rd9, [in]; ld.param.u32 %r9, [n];
  mov.u32 %r1, %tid.x; mov.u32 %r10, 0; mov.u32 %r11, 0; mov.u32 %r3, 0;
L1:
  add.s32 %r6, %r1, %r10;
  setp.ge.s32 %p1, %r6, %r9;
{pre}
  @%p1 bra L2;
  mul.wide.s32 %rd3, %r6, 4;
  add.s64 %rd5, %rd9, %rd3;
  ld.global.u32 %r3, [%rd5];
{region}
L2:
{post}
  add.s32 %r10, %r10, 256;
  setp.lt.s32 %p3, %r10, %r9;
  @%p3 bra L1;
  st.global.u32 [%rd1], %r11;
  ret;
}}
"""
RESET = ("  mov.u32 %r4, 0;", "  mov.u32 %r4, %r3;")


def loop_pairs(pre, region, post, arch):
    res = compile_text(LOOP.format(pre=pre, region=region, post=post, target=arch), "t.ptx", arch, opt_level=3)
    return [s for s in sync_view(next(f for f in res.program.functions if f.name == "k")) if s.startswith("BSSY")]


@pytest.mark.parametrize("arch", ["sm_75", "sm_80", "sm_90", "sm_100a"])
@pytest.mark.parametrize("post", ["  add.s32 %r11, %r11, %r4;\n  bar.sync 0;",
                                  "  setp.ne.s32 %p4, %r4, 0;\n  bar.red.or.pred %p5, 0, %p4;\n"
                                  "  selp.u32 %r12, 1, 0, %p5;\n  add.s32 %r11, %r11, %r12;"])
def test_loop_load_region_before_barrier_predicated(arch, post):
    """docs/findings/convergence.md "A load if in a loop whose join reaches a barrier is predicated (helper
    llvm28, stop 28)"; probes phases/ifconvert_loop_*."""
    assert loop_pairs(*RESET, post, arch) == []


# (the shared store before the barrier keeps the branch in ptxas on sm_90 too; pylower's sm_90 staging rule still
# predicates it there: not modelled)
@pytest.mark.parametrize("arch,post", [("sm_80", "  add.s32 %r11, %r11, %r4;\n  membar.gl;"),
                                       ("sm_90", "  add.s32 %r11, %r11, %r4;\n  membar.gl;"),
                                       ("sm_80", "  st.shared.u32 [%rd9], %r4;\n  bar.sync 0;")])
def test_loop_load_region_kept_without_barrier_or_with_store(arch, post):
    assert loop_pairs(*RESET, post, arch)



PROBES = Path(__file__).parent / "corpus" / "probes" / "phases"


@pytest.mark.parametrize("arch", ["sm_75", "sm_80", "sm_90", "sm_100a"])
@pytest.mark.parametrize("probe,kept", [("ifconvert_loop_ld_same_test_store", False),
                                        ("ifconvert_loop_ld_same_test_alu", False),
                                        ("ifconvert_loop_ld_same_test_recomputed", False),
                                        ("ifconvert_loop_ld_same_test_store_same_addr", True),
                                        ("ifconvert_loop_ld_same_test_none", True),
                                        ("ifconvert_straight_ld_same_test_store", True)])
def test_loop_load_region_before_same_test_if(arch, probe, kept):
    """docs/findings/convergence.md "A loop's load if followed by a second if on its test is predicated (helper
    shfl29, stop 29)": a second if on the load's test later in the loop body predicates the load, unless it
    stores through the load's address register; in straight code, or with no second if, the pair stays."""
    text = (PROBES / f"{probe}.ptx").read_text().replace(".target sm_75", f".target {arch}")
    res = compile_text(text, f"{probe}.ptx", arch, opt_level=3)
    pairs = [s for s in sync_view(next(f for f in res.program.functions if f.name == "k")) if s.startswith("BSSY")]
    assert bool(pairs) == kept


PROBES = Path(__file__).parent / "corpus" / "probes" / "phases"


def _probe_sync(name, arch):
    text = (PROBES / name).read_text().replace(".target sm_75", f".target {arch}")
    res = compile_text(text, name, arch, opt_level=3)
    return [s.split(".")[0] for s in sync_view(next(f for f in res.program.functions if f.name == "k"))
            if s.startswith(("BSSY", "BSYNC"))]


@pytest.mark.parametrize("arch", ["sm_75", "sm_80", "sm_90", "sm_120"])
@pytest.mark.parametrize("name,pairs", [("ifconvert_nested_load_if_then_ldg_bar.ptx", 1),
                                        ("ifconvert_nested_load_if_then_stg_bar.ptx", 1),
                                        ("ifconvert_nested_load_if_then_halo_if.ptx", 2),
                                        ("ifconvert_flat_load_if_then_ldg_bar.ptx", 0)])
def test_load_if_around_predicated_load_ifs_stays_a_branch(arch, name, pairs):
    # docs/findings/convergence.md "A load if around predicated load ifs stays a branch (helper nvstencil32, stop 32)"
    assert _probe_sync(name, arch) == ["BSSY", "BSYNC"] * pairs


@pytest.mark.parametrize("arch,pairs", [("sm_75", 1), ("sm_80", 1), ("sm_90", 0), ("sm_100a", 0)])
@pytest.mark.parametrize("name,kept", [("ifconvert_ld_staged_then_pred_if.ptx", True),
                                       ("ifconvert_ld_staged_then_pred_load_if.ptx", False)])
def test_load_if_staged_before_predicated_if(arch, pairs, name, kept):
    # docs/findings/convergence.md "A load if staged to shared memory before a predicated if keeps its pair
    # (helper nvbar36, stop 36)": below sm_90 the lane-0 if of other work does not predicate it, one of a load does
    assert _probe_sync(name, arch) == ["BSSY", "BSYNC"] * (pairs if kept else 0)


def test_regions_holding_each_others_heads_compile():
    # tools/fuzz seed 56 input 44526: the halo-if probe with its second halo branch moved 24 lines down (into the
    # first if's arm) gives two if regions that hold each other's heads; asking whether one stays a branch asked
    # the other and back, without end (RecursionError). Now the inner question answers "not kept".
    lines = (PROBES / "ifconvert_nested_load_if_then_halo_if.ptx").read_text().replace(
        ".target sm_75", ".target sm_100a").split("\n")
    branch = lines.index("\t@%p3 bra \t$L__BB18_5;")
    assert lines[branch + 24] == ""
    lines[branch], lines[branch + 24] = lines[branch + 24], lines[branch]
    res = compile_text("\n".join(lines), "t.ptx", "sm_100a", opt_level=3)
    assert [f.name for f in res.program.functions] == ["k"]


@pytest.mark.parametrize("arch", ["sm_75", "sm_80", "sm_90", "sm_100a"])
@pytest.mark.parametrize("name,pairs", [("ifconvert_ld_chain_exit_sts.ptx", 4),
                                        ("ifconvert_ld_chain_exit_plain_next.ptx", 2),
                                        ("ifconvert_ld_nested_exit_add.ptx", 6)])
def test_load_if_before_branch_around_nested_branch(arch, name, pairs):
    # docs/findings/convergence.md "A load if whose join reaches a branch around a nested branch keeps its pair
    # (helper nvreg37, stop 37)": nvcc's remainder chain (one pair + one per load if), every target
    sync = [s for s in _probe_sync(name, arch) if s in ("BSSY", "BSYNC")]
    assert sync.count("BSSY") == sync.count("BSYNC") == pairs


@pytest.mark.parametrize("arch,below_sm90", [("sm_75", True), ("sm_80", True), ("sm_90", False), ("sm_100a", False)])
@pytest.mark.parametrize("name,kept", [("ifconvert_bar_loop_if_pred.ptx", False),
                                       ("ifconvert_bar_loop_no_if_kept.ptx", True),
                                       ("ifconvert_bar_if_little_work_kept.ptx", True)])
def test_if_after_barrier_predicates_load_if(arch, below_sm90, name, kept):
    # docs/findings/convergence.md "An if after the barrier predicates the load if before it (helper nvbar37,
    # stop 37)": a block reduction's `if (t < s)` behind its trip test predicates the staged load if; a loop
    # without an if, or an if needing less than 4 SASS of work, keeps its pair below sm_90 (from sm_90 the shared
    # window's base predicates those too)
    assert _probe_sync(name, arch) == ["BSSY", "BSYNC"] * (kept and below_sm90)
