"""ISel for mbarrier pseudo-ops (Ori 315) after phase 42 (passes/p42_expand_mbarrier.py): SYNCS.* from
sm_90, the software forms (ATOMS / LDS / STS) on sm_80-89. docs/findings/mbarrier.md section 2.

Every SASS instruction that implements an mbarrier op carries the tag MBARRIER (one
EIATTR_MBARRIER_INSTR_OFFSETS record; kinds as the classifier's, arrive.expect_tx is not recorded);
inits also carry MBARRIER_INIT / MBARRIER_INIT_LOOP for EIATTR_NUM_MBARRIERS (sass/eiattr.py).
"""
from __future__ import annotations

from pylower.lowering import ptx_ast as A
from pylower.sass.instr import VIRTUAL

from .rules import block_def, operand_text, rule
from .sequences import bssy, bsync

_REC = ("MBARRIER",)
_WW = ("INT_WARP_WIDE",)

# SYNCS.ARRIVE.TRANS64[.RED][.TMASK][.OPTOUT] then the arrival count: one (A1T0) or the count operand
# (ART0); arrive.expect_tx has neither
_ARRIVE_SUFFIX = {False: "A1T0", True: "ART0"}


def _t(o) -> str:
    return operand_text(o)


def _addr(ins) -> str:
    return next((_t(o) for o in ins.operands if type(o) is A.Addr), "[URZ]")


def _init_tags(ins):
    return _REC + (("MBARRIER_INIT_LOOP",) if ins.attrs.inloop else ("MBARRIER_INIT",))


def _dst(ins) -> str:
    d = ins.operands[0]
    return "RZ" if type(d) is A.Sink else _t(d)


# ---------------------------------------------------------------- SYNCS (sm_90+)

# Compares ptxas turns around (ISETP.NE for setp.eq, ISETP.GE / GT for setp.lt / le, FSETP.GEU for setp.lt.f32;
# .lo/.ls/.hi/.hs and .ne/.ge/.gt are kept), so that a guard on their result reads the inverted predicate
# (probes/mbarrier/init_vote_*; docs/findings/mbarrier.md "The vote of a predicated init").
INVERTED_COMPARES = frozenset((".eq", ".lt", ".le"))


def guard_vote(ins, sel) -> tuple[str, str, str]:
    """The warp vote of a predicated init or tensor load (VOTEU twice, then the uniform-datapath op under the
    uniform predicate; isel/fam_async_copy._g2s_load): on the
    predicate as ptxas computes it, `VOTEU.ANY UP0, P` + `@UP0` when the init runs where it is true,
    `VOTEU.ALL UP0, P` + `@!UP0` when it runs where it is false."""
    g = ins.guard
    if g is None:
        return "ALL", "PT", "@!UP0"
    neg = type(g) is A.Not
    reg = g.inner if neg else g
    setp = block_def(reg, sel, ins)
    if setp is not None and setp.opcode == "setp" and not INVERTED_COMPARES.isdisjoint(setp.mods):
        neg = not neg
    if neg:             # the init runs where ptxas's predicate is false: vote on the guard's negation
        return "ALL", operand_text(reg) if type(g) is A.Not else "!" + operand_text(g), "@!UP0"
    return "ANY", operand_text(g), "@UP0"


def _syncs_init(ins, sel):
    a, s = ins.attrs, sel.sass
    addr, cnt = _addr(ins), _t(ins.operands[1])
    tags = _init_tags(ins)
    if a.perthread and sel.target.has("MBARRIER_PERTHREAD_STS"):
        # a plain store under the init's own guard, then the fence and the invalidation unguarded, once per
        # block's run of such inits (docs/findings/mbarrier.md "A per-thread mbarrier.init address is an
        # STS.64 on sm_100+ (helper async31, stop 31)")
        sts = [s(ins, "STS", ("64",), (addr, cnt), tags=tags)]
        if a.pair_later:
            return sts
        return sts + [s(ins, "FENCE", ("VIEW", "ASYNC", "S"), guard=""), s(ins, "SYNCS", ("CCTL", "IVALL"), guard="")]
    if a.vote:
        vote, g, guard = guard_vote(ins, sel)
        fence = [s(ins, "FENCE", ("VIEW", "ASYNC", "S"), guard="")] if a.fence or a.perthread else []
        return [s(ins, "VOTEU", (vote,), ("UP0", g), tags=_WW, guard=""),
                s(ins, "VOTEU", (vote,), ("UP0", g), tags=_WW, guard="")] + fence + [
                s(ins, "SYNCS", ("EXCH", "64"), ("URZ", addr, cnt), tags=tags, guard=guard)]
    if a.perthread and not (a.inloop or a.nopred):      # in a loop or a kept region: the plain EXCH below
        loop = sel.local_label()
        ur = sel.role(ins, "addr", "ur")
        head = s(ins, "R2UR", (), ("P0", ur, addr))         # P0: lanes whose address was not this pass's
        head.label = loop
        return [s(ins, "FENCE", ("VIEW", "ASYNC", "S")), head,
                s(ins, "SYNCS", ("EXCH", "64"), ("URZ", f"[{ur}]", cnt), tags=tags),
                s(ins, "BRA", ("U", "ANY"), (f"`({loop})",), guard="@P0")]
    fence = [s(ins, "FENCE", ("VIEW", "ASYNC", "S"))] if a.fence else []
    return fence + [s(ins, "SYNCS", ("EXCH", "64"), ("URZ", addr, cnt), tags=tags)]


