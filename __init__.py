"""pylower: a ptxas-style PTX backend (PTX -> Ori IR -> sync phases -> SASS + EIATTRs).

    import pylower
    out = pylower.compile(ptx_text, arch="sm_90")     # -> pylower.api.Compiled; raises pylower.CompileError

The API lives in pylower/api.py and is imported on first use, so `import pylower` (and the command line's
start-up) stays fast.
"""
__version__ = "0.1.0"
__all__ = ["compile", "CompileError", "Compiled", "Diagnostic", "__version__"]

import os as _os
import sys as _sys
from importlib import _bootstrap_external as _external


class _PackageFinder:
    """Finds pylower's own submodules for the import system, ahead of the path finder (issue 13: start-up).

    A run imports about 80 of them, and the standard path finder costs about 90k executed instructions per
    module before the module is read (asking the built-in and frozen importers first, joining the folder with
    every file suffix, checking the folder's time stamp): here it is one look-up in the folder's listing, read
    once. What it finds is what the path finder would find (a package folder with `__init__.py` first, then
    `NAME.py`), with the same spec: file, cached byte code and the standard source loader, so reading, byte
    code caching and tracebacks are unchanged. Anything else (another suffix, a name it does not list) is left
    to the path finder."""

    def __init__(self):
        self._listings: dict[str, frozenset] = {}

    def _listing(self, folder: str) -> frozenset:
        names = self._listings.get(folder)
        if names is None:
            try:
                names = frozenset(_os.listdir(folder))
            except OSError:
                names = frozenset()
            self._listings[folder] = names
        return names

    def find_spec(self, name, path=None, target=None):
        if path is None or not name.startswith("pylower."):
            return None
        tail = name.rpartition(".")[2]
        for folder in path:
            if not isinstance(folder, str):
                return None
            names = self._listing(folder)
            if tail in names:
                sub = _os.path.join(folder, tail)
                if "__init__.py" in self._listing(sub):
                    origin = _os.path.join(sub, "__init__.py")
                    return _external.spec_from_file_location(
                        name, origin, loader=_external.SourceFileLoader(name, origin),
                        submodule_search_locations=[sub])
            if tail + ".py" in names:
                origin = _os.path.join(folder, tail + ".py")
                return _external.spec_from_file_location(name, origin,
                                                         loader=_external.SourceFileLoader(name, origin))
        return None


if not any(type(f).__name__ == "_PackageFinder" for f in _sys.meta_path):
    _sys.meta_path.insert(0, _PackageFinder())


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
