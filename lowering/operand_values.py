"""Operand values and address state spaces of the sync instructions, checked as ptxas 13.0.88 does after an
instruction's own gates (its messages follow the "requires .target" ones of the same instruction):

- a symbol in an address whose declared state space differs from the instruction's: "State space mismatch
  between instruction and address in instruction 'ld'" (ld/st/atom/red, cp.async and cp.async.bulk operands,
  cp.async.mbarrier.arrive); an mbarrier that is not a .shared symbol: "Illegal state space for address
  operand 'gbar' with instruction 'mbarrier.init'" (followed by the mismatch when the instruction says .shared);
- immediates out of their range: mbarrier.arrive counts (> 0), try_wait/test_wait parities (0 or 1), the
  cp.async source size (0..copy size), bulk copy sizes (multiple of 16, 0..1048560), setmaxnreg counts
  (multiple of 8, 24..256), tcgen05.alloc's column count (power of 2, 32..512) and tcgen05.dealloc's (multiple
  of 32);
- setmaxnreg's required .sync/.aligned.
Found with tools/gen_frontend_probes.py (reference tests/frontend_forms.json.gz).
"""
from __future__ import annotations

from . import ptx_ast as A
from .operand_types import mbarrier_name

_SPACE_OF = {".global": ".global", ".shared": ".shared", ".shared::cta": ".shared", ".shared::cluster": ".shared",
             ".local": ".local", ".const": ".const", ".param": ".param"}
_BULK_MAX = 1048560


def _imm(o):
    if type(o) is A.Imm:
        try:
            v = o.value
        except (ValueError, OverflowError):
            return None
        return v if isinstance(v, int) else None
    return None


def _addr_symbol(o):
    """The symbol an address operand names directly ([sym], [sym+8]), or None."""
    if type(o) is A.Addr and o.items and type(o.items[0]) is A.Sym:
        return o.items[0].name
    return None


def _spaces(mods):
    return [_SPACE_OF[m] for m in mods if m in _SPACE_OF]


def _mismatch(name: str, ops_spaces, symbols: dict) -> list[str]:
    """One message when a symbol operand's declared space differs from the space its position wants."""
    for o, want in ops_spaces:
        sym = _addr_symbol(o)
        have = symbols.get(sym) if sym else None
        if want and have and have != want:
            return [f"State space mismatch between instruction and address in instruction '{name}'"]
    return []


def _memory(ins, symbols):
    sp = _spaces(ins.mods)
    if not sp:
        return []
    addr = next((o for o in ins.operands if type(o) is A.Addr), None)
    return _mismatch(ins.opcode, [(addr, sp[0])], symbols) if addr is not None else []


def _mbarrier(ins, symbols):
    name = mbarrier_name(ins.mods)
    if name is None:
        return []
    out = []
    explicit = _spaces(ins.mods)
    for o in ins.operands:
        sym = _addr_symbol(o)
        have = symbols.get(sym) if sym else None
        if have and have != ".shared":
            out.append(f"Illegal state space for address operand '{sym}' with instruction '{name}'")
            if explicit:
                out.append(f"State space mismatch between instruction and address in instruction '{name}'")
    ops = ins.operands
    if name in ("mbarrier.arrive", "mbarrier.arrive_drop") and len(ops) == 3:
        v = _imm(ops[2])
        if v is not None and v <= 0:
            out.append(f"Argument 2 of instruction '{name}' : value '{ops[2].text}' expected to be a non-zero positive")
    if name.endswith(".parity") and len(ops) >= 3:
        v = _imm(ops[2])
        if v is not None and v not in (0, 1):
            out.append(f"Argument 2 of instruction '{name}': unexpected value '{ops[2].text}', expected to be 0 or 1")
    return out


def _bulk_size(name: str, index: int, o) -> list[str]:
    v = _imm(o)
    if v is None:
        return []
    out = []
    if v % 16:
        out.append(f"Argument {index} of instruction '{name}': unexpected value '{o.text}', expected to be multiple of 16")
    if not 0 <= v <= _BULK_MAX:
        out.append(f"Argument {index} of instruction '{name}': value '{o.text}' out of range, expected to be in "
                   f"range [0..{_BULK_MAX}]")
    return out


_DIMS = {".1d": 1, ".2d": 2, ".3d": 3, ".4d": 4, ".5d": 5}


