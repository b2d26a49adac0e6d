"""The one door to manim's internals: it alone names them, it checks manim's version, and what it
does behind it changes nothing a viewer sees.

Converting a held frame once writes what manim's own encoder writes: the same pictures, and for
MP4 and MOV the same bytes (a WebM file carries a random segment id, so only its pictures are
compared). Copies of a text glyph share its parsed SVG path, and are otherwise independent.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import av
import numpy as np
import pytest
from manim import (
    LEFT,
    RED,
    RIGHT,
    CairoRenderer,
    Circle,
    Create,
    Dot,
    FadeIn,
    MarkupText,
    MathTex,
    Mobject,
    MovingCamera,
    Scene,
    Square,
    Text,
    VGroup,
    VMobject,
    tempconfig,
)
from manim._config.video_encoder import VideoEncoderSpec
from manim.scene.scene_file_writer import SceneFileWriter
from manim.scene.video_segment_encoder import VideoSegmentEncoder

from publish.render.worker import encoder_options
from scenes import manim_internals  # importing the scenes installs the speed-ups
from scenes.held_pictures import is_copy
from scenes.manim_internals import (
    HeldFrameEncoder,
    HeldFrameWriter,
    QuotingWriter,
    version_advice,
)

ROOT = Path(__file__).parent.parent
DOOR = ROOT / "scenes" / "manim_internals.py"
STDLIB_DOOR = ROOT / "publish" / "render" / "stdlib_internals.py"
DOORS_AND_THEIR_TESTS = {
    DOOR,
    STDLIB_DOOR,
    Path(__file__),
    ROOT / "tests" / "test_stdlib_internals.py",
}
PRIVATE = re.compile(
    r"\bmanim\._[a-z]|^\s*(from|import) manim\.\w"  # modules inside manim, not its public face
    r"|\b(VideoSegmentEncoder|VideoEncoderSpec|SceneFileWriter|_create_segment_encoder"
    r"|file_writer_class|output_plan|primary_artifact|subcaption_file|_code_html"
    r"|VMobjectFromSVGPath|path_obj|update_frame|save_static_frame_data"
    r"|last_t|time_progression|moving_mobjects|static_mobjects|stop_condition"
    r"|fill_rgbas|stroke_rgbas|background_stroke_rgbas|_bezier_t_values)\b"
)
"""Every version-specific manim name the project uses (public in Python's sense but not in
manim's documentation: a Scene's clock, a VMobject's arrays), and any import from inside
manim's package: the door and its own tests may name them, nothing else."""
PUBLIC_WITH_AN_UNDERSCORE = {
    "_exit": "os._exit, documented: end a process without its interpreter's teardown",
    "_Element": "lxml.etree._Element, lxml's documented element class",
    "_element": "python-pptx's XML element of a shape (pinned 1.0.2): not manim's or the "
    "standard library's, so behind neither door",
    "_described": "no name: the described video's file name's suffix "
    "(publish.described.holds.described_name), read as a string",
}
"""Names that begin with an underscore and that code outside the doors may use, and why."""

WIDTH, HEIGHT = 320, 180

PROFILES = {
    "mp4": ("mp4", "libx264", "yuv420p", encoder_options("mp4", transparent=False)),
    "transparent webm": ("webm", "libvpx-vp9", "yuva420p", encoder_options("webm", True)),
    "transparent mov": ("mov", "qtrle", "argb", encoder_options("mov", transparent=True)),
}


def _frames() -> list[tuple[np.ndarray, int]]:
    """A held frame, a square moving, held, moving on: (pixels, repeat) as manim sends them."""
    sent = []
    for step, repeat in enumerate((12, 1, 1, 1, 30, 1, 1, 7)):
        pixels = np.zeros((HEIGHT, WIDTH, 4), np.uint8)
        pixels[:] = (20, 22, 28, 255 if step % 2 else 128)
        pixels[40:90, 10 + 20 * step : 60 + 20 * step] = (230, 159, 0, 255)
        sent.append((pixels, repeat))
    return sent


def _encode(encoder_class: type[VideoSegmentEncoder], target: Path, profile: str) -> bytes:
    container, codec, pixel_format, options = PROFILES[profile]
    spec = VideoEncoderSpec(
        container_format=container,
        codec=codec,
        pixel_format=pixel_format,
        width=WIDTH,
        height=HEIGHT,
        frame_rate=Fraction(60),
        options=tuple(sorted(options.items())),
    )
    encoder = encoder_class(target=target, spec=spec)
    for pixels, repeat in _frames():
        encoder.write_frame(pixels.copy(), repeat=repeat)
    encoder.finish()
    return target.read_bytes()


@pytest.mark.parametrize("profile", ["transparent webm", "transparent mov"])
def test_held_frames_encode_to_manims_bytes(profile: str, tmp_path: Path) -> None:
    suffix = PROFILES[profile][0]
    manims = _encode(VideoSegmentEncoder, tmp_path / f"manim.{suffix}", profile)
    ours = _encode(HeldFrameEncoder, tmp_path / f"ours.{suffix}", profile)
    assert _pictures(tmp_path / f"ours.{suffix}") == _pictures(tmp_path / f"manim.{suffix}")
    if suffix != "webm":
        assert ours == manims


@pytest.mark.parametrize("moves", range(2, 14))
def test_a_hold_copies_the_last_picture_drawn_not_the_last_decoded(
    moves: int, tmp_path: Path
) -> None:
    """With B-frames, x264's last picture decoded can be one shown before the last; the copies
    must repeat the last shown (with 9 moves a reference B-frame is decoded after it)."""
    _, codec, pixel_format, options = PROFILES["mp4"]
    spec = VideoEncoderSpec(
        "mp4", codec, pixel_format, WIDTH, HEIGHT, Fraction(60), tuple(sorted(options.items()))
    )
    encoder = HeldFrameEncoder(target=tmp_path / "moves.mp4", spec=spec)
    for step in range(moves):
        pixels = np.zeros((HEIGHT, WIDTH, 4), np.uint8)
        pixels[:] = (20, 22, 28, 255)
        pixels[40:90, 10 + 15 * step : 60 + 15 * step] = (230, 159, 0, 255)
        encoder.write_frame(pixels, repeat=1 if step < moves - 1 else 8)
    encoder.finish()
    with av.open(str(tmp_path / "moves.mp4")) as container:
        pictures = [b"".join(map(bytes, frame.planes)) for frame in container.decode(video=0)]
    assert len(pictures) == moves - 1 + 8
    assert len(set(pictures[-8:])) == 1
    assert pictures[-9] != pictures[-8]


def test_a_hold_that_ends_a_segment_is_written_as_copies_of_its_picture(tmp_path: Path) -> None:
    """H.264: x264 encodes the held picture once; each repeat is a picture of every macroblock
    skipped, a few bytes, decoding to exactly that picture. The picture held is the last one
    drawn, not the B-frame decoded after it (the square moves in every drawn frame)."""
    manims = _encode(VideoSegmentEncoder, tmp_path / "manim.mp4", "mp4")
    ours = _encode(HeldFrameEncoder, tmp_path / "ours.mp4", "mp4")
    held = _frames()[-1][1]
    pictures, plain = _pictures(tmp_path / "ours.mp4"), _pictures(tmp_path / "manim.mp4")
    assert len(set(pictures[-held:])) == 1
    for picture, manims_picture in zip(pictures, plain, strict=True):
        difference = np.abs(
            np.frombuffer(picture, np.uint8).astype(int) - np.frombuffer(manims_picture, np.uint8)
        )
        assert difference.mean() < 1.0  # the same pictures, as x264 sees them
    with av.open(str(tmp_path / "ours.mp4")) as container:
        samples = [bytes(packet) for packet in container.demux(video=0) if packet.size]
    assert len(samples) == len(pictures)  # every frame is in the file: constant 60 fps
    copies = [is_copy(sample) for sample in samples]
    assert copies == [False] * (len(samples) - held + 1) + [True] * (held - 1)
    assert max(map(len, samples[-(held - 1) :])) < 40
    assert len(ours) < len(manims)


def _pictures(video: Path) -> list[bytes]:
    with av.open(str(video)) as container:
        pictures = [b"".join(map(bytes, frame.planes)) for frame in container.decode(video=0)]
    assert len(pictures) == sum(repeat for _, repeat in _frames())
    return pictures


def test_a_bad_repeat_is_refused_as_manim_does(tmp_path: Path) -> None:
    container, codec, pixel_format, options = PROFILES["mp4"]
    spec = VideoEncoderSpec(container, codec, pixel_format, WIDTH, HEIGHT, Fraction(60), ())
    encoder = HeldFrameEncoder(target=tmp_path / "bad.mp4", spec=spec)
    with pytest.raises(ValueError, match="repeat"):
        encoder.write_frame(np.zeros((HEIGHT, WIDTH, 4), np.uint8), repeat=0)
    encoder.abort()


def test_the_segment_list_quotes_an_apostrophe() -> None:
    """What manim's file writer hands ffmpeg to join a clip's segments: any ``--out`` reads."""
    listing = QuotingWriter._concat_manifest_bytes(["/tmp/it's/a.mp4"]).decode()
    assert listing == "file 'file:/tmp/it'\\''s/a.mp4'\n"


def test_a_text_forgets_its_svg_parse_and_a_copy_shares_nothing_it_can_change(
    tmp_path,
) -> None:
    with tempconfig({"media_dir": str(tmp_path)}):
        original = Text("Ag", font="Inter")
        markup = MarkupText("<b>Ag</b>", font="Inter")
        formula = MathTex("a", "+", "b")
    assert original.id_to_vgroup_dict == markup.id_to_vgroup_dict == {}
    assert formula.get_part_by_tex("+") is not None  # a formula's parts by TeX are kept
    copy = original.copy()
    for glyph, copied in zip(original, copy, strict=True):
        assert glyph.path_obj is None  # read once into the points, then not kept, nor pickled
        assert len(glyph.points) > 0
        assert copied is not glyph
        assert copied.points is not glyph.points
        np.testing.assert_array_equal(copied.points, glyph.points)
    copy.set_color(RED).shift([1, 0, 0])
    assert not np.allclose(copy[0].points, original[0].points)
    assert original[0].get_fill_color() != copy[0].get_fill_color()


def test_a_boundary_gathered_whole_is_manims_point_by_point(tmp_path) -> None:
    with tempconfig({"media_dir": str(tmp_path)}):
        shapes = [
            Text("Ag", font="Inter"),
            MathTex(r"\frac{1}{\sqrt{2}}"),
            VGroup(Square(), VMobject(), Dot().shift([1, 2, 0])),
            VMobject().set_points(np.array([[1.0, 2.0, 0.0]])),
            VMobject(),
        ]
    assert VMobject.get_points_defining_boundary is manim_internals._boundary_quickly
    for shape in shapes:
        gathered = shape.get_points_defining_boundary()
        plain = manim_internals._boundary_point_by_point(shape)
        assert gathered.shape == plain.shape
        np.testing.assert_array_equal(gathered, plain)
    broken = VMobject().set_points(np.zeros((6, 3)))  # not whole curves: refused, as manim does
    with pytest.raises(ValueError, match="not whole curves"):
        broken.get_points_defining_boundary()
    with pytest.raises(ValueError, match="shorter"):
        manim_internals._boundary_point_by_point(broken)


class _Moves(Scene):
    """A square held, a circle drawn over it, the square moving, a still wait."""

    def construct(self) -> None:
        square = Square().shift(LEFT * 2)
        self.add(square)
        self.wait(0.2)
        self.play(Create(Circle()), run_time=0.5)
        self.play(square.animate.shift(RIGHT * 3), run_time=0.5)
        self.wait(0.5)


def _frames_sent(renderer_class: type[CairoRenderer], media: Path) -> list[tuple[Any, ...]]:
    """Each frame the renderer sends: its pixels, a copy taken as it is sent, its repeats."""
    sent: list[tuple[Any, ...]] = []

    class Recording(HeldFrameWriter):
        def write_frame(self, pixels: Any, *, repeat: int = 1) -> None:
            sent.append((pixels, pixels.copy(), repeat))
            super().write_frame(pixels, repeat=repeat)

    small = {"pixel_width": 320, "pixel_height": 180, "frame_rate": 15}
    with tempconfig({**small, "media_dir": str(media), "progress_bar": "none"}):
        renderer = renderer_class(file_writer_class=Recording, camera_class=MovingCamera)
        _Moves(renderer=renderer).render()
    return sent


def test_a_frame_handed_over_is_manims_copy_and_is_not_drawn_on_again(tmp_path: Path) -> None:
    manims = _frames_sent(CairoRenderer, tmp_path / "manim")
    ours = _frames_sent(manim_internals._HandingOver, tmp_path / "ours")
    assert len(ours) == len(manims) > 10
    for (pixels, when_sent, repeat), (_, manims_pixels, manims_repeat) in zip(
        ours, manims, strict=True
    ):
        assert repeat == manims_repeat
        np.testing.assert_array_equal(when_sent, manims_pixels)
        np.testing.assert_array_equal(pixels, when_sent)  # the render over: never drawn on
    assert len({id(pixels) for pixels, _, _ in ours}) == len(ours)  # each frame its own


def test_a_family_listed_in_one_walk_is_manims() -> None:
    square, circle, dot = Square(), VMobject(), Dot()
    inner = VGroup(square, circle)
    twice = VGroup(inner, dot, VGroup(square), VGroup(inner))  # met twice: the last kept
    own_ancestor = VGroup(dot)
    own_ancestor.submobjects.append(own_ancestor)  # a loop: left out below itself
    assert Mobject.get_family is manim_internals._family_quickly
    for mob in (square, inner, twice, own_ancestor, VGroup()):
        listed = mob.get_family()
        plain = manim_internals._family_by_generators(mob)
        assert [id(m) for m in listed] == [id(m) for m in plain]
    assert twice.get_family().count(square) == 1


def _sources() -> list[Path]:
    return [
        path
        for folder in ("attention_core", "scenes", "publish", "bench", "tests")
        for path in (ROOT / folder).rglob("*.py")
    ] + [ROOT / "render.py"]


def test_no_code_outside_the_door_names_manims_internals() -> None:
    outside = [path for path in _sources() if path not in DOORS_AND_THEIR_TESTS]
    named = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in outside
        for number, line in enumerate(path.read_text("utf-8").splitlines(), 1)
        if PRIVATE.search(line)
    ]
    assert named == []
    assert PRIVATE.search(DOOR.read_text("utf-8"))  # the pattern still finds what it is for


