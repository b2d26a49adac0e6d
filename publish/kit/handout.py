"""The handout: the lesson's worked maths on paper, every number from attention_core's formatter.

A section per step of the lesson, in its order: the one its kind's entry names
(:attr:`attention_core.steps.StepKind.paper`), or the generic one, its heading and its twin's
tables.
``handout.html`` prints on A4 (print CSS); ``handout.pdf`` is printed from it by headless
Chromium when set-up installed it. The prose comes from the lesson's words catalogue (the
``handout`` entries, and the video's own where it says the same), filled with the lesson's texts
and the worked lesson's numbers (``attention_core.worked``), each as the video shows it.
"""

from __future__ import annotations

import contextlib
import html
import os
import re
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from attention_core import SCALING_SECTION, Lesson, fontset
from attention_core import Quiz as FillerQuiz
from attention_core import formatting as fmt
from attention_core.steps import KINDS
from attention_core.worked import Grid, Quiz, Worked, worked
from publish.kit import twin_layout, twin_numbers
from publish.kit.templating import Markup, inline, render
from publish.kit.webpage import STYLE_BASE, page
from publish.media.files import replacing, write_text
from publish.tools import Tool

__all__ = ["CHROMIUM", "NAME", "handout_html", "print_pdf", "write_handout"]

NAME = "handout"
"""Stem of the handout's files: ``handout.html``, ``handout.pdf``."""
CHROMIUM = Tool("chromium", "chromium", "prints the handout as PDF")


def say(lesson: Lesson, name: str, **values: str) -> str:
    """The catalogue entry ``name`` filled in, as HTML-safe text with ``e^x`` set as a power."""
    return _prose(lesson.words.say(name, **values))


def _prose(text: str) -> str:
    """A sentence as HTML-safe text with ``e^x`` set as a power (``e^−∞`` too) and ``W_Q``
    with its subscript, as the matrices are labelled."""
    power = r"e\^((?:-|−)?(?:∞|\w+(?:\.\d+)?))"
    text = re.sub(power, r"e<sup>\1</sup>", html.escape(text, quote=False))
    return re.sub(r"\bW_([QKVO])\b", r"W<sub>\1</sub>", text)


def handout_html(lesson: Lesson) -> str:
    """The whole handout as one self-contained HTML page: the header, a section for each of
    the lesson's steps that has one on paper (:attr:`StepKind.paper`), in order, and the
    takeaway."""
    w = worked(lesson)
    numbered = 0
    steps: list[str] = []
    for kind in lesson.steps:
        entry = KINDS[kind]
        if entry.paper is None:
            continue
        numbered += entry.numbered
        own = _SECTIONS.get(entry.paper)
        steps += own(w, numbered) if own else _generic(w, numbered, kind)
    body = render(
        "handout/page.html",
        lesson=lesson,
        say=_say(lesson),
        setup=Markup(_setup(w)),
        sections=[Markup(section) for section in steps],
    )
    language = lesson.words["common.word.language"]
    # The series' tables need a little more style; Day 004's page keeps exactly its own.
    style = STYLE_BASE + _STYLE + (_SERIES_STYLE if _is_series(lesson) else "")
    return page(lesson.title, language, style, body)


def _setup(w: Worked) -> str:
    """The header's question, with what the lesson starts from: Day 004's one query, every
    token's own query, or the embeddings the heads project."""
    lesson = w.lesson
    works = {KINDS[kind].query for kind in lesson.steps}
    if lesson.heads and "one" not in works:
        return say(lesson, "handout.line.setup_heads", question=lesson.question)
    if "every" in works and "one" not in works:
        return say(lesson, "handout.line.setup_grid", question=lesson.question, d_k=w.grid.d_k)
    return say(lesson, "handout.line.setup", question=lesson.question, query=w.query, d_k=w.d_k)


def write_handout(folder: Path, lesson: Lesson) -> bool:
    """Write ``handout.html``; True when it changed (so its PDF needs printing again)."""
    target = folder / f"{NAME}.html"
    text = handout_html(lesson)
    if target.is_file() and target.read_text("utf-8") == text:
        return False
    write_text(target, text)
    return True


