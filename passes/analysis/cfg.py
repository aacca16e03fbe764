"""CFG orders, dominators and post-dominators (Cooper-Harvey-Kennedy iterative algorithm)."""
from __future__ import annotations

from pylower.lowering import ori


def straight_on(a: ori.BasicBlock, b: ori.BasicBlock) -> bool:
    """Does `b` continue `a` in a straight line (a's only successor, b's only predecessor)? Then ptxas sees one
    block: a label no branch targets (Triton's `$L__tmpN:` line-info labels) does not split it."""
    return a.succs == [b.label] and b.preds == [a.label]


def reverse_postorder(fn: ori.Function) -> list[str]:
    if not fn.blocks:
        return []
    return reverse_postorder_from(fn.blocks[0].label, {b.label: b.succs for b in fn.blocks})


def reverse_postorder_from(root: str, edges: dict[str, list[str]]) -> list[str]:
    """The nodes reachable from `root` along `edges` (nodes without an entry in `edges` are left out), in reverse
    postorder (iterative depth-first search)."""
    seen: set[str] = {root}
    order: list[str] = []
    stack = [(root, iter(edges.get(root, ())))]
    while stack:
        label, it = stack[-1]
        for s in it:
            if s not in seen and s in edges:
                seen.add(s)
                stack.append((s, iter(edges[s])))
                break
        else:
            stack.pop()
            order.append(label)
    order.reverse()
    return order


def _idoms(order: list[str], preds: dict[str, list[str]], entry_set: set[str]) -> dict[str, str]:
    index = {b: i for i, b in enumerate(order)}
    idom: dict[str, str] = {b: b for b in entry_set}
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
    """Does block `a` dominate block `b`, given the immediate-dominator map from dominators()? (One query
    walks the tree: O(depth). Many queries: DomTree.)"""
    while True:
        if a == b:
            return True
        up = idom.get(b)
        if up is None or up == b:
            return False
        b = up


class DomTree:
    """The dominator tree of an immediate-(post-)dominator map, numbered in DFS pre- and post-order, so
    `dominates(a, b)` is two comparisons (a block not in the map dominates only itself)."""

    def __init__(self, idom: dict[str, str]):
        children: dict[str, list[str]] = {}
        roots = []
        for b, d in idom.items():
            if b == d:
                roots.append(b)
            else:
                children.setdefault(d, []).append(b)
        self.pre: dict[str, int] = {}
        self.post: dict[str, int] = {}
        pre, post, n = self.pre, self.post, 0
        for root in roots:
            pre[root] = n
            n += 1
            stack = [(root, iter(children.get(root, ())))]
            while stack:
                node, it = stack[-1]
                for c in it:
                    pre[c] = n
                    n += 1
                    stack.append((c, iter(children.get(c, ()))))
                    break
                else:
                    stack.pop()
                    post[node] = n
                    n += 1

    def dominates(self, a: str, b: str) -> bool:
        if a == b:
            return True
        pa, pb = self.pre.get(a), self.pre.get(b)
        return pa is not None and pb is not None and pa < pb and self.post[b] < self.post[a]


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
