"""What a check reports: a finding at one instruction, with notes at the related places, and the registry of
checks (one module per check under lint/checks/ registers itself with `@check`)."""
from __future__ import annotations

from pylower.records import record
from typing import Callable


@record(frozen=True)
class Note:
    line: int
    col: int
    message: str


@record(frozen=True)
class Finding:
    check: str                       # the check id, e.g. "divergent-barrier"
    file: str
    line: int
    col: int
    message: str
    notes: tuple[Note, ...] = ()
    function: str = ""               # the kernel or function it is in

    def key(self):
        return (self.file, self.line, self.col, self.check, self.message)


@record(frozen=True)
class Check:
    id: str
    summary: str                     # one line: what it finds
    run: Callable                    # run(kernel: KernelFacts) -> iterable of Finding
    help: str = ""                   # docs/lint/<id>.md


CHECKS: dict[str, Check] = {}


def check(id: str, summary: str):
    """Register a check function `run(kernel) -> iterable[Finding]` under its id."""
    def deco(fn):
        CHECKS[id] = Check(id, summary, fn, f"docs/lint/{id}.md")
        return fn
    return deco
