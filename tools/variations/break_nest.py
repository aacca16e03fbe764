"""An if whose paths meet at a block M before its post-dominator except for conditional branches straight out of it
(a `break` to the loop's exit or to code after it, a skip past the join): ptxas pairs the if to M inside the pair
around it, each leaving branch preceded by a BREAK of that pair, and (sm_80+) a WARPSYNC after the outer BSYNC
unless a uniform branch also skips to the outer join (docs/findings/convergence.md "An if left by a break or
continue gets a BREAK nest (helper nvreg38, stop 38)"). Loop shapes x where the break sits x what it runs."""
from __future__ import annotations

from pylower.tools.variations.table import run

HEAD = """.version 8.7
.target {target}
.address_size 64
.visible .entry k(.param .u64 pi, .param .u64 po, .param .u32 pn, .param .u32 pcap)
{
  .reg .pred %p<20>; .reg .b32 %r<60>; .reg .b64 %rd<20>;
  ld.param.u64 %rd1, [pi]; ld.param.u64 %rd2, [po]; ld.param.u32 %r1, [pn]; ld.param.u32 %r2, [pcap];
  cvta.to.global.u64 %rd3, %rd1; cvta.to.global.u64 %rd4, %rd2;
  mov.u32 %r3, %tid.x; mov.u32 %r4, %ctaid.x; mov.u32 %r5, %ntid.x;
  mad.lo.s32 %r6, %r4, %r5, %r3;
  setp.ge.s32 %p1, %r6, %r1;
  @%p1 bra RET;
  mul.wide.s32 %rd5, %r6, 4;
  add.s64 %rd6, %rd3, %rd5;
  add.s64 %rd7, %rd4, %rd5;
  ld.global.u32 %r10, [%rd6];
  mov.u32 %r11, 0;
  mov.u32 %r12, 0;
"""
TAIL = """J:
  st.global.u32 [%rd7], %r12;
RET:
  ret;
}
"""
# the loop's entry: a header test (while), a uniform count's skip (for), none (do), a divergent skip
ENTRY = {
    "while": "H:\n  setp.eq.s32 %p2, %r10, 1;\n  mov.u32 %r12, %r11;\n  @%p2 bra J;\n",
    "for": "  setp.lt.s32 %p6, %r2, 1;\n  @%p6 bra J;\nH:\n",
    "do": "H:\n",
    "skipdiv": "  setp.eq.s32 %p6, %r10, 0;\n  @%p6 bra J;\nH:\n",
}
LATCH = {
    "while": "  bra.uni H;\n",
    "for": "  setp.lt.s32 %p5, %r11, %r2;\n  @%p5 bra H;\n",
    "do": "  setp.lt.s32 %p5, %r11, %r2;\n  @%p5 bra H;\n",
    "skipdiv": "  setp.ne.s32 %p5, %r10, 1;\n  @%p5 bra H;\n",
}
ODD_TEST = "  and.b32 %r13, %r10, 1;\n  setp.eq.s32 %p3, %r13, 0;\n  @%p3 bra EVEN;\n"
ESC_THEN = "  setp.gt.u32 %p4, %r10, 1431655764;\n  mov.u32 %r12, -1;\n  @%p4 bra {esc};\n"
ESC_ELSE = "  setp.eq.s32 %p7, %r10, 0;\n  mov.u32 %r12, -2;\n  @%p7 bra {esc};\n"
ESC_UNI = "  setp.gt.s32 %p4, %r2, 1000;\n  mov.u32 %r12, -1;\n  @%p4 bra {esc};\n"
THEN = "  mad.lo.s32 %r10, %r10, 3, 1;\n"
ELSE = "  shr.u32 %r10, %r10, 1;\n"
NESTED = ("  setp.gt.u32 %p8, %r10, 1000;\n  @%p8 bra IN2;\n  add.s32 %r10, %r10, 2;\n  bra.uni M;\nIN2:\n"
          + ESC_THEN + THEN)
