"""ISel for atomics and reductions (Ori 314, attributes from lowering/fam_atomic.py; docs/findings/atomic.md).

Opcode by space and result (section 1): global ATOMG.E (result used) / RED.E (sm<90) or REDG.E (no result,
an op RED has, not acquire); shared ATOMS; generic and .shared::cluster ATOM.E. Forms a space has no native
op for are expanded (section 1.1, 4): a 32-bit CAS loop for 16-bit scalars, an ATOMS.CAST.SPIN loop on
shared memory, and for generic addresses a run-time dispatch (native ATOM for global, shared CAS loop,
sm_90+ DSMEM loop for floats). A loop whose result is used sits in a BSSY/BSYNC pair (BMOV.32.CLEAR
before each BSSY on sm_75, .RECONVERGENT from sm_100). Fences around the atomic by .sem/.scope (section 2).
Warp aggregation (section 3) is decided by passes/p70_aggregate_atomics.py (`!agg=1`: warp-uniform
address, -O1+); the variant follows the result, the value's uniformity, the op and the tier.
red.async: REDAS (sm_90 cluster form), the sm_100 UREDGR serialization loop, or a release REDG (sm_120).
"""
from __future__ import annotations

from pylower.lowering import ori
from pylower.lowering import ptx_ast as A
from pylower.lowering.fam_fence import is_membar_class
from pylower.passes.analysis import regions as R
from pylower.passes.analysis.defuse import defs, uses

from pylower.sass.instr import VIRTUAL

from .rules import operand_text, rule
from .sequences import REDUX_MODS, STRENGTH, bssy, bsync, redux_opcode, thread_fence

# Target features read here (lowering/target.py): REDG (RED.E without), STRONG_SM_SCOPE (.cta is STRONG.CTA
# without), CGAERRBAR, SHARED_ACQUIRE_FENCE, DSMEM_DISPATCH (the generic dispatch's distributed-shared-memory
# loop), BSSY_RECONVERGENT, BMOV_CLEAR_BEFORE_BSSY, REDUX (without: the SHFL.BFLY tree), ATOMS_POPC_INC,
# CREDUX_INT_MINMAX, VOTE_SURVIVES_BARRIER (without, a barrier between run members makes ptxas re-read the
# active mask), ATOM_KEPT_BY_FENCE, REDASYNC_UREDGR.
_SHARED_VOTE = ("redux", "popc", "popc_used")  # variants whose VOTEU.ANY a run shares (section 3.5)
# variants that branch on the full-warp test of the run's vote (then VOTE.ANY R) and end the run: the prefix
# scan, and sm_75's butterfly min/max (docs/findings/atomic.md "sm_75's butterfly min/max shares the run's vote
# (helper nvatom, stop 23)")
_ENDS_RUN = ("scan", "bfly", "bfly_uniform")
_BARRIER = ori.ORI_CLASSES["barrier"]
_ARITH = frozenset(ori.ORI_CLASSES[c] for c in ("alu", "fpu", "move", "convert"))

_OP = {"add": "ADD", "min": "MIN", "max": "MAX", "inc": "INC", "dec": "DEC", "and": "AND", "or": "OR",
       "xor": "XOR", "exch": "EXCH", "cas": "CAS"}
_TYPE = {"u32": (), "b32": (), "s32": ("S32",), "u64": ("64",), "b64": ("64",), "s64": ("S64",),
         "b128": ("128",), "f32": ("F32", "FTZ", "RN"), "f64": ("F64", "RN"), "f16x2": ("F16x2", "RN"),
         "bf16x2": ("BF16x2", "RN")}
# vector element packing: (type, count) -> modifiers
_VEC_ELEM = {"f16": ("F16", 1), "bf16": ("BF16", 1), "f16x2": ("F16", 2), "bf16x2": ("BF16", 2)}
_NO_RED = ("exch", "cas")                         # keep ATOMG with a dead result
# ATOM_KEPT_BY_FENCE: a dead-result atom (not red) in a function holding an sc/acq_rel thread fence anywhere
# (before or after it, any block) stays ATOMG ... RZ; fence.proxy does not count (probes phases/atom_dead_*fence*)
_SHARED_NATIVE_TYPES = ("u32", "s32", "b32")      # integer ops ATOMS has
_SCALAR16 = ("f16", "bf16", "b16")                # CAS loop on the aligned 32-bit word
_DSMEM_TYPES = ("f32", "f64")                     # generic dispatch adds the DSMEM loop for these (sm_90+;
#                                                  not f16x2: probes atomic/generic_add_f16x2_{used,dead})
def _immediate(o, du):
    """The integer an operand holds by construction: an immediate, or a register whose one definition moves
    one (`mov.u32 %r24, 31`), else None."""
    if type(o) is A.Reg:
        ds = du.definitions(o.name)
        if len(ds) != 1 or ds[0].opcode != "mov" or ds[0].guard is not None or len(ds[0].operands) != 2:
            return None
        o = ds[0].operands[1]
    return o.value if type(o) is A.Imm and isinstance(o.value, int) else None


# aggregations ptxas wraps around the generic dispatch (the leader runs it: leader_dispatch)
# (the dead-result `popc` too: docs/findings/atomic.md "A dead uniform 64-bit generic add is aggregated around the
# dispatch (helper nv27atom, stop 27)")
_AGG_AROUND_DISPATCH = ("popc_used", "popc")
# warp aggregation: ops whose dead-result form reduces the warp's values first (the integer rows of REDUX_MODS)
_AGG_REDUX = {k: v for k, v in REDUX_MODS.items() if k[1] != "f32"}
_AGG_SCAN = (("add", "u32"), ("add", "s32"))      # used result: prefix scan / POPC
_WW = ("INT_WARP_WIDE",)
_LOW32 = (".u32", ".b32", ".s32")


def _t(o) -> str:
    return operand_text(o)


def _loaded_in(val, span) -> bool:
    """Does `val` depend on a non-arithmetic instruction (a load) of `span`? Then ptxas cannot hoist its
    REDUX to the head of the run (agg_run_two_ld); arithmetic on earlier values it hoists (atomics_shared)."""
    need = {val.name} if type(val) is A.Reg else set()
    for y in reversed(span):
        d = set(defs(y)) & need
        if d:
            if y.op not in _ARITH:
                return True
            need = (need - d) | set(uses(y))
    return False


def _load_fed(val, span, shuffles: bool = False, ahead: set | None = None, limits: tuple | None = None) -> bool:
    """Is `val` computed (through arithmetic) from a memory load of `span` (not a parameter, not an atomic's
    result: a prefix scan's branches have waited for that), or with `shuffles` from a warp shuffle? With `limits`
    (load, shuffle): at most that many arithmetic steps of the chain may be among the instructions `ahead`
    (ids: those before a lane-0 if's branch; EXIT_KEEPS_LONG_LATENCY_CONSUMERS)."""
    need = {val.name} if type(val) is A.Reg else set()
    steps = 0
    for y in reversed(span):
        d = set(defs(y)) & need
        if d:
            if y.op not in _ARITH:
                kind = 0 if y.opcode == "ld" and not y.has(".param") else 1 if shuffles and y.opcode == "shfl" else None
                return kind is not None and (limits is None or steps <= limits[kind])
            steps += ahead is not None and id(y) in ahead
            need = (need - d) | set(uses(y))
    return False


