"""divergent-barrier: an aligned CTA barrier that not every thread it waits for reaches.

An aligned barrier (`bar.sync`, `bar.red`, `bar.arrive`, `barrier.sync.aligned`, `barrier.cluster.*.aligned`)
must be executed by all threads of a warp together, and a barrier without a thread count waits for every
thread of the CTA. So it is a bug when the barrier runs
- under a lane-dependent decision (a branch, a guard or an early exit whose condition differs between the
  lanes of a warp): copies of one barrier in both arms of such a branch are different barriers for the
  warp; or
- under a warp-dependent decision, when it waits for the whole CTA (no thread count, or a count as large
  as the block) and a path from that decision reaches its join, or the kernel's exit, without passing a
  barrier with the same id: the warps on that path never arrive.
A warp-dependent branch to barriers with a thread count (`bar.sync 1, 128` in a warp-specialised kernel)
is the intended use and is not reported. A call to a function that executes such a barrier counts as the
barrier. docs/lint/divergent-barrier.md.
"""
from __future__ import annotations

from .. import threads as T
from ..control import EXIT
from ..finding import check
from ..sync import barrier_operands, is_cluster_barrier
from .common import finding, guard_text, note, text, why

ID = "divergent-barrier"


def _barrier_id(f, ins):
    if is_cluster_barrier(ins):
        return "cluster"
    bid, _ = barrier_operands(ins)
    return None if bid is None else f.values.const(bid)


def _waits_for_all(f, ins) -> bool:
    """Does the barrier wait for every thread of the CTA (or cluster), by having no thread count? (A
    counted barrier may be completed by threads arriving elsewhere: `bar.arrive` in the producer warps.)"""
    if is_cluster_barrier(ins):
        return True
    _, cnt = barrier_operands(ins)
    return cnt is None


class _Barriers:
    """Per function: the aligned barriers it (or a function it calls) executes."""

    def __init__(self, m):
        self.m = m
        self._inside: dict[str, object] = {}

    def inside(self, name: str, stack=()):
        """The first aligned barrier a call of `name` executes unconditionally or not, or None."""
        if name in self._inside:
            return self._inside[name]
        fn = self.m.by_name.get(name)
        self._inside[name] = None
        if fn is None or name in stack:
            return None
        f = self.m.facts(fn)
        found = None
        for b in fn.blocks:
            if not f.control.live(b.label):
                continue
            for ins in b.instrs:
                if f.is_aligned_barrier(ins):
                    found = (ins, fn)
                elif ins.opcode == "call":
                    c = f.callee(ins)
                    if c:
                        found = self.inside(c, stack + (name,))
                if found:
                    break
            if found:
                break
        self._inside[name] = found
        return found


def _matches(f, ins, bid) -> bool:
    if not (f.is_cta_barrier(ins) or is_cluster_barrier(ins)):
        return False
    if ins.guard is not None:
        return False
    other = _barrier_id(f, ins)
    return other is None or bid is None or other == bid


def _skips(f, a: str, bid, calls) -> bool:
    """Is there a path from branch block `a` to its join (or the exit) without a barrier of id `bid`?"""
    ctl = f.control
    stop = ctl.ipdom.get(a)
    seen = set()
    work = list(ctl.succ.get(a, ()))
    while work:
        x = work.pop()
        if x in seen:
            continue
        seen.add(x)
        if x == stop or x == EXIT:
            return True
        blk = f.blocks[x]
        if any(_matches(f, i, bid) or i.opcode == "call" and i.guard is None and calls.inside(f.callee(i) or "")
               for i in blk.instrs):
            continue
        work.extend(ctl.succ.get(x, ()))
    return False


def _warp_deciders(f, ins):
    """The warp-dependent branch blocks that decide whether `ins` runs."""
    label = f.block_of[id(ins)]
    return [a for a in f.control.controls(label) if f.threads.branch_level(a) == T.WARP]


@check(ID, "an aligned CTA barrier reached under thread-dependent control flow")
def run(m):
    calls = _Barriers(m)
    for fn in m.functions():
        f = m.facts(fn)
        for b in fn.blocks:
            if not f.control.live(b.label):
                continue
            for ins in b.instrs:
                inner = None
                if f.is_aligned_barrier(ins):
                    target = ins
                elif ins.opcode == "call" and f.callee(ins):
                    inner = calls.inside(f.callee(ins))
                    if inner is None:
                        continue
                    target = inner[0]
                else:
                    continue
                level, who = f.execution(ins)
                if level == T.UNIFORM:
                    continue
                what = f"aligned barrier `{text(ins)}`" if inner is None else \
                    f"`{text(ins)}`, which executes an aligned barrier,"
                tf = f if inner is None else m.facts(inner[1])
                extra = [] if inner is None else [note(m, target, f"it executes the aligned barrier `{text(target)}`")]
                if level == T.LANE:
                    if who is ins:
                        msg = (f"{what} is guarded by {guard_text(f, ins, level)}, which is lane-dependent: the "
                               f"threads of a warp must execute an aligned barrier together")
                    else:
                        msg = (f"{what} is reached under lane-dependent control flow: the threads of a warp may "
                               f"arrive at different barrier instructions or not at all")
                    yield finding(m, f, ID, ins, msg, why(m, f, who, level) + extra)
                    continue
                if not _waits_for_all(tf, target):
                    continue
                bid = _barrier_id(tf, target)
                if who is ins:
                    deciders = [ins]
                else:
                    deciders = [a for a in _warp_deciders(f, ins) if _skips(f, a, bid, calls)]
                    if not deciders:
                        continue
                d = deciders[0] if who not in deciders else who
                whole = "cluster" if is_cluster_barrier(target) else "CTA"
                if who is ins:
                    msg = (f"{what} waits for every thread of the {whole} but is guarded by "
                           f"{guard_text(f, ins, T.WARP)}, which is warp-dependent: the warps guarded off never arrive")
                else:
                    msg = (f"{what} waits for every thread of the {whole} but is reached under warp-dependent "
                           f"control flow: warps that take the other path never arrive")
                yield finding(m, f, ID, ins, msg, why(m, f, d, T.WARP) + extra)
