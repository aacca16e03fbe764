"""Instruction selection driver: each Ori instruction goes through its family rule (isel/fam_*.py) or the
generic table (isel/provenance.py records where each SASS instruction came from and why), labels that
something refers to become nvdisasm-style `.L_x_N` labels numbered across the file, and the result is laid
out."""
from __future__ import annotations

from pylower.lowering import ori
from pylower.lowering import ptx_ast as A
from pylower.lowering.operand_types import RegTypes
from pylower.lowering.target import Target
from pylower.lowering.ops import is_aligned_cta_barrier, is_cta_barrier, is_full_mask, warp_op
from pylower.passes.analysis.regions import divergent_branch, register_only
from pylower.passes.analysis.uniformity import Uniformity
from pylower.passes.ifconvert import is_branch_region, predicated_exit_arms, predicates_inner_branches
from pylower.passes.knobs import knob_value
from pylower.passes.analysis.defuse import defs as _defs, operand_registers
from pylower.sass.instr import VIRTUAL, SassFunction, SassInstr, SassProgram, layout

from . import generic
from .block_order import layout as place_blocks
from .call_layout import place_callees
from .fam_math import append_subroutines
from .fam_sync_pseudo import place_convergence_barriers
from .join_hoist import hoist_guard_tests, hoist_join_work
from .provenance import annotate
from .rules import RULES, SelectContext, TempNames
from .schedule import make_predicated_if, make_units, schedule_block


# Opcodes whose operands may name a block of the function (a branch, a convergence region, a call).
_CONTROL = frozenset({"BRA", "BRX", "JMP", "BSSY", "CALL", "WARPSYNC", "BREAK", "BPT"})
# Blocks that are out-of-line routines of the function: printed as local function symbols (nvdisasm:
# `.type name,@function`), not as .L_x_N labels.
_HELPER_PREFIX = "$__internal_"


def _ref(operand: str) -> str | None:
    if operand.startswith("`(") and operand.endswith(")"):
        return operand[2:-1]
    return None


