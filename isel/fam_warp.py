"""ISel for the warp collectives (Ori 119) and griddepcontrol / nanosleep (docs/findings/warp.md, section 2).

Target groups: T75 = sm_75, T80 = sm_80-89, T90 = sm_90/90a, T100 = sm_100+. Per-target choices are the
tables below. Tags: COOP_GROUP on every user-written member-mask collective (not on the copy of an op in a
phase-72 slow path, `!copy=1`, nor on the legacy non-.sync forms); MASK_REG when the member mask is held in
a register at that instruction (sass/eiattr.py: EIATTR_COOP_GROUP_MASK_REGIDS).
"""
from __future__ import annotations

import functools

from pylower.lowering import ptx_ast as A
from pylower.sass.instr import VIRTUAL
from pylower.lowering.sm70_intrinsics import is_sm70_warp_sync
from pylower.passes.analysis import regions as R
from pylower.passes.analysis.defuse import defs, uses

from pylower.lowering.ops import FULL_MASK, is_full_mask, redux_mask_only, warp_op

from . import generic
from .rules import operand_text, rule
from .sequences import REDUX_MODS, redux_opcode

# vote.all/.uni and match.all have no native SASS without NATIVE_VOTE_ALL: ballot / MATCH.ANY against the
# active mask. Phase 72's slow-path copy (`!copy=1`) uses the same emulation with EMULATED_SLOW_PATH_COPY.
# PARTIAL_MASK_IN_REGISTER: an immediate partial mask is materialized in a register (for the EIATTR).
_VOTE = {"all": "ALL", "any": "ANY", "uni": "EQ", "ballot": "ANY"}

_GRIDDEP = {"wait": "ACQBULK", "launch_dependents": "PREEXIT"}


def _t(o) -> str:
    return operand_text(o)


def _mask_tags(ins, sel) -> tuple[str, ...]:
    """COOP_GROUP (+ MASK_REG) for a .sync collective's own instruction."""
    if ".sync" not in ins.mods or ins.attrs.copy:
        return ()
    mask = ins.operands[-1]
    value = mask.value if type(mask) is A.Imm else sel.am.constants.get(mask.name) if type(mask) is A.Reg else None
    in_reg = value is None or (
        sel.target.has("PARTIAL_MASK_IN_REGISTER") and value & FULL_MASK != FULL_MASK)
    return ("COOP_GROUP",) + (("MASK_REG",) if in_reg else ())


def _mask_in_reg(ins, sel) -> bool:
    """Is the member mask a run-time register value (not an immediate, nor a register only ever set to one)?"""
    mask = ins.operands[-1]
    return type(mask) is not A.Imm and mask.name not in sel.am.constants


def _shares(e, sel) -> bool:
    """Can e share its warp-wide part with equal neighbours (a user-written .sync vote or match, emulated target)?"""
    return e.opcode in ("vote", "match") and not e.attrs.copy and ".sync" in e.mods and e.guard is None \
        and (e.attrs.mode in _VOTE if e.opcode == "vote" else e.attrs.mode in ("any", "all"))


def _share_key(e) -> tuple:
    wide = ".b64" in e.mods if e.opcode == "match" else None
    return (e.opcode, wide) + tuple(e.operands[1:])


def _shared_group(ins, sel) -> list:
    """Without NATIVE_VOTE_ALL, vote.all/.uni are a ballot and match.all a MATCH.ANY compared with the active
    mask, and ptxas computes each warp-wide part once per block: the .sync votes of a block on one predicate and
    member mask (none of them written in between) share one ballot, VOTE.ANY R, PT, P (all/uni compare it with
    the active mask, any with zero), and match.any/match.all of one value and mask one MATCH.ANY; only the first
    keeps its COOP_GROUP entry (probes warp/cse_*; docs/findings/warp.md "Equal warp collectives share one
    instruction (helper llvmnb, stop 20)"). [] when ins shares with no other op."""
    if not _emulated(ins, sel) or not _shares(ins, sel):
        return []
    groups = sel._analyses.get(("shared_groups", sel.block.label))
    if groups is None:
        groups, open_ = {}, []
        for e in sel.block.instrs:
            written = set(defs(e))
            open_ = [g for g in open_ if not written & set(uses(g[0]))]
            if _shares(e, sel):
                g = next((g for g in open_ if _share_key(g[0]) == _share_key(e)), None)
                if g is None:
                    g = [e]
                    open_.append(g)
                else:
                    g.append(e)
                groups[id(e)] = g
                if written & set(uses(e)):
                    open_ = [x for x in open_ if x is not g]
        sel._analyses[("shared_groups", sel.block.label)] = groups
    g = groups.get(id(ins), [])
    return g if len(g) > 1 else []


