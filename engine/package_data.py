"""A data file of a package, read by the package's own loader.

What `pkgutil.get_data` does, without importing `pkgutil` (in Pyodide its import, with the
named tuple it compiles, costs more than the read): in the browser the loader is zipimport's,
which reads the file from the zip the package came from; from the source tree, the file
system's. The game's prize table and the dataclass code cache are read this way before a
page's first frame (docs/build.md, "Our part of the start").
"""

from __future__ import annotations

import importlib


def read(package: str, name: str) -> bytes:
    """The bytes of `name` in the folder of `package` (imported if it is not yet); OSError
    when there is no such file, or the package's loader cannot read files."""
    module = importlib.import_module(package)
    get_data = getattr(getattr(module.__spec__, "loader", None), "get_data", None)
    folder = (getattr(module, "__file__", None) or "").rpartition("/")[0]
    if not folder or get_data is None:
        raise OSError(f"{package} cannot read its {name}")
    data: bytes = get_data(f"{folder}/{name}")
    return data
