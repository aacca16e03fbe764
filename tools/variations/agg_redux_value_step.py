"""Whether an aggregated atomic's REDUX (ptxas's own warp aggregation of `atom`/`red` with a per-lane value under
divergent control or in a loop) issues before or after the aggregation's activemask read (`VOTEU.ANY UR, UPT, PT`)
by where its value is computed: ready at the block's start (a copy of a loaded value or of the thread index, an
add of zero, a loop-invariant step ptxas hoists out of the loop), made by an ALU step of the atomic's block (shift, not, popcount, add, multiply), or loaded there.
Spans: the control around the atomic (a lane-0 if on a loaded value still in flight, an if on the loaded value,
an early exit on the value then a lane-0 if, a loop with a per-lane trip count), the reduction (add, or, min),
targets (docs/findings/atomic.md "A REDUX of a value computed in its block follows the vote (helper nvvote38,
stop 38)")."""
from __future__ import annotations

from pylower.tools.variations.activemask_redux_order import PROLOGUE
from pylower.tools.variations.table import run

HEAD = PROLOGUE + """  add.s64 %rd4, %rd2, %rd3;
  ld.global.u32 %r2, [%rd4];
"""
VAL = {
    "copy_ld": "mov.u32 %r3, %r2;",
    "copy_tid": "mov.u32 %r3, %r1;",
    "add0": "add.u32 %r3, %r2, 0;",
    "shl": "shl.b32 %r3, %r2, 2;",
    "not": "not.b32 %r3, %r2;",
    "popc": "popc.b32 %r3, %r2;",
    "add": "add.u32 %r3, %r2, %r1;",
    "mul": "mul.lo.u32 %r3, %r2, 3;",
    "ld_in": "ld.global.u32 %r3, [%rd4+128];",
}
CTRL = {
    # if (lane == 0) atom: the loaded value is still in flight at the branch
    "lane0": "and.b32 %r13, %r1, 31; setp.ne.u32 %p2, %r13, 0; @%p2 bra END; {val} {atom}",
    # if (v & 1) atom
    "guard": "and.b32 %r14, %r2, 1; setp.eq.u32 %p2, %r14, 0; @%p2 bra END; {val} {atom}",
    # if (v > thr) return; if (lane == 0) atom
    "exit_lane0": "setp.gt.u32 %p3, %r2, %r30; @%p3 bra END; and.b32 %r13, %r1, 31; setp.ne.u32 %p2, %r13, 0; "
                  "@%p2 bra END; {val} {atom}",
    # for (j = 0; j < v; j++) atom
    "loop": "mov.u32 %r20, 0; setp.eq.u32 %p3, %r2, 0; @%p3 bra END; LOOP: {val} {atom} add.u32 %r20, %r20, 1; "
            "setp.lt.u32 %p2, %r20, %r2; @%p2 bra LOOP;",
}
# the same loop, the value made from the trip counter (ptxas cannot hoist the step out of the loop)
CTRL["loop_var"] = CTRL["loop"]
ATOM = {"add": "red.global.add.u32 [%rd1], %r3;", "or": "red.global.or.b32 [%rd1], %r3;",
        "min": "red.global.min.s32 [%rd1], %r3;"}
TARGETS = ["sm_80", "sm_90", "sm_100a"]
KEEP = frozenset({"VOTEU", "VOTE", "REDUX", "CREDUX"})


def _lines(s: str) -> str:
    out = []
    for p in s.split(";"):
        p = p.strip()
        if not p:
            continue
        if p.startswith("LOOP:"):
            out.append("LOOP:\n")
            p = p[5:].strip()
        out.append(f"  {p};\n")
    return "".join(out)


def variations() -> dict[str, str]:
    rows = {}
    for c, ctrl in CTRL.items():
        for v, val in VAL.items():
            if c == "loop_var":
                # the value made from the trip counter (loop-varying): copy_ld is a copy of the counter
                val = val.replace("%r2", "%r20").replace("[%rd4+128]", "[%rd4+%r20]") if v != "ld_in" else \
                    "mul.wide.u32 %rd9, %r20, 4; add.s64 %rd10, %rd4, %rd9; ld.global.u32 %r3, [%rd10];"
            for a, atom in ATOM.items():
                rows[f"{c}/{v}/{a}"] = HEAD + _lines(ctrl.format(val=val, atom=atom)) + "END:\n  ret;\n}\n"
    return rows


if __name__ == "__main__":
    raise SystemExit(run(variations(), TARGETS, KEEP))
