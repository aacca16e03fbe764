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


def _alloc(ins, sel):
    s, div = _emitter(sel), _diverged(ins, sel)
    sb = _scoreboard(sel)
    done, retry, got = sel.local_label(), sel.local_label(), sel.local_label()
    cols, bit, base = sel.role(ins, "cols", "ur"), sel.role(ins, "bit", "r"), sel.role(ins, "base", "r")
    seq = [_rejoin(ins, sel, div),
           s(ins, "ELECT", (), ("P0", "URZ", "PT"), reason="one lane of the warp runs the allocator"),
           s(ins, "BRA", (), (f"`({done})",), guard="@!P0"),
           s(ins, "DEPBAR", ("LE",), (sb, _ALLOC_WAIT), reason="a UTCATOMSWS credit before the attempt"),
           s(ins, "UTCATOMSWS", ("FIND_AND_SET", "ALIGN"), ("UP0", cols, cols)),
           s(ins, "BRA", ("U",), (f"`({got})",), guard="@UP0"),
           s(ins, "NANOSLEEP", (), ("0x64",), reason="no free columns yet: back off, then try again"),
           s(ins, "DEPBAR", ("LE",), (sb, _ALLOC_WAIT)),
           s(ins, "UTCATOMSWS", ("FIND_AND_SET", "ALIGN"), ("UP0", cols, cols)),
           s(ins, "BRA", ("U",), (f"`({retry})",), guard="@!UP0"),
           s(ins, "SHF", ("L", "U32"), (bit, "0x1", cols, "RZ")),
           s(ins, "ATOMS", ("OR",), ("RZ", "[reserved_smem+0x14]", bit),
             reason="mark the columns taken in the allocator's bitmaps"),
           s(ins, "ATOMS", ("OR",), ("RZ", "[reserved_smem+0x18]", bit)),
           s(ins, "IMAD", ("SHL", "U32"), (base, cols, "0x20", "RZ")),
           s(ins, "STS", (), (operand_text(ins.operands[0]), base),
             reason="the tensor-memory address, where the PTX asked for it"),
           s(ins, "WARPSYNC", ("ALL",), (), _COOP, reason="the elected lane rejoins the warp")]
    seq[6].label, seq[10].label, seq[-1].label = retry, got, done
    return seq


def _relinquish(ins, sel):
    s, div = _emitter(sel), _diverged(ins, sel)
    flag = sel.role(ins, "flag", "r")
    seq = [s(ins, "ELECT", (), ("P0", "URZ", "PT"), reason="one lane sets the relinquish flag"),
           s(ins, "MOV", (), (flag, "0x1")),
           s(ins, "STS", ("U8",), ("[reserved_smem+0x1c]", flag), guard="@P0")]
    if div:
        seq = [s(ins, "WARPSYNC", ("ALL",), (), reason="the warp re-converges before the election")] + seq
    return seq


def _dealloc(ins, sel):
    s, div = _emitter(sel), _diverged(ins, sel)
    act, a, b = sel.role(ins, "act", "ur"), sel.role(ins, "cols_a", "ur"), sel.role(ins, "cols_b", "ur")
    lane, ma, mb = sel.role(ins, "lane", "r"), sel.role(ins, "keep_a", "r"), sel.role(ins, "keep_b", "r")
    return [_rejoin(ins, sel, div),
            s(ins, "VOTEU", ("ANY",), (act, "UPT", "PT"), _WW, reason="the warp's lanes: one clears the bitmaps"),
            s(ins, "UFLO", ("U32",), (act, act)),
            s(ins, "REDUX", (), (a, ma), _WW, reason="the columns to free, warp-wide"),
            s(ins, "UTCATOMSWS", ("AND",), ("URZ", a)),
            s(ins, "REDUX", (), (b, mb), _WW),
            s(ins, "S2R", (), (lane, "SR_LANEID")),
            s(ins, "ISETP", ("EQ", "U32", "AND"), ("P0", "PT", lane, act, "PT")),
            s(ins, "ATOMS", ("AND",), ("RZ", "[reserved_smem+0x14]", a), guard="@P0",
              reason="clear the columns in the allocator's bitmaps"),
            s(ins, "ATOMS", ("AND",), ("RZ", "[reserved_smem+0x18]", b), guard="@P0"),
            _rejoin(ins, sel, div)]


def _wait_st(ins, sel):
    """tcgen05.wait::st: the tensor-memory stores become visible to the async proxy (FENCE.VIEW.ASYNC.T, one per
    wait; wait::ld has no sync-family instruction: probes async/tcgen05_wait_*)."""
    return [sel.sass(ins, "FENCE", ("VIEW", "ASYNC", "T"))]


_FORMS = {".alloc": _alloc, ".relinquish_alloc_permit": _relinquish, ".dealloc": _dealloc, ".wait::st": _wait_st}


def _joins_at_barrier(ins, sel) -> bool:
    """Is the next sync instruction after `ins` in its block an unguarded CTA barrier?"""
    for i in sel.block.instrs[sel.position(ins) + 1:]:
        if ops.is_sync(i) or i.opcode == "tcgen05" and any(i.has(m) for m in _FORMS):
            return ops.is_cta_barrier(i) and i.guard is None
    return False


@rule("tcgen05")
def select_tcgen05(ins, sel):
    form = next((f for m, f in _FORMS.items() if ins.has(m)), None)
    if form is None:
        return None
    seq = form(ins, sel)
    if ins.guard is not None and form is not _wait_st:            # ptxas branches around a guarded expansion (it holds branches itself)
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
