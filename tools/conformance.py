"""Compare pylower with the stored ptxas reference (tests/reference/) for every (corpus file, target).

    python -m pylower.tools.conformance                    # print the per-family, per-target table
    python -m pylower.tools.conformance --write docs/conformance.md
    python -m pylower.tools.conformance --mismatches barrier    # list failing cases of one family

A case is (file, target). It *agrees on acceptance* when ptxas and pylower both accept or both reject it;
it *matches* when both accept and, for every entry kernel, the sync-family SASS sequences are identical
and the sync EIATTRs (SYNC_EIATTRS, offset lists compared by entry count) are equal, or both reject it.
Cases where ptxas itself crashed (killed by a signal, no message) have no verdict and are left out.
Runs pylower in-process, in a process pool.
"""
from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from tabulate import tabulate

from pylower.sass.families import is_sync, normalize
from pylower.tools.ptxas_ref import sync_from_sass
from pylower.tools.refresh_reference import read_reference, reference_files

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "corpus"
REFERENCE = ROOT / "tests" / "reference"

SYNC_EIATTRS = (
    "EIATTR_NUM_BARRIERS", "EIATTR_NUM_MBARRIERS", "EIATTR_MBARRIER_INSTR_OFFSETS", "EIATTR_SYNC_STACK",
    "EIATTR_SW_WAR_MEMBAR_SYS_INSTR_OFFSETS", "EIATTR_GEN_ERRBAR_AT_EXIT", "EIATTR_EXIT_INSTR_OFFSETS",
    "EIATTR_COOP_GROUP_INSTR_OFFSETS", "EIATTR_COOP_GROUP_MASK_REGIDS", "EIATTR_INT_WARP_WIDE_INSTR_OFFSETS",
)


@dataclass
class Case:
    file: str
    family: str
    target: str
    ref_accepted: bool
    ours_accepted: bool
    sync_match: bool
    eiattr_match: bool
    detail: str = ""

    @property
    def accept_agree(self) -> bool:
        return self.ref_accepted == self.ours_accepted

    @property
    def match(self) -> bool:
        if not self.accept_agree:
            return False
        return (not self.ref_accepted) or (self.sync_match and self.eiattr_match)


def family_of(rel: str) -> str:
    parts = Path(rel).parts
    if parts[0] == "probes" and len(parts) > 2:
        return parts[1]
    return parts[0]


def sync_view(fn) -> list[str]:
    return [normalize(i.mnemonic, ", ".join(i.operands)) for i in fn.instrs if is_sync(i.opcode, ", ".join(i.operands))]


def eiattr_view(d: dict) -> dict:
    out = {}
    for k in SYNC_EIATTRS:
        if k in d:
            v = d[k]
            out[k] = len(v) if isinstance(v, list) else v
    return out


def run_case(text: str, rel: str, target: str, ref: dict) -> Case:
    from pylower.lowering.diagnostics import PtxError
    from pylower.pipeline import compile_text
    from pylower.tools.ptxas_ref import file_args, retarget
    args = file_args(text)
    from pylower.tools import ptxas_options
    fam = family_of(rel)
    try:
        opt, options = ptxas_options.parse(args)
        res = compile_text(retarget(text, target), rel, target, opt_level=opt, options=options)
        ours = True
    except PtxError as e:
        ours, res = False, e
    except RecursionError:
        ours, res = False, None
    if not ref["accepted"] or not ours:
        detail = ""
        if ref["accepted"] != ours:
            msgs = [m["text"] for m in ref.get("messages", []) if m["severity"] in ("error", "fatal")]
            detail = f"ptxas: {'accepted' if ref['accepted'] else msgs[:1]}; pylower: " + \
                     ("accepted" if ours else res.message)
        return Case(rel, fam, target, ref["accepted"], ours, False, False, detail)
    funcs = {f.name: f for f in res.program.functions}
    sync_ok, ei_ok, details = True, True, []
    for name, k in ref["kernels"].items():
        fn = funcs.get(name)
        if fn is None:
            if k["eiattr"].get("EIATTR_EXIT_INSTR_OFFSETS") or k.get("sync"):
                sync_ok = False
                details.append(f"{name}: missing in pylower")
            continue
        mine = sync_view(fn)
        theirs = sync_from_sass(k["sass"]) if "sass" in k else k["sync"]
        if mine != theirs:
            sync_ok = False
            details.append(f"{name}: sync ptxas={theirs} pylower={mine}")
        if fn.is_entry:
            theirs_e, mine_e = eiattr_view(k["eiattr"]), eiattr_view(fn.eiattr)
            if theirs_e != mine_e:
                ei_ok = False
                details.append(f"{name}: eiattr ptxas={theirs_e} pylower={mine_e}")
    return Case(rel, fam, target, True, True, sync_ok, ei_ok, "; ".join(details))


