"""The target table: every architecture ptxas 13.0.88 accepts, as one immutable object per name.

Every stage reads the Target; none mutates it. Feature bits are what the probes of ptxas showed
(see docs/findings/), not what the PTX ISA text alone says.
"""
from __future__ import annotations

from pylower.records import record

from .diagnostics import PtxError

# Families for 'f' variants: sm_XYf runs on sm_XZ with Z >= Y in the same family.
_FAMILY = {100: 100, 103: 100, 110: 110, 120: 120, 121: 120}

BASE_SMS = (75, 80, 86, 87, 88, 89, 90, 100, 103, 110, 120, 121)
# Which base SMs have 'a' / 'f' variants in ptxas 13.0.88 (--help "Allowed values").
_HAS_A = {90, 100, 103, 110, 120, 121}
_HAS_F = {100, 103, 110, 120, 121}

# The targets the reference harness compiles for by default.
DEFAULT_REFERENCE_TARGETS = ("sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_90a", "sm_100a", "sm_120")

# Highest PTX ISA version ptxas 13.0.88 accepts ("Unsupported .version 9.1; current version is '9.0'").
MAX_PTX_VERSION = (9, 0)


@record(frozen=True)
class Feature:
    """One architecture decision, as a row: which targets have it. `since`/`below` bound the SM number,
    `families` (if given) limits it to those families (sm_100 and sm_103 are family 100), `suffixes` to
    those variants ("" plain, "a" arch-specific, "f" family-specific)."""
    name: str
    doc: str
    since: int = 0
    below: int = 1 << 30
    families: tuple[int, ...] = ()
    suffixes: tuple[str, ...] = ()

    def holds(self, sm: int, suffix: str) -> bool:
        return self.since <= sm < self.below and (not self.families or _FAMILY.get(sm, sm) in self.families) \
            and (not self.suffixes or suffix in self.suffixes)


