"""make_corpus's PTX header must not depend on which checkout's tool made it or from which folder it ran."""
from pathlib import Path

from pylower.tools import make_corpus


def test_header_path_is_relative_to_the_sources_checkout(tmp_path):
    other = tmp_path / "checkout"
    (other / "tests" / "corpus" / "nvcc").mkdir(parents=True)
    src = other / "tests" / "corpus" / "nvcc" / "k.cu"
    src.write_text("// corpus: -arch=sm_80\n")
    assert make_corpus._rel(src) == "tests/corpus/nvcc/k.cu"
    assert make_corpus._rel(make_corpus.ROOT / "examples" / "x.cu") == "examples/x.cu"
    assert make_corpus._rel(tmp_path / "loose.cu") == "loose.cu"


def test_checked_in_headers_name_the_source_path():
    root = make_corpus.ROOT
    for ptx in sorted((root / "tests" / "corpus" / "nvcc").glob("*.ptx")):
        first = ptx.open().readline()
        if first.startswith("// from ") and Path(ptx.with_suffix(".cu")).exists():
            assert first.startswith("// from tests/corpus/nvcc/"), ptx.name
