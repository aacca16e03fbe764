"""PTX AST -> Ori IR: module checks (.version/.target against --arch), symbol resolution, CFG
construction, and per-instruction lowering through the family handlers (lowering.handlers)."""
from __future__ import annotations

from pylower.lazy_re import lazy_compile

from . import arity, generic, isa_gates, math_subroutines, operand_types, operand_values, ptx_modifiers, shared_size, \
    tensormap_copy
from . import ptx_ast as A
from .diagnostics import Diagnostics, PtxError
from .handlers import HANDLERS
from .ori import BasicBlock, Function, Instr, Module, link_preds
from .target import MAX_PTX_VERSION, Target, parse_target, target_accepts


# Minimum PTX ISA version per .target (probed: "PTX .version 7.0 does not support .target sm_90").
MIN_PTX_FOR_TARGET = {
    "sm_75": (6, 3), "sm_80": (7, 0), "sm_86": (7, 1), "sm_87": (7, 4), "sm_88": (7, 3), "sm_89": (7, 8),
    "sm_90": (7, 8), "sm_90a": (8, 0), "sm_100": (8, 6), "sm_100a": (8, 6), "sm_100f": (8, 8),
    "sm_103": (8, 8), "sm_103a": (8, 8), "sm_103f": (8, 8), "sm_110": (9, 0), "sm_110a": (9, 0),
    "sm_110f": (9, 0), "sm_120": (8, 7), "sm_120a": (8, 7), "sm_120f": (8, 8), "sm_121": (8, 8),
    "sm_121a": (8, 8), "sm_121f": (8, 8),
}

_REG_RANGE_RE = lazy_compile(r"^(.*?)(\d+)$")


class BuildContext:
    """What a family handler sees: the target, the PTX version, diagnostics, and emit helpers.

    `target` is the module's `.target`: ptxas checks instruction features against it ("Feature 'elect'
    requires .target sm_90 or higher" even when compiling with -arch=sm_90). `arch` is --arch, which
    instruction selection uses.
    """

    def __init__(self, target: Target, version: tuple[int, int], diags: Diagnostics, file: str,
                 arch: Target | None = None):
        self.target = target
        self.arch = arch or target
        self.version = version
        self.diags = diags
        self.file = file
        self.function: A.Function | None = None
        self.decls: list = []                  # the current function's declarations (nested scopes opened)
        self.shared_symbols: set[str] = set()
        self.reg_types: dict[str, str] = {}
        self.symbol_spaces: dict[str, str] = {}   # variable name -> its declared state space (module + function)
        self.regs = None                          # operand_types.RegTypes of the current function
        self.dropped_modifiers: tuple = ()       # the current instruction's unknown modifiers (reported, dropped)
        self.addr32_lines: list[int] = []         # lines addressing global/generic memory via a 32-bit register

    def error(self, message: str, ins) -> PtxError:
        return PtxError(message, getattr(ins, "line", 0), getattr(ins, "col", 0), self.file)

    def instr(self, cls: int, ins: A.Instruction, opcode: str | None = None, mods=None, operands=None,
              **attrs) -> Instr:
        return Instr(cls, opcode or ins.opcode, ins.mods if mods is None else tuple(mods),
                     ins.operands if operands is None else tuple(operands), ins.guard, attrs, ins.line, "build")

    def require_version(self, ins, major: int, minor: int, what: str | None = None) -> None:
        if self.version < (major, minor):
            raise self.error(f"Feature '{what or ins.name}' requires PTX ISA .version {major}.{minor} or later", ins)


