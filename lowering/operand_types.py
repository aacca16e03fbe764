"""Operand kinds and sizes of the sync instructions, checked as ptxas 13.0.88 checks them before anything else
about the instruction: a wrong operand count, a register of the wrong size or type class, an immediate of the
wrong kind, an address where a value belongs (or the reverse) is "Arguments mismatch for instruction 'bar'",
and no other message is given for that instruction (docs/findings/frontend.md, "Operand kinds").

Type compatibility (probed with .b/.u/.s/.f registers of each size): an operand of type .bN takes any register
of N bits; .uN/.sN a .b/.u/.s register of N bits and an integer immediate; .fN a .b/.f register of N bits and a
floating-point immediate (`1` is a mismatch for atom.add.f32). A predicate slot takes a .pred register.

A signature is a tuple of slot specs:
  "pred"       a predicate register;  "!pred" also its negation `!%p`
  "u32" ...    a value of that type (register or immediate); "T" the instruction's type
  "rT"/"r..."  a register only (destinations)
  "a"          an address [..]
  "_T"         a destination that may be the sink `_`
  "T|pred"     a pair `d|p`;  "?"-prefixed slots are optional (trailing)
"""
from __future__ import annotations

from pylower.lazy_re import lazy_compile

from . import ptx_ast as A

_TYPE_RE = lazy_compile(r"^\.([bsuf])(8|16|32|64|128)$")
_RANGE_RE = lazy_compile(r"^(.*?)(\d+)$")
# special registers that are not 32-bit unsigned
_SREG_TYPES = {"%clock64": ".u64", "%globaltimer": ".u64", "%gridid": ".u64", "%lanemask_eq": ".b32",
               "%lanemask_le": ".b32", "%lanemask_lt": ".b32", "%lanemask_ge": ".b32", "%lanemask_gt": ".b32",
               "%is_explicit_cluster": ".pred"}


_SREG_DIMS = ("tid", "ntid", "ctaid", "nctaid", "clusterid", "nclusterid", "cluster_ctaid", "cluster_nctaid")
_SREG_NAMES = frozenset(
    _SREG_DIMS + tuple(f"{d}.{c}" for d in _SREG_DIMS for c in "xyz")
    + ("laneid", "warpid", "nwarpid", "smid", "nsmid", "gridid", "lanemask_eq", "lanemask_le", "lanemask_lt",
       "lanemask_ge", "lanemask_gt", "clock", "clock_hi", "clock64", "globaltimer", "globaltimer_lo",
       "globaltimer_hi", "total_smem_size", "aggr_smem_size", "dynamic_smem_size", "is_explicit_cluster",
       "cluster_ctarank", "cluster_nctarank", "current_graph_exec", "reserved_smem_offset_begin",
       "reserved_smem_offset_end", "reserved_smem_offset_cap")
    + tuple(f"pm{k}{w}" for k in range(8) for w in ("", "_64")))
_SREG_NUMBERED = ("reserved_smem_offset_", "envreg")          # followed by a decimal number


def is_special_register(name: str) -> bool:
    """Is `name` one of PTX's special registers (%tid.x, %laneid, %clock64, %envreg3, ...)?"""
    if name[-1:] == "\n":              # (as the regex this replaces: `$` before a final newline)
        name = name[:-1]
    if name[:1] != "%":
        return False
    n = name[1:]
    if n in _SREG_NAMES:
        return True
    return any(n.startswith(p) and n[len(p):].isdecimal() for p in _SREG_NUMBERED)


