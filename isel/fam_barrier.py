"""ISel for thread-block barriers (Ori 96): BAR.SYNC / BAR.ARV / BAR.RED.* (+ B2R.RESULT).

Tier table (probes in tests/corpus/probes/barrier): sm_75 has no .DEFER_BLOCKING; the reduction result is
moved out with B2R.RESULT when it is used, and always from sm_90 on.
"""
from __future__ import annotations

from pylower.lowering import ptx_ast as A

from .rules import operand_text, rule

# (kind, sm_75?) -> SASS modifiers after BAR
_MODS = {
    "sync": {True: ("SYNC",), False: ("SYNC", "DEFER_BLOCKING")},
    "arrive": {True: ("ARV",), False: ("ARV",)},
    "red": {True: ("RED", "{op}"), False: ("RED", "{op}", "DEFER_BLOCKING")},
}
# B2R.RESULT after BAR.RED: from which SM on it is emitted even when the result is unused
_B2R_ALWAYS_FROM_SM = 90


def _bar_operands(ops) -> tuple[str, ...]:
    # a count of 0 means "all threads" and is dropped, as ptxas prints it
    out = [operand_text(ops[0])]
    if len(ops) > 1 and not (type(ops[1]) is A.Imm and ops[1].value == 0):
        out.append(operand_text(ops[1]))
    return tuple(out)


@rule("bar", "barrier")
def select_bar(ins, sel):
    kind = ins.attrs.get("kind")
    if kind is None:                       # handled by the warp/cluster rules
        return None
    sm75 = sel.target.sm < 80
    mods = tuple(m.format(op=ins.attrs.get("redop", "").upper()) for m in _MODS[kind][sm75])
    ops = ins.operands[1:-1] if kind == "red" else ins.operands
    out = [sel.sass(ins, "BAR", mods, _bar_operands(ops), tags=("BARRIER_ID",))]
    if kind == "red":
        dest = ins.operands[0]
        if sel.target.sm >= _B2R_ALWAYS_FROM_SM or sel.result_used(ins, dest):
            out.append(sel.sass(ins, "B2R", ("RESULT",), (operand_text(dest),)))
    return out
