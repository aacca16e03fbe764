"""Phase 13 GeneralOptimizeEarly (-O1 and above), the part visible in sync SASS: constant folding of
CTA-barrier operands.

A barrier id or thread count held in a register whose value is a compile-time constant becomes an
immediate (`mov.u32 %r3, 3; bar.sync %r3` -> `BAR.SYNC 0x3`, so EIATTR_NUM_BARRIERS is 4, not 16). ptxas
folds through arithmetic (`add` of constants), takes the id modulo 16 (`mov 17` -> `BAR.SYNC 0x1`) and
does not validate folded values (a folded count of 48 is emitted as 0x30). A register with more than one
definition, or a guarded one, is not folded; at -O0 nothing is (probes bar_sync_reg_id_const, bar_sync_reg_id_O0).

It also deletes a shuffle or vote that repeats an earlier one of its block on the same values (passes/warp_cse.py).
"""
from __future__ import annotations

from pylower.lowering import ori
from pylower.lowering import ptx_ast as A

from .analysis import regions as R
from .analysis.defuse import defs
from .warp_cse import CSE_OPCODES, cse_warp_ops
from .manager import PassContext, Phase
from pylower.lowering.ops import is_cta_barrier

NAME = "GeneralOptimizeEarly"
FOLD_FROM_OPT_LEVEL = 1
_U32 = 0xFFFFFFFF
_BARRIER_IDS = 16

# foldable integer operations on 32-bit values: stem -> (required modifier or None, function)
_FOLD = {
    "mov": (None, lambda a: a),
    "add": (None, lambda a, b: a + b),
    "sub": (None, lambda a, b: a - b),
    "mul": (".lo", lambda a, b: a * b),
    "shl": (None, lambda a, b: a << b if b < 32 else 0),
    "shr": (".u32", lambda a, b: a >> b if b < 32 else 0),
    "and": (None, lambda a, b: a & b),
    "or": (None, lambda a, b: a | b),
    "xor": (None, lambda a, b: a ^ b),
}


class _Constants:
    """Values of registers with a single, unguarded, foldable definition (evaluated on demand)."""

    def __init__(self, fn: ori.Function):
        self.defs: dict[str, ori.Instr | None] = {}
        for ins in fn.instructions():
            for r in defs(ins):
                self.defs[r] = None if r in self.defs else ins
        self.memo: dict[str, int | None] = {}

    def value(self, o) -> int | None:
        if type(o) is A.Imm:
            v = o.value
            return v & _U32 if isinstance(v, int) else None
        if type(o) is not A.Reg:
            return None
        if o.name not in self.memo:
            self.memo[o.name] = None                 # a cycle through this register is not constant
            self.memo[o.name] = self._eval(self.defs.get(o.name))
        return self.memo[o.name]

    def _eval(self, ins: ori.Instr | None) -> int | None:
        if ins is None or ins.guard is not None or ins.opcode not in _FOLD:
            return None
        need, f = _FOLD[ins.opcode]
        if need is not None and need not in ins.mods:
            return None
        args = [self.value(o) for o in ins.operands[1:]]
        if len(args) != f.__code__.co_argcount or None in args:
            return None
        return f(*args) & _U32


def _barrier_slots(ins: ori.Instr) -> tuple[int, ...]:
    """Operand positions of the barrier id and thread count."""
    return (1, 2) if ins.attrs.mode == "red" and len(ins.operands) == 4 else \
        (1,) if ins.attrs.mode == "red" else (0, 1)


def _divergent_loop_blocks(fn: ori.Function, ctx: PassContext) -> frozenset:
    """The blocks of the loops with a per-thread trip count (a divergent back edge), where ptxas keeps every
    warp collective: two equal ballots or shuffles there are `BRA.DIV; VOTE.ANY; VOTE.ANY` and two collectives
    (sm_90+), folded in straight-line code and in a uniform loop (probes warp/cse_divloop_*)."""
    if not ctx.target.has("WARP_OP_CSE_IN_DIVERGENT_LOOP_KEPT") or not any(
            i.opcode in CSE_OPCODES for i in fn.instructions()):
        return frozenset()
    am = ctx.analyses(fn)
    bodies = [r.body for r in am.all_regions if r.kind == "loop"] + list(R.exiting_divergent_loops(am))
    return frozenset().union(*bodies) if bodies else frozenset()


class GeneralOptimizeEarly(Phase):
    number = 13
    name = NAME
    description = "-O1+: barrier ids / thread counts held in constant registers become immediates"
    preserves = "cfg"

    def enabled(self, ctx: PassContext) -> bool:
        return ctx.opt_level >= FOLD_FROM_OPT_LEVEL

    def run(self, fn: ori.Function, ctx: PassContext) -> bool:
        consts = None
        deleted = cse_warp_ops(fn, ctx.target.has("WARP_OP_CSE_ACROSS_BARRIER"), NAME, _divergent_loop_blocks(fn, ctx))
        if deleted:
            ctx.count(self, "repeated warp ops deleted", deleted)
        changed = bool(deleted)
        for ins in fn.instructions():
            if not is_cta_barrier(ins):
                continue
            ops = list(ins.operands)
            for pos in _barrier_slots(ins):
                if pos >= len(ops) or type(ops[pos]) is not A.Reg:
                    continue
                consts = consts or _Constants(fn)
                v = consts.value(ops[pos])
                if v is None:
                    continue
                ops[pos] = A.Imm(hex(v % _BARRIER_IDS if pos == _barrier_slots(ins)[0] else v))
                ctx.count(self, "barrier operands folded")
            if ops != list(ins.operands):
                ins.operands = tuple(ops)
                changed = True
        return changed


PHASE = GeneralOptimizeEarly()
