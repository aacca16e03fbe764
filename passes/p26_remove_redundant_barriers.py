"""Phase 26 OriRemoveRedundantBarriers: delete CTA barriers no thread can observe.

A `bar.sync id` (full CTA, unguarded) is redundant when on every path to it an identical barrier has
already run and nothing since then could communicate between threads. The analysis is a forward
must-dataflow over the CFG on bitarrays (one bit per barrier id: "barrier id ran, nothing observable
since"), AND over predecessors, iterated to a fixpoint; a barrier whose bit is set on entry is removed.

ptxas 13.0.88 removes none (findings R1: back-to-back bar.sync, even with nothing between them, all
stay), so knob 358 defaults to 0 and the phase does nothing. The seed's modes stay reachable:
- 358 = 1 conservative: any memory access, fence, call, other barrier or warp-sync op is observable;
- 358 = 2 aggressive: as 1, but plain loads/stores of .global/.local/.param/.const memory do not count
  (only shared/generic memory, atomics, fences, calls and sync ops do);
- 358 = 3 multi-function: as 2, and a call is transparent when the callee (transitively) has nothing
  observable; an extern call is opaque unless --assume-extern-functions-do-not-sync=true.
Knob 472 (barrier liveness mode): 0 = across the CFG (default), 1 = within a basic block only.
"""
from __future__ import annotations

from bitarray import bitarray

from pylower.lowering import ori
from pylower.lowering import ptx_ast as A
from pylower.lowering.ops import is_aligned_cta_barrier, is_sync

from .manager import PassContext, Phase

NAME = "OriRemoveRedundantBarriers"
MODE_KNOB, LIVENESS_KNOB = "358", "472"
NONE, CONSERVATIVE, AGGRESSIVE, MULTI_FUNCTION = 0, 1, 2, 3
NUM_IDS = 16

# Ori classes with no effect another thread can see
_PURE = {ori.ORI_CLASSES[c] for c in ("alu", "fpu", "move", "convert", "branch", "control", "return")}
# state spaces a CTA barrier does not order in the aggressive model
_PRIVATE_SPACES = (".global", ".local", ".param", ".const")


def _barrier_id(ins: ori.Instr) -> int | None:
    """The id of a removable barrier: aligned CTA `sync` kind, whole CTA, immediate id, no guard."""
    if not is_aligned_cta_barrier(ins) or ins.attrs.mode != "sync" or ins.guard is not None:
        return None
    ops = ins.operands
    if type(ops[0]) is not A.Imm or (len(ops) > 1 and not (type(ops[1]) is A.Imm and ops[1].value == 0)):
        return None
    return ops[0].value


class _Model:
    def __init__(self, module: ori.Module | None, mode: int, ctx: PassContext):
        self.module, self.mode = module, mode
        self.assume_nosync = bool(ctx.options.get("assume_extern_functions_do_not_sync"))
        self._callee: dict[str, bool] = {}

    def observable(self, ins: ori.Instr) -> bool:
        if ins.op in _PURE and ins.opcode != "call":
            return False
        if ins.opcode == "call":
            return self._call_observable(ins)
        if self.mode >= AGGRESSIVE and ins.opcode in ("ld", "st", "ldu") and ins.has(*_PRIVATE_SPACES):
            return False
        return True

    def _call_observable(self, ins: ori.Instr) -> bool:
        if self.mode < MULTI_FUNCTION:
            return True
        name = next((o.name for o in ins.operands if type(o) is A.Sym), None)
        fn = self.module.function(name) if self.module is not None and name else None
        if fn is None:
            return not self.assume_nosync
        if name not in self._callee:
            self._callee[name] = True             # recursion: observable until proven otherwise
            self._callee[name] = any(self.observable(i) or is_sync(i) for i in fn.instructions())
        return self._callee[name]


class OriRemoveRedundantBarriers(Phase):
    number = 26
    name = NAME
    description = "remove unobservable CTA barriers (bitarray dataflow); knob 358 mode (default 0: none, as 13.0.88)"
    knobs = (MODE_KNOB, LIVENESS_KNOB)
    preserves = "cfg"

    def enabled(self, ctx: PassContext) -> bool:
        return ctx.knob(MODE_KNOB) != NONE

    def run(self, fn: ori.Function, ctx: PassContext) -> bool:
        model = _Model(ctx.module, ctx.knob(MODE_KNOB), ctx)
        local_only = ctx.knob(LIVENESS_KNOB) == 1
        by_label = {b.label: b for b in fn.blocks}
        order = [by_label[x] for x in ctx.analyses(fn).rpo]
        empty, full = bitarray(NUM_IDS), bitarray(NUM_IDS)
        empty.setall(0)
        full.setall(1)
        out_state = {b.label: full.copy() for b in order}      # optimistic start for a must-analysis

        def entry(b: ori.BasicBlock) -> bitarray:
            preds = [p for p in b.preds if p in out_state]
            if local_only or b is order[0] or not preds:
                return empty.copy()
            s = full.copy()
            for p in preds:
                s &= out_state[p]
            return s

        def transfer(b: ori.BasicBlock, s: bitarray, remove: bool) -> bitarray:
            keep = []
            for ins in b.instrs:
                bid = _barrier_id(ins)
                if bid is not None and bid < NUM_IDS:
                    if s[bid] and remove:
                        ctx.count(self, "barriers removed")
                        continue
                    s[bid] = 1
                elif is_sync(ins) or model.observable(ins):
                    s.setall(0)
                keep.append(ins)
            if remove:
                b.instrs = keep
            return s

        changed = True
        while changed:
            changed = False
            for b in order:
                new = transfer(b, entry(b), False)
                if new != out_state[b.label]:
                    out_state[b.label] = new
                    changed = True
        before = sum(len(b.instrs) for b in order)
        for b in order:
            transfer(b, entry(b), True)
        return sum(len(b.instrs) for b in order) != before


PHASE = OriRemoveRedundantBarriers()