def _tensor_coordinates(ins) -> list[str]:
    """The tensor address [tmap, {c0, ...}] holds exactly as many coordinates as the .Nd dimension."""
    dims = next((_DIMS[m] for m in ins.mods if m in _DIMS), None)
    if dims is None or ".im2col" in ins.mods or ".tile::gather4" in ins.mods or ".tile::scatter4" in ins.mods:
        return []
    mods = [m for m in ins.mods if m in (".prefetch", ".reduce")]
    name = ("cp.reduce.async.bulk.tensor" if ".reduce" in mods else
            "cp.async.bulk.prefetch.tensor" if ".prefetch" in mods else "cp.async.bulk.tensor")
    for i, o in enumerate(ins.operands):
        if type(o) is A.Addr and len(o.items) == 2 and type(o.items[1]) is A.Vec and len(o.items[1].items) != dims:
            return [f"Argument {i + 1} of instruction '{name}': Argument vector size mismatch"]
    return []


def _cp(ins, symbols):
    mods, ops = ins.mods, ins.operands
    sp = _spaces(mods)
    if ".tensor" in mods:
        return _tensor_coordinates(ins)
    if ".commit_group" in mods or ".wait_group" in mods or ".wait_all" in mods:
        return []
    if ".mbarrier" in mods and ".bulk" not in mods:
        return _mismatch("cp.async.mbarrier.arrive", [(ops[0] if ops else None, sp[0] if sp else None)], symbols)
    if ".bulk" in mods and ".prefetch" in mods:
        return _bulk_size("cp.async.bulk.prefetch", 1, ops[1]) if len(ops) > 1 else []
    if ".bulk" in mods:
        name = "cp.reduce.async.bulk" if ".reduce" in mods else "cp.async.bulk"
        if not ops:                 # `cp.async.bulk;` (ptxas 13.0.88): the operand count is the whole story
            return [f"Arguments mismatch for instruction '{name}'"]
        pos = [(ops[0], sp[0] if sp else None), (ops[1] if len(ops) > 1 else None, sp[1] if len(sp) > 1 else None)]
        if ".mbarrier::complete_tx::bytes" in mods and len(ops) > 3:
            pos.append((ops[3], ".shared"))
        out = _bulk_size(name, 2, ops[2]) if len(ops) > 2 else []
        return out + _mismatch(name, [p for p in pos if p[0] is not None], symbols)
    if ".async" in mods and len(ops) >= 3:
        out = []
        size = _imm(ops[2])
        if len(ops) >= 4 and size in (4, 8, 16):
            src = _imm(ops[3])
            if src is not None and not 0 <= src <= size:
                out.append(f"Argument 3 of instruction 'cp.async': value '{ops[3].text}' out of range, expected to be "
                           f"in range [0..{size}]")
        spaces = [m for m in mods if m in _SPACE_OF]
        if len(spaces) == 2:           # cp.async copies global -> shared only
            out += ["State space incorrect for instruction 'cp.async'"] * ((_SPACE_OF[spaces[0]] != ".shared" or
                                                                            spaces[0] == ".shared::cluster") +
                                                                           (spaces[1] != ".global"))
            if out:
                return out
        pos = [(ops[0], sp[0] if sp else None), (ops[1], sp[1] if len(sp) > 1 else None)]
        return out + _mismatch("cp.async", pos, symbols)
    return []


def _setmaxnreg(ins, symbols):
    op = next((m for m in ins.mods if m in (".inc", ".dec")), None)
    if op is None:
        return []
    name = f"setmaxnreg{op}"
    out = []
    for mod in (".aligned", ".sync"):
        if mod not in ins.mods:
            out.append(f"{mod} modifier required for instruction '{name}'")
    if ins.operands:
        o = ins.operands[0]
        v = _imm(o)
        if v is not None:
            if v % 8:
                out.append(f"Argument 1 of instruction '{name}': unexpected value '{o.text}', expected to be multiple of 8")
            if not 24 <= v <= 256:
                out.append(f"Argument 1 of instruction '{name}': value '{o.text}' out of range, expected to be in "
                           f"range [24..256]")
    return out


