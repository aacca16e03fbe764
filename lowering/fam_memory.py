"""Ordinary loads: validated for their memory-model qualifiers (lowering.memory_scope), then generic."""
from __future__ import annotations

from . import generic
from . import ptx_ast as A
from .handlers import handler
from .memory_scope import check_ld_st
from .ori import Instr


@handler("ld")
def lower_ld(ins: A.Instruction, ctx):
    check_ld_st(ins, ctx)
    return [Instr(generic.ori_class(ins.opcode, ins.mods), ins.opcode, ins.mods, ins.operands, ins.guard, {},
                  ins.line, "build")]
