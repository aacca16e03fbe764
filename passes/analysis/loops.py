"""Loops of a function: back edges (a branch to a block that dominates it), natural loop bodies, and the
blocks that lie on a cycle."""
from __future__ import annotations

from pylower.lowering import ori
from pylower.lowering.ops import branch_target

from .cfg import DomTree


class Loops:
    def __init__(self, fn: ori.Function, blocks: dict[str, ori.BasicBlock], dom: DomTree):
        self.fn, self._blocks, self._dom = fn, blocks, dom
        dominates = dom.dominates
        self._bodies: dict[tuple[str, str], frozenset] = {}
        # (latch, header) of every back edge, in block order
        self.back_edges = [(b.label, s) for b in fn.blocks for s in b.succs
                           if s in blocks and dominates(s, b.label)]
        self.in_loop: frozenset = frozenset().union(*(self.body(h, l) for l, h in self.back_edges)) \
            if self.back_edges else frozenset()
        self.headers: frozenset = frozenset(h for _, h in self.back_edges)
        self.by_latch: dict[str, list[str]] = {}      # latch -> the headers its back edges go to
        for l, h in self.back_edges:
            self.by_latch.setdefault(l, []).append(h)
        self._cyclic: frozenset | None = None

    def body(self, header: str, latch: str) -> frozenset:
        """The natural loop of the back edge latch -> header."""
        key = (header, latch)
        got = self._bodies.get(key)
        if got is None:
            body, work = {header, latch}, [latch]
            while work:
                x = work.pop()
                if x == header:
                    continue
                for p in self._blocks[x].preds if x in self._blocks else ():
                    if p not in body:
                        body.add(p)
                        work.append(p)
            got = self._bodies[key] = frozenset(body)
        return got

    def innermost_body(self, label: str) -> frozenset:
        """The smallest natural loop holding block `label` (empty when it lies in none)."""
        return self.innermost_loop(label)[1]

    def innermost_loop(self, label: str) -> tuple[str | None, frozenset]:
        """The header and body of the smallest natural loop holding block `label` (None and empty when it lies in
        none)."""
        around = [(h, self.body(h, l)) for l, h in self.back_edges if label in self.body(h, l)]
        return min(around, key=lambda hb: len(hb[1])) if around else (None, frozenset())

    def latch_body(self, latch: str) -> frozenset:
        """The loop a latch closes: its branch's target when that is a back edge, else the header of its first
        back edge (a latch falling through into its header); empty when it closes none."""
        b = self._blocks.get(latch)
        target = branch_target(b.instrs[-1]) if b is not None and b.instrs else None
        headers = [h for l, h in self.back_edges if l == latch]
        header = target if target in headers else headers[0] if headers else None
        return self.body(header, latch) if header is not None else frozenset()

    def ends_in_back_edge(self, b: ori.BasicBlock) -> bool:
        """Does b end in a branch to a block dominating it?"""
        if not b.instrs or b.instrs[-1].opcode != "bra":
            return False
        target = branch_target(b.instrs[-1])
        return target is not None and target in self._blocks and self._dom.dominates(target, b.label)

    def branches_back(self, b: ori.BasicBlock) -> bool:
        """Does a guarded branch inside b (not its last instruction) go to a block dominating it? An mbarrier
        wait's out-of-line retry block (`L: try_wait; @!p bra L; bra back`, phase 42) loops by such a branch."""
        for i in b.instrs[:-1]:
            if i.opcode == "bra" and i.guard is not None:
                target = branch_target(i)
                if target is not None and target in self._blocks and self._dom.dominates(target, b.label):
                    return True
        return False

    def on_cycle(self, label: str) -> bool:
        """Is the block on a cycle of the CFG (reducible or not)?"""
        if self._cyclic is None:
            self._cyclic = _cyclic_blocks(self.fn, self._blocks)
        return label in self._cyclic


def _cyclic_blocks(fn: ori.Function, blocks: dict[str, ori.BasicBlock]) -> frozenset:
    """Blocks in a strongly connected component with a cycle (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    out: set[str] = set()
    counter = 0
    for root in blocks:
        if root in index:
            continue
        work = [(root, iter(blocks[root].succs))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            v, it = work[-1]
            for w in it:
                if w not in blocks:
                    continue
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(blocks[w].succs)))
                    break
                if w in on_stack:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    u = work[-1][0]
                    low[u] = min(low[u], low[v])
                if low[v] == index[v]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on_stack.discard(w)
                        comp.append(w)
                        if w == v:
                            break
                    if len(comp) > 1 or v in blocks[v].succs:
                        out.update(comp)
    return frozenset(out)
