"""The ISel rule registry: Ori instruction (by PTX stem or pseudo-op name) -> SASS sequence.

    @rule("bar", "barrier")
    def select_bar(ins: ori.Instr, sel: SelectContext) -> list[SassInstr]: ...

Family rule modules are isel/fam_*.py; they hold their per-tier choices as tables (rows keyed by tier /
modifiers), not nested ifs. Stems without a rule use isel.generic.
"""
from __future__ import annotations

from pylower.plugins import Registry
from pylower.records import field, record

from pylower.lowering import ori
from pylower.lowering import ptx_ast as A
from pylower.lowering import ptx_printer as P
from pylower.lowering.target import Target
from pylower.sass.instr import SassInstr

# module -> the names its @rule functions take (tests/test_plugins.py checks it against the modules): a run
# imports only the families its code uses, each when one of its names is first looked up
FAMILY_NAMES: dict[str, tuple[str, ...]] = {
    "fam_async_copy": ("clusterlaunchcontrol", "cp", "tensormap"),
    "fam_atomic": ("atom", "lea", "red"),
    "fam_barrier": ("bar", "barrier"),
    "fam_branch": ("bra", "ret"),
    "fam_fence": ("fence", "membar"),
    "fam_math": ("fchk", "subcall"),
    "fam_mbarrier": ("mbarrier",),
    "fam_memory": ("ld", "st"),
    "fam_shared_window": ("mov",),
    "fam_sync_pseudo": ("bmov", "bra_back", "bra_conv", "bra_div", "break", "bssy", "bsync", "call_helper",
                        "endcollective", "looptest", "membermask", "ret_helper", "warpsync"),
    "fam_tcgen05": ("tcgen05",),
    "fam_warp": ("activemask", "call", "elect", "griddepcontrol", "match", "nanosleep", "redux", "shfl", "vote"),
}

RULES = Registry("ISel rule", __package__, FAMILY_NAMES)


def rule(*names: str):
    def deco(fn):
        for n in names:
            RULES.add(n, fn)
        return fn
    return deco


# Kinds of temporary ISel and the phases introduce, and how they are spelled: in the PTX register style, so a
# reader follows them like the kernel's own registers (`%t12`, uniform `%ut3`, predicates `%tp1`, `%utp1`).
TEMP_PREFIX = {"r": "%t", "ur": "%ut", "p": "%tp", "up": "%utp"}


@record
class TempNames:
    """One numbering of temporaries per program: a kernel carries copies of its callees, so names made for
    different functions never meet. `avoid`: prefixes the PTX itself declares (then `%t` becomes `%tt`...)."""
    counts: dict = field(default_factory=dict)
    avoid: frozenset = frozenset()

    def new(self, kind: str = "r") -> str:
        prefix = TEMP_PREFIX[kind]
        while prefix in self.avoid:
            prefix = prefix + prefix[-1]
        n = self.counts[prefix] = self.counts.get(prefix, 0) + 1
        return f"{prefix}{n}"


