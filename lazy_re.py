"""Regular expressions compiled on their first use, not at import (issue 13: start-up).

`re.compile` runs the pure-Python `re._parser` and `re._compiler`: the 23 module-level patterns of the compiler
cost about 10% of a one-instruction run, and most of them (the `.loc` fast path, special registers, address
forms, SASS register names of the scheduler's listing checks) are never used on a small input.
`lazy_compile(pattern, flags)` returns a stand-in with the pattern's methods: the first attribute asked of it
compiles the pattern and puts the compiled pattern's methods and attributes on the stand-in itself, so every
later `X.match(...)` is one instance-attribute lookup, as cheap as on the pattern.
"""
from __future__ import annotations

import re

__all__ = ["lazy_compile", "LazyPattern"]

# what a compiled pattern offers, copied onto the stand-in at its first use
_ATTRS = ("match", "fullmatch", "search", "finditer", "findall", "sub", "subn", "split", "scanner",
          "pattern", "flags", "groups", "groupindex")


class LazyPattern:
    def __init__(self, pattern: str, flags: int = 0):
        self._source = (pattern, flags)

    def compiled(self) -> re.Pattern:
        p = re.compile(*self._source)
        d = self.__dict__
        for name in _ATTRS:
            d[name] = getattr(p, name)
        d["compiled"] = lambda: p
        return p

    def __getattr__(self, name: str):
        if name.startswith("__") or name not in _ATTRS:
            raise AttributeError(name)
        return getattr(self.compiled(), name)

    def __repr__(self) -> str:
        return f"lazy_compile({self._source[0]!r}, {self._source[1]!r})"


def lazy_compile(pattern: str, flags: int = 0) -> LazyPattern:
    return LazyPattern(pattern, flags)
