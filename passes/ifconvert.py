"""ptxas's if-conversion (phase 63 OriDoPredication), as far as the sync phases need it: which divergent
regions it predicates and which it keeps as branches, so that the warp really splits and re-joins there (phase
72 gives the region a BSSY/BSYNC pair, phase 71 keeps the WARPSYNC before a barrier in it, phase 42 keeps
mbarrier inits behind a branch).

A guarded PTX instruction that reads memory with latency (a load from global/local/generic memory, an atomic
whose result is used, a cp.async) is lowered by ptxas as a branch around it and then goes through the same
decision as an if region holding only it (probes phases/guard_*: the guard form and the `@!p bra` form of
every probe in ifconvert_* give the same result). Atomics and fences ptxas never predicates; a guarded
reduction or an atomic whose result is dead stays predicated (RED).

The model (docs/findings/convergence.md "If-conversion of a region holding a long load" and the sections
after it; probes phases/ifconvert_*):
- a region holding an op ptxas never predicates (atomics, `nopred` fences, mbarrier ops
  and the bulk-group commit) or 21 or more
  instructions stays a branch (div_if_alu_20 / div_if_alu_long, ifconvert_load_alu19 / _alu20);
- a region without a load of global/local/generic memory is predicated (div_if_ld_shared, six stores);
- a load region is predicated when predication lets its load overlap other work: another such load it does
  not feed, before it or after it (ifconvert_ld_after, _ld_before, two guarded loads in a row: Triton's masked
  loads), a global store after its join that neither uses its value nor may alias its own global stores
  (phases/ifconvert_ld_st_indep, ifconvert_ldsts_st_indep; ifconvert_ldstg_st_alias keeps the branch), or
  enough independent work after its join (ifconvert_alu_after); with the target feature
  PREDICATE_SHARED_STAGING_LOAD (sm_90+) also a load if whose value is stored to shared memory
  (ifconvert_ldsts_*, div_if_ld_global_st_bar); one whose value a CTA barrier reduces only with double-precision
  work beside it (ifconvert_ld_bar_red_*). The look-ahead stops at a fence or CTA barrier
  when the region (or code after it using its value) writes memory, at a store or atomic to global memory
  that depends on the loaded value, at a branch (except into the next load region); the look-back stops at
  any global store, atomic, fence or CTA barrier;
- a short if (no long load) reading shared memory whose result is read after its join stays a branch from nine
  SASS instructions wherever it joins (ifconvert_live_result_*), as one joining at a CTA barrier does; in
  general any one-armed if of short work stays a branch from nine SASS instructions whatever their kinds, on
  every target, when the code after its join waits for it (ifconvert_size_*: a count, not a latency estimate;
  docs/findings/convergence.md "If-conversion is a count of nine SASS instructions, not a latency estimate
  (helper ifc28, stop 28)"); one rule (_kept_for_size) for the barrier join, the shared-load result and the
  waited-for triangle, and one count (_region_size) in which an instruction ISel expands counts as its expansion
  (passes/sass_units.py: divisions, MUFU preludes, 64-bit multiply/min/max, the shared window) and, from sm_90,
  a kernel parameter the region reads costs its LDC (docs/findings/convergence.md "The size of an if region per
  instruction kind (helper size30, stop 30)");
- an if holding an inner region that stays a branch stays a branch (ifconvert_nested_if1_*); inner ifs ptxas
  predicates leave a straight body decided like any other (ifconvert_nested_if2_bar keeps it, _tail does not).
Rules and experiments: docs/findings/convergence.md.
"""
from __future__ import annotations

from collections import deque

from pylower.records import record

from pylower.lowering import ori
from pylower.lowering import ptx_ast as A
from pylower.lowering.ops import ASYNC, MBARRIER, branch_target, guard_register, is_cta_barrier, warp_op
from pylower.lowering.ori_schema import NEVER_PREDICATED_OPCODES

from .sass_units import expansion_units, needs_operand_move
from .analysis.regions import (LOADS, Region, arm, arm_syncs_warp, before_join_barrier, exit_arm_branches, exits,
                               holds_cycle, is_spin_loop, joins_at_any_cta_barrier, may_spin, register_only,
                               through_empty)

# loads from these spaces ptxas predicates like ALU work (div_if_ld_shared); every other load reads memory
# with a long latency (global, local, generic, texture; ifconvert_ld_after_{ldl,ldgen,ldnc})
_SHORT_LOAD_SPACES = (".shared", ".param", ".const")
# never predicated inside a branch region (div_if_atom_global, ifconvert_red_region)
_UNPREDICATED = NEVER_PREDICATED_OPCODES
KEPT_REGION_MIN_SIZE = 21
# an if without long loads holding a global (or generic) store stays a branch with its pair from this many SASS
# instructions on, the stores counted (docs/findings/convergence.md "An if holding a global store keeps its pair
# from nine SASS instructions, eight from sm_90 (helper w2store, stop 26)")
STORE_REGION_KEPT_MIN = 9
STORE_REGION_KEPT_MIN_SHORT = 8        # SHORT_STORE_REGION_KEPT (sm_90+)
# an if region that joins at a CTA barrier stays a branch with its pair from this many SASS instructions on
# (docs/findings/convergence.md "An if joining at a CTA barrier keeps its pair from nine SASS instructions")
BARRIER_JOIN_KEPT_MIN = 9
# the SASS of a cvta.shared to a generic address in such an if: sm_80 `ULDC.64; UIADD3; UIADD3.X; MOV; IMAD.U32`,
# sm_90+ `VIADD; LEA; S2R SR_SWINHI; MOV; MOV` after the cluster window's base (`S2R SR_CgaCtaId; MOV; LEA`)
CVTA_SHARED_UNITS = 5
SHARED_WINDOW_BASE_UNITS = 3
# independent instructions after a load region's join that make its predication pay (ifconvert_alu_after:
# 6 independent multiplies predicate, 5 do not)
OVERLAP_WORK_MIN = 6
# ... counted in SASS instructions with the head's work ptxas sinks below the predicated region (SUNK_HEAD_WORK,
# straight code): from 4, 3 on sm_90/sm_90a (SHORT_OVERLAP_WORK; docs/findings/warp.md "A guarded load before a
# straight shuffle chain (helper shfl38, stop 38)")
OVERLAP_SUNK_WORK_MIN = 4
OVERLAP_SUNK_WORK_MIN_SHORT = 3
# ... and before its branch (ifconvert_alu_before: the header's address arithmetic and 5 multiplies
# predicate, 4 do not)
OVERLAP_WORK_BEFORE_MIN = 10
# independent arithmetic after the CTA barrier a load region's stores join at (SASS instructions, counted by
# _hoisted_units) from which ptxas predicates the region: the work moves above the barrier and hides the load
# (docs/findings/convergence.md "Work after the barrier hides a load region whose stores the barrier orders
# (helper nvbar30, stop 30)")
HOISTED_WORK_MIN = 4
# independent work after that barrier up to and in an if (its compare, the ALU of its body, the move of a value's
# default it merges) from which ptxas predicates the region (_if_after_barrier)
IF_AFTER_BARRIER_WORK_MIN = 4
# a load region whose join reaches a branch around a loop keeps its pair with at most this much independent work
# on the way (_reaches_loop_skip)
LOOP_SKIP_WORK_MAX = 1
# a special-register read after the join that ptxas makes an S2R of its own (the function reads that register
# nowhere else) counts as this many units of independent work: its variable latency hides the load like a few
# ALU instructions (docs/findings/convergence.md "An S2R after a load if's join counts as three instructions
# of work (helper nvfresh31, stop 31)")
S2R_READ_WORK = 3
S2R_SPECIALS = ("%tid", "%ctaid", "%laneid", "%warpid", "%smid", "%lanemask", "%clock")
# memory writes that order later global loads after them: every store/atomic except to shared memory
_WRITES = ("st", "red", "atom")
_FENCES = ("membar", "fence")


def is_long_load(ins: ori.Instr) -> bool:
    """A load ptxas only predicates when it pays: global/local/generic memory, or a cp.async (LDGSTS reads
    global memory: probes/async/cp_async_if_diamond)."""
    return ins.opcode in LOADS and not ins.has(*_SHORT_LOAD_SPACES) \
        or ins.op == ASYNC and ins.attrs.form == "ldgsts"


def _live_load(am, block: ori.BasicBlock, ins: ori.Instr) -> bool:
    """A load whose value is used (ptxas deletes the others before it if-converts) or a cp.async."""
    return ins.op == ASYNC or ins.has(".volatile") or _result_used(am, block, ins)


def _global_write(ins: ori.Instr) -> bool:
    return ins.opcode in _WRITES and not _shared(ins)


