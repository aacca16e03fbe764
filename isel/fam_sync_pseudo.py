"""ISel for the class-130 sync pseudo-ops the sync phases insert (passes/p71_optimize_sync.py,
passes/p72_late_expand_sync.py; stems: lowering.ori.PSEUDO_OPCODES).

Per-target spellings are table rows: WARPSYNC with a full mask is `WARPSYNC 0xffffffff` below sm_90 and
`WARPSYNC.ALL` from sm_90 (findings R4); the member-mask check before a per-thread-mask slow path is
MATCH.ALL on sm_75, and on sm_80-89 VOTEU.ANY + MATCH.ANY + REDUX.OR for bar.warp.sync/shfl or REDUX.OR for
the other ops (compiler-made warp-wide instructions; findings phase 71.3, warp.md "divergent reg").
"""
from __future__ import annotations

from pylower.lazy_re import lazy_compile

from pylower.sass.families import WARP_COLLECTIVES, WARP_REDUCTIONS, is_sync
from pylower.sass.instr import VIRTUAL

from .generic import const_bank
from .rules import operand_text, rule
from .sequences import brk, bssy, bsync, warpsync

# membermask.overlap / .uniform on targets with REDUX -> [(opcode, mods, tags)]; without REDUX: MATCH.ALL
_WW = ("INT_WARP_WIDE",)
_MEMBERMASK_CHECK = {
    ".overlap": (("VOTEU", ("ANY",), _WW), ("MATCH", ("ANY",), _WW), ("REDUX", ("OR",), _WW)),
    ".uniform": (("REDUX", ("OR",), _WW),),
}
_MEMBERMASK_CHECK_NO_REDUX = (("MATCH", ("ALL",), ()),)
# sm_90+ (WARP_COLLECTIVE): ptxas issues the active-lane read last (VOTEU.ANY after MATCH.ANY and REDUX.OR;
# nvcc/cg_tiled_partition_sizes, cg_labeled_binary_partition; probes warp/permask_*)
_ACTIVE_LAST = {".overlap": (_MEMBERMASK_CHECK[".overlap"][1], _MEMBERMASK_CHECK[".overlap"][2],
                             _MEMBERMASK_CHECK[".overlap"][0])}


def _ops(ins) -> tuple[str, ...]:
    return tuple(operand_text(o) for o in ins.operands)


def _coop(ins) -> tuple[str, ...]:
    """EIATTR_COOP_GROUP entries a pseudo-op stands for (`!coop=1`: a warp-sync op's site, `!coop_slow=1`:
    its slow path)."""
    return (("COOP_GROUP",) if ins.attrs.coop else ()) + (("COOP_GROUP_SLOW",) if ins.attrs.coop_slow else ())


@rule("warpsync")
def select_warpsync(ins, sel):
    mods = tuple(m[1:].upper() for m in ins.mods)      # (), ("COLLECTIVE",), ("COLLECTIVE", "ALL")
    return [warpsync(sel, ins, ins.operands[0] if ins.operands else None, mods, tags=_coop(ins))]


@rule("endcollective")
def select_endcollective(ins, sel):
    return [sel.sass(ins, "ENDCOLLECTIVE")]


@rule("bssy", "bsync", "break")
def select_convergence(ins, sel):
    """A convergence pair of phase 72: `bssy Bn, join` / `bsync Bn` / `break Bn`, .reconvergent or .reliable as
    the phase chose."""
    depth = int(operand_text(ins.operands[0])[1:])
    reconvergent, reliable = ".reconvergent" in ins.mods, ".reliable" in ins.mods
    if ins.opcode == "bssy":
        return bssy(sel, ins, depth, operand_text(ins.operands[1]), reconvergent, reliable=reliable)
    if ins.opcode == "break":
        return [brk(sel, ins, depth, reliable)]
    return [bsync(sel, ins, depth, reconvergent, reliable=reliable)]


@rule("bmov")
def select_bmov(ins, sel):
    mods = tuple(m[1:].upper() for m in ins.mods)      # ("32",) or ("32", "CLEAR")
    ops = _ops(ins)
    if len(ops) == 1:                                  # clear one barrier: BMOV.32.CLEAR RZ, Bn
        ops = ("RZ",) + ops
    return [sel.sass(ins, "BMOV", mods, ops)]


_BRANCHES = {"bra_conv": ("BRA", ("CONV",)), "bra_div": ("BRA", ("DIV",)), "bra_back": ("BRA", ()),
             "call_helper": ("CALL", ("REL", "NOINC")), "ret_helper": ("RET", ("REL", "NODEC"))}


# with -c the helper is not in the output: ptxas calls and returns through the linked address (CALL.ABS.NOINC,
# RET.ABS.NODEC), no call into the program, so no CRS stack (phases/call_extern_then_shfl_sync, sm_75-89)
_RELOCATABLE_HELPER = {"call_helper": ("ABS", "NOINC"), "ret_helper": ("ABS", "NODEC")}


@rule(*_BRANCHES)
def select_helper_branch(ins, sel):
    opc, mods = _BRANCHES[ins.opcode]
    tags = _coop(ins)
    if ins.opcode in _RELOCATABLE_HELPER and sel.options.get("compile_only"):
        mods = _RELOCATABLE_HELPER[ins.opcode]
        tags = tuple(tags) + ("EXTERN_CALL",) if ins.opcode == "call_helper" else tags
    return [sel.sass(ins, opc, mods, tuple(f"`({operand_text(o)})" for o in ins.operands), tags=tags)]


@rule("looptest")
def select_looptest(ins, sel):
    """The warp's active lanes against the uniform datapath's view of them: the loop branches back
    uniformly (BRA.U) while they agree (sm_75; llvm/atomic_expand_cas, nvcc/spin_flag_nanosleep); at -O0
    (`.nouniform`) both are VOTE.ANY."""
    second = ("VOTE", (sel.role(ins, "active2"), "PT", "PT")) if ".nouniform" in ins.mods else \
        ("VOTEU", (sel.role(ins, "active", "ur"), "UPT", "PT"))
    return [sel.sass(ins, "VOTE", ("ANY",), (sel.role(ins, "active"), "PT", "PT"), tags=_WW),
            sel.sass(ins, second[0], ("ANY",), second[1], tags=_WW)]


@rule("membermask")
def select_membermask(ins, sel):
    if ".elided" in ins.mods:                           # a deleted bar.warp.sync: only its EIATTR entry
        return [sel.sass(ins, VIRTUAL, (), (), tags=_coop(ins))]
    kind = next((m for m in ins.mods if m in _MEMBERMASK_CHECK), None)
    seq = _MEMBERMASK_CHECK[kind] if kind and sel.target.has("REDUX") else _MEMBERMASK_CHECK_NO_REDUX
    if sel.target.has("WARP_COLLECTIVE") or ".repeat" in ins.mods:
        # sm_80-89: a test repeating the one just before it for the same mask reads the active lanes last too
        # (`VOTEU MATCH REDUX BRA.DIV SHFL MATCH REDUX VOTEU BRA.DIV SHFL ...`: probes warp/permask_run_*)
        seq = _ACTIVE_LAST.get(kind, seq)
    return [sel.sass(ins, opc, mods, _ops(ins), tags=tags) for opc, mods, tags in seq]


# ---------------------------------------------------------------- where the scheduler puts a BSSY
# A BSSY reads nothing, so ptxas's list scheduler issues it as soon as nothing more urgent is ready: after
# the work of its block that can start at once, before the first instruction that waits for a long-latency
# result of the block (a load, an atomic, S2R) or is ordered after one (a barrier or fence after a store
# of a loaded value, an atomic after such a barrier). In the sync view it rises above the stalled barriers,
# fences and atomics before its region's branch (Triton atomic_cas_kernel: above three BAR.SYNC and four
# CAS) but stays after an atomic that can issue at once (llvm/locks_flags ticket_lock).
_BLOCK_ENDS = frozenset({"BRA", "EXIT", "RET", "CALL", "BSYNC", "BSSY", "BREAK", "BMOV", "JMP", "WARPSYNC",
                         "ENDCOLLECTIVE", "VOTE", "YIELD", "NANOSLEEP"})
_LONG_LATENCY = frozenset({"LDG", "LDS", "LD", "LDL", "ATOMG", "ATOMS", "ATOM", "S2R", "LDSM", "SHFL", "MATCH",
                           "REDUX", "CREDUX", "B2R", "MUFU", "SYNCS"})
_MEMORY = frozenset({"STG", "STS", "ST", "STL", "RED", "REDG", "ATOMG", "ATOMS", "ATOM", "LDGSTS", "SYNCS"})
_ORDERED = frozenset({"BAR", "MEMBAR", "ERRBAR", "CGAERRBAR", "CCTL", "FENCE", "ATOMG", "ATOMS", "ATOM", "RED",
                      "REDG", "SYNCS"})
_LOADS = frozenset({"LDG", "LD", "LDL", "ATOMG", "ATOM"})
_MEMORY_ACCESS = frozenset({"LDG", "LDS", "LD", "LDL", "STG", "STS", "ST", "STL", "ATOMG", "ATOMS", "ATOM", "RED",
                            "REDG"})
