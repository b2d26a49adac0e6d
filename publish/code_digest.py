"""The digest of our own code: every file of the named packages and modules, by name and bytes.

Each store's key covers the code that makes what it stores: a clip's (``publish.render.cache``),
a voice's speech (``publish.narration.voices``), the described version's. It sits below them
all, so that none reaches up into another's package for it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from importlib.util import find_spec
from pathlib import Path

__all__ = ["package_files", "source_digest"]


def package_files(names: Iterable[str]) -> list[tuple[str, Path]]:
    """Every source file of the packages (or single modules), with a stable name for each."""
    found = []
    for name in names:
        spec = find_spec(name)
        if spec is None:
            raise ModuleNotFoundError(f"{name} not found")
        if spec.submodule_search_locations:
            root = Path(next(iter(spec.submodule_search_locations)))
            for path in sorted(root.rglob("*")):
                if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
                    found.append((f"{name}/{path.relative_to(root).as_posix()}", path))
        elif spec.origin:
            found.append((name, Path(spec.origin)))
    return found


def source_digest(names: Iterable[str]) -> str:
    """SHA-256 over the names and bytes of every file of the packages and modules."""
    digest = hashlib.sha256()
    for name, path in package_files(names):
        data = path.read_bytes()
        digest.update(f"{name}\0{len(data)}\0".encode())
        digest.update(data)
    return digest.hexdigest()
