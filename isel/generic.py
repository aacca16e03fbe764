"""Table-driven selection of the non-sync PTX instructions, with their operands as nvdisasm prints them.

Registers stay virtual (PTX names); everything else takes nvdisasm's shape, from one table per concern:
- the opcode and modifiers by stem and type class (_ARITH, _SIMPLE), keys tried from the most specific;
- compares keep their comparison and boolean op (`setp.ge.s32 p, a, b` -> `ISETP.GE.AND p, PT, a, b, PT`;
  unsigned `.U32`; floats FSETP/DSETP with `.FTZ`), _CMP;
- widths and signedness: `mul.wide.u32` -> IMAD.WIDE.U32, `mul.hi` -> IMAD.HI, loads and stores `.U8 .S16
  .64 .128`, shifts SHF.L.U32 / SHF.R.U32.HI / SHF.R.S32.HI;
- logic as LOP3.LUT with its truth table (a=0xf0, b=0xcc, c=0xaa), predicates as PLOP3.LUT;
- kernel parameters as constant-bank operands c[0x0][0x210] at the offsets ptxas assigns (natural alignment,
  `.align`, arrays; base per target: CONST_BANK_SM90 / CONST_BANK_SM100, else 0x160), launch sizes
  (%ntid, %nctaid) from the same bank, other special registers with S2R / CS2R;
- memory operands: `[%rd4.64+0x200]` (ADDRESS_64_SUFFIX); the global memory descriptor ptxas prints from
  sm_90 on (`desc[UR4][R2.64]`, loaded from c[0x0][0x208]) is left implicit, as nvdisasm prints it on sm_80-89;
- branches name their label `BRA `(label)` (isel/select.py resolves it), calls `CALL.REL.NOINC `(callee)`.
Probes of the shapes: the listings of tests/reference/probes/*/ (`sass`), small kernels compiled with
ptxas + nvdisasm -c (docs/findings/listing.md). Anything not in the tables is printed as a visible
pseudo-op `PTX.<name>` and counted in --stats.
"""
from __future__ import annotations

from pylower.lowering import ori
from pylower.lowering.math_subroutines import CALLS, calls_subroutine, routine
from pylower.lowering.shared_size import size_align
from pylower.lowering import ptx_ast as A
from pylower.sass.instr import SassInstr

from .rules import SelectContext, operand_text
from . import clock_reads

_FLOAT = {".f32": "F", ".f64": "D", ".f16": "H", ".f16x2": "H", ".bf16": "H", ".bf16x2": "H"}

