"""The phase pipeline: the registered phases (only those that really do something), in number order."""
from __future__ import annotations

import importlib

from pylower.lowering import ori
from pylower.lowering import ptx_ast as A
from pylower.lowering.target import Target

from pylower.plugins import module_names

from . import __path__ as _pkg_path
from .manager import PassContext, Phase


def _not_straight(fn: ori.Function) -> bool:
    """Does some edge of the CFG go elsewhere than to the next block? (Else the function has no loop.)"""
    blocks = fn.blocks
    for k, b in enumerate(blocks):
        nxt = blocks[k + 1].label if k + 1 < len(blocks) else None
        if any(s != nxt for s in b.succs):
            return True
    return False


def _self_loop(fn: ori.Function) -> bool:
    """Does a block end with a conditional branch to itself (the loops phase 22 looks at)?"""
    for b in fn.blocks:
        last = b.instrs[-1] if b.instrs else None
        if last is not None and last.opcode == "bra" and last.guard is not None and \
                any(type(o) is A.Sym and o.name == b.label for o in last.operands):
            return True
    return False


_MBAR = ori.ORI_CLASSES["mbarrier"]

# Phases whose module is imported only once a function of the run can give them work (issue 13: start-up):
# module -> (number, name, test of one function). The test is False only where the phase's run() returns False
# without reading or changing anything, and the phase keeps Phase.enabled (always on), so a run with or
# without the module gives the same output and the same dumps. tests/test_plugins.py checks number and name
# against the modules.
DEFERRED: dict[str, tuple] = {
    "p14_merge_same_test_ifs": (14, "MergeSameTestIfs", lambda fn: len(fn.blocks) >= 4),   # h, b, j1, c
    "p21_loop_inversion": (21, "LoopInversion", _not_straight),                            # needs a back edge
    "p22_loop_unrolling": (22, "LoopUnrolling", _self_loop),
    "p42_expand_mbarrier": (42, "ExpandMbarrier", lambda fn: any(i.op == _MBAR for i in fn.instructions())),
}


class _Deferred:
    """A DEFERRED phase: number and name at hand, the rest (run, description, knobs, ...) from its module, which
    is imported when a function passes the test or when anything else is asked of it."""

    def __init__(self, module: str, number: int, name: str, needs):
        self.module, self.number, self.name, self._needs = module, number, name, needs
        self._phase: Phase | None = None

    def load(self) -> Phase:
        if self._phase is None:
            self._phase = importlib.import_module(f"{__package__}.{self.module}").PHASE
        return self._phase

    def __getattr__(self, attr: str):
        if attr.startswith("__") or attr == "_phase":
            raise AttributeError(attr)
        return getattr(self.load(), attr)

    def enabled(self, ctx: PassContext) -> bool:
        return True

    def run(self, fn: ori.Function, ctx: PassContext) -> bool:
        if not self._needs(fn):
            return False
        return self.load().run(fn, ctx)


# Each phase module is passes/pNN_<name>.py and defines PHASE (an instance of a Phase subclass).
PHASES: list = []
for _m in module_names(_pkg_path, lambda n: n[:1] == "p" and n[1:3].isdigit()):
    if _m in DEFERRED:
        PHASES.append(_Deferred(_m, *DEFERRED[_m]))
        continue
    _mod = importlib.import_module(f"{__package__}.{_m}")
    if getattr(_mod, "PHASE", None) is not None:
        PHASES.append(_mod.PHASE)
PHASES.sort(key=lambda p: p.number)


def check_phase(selector: str, option: str = "phase") -> None:
    """A phase selector (number or name, as --dump-after, --disable-pass and pylower-opt -p take it) that names
    no registered phase is an error."""
    from pylower.lowering.diagnostics import PtxError
    if not any(str(p.number) == selector or p.name == selector or p.name.lower() == selector for p in PHASES):
        raise PtxError(f"{option}: unknown phase '{selector}' (pylower --list-passes)")


def pipeline_for(target: Target, ctx: PassContext) -> list[Phase]:
    return list(PHASES)
