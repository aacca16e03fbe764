"""Which 32-bit halves of each register some instruction with an effect needs (ptxas's dead-code view).

ptxas splits every 64-bit register into two 32-bit registers before it removes dead code, so a value that
only ever reaches the high half of a 64-bit register whose high half nothing reads is dead, and so is a
warp collective that computes it (except through selp.b64 on targets with SEL.64: SEL_64): numba's 64-bit warp scans shuffle each value as two 32-bit halves, put
them together with `bfi.b64 ..., 32, 32`, add them as 64 bits and store only the low 32 bits of the sum,
and ptxas keeps only the low halves' SHFLs (docs/findings/warp.md "Unused high halves of 64-bit values
(helper llvmnb, stop 20)"; probes warp/shfl_hi_half_*). It works on whole 32-bit halves, not bits: a
shuffled value put in bits 8..15 of a register whose low byte alone is stored stays.

The analysis is flow-insensitive (a register's demand is the union over every instruction reading it) and
optimistic: it starts from the instructions with an effect (stores, atomics, control flow, anything not
known to be pure arithmetic) and walks back through the operand halves each pure instruction's demanded
result halves read, to a fixpoint. `removable(ins)` names the further instructions (warp collectives the
caller could delete) that count as pure.
"""
from __future__ import annotations

from pylower.lowering import ori
from pylower.lowering import ptx_ast as A

LO, HI, ALL = 1, 2, 3

# pure arithmetic: no effect but its destination
_PURE = frozenset("mov add sub mul mad and or xor not shl shr cvt bfi bfe selp setp min max neg abs cnot popc clz "
                  "brev prmt lop3 shf cvta div rem slct".split())
_WIDE = frozenset({".b64", ".u64", ".s64"})
_INT = frozenset({".b8", ".b16", ".b32", ".u8", ".u16", ".u32", ".s8", ".s16", ".s32"}) | _WIDE
_SIGNED = frozenset({".s8", ".s16", ".s32", ".s64"})
# half-wise operations: each result half reads the same half of every value operand
_HALFWISE = frozenset({"mov", "and", "or", "xor", "not", "selp"})
# carries flow upwards: the low result half reads only the low operand halves
_LOW_FIRST = frozenset({"add", "sub"})
# 64-bit operations a target does in one instruction on the register pair, reading both halves (SEL_64);
# add.s64 becomes IADD.64 there too, but a 32-bit IADD3 when only its low half is used
_WHOLE_ON_TARGET = frozenset({"selp"})


def _imm(o) -> int | None:
    if type(o) is A.Imm:
        v = o.value
        return v if isinstance(v, int) else None
    return None


def _reg(o) -> str | None:
    return o.name if type(o) is A.Reg else None


def _all(ins: ori.Instr, uses: list[str], out: int) -> dict[str, int]:
    return {r: ALL for r in uses} if out else {}


