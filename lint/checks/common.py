"""Helpers the checks share: instruction text, findings and notes, and why a block runs only for some threads."""
from __future__ import annotations

from pylower.lowering import ptx_printer as P

from .. import threads as T
from ..finding import Finding, Note


def text(ins) -> str:
    return P.instruction(ins).rstrip(";").strip()


def finding(m, f, check: str, ins, message: str, notes=()) -> Finding:
    return Finding(check, m.file, ins.line, m.col(ins), message, tuple(n for n in notes if n is not None),
                   f.fn.name)


def note(m, ins, message: str) -> Note | None:
    if ins is None or not ins.line:
        return None
    return Note(ins.line, m.col(ins), message)


def why(m, f, who, level) -> list:
    """Notes on the decision that makes code run only for some threads: the branch (or guard, or early
    exit) and where its condition comes from."""
    kind = T.NAMES[level]
    if who is None:
        return []
    if isinstance(who, str):                      # a branch block
        br = f.branch_instr(who)
        cond = br.guard if br.guard is not None else (f.regs.sources(br)[0] if f.regs.sources(br) else None)
        src, origin = f.origin(cond, level, br) if cond is not None else ("", None)
        frm = f" (from {src})" if src else ""
        if br.opcode in ("ret", "exit") or _exits_early(f, who, br):
            msg = (f"an early exit: the threads where `{P.operand(br.guard)}` holds leave the kernel here; "
                   f"`{P.operand(cond)}` is {kind}{frm}")
        elif br.opcode == "brx":
            msg = f"indirect branch on `{P.operand(cond)}`, which is {kind}{frm}"
        else:
            msg = f"branch on `{P.operand(cond)}`, which is {kind}{frm}"
        notes = [note(m, br, msg)]
    else:                                          # the instruction's own guard
        cond = who.guard
        src, origin = f.origin(cond, level, who)
        frm = f" (from {src})" if src else ""
        notes = []
    if origin is not None and origin.line and (not notes or notes[0] is None or origin.line != notes[0].line):
        notes.append(note(m, origin, f"the {kind} value comes from here"))
    return notes


def guard_text(f, ins, level) -> str:
    src, _ = f.origin(ins.guard, level, ins)
    return f"`{P.operand(ins.guard)}`" + (f" (from {src})" if src else "")


def _exits_early(f, label, br) -> bool:
    """Does the branch jump to code that only returns (an early exit)?"""
    target = next((o.name for o in br.operands if type(o).__name__ == "Sym"), None)
    seen = set()
    while target is not None and target not in seen and target in f.blocks:
        seen.add(target)
        b = f.blocks[target]
        ops = [i.opcode for i in b.instrs]
        if ops and ops[-1] in ("ret", "exit") and all(o in ("ret", "exit", "bra") for o in ops):
            return b.instrs[-1].guard is None
        if ops or len(b.succs) != 1:
            return False
        target = b.succs[0]
    return False
