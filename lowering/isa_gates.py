"""Which targets accept the PTX instructions no family handler validates (arithmetic, conversions, matrix ops,
tensor-core and register-allocation instructions, special registers), with ptxas 13.0.88's messages.

ptxas checks an instruction against the module's `.target` in one of two ways, and says which in its wording:
- a minimum SM number for a feature: "Feature 'add.f32x2' requires .target sm_100 or higher" (also
  "Modifier '.relu' requires ...");
- a set of targets for an arch- or family-specific instruction: "Instruction 'wgmma.fence' not supported on
  .target 'sm_100a'".
Each row below is one such gate, found by compiling the form for every target (docs/findings/frontend.md;
probes tests/corpus/probes/frontend/). Rows are checked in order and every failing one is reported, the first
being the message ptxas prints first.
"""
from __future__ import annotations

from pylower.records import record

from . import ptx_ast as A

_FLOAT_MMA = (".f16", ".bf16", ".tf32", ".e4m3", ".e5m2", ".f32", ".f64")


@record(frozen=True)
class Gate:
    stems: tuple[str, ...]                   # PTX stems the row applies to (() = any stem)
    feature: str                             # the name in the message ({stem} is replaced)
    any_mods: tuple[str, ...] = ()           # the row applies when the instruction has one of these modifiers
    all_mods: tuple[str, ...] = ()           # ... and all of these
    operands: int | None = None              # ... and exactly this many operands
    since: int = 0                           # "requires .target sm_<since> or higher"
    targets: str = ""                        # or "not supported on .target": a predicate from _TARGET_SETS
    kind: str = "Feature"                    # "Feature" / "Modifier" / "Instruction"
    of_type: bool = False                    # the operation with a type (add.bf16, cvt.bf16.f32): replaces the
                                             # type row's second report
    first: str = ""                          # ... and this one of all_mods comes first (cvt's destination type)
    handled: bool = False                    # also checked when the stem has a family handler (which lets the
                                             # form through as a generic instruction)
    needs: str = ""                          # a modifier the one in any_mods needs (target-independent: "Modifier
                                             # '.abs' requires modifier '.xorsign'")
    before_types: bool = False               # reported before the type gates (min.abs's '.abs')

    def applies(self, ins: A.Instruction) -> bool:
        if self.stems and ins.opcode not in self.stems:
            return False
        if self.any_mods and not any(m in ins.mods for m in self.any_mods):
            return False
        if self.all_mods and not all(m in ins.mods for m in self.all_mods):
            return False
        if self.first and self.first != next((m for m in ins.mods if m in self.all_mods), None):
            return False
        return self.operands is None or len(ins.operands) == self.operands

    def failure(self, ins: A.Instruction, target) -> str | None:
        name = self.feature.format(stem=ins.opcode, sub=next((m[1:].split("::")[0] for m in ins.mods), ""))
        if self.needs:
            return None if self.needs in ins.mods else f"Modifier '{name}' requires modifier '{self.needs}'"
        if self.targets:
            if _TARGET_SETS[self.targets](target):
                return None
            return f"Instruction '{name}' not supported on .target '{target.name}'"
        if target.sm >= self.since:
            return None
        return f"{self.kind} '{name}' requires .target sm_{self.since} or higher"


# Arch-/family-specific instruction sets (probed over sm_75 ... sm_121f): wgmma only sm_90a; tcgen05 the a/f
# variants of the sm_100 and sm_110 families; tensormap.replace and setmaxnreg every a/f variant from sm_90.
_TARGET_SETS = {
    "sm_90a": lambda t: t.name == "sm_90a",
    "tcgen05": lambda t: t.family in (100, 110) and t.suffix in ("a", "f"),
    "accelerated_from_90": lambda t: t.sm >= 90 and t.suffix in ("a", "f"),
}

