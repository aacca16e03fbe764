"""Instruction selection driver: each Ori instruction goes through its family rule (isel/fam_*.py) or the
generic table, block labels become nvdisasm-style `.L_x_N` labels, and the result is laid out."""
from __future__ import annotations

import importlib
import pkgutil

from pylower.lowering import ori
from pylower.lowering import ptx_ast as A
from pylower.lowering.target import Target
from pylower.passes.knobs import knob_value
from pylower.sass.instr import SassFunction, SassProgram, layout

from . import __path__ as _pkg_path
from . import generic
from .block_order import layout as place_blocks
from .call_layout import place_callees
from .rules import RULES, SelectContext
from .schedule import make_unit, schedule_block

for _m in sorted(m.name for m in pkgutil.iter_modules(_pkg_path) if m.name.startswith("fam_")):
    importlib.import_module(f"{__package__}.{_m}")


def _branch_targets(fn: ori.Function) -> dict[str, str]:
    """Labels that something jumps to get nvdisasm's .L_x_N names, in block order."""
    targets = set()
    for b in fn.blocks:
        for ins in b.instrs:
            if ins.opcode in ("bra", "brx"):
                for o in ins.operands:
                    if type(o) is A.Sym:
                        targets.add(o.name)
        for s in b.succs:
            if ins_is_jump(b, s):
                targets.add(s)
    names = {}
    for b in fn.blocks:
        if b.label in targets:
            names[b.label] = f".L_x_{len(names)}"
    return names


def ins_is_jump(b: ori.BasicBlock, succ: str) -> bool:
    return bool(b.instrs) and b.instrs[-1].opcode in ("bra", "brx") and succ in b.succs


def select_function(fn: ori.Function, module: ori.Module, target: Target, options: dict,
                    unmapped: dict, am=None) -> SassFunction:
    placed = place_blocks(fn)
    if am is not None and placed is not fn.blocks:
        am.invalidate("cfg")                   # branches were added or removed, the edges are the same
    fn.blocks = placed
    sel = SelectContext(target, fn, module, options, unmapped, am=am)
    out = SassFunction(fn.name, fn.is_entry, [], {}, fn.decl.line)
    labels = _branch_targets(fn)
    scheduled = options.get("opt_level", 3) > 0 and knob_value(options.get("knobs", {}), "Schedule") != 0
    pending = None
    alias: dict[str, str] = {}
    for b in fn.blocks:
        if b.label in labels:
            if pending:                       # the previous block emitted nothing: both names, one address
                alias[f"`({labels[b.label]})"] = f"`({pending})"
            else:
                pending = labels[b.label]
        sel.block = b
        units = []
        for ins in b.instrs:
            rule = RULES.get(ins.name) or RULES.get(ins.opcode)
            seq = rule(ins, sel) if rule is not None else None
            if seq is None:
                seq = generic.select(ins, sel)
            if seq and seq[0].opcode == "BRA" and ins.opcode == "bra" and ins.operands and type(ins.operands[0]) is A.Sym:
                tgt = labels.get(ins.operands[0].name, ins.operands[0].name)
                seq[0].operands = (f"`({tgt})",)
            if seq:
                units.append(make_unit(ins, seq, target))
        if scheduled:
            units = schedule_block(units, _live_out(sel, b), target)
        for u in units:
            if pending:
                u.sass[0].label = pending
                pending = None
            out.instrs.extend(u.sass)
    if alias:
        for i in out.instrs:
            if i.operands and i.operands[-1] in alias:
                i.operands = i.operands[:-1] + (alias[i.operands[-1]],)
    if sel._analyses.get("labels") or alias:
        _renumber_labels(out)
    layout(out)
    return out


def _live_out(sel: SelectContext, b: ori.BasicBlock):
    """reg -> is it live at the end of block b (the analysis manager's liveness)."""
    lv = sel.liveness
    bits, index = lv.live_out[b.label], lv.index
    return lambda reg: reg not in index or bool(bits[index[reg]])


def _renumber_labels(fn: SassFunction) -> None:
    """Labels rules made for their own branches (sel.local_label()) join the block labels: all become
    .L_x_N in layout order, as nvdisasm numbers them."""
    names: dict[str, str] = {}
    for i in fn.instrs:
        if i.label:
            names[i.label] = i.label = f".L_x_{len(names)}"
    for i in fn.instrs:
        if i.opcode == "BRA" and i.operands and i.operands[-1].startswith("`("):
            old = i.operands[-1][2:-1]
            new = names.setdefault(old, f".L_x_{len(names)}")
            i.operands = i.operands[:-1] + (f"`({new})",)


def select(module: ori.Module, target: Target, options: dict | None = None, analyses=None) -> SassProgram:
    """`analyses`: fn -> its analysis manager (the pass context's), so ISel reuses what the phases computed."""
    prog = SassProgram(target.name)
    for fn in module.functions:
        am = analyses(fn) if analyses is not None else None
        prog.functions.append(select_function(fn, module, target, options or {}, prog.unmapped, am))
    place_callees(prog, module, options or {})
    return prog
