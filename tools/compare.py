"""`pylower --compare-ptxas`: one file against the real ptxas, as a diff.

Both compile the same PTX with the same options: `-O<n>`, `-c` and ptxas's sync options given on the command
line (and a corpus file's `//@ args:` line); `--knob` reaches pylower only (ptxas 13.0.88 has no knob
option) and is named in the header. Per kernel, the sync-family sequences are aligned with difflib (an extra
BSSY is one inserted row, not a shift of every later row): `=` equal, `!` changed, `-` ptxas only, `+`
pylower only; then the EIATTRs. A summary line closes the output. Exit status (compare_file's second value):
1 when acceptance or any kernel's sync sequence differs, else 0.
"""
from __future__ import annotations

from difflib import SequenceMatcher

from tabulate import tabulate

from pylower.lowering.diagnostics import PtxError

INSTALL = ("--compare-ptxas needs NVIDIA's ptxas, nvdisasm and cuobjdump: put the CUDA 13 toolkit's bin folder on "
           "PATH, or `pip install nvidia-cuda-nvcc nvidia-cuda-nvdisasm nvidia-cuda-cuobjdump` "
           "(pylower's extra: `pip install -e '.[ref]'` brings nvdisasm and cuobjdump)")


def aligned_rows(theirs: list[str], ours: list[str]) -> list[tuple[str, str, str]]:
    """difflib alignment of two sequences: rows (mark, ptxas, pylower)."""
    rows = []
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, theirs, ours, autojunk=False).get_opcodes():
        if tag == "equal":
            rows += [("=", a, b) for a, b in zip(theirs[i1:i2], ours[j1:j2])]
        elif tag == "replace":
            a, b = theirs[i1:i2], ours[j1:j2]
            for k in range(max(len(a), len(b))):
                x = a[k] if k < len(a) else ""
                y = b[k] if k < len(b) else ""
                rows.append(("!" if x and y else "-" if x else "+", x, y))
        elif tag == "delete":
            rows += [("-", a, "") for a in theirs[i1:i2]]
        else:
            rows += [("+", "", b) for b in ours[j1:j2]]
    return rows


def ptxas_args(opt_level: int, options: dict) -> list[str]:
    """The ptxas spelling of pylower's -O level and sync options."""
    from pylower.tools.ptxas_options import BOOL_OPTIONS, DEFAULT_OPT_LEVEL, FLAG_OPTIONS
    args = [] if opt_level == DEFAULT_OPT_LEVEL else [f"-O{opt_level}"]
    for name, key in BOOL_OPTIONS.items():
        if key in options:
            args.append(f"{name}={'true' if options[key] else 'false'}")
    seen = set()
    for name, key in FLAG_OPTIONS.items():
        if options.get(key) and key not in seen:
            args.append(name)
            seen.add(key)
    return args


def compare_file(text: str, file: str, target: str, opt_level: int | None = None, knobs: dict | None = None,
                 options: dict | None = None) -> tuple[str, int]:
    """(report, exit status). opt_level/options: the command line's (None: the file's `//@ args:` only)."""
    from pylower.pipeline import compile_text
    from pylower.tools import ptxas_options, ptxas_ref
    from pylower.tools.conformance import eiattr_view, sync_view
    if not ptxas_ref.have_ptxas():
        raise PtxError(INSTALL, 0, 0, file)
    file_opt, file_options = ptxas_options.parse(ptxas_ref.file_args(text))
    opt = file_opt if opt_level is None else opt_level
    opts = {**file_options, **(options or {})}
    args = ptxas_args(opt, opts)
    ref = ptxas_ref.compile_ptx(text, target, args)
    try:
        ours = compile_text(text, file, target, opt_level=opt, knobs=knobs or {}, options=opts)
        mine = {f.name: f for f in ours.program.functions}
        ours_err = None
    except PtxError as e:
        mine, ours_err = {}, e.format(file)
    head = f"target {target}" + (f", ptxas {' '.join(args)}" if args else "")
    if knobs:
        head += ", pylower only: " + " ".join(f"--knob {k}={v}" for k, v in knobs.items())
    out = [f"{head}: ptxas {'accepted' if ref['accepted'] else 'rejected'}, "
           f"pylower {'accepted' if ours_err is None else 'rejected'}"]
    for m in ref["messages"]:
        out.append(f"  ptxas: line {m['line']}: {m['severity']}: {m['text']}")
    if ours_err:
        out.append(f"  pylower: {ours_err}")
    differing: dict[str, int] = {}
    names = [n for n in sorted(set(ref["kernels"]) | set(mine))
             if n in ref["kernels"] or (mine.get(n) is not None and mine[n].is_entry)]
    for name in names:
        theirs = ref["kernels"].get(name, {"sync": [], "eiattr": {}})
        fn = mine.get(name)
        ms = sync_view(fn) if fn else []
        rows = aligned_rows(theirs["sync"], ms)
        ndiff = sum(1 for r in rows if r[0] != "=")
        te, me = eiattr_view(theirs["eiattr"]), eiattr_view(fn.eiattr if fn else {})
        erows = [("=" if te.get(k) == me.get(k) else "!", k, te.get(k, "-"), me.get(k, "-"))
                 for k in sorted(set(te) | set(me))]
        if ndiff:
            differing[name] = ndiff
        out.append(f"\n[{name}] sync-family SASS: " + (f"{ndiff} difference(s)" if ndiff else "equal"))
        out.append(tabulate(rows, headers=["", "ptxas", "pylower"]))
        out.append(tabulate(erows, headers=["", "EIATTR", "ptxas", "pylower"]))
    accept_differs = ref["accepted"] != (ours_err is None)
    if accept_differs:
        summary = "summary: ptxas and pylower disagree on accepting the file"
    elif not differing:
        summary = f"summary: equal ({len(names)} kernel(s), sync-family sequences identical)"
    else:
        summary = "summary: " + ", ".join(f"{n}: {k} difference(s)" for n, k in differing.items()) + \
                  f" ({len(differing)} of {len(names)} kernel(s) differ)"
    out.append("\n" + summary)
    return "\n".join(out) + "\n", 1 if (accept_differs or differing) else 0
