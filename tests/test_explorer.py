"""The explorer page (tools/explorer.py), in-process: every corpus file's page renders and its links resolve;
the page is self-contained; the CLI writes it; the IR diffs are exact; a 10k-instruction kernel stays small.
The browser half is tests/test_explorer_browser.py."""
from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from explorer_cases import TWO_KERNELS, TWO_KERNELS_PTXAS_SM90, BIG_SECTIONS, big_kernel_ptx
from pylower.lowering.diagnostics import PtxError
from pylower.lowering.target import all_target_names
from pylower.tools import explorer
from pylower.tools.pylower import run

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "corpus"


def _target(text: str) -> str:
    m = re.search(r"^\s*\.target\s+(sm_\w+)", text, re.M)
    return m.group(1) if m and m.group(1) in all_target_names() else "sm_90"


def _apply(a, ops):
    out, pos = [], 0
    for i1, i2, lines in ops:
        out += a[pos:i1] + lines
        pos = i2
    return out + a[pos:]


def _no_external_resource(html: str) -> list[str]:
    """What in the page (outside its embedded data) would load something: src/href attributes, CSS url() or
    @import, fetch/XMLHttpRequest/WebSocket, a non-inline script or stylesheet."""
    outside = re.sub(r'(<script type="application/json" id="explorer-data">).*?(</script>)', r"\1\2", html, flags=re.S)
    pats = [r"\bsrc\s*=", r"\bhref\s*=", r"url\(", r"@import", r"\bfetch\(", r"XMLHttpRequest", r"WebSocket",
            r"<link\b", r"https?://"]
    return [p for p in pats if re.search(p, outside)]


def test_every_corpus_file_renders():
    """Each corpus file (probes and real kernels) pylower accepts gets a page whose embedded data parses and
    whose every link resolves (explorer.validate); where a stored reference matches, the ptxas comparison is in
    it. Compiled for the file's own target, without the per-phase verifier (tests/test_conformance.py runs it)."""
    files = sorted(CORPUS.rglob("*.ptx"))
    assert len(files) > 100
    rendered = rejected = compared = 0
    problems = []
    for path in files:
        text = path.read_text()
        target = _target(text)
        try:
            data = explorer.explore(text, str(path.relative_to(ROOT)), target, verify_each=False,
                                    ptxas=explorer.stored_ptxas(path, text, target, 3, {}))
        except PtxError:
            rejected += 1                       # frontend probes pylower rejects, as ptxas does
            continue
        html = explorer.render(data)
        back = explorer.page_data(html)
        assert back["kernels"] == data["kernels"] or not data["kernels"]
        for p in explorer.validate(back):
            problems.append(f"{path.relative_to(CORPUS)}: {p}")
        rendered += 1
        compared += back["compare"] is not None
    assert not problems, "\n".join(problems[:40])
    assert rendered > 0.8 * len(files), (rendered, rejected)
    assert compared > 0.5 * rendered, compared


