"""Imports run one way: render.py → publish → scenes → attention_core, and inside publish from
the floor a room stands on down to the floors below it, never up and never across."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).parent.parent

FLOORS: tuple[frozenset[str], ...] = (
    frozenset({"attention_core"}),
    frozenset({"scenes"}),
    frozenset({"publish.media", "publish.presets", "publish.tools", "publish.code_digest"}),
    frozenset({"publish.beats", "publish.narration", "publish.course"}),
    frozenset({"publish.described"}),
    frozenset({"publish.kit"}),
    frozenset({"publish.render"}),
    frozenset({"publish.watch"}),
)
"""Each room (a package, or a module standing alone) by its floor, lowest first: a room imports
only rooms on floors below its own."""


def room_of(module: str) -> str | None:
    """The room a module belongs to (``publish.kit.twin`` → ``publish.kit``), if it is ours."""
    for depth in (2, 1):
        name = ".".join(module.split(".")[:depth])
        if any(name in floor for floor in FLOORS):
            return name
    return None


def floor_of(room: str) -> int:
    return next(level for level, floor in enumerate(FLOORS) if room in floor)


def imports(path: Path) -> set[str]:
    """Every module ``path`` imports, at the top or inside a function, by its full name."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found |= {node.module} | {f"{node.module}.{alias.name}" for alias in node.names}
    return found


def upward(path: Path, module: str) -> list[str]:
    """Every import in ``path`` (the source of ``module``) that runs up a floor or across to
    another room on its own."""
    own = room_of(module)
    assert own is not None, f"{module} stands in no room of FLOORS: give it a floor"
    return [
        f"{module} imports {imported} ({other}, not below {own})"
        for imported in sorted(imports(path))
        if (other := room_of(imported)) is not None
        and other != own
        and floor_of(other) >= floor_of(own)
    ]


def test_every_import_runs_down_a_floor() -> None:
    wrong = []
    for package in ("attention_core", "scenes", "publish"):
        for path in sorted((ROOT / package).rglob("*.py")):
            module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            if module != "publish.__init__":
                wrong += upward(path, module.removesuffix(".__init__"))
    assert wrong == []


def test_an_import_up_a_floor_is_caught(tmp_path: Path) -> None:
    """The check can fail: the captions (media, floor 1) reaching up to the kit."""
    misplaced = tmp_path / "captions.py"
    captions = (ROOT / "publish" / "media" / "captions.py").read_text("utf-8")
    misplaced.write_text(captions + "\nfrom publish.kit import twin\n", "utf-8")
    assert upward(misplaced, "publish.media.captions") == [
        "publish.media.captions imports publish.kit (publish.kit, not below publish.media)",
        "publish.media.captions imports publish.kit.twin (publish.kit, not below publish.media)",
    ]
    assert upward(ROOT / "publish" / "media" / "captions.py", "publish.media.captions") == []
