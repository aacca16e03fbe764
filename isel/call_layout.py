"""Where called `.func` bodies go (whole-program mode, i.e. without -c).

ptxas does not inline a called `.func` and gives it no section of its own: every kernel gets a private
copy (`$<kernel>$<func>`) of each function it reaches through calls, laid out after the kernel's code in
name order, and reached with `CALL.REL.NOINC`. So the callee's sync instructions follow the kernel's in
its sync sequence and count for its EIATTRs (NUM_BARRIERS ...). Probes: barrier/bar_sync_in_func,
phases/call_func_with_bar_sync_between_bar_sync; the name order (not call order) was probed with a
kernel calling zeta, alpha, beta (-> alpha, beta, mid, zeta). With -c each function keeps its own section.
"""
from __future__ import annotations

import re
from dataclasses import replace

from pylower.lowering import ori
from pylower.sass.instr import SassFunction, SassProgram, layout

_LOCAL_LABEL = re.compile(r"\.L_x_(\d+)")


def _reachable(entry: str, callees: dict[str, list[str]]) -> list[str]:
    seen: set[str] = set()
    work = list(callees.get(entry, ()))
    while work:
        name = work.pop()
        if name not in seen and name in callees:
            seen.add(name)
            work.extend(callees[name])
    return sorted(seen)


def _renumbered(text: str, base: int) -> str:
    return _LOCAL_LABEL.sub(lambda m: f".L_x_{int(m.group(1)) + base}", text)


def _call_target(ins, names: dict[str, str]) -> tuple[str, ...]:
    if ins.opcode == "CALL" and ins.operands and ins.operands[0] in names:
        return (f"`({names[ins.operands[0]]})",) + ins.operands[1:]
    return ins.operands


def _copy_into(kernel: SassFunction, body: SassFunction, names: dict[str, str]) -> None:
    """Append a copy of `body` to `kernel`: its .L_x_N labels continue the kernel's numbering, its calls
    name the kernel's private copies."""
    base = sum(1 for i in kernel.instrs if i.label and _LOCAL_LABEL.fullmatch(i.label))
    first = len(kernel.instrs)
    for ins in body.instrs:
        label = _renumbered(ins.label, base) if ins.label else ins.label
        ops = tuple(_renumbered(o, base) for o in _call_target(ins, names))
        kernel.instrs.append(replace(ins, label=label, operands=ops))
    if len(kernel.instrs) > first:
        kernel.instrs[first].label = kernel.instrs[first].label or names[body.name]


def place_callees(prog: SassProgram, module: ori.Module, options: dict) -> None:
    if options.get("compile_only"):
        return
    callees = {f.name: list(f.callees) for f in module.functions}
    sass = {f.name: f for f in prog.functions}
    for fn in prog.functions:
        if not fn.is_entry:
            continue
        reach = _reachable(fn.name, callees)
        names = {c: f"${fn.name}${c}" for c in reach}
        for ins in fn.instrs:
            ins.operands = _call_target(ins, names)
        for c in reach:
            _copy_into(fn, sass[c], names)
        layout(fn)
    prog.functions = [f for f in prog.functions if f.is_entry]