# stem -> {type-prefix: (opcode, mods)}; "I" integer, "F" f32, "D" f64, "H" half
_ARITH = {
    "add": {"I": ("IADD3", ()), "F": ("FADD", ()), "D": ("DADD", ()), "H": ("HADD2", ())},
    "sub": {"I": ("IADD3", ()), "F": ("FADD", ()), "D": ("DADD", ()), "H": ("HADD2", ())},
    "mul": {"I": ("IMAD", ()), "F": ("FMUL", ()), "D": ("DMUL", ()), "H": ("HMUL2", ())},
    "mad": {"I": ("IMAD", ()), "F": ("FFMA", ()), "D": ("DFMA", ()), "H": ("HFMA2", ())},
    "fma": {"F": ("FFMA", ()), "D": ("DFMA", ()), "H": ("HFMA2", ())},
    "min": {"I": ("IMNMX", ()), "F": ("FMNMX", ()), "D": ("DMNMX", ()), "H": ("HMNMX2", ())},
    "max": {"I": ("IMNMX", ()), "F": ("FMNMX", ()), "D": ("DMNMX", ()), "H": ("HMNMX2", ())},
    "setp": {"I": ("ISETP", ()), "F": ("FSETP", ()), "D": ("DSETP", ()), "H": ("HSETP2", ())},
    "set": {"I": ("ISETP", ()), "F": ("FSETP", ()), "D": ("DSETP", ()), "H": ("HSETP2", ())},
    "abs": {"I": ("IABS", ()), "F": ("FADD", ("FTZ",)), "D": ("DADD", ()), "H": ("HADD2", ())},
    "neg": {"I": ("IADD3", ()), "F": ("FADD", ()), "D": ("DADD", ()), "H": ("HADD2", ())},
    "selp": {"I": ("SEL", ()), "F": ("FSEL", ()), "D": ("SEL", ()), "H": ("SEL", ())},
}
_SIMPLE = {
    "and": ("LOP3", ("LUT",)), "or": ("LOP3", ("LUT",)), "xor": ("LOP3", ("LUT",)), "not": ("LOP3", ("LUT",)),
    "cnot": ("ISETP", ()), "lop3": ("LOP3", ("LUT",)), "shl": ("SHF", ("L",)), "shr": ("SHF", ("R",)),
    "shf": ("SHF", ()), "prmt": ("PRMT", ()), "popc": ("POPC", ()), "clz": ("FLO", ("U32",)), "bfind": ("FLO", ()),
    "brev": ("BREV", ()), "bfe": ("SGXT", ()), "bfi": ("BMSK", ()), "bmsk": ("BMSK", ()), "szext": ("SGXT", ()),
    "rcp": ("MUFU", ("RCP",)), "sqrt": ("MUFU", ("SQRT",)), "rsqrt": ("MUFU", ("RSQ",)), "ex2": ("MUFU", ("EX2",)),
    "lg2": ("MUFU", ("LG2",)), "sin": ("MUFU", ("SIN",)), "cos": ("MUFU", ("COS",)), "tanh": ("MUFU", ("TANH",)),
    "div": ("MUFU", ("RCP",)), "rem": ("IMAD", ("HI",)), "copysign": ("LOP3", ("LUT",)), "testp": ("FSETP", ()),
    "dp4a": ("IDP", ("4A",)), "dp2a": ("IDP", ("2A",)), "mul24": ("IMAD", ()), "mad24": ("IMAD", ()),
    "sad": ("VABSDIFF", ()), "addc": ("IADD3", ("X",)), "subc": ("IADD3", ("X",)), "madc": ("IMAD", ("X",)),
    "bra": ("BRA", ()), "brx": ("BRX", ()), "call": ("CALL", ("REL", "NOINC")), "exit": ("EXIT", ()),
    "trap": ("BPT", ("TRAP",)), "brkpt": ("BPT", ("INT",)), "pmevent": ("PMTRIG", ()),
    "tex": ("TEX", ()), "tld4": ("TLD4", ()), "txq": ("TXQ", ()), "suld": ("SULD", ()), "sust": ("SUST", ()),
    "sured": ("SURED", ()), "suq": ("SUQ", ()), "mma": ("HMMA", ()), "wmma": ("HMMA", ()), "wgmma": ("HGMMA", ()),
    "ldmatrix": ("LDSM", ()), "stmatrix": ("STSM", ()), "movmatrix": ("MOVM", ()), "cvt": ("I2F", ()),
    "cvta": ("MOV", ()), "isspacep": ("QSPC", ()), "mapa": ("MAPA", ()), "getctarank": ("GETCTARANK", ()),
    "setmaxnreg": ("USETMAXREG", ()),
    "createpolicy": ("MOV", ()), "applypriority": ("CCTL", ()), "discard": ("CCTL", ()), "alloca": ("IADD3", ()),
    "stacksave": ("MOV", ()), "stackrestore": ("MOV", ()), "istypeof": ("ISETP", ()), "ldu": ("LDG", ("E", "CONSTANT")),
}
_LD_SPACE = {".global": ("LDG", ("E",)), ".shared": ("LDS", ()), ".shared::cta": ("LDS", ()), ".local": ("LDL", ()),
             ".const": ("LDC", ()), ".param": ("LDC", ()), ".shared::cluster": ("LD", ("E",))}
_ST_SPACE = {".global": ("STG", ("E",)), ".shared": ("STS", ()), ".shared::cta": ("STS", ()), ".local": ("STL", ()),
             ".param": ("STL", ()), ".shared::cluster": ("ST", ("E",))}

