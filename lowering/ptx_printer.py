"""Print the PTX AST back as PTX text (parse -> print -> parse gives the same AST)."""
from __future__ import annotations

from . import ptx_ast as A


def operand(o) -> str:
    t = type(o)
    if t is A.Reg or t is A.Sym:
        return o.name
    if t is A.Imm:
        return o.text
    if t is A.Addr:
        inner = ", ".join(operand(i) for i in o.items)
        if o.offset > 0:
            inner += f"+{o.offset}"
        elif o.offset < 0:
            inner += f"+{o.offset}"
        return f"[{inner}]"
    if t is A.Vec:
        return "{" + ", ".join(operand(i) for i in o.items) + "}"
    if t is A.Pair:
        return f"{operand(o.first)}|{operand(o.second)}"
    if t is A.Not:
        return "!" + operand(o.inner)
    if t is A.Neg:
        return "-" + operand(o.inner)
    if t is A.Sink:
        return "_"
    if t is A.Paren:
        return "(" + ", ".join(operand(i) for i in o.items) + ")"
    if t is A.Expr:
        return o.text
    raise TypeError(f"not an operand: {o!r}")


def guard(g) -> str:
    return "" if g is None else "@" + operand(g) + " "


def instruction(ins) -> str:
    """PTX text of an Instruction (or anything with opcode/mods/operands/guard, e.g. an Ori instruction)."""
    ops = ", ".join(operand(o) for o in ins.operands)
    return f"{guard(ins.guard)}{ins.opcode}{''.join(ins.mods)}{' ' + ops if ops else ''};"


def vardecl(d: A.VarDecl) -> str:
    s = " ".join((d.space,) + d.attrs) if not d.attrs or d.attrs[0] not in (".visible", ".extern", ".weak", ".common") \
        else " ".join(d.attrs[:_nlink(d.attrs)] + (d.space,) + d.attrs[_nlink(d.attrs):])
    s += " " + d.name
    if d.count is not None:
        s += f"<{d.count}>"
    for dim in d.dims:
        s += f"[{dim}]"
    if d.init is not None:
        s += " = " + d.init
    return s + ";"


def _nlink(attrs) -> int:
    n = 0
    while n < len(attrs) and attrs[n] in (".visible", ".extern", ".weak", ".common"):
        n += 1
    return n


def directive(d: A.Directive) -> str:
    if d.name in (".loc", ".file"):
        return f"{d.name} {d.text}".rstrip()
    if d.name == ".section":
        return f"{d.name} {d.text}"
    return f"{d.name} {d.text};" if d.text else f"{d.name};"


def param(p: A.Param) -> str:
    s = " ".join((p.space,) + p.attrs + (p.name,))
    for dim in p.dims:
        s += f"[{dim}]"
    return s


def statements(body, indent: str, out: list[str]) -> None:
    for st in body:
        t = type(st)
        if t is A.Instruction:
            out.append(indent + instruction(st))
        elif t is A.Label:
            out.append(f"{st.name}:")
        elif t is A.VarDecl:
            out.append(indent + vardecl(st))
        elif t is A.Directive:
            out.append(indent + directive(st))
        elif t is A.Block:
            out.append(indent + "{")
            statements(st.body, indent + "\t", out)
            out.append(indent + "}")
        else:
            raise TypeError(f"not a statement: {st!r}")


def function(f: A.Function) -> str:
    out = []
    head = " ".join(f.linkage + (f.kind,))
    if f.rets:
        head += " (" + ", ".join(param(p) for p in f.rets) + ")"
    head += " " + f.name
    if f.params or f.body is not None:
        head += "(" + ", ".join(param(p) for p in f.params) + ")" if f.params else "()"
    out.append(head)
    for d in f.perf:
        out.append(f"{d.name} {d.text}".rstrip() + (";" if d.name == ".pragma" else ""))
    if f.body is None:
        out[-1] += ";"
        return "\n".join(out)
    out.append("{")
    statements(f.body, "\t", out)
    out.append("}")
    return "\n".join(out)


def module(m: A.Module) -> str:
    out = [f".version {m.version[0]}.{m.version[1]}", ".target " + ", ".join(m.target),
           f".address_size {m.address_size}", ""]
    for it in m.items:
        if isinstance(it, A.Function):
            out.append(function(it))
            out.append("")
        elif isinstance(it, A.VarDecl):
            out.append(vardecl(it))
        elif isinstance(it, A.Block):           # a multi-name declaration at module level
            for d in it.body:
                out.append(vardecl(d))
        else:
            out.append(directive(it))
    return "\n".join(out) + "\n"
