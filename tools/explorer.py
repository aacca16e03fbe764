"""`pylower k.ptx --arch sm_90 --html out.html`: the explorer page, PTX and SASS side by side.

One self-contained HTML file (styles, script and data inline; it loads nothing): the PTX on the left, the
selected kernel's SASS on the right, linked line to line through the provenance every SASS instruction
carries (isel/provenance.py: its PTX line, the phase or ISel step that inserted it and why). Tabs on the right:

- SASS: sync-family instructions marked by family (sass/families.py), inserted ones with their origin and reason;
- Phases: the Ori IR of the kernel before and after each phase that ran (the pass manager's dumps), aligned,
  with the changed lines marked; a slider steps through the phases;
- ptxas: the real ptxas's sync-family sequence next to pylower's, aligned as `--compare-ptxas` aligns them
  (tools/compare.py), and the EIATTRs of both — from ptxas run now (`--compare-ptxas`) or from the stored
  reference of a corpus file (tests/reference/, when it was made from the same text, target and options);
- EIATTR: the kernel's EIATTRs; offset lists link to the instructions they name;
- Notes: pylower's warnings and the findings of a checker (`notes=`: the lint hook), also marked at their PTX
  lines.

`explore()` gathers the data (a JSON-ready dict), `render()` writes the page from the template
tools/explorer.html, `validate()` checks a page's embedded data (every link names an existing line or
instruction): tests/test_explorer.py renders every corpus file with it.
"""
from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from difflib import SequenceMatcher
from pathlib import Path

from pylower.lowering.diagnostics import PtxError
from pylower.passes.manager import DumpOptions
from pylower.sass.families import SYNC_FAMILY, family_of, is_sync, normalize
from pylower.sass.instr import VIRTUAL

TEMPLATE = Path(__file__).with_name("explorer.html")
DATA_FORMAT = 1

# Sync-family instructions that are not in SYNC_FAMILY (CS2R/S2R of SR_LANEMASK_ACTIVE: families.is_sync)
SREG_FAMILY = "sreg"
FAMILIES = sorted(set(SYNC_FAMILY.values())) + [SREG_FAMILY]

_DUMP_HEADER = re.compile(r"^// -----// IR Dump (Before|After) (\S+) \((-?\d+)\) //----- //$", re.M)


class _Strings:
    """A string table: the page stores each repeated origin and reason once."""

    def __init__(self):
        self.items: list[str] = []
        self.index: dict[str, int] = {}

    def __call__(self, s: str) -> int:
        if not s:
            return -1
        k = self.index.get(s)
        if k is None:
            k = self.index[s] = len(self.items)
            self.items.append(s)
        return k


# ---------------------------------------------------------------- the Ori IR per phase

def _split_functions(module_text: str) -> tuple[list[str], list[list[str]]]:
    """A print_module text -> (module header lines, [lines of each function]) in module order."""
    head: list[str] = []
    funcs: list[list[str]] = []
    cur: list[str] | None = None
    for ln in module_text.splitlines():
        if ln.startswith("function "):
            cur = [ln]
            funcs.append(cur)
        elif cur is not None:
            cur.append(ln)
            if ln == "end":
                cur = None
        else:
            head.append(ln)
    return head, funcs