def test_page_is_self_contained_and_well_formed():
    data = explorer.explore(TWO_KERNELS, "two.ptx", "sm_90", verify_each=False,
                            ptxas=explorer.PtxasData(TWO_KERNELS_PTXAS_SM90, "recorded ptxas 13.0.88", []))
    html = explorer.render(data)
    assert html.startswith("<!DOCTYPE html>")
    assert _no_external_resource(html) == []
    assert "{{DATA}}" not in html and "{{TITLE}}" not in html
    assert explorer.page_data(html) == data
    assert explorer.validate(data) == []
    names = [k["name"] for k in data["kernels"]]
    assert names == ["divergent_shfl", "release_flag"]
    k = data["kernels"][0]
    # the WARPSYNC phase 72 inserts before the shfl: its PTX line, its phase and reason
    ws = [r for r in k["instrs"] if r[2] == "WARPSYNC.ALL"]
    assert ws and all(data["strings"][r[5]].startswith("72 ") and r[6] >= 0 for r in ws)
    assert data["ptx"][ws[0][3] - 1].strip().startswith("shfl.sync")
    assert data["families"][ws[0][4]] == "warp"
    # the phases that ran, and phase 72's edit of this kernel
    p72 = [i for i, p in enumerate(data["phases"]) if p["number"] == 72]
    assert p72 and k["ir_edits"][p72[0]]
    # ptxas: the differences are counted, the pylower rows point at sync-family instructions
    cmp = data["compare"]["kernels"]
    assert cmp["divergent_shfl"]["differences"] == 0
    # release_flag matches since the leader issues an aggregated atomic's release fence from sm_90 (VOTEU.ANY
    # before MEMBAR.ALL.GPU, as in the recorded ptxas sequence); the count is the rows that differ
    assert cmp["release_flag"]["differences"] == 0
    assert all(cmp[n]["differences"] == sum(1 for r in cmp[n]["rows"] if r[0] != "=") for n in cmp)
    assert all(r[3] in data["kernels"][1]["sync"] for r in cmp["release_flag"]["rows"] if r[2])


def test_embedded_data_cannot_close_the_script():
    text = TWO_KERNELS.replace(".address_size 64", ".address_size 64\n// </script><script>alert(1)</script> <!--")
    data = explorer.explore(text, "x</script>.ptx", "sm_90", verify_each=False)
    html = explorer.render(data)
    assert html.count("</script>") == 2               # the data's and the code's own
    assert explorer.page_data(html)["ptx"][3].startswith("// </script>")


def test_validate_finds_broken_links():
    data = explorer.explore(TWO_KERNELS, "two.ptx", "sm_90", verify_each=False,
                            ptxas=explorer.PtxasData(TWO_KERNELS_PTXAS_SM90, "recorded", []))
    assert explorer.validate(data) == []
    k = data["kernels"][0]
    k["instrs"][3][3] = len(data["ptx"]) + 5
    k["eiattr"]["EIATTR_EXIT_INSTR_OFFSETS"] = [0x7777]
    data["compare"]["kernels"]["divergent_shfl"]["rows"][0][3] = 0
    data["notes"].append({"line": 10 ** 6, "severity": "warning", "source": "lint", "code": "", "message": "",
                          "function": ""})
    problems = "\n".join(explorer.validate(data))
    for what in ("names PTX line", "EIATTR_EXIT_INSTR_OFFSETS", "not a sync-family one", "note at line"):
        assert what in problems


def test_notes_hook_marks_lines():
    """pylower's warnings and a checker's findings (dicts or objects) become notes at their PTX lines."""
    class Related:
        line, message = 19, "the branch it depends on"

    class Finding:                       # pylower.lint's shape: check, line, message, related notes
        check, line, message, notes, function = "divergent-shfl", 14, "a finding", (Related(),), "divergent_shfl"
    data = explorer.explore(TWO_KERNELS, "two.ptx", "sm_90", verify_each=False,
                            notes=[{"line": 12, "severity": "error", "code": "E1", "message": "m"}, Finding()])
    assert data["lint"] is True
    assert [(n["line"], n["severity"], n["code"], n["source"]) for n in data["notes"]] == \
        [(12, "error", "E1", "lint"), (14, "warning", "divergent-shfl", "lint"), (19, "info", "divergent-shfl", "lint")]
    assert data["notes"][2]["message"] == "note: the branch it depends on"
    assert explorer.validate(data) == []


def test_cli_shows_the_checkers_findings(tmp_path):
    """Where pylower.lint is installed, `--html` puts its findings on the page (the Notes tab and the PTX margin)."""
    pytest.importorskip("pylower.lint", reason="the checker (pylower.lint) is not in this tree")
    src = tmp_path / "two.ptx"
    src.write_text(TWO_KERNELS)
    out = tmp_path / "two.html"
    assert run([str(src), "--arch", "sm_90", "--html", str(out)]) == 0
    data = explorer.page_data(out.read_text())
    assert data["lint"] is True and explorer.validate(data) == []


