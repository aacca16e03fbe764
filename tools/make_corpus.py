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

           Placeholders in the flags are resolved here, so no machine path reaches the .cu: -I{cutlass} is the
           include folder of the pip package nvidia-cutlass (4.2.0.0; its version goes into the provenance line).
           nvcc hashes the absolute source path into internal-linkage names (_ZN43_INTERNAL_<hash>_..., also
           `.file` under -lineinfo), so each .cu is compiled from a copy at the fixed path
           /tmp/pylower-make-corpus/<folder>/<stem>/<name>.cu (with its folder's headers): the PTX does not
           depend on where the checkout is. Under -lineinfo, `.file` paths inside the CUDA toolkit or the
           CUTLASS headers are written as {cuda}/... and {cutlass}/... (nothing else is changed).
The generated PTX is the tool output verbatim (nvcc and LLVM are deterministic) with one provenance comment line
prepended (for .cu: the flags and the `nvcc --version` release line), so the same sources always give
byte-identical files; a .ptx is only rewritten when its content changes. --check refuses to judge .cu files with
an nvcc other than the one recorded (NVCC_RELEASE) and says so. .cu files are skipped (with a note) when nvcc is not on PATH, .ll files when llvmlite is missing.
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
    """The source's path in the header, relative to the checkout that holds it (the one with tests/corpus), so
    that the PTX does not depend on which checkout's make_corpus made it or from which folder."""
    for base in (ROOT, *src.parents):
        if (base / "tests" / "corpus").is_dir() and src.is_relative_to(base):
            return str(src.relative_to(base))
    return src.name

# ---------------------------------------------------------------- nvcc

# nvcc names internal-linkage symbols after the *absolute* source path (cicc --orig_src_path_name, realpath'd, so
# a symlink does not help; e.g. _ZN43_INTERNAL_f0d633e5_12_cg_reduce_cu_0e1aaa98...), and -lineinfo writes that
# path into `.file 1`. -frandom-seed does not change it. So every .cu is compiled from a copy at a fixed place:
# WORK/<folder relative to the repo>/<stem>/<name>.cu (with the sibling headers), under a lock, whatever the
# checkout path is.
WORK = Path("/tmp/pylower-make-corpus")
_HEADER_SUFFIXES = (".h", ".cuh", ".hpp", ".inc")
# the nvcc the committed PTX was made with; --check refuses to judge with another one
NVCC_RELEASE = "Cuda compilation tools, release 13.0, V13.0.88"
CUTLASS_VERSION = "4.2.0.0"
_PLACEHOLDER = re.compile(r"\{(\w+)\}")


def nvcc_flags(src: Path) -> list[str]:
    """The flags as written in the source (placeholders like -I{cutlass} still unresolved)."""
    m = _CU_DIRECTIVE.match(_first_line(src))
    flags = shlex.split(m.group(1)) if m else []
    if not any(f.startswith("-arch") or f.startswith("--gpu-architecture") for f in flags):
        flags = ["-arch=sm_75"] + flags
    return flags


def nvcc_release(nvcc: str) -> str:
    out = subprocess.run([nvcc, "--version"], capture_output=True, text=True).stdout
    return next((l.strip() for l in out.splitlines() if "release" in l), out.strip())


_TOOLKIT: dict[str, str] = {}


def toolkit_root(nvcc: str) -> str:
    """The CUDA toolkit folder nvcc runs from (nvcc may be a wrapper script elsewhere): its -dryrun _HERE_/.."""
    if nvcc not in _TOOLKIT:
        with tempfile.TemporaryDirectory(prefix="make-corpus-") as td:
            (Path(td) / "e.cu").write_text("")
            p = subprocess.run([nvcc, "-dryrun", "-E", "e.cu"], cwd=td, capture_output=True, text=True)
        m = re.search(r"^#\$ _HERE_=(.*)$", p.stdout + p.stderr, re.M)
        _TOOLKIT[nvcc] = str(Path(m.group(1).strip()).parent) if m else str(Path(nvcc).resolve().parent.parent)
    return _TOOLKIT[nvcc]


def cutlass_include() -> tuple[str, str]:
    """(include dir, version) of the pip package nvidia-cutlass (headers under cutlass_library/source/include)."""
    try:
        from importlib import metadata
        import cutlass_library
    except ImportError:
        raise Skip("CUTLASS headers not installed (pip install nvidia-cutlass==%s)" % CUTLASS_VERSION)
    inc = Path(cutlass_library.__file__).resolve().parent / "source" / "include"
    if not (inc / "cutlass" / "cutlass.h").exists():
        raise Skip(f"no cutlass/cutlass.h under {inc}")
    return str(inc), metadata.version("nvidia-cutlass")


def resolve_flags(flags: list[str], places: dict[str, str] | None = None) -> tuple[list[str], list[str]]:
    """Replace placeholders ({cutlass}) by machine paths; also return the provenance notes they need.
    `places` (if given) collects {machine path: placeholder} for normalise_file_paths."""
    notes: list[str] = []
    out: list[str] = []
    for f in flags:
        def sub(m):
            if m.group(1) == "cutlass":
                inc, ver = cutlass_include()
                if places is not None:
                    places[inc] = "{cutlass}"
                if f"cutlass {ver}" not in notes:
                    notes.append(f"cutlass {ver}")
                return inc
            raise RuntimeError(f"unknown placeholder {{{m.group(1)}}} in // corpus: flags")
        out.append(_PLACEHOLDER.sub(sub, f))
    return out, notes


def normalise_file_paths(ptx: str, places: dict[str, str]) -> str:
    """-lineinfo puts absolute paths into `.file` directives: the CUDA toolkit's headers and -I folders
    (e.g. CUTLASS from site-packages). Write them as placeholders ({cuda}, {cutlass}) so the PTX is the same
    wherever the same toolkit / package versions are installed. Nothing but `.file` lines is touched."""
    if "\t.file" not in ptx:
        return ptx
    order = sorted(places.items(), key=lambda kv: -len(kv[0]))

    def fix(m):
        path = m.group(2)
        for real, ph in order:
            if path.startswith(real + "/"):
                path = ph + path[len(real):]
                break
        return f"{m.group(1)}\"{path}\""
    return re.sub(r'^(\t\.file\t\d+ )"([^"]*)"', fix, ptx, flags=re.M)


def _work_dir(src: Path) -> Path:
    rel = _rel(src.parent) if src.parent != ROOT else "."
    if Path(rel).is_absolute():                     # a source outside the repo: its folder name only
        rel = src.parent.name
    return WORK / rel / src.stem


def compile_cu(src: Path) -> str:
    import fcntl
    nvcc = shutil.which("nvcc")
    if not nvcc:
        raise Skip("nvcc not on PATH")
    release = nvcc_release(nvcc)
    flags = nvcc_flags(src)
    places = {toolkit_root(nvcc): "{cuda}"}
    real_flags, notes = resolve_flags(flags, places)
    wd = _work_dir(src)
    wd.mkdir(parents=True, exist_ok=True)
    with open(wd.parent / f".{src.stem}.lock", "w") as lock, \
            tempfile.TemporaryDirectory(prefix="make-corpus-") as td:
        fcntl.flock(lock, fcntl.LOCK_EX)             # another checkout may be compiling the same file right now
        for old in wd.iterdir():
            if old.is_file():
                old.unlink()
        for f in [src, *(h for h in src.parent.iterdir() if h.suffix in _HEADER_SUFFIXES)]:
            shutil.copyfile(f, wd / f.name)
        out = Path(td) / "out.ptx"
        cmd = [nvcc, *real_flags, "-ptx", "-O3", src.name, "-o", str(out)]
        p = subprocess.run(cmd, cwd=wd, capture_output=True, text=True)
        if p.returncode != 0:
            raise RuntimeError((p.stderr or p.stdout).strip())
        ptx = normalise_file_paths(out.read_text(), places)
    extra = "".join(f", {n}" for n in notes)
    header = (f"// from {_rel(src)}: nvcc {' '.join(flags)} -ptx -O3 ({release}{extra};"
              f" python -m pylower.tools.make_corpus)\n")
    return header + ptx


def header_versions(ptx_text: str) -> str | None:
    """The tool versions in a generated .ptx's provenance line ("release ..., cutlass ..."), if any."""
    first = ptx_text.split("\n", 1)[0]
    m = re.search(r"\((Cuda compilation tools[^;]*);", first)
    return m.group(1) if m else None

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
        if src.suffix == ".cu" and old is not None:
            want, have = header_versions(old), header_versions(text)
            if want and have and want != have:
                return src, "WRONG-TOOLS", f"{_rel(out)} was made with {want}; this machine has {have}"
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
    nvcc = shutil.which("nvcc")
    if nvcc and any(f.suffix == ".cu" for f in files):
        have = nvcc_release(nvcc)
        if have != NVCC_RELEASE:
            msg = f"the corpus PTX is made with nvcc '{NVCC_RELEASE}', but {nvcc} is '{have}'"
            if a.check:
                print(f"make_corpus --check: {msg}: cannot check the .cu sources", file=sys.stderr)
                return 1
            print(f"warning: {msg}; the PTX written will differ from the committed one", file=sys.stderr)
    counts: dict[str, int] = {}
    bad = 0
    with ThreadPoolExecutor(max_workers=a.jobs) as ex:
        for src, status, note in ex.map(lambda s: build(s, a.check), files):
            counts[status] = counts.get(status, 0) + 1
            if status in ("FAILED", "STALE", "WRONG-TOOLS", "skipped"):
                print(f"{status}: {_rel(src)}: {note}", file=sys.stderr)
            if status in ("FAILED", "STALE", "WRONG-TOOLS"):
                bad += 1
    print("make_corpus: " + ", ".join(f"{n} {k}" for k, n in sorted(counts.items())) if counts else "make_corpus: no sources")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