def _compares_active(group: list) -> bool:
    return any(e.attrs.mode in ("all", "uni") for e in group)


def _reads_activemask(ins, sel) -> bool | None:
    """None when ins has no active-mask read of its own, else whether that read is uniform (VOTEU)."""
    if ins.attrs.copy or ".sync" not in ins.mods or not _emulated(ins, sel):
        return None
    group = _shared_group(ins, sel)
    if group:           # the group's first op reads it, if some op of the group compares with it
        if group[0] is not ins or not _compares_active(group):
            return None
        return True if ins.opcode == "vote" else _mask_in_reg(ins, sel)
    if ins.opcode == "vote" and ins.attrs.mode in ("all", "uni"):
        return True
    if ins.opcode == "match" and ins.attrs.mode == "all":
        return _mask_in_reg(ins, sel)
    return None


def _emulated(ins, sel) -> bool:
    t = sel.target
    return not t.has("NATIVE_VOTE_ALL") or (bool(ins.attrs.copy) and t.has("EMULATED_SLOW_PATH_COPY"))


def _activemask(ins, sel, uniform: bool):
    """The active-mask read an emulated op compares against. Within a block the active mask cannot change,
    so ptxas reads it once, at the block's first such op, into a uniform register only if no op there
    needs it in a vector register (nvcc/warp_vote, warp_match, probes/warp/emulated_all_shared_activemask)."""
    if not ins.attrs.copy:
        readers = [e for e in sel.block.instrs if _reads_activemask(e, sel) is not None]
        if ins in readers:
            if readers[0] is not ins:
                return None
            uniform = all(_reads_activemask(e, sel) for e in readers)
    if uniform:
        return sel.sass(ins, "VOTEU", ("ANY",), (_active_reg(sel, "ur"), "UPT", "PT"))
    return sel.sass(ins, "VOTE", ("ANY",), (_active_reg(sel, "r"), "PT", "PT"))


def _active_reg(sel, kind: str) -> str:
    """The register holding the block's active mask (read once per block, see _activemask)."""
    key = ("active", sel.block.label, kind)
    t = sel._analyses.get(key)
    if t is None:
        t = sel._analyses[key] = sel.temps.new(kind)
    return t


