"""Regenerate tests/reference/ from the real ptxas (the reference data the tests compare against).

    python -m pylower.tools.refresh_reference                 # whole corpus, default targets
    python -m pylower.tools.refresh_reference tests/corpus/probes/barrier --targets sm_90 sm_100a
    python -m pylower.tools.refresh_reference --force         # ignore up-to-date checks

For each corpus file F (tests/corpus/**/*.ptx) it writes tests/reference/<F relative to corpus>.json:
  {"file": ..., "sha256": <of the PTX>, "ptxas": "13.0.88", "format": 3, "tools": {"nvdisasm": ..., "cuobjdump": ...},
   "targets": {target: <compile_ptx result>}}
Probes (tests/corpus/probes/) keep each function's whole listing ("sass"); real kernels (every other folder:
nvcc, llvm, triton, numba) keep only what the comparison needs -- the sync-family lines with their guards and
operands ("sync_lines"), the instruction count, the EIATTRs and the messages -- gzip-compressed as
<F>.json.gz (deterministic: no timestamp in the gzip header).
Each file is compiled *for* each target: its `.target` line is rewritten to that target
(tools/ptxas_ref.retarget). A line `//@ args: -O0` in the file adds ptxas options; `//@ targets: sm_87 sm_88` adds targets for that file. Up-to-date files (same sha256, ptxas version and target list) are skipped,
so a re-run is cheap and the output is byte-identical for the same inputs. Work runs in a process pool.
"""
from __future__ import annotations

import argparse
import gzip
import hashlib
import io
import json
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from pylower.lowering.target import DEFAULT_REFERENCE_TARGETS
from pylower.tools import ptxas_ref

# Bump when the stored shape changes: older files are then regenerated even if their PTX is unchanged.
REF_FORMAT = 3
# Formats a file may still have and be up to date: format 3 changed only how real kernels are stored, so a
# probe reference in format 2 (same content) is not regenerated for it.
_PROBE_FORMATS = (2, 3)

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "corpus"
REFERENCE = ROOT / "tests" / "reference"


def is_probe(rel: Path) -> bool:
    return rel.parts[0] == "probes"


def reference_path(ptx: Path) -> Path:
    rel = ptx.resolve().relative_to(CORPUS)
    return REFERENCE / rel.with_suffix(".json" if is_probe(rel) else ".json.gz")


def read_reference(path: Path) -> dict:
    data = path.read_bytes()
    if path.suffix == ".gz":
        data = gzip.decompress(data)
    return json.loads(data)


def reference_files() -> list[Path]:
    return sorted(list(REFERENCE.rglob("*.json")) + list(REFERENCE.rglob("*.json.gz")))


def _write_reference(out: Path, res: dict) -> None:
    text = (json.dumps(res, indent=1, sort_keys=True) + "\n").encode()
    if out.suffix == ".gz":
        buf = io.BytesIO()
        with gzip.GzipFile(filename="", mode="wb", fileobj=buf, mtime=0, compresslevel=9) as z:
            z.write(text)
        text = buf.getvalue()
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".tmp")
    tmp.write_bytes(text)
    tmp.replace(out)


def corpus_files(paths: list[str] | None = None) -> list[Path]:
    roots = [Path(p) for p in paths] if paths else [CORPUS]
    files: list[Path] = []
    for r in roots:
        files.extend([r] if r.is_file() else sorted(r.rglob("*.ptx")))
    return sorted(set(f.resolve() for f in files))


def _one(args) -> tuple[str, str]:
    ptx_path, targets, version, tools, force = args
    ptx_path = Path(ptx_path)
    text = ptx_path.read_text()
    targets = list(targets) + [t for t in ptxas_ref.file_targets(text) if t not in targets]
    sha = hashlib.sha256(text.encode()).hexdigest()
    out = reference_path(ptx_path)
    if out.exists() and not force:
        try:
            old = read_reference(out)
            fmt_ok = old.get("format") in (_PROBE_FORMATS if is_probe(ptx_path.relative_to(CORPUS)) else (REF_FORMAT,))
            if old.get("sha256") == sha and old.get("ptxas") == version and fmt_ok \
                    and sorted(old["targets"]) == sorted(targets):
                return str(ptx_path), "up-to-date"
        except (ValueError, KeyError):
            pass
    rel = ptx_path.relative_to(CORPUS)
    res = {"file": str(rel), "sha256": sha, "ptxas": version, "format": REF_FORMAT, "tools": tools, "targets": {}}
    for t in targets:
        res["targets"][t] = ptxas_ref.compile_ptx(ptxas_ref.retarget(text, t), t, ptxas_ref.file_args(text),
                                                  full=is_probe(rel))
    _write_reference(out, res)
    return str(ptx_path), "written"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("paths", nargs="*", help="corpus files or folders (default: tests/corpus)")
    ap.add_argument("--targets", nargs="+", default=list(DEFAULT_REFERENCE_TARGETS))
    ap.add_argument("--force", action="store_true")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    a = ap.parse_args(argv)
    if not ptxas_ref.have_ptxas():
        print("refresh_reference: needs ptxas on PATH and `pip install nvidia-cuda-nvdisasm nvidia-cuda-cuobjdump`",
              file=sys.stderr)
        return 1
    version = ptxas_ref.ptxas_version()
    tools = {t: ptxas_ref.tool_version(t) for t in ("nvdisasm", "cuobjdump")}
    files = corpus_files(a.paths)
    jobs = [(str(f), a.targets, version, tools, a.force) for f in files]
    written = 0
    with ProcessPoolExecutor(max_workers=a.jobs) as ex:
        for path, status in ex.map(_one, jobs, chunksize=4):
            if status == "written":
                written += 1
    # drop references whose corpus file is gone (only when refreshing the whole corpus)
    removed = 0
    if not a.paths:
        live = {reference_path(f) for f in files}
        for ref in reference_files():
            if ref not in live:
                ref.unlink()
                removed += 1
    print(f"refresh_reference: {len(files)} files, {written} written, {len(files) - written} up to date, {removed} removed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
