"""The PTX AST: a module of directives, variables and functions whose bodies are statements.

Instructions are generic: opcode stem + ordered modifiers + operands, so an instruction pylower has no
handler for still parses, prints back and flows through to the output. Every node is a frozen value, so
"parse -> print -> parse gives the same AST" is plain equality.
"""
from __future__ import annotations

from pylower.records import field, record

# ---------------------------------------------------------------- operands

@record(frozen=True, slots=True)
class Reg:
    """A register or special register: %r1, %p0, %tid.x, %laneid, or a plain identifier used as a value."""
    name: str


@record(frozen=True, slots=True)
class Imm:
    """An immediate; `text` keeps the spelling (0f3F800000, 0x10, -1, 1.5) so printing round-trips."""
    text: str

    @property
    def value(self) -> int | float:
        return _number(self.text)


@record(frozen=True, slots=True)
class Sym:
    """A symbol: a label, variable, function or parameter name."""
    name: str


@record(frozen=True, slots=True)
class Addr:
    """A memory operand [items + offset]: [%rd1+8], [sym], [0x10], [tmap, {%r1, %r2}]."""
    items: tuple
    offset: int = 0

    @property
    def base(self):
        return self.items[0] if self.items else None


@record(frozen=True, slots=True)
class Vec:
    """A vector/brace list {a, b, ...} (also the targets of brx.idx label lists in braces)."""
    items: tuple


@record(frozen=True, slots=True)
class Pair:
    """Two destinations a|b (shfl.sync d|p, match d|p, setp p|q)."""
    first: "Operand"
    second: "Operand"


@record(frozen=True, slots=True)
class Not:
    """Negated predicate !%p."""
    inner: "Operand"


@record(frozen=True, slots=True)
class Neg:
    """Negated source -%r (used by some arithmetic forms)."""
    inner: "Operand"


@record(frozen=True, slots=True)
class Sink:
    """The sink operand _."""


@record(frozen=True, slots=True)
class Paren:
    """A parenthesised list: call return/argument lists (a, b)."""
    items: tuple


@record(frozen=True, slots=True)
class Expr:
    """A constant expression kept as text (sym+4, generic(sym), (a*2)) in operands or initialisers."""
    text: str


Operand = Reg | Imm | Sym | Addr | Vec | Pair | Not | Neg | Sink | Paren | Expr

# ---------------------------------------------------------------- statements

@record(slots=True)          # not frozen: built once per PTX instruction, so __init__ speed matters
class Instruction:
    opcode: str                    # stem: "bar", "ld", "cp"
    mods: tuple[str, ...]          # (".sync", ".aligned"), (".async", ".bulk", ".shared::cluster")
    operands: tuple
    guard: object = None           # Reg or Not(Reg)
    line: int = field(default=0, compare=False)
    col: int = field(default=0, compare=False)

    @property
    def name(self) -> str:
        return self.opcode + "".join(self.mods)

    def has(self, *mods: str) -> bool:
        return any(m in self.mods for m in mods)


@record(frozen=True, slots=True)
class Label:
    name: str
    line: int = field(default=0, compare=False)


@record(frozen=True, slots=True)
class VarDecl:
    """.reg/.shared/.global/.local/.const/.param/.tex variable declarations (and .reg with <N>)."""
    space: str                     # ".reg", ".shared", ...
    attrs: tuple[str, ...]         # linkage, .align N, .v2, type, ... in source order (excluding space)
    name: str
    count: int | None = None       # %r<10>
    dims: tuple = ()               # [4][8] or [] (unsized) -> ("4","8") / ("",)
    init: str | None = None        # initialiser text after '='
    line: int = field(default=0, compare=False)


@record(frozen=True, slots=True)
class Directive:
    """Any other directive kept as text: .pragma, .loc, .file, .section ..., performance directives."""
    name: str                      # ".pragma"
    text: str                      # the rest, verbatim (normalised whitespace)
    line: int = field(default=0, compare=False)


@record(frozen=True, slots=True)
class Block:
    """An inline { } scope."""
    body: tuple
    line: int = field(default=0, compare=False)


@record(frozen=True, slots=True)
class Param:
    space: str                     # ".param" / ".reg"
    attrs: tuple[str, ...]
    name: str
    dims: tuple = ()


@record(frozen=True, slots=True)
class Function:
    kind: str                      # ".entry" or ".func"
    linkage: tuple[str, ...]       # (".visible",) (".extern",) (".weak",) ...
    name: str
    params: tuple[Param, ...]
    rets: tuple[Param, ...] = ()
    perf: tuple[Directive, ...] = ()   # .maxntid 128,1,1 / .noreturn / .reqntid ...
    body: tuple | None = None          # None for prototypes (declaration only)
    line: int = field(default=0, compare=False)

    @property
    def is_entry(self) -> bool:
        return self.kind == ".entry"


@record(frozen=True, slots=True)
class Module:
    version: tuple[int, int]
    target: tuple[str, ...]        # ("sm_90a",) or ("sm_80", "texmode_independent")
    address_size: int
    items: tuple                   # Directive | VarDecl | Function, in order
    file: str = field(default="<input>", compare=False)
    version_line: int = field(default=1, compare=False)
    target_line: int = field(default=2, compare=False)
    address_size_line: int = field(default=3, compare=False)

    @property
    def functions(self) -> list[Function]:
        return [i for i in self.items if isinstance(i, Function)]


_NUMBERS: dict[str, int | float] = {}


def _number(text: str) -> int | float:
    v = _NUMBERS.get(text)
    if v is None:
        if len(_NUMBERS) >= 1 << 16:         # bounded in a long-running process
            _NUMBERS.clear()
        v = _NUMBERS[text] = parse_number(text)
    return v


def parse_number(text: str) -> int | float:
    """PTX integer/float literal -> value (0f/0d hex floats, 0x/0b/octal, U suffix, decimals)."""
    t = text
    neg = t.startswith("-")
    if neg:
        t = t[1:]
    if t[:2] in ("0f", "0F"):
        import struct                    # only for the hex floats (start-up: issue 13)
        v = struct.unpack(">f", bytes.fromhex(t[2:]))[0]
    elif t[:2] in ("0d", "0D"):
        import struct
        v = struct.unpack(">d", bytes.fromhex(t[2:]))[0]
    else:
        t = t.rstrip("Uu")
        if t[:2] in ("0x", "0X"):
            v = int(t[2:], 16)
        elif t[:2] in ("0b", "0B"):
            v = int(t[2:], 2)
        elif any(c in t for c in ".eE") and not t.startswith("0x"):
            v = float(t)
        elif len(t) > 1 and t.startswith("0"):
            v = int(t, 8)
        else:
            v = int(t)
    return -v if neg else v