class _Scope:
    """Declared names of one function: registers (with %r<N> ranges), labels, variables."""

    def __init__(self, globals_: set[str]):
        self.names: set[str] = set(globals_)
        self.labels: set[str] = set()
        self.ranges: dict[str, int] = {}
        self._cache: dict[str, bool] = {}

    def declare(self, d: A.VarDecl) -> None:
        if d.count is not None:
            self.ranges[d.name] = max(self.ranges.get(d.name, 0), d.count)
        else:
            self.names.add(d.name)

    def known(self, name: str) -> bool:
        r = self._cache.get(name)
        if r is None:
            r = self._cache[name] = self._known(name)
        return r

    def _known(self, name: str) -> bool:
        if name in self.names:
            return True
        m = _REG_RANGE_RE.match(name)
        if m and m.group(1) in self.ranges:
            return int(m.group(2)) < self.ranges[m.group(1)]
        return operand_types.is_special_register(name)


_ABI32_SM90 = "32-Bit ABI (--machine 32 or 32-Bit addressing) is not supported on sm_90 or higher architectures."
_ABI32_OLD = "32-Bit compilation is no longer supported"


def check_module_header(mod: A.Module, arch: Target, file: str) -> None:
    if mod.version > MAX_PTX_VERSION:
        raise PtxError(f"Unsupported .version {mod.version[0]}.{mod.version[1]}; current version is "
                       f"'{MAX_PTX_VERSION[0]}.{MAX_PTX_VERSION[1]}'", mod.version_line, 1, file)
    tname = mod.target[0]
    try:
        ptx_target = parse_target(tname)
    except PtxError:
        raise PtxError(f"Unknown target '{tname}'", mod.target_line, 1, file)
    need = MIN_PTX_FOR_TARGET.get(ptx_target.name)
    if need and mod.version < need:
        raise PtxError(f"PTX .version {mod.version[0]}.{mod.version[1]} does not support .target {tname}",
                       mod.target_line, 1, file)
    if not target_accepts(arch, ptx_target):
        if ptx_target.suffix == "a" and arch.sm == ptx_target.sm:
            msg = f"PTX with .target '{tname}' cannot be compiled for architecture '{arch.name}'"
        elif ptx_target.suffix == "a" and arch.sm > ptx_target.sm:
            msg = f"Program with .target '{tname}' cannot be compiled to future architecture"
        else:
            msg = "SM version specified by .target is higher than default SM version assumed"
        raise PtxError(msg, mod.target_line, 1, file)
    if mod.address_size == 32 and arch.sm >= 90:
        raise PtxError(_ABI32_SM90, mod.address_size_line, 1, file)


def _check_duplicates(f: A.Function, file: str) -> None:
    """A label or variable declared twice in one scope (a function's parameters are in its outermost scope):
    ptxas's "Duplicate definition of label 'L'" / "of variable '%x'" (a range as '%r<'), at the second one."""
    stack = [(f.body, {p.name: "variable" for p in f.params + f.rets})]
    while stack:
        body, seen = stack.pop()
        for st in body:
            t = type(st)
            if t is A.Block:
                stack.append((st.body, {}))
                continue
            if t is A.Label:
                key, kind, shown = st.name, "label", st.name
            elif t is A.VarDecl:
                key, kind = (st.name + "<", st.name + "<") if st.count is not None else (st.name, st.name), "variable"
                key, shown = key
            else:
                continue
            if key in seen:
                raise PtxError(f"Duplicate definition of {kind} '{shown}'", st.line or f.line, 1, file)
            seen[key] = kind


def _flatten(body, decls: list, stmts: list) -> None:
    """The statements and declarations of a function body, nested `{ }` scopes opened. A label or variable a
    nested scope declares again (inline asm repeats `waitLoop:` or `.reg .pred p;` in every block it expands
    to) is a different one: it gets a unique name (`waitLoop_s1`, `%p_s1_0`), and references resolve to the
    innermost declaration, as PTX scoping says. Without such shadowing the body is only flattened."""
    if _shadowing(body):
        body = _Renamer(body).body
    _flatten_plain(body, decls, stmts)
    _plain_named_registers(decls, stmts)


