"""async-wait: shared memory written by `cp.async` and read (`ld.shared`, `ldmatrix`, a generic load of a
shared variable) with no `cp.async.wait_group` / `cp.async.wait_all` (or mbarrier wait after
`cp.async.mbarrier.arrive`) between them on some path.

cp.async completes asynchronously: until the thread waits for its group, the destination holds old data.
The check is a forward dataflow over the CFG of the copies each thread has in flight (uncommitted,
committed in a group, tracked by an mbarrier):
- `cp.async.commit_group` puts the uncommitted copies in a group; `cp.async.wait_group n` completes all
  groups but the newest n — when at most n groups can be pending there (counted along the paths), it
  completes nothing and the copies stay in flight (`wait_group 1` after a single group);
  `cp.async.wait_all` completes everything; an mbarrier wait completes the copies a
  `cp.async.mbarrier.arrive` tracked;
- a read of shared memory that a copy still in flight may write (same variable) is reported.
Once the thread has completed a wait on every path (a pipeline waits for its oldest stage and reads it while
newer stages are in flight), a copy still in flight is reported only when the address ranges (offsets
bounded through the arithmetic, stage counters kept in range by compare-and-select) show it overlaps the
read; before any wait, any copy into the same variable is reported. docs/lint/async-wait.md.
"""
from __future__ import annotations

from ..dataflow import forward, replay
from ..finding import check
from ..sync import async_form, mbarrier_op
from .common import finding, note, text

ID = "async-wait"
_BITS = {".b8": 8, ".u8": 8, ".s8": 8, ".b16": 16, ".u16": 16, ".s16": 16, ".f16": 16, ".bf16": 16,
         ".b32": 32, ".u32": 32, ".s32": 32, ".f32": 32, ".b64": 64, ".u64": 64, ".s64": 64, ".f64": 64,
         ".b128": 128}


def _read_size(ins) -> int:
    """Bytes one thread's load reads (ldmatrix: a 16-byte row)."""
    if ins.opcode == "ldmatrix":
        return 16
    bits = next((b for m, b in _BITS.items() if m in ins.mods), 32)
    vec = next((int(m[2:]) for m in ins.mods if m in (".v2", ".v4", ".v8")), 1)
    return bits * vec // 8
_CAP = 16


def _read_address(f, ins):
    """The shared memory a load reads, or None when `ins` is not such a load (False: not shared)."""
    if ins.opcode == "ldmatrix":
        return f.values.address(ins.operands[1]) if len(ins.operands) > 1 else None
    if ins.opcode in ("ld", "ldu") and len(ins.operands) > 1:
        a = f.values.address(ins.operands[1])
        return a if f.values.is_shared(a, ins.mods) else False
    return False


def _join(a, b):
    """(copies in flight: frozenset of (site, committed, tracked), groups possibly pending, waited on every
    path: an effective wait has completed since the kernel started)."""
    return (a[0] | b[0], max(a[1], b[1]), a[2] and b[2])


def _bounded(a) -> bool:
    return a is not None and a.lo is not None


@check(ID, "a cp.async destination read before the copy is waited for")
def run(m):
    for fn in m.functions():
        f = m.facts(fn)
        sites = {}
        for b in fn.blocks:
            for ins in b.instrs:
                if async_form(ins) == "ldgsts":
                    sites[id(ins)] = ins
        if not sites:
            continue
        index = {k: n for n, k in enumerate(sites)}
        insts = list(sites.values())
        dst = [f.values.address(i.operands[0]) for i in insts]

        def transfer(ins, s):
            flight, groups, waited = s
            form = async_form(ins)
            if form == "ldgsts":
                return (flight | {(index[id(ins)], False, False)}, groups, waited)
            if form == "commit_group":
                return (frozenset((k, True, t) for k, c, t in flight), min(groups + 1, _CAP), waited)
            if form == "wait_group":
                n = ins.attrs.n
                if groups <= n:
                    return s                      # at most n groups pending: nothing completes
                return (frozenset(e for e in flight if not e[1]), n, True)
            if form == "wait_all":
                return (frozenset(), 0, True)
            op = mbarrier_op(ins)
            if op is not None:
                if op.kind == "cp_async_arrive":
                    return (frozenset((k, c, True) for k, c, t in flight), groups, waited)
                if op.kind == "wait" and any(e[2] for e in flight):
                    return (frozenset(e for e in flight if not e[2]), groups, True)
            return s

        IN = forward(f, (frozenset(), 0, False), _join, transfer)
        found = []

        def visit(ins, s):
            if not s[0]:
                return
            a = _read_address(f, ins)
            if a is False:
                return
            # after the thread has waited for something, a copy still in flight is taken to fill another
            # buffer (a pipeline stage) unless the addresses are known to overlap
            rs = _read_size(ins)
            hits = sorted(k for k, _, _ in s[0] if (a is None or a.may_alias(dst[k], rs, insts[k].attrs.size))
                          and (not s[2] or _bounded(a) and _bounded(dst[k])))
            if hits:
                found.append((ins, hits[0]))

        replay(f, IN, transfer, visit)
        reported = set()
        for ins, k in found:
            if k in reported:
                continue
            reported.add(k)
            cp = insts[k]
            yield finding(m, f, ID, ins,
                          f"`{text(ins)}` reads shared memory that the cp.async at line {cp.line} may still be "
                          f"writing: no `cp.async.wait_group`/`wait_all` completes that copy on some path before "
                          f"this read", [note(m, cp, "the asynchronous copy is issued here")])
