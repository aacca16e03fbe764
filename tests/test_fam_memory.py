"""Loads and stores with a memory order: PTX text in, pylower's sync view / SASS / errors out
(rules: docs/findings/memory.md, probes tests/corpus/probes/memory)."""
import pytest

from pylower.lowering.diagnostics import PtxError
from pylower.pipeline import compile_text
from pylower.tools.conformance import sync_view

HEAD = """.version {version}
.target {target}
.address_size 64
.visible .entry k(.param .u64 out)
{{
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
{body}
  st.global.u32 [%rd1+64], %r2;
  ret;
}}
"""
LINE = 10


def compile_fn(body, arch="sm_90", version="9.0"):
    res = compile_text(HEAD.format(body=body, target=arch, version=version), "t.ptx", arch)
    return next(f for f in res.program.functions if f.name == "k")


def sync_of(body, arch="sm_90", version="9.0"):
    return sync_view(compile_fn(body, arch, version))


def sass_of(body, arch="sm_90"):
    return [i.opcode + "".join("." + m for m in i.mods) for i in compile_fn(body, arch).instrs]


def errors_of(body, arch="sm_90", version="9.0"):
    with pytest.raises(PtxError) as e:
        compile_fn(body, arch, version)
    assert e.value.line == LINE
    return [e.value.message, *e.value.more]


LD = "  ld{m}.u32 %r2, [%rd1+8];"
ST = "  st{m}.u32 [%rd1+8], %r1;"
REL_GPU_P = ["MEMBAR.ALL.GPU", "ERRBAR"]
REL_GPU_H = REL_GPU_P + ["CGAERRBAR"]


@pytest.mark.parametrize("arch", ["sm_75", "sm_90", "sm_100a", "sm_120"])
@pytest.mark.parametrize("m,want", [
    (".acquire.gpu.global", ["CCTL.IVALL"]), (".acquire.sys", ["CCTL.IVALL"]), (".acquire.cta.global", []),
    (".relaxed.gpu.global", []), (".volatile.global", []), (".mmio.relaxed.sys.global", []), (".global", []),
])
def test_load_fences(arch, m, want):
    assert sync_of(LD.format(m=m), arch) == want


@pytest.mark.parametrize("arch,want", [("sm_75", []), ("sm_89", []), ("sm_90", ["CCTL.IVALL"]),
                                       ("sm_120", ["CCTL.IVALL"])])
def test_shared_acquire_fence_from_sm90(arch, want):
    assert sync_of(LD.format(m=".acquire.gpu.shared::cta"), arch) == want


@pytest.mark.parametrize("arch,m,want", [
    ("sm_75", ".release.gpu.global", REL_GPU_P), ("sm_90", ".release.gpu.global", REL_GPU_H),
    ("sm_90", ".release.cluster.shared::cluster", REL_GPU_H), ("sm_100a", ".release.gpu.shared::cta", REL_GPU_H),
    ("sm_80", ".release.sys", ["MEMBAR.ALL.SYS", "ERRBAR"]), ("sm_90", ".release.cta.global", ["MEMBAR.ALL.CTA"]),
    ("sm_90", ".relaxed.sys.global", []), ("sm_90", ".mmio.relaxed.sys", []), ("sm_90", ".volatile", []),
])
def test_store_fences(arch, m, want):
    assert sync_of(ST.format(m=m), arch) == want


def test_fence_order_around_access():
    seq = sass_of(LD.format(m=".acquire.gpu.global"))
    i = seq.index("LDG.E.STRONG.GPU")
    assert seq[i:i + 2] == ["LDG.E.STRONG.GPU", "CCTL.IVALL"]
    seq = sass_of(ST.format(m=".release.sys.global"))
    i = seq.index("STG.E.STRONG.SYS")
    assert seq[i - 3:i] == ["MEMBAR.ALL.SYS", "ERRBAR", "CGAERRBAR"]