# Every architecture decision of the backend, by name (LLVM's hasSM<> / Requires<> shape). Stages ask
# `target.has("NAME")`; no stage compares SM numbers itself. Rows are what the probes of ptxas 13.0.88
# showed (docs/findings/), not what the PTX ISA text alone says. docs/ARCHITECTURE.md lists them per target.
FEATURES: tuple[Feature, ...] = (
    # ---- warp-synchronous operations and convergence (phases 71/72, isel/fam_sync_pseudo.py, fam_warp.py)
    Feature("WARP_COLLECTIVE", "a warp op in divergent code is a WARPSYNC.COLLECTIVE ... ENDCOLLECTIVE block "
            "(else the fast path + out-of-line __cuda_sm70_* helper)", since=90),
    Feature("WARPSYNC_ALL", "a full-mask WARPSYNC prints as WARPSYNC.ALL", since=90),
    Feature("MATCH_GROUP_LEADER_ONE_LANE", "`laneid == bfind(brev(match.any(v)))` with v warp-uniform (the match "
            "group's leader, or popc of the group) is a one-lane test: no atomic aggregation under it "
            "(passes/analysis/single_lane.py)", since=90),
    Feature("LONE_WARP_OP_WARPSYNC_ALL", "in a block of several full-mask warp ops, one not next to an op of "
            "its own kind re-converges the warp with WARPSYNC.ALL (the ops after it need nothing); runs of one "
            "kind take the collective slow path (phase 72)", since=90),
    Feature("COLLECTIVE_SLOW_PATH_RUNS", "a block's consecutive out-of-line collectives (BRA.DIV each, only plain "
            "code between) share one BRA.DIV to one out-of-line copy of the span; the fast path is scheduled "
            "freely (phase 72 _merge_collective_run)", since=90),
    Feature("SLOW_PATH_AFTER_SLOW_PATH_PAIRED", "an out-of-line collective that starts its block's warp ops, "
            "reached from another block's out-of-line collective with no CTA barrier between, re-converges in "
            "a BSSY/BSYNC pair of its own (phase 72 _after_slow_path)", since=90),
    Feature("WARP_OP_CSE_IN_DIVERGENT_LOOP_KEPT", "equal warp collectives in a loop with a per-thread trip count "
            "are all kept (their collective slow paths are not value-numbered; phase 13)", since=90),
    Feature("ACTIVEMASK_READ_AFTER_SLOW_PATH", "in a loop with a per-thread trip count an activemask read after "
            "another warp op (its out-of-line slow path between) is not merged with an earlier read (phase 13)",
            since=80, below=90),
    Feature("WARP_OP_CSE_ACROSS_BARRIER", "a shuffle or vote repeating an earlier one of its block is deleted "
            "across a CTA barrier too (phase 13)", since=90),
    Feature("WARPSYNC_ALL_UNPAIRS", "a divergent if whose warp a WARPSYNC.ALL re-converges (one every path of "
            "an arm runs: a full-mask bar.warp.sync, a lone warp op's inline form; or a full-mask warp op's at the "
            "join of a lone partial-mask op's region) has no BSSY/BSYNC pair: the warp is declared whole there "
            "(phase 72)", since=90),
    Feature("JOIN_WARP_BARRIER_UNPAIRS", "an if without warp ops whose join starts with a full-mask bar.warp.sync "
            "the warp reaches unconverged (its WARPSYNC.ALL) has no BSSY/BSYNC pair: the WARPSYNC.ALL re-converges "
            "the warp there (phase 72)", since=90),
    Feature("LOOP_JOIN_PAIR_BEFORE_PREDICATED_WORK", "in a divergent loop, an if that holds no warp op and stays a "
            "branch (a lane-0 atomic) and whose join starts with a lone full-mask warp op keeps its BSSY/BSYNC pair (the op runs plain after the "
            "BSYNC, no WARPSYNC.ALL) when a warp op earlier in the loop body comes before the if's branch and work "
            "guarded by a per-lane predicate follows the op in the join (phase 72)", since=90),
    Feature("BMOV_CLEAR_BEFORE_BSSY", "BSSY is preceded by BMOV.32.CLEAR RZ, Bn", below=80),
    Feature("BSSY_AFTER_BARRIER_RUN", "the BSSY is not issued between the adjacent CTA barriers (no memory access "
            "between them) that start its block; its BMOV.32.CLEAR goes before the last of them (`BAR BMOV.32.CLEAR "
            "BAR BSSY`; from sm_80 `BAR BSSY BAR`)", below=80),
    Feature("BSSY_AFTER_JOIN_BARRIER_BEFORE_LOAD", "at a join whose store of the closed region's result makes "
            "its first CTA barrier wait, the BSSY goes after that barrier when a global load follows it in the "
            "block (`BSYNC STS BAR BSSY LDG .. BAR`; without the load `BSYNC STS BSSY BAR`); sm_75 only when the block "
            "compares the branch's guard", since=75),
    Feature("BSSY_SCHEDULED", "the BSSY before a region's branch is a unit of its block's list scheduler: issued "
            "in the first cycle nothing else can issue, after the block's global loads, atomics with a result and "
            "memory fences (docs/findings/scheduling.md \"The BSSY unit on sm_90+ (helper bssy29, stop 29)\")",
            since=75),
    Feature("BSSY_AFTER_BARRIERS_PAST_LATE_LOAD", "a scheduled BSSY that a global load of its block is issued after, "
            "whose result nothing in the block reads (in flight across the region: CUB BlockRadixSort's values, "
            "loaded before the sort and read after it), goes after the block's last CTA barrier instead "
            "(`LDG.. BAR SHFL.. BAR BSSY`; below sm_90 ptxas issues such loads first: `LDG.. BSSY BAR`; "
            "tools/variations/bar_late_load_bssy.py)", since=90),
    Feature("LOOP_BSSY_SCHEDULED", "the BSSY (with sm_75's BMOV.32.CLEAR) opening ISel's own atomic loop (the shared "
            "CAS.SPIN loop; not the 16-bit CAS loop) is a unit of its block's list scheduler like a region's, waiting also "
            "for the global loads the loop reads (`BAR LDG BSSY`, `BSSY BAR LDS`; docs/findings/scheduling.md "
            "\"The BSSY of ISel's own atomic loop is a unit of its block (helper nvlock32, stop 32)\")", since=75),
    Feature("LOOP_REGION_BSSY_SCHEDULED", "the BSSY that ends a block falling into the divergent loop it opens (a "
            "CAS retry loop) is a unit of that block's list scheduler like an if region's: issued after the ready "
            "atomics whose result the loop reads (`ATOMG ATOMG BSSY`, `BAR BSSY`), in the load's wait otherwise "
            "(docs/findings/scheduling.md \"The BSSY opening a program's loop is a unit of its block (lead, stop 33)\")",
            since=75),
    Feature("SPIN_JOIN_WARP_OP_TAINTS", "the warp op that starts the join of a region whose lanes arrive diverged (a "
            "spin or CAS loop, an if around one) taints the warp ops after it up to the next CTA barrier: they keep "
            "their slow path (docs/findings/convergence.md \"The warp op at a spin region's join taints the ops after "
            "it below sm_90 (helper nvlock32, stop 32)\"); from sm_90 its WARPSYNC.ALL re-converges the warp",
            below=90),
    Feature("BSSY_SCHEDULED_AT_JOIN", "... also in a run entered from a released convergence barrier (after a BSYNC "
            "or a WARPSYNC.ALL); from sm_90 that BSSY keeps fam_sync_pseudo's placement (the unit there loses as "
            "many kernels as it gains: join work ptxas moves out of the block, not modelled)", below=90),
    Feature("JOIN_BSSY_AFTER_COLLECTIVE", "... but a run entered from a released convergence barrier whose work "
            "issues a warp collective (SHFL, VOTE, REDUX, MATCH) before any CTA or cluster barrier schedules its BSSY "
            "as a unit all the same: ptxas issues it in the collective's wait (`BSYNC SHFL BSSY SHFL .. BAR`); with "
            "a barrier first it keeps fam_sync_pseudo's placement (docs/findings/scheduling.md \"The BSSY unit at a "
            "join only after a warp collective (helper joinhi33, stop 33)\")", since=90),
    Feature("JOIN_BARRIER_WAITS_TESTED_PARAM", "at a join (after a BSYNC closing a pair that holds a loop, the join "
            "in no loop) whose next branch compares a 32-bit kernel parameter directly (its reaching definition), "
            "ptxas loads it there with a uniform LDCU and the join's CTA barrier waits for "
            "it: the BSSY goes before the barrier (`BSYNC LDCU BSSY BAR ISETP`); across an acyclic pair it loads the "
            "parameter once above, in a loop before the loop (nothing in flight); not when the join also reads a launch "
            "size, loaded first with the barrier in its wait (`LDCU:ntid BAR ISETP LDCU:param BSSY`); sm_90's ULDC does "
            "not hold the barrier back reliably; docs/findings/scheduling.md "
            "\"Constant-bank reads at a join and the BSSY (helper nvjoin31, stop 31)\")", since=100),
    Feature("BSSY_IN_ACQUIRE_STALL", "in a block with acquire atomics the BSSY is issued in the stall of one "
            "of its waits (a CCTL.IVALL, or an instruction waiting for a load): the last one, or the one before "
            "when nothing but the last one's atomic lies between and no memory op follows", below=90),
    Feature("BSSY_BEFORE_LAST_ACQUIRE_ATOMIC", "... the wait before the last one may also be the previous "
            "atomic's CCTL.IVALL (ATOMG BSSY CCTL ATOMG CCTL)", since=80, below=90),
    Feature("BSSY_IN_FIRST_IDLE_CYCLE", "a BSSY is issued in the first idle cycle of its block's last scheduled "
            "run whatever the cause (a busy shuffle pipe, a fixed-latency result), not only in the first wait for a "
            "variable-latency one: `SHFL BSSY SHFL` where both shuffles are ready (docs/findings/warp.md \"The BSSY "
            "in the first idle cycle of its block on sm_90+ (helper warp28, stop 28)\")", since=90),
    Feature("BSSY_AFTER_DIVERGENT_SHUFFLES", "in the fast path of a BRA.DIV (a butterfly in code the warp may reach "
            "diverged: a warp-per-row kernel's `if (row < rows)`) the BSSY of the next region is not issued in an idle "
            "cycle among the shuffles but after the last one (`BRA.DIV SHFL x5 BSSY`; docs/findings/convergence.md "
            "\"The BSSY after a butterfly in divergent code (helper nvwarp34, stop 34)\")", since=90),
    Feature("BSSY_IN_B2R_WAIT", "a B2R.RESULT waits for the BAR.RED before it: a BSSY that stays at its branch "
            "behind a reduction barrier starting its block is issued in that wait (`WARPSYNC BAR.RED BSSY B2R`; "
            "from sm_90 `BAR.RED B2R BSSY`)", below=90),
    Feature("B2R_WAIT_FILLED", "a BAR.RED and its B2R.RESULT are scheduled apart, the B2R a barrier-reduction wait "
            "after the BAR.RED: independent warp votes and their compares issue between them (`BAR.RED.POPC VOTE.ALL "
            "B2R.RESULT`; from sm_90 `BAR.RED.POPC B2R.RESULT VOTE.ALL`)", below=90),
    Feature("B2R_WAIT_LONG", "... and that wait is two cycles longer than sm_75's: one more of six independent ballots "
            "issues before the B2R (`VOTE.ANY x5 B2R VOTE.ANY`; sm_75 `VOTE.ANY x4 B2R VOTE.ANY x2`)", since=80, below=90),
    Feature("BSSY_BELOW_MEMBAR", "the BSSY is never issued above a MEMBAR of its block that orders beyond the "
            "CTA (GPU/SYS, with its ERRBAR) nor above a release memory op (its MEMBAR, any scope, and the op)",
            below=90),
    Feature("LOOP_PAIR_UNCONVERGED_LATCH", "a uniform loop holding a per-thread-mask warp op is paired when the "
            "warp reaches its back edge unconverged (no inline full-mask op nor CTA barrier after the last "
            "per-thread-mask op); below sm_90 when it holds two slow-path calls or one with a fast path (phase 72)",
            since=90),
    Feature("FULL_MASK_OP_STOPS_DRIFT", "a uniform loop running a warp op in a divergent if is not paired when an "
            "unguarded full-mask warp op of its converged code follows it (a WARPSYNC.ALL or a collective): the "
            "warp reaches the back edge converged (regions.diverged_sync_loops)", since=90),
    Feature("BSSY_RECONVERGENT", "convergence pairs without a user warp op are BSSY/BSYNC.RECONVERGENT", since=100),
    Feature("BREAK_LOOP_RELIABLE", "a convergence pair around a loop left by BREAK is BSSY/BREAK/BSYNC.RELIABLE "
            "(ptxas's internal math subroutines; the nest of a long run of guarded stores)", since=100),
    Feature("STORE_NEST_WARPSYNC", "the nest ptxas makes of a long run of guarded stores (a BSSY B0/B1 pair with a "
            "BREAK) re-converges with a WARPSYNC after it", since=80),
    Feature("LOOP_CONVERGENCE_TEST", "a divergent back edge that may spin tests the warp (VOTE.ANY + VOTEU.ANY, "
            "BRA.U)", below=80),
    Feature("EXIT_LOOP_TEST_RECONVERGES", "a divergent loop whose paths meet only at the kernel's end and whose "
            "back edge gets the loop convergence test (lanes leaving it exit, the rest go on together: BRA.U) runs "
            "its warp ops, and those of a uniform break's code, converged: the never-taken slow path kept, its "
            "helper without WARPSYNC (phase 71 `rejoined`; not when a per-lane break leads to code: that loop is "
            "paired)", below=80),
    Feature("ATOMIC_LOOP_HEAD_SLOW_PATH", "in a function holding an integer reduction atomic (add/min/max/"
            "and/or/xor), the warp ops of a loop's header block "
            "(a uniform loop too) keep a never-taken slow path, its helper without WARPSYNC (phase 71 `rejoined`; "
            "regions.atomic_loop_heads)", below=90),
    Feature("VOTE_EXIT_LOOP_HEAD_CONVERGED", "a loop every exit of which is decided by a warp collective's result "
            "runs its header's warp ops plain (no ATOMIC_LOOP_HEAD_SLOW_PATH)", since=80),
    Feature("MAY_SPIN_LOOP_ARRIVES_DIVERGED", "a divergent loop (or an if around one) that may spin (an atomic, "
            "a strong load) reaches a CTA barrier join diverged: WARPSYNC, no BSSY/BSYNC", below=90),
    Feature("BAR_JOIN_PAIR_BEFORE_PREDICATED_IF", "a region paired for its warp ops that joins at a CTA "
            "barrier keeps its BSSY/BSYNC when a predicated if (or guarded load/store) after the join is followed "
            "by another CTA barrier (else the barrier's WARPSYNC re-converges it alone; phase 72)", below=90),
    Feature("SPIN_JOIN_WARP_OP_RECONVERGES", "a warp op at the join of a spin loop (or an if around one) "
            "re-converges the warp there itself (WARPSYNC.ALL): the region gets no BSSY/BSYNC (else the pair and "
            "the op's divergent form)", since=90),
    Feature("BMOV_PROLOGUE", "every kernel starts by initialising the 16 convergence barriers (BMOV.32)",
            since=87, below=88),
    Feature("BARRIER_RECONVERGES_IN_REGION", "an aligned CTA barrier in a predicated divergent region needs no "
            "WARPSYNC before it (phase 71)", since=90),
    Feature("GUARDED_LOOP_BARRIER_RESYNC", "a CTA barrier alone in a uniform if (`if (c + 2 < n) bar.arrive id, "
            "cnt`) in a loop of divergent code re-converges first (a predicated WARPSYNC) when the if holds at most "
            "one other instruction besides moves of constants and the making of the id, unless it makes the id "
            "from the loop's counter itself (phase 71)", below=90),
    Feature("GUARDED_LOOP_BARRIER_RESYNC_ID", "... from sm_90 only when the if makes the barrier's id or count from a "
            "value of the iteration (`selp`, `add` of `c & 1` made before the if) and holds nothing else: a "
            "constant id or other work leaves it plain (phase 71)", since=90),
    Feature("DIVERGED_BARRIER_TAINTS", "warp ops after a CTA barrier in divergent code take their slow path "
            "(phase 71)", below=90),
    Feature("SLOW_PATH_RUNS", "the slow-path calls of a block's warp ops around a CTA barrier share one "
            "convergence test, the code between them copied into the slow path (BRA.CONV ~URZ for distinct "
            "helpers; phase 72)", below=90),
    Feature("SPIN_JOIN_BARRIER_LOOPS", "when a spin region's join starts with a non-aligned barrier.sync, every "
            "non-aligned barrier.sync on a CFG cycle runs diverged too (slow path; phase 71)", below=90),
    Feature("SPIN_JOIN_LATER_BARRIER", "a non-aligned barrier.sync right after the aligned barrier that starts a "
            "spin region's join runs diverged (slow path; phase 71)", below=90),
    Feature("DIVERGED_UNIFORM_SHFL_FOLDS", "a shfl.sync of a warp-uniform value in divergent code folds into a "
            "move, its warp sync kept (pair, BRA.CONV, helper with WARPSYNC only; phase 71); from sm_90 it keeps "
            "`WARPSYNC.ALL; SHFL` (folded only when ptxas holds the value in a uniform register, not modelled)",
            below=90),
    Feature("EXIT_ARMS_DIVERGED", "the first CTA barrier in either arm of a divergent branch whose two sides "
            "both end the kernel, each holding code, re-converges (WARPSYNC; phase 71)", below=90),
    Feature("EXIT_ARM_WARPSYNC_ALL", "instead, the branch-target arm of such a branch that holds a CTA barrier "
            "re-converges once (WARPSYNC.ALL; phase 72)", since=90),
    Feature("ARM_PARAM_LDC", "an exit arm ptxas may predicate loads each kernel parameter it reads itself (one "
            "LDC each; below sm_90 the parameter is a constant-bank operand or hoisted before the branch)",
            since=90),
    Feature("STATIC_SHARED_DEVICE_LIMIT", "an entry's static shared memory may reach the device's capacity (else "
            "ptxas rejects more than 0xc000 bytes: lowering/shared_size.py)", suffixes=("a",)),
    Feature("SHARED_CAPACITY_99K", "the device's shared memory is 0x18c00 bytes (else 0x38c00): the static "
            "limit of an arch-specific target (lowering/shared_size.py)", families=(120,)),
    Feature("SHARED_WINDOW_ADDRESS", "a shared variable's address is the cluster window's base plus its offset "
            "(S2R SR_CgaCtaId, MOV, LEA: three instructions in an exit arm's cost)", since=90),
    Feature("PER_THREAD_MASK_TAINTS", "warp ops after one whose member mask differs between lanes are not "
            "taken as converged (phase 71; sm_75 takes them as converged)", since=80),
    Feature("OVERLAP_PRINT_OPTION", "--print-potentially-overlapping-membermasks is honoured", since=75, below=80),
    Feature("PER_THREAD_MASK_WARPSYNC", "a per-thread member mask is a WARPSYNC R / WARPSYNC.EXCLUSIVE R "
            "(else phase 71's membermask table)", since=90),
    Feature("PER_THREAD_MASK_FORMS", "in a function with a per-thread member mask the warp is not taken as "
            "converged from its entry or such an op up to a CTA barrier (which then re-converges); there a kind "
            "of warp op (helper) with two or more such ops takes the member-mask check / out-of-line collective, "
            "else the inline WARPSYNC (phase 71; docs/findings/eiattr.md 7)", since=90),
    Feature("PER_THREAD_MASK_ENTRY_LOCAL", "the entry's taint (PER_THREAD_MASK_FORMS) reaches only the warp ops "
            "a converged per-thread-mask op follows in their own block, and stops at the join of an if ptxas "
            "predicates: `B; if ..; d` and `if ..; B; d` leave the full-mask B plain (phase 71)", since=90),
    Feature("INLINE_REGISTER_MASK_WARPSYNC", "a warp op phase 71 inlines around per-thread masks whose member "
            "mask is a warp-uniform register (an activemask read) re-converges with `WARPSYNC R`, not "
            "WARPSYNC.ALL (phase 72)", since=90),
    Feature("PER_THREAD_MASK_LOOP_SLOW", "a per-thread-mask warp op on a loop keeps the slow-path call (`BRA.CONV; "
            "CALL __cuda_sm70_*`) where converged straight-line code takes it plain (phase 71)", below=80),
    Feature("PER_THREAD_MASK_TURING", "per-thread member masks follow the sm_75 row of phase 71's table",
            below=80),
    Feature("HELPER_MASK_COPIED", "an activemask read that is only the member mask of warp ops whose shared "
            "out-of-line helper is also called with another mask register is VOTEU.ANY (each call site copies "
            "its mask into the helper's argument; docs/findings/warp.md \"An active mask copied into a shared "
            "helper's argument is uniform (helper nvsched36, stop 36)\")", since=80, below=90),
    Feature("NATIVE_VOTE_ALL", "vote.all/.uni and match.all have native SASS (else ballot / MATCH.ANY against "
            "the active mask)", since=80),
    Feature("EMULATED_SLOW_PATH_COPY", "the copy of a warp op inside a slow path is emulated like sm_75's",
            below=90),
    Feature("PARTIAL_MASK_IN_REGISTER", "an immediate partial member mask is materialised in a register "
            "(EIATTR_COOP_GROUP_MASK_REGIDS)", since=90),
    Feature("MASKED_SHUFFLE_FIRST", "a shuffle reading its member mask from a register (a parameter, a partial "
            "immediate in a register) issues before the full-mask shuffles of its height (isel/schedule.py)",
            since=90),
    Feature("REDUX", "REDUX exists (warp reductions, aggregation, membermask checks)", since=80),
    Feature("REDUX_MASK_UNREAD", "a converged redux.sync's REDUX reads no member mask: an activemask read only "
            "as such masks is deleted, beside other readers it may be uniform (VOTEU.ANY), and the REDUX does "
            "not wait for it (sm_90+ holds the mask in a register for EIATTR_COOP_GROUP_MASK_REGIDS)",
            since=80, below=90),
    Feature("CONV_TEST_UNIFORM_MASK", "a warp op's fast-path test (BRA.CONV/BRA.DIV) reads a register member mask "
            "from a uniform register: a ballot that makes it is VOTEU.ANY (sm_75 tests without the mask)",
            since=80, below=90),
    Feature("BALLOT_CONST_UNIFORM", "a vote.sync.ballot of a predicate its block's entry edge implies is read "
            "into a uniform register (VOTEU.ANY UR, UPT, PT); from sm_90 only with a full member mask and readers "
            "that take a uniform operand (as activemask)",
            below=90),
    Feature("SHARED_SCALED_INDEX", "a shared-memory address takes a scaled index register ([R.X4+sym]), so an "
            "index shift and base add cost no instruction (counts toward the size of an if region ptxas "
            "predicates)", below=90),
    Feature("FMNMX3", "two chained f32 min/max are one three-input FMNMX3 (counts toward the size of an if "
            "region ptxas predicates: docs/findings/convergence.md \"An if joining at a CTA barrier keeps its pair "
            "from nine SASS instructions\")", families=(100, 110)),
    Feature("NATIVE_MINMAX_64", "a 64-bit integer min/max is one IMNMX.64 (else two ISETP and two SEL: four "
            "instructions toward the size of an if region ptxas predicates, passes/sass_units.py)", families=(120,)),
    Feature("CREDUX_INT_MINMAX", "integer redux/aggregated min and max use CREDUX", families=(100,)),
    Feature("NANOSLEEP_WARP", "NANOSLEEP prints .WARP", below=80),
    Feature("NANOSLEEP_UNCONVERGES", "the first warp-synchronous op a nanosleep reaches in converged code (no "
            "other warp op between) re-converges the warp first: `WARPSYNC.ALL; op` (phase 71)", since=90),
    # ---- CTA barriers (isel/fam_barrier.py)
    Feature("DEFER_BLOCKING", "aligned BAR.SYNC and every BAR.RED print .DEFER_BLOCKING", since=80),
    Feature("DEFER_BLOCKING_UNALIGNED", "a non-aligned barrier.sync prints .DEFER_BLOCKING", since=90),
    Feature("B2R_ALWAYS", "BAR.RED is followed by B2R.RESULT even when the result is unused", since=90),
    # ---- fences and atomics (isel/fam_fence.py, fam_atomic.py, fam_memory.py)
    Feature("CGAERRBAR", "wide release fences add CGAERRBAR after ERRBAR", since=90),
    Feature("ONE_WAY_THREAD_FENCE", "fence.acquire / fence.release have an encoding (below sm_90 ptxas accepts "
            "them and emits one all-zero word nvdisasm cannot decode)", since=90),
    Feature("CCTL_LDCU_DEEP", "the tensormap acquire fence has CCTL.E.C.LDCU.IV.DEEP", since=100),
    Feature("SHARED_ACQUIRE_FENCE", "an acquire from shared::cta memory (or atomic) is followed by CCTL.IVALL",
            since=90),
    Feature("REDG", "a global reduction without result is REDG (else RED)", since=90),
    Feature("STRONG_SM_SCOPE", ".cta strength prints as STRONG.SM (else STRONG.CTA)", since=80),
    Feature("DSMEM_DISPATCH", "the generic atomic dispatch has a distributed-shared-memory loop", since=90),
    Feature("ACQUIRE_AT_EMULATED_ATOMIC", "an emulated acquire atomic (generic dispatch, 16-bit CAS loop) has its "
            "CCTL.IVALL right after the atomic instruction, a shared CAS.SPIN loop none (else after the sequence)",
            since=90),
    Feature("RELEASE_AT_EMULATED_ATOMIC", "an emulated release atomic has its release fence inside its loop: right "
            "before the CAS of a 16-bit CAS loop, none at all for a shared CAS.SPIN loop (else before the sequence)",
            since=90),
    Feature("ATOMS_POPC_INC", "a shared add of 1 without result aggregates as ATOMS.POPC.INC", since=80),
    Feature("VOTE_SURVIVES_BARRIER", "an aggregation run shares its VOTEU across CTA barriers", since=90),
    Feature("AGG_LEADER_FENCES", "an aggregated atomic's release fence and acquire CCTL.IVALL are the leader's: "
            "predicated like its memory instruction, right before and after it (else the release fence comes "
            "before the vote and the acquire after the whole sequence)", since=90),
    Feature("COLLECTIVE_VALUE_UNIFORM", "an atomic's value computed from a warp collective's result (vote, redux, "
            "a shfl.sync.idx broadcast from a uniform lane over the whole warp) aggregates as a uniform value (no "
            "prefix scan)", since=90),
    Feature("ATOM_KEPT_BY_FENCE", "a dead-result atom stays ATOMG ... RZ in a function with an sc/acq_rel fence",
            since=90),
    Feature("REDASYNC_UREDGR", "red.async on .global is a uniform-datapath UREDGR loop", families=(100, 110)),
    # ---- mbarriers and async copies (passes/p42_expand_mbarrier.py, isel/fam_mbarrier.py, fam_async_copy.py)
    Feature("MBARRIER_SYNCS", "mbarrier ops use the SYNCS unit (else shared-memory atomics)", since=90),
    Feature("MBARRIER_SW", "mbarrier ops exist at all (software form below MBARRIER_SYNCS)", since=80),
    Feature("MBARRIER_CTA_MEMBAR", "in a kernel with mbarrier ops every MEMBAR wider than CTA is preceded by "
            "MEMBAR.ALL.CTA", since=90),
    Feature("MBARRIER_PERTHREAD_STS", "a per-thread mbarrier init is STS + SYNCS.CCTL.IVALL", since=100),
    Feature("BULK_COPY_SYSCALL", "cp.async.bulk to shared::cluster goes through a syscall path", families=(120,)),
    # ---- if-conversion and loops (passes/ifconvert.py, p22_loop_unrolling.py)
    Feature("PREDICATE_ELECTED_COPY_WIDE", "a divergent region holding an elected bulk/tensor load is still "
            "predicated with two units of other work (below: one; three or more keep it a branch)", since=100),
    Feature("PREDICATE_SHARED_STAGING_LOAD", "a flat load region whose value is stored to shared memory (in "
            "the region or after its join) is predicated", since=90),
    Feature("SHORT_STORE_REGION_KEPT", "an if holding a global store stays a branch with its pair from eight "
            "SASS instructions (below: nine)", since=90),
    Feature("I2F_F64_SLOW", "an integer-to-double conversion (I2F.F64) counts as double-precision work beside a "
            "load region whose value a CTA barrier reduces (predicates it)", below=90),
    Feature("BARRIER_REDUCTION_HIDES_STORES", "a global store after a CTA barrier that reduces a load region's "
            "value does not make the region's predication pay (below: it predicates the region)", since=90),
    Feature("PREDICATE_LOAD_COMPUTED_ACROSS_BARRIER", "a load if that computes a value from its load and carries "
            "it across the CTA barrier its join reaches (no store in the region) is predicated", below=90),
    Feature("PREDICATE_LOAD_BEFORE_DIVERGENT_IF", "a load region whose join runs straight into another "
            "divergent if is predicated, whether or not that if stays a branch (below: only when it does not)",
            since=90),
    Feature("SUNK_HEAD_WORK", "register work before a load region's branch that only the code after its join "
            "reads (a lane index, a store address) counts with the join's independent work: ptxas sinks it below "
            "the predicated load (docs/findings/warp.md \"A guarded load before a straight shuffle chain (helper "
            "shfl38, stop 38)\")", since=75),
    Feature("SHORT_OVERLAP_WORK", "a load region in straight code is predicated from three SASS instructions of "
            "independent work after its join (with SUNK_HEAD_WORK; elsewhere: four)", since=90, below=100),
    Feature("UNROLL_WARP_OPS", "loops holding a warp-synchronous op are unrolled", since=90),
    Feature("EXIT_KEEPS_LONG_LATENCY_CONSUMERS", "before a lane-0 if's branch, the arithmetic on a load's value (and "
            "the second on a shuffle's) stays above it: an aggregated atomic's REDUX of that value is ready at the "
            "if and issues before the VOTEU.ANY (below: the arithmetic sinks past the branch, the value is in flight)",
            since=90),
    Feature("UNROLL_RELEASE_ATOMICS", "loops holding a release or acq_rel atom/red are unrolled (below: its "
            "MEMBAR keeps the loop rolled, as a fence does)", since=90),
    Feature("HEADER_EXIT_LOOP_PAIR", "a header-tested loop left by a per-lane test in its header is paired as a "
            "loop, BSSY in its preheader (regions; sm_90+ not studied: the old if-region pairing kept)", below=90),
    Feature("INVERT_WARP_OPS", "a loop whose header holds a warp-synchronous op is inverted (header copied to "
            "the bottom)", since=90),
    Feature("UNROLL_SMALL_BUDGET", "the full-unroll budget is 3x307 (else 3x1500) body cost units", since=90),
    Feature("UNROLL_SYNC_COST_1", "in the unknown-trip unroll cost a CTA barrier and an mma.sync count one "
            "arithmetic instruction (else two)", since=90),
    # ---- the instruction scheduler (isel/schedule.py)
    Feature("FULL_RATE_INT", "integer and compare instructions issue every cycle (else every second cycle: "
            "16-lane pipes)", families=(120,)),
    Feature("UNIFORM_CLOCK_WAIT", "a clock read into a uniform register (S2UR) is waited for at once with "
            "DEPBAR.LE (isel/clock_reads.py)", below=90),

    # ---- dead code (passes/analysis/demanded.py)
    Feature("SEL_64", "selp.b64 is one SEL.64, which reads both 32-bit halves of its operands even when only "
            "one half of its result is used (else two SELs, one per half)", families=(120,)),
    Feature("PARAM_LDC", "a kernel parameter needed in a register is loaded with LDC (else MOV from the "
            "constant bank)", since=90),
    Feature("MEMBAR_WAITS_MEMORY", "a MEMBAR issues only when the results of the atomics before it are back "
            "(ready work, an aggregated atomic's SHFL.IDX, fills the wait); from sm_90 it does not wait",
            below=90),
    Feature("FENCE_INVALIDATE_APART", "the CCTL.IVALL closing a thread fence (fence.sc/acq_rel/acquire.gpu) is "
            "scheduled apart from its MEMBAR/ERRBAR: a warp collective ready after the fence issues before it; "
            "from sm_90 the fence is one unit", below=90),
    Feature("ACQUIRE_AFTER_BROADCAST", "an aggregated acquire atomic orders the memory operations after it from "
            "the end of its result's broadcast (SHFL.IDX and add; CTA scope too, without a CCTL.IVALL), and that "
            "broadcast of a global atomic goes before the broadcasts of the run's earlier atomics still in flight "
            "(from sm_90 the leader's CCTL.IVALL right after its atomic is the ordering point)", below=90),
    Feature("JOIN_WORK_HOISTED", "plain arithmetic after a one-armed if that reads nothing the region writes is "
            "computed above the region (a collective of it issues right after the BSYNC, before a CTA barrier); "
            "from sm_90 only part of such a chain moves",
            below=90),
    Feature("GUARD_TEST_HOISTED", "the guard test of the if after a region's join (and the arithmetic, special-"
            "register and parameter reads it needs) is computed above that region when it reads nothing the region "
            "writes: the join keeps `BSYNC [BAR] BSSY @P BRA` (isel/join_hoist.py hoist_guard_tests)", below=90),
    Feature("REDUX_HOLDS_THROUGH_ALU_WAIT", "a REDUX waiting for a fixed-latency ALU result (Triton's `selp` of "
            "the exchanged value) still holds back the CTA barrier after it: `LDS SEL REDUX BAR`; below sm_90 and "
            "on sm_120 the barrier fills that wait, `LDS SEL BAR REDUX` (a REDUX reading the LDS itself holds it "
            "everywhere; docs/findings/scheduling.md \"The barrier closing an integer block reduction (helper "
            "tsched36, stop 36)\")", since=90, below=120),
    Feature("INT_DIVISION_RECIPROCAL_FIRST", "a 32-bit integer div/rem by a value not a power of two is two "
            "scheduling units: the divisor's reciprocal (ready with the divisor, the I2F/MUFU.RCP chain's latency) "
            "and the result reading it (`LDG I2F.U32.RP ISETP.NE.U32 BSSY MUFU.RCP`; docs/findings/warp.md \"An "
            "integer division's reciprocal goes first (helper nvcoll36, stop 36)\")", since=75),
    Feature("ACTIVEMASK_READ_NO_FILLER", "a read of the active lanes (`VOTE.ANY R, PT, PT`) fills no stall while "
            "taller work waits for a fixed-latency result (a global load's wait it fills): `BSSY LOP3 VOTE.ANY` "
            "(docs/findings/warp.md \"An integer division's reciprocal goes first (helper nvcoll36, stop 36)\")",
            since=75),
    Feature("VOTE_WAITS_FOR_TALLER_WORK", "a vote whose result only goes to stores, ready while work more than "
            "VOTE_SLACK cycles taller is still to issue, waits while taller work waits (even for a global load): "
            "`SHFL x3 VOTE STG` beside a three-step shuffle max, `SHFL VOTE SHFL` beside a two-step one "
            "(docs/findings/scheduling.md \"A ballot that only feeds a store waits behind a long shuffle chain "
            "(helper nvwarpk32, stop 32)\")", since=90),
    Feature("LATE_GLOBAL_STORES", "a global store or cp.async is no stall filler whatever its base: it waits "
            "while taller work waits (from sm_90 only a global store sharing its base with a later store does)",
            below=90),
    # ---- run-time checks (isel/fam_fence.py, fam_barrier_cluster.py)
    Feature("ALIAS_FENCE_RUNTIME", "fence.proxy.alias picks MEMBAR.SC.SYS/.GPU at run time", since=80),
    Feature("ALIAS_FENCE_UNIFORM", "... from a uniform register (else a c[0x0] word compare)", since=90),
    Feature("UNIFORM_CONST_LOAD", "constant-bank flags are read with LDCU (else ULDC / LDC)", since=100),
    # ---- the listing's operands (isel/generic.py)
    Feature("CONST_BANK_SM90", "kernel parameters at c[0x0][0x210], the global memory descriptor at "
            "c[0x0][0x208] (else parameters at c[0x0][0x160])", since=90, below=100),
    Feature("CONST_BANK_SM100", "kernel parameters at c[0x0][0x380], launch sizes from c[0x0][0x360], the "
            "descriptor at c[0x0][0x358], the stack pointer at c[0x0][0x37c]", since=100),
    Feature("ADDRESS_64_SUFFIX", "a 64-bit address register prints .64 ([R2.64])", since=80),
)
FEATURE_NAMES = frozenset(f.name for f in FEATURES)