_ATOMICS = frozenset({"ATOMG", "ATOM", "ATOMS"})
_STORES = frozenset({"STG", "STS", "ST", "STL"})
_CONDITION_LOADS = frozenset({"LDG", "LD", "LDS", "LDL"})
_MEMORY_RESULTS = _CONDITION_LOADS | _ATOMICS      # waits for memory (not S2R: a short wait)
# Warp shuffles (Triton's layout conversions and reductions) are issued before the BSSY, whatever they wait
# for (atomic_rmw_kernel min_sys_fp64), and so is everything before them: the BSSY is never issued above a
# shuffle of its block (last_block_reduce_kernel: SHFL BAR LDS SHFL SHFL BSSY BAR BRA, not BSSY above the
# first BAR as the stalled barrier would say). REDUX and MATCH do not hold it back (llvm/redux_sync,
# nvcc/warp_aggregated_atomics: BSSY MATCH.ANY SHFL.IDX).
_ISSUED_FIRST = frozenset({"SHFL"})
_GLOBAL_LOADS = frozenset({"LDG", "LD"})
# the SASS of a memory fence: the first CTA barrier right after one is not passed by the BSSY
# (phases/bssy_fence_bar_*: `fence.acq_rel.gpu; bar.sync; if` is `MEMBAR ERRBAR CGAERRBAR CCTL.IVALL BAR BSSY`
# on sm_90+ and `... CCTL.IVALL BSSY BAR` below; `membar.cta; bar.sync` `MEMBAR.SC.CTA BAR BSSY` on every
# target; Triton atomic_load_store_kernel)
_FENCE_PARTS = frozenset({"MEMBAR", "ERRBAR", "CGAERRBAR", "CCTL", "FENCE"})
_NO_DEST = frozenset({"STG", "STS", "ST", "STL", "RED", "REDG", "BAR", "MEMBAR", "ERRBAR", "CGAERRBAR", "CCTL",
                      "FENCE", "DEPBAR", "LDGDEPBAR", "LDGSTS", "ARRIVES", "BRA", "EXIT", "NOP"})
# PTX register names as ISel prints them: `%r12`, and the registers of an inline-asm scope (`p`, renamed `p_s1`
# when the name is taken), lower-case words that are no constant bank (`c[..]`) nor part of a number or label
_REG = lazy_compile(r"%[a-z]+\d+|(?<![\w.%$`])[a-z][a-z0-9_]*(?![\w\[])")


def _block_end(i) -> bool:
    """Does `i` end the stretch the BSSY rises in? A ballot (`VOTE.ANY R, PT, P` of a computed predicate) is an
    ordinary instruction of its block (nvcc stream_compaction: `BSSY ... VOTE.ANY; @!P STS; BAR; @P BRA`); a
    VOTE of the active lanes (`VOTE.ANY R, PT, PT`: a loop test's first half, __activemask) still ends it
    (docs/findings/convergence.md "A ballot does not hold back the BSSY"; probes warp/bssy_vote_*)."""
    if i.opcode == "VOTE":
        return not i.operands or i.operands[-1].lstrip("!") == "PT"
    return i.opcode in _BLOCK_ENDS


def _into(i, labels: set[str]) -> bool:
    """A branch to one of `labels` (a forward one into a merged block: ptxas predicates the region it jumps
    over; a backward one: a loop)."""
    return i.opcode == "BRA" and bool(i.operands) and i.operands[0][2:-1] in labels


def _regs(text: str) -> set[str]:
    return set(_REG.findall(text))


def _dest_uses(i) -> tuple[set[str], set[str]]:
    ops = i.operands
    if not ops or i.opcode in _NO_DEST or ops[0].startswith("["):
        return set(), _regs(" ".join(ops) + " " + i.guard)
    if i.opcode == "B2R":                 # `B2R.RESULT RZ, P`: the predicate is written too
        return _regs(" ".join(ops)), _regs(i.guard)
    return _regs(ops[0]), _regs(" ".join(ops[1:]) + " " + i.guard)


def place_convergence_barriers(instrs: list, merged: set[int] = frozenset(), target=None,
                               stalls: set = frozenset(), placed: set = frozenset(),
                               window_symbols: frozenset = frozenset()) -> None:
    """Move each BSSY (with the BMOV.32.CLEAR before it) up to where ptxas's scheduler issues it. `merged`:
    ids of the first instructions of blocks ptxas's if-conversion merges into the block before them (an
    if region it predicates and its join); the branch into them is no block end either. `stalls`: ids of the
    instructions the scheduler issued after a run's first variable-latency wait (_hoist_to_first_stall). `placed`:
    ids of the BSSYs the scheduler placed (schedule.BSSY_SCHEDULED): they stay. `window_symbols`: the shared
    variables whose address is the cluster window's base plus an offset (SHARED_WINDOW_ADDRESS targets; else
    empty): a join that forms one waits for the base (_in_window_base_wait)."""
    acquire_stall = target is not None and target.has("BSSY_IN_ACQUIRE_STALL")
    cctl_before_last = target is not None and target.has("BSSY_BEFORE_LAST_ACQUIRE_ATOMIC")
    below_membar = target is not None and target.has("BSSY_BELOW_MEMBAR")
    join_bar_load = target is not None and target.has("BSSY_AFTER_JOIN_BARRIER_BEFORE_LOAD")
    bar_run = target is not None and target.has("BSSY_AFTER_BARRIER_RUN")
    b2r_wait = target is not None and target.has("BSSY_IN_B2R_WAIT")
    param_base = const_bank(target)[:2] if target is not None and target.has("JOIN_BARRIER_WAITS_TESTED_PARAM") \
        else None
    merged_labels = {i.label for i in instrs if id(i) in merged and i.label}
    for k, first, start in _open_stretches(instrs, merged, merged_labels, skip=placed):
        if _after_mask_warpsync(instrs, start, first, target):
            _move_bssy(instrs, first, k, start)
            continue
        if _guarded_region(instrs, k) and _load_guards_crowd_predicates(instrs, start, first):
            start = _after_last_shuffle(instrs, start, first)
            at = _above_trailing_barriers(instrs, start, first, acquire_stall, bar_run)
            if at < first:
                _move_bssy(instrs, first, k, at)
            continue
        head = None if _store_run_pair(instrs, k) else _after_loop_head_access(instrs, start, first)
        if head is not None:
            at = max(head, _after_condition_load(instrs, start, first, k))
            if at < first:
                _move_bssy(instrs, first, k, at)
            continue
        fed = _load_fed_shuffle(instrs, start, first)
        if fed is not None:
            _move_bssy(instrs, first, k, fed)
            continue
        if not _redux_first_stage(instrs, start, first):
            start = _after_last_shuffle(instrs, start, first)
        if acquire_stall and not any(_into(instrs[j], merged_labels) for j in range(start, first)):
            at = _acquire_stall(instrs, start, first, cctl_before_last)
            if at is not None:
                if at < first:
                    _move_bssy(instrs, first, k, at)
                continue
        if below_membar:
            if _below_membar(instrs, start, first):
                at = _above_trailing_barriers(instrs, start, first, acquire_stall, bar_run)
                if at == first and first >= 2 and instrs[first - 1].opcode == "CCTL" \
                        and instrs[first - 2].opcode in _MEMBAR_TAIL:
                    at = first - 1          # a fence's acquire CCTL.IVALL last in the block is issued after it
                if at < first:
                    _move_bssy(instrs, first, k, at)
                continue
        late = _in_flight_at_join(instrs, start)   # registers a long-latency op or a waiting instruction writes
        ordered = False                   # a memory op or fence so far waits: the barriers/fences after it do
        # a load or atomic is in flight: a CTA barrier waits for it (at a join, also the uniform reload of the kernel
        # parameter its branch compares: JOIN_BARRIER_WAITS_TESTED_PARAM)
        loading = param_base is not None and _join_tests_param(instrs, start, first, k, param_base)
        at = first
        # a merged region on the way: (its join, its branch's guard registers, the branch's index)
        predicated: tuple[str, set[str], int] | None = None
        for j in range(start, first):
            i = instrs[j]
            d, u = _dest_uses(i)
            if predicated is not None and i.label == predicated[0]:
                predicated = None
            if predicated is not None:            # ptxas predicates it on the branch's condition
                u |= predicated[1]
            if _into(i, merged_labels) and i.guard:
                predicated = (i.operands[0][2:-1], _regs(i.guard), j)
            waits = bool(u & late) or ordered and i.opcode in _ORDERED or loading and i.opcode == "BAR" \
                or not below_membar and _release_store_fence(instrs, j, first) \
                or _proxy_fence_after_proxy_fence(instrs, start, j, first)
            if waits and (i.opcode not in _ISSUED_FIRST or _broadcast_of_atomic(instrs, start, j)) \
                    and is_sync(i.opcode, ", ".join(i.operands)):
                # inside a region pylower still branches over: before its branch (same sync order)
                at = j if predicated is None else predicated[2]
                if join_bar_load and predicated is None and i.opcode == "BAR" \
                        and _join_barrier_before_load(instrs, start, j, first) \
                        and (not bar_run or _tests_in_block(instrs, start, k)):
                    at = j + 1
                break
            # a fence waits for every memory access before it: a barrier after it waits for no load
            loading = i.opcode in _LOADS or loading and not _fence_part(instrs, j)
            if waits or i.opcode in _LONG_LATENCY:
                late |= d
                ordered |= waits and i.opcode in _MEMORY
            else:
                late -= d
        if at == first:
            at = _above_trailing_barriers(instrs, start, first, acquire_stall, bar_run)
            if at == first and b2r_wait:
                at = _in_b2r_wait(instrs, start, first)
        if window_symbols:
            wait = _in_window_base_wait(instrs, start, first, window_symbols)
            at = wait if wait < first else at
        at = max(at, _after_condition_load(instrs, start, first, k))
        if at < first:
            _move_bssy(instrs, first, k, at)
    _hoist_to_first_stall(instrs, merged, merged_labels, stalls, placed)
    _above_group_wait(instrs, merged, merged_labels, placed)
    if target is not None and target.has("BMOV_CLEAR_BEFORE_BSSY"):
        _clear_at_join(instrs)


_PARAM_OPERAND = lazy_compile(r"c\[0x0\]\[(0x[0-9a-f]+)\]")


