"""Phase 42 ExpandMbarrier: the mbarrier pseudo-ops (Ori 315, lowering/fam_mbarrier.py) become the target's
sequence, chosen from an arch table (ptxas: vtable[45] of the arch backend). docs/findings/mbarrier.md.

- `impl`: "syncs" from sm_90 (the SYNCS unit), "sw" on sm_80-89 (shared-memory atomics / loads / stores,
  no tx-count; ptxas has no SYNCS there).
- Fences become their own class-130 `fence` ops before the arrive (selected by isel/fam_fence.py): the
  software arrive is a release at CTA scope (MEMBAR.ALL.CTA); a spelled-out `.release.cluster` arrive on
  SYNCS is the cluster release (MEMBAR.ALL.GPU, ERRBAR, CGAERRBAR), which ISel precedes by MEMBAR.ALL.CTA as
  every wide MEMBAR in a kernel with mbarrier ops (isel/sequences.rows, MBARRIER_CTA_MEMBAR).
- `remote`: the arrive goes to another CTA's barrier (SYNCS ...RED): a .shared::cluster address, or a
  generic address with a sink destination and .release.cluster.
- init: `inloop` (in a loop: the barrier count is unknown, NUM_MBARRIERS 0xffff), `vote` (under a divergent
  guard or in a divergent region ptxas predicates: a VOTEU.ALL-guarded EXCH), `nopred` (in a region kept as
  a branch), `fence` (in a loop or a kept region: one FENCE.VIEW.ASYNC.S before the block's first init),
  `perthread` (per-thread count or address: a waterfall loop on sm_90, STS + SYNCS.CCTL.IVALL from sm_100).
- arrive with a count that is the constant 1: `count1` (the plain A1T0 arrival).
- A try_wait spin loop (the block starts with the try_wait, after loop-invariant value computations,
  and branches back to itself, directly or through a `bra` block) keeps one try_wait inline (without the
  suspend hint) and retries in an out-of-line block placed after EXIT, which holds the full try_wait.
  A loop that branches on the result round-tripped through selp/setp (inline-asm wrappers) stays a plain
  self-loop when it is entered right after control flow: it is a join of earlier branches, or the
  code before it ends with a predicated instruction other than a branch (probes/mbarrier/try_wait_selp_*).
  A spin loop that leaves by a jump (the block after it only `bra J`) stays one inline loop
  (probes/mbarrier/try_wait_exit_jump_*).
- cp.async.mbarrier.arrive on sm_80-89: its warp vote (`part=vote`) moves ahead of the cp.async copies
  right before it.
- `nopred`: ops ptxas keeps behind a branch (so a divergent region holding them gets BSSY/BSYNC in phase 72):
  every software arrive (an atomic), a software token test_wait in a loop, a SYNCS arrive in a divergent loop.
"""
from __future__ import annotations

from pylower.lowering import ori
from pylower.lowering import ops
from pylower.lowering import ptx_ast as A

from . import ifconvert
from .analysis import defuse
from .analysis import regions as R
from .manager import PassContext, Phase

NAME = "ExpandMbarrier"
MBAR = ori.ORI_CLASSES["mbarrier"]

# (impl, op, scope of a spelled-out .release) -> fences before the op, as (sem, scope)
_FENCES = {
    ("sw", "arrive"): (("release", "cta"),),
    ("sw", "arrive_drop"): (("release", "cta"),),
    ("syncs", "arrive", "cluster"): (("release", "cluster"),),
    ("syncs", "arrive_drop", "cluster"): (("release", "cluster"),),
}
_ARRIVES = ("arrive", "arrive_drop")


# value computations ptxas hoists out of a spin loop when their operands are loop-invariant
_INVARIANT_ALU = {"mov", "and", "or", "xor", "not", "add", "sub", "mul", "mad", "shl", "shr", "cvt", "cvta",
                  "selp", "neg", "min", "max", "bfe", "bfi", "prmt", "mapa"}