@rule("vote")
def select_vote(ins, sel):
    mode = ins.attrs.mode
    if not mode:
        return None
    d, src = ins.operands[0], ins.operands[1]
    tags = _mask_tags(ins, sel)
    group = _shared_group(ins, sel)
    if group:
        return _shared_ballot(ins, sel, group, tags)
    if ".sync" in ins.mods and mode in ("all", "uni") and _emulated(ins, sel):
        # ballot of the (negated) source compared with the active mask (VOTEU: a uniform register)
        ballot = sel.role(ins, "ballot")
        active = _active_reg(sel, "ur") if sel._analyses.get(("active", sel.block.label, "ur")) else \
            _active_reg(sel, "r")
        seq = [i for i in (_activemask(ins, sel, True),
                           sel.sass(ins, "VOTE", ("ANY",), (ballot, "PT", _t(src)), tags=tags)) if i]
        # all: the lanes voting true are the active lanes (a negated source: none votes true)
        other = "RZ" if type(src) is A.Not else (_active_reg(sel, "ur") if
                                                 sel._analyses.get(("active", sel.block.label, "ur")) else active)
        if other != "RZ" and not sel.target.has("NATIVE_VOTE_ALL"):
            # sm_75 keeps only the active lanes of the ballot before the compare (`VOTE.ANY R; LOP3.LUT R, R, UR,
            # RZ, 0xc0; ISETP R, UR`): one more step between the vote and its readers (docs/findings/warp.md
            # "sm_75's vote.all masks its ballot with the active lanes (helper nvcg26, stop 26)")
            seq.append(sel.sass(ins, "LOP3", ("LUT",), (ballot, ballot, other, "RZ", "0xc0", "!PT"),
                                reason=f"vote.{mode}: the ballot's active lanes"))
        return seq + [sel.sass(ins, "ISETP", ("EQ", "U32", "AND"), (_t(d), "PT", ballot, other, "PT"),
                               reason=f"vote.{mode}: the ballot against the active mask")]
    if mode == "ballot":
        if _masks_conv_test(ins, sel):
            return [sel.sass(ins, "VOTEU", ("ANY",), (_t(d), "UPT", _t(src)), tags=tags)]
        known = _branch_implied(ins, src, sel) if ".sync" in ins.mods else None
        if known:
            # the ballot of a constant: the active mask (or none of it), uniform below sm_90; from sm_90 with a
            # full member mask as activemask (every reader takes a uniform operand), per lane with a register
            # mask (docs/findings/warp.md "A ballot of the branch predicate in its arm is folded to PT")
            w = warp_op(ins)
            if sel.target.has("BALLOT_CONST_UNIFORM") or \
                    (w is not None and is_full_mask(w.mask) and _activemask_uniform(ins, sel)):
                return [sel.sass(ins, "VOTEU", ("ANY",), (_t(d), "UPT", known), tags=tags)]
            return [sel.sass(ins, "VOTE", ("ANY",), (_t(d), "PT", known), tags=tags)]
        if _uniform_ballot(ins, src, sel):
            return [sel.sass(ins, "VOTEU", ("ANY",), (_t(d), "UPT", _t(src)), tags=tags)]
        return [sel.sass(ins, "VOTE", ("ANY",), (_t(d), "PT", _t(src)), tags=tags)]
    if mode == "any" and ".sync" in ins.mods and not sel.target.has("NATIVE_VOTE_ALL") and type(d) is A.Reg:
        # sm_75's vote.any is a ballot tested against zero (`VOTE.ANY R, PT, P; ISETP.NE.U32 P, R, RZ`), one
        # step longer than sm_80's `VOTE.ANY P, P` (docs/findings/warp.md "sm_75's vote.all masks its ballot
        # with the active lanes (helper nvcg26, stop 26)")
        ballot = sel.role(ins, "ballot")
        return [sel.sass(ins, "VOTE", ("ANY",), (ballot, "PT", _t(src)), tags=tags),
                sel.sass(ins, "ISETP", ("NE", "U32", "AND"), (_t(d), "PT", ballot, "RZ", "PT"),
                         reason="vote.any: the ballot is not zero")]
    return [sel.sass(ins, "VOTE", (_VOTE[mode],), (_t(d), _t(src)), tags=tags)]


def _uniform_ballot(ins, src, sel) -> bool:
    """A ballot of a warp-uniform predicate whose result every reader takes as a uniform operand is `VOTEU.ANY
    UR, UPT, P` (docs/findings/warp.md "A ballot of a warp-uniform predicate into uniform readers is VOTEU
    (helper nvatom25, stop 25)"; probes atomic/agg_value_ballot_uniform_pred, warp/ballot_uniform_pred_*)."""
    if type(src) is not A.Reg or not sel.uniformity.is_uniform(src) or ".sync" not in ins.mods:
        return False
    w = warp_op(ins)
    return w is not None and is_full_mask(w.mask) and _activemask_uniform(ins, sel)


def _branch_implied(ins, src, sel) -> str | None:
    """'PT' / '!PT' when `src` is known true / false wherever ins runs, else None. ptxas folds a predicate
    whose block's only entry edge is a conditional branch on it (`@p bra B`: p in B; the fall-through of
    `@p bra X`: !p), when p is written once, in a block at most one edge enters (a setp in a join block, or
    p rewritten in the arm, is not folded); docs/findings/warp.md "A ballot of the branch predicate in its
    arm is folded to PT (helper pwarp24, stop 24)"; probes warp/ballot_arm_pred_*."""
    if type(src) is not A.Reg or ins not in sel.block.instrs:
        return None
    block = sel.block
    if len(block.preds) != 1:
        return None
    by_label = sel.am.blocks
    ds = sel.am.defuse.definitions(src.name)
    writer = next((b for b in sel.function.blocks if any(i is ds[0] for i in b.instrs)), None) \
        if len(ds) == 1 else None
    if writer is None or len(writer.preds) > 1 or writer is block:
        return None
    pred = by_label.get(block.preds[0])
    if pred is None or len(set(pred.succs)) != 2:
        return None
    conds = [i for i in pred.instrs if i.opcode == "bra" and i.guard is not None]
    if len(conds) != 1 or pred.instrs.index(conds[0]) < len(pred.instrs) - 2:
        return None
    cond = conds[0]
    g = cond.guard.inner if type(cond.guard) is A.Not else cond.guard
    if type(g) is not A.Reg or g.name != src.name or not cond.operands or type(cond.operands[0]) is not A.Sym:
        return None
    taken = cond.operands[0].name == block.label
    return "PT" if taken != (type(cond.guard) is A.Not) else "!PT"