def _join_tests_param(instrs: list, start: int, first: int, k: int, bank: tuple[int, int]) -> bool:
    """The stretch opens a join (a BSYNC starts it) and its region's branch tests a compare that reads a 32-bit
    kernel parameter as a direct operand (a register whose reaching definition is an LDC of the parameter, or the
    constant-bank operand):
    ptxas reloads that parameter in the join with a uniform LDCU (sm_100+) and the join's CTA barrier waits for it, the
    BSSY issued in that wait (`BSYNC LDCU:param BSSY BAR ISETP`; a parameter multiplied into the value is a vector
    LDC after the barrier, `BAR LDC BSSY IMAD`): docs/findings/scheduling.md "Constant-bank reads at a join and
    the BSSY (helper nvjoin31, stop 31)". A launch size the join reads too (`%ntid` of `ctaid*ntid+tid`) is loaded
    first, on the compare's longer path, and the barrier goes right after it, before the parameter's load
    (`BSYNC LDCU:ntid BAR ISETP LDCU:param BSSY`): then the rule does not apply. ptxas sinks the parameter's load
    into the join only past a pair that holds a loop (the pair this BSYNC closes, `_closes_loop`), and not in a join
    inside a loop: across an acyclic pair it loads the parameter once above it (`LDCU UR8` at the kernel's entry,
    probes phases/ifconvert_bar_join_index64), in a loop it holds it in a register loaded before the loop (probes
    phases/bssy_loop_head_*_bar_shfl); the join then has no load in flight (`BSYNC BAR ISETP LDCU64 BSSY`)."""
    param_base, sizes = bank
    join = next((j for j in range(max(start - 1, 0), min(start + 1, first)) if instrs[j].opcode == "BSYNC"), None)
    if join is None or not _closes_loop(instrs, join):
        return False
    above = {i.label for i in instrs[:start + 1] if i.label is not None}
    if any(_into(i, above) for i in instrs[first:]):
        return False                  # the join is inside a loop (a later branch goes back above it)
    for j in range(start, first):
        m = _PARAM_OPERAND.search(" ".join(instrs[j].operands[1:]))
        if m is not None and sizes <= int(m.group(1), 16) < sizes + 0x18:
            return False
    bra = _region_branch(instrs, k)
    if bra is None:
        return False
    guard = _regs(bra.guard)
    t = next((j for j in range(first - 1, start - 1, -1) if _dest_uses(instrs[j])[0] & guard), None)
    if t is None or instrs[t].opcode != "ISETP":
        return False
    test = instrs[t]
    def is_param(text: str) -> bool:
        m = _PARAM_OPERAND.search(text)
        return m is not None and int(m.group(1), 16) >= param_base
    srcs = test.operands[1:]
    if any(is_param(o) for o in srcs):
        return True
    for reg in _regs(" ".join(srcs)):
        d = _reaching_definition(instrs, reg, t, start)
        if d is not None and d.opcode == "LDC" and "64" not in d.mods and is_param(" ".join(d.operands[1:])):
            return True
    return False


def _reaching_definition(instrs: list, reg: str, at: int, start: int):
    """The one definition of `reg` that reaches instrs[at]: the last write before it in its straight-line stretch
    (from `start`), else the register's only write in the function (pre-allocation names are not unique per value:
    a register written twice elsewhere has no single reaching definition here); None when there is none."""
    for j in range(at - 1, start - 1, -1):
        if reg in _dest_uses(instrs[j])[0]:
            return instrs[j]
    writers = [i for i in instrs if reg in _dest_uses(i)[0]]
    return writers[0] if len(writers) == 1 else None


def _above_group_wait(instrs: list, merged, merged_labels: set, placed=frozenset()) -> None:
    """A BSSY the rules above leave below a `DEPBAR.LE` that waits for the cp.async group its stretch commits
    (`LDGDEPBAR` before it) goes right after the commit: ptxas issues it there, above the wait and the CTA
    barriers around it, on every target (docs/findings/async.md "The BSSY in a cp.async group wait's stall
    (helper nv27async, stop 27)"; probes async/bssy_group_wait_*). Only over waits, CTA barriers and non-sync
    work: another sync instruction after the commit keeps the placement the rules chose. A BSSY the scheduler
    placed moves too: its run starts after the wait (a join whose next if's test moved above the region before it,
    isel/join_hoist.py hoist_guard_tests)."""
    for k, first, start in _open_stretches(instrs, merged, merged_labels):
        commit = next((j for j in range(start, first) if instrs[j].opcode == "LDGDEPBAR"), None)
        if commit is None or not any(instrs[j].opcode == "DEPBAR" for j in range(commit + 1, first)):
            continue
        if all(instrs[j].opcode in ("DEPBAR", "BAR") or not is_sync(instrs[j].opcode)
               for j in range(commit + 1, first)):
            _move_bssy(instrs, first, k, commit + 1)


def _hoist_to_first_stall(instrs: list, merged, merged_labels: set, stalls: set, placed=frozenset()) -> None:
    """A BSSY the rules above leave below the first stall of its block's last scheduled run (the first wait for a
    variable-latency result) goes up into that stall: ptxas's scheduler issues it there (docs/findings/convergence.md
    "The BSSY in the first variable-latency stall (helper w2bssy, stop 26)"). `stalls`: the id()s of those
    instructions, as the scheduler marked them (schedule._list_schedule)."""
    from .schedule import CONTROL
    if not stalls:
        return
    for k, first, start in _open_stretches(instrs, merged, merged_labels, CONTROL, skip=placed):
        at = [j for j in range(start, first) if id(instrs[j]) in stalls]
        if _guarded_region(instrs, k) and _load_guards_crowd_predicates(instrs, start, first):
            continue                    # after the reduction's last shuffle (place_convergence_barriers)
        if _guarded_region(instrs, k):
            # the first stall after the block's last memory access or fence (ptxas's unit waits for those)
            # past a shared-memory exchange only with the reduction's shuffles (not a fence's barrier: `MEMBAR BAR BSSY`)
            at = [j for j in at if not any(instrs[x].opcode in _NO_HOIST_PAST - _EXCHANGE for x in range(j, first))
                  and (any(instrs[x].opcode == "SHFL" for x in range(j, first))
                       or not any(instrs[x].opcode in _EXCHANGE for x in range(j, first)))]
            if at:
                _move_bssy(instrs, first, k, at[0])
        elif at and not any(instrs[j].opcode in _NO_HOIST_PAST for j in range(at[0], first)):
            _move_bssy(instrs, first, k, at[0])


# a warp reduction's exchange through shared memory (`st.shared; bar.sync; ld.shared`): the BSSY of a guarded
# instruction's region passes it into the block's first stall
_EXCHANGE = frozenset({"BAR", "STS", "LDS"})


_CROWDED_LOAD_GUARDS = 8        # the block's own load guards that leave the region's test no P register early


def _load_guards_crowd_predicates(instrs: list, start: int, first: int) -> bool:
    """Does the block before the BSSY of a guarded instruction's region (`@p atom` after a reduction, Triton's
    masked tile loads) hold a butterfly reduction fed by loads under at least _CROWDED_LOAD_GUARDS distinct
    compares that the block makes itself (equal compares count once), its first shuffle before any CTA barrier after the loads? ptxas then issues the region's test (`ISETP P0, tid`) late, in the
    reduction's last shuffles, and the BSSY after the last shuffle (`LDG x8 .. SHFL x5 BAR LDS BAR SHFL; ISETP;
    SHFL; BSSY; @P0 BRA`); with fewer such guards, unguarded loads or guards made before the block (a loop-
    invariant column mask) it issues both early, in the loads' stall (tools/variations/reduce_atomic_bssy.py;
    docs/findings/convergence.md "The BSSY of a reduce-then-atomic region (helper tpers37, stop 37)")."""
    # the guarded loads whose value the block reads (ptxas deletes an unread one, and its guard with it): one
    # backward pass over the block's reads
    read, later = set(), set()
    for j in range(first - 1, start - 1, -1):
        d, u = _dest_uses(instrs[j])
        if instrs[j].opcode == "LDG" and instrs[j].guard and d & later:
            read.add(j)
        later |= u
    written: dict[str, tuple] = {}      # predicate -> the compare that writes it (ptxas merges equal compares)
    guards: set[tuple] = set()
    loaded = False
    for j in range(start, first):
        i = instrs[j]
        d, _u = _dest_uses(i)
        if j in read:
            guards |= {written[r] for r in _regs(i.guard) if r in written}
            loaded = True
        elif i.opcode == "BAR" and loaded:
            return False                # a barrier before the shuffles (a shared-memory pre-reduction): early
        elif i.opcode == "SHFL" and loaded:
            return "BFLY" in i.mods and len(guards) >= _CROWDED_LOAD_GUARDS
        for r in d:
            if _PRED.fullmatch(r):
                written[r] = (i.opcode, i.mods, tuple(i.operands[1:]))
    return False


def _guarded_region(instrs: list, k: int) -> bool:
    """Is the BSSY at `k` the pair of one guarded PTX instruction's region (`@p atom`, Triton's inline-asm form:
    guarded instructions up to its BSYNC, no branch), which ptxas branches around (`BSSY; @!P BRA; ...; BSYNC`)?
    ptxas issues its BSSY in the block's first stall past a reduction's shared-memory exchange (`BSSY SHFL x5 BAR
    SHFL x2 BAR`, loop exit `SHFL BSSY SHFL x4 BAR SHFL x2 BAR`; tools/variations/loop_exit_guarded_atomic.py)."""
    bar = instrs[k].operands[0] if instrs[k].operands else None
    guarded = 0
    for i in instrs[k + 1:]:
        if i.opcode == "BSYNC" and i.operands and i.operands[0] == bar:
            return guarded > 0
        if not i.guard or i.opcode in _BLOCK_ENDS or i.label is not None:
            return False
        guarded += 1
    return False


