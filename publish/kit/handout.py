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
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from attention_core import SCALING_SECTION, Lesson, fontset
from attention_core import Quiz as FillerQuiz
from attention_core import formatting as fmt
from attention_core.steps import KINDS
from attention_core.worked import Cell, Grid, Quiz, Row, Worked, worked
from publish.kit import twin_layout, twin_numbers
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
    body = [
        f"<header><h1>{_text(lesson.title)}</h1>",
        f"<p class=lead>{_text(lesson.promise)}</p>",
        f"<p class=muted>{say(lesson, 'handout.line.subtitle')}</p>",
        f"<p>{_setup(w)}</p></header>",
        *steps,
        f"<section><h2>{say(lesson, 'handout.heading.takeaway')}</h2>",
        f"<p class=lead>{_text(lesson.takeaway)}</p>",
        f"<p class=muted>{_text(lesson.citation.source)}: {_text(lesson.citation.finding)}</p>",
        f"<h2>{say(lesson, 'handout.heading.references')}</h2><ul>",
        *(f"<li>{_text(r.text)} — {_text(r.where)}</li>" for r in lesson.references),
        "</ul></section>",
    ]
    language = lesson.words["common.word.language"]
    # The series' tables need a little more style; Day 004's page keeps exactly its own.
    style = STYLE_BASE + _STYLE + (_SERIES_STYLE if _is_series(lesson) else "")
    return page(lesson.title, language, style, "\n".join(body))


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


def _score(w: Worked, number: int) -> list[str]:
    lesson = w.lesson
    return [
        _step_heading(lesson, number, "score"),
        f"<p>{say(lesson, 'handout.line.score', d_k=w.d_k, root=w.root_d_k)}</p>",
        _table(lesson, SCORED, [_scored(w, row) for row in w.before.rows]),
        f"<p class=muted>{say(lesson, 'score.line.why_title')} {say(lesson, 'score.line.why')} "
        f"({say(lesson, 'score.line.why_source', section=SCALING_SECTION)})</p>",
        "</section>",
    ]


def _softmax(w: Worked, number: int) -> list[str]:
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
        _step_heading(lesson, number, "softmax"),
        f"<p>{say(lesson, 'handout.line.softmax', rule=w.rule)}</p>",
        _table(lesson, ["token", "score", "pull", "share"], rows),
        "</section>",
    ]


def _mix(w: Worked, number: int) -> list[str]:
    lesson, before = w.lesson, w.before
    rows = [[_text(r.token), r.weight, r.value, r.scaled] for r in before.rows]
    rows.append([f"<b>{say(lesson, 'handout.word.output')}</b>", "", "", f"<b>{before.output}</b>"])
    answers = ", ".join(
        f"{_text(answer)} → {entry}"
        for answer, entry in zip(lesson.answers, before.entries, strict=True)
    )
    winner = lesson.answers[before.attention.winner]
    return [
        _step_heading(lesson, number, "mix"),
        f"<p>{say(lesson, 'handout.line.mix')}</p>",
        _table(lesson, ["token", "weight", "value", "scaled"], rows),
        f"<p>{say(lesson, 'handout.word.answers')}: {answers}. "
        f"<b>{say(lesson, 'handout.line.leans', answer=winner)}</b></p>",
        "</section>",
    ]


def _rival(w: Worked, number: int) -> list[str]:
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


def _answer(w: Worked, number: int) -> list[str]:
    """The quick check and its answer, of either kind."""
    return _quiz(w) if isinstance(w.lesson.quiz, FillerQuiz) else _share_quiz(w)


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


# --- the series' steps: every token asks, the mask, projections, heads, the share quiz ------


def _shown_grid(w: Worked) -> Grid:
    """The grid the all-queries step works: before the mask when a mask step follows to show
    it (as ``scenes.steps.all_queries.shown_grid`` picks), else the lesson's own."""
    return w.open_grid if "mask" in w.lesson.steps else w.grid


