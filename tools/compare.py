"""`pylower --compare-ptxas`: one file, side by side with the real ptxas (sync-family view + EIATTRs)."""
from __future__ import annotations

from itertools import zip_longest

from tabulate import tabulate

from pylower.lowering.diagnostics import PtxError


def compare_file(text: str, file: str, target: str) -> str:
    from pylower.pipeline import compile_text
    from pylower.tools import ptxas_ref
    from pylower.tools.conformance import eiattr_view, sync_view
    if not ptxas_ref.have_ptxas():
        raise PtxError("--compare-ptxas needs ptxas on PATH and nvidia-cuda-nvdisasm/cuobjdump installed", 0, 0, file)
    ref = ptxas_ref.compile_ptx(text, target, ptxas_ref.file_args(text))
    try:
        from pylower.tools import ptxas_options
        opt, options = ptxas_options.parse(ptxas_ref.file_args(text))
        ours = compile_text(text, file, target, opt_level=opt, options=options)
        mine = {f.name: f for f in ours.program.functions}
        ours_err = None
    except PtxError as e:
        mine, ours_err = {}, e.format(file)
    out = [f"target {target}: ptxas {'accepted' if ref['accepted'] else 'rejected'}, "
           f"pylower {'accepted' if ours_err is None else 'rejected'}"]
    for m in ref["messages"]:
        out.append(f"  ptxas: line {m['line']}: {m['severity']}: {m['text']}")
    if ours_err:
        out.append(f"  pylower: {ours_err}")
    for name in sorted(set(ref["kernels"]) | set(mine)):
        theirs = ref["kernels"].get(name, {"sync": [], "eiattr": {}})
        fn = mine.get(name)
        ms = sync_view(fn) if fn else []
        rows = [("=" if a == b else "!", a or "", b or "") for a, b in zip_longest(theirs["sync"], ms)]
        out.append(f"\n[{name}] sync-family SASS")
        out.append(tabulate(rows, headers=["", "ptxas", "pylower"]))
        te, me = eiattr_view(theirs["eiattr"]), eiattr_view(fn.eiattr if fn else {})
        rows = [("=" if te.get(k) == me.get(k) else "!", k, te.get(k, "-"), me.get(k, "-")) for k in sorted(set(te) | set(me))]
        out.append(tabulate(rows, headers=["", "EIATTR", "ptxas", "pylower"]))
    return "\n".join(out) + "\n"