def select_function(fn: ori.Function, module: ori.Module, target: Target, options: dict,
                    unmapped: dict, am=None, temps: TempNames | None = None) -> SassFunction:
    placed = place_blocks(fn)
    if am is not None and placed is not fn.blocks:
        am.invalidate("cfg")                   # branches were added or removed, the edges are the same
    fn.blocks = placed
    sel = SelectContext(target, fn, module, options, unmapped, am=am, temps=temps or TempNames())
    out = SassFunction(fn.name, fn.is_entry, [], {}, fn.decl.line, visible=_visible(fn))
    file = module.file
    starts: dict[str, int] = {}
    # out-of-line collectives return behind the fast path they stand in for: the Ori instruction after a
    # `bra_div` (phase 72 puts the fast path there); collective label -> SASS index to return to
    returns: dict[str, int] = {}
    backs: list[tuple[SassInstr, str]] = []
    scheduled = options.get("opt_level", 3) > 0 and knob_value(options.get("knobs", {}), "Schedule") != 0
    selections = []
    for b in fn.blocks:
        sel.block = b
        selected = []
        for k, ins in enumerate(b.instrs):
            rule = RULES.get(ins.name) or RULES.get(ins.opcode)
            seq = rule(ins, sel) if rule is not None else None
            if seq is None:
                seq = generic.select(ins, sel)
            annotate(seq, ins, sel, file, b.instrs[k + 1] if k + 1 < len(b.instrs) else None)
            selected.append((ins, seq))
        selections.append(selected)
    regs = RegTypes(fn.decls)                # the function's declared types, for predicate pressure

    def is_predicate(reg: str) -> bool:
        return regs.of(reg) == ".pred"
    if scheduled and target.has("JOIN_WORK_HOISTED"):
        hoist_join_work(fn.blocks, selections, is_predicate)
    if scheduled and target.has("GUARD_TEST_HOISTED"):
        hoist_guard_tests(fn.blocks, selections, is_predicate)
    stalls: set[int] = set()                 # the scheduler's first-stall marks, for the BSSY placement
    placed: set[int] = set()                 # the BSSYs the scheduler placed (schedule.BSSY_SCHEDULED)
    bssy_units = knob_value(options.get("knobs", {}), "ScheduleBssy") != 0
    if scheduled:
        # one scheduling region per run of blocks only a fall-through enters (isel/schedule.py), through the
        # if regions ptxas predicates (one unit each: _predicated_ifs)
        ifs = _predicated_ifs(am, fn, selections, target)
        position = {b.label: k for k, b in enumerate(fn.blocks)}
        merged_joins = _predicated_joins(am, fn, target, ifs) if bssy_units else set()
        for first, last in _fall_through_runs(fn.blocks, selections, ifs):
            compounds, merged = {}, []
            for j in range(first, last):
                if j in ifs:
                    compounds[id(selections[j][-1][0])] = (j, [selections[j][-1]] + selections[j + 1])
                    merged.extend(selections[j])
                elif j - 1 not in ifs:
                    merged.extend(selections[j])
            loop_head, in_flight, param_loads = _run_entry(fn.blocks, first, position) if bssy_units \
                else (False, frozenset(), frozenset())
            # a run entered at the join of an if ptxas predicates but pylower merges only at emission: its BSSY
            # rises through the merged region, which this run does not see (fam_sync_pseudo's rule places it)
            keep_bssy_rules = loop_head or fn.blocks[first].label in merged_joins
            order = _schedule(merged, sel, fn.blocks[first:last], target, is_predicate, stalls, compounds,
                              placed if bssy_units else None, keep_bssy_rules, in_flight, param_loads,
                              _is_loop_head(fn.blocks, last, position))
            for j in range(first, last):
                selections[j] = []
            at = first
            for ins, seq in order:
                c = compounds.get(id(ins))
                if c is None:
                    selections[at].append((ins, seq))
                    continue
                h, pairs = c
                selections[at].append(pairs[0])
                selections[h + 1] = pairs[1:]
                at = h + 2
    for b, selected in zip(fn.blocks, selections):
        starts[b.label] = len(out.instrs)
        sel.block = b
        div_target, div_left, div_run = None, 0, True
        # [BRA.CONV, skip BRA, fast path start, calls still to come, fast-path instructions still to come] of a
        # slow path, until its fast path is out (a run of several ops: phase 72's _slow_run)
        conv: list | None = None
        for k, (ins, seq) in enumerate(selected):
            if conv is not None and conv[3] == 0 and ins.opcode not in ori.PSEUDO_OPCODES:
                out.instrs.extend(seq)             # the fast path: BRA.CONV lands on it, the slow path skips it
                conv[0].operands = (f"`(@{conv[2]})",) + conv[0].operands[1:]
                conv[4] -= 1
                if conv[4] <= 0:
                    conv[1].operands = (f"`(@{len(out.instrs)})",)
                    conv = None
                continue
            out.instrs.extend(seq)
            if ins.opcode == "bra_conv" and seq:
                conv = [seq[-1], None, 0, max(1, ins.attrs.run), 0]
            elif conv is not None and conv[3] > 0 and ins.opcode not in ori.PSEUDO_OPCODES:
                conv[4] += 1                       # code a run's slow path copies
            elif ins.opcode == "call_helper" and conv is not None and conv[3] > 0:
                conv[3] -= 1
                conv[4] += 1
                if conv[3] == 0:
                    skip = sel.sass(ins, "BRA", (), (), reason="after the slow path, skips the fast path")
                    skip.origin, skip.line = "isel", ins.line
                    out.instrs.append(skip)
                    conv[1], conv[2] = skip, len(out.instrs)
            if div_target is not None:
                if div_run or warp_op(ins) is not None:
                    div_left -= 1
                if div_left <= 0:
                    returns.setdefault(div_target, len(out.instrs))
                    div_target = None
            if ins.opcode == "bra_div" and ins.operands and type(ins.operands[0]) is A.Sym:
                div_target = ins.operands[0].name
                div_left = max(1, ins.attrs.run)     # a collective run's one test: back after its last op
                div_run = div_left == 1
                if k + 1 == len(selected):          # no fast path follows: return right here
                    returns.setdefault(div_target, len(out.instrs))
                    div_target = None
            elif ins.opcode == "bra_back" and seq:
                backs.extend((s, b.label) for s in seq if s.opcode == "BRA" and not s.operands)
    for s, label in backs:                     # a collective's way back: `BRA `(behind the fast path)
        if label in returns:
            s.operands = (f"`(@{returns[label]})",)
    out.divergent_branch = _keeps_divergent_branch(am, fn, selections, target, options.get("opt_level", 3) > 0)
    merged = _if_converted_starts(am, fn, out, starts, target)
    append_subroutines(fn, out, sel, starts, am.uniformity if am is not None else None)
    _resolve_labels(out, starts)
    before = list(out.instrs)
    labelled = [(k, i.label) for k, i in enumerate(before) if i.label]
    place_convergence_barriers(out.instrs, merged, target, stalls, placed,
                               fn.shared_symbols if target.has("SHARED_WINDOW_ADDRESS") else frozenset())
    _keep_moved_labels(out.instrs, before, labelled)
    layout(out)
    return out


