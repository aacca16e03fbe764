"""The Ori operation schema: one declaration per Ori operation, in the spirit of QBE's ops.h / xDSL's declared ops.

Each operation (keyed by its PTX stem or pseudo-op name and its Ori class) declares:
- its Ori class number (96 barrier, 119 warp collective, 130 sync pseudo / fence, 314 atom/red, 315 mbarrier,
  316 async copy are ptxas's or follow its numbering; the rest are pylower's own, see ORI_CLASSES);
- the typed attribute record its instructions carry (`Instr.attrs`, one record class per family below);
- its properties (traits): TERMINATOR, SIDE_EFFECTS, WARP_SYNC (runs warp-synchronously when spelled .sync),
  MEMBER_MASK (takes a member mask as last operand when .sync), NEVER_PREDICATED (ptxas keeps a branch around
  it), SYNC_FAMILY (a synchronization op the sync phases look at), PSEUDO (inserted by a phase, not PTX),
  NO_RESULT (its first operand is not a destination).
The IR printer and parser (lowering/ori.py) and the verifier (lowering/verify.py) come from these declarations:
an attribute prints as `!name=value` when it differs from its default, and parses back by its declared type.
"""
from __future__ import annotations

from pylower import records
from pylower.records import field, record

# ---------------------------------------------------------------- classes

ORI_CLASSES: dict[str, int] = {
    "barrier": 96,       # bar, barrier (CTA), bar.warp.sync, barrier.cluster
    "vote": 119,         # vote, match, redux, activemask, elect, shfl (warp collectives)
    "sync": 130,         # sync-internal pseudo-ops: membar/fence, shared-memory LEA for atomics
    "atomic": 314,       # atom, red, red.async
    "mbarrier": 315,     # mbarrier.* pseudo-ops (expanded by phase 42)
    "async": 316,        # cp.async*, cp.reduce.async*, st.async, tensormap, clusterlaunchcontrol
    "alu": 1, "fpu": 2, "move": 3, "convert": 4, "load": 5, "store": 6, "branch": 7, "call": 8,
    "return": 9, "exit": 10, "texture": 11, "mma": 12, "control": 13, "misc": 14,
}
ORI_CLASS_NAME = {v: k for k, v in ORI_CLASSES.items()}
_SYNC_CLASSES = frozenset(ORI_CLASSES[c] for c in ("barrier", "vote", "sync", "atomic", "mbarrier", "async"))

# ---------------------------------------------------------------- attribute records


def _choices(*values, doc: str = ""):
    return {"choices": frozenset(values), "doc": doc}


@record(slots=True)
class Attrs:
    """Every instruction: `.pragma` strings that preceded it in the PTX (e.g. "nounroll"). The flags below
    can be asked of any instruction; only the records that declare them as fields can carry them."""
    pragma: str = ""
    conv = False                 # class constants, not fields (no annotation)
    permask = False
    copy = False
    regid = False
    nopred = False
    form = ""


@record(slots=True)
class SyncAttrs(Attrs):
    """What the sync phases note on a barrier or warp collective they handled."""
    conv: bool = False           # phase 71: proven converged; phase 72 leaves it alone
    permask: bool = False        # phase 71: its member mask differs between lanes
    copy: bool = False           # phase 72: the copy of an op inside its slow path / out-of-line collective
    regid: bool = False          # phase 72: inside the -O0 inline collective the barrier id is in a register
    # phase 71 (PER_THREAD_MASK_FORMS): the form phase 72 gives an op the warp may reach unconverged: inline
    # (WARPSYNC R / WARPSYNC.ALL before it), slow (BRA.DIV to an out-of-line collective; after a member-mask
    # check for a per-thread mask), slow_paired (the same, the collective in a BSSY/BSYNC pair)
    form: str = field(default="", metadata=_choices("", "inline", "slow", "slow_paired"))
    # phase 71 (DIVERGED_BARRIER_TAINTS): a full-mask op after the CTA barrier that re-converged its block's warp;
    # it keeps its slow path, whose out-of-line helper then needs no WARPSYNC (phase 72)
    rejoined: bool = False


