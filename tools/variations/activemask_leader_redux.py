"""Where a uniform activemask read (VOTEU.ANY UR, UPT, PT) issues against the warp reductions of its block when the
mask is read in the block by something other than the reductions' results: a leader test (`__ffs(act) - 1 ==
lane`), its popcount stored, its value stored, or combined with a reduction's result (nvsched35's `here` rows).
Spans: the reduced value's source (thread index, a global load, a load and an ALU step), one or two reductions,
the member mask (full or the activemask), the mask's readers (docs/findings/scheduling.md "... (helper
nvsched37, stop 37)")."""
from __future__ import annotations

from pylower.tools.variations.activemask_redux_order import HEAD as ORDER_HEAD
from pylower.tools.variations.table import run

# activemask_redux_order's kernel head, then threads past `n` leave
HEAD = ORDER_HEAD + """  setp.ge.u32 %p7, %r1, %r30;
  @%p7 bra END;
"""
SRC = {"tid": "mul.lo.u32 %r2, %r1, 3;", "ldg": "ld.global.nc.u32 %r2, [%rd5];",
       "ldg_alu": "ld.global.nc.u32 %r20, [%rd5]; and.b32 %r2, %r20, 255;",
       # the value comes from the block before (a guard tested it): the reductions are ready at the block's start
       "prev_ldg": "ld.global.nc.u32 %r2, [%rd5]; setp.gt.u32 %p6, %r2, %r30; @%p6 bra END;",
       "prev_tid": "mul.lo.u32 %r2, %r1, 3; setp.gt.u32 %p6, %r2, %r30; @%p6 bra END;"}
MASK = {"full": "-1", "act": "%r4"}
RED = {
    "one": "redux.sync.add.u32 %r3, %r2, {m};",
    "two": "redux.sync.add.u32 %r3, %r2, {m}; shr.u32 %r21, %r2, 4; redux.sync.or.b32 %r5, %r21, {m};",
}
USE = {
    # the mask only decides the leader: brev + bfind.shiftamt (= __ffs - 1), compared with the lane
    "leader": "brev.b32 %r11, %r4; bfind.shiftamt.u32 %r12, %r11; and.b32 %r13, %r1, 31; setp.ne.u32 %p2, %r13, %r12; "
              "@%p2 bra END; st.global.u32 [%rd4], %r3;{st5}",
    # the mask's popcount stored beside the result by lane 0
    "popc": "popc.b32 %r11, %r4; and.b32 %r13, %r1, 31; setp.ne.u32 %p2, %r13, 0; @%p2 bra END; "
            "st.global.u32 [%rd4], %r3; st.global.u32 [%rd4+4], %r11;{st5}",
    # the mask combined with the reduction (nvsched35's `here`)
    "combined": "add.u32 %r9, %r3, %r4; st.global.u32 [%rd4], %r9;{st5}",
    # the mask stored unchanged in the block
    "stored": "st.global.u32 [%rd4+4], %r4; st.global.u32 [%rd4], %r3;{st5}",
}
TARGETS = ["sm_80", "sm_90", "sm_100a"]
KEEP = frozenset({"VOTEU", "VOTE", "REDUX", "CREDUX"})


def _lines(s: str) -> str:
    return "".join(f"  {p.strip()};\n" for p in s.split(";") if p.strip())


def variations() -> dict[str, str]:
    rows = {}
    for s, src in SRC.items():
        for mk, m in MASK.items():
            for r, red in RED.items():
                for u, use in USE.items():
                    body = "activemask.b32 %r4; " + red.format(m=m)
                    st5 = " st.global.u32 [%rd4+8], %r5;" if r == "two" else ""
                    rows[f"{s}/{mk}/{r}/{u}"] = (HEAD + _lines(src) + _lines(body) + _lines(use.format(st5=st5))
                                                 + "END:\n  ret;\n}\n")
    return rows


if __name__ == "__main__":
    raise SystemExit(run(variations(), TARGETS, KEEP))
