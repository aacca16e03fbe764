"""The Numba corpus (tests/corpus/numba/): every kernel configured in tests/corpus/numba/src/*.py has its .ptx with
the provenance line tools/corpus_numba.py writes, a PTX version ptxas 13.0 reads, and a ptxas reference made from
that exact file. The file checks need no numba; regenerating a kernel is skipped without a usable numba-cuda."""
import hashlib
import re

import pytest

from pylower.tools import corpus_numba as cn
from pylower.tools.refresh_reference import read_reference, reference_path

CONFIGS = cn.configs()
IDS = [name for _, name in CONFIGS]


def test_corpus_size_and_unique_names():
    assert len(CONFIGS) >= 15
    assert len(set(IDS)) == len(IDS), "two sources configure the same kernel name"


def test_no_stale_ptx():
    known = {f"{n}.ptx" for n in IDS}
    assert sorted(p.name for p in cn.CORPUS_DIR.glob("*.ptx") if p.name not in known) == []


@pytest.mark.parametrize("src,name", CONFIGS, ids=IDS)
def test_ptx_provenance_and_version(src, name):
    ptx = cn.out_path(name)
    assert ptx.exists(), f"{ptx.name} missing: run python -m pylower.tools.corpus_numba"
    text = ptx.read_text()
    assert text.splitlines(keepends=True)[0] == cn.provenance(src)
    assert cn.NVVM_RELEASE in text
    assert cn.ptx_version(text) <= cn.MAX_PTX_VERSION
    assert re.search(r"^\.visible \.entry ", text, re.M), "no entry kernel"
    assert "/root/" not in text and "site-packages" not in text


@pytest.mark.parametrize("src,name", CONFIGS, ids=IDS)
def test_reference_matches_ptx(src, name):
    ptx = cn.out_path(name)
    ref = reference_path(ptx)
    assert ref.exists(), f"{ref.name} missing: run python -m pylower.tools.refresh_reference tests/corpus/numba"
    data = read_reference(ref)
    assert data["sha256"] == hashlib.sha256(ptx.read_text().encode()).hexdigest(), "reference is stale"
    assert data["file"] == f"numba/{name}.ptx"


def test_regenerates_identically():
    """One kernel through the real tool (child process): byte-identical to the committed file."""
    if cn.numba_cuda_version() != cn.NUMBA_CUDA_VERSION:
        pytest.skip(f"numba-cuda {cn.NUMBA_CUDA_VERSION} not installed")
    src, name = next((s, n) for s, n in CONFIGS if n == "votes")
    try:
        text = cn.compile_kernel(src, name)
    except RuntimeError as e:
        if not str(e).startswith("numba failed"):
            raise                         # compiled, but not with the pinned NVVM / PTX version
        pytest.skip(f"numba cannot compile here (no NVRTC / NVVM?): {str(e).splitlines()[-1]}")
    assert text == cn.out_path(name).read_text()
