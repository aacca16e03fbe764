"""Analyses on small IR: dominators, post-dominators, liveness, uniformity."""
import pytest

from pylower.lowering import build, parser
from pylower.lowering.target import parse_target
from pylower.passes.analysis.cfg import dominators, post_dominators, reverse_postorder
from pylower.passes.analysis.liveness import Liveness
from pylower.passes.analysis.uniformity import Uniformity

SRC = """.version 9.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 p)
{
    .reg .pred %p<3>;
    .reg .b32 %r<10>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [p];
    mov.u32 %r1, %tid.x;
    mov.u32 %r2, %ctaid.x;
    ld.global.u32 %r3, [%rd1];
    setp.lt.u32 %p1, %r1, 7;
    setp.lt.u32 %p2, %r2, 7;
    @%p2 bra $U;
    add.s32 %r4, %r3, 1;
$U:
    @%p1 bra $J;
    mov.u32 %r5, 1;
    bar.red.popc.u32 %r6, 0, %p1;
$J:
    st.global.u32 [%rd1], %r5;
    ret;
}
"""


def _fn():
    return build.build(parser.parse(SRC), parse_target("sm_90")).functions[0]


def test_orders_and_dominators():
    fn = _fn()
    labels = [b.label for b in fn.blocks]
    assert reverse_postorder(fn)[0] == "$entry"
    idom = dominators(fn)
    assert idom["$J"] == "$U" and idom["$U"] == "$entry"
    ipdom = post_dominators(fn)
    assert ipdom["$entry"] == "$U" and ipdom["$U"] == "$J"
    assert set(idom) == set(labels)


def test_liveness_result_used_or_not():
    fn = _fn()
    live = Liveness(fn)
    blk = next(b for b in fn.blocks if any(i.opcode == "bar" for i in b.instrs))
    bar = next(i for i in blk.instrs if i.opcode == "bar")
    assert not live.is_used_after(blk, bar, "%r6")
    mov = blk.instrs[0]
    assert live.is_used_after(blk, mov, "%r5")


def test_uniformity():
    fn = _fn()
    u = Uniformity(fn)
    assert "%r1" in u.divergent and "%p1" in u.divergent
    assert "%r2" not in u.divergent and "%r3" not in u.divergent and "%rd1" not in u.divergent
    assert "%r4" not in u.divergent                 # written under a uniform branch
    assert "%r5" in u.divergent                     # written under the divergent branch
    div_block = next(b.label for b in fn.blocks if any(i.opcode == "bar" for i in b.instrs))
    assert div_block in u.divergent_blocks


def test_analysis_manager_computes_each_analysis_once_per_state():
    """The phases and ISel share one analysis manager per function: an analysis is recomputed only after a
    phase changed what it depends on (p71 and p72 change code; ISel reuses the CFG analyses)."""
    from pylower.pipeline import compile_text
    res = compile_text(SRC, "k.ptx", "sm_90")
    am = res.ctx.analyses(res.module.functions[0])
    assert am.computed.get("uniformity", 0) <= 3
    assert am.computed.get("ipdom", 0) <= 3
    assert am.computed.get("idom", 0) <= 3


def test_analysis_manager_invalidation():
    from pylower.passes.analysis.manager import Analyses
    fn = _fn()
    am = Analyses(fn)
    u1, d1 = am.uniformity, am.idom
    assert am.uniformity is u1 and am.idom is d1
    am.invalidate("all")
    assert am.uniformity is u1
    am.invalidate("cfg")
    assert am.idom is d1 and am.uniformity is not u1
    am.invalidate("none")
    assert am.idom is not d1


def test_dominator_tree_answers_as_the_idom_walk():
    """DomTree (constant-time queries, passes/analysis/cfg.py) agrees with walking the immediate dominators,
    for dominators and post-dominators, on real kernels with loops, early exits and unreachable blocks."""
    from pathlib import Path

    from pylower.passes.analysis.cfg import DomTree, dominates
    corpus = Path(__file__).resolve().parent / "corpus"
    files = ["nvcc/atomic_cas_loops.ptx", "nvcc/cub_block_load_store.ptx", "llvm/barrier0_block_reduce.ptx"]
    for rel in files:
        module = build.build(parser.parse((corpus / rel).read_text()), parse_target("sm_90a"))
        for fn in module.functions:
            labels = [b.label for b in fn.blocks] + ["$nowhere"]
            for idom in (dominators(fn), post_dominators(fn)):
                tree = DomTree(idom)
                for a in labels:
                    for b in labels:
                        assert tree.dominates(a, b) == dominates(idom, a, b), (rel, fn.name, a, b)


def test_innermost_region_map():
    """regions.innermost_map: the smallest region holding a block, the first of equal ones."""
    from pylower.passes.analysis.regions import Region, innermost_map
    outer = Region("if", "A", "Z", {"B", "C", "D"})
    inner1 = Region("if", "B", "D", {"C"})
    inner2 = Region("loop", "B", "D", {"C"})
    m = innermost_map([outer, inner1, inner2])
    assert m["B"] is outer and m["D"] is outer and m["C"] is inner1 and "A" not in m


@pytest.mark.parametrize("rel", ["nvcc/cuda_pipeline_producer_consumer.ptx", "llvm/match_vote.ptx",
                                 "nvcc/memcpy_async_double_buffer_pipeline.ptx"])
def test_code_follows_arch_not_a_lower_target(rel):
    """ptxas makes the same code for -arch=sm_90 from a file whose `.target` is lower as from the file retargeted:
    the analyses' target features are --arch's (docs/known_mismatches.md "A file whose `.target` is below
    `--arch`"). These files' `.target` is sm_75/sm_80; the analysis manager used to read it (NATIVE_VOTE_ALL)."""
    from pathlib import Path
    from pylower.pipeline import compile_text
    from pylower.tools.conformance import sync_view
    from pylower.tools.ptxas_ref import retarget
    text = (Path(__file__).parent / "corpus" / rel).read_text()
    for arch in ("sm_90", "sm_100a"):
        as_is = {f.name: f for f in compile_text(text, "k.ptx", arch).program.functions if f.is_entry}
        moved = {f.name: f for f in compile_text(retarget(text, arch), "k.ptx", arch).program.functions if f.is_entry}
        for name, fn in as_is.items():
            assert sync_view(fn) == sync_view(moved[name]) and fn.eiattr == moved[name].eiattr, (rel, arch, name)