def ptxas_crashed(r: dict) -> bool:
    """ptxas died on a signal with no message (it segfaults on a few inputs): no verdict to compare with."""
    return bool(r.get("crashed")) or (not r["accepted"] and not r.get("messages"))


def _file_cases(ref_path: str) -> list[Case]:
    ref = read_reference(Path(ref_path))
    ptx = CORPUS / ref["file"]
    if not ptx.exists():
        return []
    text = ptx.read_text()
    return [run_case(text, ref["file"], t, r) for t, r in sorted(ref["targets"].items()) if not ptxas_crashed(r)]


def crashed_cases() -> list[str]:
    out = []
    for ref in reference_files():
        d = read_reference(ref)
        out += [f"{d['file']} [{t}]" for t, r in sorted(d["targets"].items()) if ptxas_crashed(r)]
    return out


def evaluate(paths: list[str] | None = None, jobs: int = 2) -> list[Case]:
    refs = [str(p) for p in reference_files()]
    if paths:
        refs = [r for r in refs if any(p in r for p in paths)]
    cases: list[Case] = []
    if jobs > 1 and len(refs) > 8:
        with ProcessPoolExecutor(max_workers=jobs) as ex:
            for cs in ex.map(_file_cases, refs, chunksize=8):
                cases.extend(cs)
    else:
        for r in refs:
            cases.extend(_file_cases(r))
    return cases


def summarize(cases: list[Case]) -> dict:
    tab: dict = defaultdict(lambda: [0, 0, 0])      # (family, target) -> [cases, accept-agree, match]
    for c in cases:
        for key in ((c.family, c.target), (c.family, "all"), ("all", c.target), ("all", "all")):
            t = tab[key]
            t[0] += 1
            t[1] += c.accept_agree
            t[2] += c.match
    return tab


def report(cases: list[Case]) -> str:
    tab = summarize(cases)
    families = sorted({f for f, _ in tab if f != "all"}) + ["all"]
    targets = sorted({t for _, t in tab if t != "all"}, key=lambda t: (int(''.join(ch for ch in t[3:] if ch.isdigit())), t)) + ["all"]
    rows = []
    for f in families:
        row = [f]
        for t in targets:
            n, agree, match = tab.get((f, t), [0, 0, 0])
            row.append(f"{match}/{n}" if n else "-")
        n, agree, match = tab[(f, "all")]
        row.append(f"{100.0 * match / n:.1f}%" if n else "-")
        row.append(f"{100.0 * agree / n:.1f}%" if n else "-")
        rows.append(row)
    head = ["family"] + targets + ["match", "accept agree"]
    return tabulate(rows, headers=head, tablefmt="github")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("paths", nargs="*", help="restrict to reference files whose path contains one of these")
    ap.add_argument("--write", help="write the markdown report to this file")
    ap.add_argument("--mismatches", nargs="?", const="", metavar="FAMILY", help="list failing cases")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--baseline", action="store_true", help="record the current numbers in tests/conformance_baseline.json")
    a = ap.parse_args(argv)
    cases = evaluate(a.paths, a.jobs)
    table = report(cases)
    print(table)
    if a.mismatches is not None:
        for c in cases:
            if not c.match and (not a.mismatches or c.family == a.mismatches):
                print(f"{c.file} [{c.target}] {c.detail}")
    if a.baseline:
        tab = summarize(cases)
        base = {f: {"cases": v[0], "accept_agree": v[1], "match": v[2]} for (f, t), v in sorted(tab.items()) if t == "all"}
        (ROOT / "tests" / "conformance_baseline.json").write_text(json.dumps(base, indent=1, sort_keys=True) + "\n")
    if a.write:
        tab = summarize(cases)
        n, agree, match = tab[("all", "all")]
        Path(a.write).write_text(
            "# Conformance with ptxas 13.0.88\n\n"
            "Generated by `python -m pylower.tools.conformance --write docs/conformance.md` from the stored\n"
            "reference (tests/reference/). A cell is matching cases / cases for that family and target: a case\n"
            "matches when pylower and ptxas agree on accept/reject and, when both accept, every entry kernel has\n"
            "the same sync-family SASS sequence and the same sync EIATTRs (offset lists compared by count).\n\n"
            f"Overall: {match}/{n} cases match ({100.0 * match / max(n, 1):.1f}%), "
            f"accept/reject agrees in {agree}/{n} ({100.0 * agree / max(n, 1):.1f}%).\n"
            + (f"\nLeft out because ptxas crashed on them (no verdict): {', '.join(crashed_cases())}.\n"
               if crashed_cases() else "")
            + "\n" + table + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
