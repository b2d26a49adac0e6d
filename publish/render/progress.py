"""What the user sees while rendering: a live board on a terminal, one line per event otherwise."""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from types import TracebackType
from typing import Protocol, Self, TextIO

from rich.console import Console
from rich.markup import escape
from rich.progress import (
    BarColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
)
from rich.table import Table

__all__ = [
    "Display",
    "PlainDisplay",
    "RichDisplay",
    "Row",
    "SummaryRow",
    "Tally",
    "make_display",
]


@dataclass(frozen=True)
class Row:
    """A clip the run is about: its file stem, title and expected length in seconds (0: unknown)."""

    name: str
    title: str
    seconds: float = 0.0


@dataclass(frozen=True)
class SummaryRow:
    """One line of the closing table."""

    file: str
    state: str
    duration: float
    size: int

    @property
    def cells(self) -> tuple[str, str, str, str]:
        """File, state, duration and size as both displays print them: ``0:02.0``, ``2.0 MB``."""
        return self.file, self.state, _clock(self.duration), _size(self.size)


class Display(Protocol):
    """The events a run reports."""

    def __enter__(self) -> Display: ...
    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None: ...
    def note(self, message: str) -> None: ...
    def plan(self, rows: Sequence[Row]) -> None: ...
    def cached(self, name: str) -> None: ...
    def running(self, name: str) -> None: ...
    def advanced(self, name: str, seconds: float) -> None: ...
    def done(self, name: str, seconds: float, elapsed: float) -> None: ...
    def failed(self, name: str, message: str) -> None: ...
    def summary(self, rows: Sequence[SummaryRow]) -> None: ...


def make_display(stream: TextIO | None = None) -> Display:
    """A live board when writing to a terminal; plain lines when piped or logged."""
    stream = stream or sys.stdout
    return RichDisplay(Console(file=stream)) if stream.isatty() else PlainDisplay(stream)


def _size(size: int) -> str:
    return f"{size / 1e6:.1f} MB" if size >= 100_000 else f"{size / 1e3:.0f} kB"


def _clock(seconds: float) -> str:
    minutes, rest = divmod(seconds, 60)
    return f"{int(minutes)}:{rest:04.1f}"


@dataclass
class Tally:
    """The whole run's progress, every lesson of a course at once: clips done of the clips to
    do, and the time left at the pace so far (seconds of video made per second of wall time,
    from the first clip started; clips of unknown length count as the average known one)."""

    expected: dict[str, float] = field(default_factory=dict)
    todo: set[str] = field(default_factory=set)
    done: set[str] = field(default_factory=set)
    started: float | None = None

    def plan(self, rows: Sequence[Row]) -> None:
        self.expected = {row.name: row.seconds for row in rows}
        self.todo = set(self.expected)

    def cached(self, name: str) -> None:
        self.todo.discard(name)

    def running(self, now: float) -> None:
        if self.started is None:
            self.started = now

    def finished(self, name: str) -> None:
        """A clip done, or failed: either way no longer to do."""
        if name in self.todo:
            self.done.add(name)

    def _seconds(self, name: str) -> float:
        known = [s for s in self.expected.values() if s > 0]
        return self.expected.get(name) or (sum(known) / len(known) if known else 1.0)

    def left(self, now: float) -> float | None:
        """Seconds of wall time left, once a clip is done; None before."""
        if self.started is None or not self.done or now <= self.started:
            return None
        pace = sum(self._seconds(name) for name in self.done) / (now - self.started)
        return sum(self._seconds(name) for name in self.todo - self.done) / pace

    def line(self, now: float) -> str:
        """``3/14 clips, about 1:20 left``."""
        counted = f"{len(self.done)}/{len(self.todo)} clips"
        left = self.left(now)
        return f"{counted}, about {_clock(left)[:-2]} left" if left else counted


class _Context:
    """A display used as a context: ``open`` on the way in, ``close`` however the run ends."""

    def open(self) -> None:
        pass

    def close(self) -> None:
        pass

    def __enter__(self) -> Self:
        self.open()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