class _DataUniformity(Uniformity):
    """Divergence through data only: a value a divergent branch's arms define differently is not divergent
    for this. ptxas's CRS stack follows branches on thread-dependent data (`tid`, a per-lane load address, an
    atomic's result); a test of a value loaded from one address after `if (tid != 0) return;` splits no warp
    (nvcc/atomic_wait_notify atomic_flag_notify, cub_block_shuffle_adjacent, pipeline_primitives_cp_async:
    no CRS). Nor are the clocks: a branch on %globaltimer or %clock64 gets no CRS either (a tid test does)."""

    def _live_at_join(self, label: str, reg: str) -> bool:
        return False

    def _divergent_sreg(self, name: str) -> bool:
        return super()._divergent_sreg(name) and not name.startswith(("%clock", "%globaltimer"))


def _keeps_divergent_branch(am, fn: ori.Function, selections: list, target, optimized: bool) -> bool:
    """Whether a branch on a thread-dependent predicate stays in ptxas's code, forward or back, at every -O
    level: a divergent `bra` that selects to a BRA, unless it opens an if region ptxas predicates
    (is_branch_region; -O0 predicates none). EIATTR_CRS_STACK_SIZE, docs/findings/eiattr.md section 2."""
    if am is None:
        return False
    if optimized and target.has("WARPSYNC_ALL") and _guarded_warp_barrier(am):
        return True
    # a region ptxas predicates takes its inner branches with it (`if (a) { if (b) S }` is one predicate:
    # phases/ifconvert_nested_only_if*; the inner if joins where the outer does, so it has no region of its own)
    predicated = {x for r in am.regions if r.kind == "if" and not is_branch_region(am, r, target)
                  and not _holds_warpsync(am, r, target)
                  for x in ((r.head, *r.body) if predicates_inner_branches(am, r) else (r.head,))} \
        | predicated_exit_arms(am, target) if optimized else set()
    # divergence through data is divergence: only the branches the full analysis finds divergent can be
    # (most functions have none, and then the second analysis is not built)
    candidates = [b for b in fn.blocks if b.label not in predicated and divergent_branch(b, am.uniformity)]
    if optimized and candidates:
        # an if region the one-pair-per-join rule dropped (it joins where an enclosing one does) is still
        # predicated or kept by itself (nvcc/cub_block_shuffle_adjacent: `if (tid != 0) x -= lds` inside a
        # uniform if/else, predicated, no CRS)
        heads = {r.head for r in am.regions}
        kept_inner = {x for r in am.regions if r.kind == "if" and not predicates_inner_branches(am, r)
                      for x in r.body}
        dropped = {r.head for r in am.all_regions if r.kind == "if" and r.head not in heads
                   and r.head not in kept_inner
                   and not is_branch_region(am, r, target) and not _holds_warpsync(am, r, target)}
        candidates = [b for b in candidates if b.label not in dropped]
    guards = [] if optimized else [i for i in fn.instructions() if _o0_guard_branch(i, am.uniformity)]
    # only a branch selected to a BRA counts: the others are dropped before the second analysis is built
    bras = {id(ins) for selected in selections for ins, seq in selected if any(s.opcode == "BRA" for s in seq)}
    candidates = [b for b in candidates if id(b.instrs[-1]) in bras]
    if not candidates and not guards:
        return False
    uni = _DataUniformity(fn, am.defuse, am.ipdom, am.liveness, am.native_match_all, lane_drift=False)
    if any(_o0_guard_branch(i, uni) for i in guards):
        return True
    return any(divergent_branch(b, uni) for b in candidates)


def _o0_guard_branch(ins: ori.Instr, uni) -> bool:
    """-O0: ptxas lowers a guarded instruction other than register work (a load, store, atomic, barrier,
    fence) as a branch around it, on a thread-dependent guard a divergent one (phases/tail_guard_st_O0:
    `@!P0 BRA` over the STG; a guarded add stays predicated)."""
    return ins.guard is not None and ins.opcode not in ("bra", "ret", "exit") and not register_only(ins) \
        and ins.opcode not in ori.PSEUDO_OPCODES and uni.is_divergent_operand(ins.guard)


