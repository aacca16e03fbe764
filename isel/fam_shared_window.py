"""The vote before a shared variable's window address formed in a predicated if (SHARED_WINDOW_ADDRESS).

Where a shared variable's address is the cluster window's base plus its offset (sm_90+: `S2UR SR_CgaCtaId`,
then `ULEA` of the offset), ptxas keeps the window base in a uniform register once an mbarrier op on a shared
variable reads its address there (SYNCS takes `[URn]`). A one-block if ptxas predicates that names another shared
variable then forms that address on the uniform datapath under the if's predicate, made warp-uniform by one
`VOTEU.ALL UP0, P` (`@!UP0 ULEA URn, URcga, URoff, 0x18`; `@!P0 LDS ...`). No vote when the variable is the
mbarrier's own (its ULEA is reused), when code every path runs names a shared variable other than an
mbarrier's (the base is formed once there: `LDS [UR4+0x100]`, the region's address `LEA R, R, UR4`), or when
no mbarrier op names a variable (the base is read with a vector `S2R` and the address formed under `@!P0`).
docs/findings/mbarrier.md "A shared address formed in a predicated if is voted (helper nvasync25, stop 25)";
probes mbarrier/window_vote_*.
"""
from __future__ import annotations

from pylower.lowering import ptx_ast as A
from pylower.lowering.ori import ORI_CLASSES, PSEUDO_OPCODES

from . import generic
from .rules import rule

_WW = ("INT_WARP_WIDE",)
MBAR = ORI_CLASSES["mbarrier"]


@rule("mov")
def select_mov(ins, sel):
    if not _window_vote(ins, sel):
        return None
    return [sel.sass(ins, "VOTEU", ("ALL",), ("UP0", "PT"), tags=_WW, guard="",
                     reason="the predicated if forms a shared variable's window address on the uniform datapath")] \
        + generic.select(ins, sel)


def _named(ins) -> str | None:
    """The variable a `mov r, var` names."""
    if ins.opcode != "mov" or ins.guard is not None or len(ins.operands) != 2:
        return None
    o = ins.operands[1]
    return o.name if type(o) in (A.Sym, A.Reg) and not o.name.startswith("%") else None


def _window_vote(ins, sel) -> bool:
    name = _named(ins)
    if name is None or sel.block is None or not sel.target.has("SHARED_WINDOW_ADDRESS") \
            or not sel.target.has("MBARRIER_SYNCS"):
        return False
    fn = sel.function
    shared = fn.shared_symbols
    if name not in shared:
        return False
    barriers = _mbarrier_variables(sel)
    if not barriers or name in barriers:
        return False
    from .fam_async_copy import _predicated_if, _votes      # (imported only by runs with mbarriers)
    region = _predicated_if(sel, sel.block.label)
    if region is None:
        return False
    for prev in sel.block.instrs:
        if prev is ins:
            break
        if _named(prev) in shared and _named(prev) not in barriers:
            return False                        # one vote per region
    if any(_votes(i) for i in sel.block.instrs):
        return False                            # a voted op of the region votes for it (not measured apart)
    return not _named_always(sel, shared - barriers)


def _mbarrier_variables(sel) -> frozenset:
    """The shared variables mbarrier ops name, directly or through a mov (`mov r, bar; mbarrier.init [r]`)."""
    memo = sel.am.memo("window_vote_mbarriers")
    if "v" not in memo:
        du, out = sel.am.defuse, set()
        for b in sel.function.blocks:
            for i in b.instrs:
                if i.op != MBAR:
                    continue
                addr = next((o for o in i.operands if type(o) is A.Addr), None)
                base = addr.base if addr is not None else None
                if type(base) is A.Reg and base.name.startswith("%"):
                    ds = du.definitions(base.name)
                    base = ds[0].operands[1] if len(ds) == 1 and _named(ds[0]) else None
                if type(base) in (A.Sym, A.Reg) and not base.name.startswith("%"):
                    out.add(base.name)
        memo["v"] = frozenset(out) & sel.function.shared_symbols
    return memo["v"]


def _named_always(sel, names) -> bool:
    """Does code every path runs (the entry's chain of post-dominators) name one of the variables?"""
    by_label, ipdom = sel.am.blocks, sel.am.ipdom
    label, seen = sel.function.blocks[0].label, set()
    while label in by_label and label not in seen:
        seen.add(label)
        for i in by_label[label].instrs:
            if i.opcode in PSEUDO_OPCODES:
                continue
            if _named(i) in names or any(type(o) is A.Sym and o.name in names for o in i.operands):
                return True
            addr = next((o for o in i.operands if type(o) is A.Addr), None)
            if addr is not None and type(addr.base) in (A.Sym, A.Reg) and addr.base.name in names:
                return True
        label = ipdom.get(label)
    return False