# PTX comparison -> (SASS comparison, unsigned) for integers; floats keep the ordered/unordered name
_CMP_INT = {".eq": ("EQ", False), ".ne": ("NE", False), ".lt": ("LT", False), ".le": ("LE", False),
            ".gt": ("GT", False), ".ge": ("GE", False), ".lo": ("LT", True), ".ls": ("LE", True),
            ".hi": ("GT", True), ".hs": ("GE", True)}
_CMP_FLOAT = {m: m[1:].upper() for m in (".eq", ".ne", ".lt", ".le", ".gt", ".ge", ".equ", ".neu", ".ltu",
                                         ".leu", ".gtu", ".geu", ".num", ".nan")}
_BOOL = {".and": "AND", ".or": "OR", ".xor": "XOR"}
_UNSIGNED = (".u8", ".u16", ".u32", ".u64", ".b8", ".b16", ".b32", ".b64")
_SIGNED = (".s8", ".s16", ".s32", ".s64")

# LOP3 truth tables over (a, b, c) = (0xf0, 0xcc, 0xaa); PLOP3 takes PT as its third input
_LUT = {"and": 0xF0 & 0xCC, "or": 0xF0 | 0xCC, "xor": 0xF0 ^ 0xCC}
_NOT_LUT = (~0xCC) & 0xFF                 # not a, printed LOP3.LUT d, RZ, a, RZ, 0x33, !PT

# load/store width modifiers by PTX type (32-bit accesses print none)
_WIDTH = {".u8": "U8", ".s8": "S8", ".b8": "U8", ".u16": "U16", ".s16": "S16", ".b16": "U16", ".f16": "U16",
          ".bf16": "U16", ".u64": "64", ".s64": "64", ".b64": "64", ".f64": "64"}
_TYPE_BITS = {"8": 8, "16": 16, "32": 32, "64": 64, "128": 128}

# constant bank 0 per target: (feature, parameters, launch sizes (%ntid.x ...), global memory descriptor)
# (probed with ptxas + nvdisasm -c: LDC/ULDC/LDCU operands of small kernels on sm_75, sm_90, sm_100a)
_CONST_BANK = (("CONST_BANK_SM100", 0x380, 0x360, 0x358), ("CONST_BANK_SM90", 0x210, 0x0, 0x208))
_CONST_BANK_DEFAULT = (0x160, 0x0, 0x118)
_LAUNCH_SIZES = {"%ntid.x": 0x0, "%ntid.y": 0x4, "%ntid.z": 0x8, "%nctaid.x": 0xC, "%nctaid.y": 0x10,
                 "%nctaid.z": 0x14}
_CS2R_SREGS = ("%clock64", "%globaltimer")
_SREG_NAMES = {"%lanemask_lt": "SR_LTMASK", "%lanemask_le": "SR_LEMASK", "%lanemask_eq": "SR_EQMASK",
               "%lanemask_ge": "SR_GEMASK", "%lanemask_gt": "SR_GTMASK", "%clock": "SR_CLOCKLO",
               "%clock64": "SR_CLOCKLO", "%globaltimer": "SR_GLOBALTIMERLO", "%warpid": "SR_VIRTID",
               "%cluster_ctarank": "SR_CLUSTER_CTARANK", "%cluster_nctarank": "SR_CLUSTER_NCTARANK"}


def _type_class(mods) -> str:
    for m in mods:
        if m in _FLOAT:
            return _FLOAT[m]
    return "I"


def _space(mods, table, default):
    for m in mods:
        if m in table:
            return table[m]
    return default


def const_bank(target) -> tuple[int, int, int]:
    """(parameter base, launch-size base, descriptor offset) of c[0x0] on the target."""
    for feature, params, sizes, desc in _CONST_BANK:
        if target.has(feature):
            return params, sizes, desc
    return _CONST_BANK_DEFAULT


