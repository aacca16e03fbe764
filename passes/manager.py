"""The pass manager: ptxas's numbered phases run in order over each function of the Ori IR.

A phase is a small object with a number, a name (the seed's), `run(function, ctx) -> bool` (changed?),
the knobs that gate it and the statistics it counts. Only phases that really do something are
registered (passes/registry.py). The manager implements --dump-before/--dump-after (number, name or
`all`), --dump-dir, --print-changed, --disable-pass, --list-passes and --stats.
"""
from __future__ import annotations

import io
import os
from collections import Counter
from pylower.records import field, record

from pylower.lowering import ori
from pylower.lowering.diagnostics import Diagnostics
from pylower.lowering.target import Target

from .analysis.manager import Analyses
from .knobs import KNOBS


@record
class PassContext:
    """Read-only run configuration plus the statistics sink shared by all phases."""
    target: Target
    opt_level: int = 3
    knobs: dict[str, int] = field(default_factory=dict)
    options: dict[str, object] = field(default_factory=dict)    # CLI options a phase may read
    module: ori.Module | None = None
    diags: Diagnostics = field(default_factory=Diagnostics)
    stats: Counter = field(default_factory=Counter)
    _analyses: dict = field(default_factory=dict)
    stopped: bool = False                                 # --stop-before ended the pipeline early

    def knob(self, name: str) -> int:
        """The value of a declared knob (passes/knobs.py): the one given with --knob, else its default."""
        return int(self.knobs.get(name, KNOBS[name].default))

    def analyses(self, fn: ori.Function) -> Analyses:
        """The analysis manager of `fn` (passes/analysis/manager.py), shared by every phase and by ISel."""
        am = self._analyses.get(id(fn))
        if am is None or am.fn is not fn:
            am = self._analyses[id(fn)] = Analyses(fn, self.module, self.target)
        return am

    def count(self, phase: "Phase", stat: str, n: int = 1) -> None:
        if n:
            self.stats[(phase.number, phase.name, stat)] += n


class Phase:
    number: int = -1
    name: str = "?"
    description: str = ""
    knobs: tuple[str, ...] = ()
    # what stays valid when run() changes a function: "all", "cfg" (blocks and edges) or "none"
    preserves: str = "none"

    def enabled(self, ctx: PassContext) -> bool:
        return True

    def run(self, fn: ori.Function, ctx: PassContext) -> bool:
        raise NotImplementedError

    def preserved(self) -> str:
        """What the last run() that changed a function kept valid (default: `preserves`; a phase that knows
        it changed less this time may say more)."""
        return self.preserves


def _matches(phase: Phase, selectors: set[str]) -> bool:
    if not selectors:
        return False
    return "all" in selectors or str(phase.number) in selectors or phase.name in selectors \
        or phase.name.lower() in selectors


def _header(kind: str, phase: Phase) -> str:
    return f"// -----// IR Dump {kind} {phase.name} ({phase.number}) //----- //"


def _verify_default() -> bool:
    # the test suite sets PYLOWER_VERIFY_EACH=1 (tests/conftest.py): every phase of every test is verified
    return os.environ.get("PYLOWER_VERIFY_EACH", "") not in ("", "0")


@record
class DumpOptions:
    before: set[str] = field(default_factory=set)
    after: set[str] = field(default_factory=set)
    print_changed: bool = False
    dump_dir: str | os.PathLike | None = None                      # --dump-dir (pathlib is not imported: start-up)
    disabled: set[str] = field(default_factory=set)
    verify_each: bool = field(default_factory=_verify_default)     # lowering/verify.py after every phase
    stop_before: str | None = None                                 # phase selector: run the phases before it only


class PassManager:
    def __init__(self, phases: list[Phase], dump: DumpOptions | None = None, out: io.TextIOBase | None = None):
        self.phases = sorted(phases, key=lambda p: p.number)
        self.dump = dump or DumpOptions()
        self.out = out
        self._seq = 0

    def _emit(self, kind: str, phase: Phase, module: ori.Module) -> None:
        text = _header(kind, phase) + "\n" + ori.print_module(module)
        if self.dump.dump_dir is not None:
            self._seq += 1
            os.makedirs(self.dump.dump_dir, exist_ok=True)
            name = f"{self._seq:03d}-{kind.lower()}-{phase.number}-{phase.name}.ir"
            with open(os.path.join(self.dump.dump_dir, name), "w", encoding="utf-8") as f:
                f.write(text)
        elif self.out is not None:
            self.out.write(text)

    def _verify(self, module: ori.Module, after: str) -> None:
        from pylower.lowering.verify import VerifyError, verify_module
        try:
            verify_module(module)
        except VerifyError as e:
            raise VerifyError([f"after {after}: {p}" for p in e.problems]) from None

    def run(self, module: ori.Module, ctx: PassContext) -> ori.Module:
        ctx.module = module
        if self.dump.verify_each:
            self._verify(module, "the builder")
        for phase in self.phases:
            if self.dump.stop_before is not None and _matches(phase, {self.dump.stop_before}):
                ctx.stopped = True
                break
            if _matches(phase, self.dump.disabled) or not phase.enabled(ctx):
                continue
            if _matches(phase, self.dump.before):
                self._emit("Before", phase, module)
            before = ori.print_module(module) if self.dump.print_changed else None
            changed = False
            for fn in module.functions:
                if phase.run(fn, ctx):
                    changed = True
                    ctx.analyses(fn).invalidate(phase.preserved())
            if changed:
                ctx.count(phase, "functions changed", 1)
            if self.dump.verify_each:
                self._verify(module, f"phase {phase.number} {phase.name}")
            if _matches(phase, self.dump.after) or (self.dump.print_changed and ori.print_module(module) != before):
                self._emit("After", phase, module)
        return module
