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
    monkeypatch.setattr(cls, "_fast_section", lambda self: None)


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


def test_vectors_inlined_loc_and_sections_take_the_fast_path(monkeypatch):
    """Brace-list operands, `.loc ..., function_name F, inlined_at F L C` lines and DWARF `.section` byte lists
    (Triton's kernels are full of them) are read without the token path, into the token path's AST."""
    src = (".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n\t.reg .b32 %r<4>;\n"
           "\t.reg .b64 %rd<2>;\n"
           "\t.loc\t1 12 34, function_name $L__info_string0, inlined_at 1 89 29 // standard.py:12:34\n"
           "\tmov.b64 \t%rd1, {%r1, %r2};\n\tmov.b64 \t{ %r1, %r2 }, %rd1;\n"
           "\t.loc\t1 13 3, function_name $L__info_string1\n\tret;\n}\n"
           "\t.section\t.debug_abbrev\n\t{\n.b8 1\n.b8 17\n.b8 0x1F, 2\n\t}\n")
    cls = next(c for c in vars(parser).values() if isinstance(c, type) and hasattr(c, "_fast_run"))
    slow: list = []
    token_instruction = cls.parse_instruction
    monkeypatch.setattr(cls, "parse_instruction", lambda self: slow.append(1) or token_instruction(self))
    fast = repr(parser.parse(src, "k.ptx"))
    assert not slow
    assert "text='1 12 34 , function_name $L__info_string0 , inlined_at 1 89 29'" in fast
    assert "Vec(items=(Reg(name='%r1'), Reg(name='%r2')))" in fast
    assert "text='.debug_abbrev { .b8 1 .b8 17 .b8 0x1F , 2 }'" in fast
    _token_path_only(monkeypatch)
    assert repr(parser.parse(src, "k.ptx")) == fast