def _holds_warpsync(am, region, target) -> bool:
    """ptxas does not predicate a WARPSYNC.ALL: an if region ptxas would predicate that holds one (a full-mask
    bar.warp.sync) stays a branch from sm_90 (probes/barrier/bar_warp_sync_divergent: `@!P0 BRA ... WARPSYNC.ALL`,
    no BSSY)."""
    return target.has("WARPSYNC_ALL") and any(
        i.opcode == "warpsync" and is_full_mask(i.operands[0] if i.operands else None)
        for x in region.body for i in am.blocks[x].instrs)


def _guarded_warp_barrier(am) -> bool:
    """A non-aligned barrier.sync under a divergent guard: from sm_90 its expansion starts with a WARPSYNC.ALL,
    which ptxas does not predicate, so the guard is a branch around both (probes/barrier/barrier_sync_predicated:
    `@P0 BRA; WARPSYNC.ALL; BAR.SYNC`)."""
    uni = am.uniformity
    return any(i.guard is not None and is_cta_barrier(i) and not is_aligned_cta_barrier(i)
               and i.attrs.mode == "sync" and uni.is_divergent_operand(i.guard) for i in am.fn.instructions())


def _if_converted_starts(am, fn: ori.Function, out: SassFunction, starts: dict[str, int], target) -> set[int]:
    """The first SASS instructions (by id) of the blocks of if regions ptxas predicates, and of their joins:
    ptxas's block runs on through them, so a BSSY after them may be scheduled before them."""
    if am is None:
        return set()
    labels = {b.label for b in fn.blocks}
    out_ids: set[int] = set()
    for r in am.regions:
        if r.kind != "if" or is_branch_region(am, r, target):
            continue
        for label in (*r.body, r.join):
            k = starts.get(label)
            if label in labels and k is not None and k < len(out.instrs):
                out_ids.add(id(out.instrs[k]))
    return out_ids


# Pseudo-operations whose next non-pseudo instruction is the fast path a slow path returns to or skips: that
# instruction keeps its place (the scheduler treats it as control).
_FAST_PATH_AFTER = frozenset({"bra_conv", "call_helper", "bra_div"})


def _predicated_joins(am, fn: ori.Function, target, ifs: dict) -> set[str]:
    """The join labels of the if regions ptxas predicates (not branch regions) that the scheduler does not take
    as one unit (_predicated_ifs): ptxas's block runs on through them, pylower merges them only at emission
    (docs/findings/scheduling.md "The BSSY unit on sm_90+ (helper bssy29, stop 29)")."""
    if am is None:
        return set()
    compound_joins = {fn.blocks[j].label for j in ifs.values()}
    return {r.join for r in am.regions if r.kind == "if" and r.join not in compound_joins
            and not is_branch_region(am, r, target)}


def _run_entry(blocks: list, first: int, position: dict) -> tuple[bool, set, set]:
    """For the BSSY units of a scheduling run starting at blocks[first]: is it a loop's first block (a predecessor
    laid out at or after it), and which registers a load or atomic of a block branching or falling into it writes
    (still in flight at the run's start)? And which of those a kernel parameter's load writes (schedule_block)."""
    head = blocks[first]
    loop_head = _is_loop_head(blocks, first, position)
    loads = [ins for q in head.preds if q in position for ins in blocks[position[q]].instrs
             if ins.opcode in ("ld", "atom")]
    in_flight = {r for ins in loads for r in _defs(ins)}
    param_loads = {r for ins in loads if ins.opcode == "ld" and ".param" in ins.name for r in _defs(ins)}
    return loop_head, in_flight, param_loads


def _select_only_predicates(selected: list) -> frozenset:
    """The predicates the run's instructions read as a select's condition (`setp; selp`: data), otherwise at most
    as the guard of a predicated instruction, never of a branch: a compare of such a predicate after a predicated
    if is no guard test of a later if region, and ptxas schedules it across the if with its selects (Triton's
    masked gather `tl.where(offs == t, x, 0)` after `tl.log`'s fixup if: its compares, selects and shuffles
    interleave with the chain before the if; tools/variations/select_compare_after_if.py; docs/findings/
    scheduling.md "Compares that feed selects cross a predicated if (helper tslot39, stop 39)"). A compare that
    only guards stores stays behind the if."""
    ok: dict[str, bool] = {}
    selects: set[str] = set()
    for ins, _ in selected:
        for r in operand_registers(ins.guard) if ins.guard is not None else ():
            ok[r] = ok.get(r, True) and ins.opcode != "bra"
        ops = ins.operands
        for o in ops if ins.opcode in ("st", "red") else ops[1:]:
            cond = ins.opcode == "selp" and len(ops) == 4 and o is ops[3]
            for r in operand_registers(o):
                ok[r] = ok.get(r, True) and cond
                if cond:
                    selects.add(r)
    return frozenset(r for r in selects if ok.get(r))


