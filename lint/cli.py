"""The `pylower-lint` command.

    pylower-lint k.ptx [more.ptx ...] [--arch sm_90] [--format text|json|sarif] [--enable C] [--disable C]

Exit status: 0 without findings, 1 with findings, 2 on bad input (the compiler's located errors on stderr)
or a bad command line.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from pylower.lowering.diagnostics import PtxError
from pylower.lowering.target import parse_target


LLVM_DEFAULT_ARCH = "sm_90a"        # LLVM IR has no .target: the NVPTX target to compile it for, unless --arch


def _csv(values) -> list[str]:
    out = []
    for v in values or []:
        out.extend(x.strip() for x in v.split(",") if x.strip())
    return out


def make_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="pylower-lint",
                                 description="find synchronization bugs in PTX before they hang a GPU")
    ap.add_argument("inputs", nargs="*", metavar="FILE", help="PTX (.ptx) or LLVM IR (.ll) files")
    ap.add_argument("--arch", "-arch", help="target to check the PTX for (default: the file's .target; LLVM IR: "
                    f"{LLVM_DEFAULT_ARCH})")
    ap.add_argument("--format", choices=("text", "json", "sarif"), default="text")
    ap.add_argument("-o", "--output", help="write the report here (default: standard output)")
    ap.add_argument("--enable", action="append", metavar="CHECK", help="run only these checks (repeatable, comma-separated)")
    ap.add_argument("--disable", action="append", metavar="CHECK", help="do not run these checks")
    ap.add_argument("--list-checks", action="store_true", help="print the checks and exit")
    return ap


def run(argv=None, stdout=None, stderr=None) -> int:
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    from . import ModuleFacts, lint_module, select_checks
    from . import report
    from .finding import CHECKS
    try:
        a = make_parser().parse_args(argv)
    except SystemExit as e:
        return 2 if e.code else 0
    if a.list_checks:
        for c in CHECKS.values():
            stdout.write(f"{c.id:22} {c.summary}\n")
        return 0
    if not a.inputs:
        stderr.write("pylower-lint: error: no input file\n")
        return 2
    try:
        ids = select_checks(_csv(a.enable), _csv(a.disable))
    except ValueError as e:
        stderr.write(f"pylower-lint: error: {e}\n")
        return 2
    target = None
    if a.arch:
        try:
            target = parse_target(a.arch)
        except PtxError as e:
            stderr.write(f"pylower-lint: error: {e.message}\n")
            return 2
    findings, bad = [], False
    for name in a.inputs:
        try:
            try:
                text = Path(name).read_text()
            except (OSError, UnicodeDecodeError):
                raise PtxError(f"Input file '{name}' could not be opened", 0, 0, name)
            if name.endswith((".ll", ".bc")) or text.lstrip().startswith(("; ModuleID", "target triple", "source_filename")):
                from pylower.lowering.llvm import llvm_to_ptx
                text = llvm_to_ptx(text, target or parse_target(LLVM_DEFAULT_ARCH), name)
            findings.extend(lint_module(ModuleFacts(text, name, target), ids))
        except PtxError as e:
            stderr.write(e.format(name) + "\n")
            bad = True
    if a.format == "json":
        body = report.as_json(findings, a.inputs)
    elif a.format == "sarif":
        body = report.sarif(findings, ids)
    else:
        body = report.text(findings)
    if a.output:
        Path(a.output).write_text(body)
    else:
        stdout.write(body)
    if bad:
        return 2
    return 1 if findings else 0


def main() -> None:
    try:
        sys.exit(run())
    except KeyboardInterrupt:
        sys.exit(130)


if __name__ == "__main__":
    main()
