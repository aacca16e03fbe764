"""pylower/__init__.py _PackageFinder finds pylower's submodules ahead of the path finder (start-up): what it
finds must be what the path finder finds (same file, cached byte code, loader kind, package folders)."""
import importlib.machinery
import sys

import pylower


def _finder():
    return next(f for f in sys.meta_path if type(f).__name__ == "_PackageFinder")


def test_same_specs_as_the_path_finder():
    for name in ("pylower.lowering", "pylower.lowering.parser", "pylower.passes.analysis",
                 "pylower.passes.analysis.uniformity", "pylower.isel.schedule", "pylower.records"):
        parent = importlib.import_module(name.rpartition(".")[0])
        ours = _finder().find_spec(name, parent.__path__)
        std = importlib.machinery.PathFinder.find_spec(name, parent.__path__)
        assert ours is not None and std is not None, name
        assert (ours.origin, ours.cached, type(ours.loader), ours.submodule_search_locations) == \
            (std.origin, std.cached, type(std.loader), std.submodule_search_locations), name


def test_leaves_other_names_alone():
    assert _finder().find_spec("pylower.no_such_module", pylower.__path__) is None
    assert _finder().find_spec("json", None) is None
    assert _finder().find_spec("email.parser", sys.modules["email"].__path__ if "email" in sys.modules else []) \
        is None
