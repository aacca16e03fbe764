"""Block placement before selection: ptxas lays blocks out in reverse postorder of a depth-first walk that
follows a branch's target before its fall-through, so a block follows the block that falls into it and a
loop is placed right after its preheader, its exit after it (llvm/barrier0_block_reduce: LLVM puts the loop
after the return block; ptxas puts it before). Blocks in PTX order already are such an order, so most
functions keep their order. A fall-through that is no longer next gets a `bra.uni`, and an unconditional
`bra` to what is now the next block goes away.
"""
from __future__ import annotations

from pylower.lowering import ori
from pylower.lowering import ptx_ast as A
from pylower.lowering.generic import ori_class
from pylower.passes.analysis.cfg import reverse_postorder

_TERMINATORS = ("bra", "brx", "ret", "exit", "trap")
BY = "BlockLayout"


def _fall_through(b: ori.BasicBlock) -> str | None:
    last = b.instrs[-1] if b.instrs else None
    if last is not None and last.opcode in _TERMINATORS and last.guard is None:
        return None
    return b.succs[-1] if b.succs else None


def _jump_target(ins: ori.Instr) -> str | None:
    if ins.opcode == "bra" and ins.guard is None and ins.operands and type(ins.operands[0]) is A.Sym:
        return ins.operands[0].name
    return None


def layout(fn: ori.Function) -> list[ori.BasicBlock]:
    """Blocks labelled ori.OUT_OF_LINE (a try_wait's retry block) stay at the end, in their order."""
    order = [x for x in reverse_postorder(fn) if not x.startswith(ori.OUT_OF_LINE)]
    if order == [b.label for b in fn.blocks[:len(order)]]:
        return fn.blocks
    by_label = {b.label: b for b in fn.blocks}
    reached = set(order)
    tail = [b for b in fn.blocks if b.label not in reached]
    placed = [by_label[x] for x in order] + [b for b in tail if not b.label.startswith(ori.OUT_OF_LINE)] + \
        [b for b in tail if b.label.startswith(ori.OUT_OF_LINE)]
    for i, b in enumerate(placed):
        nxt = placed[i + 1].label if i + 1 < len(placed) else None
        ft = _fall_through(b)
        if ft is not None and ft != nxt:
            line = b.instrs[-1].line if b.instrs else 0
            b.instrs.append(ori.Instr(ori_class("bra", (".uni",)), "bra", (".uni",), (A.Sym(ft),), None, {}, line, BY))
        elif b.instrs and nxt is not None and _jump_target(b.instrs[-1]) == nxt:
            b.instrs.pop()
    return placed
