"""A forward dataflow solver over a function's CFG (reverse postorder, iterated to a fixpoint), and the
replay that visits every instruction with the state before it. States are immutable values; `join` must be
monotone and the lattice of finite height, so the solver is linear in the program size times that height."""
from __future__ import annotations


def forward(f, entry, join, transfer):
    """IN state of every reachable block. transfer(ins, state) -> state; join(a, b) -> state."""
    order = f.am.rpo
    blocks = f.blocks
    IN, OUT = {}, {}
    first = order[0] if order else None
    changed = True
    while changed:
        changed = False
        for x in order:
            s = entry if x == first else None
            for p in blocks[x].preds:
                o = OUT.get(p)
                if o is not None:
                    s = o if s is None else join(s, o)
            if s is None:
                continue
            IN[x] = s
            for ins in blocks[x].instrs:
                s = transfer(ins, s)
            if OUT.get(x) != s:
                OUT[x] = s
                changed = True
    return IN


def replay(f, IN, transfer, visit):
    """Visit every instruction of the reachable blocks with the state before it: visit(ins, state)."""
    for x in f.am.rpo:
        s = IN.get(x)
        if s is None:
            continue
        for ins in f.blocks[x].instrs:
            visit(ins, s)
            s = transfer(ins, s)


def exit_states(f, IN, transfer):
    """(last instruction, state after it) of every block that leaves the function."""
    out = []
    for x in f.am.rpo:
        b = f.blocks[x]
        if b.succs or x not in IN:
            continue
        s = IN[x]
        for ins in b.instrs:
            s = transfer(ins, s)
        out.append((b.instrs[-1] if b.instrs else None, s))
    return out
