"""The static shared memory of an entry, as ptxas counts it, and ptxas's limit on it.

What ptxas counts (docs/findings/cli.md; `pylower -v` prints it): the kernel's own `.shared` variables (used or
not) in declaration order, then the module-level ones the kernel or a function it calls names, each at its
alignment; `.extern` (dynamic) shared memory is not counted.

The limit (docs/findings/frontend.md "Static shared memory above 48 KiB (helper nv27async, stop 27)"): 0xc000 bytes
unless the target is architecture-specific (STATIC_SHARED_DEVICE_LIMIT: the device's capacity, 0x38c00 bytes, or
0x18c00 on SHARED_CAPACITY_99K); over it ptxas rejects the entry with "Entry function 'k' uses too much shared
data (0xc030 bytes, 0xc000 max)".
"""
from __future__ import annotations

import re

from . import ptx_ast as A

_DEFAULT_LIMIT = 0xc000
_DEVICE_LIMIT = {False: 0x38c00, True: 0x18c00}      # keyed by SHARED_CAPACITY_99K


def size_align(d: A.VarDecl | A.Param) -> tuple[int, int]:
    """(bytes, alignment) of a variable or parameter declaration (also isel/generic.py's parameter offsets):
    element type x dims x vector width, aligned to `.align` or its element."""
    size, align = 4, 0
    for a in d.attrs:
        if a.startswith(".align"):
            align = int(a.split()[-1]) if " " in a else align
        elif a[:2] in (".b", ".u", ".s", ".f") and a[2:].isdigit():
            size = int(a[2:]) // 8
    n = 1
    for x in d.dims:
        n *= int(x) if str(x).isdigit() else 1
    vec = next((int(a[2:]) for a in d.attrs if a in (".v2", ".v4", ".v8")), 1)
    return size * n * vec, max(align, size * vec)


def layout(decls) -> int:
    """The bytes of the variables laid out in order, each at its alignment."""
    end = 0
    for d in decls:
        size, align = size_align(d)
        align = max(align, 1)
        end = (end + align - 1) // align * align + size
    return end


def _words(text: str):
    return re.findall(r"[A-Za-z_$][\w$]*", text)


def names_used(fn) -> set[str]:
    """Every symbol name an instruction of the Ori function mentions (operands, addresses, expressions)."""
    out: set[str] = set()
    stack = [o for ins in fn.instructions() for o in ins.operands]
    while stack:
        o = stack.pop()
        t = type(o)
        if t is A.Sym:
            out.add(o.name)
        elif t is A.Expr:
            out.update(_words(o.text))
        elif t in (A.Addr, A.Vec, A.Paren):
            stack.extend(o.items)
        elif t is A.Pair:
            stack.extend((o.first, o.second))
        elif t in (A.Not, A.Neg):
            stack.append(o.inner)
    return out


def reachable(module, name: str) -> list[str]:
    """The function and every function it calls, directly or not (first seen first)."""
    seen, order, stack = set(), [], [name]
    while stack:
        n = stack.pop()
        if n in seen:
            continue
        seen.add(n)
        order.append(n)
        fn = module.function(n)
        if fn is not None:
            stack.extend(reversed(fn.callees))
    return order


def static_shared_bytes(module, fn) -> int:
    """The entry's static shared memory, as ptxas counts it (module docstring)."""
    shared_globals = [g for g in module.globals if type(g) is A.VarDecl and g.space == ".shared"
                      and ".extern" not in g.attrs]
    used = set().union(*(names_used(module.function(n)) for n in reachable(module, fn.name)
                         if module.function(n) is not None))
    local = [d for d in fn.decls if type(d) is A.VarDecl and d.space == ".shared" and ".extern" not in d.attrs]
    return layout(local + [g for g in shared_globals if g.name in used])


def limit(target) -> int:
    """ptxas's largest static shared memory of an entry on the target."""
    if target.has("STATIC_SHARED_DEVICE_LIMIT"):
        return _DEVICE_LIMIT[target.has("SHARED_CAPACITY_99K")]
    return _DEFAULT_LIMIT


def too_much_shared(module, target) -> list[tuple[str, int]]:
    """(ptxas's message, the entry's line) for every entry whose static shared memory is over the target's
    limit. ptxas prints the message without a line; pylower locates it at the entry's declaration."""
    cap = limit(target)
    out = []
    for fn in module.functions:
        if fn.is_entry:
            n = static_shared_bytes(module, fn)
            if n > cap:
                out.append((f"Entry function '{fn.name}' uses too much shared data ({n:#x} bytes, {cap:#x} max)",
                            fn.decl.line))
    return out