@record
class SelectContext:
    target: Target
    function: ori.Function
    module: ori.Module
    options: dict = field(default_factory=dict)
    unmapped: dict = field(default_factory=dict)
    block: ori.BasicBlock | None = None          # the block of the instruction being selected
    am: object = None                            # the function's analysis manager (passes/analysis/manager.py)
    temps: TempNames = field(default_factory=TempNames)
    _analyses: dict = field(default_factory=dict)

    def __post_init__(self):
        if self.am is None:
            from pylower.passes.analysis.manager import Analyses
            self.am = Analyses(self.function, self.module, self.target)

    @property
    def liveness(self):
        """Register liveness of the current function (the analysis manager's: computed once)."""
        return self.am.liveness

    @property
    def uniformity(self):
        return self.am.uniformity

    def temp(self, kind: str = "r") -> str:
        """A fresh virtual register for a value the SASS sequence makes itself: "r" a register (`%t12`),
        "ur" a uniform register (`%ut3`), "p" a predicate (`%tp1`), "up" a uniform predicate (`%utp1`)."""
        return self.temps.new(kind)

    def utemp(self) -> str:
        return self.temps.new("ur")

    def ptemp(self) -> str:
        return self.temps.new("p")

    def role(self, ins: ori.Instr | None, name: str, kind: str = "r") -> str:
        """The temporary that plays `name` (e.g. "old", "leader") in the sequence selected for `ins`: the same
        register for every use within that sequence, a fresh one for the next instruction."""
        key = ("role", id(ins), name, kind)
        t = self._analyses.get(key)
        if t is None:
            t = self._analyses[key] = self.temps.new(kind)
        return t

    def local_label(self) -> str:
        """A fresh label for code a rule lays out itself (e.g. both paths of a runtime test)."""
        n = self._analyses["labels"] = self._analyses.get("labels", 0) + 1
        return f".L_{self.function.name}_{n}"

    def position(self, ins: ori.Instr) -> int:
        """Index of `ins` in the current block (a per-block table, built once)."""
        key = ("pos", self.block.label)
        table = self._analyses.get(key)
        if table is None:
            table = self._analyses[key] = {id(i): k for k, i in enumerate(self.block.instrs)}
        return table[id(ins)]

    def block_of(self, ins: ori.Instr) -> str | None:
        """The label of the block holding `ins` (a per-function table, built once)."""
        table = self._analyses.get("block_of")
        if table is None:
            table = self._analyses["block_of"] = {id(i): b.label for b in self.function.blocks for i in b.instrs}
        return table.get(id(ins))

    def result_used(self, ins: ori.Instr, reg) -> bool:
        """Is the value `ins` writes to `reg` (a ptx_ast.Reg) read later?"""
        return type(reg) is A.Reg and self.liveness.is_used_after(self.block, ins, reg.name)

    def sass(self, ins: ori.Instr | None, opcode: str, mods=(), operands=(), tags=(), guard: str | None = None,
             reason: str = "") -> SassInstr:
        """One SASS instruction for `ins`; `reason` (one line) says why a sequence needs it when it is more
        than the plain selection of `ins` (--explain prints it)."""
        g = guard if guard is not None else (guard_text(ins.guard) if ins is not None else "")
        return SassInstr(opcode, tuple(mods), tuple(operands), g, None, ins.line if ins else 0, frozenset(tags),
                         reason=reason)


def guard_text(g) -> str:
    return "" if g is None else "@" + P.operand(g)


_OPERAND_TEXT: dict = {}


def operand_text(o) -> str:
    """SASS-side spelling of a PTX operand (registers stay virtual: PTX names). Operands are immutable
    values, so the spelling is cached."""
    t = _OPERAND_TEXT.get(o)
    if t is None:
        if type(o) is A.Imm:
            v = o.value
            t = (hex(v) if v >= 0 else "-" + hex(-v)) if isinstance(v, int) else o.text
        elif type(o) is A.Addr:
            inner = ", ".join(operand_text(i) for i in o.items)
            if o.offset:
                inner += f"+{hex(o.offset)}" if o.offset > 0 else f"-{hex(-o.offset)}"
            t = f"[{inner}]"
        elif type(o) is A.Sink:
            t = "RZ"
        elif type(o) is A.Vec:
            t = "{" + ", ".join(operand_text(i) for i in o.items) + "}"
        else:
            t = P.operand(o)
        if len(_OPERAND_TEXT) >= 1 << 16:     # bounded in a long-running process
            _OPERAND_TEXT.clear()
        _OPERAND_TEXT[o] = t
    return t


def block_def(reg, sel, before):
    """The unguarded instruction of the block being selected that last writes `reg` before `before` (None:
    another block, or a guarded write)."""
    if type(reg) is not A.Reg:
        return None
    du = sel.am.defuse
    instrs = sel.block.instrs
    k = next((n for n, i in enumerate(instrs) if i is before), len(instrs))
    for i in reversed(instrs[:k]):
        if reg.name in du.defs(i):
            return i if i.guard is None else None
    return None
