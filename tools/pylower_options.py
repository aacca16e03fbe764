"""The `pylower` command's options as argparse reads them: every option, --help, argparse's errors as ptxas-style
fatal messages. ptxas's sync options are read before (tools/ptxas_options.py), and a plain compile's command line
without argparse (tools/pylower.py `plain_args`: importing argparse, with gettext and locale, and building this
parser took about a tenth of a one-instruction run's CPU time; issue 13).
"""
from __future__ import annotations

import argparse
import os
import sys

from pylower.tools.ptxas_options import OptionError


class _Parser(argparse.ArgumentParser):
    def error(self, message):            # argparse's own errors become ptxas-style fatal messages (exit 1)
        raise OptionError(message)


class _Formatter(argparse.HelpFormatter):
    """argparse's formatter, given its width: argparse makes one for every add_argument (to check the
    metavar), and its own default width comes from shutil.get_terminal_size, whose import brings bz2, lzma and
    zlib (a few milliseconds of every run's start-up; issue 13). The width is found the same way: $COLUMNS,
    else the terminal's, else 80, less 2."""

    def __init__(self, prog):
        try:
            columns = int(os.environ["COLUMNS"])
        except (KeyError, ValueError):
            columns = 0
        if columns <= 0:
            try:
                columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
            except (AttributeError, ValueError, OSError):
                columns = 0
        super().__init__(prog, width=(columns or 80) - 2)


def make_parser() -> argparse.ArgumentParser:
    ap = _Parser(prog="pylower", allow_abbrev=False, formatter_class=_Formatter,
                 description="ptxas-style PTX backend: sync phases, SASS and EIATTRs")
    ap.add_argument("input", nargs="*", help="PTX (.ptx) or LLVM IR (.ll) file; - reads standard input; several: "
                    "batch mode (tools/batch.py), one output per input in the -o directory")
    ap.add_argument("-j", "--jobs", type=int, metavar="N", help="batch mode: N worker processes (0: one per CPU)")
    ap.add_argument("--arch", "-arch", "--gpu-name", dest="arch", default="sm_75",
                    help="target (sm_75 ... sm_121f; compute_XX checks the PTX and writes nothing, as ptxas); "
                         "default sm_75 as ptxas")
    ap.add_argument("-o", "--output", "--output-file", dest="output",
                    help="output .sass file; - or none: standard output")
    ap.add_argument("--emit-json", action="store_true", help="also write <output>.json (needs -o FILE)")
    ap.add_argument("--emit-ptx", action="store_true", help="print the PTX (for .ll input: what LLVM made) and stop")
    ap.add_argument("--emit-ir", action="store_true", help="print the Ori IR after the phases instead of SASS")
    ap.add_argument("--stop-before", metavar="PHASE", help="with --emit-ir: stop before this phase (number or name); "
                    "the input `pylower-opt -p PHASE` takes")
    ap.add_argument("-O", "--opt-level", type=int, default=3, metavar="N", help="0..3 (higher: as 3, like ptxas)")
    ap.add_argument("--knob", action="append", default=[], metavar="NAME=VALUE")
    ap.add_argument("--list-passes", action="store_true")
    ap.add_argument("--dump-before", action="append", metavar="PHASE", help="number, name or all")
    ap.add_argument("--dump-after", action="append", metavar="PHASE", help="number, name or all")
    ap.add_argument("--dump-dir", help="write the dumps as files into this folder instead of stderr")
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
    ap.add_argument("-v", "--verbose", action="store_true",
                    help="ptxas -v's per-function lines on stderr (barriers, shared memory; registers stay virtual)")
    ap.add_argument("-V", "--version", action="store_true", help="pylower's version and the ptxas version it models")
    ap.add_argument("-w", "--disable-warnings", action="store_true", help="no warning messages (as ptxas -w)")
    ap.add_argument("-Werror", "--warning-as-error", action="store_true",
                    help="warnings are errors: printed as errors, exit 1, nothing written (as ptxas)")
    ap.epilog = ("ptxas's sync options, read before the rest with its wording (tools/ptxas_options.py): "
                 "--assume-extern-functions-do-not-sync=true|false, --no-membermask-overlap=true|false, "
                 "--print-potentially-overlapping-membermasks, -c")
    return ap
