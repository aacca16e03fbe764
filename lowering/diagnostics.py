"""Diagnostics in ptxas's shape: ``file:line:col: error: message``.

Every user-facing failure is a PtxError; the driver prints it and exits 1, never a traceback.
"""
from __future__ import annotations

from pylower.records import field, record


class PtxError(Exception):
    """A diagnostic at a source position (line/col are 1-based; 0 means unknown)."""

    def __init__(self, message: str, line: int = 0, col: int = 0, file: str | None = None, more: tuple = (),
                 fatal: bool = False):
        super().__init__(message)
        self.message = message
        self.line = line
        self.col = col
        self.file = file
        self.more = tuple(more)      # further messages ptxas prints for the same line, in its order
        self.fatal = fatal           # ptxas stops at it (a syntax error): nothing after it is checked
        self.following: tuple[PtxError, ...] = ()    # the further errors of the file, in ptxas's order

    @classmethod
    def collected(cls, errors: list["PtxError"]) -> "PtxError":
        """One exception for every error of a file (ptxas reports them all): the first, carrying the rest."""
        flat, seen = [], set()
        for e in errors:                  # an element may itself carry the errors after it
            for x in e.all():
                if id(x) not in seen:
                    seen.add(id(x))
                    flat.append(x)
        one = [cls(x.message, x.line, x.col, x.file, x.more, x.fatal) for x in flat]
        one[0].following = tuple(one[1:])
        return one[0]

    def all(self) -> list["PtxError"]:
        return [self, *self.following]

    def messages(self) -> list[tuple[int, str]]:
        """(line, message) of every error, in order."""
        return [(e.line or 1, m) for e in self.all() for m in (e.message,) + e.more]

    def format(self, default_file: str = "<input>") -> str:
        out = []
        for e in self.all():
            f = e.file or self.file or default_file
            out.extend(f"{f}:{e.line or 1}:{e.col or 1}: error: {m}" for m in (e.message,) + e.more)
        return "\n".join(out)

    def __str__(self) -> str:
        return self.format()


@record
class Warning_:
    message: str
    line: int = 0
    col: int = 0
    severity: str = "warning"        # or "info" (ptxas's informational remarks)

    def format(self, file: str) -> str:
        return f"{file}:{self.line or 1}:{self.col or 1}: {self.severity}: {self.message}"


@record
class Diagnostics:
    """Collects warnings during a run (errors are raised)."""
    warnings: list[Warning_] = field(default_factory=list)

    def warn(self, message: str, line: int = 0, col: int = 0) -> None:
        self.warnings.append(Warning_(message, line, col))

    def info(self, message: str, line: int = 0, col: int = 0) -> None:
        self.warnings.append(Warning_(message, line, col, "info"))