def test_diff_ops_reproduce_the_new_text():
    rng = random.Random(7)
    for _ in range(2000):
        a = [rng.choice("abcdef") + (str(rng.randint(0, 30)) if rng.random() < .5 else "")
             for _ in range(rng.randint(0, 40))]
        b = list(a)
        for _ in range(rng.randint(0, 6)):
            k = rng.randint(0, len(b))
            r = rng.random()
            if r < .4:
                b.insert(k, rng.choice("abxyz"))
            elif b and r < .7:
                del b[min(k, len(b) - 1)]
            elif b:
                b[min(k, len(b) - 1)] = f"Q{k}"
        ops = explorer._diff_ops(a, b)
        assert _apply(a, ops) == b
        assert all(i1 < i2 or lines for i1, i2, lines in ops)
        assert (ops == []) == (a == b)


def test_diff_of_inserted_lines_is_an_insertion():
    a = [f"  {k} op !line={k}" for k in range(500)]
    b = list(a)
    for k in (400, 300, 7):
        b[k:k] = ["  bssy B0", "  bsync B0"]
    assert [(i1, i2, len(n)) for i1, i2, n in explorer._diff_ops(a, b)] == [(7, 7, 2), (300, 300, 2), (400, 400, 2)]


def test_cli_writes_the_page(tmp_path, capsys):
    src = tmp_path / "two.ptx"
    src.write_text(TWO_KERNELS)
    out = tmp_path / "two.html"
    assert run([str(src), "--arch", "sm_90", "--html", str(out)]) == 0
    data = explorer.page_data(out.read_text())
    assert data["target"] == "sm_90" and len(data["kernels"]) == 2 and data["compare"] is None
    assert explorer.validate(data) == []
    assert capsys.readouterr().out == ""
    # options reach the compilation: -O0 keeps more WARPSYNCs; a disabled phase is not in the page
    assert run([str(src), "--arch", "sm_90", "-O0", "--disable-pass", "72", "--html", str(out)]) == 0
    data = explorer.page_data(out.read_text())
    assert data["opt_level"] == 0 and 72 not in [p["number"] for p in data["phases"]]


def test_cli_error_leaves_no_page(tmp_path, capsys):
    src = tmp_path / "bad.ptx"
    src.write_text(".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k() { frobnicate; }\n")
    out = tmp_path / "bad.html"
    assert run([str(src), "--arch", "sm_90", "--html", str(out)]) == 1
    assert not out.exists()
    assert "error" in capsys.readouterr().err


def test_stored_reference_is_used_only_when_it_matches(tmp_path):
    path = next(p for p in sorted((CORPUS / "nvcc").glob("*.ptx")) if "//@ args" not in p.read_text())
    text = path.read_text()
    ref = explorer.stored_ptxas(path, text, "sm_90", 3, {})
    assert ref is not None and "stored reference" in ref.source
    assert explorer.stored_ptxas(path, text + "\n", "sm_90", 3, {}) is None        # other text
    assert explorer.stored_ptxas(path, text, "sm_90", 0, {}) is None               # other options
    assert explorer.stored_ptxas(path, text, "sm_87", 3, {}) is None               # no reference for the target
    copy = tmp_path / path.name
    copy.write_text(text)
    assert explorer.stored_ptxas(copy, text, "sm_90", 3, {}) is None               # not a corpus file


def test_ten_thousand_instruction_kernel_page_stays_small():
    """The page of a 10k-instruction kernel stays a little over 1 MB (speed is measured by tools/bench.py,
    never by a timed test; the browser test measures its load and render time)."""
    text = big_kernel_ptx(BIG_SECTIONS)
    data = explorer.explore(text, "big.ptx", "sm_90", verify_each=False)
    html = explorer.render(data)
    n = len(data["kernels"][0]["instrs"])
    assert n >= 10_000
    assert len(html) < 200 * n, f"{len(html)} bytes for {n} instructions"
    assert explorer.validate(data) == []
