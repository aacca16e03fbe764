"""Ask the real ptxas: compile PTX for a target and extract what pylower is measured against.

Used by tools/refresh_reference.py (batch, stored under tests/reference/) and by
``pylower --compare-ptxas`` (one file, side by side). Needs ptxas on PATH and
``pip install nvidia-cuda-nvdisasm nvidia-cuda-cuobjdump`` (or both on PATH).

Result of compile_ptx():
  {"accepted": bool,
   "messages": [{"line": N, "severity": "error"|"warning"|"fatal", "text": "..."}],
   "kernels": {name: {"sync": ["BAR.SYNC.DEFER_BLOCKING 0x0", ...],
                      "eiattr": {"EIATTR_NUM_BARRIERS": 1, "EIATTR_EXIT_INSTR_OFFSETS": 1, ...},
                      "sass": ["LDC R1, c[0x0][0x28]", "@P0 BAR.SYNC.DEFER_BLOCKING 0x0", ...]
                      }}}
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from pylower.sass.families import is_sync, normalize

# ---------------------------------------------------------------- tool discovery

def _site_bin() -> list[Path]:
    out = []
    for p in sys.path:
        d = Path(p) / "nvidia" / "cu13" / "bin"
        if d.is_dir():
            out.append(d)
    return out


def find_tool(name: str) -> str | None:
    p = shutil.which(name)
    if p:
        return p
    for d in _site_bin():
        if (d / name).exists():
            return str(d / name)
    return None


def have_ptxas() -> bool:
    return bool(find_tool("ptxas") and find_tool("nvdisasm") and find_tool("cuobjdump"))


def tool_version(name: str) -> str:
    """`V13.0.88` from `<tool> --version`, or "unknown"."""
    tool = find_tool(name)
    if not tool:
        return "unknown"
    out = subprocess.run([tool, "--version"], capture_output=True, text=True).stdout
    m = re.search(r"V(\d+\.\d+\.\d+)", out)
    return m.group(1) if m else "unknown"


def ptxas_version() -> str:
    return tool_version("ptxas")

# ---------------------------------------------------------------- retargeting

_TARGET_RE = re.compile(r"^(\s*\.target\s+)(sm_\d+[af]?|compute_\d+[af]?)", re.M)


def retarget(ptx: str, target: str) -> str:
    """Rewrite the module's `.target sm_XX` to `target` (the harness convention: every corpus file is
    compiled *for* each target, so per-target gating of each instruction is what gets measured)."""
    return _TARGET_RE.sub(lambda m: m.group(1) + target, ptx, count=1)

_ARGS_RE = re.compile(r"^//@\s*args:\s*(.*)$", re.M)


_TARGETS_RE = re.compile(r"^//@\s*targets:\s*(.*)$", re.M)


def file_targets(ptx: str) -> list[str]:
    """Extra reference targets for one corpus file: a line `//@ targets: sm_87 sm_88` (added to the defaults)."""
    m = _TARGETS_RE.search(ptx)
    return m.group(1).split() if m else []


def file_args(ptx: str) -> list[str]:
    """Per-file compiler options: a line `//@ args: -O0` in a corpus file applies to ptxas and pylower alike."""
    m = _ARGS_RE.search(ptx)
    return m.group(1).split() if m else []

# ---------------------------------------------------------------- ptxas messages

_MSG_RE = re.compile(r"^ptxas\s+(?:(?P<file>[^,\n]*), line (?P<line>\d+); )?(?P<sev>error|warning|fatal|info)\s*:\s*(?P<text>.*)$")


def parse_messages(text: str) -> list[dict]:
    msgs = []
    for raw in text.splitlines():
        m = _MSG_RE.match(raw.strip())
        if not m:
            continue
        msgs.append({"line": int(m.group("line") or 0), "severity": m.group("sev"), "text": m.group("text").strip()})
    return msgs

# ---------------------------------------------------------------- nvdisasm

_SEC_RE = re.compile(r"^\s*\.section\s+\.text\.([^,\s]+)")
_INS_RE = re.compile(r"^\s*/\*([0-9a-f]{4,})\*/\s+(?P<guard>@!?U?P[T0-9]+\s+)?(?P<op>[A-Z][A-Z0-9_]*(?:\.[A-Za-z0-9_]+)*)\s*(?P<ops>[^;]*);")


def parse_nvdisasm(text: str) -> dict[str, list[tuple[int, str, str, str]]]:
    """nvdisasm -c text -> {function: [(offset, guard, OPC.MODS, operands)]}"""
    funcs: dict[str, list] = {}
    cur = None
    for line in text.splitlines():
        m = _SEC_RE.match(line)
        if m:
            cur = m.group(1)
            funcs[cur] = []
            continue
        if cur is None:
            continue
        m = _INS_RE.match(line)
        if m:
            funcs[cur].append((int(m.group(1), 16), (m.group("guard") or "").strip(), m.group("op"), m.group("ops").strip()))
    return funcs


def sync_sequence(instrs) -> list[str]:
    out = []
    for _off, _guard, opmods, ops in instrs:
        if is_sync(opmods.split(".", 1)[0], ops):
            out.append(normalize(opmods, ops))
    return out


_SASS_LINE_RE = re.compile(r"^(?:@!?U?P[T0-9]+\s+)?(?P<op>\S+)\s*(?P<ops>.*)$")


def sync_from_sass(lines: list[str]) -> list[str]:
    """The sync-family view of stored SASS lines (reference JSON "sass"), with the current family table."""
    out = []
    for line in lines:
        m = _SASS_LINE_RE.match(line)
        if m and is_sync(m.group("op").split(".", 1)[0], m.group("ops")):
            out.append(normalize(m.group("op"), m.group("ops")))
    return out

# ---------------------------------------------------------------- cuobjdump -elf (EIATTRs)

_EI_SKIP = {"EIATTR_KPARAM_INFO", "EIATTR_PARAM_CBANK", "EIATTR_CBANK_PARAM_SIZE", "unknown Attribute",
            # printed by cuobjdump >= 13.2 only (the references were first made with an older one); not sync
            "EIATTR_MERCURY_ISA_VERSION"}


def _eiattr_value(name: str, value: str):
    vals = value.split()
    if name.endswith("_OFFSETS") or name.endswith("_REGIDS"):
        return len([v for v in vals if v.startswith("0x")])
    if len(vals) == 1 and vals[0].startswith("0x"):
        return int(vals[0], 16)
    return value.strip()


def parse_eiattrs(text: str) -> dict[str, dict]:
    """cuobjdump -elf text -> {function: {EIATTR_NAME: count-or-value}} for sync-relevant EIATTRs."""
    out: dict[str, dict] = {}
    cur = None
    attr = None
    listing = None                   # an offset list printed one entry per line after an empty Value:
    for line in text.splitlines():
        if listing is not None:
            s = line.strip()
            if s.startswith("0x") and ":" in s:
                out[cur][listing] += 1
                continue
            listing = None
        if line.startswith(".nv.info."):
            cur = line[len(".nv.info."):].strip()
            out[cur] = {}
            continue
        if line and not line[0].isspace() and not line.startswith("\t"):
            if not line.startswith(".nv.info."):
                cur = None if line.startswith(".") else cur
        if cur is None:
            continue
        s = line.strip()
        if s.startswith("Attribute:"):
            attr = s.split(":", 1)[1].strip()
        elif s.startswith("Value:") and attr:
            value = s.split(":", 1)[1].strip()
            # every attribute is kept (offset lists as entry counts); a parameter table is not sync-relevant
            if attr not in _EI_SKIP:
                out[cur][attr] = _eiattr_value(attr, value)
                if not value and attr.endswith("_OFFSETS"):
                    listing = attr   # e.g. MBARRIER_INSTR_OFFSETS: "0x60 : Instruction Kind : ..." lines
            attr = None
    return out

# ---------------------------------------------------------------- compile

def compile_ptx(ptx: str, target: str, extra_args: list[str] | None = None, full: bool = True,
                timeout: float = 300.0) -> dict:
    """Compile with the real ptxas; `full=False` keeps only the sync-family lines of each function
    ("sync_lines", with guard and operands, and "n_instrs") instead of the whole listing ("sass")."""
    ptxas, nvdisasm, cuobjdump = find_tool("ptxas"), find_tool("nvdisasm"), find_tool("cuobjdump")
    if not ptxas:
        raise RuntimeError("ptxas not found on PATH")
    with tempfile.TemporaryDirectory(prefix="pylower-ref-") as td:
        src = Path(td) / "in.ptx"
        cub = Path(td) / "out.cubin"
        src.write_text(ptx)
        cmd = [ptxas, f"-arch={target}", str(src), "-o", str(cub)] + list(extra_args or [])
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        msgs = parse_messages(p.stdout + "\n" + p.stderr)
        res: dict = {"accepted": p.returncode == 0, "messages": msgs, "kernels": {}}
        if p.returncode < 0 or p.returncode >= 128 and not msgs:
            # killed by a signal (ptxas 13.0.88 segfaults on a few inputs): neither accepted nor rejected
            res["crashed"] = p.returncode if p.returncode < 0 else -(p.returncode - 128)
        if p.returncode != 0:
            return res
        d = subprocess.run([nvdisasm, "-c", str(cub)], capture_output=True, text=True, timeout=timeout)
        if d.returncode != 0:
            res["nvdisasm_error"] = (d.stderr or d.stdout).strip().splitlines()[-1:] 
            return res
        funcs = parse_nvdisasm(d.stdout)
        e = subprocess.run([cuobjdump, "-elf", str(cub)], capture_output=True, text=True, timeout=timeout)
        attrs = parse_eiattrs(e.stdout)
        for name, ins in funcs.items():
            # the whole function, without the NOP padding after the final BRA: later analyses (and a changed
            # sync-family table) work from this without re-running ptxas
            while ins and ins[-1][2] == "NOP":
                ins = ins[:-1]
            lines = [f"{(g + ' ') if g else ''}{op} {a}".rstrip() for _o, g, op, a in ins]
            k = {"sync": sync_sequence(ins), "eiattr": attrs.get(name, {})}
            if full:
                k["sass"] = lines
            else:
                k["sync_lines"] = [ln for ln, (_o, _g, op, a) in zip(lines, ins) if is_sync(op.split(".", 1)[0], a)]
                k["n_instrs"] = len(ins)
            res["kernels"][name] = k
        return res


def main(argv=None) -> int:
    import argparse
    import json
    ap = argparse.ArgumentParser(description="Compile one PTX file with the real ptxas and show the sync-family view")
    ap.add_argument("ptx")
    ap.add_argument("--arch", action="append", help="target(s); default: the file's .target")
    ap.add_argument("--full", action="store_true", help="also print the whole SASS")
    ap.add_argument("--no-retarget", action="store_true")
    ap.add_argument("-X", dest="extra", action="append", default=[], help="extra ptxas argument")
    a = ap.parse_args(argv)
    text = Path(a.ptx).read_text()
    archs = a.arch or [(_TARGET_RE.search(text) or [None, None, "sm_75"])[2]]
    for t in archs:
        r = compile_ptx(text if a.no_retarget else retarget(text, t), t, file_args(text) + a.extra)
        print(f"== {t}: {'accepted' if r['accepted'] else 'REJECTED'}")
        for m in r["messages"]:
            print(f"   line {m['line']}: {m['severity']}: {m['text']}")
        for k, v in r["kernels"].items():
            print(f"  [{k}] sync: {v['sync']}")
            print(f"  [{k}] eiattr: {json.dumps(v['eiattr'])}")
            if a.full:
                print("\n".join(f"     /*{16 * i:04x}*/ {s}" for i, s in enumerate(v["sass"])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
