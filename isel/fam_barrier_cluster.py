"""ISel for barrier.cluster.{arrive,wait} (Ori 96 with `!cluster=arrive|wait`, `!order=...`).

ptxas cannot know at compile time whether a kernel without `.explicitcluster` is launched as a cluster, so
it tests a constant-bank flag at run time (probes barrier_cluster_*; /tmp-probed p_explicit/p_reqn):
    flag == 1 ? <cluster path> : <fallback>
cluster path: arrive = [MEMBAR.ALL.GPU ERRBAR CGAERRBAR] UCGABAR_ARV (the fences for .release, the default),
              wait   = UCGABAR_WAIT CCTL.IVALL;
fallback:     arrive = nothing, wait = BAR.SYNC.DEFER_BLOCKING 0x0 (a CTA is its own cluster).
With `.explicitcluster` only the cluster path is emitted, and the arrive has no COOP_GROUP entry.
In divergent code every path starts with WARPSYNC.ALL (barrier_cluster_arrive_divergent); the BSSY/BSYNC
pair around the region is phase 72's.
"""
from __future__ import annotations

from pylower.lowering import ptx_ast as A

from .rules import guard_text
from .sequences import thread_fence

# UNIFORM_CONST_LOAD -> (flag load, flag test, branch-if-not-cluster); operands use {target}
_FLAG_TEST = {
    True: (("LDCU", (), ("{flag}", "c[0x0][0x36c]")),
           ("UISETP", ("EQ", "U32", "AND"), ("{is_cluster}", "UPT", "{flag}", "0x1", "UPT")),
           ("BRA", ("U",), ("!{is_cluster}", "{target}"), "")),
    False: (("LDC", (), ("{flag}", "c[0x0][0x140]")),
            ("ISETP", ("EQ", "U32", "AND"), ("{is_cluster}", "PT", "{flag}", "0x1", "PT")),
            ("BRA", (), ("{target}",), "@!{is_cluster}")),
}
# (operation, memory order) -> cluster-path sequence: (opcode, mods, operands, tags); a .release arrive is
# first the release fence at cluster scope (isel/sequences.py)
_CLUSTER_PATH = {
    ("arrive", "release"): (("UCGABAR_ARV", (), (), ("COOP_GROUP",)),),
    ("arrive", "relaxed"): (("UCGABAR_ARV", (), (), ("COOP_GROUP",)),),
    ("wait", "acquire"): (("UCGABAR_WAIT", (), (), ()), ("CCTL", ("IVALL",), (), ())),
}
# operation -> fallback sequence for a non-cluster launch
_FALLBACK = {
    "arrive": (),
    "wait": (("BAR", ("SYNC", "DEFER_BLOCKING"), ("0x0",), ("BARRIER_ID",)),),
}


def explicit_cluster(fn) -> bool:
    return any(d.name == ".explicitcluster" for d in fn.decl.perf)


def _diverged(ins, sel) -> bool:
    uni = sel.uniformity
    return sel.block.label in uni.divergent_blocks or (ins.guard is not None and uni.is_divergent_operand(ins.guard))


def select_cluster(ins, sel):
    op, order = ins.attrs.cluster, ins.attrs.order
    explicit = explicit_cluster(sel.function)
    diverged = _diverged(ins, sel)

    def path(rows, release=False):
        tags_ok = (lambda t: t != "COOP_GROUP") if explicit else (lambda t: True)
        head = [sel.sass(ins, "WARPSYNC", ("ALL",), guard="")] if diverged else []
        if release:
            head += thread_fence(sel, ins, "release", "cluster", guard="")
        return head + [sel.sass(ins, opc, mods, ops, tags=tuple(filter(tags_ok, tags)), guard="")
                       for opc, mods, ops, tags in rows]

    out = []
    join = sel.local_label() if ins.guard is not None or not explicit else None
    if ins.guard is not None:                      # a guarded barrier skips the whole sequence
        neg = ins.guard.inner if type(ins.guard) is A.Not else A.Not(ins.guard)
        out.append(sel.sass(ins, "BRA", (), (f"`({join})",), guard=guard_text(neg)))
    if explicit:
        out += path(_CLUSTER_PATH[(op, order)], order == "release")
    else:
        fallback = path(_FALLBACK[op])
        other = sel.local_label() if fallback else join
        uniform = sel.target.has("UNIFORM_CONST_LOAD")
        rows = _FLAG_TEST[uniform]
        names = {"target": f"`({other})", "flag": sel.role(ins, "flag", "ur" if uniform else "r"),
                 "is_cluster": sel.role(ins, "is_cluster", "up" if uniform else "p")}
        for opc, mods, ops, *g in rows:
            ops = tuple(o.format(**names) for o in ops)
            out.append(sel.sass(ins, opc, mods, ops, guard=g[0].format(**names) if g else ""))
        out += path(_CLUSTER_PATH[(op, order)], order == "release")
        if fallback:
            out.append(sel.sass(ins, "BRA", (), (f"`({join})",), guard=""))
            fallback[0].label = other
            out += fallback
    if join is not None:                           # the label needs an instruction to sit on
        out.append(sel.sass(ins, "NOP", guard=""))
        out[-1].label = join
    return out