def _is_loop_head(blocks: list, k: int, position: dict) -> bool:
    """Is blocks[k] a loop's first block (a predecessor laid out at or after it branches back to it)?"""
    return k < len(blocks) and any(position.get(q, -1) >= k for q in blocks[k].preds)


def _schedule(selected: list, sel: SelectContext, blocks: list, target: Target, is_predicate, stalls: set,
              compounds: dict | None = None, placed: set | None = None, keep_bssy_rules: bool = False,
              in_flight: frozenset = frozenset(), param_loads: frozenset = frozenset(),
              into_loop: bool = False) -> list:
    """The blocks' (Ori instruction, SASS sequence) pairs in ptxas's issue order (isel/schedule.py); `stalls` gets
    the scheduler's first-stall marks (schedule._list_schedule). `compounds`: id of a predicated if's branch ->
    (its block index, the branch's and the body's pairs), scheduled as one unit (the branch's pair stands for it
    in the result). `into_loop`: the run falls into a loop's first block (a BSSY ending it opens that loop)."""
    units, after_slow_path = [], False
    run = None               # [calls to come, fast-path instructions to come] of a run (phase 72 _slow_run)
    compounds = compounds or {}
    after_if = False
    selects_only = _select_only_predicates(selected) if compounds else frozenset()
    for ins, seq in selected:
        c = compounds.get(id(ins))
        us = [make_predicated_if(c[1], target)] if c is not None else make_units(ins, seq, target)
        after_if = after_if or c is not None
        if after_if and c is None:
            for u in us:
                if u.kind == "alu" and any(is_predicate(r) and r not in selects_only for r in u.defs) \
                        or _active_lanes_read(u):
                    # a compare after a predicated if stays after it (ptxas keeps the next region's guard test
                    # behind the if: nvcc cub_block_reduce_algorithms `@P0 STS; BAR; ISETP; BSSY`, as
                    # isel/join_hoist.py keeps it after a BSYNC)
                    u.uses += ("~predicated_if",)
        if ins.opcode == "bra_conv" and ins.attrs.run > 1:
            run = [ins.attrs.run, 0]
        if run is not None:                  # a run's slow and fast paths keep their order
            for u in us:
                u.kind = "control"
            plain = ins.opcode not in ori.PSEUDO_OPCODES
            if run[0] > 0 and (plain or ins.opcode == "call_helper"):
                run[0] -= ins.opcode == "call_helper"
                run[1] += 1
            elif run[0] == 0 and plain:
                run[1] -= 1
                if run[1] == 0:
                    run = None
            units.extend(us)
            continue
        if ins.opcode in _FAST_PATH_AFTER:
            after_slow_path = True
        elif after_slow_path and ins.opcode not in ori.PSEUDO_OPCODES:
            for u in us:
                u.kind = "control"
            after_slow_path = False
        units.extend(us)
    outs = [_live_out(sel, b) for b in blocks]
    owner = {id(ins): k for k, b in enumerate(blocks) for ins in b.instrs}
    lv = sel.liveness

    def live_through(seg: list) -> object:
        """reg -> is it live at the end of a block holding an instruction of the segment (a loop's latch)?
        (One bit vector: the union of those blocks' live-out sets.)"""
        ks = {owner[id(u.ins)] for u in seg if u.ins is not None and id(u.ins) in owner}
        if not ks:
            return lambda reg: False
        bits = None
        for k in ks:
            b = lv.live_out[blocks[k].label]
            bits = b if bits is None else bits | b
        index = lv.index
        return lambda reg: reg not in index or bool(bits[index[reg]])
    cyclic = any(sel.am.loops.on_cycle(b.label) for b in blocks)
    return [(u.ins, u.sass) for u in schedule_block(units, outs[-1], target, live_through, is_predicate, stalls,
                                                    placed, keep_bssy_rules, in_flight, in_loop=cyclic,
                                                    param_loads=param_loads, into_loop=into_loop)]


