"""The `pylower` command: PTX (or LLVM IR) in, SASS text (nvdisasm -c format) + EIATTRs out.

    pylower kernel.ptx --arch sm_90 -o out.sass [--emit-json]
    pylower kernel.ptx --arch sm_90 --dump-after=all
    pylower kernel.ll  --arch sm_90 --emit-ptx
    pylower kernel.ptx --arch sm_90 --html k.html [--compare-ptxas]
    pylower - --gpu-name sm_90 -o - < kernel.ptx          # ptxas's spellings; - is standard input / output
    pylower kernel.ptx -arch=compute_90                    # check only, write nothing (as ptxas)
"""
from __future__ import annotations

import gc

# A command-line run is one short process: the imports create thousands of long-lived objects (classes,
# tables, compiled patterns) that the cyclic GC would only scan over and over, and the compile itself runs
# with the GC paused (pipeline.compile_text). So the command line (`python -m`, or main() for the installed
# script) runs without it; batch mode turns it back on for its long-lived workers; importing this module
# (tests, tools) leaves it alone.
if __name__ == "__main__":
    gc.disable()

import os  # noqa: E402
import stat  # noqa: E402
import sys  # noqa: E402
from types import SimpleNamespace  # noqa: E402

from pylower.lowering.diagnostics import PtxError  # noqa: E402
from pylower.tools.ptxas_options import OptionError  # noqa: E402


def _csv(values) -> set[str]:
    out = set()
    for v in values or []:
        out.update(x.strip() for x in v.split(",") if x.strip())
    return out


PTXAS_VERSION = "Cuda compilation tools, release 13.0, V13.0.88"     # the ptxas whose behaviour pylower models


# A plain compile's command line -- one input, `--arch T` and `-o OUT` in any of their spellings, each at most
# once, as `--opt value` or `--opt=value` -- is read here; any other goes through argparse
# (tools/pylower_options.py), whose import and parser construction took about a tenth of a one-instruction run's
# CPU time (issue 13). Both give the same namespace (tests/test_cli.py compares them).
_PLAIN_OPTIONS = {"--arch": "arch", "-arch": "arch", "--gpu-name": "arch",
                  "-o": "output", "--output": "output", "--output-file": "output"}


def _defaults() -> dict:
    """Every attribute of the argparse namespace (tools/pylower_options.make_parser), at its default."""
    return {"input": [], "jobs": None, "arch": "sm_75", "output": None, "emit_json": False, "emit_ptx": False,
            "emit_ir": False, "stop_before": None, "opt_level": 3, "knob": [], "list_passes": False,
            "dump_before": None, "dump_after": None, "dump_dir": None, "print_changed": False,
            "disable_pass": None, "stats": False, "verify_each": False, "print_line_info": False,
            "explain": False, "compare_ptxas": False, "html": None, "lint": False, "verbose": False,
            "version": False, "disable_warnings": False, "warning_as_error": False}


def plain_args(argv: list[str]):
    """The namespace of a plain compile's command line (above), or None for any other command line."""
    values = _defaults()
    seen = set()
    k = 0
    while k < len(argv):
        arg = argv[k]
        if arg.startswith("-") and arg != "-":
            name, eq, value = arg.partition("=")
            dest = _PLAIN_OPTIONS.get(name)
            if dest is None or dest in seen:
                return None
            if not eq:
                k += 1
                if k == len(argv) or (argv[k].startswith("-") and argv[k] != "-"):
                    return None
                value = argv[k]
            seen.add(dest)
            values[dest] = value
        elif values["input"]:
            return None
        else:
            values["input"] = [arg]
        k += 1
    return SimpleNamespace(**values) if values["input"] else None


def parse_args(argv: list[str]):
    """(namespace, arguments no option takes), as argparse's parse_known_args."""
    a = plain_args(argv)
    if a is not None:
        return a, []
    from pylower.tools.pylower_options import make_parser
    return make_parser().parse_known_args(argv)


class OutputError(Exception):
    """An output path that cannot be written (ptxas: `Output file 'X' could not be opened`)."""


