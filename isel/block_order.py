"""Block placement before selection: ptxas lays blocks out in reverse postorder of a depth-first walk that
follows a branch's target before its fall-through, so a block follows the block that falls into it and a
loop is placed right after its preheader, its exit after it (llvm/barrier0_block_reduce: LLVM puts the loop
after the return block; ptxas puts it before). Blocks in PTX order already are such an order, so most
functions keep their order. A fall-through that is no longer next gets a `bra.uni`, and an unconditional
`bra` to what is now the next block goes away. A block ending `@p bra NEXT; bra X`, NEXT the block placed after
it, ends `@!p bra X` and falls through (an inverted loop's bottom test: ptxas `@!P0 BRA body` into the exit,
`EXIT` once; docs/findings/phases.md "A bottom test branches back and falls into the exit (helper nvatom,
stop 23)").
"""
from __future__ import annotations

from pylower.lowering import ori
from pylower.lowering import ptx_ast as A
from pylower.lowering.generic import ori_class
from pylower.lowering.ops import guard_register, negated
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


def _loops_together(order: list[str], fn: ori.Function) -> list[str]:
    """A loop's blocks stay together: a block outside the loop that the walk put between its header and its
    last block (the exit arm of a header test `H: @p bra BODY; bra.uni EXIT`, reached last by the walk but
    placed first by it) goes right after the loop, as in ptxas (nvcc/cuda_barrier_variants
    barrier_split_and_drop: `H: @!p BRA EXIT; body...; @p BRA H; EXIT: SYNCS.ARRIVE.TRANS64.OPTOUT`;
    docs/findings/convergence.md "A loop's exit arm goes after the loop (helper nvasync, stop 23)"; probes
    phases/layout_loop_exit_arm_*)."""
    by_label = {b.label: b for b in fn.blocks}
    pos = {x: i for i, x in enumerate(order)}
    bodies: dict[str, set[str]] = {}
    for x in order:                       # back edges of the walk's order: a branch to an earlier block that
        for s in by_label[x].succs:       # reaches it again (a natural loop, its body by predecessors)
            if s in pos and pos[s] <= pos[x]:
                body, work = {s, x}, [x]
                while work:
                    y = work.pop()
                    if y == s:
                        continue
                    for p in by_label[y].preds:
                        if p in pos and p not in body:
                            body.add(p)
                            work.append(p)
                if all(pos[y] >= pos[s] for y in body):
                    bodies.setdefault(s, set()).update(body)
    for header in sorted(bodies, key=lambda h: pos[h]):
        body = bodies[header]
        i, last = pos[header], max(pos[y] for y in body)
        span = order[i:last + 1]
        outside = [y for y in span if y not in body]
        if outside:
            order[i:last + 1] = [y for y in span if y in body] + outside
            for k in range(i, last + 1):
                pos[order[k]] = k
    return order


def layout(fn: ori.Function) -> list[ori.BasicBlock]:
    """Blocks labelled ori.OUT_OF_LINE (a try_wait's retry block) stay at the end, in their order."""
    order = _loops_together([x for x in reverse_postorder(fn) if not x.startswith(ori.OUT_OF_LINE)], fn)
    if order == [b.label for b in fn.blocks[:len(order)]]:
        _invert_skips(fn.blocks)
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
    _invert_skips(placed)
    return placed


def _invert_skips(blocks: list[ori.BasicBlock]) -> None:
    """`@p bra NEXT; bra X` -> `@!p bra X`, where NEXT is the block placed next; a `bra NEXT` goes away."""
    for i, b in enumerate(blocks[:-1]):
        if b.instrs and _jump_target(b.instrs[-1]) == blocks[i + 1].label:
            b.instrs.pop()
        if len(b.instrs) < 2:
            continue
        cond, jump = b.instrs[-2], b.instrs[-1]
        x = _jump_target(jump)
        if x is None or cond.opcode != "bra" or cond.guard is None or guard_register(cond.guard) is None \
                or not cond.operands or type(cond.operands[0]) is not A.Sym \
                or cond.operands[0].name != blocks[i + 1].label or x == blocks[i + 1].label:
            continue
        cond.guard = negated(cond.guard)
        cond.operands = (A.Sym(x),) + tuple(cond.operands[1:])
        b.instrs.pop()
        nxt = blocks[i + 1].label
        b.succs = [s for s in b.succs if s != nxt] + [nxt]