def _open_stretches(instrs: list, merged, merged_labels: set, stop_after: frozenset = frozenset(),
                    skip=frozenset()):
    """(k, first, start) for each BSSY a placement rule may move, read as `instrs` changes: k its index, first
    that of its BMOV.32.CLEAR (else k), start the first instruction of the straight-line stretch before it (regions
    pylower predicates are part of it; the stretch also ends after an opcode in `stop_after`). A guarded BSSY, or
    one opening its block, stays where it is: a guarded BSSY opens a region nested in one pylower predicates, and
    ptxas's BSSY is the first instruction after that region's branch, below the block's barriers (Triton
    atomic_fadd_kernel fp16_acq_rel_gpu on sm_90: `BSSY BAR BAR @!P BRA; BSSY loop`; docs/findings/convergence.md
    "A nested pair's BSSY stays in its region (helper tatom, stop 20)"). A loop's first block starts a stretch even
    when it is also the join of an if pylower predicates: ptxas's block begins at the loop head, whose back edge
    enters it (`@p LDG; loop: STS; BSSY; ...; BAR; SHFL.UP x5; @p STS; BAR; @P BRA`, the keys-only CUB radix sort
    below sm_90; docs/findings/convergence.md "A loop head that is also a predicated if's join starts the BSSY's
    block (helper nvjoin34, stop 34)")."""
    k = 0
    while k < len(instrs):
        if instrs[k].opcode == "BSSY" and id(instrs[k]) not in skip:
            first = k - 1 if k > 0 and instrs[k - 1].opcode == "BMOV" and "CLEAR" in instrs[k - 1].mods else k
            if not (instrs[first].label is not None and id(instrs[first]) not in merged or instrs[k].guard):
                start = first
                while start > 0 and (instrs[start].label is None or id(instrs[start]) in merged
                                     and not _loop_head(instrs, start, first)) \
                        and (not _block_end(instrs[start - 1]) or _into(instrs[start - 1], merged_labels)) \
                        and instrs[start - 1].opcode not in stop_after:
                    start -= 1
                yield k, first, start
        k += 1


# what a BSSY is not hoisted past into its block's first stall: memory and sync work the rules above order it after
# (docs/findings/convergence.md "The BSSY in the first variable-latency stall (helper w2bssy, stop 26)")
_NO_HOIST_PAST = frozenset({"MEMBAR", "FENCE", "CCTL", "ERRBAR", "CGAERRBAR", "BAR", "ATOM", "ATOMG", "ATOMS", "RED",
                            "REDG", "REDUX", "LDG", "STG", "ST", "LD", "STS", "LDS", "SYNCS", "DEPBAR", "LDGSTS",
                            "ARRIVES", "UCGABAR_ARV", "UCGABAR_WAIT", "B2R", "VOTE", "VOTEU", "WARPSYNC"})
_MEMBAR_TAIL = frozenset({"ERRBAR", "CGAERRBAR"})


def _in_b2r_wait(instrs: list, start: int, first: int) -> int:
    """Below sm_90 a B2R.RESULT waits for the BAR.RED before it: a BSSY that stays behind a reduction barrier
    starting its stretch (after a join's WARPSYNC, or a fence) is issued in that wait, before the B2R
    (`WARPSYNC BAR.RED BSSY B2R`; sm_90+ `BAR.RED B2R BSSY`). A BAR.RED after other work of its block is
    passed by the BSSY as any barrier (_above_trailing_barriers). Probes phases/bssy_b2r_wait_*;
    docs/findings/convergence.md "The BSSY in a B2R's wait below sm_90 (helper llvm26, stop 26)"."""
    if first - start >= 2 and instrs[start].opcode == "BAR" and "RED" in instrs[start].mods \
            and instrs[start + 1].opcode == "B2R":
        return start + 1
    return first

_MASKED_COLLECTIVES = frozenset({"SHFL", "MATCH", "VOTE", "REDUX", "CREDUX"})


def _after_mask_warpsync(instrs: list, start: int, first: int, target) -> bool:
    """sm_90+ (PER_THREAD_MASK_FORMS): does the BSSY's stretch start right after the inline `WARPSYNC Rmask` of a
    warp collective it opens with (a per-lane member mask in a loop)? ptxas issues the BSSY there, between the
    WARPSYNC and the collective, when the collective waits for a load of its block or is a VOTE (nvcc/
    hist_match_syncthreads_predicates hist_aggregated `VOTE.ANY; WARPSYNC R; BSSY; MATCH.ANY`; probes
    phases/bssy_after_mask_warpsync_*, bssy_mask_wait_*, bssy_mask_vote_alu; docs/findings/convergence.md "The BSSY
    after a member mask's WARPSYNC (helper nvcub26, stop 26)"); a ready SHFL / MATCH / REDUX goes first
    (phases/bssy_mask_ready_*)."""
    if target is None or not target.has("PER_THREAD_MASK_FORMS") or start == 0 or start >= first:
        return False
    w = instrs[start - 1]
    if not (w.opcode == "WARPSYNC" and not w.mods and bool(w.operands) and not w.guard
            and instrs[start].opcode in _MASKED_COLLECTIVES):
        return False
    # the BSSY fills the collective's wait: a SHFL / MATCH / REDUX whose operands are ready (computed in the
    # block from no load) issues first, the BSSY after it; a VOTE never goes ahead of the BSSY
    # (docs/findings/convergence.md "A ready collective after a member mask's WARPSYNC goes before the BSSY
    # (helper llvm31, stop 31)")
    return instrs[start].opcode == "VOTE" or (w.label is None and _waits_for_load(instrs, start, start - 2))


def _waits_for_load(instrs: list, at: int, k: int) -> bool:
    """Does instrs[at] read (through the instructions of its block from instrs[k] back) a value a load of its
    block gives?"""
    need = _dest_uses(instrs[at])[1] - {"RZ", "PT", "URZ", "UPT"}
    while k >= 0 and need:
        x = instrs[k]
        # the read of the active lanes the WARPSYNC's mask comes from ends no block for the walk (the scheduler may
        # issue it after the load: ACTIVEMASK_READ_NO_FILLER, `LDG IMAD.HI VOTE.ANY WARPSYNC R BSSY MATCH`)
        if x.opcode in _BLOCK_ENDS and not x.reads_active_lanes:
            break
        defs, uses = _dest_uses(x)
        if defs & need:
            if x.opcode in _CONDITION_LOADS or x.opcode in _LOADS:
                return True
            need = (need - defs) | (uses - {"RZ", "PT", "URZ", "UPT"})
        if x.label is not None:
            break
        k -= 1
    return False


def _clear_at_join(instrs: list) -> None:
    """sm_75: a BSSY issued after the CTA barriers that start a join block (`BSYNC BAR BSSY`, section 3's
    rule) keeps its BMOV.32.CLEAR at the join, before the barriers, when the block computes nothing its
    branch tests (`BSYNC BMOV.32.CLEAR BAR BSSY @P BRA`); when the block computes the branch condition from a
    value it computes the clear stays with its BSSY (`BSYNC BAR LDG ISETP BMOV.32.CLEAR BSSY`). A compare of
    values from before the block ptxas hoists out of it, unless seven predicate registers are live there.
    Findings: docs/findings/convergence.md "sm_75's BMOV.32.CLEAR at a join (helper tatom, stop 20)"; probes
    phases/bmov_join_*, bmov_loop_head_bar."""
    for k, i in enumerate(instrs):
        if i.opcode != "BSSY" or k < 2 or instrs[k - 1].opcode != "BMOV" or "CLEAR" not in instrs[k - 1].mods:
            continue
        head = k - 1                      # the join block's first instruction
        while head > 0 and instrs[head].label is None and instrs[head - 1].opcode not in _BLOCK_ENDS:
            head -= 1
        syncs = [x for x in instrs[head:k - 1] if is_sync(x.opcode, ", ".join(x.operands))]
        if not syncs or any(x.opcode != "BAR" for x in syncs):
            continue
        if any(x.opcode == "BAR" for x in _until_block_end(instrs, k + 1)):
            continue                      # a BSSY between the join's barriers keeps its clear (`BAR BMOV B STS BAR`)
        # the region's branch (or its first guarded instruction, where pylower guards the body)
        end = next((e for e in range(k + 1, len(instrs)) if instrs[e].guard
                    or instrs[e].opcode in _BLOCK_ENDS or instrs[e].label is not None), None)
        if end is None or not instrs[end].guard:
            continue
        tested = _regs(instrs[end].guard)
        varying = _loop_defs(instrs, head)     # a loop's first block: ptxas hoists a loop-invariant compare
        if varying is None:                    # elsewhere a compare of values the block does not compute, when
            varying = set()                    # a predicate register is free for it (at most 7: P0-P6)
            for x in instrs[head:end]:
                varying |= _dest_uses(x)[0]
            if _live_predicates(instrs, head) >= _PREDICATES:
                varying = None
        if any(_dest_uses(x)[0] & tested and (varying is None or _dest_uses(x)[1] & varying)
               for x in instrs[head:end]):
            continue
        bmov = instrs.pop(k - 1)
        if len(syncs) > 1:                # after several barriers: before the last one (`BAR BMOV.32.CLEAR BAR B`)
            instrs.insert(next(j for j in range(k - 2, head - 1, -1) if instrs[j] is syncs[-1]), bmov)
            continue
        bmov.label, instrs[head].label = instrs[head].label, None
        instrs.insert(head, bmov)


def _until_block_end(instrs: list, j: int) -> list:
    """The instructions from `j` up to the end of its block (its branch, exit or the next label)."""
    out = []
    for i in instrs[j:]:
        if i.label is not None or i.opcode in _BLOCK_ENDS:
            break
        out.append(i)
    return out


