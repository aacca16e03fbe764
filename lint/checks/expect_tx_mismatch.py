"""expect-tx-mismatch: an `mbarrier.expect_tx` / `mbarrier.arrive.expect_tx` byte count that differs from the
bytes the bulk copies signalling the same mbarrier transfer.

The phase of an mbarrier with a transaction count completes when the expected bytes have arrived: expecting
more than the copies bring hangs the waiters; expecting fewer lets them read the buffer before the rest
lands. The check is a forward dataflow over the CFG, per mbarrier (by address): the expected bytes (constant
counts, constant-propagated) and the bytes of the copies that complete transactions on it
(`cp.async.bulk ... .mbarrier::complete_tx::bytes [dst], [src], size, [mbar]` with a constant size,
`mbarrier.complete_tx`; a tensor copy as a symbol for its map's box) add up along a path; a wait on the barrier, arming it again after its copies were
issued (the producer's next phase), or the end of the function closes the phase and compares them. A path that does not touch the barrier does not change its sums (the thread that
issues the copies is not the one that skips them). Counts that cannot be known are never compared: tensor
(TMA) copies, whose size is the tensor map's box; multicast copies and st.async / red.async, which bring bytes
from other CTAs; non-constant sizes; sums that differ between paths. Tensor copies still give a consistency
check: phases whose copies go through the same tensor maps with the same shapes move the same bytes, so they
must expect the same count; one that differs from the others is reported. docs/lint/expect-tx-mismatch.md.
"""
from __future__ import annotations

from ..dataflow import exit_states, forward, replay
from ..finding import check
from ..sync import async_form, mbarrier_op
from .common import finding, note, text

ID = "expect-tx-mismatch"
TOP = "?"


def _add(x, y):
    return TOP if x == TOP or y == TOP else x + y


def _join(a, b):
    """state: frozenset of (address, expected, copied, tensor copies, expect sites, copy sites)."""
    if a == b:
        return a
    da = {e[0]: e for e in a}
    db = {e[0]: e for e in b}
    out = set()
    for k in set(da) | set(db):
        x, y = da.get(k), db.get(k)
        if x is None or y is None:
            out.add(x or y)
        elif x == y:
            out.add(x)
        else:
            out.add((k, TOP, TOP, (), (), ()))
    return frozenset(out)


def _update(state, key, de, dc, esite=None, csite=None):
    """Add expected bytes `de` and copied bytes `dc` (an int, TOP, or a tensor copy's symbol) to `key`."""
    d = {e[0]: e for e in state}
    _, e, c, syms, es, cs = d.get(key, (key, 0, 0, (), (), ()))
    if isinstance(dc, tuple):
        syms = tuple(sorted(syms + (dc[1],)))
        dc = 0
    d[key] = (key, _add(e, de), _add(c, dc), syms, es + ((esite,) if esite is not None else ()),
              cs + ((csite,) if csite is not None else ()))
    return frozenset(d.values())


def _copy_bytes(f, ins):
    """The bytes a transaction-completing operation brings to its mbarrier, or TOP."""
    form = async_form(ins)
    if form == "bulk" and not ins.attrs.mcast:
        ops = ins.operands
        size = next((o for o in ops[2:] if type(o).__name__ in ("Imm", "Reg", "Sym") and o is not ops[-1]), None) \
            if len(ops) >= 4 else None
        v = f.values.const(size) if size is not None else None
        return v if v is not None else TOP
    if ins.opcode == "mbarrier" and ins.attrs.op == "complete_tx":
        v = f.values.const(ins.operands[-1])
        return v if v is not None else TOP
    if form == "tensor_load" and not ins.attrs.mcast:
        # the box of the tensor map: unknown, but the same for every copy through the same map and shape
        tmap = ins.operands[1].items[0] if len(ins.operands) > 1 and type(ins.operands[1]).__name__ == "Addr" \
            and ins.operands[1].items else None
        a = f.values.address(tmap) if tmap is not None else None
        where = str(a) if a is not None and a.offset is not None else getattr(tmap, "name", "?")
        return ("sym", f"{ins.attrs.dim}d {ins.attrs.mode} copy through the tensor map at `{where}`")
    return TOP