GATES: tuple[Gate, ...] = (
    # types first: ptxas names the type before the operation (add.bf16 on sm_75: '.bf16', on sm_80: 'add.bf16')
    Gate((), ".bf16", any_mods=(".bf16",), since=80),
    Gate((), ".bf16x2", any_mods=(".bf16x2",), since=80),
    Gate((), ".tf32", any_mods=(".tf32",), since=80),
    Gate(("add", "sub", "mul"), "{stem}.bf16", any_mods=(".bf16", ".bf16x2"), since=90, of_type=True),
    # bf16 comparisons (setp/set) are sm_90 too; min/max/neg/abs/fma.bf16 are not
    # (docs/findings/frontend.md "setp and set on bf16 need sm_90 (helper tri28, stop 28)")
    Gate(("setp", "set"), "{stem}.bf16", any_mods=(".bf16",), since=90, of_type=True),
    Gate(("setp", "set"), "{stem}.bf16x2", any_mods=(".bf16x2",), since=90, of_type=True),
    Gate(("cvt",), "cvt.bf16.f32", all_mods=(".bf16", ".f32"), operands=2, since=80, of_type=True, first=".bf16"),
    Gate(("cvt",), "cvt.bf16x2.f32", all_mods=(".bf16x2", ".f32"), since=80, of_type=True),
    Gate(("cvt",), "cvt with .f32.bf16", all_mods=(".f32", ".bf16"), since=80, of_type=True, first=".f32"),
    Gate(("add", "sub", "mul", "fma"), "{stem}.f32x2", any_mods=(".f32x2",), since=100),
    Gate(("add", "sub", "fma"), "{stem}.f32.f16", all_mods=(".f32", ".f16"), since=100),
    Gate(("add", "sub", "fma"), "{stem}.f32.bf16", all_mods=(".f32", ".bf16"), since=100),
    Gate(("min", "max"), "{stem}.f32 with 3 input operands", all_mods=(".f32",), operands=4, since=100),
    Gate(("fma", "min", "max"), ".relu", any_mods=(".relu",), since=80, kind="Modifier"),
    Gate(("min", "max"), ".NaN", any_mods=(".NaN",), since=80, kind="Modifier"),
    # min/max .xorsign.abs (sm_86): '.abs' is reported before the types, each modifier needs the other, and the
    # f16 operation's own gate comes between them
    # (docs/findings/frontend.md "min and max: .xorsign.abs (lead, stop 27)")
    Gate(("min", "max"), ".abs", any_mods=(".abs",), since=86, before_types=True),
    Gate(("min", "max"), ".xorsign", any_mods=(".xorsign",), needs=".abs"),
    Gate(("min", "max"), ".xorsign", any_mods=(".xorsign",), since=86, kind="Modifier"),
    Gate(("min", "max"), "{stem}.f16 or {stem}.f16x2", any_mods=(".f16", ".f16x2"), since=80),
    Gate(("min", "max"), ".abs", any_mods=(".abs",), needs=".xorsign"),
    Gate(("cvt",), "cvt.f16x2.f32", all_mods=(".f16x2", ".f32"), since=80),
    Gate(("cvt",), "cvt with .e4m3x2/.e5m2x2", any_mods=(".e4m3x2", ".e5m2x2"), since=89),
    Gate(("mma",), ".and' on 'mma", any_mods=(".and",), since=80, kind="Modifier"),
    Gate(("mma",), ".m16n8k16", any_mods=(".m16n8k16",), since=80),
    # the integer shapes (s32 accumulator); FP8's m16n8k32 gets only the FP8 row's message
    Gate(("mma",), ".m16n8k32", all_mods=(".m16n8k32", ".s32"), since=80),
    Gate(("mma",), ".m16n8k64", all_mods=(".m16n8k64", ".s32"), since=80),
    Gate(("mma",), ".m16n8k128", all_mods=(".m16n8k128", ".s32"), since=80),
    Gate(("mma",), ".m16n8k256", all_mods=(".m16n8k256", ".s32"), since=80),
    Gate(("mma",), ".m8n8k4 with double types", all_mods=(".m8n8k4", ".f64"), since=80),
    Gate(("mma",), ".m16n8k8", all_mods=(".m16n8k8", ".tf32"), since=80),
    Gate(("mma",), "mma with FP8 floating point type", any_mods=(".e4m3", ".e5m2"), since=89),
    Gate(("stmatrix",), "stmatrix", since=90),
    Gate(("mapa", "getctarank"), "{stem}", since=90),
    Gate(("mapa", "getctarank"), "::cluster", any_mods=(".shared::cluster",), since=90),
    Gate(("multimem",), "multimem.{sub}", since=90),
    Gate(("prefetch",), ".tensormap", any_mods=(".tensormap",), since=90, kind="Modifier"),
    Gate(("prefetch",), "cache eviction priority' on '{stem}", any_mods=(".L2::evict_last", ".L2::evict_normal"),
         since=80, kind="Modifier"),
    Gate(("st",), "st.bulk", any_mods=(".bulk",), since=100, handled=True),
    Gate(("wgmma",), "wgmma.mma_async with floating point types", all_mods=(".mma_async",),
         any_mods=_FLOAT_MMA, targets="sm_90a"),
    Gate(("wgmma",), "wgmma.mma_async with integer types", all_mods=(".mma_async",), targets="sm_90a"),
    Gate(("wgmma",), "wgmma.{sub}", targets="sm_90a"),
    Gate(("tcgen05",), "tcgen05.{sub}", targets="tcgen05"),
    Gate(("tensormap",), "tensormap.replace", any_mods=(".replace",), targets="accelerated_from_90", handled=True),
    Gate(("tensormap",), ".tile", all_mods=(".replace", ".tile"), since=90, handled=True),
    Gate(("setmaxnreg",), "setmaxnreg.{sub}", targets="accelerated_from_90"),
)