def _alu_fed(val, span, loop_defs: set | None = None) -> bool:
    """Is `val` computed in `span` by an instruction that issues (an ALU step: a shift, a popcount, a not, an
    add), not only by free copies (a register or immediate move, a parameter load, an address conversion, an
    integer conversion, an add/or/shift of zero)? In a loop (`loop_defs`: the registers its blocks write) a step
    reading nothing the loop writes does not count: ptxas hoists it out of the loop."""
    from .schedule import _is_free
    need = {val.name} if type(val) is A.Reg else set()
    for y in reversed(span):
        d = set(defs(y)) & need
        if d:
            invariant = loop_defs is not None and not (set(uses(y)) & loop_defs)
            if not (_is_free(y) or _identity(y) or invariant):
                return True
            need = (need - d) | set(uses(y))
    return False


def _identity(y) -> bool:
    """`add/sub/or/xor/shl/shr x, 0` (ptxas folds it into its reader)."""
    ops = y.operands
    return y.guard is None and y.opcode in ("add", "sub", "or", "xor", "shl", "shr") and len(ops) == 3 \
        and type(ops[2]) is A.Imm and ops[2].value == 0


# from sm_90, how many arithmetic steps on a (load, shuffle) result before a lane-0 if's branch still leave the value
# in flight at the if (probes atomic/agg_lane0_after_*: load 0, shuffle 1)
_KEPT_ABOVE_EXIT = (0, 1)


def _off_guard_chain(block: ori.BasicBlock) -> list:
    """The instructions of a block ending in a guarded branch that its guard is not computed from: the branch
    (ptxas's `@P EXIT` or branch) does not wait for them."""
    last = block.instrs[-1] if block.instrs else None
    if last is None or last.opcode != "bra" or last.guard is None:
        return []
    g = last.guard.inner if type(last.guard) is A.Not else last.guard
    need = {g.name} if type(g) is A.Reg else set()
    out = []
    for y in reversed(block.instrs[:-1]):
        d = set(defs(y)) & need
        if d:
            need = (need - d) | set(uses(y))
        else:
            out.append(y)
    return out[::-1]


_COLLECTIVE_RESULTS = ("activemask", "vote", "redux", "shfl")


def _value_sources(du, reg: str, ends: tuple):
    """(register, definition) of every instruction the value of `reg` is computed from, nearest first, each
    once; the walk goes on through a definition's own inputs unless its opcode is in `ends`."""
    seen, work = set(), [reg]
    while work:
        r = work.pop()
        if r in seen:
            continue
        seen.add(r)
        for d in du.definitions(r):
            yield r, d
            if d.opcode not in ends:
                work.extend(du.uses(d))


def _has_thread_fence(fn) -> bool:
    return any(is_membar_class(i) for b in fn.blocks for i in b.instrs)


