"""pylower-lint: find synchronization bugs in PTX before they hang a GPU.

The checks (lint/checks/, one module each; docs/lint/<check>.md) run on the Ori IR the compiler's parser and
builder make, before any phase: they are about the program as written.

    from pylower.lint import lint_text
    for f in lint_text(ptx, "k.ptx"):
        print(f.line, f.check, f.message)
"""
from __future__ import annotations

from . import checks  # noqa: F401  (registers every check)
from .facts import ModuleFacts
from .finding import CHECKS, Finding, Note  # noqa: F401


def select_checks(enable=None, disable=None) -> list[str]:
    """The check ids to run: all of them, or only `enable`, minus `disable` (unknown ids: ValueError)."""
    for name in list(enable or ()) + list(disable or ()):
        if name not in CHECKS:
            raise ValueError(f"unknown check '{name}' (known: {', '.join(sorted(CHECKS))})")
    ids = list(enable) if enable else list(CHECKS)
    return [i for i in ids if i not in set(disable or ())]


def lint_module(m: ModuleFacts, ids=None) -> list[Finding]:
    out: dict = {}
    for cid in ids or list(CHECKS):
        for f in CHECKS[cid].run(m):
            out.setdefault(f.key(), f)
    return sorted(out.values(), key=lambda f: (f.file, f.line, f.col, f.check))


def lint_text(text: str, file: str = "<input>", arch=None, enable=None, disable=None) -> list[Finding]:
    """Every finding of the selected checks on one PTX text. Bad input raises the compiler's PtxError."""
    return lint_module(ModuleFacts(text, file, arch), select_checks(enable, disable))
