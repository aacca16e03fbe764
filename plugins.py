"""Discovery of a package's plug-in modules (instruction families, phases) by file name.

`pkgutil.iter_modules` imports `inspect` (about 10 ms at start-up, issue 13) to name the modules it finds; the
plug-ins are plain `.py` files of one folder, so their names are read from the folder itself."""
from __future__ import annotations

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
