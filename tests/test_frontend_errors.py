"""pylower accepts and rejects what ptxas 13.0.88 does, with its messages, and reports every error.

- the generated sync forms (tools/gen_frontend_probes.py; reference tests/frontend_forms.json.gz): operand
  kinds, sizes, state spaces, values and counts of every sync family on five targets — accept/reject must agree
  on all of them, and the messages on at least the recorded share;
- files with errors on several lines (tests/corpus/probes/frontend/errors_*.ptx and the other front-end probes):
  every ptxas error, in ptxas's order, on its line.
"""
from pathlib import Path

import pytest

from pylower.lowering import build
from pylower.lowering.diagnostics import PtxError
from pylower.lowering.target import parse_target
from pylower.tools import gen_frontend_probes as G
from pylower.tools.ptxas_ref import retarget
from pylower.tools.refresh_reference import CORPUS, read_reference, reference_path

ROOT = Path(__file__).resolve().parent.parent
FORMS = G.read_reference()
MESSAGE_FLOOR = 0.97          # share of (form, target) cases whose messages equal ptxas's exactly


def _cases():
    for f in FORMS["forms"]:
        for r in f["ptxas"]:
            if r["errors"] is not None:          # None: ptxas crashed, no verdict
                for t in r["targets"]:
                    yield f["family"], f["ptx"], t, r["errors"]


CASES = list(_cases())


@pytest.mark.parametrize("family", sorted({c[0] for c in CASES}))
def test_generated_forms_accept_reject(family):
    wrong = [(ptx, t, theirs, mine) for fam, ptx, t, theirs in CASES if fam == family
             for mine in [G.pylower_messages(ptx, t)] if bool(mine) != bool(theirs)]
    assert not wrong, "\n".join(f"[{t}] {ptx}\n  ptxas:   {th}\n  pylower: {mi}" for ptx, t, th, mi in wrong[:10])


def test_generated_forms_messages():
    same = sum(G.same_messages(theirs, G.pylower_messages(ptx, t)) for _f, ptx, t, theirs in CASES)
    assert same / len(CASES) >= MESSAGE_FLOOR, f"{same}/{len(CASES)} generated forms get ptxas's messages"


def test_generated_forms_cover_every_sync_family():
    assert {c[0] for c in CASES} >= {"barrier", "fence", "atomic", "warp", "mbarrier", "cp_async", "bulk"}
    assert len(CASES) >= 4000


def _errors_of(text: str, file: str, target: str) -> list[tuple[int, str]]:
    try:
        build.build_text(retarget(text, target), file, parse_target(target))
    except PtxError as e:
        return e.messages()
    return []


MULTI = sorted((CORPUS / "probes" / "frontend").glob("*.ptx"))


@pytest.mark.parametrize("ptx", MULTI, ids=lambda p: p.stem)
def test_every_error_in_ptxas_order(ptx):
    ref = read_reference(reference_path(ptx))
    text = ptx.read_text()
    for target, r in sorted(ref["targets"].items()):
        theirs = [(m["line"], m["text"]) for m in r.get("messages", [])
                  if m["severity"] in ("error", "fatal") and m["line"] > 0]
        if r["accepted"] or theirs:
            assert _errors_of(text, ptx.name, target) == theirs, f"{ptx.name} [{target}]"


def test_errors_continue_across_functions():
    text = (CORPUS / "probes" / "frontend" / "errors_multi.ptx").read_text()
    lines = [ln for ln, _m in _errors_of(text, "m.ptx", "sm_90")]
    assert len(set(lines)) >= 7 and min(lines) >= 1


def test_cli_prints_every_error(tmp_path):
    from pylower.tools.pylower import run
    import io
    err = io.StringIO()
    src = CORPUS / "probes" / "frontend" / "errors_multi.ptx"
    status = run([str(src), "--arch", "sm_90", "-o", str(tmp_path / "o.sass")], stderr=err)
    assert status == 1
    out = err.getvalue().splitlines()
    assert len(out) == len(_errors_of(src.read_text(), src.name, "sm_90"))
    assert all(":" in x and " error: " in x and int(x.split(":")[1]) >= 1 for x in out)


@pytest.mark.parametrize("line, arch, fatal", [
    ("ld.u32 %r2, [%r1];", "sm_90", True),
    ("ld.global.u32 %r2, [%r1];", "sm_80", True),
    ("atom.add.u32 %r2, [%r1], 1;", "sm_90", True),
    ("cvta.to.shared.u32 %r2, %r1;", "sm_90", True),
    ("ld.shared.u32 %r2, [%r1];", "sm_90", False),
    ("red.shared.add.u32 [%r1], 1;", "sm_90", False),
    ("cp.async.ca.shared.global [%r1], [%r2], 16;", "sm_90", False),
])
def test_32bit_address_is_the_32bit_abi_fatal(line, arch, fatal):
    """A 32-bit register addressing .global / generic memory under .address_size 64: ptxas warns per line and
    stops with its 32-bit fatal (no line), unless the file has errors (then only those)."""
    text = (f".version 8.7\n.target {arch}\n.address_size 64\n.visible .entry k()\n{{\n"
            f".reg .b32 %r<4>;\n{line}\nret;\n}}\n")
    msgs = _errors_of(text, "a.ptx", arch)
    if not fatal:
        assert msgs == []
        return
    want = ("32-Bit ABI (--machine 32 or 32-Bit addressing) is not supported on sm_90 or higher architectures."
            if arch == "sm_90" else "32-Bit compilation is no longer supported")
    assert msgs == [(7, want)]          # ptxas gives no line; pylower's is the first 32-bit address (issue 11)
    assert _errors_of(text.replace("ret;", "bar.snyc 0;\nret;"), "a.ptx", arch) == [
        (8, "Unknown modifier '.snyc'"), (8, "Barrier modifier required for instruction 'bar'")]