def _syncs_arrive(ins, sel):
    """SYNCS.ARRIVE.TRANS64[.RED][.TMASK][.OPTOUT].<count>. The state is returned only when it is used: an
    arrive whose state is dead (or a sink) through a generic address is the no-return reduction form RED,
    like a remote arrive, and .noComplete's TMASK (the state with the pending mask) is only there when the
    state is used (probes/mbarrier/arrive_generic_unused*, arrive_nocomplete_unused*)."""
    a = ins.attrs
    ops = ins.operands
    used = type(ops[0]) is not A.Sink and sel.result_used(ins, ops[0])
    remote = a.remote or a.space == "generic" and not used
    mods = ["ARRIVE", "TRANS64"]
    if remote:
        mods.append("RED")
    if a.nocomplete and used:
        mods.append("TMASK")
    if a.op == "arrive_drop":
        mods.append("OPTOUT")
    if a.expect_tx:
        return [sel.sass(ins, "SYNCS", mods, (_dst(ins), _addr(ins), _t(ops[2])))]
    counted = bool(a.count) and not a.count1
    mods.append(_ARRIVE_SUFFIX[counted])
    cnt = _t(ops[2]) if counted else "RZ"
    return [sel.sass(ins, "SYNCS", mods, ("RZ" if remote else _dst(ins), _addr(ins), cnt), tags=_REC)]


# expect_tx / complete_tx: a reduction on the tx-count field
_TX = {"expect_tx": "A0TR", "complete_tx": "A0TX"}


def _syncs_tx(ins, sel):
    return [sel.sass(ins, "SYNCS", ("ARRIVE", "TRANS64", "RED", _TX[ins.attrs.op]),
                     ("RZ", _addr(ins), _t(ins.operands[1])), tags=_REC)]


def _acquire_cluster(ins) -> bool:
    return ins.attrs.sem == "acquire" and ins.attrs.scope == "cluster"


def _syncs_wait(ins, sel):
    a, s = ins.attrs, sel.sass
    p, addr, st = _t(ins.operands[0]), _addr(ins), _t(ins.operands[2])
    if a.op == "test_wait":
        out = [s(ins, "SYNCS", ("PHASECHK", "TRANS64"), (p, addr, st), tags=_REC)]
    else:
        out = [s(ins, "SYNCS", ("PHASECHK", "TRANS64", "TRYWAIT"), (p, addr, st), tags=_REC)]
        if a.hint and not a.nohint:
            out += [s(ins, "NANOSLEEP", ("SYNCS",), (_t(ins.operands[3]),), guard=f"@!{p}"),
                    s(ins, "SYNCS", ("PHASECHK", "TRANS64"), (p, addr, st), guard=f"@!{p}")]
    if _acquire_cluster(ins):
        out.append(s(ins, "CCTL", ("IVALL",)))
    return out


def _syncs_cp_async_arrive(ins, sel):
    addr = _addr(ins)
    if ins.attrs.noinc:
        return [sel.sass(ins, "ARRIVES", ("LDGSTSBAR", "64", "ARVCNT"), (addr,), tags=_REC)]
    return [sel.sass(ins, "SYNCS", ("ARRIVE", "TRANS64", "RED", "A0T1"), ("RZ", addr, "RZ")),
            sel.sass(ins, "ARRIVES", ("LDGSTSBAR", "64", "TRANSCNT"), (addr,), tags=_REC)]