class RegTypes:
    """Declared register types of one function (nested scopes opened): name -> PTX type."""

    def __init__(self, decls, params=()):
        self.names: dict[str, str] = {}
        self.ranges: dict[str, str] = {}
        for d in decls:
            if type(d) is A.VarDecl and d.space == ".reg":
                t = next((a for a in d.attrs if a.startswith(".") and (a == ".pred" or _TYPE_RE.match(a))), None)
                if t:
                    (self.ranges if d.count is not None else self.names)[d.name] = t
        for p in params:
            if getattr(p, "space", None) == ".reg":
                t = next((a for a in p.attrs if a == ".pred" or _TYPE_RE.match(a)), None)
                if t:
                    self.names[p.name] = t

    def of(self, name: str) -> str | None:
        t = self.names.get(name)
        if t is not None:
            return t
        m = _RANGE_RE.match(name)
        if m and m.group(1) in self.ranges:
            return self.ranges[m.group(1)]
        if name.startswith("%"):
            base = name.split(".", 1)[0]
            if base in _SREG_TYPES:
                return _SREG_TYPES[base]
        return None


def is_predicate(o, regs: RegTypes) -> bool:
    """A guard `@%p` / `@!%p`: a predicate register (undeclared types are not judged)."""
    if type(o) is A.Not:
        o = o.inner
    if type(o) not in (A.Reg, A.Sym):
        return False
    t = regs.of(o.name)
    return t is None or t == ".pred"


def _is_float_imm(text: str) -> bool:
    t = text.lstrip("-")
    return t[:2] in ("0f", "0F", "0d", "0D") or ("." in t or "e" in t.lower()) and not t[:2].lower() == "0x"


def _value_fits(o, want: str, regs: RegTypes, reg_only: bool) -> bool:
    """Does operand `o` fit a slot of PTX type `want` ('.u32', '.pred', ...)?"""
    t = type(o)
    if t is A.Reg or t is A.Sym:
        have = regs.of(o.name)
        if have is None:
            return t is A.Reg or want != ".pred"       # undeclared types (special registers): not judged
        if want == ".pred" or have == ".pred":
            return want == have
        hw, ww = _TYPE_RE.match(have), _TYPE_RE.match(want)
        if not hw or not ww or hw.group(2) != ww.group(2):
            return False
        wk, hk = ww.group(1), hw.group(1)
        return wk == "b" or hk == "b" or (hk == "f") == (wk == "f")
    if t is A.Imm and not reg_only:
        if want == ".pred":
            return False
        return _is_float_imm(o.text) == (want[1] == "f") or want[1] == "b" and not _is_float_imm(o.text)
    return False


def _slot_fits(o, spec: str, ity: str | None, regs: RegTypes) -> bool:
    if spec == "u32|pred":                           # cp.async's src-size or ignore-src predicate
        return _slot_fits(o, "u32", ity, regs) or _slot_fits(o, "!pred", ity, regs)
    if "|" in spec:
        a, b = spec.split("|")
        return type(o) is A.Pair and all(type(x) is A.Sink or _slot_fits(x, sp, ity, regs)
                                         for x, sp in ((o.first, a), (o.second, b)))
    if spec == "a":
        return type(o) is A.Addr
    if spec.startswith("_") and not spec.startswith("_rv"):
        return type(o) is A.Sink or _slot_fits(o, spec[1:], ity, regs)
    if spec.startswith("!"):            # a predicate source: also `!%p` and an immediate
        if type(o) is A.Not:
            o = o.inner
        elif type(o) is A.Imm:
            return True
        spec = spec[1:]
    if spec[0] == "v" and spec[1].isdigit():          # a brace vector of exactly N elements
        n = int(spec[1])
        return type(o) is A.Vec and len(o.items) == n and all(_slot_fits(x, "r" + spec[2:], ity, regs)
                                                                for x in o.items)
    if spec.startswith("_rv"):
        return type(o) is A.Sink or _slot_fits(o, spec[2:], ity, regs)
    if spec == "*":
        return True
    if spec == "imm":
        return type(o) is A.Imm and not _is_float_imm(o.text)
    reg_only = spec.startswith("r")
    if reg_only:
        spec = spec[1:]
    want = ity if spec == "T" else "." + spec
    if want is None:
        return True
    return _value_fits(o, want, regs, reg_only)


