"""ISel of the fast-path sites of arithmetic ptxas implements with an internal subroutine
(lowering/math_subroutines.py): the range check, the call, and the subroutines placed after the code.

A subroutine is listed as its convergence skeleton: its symbol, the BSSY/BREAK/BSYNC instructions ptxas gives
it (none when every call passes warp-uniform operands) and its return; its arithmetic is not modelled.
"""
from __future__ import annotations

from pylower.lazy_re import lazy_compile

from pylower.lowering import ori
from pylower.lowering.math_subroutines import of_symbol
from pylower.sass.instr import SassInstr

from .rules import operand_text, rule
from .sequences import brk, bssy, bsync

_BARRIER_REG = lazy_compile(r"^B(\d+)$")
_SM70_HELPER = "$__internal_"
_SM70_MARK = "$__cuda_sm70_"


@rule("fchk")
def select_fchk(ins, sel):
    opcode, mods = of_symbol(ins.attrs.routine)[1].check
    return [sel.sass(ins, opcode, mods, tuple(operand_text(o) for o in ins.operands),
                     reason="the fast path's range check: the lanes it fails take the slow path")]


@rule("subcall")
def select_subcall(ins, sel):
    return [sel.sass(ins, "CALL", ("REL", "NOINC"), (f"`({ins.attrs.routine})",), tags=("SUBROUTINE_CALL",),
                     reason=f"the slow path: a call to ptxas's internal subroutine {of_symbol(ins.attrs.routine)[1].name}")]


def append_subroutines(fn: ori.Function, out, sel, starts: dict[str, int], uniformity) -> None:
    """After the function's code, each subroutine its sites call, in symbol order: the symbol (a helper
    label: `starts`), the sync skeleton when some call passes a per-lane operand (`uniformity`: the
    function's; None: assume one does), and its RET."""
    calls: dict[str, list] = {}
    for b in fn.blocks:
        for ins in b.instrs:
            if ins.opcode == "subcall":
                calls.setdefault(ins.attrs.routine, []).append(ins)
    if not calls:
        return
    used = [int(m.group(1)) for i in out.instrs for o in i.operands if (m := _BARRIER_REG.match(o))]
    base = max(used) + 1 if used else 0
    reconvergent = sel.target.has("BSSY_RECONVERGENT")
    reliable = sel.target.has("BREAK_LOOP_RELIABLE")
    tail = _warp_helper_tail(fn, out, starts)
    placed: list[SassInstr] = []
    for symbol in sorted(calls, key=lambda sym: of_symbol(sym)[0]):
        first = calls[symbol][0]
        r = of_symbol(symbol)[1]
        per_lane = uniformity is None or any(uniformity.is_divergent_operand(o)
                                             for c in calls[symbol] for o in c.operands[1:])
        why = f"ptxas's internal subroutine {r.name}"
        seq: list[SassInstr] = []
        stack: list[tuple[int, bool]] = []            # open pairs: (depth, around a BREAK loop)
        for tok in (r.body if per_lane else ()):
            loop = tok.endswith(".L")
            if tok.startswith("BSSY"):
                depth = base + len(stack)
                stack.append((depth, loop))
                seq += bssy(sel, first, depth, f"B{depth}", reconvergent, reliable=loop and reliable)
            elif tok.startswith("BREAK"):
                seq.append(brk(sel, first, next(d for d, lp in reversed(stack) if lp), reliable))
            else:
                depth, lp = stack.pop()
                seq.append(bsync(sel, first, depth, reconvergent, reliable=lp and reliable))
        seq.append(sel.sass(first, "RET", ("REL", "NODEC")))
        for s in seq:
            s.origin, s.reason = "isel", f"{why}: its convergence skeleton (its arithmetic is not modelled)"
        starts[symbol] = len(out.instrs) + len(placed)
        placed.extend(seq)
    if tail is None:
        out.instrs.extend(placed)
        return
    # before the function's out-of-line warp-sync helpers: those follow every math subroutine
    # (docs/findings/convergence.md "Math subroutines come before the sm70 warp-sync helpers (helper nvwarp33, stop 33)")
    for label, k in starts.items():
        if k >= tail and label not in calls:
            starts[label] = k + len(placed)
    for symbol in calls:
        starts[symbol] += tail - len(out.instrs)
    out.instrs[tail:tail] = placed


def _warp_helper_tail(fn: ori.Function, out, starts: dict[str, int]) -> int | None:
    """Where the function's out-of-line `__cuda_sm70_*` helper blocks (phase 72) begin when they end the code
    (every instruction from there on is theirs), else None."""
    labels = [b.label for b in fn.blocks if b.label.startswith(_SM70_HELPER) and _SM70_MARK in b.label]
    ks = sorted(starts[lb] for lb in labels if lb in starts)
    if not ks or ks[0] >= len(out.instrs):
        return None
    others = [k for lb, k in starts.items() if lb not in labels and ks[0] <= k < len(out.instrs)]
    return None if others else ks[0]
