"""Branches into the function's return block (ptxas tail-duplicates the return).

Probed (sm_75..sm_120): in a kernel, `@p bra L; ... L: ret;` becomes a predicated `@p EXIT` at the branch, an
unconditional `bra` to the return block that is not the next block becomes `EXIT`, and a `bra` that falls
through to it disappears. Each EXIT is an entry of EIATTR_EXIT_INSTR_OFFSETS.

Guarded tails (probed sm_75..sm_120, tests/corpus/probes/phases/tail_*): in a kernel at -O1 and above, when the
instruction just before the final `ret` is guarded (`@p st; ret;`, also red, bar.arrive, membar, ...), ptxas
reverts the if-conversion of that one instruction into an early `@!p EXIT` before it, so the kernel has a second
EXIT. Only the last instruction counts: earlier guarded ones stay predicated, and an unguarded one in between
(`@p st; add; st; ret;`) prevents it. At -O0 there is no if-conversion and no extra EXIT. A return block
reached by falling through counts the last instruction of the block before it, and so does an unconditional
branch to the return block (ptxas copies the return into both: nvcc/cutlass_sm80_gemm_multistage's epilogue arms).
"""
from __future__ import annotations

from pylower.lowering import ptx_ast as A
from pylower.lowering.ops import negated

from .rules import guard_text, rule

TAIL_EXIT_FROM_OPT = 1                     # -O0 keeps `@p st; EXIT`

# Guarded ops ptxas expands into code with branches of its own, so the guard stays a branch around the
# expansion and is never if-converted: no early `@!p EXIT` (probe phases/tail_guard_tcgen05_dealloc:
# `@p tcgen05.dealloc; ret` has one EXIT on sm_100a; its expansion loops over UTCATOMSWS and calls trap stubs).
_BRANCHY_EXPANSION = {("tcgen05", ".dealloc")}


def _return_block_labels(fn) -> set[str]:
    """Blocks of an entry function that hold exactly one unguarded `ret`."""
    return {b.label for b in fn.blocks
            if len(b.instrs) == 1 and b.instrs[0].opcode == "ret" and b.instrs[0].guard is None}


def _next_labels(fn) -> dict[int, str | None]:
    """id of each block -> the label of the block placed after it (None for the last)."""
    blocks = fn.blocks
    return {id(b): blocks[i + 1].label if i + 1 < len(blocks) else None for i, b in enumerate(blocks)}


@rule("bra")
def select_bra(ins, sel):
    if not sel.function.is_entry or not ins.operands or type(ins.operands[0]) is not A.Sym:
        return None
    cache = sel._analyses.get("return_blocks")          # per function (the selection context's lifetime)
    if cache is None:
        cache = sel._analyses["return_blocks"] = _return_block_labels(sel.function)
    target = ins.operands[0].name
    if target not in cache:
        return None
    nxt = sel._analyses.get("next_labels")
    if nxt is None:
        nxt = sel._analyses["next_labels"] = _next_labels(sel.function)
    if ins.guard is None and nxt[id(sel.block)] == target:
        return []                           # falls through into the return block anyway
    tail = _guarded_tail(sel, ins) if ins.guard is None else None
    return ([sel.sass(None, "EXIT", guard=guard_text(negated(tail.guard)))] if tail is not None else []) + \
        [sel.sass(ins, "EXIT")]


def _guarded_tail(sel, ins):
    """The guarded instruction just before `ins` (a return, or an unconditional branch to the return block,
    which ptxas replaces by a copy of the return), at -O1 and above; None if there is none."""
    if sel.options.get("opt_level", 3) < TAIL_EXIT_FROM_OPT:
        return None
    k = sel.position(ins)
    prev = sel.block.instrs[k - 1] if k > 0 else None
    if prev is None or prev.guard is None or prev.opcode in ("bra", "brx", "ret", "exit") \
            or _no_tail_exit(sel, prev):
        return None
    return prev


def _fallthrough_tail(sel):
    """A return block first in its block: ptxas copies the return into the block that falls into it, so that
    block's last instruction is the guarded tail (triton control_flow early_exit_kernel: `@p st` then the
    return block every early `bra` also reaches)."""
    blocks = sel.function.blocks
    i = next((n for n, b in enumerate(blocks) if b is sel.block), 0)
    if i == 0:
        return None
    before = blocks[i - 1]
    last = before.instrs[-1] if before.instrs else None
    if last is None or sel.block.label not in before.succs:
        return None
    return last


def _unentered_return_block(sel) -> bool:
    """A return block no block falls into (it follows a trap, a return or an unconditional branch): every
    branch to it became an EXIT, so ptxas leaves nothing of it (llvm/frontend_styles rust_grid_stride_scale:
    `@p bra ret_block; trap; ret_block: ret` is `@!P EXIT; BPT.TRAP`; probes/phases/ret_block_after_trap)."""
    blocks = sel.function.blocks
    i = next((n for n, b in enumerate(blocks) if b is sel.block), 0)
    if i == 0 or len(sel.block.instrs) != 1 or sel.block.instrs[0].guard is not None:
        return False
    label = sel.block.label
    if label in blocks[i - 1].succs:
        return False
    return not any(b.instrs and b.instrs[-1].opcode == "brx" and label in b.succs for b in blocks)


def _no_tail_exit(sel, prev) -> bool:
    return _constant_guard(sel, prev.guard) or \
        any(prev.opcode == opc and prev.has(mod) for opc, mod in _BRANCHY_EXPANSION)


def _constant_guard(sel, guard) -> bool:
    """A guard whose predicate is a constant (every definition a `mov.pred %p, imm` or a setp of two
    immediates): ptxas folds it (true: the instruction runs unguarded; false: it is deleted), so there is no
    guarded tail and no early EXIT (probes/phases/tail_const_guard; triton's `mov.pred %p, -1; @%p red`)."""
    reg = guard.inner if type(guard) is A.Not else guard
    if type(reg) is not A.Reg:
        return False
    defs = sel.am.defuse.definitions(reg.name)
    return bool(defs) and all(d.guard is None and len(d.operands) >= 2 and
                              all(type(o) is A.Imm for o in d.operands[1:]) and d.opcode in ("mov", "setp")
                              for d in defs)


@rule("ret")
def select_ret(ins, sel):
    if not sel.function.is_entry or ins.guard is not None \
            or sel.options.get("opt_level", 3) < TAIL_EXIT_FROM_OPT:
        return None
    k = sel.position(ins)
    if k == 0 and _unentered_return_block(sel):
        return []
    prev = sel.block.instrs[k - 1] if k > 0 else _fallthrough_tail(sel)
    if prev is None or prev.guard is None or prev.opcode in ("bra", "brx", "ret", "exit") \
            or _no_tail_exit(sel, prev):
        return None
    # the guarded tail's early exit; placed at the end, it leaves the same exits as ptxas's layout
    return [sel.sass(None, "EXIT", guard=guard_text(negated(prev.guard))), sel.sass(ins, "EXIT")]