def _plain_named_registers(decls: list, stmts: list) -> None:
    """Registers declared without `%` (inline asm's `{ .reg .f32 r0; .reg .pred p; shfl.sync.up.b32 r0|p, ...;
    @p add.f32 r0, r0, x; }`, CUB's scan steps) parse as names: make their uses registers, so that def-use,
    uniformity and the scheduler see them like any other register."""
    names = {d.name for d in decls if type(d) is A.VarDecl and d.space == ".reg" and d.count is None
             and not d.name.startswith("%")}
    if not names:
        return
    for k, st in enumerate(stmts):
        if type(st) is A.Instruction:
            ops = tuple(_as_register(o, names) for o in st.operands)
            guard = _as_register(st.guard, names) if st.guard is not None else None
            if ops != st.operands or guard is not st.guard:
                stmts[k] = A.Instruction(st.opcode, st.mods, ops, guard, st.line, st.col)


def _as_register(o, names: set[str]):
    t = type(o)
    if t is A.Sym:
        return A.Reg(o.name) if o.name in names else o
    if t is A.Addr:
        items = tuple(_as_register(i, names) for i in o.items)
        return o if items == o.items else A.Addr(items, o.offset)
    if t in (A.Vec, A.Paren):
        items = tuple(_as_register(i, names) for i in o.items)
        return o if items == o.items else t(items)
    if t is A.Pair:
        first, second = _as_register(o.first, names), _as_register(o.second, names)
        return o if (first, second) == (o.first, o.second) else A.Pair(first, second)
    if t in (A.Not, A.Neg):
        inner = _as_register(o.inner, names)
        return o if inner == o.inner else t(inner)
    return o


def _flatten_plain(body, decls: list, stmts: list) -> None:
    stack = [iter(body)]                 # iterative: no recursion depth for deeply nested scopes
    while stack:
        st = next(stack[-1], None)
        if st is None:
            stack.pop()
            continue
        t = type(st)
        if t is A.Block:
            stack.append(iter(st.body))
        elif t is A.Directive and st.name == ".loc":
            continue                      # debug line info is not carried into the Ori IR
        elif t is A.VarDecl or t is A.Directive:
            decls.append(st)
            if t is A.Directive and st.name == ".pragma":
                stmts.append(st)          # its position matters too: it applies to the next instruction
        else:
            stmts.append(st)


def _declared(body) -> list[tuple[str, object]]:
    """(kind, name) of what one scope declares directly: labels and variables (ranges by their base)."""
    out = []
    for st in body:
        if type(st) is A.Label:
            out.append(("label", st.name))
        elif type(st) is A.VarDecl:
            out.append(("range" if st.count is not None else "var", st.name))
    return out


def _shadowing(body) -> bool:
    """Does a nested scope declare a name already declared in the function (so renaming is needed)?"""
    seen = _Names()
    stack = [(body, 0)]
    while stack:
        b, depth = stack.pop()
        for kind, name in _declared(b):
            if depth and seen.clashes(name, kind == "range"):
                return True
            seen.add(name, kind == "range")
        stack.extend((st.body, depth + 1) for st in b if type(st) is A.Block)
    return False


class _Names:
    """Declared names, where a range `%p<5>` (kept by its base `%p`) also holds `%p0`, `%p1`, ...: an inner
    `.reg .pred %p1;` (nvcc's inline-asm blocks inside a function with `%p<N>`) shadows the range's member."""

    def __init__(self):
        self.names: set[str] = set()
        self.ranges: set[str] = set()
        self.bases: set[str] = set()        # the bases of plain names that look like range members

    def clashes(self, name: str, rng: bool) -> bool:
        if rng:
            return name in self.ranges or name in self.bases
        m = _REG_RANGE_RE.match(name)
        return name in self.names or (m is not None and m.group(1) in self.ranges)

    def add(self, name: str, rng: bool) -> None:
        if rng:
            self.ranges.add(name)
            return
        self.names.add(name)
        m = _REG_RANGE_RE.match(name)
        if m:
            self.bases.add(m.group(1))


