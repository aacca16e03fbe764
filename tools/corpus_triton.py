"""Regenerate the Triton real-kernel corpus (tests/corpus/triton/*.ptx) from the kernel sources kept in the repo.

    python -m pylower.tools.corpus_triton                  # every configuration, 2 worker processes
    python -m pylower.tools.corpus_triton -j 1 matmul      # only configurations whose output name contains "matmul"
    python -m pylower.tools.corpus_triton --check          # exit 1 if a .ptx is stale, missing or not listed
    python -m pylower.tools.corpus_triton --list           # print the configurations (name, kernel, options)

Sources: tests/corpus/triton/src/*.py hold ordinary @triton.jit kernels (modelled on Triton's tutorials and on
kernels found in real Triton code); tests/corpus/triton/src/configs.py holds CONFIGS, a declarative list of
(source module, kernel, signature, constexprs, cc, num_warps, num_stages) configurations. Each configuration
becomes one file tests/corpus/triton/<name>.ptx (one entry kernel per file), where <name> is
`<src>-<kernel>[-<tag>]-sm<cc>-w<num_warps>s<num_stages>`.

How a file is made (the pipeline triton.compile() runs, stopped after the "ptx" stage, without Triton's cache
and without Triton's bundled ptxas):
  * Triton is pinned (TRITON_VERSION): another installed version is an error, not a silent change of corpus.
  * The kernel's module is compiled with the repo-relative file name (tests/corpus/triton/src/x.py) as its code
    file name, so the line information Triton puts in the PTX (`.file`, `.loc`, DWARF `.debug_info` with
    DW_AT_name / DW_AT_comp_dir) names the repo path and nothing of this machine.
  * Triton's own @jit helpers that get inlined (tl.sum's combine function, tl.sort, tl.cumsum, ...) bring a
    second `.file` naming the installed triton package; that path is rewritten to `triton/language/<file>.py`,
    the only text change made to Triton's output besides the provenance line.
  * Pointer arguments are specialised as 16-byte aligned (`tt.divisibility` 16), like Triton's launcher does for
    torch tensors; integer arguments listed in the configuration's `div16` too (what the launcher does for an
    int that is a multiple of 16).
  * PTX version: CUDAOptions.ptx_version=90 (the backend option `ptx_version`), so Triton writes `.version 9.0`
    (ptxas 13.0 reads at most PTX 9.0; Triton 3.9 would otherwise ask the installed CUDA for 9.4) and lowers
    with the PTX 9.0 feature set; LLVM gets +ptx90 from the same option. No text rewriting is done.
  * enable_fp_fusion=True is passed explicitly (Triton 3.9's default, which it warns is going to change).
  * Every TRITON_* environment variable is removed in the worker processes (they change code generation).
  * cc=90 gives `.target sm_90a` and cc=100 `.target sm_100a` (Triton's choice); cc=80 gives sm_80.
The output is Triton's PTX verbatim behind one provenance comment line, so the same sources always give
byte-identical files; a file is only rewritten when its content changes, and .ptx files in tests/corpus/triton
that no configuration produces are removed (reported as stale by --check).
After regenerating, refresh the ptxas references:
    python -m pylower.tools.refresh_reference tests/corpus/triton -j 2
"""
from __future__ import annotations

import argparse
import importlib.util
import linecache
import multiprocessing
import os
import re
import sys
import types
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "corpus" / "triton"
SRC = OUT / "src"
SRC_REL = "tests/corpus/triton/src"

TRITON_VERSION = "3.9.0"          # the corpus is Triton 3.9.0's output; regenerate deliberately when bumping
PTX_VERSION = 90                  # CUDAOptions.ptx_version: `.version 9.0`, the newest ptxas 13.0.88 reads
MAX_PTX_BYTES = 400_000           # configurations are chosen to stay under this (a warning names any that do not)
CCS = (80, 90, 100)

# anything of the generating machine that must never reach a corpus file
_MACHINE_RE = re.compile(r"/(?:root|home|tmp|work|usr|opt)/|site-packages|\.triton/")


# ---------------------------------------------------------------- configurations