def param_offsets(sel: SelectContext) -> dict[str, tuple[int, int]]:
    """Kernel parameter name -> (byte offset in c[0x0], size): in declaration order, each naturally aligned
    (or to its `.align`), from the target's parameter base (probe: k(.param .u64, .param .u8, .param .align 16
    .b8 [20], .param .u32) at 0x210 0x218 0x220 0x234 on sm_90)."""
    cached = sel._analyses.get("params")
    if cached is not None:
        return cached
    base = const_bank(sel.target)[0]
    out, off = {}, 0
    if sel.function.is_entry:
        for p in sel.function.decl.params:
            size, align = size_align(p)
            if p.attrs and any(a.startswith(".align") for a in p.attrs):
                align = max(align, _explicit_align(p))
            off = (off + align - 1) // max(align, 1) * max(align, 1)
            out[p.name] = (base + off, size)
            off += size
    sel._analyses["params"] = out
    return out


def _explicit_align(p) -> int:
    for k, a in enumerate(p.attrs):
        if a == ".align" and k + 1 < len(p.attrs) and p.attrs[k + 1].isdigit():
            return int(p.attrs[k + 1])
        if a.startswith(".align ") and a.split()[-1].isdigit():
            return int(a.split()[-1])
    return 1


def _cbank(off: int) -> str:
    return f"c[0x0][{hex(off)}]"


def _is_64(mods) -> bool:
    return any(m in (".u64", ".s64", ".b64", ".f64") for m in mods)


def address(sel: SelectContext, o, space: str = "", wide: bool = True) -> str:
    """A memory operand as nvdisasm prints it: `[%rd4.64+0x200]` (64-bit address registers print .64 where
    the target has ADDRESS_64_SUFFIX)."""
    if type(o) is not A.Addr:
        return operand_text(o)
    items = []
    for i in o.items:
        t = operand_text(i)
        if type(i) is A.Reg and wide and sel.target.has("ADDRESS_64_SUFFIX") and _reg_is_64(sel, i.name):
            t += ".64"
        items.append(t)
    inner = ", ".join(items)
    if o.offset:
        inner += f"+{hex(o.offset)}" if o.offset > 0 else f"-{hex(-o.offset)}"
    return f"[{inner}]"


def _reg_is_64(sel: SelectContext, name: str) -> bool:
    widths = sel._analyses.get("reg64")
    if widths is None:
        widths = set()
        for d in sel.function.decls:
            if isinstance(d, A.VarDecl) and d.space == ".reg" and any(a in (".b64", ".u64", ".s64", ".f64")
                                                                     for a in d.attrs):
                widths.add(d.name)
        sel._analyses["reg64"] = widths
    if name in widths:
        return True
    base = name.rstrip("0123456789")
    return base in widths


_BY_NAME: dict[tuple, tuple] = {}      # (stem, mods) -> (opcode, mods) for the operand-independent forms


def _ops(ins) -> list[str]:
    return [operand_text(o) for o in ins.operands]


def _pred_dests(o) -> list[str]:
    if type(o) is A.Pair:
        return [operand_text(o.first), operand_text(o.second)]
    return [operand_text(o), "PT"]


def _setp(ins, sel, fam: str) -> SassInstr:
    mods = ins.mods
    ops = ins.operands
    out_mods: list[str] = []
    if fam == "I":
        cmp, unsigned = next((_CMP_INT[m] for m in mods if m in _CMP_INT), ("NE", False))
        out_mods.append(cmp)
        if unsigned or any(m in _UNSIGNED for m in mods):
            out_mods.append("U32")
        opc = "ISETP"
    else:
        out_mods.append(next((_CMP_FLOAT[m] for m in mods if m in _CMP_FLOAT), "NE"))
        if ".ftz" in mods:
            out_mods.append("FTZ")
        opc = {"F": "FSETP", "D": "DSETP", "H": "HSETP2"}[fam]
    out_mods.append(next((_BOOL[m] for m in mods if m in _BOOL), "AND"))
    if _is_64(mods) and fam == "I":
        out_mods.append("EX")
    dests = _pred_dests(ops[0])
    srcs = [operand_text(o) for o in ops[1:3]]
    third = operand_text(ops[3]) if len(ops) > 3 else "PT"
    return sel.sass(ins, opc, tuple(out_mods), tuple(dests + srcs + [third]))


