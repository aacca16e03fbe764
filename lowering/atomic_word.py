"""The atomic modifier word (Ori 314) and the NVPTX order/scope vocabulary.

ptxas's atom/red handler (sub_6C0D90) packs the decoded qualifiers into one 32-bit word that travels with
the Ori instruction to ISel (seed "Atomic/Reduction Intrinsic Lowering"):

    [31:28] 0x6 marker   [14:13] type   [12:10] op   [8] no-return   [7:5] order   [4:2] scope   [1:0] operand flags

type: 0 u32, 1 s32, 2 u64/f32, 3 anything the word cannot express (f64, f16x2, b128, ...: ISel reads the
type attribute); op: add min max inc dec and or xor (exch / cas have no token in the seed's vocabulary:
op bits 0, the `op` attribute says which); order: 4 = relaxed, the only order the handler encodes
(acquire/release/acq_rel become fences, lowering/fam_atomic.py); scope: 5 cta, 6 gpu, and pylower's
7 sys, 4 cluster (the seed lists only the first two); flags: bit0 = 32-bit address, bit1 = u32 data.

The NVPTX side (seed nvptx-atomic-warp-sreg-fence-emission): `pack_atomic_modifier` and the printer's fixed
token order, which is also how ptxas names an instruction in its messages ('atom.add.bf16.global').
"""
from __future__ import annotations

MARKER = 0x6 << 28
TYPE_SHIFT, OP_SHIFT, NORET_BIT, ORDER_SHIFT, SCOPE_SHIFT = 13, 10, 1 << 8, 5, 2
FLAG_ADDR_U32, FLAG_DATA_U32 = 1, 2

TYPE_CODE = {"u32": 0, "s32": 1, "u64": 2, "f32": 2}
TYPE_INVALID = 3
OP_CODE = {"add": 0, "min": 1, "max": 2, "inc": 3, "dec": 4, "and": 5, "or": 6, "xor": 7}
ORDER_RELAXED = 4
SCOPE_CODE = {"cluster": 4, "cta": 5, "gpu": 6, "sys": 7}


def pack_word(op: str, typ: str, noret: bool, scope: str, addr32: bool) -> int:
    w = MARKER | TYPE_CODE.get(typ, TYPE_INVALID) << TYPE_SHIFT | OP_CODE.get(op, 0) << OP_SHIFT
    w |= ORDER_RELAXED << ORDER_SHIFT | SCOPE_CODE[scope] << SCOPE_SHIFT
    if noret:
        w |= NORET_BIT
    if addr32:
        w |= FLAG_ADDR_U32
    if typ == "u32":
        w |= FLAG_DATA_U32
    return w


def unpack_word(w: int) -> dict:
    ops = {v: k for k, v in OP_CODE.items()}
    scopes = {v: k for k, v in SCOPE_CODE.items()}
    return {"type": w >> TYPE_SHIFT & 3, "op": ops[w >> OP_SHIFT & 7], "noret": bool(w & NORET_BIT),
            "order": w >> ORDER_SHIFT & 7, "scope": scopes[w >> SCOPE_SHIFT & 7],
            "addr32": bool(w & FLAG_ADDR_U32), "data_u32": bool(w & FLAG_DATA_U32)}

# ---------------------------------------------------------------- NVPTX vocabulary


# NvptxScope / AtomicOrder enums of the seed
SCOPE_THREAD, SCOPE_CTA, SCOPE_CLUSTER, SCOPE_DEVICE, SCOPE_SYSTEM = range(5)
ORDER = {"relaxed": 1, "acquire": 2, "release": 3, "acq_rel": 4, "seq_cst": 5}
_SYNC_SCOPE = {"singlethread": SCOPE_THREAD, "block": SCOPE_CTA, "cluster": SCOPE_CLUSTER, "device": SCOPE_DEVICE}
_SCOPE_BITS = {SCOPE_CTA: 1, SCOPE_SYSTEM: 2, SCOPE_CLUSTER: 3}


def map_sync_scope(name: str | None) -> int:
    if not name:
        return SCOPE_SYSTEM
    if name not in _SYNC_SCOPE:
        raise ValueError("unsupported NVPTX synchronization scope")
    return _SYNC_SCOPE[name]


def pack_atomic_modifier(order: int, scope: int, cta_cluster_tail: bool = False) -> int:
    return order | _SCOPE_BITS.get(scope, 0) << 4 | (1 << 9 if cta_cluster_tail else 0)


def instruction_name(stem: str, op: str, typ: str, space: str | None = None, order: str | None = None,
                     scope: str | None = None, hint: bool = False) -> str:
    """The printer's fixed token order: stem, order, scope, operation, cache hint, type, space; an absent
    token prints nothing (`atom.relaxed.cta.add.u32.shared`, ptxas's 'atom.add.bf16.global')."""
    toks = [stem] + [t for t in (order, scope, op) if t]
    if hint:
        toks.append("L2::cache_hint")
    toks.append(typ)
    if space:
        toks.append(space)
    return ".".join(toks)
