"""The command line speaks ptxas's options (issue 11): spellings, -v, -w/-Werror, compute_XX, stdin/stdout,
output paths, unknown options/knobs/phases, and the caret on a terminal."""
import io
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from pylower.tools.pylower import caret, run

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "block_reduce.ptx"
HEAD = ".version 9.0\n.target sm_90\n.address_size 64\n"

# ptxas -v -arch sm_90 on this module prints (tools/verbose.py's docstring):
#   40 bytes gmem / k2 / k (used 2 barriers, 12 bytes smem) / f after k
MODULE = HEAD + """.global .align 4 .b32 g[10];
.func (.reg .b32 r) f(.reg .b32 a)
{
	add.u32 r, a, 1;
	ret;
}
.visible .entry k(.param .u64 p)
{
	.reg .b32 %r<4>;
	.shared .align 4 .b32 sm[3];
	bar.sync 1;
	call (%r1), f, (%r2);
	st.shared.u32 [sm], %r1;
	st.global.u32 [g], %r1;
	ret;
}
.visible .entry k2()
{
	ret;
}
"""
# a ptxas warning (vote without .sync on PTX 6.3)
WARN = (".version 6.3\n.target sm_75\n.address_size 64\n.visible .entry k()\n{\n.reg .b32 %r<5>; .reg .pred %p<3>;\n"
        "vote.ballot.b32 %r1, %p1;\n\tret;\n}\n")


def _run(args, capsys, stdin=None):
    rc = run([str(a) for a in args], stdin=stdin)
    out, err = capsys.readouterr()
    return rc, out, err


@pytest.fixture
def module(tmp_path):
    p = tmp_path / "m.ptx"
    p.write_text(MODULE)
    return p


@pytest.mark.parametrize("spelling", [["--arch", "sm_90"], ["-arch", "sm_90"], ["-arch=sm_90"],
                                      ["--gpu-name", "sm_90"], ["--gpu-name=sm_90"], ["--arch=sm_90"]])
def test_arch_spellings(spelling, module, capsys):
    rc, out, err = _run([module, *spelling], capsys)
    assert rc == 0 and "\t.target\tsm_90" in out, err


def test_version(capsys):
    for flag in ("--version", "-V"):
        rc, out, _ = _run([flag], capsys)
        assert rc == 0 and out.startswith("pylower ") and "V13.0.88" in out


def test_verbose_lines_as_ptxas(module, capsys):
    rc, out, err = _run([module, "-arch", "sm_90", "-v"], capsys)
    assert rc == 0
    lines = [x for x in err.splitlines()]
    assert lines[0] == "pylower info    : 40 bytes gmem"
    # entries in reverse order of definition, each followed by the functions it calls (as ptxas prints them)
    heads = [x.split(": ", 1)[1] for x in lines if x.startswith("pylower info")]
    assert heads == ["40 bytes gmem",
                     "Compiling entry function 'k2' for 'sm_90'", "Function properties for k2",
                     "Used virtual registers, used 0 barriers",
                     "Compiling entry function 'k' for 'sm_90'", "Function properties for k",
                     "Used virtual registers, used 2 barriers, 12 bytes smem",
                     "Function properties for f"]
    assert all("registers are virtual" in x for x in lines if x.startswith("    "))
    rc, _, err2 = _run([module, "-arch", "sm_90", "--verbose"], capsys)
    assert err2 == err


def test_verbose_shared_memory_as_ptxas_counts_it(tmp_path, capsys):
    """ptxas: the kernel's own .shared variables (used or not) in order, then the module-level ones it uses."""
    p = tmp_path / "s.ptx"
    p.write_text(HEAD + ".shared .align 8 .b8 gs[24];\n.shared .align 8 .b8 gt[20];\n"
                 ".extern .shared .align 16 .b8 dyn[];\n.visible .entry a1()\n{\n"
                 ".shared .align 4 .b8 s1[5];\n.shared .align 16 .b8 s2[16];\n.shared .align 4 .b8 unused[1000];\n"
                 "st.shared.u32 [s2], 1;\nst.shared.u8 [gs], 1;\nst.shared.u8 [dyn], 1;\nret;\n}\n")
    rc, _, err = _run([p, "-arch", "sm_90", "-v"], capsys)
    assert rc == 0 and "used 0 barriers, 1056 bytes smem" in err, err