def _logic(ins, sel) -> SassInstr:
    ops = _ops(ins)
    stem = ins.opcode
    if ".pred" in ins.mods:
        if stem == "not":
            return sel.sass(ins, "PLOP3", ("LUT",), (ops[0], "PT", ops[1], "PT", "PT", hex(0x0F & 0xAA), "0x0"))
        lut = _LUT[stem] & 0xAA
        return sel.sass(ins, "PLOP3", ("LUT",), (ops[0], "PT", ops[1], ops[2], "PT", hex(lut), "0x0"))
    if stem == "not":
        return sel.sass(ins, "LOP3", ("LUT",), (ops[0], "RZ", ops[1], "RZ", hex(_NOT_LUT), "!PT"))
    if stem == "lop3":
        return sel.sass(ins, "LOP3", ("LUT",), (ops[0], ops[1], ops[2], ops[3], ops[4], "!PT"))
    return sel.sass(ins, "LOP3", ("LUT",), (ops[0], ops[1], ops[2], "RZ", hex(_LUT[stem]), "!PT"))


def _shift(ins, sel) -> SassInstr:
    ops = _ops(ins)
    mods = ins.mods
    w = "64" if _is_64(mods) else "32"
    if ins.opcode == "shl":
        return sel.sass(ins, "SHF", ("L", f"U{w}"), (ops[0], ops[1], ops[2], "RZ"))
    if ins.opcode == "shr":
        sign = "S" if any(m in _SIGNED for m in mods) else "U"
        return sel.sass(ins, "SHF", ("R", f"{sign}{w}", "HI"), (ops[0], "RZ", ops[2], ops[1]))
    # shf.{l,r}.{wrap,clamp}.b32 d, a, b, c: funnel shift of b:a by c
    left = ".l" in mods
    out = ("L" if left else "R",) + (("W",) if ".wrap" in mods else ()) + ("U32",) + (("HI",) if left else ())
    return sel.sass(ins, "SHF", out, (ops[0], ops[1], ops[3], ops[2]))


def _int_arith(ins, sel, opc, mods) -> SassInstr:
    ops = _ops(ins)
    stem, m = ins.opcode, ins.mods
    if stem in ("add", "sub"):
        b = ops[2] if stem == "add" else _negate_text(ops[2])
        return sel.sass(ins, "IADD3", (), (ops[0], ops[1], b, "RZ"))
    if stem == "neg":
        return sel.sass(ins, "IADD3", (), (ops[0], "RZ", _negate_text(ops[1]), "RZ"))
    if stem in ("mul", "mad"):
        out: list[str] = []
        if ".wide" in m:
            out.append("WIDE")
        elif ".hi" in m:
            out.append("HI")
        if (".wide" in m or ".hi" in m) and any(x in (".u16", ".u32", ".u64") for x in m):
            out.append("U32")
        c = ops[3] if stem == "mad" and len(ops) > 3 else "RZ"
        return sel.sass(ins, "IMAD", tuple(out), (ops[0], ops[1], ops[2], c))
    if stem in ("min", "max"):
        out = ("U32",) if any(x in (".u16", ".u32", ".u64") for x in m) else ()
        return sel.sass(ins, "IMNMX", out, (ops[0], ops[1], ops[2], "PT" if stem == "min" else "!PT"))
    if stem == "abs":
        return sel.sass(ins, "IABS", (), tuple(ops))
    if stem == "selp":
        return sel.sass(ins, "SEL", (), tuple(ops))
    return sel.sass(ins, opc, mods, tuple(ops))


def _negate_text(t: str) -> str:
    return t[1:] if t.startswith("-") else "-" + t


_ROUND = {".rn": "", ".rz": "RZ", ".rm": "RM", ".rp": "RP"}


