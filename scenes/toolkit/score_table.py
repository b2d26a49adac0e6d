"""The score table: token, key, q·k, ÷√dₖ and score per row. Step 3 fills it, step 4 opens on it."""

from __future__ import annotations

from typing import cast

from manim import LEFT, VGroup, VMobject

from attention_core.meaning import Meaning, meaning
from attention_core.worked import Worked
from scenes import style
from scenes.helpers import column_header, fit, labelled, level_with, math, text, token_names
from scenes.layout import STAGE
from scenes.toolkit.figures import Figure, figure
from scenes.toolkit.vectors import CELL_GAP, CELL_HEIGHT, VectorCells, cell_width

__all__ = ["ScoreTable"]


def _texts(mob: VMobject) -> list[str]:
    """A name as shown: one text, or its two lines."""
    shown = getattr(mob, "original_text", None)
    return (
        [str(shown)] if shown is not None else [t for sub in mob.submobjects for t in _texts(sub)]
    )


LEFT_X, RIGHT_X = STAGE.left, STAGE.right  # the stage's width: its texts inside title-safe
HEADER_Y = 1.5
ROWS_TOP, ROWS_BOTTOM = 1.25, -1.0
MAX_ROW_HEIGHT = 0.62
NUMBER_COLUMNS = (1.4, 1.6, 1.3)  # q·k, ÷√dₖ, score: their widths, ending at RIGHT_X
COLUMN_GAP = 0.3
TOKEN_MIN_WIDTH = 2.2
HEADER_ROOM = 0.3  # a number column narrowed to its contents keeps this beside its header


class ScoreTable(VGroup):
    """Every token's key as cells and, once worked out, its q·k, ÷√dₖ and score.

    Named parts: ``headers`` (a dict by column), ``names``, ``keys`` (one VectorCells a row),
    ``dots``, ``divisors`` and ``scores`` (one figure a row). Built whole; a scene shows the
    parts it needs when it needs them.
    """

    def __init__(self, worked: Worked, *, key_heading: str) -> None:
        super().__init__()
        lesson, a, rows = worked.lesson, worked.before.attention, worked.before.rows
        tokens = lesson.tokens
        self.row_height = min(MAX_ROW_HEIGHT, (ROWS_TOP - ROWS_BOTTOM) / len(tokens))
        self.headers: dict[str, VMobject] = {
            "token": column_header(lesson.words["common.word.token"]),
            "key": column_header(key_heading, colour=style.KEY),
            "dot": math(r"q \cdot k", size=style.MATH_SIZE * 0.8, colour=style.MUTED),
            "divisor": math(r"\div \sqrt{d_k}", size=style.MATH_SIZE * 0.8, colour=style.MUTED),
            "score": column_header(lesson.words["common.word.score"]),
        }
        cell_height = min(CELL_HEIGHT, self.row_height * 0.82)
        width = cell_width(*(r.key_entries for r in rows)) * cell_height / CELL_HEIGHT
        widths = self._number_widths(worked, (width + CELL_GAP) * a.d_k - CELL_GAP)
        number_left = RIGHT_X - sum(widths)
        key_right = number_left - COLUMN_GAP
        room = key_right - (LEFT_X + TOKEN_MIN_WIDTH + COLUMN_GAP)
        pitch = min(width + CELL_GAP, room / a.d_k)
        self.cell_width = pitch - CELL_GAP
        key_width = pitch * a.d_k - CELL_GAP
        self.key_left = key_right - key_width
        token_width = self.key_left - COLUMN_GAP - LEFT_X
        self.number_x = [number_left + sum(widths[:i]) + widths[i] / 2 for i in range(3)]
        self.headers["token"].move_to((LEFT_X, HEADER_Y, 0), aligned_edge=LEFT)
        self.headers["key"].move_to((self.key_left, HEADER_Y, 0), aligned_edge=LEFT)
        for column, x in zip(("dot", "divisor", "score"), self.number_x, strict=True):
            self.headers[column].move_to((x, HEADER_Y, 0))
            overhang = self.headers[column].get_right()[0] - RIGHT_X
            self.headers[column].shift(LEFT * max(0.0, overhang))  # a long word ends at the edge
        peak = float(max(abs(x) for v in (a.query, *a.keys) for x in v))  # as the query's
        self.names = token_names(tokens, width=token_width, height=self.row_height * 0.95)
        self.keys: list[VectorCells] = []
        self.dots, self.divisors, self.scores = VGroup(), VGroup(), VGroup()
        for i, name in enumerate(self.names):
            y = self.row_y(i)
            key = VectorCells(
                a.keys[i],
                style.KEY,
                texts=rows[i].key_entries,
                width=self.cell_width,
                height=cell_height,
                peak=peak,
            )
            key.move_to((self.key_left, y, 0), aligned_edge=LEFT)
            self.keys.append(key)
            cells = (
                figure(rows[i].dot),
                figure(f"÷ {worked.root_d_k}", colour=style.MUTED),
                figure(rows[i].score, bold=True),
            )
            for cell, x, group, width in zip(
                cells, self.number_x, (self.dots, self.divisors, self.scores), widths, strict=True
            ):
                fit(cell, width - 0.2, self.row_height * 0.8).move_to((x, y, 0))
                group.add(cell)
            level_with(name.move_to((LEFT_X, y, 0), aligned_edge=LEFT), cells[0])
        self.add(*self.headers.values(), self.names, *self.keys, self.dots, self.divisors)
        self.add(self.scores)

    def _number_widths(self, worked: Worked, key_width: float) -> list[float]:
        """The q·k, ÷√dₖ and score columns' widths: :data:`NUMBER_COLUMNS`, or narrower, down to
        what their numbers (unshrunk) and headers take, where that lets every token's full
        text fit."""
        rows, widths = worked.before.rows, list(NUMBER_COLUMNS)
        shown = (
            [figure(r.dot).width for r in rows],
            [figure(f"÷ {worked.root_d_k}").width],
            [figure(r.score, bold=True).width for r in rows],
        )
        least = [
            min(width, max(self.headers[column].width + HEADER_ROOM, max(cells) + 0.2))
            for width, column, cells in zip(widths, ("dot", "divisor", "score"), shown, strict=True)
        ]
        names = max(text(t.text, size=style.SMALL_SIZE).width for t in worked.lesson.tokens)
        room = RIGHT_X - sum(widths) - 2 * COLUMN_GAP - key_width - LEFT_X
        spare = sum(widths) - sum(least)
        if not 0 < names - room <= spare:  # the names fit already, or would not even so
            return widths
        give = (names - room) / spare
        return [width - (width - low) * give for width, low in zip(widths, least, strict=True)]

    def meant(self) -> Meaning:
        """The table as a description says it: each token's name and its key's entries."""
        keys = [
            "[" + ", ".join(key.entry(j).original_text for j in range(len(key))) + "]"
            for key in self.keys
        ]
        names = [" ".join(_texts(name)) for name in self.names]
        return meaning("describe.line.keys", keys=labelled(names, keys))

    def meant_parts(self) -> list[VMobject]:
        """What :meth:`meant` stands for: the names and the keys (the scores are said)."""
        return [self.names, *self.keys]

    def score(self, row: int) -> Figure:
        """Row ``row``'s score, in its cell."""
        return cast(Figure, self.scores[row])  # manim's VGroup is not generic: it holds VMobjects

    def row_y(self, row: int) -> float:
        return ROWS_TOP - self.row_height * (row + 0.5)
