"""The README's "Adding a step kind" recipe, applied as written to a copy of the project,
renders in a lesson that lists the new kind."""

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
    "scenes/steps/recap.py",
    "attention_core/steps.py",
    "attention_core/words.toml",
    "lessons/greek.toml",
)


def recipe() -> list[str]:
    """The code blocks of the README's "Adding a step kind" section, in order."""
    readme = (ROOT / "README.md").read_text("utf-8")
    section = readme.split("## Adding a step kind", 1)[1].split("\n## ", 1)[0]
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
    last = re.findall(r'^    "\w+": StepKind\(.*\),\n', text, re.MULTILINE)[-1]
    registry.write_text(text.replace(last, last + registration, 1), "utf-8")
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
def test_a_new_step_kind_by_the_recipe_touches_four_files_and_renders(tmp_path: Path) -> None:
    project = project_copy(tmp_path)
    follow_recipe(project)
    assert changed_files(project) == {SCENE, REGISTRY, WORDS, GREEK}

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "render.py", *args], cwd=project, capture_output=True, text=True
        )

    steps = 'steps = ["title", "big_picture", "recap"]\n'
    greek = tmp_path / "greek_recap.toml"
    greek.write_text(steps + (project / GREEK).read_text("utf-8"), "utf-8")
    english = tmp_path / "recap.toml"
    english.write_text(steps + (project / "attention_core/lesson.toml").read_text("utf-8"))

    dry = run("--dry-run", "--scene", "recap", "--lesson", str(greek))
    assert dry.returncode == 0, dry.stderr
    assert "03_recap" in dry.stdout  # numbered by its place in the lesson
    assert "Οι μονάδες, ξανά" in dry.stdout  # the kind's Greek heading

    rendered = run(
        "--quality", "low", "--scene", "3", "--jobs", "1", "--out", "media", "--voice", "none",
        "--lesson", str(english),
    )  # fmt: skip
    assert rendered.returncode == 0, rendered.stderr
    clip = project / "media" / "low" / "03_recap.mp4"
    probe = subprocess.run(
        ["ffprobe", "-v", "error", "-show_entries", "format=duration:stream=width,height",
         "-of", "json", str(clip)],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    info = json.loads(probe.stdout)
    assert info["streams"][0]["height"] == 480
    assert float(info["format"]["duration"]) > 2  # its beat, held for its caption to be read
