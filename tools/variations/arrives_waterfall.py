"""Which software cp.async.mbarrier.arrive (sm_80-89: VOTE.ALL, the leader's ATOMS.ADD, ARRIVES.LDGSTSBAR) ptxas
wraps in a BSSY/BSYNC pair: ARRIVES reads its mbarrier address from a uniform register, and an address ptxas
cannot keep uniform is taken one value per pass of an R2UR loop, the loop (with the ATOMS.ADD before it) in a
pair of its own (docs/findings/mbarrier.md "A per-thread cp.async.mbarrier.arrive address (helper nvreg39,
stop 39)"). Rows: <address source>/<shape>/<form>:
- address: const (the barrier symbol), off (symbol + 8), ctaid / param (a uniform index), half / warp / lane
  (an index from %tid), ldg (an index loaded from global memory);
- shape: straight (computed next to the arrive), divif (computed before a divergent if holding a cp.async, the
  arrive at its join), loop_use (a uniform loop's counter, computed at the arrive), loop_head (computed at the
  loop head, a divergent if with a cp.async between), loop_strided (a thread-strided copy loop between);
- form: plain, noinc (.noinc: no ATOMS.ADD), guarded (the arrive in a divergent if), two (two arrives in a row),
  samecopy (the cp.async in the arrive's block)."""
from __future__ import annotations

from pylower.tools.variations.table import run

HEAD = """.version 8.0
.target {target}
.address_size 64
.visible .entry k(.param .u64 p0, .param .u32 n)
{
  .reg .pred %p<8>; .reg .b32 %r<60>; .reg .b64 %rd<20>;
  .shared .align 8 .b8 bars[64];
  .shared .align 16 .b8 buf[8192];
  mov.u32 %r1, %tid.x;
  ld.param.u64 %rd1, [p0];
  ld.param.u32 %r2, [n];
  mov.u32 %r10, bars;
  mov.u32 %r11, buf;
  shl.b32 %r12, %r1, 2;
  add.s32 %r13, %r11, %r12;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  setp.ne.s32 %p1, %r1, 0;
  @%p1 bra INITED;
  mbarrier.init.shared.b64 [%r10], 128;
  mbarrier.init.shared.b64 [%r10+8], 128;
INITED:
  bar.sync 0;
"""
TAIL = """  mbarrier.arrive.shared.b64 %rd9, [%r10];
WAIT:
  mbarrier.test_wait.shared.b64 %p6, [%r10], %rd9;
  @!%p6 bra WAIT;
  ld.shared.u32 %r50, [%r13];
  st.global.u32 [%rd3], %r50;
  ret;
}
"""
# %r20 <- the barrier's address, from %r21 (an index 0..7)
INDEX = {
    "const": None,
    "off": "mov.u32 %r21, 1;",
    "ctaid": "mov.u32 %r22, %ctaid.x;\n  and.b32 %r21, %r22, 1;",
    "param": "and.b32 %r21, %r2, 3;",
    "half": "shr.u32 %r21, %r1, 7;",
    "warp": "shr.u32 %r21, %r1, 5;",
    "lane": "and.b32 %r21, %r1, 1;",
    "ldg": "ld.global.u32 %r22, [%rd1];\n  and.b32 %r21, %r22, 1;",
}


def _addr(src: str, counter: str | None = None) -> str:
    if counter is not None:
        return f"and.b32 %r21, {counter}, 1;\n  shl.b32 %r23, %r21, 3;\n  add.s32 %r20, %r10, %r23;\n"
    if INDEX[src] is None:
        return "mov.u32 %r20, %r10;\n"
    return INDEX[src] + "\n  shl.b32 %r23, %r21, 3;\n  add.s32 %r20, %r10, %r23;\n"


COPY = "cp.async.ca.shared.global [%r13], [%rd3], 4;\n"
DIVIF = "setp.ge.u32 %p2, %r1, 64;\n  @%p2 bra SKIP{n};\n  " + COPY + "SKIP{n}:\n"


