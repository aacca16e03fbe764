"""ISel for asynchronous copies (Ori 316, attributes from lowering/fam_async_copy.py; docs/findings/async.md).

- cp.async: LDGSTS.E[.BYPASS][.LTC<n>B][.64|.128][.ZFILL] (.ZFILL unless the source size can only be the
  copy size or 0; `.LTC128B` without a prefetch modifier in a function with a software-pipelined mma loop,
  at -O3); commit LDGDEPBAR; wait DEPBAR.LE SB0, n (wait_all: an implicit commit first).
- bulk / tensor copies: a copy that is not inherently single-thread sits in an ELECT loop (ptxas elects one
  lane, issues the uniform-datapath op, repeats for the lanes left); stores, prefetches and the s2g bulk copy
  are issued directly. On the sm_120 family a global -> shared::cluster load is a syscall
  (`__cuda_syscall_cp_async_bulk*`): the multicast forms are only the call, the unicast forms keep the op
  and add the call (in a BSSY.RECONVERGENT pair when an operand is per-thread).
- bulk groups: commit UTMACMDFLUSH; wait DEPBAR.LE SB0, n, then CCTL.IVALL unless `.read`.
- tensormap.cp_fenceproxy: LDS + ATOMG.E.EXCH.STRONG.<GPU|SYS>; st.async STAS by width (the sm_100
  .mmio.release.global form is deleted); clusterlaunchcontrol.try_cancel: ELECT + UGETNEXTWORKID.
"""
from __future__ import annotations

from pylower.lowering import ops, ptx_ast as A
from pylower.lowering.ops import ASYNC
from pylower.lowering.ori import ORI_CLASSES
from pylower.passes import ifconvert
from pylower.passes.analysis.regions import innermost_map
from pylower.passes.per_thread_masks import value_key

from .fam_mbarrier import guard_vote, select_mbarrier
from .rules import operand_text, rule

_LDGSTS_SIZE = {4: (), 8: ("64",), 16: ("128",)}
_MODE = {"tile": (), "im2col": ("IM2COL",), "im2col_no_offs": ("IM2COL",), "tile::gather4": ("GATHER4",),
         "tile::scatter4": ("SCATTER4",), "im2col::w": ("W",), "im2col::w::128": ("W128",)}
_RED_TYPE = {"u32": (), "b32": (), "s32": ("S32",), "u64": ("U64",), "b64": ("U64",), "s64": ("S64",),
             "f32": ("F32", "RN"), "f64": ("F64", "RN"), "f16": ("F16", "RN"), "bf16": ("BF16", "RN")}
_SPACE = {"global": "G", "shared::cluster": "S", "shared::cta": "S", "shared": "S"}
_TENSORMAP_SCOPE = {"cta": "GPU", "cluster": "GPU", "gpu": "GPU", "sys": "SYS"}
_STAS = {32: (), 64: ("64",), 128: ("128",)}
_WW = ("INT_WARP_WIDE",)
MBAR = ORI_CLASSES["mbarrier"]


def _ops(ins):
    return tuple(operand_text(o) for o in ins.operands)


def elect_loop(ins, sel, body):
    """PLOP3 P0=PT; L: @P0 ELECT P1; <body>; @P1 PLOP3 P0=false; @P0 BRA.U.ANY L."""
    s = sel.sass
    loop = sel.local_label()
    elect = s(ins, "ELECT", (), ("P1", "URZ", "PT"), guard="@P0")
    elect.label = loop
    return ([s(ins, "PLOP3", ("LUT",), ("P0", "PT", "PT", "PT", "PT", "0x80", "0x0")), elect] + body +
            [s(ins, "PLOP3", ("LUT",), ("P0", "PT", "PT", "PT", "PT", "0x8", "0x0"), guard="@P1"),
             s(ins, "BRA", ("U", "ANY"), (f"`({loop})",), guard="@P0")])


def _syscall(ins, sel, name):
    return sel.sass(ins, "CALL", ("ABS", "NOINC"), (f"`({name})",))


