"""The README's "Adding a step" recipe, applied as written to a copy of the project, renders."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
PACKAGES = ("attention_core", "scenes", "publish", "lessons")
SCENE, REGISTRY, WORDS, GREEK = (
    "scenes/step8_mask.py",
    "scenes/__init__.py",
    "attention_core/words.toml",
    "lessons/greek.toml",
)


def recipe() -> list[str]:
    """The code blocks of the README's "Adding a step" section, in order."""
    readme = (ROOT / "README.md").read_text("utf-8")
    section = readme.split("## Adding a step", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```(?:python|toml)\n(.*?)```", section, re.DOTALL)


def project_copy(where: Path) -> Path:
    for package in PACKAGES:
        shutil.copytree(
            ROOT / package, where / package, ignore=shutil.ignore_patterns("__pycache__")
        )
    shutil.copy(ROOT / "render.py", where / "render.py")
    return where


def follow_recipe(project: Path) -> None:
    scene, registration, words, greek = recipe()
    (project / SCENE).write_text(scene, "utf-8")
    registry = project / REGISTRY
    text = registry.read_text("utf-8")
    last = re.findall(r"^from scenes\.step\d_\w+ import \w+\n", text, re.MULTILINE)[-1]
    text = text.replace(last, last + registration, 1)
    *_, tuple_end = re.finditer(r"\n\)\n", text)  # the end of SCENES, the module's last tuple
    name = re.search(r"import (\w+)", registration)
    assert name is not None
    text = f"{text[: tuple_end.start()]}\n    {name[1]},{text[tuple_end.start() :]}"
    registry.write_text(text, "utf-8")
    for path, block in ((WORDS, words), (GREEK, greek)):
        with (project / path).open("a", encoding="utf-8") as file:
            file.write("\n" + block)


def changed_files(project: Path) -> set[str]:
    """The files of the copy that differ from the project's own, or are new."""
    changed = set()
    for path in project.rglob("*"):
        if path.is_file() and "__pycache__" not in path.parts and "media" not in path.parts:
            name = path.relative_to(project).as_posix()
            original = ROOT / name
            if not original.exists() or original.read_bytes() != path.read_bytes():
                changed.add(name)
    return changed


@pytest.mark.render
def test_an_eighth_step_by_the_recipe_touches_four_files_and_renders(tmp_path: Path) -> None:
    project = project_copy(tmp_path)
    follow_recipe(project)
    assert changed_files(project) == {SCENE, REGISTRY, WORDS, GREEK}

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "render.py", *args], cwd=project, capture_output=True, text=True
        )

    dry = run("--dry-run", "--scene", "8", "--lesson", "lessons/greek.toml")
    assert dry.returncode == 0, dry.stderr
    assert "Μια μονάδα κοιτά μόνο πίσω" in dry.stdout  # the step's Greek heading

    rendered = run("--quality", "low", "--scene", "8", "--jobs", "1", "--out", "media")
    assert rendered.returncode == 0, rendered.stderr
    clip = project / "media" / "low" / "08_mask.mp4"
    probe = subprocess.run(
        ["ffprobe", "-v", "error", "-show_entries", "format=duration:stream=width,height",
         "-of", "json", str(clip)],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    info = json.loads(probe.stdout)
    assert info["streams"][0]["height"] == 480
    assert float(info["format"]["duration"]) > 2  # its beat, held for its caption to be read