def load_configs() -> list[dict]:
    """CONFIGS of tests/corpus/triton/src/configs.py (plain data: importing it needs no Triton)."""
    spec = importlib.util.spec_from_file_location("_triton_corpus_configs", SRC / "configs.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return list(mod.CONFIGS)


def config_name(c: dict) -> str:
    tag = f"-{c['tag']}" if c.get("tag") else ""
    return f"{c['src']}-{c['kernel']}{tag}-sm{c['cc']}-w{c['num_warps']}s{c['num_stages']}"


_KEYS = {"src", "kernel", "sig", "const", "cc", "num_warps", "num_stages", "tag", "div16", "options"}


def validate(configs: list[dict]) -> list[str]:
    """Problems with the configuration list (empty when it is well-formed); needs no Triton."""
    errs, seen = [], set()
    for i, c in enumerate(configs):
        where = f"config {i} ({c.get('src')}.{c.get('kernel')})"
        extra = set(c) - _KEYS
        missing = {"src", "kernel", "sig", "cc", "num_warps", "num_stages"} - set(c)
        if extra or missing:
            errs.append(f"{where}: unknown keys {sorted(extra)} / missing keys {sorted(missing)}")
            continue
        if not (SRC / f"{c['src']}.py").is_file():
            errs.append(f"{where}: no source {SRC_REL}/{c['src']}.py")
        if c["cc"] not in CCS:
            errs.append(f"{where}: cc {c['cc']} not one of {CCS}")
        if c["num_warps"] not in (1, 2, 4, 8, 16) or not (1 <= c["num_stages"] <= 6):
            errs.append(f"{where}: num_warps {c['num_warps']} / num_stages {c['num_stages']} out of range")
        if not isinstance(c["sig"], dict) or not all(isinstance(v, str) for v in c["sig"].values()):
            errs.append(f"{where}: sig must map argument names to Triton type strings")
        const = c.get("const", {})
        if set(const) & set(c["sig"]):
            errs.append(f"{where}: {sorted(set(const) & set(c['sig']))} both in sig and const")
        for d in c.get("div16", ()):
            if d not in c["sig"] or c["sig"][d][0] not in "iu":
                errs.append(f"{where}: div16 {d!r} is not an integer argument")
        name = config_name(c)
        if not re.fullmatch(r"[A-Za-z0-9_.-]+", name):
            errs.append(f"{where}: bad output name {name!r}")
        if name in seen:
            errs.append(f"{where}: duplicate output name {name}")
        seen.add(name)
    return errs


def header(c: dict) -> str:
    extra = "".join(f" {k}={v}" for k, v in sorted(c.get("options", {}).items()))
    return (f"// from {SRC_REL}/{c['src']}.py: triton {TRITON_VERSION} kernel={c['kernel']} cc={c['cc']}"
            f" num_warps={c['num_warps']} num_stages={c['num_stages']}{extra}"
            f" ptx_version={PTX_VERSION} (python -m pylower.tools.corpus_triton)\n")

# ---------------------------------------------------------------- compiling (worker processes)

def _check_triton():
    try:
        import triton
    except ImportError as e:
        raise SystemExit(f"corpus_triton: Triton is not installed (pip install triton=={TRITON_VERSION})") from e
    if triton.__version__ != TRITON_VERSION:
        raise SystemExit(f"corpus_triton: the corpus is pinned to Triton {TRITON_VERSION}, but {triton.__version__} is "
                         f"installed: pip install triton=={TRITON_VERSION} (or bump TRITON_VERSION and regenerate)")
    return triton


_MODULES: dict[str, types.ModuleType] = {}


def _load_source(name: str) -> types.ModuleType:
    """Import tests/corpus/triton/src/<name>.py under its repo-relative file name (what Triton's line info shows)."""
    if name in _MODULES:
        return _MODULES[name]
    rel = f"{SRC_REL}/{name}.py"
    text = (SRC / f"{name}.py").read_text()
    # inspect.getsource (used by @triton.jit) finds the text here; mtime None: never checked against the disk
    linecache.cache[rel] = (len(text), None, text.splitlines(True), rel)
    mod = types.ModuleType(f"triton_corpus_src.{name}")
    mod.__file__ = rel
    sys.modules[mod.__name__] = mod
    exec(compile(text, rel, "exec"), mod.__dict__)
    _MODULES[name] = mod
    return mod


def _worker_init():
    for k in [k for k in os.environ if k.startswith("TRITON_")]:
        del os.environ[k]
    _check_triton()


def compile_config(c: dict) -> str:
    """The corpus file text for one configuration (provenance line + Triton's PTX)."""
    from triton._C.libtriton import ir
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource
    from triton.compiler.compiler import make_backend

    fn = getattr(_load_source(c["src"]), c["kernel"])
    const = dict(c.get("const", {}))
    names = list(fn.arg_names)
    unknown = (set(c["sig"]) | set(const)) - set(names)
    if unknown:
        raise ValueError(f"{c['kernel']} has no argument(s) {sorted(unknown)}")
    absent = [a for a in names if a not in c["sig"] and a not in const]
    if absent:
        raise ValueError(f"{c['kernel']}: argument(s) {absent} neither in sig nor const")
    signature = {a: ("constexpr" if a in const else c["sig"][a]) for a in names}
    div16 = set(c.get("div16", ()))
    attrs = {(i,): [["tt.divisibility", 16]] for i, a in enumerate(names)
             if a not in const and (signature[a].startswith("*") or a in div16)}
    target = GPUTarget("cuda", c["cc"], 32)
    backend = make_backend(target)
    src = ASTSource(fn=fn, signature=signature, constexprs=const, attrs=attrs)
    opts = {"num_warps": c["num_warps"], "num_stages": c["num_stages"], "ptx_version": PTX_VERSION,
            "enable_fp_fusion": True, **c.get("options", {})}
    options = backend.parse_options(opts)
    # triton.compile()'s pipeline (compiler.py), without its cache, stopped after the "ptx" stage
    stages: dict = {}
    backend.add_stages(stages, options, src.language)
    context = ir.context()
    ir.load_dialects(context)
    backend.load_dialects(context)
    module = src.make_ir(target, options, backend.get_codegen_implementation(options), backend.get_module_map(),
                         context)
    metadata = {"hash": "0" * 64, "target": target, **options.__dict__}
    for ext, stage in stages.items():
        module = stage(module, metadata)
        if ext == "ptx":
            break
    ptx = _relative_file_paths(module)
    if f".version {PTX_VERSION // 10}.{PTX_VERSION % 10}\n" not in ptx:
        raise RuntimeError("Triton did not honour ptx_version")
    m = _MACHINE_RE.search(ptx)
    if m:
        raise RuntimeError(f"machine-specific text in the PTX: {ptx[max(0, m.start() - 40):m.end() + 40]!r}")
    return header(c) + ptx


_FILE_RE = re.compile(r'^(\s*\.file\s+\d+\s+)"([^"]*)"', re.M)


def _relative_file_paths(ptx: str) -> str:
    """`.file N "<site-packages>/triton/language/standard.py"` (Triton's own @jit helpers inlined into the kernel,
    e.g. tl.sum's combine function) -> `.file N "triton/language/standard.py"`: no install path in the corpus."""
    import triton
    pkg = Path(triton.__file__).resolve().parent

    def fix(m):
        path = m.group(2)
        try:
            rel = Path(path).resolve().relative_to(pkg)
        except ValueError:
            return m.group(0)
        return f'{m.group(1)}"triton/{rel.as_posix()}"'
    return _FILE_RE.sub(fix, ptx)


def _job(c: dict) -> tuple[str, str, str]:
    name = config_name(c)
    try:
        return name, "ok", compile_config(c)
    except Exception as e:  # noqa: BLE001 - report and keep going
        msg = str(e).strip().splitlines()
        return name, "FAILED", f"{type(e).__name__}: {' | '.join(msg[-3:])[:600]}"

# ---------------------------------------------------------------- driver

def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("names", nargs="*", help="only configurations whose output name contains one of these")
    ap.add_argument("--check", action="store_true", help="write nothing; exit 1 if a file is stale/missing/extra")
    ap.add_argument("--list", action="store_true", help="print the configurations and exit")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    a = ap.parse_args(argv)

    configs = load_configs()
    errs = validate(configs)
    if errs:
        print("\n".join(f"corpus_triton: {e}" for e in errs), file=sys.stderr)
        return 1
    if a.list:
        for c in configs:
            print(f"{config_name(c)}: {c['kernel']} const={c.get('const', {})} options={c.get('options', {})}")
        return 0
    _check_triton()
    chosen = [c for c in configs if not a.names or any(n in config_name(c) for n in a.names)]

    env_before = {k: os.environ.pop(k) for k in [k for k in os.environ if k.startswith("TRITON_")]}
    try:
        if a.jobs <= 1:                                  # in this process (the quick way for a few files)
            results = [_job(c) for c in chosen]
        else:
            ctx = multiprocessing.get_context("spawn")  # a fresh interpreter per worker: no inherited MLIR state
            with ProcessPoolExecutor(max_workers=a.jobs, mp_context=ctx, initializer=_worker_init) as ex:
                results = list(ex.map(_job, chosen))
    finally:
        os.environ.update(env_before)

    counts = {"written": 0, "up-to-date": 0, "stale": 0, "FAILED": 0, "removed": 0}
    for name, status, text in results:
        out = OUT / f"{name}.ptx"
        if status != "ok":
            counts["FAILED"] += 1
            print(f"FAILED {name}: {text}", file=sys.stderr)
            continue
        if len(text) > MAX_PTX_BYTES:
            print(f"warning: {name}.ptx is {len(text)} bytes (> {MAX_PTX_BYTES})", file=sys.stderr)
        old = out.read_text() if out.exists() else None
        if old == text:
            counts["up-to-date"] += 1
        elif a.check:
            counts["stale"] += 1
            print(f"stale: {out.relative_to(ROOT)}" + (" (missing)" if old is None else ""))
        else:
            out.write_text(text)
            counts["written"] += 1
            print(f"wrote {out.relative_to(ROOT)}")
    if not a.names:        # the folder holds exactly the configured files
        live = {f"{config_name(c)}.ptx" for c in configs}
        for f in sorted(OUT.glob("*.ptx")):
            if f.name not in live:
                if a.check:
                    counts["stale"] += 1
                    print(f"stale: {f.relative_to(ROOT)} (no configuration makes it)")
                else:
                    f.unlink()
                    counts["removed"] += 1
                    print(f"removed {f.relative_to(ROOT)}")
    print("corpus_triton: " + ", ".join(f"{v} {k}" for k, v in counts.items() if v or k == "up-to-date"))
    if counts["FAILED"] or (a.check and counts["stale"]):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