def _masks_conv_test(ins, sel) -> bool:
    """sm_80-89: is the ballot's result the member mask of a warp op with a fast-path test (phase 72's
    bra_conv before it)? ptxas's `BRA.CONV UR, fast` / `BRA.DIV UR, slow` reads the mask from a uniform
    register, so the ballot is `VOTEU.ANY UR, UPT, P` (also when the mask has other readers; nvcc/
    histogram_shared_atomics histogram_warp_aggregated: `vote.sync.ballot m, p, -1; @!p bra; match.any.sync
    .., m`; docs/findings/warp.md "A ballot that is a member mask is uniform below sm_90 (helper nvatom,
    stop 22)"; probes warp/ballot_mask_conv_*)."""
    if not sel.target.has("CONV_TEST_UNIFORM_MASK"):
        return False
    d = ins.operands[0]
    if type(d) is not A.Reg:
        return False
    key = ("conv_test_masks",)
    masks = sel._analyses.get(key)
    if masks is None:
        masks = set()
        for b in sel.function.blocks:
            tested = False
            for i in b.instrs:
                if i.opcode == "bra_conv":
                    tested = True
                    continue
                w = warp_op(i) if tested else None
                if w is not None:
                    # (a per-thread mask takes the membermask check instead: probes warp/permask_*)
                    if type(w.mask) is A.Reg and not i.attrs.permask:
                        masks.add((w.mask.name, id(i)))
                    tested = False
        sel._analyses[key] = masks
    return any(name == d.name and op != id(ins) for name, op in masks)


def _shared_ballot(ins, sel, group: list, tags) -> list:
    """One vote of a _shared_group: the first reads the ballot (and the active mask), each derives its result."""
    d, src, mode = ins.operands[0], ins.operands[1], ins.attrs.mode
    ballot = sel.role(group[0], "ballot")
    seq = []
    if group[0] is ins:
        if _compares_active(group):
            seq.append(_activemask(ins, sel, True))
        seq.append(sel.sass(ins, "VOTE", ("ANY",), (ballot, "PT", _t(src)), tags=tags))
    seq = [i for i in seq if i]
    if mode == "ballot":
        return seq + [sel.sass(ins, "MOV", (), (_t(d), ballot), reason="vote.ballot: the shared ballot")]
    if mode == "any":
        return seq + [sel.sass(ins, "ISETP", ("NE", "U32", "AND"), (_t(d), "PT", ballot, "RZ", "PT"),
                               reason="vote.any: the shared ballot is not zero")]
    kind = "ur" if sel._analyses.get(("active", sel.block.label, "ur")) else "r"
    other = "RZ" if type(src) is A.Not else _active_reg(sel, kind)
    return seq + [sel.sass(ins, "ISETP", ("EQ", "U32", "AND"), (_t(d), "PT", ballot, other, "PT"),
                           reason=f"vote.{mode}: the shared ballot against the active mask")]


@rule("match")
def select_match(ins, sel):
    mode = ins.attrs.mode
    if not mode:
        return None
    wide = ("U64",) if ".b64" in ins.mods else ()
    d, src = ins.operands[0], ins.operands[1]
    dest = _t(d.first) if type(d) is A.Pair else _t(d)
    pred = (_t(d.second),) if type(d) is A.Pair else ()
    tags = _mask_tags(ins, sel)
    group = _shared_group(ins, sel)
    if group:           # one MATCH.ANY for the group (_shared_group)
        shared = sel.role(group[0], "matched")
        seq = []
        if group[0] is ins:
            if _compares_active(group):
                seq.append(_activemask(ins, sel, _mask_in_reg(ins, sel)))
            seq.append(sel.sass(ins, "MATCH", ("ANY",) + wide, (shared, _t(src)), tags=tags))
        seq = [i for i in seq if i] + [sel.sass(ins, "MOV", (), (dest, shared), reason="the shared MATCH.ANY")]
        if pred:
            active = _active_reg(sel, "ur" if sel._analyses.get(("active", sel.block.label, "ur")) else "r")
            seq.append(sel.sass(ins, "ISETP", ("EQ", "U32", "AND"), (pred[0], "PT", shared, active, "PT"),
                                reason="match.all: the matching lanes against the active mask"))
        return seq
    if mode == "all" and _emulated(ins, sel):
        uniform = _mask_in_reg(ins, sel)
        act = _activemask(ins, sel, uniform)
        op = sel.sass(ins, "MATCH", ("ANY",) + wide, (dest, _t(src)), tags=tags)
        seq = [i for i in ([op, act] if ins.attrs.copy else [act, op]) if i]
        if pred:            # all lanes matched: the lanes with this value are the active lanes
            active = _active_reg(sel, "ur" if sel._analyses.get(("active", sel.block.label, "ur")) else "r")
            seq.append(sel.sass(ins, "ISETP", ("EQ", "U32", "AND"), (pred[0], "PT", dest, active, "PT"),
                                reason="match.all: the matching lanes against the active mask"))
        return seq
    return [sel.sass(ins, "MATCH", (mode.upper(),) + wide, (dest,) + pred + (_t(src),), tags=tags)]


