"""A mutation fuzzer: corpus PTX, mutated, through the whole pipeline in-process, on several targets.

    python -m pylower.tools.fuzz --count 2000                      # a short run (what tests/test_fuzz.py does)
    python -m pylower.tools.fuzz --seed 7 --start 0 --count 50000  # one chunk of a long run
    python -m pylower.tools.fuzz --seed 7 --count 1000 --digest    # a hash of every input's outcome

Input number i of seed s is made from `random.Random(f"{s}:{i}")` alone (a corpus file, one to four
mutations, a target), so a run is reproducible, chunks of one long run (`--start/--count`) are independent and
can run in parallel, and `--show I` prints input I. Each input is compiled with pipeline.compile_text; its
outcome is one of: compiled, rejected (a PtxError), crash (any other exception: a bug), hang (slower than
--timeout seconds), unlocated (a diagnostic without a line >= 1). The run fails (exit 1) on any of the last
three; `--save DIR` keeps each failing input as a file. `--digest` prints a hash of every outcome (the SASS text
or the diagnostics): equal digests across runs and PYTHONHASHSEEDs show the output is deterministic.
"""
from __future__ import annotations

import argparse
import hashlib
import random
import re
import signal
import sys
import time
import traceback
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "corpus"
DEFAULT_TARGETS = ("sm_75", "sm_90a", "sm_100a")
MAX_BYTES = 24_000              # seeds larger than this are skipped (a long run spends its time on variety)

_TOKEN = re.compile(r"[ \t]+|\n|[%.]?[A-Za-z_$][\w$]*(?:(?:\.|::)[\w$]+)*|0[xX][0-9a-fA-F]+|\d+|.", re.S)
_NUMBER = re.compile(r"\b(?:0[xX][0-9a-fA-F]+|\d+)\b")
_INSTR_OPERANDS = re.compile(r"^([ \t]*(?:@!?%\w+[ \t]+)?[a-z][\w.:]*[ \t]+)([^;\n]*);", re.M)
_OPCODE = re.compile(r"^(\s*(?:@!?%\w+\s+)?)([a-z][\w.:]*)", re.M)

# What a mutation may insert: PTX's own words, hostile numbers and shapes.
WORDS = (
    "{", "}", "[", "]", "(", ")", ";", ",", ":", "|", "!", "-", "+", "@", "<", ">", "=", "_",
    ".reg", ".pred", ".b32", ".b64", ".u32", ".s64", ".f32", ".b128", ".shared", ".global", ".local", ".param",
    ".const", ".sync", ".aligned", ".cta", ".cluster", ".gpu", ".sys", ".acquire", ".release", ".relaxed",
    ".v2", ".v4", ".v8", ".align", ".entry", ".func", ".visible", ".extern", ".version", ".target",
    ".address_size", ".maxntid", ".reqntid", ".pragma", ".loc", ".file", ".shared::cta", ".shared::cluster",
    "bar.sync", "barrier.sync.aligned", "bar.warp.sync", "membar.gl", "fence.proxy.async", "atom.add.u32",
    "atom.global.cas.b32", "red.shared.add.u32", "mbarrier.init.shared.b64", "mbarrier.try_wait.parity.b64",
    "cp.async.ca.shared.global", "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes",
    "cp.async.wait_all", "vote.sync.ballot.b32", "shfl.sync.idx.b32", "match.any.sync.b32", "redux.sync.add.u32",
    "elect.sync", "activemask.b32", "setmaxnreg.inc.sync.aligned.u32", "ld.global.u32", "st.shared.v4.b32",
    "mov.u32", "setp.ne.s32", "bra", "bra.uni", "ret", "exit", "call", "@%p1", "@!%p1",
    "%r1", "%r2", "%rd1", "%rd2", "%p1", "%tid.x", "%laneid", "%ctaid.x", "%r<0x10>", "%r<4294967296>",
    "0", "1", "-1", "2", "8", "16", "31", "32", "0x40", "0xffffffff", "0xffffffffffffffff", "4294967296",
    "18446744073709551616", "99999999999999999999999999", "0f3F800000", "0d3FF0000000000000", "1.5", "1e400",
    "9.0", "0.0", "sm_90", "sm_100a", "compute_90",
    "\"str\"", "/*", "*/", "//", "\t", "\n", "\u00e9", "\ufeff", "\x00", "\x7f",
)
NUMBERS = ("0", "1", "-1", "2", "3", "7", "8", "15", "16", "17", "31", "32", "33", "64", "128", "255", "256",
           "1024", "65535", "65536", "0x40", "0x7fffffff", "0x80000000", "0xffffffff", "4294967296",
           "0x7fffffffffffffff", "0xffffffffffffffff", "18446744073709551616", "99999999999999999999999",
           "00", "0x0", "1U", "0b101")
