"""Thread-block barriers: bar{.cta} / barrier{.cta} .sync / .arrive / .red (ptxas handlers sub_524FB0 bar,
sub_570290 barrier, sub_500BF0 bar.arrive, sub_570940 barrier.arrive, sub_52D590 bar.red, sub_5889B0
barrier.red), bar.warp.sync and barrier.cluster.{arrive,wait}. Validation messages are ptxas 13.0.88's
(docs/findings/barrier.md, tests/corpus/probes/barrier)."""
from __future__ import annotations

from . import ptx_ast as A
from .diagnostics import PtxError
from .handlers import handler
from .ori import ORI_CLASSES

_OPS = (".sync", ".arrive", ".red")
_RED_OPS = {".popc": ".u32", ".and": ".pred", ".or": ".pred"}


def _imm(o):
    return o.value if type(o) is A.Imm else None


# barrier.cluster: operation -> the memory-order modifier it accepts (ptxas rejects the other one with
# "Illegal modifier") and the ordering it has without one; .relaxed/.acquire need PTX 8.0, the rest 7.8.
_CLUSTER_SEM = {".arrive": ((".release", ".relaxed"), "release"), ".wait": ((".acquire",), "acquire")}
_CLUSTER_ORDERS = (".release", ".relaxed", ".acquire")
_CLUSTER_MOD_VERSION = {".relaxed": (8, 0), ".acquire": (8, 0)}
_CLUSTER_MIN_SM = 90


def _lower_cluster(ins: A.Instruction, ctx):
    """barrier.cluster.{arrive,wait}: ptxas reports the PTX-version gate, then the target gate, then
    modifier problems (probes barrier_cluster_*_ptx7x, *_acquire, *_relaxed)."""
    op = next((m for m in ins.mods if m in _CLUSTER_SEM), None)
    if op is None:
        raise ctx.error("Not a name of any known instruction: 'barrier.cluster'", ins)
    name = f"barrier.cluster{op}"
    ctx.require_version(ins, 7, 8, name)
    legal, default = _CLUSTER_SEM[op]
    order = next((m for m in ins.mods if m in _CLUSTER_ORDERS), None)
    errs = []
    if ctx.target.sm < _CLUSTER_MIN_SM:
        errs.append(f"Feature '{name}' requires .target sm_{_CLUSTER_MIN_SM} or higher")
    if order is not None and order not in legal:
        errs.append(f"Illegal modifier '{order}' for instruction '{name}'")
    if errs:
        raise PtxError(errs[0], ins.line, ins.col, ctx.file, more=tuple(errs[1:]))
    need = _CLUSTER_MOD_VERSION.get(order)
    if need is not None and ctx.version < need:
        raise ctx.error(f"Modifier '{order}' on '{name}' requires PTX ISA .version {need[0]}.{need[1]} or later", ins)
    if ins.operands:
        raise ctx.error(f"Arguments mismatch for instruction '{name}'", ins)
    return [ctx.instr(ORI_CLASSES["barrier"], ins, cluster=op[1:], order=order[1:] if order else default)]


@handler("bar", "barrier")
def lower_bar(ins: A.Instruction, ctx):
    stem = ins.opcode
    mods = ins.mods
    if stem == "barrier" and ".cluster" in mods:
        return _lower_cluster(ins, ctx)
    if stem == "bar" and ".warp" in mods:
        # bar.warp.sync membermask: Ori 96 without a CTA-barrier kind (the warp-sync phases and its own rule)
        if len(ins.operands) != 1:
            raise ctx.error("Arguments mismatch for instruction 'bar.warp'", ins)
        return [ctx.instr(ORI_CLASSES["barrier"], ins)]
    if ".cta" in mods:
        ctx.require_version(ins, 7, 8, f"{stem}.cta")
    op = next((m for m in mods if m in _OPS), None)
    if op is None:
        raise ctx.error(f"Barrier modifier required for instruction '{stem}'", ins)
    ops = list(ins.operands)
    attrs = {"mode": op[1:]}
    if op == ".red":
        redop = next((m for m in mods if m in (".popc", ".and", ".or", ".xor", ".add", ".min", ".max")), None)
        if redop not in _RED_OPS:
            typ = next((m for m in mods if m in (".pred", ".u32", ".b32", ".s32")), "")
            raise ctx.error(f"Illegal reduction operation for instruction '{stem}.red{typ}'", ins)
        want = _RED_OPS[redop]
        have = next((m for m in mods if m in (".u32", ".pred", ".b32", ".s32")), None)
        if have != want:
            if redop == ".popc":
                raise ctx.error(f"Unexpected instruction types specified for '{stem}.red'", ins)
            raise ctx.error("Operation requires .pred type", ins)
        if len(ops) not in (3, 4):
            raise ctx.error(f"Arguments mismatch for instruction '{stem}.red'", ins)
        attrs["redop"] = redop[1:]
        bar_ops = ops[1:-1]
    else:
        bar_ops = ops
        if op == ".arrive" and len(ops) != 2:
            raise ctx.error(f"Arguments mismatch for instruction '{stem}.arrive'", ins)
        if len(ops) not in (1, 2):
            raise ctx.error(f"Arguments mismatch for instruction '{stem}{op}'", ins)
    bid = _imm(bar_ops[0])
    if bid is not None and not 0 <= bid <= 15:     # ptxas prints the value as a 64-bit unsigned number
        raise ctx.error(f"Barrier number '{bid % (1 << 64)}' out of range, expected to be in range [0..15]", ins)
    if len(bar_ops) == 2:
        cnt = _imm(bar_ops[1])
        if cnt is not None:
            if cnt % 32:
                raise ctx.error("Number of threads participating in barrier must be in multiple of warp size", ins)
            if cnt == 0 and op == ".arrive":
                raise ctx.error(f"Instruction '{stem}.arrive' requires a non-zero thread count argument", ins)
    return [ctx.instr(ORI_CLASSES["barrier"], ins, **attrs)]
