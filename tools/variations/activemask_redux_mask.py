"""Is an activemask read used as a redux.sync member mask a uniform register (VOTEU.ANY) or a vector one (VOTE.ANY),
by its other readers and the target (docs/findings/warp.md "... (helper nvsched35, stop 35)")."""
from __future__ import annotations

from pylower.tools.variations.activemask_redux_order import HEAD as ORDER_HEAD
from pylower.tools.variations.table import run

HEAD = ORDER_HEAD + """  setp.ge.u32 %p1, %r1, %r30;
  @%p1 bra END;
  ld.global.u32 %r2, [%rd5];
  activemask.b32 %r4;
  redux.sync.add.u32 %r3, %r2, %r4;
"""
USE = {
    # the mask's other readers, then the store of the sum
    "none": "st.global.u32 [%rd4], %r3;",
    "ltmask_and": "mov.u32 %r10, %lanemask_lt; and.b32 %r11, %r10, %r4; setp.ne.s32 %p2, %r11, 0; @%p2 bra END; "
                  "st.global.u32 [%rd1], %r3;",
    "ffs_leader": "brev.b32 %r10, %r4; bfind.shiftamt.u32 %r11, %r10; and.b32 %r12, %r1, 31; "
                  "setp.ne.s32 %p2, %r12, %r11; @%p2 bra END; st.global.u32 [%rd1], %r3;",
    "popc_add": "popc.b32 %r10, %r4; add.u32 %r11, %r10, %r3; st.global.u32 [%rd4], %r11;",
    "store_mask": "st.global.u32 [%rd4], %r3; st.global.u32 [%rd4+4], %r4;",
    "redux2": "redux.sync.max.u32 %r5, %r2, %r4; add.u32 %r3, %r3, %r5; st.global.u32 [%rd4], %r3;",
    "redux2_ffs": "redux.sync.max.u32 %r5, %r2, %r4; brev.b32 %r10, %r4; bfind.shiftamt.u32 %r11, %r10; "
                  "and.b32 %r12, %r1, 31; setp.ne.s32 %p2, %r12, %r11; @%p2 bra END; add.u32 %r3, %r3, %r5; "
                  "st.global.u32 [%rd1], %r3;",
}
TAIL = """END:
  ret;
}
"""
TARGETS = ["sm_80", "sm_86", "sm_90", "sm_100a"]
KEEP = frozenset({"VOTEU", "VOTE"})


def variations() -> dict[str, str]:
    return {name: HEAD + "".join(f"  {s.strip()};\n" for s in use.split(";") if s.strip()) + TAIL
            for name, use in USE.items()}


if __name__ == "__main__":
    raise SystemExit(run(variations(), TARGETS, KEEP))
