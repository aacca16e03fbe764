"""Every IR/PTX test file under tests/ir/ (tests/irtest.py): its RUN lines run, filecheck checks the output
against its CHECK lines. There is at least one file per registered phase and one for ISel."""
from pathlib import Path

import pytest

from irtest import execute, filecheck, runs, update

ROOT = Path(__file__).resolve().parent / "ir"
FILES = sorted(ROOT.rglob("*.ir")) + sorted(ROOT.rglob("*.ptx"))


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_ir_file(path, update_golden):
    if update_golden:
        update(path)
    for r in runs(path):
        rc, out, err = execute(r)
        assert rc == 0, err
        status, msgs = filecheck(path, out, r.prefix)
        assert status == 0, f"{path.name} [{r.prefix}] (pytest --update-golden rewrites the CHECK lines):\n{msgs}"


def test_every_phase_and_isel_has_ir_tests():
    from pylower.passes.registry import PHASES
    covered = set()
    for path in FILES:
        for r in runs(path):
            if "-p" in r.args:
                covered.update(r.args[r.args.index("-p") + 1].split(","))
    want = {str(p.number) for p in PHASES} | {"isel"}
    assert want <= covered, f"phases without an IR test: {sorted(want - covered)}"
