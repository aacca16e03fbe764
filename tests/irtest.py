"""Text-in/text-out tests in the style of LLVM lit / xDSL: an IR (or PTX) file holds its own RUN and CHECK lines.

    // RUN: pylower-opt %s --arch sm_90 -p 72 | filecheck %s
    // RUN: pylower-opt %s --arch sm_75 -p 72 | filecheck %s --check-prefix=SM75

`pylower-opt` (tools/pylower_opt.py) and `pylower` (tools/pylower.py) run in-process; the output is checked by
the `filecheck` package (LLVM FileCheck's syntax). `pytest --update-golden` rewrites the CHECK lines of every
file from the current output: CHECK-LABEL on each function (or SASS section), CHECK-NEXT on every line after
it, so a phase test pins the whole function it transforms.
"""
from __future__ import annotations

import io
import re
import shlex
import tempfile
from dataclasses import dataclass
from pathlib import Path

_RUN = re.compile(r"^//\s*RUN:\s*(.*)$")
_CHECK_LINE = re.compile(r"^//\s*[A-Z0-9_]+(-NEXT|-LABEL|-NOT|-SAME|-DAG|-EMPTY)?:")


@dataclass
class Run:
    tool: str            # pylower-opt or pylower
    args: list[str]
    prefix: str


def runs(path: Path) -> list[Run]:
    out = []
    for line in path.read_text().splitlines():
        m = _RUN.match(line.strip())
        if not m:
            continue
        tool_part, _, check_part = m.group(1).partition("|")
        words = shlex.split(tool_part)
        check = shlex.split(check_part)
        if not words or check[:1] != ["filecheck"]:
            raise ValueError(f"{path}: RUN line must be '<tool> ... | filecheck %s [--check-prefix=P]'")
        prefix = next((c.split("=", 1)[1] for c in check if c.startswith("--check-prefix=")), "CHECK")
        out.append(Run(words[0], [str(path) if w == "%s" else w for w in words[1:]], prefix))
    return out


def execute(run: Run) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    if run.tool == "pylower-opt":
        from pylower.tools.pylower_opt import run as tool
    elif run.tool == "pylower":
        from pylower.tools.pylower import run as tool
    else:
        raise ValueError(f"unknown tool {run.tool}")
    rc = tool(run.args, stdout=out, stderr=err)
    return rc, out.getvalue(), err.getvalue()


def filecheck(path: Path, output: str, prefix: str) -> tuple[int, str]:
    """Run the filecheck package on `output` against the CHECK lines of `path`; (status, its messages)."""
    import contextlib
    from filecheck.matcher import Matcher
    from filecheck.options import Options
    with tempfile.NamedTemporaryFile("w", suffix=".out", delete=False) as f:
        f.write(output)
        name = f.name
    msgs = io.StringIO()
    try:
        with contextlib.redirect_stdout(msgs), contextlib.redirect_stderr(msgs):
            try:
                rc = Matcher.from_opts(Options(match_filename=str(path), input_file=name, check_prefixes=prefix)).run()
            except SystemExit as e:        # filecheck exits on a malformed check file
                rc = int(e.code or 1)
    finally:
        Path(name).unlink()
    return rc, msgs.getvalue()


def check_lines(output: str, prefix: str) -> list[str]:
    """CHECK lines pinning `output`: a LABEL per function / SASS section, NEXT on every other line."""
    lines = [ln.rstrip() for ln in output.splitlines()]
    out = []
    first = True
    for ln in lines:
        text = ln.strip()
        label = text.startswith(("function ", ".section", "//--------------------- "))
        if label:
            out.append(f"// {prefix}-LABEL: {text}")
        elif first:
            out.append(f"// {prefix}: {text}" if text else f"// {prefix}-EMPTY:")
        else:
            out.append(f"// {prefix}-NEXT: {text}" if text else f"// {prefix}-EMPTY:")
        first = False
    return out


def update(path: Path) -> None:
    """Rewrite the CHECK lines of `path` from the current output of its RUN lines."""
    kept = [ln for ln in path.read_text().splitlines() if not _CHECK_LINE.match(ln.strip()) or _RUN.match(ln.strip())]
    while kept and not kept[-1].strip():
        kept.pop()
    blocks = []
    for r in runs(path):
        rc, out, err = execute(r)
        if rc != 0:
            raise RuntimeError(f"{path}: {r.tool} failed:\n{err}")
        blocks.append(check_lines(out, r.prefix))
    text = "\n".join(kept) + "\n"
    for b in blocks:
        text += "\n" + "\n".join(b) + "\n"
    path.write_text(text)
