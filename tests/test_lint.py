"""pylower-lint (lint/): every check on its buggy shapes and their fixed twins (tests/lint/<check>/), and the
real-kernel corpus, which must lint clean apart from the findings docs/lint/corpus.md shows to be true bugs.

A test PTX file marks each line a finding is expected on with `// expect: <check>[, <check>]`; a `.bad.ptx`
file has at least one, its `.ok.ptx` twin none. The findings must be exactly the marked ones.
"""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from pylower.lint import CHECKS, lint_text
from pylower.lint.facts import module_target

ROOT = Path(__file__).resolve().parent.parent
CASES = ROOT / "tests" / "lint"
SOURCES = ("triton", "nvcc", "llvm", "numba")
_EXPECT = re.compile(r"//\s*expect:\s*([\w\-, ]+)")


def cases() -> list[Path]:
    return sorted(CASES.glob("*/*.ptx"))


def expected(path: Path) -> set[tuple[int, str]]:
    out = set()
    for n, line in enumerate(path.read_text().splitlines(), 1):
        m = _EXPECT.search(line)
        if m:
            out.update((n, c.strip()) for c in m.group(1).split(",") if c.strip())
    return out


@pytest.mark.parametrize("path", cases(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_case(path):
    got = {(f.line, f.check) for f in lint_text(path.read_text(), str(path))}
    want = expected(path)
    assert got == want, f"{path.name}: findings {sorted(got)} but expected {sorted(want)}"
    if path.name.endswith(".ok.ptx"):
        assert not want
    else:
        assert want and all(c == path.parent.name for _, c in want)


def test_every_check_has_three_shapes_with_fixed_twins():
    for cid in CHECKS:
        folder = CASES / cid
        bad = sorted(folder.glob("*.bad.ptx"))
        assert len(bad) >= 3, f"{cid}: {len(bad)} buggy shapes"
        for b in bad:
            assert b.with_name(b.name.replace(".bad.", ".ok.")).exists(), f"{b} has no fixed twin"
        assert (ROOT / "docs" / "lint" / f"{cid}.md").exists(), f"docs/lint/{cid}.md"


@pytest.mark.skipif(shutil.which("ptxas") is None, reason="needs ptxas")
def test_cases_are_accepted_by_ptxas():
    bad = []
    for path in cases():
        arch = module_target(path.read_text()) or "sm_90"
        r = subprocess.run(["ptxas", f"-arch={arch}", str(path), "-o", "/dev/null"], capture_output=True, text=True)
        if r.returncode:
            bad.append(f"{path.name}: {r.stderr.strip()}")
    assert not bad, "\n".join(bad)


def _justified() -> set[tuple[str, int, str]]:
    """The corpus findings docs/lint/corpus.md shows to be true bugs: rows `| file | line | check | ...`."""
    out = set()
    for line in (ROOT / "docs" / "lint" / "corpus.md").read_text().splitlines():
        cells = [c.strip().strip("`") for c in line.strip().strip("|").split("|")]
        if len(cells) >= 3 and cells[1].isdigit() and cells[2] in CHECKS:
            out.add((cells[0], int(cells[1]), cells[2]))
    return out


def _lint_file(path: str):
    text = Path(path).read_text()
    rel = str(Path(path).relative_to(ROOT / "tests" / "corpus"))
    return [(rel, f.line, f.check) for f in lint_text(text, rel)]


def test_real_kernels_lint_clean_or_justified():
    files = [str(p) for s in SOURCES for p in sorted((ROOT / "tests" / "corpus" / s).glob("*.ptx"))]
    assert len(files) > 250
    try:
        from concurrent.futures import ProcessPoolExecutor
        with ProcessPoolExecutor(2) as ex:
            found = {x for res in ex.map(_lint_file, files, chunksize=8) for x in res}
    except (OSError, PermissionError):
        found = {x for f in files for x in _lint_file(f)}
    justified = _justified()
    unexplained = sorted(found - justified)
    assert not unexplained, "findings on real kernels not shown to be true bugs in docs/lint/corpus.md:\n" + \
        "\n".join(f"{f}:{n}: [{c}]" for f, n, c in unexplained)
    stale = sorted(justified - found)
    assert not stale, "docs/lint/corpus.md lists findings the checker no longer makes:\n" + \
        "\n".join(f"{f}:{n}: [{c}]" for f, n, c in stale)