def _spin_try_wait(b: ori.BasicBlock, fn_writes: dict[str, int]) -> int | None:
    """Index of the try_wait a spin-loop block starts with: the first instruction, or the first after
    loop-invariant value computations (an unguarded ALU op reading no register the block writes, whose
    result the function writes nowhere else: ptxas hoists those out of the loop; a register also written
    after the loop, `L: mov r, 0; try_wait [bar], r; @!p bra L; @q bra J; ld.shared r; J: st r`, is not
    hoisted and the loop stays one inline loop: docs/findings/mbarrier.md "A try_wait loop whose parity
    register is written again keeps one inline loop (helper nvasync24, stop 24)")."""
    writes: dict[str, int] = {}
    for i in b.instrs:
        for d in defuse.defs(i):
            writes[d] = fn_writes.get(d, 0)
    for k, i in enumerate(b.instrs):
        if i.op == MBAR and i.attrs.op == "try_wait":
            return k
        if i.opcode not in _INVARIANT_ALU or i.guard is not None or any(r in writes for r in defuse.uses(i)) \
                or any(writes[d] > 1 for d in defuse.defs(i)):
            return None
    return None


def _write_counts(fn: ori.Function) -> dict[str, int]:
    """How many instructions of the function write each register."""
    n: dict[str, int] = {}
    for i in fn.instructions():
        for d in defuse.defs(i):
            n[d] = n.get(d, 0) + 1
    return n


def _branches_on_result(b: ori.BasicBlock, at: int) -> bool:
    """Does the spin loop branch on the try_wait's predicate itself (or its `not.pred`), rather than on a
    value it round-trips through selp / setp (the inline-asm form cuda::barrier and cuda::ptx emit)?"""
    tw, last = b.instrs[at], b.instrs[-1]
    names = {o.name for o in tw.operands[:1] if type(o) is A.Reg}
    for i in b.instrs[at + 1:-1]:
        if i.opcode == "not" and set(defuse.uses(i)) & names:
            names.update(defuse.defs(i))
    return last.guard is not None and bool(set(defuse.uses(last)) & names)


def _entered_after_flow(fn: ori.Function, bi: int, live) -> bool:
    """Is the loop block fn.blocks[bi] entered right after control flow: is it (or a block before it with
    nothing live in it, falling into it) a join of branches from before it, or does the code laid out
    before it end with a guarded instruction other than a branch (after `@p bra S` falling into the loop
    ptxas retries out of line: docs/findings/mbarrier.md "A try_wait loop that leaves by a jump stays one
    inline loop (helper eia25, stop 25)")? (`live`: the liveness analysis; dead value computations, which
    ptxas deletes, do not count.)"""
    loop = fn.blocks[bi]

    def empty(blk):
        return all(not i.guard and defuse.defs(i) and i.opcode in _INVARIANT_ALU and
                   not any(live.is_used_after(blk, i, d) for d in defuse.defs(i)) for i in blk.instrs)
    k = bi - 1
    while k >= 0 and empty(fn.blocks[k]):
        k -= 1
    run = fn.blocks[k + 1:bi + 1]                   # the loop block and the empty blocks before it
    by_label = {b.label: b for b in fn.blocks}
    for j, blk in enumerate(run):
        fall = run[j - 1].label if j else (fn.blocks[k].label if k >= 0 else None)
        jumps = [p for p in blk.preds if p != fall and p != loop.label]
        if len(jumps) == 1 and fall not in blk.preds and not _after_guarded_branch(by_label, jumps[0], blk.label):
            continue                # the taken arm of a branch: ptxas lays it out after the other arm
        if jumps:
            return True
    last = fn.blocks[k].instrs[-1] if k >= 0 and fn.blocks[k].instrs else None
    return last is not None and last.guard is not None and last.opcode != "bra"