_PREDICATES = 7          # P0-P6
_PRED = lazy_compile(r"%p\d+")


def _live_predicates(instrs: list, at: int) -> int:
    """How many predicate registers written before `at` are read at or after it (straight-line view)."""
    before: set[str] = set()
    for x in instrs[:at]:
        before |= {r for r in _dest_uses(x)[0] if _PRED.fullmatch(r)}
    live: set[str] = set()
    dead: set[str] = set()
    for x in instrs[at:]:
        d, u = _dest_uses(x)
        live |= {r for r in u if r in before and r not in dead}
        dead |= d
    return len(live)


def _loop_defs(instrs: list, head: int) -> set[str] | None:
    """The registers written inside the loop whose first block starts at `head` (None: not a loop head)."""
    label = instrs[head].label
    if label is None:
        return None
    back = [e for e in range(head, len(instrs)) if instrs[e].opcode == "BRA" and f"`({label})" in instrs[e].operands]
    if not back:
        return None
    out: set[str] = set()
    for x in instrs[head:back[-1] + 1]:
        out |= _dest_uses(x)[0]
    return out


def _below_membar(instrs: list, start: int, first: int) -> bool:
    """Below sm_90 the BSSY is not issued above a MEMBAR that orders beyond the CTA (MEMBAR.SC/ALL.GPU/SYS
    with its ERRBAR: membar.gl, fence.sc/acq_rel.gpu, a release store or atomic at gpu/sys scope) nor above a
    release memory op of any scope (st.release.cta is `MEMBAR.ALL.CTA; ST`, one PTX line); a CTA fence of its
    own (membar.cta, fence.acq_rel.cta) does not hold it back. After one it stays at its branch, even where
    a later instruction waits for a load (`MEMBAR.SC.GPU ERRBAR CCTL LDG; VOTEU RED(ldg) BSSY`), but above
    the CTA barriers right before it (`CCTL BSSY BAR`) and above an sc fence's CCTL.IVALL that ends the block
    (`MEMBAR.SC.GPU ERRBAR BSSY CCTL`). Findings:
    convergence.md section 24.1; probes phases/bssy_below_membar_*."""
    for j in range(start, first):
        i = instrs[j]
        if i.opcode == "MEMBAR" and ("CTA" not in i.mods or any(
                x.opcode in _MEMORY and x.line == i.line for x in instrs[j + 1:first])):
            return True
    return False


_STORES = frozenset({"STG", "ST", "STS"})
_SHARED = frozenset({"STS", "LDS"})


def _proxy_fence_view(i) -> bool:
    return i.opcode == "FENCE" and "VIEW" in i.mods and "ASYNC" in i.mods


def _proxy_fence_after_proxy_fence(instrs: list, start: int, j: int, first: int) -> bool:
    """A proxy fence (`fence.proxy.async*`: FENCE.VIEW.ASYNC.<G|S>, the .shared/generic forms led by MEMBAR.ALL.*)
    after another one of the stretch waits for it: ptxas issues the BSSY between the two (`BSYNC
    FENCE.VIEW.ASYNC.G BSSY MEMBAR.ALL.GPU FENCE.VIEW.ASYNC.S`, `BSYNC MEMBAR FENCE.VIEW.ASYNC.S BSSY
    FENCE.VIEW.ASYNC.G`); a membar.gl after one does not wait (`FENCE.VIEW.ASYNC.G MEMBAR.SC.GPU ERRBAR CGAERRBAR
    CCTL.IVALL BSSY`). Probes phases/bssy_proxy_fence_*; docs/findings/fence.md "A proxy fence after a proxy
    fence stalls (helper llvmnb, stop 23)"."""
    i = instrs[j]
    if not any(_proxy_fence_view(x) for x in instrs[start:j]):
        return False
    if _proxy_fence_view(i):
        return True
    if i.opcode != "MEMBAR" or "ALL" not in i.mods:
        return False
    n = j
    while n < first and instrs[n].opcode == "MEMBAR" and "ALL" in instrs[n].mods:
        n += 1
    return n < first and _proxy_fence_view(instrs[n])


def _release_store_fence(instrs: list, j: int, first: int) -> bool:
    """sm_90+: the MEMBAR of a release store (`st.release.gpu` is `MEMBAR.ALL.GPU ERRBAR CGAERRBAR ST`,
    `st.release.cta` `MEMBAR.ALL.CTA ST`: a store of the same PTX line follows) stalls the issue; the BSSY is
    issued before it, whatever the instructions before it wait for (nvcc/decoupled_lookback_scan: `LDS ... BSSY
    MEMBAR ERRBAR CGAERRBAR ST` before the look-back loop; probes phases/bssy_release_store_*). Not the MEMBAR
    of a release atomic or reduction (`MEMBAR ATOMG B`, section 24.1), nor a fence of its own (`MEMBAR ERRBAR
    CCTL VOTEU RED B`). docs/findings/convergence.md "The BSSY above a release store's MEMBAR"."""
    i = instrs[j]
    return i.opcode == "MEMBAR" and any(
        x.opcode in _STORES and x.line == i.line for x in instrs[j + 1:min(j + 4, first)]) \
        and not any(x.opcode in _MEMORY and x.opcode not in _STORES and x.line == i.line for x in instrs[j + 1:first])


def _region_branch(instrs: list, k: int):
    """The guarded BRA of the region whose BSSY is at `k` (right after it, or after its BMOV), else None."""
    return next((i for i in instrs[k + 1:k + 3] if i.opcode == "BRA" and i.guard), None)


def _after_condition_load(instrs: list, start: int, first: int, k: int) -> int:
    """The BSSY is not issued before the last load its region's branch condition depends on: ptxas issues it
    in that load's stall (numba/wide_atomics: `RED; LD.STRONG.SYS; BSSY; DSETP; @P0 BRA`, where the first
    waiting instruction, the RED of a loaded value, would put it above the RED; probes
    phases/bssy_after_condition_load_*); an atomic whose old value the condition tests alike (`LDG ATOMG.CAS BSSY`:
    docs/findings/convergence.md "The BSSY waits for an atomic its branch tests (helper llvm25, stop 25)").
    Returns the lowest index it may take."""
    bra = _region_branch(instrs, k)
    loads = _MEMORY_RESULTS
    if bra is None and _guarded_region(instrs, k):
        # pylower's predicated body of a guarded atomic (`BSSY; @p RED; BSYNC`), which ptxas branches around: its
        # guard is the branch's condition alike, but only a global load or atomic holds the BSSY (`BAR; LDG g;
        # ISETP p, g; @p RED` -> `BAR BSSY`); a guard read back from shared memory (Triton's mask layout exchange
        # `STS.U8; BAR; LDS.U8`) does not (`BSSY BAR LDS`) (tools/variations/loaded_guard_atomic.py;
        # docs/findings/atomic.md "A guarded atomic's guard loaded from global memory (helper tconv37, stop 37)")
        bra, loads = instrs[k + 1], _MEMORY_RESULTS - _SHARED
    if bra is None:
        return start
    need = _regs(bra.guard)
    for j in range(first - 1, start - 1, -1):
        d, u = _dest_uses(instrs[j])
        if not d & need:
            continue
        if instrs[j].opcode in loads or _phase_test(instrs[j]):
            return j + 1
        need |= u
    return start


def _phase_test(i) -> bool:
    """An mbarrier phase test (SYNCS.PHASECHK): a wait loop's exit test, like a load (nvcc/cuda_barrier_producer_
    consumer: `SYNCS.PHASECHK.TRANS64 P0; BSSY B1; @P0 BRA`; docs/findings/convergence.md
    "Loops whose divergent arm sleeps or syncs the warp carry per-lane values (helper nvasync, stop 21)")."""
    return i.opcode == "SYNCS" and "PHASECHK" in i.mods


def _acquire_cctl(instrs: list, j: int) -> bool:
    """The CCTL.IVALL of an acquire atomic (after its ATOM, with at most plain work between: below sm_90 the
    scheduler issues it on its own, docs/findings/scheduling.md "An acquire atomic's broadcast orders what
    follows it below sm_90 (helper nvatom25, stop 25)"): it waits until the atomic completes."""
    if instrs[j].opcode != "CCTL":
        return False
    k = _prev_sync(instrs, j)
    return k is not None and instrs[k].opcode in _ATOMICS


def _prev_sync(instrs: list, j: int) -> int | None:
    """The index of the last sync-family instruction before `j` in its stretch (no block end between), or None."""
    for k in range(j - 1, -1, -1):
        i = instrs[k]
        if is_sync(i.opcode, ", ".join(i.operands)):
            return k
        if i.label is not None or i.opcode in _BLOCK_ENDS:
            return None
    return None


def _fence_part(instrs: list, j: int) -> bool:
    """An instruction of a memory fence (MEMBAR ERRBAR [CGAERRBAR] [CCTL.IVALL]); an acquire atomic's own
    CCTL.IVALL is not one (`ATOMG CCTL B BAR BAR` on sm_90: Triton atomic_rmw_kernel)."""
    return instrs[j].opcode in _FENCE_PARTS and not _acquire_cctl(instrs, j)