def _per_thread(ins, sel) -> bool:
    """A per-thread destination or source address (tensor coordinates do not count)."""
    uni = sel.uniformity
    return any(uni.is_divergent_operand(i) for o in ins.operands[:2] if type(o) is A.Addr
               for i in o.items if type(i) is not A.Vec)


def _reconverge(ins, sel, seq):
    join = sel.local_label()
    out = [sel.sass(ins, "BSSY", ("RECONVERGENT",), ("B0", f"`({join})"))] + seq
    bsync = sel.sass(ins, "BSYNC", ("RECONVERGENT",), ("B0",))
    bsync.label = join
    return out + [bsync]


def bulk_syscall(ins, target) -> bool:
    """Is this copy the sm_120 family's syscall (`__cuda_syscall_cp_async_bulk*`): a bulk or tensor load from
    global into shared::cluster memory? (The helper waits on mbarriers: isel/sequences.orders_mbarriers.)"""
    a = ins.attrs
    return target.has("BULK_COPY_SYSCALL") and a.form in ("bulk", "tensor_load") and a.dst == "shared::cluster" \
        and a.src == "global"


def _g2s_load(ins, sel, opcode, mods, syscall):
    """A global -> shared load in its ELECT loop, or the sm_120 family's syscall form."""
    a = ins.attrs
    loop = lambda: elect_loop(ins, sel, [sel.sass(ins, opcode, mods, _ops(ins))])     # noqa: E731
    if sel.block is not None and (sel.am.single_lane.elected(sel.block.label)
                                  or sel.am.single_lane.elected_guard(ins.guard)):
        loop = lambda: [sel.sass(ins, opcode, mods, _ops(ins))]      # noqa: E731  (one lane: no ELECT loop)
    if bulk_syscall(ins, sel.target):
        call = _syscall(ins, sel, syscall + ("_multicast" if a.mcast else "_unicast"))
        if a.mcast:
            return [call]
        seq = loop() + [call]
        return _reconverge(ins, sel, seq) if _per_thread(ins, sel) else seq
    votes = _region_votes(ins, sel)
    if votes:
        return [sel.sass(ins, "VOTEU", ("ALL",), ("UP0", "PT"), tags=_WW, guard="") for _ in range(votes)] + loop()
    return _issue(ins, sel, opcode, mods, loop)


def _region_votes(ins, sel) -> int:
    """How many VOTEU.ALL a global -> shared copy in a divergent region ptxas predicates takes before its ELECT
    loop (the loop stays, the copy under the voted uniform predicate): two for the region's first uniform
    vote (the first such copy, unless a predicated mbarrier.init voted before it), one for each later copy
    (probes async/elected_copy_if_*; docs/findings/async.md "A region holding a bulk or tensor load (helper
    nvasync, stop 20)")."""
    if ins.guard is not None or sel.block is None:
        return 0
    region = _predicated_if(sel, sel.block.label)
    if region is None:
        return 0
    for prev in sel.block.instrs:
        if prev is ins:
            return 1 if _voted_before(sel, region) else 2
        if _votes(prev):
            return 1
    return 0


def _votes(ins) -> bool:
    """An op ptxas votes on (VOTEU.ALL) when its if is predicated: a bulk/tensor load, a shared -> cluster
    copy, a voted mbarrier.init."""
    return ifconvert.elected_copy(ins) or _s2s_copy(ins) or ins.op == MBAR and ins.attrs.op == "init" \
        and ins.attrs.vote


def _predicated_if(sel, label):
    """The one-block divergent if whose body is `label`, when ptxas predicates it (else None)."""
    region = innermost_map(sel.am.regions).get(label)
    if region is None or region.kind != "if" or len(region.body) != 1 \
            or ifconvert.is_kept_region(sel.am, region, sel.target):
        return None
    return region


