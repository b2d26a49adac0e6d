"""SIGTERM as an exception, like SIGINT's KeyboardInterrupt, so every ``finally`` cleans up."""

from __future__ import annotations

__all__ = ["Interrupted"]


class Interrupted(BaseException):
    """SIGTERM arrived; raised like KeyboardInterrupt so every ``finally`` cleans up."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum
