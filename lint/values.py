"""Registers, constants and addresses of one function, as the checks need them.

- Registers include names declared without `%` in inline-asm scopes (`.reg .pred P1;`), which the parser
  keeps as symbols.
- Constants: registers whose every definition computes the same compile-time value (mov of an immediate,
  arithmetic of constants), as nvcc and LLVM keep barrier ids, thread counts and member masks in registers.
- Addresses: a register or memory operand as (base, offset): base is the variable it points into (a
  `.shared` array, the extern dynamic shared memory, a parameter) and offset a constant byte offset, or None
  when it varies (a stage index, a thread index). Two addresses may be the same location unless their bases
  differ or both offsets are known and differ.
"""
from __future__ import annotations

from pylower.records import record

from pylower.lowering import ptx_ast as A
from pylower.passes.analysis.defuse import has_dest

M64 = (1 << 64) - 1


@record(frozen=True)
class Address:
    """A location in a variable: base + an offset known to lie in [lo, hi] (None: unbounded)."""
    base: str
    lo: int | None = 0
    hi: int | None = 0

    @property
    def offset(self) -> int | None:
        return self.lo if self.lo is not None and self.lo == self.hi else None

    def plus(self, k: int | None) -> "Address":
        if k is None or self.lo is None:
            return Address(self.base, None, None)
        return Address(self.base, self.lo + k, self.hi + k)

    def plus_range(self, r) -> "Address":
        if r is None or self.lo is None:
            return Address(self.base, None, None)
        return Address(self.base, self.lo + r[0], self.hi + r[1])

    def may_alias(self, other: "Address | None", size: int = 1, other_size: int | None = None) -> bool:
        """May an access of `size` bytes here touch the same bytes as one of `other_size` (default: the same)
        there?"""
        if other is None:
            return True
        if self.base != other.base:
            return False
        if self.lo is None or other.lo is None:
            return True
        return self.lo < other.hi + (size if other_size is None else other_size) and other.lo < self.hi + size

    def __str__(self) -> str:
        if self.lo is None:
            return f"{self.base}+?"
        if self.offset is None:
            return f"{self.base}+[{self.lo}..{self.hi}]"
        return self.base if self.offset == 0 else f"{self.base}+{self.offset}"


def may_alias(a: Address | None, b: Address | None, size: int = 1) -> bool:
    return a is None or a.may_alias(b, size)


def overlaps(a: Address | None, asize: int | None, b: Address | None, bsize: int | None) -> bool:
    """May [a, a + asize) and [b, b + bsize) share a byte? A size None reaches arbitrarily far; an address
    None may be anywhere."""
    if a is None or b is None:
        return True
    if a.base != b.base:
        return False
    if a.lo is None or b.lo is None:
        return True
    return (bsize is None or a.lo < b.hi + bsize) and (asize is None or b.lo < a.hi + asize)


class Registers:
    """Which operand names are registers, and the registers each instruction defines and reads."""

    def __init__(self, fn):
        names, prefixes = set(), set()
        for d in fn.decls:
            if isinstance(d, A.VarDecl) and d.space == ".reg":
                (prefixes if d.count is not None else names).add(d.name)
        for p in fn.decl.params + fn.decl.rets:
            if p.space == ".reg":
                names.add(p.name)
        self.names, self.prefixes = names, prefixes
        self._defs: dict[int, tuple] = {}
        self._uses: dict[int, tuple] = {}

    def is_reg(self, name: str) -> bool:
        if name.startswith("%") or name in self.names:
            return True
        if self.prefixes:
            base = name.rstrip("0123456789")
            return base != name and base in self.prefixes
        return False

    def collect(self, o, out: list) -> None:
        t = type(o)
        if t is A.Reg:
            out.append(o.name)
        elif t is A.Sym:
            if self.is_reg(o.name):
                out.append(o.name)
        elif t is A.Addr or t is A.Vec or t is A.Paren:
            for i in o.items:
                self.collect(i, out)
        elif t is A.Pair:
            self.collect(o.first, out)
            self.collect(o.second, out)
        elif t is A.Not or t is A.Neg:
            self.collect(o.inner, out)

    def _has_dest(self, ins) -> bool:
        return bool(ins.operands) and has_dest(ins) and type(ins.operands[0]) in (A.Reg, A.Sym, A.Pair, A.Vec)

    def defs(self, ins) -> tuple:
        got = self._defs.get(id(ins))
        if got is None:
            out: list = []
            if self._has_dest(ins):
                self.collect(ins.operands[0], out)
            got = self._defs[id(ins)] = tuple(r for r in out if not r.startswith(_SREG))
        return got

    def uses(self, ins) -> tuple:
        got = self._uses.get(id(ins))
        if got is None:
            out: list = []
            for o in (ins.operands[1:] if self._has_dest(ins) else ins.operands):
                self.collect(o, out)
            if ins.guard is not None:
                self.collect(ins.guard, out)
            got = self._uses[id(ins)] = tuple(out)
        return got

    def sources(self, ins) -> tuple:
        """The source operands (not the destination), in order."""
        return ins.operands[1:] if self._has_dest(ins) else ins.operands


