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

from dataclasses import dataclass

from pylower.lowering import ptx_ast as A
from pylower.passes.analysis.defuse import has_dest

M64 = (1 << 64) - 1


@dataclass(frozen=True)
class Address:
    base: str
    offset: int | None

    def plus(self, k: int | None) -> "Address":
        if k is None or self.offset is None:
            return Address(self.base, None)
        return Address(self.base, self.offset + k)

    def may_alias(self, other: "Address | None") -> bool:
        if other is None:
            return True
        return self.base == other.base and (self.offset is None or other.offset is None or self.offset == other.offset)

    def __str__(self) -> str:
        if self.offset is None:
            return f"{self.base}+?"
        return self.base if self.offset == 0 else f"{self.base}+{self.offset}"


def may_alias(a: Address | None, b: Address | None) -> bool:
    return a is None or a.may_alias(b)


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

    def __init__(self, fn, regs: Registers, shared_symbols: set[str]):
        self.fn, self.regs = fn, regs
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
                return Address("<absolute>", o.offset)
            base = self.address(o.items[0])
            if base is None:
                return None
            return base.plus(o.offset) if len(o.items) == 1 else Address(base.base, None)
        if t is A.Sym:
            if self.regs.is_reg(o.name):
                return self.reg_address(o.name)
            return Address(o.name, 0)
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
                res = Address(bases.pop(), None)
        elif len(set(got)) == 1:
            res = got[0]
        elif len({g.base for g in got}) == 1:
            res = Address(got[0].base, None)
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
                return Address(s.name, 0)
            if type(s) in (A.Reg, A.Sym):
                return self.address(s)
            return None
        if op in ("cvta", "cvt", "mapa") and srcs:
            return self.address(srcs[0]) if type(srcs[0]) in (A.Reg, A.Sym) else None
        if op == "ld" and ".param" in ins.mods and srcs and type(srcs[0]) is A.Addr:
            a = self.address(srcs[0])
            return Address(f"*{a}", 0) if a is not None and a.offset is not None else None
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
                return a.plus(None if k is None else (-k if op == "sub" else k))
            return None
        if op == "mad" and len(srcs) == 3 and type(srcs[2]) in (A.Reg, A.Sym):
            a = self.address(srcs[2])
            return None if a is None else Address(a.base, None)
        return None

    def is_shared(self, addr: Address | None, space_mods) -> bool:
        """Does a memory access touch shared memory: by its state space, or (generic) by what it points into."""
        if any(m.startswith(".shared") for m in space_mods):
            return True
        if any(m in (".global", ".local", ".param", ".const") for m in space_mods):
            return False
        return addr is not None and addr.base in self.shared_symbols