def print_pdf(folder: Path) -> list[str]:
    """Print ``handout.html`` to ``handout.pdf`` with headless Chromium; a line saying why it
    could not (then no ``handout.pdf`` is left under its final name by this call), or none.

    Chromium runs in a process group of its own, killed whole when the print ends however it
    ends (its helpers outlive it and kept writing its profile, so an interrupt turned into an
    error removing that folder). An interrupt is never turned into a failure: it propagates.
    """
    source = (folder / f"{NAME}.html").resolve()
    try:
        with (
            tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as profile,
            replacing(folder / f"{NAME}.pdf") as target,
        ):
            _chromium(
                [
                    CHROMIUM.name,
                    "--headless",
                    "--no-sandbox",  # as root (CI) Chromium refuses to start sandboxed
                    "--disable-gpu",
                    f"--user-data-dir={profile}",
                    "--no-pdf-header-footer",
                    f"--print-to-pdf={target.resolve()}",
                    source.as_uri(),
                ]
            )
            _check_complete(target)
            _steady(target)
    except PrintFailed as error:
        return [f"{NAME}.pdf not printed: {error}"]
    except OSError as error:
        return [f"{NAME}.pdf not printed: {error.strerror or error}"]
    return []


class PrintFailed(Exception):
    """Chromium did not print a complete PDF; the message says how it failed."""


PRINT_SECONDS = 120


def _chromium(command: list[str]) -> None:
    try:
        process = subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            env=fontset.environment(),  # the handout's type, as the video's, from the font set
        )
    except OSError as error:
        raise PrintFailed(f"cannot run {command[0]} ({error.strerror})") from None
    try:
        status = process.wait(timeout=PRINT_SECONDS)
    except subprocess.TimeoutExpired:
        raise PrintFailed(f"{command[0]} took more than {PRINT_SECONDS} s") from None
    finally:
        _kill_session(process.pid)
        process.wait()
    if status != 0:
        raise PrintFailed(f"{command[0]} exited with status {status}")


def _kill_session(session: int) -> None:
    """SIGKILL every process of ``session``: Chromium and the helpers it started, whichever
    process group they moved to."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(session, signal.SIGKILL)
    for _ in range(50):  # again while any is left: one may have forked as the others died
        left = _members(session)
        if not left:
            return
        for pid in left:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.02)


def _members(session: int) -> list[int]:
    """The live processes of ``session`` (a killed one is a zombie until reaped: not live)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue  # gone already
        if len(fields) > 4 and int(fields[4]) == session and fields[0] != "Z":
            found.append(int(stat.parent.name))
    return found


def _check_complete(pdf: Path) -> None:
    """Raise PrintFailed unless ``pdf`` is a whole PDF: Chromium exits 0 even when the disk
    filled and it wrote only part of one."""
    data = pdf.read_bytes() if pdf.is_file() else b""
    if data.startswith(b"%PDF-") and b"%%EOF" in data[-1024:]:
        return
    disk = os.statvfs(pdf.parent)
    full = "; the disk is full" if disk.f_bavail * disk.f_frsize < (1 << 20) else ""
    raise PrintFailed(f"chromium wrote an incomplete PDF ({len(data)} bytes){full}")


PRINTED = b"D:19700101000000+00'00'"
"""The date every handout PDF says it was made and changed: the same bytes run after run, as
the videos are."""


def _steady(pdf: Path) -> None:
    """Put :data:`PRINTED` in place of the time Chromium printed ``pdf``, and number the
    structure tree's nodes from 1: the bytes that change from run to run. The node ids are
    Chromium's count of the page's DOM nodes, which now and then counts one more (CI saw
    ``node00000021`` where the run before had ``node00000020``); renumbered in their order,
    the ID tree stays sorted. Each replacement is as long as what it replaces, so the
    cross-reference table's byte offsets still hold."""
    data = pdf.read_bytes()
    pattern = rb"/(CreationDate|ModDate) \((D:\d{14}[+-]\d\d'\d\d')\)"
    data = re.sub(pattern, lambda m: b"/%s (%s)" % (m[1], PRINTED), data)
    nodes = sorted(set(re.findall(rb"\(node(\d+)\)", data)), key=int)
    numbered = {node: b"%0*d" % (len(node), n) for n, node in enumerate(nodes, 1)}
    pdf.write_bytes(re.sub(rb"\(node(\d+)\)", lambda m: b"(node%s)" % numbered[m[1]], data))


