"""Which registers an Ori instruction defines and uses (PTX operand conventions).

Most instructions write their first operand; stores, reductions without result, branches, barriers
without result and fences write nothing. Pairs `d|p` define both; vectors in the first position define
every element.
"""
from __future__ import annotations

from pylower.lowering import ori
from pylower.lowering import ptx_ast as A

# stems whose first operand is not a destination
_NO_DEST = {"st", "red", "bra", "brx", "call", "ret", "exit", "trap", "membar", "fence", "bar", "barrier",
            "prefetch", "prefetchu", "cp", "mbarrier", "griddepcontrol", "nanosleep", "sust", "sured", "wmma",
            "stmatrix", "tensormap", "multimem", "applypriority", "discard", "pmevent", "brkpt",
            "setmaxnreg", "stackrestore", "tcgen05", "clusterlaunchcontrol"} | ori.PSEUDO_OPCODES
# ...except these forms, which do produce a value
_DEST_FORMS = {("bar", ".red"), ("barrier", ".red"), ("mbarrier", ".arrive"), ("mbarrier", ".arrive_drop"),
               ("mbarrier", ".test_wait"), ("mbarrier", ".try_wait"), ("mbarrier", ".pending_count"),
               ("wmma", ".load"), ("cp", ".reduce")}


def _regs(o, out: list[str]) -> None:
    t = type(o)
    if t is A.Reg:
        out.append(o.name)
    elif t in (A.Addr, A.Vec, A.Paren):
        for i in o.items:
            _regs(i, out)
    elif t is A.Pair:
        _regs(o.first, out)
        _regs(o.second, out)
    elif t in (A.Not, A.Neg):
        _regs(o.inner, out)


def operand_registers(o) -> list[str]:
    """The register names an operand reads (a register, negated, or inside an address, vector or pair)."""
    out: list[str] = []
    _regs(o, out)
    return out


def has_dest(ins: ori.Instr) -> bool:
    if ins.opcode in _NO_DEST:
        return any((ins.opcode, m) in _DEST_FORMS for m in ins.mods) and ins.opcode != "st"
    if ins.opcode == "atom" or ins.opcode == "ld":
        return True
    return bool(ins.operands)


def defs(ins: ori.Instr) -> list[str]:
    if not has_dest(ins) or not ins.operands:
        return []
    out: list[str] = []
    first = ins.operands[0]
    if type(first) in (A.Reg, A.Pair, A.Vec):
        _regs(first, out)
    return out


def uses(ins: ori.Instr) -> list[str]:
    out: list[str] = []
    ops = ins.operands[1:] if has_dest(ins) and ins.operands and type(ins.operands[0]) in (A.Reg, A.Pair, A.Vec) \
        else ins.operands
    for o in ops:
        _regs(o, out)
    if ins.guard is not None:
        _regs(ins.guard, out)
    return out


class DefUse:
    """defs() and uses() of every instruction of a function, computed once per instruction, and the
    instructions defining each register."""

    def __init__(self, fn: ori.Function, entries: dict | None = None):
        """`entries`: a table kept across invalidations (the analysis manager's): an instruction whose
        opcode, modifiers, operands and guard are still the same objects keeps its entry."""
        self.fn = fn
        self._cache: dict[int, tuple] = {} if entries is None else entries
        self._definitions: dict[str, list] | None = None
        self._first: dict[tuple, object] = {}

    def _entry(self, ins: ori.Instr) -> tuple:
        e = self._cache.get(id(ins))
        if e is None or e[0] is not ins or e[3] is not ins.operands or e[4] is not ins.guard \
                or e[5] is not ins.mods or e[6] != ins.opcode:
            e = self._cache[id(ins)] = (ins, tuple(defs(ins)), tuple(uses(ins)), ins.operands, ins.guard, ins.mods,
                                        ins.opcode)
        return e

    # defs() and uses() test a cached entry in place (the common case: every analysis rebuilt after a phase
    # asks again for instructions the phase did not touch) and call _entry() only to make a new one.
    def defs(self, ins: ori.Instr) -> tuple:
        e = self._cache.get(id(ins))
        if e is not None and e[0] is ins and e[3] is ins.operands and e[4] is ins.guard and e[5] is ins.mods \
                and e[6] == ins.opcode:
            return e[1]
        return self._entry(ins)[1]

    def uses(self, ins: ori.Instr) -> tuple:
        e = self._cache.get(id(ins))
        if e is not None and e[0] is ins and e[3] is ins.operands and e[4] is ins.guard and e[5] is ins.mods \
                and e[6] == ins.opcode:
            return e[2]
        return self._entry(ins)[2]

    def defs_uses(self, ins: ori.Instr) -> tuple:
        """(defs, uses) of `ins` with one cache lookup (for analyses that read every instruction's both)."""
        e = self._cache.get(id(ins))
        if e is None or e[0] is not ins or e[3] is not ins.operands or e[4] is not ins.guard or e[5] is not ins.mods \
                or e[6] != ins.opcode:
            e = self._entry(ins)
        return e[1], e[2]

    def definitions(self, reg: str) -> list:
        """The instructions that write `reg`, in block order."""
        if self._definitions is None:
            d: dict[str, list] = {}
            for b in self.fn.blocks:
                for ins in b.instrs:
                    for r in self.defs(ins):
                        d.setdefault(r, []).append(ins)
            self._definitions = d
        return self._definitions.get(reg, [])

    def first_definition(self, reg: str, opcodes: tuple) -> ori.Instr | None:
        """The first instruction (block order) writing `reg` whose opcode is one of `opcodes` (memoised)."""
        key = (reg, opcodes)
        if key not in self._first:
            self._first[key] = next((d for d in self.definitions(reg) if d.opcode in opcodes), None)
        return self._first[key]