def _exits_by_jump(fn: ori.Function, bi: int) -> bool:
    """Does the spin loop fn.blocks[bi] (`L: ...; @g bra L`, falling into it from the block before) leave
    by a forward jump: is the block after it just `bra J` to a block laid out past the next one? ptxas keeps
    such a loop one inline loop (no retry block), whatever precedes it and whatever it branches on: the
    fall-through arm of an if/else holding the loop (nvcc/ptx_bulk_copy_reduce bulk_push_to_peer;
    docs/findings/mbarrier.md "A try_wait loop that leaves by a jump stays one inline loop (helper eia25,
    stop 25)"). A loop entered only by jumps is left alone: ptxas may lay it out elsewhere (the taken arm
    of `@p bra A; bra B`, _after_guarded_branch), where its exit falls through."""
    b = fn.blocks[bi]
    last = b.instrs[-1] if b.instrs else None
    if last is None or last.opcode != "bra" or last.guard is None or bi + 1 >= len(fn.blocks) or bi == 0:
        return False
    if not any(type(o) is A.Sym and o.name == b.label for o in last.operands):
        return False
    k = bi - 1
    while k > 0 and not fn.blocks[k].instrs:        # empty blocks falling into the loop
        k -= 1
    prev, nxt = fn.blocks[k], fn.blocks[bi + 1]
    if prev.label not in fn.blocks[k + 1].preds or (
            prev.instrs and prev.instrs[-1].opcode == "bra" and prev.instrs[-1].guard is None):
        return False
    if not _only_jump(nxt):
        return False
    dest = next((o.name for o in nxt.instrs[0].operands if type(o) is A.Sym), None)
    later = [blk.label for blk in fn.blocks[bi + 3:]]
    return dest in later            # forward, past the next block (a back edge of an outer loop: retried)


def _after_guarded_branch(by_label, pred: str, label: str) -> bool:
    """Is `label` entered from `pred` by the unconditional jump that follows a guarded branch (`@p bra X; bra
    label`, or a block of just `bra label` entered so), the arm ptxas lays out right after the branch? The
    guarded branch's own target goes after the other arm: an if/else with a try_wait loop in each arm keeps
    the fall-through arm's loop inline and retries the taken arm's out of line (nvcc/ptx_mbarrier_phases
    mbarrier_tx_count_handoff; docs/findings/mbarrier.md "A try_wait loop whose parity register is written
    again keeps one inline loop (helper nvasync24, stop 24)")."""
    b = by_label.get(pred)
    if b is None or not b.instrs or b.instrs[-1].opcode != "bra" or b.instrs[-1].guard is not None:
        return False
    if len(b.instrs) > 1:
        return b.instrs[-2].opcode == "bra" and b.instrs[-2].guard is not None
    heads = [by_label[q] for q in b.preds if q in by_label]
    return len(heads) == 1 and bool(heads[0].instrs) and heads[0].instrs[-1].opcode == "bra" \
        and heads[0].instrs[-1].guard is not None


# What ends the search for the arrive.expect_tx an expect_tx merges into: any other mbarrier op, or a fence
# that orders memory (membar, fence.sc / .acq_rel: form "thread"); a proxy fence (fence.proxy.async), a CTA
# barrier, loads, stores, atomics and bulk copies do not (probes/mbarrier/expect_tx_merge_*), except a bulk copy
# the target issues as a syscall (BULK_COPY_SYSCALL, sm_120: a call, as isel/fam_async_copy.bulk_syscall).
_MERGE_PASSES_FENCES = frozenset(("async",))
_SYNC = ori.ORI_CLASSES["sync"]
_ALU = ori.ORI_CLASSES["alu"]
_CALL = ori.ORI_CLASSES["call"]


def _ends_merge(ins: ori.Instr, target) -> bool:
    """Does `ins`, between an expect_tx and an arrive.expect_tx, keep ptxas from merging them?"""
    if ins.op == _CALL:
        return True
    if ins.op == _SYNC and ins.opcode in ("membar", "fence"):
        return getattr(ins.attrs, "form", "") not in _MERGE_PASSES_FENCES
    a = ins.attrs
    return ins.op == ops.ASYNC and target.has("BULK_COPY_SYSCALL") and getattr(a, "form", "") in (
        "bulk", "tensor_load") and getattr(a, "dst", "") == "shared::cluster" and getattr(a, "src", "") == "global"


