"""mbarrier.* -> Ori 315 pseudo-ops (ptxas's mbarrier classifier sub_A9A5F0; expanded per target by
passes/p42_expand_mbarrier.py, selected by isel/fam_mbarrier.py).

Validation follows docs/findings/mbarrier.md section 1: ptxas reports every failing gate of one instruction,
in the order op version / op target / .shared::cluster / illegal sem / count feature / sink / sem gates /
::cluster / .noComplete / ::cta / .cluster scope / scopes. Attributes the later stages read:
op, classifier (the classifier's type id, below), space (shared / generic / cluster), sem, scope, count (arrive
with a count operand), sink, nocomplete, drop, expect_tx (arrive.expect_tx), hint (try_wait suspend hint).
"""
from __future__ import annotations

from . import ptx_ast as A
from .diagnostics import PtxError
from .handlers import handler
from .ori import ORI_CLASSES

# ptxas's classifier type ids (seed "MBARRIER Operation Classification"): 0-8 trivial, 9-12 non-trivial
KINDS = {
    "INIT": 0, "ARRIVE": 1, "ARRIVE_NOCOMPLETE": 2, "ARRIVE_DROP": 3, "ARRIVE_DROP_NOCOMPLETE": 4,
    "TEST_WAIT": 5, "TEST_WAIT_PARITY": 6, "CP_ASYNC_ARRIVE": 7, "INVAL": 8, "TRY_WAIT": 9,
    "TRY_WAIT_PARITY": 10, "EXPECT_TX": 11, "COMPLETE_TX": 12,
}
KIND_NAMES = {v: k for k, v in KINDS.items()}

# op -> (min SM, min PTX); ops with .parity / .expect_tx have their own feature names
_OP_GATES = {
    "init": (80, (7, 0)), "inval": (80, (7, 0)), "arrive": (80, (7, 0)), "arrive_drop": (80, (7, 0)),
    "test_wait": (80, (7, 0)), "pending_count": (80, (7, 0)), "test_wait.parity": (80, (7, 1)),
    "try_wait": (90, (7, 8)), "try_wait.parity": (90, (7, 8)), "expect_tx": (90, (8, 0)),
    "complete_tx": (90, (8, 0)), "arrive.expect_tx": (90, (8, 0)), "arrive_drop.expect_tx": (90, (8, 0)),
}
# op -> memory-order qualifiers ptxas accepts (any other one: "Illegal modifier", printed twice)
_LEGAL_SEM = {
    "arrive": (".release", ".relaxed"), "arrive_drop": (".release", ".relaxed"),
    "test_wait": (".acquire", ".relaxed"), "try_wait": (".acquire", ".relaxed"),
    "expect_tx": (".relaxed",), "complete_tx": (".relaxed",),
    "init": (), "inval": (), "pending_count": (),
}
_SEM_PTX = {".release": (8, 0), ".acquire": (8, 0), ".relaxed": (8, 6)}
_RELAXED_SM = 90
# expect_tx / complete_tx have .relaxed as their only order since their introduction (PTX 8.0, sm_90): the
# .relaxed gates of the other ops (PTX 8.6) do not apply to them (probed with .version 8.0 on sm_90)
_RELAXED_NATIVE = ("expect_tx", "complete_tx")
_CLUSTER_SM = 90
_SPACES = {".shared": "shared", ".shared::cta": "shared", ".shared::cluster": "cluster"}
_REMOTE_OPS = ("arrive", "arrive_drop", "expect_tx", "complete_tx")      # may name a .shared::cluster barrier
_OPS = tuple(k for k in _LEGAL_SEM)


class _Errs(list):
    def add(self, cond, msg):
        if cond:
            self.append(msg)


def _kind(op: str, parity: bool, count: bool, nocomplete: bool) -> int | None:
    if op in ("arrive", "arrive_drop"):
        name = "ARRIVE" + ("_DROP" if op == "arrive_drop" else "") + ("_NOCOMPLETE" if nocomplete else "")
        return KINDS[name]
    if op in ("test_wait", "try_wait"):
        return KINDS[op.upper() + ("_PARITY" if parity else "")]
    return KINDS.get(op.upper())


