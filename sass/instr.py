"""The SASS program: instructions (opcode + modifiers + operand text), functions, and layout (16-byte slots)."""
from __future__ import annotations

from dataclasses import dataclass, field


# Opcode of a zero-size marker: no encoding, not printed; it only carries EIATTR tags (ptxas lists an
# instruction it deleted, e.g. a no-op bar.warp.sync, in EIATTR_COOP_GROUP_INSTR_OFFSETS).
VIRTUAL = ""


@dataclass(slots=True)
class SassInstr:
    opcode: str                        # base mnemonic: "BAR"
    mods: tuple[str, ...] = ()         # ("SYNC", "DEFER_BLOCKING")
    operands: tuple[str, ...] = ()     # printed operands ("0x0", "%r1", "desc[...]")
    guard: str = ""                    # "@P0" / "@!%p1"
    label: str | None = None           # block label printed before this instruction
    line: int = 0                      # PTX line it came from (provenance)
    tags: frozenset = frozenset()      # EIATTR tags, e.g. {"INT_WARP_WIDE", "COOP_GROUP"}
    offset: int = 0                    # byte offset, set by layout()

    @property
    def mnemonic(self) -> str:
        return ".".join((self.opcode,) + self.mods)

    def text(self) -> str:
        ops = ", ".join(self.operands)
        return f"{self.mnemonic} {ops}".rstrip()


@dataclass
class SassFunction:
    name: str
    is_entry: bool
    instrs: list[SassInstr] = field(default_factory=list)
    eiattr: dict = field(default_factory=dict)
    ptx_line: int = 0


@dataclass
class SassProgram:
    target: str
    functions: list[SassFunction] = field(default_factory=list)
    unmapped: dict[str, int] = field(default_factory=dict)    # PTX forms printed as pseudo-ops


def layout(fn: SassFunction) -> None:
    """Assign byte offsets: every SASS instruction on sm_70+ is 16 bytes."""
    off = 0
    for ins in fn.instrs:
        ins.offset = off
        off += 0 if ins.opcode == VIRTUAL else 16
