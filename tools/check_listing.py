"""The closing checker of a SASS listing: can a person follow it?

    python -m pylower.tools.check_listing                      # whole corpus, every default target
    python -m pylower.tools.check_listing nvcc llvm --targets sm_90 -v
    python -m pylower.tools.check_listing --sample 8           # every 8th (file, target) case
    python -m pylower.tools.check_listing --listing out.sass   # a listing written earlier

For each listing (pylower's printed text, or any nvdisasm-style text) it counts:
- undefined targets: a branch, convergence or call operand (`BRA`, `BRA.DIV`, `BSSY`, `WARPSYNC.COLLECTIVE`,
  `CALL`, ...) that names no label or function defined in the file, or names none at all;
- duplicate labels: a label defined twice in the file (nvdisasm numbers `.L_x_N` across the whole file);
- placeholder operands: an operand that is no register, immediate, constant-bank operand, special register,
  label or known symbol (`R_old`, `UR_mbar`, `U%r22`, a bare `p`);
- reads without writer: a register read in a function (its copied callees included) that no instruction of
  that function writes and that is no parameter of it. Registers are compared by name, flow-insensitively.
For a compiled corpus case it also counts, from the instructions themselves (not checkable from text alone):
- instructions without a PTX line (what `-g` prints and the explorer links);
- inserted instructions without a reason: a phase or ISel made it (`--explain` names the origin) but gives no
  one-line reason.
Exit status 1 when anything was found. tests/test_check_listing.py runs it in-process over a sample of the
corpus at every default target on each run.
"""
from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from pylower.tools.pool import map_jobs

CATEGORIES = ("undefined targets", "duplicate labels", "placeholder operands", "reads without writer",
              "instructions without a PTX line", "inserted instructions without a reason")

_INSTR = re.compile(r"^\s+/\*[0-9a-f]+\*/\s*(?P<body>.*?)\s*;\s*(?://.*)?$")
_LABEL = re.compile(r"^(?P<name>[^\s/#][^\s:]*):$")
_SECTION = re.compile(r"^\s*\.section\s+\.text\.(?P<name>[^,\s]+)")
_REF = re.compile(r"`\((?P<name>[^)]*)\)")

# Opcodes that transfer control to a label operand (the last operand, printed `(label)).
_JUMPS = {"BRA", "BRX", "JMP", "CALL", "BSSY", "JMX", "BPT"}
_NEEDS_TARGET = {"BRA", "BSSY", "CALL"}
# Opcodes with no register destination: every register operand is read.
_NO_DEST = {
    "ST", "STG", "STS", "STL", "STAS", "STSM", "RED", "REDG", "REDAS", "BAR", "BRA", "BRX", "JMP", "CALL", "RET", "EXIT",
    "BSYNC", "BREAK", "WARPSYNC", "MEMBAR", "FENCE", "ERRBAR", "CGAERRBAR", "CCTL", "NOP", "BPT", "DEPBAR",
    "LDGDEPBAR", "LDGSTS", "ARRIVES", "NANOSLEEP", "YIELD", "UBLKCP", "UBLKRED", "UBLKPF", "UTMALDG", "UTMASTG",
    "UTMAPF", "UTMAREDG", "UTMACMDFLUSH", "UTMACCTL", "ACQBULK", "ACQSHMINIT", "PREEXIT", "UCGABAR_ARV",
    "UCGABAR_WAIT", "CGABAR_ARV", "CGABAR_WAIT", "ENDCOLLECTIVE", "KILL", "SUST", "SURED", "PMTRIG", "UREDGR",
    "R2B", "STTM",
}
# Leading operands that are written (default 1): set-predicate forms write two predicates, SHFL a predicate
# and a register, VOTE a register and a predicate, carry-out adds a register and carry predicates.
_DESTS = {"ISETP": 2, "FSETP": 2, "DSETP": 2, "HSETP2": 2, "PLOP3": 2, "UISETP": 2, "UPLOP3": 2, "SHFL": 2,
          "VOTE": 2, "VOTEU": 2, "ELECT": 2, "R2UR": 2, "LEA": 2, "ULEA": 2, "IADD3": 3, "UIADD3": 3,
          "MATCH": 2, "ULOP3": 2, "LOP3": 2, "R2P": 1, "BMOV": 1, "SYNCS": 1, "ATOM": 2, "ATOMG": 2, "ATOMS": 1,
          "F2I": 1, "I2F": 1, "FMNMX": 1, "REDUX": 1, "CREDUX": 2, "UFLO": 1, "POPC": 1,
          "B2R": 2}

