"""Compare pylower with the stored ptxas reference (tests/reference/) for every (corpus file, target).

    python -m pylower.tools.conformance                    # print the per-family, per-target table
    python -m pylower.tools.conformance --write docs/conformance.md
    python -m pylower.tools.conformance --mismatches barrier    # list failing cases of one family

A case is (file, target). It *agrees on acceptance* when ptxas and pylower both accept or both reject it;
it *matches* when both accept and, for every entry kernel, the sync-family SASS sequences are identical
and the sync EIATTRs (SYNC_EIATTRS, offset lists compared by entry count) are equal, or both reject it.
Cases where ptxas itself crashed (killed by a signal, no message) have no verdict and are left out.
For the real-kernel sources (REAL_SOURCES) it also reports whole-kernel figures per source and target: sync
exact, sync multiset, order similarity, EIATTR agreement; and classes every differing kernel by its first
divergence: front end (accept/reject), EIATTR, scheduling order (same instructions, other order), convergence
region (BSSY/BSYNC/WARPSYNC placed differently), ISel form (same opcode, other modifiers), sharing (warp
collectives shared across aggregated atomics), dead code (pylower keeps what ptxas deleted).
Runs pylower in-process, in a process pool.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from pathlib import Path

from tabulate import tabulate

from pylower.sass.families import is_sync, normalize
from pylower.tools.pool import map_jobs
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


REAL_SOURCES = ("triton", "nvcc", "llvm", "numba")      # whole real kernels (everything else: probes)


@dataclass
class KernelResult:
    """One entry kernel of a case where both accept: pylower's sync sequence and EIATTRs against ptxas's."""
    name: str
    ours: list
    theirs: list
    eiattr_ours: dict
    eiattr_theirs: dict

    @property
    def exact(self) -> bool:
        return self.ours == self.theirs

    @property
    def multiset(self) -> bool:
        return Counter(self.ours) == Counter(self.theirs)

    @property
    def similarity(self) -> float:
        if not self.ours and not self.theirs:
            return 1.0
        return SequenceMatcher(None, self.theirs, self.ours, autojunk=False).ratio()

    @property
    def eiattr_match(self) -> bool:
        return self.eiattr_ours == self.eiattr_theirs

    def first_divergence(self) -> tuple[int, str, str]:
        for k, (a, b) in enumerate(zip(self.theirs, self.ours)):
            if a != b:
                return k, a, b
        k = min(len(self.theirs), len(self.ours))
        return k, (self.theirs[k] if k < len(self.theirs) else "(end)"), (self.ours[k] if k < len(self.ours) else "(end)")

    def mismatch_class(self) -> str:
        """Why the kernel differs, from its first divergence (docs/conformance.md lists the classes)."""
        if self.exact:
            return "EIATTR" if not self.eiattr_match else ""
        _, a, b = self.first_divergence()
        ba, bb = a.split(".", 1)[0].split(" ")[0], b.split(".", 1)[0].split(" ")[0]
        if self.multiset:          # the same instructions: a pair placed elsewhere, or the scheduler's order
            return "convergence region" if ba in _CONVERGENCE or bb in _CONVERGENCE else "scheduling order"
        if ba == bb:
            return "ISel form"
        if ba in _CONVERGENCE or bb in _CONVERGENCE:
            return "convergence region"
        mine, theirs = Counter(x.split(" ")[0] for x in self.ours), Counter(x.split(" ")[0] for x in self.theirs)
        if ba in _SHARED or bb in _SHARED:
            return "sharing" if any(x.split(".")[0] in _ATOMICS for x in self.theirs) else "dead code" \
                if mine[b.split(" ")[0]] > theirs[b.split(" ")[0]] else "ISel form"
        return "ISel form" if sum(mine.values()) == sum(theirs.values()) else "dead code" \
            if sum(mine.values()) > sum(theirs.values()) else "ISel form"


_CONVERGENCE = {"BSSY", "BSYNC", "BMOV", "WARPSYNC", "BREAK", "ENDCOLLECTIVE"}
_SHARED = {"VOTEU", "VOTE", "SHFL", "REDUX", "CREDUX", "MATCH"}
_ATOMICS = {"ATOM", "ATOMG", "ATOMS", "RED", "REDG"}


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
    kernels: list = field(default_factory=list)     # KernelResult per entry kernel (both accepted)
    listing: str = ""       # digest of pylower's whole SASS listing, or of its diagnostic when it rejects

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
    from pylower.sass.printer import print_program
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
    listing = _digest(print_program(res.program) if ours else getattr(res, "message", "RecursionError"))
    if not ref["accepted"] or not ours:
        detail = ""
        if ref["accepted"] != ours:
            msgs = [m["text"] for m in ref.get("messages", []) if m["severity"] in ("error", "fatal")]
            detail = f"ptxas: {'accepted' if ref['accepted'] else msgs[:1]}; pylower: " + \
                     ("accepted" if ours else res.message)
        return Case(rel, fam, target, ref["accepted"], ours, False, False, detail, listing=listing)
    funcs = {f.name: f for f in res.program.functions}
    sync_ok, ei_ok, details, kernels = True, True, [], []
    for name, k in ref["kernels"].items():
        fn = funcs.get(name)
        if fn is None:
            if k["eiattr"].get("EIATTR_EXIT_INSTR_OFFSETS") or k.get("sync"):
                sync_ok = False
                details.append(f"{name}: missing in pylower")
                kernels.append(KernelResult(name, [], list(k.get("sync", [])), {}, eiattr_view(k["eiattr"])))
            continue
        mine = sync_view(fn)
        theirs = sync_from_sass(k["sass"]) if "sass" in k else k["sync"]
        if mine != theirs:
            sync_ok = False
            details.append(f"{name}: sync ptxas={theirs} pylower={mine}")
        theirs_e, mine_e = (eiattr_view(k["eiattr"]), eiattr_view(fn.eiattr)) if fn.is_entry else ({}, {})
        if theirs_e != mine_e:
            ei_ok = False
            details.append(f"{name}: eiattr ptxas={theirs_e} pylower={mine_e}")
        if fn.is_entry:
            kernels.append(KernelResult(name, mine, theirs, mine_e, theirs_e))
    return Case(rel, fam, target, True, True, sync_ok, ei_ok, "; ".join(details), kernels, listing)


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


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
    if paths:      # matched against the path under tests/reference/, never the checkout's own path
        refs = [r for r in refs if any(p in str(Path(r).relative_to(REFERENCE)) for p in paths)]
    cases: list[Case] = []
    for cs in map_jobs(_file_cases, refs, jobs if len(refs) > 8 else 1, chunksize=8):
        cases.extend(cs)
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


def _target_key(t: str):
    return (int("".join(ch for ch in t[3:] if ch.isdigit())), t)


def kernel_summary(cases: list[Case]) -> dict:
    """(source, target) -> whole-kernel figures over the real sources: kernels where both accept, sync-exact,
    same multiset, summed order similarity, EIATTRs agreeing; plus cases and accept/reject agreement."""
    tab: dict = defaultdict(lambda: {"cases": 0, "agree": 0, "kernels": 0, "exact": 0, "multiset": 0,
                                     "similarity": 0.0, "eiattr": 0})
    for c in cases:
        if c.family not in REAL_SOURCES:
            continue
        for key in ((c.family, c.target), (c.family, "all"), ("all", c.target), ("all", "all")):
            t = tab[key]
            t["cases"] += 1
            t["agree"] += c.accept_agree
            for k in c.kernels:
                t["kernels"] += 1
                t["exact"] += k.exact
                t["multiset"] += k.multiset
                t["similarity"] += k.similarity
                t["eiattr"] += k.eiattr_match
    return tab


def _pct(a, n) -> str:
    return f"{100.0 * a / n:.1f}%" if n else "-"


def kernel_report(cases: list[Case]) -> str:
    tab = kernel_summary(cases)
    sources = [s for s in REAL_SOURCES if (s, "all") in tab] + ["all"]
    targets = sorted({t for _, t in tab if t != "all"}, key=_target_key) + ["all"]
    rows = []
    for s in sources:
        for t in targets:
            v = tab.get((s, t))
            if not v:
                continue
            n = v["kernels"]
            rows.append([s, t, n, _pct(v["exact"], n), _pct(v["multiset"], n),
                         f"{v['similarity'] / n:.3f}" if n else "-", _pct(v["eiattr"], n), _pct(v["agree"], v["cases"])])
    head = ["source", "target", "kernels", "sync exact", "sync multiset", "order similarity", "EIATTRs agree",
            "accept/reject agree"]
    return tabulate(rows, headers=head, tablefmt="github")


def mismatch_classes(cases: list[Case]) -> Counter:
    out: Counter = Counter()
    for c in cases:
        if c.family not in REAL_SOURCES:
            continue
        if not c.accept_agree:
            out["front end"] += 1
        for k in c.kernels:
            cls = k.mismatch_class()
            if cls:
                out[cls] += 1
    return out


def mismatch_lines(cases: list[Case], family: str = "") -> list[str]:
    """Every failing case; for both-accept cases each differing kernel with its first divergence and class."""
    out = []
    for c in cases:
        if c.match or family and c.family != family:
            continue
        if not c.accept_agree or not c.kernels:
            out.append(f"{c.file} [{c.target}] front end: {c.detail}")
            continue
        for k in c.kernels:
            cls = k.mismatch_class()
            if not cls:
                continue
            if cls == "EIATTR":
                diff = {a: (k.eiattr_theirs.get(a), k.eiattr_ours.get(a))
                        for a in sorted(set(k.eiattr_theirs) | set(k.eiattr_ours))
                        if k.eiattr_theirs.get(a) != k.eiattr_ours.get(a)}
                out.append(f"{c.file} [{c.target}] {k.name}: EIATTR (ptxas, pylower): {diff}")
                continue
            pos, a, b = k.first_divergence()
            out.append(f"{c.file} [{c.target}] {k.name}: {cls} at sync #{pos}: ptxas {a} / pylower {b} "
                       f"(similarity {k.similarity:.2f}; {len(k.theirs)} vs {len(k.ours)} sync instructions)")
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("paths", nargs="*", help="restrict to reference files whose path under tests/reference/ "
                                             "contains one of these")
    ap.add_argument("--write", help="write the markdown report to this file")
    ap.add_argument("--mismatches", nargs="?", const="", metavar="FAMILY", help="list failing cases")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--baseline", action="store_true", help="record the current numbers in tests/conformance_baseline.json")
    a = ap.parse_args(argv)
    cases = evaluate(a.paths, a.jobs)
    table = report(cases)
    ktable = kernel_report(cases)
    classes = mismatch_classes(cases)
    print(ktable + "\n")
    if classes:
        print("mismatch classes (real kernels): " + ", ".join(f"{k} {n}" for k, n in classes.most_common()) + "\n")
    print(table)
    if a.mismatches is not None:
        print("\n".join(mismatch_lines(cases, a.mismatches)))
    if a.baseline:
        tab = summarize(cases)
        ktab = kernel_summary(cases)
        base = {f: {"cases": v[0], "accept_agree": v[1], "match": v[2]} for (f, t), v in sorted(tab.items()) if t == "all"}
        for (f, t), v in sorted(ktab.items()):
            if t == "all" and f in base:
                base[f]["kernels_exact"] = v["exact"]
                base[f]["kernels_eiattr"] = v["eiattr"]
        (ROOT / "tests" / "conformance_baseline.json").write_text(json.dumps(base, indent=1, sort_keys=True) + "\n")
    if a.write:
        tab = summarize(cases)
        n, agree, match = tab[("all", "all")]
        kt = kernel_summary(cases).get(("all", "all"))
        Path(a.write).write_text(
            "# Conformance with ptxas 13.0.88\n\n"
            "Generated by `python -m pylower.tools.conformance --write docs/conformance.md` from the stored\n"
            "reference (tests/reference/).\n\n"
            "## Whole real kernels\n\n"
            "Every entry kernel of the real-kernel corpus (tests/corpus/{triton,nvcc,llvm,numba}) on every default\n"
            "target where both ptxas and pylower accept it. *sync exact*: the same sync-family SASS sequence (opcode,\n"
            "modifiers, barrier ids); *sync multiset*: the same instructions in any order; *order similarity*: the\n"
            "mean difflib ratio of the two sequences; *EIATTRs agree*: the sync EIATTRs (SYNC_EIATTRS in\n"
            "tools/conformance.py; offset lists by count) are equal; *accept/reject agree* is over (file, target)\n"
            "cases. `python -m pylower.tools.conformance --mismatches` lists every failing kernel with its first\n"
            "divergence and a class.\n\n"
            + (f"Overall: {kt['exact']}/{kt['kernels']} kernels sync-exact ({_pct(kt['exact'], kt['kernels'])}), "
               f"EIATTRs agree in {_pct(kt['eiattr'], kt['kernels'])}.\n\n" if kt else "")
            + ktable + "\n\n"
            + ("Mismatch classes (kernels): " + ", ".join(f"{k} {c}" for k, c in classes.most_common()) + ".\n\n"
               if classes else "")
            + "## Every corpus file (probes and real kernels)\n\n"
            "A cell is matching cases / cases for that family and target: a case matches when pylower and ptxas\n"
            "agree on accept/reject and, when both accept, every entry kernel has the same sync-family SASS\n"
            "sequence and the same sync EIATTRs.\n\n"
            f"Overall: {match}/{n} cases match ({100.0 * match / max(n, 1):.1f}%), "
            f"accept/reject agrees in {agree}/{n} ({100.0 * agree / max(n, 1):.1f}%).\n"
            + (f"\nLeft out because ptxas crashed on them (no verdict): {', '.join(crashed_cases())}.\n"
               if crashed_cases() else "")
            + "\n" + table + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