def _voted_before(sel, region) -> bool:
    """Did an earlier predicated if with the same test (the same value compared the same way) vote? ptxas
    then shares that if's first vote, and the copy takes one VOTEU.ALL instead of two (`if (tid == 0) init;
    <cluster barrier | bar.sync | nothing>; if (tid == 0) copy`: 2 + 1 votes; with `tid == 1` in the first
    if 2 + 2; probes async/voted_if_same_test_*; docs/findings/async.md "An earlier if on the same test
    shares its vote (helper llvmnb, stop 23)")."""
    key = _test_key(sel, region)
    if key is None:
        return False
    for b in sel.function.blocks:
        if b.label in region.body:
            return False
        other = _predicated_if(sel, b.label)
        if other is not None and other is not region and _test_key(sel, other) == key \
                and any(_votes(i) for i in b.instrs):
            return True
    return False


def _test_key(sel, region):
    """The branch test of an if as a value: the guard's polarity and its setp's comparison of operand values
    (`per_thread_masks.value_key`, a truncation of a widening cvt read as its source)."""
    head = sel.am.blocks.get(region.head)
    last = head.instrs[-1] if head is not None and head.instrs else None
    if last is None or last.opcode != "bra" or last.guard is None:
        return None
    du = sel.am.defuse
    ds = du.definitions(ops.guard_register(last.guard))
    if len(ds) != 1 or ds[0].opcode != "setp" or ds[0].guard is not None:
        return None
    d = ds[0]
    return (type(last.guard) is A.Not, d.mods) + tuple(_value(o, du) for o in d.operands[1:])


def _value(o, du):
    if type(o) is A.Reg:
        ds = du.definitions(o.name)
        if len(ds) == 1 and ds[0].opcode == "cvt" and ds[0].guard is None and type(ds[0].operands[1]) is A.Reg:
            inner = du.definitions(ds[0].operands[1].name)
            if len(inner) == 1 and inner[0].opcode == "cvt" and inner[0].guard is None \
                    and _widens(inner[0]) and not _widens(ds[0]):
                return _value(inner[0].operands[1], du)
    return value_key(o, du)


def _widens(cvt) -> bool:
    """A cvt between integer types to a wider one (`cvt.u64.u32`)."""
    bits = [int(m[2:]) for m in cvt.mods if len(m) > 2 and m[1] in "usb" and m[2:].isdigit()]
    return len(bits) == 2 and bits[0] > bits[1]


def _s2s_copy(ins) -> bool:
    """A bulk copy from the CTA's shared memory to a cluster peer's (an ELECT loop on every target)."""
    a = ins.attrs
    return ins.op == ASYNC and a.form == "bulk" and a.dst != "global" and a.src != "global"


# How many times the warp votes on a per-lane guard before a uniform-datapath copy (probes
# async/tma_guard_*, ptxas 13.0.88 sm_90a/sm_100a): twice for the tensor load/store/reduce and the bulk
# global -> shared copy, once for the bulk shared -> global copy, the bulk reduction and the prefetches.
# The first of two votes predicates uniform work for the copy's operands: without any, one (_WORK_VOTES).
_GUARD_VOTES = {"UTMALDG": 2, "UTMASTG": 2, "UTMAREDG": 2, ("UBLKCP", "S"): 2, ("UBLKCP", "G"): 1,
                "UBLKRED": 1, "UTMAPF": 1, "UBLKPF": 1}


def _issue(ins, sel, opcode, mods, plain):
    """A uniform-datapath copy under a per-lane guard (not an elect's own predicate): no ELECT loop; the warp
    votes on the guard as for a predicated mbarrier.init and issues the op once under the uniform predicate
    (`elect & tid < 32` -> VOTEU.ANY UP0, P ... @UP0 op; `tid == 0` -> VOTEU.ALL UP0, !P ... @!UP0 op).
    Otherwise `plain()` (the ELECT loop, or the op as such)."""
    if not _voted(ins, sel):
        return plain()
    votes = _GUARD_VOTES.get(opcode) or _GUARD_VOTES[(opcode, mods[0])]
    if opcode in _WORK_VOTES and not _guarded_uniform_work(ins, sel):
        votes = 1
    vote, g, guard = guard_vote(ins, sel)
    return [sel.sass(ins, "VOTEU", (vote,), ("UP0", g), tags=_WW, guard="") for _ in range(votes)] + \
        [sel.sass(ins, opcode, mods, _ops(ins), guard=guard)]


