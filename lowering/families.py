"""Imports every family handler module so each registers its stems in lowering.handlers.HANDLERS."""
import importlib
import pkgutil

from . import __path__ as _pkg_path

# Family modules are the lowering modules whose name starts with "fam_" (one per instruction family).
for _m in sorted(m.name for m in pkgutil.iter_modules(_pkg_path) if m.name.startswith("fam_")):
    importlib.import_module(f"{__package__}.{_m}")
