"""The handout: the lesson's worked maths on paper, every number from attention_core's formatter.

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
from collections.abc import Iterable, Sequence
from pathlib import Path

from attention_core import SCALING_SECTION, Lesson
from attention_core import Quiz as FillerQuiz
from attention_core import formatting as fmt
from attention_core.worked import Quiz, Row, Worked, worked
from publish.kit.webpage import STYLE_BASE, page
from publish.media.files import replacing, write_text
from publish.render.tools import Tool

__all__ = ["CHROMIUM", "NAME", "handout_html", "print_pdf", "write_handout"]

NAME = "handout"
"""Stem of the handout's files: ``handout.html``, ``handout.pdf``."""
CHROMIUM = Tool("chromium", "chromium", "prints the handout as PDF")


def say(lesson: Lesson, name: str, **values: str) -> str:
    """The catalogue entry ``name`` filled in, as HTML-safe text with ``e^x`` set as a power."""
    return _prose(lesson.words.say(name, **values))


def _prose(text: str) -> str:
    """A sentence as HTML-safe text with ``e^x`` set as a power."""
    return re.sub(r"e\^(-?\w+(?:\.\d+)?)", r"e<sup>\1</sup>", html.escape(text, quote=False))


def handout_html(lesson: Lesson) -> str:
    """The whole handout as one self-contained HTML page."""
    w = worked(lesson)
    body = [
        f"<header><h1>{_text(lesson.title)}</h1>",
        f"<p class=lead>{_text(lesson.promise)}</p>",
        f"<p class=muted>{say(lesson, 'handout.line.subtitle')}</p>",
        "<p>"
        + say(
            lesson,
            "handout.line.setup",
            question=lesson.question,
            query=w.query,
            d_k=w.d_k,
        )
        + "</p></header>",
        *_score(w),
        *_softmax(w),
        *_mix(w),
        # A lesson of the series may have no rival, or the share quiz: the handout then shows
        # Day 004's part it has (the grid and the heads have no handout section yet).
        *(_rival(w) if lesson.rival is not None else []),
        *(_quiz(w) if isinstance(lesson.quiz, FillerQuiz) else []),
        f"<section><h2>{say(lesson, 'handout.heading.takeaway')}</h2>",
        f"<p class=lead>{_text(lesson.takeaway)}</p>",
        f"<p class=muted>{_text(lesson.citation.source)}: {_text(lesson.citation.finding)}</p>",
        f"<h2>{say(lesson, 'handout.heading.references')}</h2><ul>",
        *(f"<li>{_text(r.text)} — {_text(r.where)}</li>" for r in lesson.references),
        "</ul></section>",
    ]
    language = lesson.words["common.word.language"]
    return page(lesson.title, language, STYLE_BASE + _STYLE, "\n".join(body))


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
            _undate(target)
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


def _undate(pdf: Path) -> None:
    """Put :data:`PRINTED` in place of the time Chromium printed ``pdf`` (its only bytes that
    change from run to run), each date as long as the one it replaces, so the cross-reference
    table's byte offsets still hold."""
    data = pdf.read_bytes()
    pattern = rb"/(CreationDate|ModDate) \((D:\d{14}[+-]\d\d'\d\d')\)"
    pdf.write_bytes(re.sub(pattern, lambda m: b"/%s (%s)" % (m[1], PRINTED), data))


# --- the steps ----------------------------------------------------------------------------


def _score(w: Worked) -> list[str]:
    lesson = w.lesson
    return [
        _step_heading(lesson, 1, "score"),
        f"<p>{say(lesson, 'handout.line.score', d_k=w.d_k, root=w.root_d_k)}</p>",
        _table(lesson, SCORED, [_scored(w, row) for row in w.before.rows]),
        f"<p class=muted>{say(lesson, 'score.line.why_title')} {say(lesson, 'score.line.why')} "
        f"({say(lesson, 'score.line.why_source', section=SCALING_SECTION)})</p>",
        "</section>",
    ]


def _softmax(w: Worked) -> list[str]:
    lesson = w.lesson
    rows = [
        [_text(r.token), r.score, f"{_power(r.score)} = {r.pull}", _shared(w, r)]
        for r in w.before.rows
    ]
    rows.append(
        [
            f"<b>{say(lesson, 'handout.word.total')}</b>",
            "",
            f"<b>{w.before.total}</b>",
            w.budget,
        ]
    )
    return [
        _step_heading(lesson, 2, "softmax"),
        f"<p>{say(lesson, 'handout.line.softmax', rule=w.rule)}</p>",
        _table(lesson, ["token", "score", "pull", "share"], rows),
        "</section>",
    ]


