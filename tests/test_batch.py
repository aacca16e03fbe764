"""Batch mode of the pylower command (tools/batch.py): several inputs, one output per input, -j workers."""
import io
import subprocess
import sys
from pathlib import Path

from pylower.tools import batch
from pylower.tools.pylower import run

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "corpus"
# real kernels of several shapes, all accepted on sm_90a (the .target of each is sm_90a or lower)
FILES = ["nvcc/cub_block_load_store.ptx", "nvcc/cutlass_sm90_tma_ws_gemm.ptx", "nvcc/atomic_cas_loops.ptx",
         "llvm/barrier0_block_reduce.ptx", "examples:block_reduce.ptx"]


def _inputs(tmp_path: Path) -> list[Path]:
    out = []
    for rel in FILES:
        src = ROOT / "examples" / rel.split(":")[1] if rel.startswith("examples:") else CORPUS / rel
        dst = tmp_path / "in" / src.name
        dst.parent.mkdir(exist_ok=True)
        dst.write_text(src.read_text())
        out.append(dst)
    return out


def _run(argv):
    out, err = io.StringIO(), io.StringIO()
    status = run([str(a) for a in argv], stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


def test_outputs_identical_to_separate_runs(tmp_path):
    inputs = _inputs(tmp_path)
    for jobs in ("1", "2"):
        status, _, err = _run(inputs + ["--arch", "sm_90a", "--emit-json", "-j", jobs, "-o", tmp_path / f"b{jobs}"])
        assert status == 0, err
    (tmp_path / "one").mkdir()
    for src in inputs:
        one = tmp_path / "one" / (src.stem + ".sass")
        status, _, err = _run([src, "--arch", "sm_90a", "--emit-json", "-o", one])
        assert status == 0, err
        for jobs in ("1", "2"):
            got = tmp_path / f"b{jobs}" / one.name
            assert got.read_text() == one.read_text(), (src.name, jobs)
            assert Path(str(got) + ".json").read_text() == Path(str(one) + ".json").read_text()


def test_failing_input_does_not_stop_the_others(tmp_path):
    inputs = _inputs(tmp_path)[:2]
    bad = tmp_path / "in" / "bad.ptx"
    bad.write_text(".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n\tfoo.bar %r1;\n}\n")
    missing = tmp_path / "in" / "missing.ptx"
    status, _, err = _run([inputs[0], bad, missing, inputs[1], "--arch", "sm_90a", "-j", "2", "-o", tmp_path / "out"])
    assert status == 1
    assert f"{bad}:6:" in err and "error" in err                       # located, ptxas-style
    assert f"'{missing}' could not be opened" in err
    assert "2 of 4 input files failed" in err
    assert "Traceback" not in err
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == sorted(p.stem + ".sass" for p in inputs)


def test_whole_command_line(tmp_path):
    """The real command (a fresh interpreter, worker processes): exit status and outputs."""
    inputs = _inputs(tmp_path)[:3]
    p = subprocess.run([sys.executable, "-m", "pylower.tools.pylower", *map(str, inputs), "--arch", "sm_90a",
                        "-j", "2", "-o", str(tmp_path / "out")], capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr
    assert sorted(x.name for x in (tmp_path / "out").iterdir()) == sorted(x.stem + ".sass" for x in inputs)
    assert all((tmp_path / "out" / (x.stem + ".sass")).read_text().count(".section") > 0 for x in inputs)


def test_usage_errors(tmp_path):
    a, b = _inputs(tmp_path)[:2]
    status, _, err = _run([a, b, "--arch", "sm_90a"])
    assert status == 1 and "need -o DIRECTORY" in err
    status, _, err = _run([a, b, "--arch", "sm_90a", "--html", tmp_path / "x.html", "-o", tmp_path / "o"])
    assert status == 1 and "--html takes one input file" in err
    other = tmp_path / "other"
    other.mkdir()
    (other / a.name).write_text(a.read_text())
    status, _, err = _run([a, other / a.name, "--arch", "sm_90a", "-o", tmp_path / "o"])
    assert status == 1 and "would both be written to" in err
    f = tmp_path / "file"
    f.write_text("")
    status, _, err = _run([a, b, "--arch", "sm_90a", "-o", f])
    assert status == 1 and "the output is a directory" in err


def test_shared_options():
    argv = ["a.ptx", "--arch", "sm_90", "-o", "D", "b.ptx", "-j", "2", "--knob", "358=1", "--jobs=3",
            "--output=E", "-oF", "-j4", "--no-membermask-overlap=true", "-O1"]
    assert batch._strip(argv, ["a.ptx", "b.ptx"]) == ["--arch", "sm_90", "--knob", "358=1",
                                                     "--no-membermask-overlap=true", "-O1"]
    assert batch.output_names(["x/k.ptx", "y/m.ll"], Path("D"), ".sass") == [Path("D/k.sass"), Path("D/m.sass")]


class _Tty(io.StringIO):
    def isatty(self):
        return True


def test_progress_bar_only_on_a_terminal():
    assert batch._progress(3, io.StringIO()) is None
    bar = batch._progress(3, _Tty())
    assert bar is not None
    bar.close()


def test_output_directory_parent_must_exist(tmp_path):
    inputs = _inputs(tmp_path)
    status, _, err = _run(inputs + ["--arch", "sm_90a", "-o", tmp_path / "missing" / "out"])
    assert status == 1
    assert "could not be opened" in err
    assert not (tmp_path / "missing").exists()
