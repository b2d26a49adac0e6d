"""Read a small text file safely: regular files only, never more than the limit, BOM or not."""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

__all__ = ["TextFileError", "read_small_text"]


class TextFileError(Exception):
    """The file cannot be read as a small UTF-8 text; the message says why, without the path."""


_KINDS = {
    stat.S_IFDIR: "a folder",
    stat.S_IFIFO: "a named pipe",
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFSOCK: "a socket",
}


def read_small_text(path: Path, limit: int, what: str = "a lesson") -> str:
    """The UTF-8 text of the regular file at ``path``, at most ``limit`` bytes, a leading
    byte-order mark dropped (Windows editors write one).

    Opened without blocking, so a FIFO with no writer is refused at once instead of waiting for
    one; at most ``limit + 1`` bytes are read, so ``/dev/zero`` or a file growing as it is read
    cannot fill the memory. Raise :class:`TextFileError` naming the cause.
    """
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    except FileNotFoundError:
        raise TextFileError("no such file") from None
    except OSError as error:
        if error.errno == errno.ENXIO:  # what opening a socket gives
            raise TextFileError("not a regular file (a socket); give a .toml file") from None
        raise TextFileError(f"cannot read ({error.strerror})") from None
    try:
        kind = stat.S_IFMT(os.fstat(descriptor).st_mode)
        if kind != stat.S_IFREG:
            what = _KINDS.get(kind, "not a regular file")
            raise TextFileError(f"not a regular file ({what}); give a .toml file")
        os.set_blocking(descriptor, True)
        data = _read_at_most(descriptor, limit + 1)
    except OSError as error:
        raise TextFileError(f"cannot read ({error.strerror})") from None
    finally:
        os.close(descriptor)
    if len(data) > limit:
        raise TextFileError(f"file is more than the {limit} bytes {what} may be")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise TextFileError("not UTF-8 text") from None
    return text.removeprefix("\ufeff")


def _read_at_most(descriptor: int, count: int) -> bytes:
    chunks: list[bytes] = []
    left = count
    while left > 0:
        chunk = os.read(descriptor, min(left, 1 << 16))
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)
