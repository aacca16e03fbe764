"""What the checks read: the module (PTX -> Ori IR through the compiler's own parser and builder, before any
phase runs), source positions, and per function its registers, constants, addresses, control structure and
thread dependence. Everything is computed once, on first use."""
from __future__ import annotations

import re

from pylower.lowering import build, parser
from pylower.lowering import ptx_ast as A
from pylower.lowering.ops import is_aligned_cta_barrier, is_cta_barrier
from pylower.lowering.target import Target, parse_target
from pylower.passes.analysis.manager import Analyses

from . import threads as T
from .control import Control, noreturn_functions
from .source import Locator
from .tid_window import TidWindows
from .values import Registers, Values

_TARGET_RE = re.compile(r"^\s*\.target\s+(\w+)", re.M)


def module_target(text: str) -> str | None:
    m = _TARGET_RE.search(text)
    return m.group(1) if m else None


def _dims(text: str) -> tuple[int, int, int] | None:
    try:
        v = [int(x.strip(), 0) for x in text.split(",") if x.strip()]
    except ValueError:
        return None
    if not v:
        return None
    return tuple((v + [1, 1])[:3])


class ModuleFacts:
    def __init__(self, text: str, file: str, arch: str | Target | None = None):
        self.text, self.file = text, file
        ast = parser.parse(text, file)
        if arch is None:
            arch = module_target(text) or "sm_75"
        self.target = arch if isinstance(arch, Target) else parse_target(arch)
        self.module = build.build(ast, self.target)
        self.locator = Locator(text)
        self.shared: set[str] = set()
        for g in self.module.globals:
            if isinstance(g, A.VarDecl) and g.space == ".shared":
                self.shared.add(g.name)
        for fn in self.module.functions:
            for d in fn.decls:
                if isinstance(d, A.VarDecl) and d.space == ".shared":
                    self.shared.add(d.name)
            self.locator.index_function(fn)
        self.noreturn = noreturn_functions(self.module)
        self.by_name = {f.name: f for f in self.module.functions}
        self._facts: dict[str, FunctionFacts] = {}
        self._busy: set[str] = set()

    def functions(self):
        return self.module.functions

    def kernels(self):
        return [f for f in self.module.functions if f.is_entry]

    def facts(self, fn) -> "FunctionFacts":
        got = self._facts.get(fn.name)
        if got is None:
            self._busy.add(fn.name)
            got = self._facts[fn.name] = FunctionFacts(self, fn)
            self._busy.discard(fn.name)
        return got

    def callee_facts(self, name: str) -> "FunctionFacts | None":
        fn = self.by_name.get(name)
        if fn is None or name in self._busy:
            return None
        return self.facts(fn)

    def reachable(self, fn) -> list:
        """fn and every function it calls (transitively) that has a body here."""
        out, seen, work = [], {fn.name}, [fn]
        while work:
            f = work.pop()
            out.append(f)
            for c in f.callees:
                g = self.by_name.get(c)
                if g is not None and c not in seen:
                    seen.add(c)
                    work.append(g)
        return out

    def col(self, ins) -> int:
        return self.locator.col(ins)


