"""The rules that tie a lesson's fields together: what its steps need, sizes, scores, the quiz."""

from __future__ import annotations

import re

import numpy as np

from . import formatting as fmt
from .limits import LIMITS, LessonError
from .maths import quiz_answer, scores
from .matrix import attend_all, hidden_by, project
from .model import Lesson, ShareQuiz
from .share_quiz import share_answer
from .steps import KINDS as STEP_KINDS

__all__ = ["check_needs", "check_quiz", "check_scores", "check_sizes", "in_step"]


_NEEDED_COUNT = re.compile(r"^(\w+)\[(\d+)\]$")


def _missing(lesson: Lesson, need: str) -> str | None:
    """What of ``need`` (a field path of :attr:`StepKind.needs`) the lesson lacks, as the
    field's path, or None when it has it."""
    if need.startswith("tokens."):
        name = need.removeprefix("tokens.")
        for i, token in enumerate(lesson.tokens):
            if getattr(token, name) is None:
                return f"tokens[{i}].{name}"
        return None
    counted = _NEEDED_COUNT.match(need)
    if counted:  # heads[1]: at least two heads
        name, index = counted.group(1), int(counted.group(2))
        items = getattr(lesson, name)
        if not items:
            return name
        return need if len(items) <= index else None
    value = getattr(lesson, need)
    return need if value is None or value == () else None


_WHY_NEEDED = {"heads[1]": "this step compares two heads or more"}


def check_needs(lesson: Lesson, *, named: bool) -> None:
    """Every field a step needs is in the lesson (written, or derived).

    Parameters
    ----------
    lesson
        A lesson whose fields each passed their own checks.
    named
        Whether the lesson lists its steps: then the message names the step.

    Raises
    ------
    LessonError
        ``steps[2] "mask": mask: missing``, or without ``named`` ``rival: missing``.
    """
    for i, name in enumerate(lesson.steps):
        for need in STEP_KINDS[name].needs:
            missing = _missing(lesson, need)
            if missing is None:
                continue
            why = f" ({_WHY_NEEDED[need]})" if need in _WHY_NEEDED and missing == need else ""
            message = f"{missing}: missing{why}"
            raise LessonError(f'steps[{i}] "{name}": {message}' if named else message)


def in_step(error: LessonError, listed: tuple[str, ...] | None) -> LessonError:
    """The error, prefixed by the first listed step that needs the field it names.

    Parameters
    ----------
    error
        A field's error: its message starts with the field's path.
    listed
        The lesson's ``steps`` as written, or None when it lists none (then no prefix).

    Returns
    -------
    LessonError
        ``steps[1] "all_queries": tokens[1].query: …``, or ``error`` itself.
    """
    message = str(error)
    if listed is None or message.startswith("steps["):
        return error
    field = re.sub(r"\[\d+\]", "", message.partition(":")[0])
    for i, name in enumerate(listed):
        for need in STEP_KINDS[name].needs:
            need = re.sub(r"\[\d+\]", "", need)
            if field == need or field.startswith(f"{need}."):
                return LessonError(f'steps[{i}] "{name}": {message}')
    return error


def check_sizes(lesson: Lesson) -> None:
    """A mask needs tokens that ask; the tokens' own queries come all or none, with dₖ small
    enough for a grid of dot products; a heads lesson's projections stay showable.

    Parameters
    ----------
    lesson
        A lesson whose fields each passed their own checks.

    Raises
    ------
    LessonError
        The first rule broken, naming the field.
    """
    if lesson.mask is not None and not any(token.query is not None for token in lesson.tokens):
        raise LessonError(
            f"mask: {lesson.mask!r} needs every token's own query: it hides keys from the "
            "queries of earlier tokens, and the one query (the newest token's) sees them all"
        )
    with_query = [i for i, token in enumerate(lesson.tokens) if token.query is not None]
    if with_query and len(with_query) < len(lesson.tokens):
        lacking = next(i for i in range(len(lesson.tokens)) if i not in with_query)
        raise LessonError(
            f"tokens[{lacking}].query: missing (tokens[{with_query[0]}] has one: "
            "either every token asks, or none)"
        )
    if with_query and lesson.d_k > LIMITS.max_asking_d_k:
        where = "tokens[0].query" if not lesson.heads else "heads[0].w_q"
        raise LessonError(
            f"{where}: dₖ is {lesson.d_k}; when every token asks it may be at most "
            f"{LIMITS.max_asking_d_k}, so that each cell's dot product fits"
        )
    for h, head in enumerate(lesson.heads):
        for t, token in enumerate(lesson.tokens):
            assert token.embedding is not None  # every token of a heads lesson has one
            for role, matrix in (("query", head.w_q), ("key", head.w_k), ("value", head.w_v)):
                for entry in project(token.embedding, matrix):
                    if abs(entry) > LIMITS.max_abs_number:
                        raise LessonError(
                            f"tokens[{t}].embedding: its {role} in heads[{h}] has {entry:g}, "
                            f"too large to show (limit ±{LIMITS.max_abs_number:g})"
                        )


