"""PTX front end and Ori IR: every corpus file parses, prints back to the same AST, builds to Ori IR whose
text form parses back to the same text."""
import pytest

from conftest import corpus_files
from pylower.lowering import build, ori, parser, ptx_printer
from pylower.lowering import ptx_ast as A
from pylower.lowering.diagnostics import PtxError
from pylower.lowering.target import parse_target
from pylower.tools.ptxas_ref import retarget

FILES = corpus_files()


def test_corpus_is_big_enough():
    real = [f for f in FILES if "probes" not in f.parts]
    assert len(real) >= 30, "the real-world corpus should hold at least 30 files"


@pytest.mark.parametrize("chunk", range(4))
def test_round_trip_whole_corpus(chunk):
    for f in FILES[chunk::4]:
        text = f.read_text()
        try:
            m = parser.parse(text, str(f))
        except PtxError:                  # a syntax-error probe: ptxas rejects it on every target too
            from pylower.tools.refresh_reference import read_reference, reference_path
            assert not any(r["accepted"] for r in read_reference(reference_path(f))["targets"].values()), f
            continue
        again = parser.parse(ptx_printer.module(m), str(f))
        assert again == m, f"{f}: parse -> print -> parse changed the AST"


@pytest.mark.parametrize("chunk", range(4))
def test_ori_text_round_trip(chunk):
    for f in FILES[chunk::4]:
        text = f.read_text()
        try:
            mod = build.build(parser.parse(retarget(text, "sm_100a"), str(f)), parse_target("sm_100a"))
        except PtxError:
            continue                          # rejected forms have no IR
        s = ori.print_module(mod)
        assert ori.print_module(ori.parse_ir(s)) == s, f"{f}: Ori IR text does not round-trip"


def test_operand_shapes():
    src = """.version 9.0
.target sm_90
.address_size 64
.global .align 8 .b8 tbl[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
.extern .shared .align 16 .b8 dsmem[];
.visible .entry k(.param .u64 p, .param .align 8 .b8 s[16])
.maxntid 128, 1, 1
.minnctapersm 2
{
    .reg .pred %p<3>;
    .reg .b32 %r<8>;
    .reg .f32 %f<2>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [p];
    mov.f32 %f1, 0f3F800000;
    mov.u32 %r1, 0x10;
    @!%p1 bra $L__BB0_1;
    shfl.sync.bfly.b32 %r2|%p2, %r1, 16, 31, -1;
    ld.global.v2.u32 {%r3, %r4}, [%rd1+-8];
    mov.u64 %rd2, tbl;
    { .reg .b32 %t; add.s32 %t, %r1, 1; }
$L__BB0_1:
    ret;
}
"""
    m = parser.parse(src, "t.ptx")
    k = m.functions[0]
    assert [d.name for d in k.perf] == [".maxntid", ".minnctapersm"]
    ins = [s for s in k.body if isinstance(s, A.Instruction)]
    shfl = ins[4]
    assert shfl.opcode == "shfl" and shfl.mods == (".sync", ".bfly", ".b32")
    assert shfl.operands[0] == A.Pair(A.Reg("%r2"), A.Reg("%p2"))
    assert shfl.operands[-1] == A.Imm("-1")
    ld = ins[5]
    assert ld.operands[0] == A.Vec((A.Reg("%r3"), A.Reg("%r4")))
    assert ld.operands[1] == A.Addr((A.Reg("%rd1"),), -8)
    assert ins[3].guard == A.Not(A.Reg("%p1"))
    assert A.Imm("0f3F800000").value == 1.0
    assert parser.parse(ptx_printer.module(m)) == m


def test_cfg_blocks_and_successors():
    src = """.version 9.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 p)
{
    .reg .pred %p<2>;
    .reg .b32 %r<4>;
    mov.u32 %r1, %tid.x;
    setp.eq.s32 %p1, %r1, 0;
    @%p1 bra $L1;
    bar.sync 0;
$L1:
    ret;
}
"""
    mod = build.build(parser.parse(src), parse_target("sm_90"))
    f = mod.functions[0]
    assert [b.label for b in f.blocks] == ["$entry", "$bb1", "$L1"]
    assert f.blocks[0].succs == ["$L1", "$bb1"]
    assert f.blocks[1].succs == ["$L1"]
    assert f.blocks[2].preds == ["$entry", "$bb1"]