@rule("activemask")
def select_activemask(ins, sel):
    uniform = _activemask_uniform(ins, sel)
    return [sel.sass(ins, "VOTEU" if uniform else "VOTE", ("ANY",),
                     (_t(ins.operands[0]), "UPT" if uniform else "PT", "PT"))]


def _activemask_uniform(ins, sel) -> bool:
    """Does ptxas keep the active mask in a uniform register? When it is combined with a redux result
    (which lives in a uniform register: activemask_b32_with_redux), when every reader takes it as a
    uniform source operand (_takes_uniform_operand), and on sm_75 when it only feeds address arithmetic on
    uniform values (activemask_b32_uniform_use)."""
    reg = ins.operands[0]
    if type(reg) is not A.Reg:
        return False
    users = [i for b in sel.function.blocks for i in b.instrs if reg.name in uses(i)]
    if not users:
        return False
    # read in a divergent region entered after its own: per lane there (docs/findings/atomic.md "The value ptxas
    # aggregates as uniform (helper cg, stop 22)"; probes atomic/agg_value_activemask_*)
    regions, home = sel.am.active_set_regions, sel.block.label
    if any(R.entered_from(regions, home, sel.block_of(u)) for u in users):
        return False
    redux_regs = {r for b in sel.function.blocks for i in b.instrs if i.opcode == "redux" for r in defs(i)}
    # (from sm_90 a REDUX reading the mask as its member mask needs it in a vector register: `VOTE.ANY R; REDUX;
    # IADD3 R, R, UR` for the mask added to `__reduce_add_sync(__activemask(), v)`: tools/variations/
    # activemask_leader_redux.py, rows act/*/combined)
    if any(redux_regs & set(uses(u)) for u in users) and (sel.target.has("REDUX_MASK_UNREAD") or not any(
            u.opcode == "redux" and u.operands[-1] == reg for u in users)):
        return True
    # sm_80-89: a converged REDUX takes no member mask (phase 71 _drop_mask_only_activemask), so that reader does
    # not need the mask in a vector register; the others decide (`VOTEU.ANY; UBREV; UFLO.U32.SH` for the __ffs
    # leader beside `__reduce_add_sync(__activemask(), v)`; sm_90+ VOTE.ANY R: tools/variations/
    # activemask_redux_mask.py, docs/findings/warp.md "A redux.sync's member mask is no vector reader on sm_80-89
    # (helper nvsched35, stop 35)")
    if sel.target.has("REDUX_MASK_UNREAD"):
        users = [u for u in users if not redux_mask_only(u, reg)] or users
    if ins.opcode == "activemask" and sel.target.has("HELPER_MASK_COPIED") and \
            all(_copied_helper_mask(u, reg, sel) for u in users):
        return True
    uni = sel.uniformity

    def users_of(r: str) -> list:
        return [i for b in sel.function.blocks for i in b.instrs if r in uses(i)]

    # (on sm_75 a block that also emulates vote.all/match.all reads the mask there: nvcc/warp_vote)
    emulating = any(_reads_activemask(e, sel) is not None for e in sel.block.instrs)
    in_vector = functools.partial(_in_vector_register, sel)
    if not emulating and all(_takes_uniform_operand(u, reg.name, uni, users_of, in_vector) for u in users):
        return True
    if sel.target.has("NATIVE_VOTE_ALL"):
        return False
    return all(u.opcode in ("mul", "add", "shl", "mad", "cvt") and
               all(r == reg.name or uni.is_uniform(A.Reg(r)) for r in uses(u)) for u in users)