@record(frozen=True)
class Target:
    name: str          # "sm_90a"
    sm: int            # 90
    suffix: str        # "", "a" or "f"
    features: frozenset = frozenset()

    @property
    def family(self) -> int:
        return _FAMILY.get(self.sm, self.sm)

    def has(self, feature: str) -> bool:
        """Does this target have the named feature (FEATURES)? An unknown name is a programming error."""
        if feature not in FEATURE_NAMES:
            raise KeyError(f"unknown target feature '{feature}'")
        return feature in self.features

    @property
    def arch_specific(self) -> bool:
        return self.suffix == "a"

    @property
    def family_specific(self) -> bool:
        return self.suffix in ("a", "f")

    @property
    def has_redux_float(self) -> bool:
        # redux.sync.{min,max}.f32: sm_100a/100f/103a/103f only (probes warp/redux_sync_*_f32)
        return self.family == 100 and self.suffix in ("a", "f")

    def __str__(self) -> str:
        return self.name


def make_target(sm: int, suffix: str = "") -> Target:
    return Target(f"sm_{sm}{suffix}", sm, suffix, frozenset(f.name for f in FEATURES if f.holds(sm, suffix)))


def all_target_names() -> list[str]:
    names = []
    for sm in BASE_SMS:
        names.append(f"sm_{sm}")
        if sm in _HAS_A:
            names.append(f"sm_{sm}a")
        if sm in _HAS_F:
            names.append(f"sm_{sm}f")
    return names


