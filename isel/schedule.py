"""ptxas's instruction scheduler, as far as it decides the order of the sync-family instructions.

ptxas lists independent instructions in the order its list scheduler issues them, not in PTX order
(docs/findings/scheduling.md). The model, per basic block, after instruction selection:

* **Units.** The SASS sequence one Ori instruction became is one unit: it stays contiguous and in order
  (a fence's MEMBAR; ERRBAR; CCTL, an atomic's vote/leader/ATOM). Its registers are the Ori
  instruction's defs and uses (passes/analysis/defuse.py).
* **Regions.** Control flow is never crossed (a run of blocks only a fall-through enters, their labels named by
  nothing, is one block to the scheduler: isel/select.py): a unit holding a branch, exit, call, convergence barrier
  (BSSY/BSYNC/BREAK/BMOV), WARPSYNC, an internal label or an unselected PTX pseudo-op splits the block;
  units are scheduled within the runs between such units, which keep their place.
* **Dependences.** Register true dependences carry the producer's latency (LATENCY, with PAIR_LATENCY for
  pairs ptxas treats specially: a compare feeding a VOTE waits 13 cycles); anti and output dependences
  only order. Memory and synchronisation order is declared as data (ORDERED): loads pass loads, stores
  and atomics stay ordered with the memory operations that may alias them (same state space, not
  provably disjoint offsets from one base register), an ordering point (CTA/cluster barrier, MEMBAR
  and fences, mbarrier and async-copy operations, clock reads) stays ordered with every memory
  operation, warp collective and other ordering point, and warp collectives (SHFL, VOTE, MATCH, REDUX)
  move freely across plain loads, stores and atomics (probes/scheduling/*).
* **List scheduling.** Top-down and cycle-driven, one instruction issued per cycle: among the units whose
  operands are ready, the one with the longest latency-weighted path to the end of the region
  (its height) goes first, ties in PTX order; when none is ready the clock advances. A CTA barrier does
  not fill a stall behind taller waiting work (NOT_FILLERS). A run holding more predicates at once than the
  seven P registers issues its warp collectives in program order (_predicate_pressure). Instructions
  ptxas folds into operands (parameter loads, immediate and register moves, integer widening) issue
  nothing and cost no latency.

Labels stay on the first instruction of their block; the caller lays offsets out afterwards.
"""
from __future__ import annotations

import functools
import heapq
from pylower.lazy_re import lazy_compile
from pylower.records import field, record

from pylower.lowering import ori
from pylower.lowering import ptx_ast as A
from pylower.lowering.ori_schema import PSEUDO_OPCODES
from pylower.lowering.ops import redux_mask_only
from pylower.passes.analysis.defuse import defs as ori_defs, uses as ori_uses
from pylower.sass.families import WARP_COLLECTIVES, WARP_REDUCTIONS
from pylower.sass.instr import VIRTUAL, SassInstr

# ---------------------------------------------------------------- what each SASS opcode is to the scheduler

CONTROL = frozenset("BRA BRX JMP JMX EXIT RET CALL BPT BSSY BSYNC BREAK BMOV WARPSYNC ENDCOLLECTIVE KILL "
                    "YIELD NANOSLEEP RTT".split())
# Ordering points. A fence (MEMBAR and its ERRBAR: membar, fence.sc, fence.acq_rel and the fences of
# release/acquire operations) keeps memory operations and warp collectives on their side; barriers, the
# cache and proxy fences, mbarrier and async-copy operations keep only memory operations in order: warp
# collectives pass a CTA barrier (probes/scheduling/collectives_pass_bar*, collectives_stay_after_membar).
FENCE = frozenset("MEMBAR ERRBAR CGAERRBAR".split())
BARRIER = frozenset("BAR B2R R2B FENCE CCTL UCGABAR_ARV UCGABAR_WAIT CGABAR_ARV CGABAR_WAIT CGABAR_GET CGABAR_SET "
                    "UCGABAR_GET UCGABAR_SET SYNCS ARRIVES DEPBAR LDGDEPBAR LDGSTS UBLKCP UBLKRED UBLKPF UTMALDG UTCHMMA UTCBAR "
                    "UTMASTG UTMAPF UTMAREDG UTMACMDFLUSH UTMACCTL ACQBULK ACQSHMINIT ACQBLK PREEXIT UGETNEXTWORKID "
                    "STAS USETMAXREG".split())
# PTX fences that order memory only, whatever SASS they become (fence.proxy.async is MEMBAR + FENCE.VIEW), and the
# one-sided fences: a warp collective (ELECT, SHFL, MATCH, REDUX, activemask) passes fence.release.* (MEMBAR.ALL)
# and fence.acquire.* (CCTL.IVALL) where it stays after fence.sc / fence.acq_rel / membar (probes/scheduling/
# collectives_pass_release_fence*; docs/findings/scheduling.md "One-sided fences order memory only (helper
# nvasync, stop 22)").
MEMORY_ONLY_FENCES = (".proxy", ".release", ".acquire")
# The PTX operations that are memory fences; the MEMBAR a cluster barrier's release or a release atomic
# brings along orders memory only (nvcc/cluster_split_barrier: an aggregated atomic's vote passes it).
FENCE_OPS = frozenset({"membar", "fence"})
ATOMIC = frozenset("ATOM ATOMG ATOMS RED REDG REDAS ATOMAS UREDGR SURED".split())
STORE = frozenset("ST STG STS STL STSM SUST STTM".split())
LOAD = frozenset("LD LDG LDS LDL LDSM SULD TEX TLD4 TXQ SUQ".split())
COLLECTIVE = frozenset("SHFL VOTE VOTEU MATCH REDUX CREDUX ELECT".split())
# special registers whose reads are ordered like memory (time, performance counters)
VOLATILE_SREGS = ("SR_CLOCK", "SR_GLOBALTIMER", "SR_PM")

# The convergence machinery's pseudo-operations stay where phases 71/72 put them (a loop's convergence
# test before its back edge, BSSY/BSYNC, WARPSYNC, the slow-path branches): control, except these, which
# are scheduled like arithmetic: the address of a shared symbol, and the membermask check of a partial-mask
# collective (VOTEU.ANY, MATCH.ANY, REDUX.OR on the mask), which ptxas hoists over CTA barriers, shuffles and
# stores (nvcc/cg_block_tiles on sm_80-89).
PLAIN_PSEUDO = frozenset({"lea", "membermask"})
# Registers in the SASS operands: those a rule names itself (temporaries %t1, %ut1, %tp1 for the leader
# lane, the activemask, predicates; fixed P0, UR4, B0) are not the Ori instruction's, and units sharing one
# stay in order.
_SASS_REG = lazy_compile(r"%[A-Za-z_]+\d*|\b(?:U?P[0-6]|UR\d+|R\d+|B\d+|U?R_\w+)\b")

# Strength of a unit's kind: a unit is what its strongest instruction is.
_RANK = {"alu": 0, "collective": 1, "load": 2, "store": 3, "atomic": 4, "barrier": 5, "fence": 6, "control": 7}

# Which kinds stay in program order with which (symmetric). Loads pass loads; collectives pass memory
# operations; plain ALU work passes everything but control flow (probes/scheduling/).
ORDERED = {
    ("fence", "fence"), ("fence", "barrier"), ("fence", "load"), ("fence", "store"), ("fence", "atomic"),
    ("fence", "collective"),
    ("barrier", "barrier"), ("barrier", "load"), ("barrier", "store"), ("barrier", "atomic"),
    ("load", "store"), ("load", "atomic"), ("store", "store"), ("store", "atomic"), ("atomic", "atomic"),
}
# A uniform activemask read (VOTEU.ANY UR, UPT, PT) is issued after the warp reductions of its region,
# whichever comes first in PTX (probes/scheduling/activemask_after_redux*, probes/warp/activemask_b32_with_redux).
WAITS_FOR_ALL = {"activemask_uniform": frozenset({"REDUX", "CREDUX"})}
# Kinds ordered whatever the addresses: ordering points, and atomics never pass each other nor a store of their
# own state space (_same_space)
# (probes/atomic/agg_run_*; agg_run_two_popc_used: `ATOMG SHFL.IDX STG ATOMG`, the STG at another offset),
# nor does a load pass an earlier atomic of its space (probes/scheduling/load_after_atomic_*: `ATOMG ATOMG ATOMG
# LDG` with the LDG at another offset of the same base; docs/findings/scheduling.md "A load stays after the
# atomics of its state space (helper llvm25, stop 25)").
ORDERED_ALWAYS = frozenset({"fence", "barrier"})

# Estimated result latency in cycles by SASS opcode (sm_80 as ptxas schedules it: fixed-latency ALU
# work about 5, the variable-latency units as measured with independent filler, probes/scheduling/).
LATENCY = {
    "VOTE": 5, "VOTEU": 5, "SHFL": 14, "MATCH": 14, "REDUX": 14, "CREDUX": 14, "ELECT": 5,
    "POPC": 12, "FLO": 12, "BREV": 12, "MUFU": 14, "I2F": 12, "F2I": 12, "F2F": 12, "I2I": 12,
    "S2R": 14, "S2UR": 14, "CS2R": 5, "LDC": 14,
    "LD": 20, "LDG": 20, "LDS": 20, "LDL": 20, "LDSM": 20, "ATOM": 20, "ATOMG": 20, "ATOMS": 20,
    "DADD": 8, "DMUL": 8, "DFMA": 8, "DSETP": 8, "DMNMX": 8,
    "B2R": 14, "SYNCS": 20, "QSPC": 14,
}
ALU_LATENCY = 5
# Below sm_90 (MEMBAR_WAITS_MEMORY) what a thread fence orders after it (its own CCTL.IVALL, memory operations,
# warp collectives) issues this many cycles after the MEMBAR: a shuffle waiting for S2R SR_TID.X issued before
# the fence goes ahead of the fence's CCTL.IVALL (probes/scheduling/fence_cctl_*; docs/findings/scheduling.md
# "A fence's CCTL.IVALL below sm_90 (helper nvatom, stop 21)").
FENCE_WAIT = 14
# Kinds that do not fill a stall: a CTA barrier ready early is held back while a taller unit whose predecessors
# have all issued still waits, if that unit descends from a load the barrier is ordered after (directly or through
# other ordering points), every successor of the barrier needs it (Unit.holds: issuing the barrier would make
# nothing ready sooner), it is no plain ALU instruction (a shuffle waiting for the LDS) or waits for a
# variable-latency result (the add after a shuffle), and that result is no global load in flight (LONG_WAITS).
# Waiting ALU work behind fixed-latency ALU work, work unrelated to the barrier's loads or that some successor
# does not need, does not hold it (probes/scheduling/barrier_not_filler, barrier_taller_than_waiting_shfl,
# barrier_fills_unrelated_stall, barrier_after_global_load, barrier_successor_independent,
# barrier_held_by_loaded_chain; triton softmax, layer_norm_fwd_fused, cumsum_carry).
NOT_FILLERS = frozenset({"barrier"})
# The barrier-kind instructions that waiting work holds back: CTA barriers. A cp.async's LDGDEPBAR (commit group)
# issues right after its LDGSTS (probes/scheduling/barrier_successor_cp_async, sm_90+).
HELD_BARRIERS = frozenset({"BAR"})
# Results whose wait a barrier fills even when work waiting for them holds it otherwise: a global load or atomic in
# flight (probes/scheduling/barrier_after_global_load, Triton cumsum_carry: LDG BAR FADD).
LONG_WAITS = frozenset({"LDG", "LD", "LDL", "ATOMG", "ATOM"})
# Outside a loop a barrier is held only by work at most this many cycles (height) above the barrier's tallest
# successor; inside a loop by any (docs/findings/scheduling.md "The barrier slot is no register-budget effect: loops
# and the reach of the hold (helper bar28, stop 28)"): fitted between 135 (Triton row_topk, held) and 138 (Triton
# online_softmax sm100-w8s3 on sm_100a, released; the four-value one-shuffle exchange of
# probes/scheduling/bar_slot_short_reach_released at 148: released; docs/findings/
# scheduling.md "The load after the next exchange rescaled in place holds the barrier (helper slot29, stop 29)").
HOLD_REACH = 136
# Compares waiting for a shuffle's result hold no CTA barrier: in a compare-exchange network (`shfl.bfly; setp; selp`,
# bitonic sorts, top-k) ptxas issues the barrier right after the step's shuffles, before their compares; and while a
# taller collective that holds the barrier is ready but its pipe is busy, the barrier does not take the slot
# (docs/findings/scheduling.md "A compare-exchange network's barrier goes into the first shuffles' wait (helper
# tsort33, stop 33)").
NON_HOLDING_COMPARES = frozenset({"FSETP", "ISETP", "DSETP", "HSETP2"})
# A CTA barrier's latency to an mbarrier operation ordered after it (SYNCS, ARRIVES; to other barriers, B2R, LDGSTS
# and memory operations it stays 0): a `DEPBAR.LE; BAR` (or a store then BAR) issues before an ELECT whose chain to
# the mbarrier operation is one compare, after one whose chain is an ALU op longer, on sm_90..sm_120 alike; fitted
# between pylower's heights of those chains (20..24 fit). (A BAR opening its block issues first in those
# variations, but a rule saying so broke Triton layer_norm_fwd_fused and llvm histogram_privatized: not built.)
# docs/findings/scheduling.md "ELECT against a block-opening DEPBAR.LE / BAR (helper elect29, stop 29)";
# probes/scheduling/elect_*.
BAR_ORDER_LATENCY = 20
MBARRIER_OPS = frozenset({"SYNCS", "ARRIVES"})
# Issue throughput: the pipe an opcode occupies and for how many cycles (a warp instruction takes two
# cycles on the 16-lane integer and FMA pipes; memory and shuffle instructions leave every fourth cycle:
# nvcc/warp_vote's four compares issue two cycles apart, its stores four).
# (VOTEU issues on the uniform datapath, not the integer pipe: sm_75's `ISETP VOTEU.ANY ISETP` back to back,
# docs/findings/warp.md "sm_75's vote.all masks its ballot with the active lanes (helper nvcg26, stop 26)")
PIPE = {**{op: ("alu", 2) for op in "IADD3 LOP3 ISETP SEL SHF IMNMX PRMT LEA PLOP3 FSETP FSEL FMNMX BMSK SGXT "
                                    "VOTE IABS FLO POPC BREV".split()},
        **{op: ("fma", 2) for op in "IMAD FFMA FADD FMUL HFMA2 HADD2 HMUL2".split()},
        **{op: ("mio", 4) for op in "LD LDG LDS LDL ST STG STS STL ATOM ATOMG ATOMS RED REDG SHFL MATCH "
                                    "REDUX CREDUX".split()}}
