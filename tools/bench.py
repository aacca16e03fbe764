"""Speed benchmark: end-to-end instructions per second on generated kernels, and the ratio to ptxas.

    python -m pylower.tools.bench                  # 10k, 100k, 1M instructions
    python -m pylower.tools.bench --sizes 10000 100000 --no-ptxas

For each size it writes a generated PTX kernel (a mix of loads/stores, integer and float arithmetic,
barriers, shuffles, votes and atomics), times parse+build in-process, and times the whole `pylower` command
(start-up to written output) and `ptxas -arch=sm_90` (-O3, the default) on the same file, side by side.
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tabulate import tabulate

_BODY = [
    "ld.global.u32 %r{a}, [%rd1+{off}];",
    "add.s32 %r{b}, %r{a}, %r{c};",
    "mad.lo.s32 %r{c}, %r{b}, 3, %r{a};",
    "st.shared.u32 [%r{s}+{soff}], %r{c};",
    "shfl.sync.bfly.b32 %r{a}, %r{c}, 1, 31, -1;",
    "fma.rn.f32 %f{fa}, %f{fb}, %f{fa}, 0f3F800000;",
    "setp.lt.s32 %p1, %r{a}, %r{b};",
    "selp.b32 %r{b}, %r{a}, %r{c}, %p1;",
    "ld.shared.u32 %r{a}, [%r{s}+{soff}];",
    "st.global.u32 [%rd1+{off}], %r{b};",
]


def generate(n: int) -> str:
    lines = [".version 9.0", ".target sm_90", ".address_size 64", "",
             ".visible .entry bench(.param .u64 p)", "{", "\t.reg .pred %p<4>;", "\t.reg .b32 %r<64>;",
             "\t.reg .f32 %f<16>;", "\t.reg .b64 %rd<4>;", "\t.shared .align 4 .b8 smem[4096];",
             "\tld.param.u64 %rd1, [p];", "\tmov.u32 %r1, smem;", "\tmov.u32 %r60, %tid.x;",
             "\tmov.f32 %f1, 0f3F800000;"]
    for i in range(16):
        lines.append(f"\tmov.f32 %f{i}, 0f3F800000;")
    for i in range(32):
        lines.append(f"\tmov.u32 %r{i}, {i};")
    k = 0
    while k < n:
        i = k
        if i % 97 == 0:
            lines.append("\tbar.sync 0;")
        elif i % 89 == 0:
            lines.append(f"\tatom.shared.add.u32 %r{i % 32}, [%r1+{(i * 4) % 4096}], 1;")
        elif i % 83 == 0:
            lines.append("\tvote.sync.ballot.b32 %r5, %p1, -1;")
        else:
            t = _BODY[i % len(_BODY)]
            lines.append("\t" + t.format(a=i % 32, b=(i + 7) % 32, c=(i + 13) % 32, s=1, off=(i * 4) % 65536,
                                         soff=(i * 4) % 4096, fa=i % 16, fb=(i + 5) % 16))
        k += 1
    lines += ["\tret;", "}", ""]
    return "\n".join(lines)


def _time(cmd) -> float:
    t0 = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True)
    dt = time.perf_counter() - t0
    if p.returncode != 0:
        raise RuntimeError(f"{cmd[0]} failed: {p.stderr.strip()[:500]}")
    return dt


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", nargs="+", type=int, default=[10_000, 100_000, 1_000_000])
    ap.add_argument("--no-ptxas", action="store_true")
    ap.add_argument("--ptxas-max", type=int, default=100_000, help="largest size also timed with ptxas")
    a = ap.parse_args(argv)
    from pylower.lowering import build, parser
    from pylower.lowering.target import parse_target
    from pylower.tools.ptxas_ref import find_tool
    ptxas = None if a.no_ptxas else find_tool("ptxas")
    rows = []
    with tempfile.TemporaryDirectory() as td:
        for n in a.sizes:
            src = Path(td) / f"bench_{n}.ptx"
            text = generate(n)
            src.write_text(text)
            t0 = time.perf_counter()
            build.build(parser.parse(text, str(src)), parse_target("sm_90"))
            t_pb = time.perf_counter() - t0
            t_all = _time([sys.executable, "-m", "pylower.tools.pylower", str(src), "--arch", "sm_90",
                           "-o", str(Path(td) / "out.sass")])
            t_ptxas = None
            if ptxas and n <= a.ptxas_max:
                t_ptxas = _time([ptxas, "-arch=sm_90", str(src), "-o", str(Path(td) / "out.cubin")])
            rows.append([n, f"{t_pb:.2f}", f"{n / t_pb:,.0f}", f"{t_all:.2f}", f"{n / t_all:,.0f}",
                         f"{t_ptxas:.2f}" if t_ptxas else "-",
                         f"{t_all / t_ptxas:.2f}" if t_ptxas else "-"])
            print(f"  {n} instructions done", file=sys.stderr)
    print(tabulate(rows, headers=["PTX instrs", "parse+build s", "parse+build instr/s", "pylower s",
                                  "pylower instr/s", "ptxas -O3 s", "pylower/ptxas"], tablefmt="github"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