# The copies whose first vote guards uniform-datapath work ptxas does for them alone under the guard: the
# tensormap's address built there (`@UP0 UMOV UR8, 0x30` for a parameter's own address; `_map_work`), a shared
# address that is a variable plus a constant (`@UP0 UIADD3 UR9, UR8, 0x400`: the mbarrier at `smem + 1024`).
# Without such an operand (a map `cvta.param`-ed on sm_90, built in vector registers under the lane predicate:
# `@P0 IADD3; @P0 R2UR`; a loaded pointer; shared operands that are variables as such or plus a register) the
# copy takes one vote (probes async/tma_guard_map_*; docs/findings/async.md "One vote before a copy with no
# uniform work of its own (helper isel24, stop 24)").
_WORK_VOTES = ("UTMALDG", "UTMASTG", "UTMAREDG", "UBLKCP")


def _guarded_uniform_work(ins, sel) -> bool:
    """Does ptxas build one of the copy's operands on the uniform datapath under the guard's first vote?"""
    names = {p.name for p in sel.function.decl.params}
    for o in ins.operands:
        if type(o) is not A.Addr or not o.items:
            continue
        if any(type(i) is A.Vec for i in o.items):          # [map, {coordinates}]
            if _map_work(sel, o.base, names):
                return True
        elif o.offset and _from_symbol(sel, o.base, names) and not sel.uniformity.is_divergent_operand(o.base) \
                or _symbol_plus_constant(sel, o.base, names):
            return True
    return False


def _map_work(sel, o, names, depth: int = 0) -> bool:
    """Does ptxas build the tensormap address on the uniform datapath: a parameter's own address (UMOV of its
    offset), a `cvta.param` of one where the parameter window's base is read into a uniform register (sm_100+:
    LDCU) and the parameter is not the first (an add of its offset), or a computed warp-uniform address plus a
    constant (`cvta.global(ptr + ctaid * 384 + 256)`)? A `cvta.param`-ed map on sm_90 is built in vector registers
    (LDC; `@P0 IADD3`)."""
    if type(o) in (A.Sym, A.Reg) and not o.name.startswith("%"):
        return o.name in names
    d = _definition(sel, o)
    if d is None or depth > 8 or len(d.operands) < 2:
        return False
    if d.opcode == "cvta" and d.has(".param"):
        first = sel.function.decl.params[0].name if sel.function.decl.params else None
        return sel.target.has("UNIFORM_CONST_LOAD") and _param_name(sel, d.operands[1], names) not in (first, None)
    if d.opcode in ("mov", "cvta", "cvt"):
        return _map_work(sel, d.operands[1], names, depth + 1)
    if d.opcode == "add" and len(d.operands) == 3:
        a, b = d.operands[1], d.operands[2]
        return any(type(x) is A.Imm and x.value != 0 and type(y) is A.Reg and not sel.uniformity.is_divergent_operand(y)
                   and not _param_load(sel, y) for x, y in ((a, b), (b, a)))
    return False


def _param_load(sel, o) -> bool:
    """A register an ld.param writes (`ld.param + 256` as a map: one vote, probe tma_guard_map_param_ptr_plus)."""
    d = _definition(sel, o)
    return d is not None and d.opcode == "ld" and d.has(".param")


def _param_name(sel, o, names, depth: int = 0):
    """The kernel parameter whose address a register holds (through movs and cvts), else None."""
    if type(o) in (A.Sym, A.Reg) and o.name in names:
        return o.name
    d = _definition(sel, o)
    if d is None or d.opcode not in ("mov", "cvt") or depth > 8:
        return None
    return _param_name(sel, d.operands[1], names, depth + 1)


