"""The parser's fast path (one regex per simple statement, lowering/parser.py) gives the AST the token path
gives, line and column numbers included, on every real corpus file and a sample of the probes."""
import pytest

from conftest import corpus_files
from pylower.lowering import parser
from pylower.lowering.diagnostics import PtxError

FILES = [f for f in corpus_files() if "probes" not in f.parts] + \
    [f for f in corpus_files() if "probes" in f.parts][::7]


def _token_path_only(monkeypatch):
    cls = next(c for c in vars(parser).values() if isinstance(c, type) and hasattr(c, "_fast_run"))
    monkeypatch.setattr(cls, "_fast_run", lambda self, out: False)


def _outcome(f) -> str:
    """The AST, or the error a file that does not parse gives (the sample holds front-end error probes)."""
    try:
        return repr(parser.parse(f.read_text(), str(f)))
    except PtxError as e:
        return f"error: {e}"


@pytest.mark.parametrize("chunk", range(2))
def test_fast_path_gives_the_token_paths_ast(chunk, monkeypatch):
    files = FILES[chunk::2]
    fast = [_outcome(f) for f in files]
    _token_path_only(monkeypatch)
    for f, got in zip(files, fast):
        assert _outcome(f) == got, f"{f}: the fast path changed the AST (or the error)"


def test_comments_and_loc_lines(monkeypatch):
    src = (".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n\t.reg .b32 %r<4>;\n"
           "// a comment // with slashes\n\t.loc\t1 125 1   // attention.py:125:1\n\tmov.u32 %r1, %tid.x;\n"
           "\t// begin inline asm\n\t.loc 1 126 3, function_name $L__info_string0\n\tadd.s32 %r2, %r1, 1;\n"
           "\t.loc 1 127\n\tret;\n}\n")
    fast = repr(parser.parse(src, "k.ptx"))
    assert "Directive(name='.loc', text='1 125 1', line=8)" in fast
    assert "Directive(name='.loc', text='1 127', line=13)" in fast
    _token_path_only(monkeypatch)
    assert repr(parser.parse(src, "k.ptx")) == fast