def _helper_masks(sel) -> dict:
    """Per out-of-line helper label: the member-mask operands of the warp ops whose slow path calls it
    (phase 72's `call_helper L` just before the op)."""
    table = sel._analyses.get("helper_masks")
    if table is None:
        table = sel._analyses["helper_masks"] = {}
        for b in sel.function.blocks:
            label = None
            for i in b.instrs:
                if i.opcode == "call_helper":
                    label = next((o.name for o in i.operands if type(o) is A.Sym), None)
                elif label is not None and warp_op(i) is not None:
                    table.setdefault(label, []).append((i, i.operands[-1]))
                    label = None
                elif i.opcode != "bra_conv":
                    label = None
    return table


def _copied_helper_mask(u, reg, sel) -> bool:
    """Is `u` a warp op reading `reg` only as its member mask, whose out-of-line helper another op also calls
    with another mask register? Each call site then copies its mask into the helper's argument register
    (`VOTEU.ANY UR4; BRA.DIV UR4; IMAD.U32 R4, RZ, RZ, UR4`), so the read is uniform; one read feeding every
    call site stays `VOTE.ANY R` (tools/variations/activemask_member_mask.py, docs/findings/warp.md "An active
    mask copied into a shared helper's argument is uniform (helper nvsched36, stop 36)")."""
    table = _helper_masks(sel)
    if sel.block_of(u) in table:
        return True         # the helper's own `WARPSYNC R` reads its argument register
    if warp_op(u) is None or u.operands[-1] != reg or reg in u.operands[:-1]:
        return False
    for sites in table.values():
        if any(i is u for i, _ in sites):
            return len(sites) > 1 and any(m != reg for _, m in sites)
    return False


# Integer ALU forms whose SASS takes a uniform register as a source operand (IADD3/LOP3/IMNMX/IMAD/ISETP
# R, R, UR; POPC/BREV R, UR): the active mask feeds them from a UR (probes/warp/activemask_into_*). With a
# per-lane register beside it the reader stays a vector instruction; with only uniform sources it becomes a
# uniform one (UIADD3, ULOP3, UPOPC: the leader lane `popc(~m & (m - 1))`) whose own readers must take a UR.
# A store, an address, a shift of the mask, a compare with an immediate or a member mask need it in a
# vector register (VOTE.ANY R).
_UR_SOURCE_OPS = frozenset({"add", "sub", "and", "or", "xor", "min", "max", "mul", "mad", "setp"})
_UR_UNARY_OPS = frozenset({"popc", "brev"})
_UNIFORM_CHAIN_OPS = frozenset({"add", "sub", "and", "or", "xor", "not", "popc", "brev"})


# Warp collectives whose result is warp-uniform but lives in a vector register (VOTE.ANY R of a ballot, SHFL.IDX,
# MATCH): beside the active mask's UR it is the reader's per-lane register operand (probes warp/
# activemask_with_ballot_*; docs/findings/warp.md "An active mask beside a ballot or broadcast is uniform
# (helper nvintrin32, stop 32)").
_VECTOR_RESULT_OPS = frozenset({"shfl", "match"})


def _in_vector_register(sel, o) -> bool:
    """Is the warp-uniform register `o` held in a vector register: a ballot (not one ISel makes VOTEU), a
    shuffle or match result, or a kernel parameter where a parameter is loaded with LDC (PARAM_LDC)?"""
    d = _defining(sel, o.name)
    if d is None:
        return False
    if d.opcode in _VECTOR_RESULT_OPS:
        return True
    if d.opcode == "vote" and ".ballot" in d.mods:
        asking = sel._analyses.setdefault("in_vector_asking", set())
        if id(d) in asking:          # two ballots read together: each asks about the other
            return True
        asking.add(id(d))
        try:
            return not _uniform_ballot(d, d.operands[1], sel)
        finally:
            asking.discard(id(d))
    return d.opcode == "ld" and ".param" in d.mods and sel.target.has("PARAM_LDC")


def _defining(sel, name: str):
    """The one instruction of the function that writes register `name` (None if none or several)."""
    found = sel.am.defuse.definitions(name)
    return found[0] if len(found) == 1 else None