class FunctionFacts:
    def __init__(self, mf: ModuleFacts, fn):
        self.m, self.fn = mf, fn
        self.blocks = {b.label: b for b in fn.blocks}
        self.am = Analyses(fn, mf.module)
        self.block_of: dict[int, str] = {}
        for b in fn.blocks:
            for ins in b.instrs:
                self.block_of[id(ins)] = b.label
        self.dims = self._dims()
        self.regs = Registers(fn)
        self.values = Values(fn, self.regs, mf.shared, self._sreg_range)
        self.control = Control(fn, mf.noreturn, self.blocks)
        self._calls = self._call_returns()
        self.threads = T.Threads(self)
        self.tid_windows = TidWindows(self)

    # ------------------------------------------------------------------ block size
    def _dims(self):
        req = mx = None
        for d in self.fn.decl.perf:
            if d.name == ".reqntid":
                req = _dims(d.text)
            elif d.name == ".maxntid":
                mx = _dims(d.text)
        self.reqntid, self.maxntid = req, mx
        return req

    def _sreg_range(self, name: str):
        """Bounds of a special register: the block's extents (`.reqntid` gives each; `.maxntid` only bounds
        their product, as nvcc's __launch_bounds__ writes it)."""
        req, total = self.reqntid, self.max_threads()
        if name.startswith(("%tid.", "%ntid.")) and name[-1] in "xyz":
            i = "xyz".index(name[-1])
            n = req[i] if req else min(total or 1024, (1024, 1024, 64)[i])
            return (0, n - 1) if name.startswith("%tid.") else (1, n)
        if name == "%laneid":
            return (0, 31)
        if name == "%warpid":
            return (0, 63)
        return None

    def max_threads(self) -> int | None:
        """The most threads a CTA of this kernel can have (.reqntid, else .maxntid)."""
        d = self.reqntid or self.maxntid
        return d[0] * d[1] * d[2] if d else None

    def sreg_levels(self):
        req = self.reqntid

        def level(name: str):
            if name == "%tid.x":
                return T.V(T.ALL_LANES, 1, 5, 0)
            if name == "%laneid":
                return T.V(T.ALL_LANES, 0, 5, 0)
            if name in ("%tid.y", "%tid.z"):
                # the lanes of a warp share %tid.y when the x extent is a multiple of 32; with no `.reqntid`
                # the block shape is the launch's: taken as warp-aligned (precision first)
                if req:
                    span = req[0] if name == "%tid.y" else req[0] * req[1]
                    return T.W if span % 32 == 0 else T.L
                return T.W
            if name.startswith("%lanemask"):
                return T.LO
            if name.startswith(("%tid", "%clock", "%globaltimer", "%pm")):
                return T.L
            if name == "%warpid":
                return T.W
            if name.startswith("%ntid"):
                # the block extent: a multiple of 32 in x when not declared (the assumption %tid.y makes)
                if req:
                    return T.V(0, 0, T.align_of(req["xyz".index(name[-1])]))
                return T.V(0, 0, 5) if name == "%ntid.x" else T.U
            return T.U
        return level

    # ------------------------------------------------------------------ calls
    def _call_returns(self) -> dict[str, object]:
        """The call instruction whose return list names each local .param symbol."""
        out = {}
        for b in self.fn.blocks:
            for ins in b.instrs:
                if ins.opcode == "call" and ins.operands and type(ins.operands[0]) is A.Paren:
                    for o in ins.operands[0].items:
                        if type(o) is A.Sym:
                            out[o.name] = ins
        return out

    def callee(self, ins) -> str | None:
        if ins.opcode != "call":
            return None
        return next((o.name for o in ins.operands if type(o) is A.Sym and o.name not in self._calls), None)

    def param_level(self, sym: str, th) -> tuple:
        """The dependence of a value read from a .param symbol: kernel and function parameters are taken as
        uniform; a call's return value as its callee computes it (and what the call passes in)."""
        if any(p.name == sym for p in self.fn.decl.params + self.fn.decl.rets):
            return T.U
        v = th.param_store_level(sym)
        call = self._calls.get(sym)
        if call is not None:
            for o in call.operands[2:] if len(call.operands) > 2 else ():
                if type(o) is A.Paren:
                    for a in o.items:
                        if type(a) is A.Sym:
                            v = T.join(v, th.param_store_level(a.name))
            name = next((o.name for o in call.operands if type(o) is A.Sym and o.name not in self._calls), None)
            g = self.m.callee_facts(name) if name else None
            if g is not None:
                for p in g.fn.decl.rets:
                    v = T.join(v, g.threads.param_store_level(p.name))
        return v.flat()

    # ------------------------------------------------------------------ execution
    def execution(self, ins):
        """Who runs `ins`: (level, decider) where level is the highest thread dependence among the branches
        that decide whether its block runs and its own guard, and decider the nearest such branch block
        (or the instruction itself for its guard). A branch edge on which every lane of the warp is known
        to be present (`activemask == 0xffffffff`) hides the branches above it."""
        label = self.block_of[id(ins)]
        th = self.threads
        best, who = T.UNIFORM, None
        g = th.guard_level(ins)
        if g > best:
            best, who = g, ins
        if not self.control.live(label):
            return best, who
        full = self.full_warp_edges()
        seen, frontier = set(), [label]
        while frontier:
            nxt = []
            for x in frontier:
                for a, s in self.control.cd_edges.get(x, ()):
                    if (a, s) in full or a in seen:
                        continue
                    seen.add(a)
                    lv = th.branch_level(a)
                    if lv == T.LANE and not self.tid_windows.splits_here(a, label):
                        lv = T.WARP         # a thread-index test that splits no warp arriving here
                    if lv is not None and lv > best:
                        best, who = lv, a
                    nxt.append(a)
            frontier = nxt
        return best, who

    def full_warp_edges(self) -> set:
        """Branch edges taken only when every lane of the warp is present: a branch on `m == 0xffffffff`
        where m is a lane mask a warp collective computed (activemask, match.any.sync, vote.sync.ballot),
        or on the result of vote.sync.all."""
        got = getattr(self, "_full", None)
        if got is not None:
            return got
        out = set()
        for a, ss in self.control.succ.items():
            br = self.branch_instr(a)
            if br is None or br.opcode != "bra" or br.guard is None or len(set(ss)) != 2:
                continue
            g = br.guard
            neg = type(g) is A.Not
            p = g.inner if neg else g
            d = self.single_def(p)
            if d is None:
                continue
            holds = None           # does the predicate being true mean "all lanes present"?
            if d.opcode == "setp" and any(m in d.mods for m in (".eq", ".ne")):
                srcs = self.regs.sources(d)
                if len(srcs) == 2:
                    for x, y in ((srcs[0], srcs[1]), (srcs[1], srcs[0])):
                        if self.values.const(y) is not None and self.values.const(y) & 0xFFFFFFFF == 0xFFFFFFFF \
                                and self._is_lane_mask(x):
                            holds = ".eq" in d.mods
            elif d.opcode == "vote" and ".all" in d.mods:
                holds = True
            if holds is None:
                holds = self._popc_full(p)
            if holds is None:
                continue
            target = next((o.name for o in br.operands if type(o) is A.Sym), None)
            taken = holds != neg
            for s in ss:
                if (s == target) == taken:
                    out.add((a, s))
        self._full = out
        return out

    def single_def(self, o):
        if type(o) not in (A.Reg, A.Sym):
            return None
        ds = self.values.defs.get(o.name, ())
        return ds[0] if len(ds) == 1 else None

    def _is_lane_mask(self, o, depth: int = 0) -> bool:
        """Is `o` a set of lanes that are present: the result of activemask, match.any.sync or
        vote.sync.ballot, or a subset of one (`and` with it)? Every write of a register must be one."""
        if depth > 8 or type(o) not in (A.Reg, A.Sym):
            return False
        ds = self.values.defs.get(o.name, ())
        if not ds:
            return False
        for d in ds:
            srcs = self.regs.sources(d)
            if d.opcode == "mov" and len(srcs) == 1:
                ok = self._is_lane_mask(srcs[0], depth + 1)
            elif d.opcode == "and" and len(srcs) == 2:
                # a subset of a lane mask (the register itself counts: its other writes are checked too)
                ok = any(type(s) in (A.Reg, A.Sym) and (s.name == o.name or self._is_lane_mask(s, depth + 1))
                         for s in srcs)
            else:
                ok = d.opcode == "activemask" or d.opcode == "match" and ".any" in d.mods \
                    or d.opcode == "vote" and ".ballot" in d.mods
            if not ok:
                return False
        return True

    def _popc_full(self, p):
        """Does predicate p depend only on the number of present lanes n = popc(mask) (mask a lane mask), and
        hold for n = 32 alone? Evaluated for every n (cooperative groups' `size() == 32` tests)."""
        if not self._counts_lanes(p):
            return None
        results = []
        self._memo = {}
        for n in range(33):
            v = self._eval(p, n, 0)
            if v is None:
                return None
            results.append(bool(v))
        if results[32] and not any(results[:32]):
            return True
        if not results[32] and all(results[:32]):
            return False
        return None

    _EVAL = {"add": lambda a, b: a + b, "sub": lambda a, b: a - b, "mul": lambda a, b: a * b,
             "shl": lambda a, b: a << b, "shr": lambda a, b: a >> b, "and": lambda a, b: a & b,
             "or": lambda a, b: a | b, "xor": lambda a, b: a ^ b}
    _CMPS = {".eq": lambda a, b: a == b, ".ne": lambda a, b: a != b, ".lt": lambda a, b: a < b,
             ".le": lambda a, b: a <= b, ".gt": lambda a, b: a > b, ".ge": lambda a, b: a >= b,
             ".lo": lambda a, b: a < b, ".ls": lambda a, b: a <= b, ".hi": lambda a, b: a > b,
             ".hs": lambda a, b: a >= b}

    def _counts_lanes(self, p) -> bool:
        """Does p's computation (within a few steps) count the lanes of a lane mask (popc)?"""
        seen, work = set(), [(p, 0)]
        while work:
            o, depth = work.pop()
            if type(o) not in (A.Reg, A.Sym) or o.name in seen or depth > 12:
                continue
            seen.add(o.name)
            for d in self.values.defs.get(o.name, ()):
                srcs = self.regs.sources(d)
                if d.opcode == "popc" and srcs and self._is_lane_mask(srcs[0]):
                    return True
                work.extend((s, depth + 1) for s in srcs)
        return False

    def _eval(self, o, n: int, depth: int):
        """The value of `o` when the lane mask it is computed from has n lanes (None: not such a value)."""
        c = self.values.const(o)
        if c is not None:
            return c
        if depth > 12 or type(o) not in (A.Reg, A.Sym):
            return None
        key = (o.name, n)
        if key in self._memo:
            return self._memo[key]
        self._memo[key] = None
        ds = self.values.defs.get(o.name, ())
        if not ds or len(ds) > 4:
            return None
        got = {self._eval_def(d, n, depth) for d in ds}
        v = got.pop() if len(got) == 1 else None
        self._memo[key] = v
        return v

    def _eval_def(self, d, n: int, depth: int):
        if d.guard is not None:
            return None
        srcs = self.regs.sources(d)
        if d.opcode == "popc" and len(srcs) == 1 and self._is_lane_mask(srcs[0]):
            return n
        args = [self._eval(s, n, depth + 1) for s in srcs]
        if any(a is None for a in args):
            return None
        if d.opcode in ("mov", "cvt") and len(args) == 1:
            return args[0]
        if d.opcode in self._EVAL and len(args) == 2:
            return self._EVAL[d.opcode](args[0], args[1]) & 0xFFFFFFFFFFFFFFFF
        if d.opcode == "setp" and len(args) == 2:
            cmp = next((m for m in d.mods if m in self._CMPS), None)
            return None if cmp is None else self._CMPS[cmp](args[0], args[1])
        if d.opcode == "selp" and len(args) == 3:
            return args[0] if args[2] else args[1]
        return None

    def branch_instr(self, label: str):
        b = self.blocks[label]
        return b.instrs[-1] if b.instrs else None

    # ------------------------------------------------------------------ provenance
    def origin(self, o, want: int, at=None) -> tuple[str, object]:
        """Why operand `o` (read by instruction `at`) has dependence `want`: a short description of where it
        comes from and the instruction that introduced it (None for a special register)."""
        th, regs = self.threads, self.regs
        seen = set()
        cur, where = o, at
        for _ in range(64):
            names: list = []
            regs.collect(cur, names)
            name = next((n for n in names if th.report(th.reg(n, where)) >= want), None)
            if name is None:
                return ("", None)
            if name not in self.values.defs:
                return (name, None)
            if (name, id(where)) in seen:
                return (name, None)
            seen.add((name, id(where)))
            if name in th.multi and where is not None and (id(where), name) in th.reach:
                ds = [th.dlist[k][0] for k in th.reach[(id(where), name)]]
            else:
                ds = self.values.defs[name]
            d = next((d for d in ds if th.report(th.def_value(d, name)) >= want), None)
            if d is None:
                # the writes are not thread-dependent themselves: the branch choosing between them is
                d = ds[-1] if ds else None
                return (f"`{name}`, written under thread-dependent control flow", d)
            srcs = [s for s in regs.sources(d) if th.level_of(s, d) >= want]
            if d.opcode in ("ld", "ldu") and ".param" not in d.mods:
                return (f"a load through a thread-dependent address (line {d.line})", d)
            if not srcs:
                return (f"`{d.name}` at line {d.line}", d)
            cur, where = srcs[0], d
        return ("", None)

    # ------------------------------------------------------------------ barriers
    def is_aligned_barrier(self, ins) -> bool:
        return is_aligned_cta_barrier(ins) or (ins.opcode == "barrier" and ins.attrs.cluster != ""
                                               and ".aligned" in ins.mods)

    def is_cta_barrier(self, ins) -> bool:
        return is_cta_barrier(ins)
