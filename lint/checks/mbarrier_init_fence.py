"""mbarrier-init-fence: an mbarrier used by other threads, or by the async proxy, before its initialisation
is made visible to them.

`mbarrier.init` is a generic-proxy write by the initialising thread. Other threads may use the barrier
only after a CTA barrier (`bar.sync`, `barrier.sync`, `bar.arrive`, a cluster barrier) orders them after
it, and a bulk / tensor copy (the async proxy) completing transactions on it, or tcgen05.commit, needs a
`fence.mbarrier_init` or `fence.proxy.async` (or such a barrier) in between. The check is a forward
dataflow over the CFG: an init stays unpublished on a path until one of those; a use on a path where an
init of the same barrier (by address) is unpublished is reported when it is an async-proxy use, or a use
by threads that need not be the initialising one (its execution conditions do not include all of the
init's: the init is guarded by `tid == 0`, the use is not). docs/lint/mbarrier-init-fence.md.
"""
from __future__ import annotations

from pylower.lowering.ops import SYNC

from .. import threads as T
from ..dataflow import forward, replay
from ..finding import check
from ..sync import cta_barrier, mbarrier_op
from .common import finding, note, text

ID = "mbarrier-init-fence"


def _publishes(ins) -> bool:
    """Does `ins` make earlier mbarrier inits visible (to the CTA, or to the async proxy)?"""
    if cta_barrier(ins) or ins.opcode == "barrier" and ins.attrs.cluster:
        return True
    if ins.op == SYNC and ins.opcode == "fence" and ins.attrs.form in ("mbarrier_init", "async"):
        return True
    return False


def conditions(f, ins) -> frozenset:
    """The thread-dependent decisions under which `ins` runs: control-dependence edges of thread-dependent
    branches and its own guard (by predicate register and the writes of it that reach)."""
    th = f.threads
    out = set()
    label = f.block_of[id(ins)]
    if f.control.live(label):
        seen, work = set(), [label]
        while work:
            x = work.pop()
            for a, s in f.control.cd_edges.get(x, ()):
                if (a, s) in seen:
                    continue
                seen.add((a, s))
                if (th.branch_level(a) or 0) > T.UNIFORM:
                    out.add((a, s))
                work.append(a)
    if ins.guard is not None and th.guard_level(ins) > T.UNIFORM:
        g = ins.guard
        neg = type(g).__name__ == "Not"
        name = (g.inner if neg else g).name
        reach = th.reach.get((id(ins), name)) if name in th.multi else None
        out.add(("guard", name, neg, reach))
    return frozenset(out)


def _pending_at_uses(f):
    """Forward dataflow: the inits (indices into the returned list) that may be unpublished at every mbarrier
    use."""
    ops = {}
    inits = []
    for b in f.fn.blocks:
        for ins in b.instrs:
            op = mbarrier_op(ins)
            if op is not None:
                ops[id(ins)] = op
                if op.kind == "init":
                    inits.append(op)
    if not inits:
        return [], []
    index = {id(op.ins): k for k, op in enumerate(inits)}

    def transfer(ins, state):
        if _publishes(ins):
            return frozenset()
        k = index.get(id(ins))
        return state | {k} if k is not None else state

    IN = forward(f, frozenset(), lambda a, b: a | b, transfer)
    found = []

    def visit(ins, state):
        op = ops.get(id(ins))
        if state and op is not None and op.kind not in ("init", "inval"):
            found.append((op, state))

    replay(f, IN, transfer, visit)
    return inits, found


@check(ID, "an mbarrier used by other threads or the async proxy before its init is visible")
def run(m):
    for fn in m.functions():
        f = m.facts(fn)
        inits, found = _pending_at_uses(f)
        if not found:
            continue
        addr = [f.values.address(op.operand) for op in inits]
        cond = {}
        reported = set()
        for op, pending in found:
            a = f.values.address(op.operand)
            hits = []
            for k in sorted(pending):
                if k in reported or a is not None and not a.may_alias(addr[k]):
                    continue
                if not op.async_proxy:
                    ci = cond.setdefault(k, conditions(f, inits[k].ins))
                    if ci <= conditions(f, op.ins):
                        continue                 # only the initialising threads use it: program order suffices
                hits.append(k)
            if not hits:
                continue
            reported.update(hits)                # one finding per init: at its first unordered use
            init = inits[hits[0]].ins
            if not op.async_proxy:
                why = ("other threads may use it before the initialisation is visible to them: a CTA "
                       "barrier (bar.sync) must order the init before this use")
            else:
                why = ("the async proxy may see the barrier before its initialisation: a "
                       "`fence.mbarrier_init.release.cluster` or `fence.proxy.async` (or a CTA barrier) must "
                       "come between")
            which = f"the mbarrier initialised at line {init.line}" if len(hits) == 1 else \
                f"an mbarrier initialised at line {init.line} (or one of {len(hits) - 1} more that its address may name)"
            notes = [note(m, init, "the mbarrier is initialised here")]
            if len(hits) > 1:
                notes.append(note(m, inits[hits[-1]].ins, "another mbarrier its address may name is initialised here"))
            yield finding(m, f, ID, op.ins, f"`{text(op.ins)}` uses {which}, but {why}", notes)
