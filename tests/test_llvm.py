"""LLVM IR input through llvmlite's NVPTX target, and LLVM failures as diagnostics."""
from pathlib import Path

import pytest

from pylower.tools.pylower import run

LL = """target triple = "nvptx64-nvidia-cuda"
declare void @llvm.nvvm.barrier0()
define void @k(ptr addrspace(1) %p) {
  call void @llvm.nvvm.barrier0()
  %old = atomicrmw add ptr addrspace(1) %p, i32 1 syncscope("block") monotonic
  store i32 %old, ptr addrspace(1) %p
  ret void
}
!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1}
"""


def test_ll_to_ptx_and_sass(tmp_path, capsys):
    pytest.importorskip("llvmlite")
    src = tmp_path / "k.ll"
    src.write_text(LL)
    assert run([str(src), "--arch", "sm_90", "--emit-ptx"]) == 0
    ptx = capsys.readouterr().out
    assert ".target sm_90" in ptx and "atom" in ptx
    out = tmp_path / "k.sass"
    assert run([str(src), "--arch", "sm_90", "-o", str(out)]) == 0
    assert "EXIT" in out.read_text()


def test_ll_error_is_a_diagnostic(tmp_path, capsys):
    pytest.importorskip("llvmlite")
    src = tmp_path / "bad.ll"
    src.write_text("define void @k( {\n")
    out = tmp_path / "o.sass"
    out.write_text("keep\n")
    assert run([str(src), "--arch", "sm_90", "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert f"{src}:" in err and "error:" in err and "Traceback" not in err
    assert out.read_text() == "keep\n"


ABORTS = """target triple = "nvptx64-nvidia-cuda"
define void @k(ptr addrspace(1) %p) {
  fence syncscope("cluster") seq_cst
  store i32 1, ptr addrspace(1) %p
  ret void
}
!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1}
"""


def test_llvm_abort_does_not_take_pylower_down(tmp_path, capsys):
    pytest.importorskip("llvmlite")
    src = tmp_path / "fence.ll"
    src.write_text(ABORTS)
    assert run([str(src), "--arch", "sm_80", "--emit-ptx"]) == 1
    err = capsys.readouterr().err
    assert "LLVM aborted" in err and "cluster" in err and "Traceback" not in err
    assert run([str(src), "--arch", "sm_90", "--emit-ptx"]) == 0
    assert "fence.sc.cluster;" in capsys.readouterr().out
