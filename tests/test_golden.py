"""Text-in/text-out golden files: pylower's SASS and Ori IR (after all phases) for selected inputs.
`pytest --update-golden` rewrites tests/golden/ (review the diff before committing)."""
from pathlib import Path

import pytest

from pylower.lowering import ori
from pylower.pipeline import compile_text
from pylower.sass.printer import print_program
from pylower.tools.ptxas_ref import retarget

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden"
INPUTS = [ROOT / "examples" / "block_reduce.ptx"] + sorted((ROOT / "tests" / "golden" / "inputs").glob("*.ptx"))
ARCHS = ["sm_75", "sm_90", "sm_100a"]


def _check(path: Path, text: str, update: bool) -> None:
    if update or not path.exists():
        if not update:
            pytest.fail(f"missing golden file {path.name}: run pytest --update-golden")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        return
    assert text == path.read_text(), f"{path.name} differs from pylower's output (pytest --update-golden)"


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("src", INPUTS, ids=lambda p: p.stem)
def test_golden(src, arch, update_golden):
    res = compile_text(retarget(src.read_text(), arch), src.name, arch)
    _check(GOLDEN / f"{src.stem}.{arch}.sass", print_program(res.program), update_golden)
    _check(GOLDEN / f"{src.stem}.{arch}.ir", ori.print_module(res.module), update_golden)
