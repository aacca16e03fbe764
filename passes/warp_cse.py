"""Common subexpressions among warp collectives (part of phase 13 GeneralOptimizeEarly, -O1+).

ptxas numbers the values of a block and deletes a warp collective (`shfl.sync`, `vote.sync`, `match.sync`,
`redux.sync`, `activemask`) that repeats an earlier one of the same block on the same values (same opcode and modifiers, same source values, same guard): its results become
copies of the earlier one's. A block is a straight line of blocks (cfg.straight_on: a label no branch targets
does not end it). Values are followed through moves and register-only arithmetic, so a second scan
chain over the same input (CUB's `WarpScan` run twice on one value: `shfl.up; @p add; mov` x5 each) collapses
into the first. A store, a `bar.warp.sync` or another warp op between them does not matter; a block boundary
does; a CTA barrier does below sm_90 (target feature WARP_OP_CSE_ACROSS_BARRIER). At -O0 nothing is deleted.
The same numbering merges a weak load (`ld` of .global/.shared/.local, not volatile/relaxed/acquire/mmio) repeating
an earlier one of the block at the same address with nothing between that may write or order memory: ptxas
issues one LDG (docs/findings/scheduling.md "A merged load feeds a masked shuffle through a move (helper nvcg26,
stop 26)"; probes scheduling/load_merged_shfl_mask_first, load_store_between_shfl_order).
Probes warp/cse_* (shuffles and votes: docs/findings/convergence.md "Repeated warp shuffles and votes are one";
ballots, match.any/match.all and their sm_75 forms: docs/findings/warp.md "Equal warp collectives share one
instruction").
"""
from __future__ import annotations

from pylower.lowering import ori
from pylower.lowering import ops
from pylower.lowering import ptx_ast as A

from .analysis.cfg import straight_on
from .analysis.defuse import defs

CSE_OPCODES = ("shfl", "vote", "match", "redux", "activemask")
# instructions whose result is a function of their operands (and, guarded, of the old value of the destination)
_PURE = frozenset(ori.ORI_CLASSES[c] for c in ("alu", "fpu", "move", "convert"))
_MOVE = ori.ORI_CLASSES["move"]
_LOAD = ori.ORI_CLASSES["load"]
# loads ptxas merges: weak loads of these state spaces (a volatile, relaxed, acquire or mmio load is always done)
_MERGED_LOAD_SPACES = (".global", ".shared", ".local")
_ORDERED_LOAD = (".volatile", ".relaxed", ".acquire", ".mmio")


_LOAD_MOVE_TYPES = {t: ".b32" for t in (".b32", ".u32", ".s32", ".f32")} \
    | {t: ".b64" for t in (".b64", ".u64", ".s64", ".f64")}


def _load_move_type(ins: ori.Instr) -> str | None:
    return next((_LOAD_MOVE_TYPES[m] for m in ins.mods if m in _LOAD_MOVE_TYPES), None)


def _merged_load(ins: ori.Instr) -> bool:
    return ins.opcode == "ld" and ins.has(*_MERGED_LOAD_SPACES) and not ins.has(*_ORDERED_LOAD) \
        and _load_move_type(ins) is not None


def _reads_memory_only(ins: ori.Instr) -> bool:
    """An instruction after which a repeated load still sees the same memory (it writes none, orders none)."""
    return ins.op in _PURE or ins.opcode in ("shfl", "vote", "match", "redux", "activemask") \
        or ins.op == _LOAD and ins.opcode == "ld" and not ins.has(*_ORDERED_LOAD)


def _dest_regs(ins: ori.Instr) -> list[A.Reg]:
    first = ins.operands[0] if ins.operands else None
    if type(first) is A.Reg:
        return [first]
    if type(first) is A.Pair and type(first.first) is A.Reg and type(first.second) is A.Reg:
        return [first.first, first.second]
    return []


class _Numbering:
    """Value numbers of one block's registers, in order."""

    def __init__(self):
        self.vn: dict[str, object] = {}
        self.holder: dict[object, str] = {}      # value number -> a register holding it now
        self.pure: dict[tuple, list] = {}        # key -> value numbers of the results
        self.fresh = 0
        self.memory = 0                          # bumped by every instruction that may write or order memory

    def of(self, o):
        t = type(o)
        if t is A.Reg:
            return self.vn.get(o.name, ("in", o.name))
        if t is A.Imm:
            return ("imm", o.text)
        if t in (A.Not, A.Neg):
            return (t.__name__, self.of(o.inner))
        if t in (A.Vec, A.Paren, A.Addr):
            return (t.__name__, tuple(self.of(i) for i in o.items), getattr(o, "offset", None))
        return ("op", repr(o))

    def key(self, ins: ori.Instr, dests: list[A.Reg]) -> tuple:
        srcs = ins.operands[1:] if dests else ins.operands
        old = tuple(self.of(d) for d in dests) if ins.guard is not None else ()
        return (ins.opcode, ins.mods, tuple(self.of(o) for o in srcs),
                self.of(ins.guard) if ins.guard is not None else None, old)

    def define(self, reg: str, value) -> None:
        prev = self.vn.get(reg)
        if prev is not None and self.holder.get(prev) == reg:
            del self.holder[prev]
        self.vn[reg] = value
        self.holder.setdefault(value, reg)
        # (a register holds at most one value: holder[v] == r only while vn[r] == v, so dropping the entry of
        # reg's previous value above is all a redefinition needs)

    def new(self):
        self.fresh += 1
        return ("v", self.fresh)


