"""Regenerate the real-world PTX corpus from its sources (CUDA C++ through nvcc, LLVM IR through llvmlite).

    python -m pylower.tools.make_corpus                     # every source under tests/corpus/{nvcc,llvm} + examples/
    python -m pylower.tools.make_corpus tests/corpus/nvcc/warp_vote.cu examples
    python -m pylower.tools.make_corpus --check             # exit 1 if a .ptx differs from what its source gives

Sources and how each becomes <name>.ptx next to it:
  *.cu  -> `nvcc <flags> -ptx -O3 <name>.cu`, flags from a first-line comment `// corpus: -arch=sm_80`
           (default -arch=sm_75). Use the lowest arch the source needs (sm_90a for TMA / wgmma, sm_90 for
           clusters); the reference harness rewrites `.target` per target anyway.
  *.ll  -> llvmlite NVPTX target machine: first-line comment `; corpus: cpu=sm_90 features=+ptx90`
           (defaults cpu=sm_75 features=+ptx90). +ptx90 gives `.version 9.0`, which ptxas 13 accepts for
           every target (+ptx80 would be rejected for sm_100a, sm_120, ...); LLVM also picks newer PTX forms
           with it (e.g. fence.release / fence.acquire from PTX 8.6). Each .ll is compiled in a child process
           because some inputs make LLVM abort the whole process; such a failure is reported and the old .ptx
           is left alone.

The generated PTX is the tool output verbatim (nvcc and LLVM are deterministic) with one provenance comment line
prepended, so the same sources always give byte-identical files; a .ptx is only rewritten when its content
changes. .cu files are skipped (with a note) when nvcc is not on PATH, .ll files when llvmlite is missing.
After regenerating, refresh the ptxas references:
    python -m pylower.tools.refresh_reference tests/corpus/nvcc tests/corpus/llvm
"""
from __future__ import annotations

import argparse
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DIRS = [ROOT / "tests" / "corpus" / "nvcc", ROOT / "tests" / "corpus" / "llvm", ROOT / "examples"]

_CU_DIRECTIVE = re.compile(r"^\s*//\s*corpus:\s*(.*)$")
_LL_DIRECTIVE = re.compile(r"^\s*;\s*corpus:\s*(.*)$")


class Skip(Exception):
    pass


def sources(paths: list[str] | None = None) -> list[Path]:
    roots = [Path(p) for p in paths] if paths else DEFAULT_DIRS
    out: list[Path] = []
    for r in roots:
        if r.is_file():
            out.append(r)
        elif r.is_dir():
            out.extend(sorted(r.rglob("*.cu")) + sorted(r.rglob("*.ll")))
    return sorted(set(p.resolve() for p in out))


def _first_line(src: Path) -> str:
    with src.open() as f:
        return f.readline()


def _rel(src: Path) -> str:
    try:
        return str(src.relative_to(ROOT))
    except ValueError:
        return src.name

# ---------------------------------------------------------------- nvcc

def nvcc_flags(src: Path) -> list[str]:
    m = _CU_DIRECTIVE.match(_first_line(src))
    flags = shlex.split(m.group(1)) if m else []
    if not any(f.startswith("-arch") or f.startswith("--gpu-architecture") for f in flags):
        flags = ["-arch=sm_75"] + flags
    return flags


def compile_cu(src: Path) -> str:
    nvcc = shutil.which("nvcc")
    if not nvcc:
        raise Skip("nvcc not on PATH")
    flags = nvcc_flags(src)
    with tempfile.TemporaryDirectory(prefix="make-corpus-") as td:
        out = Path(td) / "out.ptx"
        # run in the source folder with a relative name: nothing machine-specific can reach the output
        cmd = [nvcc, *flags, "-ptx", "-O3", src.name, "-o", str(out)]
        p = subprocess.run(cmd, cwd=src.parent, capture_output=True, text=True)
        if p.returncode != 0:
            raise RuntimeError((p.stderr or p.stdout).strip())
        ptx = out.read_text()
    header = f"// from {_rel(src)}: nvcc {' '.join(flags)} -ptx -O3 (python -m pylower.tools.make_corpus)\n"
    return header + ptx

