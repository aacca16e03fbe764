"""EIATTR computation on pylower's own layout.

Offset lists come from tags the ISel rules put on SASS instructions (a table from tag to EIATTR),
plus a few that follow from the opcode alone (EXIT). Scalar attributes (NUM_BARRIERS, ...) are computed
from the selected program by the functions in SCALARS. Families extend TAG_TO_EIATTR / SCALARS.
"""
from __future__ import annotations

from collections.abc import Callable

from .instr import SassFunction, SassProgram

# tag on a SassInstr -> EIATTR offset list it adds an entry to
TAG_TO_EIATTR: dict[str, str] = {
    "EXIT": "EIATTR_EXIT_INSTR_OFFSETS",
    "INT_WARP_WIDE": "EIATTR_INT_WARP_WIDE_INSTR_OFFSETS",
    "COOP_GROUP": "EIATTR_COOP_GROUP_INSTR_OFFSETS",
    "COOP_GROUP_SLOW": "EIATTR_COOP_GROUP_INSTR_OFFSETS",     # the slow-path call/branch of a warp-sync op
    "MEMBAR_SYS": "EIATTR_SW_WAR_MEMBAR_SYS_INSTR_OFFSETS",
    "MBARRIER": "EIATTR_MBARRIER_INSTR_OFFSETS",
}


def _num_barriers(fn: SassFunction) -> int | None:
    """ptxas: highest immediate barrier id + 1; any register barrier id reserves all 16."""
    n = 0
    seen = False
    for ins in fn.instrs:
        if "BARRIER_ID" in ins.tags:
            seen = True
            ids = [o for o in ins.operands[:1] if o.startswith("0x")]
            if not ids:
                return 16
            n = max(n, int(ids[0], 16) + 1)
    return n if seen else None


_MASK_IMM, _MASK_IN_REG = 0xFFFFFFFF, 0x05000000


def _coop_mask_regids(fn: SassFunction) -> list[int] | None:
    """One member-mask entry per EIATTR_COOP_GROUP_INSTR_OFFSETS entry: 0xffffffff for an immediate mask (and
    for a slow-path call), 0x05000000|n for a mask held in Rn (tag MASK_REG; registers are virtual here, so n=0)."""
    vals = [_MASK_IN_REG if t == "COOP_GROUP" and "MASK_REG" in i.tags else _MASK_IMM
            for i in fn.instrs for t in i.tags if t in ("COOP_GROUP", "COOP_GROUP_SLOW")]
    return vals or None


_MBARRIERS_UNKNOWN = 0xFFFF


def _num_mbarriers(fn: SassFunction) -> int | None:
    """With EIATTR_MBARRIER_INSTR_OFFSETS: the number of mbarrier.init instructions (static count), 0xffff
    when one sits in a loop (docs/findings/mbarrier.md section 3)."""
    if not any("MBARRIER" in i.tags for i in fn.instrs):
        return None
    if any("MBARRIER_INIT_LOOP" in i.tags for i in fn.instrs):
        return _MBARRIERS_UNKNOWN
    return sum(1 for i in fn.instrs if "MBARRIER_INIT" in i.tags)


# What makes ptxas note the convergence (CRS) stack (docs/findings/eiattr.md section 2): a place where the warp
# may split and has to be brought back together. A branch on a thread-dependent predicate, forward or back, at
# any -O level (SassFunction.divergent_branch; tag DIVERGENT_BRANCH on a branch ISel makes: the retry branch of
# a CAS loop); a convergence barrier (BSSY); a call into the program (CALL.REL: a .func of the module, or the
# internal subroutine of a division, square root or reciprocal: tag SUBROUTINE_CALL). Not a call of an extern
# (vprintf, __assertfail: tag EXTERN_CALL, ptxas's CALL.ABS) or a syscall (CALL.ABS), not a warp-synchronous
# op's slow path by itself (BRA.DIV, WARPSYNC.COLLECTIVE: after an extern call, at -O0), not a uniform branch.
# The value is 0 in every kernel seen (sm_75..sm_120).
_CRS_TAGS = frozenset({"DIVERGENT_BRANCH", "SUBROUTINE_CALL"})
_USES_CRS = (("BSSY", None), ("CALL", "REL"))


def _crs_stack_size(fn: SassFunction) -> int | None:
    if fn.divergent_branch or any(i.tags & _CRS_TAGS for i in fn.instrs) or \
            any(i.opcode == opc and (mod is None or mod in i.mods) and "EXTERN_CALL" not in i.tags
                for i in fn.instrs for opc, mod in _USES_CRS):
        return 0
    return None


SCALARS: dict[str, Callable[[SassFunction], object]] = {
    "EIATTR_CRS_STACK_SIZE": _crs_stack_size,
    "EIATTR_NUM_BARRIERS": _num_barriers,
    "EIATTR_NUM_MBARRIERS": _num_mbarriers,
    "EIATTR_COOP_GROUP_MASK_REGIDS": _coop_mask_regids,
}


def compute(fn: SassFunction) -> dict:
    out: dict[str, object] = {}
    for name, f in SCALARS.items():
        v = f(fn)
        if v is not None:
            out[name] = v
    lists: dict[str, list[int]] = {}
    for ins in fn.instrs:
        tags = ins.tags
        if ins.opcode == "EXIT" and fn.is_entry:
            tags = tags | {"EXIT"}
        for t in tags:
            e = TAG_TO_EIATTR.get(t)
            if e:
                lists.setdefault(e, []).append(ins.offset)
    for e, offs in lists.items():
        out[e] = offs
    return dict(sorted(out.items()))


def compute_program(prog: SassProgram) -> None:
    for fn in prog.functions:
        fn.eiattr = compute(fn)


def counts(eiattr: dict) -> dict:
    """The comparable view: offset lists become their entry counts."""
    return {k: (len(v) if isinstance(v, list) else v) for k, v in eiattr.items()}
