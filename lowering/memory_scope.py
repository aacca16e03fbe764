"""Validation of the memory-model qualifiers on ordinary loads and stores (ld/st), probed in
tests/corpus/probes/memory (docs/findings/memory.md). ptxas checks one instruction in stages and prints
every failing check, in this order:
  1. spelling: an order the opcode does not take ("Illegal modifier"), a second order ("Duplicate <later>
     modifier"; the later one is the order from then on), a second scope;
  2. the `.mmio` PTX version gate;
  3. the order with a cache operator (.ca/.cg/.cs/.lu/.cv/.nc, .wb/.wt);
  4. the state space: `::cluster` gates (PTX 7.8, then sm_90), then which spaces take an order / `.mmio`;
  5. the scope: `.cluster` gates (sm_90, then PTX 7.8), then scopes an order or `.mmio` cannot take;
  6. what is missing: `.mmio` without `.relaxed`, an order without a scope, a scope without an order;
  7. `.nc` outside .global."""
from __future__ import annotations

from . import ptx_ast as A

_CLUSTER_SM = 90
_CLUSTER_PTX = (7, 8)
_MMIO_PTX = (8, 2)
# memory orders each opcode takes; .weak is the default order
_ORDERS = {"ld": (".weak", ".volatile", ".relaxed", ".acquire"), "st": (".weak", ".volatile", ".relaxed", ".release")}
_ALL_ORDERS = (".weak", ".volatile", ".relaxed", ".acquire", ".release")
_SCOPES = (".cta", ".cluster", ".gpu", ".sys")
_NEEDS_SCOPE = (".relaxed", ".acquire", ".release")
_NO_SCOPE = (".weak", ".volatile")
_CACHE_OPS = {"ld": (".ca", ".cg", ".cs", ".lu", ".cv", ".nc"), "st": (".wb", ".cg", ".cs", ".wt")}
# state spaces that take no order but .weak; .mmio only on generic and .global addresses
_UNORDERED_SPACES = (".local", ".const", ".param", ".param::entry", ".param::func")
_MMIO_SPACES = (None, ".global")
_SPACES = (".global", ".shared", ".shared::cta", ".shared::cluster") + _UNORDERED_SPACES


def _vstr(v) -> str:
    return f"{v[0]}.{v[1]}"


def check_ld_st(ins: A.Instruction, ctx) -> None:
    op, mods = ins.opcode, ins.mods
    errors = []
    orders = [m for m in mods if m in _ALL_ORDERS]
    scopes = [m for m in mods if m in _SCOPES]
    space = next((m for m in mods if m in _SPACES), None)
    mmio = ".mmio" in mods
    # 1. spelling
    errors += [f"Illegal modifier '{m}' for instruction '{op}'" for m in orders if m not in _ORDERS[op]]
    errors += [f"Duplicate {m} modifier" for m in orders[1:]]
    if len(scopes) > 1:
        errors.append("Multiple scope modifiers specified")
    order = orders[-1] if orders else None
    scope = scopes[0] if scopes else None
    strong = order not in (None, ".weak")
    # 2. version gate
    if mmio and ctx.version < _MMIO_PTX:
        errors.append(f"Feature '.mmio' requires PTX ISA .version {_vstr(_MMIO_PTX)} or later")
    # 3. cache operators
    if strong:
        errors += [f"Modifier '{order}' cannot be combined with modifier '{m}'" for m in mods if m in _CACHE_OPS[op]]
    # 4. state space
    if space == ".shared::cluster":
        if ctx.version < _CLUSTER_PTX:
            errors.append(f"Feature '::cluster' requires PTX ISA .version {_vstr(_CLUSTER_PTX)} or later")
        if ctx.target.sm < _CLUSTER_SM:
            errors.append(f"Feature '::cluster' requires .target sm_{_CLUSTER_SM} or higher")
    if strong and space in _UNORDERED_SPACES:
        errors.append(f"Modifier '{order}' cannot be applied to '{space}' space")
    if mmio and space not in _MMIO_SPACES:
        errors.append(f"Modifier '.mmio' cannot be applied to '{space}' space")
    # 5. scope
    if scope == ".cluster":
        if ctx.target.sm < _CLUSTER_SM:
            errors.append(f"Feature '.cluster scope' requires .target sm_{_CLUSTER_SM} or higher")
        if ctx.version < _CLUSTER_PTX:
            errors.append(f"Feature '.cluster scope' requires PTX ISA .version {_vstr(_CLUSTER_PTX)} or later")
    if scope and order in _NO_SCOPE:
        errors.append(f"Modifier '{order}' cannot be combined with modifier '{scope}'")
    if scope and mmio and scope != ".sys":
        errors.append(f"Modifier '.mmio' cannot be combined with modifier '{scope}'")
    # 6. missing qualifiers
    if mmio and order != ".relaxed":
        errors.append(f"Modifier '.mmio' requires modifier '.relaxed' for instruction '{op}'")
    if not scope and (mmio and order != ".volatile" or order in _NEEDS_SCOPE):   # .volatile implies .sys
        errors.append(f"Modifier '{'.mmio' if mmio else order}' requires scope with '{op}' instruction")
    if scope and order is None and not mmio:
        errors.append(f"Modifier '{scope}' requires memory order with '{op}' instruction")
    # 7. .nc loads read the global space only
    if ".nc" in mods and space != ".global":
        errors.append("Modifier '.nc' requires .global space")
    if errors:
        e = ctx.error(errors[0], ins)
        e.more = tuple(errors[1:])
        raise e
