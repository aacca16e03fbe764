"""A guarded named barrier (`if (c + 2 < n) bar.arrive id, cnt` of a producer/consumer ring) in a loop of divergent
code: does ptxas put a (predicated) WARPSYNC before it? Rows vary what the if holds besides the barrier (nothing, a
move of a constant, the one instruction making the barrier id from a value of before the if, unrelated work, two
instructions), arrive vs sync, a loop in a warp-specialised arm against straight code in the arm and a loop in
converged code (docs/findings/barrier.md "A guarded named barrier in a loop of divergent code re-converges (helper
nvwarp39, stop 39)")."""
from __future__ import annotations

from pylower.tools.variations.table import run

HEAD = """.version 8.7
.target {target}
.address_size 64
.visible .entry k(.param .u64 p0, .param .u32 n)
{
  .reg .pred %p<8>; .reg .b32 %r<40>; .reg .b64 %rd<8>;
  .shared .align 4 .b8 sm[1024];
  ld.param.u64 %rd1, [p0];
  ld.param.u32 %r30, [n];
  mov.u32 %r1, %tid.x;
  shl.b32 %r2, %r1, 2;
  mov.u32 %r3, sm;
  add.s32 %r4, %r3, %r2;
  mov.u32 %r10, 0;
  mov.u32 %r11, 0;
"""
ARM = "  setp.lt.u32 %p1, %r1, 32;\n  @%p1 bra DONE;\n"
# the barrier at the top of the iteration (register id from the counter's parity) and the consumer's work
TOP = """  and.b32 %r16, %r10, 1;
  add.s32 %r15, %r16, 1;
  bar.sync %r15, 64;
  ld.shared.u32 %r5, [%r4];
  add.s32 %r11, %r11, %r5;
  add.s32 %r12, %r10, 2;
  setp.ge.s32 %p2, %r12, %r30;
  @%p2 bra SKIP;
"""
# what the if holds
BODIES = {
    "lit": "bar.arrive 3, 64",
    "movimm": "mov.u32 %r13, 3; bar.arrive %r13, 64",
    "id_add": "add.s32 %r13, %r16, 3; bar.arrive %r13, 64",
    "id_selp": "setp.eq.s32 %p4, %r16, 0; selp.b32 %r13, 3, 4, %p4; bar.arrive %r13, 64",
    "id_add_sync": "add.s32 %r13, %r16, 3; bar.sync %r13, 64",
    "alu_lit": "add.s32 %r11, %r11, 7; bar.arrive 3, 64",
    "sts_lit": "st.shared.u32 [%r4+512], %r11; bar.arrive 3, 64",
    "id_and_add": "and.b32 %r14, %r10, 1; add.s32 %r13, %r14, 3; bar.arrive %r13, 64",
    "id_add_add": "add.s32 %r17, %r16, 1; add.s32 %r13, %r17, 2; bar.arrive %r13, 64",
}
TAIL_LOOP = """  add.s32 %r10, %r10, 1;
  setp.lt.s32 %p3, %r10, %r30;
  @%p3 bra LOOP;
"""
END = """DONE:
  cvt.u64.u32 %rd2, %r2;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r11;
  ret;
}
"""
CONTEXTS = {"arm_loop": (True, True), "arm_line": (True, False), "conv_loop": (False, True)}


def kernel(context: str, body: str) -> str:
    arm, loop = CONTEXTS[context]
    text = HEAD + (ARM if arm else "") + ("LOOP:\n" if loop else "") + TOP
    text += "".join(f"  {s.strip()};\n" for s in BODIES[body].split(";")) + "SKIP:\n"
    return text + (TAIL_LOOP if loop else "") + END


def variations() -> dict[str, str]:
    return {f"{c}_{b}": kernel(c, b) for c in CONTEXTS for b in BODIES}


TARGETS = ["sm_80", "sm_90"]

if __name__ == "__main__":
    raise SystemExit(run(variations(), TARGETS, keep=frozenset({"WARPSYNC", "BAR", "BSSY", "BSYNC"})))
