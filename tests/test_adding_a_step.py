"""The docs' "Adding a step kind" recipe (docs/adding-a-step-kind.md), applied as written to
a copy of the project: the new kind renders in a lesson that lists it, its twin passes the
twin's proof in Chromium (tests/test_twin.py's check), and the handout gives it a section."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from .test_lecture_kit import browser  # noqa: F401 (a fixture)
from .test_twin import shown

ROOT = Path(__file__).parent.parent
PACKAGES = ("attention_core", "scenes", "publish", "lessons")
SCENE, REGISTRY, WORDS, GREEK = (
    "scenes/steps/recap.py",
    "attention_core/steps.py",
    "attention_core/words.toml",
    "lessons/greek.toml",
)


def recipe() -> list[str]:
    """The code blocks of the recipe's page, docs/adding-a-step-kind.md, in order."""
    page = (ROOT / "docs" / "adding-a-step-kind.md").read_text("utf-8")
    return re.findall(r"```(?:python|toml)\n(.*?)```", page, re.DOTALL)


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
    end = "\n}\n" + '"""Every step kind by the name'  # the close of KINDS: the entry goes last
    assert text.count(end) == 1
    registry.write_text(text.replace(end, "\n" + registration.rstrip("\n") + end, 1), "utf-8")
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


PROOF = """
import json, sys
from pathlib import Path
from attention_core import load_lesson
from attention_core.worked import worked
from publish.kit import handout, twin
from publish.kit.twin_numbers import numbers

lesson, folder = load_lesson(sys.argv[1]), Path(sys.argv[2])
(folder / twin.NAME).write_text(twin.twin_html(lesson), "utf-8")
handout.write_handout(folder, lesson)
for file in sys.argv[3:]:  # the lesson edited, as a viewer edits the page's fields
    w = worked(load_lesson(file))
    found = [[kind, *k, text] for kind in w.lesson.steps for k, text in numbers(w, kind).items()]
    print(json.dumps(found))
"""
"""Run in the copy: its twin page and handout for a lesson, and what attention_core shows of
each edited version, by step kind and key (tests/test_twin.py's ``expected``)."""


@pytest.mark.render
@pytest.mark.browser
def test_a_new_step_kind_by_the_recipe_touches_four_files_and_renders(
    tmp_path: Path,
    browser: Browser,  # noqa: F811
) -> None:
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

    # The twin's proof on the new kind: every number the page shows is attention_core's, before
    # and after a viewer changes the query, and every one of those is on the page.
    edited = tmp_path / "recap_edited.toml"
    first = re.compile(r"^query = \[[^,\]]+", re.MULTILINE)  # its first entry becomes 3
    edited.write_text(first.sub("query = [3", english.read_text("utf-8"), count=1), "utf-8")
    folder = tmp_path / "kit"
    folder.mkdir()
    made = subprocess.run(
        [sys.executable, "-c", PROOF, str(english), str(folder), str(english), str(edited)],
        cwd=project, capture_output=True, text=True,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    own, changed = (
        {tuple(item[:6]): item[6] for item in json.loads(line)}
        for line in made.stdout.split("\n")[:2]
    )
    assert any(k[0] == "recap" for k in own), "the recipe's kind shows numbers in the twin"
    assert own != changed
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto((folder / "twin.html").as_uri())
    assert shown(page) == own
    page.fill('[data-input="query"][data-index="0"]', "3")
    assert shown(page) == changed
    page.click("[data-twin-back]")
    assert shown(page) == own
    page.close()
    assert not errors, errors

    # The handout: the new kind's section, its heading and its shares.
    paper = (folder / "handout.html").read_text("utf-8")
    assert "Step 1 · The tokens, once more" in paper  # title and big_picture have none
    assert {text for k, text in own.items() if k[0] == "recap"} <= set(
        re.findall(r"[\d.]+%", paper)
    )
