"""A typeset text or formula loaded from the shelf draws exactly as one typeset anew."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pytest
from manim import Camera, Mobject, tempconfig

from publish.presets import QUALITIES
from publish.render.shelf import Shelf, prune
from scenes import style, typeset
from scenes.helpers import math, text, vector_mob
from scenes.toolkit.figures import figure

from .conftest import ROOT

MADE: dict[str, Callable[[], Mobject]] = {
    "text": lambda: text("Each token holds out a key, to be matched on.", bold=True),
    "greek": lambda: text("Κάθε λέξη δίνει ένα κλειδί.", colour=style.KEY),
    "formula": lambda: math(r"e^{3}", r"\approx", "20.1"),
    "vector": lambda: vector_mob(["2", "0", "1", "1"], style.QUERY),
    "figure": lambda: figure("-12.25", size=style.NUMBER_SIZE, bold=True),
}


def drawn(mobject: Mobject) -> np.ndarray:
    camera = Camera()
    camera.capture_mobject(mobject)
    return np.array(camera.pixel_array)


@pytest.fixture
def fresh_process() -> Iterator[Callable[[], None]]:
    """Forget what this process typeset, as a new process would have, with no shelf but the
    one the test gives it; after, the process keeps on the shelf it kept on before."""
    before = typeset.shelve(None)
    yield typeset.forget
    typeset.shelve(before)
    typeset.forget()


AT_EVERY_QUALITY = {
    "text": "Each token holds out a key, to be matched on.",
    "arabic": "يعطي كل رمز مفتاحًا",  # set flush right
    "wide": "W" * 100,  # wider than a 480p picture's SVG, which cut it at about 77 letters
}


@pytest.mark.parametrize("name", AT_EVERY_QUALITY)
def test_a_text_typeset_for_a_480p_picture_is_the_one_a_1080p_picture_loads(
    tmp_path: Path, fresh_process: Callable[[], None], name: str
) -> None:
    """A draft preview's or a dry run's texts are a 1080p render's: set on one canvas, the same
    points, every letter there, kept once on the shelf and loaded, not typeset again."""
    content = AT_EVERY_QUALITY[name]
    typeset.shelve(Shelf(tmp_path / "shelf", "salt"))
    made = {}
    for quality in (QUALITIES["draft"], QUALITIES["high"]):
        with tempconfig({"quality": quality.preset, "media_dir": str(tmp_path / quality.name)}):
            fresh_process()
            made[quality.height] = text(content)
    assert len(list((tmp_path / "shelf").glob("*.pickle"))) == 1
    fresh_process()
    with tempconfig({"quality": "high_quality", "media_dir": str(tmp_path / "anew")}):
        anew = text(content)  # no shelf: typeset for the 1080p picture
    for typed in (made[480], made[1080]):
        assert np.array_equal(typed.get_all_points(), anew.get_all_points())
    assert len(anew.submobjects) == len(content.replace(" ", ""))


@pytest.mark.parametrize("name", MADE)
def test_a_mobject_from_the_shelf_draws_as_one_typeset_anew(
    tmp_path: Path, fresh_process: Callable[[], None], name: str
) -> None:
    fresh_process()
    anew = MADE[name]()
    fresh_process()
    typeset.shelve(Shelf(tmp_path, "salt"))
    MADE[name]()  # typeset again, and kept on the shelf
    assert len(list(tmp_path.glob("*.pickle"))) == 1
    fresh_process()
    loaded = MADE[name]()
    assert type(loaded) is type(anew)
    assert np.array_equal(loaded.get_all_points(), anew.get_all_points())
    assert getattr(loaded, "original_text", None) == getattr(anew, "original_text", None)
    assert np.array_equal(drawn(loaded), drawn(anew))
    assert drawn(anew).any()


def test_another_salt_or_frame_typesets_anew_and_a_bad_file_is_replaced(
    tmp_path: Path, fresh_process: Callable[[], None]
) -> None:
    fresh_process()
    typeset.shelve(Shelf(tmp_path, "code one"))
    MADE["text"]()
    typeset.shelve(Shelf(tmp_path, "code two"))
    fresh_process()
    MADE["text"]()
    kept = sorted(tmp_path.glob("*.pickle"))
    assert len(kept) == 2  # the same arguments, kept apart by what else shapes them
    for file in kept:
        file.write_bytes(file.read_bytes()[:100])  # as a kill mid-write would leave it (cannot)
    fresh_process()
    again = MADE["text"]()
    assert np.array_equal(drawn(again), drawn(MADE["text"]()))
    assert len(list(tmp_path.glob("*.pickle"))) == 2
    assert not list(tmp_path.glob(".*"))  # nothing staged is left


def test_pruning_keeps_the_most_recently_used(tmp_path: Path) -> None:
    for age, name in enumerate("abc"):
        file = tmp_path / f"{name}.pickle"
        file.write_bytes(b"x" * 1000)
        stamp = 1_000_000 + age
        os.utime(file, (stamp, stamp))
    (tmp_path / "other.txt").write_bytes(b"x" * 1000)  # not the shelf's
    prune(tmp_path, room=2000)
    assert sorted(f.name for f in tmp_path.iterdir()) == ["b.pickle", "c.pickle", "other.txt"]


def test_a_render_process_keeps_what_it_typeset_for_the_next(tmp_path: Path) -> None:
    """Two processes: the second loads every text the first typeset, and none anew."""
    script = (
        "import sys\n"
        "from pathlib import Path\n"
        "from scenes import typeset\n"
        "from scenes.helpers import text\n"
        "from publish.render.shelf import Shelf\n"
        "typeset.shelve(Shelf(Path(sys.argv[1]), 'salt'))\n"
        "import manim\n"
        "manim.config.media_dir = sys.argv[2]  # its SVGs: this test's, not the checkout's\n"
        "made = []\n"
        "real = typeset._typeset\n"
        "typeset._typeset = lambda kind, a, k: made.append(a) or real(kind, a, k)\n"
        "for n in range(5):\n"
        "    text(f'{n} fillers')\n"
        "print(len(made))\n"
    )
    runs = [
        subprocess.run(
            [sys.executable, "-c", script, str(tmp_path / "shelf"), str(tmp_path / "media")],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split()[-1]
        for _ in range(2)
    ]
    assert runs == ["5", "0"]


MID_WRITE = """
import resource, signal, sys
from pathlib import Path
import manim
from publish.render.shelf import Shelf
from scenes.helpers import text
folder = Path(sys.argv[1])
manim.config.media_dir = str(folder / "media")
made = text("Each token holds out a key, to be matched on.")  # manim writes its SVG now
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # past the limit a write fails: EFBIG
resource.setrlimit(resource.RLIMIT_FSIZE, (4096, resource.RLIM_INFINITY))
Shelf(folder / "shelf", "salt").keep(("words",), made)  # its pickle is far over 4 KiB
print(sorted(path.name for path in (folder / "shelf").iterdir()))
"""
"""A process that can write no file over 4 KiB shelves a text: the file is cut off by an
OSError (file too large) once its first 4 KiB are written."""


def test_an_oserror_mid_write_leaves_nothing_on_the_shelf(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", MID_WRITE, str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["[]"]  # neither the file nor a part of it
