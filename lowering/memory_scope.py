"""Target/version gates of the memory-model qualifiers on ordinary loads and stores (ld/st): a `.cluster`
scope and the `::cluster` state space need sm_90 (and PTX 7.8 for the scope). Probed messages, in ptxas's
order for one instruction: "Feature '::cluster' requires .target sm_90 or higher", then "Feature '.cluster
scope' requires .target sm_90 or higher" / "... requires PTX ISA .version 7.8 or later"."""
from __future__ import annotations

from . import ptx_ast as A

_CLUSTER_SM = 90
_CLUSTER_SCOPE_PTX = (7, 8)


def check_ld_st(ins: A.Instruction, ctx) -> None:
    errors = []
    if any(m.endswith("::cluster") and m.startswith(".shared") for m in ins.mods) and ctx.target.sm < _CLUSTER_SM:
        errors.append(f"Feature '::cluster' requires .target sm_{_CLUSTER_SM} or higher")
    if ".cluster" in ins.mods:
        if ctx.version < _CLUSTER_SCOPE_PTX:
            errors.append("Feature '.cluster scope' requires PTX ISA .version "
                          f"{_CLUSTER_SCOPE_PTX[0]}.{_CLUSTER_SCOPE_PTX[1]} or later")
        elif ctx.target.sm < _CLUSTER_SM:
            errors.append(f"Feature '.cluster scope' requires .target sm_{_CLUSTER_SM} or higher")
    if errors:
        e = ctx.error(errors[0], ins)
        e.more = tuple(errors[1:])
        raise e
