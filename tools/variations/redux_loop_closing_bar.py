"""The barrier that closes a Triton integer block reduction (`redux.sync; st.shared; bar.sync; ld.shared; [selp];
redux.sync; bar.sync; <tail>`) against the second-level REDUX when the reduction is the body of a persistent loop
(`for t in range(pid, n_tiles, NUM_SMS)`) or straight-line code: what follows the barrier (a guarded atomic, a
guarded red, a guarded store behind a barrier), whether the REDUX reads the shared load directly (max/min) or
through Triton's `selp` (sum/xor), the number of loads (docs/findings/scheduling.md "The barrier closing an
integer block reduction in a persistent loop (helper tredux38, stop 38)")."""
from __future__ import annotations

from pylower.tools.variations.redux_trailing_bar import HEAD, loads, reduction, tree
from pylower.tools.variations.table import run


def tail(kind: str, v: str) -> str:
    if kind == "atom":
        return (f"  bar.sync 0;\n  setp.eq.b32 %p21, %r1, 0;\n  mov.u32 %r120, 0x0;\n"
                f"  @%p21 atom.global.gpu.acq_rel.add.u32 %r120, [%rd2], {v};\n  bar.sync 0;\n")
    if kind == "atomrel":
        return (f"  bar.sync 0;\n  setp.eq.b32 %p21, %r1, 0;\n  mov.u32 %r120, 0x0;\n"
                f"  @%p21 atom.global.gpu.relaxed.max.s32 %r120, [%rd2], {v};\n  bar.sync 0;\n")
    if kind == "red":
        return f"  bar.sync 0;\n  setp.eq.b32 %p21, %r1, 0;\n  @%p21 red.global.gpu.relaxed.add.s32 [%rd2], {v};\n"
    if kind == "barst":
        return (f"  bar.sync 0;\n  setp.eq.b32 %p21, %r1, 0;\n  mul.wide.s32 %rd9, %r2, 4;\n"
                f"  add.s64 %rd10, %rd2, %rd9;\n  @%p21 st.global.b32 [%rd10], {v};\n")
    raise KeyError(kind)


TARGETS = ["sm_80", "sm_90", "sm_100a", "sm_120"]


def variations() -> dict[str, str]:
    out = {}
    for shape in ("loop", "straight"):
        for op in ("max", "add", "xor"):
            for v in (4, 8):
                for tk in ("atom", "atomrel", "red", "barst"):
                    body = loads(v, 10)
                    t, cur = tree(op, v, 10, 60 - 1)
                    body += t
                    r, res = reduction(op, cur, 80)
                    body += r + tail(tk, res)
                    if shape == "loop":
                        # Triton hoists the loop-invariant work (the lane tests of the selp and the guard, the shared addresses)
                        inv = [ln for ln in body.splitlines(True) if "%p20" in ln and "selp" not in ln
                               or "%r97, %r1, 28" in ln or "setp.eq.b32 %p21" in ln
                               or any(ln.startswith(f"  {o} %r9{k},") for o in ("shr.u32", "and.b32", "mov.b32",
                                                                                 "add.s32", "shl.b32") for k in range(7))]
                        body = "".join(ln for ln in body.splitlines(True) if ln not in inv)
                        body = ("".join(inv) + "  setp.ge.s32 %p30, %r2, %r3;\n  @%p30 bra DONE;\nLOOP:\n" + body +
                                "  add.s32 %r7, %r7, 4096;\n  add.s64 %rd4, %rd4, 16384;\n"
                                "  add.s32 %r2, %r2, 132;\n  setp.lt.s32 %p31, %r2, %r3;\n  @%p31 bra LOOP;\n"
                                "DONE:\n")
                    out[f"{shape}_{op}_v{v}_{tk}"] = HEAD + body + "  ret;\n}\n"
    return out


KEEP = frozenset({"REDUX", "CREDUX", "BAR", "BSSY", "ATOMG", "RED", "REDG", "STG"})

if __name__ == "__main__":
    raise SystemExit(run(variations(), TARGETS, KEEP))
