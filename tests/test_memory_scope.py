"""Target/version gates of .cluster scope and ::cluster space on ld/st (ptxas 13.0.88's messages)."""
import pytest

from pylower.lowering.diagnostics import PtxError
from pylower.pipeline import compile_text

TEMPLATE = """.version {ver}
.target {tgt}
.address_size 64
.visible .entry k(.param .u64 out)
{{
 .reg .b32 %r<8>; .reg .b64 %rd<4>;
 ld.param.u64 %rd1, [out];
 {ins}
 st.global.u32 [%rd1], %r1;
 ret;
}}
"""

CASES = [
    ("9.0", "sm_80", "ld.acquire.cluster.global.u32 %r1, [%rd1];",
     ["Feature '.cluster scope' requires .target sm_90 or higher"]),
    ("9.0", "sm_80", "st.release.cluster.global.u32 [%rd1], %r1;",
     ["Feature '.cluster scope' requires .target sm_90 or higher"]),
    ("9.0", "sm_80", "ld.relaxed.cluster.shared::cluster.u32 %r1, [%rd1];",
     ["Feature '::cluster' requires .target sm_90 or higher", "Feature '.cluster scope' requires .target sm_90 or higher"]),
    ("9.0", "sm_80", "ld.shared::cluster.u32 %r1, [%rd1];", ["Feature '::cluster' requires .target sm_90 or higher"]),
    ("9.0", "sm_75", "ld.acquire.gpu.global.u32 %r1, [%rd1];", []),
    ("9.0", "sm_90", "ld.acquire.cluster.global.u32 %r1, [%rd1];", []),
]


@pytest.mark.parametrize("ver,tgt,ins,errors", CASES)
def test_ld_st_cluster_gates(ver, tgt, ins, errors):
    text = TEMPLATE.format(ver=ver, tgt=tgt, ins=ins)
    if not errors:
        compile_text(text, "t.ptx", tgt)
        return
    with pytest.raises(PtxError) as e:
        compile_text(text, "t.ptx", tgt)
    assert [e.value.message, *e.value.more] == errors
    assert e.value.line == 8


def test_createpolicy_needs_sm80():
    text = TEMPLATE.format(ver="9.0", tgt="sm_75", ins="createpolicy.fractional.L2::evict_last.b64 %rd2, 1.0;")
    with pytest.raises(PtxError) as e:
        compile_text(text, "t.ptx", "sm_75")
    assert [e.value.message, *e.value.more] == [
        "Feature 'createpolicy.fractional' requires .target sm_80 or higher",
        "Modifier '.L2::evict_last' on 'createpolicy.fractional' requires .target sm_80 or higher"]
    compile_text(text.replace("sm_75", "sm_80"), "t.ptx", "sm_80")
