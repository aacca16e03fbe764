"""SASS sequences several ISel families share, each defined once:

- the thread-fence rows by order and scope (`.sc` -> MEMBAR.SC.<S>, `.acq_rel` -> MEMBAR.ALL.<S>; a scope
  wider than CTA adds ERRBAR (+ CGAERRBAR where the target has it) and a trailing CCTL.IVALL; `.release` is
  the acq_rel sequence without CCTL.IVALL, `.acquire` only CCTL.IVALL (nothing at CTA scope)), used by
  fences, atomics with an order, ordered loads/stores, cluster barriers and red.async. ptxas's knob
  DisableErrbarAfterMembar drops the error barriers after every MEMBAR here (ptxas 13.0.88's driver
  exposes no knob option, so its default 0 is what the probes show). In a kernel that holds any mbarrier
  op on a target with MBARRIER_CTA_MEMBAR every MEMBAR wider than CTA is preceded by MEMBAR.ALL.CTA
  (the SYNCS unit is ordered at CTA scope first: probes/fence/mbar_kernel_*);
- the scope maps: PTX scope -> MEMBAR scope, and the strength an access prints (.STRONG.<S>);
- the convergence pair (BMOV.32.CLEAR before BSSY where the target needs it; .RECONVERGENT);
- WARPSYNC of a member mask (WARPSYNC.ALL for the full mask where the target has it);
- the REDUX / CREDUX modifiers of a warp reduction.
"""
from __future__ import annotations

from pylower.lowering import ori
from pylower.lowering import ptx_ast as A
from pylower.lowering.ops import FULL_MASK, call_target

from .rules import operand_text

# PTX scope -> the scope MEMBAR prints (a cluster fence is a GPU MEMBAR)
MEMBAR_SCOPE = {"cta": "CTA", "cluster": "GPU", "gpu": "GPU", "sys": "SYS"}
_WIDE = ("ERRBAR", "CGAERRBAR")
# (order, MEMBAR scope is CTA) -> SASS mnemonics; {S} is the MEMBAR scope
THREAD_FENCE = {
    ("sc", True): ("MEMBAR.SC.CTA",),
    ("acq_rel", True): ("MEMBAR.ALL.CTA",),
    ("release", True): ("MEMBAR.ALL.CTA",),
    ("acquire", True): (),
    ("sc", False): ("MEMBAR.SC.{S}",) + _WIDE + ("CCTL.IVALL",),
    ("acq_rel", False): ("MEMBAR.ALL.{S}",) + _WIDE + ("CCTL.IVALL",),
    ("release", False): ("MEMBAR.ALL.{S}",) + _WIDE,
    ("acquire", False): ("CCTL.IVALL",),
}
# instructions only targets with a feature have; elsewhere they are left out of a row
_NEEDS = {"CGAERRBAR": "CGAERRBAR", "CCTL.E.C.LDCU.IV.DEEP": "CCTL_LDCU_DEEP"}
ERRBAR_KNOB = "DisableErrbarAfterMembar"


_MBAR, _ASYNC = ori.ORI_CLASSES["mbarrier"], ori.ORI_CLASSES["async"]


def orders_mbarriers(sel) -> bool:
    """Does the kernel being selected hold an mbarrier op (any form, pending_count too: probes/fence/
    mbar_kernel_*), or a bulk copy the target makes a syscall (the sm_120 family's global -> shared::cluster
    loads: mbar_kernel_bulk_only), itself or in a function it calls? Computed once per function."""
    key = "mbarrier_kernel"
    if key not in sel._analyses:
        from .fam_async_copy import bulk_syscall
        by_name = {f.name: f for f in sel.module.functions} if sel.module is not None else {}
        seen, todo, found = set(), [sel.function], False
        while todo and not found:
            fn = todo.pop()
            if fn.name in seen:
                continue
            seen.add(fn.name)
            for i in fn.instructions():
                if i.op == _MBAR or i.op == _ASYNC and bulk_syscall(i, sel.target):
                    found = True
                    break
                callee = by_name.get(call_target(i))
                if callee is not None:
                    todo.append(callee)
        sel._analyses[key] = found
    return sel._analyses[key]