def test_warnings_w_and_werror(tmp_path, capsys):
    src = tmp_path / "w.ptx"
    src.write_text(WARN)
    out = tmp_path / "w.sass"
    rc, _, err = _run([src, "-o", out], capsys)
    assert rc == 0 and err.count(": warning: ") == 2 and out.exists()
    out.unlink()
    rc, _, err = _run([src, "-o", out, "-w"], capsys)
    assert rc == 0 and err == "" and out.exists()
    out.unlink()
    for flag in ("-Werror", "--warning-as-error"):
        rc, _, err = _run([src, "-o", out, flag], capsys)
        assert rc == 1 and err.count(": error: Instruction 'vote' without '.sync'") == 2 and not out.exists()
    rc, _, err = _run([src, "-o", out, "-w", "-Werror"], capsys)      # ptxas: -w wins
    assert rc == 0 and err == ""


def test_compute_target_checks_without_output(module, tmp_path, capsys):
    out = tmp_path / "c.sass"
    rc, stdout, err = _run([module, "-arch", "compute_90", "-o", out, "-v"], capsys)
    assert rc == 0 and stdout == "" and err == "" and not out.exists()
    bad = tmp_path / "bad.ptx"
    bad.write_text(HEAD + ".visible .entry k()\n{\n\tadd.u32 %r1;\n}\n")
    rc, _, err = _run([bad, "-arch", "compute_90"], capsys)
    assert rc == 1 and ":6:" in err


def test_stdin_and_stdout(capsys, tmp_path):
    rc, out, err = _run(["-", "-arch", "sm_90", "-o", "-"], capsys, stdin=io.StringIO(MODULE))
    assert rc == 0 and "\t.target\tsm_90" in out and not (Path.cwd() / "-").exists()
    rc, _, err = _run(["-", "-arch", "sm_90"], capsys, stdin=io.StringIO(HEAD + "bad"))
    assert rc == 1 and err.startswith("<stdin>:4:")
    # JSON only with -o FILE (never mixed into standard output)
    for args in (["--emit-json"], ["--emit-json", "-o", "-"]):
        rc, out, err = _run([EXAMPLE, "-arch", "sm_90", *args], capsys)
        assert rc == 1 and out == "" and "--emit-json needs -o FILE" in err


def test_stdin_bytes_not_utf8(capsys):
    class Bin(io.StringIO):
        buffer = io.BytesIO((HEAD + ".visible .entry k()\n{\n\tret; \xff\n}\n").encode("latin-1"))
    rc, _, err = _run(["-", "-arch", "sm_90"], capsys, stdin=Bin())
    assert rc == 1 and "<stdin>:6:" in err and "Unexpected non-ASCII character encountered on line 6" in err


@pytest.mark.parametrize("args,message", [
    (["--foo"], "Unknown option '-foo'"),
    (["-foo"], "Unknown option 'foo'"),
    (["--emit"], "Unknown option '-emit'"),                     # no abbreviations (ptxas has none)
    (["--knob", "NoSuchKnob=1"], "Unknown knob 'NoSuchKnob'"),
    (["--disable-pass", "999"], "--disable-pass: unknown phase '999'"),
    (["--dump-after", "NoSuchPhase"], "--dump-after: unknown phase 'NoSuchPhase'"),
    (["--arch", "sm_99"], "Value 'sm_99' is not defined for option 'gpu-name'"),
    (["--dump-dir", "d"], "--dump-dir needs --dump-before, --dump-after or --print-changed"),
])
def test_unknown_option_knob_phase_target(args, message, capsys):
    rc, out, err = _run([EXAMPLE, *args], capsys)
    assert rc == 1 and message in err and "Traceback" not in err, err