@record(slots=True)
class BarrierAttrs(SyncAttrs):
    """Ori 96: bar/barrier .sync/.arrive/.red (mode), bar.warp.sync (no mode), barrier.cluster (cluster)."""
    mode: str = field(default="", metadata=_choices("", "sync", "arrive", "red"))
    redop: str = field(default="", metadata=_choices("", "popc", "and", "or"))
    cluster: str = field(default="", metadata=_choices("", "arrive", "wait"))
    order: str = field(default="", metadata=_choices("", "release", "relaxed", "acquire"))
    implicit: bool = False       # bar.warp.sync: the full-warp sync an aligned op implies (no EIATTR entry)
    folded: bool = False         # bar.warp.sync: what a folded uniform shuffle leaves (only its slow path listed)


@record(slots=True)
class WarpAttrs(SyncAttrs):
    """Ori 119: vote/match/shfl (mode), redux (redop), activemask, elect."""
    mode: str = field(default="", metadata=_choices("", "all", "any", "uni", "ballot", "bfly", "down", "idx", "up"))
    redop: str = field(default="", metadata=_choices("", "add", "min", "max", "and", "or", "xor"))


@record(slots=True)
class ControlAttrs(Attrs):
    """griddepcontrol."""
    action: str = field(default="", metadata=_choices("", "wait", "launch_dependents"))


_SCOPES = ("", "cta", "cluster", "gpu", "sys")


@record(slots=True)
class FenceAttrs(Attrs):
    """Ori 130 membar/fence: the form (thread fence, proxy fences, alias), its order and scope."""
    form: str = field(default="", metadata=_choices("", "thread", "alias", "async", "restrict", "tensormap",
                                                     "mbarrier_init"))
    sem: str = field(default="", metadata=_choices("", "sc", "acq_rel", "release", "acquire"))
    scope: str = field(default="", metadata=_choices(*_SCOPES))
    space: str = field(default="", metadata=_choices("", "global", "shared::cta", "shared::cluster"))
    nopred: bool = False         # ptxas branches around it rather than predicating it


@record(slots=True)
class PseudoAttrs(SyncAttrs):
    """Ori 130 pseudo-ops the phases insert: which EIATTR_COOP_GROUP entries they stand for."""
    coop: bool = False           # the site of a warp-synchronous op
    coop_slow: bool = False      # its slow path (a call / branch to it)
    run: int = 0                 # phase 72: a BRA.CONV testing once for this many ops' slow paths (_slow_run)


@record(slots=True)
class SubroutineAttrs(Attrs):
    """fchk / subcall: the internal subroutine of a math form's fast-path site (lowering/math_subroutines.py)."""
    routine: str = ""            # its symbol, `$__internal_N_$__cuda_..._slowpath`


@record(slots=True)
class AtomicAttrs(Attrs):
    """Ori 314 atom/red/red.async: the decoded qualifiers, the packed modifier word and phase 70's marks."""
    kind: str = field(default="", metadata=_choices("", "atom", "red", "async"))
    op: str = field(default="", metadata=_choices("", "add", "min", "max", "inc", "dec", "and", "or", "xor",
                                                   "exch", "cas"))
    type: str = ""
    space: str = field(default="", metadata=_choices("", "global", "shared", "generic", "cluster"))
    sem: str = field(default="", metadata=_choices("", "relaxed", "acquire", "release", "acq_rel"))
    scope: str = field(default="", metadata=_choices(*_SCOPES))
    word: int = 0                # the packed modifier word (lowering/atomic_word.py)
    vec: int = 0                 # element count of a vector atom
    hint: bool = False           # .L2::cache_hint
    mmio: bool = False
    mbar: bool = False           # red.async completes an mbarrier transaction
    agg: int = 0                 # phase 70: 1 warp-aggregated, 2 aggregated inside a loop / divergent code
    agg_run: int = 0             # phase 70: the run of aggregated atomics sharing one VOTEU


