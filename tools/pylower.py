"""The `pylower` command: PTX (or LLVM IR) in, SASS text (nvdisasm -c format) + EIATTRs out.

    pylower kernel.ptx --arch sm_90 -o out.sass [--emit-json]
    pylower kernel.ptx --arch sm_90 --dump-after=all
    pylower kernel.ll  --arch sm_90 --emit-ptx
    pylower kernel.ptx --arch sm_90 --html k.html [--compare-ptxas]
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

from pylower.lowering.diagnostics import PtxError
from pylower.lowering.target import all_target_names, parse_target
from pylower.passes.manager import DumpOptions


def _csv(values) -> set[str]:
    out = set()
    for v in values or []:
        out.update(x.strip() for x in v.split(",") if x.strip())
    return out


def make_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="pylower", description="ptxas-style PTX backend: sync phases, SASS and EIATTRs")
    ap.add_argument("input", nargs="*", help="PTX (.ptx) or LLVM IR (.ll) file; several: batch mode (tools/batch.py), "
                    "one output per input in the -o directory")
    ap.add_argument("-j", "--jobs", type=int, metavar="N", help="batch mode: N worker processes (0: one per CPU)")
    ap.add_argument("--arch", "-arch", default="sm_75", help="target (sm_75 ... sm_121f); default sm_75 as ptxas")
    ap.add_argument("-o", "--output", help="output .sass file (default: standard output)")
    ap.add_argument("--emit-json", action="store_true", help="also write <output>.json")
    ap.add_argument("--emit-ptx", action="store_true", help="print the PTX (for .ll input: what LLVM made) and stop")
    ap.add_argument("--emit-ir", action="store_true", help="print the Ori IR after the phases instead of SASS")
    ap.add_argument("--stop-before", metavar="PHASE", help="with --emit-ir: stop before this phase (number or name); "
                    "the input `pylower-opt -p PHASE` takes")
    ap.add_argument("-O", "--opt-level", type=int, default=3, metavar="N", help="0..3 (higher: as 3, like ptxas)")
    ap.add_argument("--knob", action="append", default=[], metavar="NAME=VALUE")
    ap.add_argument("--list-passes", action="store_true")
    ap.add_argument("--dump-before", action="append", metavar="PHASE", help="number, name or all")
    ap.add_argument("--dump-after", action="append", metavar="PHASE", help="number, name or all")
    ap.add_argument("--dump-dir", help="write dumps as files into this folder")
    ap.add_argument("--print-changed", action="store_true", help="dump after every phase that changed the IR")
    ap.add_argument("--disable-pass", action="append", metavar="PHASE")
    ap.add_argument("--stats", action="store_true", help="print phase and ISel statistics (stderr)")
    ap.add_argument("--verify-each", action="store_true", help="check the Ori IR after the builder and every phase")
    ap.add_argument("-g", "--print-line-info", action="store_true",
                    help="annotate the listing with PTX line info as nvdisasm -g does (//## File ..., line N)")
    ap.add_argument("--explain", action="store_true",
                    help="a trailing comment on each instruction a phase or ISel inserted or rewrote: origin and reason")
    ap.add_argument("--compare-ptxas", action="store_true", help="side by side with the real ptxas (needs CUDA)")
    ap.add_argument("--html", metavar="FILE", help="write the explorer page instead of the listing (PTX and SASS side "
                    "by side, linked; the IR phase by phase; with --compare-ptxas, ptxas's sync sequence)")
    ap.add_argument("--lint", action="store_true", help="also run pylower-lint's synchronization checks (warnings on stderr)")
    ap.epilog = ("ptxas's sync options, read before the rest with its wording (tools/ptxas_options.py): "
                 "--assume-extern-functions-do-not-sync=true|false, --no-membermask-overlap=true|false, "
                 "--print-potentially-overlapping-membermasks, -c")
    return ap


def _write_atomic(path: Path, text: str) -> None:
    """Write to a temp file in the same folder, then rename: an existing output survives any failure."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=str(path.parent))
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def _knobs(values) -> dict:
    out = {}
    for kv in values:
        if "=" not in kv:
            raise PtxError(f"--knob expects NAME=VALUE, got '{kv}'")
        k, v = kv.split("=", 1)
        try:
            out[k.strip()] = int(v, 0)
        except ValueError:
            raise PtxError(f"--knob {k}: value '{v}' is not an integer")
    return out


