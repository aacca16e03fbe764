"""Arithmetic that ptxas implements with an internal subroutine, and the fast-path sites it expands them into.

ptxas compiles IEEE-rounded division, reciprocal and square root (and a few others) as a fast path with a
range check; the lanes the check fails call an internal subroutine (`CALL.REL.NOINC
`($__internal_N_$__cuda_sm3x_div_rn_noftz_f32_slowpath)`), placed after the function's code:

    div.rn.f32 d, a, b      ->   <fast path: MUFU.RCP, FFMA ...>      d = a / b, where the check passes
                                 fchk c, a, b                         FCHK P0, a, b: the slow path must run
                                 @!c bra J                            (a guarded form: `@g fchk c`, c false
                                                                      where g is: ptxas predicates the fast
                                                                      path and the check, not a branch)
                                 subcall d, a, b                      CALL.REL.NOINC `($__internal_...)
                             J:  ...

The check is a per-lane value exactly when an operand is, so the site is a divergent if where an operand is
per-lane (a BSSY/BSYNC pair on every target, .RECONVERGENT from sm_100) and a uniform branch without a pair
otherwise; an if around the site stays a branch (the call is never predicated). The subroutine's own
convergence pairs follow the same rule: they are there when some call passes a per-lane operand, and absent
when every call's operands are warp-uniform (ISel: isel/fam_math.py). Measured on sm_75..sm_120 with probes
phases/subroutine_*; docs/findings/convergence.md ("Internal math subroutines").

Subroutines are numbered (`$__internal_N_`) in the alphabetical order of the names of those the module uses.
"""
from __future__ import annotations

from pylower.lowering import ori
from pylower.lowering import ptx_ast as A
from pylower.records import record


@record(frozen=True)
class Routine:
    name: str                    # ptxas's internal subroutine, `$__internal_N_$<name>`
    check: tuple                 # SASS opcode and modifiers of the fast path's range check
    body: tuple = ()             # the subroutine's sync skeleton when a call passes a per-lane operand:
                                 # "BSSY"/"BSYNC" a pair, "BSSY.L"/"BREAK.L"/"BSYNC.L" a pair around a loop
                                 # left by BREAK (.RELIABLE where the target has BREAK_LOOP_RELIABLE)


_FCHK = ("FCHK", ())
_RANGE = ("ISETP", ("GT", "U32", "AND"))
_RANGE64 = ("FSETP", ("GT", "AND"))
_SQRT64 = ("ISETP", ("GE", "U32", "AND"))
_PAIR = ("BSSY", "BSYNC")
_DIV_FTZ = ("BSSY", "BSSY.L") + ("BREAK.L",) * 5 + ("BSYNC.L", "BSSY", "BSYNC", "BSYNC")

# (stem, rounding, ftz, type) -> its subroutine; the forms expanded into a fast-path site (measured:
# probes phases/subroutine_*, every default target). Directed-rounding division (div.rz/rm/rp), the
# directed-rounding f64 reciprocal and square root and 64/16-bit integer division call a subroutine too
# (CALLS below) but in other shapes: they are not expanded.
_RCP = "__cuda_sm20_rcp_{r}{f}_f32_slowpath"
ROUTINES: dict[tuple, Routine] = {
    ("div", "rn", False, "f32"): Routine("__cuda_sm3x_div_rn_noftz_f32_slowpath", _FCHK, ("BSSY", "BSSY", "BSYNC", "BSYNC")),
    ("div", "rn", True, "f32"): Routine("__cuda_sm3x_div_rn_ftz_f32_slowpath", _FCHK, _DIV_FTZ),
    **{("rcp", r, ftz, "f32"): Routine(_RCP.format(r={"rm": "rd", "rp": "ru"}.get(r, r), f="_ftz" if ftz else ""),
                                       _RANGE, _PAIR)
       for r in ("rn", "rz", "rm", "rp") for ftz in (False, True)},
    ("sqrt", "rn", False, "f32"): Routine("__cuda_sm20_sqrt_rn_f32_slowpath", _RANGE),
    ("sqrt", "rn", True, "f32"): Routine("__cuda_sm20_sqrt_rn_ftz_f32_slowpath", _RANGE),
    ("div", "rn", False, "f64"): Routine("__cuda_sm20_div_rn_f64_full", _RANGE64, _PAIR),
    ("rcp", "rn", False, "f64"): Routine("__cuda_sm20_dblrcp_rn_slowpath_v3", _RANGE64, _PAIR),
    ("sqrt", "rn", False, "f64"): Routine("__cuda_sm20_dsqrt_rn_f64_mediumpath_v1", _SQRT64, _PAIR),
    ("rsqrt", "approx", False, "f64"): Routine("__cuda_sm20_drsqrt_f64_slowpath_v2", _SQRT64, _PAIR),
}

