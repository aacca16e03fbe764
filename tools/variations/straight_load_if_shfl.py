"""A guarded load in straight code whose join starts a warp shuffle chain (`v = i < n ? x[i] : 0; scan/reduce v
with shfl.sync; store`): when does ptxas predicate the load if (no BSSY/BSYNC before the shuffles) and when does it
keep its pair (docs/findings/warp.md "A guarded load before a straight shuffle chain (helper shfl38, stop 38)")."""
from __future__ import annotations

from pylower.tools.variations.table import run

HEAD = """.version 9.0
.target {target}
.address_size 64
.visible .entry k(.param .u64 pa, .param .u64 po, .param .u32 pn)
{
  .reg .pred %p<40>; .reg .b32 %r<80>; .reg .b64 %rd<20>;
  ld.param.u64 %rd1, [pa]; ld.param.u64 %rd2, [po]; ld.param.u32 %r1, [pn];
  mov.u32 %r3, %tid.x; and.b32 %r4, %r3, 31;
  mov.u32 %r5, %ctaid.x; mov.u32 %r6, %ntid.x; mad.lo.s32 %r7, %r5, %r6, %r3;
  cvta.to.global.u64 %rd3, %rd1; cvta.to.global.u64 %rd6, %rd2;
  mul.wide.s32 %rd4, %r7, 4; add.s64 %rd5, %rd3, %rd4; add.s64 %rd7, %rd6, %rd4;
  setp.ge.s32 %p1, %r7, %r1;
"""
IFS = {
    # the loaded value merged at the join with a default before the branch
    "ld": """  mov.u32 %r20, 0;
  @%p1 bra J;
  ld.global.nc.u32 %r20, [%rd5];
J:
""",
    # two loads summed in the if
    "ld2": """  mov.u32 %r20, 0;
  @%p1 bra J;
  ld.global.nc.u32 %r20, [%rd5];
  ld.global.nc.u32 %r21, [%rd5+4096];
  add.s32 %r20, %r20, %r21;
J:
""",
}


def _scan(n: int) -> str:
    out = []
    for s in range(n):
        o = 1 << s
        out.append(f"""  shfl.sync.up.b32 %r{30 + s}|%p{10 + s}, %r20, {o}, 0, -1;
  setp.lt.u32 %p{20 + s}, %r4, {o};
  selp.b32 %r{40 + s}, 0, %r{30 + s}, %p{20 + s};
  add.s32 %r20, %r20, %r{40 + s};
""")
    return "".join(out)


def _bfly(n: int) -> str:
    return "".join(f"""  shfl.sync.bfly.b32 %r{30 + s}, %r20, {16 >> s}, 31, -1;
  add.s32 %r20, %r20, %r{30 + s};
""" for s in range(n))


OPS = {
    "scan5": _scan(5),
    "scan1": _scan(1),
    "bfly5": _bfly(5),
    "bfly2": _bfly(2),
    "down5": "".join(f"""  shfl.sync.down.b32 %r{30 + s}, %r20, {16 >> s}, 31, -1;
  add.s32 %r20, %r20, %r{30 + s};
""" for s in range(5)),
    "ballot": """  setp.lt.s32 %p30, %r20, 0;
  vote.sync.ballot.b32 %r50, %p30, -1;
  popc.b32 %r51, %r50;
  add.s32 %r20, %r20, %r51;
""",
}
TAILS = {
    # the same test guards the store of the result (nvcc's `if (i < n) y[i] = v`)
    "same": """  @%p1 bra R;
  st.global.u32 [%rd7], %r20;
R:
  ret;
}
""",
    # lane 0 stores the warp's result
    "lane0": """  setp.ne.s32 %p2, %r4, 0;
  @%p2 bra R;
  shr.u32 %r60, %r7, 5;
  mul.wide.u32 %rd8, %r60, 4; add.s64 %rd9, %rd6, %rd8;
  st.global.u32 [%rd9], %r20;
R:
  ret;
}
""",
    # every thread stores
    "plain": """  st.global.u32 [%rd7], %r20;
  ret;
}
""",
}
TARGETS = ["sm_75", "sm_80", "sm_90", "sm_100a", "sm_120"]




def _xors(k: int) -> tuple[str, str]:
    """k independent xors of the thread index before the op, added to its result after it."""
    return ("".join(f"  xor.b32 %r{60 + s}, %r7, {s + 3};\n" for s in range(k)),
            "".join(f"  add.s32 %r20, %r20, %r{60 + s};\n" for s in range(k)))



def variations() -> dict[str, str]:
    rows = {f"{ifn}_{op}_{tail}": HEAD + ift + opt + tt
            for ifn, ift in IFS.items() for op, opt in OPS.items() for tail, tt in TAILS.items()}
    # independent work beside the chain: k xors (the store address is sunk from the head too); the same with a
    # chain of five dependent mad.lo instead of the shuffles fits alike (no sync instruction: kept out of the
    # table, tests/test_variations.py wants one per row)
    for k in (1, 2, 4):
        pre, post = _xors(k)
        rows[f"ld_bfly5_xor{k}_plain"] = HEAD + IFS["ld"] + pre + _bfly(5) + post + TAILS["plain"]
    return rows


if __name__ == "__main__":
    raise SystemExit(run(variations(), TARGETS, frozenset({"BSSY", "BSYNC", "VOTE", "VOTEU", "SHFL", "WARPSYNC",
                                                           "BMOV"})))