def _float_arith(ins, sel, opc, mods) -> SassInstr:
    ops = _ops(ins)
    stem, m = ins.opcode, ins.mods
    out = tuple(_ROUND[x] for x in m if x in _ROUND and _ROUND[x]) + (("FTZ",) if ".ftz" in m else ()) + \
        (("SAT",) if ".sat" in m else ())
    if stem == "sub":
        return sel.sass(ins, opc, out, (ops[0], ops[1], _negate_text(ops[2])))
    if stem == "neg":
        return sel.sass(ins, opc, out, (ops[0], "-" + ops[1].lstrip("-") if not ops[1].startswith("-") else ops[1][1:], "-RZ"))
    if stem == "abs":
        return sel.sass(ins, opc, mods, (ops[0], f"|{ops[1]}|", "-RZ"))
    if stem in ("min", "max"):
        return sel.sass(ins, opc, out, (ops[0], ops[1], ops[2], "PT" if stem == "min" else "!PT"))
    if stem == "selp":
        return sel.sass(ins, opc, (), tuple(ops))
    return sel.sass(ins, opc, mods + out, tuple(ops))


_CVT_INT = {".u8": "U8", ".s8": "S8", ".u16": "U16", ".s16": "S16", ".u32": "U32", ".s32": "S32",
            ".u64": "U64", ".s64": "S64"}
_CVT_FLOAT = {".f16": "F16", ".bf16": "BF16", ".f32": "F32", ".f64": "F64"}
_CVT_ROUND = {".rzi": "TRUNC", ".rmi": "FLOOR", ".rpi": "CEIL", ".rz": "RZ", ".rm": "RM", ".rp": "RP"}


def _cvt(ins, sel) -> SassInstr:
    """cvt.<rnd>.<dst>.<src>: I2F / F2I / F2F / I2I with the non-default types (I2F's source S32 and F2I's
    destination S32 print nothing; F32 on the float side prints nothing)."""
    types = [m for m in ins.mods if m in _CVT_INT or m in _CVT_FLOAT]
    ops = _ops(ins)
    if len(types) < 2:
        return sel.sass(ins, "MOV", (), tuple(ops))
    dst, src = types[0], types[1]
    rnd = tuple(_CVT_ROUND[m] for m in ins.mods if m in _CVT_ROUND) + (("FTZ",) if ".ftz" in ins.mods else ())
    if dst in _CVT_FLOAT and src in _CVT_INT:
        mods = tuple(x for x in (_CVT_FLOAT[dst], _CVT_INT[src]) if x not in ("F32", "S32")) + rnd
        return sel.sass(ins, "I2F", mods, tuple(ops))
    if dst in _CVT_INT and src in _CVT_FLOAT:
        mods = tuple(x for x in (_CVT_INT[dst], _CVT_FLOAT[src]) if x not in ("F32", "S32")) + rnd
        return sel.sass(ins, "F2I", mods, tuple(ops))
    if dst in _CVT_FLOAT:
        return sel.sass(ins, "F2F", (_CVT_FLOAT[dst], _CVT_FLOAT[src]) + rnd, tuple(ops))
    if _TYPE_BITS.get(dst[2:]) == _TYPE_BITS.get(src[2:]) or dst[2:] in ("64",) or src[2:] in ("64",):
        return sel.sass(ins, "MOV", (), tuple(ops))
    return sel.sass(ins, "I2I", (_CVT_INT[dst], _CVT_INT[src]), tuple(ops))


def _width(mods) -> tuple[str, ...]:
    vec = next((int(m[2:]) for m in mods if m in (".v2", ".v4", ".v8")), 1)
    bits = next((int(m[2:]) for m in mods if m[:2] in (".b", ".u", ".s", ".f") and m[2:].isdigit()), 32)
    total = vec * bits
    if total > 32:
        return (str(total),)
    if vec == 1:
        w = next((_WIDTH[m] for m in mods if m in _WIDTH), None)
        return (w,) if w else ()
    return ()


def _param_operand(sel, o) -> str | None:
    """`[k_param_0+4]` of a kernel parameter -> c[0x0][0x214]."""
    if type(o) is not A.Addr or len(o.items) != 1 or type(o.items[0]) not in (A.Sym, A.Reg):
        return None
    hit = param_offsets(sel).get(o.items[0].name)
    return _cbank(hit[0] + o.offset) if hit else None


