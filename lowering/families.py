"""Imports every family handler module so each registers its stems in lowering.handlers.HANDLERS."""
import importlib

from pylower.plugins import module_names

from . import __path__ as _pkg_path

# Family modules are the lowering modules whose name starts with "fam_" (one per instruction family).
for _m in module_names(_pkg_path, lambda n: n.startswith("fam_")):
    importlib.import_module(f"{__package__}.{_m}")
