"""`pylower -v`: ptxas -v's per-function lines, on pylower's result (ptxas 13.0.88 prints them on stderr):

    ptxas info    : 40 bytes gmem
    ptxas info    : Compiling entry function 'k' for 'sm_90'
    ptxas info    : Function properties for k
        0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
    ptxas info    : Used 8 registers, used 2 barriers, 12 bytes smem
    ptxas info    : Function properties for f           (a function k calls, after k)

pylower prints the same lines with its own prefix, except what it does not model: registers stay virtual, so
the register count, stack frame and spill figures are replaced by saying so.

What ptxas counts (experiments in docs/findings/cli.md):
- gmem: the module's `.global` variables, laid out in declaration order, each at its alignment.
- barriers: EIATTR_NUM_BARRIERS.
- smem: the kernel's own `.shared` variables (used or not) in declaration order, then the module-level ones
  the kernel or a function it calls uses, each at its alignment; `.extern` (dynamic) shared memory is not
  counted; nothing is printed when it is 0.
- order: whole-program, the entries in reverse order of definition, each followed by the functions it calls
  that were not printed yet; with -c, every function first (reverse order), then the entries (reverse order).
"""
from __future__ import annotations

from pylower.lowering import ptx_ast as A
from pylower.lowering.shared_size import layout, reachable, static_shared_bytes

PREFIX = "pylower info    : "


def report(result, arch: str, compile_only: bool = False) -> str:
    module, prog = result.module, result.program
    eiattr = {f.name: f.eiattr for f in prog.functions}
    glob = [g for g in module.globals if type(g) is A.VarDecl and g.space == ".global"]
    lines = [f"{PREFIX}{layout(glob)} bytes gmem"]
    fns = [f for f in module.functions]
    entries = [f for f in reversed(fns) if f.is_entry]
    funcs = [f for f in reversed(fns) if not f.is_entry]

    def properties(name: str) -> None:
        lines.append(f"{PREFIX}Function properties for {name}")
        lines.append("    registers are virtual: no stack frame, spill or register figures")

    def entry(fn) -> None:
        lines.append(f"{PREFIX}Compiling entry function '{fn.name}' for '{arch}'")
        properties(fn.name)
        smem = static_shared_bytes(module, fn)
        tail = f", {smem} bytes smem" if smem else ""
        lines.append(f"{PREFIX}Used virtual registers, used {eiattr.get(fn.name, {}).get('EIATTR_NUM_BARRIERS', 0)} "
                     f"barriers{tail}")

    if compile_only:
        for f in funcs:
            properties(f.name)
        for f in entries:
            entry(f)
    else:
        printed: set[str] = set()
        for e in entries:
            entry(e)
            for n in reachable(module, e.name)[1:]:
                if n not in printed and module.function(n) is not None:
                    printed.add(n)
                    properties(n)
    return "".join(x + "\n" for x in lines)
