"""nvdisasm -c line format output, one section per function, with a trailing EIATTR block; and JSON."""
from __future__ import annotations

import json

from .families import is_sync
from .instr import VIRTUAL, SassProgram


def _line(ins) -> str:
    guard = (ins.guard + " ") if ins.guard else ""
    body = ins.text()
    sep = "" if not ins.operands else ""
    return f"        /*{ins.offset:04x}*/{guard:>19}{body}{sep} ;"


def print_program(prog: SassProgram) -> str:
    out = [f"\t.target\t{prog.target}", "", "\t.elftype\t@\"ET_EXEC\"", ""]
    for fn in prog.functions:
        out.append("")
        out.append(f"//--------------------- .text.{fn.name:<24}--------------------------")
        out.append(f"\t.section\t.text.{fn.name},\"ax\",@progbits")
        out.append(f"{fn.name}:")
        out.append(f".text.{fn.name}:")
        for ins in fn.instrs:
            if ins.label:
                out.append(f"{ins.label}:")
            if ins.opcode != VIRTUAL:
                out.append(_line(ins))
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


def program_json(prog: SassProgram) -> str:
    kernels = {}
    for fn in prog.functions:
        kernels[fn.name] = {
            "entry": fn.is_entry,
            "eiattr": fn.eiattr,
            "instructions": [
                {"offset": i.offset, "guard": i.guard, "opcode": i.mnemonic, "operands": list(i.operands),
                 "line": i.line, "sync": is_sync(i.opcode, ", ".join(i.operands))}
                for i in fn.instrs if i.opcode != VIRTUAL],
        }
    return json.dumps({"target": prog.target, "kernels": kernels}, indent=1, sort_keys=True) + "\n"
