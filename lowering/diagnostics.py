"""Diagnostics in ptxas's shape: ``file:line:col: error: message``.

Every user-facing failure is a PtxError; the driver prints it and exits 1, never a traceback.
"""
from __future__ import annotations

from dataclasses import dataclass, field


class PtxError(Exception):
    """A diagnostic at a source position (line/col are 1-based; 0 means unknown)."""

    def __init__(self, message: str, line: int = 0, col: int = 0, file: str | None = None, more: tuple = ()):
        super().__init__(message)
        self.message = message
        self.line = line
        self.col = col
        self.file = file
        self.more = tuple(more)      # further messages ptxas prints for the same line, in its order

    def format(self, default_file: str = "<input>") -> str:
        f = self.file or default_file
        return "\n".join(f"{f}:{self.line or 1}:{self.col or 1}: error: {m}" for m in (self.message,) + self.more)

    def __str__(self) -> str:
        return self.format()


@dataclass
class Warning_:
    message: str
    line: int = 0
    col: int = 0
    severity: str = "warning"        # or "info" (ptxas's informational remarks)

    def format(self, file: str) -> str:
        return f"{file}:{self.line or 1}:{self.col or 1}: {self.severity}: {self.message}"


@dataclass
class Diagnostics:
    """Collects warnings during a run (errors are raised)."""
    warnings: list[Warning_] = field(default_factory=list)

    def warn(self, message: str, line: int = 0, col: int = 0) -> None:
        self.warnings.append(Warning_(message, line, col))

    def info(self, message: str, line: int = 0, col: int = 0) -> None:
        self.warnings.append(Warning_(message, line, col, "info"))
