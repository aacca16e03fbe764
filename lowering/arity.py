"""How many operands an instruction takes, as ptxas checks before anything else reads them: too few or too
many is "Arguments mismatch for instruction 'add'" (ptxas 13.0.88: `add.u32 %r1, %r2;`, `mov.u32 %r1, %r2,
%r3;`, `atom.global.add.u32 %r1, [%rd1];`, `st.global.u32 [%rd1];`, `bar.sync;`).

One table, (fewest, most) operands per stem from the PTX ISA's forms (a `d|p` pair is one operand; an
optional cache-policy operand is counted in the most). A stem not listed is not checked here (its family
handler validates it). Every later stage can then index the operands it needs without checking again.
"""
from __future__ import annotations

from pylower.lazy_re import lazy_compile

from .ptx_ast import Addr, Imm

_N = None          # no upper bound checked
ARITY: dict[str, tuple[int, int | None]] = {
    # integer and floating-point arithmetic
    "add": (3, 3), "sub": (3, 3), "mul": (3, 3), "div": (3, 3), "rem": (3, 3), "addc": (3, 3), "subc": (3, 3),
    "mul24": (3, 3), "mad": (4, 4), "madc": (4, 4), "mad24": (4, 4), "fma": (4, 4), "sad": (4, 4),
    "min": (3, 4), "max": (3, 4), "abs": (2, 2), "neg": (2, 2), "copysign": (3, 3),
    "and": (3, 3), "or": (3, 3), "xor": (3, 3), "not": (2, 2), "cnot": (2, 2), "lop3": (5, 6),
    "shl": (3, 3), "shr": (3, 3), "shf": (4, 4), "popc": (2, 2), "clz": (2, 2), "brev": (2, 2), "bfind": (2, 2),
    "bfe": (4, 4), "bfi": (5, 5), "bmsk": (3, 3), "prmt": (4, 4), "fns": (4, 4), "szext": (3, 3),
    "rcp": (2, 2), "sqrt": (2, 2), "rsqrt": (2, 2), "sin": (2, 2), "cos": (2, 2), "lg2": (2, 2), "ex2": (2, 2),
    "tanh": (2, 2), "testp": (2, 2),
    "setp": (3, 4), "set": (3, 4), "selp": (4, 4), "slct": (4, 4),
    "mov": (2, 2), "cvt": (2, 4), "cvta": (2, 2),
    # memory and synchronization
    "ld": (2, 3), "ldu": (2, 2), "st": (2, 3), "atom": (3, 6), "red": (2, 4), "prefetch": (1, 1),
    "bar": (1, 4), "membar": (0, 0), "activemask": (1, 1), "vote": (2, 4), "match": (3, 4), "redux": (3, 3),
    "shfl": (4, 5), "elect": (2, 2), "nanosleep": (1, 1), "getctarank": (2, 2), "mapa": (3, 3),
    "setmaxnreg": (1, 1), "griddepcontrol": (0, 0), "mbarrier": (1, 5),
    # control flow
    "bra": (1, 1), "brx": (2, 2), "call": (1, _N), "ret": (0, 0), "exit": (0, 0), "trap": (0, 0),
}

# Stems whose operations take different operand counts: (stem, operation modifier) -> (fewest, most); ptxas
# names the operation in its message ("Arguments mismatch for instruction 'tcgen05.dealloc'", 13.0.88)
ARITY_BY_OPERATION: dict[tuple[str, str], tuple[int, int | None]] = {
    ("tcgen05", ".alloc"): (2, 2), ("tcgen05", ".dealloc"): (2, 2), ("tcgen05", ".relinquish_alloc_permit"): (0, 0),
    ("tcgen05", ".wait::st"): (0, 0), ("tcgen05", ".wait::ld"): (0, 0),
}

# The operand that is a memory address `[...]` (and the only one: an address elsewhere, or none there, is
# "Arguments mismatch"; ld/ldu's destination as an address is "Argument 0 of instruction 'ld': must be
# register"). st.async / red.async take the mbarrier's address third.
ADDRESS: dict[str, int] = {"ld": 1, "ldu": 1, "st": 0, "atom": 1, "red": 0, "prefetch": 0, "prefetchu": 0}
_REGISTER_FIRST = {"ld", "ldu"}
_MBARRIER_THIRD = {"st", "red"}          # st.async / red.async [addr], value, [mbarrier]


# A decimal floating-point literal (1.5, 1e3) is an operand of a floating-point instruction only: with no float
# type among the modifiers (`add.u32 %r1, %r1, 1.5;`, a member mask of 1.5) ptxas says "Arguments mismatch".
# Checked for the stems of ARITY only (createpolicy.fractional takes a fraction with a .b64 type).
_FLOAT_TYPE = lazy_compile(r"\.(?:f\d+(?:x\d+)?|bf16(?:x2)?|tf32|e\dm\d(?:x\d)?|ue8m0(?:x2)?)$")    # not .bfly, .full


def _decimal_float(o) -> bool:
    if type(o) is not Imm:
        return False
    t = o.text.lstrip("-")
    return t[:2].lower() not in ("0x", "0f", "0d", "0b") and any(c in t for c in ".eE")


def check(ins) -> str | None:
    """ptxas's message when `ins` has the wrong number or kind of operands for its stem, else None."""
    op = ins.opcode
    if ins.mods and (op, ins.mods[0]) in ARITY_BY_OPERATION:
        lo, hi = ARITY_BY_OPERATION[(op, ins.mods[0])]
        if len(ins.operands) < lo or hi is not None and len(ins.operands) > hi:
            return f"Arguments mismatch for instruction '{op}{ins.mods[0].split('::')[0]}'"
    rng = ARITY.get(op)
    if rng is not None and any(type(o) is Imm and _decimal_float(o) for o in ins.operands) \
            and not any(_FLOAT_TYPE.match(m) for m in ins.mods):
        return f"Arguments mismatch for instruction '{op}'"
    if rng is not None:
        n = len(ins.operands)
        lo, hi = rng
        if n < lo or (hi is not None and n > hi):
            return f"Arguments mismatch for instruction '{op}'"
    k = ADDRESS.get(op)
    if k is not None and ins.operands:
        if op in _REGISTER_FIRST and type(ins.operands[0]) is Addr:
            return f"Argument 0 of instruction '{op}': must be register"
        if len(ins.operands) <= k or type(ins.operands[k]) is not Addr \
                or any(type(o) is Addr for i, o in enumerate(ins.operands) if i != k and not (op in _MBARRIER_THIRD and i == 2)):
            return f"Arguments mismatch for instruction '{op}'"
    return None
