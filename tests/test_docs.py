"""The README is a door (at most 12,000 characters, its first lesson a lesson) and the docs a
site whose every page exists, is listed, and whose schema tables say every field."""

from __future__ import annotations

import functools
import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import yaml

from attention_core import schema

ROOT = Path(__file__).parent.parent
README = ROOT / "README.md"
DOCS = ROOT / "docs"
CONFIG = yaml.safe_load((ROOT / "mkdocs.yml").read_text("utf-8"))


def _module(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@functools.cache
def lesson_schema_hook() -> ModuleType:
    """docs/lesson_schema.py, the MkDocs hook that writes the lesson file's fields."""
    return _module(DOCS / "lesson_schema.py")


def _pages(nav: list[Any]) -> list[str]:
    pages: list[str] = []
    for entry in nav:
        for value in entry.values() if isinstance(entry, dict) else [entry]:
            pages += _pages(value) if isinstance(value, list) else [value]
    return pages


def test_the_readme_is_read_in_five_minutes() -> None:
    assert len(README.read_text("utf-8")) <= 12_000


def test_every_page_the_site_lists_exists_and_every_page_is_listed() -> None:
    listed = _pages(CONFIG["nav"])
    assert listed, "mkdocs.yml lists no pages"
    for page in listed:
        assert (DOCS / page).is_file(), f"mkdocs.yml lists {page}, which docs/ lacks"
    assert sorted(listed) == sorted(path.name for path in DOCS.glob("*.md"))
    for hook in CONFIG["hooks"]:
        assert (ROOT / hook).is_file(), hook


def test_every_docs_link_in_the_readme_names_a_page() -> None:
    links = re.findall(r"\]\((docs/[^)#]+)", README.read_text("utf-8"))
    assert links
    for link in links:
        assert (ROOT / link).is_file(), link


def test_the_readme_first_lesson_checks_and_prints_what_the_readme_shows(tmp_path: Path) -> None:
    readme = README.read_text("utf-8")
    section = readme[readme.index("## A first lesson") : readme.index("## Where to read on")]
    blocks = dict(re.findall(r"^```(\w*)\n(.*?)^```$", section, re.MULTILINE | re.DOTALL)[::-1])
    lesson, printed = blocks["toml"], blocks[""]  # the first of each: the lesson, its print
    (tmp_path / "my_lesson.toml").write_text(lesson, "utf-8")
    checked = subprocess.run(
        [sys.executable, str(ROOT / "render.py"), "--check-lesson", "my_lesson.toml"],
        cwd=tmp_path, capture_output=True, text=True,
    )  # fmt: skip
    assert checked.returncode == 0, checked.stderr
    assert checked.stdout == printed


def test_the_fields_page_says_every_field_of_the_schema_with_its_description() -> None:
    hook, lesson = lesson_schema_hook(), schema.lesson_schema()
    page = hook.fields(lesson)
    properties = lesson["properties"]
    for name, node in properties.items():
        assert re.search(rf"\| `\[*{name}\]*` \| {re.escape(node['description'])}", page), name
    tables = {"tokens[i]": properties["tokens"]["items"], "heads[h]": properties["heads"]["items"]}
    tables |= {"rival": properties["rival"], "citation": properties["citation"]}
    tables |= {f"quiz kind {n}": kind for n, kind in enumerate(properties["quiz"]["oneOf"], 1)}
    for path, table in tables.items():
        prefix = path.split(" ")[0]
        for name, node in table["properties"].items():
            row = f"| `{prefix}.{name}` | {node['description']} |"
            assert row in page, row


def test_every_step_kind_and_every_rule_of_presence_is_said() -> None:
    hook, lesson = lesson_schema_hook(), schema.lesson_schema()
    needs = hook.needs(lesson)
    for kind in lesson["properties"]["steps"]["items"]["enum"]:
        assert f"| `{kind}` |" in needs, kind
    assert "| `heads` | every token's `embedding`; 2 `heads` or more |" in needs
    rules = hook.rules(lesson).splitlines()
    listed = [rule for rule in lesson["allOf"] if "steps" in json.dumps(rule.get("if", {}))]
    assert len(rules) == len(lesson["allOf"]) - len(listed) + len(lesson["dependencies"])
    assert "- With `mask`, the lesson needs `heads` or every token's `query`." in rules


def test_a_rule_the_hook_cannot_say_fails_the_build() -> None:
    hook, lesson = lesson_schema_hook(), schema.lesson_schema()
    lesson["allOf"].append({"if": {"required": ["mask"]}, "then": {"minProperties": 3}})
    with pytest.raises(ValueError, match="cannot say"):
        hook.rules(lesson)


def test_the_markers_are_replaced_and_other_pages_left_alone() -> None:
    hook = lesson_schema_hook()
    built = hook.on_page_markdown((DOCS / "lesson-fields.md").read_text("utf-8"))
    assert "<!-- schema:" not in built
    assert "| `tokens[i].embedding` |" in built
    plain = (DOCS / "rendering.md").read_text("utf-8")
    assert hook.on_page_markdown(plain) == plain


def test_the_benchmarks_page_includes_benchmarks_md_whole() -> None:
    include = _module(DOCS / "include.py")
    built = include.on_page_markdown((DOCS / "benchmarks.md").read_text("utf-8"))
    assert "<!-- include" not in built
    for line in (ROOT / "BENCHMARKS.md").read_text("utf-8").splitlines():
        assert line.lstrip("#") in built
    assert "\n## Render speed\n" in built  # its title, under the page's own
