"""The whole pipeline as one function: PTX text -> parse -> build Ori IR -> phases -> ISel -> EIATTRs.

Tests and tools call this in-process; tools/pylower.py is the command-line face of it.
"""
from __future__ import annotations

import gc
import io
from pylower.records import field, record

from pylower.isel.select import select
from pylower.lowering import build, parser
from pylower.lowering.diagnostics import Diagnostics, PtxError
from pylower.lowering.target import Target, parse_target
from pylower.passes.manager import DumpOptions, PassContext, PassManager
from pylower.passes.registry import pipeline_for
from pylower.sass import eiattr
from pylower.sass.instr import SassProgram


@record
class Result:
    program: SassProgram
    module: object                       # the Ori module after the phases
    ctx: PassContext
    warnings: list = field(default_factory=list)
    dumps: str = ""


def compile_text(text: str, file: str = "<input>", arch: str | Target = "sm_75", opt_level: int = 3,
                 knobs: dict | None = None, options: dict | None = None, dump: DumpOptions | None = None) -> Result:
    # The IR is a large acyclic object graph: the cyclic GC only costs time here (super-linear on big
    # inputs), so it is paused for the run.
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        return _compile(text, file, arch, opt_level, knobs, options, dump)
    finally:
        if was_enabled:
            gc.enable()


def _check_resolved(module) -> None:
    """Whole-program mode (no -c): every called function needs a body in this module (ptxas: fatal)."""
    from pylower.lowering.isa_gates import SYSTEM_FUNCTIONS
    for fn in module.functions:
        for name in fn.callees:
            if module.function(name) is None and name not in SYSTEM_FUNCTIONS:
                # ptxas prints it without a line; pylower locates it at the first call
                line = next((i.line for i in fn.instructions() if i.opcode == "call"
                             and any(getattr(o, "name", None) == name for o in i.operands)), fn.decl.line)
                raise PtxError(f"Unresolved extern function '{name}'", line or 1, 1, module.file)


def _compile(text, file, arch, opt_level, knobs, options, dump) -> Result:
    target = arch if isinstance(arch, Target) else parse_target(arch)
    diags = Diagnostics()
    module = build.build_text(text, file, target, diags)
    if not (options or {}).get("compile_only"):
        _check_resolved(module)
    ctx = PassContext(target, opt_level, dict(knobs or {}), dict(options or {}), None, diags)
    out = io.StringIO()
    PassManager(pipeline_for(target, ctx), dump, out).run(module, ctx)
    if ctx.stopped:                  # --stop-before: the IR is the result; nothing is selected
        return Result(SassProgram(target.name), module, ctx, diags.warnings, out.getvalue())
    prog = select(module, target, {**ctx.options, "opt_level": ctx.opt_level, "knobs": ctx.knobs}, ctx.analyses)
    eiattr.compute_program(prog)
    for name, n in prog.unmapped.items():
        ctx.stats[(999, "ISel", f"unmapped {name}")] += n
    return Result(prog, module, ctx, diags.warnings, out.getvalue())