_SREG = ("%tid", "%ntid", "%laneid", "%warpid", "%nwarpid", "%ctaid", "%nctaid", "%smid", "%nsmid", "%gridid",
         "%lanemask", "%clock", "%globaltimer", "%pm", "%envreg", "%cluster", "%nclusterid", "%is_explicit",
         "%total_smem", "%aggr_smem", "%dynamic_smem", "%reserved_smem", "%current_graph", "%warpsize")


def is_special(name: str) -> bool:
    return name.startswith(_SREG)


def _int(o, consts) -> int | None:
    t = type(o)
    if t is A.Imm:
        v = o.value
        return v if isinstance(v, int) else None
    if t is A.Reg or t is A.Sym:
        return consts.get(o.name)
    if t is A.Neg:
        v = _int(o.inner, consts)
        return None if v is None else -v
    return None


def _tz(c: int) -> int:
    c &= M64
    return 63 if c == 0 else (c & -c).bit_length() - 1


def _type_bits(mods) -> int:
    for m in reversed(mods):
        if len(m) > 2 and m[1] in "busf" and m[2:].isdigit():
            return int(m[2:])
    return 64


_BINOPS = {
    "add": lambda a, b: a + b, "sub": lambda a, b: a - b, "mul": lambda a, b: a * b,
    "shl": lambda a, b: a << b if b < 64 else 0, "shr": lambda a, b: a >> b if b < 64 else 0,
    "and": lambda a, b: a & b, "or": lambda a, b: a | b, "xor": lambda a, b: a ^ b,
    "div": lambda a, b: a // b if b else None, "rem": lambda a, b: a % b if b else None,
    "min": min, "max": max,
}


