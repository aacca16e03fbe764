"""Which divergent ifs around cp.async copies ptxas predicates and which keep a BSSY/BSYNC pair (passes/ifconvert.py;
docs/findings/async.md "Guarded cp.async copies: shared joins, group commits and the shared window (helper nvlock34,
stop 34)"). Three families of rows:
- join/<outer>/<body>/<join>: a body of cp.asyncs (or loads) under a divergent (div) or uniform (uni, unielse) if,
  with what its join does before the end (group commit, wait, CTA barrier, store);
- chain/big<0|1>_uni<0|1>_commit<0|1>: three guarded cp.asyncs in a row, with or without a group commit after each
  and a uniform exit between them (the unrolled remainder of a prefetch loop);
- window/<cp|ld>_<after>: a guarded cp.async (or load staged to shared memory) naming its shared buffer in the
  region, alone or with a second one, a load or a store after it (the shared window of sm_90+)."""
from __future__ import annotations

from pylower.tools.variations.table import run

HEAD = """.version 8.7
.target {target}
.address_size 64
.visible .entry k(.param .u64 p0, .param .u64 p1, .param .u32 n)
{
  .reg .pred %p<8>; .reg .b32 %r<40>; .reg .b64 %rd<40>; .reg .f64 %fd<8>;
  .shared .align 16 .b8 sm[4096];
  mov.u32 %r1, %tid.x;
  ld.param.u64 %rd1, [p0];
  ld.param.u64 %rd2, [p1];
  ld.param.u32 %r2, [n];
  mov.u32 %r3, sm;
  shl.b32 %r4, %r1, 3;
  add.s32 %r5, %r3, %r4;
  mul.wide.u32 %rd3, %r1, 8;
  add.s64 %rd4, %rd1, %rd3;
  {outer}
  @%p1 bra J;
""".replace("@%p1 bra J;", "{guard}")
# the if's test: a thread-dependent one or a uniform one (a kernel parameter)
OUTER = {"div": "add.s32 %r6, %r1, 256;\n  setp.ge.s32 %p1, %r6, %r2;",
         "uni": "setp.ge.s32 %p1, %r2, 256;",
         # a uniform if/else: the other arm stores, then jumps to the join
         "unielse": "setp.lt.s32 %p1, %r2, 256;\n  @%p1 bra E;\n  st.global.u32 [%rd2+4], %r2;\n  bra.uni J;\nE:\n"
                    "  mov.u32 %r1, %r1;"}
# the if's body
BODY = {
    "one": "  cp.async.ca.shared.global [%r5], [%rd4], 8;\n",
    "two": "  cp.async.ca.shared.global [%r5], [%rd4], 8;\n  cp.async.ca.shared.global [%r5+2048], [%rd4+2048], 8;\n",
    "zfill": "  setp.lt.s32 %p2, %r1, %r2;\n  selp.b32 %r7, 8, 0, %p2;\n"
             "  cp.async.ca.shared.global [%r5], [%rd4], 8, %r7;\n",
    "diamond": "  setp.lt.s32 %p2, %r1, %r2;\n  @%p2 bra A;\n  bra.uni B;\nA:\n"
               "  cp.async.ca.shared.global [%r5], [%rd4], 8, 8;\n  bra.uni J;\nB:\n"
               "  cp.async.ca.shared.global [%r5], [%rd4], 8, 0;\n",
    "diamond_work": "  add.s32 %r8, %r1, 512;\n  setp.lt.s32 %p2, %r8, %r2;\n  selp.b32 %r9, %r8, 0, %p2;\n"
                    "  mul.wide.s32 %rd6, %r9, 8;\n  add.s64 %rd7, %rd1, %rd6;\n  @%p2 bra A;\n  bra.uni B;\nA:\n"
                    "  cp.async.ca.shared.global [%r5], [%rd7], 8, 8;\n  bra.uni J;\nB:\n"
                    "  cp.async.ca.shared.global [%r5], [%rd7], 8, 0;\n",
    "triangle": "  setp.lt.s32 %p2, %r1, %r2;\n  @!%p2 bra J;\n  cp.async.ca.shared.global [%r5], [%rd4], 8;\n",
    "triangle_ld": "  setp.lt.s32 %p2, %r1, %r2;\n  @!%p2 bra J;\n  ld.global.u32 %r11, [%rd4];\n"
                   "  st.shared.u32 [%r5], %r11;\n",
    "diamond_ld": "  setp.lt.s32 %p2, %r1, %r2;\n  @%p2 bra A;\n  bra.uni B;\nA:\n"
                  "  ld.global.u32 %r11, [%rd4];\n  st.shared.u32 [%r5], %r11;\n  bra.uni J;\nB:\n"
                  "  ld.global.u32 %r12, [%rd4+512];\n  st.shared.u32 [%r5], %r12;\n",
    "stg": "  st.global.u32 [%rd4], %r1;\n",
}
# the join, up to the end
JOIN = {
    "bar": "  bar.sync 0;\n",
    "commit_wait_bar": "  cp.async.commit_group;\n  cp.async.wait_group 1;\n  bar.sync 0;\n",
    "commit_wait": "  cp.async.commit_group;\n  cp.async.wait_group 0;\n",
    "commit_stg_bar": "  cp.async.commit_group;\n  st.global.u32 [%rd2], %r1;\n  bar.sync 0;\n",
}
TAIL = """  ld.shared.f64 %fd1, [%r5+8];
  add.s64 %rd5, %rd2, %rd3;
  st.global.f64 [%rd5], %fd1;
  ret;
}
"""