# forms whose leading predicate result is followed by a register result: SHFL PT, R, ...; ATOM P0, R, [...]
_PRED_FIRST = {"SHFL", "ATOM", "ATOMG", "R2UR", "ELECT"}
_PRED = re.compile(r"^!?(?:P\d|PT|UP\d|UPT|%p\w*|%tp\d+|%utp\d+)$")


def _is_pred(a: str) -> bool:
    return bool(_PRED.match(a))


_REG = re.compile(r"^(?:%[A-Za-z_$][\w$]*|R\d+|UR\d+|P\d|UP\d|B\d+)$")
_CONST = re.compile(r"^(?:RZ|URZ|PT|UPT|SR_\w+(?:\.\w+)?|SB\d|0x[0-9a-fA-F]+|\d+|0[fFdD][0-9A-Fa-f]+|\d+\.\d+(?:e[+-]?\d+)?"
                    r"|[+-]?INF|[+-]?QNAN|NAN|UPR|PR|0b[01]+)$")
_PLACEHOLDER = re.compile(r"^(?:U?R_\w+|U?P_\w+|U%\w+|B_\w+|\$?L__BB\w+|\$__\w+|\$\w+)$")
_SYMBOL = re.compile(r"^[A-Za-z_$][\w$.]*$")
_SUFFIX = re.compile(r"\.(?:64|128|B\d|H[01]|F32|X\d|reuse|U32|S32)$")


@dataclass
class Report:
    counts: Counter = field(default_factory=Counter)
    examples: dict = field(default_factory=dict)         # category -> list of "where: text"
    listings: int = 0

    def add(self, cat: str, where: str, n: int = 1, keep: int = 5) -> None:
        self.counts[cat] += n
        ex = self.examples.setdefault(cat, [])
        if len(ex) < keep:
            ex.append(where)

    def merge(self, other: "Report", keep: int = 5) -> None:
        self.listings += other.listings
        self.counts.update(other.counts)
        for cat, ex in other.examples.items():
            mine = self.examples.setdefault(cat, [])
            mine.extend(ex[:max(0, keep - len(mine))])

    @property
    def ok(self) -> bool:
        return not any(self.counts[c] for c in CATEGORIES)

    def summary(self) -> str:
        return ", ".join(f"{self.counts[c]} {c}" for c in CATEGORIES) + f" ({self.listings} listings)"


def split_operands(text: str) -> list[str]:
    """Split an operand list at top-level commas (brackets, braces and parentheses nest)."""
    out, depth, cur = [], 0, []
    for ch in text:
        if ch in "[{(":
            depth += 1
        elif ch in "]})":
            depth -= 1
        if ch == "," and depth == 0:
            out.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    if "".join(cur).strip():
        out.append("".join(cur).strip())
    return out


def parse_instr(body: str) -> tuple[str, str, list[str]]:
    """'@!P0 ISETP.GE.AND P0, PT, %r1, 0x3, PT' -> (guard, mnemonic, operands). A label operand may follow
    the last operand without a comma (`RET.REL.NODEC R4 `(k)`)."""
    guard = ""
    if body.startswith("@"):
        guard, _, body = body.partition(" ")
    mnem, _, rest = body.partition(" ")
    return guard, mnem, split_operands(rest)


def _atoms(operand: str) -> list[str]:
    """The register/constant/symbol atoms of one printed operand."""
    if operand.startswith("c[") or operand.startswith("-c[") or operand.startswith("|c["):
        return []
    out = []
    for m in _REF.finditer(operand):
        out.append("`" + m.group("name"))
    operand = _REF.sub(" ", operand).replace("desc[", "[").replace("tmem[", "[")    # STTM/LDTM tmem[UR]
    for t in re.split(r"[\s,\[\]{}()+|~!]+|(?<=\w)-|^-", operand):
        t = t.strip()
        if not t:
            continue
        if t.startswith("-"):
            t = t[1:]
        t = _SUFFIX.sub("", t)
        if t:
            out.append(t)
    return out


@dataclass
class _Function:
    name: str
    labels: set = field(default_factory=set)
    instrs: list = field(default_factory=list)     # (guard, mnemonic, operands, line)


