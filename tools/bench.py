"""Speed and memory of pylower side by side with ptxas, whole process as a user runs them, in one run.

    python -m pylower.tools.bench                         # every suite, 5 alternating runs each
    python -m pylower.tools.bench probe corpus -n 3       # some suites
    python -m pylower.tools.bench --write docs/performance.md

Suites (each input is compiled by `pylower IN --arch sm_90 -o OUT` and `ptxas -arch=sm_90 IN -o OUT` (-O3, the
default), alternating A B A B ..., and the median of each is reported with the instructions per second, the
ratio pylower/ptxas and both peak RSS values (the child's own accounting, from wait4):
- probe:   a one-instruction kernel (start-up);
- corpus:  every real kernel of tests/corpus/{triton,nvcc,llvm,numba}, each compiled for the target it was made
           for; per-file ratios, their median and the worst file;
- modules: realistic multi-kernel modules at 10k, 100k and 1M PTX instructions: real kernel bodies from the
           corpus (renamed apart) and nvcc-shaped generated kernels (loops, barriers, mbarriers, atomics,
           divergent regions, warp collectives), ~5k instructions each;
- kernel:  one 100k-instruction nvcc-shaped kernel;
- batch:   throughput on the corpus's real kernels: `pylower FILES... --arch T -o DIR -j N` (one run per
           target the files were made for) against ptxas compiling the same files one after another;
- scaling: each shape (one kernel; a module of kernels; many divergent if-regions in one function; labels each
           followed by a divergent branch) doubled four times: pylower's time and peak RSS growth per doubling
           (2.0 is linear).
ptxas runs only where it is on PATH; --max-ptxas caps the sizes it is asked to compile. pylower runs from this
checkout, byte-compiled first (as `pip install` does): as the `pylower` command pip writes into a fresh venv
whose interpreter finds the checkout as a plain package (`--install venv`, the default: the start-up a user's
install has), or as `python -m pylower.tools.pylower` by this interpreter with its site-packages as they are
(`--install checkout`). The load
average of the machine is printed at the start and end: alternating runs share the load, but a busy machine
still adds noise to both sides.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "corpus"
REAL = ("triton", "nvcc", "llvm", "numba")
SUITES = ("probe", "corpus", "modules", "kernel", "batch", "scaling")

# ---------------------------------------------------------------- running and measuring


_CPU: list[float] = []          # CPU seconds (user + system) of the last _run


def _run(cmd: list[str], check: bool = True) -> tuple[float, int]:
    """(wall seconds, peak RSS in KiB) of one whole process; its CPU time goes to _CPU[-1]."""
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(p.pid, 0)
    dt = time.perf_counter() - t0
    err = p.stderr.read().decode(errors="replace") if p.stderr else ""
    p.stderr.close()
    p.returncode = os.waitstatus_to_exitcode(status)
    _CPU[:] = [usage.ru_utime + usage.ru_stime]
    if p.returncode != 0 and check:
        raise RuntimeError(f"{' '.join(cmd[:3])} ... failed ({p.returncode}): {err.strip()[-400:]}")      # the error comes after any warnings
    return dt, usage.ru_maxrss


def _pylower_cmd(tmp: Path, install: str) -> list[str]:
    """This checkout's pylower (an installed `pylower` script may be another checkout, or a slow shim),
    byte-compiled first as `pip install` does (with PYTHONDONTWRITEBYTECODE set nothing else would).

    install="venv": the `pylower` command (the entry-point script pip writes) of a fresh virtual environment
    whose interpreter finds this checkout as a plain package and the dependencies on a path line, as a user's
    `pip install pylower` in a venv would have them:
    the interpreter's start-up then processes no `.pth` file but its own. The developer's interpreter may run
    several (an editable install's import finder, which imports pathlib and importlib.resources; whatever the
    machine adds) before pylower's first line: on this machine they take three times ptxas's whole run.
    install="checkout": this interpreter, as it is (`python -m pylower.tools.pylower`)."""
    import compileall
    compileall.compile_dir(str(ROOT), quiet=2, rx=re.compile(r"/(tests|\.git)/"))
    if install == "checkout":
        return [sys.executable, "-m", "pylower.tools.pylower"]
    import bitarray
    venv = tmp / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    packages = tmp / "packages"
    packages.mkdir()
    (packages / "pylower").symlink_to(ROOT)
    site = next(venv.glob("lib/python*/site-packages"))
    deps = Path(bitarray.__file__).resolve().parent.parent
    (site / "pylower-bench.pth").write_text(f"{packages}\n{deps}\n")     # path lines only: nothing imported
    # the `pylower` command as pip writes it for the entry point ([project.scripts] in pyproject.toml)
    script = venv / "bin" / "pylower"
    script.write_text(f"#!{venv / 'bin' / 'python'}\n# -*- coding: utf-8 -*-\nimport re\nimport sys\n"
                      "from pylower.tools.pylower import main\nif __name__ == '__main__':\n"
                      "    sys.argv[0] = re.sub(r'(-script\\.pyw|\\.exe)?$', '', sys.argv[0])\n    sys.exit(main())\n")
    script.chmod(0o755)
    return [str(script)]


def _load() -> str:
    try:
        return " / ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "?"


class Bench:
    def __init__(self, repeat: int, max_ptxas: int, arch: str = "sm_90", install: str = "venv"):
        from pylower.tools.ptxas_ref import find_tool
        self.repeat, self.max_ptxas, self.arch = repeat, max_ptxas, arch
        self.ptxas = find_tool("ptxas")
        self.tmp = Path(tempfile.mkdtemp(prefix="pylower-bench-"))
        self.pylower = _pylower_cmd(self.tmp, install)
        self.python = sys.executable if install == "checkout" else str(self.tmp / "venv" / "bin" / "python")

    def close(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def pair(self, src: Path, n: int, arch: str | None = None, ptxas: bool = True) -> dict:
        """Median wall time and peak RSS of pylower and ptxas on one input, alternating."""
        arch = arch or self.arch
        a = self.pylower + [str(src), "--arch", arch, "-o", str(self.tmp / "out.sass")]
        b = [self.ptxas, f"-arch={arch}", str(src), "-o", str(self.tmp / "out.cubin")] \
            if ptxas and self.ptxas and n <= self.max_ptxas else None
        ta, ra, tb, rb, ca, cb = [], [], [], [], [], []
        if n <= 50_000:                             # warm-up (file cache); a big input's first run is no different
            _run(a)
            if b:
                _run(b)
        for _ in range(self.repeat):
            t, r = _run(a)
            ta.append(t)
            ra.append(r)
            ca.append(_CPU[0])
            if b:
                t, r = _run(b)
                tb.append(t)
                rb.append(r)
                cb.append(_CPU[0])
        out = {"n": n, "pylower_s": statistics.median(ta), "pylower_rss": max(ra)}
        if b:
            out.update(ptxas_s=statistics.median(tb), ptxas_rss=max(rb),
                       ratio=statistics.median(x / y for x, y in zip(ta, tb)),
                       cpu_ratio=statistics.median(x / max(y, 1e-3) for x, y in zip(ca, cb)))
        return out

# ---------------------------------------------------------------- inputs


def count_instructions(text: str) -> int:
    """PTX instructions (statements ending in ';' that are not declarations or directives)."""
    n = 0
    for line in text.splitlines():
        s = line.strip()
        if not s or s.startswith(("//", ".", "{", "}")) or s.endswith(":"):
            continue
        n += s.count(";")
    return n


PROBE = """.version 9.0
.target sm_90
.address_size 64
.visible .entry probe()
{
\tbar.sync 0;
\tret;
}
"""


def nvcc_shaped(name: str, n: int, seed: int = 0, regions: bool = True) -> str:
    """An nvcc-shaped kernel of about n PTX instructions: a grid-stride loop of blocks with loads/stores,
    integer and float arithmetic, CTA barriers, shuffles and votes, shared and global atomics, mbarrier
    arrive/wait and divergent if-regions on the thread index."""
    out = [f".visible .entry {name}(.param .u64 {name}_p, .param .u32 {name}_n)", "{",
           "\t.reg .pred %p<8>;", "\t.reg .b32 %r<64>;", "\t.reg .f32 %f<16>;", "\t.reg .b64 %rd<16>;",
           "\t.shared .align 8 .b64 mbar;", "\t.shared .align 4 .b8 smem[4096];",
           f"\tld.param.u64 %rd1, [{name}_p];", f"\tld.param.u32 %r50, [{name}_n];", "\tmov.u32 %r60, %tid.x;",
           "\tmov.u32 %r61, %ctaid.x;", "\tmov.u32 %r1, smem;", "\tmov.u32 %r2, mbar;",
           "\tsetp.eq.u32 %p5, %r60, 0;", "\t@%p5 mbarrier.init.shared.b64 [mbar], 32;", "\tbar.sync 0;",
           "\tmov.u32 %r51, 0;", "$LOOP:"]
    k = len(out)
    i = seed
    while len(out) - k < n - 20:
        r = i % 23
        a, b, c = i % 32, (i + 7) % 32, (i + 13) % 32
        off, soff = (i * 4) % 65536, (i * 4) % 4096
        if r == 0:
            out.append("\tbar.sync 0;")
        elif r == 1 and regions:
            lab = f"$SKIP{i}"
            out += [f"\tsetp.lt.u32 %p1, %r60, {(i % 8 + 1) * 16};", f"\t@!%p1 bra {lab};",
                    f"\tld.global.u32 %r{a}, [%rd1+{off}];", f"\tadd.s32 %r{b}, %r{a}, 1;",
                    f"\tst.shared.u32 [%r1+{soff}], %r{b};", f"{lab}:"]
        elif r == 2:
            out.append(f"\tatom.shared.add.u32 %r{a}, [%r1+{soff}], 1;")
        elif r == 3:
            out.append(f"\tred.global.add.u32 [%rd1+{off}], %r{b};")
        elif r == 4:
            out.append(f"\tshfl.sync.bfly.b32 %r{a}, %r{c}, 1, 31, -1;")
        elif r == 5:
            out.append("\tvote.sync.ballot.b32 %r5, %p1, -1;")
        elif r == 6:
            out += ["\tmbarrier.arrive.shared.b64 %rd5, [mbar];", f"$W{i}:",
                    "\tmbarrier.test_wait.shared.b64 %p2, [mbar], %rd5;", f"\t@!%p2 bra $W{i};"]
        elif r in (7, 8, 9):
            out.append(f"\tld.global.u32 %r{a}, [%rd1+{off}];")
        elif r in (10, 11):
            out.append(f"\tst.global.u32 [%rd1+{off}], %r{b};")
        elif r in (12, 13, 14):
            out.append(f"\tmad.lo.s32 %r{c}, %r{b}, 3, %r{a};")
        elif r in (15, 16):
            out.append(f"\tfma.rn.f32 %f{i % 16}, %f{(i + 5) % 16}, %f{i % 16}, 0f3F800000;")
        elif r == 17:
            out.append(f"\tsetp.lt.s32 %p1, %r{a}, %r{b};")
        elif r == 18:
            out.append(f"\tselp.b32 %r{b}, %r{a}, %r{c}, %p1;")
        elif r == 19:
            out.append(f"\tld.shared.u32 %r{a}, [%r1+{soff}];")
        else:
            out.append(f"\tadd.s32 %r{b}, %r{a}, %r{c};")
        i += 1
    out += ["\tadd.s32 %r51, %r51, 1;", "\tsetp.lt.s32 %p3, %r51, %r50;", "\t@%p3 bra $LOOP;",
            "\tst.global.u32 [%rd1], %r5;", "\tret;", "}"]
    return "\n".join(out) + "\n"


def header(target: str = "sm_90") -> str:
    return f".version 9.0\n.target {target}\n.address_size 64\n\n"


_ENTRY_RE = re.compile(r"^\.visible\s+\.entry\s+(\w+)", re.M)
_MODULE_DECL_RE = re.compile(r"^\s*(?:\.visible\s+|\.extern\s+|\.weak\s+)?\.(?:global|shared|const)\b[^;]*?(\w+)\s*(?:\[|;|=)",
                             re.M)


def real_bodies() -> list[str]:
    """Self-contained real kernel files the sm_90 ptxas accepts (from the stored references), their text
    after the header: every entry is renamed per use (`rename`)."""
    from pylower.tools.refresh_reference import read_reference, reference_path
    out = []
    for src in sorted((CORPUS / "nvcc").glob("*.ptx")) + sorted((CORPUS / "llvm").glob("*.ptx")):
        ref = reference_path(src)
        if not ref.exists():
            continue
        r = read_reference(ref)["targets"].get("sm_90")
        text = src.read_text()
        if not r or not r["accepted"] or ".func" in text or ".extern" in text or "//@" in text:
            continue
        body = text[text.index(".address_size"):].split("\n", 1)[1]
        out.append(body)
    return out


def rename(body: str, k: int) -> str:
    names = set(_ENTRY_RE.findall(body)) | set(_MODULE_DECL_RE.findall(body))
    for name in sorted(names, key=len, reverse=True):
        # not an opcode or a modifier of the same spelling (a variable `bar` and `bar.sync`)
        body = re.sub(rf"(?<![\w$%.]){re.escape(name)}(?![\w$.])", f"{name}_m{k}", body)
    return body


# Debug information a module can hold once only: `.file N` indices and the labels of its .section contents
# (ptxas: "Duplicate file index #1", "Duplicate definition of label '$L__info_string0'").
_ONCE_ONLY_RE = re.compile(r"^\s*\.(?:file|section)\b", re.M)


def module(n: int, bodies: list[str]) -> str:
    """A module of about n instructions: real kernel bodies (in turn) and nvcc-shaped kernels, alternating.
    Of the bodies with debug information only the first one is used (a module holds one)."""
    parts, total, k, i, debug = [header()], 0, 0, 0, False
    while total < n:
        if bodies and k % 2 == 0:
            while debug and _ONCE_ONLY_RE.search(bodies[i % len(bodies)]):
                i += 1
            body = bodies[i % len(bodies)]
            debug = debug or bool(_ONCE_ONLY_RE.search(body))
            b = rename(body, k)
            i += 1
        else:
            b = nvcc_shaped(f"gen_m{k}", min(5000, max(200, n - total)), seed=k)
        parts.append(b)
        total += count_instructions(b)
        k += 1
    return "\n".join(parts)


def many_regions(n: int) -> str:
    """One function with n/6 divergent if-regions (the shape that used to be quadratic)."""
    out = [".visible .entry regions(.param .u64 p)", "{", "\t.reg .pred %p<4>;", "\t.reg .b32 %r<8>;",
           "\t.reg .b64 %rd<4>;", "\tld.param.u64 %rd1, [p];", "\tmov.u32 %r1, %tid.x;"]
    for i in range(max(1, n // 6)):
        out += [f"\tsetp.lt.u32 %p1, %r1, {i % 31 + 1};", f"\t@%p1 bra $L{i};", f"\tld.global.u32 %r2, [%rd1+{i * 4 % 4096}];",
                "\tadd.s32 %r3, %r3, %r2;", f"\tst.global.u32 [%rd1+{i * 4 % 4096}], %r3;", f"$L{i}:"]
    out += ["\tst.global.u32 [%rd1], %r3;", "\tret;", "}"]
    return header() + "\n".join(out) + "\n"


def labels_and_branches(n: int) -> str:
    """Labels each followed by a divergent branch (a chain of tiny blocks)."""
    out = [".visible .entry labels(.param .u64 p)", "{", "\t.reg .pred %p<4>;", "\t.reg .b32 %r<8>;",
           "\t.reg .b64 %rd<4>;", "\tld.param.u64 %rd1, [p];", "\tmov.u32 %r1, %tid.x;",
           "\tsetp.lt.u32 %p1, %r1, 7;"]
    m = max(1, n // 2)
    for i in range(m):
        out += [f"$B{i}:", f"\t@%p1 bra $B{i + 1};", "\tadd.s32 %r2, %r2, 1;"]
    out += [f"$B{m}:", "\tst.global.u32 [%rd1], %r2;", "\tret;", "}"]
    return header() + "\n".join(out) + "\n"

# ---------------------------------------------------------------- suites


def _row(name: str, r: dict) -> list:
    n = r["n"]
    row = [name, n, f"{r['pylower_s']:.3f}", f"{n / r['pylower_s']:,.0f}", f"{r['pylower_rss'] / 1024:.0f}"]
    if "ptxas_s" in r:
        row += [f"{r['ptxas_s']:.3f}", f"{n / r['ptxas_s']:,.0f}", f"{r['ptxas_rss'] / 1024:.0f}", f"{r['ratio']:.2f}",
                f"{r['cpu_ratio']:.2f}"]
    else:
        row += ["-", "-", "-", "-", "-"]
    return row


HEAD = ["input", "PTX instrs", "pylower s", "pylower instr/s", "pylower MiB", "ptxas s", "ptxas instr/s",
        "ptxas MiB", "pylower/ptxas", "CPU-time ratio"]


def suite_probe(b: Bench) -> tuple[str, list]:
    src = b.tmp / "probe.ptx"
    src.write_text(PROBE)
    rows = [_row("probe", b.pair(src, 1))]
    # the floor: the same interpreter starting and exiting (its site-packages' .pth files included), nothing
    # imported
    ts = []
    for _ in range(max(3, b.repeat)):
        ts.append(_run([b.python, "-c", "pass"])[0])
    rows.append(["(python -c pass)", 0, f"{statistics.median(ts):.3f}", "-", "-", "-", "-", "-", "-", "-"])
    return "(a) one-instruction probe", rows


def suite_corpus(b: Bench, limit: int | None = None) -> tuple[str, list, dict]:
    files = [p for s in REAL for p in sorted((CORPUS / s).glob("*.ptx"))]
    if limit:
        files = files[::max(1, len(files) // limit)]
    rows, ratios = [], []
    for f in files:
        text = f.read_text()
        m = re.search(r"^\s*\.target\s+(sm_\w+)", text, re.M)
        try:
            r = b.pair(f, count_instructions(text), arch=m.group(1) if m else "sm_90")
        except RuntimeError as e:
            print(f"  skipped {f.name}: {e}", file=sys.stderr)
            continue
        if "ratio" in r:
            ratios.append((r["ratio"], f.relative_to(CORPUS), r["cpu_ratio"]))
        rows.append(_row(str(f.relative_to(CORPUS)), r))
    summary = {}
    if ratios:
        rs = sorted(ratios)
        summary = {"files": len(rs), "median": statistics.median(x for x, _, _ in rs), "worst": rs[-1][0],
                   "worst_file": str(rs[-1][1]), "above_1": sum(1 for x, _, _ in rs if x > 1.0),
                   "best": rs[0][0], "cpu_median": statistics.median(c for _, _, c in rs)}
    return "(b) every real kernel of the corpus", rows, summary


def suite_modules(b: Bench, sizes=(10_000, 100_000, 1_000_000)) -> tuple[str, list]:
    bodies = real_bodies()
    rows = []
    for n in sizes:
        src = b.tmp / f"module_{n}.ptx"
        text = module(n, bodies)
        src.write_text(text)
        rows.append(_row(f"module {n // 1000}k", b.pair(src, count_instructions(text))))
    return "(c) multi-kernel modules (real kernel bodies and nvcc-shaped kernels)", rows


def suite_kernel(b: Bench, n: int = 100_000) -> tuple[str, list]:
    src = b.tmp / "kernel.ptx"
    text = header() + nvcc_shaped("big", n)
    src.write_text(text)
    return "(d) one 100k-instruction kernel", [_row("kernel 100k", b.pair(src, count_instructions(text)))]


def _corpus_by_target() -> dict[str, list[Path]]:
    groups: dict[str, list[Path]] = {}
    for f in (p for s in REAL for p in sorted((CORPUS / s).glob("*.ptx"))):
        m = re.search(r"^\s*\.target\s+(sm_\w+)", f.read_text(), re.M)
        groups.setdefault(m.group(1) if m else "sm_90", []).append(f)
    return groups


def suite_batch(b: Bench, jobs=(1, 2)) -> tuple[str, list, str]:
    """Files per second: pylower's batch mode (one run per target group) against ptxas one file at a time,
    alternating whole rounds, over every real kernel file (the few either side rejects included)."""
    ok = _corpus_by_target()       # every file, accepted or not by either side (a rejection costs time too)
    n = sum(len(v) for v in ok.values())
    instrs = sum(count_instructions(f.read_text()) for v in ok.values() for f in v)

    def pylower_round(j: int) -> tuple[float, float]:
        t = c = 0.0
        for arch, files in ok.items():
            t += _run(b.pylower + [str(f) for f in files] + ["--arch", arch, "-o", str(b.tmp / "batch"),
                                                              "-j", str(j)], check=False)[0]
            c += _CPU[0]                  # the workers' CPU time is in it (reaped children count)
        return t, c

    def ptxas_round() -> tuple[float, float]:
        t = c = 0.0
        for arch, files in ok.items():
            for f in files:
                t += _run([b.ptxas, f"-arch={arch}", str(f), "-o", str(b.tmp / "one.cubin")], check=False)[0]
                c += _CPU[0]
        return t, c

    times: dict[str, list[tuple[float, float]]] = {f"pylower -j {j}": [] for j in jobs}
    if b.ptxas:
        times["ptxas, one file after another"] = []
    for _ in range(max(1, b.repeat)):
        for j in jobs:
            times[f"pylower -j {j}"].append(pylower_round(j))
        if b.ptxas:
            times["ptxas, one file after another"].append(ptxas_round())
    rows = []
    ref = times.get("ptxas, one file after another")
    base = statistics.median(t for t, _ in ref) if ref else None
    base_cpu = statistics.median(c for _, c in ref) if ref else None
    for name, ts in times.items():
        t = statistics.median(x for x, _ in ts)
        c = statistics.median(y for _, y in ts)
        rows.append([name, n, f"{t:.2f}", f"{n / t:.1f}", f"{instrs / t:,.0f}",
                     f"{base / t:.2f}" if base else "-", f"{c:.2f}", f"{base_cpu / c:.2f}" if base_cpu else "-"])
    extra = (f"{n} real kernel files ({instrs:,} PTX instructions) in {len(ok)} target groups, "
             f"{max(1, b.repeat)} alternating rounds, medians; "
             "speed-up = ptxas's time / this time (higher is faster).")
    return "(e) batch throughput on the corpus", rows, extra


BATCH_HEAD = ["command", "files", "seconds", "files/s", "PTX instr/s", "speed-up vs ptxas", "CPU seconds",
              "CPU speed-up vs ptxas"]


SHAPES = {
    "one kernel": lambda n: header() + nvcc_shaped("k", n),
    "module of kernels": lambda n: module(n, []),
    "divergent if-regions": many_regions,
    "labels + divergent branches": labels_and_branches,
}


def suite_scaling(b: Bench, start: int = 12_500, steps: int = 5, shapes: list[str] | None = None) -> tuple[str, list]:
    """pylower alone (ptxas is not the subject here): time and RSS growth per doubling."""
    rows = []
    for name, make in SHAPES.items():
        if shapes and name not in shapes:
            continue
        prev = None
        for step in range(steps):
            n = start << step
            src = b.tmp / f"scale_{step}.ptx"
            text = make(n)
            src.write_text(text)
            r = b.pair(src, count_instructions(text), ptxas=False)
            growth = f"{r['pylower_s'] / prev['pylower_s']:.2f} / {r['pylower_rss'] / prev['pylower_rss']:.2f}" \
                if prev else "-"
            rows.append([name, r["n"], f"{r['pylower_s']:.3f}", f"{r['n'] / r['pylower_s']:,.0f}",
                         f"{r['pylower_rss'] / 1024:.0f}", growth])
            prev = r
    return "scaling (each shape doubled four times; growth per doubling: time / peak RSS, 2.00 is linear)", rows


SCALING_HEAD = ["shape", "PTX instrs", "pylower s", "instr/s", "peak MiB", "growth time / RSS"]


def main(argv=None) -> int:
    from tabulate import tabulate
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("suites", nargs="*", default=list(SUITES), metavar="SUITE",
                    help=f"any of {', '.join(SUITES)} (default: all)")
    ap.add_argument("-n", "--repeat", type=int, default=5, help="timed runs of each command (after a warm-up)")
    ap.add_argument("--max-ptxas", type=int, default=2_000_000, help="largest input also given to ptxas")
    ap.add_argument("--corpus-sample", type=int, default=0, help="time only about this many corpus files")
    ap.add_argument("--scale-start", type=int, default=12_500, help="scaling: the smallest size (then doubled 4 times)")
    ap.add_argument("--scale-shapes", help=f"scaling: comma-separated shapes of {', '.join(SHAPES)} (default all)")
    ap.add_argument("--module-sizes", default="10000,100000,1000000", help="modules: sizes in PTX instructions")
    ap.add_argument("--install", choices=("venv", "checkout"), default="venv",
                    help="how pylower is run: from a fresh venv that finds this checkout as a plain package "
                         "(default: a user's install), or by this interpreter as it is")
    ap.add_argument("--write", help="write the report (markdown) to this file")
    a = ap.parse_args(argv)
    b = Bench(a.repeat, a.max_ptxas, install=a.install)
    if not b.ptxas:
        print("bench: ptxas is not on PATH: pylower alone is timed", file=sys.stderr)
    cmd = " ".join(["python -m pylower.tools.bench"] + list(argv if argv is not None else sys.argv[1:]))
    start_load = _load()
    print(f"bench: load average {start_load}", file=sys.stderr)
    report = ["# Performance: pylower side by side with ptxas 13.0.88", "",
              f"Generated by `{cmd}` (whole processes, "
              f"{a.repeat} alternating runs each after a warm-up, medians; pylower run from "
              f"{'a fresh venv' if a.install == 'venv' else 'this interpreter'}; peak RSS from the kernel's accounting "
              "of each child; target sm_90 unless a file names its own, ptxas at its default -O3; "
              f"{os.cpu_count()} CPUs, load average (1/5/15 min) {start_load} at the start).", ""]
    try:
        for s in a.suites:
            print(f"bench: {s} ...", file=sys.stderr)
            if s == "corpus":
                title, rows, summary = suite_corpus(b, a.corpus_sample or None)
                head = HEAD
                extra = (f"Per-file ratio pylower/ptxas over {summary['files']} files: median {summary['median']:.2f}, "
                         f"best {summary['best']:.2f}, worst {summary['worst']:.2f} ({summary['worst_file']}), "
                         f"{summary['above_1']} above 1.0; median CPU-time ratio {summary['cpu_median']:.2f}."
                         if summary else "")
            elif s == "scaling":
                title, rows = suite_scaling(b, a.scale_start,
                                            shapes=a.scale_shapes.split(",") if a.scale_shapes else None)
                head, extra = SCALING_HEAD, ""
            elif s == "batch":
                title, rows, extra = suite_batch(b)
                head = BATCH_HEAD
            elif s == "modules":
                title, rows = suite_modules(b, tuple(int(x) for x in a.module_sizes.split(",")))
                head, extra = HEAD, ""
            else:
                title, rows = {"probe": suite_probe, "modules": suite_modules, "kernel": suite_kernel}[s](b)
                head, extra = HEAD, ""
            table = tabulate(rows, headers=head, tablefmt="github")
            print(f"\n{title}\n{table}\n{extra}")
            report += [f"## {title}", "", table, ""] + ([extra, ""] if extra else [])
    finally:
        b.close()
    report += [f"Load average at the end: {_load()}.", ""]
    if a.write:
        Path(a.write).write_text("\n".join(report) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
