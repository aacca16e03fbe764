"""Compile a generator's variations with ptxas and pylower and print the fit (tools/variations/__init__.py)."""
from __future__ import annotations

import sys
from concurrent.futures import ThreadPoolExecutor

from tabulate import tabulate

from pylower.pipeline import compile_text
from pylower.tools import ptxas_ref
from pylower.tools.conformance import sync_view


def short(seq: list[str], keep: frozenset | None, mods: frozenset = frozenset()) -> str:
    """The sync view as opcodes (`BSSY BAR.SYNC ...` -> `BSSY BAR`), only those in `keep` when given; an opcode
    whose first modifier is in `mods` keeps it (`WARPSYNC.ALL`, `WARPSYNC.EXCLUSIVE`)."""
    def name(s):
        w = next(w for w in s.split() if not w.startswith("@")).split(".")
        return w[0] + "." + w[1] if len(w) > 1 and w[1] in mods else w[0]
    ops = [name(s) for s in seq]
    return " ".join(o for o in ops if keep is None or o.split(".")[0] in keep)


def _row(args):
    name, text, target, keep, mods = args
    ptx = text.replace("{target}", target)
    ref = ptxas_ref.compile_ptx(ptx, target, full=False)
    theirs = short(next(iter(ref["kernels"].values()))["sync"], keep, mods) if ref["accepted"] else "(rejected)"
    fn = next(f for f in compile_text(ptx, name, target).program.functions if f.is_entry)
    return name, target, theirs, short(sync_view(fn), keep, mods)


def run(variations: dict[str, str], targets: list[str], keep: frozenset | None = None, argv=None,
        mods: frozenset = frozenset()) -> int:
    targets = (argv if argv is not None else sys.argv[1:]) or targets
    if not ptxas_ref.have_ptxas():
        print("needs ptxas, nvdisasm and cuobjdump (pip install nvidia-cuda-nvdisasm nvidia-cuda-cuobjdump)")
        return 2
    jobs = [(n, t, tg, keep, mods) for n, t in variations.items() for tg in targets]
    with ThreadPoolExecutor(2) as ex:
        rows = list(ex.map(_row, jobs))
    ok = sum(a == b for *_, a, b in rows)
    print(tabulate([(n, t, "yes" if a == b else "no", a, "" if a == b else b) for n, t, a, b in rows],
                   headers=["variation", "target", "match", "ptxas", "pylower (when different)"]))
    print(f"\n{ok}/{len(rows)} rows match")
    return 0