def _lis(pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The longest run of pairs increasing in both coordinates (pairs come sorted by the first): patience sorting."""
    import bisect
    tops: list[int] = []           # the second coordinate ending the best run of each length
    ends: list[int] = []           # index into pairs of that end
    back = [-1] * len(pairs)
    for k, (_i, j) in enumerate(pairs):
        n = bisect.bisect_left(tops, j)
        if n == len(tops):
            tops.append(j)
            ends.append(k)
        else:
            tops[n], ends[n] = j, k
        back[k] = ends[n - 1] if n else -1
    out = []
    k = ends[-1] if ends else -1
    while k >= 0:
        out.append(pairs[k])
        k = back[k]
    return out[::-1]


# gaps without a unique line in common are aligned by difflib up to this size (lines x lines)
_SMALL_GAP = 200_000


def _matches(a: list[str], alo: int, ahi: int, b: list[str], blo: int, bhi: int, out: list) -> None:
    """Patience diff: the lines equal at both ends match; lines that occur once on each side anchor the rest
    (their longest increasing run), the gaps between anchors recursively; a small gap with no anchor by
    difflib. Appends the matching (i, j) pairs in order."""
    while alo < ahi and blo < bhi and a[alo] == b[blo]:
        out.append((alo, blo))
        alo, blo = alo + 1, blo + 1
    tail = []
    while alo < ahi and blo < bhi and a[ahi - 1] == b[bhi - 1]:
        ahi, bhi = ahi - 1, bhi - 1
        tail.append((ahi, bhi))
    if alo < ahi and blo < bhi:
        count_a: dict[str, int] = {}
        for i in range(alo, ahi):
            count_a[a[i]] = count_a.get(a[i], 0) + 1
        where_b: dict[str, int] = {}
        for j in range(blo, bhi):
            where_b[b[j]] = -1 if b[j] in where_b else j
        anchors = _lis([(i, where_b[a[i]]) for i in range(alo, ahi)
                        if count_a[a[i]] == 1 and where_b.get(a[i], -1) >= 0])
        if anchors:
            i0, j0 = alo, blo
            for i, j in anchors:
                _matches(a, i0, i, b, j0, j, out)
                out.append((i, j))
                i0, j0 = i + 1, j + 1
            _matches(a, i0, ahi, b, j0, bhi, out)
        elif (ahi - alo) * (bhi - blo) <= _SMALL_GAP:
            sm = SequenceMatcher(None, a[alo:ahi], b[blo:bhi], autojunk=False)
            for i, j, n in sm.get_matching_blocks():
                out.extend((alo + i + d, blo + j + d) for d in range(n))
    out.extend(reversed(tail))


def _diff_ops(a: list[str], b: list[str]) -> list:
    """b as edits of a: [[i1, i2, [lines]]] (replace a[i1:i2] by lines), in order; [] when equal."""
    if a == b:
        return []
    pairs: list[tuple[int, int]] = []
    _matches(a, 0, len(a), b, 0, len(b), pairs)
    ops = []
    i0 = j0 = 0
    for i, j in pairs + [(len(a), len(b))]:
        if i > i0 or j > j0:
            ops.append([i0, i, b[j0:j]])
        i0, j0 = i + 1, j + 1
    return ops


def _phase_dumps(dumps: str) -> list[tuple[str, str, int, str]]:
    """The pass manager's dump text -> [(Before|After, phase name, number, module text)]."""
    marks = list(_DUMP_HEADER.finditer(dumps))
    out = []
    for k, m in enumerate(marks):
        end = marks[k + 1].start() if k + 1 < len(marks) else len(dumps)
        out.append((m.group(1), m.group(2), int(m.group(3)), dumps[m.end() + 1:end]))
    return out


def _ir_views(dumps: str, names: list[str], stats) -> tuple[dict, list]:
    """Per function: the IR before the first phase and, per phase that ran, the edits it made.
    Returns ({function: {"ir0": lines, "edits": [ops per phase]}}, [phase records])."""
    from pylower.isel.provenance import phase_description
    views = {n: {"ir0": None, "edits": []} for n in names}
    phases = []
    prev: list[list[str]] | None = None
    for kind, name, number, text in _phase_dumps(dumps):
        _head, funcs = _split_functions(text)
        if len(funcs) != len(names):          # a phase added or removed a function: no per-function view
            continue
        if kind == "Before":
            if prev is None:
                for n, lines in zip(names, funcs):
                    views[n]["ir0"] = lines
                prev = funcs
            continue
        if prev is None:
            continue
        changed = 0
        for n, old, new in zip(names, prev, funcs):
            ops = _diff_ops(old, new)
            changed += bool(ops)
            views[n]["edits"].append(ops)
        st = {s: v for (num, nm, s), v in stats.items() if num == number and nm == name}
        phases.append({"number": number, "name": name, "description": phase_description(name),
                       "functions_changed": changed, "stats": st})
        prev = funcs
    return views, phases


# ---------------------------------------------------------------- SASS

def _family(ins) -> str | None:
    fam = family_of(ins.opcode)
    if fam is None and is_sync(ins.opcode, ", ".join(ins.operands)):
        fam = SREG_FAMILY
    return fam


def _sass_view(fn, strings: _Strings) -> dict:
    """One function's listing: instructions [offset, guard, text, ptx line, family, origin, reason] (the
    strings as indices into the string table, -1 none), labels and local symbols by instruction index,
    and the index of each sync-family instruction in the order sync_view compares them."""
    rows, labels, symbols, sync_rows = [], {}, {}, []
    pending_label = None
    for k, ins in enumerate(fn.instrs):
        local = fn.symbols.get(k)
        if ins.label:
            pending_label = ins.label if pending_label is None else pending_label + " " + ins.label
        if ins.opcode == VIRTUAL:
            continue
        i = len(rows)
        if local and k:
            symbols[str(i)] = local[0]
        if pending_label:
            labels[str(i)] = pending_label
            pending_label = None
        fam = _family(ins)
        if fam is not None:
            sync_rows.append(i)
        rows.append([ins.offset, ins.guard or "", ins.text(), ins.line, FAMILIES.index(fam) if fam else -1,
                     strings(ins.origin), strings(ins.reason)])
    return {"instrs": rows, "labels": labels, "symbols": symbols, "sync": sync_rows}


def _eiattr_json(d: dict) -> dict:
    out = {}
    for k, v in d.items():
        out[k] = v if isinstance(v, (int, str, list)) else str(v)
    return out


# ---------------------------------------------------------------- ptxas

@dataclass
class PtxasData:
    """What ptxas did with the same input: a tools/ptxas_ref.compile_ptx result for one target."""
    result: dict
    source: str                 # "ptxas 13.0.88, run now" / "stored reference tests/reference/..."
    args: list


def live_ptxas(text: str, target: str, opt_level: int, options: dict) -> PtxasData:
    """Run the real ptxas now (needs it on PATH: tools/compare.INSTALL)."""
    from pylower.tools import ptxas_ref
    from pylower.tools.compare import INSTALL, ptxas_args
    if not ptxas_ref.have_ptxas():
        raise PtxError(INSTALL)
    args = ptxas_args(opt_level, options)
    res = ptxas_ref.compile_ptx(text, target, args, full=True)
    return PtxasData(res, f"ptxas {ptxas_ref.ptxas_version()}, run now", args)


def stored_ptxas(path: Path, text: str, target: str, opt_level: int, options: dict) -> PtxasData | None:
    """The stored reference of a corpus file, when it was made from this very text, for this target, with the
    same ptxas options (the file's `//@ args:` line) as this compilation; else None."""
    from pylower.tools import ptxas_options, ptxas_ref
    from pylower.tools.compare import ptxas_args
    from pylower.tools.refresh_reference import CORPUS, read_reference, reference_path
    try:
        ref_path = reference_path(path)
    except (ValueError, OSError):
        return None                               # not a corpus file
    if not ref_path.exists():
        return None
    try:
        ref = read_reference(ref_path)
    except (OSError, ValueError):
        return None
    if ref.get("sha256") != hashlib.sha256(text.encode()).hexdigest() or target not in ref.get("targets", {}):
        return None
    try:
        f_opt, f_options = ptxas_options.parse(ptxas_ref.file_args(text))
    except ptxas_options.OptionError:
        return None
    args = ptxas_args(opt_level, options)
    if ptxas_args(f_opt, f_options) != args:
        return None
    rel = ref_path.relative_to(CORPUS.parent.parent)
    return PtxasData(ref["targets"][target], f"stored reference {rel} (ptxas {ref.get('ptxas', '?')})", args)


def _ptxas_sync_lines(k: dict) -> tuple[list[str], list[int]]:
    """ptxas's sync-family lines with guards and operands, and their index in its whole listing (or -1)."""
    if "sync_lines" in k:
        return list(k["sync_lines"]), [-1] * len(k["sync_lines"])
    lines, where = [], []
    for j, ln in enumerate(k.get("sass", [])):
        rest = ln.strip()
        if rest.startswith("@"):
            rest = rest.split(None, 1)[1] if " " in rest else ""
        op, _, ops = rest.partition(" ")
        if op and is_sync(op.split(".", 1)[0], ops):
            lines.append(ln)
            where.append(j)
    return lines, where


def _compare(ptxas: PtxasData, program, sass: dict) -> dict:
    """Per kernel: the aligned sync-family rows [mark, ptxas, pylower, pylower instruction index, ptxas line,
    ptxas listing index] and the EIATTR rows [mark, name, ptxas, pylower]; and the file-level verdict."""
    from pylower.tools.compare import aligned_rows
    from pylower.tools.conformance import eiattr_view, sync_view
    ref = ptxas.result
    mine = {f.name: f for f in program.functions}
    kernels = {}
    names = [n for n in sorted(set(ref.get("kernels", {})) | set(mine))
             if n in ref.get("kernels", {}) or mine[n].is_entry]
    for name in names:
        theirs = ref.get("kernels", {}).get(name, {"sync": [], "eiattr": {}})
        fn = mine.get(name)
        ours = sync_view(fn) if fn else []
        ours_rows = sass[name]["sync"] if fn else []
        t_lines, t_where = _ptxas_sync_lines(theirs)
        if len(t_lines) != len(theirs["sync"]):
            t_lines, t_where = list(theirs["sync"]), [-1] * len(theirs["sync"])
        rows = []
        ti = oi = 0
        for mark, a, b in aligned_rows(theirs["sync"], ours):
            row = [mark, a, b, -1, "", -1]
            if a:
                row[4], row[5] = t_lines[ti], t_where[ti]
                ti += 1
            if b:
                row[3] = ours_rows[oi]
                oi += 1
            rows.append(row)
        te, me = eiattr_view(theirs.get("eiattr", {})), eiattr_view(fn.eiattr if fn else {})
        erows = [["=" if te.get(k) == me.get(k) else "!", k, te.get(k, "-"), me.get(k, "-")]
                 for k in sorted(set(te) | set(me))]
        kernels[name] = {"rows": rows, "eiattr": erows, "differences": sum(r[0] != "=" for r in rows),
                         "in_ptxas": name in ref.get("kernels", {}), "in_pylower": fn is not None,
                         "ptxas_instructions": theirs.get("n_instrs", len(theirs.get("sass", [])) or None),
                         "ptxas_listing": theirs.get("sass", [])}
    return {"source": ptxas.source, "args": ptxas.args, "accepted": bool(ref.get("accepted")),
            "messages": ref.get("messages", []), "kernels": kernels}


# ---------------------------------------------------------------- notes (warnings, lint findings)

def _notes(x, source: str) -> list[dict]:
    """A warning or a checker's finding -> [{line, severity, source, code, message, function}], the finding's
    own related notes (`notes`: objects or dicts with a line and a message, as pylower.lint's Finding has) after
    it as "info". Accepts a dict or an object (`code`/`rule`/`check`/`id` for the code, `text` for the message)."""
    def get(obj, *keys, default=""):
        for key in keys:
            v = obj.get(key) if isinstance(obj, dict) else getattr(obj, key, None)
            if v not in (None, ""):
                return v
        return default

    def line_of(obj) -> int:
        try:
            return int(get(obj, "line", "ptx_line", default=0))
        except (TypeError, ValueError):
            return 0
    code = str(get(x, "code", "rule", "check", "id", default=""))
    function = str(get(x, "function", "kernel", default=""))
    out = [{"line": line_of(x), "severity": str(get(x, "severity", "level", default="warning")), "source": source,
            "code": code, "message": str(get(x, "message", "text", default=str(x))), "function": function}]
    related = get(x, "notes", default=())
    for n in related if isinstance(related, (list, tuple)) else ():
        out.append({"line": line_of(n), "severity": "info", "source": source, "code": code,
                    "message": "note: " + str(get(n, "message", "text", default=str(n))), "function": function})
    return out


def lint_findings(text: str, file: str, target: str):
    """The findings of pylower's checker (`pylower.lint`) on the file, or None where the checker is not
    installed or cannot read the input."""
    try:
        from pylower.lint import lint_text
    except ImportError:
        return None
    try:
        return lint_text(text, file, target)
    except PtxError:
        return None


# ---------------------------------------------------------------- the page

def _first_phase(target, opt_level, knobs, options, disabled) -> set[str]:
    """The selector of the first phase the pass manager will run for these options ({} when none will)."""
    from pylower.lowering.target import Target, parse_target
    from pylower.passes.manager import PassContext, _matches
    from pylower.passes.registry import pipeline_for
    t = target if isinstance(target, Target) else parse_target(target)
    ctx = PassContext(t, opt_level, dict(knobs or {}), dict(options or {}))
    for p in sorted(pipeline_for(t, ctx), key=lambda p: p.number):
        if not _matches(p, set(disabled)) and p.enabled(ctx):
            return {str(p.number)}
    return set()


def explore(text: str, file: str = "<input>", target="sm_90", opt_level: int = 3, knobs: dict | None = None,
            options: dict | None = None, disabled=(), ptxas: PtxasData | None = None, notes=None,
            verify_each: bool | None = None) -> dict:
    """Compile `text` (PTX) and gather everything the page shows, as a JSON-ready dict.
    `ptxas`: live_ptxas()/stored_ptxas() data, or None; `notes`: findings of a checker (the lint hook)."""
    from pylower.pipeline import compile_text

    def run(before: set):
        dump = DumpOptions(before=before, after={"all"}, disabled=set(disabled))
        if verify_each is not None:
            dump.verify_each = verify_each
        return compile_text(text, file, target, opt_level, knobs, options, dump)
    # the IR before the first phase that runs, and after every phase
    res = run(_first_phase(target, opt_level, knobs, options, disabled))
    if "IR Dump After" in res.dumps and "IR Dump Before" not in res.dumps:
        res = run({"all"})                 # the first phase was not the one expected: ask for every Before
    prog = res.program
    strings = _Strings()
    sass = {fn.name: _sass_view(fn, strings) for fn in prog.functions}
    names = [f.name for f in res.module.functions]
    ir, phases = _ir_views(res.dumps, names, res.ctx.stats)
    kernels = []
    for fn in prog.functions:
        v = ir.get(fn.name)
        kernels.append({"name": fn.name, "entry": fn.is_entry, "ptx_line": fn.ptx_line, **sass[fn.name],
                        "eiattr": _eiattr_json(fn.eiattr),
                        "ir0": v["ir0"] if v else None, "ir_edits": v["edits"] if v else []})
    all_notes = [n for w in res.warnings for n in _notes(w, "pylower")] + \
        [n for f in (notes or []) for n in _notes(f, "lint")]
    return {
        "format": DATA_FORMAT, "file": file, "target": prog.target,
        "opt_level": opt_level, "knobs": dict(knobs or {}), "options": {k: v for k, v in (options or {}).items()},
        "ptx": text.splitlines(), "families": FAMILIES, "strings": strings.items,
        "kernels": kernels, "phases": phases,
        "compare": _compare(ptxas, prog, sass) if ptxas is not None else None,
        "notes": all_notes, "lint": notes is not None,
    }


def _embed(data: dict) -> str:
    """JSON inside <script type="application/json">: nothing in it may close the element or open a comment."""
    s = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    return s.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026") \
        .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def render(data: dict) -> str:
    """The page: the template with the data embedded (no external resource)."""
    from html import escape
    page = TEMPLATE.read_text()
    title = f"{Path(data['file']).name} · {data['target']} · pylower explorer"
    return page.replace("{{TITLE}}", escape(title)).replace("{{DATA}}", _embed(data))


def page_data(html: str) -> dict:
    """The data a page embeds (the inverse of render)."""
    m = re.search(r'<script type="application/json" id="explorer-data">(.*?)</script>', html, re.S)
    if not m:
        raise ValueError("no explorer data in the page")
    return json.loads(m.group(1))


def validate(data: dict) -> list[str]:
    """Problems of a page's data (empty when every link resolves): every SASS instruction's PTX line, every
    note's line and every IR line's !line exist in the PTX; every family, origin and reason index is in
    its table; every phase's edits apply to the IR they edit; every EIATTR offset list names instructions of
    its kernel; every compared pylower row is a sync-family instruction of its kernel."""
    out = []
    nptx = len(data["ptx"])
    nstr = len(data["strings"])
    nfam = len(data["families"])
    names = [k["name"] for k in data["kernels"]]
    if len(set(names)) != len(names):
        out.append(f"kernel names repeat: {names}")
    nphase = len(data["phases"])
    for k in data["kernels"]:
        name = k["name"]
        instrs = k["instrs"]
        offsets = {r[0] for r in instrs}
        end = (instrs[-1][0] + 16) if instrs else 0
        for i, r in enumerate(instrs):
            off, _g, _t, line, fam, origin, reason = r
            if not 0 <= line <= nptx:
                out.append(f"{name}: instruction {i} names PTX line {line} (the file has {nptx})")
            if not -1 <= fam < nfam or not -1 <= origin < nstr or not -1 <= reason < nstr:
                out.append(f"{name}: instruction {i} has an index out of its table")
            if (fam >= 0) != (i in set(k["sync"])):
                out.append(f"{name}: instruction {i}: family and sync list disagree")
        for key in ("labels", "symbols"):
            for i in k[key]:
                if not 0 <= int(i) < len(instrs):
                    out.append(f"{name}: {key[:-1]} at instruction {i} of {len(instrs)}")
        for attr, v in k["eiattr"].items():
            if attr.endswith("_OFFSETS") and isinstance(v, list):
                bad = [x for x in v if x not in offsets and x != end]
                if bad:
                    out.append(f"{name}: {attr} names offsets without an instruction: {[hex(x) for x in bad]}")
        if k["ir0"] is None and nphase:
            out.append(f"{name}: no IR before the phases")
        if k["ir0"] is not None:
            if len(k["ir_edits"]) != nphase:
                out.append(f"{name}: {len(k['ir_edits'])} IR edits for {nphase} phases")
            lines = list(k["ir0"])
            for p, ops in enumerate(k["ir_edits"]):
                last = 0
                for i1, i2, new in ops:
                    if not last <= i1 <= i2 <= len(lines):
                        out.append(f"{name}: phase {data['phases'][p]['number']}: edit {i1}:{i2} out of order")
                        break
                    last = i2
                else:
                    for i1, i2, new in reversed(ops):
                        lines[i1:i2] = new
                for ln in lines:
                    m = re.search(r"  !line=(\d+)", ln)
                    if m and int(m.group(1)) > nptx:
                        out.append(f"{name}: IR line names PTX line {m.group(1)}: {ln.strip()}")
                        break
    for n in data["notes"]:
        if not 0 <= n["line"] <= nptx:
            out.append(f"note at line {n['line']} (the file has {nptx})")
    cmp = data.get("compare")
    if cmp:
        by = {k["name"]: k for k in data["kernels"]}
        for name, c in cmp["kernels"].items():
            k = by.get(name)
            listing = len(c.get("ptxas_listing") or [])
            for r in c["rows"]:
                mark, a, b, idx, _line, where = r
                if b and (k is None or idx not in set(k["sync"])):
                    out.append(f"{name}: compared row '{b}' names instruction {idx}, not a sync-family one")
                if where >= listing:
                    out.append(f"{name}: compared row '{a}' names ptxas listing line {where} of {listing}")
                if mark not in "=!-+" or (mark == "=" and a != b):
                    out.append(f"{name}: compared row {r} is marked wrongly")
    return out


def write_page(out: Path, data: dict) -> int:
    """Write the page; returns its size in bytes."""
    from pylower.tools.pylower import _write_atomic
    html = render(data)
    _write_atomic(Path(out), html)
    return len(html.encode())


def write_from_cli(out: Path, path: Path, text: str, target: str, opt_level: int, knobs: dict, options: dict,
                   disabled, compare: bool) -> int:
    """`pylower k.ptx --html out.html [--compare-ptxas]`: ptxas's data from a run now (--compare-ptxas; the stored
    reference when ptxas is missing and there is one), else from the stored reference of a corpus file when
    there is one. The checker's findings (pylower.lint) are the page's notes when it is installed. Returns the
    page's size."""
    from pylower.tools import ptxas_ref
    ptxas = None
    if compare and ptxas_ref.have_ptxas():
        ptxas = live_ptxas(text, target, opt_level, options)
    else:
        ptxas = stored_ptxas(path, text, target, opt_level, options)
        if compare and ptxas is None:
            from pylower.tools.compare import INSTALL
            raise PtxError(INSTALL, 0, 0, str(path))
    data = explore(text, str(path), target, opt_level, knobs, options, disabled, ptxas,
                   lint_findings(text, str(path), target))
    return write_page(out, data)