class _Renamer:
    """Rewrites a body whose nested scopes shadow names: unique names per scope, references resolved innermost
    first. Iterative over scopes (no recursion)."""

    def __init__(self, body):
        self.used = _Names()
        self.counter = 0
        self.body = self._scope(body, [], top=True)

    def _fresh(self, name: str, rng: bool) -> str:
        if not self.used.clashes(name, rng):
            self.used.add(name, rng)
            return name
        while True:
            self.counter += 1
            new = f"{name}_s{self.counter}" + ("_" if rng else "")
            if not self.used.clashes(new, rng):
                self.used.add(new, rng)
                return new

    def _open(self, body, outer: list) -> list:
        """The scopes seen inside `body`: the enclosing ones plus its own declarations, renamed."""
        names: dict[str, str] = {}
        ranges: dict[str, str] = {}
        for kind, name in _declared(body):
            if kind == "range":
                ranges[name] = self._fresh(name, True)
            else:
                names[name] = self._fresh(name, False)
        return outer + [(names, ranges)]

    def _scope(self, body, outer: list, top: bool = False):
        # an explicit stack of open scopes: (statements left, rewritten so far, scopes, the block's line)
        stack = [(iter(body), [], self._open(body, outer), 0)]
        while True:
            it, out, scopes, line = stack[-1]
            st = next(it, None)
            if st is None:
                stack.pop()
                if not stack:
                    return out
                stack[-1][1].append(A.Block(tuple(out), line))
                continue
            names, ranges = scopes[-1]
            t = type(st)
            if t is A.Block:
                stack.append((iter(st.body), [], self._open(st.body, scopes), st.line))
            elif t is A.Label:
                out.append(A.Label(names[st.name], st.line))
            elif t is A.VarDecl:
                new = ranges.get(st.name) if st.count is not None else names.get(st.name)
                out.append(st if new == st.name else A.VarDecl(st.space, st.attrs, new, st.count, st.dims, st.init, st.line))
            elif t is A.Instruction:
                out.append(A.Instruction(st.opcode, st.mods, tuple(self._operand(o, scopes) for o in st.operands),
                                         self._operand(st.guard, scopes) if st.guard is not None else None,
                                         st.line, st.col))
            else:
                out.append(st)

    def _name(self, name: str, scopes) -> str:
        for names, ranges in reversed(scopes):
            if name in names:
                return names[name]
            m = _REG_RANGE_RE.match(name)
            if m and m.group(1) in ranges:
                return ranges[m.group(1)] + m.group(2)
        return name

    def _operand(self, o, scopes):
        t = type(o)
        if t is A.Reg:
            n = self._name(o.name, scopes)
            return o if n == o.name else A.Reg(n)
        if t is A.Sym:
            n = self._name(o.name, scopes)
            return o if n == o.name else A.Sym(n)
        if t is A.Addr:
            return A.Addr(tuple(self._operand(i, scopes) for i in o.items), o.offset)
        if t in (A.Vec, A.Paren):
            return t(tuple(self._operand(i, scopes) for i in o.items))
        if t is A.Pair:
            return A.Pair(self._operand(o.first, scopes), self._operand(o.second, scopes))
        if t in (A.Not, A.Neg):
            return t(self._operand(o.inner, scopes))
        return o


_TERMINATORS = {"bra", "brx", "ret", "exit", "trap"}


def _unknown_symbols(op, scope: _Scope, out: list, in_addr: bool = False) -> None:
    """Append (name, inside an address) for every operand name `scope` does not declare, in order."""
    stack = [(op, in_addr)]
    while stack:
        o, addr = stack.pop()
        t = type(o)
        if t is A.Reg or t is A.Sym:
            if not scope.known(o.name):
                out.append((o.name, addr))
        elif t is A.Addr:
            stack.extend((i, True) for i in reversed(o.items))
        elif t is A.Vec or t is A.Paren:
            stack.extend((i, addr) for i in reversed(o.items))
        elif t is A.Pair:
            stack.extend(((o.second, addr), (o.first, addr)))
        elif t is A.Not or t is A.Neg:
            stack.append((o.inner, addr))


