"""proxy-fence: shared memory written by ordinary (generic-proxy) stores and then read by the async proxy —
a bulk copy or TMA store from shared memory (`cp.async.bulk[.tensor].global.shared::cta`,
`cp.reduce.async.bulk[.tensor]`, `cp.async.bulk.shared::cluster.shared::cta`) — with no
`fence.proxy.async` between them on some path.

The async proxy does not see generic-proxy writes until a proxy fence orders them: without it the copy can
read stale shared memory. The check is a forward dataflow over the CFG: a store to shared memory (by
state space, or a generic address into a `.shared` variable) makes the state dirty; `fence.proxy.async`
(of shared memory or of every space) cleans it; a copy reading shared memory in a dirty state is reported
when one of the stores reaching it may write the memory it reads (same variable). The usual fix: every
writing thread executes `fence.proxy.async.shared::cta` after its stores, then a barrier, then the
elected thread issues the copy. docs/lint/proxy-fence.md.
"""
from __future__ import annotations

from pylower.lowering.ops import SYNC

from ..dataflow import forward, replay
from ..finding import check
from ..sync import async_form, copy_source, reads_shared_async
from ..values import overlaps
from .common import finding, note, text

ID = "proxy-fence"
_STORES = ("st", "stmatrix", "atom", "red")


def _shared_store(f, ins) -> bool:
    if ins.opcode not in _STORES or ".async" in ins.mods:
        return False
    if ins.opcode == "atom" or ins.opcode == "red":
        mem = ins.operands[1] if ins.opcode == "atom" and len(ins.operands) > 1 else ins.operands[0]
    else:
        mem = ins.operands[0] if ins.operands else None
    return f.values.is_shared(f.values.address(mem), ins.mods) if mem is not None else False


def _store_address(f, ins):
    if ins.opcode == "atom" and len(ins.operands) > 1:
        return f.values.address(ins.operands[1])
    return f.values.address(ins.operands[0]) if ins.operands else None


_STORE_REACH = 16        # the widest store of one thread (v4.b32)


def _copy_size(f, ins):
    """Bytes a bulk copy reads from its source (a constant size operand), None when unknown (a tensor copy
    reads the tensor map's box)."""
    if async_form(ins) in ("bulk", "bulk_reduce"):
        ops = ins.operands
        addrs = [i for i, o in enumerate(ops) if type(o).__name__ == "Addr"]
        if len(addrs) >= 2 and addrs[1] + 1 < len(ops):
            return f.values.const(ops[addrs[1] + 1])
    return None


def _fences_shared(ins) -> bool:
    return ins.op == SYNC and ins.opcode == "fence" and ins.attrs.form == "async" \
        and ins.attrs.space in ("", "shared::cta", "shared::cluster")


@check(ID, "generic-proxy shared-memory stores read by a bulk/TMA copy without fence.proxy.async")
def run(m):
    for fn in m.functions():
        f = m.facts(fn)
        stores = {}
        copies = False
        for b in fn.blocks:
            for ins in b.instrs:
                if _shared_store(f, ins):
                    stores[id(ins)] = len(stores)
                elif reads_shared_async(ins):
                    copies = True
        if not stores or not copies:
            continue
        sites = {v: k for k, v in stores.items()}
        by_id = {id(i): i for b in fn.blocks for i in b.instrs if id(i) in stores}

        def transfer(ins, s):
            k = stores.get(id(ins))
            if k is not None:
                return s | {k}
            if _fences_shared(ins):
                return frozenset()
            return s

        IN = forward(f, frozenset(), lambda a, b: a | b, transfer)
        found = []

        def visit(ins, s):
            if s and reads_shared_async(ins):
                found.append((ins, s))

        replay(f, IN, transfer, visit)
        for ins, s in found:
            src = f.values.address(copy_source(ins))
            size = _copy_size(f, ins)
            hits = sorted(k for k in s if overlaps(src, size, _store_address(f, by_id[sites[k]]), _STORE_REACH))
            if not hits:
                continue
            st = by_id[sites[hits[0]]]
            yield finding(m, f, ID, ins,
                          f"`{text(ins)}` reads shared memory through the async proxy, but the generic-proxy store "
                          f"at line {st.line} may reach it with no `fence.proxy.async` in between: the copy can read "
                          f"stale data", [note(m, st, "shared memory is written here by the generic proxy")])
