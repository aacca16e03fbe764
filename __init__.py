"""pylower: a ptxas-style PTX backend (PTX -> Ori IR -> sync phases -> SASS + EIATTRs).

    import pylower
    out = pylower.compile(ptx_text, arch="sm_90")     # -> pylower.api.Compiled; raises pylower.CompileError

The API lives in pylower/api.py and is imported on first use, so `import pylower` (and the command line's
start-up) stays fast.
"""
__version__ = "0.1.0"
__all__ = ["compile", "CompileError", "Compiled", "Diagnostic", "__version__"]


def compile(ptx_text, arch="sm_75", opt_level=3, knobs=None, **kw):
    """PTX text -> pylower.api.Compiled (SASS text, per-kernel instructions and EIATTRs, the IR, the
    diagnostics); raises pylower.CompileError carrying every error. See pylower/api.py."""
    from pylower.api import compile as _compile
    return _compile(ptx_text, arch, opt_level, knobs, **kw)


def __getattr__(name):                   # lazy: CompileError, Compiled, Diagnostic, Kernel, Instruction
    if name in ("CompileError", "Compiled", "Diagnostic", "Kernel", "Instruction"):
        from pylower import api
        return getattr(api, name)
    raise AttributeError(f"module 'pylower' has no attribute '{name}'")