def _all_queries(w: Worked, number: int) -> list[str]:
    lesson, grid = w.lesson, _shown_grid(w)
    first = grid.cells[0][0]
    name = lesson.tokens[0].short
    vectors = [[_text(row.of.short), row.query, row.key, row.value] for row in grid.rows]
    return [
        _step_heading(lesson, number, "all_queries"),
        f"<p>{say(lesson, 'handout.line.grid', d_k=grid.d_k, root=grid.root_d_k)}</p>",
        _table(lesson, ["token", "query", "key", "value"], vectors, kind="vectors"),
        "<p>"
        + say(
            lesson,
            "handout.line.first_cell",
            query=name,
            key=name,
            products=first.products,
            dot=first.dot,
            root=grid.root_d_k,
            score=first.score,
        )
        + "</p>",
        f"<h3>{say(lesson, 'handout.heading.dots')}</h3>",
        _grid(lesson, grid, [[c.dot for c in line] for line in grid.cells]),
        *_grid_stages(w, grid, "scores"),
        "</section>",
    ]


def _mask(w: Worked, number: int) -> list[str]:
    lesson = w.lesson
    return [
        _step_heading(lesson, number, "mask"),
        f"<p>{say(lesson, 'handout.line.mask')}</p>",
        *_grid_stages(w, w.grid, "masked_scores", explain=False),
        "</section>",
    ]


def _grid_stages(w: Worked, grid: Grid, scores: str, *, explain: bool = True) -> list[str]:
    """A grid's scores, its pulls (each row's total beside it), its shares (each row's
    budget beside it) and its outputs; with ``explain``, the rules (the mask's section works
    them as the first one did)."""
    lesson = w.lesson

    def rule(name: str, **values: str) -> list[str]:
        return [f"<p>{say(lesson, f'handout.line.{name}', **values)}</p>"] if explain else []

    def stage(name: str) -> list[list[str]]:
        return [[getattr(c, name) for c in line] for line in grid.cells]

    outputs = [[_text(row.of.short), *row.output_entries] for row in grid.rows]
    return [
        f"<h3>{say(lesson, f'handout.heading.{scores}')}</h3>",
        _grid(lesson, grid, stage("score")),
        f"<h3>{say(lesson, 'handout.heading.pulls')}</h3>",
        *rule("grid_softmax", budget=w.budget),
        _grid(lesson, grid, stage("pull"), totals=[row.total for row in grid.rows]),
        f"<h3>{say(lesson, 'handout.heading.shares')}</h3>",
        _grid(lesson, grid, stage("share"), totals=[w.budget] * len(grid.rows)),
        f"<h3>{say(lesson, 'handout.heading.outputs')}</h3>",
        *rule("grid_output"),
        _table(
            lesson,
            ["token"],
            outputs,
            kind="grid",
            extra=[_text(str(answer)) for answer in lesson.answers],
        ),
    ]


def _projections(w: Worked, number: int) -> list[str]:
    lesson = w.lesson
    newest = len(lesson.tokens) - 1
    parts = [
        _step_heading(lesson, number, "projections"),
        f"<p>{say(lesson, 'handout.line.projections')}</p>",
    ]
    for h, head in enumerate(w.heads):
        rows = [
            [
                _text(p.of.short),
                _vector(p.embedding),
                f"<b>{p.q.vector}</b>",
                f"<b>{p.k.vector}</b>",
                f"<b>{p.v.vector}</b>",
            ]
            for p in head.projections
        ]
        parts += [
            f"<h3>{say(lesson, 'handout.heading.head', number=head.number)}</h3>",
            "<div class=matrices>",
            *(_matrix(f"W<sub>{r.upper()}</sub>", getattr(head, f"w_{r}"), "x", r) for r in "qkv"),
            "</div>",
            _table(lesson, ["token", "embedding", "query", "key", "value"], rows, kind="vectors"),
        ]
        if h == 0:  # the video works the newest token through head 1 by hand
            worked_out = head.projections[newest]
            products = [
                [_entry(r, c), terms, f"<b>{entry}</b>"]
                for r in "qkv"
                for c, (terms, entry) in enumerate(
                    zip(getattr(worked_out, r).terms, getattr(worked_out, r).entries, strict=True)
                )
            ]
            parts += [
                "<p>"
                + say(
                    lesson,
                    "handout.line.worked_token",
                    token=lesson.tokens[newest].text,
                    head=head.number,
                    embedding=_vector(worked_out.embedding),
                )
                + "</p>",
                _table(lesson, ["entry", "terms", "result"], products, kind="terms"),
            ]
    return [*parts, "</section>"]