def _acquire_stall(instrs: list, start: int, first: int, cctl_before_last: bool) -> int | None:
    """Below sm_90, in a block holding acquire atomics (ATOM + CCTL.IVALL), ptxas issues the BSSY in the stall
    of one of its waits: the CCTL.IVALLs (each waits for its atomic) and the sync instructions that wait for
    a load or atomic of the block (not for S2R). It takes the last wait when a memory instruction or barrier
    follows it before the branch (`ATOMG CCTL ATOMG B CCTL BAR`, Triton atomic_rmw_kernel), else the wait
    before it when only that wait's atomic lies between (`LDG B ATOMG(ldg) CCTL`; sm_80-89 also
    `ATOMG B CCTL ATOMG CCTL`, sm_75 not); never above a MEMBAR after it (`ATOMG CCTL MEMBAR B`).
    findings/convergence.md 10.1. None: no acquire atomic in the block (the general rule applies)."""
    stalls: list[int] = []
    late: set[str] = set()
    for j in range(start, first):
        i = instrs[j]
        d, u = _dest_uses(i)
        cctl = _acquire_cctl(instrs, j)
        if cctl or u & late and is_sync(i.opcode, ", ".join(i.operands)):
            stalls.append(j)
        if cctl:
            late -= _dest_uses(instrs[_prev_sync(instrs, j)])[0]
        elif i.opcode in _MEMORY_RESULTS:
            late |= d
        else:
            late -= d
    if not any(_acquire_cctl(instrs, j) for j in stalls):
        return None
    at = stalls[-1]
    followed = any(i.opcode in _MEMORY or i.opcode in _ORDERED or i.opcode in _LOADS for i in instrs[at + 1:first])
    if not followed and len(stalls) > 1:
        prev = stalls[-2]
        between = [i for i in instrs[prev:at] if is_sync(i.opcode, ", ".join(i.operands))]
        if _acquire_cctl(instrs, at) and between and between[-1] is instrs[_prev_sync(instrs, at)] \
                and (len(between) == 1 or cctl_before_last and len(between) == 2 and between[0].opcode == "CCTL"):
            at = prev
    if any(i.opcode == "MEMBAR" for i in instrs[at:first]):
        return first
    return at


def _move_bssy(instrs: list, first: int, k: int, at: int) -> None:
    """Move the BSSY instrs[k] (with its BMOV.32.CLEAR from `first`) up to index `at`."""
    group = instrs[first:k + 1]
    del instrs[first:k + 1]
    if instrs[at].label is not None:
        group[0].label, instrs[at].label = instrs[at].label, None
    instrs[at:at] = group


def _shuffles_after_barrier(instrs: list, j: int, first: int) -> int:
    """The shuffles between the first CTA barrier of instrs[j:first] and the BSSY (-1: no barrier). With none, the
    barrier does not keep the BSSY after the load-fed collective (nvcc/cluster_dims_row_softmax's shape, probes
    phases/bssy_load_stall_*); with shuffles after it, it does (Triton last_block_reduce_kernel)."""
    bar = next((x for x in range(j, first) if instrs[x].opcode == "BAR"), None)
    if bar is None:
        return -1
    return sum(1 for x in range(bar + 1, first) if instrs[x].opcode == "SHFL")


def _load_fed_shuffle(instrs: list, start: int, first: int) -> int | None:
    """The block's first warp shuffle when it waits for a global load of the block: ptxas issues the BSSY in
    that load's stall, before the shuffle (Triton cumsum_kernel: `@!P0 LDG; BSSY; SHFL.BFLY ...`;
    findings/convergence.md 8); an atomic's result does not do that (atomic_rmw_kernel min_sys_fp64), nor a
    shuffle with a CTA barrier between it and the BSSY that a shuffle follows (last_block_reduce_kernel; a barrier
    with no shuffle after it does not stop it: docs/findings/convergence.md "The BSSY in the load stall across a
    CTA barrier with no shuffle after it (helper trow26, stop 26)"). Warp ops earlier in the block
    (a ballot, a shuffle that waits for no load of its own) do not end the search: it starts again after them
    (nvcc/cub_warp_reduce_scan warp_segmented_and_alloc: `VOTE SHFL.DOWN x5 LDG BSSY SHFL.UP x5 @P BRA`; probes
    phases/bssy_load_fed_shfl_after_*; docs/findings/convergence.md "The BSSY before a load-fed shuffle after
    earlier warp ops (helper cub, stop 23)"). A shuffle issued while a global load of the block is still unread
    takes the BSSY too, whatever it reads (a Triton scan's constant-derived operand shuffled first:
    docs/findings/scheduling.md "A warp shuffle issued while a global load is in flight takes the BSSY (helper
    tscan31, stop 31)"; probes scheduling/bssy_shfl_load_in_flight*)."""
    loaded: set[str] = set()
    unread: set[str] = set()            # results of the block's global loads no instruction has read yet
    for j in range(start, first):
        i = instrs[j]
        d, u = _dest_uses(i)
        if i.opcode in _ISSUED_FIRST:
            if _shuffles_after_barrier(instrs, j, first) > 0:
                return None
            if u & loaded or unread:
                return j
            loaded = set()              # earlier warp ops: the search starts again after them
            continue
        unread -= u
        if i.opcode == "BAR":           # a CTA barrier after the loads: the BSSY goes after it (cumsum_carry)
            continue
        if is_sync(i.opcode, ", ".join(i.operands)):
            loaded = set()
            continue
        if i.opcode in _GLOBAL_LOADS or u & loaded:
            loaded |= d
        if i.opcode in _GLOBAL_LOADS:
            unread |= d
    return None


def _broadcast_of_atomic(instrs: list, start: int, j: int) -> bool:
    """Is instrs[j] an aggregated atomic's SHFL.IDX of the leader's old value (its source written by an ATOM of
    the block)? ptxas issues the BSSY in that atomic's stall, above it (`VOTEU ATOMG BSSY SHFL.IDX`: probes
    phases/bssy_agg_atom_used_*; nvcc/spin_flag_nanosleep; docs/findings/convergence.md "The BSSY above an
    aggregated atomic's SHFL.IDX (helper nvatom, stop 20)")."""
    i = instrs[j]
    if i.opcode != "SHFL" or "IDX" not in i.mods or len(i.operands) < 3:
        return False
    src = _regs(i.operands[2])
    for x in reversed(instrs[start:j]):
        d, _u = _dest_uses(x)
        if d & src:
            return x.opcode in _ATOMICS
    return False


def _after_last_shuffle(instrs: list, start: int, first: int) -> int:
    """The BSSY is issued after every warp shuffle of its block (but an aggregated atomic's broadcast,
    _broadcast_of_atomic): its search starts after the last one."""
    for j in range(first - 1, start - 1, -1):
        if instrs[j].opcode in _ISSUED_FIRST and not _broadcast_of_atomic(instrs, start, j):
            return j + 1
    return start


def _redux_first_stage(instrs: list, start: int, first: int) -> bool:
    """Is the block's first warp collective a REDUX (CREDUX) whose shuffles, if any, all come after a CTA barrier
    that follows it: an integer block reduction's first stage (Triton's `tl.max`/`tl.sum` of an integer tile from
    sm_80: `redux.sync; st.shared; bar; ld.shared; shfl.bfly xk; bar`)? ptxas issues the BSSY before that REDUX,
    in the wait of the values it reduces, whatever shuffles follow the exchange (`BSSY REDUX BAR SHFL BAR`);
    the search for the BSSY's place then does not start after the last shuffle (tools/variations/
    redux_exchange_atomic.py; docs/findings/scheduling.md "The BSSY of a guarded atomic after a REDUX block
    reduction (helper tshfl39, stop 39)")."""
    redux = False
    for j in range(start, first):
        op = instrs[j].opcode
        if op in WARP_COLLECTIVES and not redux:
            if op not in WARP_REDUCTIONS:
                return False
            redux = True
        elif op == "BAR" and redux:
            return True
    return False


def _store_run_pair(instrs: list, k: int) -> bool:
    """Is the BSSY at `k` the pair of a run of guarded stores (phase 72's store runs: predicated stores and
    register work up to its BSYNC, no branch)? ptxas places it as in any block, not by the loop-head rule:
    `loop: LDG ...; BAR; BSSY; SHFL.UP ...; @p STS; @p STS` where the pair of a branch in the same place goes
    above the barrier (Triton cumsum_carry; probes phases/bssy_loop_head_store_run_bar_shfl and
    bssy_loop_head_branch_bar_shfl; docs/findings/convergence.md "Guarded-store pairs in a loop's first block")."""
    bar = instrs[k].operands[0] if instrs[k].operands else None
    stores = 0
    for i in instrs[k + 1:]:
        if i.opcode == "BSYNC" and i.operands and i.operands[0] == bar:
            return stores > 0
        if i.opcode in _STORES and i.guard:
            stores += 1
        elif i.opcode in _BLOCK_ENDS or i.opcode in _MEMORY_ACCESS or is_sync(i.opcode, ", ".join(i.operands)):
            return False
    return False


def _loop_head(instrs: list, start: int, first: int) -> bool:
    """Does the block starting at `start` begin a loop (a later branch goes back to its label)?"""
    label = instrs[start].label
    return label is not None and any(i.opcode == "BRA" and f"`({label})" in i.operands for i in instrs[first:])


def _after_loop_head_access(instrs: list, start: int, first: int) -> int | None:
    """In a loop's first block ptxas issues the BSSY early, right after the block's first memory access,
    above every sync instruction after it: shuffles and CTA barriers alike (nvcc/cub_block_radix_sort:
    `loop: STS; BSSY; STS ...; BAR; LDS ...; SHFL.UP x5; @!P0 STS; BAR; @P BRA`, cub_block_scan_prefix_
    callback: `loop: @!P0 LDG; @!P1 LDG; BSSY; STS; STS; BAR ...`). None: not a loop's first block, or no
    memory access before the branch."""
    if not _loop_head(instrs, start, first):
        return None
    j = next((j for j in range(start, first) if instrs[j].opcode in _MEMORY_ACCESS | _ISSUED_FIRST), None)
    return None if j is None else j + 1