def _definition(sel, o):
    """The one unguarded definition of a register (else None)."""
    if type(o) is not A.Reg:
        return None
    ds = sel.am.defuse.definitions(o.name)
    return ds[0] if len(ds) == 1 and ds[0].guard is None else None


def _symbol(sel, o, names, params: bool = False, depth: int = 0) -> bool:
    """Is the operand a variable's address (a kernel parameter's, with `params`), directly or through movs?"""
    if type(o) in (A.Sym, A.Reg) and not o.name.startswith("%"):
        return o.name in names if params else o.name not in names
    d = _definition(sel, o)
    return d is not None and d.opcode == "mov" and depth < 8 and _symbol(sel, d.operands[1], names, params, depth + 1)


def _symbol_plus_constant(sel, o, names, depth: int = 0) -> bool:
    """A shared variable's address plus a non-zero constant, through movs and adds (`smem + 1024`,
    `smem + %r + 131072`, the sum warp-uniform; `(%r << 4) + 64` with no variable, or `smem + (tid >> 5 << 14) +
    98304`, per-lane, does not count)."""
    d = _definition(sel, o)
    if d is None or depth > 8:
        return False
    if d.opcode == "mov":
        return _symbol_plus_constant(sel, d.operands[1], names, depth + 1)
    if d.opcode != "add" or len(d.operands) != 3:
        return False
    a, b = d.operands[1], d.operands[2]
    return any(type(x) is A.Imm and x.value != 0 and _from_symbol(sel, y, names, depth + 1)
               and not sel.uniformity.is_divergent_operand(y) for x, y in ((a, b), (b, a))) or \
        any(type(x) is not A.Imm and _symbol_plus_constant(sel, x, names, depth + 1) for x in (a, b))


def _from_symbol(sel, o, names, depth: int = 0) -> bool:
    """A variable's address, or a sum with one (through movs and adds)."""
    if _symbol(sel, o, names):
        return True
    d = _definition(sel, o)
    return d is not None and d.opcode == "add" and depth < 8 and \
        any(_from_symbol(sel, x, names, depth + 1) for x in d.operands[1:])


def _voted(ins, sel) -> bool:
    """A divergent guard that is not an elect.sync's predicate as such (ptxas issues that one plainly)."""
    g = ins.guard
    if g is None or not sel.uniformity.is_divergent_operand(g):
        return False
    reg = g.inner if type(g) is A.Not else g
    ds = sel.am.defuse.definitions(reg.name) if type(reg) is A.Reg else []
    return not (type(g) is A.Reg and ds and all(d.opcode == "elect" for d in ds))


# value computations whose result set _values follows (two operands, each a constant or a register)
# as 32-bit operations: a shift amount is unsigned and clamped to 32 (PTX's shl/shr), results wrap
_M32 = 0xffffffff
_COMBINE = {"shl": lambda x, y: (x << min(y & _M32, 32)) & _M32, "mul": lambda x, y: (x * y) & _M32,
            "add": lambda x, y: (x + y) & _M32, "sub": lambda x, y: (x - y) & _M32,
            "or": lambda x, y: (x | y) & _M32, "shr": lambda x, y: (x & _M32) >> min(y & _M32, 32)}
_MAX_VALUES = 16


def _values(sel, o, depth: int = 0) -> frozenset | None:
    """The set of constants a register can hold: the union over its definitions (mov, cvt, selp between
    values, `and` with a constant (its sub-masks), arithmetic on value sets); None when not a small set."""
    if type(o) is A.Imm:
        return frozenset((o.value,)) if isinstance(o.value, int) else None
    if type(o) is not A.Reg or depth > 8:
        return None
    defs = sel.am.defuse.definitions(o.name)
    if not defs:
        return None
    out: frozenset = frozenset()
    for d in defs:
        v = _def_values(sel, d, depth)
        if v is None:
            return None
        out |= v
        if len(out) > _MAX_VALUES:
            return None
    return out