class Values:
    """Constants and addresses of one function's registers (flow-insensitive: every definition must agree)."""

    def __init__(self, fn, regs: Registers, shared_symbols: set[str], sreg_ranges=None):
        self.fn, self.regs = fn, regs
        self._sreg_ranges = sreg_ranges or (lambda name: None)
        self._ranges: dict[str, tuple | None] = {}
        self._final: set[str] = set()
        self.shared_symbols = shared_symbols
        self.defs: dict[str, list] = {}
        for b in fn.blocks:
            for ins in b.instrs:
                for r in regs.defs(ins):
                    self.defs.setdefault(r, []).append(ins)
        self.consts: dict[str, int] = {}
        self._constants()
        self._addr: dict[str, Address | None] = {}

    # ------------------------------------------------------------------ constants
    def _constants(self) -> None:
        consts = self.consts
        changed = True
        while changed:
            changed = False
            for r, ds in self.defs.items():
                if r in consts:
                    continue
                vals = set()
                for d in ds:
                    v = self._const_of(d, r) if len(self.regs.defs(d)) == 1 else None
                    if v is None:
                        break
                    vals.add(v)
                else:
                    if len(vals) == 1:
                        consts[r] = vals.pop()
                        changed = True

    def _const_of(self, ins, r) -> int | None:
        op, srcs = ins.opcode, self.regs.sources(ins)
        if op in ("mov", "cvt") and len(srcs) == 1:
            return _int(srcs[0], self.consts)
        f = _BINOPS.get(op)
        if f is not None and len(srcs) == 2 and (op != "mul" or ".lo" in ins.mods or ".wide" not in ins.mods):
            a, b = _int(srcs[0], self.consts), _int(srcs[1], self.consts)
            if a is None or b is None:
                return None
            v = f(a, b)
            if v is None:
                return None
            bits = _type_bits(ins.mods)
            return v & ((1 << bits) - 1) if bits < 64 else v & M64
        return None

    def const(self, o) -> int | None:
        """The compile-time value of an operand (immediate or constant register), else None."""
        return _int(o, self.consts)

    # ------------------------------------------------------------------ addresses
    def address(self, o) -> Address | None:
        """What a memory operand [..] or an address register points to."""
        t = type(o)
        if t is A.Addr:
            if not o.items:
                return Address("<absolute>", o.offset, o.offset)
            base = self.address(o.items[0])
            if base is None:
                return None
            return base.plus(o.offset) if len(o.items) == 1 else Address(base.base, None, None)
        if t is A.Sym:
            if self.regs.is_reg(o.name):
                return self.reg_address(o.name)
            return Address(o.name)
        if t is A.Reg:
            return self.reg_address(o.name)
        if t is A.Expr:
            return None
        return None

    def reg_address(self, r: str) -> Address | None:
        if r in self._addr:
            return self._addr[r]
        self._addr[r] = None                      # cycles (loop-carried pointers) resolve to unknown offsets
        ds = self.defs.get(r, ())
        got: list[Address | None] = [self._addr_of(d) for d in ds] if ds else [None]
        if any(g is None for g in got):
            res = None
            bases = {g.base for g in got if g is not None}
            # a loop-carried pointer: p = base+k before the loop, p = p + step in it
            if len(bases) == 1 and all(g is not None or self._steps(d, r) for g, d in zip(got, ds)):
                res = Address(bases.pop(), None, None)
        elif len(set(got)) == 1:
            res = got[0]
        elif len({g.base for g in got}) == 1:
            lo = None if any(g.lo is None for g in got) else min(g.lo for g in got)
            hi = None if lo is None else max(g.hi for g in got)
            res = Address(got[0].base, lo, hi)
        else:
            res = None
        self._addr[r] = res
        return res

    def _steps(self, ins, r) -> bool:
        """`add r, r, x`: a pointer stepped from its own value."""
        srcs = self.regs.sources(ins)
        return ins.opcode in ("add", "sub") and any(type(s) in (A.Reg, A.Sym) and s.name == r for s in srcs)

    def _addr_of(self, ins) -> Address | None:
        op, srcs = ins.opcode, self.regs.sources(ins)
        if op == "mov" and len(srcs) == 1:
            s = srcs[0]
            if type(s) is A.Sym and not self.regs.is_reg(s.name):
                return Address(s.name)
            if type(s) in (A.Reg, A.Sym):
                return self.address(s)
            return None
        if op in ("cvta", "cvt", "mapa") and srcs:
            return self.address(srcs[0]) if type(srcs[0]) in (A.Reg, A.Sym) else None
        if op == "ld" and ".param" in ins.mods and srcs and type(srcs[0]) is A.Addr:
            a = self.address(srcs[0])
            return Address(f"*{a}") if a is not None and a.offset is not None else None
        if op in ("add", "sub") and len(srcs) == 2:
            for i, j in ((0, 1), (1, 0)):
                if op == "sub" and i == 1:
                    break
                s = srcs[i]
                if type(s) not in (A.Reg, A.Sym) or self.const(s) is not None:
                    continue
                a = self.address(s)
                if a is None:
                    continue
                k = self.const(srcs[j])
                if k is not None:
                    return a.plus(-k if op == "sub" else k)
                r = self.range(srcs[j])
                return a.plus_range(None if r is None else ((-r[1], -r[0]) if op == "sub" else r))
            return None
        if op == "mad" and len(srcs) == 3 and type(srcs[2]) in (A.Reg, A.Sym):
            a = self.address(srcs[2])
            if a is None:
                return None
            ra, rb = self.range(srcs[0]), self.range(srcs[1])
            return a.plus_range(None if ra is None or rb is None or ra[0] < 0 or rb[0] < 0
                                else (ra[0] * rb[0], ra[1] * rb[1]))
        return None

    # ------------------------------------------------------------------ ranges
    def range(self, o) -> tuple[int, int] | None:
        """[lo, hi] of an integer operand, None when unbounded: constants, special registers, arithmetic on
        bounded values, counters kept in range by a compare-and-select (`i = i+1 > 2 ? 0 : i+1`).
        Flow-insensitive; hi is rounded down to the value's known alignment."""
        c = self.const(o)
        if c is not None:
            return (c, c)
        if type(o) not in (A.Reg, A.Sym):
            return None
        if is_special(o.name):
            return self._sreg_ranges(o.name)
        if o.name not in self._final:
            self._solve_ranges(o.name)
        r = self._ranges.get(o.name)
        return None if r is None else (r[0], r[1])

    def _rng(self, o):
        """(lo, hi, alignment bits) of an operand in the current iteration; None unbounded; False not yet known."""
        c = self.const(o)
        if c is not None:
            return (c, c, _tz(c))
        if type(o) not in (A.Reg, A.Sym):
            return None
        if is_special(o.name):
            r = self._sreg_ranges(o.name)
            return None if r is None else (r[0], r[1], 0)
        return self._ranges.get(o.name, False)

    def _solve_ranges(self, root: str) -> None:
        """Solve the ranges of `root` and every register it depends on (a worklist over that slice; a range
        that keeps growing is widened to unbounded)."""
        regs = self.regs
        slice_, work = [], [root]
        seen = {root}
        while work:
            r = work.pop()
            if r in self._final or r in self.consts:
                continue
            slice_.append(r)
            for d in self.defs.get(r, ()):
                for u in regs.uses(d):
                    if u not in seen and not is_special(u):
                        seen.add(u)
                        work.append(u)
        users: dict[str, list] = {}
        for r in slice_:
            for d in self.defs.get(r, ()):
                for u in regs.uses(d):
                    users.setdefault(u, []).append(r)
        changes: dict[str, int] = {}
        pending = list(reversed(slice_))
        queued = set(pending)
        while pending:
            r = pending.pop()
            queued.discard(r)
            got = [self._range_of(d) for d in self.defs.get(r, ())]
            known = [g for g in got if g is not False]
            if not known:
                new = None if not got else False
                if new is False:
                    continue
            elif any(g is None for g in known):
                new = None
            else:
                tz = min(g[2] for g in known)
                lo, hi = min(g[0] for g in known), max(g[1] for g in known)
                if lo >= 0 and 0 < tz < 63:
                    hi -= hi % (1 << tz)
                new = (lo, hi, tz)
            old = self._ranges.get(r, False)
            if new == old or old is None:
                continue
            changes[r] = changes.get(r, 0) + 1
            self._ranges[r] = new if changes[r] < 8 else None        # widen a range that keeps growing
            for u in users.get(r, ()):
                if u not in queued:
                    queued.add(u)
                    pending.append(u)
        for r in slice_:
            self._final.add(r)
            self._ranges.setdefault(r, None)

    def _range_of(self, ins):
        op, srcs = ins.opcode, self.regs.sources(ins)
        bits = _type_bits(ins.mods)
        rs = [self._rng(s) for s in srcs]
        if op == "selp" and len(rs) == 3:
            return self._select(ins, srcs, rs)
        if any(r is False for r in rs):
            return False
        res = None
        if op in ("mov", "cvt") and len(rs) == 1:
            res = rs[0]
        elif op == "and" and len(rs) == 2:
            nonneg = [r for r in rs if r is not None and r[0] >= 0]
            tz = max((r[2] for r in rs if r is not None), default=0)
            res = (0, min(r[1] for r in nonneg), tz) if nonneg else None
        elif op == "bfe" and len(rs) == 3 and rs[2] is not None and rs[2][0] == rs[2][1] and rs[2][0] > 0:
            n = rs[2][0]
            res = (-(1 << (n - 1)), (1 << (n - 1)) - 1, 0) if ".s32" in ins.mods or ".s64" in ins.mods \
                else (0, (1 << n) - 1, 0)
        elif op == "rem" and len(rs) == 2 and rs[1] is not None and rs[1][0] > 0 and rs[0] is not None and rs[0][0] >= 0:
            res = (0, min(rs[0][1], rs[1][1] - 1), 0)
        elif any(r is None for r in rs):
            res = None
        elif op == "add" and len(rs) == 2:
            res = (rs[0][0] + rs[1][0], rs[0][1] + rs[1][1], min(rs[0][2], rs[1][2]))
        elif op == "sub" and len(rs) == 2:
            res = (rs[0][0] - rs[1][1], rs[0][1] - rs[1][0], min(rs[0][2], rs[1][2]))
        elif op in ("mul", "shl") and len(rs) == 2 and rs[0][0] >= 0 and rs[1][0] >= 0:
            a, b = rs
            if op == "shl":
                if b[1] > 62:
                    return None
                res = (a[0] << b[0], a[1] << b[1], a[2] + b[0])
            else:
                res = (a[0] * b[0], a[1] * b[1], a[2] + b[2])
        elif op == "mad" and len(rs) == 3 and rs[0][0] >= 0 and rs[1][0] >= 0:
            res = (rs[0][0] * rs[1][0] + rs[2][0], rs[0][1] * rs[1][1] + rs[2][1], min(rs[0][2] + rs[1][2], rs[2][2]))
        elif op in ("shr", "div") and len(rs) == 2 and rs[0][0] >= 0 and rs[1][0] > (0 if op == "div" else -1):
            d = (1 << min(rs[1][0], 63), 1 << min(rs[1][1], 63)) if op == "shr" else rs[1]
            res = (rs[0][0] // d[1], rs[0][1] // d[0], 0)
        elif op in ("or", "xor") and len(rs) == 2 and rs[0][0] >= 0 and rs[1][0] >= 0:
            res = (0, (1 << max(rs[0][1], rs[1][1]).bit_length()) - 1, min(rs[0][2], rs[1][2]))
        elif op in ("min", "max") and len(rs) == 2:
            f = min if op == "min" else max
            res = (f(rs[0][0], rs[1][0]), f(rs[0][1], rs[1][1]), min(rs[0][2], rs[1][2]))
        if res is not None and bits < 64 and (res[0] < -(1 << (bits - 1)) or res[1] >= 1 << bits):
            return None
        return res

    def _select(self, ins, srcs, rs):
        """selp d, a, b, p: the hull of a and b, each clamped by what p says when it is chosen."""
        a, b = rs[0], rs[1]
        ca = self._clamp(srcs[0], srcs[2], True, a)
        cb = self._clamp(srcs[1], srcs[2], False, b)
        if ca is False or cb is False:
            return cb if ca is False else ca          # the other side is not known yet
        if ca is None or cb is None:
            return None
        return (min(ca[0], cb[0]), max(ca[1], cb[1]), min(ca[2], cb[2]))

    _BOUND = {".lt": (None, -1), ".lo": (None, -1), ".le": (None, 0), ".ls": (None, 0),
              ".gt": (1, None), ".hi": (1, None), ".ge": (0, None), ".hs": (0, None)}
    _FLIP = {".lt": ".ge", ".lo": ".hs", ".le": ".gt", ".ls": ".hi", ".gt": ".le", ".hi": ".ls", ".ge": ".lt",
             ".hs": ".lo"}
    _SWAP = {".lt": ".gt", ".gt": ".lt", ".le": ".ge", ".ge": ".le", ".lo": ".hi", ".hi": ".lo", ".ls": ".hs",
             ".hs": ".ls"}

    def _clamp(self, x, p, when: bool, r):
        """The range of x where predicate p is `when`, if p compares x with a constant."""
        if r is None or r is False or type(x) not in (A.Reg, A.Sym) or type(p) not in (A.Reg, A.Sym):
            return r
        ds = self.defs.get(p.name, ())
        if len(ds) != 1 or ds[0].opcode != "setp":
            return r
        d = ds[0]
        cmp = next((m for m in d.mods if m in self._BOUND), None)
        srcs = self.regs.sources(d)
        if cmp is None or len(srcs) != 2:
            return r
        if type(srcs[0]) in (A.Reg, A.Sym) and srcs[0].name == x.name and self.const(srcs[1]) is not None:
            c = self.const(srcs[1])
        elif type(srcs[1]) in (A.Reg, A.Sym) and srcs[1].name == x.name and self.const(srcs[0]) is not None:
            c, cmp = self.const(srcs[0]), self._SWAP[cmp]
        else:
            return r
        if not when:
            cmp = self._FLIP[cmp]
        lo_d, hi_d = self._BOUND[cmp]
        lo, hi = r[0], r[1]
        if hi_d is not None:
            hi = min(hi, c + hi_d)
        if lo_d is not None:
            lo = max(lo, c + lo_d)
        return (lo, hi, r[2]) if lo <= hi else r

    def is_shared(self, addr: Address | None, space_mods) -> bool:
        """Does a memory access touch shared memory: by its state space, or (generic) by what it points into."""
        if any(m.startswith(".shared") for m in space_mods):
            return True
        if any(m in (".global", ".local", ".param", ".const") for m in space_mods):
            return False
        return addr is not None and addr.base in self.shared_symbols