MODIFIERS = (".sync", ".aligned", ".cta", ".gpu", ".sys", ".cluster", ".shared", ".global", ".b32", ".u64",
             ".f16", ".b128", ".v2", ".v4", ".acquire", ".release", ".relaxed", ".acq_rel", ".add", ".inc", ".cas",
             ".exch", ".all", ".any", ".ballot", ".uni", ".x", ".snyc", ".ad", ".parity", ".noComplete")


def seed_files(max_bytes: int = MAX_BYTES, only: tuple[str, ...] = ()) -> list[tuple[str, str]]:
    """(name, text) of every corpus PTX file up to max_bytes (whose path contains one of `only`, if given), in
    path order (the fuzzer's seeds)."""
    out = []
    for p in sorted(CORPUS.rglob("*.ptx")):
        if only and not any(o in str(p.relative_to(CORPUS)) for o in only):
            continue
        if p.stat().st_size <= max_bytes:
            out.append((str(p.relative_to(CORPUS)), p.read_text()))
    return out


# ---------------------------------------------------------------- mutations (each: (rng, text, seeds) -> text)

def _tokens(text: str) -> list[str]:
    return _TOKEN.findall(text)


def _pos(rng: random.Random, text: str) -> int:
    return rng.randrange(len(text) + 1)


def m_delete_span(rng, text, seeds):
    i = _pos(rng, text)
    return text[:i] + text[i + rng.choice((1, 1, 2, 5, 20, 200)):]


def m_delete_line(rng, text, seeds):
    lines = text.split("\n")
    del lines[rng.randrange(len(lines))]
    return "\n".join(lines)


def m_duplicate_line(rng, text, seeds):
    lines = text.split("\n")
    i = rng.randrange(len(lines))
    lines.insert(rng.randrange(len(lines) + 1), lines[i])
    return "\n".join(lines)


def m_swap_lines(rng, text, seeds):
    lines = text.split("\n")
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    lines[i], lines[j] = lines[j], lines[i]
    return "\n".join(lines)


def m_insert_word(rng, text, seeds):
    toks = _tokens(text)
    i = rng.randrange(len(toks) + 1)
    w = rng.choice(WORDS)
    toks[i:i] = [w] if rng.random() < 0.5 else [" ", w, " "]
    return "".join(toks)


def m_replace_token(rng, text, seeds):
    toks = _tokens(text)
    if not toks:
        return text
    i = rng.randrange(len(toks))
    toks[i] = rng.choice(toks) if rng.random() < 0.5 else rng.choice(WORDS)
    return "".join(toks)


def m_delete_token(rng, text, seeds):
    toks = _tokens(text)
    if toks:
        del toks[rng.randrange(len(toks))]
    return "".join(toks)


def m_number(rng, text, seeds):
    nums = list(_NUMBER.finditer(text))
    if not nums:
        return text
    m = rng.choice(nums)
    return text[:m.start()] + rng.choice(NUMBERS) + text[m.end():]


def m_modifier(rng, text, seeds):
    ops = list(_OPCODE.finditer(text))
    if not ops:
        return text
    m = rng.choice(ops)
    name = m.group(2)
    parts = name.split(".")
    r = rng.random()
    if r < 0.4 and len(parts) > 1:
        del parts[rng.randrange(1, len(parts))]
    elif r < 0.7:
        parts.insert(rng.randrange(1, len(parts) + 1), rng.choice(MODIFIERS)[1:])
    else:
        parts[rng.randrange(len(parts))] = rng.choice(MODIFIERS)[1:]
    return text[:m.start(2)] + ".".join(parts) + text[m.end(2):]


def m_splice_line(rng, text, seeds):
    other = rng.choice(seeds)[1].split("\n")
    lines = text.split("\n")
    lines.insert(rng.randrange(len(lines) + 1), rng.choice(other))
    return "\n".join(lines)


def m_byte(rng, text, seeds):
    i = _pos(rng, text)
    ch = rng.choice(("\x00", "\x01", "\x7f", "\u00e9", "\u2028", "\ufeff", "\udcff", "#", "`", "\\", "\"", "'",
                     "\r", "\x0b", "\x0c", "$", "?", "~", "&"))
    return text[:i] + ch + text[i + rng.choice((0, 1)):]