def mismatch(ops, sig: tuple, ity: str | None, regs: RegTypes) -> bool:
    """Do the operands not fit the signature (count, kind, size)?"""
    need = [s for s in sig if not s.startswith("?")]
    if not len(need) <= len(ops) <= len(sig):
        return True
    return not all(_slot_fits(o, s.lstrip("?"), ity, regs) for o, s in zip(ops, sig))


# ---- the signatures: (ptxas's name for the instruction, signature, instruction type) per form


def _typ(mods, choices=None):
    for m in mods:
        if (choices is None and _TYPE_RE.match(m)) or (choices and m in choices):
            return m
    return None


_BAR_ILLEGAL_SEM = (".relaxed", ".acquire", ".release", ".acq_rel", ".sc", ".volatile", ".weak", ".mmio")
_BAR_ILLEGAL_SCOPE = (".gpu", ".sys")            # ptxas prints these twice


def _bar_modifiers(ins) -> list[str]:
    stem = ins.opcode
    name = stem + (".arrive" if ".arrive" in ins.mods else "")
    out = []
    for m in ins.mods:
        if m in _BAR_ILLEGAL_SEM:
            out.append(f"Illegal modifier '{m}' for instruction '{name}'")
        elif m in _BAR_ILLEGAL_SCOPE:
            out += [f"Illegal modifier '{m}' for instruction '{name}'"] * 2
    return out


def _bar(ins, regs):
    mods = ins.mods
    stem = ins.opcode
    if ".cluster" not in mods and ".warp" not in mods and ".red" not in mods:
        bad = _bar_modifiers(ins)
        if bad:
            return bad
    if ".warp" in mods:
        return "bar.warp", ("u32",), None
    if ".red" in mods:
        want = {".popc": ".u32", ".and": ".pred", ".or": ".pred"}
        redop = next((m for m in mods if m in want), None)
        if redop is None or want[redop] not in mods:
            return None                   # an operation or type error: the handler's message comes first
        dst = "ru32" if ".popc" in mods else "rpred"
        n = len(ins.operands)
        return f"{stem}.red", ((dst, "u32", "!pred") if n <= 3 else (dst, "u32", "u32", "!pred")), None
    if ".cluster" in mods:
        op = next((m for m in mods if m in (".arrive", ".wait")), None)
        return (f"barrier.cluster{op}", (), None) if op else None
    if ".arrive" in mods:
        return f"{stem}.arrive", ("u32", "u32"), None
    return stem, ("u32", "?u32"), None


_ATOM_TYPES = {".b16", ".b32", ".b64", ".b128", ".u32", ".s32", ".u64", ".s64", ".f16", ".bf16", ".f32", ".f64",
               ".f16x2", ".bf16x2", ".u16", ".s16"}
_PACKED = {".f16x2": ".b32", ".bf16x2": ".b32", ".bf16": ".b16"}


_VEC_N = {".v2": 2, ".v4": 4, ".v8": 8}
_ATOM_OPS = {"add", "min", "max", "inc", "dec", "and", "or", "xor", "exch", "cas"}


def _atom(ins, regs):
    mods = ins.mods
    if ".async" in mods or ins.opcode == "red" and ".mbarrier::complete_tx::bytes" in mods:
        return None
    ity = _typ(mods, _ATOM_TYPES)
    if ins.opcode == "red":           # red has no .cas, and .exch only as a type error (probed)
        if ".cas" in mods:
            return "Illegal modifier '.cas' for instruction 'red'"
        if ".exch" in mods:
            if ity in (".b32", ".b64"):
                return ["Illegal operation '.exch' for instruction 'red'",
                        "Operation .exch requires  type for instruction 'red'"]
            return "Unexpected instruction types specified for 'red'"
    if ity is None:
        return None
    if not any(m[1:] in _ATOM_OPS for m in mods):          # a type but no operation (probed)
        return [f"Illegal operation '' for instruction '{ins.opcode}'",
                f"Operation  requires  type for instruction '{ins.opcode}'",
                f"Reduction operation is required for instruction '{ins.opcode}'"]
    ity = _PACKED.get(ity, ity)
    vec = next((_VEC_N[m] for m in mods if m in _VEC_N), 0)
    val = f"v{vec}T" if vec else "T"
    srcs = (val, val) if ".cas" in mods else (val,)
    hint = ("b64",) if ".L2::cache_hint" in mods else ()
    if ins.opcode == "atom":
        return "atom", ("_r" + val, "a") + srcs + hint, ity
    return "red", ("a",) + srcs + hint, ity