# (producer opcode, consumer opcode) pairs ptxas waits longer for: a predicate from a compare into a vote.
# An acquire atomic's CCTL.IVALL issues once the memory pipe has taken the atomic (MIO issue interval), below
# sm_90 where it is a unit of its own (ACQUIRE_AFTER_BROADCAST): `ATOMG.MAX S2R CCTL.IVALL`, `ATOM.MIN SHFL.IDX
# CCTL.IVALL` (probes atomic/agg_acquire_*; docs/findings/scheduling.md "An acquire atomic's broadcast orders what
# follows it below sm_90 (helper nvatom25, stop 25)").
PAIR_LATENCY = {("ATOM", "CCTL"): 4, ("ATOMG", "CCTL"): 4, ("ATOMS", "CCTL"): 4,
                ("ISETP", "VOTE"): 13, ("FSETP", "VOTE"): 13, ("DSETP", "VOTE"): 13, ("HSETP2", "VOTE"): 13,
                ("PLOP3", "VOTE"): 13, ("LOP3", "VOTE"): 13}
# Extra latency on one source operand of a PTX form that ptxas expands into more instructions than pylower
# selects: bfi with a constant position shifts the inserted field (operand 1) before merging it (LOP3):
# numba/votes (the vote whose result is inserted goes first).
OPERAND_LATENCY = {"bfi": {1: ALU_LATENCY}}
# The approximate f32 ex2/lg2 without .ftz (_RESCALED): ptxas issues `FSETP.GEU P, x, -126; @!P FMUL x, x, 0.5`
# before the MUFU, so its source is read this many cycles earlier in the heights (a logsumexp's sum chain is that
# much taller than the MUFU alone says; docs/findings/scheduling.md "Two independent reductions in one block: the
# lagging chain, the held WAR barrier and the rescaled ex2 (helper tslot34, stop 34)").
RESCALED_SOURCE_LATENCY = 15
# A butterfly shuffle (a reduction step) does not fill the wait of work more than this many cycles (heights) taller
# than it: the independent second reduction of a block lags the first one's chain and exchange barrier (same
# section; measured 40..60 alike on tools/variations/dual_reduce_lag.py, helper tslot33's 60..120 without
# RESCALED_SOURCE_LATENCY).
BUTTERFLY_SLACK = 40


@record(eq=False)
class Unit:
    """The SASS instructions one Ori instruction became (or a rule's own code), scheduled as one."""
    ins: ori.Instr | None
    sass: list[SassInstr]
    index: int = 0
    kind: str = "alu"
    cost: int = 1                   # issue slots
    defs: tuple = ()
    uses: tuple = ()
    mem: tuple | None = None        # (space, base, offset, width) of a load/store/atomic
    succs: list = field(default_factory=list)      # (unit, latency)
    npreds: int = 0
    height: int = 0
    ready: int = 0
    pipe: tuple | None = None       # (pipe, cycles) of its first instruction
    latency: int = 0                # result latency (0: folded into its readers)
    scoreboard: bool = False        # waits for a variable-latency result (load, shuffle...)
    far: bool = False               # ... of a global load or atomic (LONG_WAITS): it holds no barrier back
    holds: int = 0                  # bit mask of the NOT_FILLERS units (by index) its waiting holds back
    stand_in: bool = False          # a free unit (cost 0) standing for the non-ALU units that read it (_mark_held)
    late: bool = False              # no stall filler: waits while taller work waits (_mark_late)
    eager: bool = False             # issued before any taller work when ready at the region's start (EAGER)
    boost: int = 0                  # EAGER when eager and nothing in the region comes before it
    mask_first: bool = False        # a shuffle reading its member mask from a register: first among equals
    broadcast_of: object = None     # an aggregated atomic's broadcast tail: the unit of its memory instruction
    acquire: bool = False           # ... of an acquire atomic that orders later memory from its end (_split_tail)
    waits_for: object = None        # a later atomic's memory unit this broadcast waits for (_broadcasts_after_acquire)
    wait: int = 0                   # issued at least this many cycles after each predecessor, outside heights (B2R_WAIT)
    members: tuple = ()             # a predicated if (make_predicated_if): its (Ori instruction, SASS) pairs in order
    not_before: int = 0             # a BSSY after the block's join: the first cycle it may issue (BSSY_AFTER_JOIN)
    reciprocal: bool = False        # an integer division's reciprocal (_division_units)
    after_reciprocal: bool = False  # waits for one (its ready time set by it)
    deferred: bool | None = None    # a vote feeding only stores, with slack: waits while taller work waits (_vote_slack)
    def_ready: dict | None = None   # a predicated if: register -> (the body cycle its writer issues, the writer's last
                                    # opcode, its result latency) (make_predicated_if, _latency)
    loop_reads: tuple = ()          # the BSSY opening ISel's own loop: the registers that loop reads (_loop_pair; none:
                                    # a loop reading no register keeps fam_sync_pseudo's placement)

    @property
    def first(self) -> str:
        return self.sass[0].opcode if self.sass else VIRTUAL

    @property
    def last(self) -> str:
        for s in reversed(self.sass):
            if s.opcode != VIRTUAL:
                return s.opcode
        return VIRTUAL


def _is_fence(ins: ori.Instr | None) -> bool:
    """A PTX memory fence (membar, fence.sc/.acq_rel...) rather than the fence inside a barrier's or a
    release operation's sequence, or a proxy fence: only those keep warp collectives after them."""
    return ins is not None and ins.opcode in FENCE_OPS and not any(m.startswith(MEMORY_ONLY_FENCES) for m in ins.mods)


def _kind(unit: Unit) -> str:
    if unit.ins is not None and unit.ins.opcode in PSEUDO_OPCODES:
        if unit.ins.opcode in PLAIN_PSEUDO or unit.sass and all(s.opcode == VIRTUAL for s in unit.sass):
            return "alu"
        return "control"
    best = "alu"
    # fence.proxy.alias's runtime choice of MEMBAR.SC.GPU / .SYS branches within its own expansion: ptxas expands
    # it after scheduling, and a warp collective passes it like any proxy fence (nvcc/ptx_fences_elect
    # fence_proxies; probes/scheduling/collectives_pass_alias_fence)
    inner = unit.ins is not None and unit.ins.opcode in FENCE_OPS and _branches_within(unit.sass)
    for s in unit.sass:
        op = s.opcode
        if inner and op == "BRA":
            continue
        if s.label is not None and not inner:   # something branches to it
            return "control"
        if op in CONTROL or op.startswith("PTX."):
            return "control"
        if op in FENCE:
            k = "fence" if _is_fence(unit.ins) else "barrier"
        elif op in BARRIER:
            k = "barrier"
        elif op in ATOMIC:
            k = "atomic"
        elif op in STORE:
            k = "store"
        elif op in LOAD:
            k = "load"
        elif op in COLLECTIVE:
            k = "collective"
        elif op in ("S2R", "CS2R", "S2UR") and any(r in o for o in s.operands for r in VOLATILE_SREGS):
            k = "fence"
        else:
            continue
        if _RANK[k] > _RANK[best]:
            best = k
    return best


def _branches_within(seq: list[SassInstr]) -> bool:
    """Every branch of the sequence targets a label of the sequence itself."""
    labels = {s.label for s in seq if s.label is not None}
    return all(any(f"`({l})" in o for l in labels for o in s.operands) for s in seq if s.opcode == "BRA")


# Bitwise logic ptxas folds into one LOP3 (three inputs at most): a logic op whose only reader is another
# logic op of the region disappears into it (numba/match_groups: xor(xor(a, b), c) is one LOP3).
LOGIC = frozenset({"and", "or", "xor", "not", "lop3"})


def _sources(ins: ori.Instr) -> set:
    return {o for o in ins.operands[1:] if type(o) in (A.Reg, A.Not)}


def _fuse_logic(region: list[Unit], live_out) -> None:
    """Give a logic op folded into its single logic reader (LOGIC) no cost and no latency."""
    # The readers of each register up to and including its next definition, for the units after each one:
    # one backward walk (reg -> (number of readers, capped at 2; the first reader; redefined?)), not a
    # forward scan from every logic op (quadratic in long unrolled blocks).
    after: dict[str, tuple] = {}
    ahead: list = [None] * len(region)
    for i in range(len(region) - 1, -1, -1):
        u = region[i]
        if len(u.defs) == 1:
            ahead[i] = after.get(u.defs[0], (0, None, False))
        for r in dict.fromkeys(u.uses):
            if r not in u.defs:
                n, _first, redefined = after.get(r, (0, None, False))
                after[r] = (min(n + 1, 2), u, redefined)
        for r in u.defs:
            after[r] = (1, u, True) if r in u.uses else (0, None, True)
    for i, u in enumerate(region):
        ins = u.ins
        if ins is None or ins.opcode not in LOGIC or ins.guard is not None or ".pred" in ins.mods \
                or len(u.defs) != 1 or u.cost == 0:
            continue
        reg = u.defs[0]
        n, first, redefined = ahead[i]
        readers = [first] if n == 1 else [None] * n
        if len(readers) != 1 or not redefined and live_out(reg):
            continue
        r = readers[0].ins
        if r is None or r.opcode not in LOGIC or r.guard is not None:
            continue
        inputs = _sources(ins) | {o for o in _sources(r) if not (type(o) is A.Reg and o.name == reg)}
        if len(inputs) <= 3:
            u.cost, u.latency, u.pipe = 0, 0, None


# Two-source arithmetic ptxas predicates into the select that picks between its result and one of its sources:
# `t = add a, b; d = selp t, a, p` is `@!p FADD a, a, b` (d coalesced with a) when nothing reads `a` after the
# select in program order; else `FADD t; FSEL d` (docs/findings/scheduling.md "A select of an add and its
# source is one predicated add (helper tconv24, stop 24)"; probes scheduling/select_add_*).
SELECT_FOLDED = frozenset({"add", "sub", "mul", "min", "max"})


def _fuse_select(region: list[Unit], live_out) -> None:
    """Give an arithmetic op that ptxas predicates into its single selp reader no cost and no latency."""
    last_read: dict[str, int] = {}                 # register -> index of its last reader in the region
    last_def: dict[str, int] = {}                  # register -> index of its last definition in the region
    for i, u in enumerate(region):
        for r in u.uses:
            last_read[r] = i
        for r in u.defs:
            last_def[r] = i

    def dead_after(reg: str, i: int) -> bool:      # no reader after unit i, in the region or after it
        return last_read.get(reg, -1) <= i and (last_def.get(reg, -1) > i or not live_out(reg))
    def_at: dict[str, int] = {}
    readers: dict[str, int] = {}
    for i, u in enumerate(region):
        ins = u.ins
        if ins is not None and ins.opcode == "selp" and ins.guard is None and len(ins.operands) == 4:
            x, y = ins.operands[1], ins.operands[2]
            for t, a in ((x, y), (y, x)):
                if type(t) is not A.Reg or type(a) is not A.Reg or t.name not in def_at:
                    continue
                j = def_at[t.name]
                v = region[j]
                vi = v.ins
                if vi is None or vi.opcode not in SELECT_FOLDED or vi.guard is not None or len(v.defs) != 1 \
                        or len(v.sass) != 1 or v.cost == 0 or a not in vi.operands[1:3] or readers.get(t.name) != 0:
                    continue
                if not (dead_after(t.name, i) and dead_after(a.name, i)):
                    continue
                v.cost, v.latency, v.pipe = 0, 0, None
                break
        for r in u.uses:
            readers[r] = readers.get(r, 0) + 1
        for r in u.defs:
            def_at[r] = i
            readers[r] = 0


# Warp collectives take their sources in registers only (their member mask is not an operand of the SASS
# instruction): a kernel parameter one reads there is loaded into a register, by an LDC on targets with
# PARAM_LDC, else by a MOV from the constant bank that ptxas places before scheduling only when several
# such readers share it (a single reader gets its MOV after scheduling). ptxas schedules that load as a
# long one (PARAM_LOAD_LATENCY, fitted): nvcc/warp_shuffle_modes, probes/scheduling/shfl_param_*.
REGISTER_OPERANDS = {"shfl": (1, 2, 3), "match": (1,), "redux": (1,)}
PARAM_LOAD_LATENCY = 80


def _materialize_params(region: list[Unit], param_ldc: bool) -> None:
    for i, u in enumerate(region):
        ins = u.ins
        if ins is None or ins.opcode != "ld" or ".param" not in ins.mods or len(u.defs) != 1 or u.cost:
            continue
        reg, readers = u.defs[0], 0
        for v in region[i + 1:]:
            pos = REGISTER_OPERANDS.get(v.ins.opcode, ()) if v.ins is not None else ()
            readers += any(k < len(v.ins.operands) and v.ins.operands[k] == A.Reg(reg) for k in pos)
            if reg in v.defs:
                break
        if readers >= 1 and param_ldc or readers >= 2:
            u.cost, u.latency = 1, PARAM_LOAD_LATENCY


def _role(unit: Unit) -> str:
    """A role of WAITS_FOR_ALL this unit plays, or ""."""
    first = unit.sass[0] if unit.sass else None
    if first is not None and first.opcode == "VOTEU" and first.mods == ("ANY",) and first.operands[1:] == ("UPT", "PT") \
            and not first.guard and (unit.ins is None or unit.ins.opcode not in ("atom", "red")):
        # (an aggregated atomic's own vote issues before a REDUX still waiting for a load: probes
        # atomic/agg_value_redux*)
        return "activemask_uniform"
    return ""


def _is_free(ins: ori.Instr | None) -> bool:
    """Forms ptxas folds into their users' operands: they issue nothing and add no latency."""
    if ins is None or ins.guard is not None:
        return False
    op = ins.opcode
    if op == "ld":
        return ".param" in ins.mods
    if op == "cvta":
        return True
    if op == "mov":
        src = ins.operands[1] if len(ins.operands) > 1 else None
        t = type(src)
        if t is A.Reg:
            return not src.name.startswith("%") or not _is_sreg(src.name)
        return t in (A.Imm, A.Sym, A.Vec, A.Expr)
    if op == "cvt":
        ints = [m for m in ins.mods if m[1:2] in ("u", "s", "b") and m[2:].isdigit()]
        return len(ints) == 2
    return False


def _is_sreg(name: str) -> bool:
    from pylower.lowering.operand_types import is_special_register
    return is_special_register(name)


_SPACES = (".global", ".shared", ".local", ".const", ".param")
# Operations whose memory is a state space of its own (tcgen05.st/ld: tensor memory, aliasing no other space).
_OWN_SPACE = {"tcgen05": "tmem"}