STORE = "  st.global.u32 [%rd7+4], %r10;\n"
LOAD = "  ld.global.u32 %r14, [%rd6+4];\n  add.s32 %r10, %r10, %r14;\n"


def body(esc: str, shape: str) -> str:
    e_then = ESC_THEN.replace("{esc}", esc)
    e_else = ESC_ELSE.replace("{esc}", esc)
    then, els = e_then + THEN, ELSE
    if shape == "else":
        then, els = THEN, e_else + ELSE
    elif shape == "both":
        els = e_else + ELSE
    elif shape == "nested":
        then = NESTED.replace("{esc}", esc)
    elif shape == "uniform":
        then = ESC_UNI.replace("{esc}", esc) + THEN
    elif shape == "uncond":          # `if (odd) { r = -1; break; }`: the arm only leaves (a plain loop exit)
        then = "  mov.u32 %r12, -1;\n  bra.uni " + esc + ";\n"
    elif shape == "store":
        then = e_then + THEN + STORE
    elif shape == "store_first":     # a store in the arm before its break
        then = STORE + e_then + THEN
    elif shape == "load":
        els = LOAD + ELSE
    return ODD_TEST + then + "  bra.uni M;\nEVEN:\n" + els + "M:\n"


def loop(entry: str, shape: str, brk: bool) -> str:
    esc = "BRK" if brk else "J"
    text = ENTRY[entry] + body(esc, shape) + "  add.s32 %r11, %r11, 1;\n" + LATCH[entry] + "  mov.u32 %r12, %r11;\n"
    if brk:
        text += "  bra.uni J;\nBRK:\n  neg.s32 %r12, %r11;\n  add.s32 %r12, %r12, %r10;\n"
    return text


def straight(m_work: str, skip: str, shape: str = "then") -> str:
    """`if (odd) { if (x > lim) goto J; x = 3x + 1; } else x >>= 1; M: <m_work>; J: out = r;`"""
    pre = "  setp.eq.s32 %p6, %r2, 0;\n  @%p6 bra J;\n" if skip == "uniform" else ""
    return pre + body("J", shape) + m_work


ROWS: dict[str, str] = {}
for entry in ENTRY:
    for shape in ("then", "else", "both", "nested", "uniform", "uncond", "store", "load"):
        if entry == "while" and shape == "uncond":
            continue        # a header-tested loop's plain exit: pylower pairs none from sm_90 (HEADER_EXIT_LOOP_PAIR)
        ROWS[f"{entry}_{shape}"] = loop(entry, shape, False)
    ROWS[f"{entry}_then_brk"] = loop(entry, "then", True)
ROWS["straight_store"] = straight("  st.global.u32 [%rd7+4], %r10;\n  mov.u32 %r12, 7;\n", "")
ROWS["straight_alu"] = straight("  add.s32 %r12, %r10, 5;\n", "")
ROWS["straight_alu6"] = straight("".join(f"  mad.lo.s32 %r{20 + k}, %r{19 + k if k else 10}, %r10, {k + 3};\n" for k in range(6))
                                 + "  add.s32 %r12, %r25, 5;\n", "")
ROWS["straight_alu_store_arm"] = straight("  add.s32 %r12, %r10, 5;\n", "", "store_first")
ROWS["straight_alu_load_arm"] = straight("  add.s32 %r12, %r10, 5;\n", "", "load")
ROWS["straight_store_uskip"] = straight("  st.global.u32 [%rd7+4], %r10;\n  mov.u32 %r12, 7;\n", "uniform")
TARGETS = ["sm_75", "sm_80", "sm_90", "sm_100a"]


def variations() -> dict[str, str]:
    return {name: HEAD + text + TAIL for name, text in ROWS.items()}


if __name__ == "__main__":
    raise SystemExit(run(variations(), TARGETS))
