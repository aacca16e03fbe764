"""ISel for the tensor-memory allocator: tcgen05.alloc / relinquish_alloc_permit / dealloc, and tcgen05.wait::st
(FENCE.VIEW.ASYNC.T) (sm_100 family;
docs/findings/async.md, "tcgen05 allocator" section; probes async/tcgen05_alloc_*).

ptxas expands each into a software allocator over a reserved shared-memory word pair (the column bitmaps at
+0x14/+0x18 of the reserved window, the relinquish flag at +0x1c) and the UTCATOMSWS unit. Their sync-family
instructions, in order:

- alloc: the warp's re-convergence point (COOP_GROUP), ELECT of one lane, a DEPBAR.LE SBn, 0x36 before each
  UTCATOMSWS.FIND_AND_SET attempt with a NANOSLEEP between retries (the retry loop: two DEPBARs), ATOMS.OR of
  both bitmaps, then WARPSYNC.ALL (COOP_GROUP) where the elected lane rejoins;
- relinquish_alloc_permit: ELECT (the lane that sets the flag), after a WARPSYNC.ALL (no EIATTR entry) when the
  warp may be diverged;
- dealloc: the re-convergence point (COOP_GROUP), VOTEU.ANY and two REDUX (the warp's bitmaps to clear: each in
  EIATTR_INT_WARP_WIDE_INSTR_OFFSETS), the leader's ATOMS.AND of both bitmaps, the re-convergence point again
  (COOP_GROUP).

A re-convergence point is WARPSYNC.ALL where the warp may be diverged at the instruction (a divergent guard,
a divergent block) and a NOP in converged code: the NOP keeps its EIATTR_COOP_GROUP_INSTR_OFFSETS entry (as an
elided bar.warp.sync does). A divergent guard is a branch around the expansion; where that branch joins
at a CTA barrier (the next sync instruction of the block, nothing between re-converges the warp) ptxas
re-converges before the barrier with a WARPSYNC.ALL of its own (probes async/tcgen05_alloc_divergent,
phases/reqntid_tid_lt48_divergent).
The allocator's DEPBAR waits on SB0 unless the kernel's async-copy groups hold SB0
(a cp.async / bulk-group wait: DEPBAR.LE SB0, n), then on SB1.
"""
from __future__ import annotations

from pylower.passes.analysis import regions as R
from pylower.sass.instr import VIRTUAL

from pylower.lowering import ops
from pylower.lowering import ptx_ast as A

from .fam_async_copy import elect_loop
from .rules import guard_text, operand_text, rule

_COOP = ("COOP_GROUP",)
_WW = ("INT_WARP_WIDE",)
# the async-copy group waits that take scoreboard SB0 (isel/fam_async_copy.py: DEPBAR.LE SB0, n)
_GROUP_WAITS = (("cp", ".wait_group"), ("cp", ".wait_all"))
_ALLOC_WAIT = "0x36"            # the UTCATOMSWS credit DEPBAR.LE waits for before each attempt


def _diverged(ins, sel) -> bool:
    """May the warp be diverged at `ins`: a divergent guard or a block under divergent control."""
    key = ("tcgen05_diverged_blocks",)
    blocks = sel._analyses.get(key)
    if blocks is None:
        blocks = sel._analyses[key] = R.divergent_blocks(sel.am.regions)
    return (ins.guard is not None and not sel.uniformity.is_uniform(ins.guard)) or \
        (sel.block is not None and sel.block.label in blocks)


def _scoreboard(sel) -> str:
    key = ("tcgen05_sb",)
    sb = sel._analyses.get(key)
    if sb is None:
        groups = any(i.opcode == "cp" and ".async" in i.mods and any(i.has(m) for _, m in _GROUP_WAITS)
                     for b in sel.function.blocks for i in b.instrs)
        sb = sel._analyses[key] = "SB1" if groups else "SB0"
    return sb


