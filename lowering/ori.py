"""The Ori IR: module -> functions (with call graph) -> basic blocks (CFG) -> instructions.

An instruction keeps the PTX spelling of its operation (stem + modifiers + operands, so it prints as
PTX) and adds what ptxas's Ori IR carries: the Ori opcode number (96 barrier, 119 vote/warp collective,
130 sync-internal pseudo, 314 atom/red; the other classes are pylower's own numbers, see ORI_CLASSES),
typed attributes (for 314 the packed 32-bit modifier word), the guard predicate and provenance (PTX line;
the pass that created or last rewrote it).

Text form (stable, diff-friendly, parses back with parse_ir):

    module version=9.0 target=sm_90 address_size=64
    global .shared .align 4 .b8 smem[1024];
    function .visible .entry k(.param .u64 k_param_0)
      decl .reg .b32 %r<10>;
      block $entry succs=$L__BB0_2
        96 bar.sync 0;  !line=12 !by=build
        314 @%p1 atom.global.add.u32 %r3, [%rd1], %r2;  !line=14 !by=build !word=0x60000008
    end
"""
from __future__ import annotations

from pylower.records import field, record

from . import ptx_ast as A
from . import ptx_printer as P
from .diagnostics import PtxError
# The operation schema (classes, pseudo-op names, typed attribute records): lowering/ori_schema.py.
from .ori_schema import DECLARED_OPCODES, ORI_CLASS_NAME, ORI_CLASSES, PSEUDO_OPCODES, make_attrs, nondefault  # noqa: F401


@record(slots=True)
class Instr:
    op: int                          # Ori opcode class number
    opcode: str                      # PTX stem ("bar") or pseudo-op name
    mods: tuple[str, ...]
    operands: tuple
    guard: object = None
    attrs: object = None             # the typed attribute record its operation declares (ori_schema.py);
                                     # a dict of keyword values is converted to it
    line: int = 0
    by: str = "build"

    def __post_init__(self):
        if self.attrs is None or type(self.attrs) is dict:
            self.attrs = make_attrs(self.opcode, self.op, self.attrs)

    @property
    def name(self) -> str:
        return self.opcode + "".join(self.mods)

    def has(self, *mods: str) -> bool:
        return any(m in self.mods for m in mods)


# label prefix of blocks ptxas places after the function's last block whatever the control flow (the
# out-of-line retry of a try_wait spin loop: passes/p42_expand_mbarrier.py; isel/block_order.py)
OUT_OF_LINE = "$__ool_"


@record(slots=True)
class BasicBlock:
    label: str
    instrs: list[Instr] = field(default_factory=list)
    succs: list[str] = field(default_factory=list)
    preds: list[str] = field(default_factory=list)


@record(slots=True)
class Function:
    decl: A.Function                 # header (params, linkage, perf directives); body=None
    decls: list                      # VarDecl / Directive inside the body
    blocks: list[BasicBlock]
    callees: list[str] = field(default_factory=list)
    shared_symbols: frozenset = frozenset()    # the .shared variables it can name (module and its own)

    @property
    def name(self) -> str:
        return self.decl.name

    @property
    def is_entry(self) -> bool:
        return self.decl.is_entry

    def instructions(self):
        for b in self.blocks:
            yield from b.instrs


@record(slots=True)
class Module:
    version: tuple[int, int]
    target: tuple[str, ...]
    address_size: int
    globals: list                    # module-level VarDecl / Directive
    functions: list[Function]
    file: str = "<input>"

    def function(self, name: str) -> Function | None:
        for f in self.functions:
            if f.name == name:
                return f
        return None

# ---------------------------------------------------------------- printing


def _attr_text(v) -> str:
    if isinstance(v, bool):
        return "1" if v else "0"
    if isinstance(v, int):
        return hex(v) if v > 9 else str(v)
    return str(v)


def print_instr(ins: Instr) -> str:
    meta = f"!line={ins.line} !by={ins.by}"
    for k, v in nondefault(ins.attrs):
        meta += f" !{k}={_attr_text(v)}"
    return f"{ins.op} {P.instruction(ins)}  {meta}"


def print_function(f: Function) -> str:
    hdr = P.function(A.Function(f.decl.kind, f.decl.linkage, f.decl.name, f.decl.params, f.decl.rets,
                                f.decl.perf, None, f.decl.line))
    hdr = hdr.rstrip(";").replace("\n", " ")
    out = [f"function {hdr}"]
    for d in f.decls:
        out.append("  decl " + (P.vardecl(d) if isinstance(d, A.VarDecl) else P.directive(d)))
    for b in f.blocks:
        out.append(f"  block {b.label}" + (f" succs={','.join(b.succs)}" if b.succs else ""))
        for ins in b.instrs:
            out.append("    " + print_instr(ins))
    out.append("end")
    return "\n".join(out)


