"""The fast tier renders nothing: every test that reaches a session render (the ``rendered``
lesson, the ``series`` course, the ``narration_script``, the ``narrated`` lesson), directly or
through another fixture, is marked ``render``, so ``-m "not render and not browser and not
lessons"`` leaves it out.

The suite is collected by pytest itself, in a process of its own (this module run as a script
with a plugin that writes what each test asks for), so every fixture is seen as pytest resolves
it: ``copy_of`` asks for ``rendered``, and a test asking for ``copy_of`` reaches it too.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).parent.parent
SESSION_RENDERS = frozenset({"rendered", "series", "narration_script", "narrated"})
"""The conftest fixtures that render (or dry-run every step) once for the whole run."""


class _Collected:
    """A pytest plugin: after collection, each test's id, the session renders it reaches and
    its markers, as JSON into ``into``."""

    def __init__(self, into: Path) -> None:
        self.into = into

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        tests = [
            {
                "id": item.nodeid,
                "renders": sorted(SESSION_RENDERS & set(getattr(item, "fixturenames", ()))),
                "marks": sorted({mark.name for mark in item.iter_markers()}),
            }
            for item in session.items
        ]
        self.into.write_text(json.dumps(tests), "utf-8")


def collected(into: Path) -> list[dict[str, Any]]:
    """Every test of the suite as pytest collects it (in another process: see the module)."""
    done = subprocess.run(
        [sys.executable, "-m", "tests.test_markers", str(into)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    tests: list[dict[str, Any]] = json.loads(into.read_text("utf-8"))
    return tests


def test_every_test_that_reaches_a_session_render_is_marked_render(tmp_path: Path) -> None:
    tests = collected(tmp_path / "collected.json")
    users = {test["id"]: test for test in tests if test["renders"]}
    unmarked = [
        f"{name} uses {', '.join(test['renders'])}"
        for name, test in users.items()
        if "render" not in test["marks"]
    ]
    assert unmarked == []
    # the check sees what it is for: each fixture's users, and one reached through another
    assert {name for test in users.values() for name in test["renders"]} == SESSION_RENDERS
    through_copy = "tests/test_render.py::test_scene_picks_steps_from_the_cache"
    assert users[through_copy]["renders"] == ["rendered"]  # it asks for copy_of only
    assert len(tests) > 1000  # the whole suite, not a part of it


if __name__ == "__main__":
    # -n 0: collected once, here; -p no:cacheprovider: leaves nothing behind in the checkout
    arguments = ["--collect-only", "-q", "-n", "0", "-p", "no:cacheprovider", str(ROOT / "tests")]
    sys.exit(pytest.main(arguments, plugins=[_Collected(Path(sys.argv[1]))]))
