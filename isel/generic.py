"""Table-driven mapping of non-sync PTX instructions to plausible SASS mnemonics.

Keys are tried from the most specific to the least: (stem, first-modifier-group) then stem; a value is
(mnemonic, modifiers) or a callable for the few forms that depend on operands (sreg moves, state spaces).
Anything not in the tables is printed as a visible pseudo-op `PTX.<name>` and counted in --stats.
"""
from __future__ import annotations

from pylower.lowering import ptx_ast as A
from pylower.lowering import ori
from pylower.sass.instr import SassInstr

from .rules import SelectContext, operand_text

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
    "set": {"I": ("ISETP", ()), "F": ("FSET", ()), "D": ("DSETP", ()), "H": ("HSET2", ())},
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
    "prefetch": ("CCTL", ("PF2",)), "prefetchu": ("CCTL", ("PF1",)), "setmaxnreg": ("USETMAXREG", ()),
    "createpolicy": ("MOV", ()), "applypriority": ("CCTL", ()), "discard": ("CCTL", ()), "alloca": ("IADD3", ()),
    "stacksave": ("MOV", ()), "stackrestore": ("MOV", ()), "istypeof": ("ISETP", ()), "ldu": ("LDG", ("E", "CONSTANT")),
}
_LD_SPACE = {".global": ("LDG", ("E",)), ".shared": ("LDS", ()), ".shared::cta": ("LDS", ()), ".local": ("LDL", ()),
             ".const": ("LDC", ()), ".param": ("LDC", ())}
_ST_SPACE = {".global": ("STG", ("E",)), ".shared": ("STS", ()), ".shared::cta": ("STS", ()), ".local": ("STL", ()),
             ".param": ("STL", ())}


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


_BY_NAME: dict[tuple, tuple] = {}      # (stem, mods) -> (opcode, mods) for the operand-independent forms


def select(ins: ori.Instr, sel: SelectContext) -> list[SassInstr]:
    stem = ins.opcode
    ops = tuple([operand_text(o) for o in ins.operands])
    hit = _BY_NAME.get((stem, ins.mods))
    if hit is not None:
        return [sel.sass(ins, hit[0], hit[1], ops)]
    if stem in _ARITH:
        opc, mods = _ARITH[stem].get(_type_class(ins.mods), _ARITH[stem].get("I", ("IADD3", ())))
    elif stem == "ld":
        opc, mods = _space(ins.mods, _LD_SPACE, ("LD", ("E",)))
    elif stem == "st":
        opc, mods = _space(ins.mods, _ST_SPACE, ("ST", ("E",)))
    elif stem == "mov":
        src = ins.operands[1] if len(ins.operands) > 1 else None
        if type(src) is A.Reg and src.name.startswith("%") and _is_sreg(src.name):
            opc, mods = ("CS2R", ()) if src.name.startswith(("%clock64", "%globaltimer")) else ("S2R", ())
            ops = (ops[0], "SR_" + src.name[1:].upper().replace(".", "."))
        else:
            opc, mods = "MOV", ()
    elif stem == "ret":
        opc, mods = ("EXIT", ()) if sel.function.is_entry else ("RET", ("REL", "NODEC"))
    elif stem in _SIMPLE:
        opc, mods = _SIMPLE[stem]
    else:
        name = ins.name
        sel.unmapped[name] = sel.unmapped.get(name, 0) + 1
        return [sel.sass(ins, "PTX." + name, (), ops)]
    if stem not in ("mov", "ret"):
        _BY_NAME[(stem, ins.mods)] = (opc, mods)
    return [sel.sass(ins, opc, mods, ops)]


def _is_sreg(name: str) -> bool:
    from pylower.lowering.build import _SREG_RE
    return bool(_SREG_RE.match(name))
