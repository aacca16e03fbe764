"""The command line: outputs, determinism, dumps, and bad input (file:line:col: error, exit 1, no traceback,
existing output untouched)."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from pylower.tools.pylower import run

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "block_reduce.ptx"

HEADER = ".version 9.0\n.target sm_90\n.address_size 64\n"


def _run(args, capsys):
    rc = run([str(a) for a in args])
    out, err = capsys.readouterr()
    return rc, out, err


def test_main_job_writes_sass_and_json(tmp_path, capsys):
    out = tmp_path / "out.sass"
    rc, _, err = _run([EXAMPLE, "--arch", "sm_90", "-o", out, "--emit-json"], capsys)
    assert rc == 0, err
    text = out.read_text()
    assert ".text.block_reduce" in text or ".text." in text
    assert "/*0000*/" in text and "EXIT ;" in text
    data = json.loads((tmp_path / "out.sass.json").read_text())
    (name, k), = list(data["kernels"].items())[:1]
    assert "EIATTR_EXIT_INSTR_OFFSETS" in k["eiattr"]
    assert k["instructions"][0]["offset"] == 0


def test_output_is_deterministic(tmp_path, capsys):
    a, b = tmp_path / "a.sass", tmp_path / "b.sass"
    _run([EXAMPLE, "--arch", "sm_100a", "-o", a, "--emit-json"], capsys)
    _run([EXAMPLE, "--arch", "sm_100a", "-o", b, "--emit-json"], capsys)
    assert a.read_bytes() == b.read_bytes()
    assert (tmp_path / "a.sass.json").read_bytes() == (tmp_path / "b.sass.json").read_bytes()


def test_list_passes(capsys):
    rc, out, _ = _run(["--list-passes"], capsys)
    assert rc == 0 and "phase" in out


BAD = {
    "syntax": (HEADER + ".visible .entry k()\n{\n\tadd.s32 %r1 %r2, 1;\n}\n", 6, "Parsing error near '%r2': syntax error"),
    "unknown_directive": (HEADER + ".visible .entry k()\n{\n\t.foo 1;\n\tret;\n}\n", 6, "Parsing error near '.foo': syntax error"),
    "unknown_register": (HEADER + ".visible .entry k()\n{\n\t.reg .b32 %r<3>;\n\tadd.s32 %r1, %r9, 1;\n\tret;\n}\n", 7,
                         "Unknown symbol '%r9'"),
    "unknown_label": (HEADER + ".visible .entry k()\n{\n\tbra LBL;\n\tret;\n}\n", 6, "Unknown symbol 'LBL'"),
    "unknown_instruction": (HEADER + ".visible .entry k()\n{\n\tfoo.bar 1;\n\tret;\n}\n", 6,
                            "Not a name of any known instruction: 'foo'"),
    "unterminated": (HEADER + ".visible .entry k()\n{\n\tret;\n", 7, "Parsing error near '<EOF>': syntax error"),
    "bad_char": (HEADER + ".visible .entry k()\n{\n\tmov.u32 %r1, #;\n}\n", 6, "unexpected character '#'"),
    "version": (".version 9.1\n.target sm_90\n.address_size 64\n", 1, "Unsupported .version 9.1; current version is '9.0'"),
    "target_version": (".version 7.0\n.target sm_90\n.address_size 64\n", 2, "PTX .version 7.0 does not support .target sm_90"),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_input(name, tmp_path, capsys):
    text, line, msg = BAD[name]
    src = tmp_path / f"{name}.ptx"
    src.write_text(text)
    out = tmp_path / "out.sass"
    out.write_text("previous output\n")
    rc, _, err = _run([src, "--arch", "sm_90", "-o", out], capsys)
    assert rc == 1
    assert err.startswith(f"{src}:{line}:"), err
    assert ": error: " in err and msg in err, err
    assert "Traceback" not in err
    assert out.read_text() == "previous output\n"


def test_missing_file_and_bad_arch(tmp_path, capsys):
    rc, _, err = _run([tmp_path / "nope.ptx", "--arch", "sm_90"], capsys)
    assert rc == 1 and "could not be opened" in err and ":1:1: error:" in err
    rc, _, err = _run([EXAMPLE, "--arch", "sm_99"], capsys)
    assert rc == 1 and "Value 'sm_99' is not defined for option 'gpu-name'" in err


def test_target_higher_than_arch(tmp_path, capsys):
    src = tmp_path / "t.ptx"
    src.write_text(".version 9.0\n.target sm_100a\n.address_size 64\n")
    rc, _, err = _run([src, "--arch", "sm_90"], capsys)
    assert rc == 1 and "SM version specified by .target is higher than default SM version assumed" in err


def test_console_script_no_traceback(tmp_path):
    src = tmp_path / "bad.ptx"
    src.write_text(HEADER + ".visible .entry k()\n{\n\tfoo;\n}\n")
    p = subprocess.run([sys.executable, "-m", "pylower.tools.pylower", str(src), "--arch", "sm_90"],
                       capture_output=True, text=True)
    assert p.returncode == 1 and "Traceback" not in p.stderr and ":6:" in p.stderr


# Start-up (issue 13): modules a one-instruction compile must not import. Each cost milliseconds of every run
# (docs/performance.md): pathlib (with urllib and ipaddress), shutil (argparse's default help width: bz2, lzma,
# zlib), tempfile, dataclasses / inspect / typing, json (only --emit-json), tabulate (only --stats /
# --list-passes), llvmlite (only .ll input), argparse with gettext and locale (a plain compile's command line is
# read without it: tools/pylower.py plain_args). Modules the interpreter had before pylower's import (an editable
# install's finder imports pathlib) are not counted.
_NOT_AT_START_UP = {"pathlib", "shutil", "tempfile", "dataclasses", "inspect", "typing", "json", "tabulate",
                    "llvmlite", "bz2", "lzma", "ipaddress", "urllib.parse", "argparse", "gettext", "locale"}


def test_probe_run_imports_only_what_it_needs(tmp_path):
    src = tmp_path / "k.ptx"
    src.write_text(HEADER + ".visible .entry k()\n{\n bar.sync 0;\n ret;\n}\n")
    code = ("import os, sys\nbefore = set(sys.modules)\nimport pylower.tools.pylower as m\n"
            f"sys.argv = ['pylower', {str(src)!r}, '--arch', 'sm_90', '-o', {str(tmp_path / 'k.sass')!r}]\n"
            "try:\n    m.run()\nfinally:\n    print(' '.join(sorted(set(sys.modules) - before)))\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    new = set(p.stdout.split())
    assert "pylower.pipeline" in new                  # the run did compile
    assert not (new & _NOT_AT_START_UP), sorted(new & _NOT_AT_START_UP)


# A plain compile's command line is read without argparse (tools/pylower.py plain_args): the same namespace as
# argparse's parser gives, every attribute compared; anything else is left to argparse.
_PLAIN_LINES = [["k.ptx"], ["k.ptx", "--arch", "sm_90", "-o", "k.sass"], ["--arch", "sm_90", "k.ptx", "-o", "k.sass"],
                ["-o", "k.sass", "--arch=sm_90a", "k.ptx"], ["k.ptx", "-arch", "sm_100a"], ["k.ptx", "-arch=sm_80"],
                ["k.ptx", "--gpu-name", "sm_90", "--output-file", "-"], ["-", "-o", "-"], ["k.ptx", "--output=o.sass"],
                ["k.ptx", "-o="], ["k.ptx", "--arch", "compute_90"]]
_NOT_PLAIN = [[], ["a.ptx", "b.ptx"], ["k.ptx", "-o"], ["k.ptx", "-o", "a", "-o", "b"], ["k.ptx", "-O0"],
              ["k.ptx", "--arch", "-x"], ["k.ptx", "--emit-json", "-o", "k.sass"], ["--", "k.ptx"], ["k.ptx", "-ok.sass"],
              ["k.ptx", "--arc", "sm_90"], ["-h"]]


def test_plain_command_line_reads_as_argparse():
    from pylower.tools.pylower import plain_args
    from pylower.tools.pylower_options import make_parser
    for argv in _PLAIN_LINES:
        a, extra = make_parser().parse_known_args(argv)
        assert not extra and vars(plain_args(argv)) == vars(a), argv
    for argv in _NOT_PLAIN:
        assert plain_args(argv) is None, argv