def rows(sel, ins, mnemonics, operands=None, scope: str = "", guard: str | None = None) -> list:
    """SASS instructions for `OPC.MOD.MOD` mnemonics ({S}: the MEMBAR scope), without those the target lacks
    and, under knob DisableErrbarAfterMembar, without the error barriers; a MEMBAR wider than CTA in a kernel
    with mbarrier ops gets MEMBAR.ALL.CTA first (MBARRIER_CTA_MEMBAR)."""
    out = []
    no_errbar = int(sel.options.get("knobs", {}).get(ERRBAR_KNOB, 0))
    for m in mnemonics:
        need = _NEEDS.get(m)
        if need is not None and not sel.target.has(need):
            continue
        if no_errbar and m in _WIDE:
            continue
        opc, *mods = m.format(S=scope).split(".")
        if opc == "MEMBAR" and mods[-1] != "CTA" and sel.target.has("MBARRIER_CTA_MEMBAR") \
                and orders_mbarriers(sel):
            out.append(sel.sass(ins, "MEMBAR", ("ALL", "CTA"), guard=guard))
        out.append(sel.sass(ins, opc, tuple(mods), (operands or {}).get(opc, ()), guard=guard))
    return out


def thread_fence(sel, ins, order: str, scope: str, guard: str | None = None) -> list:
    """fence.<order>.<scope> (order: sc / acq_rel / release / acquire; scope: cta / cluster / gpu / sys)."""
    s = MEMBAR_SCOPE[scope]
    return rows(sel, ins, THREAD_FENCE[(order, s == "CTA")], scope=s, guard=guard)


# PTX scope -> the strength an ordered access prints after .E (ld/st: probes/memory; atomics use STRONG.CTA
# for .cta on targets without STRONG_SM_SCOPE)
STRENGTH = {"cta": ("STRONG", "SM"), "cluster": ("STRONG", "GPU"), "gpu": ("STRONG", "GPU"), "sys": ("STRONG", "SYS")}


def bssy(sel, ins, depth: int, join: str, reconvergent: bool, guard: str | None = None, reliable: bool = False) -> list:
    """The opening half of a convergence pair: `BSSY Bn, join` (BMOV.32.CLEAR RZ, Bn first where the target
    has BMOV_CLEAR_BEFORE_BSSY); .RELIABLE for a pair left by a BREAK (BREAK_LOOP_RELIABLE)."""
    out = []
    if sel.target.has("BMOV_CLEAR_BEFORE_BSSY"):
        out.append(sel.sass(ins, "BMOV", ("32", "CLEAR"), ("RZ", f"B{depth}"), guard=guard))
    out.append(sel.sass(ins, "BSSY", _pair_mods(reconvergent, reliable), (f"B{depth}", join), guard=guard))
    return out


def bsync(sel, ins, depth: int, reconvergent: bool, guard: str | None = None, reliable: bool = False):
    return sel.sass(ins, "BSYNC", _pair_mods(reconvergent, reliable), (f"B{depth}",), guard=guard)


def brk(sel, ins, depth: int, reliable: bool):
    """`BREAK Bn`: leave the pair Bn's loop (.RELIABLE with a .RELIABLE pair)."""
    return sel.sass(ins, "BREAK", ("RELIABLE",) if reliable else (), (f"B{depth}",))


def _pair_mods(reconvergent: bool, reliable: bool) -> tuple:
    return ("RELIABLE",) if reliable else ("RECONVERGENT",) if reconvergent else ()


def is_full(o) -> bool:
    return type(o) is A.Imm and isinstance(o.value, int) and o.value & FULL_MASK == FULL_MASK


def warpsync(sel, ins, mask, mods=(), tags=()):
    """WARPSYNC of a member mask operand; a full mask is WARPSYNC.ALL where the target has WARPSYNC_ALL."""
    ops = (operand_text(mask),) if mask is not None else ()
    if not mods and mask is not None and is_full(mask):
        mods, ops = (("ALL",), ()) if sel.target.has("WARPSYNC_ALL") else ((), (hex(FULL_MASK),))
    return sel.sass(ins, "WARPSYNC", mods, ops, tags=tags)


# warp reduction (redux.sync and the aggregated atomics' REDUX): (op, type) -> modifiers; integer min/max are
# CREDUX on targets with CREDUX_INT_MINMAX, float ones always
REDUX_MODS = {
    ("add", "u32"): ("SUM",), ("add", "s32"): ("SUM", "S32"),
    ("min", "u32"): ("MIN",), ("min", "s32"): ("MIN", "S32"),
    ("max", "u32"): ("MAX",), ("max", "s32"): ("MAX", "S32"),
    ("and", "b32"): (), ("or", "b32"): ("OR",), ("xor", "b32"): ("XOR",),
    ("min", "f32"): ("MIN",), ("max", "f32"): ("MAX",),
}


def redux_opcode(sel, op: str, typ: str) -> str:
    return "CREDUX" if typ == "f32" or op in ("min", "max") and sel.target.has("CREDUX_INT_MINMAX") else "REDUX"
