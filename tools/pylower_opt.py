"""pylower-opt: run phases on Ori IR text and print the result (like `llc -run-pass` / `mlir-opt`).

    pylower-opt in.ir --arch sm_90 -p 71,72            # the IR after phases 71 and 72
    pylower-opt in.ir --arch sm_90 -p default          # the whole phase pipeline
    pylower-opt in.ir --arch sm_90 -p 72,isel          # then instruction selection: the SASS listing
    pylower k.ptx --arch sm_90 --emit-ir --stop-before=71 | pylower-opt - --arch sm_90 -p 71

Phases are given by number or name (`pylower --list-passes`), comma-separated or repeated, in the order
they run; `default` is every registered phase, `isel` selects SASS and must come last. `-O`, `--knob` and
ptxas's sync options (-c, --no-membermask-overlap=..., ...) are read as by pylower. The IR is checked by the
verifier before and after every phase (lowering/verify.py). Tests: tests/ir/ (RUN/CHECK lines, FileCheck).
"""
from __future__ import annotations

import argparse
import io
import sys

from pylower.lowering.diagnostics import PtxError


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="pylower-opt", description="run pylower phases on Ori IR text")
    ap.add_argument("input", help="Ori IR file (- for standard input)")
    ap.add_argument("--arch", "-arch", default="sm_75", help="target (default sm_75)")
    ap.add_argument("-p", "--passes", action="append", required=True, metavar="PHASES",
                    help="phase numbers or names, 'default' (all) or 'isel' (last), comma-separated")
    ap.add_argument("-O", "--opt-level", type=int, default=3, metavar="N")
    ap.add_argument("--knob", action="append", default=[], metavar="NAME=VALUE")
    return ap


def _phases(specs: list[str]):
    from pylower.passes.registry import PHASES
    out, isel = [], False
    for spec in specs:
        for item in filter(None, (x.strip() for x in spec.split(","))):
            if isel:
                raise PtxError("-p: 'isel' must be the last step")
            if item == "default":
                out.extend(PHASES)
            elif item == "isel":
                isel = True
            else:
                ph = next((p for p in PHASES if str(p.number) == item or p.name == item), None)
                if ph is None:
                    raise PtxError(f"-p: unknown phase '{item}' (pylower --list-passes)")
                out.append(ph)
    return out, isel


def run(argv: list[str], stdin=None, stdout=None, stderr=None) -> int:
    from pylower.lowering import ori
    from pylower.lowering.target import parse_target
    from pylower.passes.manager import DumpOptions, PassContext, PassManager
    from pylower.tools import ptxas_options
    from pylower.tools.pylower import _knobs
    stdin, stdout, stderr = stdin or sys.stdin, stdout or sys.stdout, stderr or sys.stderr
    try:
        _, sync_options, argv = ptxas_options.split(list(argv))
        a = _parser().parse_args(argv)
        phases, isel = _phases(a.passes)
        target = parse_target(a.arch)
        name = a.input
        text = stdin.read() if name == "-" else open(name, encoding="utf-8").read()
        module = ori.parse_ir(text, "<stdin>" if name == "-" else name)
        ctx = PassContext(target, min(a.opt_level, 3), _knobs(a.knob), dict(sync_options))
        PassManager(phases, DumpOptions(verify_each=True), io.StringIO()).run(module, ctx)
        if isel:
            from pylower.isel.select import select
            from pylower.sass import eiattr
            from pylower.sass.printer import print_program
            prog = select(module, target, {**ctx.options, "opt_level": ctx.opt_level, "knobs": ctx.knobs},
                          ctx.analyses)
            eiattr.compute_program(prog)
            stdout.write(print_program(prog))
        else:
            stdout.write(ori.print_module(module))
    except PtxError as e:
        stderr.write(e.format(getattr(e, "file", "") or "pylower-opt") + "\n")
        return 1
    except OSError as e:
        stderr.write(f"pylower-opt: error: {e.strerror}: '{e.filename}'\n")
        return 1
    return 0


def main() -> int:
    return run(sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main())