def _check_output_path(path: str) -> None:
    """Fail before compiling when `path` cannot become a file: a folder, a missing folder (never created),
    a path under a file, a folder without write permission. (Paths are strings and os.path here: pathlib's
    import, with urllib and ipaddress, is a few milliseconds of start-up; issue 13.)"""
    parent = os.path.dirname(path) or "."
    if os.path.isdir(path) or not os.path.isdir(parent) or not os.access(parent, os.W_OK | os.X_OK) \
            or (os.path.exists(path) and not os.access(path, os.W_OK)):
        raise OutputError(path)


def _new_file(folder: str, prefix: str) -> tuple[int, str]:
    """A new file of a unique name in `folder`, mode 0600 (as tempfile.mkstemp, whose import with shutil,
    random and the compression modules costs a few milliseconds of start-up)."""
    for _ in range(100):
        name = os.path.join(folder or ".", prefix + os.urandom(6).hex())
        try:
            return os.open(name, os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o600), name
        except FileExistsError:
            continue
    raise FileExistsError(f"no new file name in {folder}")


def _write_atomic(path: str, text: str) -> None:
    """Write to a temp file in the same folder, then rename: an existing output survives any failure and keeps
    its file mode (a new file gets 0666 less the umask)."""
    try:
        fd, tmp = _new_file(os.path.dirname(path), f".{os.path.basename(path)}.")
    except OSError:
        raise OutputError(path)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(text)
        try:
            mode = stat.S_IMODE(os.stat(path).st_mode)
        except FileNotFoundError:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except OSError:
        os.unlink(tmp)
        raise OutputError(path)
    except BaseException:
        os.unlink(tmp)
        raise


def _knobs(values) -> dict:
    from pylower.passes.knobs import check_knobs
    out = {}
    for kv in values:
        if "=" not in kv:
            raise OptionError(f"--knob expects NAME=VALUE, got '{kv}'")
        k, v = kv.split("=", 1)
        try:
            out[k.strip()] = int(v, 0)
        except ValueError:
            raise OptionError(f"--knob {k}: value '{v}' is not an integer")
    try:
        check_knobs(out)
    except PtxError as e:
        raise OptionError(e.message)
    return out


def _phases(option: str, values, allow_all: bool = True) -> set[str]:
    from pylower.passes.registry import check_phase
    out = _csv(values)
    for v in sorted(out):
        if not (allow_all and v == "all"):
            try:
                check_phase(v, option)
            except PtxError as e:
                raise OptionError(e.message)
    return out


def _read_input(name: str, stdin) -> str:
    """The input text; bytes that are not UTF-8 become surrogates (the parser reports them as ptxas does)."""
    try:
        if name == "-":
            data = getattr(stdin, "buffer", None)
            raw = data.read() if data is not None else stdin.read()
        elif os.path.isdir(name):
            raw = b""                    # ptxas reads a folder as an empty file: "Missing .version directive"
        else:
            with open(name, "rb") as f:
                raw = f.read()
    except OSError:
        raise PtxError(f"Input file '{name}' could not be opened", 1, 1, name)
    return raw.decode("utf-8", errors="surrogateescape") if isinstance(raw, bytes) else raw


def _fatal(stderr, message: str) -> int:
    """A problem with the command line or a file as a whole (ptxas: `ptxas fatal   : message`), exit 1."""
    stderr.write(f"pylower: error: {message}\n")
    return 1