def _mem(ins: ori.Instr | None) -> tuple | None:
    """(state space, base, offset, width) of a load/store/atomic's address, None if unknown."""
    if ins is None:
        return None
    addr = next((o for o in ins.operands if type(o) is A.Addr), None)
    if addr is None:
        return None
    space = _OWN_SPACE.get(ins.opcode) or next((m.split("::")[0] for m in ins.mods if m.split("::")[0] in _SPACES),
                                               "generic")
    base = addr.items[0] if len(addr.items) == 1 else None
    key = base.name if type(base) in (A.Reg, A.Sym) else None
    size, count = 4, 1
    for m in ins.mods:
        if m in (".v2", ".v4", ".v8"):
            count = int(m[2:])
        elif m[1:2] in ("u", "s", "b", "f") and m[2:].isdigit():
            size = max(1, int(m[2:]) // 8)
    width = size * count
    return (space, key, addr.offset, max(width, 1))


def _may_alias(a: tuple | None, b: tuple | None) -> bool:
    if a is None or b is None:
        return True
    sa, sb = a[0], b[0]
    if sa != sb and "generic" not in (sa, sb):
        return False
    if sa == sb and a[1] is not None and a[1] == b[1]:
        lo, hi = (a, b) if a[2] <= b[2] else (b, a)
        return lo[2] + lo[3] > hi[2]
    return True


def _same_space(p: Unit, u: Unit) -> bool:
    """May two memory operations be in one state space? Atomics keep their order with the atomics and stores of
    their own space only: a global atomic passes a shared one whose address is still computed (`ATOMG ... ATOMS
    ATOMG`, probes/scheduling/atom_global_passes_shared; llvm/atomics_syncscope: the aggregated shared add waits
    for the shared window's S2UR behind later global atomics; docs/findings/scheduling.md "An aggregated atomic's
    head issues first; atomics of other spaces pass")."""
    if any(x.ins is None or x.ins.opcode not in ("atom", "red") for x in (p, u) if x.kind == "atomic"):
        return True                 # an mbarrier arrive's ATOMS.ARRIVE (sm_80-89) stays in order (loop_inversion_atom_cas)
    a, b = p.mem, u.mem
    if a is None or b is None:
        return True
    return a[0] == b[0] or "generic" in (a[0], b[0])


def _latency(p: Unit, c: Unit, reg: str | None = None) -> int:
    if p.latency == 0:
        return 0
    if reg is not None and p.def_ready and reg in p.def_ready:
        at, op, lat = p.def_ready[reg]
        return at + (PAIR_LATENCY.get((op, c.first), lat) if lat else 0)
    return PAIR_LATENCY.get((p.last, c.first), p.latency)


def _operand_latency(u: Unit) -> dict[str, int]:
    """OPERAND_LATENCY of this unit's source registers."""
    extra = OPERAND_LATENCY.get(u.ins.opcode) if u.ins is not None else None
    out: dict[str, int] = {}
    if _rescales(u.ins):
        # ptxas's denormal prelude (`FSETP.GEU P, x, -126; @!P FMUL x, x, 0.5`) stands between the source and
        # the MUFU (RESCALED_SOURCE_LATENCY)
        return {o.name: RESCALED_SOURCE_LATENCY for o in u.ins.operands[1:] if type(o) is A.Reg}
    if extra:
        for i, o in enumerate(u.ins.operands):
            if type(o) is A.Reg and i in extra:
                out[o.name] = extra[i]
    return out


@functools.lru_cache(maxsize=65536)
def _regs_in(operand: str) -> tuple:
    return tuple(_SASS_REG.findall(operand))


# An aggregated atomic's head (activemask vote, leader lane, count, warp reduction of the operand: every
# instruction before the first memory operation of the atomic's sequence) is arithmetic to the scheduler,
# one unit per instruction ordered by the registers they share: ptxas hoists it over cluster barriers and
# fences to the top of the block (nvcc/cluster_split_barrier, llvm/cluster_barrier_mapa) and issues the
# REDUX before the activemask vote (llvm/cluster_dsmem).
_MEMORY_OPS = ATOMIC | STORE | LOAD


# The warp votes in front of a uniform-datapath op under a per-lane guard (`VOTEU.ANY UP0, P` twice, then
# `@UP0 SYNCS.EXCH` for an mbarrier.init, `@UP0 UTMALDG` for a copy) are scheduled apart from the op: of two
# inits in a row ptxas issues both first votes, both second votes, then both ops
# (`V(UP0) V(UP1) V(UP0) V(UP1) SYNCS SYNCS`, probes/scheduling/votes_before_two_inits). The first vote also
# guards the op's operand setup (`@UP0 UMOV`...), which takes this many cycles more.
VOTE_SETUP_LATENCY = 2 * ALU_LATENCY


def _vote_units(ins: ori.Instr, seq: list[SassInstr], target) -> list[Unit] | None:
    k = 0
    while k < len(seq) and seq[k].opcode == "VOTEU" and seq[k].operands[:1] == ("UP0",):
        k += 1
    if k == 0 or k == len(seq) or not any(x.guard in ("@UP0", "@!UP0") for x in seq[k:]):
        return None
    tag = f"UP0#{id(ins)}"
    tail = make_unit(ins, seq[k:], target)
    tail.uses = tuple(r for r in tail.uses if r != "UP0") + tuple(f"{tag}.{j}" for j in range(k))
    tail.defs = tuple(r for r in tail.defs if r != "UP0")
    heads = []
    for j in range(k):
        h = make_unit(ins, [seq[j]], target, kind="collective")
        h.uses = tuple(sorted({r for o in seq[j].operands[1:] for r in _regs_in(o)}))
        h.defs = (f"{tag}.{j}",)
        if j == 0 and k > 1:
            h.latency = LATENCY["VOTEU"] + VOTE_SETUP_LATENCY
        heads.append(h)
    return heads + [tail]


def _active_read_apart(ins: ori.Instr, seq: list[SassInstr], target) -> list[Unit]:
    """sm_90+: a partial-mask check's active-lane read (`VOTEU.ANY UR, UPT, PT`) reads no register: it is a unit
    of its own after the mask's MATCH.ANY / REDUX.OR, issued last when the mask is ready (`MATCH REDUX VOTEU`:
    probes warp/permask_mask_before_if_loaded) and while the mask is still computed when it waits (`S2R
    SR_LANEID; VOTEU.ANY; LEA.HI; SHF; MATCH.ANY; REDUX.OR`: nvcc csr_spmv_subwarp8, probes
    warp/permask_mask_of_joined_value; docs/findings/warp.md "The active-lane read of a mask check fills the
    mask's wait (helper cub, stop 23)")."""
    checks = make_unit(ins, seq[:-1], target)
    active = make_unit(ins, seq[-1:], target)
    active.uses = ()
    active.defs = (f"active#{id(ins)}",)
    return [checks, active]


def _ballot_test_unit(ins: ori.Instr, seq: list[SassInstr], target) -> Unit:
    """sm_75's vote.any/.all/.uni: a ballot and the ALU steps testing it, one unit whose result waits for the
    vote and each step after it (`VOTE.ANY R; LOP3; ISETP`: 15 cycles, `VOTE.ANY R; ISETP`: 10), so the longer
    test's compare and vote go first (nvcc/warp_bitonic_sort_select warp_vote_flags)."""
    u = make_unit(ins, seq, target)
    u.latency = LATENCY["VOTE"] + ALU_LATENCY * (len(seq) - 1)
    return u


# Below sm_90 (B2R_WAIT_FILLED) a B2R.RESULT issues this many cycles after its BAR.RED at the earliest: ptxas fills
# the wait with independent ready work, the warp votes and their compares (`BAR.RED.POPC ISETP VOTE.ALL B2R.RESULT`,
# four compares and four ballots; of six ballots five on sm_80-89 (B2R_WAIT_LONG), four on sm_75:
# probes/scheduling/b2r_wait_*; docs/findings/scheduling.md "A barrier reduction's B2R waits for its BAR.RED below
# sm_90 (helper w2b2r, stop 26)").
B2R_WAIT = 18
B2R_WAIT_LONG = 20


def _reduction_apart(ins: ori.Instr, seq: list[SassInstr], target) -> list[Unit]:
    """A CTA barrier reduction as two units: the BAR.RED (reading the predicate) and its B2R.RESULT (writing the
    result), B2R_WAIT cycles apart."""
    bar = make_unit(ins, seq[:1], target, kind="barrier")
    b2r = make_unit(ins, seq[1:], target, kind="barrier")
    key = f"~b2r#{id(ins)}"
    own_defs = set(ori_defs(ins))
    bar.defs = tuple(r for r in bar.defs if r not in own_defs) + (key,)
    bar.uses = tuple(r for r in bar.uses if r not in own_defs)
    bar.latency = 0                 # the wait delays the B2R but adds nothing to heights: a shuffle of the same
    b2r.wait = B2R_WAIT_LONG if target.has("B2R_WAIT_LONG") else B2R_WAIT  # height still goes first (`SHFL SHFL BAR.RED B2R`)
    b2r.uses = (key,)
    b2r.defs = tuple(r for r in b2r.defs if r in own_defs) + \
        tuple(r for o in seq[1].operands for r in _regs_in(o) if r not in own_defs and r != "RZ")
    return [bar, b2r]


def make_units(ins: ori.Instr | None, seq: list[SassInstr], target=None) -> list[Unit]:
    """The scheduling units of one Ori instruction's SASS sequence (make_unit, an aggregated atomic's head
    split off instruction by instruction, the votes before a uniform-datapath op)."""
    if _reciprocal_division(ins, seq, target):
        return _division_units(ins, seq, target)
    if ins is not None and seq and seq[0].opcode == "VOTEU":
        units = _vote_units(ins, seq, target)
        if units is not None:
            return units
    if ins is not None and ins.opcode == "vote" and len(seq) > 2 and seq[0].opcode == "VOTEU" \
            and seq[0].operands[1:] == ("UPT", "PT") and target is not None and not target.has("NATIVE_VOTE_ALL"):
        # sm_75's vote.all/.uni compares its ballot with the active lanes: that read (`VOTEU.ANY UR, UPT, PT`)
        # waits for nothing and issues as soon as it is the tallest ready work, before the compare feeding the
        # ballot (docs/findings/warp.md "sm_75's vote.all masks its ballot with the active lanes (helper nvcg26,
        # stop 26)")
        head, tail = make_unit(ins, seq[:1], target), _ballot_test_unit(ins, seq[1:], target)
        head.defs = tuple(r for o in seq[0].operands[:1] for r in _regs_in(o))
        head.uses = ()
        return [head, tail]
    if ins is not None and ins.opcode == "vote" and len(seq) > 1 and seq[0].opcode == "VOTE" \
            and target is not None and not target.has("NATIVE_VOTE_ALL"):
        return [_ballot_test_unit(ins, seq, target)]
    if ins is not None and len(seq) == 2 and seq[0].opcode == "VOTE" and seq[1].opcode == "BSSY" \
            and getattr(ins.attrs, "part", "") == "vote":
        # a cp.async arrive's vote with the pair of its address's R2UR loop (isel/fam_mbarrier._arrives_waterfall):
        # the pair opens with the vote and moves with it, over a CTA barrier too (`VOTE.ALL BSSY BAR.SYNC LDGSTS
        # ATOMS.ADD ARRIVES BSYNC`: tools/variations/arrives_waterfall.py)
        return [make_unit(ins, seq, target, kind=make_unit(ins, seq[:1], target).kind)]
    if ins is not None and len(seq) > 2 and seq[0].opcode == "ATOMS" and getattr(ins.attrs, "op", "") == \
            "cp_async_arrive" and seq[0].label is None and any(x.label is not None for x in seq[1:]):
        # ... and its leader's ATOMS.ADD a unit of the run before the loop, reading the vote
        k = next(i for i, x in enumerate(seq) if x.label is not None) - 1
        return [make_unit(ins, seq[:k], target), make_unit(ins, seq[k:], target)]
    if ins is not None and ins.opcode == "membermask" and len(seq) > 1 and seq[-1].opcode == "VOTEU" \
            and target is not None and target.has("WARP_COLLECTIVE"):
        return _active_read_apart(ins, seq, target)
    if ins is not None and len(seq) == 2 and seq[0].opcode == "BAR" and "RED" in seq[0].mods \
            and seq[1].opcode == "B2R" and target is not None and target.has("B2R_WAIT_FILLED"):
        return _reduction_apart(ins, seq, target)
    if _is_fence(ins) and len(seq) > 1 and seq[-1].opcode == "CCTL" and target is not None \
            and target.has("FENCE_INVALIDATE_APART"):
        # below sm_90 a thread fence's closing CCTL.IVALL orders memory only: a warp collective ready after the
        # MEMBAR/ERRBAR may issue first (docs/findings/scheduling.md "A fence's CCTL.IVALL below sm_90 (helper
        # nvatom, stop 21)")
        return [make_unit(ins, seq[:-1], target), make_unit(ins, seq[-1:], target, kind="barrier")]
    if ins is not None and ins.opcode in ("atom", "red", "st") and len(seq) > 1 and seq[0].opcode == "MEMBAR" \
            and not seq[0].guard and target is not None and target.has("MEMBAR_WAITS_MEMORY"):
        # below sm_90 a release operation's fence orders the warp collectives after it: a shuffle or an aggregation's
        # vote later in the PTX issues after the MEMBAR (`MEMBAR.ALL.CTA VOTEU.ANY ATOMG.MAX`, `MEMBAR SHFL.IDX
        # STG.STRONG`); earlier ones still fill its wait (docs/findings/scheduling.md "A release operation's MEMBAR
        # keeps later warp collectives below sm_90 (helper nvatom25, stop 25)")
        k = 1
        while k < len(seq) and seq[k].opcode in FENCE and seq[k].opcode != "MEMBAR":
            k += 1
        if k < len(seq) and not any(x.label is not None for x in seq[:k + 1]):
            fence = make_unit(ins, seq[:k], target, kind="fence")
            fence.defs = fence.uses = ()
            return [fence] + make_units(ins, seq[k:], target)
    if ins is not None and ins.opcode == "atom" and len(seq) > 1 and seq[-1].opcode == "CCTL" \
            and seq[-2].opcode in ATOMIC and target is not None and target.has("ACQUIRE_AFTER_BROADCAST"):
        # below sm_90 an acquire atomic's CCTL.IVALL is a unit of its own, ordered after the atomic: a taller
        # ready unit (an earlier atomic's broadcast) goes between them (`ATOM.MIN SHFL.IDX CCTL.IVALL`), one not
        # yet ready does not (`ATOMG.MAX CCTL.IVALL ATOMG ... SHFL.IDX`); docs/findings/scheduling.md "An acquire
        # atomic's broadcast orders what follows it below sm_90 (helper nvatom25, stop 25)"
        mem = make_unit(ins, seq[:-1], target)
        fence = make_unit(ins, seq[-1:], target, kind="barrier")
        key = f"~acquire#{id(ins)}"
        mem.defs += (key,)
        fence.defs, fence.uses = (), (key,)
        return [mem, fence]
    if ins is not None and ins.opcode in ("atom", "red") and target is not None \
            and target.has("LOOP_BSSY_SCHEDULED"):
        span = _loop_pair(seq)
        if span is not None:
            # ISel's own loop (a shared CAS.SPIN loop, a 16-bit CAS loop) opens with its convergence
            # pair: a unit of the run before it, placed by the list scheduler like a region's (docs/findings/
            # scheduling.md "The BSSY of ISel's own atomic loop is a unit of its block (helper nvlock32, stop 32)")
            pair = make_unit(ins, seq[:span], target, kind="control")
            pair.defs, pair.uses = (), ()
            pair.loop_reads = tuple(ori_uses(ins))
            return [pair, make_unit(ins, seq[span:], target)]
    if ins is None or ins.opcode not in ("atom", "red") or len(seq) < 2 or seq[0].opcode in _MEMORY_OPS:
        return [make_unit(ins, seq, target)]
    # the head ends at the memory instruction, or at the leader's release fence in front of it (sm_90+)
    k = next((i for i, x in enumerate(seq) if x.opcode in _MEMORY_OPS or x.opcode in FENCE and x.guard), None)
    if k is None or k == 0 or any(x.label is not None or x.opcode in CONTROL for x in seq[:k]):
        return [make_unit(ins, seq, target)]
    if any(x.opcode in FENCE or x.opcode in BARRIER for x in seq[:k]):
        return [make_unit(ins, seq, target)]
    regs = {r for x in seq[:k] for o in (x.guard,) + x.operands for r in _regs_in(o)}
    return _head_units(ins, seq[:k], target) + _split_tail(ins, seq[k:], regs, target)


# A 32-bit integer division or remainder by a value not a power of two is ptxas's reciprocal sequence: the
# divisor's reciprocal (`I2F.U32.RP; MUFU.RCP; IADD3; F2I; IMAD.MOV; IMAD; IMAD.HI`) reads only the divisor and
# is ready with it, this many cycles before the dividend's `IMAD.HI` may use it (I2F, MUFU, F2I and four ALU steps)
DIVISION_RECIPROCAL_LATENCY = 12 + 14 + 12 + 4 * ALU_LATENCY
# ... and the result, from the dividend's `IMAD.HI`: the quotient's correction steps (`IMAD.MOV; IMAD; ISETP;
# @P IADD3; ISETP; @P IADD3; @!P LOP3`), ALU work
DIVISION_RESULT_LATENCY = 7 * ALU_LATENCY
_INT32_TYPES = (".u32", ".s32")


def _reciprocal_division(ins: ori.Instr | None, seq: list[SassInstr], target) -> bool:
    """Does ptxas expand this Ori instruction into the reciprocal sequence (INT_DIVISION_RECIPROCAL_FIRST)?"""
    if ins is None or ins.opcode not in ("div", "rem") or len(seq) != 1 or target is None \
            or not target.has("INT_DIVISION_RECIPROCAL_FIRST") or not any(ins.has(t) for t in _INT32_TYPES):
        return False
    d = ins.operands[-1] if ins.operands else None
    if type(d) is A.Imm:
        try:
            v = int(d.text, 0)
        except ValueError:
            return False
        return not (v > 0 and v & (v - 1) == 0)
    return True


def _division_units(ins: ori.Instr, seq: list[SassInstr], target) -> list[Unit]:
    """The divisor's reciprocal as a unit of its own (one issue slot standing for the sequence's first
    instruction, no SASS of its own here) and the division's result after it: ptxas issues the reciprocal as soon
    as the divisor is known, above the dividend's load wait, and the run's first idle cycle falls in its chain
    (`LDG I2F.U32.RP ISETP.NE.U32 BSSY MUFU.RCP ...`: docs/findings/warp.md "An integer division's reciprocal
    goes first (helper nvcoll36, stop 36)")."""
    tail = make_unit(ins, seq, target)
    tail.latency = DIVISION_RESULT_LATENCY
    head = Unit(ins, [])
    head.kind = "alu"
    head.reciprocal = True
    head.cost = 1
    head.latency = DIVISION_RECIPROCAL_LATENCY
    d = ins.operands[-1]
    head.uses = tuple(ori_uses(ins))[-1:] if type(d) is not A.Imm else ()
    key = f"~reciprocal#{id(ins)}"
    head.defs = (key,)
    tail.uses = tuple(tail.uses) + (key,)
    return [head, tail]


def _loop_pair(seq: list[SassInstr]) -> int | None:
    """The end of the unguarded convergence pair (sm_75's BMOV.32.CLEAR, then the BSSY) that opens the sequence and
    the loop after it (a label of that loop right after the pair); else None. A pair after other work (the 16-bit
    CAS loop's aligned-word address) is left to fam_sync_pseudo: scheduled as a unit it matches the probes but loses
    Triton atomic_cas_kernel gpu_i16 on sm_90+ (docs/findings/scheduling.md "The BSSY of ISel's own atomic loop is
    a unit of its block (helper nvlock32, stop 32)")."""
    if not seq or seq[0].opcode not in ("BSSY", "BMOV") or seq[0].guard:
        return None
    k = 1 if seq[0].opcode == "BMOV" and "CLEAR" in seq[0].mods else 0
    if len(seq) > k + 1 and seq[k].opcode == "BSSY" and not seq[k].guard and seq[k + 1].label is not None:
        return k + 1
    return None


def _head_units(ins: ori.Instr, head: list[SassInstr], target) -> list[Unit]:
    """An aggregated atomic's head as units: the instructions that read none of the atomic's operands (the
    activemask vote, the leader lane, the active lanes' count) apart from those that do (the count times the
    value), so that the vote issues while a value that waits is still being computed:
    `VOTEU.ANY` before the SHFL/REDUX/VOTE of a value waiting for a load, on every target (probes
    atomic/agg_value_*, sm_90+; docs/findings/atomic.md "The value ptxas aggregates as uniform (helper cg,
    stop 22)")."""
    operands = set(ori_uses(ins))
    late_regs = set(operands)
    early, late = [], []
    for x in head:
        reads = {r for o in (x.guard,) + x.operands for r in _regs_in(o)}
        if reads & late_regs:
            late.append(x)
            late_regs |= _written([x])
        else:
            early.append(x)
    # only for a value that waits (a collective's or a load's result: fam_atomic tags the multiply VALUE_WAITS;
    # a run of atomics of constants keeps its heads whole: nvcc/atomic_ref_order_scope_matrix); a warp reduction
    # of the value stays behind the vote (`VOTEU.ANY REDUX`: probes atomic/agg_*_redux*)
    apart = early and any("VALUE_WAITS" in x.tags for x in late) and not any(x.opcode in COLLECTIVE for x in late)
    units = []
    for part in (early, late) if apart else (head,):
        # the REDUXes the run's first member issues for later members are units of their own: each waits for
        # its member's value (`_hoist_values`), those ready go first; the leader test after them still waits for
        # them all, so the run's first atomic issues after the last REDUX (sm_80-90: docs/findings/scheduling.md
        # "A run's hoisted REDUXes wait for their values (helper nvatom24, stop 24)")
        k = next((k for k, x in enumerate(part) if "HOISTED" in x.tags), None)
        if k is None:
            subs, after = [part], None
        else:
            hoisted = [[x] for x in part if "HOISTED" in x.tags]
            rest = [x for x in part[k:] if "HOISTED" not in x.tags]
            subs = ([part[:k]] if k else []) + hoisted + ([rest] if rest else [])
            after = f"~hoisted{id(part[k])}" if rest else None
        for sub in subs:
            u = make_unit(ins, sub, target)
            u.eager = _reads_active_lanes(sub[0])
            u.uses = tuple(sorted({r for x in sub for o in (x.guard,) + x.operands for r in _regs_in(o)}))
            # what the head writes: a later run member's head reads the run's shared activemask without
            # redefining it
            u.defs = tuple(sorted(_written(sub) - operands - set(ori_defs(ins))))
            if k is not None:
                # order edges (anti dependences on pseudo registers): the vote (and the first member's own
                # REDUX) before each hoisted REDUX, each hoisted REDUX before the rest of the head
                if "HOISTED" in sub[0].tags:
                    u.defs += (f"~pre{id(sub[0])}",)
                    # a REDUX still waiting for a load of the block does not hold the rest of the head: the
                    # run's first atomic issues before it (`VOTEU.ANY REDG REDUX.SUM REDG`; docs/findings/
                    # atomic.md "A REDUX waiting for a load lets the run's earlier atomics go first (helper
                    # nv27atom, stop 27)")
                    if after is not None and "VALUE_LOADED" not in sub[0].tags:
                        u.uses += (after,)
                elif sub is subs[0] and k:
                    u.uses += tuple(f"~pre{id(x)}" for x in part if "HOISTED" in x.tags)
                elif after is not None and sub is subs[-1]:
                    u.defs += (after,)
            units.append(u)
    return units


def _reads_active_lanes(s: SassInstr) -> bool:
    """`VOTEU.ANY UR, UPT, PT`: the uniform read of the active lanes that starts an aggregated atomic's head."""
    return s.opcode == "VOTEU" and s.mods == ("ANY",) and s.operands[1:] == ("UPT", "PT") and not s.guard


def _written(seq: list[SassInstr]) -> set:
    """The registers a rule's SASS writes: each instruction's first register operand, unless it is an address."""
    out: set = set()
    for x in seq:
        for o in x.operands:
            regs = _regs_in(o)
            if regs:
                if not o.startswith("["):
                    out.update(regs)
                break
    return out


def _split_tail(ins: ori.Instr, seq: list[SassInstr], head_regs: set, target) -> list[Unit]:
    """An aggregated atomic's memory instruction and what follows it: the leader's old value broadcast to the
    lanes (S2R SR_LTMASK, POPC of the lanes below, SHFL.IDX from the leader, add) is a unit of its own, so that
    the next atomic of the run can issue while the first one's result is in flight: ptxas issues a run's
    atomics back to back and their SHFL.IDX after them (probes/atomic/agg_run_popc_used_sink*;
    docs/findings/scheduling.md "Aggregated atomics issue back to back; a MEMBAR waits below sm_90 (helper nvatom, stop 20)")."""
    whole = [make_unit(ins, seq, target)]
    if len(seq) < 2 or any(x.label is not None or x.opcode in CONTROL for x in seq):
        return whole
    # the memory instruction with the leader's fences around it (sm_90+: MEMBAR.. before, CCTL.IVALL after)
    m = next((i for i, x in enumerate(seq) if x.opcode in _MEMORY_OPS), len(seq))
    j = m + 1
    while j < len(seq) and (seq[j].opcode in FENCE or seq[j].opcode in BARRIER):
        j += 1
    rest = seq[j:]
    if any(x.opcode in _MEMORY_OPS for x in rest) or not any(x.opcode == "SHFL" for x in rest):
        return whole
    mem = make_unit(ins, seq[:j], target)
    tail = make_unit(ins, rest, target)
    own_defs, own_uses = tuple(ori_defs(ins)), tuple(ori_uses(ins))
    mem_regs = {r for x in seq[:j] for o in (x.guard,) + x.operands for r in _regs_in(o)}
    mem.uses = tuple(sorted(set(own_uses) | (mem_regs - set(own_defs))))
    mem.defs = own_defs
    tail_regs = {r for x in rest for o in (x.guard,) + x.operands for r in _regs_in(o)}
    # the head's registers (activemask, leader lane) are read here; the tail's own temporaries are written
    tail.uses = tuple(sorted(tail_regs | set(own_defs)))
    tail.defs = tuple(sorted(set(own_defs) | (_written(rest) - set(own_uses))))
    tail.broadcast_of = mem
    if ins.attrs.sem in ("acquire", "acq_rel") and target is not None and target.has("ACQUIRE_AFTER_BROADCAST"):
        # below sm_90 the acquire orders later memory operations from the end of the broadcast, at CTA scope too
        # where no CCTL.IVALL closes it (`ATOM.STRONG.SM SHFL.IDX ATOM.MIN`; docs/findings/scheduling.md "An
        # acquire atomic's broadcast orders what follows it below sm_90 (helper nvatom25, stop 25)")
        tail.acquire = True
        if _RANK[tail.kind] < _RANK["barrier"]:
            tail.kind = "barrier"
    return [mem, tail]


# Instructions that end a sequence without producing its result: an acquire's CCTL.IVALL after the load or
# atomic (the value is ready when the memory instruction's latency has passed, as without the fence).
_TRAILING = frozenset({"CCTL"}) | FENCE


def _result_opcode(seq: list[SassInstr]) -> str:
    """The opcode whose latency a unit's result has: its last instruction, before a trailing acquire fence."""
    ops = [s.opcode for s in seq if s.opcode != VIRTUAL]
    while len(ops) > 1 and ops[-1] in _TRAILING:
        ops.pop()
    return ops[-1] if ops else VIRTUAL


_FIRST = 1 << 30                    # index offset of a mask_first unit: ahead of every tie, in PTX order


def make_unit(ins: ori.Instr | None, seq: list[SassInstr], target=None, kind: str | None = None) -> Unit:
    u = Unit(ins, seq)
    u.kind = kind or (_kind(u) if ins is not None else "control")
    real = sum(1 for s in seq if s.opcode != VIRTUAL)
    u.cost = 0 if _is_free(ins) else real
    u.latency = LATENCY.get(_result_opcode(seq), ALU_LATENCY) if u.cost else 0
    if u.cost:
        u.pipe = PIPE.get(u.first)
        if u.pipe and u.pipe[0] == "alu" and target is not None and target.has("FULL_RATE_INT"):
            u.pipe = ("alu", 1)
    if ins is not None:
        defs, uses = tuple(ori_defs(ins)), tuple(ori_uses(ins))
        own = set(defs) | set(uses)
        hidden = tuple(sorted({r for x in seq for o in (x.guard,) + x.operands for r in _regs_in(o)} - own))
        u.defs = defs + hidden
        u.uses = uses + hidden
        if target is not None and target.has("REDUX_MASK_UNREAD") and redux_mask_only(ins):
            # sm_80-89: the REDUX reads no member mask; it does not wait for the activemask read that makes it
            # (`REDUX.SUM.S32; VOTEU.ANY` for `__reduce_add_sync(__activemask(), v)` beside an ltmask test:
            # docs/findings/warp.md "A redux.sync's member mask is no vector reader on sm_80-89 (helper nvsched35,
            # stop 35)")
            u.uses = tuple(r for r in u.uses if r != ins.operands[2].name)
        if u.kind in ("load", "store", "atomic"):
            u.mem = _mem(ins)
    # sm_90+: a shuffle whose member mask is in a register (a parameter, or a partial immediate materialised
    # for EIATTR_COOP_GROUP_MASK_REGIDS) issues before the full-mask shuffles of its height (docs/findings/
    # scheduling.md "A shuffle with its mask in a register goes first among equals (helper nvcg25, stop 25)")
    u.mask_first = target is not None and target.has("MASKED_SHUFFLE_FIRST") and any(
        x.opcode == "SHFL" and "MASK_REG" in x.tags for x in seq)
    return u


def make_predicated_if(pairs: list, target=None) -> Unit:
    """An if region ptxas predicates (its guarded branch and the body it jumps over), one unit: ptxas's block runs
    on through it, so the work before and after it is scheduled across it as across one guarded instruction
    (docs/findings/scheduling.md "A predicated if is one instruction to the scheduler (helper sched27, stop 27)").
    Its kind is the strongest of the body's, its registers all of theirs; the branch keeps the body behind it."""
    # make_units: its units as the run would have them (below sm_90 a release MEMBAR would be a fence unit)
    body = [u for ins, seq in pairs[1:] for u in make_units(ins, seq, target)]
    kind = max((b.kind for b in body), key=_RANK.__getitem__, default="alu")
    u = make_unit(pairs[0][0], [s for _, seq in pairs for s in seq], target, kind=kind)
    u.members = tuple(pairs)
    u.defs = tuple(dict.fromkeys(r for b in body for r in b.defs)) + ("~predicated_if",)   # they keep their order
    u.uses = tuple(dict.fromkeys([*u.uses, *(r for b in body for r in b.uses)]))
    mems = [b for b in body if b.kind in ("load", "store", "atomic")]
    u.mem = mems[0].mem if len(mems) == 1 else None
    u.cost = sum(b.cost for b in body) + 1
    u.latency = max((b.latency for b in body), default=0)
    u.pipe = next((b.pipe for b in body if b.pipe), None)
    # each register the body writes is ready by its own chain through the body (its guarded instructions take one
    # issue slot each in order, a reader issuing once its operands are ready without holding back the ones after
    # it): `@!P LDG f; ISETP p, f; @!P LDG v` gives v a load's latency after the unit and p a compare later
    # (docs/findings/scheduling.md "A predicated if's values are ready by their own chain (helper nvsched39,
    # stop 39)")
    ready: dict = {}
    t = 1                                # the branch's slot
    for b in body:
        start = max([t] + [ready[r][0] + ready[r][2] for r in b.uses if r in ready])
        t += b.cost
        for r in b.defs:
            ready[r] = (start, b.last, b.latency if b.cost else 0)
    u.def_ready = ready
    return u


def _ordered(a: str, b: str) -> bool:
    return (a, b) in ORDERED or (b, a) in ORDERED


_KINDS = frozenset(k for pair in ORDERED for k in pair)


def _covered(p_kind: str, hub_kind: str) -> bool:
    """Are all of a `p_kind` unit's order edges to later units implied by an order edge to a `hub_kind` unit?"""
    return _ordered(p_kind, hub_kind) and all(_ordered(hub_kind, k) for k in _KINDS if _ordered(p_kind, k))


# the kinds each kind keeps an order with (either way round)
_ORDERED_WITH = {k: tuple(j for j in sorted(_KINDS) if _ordered(k, j)) for k in _KINDS}
_COVERED_BY = {hub: tuple(k for k in sorted(_KINDS) if _covered(k, hub)) for hub in ORDERED_ALWAYS}


def _build(region: list[Unit], membar_waits: bool = False, in_loop: bool = True) -> None:
    last_def: dict[str, Unit] = {}
    readers: dict[str, list[Unit]] = {}
    mem_ops: dict[str, list[Unit]] = {k: [] for k in _KINDS}   # the memory-ordered units so far, by kind
    for i, u in enumerate(region):
        u.index, u.succs, u.npreds, u.ready, u.scoreboard, u.far = i, [], 0, 0, False, False
    edges: dict[tuple[int, int], int] = {}

    def edge(p: Unit, c: Unit, lat: int) -> None:
        k = (p.index, c.index)
        if k not in edges or edges[k] < lat:
            edges[k] = lat

    for u in region:
        extra = _operand_latency(u)
        for r in u.uses:
            p = last_def.get(r)
            if p is not None:
                edge(p, u, _latency(p, u, r) + extra.get(r, 0))
        for r in u.defs:
            for rd in readers.get(r, ()):
                if rd is not u:
                    edge(rd, u, 0)
            p = last_def.get(r)
            if p is not None and p is not u:
                edge(p, u, 1 if p.cost else 0)
        if u.kind in _ORDERED_WITH:
            for k in _ORDERED_WITH[u.kind]:
                for p in mem_ops[k]:
                    if p.kind in ORDERED_ALWAYS or u.kind in ORDERED_ALWAYS or "atomic" in (p.kind, u.kind) \
                            and {p.kind, u.kind} <= {"atomic", "store"} and _same_space(p, u) \
                            or (p.kind, u.kind) == ("atomic", "load") and _same_space(p, u) \
                            or _may_alias(p.mem, u.mem):
                        # below sm_90 a MEMBAR waits for the atomics before it (MEMBAR_WAITS_MEMORY)
                        edge(p, u, p.latency + 1 if membar_waits and u.first == "MEMBAR" and p.kind == "atomic"
                             else FENCE_WAIT if membar_waits and p.kind == "fence" and p.first == "MEMBAR"
                             else BAR_ORDER_LATENCY if p.first in HELD_BARRIERS and u.first in MBARRIER_OPS else 0)
            if u.kind in ORDERED_ALWAYS:
                # every earlier unit whose later order edges all pass through u now (it is ordered with u, and u
                # with every kind it is ordered with) needs no more edges of its own: they would be transitive,
                # 0-latency, and change neither readiness nor heights (keeps long unrolled blocks linear)
                for k in _COVERED_BY[u.kind]:
                    mem_ops[k] = []
            mem_ops[u.kind].append(u)
        for r in u.uses:
            readers.setdefault(r, []).append(u)
        for r in u.defs:
            last_def[r] = u
            readers[r] = []
    _waits(region, edges)
    bssys = [u for u in region if u.kind == BSSY_KIND]
    if bssys:
        read = {r for u in bssys for r in u.loop_reads}     # ISel's own loop after the run reads these
        awaited = set()
        fences = {p.index for p in region if _bssy_fence(p, membar_waits)}
        for p in reversed(region):                 # loads and atomics whose result the block reads, fences
            if p.index in fences or _bssy_awaits(p) and set(p.defs) & read:
                awaited.add(p.index)
            if p.cost or set(p.defs) & read:       # (a folded move reads for its readers)
                read.update(p.uses)
        # ... and what a memory fence orders right after it
        awaited |= {b for a, b in edges if a in fences}
        for u in bssys:
            for k in sorted(awaited):
                if k < u.index and region[k].kind != BSSY_KIND:
                    edge(region[k], u, 0)
    backward = _heads_after_gated_loads(region, edges)
    succs = None                       # _successor_lists(edges), built on the first broadcast that waits
    for u in region:
        mem = u.waits_for
        if mem is not None and mem.index > u.index and mem is region[mem.index]:
            if succs is None:
                succs = _successor_lists(edges)
            if not _reaches(succs, u.index, mem.index):
                edges[(mem.index, u.index)] = max(edges.get((mem.index, u.index), 0), _latency(mem, u))
                succs.setdefault(mem.index, []).append(u.index)
                backward = True
    for (a, b), lat in edges.items():
        region[a].succs.append((region[b], lat))
        region[b].npreds += 1
    for u in (_reverse_topological(region) if backward else reversed(region)):
        own = u.latency
        u.height = max([lat + v.height for v, lat in u.succs] + [own])
    _mark_held(region, edges, in_loop)


def _reverse_topological(region: list[Unit]) -> list[Unit]:
    """The units, every one after all its successors (the region order reversed, when an edge goes backwards)."""
    out: list[Unit] = []
    done: set[int] = set()
    for root in reversed(region):
        stack = [(root, iter(root.succs))]
        if root.index in done:
            continue
        done.add(root.index)
        while stack:
            u, it = stack[-1]
            nxt = next((v for v, _ in it if v.index not in done), None)
            if nxt is None:
                stack.pop()
                out.append(u)
            else:
                done.add(nxt.index)
                stack.append((nxt, iter(nxt.succs)))
    return out


def _mark_held(region: list[Unit], edges: dict, in_loop: bool = True) -> None:
    """Unit.holds: the NOT_FILLERS units a unit can hold back, as a bit mask of unit indices. A barrier is held by
    work that descends from a load ordered before it (directly or through other ordering points) and that every
    one of the barrier's own successors needs (issuing the barrier early would make nothing ready sooner); outside
    a loop (`in_loop` False) only while that work is within HOLD_REACH cycles of the barrier's successor:
    probes/scheduling/barrier_not_filler, Triton cumsum_carry (the third barrier waits for a shuffle reduction
    of values loaded at the top of the loop). Work some successor of the barrier does not need
    (barrier_successor_independent) or that descends from no such load (Triton layer_norm_fwd_fused) does not
    hold it. Ancestor sets are bit masks filled in one pass in region order (edges go forward)."""
    for u in region:
        u.holds = 0
        # a form folded into its readers (a bitcast mov before a shuffle) waits for them: it holds a barrier as
        # they would, not as plain ALU work (docs/findings/scheduling.md "The barrier between the max and the sum
        # reduction (helper tbar24, stop 24)")
        u.stand_in = not u.cost and any(v.kind != "alu" for v, _ in u.succs)
    barriers = [u.index for u in region if u.kind in NOT_FILLERS and u.first in HELD_BARRIERS
                and (u.succs or _closes_run(region, u, in_loop) or _closes_run(region, u, True, loose=True))]
    if not barriers:
        return
    anc = [0] * len(region)                 # bit set of each unit's ancestors (edges go forward in the region)
    preds: dict[int, list[int]] = {}
    for a, b in edges:
        preds.setdefault(b, []).append(a)
    loads = 0
    for u in region:
        m = 0
        for p in preds.get(u.index, ()):
            m |= anc[p] | (1 << p)
        anc[u.index] = m
        if u.kind in ("load", "atomic"):
            loads |= 1 << u.index
    valid = _shuffle_predicates(region)
    rescaled = _rescaled_loads(region) if not in_loop else 0
    for b in barriers:
        before = anc[b] & loads
        if not before:
            continue
        needed = -1                         # what every successor of the barrier waits for
        for v, _ in region[b].succs:
            needed &= anc[v.index]
        if not region[b].succs:             # the run's last work (_closes_run): the end of the run waits for all
            needed = (1 << len(region)) - 1
        needed &= ~anc[b] & ~(1 << b)
        need_any = 0
        for v, _ in region[b].succs:
            need_any |= anc[v.index]
        holders = []
        while needed:
            low = needed & -needed
            w = low.bit_length() - 1
            needed ^= low
            if anc[w] & before:
                holders.append(region[w])
        if not region[b].succs and (not in_loop or any(u.cost for u in region[b + 1:])):
            # outside a loop, or ALU work after the run-closing barrier (the guard's compare of the atomic that
            # follows, a loop latch's IADD3s hoisted above the atomic's region): a warp REDUX and the work it
            # waits for hold it; without a REDUX, the exchange's shuffles do where _closes_run holds the barrier
            reds = [w.index for w in holders if w.first in REDUX_HOLDS]
            if reds or not _closes_run(region, region[b], in_loop):
                holders = [w for w in holders if w.index in reds or any(anc[r] >> w.index & 1 for r in reds)]
        if valid and any(valid.intersection(w.uses) for w in holders):
            # work that reads a shuffle's validity predicate (a scan's `@p add`, a selp of it) holds no barrier:
            # ptxas issues it in the load's stall (docs/findings/scheduling.md "A shuffle chain that reads the
            # shuffles' validity predicates holds no barrier (helper sched27, stop 27)")
            continue
        if any(c.kind == "collective" and c.index > b and not (anc[b] >> c.index & 1 or anc[c.index] >> b & 1
                                                                  or need_any >> c.index & 1) for c in region):
            # a warp collective after the barrier in PTX that is independent of it (neither ordered before it, nor
            # after it, nor needed by its successors: a second reduction of other values) keeps the hold whatever
            # the reach (docs/findings/scheduling.md "Two independent reductions in one block: the lagging chain,
            # the held WAR barrier and the rescaled ex2 (helper tslot34, stop 34)")
            pass
        elif not in_loop and holders and not any(anc[k] >> b & 1 for k in _bits(rescaled)) and \
                max(w.height for w in holders) - max((v.height for v, _ in region[b].succs), default=0) > HOLD_REACH:
            # outside a loop, work far above the barrier's successor holds nothing: ptxas issues the barrier in
            # the load's stall (docs/findings/scheduling.md "The barrier slot is no register-budget effect: loops
            # and the reach of the hold (helper bar28, stop 28)"), unless a load after it is rescaled in place
            # (docs/findings/scheduling.md "The load after the next exchange rescaled in place holds the barrier
            # (helper slot29, stop 29)")
            continue
        for w in holders:
            w.holds |= 1 << b


# The warp reductions that hold a CTA barrier through a fixed-latency wait only where REDUX_HOLDS_THROUGH_ALU_WAIT
# (_list_schedule)
REDUX_HOLDS = frozenset({"REDUX", "CREDUX"})


# The guarded loads a block outside a loop may hold while ptxas keeps its run-closing barrier behind the exchange's
# shuffles: one per P register (P0-P6). With eight, the guards no longer fit and ptxas issues that barrier right after
# the exchange's shared load (`LDS BAR SHFL SHFL`; tools/variations/loop_reduce_atomic_war_bar.py, straight L8
# rows; helper tsched36's block_min_then_max_atomic and row_ops block_max_atomic).
CLOSING_HOLD_GUARDS = 7


def _closes_run(region: list[Unit], bar: Unit, in_loop: bool, loose: bool = False) -> bool:
    """Is the barrier the last ordering point of its run (no successor in it: the guarded atomic's or store's region
    follows), held back like a barrier whose successors need everything? ptxas keeps such a barrier after the
    shuffles of values loaded before it (`st.shared; bar; ld.shared; shfl xk; bar; @p red|atom` -> `BAR SHFL xk
    BAR`): in a loop whatever register work follows it in its run (a per-tile address, the loop latch's IADD3s
    hoisted into the run below sm_90), outside a loop while the run's guarded loads fit in the P registers
    (CLOSING_HOLD_GUARDS) (docs/findings/scheduling.md "A loop's run-closing barrier waits for the shuffles (helper
    tpersist33, stop 33)" and "The exchange's closing barrier waits for the shuffles outside loops too (helper
    tbar38, stop 38)").
    `loose`: the barrier is followed by nothing costed but ALU work (the guard's compare, a loop latch's hoisted
    adds), in or outside a loop; such a barrier is held only by the run's warp reduction when that is a REDUX
    (_mark_held; docs/findings/scheduling.md "The barrier closing an integer block reduction before a guarded
    atomic: loops and straight code (helper tredux38, stop 38)")."""
    if bar.succs:
        return False
    if loose:
        return all(not u.cost or u.kind == "alu" for u in region[bar.index + 1:])
    if in_loop:
        return True
    first = next((u for u in region if u.first in WARP_COLLECTIVES), None)
    if first is not None and first.first in WARP_REDUCTIONS and first.index < bar.index:
        # an integer block reduction's first stage is a warp REDUX of the loaded values: ptxas keeps the barrier
        # after the post-exchange shuffles however many guarded loads feed it (`REDUX BAR SHFL BAR`;
        # tools/variations/redux_exchange_atomic.py, straight L8 rows; docs/findings/scheduling.md "The BSSY of a
        # guarded atomic after a REDUX block reduction (helper tshfl39, stop 39)")
        return True
    guards = {u.ins.guard for u in region if u.kind == "load" and u.ins is not None and u.ins.guard}
    return len(guards) <= CLOSING_HOLD_GUARDS


def _bits(m: int):
    """The indices of the set bits of m, lowest first."""
    while m:
        low = m & -m
        yield low.bit_length() - 1
        m ^= low


# PTX forms ptxas expands with a denormal prelude that rescales their source in place under a predicate
# (`FSETP.GEU P, x, -126; @!P FMUL x, x, 0.5; MUFU.EX2`): the approximate f32 ex2/lg2 without .ftz.
_RESCALED = frozenset({"ex2", "lg2"})


def _rescales(ins: ori.Instr | None) -> bool:
    return ins is not None and ins.opcode in _RESCALED and ins.has(".approx") and ins.has(".f32") \
        and not ins.has(".ftz")


def _rescaled_loads(region: list[Unit]) -> int:
    """Bit set of the region's loads whose result a rescaling form (_RESCALED) reads directly: outside a loop a
    barrier ordered before such a load keeps its hold whatever the reach (docs/findings/scheduling.md "The load
    after the next exchange rescaled in place holds the barrier (helper slot29, stop 29)")."""
    defs: dict[str, int] = {}
    out = 0
    for u in region:
        if _rescales(u.ins):
            for r in u.uses:
                k = defs.get(r)
                if k is not None:
                    out |= 1 << k
        for r in u.defs:
            if u.kind == "load":
                defs[r] = u.index
            else:
                defs.pop(r, None)
    return out


def _shuffle_predicates(region: list[Unit]) -> set:
    """The predicates the region's shuffles write (`shfl.sync ... d|p`: is the source lane in range)."""
    out = set()
    for u in region:
        ins = u.ins
        if ins is not None and ins.opcode == "shfl" and ins.operands and type(ins.operands[0]) is A.Pair:
            out.update(ori_defs(ins)[1:])
    return out


def _global_store(u: Unit) -> bool:
    return u.kind == "store" and u.mem is not None and u.mem[0] in (".global", "generic") \
        or any(s.opcode == "LDGSTS" for s in u.sass)


def _mark_late(region: list[Unit], any_base: bool) -> None:
    """Unit.late: the global stores (and cp.asyncs) ptxas does not issue into a stall. Below sm_90
    (LATE_GLOBAL_STORES) every one; from sm_90 a global store sharing its base register with a later global store
    of the region. A barrier whose successors are all global stores, one of them late, is late too: a ready
    bar.sync issues right before its first successor. A late unit waits while a taller unit whose predecessors
    have issued waits, unless for a global load or atomic in flight (probes/scheduling/barrier_successor_*;
    docs/findings/scheduling.md "Global stores are no stall fillers (helper tsched, stop 23)")."""
    later: dict = {}                 # base register -> count of the global stores still to come
    for u in region:
        u.late = False
        if _global_store(u) and u.kind == "store" and u.mem is not None and u.mem[1] is not None:
            later[u.mem[1]] = later.get(u.mem[1], 0) + 1
    for u in region:
        if not _global_store(u):
            continue
        base = u.mem[1] if u.kind == "store" and u.mem is not None else None
        if base is not None:
            later[base] -= 1
        u.late = any_base or base is not None and later[base] > 0
    for u in region:
        if u.kind in NOT_FILLERS and u.succs and all(_global_store(v) for v, _ in u.succs) \
                and any(v.late for v, _ in u.succs):
            u.late = True


def _waits(region: list[Unit], edges: dict) -> None:
    """WAITS_FOR_ALL: order-only edges from every unit of the awaited kinds to the waiting unit, unless
    the awaited unit depends on the waiting one."""
    waiting = [(u, WAITS_FOR_ALL[r]) for u in region if (r := _role(u)) in WAITS_FOR_ALL and _read_in(u, region)]
    if not waiting:
        return
    succs = _successor_lists(edges)

    for u, kinds in waiting:
        awaited = [p for p in region if p is not u and any(x.opcode in kinds for x in p.sass)]
        if not _combined(u, awaited, region):
            # not combined: it still waits for the reductions ready at the region's start (their value made in an
            # earlier block: `REDUX VOTEU REDUX` when the second value is computed in the block)
            awaited = _ready_at_start(u, awaited, region)
        for p in awaited:
            if not _reaches(succs, u.index, p.index):
                edges.setdefault((p.index, u.index), 0)
                succs.setdefault(p.index, []).append(u.index)


def _combined(u: Unit, awaited: list[Unit], region: list[Unit]) -> bool:
    """Is the mask `u` reads combined in its region with an awaited unit's result, i.e. does one unit read
    registers descending from both? The mask added to a reduction issues after it (`REDUX VOTEU`); a mask read
    only for the leader test (`__ffs(act) - 1 == lane`), its popcount or a store of its own issues as soon as it
    is ready, in the reductions' load or ALU wait (`VOTEU REDUX`), on every target:
    tools/variations/activemask_leader_redux.py; docs/findings/scheduling.md "... (helper nvsched37, stop 37)"."""
    from_mask, from_awaited = set(u.defs), set()
    reductions = {id(p) for p in awaited}
    for v in region:
        if v is u:
            continue
        uses = set(v.uses)
        m, a = uses & from_mask, uses & from_awaited
        if m and a:
            return True
        if id(v) in reductions:
            # (a reduction reading the mask as its member mask does not combine it)
            from_awaited.update(v.defs)
            continue
        if a:
            from_awaited.update(v.defs)
        if m:
            from_mask.update(v.defs)
    return False


def _ready_at_start(u: Unit, awaited: list[Unit], region: list[Unit]) -> list[Unit]:
    """The awaited units reading no register the region computes before them (the mask `u` reads aside; a free
    copy of a value made before the region, e.g. a merged load's move, is no computation)."""
    out, written, reductions = [], set(), {id(p) for p in awaited}
    for v in region:
        late = bool((set(v.uses) - set(u.defs)) & written)
        if id(v) in reductions and not late:
            out.append(v)
        if late or not _is_free(v.ins):
            written.update(v.defs)
    return out


def _read_in(u: Unit, region: list[Unit]) -> bool:
    """Does a later unit of the region read what `u` writes? An activemask read only after its block (a lane-0
    if's store) issues as soon as it is ready, ahead of the block's REDUXes (`VOTEU REDUX`; read in its block:
    `REDUX VOTEU`): tools/variations/activemask_redux_order.py; docs/findings/scheduling.md "An activemask read
    after its block does not wait for the REDUXes (helper nvsched35, stop 35)"."""
    written = set(u.defs)
    return any(written & set(v.uses) for v in region if v is not u)


_NOT_FILLER = "not a filler"        # avail key of the NOT_FILLERS units
# Priority added to an aggregated atomic's head that starts with the active-lane read when nothing in its region
# orders it (a two-way fence does: then the fence's CCTL.IVALL still goes first below sm_90, phases/
# bssy_below_membar_fence_then_ld_red): ptxas issues it first in its block, above taller ALU chains and cluster
# barriers (probes/scheduling/agg_head_before_*;
# docs/findings/scheduling.md "An aggregated atomic's head issues first; atomics of other spaces pass").
EAGER = 1 << 20


_LATE = "late"                     # avail key (with the pipe) of the Unit.late units


def _release_membar(u: Unit) -> bool:
    """A release operation's MEMBAR (a unit of its own or with its store, or a predicated if's guarded `MEMBAR; ST`),
    no CTA barrier."""
    return u.kind in ("barrier", "fence") and any(s.opcode == "MEMBAR" for s in u.sass) \
        and not any(s.opcode in BARRIER for s in u.sass)


def _heads_after_gated_loads(region: list[Unit], edges: dict) -> bool:
    """An aggregated atomic's eager head waits for every global load of its region that a release MEMBAR orders:
    ptxas issues the MEMBAR, its store and the load first and the head's VOTEU.ANY right after the LDG, whether the
    load feeds the atomic or not (`MEMBAR.ALL.CTA STS LDG VOTEU.ANY ATOMS`; with a shared load or no load after the
    release the head goes first from sm_90): docs/findings/scheduling.md "A release store's MEMBAR in a predicated
    if issues with its store (helper llvm30, stop 30)". Order edges of latency 0; True when one goes backwards."""
    heads = [u for u in region if u.eager]
    if not heads:
        return False
    loads = {b for a, b in edges if _release_membar(region[a])
             and region[b].kind == "load" and any(x.opcode == "LDG" for x in region[b].sass)}
    backward = False
    succs = _successor_lists(edges)
    for h in heads:
        for k in sorted(loads):
            if k != h.index and not _reaches(succs, h.index, k):
                edges.setdefault((k, h.index), 0)
                succs.setdefault(k, []).append(h.index)
                backward |= k > h.index
    return backward


def _pipe(key, unit: Unit):
    if type(key) is tuple:
        return key[1]
    return (unit.pipe[0] if unit.pipe else None) if key == _NOT_FILLER else key


# Warp collectives that read their value from a vector register (not a predicate): of two of equal height the
# one whose value was ready first issues first (_ready_first).
READY_ORDERED = frozenset({"REDUX", "CREDUX", "SHFL", "MATCH"})


def _ready_first(heap: list):
    """The entry of `heap` to issue when its top is a warp collective reading a vector register (READY_ORDERED):
    of the READY_ORDERED entries of the top's height the one whose value became ready first, then PTX order;
    otherwise the top. `LDG x; LDG y; REDUX(y) REDUX(x) REDUX(y) REDUX(x)` issues both of x's REDUXes first
    (docs/findings/scheduling.md "Equal collectives issue by the time their values are ready (helper
    nvintrin32, stop 32)"; probes scheduling/tie_ready_*). Votes of predicates, ELECT and other units keep PTX
    order among equals (probes warp/cse_vote_mixed_preds, scheduling/elect_after_*, b2r_wait_shuffles_first)."""
    top = heap[0]
    if top[2].first not in READY_ORDERED or top[1] < 0:
        return top
    return min((e for e in heap if e[0] == top[0] and e[1] >= 0 and e[2].first in READY_ORDERED),
               key=lambda e: (e[2].ready, e[1]))


def _list_schedule(region: list[Unit], membar_waits: bool = False, late_stores: bool | None = None,
                   stalls: set | None = None, any_idle: bool = False, in_loop: bool = True,
                   vote_slack: bool = False, redux_alu_hold: bool = True,
                   active_late: bool = False, crowded: bool = False) -> list[Unit]:
    """Top-down, cycle-driven list scheduling: each cycle issues the highest unit (then PTX order) whose
    operands are ready and whose pipe is free; when none can issue, the clock moves to the next cycle
    one can. `late_stores`: None, no late stores; else _mark_late's `any_base`. `stalls`: gets the id() of the
    first SASS instruction of the unit the run issues after its first wait for a variable-latency result (load,
    shuffle, S2R...), where ptxas issues a BSSY (fam_sync_pseudo._hoist_to_first_stall); with `any_idle`
    (BSSY_IN_FIRST_IDLE_CYCLE) after its first idle cycle of any cause: a fixed-latency result or a busy pipe
    (docs/findings/warp.md "The BSSY in the first idle cycle of its block on sm_90+ (helper warp28, stop 28)").
    `in_loop`: the region's block is inside a loop (the barrier hold's reach, _build). `vote_slack`
    (VOTE_WAITS_FOR_TALLER_WORK): a vote whose result only stores wait, with slack, behind taller work (_vote_slack).
    `redux_alu_hold` (REDUX_HOLDS_THROUGH_ALU_WAIT): a REDUX waiting for a fixed-latency result holds a barrier.
    `active_late` (ACTIVEMASK_READ_NO_FILLER): an activemask read fills no wait for a fixed-latency result.
    `crowded`: the run holds more predicates than the registers (_predicate_pressure): outside a loop its
    run-closing barrier is held by nothing (_mark_held)."""
    _build(region, membar_waits, in_loop)
    if crowded and not in_loop:
        for b in region:
            if b.kind in NOT_FILLERS and not b.succs:
                for u in region:
                    u.holds &= ~(1 << b.index)
    if late_stores is not None:
        _mark_late(region, late_stores)
    else:
        for u in region:
            u.late = False
    if active_late:
        for u in region:
            if _active_lanes_read(u):
                u.late = True
    for u in region:
        u.boost = EAGER if u.eager and u.npreds == 0 else 0
        # a form folded into its reader (a register move before a masked shuffle) is the reader's operand: it
        # goes first when the reader does (docs/findings/scheduling.md "A merged load feeds a masked shuffle
        # through a move (helper nvcg26, stop 26)")
        if not u.cost and any(v.mask_first for v, _ in u.succs):
            u.mask_first = True
    for u in region:
        u.ready = max(u.ready, u.not_before)
    waiting = [(u.ready, u.index, u) for u in region if u.npreds == 0]    # predecessors issued, by ready time
    heapq.heapify(waiting)
    avail: dict = {}                   # pipe name (or None) -> heap of (-height, index, unit) ready to issue
    busy: dict[str, int] = {}          # pipe -> first cycle it is free
    cycle = 0
    out: list[Unit] = []
    idle = False                       # an idle cycle after the first issue, no unit marked yet (`stalls`)
    issued: set[int] = set()           # the indices of the units issued so far (_vote_slack)
    while waiting or any(avail.values()):
        while waiting and waiting[0][0] <= cycle:
            _, _, u = heapq.heappop(waiting)
            key = BSSY_KIND if u.kind == BSSY_KIND else _NOT_FILLER if u.kind in NOT_FILLERS \
                else u.pipe[0] if u.pipe else None
            if u.late and key != _NOT_FILLER:
                key = (_LATE, key)
            if vote_slack and u.deferred is None:
                u.deferred = _vote_slack(u, region, issued)
            heapq.heappush(avail.setdefault(key, []), (-u.height - u.boost, u.index - _FIRST * u.mask_first, u))
        best = None
        for key, heap in avail.items():
            if not heap or key == BSSY_KIND:
                continue
            top = heap[0][2]
            closing = key == _NOT_FILLER and not top.succs     # a run-closing barrier (_closes_run)
            if key == _NOT_FILLER and any((w.height > top.height or closing and w.height == top.height and (in_loop or w.first in REDUX_HOLDS))
                                          and w.holds >> top.index & 1 and
                                          (w.scoreboard or w.kind != "alu" or w.stand_in) and not w.far
                                          and w.first not in NON_HOLDING_COMPARES
                                          and (redux_alu_hold or w.scoreboard or w.first not in REDUX_HOLDS
                                               or closing and in_loop)
                                          and not (closing and not in_loop and w.first in REDUX_HOLDS
                                                   and not w.scoreboard)
                                          for _, _, w in waiting) or \
                    key == _NOT_FILLER and any(
                        w.height > top.height and w.holds >> top.index & 1 and w.kind != "alu"
                        for k2, h2 in avail.items() if k2 != _NOT_FILLER and k2 != BSSY_KIND for _, _, w in h2):
                continue
            if top.late and any(w.height > top.height and not w.far and not (
                    active_late and w.scoreboard and not w.after_reciprocal and _active_lanes_read(top))
                    for _, _, w in waiting):
                continue
            if top.deferred and any(w.height > top.height for _, _, w in waiting):
                continue
            if top.first == "SHFL" and "BFLY" in top.sass[0].mods and \
                    any(w.height > top.height + BUTTERFLY_SLACK for _, _, w in waiting):
                continue
            pipe = _pipe(key, top)
            if (pipe is None or busy.get(pipe, 0) <= cycle) and (best is None or heap[0] < best[0]):
                best = (heap[0], key)
        if avail.get(BSSY_KIND) and best is not None and best[1] == _NOT_FILLER \
                and not any(v.kind not in NOT_FILLERS and (v.npreds == 1 or best[0][2].far)
                            for v, _ in best[0][2].succs):
            # before a CTA barrier that makes nothing ready and fills no global load's wait for its successors
            best = None
        if best is None and avail.get(BSSY_KIND):
            # a BSSY issues in the first cycle nothing else can (docs/findings/scheduling.md "The BSSY is a unit of
            # its block's list scheduler (helper bssy28, stop 28)")
            best = (avail[BSSY_KIND][0], BSSY_KIND)
        if best is None:
            nxt = [waiting[0][0]] if waiting else []
            nxt += [busy.get(_pipe(key, heap[0][2]), 0) for key, heap in avail.items() if heap]
            cycle = max(cycle + 1, min(nxt))
            idle = idle is not None and bool(out)
            continue
        heap = avail[best[1]]
        entry = _ready_first(heap)
        if entry is heap[0]:
            heapq.heappop(heap)
        else:
            heap.remove(entry)
            heapq.heapify(heap)
        pick = entry[2]
        if idle and pick.sass and pick.kind != BSSY_KIND:
            # the first wait for a variable-latency result by a register or warp-op unit
            if (pick.scoreboard or any_idle) and pick.kind in ("alu", "collective", "load"):
                if stalls is not None:
                    stalls.add(id(pick.sass[0]))
                idle = None
            else:
                idle = False
        out.append(pick)
        issued.add(pick.index)
        issue = cycle
        cycle += pick.cost
        if pick.pipe:
            busy[pick.pipe[0]] = issue + pick.pipe[1]
        for v, lat in pick.succs:
            t = issue + lat if lat else cycle
            if v.wait:
                t = max(t, issue + v.wait)
            if t > v.ready:
                v.ready, v.scoreboard, v.far = t, pick.latency > ALU_LATENCY, pick.last in LONG_WAITS
                v.after_reciprocal = pick.reciprocal
            elif t == v.ready:
                v.scoreboard = v.scoreboard or pick.latency > ALU_LATENCY
                v.after_reciprocal = v.after_reciprocal or pick.reciprocal
                v.far = v.far or pick.last in LONG_WAITS
            v.npreds -= 1
            if v.npreds == 0:
                heapq.heappush(waiting, (v.ready, v.index, v))
    return out


def _active_lanes_read(u: Unit) -> bool:
    """A read of the active lanes alone (`VOTE.ANY R, PT, PT`: activemask): with ACTIVEMASK_READ_NO_FILLER no stall
    filler, it waits while taller work waits for a fixed-latency ALU result or a division's reciprocal (Unit.late):
    ptxas issues it in the wait of a global load (`LDG VOTE.ANY BSSY`) or of another variable-latency result (a
    shuffle of %tid.x: probes scheduling/activemask_before_shfl) but not in the chain of a division's reciprocal or
    behind an ALU step (`BSSY LOP3 VOTE.ANY`; docs/findings/warp.md "An integer division's reciprocal goes first (helper nvcoll36, stop 36)")."""
    return len(u.sass) == 1 and u.sass[0].reads_active_lanes


# A vote whose result only goes to stores is held back behind taller work when, as it becomes ready, the tallest
# unit still to issue is more than this many cycles (heights) above it (VOTE_WAITS_FOR_TALLER_WORK;
# docs/findings/scheduling.md "A ballot that only feeds a store waits behind a long shuffle chain (helper
# nvwarpk32, stop 32)").
VOTE_SLACK = 35


def _vote_slack(u: Unit, region: list[Unit], issued: set[int]) -> bool:
    """Is u a vote (VOTE.ANY/ALL/UNI, a ballot) whose readers are all stores, ready while work more than
    VOTE_SLACK cycles taller than it is still to issue? Then ptxas issues it after that work (it waits while
    taller units wait, whatever they wait for): `SHFL x5 VOTE STG` for a ballot stored beside a five-step max, but
    `SHFL VOTE SHFL` beside a two-step one."""
    if not u.sass or u.sass[0].opcode != "VOTE" or not u.succs or any(v.kind != "store" for v, _ in u.succs):
        return False
    top = max((w.height for w in region if w is not u and w.index not in issued), default=0)
    return top - u.height > VOTE_SLACK


def _broadcasts_after_acquire(run: list[Unit]) -> None:
    """ACQUIRE_AFTER_BROADCAST: the broadcast of an acquire global atomic goes before the broadcasts of the run's
    earlier global atomics whose results are still in flight (ptxas issues a run's atomics back to back, so their
    results come back together, and the acquire's broadcast, on the path of everything the acquire orders, is
    taller): `ATOM ATOM.acq SHFL.IDX(acq) ATOM.MIN SHFL.IDX(first)` (probes atomic/agg_acquire_broadcast_*;
    nvcc/atomic_ref_order_scope_matrix; docs/findings/scheduling.md "An acquire atomic's broadcast orders what
    follows it below sm_90 (helper nvatom25, stop 25)"). Shared atomics come back soon enough for the earlier
    broadcast to go first (`_shared`). Each such earlier broadcast waits for the acquire's atomic (Unit.waits_for:
    an edge _build adds when the atomic does not depend on the broadcast)."""
    for t in run:
        if not t.acquire or t.broadcast_of is None or not _far(t.broadcast_of):
            continue
        mem = t.broadcast_of
        for u in run:
            if u is mem:
                break
            if u.broadcast_of is not None and not u.acquire and u.waits_for is None and _far(u.broadcast_of):
                u.waits_for = mem


def _successor_lists(edges: dict) -> dict[int, list[int]]:
    """Unit index -> the indices its dependence edges lead to."""
    succs: dict[int, list[int]] = {}
    for x, y in edges:
        succs.setdefault(x, []).append(y)
    return succs


def _reaches(succs: dict, a: int, b: int) -> bool:
    """Is there a path of dependence edges (_successor_lists) from unit index a to unit index b?"""
    seen, todo = {a}, [a]
    while todo:
        x = todo.pop()
        if x == b:
            return True
        for y in succs.get(x, ()):
            if y not in seen:
                seen.add(y)
                todo.append(y)
    return False


def _far(mem: Unit) -> bool:
    """A global (or generic) memory instruction: its result comes back late (LONG_WAITS)."""
    return any(s.opcode in LONG_WAITS for s in mem.sass)


def _hoist_values(run: list[Unit]) -> list[Unit]:
    """A REDUX an aggregation run's first member issues for a later member (tag HOISTED) reads that member's
    value, which the PTX computes between the two atomics (`-i` of atomicSub, the shifted mask of atomicAnd/Or).
    ptxas computes it above the REDUX, which then issues when it is ready: `REDUX.MIN.S32(i) REDUX.SUM(-i)
    REDUX.MAX.S32(i)` for atomicSub then atomicMin/Max (nvcc/atomics_global; probes atomic/agg_run_hoist_*;
    docs/findings/scheduling.md "A run's hoisted REDUXes wait for their values (helper nvatom24, stop 24)").
    Moves the arithmetic computing such a value (ALU units only, nothing in between reading or writing what it
    writes) in front of the REDUX's unit, so that the REDUX depends on it."""
    i = 0
    waits: set[int] = set()          # the hoisted REDUX units whose value is computed after the run's head
    while i < len(run):
        u = run[i]
        if not any("HOISTED" in x.tags for x in u.sass):
            i += 1
            continue
        before = {r for w in run[:i] for r in w.defs}
        need = {r for r in u.uses if not r.startswith("~")} - set(u.defs) - before
        moved: set[int] = set()
        ok = True
        # each needed register's first definition after u, then what that definition reads, back to u
        for j in range(i + 1, len(run)):
            w = run[j]
            hit = set(w.defs) & need
            if hit:
                need -= hit
                moved.add(j)
        if not moved:
            i += 1
            continue
        work = sorted(moved)
        while work:
            j = work.pop()
            for r in run[j].uses:
                k = next((k for k in range(j - 1, i, -1) if r in run[k].defs), None)
                if k is not None and k not in moved:
                    moved.add(k)
                    work.append(k)
        chain = sorted(moved)
        for j in chain:
            w = run[j]
            ok = ok and w.kind == "alu" and not set(u.defs) & set(w.uses)
            # nothing left in between reads what it writes before it, or writes what it reads or writes
            for p in range(i + 1, j):
                if p not in moved:
                    v = run[p]
                    vuses = {r for r in v.uses if not r.startswith("~")}
                    if set(w.defs) & (vuses | set(v.defs)) or set(w.uses) & set(v.defs):
                        ok = False
        if ok:
            run = run[:i] + [run[j] for j in chain] + [w for j, w in enumerate(run[i:], i) if j not in moved]
            i += len(chain)
            waits.add(id(u))
        i += 1
    _chain_reduxes(run, waits)
    return run


def _chain_reduxes(run: list[Unit], waits: set) -> None:
    """The hoisted REDUXes of one run issue in their members' order, except that the first whose value is ready
    at the head goes before the members whose value is still being computed: `REDUX.MIN.S32(i) REDUX.SUM(-i)
    REDUX.MAX.S32(i) ... REDUX.AND(mask) REDUX.OR(bit) REDUX.XOR(i)` (XOR ready long before AND/OR still
    after them; sm_80-90, nvcc/atomics_global, probes atomic/agg_run_hoist_*). sm_100's CREDUX (min/max) and
    REDUX are two such chains: `REDUX.XOR CREDUX.MIN.S32 CREDUX.MAX.S32 REDUX.SUM ...`. Order edges (anti
    dependences on a pseudo register) from each to the next of its chain."""
    heads: dict[tuple, list[Unit]] = {}
    for u in run:
        if any("HOISTED" in x.tags for x in u.sass):
            heads.setdefault((id(u.ins), u.first), []).append(u)
    for (_, opcode), units in heads.items():
        if not any(id(u) in waits for u in units):
            continue
        # the first member's own REDUX (issued with the vote) is already first
        own = any(w.ins is units[0].ins and any(x.opcode == opcode and "HOISTED" not in x.tags for x in w.sass)
                  for w in run)
        ready = None if own else next((u for u in units if id(u) not in waits), None)
        order = ([ready] if ready is not None else []) + [u for u in units if u is not ready]
        if ready is not None and ready is not units[0]:
            # its value is computed before the head: it moves up to the first hoisted REDUX's place
            run.remove(ready)
            run.insert(run.index(units[0]), ready)
        for a, b in zip(order, order[1:]):
            tag = f"~chain{id(a)}"
            a.uses += (tag,)
            b.defs += (tag,)


# ptxas has seven predicate registers (P0-P6). When a block keeps more predicates live at once than that, its scheduler
# issues the block's warp collectives in program order: a loop body whose guarded loads and guarded stores share
# their predicates (live across the block) and whose scan selects use loop-invariant predicates runs its SHFL.UP scan
# to the end before an independent SHFL.BFLY reduction (probes/scheduling/pred_pressure_*; Triton cumsum_carry,
# cumsum i64, row_stats; docs/findings/scheduling.md "More live predicates than P registers: collectives in program
# order (helper tsched25, stop 25)").
PREDICATE_REGISTERS = 7


def _predicate_pressure(run: list[Unit], live_through, is_predicate) -> int:
    """The most predicates live at once in the run as ptxas must hold them. A predicate the run reads but does not
    write that is live after the run (`live_through`: loop-invariant) is held from the run's start to its end. One
    the run writes is held from its first reader to its last (to the end when live after the run), unless its compare
    can be recomputed there (every register it compares is live at its last reader: a lane-index test): then, like
    one the run reads but does not write and that dies in it, it is counted at each reader alone. `is_predicate(reg)`:
    is the register declared `.pred`?"""
    written: dict[str, Unit] = {}
    last_read: dict[str, int] = {}
    span: dict[str, list[int]] = {}
    for i, u in enumerate(run):
        for r in u.uses:
            last_read[r] = i
            if is_predicate(r):
                span.setdefault(r, [i, i])[1] = i
        for r in u.defs:
            if is_predicate(r):
                written.setdefault(r, u)
    at_reader: dict[str, None] = {}
    events: list[tuple[int, int]] = []
    for r, (lo, hi) in span.items():
        d = written.get(r)
        if d is None:
            if not live_through(r):
                at_reader[r] = None
                continue
            lo, hi = 0, len(run)
        elif live_through(r):
            hi = len(run)
        elif all(live_through(x) or last_read.get(x, -1) >= hi for x in d.uses if not is_predicate(x)):
            at_reader[r] = None
            continue
        events += [(lo, 1), (hi + 1, -1)]
    events.sort()
    most = live = k = 0
    for i in range(len(run) + 1):
        while k < len(events) and events[k][0] <= i:
            live += events[k][1]
            k += 1
        here = sum(1 for r in run[i].uses if r in at_reader) if i < len(run) else 0
        most = max(most, live + here)
    return most


# helper tslotA35, stop 35: predicate pressure keeps the collectives in program order only when the collective chains
# themselves read predicates computed outside them (a scan's per-step `selp` on a lane test, tsched25's probes).
# Guards read only before or after the chains (masked loads, `where(mask, ..)`, masked stores) do not order them:
# ptxas interleaves two or three independent reductions with up to 16 such guards, in loops and outside
# (tools/variations/pred_pressure_straight.py; docs/findings/scheduling.md "Guards beside butterfly reductions do not
# order them (helper tslotA35, stop 35)"). Above GUARDS_INTERLEAVED_UP_TO, and in runs without a CTA barrier (one-warp
# reductions), the old rule stands (not measured; Triton row_stats bf16 with 17 held keeps program order on sm_90,
# row_stats fp16 with one warp on sm_100a).
GUARDS_INTERLEAVED_UP_TO = 16


def _guards_beside_reductions(run: list[Unit], is_predicate, held: int) -> bool:
    """Is the run's predicate pressure only guards beside its collective chains: no unit between two collectives
    (reading a collective's result through registers, or a load after a collective: the shared-memory exchange, and
    feeding a later collective) reads a predicate written outside the chains, and at most GUARDS_INTERLEAVED_UP_TO
    predicates are `held` (_predicate_pressure)? An argmin's own compares, written from the shuffled values, do not
    count."""
    if held > GUARDS_INTERLEAVED_UP_TO or not any(u.kind == "barrier" for u in run):
        return False                    # measured with shared-memory exchanges only (one-warp row_stats: in order)
    tainted: set = set()
    after = [False] * len(run)
    seen = False                        # a collective came before: a load after it may read its exchanged value
    for i, u in enumerate(run):
        after[i] = any(r in tainted for r in u.uses)
        if u.kind == "collective" or after[i] or seen and u.kind == "load":
            tainted.update(u.defs)
        seen = seen or u.kind == "collective"
    needed: set = set()
    for i in range(len(run) - 1, -1, -1):
        u = run[i]
        if u.kind == "collective" or any(r in needed for r in u.defs):
            if after[i] and any(is_predicate(r) and r not in tainted for r in u.uses):
                return False
            needed.update(u.uses)
    return True


def _collectives_in_order(run: list[Unit]) -> None:
    """Order edges (anti dependences on a pseudo register) from each warp collective to the next in the run."""
    prev = None
    for u in run:
        if u.kind == "collective":
            if prev is not None:
                tag = f"~inorder{id(prev)}"
                prev.uses += (tag,)
                u.defs += (tag,)
            prev = u


BSSY_KIND = "bssy"
# what a BSSY scheduled in its block waits for: the global loads and atomics with a result and the memory fences
# before it are issued first (docs/findings/scheduling.md "The BSSY is a unit of its block's list scheduler
# (helper bssy28, stop 28)")
BSSY_WAITS_FOR = LONG_WAITS | {"MEMBAR"}


# A BSSY in a block entered from a released convergence barrier (after a BSYNC or a WARPSYNC.ALL) is issued no
# earlier than this cycle: a CTA barrier starting the block goes first (`BSYNC BAR BSSY BAR`)
BSSY_AFTER_JOIN = 1


def _bssy_awaits(p: Unit) -> bool:
    return any(x.opcode in BSSY_WAITS_FOR and not (x.opcode in ATOMIC and x.operands[:1] == ("RZ",)) for x in p.sass)


def _bssy_fence(p: Unit, membar_waits: bool) -> bool:
    """A memory fence a BSSY waits for: a thread fence's MEMBAR; below sm_90 (MEMBAR_WAITS_MEMORY) also a release
    operation's, not a proxy fence's."""
    return any(x.opcode == "MEMBAR" for x in p.sass) and (_is_fence(p.ins) or membar_waits and p.ins is not None
                                                          and not any(m.startswith(".proxy") for m in p.ins.mods))


def _schedulable_bssy(u: Unit, nxt: Unit | None, target, into_loop: bool = False) -> bool:
    """An unguarded BSSY (with sm_75's BMOV.32.CLEAR before it) right before its region's branch, or ending a block
    that falls into the loop it opens (LOOP_REGION_BSSY_SCHEDULED): the list scheduler places it (target feature
    BSSY_SCHEDULED)."""
    return target is not None and target.has("BSSY_SCHEDULED") and u.kind == "control" and bool(u.sass) \
        and u.sass[-1].opcode == "BSSY" and not u.sass[-1].guard \
        and all(s.opcode == "BSSY" or s.opcode == "BMOV" and "CLEAR" in s.mods for s in u.sass) \
        and (nxt is None and into_loop and target.has("LOOP_REGION_BSSY_SCHEDULED")
             or nxt is not None and nxt.kind == "control" and bool(nxt.sass)
             and (nxt.sass[0].opcode == "BRA" or bool(u.loop_reads) and nxt.ins is u.ins))


_STORE_OPS = frozenset({"ST", "STS", "STG", "RED", "REDG"})


def _predicated_release_store(u: Unit) -> bool:
    """A predicated if (isel/select.py `_predicated_ifs`) whose body holds a release store's or reduction's own
    MEMBAR: from sm_90 (no BSSY_BELOW_MEMBAR) the next region's BSSY keeps fam_sync_pseudo's placement, above that
    MEMBAR (nvcc/atomic_ref_order_scope_matrix: `MEMBAR.SC.CTA BSSY @!P MEMBAR.ALL.CTA @!P ST`;
    docs/findings/scheduling.md "A merged release-store if keeps the BSSY above its MEMBAR from sm_90 (helper
    llvm30b, stop 30)")."""
    if not getattr(u, "members", None):
        return False
    sass = [s for _, seq in u.members[1:] for s in seq]
    return any(s.opcode == "MEMBAR" and any(x.opcode in _STORE_OPS for x in sass[n + 1:n + 4])
               for n, s in enumerate(sass))


_COLLECTIVE_OPS = frozenset({"SHFL", "VOTE", "REDUX", "MATCH"})
_CTA_BARRIER_OPS = frozenset({"BAR", "UCGABAR_ARV", "UCGABAR_WAIT"})       # a CTA or cluster barrier


def _collective_before_barrier(run: list[Unit], branch: Unit | None) -> bool:
    """A join's run whose BSSY ptxas issues in a warp collective's wait (JOIN_BSSY_AFTER_COLLECTIVE): a collective
    (SHFL, VOTE, REDUX, MATCH) comes before any CTA or cluster barrier of the run, and either the run has no such
    barrier or the branch's test depends on a collective issued before it (`BSYNC SHFL BSSY SHFL .. BAR ISETP`);
    a test of other values after the barrier is issued after it (`BSYNC SHFL BAR ISETP BSSY`: fam_sync_pseudo)."""
    barrier = collective = None
    for k, r in enumerate(run):
        ops = {x.opcode for x in r.sass}
        if ops & _CTA_BARRIER_OPS:
            barrier = k
            break
        if collective is None and ops & _COLLECTIVE_OPS:
            collective = k
    if collective is None:
        return False
    if barrier is None:
        return True
    need = set(branch.uses) if branch is not None else set()
    for k in range(len(run) - 1, -1, -1):
        r = run[k]
        if need.intersection(r.defs):
            if k < barrier and any(x.opcode in _COLLECTIVE_OPS for x in r.sass):
                return True
            need.update(r.uses)
    return False


def _pending(in_flight, param_loads, run: list) -> set:
    """The registers a join's run waits for: loads and atomics of a predecessor still in flight, less the kernel
    parameters when the run reads a special register, whose S2R wait the BSSY fills (schedule_block)."""
    if param_loads and any(x.opcode == "S2R" for r in run for x in r.sass):
        return set(in_flight) - set(param_loads)
    return set(in_flight)


_SHARED_ACCESS = frozenset({"STS", "LDS", "ATOMS"})


def _bssy_after_barriers_past_late_load(run: list[Unit]) -> list[Unit]:
    """A scheduled BSSY before which a global load of the run is not yet issued, past shared-memory work after the
    BSSY, whose result no unit of the run reads (in flight across the region, read after its join): from sm_90
    ptxas issues the BSSY after the run's last CTA barrier (CUB BlockRadixSort of key/value pairs: the values'
    LDGs issued late, right before the first barrier: `LDG.. BAR SHFL.. BAR BSSY`; with the loads read before
    the barrier, or issued before the BSSY, `LDG BSSY BAR`; tools/variations/bar_late_load_bssy.py;
    docs/findings/convergence.md "The BSSY after the barriers past a load in flight across the region (helper
    nvbar39, stop 39)")."""
    at = next((n for n, u in enumerate(run) if u.kind == BSSY_KIND), None)
    if at is None:
        return run
    read = {r for u in run for r in u.uses}
    # a load issued after shared-memory work that follows the BSSY (not one issued in the BSSY's own stall)
    shared = next((n for n in range(at + 1, len(run)) if any(x.opcode in _SHARED_ACCESS for x in run[n].sass)),
                  len(run))
    late = any(any(x.opcode in ("LDG", "LD") for x in u.sass) and u.defs and not set(u.defs) & read
               for u in run[shared + 1:])
    bars = [n for n in range(at + 1, len(run)) if run[n].kind in NOT_FILLERS
            and any(x.opcode == "BAR" for x in run[n].sass)]
    if not late or not bars:
        return run
    bssy = run[at]
    rest = run[:at] + run[at + 1:]
    last = bars[-1] - 1                 # its index in `rest`
    return rest[:last + 1] + [bssy] + rest[last + 1:]


def _keeps_pseudo_placement(u: Unit, nxt: Unit | None, run: list[Unit], target, joined: bool, pending: set) -> bool:
    """Does a schedulable BSSY keep fam_sync_pseudo's placement in this run instead of becoming a unit of it?"""
    sass = [x for r in run for x in r.sass]
    if joined and (len(u.sass) > 1 or pending and any(pending.intersection(r.uses) for r in run)):
        return True         # sm_75's clear at a join; the closed region's results still in flight
    if joined and not target.has("BSSY_SCHEDULED_AT_JOIN") \
            and not (target.has("JOIN_BSSY_AFTER_COLLECTIVE") and _collective_before_barrier(run, nxt)):
        return True         # from sm_90 a run entered at a BSYNC or WARPSYNC.ALL, unless a collective's wait takes it
    if any(x.opcode == "B2R" for x in sass):
        return True
    if target.has("BSSY_IN_ACQUIRE_STALL") and any(x.opcode == "CCTL" for x in sass):
        return True         # below sm_90 a block with a CCTL.IVALL keeps the acquire-stall and fence rules
    if nxt is None and any(x.opcode == "MEMBAR" for x in sass):
        return True         # a block falling into its loop keeps the fence rules of convergence.md section 24
    return not target.has("BSSY_BELOW_MEMBAR") and any(_predicated_release_store(r) for r in run)


def schedule_block(units: list[Unit], live_out=lambda reg: True, target=None, live_through=None,
                   is_predicate=lambda reg: False, stalls: set | None = None,
                   placed: set | None = None, keep_bssy_rules: bool = False, in_flight=frozenset(),
                   in_loop: bool = True, param_loads=frozenset(), into_loop: bool = False) -> list[Unit]:
    """The units of one basic block in ptxas's issue order: each run between control units is list
    scheduled, the control units keep their place. `live_out(reg)`: is the register read after the block?
    `live_through(units)`: reg -> is it live at the end of a block holding one of these units (a loop's latch)?
    `is_predicate(reg)`: is the register a declared predicate (_predicate_pressure)? `stalls`: _list_schedule's.
    `placed`: gets the id() of each BSSY the scheduler placed (fam_sync_pseudo.place_convergence_barriers keeps it);
    None (knob ScheduleBssy=0): no BSSY is scheduled.
    `keep_bssy_rules`: the run's BSSYs keep fam_sync_pseudo's placement: the units start a loop's first block
    (its loop-head rules; so does sm_75's BMOV.32.CLEAR + BSSY at a join, placed by fam_sync_pseudo._clear_at_join)
    or the join of an if pylower predicates only at emission (isel/select.py _predicated_joins). `in_flight`: registers a
    load or atomic of a predecessor block writes; a join's run reading one keeps fam_sync_pseudo's rule (the
    closed region's results still in flight, docs/findings/convergence.md section 3 rule 3). `param_loads`: those of
    in_flight a kernel parameter's load writes: below sm_90 the reader takes the parameter as a `c[0x0][..]` operand,
    no wait: when the run reads a special register (S2R) the BSSY fills its wait ahead of the barrier (nvcc
    jl33_hist_warp_bins `BSYNC S2R BSSY BAR`; docs/findings/scheduling.md "A region holding a region keeps the next
    if's test in its join (helper joinlo33, stop 33)"). `into_loop`: the block falls into a loop's first block (a BSSY
    ending it opens that loop: LOOP_REGION_BSSY_SCHEDULED)."""
    out: list[Unit] = []
    run: list[Unit] = []
    seq = units + [None]
    joined = False                   # the run starts where a convergence barrier was just released
    masked = False
    div = False                      # the run is a BRA.DIV's fast path (BSSY_AFTER_DIVERGENT_SHUFFLES)
    after_div = False                # the last control unit was a bra_div: the next one is its fast path's first
    for n, u in enumerate(seq):
        if placed is not None and u is not None and _schedulable_bssy(u, seq[n + 1], target, into_loop) and run \
                and not keep_bssy_rules and not masked and not div \
                and not _keeps_pseudo_placement(u, seq[n + 1], run, target, joined, _pending(in_flight, param_loads, run)):
            u.kind = BSSY_KIND                 # a unit of its block's run (BSSY_WAITS_FOR, _list_schedule)
            u.not_before = BSSY_AFTER_JOIN if joined else 0
            run.append(u)
            placed.add(id(u.sass[-1]))
            continue
        if u is None or u.kind == "control":
            adjacent = not run
            if len(run) > 1:
                run = _hoist_values(run)
                if target is not None and target.has("ACQUIRE_AFTER_BROADCAST"):
                    _broadcasts_after_acquire(run)
                _fuse_logic(run, live_out)
                _fuse_select(run, live_out)
                _materialize_params(run, target is not None and target.has("PARAM_LDC"))
                held = _predicate_pressure(run, live_through(run) if live_through else live_out, is_predicate)
                if held > PREDICATE_REGISTERS and not _guards_beside_reductions(run, is_predicate, held):
                    _collectives_in_order(run)
                run = _list_schedule(run, target is not None and target.has("MEMBAR_WAITS_MEMORY"),
                                     None if target is None else target.has("LATE_GLOBAL_STORES"), stalls,
                                     target is not None and target.has("BSSY_IN_FIRST_IDLE_CYCLE"), in_loop,
                                     target is not None and target.has("VOTE_WAITS_FOR_TALLER_WORK"),
                                     target is None or target.has("REDUX_HOLDS_THROUGH_ALU_WAIT"),
                                     target is not None and target.has("ACTIVEMASK_READ_NO_FILLER"),
                                     held > PREDICATE_REGISTERS)
                if target is not None and target.has("BSSY_AFTER_BARRIERS_PAST_LATE_LOAD"):
                    run = _bssy_after_barriers_past_late_load(run)
            out.extend(run)
            if u is not None:
                out.append(u)
                # the unit's last instruction, not a label: a BSYNC ISel's own expansion closes (a CAS loop's pair,
                # with its early exit's label after it) releases a convergence barrier like a region's
                # (docs/findings/scheduling.md "Every BSYNC opens a join, whatever made it; where ptxas reads special
                # registers and parameters of a later block (helper inv30, stop 30)")
                last = next((s for s in reversed(u.sass) if s.opcode != VIRTUAL), None)
                full = last is not None and last.opcode == "WARPSYNC" and (
                    "ALL" in last.mods or last.operands[:1] == ("0xffffffff",))
                joined = last is not None and last.opcode == "BSYNC" or full
                # after a WARPSYNC on a register mask the BSSY keeps fam_sync_pseudo's rule (_after_mask_warpsync)
                masked = last is not None and last.opcode == "WARPSYNC" and not full
                # from sm_90 the run after a BRA.DIV's fast-path instruction (a shuffle in code the warp may reach
                # diverged) keeps it too: the BSSY follows the path's last shuffle (docs/findings/convergence.md
                # "The BSSY after a butterfly in divergent code (helper nvwarp34, stop 34)")
                div = after_div and adjacent and target is not None and target.has("BSSY_AFTER_DIVERGENT_SHUFFLES")
                after_div = u.ins is not None and u.ins.opcode == "bra_div"
            run = []
        else:
            run.append(u)
    return out