def _register_address(ins: ori.Instr):
    """The mbarrier operand `[%r]` / `[%r+off]` of an expect_tx or arrive.expect_tx, or None (a symbol)."""
    addr = next((o for o in ins.operands if type(o) is A.Addr), None)
    if addr is None or len(addr.items) != 1 or type(addr.items[0]) is not A.Reg:
        return None
    return addr.items[0].name, addr.offset


def _merge_expect_tx(fn: ori.Function, target) -> int:
    """ptxas folds `mbarrier.expect_tx [%r], X` into a later `mbarrier.arrive.expect_tx [%r], Y` of the same
    block and the same address register: one SYNCS.ARRIVE.TRANS64 with tx X+Y, no A0TR reduction (so one
    MBARRIER_INSTR_OFFSETS record fewer). Not when the barrier is named by a symbol (`[bar]`, even in both),
    the expect_tx is guarded, the arrive is arrive_drop / counted / plain / remote (.shared::cluster, a
    generic address), or another mbarrier op, a memory fence or a call lies between (docs/findings/mbarrier.md
    "An expect_tx before an arrive.expect_tx on the same barrier register is merged into it (helper eia25,
    stop 25)"). Returns the number merged."""
    merged = 0
    for b in fn.blocks:
        k = 0
        while k < len(b.instrs):
            ins = b.instrs[k]
            k += 1
            if ins.op != MBAR or ins.attrs.op != "expect_tx" or ins.guard is not None or ins.attrs.space != "shared":
                continue
            reg = _register_address(ins)
            if reg is None:
                continue
            tx = ins.operands[1]
            watch = {reg[0]} | ({tx.name} if type(tx) is A.Reg else set())
            for j in range(k, len(b.instrs)):
                nxt = b.instrs[j]
                if nxt.op == MBAR:
                    a = nxt.attrs
                    if (a.op == "arrive" and a.expect_tx and a.space == "shared" and nxt.guard is None
                            and _register_address(nxt) == reg):
                        _fold_tx(fn, b, j, nxt, tx)
                        del b.instrs[k - 1]
                        k -= 1
                        merged += 1
                    elif a.op == "expect_tx" and nxt.guard is None and _register_address(nxt) == reg:
                        continue        # several expect_tx merge into the one arrive
                    break
                if _ends_merge(nxt, target):
                    break
                if watch & set(defuse.defs(nxt)):
                    break
    return merged


def _fold_tx(fn: ori.Function, b: ori.BasicBlock, j: int, arrive: ori.Instr, tx) -> None:
    """Give the arrive.expect_tx at b.instrs[j] the expect_tx's count `tx` on top of its own."""
    ops_ = list(arrive.operands)
    own = ops_[2]
    if type(own) is A.Imm and type(tx) is A.Imm:
        ops_[2] = ops.imm(int(own.value) + int(tx.value))
    else:
        total = A.Reg(f"%mbar_tx{arrive.line}_{j}")
        fn.decls.append(A.VarDecl(".reg", (".b32",), total.name))
        b.instrs.insert(j, ori.Instr(_ALU, "add", (".u32",), (total, own, tx), None, {}, arrive.line, NAME))
        ops_[2] = total
    arrive.operands = tuple(ops_)


# Memory accesses through the generic proxy that may touch shared memory: an mbarrier.init after one (since
# the last init) is preceded by FENCE.VIEW.ASYNC.S on SYNCS targets, over branches, barriers and loops
# (probes/mbarrier/init_after_*; docs/findings/mbarrier.md "a fence before an init after shared accesses").
_ACCESSES = frozenset(("ld", "st", "atom", "red"))
_NOT_SHARED = (".global", ".param", ".const", ".local")


def _generic_shared_access(ins: ori.Instr) -> bool:
    return ins.opcode in _ACCESSES and ins.op != MBAR and not any(m.startswith(_NOT_SHARED) for m in ins.mods)