def print_module(m: Module, only: str | None = None) -> str:
    out = [f"module version={m.version[0]}.{m.version[1]} target={','.join(m.target)} address_size={m.address_size}"]
    for g in m.globals:
        out.append("global " + (P.vardecl(g) if isinstance(g, A.VarDecl) else P.directive(g)))
    for f in m.functions:
        if only is None or f.name == only:
            out.append(print_function(f))
    return "\n".join(out) + "\n"

# ---------------------------------------------------------------- parsing


def parse_instr_line(text: str, lineno: int = 0, file: str = "<ir>") -> Instr:
    from .parser import Parser
    body, _, meta = text.partition("  !")
    op_s, _, ptx = body.strip().partition(" ")
    try:
        op = int(op_s)
    except ValueError:
        raise PtxError(f"expected an Ori opcode number, got '{op_s}'", lineno, 1, file)
    p = Parser(ptx, file)
    p.known_opcodes = p.known_opcodes | DECLARED_OPCODES
    ins = p.parse_instruction()
    attrs, line, by = {}, 0, "build"
    for item in ("!" + meta).split() if meta else []:
        k, _, v = item[1:].partition("=")
        if k == "line":
            line = int(v)
        elif k == "by":
            by = v
        else:
            attrs[k] = v
    try:
        record = make_attrs(ins.opcode, op, attrs)
    except (KeyError, ValueError) as e:
        raise PtxError(f"bad attribute for Ori '{ins.opcode}' (class {op}): {e}", lineno, 1, file)
    return Instr(op, ins.opcode, ins.mods, ins.operands, ins.guard, record, line, by)


def parse_ir(text: str, file: str = "<ir>") -> Module:
    from .parser import Parser
    version, target, asize = (0, 0), (), 64
    globals_, functions = [], []
    cur: Function | None = None
    block: BasicBlock | None = None
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("//"):
            continue
        kw, _, rest = line.partition(" ")
        try:
            if kw == "module":
                kv = dict(item.split("=", 1) for item in rest.split())
                major, minor = kv["version"].split(".")
                version, target, asize = (int(major), int(minor)), tuple(kv["target"].split(",")), int(kv["address_size"])
            elif kw == "global":
                item = Parser(rest, file).parse_toplevel()
                globals_.extend(item.body if isinstance(item, A.Block) else [item])
            elif kw == "function":
                decl = Parser(rest + ";", file).parse_toplevel()
                cur = Function(decl, [], [])
                functions.append(cur)
                block = None
            elif kw == "decl":
                p = Parser(rest, file)
                t = p.peek()
                cur.decls.extend(p.parse_vardecl(()) if t[1] in (".reg", ".shared", ".local", ".param", ".const", ".global")
                                 else [p.parse_directive()])
            elif kw == "block":
                label, _, succ = rest.partition(" ")
                block = BasicBlock(label, [], succ.split("=", 1)[1].split(",") if succ else [])
                cur.blocks.append(block)
            elif kw == "end":
                cur, block = None, None
            else:
                block.instrs.append(parse_instr_line(line, n, file))
        except PtxError as e:
            raise PtxError(e.message, n, e.col, file)
        except (AttributeError, KeyError, ValueError) as e:
            raise PtxError(f"malformed Ori IR line: {line!r}", n, 1, file) from e
    m = Module(version, target, asize, globals_, functions, file)
    for f in m.functions:
        link_preds(f)
    return m


def rebuild_blocks(fn: Function, expand) -> None:
    """Rebuild `fn`'s blocks instruction by instruction (the build-time expansions): `expand(ins, cur, blocks)`
    appends `ins`, or what replaces it, to `cur` (the block being built) and returns the block to go on with:
    `cur`, or a new one it appended to `blocks` after splitting `cur` there. The last block of each split keeps
    the old block's successors; a split function gets its predecessor lists relinked, else each block keeps its
    identity and takes its new instruction list."""
    blocks: list[BasicBlock] = []
    for b in fn.blocks:
        cur = BasicBlock(b.label, [], [])
        blocks.append(cur)
        for ins in b.instrs:
            cur = expand(ins, cur, blocks)
        cur.succs = list(b.succs)
    if len(blocks) != len(fn.blocks):
        fn.blocks = blocks
        link_preds(fn)
    else:
        for old, new in zip(fn.blocks, blocks):
            old.instrs = new.instrs


def link_preds(f: Function) -> None:
    by_label = {b.label: b for b in f.blocks}
    for b in f.blocks:
        b.preds = []
    for b in f.blocks:
        for s in b.succs:
            if s in by_label:
                by_label[s].preds.append(b.label)