def cse_warp_ops(fn: ori.Function, across_barrier: bool, by: str, kept: frozenset = frozenset(),
                 mask_kept: frozenset = frozenset()) -> int:
    """Delete repeated shuffles/votes of each block; returns how many. The warp ops of the blocks in `kept`
    (the bodies of loops with a per-thread trip count, WARP_OP_CSE_IN_DIVERGENT_LOOP_KEPT) all stay; their loads
    are merged as elsewhere (docs/findings/warp.md "Equal warp collectives in a per-thread loop are all kept
    (helper nv27warp, stop 27)"). In the blocks of `mask_kept` (the same loops below sm_90,
    ACTIVEMASK_READ_AFTER_SLOW_PATH) an activemask read after another warp op is not the earlier read: that op's
    out-of-line slow path lies between (docs/findings/warp.md "An active mask copied into a shared helper's
    argument is uniform (helper nvsched36, stop 36)")."""
    deleted = 0
    temps = 0
    prev = None
    for b in fn.blocks:
        if prev is not None and not straight_on(prev, b) and b.preds == [prev.label]:
            # the fall-through of a conditional branch (an early exit's guard) reached only from the block before:
            # the warp ops start anew, a load repeating one before the guard is still the same load
            # (`if (x[i] & 1) { m = activemask; redux(m, x[i]); }`: one LDG, the REDUX ready at the block's start:
            # docs/findings/scheduling.md "... (helper nvsched37, stop 37)")
            warp = {}
        elif prev is None or not straight_on(prev, b):
            num = _Numbering()
            warp: dict[tuple, tuple[ori.Instr, list, list]] = {}
            loads: dict[tuple, tuple[ori.Instr, list, list]] = {}
        prev = b
        out: list[ori.Instr] = []
        for ins in b.instrs:
            if ops.is_cta_barrier(ins) and not across_barrier:
                warp.clear()
            if b.label in mask_kept and ins.opcode in CSE_OPCODES and ins.opcode != "activemask":
                for key in [k for k in warp if k[0] == "activemask"]:
                    del warp[key]
            dests = _dest_regs(ins)
            load = _merged_load(ins) and bool(dests) and len(dests) == len(defs(ins))
            if load or ins.opcode in CSE_OPCODES and dests and len(dests) == len(defs(ins)) \
                    and b.label not in kept:
                key = num.key(ins, dests) + ((num.memory,) if load else ())
                table = loads if load else warp
                hit = table.get(key)
                if hit is not None:
                    first, values, first_out = hit
                    copies = []
                    for k, (d, v) in enumerate(zip(dests, values)):
                        src = num.holder.get(v)
                        if src is None:           # the earlier result was overwritten: keep it in a temp
                            temps += 1
                            src = f"%warp_cse{temps}"
                            typ = _load_move_type(first) if load else \
                                ".pred" if k or ".pred" in first.mods else ".b32"
                            fn.decls.append(A.VarDecl(".reg", (typ,), src))
                            at = next(n for n, x in enumerate(first_out) if x is first) + 1
                            first_out.insert(at, ori.Instr(_MOVE, "mov", (typ,),
                                                           (A.Reg(src), _dest_regs(first)[k]), None, {},
                                                           first.line, by))
                            num.holder[v] = src
                            num.vn[src] = v
                        typ = _load_move_type(ins) if load else ".pred" if k or ".pred" in ins.mods else ".b32"
                        copies.append(ori.Instr(_MOVE, "mov", (typ,), (d, A.Reg(src)), None, {}, ins.line, by))
                    for d, v in zip(dests, values):
                        num.define(d.name, v)
                    out.extend(copies)
                    deleted += not load
                    continue
                values = [num.new() for _ in dests]
                for d, v in zip(dests, values):
                    num.define(d.name, v)
                table[key] = (ins, values, out)
                out.append(ins)
                continue
            ds = defs(ins)
            if not _reads_memory_only(ins) and not (ins.opcode == "bra" and ins is b.instrs[-1]):
                num.memory += 1
            if ins.op in _PURE and dests and len(dests) == len(ds):
                if ins.opcode == "mov" and ins.guard is None and len(ins.operands) == 2 \
                        and type(ins.operands[1]) is A.Reg:
                    num.define(dests[0].name, num.of(ins.operands[1]))
                else:
                    key = num.key(ins, dests)
                    values = num.pure.get(key)
                    if values is None:
                        values = num.pure[key] = [num.new() for _ in dests]
                    for d, v in zip(dests, values):
                        num.define(d.name, v)
            else:
                for d in ds:
                    num.define(d, num.new())
            out.append(ins)
        b.instrs = out
    return deleted

