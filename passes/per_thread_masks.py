"""sm_90+ (PER_THREAD_MASK_FORMS): the forms ptxas gives warp ops in a function with a per-thread member mask.

A per-thread member mask (`shfl.sync ... %m`, `bar.warp.sync %m` with %m differing between lanes, cooperative
groups tiles) leaves the warp in a state ptxas does not take as converged. Measured with ptxas 13.0.88 on
sm_90/sm_90a/sm_100a/sm_120 (docs/findings/eiattr.md section 7, probes warp/permask_*):

1. Where the warp may be unconverged ("tainted"): from the function's entry, and from every per-thread-mask
   op, up to the next CTA barrier. Every warp op reached there is tainted, the per-thread-mask ops too.
   From the entry (PER_THREAD_MASK_ENTRY_LOCAL) only the ops a converged per-thread-mask op follows in their
   own block, and not past the join of an if ptxas predicates (below).
2. Per kind of warp op (its `__cuda_sm70_<helper>`: shfl bfly/down/idx/up, bar.warp.sync, vote ballot/any,
   ...), counted over the tainted ops of the whole function: with two or more, each takes the slow form (a
   per-thread mask: member-mask check VOTEU.ANY/MATCH.ANY/REDUX.OR, `@!P0 BRA.DIV` to a WARPSYNC.COLLECTIVE
   block in a BSSY pair; a full mask: BRA.DIV to a collective), with one the inline form (`WARPSYNC R; op`,
   `WARPSYNC.ALL; op`).
3. Then, in program order, the warp is known converged after a CTA barrier and after an inline full-mask op
   (its WARPSYNC.ALL), and not after a per-thread-mask op nor a slow full-mask op: a full-mask op reached
   converged is plain (no WARPSYNC, no collective), a per-thread-mask op reached converged is inline, and a
   CTA barrier reached unconverged re-converges first (WARPSYNC.ALL).
"""
from __future__ import annotations

from collections import Counter

from pylower.lowering import ori
from pylower.lowering import ops
from pylower.lowering import ptx_ast as A

PLAIN, INLINE, SLOW, SLOW_PAIRED = "plain", "inline", "slow", "slow_paired"
_CLEAN, _FROM_ENTRY, _FROM_MASK = 0, 1, 2           # taint states (a join takes the larger)


def _forward(fn: ori.Function, entry, meet, step) -> dict[str, object]:
    """A forward dataflow over the blocks: the state at each block's start (blocks not reached keep None)."""
    by_label = {b.label: b for b in fn.blocks}
    state_in: dict[str, object] = {fn.blocks[0].label: entry} if fn.blocks else {}
    work = [fn.blocks[0].label] if fn.blocks else []
    while work:
        b = by_label[work.pop()]
        st = state_in[b.label]
        for ins in b.instrs:
            st = step(ins, st, None)
        for s in b.succs:
            if s not in by_label:
                continue
            new = st if s not in state_in else meet(state_in[s], st)
            if s not in state_in or new != state_in[s]:
                state_in[s] = new
                work.append(s)
    return state_in