@record(slots=True)
class MbarrierAttrs(Attrs):
    """Ori 315 mbarrier ops (and cp.async.mbarrier.arrive): the classifier's view, then phase 42's choices."""
    op: str = field(default="", metadata=_choices("", "init", "inval", "arrive", "arrive_drop", "test_wait",
                                                   "try_wait", "pending_count", "expect_tx", "complete_tx",
                                                   "cp_async_arrive"))
    classifier: int = -1         # ptxas's classifier type id (lowering/fam_mbarrier.KINDS); -1 none
    space: str = field(default="", metadata=_choices("", "shared", "generic", "cluster"))
    sem: str = field(default="", metadata=_choices("", "default", "release", "acquire", "relaxed"))
    scope: str = field(default="", metadata=_choices(*_SCOPES))
    count: bool = False          # arrive with a count operand
    sink: bool = False           # `_` destination
    nocomplete: bool = False
    parity: bool = False
    expect_tx: bool = False      # arrive.expect_tx
    hint: bool = False           # try_wait suspend-time hint
    noinc: bool = False          # cp.async.mbarrier.arrive.noinc
    impl: str = field(default="", metadata=_choices("", "syncs", "sw"))   # phase 42: the target's implementation
    remote: bool = False         # phase 42: arrives on another CTA's barrier
    inloop: bool = False         # phase 42: an init inside a loop
    vote: bool = False           # phase 42: a predicated init (VOTEU.ALL-guarded)
    nopred: bool = False         # phase 42: kept behind a branch
    perthread: bool = False      # phase 42: per-thread count or address
    pair_later: bool = False     # phase 42: a later per-thread STS init of the block gives the FENCE + CCTL.IVALL
    fence: bool = False          # phase 42: the first init of its block gets a FENCE.VIEW.ASYNC.S
    count1: bool = False         # phase 42: the count is the constant 1
    part: str = field(default="", metadata=_choices("", "vote"))       # phase 42: the vote half of an arrive
    ool: bool = False            # phase 42: the try_wait of an out-of-line retry block
    nohint: bool = False         # phase 42: the inline try_wait without its suspend hint


# async-copy group operations ptxas never predicates
_GROUP_FORMS = frozenset({"bulk_commit_group", "bulk_wait_group", "commit_group", "wait_group", "wait_all"})


@record(slots=True)
class AsyncAttrs(Attrs):
    """Ori 316 async copies: cp.async (ldgsts), bulk / tensor copies and reductions, their groups, st.async,
    tensormap.cp_fenceproxy, clusterlaunchcontrol."""
    form: str = field(default="", metadata=_choices(
        "", "ldgsts", "commit_group", "wait_group", "wait_all", "bulk", "bulk_commit_group", "bulk_wait_group",
        "bulk_prefetch", "bulk_reduce", "tensor_load", "tensor_store", "tensor_prefetch", "tensor_reduce",
        "st_async", "tensormap_cp", "clc_try_cancel", "clc_query"))
    level: str = ""              # cp.async cache level (ca / cg)
    size: int = 0                # cp.async copy size
    zfill: bool = False          # cp.async with a source size (zero fill)
    prefetch: str = ""           # cp.async .L2::<N>B prefetch size
    n: int = -1                  # wait_group / bulk_wait_group count; -1 none
    read: bool = False           # bulk_wait_group.read
    dst: str = ""
    src: str = ""
    dim: int = 0                 # tensor copy dimensions
    mode: str = ""               # tensor load mode (tile, im2col, ...)
    mcast: bool = False          # .multicast::cluster
    cta_group: int = 0
    hint: bool = False           # .L2::cache_hint
    mask: bool = False           # bulk copy byte mask
    op: str = ""                 # reduction op
    type: str = ""               # reduction type
    bits: int = 0                # st.async width
    to_global: bool = False      # st.async to .global
    scope: str = field(default="", metadata=_choices(*_SCOPES))

    @property
    def nopred(self) -> bool:
        """ptxas branches around it rather than predicating it: the group operations, the bulk-group commit
        (UTMACMDFLUSH), alone or after its copies (probes/async/bulk_commit_*; docs/findings/convergence.md
        section 3), and the group commits and waits of cp.async and bulk copies (LDGDEPBAR, DEPBAR.LE: probes
        async/guard_*_group_*; docs/findings/async.md "Guarded group waits and tensormap.cp_fenceproxy
        (helper tmisc, stop 22)")."""
        return self.form in _GROUP_FORMS