def run(argv=None, stdout=None, stderr=None) -> int:
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    from pylower.tools import ptxas_options
    full_argv = list(sys.argv[1:] if argv is None else argv)       # batch mode hands it on per input
    try:
        _, sync_options, argv = ptxas_options.split(full_argv)
    except ptxas_options.OptionError as e:
        stderr.write(f"pylower fatal   : {e.message}\n")
        return 1
    a = make_parser().parse_args(argv)
    if len(a.input) > 1:
        from pylower.tools.batch import run_batch
        return run_batch(a.input, a.output, a.jobs, full_argv, a.emit_ir, stdout, stderr)
    a.input = a.input[0] if a.input else None
    if a.opt_level < 0:
        stderr.write(f"pylower fatal   : '{a.opt_level}': expected a number\n")
        return 1
    from pylower.passes.registry import PHASES
    if a.list_passes:
        from tabulate import tabulate
        rows = [(p.number, p.name, ", ".join(p.knobs) or "-", p.description) for p in PHASES]
        stdout.write(tabulate(rows, headers=["phase", "name", "knobs", "what it does"]) + "\n")
        return 0
    if not a.input:
        stderr.write("pylower: error: no input file\n")
        return 1
    path = Path(a.input)
    try:
        target = parse_target(a.arch)
    except PtxError as e:
        stderr.write(f"pylower: error: {e.message} (allowed: {', '.join(all_target_names())})\n")
        return 1
    try:
        try:
            text = path.read_text()
        except (OSError, UnicodeDecodeError):
            raise PtxError(f"Input file '{a.input}' could not be opened", 0, 0, a.input)
        if path.suffix in (".ll", ".bc") or text.lstrip().startswith(("; ModuleID", "target triple", "source_filename")):
            from pylower.lowering.llvm import llvm_to_ptx
            text = llvm_to_ptx(text, target, a.input)
        if a.emit_ptx:
            stdout.write(text)
            return 0
        if a.lint:
            from pylower.lint import lint_text
            from pylower.lint.report import text as lint_report
            stderr.write(lint_report(lint_text(text, a.input, target)))
        if a.html:
            from pylower.tools.explorer import write_from_cli
            write_from_cli(Path(a.html), path, text, target.name, min(a.opt_level, 3), _knobs(a.knob), sync_options,
                           _csv(a.disable_pass), a.compare_ptxas)
            return 0
        if a.compare_ptxas:
            from pylower.tools.compare import compare_file
            given_o = any(x.startswith(("-O", "--opt-level")) for x in argv)
            report, status = compare_file(text, a.input, target.name, min(a.opt_level, 3) if given_o else None,
                                          _knobs(a.knob), sync_options)
            stdout.write(report)
            return status
        options = sync_options
        dump = DumpOptions(_csv(a.dump_before), _csv(a.dump_after), a.print_changed,
                           Path(a.dump_dir) if a.dump_dir else None, _csv(a.disable_pass))
        dump.verify_each = dump.verify_each or a.verify_each
        if a.stop_before:
            from pylower.passes.registry import PHASES
            if not any(str(p.number) == a.stop_before or p.name == a.stop_before for p in PHASES):
                raise PtxError(f"--stop-before: unknown phase '{a.stop_before}' (pylower --list-passes)")
            if not a.emit_ir:
                raise PtxError("--stop-before needs --emit-ir")
            dump.stop_before = a.stop_before
        from pylower.pipeline import compile_text
        res = compile_text(text, a.input, target, min(a.opt_level, 3), _knobs(a.knob), options, dump)
    except PtxError as e:
        stderr.write(e.format(a.input) + "\n")
        return 1
    for w in res.warnings:
        stderr.write(w.format(a.input) + "\n")
    if res.dumps:
        stderr.write(res.dumps)          # like LLVM/MLIR -print-after: dumps go to stderr
    from pylower.lowering import ori
    from pylower.sass.printer import print_program, program_json
    body = ori.print_module(res.module) if a.emit_ir else \
        print_program(res.program, line_info=a.print_line_info, explain=a.explain)
    if a.output:
        out = Path(a.output)
        _write_atomic(out, body)
        if a.emit_json:
            _write_atomic(out.with_name(out.name + ".json"), program_json(res.program))
    else:
        stdout.write(body)
        if a.emit_json:
            stdout.write(program_json(res.program))
    if a.stats:
        from tabulate import tabulate
        rows = sorted((n, name, stat, v) for (n, name, stat), v in res.ctx.stats.items())
        stderr.write(tabulate(rows, headers=["phase", "name", "statistic", "count"]) + "\n")
    return 0


def main() -> None:
    try:
        sys.exit(run())
    except KeyboardInterrupt:
        sys.exit(130)


if __name__ == "__main__":
    main()