def _heads(w: Worked, number: int) -> list[str]:
    lesson = w.lesson
    parts = [
        _step_heading(lesson, number, "heads"),
        f"<p>{say(lesson, 'handout.line.heads', budget=w.budget)}</p>",
    ]
    for head in w.heads:
        grid = head.grid
        parts += [
            f"<h3>{say(lesson, 'handout.heading.head', number=head.number)}</h3>",
            _grid(
                lesson,
                grid,
                [[c.share for c in line] for line in grid.cells],
                outputs=[row.output for row in grid.rows],
            ),
        ]
    mixing = w.w_o is not None
    rows = [
        [_text(token.short), _vector(joined), *([f"<b>{_vector(mixed)}</b>"] if mixing else [])]
        for token, joined, mixed in zip(lesson.tokens, w.joined, w.mixed, strict=True)
    ]
    parts += [
        f"<h3>{say(lesson, 'handout.heading.joined')}</h3>",
        f"<p>{say(lesson, 'handout.line.join' if mixing else 'handout.line.join_only')}</p>",
    ]
    if w.w_o is not None:
        parts += ["<div class=matrices>", _matrix("W<sub>O</sub>", w.w_o), "</div>"]
    columns = ["token", "joined", *(["mixed"] if mixing else [])]
    parts += [_table(lesson, columns, rows, kind="vectors"), "</section>"]
    return parts


def _share_quiz(w: Worked) -> list[str]:
    lesson, q = w.lesson, w.share_quiz
    asker, to = q.asker.short, q.to.short
    question = say(lesson, "answer.heading.share", asker=asker, to=to)
    if q.head is not None:
        question += " " + say(lesson, "handout.line.in_head", head=q.head)
    options = "".join(
        f"<li><b>{Quiz.letter_of(i)}</b> {option}</li>" for i, option in enumerate(q.options)
    )
    slips = "".join(
        "<li>"
        + say(
            lesson,
            "handout.line.slip",
            letter=Quiz.letter_of(i),
            option=option,
            slip=lesson.words[f"answer.line.slip_{slip}"],
        )
        + "</li>"
        for i, (option, slip) in enumerate(zip(q.options, q.slips, strict=True))
        if slip != "right"
    )
    place = lesson.share_quiz.asker
    cells, row = q.grid.cells[place], q.grid.rows[place]
    working = [
        [_text(token.short), _cell(c, c.score), _cell(c, c.pull), _cell(c, f"<b>{c.share}</b>")]
        for token, c in zip(lesson.tokens, cells, strict=True)
    ]
    working.append(
        [f"<b>{say(lesson, 'handout.word.total')}</b>", "", f"<b>{row.total}</b>", w.budget]
    )
    to_cell = cells[lesson.share_quiz.to]
    parts = [
        f"<section class=quiz><h2>{say(lesson, 'handout.heading.quiz')}</h2>",
        f"<p>{question}</p>",
        f"<ol class=options>{options}</ol></section>",
        f"<section class=answer><h2>{say(lesson, 'handout.heading.answer')}</h2>",
        f"<p><b>{say(lesson, 'handout.line.pick', letter=q.letter, option=q.answer)}</b> "
        + say(
            lesson,
            "handout.line.share_work",
            asker=asker,
            to=to,
            total=row.total,
            pull=to_cell.pull,
            share=to_cell.share,
        )
        + "</p>",
        _table(lesson, ["token", "score", "pull", "share"], working, kind="grid"),
        f"<p>{say(lesson, 'handout.line.slips')}</p><ul>{slips}</ul>",
    ]
    if lesson.mask is not None and not lesson.heads:  # as the video: the same row, unmasked
        parts.append(
            "<p>"
            + say(
                lesson,
                "answer.caption.share_open",
                share=w.open_grid.cells[place][lesson.share_quiz.to].share,
                to=to,
            )
            + "</p>"
        )
    return [*parts, "</section>"]


def _generic(w: Worked, number: int, kind: str) -> list[str]:
    """A kind's section when it names none of the handout's own: its heading and its twin's
    tables of the lesson's numbers (its heading alone when its twin shows none)."""
    return [
        _step_heading(w.lesson, number, kind),
        twin_layout.section(w, kind, twin_numbers.numbers(w, kind)),
        "</section>",
    ]


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


