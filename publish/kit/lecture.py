"""The lecture kit beside the clips: embed page and handout on every render, decks on request."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from attention_core import Lesson
from publish.kit import deck, embed, handout, made_from, powerpoint, scorm, transcript, twin
from publish.media.clip_beats import steps_of
from publish.media.files import write_text
from publish.media.manifest import Manifest
from publish.tools import install_line, missing_tools

__all__ = [
    "DECK_NAME",
    "PAGE_NAME",
    "WEB_FORMATS",
    "Kit",
    "write_handout",
    "write_kit",
]

WEB_FORMATS = {"mp4": "video/mp4", "webm": "video/webm"}
"""The formats a browser plays, with their MIME types; the embed page is written for these."""
PAGE_NAME = "index.html"
DESCRIPTIONS = ".descriptions.vtt"
"""Beside each clip and the whole video: its WebVTT ``kind="descriptions"`` track."""
DECK_NAME = "slides"
"""Stem of the presentation files: ``slides.html`` and ``slides.pptx``."""


@dataclass(frozen=True)
class Kit:
    """What ``write_kit`` leaves in the folder, and what to tell the user."""

    files: tuple[str, ...]
    """Every kit file now in the folder: each clip's ``.vtt``, the page, handout and decks."""
    notes: tuple[str, ...]
    failures: tuple[str, ...] = ()
    """What could not be made (a print that failed): the run says so and exits 1."""


def write_handout(folder: Path, lesson: Lesson) -> Kit:
    """The kit's part that shows the lesson alone, not its videos: ``handout.html``, and its
    PDF printed unless it is already the print of that HTML."""
    handout.write_handout(folder, lesson)
    notes, failures = _handout_pdf(folder)
    return Kit((), tuple(notes), failures)


def write_kit(
    folder: Path,
    lesson: Lesson,
    manifest: Manifest,
    *,
    steps_wanted: int,
    slides: bool,
    package: str | None = None,
    printed: Kit | None = None,
) -> Kit:
    """Write the kit for ``manifest``'s files into ``folder``.

    ``steps_wanted`` is the number of steps in the lesson: the decks need every one of them.
    ``package``: ``scorm`` also writes the SCORM 1.2 package (:mod:`publish.kit.scorm`).
    ``printed``: what :func:`write_handout` said, when the caller has written the handout.
    """
    printed = printed or write_handout(folder, lesson)
    notes, failures = list(printed.notes), printed.failures
    handouts = [f"{handout.NAME}.html", f"{handout.NAME}.pdf"]
    mime = WEB_FORMATS.get(manifest.format)
    if mime is None:
        skipped = f"{PAGE_NAME} skipped: browsers cannot play {manifest.format}"
        return Kit(_present(folder, handouts), (*notes, skipped), failures)
    steps = steps_of(folder, manifest.clips)
    if slides and len(steps) < steps_wanted:
        notes.append(f"slides skipped: {steps_wanted - len(steps)} step(s) not rendered yet")
    elif slides:
        write_text(folder / f"{DECK_NAME}.html", deck.deck_html(lesson, steps, mime))
        powerpoint.write_pptx(folder / f"{DECK_NAME}.pptx", lesson.title, steps, folder)
    described = []
    for step in steps:  # each clip's descriptions, and the whole lesson's
        described.append(f"{step.stem}{DESCRIPTIONS}")
        write_text(folder / described[-1], transcript.descriptions_vtt(lesson, [step], [0.0]))
    if manifest.full is not None and len(manifest.full.chapters) == len(steps):
        starts = [chapter.start for chapter in manifest.full.chapters]
        described.append(f"{Path(manifest.full.file).stem}{DESCRIPTIONS}")
        write_text(folder / described[-1], transcript.descriptions_vtt(lesson, steps, starts))
    write_text(folder / transcript.HTML_NAME, transcript.transcript_html(lesson, steps))
    write_text(folder / transcript.TEXT_NAME, transcript.transcript_text(lesson, steps))
    write_text(folder / twin.NAME, twin.twin_html(lesson))
    present = _present(
        folder,
        [
            *handouts,
            transcript.HTML_NAME,
            transcript.TEXT_NAME,
            f"{DECK_NAME}.html",
            f"{DECK_NAME}.pptx",
            twin.NAME,
        ],
    )
    page = embed.embed_html(lesson, steps, manifest.full, mime, present, folder)
    write_text(folder / PAGE_NAME, page)
    packages = []
    if package == scorm.KIND and manifest.full is None:
        notes.append("SCORM package skipped: the whole video was not joined")
    elif package == scorm.KIND and manifest.full is not None:
        packages.append(scorm.write_package(folder, lesson, steps, manifest.full, mime))
    captions = tuple(step.captions for step in steps if step.captions is not None)
    made = [PAGE_NAME, *present, *packages]
    return Kit(
        (*captions, *described, *made),
        (*notes, f"lecture kit: {', '.join(made)}"),
        failures,
    )


PRINTING = "chromium --print-to-pdf, undated, nodes numbered, v2"
"""Part of what a handout PDF is made from besides its HTML: change it to reprint every one."""


def _handout_pdf(folder: Path) -> tuple[list[str], tuple[str, ...]]:
    """Print ``handout.pdf`` unless it is the print of today's ``handout.html``; notes, and
    what failed. A PDF that is not today's print is removed, never kept or listed."""
    pdf = folder / f"{handout.NAME}.pdf"
    inputs = made_from.inputs_digest(folder / f"{handout.NAME}.html", PRINTING)
    if made_from.current(pdf, inputs):
        return [], ()
    made_from.forget(pdf)
    if missing_tools([handout.CHROMIUM]):
        return [f"{pdf.name} skipped: no chromium ({install_line([handout.CHROMIUM])})"], ()
    failures = handout.print_pdf(folder)
    if not failures:
        made_from.record(pdf, inputs)
    return [], tuple(failures)


def _present(folder: Path, names: list[str]) -> tuple[str, ...]:
    return tuple(name for name in names if (folder / name).is_file())
