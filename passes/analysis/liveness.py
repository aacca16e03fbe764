"""Register liveness: backward dataflow over the CFG with one bit per register (bitarray)."""
from __future__ import annotations

from bitarray import bitarray

from pylower.lowering import ori

from .defuse import defs, uses


class Liveness:
    def __init__(self, fn: ori.Function):
        self.fn = fn
        names: dict[str, int] = {}
        for ins in fn.instructions():
            for r in defs(ins) + uses(ins):
                if r not in names:
                    names[r] = len(names)
        self.index = names
        n = len(names)
        self.live_in: dict[str, bitarray] = {}
        self.live_out: dict[str, bitarray] = {}
        gen, kill = {}, {}
        for b in fn.blocks:
            g, k = bitarray(n), bitarray(n)
            g.setall(0)
            k.setall(0)
            for ins in reversed(b.instrs):
                for r in defs(ins):
                    if ins.guard is None:          # a guarded write may not happen: it does not kill
                        g[names[r]] = 0
                        k[names[r]] = 1
                for r in uses(ins):
                    g[names[r]] = 1
            gen[b.label], kill[b.label] = g, k
            self.live_in[b.label] = g.copy()
            z = bitarray(n)
            z.setall(0)
            self.live_out[b.label] = z
        by_label = {b.label: b for b in fn.blocks}
        changed = True
        while changed:
            changed = False
            for b in reversed(fn.blocks):
                out = self.live_out[b.label]
                for s in b.succs:
                    if s in by_label:
                        out |= self.live_in[s]
                new_in = gen[b.label] | (out & ~kill[b.label])
                if new_in != self.live_in[b.label]:
                    self.live_in[b.label] = new_in
                    changed = True

    def live_after(self, block: ori.BasicBlock, ins: ori.Instr) -> set[str]:
        """Registers live just after `ins` in `block`."""
        live = self.live_out[block.label].copy()
        for cur in reversed(block.instrs):
            if cur is ins:
                break
            for r in defs(cur):
                if cur.guard is None:
                    live[self.index[r]] = 0
            for r in uses(cur):
                live[self.index[r]] = 1
        names = list(self.index)
        return {names[i] for i in live.search(1)}

    def is_used_after(self, block: ori.BasicBlock, ins: ori.Instr, reg: str) -> bool:
        return reg in self.live_after(block, ins)