def _sass_size(instrs, target, live_out=frozenset(), wide_products=frozenset()) -> int:
    """The number of SASS instructions ptxas makes of a region's straight code: its work (_work), with the
    scalar shared loads of one symbol at constant offsets merged the way ptxas vectorizes them (one load per
    16-byte window holding three or four of the 4-byte words it reads, per aligned pair, else one each),
    a shift by a constant into its one add fused with it (LEA, LEA.HI; below sm_90 free when the add only forms
    a shared address: `[R.X4+sym]`), a 32-bit add of a constant that only forms shared addresses free (the
    offset of `[R+imm]`: held-out Blelloch down-sweep steps, phases/ifconvert_bar_join_addr_imm), a 64-bit add not taken by a LEA two, and, where the target has FMNMX3,
    two chained min/max of one kind in one instruction
    (docs/findings/convergence.md "An if joining at a CTA barrier keeps its pair from nine SASS instructions").
    `wide_products`: registers holding a widening multiply's product computed outside `instrs`; a 64-bit add of
    one is one IMAD.WIDE (ptxas recomputes the product with the add: docs/findings/convergence.md "A region's
    repeat of a value computed before the branch counts nothing (helper size30b, stop 30)")."""
    n = 0
    instrs = list(instrs)
    windows: dict[tuple, set[int]] = {}
    three = target is not None and target.has("FMNMX3")
    scaled = target is not None and target.has("SHARED_SCALED_INDEX")
    chained: set = set()                  # min/max results a later one of the same kind may absorb
    merged3 = _three_input_merges(instrs)
    fused: set[str] = set()               # shift results a LEA / LEA.HI takes with their add
    wide: set[str] = set()                # wide multiply results an IMAD.WIDE takes with their 64-bit add
    fused_right: set[str] = set()         # ... of right shifts (LEA.HI)
    readers: dict[str, list] = {}         # register -> the region's instructions reading it
    written = {o.name for i in instrs if i.opcode not in ("st", "red") and i.operands
               and type(i.operands[0]) is A.Reg for o in i.operands[:1]} if wide_products else set()
    for ins in instrs:
        for o in ins.operands[1:] if ins.opcode != "st" else ins.operands:
            for r in _operand_regs(o):
                readers.setdefault(r, []).append(ins)
    # a shared address made generic (cvta.shared) and stored as a value: its window arithmetic; the 32->64-bit
    # widening of the address it converts is folded into it. Used as an address (an mbarrier.init's) it folds
    # into the access (docs/findings/convergence.md "A shared address made generic counts in an if joining at a
    # barrier (helper nvasync24, stop 24)")
    stored = {r for i in instrs if i.opcode == "st" for o in i.operands[1:] if type(o) is not A.Addr
              for r in _operand_regs(o)}
    generic = [i for i in instrs if i.opcode == "cvta" and i.has(".shared") and not i.has(".to")
               and type(i.operands[0]) is A.Reg and i.operands[0].name in stored]
    widened = {r for i in generic for o in i.operands[1:] for r in _operand_regs(o)}
    generic_ids = {id(i) for i in generic}
    n += len(generic) * CVTA_SHARED_UNITS + _special_reads(instrs, live_out)
    if generic and target is not None and target.has("SHARED_WINDOW_ADDRESS"):
        n += SHARED_WINDOW_BASE_UNITS
    for ins in instrs:
        if not _work(ins):
            if ins.opcode == "cvta" and id(ins) not in generic_ids:
                n += expansion_units(ins, target, 0)    # into the cluster's shared window (sm_90+)
            continue
        dest = ins.operands[0] if ins.operands and type(ins.operands[0]) is A.Reg else None
        if ins.opcode == "cvt" and dest is not None and dest.name in widened:
            continue
        only = readers.get(dest.name, []) if dest is not None else []
        if ins.opcode in ("shl", "shr") and len(only) == 1 and only[0].opcode == "add" \
                and type(ins.operands[-1]) is A.Imm:
            # LEA / LEA.HI: a shift by a constant into its one add is one instruction with the add; below
            # sm_90 a scaled index into a shared address (`[R.X4+sym]`) costs nothing at all
            fused.add(dest.name)
            if ins.opcode == "shr":
                fused_right.add(dest.name)
            if scaled and ins.opcode == "shl" and _shared_address_only(only[0], readers):
                n -= 1
            continue
        if ins.opcode == "add" and len(ins.operands) == 3 and type(ins.operands[2]) is A.Imm \
                and not any(ins.has(t) for t in (".s64", ".u64", ".b64")) and _shared_address_only(ins, readers):
            continue                      # register + constant as a shared address: the offset of `[R+imm]`
        if ins.opcode in ("add", "sub") and any(ins.has(t) for t in (".s64", ".u64", ".b64")):
            if any(r in wide for o in ins.operands[1:] for r in _operand_regs(o)):
                continue                  # IMAD.WIDE(.U32) d, a, b, c: the wide multiply takes the add whole
            srcs = [r for o in ins.operands[1:] for r in _operand_regs(o)]
            if any(r in wide_products for r in srcs) and not any(r in written for r in srcs):
                n += expansion_units(ins, target)     # the multiply made again with the add: one IMAD.WIDE
                continue
            if not _shared_address_only(ins, readers) and not any(r in fused_right for o in ins.operands[1:]
                                                                  for r in _operand_regs(o)):
                n += 1                    # IADD3 + IADD3.X, or LEA + LEA.HI.X with the left shift it takes; a
                                          # shared address is 32 bits, a right shift's add one LEA.HI
                                          # (phases/ifconvert_bar_join_index64)
        addr = next((o for o in ins.operands if type(o) is A.Addr), None)
        if ins.opcode == "ld" and ins.has(".shared") and not ins.has(".volatile") and addr is not None \
                and type(addr.base) is A.Sym and len(addr.items) == 1 and addr.offset % 4 == 0 \
                and any(ins.has(t) for t in (".f32", ".b32", ".u32", ".s32")) and not any(m.startswith(".v") for m in ins.mods):
            windows.setdefault((addr.base.name, addr.offset // 16), set()).add(addr.offset % 16 // 4)
            continue
        if _constant_operand_load(ins) and len(only) == 1 and only[0].opcode in _THREE_INPUT:
            continue                      # a constant-bank operand of its one user
        if id(ins) in merged3:
            # IADD3 / LOP3: a 32-bit add (logic op) taking in the result of the one before it
            # (docs/findings/convergence.md "A short if whose result is read after its join keeps its pair from
            # nine SASS instructions (helper nvnew25, stop 25)")
            continue
        if three and ins.opcode in ("max", "min") and ins.has(".f32"):
            srcs = {o for o in ins.operands[1:] if type(o) is A.Reg}
            hit = next((r for r in srcs if (ins.opcode, r) in chained), None)
            dest = ins.operands[0] if ins.operands and type(ins.operands[0]) is A.Reg else None
            if hit is not None:
                chained.discard((ins.opcode, hit))      # merged into this one: its result is a full FMNMX3
                continue
            if dest is not None:
                chained.add((ins.opcode, dest))
        if ins.opcode == "mul" and ins.has(".wide") and dest is not None:
            wide.add(dest.name)
        n += expansion_units(ins, target)
    for words in windows.values():
        if len(words) >= 3:
            n += 1
        else:
            n += sum(1 for lo in (0, 2) if {lo, lo + 1} <= words) + \
                sum(1 for w in words if not {w & 2, (w & 2) + 1} <= words)
    return n


# special registers ptxas reads in a region as an instruction of its own: a constant-bank read (ULDC / LDC of
# %ntid, %nctaid) or a special-register read (S2UR / S2R of %ctaid, the cluster's ids). %tid is left out: under
# the usual `tid == 0` guard ptxas knows its value (docs/findings/mbarrier.md "A special-register read counts in
# an if's size (helper w3cost, stop 27)")
_COUNTED_SPECIALS = ("%ntid", "%nctaid", "%ctaid", "%clusterid", "%nclusterid", "%cluster_ctaid",
                     "%cluster_nctaid", "%cluster_ctarank", "%cluster_nctarank")


def _special_reads(instrs, live_out=frozenset()) -> int:
    """The special-register reads (`mov r, %ntid.x`, ...) of a region whose value reaches work with an effect
    in it (a store, an mbarrier op: something without a register result) or a register read after the join
    (`live_out`), each one SASS instruction; reads that feed only dead arithmetic cost nothing
    (mbarrier/init_if_count_mul2_dead)."""
    reaching: set[str] = set(live_out)    # registers the region's effects read, directly or through its ALU work
    counted = 0
    for ins in reversed(list(instrs)):
        if not _size(ins):
            continue
        dest = ins.operands[0] if ins.operands and type(ins.operands[0]) is A.Reg and ins.opcode != "st" else None
        if ins.opcode == "mov" and dest is not None and type(ins.operands[-1]) is A.Reg \
                and ins.operands[-1].name.startswith(_COUNTED_SPECIALS):
            counted += dest.name in reaching
            continue
        if dest is not None and dest.name not in reaching and ins.op not in (ASYNC, MBARRIER) \
                and ins.opcode not in _WRITES:
            continue                      # arithmetic whose result no effect of the region reads
        for o in ins.operands[1:] if dest is not None else ins.operands:
            reaching.update(_operand_regs(o))
    return counted


_THREE_INPUT = {"add": "iadd3", "and": "lop3", "or": "lop3", "xor": "lop3"}


def _three_input_kind(ins: ori.Instr) -> str | None:
    """The 3-input SASS op a 32-bit register add or logic op of the region becomes (IADD3, LOP3)."""
    kind = _THREE_INPUT.get(ins.opcode)
    if kind is None or len(ins.operands) != 3 or type(ins.operands[0]) is not A.Reg:
        return None
    if not any(ins.has(t) for t in (".s32", ".u32", ".b32")):
        return None
    return kind


def _three_input_merges(instrs) -> set[int]:
    """ids of the 32-bit adds / logic ops that ptxas merges with the one whose result they read into one
    IADD3 / LOP3: the result read by nothing else first, each 3-input op taking in one 2-input op."""
    merged: set[int] = set()
    chained: dict[str, str] = {}          # register -> the kind of the unmerged op that wrote it
    constant = {r for i in instrs if _constant_operand_load(i) for r in _operand_regs(i.operands[0])}
    for ins in instrs:
        kind = _three_input_kind(ins)
        if kind is not None and any(r in constant for o in ins.operands[1:] for r in _operand_regs(o)):
            kind = None                   # its constant-bank operand takes the slot a merge would need
        srcs = [r for o in (ins.operands[1:] if ins.opcode != "st" else ins.operands) for r in _operand_regs(o)]
        hit = next((r for r in srcs if chained.get(r) == kind), None) if kind is not None else None
        for r in srcs:
            chained.pop(r, None)
        dest = ins.operands[0].name if ins.operands and type(ins.operands[0]) is A.Reg and ins.opcode != "st" \
            else None
        if dest is not None:
            chained.pop(dest, None)
        if hit is not None:
            merged.add(id(ins))
        elif kind is not None and dest is not None:
            chained[dest] = kind
    return merged


def _constant_operand_load(ins: ori.Instr) -> bool:
    """A scalar `ld.const` at a fixed address: ptxas reads it as a constant-bank operand of the instruction
    using it (`LOP3.LUT R0, R0, c[0x3][0x4], ...` below sm_90), no instruction of its own (docs/findings/
    convergence.md "If-conversion is a count of nine SASS instructions, not a latency estimate (helper ifc28,
    stop 28)")."""
    if ins.opcode != "ld" or not ins.has(".const") or any(m.startswith(".v") for m in ins.mods):
        return False
    addr = next((o for o in ins.operands if type(o) is A.Addr), None)
    return addr is not None and type(addr.base) is A.Sym and len(addr.items) == 1 \
        and type(ins.operands[0]) is A.Reg


def _operand_regs(o) -> list[str]:
    if type(o) is A.Reg:
        return [o.name]
    if type(o) is A.Addr:
        return [x.name for x in o.items if type(x) is A.Reg]
    if type(o) is A.Vec:
        return [x.name for x in o.items if type(x) is A.Reg]
    return []


def _shared_address_only(add: ori.Instr, readers: dict) -> bool:
    """Is the add's result used only as the address of shared-memory accesses in the region?"""
    dest = add.operands[0] if add.operands and type(add.operands[0]) is A.Reg else None
    uses = readers.get(dest.name, []) if dest is not None else []
    return bool(uses) and all(i.opcode in ("ld", "st") and i.has(".shared") and any(
        type(o) is A.Addr and dest.name in _operand_regs(o) for o in i.operands) for i in uses)


def _size(ins: ori.Instr) -> int:
    return ins.opcode not in ori.PSEUDO_OPCODES and ins.opcode != "bra"


# instructions that cost nothing in the overlap estimate: copies, address-space conversions and parameter
# reads (ptxas folds them into operands)
_FREE = ("mov", "cvta")


def _work(ins: ori.Instr) -> int:
    return _size(ins) and ins.opcode not in _FREE and not (ins.opcode == "ld" and ins.has(".param"))


def _result_used(am, block: ori.BasicBlock, ins: ori.Instr) -> bool:
    return any(am.liveness.is_used_after(block, ins, r) for r in am.defuse.defs(ins))


def guard_becomes_branch(am, block: ori.BasicBlock, ins: ori.Instr) -> bool:
    """Does ptxas lower this guarded instruction as a branch around it (a one-instruction region for
    if-conversion)? Long loads, cp.async, atomics whose result is used, every red (global, shared or
    generic, any op and scope, every target: `BSSY; @!P BRA; RED; BSYNC`, probes phases/guard_red_*; Triton
    atomic_rmw_kernel *_noret), `nopred` ops (guard_ld_global, ifconvert_guard_atom; ifconvert_guard_atom_dead
    stays predicated)."""
    if ins.attrs.nopred or is_long_load(ins) or ins.opcode == "red" and not _before_return(am, block, ins):
        return True
    return ins.opcode == "atom" and (_result_used(am, block, ins) or _waited_for(am, block, ins)) \
        and not _aggregated_with_result(am, ins)


def _before_return(am, block: ori.BasicBlock, ins: ori.Instr) -> bool:
    """Is `ins` the function's last instruction before its `ret` (in its block, or the block's end when it
    falls into a block holding only the `ret`)? ptxas guards it by an early `@!P EXIT` instead of a branch
    (isel/fam_branch.py: Triton's masked `@p red; ret`)."""
    k = next(i for i, x in enumerate(block.instrs) if x is ins)
    rest = block.instrs[k + 1:]
    if rest:
        return rest[0].opcode == "ret" and rest[0].guard is None
    nxt = [am.blocks[s] for s in block.succs if s in am.blocks]
    return len(nxt) == 1 and len(nxt[0].instrs) == 1 and nxt[0].instrs[0].opcode == "ret" \
        and nxt[0].instrs[0].guard is None


def _waited_for(am, block: ori.BasicBlock, ins: ori.Instr) -> bool:
    """Is a fence or a CTA barrier reachable after the atomic? It waits for the atomic's result register, so
    a dead result counts as used there (ifconvert_guard_exch_dead_{membarcta,fence_acqrel,bar}; a fence
    only before it does not: _fence_before)."""
    by_label = am.blocks
    k = next(i for i, x in enumerate(block.instrs) if x is ins)
    work, seen = [(block.label, k + 1)], set()
    while work:
        label, index = work.pop()
        if (label, index) in seen or label not in by_label:
            continue
        seen.add((label, index))
        b = by_label[label]
        if any(x.opcode in _FENCES or is_cta_barrier(x) for x in b.instrs[index:]):
            return True
        work.extend((s, 0) for s in b.succs)
    return False


# used-result atomics ptxas warp-aggregates (a prefix scan; isel/fam_atomic.py section 3): under a guard the
# aggregation is its own branch (misc_atom_global_add_u32_predicated); other ops to a uniform address are
# plain guarded atomics (ifconvert_guard_atom_uni_exch, _uni_max)
_AGGREGATED_WITH_RESULT = (("add", "u32"), ("add", "s32"))


def _aggregated_with_result(am, ins: ori.Instr) -> bool:
    addr = next((o for o in ins.operands if type(o) is A.Addr), None)
    return bool(ins.attrs.agg) and addr is not None and am.uniformity.is_uniform(addr) \
        and (ins.attrs.op, ins.attrs.type) in _AGGREGATED_WITH_RESULT


@record
class _Contents:
    hard: bool = False          # an op ptxas never predicates
    loads: bool = False         # a long load
    size: int = 0


_DIVISION_TYPES = (".s64", ".u64", ".s16", ".u16")


def _integer_division(ins: ori.Instr) -> bool:
    """A 64- or 16-bit integer div/rem: ptxas calls an internal subroutine for it (a call is never predicated),
    so a region holding one stays a branch with its pair, even with a constant divisor (probes
    phases/ifconvert_div_{u64,u64_imm,s64_rem,u16}; docs/findings/convergence.md "A 64-bit integer division
    keeps its region a branch (helper llvmnb, stop 21)")."""
    return ins.opcode in ("div", "rem") and any(m in ins.mods for m in _DIVISION_TYPES)


def _contents(instrs) -> _Contents:
    c = _Contents()
    for ins in instrs:
        c.hard |= ins.opcode in _UNPREDICATED or ins.attrs.nopred \
            or _integer_division(ins)                               # nopred: lowering/fam_fence.py, phase 42
        c.loads |= is_long_load(ins)
        c.size += _size(ins)
    return c


def too_long_to_predicate(instrs) -> bool:
    """Code ptxas never predicates as a whole: 21 or more instructions, or an op it never predicates."""
    c = _contents(instrs)
    return c.hard or c.size >= KEPT_REGION_MIN_SIZE


def _warp_op_or_expansion(instrs) -> bool:
    """A warp op, or the `warpsync` phase 72 made of one (a bar.warp.sync, an inline form), among `instrs`; not the
    WARPSYNC it puts before a CTA barrier (barrier/loop_two_exit_*)."""
    return any(warp_op(i) is not None or i.opcode == "warpsync" and not (
        k + 1 < len(instrs) and is_cta_barrier(instrs[k + 1])) for k, i in enumerate(instrs))


def _region_instrs(am, body):
    for label in body:
        yield from am.blocks[label].instrs


# ---------------------------------------------------------------- the scans around a load region

def _forward_overlap(am, label: str, index: int, tainted: set[str], target, work: int = 0,
                     writes: frozenset = frozenset(), computes: bool = False, ordered=None,
                     load_bases: frozenset = frozenset(), sunk: int | None = None,
                     test_operands: frozenset | None = None) -> bool:
    """From instruction `index` of block `label` on (the region's join), along straight-line code: is there
    a long load or a store that does not depend on the region (`tainted`: the registers it writes; `writes`:
    the memory spaces it stores to), or enough independent work? A guarded long load on the way is the next
    load region (ifconvert_two_guarded). A store to a space the region writes may alias it and ends the scan;
    so does a CTA barrier or fence after a region that writes memory (they order its stores), while one after
    a region that only loads is passed (phases/ifconvert_ld_*: `if (c) x = ld; bar.sync; st y; st x` is
    predicated, `if (c) { x = ld; st.shared x }; bar.sync; st y` is not)."""
    du = am.defuse
    own = frozenset(tainted)
    tainted, writes = set(tainted), set(writes)
    # past a CTA barrier the region's value is no longer waited for: a store of it neither ends the scan nor
    # orders the stores after it (phases/ifconvert_ld_bar_dep_st_indep_st); past a barrier reduction of it,
    # loads after it do not overlap the region (ifconvert_ld_bar_red_indep_load), nor stores from sm_90
    # (BARRIER_REDUCTION_HIDES_STORES), nor the next if (count_if_syncthreads); docs/findings/convergence.md
    # "A barrier reduction of a load if's value keeps its branch unless double work follows (helper nvcub26,
    # stop 26)"
    passed = reduced = fenced = staged = False
    alu = 0                 # independent work on the way other than compares (_branch_holds_divergent_branch)
    # the same work counted as SASS instructions, with the head's work ptxas sinks below the region (SUNK_HEAD_WORK)
    sunk_rule = sunk is not None and target is not None and target.has("SUNK_HEAD_WORK")
    sass_work = sunk or 0
    hides_stores = target is not None and target.has("BARRIER_REDUCTION_HIDES_STORES")
    code = _fall_through(am, label, index)
    for b, ins in code:
        uses = du.uses(ins)
        dep = any(r in tainted for r in uses)
        if dep and ins.opcode in _WRITES and not passed:   # a store of the region's value: ordered like its own
            writes.add(_space(ins))
            staged |= _shared(ins)
        if ins.opcode == "bra":
            if ins.guard is None:
                return False
            if passed and not (reduced and hides_stores) and _next_body_stores_apart(am, b, tainted, target):
                return True
            if not passed and not reduced and alu <= 1 and _branch_holds_divergent_branch(am, b):
                return False
            return not reduced and _next_region_overlaps(am, b, tainted, target, computes, own, ordered, load_bases,
                                                         staged)
        if ins.opcode in ("ret", "exit", "call", "brx"):
            return False
        if ins.opcode in _FENCES or is_cta_barrier(ins):
            if writes:
                # the barrier orders the region's stores; only arithmetic after it can still hide the load,
                # not across a two-way fence passed before (Triton atomic_load_store_kernel's `@p ld.relaxed;
                # fence.acq_rel; @p st.shared; bar.sync`: kept on every target, however much work follows)
                if not is_cta_barrier(ins) or passed or fenced:
                    return False
                k = next(i for i, x in enumerate(b.instrs) if x is ins)
                return _hoisted_units(am, code, tainted, target, "shared" not in writes) >= HOISTED_WORK_MIN \
                    or _if_after_barrier(am, b.label, k + 1, tainted, target)
            passed |= is_cta_barrier(ins)
            fenced |= _two_way_fence(ins)
            if dep:                 # a barrier reduction of the region's value (bar.red.popc) carries it on
                tainted.update(du.defs(ins))
                reduced |= is_cta_barrier(ins)
            continue
        if is_long_load(ins) and ins.guard is not None and _live_load(am, b, ins) and not reduced:
            # a guarded gather: its address waits for the region's value, so nothing after it overlaps the
            # region (kept); a guarded load at an address of its own overlaps it, whatever its guard reads
            # (docs/findings/convergence.md "A masked load whose value is a masked gather's address keeps its
            # branch (helper tbssy32, stop 32)")
            if _address_reads(du, ins, tainted):
                return False
            if dep:
                return True
        if is_long_load(ins) and not dep and _live_load(am, b, ins):
            if reduced:
                continue
            return True
        if ins.opcode == "st" and not dep and _global_write(ins):
            if reduced and hides_stores:
                continue
            return "global" not in writes
        if _global_write(ins) and dep and not passed:
            return False
        if ins.guard is not None and ins.opcode == "atom":
            return False
        if dep:
            tainted.update(du.defs(ins))
        else:
            units = S2R_READ_WORK if _own_s2r_read(am, ins) else 1 if _work(ins) else 0
            work += units
            alu += units if ins.opcode != "setp" else 0
            sass_work += _sass_work(am, ins, test_operands)
            if work >= OVERLAP_WORK_MIN or sunk_rule and sass_work >= _overlap_work_min(target):
                # ALU work does not hide a region whose value a guarded gather further on waits for
                k = next(i for i, x in enumerate(b.instrs) if x is ins)
                return not _feeds_guarded_gather(am, b.label, k + 1, tainted)
    return False


def _if_after_barrier(am, label: str, index: int, tainted: set[str], target) -> bool:
    """After the CTA barrier that orders a load region's stores (from instruction `index` of block `label`): does
    the code reach an if with no loop in it before the next CTA barrier, fence, warp op, call or exit, going
    straight, into loops (their headers and bodies, not round a back edge) and through a branch around code that
    holds a loop (the trip test of a block reduction's `for (s = ntid / 2; s > 0; s >>= 1)`), with at least
    IF_AFTER_BARRIER_WORK_MIN SASS instructions of independent work (_test_units) on the way and in the if: its
    compare, the ALU of its body that reads no value loaded after the barrier (addresses), and one move when the
    if merges a value at its join (`x = t >= o ? s[t - o] : 0`: the default's move); for an if in a loop body, the
    work before the loop (the trip test) and one for the if's compare (`for (s = ntid / 2; s > 0; s >>= 1) if (t <
    s) ...`: ULDC, USHF, ISETP and the compare: predicated; `for (o = 1; o < ntid; o <<= 1) x = t >= o ? ...`: an
    ISETP of %ntid and the compare: kept)? ptxas then moves that work
    between the region's load and its store and predicates the region,
    whether the if is uniform or divergent, predicated or kept, unless it holds a long load of its own (a double
    buffer's `if (r + 1 < rows) buf[nxt][t] = x[...]`), a condition from sm_90 no longer makes
    (PREDICATE_LOAD_BEFORE_DIVERGENT_IF). With less work, it
    moves the work above the region and keeps its pair (a scan step's `if (t >= 1) x = s[t - 1]`: ISETP and the
    default's move; `if (t < n / 2) { s[t] = max(s[t], s[t + 1]) }`: ULDC, USHF, ISETP).
    A loop body or straight code without an if keeps it (the count of straight work is _hoisted_units').
    tools/variations/barrier_trip_shift.py; docs/findings/convergence.md "An if after the barrier predicates the
    load if before it (helper nvbar37, stop 37)"."""
    by_label, loops, du = am.blocks, am.loops, am.defuse
    seen, late, work = set(), set(tainted), []
    looped = False                      # inside a loop: its code is not moved above the barrier

    def note(ins) -> None:
        """A load or a reader of a loaded value is late (not movable above the barrier); other work counts."""
        if ins.opcode in LOADS and not ins.has(".param", ".const") or not late.isdisjoint(du.uses(ins)):
            late.update(du.defs(ins))
        elif ins.opcode not in _WRITES and _work(ins) and not looped:
            work.append(ins)

    while label in by_label and label not in seen:
        seen.add(label)
        b = by_label[label]
        looped |= label in loops.headers
        for ins in b.instrs[index:]:
            if ins.opcode in ("ret", "exit", "call", "brx") or ins.opcode in _FENCES or is_cta_barrier(ins) \
                    or warp_op(ins) is not None:
                return False
            note(ins)
        index = 0
        if loops.ends_in_back_edge(b):
            return False
        test = _forward_test(b)
        if test is None:
            if len(b.succs) != 1:
                return False
            label = b.succs[0]
            continue
        join = am.ipdom.get(b.label)
        if join is None:
            return False
        if _skips_loop(am, b):
            inside = [s for s in b.succs if s != join]
            if len(inside) != 1:
                return False
            label = inside[0]
            continue
        body = set().union(*(arm(s, join, by_label) for s in b.succs if s != join))
        loads = merged = False
        live = am.liveness
        # the if's join: the virtual exit when its arms only meet at the end (nothing live there)
        join_live = live.live_in.get(join)
        for lab in sorted(body, key=lambda x: am.rpo_index.get(x, 0)):
            for ins in by_label[lab].instrs:
                if is_cta_barrier(ins) or warp_op(ins) is not None:
                    return False
                loads |= is_long_load(ins) and tainted.isdisjoint(du.uses(ins)) and _live_load(am, by_label[lab], ins)
                note(ins)
                # a value the if merges at its join (`x = t >= o ? s[t - o] : 0`): its default is a move of its own
                merged |= ins.opcode != "setp" and join_live is not None and any(
                    join_live[live.index[r]] for r in du.defs(ins) if r in live.index)
        # in a loop body only the work before the loop counts, and the if's compare
        units = _test_units(am, work, target) + (1 if looped else merged)
        if units < IF_AFTER_BARRIER_WORK_MIN:
            return False
        return not loads or target is not None and target.has("PREDICATE_LOAD_BEFORE_DIVERGENT_IF")
    return False


def _test_units(am, work, target) -> int:
    """SASS instructions of `work` (_sass_size), with one more per constant-bank value (%ntid, a parameter) read by
    an instruction other than a compare or a multiply-add that reads nothing else: ptxas computes it in the
    uniform datapath and loads the value into a uniform register first (`ULDC; USHF.R.U32.HI; ISETP` for `tid <
    ntid / 2`), where a compare or a per-thread op takes it as an operand (`LOP3 R, R, c[0x0][..]`); a 32-bit add of
    a `mul.lo` product one less (the two are one IMAD)."""
    banked = _constant_bank_regs(am)
    extra = set()
    for ins in work:
        regs = [r for o in ins.operands[1:] for r in _operand_regs(o)]
        if ins.opcode not in ("setp", "mad", "fma") and regs and all(r in banked for r in regs):
            extra.update(regs)
    products = {ins.operands[0].name for ins in work if ins.opcode == "mul" and ins.has(".lo")
                and type(ins.operands[0]) is A.Reg}
    fused = sum(1 for ins in work if ins.opcode == "add" and not ins.has(".f32", ".f64", ".s64", ".u64")
                and any(r in products for o in ins.operands[1:] for r in _operand_regs(o)))   # one IMAD
    return _sass_size(work, target) + len(extra) - fused


def _special_read(ins: ori.Instr) -> str | None:
    if ins.opcode == "mov" and len(ins.operands) == 2 and type(ins.operands[1]) is A.Reg \
            and ins.operands[1].name.startswith(S2R_SPECIALS):
        return ins.operands[1].name
    return None


def _own_s2r_read(am, ins: ori.Instr) -> bool:
    """A read of an S2R special register that the function reads nowhere else (ptxas shares one S2R among
    reads of the same register)."""
    name = _special_read(ins)
    return name is not None and _per_function(am, "special_read_counts", _scan_special_reads).get(name, 0) == 1


def _scan_special_reads(am) -> dict:
    counts: dict = {}
    for b in am.fn.blocks:
        for ins in b.instrs:
            name = _special_read(ins)
            if name is not None:
                counts[name] = counts.get(name, 0) + 1
    return counts


def _hoisted_units(am, code, tainted: set[str], target, window: bool = False) -> int:
    """The SASS instructions of the arithmetic after a CTA barrier (`code`: the rest of _forward_overlap's
    straight-line walk, up to the next branch, barrier, fence or exit) that reads neither the region's values
    (`tainted`) nor anything loaded after the barrier: work ptxas moves above the barrier, beside a predicated
    load region whose stores the barrier orders. Counted as _sass_size counts a region, with a 64-bit add of a
    widening multiply's product one IMAD.WIDE (and the move of its constant), and one move per constant-bank
    value (%ntid, a parameter) a multiply-add with an immediate addend reads (IMAD takes only one of the two).
    Where the target forms the shared window's base in registers (SHARED_WINDOW_ADDRESS), a shared access after
    the barrier of a region that stores nothing to shared memory (`window`) brings that base and the address's
    LEA along (SHARED_WINDOW_BASE_UNITS + 1).
    docs/findings/convergence.md "Work after the barrier hides a load region whose stores the barrier orders
    (helper nvbar30, stop 30)"."""
    du = am.defuse
    late = set(tainted)
    work = []
    shared = False
    for _, ins in code:
        if ins.opcode in ("bra", "ret", "exit", "call", "brx") or ins.opcode in _FENCES or is_cta_barrier(ins):
            break
        shared |= ins.opcode in LOADS + _WRITES and _shared(ins)
        if ins.opcode in LOADS and not ins.has(".param", ".const") or not late.isdisjoint(du.uses(ins)):
            late.update(du.defs(ins))
            continue
        if ins.opcode in _WRITES or not _work(ins):
            continue
        work.append(ins)
    # (_sass_size counts a 32-bit integer div/rem as its inline expansion, by a constant too:
    # phases/ifconvert_hoist_bar_rem, _rem_imm; and a widening multiply's 64-bit add as part of its IMAD.WIDE)
    units = _sass_size(work, target)
    wide = {ins.operands[0].name for ins in work if ins.opcode == "mul" and ins.has(".wide")
            and type(ins.operands[0]) is A.Reg}
    units += sum(1 for ins in work if ins.opcode == "add" and ins.has(".s64", ".u64")
                 and any(r in wide for o in ins.operands[1:] for r in _operand_regs(o)))    # the constant's move
    banked = _constant_bank_regs(am)
    units += len({o.name for ins in work if ins.opcode in ("mad", "fma") and type(ins.operands[-1]) is A.Imm
                  for o in ins.operands[1:-1] if type(o) is A.Reg and o.name in banked})
    if window and shared and target is not None and target.has("SHARED_WINDOW_ADDRESS"):
        units += SHARED_WINDOW_BASE_UNITS + 1
    return units


def _per_function(am, key: str, make):
    """`make(am)`, computed once per function until its code changes (not while a phase edits it in place):
    whole-function scans asked once per region."""
    if am.editing_in_place:
        return make(am)
    memo = am.memo(key)
    if key not in memo:
        memo[key] = make(am)
    return memo[key]


def _constant_bank_regs(am) -> set[str]:
    """Registers holding a constant-bank value: %ntid/%nctaid copies and parameter loads."""
    return _per_function(am, "constant_bank_regs", _scan_constant_bank_regs)


def _scan_constant_bank_regs(am) -> set[str]:
    out = set()
    for b in am.fn.blocks:
        for ins in b.instrs:
            if ins.opcode == "ld" and ins.has(".param") or ins.opcode == "mov" and any(
                    type(o) is A.Reg and o.name.startswith(("%ntid", "%nctaid")) for o in ins.operands[1:]):
                out.update(o.name for o in ins.operands[:1] if type(o) is A.Reg)
    return out


def _fall_through(am, label: str, index: int):
    """(block, instruction) from instruction `index` of block `label` on, along straight-line code: into the
    single successor while that successor has no other predecessor. Pseudo-instructions are skipped."""
    by_label, seen = am.blocks, set()
    while label in by_label and label not in seen:
        seen.add(label)
        b = by_label[label]
        for ins in b.instrs[index:]:
            if ins.opcode not in ori.PSEUDO_OPCODES:
                yield b, ins
        if len(b.succs) != 1 or len(by_label.get(b.succs[0], b).preds) != 1:
            return
        label, index = b.succs[0], 0


def _shared(ins: ori.Instr) -> bool:
    return any(m.startswith(".shared") for m in ins.mods)        # .shared, .shared::cta, .shared::cluster


def _space(ins: ori.Instr) -> str:
    """The memory space a store writes: shared, or global for every other (generic may be either)."""
    return "shared" if _shared(ins) else "global"


def _region_writes(instrs) -> frozenset:
    return frozenset(_space(i) for i in instrs if i.opcode in _WRITES)


def _next_region_overlaps(am, b: ori.BasicBlock, tainted: set[str], target, computes: bool = False,
                          own: frozenset = frozenset(), ordered=None, load_bases: frozenset = frozenset(),
                          staged: bool = False) -> bool:
    """The scan from a load region's join reaches a forward conditional branch. A divergent if there
    predicates the load region when that if is predicated too (the two bodies become one straight block), or,
    from sm_90, whatever becomes of it; below sm_90 an if that stays a branch keeps the load region a branch
    (phases/ifconvert_ld_then_if_*; llvm/barrier_legacy stencil_1d_halo: the centre load before the halo if).
    Only an if that does not use the load region's value counts so (examples/block_reduce: the lane-0 store of
    the shuffled sum keeps the load if on sm_75-89; ifconvert_ld_then_if_dep_store; from sm_90 ptxas counts a
    dependent one too in phases/compact_ld_ballot_*, not modelled: docs/findings/convergence.md "A load if
    before a ballot's divergent if (helper nvcompact32, stop 32)"). A dependent or a uniform if, or any if
    after a load region a global store before it orders (`ordered`: called at most once, on reaching an if),
    counts only if it holds an independent load (_next_region_loads)."""
    nxt = next((r for r in am.region_heads.get(b.label, ()) if r.kind == "if"), None)
    if nxt is None and not am.loops.ends_in_back_edge(b) and _dependent_exit_if(am, b, tainted):
        return False
    if nxt is None or am.loops.ends_in_back_edge(b):
        return _next_region_loads(am, b, tainted)
    du = am.defuse
    # a global store before the load region's branch orders its loads: no if after the join makes the region's
    # predication pay (docs/findings/convergence.md "A load if before a ballot's divergent if (helper
    # nvcompact32, stop 32)")
    if ordered is not None and ordered():
        return _next_region_loads(am, b, tainted)
    # in a loop body a dependent if ptxas predicates counts like an independent one: the load if of a grid-stride
    # or counted loop before `m = ballot(x > 0); if (lane == 0) st popc(m)` or `if (x > 0) st x` is predicated on
    # every target, the same code outside a loop keeps its pair (docs/findings/convergence.md "In a loop body a
    # dependent predicated if predicates the load if (helper nvvote33, stop 33)"); not one storing through the
    # load's own address register (phases/ifconvert_loop_ld_same_test_store_same_addr: kept)
    if any(not tainted.isdisjoint(du.uses(i)) for i in _region_instrs(am, nxt.body)) \
            and (not _in_one_loop_body(am, b.label, nxt.join) or is_branch_region(am, nxt, target)
                 or _stores_through(am, b.label, load_bases)):
        # below sm_90 a dependent if ptxas predicates predicates a load region that computes on its value
        # (`if (c) { v = ld.v4; s = v.x + v.y }; <shuffles of s>; if (lane == 0) st.shared s`: Triton-style sums,
        # probes phases/ifconvert_ld_compute_then_dep_if*); a region of the load alone stays a branch
        # (examples/block_reduce; docs/findings/convergence.md "A load region that computes on its value before a
        # dependent if (helper llvm25, stop 25)")
        if computes and not target.has("PREDICATE_LOAD_BEFORE_DIVERGENT_IF") and (
                not is_branch_region(am, nxt, target) or _live_past(am, nxt, own)):
            return True
        return _next_region_loads(am, b, tainted)
    if target.has("PREDICATE_LOAD_BEFORE_DIVERGENT_IF"):
        return True
    # below sm_90 a load region whose value the join already stored to shared memory (`s[t] = v` before `if (t ==
    # 0) { s[0] = 0; ... }`) stays a branch before a predicated if of other work; one holding a long load of its
    # own still predicates it (`if (t == 0) s[0] = x[g - 1]`): docs/findings/convergence.md "A load if staged to
    # shared memory before a predicated if keeps its pair (helper nvbar36, stop 36)"
    if staged and not any(is_long_load(i) for i in _region_instrs(am, nxt.body)):
        return False
    return not is_branch_region(am, nxt, target)


def _skips_loop(am, b: ori.BasicBlock) -> bool:
    """Does the block end in a forward conditional branch around code holding a loop (the trip test `if (steps <
    1) goto end` before a time-step loop, a per-thread `for (i = tid; i < m; i += ntid)`, uniform or divergent)?
    A load region whose join reaches it with little work on the way stays a branch whatever the loop loads
    (_reaches_loop_skip; docs/findings/convergence.md "A load if before a skipped loop keeps its pair (helper nvreg35, stop
    35)")."""
    loops = am.loops
    if not loops.back_edges or loops.ends_in_back_edge(b) or _forward_test(b) is None:
        return False
    join = am.ipdom.get(b.label)
    if join is None:
        return False
    body = set().union(*(arm(s, join, am.blocks) for s in b.succs if s != join))
    return any(h in body and not am.dom.dominates(h, b.label) for h in loops.headers)


def _forward_test(b: ori.BasicBlock) -> ori.Instr | None:
    """The guarded branch that ends a two-way block: its last instruction, or the one before an unguarded
    `bra.uni` to the other successor (nvcc's `@p bra L; bra.uni M;`)."""
    if len(b.succs) != 2 or not b.instrs:
        return None
    last = b.instrs[-1]
    if last.opcode == "bra" and last.guard is None and len(b.instrs) > 1:
        last = b.instrs[-2]
    return last if last.opcode == "bra" and last.guard is not None else None


def _reaches_loop_skip(am, label: str, index: int, tainted: set[str]) -> bool | None:
    """Does the straight-line code from instruction `index` of block `label` (a load region's join) end, before
    any CTA barrier, fence, warp op, call, exit or independent long load, in a forward branch around a loop
    (_skips_loop)?
    None when it does not; else whether ptxas keeps the region a branch: it does with at most one instruction of
    work on the way that does not read the region's values (`tainted`) and is not one of the branch's own compares
    or predicate logic (the arithmetic feeding them counts), whatever the loop holds, the work before the region's
    branch (the look-back) and whether the loop stages the value to shared memory; from two (counting a register copy, which a value merged at the loop's exit needs, and a
    special-register read as one each) it predicates the region (docs/findings/convergence.md "A load if before a
    skipped loop keeps its pair (helper nvreg35, stop 35)"). Not a trip test that reads the region's value (a
    `while (w && ...)` over the loaded word): the overlap scan decides that one."""
    du = am.defuse
    tainted = set(tainted)
    code = []
    for b, ins in _fall_through(am, label, index):
        if ins.opcode in ("ret", "exit", "call", "brx") or ins.opcode in _FENCES or is_cta_barrier(ins) \
                or warp_op(ins) is not None:
            return None
        if ins.opcode == "bra":
            if ins is not _forward_test(b) or not _skips_loop(am, b):
                return None
            break
        code.append((b, ins))
    else:
        return None
    chain = {guard_register(ins.guard)}                 # the branch's own test: its compares and predicate logic
    test = set()
    for _, i in reversed(code):
        if not chain.isdisjoint(du.defs(i)) and (i.opcode == "setp" or i.has(".pred")):
            chain.update(du.uses(i))
            test.add(id(i))
    work = 0
    for b, i in code:
        if not tainted.isdisjoint(du.uses(i)):
            tainted.update(du.defs(i))
            continue
        if is_long_load(i) and _live_load(am, b, i):
            return None                                 # an independent load: the overlap scan decides
        if id(i) not in test:
            work += 1 if (_work(i) or i.opcode == "mov") else 0
    if guard_register(ins.guard) in tainted:
        return None                                     # the trip test waits for the region's value
    return work <= LOOP_SKIP_WORK_MAX


def _dependent_exit_if(am, b: ori.BasicBlock, tainted: set[str]) -> bool:
    """Does the block end in a divergent branch around code that uses the load region's value and runs to the
    function's end (no region of its own: its join is the exit)? Its loads lend the region no overlap: a warp
    leader's update of shuffled sums at the end of a kernel, `v = i < n ? x[i] : 0; <shuffles>; if (lane == 0)
    { lock; ld; add; st; unlock }`, keeps the load if a branch on every target (docs/findings/async.md "Guarded
    cp.async copies: shared joins, group commits and the shared window (helper nvlock34, stop 34)")."""
    last = b.instrs[-1] if b.instrs else None
    join = am.ipdom.get(b.label)
    if last is None or last.opcode != "bra" or last.guard is None or len(b.succs) != 2 \
            or am.uniformity.is_uniform(last.guard) or join in am.blocks and not exits(am.blocks[join]):
        return False
    du = am.defuse
    body = set().union(*(arm(s, join, am.blocks) for s in b.succs))
    return any(not tainted.isdisjoint(du.uses(i)) for x in body for i in am.blocks[x].instrs)


def _in_one_loop_body(am, a: str, b: str) -> bool:
    """Do blocks `a` and `b` lie in the body of one loop (the innermost loop holding `a` holds `b`)?"""
    body = am.loops.innermost_body(a)
    return bool(body) and b in body


def _live_past_next_if(am, join: str, tainted: set[str]) -> bool:
    """Below sm_90: does the straight-line code from the load region's join run into a forward if (no CTA
    barrier, fence or back edge on the way) at whose join a value of the load region is still live? ptxas
    then keeps the load region a branch, whatever work follows it, when that if reads the load's value (`x = 0; if (i < n) x = ld; m = ballot(x > 0);
    if (lane == 0) st.shared popc(m); ...; st x`: nvcc/stream_compaction; probes
    phases/ifconvert_ld_live_past_if*); a value used only up to that if is predicated (ifconvert_ld_dep_if_only).
    docs/findings/convergence.md "A load region whose value outlives the next if stays a branch below sm_90
    (helper cg, stop 23)"."""
    by_label, seen, du = am.blocks, set(), am.defuse
    label, derived = join, set(tainted)
    while label in by_label and label not in seen:
        seen.add(label)
        b = by_label[label]
        if am.loops.ends_in_back_edge(b):
            return False
        for i in b.instrs:
            if i.opcode == "shfl":
                return False        # a shuffle on the way: predicated (nvcc/cg_scan_compaction cg_scan_compact)
            if not derived.isdisjoint(du.uses(i)):
                derived.update(du.defs(i))
        last = b.instrs[-1] if b.instrs else None
        if last is not None and last.opcode == "bra" and last.guard is not None:
            nxt = next((r for r in am.region_heads.get(label, ()) if r.kind == "if"), None)
            # an if that does not read the load's value predicates it (ifconvert_ld_then_if_pred_store); so does
            # one that loads too (a second load if: nvcc/reduce_smem_tree, ifconvert_two_regions)
            body = list(_region_instrs(am, nxt.body)) if nxt is not None else []
            return nxt is not None and any(not derived.isdisjoint(du.uses(i)) for i in body) \
                and not any(is_long_load(i) for i in body) and _live_past(am, nxt, tainted)
        if any(i.opcode in _FENCES or is_cta_barrier(i) or i.opcode in ("ret", "exit", "call", "brx")
               for i in b.instrs):
            return False
        if len(b.succs) != 1 or len(by_label.get(b.succs[0], b).preds) != 1:
            return False
        label = b.succs[0]
    return False


def _live_past(am, region: Region, tainted: set[str]) -> bool:
    """Below sm_90: is a value of the load region still live at the join of the dependent if after it? ptxas then
    keeps the load region a branch (`x = 0; if (i < n) x = ld; m = ballot(x > 0); if (lane == 0) st.shared
    popc(m); ...; st x`: nvcc/stream_compaction; probes phases/ifconvert_ld_live_past_if*); used only up to that
    if, it is predicated (ifconvert_ld_then_if_dep_*). docs/findings/convergence.md "A load region whose value
    outlives the next if stays a branch below sm_90 (helper cg, stop 23)"."""
    join = region.join
    if join not in am.blocks:
        return False
    lv = am.liveness
    live, index = lv.live_in[join], lv.index
    return any(r in index and live[index[r]] for r in tainted)


def _next_body_stores_apart(am, b: ori.BasicBlock, tainted: set[str], target) -> bool:
    """The block ends in a forward conditional branch over an if ptxas predicates (an exit arm's `@p EXIT`
    too): does that if store to global memory a value that does not depend on `tainted`? Past a CTA barrier
    such a store makes a load region's predication pay like one in straight code (nvcc/
    hist_match_syncthreads_predicates count_if_syncthreads: `if (tid == 0) { st c; st a; st o }` predicates the
    load if before `o`'s reduction on sm_75-89; phases/ifconvert_ld_bar_then_store_if)."""
    if am.loops.ends_in_back_edge(b):
        return False
    nxt = next((r for r in am.region_heads.get(b.label, ()) if r.kind == "if"), None)
    if nxt is not None and is_branch_region(am, nxt, target):
        return False
    join = am.ipdom.get(b.label)
    body = set().union(*(arm(s, join, am.blocks) for s in b.succs if s != join)) if join else set()
    du = am.defuse
    return any(_global_write(i) and i.opcode == "st" and tainted.isdisjoint(du.uses(i))
               for label in body for i in am.blocks[label].instrs)


def _branch_holds_divergent_branch(am, b: ori.BasicBlock) -> bool:
    """The block ends in a divergent forward branch whose code up to its post-dominator holds another divergent
    forward branch (a nested if, or the next exit test of a chain of exits to one join: nvcc's `count % 4`
    remainder prologue `if (c0) v0 = ld a; s[t] = v0; if (rem == 1) goto J; if (c1) v1 = ld a + 128; ...`).
    That code stays a branch: the warp diverges there, and nothing past the branch overlaps a load region
    before it, whatever the target or what the region's value feeds (docs/findings/convergence.md "A load if
    whose join reaches a branch around a nested branch keeps its pair (helper nvreg37, stop 37)")."""
    last = b.instrs[-1] if b.instrs else None
    if last is None or last.opcode != "bra" or last.guard is None or am.loops.ends_in_back_edge(b) \
            or am.uniformity.is_uniform(last.guard):
        # a uniform branch (`if (n < 2) skip` on a parameter) does not diverge: the warp-specialised stages
        # behind it re-converge as without it (probes barrier/named_stages_uniform_skip_join)
        return False
    join = am.ipdom.get(b.label)
    if not join:
        return False
    body = set().union(*(arm(s, join, am.blocks) for s in b.succs if s != join))
    # a warp op past the branch (a tile vote deciding a search loop's exit: nvcc/cg_tile_collectives
    # cg_tile_search) is left to the warp rules, whose answer there depends on the target
    if any(warp_op(i) is not None for label in body for i in am.blocks[label].instrs):
        return False
    for label in body:
        blk = am.blocks[label]
        end = blk.instrs[-1] if blk.instrs else None
        if end is not None and end.opcode == "bra" and end.guard is not None \
                and not am.loops.ends_in_back_edge(blk) and not am.uniformity.is_uniform(end.guard):
            return True
    return False


def _next_region_loads(am, b: ori.BasicBlock, tainted: set[str]) -> bool:
    """The block ends in a forward conditional branch: does the region it opens hold a long load that does
    not depend on `tainted` (ifconvert_two_regions; a uniform if of ALU work in between does not count:
    ifconvert_uif_between)?"""
    if am.loops.ends_in_back_edge(b):
        return False
    join = am.ipdom.get(b.label)
    body = set().union(*(arm(s, join, am.blocks) for s in b.succs if s != join)) if join else set()
    # a branch out of the loop (`b = ballot(p); if (b) break;` after the load if of a search loop): the arm that
    # stays in the loop runs to the latch, and the loads past the header are the next trip's, which do not hide
    # this trip's load (the pair kept on sm_75-120: docs/findings/warp.md "A loop that leaves on a collective's
    # result keeps the pair of the if before it (helper nvcoll37, stop 37)")
    header, loop = am.loops.innermost_loop(b.label)
    if loop and any(s not in loop for s in b.succs):
        body = {x for x in body if x not in loop} | set().union(
            *(arm(s, header, am.blocks) & loop for s in b.succs if s in loop and s != header))
    # an if committing a cp.async group stays a branch (ptxas never predicates the LDGDEPBAR): its loads do not
    # overlap the region, on every target (the unrolled remainder of a prefetch loop, `T; commit; if (r == 1)
    # goto X; T; commit; if (r == 2) goto X; ...`: each guarded cp.async T keeps its pair; docs/findings/async.md
    # "A cp.async group commit keeps the if around it a branch (helper nvlock34, stop 34)")
    if any(_commits_group(i) for label in body for i in am.blocks[label].instrs):
        return False
    du = am.defuse
    for label in body:
        blk = am.blocks[label]
        for ins in blk.instrs:
            if is_long_load(ins) and not any(r in tainted for r in du.uses(ins)) and _live_load(am, blk, ins):
                return True
    return False


def _commits_group(ins: ori.Instr) -> bool:
    """cp.async.commit_group or cp.async.wait_all (an LDGDEPBAR)."""
    return ins.op == ASYNC and getattr(ins.attrs, "form", "") in ("commit_group", "wait_all")


@record(frozen=True, slots=True)
class _Before:
    """What the code before a region's branch offers its predicated form (_backward_overlap)."""
    overlap: bool          # a long load, or enough work, the predicated region would overlap
    test_waits: bool       # the branch's test is computed from a load (of any space but .param/.const)
    ordered: bool          # a global store or atomic before the branch orders the region's loads


def _backward_overlap(am, label: str, index: int) -> _Before:
    """Before instruction `index` of block `label` (the region's branch), back along the code that reaches
    it: is there a long load with no global store, atomic, fence or CTA barrier between, or enough work to
    overlap (ifconvert_ld_before, ifconvert_alu_before; ifconvert_ld_st_before, _ld_bar_before keep the
    branch)? Across the join of a region ptxas predicates the scan takes in its body and goes on before it
    (nvcc/reduce_smem_tree: a load if after a load if; ifconvert_ld_uif_before); a kept region ends it.
    A branch whose test waits for a long load has nothing to overlap on that chain: the load and the work
    that computes the test are not counted (phases/ifconvert_test_on_load_*: `x = ld; if (x > c) y = ld`
    stays a branch, in a loop as in straight code; an independent load before it still predicates it);
    the work of a test made without a load still counts (numba reverse_block's thread-index test)."""
    du = am.defuse
    block = am.blocks.get(label)
    test = block.instrs[index] if block is not None and index < len(block.instrs) else None
    chain = {guard_register(test.guard)} if test is not None and test.guard is not None else set()   # the test's inputs
    work = chain_work = 0
    waits = long_wait = ordered = False
    for blk, ins in _code_before(am, label, index):
        if chain and not chain.isdisjoint(du.defs(ins)):
            chain.update(du.uses(ins))
            long_wait = long_wait or is_long_load(ins)
            waits = waits or ins.opcode in LOADS and not ins.has(".param", ".const")
            chain_work += bool(_work(ins))
            continue
        if is_long_load(ins) and _live_load(am, blk, ins):
            return _Before(True, waits, ordered)
        if _global_write(ins):
            ordered = True
            break
        if ins.opcode in _FENCES or is_cta_barrier(ins) or \
                ins.opcode in ("call", "ret", "exit") or ins.opcode == "bra" and ins.guard is not None:
            break
        work += bool(_work(ins))
    return _Before(work + (0 if long_wait else chain_work) >= OVERLAP_WORK_BEFORE_MIN, waits, ordered)


def _code_before(am, label: str, index: int):
    """The instructions that reach instruction `index` of block `label`, last first, with their blocks:
    back through single predecessors and across the joins of regions ptxas predicates (their bodies taken in);
    it stops at the entry, a loop header, or a region that stays a branch."""
    by_label, idom = am.blocks, am.idom
    seen = set()
    if label not in by_label:
        return
    instrs = [(by_label[label], i) for i in by_label[label].instrs[:index]]
    while True:
        yield from reversed(instrs)
        seen.add(label)
        b = by_label[label]
        preds = [p for p in b.preds if p in by_label]
        if not preds or any(_dominates(am, label, p) for p in preds):     # the entry, or a loop header
            return
        if len(preds) == 1:
            label = preds[0]
            instrs = [(by_label[label], i) for i in by_label[label].instrs]
            if instrs and instrs[-1][1].opcode == "bra" and instrs[-1][1].guard is None:
                instrs = instrs[:-1]
        else:
            head = idom.get(label)
            if head is None or head in seen or head not in by_label:
                return
            body = set().union(*(arm(s, label, by_label) for s in by_label[head].succs if s != label))
            inside = [(by_label[x], i) for x in am.rpo if x in body for i in by_label[x].instrs]
            c = _contents(i for _, i in inside)
            if c.hard or c.size >= KEPT_REGION_MIN_SIZE or any(am.loops.ends_in_back_edge(by_label[x]) for x in body):
                return
            label = head
            instrs = [(by_label[head], i) for i in by_label[head].instrs[:-1]] + \
                [(x, i) for x, i in inside if i.opcode != "bra"]
        if label in seen:
            return


def _address_reads(du, ins: ori.Instr, regs: set[str]) -> bool:
    """Does the address operand of the load `ins` read one of `regs`?"""
    addr = next((o for o in ins.operands if type(o) is A.Addr), None)
    return addr is not None and any(r in regs for r in _operand_regs(addr))


def _dominates(am, a: str, b: str) -> bool:
    return am.dom.dominates(a, b)


def _overlap_work_min(target) -> int:
    """Independent work after a load region's join (with the head's sunk work, SUNK_HEAD_WORK) from which ptxas
    predicates the region."""
    if target is None or not target.has("SUNK_HEAD_WORK"):
        return OVERLAP_WORK_MIN
    return OVERLAP_SUNK_WORK_MIN_SHORT if target.has("SHORT_OVERLAP_WORK") else OVERLAP_SUNK_WORK_MIN


def _load_region_overlaps(am, head: str, head_index: int, join: str, join_index: int, tainted: set[str],
                          target, writes: frozenset = frozenset(), staged: bool = False,
                          look_back: bool = True, computes: bool = False, load_bases: frozenset = frozenset(),
                          sunk: int | None = None, test_operands: frozenset | None = None) -> bool:
    ordered = lambda: _backward_overlap(am, head, head_index).ordered     # noqa: E731 (asked at most once)
    if _forward_overlap(am, join, join_index, tainted, target, writes=writes, computes=computes,
                        ordered=ordered, load_bases=load_bases, sunk=sunk, test_operands=test_operands):
        return True
    if not writes and _reduced_beside_double_work(am, join, join_index, tainted, target):
        return True
    if not look_back and not staged:
        return False                    # nothing below would read the look-back (a hot path: every guarded load)
    before = _backward_overlap(am, head, head_index)
    if look_back and before.overlap:
        return True
    # the staging rule does not reach a region whose test waits for a load, nor one a global store before
    # it orders (phases/ifconvert_staged_*: kept on sm_90 as on sm_80), nor one inside the arm of an if that
    # does other work (_in_working_arm)
    return staged and target.has("PREDICATE_SHARED_STAGING_LOAD") and not before.test_waits and not before.ordered \
        and not _in_working_arm(am, head, head_index) and not _feeds_guarded_gather(am, join, join_index, tainted)


def _feeds_guarded_gather(am, label: str, index: int, tainted: set[str]) -> bool:
    """Along the straight-line code from the join, before a CTA barrier or branch: is the region's value (or
    a value computed from it) the address of a guarded long load? ptxas keeps such a load region a branch on
    every target, the sm_90 staging rule does not predicate it (docs/findings/convergence.md "A masked load
    whose value is a masked gather's address keeps its branch (helper tbssy32, stop 32)")."""
    du = am.defuse
    tainted = set(tainted)
    for b, ins in _fall_through(am, label, index):
        if ins.opcode in ("bra", "ret", "exit", "call", "brx") or ins.opcode in _FENCES or is_cta_barrier(ins):
            return False
        if is_long_load(ins) and ins.guard is not None and _address_reads(du, ins, tainted):
            return True
        if any(r in tainted for r in du.uses(ins)):
            tainted.update(du.defs(ins))
    return False


def _in_working_arm(am, label: str, index: int) -> bool:
    """Is instruction `index` of block `label` (a guarded load) in the arm of a forward conditional branch (a
    uniform if; the unrolled loop's 1-copy remainder), with other code in that arm than the load and the
    computation of its guard? The arm is the straight-line code from the branch's successor on, through blocks
    with one predecessor, to the join. The sm_90 staging rule then leaves the load region a branch, with its pair
    (phases/ifconvert_staged_in_arm_*: `if (m) { addr = base + off; if (i < n) x = ld [addr] } st.shared x;
    bar.sync` keeps it; an arm holding only the test and the load is predicated; docs/findings/convergence.md
    "A staged load in an if's arm with other work keeps its branch (helper w2unroll, stop 26)")."""
    by_label = am.blocks
    block = by_label.get(label)
    if block is None:
        return False
    start, seen = label, {label}
    while True:                                     # back to the arm's first block
        preds = [p for p in by_label[start].preds if p in by_label]
        if len(preds) != 1 or preds[0] in seen:
            return False
        pred = by_label[preds[0]]
        last = pred.instrs[-1] if pred.instrs else None
        if last is not None and last.opcode == "bra" and last.guard is not None:
            if am.loops.ends_in_back_edge(pred):   # a loop's exit, not an arm
                return False
            break
        if len(pred.succs) != 1:
            return False
        start = preds[0]
        seen.add(start)
    load = block.instrs[index]
    chain = {guard_register(load.guard)}
    du = am.defuse
    arm: list[ori.Instr] = []
    label, seen = start, set()
    while label in by_label and label not in seen:  # forward to the join (or the function's end)
        seen.add(label)
        b = by_label[label]
        arm.extend(b.instrs)
        if len(b.succs) != 1 or len(by_label.get(b.succs[0], b).preds) != 1:
            break
        label = b.succs[0]
    k = next(j for j, x in enumerate(arm) if x is load)
    for ins in reversed(arm[:k]):                   # the guard's computation
        if not chain.isdisjoint(du.defs(ins)):
            chain.update(du.uses(ins))
    return any(_size(ins) and ins is not load and chain.isdisjoint(du.defs(ins)) for ins in arm
               if ins.opcode not in _FREE)


# double-precision work: arithmetic on .f64 values and conversions between f32 and f64
_DOUBLE_ARITHMETIC = frozenset({"add", "sub", "mul", "fma", "mad", "min", "max", "div", "rcp", "sqrt", "abs", "neg"})
_INT_TYPES = (".s8", ".s16", ".s32", ".s64", ".u8", ".u16", ".u32", ".u64")


def _double_work(ins: ori.Instr, target) -> bool:
    """An instruction ptxas gives a double-precision unit's latency: f64 arithmetic and f32<->f64 conversions on
    every target, an integer-to-f64 conversion (I2F.F64) below sm_90 only (target feature I2F_F64_SLOW;
    docs/findings/convergence.md "A barrier reduction of a load if's value keeps its branch unless double work
    follows (helper nvcub26, stop 26)")."""
    if ins.opcode == "cvt":
        if ".f64" not in ins.mods:
            return False
        if any(m in ins.mods for m in _INT_TYPES):
            return ins.mods.index(".f64") < max(ins.mods.index(m) for m in _INT_TYPES if m in ins.mods) \
                and target.has("I2F_F64_SLOW")
        return ".f32" in ins.mods
    return ins.opcode in _DOUBLE_ARITHMETIC and ".f64" in ins.mods


def _reduced_beside_double_work(am, label: str, index: int, tainted: set[str], target) -> bool:
    """From a load region's join, along straight-line code (to a branch, a return or a fence): does a CTA barrier
    reduce a value of the region (bar.red.popc/and/or of a compare of it) while double-precision work that does
    not depend on the region runs before or after that barrier? ptxas then predicates the region on every target
    (phases/ifconvert_ld_bar_red_popc_{f2f,dmul,dadd}; numba/predicate_counts); without such work the region keeps
    its branch (ifconvert_ld_bar_red_popc; nvcc/hist_match_syncthreads_predicates count_if_syncthreads on sm_90+)."""
    du = am.defuse
    tainted = set(tainted)
    reduced = double = False
    for _, ins in _fall_through(am, label, index):
        if ins.opcode in ("bra", "ret", "exit", "call", "brx") or ins.opcode in _FENCES:
            break
        dep = not tainted.isdisjoint(du.uses(ins))
        if is_cta_barrier(ins):
            reduced |= dep and ins.attrs.mode == "red"
        elif not dep:
            double |= _double_work(ins, target)
        if dep:
            tainted.update(du.defs(ins))
    return reduced and double


def _two_way_fence(ins: ori.Instr) -> bool:
    """A fence with both acquire and release parts (membar, fence.sc, fence.acq_rel): it ends the scan for a
    shared store of a loaded value (phases/ifconvert_ld_fence_sts_*, ifconvert_ld_membar_cta_sts);
    fence.acquire, fence.release and fence.proxy do not (ifconvert_ld_fence_{acquire,release}_sts: predicated on
    sm_90 as without a fence; Triton atomic_load_store_kernel fp32_sys, i64_cta)."""
    return ins.opcode == "membar" or ins.opcode == "fence" and any(m in (".sc", ".acq_rel") for m in ins.mods)


def _stores_to_shared(am, instrs, tainted: set[str]) -> bool:
    """Does a shared-memory store of the region read a value the region computes?"""
    uses = am.defuse.uses
    return any(i.opcode == "st" and _shared(i) and not tainted.isdisjoint(uses(i)) for i in instrs)


def _stages_to_shared(am, instrs, join: str, join_index: int, tainted: set[str]) -> bool:
    """Does the region's loaded value reach a shared-memory store, inside the region or after its join
    (forward, up to a CTA barrier, a fence, a back edge or the end; through later ifs: a global-to-shared tile copy,
    nvcc/reduce_warp_shuffle's lane-0 store of the shuffled sum)? Only such a load if is predicated from
    sm_90 (div_if_ld_global_st_bar, _alu_bar, _shfl_bar, phases/ifconvert_ldsts_*; a value kept in a register
    across the barrier or stored to global memory keeps the branch: ifconvert_ld_bar, ifconvert_ldstg_bar; so does
    a two-way fence between the load and the shared store: `@p ld; fence.acq_rel; @p st.shared`, Triton
    atomic_load_store_kernel, phases/ifconvert_ld_fence_sts_*)."""
    if _stores_to_shared(am, instrs, tainted):
        return True
    if not _reaches_staging(am, join, join_index):
        return False                                    # the walk below could only end with False
    du = am.defuse
    uses = du.uses
    tainted = set(tainted)
    work, seen = [(join, join_index)], set()
    while work:
        label, index = work.pop(0)
        b = am.blocks.get(label)
        if b is None or label in seen:
            continue
        seen.add(label)
        ended = False
        for ins in b.instrs[index:]:
            dep = not tainted.isdisjoint(uses(ins))
            if dep and ins.opcode == "st" and _shared(ins):
                return True
            # a barrier reduction of it is no staging: it keeps the branch (phases/ifconvert_ld_bar_red_popc on
            # every target; numba/predicate_counts is predicated by its double work: _reduced_beside_double_work)
            if _ends_staging_walk(ins):
                ended = True
                break
            if dep:
                tainted.update(du.defs(ins))
        if not ended and not am.loops.ends_in_back_edge(b):
            work.extend((x, 0) for x in b.succs)
    return False


def warpsync_arm_ifs(am, target) -> list[Region]:
    """The ifs that stay a branch and one of whose arms runs an unguarded full-mask bar.warp.sync on every path
    (regions.arm_syncs_warp), in region order: the warp that took that arm is whole at the join, so the if has no
    pair and the next CTA barrier re-converges it (phase 71) and its predicate is warp-uniform after the join
    (phase 72) (docs/findings/convergence.md "A WARPSYNC.ALL arm's join reaches a CTA barrier unconverged
    (helper tmisc, stop 22)"). Once per function until its code changes."""
    memo = am.memo("warpsync_arm_ifs")
    out = memo.get(target.name)
    if out is None:
        out = memo[target.name] = [r for r in am.regions if r.kind == "if" and arm_syncs_warp(am, r)
                                   and is_branch_region(am, r, target)]
    return out


def _ends_staging_walk(ins: ori.Instr) -> bool:
    return is_cta_barrier(ins) or _two_way_fence(ins) or ins.opcode in ("ret", "exit", "call", "brx")


def _reaches_staging(am, label: str, index: int) -> bool:
    """Can _stages_to_shared's forward walk from instruction `index` of block `label` meet a shared-memory store
    or a CTA barrier at all (whatever is tainted)? Blocks from whose start it can are found once per function
    (kept until its code changes), so a function without such code, or a region far from any, costs no walk
    (many divergent ifs without barriers: each walk went to the function's end)."""
    memo = am.memo("reaches_staging")
    reach = memo.get(None)
    if reach is None:
        own: dict[str, bool | None] = {}          # True: meets one in the block; False: the walk ends there
        for b in am.fn.blocks:
            own[b.label] = next((is_cta_barrier(i) or i.opcode == "st" and _shared(i) for i in b.instrs
                                 if is_cta_barrier(i) or i.opcode == "st" and _shared(i) or _ends_staging_walk(i)),
                                None)
        reach = {x for x, v in own.items() if v}
        preds: dict[str, list[str]] = {}
        for b in am.fn.blocks:
            if own[b.label] is None and not am.loops.ends_in_back_edge(b):
                for t in b.succs:
                    preds.setdefault(t, []).append(b.label)
        work = list(reach)
        while work:
            for p in preds.get(work.pop(), ()):
                if p not in reach:
                    reach.add(p)
                    work.append(p)
        memo[None] = reach
    b = am.blocks.get(label)
    if b is None:
        return False
    for ins in b.instrs[index:]:
        if is_cta_barrier(ins) or ins.opcode == "st" and _shared(ins):
            return True
        if _ends_staging_walk(ins):
            return False
    return not am.loops.ends_in_back_edge(b) and any(t in reach for t in b.succs)


def _guard_stages_to_shared(am, block: ori.BasicBlock) -> list[bool]:
    """_stages_to_shared(am, [ins], block.label, k + 1, defs(ins)) for every instruction k of the block at
    once (phase 72 asks it of every guarded load: one forward scan each was guarded loads x function length).
    The scan's path does not depend on the taint, only its answer does, so one walk along that path carries
    each start's taint as one bit of a per-register mask; kept per block until the function's code changes."""
    memo = am.memo("guard_stages_to_shared")
    out = memo.get(block.label)
    if out is not None:
        return out
    du = am.defuse
    uses, defs = du.uses, du.defs
    taint: dict[str, int] = {}
    hits = active = 0

    def step(ins) -> tuple[int, bool]:
        m = 0
        for r in uses(ins):
            m |= taint.get(r, 0)
        barrier = is_cta_barrier(ins)
        hit = m & active
        return m, hit if (barrier or ins.opcode == "st" and _shared(ins)) else 0, _ends_staging_walk(ins)

    own: list[bool] = []
    for k, ins in enumerate(block.instrs):
        m, hit, ended = step(ins)
        hits |= hit
        if ended:
            active = 0
        elif m:
            for r in defs(ins):
                taint[r] = taint.get(r, 0) | m
        d = defs(ins)
        # the region's own instruction storing its own value to shared memory (never for a store: no defs)
        own.append(ins.opcode == "st" and _shared(ins) and not set(d).isdisjoint(uses(ins)))
        bit = 1 << k
        for r in d:
            taint[r] = taint.get(r, 0) | bit
        active |= bit
    if active and not am.loops.ends_in_back_edge(block):
        work, seen = deque((x, 0) for x in block.succs), {block.label}
        while work and hits & active != active:
            label, _ = work.popleft()
            b = am.blocks.get(label)
            if b is None or label in seen:
                continue
            seen.add(label)
            ended = False
            for ins in b.instrs:
                m, hit, ended = step(ins)
                hits |= hit
                if ended:
                    break
                if m:
                    for r in defs(ins):
                        taint[r] = taint.get(r, 0) | m
            if not ended and not am.loops.ends_in_back_edge(b):
                work.extend((x, 0) for x in b.succs)
    out = memo[block.label] = [own[k] or bool(hits >> k & 1) for k in range(len(block.instrs))]
    return out


# ---------------------------------------------------------------- decisions

def _written(instrs, du) -> set[str]:
    out: set[str] = set()
    for ins in instrs:
        out.update(du.defs(ins))
    return out


def is_kept_region(am, region: Region, target) -> bool:
    """Does ptxas keep this divergent region as a branch (`am`: the function's analysis manager)? Memoised per
    function until its code changes: an if asks the same of the ifs after it (_load_region_overlaps), so a chain of
    ifs asked one by one was quadratic. Not while a phase edits the code in place (`am.editing_in_place`)."""
    key = (region.kind, region.head, region.bssy_block, region.join, frozenset(region.body), region.barrier_join,
           target.name)
    # a region asked about again while its own answer is being worked out (two regions holding each other's
    # heads: a CFG no compiler front end makes, found by tools/fuzz) is not kept for that inner question
    asking = am.memo("kept_region_asking")
    if key in asking:
        return False
    asking[key] = True
    try:
        if am.editing_in_place:
            return _is_kept_region(am, region, target)
        memo = am.memo("kept_region")
        kept = memo.get(key)
        if kept is None:
            kept = memo[key] = _is_kept_region(am, region, target)
        return kept
    finally:
        del asking[key]


def _is_kept_region(am, region: Region, target) -> bool:
    by_label = am.blocks
    c = _contents(_region_instrs(am, region.body))
    if c.hard or c.size >= KEPT_REGION_MIN_SIZE:
        return True
    if not c.loads and _kept_for_global_stores(list(_region_instrs(am, region.body)), target):
        return True
    if _anchored_region_kept(list(_region_instrs(am, region.body)), target, am):
        return True
    if target.has("MBARRIER_SW") and not target.has("MBARRIER_SYNCS") and any(
            i.op == MBARRIER and i.attrs.op == "cp_async_arrive" and not i.attrs.noinc
            for i in _region_instrs(am, region.body)):
        # sm_80-89's cp.async.mbarrier.arrive is a warp vote and the leader's ATOMS.ADD: an if holding one stays a
        # branch (tools/variations/arrives_waterfall.py */guarded, helper nvreg39, stop 39)
        return True
    loops = am.loops
    if region.kind == "loop" or any(loops.ends_in_back_edge(by_label[x]) or loops.branches_back(by_label[x])
                                    for x in region.body):
        # a loop some lanes leave early stays a branch whatever it holds (ifconvert_loop_{alu,lds,stg}_*);
        # one holding a warp op re-converges inside instead (WARPSYNC.ALL; op on sm_90+: div_loop_shfl_sync;
        # below sm_90 its slow path pairs the region anyway) -- unless every warp op sits in an inner divergent
        # if of the loop: that re-converges only the if, and the loop keeps its pair (docs/findings/warp.md
        # "The warp reaches a loop's back edge converged only through a full-mask op (helper warp29, stop 29)")
        inner = set().union(*(r.body for r in am.regions if r.body < region.body))
        return not any(_warp_op_or_expansion(am.blocks[x].instrs) for x in region.body - inner)
    if _kept_for_size(am, region, c, target):
        return True
    if _branches_on_own_load(am, region):
        return True
    if _join_placed_elsewhere(am, region):
        return True
    if _replaces_kept(list(_region_instrs(am, region.body)), am.defuse):
        return True
    if _holds_uniform_branch(am, region):
        return True
    if not c.loads:
        return _work_beside_inner_if(am, region)
    if target.has("SHARED_WINDOW_ADDRESS") and _forms_window_alone(am, region):
        return True
    # an inner region that stays a branch keeps the one around it a branch; inner ones ptxas predicates leave
    # the outer if a branch too, below (phases/ifconvert_nested_*)
    heads = am.region_heads
    if any(r is not region and r.kind == "if" and is_kept_region(am, r, target)
           for x in region.body for r in heads.get(x, ())):
        return True
    # ... and so does a branch of its body to its own join that stays a branch (a chain of exits to one join, the
    # unrolled remainder `if (r == 0) goto J; ld; if (r == 1) goto J; ld; ...; J:` nvcc makes of a strided loop in a
    # grid-stride loop): one pair serves the chain, opened at its first branch (docs/findings/convergence.md "A chain
    # of exits to one join keeps the pair of its first branch (helper nvwarpk32, stop 32)")
    if any(r.kind == "if" and r.head != region.head and r.head in region.body and is_kept_region(am, r, target)
           for r in am.all_regions_by_join.get(region.join, ())):
        return True
    # an if/else with a load on each side is predicated even when another path reaches its join, if that path is
    # an enclosing uniform if's skip edge or other arm (the ragged zero-fill cp.async `if (k + 1 < tiles) { g < n ?
    # cp.async : cp.async zfill }` of a double-buffered loop); a triangle there stays a branch, and so does one
    # inside an enclosing divergent if with the same join (docs/findings/async.md "An if/else of cp.asyncs at a
    # uniformly shared join is predicated (helper nvlock34, stop 34)")
    if _load_in_each_arm(region, by_label) and not _in_divergent_if_to_join(am, region):
        return False
    if _shared_join(am, region):
        return True
    head = by_label[region.head]
    instrs = list(_region_instrs(am, region.body))
    tainted = _written(instrs, am.defuse)
    # from sm_90 a load if (a triangle, no else) staging its value to shared memory is predicated; not one
    # holding branches of its own nor one inside another divergent region (phases/ifconvert_nested_*), nor
    # an if/else (div_ifelse_ld_global ld_then_alu)
    nested = _nested(am, region)
    # an if/else counts as staged only when an arm stores the value to shared memory itself (a value merged at
    # the join and stored there keeps the branch: div_ifelse_ld_global ld_then_alu; stored in the arm:
    # phases/ifconvert_ifelse_staged_in_arm, docs/findings/convergence.md "An if/else whose arm stages its load
    # to shared memory (helper nvasync, stop 22)")
    # (straight code only: in a loop body a value outliving the next if does not keep the pair,
    # docs/findings/convergence.md "In a loop body a dependent predicated if predicates the load if (helper
    # nvvote33, stop 33)")
    if not target.has("PREDICATE_LOAD_BEFORE_DIVERGENT_IF") and not _computes_on_load(instrs, am.defuse) \
            and not am.loops.innermost_body(region.join) and _live_past_next_if(am, region.join, tainted):
        return True
    if region.join in head.succs:
        staged = not nested and _stages_to_shared(am, instrs, region.join, 0, tainted)
    else:
        staged = not nested and _stores_to_shared(am, instrs, tainted)
    # an if whose inner ifs were predicated stays a branch whatever follows its join (a stencil's halo if:
    # `if (tx < R) { s[..] = c1 ? ld : 0; s[..] = c2 ? ld : 0 }`), unless the join's code runs to the end, which
    # ptxas hoists above the branch (no pair; the overlap scan below stands in for it, looking only forward):
    # docs/findings/convergence.md "A load if around predicated load ifs stays a branch (helper nvstencil32, stop 32)"
    inner = any(i.opcode == "bra" and i.guard is not None for i in instrs)
    if inner and not _join_runs_to_end(am, region.join):
        return True
    # what follows a one-level region's join can make ptxas predicate its loads
    if region.join in head.succs and not inner and (
            _loop_sync_after_join(am, region, head, tainted)
            or (target.has("PREDICATE_LOAD_COMPUTED_ACROSS_BARRIER") and _computed_across_barrier(am, region, instrs))
            or _loop_same_test_after_join(am, region, head, instrs)):
        return False
    kept = _reaches_loop_skip(am, region.join, 0, tainted)
    if kept is not None:
        return kept
    return not _load_region_overlaps(am, region.head, len(head.instrs) - 1, region.join, 0, tainted, target,
                                     _region_writes(instrs), staged, look_back=not inner,
                                     computes=_computes_on_load(instrs, am.defuse),
                                     load_bases=frozenset(_address_bases(i for i in instrs if i.opcode in LOADS)),
                                     sunk=None if am.loops.innermost_body(region.join)
                                     else _sunk_head_work(am, head, instrs, target),
                                     test_operands=_test_operands(am, head))


def _sunk_head_work(am, head: ori.BasicBlock, instrs, target) -> int | None:
    """The head's register work that ptxas moves below a predicated load region: instructions before the
    region's branch whose results neither the branch's test nor the region reads (a lane index or a store address
    used only after the join). They count with the join's independent work (SUNK_HEAD_WORK)."""
    if not target.has("SUNK_HEAD_WORK"):
        return None
    du = am.defuse
    branch = head.instrs[-1]
    needed = set(du.uses(branch))
    for ins in instrs:
        needed.update(du.uses(ins))
    written = set().union(*(du.defs(i) for i in instrs)) if instrs else set()
    read_after = _read_outside(am, head, instrs)
    work = 0
    for ins in reversed(head.instrs[:-1]):
        d = du.defs(ins)
        if not d or not set(d).isdisjoint(needed) or not set(d).isdisjoint(written) or ins.guard is not None \
                or ins.opcode not in _SINKABLE or not any(read_after(r) for r in d):
            needed.update(du.uses(ins))
            continue
        work += _sass_work(am, ins)
    return work


def _sass_work(am, ins: ori.Instr, test_operands: frozenset | None = None) -> int:
    """An independent instruction's work in SASS instructions for the sunk-work count: a special-register read
    one (its S2R), a multiply by an immediate of another one's result none (folded), a `mul.wide` whose readers
    are all 64-bit adds none (each add is an IMAD.WIDE), a compare of the region's branch operands again (nvcc's
    `if (i < n)` after `v = i < n ? x[i] : 0`) none (ptxas reuses the branch's predicate)."""
    if not _work(ins) or _folded_scaling(am.defuse, ins) or _wide_into_adds(am, ins) \
            or _folds_into_shared_address(am, ins):
        return 0
    if test_operands is not None and ins.opcode == "setp" and _compare_operands(ins) == test_operands:
        return 0
    if _branch_test_only(am, ins):
        return 0
    return 1


def _folds_into_shared_address(am, ins: ori.Instr, depth: int = 0) -> bool:
    """Address arithmetic ptxas folds into a shared access's addressing mode (`STS [R5.X4+0x200]`: the symbol's
    offset and the index scale are no instructions): an add of a shared symbol's address or of an immediate, or a
    shift or multiply by an immediate, whose every reader is the address of a shared load or store or another such
    instruction (g37_check_argmin's `val[t] = ...; idx[t] = i`, n31_stencil_iter's `cur[t + 1]`)."""
    if depth > 3 or ins.opcode not in ("add", "shl", "mul") or len(ins.operands) != 3 or ins.has(".wide") \
            or type(ins.operands[0]) is not A.Reg:
        return False
    du = am.defuse
    a, b = ins.operands[1:3]
    if ins.opcode == "add":
        if not (type(b) is A.Imm or any(type(o) is A.Reg and _symbol_address(du, o.name) for o in (a, b))):
            return False
    elif type(b) is not A.Imm:
        return False
    dest = ins.operands[0].name
    readers = _per_function(am, "register_reader_instrs", _scan_reader_instrs).get(dest, ())
    for x in readers:
        if x.opcode in ("ld", "st") and x.has(".shared"):
            addr = [o for o in x.operands if type(o) is A.Addr]
            data = [o for o in x.operands if type(o) is not A.Addr]
            if not any(dest in _operand_regs(o) for o in addr) or any(dest in _operand_regs(o) for o in data):
                return False
        elif not _folds_into_shared_address(am, x, depth + 1):
            return False
    return bool(readers)


def _branch_test_only(am, ins: ori.Instr, depth: int = 0) -> bool:
    """Work read only by branches, directly or through other such work: the test of the next if after the join
    and the lane index it alone reads (n31_stencil_iter's `if (threadIdx.x == 0)` after `cur[t + 1] = g < n ?
    u[g] : 0`; `lane = tid & 31; ... if (lane == 0)` after a reduction), which ptxas does not count as work
    that hides the region (tools/variations/indep_collective_load_if.py: the lane0 rows keep the pair on sm_90
    where the plain rows are predicated)."""
    if depth > 2 or ins.opcode in ("bra", "st", "atom", "red") or ins.opcode in LOADS or warp_op(ins):
        return False
    readers = _per_function(am, "register_reader_instrs", _scan_reader_instrs)
    rs = [x for r in am.defuse.defs(ins) for x in readers.get(r, ())]
    return bool(rs) and all(x.opcode == "bra" or _branch_test_only(am, x, depth + 1) for x in rs)


def _symbol_address(du, reg: str) -> bool:
    ds = du.definitions(reg)
    return len(ds) == 1 and ds[0].opcode == "mov" and len(ds[0].operands) == 2 and type(ds[0].operands[1]) is A.Sym


def _compare_operands(ins: ori.Instr) -> frozenset | None:
    if ins.opcode != "setp" or len(ins.operands) < 3:
        return None
    return frozenset(repr(o) for o in ins.operands[1:3])


def _test_operands(am, head: ori.BasicBlock) -> frozenset | None:
    """The operands of the compare the head's branch tests (None: no compare)."""
    branch = head.instrs[-1]
    if branch.guard is None:
        return None
    ds = am.defuse.definitions(guard_register(branch.guard))
    return _compare_operands(ds[0]) if len(ds) == 1 else None


def _wide_into_adds(am, ins: ori.Instr) -> bool:
    if ins.opcode != "mul" or not ins.has(".wide"):
        return False
    readers = _per_function(am, "register_reader_instrs", _scan_reader_instrs)
    rs = [x for r in am.defuse.defs(ins) for x in readers.get(r, ())]
    return bool(rs) and all(x.opcode == "add" and x.has(".s64", ".u64") for x in rs)


def _scan_reader_instrs(am) -> dict:
    """register -> the instructions reading it (whole function)."""
    du = am.defuse
    out: dict[str, list] = {}
    for b in am.fn.blocks:
        for i in b.instrs:
            for r in du.uses(i):
                out.setdefault(r, []).append(i)
    return out


_SCALING = ("mul", "shl")


def _folded_scaling(du, ins: ori.Instr) -> bool:
    """A multiply (or shift) by an immediate of a register another multiply by an immediate wrote: ptxas folds
    the chain into one IMAD (`n*3*5*7` is one instruction; phases/ifconvert_ld_alu5_use)."""
    if ins.opcode not in _SCALING or len(ins.operands) != 3 or type(ins.operands[2]) is not A.Imm \
            or type(ins.operands[1]) is not A.Reg:
        return False
    ds = du.definitions(ins.operands[1].name)
    return len(ds) == 1 and ds[0].opcode in _SCALING and len(ds[0].operands) == 3 \
        and type(ds[0].operands[2]) is A.Imm


# register work ptxas sinks below a predicated region
_SINKABLE = frozenset({"add", "sub", "mul", "mad", "and", "or", "xor", "shl", "shr", "setp", "selp", "min", "max",
                       "cvt", "neg", "not"})


def _read_outside(am, head: ori.BasicBlock, instrs):
    """Is a register read by an instruction outside the head block and the region (the code after the join)?"""
    readers = _per_function(am, "register_reader_instrs", _scan_reader_instrs)
    inside = {id(i) for i in instrs} | {id(i) for i in head.instrs}
    return lambda r: any(id(x) not in inside for x in readers.get(r, ()))


def _join_runs_to_end(am, join: str, stop_at_warp_op: bool = False) -> bool:
    """Does the straight-line code from `join` (through fall-through blocks) reach the function's end before any
    CTA barrier, fence, conditional branch or loop (and, with stop_at_warp_op, any warp op)? There ptxas moves the
    join's independent code above the region's branch and ends the arm in its own EXIT (no pair, probe
    phases/ifconvert_nested_if2_tail), which the overlap scan stands in for."""
    by_label, seen, label = am.blocks, set(), join
    while label in by_label and label not in seen:
        seen.add(label)
        b = by_label[label]
        for ins in b.instrs:
            if ins.opcode in ("ret", "exit"):
                return True
            if is_cta_barrier(ins) or ins.opcode in _FENCES or ins.opcode in ("bra", "brx", "call") \
                    and (ins.guard is not None or ins.opcode != "bra") \
                    or stop_at_warp_op and warp_op(ins) is not None:
                return False
        if len(b.succs) != 1 or am.loops.ends_in_back_edge(b):
            return False
        label = b.succs[0]
    return False


_COPIES = ("mov", "cvta")


def _computed_across_barrier(am, region: Region, instrs) -> bool:
    """A load triangle holding no store or atomic, that computes a value from its long load (any op but a copy:
    add, mul, cvt, the sum of two loads or of a vector load's parts) and leaves it live at its join, whose
    straight-line code reaches a CTA barrier before anything reads that value: ptxas predicates it below sm_90
    (PREDICATE_LOAD_COMPUTED_ACROSS_BARRIER), while a raw loaded value carried across the barrier, or a region
    that also stores, keeps its branch; sm_90+ keeps all (probes phases/ifconvert_ldbar_computed_*;
    docs/findings/convergence.md "A load if computing a value carried across a barrier (helper ifld29, stop 29)")."""
    du = am.defuse
    if any(i.opcode in _WRITES for i in instrs):
        return False
    loaded: set[str] = set()
    computed: set[str] = set()
    for ins in instrs:
        if is_long_load(ins):
            loaded.update(du.defs(ins))
        elif not loaded.isdisjoint(du.uses(ins)):
            loaded.update(du.defs(ins))
            if ins.opcode not in _COPIES:
                computed.update(du.defs(ins))
            else:
                computed.update(d for d in du.defs(ins) if not computed.isdisjoint(du.uses(ins)))
    live = am.liveness
    carried = {r for r in computed if live.index.get(r) is not None and live.live_in[region.join][live.index[r]]}
    if not carried:
        return False
    for _b, ins in _fall_through(am, region.join, 0):
        if is_cta_barrier(ins):
            return ".arrive" not in ins.mods and carried.isdisjoint(du.uses(ins))
        if not carried.isdisjoint(du.uses(ins)) or ins.opcode in ("bra", "ret", "exit", "call", "brx") \
                or ins.opcode in _FENCES or warp_op(ins) is not None:
            return False
    return False


def _loop_sync_after_join(am, region: Region, head: ori.BasicBlock, tainted: set[str]) -> bool:
    """A load triangle in a loop: does the straight-line code from its join reach a CTA barrier (any bar/barrier
    .sync/.red/.arrive) of the same loop before any warp collective, fence, memory write of
    the region's value, atomic or branch, while every register the region leaves live at its join was also set
    before its branch in the branch's block (the join merges that value, `x = 0; if (c) x = ld`, `p = false;
    if (c) p = ld == k`)? ptxas predicates such a region on every target (a loop holding a barrier is not
    unrolled: `for (..) { p = i < n && in[i] == key; c += __syncthreads_count(p); }`), where the same region in
    straight code, or in a loop without the barrier, stays a branch (probes phases/ifconvert_loop_ld_bar_*;
    docs/findings/convergence.md "A load if in a loop whose join reaches a barrier is predicated (helper
    llvm28, stop 28)"). A value carried around the loop instead (no reset before the branch) is predicated only
    below sm_90, not modelled."""
    body = am.loops.innermost_body(head.label)
    if not body:
        return False
    du = am.defuse
    lv = am.liveness
    live, index = lv.live_in.get(region.join), lv.index
    if live is None:
        return False
    out = {r for r in tainted if r in index and live[index[r]]}
    branch = head.instrs[-1] if head.instrs else None
    before = set()
    for ins in head.instrs[:-1]:
        before.update(du.defs(ins))
    if branch is None or not out or not out <= before:
        return False
    tainted = set(tainted)
    for b, ins in _fall_through(am, region.join, 0):
        if b.label not in body:
            return False
        dep = not tainted.isdisjoint(du.uses(ins))
        if is_cta_barrier(ins):
            return True
        if ins.opcode in ("bra", "ret", "exit", "call", "brx") or ins.opcode in _FENCES \
                or warp_op(ins) is not None or ins.opcode == "atom" or dep and ins.opcode in _WRITES:
            return False
        if dep:
            tainted.update(du.defs(ins))
    return False


def _loop_same_test_after_join(am, region: Region, head: ori.BasicBlock, instrs) -> bool:
    """A load triangle in a loop whose join's straight-line code (shuffles, arithmetic) in the same loop body
    reaches a second if on the same test, before any other branch or barrier: ptxas predicates the load on
    every target (`for (..) { v = 0; if (i < n) v = x[i]; scan(v) (shuffles); if (i < n) y[i] = s; }`, nvcc
    w27_tile_scan, w27_online_softmax_lse), unless the second if stores through the load's own address
    register (`st [a]`, `st [a+4]` after `ld [a]`: kept). The same test is the same predicate register or one
    set by the same compare of unchanged operands. Without the second if, or in straight code, the pair stays
    (probes phases/ifconvert_loop_ld_same_test_*; docs/findings/convergence.md "A loop's load if followed by a
    second if on its test is predicated (helper shfl29, stop 29)")."""
    body = am.loops.innermost_body(head.label)
    branch = head.instrs[-1] if head.instrs else None
    if not body or branch is None or branch.opcode != "bra" or branch.guard is None:
        return False
    du = am.defuse
    test = guard_register(branch.guard)
    compare = next((ins for ins in reversed(head.instrs[:-1]) if test in du.defs(ins)), None)
    changed: set[str] = set()                      # registers written since the branch
    for b, ins in _fall_through(am, region.join, 0):
        if b.label not in body:
            return False
        if ins.opcode == "bra":
            if ins.guard is None or branch_target(ins) not in body:
                return False
            return _same_test(du, test, compare, guard_register(ins.guard), b, ins, changed) \
                and not _stores_through(am, b.label, _address_bases(i for i in instrs if i.opcode in LOADS))
        if ins.opcode in ("ret", "exit", "call", "brx") or is_cta_barrier(ins):
            return False
        changed.update(du.defs(ins))
    return False


def _same_test(du, test: str, compare, other: str, block, branch, changed: set[str]) -> bool:
    """Is predicate `other` (tested by `branch` in `block`) the value `test` had at the first branch: the same
    register unchanged, or set in `block` by the same compare of operands unchanged since?"""
    if other == test:
        return test not in changed
    if compare is None or compare.opcode != "setp":
        return False
    mine = next((ins for ins in reversed(block.instrs[:block.instrs.index(branch)]) if other in du.defs(ins)), None)
    if mine is None or mine.opcode != "setp" or mine.mods != compare.mods:
        return False
    if mine.operands[1:] != compare.operands[1:] or len(mine.operands) != len(compare.operands):
        return False
    return changed.isdisjoint(du.uses(compare))


def _stores_through(am, label: str, bases: set[str]) -> bool:
    """Does the if whose branch ends block `label` store through one of `bases` (an address register)?"""
    for r in am.region_heads.get(label, ()):
        if r.kind == "if" and any(i.opcode == "st" and _address_bases([i]) & bases
                                  for i in _region_instrs(am, r.body)):
            return True
    return False


def _kept_for_global_stores(instrs, target) -> bool:
    """A straight if holding a store to global (or generic) memory stays a branch once its SASS (the stores
    and the work feeding them) reaches STORE_REGION_KEPT_MIN, or STORE_REGION_KEPT_MIN_SHORT where the target
    has SHORT_STORE_REGION_KEPT; without such a store only KEPT_REGION_MIN_SIZE applies (shared stores do not
    count as such: phases/ifconvert_stg_*; docs/findings/convergence.md "An if holding a global store keeps
    its pair from nine SASS instructions, eight from sm_90 (helper w2store, stop 26)")."""
    if not any(i.opcode == "st" and not _shared(i) for i in instrs):
        return False
    if any(i.opcode == "bra" for i in instrs):
        return False                      # inner ifs: decided by the nested-region rules
    limit = STORE_REGION_KEPT_MIN_SHORT if target.has("SHORT_STORE_REGION_KEPT") else STORE_REGION_KEPT_MIN
    return _sass_size(_without_address_work(instrs), target) >= limit


def _without_address_work(instrs) -> list:
    """The region's instructions less those that only form the addresses of its stores: ptxas shares such
    work with the same arithmetic after the join (nvcc/ptx_fences_elect fence_scopes_publish: the elected
    `flags[i / 32] = 1` recomputes `i / 32` after its join and stays predicated); the measured limits count
    stores and the work feeding their values (phases/ifconvert_stg*_mad*)."""
    address: set[str] = set()
    other: set[str] = set()
    for ins in instrs:
        if ins.opcode == "st":
            for o in ins.operands:
                (address if type(o) is A.Addr else other).update(_operand_regs(o))
    kept = []
    for ins in reversed(instrs):
        dests = [o.name for o in ins.operands[:1] if type(o) is A.Reg] if ins.opcode != "st" else []
        srcs = {r for o in ins.operands[1:] for r in _operand_regs(o)} if ins.opcode != "st" else set()
        if dests and all(d in address and d not in other for d in dests):
            address.update(srcs)
            continue
        other.update(srcs)
        kept.append(ins)
    return kept[::-1]


def _computes_on_load(instrs, du) -> bool:
    """Does register-only work of the region read a value a long load of the region wrote (the sum of a loaded
    vector), rather than the region being the load alone?"""
    loaded = {r for i in instrs if is_long_load(i) for r in du.defs(i)}
    return any(register_only(i) and not loaded.isdisjoint(du.uses(i)) for i in instrs)


# tensormap.replace fields ptxas read-modify-writes in a 32-bit word of the map (one LDS and one STS per word),
# by word, and the instructions each field adds there (a LOP3, and a MOV of its mask but for element_stride)
_REPLACE_WORD_FIELDS = {".rank": ("mode", 2), ".elemtype": ("mode", 2), ".swizzle_mode": ("mode", 2),
                        ".interleave_layout": ("mode", 2), ".swizzle_atomicity": ("mode", 2),
                        ".fill_mode": ("mode", 2), ".box_dim": ("box_dim", 2), ".element_stride": ("stride", 1)}
# the fields stored without reading their word, and their instructions: global_address one STS.64, global_dim
# an STS per dimension (plus an IADD3 per value, counted apart), global_stride LDS, two shifts, LOP3, two STS
_REPLACE_OWN_STORES = {".global_address": 1, ".global_dim": 1, ".global_stride": 6}


def _replace_sass_size(instrs, du) -> int:
    """The SASS instructions ptxas makes of a region's tensormap.replace ops: global_address one STS.64,
    global_dim an IADD3 (the value less one) per value and an STS per dimension, global_stride six (LDS, two
    shifts, LOP3, two STS), the other fields a read-modify-write of their word (LDS + STS per word, box_dim a
    word per dimension, rank/elemtype/swizzle sharing one, element_stride another) plus their LOP3 and mask MOV;
    and an LDC (LDC.64) per field kind reading a kernel parameter's value (docs/findings/convergence.md
    "Triton convergence regions: the placements that remain (helper tconv, stop 23)")."""
    n = 0
    words: set = set()
    dim_values: set = set()
    param_reads: set = set()
    for ins in instrs:
        if ins.opcode != "tensormap" or not ins.has(".replace"):
            continue
        field = next((m for m in ins.mods if m in _REPLACE_WORD_FIELDS or m in _REPLACE_OWN_STORES), None)
        value = ins.operands[-1]
        if type(value) is A.Reg:
            d = du.definitions(value.name)
            if len(d) == 1 and d[0].opcode == "ld" and d[0].has(".param"):
                param_reads.add((field, value.name))
        if field in _REPLACE_OWN_STORES:
            n += _REPLACE_OWN_STORES[field]
            if field == ".global_dim":
                dim_values.add(str(value))
        elif field in _REPLACE_WORD_FIELDS:
            word, cost = _REPLACE_WORD_FIELDS[field]
            key = (word, str(ins.operands[1])) if word == "box_dim" and len(ins.operands) > 2 else (word,)
            if key not in words:
                words.add(key)
                n += 2
            n += cost
    return n + len(dim_values) + len(param_reads)


def _replaces_kept(instrs, du) -> bool:
    """An if of tensormap.replace ops stays a branch with its pair from nine SASS instructions of them on
    (BARRIER_JOIN_KEPT_MIN, the bound of an if joining at a CTA barrier; here wherever it joins): probes
    async/tensormap_replace_if_* (Triton's device-side TMA descriptor updates)."""
    return _replace_sass_size(instrs, du) >= BARRIER_JOIN_KEPT_MIN


_SHARED_ACCESS = frozenset({"ld", "st", "atom", "red", "ldmatrix", "stmatrix"})


def _window_operand(ins: ori.Instr, shared: frozenset) -> bool:
    """Does the instruction name a shared variable (`mov r, buf`, `st.shared [buf+4]`)?"""
    return _address_symbol(ins) in shared or any(type(o) is A.Sym and o.name in shared for o in ins.operands)


def _forms_window_alone(am, region: Region) -> bool:
    """A load region that names a shared variable where shared memory is a window of the cluster's
    (SHARED_WINDOW_ADDRESS: the address needs S2UR SR_CgaCtaId and a ULEA) stays a branch when no code
    that every path runs names one too: the window base is then formed inside the region, and ptxas keeps
    it a branch whatever else would predicate it; named in code every path runs (the entry's chain of
    post-dominators: before the branch, after the join), the base is formed once for all and the region is
    decided as before. Another conditional use (an exit arm's) does not count
    (phases/ifconvert_staged_window_*: `if (i < n) buf[tid] = in[i]; __syncthreads();` with `buf` named only
    there)."""
    shared = am.fn.shared_symbols
    if not shared:
        return False
    if not any(_window_operand(i, shared) for i in _region_instrs(am, region.body)):
        return False
    # a region whose only shared access is a cp.async's destination is decided as before (guarded tile copies:
    # docs/findings/async.md "A cp.async's shared destination forms no window of its own (helper nvlock34,
    # stop 34)")
    if not any(i.opcode in _SHARED_ACCESS and i.op != ASYNC and _shared(i) for i in _region_instrs(am, region.body)):
        return False
    by_label, ipdom = am.blocks, am.ipdom
    label, always = am.fn.blocks[0].label, []
    while label in by_label and label not in always:
        always.append(label)
        label = ipdom.get(label)
    return not any(_window_operand(i, shared) for x in always for i in by_label[x].instrs
                   if i.opcode not in ori.PSEUDO_OPCODES)


def _joins_at_barrier(am, region: Region, instrs) -> bool:
    """The join of an if of short work waits for it at a CTA barrier: the region joins at one (an aligned
    `bar.sync` or a non-aligned `barrier.sync`: phases/ifconvert_barrier_sync_join_*,
    mbarrier/init_if_eight_barrier_sync), or the join's straight-line code does work ptxas cannot hoist above
    the branch (_join_does_work). A region holding a CTA barrier counts only when it joins at one (an if/else
    whose arms hold `bar.arrive 1` / `bar.sync 1`, joining at `barrier.sync 0`, is predicated:
    llvm/named_barriers_red on sm_120; ptxas predicates it at `bar.sync 0` too, which this does not model)."""
    if any(is_cta_barrier(i) for i in instrs):
        return region.barrier_join
    return region.barrier_join or joins_at_any_cta_barrier(region.join, am.blocks) or _join_does_work(am, region)


def _join_does_work(am, region: Region) -> bool:
    """Does the straight-line code from a one-armed if's join on (through fall-through blocks, and into the arm
    of a next if: its fall-through side) hold work ptxas cannot hoist above the region's branch, a shared memory
    access or a sync instruction? Then the if keeps its pair from BARRIER_JOIN_KEPT_MIN SASS instructions as at
    a barrier join. A join of register work and global stores that ends the kernel is not one: ptxas issues those
    before the branch and the region's arm ends in its own EXIT (no pair); nor a loop's latch."""
    by_label, seen = am.blocks, set()
    head = by_label.get(region.head)
    if head is None or region.join not in head.succs:
        return False                                # if/else regions: not measured
    label = region.join
    while label in by_label and label not in seen:
        seen.add(label)
        b = by_label[label]
        for ins in b.instrs:
            if ins.opcode in ("bssy", "bsync", "bmov"):
                continue                # (phase 72 asks again once it has paired regions)
            if ins.opcode in ("ret", "exit", "brx", "call", "trap") or ins.opcode in ori.PSEUDO_OPCODES \
                    or warp_op(ins) is not None:
                return False            # (a join at a warp sync, numba/syncwarp_partial: predicated on sm_90+)
            if _shared(ins) or is_cta_barrier(ins) or ins.opcode in ("membar", "fence"):
                return True
        last = b.instrs[-1] if b.instrs else None
        if last is not None and last.opcode == "bra" and last.guard is not None:
            if am.loops.ends_in_back_edge(b):
                return False
            target = branch_target(last)
            ahead = [x for x in b.succs if x != target]
            if len(ahead) != 1:
                return False
            label = ahead[0]
            continue
        if len(b.succs) != 1:
            return False
        label = b.succs[0]
    return False


def _result_read_after_join(am, region: Region, instrs) -> bool:
    """The join reads a value an if of shared loads computes (`if (tid == 0) { v += s[1] + ... + s[7]; }
    out = v`: nvcc/cub_reduce_scan_variants; probes phases/ifconvert_live_result_*), wherever it joins; regions
    whose work only ends in stores are decided by the other conditions."""
    if not any(i.opcode == "ld" and i.has(".shared") for i in instrs) \
            or any(is_cta_barrier(i) or i.opcode == "bra" for i in instrs):
        return False
    live = am.liveness
    return region.join in am.blocks and any(live.index.get(r) is not None and live.live_in[region.join][live.index[r]]
                                            for r in _written(instrs, am.defuse))


def _triangle_waited_for(am, region: Region, instrs) -> bool:
    """A one-armed if (no inner branch or CTA barrier) whose join's code waits for it (_join_waits_for)."""
    head = am.blocks.get(region.head)
    if head is None or region.join not in head.succs:
        return False                                # if/else regions: not measured
    if any(is_cta_barrier(i) or i.opcode == "bra" for i in instrs):
        return False
    return _join_waits_for(am, region, instrs)


# when the code after an if's join waits for the if's lanes, so that its size decides (any one suffices)
_SIZE_DECIDES_WHEN = (_joins_at_barrier, _result_read_after_join, _triangle_waited_for)


def _kept_for_size(am, region: Region, c: _Contents, target) -> bool:
    """ptxas's size limit of if-conversion: an if of short work (no long load: those follow the load rules; no
    warp op: it re-converges inside) stays a branch with its pair from BARRIER_JOIN_KEPT_MIN (9) SASS
    instructions on (_region_size: whatever their kinds, one count, no latency weights, every target) when the
    code after its join waits for it (_SIZE_DECIDES_WHEN: it joins at a CTA barrier or does work there ptxas
    cannot hoist, it reads a value the region computes from shared loads, or a one-armed if's join waits for
    its registers or stores), unless a long load follows in the join's straight-line code: then ptxas
    predicates it so the load overlaps (phases/ifconvert_bar_join_after_ldg, nvcc/cluster_dims_row_softmax).
    One rule for what were three (docs/findings/convergence.md "If-conversion is a count of nine SASS
    instructions, not a latency estimate (helper ifc28, stop 28)", "The size of an if region per instruction
    kind (helper size30, stop 30)")."""
    if region.kind != "if" or c.loads:
        return False
    instrs = list(_region_instrs(am, region.body))
    if any(warp_op(i) is not None for i in instrs):
        return False
    if not any(waits(am, region, instrs) for waits in _SIZE_DECIDES_WHEN):
        return False
    return _region_size(am, region, instrs, target) >= BARRIER_JOIN_KEPT_MIN and not _long_load_after(am, region.join)


def _region_size(am, region: Region, instrs, target) -> int:
    """The SASS instructions ptxas counts in an if region: _sass_size of its work less the integer work it
    folds to 0 (_known_zero), special-register reads whose value is read after the join, the shared window's
    base (S2UR SR_CgaCtaId; MOV; LEA) on SHARED_WINDOW_ADDRESS targets when the region names the shared
    variable first (_forms_window_alone), and on ARM_PARAM_LDC targets one LDC per kernel parameter the region
    reads that the branch's block did not compute with (_region_param_loads)."""
    head = am.blocks[region.head]
    live = am.liveness
    live_out = frozenset(r for r in _written(instrs, am.defuse)
                         if live.index.get(r) is not None and live.live_in[region.join][live.index[r]])
    repeated = _repeated_before_branch(am, head, instrs)
    counted = [i for i in instrs if not _folds_to_zero(i, _known_zero(am, region, head, instrs))
               and id(i) not in repeated]
    size = _sass_size(counted, target, live_out, _wide_products(am, instrs))
    if target.has("SHARED_WINDOW_ADDRESS") and _forms_window_alone(am, region):
        size += SHARED_WINDOW_BASE_UNITS
    if target.has("ARM_PARAM_LDC"):
        size += _region_param_loads(am, head, counted)
    else:
        size += _prelude_param_moves(am, counted)
    return size


def _wide_products(am, instrs) -> frozenset:
    """Registers written once, by a widening multiply outside `instrs` (mul.wide)."""
    du = am.defuse
    inside = {id(i) for i in instrs}
    out = set()
    for b in am.fn.blocks:
        for ins in b.instrs:
            if ins.opcode == "mul" and ins.has(".wide") and id(ins) not in inside and ins.guard is None:
                out.update(r for r in du.defs(ins) if len(du.definitions(r)) == 1)
    return frozenset(out)


def _prelude_param_moves(am, instrs) -> int:
    """Below sm_90 (no ARM_PARAM_LDC): one move per MUFU prelude whose operand is a kernel parameter's value
    (sass_units.needs_operand_move: its FSETP / FMUL by immediates take no constant-bank operand)
    (docs/findings/convergence.md "A MUFU prelude of a kernel parameter's value takes a move below sm_90
    (helper size30b, stop 30)")."""
    preludes = [i for i in instrs if needs_operand_move(i)]
    if not preludes:
        return 0
    roots = _param_roots(am)
    du = am.defuse
    return sum(1 for i in preludes if any(r in roots for r in du.uses(i)))


# integer arithmetic ptxas computes once when the region repeats it (its value numbering: common subexpressions)
_CSE_OPCODES = ("add", "sub", "mul", "mad", "shl", "shr", "and", "or", "xor")
_COMMUTATIVE = ("add", "mul", "and", "or", "xor")
# copies ptxas makes nothing of (cvta.to.global is the identity: the generic window is global memory)
_VALUE_COPIES = ("mov",)


def _repeated_before_branch(am, head: ori.BasicBlock, instrs) -> set[int]:
    """The region's integer arithmetic that repeats a computation of the branch's block whose result is used
    (same opcode and modifiers, same source values up to copies, cvta.to.global and the order of a commutative
    op's sources; local value numbering over the block and the region in order): ptxas reuses the value and the
    region counts nothing for it (docs/findings/convergence.md "A region's repeat of a value computed before the
    branch counts nothing (helper size30b, stop 30)")."""
    du = am.defuse
    value: dict[str, object] = {}         # register -> its current value number
    fresh = iter(range(1 << 30))

    def val(r: str):
        return value.get(r, ("in", r))

    def copy_of(ins):
        if len(ins.operands) != 2 or type(ins.operands[1]) is not A.Reg or type(ins.operands[0]) is not A.Reg \
                or ins.guard is not None:
            return None
        if ins.opcode in _VALUE_COPIES or ins.opcode == "cvta" and ins.has(".to") and ins.has(".global"):
            return val(ins.operands[1].name)
        return None

    def key(ins):
        if ins.opcode not in _CSE_OPCODES or ins.guard is not None or len(ins.operands) < 3 \
                or type(ins.operands[0]) is not A.Reg or any(m.startswith(".f") for m in ins.mods):
            return None
        srcs = []
        for o in ins.operands[1:]:
            if type(o) is A.Reg:
                srcs.append(("r", val(o.name)))
            elif type(o) is A.Imm:
                srcs.append(("i", o.text))
            else:
                return None
        if ins.opcode in _COMMUTATIVE and len(srcs) == 2:
            srcs.sort(key=repr)
        return (ins.opcode, tuple(ins.mods), tuple(srcs))

    available: dict[tuple, tuple] = {}    # key -> (value number, the instruction computing it before the branch)
    region = {id(i) for i in instrs}
    used = None
    out: set[int] = set()
    for ins in list(head.instrs[:-1]) + list(instrs):
        c = copy_of(ins)
        if c is not None:
            value[ins.operands[0].name] = c
            continue
        k = key(ins)
        if k is not None and k in available and id(ins) in region:
            if used is None:
                used = {r for b in am.fn.blocks for i in b.instrs if id(i) not in region for r in du.uses(i)}
            num, first = available[k]
            if any(r in used for r in du.defs(first)):      # else dead before the branch: ptxas deleted it
                out.add(id(ins))
                value[ins.operands[0].name] = num
                continue
        for r in du.defs(ins):
            value[r] = next(fresh)
        if k is not None and id(ins) not in region:
            available.setdefault(k, (value[ins.operands[0].name], ins))
    return out


def _region_param_loads(am, head: ori.BasicBlock, instrs) -> int:
    """The kernel parameters an if region reads (through ld.param results and their copies) that the branch's
    block did not compute with: from sm_90 (ARM_PARAM_LDC) ptxas loads each inside the region (`LDC R0,
    c[0x0][0x224]`: no constant-bank operand in the slot, and a copy made before the branch is not kept live
    across it), one instruction each, as in an exit arm (exit_arm_cost)."""
    du = am.defuse
    roots = _param_roots(am)
    if not roots:
        return 0
    in_regs = {roots[r] for ins in head.instrs[:-1] if ins.opcode not in _ARM_FREE
               and not (ins.opcode == "ld" and ins.has(".param")) for r in du.uses(ins) if r in roots}
    read = {roots[r] for ins in instrs if ins.opcode not in _ARM_FREE and ins.opcode not in ori.PSEUDO_OPCODES
            for r in du.uses(ins) if r in roots}
    return len(read - in_regs)


# integer ops whose result is 0 when one source is 0 (ptxas folds them; not float: 0 * inf is NaN)
_ZERO_PRESERVING = ("mul", "shl", "shr", "and", "mov", "cvt")


def _zero_result(ins: ori.Instr, zero: set) -> bool:
    if ins.opcode not in _ZERO_PRESERVING or not ins.operands or type(ins.operands[0]) is not A.Reg \
            or any(ins.has(t) for t in (".f16", ".f32", ".f64", ".bf16")):
        return False
    srcs = ins.operands[1:]
    if ins.opcode in ("mov", "cvt") or ins.opcode in ("shl", "shr"):
        srcs = srcs[:1]
    return any(type(o) is A.Reg and o.name in zero or type(o) is A.Imm and o.text in ("0", "0x0") for o in srcs)


def _known_zero(am, region: Region, head: ori.BasicBlock, instrs) -> set:
    """Registers ptxas knows to be 0 inside the region: the tested register of a `x != 0` test the region runs
    only when false (`@p bra join` with `p = x != 0`), `mov r, 0` in the head, and integer products, shifts,
    masks and copies of such a value (phases/div_if_alu_20, ifconvert_live_result_mul14, ifconvert_merged_imad9:
    ptxas folds these regions to a constant and predicates what is left)."""
    zero: set = set()
    br = head.instrs[-1] if head.instrs else None
    if br is not None and br.opcode == "bra" and br.guard is not None and branch_target(br) == region.join:
        name = guard_register(br.guard)
        neg = type(br.guard) is A.Not
        test = next((i for i in reversed(head.instrs) if i.opcode == "setp" and i.operands
                     and type(i.operands[0]) is A.Reg and i.operands[0].name == name), None)
        if test is not None and len(test.operands) == 3 and (test.has(".ne") and not neg or test.has(".eq") and neg):
            a, b = test.operands[1], test.operands[2]
            for x, y in ((a, b), (b, a)):
                if type(x) is A.Reg and type(y) is A.Imm and y.text in ("0", "0x0"):
                    zero.add(x.name)
    implied = set(zero)                   # zero inside the region whatever their definition before the test
    for ins in list(head.instrs) + list(instrs):
        if not ins.operands or type(ins.operands[0]) is not A.Reg or ins.opcode in ("st", "setp", "bra"):
            continue
        dest = ins.operands[0].name
        if _zero_result(ins, zero):
            zero.add(dest)
        elif dest not in implied:
            zero.discard(dest)
    return zero


def _folds_to_zero(ins: ori.Instr, zero: set) -> bool:
    return ins.opcode != "st" and bool(ins.operands) and type(ins.operands[0]) is A.Reg \
        and ins.operands[0].name in zero


def _join_waits_for(am, region: Region, instrs) -> bool:
    """Does the code after an if's join need the if's lanes back: it reads a register the region writes, or it
    accesses the memory space the region writes (global/generic stores after global stores may alias), or it
    does work _join_does_work names (shared access, barrier, fence)? Otherwise ptxas moves the join's code above
    the branch and ends the arm in its own EXIT (no pair: the sts_12 rows of the table)."""
    live = am.liveness
    if any(live.index.get(r) is not None and live.live_in[region.join][live.index[r]]
           for r in _written(instrs, am.defuse)):
        return True
    if _join_does_work(am, region):
        return True
    if not any(_global_write(i) for i in instrs):
        return False
    by_label, seen, label = am.blocks, set(), region.join
    while label in by_label and label not in seen:
        seen.add(label)
        b = by_label[label]
        for ins in b.instrs:
            if ins.opcode in ("ld", "st", "atom", "red") and not _shared(ins) and not ins.has(".param", ".const"):
                return True
            if ins.opcode == "bra" and ins.guard is not None or ins.opcode in ("ret", "exit", "brx", "call"):
                return ins.opcode == "bra"
        if len(b.succs) != 1:
            return True
        label = b.succs[0]
    return False


def _long_load_after(am, join: str) -> bool:
    """A long load in the straight-line code from the join on, through barriers and fall-through blocks, up to
    the first conditional branch or the function's end."""
    by_label, seen = am.blocks, set()
    label = join
    while label in by_label and label not in seen:
        seen.add(label)
        b = by_label[label]
        for ins in b.instrs:
            if is_long_load(ins):
                return True
            if ins.opcode == "bra" and ins.guard is not None or ins.opcode in ("ret", "exit", "brx", "call"):
                return False
        if len(b.succs) != 1:
            return False
        label = b.succs[0]
    return False


# ---------------------------------------------------------------- regions holding an elected bulk/tensor load

# units of work beside the first elected copy from which ptxas keeps its region a branch (probes
# async/elected_copy_if_*; docs/findings/async.md "A region holding a bulk or tensor load (helper nvasync, stop 20)")
ELECTED_COPY_KEPT_UNITS = 2
ELECTED_COPY_KEPT_UNITS_WIDE = 3       # PREDICATE_ELECTED_COPY_WIDE (sm_100+)
INIT_KEPT_UNITS = 4                    # ... beside an mbarrier.init (SYNCS, every target; _init_units_beside)
ARRIVE_KEPT_UNITS = 3                  # ... beside an arrive on the CTA's own barrier (SYNCS)
REMOTE_ARRIVE_KEPT_UNITS = 2           # ... beside an arrive on another CTA's barrier (SYNCS)
_ELECTED_FREE = ("mov", "cvta")


def elected_copy(ins: ori.Instr) -> bool:
    """A global -> shared bulk or tensor load: the copies ISel issues in an ELECT loop (or, on the sm_120
    family, through the bulk-copy syscall)."""
    a = ins.attrs
    return ins.op == ASYNC and a.form in ("bulk", "tensor_load") and a.src == "global" and a.dst != "global"


def _anchored_region_kept(instrs, target, am=None) -> bool:
    """Does a region holding an elected bulk/tensor load, or an mbarrier.init or arrive on SYNCS, stay a
    branch? With a copy: on the sm_120 family always (the syscall is a CALL); elsewhere ptxas predicates it
    (VOTEU.ALL-guarded, the ELECT loop kept) while the rest of its work is small: one unit on sm_90, two from
    sm_100. With an init (and no copy): kept from two units on every SYNCS target (mbarrier/init_if_units_*);
    with an arrive (and neither): from three units, two when it is remote (mbarrier/arrive_if_units_*).
    See _units_beside."""
    copies = [i for i in instrs if elected_copy(i)]
    if copies:
        if target.has("BULK_COPY_SYSCALL"):
            return True
        wide = target.has("PREDICATE_ELECTED_COPY_WIDE")
        return _units_beside(instrs, copies[0]) >= (ELECTED_COPY_KEPT_UNITS_WIDE if wide else ELECTED_COPY_KEPT_UNITS)
    if not target.has("MBARRIER_SYNCS"):
        return False
    # (an init at a per-thread address is an STS.64 from sm_100: phase 42's `perthread`, a store like any other)
    sts = target.has("MBARRIER_PERTHREAD_STS")
    inits = [i for i in instrs if i.op == MBARRIER and i.attrs.op == "init" and not (sts and i.attrs.perthread)]
    if inits:
        units = _init_units_beside(instrs, inits[0])
        if am is not None:
            units += _init_variable_offset(am, instrs, inits[0])
        return units >= INIT_KEPT_UNITS
    arrives = [i for i in instrs if i.op == MBARRIER and i.attrs.op in ("arrive", "arrive_drop")]
    if arrives:
        limit = REMOTE_ARRIVE_KEPT_UNITS if _remote_arrive(arrives[0]) else ARRIVE_KEPT_UNITS
        return _units_beside(instrs, arrives[0]) >= limit
    return False


def _remote_arrive(ins: ori.Instr) -> bool:
    """An arrive on another CTA's barrier (phase 42's `remote`: a .shared::cluster address, or a generic one
    with a sink destination and .release.cluster)."""
    a = ins.attrs
    return a.space == "cluster" or a.space == "generic" and a.sink and a.sem == "release" and a.scope == "cluster"


def _units_beside(instrs, first) -> int:
    """The work of a region beside its first copy or init: every further instruction except copies of
    registers, symbols and special registers, address conversions, parameter reads and fences (phase 42's
    release fence of a cluster arrive; a fence.mbarrier_init is `@!P0 NOP`); a mov of an immediate counts (the
    value needs a register) unless the first op itself reads it (the init count); plus every distinct
    immediate a further mbarrier op or copy takes in a register (the tx count of an arrive.expect_tx, a bulk
    size the first one does not share)."""
    seen = {o.value for o in first.operands if type(o) is A.Imm}
    own = {o.name for o in first.operands if type(o) is A.Reg}
    units = 0
    for ins in instrs:
        if ins is first or not _size(ins):
            continue
        imm = ins.opcode == "mov" and type(ins.operands[-1]) is A.Imm
        if ins.opcode in _ELECTED_FREE and not imm or ins.opcode == "ld" and ins.has(".param") \
                or ins.opcode in _FENCES \
                or imm and getattr(ins.operands[0], "name", None) in own:      # folded into the first one
            continue
        units += 1
        if ins.op in (ASYNC, MBARRIER):
            for o in ins.operands:
                if type(o) is A.Imm and o.value not in seen:
                    seen.add(o.value)
                    units += 1
    return units


def _address_symbol(ins: ori.Instr) -> str | None:
    """The variable a memory or mbarrier operand `[sym]` / `[sym+off]` names, if any."""
    addr = next((o for o in ins.operands if type(o) is A.Addr), None)
    base = addr.base if addr is not None else None
    if type(base) is A.Sym or type(base) is A.Reg and not base.name.startswith("%"):
        return base.name
    return None


def _init_units_beside(instrs, init) -> int:
    """The SASS work of a region beside its first mbarrier.init (ptxas keeps the region a branch from
    INIT_KEPT_UNITS on; mbarrier/init_if_units_*, init_if_arrive_*): one unit per instruction (the free ones
    of _units_beside aside; a mov of an immediate the init does not read is counted with the immediates),
    one per distinct immediate value the region puts in a register (a mov of one, an arrive count or tx
    count: one MOV each however many ops take it), and two per shared variable other than the init's one
    a memory or mbarrier operand names (its address: UIADD3 + ULEA). Repeating an arrive on the same
    barrier costs only the arrive (docs/findings/mbarrier.md "The work beside an mbarrier.init under an if
    (helper llvmnb, stop 21)")."""
    own = {o.name for o in init.operands if type(o) is A.Reg}
    own_symbol = _address_symbol(init)
    values: set = set()
    symbols: set[str] = set()
    units = 0
    readers: dict[str, list] = {}         # register -> the region's instructions reading it
    for ins in instrs:
        for o in ins.operands[1:] if ins.opcode != "st" else ins.operands:
            for r in _operand_regs(o):
                readers.setdefault(r, []).append(ins)
    for ins in instrs:
        if ins is init or not _size(ins):
            continue
        dest = ins.operands[0] if ins.operands and type(ins.operands[0]) is A.Reg else None
        only = readers.get(dest.name, []) if dest is not None else []
        if ins.opcode == "shl" and type(ins.operands[-1]) is A.Imm and len(only) == 1 and only[0].opcode == "add":
            continue                      # ULEA / LEA: the shift is one instruction with its add (count_folded3)
        if ins.opcode == "mov" and type(ins.operands[-1]) is A.Imm:
            if getattr(ins.operands[0], "name", None) not in own:
                values.add(ins.operands[-1].value)
            continue
        if ins.opcode in _ELECTED_FREE or ins.opcode == "ld" and ins.has(".param") or ins.opcode in _FENCES:
            continue
        units += 1
        if ins.op in (ASYNC, MBARRIER):
            values.update(o.value for o in ins.operands if type(o) is A.Imm)
        symbol = _address_symbol(ins)
        if symbol is not None and symbol != own_symbol:
            symbols.add(symbol)
    return units + len(values) + 2 * len(symbols) + _special_reads(instrs)



def _symbols_named(fn) -> set[str]:
    out: set[str] = set()
    for ins in fn.instructions():
        for o in ins.operands:
            if type(o) is A.Sym:
                out.add(o.name)
            elif type(o) is A.Addr and type(o.base) is A.Sym:
                out.add(o.base.name)
    return out


def _init_variable_offset(am, instrs, init) -> int:
    """1 when the variable an mbarrier.init names is not at the start of the CTA's shared window: ptxas
    forms its address with a UIADD3 of the offset inside the region (`UMOV 0x400; UIADD3 +0x1000; ULEA`),
    one more instruction beside the init. Taken as: a .shared variable of the function's own, which the
    function names, is declared before it (ptxas drops the unnamed ones). The init's variable is read
    through `mov r, var` too (nvcc's form). Module-level variables are not placed (not measured). A region
    that names another shared variable already pays for an address (_init_units_beside's two units) and no
    more (mbarrier/init_if_st_sym, init_if_units_st1).
    docs/findings/mbarrier.md "An mbarrier.init's variable at a non-zero shared offset costs one more
    instruction (helper w3cost, stop 27)"."""
    addr = next((o for o in init.operands if type(o) is A.Addr), None)
    symbol = addr.base.name if addr is not None and type(addr.base) in (A.Sym, A.Reg) else None
    if symbol is not None and type(addr.base) is A.Reg and symbol.startswith("%"):
        defs = am.defuse.definitions(symbol)
        symbol = None
        if len(defs) == 1 and defs[0].opcode == "mov" and type(defs[0].operands[-1]) is A.Sym:
            symbol = defs[0].operands[-1].name
    if symbol is None or any(i is not init and _address_symbol(i) is not None for i in instrs):
        return 0
    own = [d.name for d in am.fn.decls if type(d) is A.VarDecl and d.space == ".shared"]
    if symbol not in own:
        return 0
    named = _symbols_named(am.fn)
    return int(any(name in named for name in own[:own.index(symbol)]))


def _branches_on_own_load(am, region: Region) -> bool:
    """An if whose body loads a value (from any space) and tests it in an inner if stays a branch with its
    pair, even when the inner if is predicated (nvcc/spin_locks_acquire volatile_lock_argmax's tree
    reduction `if (tid < s) { a = lds; b = lds; if (b > a) { sts ... } }; bar.sync`: phases/ifconvert_nested_lds_test*);
    an inner test of values from outside the body is folded into one predicate (ifconvert_nested_only_if).
    Not where ptxas copies the join's code into both paths and leaves the branch without a pair: a join whose
    straight-line code runs to the function's end with no CTA barrier, fence, warp op, conditional branch or loop on
    the way (ifconvert_nested_lds_test_tail); a join holding any of those keeps the pair: a barrier
    (ifconvert_nested_lds_test_bar), a later if or a fence (CUB BlockHistogram's sort algorithm: `if (tid != 0) {
    p = lds; if (p != b) sts }` and seven more ifs before the barrier; docs/findings/convergence.md "A load-tested
    nested if keeps its pair unless its join runs straight to the return (helper nvjoin34, stop 34)"), a loop latch,
    a uniform branch or a loop (a bitonic sort's compare-exchange in its `for (i = tid; i < n; i += ntid)` loop:
    "An if testing its own load keeps its pair unless its join runs to the end (helper nvnest34, stop 34)";
    tools/variations/nested_load_test_tail.py, tools/variations/own_load_join.py)."""
    if region.kind != "if" or not region.barrier_join and _join_runs_to_end(am, region.join, stop_at_warp_op=True):
        return False
    inner: set[str] = set()
    for x in region.body:
        for r in am.region_heads.get(x, ()):
            if r is not region:
                inner |= r.body
    return _tests_own_load(am, region, inner)


def _nested(am, region: Region) -> bool:
    """Does the region hold a conditional branch of its own, or lie inside another divergent region?"""
    by_label = am.blocks
    if any(i.opcode == "bra" and i.guard is not None for x in region.body for i in by_label[x].instrs):
        return True
    return any(r is not region for r in am.region_holders.get(region.head, ()))


def is_kept_guard(am, block: ori.BasicBlock, index: int, target) -> bool:
    """A guarded instruction ptxas lowers as a branch (guard_becomes_branch): does it stay one, as a
    one-instruction region (phases/guard_ld_global keeps it; Triton's masked loads next to each other are
    predicated)?"""
    ins = block.instrs[index]
    if ins.attrs.nopred or ins.opcode in _UNPREDICATED:
        return True
    tainted = set(am.defuse.defs(ins))
    staged = _guard_stages_to_shared(am, block)[index]
    return not _load_region_overlaps(am, block.label, index, block.label, index + 1, tainted, target,
                                     staged=staged)


def arrives_diverged_at_barrier(am, region: Region, target) -> bool:
    """A kept region without warp ops whose lanes ptxas lets reach a CTA barrier join diverged (the
    barrier's WARPSYNC re-converges them, no BSSY/BSYNC): a loop, or an if around a loop, spinning on memory
    other threads change (a CAS, atomic, volatile or acquire-load exit test: llvm/atomics_float_types
    float_minmax_shared, phases/spin_if_*_bar_join) on every target; below sm_90 also one whose loop only
    may spin (an atomic, a strong load: phases/loop_may_spin_*_bar_join). Any other loop keeps its pair
    (phases/if_around_loop_*_bar_join, divergent_loop_lds_bar_join)."""
    if region.kind != "loop" and not holds_cycle(am, region):
        return False
    if is_spin_loop(am, region):
        return True
    if not target.has("MAY_SPIN_LOOP_ARRIVES_DIVERGED"):
        return False
    by_label = am.blocks
    return any(by_label[l].instrs and may_spin(am, l) for l, h in am.loops.back_edges
               if l in region.body and h in region.body)


def spin_join_warp_op(am, region: Region, consts, target) -> ori.Instr | None:
    """The warp op that starts the join of a region whose lanes arrive there diverged
    (arrives_diverged_at_barrier: a spin loop, or an if around one), if any: it runs diverged on every target
    (`if (lane == 0) { while (atom.cas ...) ...; }; bar.warp.sync -1` keeps its WARPSYNC), and from sm_90 its
    WARPSYNC.ALL re-converges the warp instead of the region's pair (docs/findings/convergence.md 17.1)."""
    by_label = am.blocks
    if region.join not in by_label or not (arrives_diverged_at_barrier(am, region, target)
                                           or _entered_diverged(am, region, consts, target)):
        return None
    join = by_label[through_empty(region.join, by_label)]
    first = next((i for i in join.instrs if not before_join_barrier(i)), None)
    if first is None or is_cta_barrier(first) or warp_op(first, consts) is None:
        return None
    return first


def spin_join_warp_ops(am, region: Region, consts, target) -> list[ori.Instr]:
    """The warp ops of a spin region's join block that run diverged (spin_join_warp_op starts them): from sm_90
    (SPIN_JOIN_WARP_OP_RECONVERGES) every warp op of the block up to its first CTA barrier, which then take the
    forms of an unconverged block's runs (phase 72 `_run_forms`: a lone first op `WARPSYNC.ALL; op`, the ops
    after it plain; a run of two or more of one kind one `BRA.DIV` slow path, the region keeping its pair);
    below sm_90 the first only (its slow path, the ops after it plain). docs/findings/convergence.md "A run of
    collectives at a spin region's join keeps the pair (helper nvws32, stop 32)"."""
    first = spin_join_warp_op(am, region, consts, target)
    if first is None:
        return []
    if not target.has("SPIN_JOIN_WARP_OP_RECONVERGES"):
        return [first]
    out: list[ori.Instr] = []
    for i in am.blocks[through_empty(region.join, am.blocks)].instrs:
        if is_cta_barrier(i):
            break
        if i is first or out and warp_op(i, consts) is not None:
            out.append(i)
    return out


def _entered_diverged(am, region: Region, consts, target) -> bool:
    """Is `region` an if whose head is the join of a region the lanes leave diverged
    (arrives_diverged_at_barrier), with no CTA barrier or warp op in the head? The if's pair re-converges only
    to the state at its BSSY, so a warp op at its join still runs diverged: `while (ld.acquire != v); if (lane
    == 0) atom; bar.warp.sync -1` keeps the slow path below sm_90 and is `WARPSYNC.ALL` without the if's pair
    from sm_90 (docs/findings/convergence.md "A spin loop's divergence lasts through the if after it (helper
    nvatom, stop 22)"; probes phases/spin_then_if_warpsync*, nvcc/atomic_wait_notify)."""
    if region.kind != "if" or region.head not in am.blocks:
        return False
    by_label = am.blocks
    head = by_label[region.head]
    if any(is_cta_barrier(i) or warp_op(i, consts) is not None for i in head.instrs):
        return False
    return any(r is not region for r in _diverged_arrivals(am, target).get(region.head, ()))


def _diverged_arrivals(am, target) -> dict[str, list[Region]]:
    """Join block (past empty blocks) -> the regions whose lanes arrive there diverged (arrives_diverged_at_barrier);
    once per function until its code changes."""
    memo = am.memo("diverged_arrivals")
    out = memo.get(target.name)
    if out is None:
        by_label = am.blocks
        out = memo[target.name] = {}
        for r in am.regions:
            if r.join in by_label and arrives_diverged_at_barrier(am, r, target):
                out.setdefault(through_empty(r.join, by_label), []).append(r)
    return out


def _shared_join(am, region: Region) -> bool:
    """Does another path reach the region's join (an enclosing if's other arm ends there too)? Then the
    region is no triangle or diamond ptxas if-converts: it stays a branch (nvcc/cub_block_load_store: the
    partial tile's last load if joins where the full-tile arm does; without that arm it is predicated)."""
    join = am.blocks.get(region.join)
    return join is not None and any(p != region.head and p not in region.body and p in am.idom
                                    for p in join.preds)


def _in_divergent_if_to_join(am, region: Region) -> bool:
    """Is the region inside another divergent region that ends at the same join?"""
    return any(r is not region and region.body < r.body for r in am.all_regions_by_join.get(region.join, ()))


_PREDICATE_LOGIC = frozenset({"setp", "and", "or", "xor", "not"})


def _work_beside_inner_if(am, region: Region) -> bool:
    """An if holding an inner if and other work of its own (an instruction outside the inner if's arms other
    than the inner test's compare) stays a branch with its pair; the inner if is predicated. Nothing but the
    inner if folds both tests into one predicate (phases/ifconvert_nested_only_if). nvcc/cub_block_scan_
    prefix_callback: `if (warp == 0) { x = a + b; if (lane == 0) st.shared }` (phases/ifconvert_nested_work_*).
    Only for ifs without long loads (those are decided by the overlap rules). An if/else counts too (the
    backoff `if (i < 16) i++; else { timed nanosleeps }` of an mbarrier wait on a per-lane counter:
    nvcc/cuda_barrier_producer_consumer); nvcc/atomic_wait_notify's backoff, once limited by a triangle rule,
    tests %globaltimer, which is warp-uniform (docs/findings/convergence.md "Loops whose divergent arm sleeps
    or syncs the warp carry per-lane values (helper nvasync, stop 21)")."""
    if region.kind != "if":
        return False
    by_label, ipdom = am.blocks, am.ipdom
    inner: set[str] = set()
    tests: set[str] = set()
    for x in region.body:
        b = by_label[x]
        last = b.instrs[-1] if b.instrs else None
        if last is None or last.opcode != "bra" or last.guard is None or len(b.succs) != 2:
            continue
        join = ipdom.get(x)
        for s in b.succs:
            if s != join:
                inner |= arm(s, join, by_label) & region.body
        g = last.guard
        tests.add((g.inner if type(g) is A.Not else g).name)
    if not inner or _tests_own_load(am, region, inner):
        return False
    # the predicate logic that only forms an inner test is part of it: `if (b > a || (b == a && j < i))` is
    # `setp; setp; and.pred; @p bra` in the inner block, no work beside (docs/findings/convergence.md "A
    # compound test is no work beside the inner if (helper cub, stop 22)"; probes phases/ifconvert_nested_or_and*)
    outer = [ins for x in region.body - inner for ins in by_label[x].instrs]
    grown = True
    while grown:
        grown = False
        for ins in outer:
            if ins.opcode in _PREDICATE_LOGIC and set(am.defuse.defs(ins)) <= tests:
                new = set(am.defuse.uses(ins)) - tests
                if ins.opcode != "setp" and new:
                    tests |= new
                    grown = True
    for x in region.body - inner:
        for ins in by_label[x].instrs:
            if ins.opcode == "bra" or ins.opcode in _PREDICATE_LOGIC and set(am.defuse.defs(ins)) <= tests:
                continue
            if _size(ins):
                return True
    return False


def _tests_own_load(am, region: Region, inner: set[str]) -> bool:
    """Does an inner branch of the region test a value loaded in the region (outside the inner arms)? Then
    _branches_on_own_load decides (at a short tail ptxas copies the tail into both paths and leaves the branch
    without a pair: phases/ifconvert_nested_lds_test_tail)."""
    by_label, du, order = am.blocks, am.defuse, am.rpo_index
    tainted: set[str] = set()
    for label in sorted((x for x in region.body if x not in inner and x in order), key=order.get):
        for ins in by_label[label].instrs:
            uses = du.uses(ins)
            if ins.opcode == "bra" and ins.guard is not None and not tainted.isdisjoint(uses):
                return True
            if ins.opcode == "ld" or not tainted.isdisjoint(uses):
                tainted.update(du.defs(ins))
    return False


def _join_placed_elsewhere(am, region: Region) -> bool:
    """Is the block ptxas lays out right before the join outside the region? ptxas if-converts an if only
    when its code falls through into its join; when another path reaches the join first in its block order
    (reverse postorder, branch target first: the join follows the other arm of an enclosing uniform if/else),
    the region's last block ends with a jump to the join and the region stays a branch with its pair, whatever
    it holds, one ALU instruction or a shared load (nvcc/cub_block_discontinuity segment_heads_and_tails;
    phases/ifconvert_join_after_other_arm_*). When the region's code is placed right before the join (the
    other path skips to it: phases/ifconvert_join_skip_*) it is decided like any other. Only a triangle: an
    if/else whose arms both jump to the join is still predicated into one block ending in that jump
    (nvcc/cub_block_shuffle_adjacent block_adjacent_difference)."""
    if region.kind != "if" or region.join not in am.blocks[region.head].succs:
        return False
    at = am.rpo_index.get(region.join)
    if not at:
        return False
    prev = am.rpo[at - 1]
    return prev != region.head and prev not in region.body


def _holds_uniform_branch(am, region: Region) -> bool:
    """Does the region's body hold a conditional branch on a warp-uniform test (no divergent region of its own:
    a cluster rank, a pointer mapped from it)? ptxas cannot predicate over it: the region stays a branch with
    its pair (nvcc/cg_cluster_halo_exchange cluster_halo_stencil: `if (tid == 0) { nbr = rank > 0 ?
    map_shared_rank(..) : 0; left = nbr ? nbr[..] : (i > 0 ? in[i - 1] : 0) } else left = tile[tid - 1]`;
    probes phases/ifelse_arm_uniform_branch*; docs/findings/convergence.md "A region holding a uniform branch
    keeps its pair (helper nvcg25, stop 25)")."""
    uni = am.uniformity
    for x in region.body:
        b = am.blocks[x]
        last = b.instrs[-1] if b.instrs else None
        if last is not None and last.opcode == "bra" and last.guard is not None and uni.is_uniform(last.guard) \
                and not am.loops.ends_in_back_edge(b):
            return True
    return False


def _load_in_each_arm(region: Region, by_label) -> bool:
    """An if/else with a load on each side is predicated, like two load ifs in a row
    (phases/div_ifelse_ld_global, async/cp_async_if_diamond, nvcc/pipeline_primitives_cp_async)."""
    succs = by_label[region.head].succs
    if region.kind != "if" or len(succs) != 2 or region.join in succs:
        return False
    return all(_contents(i for x in arm(s, region.join, by_label) for i in by_label[x].instrs).loads
               for s in succs)


def is_branch_region(am, region: Region, target) -> bool:
    """Does the region stay a branch at all (so the warp reaches its join diverged)? A kept region, or
    one holding a warp-synchronous op or a nested branch; a small one of plain stores/ALU work is
    predicated (nvcc/block_scan: `if (lane == 0) smem[w] = v; __syncthreads();`)."""
    if is_kept_region(am, region, target):
        return True
    by_label = am.blocks
    if any(warp_op(i) is not None for label in region.body for i in by_label[label].instrs):
        return True
    return any(i.opcode == "bra" and i.guard is not None for label in region.body
               for i in by_label[label].instrs) and not _folds_into_one_predicate(am, region)


def _folds_into_one_predicate(am, region: Region) -> bool:
    """`if (a) { if (b) S }` with nothing else in the outer if and no long load: ptxas folds both tests into
    one predicate, no branch is left (phases/ifconvert_nested_only_if, ifconvert_nested_only_if_tail)."""
    return region.kind == "if" and region.join in am.blocks[region.head].succs \
        and not _contents(_region_instrs(am, region.body)).loads and not _work_beside_inner_if(am, region)


# guarded stores: a run of this many stores under the same guard (register and sense) can stay a branch
# (docs/findings/convergence.md 8)
GUARDED_STORE_RUN_MIN = 2
# ... and a run of this many always does
GUARDED_STORE_RUN_KEPT = 3
_RUN_TRANSPARENT = ("add", "sub", "mov", "shl", "cvt", "mul", "mad", "and", "or", "xor")
# The shape of a long run (findings/convergence.md 23, probes phases/guard_sts_run*): the stores the branch
# structure covers (all of them when a guarded load or store follows the run or the function's end took the
# last one, else all but the last, which stays predicated after it) are two pairs from this many on ...
GUARDED_STORE_RUN_TWO_PAIRS = 4
# ... and from this many on a pair over the first two and a nest over the rest: BSSY B0; BSSY B1; ...;
# @P BREAK B1; STS; BSYNC B1; STS; BSYNC B0 (+ WARPSYNC where the target has STORE_NEST_WARPSYNC)
GUARDED_STORE_RUN_NEST = 5


@record(frozen=True)
class StoreRun:
    """A run of guarded stores phase 72 keeps as a branch: its stores (indices in the block; the last one is the
    run's end) and how many of them the branch structure covers (GUARDED_STORE_RUN_*)."""
    stores: tuple
    covered: int

    @property
    def last(self) -> int:
        return self.stores[-1]

    @property
    def shape(self) -> str:
        if self.covered >= GUARDED_STORE_RUN_NEST:
            return "nest"
        return "two pairs" if self.covered >= GUARDED_STORE_RUN_TWO_PAIRS else "pair"


def _guarded_mem(ins: ori.Instr) -> bool:
    """A guarded memory access after a run that keeps it a branch: a load, a store, an atomic or a reduction."""
    return ins.guard is not None and (ins.opcode in ("st", "atom", "red") or ins.opcode in LOADS
                                      and not ins.has(".param"))


def _global_load(ins: ori.Instr) -> bool:
    return ins.opcode in LOADS and ins.has(".global")


def _straight_before(b, k: int, preds) -> list:
    """The straight-line code before b.instrs[k]: b's instructions before it and those of the blocks that only fall
    into b (PTX debug labels split pylower's blocks where ptxas has one)."""
    out = list(b.instrs[:k])
    cur = b
    while len(preds.get(cur.label, ())) == 1:
        p = preds[cur.label][0]
        if list(p.succs) != [cur.label] or any(i.opcode == "bra" for i in p.instrs):
            break
        out = list(p.instrs) + out
        cur = p
    return out


def _pins_store_run(ins: ori.Instr) -> bool:
    """Work after a run of guarded shared stores that ptxas cannot move above it: a shared-memory access or a CTA
    barrier. Two guarded shared stores with such work after them stay a branch (`BSSY; @P BRA; STS; STS; BSYNC;
    BAR`), where two that only unguarded global work or ALU work follows are predicated and sunk to the kernel's
    end (probes phases/guard_sts_run2_stg, guard_sts_run2_alu, guard_sts_run2_lds, guard_sts_run2_bar_lds;
    tools/variations/guarded_store_pair.py; docs/findings/convergence.md "Two guarded shared stores before
    shared-memory work stay a branch (helper tscan35, stop 35)"), when a global load comes before them in their
    straight-line code (without one, `@p st.shared x2; bar.sync; ld.shared; st.global` is predicated). Not for
    global stores: ptxas predicates a global pair before a shared load, or before a barrier and a shared load, and
    keeps one before a lone barrier."""
    return is_cta_barrier(ins) or ins.opcode in ("ld", "st", "atom", "red") and _shared(ins)


def _run_store(ins: ori.Instr) -> bool:
    """A guarded store to shared or global memory (global runs: docs/findings/convergence.md "A guarded atomic
    after a run; runs of global stores (helper tconv25, stop 25)")."""
    return ins.opcode == "st" and ins.guard is not None and (_shared(ins) or ins.has(".global"))


def _straight_after(b, j: int, by_label, npreds) -> tuple[list, bool]:
    """The straight-line code from b.instrs[j] on, through fall-through blocks (PTX debug labels split
    pylower's blocks where ptxas has one), and whether it ends the function."""
    rest = list(b.instrs[j:])
    cur = b
    while len(cur.succs) == 1 and npreds.get(next(iter(cur.succs)), 0) == 1 \
            and next(iter(cur.succs)) in by_label and not any(i.opcode == "bra" for i in cur.instrs):
        cur = by_label[next(iter(cur.succs))]
        rest.extend(cur.instrs)
    return rest, not cur.succs


def compare_guards(fn) -> set[str]:
    """Predicate registers only comparisons (setp) write: a guard made by predicate logic (and.pred, Triton's
    matmul store masks) keeps its stores predicated (phases/guard_sts_andpred_*), and gives each guarded
    red/atom under it a branch and pair of its own (phases/guard_red_andpred_*). A bit test ptxas makes one
    predicate-writing LOP3 (bit_test_guards) behaves as predicate logic does."""
    writers: dict[str, set[str]] = {}
    for b in fn.blocks:
        for i in b.instrs:
            for o in i.operands[:1]:
                if type(o) is A.Reg and o.name.startswith("%p"):
                    writers.setdefault(o.name, set()).add(i.opcode)
    return {r for r, ops_ in writers.items() if ops_ == {"setp"}} - bit_test_guards(fn)


# bitwise work whose result ptxas tests against zero inside one predicate-writing LOP3 (`LOP3.LUT P0, RZ, a, b, RZ, ..`)
_LOP3_TESTED = frozenset({"and", "or", "xor"})


def bit_test_guards(fn) -> set[str]:
    """Predicate registers only `setp.eq|ne x, 0` writes where x is an `and`/`or`/`xor` result (lane == 0 as
    `(tid & 31) == 0`, a bit test `(w & 1) != 0`): ptxas makes the test one predicate-writing LOP3 and treats the
    guard as predicate logic: a run of guarded stores under it is predicated however long, and each guarded red
    under it gets a pair of its own, where the same code under `lane == 31`, `lane < 16`, `tid == 0` or
    `(x & 1) == 1` keeps a pair (and nest) over the run (tools/variations/store_run_bit_test.py; docs/findings/
    convergence.md "A run of guarded stores under a bit test is predicated (helper tscan36, stop 36)")."""
    bitwise: dict[str, bool] = {}          # register: every write of it is an unguarded and/or/xor
    tested: dict[str, set] = {}            # predicate: the registers its writes test against 0 (None: another write)
    for b in fn.blocks:
        for i in b.instrs:
            if not i.operands or type(i.operands[0]) is not A.Reg:
                continue
            d = i.operands[0].name
            if d.startswith("%p"):
                src = None
                if i.opcode == "setp" and (i.has(".eq") or i.has(".ne")) and len(i.operands) == 3 \
                        and _zero_against_reg(i.operands[1], i.operands[2]):
                    src = (i.operands[1] if type(i.operands[1]) is A.Reg else i.operands[2]).name
                tested.setdefault(d, set()).add(src)
            else:
                bitwise[d] = bitwise.get(d, True) and i.opcode in _LOP3_TESTED and i.guard is None
    return {p for p, srcs in tested.items() if None not in srcs and all(bitwise.get(s, False) for s in srcs)}


def _zero_against_reg(a, b) -> bool:
    """One operand a register, the other the immediate 0."""
    def zero(o):
        return type(o) is A.Imm and o.value == 0
    return type(a) is A.Reg and zero(b) or type(b) is A.Reg and zero(a)


def _shared_address_regs(fn) -> frozenset:
    """Registers a `mov r, <shared variable>` writes: the variable's address."""
    shared = fn.shared_symbols
    return frozenset(i.operands[0].name for b in fn.blocks for i in b.instrs
                     if i.opcode == "mov" and len(i.operands) == 2 and type(i.operands[0]) is A.Reg
                     and type(i.operands[1]) is A.Sym and i.operands[1].name in shared) if shared else frozenset()


def _free_in_run(ins: ori.Instr, window_regs: frozenset, target) -> bool:
    """Between two stores of a run, an instruction that leaves no SASS of its own there: a copy (not a pack of
    16-bit halves: `mov.b32 r, {h, l}` is a PRMT), an add of an
    immediate (an address's offset, or a value ptxas computes before the run), and below SHARED_WINDOW_ADDRESS
    an add of a shared variable's address (a constant there) to a register. Any other work (a shift, a mask, an
    add of two registers) ends the run: ptxas shapes the stores before it and the stores after it as two runs,
    the first followed by a guarded store (docs/findings/convergence.md "Work between guarded stores splits
    the run (helper tconv25, stop 25)"; probes phases/guard_sts_split_*)."""
    if ins.opcode == "mov":
        return not any(type(o) is A.Vec for o in ins.operands[1:])      # a pack of halves is a PRMT
    if ins.opcode != "add":
        return False
    srcs = ins.operands[1:]
    if any(type(o) is A.Imm for o in srcs):
        return True
    return target is not None and not target.has("SHARED_WINDOW_ADDRESS") \
        and any(type(o) is A.Reg and o.name in window_regs for o in srcs)


def kept_store_runs(am, fn, uni, target=None) -> dict[int, StoreRun]:
    """Runs of guarded stores ptxas turns back into a branch (Triton's `@p st.shared` inline-asm blocks):
    {id of the run's first store: the run (StoreRun)}. ptxas predicates a lone guarded
    store, and two under one guard unless a guarded load or store follows them in the same straight-line
    code; three or more under one guard stay a branch; a guard made by predicate logic (and.pred) keeps them
    predicated (probes phases/guard_sts_*; an explicit `@!p bra` around the same stores is predicated)."""
    compared = compare_guards(fn)
    window_regs = _shared_address_regs(fn)
    by_label = {b.label: b for b in fn.blocks}
    preds: dict[str, list] = {}
    for b in fn.blocks:
        for t in b.succs:
            preds.setdefault(t, []).append(b)
    npreds = {t: len(ps) for t, ps in preds.items()}
    runs: dict[int, int] = {}
    for b in fn.blocks:
        instrs = b.instrs
        k = 0
        while k < len(instrs):
            ins = instrs[k]
            if not (_run_store(ins) and uni.is_divergent_operand(ins.guard) and guard_register(ins.guard) in compared):
                k += 1
                continue
            stores, j = [k], k + 1
            while j < len(instrs):
                x = instrs[j]
                if _run_store(x) and repr(x.guard) == repr(ins.guard):
                    stores.append(j)
                elif x.guard is not None or x.opcode not in _RUN_TRANSPARENT \
                        or not _free_in_run(x, window_regs, target):
                    # a store after work ptxas issues starts a run of its own; this one is followed by it
                    break
                j += 1
            rest, ends = _straight_after(b, j, by_label, npreds)
            popped = ends and all(x.opcode in ("ret", "exit") for x in instrs[stores[-1] + 1:j] + rest if _size(x))
            if popped:
                # at the function's end ptxas guards the last store by an early `@P EXIT` instead
                stores.pop()
            after = any(_guarded_mem(x) for x in rest)
            # a pair that shared-memory work or a CTA barrier after it keeps in place stays a branch too
            pinned = len(stores) == GUARDED_STORE_RUN_MIN and all(_shared(instrs[s]) for s in stores) \
                and any(_pins_store_run(x) for x in rest) \
                and any(_global_load(x) for x in _straight_before(b, k, preds))
            if len(stores) >= GUARDED_STORE_RUN_MIN and (after or popped or pinned
                                                         or len(stores) >= GUARDED_STORE_RUN_KEPT):
                runs[id(ins)] = StoreRun(tuple(stores), len(stores) if after or popped or pinned else len(stores) - 1)
            k = j
    return runs


# ---------------------------------------------------------------- exit arms

# The fall-through arm of a divergent branch that ends the kernel (`@p bra L; <arm>; ret; L: ...`): ptxas
# predicates it with its EXIT (`@!P st ... @!P EXIT`, no branch left) when its code is at most this many SASS
# instructions (the EXIT not counted): 6 stores and the parameter's LDC on sm_90, 7 stores on sm_80
# (docs/findings/convergence.md, "exit arms"; probes/barrier/exit_arm_*)
EXIT_ARM_PREDICATED_MAX = 7
# the SASS a shared variable's address takes where shared memory is a window of the cluster's (S2R
# SR_CgaCtaId; MOV; LEA: target feature SHARED_WINDOW_ADDRESS)
_SHARED_WINDOW_COST = 3
_ARM_FREE = ("mov", "cvta", "ret", "exit")


def _predicable_in_arm(am, ins: ori.Instr) -> bool:
    """Can the instruction be predicated in an exit arm? Not atomics or reductions, fences, warp ops,
    loads of global/local/generic memory, calls or an inner branch (exit_arm_{atom,red,membar,shfl,ldg})."""
    if ins.opcode in _UNPREDICATED or ins.attrs.nopred or ins.opcode in _FENCES or warp_op(ins) is not None:
        return False
    if is_long_load(ins) or ins.opcode in ("call", "brx", "trap"):
        return False
    return not (ins.opcode == "bra" and ins.guard is not None)


def _param_roots(am) -> dict[str, str]:
    """Registers holding a kernel parameter (an ld.param's, and copies of one by mov or cvta) -> its name."""
    return _per_function(am, "param_roots", _scan_param_roots)


def _scan_param_roots(am) -> dict[str, str]:
    du = am.defuse
    out: dict[str, str] = {}
    for b in am.fn.blocks:
        for ins in b.instrs:
            if ins.opcode == "ld" and ins.has(".param"):
                addr = next((o for o in ins.operands if type(o) is A.Addr), None)
                name = addr.base.name if addr is not None and type(addr.base) is A.Sym else ""
                out.update((r, name) for r in du.defs(ins))
            elif ins.opcode in ("mov", "cvta"):
                root = next((out[r] for r in du.uses(ins) if r in out), None)
                if root is not None:
                    out.update((r, root) for r in du.defs(ins))
    return out


def _shared_symbol(ins: ori.Instr) -> bool:
    """A shared-memory access at a variable's address (`ld.shared [sm+4]`)."""
    return _shared(ins) and any(type(o) is A.Addr and type(o.base) is A.Sym for o in ins.operands)


def _address_bases(instrs) -> set[str]:
    return {o.base.name for i in instrs for o in i.operands if type(o) is A.Addr and type(o.base) is A.Reg}


def exit_arm_cost(am, head: ori.BasicBlock, labels: list[str], target) -> int | None:
    """The SASS instructions ptxas's exit arm holds (its EXIT not counted), or None when it holds one ptxas
    does not predicate. Free: copies, conversions to global addresses, parameter reads, dead loads and ALU
    work, an add of a wide multiply (one IMAD.WIDE with it) and an add of an immediate to an address (the
    memory operand's offset). Each kernel parameter the arm reads and the branch's block did not costs an
    instruction in the arm: its LDC from sm_90 (ARM_PARAM_LDC); below sm_90 a MOV of it unless it is only a
    pointer the arm's memory operands use (ptxas moves that into registers before the branch). A shared
    variable's address costs its window base (SHARED_WINDOW_ADDRESS)."""
    du, by_label = am.defuse, am.blocks
    roots = _param_roots(am)
    k = len(head.instrs) - 1
    # from sm_90 a parameter the branch's block computed with is in a register (below, a constant-bank operand)
    in_regs = {roots[r] for ins in head.instrs[:k] if ins.opcode not in _ARM_FREE
               and not (ins.opcode == "ld" and ins.has(".param")) for r in du.uses(ins) if r in roots} \
        if target.has("ARM_PARAM_LDC") else set()
    instrs = [(by_label[x], i) for x in labels for i in by_label[x].instrs]
    bases = _address_bases(i for _, i in instrs)
    cost, wide, window = 0, set(), False
    read: dict[str, bool] = {}                   # parameter -> read other than as a memory operand's base
    for blk, ins in instrs:
        if ins.opcode == "warpsync":                # phase 72's, before a CTA barrier (below sm_90)
            cost += 1
            continue
        if ins.opcode in ori.PSEUDO_OPCODES or ins.opcode == "bra" and ins.guard is None:
            continue
        if not _predicable_in_arm(am, ins):
            return None
        uses = du.uses(ins)
        for r in uses:
            if r in roots and roots[r] not in in_regs:
                as_base = any(type(o) is A.Addr and o.base == A.Reg(r) for o in ins.operands) \
                    or ins.opcode in _ARM_FREE
                read[roots[r]] = read.get(roots[r], False) or not as_base
        if ins.opcode in _ARM_FREE or ins.opcode == "ld" and ins.has(".param"):
            continue
        defs = du.defs(ins)
        if defs and (ins.opcode in LOADS or register_only(ins)) and not _result_used(am, blk, ins):
            continue                                    # deleted before if-conversion
        window |= _shared_symbol(ins)
        if ins.opcode == "mul" and ins.has(".wide"):
            wide.update(defs)
        elif ins.opcode == "add" and not wide.isdisjoint(uses):
            continue                                    # IMAD.WIDE d, a, b, c
        elif ins.opcode == "add" and any(type(o) is A.Imm for o in ins.operands) and defs \
                and set(defs) <= bases:
            continue                                    # [base + imm]
        cost += 1
    cost += sum(1 for other in read.values() if target.has("ARM_PARAM_LDC") or other)
    if window and target.has("SHARED_WINDOW_ADDRESS"):
        cost += _SHARED_WINDOW_COST
    return cost


def predicated_exit_arms(am, target, optimized: bool = True) -> set[str]:
    """Labels of the blocks ending in a divergent branch whose fall-through arm ptxas predicates with its EXIT
    (regions.exit_arms: both sides end the kernel; only the fall-through arm counts, a small arm at the
    branch target keeps the branch: probes/barrier/exit_arm_small_target)."""
    if not optimized:
        return set()
    out = set()
    for head, arms in exit_arm_branches(am):
        ft = arms[0]
        if any(am.loops.ends_in_back_edge(am.blocks[x]) for x in ft):
            continue
        cost = exit_arm_cost(am, am.blocks[head], ft, target)
        if cost is not None and cost <= EXIT_ARM_PREDICATED_MAX:
            out.add(head)
    return out


def predicates_inner_branches(am, region: Region) -> bool:
    """A region ptxas predicates: are its inner branches predicated with it (`if (a) { if (b) S }` as one
    predicate, phases/ifconvert_nested_only_if*)? Not when an inner branch tests a value the region loads: ptxas
    copies the short tail into both paths and keeps that branch (phases/ifconvert_nested_lds_test_tail)."""
    by_label, ipdom = am.blocks, am.ipdom
    inner: set[str] = set()
    for x in region.body:
        b = by_label[x]
        if b.instrs and b.instrs[-1].opcode == "bra" and b.instrs[-1].guard is not None:
            join = ipdom.get(x)
            inner |= set().union(*(arm(s, join, by_label) for s in b.succs if s != join)) & region.body
    return not _tests_own_load(am, region, inner)