@pytest.mark.parametrize("m,want", [
    (".relaxed.cta.global", "LDG.E.STRONG.SM"), (".relaxed.cluster", "LD.E.STRONG.GPU"),
    (".volatile.global", "LDG.E.STRONG.SYS"), (".mmio.relaxed.sys.global", "LDG.E.MMIO.SYS"),
    (".relaxed.gpu.shared::cta", "LDS"), (".acquire.sys.shared::cluster", "LD.E.STRONG.SYS"),
])
def test_access_strength(m, want):
    assert want in sass_of(LD.format(m=m))


@pytest.mark.parametrize("used,n", [("%r2,%r4,%r5,%r6", 1), ("%r2,%r4", 1), ("%r2,%r5", 2), ("%r4,%r5,%r6", 1),
                                    ("%r6", 1), ("", 1)])
def test_vector_acquire_split(used, n):
    body = "  ld.acquire.gpu.global.v4.u32 {%r2,%r4,%r5,%r6}, [%rd1+16];\n  mov.u32 %r7, 0;\n"
    body += "".join(f"  add.u32 %r7, %r7, {r};\n" for r in used.split(",") if r) + "  mov.u32 %r2, %r7;"
    assert sync_of(body) == ["CCTL.IVALL"] * n


@pytest.mark.parametrize("ins,arch,version,want", [
    (LD.format(m=".relaxed.global"), "sm_90", "9.0", ["Modifier '.relaxed' requires scope with 'ld' instruction"]),
    (ST.format(m=".acquire.gpu.global"), "sm_90", "9.0", ["Illegal modifier '.acquire' for instruction 'st'"]),
    (LD.format(m=".volatile.gpu.global"), "sm_90", "9.0", ["Modifier '.volatile' cannot be combined with modifier '.gpu'"]),
    (LD.format(m=".gpu.global"), "sm_90", "9.0", ["Modifier '.gpu' requires memory order with 'ld' instruction"]),
    (LD.format(m=".acquire.relaxed.gpu.global"), "sm_90", "9.0", ["Duplicate .relaxed modifier"]),
    (LD.format(m=".acquire.gpu.sys.global"), "sm_90", "9.0", ["Multiple scope modifiers specified"]),
    (ST.format(m=".release.gpu.global.wb"), "sm_90", "9.0", ["Modifier '.release' cannot be combined with modifier '.wb'"]),
    (LD.format(m=".mmio.global"), "sm_90", "9.0", ["Modifier '.mmio' requires modifier '.relaxed' for instruction 'ld'",
                                                    "Modifier '.mmio' requires scope with 'ld' instruction"]),
    (LD.format(m=".mmio.volatile.global"), "sm_90", "9.0", ["Modifier '.mmio' requires modifier '.relaxed' for instruction 'ld'"]),
    (LD.format(m=".mmio.relaxed.gpu.shared"), "sm_90", "8.1", [
        "Feature '.mmio' requires PTX ISA .version 8.2 or later", "Modifier '.mmio' cannot be applied to '.shared' space",
        "Modifier '.mmio' cannot be combined with modifier '.gpu'"]),
    (LD.format(m=".volatile.relaxed.gpu.local.nc"), "sm_90", "9.0", [
        "Duplicate .relaxed modifier", "Modifier '.relaxed' cannot be combined with modifier '.nc'",
        "Modifier '.relaxed' cannot be applied to '.local' space", "Modifier '.nc' requires .global space"]),
    (LD.format(m=".relaxed.cluster.shared::cluster"), "sm_80", "7.8", [
        "Feature '::cluster' requires .target sm_90 or higher", "Feature '.cluster scope' requires .target sm_90 or higher"]),
    (LD.format(m=".relaxed.cluster.global"), "sm_80", "7.7", [
        "Feature '.cluster scope' requires .target sm_90 or higher",
        "Feature '.cluster scope' requires PTX ISA .version 7.8 or later"]),
])
def test_errors(ins, arch, version, want):
    assert errors_of(ins, arch, version) == want
