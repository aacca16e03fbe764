"""CFG orders, dominators and post-dominators (Cooper-Harvey-Kennedy iterative algorithm)."""
from __future__ import annotations

from pylower.lowering import ori


def reverse_postorder(fn: ori.Function) -> list[str]:
    succs = {b.label: b.succs for b in fn.blocks}
    seen: set[str] = set()
    order: list[str] = []
    if not fn.blocks:
        return order
    stack = [(fn.blocks[0].label, iter(succs[fn.blocks[0].label]))]
    seen.add(fn.blocks[0].label)
    while stack:
        label, it = stack[-1]
        for s in it:
            if s not in seen and s in succs:
                seen.add(s)
                stack.append((s, iter(succs[s])))
                break
        else:
            stack.pop()
            order.append(label)
    order.reverse()
    return order


class DomTree(dict):
    """An immediate-(post-)dominator map (block -> its idom; a root maps to itself). dominates() on it numbers
    the tree once (pre/post order) and then answers in O(1): a walk up the tree per query is quadratic on
    long chains of blocks (thousands of ifs)."""
    __slots__ = ("_numbers",)

    def numbers(self) -> dict[str, tuple[int, int]]:
        n = getattr(self, "_numbers", None)
        if n is not None and n[0] == len(self):
            return n[1]
        children: dict[str, list[str]] = {}
        roots = []
        for b, up in self.items():
            if up is None or up == b:
                roots.append(b)
            else:
                children.setdefault(up, []).append(b)
                if up not in self:
                    roots.append(up)          # a parent outside the map (as $exit) is an ancestor too
        out: dict[str, tuple[int, int]] = {}
        clock = 0
        for r in dict.fromkeys(roots):
            stack = [(r, iter(children.get(r, ())))]
            pre = {r: clock}
            clock += 1
            while stack:
                node, it = stack[-1]
                child = next(it, None)
                if child is None:
                    stack.pop()
                    out[node] = (pre[node], clock)
                    clock += 1
                elif child not in pre:
                    pre[child] = clock
                    clock += 1
                    stack.append((child, iter(children.get(child, ()))))
        self._numbers = (len(self), out)
        return out


def _idoms(order: list[str], preds: dict[str, list[str]], entry_set: set[str]) -> dict[str, str]:
    index = {b: i for i, b in enumerate(order)}
    idom: dict[str, str] = DomTree((b, b) for b in entry_set)
    changed = True
    while changed:
        changed = False
        for b in order:
            if b in entry_set:
                continue
            ps = [p for p in preds.get(b, ()) if p in idom]
            if not ps:
                continue
            new = ps[0]
            for p in ps[1:]:
                a, c = p, new
                while a != c:
                    while index[a] > index[c]:
                        a = idom[a]
                    while index[c] > index[a]:
                        c = idom[c]
                new = a
            if idom.get(b) != new:
                idom[b] = new
                changed = True
    return idom


def dominators(fn: ori.Function) -> dict[str, str]:
    """Immediate dominator of each reachable block (the entry maps to itself)."""
    order = reverse_postorder(fn)
    preds = {b.label: b.preds for b in fn.blocks}
    return _idoms(order, preds, {order[0]} if order else set())


def dominates(idom: dict[str, str], a: str, b: str) -> bool:
    """Does block `a` dominate block `b`, given the immediate-dominator map from dominators()?"""
    if type(idom) is DomTree:
        if a == b:
            return True
        nums = idom.numbers()
        na, nb = nums.get(a), nums.get(b)
        return na is not None and nb is not None and na[0] < nb[0] and nb[1] < na[1]
    while True:
        if a == b:
            return True
        up = idom.get(b)
        if up is None or up == b:
            return False
        b = up


EXIT = "$exit"


def post_dominators(fn: ori.Function) -> dict[str, str]:
    """Immediate post-dominator of each block; blocks without successors are joined by a virtual $exit."""
    succs = {b.label: [s for s in b.succs] for b in fn.blocks}
    exits = [b for b, s in succs.items() if not s]
    rsuccs: dict[str, list[str]] = {EXIT: exits}
    rpreds: dict[str, list[str]] = {b: list(s) or [EXIT] for b, s in succs.items()}
    for b, s in succs.items():
        for x in s:
            rsuccs.setdefault(x, []).append(b)
    # reverse postorder on the reversed graph from $exit
    seen, order = {EXIT}, []
    stack = [(EXIT, iter(rsuccs.get(EXIT, [])))]
    while stack:
        label, it = stack[-1]
        for s in it:
            if s not in seen:
                seen.add(s)
                stack.append((s, iter(rsuccs.get(s, []))))
                break
        else:
            stack.pop()
            order.append(label)
    order.reverse()
    return _idoms(order, rpreds, {EXIT})