# --- the steps ----------------------------------------------------------------------------


def _section(name: str, w: Worked, number: int, **context: object) -> list[str]:
    """The worked lesson's section ``templates/handout/<name>.html``, its heading numbered
    ``number`` where it has one."""
    lesson = w.lesson
    return [
        render(
            f"handout/{name}.html",
            w=w,
            number=number,
            words=lesson.words,
            say=_say(lesson),
            prose=lambda text: Markup(_prose(text)),
            fmt_number=fmt.number,
            letter=Quiz.letter_of,
            stage=_stage,
            scaling_section=SCALING_SECTION,
            **context,
        )
    ]


def _say(lesson: Lesson) -> Callable[..., Markup]:
    """:func:`say` for a template: its prose is HTML already."""
    return lambda name, **values: Markup(say(lesson, name, **values))


def _stage(grid: Grid, name: str) -> list[list[str]]:
    """Every cell's number at stage ``name`` of the grid (``score``, ``pull``, ``share``)."""
    return [[getattr(cell, name) for cell in line] for line in grid.cells]


def _score(w: Worked, number: int) -> list[str]:
    return _section("score", w, number)


def _softmax(w: Worked, number: int) -> list[str]:
    return _section("softmax", w, number)


def _mix(w: Worked, number: int) -> list[str]:
    lesson, before = w.lesson, w.before
    answers = list(zip(lesson.answers, before.entries, strict=True))
    winner = lesson.answers[before.attention.winner]
    return _section("mix", w, number, answers=answers, winner=winner)


def _rival(w: Worked, number: int) -> list[str]:
    return _section("rival", w, number)


def _answer(w: Worked, number: int) -> list[str]:
    """The quick check and its answer, of either kind."""
    kind = "quiz" if isinstance(w.lesson.quiz, FillerQuiz) else "share_quiz"
    return _section(kind, w, number)


# --- the series' steps: every token asks, the mask, projections, heads, the share quiz ------


def _shown_grid(w: Worked) -> Grid:
    """The grid the all-queries step works: before the mask when a mask step follows to show
    it (as ``scenes.steps.all_queries.shown_grid`` picks), else the lesson's own."""
    return w.open_grid if "mask" in w.lesson.steps else w.grid


def _all_queries(w: Worked, number: int) -> list[str]:
    return _section("all_queries", w, number, grid=_shown_grid(w))


def _mask(w: Worked, number: int) -> list[str]:
    return _section("mask", w, number)


def _projections(w: Worked, number: int) -> list[str]:
    return _section("projections", w, number)


def _heads(w: Worked, number: int) -> list[str]:
    return _section("heads", w, number)


def _generic(w: Worked, number: int, kind: str) -> list[str]:
    """A kind's section when it names none of the handout's own: its heading and its twin's
    tables of the lesson's numbers (its heading alone when its twin shows none)."""
    tables = twin_layout.section(w, kind, twin_numbers.numbers(w, kind))
    return _section("generic", w, number, kind=kind, tables=Markup(tables))


_SECTIONS: dict[str, Callable[[Worked, int], list[str]]] = {
    "score": _score,
    "softmax": _softmax,
    "mix": _mix,
    "rival": _rival,
    "answer": _answer,
    "all_queries": _all_queries,
    "mask": _mask,
    "projections": _projections,
    "heads": _heads,
}
"""The handout's own sections, by the name a kind's entry gives (:attr:`StepKind.paper`). A
lesson's sections follow its ``steps``; the worked ones are numbered among themselves."""


def _is_series(lesson: Lesson) -> bool:
    """Whether the handout shows any of the series' tables (which need :data:`_SERIES_STYLE`)."""
    return any(KINDS[kind].query in ("every", "heads") for kind in lesson.steps) or (
        "answer" in lesson.steps and not isinstance(lesson.quiz, FillerQuiz)
    )


_STYLE = inline("handout.css")

_SERIES_STYLE = inline("handout_series.css")