def _def_values(sel, d, depth: int) -> frozenset | None:
    ops = d.operands
    if d.opcode in ("mov", "cvt") and len(ops) == 2:
        return _values(sel, ops[1], depth + 1)
    if d.opcode == "selp" and len(ops) == 4:
        x, y = _values(sel, ops[1], depth + 1), _values(sel, ops[2], depth + 1)
        return x | y if x is not None and y is not None else None
    if d.opcode == "and" and len(ops) == 3:
        for a, b in ((ops[1], ops[2]), (ops[2], ops[1])):
            mask = _values(sel, b, depth + 1)
            if mask is not None and len(mask) == 1 and bin(next(iter(mask)) & 0xffffffff).count("1") <= 4:
                m = next(iter(mask)) & 0xffffffff
                known = _values(sel, a, depth + 1)
                if known is not None:
                    return frozenset(v & m for v in known)
                bits = [1 << i for i in range(32) if m >> i & 1]
                return frozenset(sum(b for k, b in enumerate(bits) if n >> k & 1) for n in range(1 << len(bits)))
    f = _COMBINE.get(d.opcode)
    if f is not None and len(ops) == 3:
        x, y = _values(sel, ops[1], depth + 1), _values(sel, ops[2], depth + 1)
        if x is not None and y is not None and len(x) * len(y) <= _MAX_VALUES:
            return frozenset(f(i, j) for i in x for j in y)
    return None


def _zero_fills(ins, sel) -> bool:
    """A cp.async with a source size zero-fills (.ZFILL) unless the size can only be the copy size or 0:
    ptxas then issues the copy with an ignore-src predicate (`selp.b32 %r, 4, 0, %p` -> `LDGSTS.E ..., !P`;
    probes/async/cp_async_src_size_select*)."""
    a = ins.attrs
    if not a.zfill:
        return False
    vals = _values(sel, ins.operands[3]) if len(ins.operands) > 3 else None
    return vals is None or not vals <= {0, a.size}


# docs/findings/async.md "cp.async `.LTC128B`: a software-pipelined mma loop (helper ldg28, stop 28)"
_FRAGMENT_COPIES = ("mov", "cvt", "prmt")   # instructions that move or repack a fragment's bits


def _shared_load(ins) -> bool:
    return ins.opcode == "ldmatrix" or (ins.opcode == "ld" and any(m.startswith(".shared") for m in ins.mods))


def _regs_of(o) -> list[str]:
    """The registers of an mma fragment operand (a register or a vector of them)."""
    if type(o) is A.Reg:
        return [o.name]
    return [i.name for i in o.items if type(i) is A.Reg] if type(o) is A.Vec else []


def _closure(instrs, du, seed: set[str], start=lambda ins: False) -> set[str]:
    """`seed` plus the registers `start` instructions define, closed over the fragment copies in `instrs`."""
    got = set(seed)
    changed = True
    while changed:
        changed = False
        for ins in instrs:
            if start(ins) or (ins.opcode in _FRAGMENT_COPIES and any(u in got for u in du.uses(ins))):
                new = [r for r in du.defs(ins) if r not in got]
                if new:
                    got.update(new)
                    changed = True
    return got