def parse_listing(text: str) -> tuple[list[_Function], list[str]]:
    """Sections (functions) with their instructions; every label defined, in file order."""
    fns: list[_Function] = []
    labels: list[str] = []
    cur = None
    for line in text.splitlines():
        m = _SECTION.match(line)
        if m:
            cur = _Function(m.group("name"))
            fns.append(cur)
            continue
        m = _LABEL.match(line)
        if m:
            labels.append(m.group("name"))
            if cur is not None:
                cur.labels.add(m.group("name"))
            continue
        m = _INSTR.match(line)
        if m and cur is not None:
            cur.instrs.append(parse_instr(m.group("body")) + (line.strip(),))
    return fns, labels


def check_listing(text: str, where: str = "", symbols: set | None = None, params: dict | None = None,
                  regs: set | None = None) -> Report:
    """Check one printed listing. `symbols`: names that may appear bare (variables, parameters, functions of
    the module); `params`: function -> register names it receives as parameters; `regs`: registers the PTX
    declares without a `%` (`.reg .pred p;` in inline assembly), checked like the others."""
    regs = regs or set()
    rep = Report(listings=1)
    fns, labels = parse_listing(text)
    defined = set(labels)
    for name, n in Counter(labels).items():
        if n > 1 and not name.startswith(".text."):
            rep.add("duplicate labels", f"{where}: {name} defined {n} times", n - 1)
    known = set(symbols or ()) | defined | {f.name for f in fns}
    for fn in fns:
        writes: set[str] = set((params or {}).get(fn.name, ()))
        reads: list[tuple[str, str]] = []
        for guard, mnem, ops, line in fn.instrs:
            base = mnem.split(".", 1)[0]
            refs = [m.group("name") for o in ops for m in _REF.finditer(o)]
            for r in refs:
                if base == "CALL" and not r.startswith(".L"):
                    continue                  # a function symbol: defined here or resolved by the linker (-c)
                if r not in defined and r not in known:
                    rep.add("undefined targets", f"{where}: {line}")
            if not refs and (base in _NEEDS_TARGET or mnem.startswith("WARPSYNC.COLLECTIVE")):
                if not (base == "CALL" and ops and ops[-1].lstrip("(").split(")")[0] in known):
                    if not (base == "BRA" and ops and _REG.match(_SUFFIX.sub("", ops[-1]))):
                        rep.add("undefined targets", f"{where}: {line}")
            if guard:
                g = guard[1:].lstrip("!")
                if _REG.match(g) or g in regs:
                    reads.append((g, line))
            ndest = 0 if base in _NO_DEST else _DESTS.get(base, 1)
            first_pred = base in _PRED_FIRST and bool(ops) and (_is_pred(ops[0]) or ops[0] in regs)
            for k, o in enumerate(ops):
                in_mem = "[" in o or o.startswith("{") and k >= ndest
                for a in _atoms(o):
                    if a.startswith("`"):
                        continue
                    if _REG.match(a) or a in regs:
                        # the first operand is written; the next ones of a multi-result form when they are
                        # predicates (carry-out, second predicate), or the register after a leading predicate
                        dest = k == 0 or k < ndest and (_is_pred(a) or k == 1 and first_pred)
                        if dest and not in_mem:
                            writes.add(a)
                        else:
                            reads.append((a, line))
                    elif _CONST.match(a):
                        continue
                    elif _PLACEHOLDER.match(a) or not _SYMBOL.match(a) or (symbols is not None and a not in known):
                        rep.add("placeholder operands", f"{where}: {a} in {line}")
        for reg, line in reads:
            if reg not in writes:
                rep.add("reads without writer", f"{where}: {reg} in {line}")
    return rep


# ---------------------------------------------------------------- the corpus

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "corpus"