def _vote(ins, regs):
    mods = ins.mods
    if ".sync" not in mods:
        return None
    if ".ballot" in mods:
        return ("vote", ("rb32", "!pred", "u32"), None) if ".b32" in mods else None
    return ("vote", ("rpred", "!pred", "u32"), None) if ".pred" in mods else None


def _shfl(ins, regs):
    if ".sync" not in ins.mods or ".b32" not in ins.mods:
        return None
    return "shfl", ("rb32|rpred" if type(ins.operands[0]) is A.Pair else "rb32", "b32", "u32", "u32", "u32") \
        if ins.operands else ("rb32",), None


def _match(ins, regs):
    ity = _typ(ins.mods, (".b32", ".b64"))
    if ity is None:
        return None                       # "Unexpected instruction types": the handler's
    dst = "rb32|rpred" if ins.operands and type(ins.operands[0]) is A.Pair else "rb32"
    return "match", (dst, "T", "u32"), ity


def _redux(ins, regs):
    ity = _typ(ins.mods, (".u32", ".s32", ".b32", ".f32"))
    return "redux", ("rT", "T", "u32"), ity


def _bra(ins, regs):
    """bra's target is a label: a register or immediate there is "Label expected ...", a special register
    also "not allowed" (probes frontend/bra_target_*)."""
    if len(ins.operands) != 1 or type(ins.operands[0]) is A.Sym:
        return None
    o = ins.operands[0]
    sreg = type(o) is A.Reg and is_special_register(o.name)
    return (["Special register argument not allowed for instruction 'bra'"] if sreg else []) + \
        ["Label expected for argument 0 of instruction 'bra'"]


SIGNATURES = {
    "bra": _bra,
    "bar": _bar, "barrier": _bar, "atom": _atom, "red": _atom, "vote": _vote, "shfl": _shfl, "match": _match,
    "redux": _redux,
    "activemask": lambda ins, regs: ("activemask", ("rb32",), None) if ".b32" in ins.mods else None,
    "elect": lambda ins, regs: ("elect", ("_rb32|rpred", "u32"), None)
    if ins.operands and type(ins.operands[0]) is A.Pair else None,
}


# The modifiers of instructions with a closed set (types aside): any other known modifier is "Illegal modifier
# '.relaxed' for instruction 'vote'" and nothing else (a scope is printed twice). Probed one by one.
_LEGAL_MODS = {
    "vote": {".sync", ".any", ".all", ".uni", ".ballot"},
    "shfl": {".sync", ".up", ".down", ".bfly", ".idx"},
    "match": {".sync", ".any", ".all"},
    "redux": {".sync", ".add", ".min", ".max", ".and", ".or", ".xor", ".abs", ".NaN"},
    "activemask": set(),
    "elect": {".sync"},
    "setp": {".eq", ".ne", ".lt", ".le", ".gt", ".ge", ".lo", ".ls", ".hi", ".hs", ".equ", ".neu", ".ltu", ".leu",
             ".gtu", ".geu", ".num", ".nan", ".and", ".or", ".xor", ".ftz"},
}
_SCOPES = {".cta", ".cluster", ".gpu", ".sys"}


def illegal_modifiers(ins) -> list[str]:
    legal = _LEGAL_MODS.get(ins.opcode)
    if legal is None:
        return []
    out = []
    for m in ins.mods:
        if m in legal or _TYPE_RE.match(m) or m in (".pred", ".f16x2", ".bf16x2", ".bf16", ".f16", ".tf32"):
            continue
        out += [f"Illegal modifier '{m}' for instruction '{ins.opcode}'"] * (2 if m in _SCOPES else 1)
    return out


