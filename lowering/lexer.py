"""PTX lexer: one compiled regex, tokens pulled lazily (the parser looks one or two tokens ahead).

Token kinds: NUM, STR, DIR (.reg, .shared::cta), ID (opcodes with modifiers, registers, labels, %tid.x),
and single-character punctuation (the character itself). Comments and whitespace are skipped; positions
are byte offsets, turned into line/col only when a diagnostic or provenance needs them.
"""
from __future__ import annotations

import bisect
import re

from pylower.lazy_re import lazy_compile

from .diagnostics import PtxError

TOKEN_RE = lazy_compile(r"""
    (?P<WS>\s+)
  | (?P<COMMENT>//[^\n]*|/\*.*?\*/)
  | (?P<STR>"(?:[^"\\\n]|\\.)*")
  | (?P<NUM>0[fF][0-9a-fA-F]{8}(?![\w$])|0[dD][0-9a-fA-F]{16}(?![\w$])|0[xX][0-9a-fA-F]+[Uu]?|0[bB][01]+[Uu]?
           |\d+\.\d*(?:[eE][+-]?\d+)?|\d+[eE][+-]?\d+|(?:0[0-7]*|[1-9]\d*)[Uu]?)      # "09" is "0" "9", as in ptxas
  | (?P<DIR>\.[A-Za-z_$][\w$]*(?:::[\w$]+)*)
  | (?P<ID>[A-Za-z_$%][\w$]*(?:(?:\.|::)[\w$]+)*)
  | (?P<P>[{}()\[\];,:@!|<>+\-=*/~&^?%])
""", re.X | re.S)


class Lexer:
    __slots__ = ("text", "_it", "_buf", "_nl", "file", "_end", "_lpos", "_lline", "_lstart")

    def __init__(self, text: str, file: str = "<input>"):
        self.text = text
        self.file = file
        self._it = TOKEN_RE.finditer(text)
        self._buf: list[tuple[str, str, int]] = []
        self._nl: list[int] | None = None
        self._end = 0
        self._lpos, self._lline, self._lstart = 0, 1, 0     # incremental line counting (forward moves)

    def _pull(self) -> tuple[str, str, int]:
        if self._it is None:
            self._it = TOKEN_RE.finditer(self.text, self._end)
        for m in self._it:
            if m.start() != self._end:
                raise self._bad(self._end)
            self._end = m.end()
            kind = m.lastgroup
            if kind == "WS" or kind == "COMMENT":
                continue
            if kind == "P":
                t = m.group()
                return (t, t, m.start())
            return (kind, m.group(), m.start())
        end = len(self.text)
        if self._end != end:          # text the regex could not match is an error, never skipped
            raise self._bad(self._end)
        return ("EOF", "", end)

    def _bad(self, pos: int) -> PtxError:
        ch = self.text[pos]
        if ch == '"':
            return self.error("unterminated string", pos)
        if self.text.startswith("/*", pos):
            return self.error("unterminated comment", pos)
        return self.error(f"syntax error: unexpected character '{ch}'", pos)

    def fast_match(self, pattern):
        """Try `pattern` at the current position (only with no token buffered); on a match, consume it."""
        if self._buf:
            return None
        m = pattern.match(self.text, self._end)
        if m is not None:
            self.consume_to(m.end())
        return m

    def consume_to(self, pos: int) -> None:
        """Skip the text up to pos (matched by a fast path); the token iterator restarts lazily."""
        self._end = pos
        self._it = None

    def rewind(self, pos: int) -> None:
        self._buf.clear()
        self._end = pos
        self._it = None

    def peek(self, k: int = 0) -> tuple[str, str, int]:
        buf = self._buf
        while len(buf) <= k:
            buf.append(self._pull())
        return buf[k]

    def next(self) -> tuple[str, str, int]:
        if self._buf:
            return self._buf.pop(0)
        return self._pull()

    # -- positions
    def linecol(self, pos: int) -> tuple[int, int]:
        if pos >= self._lpos:
            text = self.text
            n = text.count("\n", self._lpos, pos)
            if n:
                self._lline += n
                self._lstart = text.rfind("\n", 0, pos) + 1
            self._lpos = pos
            return self._lline, pos - self._lstart + 1
        if self._nl is None:
            self._nl = [m.start() for m in re.finditer("\n", self.text)]
        line = bisect.bisect_left(self._nl, pos)
        start = self._nl[line - 1] + 1 if line else 0
        return line + 1, pos - start + 1

    def error(self, message: str, pos: int) -> PtxError:
        line, col = self.linecol(pos)
        return PtxError(message, line, col, self.file)
