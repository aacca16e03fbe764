"""The phase pipeline: the registered phases (only those that really do something), in number order."""
from __future__ import annotations

import importlib

from pylower.lowering.target import Target

from pylower.plugins import module_names

from . import __path__ as _pkg_path
from .manager import PassContext, Phase

# Each phase module is passes/pNN_<name>.py and defines PHASE (an instance of a Phase subclass).
PHASES: list[Phase] = []
for _m in module_names(_pkg_path, lambda n: n[:1] == "p" and n[1:3].isdigit()):
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