def _load(ins, sel) -> SassInstr:
    ops = _ops(ins)
    mods = ins.mods
    if ".param" in mods:
        c = _param_operand(sel, ins.operands[1])
        if c is not None:
            return sel.sass(ins, "LDC", _width(mods), (ops[0], c))
        return sel.sass(ins, "MOV", (), (ops[0], operand_text(ins.operands[1].items[0])
                                         if type(ins.operands[1]) is A.Addr and ins.operands[1].items else ops[1]))
    opc, base = _space(mods, _LD_SPACE, ("LD", ("E",)))
    space = next((m for m in mods if m in _LD_SPACE), "")
    wide = space in (".global", "") or opc in ("LD", "LDG")
    addr = address(sel, ins.operands[1], ".global" if opc == "LDG" else space, wide)
    return sel.sass(ins, opc, base + _width(mods), (ops[0], addr) + tuple(ops[2:]))


def _store(ins, sel) -> SassInstr:
    ops = _ops(ins)
    mods = ins.mods
    if ".param" in mods and type(ins.operands[0]) is A.Addr and ins.operands[0].items:
        return sel.sass(ins, "MOV", (), (operand_text(ins.operands[0].items[0]),) + tuple(ops[1:]))
    opc, base = _space(mods, _ST_SPACE, ("ST", ("E",)))
    space = next((m for m in mods if m in _ST_SPACE), "")
    wide = space in (".global", "") or opc in ("ST", "STG")
    addr = address(sel, ins.operands[0], ".global" if opc == "STG" else space, wide)
    return sel.sass(ins, opc, base + _width(mods), (addr,) + tuple(ops[1:]))


def _mov(ins, sel) -> SassInstr:
    ops = _ops(ins)
    src = ins.operands[1] if len(ins.operands) > 1 else None
    if type(src) is A.Reg and src.name in _LAUNCH_SIZES:
        return sel.sass(ins, "MOV", (), (ops[0], _cbank(const_bank(sel.target)[1] + _LAUNCH_SIZES[src.name])))
    if type(src) is A.Reg and _is_sreg(src.name):
        name = _SREG_NAMES.get(src.name) or "SR_" + src.name[1:].upper()
        if src.name in clock_reads.CLOCKS and clock_reads.reads_uniform(ins, sel):
            wait = clock_reads.wait(ins, sel)
            return [sel.sass(ins, "S2UR", (), (ops[0], name))] + ([wait] if wait is not None else [])
        opc = "CS2R" if src.name.startswith(_CS2R_SREGS) else "S2R"
        return sel.sass(ins, opc, (), (ops[0], name))
    return sel.sass(ins, "MOV", (), tuple(ops))


def _branch(ins, sel) -> SassInstr:
    tgt = ins.operands[0] if ins.operands else None
    if ins.opcode == "bra" and type(tgt) is A.Sym:
        return sel.sass(ins, "BRA", (), (f"`({tgt.name})",))
    return sel.sass(ins, "BRX" if ins.opcode == "brx" else "BRA", (), tuple(_ops(ins)))


def _call(ins, sel) -> list[SassInstr]:
    """`call (ret), f, (args)` -> CALL.REL.NOINC `(f)` (CALL.ABS.NOINC with -c, where f has its own section).
    A callee of the module receives its arguments in its parameter registers and gives back its results:
    `MOV a, %r6` before the call, `MOV t, r` after it (ptxas moves them to its ABI registers the same way)."""
    callee = next((o.name for o in ins.operands if type(o) is A.Sym), None)
    mods = ("ABS", "NOINC") if sel.options.get("compile_only") else ("REL", "NOINC")
    if callee is None:
        return [sel.sass(ins, "CALL", mods, tuple(_ops(ins)))]
    target = sel.module.function(callee) if sel.module is not None else None
    # ptxas calls an extern through its address (CALL.ABS.NOINC R2): no call into the program, no CRS stack
    call = sel.sass(ins, "CALL", mods, (f"`({callee})",), tags=("EXTERN_CALL",) if target is None else ())
    if target is None:
        return [call]
    k = next(i for i, o in enumerate(ins.operands) if type(o) is A.Sym)
    rets = ins.operands[0].items if k == 1 and type(ins.operands[0]) is A.Paren else ()
    args = ins.operands[k + 1].items if k + 1 < len(ins.operands) and type(ins.operands[k + 1]) is A.Paren else ()
    before = [sel.sass(ins, "MOV", (), (p.name, operand_text(a)), reason=f"argument {p.name} of {callee}")
              for p, a in zip(target.decl.params, args)]
    after = [sel.sass(ins, "MOV", (), (operand_text(r), p.name), reason=f"result {p.name} of {callee}")
             for p, r in zip(target.decl.rets or (), rets)]
    return before + [call] + after