def check(ins, regs: RegTypes) -> list[str]:
    """ptxas's messages for an instruction whose operands do not fit its form ("Arguments mismatch", or a
    type/operation error ptxas gives instead of everything else); [] when they fit."""
    f = SIGNATURES.get(ins.opcode)
    if f is None:
        return []
    sig = f(ins, regs)
    if sig is None:
        return []
    if type(sig) is str:
        return [sig]
    if type(sig) is list:
        return sig
    name, slots, ity = sig
    if mismatch(ins.operands, slots, ity, regs):
        return [f"Arguments mismatch for instruction '{name}'"]
    return []


# ---- mbarrier, async copies, setmaxnreg (names as ptxas prints them)

_MB_OPS = ("init", "inval", "arrive_drop", "arrive", "test_wait", "try_wait", "pending_count", "expect_tx",
           "complete_tx")


def mbarrier_name(mods) -> str | None:
    op = next((m[1:] for m in mods if m[1:] in _MB_OPS), None)
    if op is None:
        return None
    if ".parity" in mods and op in ("test_wait", "try_wait"):
        return f"mbarrier.{op}.parity"
    if ".expect_tx" in mods and op in ("arrive", "arrive_drop"):
        return f"mbarrier.{op}.expect_tx"
    return f"mbarrier.{op}"


_MB_SIGS = {
    "init": ("a", "u32"), "inval": ("a",), "arrive": ("_rb64", "a", "?u32"), "arrive_drop": ("_rb64", "a", "?u32"),
    "arrive.expect_tx": ("_rb64", "a", "u32"), "arrive_drop.expect_tx": ("_rb64", "a", "u32"),
    "test_wait": ("rpred", "a", "b64"), "test_wait.parity": ("rpred", "a", "u32"),
    "try_wait": ("rpred", "a", "b64", "?u32"), "try_wait.parity": ("rpred", "a", "u32", "?u32"),
    "expect_tx": ("a", "u32"), "complete_tx": ("a", "u32"), "pending_count": ("ru32", "b64"),
}


def _mbarrier(ins, regs):
    name = mbarrier_name(ins.mods)
    if name is None or _typ(ins.mods, (".b64",)) is None:
        return None
    return name, _MB_SIGS[name[9:]], None


def _cp(ins, regs):
    mods = ins.mods
    if ".tensor" in mods:
        return _tensor(ins, regs)
    if ".reduce" in mods:
        mbar = ("a",) if ".mbarrier::complete_tx::bytes" in mods else ()
        return "cp.reduce.async.bulk", ("a", "a", "u32") + mbar + (("b64",) if ".L2::cache_hint" in mods else ()), None
    if ".bulk" in mods:
        if ".commit_group" in mods:
            return "cp.async.bulk.commit_group", (), None
        if ".wait_group" in mods:
            return "cp.async.bulk.wait_group", ("imm",), None
        if ".prefetch" in mods:
            return "cp.async.bulk.prefetch", ("a", "u32") + (("?b64",) if ".L2::cache_hint" in mods else ()), None
        if ".mbarrier::complete_tx::bytes" in mods:
            extra = (("b16",) if ".multicast::cluster" in mods else ()) + \
                    (("b64",) if ".L2::cache_hint" in mods else ())
            return "cp.async.bulk", ("a", "a", "u32", "a") + extra, None
        if ".bulk_group" not in mods:
            return None                   # no completion mechanism: the handler's message
        return "cp.async.bulk", ("a", "a", "u32") + (("b64",) if ".L2::cache_hint" in mods else ()) + \
            (("b16",) if ".cp_mask" in mods else ()), None
    if ".mbarrier" in mods:
        return "cp.async.mbarrier.arrive", ("a",), None
    for op in ("commit_group", "wait_all"):
        if f".{op}" in mods:
            return f"cp.async.{op}", (), None
    if ".wait_group" in mods:
        return "cp.async.wait_group", ("imm",), None
    if ".async" in mods and (".ca" in mods or ".cg" in mods):
        return _cp_async(ins, regs)
    return None


