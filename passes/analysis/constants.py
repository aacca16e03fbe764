"""Registers that hold one compile-time constant: every definition an unguarded `mov r, imm` of the same value
(a member mask kept in a register, as nvcc writes `mov.u32 %r12, -1; shfl.sync ... %r12`; a loop header's copy
the layout duplicates defines it twice: docs/findings/warp.md "A duplicated loop header's mask stays a
constant (helper nvatom, stop 23)")."""
from __future__ import annotations

from pylower.lowering import ptx_ast as A

_NOT_CONSTANT = object()


def _imm_value(ins):
    if ins.opcode == "mov" and ins.guard is None and len(ins.operands) == 2 \
            and type(ins.operands[1]) is A.Imm and isinstance(ins.operands[1].value, int):
        return ins.operands[1].value
    return _NOT_CONSTANT


def constant_registers(instrs, defs_of) -> dict[str, int]:
    seen: dict[str, object] = {}
    for ins in instrs:
        for r in defs_of(ins):
            v = _imm_value(ins)
            if r in seen and seen[r] != v:
                v = _NOT_CONSTANT
            seen[r] = v
    return {r: v for r, v in seen.items() if v is not _NOT_CONSTANT}
