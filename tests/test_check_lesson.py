"""``render.py --check-lesson``: a readable summary of what a lesson's video will show."""

from __future__ import annotations

from pathlib import Path

import pytest

import render
from attention_core import (
    Quiz,
    attend,
    attend_grid,
    attend_heads,
    load_lesson,
    quiz_answer,
    with_rival,
)
from attention_core import formatting as fmt

from .lessons import lesson_files

ROOT = Path(__file__).parent.parent
DEFAULT = ROOT / "attention_core" / "lesson.toml"


def check(path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = render.main(["--check-lesson", str(path)])
    out, err = capsys.readouterr()
    return code, out, err


def test_default_lesson_summary_shows_the_seeds_numbers(capsys) -> None:
    code, out, err = check(DEFAULT, capsys)
    assert (code, err) == (0, "")
    for figure in ["√dₖ = 2", "20.09", "84.4%", "23.80", "[0.84, 0.11, 0.00]", "45.8%"]:
        assert figure in out
    assert "[0.46, 0.06, 0.46]: “4821” and “1937” are tied at 0.46. A coin flip." in out
    assert "answer C: about 20 (e^3 = 20.1)" in out
    assert "bonus: fillers scoring -3: 403" in out


@pytest.mark.parametrize("path", lesson_files(), ids=lambda p: p.stem)
def test_every_row_of_the_summary_comes_from_the_maths(path: Path, capsys) -> None:
    code, out, _ = check(path, capsys)
    lesson = load_lesson(path)
    assert code == 0
    lines = {" ".join(line.split()) for line in out.splitlines()}
    runs = [(attend(lesson), lesson)]
    if lesson.rival is not None:  # a lesson of the series may have none
        runs.append((attend(with_rival(lesson)), with_rival(lesson)))
    for result, shown in runs:
        for i, token in enumerate(shown.tokens):
            row = " ".join(
                [
                    token.text,
                    fmt.number(result.dots[i]),
                    fmt.number(result.scores[i]),
                    fmt.pull(result.pulls[i]),
                    fmt.share(result.weights[i]),
                ]
            )
            assert row in lines
        assert f"total {fmt.pull(result.total)}" in lines
        assert f"output {fmt.output(result.output)}" in out
    if isinstance(lesson.quiz, Quiz):
        quiz = quiz_answer(lesson)
        about = lesson.words["common.word.about"]
        assert f"answer C: {fmt.option(quiz.fillers_needed, about)}" in out
    if lesson.asks:  # every token asks: each grid's rows, from the maths
        grids = [attend_heads(lesson).heads[h].grid for h in range(len(lesson.heads))]
        for grid in grids or [attend_grid(lesson)]:
            for i, token in enumerate(lesson.tokens):
                shares = [
                    "−" if grid.hidden[i, j] else fmt.share(grid.weights[i, j])
                    for j in range(len(lesson.tokens))
                ]
                row = " ".join([token.short, *shares, fmt.output(grid.outputs[i])])
                assert row in lines, row


def test_a_bad_lesson_is_named_on_stderr_with_exit_2(tmp_path: Path, capsys) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(DEFAULT.read_text("utf-8").replace("key = [2, 0, 1, 1]", "key = [2, 0]", 1))
    code, out, err = check(bad, capsys)
    assert (code, out) == (2, "")
    assert "tokens[0].key: expected 4 numbers (the query's length), got 2" in err


def test_a_reader_that_stops_early_ends_the_summary_quietly() -> None:
    """``render.py --check-lesson FILE | head``: the pipe closes before the summary is
    written; the run ends as a piped command does (141), with no traceback."""
    import subprocess
    import sys

    root = Path(render.__file__).resolve().parent
    command = [sys.executable, "render.py", "--check-lesson", "lessons/day006_heads.toml"]
    process = subprocess.Popen(
        command, cwd=root, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert process.stdout is not None
    process.stdout.close()  # the reader is gone before the first line
    _, errors = process.communicate(timeout=120)
    assert process.returncode == 141
    assert "Traceback" not in errors
    assert errors == ""