def variations() -> dict[str, str]:
    rows = {}
    for o, test in OUTER.items():
        for b in BODY:
            for j in JOIN:
                if o != "div" and b not in ("diamond", "diamond_work", "triangle", "triangle_ld", "diamond_ld"):
                    continue
                head = HEAD.replace("{outer}", test).replace("{guard}", "" if o == "unielse" else "@%p1 bra J;")
                rows[f"join/{o}/{b}/{j}"] = head + BODY[b] + "J:\n" + JOIN[j] + TAIL
    rows.update(_chain_rows())
    rows.update(_window_rows())
    return rows


CHAIN_HEAD = """.version 8.7
.target {target}
.address_size 64
.visible .entry k(.param .u64 p0, .param .u64 p1, .param .u32 n, .param .u32 m)
{
  .reg .pred %p<20>; .reg .b32 %r<200>; .reg .b64 %rd<80>; .reg .f64 %fd<8>;
  .shared .align 16 .b8 sm[4096];
  mov.u32 %r1, %tid.x;
  ld.param.u64 %rd1, [p0];
  ld.param.u64 %rd2, [p1];
  ld.param.u32 %r2, [n];
  ld.param.u32 %r20, [m];
  and.b32 %r6, %r20, 3;
  setp.gt.s32 %p6, %r1, 63;
  mov.u32 %r3, sm;
"""
CHAIN_TAIL = """X:
  cp.async.wait_all;
  bar.sync 0;
  shl.b32 %r190, %r1, 3;
  add.s32 %r191, %r3, %r190;
  ld.shared.f64 %fd1, [%r191+8];
  mul.wide.u32 %rd70, %r1, 8;
  add.s64 %rd71, %rd2, %rd70;
  st.global.f64 [%rd71], %fd1;
  ret;
}
"""


def _chain_body(k: int, big: bool) -> str:
    """The k-th guarded copy: its address computed in the region (big: as nvcc's stage-index arithmetic does)."""
    if big:
        r = 40 + k * 10
        return (f"  add.s32 %r{r}, %r20, {k};\n  shr.s32 %r{r + 1}, %r{r}, 31;\n  shr.u32 %r{r + 2}, %r{r + 1}, 30;\n"
                f"  add.s32 %r{r + 3}, %r{r}, %r{r + 2};\n  and.b32 %r{r + 4}, %r{r + 3}, 4194300;\n"
                f"  sub.s32 %r{r + 5}, %r{r}, %r{r + 4};\n  shl.b32 %r{r + 6}, %r{r}, 6;\n"
                f"  add.s32 %r{r + 7}, %r{r + 6}, %r1;\n  shl.b32 %r{r + 8}, %r{r + 5}, 10;\n"
                f"  add.s32 %r{r + 9}, %r3, %r{r + 8};\n  shl.b32 %r{150 + k}, %r1, 4;\n"
                f"  add.s32 %r{160 + k}, %r{r + 9}, %r{150 + k};\n  cvta.to.global.u64 %rd{10 + k * 3}, %rd1;\n"
                f"  mul.wide.s32 %rd{11 + k * 3}, %r{r + 7}, 16;\n"
                f"  add.s64 %rd{12 + k * 3}, %rd{10 + k * 3}, %rd{11 + k * 3};\n"
                f"  cp.async.cg.shared.global [%r{160 + k}], [%rd{12 + k * 3}], 16, 16;\n")
    return (f"  shl.b32 %r{150 + k}, %r1, 4;\n  add.s32 %r{160 + k}, %r3, %r{150 + k};\n"
            f"  mul.wide.s32 %rd{11 + k * 3}, %r1, 16;\n  add.s64 %rd{12 + k * 3}, %rd1, %rd{11 + k * 3};\n"
            f"  cp.async.cg.shared.global [%r{160 + k}+{k * 1024}], [%rd{12 + k * 3}+{k * 4096}], 16, 16;\n")