def _pipelined_fragments(am, header: str, body: frozenset) -> bool:
    """Is the loop a software-pipelined mma loop: (a) every mma's A and B fragments hold shared-memory data
    the loop loads (ldmatrix / ld.shared, through copies), (b) every accumulator the loop's mma update gets
    an mma that reads only fragments the previous trip loaded (live into the header) and (c) some mma reads
    one loaded earlier in the body (ptxas's body, after its unrolling: a fragment that only crosses the back
    edge does not count)."""
    du, dom = am.defuse, am.dom
    blocks = [b for b in am.blocks.values() if b.label in body]
    instrs = [ins for b in blocks for ins in b.instrs]
    mmas = [(b, k, ins) for b in blocks for k, ins in enumerate(b.instrs) if ins.opcode == "mma"]
    if not mmas:
        return False
    loaded = _closure(instrs, du, set(), _shared_load)
    frags = [(b, k, [r for o in ins.operands[1:3] for r in _regs_of(o)]) for b, k, ins in mmas]
    accumulators = [tuple(_regs_of(ins.operands[0])) for _, _, ins in mmas]
    if not all(regs and all(r in loaded for r in regs) for _, _, regs in frags):
        return False
    live = am.liveness
    index, live_in = live.index, live.live_in[header]
    carried = _closure(instrs, du, {r for r in loaded if r in index and live_in[index[r]]})
    fed = {acc for acc, (_, _, regs) in zip(accumulators, frags) if all(r in carried for r in regs)}
    if not fed or not fed >= set(accumulators):
        return False

    def defined_before(b, k, r) -> bool:
        if any(r in du.defs(i) for i in b.instrs[:k]):
            return True
        return any(d.label != b.label and dom.dominates(d.label, b.label) and any(r in du.defs(i) for i in d.instrs)
                   for d in blocks)
    return any(defined_before(b, k, r) for b, k, regs in frags for r in regs)


def _l2_line_prefetch(sel) -> bool:
    """ptxas (-O3) gives every cp.async of a function without its own prefetch size `.LTC128B` when one of
    the function's loops is a software-pipelined mma loop (_pipelined_fragments), wherever the copies are."""
    if sel.options.get("opt_level", 3) < 3:
        return False
    memo = sel.am.memo("l2_line_prefetch")
    if "v" not in memo:
        loops = sel.am.loops
        memo["v"] = any(_pipelined_fragments(sel.am, h, loops.body(h, l)) for l, h in loops.back_edges)
    return memo["v"]


def _ldgsts(ins, sel):
    a = ins.attrs
    mods = ("E",) + (("BYPASS",) if a.level == "cg" else ())
    if a.prefetch in ("64B", "128B", "256B"):
        mods += (f"LTC{a.prefetch}",)
    elif _l2_line_prefetch(sel):
        mods += ("LTC128B",)
    mods += _LDGSTS_SIZE[a.size] + (("ZFILL",) if _zero_fills(ins, sel) else ())
    return [sel.sass(ins, "LDGSTS", mods, _ops(ins)[:2])]


def _depbar(ins, sel, n):
    return sel.sass(ins, "DEPBAR", ("LE",), ("SB0", hex(n)))


def _bulk(ins, sel):
    a = ins.attrs
    dst, src = _SPACE[a.dst], _SPACE[a.src]
    if a.dst == "global":
        mods = ("G", "S") + (("DST_G_BYTE_MASK",) if a.mask else ())
        return _issue(ins, sel, "UBLKCP", mods, lambda: [sel.sass(ins, "UBLKCP", mods, _ops(ins))])
    mods = (dst, src) + (("MULTICAST",) if a.mcast else ())
    if src == "S":
        # shared::cta -> shared::cluster: the ELECT loop, voted like a global -> shared copy when ptxas
        # predicates its region (probes async/s2s_copy_if_*)
        votes = [sel.sass(ins, "VOTEU", ("ALL",), ("UP0", "PT"), tags=_WW, guard="")
                 for _ in range(_region_votes(ins, sel))]
        return votes + elect_loop(ins, sel, [sel.sass(ins, "UBLKCP", mods, _ops(ins))])
    return _g2s_load(ins, sel, "UBLKCP", mods, "__cuda_syscall_cp_async_bulk")


def _bulk_reduce(ins, sel):
    a = ins.attrs
    mods = (_SPACE[a.dst], _SPACE[a.src], a.op.upper()) + _RED_TYPE.get((a.type or "u32"), ())
    return _issue(ins, sel, "UBLKRED", mods, lambda: elect_loop(ins, sel, [sel.sass(ins, "UBLKRED", mods, _ops(ins))]))


def _bulk_wait(ins, sel):
    out = [_depbar(ins, sel, ins.attrs.n)]
    if not ins.attrs.read:
        out.append(sel.sass(ins, "CCTL", ("IVALL",)))
    return out


