"""Which SASS opcodes count as synchronization/communication ("sync family"), and their family.

The reference harness and the conformance tests compare only these instructions (opcode + modifiers,
plus barrier ids for BAR-class instructions); everything else is context. One table, used by both.
"""
from __future__ import annotations

SYNC_FAMILY: dict[str, str] = {
    # thread-block barriers
    "BAR": "barrier", "B2R": "barrier", "R2B": "barrier",
    # cluster barriers
    "UCGABAR_ARV": "cluster", "UCGABAR_WAIT": "cluster", "CGABAR_ARV": "cluster", "CGABAR_WAIT": "cluster",
    "CGABAR_GET": "cluster", "CGABAR_SET": "cluster", "UCGABAR_GET": "cluster", "UCGABAR_SET": "cluster",
    # warp-level
    "WARPSYNC": "warp", "VOTE": "warp", "VOTEU": "warp", "MATCH": "warp", "REDUX": "warp", "CREDUX": "warp",
    "ELECT": "warp", "SHFL": "warp", "NANOSLEEP": "warp", "BMOV": "warp", "ENDCOLLECTIVE": "warp",
    # convergence barriers
    "BSSY": "convergence", "BSYNC": "convergence", "BREAK": "convergence",
    # memory barriers / fences
    "MEMBAR": "fence", "FENCE": "fence", "ERRBAR": "fence", "CGAERRBAR": "fence", "CCTL": "fence",
    "ACQBULK": "fence", "ACQSHMINIT": "fence", "PREEXIT": "misc", "ACQBLK": "fence",
    # atomics and reductions
    "ATOM": "atomic", "ATOMG": "atomic", "ATOMS": "atomic", "RED": "atomic", "REDG": "atomic",
    "REDAS": "atomic", "ATOMAS": "atomic", "UREDGR": "atomic",
    # mbarrier / syncs unit
    "SYNCS": "mbarrier", "ARRIVES": "mbarrier", "UGETNEXTWORKID": "async",
    # async copies
    "LDGSTS": "async", "LDGDEPBAR": "async", "DEPBAR": "async", "UBLKCP": "async", "UBLKRED": "async",
    "UBLKPF": "async", "UTMALDG": "async", "UTMASTG": "async", "UTMAPF": "async", "UTMAREDG": "async",
    "UTMACMDFLUSH": "async", "UTMACCTL": "async", "STAS": "async",
}

# the warp collectives' SASS (data exchanged or reduced across a warp's lanes) and the reductions among them
WARP_COLLECTIVES = frozenset({"SHFL", "REDUX", "CREDUX", "VOTE", "VOTEU", "MATCH"})
WARP_REDUCTIONS = frozenset({"REDUX", "CREDUX"})

# CS2R / S2R reading these special registers are sync-relevant (activemask, cluster queries).
SYNC_SREGS = ("SR_LANEMASK_ACTIVE",)


def family_of(opcode: str) -> str | None:
    """Family of a SASS mnemonic (base opcode without modifiers), or None if not sync-family."""
    return SYNC_FAMILY.get(opcode)


def is_sync(opcode: str, operands: str = "") -> bool:
    if opcode in SYNC_FAMILY:
        return True
    if opcode in ("CS2R", "S2R", "S2UR") and any(s in operands for s in SYNC_SREGS):
        return True
    return False


def normalize(opcode_mods: str, operands: str) -> str:
    """The comparable form of one sync instruction: 'OPC.MODS' plus barrier ids for BAR-class ops.

    Registers are dropped; for BAR the immediate operands (barrier id, thread count) are kept because
    they are part of what ptxas chose.
    """
    base = opcode_mods.split(".", 1)[0]
    if base in ("BAR", "B2R") or base.endswith("CGABAR_ARV"):
        imms = [o.strip() for o in operands.split(",") if o.strip().startswith("0x")]
        if imms:
            return opcode_mods + " " + ", ".join(imms)
    if base == "DEPBAR":                  # the scoreboard and the count it waits for: DEPBAR.LE SB0, 0x7
        return f"{opcode_mods} {operands.strip()}".rstrip()
    if base in ("CS2R", "S2R", "S2UR"):
        regs = [s for s in SYNC_SREGS if s in operands]
        return opcode_mods + (" " + regs[0] if regs else "")
    return opcode_mods
