"""The registry of PTX codegen handlers, one per instruction family (as ptxas's sub_580E50 vote, sub_524FB0
bar, ...). A handler validates one PTX instruction for the target and returns its Ori instructions.

    @handler("bar", "barrier")
    def lower_bar(ins: ptx_ast.Instruction, ctx: BuildContext) -> list[ori.Instr]: ...

Stems without a handler go through lowering.generic (a table-driven class assignment).
"""
from __future__ import annotations

from collections.abc import Callable

HANDLERS: dict[str, Callable] = {}


def handler(*stems: str):
    def deco(fn):
        for s in stems:
            if s in HANDLERS:
                raise ValueError(f"two handlers for '{s}'")
            HANDLERS[s] = fn
        return fn
    return deco