# special registers and the first SM that has them ("Feature '%clusterid' requires .target sm_90 or higher")
SREG_SINCE = {
    "%clusterid": 90, "%nclusterid": 90, "%cluster_ctaid": 90, "%cluster_nctaid": 90, "%cluster_ctarank": 90,
    "%cluster_nctarank": 90, "%is_explicit_cluster": 90, "%aggr_smem_size": 90,
    "%reserved_smem_offset_begin": 80, "%reserved_smem_offset_end": 80, "%reserved_smem_offset_cap": 80,
}

# Functions ptxas provides itself (system calls): a call to one needs no body in the module.
SYSTEM_FUNCTIONS = frozenset({"vprintf", "__assertfail", "malloc", "free", "__nvvm_reflect"})


def _sreg_base(name: str) -> str:
    return name.split(".", 1)[0]


def _arch_set_followups(g: Gate, ins: A.Instruction, target, msg: str) -> list[str]:
    """What ptxas adds to a failed arch-set gate: a tcgen05 instruction's .cta_group::N is not supported
    either; an sm_90a-only instruction on a newer target "cannot be compiled for architecture" it."""
    out = []
    if g.targets == "tcgen05":
        out += [f"Feature '{m}' not supported on .target '{target.name}'" for m in ins.mods
                if m.startswith(".cta_group::")]
    if g.targets == "sm_90a" and target.sm > 90:
        name = msg.split("'")[1]
        out.append(f"Instruction '{name}' cannot be compiled for architecture '{target.name}'")
    return out


_ROWS_FOR: dict[str, tuple[Gate, ...]] = {}
_CACHE: dict[tuple, list[str]] = {}
_CACHE_LIMIT = 1 << 16          # entries: keys carry the input's modifiers, so emptied when full (as the parser's)


def _rows(stem: str) -> tuple[Gate, ...]:
    """The rows that can apply to `stem`, in table order."""
    r = _ROWS_FOR.get(stem)
    if r is None:
        r = _ROWS_FOR[stem] = tuple(g for g in GATES if not g.stems or stem in g.stems)
    return r


def _row_failures(ins: A.Instruction, target, has_handler: bool) -> list[str]:
    key = (ins.opcode, ins.mods, len(ins.operands), target.name, has_handler)
    hit = _CACHE.get(key)
    if hit is not None:
        return hit
    out, lead = [], []
    types, of_type, arch_row = [], False, False
    for g in _rows(ins.opcode):
        if g.targets and arch_row:
            continue                   # one arch-set row per instruction (the most specific one matches first)
        if (g.handled or not has_handler) and g.applies(ins):
            msg = g.failure(ins, target)
            if msg and g.before_types:
                lead.append(msg)
            elif msg and not g.stems:
                types.append(msg)                 # a type gate: ptxas reports it when it reads the type ...
            elif msg and msg not in out:
                out.append(msg)
                of_type = of_type or g.of_type
                if g.targets:
                    out.extend(_arch_set_followups(g, ins, target, msg))
            arch_row = arch_row or bool(g.targets)
    # ... and again when it checks the operation, unless the operation-with-type row reported instead
    out = lead + [m for t in dict.fromkeys(types) for m in ((t,) if of_type else (t, t))] + out
    if len(_CACHE) >= _CACHE_LIMIT:
        _CACHE.clear()
    _CACHE[key] = out
    return out


def failures(ins: A.Instruction, target, has_handler: bool) -> list[str]:
    """ptxas's messages for the gates `ins` fails on `target` (the module's .target). Instructions with a family
    handler are validated by it (except the rows marked `handled`); special registers are checked for every
    instruction."""
    out = _row_failures(ins, target, has_handler)
    if not any(type(o) is A.Reg for o in ins.operands):
        return list(out)
    out = list(out)
    for o in ins.operands:
        if type(o) is A.Reg and o.name.startswith("%"):
            since = SREG_SINCE.get(_sreg_base(o.name))
            if since and target.sm < since:
                msg = f"Feature '{_sreg_base(o.name)}' requires .target sm_{since} or higher"
                if msg not in out:
                    out.append(msg)
    return out
