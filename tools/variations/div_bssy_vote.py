"""Where the BSSY of a leader if goes against the activemask VOTE.ANY before it when the warp op's key is an
integer division of a loaded value (nvcc/vt33_votes vt33_bucket_insert, q36_bucket_rank q36_bucket_div /
q36_bucket_srem: `k = ld; b = k OP nb; m = activemask; peers = match.any(m, b) | ballot(m, b > 3);
if (lane == leader(peers)) atom.add [fill + b], popc(peers); shfl.idx(peers, ..); st`). OP: the four 32-bit
divisions by a kernel parameter, a 64-bit one, by an immediate, and `and` / `mul` (no division); the key loaded or
computed from the thread index (docs/findings/warp.md "... (helper nvcoll36, stop 36)")."""
from __future__ import annotations

from pylower.tools.variations.table import run

HEAD = """.version 8.7
.target {target}
.address_size 64
.visible .entry k(.param .u64 keys, .param .u64 fill, .param .u64 out, .param .u32 nb, .param .u32 n)
{
  .reg .pred %p<8>; .reg .b32 %r<40>; .reg .b64 %rd<40>;
  ld.param.u64 %rd1, [keys];
  ld.param.u64 %rd2, [fill];
  ld.param.u64 %rd3, [out];
  ld.param.u32 %r30, [nb];
  ld.param.u32 %r31, [n];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mad.lo.s32 %r4, %r2, %r3, %r1;
  setp.ge.s32 %p1, %r4, %r31;
  @%p1 bra END;
  cvta.to.global.u64 %rd4, %rd1;
  mul.wide.s32 %rd5, %r4, 4;
  add.s64 %rd6, %rd4, %rd5;
"""
SRC = {"ld": "ld.global.nc.u32 %r5, [%rd6];",
       "tid": "mul.lo.s32 %r5, %r4, 7;"}
OP = {"remu": "rem.u32 %r6, %r5, %r30;", "divu": "div.u32 %r6, %r5, %r30;",
      "rems": "rem.s32 %r6, %r5, %r30;", "divs": "div.s32 %r6, %r5, %r30;",
      "remu_imm": "rem.u32 %r6, %r5, 13;",
      "remu64": "cvt.u64.u32 %rd20, %r5; cvt.u64.u32 %rd21, %r30; rem.u64 %rd22, %rd20, %rd21; "
                "cvt.u32.u64 %r6, %rd22;",
      "and": "and.b32 %r6, %r5, %r30;", "mul": "mul.lo.s32 %r6, %r5, %r30;"}
WARP = {"match": "activemask.b32 %r7; match.any.sync.b32 %r8, %r6, %r7;",
        "ballot": "activemask.b32 %r7; setp.gt.u32 %p2, %r6, 3; vote.sync.ballot.b32 %r8, %p2, %r7;"}
TAIL = """brev.b32 %r9, %r8; bfind.shiftamt.u32 %r10, %r9; and.b32 %r11, %r1, 31; setp.ne.s32 %p3, %r11, %r10;
@%p3 bra J; cvta.to.global.u64 %rd7, %rd2; mul.wide.s32 %rd8, %r6, 4; add.s64 %rd9, %rd7, %rd8;
popc.b32 %r12, %r8; atom.global.add.u32 %r13, [%rd9], %r12;
J: mov.u32 %r14, 31; shfl.sync.idx.b32 %r15, %r13, %r10, %r14, %r8; add.s32 %r16, %r15, %r6;
cvta.to.global.u64 %rd10, %rd3; add.s64 %rd11, %rd10, %rd5; st.global.u32 [%rd11], %r16;
END: ret; }"""
TARGETS = ["sm_75", "sm_80", "sm_90", "sm_100a"]
KEEP = frozenset({"BSSY", "BMOV", "VOTE", "VOTEU", "MATCH"})


def _lines(s: str) -> str:
    out = []
    for part in s.replace("\n", " ").split(";"):
        part = part.strip()
        if not part:
            continue
        if part == "}":
            out.append("}\n")
        elif part[:2] in ("J:", "EN"):
            label, rest = part.split(":", 1)
            out.append(f"{label}:\n  {rest.strip()};\n")
        else:
            out.append(f"  {part};\n")
    return "".join(out)


def variations() -> dict[str, str]:
    rows = {}
    for s, src in SRC.items():
        for o, op in OP.items():
            for w, warp in WARP.items():
                rows[f"{s}/{o}/{w}"] = HEAD + _lines(src) + _lines(op) + _lines(warp) + _lines(TAIL)
    return rows


if __name__ == "__main__":
    raise SystemExit(run(variations(), TARGETS, KEEP))