def _tcgen05(ins, symbols):
    """The column count of tcgen05.alloc (a power of 2 in 32..512) and tcgen05.dealloc (a multiple of 32, any
    sign: -32 and 1024 are accepted) when it is an immediate (probes frontend/tcgen05_ncols_*)."""
    v = _imm(ins.operands[1]) if len(ins.operands) == 2 else None
    if v is None:
        return []
    text = ins.operands[1].text
    if ".alloc" in ins.mods:
        out = []
        if not 32 <= v <= 512:
            out.append(f"Argument 1 of instruction 'tcgen05.alloc': value '{text}' out of range, expected to be in "
                       f"range [32..512]")
        if v <= 0 or v & (v - 1):
            out.append("Argument 1 of 'tcgen05.alloc' instruction: value must be power of 2")
        return out
    if ".dealloc" in ins.mods and v % 32:
        return [f"Argument 1 of instruction 'tcgen05.dealloc': unexpected value '{text}', expected to be multiple of 32"]
    return []


_CHECKS = {"ld": _memory, "st": _memory, "atom": _memory, "red": _memory, "mbarrier": _mbarrier, "cp": _cp,
           "setmaxnreg": _setmaxnreg, "tcgen05": _tcgen05}


def _sm120_bulk_source(ins, regs, target) -> list[str]:
    """On the sm_120 family ptxas moves a bulk copy's global source address into a 64-bit register first: a
    32-bit register there fails that move ("Arguments mismatch for instruction 'mov'"; probed: only the
    global source of the global -> shared::cluster form, not on sm_90/sm_100a)."""
    mods, ops = ins.mods, ins.operands
    if target.family != 120 or ".bulk" not in mods or ".tensor" in mods or ".prefetch" in mods or \
            ".reduce" in mods or ".global" not in mods or len(ops) < 2 or _spaces(mods)[1:2] != [".global"]:
        return []
    src = ops[1]
    if type(src) is A.Addr and src.items and type(src.items[0]) is A.Reg and \
            regs.of(src.items[0].name) in (".b32", ".u32", ".s32"):
        return ["Arguments mismatch for instruction 'mov'"]
    return []


# Instructions whose .global / generic address may not be a 32-bit register under .address_size 64: ptxas then
# warns "Program uses 32-bit address on line 'N' ..." and stops with its 32-bit ABI fatal (probed; the async
# copies, st.async and fence.proxy take a 32-bit register, multimem fails an internal move instead).
_ADDR32_STEMS = {"ld", "ldu", "st", "atom", "red", "prefetch", "prefetchu", "applypriority", "discard"}
_NOT_GLOBAL = (".shared", ".shared::cta", ".shared::cluster", ".local", ".const", ".param", ".param::entry",
               ".param::func")


def uses_32bit_address(ins, regs) -> bool:
    """Does `ins` address .global or generic memory through a 32-bit register (or convert a 32-bit generic
    address: cvta .u32)?"""
    stem, mods = ins.opcode, ins.mods
    if stem == "cvta":
        return ".u32" in mods
    if stem == "mbarrier":
        if any(m in _NOT_GLOBAL for m in mods):
            return False
    elif stem not in _ADDR32_STEMS or any(m in _NOT_GLOBAL for m in mods) or ".async" in mods or ".bulk" in mods:
        return False
    for o in ins.operands:
        if type(o) is A.Addr and o.items and type(o.items[0]) is A.Reg and \
                regs.of(o.items[0].name) in (".b32", ".u32", ".s32"):
            return True
    return False


def _multimem_address(ins, regs) -> list[str]:
    ops = ins.operands
    addr = next((o for o in ops if type(o) is A.Addr), None)
    if addr is not None and addr.items and type(addr.items[0]) is A.Reg and \
            regs.of(addr.items[0].name) in (".b32", ".u32", ".s32"):
        return ["Arguments mismatch for instruction 'mov'"]
    return []


def check(ins, symbols: dict, target=None, regs=None) -> list[str]:
    """ptxas's value and state-space messages for `ins` (`symbols`: name -> declared state space)."""
    f = _CHECKS.get(ins.opcode)
    out = f(ins, symbols) if f else []
    if ins.opcode == "cp" and target is not None and regs is not None:
        out += _sm120_bulk_source(ins, regs, target)
    if ins.opcode == "multimem" and regs is not None:
        out += _multimem_address(ins, regs)
    return out
