"""Registers that hold one compile-time constant: a single, unguarded `mov r, imm` definition (a member
mask kept in a register, as nvcc writes `mov.u32 %r12, -1; shfl.sync ... %r12`)."""
from __future__ import annotations

from pylower.lowering import ptx_ast as A


def constant_registers(instrs, defs_of) -> dict[str, int]:
    seen: dict[str, object] = {}
    for ins in instrs:
        for r in defs_of(ins):
            seen[r] = None if r in seen else ins
    out = {}
    for r, ins in seen.items():
        if ins is not None and ins.opcode == "mov" and ins.guard is None and len(ins.operands) == 2 \
                and type(ins.operands[1]) is A.Imm and isinstance(ins.operands[1].value, int):
            out[r] = ins.operands[1].value
    return out
