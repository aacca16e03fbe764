"""nvcc's `count % 4` remainder prologue of a strided guarded-load copy (`for (i = t; i < W; i += 32) s[i] =
c(i) ? u[i] : 0`): a chain of load ifs `if (c_k) v_k = ld [a + 128k]; st v_k; if (rem == k + 1) goto J;` whose
exits all go to one join J (one pair, BSSY before the `rem == 0` skip). Which of the load ifs keep their own pair
(docs/findings/convergence.md "A load if whose join exits a remainder chain (helper nvreg37, stop 37)")."""
from __future__ import annotations

from pylower.tools.variations.table import run

HEAD = """.version 9.0
.target {target}
.address_size 64
.visible .entry k(.param .u64 px, .param .u64 po, .param .u32 pn, .param .u32 pm)
{
  .reg .pred %p<40>; .reg .b32 %r<80>; .reg .f32 %f<20>; .reg .b64 %rd<20>;
  .shared .align 4 .b8 sf[2048];
  ld.param.u64 %rd1, [px]; ld.param.u64 %rd9, [po]; ld.param.u32 %r2, [pn]; ld.param.u32 %r3, [pm];
  mov.u32 %r5, %tid.x; mov.u32 %r4, %ctaid.x; shl.b32 %r6, %r4, 8; add.s32 %r1, %r6, %r5;
  cvta.to.global.u64 %rd2, %rd1; cvta.to.global.u64 %rd10, %rd9;
  {rem}
  mul.wide.s32 %rd3, %r1, 4; add.s64 %rd12, %rd10, %rd3;
{load_addr}{addr_before}  mov.f32 %f10, 0f00000000;
  setp.eq.s32 %p1, %r7, 0;
  @%p1 bra J;
{load_addr_in}"""
REM = {
    "tid": "max.s32 %r8, %r5, 2; add.s32 %r9, %r8, 31; sub.s32 %r10, %r9, %r5; shr.u32 %r11, %r10, 5; "
           "add.s32 %r12, %r11, 1; and.b32 %r7, %r12, 3;",
    "param": "and.b32 %r7, %r3, 3;",
}
ADDR = "  mov.u32 %r40, sf; shl.b32 %r41, %r5, 2; add.s32 %r42, %r40, %r41;\n"
# nvcc's form in jacobi_tile: the row's base `s + j * 136` by a mad, then the column (4 instructions)
ADDR_MAD = "  mov.u32 %r40, sf; mad.lo.s32 %r43, %r3, 136, %r40; shl.b32 %r41, %r5, 2; add.s32 %r42, %r43, %r41;\n"


def link(k: int, store: str, work_first: bool, last: bool, guard: str, plain: bool = False,
         exit_to: str = "J") -> str:
    """The k-th load if of the chain, its join's store and (unless last) the exit test."""
    g = {"bound": f"  add.s32 %r{20 + k}, %r1, {32 * k};\n  setp.ge.s32 %p{10 + k}, %r{20 + k}, %r2;\n",
         "two": f"  add.s32 %r{20 + k}, %r1, {32 * k};\n  setp.ge.s32 %p{10 + k}, %r{20 + k}, %r2;\n"
                f"  setp.lt.s32 %p{30 + k}, %r{20 + k}, 0;\n  or.pred %p{10 + k}, %p{10 + k}, %p{30 + k};\n"}[guard]
    s = g + f"  mov.f32 %f{k}, 0f00000000;\n  @%p{10 + k} bra A{k};\n  ld.global.nc.f32 %f{k}, [%rd4+{128 * k}];\nA{k}:\n"
    if plain:
        s = f"  ld.global.nc.f32 %f{k}, [%rd4+{128 * k}];\n"
    if k == 0 and work_first:
        s += ADDR_MAD if work_first == "mad" else ADDR
    if store == "sts":
        s += f"  st.shared.f32 [%r42+{128 * k}], %f{k};\n"
    elif store == "stg":
        s += f"  st.global.f32 [%rd12+{128 * k}], %f{k};\n"
    elif store == "add":
        s += f"  add.f32 %f10, %f10, %f{k};\n"
    if not last:
        s += f"  setp.eq.s32 %p{20 + k}, %r7, {k + 1};\n  @%p{20 + k} bra {exit_to};\n"
    return s


