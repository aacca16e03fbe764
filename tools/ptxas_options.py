"""ptxas's spelling of the options the sync phases read, with its exact fatal messages
(docs/findings/phases.md section 4; probes tests/corpus/probes/phases/opt_*).

    parse(["-O0", "--no-membermask-overlap=true", "-c"]) -> (0, {"no_membermask_overlap": True, ...})

Used for the `//@ args:` line of corpus files (tools/conformance.py) and by the `pylower` command line.
Options outside this table are left alone (they belong to no sync phase).
"""
from __future__ import annotations

from pylower.lowering.diagnostics import PtxError

# ptxas option -> options key; these take a value true|false ("--opt=v" or "--opt v")
BOOL_OPTIONS = {
    "--assume-extern-functions-do-not-sync": "assume_extern_functions_do_not_sync",
    "--no-membermask-overlap": "no_membermask_overlap",
}
# flags that take no value
FLAG_OPTIONS = {
    "--print-potentially-overlapping-membermasks": "print_potentially_overlapping_membermasks",
    "-c": "compile_only",
    "--compile-only": "compile_only",
}
# 13.0.88 has no public knob option (probe opt_knob_unknown)
UNKNOWN = {"-knob": "knob", "--knob": "-knob"}
DEFAULT_OPT_LEVEL = 3


class OptionError(PtxError):
    """A fatal command-line error (ptxas: `ptxas fatal   : <message>`)."""


def _bool(name: str, value: str) -> bool:
    if value not in ("true", "false"):
        raise OptionError(f"'{value}': expected true or false")
    return value == "true"


def parse(args: list[str]) -> tuple[int, dict]:
    """ptxas-style option list -> (-O level, options dict). Raises OptionError with ptxas's wording."""
    for a in args:
        name = a.partition("=")[0]
        if name in UNKNOWN:
            raise OptionError(f"Unknown option '{UNKNOWN[name]}'")
    opt, options, _ = split(args)
    return opt, options


def split(args: list[str]) -> tuple[int, dict, list[str]]:
    """As parse, plus the arguments left for the caller's own parser: those this table does not know, and
    -O<n> (read here and also left, so a caller's own -O option sees it). pylower's own --knob is kept."""
    opt = DEFAULT_OPT_LEVEL
    options: dict = {}
    rest: list[str] = []
    i = 0
    while i < len(args):
        a = args[i]
        name, eq, value = a.partition("=")
        if a.startswith("-O") and len(a) > 2:
            if not a[2:].isdigit():
                raise OptionError(f"'{a[2:]}': expected a number")
            opt = min(int(a[2:]), 3)               # -O4 ... are accepted silently
            rest.append(a)
        elif name in BOOL_OPTIONS:
            if not eq:
                if i + 1 >= len(args):
                    raise OptionError(f"argument expected after '{name}'")
                i += 1
                value = args[i]
            options[BOOL_OPTIONS[name]] = _bool(name, value)
        elif name in FLAG_OPTIONS:
            if eq:
                raise OptionError(f"no argument expected after '{name}'")
            options[FLAG_OPTIONS[name]] = True
        else:
            rest.append(a)
        i += 1
    return opt, options, rest
