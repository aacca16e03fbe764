"""Provenance of SASS instructions: which PTX line, which phase (or ISel) and why.

Every SASS instruction keeps the PTX line of the instruction it was selected from; an instruction a phase
inserted carries the line of the PTX instruction that caused it (the phases set `line` when they create
one). `origin` is "<number> <PhaseName>" for an Ori instruction a phase made or rewrote (its `by`), "isel"
for what instruction selection adds around a PTX instruction (the extra instructions of a sequence, block
placement); the plain selection of a PTX instruction has no origin. `reason` is one line: what the phase said
(`ori.Instr.reason`), what the ISel rule said (`sel.sass(..., reason=)`), or the default of this module's
table for the pseudo-op, completed with the cause of divergence where one is known ("branch at k.ptx:38 on
%p1, from %tid.x").
"""
from __future__ import annotations

from pylower.lowering import ori
from pylower.lowering import ptx_ast as A
from pylower.lowering import ptx_printer as P
from pylower.lowering.ops import is_cta_barrier

_PHASE_NUMBERS: dict[str, object] = {}          # phase name -> the registry's phase


def phase_origin(by: str) -> str:
    """'LateExpandSyncInstructions' -> '72 LateExpandSyncInstructions' (the registry's number)."""
    if not _PHASE_NUMBERS:
        from pylower.passes.registry import PHASES
        for p in PHASES:
            _PHASE_NUMBERS[p.name] = p
    n = _PHASE_NUMBERS.get(by)
    return f"{n.number} {by}" if n else by


def phase_description(by: str) -> str:
    """(read from the phase only when asked: a deferred phase's module is imported for it, passes/registry.py)"""
    phase_origin(by)
    n = _PHASE_NUMBERS.get(by)
    return n.description if n else ""


# Default reasons of the phases' pseudo-ops (what each one is for); "{why}" is the divergence cause of the
# block it sits in, when there is one.
PSEUDO_REASON = {
    "warpsync": "re-converges the lanes of the member mask before the warp-synchronous instruction{why}",
    "warpsync.cta": "WARPSYNC before a CTA barrier{where}{why}",
    "bssy": "opens the convergence region of a divergent branch{why}",
    "bsync": "re-converges the warp at the end of the divergent region{why}",
    "bmov": "initialises a convergence barrier register",
    "bmov.clear": "clears the convergence barrier register before BSSY",
    "bra_div": "jumps to the out-of-line collective when the warp is diverged{why}",
    "bra_conv": "takes the fast path when the warp is converged{why}",
    "call_helper": "slow path: calls the helper with the warp diverged{why}",
    "ret_helper": "returns from the slow-path helper",
    "bra_back": "returns from the out-of-line collective",
    "endcollective": "ends the collective block",
    "looptest": "tests the warp before a divergent back edge that may spin{why}",
    "membermask": "checks the member mask of the warp-synchronous instruction",
    "bra": "branch",
}


def divergence_cause(am, block_label: str, file: str) -> str:
    """'branch at k.ptx:38 on %p1, from %tid.x' for a block under divergent control (the innermost divergent
    region's branch, and the divergent source its predicate is computed from), else ''."""
    if am is None:
        return ""
    try:
        inner = am.innermost.get(block_label)
    except Exception:                       # analyses that need the phases' context
        return ""
    if inner is None:                       # the block opening or joining a region
        inner = am.region_edges.get(block_label)
    if inner is None:
        return ""
    head = am.blocks.get(inner.bssy_block)
    if head is None or not head.instrs:
        return ""
    br = next((i for i in reversed(head.instrs) if i.opcode in ("bra", "brx") and i.guard is not None), None)
    if br is None:
        return f"{inner.kind} region from {file}:{head.instrs[-1].line}" if head.instrs[-1].line else ""
    g = br.guard.inner if type(br.guard) is A.Not else br.guard
    src = divergent_source(am, g)
    return f"branch at {file}:{br.line} on {P.operand(g)}" + (f", from {src}" if src else "")


def divergent_source(am, reg, depth: int = 12) -> str:
    """The thread-varying special register (or per-lane instruction) a divergent value is computed from."""
    du = am.defuse
    seen: set[str] = set()
    work = [reg]
    while work and depth:
        depth -= 1
        r = work.pop(0)
        if type(r) is not A.Reg or r.name in seen:
            continue
        seen.add(r.name)
        if r.name.startswith(_THREAD_VARYING):
            return r.name
        d = du.first_definition(r.name, _PER_LANE)
        if d is not None:
            return f"{d.opcode} at line {d.line}"
        # breadth first: only the next `depth` entries of the queue are ever looked at
        for d in du.definitions(r.name):
            if len(work) >= depth:
                break
            work.extend(A.Reg(u) for u in du.uses(d))
    return ""


_THREAD_VARYING = ("%tid", "%laneid", "%lanemask", "%clock", "%warpid", "%smid", "%globaltimer")
_PER_LANE = ("atom", "shfl", "match", "elect")


def _regs(o):
    t = type(o)
    if t is A.Reg:
        return [o]
    if t in (A.Not, A.Neg):
        return _regs(o.inner)
    if t in (A.Addr, A.Vec, A.Paren):
        return [r for i in o.items for r in _regs(i)]
    return []


def pseudo_reason(ins: ori.Instr, sel, file: str, nxt: ori.Instr | None) -> str:
    key = ins.opcode
    if key == "warpsync" and nxt is not None and is_cta_barrier(nxt) and not ins.mods:
        key = "warpsync.cta"
    elif key == "bmov" and ".clear" in ins.mods:
        key = "bmov.clear"
    text = PSEUDO_REASON.get(key)
    if text is None:
        return phase_description(ins.by)
    why = divergence_cause(sel.am, sel.block.label, file) if sel.block is not None else ""
    divergent = sel.block is not None and sel.block.label in getattr(sel.uniformity, "divergent_blocks", ())
    where = " in a divergent region" if divergent else " (the warp may be diverged here)"
    return text.format(why=f" ({why})" if why else "", where=where)


def annotate(seq: list, ins: ori.Instr, sel, file: str, nxt: ori.Instr | None = None) -> None:
    """Set line, origin and reason on the SASS instructions selected for `ins`."""
    line = ins.line or sel.function.decl.line
    if ins.by not in ("build", "") and ins.by != "BlockLayout":
        origin = phase_origin(ins.by)
        if getattr(ins, "reason", ""):
            reason = ins.reason
        elif ins.opcode in ori.PSEUDO_OPCODES:
            reason = pseudo_reason(ins, sel, file, nxt)
        elif getattr(ins.attrs, "copy", 0):
            reason = f"the copy of `{P.instruction(ins)}` the slow path runs with the warp re-converged"
        else:
            reason = f"{phase_description(ins.by) or ins.by}: `{P.instruction(ins)}`"
        for s in seq:
            s.line = s.line or line
            s.origin = s.origin or origin
            s.reason = s.reason or reason
        return
    if ins.by == "BlockLayout":
        for s in seq:
            s.line = s.line or line
            s.origin = s.origin or "isel"
            s.reason = s.reason or "block placement: the fall-through block is no longer the next one"
        return
    # the one instruction of a sequence the rule gave no reason is the selection of `ins` itself; when
    # several have none, each is a part of the sequence
    plain = [s for s in seq if s.opcode and not s.reason]
    for s in seq:
        s.line = s.line or line
        if s.reason or len(plain) > 1:
            s.origin = s.origin or "isel"
            s.reason = s.reason or f"part of the SASS sequence of `{P.instruction(ins)}`"
