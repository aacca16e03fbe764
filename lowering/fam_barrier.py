"""Thread-block barriers: bar{.cta} / barrier{.cta} .sync / .arrive / .red (ptxas handlers sub_524FB0 bar,
sub_570290 barrier, sub_500BF0 bar.arrive, sub_570940 barrier.arrive, sub_52D590 bar.red, sub_5889B0
barrier.red). Validation messages are ptxas 13.0.88's (docs/findings/barrier.md, tests/corpus/probes/barrier)."""
from __future__ import annotations

from . import ptx_ast as A
from .handlers import handler
from .ori import ORI_CLASSES

_OPS = (".sync", ".arrive", ".red")
_RED_OPS = {".popc": ".u32", ".and": ".pred", ".or": ".pred"}


def _imm(o):
    return o.value if type(o) is A.Imm else None


@handler("bar", "barrier")
def lower_bar(ins: A.Instruction, ctx):
    stem = ins.opcode
    mods = ins.mods
    if (stem == "bar" and ".warp" in mods) or (stem == "barrier" and ".cluster" in mods):
        # bar.warp.sync / barrier.cluster.*: Ori 96 without a CTA-barrier kind (their own rules select them)
        return [ctx.instr(ORI_CLASSES["barrier"], ins)]
    if ".cta" in mods:
        ctx.require_version(ins, 7, 8, f"{stem}.cta")
    op = next((m for m in mods if m in _OPS), None)
    if op is None:
        raise ctx.error(f"Barrier modifier required for instruction '{stem}'", ins)
    ops = list(ins.operands)
    attrs = {"kind": op[1:]}
    if op == ".red":
        redop = next((m for m in mods if m in (".popc", ".and", ".or", ".xor", ".add", ".min", ".max")), None)
        if redop not in _RED_OPS:
            raise ctx.error(f"Illegal reduction operation for instruction '{stem}.red{'.pred' if '.pred' in mods else ''}'", ins)
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
    if bid is not None and not 0 <= bid <= 15:
        raise ctx.error(f"Barrier number '{bid}' out of range, expected to be in range [0..15]", ins)
    if len(bar_ops) == 2:
        cnt = _imm(bar_ops[1])
        if cnt is not None:
            if cnt % 32:
                raise ctx.error("Number of threads participating in barrier must be in multiple of warp size", ins)
            if cnt == 0 and op == ".arrive":
                raise ctx.error(f"Instruction '{stem}.arrive' requires a non-zero thread count argument", ins)
    return [ctx.instr(ORI_CLASSES["barrier"], ins, **attrs)]