def m_nest(rng, text, seeds):
    """Deep nesting: braces around a line, or brackets / braces / parentheses around an operand."""
    n = rng.choice((2, 10, 100, 400, 1000, 1500))
    lines = text.split("\n")
    i = rng.randrange(len(lines))
    o, c = rng.choice((("{", "}"), ("[", "]"), ("(", ")"), ("{", "}")))
    if o == "{" and rng.random() < 0.5:
        lines[i] = "{" * n + lines[i] + "}" * n
    else:
        toks = _tokens(lines[i])
        regs = [k for k, t in enumerate(toks) if t.startswith("%")]
        k = rng.choice(regs) if regs else rng.randrange(len(toks) + 1)
        toks[k:k + 1] = [o * n + (toks[k] if k < len(toks) else "") + c * n]
        lines[i] = "".join(toks)
    return "\n".join(lines)


def m_long_chain(rng, text, seeds):
    """A long operand list / expression chain / run of blanks on one line."""
    lines = text.split("\n")
    i = rng.randrange(len(lines))
    n = rng.choice((100, 1000, 5000))
    kind = rng.randrange(4)
    if kind == 0:
        ins = ", ".join(["%r1"] * n)
    elif kind == 1:
        ins = "+".join(["1"] * n)
    elif kind == 2:
        ins = "!" * n + "%p1"
    else:
        ins = rng.choice((" ", "\t")) * rng.choice((1000, 20000, 50000))
    j = _pos(rng, lines[i])
    lines[i] = lines[i][:j] + ins + lines[i][j:]
    return "\n".join(lines)


OPERANDS = ("%r1", "%rd1", "%p1", "!%p1", "%f1", "[%rd1]", "[%r1]", "[%rd1+8]", "[p]", "[s]", "[0x10]", "{%r1, %r2}",
            "{%r1, %r2, %r3, %r4}", "{}", "0", "1", "-1", "1.5", "0f3F800000", "0xffffffff", "_", "%tid.x",
            "%laneid", "p", "s", "LOOP", "$L__BB0_1", "%r1|%p1", "_|%p1", "(%r1)", "(%r1, %r2)", "-%r1",
            "s+4", "generic(s)", "%r<4>", "%clock64", "%envreg3")


def m_operand_kind(rng, text, seeds):
    """An instruction's operand replaced by one of another kind (address, vector, immediate, label ...)."""
    ins = list(_INSTR_OPERANDS.finditer(text))
    if not ins:
        return text
    m = rng.choice(ins)
    parts = m.group(2).split(",")
    r = rng.random()
    if r < 0.2 and len(parts) > 1:
        del parts[rng.randrange(len(parts))]
    elif r < 0.4:
        parts.insert(rng.randrange(len(parts) + 1), " " + rng.choice(OPERANDS))
    else:
        parts[rng.randrange(len(parts))] = " " + rng.choice(OPERANDS)
    return text[:m.start(2)] + ",".join(parts) + text[m.end(2):]


def m_truncate(rng, text, seeds):
    return text[:_pos(rng, text)]


MUTATIONS = (
    (m_delete_span, 3), (m_delete_line, 3), (m_duplicate_line, 3), (m_swap_lines, 2), (m_insert_word, 6),
    (m_replace_token, 6), (m_delete_token, 4), (m_number, 5), (m_modifier, 6), (m_splice_line, 4), (m_byte, 2),
    (m_nest, 1), (m_long_chain, 1), (m_truncate, 1), (m_operand_kind, 6),
)
_MUT_FNS = [f for f, _ in MUTATIONS]
_MUT_WEIGHTS = [w for _, w in MUTATIONS]


def make_input(seed: int, i: int, seeds: list, targets=DEFAULT_TARGETS) -> tuple[str, str, str, list[str]]:
    """Input number i of a run: (seed file name, mutated text, target, mutation names)."""
    from pylower.tools.ptxas_ref import retarget
    rng = random.Random(f"{seed}:{i}")
    name, text = rng.choice(seeds)
    target = rng.choice(targets)
    text = retarget(text, target)
    names = []
    for _ in range(rng.choice((1, 1, 1, 2, 2, 3, 4))):
        f = rng.choices(_MUT_FNS, _MUT_WEIGHTS)[0]
        text = f(rng, text, seeds)
        names.append(f.__name__[2:])
    return name, text, target, names


# ---------------------------------------------------------------- running one input

class Hang(Exception):
    pass


def _alarm(signum, frame):
    raise Hang()


