"""SIGINT and SIGTERM as exceptions (KeyboardInterrupt, :class:`Interrupted`), so that every
``finally`` cleans up, and never lost on the way."""

from __future__ import annotations

import os
import signal
import sys
import threading
from types import FrameType

__all__ = ["STOPS", "Interrupted", "stop_on_signals"]

STOPS = (signal.SIGINT, signal.SIGTERM)
RESEND_AFTER = 0.05
"""Seconds after a stop was dropped inside a callback that it is sent again."""


class Interrupted(BaseException):
    """SIGTERM arrived; raised like KeyboardInterrupt so every ``finally`` cleans up."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def stop_on_signals() -> list[int]:
    """From now on SIGINT raises KeyboardInterrupt and SIGTERM :class:`Interrupted` in the main
    thread, even where a shell started the run with SIGINT ignored (a script's background job).
    The signals that came, in order, for the exit status of the first.

    Python runs a handler at whatever bytecode it is at. Inside a weakref callback or a
    ``__del__`` (importlib's module locks have one) what it raises cannot propagate: Python
    prints it as "Exception ignored" and goes on. Such a stop is sent again, from outside, so
    that it ends the run where it can and is never printed as a traceback."""
    came: list[int] = []

    def stop(signum: int, frame: FrameType | None) -> None:
        came.append(signum)
        raise KeyboardInterrupt if signum == signal.SIGINT else Interrupted(signum)

    for each in STOPS:
        signal.signal(each, stop)
    sys.unraisablehook = _stop_sent_again
    return came


def _stop_sent_again(unraisable: sys.UnraisableHookArgs) -> None:
    """The stop a handler raised where it could not propagate, sent again by a thread, so that
    the main thread meets it outside that callback; any other error there as Python says it."""
    error = unraisable.exc_value
    if isinstance(error, Interrupted):
        signum = error.signum
    elif isinstance(error, KeyboardInterrupt):
        signum = signal.SIGINT
    else:
        sys.__unraisablehook__(unraisable)
        return
    # A moment later: sent at once, it is met while this hook still runs (inside the callback)
    resend = threading.Timer(RESEND_AFTER, os.kill, args=(os.getpid(), signum))
    resend.daemon = True
    resend.start()
