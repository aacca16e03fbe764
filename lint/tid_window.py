"""Which warps a thread-index test can split, and which warps can reach a block.

A branch on `%tid.x` against a constant (`if (threadIdx.x == 0)`, `if (threadIdx.x < 48)`) is lane-dependent,
but it splits at most the warps whose 32 consecutive thread indices straddle the constant: `tid.x != 0`
splits only warp 0, `tid.x < 64` none. When every path to a block also takes a branch edge that bounds
`%tid.x` (`else if (threadIdx.x >= 32)`, the fall-through of `@p bra` with `p = tid.x < 32 || ...`), the warps
that reach the block may all lie outside the split ones: there the first test was the same for every lane
of each warp that arrives. The warp-specialised `if (tid == 0) { producer } else if (warp > 0) { consumer }`
is that shape once nvcc has folded `warp == 0 && lane == 0` to `tid.x == 0`.

Like the rest of the checker (threads.py), a warp is taken to be 32 consecutive values of `%tid.x`.
"""
from __future__ import annotations

from pylower.lowering import ptx_ast as A

_INF = 1 << 62
# comparison -> (lo, hi) bounds on x for `x cmp c` being true; None: not an interval (ne)
_LOWER = {"lt": "lt", "lo": "lt", "le": "le", "ls": "le", "gt": "gt", "hi": "gt", "ge": "ge", "hs": "ge",
          "eq": "eq", "ne": "ne"}
_NEGATE = {"lt": "ge", "ge": "lt", "le": "gt", "gt": "le", "eq": "ne", "ne": "eq"}
_MIRROR = {"lt": "gt", "gt": "lt", "le": "ge", "ge": "le", "eq": "eq", "ne": "ne"}


def _bounds(cmp: str, c: int) -> tuple[int, int] | None:
    return {"lt": (0, c - 1), "le": (0, c), "gt": (c + 1, _INF), "ge": (c, _INF), "eq": (c, c)}.get(cmp)


def _boundary_warps(cmp: str, c: int) -> set[int]:
    """The warps in which `tid.x cmp c` is true for some lanes and false for others."""
    if cmp in ("eq", "ne"):
        return {c // 32} if c >= 0 else set()
    b = c + 1 if cmp in ("le", "gt") else c         # true below b / at or above b
    return {b // 32} if b % 32 and b > 0 else set()


class TidWindows:
    def __init__(self, facts):
        self.f = facts
        self._window: dict[str, tuple[int, int]] = {}
        self._idom = None

    # ------------------------------------------------------------------ predicates
    def _is_tid_x(self, o, depth: int = 0) -> bool:
        if type(o) is A.Reg and o.name == "%tid.x":
            return True
        d = self.f.single_def(o)
        if d is None or d.opcode not in ("mov", "cvt") or depth > 4:
            return False
        srcs = self.f.regs.sources(d)
        return len(srcs) == 1 and self._is_tid_x(srcs[0], depth + 1)

    def _compare(self, d):
        """(cmp, c) when `d` is `setp.cmp p, tid.x, c` (either operand order); else None."""
        if d.opcode != "setp" or any(m in d.mods for m in (".and", ".or", ".xor")):
            return None
        cmp = next((_LOWER[m[1:]] for m in d.mods if m[1:] in _LOWER), None)
        srcs = self.f.regs.sources(d)
        if cmp is None or len(srcs) != 2:
            return None
        for x, y, k in ((srcs[0], srcs[1], cmp), (srcs[1], srcs[0], _MIRROR[cmp])):
            c = self.f.values.const(y)
            if c is not None and self._is_tid_x(x):
                return k, c
        return None

    def _terms(self, p, value: bool, depth: int = 0) -> list | None:
        """The tests on tid.x that hold when predicate `p` has `value`: a list of (cmp, c), possibly
        partial (a conjunct that is not such a test is left out); None when nothing is known."""
        if depth > 6:
            return None
        neg = type(p) is A.Not
        if neg:
            p, value = p.inner, not value
        d = self.f.single_def(p)
        if d is None:
            return None
        t = self._compare(d)
        if t is not None:
            return [t if value else (_NEGATE[t[0]], t[1])]
        srcs = self.f.regs.sources(d)
        if d.opcode == "not" and len(srcs) == 1:
            return self._terms(srcs[0], not value, depth + 1)
        both = {"and": True, "or": False}.get(d.opcode)      # the value for which both operands have it
        if both is not None and value == both and len(srcs) == 2:
            out = [x for s in srcs for x in (self._terms(s, value, depth + 1) or [])]
            return out or None
        return None

    def split_warps(self, label: str) -> set[int] | None:
        """The warps that branch block `label`'s test on tid.x can split; None when the test is not (only)
        comparisons of tid.x with constants."""
        br = self.f.branch_instr(label)
        if br is None or br.guard is None:
            return None
        return self._split(br.guard, 0)

    def _split(self, p, depth: int) -> set[int] | None:
        if depth > 6:
            return None
        if type(p) is A.Not:
            p = p.inner
        d = self.f.single_def(p)
        if d is None:
            return None
        t = self._compare(d)
        if t is not None:
            return _boundary_warps(*t)
        srcs = self.f.regs.sources(d)
        if d.opcode in ("and", "or", "xor", "not") and srcs:
            out: set[int] = set()
            for s in srcs:
                got = self._split(s, depth + 1)
                if got is None:
                    return None
                out |= got
            return out
        return None

    # ------------------------------------------------------------------ windows
    def _dominators(self) -> dict:
        if self._idom is None:
            self._idom = self.f.control.dominators()
        return self._idom

    def window(self, label: str) -> tuple[int, int]:
        """Bounds [lo, hi] of tid.x over the threads that can reach block `label`."""
        got = self._window.get(label)
        if got is not None:
            return got
        ctl, idom = self.f.control, self._dominators()
        lo, hi = 0, _INF
        x = label
        while x in idom:
            preds = ctl.pred.get(x, ())
            if len(preds) == 1 and len(set(ctl.succ.get(preds[0], ()))) == 2:
                a = preds[0]
                br = self.f.branch_instr(a)
                if br is not None and br.opcode == "bra" and br.guard is not None:
                    target = next((o.name for o in br.operands if type(o) is A.Sym), None)
                    for cmp, c in self._terms(br.guard, x == target) or ():
                        b = _bounds(cmp, c)
                        if b:
                            lo, hi = max(lo, b[0]), min(hi, b[1])
            up = idom[x]
            if up == x:
                break
            x = up
        self._window[label] = (lo, hi)
        return lo, hi

    def splits_here(self, decider: str, label: str) -> bool:
        """Can the test of branch block `decider` split a warp among the threads that reach `label`?"""
        warps = self.split_warps(decider)
        if warps is None:
            return True
        lo, hi = self.window(label)
        return any(lo // 32 <= w <= hi // 32 for w in warps)
