"""The variation generators behind the findings (tools/variations/) stay valid PTX that pylower compiles on their
targets; their tables against ptxas are printed by running the module (it needs ptxas)."""
import importlib
import pkgutil

import pytest

import pylower.tools.variations as V
from pylower.pipeline import compile_text
from pylower.tools.conformance import sync_view
from pylower.tools.variations.table import short

GENERATORS = sorted(m.name for m in pkgutil.iter_modules(V.__path__) if m.name != "table")


def test_there_are_generators():
    assert GENERATORS


@pytest.mark.parametrize("name", GENERATORS)
def test_generator_rows_compile(name):
    mod = importlib.import_module(f"pylower.tools.variations.{name}")
    rows = mod.variations()
    assert rows and all("{target}" in text for text in rows.values())
    for row, text in rows.items():
        for target in mod.TARGETS:
            fn = next(f for f in compile_text(text.replace("{target}", target), row, target).program.functions
                      if f.is_entry)
            assert short(sync_view(fn), None), (row, target)


def test_short_view():
    assert short(["BSSY B0, `(.L_x_1)", "@!P0 BAR.SYNC.DEFER_BLOCKING 0x0", "ATOMG.E.ADD.STRONG.GPU"], None) == \
        "BSSY BAR ATOMG"
    assert short(["BSSY B0", "BAR.SYNC 0x0"], frozenset({"BAR"})) == "BAR"