def per_thread_forms(fn: ori.Function, consts, is_candidate, is_per_thread,
                     in_divergent, clean_joins: set[str] | None = None) -> tuple[dict[int, str], set[int]]:
    """({id(op): form} for the candidate warp ops the warp may reach unconverged or that have a per-thread
    mask, ids of the CTA barriers that re-converge first). `is_candidate(ins, wop)`: an op phase 71 would take
    as converged but for the per-thread masks; `is_per_thread(ins, wop)`: its mask differs between lanes;
    `in_divergent(ins)`: it runs in divergent code."""
    pt_ops = [i for b in fn.blocks for i in b.instrs
              if (w := ops.warp_op(i, consts)) is not None and is_candidate(i, w) and is_per_thread(i, w)]
    if not pt_ops:
        return {}, set()
    # the entry is tainted by a per-thread mask in converged code (one only in divergent code leaves the
    # full-mask ops before it alone: nvcc/cg_labeled_binary_partition's match.any)
    entry = _FROM_ENTRY if any(not in_divergent(i) for i in pt_ops) else _CLEAN
    # PER_THREAD_MASK_ENTRY_LOCAL (`clean_joins` given): the entry's taint reaches a warp op only when a converged
    # per-thread-mask op follows it in its own block (CTA barriers between allowed: `B|b` A I) and no CTA barrier
    # and no join of an if ptxas predicates (`clean_joins`) lies between the entry and it; early exits and the
    # joins of kept regions let it through (tools/variations/collective_mask_entry.py: `B; d` A I; `B; if; d`,
    # `if; B; d`, `B; @p ret; d`: B plain; `@p ret; B; d`, `kept-if; B; d` A I; `kept-if; d d` both checked)
    from_entry: set[int] = set()
    if clean_joins is not None and entry == _FROM_ENTRY:
        by_label = {b.label: b for b in fn.blocks}

        def pt_here(ins):
            wop = ops.warp_op(ins, consts)
            return wop is not None and is_candidate(ins, wop) and is_per_thread(ins, wop) and not in_divergent(ins)

        after: dict[str, bool] = {}

        def pt_after(b):
            """A converged per-thread-mask op in the straight fall-through after block b (one block for ptxas);
            every block of the chain walked gets the same answer, so each chain is walked once."""
            chain, on_chain = [], set()
            found = False
            while b.label not in after and b.label not in on_chain:
                chain.append(b.label)
                on_chain.add(b.label)
                n = by_label.get(b.succs[0]) if len(b.succs) == 1 else None
                if n is None or len(n.preds) != 1:
                    break
                if any(pt_here(i) for i in n.instrs):
                    found = True
                    break
                b = n
            else:
                found = after.get(b.label, False)
            for label in chain:
                after[label] = found
            return found

        tainted_in = {fn.blocks[0].label: True} if fn.blocks else {}
        work = [fn.blocks[0].label] if fn.blocks else []
        while work:
            b = by_label[work.pop()]
            st = tainted_in[b.label]
            for ins in b.instrs:
                if ops.is_cta_barrier(ins):
                    st = False
            for sl in b.succs:
                if sl not in by_label:
                    continue
                new = st and sl not in clean_joins
                if sl not in tainted_in or (new and not tainted_in[sl]):
                    tainted_in[sl] = new or tainted_in.get(sl, False)
                    work.append(sl)
        for b in fn.blocks:
            st = tainted_in.get(b.label)
            if not st:
                continue
            later = pt_after(b)
            follows = []
            for ins in reversed(b.instrs):
                later = later or pt_here(ins)
                follows.append(later)
            follows.reverse()
            for ins, f in zip(b.instrs, follows):
                if ops.is_cta_barrier(ins):
                    st = False
                    continue
                wop = ops.warp_op(ins, consts)
                if st and f and wop is not None and is_candidate(ins, wop):
                    from_entry.add(id(ins))
        entry = _CLEAN

    def classify(ins):
        wop = ops.warp_op(ins, consts)
        if wop is not None and is_candidate(ins, wop):
            return wop, is_per_thread(ins, wop)
        return wop, False

    # 1. tainted ops (and where the taint came from: the entry or a per-thread mask)
    tainted: dict[int, int] = {}

    def taint_step(ins, st, _):
        wop, pt = classify(ins)
        if wop is None:
            return _CLEAN if ops.is_cta_barrier(ins) else st
        if is_candidate(ins, wop) and st != _CLEAN:
            tainted[id(ins)] = max(tainted.get(id(ins), _CLEAN), st)
        if id(ins) in from_entry:
            tainted[id(ins)] = max(tainted.get(id(ins), _CLEAN), _FROM_ENTRY)
        return _FROM_MASK if pt else st

    state_in = _forward(fn, entry, max, taint_step)
    for b in fn.blocks:                          # the final states give the final marks
        st = state_in.get(b.label)
        if st is not None:
            for ins in b.instrs:
                st = taint_step(ins, st, None)
    kinds = Counter(ops.warp_op(i, consts).helper for b in fn.blocks for i in b.instrs if id(i) in tainted)

    # 2. + 3. the forms, in program order with the warp's known convergence
    forms: dict[int, str] = {}
    rewarp: set[int] = set()

    def conv_step(ins, conv, record):
        wop, pt = classify(ins)
        if wop is None:
            if ops.is_cta_barrier(ins):
                if not conv and record is not None:
                    rewarp.add(id(ins))
                return True
            return conv
        if not is_candidate(ins, wop):
            return conv
        slow = kinds[wop.helper] >= 2 and id(ins) in tainted
        if pt:
            form = INLINE if conv or not slow else SLOW_PAIRED
            nxt = False
        elif id(ins) not in tainted:
            return conv
        elif conv:
            form, nxt = PLAIN, True
        elif slow:
            form, nxt = SLOW, False
        else:
            form, nxt = INLINE, True
        if record is not None:
            record[id(ins)] = form
        return nxt

    conv_in = _forward(fn, entry == _CLEAN and not from_entry, lambda a, b: a and b, conv_step)
    for b in fn.blocks:
        conv = conv_in.get(b.label)
        if conv is None:
            continue
        last_slow_full = False
        for ins in b.instrs:
            conv = conv_step(ins, conv, forms)
            f = forms.get(id(ins))
            wop, pt = classify(ins)
            if f == SLOW and not pt:
                # the first of a run of slow full-mask ops after a per-thread mask re-converges after its
                # collective (BSSY/BSYNC around it; probes warp/permask_then_full_*)
                if not last_slow_full and tainted.get(id(ins)) == _FROM_MASK:
                    forms[id(ins)] = SLOW_PAIRED
                last_slow_full = True
            elif wop is not None or ops.is_cta_barrier(ins):
                last_slow_full = False
    return forms, rewarp


_PURE = frozenset({"mov", "and", "or", "xor", "not", "shl", "shr", "add", "sub", "mul", "cvt"})


def value_key(o, du, depth: int = 0):
    """A key equal for two operands that hold the same value by construction (the same pure computation of
    the same leaves: immediates, special registers, registers with another definition count): ptxas shares
    one member-mask check between ops whose masks it finds equal (nvcc/cg_tiled_partition_sizes: three
    `255 << (laneid & -8)` computed from three `mov %laneid`, one check)."""
    if type(o) is A.Imm:
        return ("imm", o.value)
    if type(o) is not A.Reg:
        return ("opnd", str(o))
    ds = du.definitions(o.name)
    if len(ds) != 1 or depth > 12:
        return ("reg", o.name)
    d = ds[0]
    if d.guard is not None or d.opcode not in _PURE or not d.operands:
        return ("reg", o.name)
    return (d.opcode, d.mods) + tuple(value_key(x, du, depth + 1) for x in d.operands[1:])
