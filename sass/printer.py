"""The listing in nvdisasm -c's format (one section per function, in nvdisasm's order, with its ELF frame),
followed by pylower's EIATTR block; and the JSON form.

The frame, as ptxas 13.0.88's ELF has it (ptxas + nvdisasm -c): `.section .text.<f>,"ax",@progbits`,
`.align 128`; a `.visible` function is `.global`; every function has `.type <f>,@function` and
`.size <f>,(<end label> - <f>)`; a kernel `.other <f>,@"STO_CUDA_ENTRY STV_DEFAULT"`. A global symbol is
printed before `.text.<f>:`, a local one after it. A kernel's private copies of its callees (`$k$f`) and its
out-of-line helpers (`$__internal_N_...`) are symbols inside its section (`.global` when the function is
visible). The code ends with ptxas's trap loop `BRA `(self)` and NOPs up to the next 128-byte boundary.
Sections come in nvdisasm's order: functions in reverse order of definition, each called function (with
-c) right before its first caller. `.elftype @"ET_REL"` under -c.

Options: `line_info` (nvdisasm -g): `//## File "k.ptx", line N` whenever the PTX line changes; `explain`: a
trailing `// <origin>: <reason>` comment on every instruction a phase or ISel inserted or rewrote.
"""
from __future__ import annotations

from .families import is_sync
from .instr import VIRTUAL, SassFunction, SassProgram

_ALIGN = 128
_PAD = 16


def _line(ins, explain: bool = False) -> str:
    guard = (ins.guard + " ") if ins.guard else ""
    text = f"        /*{ins.offset:04x}*/{guard:>19}{ins.text()} ;"
    if explain and ins.origin:
        text += f"  // {ins.origin}: {ins.reason}" if ins.reason else f"  // {ins.origin}"
    return text


def section_order(prog: SassProgram, callees: dict | None = None) -> list[SassFunction]:
    """nvdisasm's order: functions in reverse order of definition, each callee (still to print) before its
    first caller (probed: kb, ka calling vhelp, kc -> kc, vhelp, ka, kb with -c)."""
    by_name = {f.name: f for f in prog.functions}
    calls = callees or {}
    out: list[SassFunction] = []
    seen: set[str] = set()

    def visit(f: SassFunction) -> None:
        if f.name in seen:
            return
        seen.add(f.name)
        for c in calls.get(f.name, ()):
            if c in by_name:
                visit(by_name[c])
        out.append(f)

    for f in reversed(prog.functions):
        visit(f)
    return out


def _symbol_lines(name: str, end: str, visible: bool, entry: bool) -> list[str]:
    out = []
    if visible:
        out.append(f"        .global         {name}")
    out.append(f"        .type           {name},@function")
    out.append(f"        .size           {name},({end} - {name})")
    if entry:
        out.append(f"        .other          {name},@\"STO_CUDA_ENTRY STV_DEFAULT\"")
    return out


def print_function(fn: SassFunction, file: str = "", line_info: bool = False, explain: bool = False) -> list[str]:
    end = fn.end_label or f".L_end_{fn.name}"
    out = ["", "", f"//--------------------- {'.text.' + fn.name:<26}--------------------------",
           f"\t.section\t.text.{fn.name},\"ax\",@progbits", f"\t.align\t{_ALIGN}"]
    sym = _symbol_lines(fn.name, end, fn.visible, fn.is_entry)
    if fn.visible:
        out += sym + [f"{fn.name}:", f".text.{fn.name}:"]
    else:
        out += [f".text.{fn.name}:"] + sym + [f"{fn.name}:"]
    last_line = None
    for k, ins in enumerate(fn.instrs):
        local = fn.symbols.get(k)
        if local and k:
            out += _symbol_lines(local[0], end, local[1], False)
            out.append(f"{local[0]}:")
        if ins.label:
            out.append(f"{ins.label}:")
        if ins.opcode == VIRTUAL:
            continue
        if line_info and ins.line and ins.line != last_line:
            out.append(f"\t//## File \"{ins.file or file}\", line {ins.line}")
            last_line = ins.line
        out.append(_line(ins, explain))
    off = (fn.instrs[-1].offset + 16) if fn.instrs else 0
    trap = f".L_trap_{fn.name}"
    out.append(f"{trap}:")
    out.append(f"        /*{off:04x}*/                   BRA `({trap});")
    off += _PAD
    while off % _ALIGN:
        out.append(f"        /*{off:04x}*/                   NOP;")
        off += _PAD
    out.append(f"{end}:")
    return out


def print_program(prog: SassProgram, line_info: bool = False, explain: bool = False,
                  callees: dict | None = None) -> str:
    elftype = "ET_REL" if prog.relocatable else "ET_EXEC"
    out = [f"\t.target\t{prog.target}", "", f"\t.elftype\t@\"{elftype}\""]
    for fn in section_order(prog, callees if callees is not None else prog.calls):
        out += print_function(fn, prog.file, line_info, explain)
    _name_trap_labels(out)
    for fn in prog.functions:
        out.append("")
        out.append(f"//--------------------- .nv.info.{fn.name:<24}--------------------------")
        for k, v in fn.eiattr.items():
            if isinstance(v, list):
                val = " ".join(hex(x) for x in v)
            else:
                val = hex(v) if isinstance(v, int) else str(v)
            out.append(f"\t{k}\t{val}")
    return "\n".join(out) + "\n"


def _name_trap_labels(lines: list[str]) -> None:
    """The trap loops' labels continue the file's .L_x_N numbering (nvdisasm numbers every local label)."""
    used = set()
    for ln in lines:
        if ln.startswith(".L_x_") and ln.endswith(":"):
            used.add(int(ln[5:-1]))
    n = max(used) + 1 if used else 0
    names = {}
    for k, ln in enumerate(lines):
        if ln.startswith(".L_trap_") and ln.endswith(":"):
            names[ln[:-1]] = f".L_x_{n}"
            n += 1
            lines[k] = names[ln[:-1]] + ":"
        elif "`(.L_trap_" in ln:
            a = ln.index("`(") + 2
            b = ln.index(")", a)
            lines[k] = ln[:a] + names[ln[a:b]] + ln[b:]


def program_json(prog: SassProgram) -> str:
    kernels = {}
    for fn in prog.functions:
        kernels[fn.name] = {
            "entry": fn.is_entry,
            "eiattr": fn.eiattr,
            "instructions": [
                {"offset": i.offset, "guard": i.guard, "opcode": i.mnemonic, "operands": list(i.operands),
                 "label": i.label, "line": i.line, "ptx_line": i.line, "origin": i.origin or "ptx",
                 "reason": i.reason, "sync": is_sync(i.opcode, ", ".join(i.operands))}
                for i in fn.instrs if i.opcode != VIRTUAL],
        }
    import json                  # only for --emit-json (start-up, issue 13)
    return json.dumps({"target": prog.target, "kernels": kernels}, indent=1, sort_keys=True) + "\n"
