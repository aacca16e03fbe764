"""Clock reads ptxas puts on the uniform datapath, and the wait that follows them below sm_90.

A read of `%clock`, `%clock64`, `%globaltimer` or `%globaltimer_lo` whose 32-bit value only feeds integer ALU
work mixed with one thread-varying register (`add %r, clk, tid`; through uniform-only steps such as
`and clk, 255`; a 64-bit read truncated by `cvt.u32.u64` first) is read with `S2UR` into a uniform register,
and below sm_90 ptxas waits for it at once: `DEPBAR.LE SB<k>, 0x0` (`UNIFORM_CLOCK_WAIT`). Stored directly,
compared with an immediate, combined with a kernel parameter or used in 64 bits it goes to a GPR with `CS2R`
and no wait; an ALU instruction takes one uniform operand, so of two such reads feeding one add only the first
read goes uniform (docs/findings/scheduling.md "Clock reads on the uniform datapath (helper tmisc, stop 20)";
probes scheduling/clock_uniform_*).

k is the scoreboard the S2UR gets: SB0 when nothing is in flight, SB1 when a load or store of the block was
issued before it (the load's result or the store's source registers hold SB0).
"""
from __future__ import annotations

from pylower.lowering import ori
from pylower.lowering import ptx_ast as A
from pylower.isel.rules import SelectContext
from pylower.sass.instr import SassInstr

CLOCKS = frozenset({"%clock", "%clock64", "%globaltimer", "%globaltimer_lo"})
_WIDE = frozenset({"%clock64", "%globaltimer"})
# Special registers ptxas may also read into a uniform register (the same for the whole warp).
_WARP_UNIFORM_SREGS = ("%clock", "%globaltimer", "%smid", "%nsmid", "%warpid", "%nwarpid", "%gridid")
# Integer ALU work ptxas does on the uniform datapath (and on a uniform operand of a vector instruction).
_ALU = frozenset({"add", "sub", "mul", "and", "or", "xor", "shl", "shr", "min", "max"})
_TRUNCATE = frozenset({".u32", ".s32", ".b32"})
_MEMORY = frozenset({"ld", "st", "atom", "red"})


def _users(sel: SelectContext) -> dict:
    """Register -> the instructions of the function reading it (built once)."""
    key = ("clock_reads_users",)
    users = sel._analyses.get(key)
    if users is None:
        users = sel._analyses[key] = {}
        du = sel.am.defuse
        for b in sel.function.blocks:
            for i in b.instrs:
                for r in du.uses(i):
                    users.setdefault(r, []).append(i)
    return users


def _order(sel: SelectContext) -> dict:
    key = ("clock_reads_order",)
    order = sel._analyses.get(key)
    if order is None:
        order = sel._analyses[key] = {id(i): n for n, i in enumerate(sel.function.instructions())}
    return order


def _sreg_read(ins: ori.Instr) -> str | None:
    if ins.opcode == "mov" and len(ins.operands) == 2 and type(ins.operands[1]) is A.Reg \
            and ins.operands[1].name.startswith("%") and not ins.operands[1].name.startswith("%r"):
        return ins.operands[1].name
    return None


def _single_def(sel: SelectContext, reg: str) -> bool:
    return len(sel.am.defuse.definitions(reg)) == 1


def _thread_varying(sel: SelectContext, o, read: ori.Instr) -> bool:
    """A register operand holding a per-thread value, not another warp-uniform special register read earlier
    (that one would have the uniform operand slot)."""
    if type(o) is not A.Reg:
        return False
    order = _order(sel)
    reads = [d for d in sel.am.defuse.definitions(o.name)
             if (name := _sreg_read(d)) is not None and name.startswith(_WARP_UNIFORM_SREGS)]
    if reads:
        # warp-uniform (uniformity.py), but read later into a vector register: the uniform slot is taken
        return not any(order[id(d)] < order[id(read)] for d in reads)
    return sel.uniformity.is_divergent_operand(o)


def _uniform_chain(sel: SelectContext, reg: str, read: ori.Instr, depth: int = 0) -> bool:
    """Does every use of the 32-bit value in `reg` end in ALU work that mixes it with one thread-varying
    register, through uniform-only ALU steps?"""
    users = _users(sel).get(reg, ())
    if not users or depth > 8 or not _single_def(sel, reg):
        return False
    for u in users:
        if u.opcode not in _ALU or u.guard is not None or len(u.operands) != 3 \
                or (u.opcode == "mul" and ".lo" not in u.mods):
            return False
        others = [o for o in u.operands[1:] if not (type(o) is A.Reg and o.name == reg)]
        if len(others) != 1:
            return False
        other = others[0]
        if type(other) is A.Imm:
            dest = u.operands[0]
            if type(dest) is not A.Reg or not _uniform_chain(sel, dest.name, read, depth + 1):
                return False
        elif not _thread_varying(sel, other, read):
            return False
    return True


def reads_uniform(ins: ori.Instr, sel: SelectContext) -> bool:
    """Is this clock read an S2UR into a uniform register?"""
    name = _sreg_read(ins)
    if name not in CLOCKS or ins.guard is not None or type(ins.operands[0]) is not A.Reg:
        return False
    dest = ins.operands[0].name
    if name not in _WIDE:
        return _uniform_chain(sel, dest, ins)
    users = _users(sel).get(dest, ())
    if not users or not _single_def(sel, dest):
        return False
    for u in users:
        if u.opcode != "cvt" or not any(m in _TRUNCATE for m in u.mods[:1]) or type(u.operands[0]) is not A.Reg \
                or not _uniform_chain(sel, u.operands[0].name, ins):
            return False
    return True


def wait(ins: ori.Instr, sel: SelectContext) -> SassInstr | None:
    """The DEPBAR.LE that follows a uniform clock read below sm_90, or None."""
    if not sel.target.has("UNIFORM_CLOCK_WAIT") or sel.block is None or not reads_uniform(ins, sel):
        return None
    busy = False
    for i in sel.block.instrs:
        if i is ins:
            break
        busy = busy or i.opcode in _MEMORY and ".param" not in i.mods
    return sel.sass(ins, "DEPBAR", ("LE",), ("SB1" if busy else "SB0", "0x0"),
                    reason="a clock read into a uniform register is waited for at once")