def test_target_feature_page_is_current():
    from pathlib import Path
    from pylower.lowering.target import feature_table_markdown
    page = Path(__file__).resolve().parent.parent / "docs" / "target_features.md"
    assert page.read_text() == feature_table_markdown(), "regenerate docs/target_features.md (see its first line)"


def test_every_target_feature_is_read_somewhere():
    """A feature row nobody reads is dead vocabulary."""
    from pathlib import Path
    from pylower.lowering.target import FEATURES
    root = Path(__file__).resolve().parent.parent
    code = "".join(p.read_text() for d in ("lowering", "passes", "isel", "sass") for p in (root / d).rglob("*.py")
                   if p.name != "target.py")
    unread = [f.name for f in FEATURES if f'"{f.name}"' not in code]
    assert not unread, unread


def test_nested_scopes_shadow_labels_and_registers():
    """Inline asm expands to `{ .reg .pred p; ... waitLoop: ... }` blocks that repeat names; each is its own
    (PTX scoping): references resolve to the innermost declaration (ptxas accepts the file)."""
    from pylower.lowering.ori import print_module
    from pylower.pipeline import compile_text
    text = """.version 9.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 p)
{
  .reg .b32 %r<4>; .reg .b64 %rd<2>; .reg .pred %p<2>;
  ld.param.u64 %rd1, [p];
  mov.u32 %r1, %tid.x;
  { .reg .pred %p<2>; .reg .pred q;
    setp.lt.u32 %p1, %r1, 5;
  waitLoop:
    elect.sync %r2|q, -1;
    @%p1 bra waitLoop; }
  { .reg .pred %p<2>; .reg .pred q;
    setp.lt.u32 %p1, %r1, 7;
  waitLoop:
    elect.sync %r2|q, -1;
    @%p1 bra waitLoop; }
  setp.lt.u32 %p1, %r1, 9;
  @%p1 st.global.u32 [%rd1], %r2;
  ret;
}
"""
    ir = print_module(compile_text(text, "k.ptx", "sm_90", opt_level=0).module)
    assert "@%p_s1_1 bra waitLoop;" in ir and "@%p_s2_1 bra waitLoop_s4;" in ir and "elect.sync %r2|q_s3" in ir
    assert "setp.lt.u32 %p1, %r1, 9;" in ir


def test_inner_register_shadows_a_range_member():
    """nvcc's `__syncthreads_count` expands to `{ .reg .pred %p1; setp...; bar.red.popc ...; }` inside a function
    that declares `%p<5>`: the inner `%p1` is its own register, not the range's member, so the outer branch on
    `%p1` after the block still reads the outer compare."""
    from pylower.lowering.ori import print_module
    from pylower.pipeline import compile_text
    text = """.version 9.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 p)
{
  .reg .b32 %r<8>; .reg .b64 %rd<2>; .reg .pred %p<5>;
  ld.param.u64 %rd1, [p];
  mov.u32 %r1, %tid.x;
  setp.ge.u32 %p1, %r1, 9;
  { .reg .pred %p1;
    setp.ne.u32 %p1, %r1, 0;
    bar.red.popc.u32 %r2, 0, %p1; }
  @%p1 bra END;
  st.global.u32 [%rd1], %r2;
END:
  ret;
}
"""
    ir = print_module(compile_text(text, "k.ptx", "sm_90", opt_level=0).module)
    assert "setp.ne.u32 %p1_s1, %r1, 0;" in ir and "bar.red.popc.u32 %r2, 0, %p1_s1;" in ir
    assert "@%p1 bra END;" in ir and "setp.ge.u32 %p1, %r1, 9;" in ir