def run(argv=None, stdout=None, stderr=None, stdin=None) -> int:
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    stdin = stdin or sys.stdin
    # the compiler's modules are imported here, not with this module: the installed `pylower` script imports
    # this module and then calls main(), which turns the GC off first (see the top of the module)
    from pylower.lowering.target import all_target_names, parse_target
    from pylower.passes.manager import DumpOptions
    from pylower.tools import ptxas_options
    full_argv = list(sys.argv[1:] if argv is None else argv)       # batch mode hands it on per input
    try:
        _, sync_options, argv = ptxas_options.split(full_argv)
        a, extra = parse_args(argv)
        for x in extra:
            raise OptionError(f"Unknown option '{x[1:]}'")           # ptxas drops one dash: --foo -> '-foo'
        if a.opt_level < 0:
            raise OptionError(f"'{a.opt_level}': expected a number")
    except OptionError as e:
        return _fatal(stderr, e.message)
    if len(a.input) > 1:
        from pylower.tools.batch import run_batch
        gc.enable()
        return run_batch(a.input, a.output, a.jobs, full_argv, a.emit_ir, stdout, stderr)
    a.input = a.input[0] if a.input else None
    if a.version:
        from pylower import __version__
        stdout.write(f"pylower {__version__}: a ptxas-style PTX backend (sync phases, SASS, EIATTRs)\n"
                     f"models ptxas: NVIDIA (R) Ptx optimizing assembler, {PTXAS_VERSION}\n")
        return 0
    from pylower.passes.registry import PHASES
    if a.list_passes:
        from tabulate import tabulate
        rows = [(p.number, p.name, ", ".join(p.knobs) or "-", p.description) for p in PHASES]
        stdout.write(tabulate(rows, headers=["phase", "name", "knobs", "what it does"]) + "\n")
        return 0
    if not a.input:
        return _fatal(stderr, "No input file specified")
    file = "<stdin>" if a.input == "-" else a.input
    try:
        target = parse_target(a.arch)
    except PtxError as e:
        return _fatal(stderr, f"{e.message} (allowed: {', '.join(all_target_names())})")
    check_only = a.arch.strip().startswith(("compute_", "lto_"))   # ptxas: parse and check, generate nothing
    out_path = a.output if a.output and a.output != "-" else None
    try:
        knobs = _knobs(a.knob)
        dump = DumpOptions(_phases("--dump-before", a.dump_before), _phases("--dump-after", a.dump_after),
                           a.print_changed, None, _phases("--disable-pass", a.disable_pass, False))
        if a.emit_json and out_path is None:
            raise OptionError("--emit-json needs -o FILE (the JSON goes to FILE.json)")
        if a.stop_before:
            _phases("--stop-before", [a.stop_before], False)
            if not a.emit_ir:
                raise OptionError("--stop-before needs --emit-ir")
            dump.stop_before = a.stop_before
        if a.dump_dir:
            if not (dump.before or dump.after or dump.print_changed):
                raise OptionError("--dump-dir needs --dump-before, --dump-after or --print-changed")
            dump.dump_dir = _dump_dir(a.dump_dir)
        if out_path is not None and not check_only:
            _check_output_path(out_path)
            if a.emit_json:
                _check_output_path(out_path + ".json")
        if a.html:
            _check_output_path(a.html)
    except OptionError as e:
        return _fatal(stderr, e.message)
    except OutputError as e:
        return _fatal(stderr, f"Output file '{e}' could not be opened")
    text = None
    try:
        text = _read_input(a.input, stdin)
        if os.path.splitext(file)[1] in (".ll", ".bc") or text.lstrip().startswith(("; ModuleID", "target triple", "source_filename")):
            from pylower.lowering.llvm import llvm_to_ptx
            text = llvm_to_ptx(text, target, file)
        if a.emit_ptx:
            return _emit(text, out_path, stdout, stderr)
        if a.lint:
            from pylower.lint import lint_text
            from pylower.lint.report import text as lint_report
            stderr.write(lint_report(lint_text(text, file, target)))
        if a.html:
            from pathlib import Path
            from pylower.tools.explorer import write_from_cli
            write_from_cli(Path(a.html), Path(file), text, target.name, min(a.opt_level, 3), knobs, sync_options,
                           dump.disabled, a.compare_ptxas)
            return 0
        if a.compare_ptxas:
            from pylower.tools.compare import compare_file
            given_o = any(x.startswith(("-O", "--opt-level")) for x in argv)
            report, status = compare_file(text, file, target.name, min(a.opt_level, 3) if given_o else None,
                                          knobs, sync_options)
            stdout.write(report)
            return status
        dump.verify_each = dump.verify_each or a.verify_each
        from pylower.pipeline import compile_text
        res = compile_text(text, file, target, min(a.opt_level, 3), knobs, sync_options, dump)
    except PtxError as e:
        _diagnostics(stderr, [x for err in e.all() for x in _split(err)], file, text)
        return 1
    except OutputError as e:
        return _fatal(stderr, f"Output file '{e}' could not be opened")
    warnings = [w for w in res.warnings if not (a.disable_warnings and w.severity == "warning")]
    if a.warning_as_error and any(w.severity == "warning" for w in warnings):
        for w in warnings:
            if w.severity == "warning":
                w = type(w)(w.message, w.line, w.col, "error")
            _diagnostics(stderr, [w], file, text)
        return 1
    _diagnostics(stderr, warnings, file, text)
    if res.dumps:
        stderr.write(res.dumps)          # like LLVM/MLIR -print-after: dumps go to stderr
    if check_only:                       # compute_XX: checked, nothing generated (as ptxas)
        return 0
    if a.verbose:
        from pylower.tools.verbose import report
        stderr.write(report(res, target.name, bool(sync_options.get("compile_only"))))
    from pylower.lowering import ori
    from pylower.sass.printer import print_program, program_json
    body = ori.print_module(res.module) if a.emit_ir else \
        print_program(res.program, line_info=a.print_line_info, explain=a.explain)
    try:
        if out_path is not None:
            _write_atomic(out_path, body)
            if a.emit_json:
                _write_atomic(out_path + ".json", program_json(res.program))
        else:
            stdout.write(body)
    except OutputError as e:
        return _fatal(stderr, f"Output file '{e}' could not be opened")
    if a.stats:
        from tabulate import tabulate
        rows = sorted((n, name, stat, v) for (n, name, stat), v in res.ctx.stats.items())
        stderr.write(tabulate(rows, headers=["phase", "name", "statistic", "count"]) + "\n")
    return 0