class _Atom:
    """One atom/red being selected: its attributes, operands and the SASS it emits."""

    def __init__(self, ins, sel):
        self.ins, self.sel = ins, sel
        a = ins.attrs
        self.target = sel.target
        self.op, self.type, self.space = a.op, a.type, a.space
        self.sem, self.scope, self.vec = a.sem, a.scope, a.vec
        ops = ins.operands
        ai = next(i for i, o in enumerate(ops) if type(o) is A.Addr)
        self.dest = ops[0] if ai == 1 else None
        self.addr = ops[ai]
        self.srcs = ops[ai + 1:ai + (3 if self.op == "cas" else 2)]
        dests = self.dest.items if type(self.dest) is A.Vec else (self.dest,)
        self.used = self.dest is not None and any(sel.result_used(ins, d) for d in dests)
        self.out: list = []
        self.guard = None                 # "" inside a branch ptxas put around a predicated aggregation
        self.tail_exit = _tail_is_exit(ins, sel)
        self.total = None                 # what an aggregation's leader applies instead of its own value

    # ------------------------------------------------------------ helpers
    def emit(self, opc, mods=(), operands=(), tags=(), guard=None, label=None, reason=""):
        s = self.sel.sass(self.ins, opc, mods, operands, tags, self.guard if guard is None else guard, reason)
        if label:
            s.label = label
        self.out.append(s)
        return s

    def r(self, role, kind="r"):
        """The temporary playing `role` in this atomic's sequence (isel/rules.SelectContext.role)."""
        return self.sel.role(self.ins, role, kind)

    def act(self, kind=None):
        """The active-lane mask of this atomic's aggregation run (its members share the vote): a uniform
        register (VOTEU), or a vector one where the run ends in a prefix scan (VOTE) or `kind` says so."""
        sharing, _, vector, _ = self.run_plan()
        if kind is None:
            kind = "r" if vector else "ur"
        key = ("agg_act", id(sharing[0]), kind)
        t = self.sel._analyses.get(key)
        if t is None:
            t = self.sel._analyses[key] = self.sel.temps.new(kind)
        return t

    def value(self):
        return self.total if getattr(self, "total", None) else _t(self.srcs[0])

    def leader_test(self, leader, pred="P0"):
        """The leader lane: the lowest active lane (`leader`, from the vote) equals this lane's id."""
        lane = self.r("lane")
        self.emit("S2R", (), (lane, "SR_LANEID"))
        self.emit("ISETP", ("EQ", "U32", "AND"), (pred, "PT", lane, leader, "PT"))

    def strong(self):
        if self.scope == "cta" and not self.target.has("STRONG_SM_SCOPE"):
            return ("STRONG", "CTA")
        return STRENGTH[self.scope]

    def type_mods(self):
        if self.vec:
            if self.type == "f32":
                return (f"F32x{self.vec}", "FTZ", "RN")
            elem, per = _VEC_ELEM[self.type]
            return (f"{elem}x{self.vec * per}", "RN")
        return _TYPE.get(self.type, ())

    def noret(self) -> bool:
        return not self.used and self.op not in _NO_RED and self.sem not in ("acquire", "acq_rel") \
            and not (self.ins.attrs.kind == "atom" and self.target.has("ATOM_KEPT_BY_FENCE")
                     and _has_thread_fence(self.sel.function))

    def global_opcode(self, noret: bool):
        if noret:
            return "REDG" if self.target.has("REDG") else "RED"
        return "ATOMG"

    def dst(self):
        return _t(self.dest) if self.used else "RZ"

    def operands(self, dst=True):
        srcs = tuple(_t(s) for s in self.srcs)
        if getattr(self, "total", None):            # an aggregation's leader applies the warp's total
            srcs = (self.total,) + srcs[1:]
        return ((self.dst(),) if dst else ()) + (_t(self.addr),) + srcs

    def native(self, guard=None, tags=(), pred="PT"):
        """The single native instruction for this space."""
        op = (_OP[self.op],) + self.type_mods()
        if self.space == "shared":
            return self.emit("ATOMS", op, self.operands(), tags, guard)
        if self.space == "global":
            noret = self.noret()
            return self.emit(self.global_opcode(noret), ("E",) + op + self.strong(),
                             self.operands(not noret), tags, guard)
        return self.emit("ATOM", ("E",) + op + self.strong(), (pred,) + self.operands(), tags, guard)

    # convergence barriers around a loop whose result is used
    def bssy(self, n):
        join = self.sel.local_label()
        self.out.extend(bssy(self.sel, self.ins, n, f"`({join})", self.target.has("BSSY_RECONVERGENT"), self.guard))
        return join

    def bsync(self, n, join):
        s = bsync(self.sel, self.ins, n, self.target.has("BSSY_RECONVERGENT"), self.guard)
        s.label = join
        self.out.append(s)

    def paired(self) -> bool:
        """A loop (or the generic dispatch) sits in a BSSY/BSYNC pair unless nothing reads its result and only
        the kernel's return follows: then every path ends in its own EXIT and there is no join to wait at
        (probes atomic/join_*_dead_then_st: a dead-result loop followed by any code keeps its pair); a guarded
        one (`@p red.add.noftz.bf16`, Triton atomic_fadd noret) has none either."""
        return self.used or not (self.tail_exit or self.ins.guard is not None or self.ends_arm())

    def ends_arm(self) -> bool:
        """Is this (dead-result) shared CAS.SPIN loop the last code of a divergent if's arm, its block running
        straight into the if's join? Then the loop leaves to that join and shares the if's pair: `BSSY @P BRA
        LDG ATOMS.CAST.SPIN @!P BRA BSYNC BAR` (docs/findings/atomic.md "A CAS loop that ends an if's arm shares
        the if's pair (helper nv27atom, stop 27)"; probes atomic/join_spin_if_arm_*)."""
        if self.needs_loop() != "spin":
            return False
        b = self.sel.block
        rest = b.instrs[self.sel.position(self.ins) + 1:]
        if len(b.succs) != 1 or any(not (i.opcode == "bra" and i.guard is None) and i.opcode not in _NOT_CODE
                                    for i in rest):
            return False
        region = self.sel.am.innermost.get(b.label)
        return region is not None and region.kind == "if" and region.join == b.succs[0]

    def loop(self, body, n=0, paired=None):
        paired = self.paired() if paired is None else paired
        join = self.bssy(n) if paired else None
        head = self.sel.local_label()
        self.emit(VIRTUAL, label=head)
        body()
        # each lane retries until its own compare-and-swap succeeds: a divergent back edge
        self.emit("BRA", (), (f"`({head})",), ("DIVERGENT_BRANCH",), guard="@!P0")
        if paired:
            self.bsync(n, join)

    # ------------------------------------------------------------ loops
    def cas_loop16(self):
        """16-bit scalar: CAS on the 32-bit word holding it (global ATOMG / shared ATOMS / generic ATOM)."""

        old, new, cur, word = self.r("old"), self.r("new"), self.r("cur"), self.r("word")
        base = self.addr.items[0] if self.addr.items else None
        self.emit("IADD3", (), (word, _t(base) if base is not None else "RZ", hex(self.addr.offset), "RZ"),
                  reason="the address of the aligned 32-bit word holding the 16-bit value")
        self.emit("LOP3", ("LUT",), (word, word, "0xfffffffc", "RZ", "0xc0", "!PT"))

        def body():
            ld = {"shared": "LDS", "global": "LDG"}.get(self.space, "LD")
            self.emit(ld, ("E",) if ld != "LDS" else (), (old, f"[{word}]"))
            self.emit("PRMT", (), (new, old, "0x5410", _t(self.srcs[0])))
            if self.release_in_loop():
                self.release_fence()
            if self.space == "shared":
                self.emit("ATOMS", ("CAS",), (cur, f"[{word}]", old, new))
            elif self.space == "global":
                self.emit("ATOMG", ("E", "CAS") + self.strong(), ("PT", cur, f"[{word}]", old, new))
            else:
                self.emit("ATOM", ("E", "CAS") + self.strong(), ("PT", cur, f"[{word}]", old, new))
            self.acquire_at_atomic()
            self.emit("ISETP", ("EQ", "U32", "AND"), ("P0", "PT", cur, old, "PT"))
        self.loop(body, paired=False if self.one_lane_cas16() else None)
        if self.used:
            self.emit("PRMT", (), (self.dst(), cur, "0x7610", "RZ"), reason="the old 16-bit value")

    def one_lane_cas16(self) -> bool:
        """A global or generic 16-bit CAS loop that only one lane runs (under `tid.x == 0`,
        passes/analysis/single_lane) has no BSSY/BSYNC pair of its own: it cannot diverge (Triton
        atomic_cas_kernel's `@p atom.cas.b16`; probes phases/one_lane_cas16_{guard,bra}). A shared CAS.SPIN
        loop keeps its pair below sm_90 (not modelled from sm_90 on)."""
        return self.space != "shared" and self.sel.am.single_lane.runs_one_lane(self.sel.block.label, self.ins)

    def shared_spin(self, n=0, paired=None):
        wide = ("64",) if self.type in ("u64", "s64", "b64", "f64") else ()

        old = self.dst() if self.used else self.r("old")
        new, val = self.r("new"), _t(self.srcs[0])

        def body():
            self.emit("LDS", wide, (old, _t(self.addr)))
            if self.op in ("min", "max"):
                # nothing to store when the old value already wins: leave (no result) or go to the join
                self.emit("ISETP", ("GE", "U32", "AND"), ("P0", "PT", val, old, "PT"))
                self.exit_or_branch("@P0")
            self.emit("IADD3", (), (new, old, val, "RZ"))
            self.emit("ATOMS", ("CAST", "SPIN") + wide, ("P0", new, _t(self.addr), old, new))
            self.emit("ISETP", ("EQ", "U32", "AND"), ("P0", "PT", new, "0x1", "PT"))
        self.loop(body, n, paired)

    def dsmem_spin(self, n, paired):
        wide = ("64",) if self.type == "f64" else ()

        old = self.dst() if self.used else self.r("old")
        new = self.r("new")

        def body():
            self.emit("LD", ("E",) + wide, (old, _t(self.addr)))
            self.emit("FADD", (), (new, old, _t(self.srcs[0])))
            self.emit("ATOM", ("E", "CAST", "SPIN") + wide, ("P0", new, _t(self.addr), old, new))
            self.emit("ISETP", ("EQ", "U32", "AND"), ("P0", "PT", new, "0x1", "PT"))
        self.loop(body, n, paired)

    def generic_dispatch(self, paired: bool | None = None):
        """ATOM handles global memory (P0); otherwise QSPC picks shared (CAS loop), DSMEM (sm_90+ floats)
        or local memory (plain load / op / store). exch.b64 and cas.b64 (native on shared) only add the
        local-memory fallback."""
        self.join = self.sel.local_label()
        self.native(pred="P0")                    # P0: the address was global memory, ATOM did the work
        self.acquire_at_atomic()
        if self.op == "exch" and not self.used:
            # nothing to read back: local memory just gets the store, predicated (no branch, no pair)
            self.emit("ST", ("E", "64"), (_t(self.addr), _t(self.srcs[0])), guard="@!P0")
            return
        self.exit_or_branch("@P0")
        outer = self.bssy(0) if (self.paired() if paired is None else paired) else None
        # the inner loops have their own pair when the result is used, or (min/max) when their early exit
        # leaves for the outer join too
        # (below sm_90, an acquire fence after the whole sequence does the same)
        inner = self.used or (outer is not None and (self.op in ("min", "max") or self.acquires_after()))
        if paired is False:
            inner = False                         # inside an aggregation's leader pair (leader_dispatch)
        if self.op not in ("exch", "cas"):
            self.emit("QSPC", ("E", "S"), ("P0", "RZ", _t(self.addr)))
            self.shared_spin(1, inner)
            self.exit_or_branch("")
            if self.target.has("DSMEM_DISPATCH") and self.type in _DSMEM_TYPES:
                self.emit("QSPC", ("E", "D"), ("P0", "RZ", _t(self.addr)))
                self.dsmem_spin(1, inner)
                self.exit_or_branch("")
        old = self.dst() if self.used else self.r("old")
        self.emit("LD", ("E", "64"), (old, _t(self.addr)))
        if self.op == "cas":                      # store the new value where the old one equals the compare
            new = self.r("new")
            self.emit("ISETP", ("EQ", "U32", "AND"), ("P0", "PT", old, _t(self.srcs[0]), "PT"))
            self.emit("SEL", (), (new, _t(self.srcs[1]), old, "P0"))
            self.emit("ST", ("E", "64"), (_t(self.addr), new))
        else:
            self.emit("ST", ("E", "64"), (_t(self.addr), _t(self.srcs[0])))
        if outer:
            self.bsync(0, outer)

    # ------------------------------------------------------------ fences
    def release_fence(self):
        if self.sem in ("release", "acq_rel"):
            self.out.extend(thread_fence(self.sel, self.ins, "release", self.scope, self.guard))

    def release_in_loop(self) -> bool:
        """From sm_90 the release fence of a 16-bit CAS loop is inside the loop, right before each CAS, and a
        shared CAS.SPIN loop has none (probes atomic/rel_emulated_*; Triton atomic_fadd_kernel's f16/bf16
        release and acq_rel adds: `BSSY LDG MEMBAR ERRBAR CGAERRBAR ATOMG.CAS`, sm_80 `MEMBAR ERRBAR LDG BSSY`)."""
        return self.target.has("RELEASE_AT_EMULATED_ATOMIC") and self.needs_loop() in ("cas16", "spin")

    def acquires_after(self) -> bool:
        """Is the acquire fence of this (emulated) atomic emitted after its whole sequence?"""
        return self.sem in ("acquire", "acq_rel") and not self.target.has("ACQUIRE_AT_EMULATED_ATOMIC")

    def acquire_at_atomic(self):
        """From sm_90 the acquire fence of an emulated atomic follows its atomic instruction: the generic
        dispatch's ATOM (before the fallbacks), the CAS inside a 16-bit CAS loop (probes
        atomic/acq_emulated_*)."""
        if self.target.has("ACQUIRE_AT_EMULATED_ATOMIC") and not self.acq_done:
            self.acquire_fence()
            self.acq_done = True

    def acquire_fence(self, guard=None):
        if self.sem not in ("acquire", "acq_rel"):
            return
        # shared::cta memory: CCTL.IVALL from sm_90 on, at .cluster scope too (order_atom_shared_acquire_cluster)
        if self.space == "shared" and not self.target.has("SHARED_ACQUIRE_FENCE"):
            return
        self.out.extend(thread_fence(self.sel, self.ins, "acquire", self.scope, self.guard if guard is None else guard))

    def leader_native(self, guard):
        """The memory instruction of an aggregation, run by the leader (`guard`: its lane test). From sm_90
        (AGG_LEADER_FENCES) the leader also issues the atomic's release fence right before it and its acquire
        CCTL.IVALL right after it, under the same guard: `VOTEU.ANY ... @P0 MEMBAR.ALL.GPU @P0 ERRBAR @P0 CGAERRBAR
        @P0 ATOMG @P0 CCTL.IVALL ... SHFL.IDX`; a prefix scan's two memory instructions each have their own
        (probes atomic/agg_leader_fence_*; docs/findings/atomic.md "The leader issues an aggregated atomic's
        fences (helper nvatom, stop 21)")."""
        if self.leader_fences:
            self.out.extend(thread_fence(self.sel, self.ins, "release", self.scope, guard)
                            if self.sem in ("release", "acq_rel") else [])
        self.native(guard=guard)
        if self.leader_fences:
            self.acquire_fence(guard)
            self.acq_done = True

    # ------------------------------------------------------------ selection
    def needs_loop(self) -> str | None:
        if self.vec or self.type == "b128":
            return None
        if self.type in _SCALAR16:
            return "cas16"
        if self.op in ("exch", "cas") and self.type == "b64" and self.space in ("generic", "cluster"):
            return "dispatch"                     # ATOM + a local-memory fallback (cas: compare and select)
        if self.op in ("exch", "cas") or self.type in _SHARED_NATIVE_TYPES:
            return None
        if self.space == "shared":
            return "spin"
        if self.space in ("generic", "cluster"):
            return "dispatch"
        return None

    def select(self):
        self.join, self.acq_done = None, False
        kind = self.needs_loop()
        variant = self.variant() if self.ins.attrs.agg and kind in (None, "dispatch") else None
        if kind == "dispatch" and variant not in _AGG_AROUND_DISPATCH:
            variant = None
        # an aggregation with a leader lane places its own release fence (aggregate: after the branch around a
        # predicated one; sm_90+ AGG_LEADER_FENCES: the leader's, right before its memory instruction)
        led = variant is not None and variant != "popc_inc"
        self.leader_fences = led and self.target.has("AGG_LEADER_FENCES")
        if not led and not self.release_in_loop():
            self.release_fence()
        if variant:
            self.aggregate(variant)
        elif kind == "cas16":
            self.cas_loop16()
        elif kind == "spin":
            self.shared_spin()
            # from sm_90 a shared CAS.SPIN loop has no acquire fence at all
            self.acq_done = self.acq_done or self.target.has("ACQUIRE_AT_EMULATED_ATOMIC")
        elif kind == "dispatch":
            self.generic_dispatch()
        else:
            self.native()
        if not self.acq_done:
            self.acquire_fence()
        if self.join:
            self.emit(VIRTUAL, label=self.join)
        return self.out

    # ------------------------------------------------------------ warp aggregation
    def variant(self) -> str | None:
        """Which aggregation ptxas applies (section 3), or None."""
        key = (self.op, self.type)
        val = self.srcs[0]
        # a shuffle broadcast is warp-uniform to the uniformity analysis, but below sm_90 the aggregation still
        # prefix-scans it (probes atomic/agg_value_shfl_idx_broadcast, agg_value_shfl_idx_imm_lane)
        broadcast = self.broadcast(val)
        uniform_val = type(val) is A.Imm or (self.target.has("COLLECTIVE_VALUE_UNIFORM") if broadcast
                                             else self.sel.uniformity.is_uniform(val)
                                             and not self.per_lane_to_aggregation(val))
        if not self.sel.uniformity.is_uniform(self.addr):
            # only the shared `add 1` without result aggregates a per-thread address
            return "popc_inc" if self.popc_inc(key, val) else None
        acquire = self.sem in ("acquire", "acq_rel")
        # below sm_90 an acquire atomic's result stays live (its CCTL.IVALL waits for it): a dead result is
        # aggregated as a used one (docs/findings/atomic.md "A dead acquire 64-bit add keeps its low-half
        # broadcast (helper tatom, stop 21)")
        kept = acquire and not self.target.has("SHARED_ACQUIRE_FENCE")
        if self.used or (kept and (key in _AGG_SCAN or key == ("add", "u64") and uniform_val)):
            if key == ("add", "u64") and uniform_val:
                return "popc_used"                # 64-bit count, one SHFL.IDX per half used (section 3.3)
            if key not in _AGG_SCAN:
                return None
            return "popc_used" if uniform_val else "scan"
        if self.popc_inc(key, val):
            return "popc_inc"
        if self.op == "add" and self.type in ("u32", "s32", "u64") and uniform_val:
            return "popc"
        if key not in _AGG_REDUX:
            return None
        if not self.target.has("REDUX"):
            return "bfly_uniform" if uniform_val else "bfly"
        return "redux"

    def broadcast(self, val) -> bool:
        """Is `val` the result of a shfl.sync.idx from a warp-uniform source lane over the whole warp (clamp with
        no segment mask: `shfl.sync.idx.b32 d, v, 31, 31, -1`, cooperative groups' `tile.shfl(v, size - 1)`)?
        sm_90+ aggregates an atomic adding it as a uniform value (probes atomic/agg_value_shfl_idx_broadcast,
        _segment; nvcc/cg_scan_compaction cg_scan_compact)."""
        if type(val) is not A.Reg:
            return False
        du = self.sel.am.defuse
        ds = du.definitions(val.name)
        if len(ds) != 1 or ds[0].opcode != "shfl" or ".idx" not in ds[0].mods or ds[0].guard is not None \
                or len(ds[0].operands) < 4:
            return False
        lane, clamp = ds[0].operands[2], _immediate(ds[0].operands[3], du)
        return isinstance(clamp, int) and (clamp >> 8) & 0x1f == 0 and self.sel.uniformity.is_uniform(lane)

    def per_lane_to_aggregation(self, val) -> bool:
        """Is a warp-uniform value still aggregated as a per-lane one (the prefix scan, not POPC)? It is when
        it is computed from (docs/findings/atomic.md "The value ptxas aggregates as uniform (helper cg, stop 22)")
        * a warp collective's result other than activemask (vote, redux, a shfl.sync.idx broadcast) below
          sm_90 (COLLECTIVE_VALUE_UNIFORM; probes atomic/agg_value_ballot*, _redux*, _vote_any_selp);
        * an activemask read in a divergent region and the atomic in a divergent region nested in it, which
          the activemask's block is not in (cooperative groups' coalesced_threads() counted inside its
          `thread_rank() == 0` branch; probes atomic/agg_value_activemask_*; every target)."""
        if type(val) is not A.Reg:
            return False
        collectives = not self.target.has("COLLECTIVE_VALUE_UNIFORM")
        for r, d in _value_sources(self.sel.am.defuse, val.name, _COLLECTIVE_RESULTS):
            if d.opcode == "activemask":
                if self.nested_after(d):
                    return True
            elif d.opcode in _COLLECTIVE_RESULTS and collectives and (d.opcode != "shfl" or self.broadcast(A.Reg(r))):
                return True
        return False

    def value_waits(self, val) -> bool:
        """Is the value computed from a warp collective's or a load's result (a long wait)?"""
        if type(val) is not A.Reg:
            return False
        return any(d.opcode in ("vote", "redux", "shfl", "match") or d.opcode == "ld" and not d.has(".param")
                   for _, d in _value_sources(self.sel.am.defuse, val.name, ()))

    def nested_after(self, d: ori.Instr) -> bool:
        """Is instruction `d` in a divergent region's body, and this atomic in a region that does not hold it?"""
        return R.entered_from(self.sel.am.active_set_regions, self.sel.block_of(d), self.sel.block.label)

    def popc_inc(self, key, val) -> bool:
        return key == ("add", "u32") and type(val) is A.Imm and val.value == 1 and self.space == "shared" \
            and not self.used and self.target.has("ATOMS_POPC_INC")

    def aggregate(self, variant):
        """A predicated aggregation with a used result becomes a branch around it, in a BSSY/BSYNC pair
        (misc_atom_global_add_u32_predicated); without a result it stays predicated (phases/ifconvert_guard_
        atom_uni_max_dead)."""
        join = None
        if self.ins.guard is not None and variant != "popc_inc" and self.used:
            # the pair itself is not guarded (`BSSY; @!P BRA; ...; BSYNC`): the lanes the guard leaves out wait at
            # the join too, and the BSSY is free to move up past the block's barriers like any other
            # (tools/variations/entry_bar_atomic_region.py)
            self.guard = ""
            join = self.bssy(0)
            g = self.ins.guard
            neg = "@" + ("" if type(g) is A.Not else "!") + _t(g.inner if type(g) is A.Not else g)
            self.emit("BRA", (), (f"`({join})",), guard=neg)
            self.guard = ""
        if variant != "popc_inc" and not self.leader_fences:
            self.release_fence()
        if variant == "popc_inc":
            self.emit("ATOMS", ("POPC", "INC", "32"), ("RZ", _t(self.addr)))
        elif variant == "popc":
            self.out.extend(self.run_head())
            self.emit("FLO", ("U32",), (self.r("leader"), self.act()))
            self.emit("POPC", (), (self.r("cnt"), self.act()))
            self.leader_test(self.r("leader"))
            self.warp_total(self.r("cnt"))
            if self.needs_loop() == "dispatch":
                self.leader_dispatch()
            else:
                self.leader_native("@P0")
        elif variant == "popc_used":
            self.agg_popc_used()
        elif variant == "scan":
            self.agg_scan(self.sem in ("acquire", "acq_rel") and self.target.has("SHARED_ACQUIRE_FENCE"))
        elif variant == "redux":
            self.agg_redux()
        else:
            self.agg_bfly(variant == "bfly_uniform")
        if join:
            # below sm_90 (no AGG_LEADER_FENCES) the acquire CCTL.IVALL of a branched-around aggregation ends
            # its arm, before the BSYNC (docs/findings/atomic.md "A branched-around aggregation's acquire fence
            # ends the arm (helper tri28, stop 28)")
            if not self.acq_done:
                self.acquire_fence()
                self.acq_done = True
            self.guard = ""
            self.bsync(0, join)
            self.guard = None

    def warp_total(self, cnt):
        """What the leader adds for a uniform value: the number of active lanes times the value."""
        val = self.srcs[0]
        if type(val) is A.Imm and val.value == 1:
            self.total = cnt
        else:
            self.total = self.r("total")
            # VALUE_WAITS: the scheduler issues the vote and count before it (isel/schedule.py _head_units)
            self.emit("IMAD", ("WIDE", "U32") if self.type == "u64" else (), (self.total, cnt, _t(val), "RZ"),
                      tags=("VALUE_WAITS",) if self.value_waits(val) else (),
                      reason="the active lanes' count times the value")

    def redux(self, hoisted: bool = False):
        tags = ()
        if hoisted:
            # a value a load of this block computes: the run's first atomic does not wait for this REDUX
            # (isel/schedule.py `_head_units`; docs/findings/atomic.md "A REDUX waiting for a load lets the
            # run's earlier atomics go first (helper nv27atom, stop 27)")
            instrs = self.sel.block.instrs
            loaded = _load_fed(self.srcs[0], instrs[:instrs.index(self.ins)])
            tags = ("HOISTED",) + (("VALUE_LOADED",) if loaded else ())
        return self.sel.sass(self.ins, redux_opcode(self.sel, self.op, self.type), _AGG_REDUX[(self.op, self.type)],
                             (self.red_total(), _t(self.srcs[0])), _WW + tags)

    def red_total(self):
        """The uniform register of this atomic's REDUX: the one of an earlier member of its run that reduces
        the same value with the same operation (ptxas reduces it once: `REDUX.SUM VOTEU.ANY ATOMS.ADD
        ATOMS.ADD`; docs/findings/atomic.md "Runs under divergent control share the vote (helper nvmisc26,
        stop 26)")."""
        return self.sel.role(self._same_redux().ins, "red", "ur")

    def _same_redux(self):
        hoisted = self.run_plan()[1]
        if not any(a.ins is self.ins for a in hoisted):
            return self
        instrs = self.sel.block.instrs
        me = instrs.index(self.ins)
        for a in hoisted:
            if a.ins is self.ins:
                return self
            if (a.op, a.type) == (self.op, self.type) and _t(a.srcs[0]) == _t(self.srcs[0]) \
                    and not any(_t(self.srcs[0]) in defs(y) for y in instrs[instrs.index(a.ins):me]):
                return a
        return self

    def run_plan(self):
        """This atomic's run (section 3.5), computed once per atomic: the members that share the vote, those
        whose REDUX the first member hoists (value not loaded inside the run), whether the shared vote writes
        a vector register (the run ends in a prefix scan: VOTE.ANY R) and whether an aggregated prefix scan of
        the same run comes before this atomic in its block."""
        key = ("agg_plan", id(self.ins))
        plan = self.sel._analyses.get(key)
        if plan is None:
            plan = self.sel._analyses[key] = self._run_plan()
        return plan

    def _run_plan(self):
        alone = ([self.ins], [self] if self.variant() == "redux" else [])
        run = self.ins.attrs.agg_run
        if not run:
            return alone + (False, False)
        instrs = self.sel.block.instrs
        members = [x for x in instrs if x.op == self.ins.op and x.attrs.agg_run == run]
        atoms = {id(x): (self if x is self.ins else _Atom(x, self.sel)) for x in members}
        variant = {id(x): atoms[id(x)].variant() for x in members}
        after_scan = any(variant[id(x)] == "scan" for x in members[:members.index(self.ins)])
        # a prefix scan joins the vote of the members before it and ends their run: its branches split the
        # block, so the members after it start a run of their own (agg_run_redux_scan_redux)
        segments, seg = [], []
        for x in members:
            if variant[id(x)] in _SHARED_VOTE or variant[id(x)] in _ENDS_RUN:
                seg.append(x)
                if variant[id(x)] in _ENDS_RUN:
                    segments.append(seg)
                    seg = []
        segments.append(seg)
        sharing = next((g for g in segments if self.ins in g), [])
        if self.ins not in sharing or len(sharing) == 1 and variant[id(self.ins)] in _ENDS_RUN:
            return alone + (False, after_scan)
        start = instrs.index(sharing[0])
        hoisted = [atoms[id(x)] for x in sharing if variant[id(x)] == "redux"
                   and not _loaded_in(atoms[id(x)].srcs[0], instrs[start + 1:instrs.index(x)])]
        vector = len(sharing) > 1 and variant[id(sharing[-1])] in _ENDS_RUN
        return sharing, hoisted, vector, after_scan

    def run_head(self, own_redux=None):
        """The run's VOTEU.ANY (one per barrier-separated part below sm_90) and hoisted REDUXes, emitted by
        its first member; nothing (or the own REDUX if not hoisted) for the others."""
        sharing, hoisted, vector, after_scan = self.run_plan()
        if sharing[0] is not self.ins:
            return [own_redux] if own_redux is not None and not any(a.ins is self.ins for a in hoisted) else []
        votes = 1
        instrs = self.sel.block.instrs
        if not self.target.has("VOTE_SURVIVES_BARRIER") and len(sharing) > 1:
            span = instrs[instrs.index(sharing[0]):instrs.index(sharing[-1])]
            votes += sum(1 for y in span if y.op == _BARRIER)
        vote = [self.sel.sass(self.ins, "VOTE", ("ANY",), (self.act(), "PT", "PT"), _WW) if vector
                else self.sel.sass(self.ins, "VOTEU", ("ANY",), (self.act(), "UPT", "PT"), _WW) for _ in range(votes)]
        # another member's REDUX, hoisted here: it reads that member's value, which PTX computes later in the
        # block; the scheduler moves that computation up with it (isel/schedule.py `_hoist_values`)
        hoisted = [a for a in hoisted if a._same_redux().ins is a.ins]
        reduxes = [own_redux if a.ins is self.ins else a.redux(hoisted=True) for a in hoisted]
        # in a loop or under divergent control (also after a prefix scan's branches) ptxas schedules a REDUX
        # first; a CREDUX (sm_100's min/max) still follows the vote (agg_run_s_rmax, misc_red_*_max_loop)
        if self.ins.attrs.agg == 2 or after_scan:
            # only the run's first REDUX: the others follow the vote (a run under divergent control:
            # `REDUX.MAX VOTEU.ANY REDUX.MIN`; docs/findings/atomic.md "Runs under divergent control share
            # the vote (helper nvmisc26, stop 26)")
            # and not one whose value a load of this block computes: the vote goes first while it waits
            # (`LDG VOTEU.ANY UFLO REDUX`)
            # (the branch ptxas makes of a guard waits for what the guard is computed from: only the loads
            # after the guard's definition count; probes atomic/single_lane_and_*)
            first = instrs.index(self.ins)
            since = self._guard_defined(instrs, first)
            # a block entered only past a guarded branch over it (`if (lane == 0) atom`): the loads and shuffles of
            # the block before that the branch's guard is not computed from are still in flight too (`SHFL.DOWN
            # x5; @P0 EXIT; VOTEU.ANY; REDUX.SUM`: llvm/l28_julia_scan julia_warp_reduce_int; probes
            # atomic/agg_lane0_after_{shfl,shfl_add,load}; docs/findings/atomic.md "An aggregated atomic's value
            # in flight from the block before its if (helper llvm28, stop 28)")
            before = self._entry_span() if since == 0 and self.ins.guard is None else []
            ahead = {id(y) for y in before}
            limits = _KEPT_ABOVE_EXIT if self.target.has("EXIT_KEEPS_LONG_LATENCY_CONSUMERS") else None
            # nor one whose value an ALU step of this block computes (`SHF; REDUX.OR`, `POPC; REDUX.SUM`): the
            # vote fills that step's latency (`POPC; VOTEU.ANY; UFLO; REDUX.SUM`; docs/findings/atomic.md "A
            # REDUX of a value computed in its block follows the vote (helper nvvote38, stop 38)")
            lead = [r for a, r in zip(hoisted, reduxes) if r.opcode == "REDUX"
                    and (after_scan or not _load_fed(a.srcs[0], instrs[since:first])
                         and not (self._no_join() and _alu_fed(a.srcs[0], instrs[since:instrs.index(a.ins)],
                                                               self._loop_defs()))
                         and not (before and _load_fed(a.srcs[0], before + instrs[:first], True, ahead, limits)))][:1]
            return lead + vote + [r for r in reduxes if r not in lead]
        return vote + reduxes

    def _no_join(self) -> bool:
        """Is this atomic's block entered by one edge only, or a loop's? At a join after an if ptxas hoists the
        block's steps of values made before the if above it (nvcc/a27_hist a27_scoped_counters sm_100a: the OR's
        `SHF` before the if's BSSY, `REDUX.OR` first)."""
        return len(self.sel.block.preds) <= 1 or self._loop_defs() is not None

    def _loop_defs(self) -> set | None:
        """The registers the blocks of the innermost loop holding this atomic's block write (None outside loops)."""
        header, body = self.sel.am.loops.innermost_loop(self.sel.block.label)
        if header is None:
            return None
        return {r for b in self.sel.function.blocks if b.label in body for y in b.instrs for r in defs(y)}

    def _entry_span(self) -> list:
        """The instructions of this block's one predecessor that end in a guarded branch jumping over this block,
        minus those the branch's guard is computed from; empty for any other entry."""
        am = self.sel.am
        b = am.blocks.get(self.sel.block.label)
        if b is None or len(b.preds) != 1:
            return []
        pred = am.blocks.get(b.preds[0])
        if pred is None or len(pred.succs) != 2 or b.label not in pred.succs:
            return []
        return _off_guard_chain(pred)

    def _guard_defined(self, instrs, first: int) -> int:
        """Where in the block the last definition of this atomic's guard predicate is (0: unguarded, or
        defined before the block)."""
        g = self.ins.guard
        if g is None:
            return 0
        name = _t(g.inner if type(g) is A.Not else g)
        return next((k for k in range(first - 1, -1, -1) if name in defs(instrs[k])), 0)

    def agg_redux(self):
        self.out.extend(self.run_head(self.redux()))
        vector = self.run_plan()[2]
        leader = self.r("leader", "r" if vector else "ur")
        self.emit("FLO" if vector else "UFLO", ("U32",), (leader, self.act()))
        self.leader_test(leader)
        self.total = self.red_total()
        self.leader_native("@P0")

    def agg_bfly(self, uniform_val):
        """sm_75: is the warp full? no: every lane does its own op and leaves; yes: a butterfly tree
        (not needed for a uniform value), lane 0 does the op."""
        act = self.act("r")
        if self.run_plan()[0][0] is self.ins:     # else the run's first member voted for it (VOTE.ANY R)
            self.emit("VOTE", ("ANY",), (act, "PT", "PT"), _WW)
        self.emit("ISETP", ("EQ", "U32", "AND"), ("P0", "PT", act, "-0x1", "PT"))
        self.native(guard="@!P0")
        self.exit_or_branch("@!P0")
        if not uniform_val:
            total, part = self.r("sum"), self.r("part")
            self.emit("MOV", (), (total, _t(self.srcs[0])), reason="this lane's value, combined across the warp")
            for d in (1, 2, 4, 8, 16):
                self.emit("SHFL", ("BFLY",), ("PT", part, total, hex(d), "0x1f"), _WW)
                self.emit(*_COMBINE[self.op](total, part))
            self.total = total
        lane0 = self.r("lane0", "p")
        self.leader_test("0x0", lane0)
        self.leader_native(f"@{lane0}")

    def exit_or_branch(self, guard):
        """Leave a finished path: EXIT when only the kernel's return follows (ptxas duplicates it), else a
        branch to the join after the sequence."""
        if self.tail_exit and not self.used:
            self.emit("EXIT", guard=guard)
            return
        if self.join is None:
            self.join = self.sel.local_label()
        self.emit("BRA", (), (f"`({self.join})",), guard=guard)

    def agg_scan(self, fence_each):
        act = self.act("r")
        if self.run_plan()[0][0] is self.ins:     # else the run's first member voted for it (VOTE.ANY R)
            self.emit("VOTE", ("ANY",), (act, "PT", "PT"), _WW)
        self.emit("ISETP", ("EQ", "U32", "AND"), ("P0", "PT", act, "-0x1", "PT"))
        end = self.sel.local_label()
        self.leader_native("@!P0")
        if fence_each and not self.leader_fences:
            self.acquire_fence()
        self.emit("BRA", (), (f"`({end})",), guard="@!P0")
        total, part, pre, base = self.r("sum"), self.r("part"), self.r("pre"), self.r("base")
        self.emit("MOV", (), (total, _t(self.srcs[0])), reason="this lane's value: the warp's inclusive scan")
        for d in (1, 2, 4, 8, 16):
            self.emit("SHFL", ("UP",), ("P0", part, total, hex(d), "RZ"), _WW)
            self.emit("IADD3", (), (total, total, part, "RZ"), guard="@P0")
        self.total = total
        self.leader_test("0x1f", "P1")
        self.leader_native("@P1")
        self.total = None
        if fence_each and not self.leader_fences:
            self.acquire_fence()
        has_pre = self.r("has_pre", "p")
        self.emit("SHFL", ("UP",), (has_pre, pre, total, "0x1", "RZ"), _WW)
        self.emit("MOV", (), (pre, "RZ"), guard=f"@!{has_pre}", reason="lane 0 has no lanes before it")
        self.emit("SHFL", ("IDX",), ("PT", base, self.dst(), "0x1f", "0x1f"), _WW)
        self.emit("IADD3", (), (self.dst(), base, pre, "RZ"), label=end)
        self.acq_done = fence_each

    def agg_popc_used(self):
        self.out.extend(self.run_head())
        leader, cnt = self.r("leader"), self.r("cnt")
        self.emit("FLO", ("U32",), (leader, self.act()))
        self.emit("POPC", (), (cnt, self.act()))
        self.leader_test(leader)
        self.warp_total(cnt)
        if self.needs_loop() == "dispatch":
            self.leader_dispatch()
        else:
            self.leader_native("@P0")
        self.total = None
        lt, rank, base = self.r("lt"), self.r("rank"), self.r("base")
        self.emit("S2R", (), (lt, "SR_LTMASK"))
        self.emit("LOP3", ("LUT",), (lt, lt, self.act(), "RZ", "0xc0", "!PT"), reason="the active lanes below this one")
        self.emit("POPC", (), (rank, lt))
        if self.type == "u64":
            # the leader's old value, one shuffle per 32-bit half that is read (only the low one when every
            # use is 32-bit: nvcc/atomics_scoped `st.global.u32` of the u64 result)
            self.emit("SHFL", ("IDX",), ("PT", base, self.dst(), leader, "0x1f"), _WW,
                      reason="the leader's old value (low half)")
            if not self.low_half_only():
                self.emit("SHFL", ("IDX",), ("PT", self.r("base_hi"), self.dst(), leader, "0x1f"), _WW,
                          reason="the leader's old value (high half)")
            self.emit("IMAD", ("WIDE", "U32"), (self.dst(), rank, _t(self.srcs[0]), base),
                      reason="this lane's old value: the leader's plus rank times the value")
            return
        if not (type(self.srcs[0]) is A.Imm and self.srcs[0].value == 1):
            self.emit("IMAD", (), (rank, rank, _t(self.srcs[0]), "RZ"), reason="this lane's offset: rank times the value")
        self.emit("SHFL", ("IDX",), ("PT", base, self.dst(), leader, "0x1f"), _WW)
        self.emit("IADD3", (), (self.dst(), base, rank, "RZ"))

    def leader_dispatch(self):
        """An aggregated generic-address atomic that needs the dispatch (64-bit add: ATOM for global memory,
        QSPC + a shared CAS loop, the local fallback): the leader runs the whole dispatch inside one BSSY/BSYNC
        pair, `@!P0 BRA` around it, with no pair of its own; from sm_90 the leader issues the release fence
        too (probes atomic/agg_generic_add_u64_*;
        libcu++ barrier arrive, nvcc/cuda_barrier_variants)."""
        # a dead result with only the kernel's return after it: the other lanes leave (`@!P0 EXIT`), every path
        # of the dispatch ends in its own EXIT, no pair (probe atomic/agg_generic_add_u64_dead_imm)
        join = None if self.tail_exit and not self.used else self.bssy(0)
        if join is None:
            self.emit("EXIT", guard="@!P0")
        else:
            self.emit("BRA", (), (f"`({join})",), guard="@!P0")
        if self.leader_fences:
            self.release_fence()
        self.generic_dispatch(paired=False)
        if self.join:
            self.emit(VIRTUAL, label=self.join)
            self.join = None
        if join is not None:
            self.bsync(0, join)

    def low_half_only(self) -> bool:
        """Is the 64-bit result only read as 32 bits (a 32-bit store of it, a conversion to a 32-bit type)? A
        dead result (kept below sm_90 by an acquire, `variant`) gets the low half's shuffle only."""
        if not self.used:
            return True
        name = self.dest.name
        users = [i for b in self.sel.function.blocks for i in b.instrs if name in uses(i)]

        def low(u) -> bool:
            types = [m for m in u.mods if m[1:2] in ("u", "s", "b") and m[2:].isdigit()]
            if u.opcode == "st":
                return bool(types) and types[0] in _LOW32 and not any(
                    type(o) is A.Addr and any(type(x) is A.Reg and x.name == name for x in o.items)
                    for o in u.operands)
            return u.opcode == "cvt" and bool(types) and types[0] in _LOW32
        return bool(users) and all(low(u) for u in users)