def _above_trailing_barriers(instrs: list, start: int, first: int, acquire_stall: bool = False,
                             bar_run: bool = False) -> int:
    """Where a BSSY goes that nothing before it in its block waits for: ptxas issues it before the CTA
    barriers right before it in the sync view (probes/convergence/bssy_bar_*: BSSY BAR BRA, numba
    histogram_shared), but not before a barrier that starts its block (after a join, a WARPSYNC: nvcc
    cuda_pipeline_memcpy_async, llvm/atomics_float_types); in a loop's first block only the barriers after
    the block's first memory access (`loop: BAR; STS; BAR; @p BRA` -> `BAR B STS BAR`, nvcc/cub_warp_merge_sort
    block_merge_sort_desc; `loop: BAR; @p BRA` -> `BAR B`, Triton spin_lock_accumulate_kernel: the loop starts
    with its barrier once the loop-invariant compare before it is hoisted; probes phases/bssy_loop_head_*), and
    not before barriers that follow a fence (_FENCE_PARTS); else it stays at its branch."""
    label = instrs[start].label
    lead = None
    if start > 0 and instrs[start - 1].opcode == "BSYNC":
        # work for the branch's test issued between the BSYNC and the first barrier (the compared index's
        # arithmetic) lets the BSSY go above the barriers as anywhere else; other work there does not (Triton
        # atomic_rmw_kernel's address IMAD.WIDE) (llvm/atomics_rmw_ops histogram_privatized `BSYNC IMAD BSSY BAR
        # ISETP BRA`; probes phases/bssy_bar_after_join_work_*; docs/findings/convergence.md "A barrier after a
        # join: work before it lets the BSSY pass (helper llvmnb, stop 22)")
        # Only after a loop: after an if, ptxas has computed such a test above the if already (a run of
        # compare-and-swap ifs between barriers, each testing `tid ^ k`: `BSYNC BAR BSSY`, the tests hoisted to
        # the entry; docs/findings/convergence.md "After an if, test work is no reason (stop 22)").
        if _barrier_run(instrs, start, first) \
                and _guarded_region(instrs, first + 1 if instrs[first].opcode == "BMOV" else first) \
                and _live_predicates(instrs, first) > _PREDICATES:      # last: it reads the whole listing
            # a guarded atomic's region (`@p atom`, Triton's masked form) with more predicates live across the join
            # than P registers (P0-P6): ptxas holds the guard in a general register, restores it after the block's
            # barriers and opens the region there (`BSYNC BAR BAR ISETP.NE P6, R; BSSY; @P6 BRA`), past register
            # work between the barriers too; memory work between them (a shared-memory exchange: `BSYNC BAR B STS..
            # BAR LDS`) and a region with a branch inside (a compare-and-swap loop, Triton atomic_fadd_kernel
            # fp16_acq_rel_gpu: `BSYNC BAR SGXT B .. BAR ISETP.NE P6, R`) keep the BSSY after the first barrier
            # (tools/variations/bar_release_region.py; docs/findings/atomic.md "The BSSY after a join's barriers when
            # the guards do not fit in P registers (helper tatom35, stop 35)")
            return first
        if _in_loop_body(instrs, start, first) and _barrier_run(instrs, start, first) \
                and sum(instrs[j].opcode == "BAR" for j in range(start, first)) > 1 \
                and not any(instrs[j].opcode in _MEMORY_ACCESS for j in range(start, first)):
            # a join inside a loop body (a persistent tile loop's second guarded atomic after the first one's
            # barriers) whose block is a run of two or more CTA barriers and register work: the BSSY follows the
            # whole run (`BSYNC BAR BAR ISETP BSSY`), where straight code passes the barriers after the first
            # (`BSYNC BAR BSSY BAR`); tools/variations/join_bar_guard_compare.py (docs/findings/convergence.md
            # "A join's barrier run in a loop body is not passed (helper tbssy39, stop 39)")
            return first
        bar = next((j for j in range(start, first) if instrs[j].opcode == "BAR"), first)
        feeds = _closes_loop(instrs, start - 1) and any(
            instrs[j].opcode not in _FOLDED for j in _feeding_test(instrs, start, first) if j < bar)
        # else, at a join whose block starts (past register work and shared-memory accesses) with a CTA barrier,
        # only the barriers after that one are passed (`BSYNC BAR B BAR`, `BSYNC STS BAR B LDS BAR`); after a
        # global memory access the block's trailing barriers are (`BSYNC RED B BAR BAR`, `BSYNC STG B BAR BAR`)
        # (docs/findings/convergence.md "The BSSY after a join's first CTA barrier (helper tatom, stop 22)")
        for j in range(start, first if not feeds else start):
            i = instrs[j]
            if i.opcode == "BAR":
                lead = start = j
                break
            if is_sync(i.opcode, ", ".join(i.operands)) or i.opcode in _MEMORY_ACCESS and i.opcode not in _SHARED:
                break
    elif instrs[start].opcode == "BAR":
        if _after_own_warpsync(instrs, start, first):
            return start
        lead = start
    elif _after_loop_exit(instrs, start):
        # a loop's exit block, on every target: the run of barriers that starts it (past register work,
        # stores and waits for async copies) is not passed (`@P BRA loop; BAR B STS BAR`, `BAR BAR B`,
        # `DEPBAR BAR B STS BAR`); a global load before the first barrier makes it wait (`LDG B BAR`);
        # probes phases/bssy_loop_exit_*;
        # docs/findings/convergence.md "The BSSY after the barriers that start a loop's exit block (helper tbw25, stop 25)"
        j = _loop_exit_barrier(instrs, start, first)
        if j is not None:
            lead = start = j
            bar_run = True
    if bar_run and lead == start:
        # sm_75: nor the barriers right after that first one (`BAR BMOV.32.CLEAR BAR BSSY`, but `BAR B STS BAR`)
        for j in range(lead + 1, first):
            if instrs[j].opcode == "BAR":
                start = j
            elif instrs[j].opcode in _MEMORY_ACCESS or is_sync(instrs[j].opcode, ", ".join(instrs[j].operands)):
                break
    if label is not None and any(i.opcode == "BRA" and f"`({label})" in i.operands for i in instrs[first:]):
        # a loop's first block: only the barriers after its first memory access are passed, and a barrier
        # whose id the loop computes anew in this block (`SEL R; BAR.SYNC R, 0x80`)
        start = min(min((j for j in range(start, first) if instrs[j].opcode in _MEMORY_ACCESS), default=first),
                    _loop_varying_barrier(instrs, start, first))
    bars: list[int] = []                  # the barriers right before the BSSY, last first
    for j in range(first - 1, start, -1):
        i = instrs[j]
        if i.opcode == "BAR":
            bars.append(j)
        elif i.opcode == "B2R":         # a reduction barrier's result read goes with it (sm_90+ keeps a dead one:
            continue                    # llvm/frontend_styles julia_count_matches `BSSY BAR BAR.RED B2R`)
        elif is_sync(i.opcode, ", ".join(i.operands)):
            if _fence_part(instrs, j) and bars:
                # the first barrier waits for the fence, the BSSY is issued after it (`MEMBAR BAR B BAR`);
                # below sm_90 an acquire fence's CCTL.IVALL stall takes it first (`CCTL B BAR BAR`)
                if i.opcode == "CCTL" and acquire_stall:
                    return bars[-1]
                return bars[-2] if len(bars) > 1 else first
            break
    return bars[-1] if bars else first


def _barrier_run(instrs: list, start: int, first: int) -> bool:
    """Do the CTA barriers between `start` and `first` have no memory access or other sync instruction between
    them (register work only)?"""
    bars = [j for j in range(start, first) if instrs[j].opcode == "BAR"]
    return bool(bars) and not any(instrs[j].opcode in _MEMORY_ACCESS or instrs[j].opcode != "BAR"
                                  and is_sync(instrs[j].opcode, ", ".join(instrs[j].operands))
                                  for j in range(bars[0], bars[-1]))


def _in_window_base_wait(instrs: list, start: int, first: int, symbols: frozenset) -> int:
    """At a join (the stretch right after a BSYNC) that forms a shared variable's address, where that address is the
    cluster window's base plus an offset (sm_90+): ptxas issues the base's `S2UR SR_CgaCtaId` first in the block
    and its BSSY in the wait for it, right before the first shared access that needs the base (its `ULEA; LEA`),
    past the CTA barriers before that access and above those after it (probes/scheduling/bssy_join_window_base_*:
    `BSYNC S2UR UMOV ISETP BSSY ULEA LEA STS BAR BAR`, with a barrier before the STS `BSYNC S2UR BAR ISETP UMOV
    BSSY ULEA LEA STS BAR BAR`; sm_80, no window: `BSYNC STS BAR BSSY BAR`; nvcc/b27_tree_reduce). Not when the
    function formed a window address before the stretch (the base is in a register already), nor in a stretch with
    other sync instructions (a fence after the access holds the BSSY: `MEMBAR CCTL BAR BSSY`). Where it applies it
    overrides the barrier rules (`BSYNC BAR BAR BSSY ... STS` when the access follows both barriers). Not past a
    branch into a region ptxas predicates (nvcc/cub_block_reduce_algorithms block_reduce_commutative_sum sm_90:
    `BSYNC @P0 STS BAR ISETP BSSY`, the address formed before the join). The index
    of that access, else `first` (docs/findings/scheduling.md "The BSSY in a join's shared-window base wait
    (helper bssybar31, stop 31)")."""
    if start == 0 or instrs[start - 1].opcode != "BSYNC" or any(_forms_window(i, symbols) for i in instrs[:start]) \
            or any(i.opcode not in ("BAR", "B2R") and is_sync(i.opcode, ", ".join(i.operands))
                   for i in instrs[start:first]):
        return first
    formed: set[str] = set()
    for j in range(start, first):
        i = instrs[j]
        if i.opcode == "BRA":
            return first        # formed in a region ptxas predicates: it forms the address above the join
        d, u = _dest_uses(i)
        if formed & u:
            if i.opcode in _MEMORY_ACCESS:
                return j
            formed |= d
        elif _forms_window(i, symbols):
            formed |= d
    return first


