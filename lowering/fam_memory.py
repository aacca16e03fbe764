"""Ordinary loads and stores (validated for their memory-model qualifiers, lowering.memory_scope) and createpolicy
(target gate); all then go the generic way. st.async is an asynchronous copy (lowering/fam_async_copy.py, imported
only when a run has one)."""
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


@handler("st")
def lower_st(ins: A.Instruction, ctx):
    if ".async" in ins.mods:
        from .fam_async_copy import lower_st_async
        return lower_st_async(ins, ctx)
    check_ld_st(ins, ctx)
    return [Instr(generic.ori_class(ins.opcode, ins.mods), ins.opcode, ins.mods, ins.operands, ins.guard, {},
                  ins.line, "build")]


_CREATEPOLICY_SM = 80


@handler("createpolicy")
def lower_createpolicy(ins: A.Instruction, ctx):
    """createpolicy needs sm_80; ptxas names the form and each L2 eviction-priority modifier it rejects."""
    if ctx.target.sm < _CREATEPOLICY_SM:
        kind = next((m for m in ins.mods if m in (".fractional", ".range", ".cvt")), "")
        form = f"createpolicy{kind}"
        errors = [f"Feature '{form}' requires .target sm_{_CREATEPOLICY_SM} or higher"]
        errors += [f"Modifier '{m}' on '{form}' requires .target sm_{_CREATEPOLICY_SM} or higher"
                   for m in ins.mods if m.startswith(".L2::")]
        e = ctx.error(errors[0], ins)
        e.more = tuple(errors[1:])
        raise e
    return [Instr(generic.ori_class(ins.opcode, ins.mods), ins.opcode, ins.mods, ins.operands, ins.guard, {},
                  ins.line, "build")]
