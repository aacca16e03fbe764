"""ISel for memory barriers and fences (Ori 130 `membar` / `fence`, attributes from lowering/fam_fence.py).

Every PTX fence gets its own full expansion (never merged, docs/findings/phases.md R2); the sequences are
table rows (form x tier), probed in tests/corpus/probes/fence (docs/findings/fence.md):
- thread fences: `.sc` -> MEMBAR.SC.<S>, `.acq_rel` -> MEMBAR.ALL.<S> with S = CTA / GPU (cluster and gpu) /
  SYS; a scope wider than CTA adds ERRBAR (+ CGAERRBAR from sm_90) and a trailing CCTL.IVALL; `.release`
  is the acq_rel sequence without CCTL.IVALL, `.acquire` only CCTL.IVALL (nothing at CTA scope). On
  Blackwell these stay MEMBAR: ptxas emits none of the seed's FENCE_G/S/T for them.
- fence.proxy.async[.space] and the sync_restrict / async::generic release: MEMBAR.ALL.<S> + FENCE.VIEW.ASYNC.S,
  .global: FENCE.VIEW.ASYNC.G; the acquire sync_restrict forms and fence.mbarrier_init emit nothing.
- fence.proxy.tensormap::generic: release = the release thread fence at GPU scope at least (cta is promoted);
  acquire = DEPBAR + (CCTL.E.C.LDCU.IV.DEEP from sm_100) + UTMACCTL.IV on a uniform address, inside an R2UR
  retry loop (BRA.U.ANY) when the address is per-thread.
- fence.proxy.alias / membar.proxy.alias: sm_75 MEMBAR.SC.GPU; from sm_80 ptxas chooses MEMBAR.SC.SYS or
  .GPU at run time from a driver constant, then CCTL.IVALL.
"""
from __future__ import annotations

from pylower.lowering import ptx_ast as A

from .rules import operand_text, rule
from .sequences import rows, thread_fence

# tensormap release: the release thread fence with CTA scope promoted to GPU
_TENSORMAP_SCOPE = {"cta": "gpu", "cluster": "gpu", "gpu": "gpu", "sys": "sys"}
# (form, space) -> SASS mnemonics
_PROXY = {
    ("async", "shared::cluster"): ("MEMBAR.ALL.GPU", "FENCE.VIEW.ASYNC.S"),
    ("async", "shared::cta"): ("MEMBAR.ALL.CTA", "FENCE.VIEW.ASYNC.S"),
    ("async", "global"): ("FENCE.VIEW.ASYNC.G",),
    ("restrict", "shared::cta"): ("MEMBAR.ALL.CTA", "FENCE.VIEW.ASYNC.S"),      # release
    ("restrict", "shared::cluster"): (),                                      # acquire
    ("mbarrier_init", ""): (),
}
_TENSORMAP_ACQUIRE = ("DEPBAR", "CCTL.E.C.LDCU.IV.DEEP", "UTMACCTL.IV")
_DEPBAR_ALL = "{5,4,3,2,1,0}"
# fence.proxy.alias: with ALIAS_FENCE_RUNTIME the choice reads a driver constant: a c[0x0] word compared with
# 0 (SYS first in layout), or with ALIAS_FENCE_UNIFORM bit 0 of a uniform register (GPU first), loaded with
# LDCU where the target has UNIFORM_CONST_LOAD (else ULDC).
_ALIAS_UNIFORM = {True: ("uniform", "LDCU", "UR79", "c[0x0][0x2d8]"), False: ("uniform", "ULDC", "UR62", "c[0x0][0x18c]")}
_ALIAS_PREDICATE = ("predicate", "ISETP", "P0", "c[0x0][0x128]")


def _alias_shape(target) -> tuple:
    if not target.has("ALIAS_FENCE_RUNTIME"):
        return ("static",)
    if not target.has("ALIAS_FENCE_UNIFORM"):
        return _ALIAS_PREDICATE
    return _ALIAS_UNIFORM[target.has("UNIFORM_CONST_LOAD")]