def _ret(ins, sel) -> SassInstr:
    if sel.function.is_entry:
        return sel.sass(ins, "EXIT")
    return sel.sass(ins, "RET", ("ABS" if sel.options.get("compile_only") else "REL", "NODEC"))


# prefetch / prefetchu by state space and level (sm_80..sm_120, docs/findings/memory.md): a tensor map is
# prefetched by the TMA unit from a uniform address (UTMACCTL.PF, whatever the space: generic, .param, .const);
# global and generic addresses get CCTL.E with the level (PF1 = L1, PF2 = L2, PML2 = L2::evict_last); a local
# address gets CCTLL (sm_90 and sm_100a drop it: not a sync instruction either way).
_PREFETCH_LEVEL = {".L1": "PF1", ".L2": "PF2", ".L2::evict_last": "PML2", ".L2::evict_normal": "PF2"}


def _prefetch(ins, sel):
    mods = ins.mods
    if ".tensormap" in mods:
        return sel.sass(ins, "UTMACCTL", ("PF",), tuple(_ops(ins)))
    level = next((_PREFETCH_LEVEL[m] for m in mods if m in _PREFETCH_LEVEL), "PF2")
    if ".local" in mods:
        return sel.sass(ins, "CCTLL", (level,), tuple(_ops(ins)))
    return sel.sass(ins, "CCTL", ("E", level), tuple(_ops(ins)))


_FORMS = {"setp": None, "prefetch": _prefetch, "prefetchu": _prefetch, "ld": _load, "st": _store, "mov": _mov, "bra": _branch, "brx": _branch, "call": _call,
          "ret": _ret, "cvt": _cvt, "and": _logic, "or": _logic, "xor": _logic, "not": _logic, "lop3": _logic,
          "shl": _shift, "shr": _shift, "shf": _shift}


def select(ins: ori.Instr, sel: SelectContext) -> list[SassInstr]:
    out = _select(ins, sel)
    if ins.opcode in CALLS and calls_subroutine(ins) and routine(ins) is None:   # expanded: the CALL has it
        out[-1].tags = out[-1].tags | {"SUBROUTINE_CALL"}
    return out


def _select(ins: ori.Instr, sel: SelectContext) -> list[SassInstr]:
    stem = ins.opcode
    if stem in ("setp", "set"):
        return [_setp(ins, sel, _type_class(ins.mods))]
    form = _FORMS.get(stem)
    if form is not None:
        out = form(ins, sel)
        return out if isinstance(out, list) else [out]
    hit = _BY_NAME.get((stem, ins.mods))
    if hit is None:
        if stem in _ARITH:
            hit = _ARITH[stem].get(_type_class(ins.mods), _ARITH[stem].get("I", ("IADD3", ())))
        elif stem in _SIMPLE:
            hit = _SIMPLE[stem]
        else:
            name = ins.name
            sel.unmapped[name] = sel.unmapped.get(name, 0) + 1
            return [sel.sass(ins, "PTX." + name, (), tuple(_ops(ins)))]
        _BY_NAME[(stem, ins.mods)] = hit
    opc, mods = hit
    if stem in _ARITH:
        if _type_class(ins.mods) == "I":
            return [_int_arith(ins, sel, opc, mods)]
        return [_float_arith(ins, sel, opc, mods)]
    return [sel.sass(ins, opc, mods, tuple(_ops(ins)))]


def _is_sreg(name: str) -> bool:
    from pylower.lowering.operand_types import is_special_register
    return is_special_register(name)
