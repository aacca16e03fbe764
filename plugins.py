"""Plug-in modules (instruction families, phases): found by file name, and registries that import a family
module only when one of its names is first asked for.

`pkgutil.iter_modules` imports `inspect` (about 10 ms at start-up, issue 13) to name the modules it finds; the
plug-ins are plain `.py` files of one folder, so their names are read from the folder itself.

A `Registry` maps names (PTX stems, pseudo-op names) to the functions the family modules register with a
decorator (`@handler`, `@rule`). Which module registers which names is declared ahead of time, as data, next to
the registry (`lowering/handlers.py`, `isel/rules.py`; tests/test_plugins.py checks the declaration against what
the modules register): a run imports the families its input uses, not all of them (issue 13: start-up)."""
from __future__ import annotations

import importlib
import os


def module_names(package_path, wanted) -> list[str]:
    """Sorted names of the `.py` modules in the package's folder(s) for which `wanted(name)` holds."""
    names = set()
    for folder in package_path:
        try:
            entries = os.listdir(folder)
        except OSError:
            continue
        for e in entries:
            if e.endswith(".py") and e[:-3].isidentifier() and wanted(e[:-3]):
                names.add(e[:-3])
    return sorted(names)


class Registry:
    """name -> registered function. `package` holds the family modules; `modules` declares which names each
    of them registers ({module name: names}). `get(name)` imports the module declared for `name` the first
    time it is asked for; a name no module declares has no entry (None)."""

    def __init__(self, kind: str, package: str, modules: dict[str, tuple[str, ...]]):
        self.kind, self.package = kind, package
        self.modules = modules
        self._module_of = {name: m for m, names in modules.items() for name in names}
        self._entries: dict[str, object] = {}

    def add(self, name: str, fn) -> None:
        if name in self._entries:
            raise ValueError(f"two {self.kind}s for '{name}'")
        self._entries[name] = fn

    def get(self, name: str):
        fn = self._entries.get(name)
        if fn is None:
            module = self._module_of.get(name)
            if module is not None:
                importlib.import_module(f"{self.package}.{module}")
                fn = self._entries.get(name)
        return fn

    def load_all(self) -> dict[str, object]:
        """Import every family module of the package's folder (declared or not); name -> function of all of
        them."""
        pkg = importlib.import_module(self.package)
        for m in module_names(pkg.__path__, lambda n: n.startswith("fam_")):
            importlib.import_module(f"{self.package}.{m}")
        return dict(self._entries)
