"""ISel of the fast-path sites of arithmetic ptxas implements with an internal subroutine
(lowering/math_subroutines.py): the range check, the call, and the subroutines placed after the code.

A subroutine is listed as its convergence skeleton: its symbol, the BSSY/BREAK/BSYNC instructions ptxas gives
it (none when every call passes warp-uniform operands) and its return; its arithmetic is not modelled.
"""
from __future__ import annotations

import re

from pylower.lowering import ori
from pylower.lowering.math_subroutines import ROUTINES
from pylower.sass.instr import SassInstr

from .rules import operand_text, rule
from .sequences import bssy, bsync

_BY_NAME = {r.name: r for r in ROUTINES.values()}
_BARRIER_REG = re.compile(r"^B(\d+)$")


@rule("fchk")
def select_fchk(ins, sel):
    opcode, mods = _BY_NAME[_name(ins.attrs.routine)].check
    return [sel.sass(ins, opcode, mods, tuple(operand_text(o) for o in ins.operands),
                     reason="the fast path's range check: the lanes it fails take the slow path")]


@rule("subcall")
def select_subcall(ins, sel):
    return [sel.sass(ins, "CALL", ("REL", "NOINC"), (f"`({ins.attrs.routine})",), tags=("SUBROUTINE_CALL",),
                     reason=f"the slow path: a call to ptxas's internal subroutine {_name(ins.attrs.routine)}")]


def _name(symbol: str) -> str:
    return symbol.split("$", 2)[-1]


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
    for symbol in sorted(calls, key=lambda s: int(s[len("$__internal_"):].split("_", 1)[0])):
        first = calls[symbol][0]
        r = _BY_NAME[_name(symbol)]
        per_lane = uniformity is None or any(uniformity.is_divergent_operand(o)
                                             for c in calls[symbol] for o in c.operands[1:])
        why = f"ptxas's internal subroutine {_name(symbol)}"
        seq: list[SassInstr] = []
        stack: list[tuple[int, bool]] = []
        for tok in (r.body if per_lane else ()):
            loop = tok.endswith(".L")
            if tok.startswith("BSSY"):
                depth = base + len(stack)
                stack.append((depth, loop))
                seq += bssy(sel, first, depth, f"B{depth}", reconvergent and not loop)
                if loop and reliable:
                    seq[-1].mods = ("RELIABLE",)
            elif tok.startswith("BREAK"):
                depth = next(d for d, lp in reversed(stack) if lp)
                seq.append(sel.sass(first, "BREAK", ("RELIABLE",) if reliable else (), (f"B{depth}",)))
            else:
                depth, lp = stack.pop()
                s = bsync(sel, first, depth, reconvergent and not lp)
                if lp and reliable:
                    s.mods = ("RELIABLE",)
                seq.append(s)
        seq.append(sel.sass(first, "RET", ("REL", "NODEC")))
        for s in seq:
            s.guard = ""
            s.origin, s.reason = "isel", f"{why}: its convergence skeleton (its arithmetic is not modelled)"
        starts[symbol] = len(out.instrs)
        out.instrs.extend(seq)