def _inits_after_access(fn: ori.Function) -> set[int]:
    """ids of the inits that a shared (or generic) load, store or atomic reaches with no init between
    (a forward may-reach over the CFG: a block starts dirty when any predecessor ends dirty)."""
    by_label = {b.label: b for b in fn.blocks}

    def scan(b: ori.BasicBlock, dirty: bool, hit: set[int] | None) -> bool:
        for i in b.instrs:
            if i.op == MBAR and i.attrs.op == "init":
                if dirty and hit is not None:
                    hit.add(id(i))
                dirty = False
            elif _generic_shared_access(i):
                dirty = True
        return dirty

    entry_dirty: dict[str, bool] = {b.label: False for b in fn.blocks}
    exit_dirty = {b.label: scan(b, False, None) for b in fn.blocks}
    work = [b.label for b in fn.blocks if exit_dirty[b.label]]
    while work:
        lb = work.pop()
        for s in by_label[lb].succs:
            if s in entry_dirty and not entry_dirty[s]:
                entry_dirty[s] = True
                if not exit_dirty[s] and scan(by_label[s], True, None):
                    exit_dirty[s] = True
                    work.append(s)
    hit: set[int] = set()
    for b in fn.blocks:
        scan(b, entry_dirty[b.label], hit)
    return hit


def implementation(target) -> str | None:
    """The arch backend's ExpandMbarrier: the SYNCS unit, or shared-memory atomics (target features)."""
    if target.has("MBARRIER_SYNCS"):
        return "syncs"
    return "sw" if target.has("MBARRIER_SW") else None


def _sts_init(am, ins: ori.Instr, target) -> bool:
    """An init ptxas makes a plain STS.64 (MBARRIER_PERTHREAD_STS: its address or its count is per-thread)."""
    uni = am.uniformity
    return target.has("MBARRIER_PERTHREAD_STS") and any(uni.is_divergent_operand(o) for o in ins.operands)


def _share_ivall(instrs) -> None:
    """The per-thread inits of a block that are STS.64 stores (MBARRIER_PERTHREAD_STS) share one
    FENCE.VIEW.ASYNC.S + SYNCS.CCTL.IVALL after the last of them, whatever lies between (a store, a loop body
    unrolled four times: four STS.64 then the pair; probes/mbarrier/perthread_init_*)."""
    sts = [i for i in instrs if i.op == MBAR and i.attrs.op == "init" and i.attrs.perthread]
    for ins in sts[:-1]:
        ins.attrs.pair_later = True


def _fence(sem: str, scope: str, line: int) -> ori.Instr:
    return ori.Instr(ops.SYNC, "fence", (f".{sem}", f".{scope}"), (), None,
                     {"form": "thread", "sem": sem, "scope": scope}, line, NAME)


