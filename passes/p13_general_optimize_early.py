"""Phase 13 GeneralOptimizeEarly (-O1 and above), the part visible in sync SASS: constant folding of
CTA-barrier operands.

A barrier id or thread count held in a register whose value is a compile-time constant becomes an
immediate (`mov.u32 %r3, 3; bar.sync %r3` -> `BAR.SYNC 0x3`, so EIATTR_NUM_BARRIERS is 4, not 16). ptxas
folds through arithmetic (`add` of constants), takes the id modulo 16 (`mov 17` -> `BAR.SYNC 0x1`) and
does not validate folded values (a folded count of 48 is emitted as 0x30). A register with more than one
definition, or a guarded one, is not folded unless only one definition reaches the barrier; at -O0 nothing is (probes bar_sync_reg_id_const, bar_sync_reg_id_O0).

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
    """Values of registers where an instruction reads them: a register with a single, unguarded, foldable
    definition has that value everywhere; one written more than once has the value of the one definition
    that reaches the read, when only one does (reaching definitions: `mov.u32 %r5, 2; bar.arrive %r5, 128`
    before a loop that counts %r5 on is `BAR.ARV 0x2, 0x80`; docs/findings/barrier.md "A barrier id register
    written again later folds where one definition reaches (helper nv27bar, stop 27)")."""

    def __init__(self, fn: ori.Function, am=None):
        self.defs: dict[str, ori.Instr | None] = {}
        multi: set[str] = set()
        for ins in fn.instructions():
            for r in defs(ins):
                if r in self.defs:
                    multi.add(r)
                self.defs[r] = None if r in self.defs else ins
        self.memo: dict[str, int | None] = {}
        self._reach = None
        if multi and am is not None:
            from .analysis.reaching import ReachingValues
            du = am.defuse
            rows = [(b, [(ins, *du.defs_uses(ins)) for ins in b.instrs]) for b in fn.blocks]
            self._reach = ReachingValues(fn, rows, multi, am.liveness)
            self._def_of = {node: ins for b in fn.blocks for ins in b.instrs for r in du.defs(ins)
                            if (node := self._reach.defs.get((id(ins), r))) is not None}
        self._at_memo: dict[tuple[int, str], int | None] = {}
        self._node_memo: dict[int, int | None] = {}

    def value(self, o, at: ori.Instr | None = None) -> int | None:
        """The value of operand `o` where instruction `at` reads it (None: not a constant there)."""
        if type(o) is A.Imm:
            v = o.value
            return v & _U32 if isinstance(v, int) else None
        if type(o) is not A.Reg:
            return None
        if o.name in self.defs and self.defs[o.name] is None:          # written more than once
            return self._reaching_value(o.name, at)
        if o.name not in self.memo:
            self.memo[o.name] = None                 # a cycle through this register is not constant
            self.memo[o.name] = self._eval(self.defs.get(o.name))
        return self.memo[o.name]

    def _reaching_value(self, name: str, at: ori.Instr | None) -> int | None:
        if self._reach is None or at is None:
            return None
        key = (id(at), name)
        if key in self._at_memo:
            return self._at_memo[key]
        self._at_memo[key] = None
        node = self._reach.uses.get(key)
        v = self._at_memo[key] = self._node_value(node) if node is not None else None
        return v

    def _node_value(self, node: int) -> int | None:
        """A definition's value, or a merge's when every value it joins is the same constant (a copy of the same
        constant on both sides of an if folds: probes barrier/bar_reg_id_redefined_two_reach_same)."""
        if node in self._node_memo:
            return self._node_memo[node]
        self._node_memo[node] = None                 # a cycle through this value is not constant
        joined = self._reach.joined(node)
        if joined is None:
            v = self._eval(self._def_of.get(node))
        else:
            vals = {self._node_value(n) for n in joined}
            v = vals.pop() if len(vals) == 1 else None
        self._node_memo[node] = v
        return v

    def _eval(self, ins: ori.Instr | None) -> int | None:
        if ins is None or ins.guard is not None or ins.opcode not in _FOLD:
            return None
        need, f = _FOLD[ins.opcode]
        if need is not None and need not in ins.mods:
            return None
        args = [self.value(o, ins) for o in ins.operands[1:]]
        if len(args) != f.__code__.co_argcount or None in args:
            return None
        return f(*args) & _U32


def _barrier_slots(ins: ori.Instr) -> tuple[int, ...]:
    """Operand positions of the barrier id and thread count."""
    return (1, 2) if ins.attrs.mode == "red" and len(ins.operands) == 4 else \
        (1,) if ins.attrs.mode == "red" else (0, 1)


def _divergent_loop_blocks(fn: ori.Function, ctx: PassContext, feature: str = "WARP_OP_CSE_IN_DIVERGENT_LOOP_KEPT") \
        -> frozenset:
    """The blocks of the loops with a per-thread trip count (a divergent back edge), where ptxas keeps every
    warp collective: two equal ballots or shuffles there are `BRA.DIV; VOTE.ANY; VOTE.ANY` and two collectives
    (sm_90+), folded in straight-line code and in a uniform loop (probes warp/cse_divloop_*); empty unless the
    target has `feature`."""
    if not ctx.target.has(feature) or not any(
            i.opcode in CSE_OPCODES for i in fn.instructions()):
        return frozenset()
    am = ctx.analyses(fn)
    bodies = [r.body for r in am.all_regions if r.kind == "loop"] + list(R.exiting_divergent_loops(am, meet_at_end=True))
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
        deleted = cse_warp_ops(fn, ctx.target.has("WARP_OP_CSE_ACROSS_BARRIER"), NAME, _divergent_loop_blocks(fn, ctx),
                               _divergent_loop_blocks(fn, ctx, "ACTIVEMASK_READ_AFTER_SLOW_PATH"))
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
                consts = consts or _Constants(fn, ctx.analyses(fn))
                v = consts.value(ops[pos], ins)
                if v is None:
                    continue
                ops[pos] = A.Imm(hex(v % _BARRIER_IDS if pos == _barrier_slots(ins)[0] else v))
                ctx.count(self, "barrier operands folded")
            if ops != list(ins.operands):
                ins.operands = tuple(ops)
                changed = True
        return changed


PHASE = GeneralOptimizeEarly()