# Stems whose ptxas name in "Illegal operand type to instruction '...'" carries the operation word.
_NAMED_WITH_OP = {"mbarrier", "cp", "setmaxnreg", "tensormap", "multimem", "tcgen05", "wgmma"}
_NO_OPERAND_CHECK = {"bra", "call", "brx"}          # a label/function operand is only resolved at the end


def ptxas_name(ins) -> str:
    """How ptxas names an instruction in its operand messages ('atom', 'mbarrier.init', 'cp.async')."""
    if ins.opcode in _NAMED_WITH_OP and ins.mods:
        return ins.opcode + ins.mods[0]
    return ins.opcode


def _operand_errors(ins, unknown: list, ctx) -> list[PtxError]:
    """The per-instruction message ptxas gives an instruction with an undeclared name: a guard is
    "Predicate expression expected", a value operand "Arguments mismatch", a name inside an address
    "Illegal operand type" (the "Unknown symbol" messages themselves come at the end of the function)."""
    if ins.opcode in _NO_OPERAND_CHECK:
        return []
    if any(addr is None for _n, addr in unknown):
        msg = "Predicate expression expected"
    elif any(not addr for _n, addr in unknown):
        msg = f"Arguments mismatch for instruction '{ins.opcode}'"
    else:
        msg = f"Illegal operand type to instruction '{ptxas_name(ins)}'"
    return [ctx.error(msg, ins)]


def _is_gate(message: str) -> bool:
    return "requires .target" in message or "not supported on .target" in message or "requires PTX ISA" in message


_WARP_SZ = A.Imm("32")          # PTX's predefined identifier WARP_SZ: the warp size, a constant


def _nested_brackets(operands) -> str | None:
    """'[' or '{' when an address holds an address or a brace list holds a brace list: ptxas's syntax error
    ("Parsing error near '['"), which stops it."""
    for o in operands:
        t = type(o)
        if t is A.Addr and any(type(i) is A.Addr for i in o.items):
            return "["
        if t is A.Vec and any(type(i) is A.Vec for i in o.items):
            return "{"
    return None


def _bra_to_non_label(name: str, ctx) -> list[str]:
    """ptxas's messages for a bra whose target names something other than a label of the function: a
    function, a kernel parameter, or a variable of any state space (probes frontend/bra_target_*)."""
    space = ctx.symbol_spaces.get(name)
    if space is None:                                   # a function
        return ["Label expected for argument 0 of instruction 'bra'"]
    if space == ".param":
        return ["Label expected for argument 0 of instruction 'bra'",
                "Argument 0 of instruction 'bra': must be register"]
    return ["Arguments mismatch for instruction 'bra'"]