def module_symbols(module) -> tuple[set, dict, set]:
    """Names a listing may print bare (module and function variables, parameters, functions), each
    function's register parameters, and the registers declared without a `%`."""
    from pylower.lowering import ptx_ast as A
    syms: set[str] = set()
    regs: set[str] = set()
    params: dict[str, set] = {}
    for g in module.globals:
        if isinstance(g, A.VarDecl):
            syms.add(g.name)
    for f in module.functions:
        syms.add(f.name)
        ps = {p.name for p in list(f.decl.params) + list(f.decl.rets or ())}
        syms.update(ps)
        params[f.name] = {("%" + p) if not p.startswith("%") else p for p in ps} | ps
        for d in f.decls:
            if isinstance(d, A.VarDecl) and d.space != ".reg":
                syms.add(d.name)
            elif isinstance(d, A.VarDecl) and not d.name.startswith("%"):
                regs.add(d.name)
    from pylower.passes.analysis.defuse import defs, uses
    for f in module.functions:          # registers the PTX itself reads without ever writing them
        written = {r for i in f.instructions() for r in defs(i)}
        params[f.name] |= {r for i in f.instructions() for r in uses(i) if r not in written}
    for f in module.functions:          # a kernel's copies of its callees are checked within the kernel
        for c in f.callees:
            params[f.name] |= params.get(c, set())
    return syms, params, regs


def check_case(text: str, rel: str, target: str, extra: list[str] | None = None) -> Report | None:
    """Compile one corpus file for one target (its //@ args) and check the listing; None when rejected."""
    from pylower.lowering.diagnostics import PtxError
    from pylower.pipeline import compile_text
    from pylower.sass.printer import print_program
    from pylower.tools import ptxas_options
    from pylower.tools.ptxas_ref import file_args, retarget
    try:
        opt, options = ptxas_options.parse(file_args(text) + list(extra or []))
        res = compile_text(retarget(text, target), rel, target, opt_level=opt, options=options)
    except (PtxError, RecursionError):
        return None
    syms, params, regs = module_symbols(res.module)
    where = f"{rel} [{target}]"
    rep = check_listing(print_program(res.program), where, syms, params, regs)
    check_provenance(res.program, where, rep)
    return rep


def check_provenance(program, where: str, rep: Report) -> None:
    """Count instructions of a compiled program without a PTX line or, when inserted, without a reason."""
    for fn in program.functions:
        for ins in fn.instrs:
            if not ins.line:
                rep.add("instructions without a PTX line", f"{where} {fn.name}: {ins.text()}")
            if ins.origin and not ins.reason:
                rep.add("inserted instructions without a reason", f"{where} {fn.name}: {ins.text()} ({ins.origin})")


def corpus_cases(paths: list[str] | None = None, targets=None, sample: int = 1, offset: int = 0):
    """(file, target) pairs: every corpus file at every target, or every `sample`-th pair from `offset`."""
    from pylower.lowering.target import DEFAULT_REFERENCE_TARGETS
    targets = list(targets or DEFAULT_REFERENCE_TARGETS)
    files = sorted(CORPUS.rglob("*.ptx"))
    if paths:
        files = [f for f in files if any(p in str(f.relative_to(CORPUS)) for p in paths)]
    pairs = [(f, t) for f in files for t in targets]
    return pairs[offset::sample] if sample > 1 else pairs


def _check_pair(pair) -> Report:
    f, t = pair
    r = check_case(f.read_text(), str(f.relative_to(CORPUS)), t)
    return r if r is not None else Report()


def check_corpus(paths=None, targets=None, sample: int = 1, offset: int = 0, jobs: int = 1) -> Report:
    total = Report()
    pairs = corpus_cases(paths, targets, sample, offset)
    for r in map_jobs(_check_pair, pairs, jobs, chunksize=16):
        total.merge(r)
    return total


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="check_listing", description=__doc__.split("\n\n")[0])
    ap.add_argument("paths", nargs="*", help="corpus path filters (e.g. nvcc, probes/atomic)")
    ap.add_argument("--targets", help="comma-separated (default: every default reference target)")
    ap.add_argument("--sample", type=int, default=1, help="check every N-th (file, target) case")
    ap.add_argument("--offset", type=int, default=0)
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--listing", action="append", default=[], help="check a listing file instead")
    ap.add_argument("-v", "--verbose", action="store_true", help="show up to 5 examples per category")
    a = ap.parse_args(argv)
    if a.listing:
        rep = Report()
        for p in a.listing:
            rep.merge(check_listing(Path(p).read_text(), p))
    else:
        rep = check_corpus(a.paths, a.targets.split(",") if a.targets else None, a.sample, a.offset, a.jobs)
    print(rep.summary())
    if a.verbose:
        for cat in CATEGORIES:
            for ex in rep.examples.get(cat, []):
                print(f"  {cat}: {ex}")
    return 0 if rep.ok else 1


if __name__ == "__main__":
    sys.exit(main())