def _tensor_mods(a):
    return (f"{a.dim}D",) + _MODE[a.mode]


def _tensor_load(ins, sel):
    a = ins.attrs
    mods = _tensor_mods(a) + (("MULTICAST",) if a.mcast else ()) + (("2CTA",) if a.cta_group == 2 else ())
    kind = "im2col" if a.mode.startswith("im2col") else "tile"
    return _g2s_load(ins, sel, "UTMALDG", mods, f"__cuda_syscall_cp_async_bulk_tensor_{a.dim}d_{kind}")


def _plain(ins, sel, opcode, mods):
    """A copy ptxas issues as such (no ELECT loop), voted on under a per-lane guard."""
    return _issue(ins, sel, opcode, mods, lambda: [sel.sass(ins, opcode, mods, _ops(ins))])


def _tensor_reduce(ins, sel):
    mods = _tensor_mods(ins.attrs) + (ins.attrs.op.upper(),)
    return _issue(ins, sel, "UTMAREDG", mods, lambda: elect_loop(ins, sel, [sel.sass(ins, "UTMAREDG", mods, _ops(ins))]))


def _tensormap_cp(ins, sel):
    ops = _ops(ins)
    m = sel.role(ins, "map")
    return [sel.sass(ins, "LDS", ("128",), (m, ops[1])),
            sel.sass(ins, "ATOMG", ("E", "EXCH", "STRONG", _TENSORMAP_SCOPE[ins.attrs.scope]), ("RZ", ops[0], m))]


def select_st_async(ins, sel):
    """st.async (the `st` rule of isel/fam_memory.py hands it over)."""
    if ins.attrs.to_global:
        return []                       # .mmio.release.global: ptxas deletes the store
    return [sel.sass(ins, "STAS", _STAS[ins.attrs.bits], _ops(ins)[:2])]


def _clc_try_cancel(ins, sel):
    mode = "BROADCAST" if ins.attrs.mcast else "SELFCAST"
    return elect_loop(ins, sel, [sel.sass(ins, "UGETNEXTWORKID", (mode,), _ops(ins))])


_FORMS = {
    "ldgsts": _ldgsts,
    "commit_group": lambda ins, sel: [sel.sass(ins, "LDGDEPBAR")],
    "wait_group": lambda ins, sel: [_depbar(ins, sel, ins.attrs.n)],
    "wait_all": lambda ins, sel: [sel.sass(ins, "LDGDEPBAR"), _depbar(ins, sel, 0)],
    "bulk": _bulk,
    "bulk_reduce": _bulk_reduce,
    "bulk_prefetch": lambda ins, sel: _plain(ins, sel, "UBLKPF", ("L2",)),
    "bulk_commit_group": lambda ins, sel: [sel.sass(ins, "UTMACMDFLUSH")],
    "bulk_wait_group": _bulk_wait,
    "tensor_load": _tensor_load,
    "tensor_store": lambda ins, sel: _plain(ins, sel, "UTMASTG", _tensor_mods(ins.attrs)),
    "tensor_prefetch": lambda ins, sel: _plain(ins, sel, "UTMAPF", ("L2",) + _tensor_mods(ins.attrs)),
    "tensor_reduce": _tensor_reduce,
    "tensormap_cp": _tensormap_cp,
    "st_async": select_st_async,
    "clc_try_cancel": _clc_try_cancel,
    "clc_query": lambda ins, sel: [sel.sass(ins, "LOP3", ("LUT",), _ops(ins))],
}


@rule("cp", "tensormap", "clusterlaunchcontrol")
def select_async(ins, sel):
    if ins.op == ORI_CLASSES["mbarrier"]:          # cp.async.mbarrier.arrive
        return select_mbarrier(ins, sel)
    f = _FORMS.get(ins.attrs.form) if ins.op == ORI_CLASSES["async"] else None
    return f(ins, sel) if f else None


