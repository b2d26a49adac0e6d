"""What a run renders and where: the run's own settings, made once from the command line, and
each lesson's within it (its folder, its stem, its voice)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from publish.narration.voices import Narrator, Voice
from publish.presets import Quality, clip_name
from publish.render.file_digests import cache_folder

if TYPE_CHECKING:
    from scenes import LessonScene

__all__ = ["LessonOptions", "RunOptions"]


@dataclass(frozen=True)
class RunOptions:
    """What every lesson of a run shares: how it renders, where, and on what. A course's
    lessons all hold this one; nothing the whole run does is read from any one lesson."""

    quality: Quality
    fmt: str
    transparent: bool
    out: Path
    jobs: int
    force: bool = False
    """Render the chosen scenes (and join) even when cached."""
    slides: bool = False
    """Also write the decks: ``slides.html`` and ``slides.pptx``."""
    package: str | None = None
    """``scorm``: also write each lesson's SCORM 1.2 package, ``LESSON_scorm12.zip``."""
    scheduler: str | None = None
    """A Dask scheduler's address (``tcp://host:8786``) to render on; None for local workers."""
    described: bool = False
    """Also write each lesson's audio-described video (:mod:`publish.described.make`)."""

    @property
    def quality_folder(self) -> Path:
        """``media/high/``: a lone lesson's files, or a course's index and lesson folders."""
        return self.out / self.quality.name

    @property
    def claim(self) -> Path:
        """The work folder a run claims (for every lesson it renders): ``media/.work/high/``."""
        return self.out / ".work" / self.quality.name

    @property
    def beats(self) -> Path:
        """The beat store (:mod:`publish.beats`), shared by every lesson of the quality
        folder: ``media/high/.beats/``."""
        return self.quality_folder / ".beats"

    @property
    def typeset(self) -> Path:
        """What the run's processes typeset (:mod:`scenes.typeset`), kept for the next ones:
        this user's, shared by every run whatever its output folder, each text under its frame
        size and the code and tools that made it: ``~/.cache/attention-by-hand/typeset/``."""
        return cache_folder() / "typeset"

    def lesson(
        self,
        voice: Voice | None = None,
        name: str = "",
        stem: str = "default",
        describer: Voice | None = None,
    ) -> LessonOptions:
        """One lesson's options in this run."""
        return LessonOptions(self, voice, name, stem, describer)


@dataclass(frozen=True)
class LessonOptions:
    """One lesson's part of a run: the folder it renders into, its stem and its voice, beside
    the run's own options (:attr:`run`)."""

    run: RunOptions
    voice: Voice | None = None
    """Who narrates; None for silent clips paced for reading."""
    lesson: str = ""
    """A course's lesson: the folder of its own it renders into; empty for a lone lesson."""
    stem: str = "default"
    """The lesson file's stem (``default``: the built-in lesson), which names its whole video
    when its title cannot (``presets.full_name``)."""
    describer: Voice | None = None
    """Who speaks the descriptions of the described video (``--described``): the narrator, or
    a synthesised voice where the narration is silent or recorded; None: no described video."""

    @property
    def narrator(self) -> Narrator | None:
        """The voice with its speech store, ``media/.speech/``, shared by every quality."""
        return None if self.voice is None else Narrator(self.voice, self.run.out / ".speech")

    @property
    def describing(self) -> Narrator | None:
        """The descriptions' voice with the narration's speech store, when ``--described``."""
        if self.describer is None or not self.run.described:
            return None
        return Narrator(self.describer, self.run.out / ".speech")

    @property
    def folder(self) -> Path:
        """Where the finished files land: ``media/high/``, or ``media/high/four_tokens/``."""
        folder = self.run.quality_folder
        return folder / self.lesson if self.lesson else folder

    @property
    def work(self) -> Path:
        """manim's working files, one folder per scene: ``media/.work/high/score/``; a course's
        lesson keeps its own, ``media/.work/high/course/four_tokens/score/``."""
        claim = self.run.claim
        return claim / "course" / self.lesson if self.lesson else claim

    def file(self, scene: type[LessonScene]) -> Path:
        """Where a scene's clip lands: ``media/high/03_score.mp4``."""
        return self.folder / f"{clip_name(scene.step, scene.slug)}.{self.run.fmt}"

    def scene_work(self, scene: type[LessonScene]) -> Path:
        """The scene's own work folder, for its renders and dry runs alike."""
        return (self.work / scene.slug).resolve()