def _mix(w: Worked) -> list[str]:
    lesson, before = w.lesson, w.before
    rows = [[_text(r.token), r.weight, r.value, r.scaled] for r in before.rows]
    rows.append([f"<b>{say(lesson, 'handout.word.output')}</b>", "", "", f"<b>{before.output}</b>"])
    answers = ", ".join(
        f"{_text(answer)} → {entry}"
        for answer, entry in zip(lesson.answers, before.entries, strict=True)
    )
    winner = lesson.answers[before.attention.winner]
    return [
        _step_heading(lesson, 3, "mix"),
        f"<p>{say(lesson, 'handout.line.mix')}</p>",
        _table(lesson, ["token", "weight", "value", "scaled"], rows),
        f"<p>{say(lesson, 'handout.word.answers')}: {answers}. "
        f"<b>{say(lesson, 'handout.line.leans', answer=winner)}</b></p>",
        "</section>",
    ]


def _rival(w: Worked) -> list[str]:
    lesson = w.lesson
    before = [r.share for r in w.before.rows]
    shares = [
        [_text(r.token), before[i] if i < len(before) else "—", f"<b>{r.share}</b>"]
        for i, r in enumerate(w.after.rows)
    ]
    return [
        f"<section><h2>{say(lesson, 'rival.heading.title', share=w.left)}</h2>",
        f"<p>{say(lesson, 'handout.line.rival', text=w.rival.token, key=w.rival.key)}</p>",
        _table(lesson, SCORED, [_scored(w, w.rival)]),
        f"<p>{say(lesson, 'handout.line.split')}</p>",
        _table(lesson, ["token", "before", "after"], shares),
        "<p>"
        + say(lesson, "handout.line.output", before=w.before.output, after=w.after.output)
        + f" <b>{_prose(w.verdict)}</b></p>",
        "</section>",
    ]


def _quiz(w: Worked) -> list[str]:
    lesson, q = w.lesson, w.quiz
    options = "".join(
        f"<li><b>{Quiz.letter_of(i)}</b> {option}</li>" for i, option in enumerate(q.options)
    )
    return [
        f"<section class=quiz><h2>{say(lesson, 'handout.heading.quiz')}</h2>",
        f"<p>{say(lesson, 'rival.line.question', filler=q.filler, rival=q.rival)}</p>",
        f"<ol class=options>{options}</ol></section>",
        f"<section class=answer><h2>{say(lesson, 'handout.heading.answer')}</h2>",
        f"<p><b>{say(lesson, 'handout.line.pick', letter=q.letter, option=q.answer)}</b> "
        + say(
            lesson,
            "handout.line.why",
            rival=q.rival,
            filler=q.filler,
            ratio=q.ratio,
            count=q.count,
        )
        + "</p><p>"
        + say(
            lesson,
            "handout.line.bonus",
            filler=q.bonus_filler,
            gap=q.bonus_gap,
            count=q.bonus_count,
        )
        + "</p>",
        f"<h3>{say(lesson, 'handout.heading.code')}</h3><pre>{_text(chr(10).join(w.code))}</pre>"
        "</section>",
    ]


# --- pieces -------------------------------------------------------------------------------


SCORED = ["token", "key", "products", "dot", "root", "score"]
"""The columns of a token scored: its key, the dot product written out, ÷√dₖ, the score."""


def _scored(w: Worked, r: Row) -> list[str]:
    return [_text(r.token), r.key, r.products, r.dot, f"÷ {w.root_d_k}", f"<b>{r.score}</b>"]


def _shared(w: Worked, r: Row) -> str:
    """``20.09 ÷ 23.80 = 84.4%``: a token's pull over the total is its share."""
    return f"{r.pull} ÷ {w.before.total} = <b>{r.share}</b>"


def _power(score: str) -> str:
    return f"e<sup>{score}</sup>"


def _step_heading(lesson: Lesson, number: int, scene: str) -> str:
    """A worked step's heading: its number and the title the video gives it."""
    title = lesson.words[f"{scene}.heading.title"]
    heading = say(lesson, "handout.heading.step", number=fmt.number(number), title=title)
    return f"<section><h2>{heading}</h2>"


def _table(lesson: Lesson, columns: Sequence[str], rows: Iterable[Sequence[str]]) -> str:
    """A table whose header names ``handout.word`` entries."""
    head = "".join(f"<th>{say(lesson, f'handout.word.{c}')}</th>" for c in columns)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _text(value: str) -> str:
    return html.escape(value, quote=False)


_STYLE = """
body { max-width: 52rem; }
section { break-inside: avoid; margin: 1.6rem 0; }
table { border-collapse: collapse; width: 100%; margin: .6rem 0;
  font-variant-numeric: tabular-nums; }
th, td { border-bottom: 1px solid #ccd; padding: .3rem .5rem; text-align: left; }
th { font-size: .85rem; font-weight: 600; color: #556; white-space: nowrap; }
td:not(:first-child) { white-space: nowrap; }
td:first-child { min-width: 9rem; }
pre { background: #f3f4f8; padding: .6rem .8rem; border-radius: 4px; }
ol.options { list-style: none; padding: 0; display: flex; gap: 1rem; }
ol.options li { border: 1px solid #99a; border-radius: 6px; padding: .4rem .9rem; }
section.answer { border-top: 2px dashed #99a; padding-top: 1rem; }
@page { size: A4; margin: 16mm; }
@media print { body { font-size: 10.5pt; } section.answer { break-before: page; } }
"""