RECORDS = (Attrs, SyncAttrs, BarrierAttrs, WarpAttrs, ControlAttrs, FenceAttrs, PseudoAttrs, AtomicAttrs,
           MbarrierAttrs, AsyncAttrs, SubroutineAttrs)

# ---------------------------------------------------------------- operations

TERMINATOR, SIDE_EFFECTS, WARP_SYNC, MEMBER_MASK, NEVER_PREDICATED, SYNC_FAMILY, PSEUDO, NO_RESULT = (
    "TERMINATOR", "SIDE_EFFECTS", "WARP_SYNC", "MEMBER_MASK", "NEVER_PREDICATED", "SYNC_FAMILY", "PSEUDO", "NO_RESULT")
TRAITS = (TERMINATOR, SIDE_EFFECTS, WARP_SYNC, MEMBER_MASK, NEVER_PREDICATED, SYNC_FAMILY, PSEUDO, NO_RESULT)


@record(frozen=True)
class OpDef:
    name: str                    # PTX stem or pseudo-op name
    cls: int                     # Ori class number
    attrs: type = Attrs          # attribute record
    traits: frozenset = frozenset()
    result_forms: tuple = ()     # NO_RESULT ops that do write their first operand with one of these modifiers
    doc: str = ""

    def has(self, trait: str) -> bool:
        return trait in self.traits


def _op(name, cls_name, attrs=Attrs, *traits, result_forms=(), doc=""):
    cls = ORI_CLASSES[cls_name]
    t = frozenset(traits) | ({SYNC_FAMILY} if cls in _SYNC_CLASSES else frozenset())
    return OpDef(name, cls, attrs, t, tuple(result_forms), doc)