def _tensor(ins, regs):
    """The tensor coordinates {c0, ...} are 32-bit values of one size."""
    name = ("cp.reduce.async.bulk.tensor" if ".reduce" in ins.mods else
            "cp.async.bulk.prefetch.tensor" if ".prefetch" in ins.mods else "cp.async.bulk.tensor")
    for o in ins.operands:
        if type(o) is A.Addr and len(o.items) == 2 and type(o.items[1]) is A.Vec:
            coords = o.items[1].items
            if len({_size_of(c, regs) for c in coords} - {None}) > 1:
                return ["Incompatible elements of vector expression", f"Arguments mismatch for instruction '{name}'"]
            if not all(_value_fits(c, ".b32", regs, False) for c in coords):
                return [f"Arguments mismatch for instruction '{name}'"]
    return None


def _cp_async(ins, regs):
    """cp.async.ca/.cg [dst], [src], cp-size{, src-size | , ignore-src}{, cache-policy}."""
    ops, hint = ins.operands, ".L2::cache_hint" in ins.mods
    if len(ops) == 5 and not hint:
        return [".L2::cache_hint modifier required for instruction 'cp.async' with 5 arguments",
                "Arguments mismatch for instruction 'cp.async'"]
    slots = ("a", "a", "imm", "?*") + (("?b64",) if hint else ())
    if len(ops) > 3 and not (hint and len(ops) == 4):
        slots = ("a", "a", "imm", "u32|pred") + (("?b64",) if hint else ())
    return "cp.async", slots, None


def _setmaxnreg(ins, regs):
    op = next((m for m in ins.mods if m in (".inc", ".dec")), None)
    if op is None:
        return None
    if _typ(ins.mods) != ".u32":
        return f"Unexpected instruction types specified for 'setmaxnreg{op}'"
    return f"setmaxnreg{op}", ("imm",), None


def _st_async(ins, regs):
    ity = _typ(ins.mods, _ATOM_TYPES)
    if ".async" not in ins.mods or ity is None or any(m in _VEC_N for m in ins.mods):
        return None
    return "st.async", ("a", "T", "?a"), _PACKED.get(ity, ity)


def _wide_fits(o, want: str, regs: RegTypes) -> bool:
    """ld/st's value operand: a register may be wider than the type (a .f type: only as a .b register)."""
    t = type(o)
    if t is A.Imm:
        return _value_fits(o, want, regs, False)
    if t is not A.Reg and t is not A.Sym:
        return False
    have = regs.of(o.name)
    if have is None:
        return True
    if have == ".pred":
        return False
    hw, ww = _TYPE_RE.match(have), _TYPE_RE.match(want)
    if not hw or not ww:
        return True
    hk, hn, wk, wn = hw.group(1), int(hw.group(2)), ww.group(1), int(ww.group(2))
    if hn < wn:
        return False
    if wk == "f":
        return hk == "b" or hk == "f" and hn == wn
    return hk != "f" or wk == "b"


_LDST_TYPES = lazy_compile(r"^\.[bsu](8|16|32|64|128)$|^\.f(32|64)$")