_NOT_CODE = ("bssy", "bsync", "bmov")

# how a butterfly step combines two lanes' values: (opcode, mods, operands)
_COMBINE = {
    "add": lambda t, p: ("IADD3", (), (t, t, p, "RZ")),
    "min": lambda t, p: ("IMNMX", (), (t, t, p, "PT")),
    "max": lambda t, p: ("IMNMX", (), (t, t, p, "!PT")),
    "and": lambda t, p: ("LOP3", ("LUT",), (t, t, p, "RZ", "0xc0", "!PT")),
    "or": lambda t, p: ("LOP3", ("LUT",), (t, t, p, "RZ", "0xfc", "!PT")),
    "xor": lambda t, p: ("LOP3", ("LUT",), (t, t, p, "RZ", "0x3c", "!PT")),
}


def _only_return_from(instrs, start: int) -> bool | None:
    """True: only an unguarded ret/exit follows from `start`; False: something else does; None: nothing."""
    saw = False
    for k in range(start, len(instrs)):
        i = instrs[k]
        if i.opcode in _NOT_CODE:
            continue
        if i.opcode in ("ret", "exit") and i.guard is None:
            saw = True
            continue
        return False
    return True if saw else None


def _tail_is_exit(ins, sel) -> bool:
    """Does only the kernel's return follow `ins` (in its block, or in the one block it falls into)?"""
    if not sel.function.is_entry:
        return False
    b = sel.block
    here = _only_return_from(b.instrs, sel.position(ins) + 1)
    if here is not None:
        return here
    if len(b.succs) != 1:
        return False
    nxt = next((x for x in sel.function.blocks if x.label == b.succs[0]), None)
    if nxt is None or nxt.succs:
        return False
    return bool(_only_return_from(nxt.instrs, 0))


