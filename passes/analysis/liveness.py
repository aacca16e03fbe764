"""Register liveness: backward dataflow over the CFG with one bit per register (bitarray)."""
from __future__ import annotations

import bisect

from bitarray import bitarray

from pylower.lowering import ori

from .defuse import DefUse


class Liveness:
    def __init__(self, fn: ori.Function, defuse: DefUse | None = None):
        self.fn = fn
        du = self.du = defuse or DefUse(fn)
        defs_uses = du.defs_uses
        names: dict[str, int] = {}
        # per block, each instruction's (defs, uses, guarded), looked up once
        effects = {b.label: [(*defs_uses(ins), ins.guard is not None) for ins in b.instrs] for b in fn.blocks}
        for eff in effects.values():
            for ds, us, _ in eff:
                for r in ds:
                    if r not in names:
                        names[r] = len(names)
                for r in us:
                    if r not in names:
                        names[r] = len(names)
        self.index = names
        self._events: dict[str, tuple] = {}
        n = len(names)
        self.live_in: dict[str, bitarray] = {}
        self.live_out: dict[str, bitarray] = {}
        gen, kill = {}, {}
        for b in fn.blocks:
            g, k = bitarray(n), bitarray(n)
            g.setall(0)
            k.setall(0)
            for ds, us, guarded in reversed(effects[b.label]):
                if not guarded:                    # a guarded write may not happen: it does not kill
                    for r in ds:
                        g[names[r]] = 0
                        k[names[r]] = 1
                for r in us:
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
        return {r for r in self.index if self.is_used_after(block, ins, r)}

    def _block_events(self, block: ori.BasicBlock):
        """Per block, once: each instruction's position and, per register, its uses/kills in order.
        A use at position p is recorded as 2p, an unguarded def as 2p+1 (an instruction reads before it
        writes), so a query is one bisect: no rescanning of long blocks (linear time overall)."""
        ev = self._events.get(block.label)
        if ev is None:
            pos = {id(i): p for p, i in enumerate(block.instrs)}
            regs: dict[str, tuple[list[int], list[bool]]] = {}
            defs, uses = self.du.defs, self.du.uses
            for p, i in enumerate(block.instrs):
                for r in uses(i):
                    keys, kinds = regs.setdefault(r, ([], []))
                    keys.append(2 * p)
                    kinds.append(True)
                if i.guard is None:                 # a guarded write may not happen: it does not kill
                    for r in defs(i):
                        keys, kinds = regs.setdefault(r, ([], []))
                        keys.append(2 * p + 1)
                        kinds.append(False)
            ev = self._events[block.label] = (pos, regs)
        return ev

    def is_used_after(self, block: ori.BasicBlock, ins: ori.Instr, reg: str) -> bool:
        """Is the value of `reg` after `ins` read before being overwritten (in this block or later)?"""
        pos, regs = self._block_events(block)
        entry = regs.get(reg)
        if entry is not None:
            keys, kinds = entry
            k = bisect.bisect_right(keys, 2 * pos[id(ins)] + 1)
            if k < len(keys):
                return kinds[k]
        i = self.index.get(reg)
        return i is not None and bool(self.live_out[block.label][i])