class PlainDisplay(_Context):
    """One line per event, flushed at once so a log or a pipe sees progress as it happens."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.tally = Tally()

    def close(self) -> None:
        self.stream.flush()

    def _say(self, line: str) -> None:
        print(line, file=self.stream, flush=True)

    def note(self, message: str) -> None:
        self._say(message)

    def plan(self, rows: Sequence[Row]) -> None:
        self.tally.plan(rows)

    def cached(self, name: str) -> None:
        self.tally.cached(name)
        self._say(f"cached   {name}")

    def running(self, name: str) -> None:
        self.tally.running(time.monotonic())
        self._say(f"running  {name}")

    def advanced(self, name: str, seconds: float) -> None:
        pass

    def done(self, name: str, seconds: float, elapsed: float) -> None:
        self.tally.finished(name)
        progress = self.tally.line(time.monotonic())
        self._say(f"done     {name}  ({seconds:.1f} s of video in {elapsed:.1f} s)  [{progress}]")

    def failed(self, name: str, message: str) -> None:
        self.tally.finished(name)
        self._say(f"FAILED   {name}: {message}  [{self.tally.line(time.monotonic())}]")

    def summary(self, rows: Sequence[SummaryRow]) -> None:
        width = max([28, *(len(row.file) for row in rows)])  # a course's names are longer
        for row in rows:
            file, state, duration, size = row.cells
            self._say(f"{file:<{width}} {state:<8} {duration:>8} {size:>9}")


class RichDisplay(_Context):
    """A bar per clip (in seconds of video, advanced after every animation) and one overall."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self.progress = Progress(
            TextColumn("{task.fields[state]:<8}"),
            TextColumn("{task.description}"),
            BarColumn(),
            TextColumn("{task.completed:>5.0f}/{task.total:.0f} s"),
            TimeElapsedColumn(),
            console=console,
        )
        self.tasks: dict[str, TaskID] = {}
        self.totals: dict[str, float] = {}
        self.completed: dict[str, float] = {}
        self.overall: TaskID | None = None
        self.tally = Tally()

    def open(self) -> None:
        self.progress.start()

    def close(self) -> None:
        self.progress.stop()

    def note(self, message: str) -> None:
        self.progress.console.print(message)

    def plan(self, rows: Sequence[Row]) -> None:
        self.tally.plan(rows)
        self.overall = self.progress.add_task(
            "[bold]all steps", total=sum(r.seconds or 1.0 for r in rows), state=""
        )
        for row in rows:
            self.totals[row.name] = row.seconds or 1.0
            self.tasks[row.name] = self.progress.add_task(
                f"{row.name}  [dim]{escape(row.title)}", total=self.totals[row.name], state="queued"
            )

    def _set(self, name: str, seconds: float, state: str | None = None) -> None:
        if name not in self.tasks:
            self.totals[name] = 1.0
            self.tasks[name] = self.progress.add_task(name, total=1.0, state="")
        self.completed[name] = min(seconds, self.totals[name])
        if state:
            self.progress.update(self.tasks[name], state=state)
        self.progress.update(self.tasks[name], completed=self.completed[name])
        if self.overall is not None:
            self.progress.update(
                self.overall,
                completed=sum(self.completed.values()),
                description=f"[bold]all steps[/]  [dim]{self.tally.line(time.monotonic())}",
            )

    def cached(self, name: str) -> None:
        self.tally.cached(name)
        self._set(name, self.totals.get(name, 1.0), "[cyan]cached")

    def running(self, name: str) -> None:
        self.tally.running(time.monotonic())
        self._set(name, 0.0, "[yellow]running")

    def advanced(self, name: str, seconds: float) -> None:
        self._set(name, seconds)

    def done(self, name: str, seconds: float, elapsed: float) -> None:
        self.tally.finished(name)
        self._set(name, self.totals.get(name, 1.0), "[green]done")

    def failed(self, name: str, message: str) -> None:
        self.tally.finished(name)
        self._set(name, self.completed.get(name, 0.0), "[red]FAILED")
        self.progress.console.print(f"[red]{name} failed:[/] {escape(message)}")

    def summary(self, rows: Sequence[SummaryRow]) -> None:
        self.progress.stop()  # the table comes last, below the finished board
        table = Table(title="Files", title_justify="left")
        table.add_column("file")
        table.add_column("state")
        table.add_column("duration", justify="right")
        table.add_column("size", justify="right")
        for row in rows:
            table.add_row(*row.cells)
        self.progress.console.print(table)