@rule("atom", "red")
def select_atomic(ins, sel):
    kind = ins.attrs.kind
    if not kind:
        return None
    if kind == "async":
        return _select_async(ins, sel)
    a = _Atom(ins, sel)
    out = a.select()
    if out and out[0].label:                  # keep a block label the driver puts first off our loop head
        out.insert(0, sel.sass(ins, VIRTUAL))
    return out


# red.async .global (sm_100 family): one lane at a time on the uniform datapath
_ASYNC_OPS = {"add": "ADD", "inc": "INC", "dec": "DEC", "min": "MIN", "max": "MAX", "and": "AND", "or": "OR",
              "xor": "XOR"}
_ASYNC_TYPE = {"u32": (), "s32": ("S32",), "u64": ("64",), "s64": ("64",), "b32": ()}


def _select_async(ins, sel):
    a = ins.attrs
    op = (_ASYNC_OPS[a.op],) + (() if a.op in ("and", "or", "xor", "inc", "dec") else _ASYNC_TYPE[a.type])
    s = sel.sass
    if a.space != "global" and a.sem != "release" and a.scope == "cluster":
        if len(ins.operands) < 3:
            return []               # no mbarrier operand: accepted, then deleted by ptxas 13.0.88 (probe below)
        return [s(ins, "REDAS", op, (_t(ins.operands[0]), _t(ins.operands[1]), _t(ins.operands[2])))]
    if a.mmio and a.scope != "sys":
        return []                                     # accepted, then deleted by ptxas (not in the ISA)
    scope = "SYS" if a.scope == "sys" else "GPU"
    # every .global red.async is emitted as an add (probed with .min: rasync_release_gpu_global_min_u32)
    op = ("ADD",) + op[1:] if a.op in ("min", "max") else op
    tmods = op[1:]
    if sel.target.has("REDASYNC_UREDGR"):           # else (sm_120 family) a release REDG
        loop = sel.local_label()
        addr, val = sel.role(ins, "addr", "ur"), sel.role(ins, "val", "ur")
        base = ins.operands[0].items[0] if type(ins.operands[0]) is A.Addr else ins.operands[0]
        seq = [s(ins, "PLOP3", ("LUT",), ("P0", "PT", "PT", "PT", "PT", "0x80", "0x0")),
               s(ins, "ELECT", (), ("P1", "URZ", "P0")),
               s(ins, "R2UR", ("BROADCAST",), (addr, _t(base)), guard="@P1"),
               s(ins, "R2UR", ("BROADCAST",), (val, _t(ins.operands[1])), guard="@P1"),
               s(ins, "MEMBAR", ("ALL", "CTA")),
               s(ins, "UREDGR", ("E", op[0], "NA") + tmods + (("MMIO", "SYS") if a.mmio else ("STRONG", scope)),
                 (f"[{addr}]", val)),
               s(ins, "DEPBAR", ("LE",), ("SB0", "0x0")),
               s(ins, "BRA", ("U", "ANY"), (f"`({loop})",), guard="@P0")]
        seq[1].label = loop
        return seq
    mods = ("E",) + op + (("MMIO", "SYS") if a.mmio else ("STRONG", scope))
    return thread_fence(sel, ins, "release", a.scope if a.scope == "sys" else "gpu") + \
        [s(ins, "REDG", mods, (_t(ins.operands[0]), _t(ins.operands[1])))]


@rule("lea")
def select_lea(ins, sel):
    return [sel.sass(ins, "MOV", (), (_t(ins.operands[0]), _t(ins.operands[1])))]
