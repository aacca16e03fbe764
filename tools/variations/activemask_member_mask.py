"""Is an activemask read that is the member mask of a warp collective uniform (VOTEU.ANY UR) or a vector read
(VOTE.ANY R)? The collective (vote any/all/ballot, match.any, shfl idx/bfly; redux: activemask_redux_mask.py), where it sits (straight
converged code, a divergent if, a per-lane loop) and the mask's other readers (none, popc into the value, a store
of the mask). docs/findings/warp.md "... (helper nvsched36, stop 36)"."""
from __future__ import annotations

# the kernel head of activemask_redux_order; its scalar parameter (%r30) is the bound n here
from pylower.tools.variations.activemask_redux_order import HEAD
from pylower.tools.variations.table import run

OP = {
    "any": "setp.gt.s32 %p4, %r2, 7; vote.sync.any.pred %p5, %p4, %r4; selp.u32 %r7, 1, 0, %p5;",
    "all": "setp.gt.s32 %p4, %r2, 7; vote.sync.all.pred %p5, %p4, %r4; selp.u32 %r7, 1, 0, %p5;",
    "ballot": "setp.gt.s32 %p4, %r2, 7; vote.sync.ballot.b32 %r7, %p4, %r4;",
    "match": "match.any.sync.b32 %r7, %r2, %r4;",
    "shfl_idx": "shfl.sync.idx.b32 %r7, %r2, 0, 31, %r4;",
    "shfl_bfly": "shfl.sync.bfly.b32 %r7, %r2, 1, 31, %r4;",
}
OTHER = {"none": "", "popc": "popc.b32 %r8, %r4; add.u32 %r7, %r7, %r8;",
         "store": "st.global.u32 [%rd4+4], %r4;"}
# a second site of the same collective after a guarded store (its own block): its own activemask read (`two`),
# or the first read again (`shared`); `two_popc` / `two_store`: the first mask also read by a popc / a store;
# `kinds`: the second site is a vote.any beside another collective
SECOND = {
    "two": "setp.eq.s32 %p6, %r2, 5; @!%p6 bra S2; st.global.u32 [%rd4+8], %r2; S2: activemask.b32 %r14; {op2}",
    "two_popc": "setp.eq.s32 %p6, %r2, 5; @!%p6 bra S2; st.global.u32 [%rd4+8], %r2; S2: activemask.b32 %r14; "
                "{op2} popc.b32 %r16, %r4; add.u32 %r7, %r7, %r16;",
    "two_store": "setp.eq.s32 %p6, %r2, 5; @!%p6 bra S2; st.global.u32 [%rd4+8], %r2; S2: activemask.b32 %r14; "
                 "{op2} st.global.u32 [%rd4+12], %r4;",
    "shared": "setp.eq.s32 %p6, %r2, 5; @!%p6 bra S2; st.global.u32 [%rd4+8], %r2; S2: {op2s}",
    "kinds": "setp.eq.s32 %p6, %r2, 5; @!%p6 bra S2; st.global.u32 [%rd4+8], %r2; S2: activemask.b32 %r14; "
             "setp.gt.s32 %p7, %r2, 3; vote.sync.any.pred %p3, %p7, %r14; selp.u32 %r15, 1, 0, %p3; "
             "add.u32 %r7, %r7, %r15;",
}


def _second(op: str, mask: str) -> str:
    """The op again on the mask `mask`, its result added to %r7."""
    s = (op.replace("%r4", mask).replace("%r7", "%r15").replace("%p4", "%p7").replace("%p5", "%p3")
         .replace(", 7;", ", 3;"))
    return s + " add.u32 %r7, %r7, %r15;"


WHERE = {
    # converged, straight
    "top": ("ld.global.u32 %r2, [%rd5]; activemask.b32 %r4;", "{op} {other} st.global.u32 [%rd4], %r7; ret; }}"),
    # in a divergent if
    "if": ("ld.global.u32 %r2, [%rd5]; setp.lt.s32 %p1, %r2, 0; @%p1 bra END; activemask.b32 %r4;",
           "{op} {other} st.global.u32 [%rd4], %r7; END: ret; }}"),
    # in a per-lane loop: for (j = tid; j < n; j += 32)
    "loop": ("mov.u32 %r20, %r1; mov.u32 %r21, 0; setp.ge.s32 %p1, %r20, %r30; @%p1 bra END; LOOP: "
             "mul.wide.s32 %rd6, %r20, 4; add.s64 %rd7, %rd2, %rd6; ld.global.u32 %r2, [%rd7]; "
             "activemask.b32 %r4;",
             "{op} {other} add.u32 %r21, %r21, %r7; add.s32 %r20, %r20, 32; setp.lt.s32 %p2, %r20, %r30; "
             "@%p2 bra LOOP; st.global.u32 [%rd4], %r21; END: ret; }}"),
}
TARGETS = ["sm_75", "sm_80", "sm_86", "sm_90", "sm_100a"]
KEEP = frozenset({"VOTEU", "VOTE"})


def _lines(s: str) -> str:
    out = []
    for part in s.split(";"):
        part = part.strip()
        if not part:
            continue
        if part == "}":
            out.append("}\n")
        elif part.split()[0].endswith(":") or part.split(":")[0] in ("END", "LOOP", "S2"):
            lab, rest = part.split(":", 1)
            out.append(f"{lab}:\n" + (f"  {rest.strip()};\n" if rest.strip() else ""))
        else:
            out.append(f"  {part};\n")
    return "".join(out)


def variations() -> dict[str, str]:
    rows = {}
    for w, (pre, post) in WHERE.items():
        for o, op in OP.items():
            for x, other in OTHER.items():
                rows[f"{w}/{o}/{x}"] = HEAD + _lines(pre) + _lines(post.format(op=op, other=other))
            for x, second in SECOND.items():
                if x == "kinds" and o == "any":
                    continue
                body = op + " " + second.format(op2=_second(op, "%r14"), op2s=_second(op, "%r4"))
                rows[f"{w}/{o}/{x}"] = HEAD + _lines(pre) + _lines(post.format(op=body, other=""))
    return rows


if __name__ == "__main__":
    raise SystemExit(run(variations(), TARGETS, KEEP))