@rule("membar", "fence")
def select_fence(ins, sel):
    form = ins.attrs.form
    if form == "thread":
        # (a fence a phase made, e.g. the release before a software mbarrier arrive, is ptxas's own: a MEMBAR)
        if ins.attrs.sem in ("acquire", "release") and ins.opcode == "fence" and ins.by == "build" \
                and not sel.target.has("ONE_WAY_THREAD_FENCE"):
            # ptxas 13.0.88 accepts these below sm_90 and emits one all-zero instruction word in their place
            # (nvdisasm: "Illegal instruction found"); no MEMBAR, no CCTL (docs/findings/fence.md section 1)
            return [sel.sass(ins, "NOP", reason="ptxas emits an undecodable all-zero word for a one-way fence "
                                                "below sm_90")]
        return thread_fence(sel, ins, ins.attrs.sem, ins.attrs.scope)
    if form == "alias":
        return _alias(ins, sel)
    if form == "tensormap":
        if ins.attrs.sem == "release":
            return thread_fence(sel, ins, "release", _TENSORMAP_SCOPE[ins.attrs.scope])
        return _tensormap_acquire(ins, sel)
    return rows(sel, ins, _PROXY[(form, ins.attrs.space)])


def _alias(ins, sel):
    shape = _alias_shape(sel.target)
    if shape[0] == "static":
        return rows(sel, ins, ("MEMBAR.SC.GPU", "CCTL.IVALL"))
    s = sel.sass
    first, second = sel.local_label(), sel.local_label()
    if shape[0] == "predicate":
        _, opc, pred, const = shape
        seq = [s(ins, opc, ("EQ", "U32", "AND"), (pred, "PT", "RZ", const, "PT")),
               s(ins, "BRA", (), (f"`({first})",), guard=f"@!{pred}"),
               s(ins, "MEMBAR", ("SC", "SYS")),
               s(ins, "BRA", (), (f"`({second})",)),
               s(ins, "MEMBAR", ("SC", "GPU")),
               s(ins, "CCTL", ("IVALL",))]
        seq[4].label, seq[5].label = first, second
        return seq
    _, opc, ureg, const = shape
    seq = [s(ins, opc, (), (ureg, const)),
           s(ins, "UP2UR", ("B3",), (ureg, "UPR", ureg, "0xff")),
           s(ins, "ULOP3", ("LUT",), ("UP0", "URZ", ureg, "0x1", "URZ", "0xc0", "!UPT")),
           s(ins, "BRA", ("U",), ("!UP0", f"`({first})")),
           s(ins, "MEMBAR", ("SC", "GPU")),
           s(ins, "BRA", ("U",), ("UP0", f"`({second})")),
           s(ins, "MEMBAR", ("SC", "SYS")),
           s(ins, "CCTL", ("IVALL",)),
           s(ins, "UR2UP", (), ("UPR", f"{ureg}.B3"))]
    seq[6].label, seq[7].label = first, second
    return seq


def _tensormap_acquire(ins, sel):
    addr = ins.operands[0]
    regs = [o for o in addr.items if type(o) is A.Reg]
    per_thread = any(sel.uniformity.is_divergent_operand(r) for r in regs)
    # the address is read into a uniform register: UR<addr>
    ur_reg = sel.role(ins, "addr", "ur")
    ur = f"[{ur_reg}]"
    body = rows(sel, ins, _TENSORMAP_ACQUIRE, {"DEPBAR": (_DEPBAR_ALL,), "CCTL": (ur,), "UTMACCTL": (ur,)})
    if not per_thread:
        src = operand_text(regs[0]) if regs else operand_text(addr.items[0]) if addr.items else "RZ"
        return [s_(ins, "R2UR", (), (ur_reg, src), reason="the tensor map's address in a uniform register")
                for s_ in (sel.sass,)] + body
    # retry loop: each pass takes one lane's address (R2UR under P1), the lanes that matched leave
    s = sel.sass
    loop = sel.local_label()
    reg = operand_text(regs[0])
    head = [s(ins, "PLOP3", ("LUT",), ("P1", "PT", "PT", "PT", "PT", "0x80", "0x0")),
            s(ins, "PLOP3", ("LUT",), ("P0", "PT", "P0", "P1", "PT", "0xa2", "0x0")),
            s(ins, "R2UR", (), ("P0", ur_reg, reg), guard="@P1"),
            s(ins, "PLOP3", ("LUT",), ("P1", "PT", "P0", "PT", "PT", "0x80", "0x0"), guard="@P1"),
            s(ins, "PLOP3", ("LUT",), ("P0", "PT", "PT", "PT", "PT", "0x80", "0x0"))]
    head[1].label = loop
    return head + body + [s(ins, "BRA", ("U", "ANY"), (f"`({loop})",), guard="@P1")]
