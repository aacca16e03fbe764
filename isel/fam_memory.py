"""ISel for loads and stores with a memory order (ld/st .volatile/.relaxed/.acquire/.release/.mmio), probed in
tests/corpus/probes/memory (docs/findings/memory.md). Weak ld/st fall back to the generic table.

- The access: the generic opcode (LDG/LD/LDS, STG/ST/STS) plus the strength ptxas prints after .E:
  .STRONG.<S> with S = SM (cta) / GPU (cluster, gpu) / SYS, .STRONG.SYS for .volatile, .MMIO.SYS for .mmio;
  shared::cta accesses (LDS/STS) print none.
- The fences: `ld.acquire.<scope>` is the load followed by `fence.acquire.<scope>` (CCTL.IVALL above CTA
  scope), `st.release.<scope>` is `fence.release.<scope>` (MEMBAR.ALL.<S>, ERRBAR, CGAERRBAR from sm_90)
  followed by the store - the rows of isel/fam_fence.py. Below sm_90 an acquire from shared::cta memory
  needs no CCTL.IVALL (no distributed shared memory to invalidate).
- A vector acquire load of which only some elements are read is split as ptxas splits it (each piece is
  its own load and gets its own CCTL.IVALL): the whole vector when more than half of its elements are
  read, else each half on its own; a piece with nothing read is dropped (one load/CCTL stays).
"""
from __future__ import annotations

from pylower.lowering import ptx_ast as A
from pylower.lowering.ori import ORI_CLASSES

from . import generic
from .rules import rule
from .sequences import STRENGTH, thread_fence

_ORDERS = (".volatile", ".relaxed", ".acquire", ".release")
_SCOPES = {".cta": "cta", ".cluster": "cluster", ".gpu": "gpu", ".sys": "sys"}
_VOLATILE = ("STRONG", "SYS")
_MMIO = ("MMIO", "SYS")
# shared::cta accesses (LDS/STS) carry no strength
_CTA_SHARED = (".shared", ".shared::cta")


def _order(mods):
    return next((m[1:] for m in reversed(mods) if m in _ORDERS), None)


def _scope(mods):
    return next((_SCOPES[m] for m in mods if m in _SCOPES), None)


def _strength(mods, order, scope):
    if any(m in _CTA_SHARED for m in mods):
        return ()
    if ".mmio" in mods:
        return _MMIO
    return _VOLATILE if order == "volatile" else STRENGTH[scope]


def _pieces(ins, sel) -> int:
    """How many loads (and fences) ptxas makes of a vector acquire load, from the elements read later."""
    dst = ins.operands[0]
    if type(dst) is not A.Vec or len(dst.items) < 2:
        return 1
    used = [type(r) is A.Reg and sel.result_used(ins, r) for r in dst.items]

    def split(flags):
        if not any(flags):
            return 0
        if len(flags) == 1 or 2 * sum(flags) > len(flags):
            return 1
        half = len(flags) // 2
        return split(flags[:half]) + split(flags[half:])
    return max(1, split(used))


def _access(ins, sel, order, scope):
    base = generic.select(ins, sel)[0]
    return sel.sass(ins, base.opcode, base.mods + _strength(ins.mods, order, scope), base.operands)


def _fence(ins, sel, sem, scope):
    return thread_fence(sel, ins, sem, scope)


@rule("ld")
def select_ld(ins, sel):
    mods = ins.mods
    order = _order(mods)
    if order is None and ".mmio" not in mods:
        return None
    scope = _scope(mods)
    if order != "acquire":
        return [_access(ins, sel, order, scope)]
    if not sel.target.has("SHARED_ACQUIRE_FENCE") and any(m in _CTA_SHARED for m in mods):
        return [_access(ins, sel, order, scope)]
    out = []
    for _ in range(_pieces(ins, sel)):
        out += [_access(ins, sel, order, scope)] + _fence(ins, sel, "acquire", scope)
    return out


_ASYNC = ORI_CLASSES["async"]


@rule("st")
def select_st(ins, sel):
    if ins.op == _ASYNC and ins.attrs.form == "st_async":
        from .fam_async_copy import select_st_async        # an asynchronous copy: imported when a run has one
        return select_st_async(ins, sel)
    mods = ins.mods
    order = _order(mods)
    if order is None and ".mmio" not in mods:
        return None
    scope = _scope(mods)
    return (_fence(ins, sel, "release", scope) if order == "release" else []) + [_access(ins, sel, order, scope)]
