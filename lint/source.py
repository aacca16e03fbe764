"""Source positions of Ori instructions: the builder keeps each instruction's PTX line; the column is found
in the source text (the first character of the instruction, its guard included)."""
from __future__ import annotations

import re

_CACHE: dict[tuple, re.Pattern] = {}


def _pattern(opcode: str) -> re.Pattern:
    p = _CACHE.get(opcode)
    if p is None:
        p = _CACHE[opcode] = re.compile(r"(?:(?<=^)|(?<=[\s;{}:]))(@!?\s*[%\w$.]+\s+)?" + re.escape(opcode) + r"(?=[.\s;])")
    return p


class Locator:
    """Columns of instructions on their lines: the n-th instruction with a given opcode on a line is the n-th
    match of that opcode in the line's text."""

    def __init__(self, text: str):
        self.lines = text.splitlines()
        self._seen: dict[tuple[int, str], list[int]] = {}
        self._col: dict[int, int] = {}

    def index_function(self, fn) -> None:
        count: dict[tuple[int, str], int] = {}
        for b in fn.blocks:
            for ins in b.instrs:
                if not ins.line:
                    continue
                k = (ins.line, ins.opcode)
                n = count.get(k, 0)
                count[k] = n + 1
                cols = self._seen.get(k)
                if cols is None:
                    text = self.lines[ins.line - 1] if 0 < ins.line <= len(self.lines) else ""
                    cols = self._seen[k] = [m.start() + 1 for m in _pattern(ins.opcode).finditer(text)]
                self._col[id(ins)] = cols[n] if n < len(cols) else (cols[-1] if cols else self.indent(ins.line))

    def indent(self, line: int) -> int:
        if 0 < line <= len(self.lines):
            t = self.lines[line - 1]
            return len(t) - len(t.lstrip()) + 1
        return 1

    def col(self, ins) -> int:
        return self._col.get(id(ins)) or self.indent(ins.line)

    def text(self, line: int) -> str:
        return self.lines[line - 1].strip() if 0 < line <= len(self.lines) else ""
