"""tensormap.cp_fenceproxy: the whole warp copies the tensor map, so ptxas syncs the warp first.

`tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.<scope>.sync.aligned [g], [s], 128` is
an aligned warp operation: each lane copies 4 of the 128 bytes (`S2R SR_LANEID; LDS; ATOMG.E.EXCH`). ptxas
syncs the warp before it as for a full-mask `bar.warp.sync`: `WARPSYNC.ALL` in divergent code, nothing in
converged code, and in neither case an EIATTR_COOP_GROUP_INSTR_OFFSETS entry. Under a guard it is never
predicated: a branch around the sync and the copy (`@!P BRA; S2R SR_LANEID; ...; WARPSYNC.ALL; ATOMG`), which
then is an if whose arm runs a WARPSYNC.ALL (no pair on sm_90+, WARPSYNC.ALL before the next CTA barrier:
docs/findings/convergence.md "A WARPSYNC.ALL on every path of an arm"). Probes async/tensormap_cp_fenceproxy_guard_*;
docs/findings/async.md "Guarded group waits and tensormap.cp_fenceproxy (helper tmisc, stop 22)".

    @g tensormap.cp_fenceproxy ...     ->        @!g bra J
                                                 bar.warp.sync -1        (implicit: no EIATTR entry)
                                                 tensormap.cp_fenceproxy ...
                                             J:  ...
"""
from __future__ import annotations

from pylower.lowering import ops, ori
from pylower.lowering import ptx_ast as A


def _is_copy(ins: ori.Instr) -> bool:
    return ins.opcode == "tensormap" and ".cp_fenceproxy" in ins.mods


def _warp_sync(ins: ori.Instr) -> ori.Instr:
    return ori.Instr(ori.ORI_CLASSES["barrier"], "bar", (".warp", ".sync"), (A.Imm("-1"),), None,
                     {"implicit": True}, ins.line, "build")


def _full_warp_sync(ins: ori.Instr) -> bool:
    return ops.is_bar_warp_sync(ins) and ops.is_full_mask(ins.operands[0] if ins.operands else None)


def expand_module(module: ori.Module) -> None:
    for f in module.functions:
        if any(_is_copy(i) for i in f.instructions()):
            _expand(f)


def _expand(fn: ori.Function) -> None:
    n = 0

    def expand(ins: ori.Instr, cur: ori.BasicBlock, blocks: list) -> ori.BasicBlock:
        nonlocal n
        if not _is_copy(ins):
            cur.instrs.append(ins)
            return cur
        sync = _warp_sync(ins)
        if ins.guard is None:
            # the program's own unguarded bar.warp.sync right before it is that sync (its EIATTR entry
            # stays: async/tensormap_cp_fenceproxy_in_if); a guarded one is not (a WARPSYNC.ALL each:
            # async/tensormap_cp_fenceproxy_guard_after_bar_warp_sync)
            if not (cur.instrs and _full_warp_sync(cur.instrs[-1]) and cur.instrs[-1].guard is None):
                cur.instrs.append(sync)
            cur.instrs.append(ins)
            return cur
        n += 1
        body, join = f"$__tensormap_cp_{n}", f"$__tensormap_cp_join_{n}"
        cur.instrs.append(ori.Instr(ori.ORI_CLASSES["branch"], "bra", (), (A.Sym(join),), ops.negated(ins.guard),
                                    {}, ins.line, "build"))
        cur.succs = [join, body]            # branch target, then fall-through (as lowering/build.py)
        copy = ori.Instr(ins.op, ins.opcode, ins.mods, ins.operands, None, ins.attrs, ins.line, ins.by)
        blocks.append(ori.BasicBlock(body, [sync, copy], [join]))
        blocks.append(ori.BasicBlock(join, [], []))
        return blocks[-1]

    ori.rebuild_blocks(fn, expand)
