"""pylower's Python API: one call from PTX text to SASS text, per-kernel instructions and EIATTRs, the Ori IR
and the diagnostics.

    import pylower
    out = pylower.compile(ptx_text, arch="sm_90", opt_level=3, knobs={"DisableErrbarAfterMembar": 1})
    out.sass                                  # the listing, as `pylower k.ptx -o out.sass` writes it
    out.kernels["k"].eiattrs["EIATTR_NUM_BARRIERS"]
    out.kernels["k"].instructions[0].opcode   # "S2R", with .operands, .guard, .offset, .ptx_line, .origin
    out.ir                                    # the Ori IR after the phases (text)
    out.diagnostics                           # warnings and remarks (Diagnostic: line, col, severity, message)

Bad input raises pylower.CompileError; its .diagnostics hold every error (file:line:col as the command line
prints them). The command line (tools/pylower.py) and this API share pipeline.compile_text.
"""
from __future__ import annotations

from pylower.records import field, record

from pylower.lowering.diagnostics import PtxError


@record(frozen=True)
class Diagnostic:
    file: str
    line: int
    col: int
    severity: str                  # "error", "warning" or "info"
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}: {self.severity}: {self.message}"


class CompileError(Exception):
    """The input was rejected; .diagnostics lists every error, in ptxas's order."""

    def __init__(self, diagnostics: list[Diagnostic]):
        self.diagnostics = list(diagnostics)
        super().__init__("\n".join(str(d) for d in self.diagnostics))


@record(frozen=True)
class Instruction:
    offset: int
    guard: str                     # "@P0"-style predicate text; "" when unguarded
    opcode: str                    # with modifiers: "BAR.SYNC.DEFER_BLOCKING"
    operands: tuple[str, ...]
    label: str | None              # a label placed before the instruction
    ptx_line: int                  # the PTX line it was made from (0: none)
    origin: str                    # "ptx", "isel" or the phase that inserted it
    reason: str | None


@record(frozen=True)
class Kernel:
    name: str
    entry: bool                    # a .entry (else a .func)
    instructions: tuple[Instruction, ...]
    eiattrs: dict


@record(frozen=True)
class Compiled:
    sass: str
    kernels: dict[str, Kernel]
    ir: str
    diagnostics: list[Diagnostic] = field(default_factory=list)
    target: str = ""


def _diag(d, file: str, severity: str) -> Diagnostic:
    return Diagnostic(getattr(d, "file", None) or file, d.line or 1, d.col or 1, severity, d.message)


def errors_of(e: PtxError, file: str) -> list[Diagnostic]:
    """Every error a rejected compile carries: its list when it has one, else the error and the further
    messages ptxas prints for the same line."""
    return [Diagnostic(x.file or file, x.line or 1, x.col or 1, "error", m)
            for x in e.all() for m in (x.message,) + tuple(x.more)]


def compile(ptx_text: str, arch: str = "sm_75", opt_level: int = 3, knobs: dict | None = None, *,
            file: str = "<input>", options: dict | None = None) -> Compiled:
    """Compile PTX text for `arch` (any target `pylower --arch` takes; default sm_75 as ptxas) at -O`opt_level`
    with phase `knobs` (passes/knobs.py; an unknown name is an error) and ptxas's sync `options`
    (tools/ptxas_options.py keys: compile_only, no_membermask_overlap, ...). Raises CompileError."""
    from pylower.lowering import ori
    from pylower.passes.knobs import check_knobs
    from pylower.pipeline import compile_text
    from pylower.sass.instr import VIRTUAL
    from pylower.sass.printer import print_program
    try:
        check_knobs(dict(knobs or {}))
        if not 0 <= int(opt_level):
            raise PtxError(f"opt_level {opt_level}: expected 0..3")
        res = compile_text(ptx_text, file, arch, min(int(opt_level), 3), dict(knobs or {}), dict(options or {}))
    except PtxError as e:
        raise CompileError(errors_of(e, file)) from None
    kernels = {}
    for fn in res.program.functions:
        instrs = tuple(Instruction(i.offset, i.guard, i.mnemonic, tuple(i.operands), i.label, i.line or 0,
                                   i.origin or "ptx", i.reason)
                       for i in fn.instrs if i.opcode != VIRTUAL)
        kernels[fn.name] = Kernel(fn.name, fn.is_entry, instrs, dict(fn.eiattr))
    return Compiled(print_program(res.program), kernels, ori.print_module(res.module),
                    [_diag(w, file, w.severity) for w in res.warnings], res.program.target)