@handler("mbarrier")
def lower_mbarrier(ins: A.Instruction, ctx):
    mods = ins.mods
    op = next((m[1:] for m in mods if m[1:] in _OPS), None)
    if op is None:
        raise ctx.error("Not a name of any known instruction: 'mbarrier'", ins)
    parity = ".parity" in mods
    expect = ".expect_tx" in mods and op in ("arrive", "arrive_drop")
    name = f"mbarrier.{op}" + (".parity" if parity else "") + (".expect_tx" if expect else "")
    if name[9:] not in _OP_GATES:          # .parity on an op without a parity form (ptxas 13.0.88: mbarrier.init.parity)
        raise ctx.error("Unknown modifier '.parity'", ins)
    typ = next((m for m in mods if m in (".b64", ".b32", ".u64", ".s64")), None)
    if typ != ".b64":
        raise ctx.error(f"Unexpected instruction types specified for 'mbarrier.{op}'", ins)
    space_mod = next((m for m in mods if m in _SPACES or m in (".global", ".local", ".const", ".param")), None)
    sem = next((m for m in mods if m in (".release", ".acquire", ".relaxed", ".acq_rel")), None)
    scope = next((m for m in mods if m in (".cta", ".cluster", ".gpu", ".sys")), None)
    nocomplete = ".noComplete" in mods
    ops = ins.operands
    sink = bool(ops) and type(ops[0]) is A.Sink
    n_ops = len(ops)
    count = op in ("arrive", "arrive_drop") and not expect and n_ops == 3
    sm, ver = ctx.target.sm, ctx.version
    e = _Errs()
    min_sm, min_ptx = _OP_GATES[name[9:]]
    e.add(ver < min_ptx, f"Feature '{name}' requires PTX ISA .version {min_ptx[0]}.{min_ptx[1]} or later")
    e.add(sm < min_sm, f"Feature '{name}' requires .target sm_{min_sm} or higher")
    e.add(space_mod in (".global", ".local", ".const", ".param"), f"State space incorrect for instruction 'mbarrier.{op}'")
    cluster_space = space_mod == ".shared::cluster"
    if cluster_space:
        if op in _REMOTE_OPS:
            e.add(ver < (8, 0), "Feature '.shared::cluster' requires PTX ISA .version 8.0 or later")
        e.add(sm < _CLUSTER_SM, "Feature '.shared::cluster' requires .target sm_90 or higher")
    if sem is not None and sem not in _LEGAL_SEM[op]:
        e.extend([f"Illegal modifier '{sem}' for instruction 'mbarrier.{op}'"] * 2)
    if count and not nocomplete:
        feat = f"Feature 'mbarrier.{op} with count argument and without '.noComplete' modifier'"
        e.add(sm < 90, f"{feat} requires .target sm_90 or higher")
        e.add(ver < (7, 8), f"{feat} requires PTX ISA .version 7.8 or later")
    if cluster_space and op in ("arrive", "arrive_drop") and not sink:
        e.append(f"Sink '_' is expected as a destination operand for instruction 'mbarrier.{op}' with '.shared::cluster'")
    if sem in _LEGAL_SEM[op] and op not in _RELAXED_NATIVE:
        if sem == ".relaxed":
            e.add(sm < _RELAXED_SM, f"Modifier '.relaxed' on '{name}' requires .target sm_90 or higher")
        need = _SEM_PTX[sem]
        e.add(ver < need, f"Modifier '{sem}' on '{name}' requires PTX ISA .version {need[0]}.{need[1]} or later")
    if nocomplete:
        e.add(not count and op in ("arrive", "arrive_drop"),
              f"Illegal modifier '.noComplete' for instruction 'mbarrier.{op} without count argument'")
        e.add(scope == ".cluster", "Modifier '.cluster' cannot be combined with modifier '.noComplete'")
    if cluster_space:
        e.add(op not in _REMOTE_OPS, f"Illegal modifier '::cluster' for instruction 'mbarrier.{op}'")
        e.add(sm < _CLUSTER_SM, "Feature '::cluster' requires .target sm_90 or higher")
    e.add(count and not nocomplete and (sm < 90 or ver < (7, 8)),
          f".noComplete modifier required for instruction 'mbarrier.{op} with count argument'")
    e.add(space_mod == ".shared::cta" and ver < (7, 8), "Feature '::cta' requires PTX ISA .version 7.8 or later")
    if scope == ".cluster":
        e.add(sm < _CLUSTER_SM, "Feature '.cluster scope' requires .target sm_90 or higher")
        e.add(ver < (7, 8), "Feature '.cluster scope' requires PTX ISA .version 7.8 or later")
    e.add(scope is not None and ver < (8, 0), "Feature 'scopes on mbarrier operations' requires PTX ISA .version 8.0 or later")
    want = {"init": 2, "inval": 1, "pending_count": 2, "expect_tx": 2, "complete_tx": 2, "test_wait": 3}.get(op)
    if op == "try_wait":
        e.add(n_ops not in (3, 4), f"Arguments mismatch for instruction '{name}'")
    elif op in ("arrive", "arrive_drop"):
        e.add(n_ops not in ((3,) if expect else (2, 3)), f"Arguments mismatch for instruction '{name}'")
    else:
        e.add(n_ops != want, f"Arguments mismatch for instruction '{name}'")
    if e:
        raise PtxError(e[0], ins.line, ins.col, ctx.file, more=tuple(e[1:]))
    attrs = {"op": op, "space": _SPACES.get(space_mod, "generic"), "sem": (sem or "")[1:] or "default",
             "scope": (scope or "")[1:] or "cta"}
    kind = _kind(op, parity, count, nocomplete)
    if kind is not None and not expect:
        attrs["classifier"] = kind
    for flag, on in (("count", count), ("sink", sink), ("nocomplete", nocomplete), ("parity", parity),
                     ("expect_tx", expect), ("hint", op == "try_wait" and n_ops == 4)):
        if on:
            attrs[flag] = 1
    return [ctx.instr(ORI_CLASSES["mbarrier"], ins, **attrs)]
