"""The SASS program: instructions (opcode + modifiers + operand text), functions, and layout (16-byte slots)."""
from __future__ import annotations

from pylower.records import field, record


# Opcode of a zero-size marker: no encoding, not printed; it only carries EIATTR tags (ptxas lists an
# instruction it deleted, e.g. a no-op bar.warp.sync, in EIATTR_COOP_GROUP_INSTR_OFFSETS).
VIRTUAL = ""


@record(slots=True)
class SassInstr:
    opcode: str                        # base mnemonic: "BAR"
    mods: tuple[str, ...] = ()         # ("SYNC", "DEFER_BLOCKING")
    operands: tuple[str, ...] = ()     # printed operands ("0x0", "%r1", "desc[...]")
    guard: str = ""                    # "@P0" / "@!%p1"
    label: str | None = None           # block label printed before this instruction
    line: int = 0                      # PTX line it came from (an inserted one: the line that caused it)
    tags: frozenset = frozenset()      # EIATTR tags, e.g. {"INT_WARP_WIDE", "COOP_GROUP"}
    offset: int = 0                    # byte offset, set by layout()
    origin: str = ""                   # who made it, when not the plain selection of its PTX instruction:
                                       # "72 LateExpandSyncInstructions" (a phase) or "isel"
    reason: str = ""                   # one line: why it is there (printed by --explain)
    file: str = ""                     # the source file of `line` (its //## File line under -g)

    @property
    def ptx_line(self) -> int:
        return self.line

    @property
    def reads_active_lanes(self) -> bool:
        """`VOTE.ANY R, PT, PT` with no guard: the read of the active lanes (activemask; an aggregated atomic's
        vote below sm_80)."""
        return self.opcode == "VOTE" and self.mods == ("ANY",) and self.operands[1:] == ("PT", "PT") \
            and not self.guard

    @property
    def mnemonic(self) -> str:
        return ".".join((self.opcode,) + self.mods)

    def text(self) -> str:
        ops = ", ".join(self.operands)
        return f"{self.mnemonic} {ops}".rstrip()


@record
class SassFunction:
    name: str
    is_entry: bool
    instrs: list[SassInstr] = field(default_factory=list)
    eiattr: dict = field(default_factory=dict)
    ptx_line: int = 0
    visible: bool = True               # .visible / .extern linkage: a .global symbol in the ELF
    symbols: dict = field(default_factory=dict)    # index of an instruction -> (symbol, global?) of a function
                                                   # that starts there (a kernel's copies of its callees, helpers)
    end_label: str = ""                # the label after its last instruction (nvdisasm's `.size` operand)
    divergent_branch: bool = False     # a BRA on a thread-dependent predicate (the warp may split there)


@record
class SassProgram:
    target: str
    functions: list[SassFunction] = field(default_factory=list)
    unmapped: dict[str, int] = field(default_factory=dict)    # PTX forms printed as pseudo-ops
    relocatable: bool = False          # -c: ET_REL, every function in its own section
    file: str = ""                     # the input file (line info)
    calls: dict = field(default_factory=dict)      # function -> the functions it calls (section order)


def layout(fn: SassFunction) -> None:
    """Assign byte offsets: every SASS instruction on sm_70+ is 16 bytes."""
    off = 0
    for ins in fn.instrs:
        ins.offset = off
        off += 0 if ins.opcode == VIRTUAL else 16