def _operand_demands(ins: ori.Instr, out: dict[str, int], uses: list[str], whole: frozenset) -> dict[str, int]:
    """Register -> halves this instruction reads, given the halves of its results that are demanded."""
    if type(ins.operands[0]) is A.Vec:          # mov.b64 {lo, hi}, %rd: unpack
        items = ins.operands[0].items
        if ins.opcode == "mov" and len(items) == 2 and len(ins.operands) == 2 and _reg(ins.operands[1]):
            need = (LO if out.get(_reg(items[0]), 0) else 0) | (HI if out.get(_reg(items[1]), 0) else 0)
            return {_reg(ins.operands[1]): need} if need else {}
        return _all(ins, uses, any(out.values()))
    d = max(out.values(), default=0)
    if not d:
        return {}
    guard = {r: ALL for r in _regs_of(ins.guard)}
    srcs = ins.operands[1:]
    wide = bool(_WIDE & set(ins.mods))
    op = ins.opcode
    res: dict[str, int] = dict(guard)

    def need(o, h):
        r = _reg(o)
        if r is not None and h:
            res[r] = res.get(r, 0) | h
        elif r is None and h:
            for x in _regs_of(o):
                res[x] = ALL

    if op == "mov" and len(srcs) == 1 and type(srcs[0]) is A.Vec and len(srcs[0].items) == 2:   # pack
        need(srcs[0].items[0], ALL if d & LO else 0)
        need(srcs[0].items[1], ALL if d & HI else 0)
        return res
    if not wide or op in whole:
        return _all(ins, uses, d)
    if op in _HALFWISE:
        vals = srcs[:2] if op == "selp" else srcs
        for o in vals:
            h = d
            if op == "and":                     # an immediate half of zero clears that half
                other = next((_imm(x) for x in vals if x is not o and _imm(x) is not None), None)
                if other is not None:
                    h &= (LO if other & 0xFFFFFFFF else 0) | (HI if (other >> 32) & 0xFFFFFFFF else 0)
            need(o, h)
        for o in srcs[2:] if op == "selp" else ():
            need(o, ALL)
        return res
    if op in _LOW_FIRST or op == "mul" and ".lo" in ins.mods:
        for o in srcs:
            need(o, LO if d == LO else ALL)
        return res
    if op in ("shl", "shr") and len(srcs) == 2 and _imm(srcs[1]) is not None:
        k = _imm(srcs[1])
        if op == "shl":
            h = (LO if d & HI else 0) if k >= 32 else (LO if d == LO else ALL)
        else:
            sign = ".s64" in ins.mods
            if k >= 32:
                h = HI if d & LO or sign and d & HI else 0
            else:
                h = ALL if d & LO else HI
        need(srcs[0], h)
        return res
    if op == "cvt" and len(ins.mods) == 2 and set(ins.mods) <= _INT:
        dst, src = ins.mods
        if dst not in _WIDE and src in _WIDE:      # truncation: the low half
            need(srcs[0], LO)
        elif dst in _WIDE and src not in _WIDE:    # widening: the high half is zero or the sign
            need(srcs[0], ALL if d & LO or src in _SIGNED else 0)
        else:
            need(srcs[0], d)
        return res
    if op == "bfi" and len(srcs) == 4 and _imm(srcs[2]) is not None and _imm(srcs[3]) is not None \
            and (_imm(srcs[2]), _imm(srcs[3])) in ((32, 32), (0, 32)):
        ins_half, keep_half = (HI, LO) if _imm(srcs[2]) == 32 else (LO, HI)
        need(srcs[0], LO if d & ins_half else 0)     # the inserted field: the low half of the source
        need(srcs[1], d & keep_half)                 # the base keeps its other half
        return res
    return _all(ins, uses, d)


def _regs_of(o) -> list[str]:
    if o is None:
        return []
    out: list[str] = []
    t = type(o)
    if t is A.Reg:
        out.append(o.name)
    elif t in (A.Addr, A.Vec, A.Paren):
        for i in o.items:
            out.extend(_regs_of(i))
    elif t is A.Pair:
        out.extend(_regs_of(o.first) + _regs_of(o.second))
    elif t in (A.Not, A.Neg):
        out.extend(_regs_of(o.inner))
    return out


def demanded_halves(fn: ori.Function, du, target, removable=lambda ins: False) -> dict[str, int]:
    """Register -> the halves (LO, HI, ALL) some effect needs; a register absent from it is dead."""
    whole = _WHOLE_ON_TARGET if target.has("SEL_64") else frozenset()
    demand: dict[str, int] = {}
    pure: list[ori.Instr] = []
    for b in fn.blocks:
        for ins in b.instrs:
            if (ins.opcode in _PURE and ins.op != ori.ORI_CLASSES["vote"] or removable(ins)) and du.defs(ins):
                pure.append(ins)
            else:
                for r in du.uses(ins):
                    demand[r] = ALL
    definers: dict[str, list[ori.Instr]] = {}
    for ins in pure:
        for r in du.defs(ins):
            definers.setdefault(r, []).append(ins)
    work = list(demand)
    seen_out: dict[int, tuple] = {}
    while work:
        r = work.pop()
        for ins in definers.get(r, ()):
            defs = du.defs(ins)
            out = {x: demand.get(x, 0) for x in defs}
            key = tuple(sorted(out.items()))
            if seen_out.get(id(ins)) == key:
                continue
            seen_out[id(ins)] = key
            if ins.opcode not in _PURE or not ins.operands:
                reads = _all(ins, du.uses(ins), any(out.values()))
            else:
                reads = _operand_demands(ins, out, du.uses(ins), whole)
            for x, h in reads.items():
                if h and demand.get(x, 0) | h != demand.get(x, 0):
                    demand[x] = demand.get(x, 0) | h
                    work.append(x)
    return demand