class ExpandMbarrier(Phase):
    number = 42
    name = NAME
    description = "mbarrier pseudo-ops -> per-target sequences (arch table), fences, try_wait retry blocks"

    def run(self, fn: ori.Function, ctx: PassContext) -> bool:
        if not any(i.op == MBAR for i in fn.instructions()):
            return False
        impl = implementation(ctx.target)
        am = ctx.analyses(fn)
        uni = am.uniformity
        loops = am.loops.in_loop
        regions = am.regions
        region_of = R.innermost_map(regions)
        div_loops = set().union(*(r.body for r in regions if r.kind == "loop")) if regions else set()
        consts = am.constants
        after_access = _inits_after_access(fn) if impl == "syncs" else set()
        ool: list[ori.BasicBlock] = []
        if impl == "syncs" and _merge_expect_tx(fn, ctx.target):
            ctx.count(self, "expect_tx merged into arrive.expect_tx")
        writes = _write_counts(fn)      # (the expansions below write no register)
        sts_init = impl == "syncs" and ctx.target.has("MBARRIER_PERTHREAD_STS")
        for bi, b in enumerate(list(fn.blocks)):
            out: list[ori.Instr] = []
            for ins in b.instrs:
                if ins.op != MBAR or ins.attrs.impl:
                    out.append(ins)
                    continue
                a = ins.attrs
                op = a.op
                a.impl = impl
                explicit = a.sem == "release" and a.scope or None
                for sem, scope in _FENCES.get((impl, op), _FENCES.get((impl, op, explicit), ())):
                    out.append(_fence(sem, scope, ins.line))
                    ctx.count(self, "fences")
                if impl == "syncs" and op in _ARRIVES and (
                        a.space == "cluster" or a.space == "generic" and a.sink and explicit == "cluster"):
                    a.remote = True
                if op == "init":
                    per_thread = any(uni.is_divergent_operand(o) for o in ins.operands)
                    region = region_of.get(b.label)
                    if b.label in loops:
                        a.inloop = True
                    if region is not None and self._branch_region(am, region, ctx.target):
                        a.nopred = True
                    elif ins.guard is not None and uni.is_divergent_operand(ins.guard) or region is not None:
                        a.vote = True
                        # a predicated init with a per-thread operand: the votes, then the waterfall's fence
                        # (probes/mbarrier/perthread_init_addr_pred, _if_skip, _count_ldg on sm_90)
                        a.perthread = per_thread
                    elif per_thread:
                        a.perthread = True
                    if per_thread and sts_init:
                        # from sm_100 a per-thread address is an STS.64 wherever the init is: under a guard, in
                        # a region ptxas predicates or keeps, in a loop (docs/findings/mbarrier.md "A per-thread
                        # mbarrier.init address is an STS.64 on sm_100+ (helper async31, stop 31)")
                        a.perthread = True
                    if (a.inloop or a.nopred) and not any(
                            i.op == MBAR and i.attrs.op == "init" for i in out) or id(ins) in after_access:
                        a.fence = True          # FENCE.VIEW.ASYNC.S before it (_inits_after_access)
                if a.count and not a.nocomplete and consts.get(getattr(ins.operands[2], "name", None),
                                                 getattr(ins.operands[2], "value", None)) == 1:
                    a.count1 = True             # a count of one is the plain arrival (A1T0)
                keep = (impl == "sw" and (op in _ARRIVES or op == "test_wait" and not a.parity and b.label in loops)
                        or impl == "syncs" and op in _ARRIVES and b.label in div_loops)
                if keep:
                    a.nopred = True
                if op == "cp_async_arrive" and impl == "sw" and not a.noinc:
                    # the warp vote of the software pending-count increment is scheduled ahead of the
                    # cp.async copies just before it
                    at = len(out)
                    while at and out[at - 1].op == ops.ASYNC and out[at - 1].attrs.form == "ldgsts":
                        at -= 1
                    out.insert(at, ops.clone(ins, NAME, part="vote"))
                out.append(ins)
                ctx.count(self, f"{op} expanded")
            b.instrs = out
            if sts_init:
                _share_ivall(out)
            at = _spin_try_wait(b, writes)
            nxt = fn.blocks[bi + 1] if bi + 1 < len(fn.blocks) else None
            if impl == "syncs" and at is not None and nxt is not None and not _exits_by_jump(fn, bi) and (
                    _branches_on_result(b, at) or not _entered_after_flow(fn, bi, am.liveness)):
                retry = self._retry_block(fn, b, at, nxt, len(ool))
                if retry is not None:
                    ool.append(retry)
                    ctx.count(self, "try_wait retry blocks")
        if ool:
            fn.blocks.extend(ool)
            ori.link_preds(fn)
        return True

    @staticmethod
    def _branch_region(am, region, target) -> bool:
        """Does ptxas keep this divergent region as a branch (BSSY/BSYNC) rather than predicate it? As
        phase 72 decides, and also when it spans several blocks or holds more than one init (a lone
        init is predicated with the VOTEU.ALL form)."""
        by_label = am.blocks
        # for the software init (sm_80-89), a block of just the `bra.uni` of nvcc's `@p bra L1; bra.uni L2; L1:
        # init; L2:` is no block of the body (probes mbarrier/init_if_bra_uni*: predicated like `@!p bra L2; init;
        # L2:`; docs/findings/mbarrier.md "An if written with a bra.uni is one block (helper nvasync25, stop 25)")
        inits = [i for lb in region.body for i in by_label[lb].instrs if i.op == MBAR and i.attrs.op == "init"]
        # from sm_100 an init at a per-thread address is an STS.64 store: a region of only such inits is decided
        # as the software init's (docs/findings/mbarrier.md "A per-thread mbarrier.init address is an STS.64 on
        # sm_100+ (helper async31, stop 31)")
        syncs = implementation(target) == "syncs" and not (
            inits and all(_sts_init(am, i, target) for i in inits))
        blocks = [x for x in region.body if syncs or not _only_jump(by_label[x])]
        if region.kind == "loop" or len(blocks) > 1 or ifconvert.is_kept_region(am, region, target):
            return True
        # on SYNCS, an init through a generic address with a count that is no constant (%ntid.x, a parameter)
        # stays behind the branch (FENCE.VIEW.ASYNC.S; SYNCS.EXCH.64); either alone is predicated
        # (probes/mbarrier/init_if_{generic,shared}_*; the software init of sm_80-89 is predicated)
        consts = am.constants
        # several SYNCS inits keep the branch; several software inits (sm_80-89, an STS.64 each) are decided like
        # other work (ifconvert.is_kept_region): `if (tid == 0)` with four of them is predicated
        # (docs/findings/mbarrier.md "Several software mbarrier.init under an if are predicated like stores
        # (helper nvasync24, stop 24)")
        return syncs and len(inits) > 1 or syncs and any(
            i.attrs.space == "generic" and type(i.operands[1]) is not A.Imm
            and consts.get(getattr(i.operands[1], "name", None)) is None for i in inits)

    def _retry_block(self, fn, b: ori.BasicBlock, at: int, nxt: ori.BasicBlock, n: int):
        """A try_wait spin loop keeps its first try_wait inline and retries in a block after EXIT:
        `L: try_wait; ...; @g bra L`            -> L: ...; @g bra R      R: try_wait; ...; @g bra R; bra <next>
        `L: try_wait; ...; @g bra X; [bra L]`  -> the back edge goes to R: try_wait; ...; @g bra X; bra R.
        Loop-invariant values computed ahead of the try_wait (`at` > 0: the parity or suspend-hint constant)
        stay in L only: ptxas hoists them out of the loop (llvm/cluster_dsmem, llvm/tma_tile)."""
        tw = b.instrs[at]
        last = b.instrs[-1]
        if last.opcode != "bra" or last.guard is None or len(b.instrs) < at + 2:
            return None
        target = next((o.name for o in last.operands if type(o) is A.Sym), None)
        back_block = len(nxt.instrs) == 1 and nxt.instrs[0].opcode == "bra" and nxt.instrs[0].guard is None \
            and any(type(o) is A.Sym and o.name == b.label for o in nxt.instrs[0].operands)
        if target != b.label and not back_block:
            return None
        label = f"{ori.OUT_OF_LINE}mbarrier_retry_{fn.name}_{n}"
        body = [ops.clone(tw, NAME, ool=1)] + [ops.clone(i, NAME) for i in b.instrs[at + 1:-1]]
        if tw.attrs.hint:
            tw.attrs.nohint = True

        def bra(dest, guard=None):
            return ori.Instr(last.op, "bra", (), (A.Sym(dest),), guard, {}, last.line, NAME)

        if target == b.label:
            b.instrs[-1] = bra(label, last.guard)
            b.succs = [label if s == b.label else s for s in b.succs]
            body += [bra(label, last.guard), bra(nxt.label)]
            return ori.BasicBlock(label, body, [label, nxt.label])
        nxt.instrs[0] = bra(label)
        nxt.succs = [label]
        body += [bra(target, last.guard), bra(label)]
        return ori.BasicBlock(label, body, [target, label])


PHASE = ExpandMbarrier()


def _only_jump(b: ori.BasicBlock) -> bool:
    """A block holding nothing but an unconditional branch."""
    return len(b.instrs) == 1 and b.instrs[0].opcode == "bra" and b.instrs[0].guard is None