# ---------------------------------------------------------------- llvmlite

def llc_options(src: Path) -> dict[str, str]:
    opts = {"cpu": "sm_75", "features": "+ptx90"}
    m = _LL_DIRECTIVE.match(_first_line(src))
    if m:
        for tok in m.group(1).split():
            k, _, v = tok.partition("=")
            opts[k] = v
    return opts


def _emit_ll_child(path: str, cpu: str, features: str) -> int:
    """Child-process body: print the PTX for one .ll file on stdout."""
    import llvmlite.binding as llvm
    llvm.initialize_all_targets()
    llvm.initialize_all_asmprinters()
    text = Path(path).read_text()
    mod = llvm.parse_assembly(text)
    mod.verify()
    tm = llvm.Target.from_triple("nvptx64-nvidia-cuda").create_target_machine(cpu=cpu, features=features, opt=2)
    sys.stdout.write(tm.emit_assembly(mod))
    return 0


def compile_ll(src: Path) -> str:
    try:
        import llvmlite  # noqa: F401
    except ImportError:
        raise Skip("llvmlite not installed")
    o = llc_options(src)
    cmd = [sys.executable, "-m", "pylower.tools.make_corpus", "--emit-ll", str(src), o["cpu"], o["features"]]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        why = f"signal {-p.returncode}" if p.returncode < 0 else f"exit {p.returncode}"
        tail = "\n".join((p.stderr or "").strip().splitlines()[-3:])
        raise RuntimeError(f"LLVM failed ({why}): {tail}")
    for line in dict.fromkeys((p.stderr or "").strip().splitlines()):   # e.g. "'+ptx91' is not a recognized feature"
        print(f"warning: {_rel(src)}: {line}", file=sys.stderr)
    header = (f"// from {_rel(src)}: llvmlite cpu={o['cpu']} features={o['features']}"
              f" (python -m pylower.tools.make_corpus)\n")
    return header + p.stdout

# ---------------------------------------------------------------- driver

def build(src: Path, check: bool) -> tuple[Path, str, str]:
    out = src.with_suffix(".ptx")
    try:
        text = compile_cu(src) if src.suffix == ".cu" else compile_ll(src)
    except Skip as e:
        return src, "skipped", str(e)
    except Exception as e:  # noqa: BLE001 - report and keep going
        return src, "FAILED", str(e)
    old = out.read_text() if out.exists() else None
    if old == text:
        return src, "up-to-date", ""
    if check:
        return src, "STALE", f"{_rel(out)} differs from its source"
    out.write_text(text)
    return src, "written", ""


def main(argv=None) -> int:
    if argv is None and len(sys.argv) > 1 and sys.argv[1] == "--emit-ll":
        return _emit_ll_child(*sys.argv[2:5])
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("paths", nargs="*", help="sources or folders (default: tests/corpus/nvcc, tests/corpus/llvm, examples)")
    ap.add_argument("--check", action="store_true", help="do not write; exit 1 if any .ptx is stale or missing")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    a = ap.parse_args(argv)
    files = sources(a.paths)
    counts: dict[str, int] = {}
    bad = 0
    with ThreadPoolExecutor(max_workers=a.jobs) as ex:
        for src, status, note in ex.map(lambda s: build(s, a.check), files):
            counts[status] = counts.get(status, 0) + 1
            if status in ("FAILED", "STALE", "skipped"):
                print(f"{status}: {_rel(src)}: {note}", file=sys.stderr)
            if status in ("FAILED", "STALE"):
                bad += 1
    print("make_corpus: " + ", ".join(f"{n} {k}" for k, n in sorted(counts.items())) if counts else "make_corpus: no sources")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