def _lower(ins: A.Instruction, scope: _Scope, ctx: BuildContext, errors: list, late: list) -> list[Instr]:
    """One instruction's Ori instructions. Errors ptxas reports for it and goes on are appended to `errors`
    (unknown modifiers, undeclared names) or raised (the handler's checks: all of one instruction at once)."""
    nested = _nested_brackets(ins.operands)
    if nested:
        raise PtxError(f"Parsing error near '{nested}': syntax error", ins.line, ins.col, ctx.file, fatal=True)
    if any(type(o) is A.Sym and o.name == "WARP_SZ" for o in ins.operands) and not scope.known("WARP_SZ"):
        ins = A.Instruction(ins.opcode, ins.mods, tuple(_WARP_SZ if type(o) is A.Sym and o.name == "WARP_SZ" else o
                                                        for o in ins.operands), ins.guard, ins.line, ins.col)
    bad = ptx_modifiers.unknown_modifiers(ins.mods)
    ctx.dropped_modifiers = tuple(bad)
    if bad:
        errors.extend(ctx.error(f"Unknown modifier '{m}'", ins) for m in bad)
        ins = A.Instruction(ins.opcode, tuple(m for m in ins.mods if m not in bad), ins.operands, ins.guard,
                            ins.line, ins.col)
    unknown: list = []
    known = scope.known
    if ins.guard is not None:
        g: list = []
        _unknown_symbols(ins.guard, scope, g)
        unknown.extend((n, None) for n, _a in g)
    for op in ins.operands:
        t = type(op)
        if t is A.Reg or t is A.Sym:
            if not known(op.name):
                unknown.append((op.name, False))
        elif t is not A.Imm:
            _unknown_symbols(op, scope, unknown)
    if unknown:
        late.extend(ctx.error(f"Unknown symbol '{n}'", ins) for n, _a in unknown)
        errors.extend(_operand_errors(ins, unknown, ctx))
        return []
    if ins.opcode == "bra" and len(ins.operands) == 1 and type(ins.operands[0]) is A.Sym \
            and ins.operands[0].name not in scope.labels:
        errors.extend(ctx.error(m, ins) for m in _bra_to_non_label(ins.operands[0].name, ctx))
        return []
    illegal = operand_types.illegal_modifiers(ins)      # reported after the instruction's own gate
    if illegal:
        ins = A.Instruction(ins.opcode, tuple(m for m in ins.mods if f"'{m}'" not in "".join(illegal)),
                            ins.operands, ins.guard, ins.line, ins.col)
    if ins.guard is not None and not operand_types.is_predicate(ins.guard, ctx.regs):
        errors.append(ctx.error("Predicate expression expected", ins))
        return []
    counts = arity.check(ins)
    bad_args = ([counts] if counts and "must be register" in counts else None) \
        or operand_types.check(ins, ctx.regs) or counts      # sync forms' signatures, else operand counts
    if bad_args:
        if type(bad_args) is str:
            bad_args = [bad_args]
        errors.append(PtxError(bad_args[0], ins.line, ins.col, ctx.file, more=tuple(bad_args[1:])))
        return []
    h = HANDLERS.get(ins.opcode)
    after = illegal + operand_values.check(ins, ctx.symbol_spaces, ctx.target, ctx.regs)     # reported after the instruction's own checks
    fails = isa_gates.failures(ins, ctx.target, h is not None)
    if fails or (after and h is None):
        # the instruction's own gate, then operand values, then its modifiers' gates (probes frontend/
        # tcgen05_ncols_*: "Instruction 'tcgen05.alloc' not supported ...", the column count, "Feature
        # '.cta_group::1' not supported ...")
        own = 1 if fails and fails[0].startswith("Instruction '") else 0
        msgs = fails[:own] + after + fails[own:]
        raise PtxError(msgs[0], ins.line, ins.col, ctx.file, more=tuple(msgs[1:]))
    if operand_values.uses_32bit_address(ins, ctx.regs):
        ctx.addr32_lines.append(ins.line)
    if h is not None:
        try:
            new = h(ins, ctx)
        except PtxError as e:
            # ptxas checks the instruction's own gate, then operand values, then its modifiers' gates
            if after and _is_gate(e.message):
                e.more = tuple(after) + tuple(e.more)
            else:
                e.more = tuple(e.more) + tuple(after)
            raise
        if after:
            raise PtxError(after[0], ins.line, ins.col, ctx.file, more=tuple(after[1:]))
        return new
    return [Instr(generic.ori_class(ins.opcode, ins.mods), ins.opcode, ins.mods, ins.operands, ins.guard,
                  {}, ins.line, "build")]


