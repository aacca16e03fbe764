"""Snapshot pylower's whole output on the corpus, and check a later build still produces it byte for byte.

    python -m pylower.tools.snapshot save SNAP.json.gz             # every corpus .ptx on sm_80, sm_90a, sm_100a
    python -m pylower.tools.snapshot check SNAP.json.gz [-j 2]     # same cases: list every case that differs
    python -m pylower.tools.snapshot check SNAP.json.gz triton/ nvcc   # only files whose path contains these

A case is (corpus file, target). Its output is the listing (nvdisasm -c format), the listing with -g and
--explain, the JSON form and the warnings, or the error message when pylower rejects the input. Used to keep
performance work output-neutral: save before a change, check after.
"""
from __future__ import annotations

import argparse
import gzip
import json
import sys
from pathlib import Path

from pylower.tools.pool import map_jobs

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "corpus"
TARGETS = ("sm_80", "sm_90a", "sm_100a")


def case_output(rel: str, target: str) -> str:
    from pylower.lowering.diagnostics import PtxError
    from pylower.pipeline import compile_text
    from pylower.sass.printer import print_program, program_json
    from pylower.tools import ptxas_options
    from pylower.tools.ptxas_ref import file_args, retarget
    text = (CORPUS / rel).read_text()
    try:
        opt, options = ptxas_options.parse(file_args(text))
        res = compile_text(retarget(text, target), rel, target, opt_level=opt, options=options)
    except PtxError as e:
        return "error: " + e.format(rel)
    except RecursionError:
        return "error: RecursionError"
    warnings = "".join(w.format(rel) + "\n" for w in res.warnings)
    return "\n".join((warnings, print_program(res.program), print_program(res.program, line_info=True, explain=True),
                      program_json(res.program)))


def _file_outputs(rel: str) -> list[tuple[str, str]]:
    return [(f"{rel} [{t}]", case_output(rel, t)) for t in TARGETS]


def corpus_files(paths: list[str]) -> list[str]:
    rels = sorted(str(p.relative_to(CORPUS)) for p in CORPUS.rglob("*.ptx"))
    return [r for r in rels if not paths or any(s in r for s in paths)]


def outputs(rels: list[str], jobs: int) -> dict[str, str]:
    out = {}
    for pairs in map_jobs(_file_outputs, rels, jobs, chunksize=4):
        out.update(pairs)
    return out


def _first_difference(a: str, b: str) -> str:
    la, lb = a.splitlines(), b.splitlines()
    for k, (x, y) in enumerate(zip(la, lb)):
        if x != y:
            return f"line {k + 1}:\n    was: {x}\n    now: {y}"
    return f"lengths {len(la)} / {len(lb)} lines"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("mode", choices=("save", "check"))
    ap.add_argument("snapshot")
    ap.add_argument("paths", nargs="*", help="only corpus files whose path contains one of these")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    a = ap.parse_args(argv)
    rels = corpus_files(a.paths)
    now = outputs(rels, a.jobs)
    if a.mode == "save":
        with gzip.open(a.snapshot, "wt") as f:
            json.dump(now, f)
        print(f"snapshot: {len(now)} cases saved to {a.snapshot}")
        return 0
    with gzip.open(a.snapshot, "rt") as f:
        was = json.load(f)
    bad = [k for k in now if was.get(k) != now[k]]
    for k in bad:
        print(f"DIFFERS {k}: " + (_first_difference(was[k], now[k]) if k in was else "not in the snapshot"))
    print(f"snapshot: {len(now) - len(bad)}/{len(now)} cases identical")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
