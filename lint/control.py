"""The control structure the checks reason about: the CFG with the exits made explicit, post-dominators and
control dependence (Ferrante-Ottenstein-Warren, from the post-dominator tree).

Differences from the compiler's CFG (passes/analysis/cfg.py), both about what the *program* does:
- a guarded `@p ret` / `@p exit` is a branch: the threads with p leave, so the code after it runs only
  for the others (an early exit);
- a block that can only end in `trap` or a call to a `.noreturn` function (`__assertfail`) aborts the
  kernel: it is removed, so a failed assertion is not a thread-dependent branch (an aborted kernel cannot
  hang at a barrier).
"""
from __future__ import annotations

from pylower.lowering import ptx_ast as A
from pylower.passes.analysis.cfg import _idoms, reverse_postorder_from

EXIT = "$exit"
_LEAVE = ("ret", "exit")
_NORETURN = frozenset({"__assertfail"})      # the CUDA runtime's system function (declared .noreturn by nvcc)


def noreturn_functions(module) -> set[str]:
    """Functions that never return: declared `.noreturn`, and the runtime's __assertfail."""
    out = set(_NORETURN)
    for f in module.functions:
        if any(d.name == ".noreturn" for d in f.decl.perf):
            out.add(f.name)
    for g in module.globals:
        if isinstance(g, A.Function) and any(d.name == ".noreturn" for d in g.perf):
            out.add(g.name)
    return out


class Control:
    """Successors with exits and aborts made explicit, immediate post-dominators, control dependence."""

    def __init__(self, fn, noreturn: set[str], blocks: dict):
        self.fn = fn
        self.blocks = blocks
        labels = [b.label for b in fn.blocks]
        aborts = {}
        for b in fn.blocks:
            aborts[b.label] = any(
                (i.opcode == "trap" and i.guard is None) or
                (i.opcode == "call" and i.guard is None and _callee(i) in noreturn) for i in b.instrs)
        succ: dict[str, list[str]] = {}
        for b in fn.blocks:
            s = [x for x in b.succs if x in blocks]
            last = b.instrs[-1] if b.instrs else None
            if last is not None and last.opcode in _LEAVE and last.guard is not None:
                s.append(EXIT)                      # @p ret: an exit edge besides the fall-through
            elif not s and not aborts[b.label]:
                s.append(EXIT)
            succ[b.label] = s
        # blocks that can only abort: every path from them reaches an abort before an exit
        doomed = {x for x, a in aborts.items() if a}
        changed = True
        while changed:
            changed = False
            for x in labels:
                if x not in doomed and succ[x] and all(s in doomed for s in succ[x]):
                    doomed.add(x)
                    changed = True
        self.doomed = doomed
        self.succ = {x: [s for s in succ[x] if s not in doomed] for x in labels if x not in doomed}
        for x, s in self.succ.items():
            if not s and x not in doomed:
                s.append(EXIT)
        self.pred: dict[str, list[str]] = {x: [] for x in self.succ}
        self.pred[EXIT] = []
        for x, ss in self.succ.items():
            for s in ss:
                self.pred[s].append(x)
        self._ipdom()
        self._control_dependence()

    # ------------------------------------------------------------------ post-dominators
    def _ipdom(self) -> None:
        # reverse graph from EXIT; a block that cannot reach EXIT (an endless loop) gets an edge to it, one
        # loop at a time, so every block has a post-dominator
        while True:
            order = reverse_postorder_from(EXIT, self.pred)
            if len(order) == len(self.succ) + 1:
                break
            seen = set(order)
            x = next(x for x in self.succ if x not in seen)
            self.succ[x].append(EXIT)
            self.pred[EXIT].append(x)
        self.ipdom = _idoms(order, {x: self.succ.get(x, []) for x in order}, {EXIT})

    # ------------------------------------------------------------------ control dependence
    def _control_dependence(self) -> None:
        """cd[x]: the (block, successor) edges whose branch decides whether x runs: the block ends in a
        conditional branch, a guarded exit or brx, and x runs when it leaves through that successor."""
        cd: dict[str, list[tuple[str, str]]] = {x: [] for x in self.succ}
        for a, ss in self.succ.items():
            if len(set(ss)) < 2:
                continue
            stop = self.ipdom.get(a)
            for s in dict.fromkeys(ss):
                r = s
                while r is not None and r != stop and r != EXIT:
                    if (a, s) not in cd[r]:
                        cd[r].append((a, s))
                    nxt = self.ipdom.get(r)
                    if nxt == r:
                        break
                    r = nxt
        self.cd_edges = cd
        self.cd = {x: list(dict.fromkeys(a for a, _ in es)) for x, es in cd.items()}
        self._closure: dict[str, frozenset] = {}

    def controls(self, x: str) -> frozenset:
        """Every branch block x is (transitively) control dependent on."""
        got = self._closure.get(x)
        if got is None:
            seen: set[str] = set()
            work = list(self.cd.get(x, ()))
            while work:
                a = work.pop()
                if a in seen:
                    continue
                seen.add(a)
                done = self._closure.get(a)
                if done is not None:
                    seen |= done
                    continue
                work.extend(self.cd.get(a, ()))
            got = self._closure[x] = frozenset(seen)
        return got

    def dominators(self) -> dict[str, str]:
        """Immediate dominator of each block reachable from the entry (the entry maps to itself)."""
        entry = self.fn.blocks[0].label if self.fn.blocks else None
        if entry not in self.succ:
            return {}
        return _idoms(reverse_postorder_from(entry, self.succ), self.pred, {entry})

    def live(self, x: str) -> bool:
        """Is x a block that can run to completion (not removed as aborting or unreachable)?"""
        return x in self.succ


def _callee(ins):
    return next((o.name for o in ins.operands if type(o) is A.Sym), None)
