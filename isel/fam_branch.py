"""Branches into the function's return block (ptxas tail-duplicates the return).

Probed (sm_75..sm_120): in a kernel, `@p bra L; ... L: ret;` becomes a predicated `@p EXIT` at the branch, an
unconditional `bra` to the return block that is not the next block becomes `EXIT`, and a `bra` that falls
through to it disappears. Each EXIT is an entry of EIATTR_EXIT_INSTR_OFFSETS.
"""
from __future__ import annotations

from pylower.lowering import ptx_ast as A

from .rules import rule


def _return_block_labels(fn) -> set[str]:
    """Blocks of an entry function that hold exactly one unguarded `ret`."""
    return {b.label for b in fn.blocks
            if len(b.instrs) == 1 and b.instrs[0].opcode == "ret" and b.instrs[0].guard is None}


def _next_label(fn, block) -> str | None:
    for i, b in enumerate(fn.blocks):
        if b is block:
            return fn.blocks[i + 1].label if i + 1 < len(fn.blocks) else None
    return None


@rule("bra")
def select_bra(ins, sel):
    if not sel.function.is_entry or not ins.operands or type(ins.operands[0]) is not A.Sym:
        return None
    cache = sel._analyses.setdefault("return_blocks", _return_block_labels(sel.function))
    target = ins.operands[0].name
    if target not in cache:
        return None
    if ins.guard is None and _next_label(sel.function, sel.block) == target:
        return []                           # falls through into the return block anyway
    return [sel.sass(ins, "EXIT")]