def _emitter(sel):
    """sel.sass with no guard by default: a guarded op's whole expansion sits behind one branch (_select)."""
    def s(ins, opcode, mods=(), operands=(), tags=(), guard="", reason=""):
        return sel.sass(ins, opcode, mods, operands, tags, guard, reason)
    return s


def _rejoin(ins, sel, diverged: bool, tags=_COOP):
    if diverged:
        return sel.sass(ins, "WARPSYNC", ("ALL",), (), tags, guard="", reason="the warp re-converges")
    return sel.sass(ins, "NOP", (), (), tags, reason="converged: the re-convergence point is a NOP "
                                                     "(still listed in EIATTR_COOP_GROUP_INSTR_OFFSETS)", guard="")


_WINDOW = "0x40"             # the allocator's fields in the CTA's reserved shared memory: +0x14/+0x18 bitmaps,
_BITMAP, _STARTS, _FLAG = "0x14", "0x18", "0x1c"   # +0x1c the relinquish flag


def _window(ins, sel, s) -> tuple[list, str]:
    """The reserved window's shared address (S2UR SR_CgaCtaId; ULEA of 0x40 into this CTA's window)."""
    cta, off, win = (sel.role(ins, n, "ur") for n in ("cta", "win_off", "win"))
    return [s(ins, "S2UR", (), (cta, "SR_CgaCtaId")),
            s(ins, "UMOV", (), (off, _WINDOW)),
            s(ins, "ULEA", (), (win, cta, off, "0x18"), reason="the allocator's fields in the reserved shared window")], win


def _column_masks(ins, sel, s, ncols, idx) -> tuple[list, str, str]:
    """The column bitmap of `ncols` columns (one bit per 32) at chunk `idx`, and the bit of its first chunk."""
    n = ins.operands[ncols]
    chunks, mask, one = sel.role(ins, "chunks"), sel.role(ins, "mask"), sel.role(ins, "one")
    if type(n) is A.Imm and isinstance(n.value, int):
        chunks_imm = (n.value & 0xFFFFFFFF) >> 5       # a 32-bit count: dealloc accepts -32 (probes frontend/
        # tcgen05_ncols_*); a shift by 32 or more gives 0, so the mask is all ones as SHF.L then IADD3 -1 make it
        pre = [s(ins, "MOV", (), (mask, hex(((1 << chunks_imm) - 1) if chunks_imm < 32 else 0xFFFFFFFF)))]
    else:
        pre = [s(ins, "SHF", ("R", "U32", "HI"), (chunks, "RZ", "0x5", operand_text(n))),
               s(ins, "SHF", ("L", "U32"), (mask, "0x1", chunks, "RZ")),
               s(ins, "IADD3", (), (mask, mask, "-0x1", "RZ"))]
    m, b = sel.role(ins, "cols_mask"), sel.role(ins, "first_bit")
    return pre + [s(ins, "MOV", (), (one, "0x1")),
                  s(ins, "SHF", ("L", "U32"), (m, mask, idx, "RZ")),
                  s(ins, "SHF", ("L", "U32"), (b, one, idx, "RZ"))], m, b