def _ldst(ins, regs):
    """ld / st {.vN}.type: the value is a register at least the type's size (or an immediate for st), a
    brace vector of exactly N such registers of one size; a cache-policy operand with .L2::cache_hint."""
    mods, ops, stem = ins.mods, ins.operands, ins.opcode
    if ".async" in mods or ".bulk" in mods or stem == "st" and ".async" in mods:
        return _st_async(ins, regs) if stem == "st" else None
    ity = next((m for m in mods if _LDST_TYPES.match(m)), None)
    if ity is None:
        return None
    hint = ".L2::cache_hint" in mods
    if len(ops) == 3 and not hint:       # a third operand that could be a cache policy: the modifier is missing
        head = [f".L2::cache_hint modifier required for instruction '{stem}' with 3 arguments"] \
            if _value_fits(ops[2], ".b64", regs, False) else []
        return head + [f"Arguments mismatch for instruction '{stem}'"]
    if len(ops) != 2 + hint:
        return [f"Arguments mismatch for instruction '{stem}'"]
    val, addr = (ops[0], ops[1]) if stem == "ld" else (ops[1], ops[0])
    if type(addr) is not A.Addr:
        return [f"Arguments mismatch for instruction '{stem}'"]
    if hint and not _value_fits(ops[2], ".b64", regs, False):
        return [f"Arguments mismatch for instruction '{stem}'"]
    vec = next((_VEC_N[m] for m in mods if m in _VEC_N), 0)
    if vec:
        if type(val) is not A.Vec:
            return [f"Arguments mismatch for instruction '{stem}'"]
        out = [f"Illegal vector size: {len(val.items)}"] if len(val.items) not in (1, 2, 4, 8) else []
        if len(val.items) != vec:
            return out + [f"Argument vector size mismatch for instruction '{stem}'"]
        sizes = {_size_of(x, regs) for x in val.items} - {None}
        if len(sizes) > 1:
            return ["Incompatible elements of vector expression"]
        items = val.items
    else:
        items = val.items if type(val) is A.Vec and len(val.items) == 1 else (val,)    # `{ %rd1 }` is a scalar
    for x in items:
        if type(x) is A.Not:
            return ["Illegal argument to predicate negation", f"Arguments mismatch for instruction '{stem}'"]
        if type(x) is A.Neg:
            return [f"Operand negation not allowed for instruction '{stem}'"]
        if type(x) is A.Sink and stem == "ld":
            continue
        if stem == "ld" and type(x) is A.Imm or not _wide_fits(x, ity, regs):
            return [f"Arguments mismatch for instruction '{stem}'"]
    return None


def _size_of(o, regs: RegTypes):
    if type(o) not in (A.Reg, A.Sym):
        return None
    t = regs.of(o.name)
    m = _TYPE_RE.match(t) if t else None
    return m.group(2) if m else None



# ALU instructions: operand counts only ("Arguments mismatch for instruction 'add'")
_ARITY = {**{k: (3,) for k in ("add", "sub", "mul", "div", "rem", "and", "or", "xor", "shl", "shr", "mul24",
                               "addc", "subc", "copysign")},
          **{k: (3, 4) for k in ("min", "max")},
          **{k: (4,) for k in ("mad", "fma", "selp", "slct", "madc", "mad24", "sad")},
          **{k: (2,) for k in ("not", "cnot", "neg", "abs", "popc", "clz", "brev", "cvta", "rcp", "sqrt", "rsqrt",
                               "sin", "cos", "lg2", "ex2", "tanh", "bfind")}}


def _arity(ins, regs):
    if len(ins.operands) in _ARITY[ins.opcode]:
        if ins.opcode == "cvta" and ".to" in ins.mods and ins.operands:
            ity = _typ(ins.mods, (".u32", ".u64"))
            if ity and not _value_fits(ins.operands[0], ity, regs, True):
                return ["Arguments mismatch for instruction 'cvta.to'"]
        return None
    return [f"Arguments mismatch for instruction '{ins.opcode}{'.to' if ins.opcode == 'cvta' and '.to' in ins.mods else ''}'"]


SIGNATURES.update({k: _arity for k in _ARITY})
SIGNATURES.update({"isspacep": lambda ins, regs: ("isspacep", ("rpred", "*"), None)})
SIGNATURES.update({"mbarrier": _mbarrier, "cp": _cp, "setmaxnreg": _setmaxnreg, "st": _ldst, "ld": _ldst,
                   "getctarank": lambda ins, regs: ("getctarank", ("ru32", "T"), _typ(ins.mods, (".u32", ".u64")))})