# --- pieces -------------------------------------------------------------------------------


def _grid(
    lesson: Lesson,
    grid: Grid,
    texts: Sequence[Sequence[str]],
    *,
    totals: Sequence[str] | None = None,
    outputs: Sequence[str] | None = None,
) -> str:
    """A grid as the video's: a row per asking token, a column per key's token; a cell the
    mask hides is muted. Optionally each row's total, or its output, beside it."""
    names = [_text(row.of.short) for row in grid.rows]
    extra = [say(lesson, "handout.word.total")] if totals is not None else []
    if outputs is not None:
        extra.append(say(lesson, "handout.word.head_output"))
    rows = [
        [
            names[i],
            *(_cell(cell, text) for cell, text in zip(grid.cells[i], line, strict=True)),
            *([totals[i]] if totals is not None else []),
            *([f"<b>{outputs[i]}</b>"] if outputs is not None else []),
        ]
        for i, line in enumerate(texts)
    ]
    return _table(lesson, ["corner"], rows, kind="grid", extra=[*names, *extra])


def _cell(cell: Cell, text: str) -> str:
    """A cell's number, muted where the mask hides it."""
    return f"<span class=hidden>{text}</span>" if cell.hidden else text


def _matrix(label: str, rows: Sequence[Sequence[str]], down: str = "", across: str = "") -> str:
    """A learned matrix under its label: a row per entry of what it multiplies (``down``), a
    column per entry of what it makes (``across``): W_Q's row x₂, column q₁."""
    head = "".join(f"<th>{_entry(across, c)}</th>" for c in range(len(rows[0])))
    body = "".join(
        f"<tr><th scope=row>{_entry(down, r)}</th>"
        + "".join(f"<td>{e}</td>" for e in row)
        + "</tr>"
        for r, row in enumerate(rows)
    )
    return (
        f"<table class=matrix><caption>{label}</caption>"
        f"<thead><tr><td></td>{head}</tr></thead><tbody>{body}</tbody></table>"
    )


def _entry(letter: str, place: int) -> str:
    """Entry ``place`` (from 0) of a vector named ``letter``: ``q<sub>1</sub>``; of an unnamed
    one, its number."""
    number = fmt.number(place + 1)
    return f"{letter}<sub>{number}</sub>" if letter else number


def _vector(entries: Sequence[str]) -> str:
    """Entries already as shown, written as a vector: ``[0.84, 0.16]``."""
    return "[" + ", ".join(entries) + "]"


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


def _table(
    lesson: Lesson,
    columns: Sequence[str],
    rows: Iterable[Sequence[str]],
    *,
    kind: str | None = None,
    extra: Sequence[str] = (),
) -> str:
    """A table whose header names ``handout.word`` entries, then ``extra`` headers as given
    (token names, answers); ``kind`` is its class (the series' tables are styled by it)."""
    head = "".join(f"<th>{say(lesson, f'handout.word.{c}')}</th>" for c in columns)
    head += "".join(f"<th>{h}</th>" for h in extra)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    opening = "<table>" if kind is None else f"<table class={kind}>"
    return f"{opening}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


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

_SERIES_STYLE = """
section { break-inside: auto; }
table, .matrices, p { break-inside: avoid; }
h2, h3 { break-after: avoid; }
table.grid td:not(:first-child), table.grid th:not(:first-child) { text-align: right; }
table.grid td, table.grid th { white-space: normal; padding: .3rem .4rem; }
table.grid th { overflow-wrap: anywhere; }
table.grid td:first-child { min-width: 0; }
table.vectors td:not(:first-child), table.terms td { white-space: normal; }
table.terms td:first-child { min-width: 3rem; }
.hidden { color: #5d6070; }
td:has(> .hidden) { background: #eef0f4; }
.matrices { display: flex; flex-wrap: wrap; gap: .4rem 1.6rem; }
table.matrix { width: auto; margin: .3rem 0; }
table.matrix caption { text-align: left; font-weight: 600; }
table.matrix td, table.matrix th { padding: .15rem .45rem; text-align: right; min-width: 0; }
"""
