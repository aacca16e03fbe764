"""Regenerate the Numba PTX corpus (tests/corpus/numba/) from its Python sources, without a GPU.

    python -m pylower.tools.corpus_numba            # write tests/corpus/numba/<name>.ptx for every kernel
    python -m pylower.tools.corpus_numba --check    # exit 1 if a .ptx differs from what its source gives
    python -m pylower.tools.corpus_numba --list     # print the configured kernels

Sources are ordinary `@cuda.jit` kernels in tests/corpus/numba/src/*.py. Each module ends with a dict
    CORPUS = {"<name>": (<kernel>, "<numba signature>"), ...}
and every entry becomes tests/corpus/numba/<name>.ptx through `numba.cuda.compile_ptx(kernel.py_func, sig,
cc=(8, 0))` (NVVM from the CUDA toolkit; numba-cuda only needs NVRTC to list the supported architectures, so the
`nvidia-cuda-nvrtc` wheel must be installed, but no driver and no device).

Determinism: each kernel is compiled in its own child process, so numba's per-process counters (the `v1` ABI tag in
the mangled name, `_cudapy_smem_N` shared arrays) always start from the same value; the module is imported under
its file stem, which therefore appears in the mangled names (no machine path reaches the PTX: compile_ptx emits no
`.file` lines without lineinfo). The PTX is NVVM's output verbatim with one provenance comment line prepended.
A .ptx is only rewritten when its content changes.

Pinned: numba-cuda NUMBA_CUDA_VERSION and NVVM from CUDA NVVM_RELEASE (checked from the PTX header); the PTX
`.version` must be at most MAX_PTX_VERSION, the newest ptxas 13.0 reads. With another numba-cuda or toolkit the tool
refuses to write (the corpus would silently change); with numba-cuda missing it says so and exits 0 (nothing to do).
After regenerating, refresh the ptxas references:
    python -m pylower.tools.refresh_reference tests/corpus/numba -j 2
"""
from __future__ import annotations

import argparse
import importlib.util
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS_DIR = ROOT / "tests" / "corpus" / "numba"
SRC_DIR = CORPUS_DIR / "src"

NUMBA_CUDA_VERSION = "0.30.4"
CC = (8, 0)
NVVM_RELEASE = "Cuda compilation tools, release 13.0, V13.0.88"
MAX_PTX_VERSION = (9, 0)


class Unavailable(Exception):
    pass


def numba_cuda_version() -> str | None:
    try:
        from importlib.metadata import PackageNotFoundError, version
        return version("numba-cuda")
    except PackageNotFoundError:
        return None


def rel(p: Path) -> str:
    try:
        return str(p.resolve().relative_to(ROOT))
    except ValueError:
        return p.name


def provenance(src: Path) -> str:
    return (f"// from {rel(src)}: numba-cuda {NUMBA_CUDA_VERSION} cc={CC[0]}.{CC[1]}"
            f" (python -m pylower.tools.corpus_numba)\n")


def load_module(src: Path):
    spec = importlib.util.spec_from_file_location(src.stem, src)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[src.stem] = mod
    spec.loader.exec_module(mod)
    return mod


def sources() -> list[Path]:
    return sorted(SRC_DIR.glob("*.py"))


def configs() -> list[tuple[Path, str]]:
    """(source, kernel name) for every CORPUS entry, read without importing numba (a regex over the dict keys)."""
    out = []
    for src in sources():
        text = src.read_text()
        m = re.search(r"^CORPUS\s*=\s*\{(.*?)^\}", text, re.S | re.M)
        if not m:
            continue
        out += [(src, name) for name in re.findall(r'^\s*"([A-Za-z0-9_]+)"\s*:', m.group(1), re.M)]
    return out


def ptx_version(ptx: str) -> tuple[int, int]:
    m = re.search(r"^\.version\s+(\d+)\.(\d+)", ptx, re.M)
    if not m:
        raise RuntimeError("no .version line in the PTX")
    return int(m.group(1)), int(m.group(2))


