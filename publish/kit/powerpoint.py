"""slides.pptx: one slide per step, its clip embedded full-bleed with its poster, the step's
captions as speaker notes, and a bookmark at each beat (Alt+End / Alt+Home jump between them)."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Sequence
from pathlib import Path

from lxml import etree
from pptx import Presentation
from pptx.util import Emu

from publish.media.clip_beats import Step, clock
from publish.media.files import replacing

__all__ = ["BLANK_LAYOUT", "NOTES_HEADER", "write_pptx"]

BLANK_LAYOUT = 6
"""The default template's "Blank" layout: no placeholders over the video."""
NOTES_HEADER = "{step}/{steps} · {title}"
"""The first line of each slide's notes, above one line per beat."""
SLIDE_WIDTH = Emu(12_192_000)
"""13.333 in: a 16:9 slide, the clips' aspect ratio."""
STAMP = (1980, 1, 1, 0, 0, 0)
"""Every zip entry's time: the earliest a zip can hold."""
P14 = "http://schemas.microsoft.com/office/powerpoint/2010/main"


def write_pptx(target: Path, title: str, steps: Sequence[Step], folder: Path) -> None:
    """Write the deck atomically; the clips and posters are read from ``folder``."""
    deck = Presentation()
    deck.core_properties.title = title
    deck.core_properties.last_modified_by = ""  # the template names python-pptx's author
    clip = steps[0].clip
    deck.slide_width = SLIDE_WIDTH
    deck.slide_height = Emu(SLIDE_WIDTH * clip.height // clip.width)
    for step in steps:
        slide = deck.slides.add_slide(deck.slide_layouts[BLANK_LAYOUT])
        movie = slide.shapes.add_movie(
            str(folder / step.clip.file),
            0,
            0,
            deck.slide_width,
            deck.slide_height,
            poster_frame_image=str(folder / step.clip.poster.file),
            mime_type="video/mp4",
        )
        movie.name = Path(step.clip.file).stem
        _bookmark_beats(movie._element, step)
        header = NOTES_HEADER.format(step=step.clip.step, steps=len(steps), title=step.clip.title)
        notes = [header, *(f"{clock(beat.start)}  {beat.caption}" for beat in step.beats)]
        slide.notes_slide.notes_text_frame.text = "\n".join(notes)
    packed = io.BytesIO()
    deck.save(packed)
    with replacing(target) as temporary:
        _without_timestamps(packed, temporary)


def _without_timestamps(packed: io.BytesIO, target: Path) -> None:
    """Re-zip with fixed entry times, so that the same clips give the same bytes."""
    with zipfile.ZipFile(packed) as source, zipfile.ZipFile(target, "w") as copy:
        for entry in source.infolist():
            fixed = zipfile.ZipInfo(entry.filename, date_time=STAMP)
            fixed.compress_type = entry.compress_type
            copy.writestr(fixed, source.read(entry))


def _bookmark_beats(picture: etree._Element, step: Step) -> None:
    """A PowerPoint media bookmark where each beat after the first begins."""
    media = picture.find(f".//{{{P14}}}media")
    if media is None or len(step.beats) < 2:
        return
    bookmarks = etree.SubElement(media, f"{{{P14}}}bmkLst")
    for number, beat in enumerate(step.beats[1:], start=2):
        etree.SubElement(
            bookmarks, f"{{{P14}}}bmk", name=f"beat {number}", time=str(round(beat.start * 1000))
        )
