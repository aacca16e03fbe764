"""Where called `.func` bodies go (whole-program mode, i.e. without -c).

ptxas does not inline a called `.func` and gives it no section of its own: every kernel gets a private
copy (`$<kernel>$<func>`) of each function it reaches through calls, laid out after the kernel's code in
name order, and reached with `CALL.REL.NOINC`. So the callee's sync instructions follow the kernel's in
its sync sequence and count for its EIATTRs (NUM_BARRIERS ...). Probes: barrier/bar_sync_in_func,
phases/call_func_with_bar_sync_between_bar_sync; the name order (not call order) was probed with a
kernel calling zeta, alpha, beta (-> alpha, beta, mid, zeta). With -c each function keeps its own section.
"""
from __future__ import annotations

from pylower.records import replace

from pylower.lowering import ori
from pylower.sass.instr import SassFunction, SassProgram, layout

def _reachable(entry: str, callees: dict[str, list[str]]) -> list[str]:
    seen: set[str] = set()
    work = list(callees.get(entry, ()))
    while work:
        name = work.pop()
        if name not in seen and name in callees:
            seen.add(name)
            work.extend(callees[name])
    return sorted(seen)


def _call_target(ins, names: dict[str, str]) -> tuple[str, ...]:
    """A call of a function the kernel has a copy of names the copy: `(helper) -> `($k$helper)."""
    if ins.opcode == "CALL" and ins.operands:
        o = ins.operands[0]
        name = o[2:-1] if o.startswith("`(") else o
        if name in names:
            return (f"`({names[name]})",) + ins.operands[1:]
    return ins.operands


def _copy_into(kernel: SassFunction, body: SassFunction, names: dict[str, str]) -> None:
    """Append a copy of `body` to `kernel`: its label keys become the kernel's own (numbered with the
    kernel's labels by isel.select.number_labels), its calls name the kernel's private copies, and the copy
    starts with its local function symbol `$<kernel>$<callee>`."""
    first = len(kernel.instrs)
    prefix = f"{kernel.name}>"
    # the callee's out-of-line helpers continue the kernel's $__internal_N numbering (names stay unique)
    taken = sum(1 for sym, _g in kernel.symbols.values() if sym.startswith("$__internal_"))
    helpers = {}
    for sym, _g in body.symbols.values():
        if sym.startswith("$__internal_"):
            rest = sym[len("$__internal_"):].split("_", 1)[1]
            helpers[sym] = f"$__internal_{taken + len(helpers)}_{rest}"

    def own(o: str) -> str:
        if o.startswith("`(") and o[2:-1] in helpers:
            return f"`({helpers[o[2:-1]]})"
        return f"`({prefix}{o[2:-1]})" if o.startswith("`(") and "/" in o else o

    for ins in body.instrs:
        label = prefix + ins.label if ins.label else ins.label
        ops = tuple(own(o) for o in _call_target(ins, names))
        kernel.instrs.append(replace(ins, label=label, operands=ops))
    for k, (sym, glob) in body.symbols.items():
        kernel.symbols[first + k] = (helpers.get(sym, sym), glob)
    if len(kernel.instrs) > first:
        kernel.symbols[first] = (names[body.name], body.visible)


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