def _active_lanes_read(u) -> bool:
    """`VOTE.ANY R, PT, PT` (activemask into a register; an aggregated atomic's vote below sm_80): after a
    predicated if and the barrier behind it ptxas issues it after the barrier (probes/phases/
    bssy_bar_after_s2r_store_if, nvcc atomics_shared sm_75: `@!P STS; BAR; LDG; VOTE.ANY`), though with nothing
    after the barrier it fills the store's wait (docs/findings/scheduling.md "A predicated if is one instruction
    to the scheduler (helper sched27, stop 27)")."""
    return bool(u.sass) and u.sass[0].reads_active_lanes


# Pseudo-operations whose block keeps its own schedule (the emission loop pairs them with what follows in
# their block).
_OWN_BLOCK = _FAST_PATH_AFTER | {"bra_conv", "bra_back"}


_NO_SYMS = (A.Reg, A.Imm, A.Sink, A.Expr, str, int)      # operands (and fields) that hold no Sym


def _syms(x, out: set) -> None:
    t = type(x)
    if t is A.Sym:
        out.add(x.name)
    elif t in _NO_SYMS:
        return
    elif isinstance(x, (tuple, list)):
        for y in x:
            _syms(y, out)
    else:
        for f in getattr(type(x), "__record_fields__", ()):
            _syms(getattr(x, f), out)


def _fall_through_runs(blocks: list, selections: list, ifs: dict | None = None) -> list[tuple[int, int]]:
    """Runs [first, last) of consecutive blocks whose later blocks nothing refers to: a label only debug
    information names (Triton's and LLVM's `$L__tmpN:` on .loc boundaries) ends no basic block for ptxas's
    scheduler, which moves instructions across it (docs/findings/scheduling.md). `ifs`: head block index ->
    join block index of the if regions ptxas predicates (_predicated_ifs): their body and join continue the run."""
    labels = {b.label for b in blocks}
    named: set = set()
    ifs = ifs or {}
    joins = {j for j in ifs.values()}
    for i, (b, selected) in enumerate(zip(blocks, selections)):
        if i not in joins and any(i == 0 or p != blocks[i - 1].label for p in b.preds):
            named.add(b.label)
        for ins, seq in selected:
            if i in ifs and ins is selected[-1][0]:
                continue                        # the predicated if's own branch to its join
            _syms(ins.operands, named)
            for x in seq:
                for o in x.operands:
                    if isinstance(o, str):
                        named.add(_ref(o) or o)
    named &= labels
    own = [any(ins.opcode in _OWN_BLOCK for ins, _ in s) for s in selections]
    runs, first = [], 0
    for i in range(1, len(blocks) + 1):
        if i == len(blocks) or blocks[i].label in named or own[i] or own[i - 1] \
                or blocks[i].label.startswith(ori.OUT_OF_LINE) or blocks[i].label.startswith(_HELPER_PREFIX):
            runs.append((first, i))
            first = i
    return runs


def _predicated_ifs(am, fn: ori.Function, selections: list, target) -> dict[int, int]:
    """Head block index -> join block index of each if region ptxas predicates (passes/ifconvert.py) laid out as
    `head (ending in @p bra J); body; J:` with a one-block body of plain work (no control, pseudo-op or warp
    collective), entered only from its head, and a join entered only from the two: ptxas's scheduler sees one
    block there, the branch and body are one guarded unit to it (docs/findings/scheduling.md "A predicated if is
    one instruction to the scheduler (helper sched27, stop 27)")."""
    if am is None:
        return {}
    index = {b.label: k for k, b in enumerate(fn.blocks)}
    out: dict[int, int] = {}
    for r in am.regions:
        if r.kind != "if" or len(r.body) != 1 or r.join not in index or r.head not in index:
            continue
        h = index[r.head]
        body_label = next(iter(r.body))
        if index.get(body_label) != h + 1 or index[r.join] != h + 2 or not selections[h]:
            continue
        head, body, join = fn.blocks[h], fn.blocks[h + 1], fn.blocks[h + 2]
        bra = selections[h][-1][0]
        if bra is not head.instrs[-1] or bra.opcode != "bra" or bra.guard is None or not bra.operands \
                or getattr(bra.operands[0], "name", None) != r.join:
            continue
        if list(body.preds) != [head.label] or sorted(join.preds) != sorted([head.label, body.label]):
            continue
        if h in out:
            continue
        pairs = selections[h + 1]
        if not pairs or any(ins.opcode in ori.PSEUDO_OPCODES or ins.opcode in ("bra", "ret", "exit", "call")
                            or any(s.label is not None for s in seq) for ins, seq in pairs):
            continue
        if any(u.kind in ("control", "collective") or u.kind in ("barrier", "fence") and not _release_fence(ins, seq)
               for ins, seq in pairs for u in make_units(ins, seq, target)):
            continue
        if is_branch_region(am, r, target):
            continue
        out[h] = h + 2
    return out


