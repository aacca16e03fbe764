"""Where a uniform activemask read (VOTEU.ANY UR, UPT, PT) issues against the warp reductions of its block: the
source of the reductions (thread index, global load), where the mask is read (its block, a lane-0 if after it),
a ballot beside them (docs/findings/scheduling.md "... (helper nvsched35, stop 35)")."""
from __future__ import annotations

from pylower.tools.variations.table import run

# the kernel head: parameters out, in, thr; %r1 = tid.x, %rd3 its byte offset (agg_redux_value_step shares it)
PROLOGUE = """.version 8.7
.target {target}
.address_size 64
.visible .entry k(.param .u64 out, .param .u64 in, .param .u32 thr)
{
  .reg .pred %p<8>; .reg .b32 %r<40>; .reg .b64 %rd<40>;
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd2, [in];
  ld.param.u32 %r30, [thr];
  cvta.to.global.u64 %rd1, %rd1;
  cvta.to.global.u64 %rd2, %rd2;
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4;
"""
HEAD = PROLOGUE + """  add.s64 %rd4, %rd1, %rd3;
  add.s64 %rd5, %rd2, %rd3;
"""
SRC = {"tid": "mov.u32 %r2, %r1;", "ldg": "ld.global.u32 %r2, [%rd5];",
       "ldg_and": "ld.global.u32 %r20, [%rd5]; and.b32 %r2, %r20, 255;",
       "tid_ldg": "ld.global.u32 %r20, [%rd5]; add.u32 %r2, %r1, 0;"}
BODY = {
    # the reductions, the mask, the combined value
    "redux": "redux.sync.add.u32 %r3, %r2, -1; activemask.b32 %r4;",
    "mask_first": "activemask.b32 %r4; redux.sync.add.u32 %r3, %r2, -1;",
    "redux2": "redux.sync.add.u32 %r3, %r2, -1; redux.sync.max.u32 %r5, %r2, -1; activemask.b32 %r4; "
              "add.u32 %r3, %r3, %r5;",
    "ballot_redux": "setp.gt.u32 %p1, %r2, %r30; vote.sync.ballot.b32 %r6, %p1, -1; "
                    "redux.sync.add.u32 %r3, %r2, -1; activemask.b32 %r4; add.u32 %r3, %r3, %r6;",
}
USE = {
    "here": "add.u32 %r9, %r3, %r4; st.global.u32 [%rd4], %r9; ret; }",
    "lane0": "and.b32 %r10, %r1, 31; setp.ne.u32 %p3, %r10, 0; @%p3 bra END; add.u32 %r9, %r3, %r4; "
             "st.global.u32 [%rd4], %r9; END: ret; }",
    "lane0_xor": "and.b32 %r10, %r1, 31; setp.ne.u32 %p3, %r10, 0; @%p3 bra END; xor.b32 %r9, %r4, %r3; "
                 "st.global.u32 [%rd4], %r9; st.global.u32 [%rd4+4], %r3; END: ret; }",
}
TARGETS = ["sm_80", "sm_90", "sm_100a"]
KEEP = frozenset({"VOTEU", "VOTE", "REDUX", "CREDUX"})


def _lines(s: str) -> str:
    out = []
    for part in s.split(";"):
        part = part.strip()
        if not part:
            continue
        if part == "}":
            out.append("}\n")
        elif part.startswith("END:"):
            out.append("END:\n  " + part[4:].strip() + ";\n")
        else:
            out.append(f"  {part};\n")
    return "".join(out)


def variations() -> dict[str, str]:
    rows = {}
    for s, src in SRC.items():
        for b, body in BODY.items():
            for u, use in USE.items():
                if s == "tid_ldg" and b != "redux":
                    continue
                rows[f"{s}/{b}/{u}"] = HEAD + _lines(src) + _lines(body) + _lines(use)
    return rows


if __name__ == "__main__":
    raise SystemExit(run(variations(), TARGETS, KEEP))