def check_scores(lesson: Lesson) -> None:
    """Every score shown keeps e^score readable: the one query's, every pair's, every head's.

    Parameters
    ----------
    lesson
        A lesson whose fields each passed their own checks.

    Raises
    ------
    LessonError
        The first rule broken, naming the field.
    """
    limit = LIMITS.max_abs_score
    tail = f"scores must stay within ±{limit:g} so that e^score can be shown"
    # Every pair, masked ones too: the mask step shows the open grid before it darkens it.
    x = [token.embedding for token in lesson.tokens if token.embedding is not None]
    for h, head in enumerate(lesson.heads):
        grid = attend_all(project(x, head.w_q), project(x, head.w_k), project(x, head.w_v))
        for (i, j), score in np.ndenumerate(grid.scores):
            if abs(score) > limit:
                raise LessonError(
                    f"heads[{h}]: tokens[{i}]'s query scores {score:.2f} against "
                    f"tokens[{j}]'s key; {tail}"
                )
    if lesson.asks and not lesson.heads:
        for i, token in enumerate(lesson.tokens):
            assert token.query is not None
            for j, score in enumerate(scores(token.query, [t.key for t in lesson.tokens])):
                if abs(score) > limit:
                    raise LessonError(
                        f"tokens[{i}].query: scores {score:.2f} against tokens[{j}].key; {tail}"
                    )
    keys = {f"tokens[{i}]": token.key for i, token in enumerate(lesson.tokens)}
    if lesson.rival is not None:
        keys["rival"] = lesson.rival.key
    for path, score in zip(keys, scores(lesson.query, list(keys.values())), strict=True):
        if abs(score) > limit:
            raise LessonError(f"{path}.key: scores {score:.2f} against the query; {tail}")


def check_quiz(lesson: Lesson) -> None:
    """Day 004's quiz is measured against the rival; the share quiz asks about a pair of tokens
    that exist and see each other, with four options that read apart.

    Parameters
    ----------
    lesson
        A lesson whose fields each passed their own checks.

    Raises
    ------
    LessonError
        The first rule broken, naming the field.
    """
    quiz, limit = lesson.quiz, LIMITS.max_abs_score
    if isinstance(quiz, ShareQuiz):
        _check_share_quiz(lesson, quiz)
        return
    if quiz is None:
        return
    if lesson.rival is None:
        raise LessonError("rival: missing (the quiz's filler scores are measured against it)")
    rival_score = scores(lesson.query, [lesson.rival.key])[0]
    for name in ("filler_score", "bonus_filler_score"):
        filler = getattr(quiz, name)
        if not -limit <= filler < rival_score:
            raise LessonError(
                f"quiz.{name}: {filler:g} must be below the rival's score ({rival_score:.2f}) "
                f"and at least -{limit:g}"
            )
    _check_quiz_options(lesson)


def _check_share_quiz(lesson: Lesson, quiz: ShareQuiz) -> None:
    count = len(lesson.tokens)
    for name in ("asker", "to"):
        index = getattr(quiz, name)
        if not 0 <= index < count:
            raise LessonError(
                f"quiz.{name}: {index} is not a token's place (0 to {count - 1}: "
                "tokens[0] is the first)"
            )
    if not lesson.asks:
        raise LessonError(
            "quiz.asker: this quiz asks how one token attends to another: "
            "every token needs its own query (tokens[0].query: missing)"
        )
    if lesson.heads and not 0 <= quiz.head < len(lesson.heads):
        raise LessonError(
            f"quiz.head: {quiz.head} is not a head's place (0 to {len(lesson.heads) - 1})"
        )
    if not lesson.heads and quiz.head != 0:
        raise LessonError("quiz.head: this lesson has no [[heads]]; leave it out")
    if hidden_by(lesson.mask, count)[quiz.asker, quiz.to]:
        raise LessonError(
            f"quiz.to: the {lesson.mask} mask hides tokens[{quiz.to}] from tokens[{quiz.asker}], "
            "so its share is 0 whatever the numbers; ask about a token the asker sees"
        )
    answer = share_answer(lesson)
    if len(answer.options) < 4:
        drawn = ", ".join(f"{slip} {fmt.share(value)}" for slip, value in answer.drawn)
        raise LessonError(
            f"quiz.to: the options would not read as four different answers (right "
            f"{fmt.share(answer.share)}; {drawn}); ask about another pair of tokens"
        )


def _check_quiz_options(lesson: Lesson) -> None:
    """The quiz's four options must read as four different answers."""
    options = quiz_answer(lesson).options
    shown = [fmt.about(x) for x in options]
    for i, rough in enumerate(shown):
        if rough in shown[:i]:
            first = "ABCD"[shown.index(rough)]
            raise LessonError(
                f"quiz.filler_score: options {first} and {'ABCD'[i]} would both read {rough!r}; "
                "move the filler score so that the gap to the rival's score is not 1 and not "
                "tiny"
            )