def _release_fence(ins: ori.Instr, seq: list) -> bool:
    """A release store or reduction's own leading MEMBAR (`st.release`, `red.release`: MEMBAR.ALL.* [ERRBAR ...]
    then the memory op): ptxas predicates the if holding it (passes/ifconvert.py) and schedules the guarded pair
    with its block like any guarded store, so work after the if (an aggregation's vote) issues before it from
    sm_90 while the MEMBAR waits with its store for the store's address (docs/findings/scheduling.md "A release
    store's MEMBAR in a predicated if issues with its store (helper llvm30, stop 30)")."""
    return ins.opcode in ("st", "red") and bool(seq) and seq[0].opcode == "MEMBAR"


def _live_out(sel: SelectContext, b: ori.BasicBlock):
    """reg -> is it live at the end of block b (the analysis manager's liveness)."""
    lv = sel.liveness
    bits, index = lv.live_out[b.label], lv.index
    return lambda reg: reg not in index or bool(bits[index[reg]])


def _visible(fn: ori.Function) -> bool:
    return any(x in (".visible", ".extern") for x in fn.decl.linkage)


def _resolve_labels(out: SassFunction, starts: dict[str, int]) -> None:
    """Every block or rule-made label something refers to becomes a label of the instruction it names (a
    per-function key, numbered .L_x_N across the file by number_labels); helper blocks become symbols.
    A BSSY whose join is no block (a pair around one expansion) names the BSYNC that closes it."""
    instrs = out.instrs
    at: dict[str, int] = dict(starts)
    for k, i in enumerate(instrs):
        if i.label:
            at.setdefault(i.label, k)
            i.label = None
    keys: dict[int, str] = {}
    helpers: dict[str, int] = {name: k for name, k in starts.items() if name.startswith(_HELPER_PREFIX)}

    def key_at(k: int) -> str:
        if k not in keys:
            keys[k] = f"{out.name}/{len(keys)}"
        return keys[k]

    def key_of(name: str, k_from: int, ins) -> str | None:
        if name in helpers:
            return None
        if name.startswith("@") and name[1:].isdigit():       # an instruction index (collective returns)
            return key_at(int(name[1:]))
        k = at.get(name)
        if k is None and ins.opcode == "BSSY" and ins.operands:
            k = next((j for j in range(k_from + 1, len(instrs)) if instrs[j].opcode == "BSYNC"
                      and instrs[j].operands[:1] == ins.operands[:1]), None)
        return None if k is None else key_at(k)

    for n, i in enumerate(instrs):
        if i.opcode == "WARPSYNC" and "COLLECTIVE" in i.mods and not any(o.startswith("`(") for o in i.operands):
            # the collective block's end: the instruction after its ENDCOLLECTIVE
            e = next((j for j in range(n + 1, len(instrs)) if instrs[j].opcode == "ENDCOLLECTIVE"), None)
            if e is not None:
                i.operands = i.operands + (f"`({key_at(e + 1)})",)
            continue
        if not i.operands:
            continue
        ops = list(i.operands)
        changed = False
        for j, o in enumerate(ops):
            name = _ref(o)
            if name is None and i.opcode in _CONTROL and (o in at or i.opcode == "BSSY" and j == len(ops) - 1):
                name = o
            if name is None:
                continue
            key = key_of(name, n, i)
            if key is not None:
                ops[j] = f"`({key})"
                changed = True
            elif name in helpers:
                ops[j] = f"`({name})"
                changed = True
        if changed:
            i.operands = tuple(ops)
    if keys and max(keys) >= len(instrs):
        instrs.append(SassInstr(VIRTUAL, line=instrs[-1].line if instrs else out.ptx_line))
    for k, key in keys.items():
        instrs[k].label = key
    for name, k in helpers.items():
        if k < len(instrs):
            out.symbols[k] = (name, False)


