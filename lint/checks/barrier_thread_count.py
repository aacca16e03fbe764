"""barrier-thread-count: the thread count of a named barrier (`bar.sync id, n`, `bar.arrive id, n`,
`bar.red ... id, n`, `barrier.sync id, n`), with the id and the count constant-propagated through
registers, that
- is not a multiple of the warp size (32): barriers count whole warps;
- is larger than the block (`.reqntid`, else `.maxntid`): the barrier can never complete;
- differs from the count another use of the same barrier id gives: the threads arriving with one count
  and the threads waiting with another disagree on when the barrier completes. (A use without a count
  involves the whole block, so it is a separate phase of the barrier: Triton's warp-specialised kernels
  use barrier 0 with the whole block around the partitions and with 128 threads inside one.)
ptxas rejects an immediate count that is not a multiple of 32; a count in a register is checked only at
run time (undefined behaviour). docs/lint/barrier-thread-count.md.
"""
from __future__ import annotations

from ..finding import check
from ..sync import barrier_operands, is_cluster_barrier
from .common import finding, note, text

ID = "barrier-thread-count"
WARP = 32


def _uses(m, kernel):
    """(instruction, facts, id, count) of every CTA barrier the kernel (and what it calls) executes; count
    None when the instruction has none (the whole block), "?" when not constant."""
    out = []
    for fn in m.reachable(kernel):
        f = m.facts(fn)
        for b in fn.blocks:
            for ins in b.instrs:
                if not f.is_cta_barrier(ins) or is_cluster_barrier(ins):
                    continue
                bid, cnt = barrier_operands(ins)
                if bid is None:
                    continue
                i = f.values.const(bid)
                c = None if cnt is None else f.values.const(cnt)
                out.append((ins, f, i, "?" if cnt is not None and c is None else c))
    return out


@check(ID, "a named-barrier thread count that is not a multiple of 32, exceeds the block or disagrees")
def run(m):
    for kernel in m.kernels():
        kf = m.facts(kernel)
        block = kf.max_threads()
        uses = _uses(m, kernel)
        first: dict[int, tuple] = {}
        for ins, f, bid, cnt in uses:
            if isinstance(cnt, int):
                if cnt % WARP:
                    yield finding(m, f, ID, ins, f"`{text(ins)}`: the thread count {cnt} is not a multiple of the "
                                  f"warp size (32); barriers count arriving threads a warp at a time")
                    continue
                if block is not None and cnt > block:
                    which = ".reqntid" if kf.reqntid else ".maxntid"
                    yield finding(m, f, ID, ins, f"`{text(ins)}`: the thread count {cnt} exceeds the {block} threads "
                                  f"of the block ({which} of `{kernel.name}`): the barrier can never complete")
                    continue
            if bid is None or not isinstance(cnt, int):
                continue
            n = cnt
            prev = first.get(bid)
            if prev is None:
                first[bid] = (ins, f, n, cnt)
                continue
            pins, pf, pn, pcnt = prev
            if pn != n:
                say = (lambda c, v: str(v))
                yield finding(m, f, ID, ins,
                              f"`{text(ins)}` uses barrier {bid} with {say(cnt, n)} threads, but "
                              f"`{text(pins)}` uses it with {say(pcnt, pn)}: the arrivals and the waiters "
                              f"disagree on when barrier {bid} completes",
                              [note(m, pins, f"barrier {bid} is used with {say(pcnt, pn)} threads here")])
