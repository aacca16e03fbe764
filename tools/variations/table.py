"""Compile a generator's variations with ptxas and pylower and print the fit (tools/variations/__init__.py)."""
from __future__ import annotations

import sys
from concurrent.futures import ThreadPoolExecutor

from tabulate import tabulate

from pylower.pipeline import compile_text
from pylower.tools import ptxas_ref
from pylower.tools.conformance import sync_view


def short(seq: list[str], keep: frozenset | None) -> str:
    """The sync view as opcodes (`BSSY BAR.SYNC ...` -> `BSSY BAR`), only those in `keep` when given."""
    ops = [next(w for w in s.split() if not w.startswith("@")).split(".")[0] for s in seq]
    return " ".join(o for o in ops if keep is None or o in keep)


def _row(args):
    name, text, target, keep = args
    ptx = text.replace("{target}", target)
    ref = ptxas_ref.compile_ptx(ptx, target, full=False)
    theirs = short(next(iter(ref["kernels"].values()))["sync"], keep) if ref["accepted"] else "(rejected)"
    fn = next(f for f in compile_text(ptx, name, target).program.functions if f.is_entry)
    return name, target, theirs, short(sync_view(fn), keep)


def run(variations: dict[str, str], targets: list[str], keep: frozenset | None = None, argv=None) -> int:
    targets = (argv if argv is not None else sys.argv[1:]) or targets
    if not ptxas_ref.have_ptxas():
        print("needs ptxas, nvdisasm and cuobjdump (pip install nvidia-cuda-nvdisasm nvidia-cuda-cuobjdump)")
        return 2
    jobs = [(n, t, tg, keep) for n, t in variations.items() for tg in targets]
    with ThreadPoolExecutor(2) as ex:
        rows = list(ex.map(_row, jobs))
    ok = sum(a == b for *_, a, b in rows)
    print(tabulate([(n, t, "yes" if a == b else "no", a, "" if a == b else b) for n, t, a, b in rows],
                   headers=["variation", "target", "match", "ptxas", "pylower (when different)"]))
    print(f"\n{ok}/{len(rows)} rows match")
    return 0
