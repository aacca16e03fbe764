"""The registry of PTX codegen handlers, one per instruction family (as ptxas's sub_580E50 vote, sub_524FB0
bar, ...). A handler validates one PTX instruction for the target and returns its Ori instructions.

    @handler("bar", "barrier")
    def lower_bar(ins: ptx_ast.Instruction, ctx: BuildContext) -> list[ori.Instr]: ...

Stems without a handler go through lowering.generic (a table-driven class assignment).

The family modules are lowering/fam_*.py; `FAMILY_STEMS` declares the stems each one handles, so a run imports
only the families its input uses (a module is imported when one of its stems is first looked up).
"""
from __future__ import annotations

from pylower.plugins import Registry

# module -> the stems its @handler functions take (tests/test_plugins.py checks it against the modules)
FAMILY_STEMS: dict[str, tuple[str, ...]] = {
    "fam_async_copy": ("clusterlaunchcontrol", "cp", "tensormap"),
    "fam_atomic": ("atom", "red"),
    "fam_barrier": ("bar", "barrier"),
    "fam_fence": ("fence", "membar"),
    "fam_mbarrier": ("mbarrier",),
    "fam_memory": ("createpolicy", "ld", "st"),
    "fam_warp": ("activemask", "elect", "griddepcontrol", "match", "nanosleep", "redux", "shfl", "vote"),
}

HANDLERS = Registry("handler", __package__, FAMILY_STEMS)


def handler(*stems: str):
    def deco(fn):
        for s in stems:
            HANDLERS.add(s, fn)
        return fn
    return deco
