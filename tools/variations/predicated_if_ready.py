"""Which of two independent warp collectives after a bounds-guarded load block (`if (i < n) { a = x[i]; b = y[i]; }`,
an if ptxas predicates) issues first, by how each operand is made inside the predicated body: the loaded value
itself, a compare of it (the ballot's predicate), or an ALU step of it; and by the PTX order of the two loads.
Collective pairs: a ballot beside a shuffle-up scan (the ballot feeding the scan's segment test, `seg`, or stored
apart, `sep`), two shuffle-down sums, a match beside a vote.all, two REDUXes (docs/findings/scheduling.md
"A predicated if's values are ready by their own chain (helper nvsched39, stop 39)")."""
from __future__ import annotations

from pylower.tools.variations.table import run

HEAD = """.version 8.7
.target {target}
.address_size 64
.visible .entry k(.param .u64 out, .param .u64 xa, .param .u64 xb, .param .u32 n)
{
  .reg .pred %p<20>; .reg .b32 %r<80>; .reg .b64 %rd<20>;
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd2, [xa];
  ld.param.u64 %rd3, [xb];
  ld.param.u32 %r9, [n];
  cvta.to.global.u64 %rd1, %rd1;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mad.lo.s32 %r4, %r2, %r3, %r1;
  and.b32 %r5, %r1, 31;
  setp.ge.s32 %p1, %r4, %r9;
  mov.u32 %r10, 0;
  mov.u32 %r11, 0;
  mov.pred %p2, -1;
  @%p1 bra J;
  cvta.to.global.u64 %rd4, %rd2;
  cvta.to.global.u64 %rd5, %rd3;
  mul.wide.s32 %rd6, %r4, 4;
  add.s64 %rd7, %rd4, %rd6;
  add.s64 %rd8, %rd5, %rd6;
"""
LOAD_A = "  ld.global.nc.u32 %r10, [%rd7];\n"
# b: the second operand, made in the body
B = {
    "ld": "  ld.global.nc.u32 %r11, [%rd8];\n",
    "cmp": "  ld.global.nc.u32 %r12, [%rd8];\n  setp.ne.s32 %p2, %r12, 0;\n",
    "alu": "  ld.global.nc.u32 %r12, [%rd8];\n  mul.lo.s32 %r11, %r12, 3;\n",
}
# the join: `pb` is b's predicate (the compare, in the body for `cmp`, else here)
PRED = {"cmp": "", "ld": "  setp.ne.s32 %p2, %r11, 0;\n", "alu": "  setp.ne.s32 %p2, %r11, 0;\n"}


def _scan(steps: int, seg: bool) -> str:
    out, v = [], "%r10"
    for k in range(steps):
        d = 1 << k
        t, nv = f"%r{30 + 2 * k}", f"%r{31 + 2 * k}"
        out.append(f"  shfl.sync.up.b32 {t}, {v}, {d}, 0, -1;\n")
        if seg:
            out.append(f"  sub.s32 %r{50 + k}, %r5, {d};\n  setp.ge.s32 %p{5 + k}, %r{50 + k}, %r22;\n")
        else:
            out.append(f"  setp.ge.u32 %p{5 + k}, %r5, {d};\n")
        out.append(f"  selp.b32 %r{60 + k}, {t}, 0, %p{5 + k};\n  add.s32 {nv}, {v}, %r{60 + k};\n")
        v = nv
    return "".join(out), v


def _pair(kind: str, steps: int) -> tuple[str, list[str]]:
    """The collectives and the values to store."""
    if kind in ("seg", "sep"):
        ballot = ("  vote.sync.ballot.b32 %r20, %p2, -1;\n  shl.b32 %r21, 2, %r5;\n  add.s32 %r21, %r21, -1;\n"
                  "  and.b32 %r21, %r21, %r20;\n  clz.b32 %r22, %r21;\n  sub.s32 %r22, 31, %r22;\n")
        scan, v = _scan(steps, kind == "seg")
        return ballot + scan, [v, "%r20"]
    if kind == "two_shfl":
        out, a, b = [], "%r10", "%r11"
        for k in range(steps):
            o = 16 >> k
            out.append(f"  shfl.sync.down.b32 %r{30 + k}, {a}, {o}, 31, -1;\n  add.s32 %r{40 + k}, {a}, %r{30 + k};\n")
            out.append(f"  shfl.sync.down.b32 %r{50 + k}, {b}, {o}, 31, -1;\n  add.s32 %r{60 + k}, {b}, %r{50 + k};\n")
            a, b = f"%r{40 + k}", f"%r{60 + k}"
        return "".join(out), [a, b]
    if kind == "match_vote":
        return ("  match.any.sync.b32 %r20, %r11, -1;\n  setp.ne.s32 %p3, %r10, 0;\n"
                "  vote.sync.all.pred %p4, %p3, -1;\n  selp.u32 %r21, 1, 0, %p4;\n  popc.b32 %r22, %r20;\n",
                ["%r22", "%r21"])
    # redux pair: min of a, add of b
    return ("  redux.sync.min.s32 %r20, %r10, -1;\n  redux.sync.add.u32 %r21, %r11, -1;\n", ["%r20", "%r21"])


def variations() -> dict[str, str]:
    rows = {}
    for kind in ("seg", "sep", "two_shfl", "match_vote", "redux"):
        for b, body in B.items():
            if kind in ("seg", "sep") and b == "alu":
                continue
            if kind not in ("seg", "sep") and b == "cmp":
                continue
            for order in ("a_first", "b_first"):
                for steps in ((2, 5) if kind in ("seg", "sep", "two_shfl") else (0,)):
                    loads = LOAD_A + body if order == "a_first" else body + LOAD_A
                    code, vals = _pair(kind, steps)
                    pred = PRED[b] if kind in ("seg", "sep") else ""
                    stores = "".join(f"  st.global.u32 [%rd{10 + j}], {v};\n" for j, v in enumerate(vals))
                    addrs = ("  mul.wide.s32 %rd9, %r4, 4;\n  add.s64 %rd10, %rd1, %rd9;\n"
                             "  add.s64 %rd11, %rd10, 65536;\n")
                    name = f"{kind}/{b}/{order}" + (f"/{steps}" if steps else "")
                    rows[name] = HEAD + loads + "J:\n" + pred + code + addrs + stores + "  ret;\n}\n"
    return rows


TARGETS = ["sm_80", "sm_90", "sm_100a", "sm_120"]
KEEP = frozenset({"VOTE", "VOTEU", "SHFL", "MATCH", "REDUX", "CREDUX"})

if __name__ == "__main__":
    raise SystemExit(run(variations(), TARGETS, KEEP, mods=frozenset({"UP", "DOWN", "ANY", "ALL", "MIN", "SUM"})))
