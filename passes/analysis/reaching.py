"""Reaching definitions of the registers written more than once, as a graph of values (pruned SSA).

PTX is not SSA: LLVM's phi copies (`mov r, 0` before a loop, `add r, r, x` in it), Triton's accumulators and
guarded writes give one register several definitions. Uniformity asks of a use "does a divergent definition of
this register reach here?". Each definition is a value; where paths with different values of a register meet
at a block that reads it later (the register is live in), a merge value joins them; a guarded write (which may
not happen) merges its value with the one before it. Each use then has one value, and a definition reaches the
use when a path of merges leads from it to that value. Marking a definition marks every merge it reaches, so
the question is one set lookup.

The graph has one node per definition and at most one merge per (block, live register) and per guarded write:
its size grows with the code and the registers live across blocks, not with blocks × definitions (a register
written in each of n divergent if-regions reaches the n-th use through n merges, not as an n-wide set).
"""
from __future__ import annotations

from bitarray import bitarray

from pylower.lowering import ori

NONE = -1          # the value of a register no definition reaches


class ReachingValues:
    """`rows`: each block with its instructions' (instruction, defs, uses); `multi`: the registers to follow;
    `liveness`: a Liveness of the function (a block's entry merges only the registers live into it)."""

    def __init__(self, fn: ori.Function, rows: list, multi: set[str], liveness):
        self.defs: dict[tuple[int, str], int] = {}   # (id(instruction), reg) -> its definition's node
        self.uses: dict[tuple[int, str], int] = {}   # (id(instruction), reg) -> the value it reads
        self._operands: list[set[int] | None] = []    # node -> the values a merge joins (None: a definition)
        self._users: list[list[int]] | None = None    # node -> the merges that join it (after the build)
        self.marked: set[int] = set()
        # per block, its events on `multi` in order: (instruction, uses, ((reg, node, merge or NONE), ...))
        events: dict[str, list] = {}
        for b, row in rows:
            ev = []
            for ins, all_ds, all_us in row:
                us = [r for r in all_us if r in multi]
                ds = []
                for r in all_ds:
                    if r in multi:
                        d = self.defs[(id(ins), r)] = self._node(None)
                        ds.append((r, d, self._node(set()) if ins.guard is not None else NONE))
                if us or ds:
                    ev.append((ins, us, ds))
            events[b.label] = ev
        self._solve(fn, events, multi, liveness)
        users: list[list[int]] = [[] for _ in self._operands]
        for n, ops in enumerate(self._operands):
            for o in ops or ():
                users[o].append(n)
        self._users = users

    def joined(self, node: int) -> set[int] | None:
        """The values a merge node joins; None for a definition."""
        return self._operands[node]

    def _node(self, operands: set[int] | None) -> int:
        self._operands.append(operands)
        return len(self._operands) - 1

    def _solve(self, fn: ori.Function, events: dict[str, list], multi: set[str], lv) -> None:
        if not fn.blocks:
            return
        names = list(lv.index)
        wanted = bitarray(len(names))         # the registers of `multi`, as liveness numbers them
        wanted.setall(0)
        for r in multi:
            wanted[lv.index[r]] = 1
        preds: dict[str, list[str]] = {b.label: [] for b in fn.blocks}
        for b in fn.blocks:
            for t in b.succs:
                if t in preds:
                    preds[t].append(b.label)
        live_in = {b.label: [names[i] for i in (lv.live_in[b.label] & wanted).search(1)] for b in fn.blocks}
        out: dict[str, dict[str, int]] = {b.label: {} for b in fn.blocks}
        phis: dict[str, dict[str, int]] = {}            # block -> register -> its merge
        operands = self._operands

        def entry(x: str) -> dict[str, int]:
            """The value of each register live into block x: one reaching value, or the block's merge."""
            ps = preds[x]
            if len(ps) == 1:                           # one predecessor: its values, no merge
                o = out[ps[0]]
                return {r: o[r] for r in live_in[x] if r in o}
            state = {}
            ps = [out[p] for p in ps]
            merges = phis.get(x)
            for r in live_in[x]:
                v, many = NONE, False
                for st in ps:
                    w = st.get(r, NONE)
                    if w != NONE and w != v:
                        if v != NONE:
                            many = True
                            break
                        v = w
                phi = merges.get(r) if merges is not None else None
                if phi is None and not many:         # one value (or none) reaches: no merge
                    if v != NONE:
                        state[r] = v
                    continue
                if phi is None:
                    phi = phis.setdefault(x, {})[r] = self._node(set())
                    merges = phis[x]
                operands[phi].update(w for st in ps if (w := st.get(r, NONE)) != NONE and w != phi)
                state[r] = phi
            return state

        def run(x: str, record: bool) -> dict[str, int]:
            state = entry(x)
            uses = self.uses
            for ins, us, ds in events[x]:
                if record:
                    for r in us:
                        uses[(id(ins), r)] = state.get(r, NONE)
                for r, d, merge in ds:
                    if merge != NONE:                  # a guarded write kills nothing
                        before = state.get(r, NONE)
                        operands[merge].add(d)
                        if before != NONE and before != merge:
                            operands[merge].add(before)
                        d = merge
                    state[r] = d
            return state

        succs = {b.label: [t for t in b.succs if t in preds] for b in fn.blocks}
        dirty = set(out)                               # blocks whose predecessors' values changed
        while dirty:
            for b in fn.blocks:
                x = b.label
                if x not in dirty:
                    continue
                dirty.discard(x)
                new = run(x, False)
                if new != out[x]:
                    out[x] = new
                    dirty.update(succs[x])
        for b in fn.blocks:
            if events[b.label]:
                run(b.label, True)

    def mark(self, node: int) -> None:
        """A definition became divergent: so does every merge it reaches."""
        if node in self.marked:
            return
        self.marked.add(node)
        work = [node]
        users = self._users
        while work:
            for u in users[work.pop()]:
                if u not in self.marked:
                    self.marked.add(u)
                    work.append(u)