def _arrive(form: str) -> str:
    if form == "noinc":
        return "  cp.async.mbarrier.arrive.noinc.shared.b64 [%r20];\n"
    if form == "guarded":
        return "  setp.ge.u32 %p3, %r1, 96;\n  @%p3 bra NOARR;\n  cp.async.mbarrier.arrive.shared.b64 [%r20];\nNOARR:\n"
    if form == "two":
        return "  cp.async.mbarrier.arrive.shared.b64 [%r20];\n  cp.async.mbarrier.arrive.shared.b64 [%r20+16];\n"
    if form == "samecopy":
        return "  " + COPY.replace("[%r13]", "[%r13+4096]") + "  cp.async.mbarrier.arrive.shared.b64 [%r20];\n"
    return "  cp.async.mbarrier.arrive.shared.b64 [%r20];\n"


def _straight(src: str, form: str) -> str:
    return HEAD + "  " + COPY + "  " + _addr(src) + _arrive(form) + TAIL


def _divif(src: str, form: str) -> str:
    return HEAD + "  " + _addr(src) + "  " + DIVIF.replace("{n}", "0") + _arrive(form) + TAIL


def _loop(shape: str, form: str, wait: str = "spin") -> str:
    """A loop over %r30 (nounroll) whose body ends waiting on the barrier: a spin on test_wait (a loop whose
    lanes may leave at different passes), that spin and a CTA barrier after it, or a divergent if (a store)."""
    body = {"loop_use": "  " + COPY + "  " + _addr("", "%r30"),
            "loop_head": "  " + _addr("", "%r30") + "  " + DIVIF.replace("{n}", "1"),
            "loop_strided": ("  mov.u32 %r31, %r1;\nSTRIDE:\n  shl.b32 %r32, %r31, 2;\n  add.s32 %r33, %r11, %r32;\n"
                             "  mul.wide.u32 %rd5, %r31, 4;\n  add.s64 %rd6, %rd1, %rd5;\n"
                             "  cp.async.ca.shared.global [%r33], [%rd6], 4;\n  add.s32 %r31, %r31, 128;\n"
                             "  setp.lt.u32 %p4, %r31, 1024;\n  @%p4 bra STRIDE;\n  " + _addr("", "%r30"))}[shape]
    spin = ("  mbarrier.arrive.shared.b64 %rd10, [%r20];\nSPIN:\n  mbarrier.test_wait.shared.b64 %p7, [%r20], %rd10;\n"
            "  @!%p7 bra SPIN;\n")
    end = {"spin": spin, "spin_bar": spin + "  bar.sync 0;\n",
           "divif": "  setp.eq.s32 %p7, %r1, %r30;\n  @!%p7 bra NOST;\n  st.global.u32 [%rd1], %r30;\nNOST:\n"}[wait]
    return (HEAD + "  mov.u32 %r30, 0;\nLOOP:\n  .pragma \"nounroll\";\n" + body + _arrive(form) + end +
            "  add.s32 %r30, %r30, 1;\n  setp.lt.s32 %p5, %r30, %r2;\n  @%p5 bra LOOP;\n" + TAIL)


def variations() -> dict[str, str]:
    rows = {}
    for src in INDEX:
        rows[f"{src}/straight/plain"] = _straight(src, "plain")
    for src in ("const", "ctaid", "param", "half", "warp"):
        rows[f"{src}/divif/plain"] = _divif(src, "plain")
    for shape in ("loop_use", "loop_head", "loop_strided"):
        for wait in ("spin", "spin_bar", "divif"):
            rows[f"counter/{shape}/plain_{wait}"] = _loop(shape, "plain", wait)
    for src in ("ctaid", "warp"):
        for form in ("noinc", "guarded", "two", "samecopy"):
            rows[f"{src}/straight/{form}"] = _straight(src, form)
    rows["counter/loop_head/samecopy"] = _loop("loop_head", "samecopy")
    return rows


TARGETS = ["sm_80", "sm_89"]
KEEP = frozenset({"BSSY", "BSYNC", "ATOMS", "ARRIVES", "LDGSTS", "VOTE", "BAR"})

if __name__ == "__main__":
    raise SystemExit(run(variations(), TARGETS, KEEP))