def _alloc(ins, sel):
    s, div = _emitter(sel), _diverged(ins, sel)
    sb = _scoreboard(sel)
    done, retry, got = sel.local_label(), sel.local_label(), sel.local_label()
    cols, idx, base = sel.role(ins, "cols", "ur"), sel.role(ins, "idx"), sel.role(ins, "base")
    n = ins.operands[1]

    def want():             # the column chunks asked for (ncols / 32), the attempt's input
        if type(n) is A.Imm and isinstance(n.value, int):
            return [s(ins, "UMOV", (), (cols, hex(n.value // 32)))]
        return [s(ins, "R2UR", (), (cols, operand_text(n))), s(ins, "USHF", ("R", "U32", "HI"), (cols, "URZ", "0x5", cols))]

    def attempt():
        return [s(ins, "DEPBAR", ("LE",), (sb, _ALLOC_WAIT), reason="a UTCATOMSWS credit before the attempt"),
                s(ins, "UTCATOMSWS", ("FIND_AND_SET", "ALIGN"), ("UP0", cols, cols))]
    win_seq, win = _window(ins, sel, s)
    masks, m, b = _column_masks(ins, sel, s, 1, idx)
    head = [_rejoin(ins, sel, div)] + win_seq + [
        s(ins, "ELECT", (), ("P0", "URZ", "PT"), reason="one lane of the warp runs the allocator"),
        s(ins, "BRA", (), (f"`({done})",), guard="@!P0")] + want()
    back_off = s(ins, "NANOSLEEP", (), ("0x64",), reason="no free columns yet: back off, then try again")
    back_off.label = retry
    taken = s(ins, "IMAD", ("U32",), (idx, "RZ", "RZ", cols), reason="the first column chunk found")
    taken.label = got
    join = s(ins, "WARPSYNC", ("ALL",), (), _COOP, reason="the elected lane rejoins the warp")
    join.label = done
    return head + attempt() + [s(ins, "BRA", ("U",), (f"`({got})",), guard="@UP0"), back_off] + want() + attempt() + [
        s(ins, "BRA", ("U",), (f"`({retry})",), guard="@!UP0"), taken] + masks + [
        s(ins, "IMAD", ("SHL", "U32"), (base, idx, "0x20", "RZ"), reason="the tensor-memory address"),
        s(ins, "ATOMS", ("OR",), ("RZ", f"[{win}+{_BITMAP}]", m), reason="mark the columns taken"),
        s(ins, "ATOMS", ("OR",), ("RZ", f"[{win}+{_STARTS}]", b)),
        s(ins, "STS", (), (operand_text(ins.operands[0]), base), reason="the address, where the PTX asked for it"),
        join]


def _relinquish(ins, sel):
    s, div = _emitter(sel), _diverged(ins, sel)
    flag = sel.role(ins, "flag", "r")
    win_seq, win = _window(ins, sel, s)
    seq = win_seq + [s(ins, "ELECT", (), ("P0", "URZ", "PT"), reason="one lane sets the relinquish flag"),
                     s(ins, "MOV", (), (flag, "0x1")),
                     s(ins, "STS", ("U8",), (f"[{win}+{_FLAG}]", flag), guard="@P0")]
    if div:
        seq = [s(ins, "WARPSYNC", ("ALL",), (), reason="the warp re-converges before the election")] + seq
    return seq


def _dealloc(ins, sel):
    s, div = _emitter(sel), _diverged(ins, sel)
    act, a, b = sel.role(ins, "act", "ur"), sel.role(ins, "cols_a", "ur"), sel.role(ins, "cols_b", "ur")
    lane, col, idx = sel.role(ins, "lane"), sel.role(ins, "col"), sel.role(ins, "idx")
    ka, kb = sel.role(ins, "keep_a"), sel.role(ins, "keep_b")
    win_seq, win = _window(ins, sel, s)
    masks, m, bit = _column_masks(ins, sel, s, 1, idx)
    return [_rejoin(ins, sel, div)] + win_seq + [
        s(ins, "LOP3", ("LUT",), (col, operand_text(ins.operands[0]), "0xffff", "RZ", "0xc0", "!PT"),
          reason="the first column of the allocation"),
        s(ins, "SHF", ("R", "U32", "HI"), (idx, "RZ", "0x5", col))] + masks + [
        s(ins, "LOP3", ("LUT",), (ka, "RZ", m, "RZ", "0x33", "!PT")),
        s(ins, "LOP3", ("LUT",), (kb, "RZ", bit, "RZ", "0x33", "!PT")),
        s(ins, "VOTEU", ("ANY",), (act, "UPT", "PT"), _WW, reason="the warp's lanes: one clears the bitmaps"),
        s(ins, "UFLO", ("U32",), (act, act)),
        s(ins, "REDUX", (), (a, ka), _WW, reason="the columns to free, warp-wide"),
        s(ins, "UTCATOMSWS", ("AND",), ("URZ", a)),
        s(ins, "REDUX", (), (b, kb), _WW),
        s(ins, "S2R", (), (lane, "SR_LANEID")),
        s(ins, "ISETP", ("EQ", "U32", "AND"), ("P0", "PT", lane, act, "PT")),
        s(ins, "ATOMS", ("AND",), ("RZ", f"[{win}+{_BITMAP}]", a), guard="@P0",
          reason="clear the columns in the allocator's bitmaps"),
        s(ins, "ATOMS", ("AND",), ("RZ", f"[{win}+{_STARTS}]", b), guard="@P0"),
        _rejoin(ins, sel, div)]


def _wait_st(ins, sel):
    """tcgen05.wait::st: the tensor-memory stores become visible to the async proxy (FENCE.VIEW.ASYNC.T, one per
    wait; wait::ld has no sync-family instruction: probes async/tcgen05_wait_*)."""
    return [sel.sass(ins, "FENCE", ("VIEW", "ASYNC", "T"))]


def _tmem_store(ins, sel):
    """tcgen05.st: STTM, a store to tensor memory. To the scheduler it is a store (the FENCE.VIEW.ASYNC.T of a
    later tcgen05.wait::st waits for it), not a region boundary: the warp votes of a following predicated
    mbarrier.init are scheduled around it (probes scheduling/votes_init_*_tmem_store_wait)."""
    shape = next((m[1:] for m in ins.mods if m[:2] == ".x" and m[2:].isdigit()), "x1")
    return [sel.sass(ins, "STTM", (shape,), (f"tmem{operand_text(ins.operands[0])}", operand_text(ins.operands[1])))]


def _elected(ins, sel) -> bool:
    """Is the guard an elect.sync's own predicate (one lane of a converged warp)?"""
    g = ins.guard
    ds = sel.am.defuse.definitions(g.name) if type(g) is A.Reg else []
    return bool(ds) and all(d.opcode == "elect" for d in ds)


def _enable_input(ins):
    """tcgen05.mma's enable-input-d predicate: the operand after the instruction descriptor (and after the
    disable-output-lane vector when there is one)."""
    rest = [o for o in ins.operands[4:] if type(o) is not A.Vec]
    return rest[0] if rest else None


def _constant_predicate(o, sel) -> str | None:
    """UPT / !UPT for a predicate operand that holds a constant (`mov.pred p, 0`), else None."""
    reg = o.inner if type(o) is A.Not else o
    if type(reg) is not A.Reg or reg.name not in sel.am.constants:
        return None
    return "UPT" if bool(sel.am.constants[reg.name]) != (type(o) is A.Not) else "!UPT"


def _needs_vote(ins, sel) -> bool:
    """Does this tcgen05 operation vote on a per-lane predicate operand of its own (mma's enable-input-d)?"""
    p = _enable_input(ins) if ins.has(".mma") else None
    return p is not None and _constant_predicate(p, sel) is None


def _utc(ins, sel, opcode, mods, operands, votes):
    """A tcgen05 operation on the uniform datapath (UTCHMMA, UTCBAR): one lane's issue covers the warp.
    Under an elect.sync's predicate it is issued as such, the guard dropped (a vote of its per-lane operand
    runs under the guard); unguarded it sits in an ELECT loop after the vote; under another per-lane guard the
    warp votes on the guard first and issues it under the uniform predicate (probes async/tcgen05_mma_*,
    tcgen05_commit_*). docs/findings/async.md "tcgen05.mma and tcgen05.commit (helper tother, stop 21)"."""
    s = sel.sass
    if ins.guard is not None and _elected(ins, sel):
        return [s(ins, "VOTEU", ("ANY",), (f"UP{i}", operand_text(p))) for i, p in enumerate(votes)] + \
            [s(ins, opcode, mods, operands, guard="")]
    if ins.guard is None:
        return [s(ins, "VOTEU", ("ANY",), (f"UP{i}", operand_text(p))) for i, p in enumerate(votes)] + \
            elect_loop(ins, sel, [s(ins, opcode, mods, operands, guard="")])
    if votes:
        return None
    return [s(ins, "VOTEU", ("ANY",), ("UP0", operand_text(ins.guard)), tags=_WW, guard="")] + \
        elect_loop(ins, sel, [s(ins, opcode, mods, operands, guard="@UP0")])


def _mma(ins, sel):
    """tcgen05.mma: UTCHMMA (UTCQMMA/UTCIMMA kinds are not distinguished: no sync-family difference)."""
    p = _enable_input(ins)
    const = _constant_predicate(p, sel) if p is not None else "UPT"
    operands = tuple(operand_text(o) for o in ins.operands[:4]) + ((const or "UP0"),)
    return _utc(ins, sel, "UTCHMMA", (), operands, () if const else (p,))


def _commit(ins, sel):
    """tcgen05.commit (an arrive on an mbarrier when the warp's earlier tcgen05 operations complete): UTCBAR."""
    return _utc(ins, sel, "UTCBAR", (), (operand_text(ins.operands[0]), "URZ"), ())


_FORMS = {".alloc": _alloc, ".relinquish_alloc_permit": _relinquish, ".dealloc": _dealloc, ".wait::st": _wait_st,
          ".st": _tmem_store, ".mma": _mma, ".commit": _commit}
# forms selected as such under their guard (no branch around an expansion)
_AS_SUCH = (_wait_st, _tmem_store, _mma, _commit)


def elect_feeds_only_utc(ins, sel) -> bool:
    """An elect.sync whose lane result nothing reads and whose predicate only guards tcgen05.mma (with a constant
    enable-input-d) and tcgen05.commit: those drop the guard, so ptxas issues no ELECT for it."""
    d = ins.operands[0]
    if type(d) is not A.Pair or type(d.second) is not A.Reg:
        return False
    lane = d.first.name if type(d.first) is A.Reg else None
    pred = d.second.name
    readers = 0
    for b in sel.function.blocks:
        for i in b.instrs:
            if i is ins:
                continue
            used = sel.am.defuse.uses(i)
            if lane is not None and lane in used:
                return False
            if pred not in used:
                continue
            if not (i.opcode == "tcgen05" and (i.has(".commit") or i.has(".mma") and not _needs_vote(i, sel))
                    and type(i.guard) is A.Reg and i.guard.name == pred
                    and all(r != pred for o in i.operands for r in ([o.name] if type(o) is A.Reg else []))):
                return False
            readers += 1
    return readers > 0 and len(sel.am.defuse.definitions(pred)) == 1


def _joins_at_barrier(ins, sel) -> bool:
    """Is the next sync instruction after `ins` in its block an unguarded CTA barrier?"""
    for i in sel.block.instrs[sel.position(ins) + 1:]:
        if ops.is_sync(i) or i.opcode == "tcgen05" and any(i.has(m) for m in _FORMS if m not in (".st", ".mma")):
            return ops.is_cta_barrier(i) and i.guard is None
    return False


@rule("tcgen05")
def select_tcgen05(ins, sel):
    form = next((f for m, f in _FORMS.items() if ins.has(m)), None)
    if form is None:
        return None
    seq = form(ins, sel)
    if seq is None:
        return None
    if ins.guard is not None and form not in _AS_SUCH:            # ptxas branches around a guarded expansion (it holds branches itself)
        skip = sel.local_label()
        neg = ins.guard.inner if type(ins.guard) is A.Not else A.Not(ins.guard)
        end = sel.sass(ins, VIRTUAL, guard="")
        end.label = skip
        seq = [sel.sass(ins, "BRA", (), (f"`({skip})",), guard=guard_text(neg),
                        reason="the guard is a branch around the expansion")] + seq + [end]
        if not sel.uniformity.is_uniform(ins.guard) and _joins_at_barrier(ins, sel):
            seq.append(sel.sass(ins, "WARPSYNC", ("ALL",), (), guard="",
                                reason="the branch around the expansion joins at a CTA barrier: re-converge first"))
    return [sel.sass(ins, VIRTUAL, guard="")] + seq     # keeps a block label the driver puts first off a loop head
