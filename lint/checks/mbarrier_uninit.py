"""mbarrier-uninit: an arrive, wait, expect_tx or transaction completion (a bulk / tensor copy, st.async,
tcgen05.commit signalling it) on an mbarrier that the kernel never initialises with `mbarrier.init`.

The mbarrier is located through the address computation (a `.shared` variable or the dynamic shared
memory, plus a constant offset when there is one); a use is reported when no `mbarrier.init` in the kernel
or the functions it calls may address the same barrier. An uninitialised mbarrier holds whatever the
shared memory held: waits never complete or complete at once. When some init's address cannot be
followed (it comes from memory or a parameter) nothing is reported. docs/lint/mbarrier-uninit.md.
"""
from __future__ import annotations

from ..finding import check
from ..sync import mbarrier_op
from .common import finding, text

ID = "mbarrier-uninit"
_WHAT = {"arrive": "arrives on", "expect_tx": "expects transactions on", "wait": "waits on",
         "cp_async_arrive": "arrives (when its cp.async copies complete) on",
         "complete_tx": "completes transactions on", "commit": "arrives (tcgen05.commit) on"}


def _known(a) -> bool:
    return a is not None and not a.base.startswith("*")


@check(ID, "an mbarrier that is used but never initialised")
def run(m):
    for kernel in m.kernels():
        inits, uses = [], []
        for fn in m.reachable(kernel):
            f = m.facts(fn)
            for b in fn.blocks:
                for ins in b.instrs:
                    op = mbarrier_op(ins)
                    if op is None:
                        continue
                    a = f.values.address(op.operand)
                    if op.kind == "init":
                        inits.append(a)
                    elif op.kind != "inval":
                        uses.append((op, a, f))
        if any(not _known(a) for a in inits):
            continue
        reported = set()
        for op, a, f in uses:
            if not _known(a) or any(a.may_alias(i) for i in inits) or id(op.ins) in reported:
                continue
            reported.add(id(op.ins))
            where = f"`{a}`"
            msg = (f"`{text(op.ins)}` {_WHAT[op.kind]} the mbarrier at {where}, which `{kernel.name}` never "
                   f"initialises (no `mbarrier.init` on it)")
            yield finding(m, f, ID, op.ins, msg)
