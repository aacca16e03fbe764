"""LLVM IR input: llvmlite's NVPTX target turns a .ll module into PTX for the arch.

LLVM aborts the whole process on some inputs (an unsupported syncscope for the arch, for instance), so the
compilation runs in a child Python process; whatever it prints on failure comes back as a diagnostic.
"""
from __future__ import annotations

from pylower.lazy_re import lazy_compile
import subprocess
import sys

from .diagnostics import PtxError
from .target import Target

_CHILD = r"""
import sys
import llvmlite.binding as llvm
try:
    llvm.initialize_all_targets(); llvm.initialize_all_asmprinters()
except Exception:
    pass
cpu, features = sys.argv[1], sys.argv[2]
text = sys.stdin.read()
try:
    mod = llvm.parse_assembly(text)
    mod.verify()
except RuntimeError as e:
    sys.stderr.write(str(e).strip() + "\n"); sys.exit(3)
tm = llvm.Target.from_triple("nvptx64-nvidia-cuda").create_target_machine(cpu=cpu, features=features, opt=2)
sys.stdout.write(tm.emit_assembly(mod))
"""


_LLVM_DIAG = lazy_compile(r"<string>:(\d+):(\d+): error: (.*)")


def ptx_features(target: Target) -> str:
    from .build import MIN_PTX_FOR_TARGET
    major, minor = max(MIN_PTX_FOR_TARGET.get(target.name, (7, 8)), (7, 8))
    return f"+ptx{major}{minor}"


def llvm_to_ptx(text: str, target: Target, file: str = "<input>", timeout: float = 120) -> str:
    p = subprocess.run([sys.executable, "-c", _CHILD, target.name, ptx_features(target)], input=text,
                       capture_output=True, text=True, timeout=timeout)
    if p.returncode != 0:
        # LLVM's own diagnostic names the line: "<string>:3:3: error: expected ',' in arithmetic operation"
        m = _LLVM_DIAG.search(p.stderr)
        if m:
            raise PtxError(m.group(3).strip(), int(m.group(1)), int(m.group(2)), file)
        last = [m for m in p.stderr.strip().splitlines() if m.strip()]
        detail = last[0] if last else f"LLVM exited with status {p.returncode}"
        if p.returncode < 0:
            detail = f"LLVM aborted (signal {-p.returncode}): " + " ".join(last[:3])
        raise PtxError(detail, 1, 1, file)
    return p.stdout