def _emit(body: str, out_path: str | None, stdout, stderr) -> int:
    try:
        if out_path is not None:
            _write_atomic(out_path, body)
        else:
            stdout.write(body)
    except OutputError as e:
        return _fatal(stderr, f"Output file '{e}' could not be opened")
    return 0


def _dump_dir(path: str) -> str:
    """--dump-dir: an existing folder, or one made in an existing folder; a file there is an error."""
    if not os.path.isdir(path):
        try:
            os.mkdir(path)
        except OSError:
            raise OptionError(f"--dump-dir '{path}' is not a folder that can be written")
    if not os.access(path, os.W_OK | os.X_OK):
        raise OptionError(f"--dump-dir '{path}' is not a folder that can be written")
    return path


def _split(e: PtxError) -> list:
    """A PtxError and the further messages ptxas prints for the same line, as separate diagnostics."""
    return [PtxError(m, e.line, e.col, e.file) for m in (e.message,) + tuple(e.more)]


def _diagnostics(stderr, diags, file: str, text: str | None) -> None:
    """Each diagnostic as `file:line:col: severity: message`; on a terminal, the source line and a caret under
    the column after each (as clang prints them)."""
    tty = hasattr(stderr, "isatty") and stderr.isatty()
    lines = text.split("\n") if (tty and text) else None
    for d in diags:
        stderr.write(d.format(file) + "\n")
        if lines is not None and 1 <= (d.line or 0) <= len(lines):
            stderr.write(caret(lines[d.line - 1], d.col or 1))


def caret(source_line: str, col: int) -> str:
    """The source line and a caret under column `col` (tabs kept, so the caret lines up)."""
    src = source_line.rstrip("\r")
    pad = "".join(c if c == "\t" else " " for c in src[:max(col - 1, 0)])
    return f"{src}\n{pad}^\n"


def main() -> None:
    gc.disable()
    try:
        status = run()
        sys.stdout.flush()
        sys.stderr.flush()
    except KeyboardInterrupt:
        sys.exit(130)
    except BrokenPipeError:              # `pylower k.ptx | head`: the reader left; no traceback
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
    # Everything is written and flushed: end the process now. The interpreter's own exit would first run a
    # full cyclic collection over every object still alive (the parser's and ISel's caches, the phase
    # tables) and then free them one by one, 5% of a 100k-instruction run's time; the OS reclaims the memory
    # in one step (ptxas does the same).
    os._exit(status)


if __name__ == "__main__":
    main()