def test_output_paths(tmp_path, module, capsys):
    afile = tmp_path / "afile"
    afile.write_text("x")
    for bad in (tmp_path, tmp_path / "missing" / "o.sass", afile / "o.sass", Path("/proc/pylower_o.sass")):
        rc, out, err = _run([module, "-arch", "sm_90", "-o", bad], capsys)
        assert rc == 1 and f"error: Output file '{bad}' could not be opened" in err and "Traceback" not in err
    assert not (tmp_path / "missing").exists()                       # no mkdir -p
    rc, _, err = _run([module, "-arch", "sm_90", "--dump-after", "all", "--dump-dir", afile], capsys)
    assert rc == 1 and "--dump-dir" in err


def test_overwritten_output_keeps_its_mode(tmp_path, module, capsys):
    out = tmp_path / "o.sass"
    out.write_text("old\n")
    os.chmod(out, 0o640)
    rc, _, _ = _run([module, "-arch", "sm_90", "-o", out], capsys)
    assert rc == 0 and out.read_text() != "old\n"
    assert stat.S_IMODE(out.stat().st_mode) == 0o640
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".o.sass")] == []   # no temp file left


def test_dump_dir_writes_files(tmp_path, module, capsys):
    d = tmp_path / "dumps"
    rc, _, err = _run([module, "-arch", "sm_90", "--dump-after", "72", "--dump-dir", d], capsys)
    assert rc == 0 and len(list(d.iterdir())) >= 1


def test_caret_on_a_terminal(tmp_path):
    src = tmp_path / "bad.ptx"
    src.write_text(HEAD + ".visible .entry k()\n{\n.reg .b32 %r<3>;\n\tadd.u32 %r1, %r2;\n}\n")

    class Tty(io.StringIO):
        def isatty(self):
            return True
    err = Tty()
    assert run([str(src), "--arch", "sm_90"], stdout=io.StringIO(), stderr=err) == 1
    lines = err.getvalue().splitlines()
    assert lines[0].endswith("error: Arguments mismatch for instruction 'add'")
    assert lines[1] == "\tadd.u32 %r1, %r2;" and lines[2] == "\t^"
    plain = io.StringIO()                                              # not a terminal: no source line
    run([str(src), "--arch", "sm_90"], stdout=io.StringIO(), stderr=plain)
    assert len(plain.getvalue().splitlines()) == 1
    assert caret("  foo bar", 7) == "  foo bar\n      ^\n"


def test_broken_pipe_no_traceback(module):
    p = subprocess.run(f"{sys.executable} -m pylower.tools.pylower {module} -arch sm_90 | head -1",
                       shell=True, capture_output=True, text=True)
    assert "Traceback" not in p.stderr


def test_input_folder_and_missing_directives(tmp_path, capsys):
    """ptxas reads a folder as an empty file; a missing .target is reported after the .version line."""
    rc, _, err = _run([tmp_path, "-arch", "sm_90"], capsys)
    assert rc == 1 and f"{tmp_path}:1:1: error: Missing .version directive at start of file '{tmp_path}'" in err
    src = tmp_path / "nt.ptx"
    src.write_text(".version 9.0\n")
    rc, _, err = _run([src, "-arch", "sm_90"], capsys)
    assert rc == 1 and f"{src}:2:1: error: Missing .target directive at start of file '{src}'" in err


def test_emit_ptx_honours_output(tmp_path, module, capsys):
    out = tmp_path / "o.ptx"
    rc, stdout, _ = _run([module, "-arch", "sm_90", "--emit-ptx", "-o", out], capsys)
    assert rc == 0 and stdout == "" and out.read_text() == MODULE