# nvcc's main loop after the remainder: four load ifs a trip, `if (count < 4) skip` before it
MAIN = """J:
  setp.lt.u32 %p38, %r10, 96;
  @%p38 bra E;
  mov.u32 %r61, %r1;
  mov.u32 %r62, %r42;
M:
""" + "".join(f"""  add.s32 %r{63 + k}, %r61, {32 * k};
  setp.ge.s32 %p{34 + k}, %r{63 + k}, %r2;
  mul.wide.s32 %rd{13 + k}, %r{63 + k}, 4;
  add.s64 %rd{13 + k}, %rd2, %rd{13 + k};
  mov.f32 %f{14 + k}, 0f00000000;
  @%p{34 + k} bra M{k};
  ld.global.nc.f32 %f{14 + k}, [%rd{13 + k}];
M{k}:
  st.shared.f32 [%r62+{128 * k}], %f{14 + k};
""" for k in range(4)) + """  add.s32 %r61, %r61, 128;
  add.s32 %r62, %r62, 512;
  setp.lt.s32 %p39, %r61, %r3;
  @%p39 bra M;
E:
"""
TAIL = {
    "sts": "J:\n  bar.sync 0;\n  ld.shared.f32 %f18, [%r42+4];\n  st.global.f32 [%rd12], %f18;\n  ret;\n}\n",
    "stg": "J:\n  ret;\n}\n",
    "add": "J:\n  st.global.f32 [%rd12], %f10;\n  ret;\n}\n",
}


def kernel(n: int, store: str, work_first: bool, rem: str = "tid", guard: str = "two", plain: bool = False,
           shape: str = "chain", load_addr_in_first: bool = False, main: bool = False) -> str:
    """shape: "chain" (every exit to J), "nested" (the exits go to their own joins: `if (rem != k + 1) { ... }`
    nested ifs, each with its own join before J), "seq" (no exit tests: load ifs in a row)."""
    addr_before = "" if work_first else ADDR
    if shape == "seq":
        body = "".join(link(k, store, work_first, True, guard) for k in range(n))
    elif shape == "nested":
        body = "".join(link(k, store, work_first, k == n - 1, guard, plain=plain and k > 0, exit_to=f"N{k}")
                       for k in range(n)) \
            + "".join(f"N{k}:\n  st.shared.u32 [sf+{1024 + 4 * k}], %r5;\n" for k in reversed(range(n - 1)))
    else:
        body = "".join(link(k, store, work_first, k == n - 1, guard, plain=plain and k > 0) for k in range(n))
    la = "  add.s64 %rd4, %rd2, %rd3;\n"
    tail = TAIL[store if store in TAIL else "stg"]
    if main:
        tail = MAIN + tail[len("J:\n"):]
    return HEAD.replace("{rem}", REM[rem]).replace("{addr_before}", addr_before) \
        .replace("{load_addr}", "" if load_addr_in_first else la).replace("{load_addr_in}", la if load_addr_in_first else "") + body + tail


ROWS = {
    "chain3_sts": dict(n=3, store="sts", work_first=False),
    "chain3_sts_addr_first": dict(n=3, store="sts", work_first=True),
    "chain3_sts_addr_mad_first": dict(n=3, store="sts", work_first="mad"),
    "chain3_sts_addr_mad_first_load_addr": dict(n=3, store="sts", work_first="mad", load_addr_in_first=True),
    "chain3_sts_load_addr": dict(n=3, store="sts", work_first=False, load_addr_in_first=True),
    "chain3_sts_main": dict(n=3, store="sts", work_first=False, main=True),
    "chain3_sts_addr_mad_first_main": dict(n=3, store="sts", work_first="mad", main=True),
    "chain2_sts": dict(n=2, store="sts", work_first=False),
    "chain4_sts": dict(n=4, store="sts", work_first=False),
    "chain3_stg": dict(n=3, store="stg", work_first=False),
    "chain3_sts_param_rem": dict(n=3, store="sts", work_first=False, rem="param"),
    "chain3_sts_bound": dict(n=3, store="sts", work_first=False, guard="bound"),
    "chain3_sts_plain_next": dict(n=3, store="sts", work_first=False, plain=True),
    "nested3_sts": dict(n=3, store="sts", work_first=False, shape="nested"),
    "nested3_sts_plain_next": dict(n=3, store="sts", work_first=False, shape="nested", plain=True),
    "chain3_add": dict(n=3, store="add", work_first=False),
    "nested3_add": dict(n=3, store="add", work_first=False, shape="nested"),
    "seq3_sts": dict(n=3, store="sts", work_first=False, shape="seq"),
}
TARGETS = ["sm_75", "sm_80", "sm_90", "sm_100a"]


def variations() -> dict[str, str]:
    return {name: kernel(**kw) for name, kw in ROWS.items()}


if __name__ == "__main__":
    raise SystemExit(run(variations(), TARGETS))