def private_names(trees: dict[Path, ast.Module]) -> list[str]:
    """Where ``trees`` name a private name of another's code: an attribute, a string (as
    ``getattr`` takes) or an import whose name starts with one underscore, that none of
    ``trees`` defines (as a function, class, argument, assigned name or attribute, or an
    attribute set through ``object.__setattr__`` or ``__dict__``)."""
    own: set[str] = set()
    for tree in trees.values():
        for node in ast.walk(tree):
            own.update(_defined(node))
    found = []
    for path, tree in trees.items():
        for node in ast.walk(tree):
            for name in _used(node):
                if _private(name) and name not in own and name not in PUBLIC_WITH_AN_UNDERSCORE:
                    found.append(f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', 0)}: {name}")
    return found


def _private(name: object) -> bool:
    return isinstance(name, str) and re.fullmatch(r"_[A-Za-z]\w*", name) is not None


def _defined(node: ast.AST) -> list[str]:
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return [node.name]
    if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
        return [node.id]
    if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
        return [node.attr]
    if isinstance(node, ast.arg):
        return [node.arg]
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        # object.__setattr__(copy, "_reads", …), worked.__dict__.setdefault("_parts", …)
        args = node.args
        if node.func.attr == "__setattr__" and len(args) > 1 and isinstance(args[1], ast.Constant):
            return [args[1].value]
        target = node.func.value
        dictionary = isinstance(target, ast.Attribute) and target.attr == "__dict__"
        if dictionary and args and isinstance(args[0], ast.Constant):
            return [args[0].value]
    return []


def _used(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Attribute):
        return [node.attr]
    if isinstance(node, ast.Constant):
        return [node.value]
    if isinstance(node, ast.ImportFrom):
        return [*(node.module or "").split("."), *(alias.name for alias in node.names)]
    if isinstance(node, ast.Import):
        return [part for alias in node.names for part in alias.name.split(".")]
    return []


def _trees(paths: list[Path]) -> dict[Path, ast.Module]:
    return {path: ast.parse(path.read_text("utf-8"), str(path)) for path in paths}


def test_no_code_outside_the_doors_uses_a_private_name_of_another_library() -> None:
    """manim's behind ``scenes/manim_internals.py``, the standard library's behind
    ``publish/render/stdlib_internals.py``: nothing else reaches past a public API."""
    trees = _trees(_sources())
    outside = {path: tree for path, tree in trees.items() if path not in DOORS_AND_THEIR_TESTS}
    assert private_names(outside) == []
    # the check finds what it is for: each door's own uses, and a use moved out of a door
    door = private_names({STDLIB_DOOR: trees[STDLIB_DOOR]})
    assert {found.rsplit(": ", 1)[1] for found in door} == {"_forkserver", "_stop", "_processes"}
    moved = ast.parse("import sys\nframe = sys._getframe(1)\n")
    at = ROOT / "publish" / "beats" / "state.py"
    assert private_names({at: moved}) == ["publish/beats/state.py:2: _getframe"]


def test_the_names_the_door_reads_a_scene_and_a_shape_by_are_manims() -> None:
    """What :mod:`publish.beats.state` leaves out of a scene's state, and reads a shape's drawing
    from, by name: each is what this manim sets (a rename would leave a name that reads
    nothing, or a changing one digested)."""

    class Moving(Scene):
        def construct(self) -> None:
            self.play(FadeIn(Square()))

    with tempconfig({"dry_run": True, "disable_caching": True, "progress_bar": "none"}):
        scene = Moving()
        scene.render()
    assert set(vars(scene)) >= manim_internals.SCENE_RUNNING
    shape = VMobject()
    shape.generate_target()
    assert set(vars(shape)) >= manim_internals.VMOBJECT_PARTS
    drawn = {*manim_internals.DRAWN_ARRAYS, *manim_internals.UNDRAWN}
    assert drawn <= manim_internals.VMOBJECT_OWN


def test_on_its_own_version_the_door_speeds_renders_up() -> None:
    assert manim_internals.SPEEDUPS
    assert version_advice(manim_internals.WRITTEN_FOR) is None
    assert manim_internals.clip_renderer()._file_writer_class is HeldFrameWriter


def test_on_another_manim_the_door_says_what_to_do_and_uses_plain_manim() -> None:
    probe = (
        "import manim; manim.__version__ = '0.23.0';"
        "from scenes import manim_internals as door;"
        "print(door.SPEEDUPS, door.clip_renderer()._file_writer_class.__name__,"
        " type(door.undrawn_renderer()).__name__,"
        " door.VMobjectFromSVGPath.generate_points is door._points_then_no_path,"
        " manim.Text.__init__ is door._TEXTS_BUILT[manim.Text],"
        " manim.VMobject.get_points_defining_boundary is door._boundary_quickly,"
        " manim.Mobject.get_family is door._family_quickly)"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    plain = [
        *("False", SceneFileWriter.__name__, "CairoRenderer"),
        *("False", "False", "False", "False"),  # nothing of manim's replaced
    ]
    assert result.stdout.split() == plain
    warned = [line for line in result.stderr.splitlines() if "ManimVersionWarning" in line]
    assert len(warned) == 1
    assert "manim 0.23.0 is installed" in warned[0]
    assert "run `bash scripts/setup.sh` to install 0.22.0" in warned[0]