def _forms_window(i, symbols: frozenset) -> bool:
    """`MOV r, var` of a shared variable whose address is formed from the cluster window's base."""
    return i.opcode == "MOV" and not i.guard and len(i.operands) == 2 and i.operands[1] in symbols


def _after_loop_exit(instrs: list, start: int) -> bool:
    """Is the block at `start` entered by falling out of a loop: after its back edge (a guarded branch to an
    earlier label), past an unlabelled stretch of register work (the exit's copies)?"""
    j = start - 1
    while j >= 0 and instrs[j].opcode != "BRA":
        i = instrs[j]
        if i.label is not None or i.opcode in _BLOCK_ENDS or i.opcode in _MEMORY_ACCESS \
                or is_sync(i.opcode, ", ".join(i.operands)):
            return False
        j -= 1
    if j < 0 or not instrs[j].guard:
        return False
    target = instrs[j].operands[0][2:-1] if instrs[j].operands else None
    return any(i.label == target for i in instrs[:j + 1])


# what may come before the barrier that starts a loop's exit block: register work, stores, and the waits for
# async copies (cp.async.wait_group, wgmma.wait_group)
_LOOP_EXIT_PASSED = _STORES | {"DEPBAR", "WARPGROUP"}
# ptxas issues the BSSY early in the exit block, in its first stall (the 7th to the 20th instruction in the probes
# and the Triton splitk epilogues): a barrier the scheduler issues later than this many instructions into the
# block (held back behind the block's work: splitk fp16_acq_rel, 47 in) is passed as in any block (`DEPBAR BSSY
# ... BAR STS BAR`), one issued before it is not (splitk fp32_acquire, 7 in: `DEPBAR BAR BSSY STS BAR`)
LOOP_EXIT_BSSY_WINDOW = 16


def _loop_exit_barrier(instrs: list, start: int, first: int) -> int | None:
    """The first CTA barrier of a loop's exit block [start, first) when only register work, stores and waits
    for async copies come before it, within LOOP_EXIT_BSSY_WINDOW instructions; None otherwise (a load, an
    atomic or another sync instruction first, or the barrier issued late)."""
    for j in range(start, min(first, start + LOOP_EXIT_BSSY_WINDOW)):
        i = instrs[j]
        if i.opcode == "BAR":
            return j
        if i.opcode in _LOOP_EXIT_PASSED:
            continue
        if i.opcode in _MEMORY_ACCESS or i.opcode in _LONG_LATENCY and i.opcode != "S2R" \
                or is_sync(i.opcode, ", ".join(i.operands)):
            return None
    return None


def _loop_varying_barrier(instrs: list, start: int, first: int) -> int:
    """In a loop's first block [start, first): just before the first CTA barrier whose operands the block
    computes from values the loop changes (a named barrier alternating by iteration, `bar.sync %r, 128` with
    `%r = i & 1 ? 2 : 1`); `first` if none. ptxas issues the BSSY above such a barrier (`BSSY SEL BAR.SYNC R10,
    0x80 @P BRA`) but below one that starts the block or takes constant operands (`BAR.SYNC 0x1, 0x80 BSSY`)
    or loop-invariant ones (hoisted out of the loop, the barrier starts the block). docs/findings/barrier.md
    "A BSSY above a loop's barrier with a computed id (helper nvasync, stop 23)"; probes
    phases/bssy_loop_head_bar_reg_*."""
    varying = _loop_defs(instrs, start) or set()
    for b in range(start, first):
        if instrs[b].opcode != "BAR":
            continue
        need, fed = _dest_uses(instrs[b])[1], False
        for j in range(b - 1, start - 1, -1):
            d, u = _dest_uses(instrs[j])
            if d & need:
                fed = True
                need = (need - d) | u
        if fed and need & varying:
            return b - 1
    return first


def _after_own_warpsync(instrs: list, b: int, first: int) -> bool:
    """The barrier at `b` starts the stretch after its own WARPSYNC (a CTA barrier in a divergent arm below
    sm_90) in a loop's first block, and the loop computes its id anew before the WARPSYNC: the BSSY goes
    between them (`WARPSYNC BSSY SEL BAR.SYNC R10, 0x80`), as above such a barrier without the WARPSYNC
    (_loop_varying_barrier)."""
    if b < 2 or instrs[b - 1].opcode != "WARPSYNC":
        return False
    head = b - 2
    while head > 0 and instrs[head].label is None and not _block_end(instrs[head - 1]):
        head -= 1
    if _block_end(instrs[head]) or not _loop_head(instrs, head, first):
        return False
    return _loop_varying_barrier(instrs, head, b + 1) == b - 1


def _in_loop_body(instrs: list, start: int, first: int) -> bool:
    """Does a branch after `first` go back to a label at or before `start` (the stretch lies in a loop body)?"""
    labels = {i.label for i in instrs[:start + 1] if i.label is not None}
    return bool(labels) and any(_into(i, labels) for i in instrs[first + 1:])


def _closes_loop(instrs: list, k: int) -> bool:
    """Does the pair that the BSYNC at `k` closes hold a loop (a branch back to a label inside the pair)?"""
    bar = instrs[k].operands[0] if instrs[k].operands else None
    opened = next((j for j in range(k - 1, -1, -1) if instrs[j].opcode == "BSSY" and instrs[j].operands
                   and instrs[j].operands[0] == bar), None)
    if opened is None:
        return False
    labels: set = set()
    for i in instrs[opened:k]:
        if i.label is not None:
            labels.add(i.label)
        if _into(i, labels):
            return True
    return False


def _feeding_test(instrs: list, start: int, first: int) -> list[int]:
    """Indices in [start, first) of the instructions the test of the branch after the BSSY at `first` reads
    (directly or through others of the block)."""
    branch = next((i for i in instrs[first:] if i.opcode == "BRA"), None)
    if branch is None or not branch.guard:
        return []
    need, out = _regs(branch.guard), []
    for j in range(first - 1, start - 1, -1):
        d, u = _dest_uses(instrs[j])
        if d & need:
            out.append(j)
            need |= u
    return out


# What the sync view shows that ptxas issues nowhere in particular: moves it folds into operands, uniform
# constant loads it hoists; and special-register reads (S2R SR_CTAID.X after the join: nvcc
# histogram_shared_atomics keeps `BAR BSSY` on sm_100a/sm_120 but has `BSSY BAR` on sm_90, not modelled)
_FOLDED = frozenset({"MOV", "UMOV", "ULDC", "S2R"})


def _join_barrier_before_load(instrs: list, start: int, j: int, first: int) -> bool:
    """Is instrs[j] a CTA barrier of a join block (after a BSYNC) that a global load follows before the block's
    next sync instruction? The store of the closed region's result makes the barrier wait, and ptxas issues the
    BSSY after the barrier, before the loads (Triton atomic_cas_kernel sys_i64: `BSYNC STS BAR BSSY LDG LDG LDS
    BAR @P BRA`; without the loads `BSYNC STS BSSY BAR LDS BAR`, and outside a join `LDG BSSY STS BAR LDG`;
    probes phases/bssy_join_sts_bar_ldg_*; docs/findings/convergence.md "A global load after a join's first
    barrier: the BSSY follows the barrier (helper tatom26, stop 26)")."""
    if start == 0 or instrs[start - 1].opcode != "BSYNC":
        return False
    for i in instrs[j + 1:first]:
        if i.opcode in _GLOBAL_LOADS:
            return True
        if is_sync(i.opcode, ", ".join(i.operands)):
            return False
    return False


def _tests_in_block(instrs: list, start: int, k: int) -> bool:
    """Does the block (instrs[start:k]) compute the guard of the branch after the BSSY at `k`? sm_75 moves the
    BSSY below a join's barrier for a later global load only then (`BAR ISETP LDG BMOV.32.CLEAR BSSY`; with an
    older guard `STS BMOV.32.CLEAR BSSY BAR LDG`: probes phases/bssy_join_sts_bar_ldg*)."""
    end = next((e for e in range(k + 1, len(instrs)) if instrs[e].opcode in _BLOCK_ENDS or instrs[e].guard), None)
    if end is None or not instrs[end].guard:
        return False
    tested = _regs(instrs[end].guard)
    return any(_dest_uses(x)[0] & tested for x in instrs[start:k])


def _in_flight_at_join(instrs: list, start: int) -> set[str]:
    """At a join (the block starts after a BSYNC), the results of the long-latency operations of the region
    that just closed are still in flight: a store of one waits (Triton atomic_rmw_kernel: `@p ATOMG` in its
    region; BSYNC; `@p STS` of its result; BAR BAR before the next region: BSSY STS BAR BAR)."""
    late: set[str] = set()
    if start == 0 or instrs[start - 1].opcode != "BSYNC":
        return late
    for j in range(start - 2, -1, -1):
        i = instrs[j]
        if i.opcode in ("BSSY", "BSYNC"):
            break
        if i.opcode in _LONG_LATENCY and not _token_arrive(i):
            late |= _dest_uses(i)[0]
    return late


def _token_arrive(i) -> bool:
    """An mbarrier arrive's token (SYNCS.ARRIVE.*): the try_wait of it at the join issues first, before the
    BSSY (`BSYNC TRYWAIT BSSY @!P BRA retry`, nvcc/bulk_copy_mbarrier; probes mbarrier/try_wait_token_join_*;
    docs/findings/mbarrier.md "A retry loop on a per-lane token gets a pair (helper nvmisc26, stop 26)")."""
    return i.opcode == "SYNCS" and bool(i.mods) and i.mods[0] == "ARRIVE"