def _where(exc: BaseException) -> str:
    """The innermost pylower frame of a traceback: the crash's place (module:function)."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if "pylower" in f.filename or "/wt/" in f.filename]
    f = frames[-1] if frames else traceback.extract_tb(exc.__traceback__)[-1]
    return f"{Path(f.filename).stem}.{f.name}"


def run_one(text: str, target: str, timeout: float, want_output: bool = False):
    """-> (outcome, detail, output). outcome: ok | rejected | crash | hang | unlocated."""
    from pylower.lowering.diagnostics import PtxError
    from pylower.pipeline import compile_text
    from pylower.sass.printer import print_program
    signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, timeout)
    t0 = time.perf_counter()
    try:
        res = compile_text(text, "fuzz.ptx", target)
        out = print_program(res.program) if want_output else ""
        signal.setitimer(signal.ITIMER_REAL, 0)
        diags = [(w.line, w.format("fuzz.ptx")) for w in res.warnings]
        outcome, detail = "ok", ""
    except PtxError as e:
        signal.setitimer(signal.ITIMER_REAL, 0)
        diags = [(d.line, f"fuzz.ptx:{d.line}:{d.col}: error: {m}") for d in e.all() for m in (d.message,) + d.more]
        outcome, detail, out = "rejected", e.message, ""
    except Hang:
        return "hang", f"over {timeout}s", ""
    except RecursionError as e:
        signal.setitimer(signal.ITIMER_REAL, 0)
        return "crash", f"RecursionError in {_where(e)}", ""
    except Exception as e:                  # the fuzzer's job: every other exception is a bug to report
        signal.setitimer(signal.ITIMER_REAL, 0)
        return "crash", f"{type(e).__name__} in {_where(e)}", ""
    if time.perf_counter() - t0 > timeout:
        return "hang", f"{time.perf_counter() - t0:.1f}s", ""
    bad = [d for line, d in diags if not line or line < 1]
    if bad:
        return "unlocated", bad[0].split(": ", 2)[-1], ""
    return outcome, detail, out + "".join(d + "\n" for _, d in diags)


def fuzz(seed: int = 1, start: int = 0, count: int = 1000, targets=DEFAULT_TARGETS, timeout: float = 10.0,
         save: Path | None = None, digest: bool = False, log=None, seeds=None) -> dict:
    """Run inputs start .. start+count-1; returns the counts per outcome, the distinct failures (with the
    first input number of each) and, with digest, a sha256 of every outcome in order."""
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 1000))
    seeds = seeds or seed_files()
    counts: Counter = Counter()
    failures: dict[str, int] = {}
    h = hashlib.sha256()
    for i in range(start, start + count):
        name, text, target, muts = make_input(seed, i, seeds, targets)
        outcome, detail, out = run_one(text, target, timeout, digest)
        counts[outcome] += 1
        if digest:
            h.update(f"{i}\0{outcome}\0{detail}\0{out}\0".encode("utf-8", "surrogatepass"))
        if outcome in ("crash", "hang", "unlocated"):
            key = f"{outcome}: {detail}"
            if key not in failures:
                failures[key] = i
                if log:
                    log.write(f"input {i} ({name}, {target}, {'+'.join(muts)}): {key}\n")
                    log.flush()
                if save:
                    save.mkdir(parents=True, exist_ok=True)
                    (save / f"{seed}_{i}_{target}.ptx").write_text(text, errors="surrogatepass")
    return {"counts": counts, "failures": failures, "digest": h.hexdigest() if digest else None}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m pylower.tools.fuzz", description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--start", type=int, default=0, help="first input number (chunks of a long run)")
    ap.add_argument("--count", type=int, default=1000, help="how many inputs")
    ap.add_argument("--targets", default=",".join(DEFAULT_TARGETS), help="comma-separated --arch values")
    ap.add_argument("--timeout", type=float, default=10.0, help="seconds before an input counts as a hang")
    ap.add_argument("--save", type=Path, help="write each distinct failing input into this folder")
    ap.add_argument("--digest", action="store_true", help="print a sha256 of every input's outcome")
    ap.add_argument("--show", type=int, metavar="I", help="print input I (its text) and stop")
    ap.add_argument("--only", action="append", default=[], metavar="SUBSTR",
                    help="seed only from corpus paths containing SUBSTR (repeatable; another input sequence)")
    a = ap.parse_args(argv)
    targets = tuple(t for t in a.targets.split(",") if t)
    if a.show is not None:
        name, text, target, muts = make_input(a.seed, a.show, seed_files(only=tuple(a.only)), targets)
        sys.stderr.write(f"// from {name}, {target}, {'+'.join(muts)}\n")
        sys.stdout.write(text)
        return 0
    t0 = time.time()
    r = fuzz(a.seed, a.start, a.count, targets, a.timeout, a.save, a.digest, sys.stderr,
             seed_files(only=tuple(a.only)))
    c = r["counts"]
    print(f"seed {a.seed} inputs {a.start}..{a.start + a.count - 1}: {a.count} inputs in {time.time() - t0:.0f}s; "
          f"compiled {c['ok']}, rejected {c['rejected']}, crashes {c['crash']}, hangs {c['hang']}, "
          f"unlocated {c['unlocated']}")
    for key, i in r["failures"].items():
        print(f"  input {i}: {key}")
    if r["digest"]:
        print(f"digest {r['digest']}")
    return 1 if r["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