_SE, _NR = SIDE_EFFECTS, NO_RESULT
OPS: tuple[OpDef, ...] = (
    # ---- synchronization (handlers: lowering/fam_*.py)
    _op("bar", "barrier", BarrierAttrs, _SE, _NR, result_forms=(".red",),
        doc="bar.sync/arrive/red, bar.warp.sync (WARP_SYNC and MEMBER_MASK by form: lowering/ops.warp_op)"),
    _op("barrier", "barrier", BarrierAttrs, _SE, _NR, result_forms=(".red",),
        doc="barrier[.aligned].sync/arrive/red, barrier.cluster.arrive/wait"),
    _op("vote", "vote", WarpAttrs, WARP_SYNC, MEMBER_MASK),
    _op("shfl", "vote", WarpAttrs, WARP_SYNC, MEMBER_MASK),
    _op("match", "vote", WarpAttrs, WARP_SYNC, MEMBER_MASK),
    _op("redux", "vote", WarpAttrs, WARP_SYNC, MEMBER_MASK),
    _op("elect", "vote", WarpAttrs, WARP_SYNC, MEMBER_MASK),
    _op("activemask", "vote", WarpAttrs),
    _op("membar", "sync", FenceAttrs, _SE, _NR),
    _op("fence", "sync", FenceAttrs, _SE, _NR),
    _op("atom", "atomic", AtomicAttrs, _SE, NEVER_PREDICATED),
    _op("red", "atomic", AtomicAttrs, _SE, _NR, NEVER_PREDICATED),
    _op("mbarrier", "mbarrier", MbarrierAttrs, _SE, _NR,
        result_forms=(".arrive", ".arrive_drop", ".test_wait", ".try_wait", ".pending_count")),
    _op("cp", "mbarrier", MbarrierAttrs, _SE, _NR, doc="cp.async.mbarrier.arrive"),
    _op("cp", "async", AsyncAttrs, _SE, _NR, result_forms=(".reduce",)),
    _op("st", "async", AsyncAttrs, _SE, _NR, doc="st.async"),
    _op("tensormap", "async", AsyncAttrs, _SE, _NR),
    _op("clusterlaunchcontrol", "async", AsyncAttrs, _SE, _NR),
    _op("griddepcontrol", "control", ControlAttrs, _SE, _NR),
    _op("nanosleep", "control", Attrs, _SE, _NR, NEVER_PREDICATED),   # phases/nanosleep_guard_*
    # ---- pseudo-ops the phases insert (ISel: isel/fam_sync_pseudo.py, isel/fam_atomic.py)
    _op("warpsync", "sync", PseudoAttrs, PSEUDO, _SE, _NR, doc="phase 72: WARPSYNC [mask] / .collective / .exclusive"),
    _op("endcollective", "sync", PseudoAttrs, PSEUDO, _SE, _NR, doc="phase 72: end of a WARPSYNC.COLLECTIVE block"),
    _op("bssy", "sync", PseudoAttrs, PSEUDO, _SE, _NR, doc="phase 72: open a convergence pair"),
    _op("bsync", "sync", PseudoAttrs, PSEUDO, _SE, _NR, doc="phase 72: close a convergence pair"),
    _op("break", "sync", PseudoAttrs, PSEUDO, _SE, _NR, doc="phase 72: leave a convergence pair early (BREAK Bn)"),
    _op("bmov", "sync", PseudoAttrs, PSEUDO, _SE, _NR, doc="phase 72: sm_87 convergence-barrier prologue"),
    _op("bra_conv", "sync", PseudoAttrs, PSEUDO, _NR, doc="phase 72: BRA.CONV to an sm70 helper"),
    _op("bra_div", "sync", PseudoAttrs, PSEUDO, _NR, doc="phase 72: BRA.DIV to an out-of-line collective"),
    _op("bra_back", "sync", PseudoAttrs, PSEUDO, _NR, doc="phase 72: back from an out-of-line collective"),
    _op("call_helper", "sync", PseudoAttrs, PSEUDO, _SE, _NR, doc="phase 72: CALL of an sm70 helper"),
    _op("ret_helper", "sync", PseudoAttrs, PSEUDO, _NR, doc="phase 72: RET of an sm70 helper"),
    _op("membermask", "sync", PseudoAttrs, PSEUDO, _NR, doc="phase 71: member-mask check / elided bar.warp.sync"),
    _op("looptest", "sync", PseudoAttrs, PSEUDO, _NR, doc="phase 72: sm_75 convergence test at a back edge"),
    _op("lea", "sync", PseudoAttrs, PSEUDO, doc="build: shared-memory symbol -> register before an ATOMS"),
    # ---- the fast-path site of arithmetic ptxas implements with an internal subroutine (build:
    # lowering/math_subroutines.py; ISel: isel/fam_math.py)
    _op("fchk", "fpu", SubroutineAttrs, doc="the fast path's range check: true in the lanes that must take the slow path"),
    _op("subcall", "call", SubroutineAttrs, _SE, NEVER_PREDICATED, doc="the slow path: a call to the subroutine"),
    # ---- control flow and other effects of generic instructions (classes from lowering/generic.py)
    _op("bra", "branch", Attrs, TERMINATOR, _NR),
    _op("brx", "branch", Attrs, TERMINATOR, _NR),
    _op("ret", "return", Attrs, TERMINATOR, _NR),
    _op("exit", "exit", Attrs, TERMINATOR, _NR),
    _op("trap", "exit", Attrs, TERMINATOR, _SE, _NR),
    _op("call", "call", Attrs, _SE, _NR),
    _op("st", "store", Attrs, _SE, _NR),
    _op("stmatrix", "store", Attrs, _SE, _NR),
    _op("prefetch", "load", Attrs, _NR),
    _op("prefetchu", "load", Attrs, _NR),
    _op("sust", "texture", Attrs, _SE, _NR),
    _op("sured", "texture", Attrs, _SE, _NR),
    _op("wmma", "mma", Attrs, _NR, result_forms=(".load",)),
    _op("tcgen05", "mma", Attrs, _SE, _NR),
    _op("setmaxnreg", "control", Attrs, _SE, _NR),
    _op("stackrestore", "control", Attrs, _SE, _NR),
    _op("brkpt", "control", Attrs, _SE, _NR),
    _op("pmevent", "control", Attrs, _SE, _NR),
    _op("multimem", "misc", Attrs, _SE, _NR),
    _op("tensormap", "misc", Attrs, _SE, _NR, doc="tensormap.replace (tensormap.cp_fenceproxy is class 316)"),
    _op("applypriority", "misc", Attrs, _SE, _NR),
    _op("discard", "misc", Attrs, _SE, _NR),
)
_BY_KEY: dict[tuple[str, int], OpDef] = {(o.name, o.cls): o for o in OPS}
_BY_NAME: dict[str, OpDef] = {}
for _o in OPS:
    _BY_NAME.setdefault(_o.name, _o)