def build_function(f: A.Function, ctx: BuildContext, global_names: set[str], open_end: bool = False) -> Function:
    """`open_end`: the function was cut short (by a syntax error after it): ptxas never reaches its end, so
    its undeclared names are not reported."""
    decls: list = []
    stmts: list = []
    _check_duplicates(f, ctx.file)
    _flatten(f.body, decls, stmts)
    scope = _Scope(global_names)
    for p in f.params + f.rets:
        scope.names.add(p.name)
    for d in decls:
        if isinstance(d, A.VarDecl):
            scope.declare(d)
            if d.space == ".shared":
                ctx.shared_symbols.add(d.name)
            if d.space != ".reg":
                ctx.symbol_spaces[d.name] = d.space
    for p in f.params:
        ctx.symbol_spaces[p.name] = p.space
    for st in stmts:
        if type(st) is A.Label:
            scope.names.add(st.name)
            scope.labels.add(st.name)
    ctx.function = f
    ctx.decls = decls
    ctx.regs = operand_types.RegTypes(decls, f.params)
    blocks: list[BasicBlock] = []
    cur = BasicBlock("$entry")
    blocks.append(cur)
    callees: list[str] = []
    errors: list[PtxError] = []           # this function's errors, in ptxas's order
    late: list[PtxError] = []             # "Unknown symbol": ptxas reports them after the function's other errors
    pragmas: list[str] = []
    for st in stmts:
        if type(st) is A.Directive:
            pragmas.append(st.text.strip('"').replace(" ", "_"))      # one IR attribute token
            continue
        if type(st) is A.Label:
            if cur.instrs or cur.label != "$entry" or blocks[-1] is not cur:
                nxt = BasicBlock(st.name)
                if not cur.instrs or cur.instrs[-1].opcode not in _TERMINATORS or cur.instrs[-1].guard is not None:
                    cur.succs.append(st.name)
                blocks.append(nxt)
                cur = nxt
            else:
                cur.label = st.name
            continue
        ins = st
        start = len(errors)
        try:
            new = _lower(ins, scope, ctx, errors, late)
        except PtxError as e:
            errors.append(e)
            new = []
        if len(errors) > start + 1:        # one instruction's messages: one error, in ptxas's order
            mine = errors[start:]
            errors[start:] = [PtxError(mine[0].message, mine[0].line, mine[0].col, mine[0].file,
                                       [m for e in mine for m in ((e.message,) if e is not mine[0] else ()) + e.more],
                                       any(e.fatal for e in mine))]
        if errors and errors[-1].fatal:
            raise PtxError.collected(errors)
        if pragmas and new:
            new[0].attrs.pragma = ",".join(pragmas)     # e.g. "nounroll" on a loop header's first instruction
            pragmas = []
        cur.instrs.extend(new)
        op0 = ins.opcode
        if op0 == "call":
            for o in ins.operands:
                if type(o) is A.Sym:
                    callees.append(o.name)
                    break
        if op0 in _TERMINATORS:
            if op0 == "bra" and ins.operands and type(ins.operands[0]) is A.Sym:
                cur.succs.append(ins.operands[0].name)
            elif op0 == "brx":
                cur.succs.extend(_brx_targets(ins, decls))
            nxt = BasicBlock(f"$bb{len(blocks)}")
            if ins.guard is not None:
                cur.succs.append(nxt.label)
            blocks.append(nxt)
            cur = nxt
    if not open_end:
        errors.extend(late)
    if errors:
        raise PtxError.collected(errors)
    # drop empty, unlabelled, unreachable trailing blocks created after terminators
    blocks = [b for b in blocks if b.instrs or not b.label.startswith("$bb") or
              any(b.label in x.succs for x in blocks)]
    out = Function(A.Function(f.kind, f.linkage, f.name, f.params, f.rets, f.perf, None, f.line), decls, blocks,
                   sorted(set(callees), key=callees.index), frozenset(ctx.shared_symbols))
    link_preds(out)
    return out


def _brx_targets(ins, decls) -> list[str]:
    # brx.idx %r, table;  where table: .branchtargets L1, L2, ...;  (a Directive after a label)
    names = []
    if len(ins.operands) > 1 and type(ins.operands[1]) is A.Sym:
        for d in decls:
            if isinstance(d, A.Directive) and d.name == ".branchtargets":
                names.extend(x.strip() for x in d.text.split(",") if x.strip())
    return names