def _emit_child(src: str, name: str) -> int:
    """Child-process body: print the PTX for one kernel on stdout."""
    from numba import cuda
    mod = load_module(Path(src))
    fn, sig = mod.CORPUS[name]
    ptx, _ = cuda.compile_ptx(getattr(fn, "py_func", fn), sig, cc=CC)
    sys.stdout.write(ptx)
    return 0


def compile_kernel(src: Path, name: str) -> str:
    # run this file as a script: the child needs numba only, not whichever pylower is importable
    cmd = [sys.executable, str(Path(__file__).resolve()), "--emit", str(src), name]
    p = subprocess.run(cmd, capture_output=True, text=True, cwd=str(SRC_DIR))
    if p.returncode != 0:
        tail = "\n".join((p.stderr or "").strip().splitlines()[-4:])
        raise RuntimeError(f"numba failed (exit {p.returncode}): {tail}")
    ptx = p.stdout
    if NVVM_RELEASE not in ptx:
        raise RuntimeError(f"PTX not from the pinned NVVM ({NVVM_RELEASE!r} missing from its header)")
    if ptx_version(ptx) > MAX_PTX_VERSION:
        raise RuntimeError(f"PTX .version {ptx_version(ptx)} is newer than ptxas 13.0 reads")
    return provenance(src) + ptx


def out_path(name: str) -> Path:
    return CORPUS_DIR / f"{name}.ptx"


def build(src: Path, name: str, check: bool) -> tuple[str, str, str]:
    try:
        text = compile_kernel(src, name)
    except Exception as e:  # noqa: BLE001 - report and keep going
        return name, "FAILED", str(e)
    out = out_path(name)
    old = out.read_text() if out.exists() else None
    if old == text:
        return name, "up-to-date", ""
    if check:
        return name, "DIFFERS", f"{rel(out)} is not what {rel(src)} gives"
    out.write_text(text)
    return name, "written", ""


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true", help="compare only; exit 1 on any difference")
    ap.add_argument("--list", action="store_true", help="list the configured kernels and exit")
    ap.add_argument("--emit", nargs=2, metavar=("SRC", "NAME"), help=argparse.SUPPRESS)
    ap.add_argument("-j", "--jobs", type=int, default=2)
    a = ap.parse_args(argv)
    if a.emit:
        return _emit_child(*a.emit)
    cfg = configs()
    if a.list:
        for src, name in cfg:
            print(f"{name}\t{rel(src)}")
        return 0
    have = numba_cuda_version()
    if have is None:
        print("corpus_numba: numba-cuda is not installed; nothing done", file=sys.stderr)
        return 0
    if have != NUMBA_CUDA_VERSION:
        print(f"corpus_numba: numba-cuda {have} installed, the corpus is pinned to {NUMBA_CUDA_VERSION}; "
              f"install that version (pip install numba-cuda=={NUMBA_CUDA_VERSION}) or update the pin", file=sys.stderr)
        return 1
    with ThreadPoolExecutor(max_workers=max(1, a.jobs)) as ex:
        results = list(ex.map(lambda sn: build(sn[0], sn[1], a.check), cfg))
    counts: dict[str, int] = {}
    for name, status, msg in results:
        counts[status] = counts.get(status, 0) + 1
        if msg:
            print(f"{status}: {name}: {msg}", file=sys.stderr)
    known = {f"{name}.ptx" for _, name in cfg}
    stale = sorted(p.name for p in CORPUS_DIR.glob("*.ptx") if p.name not in known)
    for s in stale:
        print(f"stale: {s} has no source entry", file=sys.stderr)
    print("corpus_numba: " + ", ".join(f"{v} {k}" for k, v in sorted(counts.items())))
    bad = counts.get("FAILED", 0) + counts.get("DIFFERS", 0) + (len(stale) if a.check else 0)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