_SYNCS = {"init": _syncs_init, "cp_async_arrive": _syncs_cp_async_arrive, "inval": lambda ins, sel: [sel.sass(ins, "SYNCS", ("CCTL", "IV"), (_addr(ins),), tags=_REC)],
          "arrive": _syncs_arrive, "arrive_drop": _syncs_arrive, "expect_tx": _syncs_tx, "complete_tx": _syncs_tx,
          "test_wait": _syncs_wait, "try_wait": _syncs_wait}

# ---------------------------------------------------------------- software (sm_80-89)

# address space -> (atomic opcode, leading, trailing modifiers)
_SW_ATOM = {"shared": ("ATOMS", (), ()), "generic": ("ATOM", ("E",), ("STRONG", "SM"))}


def _sw_arrive(ins, sel):
    a, s = ins.attrs, sel.sass
    opc, pre, post = _SW_ATOM["generic" if a.space == "generic" else "shared"]
    addr = _addr(ins)
    drop = a.op == "arrive_drop"
    if a.nocomplete:
        # warp-aggregated add of 2*count to the pending field by the leader, the old state broadcast back
        # when it is used (probes/mbarrier/arrive_nocomplete_unused)
        mask, n, leader, lane = (sel.role(ins, "mask", "ur"), sel.role(ins, "n"), sel.role(ins, "leader"),
                                 sel.role(ins, "lane"))
        out = [s(ins, "VOTEU", ("ANY",), (mask, "UPT", "PT"), tags=_WW),
               s(ins, "FLO", ("U32",), (leader, mask), reason="the leader: the lowest active lane"),
               s(ins, "S2R", (), (lane, "SR_LANEID")),
               s(ins, "ISETP", ("EQ", "U32", "AND"), ("P0", "PT", lane, leader, "PT")),
               s(ins, "POPC", (), (n, mask), reason="the arrivals of the warp")]
        if drop:
            out.append(s(ins, opc, pre + ("ADD",) + post, ("RZ", addr, n), guard="@P0"))
        old = _dst(ins)
        out += [s(ins, opc, pre + ("ADD",) + post, (old, addr, n), guard="@P0", tags=_REC)]
        if old != "RZ" and sel.result_used(ins, ins.operands[0]):
            out.append(s(ins, "SHFL", ("IDX",), ("PT", old, old, leader, "0x1f"), tags=_WW))
        return out
    out = []
    if drop:
        out.append(s(ins, opc, pre + ("POPC", "INC", "32") + post, ("RZ", addr)))
    out.append(s(ins, opc, pre + ("ARRIVE", "64") + post, (_dst(ins), addr), tags=_REC))
    return out


def _sw_init(ins, sel):
    init = sel.role(ins, "init")
    count = operand_text(ins.operands[1]) if len(ins.operands) > 1 else "0x1"
    return [sel.sass(ins, "MOV", (), (init, count), reason="the initial pending count (the phase word is zero)"),
            sel.sass(ins, "STS", ("64",), (_addr(ins), init), tags=_init_tags(ins))]


def _sw_test_wait(ins, sel):
    phase = sel.role(ins, "phase")
    return [sel.sass(ins, "LDS", (), (phase, _addr(ins)), tags=_REC),
            sel.sass(ins, "LOP3", ("LUT",), (_t(ins.operands[0]), "PT", phase, _t(ins.operands[2]), "RZ", "0x28", "!PT"))]


def _sw_cp_async_arrive(ins, sel):
    """The pending count goes up by one per warp (leader's ATOMS.ADD after a VOTE.ALL), unless .noinc."""
    s, addr = sel.sass, _addr(ins)
    mask = _warp_mask(sel)
    if ins.attrs.part == "vote":
        vote = [s(ins, "VOTE", ("ALL",), (mask, "PT", "PT"), tags=_WW)]
        arrive = _voted_arrive(ins, sel)
        if arrive is None or not _per_thread_address(arrive, sel):
            return vote
        # the R2UR loop's pair opens right after the vote (and moves with it), ahead of the copies the vote was
        # hoisted over (`VOTE.ALL BSSY BAR.SYNC LDGSTS ATOMS.ADD ARRIVES BSYNC`)
        join = sel._analyses[("arrives_join", id(arrive))] = sel.local_label()
        return vote + bssy(sel, ins, 0, f"`({join})", sel.target.has("BSSY_RECONVERGENT"))
    out = [] if ins.attrs.noinc else [s(ins, "ATOMS", ("ADD", "S32"), ("RZ", addr, mask))]
    if _per_thread_address(ins, sel):
        return _arrives_waterfall(ins, sel, out, next(o for o in ins.operands if type(o) is A.Addr))
    return out + [s(ins, "ARRIVES", ("LDGSTSBAR", "64"), (addr,), tags=_REC)]


