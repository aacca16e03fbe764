"""Phase 14 MergeSameTestIfs (pylower's name and place; the ptxas pass was not identified): two ifs in a row
on the same test become one. `H: @p bra J1; B; J1: @p bra J2; C; J2:` -- the first if's join J1 holding only
the second if's branch on the same guard, p unchanged in B -- is `H: @p bra J2; B; C; J2:` (ptxas 13.0.88: one
BSSY/BSYNC pair around both bodies where each if would have had its own, and a body ptxas would predicate alone
runs inside the merged branch).

Not merged (measured): when the first body holds a bulk copy (`cp.async.bulk...`, UBLKCP) and the second body's
first memory access or fence, after its bulk-group waits, is a memory access or a proxy fence (`wait_group.read;
st`, `st; membar.cta`, `red`, `fence.proxy.async; st`); a thread fence first (`membar.cta; st`,
`fence.acq_rel.cta; st`, `wait_group; membar.cta; st`) or nothing but waits merges. Nor when the join holds
other work, when B rewrites p, or at -O0. Nor, in a kernel, when J2 is the return block (one `ret`): the second
branch becomes `@p EXIT` and the first if keeps its own region (docs/findings/convergence.md "Two ifs on the same
test stay two when the second joins at the return (helper nvnew25, stop 25)").
docs/findings/convergence.md "Two ifs on the same test are one region (helper nvasync25, stop 25)"; probes
phases/same_test_ifs_*.
"""
from __future__ import annotations

from pylower.lowering import ori
from pylower.lowering import ptx_ast as A
from pylower.lowering.ops import ASYNC, SYNC, branch_target

from .manager import PassContext, Phase

NAME = "MergeSameTestIfs"
MERGE_FROM_OPT = 1
# thread fences a second body may start with after a bulk copy (membar.*, fence.sc/acq_rel)
_THREAD_FENCE_SEMS = frozenset({"sc", "acq_rel"})


def _guard_key(ins):
    g = ins.guard
    if g is None or ins.opcode != "bra" or ins.has(".uni"):
        return None
    neg = type(g) is A.Not
    r = g.inner if neg else g
    return (neg, r.name) if type(r) is A.Reg else None


def _falls_into(b, nxt) -> bool:
    """Does block b end without a branch and fall through into nxt, its only successor?"""
    last = b.instrs[-1] if b.instrs else None
    return b.succs == [nxt.label] and (last is None or last.opcode != "bra")


def _is_return_block(fn, label: str) -> bool:
    """In a kernel: the block `label` holds one unguarded `ret` (a branch to it is an `@p EXIT`)."""
    if not fn.is_entry:
        return False
    blk = next((b for b in fn.blocks if b.label == label), None)
    return blk is not None and len(blk.instrs) == 1 and blk.instrs[0].opcode == "ret" and blk.instrs[0].guard is None


def _bulk_copy(ins) -> bool:
    return ins.op == ASYNC and ins.attrs.form == "bulk"


def _merges_after_bulk(body) -> bool:
    """After a first body with a bulk copy: the second body's first memory access or fence, past its bulk-group
    waits, is a thread fence (or there is none)."""
    for ins in body.instrs:
        if ins.op == ASYNC and ins.attrs.form == "bulk_wait_group":
            continue
        if ins.opcode in ("membar", "fence") and ins.op == SYNC:
            return ins.attrs.form == "thread" and ins.attrs.sem in _THREAD_FENCE_SEMS
        if ins.opcode in ("ld", "st", "atom", "red", "cp", "mbarrier", "bar", "barrier") or ins.op == ASYNC:
            return False
    return True


class MergeSameTestIfs(Phase):
    number = 14
    name = NAME
    description = "-O1+: two ifs in a row on the same test (the first join holds only the second branch) are one"

    def run(self, fn: ori.Function, ctx: PassContext) -> bool:
        if ctx.opt_level < MERGE_FROM_OPT:
            return False
        changed = False
        k = 0
        while k + 3 < len(fn.blocks):
            if self._merge(fn, k, ctx):
                ori.link_preds(fn)
                ctx.analyses(fn).invalidate("none")
                changed = True
            else:
                k += 1
        return changed

    def _merge(self, fn: ori.Function, k: int, ctx: PassContext) -> bool:
        h, b, j1, c = fn.blocks[k:k + 4]
        last = h.instrs[-1] if h.instrs else None
        key = _guard_key(last) if last is not None else None
        if key is None or branch_target(last) != j1.label or set(h.succs) != {b.label, j1.label}:
            return False
        if len(j1.instrs) != 1 or _guard_key(j1.instrs[0]) != key or set(j1.preds) != {h.label, b.label}:
            return False
        j2 = branch_target(j1.instrs[0])
        if j2 is None or set(j1.succs) != {c.label, j2} or j2 in (h.label, b.label, j1.label, c.label):
            return False
        if not _falls_into(b, j1):
            return False
        if _is_return_block(fn, j2):
            ctx.count(self, "not merged: the second if joins at the return")
            return False
        du = ctx.analyses(fn).defuse
        if any(key[1] in du.defs(i) for i in b.instrs):
            return False
        if any(_bulk_copy(i) for i in b.instrs) and not _merges_after_bulk(c):
            ctx.count(self, "not merged: a bulk copy, then a memory access first")
            return False
        last.operands = tuple(A.Sym(j2) if type(o) is A.Sym and o.name == j1.label else o for o in last.operands)
        h.succs = [j2, b.label]
        b.succs = [c.label]
        fn.blocks.pop(k + 2)
        ctx.count(self, "ifs merged")
        return True


PHASE = MergeSameTestIfs()
