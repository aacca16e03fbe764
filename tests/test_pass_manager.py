"""Pass manager mechanics: ordering, dump headers, --print-changed, --disable-pass, statistics."""
import io

from pylower.lowering import build, ori, parser
from pylower.lowering.target import parse_target
from pylower.passes.manager import DumpOptions, PassContext, PassManager, Phase

SRC = """.version 9.0
.target sm_90
.address_size 64
.visible .entry k()
{
    bar.sync 0;
    bar.sync 0;
    ret;
}
"""


class DropSecondBar(Phase):
    """A test phase: removes the second of two adjacent identical instructions."""
    number, name = 26, "OriRemoveRedundantBarriers"

    def run(self, fn, ctx):
        changed = False
        for b in fn.blocks:
            keep = []
            for ins in b.instrs:
                if keep and ori.print_instr(keep[-1]).split("!")[0] == ori.print_instr(ins).split("!")[0]:
                    changed = True
                    ctx.count(self, "removed")
                    continue
                keep.append(ins)
            b.instrs = keep
        return changed


class Nothing(Phase):
    number, name = 25, "StageAndFence"

    def run(self, fn, ctx):
        return False


def _module():
    return build.build(parser.parse(SRC), parse_target("sm_90"))


def test_dump_after_all_headers_and_order():
    out = io.StringIO()
    ctx = PassContext(parse_target("sm_90"))
    PassManager([DropSecondBar(), Nothing()], DumpOptions(after={"all"}), out).run(_module(), ctx)
    text = out.getvalue()
    first = text.index("// -----// IR Dump After StageAndFence (25) //----- //")
    second = text.index("// -----// IR Dump After OriRemoveRedundantBarriers (26) //----- //")
    assert first < second
    assert text[second:].count("bar.sync 0;") == 1
    assert ctx.stats[(26, "OriRemoveRedundantBarriers", "removed")] == 1


def test_print_changed_and_disable():
    out = io.StringIO()
    PassManager([DropSecondBar(), Nothing()], DumpOptions(print_changed=True), out).run(_module(), PassContext(parse_target("sm_90")))
    assert "StageAndFence" not in out.getvalue() and "(26)" in out.getvalue()
    out = io.StringIO()
    mod = _module()
    PassManager([DropSecondBar()], DumpOptions(after={"26"}, disabled={"OriRemoveRedundantBarriers"}), out).run(
        mod, PassContext(parse_target("sm_90")))
    assert out.getvalue() == ""
    assert sum(1 for i in mod.functions[0].instructions() if i.opcode == "bar") == 2


def test_dump_dir(tmp_path):
    PassManager([DropSecondBar()], DumpOptions(before={"26"}, after={"26"}, dump_dir=tmp_path)).run(
        _module(), PassContext(parse_target("sm_90")))
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == ["001-before-26-OriRemoveRedundantBarriers.ir", "002-after-26-OriRemoveRedundantBarriers.ir"]
    assert ori.parse_ir((tmp_path / names[1]).read_text().split("\n", 1)[1]).functions[0].name == "k"


def test_verifier_rejects_broken_ir():
    """lowering/verify.py checks what the operation schema declares."""
    import pytest
    from pylower.lowering.ori import parse_ir
    from pylower.lowering.verify import VerifyError, verify_module
    good = """module version=9.0 target=sm_90 address_size=64
function .visible .entry k()
  block $entry succs=$L1
    96 bar.sync 0;  !line=3 !by=build !mode=sync
    7 bra $L1;  !line=4 !by=build
  block $L1
    9 ret;  !line=5 !by=build
end
"""
    verify_module(parse_ir(good))
    bad_class = good.replace("96 bar.sync 0;", "314 bar.sync 0;").replace(" !mode=sync", "")
    with pytest.raises(VerifyError, match="declared with class"):
        verify_module(parse_ir(bad_class))
    bad_choice = good.replace("!mode=sync", "!mode=wait")
    with pytest.raises(VerifyError, match="mode='wait'"):
        verify_module(parse_ir(bad_choice))
    mid_block = good.replace("    7 bra $L1;  !line=4 !by=build\n", "    9 ret;  !line=4 !by=build\n    7 bra $L1;  !line=4 !by=build\n")
    with pytest.raises(VerifyError, match="terminator before the end"):
        verify_module(parse_ir(mid_block))
    bad_succ = good.replace("succs=$L1", "succs=$L1,$nowhere")
    with pytest.raises(VerifyError, match="not a block"):
        verify_module(parse_ir(bad_succ))


def test_ir_attributes_are_typed_and_checked():
    import pytest
    from pylower.lowering.diagnostics import PtxError
    from pylower.lowering.ori import parse_ir, print_module
    from pylower.lowering.ori_schema import AtomicAttrs
    text = """module version=9.0 target=sm_90 address_size=64
function .visible .entry k(.param .u64 p)
  block $entry
    314 atom.global.add.u32 %r1, [%rd1], 1;  !line=3 !by=build !agg=2 !kind=atom !op=add !scope=gpu !sem=relaxed !space=global !type=u32 !word=0x60000cd8
    9 ret;  !line=4 !by=build
end
"""
    m = parse_ir(text)
    ins = m.functions[0].blocks[0].instrs[0]
    assert type(ins.attrs) is AtomicAttrs and ins.attrs.agg == 2 and ins.attrs.word == 0x60000CD8
    assert print_module(m) == text
    with pytest.raises(PtxError, match="no attribute 'kindd'"):
        parse_ir(text.replace("!kind=atom", "!kindd=atom"))