def _voted_arrive(vote, sel):
    """The arrive whose vote half `vote` is: the block's next cp.async.mbarrier.arrive (phase 42 puts the vote
    ahead of the copies just before it)."""
    if sel.block is None:
        return None
    k = sel.position(vote)
    return next((i for i in sel.block.instrs[k + 1:] if i.opcode == vote.opcode
                 and i.attrs.op == "cp_async_arrive" and i.attrs.part != "vote"), None)


def _per_thread_address(ins, sel) -> bool:
    a = next((o for o in ins.operands if type(o) is A.Addr), None)
    return a is not None and sel.uniformity.is_divergent_operand(a)


def _arrives_waterfall(ins, sel, head, a):
    """ARRIVES.LDGSTSBAR reads its mbarrier address from a uniform register: a per-thread address (one the
    uniformity analysis finds divergent) is taken one value per pass (`@P0 R2UR P1, UR, R`; `@!P1 ARRIVES [UR]`;
    `@P1 BRA` back), the loop with the leader's ATOMS.ADD before it in a convergence pair of its own
    (docs/findings/mbarrier.md "A per-thread cp.async.mbarrier.arrive address (helper nvreg39, stop 39)")."""
    s = sel.sass
    join = sel._analyses.get(("arrives_join", id(ins)))
    opening = [] if join is not None else None          # the vote half opened the pair
    join, loop = join or sel.local_label(), sel.local_label()
    if opening is None:
        opening = bssy(sel, ins, 0, f"`({join})", sel.target.has("BSSY_RECONVERGENT"))
    ur = sel.role(ins, "addr", "ur")
    reg = next((operand_text(i) for i in a.items if type(i) is A.Reg), "RZ")
    off = f"+{hex(a.offset)}" if getattr(a, "offset", 0) else ""
    r2ur = s(ins, "R2UR", (), ("P1", ur, reg), guard="@P0")
    r2ur.label = loop
    tail = bsync(sel, ins, 0, sel.target.has("BSSY_RECONVERGENT"))
    tail.label = join
    return opening + head + [
             s(ins, "PLOP3", ("LUT",), ("P0", "PT", "PT", "PT", "PT", "0x80", "0x0")), r2ur,
             s(ins, "ARRIVES", ("LDGSTSBAR", "64"), (f"[{ur}{off}]",), tags=_REC, guard="@!P1"),
             s(ins, "PLOP3", ("LUT",), ("P0", "PT", "P1", "PT", "PT", "0x80", "0x0"), guard="@P0"),
             s(ins, "BRA", (), (f"`({loop})",), ("DIVERGENT_BRANCH",), guard="@P1"), tail]


def _warp_mask(sel) -> str:
    """The VOTE.ALL result the cp.async arrive's two parts share (one per block)."""
    key = ("cp_async_mask", sel.block.label)
    t = sel._analyses.get(key)
    if t is None:
        t = sel._analyses[key] = sel.temps.new("r")
    return t


_SW = {"init": _sw_init, "cp_async_arrive": _sw_cp_async_arrive, "inval": lambda ins, sel: [sel.sass(ins, VIRTUAL, (), (), tags=_REC)],
       "arrive": _sw_arrive, "arrive_drop": _sw_arrive, "test_wait": _sw_test_wait}
_IMPLS = {"syncs": _SYNCS, "sw": _SW}


def _pending_count(ins, sel):
    # the pending count is a bit field of the state: plain ALU
    return [sel.sass(ins, "SHF", ("R", "U64"), (_t(ins.operands[0]), _t(ins.operands[1]), "0x1", "RZ"))]


@rule("mbarrier")
def select_mbarrier(ins, sel):
    op = ins.attrs.op
    if op == "pending_count":
        return _pending_count(ins, sel)
    table = _IMPLS.get(ins.attrs.impl)
    if table is None or op not in table:
        return None
    return table[op](ins, sel)
