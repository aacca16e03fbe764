"""How many SASS instructions ptxas makes of one PTX instruction, where that is not one: the per-kind row of
if-conversion's size count (passes/ifconvert.py `_sass_size`). ptxas decides whether to predicate a guarded
region by counting its instructions after instruction selection (nine or more keep a branch: docs/findings/
convergence.md "If-conversion is a count of nine SASS instructions, not a latency estimate (helper ifc28, stop
28)"), so an operation ISel expands -- an integer division, a MUFU with its range prelude, a 64-bit multiply --
counts as its expansion.

Each row: (opcode, modifiers it has, modifiers it lacks, target feature it needs ("" for every target), units).
The first matching row gives the units; an instruction no row matches is one. Units are ptxas's own counts
(the `if (tid < n) { X; k x IMAD }` variation table of docs/findings/convergence.md "The size of an if region
per instruction kind (helper size30, stop 30)": X's units are 9 minus the smallest k that keeps the branch,
against the same table without X). Rows whose expansion is long only need to be at least nine: they keep their
region a branch by themselves.
"""
from __future__ import annotations

from pylower.lowering import ori
from pylower.lowering import ptx_ast as A

_SIGNED32 = (".s32",)
_INT32 = (".u32", ".s32", ".b32")
_WIDE64 = (".s64", ".u64", ".b64")

EXPANSION_UNITS: tuple[tuple[str, tuple[str, ...], tuple[str, ...], str, int], ...] = (
    # 32-bit integer division / remainder: I2F.RP, MUFU.RCP, F2I and the Newton step with its two corrections
    # (16..19 SASS; signed: the sign fix-ups, 23..26), also by a constant that is not a power of two
    ("div", _SIGNED32, (), "", 20),
    ("rem", _SIGNED32, (), "", 20),
    ("div", (".u32",), (), "", 16),
    ("rem", (".u32",), (), "", 16),
    # f32 MUFU ops without .ftz: the denormal range prelude and fix-up around the MUFU (FSETP, FMUL/FSEL,
    # MUFU, FMUL/FADD; a kernel parameter's value as the operand: one more below sm_90, PRELUDE_REGISTER_OPERAND)
    ("ex2", (".approx", ".f32"), (".ftz",), "", 5),
    ("lg2", (".approx", ".f32"), (".ftz",), "", 5),
    ("rsqrt", (".approx", ".f32"), (".ftz",), "", 5),
    ("sqrt", (".approx", ".f32"), (".ftz",), "", 5),
    ("rcp", (".approx", ".f32"), (".ftz",), "", 8),
    ("div", (".approx", ".f32"), (".ftz",), "", 7),
    ("div", (".full", ".f32"), (".ftz",), "", 10),
    # sin/cos: FMUL.RZ by 1/2pi, then the MUFU
    ("sin", (".approx",), (), "", 2),
    ("cos", (".approx",), (), "", 2),
    # 64-bit multiply (IMAD.WIDE.U32 + two IMAD + IADD3) and min/max (two ISETP + two SEL; sm_120: one
    # IMNMX.64)
    ("mul", (".lo",), (), "", 4),
    ("max", (), (), "NATIVE_MINMAX_64", 1),
    ("min", (), (), "NATIVE_MINMAX_64", 1),
    ("max", (), (), "", 4),
    ("min", (), (), "", 4),
    # converting a generic address into the cluster's shared window (S2UR SR_SWINHI and its high word; the
    # window base itself is counted once per region: ifconvert's SHARED_WINDOW_BASE_UNITS)
    ("cvta", (".shared",), (".to",), "SHARED_WINDOW_ADDRESS", 2),
)

# the MUFU preludes that compare and scale their operand by immediates (FSETP x, -126; FMUL x, 0.5): where the
# target reads kernel parameters from the constant bank in the instruction (below sm_90, no ARM_PARAM_LDC) an
# operand that is a parameter's value takes one move into a register more (the size table's ex2 / lg2 / rsqrt
# / sqrt rows: 6 with the operand a parameter, 5 with it from %tid; rcp and div do not: 8 and 7 either way)
PRELUDE_REGISTER_OPERAND = ("ex2", "lg2", "rsqrt", "sqrt")


def needs_operand_move(ins: ori.Instr) -> bool:
    """A MUFU prelude (PRELUDE_REGISTER_OPERAND, .approx.f32 without .ftz) whose operand must be a register."""
    return ins.opcode in PRELUDE_REGISTER_OPERAND and ins.has(".approx") and ins.has(".f32") and not ins.has(".ftz")


# rows that apply only to 64-bit operands (the 32-bit forms are one instruction)
_ONLY_WIDE = {"mul", "max", "min"}


def _is_wide(ins: ori.Instr) -> bool:
    return any(ins.has(t) for t in _WIDE64)


def _power_of_two_divisor(ins: ori.Instr) -> bool:
    d = ins.operands[-1] if ins.operands else None
    if type(d) is not A.Imm:
        return False
    try:
        v = int(d.text, 0)
    except ValueError:
        return False
    return v > 0 and v & (v - 1) == 0


def _free_conversion(ins: ori.Instr) -> bool:
    """A conversion that leaves no SASS of its own: zero-extending a 32-bit value to 64 bits (its high word is
    RZ in the 64-bit op reading it), and truncating an integer to 16 bits (the reader takes the low half)."""
    if ins.opcode != "cvt" or len(ins.mods) < 2:
        return False
    to, frm = ins.mods[-2], ins.mods[-1]
    return to == ".u64" and frm == ".u32" or to in (".u16", ".b16") and frm in (".u32", ".s32", ".b32", ".u64")


def expansion_units(ins: ori.Instr, target, default: int = 1) -> int:
    """The SASS instructions ptxas makes of `ins` (`default` unless a row of EXPANSION_UNITS says otherwise)."""
    if _free_conversion(ins):
        return 0
    for opcode, has, lacks, feature, units in EXPANSION_UNITS:
        if ins.opcode != opcode or not all(ins.has(m) for m in has) or any(ins.has(m) for m in lacks):
            continue
        if opcode in _ONLY_WIDE and not _is_wide(ins):
            continue
        if opcode in ("div", "rem") and any(ins.has(t) for t in _INT32) and _power_of_two_divisor(ins):
            return 1                      # a shift (and the sign fix-up's add)
        if feature and (target is None or not target.has(feature)):
            continue
        return units
    return default