def _split_name(name: str) -> tuple[str, str] | None:
    """`(sm|compute|lto)_<digits>[a|f]` -> (digits, suffix), else None (string methods: a regex compiled for
    the one name a run parses took more than the parse)."""
    for prefix in ("sm_", "compute_", "lto_"):
        if name.startswith(prefix):
            rest = name[len(prefix):]
            suffix = rest[-1:] if rest[-1:] in ("a", "f") else ""
            digits = rest[:len(rest) - len(suffix)]
            return (digits, suffix) if digits.isdecimal() else None
    return None


def parse_target(name: str) -> Target:
    """--arch value -> Target; unknown names are an error with ptxas's list."""
    m = _split_name(name.strip())
    if not m or name.strip().replace("compute_", "sm_").replace("lto_", "sm_") not in all_target_names():
        raise PtxError(f"Value '{name}' is not defined for option 'gpu-name'")
    return make_target(int(m[0]), m[1])


def target_accepts(arch: Target, ptx_target: Target) -> bool:
    """Can PTX with `.target ptx_target` be compiled for `arch`? (ptxas --help, gpu-name.)"""
    if ptx_target.suffix == "a":
        return arch.sm == ptx_target.sm and arch.suffix == "a"
    if ptx_target.suffix == "f":
        return arch.family == ptx_target.family and arch.sm >= ptx_target.sm and arch.suffix in ("", "a", "f")
    return arch.sm >= ptx_target.sm