def _takes_uniform_operand(ins, reg: str, uni, users_of, in_vector=None, depth: int = 0) -> bool:
    if ins.guard is not None or depth > 6:
        return False
    op = ins.opcode
    if op in _UR_UNARY_OPS:
        return True
    if op == "mul" and not ins.has(".lo") or op == "mad" and not ins.has(".lo"):
        return False
    srcs = ins.operands[1:]
    others = [o for o in srcs if not (type(o) is A.Reg and o.name == reg)]
    if op in _UR_SOURCE_OPS and any(type(o) is A.Reg and (uni.is_divergent_operand(o) or
                                                          in_vector is not None and in_vector(o)) for o in others):
        return True
    if op == "setp" and len(others) == 1 and type(others[0]) is A.Imm and others[0].value == 0:
        # a compare with 0 is `ISETP P, UR, RZ`: RZ is a register beside the UR (a compare with any other
        # immediate needs the value in a vector register: activemask_into_eq_full); probes warp/
        # ballot_uniform_pred_setp, activemask_into_ne_zero (docs/findings/warp.md "A ballot of a warp-uniform
        # predicate into uniform readers is VOTEU (helper nvatom25, stop 25)")
        return True
    if op not in _UNIFORM_CHAIN_OPS or ".pred" in ins.mods or any(type(o) not in (A.Reg, A.Imm) for o in srcs):
        return False
    out = defs(ins)
    readers = [u for r in out for u in users_of(r)]
    return len(out) == 1 and bool(readers) and all(
        _takes_uniform_operand(u, out[0], uni, users_of, in_vector, depth + 1) for u in readers)


@rule("redux")
def select_redux(ins, sel):
    op = ins.attrs.redop
    if not op:
        return None
    typ = next(m[1:] for m in ins.mods if m in (".u32", ".s32", ".b32", ".f32"))
    mods = REDUX_MODS[(op, typ)]
    f32 = typ == "f32"
    if f32:
        if ".abs" in ins.mods:
            mods = (mods[0] + "ABS",)
        mods += ("F32",) + (("NAN",) if ".NaN" in ins.mods else ())
    d, src = ins.operands[0], ins.operands[1]
    ur = sel.role(ins, "red", "ur")
    return [sel.sass(ins, redux_opcode(sel, op, typ), mods, (ur, _t(src)), tags=_mask_tags(ins, sel)),
            sel.sass(ins, "MOV", (), (_t(d), ur), reason="the warp's reduction, from the uniform register")]


@rule("elect")
def select_elect(ins, sel):
    from .fam_tcgen05 import elect_feeds_only_utc
    if elect_feeds_only_utc(ins, sel):
        return [sel.sass(ins, VIRTUAL, guard="", reason="only tcgen05 operations that drop the guard read the elected lane")]
    d = ins.operands[0]
    if type(d.first) is A.Sink:
        return [sel.sass(ins, "ELECT", (), (_t(d.second), "URZ", "PT"))]
    ur = sel.role(ins, "leader", "ur")
    return [sel.sass(ins, "ELECT", (), (_t(d.second), ur, "PT")),
            sel.sass(ins, "MOV", (), (_t(d.first), ur), reason="the elected lane, from the uniform register")]


@rule("shfl")
def select_shfl(ins, sel):
    mode = ins.attrs.mode
    if not mode:
        return None
    d = ins.operands[0]
    dest = (_t(d.second), _t(d.first)) if type(d) is A.Pair else ("PT", _t(d))
    return [sel.sass(ins, "SHFL", (mode.upper(),), dest + tuple(_t(o) for o in ins.operands[1:4]),
                     tags=_mask_tags(ins, sel))]


@rule("griddepcontrol")
def select_griddepcontrol(ins, sel):
    return [sel.sass(ins, _GRIDDEP[ins.attrs.action])]


@rule("nanosleep")
def select_nanosleep(ins, sel):
    mods = ("WARP",) if sel.target.has("NANOSLEEP_WARP") else ()
    return [sel.sass(ins, "NANOSLEEP", mods, (_t(ins.operands[0]),))]


@rule("call")
def select_call(ins, sel):
    """A call to one of ptxas's sm70 warp-sync routines is a warp-synchronous site (lowering/sm70_intrinsics.py)."""
    callee = next((o.name for o in ins.operands if type(o) is A.Sym), None)
    if callee is None or not is_sm70_warp_sync(callee):
        return None
    seq = generic.select(ins, sel)
    seq[0].tags = seq[0].tags | {"COOP_GROUP"}
    return seq