def _keep_moved_labels(instrs: list, before: list, labelled: list) -> None:
    """A label that placing the convergence barriers took away with an instruction it moved (a BSSY hoisted from
    the start of its block: nvcc/wk32_argmax_norm's second reduction) names its place again: the first
    instruction that followed it and still comes right after the instruction that preceded it. A place that
    already has a label takes the references to the lost one."""
    present = {i.label for i in instrs if i.label}
    lost = [(k, lab) for k, lab in labelled if lab not in present]
    if not lost:
        return
    pos = {id(x): n for n, x in enumerate(instrs)}
    followers = {id(x): n for n, x in enumerate(before)}
    alias = {}
    for k, lab in lost:
        start = pos.get(id(before[k - 1]), -1) + 1 if k else 0
        place = next((n for n in range(start, len(instrs)) if followers.get(id(instrs[n]), -1) >= k), start)
        if place >= len(instrs):
            instrs.append(SassInstr(VIRTUAL, line=instrs[-1].line if instrs else 0))
        if instrs[place].label is None:
            instrs[place].label = lab
        else:
            alias[f"`({lab})"] = f"`({instrs[place].label})"
    if alias:
        for i in instrs:
            if any(o in alias for o in i.operands):
                i.operands = tuple(alias.get(o, o) for o in i.operands)


def _unique_helpers(prog: SassProgram) -> None:
    """Out-of-line helper symbols (`$__internal_N_...`) are unique across the file: a later function's helper
    that repeats a name takes the next free number."""
    seen: set[str] = set()
    count = 0
    for fn in prog.functions:
        rename = {}
        for k, (sym, glob) in sorted(fn.symbols.items()):
            if not sym.startswith(_HELPER_PREFIX):
                continue
            if sym in seen:
                rest = sym[len(_HELPER_PREFIX):].split("_", 1)[1]
                while f"{_HELPER_PREFIX}{count}_{rest}" in seen:
                    count += 1
                rename[sym] = f"{_HELPER_PREFIX}{count}_{rest}"
                fn.symbols[k] = (rename[sym], glob)
            seen.add(fn.symbols[k][0])
        if rename:
            for i in fn.instrs:
                if any(o[2:-1] in rename for o in i.operands if o.startswith("`(")):
                    i.operands = tuple(f"`({rename[o[2:-1]]})" if o.startswith("`(") and o[2:-1] in rename else o
                                       for o in i.operands)


def number_labels(prog: SassProgram) -> None:
    """nvdisasm numbers local labels `.L_x_N` across the whole file, in the order it prints them."""
    names: dict[str, str] = {}
    _unique_helpers(prog)
    for fn in prog.functions:
        for i in fn.instrs:
            if i.label:
                i.label = names.setdefault(i.label, f".L_x_{len(names)}")
    for fn in prog.functions:
        for i in fn.instrs:
            if any(o.startswith("`(") for o in i.operands):
                i.operands = tuple(f"`({names.get(o[2:-1], o[2:-1])})" if o.startswith("`(") else o
                                   for o in i.operands)
        fn.end_label = f".L_x_{len(names)}"
        names[f"end of {fn.name}"] = fn.end_label


def select(module: ori.Module, target: Target, options: dict | None = None, analyses=None) -> SassProgram:
    """`analyses`: fn -> its analysis manager (the pass context's), so ISel reuses what the phases computed."""
    prog = SassProgram(target.name, relocatable=bool((options or {}).get("compile_only")), file=module.file)
    prog.calls = {f.name: list(f.callees) for f in module.functions}
    temps = TempNames(avoid=_declared_prefixes(module))
    for fn in module.functions:
        am = analyses(fn) if analyses is not None else None
        prog.functions.append(select_function(fn, module, target, options or {}, prog.unmapped, am, temps))
    place_callees(prog, module, options or {})
    number_labels(prog)
    return prog


def _declared_prefixes(module: ori.Module) -> frozenset:
    """Register prefixes the PTX declares that a temporary's name could meet (`%t<4>` -> "%t")."""
    from pylower.isel.rules import TEMP_PREFIX
    names = set()
    for f in module.functions:
        for d in f.decls:
            if isinstance(d, A.VarDecl) and d.space == ".reg":
                names.add(d.name)
    return frozenset(p for p in TEMP_PREFIX.values() if any(n.startswith(p) for n in names))
