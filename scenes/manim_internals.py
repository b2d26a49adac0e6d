"""manim's private and version-specific API: every use the project makes of it, behind one door.

Each reaches past manim's public API, to go faster or to read what manim keeps to itself:

- :func:`clip_renderer`: a renderer whose file writer converts a held frame once, not once per
  repeat (:class:`HeldFrameEncoder`, a ``VideoSegmentEncoder`` plugged in through the writer's
  ``_create_segment_encoder``, both new in manim 0.22), and which hands each frame's own pixels
  to it, not a copy (:class:`_HandingOver`, over ``get_frame`` and ``update_frame``).
- :func:`undrawn_renderer`: a dry run's renderer, which draws no pixels.
- :func:`beat_renderer`, :func:`draw_plays`, :func:`segment_files`, :func:`subcaptions_srt`:
  a clip rendered a beat at a time (``publish.beats``, which reads manim through these): the
  plays of a beat drawn or skipped (state kept, nothing drawn), each play's segment file read
  back, the scene's captions written without its video.
- Each of those renderers films with manim's ``MovingCamera``, as ``MovingCameraScene``'s own
  would: a scene is handed its renderer, so the renderer decides whether its camera can move.
- :func:`drop_svg_parse`: a text forgets how its SVG was parsed once it is built: each
  glyph's parsed path and the text's groups by SVG id (it wraps
  ``VMobjectFromSVGPath.generate_points``, ``Text.__init__`` and ``MarkupText.__init__``);
  :func:`copy_quickly`: every mobject copied without deepcopy's dispatch for its plain
  attributes (``Mobject.__deepcopy__``); :func:`boundary_quickly`: a shape's boundary points
  gathered as one array (``VMobject.get_points_defining_boundary``); :func:`family_quickly`:
  a mobject's family listed in one walk (``Mobject.get_family``);
  :func:`split_once`: a shape's subpath boundaries found once, not every frame
  (``VMobject.get_subpath_split_indices_from_points``).
- :func:`output_files`: where a render left its video and captions (manim 0.22's output plan).
- :class:`SetText`: ``Text`` set on one canvas at every quality (:data:`TEXT_CANVAS`), with
  right-to-left text laid out wide enough to be drawn whole (it overrides ``Text._text2svg``);
  :class:`QuotingWriter`: manim's segment list quoted for any path (it overrides
  ``SceneFileWriter._concat_manifest_bytes``).
- :func:`code_listing`: a ``Code`` block's text, and :data:`MathTexPart`, the class of a
  formula's part, which manim does not export; :data:`MADE_FROM`, the attributes through which
  a mobject remembers how it was made; :data:`SCENE_RUNNING`, what a ``Scene`` sets on itself
  while it renders, and :data:`VMOBJECT_OWN`, :data:`VMOBJECT_PARTS`, :data:`DRAWN_ARRAYS` and
  :data:`UNDRAWN`, where a ``VMobject`` keeps what is drawn of it and what is not (all four
  read by ``publish.beats.state``, which digests a scene's state by them; the colour rows of
  the drawn, :data:`COLOUR_ARRAYS`, are what ``scenes.toolkit.focus`` fades;
  ``tests/test_manim_internals.py`` checks each name against what manim sets).

They were written for manim :data:`WRITTEN_FOR`. On any other version, importing this module
warns once (:class:`ManimVersionWarning`, saying what to do) and the speed-ups step aside:
renders and dry runs run on plain manim, which draws and encodes the same pictures, only slower.
The reads have no plain equivalent: they are tried as they are, and fail where manim changed.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import unicodedata
import warnings
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeAlias

import av
import manim
import manimpango
import numpy as np
from manim import CairoRenderer, Code, MovingCamera, Scene, Text, config
from manim._config.video_encoder import VideoEncoderSpec
from manim.constants import START_X, START_Y
from manim.mobject.svg.svg_mobject import VMobjectFromSVGPath
from manim.mobject.text.tex_mobject import MathTexPart
from manim.mobject.text.text_mobject import TEXT2SVG_ADJUSTMENT_FACTOR
from manim.scene.scene_file_writer import SceneFileWriter
from manim.scene.video_segment_encoder import VideoSegmentEncoder
from manim.utils.color import ParsableManimColor

from scenes.held_pictures import StreamTail, Unsupported, held_packets, with_skip_pps

if TYPE_CHECKING:  # for annotations only: the builder's class is private to manim
    from manim import Animation, Mobject
    from manim.mobject.mobject import _AnimationBuilder

    Playable: TypeAlias = Animation | Mobject | _AnimationBuilder
    """What ``Scene.play`` takes: an animation, or ``mob.animate.…`` (which manim types as
    its builder or the mobject itself)."""

__all__ = [
    "COLOUR_ARRAYS",
    "DRAWN_ARRAYS",
    "MADE_FROM",
    "SCENE_RUNNING",
    "SPEEDUPS",
    "UNDRAWN",
    "VMOBJECT_OWN",
    "VMOBJECT_PARTS",
    "WRITTEN_FOR",
    "HeldFrameEncoder",
    "HeldFrameWriter",
    "ManimVersionWarning",
    "MathTexPart",
    "QuotingWriter",
    "SetText",
    "TEXT_CANVAS",
    "beat_renderer",
    "boundary_quickly",
    "clip_renderer",
    "draw_plays",
    "code_listing",
    "copy_quickly",
    "concat_list",
    "drop_svg_parse",
    "family_quickly",
    "mp4_segment_encoder",
    "output_files",
    "segment_files",
    "split_once",
    "right_to_left",
    "subcaptions_srt",
    "undrawn_renderer",
    "version_advice",
]

MADE_FROM = frozenset(
    {
        "_code_html",
        "file_name",
        "id_to_vgroup_dict",
        "original_id",
        "path_obj",
        "path_string_config",
        "svg_default",
        "tex_template",
    }
)
"""A mobject's attributes that are how manim made it, not what it is (``publish.beats.state`` leaves
them out of a scene's state): the SVG file a text or formula was read from (a path inside each
render's own folder), the parser's objects behind its points and its groups by SVG id (the same
parts again, as parsed), a code listing's HTML, and the
address of what it was copied from (``original_id``, which manim's own hashing leaves out too).
Any other attribute is part of the state; one that cannot be told makes the state unknown."""

SCENE_RUNNING = frozenset(
    {
        "animations",
        "duration",
        "foreground_mobjects",
        "last_t",
        "mobjects",
        "moving_mobjects",
        "renderer",
        "static_mobjects",
        "stop_condition",
        "time_progression",
    }
)
"""What manim's ``Scene`` sets on itself while it renders: its clock, its queue of animations,
its renderer, and what is on screen (``publish.beats.state`` reads the screen apart, shape by
shape). Not a step's state."""
VMOBJECT_OWN = frozenset(vars(manim.VMobject()))
"""Every ``VMobject``'s own attributes (a subclass's others are its own, told one by one)."""
VMOBJECT_PARTS = frozenset({"submobjects", "updaters", "target"})
"""Where a ``VMobject`` keeps its parts, its updaters and the target ``generate_target`` made."""
COLOUR_ARRAYS = ("fill_rgbas", "stroke_rgbas", "background_stroke_rgbas")
"""Where a ``VMobject`` keeps its colours, as RGBA rows (``scenes.toolkit.focus`` fades by them)."""
DRAWN_ARRAYS = ("points", *COLOUR_ARRAYS)
"""Where a ``VMobject`` keeps what is drawn of it: its points, and its colours."""
UNDRAWN = frozenset(
    {
        "fill_opacity",
        "stroke_opacity",
        "background_stroke_opacity",
        "background_stroke_color",
        "sheen_direction",
        "_bezier_t_values",
    }
)
"""What a ``VMobject`` was made with that its drawn colours and points already say, or that is
drawn only with a sheen (its direction), or that never changes (``_bezier_t_values``)."""

WRITTEN_FOR = "0.22.0"
"""The manim version every use below was written and tested against (pyproject.toml pins it)."""


class ManimVersionWarning(UserWarning):
    """The installed manim is not the one this module was written for."""


def version_advice(installed: str) -> str | None:
    """What to do when ``installed`` is not :data:`WRITTEN_FOR`, in one line; None when it is."""
    if installed == WRITTEN_FOR:
        return None
    return (
        f"manim {installed} is installed, but scenes/manim_internals.py was written for manim "
        f"{WRITTEN_FOR}: run `bash scripts/setup.sh` to install {WRITTEN_FOR}, or, to move to "
        f"{installed}, check each use in that module against it and update WRITTEN_FOR and the "
        "pin in pyproject.toml; until then renders use plain manim (the same pictures, slower)"
    )


_ADVICE = version_advice(manim.__version__)
if _ADVICE is not None:
    warnings.warn(_ADVICE, ManimVersionWarning, stacklevel=2)

SPEEDUPS = _ADVICE is None
"""Whether the speed-ups are in use: only on the manim they were written for."""

H264_CODECS = frozenset({"libx264", "h264"})
"""The codecs whose held frames are written as copies (x264's streams, which the copies follow)."""


# --- a held frame converted once ------------------------------------------------------------


class HeldFrameEncoder(VideoSegmentEncoder):
    """manim's segment encoder, with a held frame converted once and its repeats not encoded.

    manim draws a held frame (a ``wait``, the hold at the end of a beat) once and hands it over
    with ``repeat=n``; manim 0.22's encoder then copies, converts and encodes it ``n`` times.
    More than half of a lesson's frames are held, so this one wraps the pixels without a copy
    (manim hands over ownership of them) and converts them once. Where the hold ends the
    segment (a ``wait`` is a segment of its own) and the stream is H.264, x264 encodes the
    picture once and each repeat is a picture that copies it (:mod:`scenes.held_pictures`):
    a few bytes, no analysis, every frame still in the file. Anywhere else the repeats go
    through the encoder, as manim's do.
    """

    _pending: Any = None
    """The picture last sent (converted), while its repeats wait to be written: at the
    segment's end as copies, or through the encoder when another frame follows."""
    _pending_repeats = 0
    _tail: StreamTail | None = None
    _converter: Any = None
    """One converter for the segment's pictures: ``VideoFrame.reformat`` makes (and tears
    down) a new one, its threads included, for every frame. It converts on one thread: its
    automatic count (a thread a core) costs more CPU (1080p: 4.1–6.5 ms a frame against 3.8)
    and renders already run one per core."""

    def write_frame(self, pixels: Any, *, repeat: int = 1) -> None:
        self._validate_frame(pixels, repeat)
        try:
            self._encode_pending()
            picture = av.VideoFrame.from_numpy_buffer(pixels, format="rgba")
            if self._converter is None:
                self._converter = av.video.reformatter.VideoReformatter()
            picture = self._converter.reformat(picture, format=self.spec.pixel_format, threads=1)
            self._send(picture)
            if repeat > 1:
                self._pending, self._pending_repeats = picture, repeat - 1
        except BaseException as error:
            raise self._operation_error("encode", error) from error

    def finish(self) -> None:
        if self._closed or not self._pending_repeats or self._tail is None:
            self._encode_pending()
            super().finish()
            return
        self._closed = True
        try:
            stream: Any = self._stream
            for packet in stream.encode():  # x264's last pictures, the held one among them
                self._mux(packet)
            for held in held_packets(self._tail, self._pending_repeats):
                packet = av.Packet(held.data)
                packet.stream, packet.time_base = stream, self._time_base
                packet.pts, packet.dts, packet.duration = held.pts, held.dts, 1
                self._container.mux(packet)
            self._container.close()
        except BaseException as error:
            with contextlib.suppress(BaseException):
                self._container.close()
            raise self._operation_error("finish", error) from error

    @property
    def _time_base(self) -> Fraction:
        return Fraction(self.spec.frame_rate.denominator, self.spec.frame_rate.numerator)

    def _encode_pending(self) -> None:
        """A hold that does not end the segment: its repeats through the encoder after all."""
        repeats, self._pending_repeats = self._pending_repeats, 0
        for _ in range(repeats):
            self._send(self._pending)

    def _send(self, picture: Any) -> None:
        picture.pts = self._next_pts
        picture.time_base = self._time_base
        self._next_pts += 1
        stream: Any = self._stream  # a video stream (manim types it as any stream)
        packets = stream.encode(picture)
        if self._next_pts == 1:
            self._start_tail(stream)
        for packet in packets:
            self._mux(packet)

    def _start_tail(self, stream: Any) -> None:
        """Once x264 is open, and before the file's header is written: the skip slices' picture
        parameter set beside x264's, in every H.264 segment (a clip's segments are joined under
        the first one's parameter sets)."""
        if self.spec.codec not in H264_CODECS:
            return
        try:
            extradata = with_skip_pps(bytes(stream.codec_context.extradata))
        except Unsupported:
            return  # a stream of another shape: its repeats go through the encoder
        stream.codec_context.extradata = extradata
        self._tail = StreamTail(extradata)

    def _mux(self, packet: Any) -> None:
        if self._tail is not None:
            self._tail.see(bytes(packet), packet.pts, packet.dts)
        self._container.mux(packet)


def mp4_segment_encoder(
    target: Path, width: int, height: int, options: dict[str, str]
) -> HeldFrameEncoder:
    """A clip's encoder for one H.264 segment at 60 fps, as a render makes it (for the bench)."""
    spec = VideoEncoderSpec(
        container_format="mp4",
        codec="libx264",
        pixel_format="yuv420p",
        width=width,
        height=height,
        frame_rate=Fraction(60),
        options=tuple(sorted(options.items())),
    )
    return HeldFrameEncoder(target=target, spec=spec)


class QuotingWriter(SceneFileWriter):
    """manim's file writer with its segment list quoted for any path: manim writes each as
    ``file 'file:PATH'``, so an apostrophe in ``--out`` ends the quote and every clip fails.
    The concat demuxer reads ``'\\''`` as a quote (close, an escaped one, reopen); inside
    quotes a backslash is literal. On another manim, its own writer is used, unchanged."""

    @staticmethod
    def _concat_manifest_bytes(input_files: list[str]) -> bytes:
        return concat_list(input_files)


def concat_list(files: list[str] | list[Path]) -> bytes:
    """A concat demuxer's list of ``files``, each quoted for any path."""
    quoted = (Path(file).as_posix().replace("'", "'\\''") for file in files)
    return "".join(f"file 'file:{path}'\n" for path in quoted).encode("utf-8")


class HeldFrameWriter(QuotingWriter):
    """manim's file writer with :class:`HeldFrameEncoder` for every segment."""

    def _create_segment_encoder(self, target: Path) -> VideoSegmentEncoder:
        if self.video_encoder is None:
            raise RuntimeError("Video segment encoding requires resolved settings.")
        return HeldFrameEncoder(target=target, spec=self.video_encoder)


class _HandingOver(CairoRenderer):
    """manim's renderer, handing each frame's own pixels to the encoder, not a copy of them.

    manim copies every frame it hands over (``get_frame``), then copies the frame's background
    over the camera's pixels to begin the next one: at 1080p two 8 MB copies a frame. Here the
    camera's pixels themselves are handed over and the next frame is begun in new ones, with
    the background copied in as before: one copy. The camera keeps the pixels it handed over
    until the next frame is begun, and writes to them no more.
    """

    _handed: Any = None

    def get_frame(self) -> Any:
        self._handed = self.camera.pixel_array
        return self._handed

    def update_frame(
        self, scene: Scene, mobjects: Any = None, include_submobjects: bool = True,
        ignore_skipping: bool = True, **kwargs: Any,
    ) -> None:  # fmt: skip
        if self.skip_animations and not ignore_skipping:
            return
        camera = self.camera
        if self._handed is not None and camera.pixel_array is self._handed:
            camera.pixel_array = np.empty_like(self._handed)  # all of it drawn over, below
        self._handed = None
        super().update_frame(scene, mobjects, include_submobjects, ignore_skipping, **kwargs)


def clip_renderer() -> CairoRenderer:
    """The renderer for a clip: manim's, with :class:`HeldFrameWriter` where it applies and
    each frame's pixels handed over (:class:`_HandingOver`)."""
    if not SPEEDUPS:
        return CairoRenderer(camera_class=MovingCamera)
    return _HandingOver(file_writer_class=HeldFrameWriter, camera_class=MovingCamera)


def output_files(scene: Scene) -> tuple[Path | None, Path | None]:
    """The video a rendered scene wrote and its captions file (None where it planned none)."""
    plan = scene.output_plan
    return plan.primary_artifact, plan.subcaption_file


# --- a clip a beat at a time ---------------------------------------------------------------


class _BeatWriter(HeldFrameWriter):
    """The clip writer, leaving its segments unjoined: the beats' segments are joined by the
    caller (``publish.beats``), reused ones among them."""

    def combine_to_movie(self) -> None:
        pass


class _BeatRenderer(_HandingOver):
    """The clip's renderer whose skipped plays draw nothing (a skipped play of manim's draws its
    static frame and, for a wait, its one frame, only to throw them away)."""

    def play(self, scene: Scene, *args: Any, **kwargs: Any) -> None:
        skipped = self._original_skipping_status
        before = self.time
        super().play(scene, *args, **kwargs)
        if skipped:  # the clock as a drawn play moves it: a beat's length is the same either way
            self.time = _drawn_time(scene, before)

    def update_frame(self, *args: Any, **kwargs: Any) -> None:
        if not self.skip_animations:
            super().update_frame(*args, **kwargs)

    def save_static_frame_data(self, *args: Any, **kwargs: Any) -> None:
        if self.skip_animations:
            self.static_image = None
        else:
            super().save_static_frame_data(*args, **kwargs)


def _drawn_time(scene: Scene, before: float) -> float:
    """How far a play just made moves the clock when drawn: by whole frames, one ``dt`` added
    per drawn frame of an animation, ``int(duration / dt)`` frames at once for a still wait
    (``CairoRenderer.add_frame``, ``Scene.get_time_progression``); skipped, manim adds the
    play's exact duration instead, so a skipped beat would end a fraction of a frame off."""
    dt = 1 / scene.camera.frame_rate
    if scene.is_current_animation_frozen_frame():
        return before + int(scene.duration / dt) * dt
    clock = before
    for _ in range(len(np.arange(0, scene.duration, dt))):
        clock += dt  # added frame by frame, as drawn: the same rounding
    return clock


def beat_renderer() -> CairoRenderer:
    """The renderer for a clip rendered a beat at a time (its plays drawn or skipped by
    :func:`draw_plays`). On another manim, plain manim's renderer: it skips the same plays,
    drawing a little for nothing."""
    if not SPEEDUPS:
        return CairoRenderer(camera_class=MovingCamera)
    return _BeatRenderer(file_writer_class=_BeatWriter, camera_class=MovingCamera)


def draw_plays(scene: Scene, draw: bool) -> None:
    """Draw and encode ``scene``'s next plays, or skip them (their mobjects still end where
    the plays leave them, and the clock moves on). manim resets ``skip_animations`` to
    ``_original_skipping_status`` at every play, so both are set."""
    renderer: Any = scene.renderer
    renderer._original_skipping_status = not draw
    renderer.skip_animations = not draw


def segment_files(scene: Scene) -> list[Path | None]:
    """Each play's segment file so far, in order; None for a skipped play. A file is complete
    only once the scene has rendered (manim encodes while it draws the next play)."""
    files: list[str | None] = scene.renderer.file_writer.partial_movie_files
    return [None if file is None else Path(file) for file in files]


def subcaptions_srt(scene: Scene) -> str:
    """The scene's captions as manim writes them (``write_subcaption_file``), drawn or not."""
    import srt

    return str(srt.compose(scene.renderer.file_writer.subcaptions))


# --- a dry run draws nothing ----------------------------------------------------------------


class _Undrawn(CairoRenderer):
    """manim's renderer without pixels: a dry run throws every frame away, so none is drawn.
    Its clock moves as a drawn play moves it (:func:`_drawn_time`): a dry run's beats last
    what the render's do, to the frame, where a play's length is not a whole number of them."""

    def play(self, scene: Scene, *args: Any, **kwargs: Any) -> None:
        before = self.time
        super().play(scene, *args, **kwargs)
        self.time = _drawn_time(scene, before)

    def update_frame(self, *args: Any, **kwargs: Any) -> None:
        pass

    def save_static_frame_data(self, *args: Any, **kwargs: Any) -> None:
        self.static_image = None


def undrawn_renderer() -> CairoRenderer:
    """A renderer for a dry run (animations skipped): one that draws nothing where it applies."""
    if not SPEEDUPS:
        return CairoRenderer(skip_animations=True, camera_class=MovingCamera)
    return _Undrawn(skip_animations=True, camera_class=MovingCamera)


# --- a text keeps what it draws, not how its SVG was parsed ----------------------------------

_build_glyph_points = VMobjectFromSVGPath.generate_points


def _points_then_no_path(self: VMobjectFromSVGPath) -> VMobjectFromSVGPath:
    _build_glyph_points(self)
    self.path_obj = None
    return self


def _without_svg_groups(build: Callable[..., None]) -> Callable[..., None]:
    @functools.wraps(build)
    def built(self: manim.Text | manim.MarkupText, *args: Any, **kwargs: Any) -> None:
        build(self, *args, **kwargs)
        self.id_to_vgroup_dict = {}

    return built


_TEXTS_BUILT = {kind: _without_svg_groups(kind.__init__) for kind in (Text, manim.MarkupText)}


def drop_svg_parse() -> None:
    """Make every text forget how its SVG was parsed once it is built (idempotent).

    manim keeps each glyph's parsed ``svgelements`` path (``path_obj``), read once to build
    the glyph's points, and a text keeps a VGroup for each group of its SVG by id
    (``id_to_vgroup_dict``), which only ``MathTex``'s parts-by-TeX read, never a ``Text``'s
    or a ``MarkupText``'s. Kept, ``Mobject.copy`` copied both every time an animation started:
    a text's groups were four-fifths of its copy (a VGroup of 20 lines: 31 ms to copy, 7 ms
    without), and the paths 40 % of a shelved text's pickle and more than half of the time to
    load one back.
    """
    if SPEEDUPS:
        VMobjectFromSVGPath.generate_points = _points_then_no_path  # type: ignore[method-assign]
        for kind, built in _TEXTS_BUILT.items():
            kind.__init__ = built  # type: ignore[method-assign]


# --- copies without deepcopy's dispatch per attribute ---------------------------------------

_ATOMIC = frozenset({type(None), bool, int, float, complex, str, bytes, manim.ManimColor})
"""Kinds a copy can share: those ``copy.deepcopy`` hands back as they are, and manim's colours,
which nothing changes after they are made (manim itself shares one colour's numbers with every
colour made from it)."""


def _copy_quickly(self: Mobject, memo: dict[int, Any]) -> Mobject:
    """``Mobject.__deepcopy__``, the same copy: atomic values shared, number arrays and lists
    copied (sharing kept through ``memo``, as deepcopy keeps it) without a trip through
    deepcopy for each; anything else deep-copied as before."""
    cls = self.__class__
    result = cls.__new__(cls)
    memo[id(self)] = result
    for name, value in self.__dict__.items():
        setattr(result, name, _copied(value, memo))
    result.original_id = str(id(self))
    return result


def _copied(value: Any, memo: dict[int, Any]) -> Any:
    kind = type(value)
    if kind in _ATOMIC:
        return value
    if kind is np.ndarray and value.dtype != object:
        made = memo.get(id(value))
        if made is None:
            made = value.copy(order="K")  # what ndarray.__deepcopy__ makes
            memo[id(value)] = made
            copy._keep_alive(value, memo)  # type: ignore[attr-defined]
        return made
    if kind is list:
        made = memo.get(id(value))
        if made is None:
            made = []
            memo[id(value)] = made
            made.extend(_copied(item, memo) for item in value)
            copy._keep_alive(value, memo)  # type: ignore[attr-defined]
        return made
    return copy.deepcopy(value, memo)


def copy_quickly() -> None:
    """Make every mobject copy (each animation's start, ``mob.copy()``) skip deepcopy's
    dispatch for its plain attributes and point arrays (idempotent): the same copies, about a
    sixth of a drawn beat's time before."""
    if SPEEDUPS:
        manim.Mobject.__deepcopy__ = _copy_quickly  # type: ignore[assignment]


# --- where a glyph's outline breaks into pieces, found once per shape ------------------------

SPLITS_KEPT = 65536
"""Shapes whose subpath boundaries are kept at most (then the memory starts again)."""
_splits: dict[tuple[Any, ...], Any] = {}
_find_splits = manim.VMobject.get_subpath_split_indices_from_points


def _splits_once(self: manim.VMobject, points: Any, n_dims: int = 3) -> Any:
    points = np.asarray(points)
    key = (
        points.tobytes(),
        points.shape,
        n_dims,
        self.n_points_per_cubic_curve,
        self.tolerance_for_point_equality,
    )
    found = _splits.get(key)
    if found is None:
        if len(_splits) >= SPLITS_KEPT:
            _splits.clear()
        found = _find_splits(self, points, n_dims)
        found.flags.writeable = False  # shared by every frame that draws this shape
        _splits[key] = found
    return found


def split_once() -> None:
    """Make the camera find where a shape's outline breaks into subpaths once per shape, not
    once per frame it is drawn in (idempotent): the same indices from the same points."""
    if SPEEDUPS:
        manim.VMobject.get_subpath_split_indices_from_points = _splits_once  # type: ignore[method-assign]


# --- a mobject's family listed by one walk, not by nested generators ------------------------

_family_by_generators = manim.Mobject.get_family


def _family_quickly(self: manim.Mobject, recurse: bool = True) -> list[manim.Mobject]:
    """``Mobject.get_family``: the mobject and its submobjects, depth first, one that is its
    own ancestor left out below itself, and of one met twice its last place kept."""
    found = [self]
    path = [(self, iter(self.submobjects))]  # from self down: each with its submobjects left
    on_path = {id(self)}
    while path:
        mob, left = path[-1]
        for sub in left:
            if id(sub) in on_path:
                continue
            found.append(sub)
            if sub.submobjects:
                on_path.add(id(sub))
                path.append((sub, iter(sub.submobjects)))
                break
        else:
            path.pop()
            on_path.discard(id(mob))
    if len(set(map(id, found))) == len(found):
        return found
    last_place = {id(mob): place for place, mob in enumerate(found)}
    return [mob for place, mob in enumerate(found) if last_place[id(mob)] == place]


def family_quickly() -> None:
    """Make a mobject's family (every copy, camera frame, corner and colour change asks for
    it) one walk with a stack, not a generator nested as deep as the mobject (idempotent): the
    same members in the same order, in half the time (20 lines of text: 117 → 61 µs)."""
    if SPEEDUPS:
        manim.Mobject.get_family = _family_quickly  # type: ignore[method-assign]


# --- a shape's boundary points gathered by numpy, not point by point ------------------------

_boundary_point_by_point = manim.VMobject.get_points_defining_boundary


def _anchors(mob: manim.Mobject) -> Any:
    """``VMobject.get_anchors``: each curve's start and end anchor in turn, as one array."""
    if not isinstance(mob, manim.VMobject):
        return np.asarray(mob.get_anchors())
    points, step = mob.points, mob.n_points_per_cubic_curve
    if points.shape[0] == 1:
        return points
    starts, ends = points[::step], points[step - 1 :: step]
    if len(starts) != len(ends):  # as manim's zip(..., strict=True) refuses them
        raise ValueError(f"{len(points)} points are not whole curves of {step}")
    anchors = np.empty((2 * len(starts), points.shape[1]), dtype=points.dtype)
    anchors[0::2], anchors[1::2] = starts, ends
    return anchors


def _boundary_quickly(self: manim.VMobject) -> Any:
    parts = [anchors for part in self.get_family() if len(anchors := _anchors(part))]
    return np.concatenate(parts) if parts else np.array(())


def boundary_quickly() -> None:
    """Make a shape's boundary points (behind every ``get_corner``, ``next_to``, ``move_to``
    and the probe's boxes) one numpy array built whole, not a tuple of each point in turn
    (idempotent): the same points in the same order."""
    if SPEEDUPS:
        manim.VMobject.get_points_defining_boundary = _boundary_quickly  # type: ignore[method-assign]


# --- text, set on one canvas ---------------------------------------------------------------
#
# manim has Pango set a text on an SVG the picture's size (``pixel_width`` by ``pixel_height``),
# drawn from ``START_X``. So a text's mobject depended on the quality: what ran past the SVG's
# edge was cut (at 480p, 48-point type past about three frame widths), and right-to-left text, set
# flush right in a layout ending ``START_X`` past that edge, lost its last ``START_X`` units: the
# first letter of an Arabic or Hebrew sentence, and the whole of a one-word text (an empty
# mobject, which crashed step 4's ``get_x``). Every text is set on :data:`TEXT_CANVAS`, and a
# right-to-left one in a layout that much narrower.

TEXT_CANVAS = (1920, 1080)
"""The SVG every text is set on, whatever the quality: 1080p's own, so a 1080p clip is what it
was. On one canvas a text is the same mobject at every quality, so what a draft preview or a dry
run typesets a 1080p render loads from the shelf (``scenes.typeset`` keys it without the
picture's size), and the other way round."""


def right_to_left(content: str) -> bool:
    """Whether ``content`` holds a letter written right to left (Arabic, Hebrew, Syriac, ...)."""
    return any(unicodedata.bidirectional(char) in {"R", "AL"} for char in content)


class SetText(Text):
    """manim's :class:`~manim.Text`, set on :data:`TEXT_CANVAS`, right-to-left text laid out
    inside it (``Text._text2svg``, manim 0.22, with the layout's width that manimpango takes)."""

    def _text2svg(self, color: ParsableManimColor) -> str:
        if not SPEEDUPS:  # another manim: its own, unchanged
            return str(super()._text2svg(color))
        folder = config.get_dir("text_dir")
        folder.mkdir(parents=True, exist_ok=True)
        width, height = TEXT_CANVAS
        flush_right = right_to_left(self.text)
        # Its own name: an SVG manim cached on another canvas, or cut, must not be reused.
        file = folder / f"{self._text2hash(color)}-{width}x{height}{'-rtl' * flush_right}.svg"
        if not file.exists():
            layout = [width - 2 * START_X] if flush_right else []  # ends inside, as it starts
            manimpango.text2svg(
                self._text2settings(color),
                self._font_size / TEXT2SVG_ADJUSTMENT_FACTOR,
                self.line_spacing / TEXT2SVG_ADJUSTMENT_FACTOR,
                self.disable_ligatures,
                str(file.resolve()),
                START_X,
                START_Y,
                width,
                height,
                self.text,
                *layout,
            )
        return str(file.resolve())


# --- what manim keeps to itself -------------------------------------------------------------


def code_listing(code: Code) -> str:
    """A code block's text as typed, without line numbers.

    ``Code`` keeps the listing only in its highlighted HTML; its ``Paragraph`` pads the first and
    last lines with alignment glyphs, so it cannot be read back from the glyphs.
    """
    return str(code._code_html.get_text()).removesuffix("\n")
