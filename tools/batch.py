"""Batch mode of the `pylower` command: several inputs in one run, one output per input.

    pylower a.ptx b.ptx c.ll --arch sm_90 -o DIR            # DIR/a.sass, DIR/b.sass, DIR/c.sass
    pylower kernels/*.ptx --arch sm_90 -o DIR -j 4 --emit-json   # 4 worker processes; DIR/k.sass.json too

Each input is compiled exactly as `pylower INPUT <the same options> -o DIR/<stem>.sass` would compile it
(`.ir` with --emit-ir), so every output is byte-identical to a separate run; the interpreter starts and
the pipeline is imported once per worker instead of once per file. `-j N` runs N worker processes (`-j 0`:
one per CPU); the default is one, in this process. A failing input prints its diagnostics and the others go
on; the exit status is 1 when any input failed. On a terminal a progress bar (tqdm) runs on stderr.
"""
from __future__ import annotations

import io
import os
import sys
from pathlib import Path

# options of the single-input command that make no sense for many inputs at once (they write to stdout
# or compare one file)
_SINGLE_ONLY = ("--compare-ptxas", "--html", "--emit-ptx", "--list-passes")


def _strip(argv: list[str], inputs: list[str]) -> list[str]:
    """The options shared by every input: argv without the inputs, -o/--output and -j/--jobs."""
    left = list(inputs)
    out: list[str] = []
    skip = False
    for tok in argv:
        if skip:
            skip = False
            continue
        if tok in left:
            left.remove(tok)
            continue
        if tok in ("-o", "--output", "--output-file", "-j", "--jobs"):
            skip = True
            continue
        if tok.startswith(("--output=", "--output-file=", "--jobs=")) or (tok.startswith(("-o", "-j")) and not tok.startswith("--")
                                                         and len(tok) > 2 and tok[1] in "oj"):
            continue
        out.append(tok)
    return out


def output_names(inputs: list[str], out_dir: Path, suffix: str) -> list[Path]:
    return [out_dir / (Path(i).stem + suffix) for i in inputs]


def _compile_one(job: tuple) -> tuple[int, int, str]:
    """(index, exit status, stderr text) of one input, compiled by the single-input command in-process."""
    index, argv = job
    from pylower.tools.pylower import run
    out, err = io.StringIO(), io.StringIO()
    try:
        status = run(argv, stdout=out, stderr=err)
    except RecursionError:
        err.write(f"{argv[0]}: error: input nested too deeply\n")
        status = 1
    except Exception as e:                     # report, and let the other inputs go on
        err.write(f"{argv[0]}: internal error: {type(e).__name__}: {e}\n")
        status = 1
    return index, status, out.getvalue() + err.getvalue()


def _progress(total: int, stream):
    """A tqdm bar on a terminal, else None."""
    if not getattr(stream, "isatty", lambda: False)():
        return None
    try:
        from tqdm import tqdm
    except ImportError:
        return None
    return tqdm(total=total, file=stream, unit="file", dynamic_ncols=True, leave=False)


def run_batch(inputs: list[str], output: str | None, jobs: int | None, argv: list[str], emit_ir: bool,
              stdout=None, stderr=None) -> int:
    """`argv`: the whole command line (the inputs, -o and -j are taken out of it for each input)."""
    stderr = stderr or sys.stderr
    bad = [t for t in argv if t.split("=", 1)[0] in _SINGLE_ONLY]
    if bad:
        stderr.write(f"pylower: error: {bad[0].split('=', 1)[0]} takes one input file\n")
        return 1
    if not output:
        stderr.write("pylower: error: several input files need -o DIRECTORY (one output per input)\n")
        return 1
    out_dir = Path(output)
    if out_dir.exists() and not out_dir.is_dir():
        stderr.write(f"pylower: error: -o {output}: with several input files the output is a directory\n")
        return 1
    names = output_names(inputs, out_dir, ".ir" if emit_ir else ".sass")
    seen: dict[Path, str] = {}
    for i, n in zip(inputs, names):
        if n in seen:
            stderr.write(f"pylower: error: '{seen[n]}' and '{i}' would both be written to {n}\n")
            return 1
        seen[n] = i
    try:        # the directory itself is made (its parent must exist: no silent mkdir -p)
        out_dir.mkdir(exist_ok=True)
    except OSError:
        stderr.write(f"pylower: error: Output file '{output}' could not be opened\n")
        return 1
    common = _strip(argv, inputs)
    work = [(k, [i] + common + ["-o", str(n)]) for k, (i, n) in enumerate(zip(inputs, names))]
    jobs = (os.cpu_count() or 1) if jobs == 0 else max(1, jobs or 1)
    bar = _progress(len(work), stderr)

    def report(text: str) -> None:
        if not text:
            return
        if bar is not None:
            bar.clear()
            stderr.write(text)
            bar.refresh()
        else:
            stderr.write(text)

    failed = 0
    try:
        if jobs == 1 or len(work) == 1:
            results = map(_compile_one, work)
            pool = None
        else:
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor, as_completed
            ctx = multiprocessing.get_context("fork" if sys.platform.startswith("linux") else None)
            pool = ProcessPoolExecutor(max_workers=min(jobs, len(work)), mp_context=ctx)
            results = (f.result() for f in as_completed([pool.submit(_compile_one, w) for w in work]))
        try:
            for _, status, text in results:
                failed += status != 0
                report(text)
                if bar is not None:
                    bar.update(1)
        finally:
            if pool is not None:
                pool.shutdown(wait=True, cancel_futures=True)
    finally:
        if bar is not None:
            bar.close()
    if failed:
        stderr.write(f"pylower: {failed} of {len(work)} input files failed\n")
    return 1 if failed else 0
