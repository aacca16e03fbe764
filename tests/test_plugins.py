"""The family registries declare ahead of time which module registers which names (plugins.Registry): the
declaration must be what the modules really register, or a run would miss a family's handler or rule."""
import subprocess
import sys

from pylower.isel.rules import RULES
from pylower.lowering.handlers import HANDLERS


def _registered(registry) -> dict[str, tuple[str, ...]]:
    by_module: dict[str, list[str]] = {}
    for name, fn in registry.load_all().items():
        by_module.setdefault(fn.__module__.rsplit(".", 1)[1], []).append(name)
    return {m: tuple(sorted(names)) for m, names in by_module.items()}


def test_handler_stems_declared():
    assert _registered(HANDLERS) == {m: tuple(sorted(n)) for m, n in HANDLERS.modules.items()}


def test_rule_names_declared():
    assert _registered(RULES) == {m: tuple(sorted(n)) for m, n in RULES.modules.items()}


def test_a_family_is_imported_when_first_asked_for():
    code = ("import sys\nfrom pylower.isel.rules import RULES\nfrom pylower.lowering.handlers import HANDLERS\n"
            "assert 'pylower.lowering.fam_atomic' not in sys.modules\n"
            "assert HANDLERS.get('atom') is HANDLERS.get('red') is not None\n"
            "assert 'pylower.lowering.fam_atomic' in sys.modules and 'pylower.lowering.fam_warp' not in sys.modules\n"
            "assert RULES.get('mov') is not None and RULES.get('add') is None\n"
            "assert 'pylower.isel.fam_shared_window' in sys.modules\n")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_deferred_phases_declared():
    """passes/registry.py DEFERRED: each deferred phase's number and name are its module's; the module's phase
    keeps Phase.enabled (the stand-in is always on); a one-instruction run imports none of them."""
    import importlib
    from pylower.passes.manager import Phase
    from pylower.passes.registry import DEFERRED
    for module, (number, name, _) in DEFERRED.items():
        phase = importlib.import_module(f"pylower.passes.{module}").PHASE
        assert (phase.number, phase.name) == (number, name), module
        assert type(phase).enabled is Phase.enabled, module
    code = ("import sys\nfrom pylower.pipeline import compile_text\n"
            "compile_text('.version 8.0\\n.target sm_90\\n.address_size 64\\n.visible .entry k()\\n{\\n"
            "bar.sync 0;\\nret;\\n}\\n', 'k.ptx', 'sm_90')\n"
            "from pylower.passes.registry import DEFERRED\n"
            "assert not [m for m in DEFERRED if 'pylower.passes.' + m in sys.modules]\n")
    subprocess.run([sys.executable, "-c", code], check=True)