PSEUDO_OPCODES = frozenset(o.name for o in OPS if o.has(PSEUDO))
DECLARED_OPCODES = frozenset(o.name for o in OPS)          # pseudo-ops and the build's own operations
NEVER_PREDICATED_OPCODES = frozenset(o.name for o in OPS if o.has(NEVER_PREDICATED))
_GENERIC = {cls: OpDef("*", cls) for cls in ORI_CLASSES.values()}


def opdef(opcode: str, cls: int) -> OpDef:
    """The declaration of an Ori operation; stems without one are plain generic operations of their class."""
    d = _BY_KEY.get((opcode, cls))
    if d is None:
        d = _GENERIC.get(cls) or OpDef(opcode, cls)
    return d


def by_name(opcode: str) -> OpDef | None:
    return _BY_NAME.get(opcode)


def has_trait(opcode: str, cls: int, trait: str) -> bool:
    return trait in opdef(opcode, cls).traits

# ---------------------------------------------------------------- records from keywords / text


_FIELDS: dict[type, dict[str, records.Field]] = {r: {f.name: f for f in records.fields(r)} for r in RECORDS}
_DEFAULTS: dict[type, object] = {}      # record -> its default instance, made on first use (start-up: issue 13)


def _coerce(f: records.Field, v):
    t = f.type if isinstance(f.type, str) else f.type.__name__
    if t == "bool":
        return bool(int(v)) if isinstance(v, str) else bool(v)
    if t == "int":
        if isinstance(v, str):
            return int(v, 16) if v.lower().startswith(("0x", "-0x")) else int(v)
        return int(v)
    return str(v)


def make_attrs(opcode: str, cls: int, values: dict | None = None):
    """The attribute record of a new instruction, from keyword values (converted to the declared types).
    A name the record does not declare is a programming error (KeyError)."""
    rec = opdef(opcode, cls).attrs
    if not values:
        return rec()
    fields = _FIELDS[rec]
    kw = {}
    for k, v in values.items():
        f = fields.get(k)
        if f is None:
            raise KeyError(f"Ori '{opcode}' (class {cls}) has no attribute '{k}' ({rec.__name__})")
        kw[k] = _coerce(f, v)
    return rec(**kw)


def replace_attrs(attrs, **changes):
    """A copy of an attribute record with some fields changed (converted to their declared types)."""
    fields = _FIELDS[type(attrs)]
    for k in changes:
        if k not in fields:
            raise KeyError(f"{type(attrs).__name__} has no attribute '{k}'")
    return records.replace(attrs, **{k: _coerce(fields[k], v) for k, v in changes.items()})


def set_attr(attrs, name: str, value) -> None:
    """Set one field of a record (converted to its declared type); unknown names are an error."""
    f = _FIELDS[type(attrs)].get(name)
    if f is None:
        raise KeyError(f"{type(attrs).__name__} has no attribute '{name}'")
    setattr(attrs, name, _coerce(f, value))


def nondefault(attrs) -> list[tuple[str, object]]:
    """(name, value) of the fields that differ from the record's defaults, sorted by name (the IR text)."""
    d = _DEFAULTS.get(type(attrs))
    if d is None:
        d = _DEFAULTS[type(attrs)] = type(attrs)()
    return sorted((n, getattr(attrs, n)) for n in _FIELDS[type(attrs)] if getattr(attrs, n) != getattr(d, n))


def field_problems(attrs) -> list[str]:
    """Values outside a field's declared choices."""
    out = []
    for n, f in _FIELDS[type(attrs)].items():
        ch = f.metadata.get("choices")
        if ch is not None and getattr(attrs, n) not in ch:
            out.append(f"attribute {n}={getattr(attrs, n)!r} is not one of {sorted(ch)}")
    return out