def build_text(text: str, file: str, arch: Target, diags: Diagnostics | None = None) -> Module:
    """Parse and build, reporting as ptxas does when the text has a syntax error: ptxas checks each
    instruction as it parses, so the errors of everything before the syntax error come first (except the
    cut function's undeclared names, reported at a function's end that is never reached), then the syntax
    error, which stops it."""
    from . import parser
    try:
        ast = parser.parse(text, file)
    except PtxError as e:
        before = _errors_before(text, file, arch, e.line) if e.line > 1 else []
        if before:
            raise PtxError.collected(before + [PtxError(e.message, e.line, e.col, e.file, e.more, True)])
        raise
    return build(ast, arch, diags)


def _errors_before(text: str, file: str, arch: Target, line: int) -> list[PtxError]:
    from . import parser
    prefix = "\n".join(text.split("\n")[:line - 1])
    depth = prefix.count("{") - prefix.count("}")
    if depth < 0:
        return []
    try:
        build(parser.parse(prefix + "\n" + "}" * depth, file), arch, open_end=depth > 0)
    except PtxError as e:
        return [x for x in e.all() if x.line < line]
    return []


def build(mod: A.Module, arch: Target, diags: Diagnostics | None = None, open_end: bool = False) -> Module:
    """`open_end`: the module's last function was cut short (build_text)."""
    diags = diags or Diagnostics()
    check_module_header(mod, arch, mod.file)
    ctx = BuildContext(parse_target(mod.target[0]), mod.version, diags, mod.file, arch)
    global_names: set[str] = set()
    globals_: list = []
    for it in mod.items:
        for d in (it.body if isinstance(it, A.Block) else (it,)):
            if isinstance(d, A.VarDecl):
                ctx.symbol_spaces[d.name] = d.space
        if isinstance(it, A.VarDecl):
            global_names.add(it.name)
            globals_.append(it)
            if it.space == ".shared":
                ctx.shared_symbols.add(it.name)
        elif isinstance(it, A.Block):
            for d in it.body:
                global_names.add(d.name)
                globals_.append(d)
                if d.space == ".shared":
                    ctx.shared_symbols.add(d.name)
        elif isinstance(it, A.Function):
            global_names.add(it.name)
        else:
            globals_.append(it)
    functions = []
    errors: list[PtxError] = []
    bodies = [f for f in mod.functions if f.body is not None]
    for f in bodies:
        saved = set(ctx.shared_symbols)
        saved_spaces = dict(ctx.symbol_spaces)
        try:
            functions.append(build_function(f, ctx, global_names, open_end and f is bodies[-1]))
        except PtxError as e:          # ptxas goes on with the next function (unless the error was fatal)
            errors.extend(e.all())
            if any(x.fatal for x in e.all()):
                break
        ctx.shared_symbols = saved
        ctx.symbol_spaces = saved_spaces
    if errors:
        raise PtxError.collected(errors)
    if ctx.addr32_lines and mod.address_size == 64:
        for line in ctx.addr32_lines:
            diags.warn(f"Program uses 32-bit address on line '{line}' which is conflicting with .address_size 64",
                       line)
        # ptxas prints this fatal without a line; pylower locates it at its cause, the first 32-bit address
        raise PtxError(_ABI32_SM90 if arch.sm >= 90 else _ABI32_OLD, ctx.addr32_lines[0], 1, mod.file)
    module = Module(mod.version, mod.target, mod.address_size, globals_, functions, mod.file)
    too_much = shared_size.too_much_shared(module, arch)
    if too_much:                      # after the file's other checks
        raise PtxError.collected([PtxError(m, line, 1, mod.file) for m, line in too_much])
    math_subroutines.expand_module(module)
    tensormap_copy.expand_module(module)
    return module
