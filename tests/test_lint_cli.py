"""The pylower-lint command line: text / JSON / SARIF output, exit statuses, --enable/--disable, bad input,
and `pylower --lint`."""
from __future__ import annotations

import io
import json
import re
from pathlib import Path

from pylower.lint.cli import run
from pylower.lint.finding import CHECKS

ROOT = Path(__file__).resolve().parent.parent
BAD = ROOT / "tests" / "lint" / "divergent-barrier" / "early_exit.bad.ptx"
OK = ROOT / "tests" / "lint" / "divergent-barrier" / "early_exit.ok.ptx"
MASK = ROOT / "tests" / "lint" / "warp-mask" / "shfl_in_lane_branch.bad.ptx"


def lint(*args):
    out, err = io.StringIO(), io.StringIO()
    rc = run([str(a) for a in args], stdout=out, stderr=err)
    return rc, out.getvalue(), err.getvalue()


def test_text_output_and_exit_status():
    rc, out, err = lint(BAD)
    assert rc == 1 and not err
    lines = out.splitlines()
    assert re.fullmatch(rf"{re.escape(str(BAD))}:33:2: warning: aligned barrier `bar\.sync 0` is reached under "
                        r"lane-dependent control flow: .* \[divergent-barrier\]", lines[0])
    assert lines[1].startswith(f"{BAD}:24:2: note: an early exit")
    assert "from %tid.x" in lines[1]


def test_clean_file_exits_zero():
    assert lint(OK) == (0, "", "")


def test_several_files():
    rc, out, _ = lint(OK, BAD, MASK)
    assert rc == 1
    assert "[divergent-barrier]" in out and "[warp-mask]" in out


def test_json():
    rc, out, _ = lint(BAD, "--format", "json")
    assert rc == 1
    doc = json.loads(out)
    assert doc["files"] == [str(BAD)]
    f = doc["findings"][0]
    assert (f["check"], f["line"], f["col"], f["function"]) == ("divergent-barrier", 33, 2, "early_exit")
    assert f["notes"][0]["line"] == 24 and "early exit" in f["notes"][0]["message"]


def test_sarif():
    rc, out, _ = lint(BAD, MASK, "--format", "sarif")
    assert rc == 1
    doc = json.loads(out)
    assert doc["version"] == "2.1.0" and "sarif-2.1.0" in doc["$schema"]
    run_ = doc["runs"][0]
    rules = run_["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == list(CHECKS)
    assert all(r["helpUri"].endswith(f"docs/lint/{r['id']}.md") for r in rules)
    results = run_["results"]
    assert {r["ruleId"] for r in results} == {"divergent-barrier", "warp-mask"}
    r = next(r for r in results if r["ruleId"] == "divergent-barrier")
    assert rules[r["ruleIndex"]]["id"] == "divergent-barrier" and r["level"] == "warning"
    loc = r["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"]["uri"] == str(BAD) and loc["region"] == {"startLine": 33, "startColumn": 2}
    rel = r["relatedLocations"][0]
    assert rel["id"] == 0 and rel["physicalLocation"]["region"]["startLine"] == 24 and rel["message"]["text"]


def test_enable_disable():
    assert lint(BAD, "--enable", "warp-mask")[0] == 0
    assert lint(BAD, "--disable", "divergent-barrier")[0] == 0
    assert lint(BAD, "--enable", "warp-mask,divergent-barrier")[0] == 1
    rc, _, err = lint(BAD, "--disable", "no-such-check")
    assert rc == 2 and "unknown check 'no-such-check'" in err


def test_output_file(tmp_path):
    out = tmp_path / "report.sarif"
    rc, stdout, _ = lint(BAD, "--format", "sarif", "-o", out)
    assert rc == 1 and not stdout
    assert json.loads(out.read_text())["runs"][0]["results"]


def test_bad_input_is_a_located_error(tmp_path):
    p = tmp_path / "broken.ptx"
    p.write_text(".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n\tbar.sync %r1;\n\tret;\n}\n")
    rc, out, err = lint(p)
    assert rc == 2 and not out
    assert err.startswith(f"{p}:6:") and "error: Unknown symbol '%r1'" in err
    rc, _, err = lint(tmp_path / "missing.ptx")
    assert rc == 2 and "could not be opened" in err
    rc, _, err = lint(BAD, p)                      # a bad file anywhere: status 2, the others still linted
    assert rc == 2


def test_list_checks_and_usage():
    rc, out, _ = lint("--list-checks")
    assert rc == 0 and [ln.split()[0] for ln in out.splitlines()] == list(CHECKS)
    assert lint()[0] == 2
    assert lint("--format", "xml", BAD)[0] == 2


def test_pylower_lint_option(tmp_path):
    from pylower.tools.pylower import run as pylower
    out, err = io.StringIO(), io.StringIO()
    rc = pylower([str(BAD), "--arch", "sm_90", "--lint", "-o", str(tmp_path / "k.sass")], stdout=out, stderr=err)
    assert rc == 0 and (tmp_path / "k.sass").exists()
    assert f"{BAD}:33:2: warning:" in err.getvalue() and "[divergent-barrier]" in err.getvalue()
    err = io.StringIO()
    assert pylower([str(OK), "--arch", "sm_90", "--lint", "-o", str(tmp_path / "k2.sass")], stdout=out, stderr=err) == 0
    assert err.getvalue() == ""
