"""The quick check asked inside the video: the embed page pauses where the video asks its
question, asks it as a form, checks the answer and explains it, then plays on.

Every word and number of the form is made here, in Python, from the worked lesson
(:mod:`attention_core.worked`, formatted by :mod:`attention_core.formatting`) and the words
catalogue, and handed to the page as JSON: the page's script (``quiz_player.js``) only shows
what it is given and compares the option picked with the one marked right. It tracks the
viewing too (``tracking.js``: xAPI statements, and SCORM 1.2 when the page runs inside an LMS).
"""

from __future__ import annotations

from typing import Any

from attention_core import Lesson
from attention_core.model import Quiz as FillerQuiz
from attention_core.worked import Quiz, worked
from publish.kit.templating import render
from publish.media.manifest import FullEntry

__all__ = ["hook", "quiz_data"]

ASKED_BEFORE = "answer"
"""The step kind that opens on the answer: the page asks where it begins, so the viewer picks
before the video tells (Day 004 asks in the rival step's last beat, "Pause and pick"; the
series' share quiz in the answer step's heading, in the beat that reveals it)."""


def quiz_data(lesson: Lesson, full: FullEntry, video: str) -> dict[str, Any] | None:
    """What the page needs to ask the lesson's quiz in the player ``video``; None when the
    lesson asks none, or the whole video's chapters are not one per step."""
    if lesson.quiz is None or ASKED_BEFORE not in lesson.steps:
        return None
    if len(full.chapters) != len(lesson.steps):
        return None
    at = full.chapters[lesson.steps.index(ASKED_BEFORE)].start
    words = lesson.words
    asked = _filler(lesson) if isinstance(lesson.quiz, FillerQuiz) else _share(lesson)
    return {
        "video": video,
        "at": at,
        "title": lesson.title,
        "length": full.duration,
        "language": words["common.word.language"],
        "legend": words["handout.heading.quiz"],
        "check": words["page.word.check"],
        "continue": words["page.word.continue"],
        "right": words["page.line.right"],
        "wrong": words["page.line.wrong"],
        **asked,
    }


def _filler(lesson: Lesson) -> dict[str, Any]:
    """Day 004's: how many fillers match one rival; the right one explained by e^gap."""
    q, words = worked(lesson).quiz, lesson.words
    why = words.say(
        "handout.line.why", rival=q.rival, filler=q.filler, ratio=q.ratio, count=q.count
    )
    return {
        "question": words.say("rival.line.question", filler=q.filler, rival=q.rival),
        "options": [  # only the right one is explained: the wrong ones stand for no slip
            {
                "letter": Quiz.letter_of(i),
                "text": option,
                "why": why if i == q.numbers.correct else "",
            }
            for i, option in enumerate(q.options)
        ],
        "correct": q.numbers.correct,
        "answer": words.say("handout.line.pick", letter=q.letter, option=q.answer),
    }


def _share(lesson: Lesson) -> dict[str, Any]:
    """The series' share quiz: each wrong option explained by the slip that gives it."""
    w, words = worked(lesson), lesson.words
    q = w.share_quiz
    question = words.say("answer.heading.share", asker=q.asker.short, to=q.to.short)
    if q.head is not None:
        question += " " + words.say("handout.line.in_head", head=q.head)
    cell = q.grid.cells[lesson.share_quiz.asker][lesson.share_quiz.to]
    work = words.say(
        "handout.line.share_work",
        asker=q.asker.short,
        to=q.to.short,
        total=q.grid.rows[lesson.share_quiz.asker].total,
        pull=cell.pull,
        share=cell.share,
    )
    options = []
    for i, (option, slip) in enumerate(zip(q.options, q.slips, strict=True)):
        letter = Quiz.letter_of(i)
        why = (
            work
            if slip == "right"
            else words.say(
                "handout.line.slip",
                letter=letter,
                option=option,
                slip=words[f"answer.line.slip_{slip}"],
            )
        )
        options.append({"letter": letter, "text": option, "why": why})
    return {
        "question": question,
        "options": options,
        "correct": q.numbers.correct,
        "answer": words.say("handout.line.pick", letter=q.letter, option=q.answer),
    }


def hook(lesson: Lesson, full: FullEntry, video: str) -> str:
    """The form (hidden until its moment) and the script that asks it, for the player
    ``video``; the script alone (tracking the viewing) when the lesson asks no quiz."""
    data = quiz_data(lesson, full, video)
    settings = data or {"video": video, "title": lesson.title, "length": full.duration}
    return render("quiz.html", asks=data is not None, settings=settings)
