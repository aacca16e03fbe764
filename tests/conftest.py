"""Shared fixtures. `pytest --update-golden` rewrites tests/golden/ from pylower's current output."""
import os
from pathlib import Path

import pytest

# Every compile in the tests checks the Ori IR after the builder and after every phase (lowering/verify.py).
os.environ.setdefault("PYLOWER_VERIFY_EACH", "1")

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "corpus"


def pytest_addoption(parser):
    parser.addoption("--update-golden", action="store_true", default=False,
                     help="rewrite the golden files in tests/golden/ instead of comparing against them")


@pytest.fixture
def update_golden(request) -> bool:
    return request.config.getoption("--update-golden")


def corpus_files() -> list[Path]:
    return sorted(CORPUS.rglob("*.ptx")) + sorted((ROOT / "examples").glob("*.ptx"))
