"""The SASS opcode table: for the sync opcodes, the seed's facts (ROT13 internal name as found in the
ptxas binary, opcode-table offset where known, category). Non-sync mnemonics used by the generic
selector are listed with category only."""
from __future__ import annotations

import codecs
from pylower.records import record


@record(frozen=True)
class Opcode:
    mnemonic: str
    category: str
    table_offset: int | None = None     # the seed's "Table Offset" / "Table Entry"
    sm_min: int = 75

    @property
    def rot13(self) -> str:
        """ptxas stores opcode names ROT13-encoded (ONE = BAR, IBGR = VOTE)."""
        return codecs.encode(self.mnemonic, "rot13")


_SYNC = [
    Opcode("VOTE", "Warp vote", 4600), Opcode("VOTEU", "Uniform warp vote"), Opcode("BAR", "Thread-block barrier", 5160),
    Opcode("BAR_INDEXED", "Indexed barrier variant"), Opcode("ERRBAR", "Error barrier", 4184),
    Opcode("DEPBAR", "Dependency barrier (scoreboard)"), Opcode("MATCH", "Warp match"),
    Opcode("MEMBAR", "Memory barrier"), Opcode("WARPSYNC", "Warp synchronize"),
    Opcode("BSYNC", "Convergence barrier sync"), Opcode("BSSY", "Convergence barrier set"),
    Opcode("R2B", "Register to barrier transfer", 5128), Opcode("B2R", "Barrier to register transfer"),
    Opcode("ELECT", "Warp lane election"), Opcode("NANOSLEEP", "Nanosleep hint"),
    Opcode("REDUX", "Warp reduction", sm_min=80), Opcode("SHFL", "Warp shuffle"),
    Opcode("FENCE_G", "Global fence", sm_min=100), Opcode("FENCE_S", "Shared fence", sm_min=100),
    Opcode("FENCE_T", "Texture fence", sm_min=100), Opcode("FENCE", "Fence (proxy/view)", sm_min=90),
    Opcode("CGABAR_ARV", "CGA barrier arrive", sm_min=100), Opcode("CGABAR_GET", "CGA barrier query", sm_min=100),
    Opcode("CGABAR_SET", "CGA barrier set", sm_min=100), Opcode("CGABAR_WAIT", "CGA barrier wait", sm_min=100),
    Opcode("UCGABAR_ARV", "Uniform CGA barrier arrive", sm_min=90), Opcode("UCGABAR_WAIT", "Uniform CGA barrier wait", sm_min=90),
    Opcode("CGAERRBAR", "CGA error barrier", sm_min=90), Opcode("SYNCS", "Sync unit (mbarrier)", sm_min=90),
    Opcode("SYNCS_BASIC", "Basic sync", sm_min=100), Opcode("SYNCS_LD_UNIFM", "Sync with uniform load", sm_min=100),
    Opcode("ATOM", "Atomic (generic address space)", 102), Opcode("ATOMG", "Atomic (global memory)", 103),
    Opcode("RED", "Reduction (fire-and-forget)", 104), Opcode("ATOMS", "Atomic (shared memory)", 105),
    Opcode("REDG", "Reduction (global memory)"), Opcode("CCTL", "Cache control"),
    Opcode("ACQBULK", "Acquire bulk", sm_min=90), Opcode("PREEXIT", "Pre-exit", sm_min=90),
    Opcode("LDGSTS", "Async global->shared copy", sm_min=80), Opcode("LDGDEPBAR", "Async copy group barrier", sm_min=80),
    Opcode("ARRIVES", "Async copy mbarrier arrive", sm_min=80), Opcode("UBLKCP", "Bulk copy", sm_min=90),
    Opcode("UBLKRED", "Bulk reduce", sm_min=90), Opcode("UBLKPF", "Bulk prefetch", sm_min=90),
    Opcode("UTMALDG", "TMA load", sm_min=90), Opcode("UTMASTG", "TMA store", sm_min=90),
    Opcode("UTMAPF", "TMA prefetch", sm_min=90), Opcode("UTMAREDG", "TMA reduce", sm_min=90),
    Opcode("UTMACMDFLUSH", "TMA command flush", sm_min=90),
]
_GENERIC = ("IADD3 IMAD IMAD.WIDE IMAD.MOV MOV LDG LDS LDL LDC LD STG STS STL ST ISETP FSETP DSETP HSETP2 BRA EXIT RET CALL "
            "FADD FMUL FFMA DADD DMUL DFMA HADD2 HMUL2 HFMA2 LOP3 SHF SEL FSEL IMNMX FMNMX DMNMX MUFU POPC FLO BREV "
            "PRMT S2R CS2R S2UR I2F F2I F2F I2I BMSK SGXT TEX TLD4 HMMA IMMA HGMMA NOP BFE BFI IABS FCHK").split()
TABLE: dict[str, Opcode] = {o.mnemonic: o for o in _SYNC}
for _m in _GENERIC:
    TABLE.setdefault(_m.split(".")[0], Opcode(_m.split(".")[0], "generic"))
