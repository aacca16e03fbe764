"""A guarded load in straight code whose join starts a warp shuffle chain, with warp collectives beside the chain
that do not read the loaded value (an argmax's index shuffles, a ballot of an index test, a redux of the index):
do they make ptxas predicate the load if the way independent ALU work does (tools/variations/
straight_load_if_shfl.py)? docs/findings/warp.md "An independent collective after a load if's join (helper
nvvote39, stop 39)"."""
from __future__ import annotations

from pylower.tools.variations.straight_load_if_shfl import HEAD, IFS, TAILS
from pylower.tools.variations.table import run

TARGETS = ["sm_80", "sm_90", "sm_100a", "sm_120"]   # redux.sync needs sm_80


def _chain(steps: int, indep: int, kind: str, where: str) -> str:
    """`steps` butterfly adds of the loaded value; `indep` collectives of the index (%r7 chain) placed before the
    chain (`first`) or one per step (`step`)."""
    out, idx = [], "%r7"
    pre = []
    for s in range(indep):
        dst = f"%r{60 + s}"
        if kind == "shfl":
            pre.append(f"  shfl.sync.bfly.b32 {dst}, {idx}, {16 >> (s % 5)}, 31, -1;\n")
        elif kind == "ballot":
            pre.append(f"  setp.lt.u32 %p{30 + s}, {idx}, {s + 7};\n  vote.sync.ballot.b32 {dst}, %p{30 + s}, -1;\n")
        elif kind == "redux":
            pre.append(f"  redux.sync.max.u32 {dst}, {idx}, -1;\n")
        idx = dst
    for s in range(steps):
        out.append(f"  shfl.sync.bfly.b32 %r{30 + s}, %r20, {16 >> s}, 31, -1;\n  add.s32 %r20, %r20, %r{30 + s};\n")
        if where == "step" and s < len(pre):
            out.append(pre[s])
    body = ("".join(pre) if where == "first" else "") + "".join(out)
    if where == "step":
        body += "".join(pre[steps:])
    tail = "".join(f"  add.s32 %r20, %r20, %r{60 + s};\n" for s in range(indep))
    return body + tail


def variations() -> dict[str, str]:
    rows = {}
    for kind in ("shfl", "ballot", "redux"):
        for indep in (1, 2, 5):
            for where in ("first", "step"):
                for tail in ("plain", "lane0"):
                    rows[f"ld_bfly5_{kind}{indep}_{where}_{tail}"] = HEAD + IFS["ld"] + _chain(5, indep, kind, where) \
                        + TAILS[tail]
    for indep in (1, 2):
        rows[f"ld_bfly2_shfl{indep}_first_plain"] = HEAD + IFS["ld"] + _chain(2, indep, "shfl", "first") \
            + TAILS["plain"]
    return rows


if __name__ == "__main__":
    # only the region: predicated (no BSSY) or kept; the collectives' order is another question
    raise SystemExit(run(variations(), TARGETS, frozenset({"BSSY", "BSYNC", "BMOV"})))