# Every form ptxas implements with a call to an internal subroutine, expanded or not (this is what makes it
# note the convergence stack, EIATTR_CRS_STACK_SIZE, whatever the operands; docs/findings/eiattr.md):
# stem -> (modifiers of which one must be present, modifiers of which none may be)
CALLS = {
    "div": ((".s64", ".u64", ".s16", ".u16", ".rn", ".rz", ".rm", ".rp"), ()),
    "rem": ((".s64", ".u64", ".s16", ".u16"), ()),
    "rcp": ((".rn", ".rz", ".rm", ".rp"), ()),
    "sqrt": ((".rn", ".rz", ".rm", ".rp"), ()),
    "rsqrt": ((".f64",), (".ftz",)),
}
_ROUNDINGS = (".rn", ".rz", ".rm", ".rp", ".approx")
_PREFIX = "$__internal_"


def calls_subroutine(ins: ori.Instr) -> bool:
    """Does ptxas implement this instruction with a call to one of its internal subroutines?"""
    form = CALLS.get(ins.opcode)
    return form is not None and any(m in ins.mods for m in form[0]) and not any(m in ins.mods for m in form[1])


def routine(ins: ori.Instr) -> Routine | None:
    """The subroutine of a form expanded into a fast-path site (None: not such a form)."""
    if ins.opcode not in ("div", "rcp", "sqrt", "rsqrt"):
        return None
    mods = ins.mods
    rnd = next((m[1:] for m in mods if m in _ROUNDINGS), "")
    ty = "f64" if ".f64" in mods else "f32" if ".f32" in mods else ""
    return ROUTINES.get((ins.opcode, rnd, ".ftz" in mods, ty))


def is_subroutine_site(b: ori.BasicBlock) -> bool:
    """Does the block end in the branch of a fast-path site (`fchk c, ...; @!c bra J`)?"""
    return len(b.instrs) >= 2 and b.instrs[-2].opcode == "fchk" and b.instrs[-1].opcode == "bra"


def symbol(index: int, r: Routine) -> str:
    return f"{_PREFIX}{index}_${r.name}"


_BY_NAME = {r.name: r for r in ROUTINES.values()}


def of_symbol(sym: str) -> tuple[int, Routine]:
    """The number and the routine of a subroutine symbol (symbol()'s inverse)."""
    index, name = sym[len(_PREFIX):].split("_$", 1)
    return int(index), _BY_NAME[name]


def expand_module(module: ori.Module) -> None:
    """Expand every unguarded subroutine form of the module into its fast-path site (see the module doc)."""
    used = sorted({r.name for f in module.functions for i in f.instructions() if (r := routine(i)) is not None})
    if not used:
        return
    index = {name: k for k, name in enumerate(used)}
    for f in module.functions:
        _expand(f, index)


def _expand(fn: ori.Function, index: dict[str, int]) -> None:
    n = 0

    def expand(ins: ori.Instr, cur: ori.BasicBlock, blocks: list) -> ori.BasicBlock:
        nonlocal n
        r = routine(ins)
        if r is None:
            cur.instrs.append(ins)
            return cur
        n += 1
        check = A.Reg(f"%fchk${n}")
        call, join = f"$__subroutine_call_{n}", f"$__subroutine_join_{n}"
        name = symbol(index[r.name], r)
        cur.instrs += [
            ins,
            ori.Instr(ori.ORI_CLASSES["fpu"], "fchk", (), (check,) + ins.operands[1:], ins.guard, {"routine": name},
                      ins.line, "build"),
            ori.Instr(ori.ORI_CLASSES["branch"], "bra", (), (A.Sym(join),), A.Not(check), {}, ins.line, "build"),
        ]
        cur.succs = [call, join]
        blocks.append(ori.BasicBlock(call, [ori.Instr(ori.ORI_CLASSES["call"], "subcall", ins.mods, ins.operands,
                                                      None, {"routine": name}, ins.line, "build")], [join]))
        blocks.append(ori.BasicBlock(join, [], []))
        return blocks[-1]

    ori.rebuild_blocks(fn, expand)