@check(ID, "an expect_tx byte count that differs from the bytes of the copies signalling the mbarrier")
def run(m):
    for fn in m.functions():
        f = m.facts(fn)
        ops = {}
        seq = []                      # instructions by number: the sites a state records
        has_expect = False
        for b in fn.blocks:
            for ins in b.instrs:
                op = mbarrier_op(ins)
                if op is None:
                    continue
                if ins.opcode == "mbarrier" and ins.attrs.op == "complete_tx":
                    op.kind = "complete_tx"
                ops[id(ins)] = (op, f.values.address(op.operand), len(seq))
                seq.append(ins)
                has_expect = has_expect or op.kind == "expect_tx"
        if not has_expect:
            continue
        results = []

        def close(state, key, at):
            """Compare and drop the barriers a wait on `key` (None: every barrier) completes."""
            keep = []
            for e in state:
                k = e[0]
                if key is None or k is None or k.may_alias(key):
                    results.append((e, state, at))
                else:
                    keep.append(e)
            return frozenset(keep)

        def transfer(ins, s, record=False):
            got = ops.get(id(ins))
            if got is None:
                return s
            op, key, num = got
            if op.kind == "expect_tx":
                # re-arming a barrier whose copies were issued starts its next phase: the previous one closes
                cur = next((e for e in s if e[0] == key), None)
                if cur is not None and cur[4] and cur[5]:
                    if record:
                        results.append((cur, s, ins))
                    s = frozenset(e for e in s if e is not cur)
                n = f.values.const(ins.operands[-1])
                return _update(s, key, TOP if n is None else n, 0, esite=num)
            if op.kind == "complete_tx":
                return _update(s, key, 0, _copy_bytes(f, ins), csite=num)
            if op.kind == "wait" and record:
                return close(s, key, ins)
            if op.kind == "wait":
                return frozenset(e for e in s if not (e[0] is None or key is None or e[0].may_alias(key)))
            return s

        IN = forward(f, frozenset(), _join, transfer)
        replay(f, IN, lambda i, s: transfer(i, s), lambda i, s: transfer(i, s, True))
        for last, s in exit_states(f, IN, transfer):
            close(s, None, last)
        reported = set()
        observed = {}                 # tensor copies -> [(expected minus known bytes, expect site, copy sites)]
        for (k, e, c, syms, es, cs), state, at in results:
            if e == TOP or c == TOP or not es or not cs:
                continue
            if syms:
                # compared only with phases that have the very same copies: a copy counted under another
                # address of the same barrier would make the multisets differ, not the counts
                observed.setdefault(syms, []).append((e - c, es[0], cs))
                continue
            if any(o[0] != k and (o[0] is None or k is None or o[0].may_alias(k)) for o in state):
                continue                      # another address may name the same barrier: sums unreliable
            if e == c or es[0] in reported:
                continue
            reported.add(es[0])
            site = seq[es[0]]
            notes = [note(m, seq[x], f"this copy brings {_copy_bytes(f, seq[x])} bytes to the barrier")
                     for x in dict.fromkeys(cs)][:4]
            verdict = "the waiters hang until bytes that never come arrive" if e > c else \
                "the phase completes while copies are still landing"
            yield finding(m, f, ID, site,
                          f"`{text(site)}` expects {e} bytes on the mbarrier at `{k}`, but the bulk copies that signal "
                          f"it transfer {c} bytes: {verdict}", notes)
        yield from _inconsistent(m, f, seq, observed, reported)


def _inconsistent(m, f, seq, observed, reported):
    """Phases whose tensor copies are the same (same maps, same shapes) must expect the same bytes: the box
    sizes are unknown, but equal. The count that differs from the most common one is reported."""
    for syms, obs in observed.items():
        values = [v for v, _, _ in obs]
        if len(set(values)) < 2:
            continue
        common = max(dict.fromkeys(values), key=values.count)
        ref = next(o for o in obs if o[0] == common)
        for v, site_no, cs in obs:
            if v == common or site_no in reported:
                continue
            reported.add(site_no)
            site, other = seq[site_no], seq[ref[1]]
            what = ", ".join(dict.fromkeys(syms))
            yield finding(m, f, ID, site,
                          f"`{text(site)}` expects {v} bytes for the same tensor copies ({what}) for which "
                          f"`{text(other)}` at line {other.line} expects {common}: one of them does not match the "
                          f"copies' boxes", [note(m, other, f"the same copies are expected as {common} bytes here")] +
                          [note(m, seq[x], "a copy of this phase") for x in dict.fromkeys(cs)][:2])
