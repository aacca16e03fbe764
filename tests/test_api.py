"""pylower.compile: the documented Python API (README "Python API")."""
import subprocess
import sys
from pathlib import Path

import pytest

import pylower

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = (ROOT / "examples" / "block_reduce.ptx").read_text()
HEAD = ".version 9.0\n.target sm_90\n.address_size 64\n"


def test_compile_returns_sass_kernels_ir_diagnostics():
    out = pylower.compile(EXAMPLE, arch="sm_90", opt_level=3, knobs={"DisableErrbarAfterMembar": 1})
    assert isinstance(out, pylower.Compiled) and out.target == "sm_90"
    assert "\t.target\tsm_90" in out.sass and "EXIT ;" in out.sass
    k = out.kernels["block_reduce"]
    assert k.entry and k.instructions[0].offset == 0 and k.instructions[-1].opcode.startswith(("EXIT", "BRA"))
    assert "EIATTR_EXIT_INSTR_OFFSETS" in k.eiattrs
    assert out.ir.startswith("module ") and "function" in out.ir
    assert out.diagnostics == []


def test_same_sass_as_the_command_line(tmp_path, capsys):
    from pylower.tools.pylower import run
    src = tmp_path / "k.ptx"
    src.write_text(EXAMPLE)
    assert run([str(src), "--arch", "sm_90", "-O1"]) == 0
    assert capsys.readouterr().out == pylower.compile(EXAMPLE, arch="sm_90", opt_level=1).sass


def test_compile_error_carries_the_diagnostics():
    with pytest.raises(pylower.CompileError) as e:
        pylower.compile(HEAD + ".visible .entry k()\n{\n.reg .b32 %r<3>;\n\tadd.u32 %r1, %r2;\n}\n", arch="sm_90",
                        file="k.ptx")
    (d,) = e.value.diagnostics
    assert (d.file, d.line, d.severity) == ("k.ptx", 7, "error")
    assert d.message == "Arguments mismatch for instruction 'add'"
    assert str(d) == "k.ptx:7:2: error: Arguments mismatch for instruction 'add'" == str(e.value)


def test_warnings_are_diagnostics():
    text = (".version 6.3\n.target sm_75\n.address_size 64\n.visible .entry k()\n{\n.reg .b32 %r<5>; "
            ".reg .pred %p<3>;\nvote.ballot.b32 %r1, %p1;\n\tret;\n}\n")
    out = pylower.compile(text)
    assert [(d.line, d.severity) for d in out.diagnostics] == [(7, "warning"), (7, "warning")]


@pytest.mark.parametrize("kw", [{"knobs": {"NoSuchKnob": 1}}, {"arch": "sm_99"}, {"opt_level": -1}])
def test_bad_arguments_are_compile_errors(kw):
    with pytest.raises(pylower.CompileError):
        pylower.compile(EXAMPLE, **kw)


def test_import_is_lazy():
    """`import pylower` loads neither the pipeline nor the API (the command line's start-up stays fast)."""
    code = "import sys, pylower; print(sorted(m for m in sys.modules if m.startswith('pylower.')))"
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert p.stdout.strip() == "[]"