# The targets the feature table in docs/target_features.md shows (one per row of FEATURES that differs).
_DOC_TARGETS = ("sm_75", "sm_80", "sm_86", "sm_87", "sm_89", "sm_90", "sm_90a", "sm_100a", "sm_103a", "sm_110a",
                "sm_120", "sm_121a")


def feature_table_markdown() -> str:
    """docs/target_features.md: which named feature each architecture has (tests/test_frontend.py keeps the
    page equal to this)."""
    head = ("# Target features\n\nGenerated from `FEATURES` in lowering/target.py "
            "(`python -c 'from pylower.lowering.target import feature_table_markdown as f; print(f(), end=\"\")' "
            "> docs/target_features.md`). Every architecture decision of the backend reads one of these by name "
            "(`target.has(\"NAME\")`); `a`/`f` variants have the features of their base target.\n\n")
    rows = ["| feature | " + " | ".join(_DOC_TARGETS) + " | what it decides |",
            "|---|" + "---|" * len(_DOC_TARGETS) + "---|"]
    for f in FEATURES:
        cells = ["x" if parse_target(n).has(f.name) else "" for n in _DOC_TARGETS]
        rows.append(f"| `{f.name}` | " + " | ".join(cells) + f" | {f.doc} |")
    return head + "\n".join(rows) + "\n"