def _chain_rows() -> dict[str, str]:
    rows = {}
    for big in (0, 1):
        for uni in (0, 1):
            for commit in (0, 1):
                s = CHAIN_HEAD
                for k in range(3):
                    s += f"  @%p6 bra J{k};\n" + _chain_body(k, bool(big)) + f"J{k}:\n"
                    if commit:
                        s += "  cp.async.commit_group;\n"
                    if uni and k < 2:
                        s += f"  setp.eq.s32 %p{10 + k}, %r6, {k + 1};\n  @%p{10 + k} bra X;\n"
                rows[f"chain/big{big}_uni{uni}_commit{commit}"] = s + CHAIN_TAIL
    return rows


WINDOW_HEAD = """.version 8.7
.target {target}
.address_size 64
.visible .entry k(.param .u64 a, .param .u64 b, .param .u32 n)
{
 .reg .pred %p<6>; .reg .b32 %r<40>; .reg .b64 %rd<30>; .reg .f32 %f<8>;
 .shared .align 16 .b8 buf[4096];
 ld.param.u64 %rd1, [a]; ld.param.u64 %rd2, [b]; ld.param.u32 %r4, [n];
 mov.u32 %r1, %ntid.x; mov.u32 %r5, %ctaid.x; mov.u32 %r2, %tid.x; mad.lo.s32 %r3, %r5, %r1, %r2;
 cvta.to.global.u64 %rd3, %rd2; mul.wide.s32 %rd4, %r3, 16; add.s64 %rd5, %rd3, %rd4; shl.b32 %r6, %r2, 4;
 add.s32 %r7, %r3, 64;
 setp.ge.s32 %p1, %r3, %r4; setp.ge.s32 %p2, %r7, %r4;
"""


def _window_region(k: int, p: int, kind: str) -> str:
    if kind == "cp":
        b = (f" mov.u32 %r{10 + k}, buf; add.s32 %r{20 + k}, %r{10 + k}, %r6; "
             f"cp.async.cg.shared.global [%r{20 + k}+{k * 1024}], [%rd5+{k * 1024}], 16;\n")
    else:
        b = (f" ld.global.u32 %r{30 + k}, [%rd5+{k * 1024}]; mov.u32 %r{10 + k}, buf; "
             f"add.s32 %r{20 + k}, %r{10 + k}, %r6; "
             f"st.shared.u32 [%r{20 + k}+{k * 1024}], %r{30 + k};\n")
    return f" @%p{p} bra J{k};\n" + b + f"J{k}:\n"


def _window_rows() -> dict[str, str]:
    tail = " cp.async.wait_all;\n bar.sync 0;\n ret;\n}\n"
    after = {"one": "", "two": None,
             "ldafter": " ld.global.u32 %r39, [%rd1]; add.s64 %rd9, %rd1, %rd4; st.global.u32 [%rd9], %r39;\n",
             "stafter": " add.s64 %rd9, %rd1, %rd4; st.global.u32 [%rd9], %r3;\n"}
    rows = {}
    for kind in ("cp", "ld"):
        for a, code in after.items():
            rest = _window_region(1, 2, kind) if code is None else code
            rows[f"window/{kind}_{a}"] = WINDOW_HEAD + _window_region(0, 1, kind) + rest + tail
    return rows


TARGETS = ["sm_80", "sm_90", "sm_100a", "sm_120"]
KEEP = frozenset({"BSSY", "BSYNC", "LDGSTS", "LDGDEPBAR", "DEPBAR", "BAR", "WARPSYNC"})

if __name__ == "__main__":
    raise SystemExit(run(variations(), TARGETS, KEEP))
