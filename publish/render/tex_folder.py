"""manim's folders for a media folder, with TeX's under a path TeX can read whatever ``--out`` is.

TeX splits file names at spaces and reads quotes, backslashes, ``%``, ``#``, ``~`` and non-ASCII
letters as markup, so under ``--out "/tmp/it's"`` every formula failed ("latex failed but did not
produce a log file"). Such a TeX folder is reached through a symlink with a plain name in a
private folder of the user's; the cache itself stays in the media folder, where it always was.
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
import tempfile
from pathlib import Path

__all__ = ["manim_folders", "tex_safe"]

_PLAIN = re.compile(r"[A-Za-z0-9._/+-]+")
"""Characters TeX takes literally in a file name."""


def manim_folders(media_dir: Path) -> dict[str, str]:
    """manim's ``media_dir``, and its ``tex_dir`` (``{media_dir}/Tex``) at a path TeX can read."""
    return {"media_dir": str(media_dir), "tex_dir": tex_safe(media_dir / "Tex")}


def tex_safe(folder: Path) -> str:
    """``folder`` (created), or a plain-named symlink to it when its path would trip TeX."""
    folder = folder.absolute()
    if _PLAIN.fullmatch(str(folder)):
        return str(folder)
    folder.mkdir(parents=True, exist_ok=True)
    links = Path(tempfile.gettempdir()) / f"attention-by-hand-tex-{os.getuid()}"
    links.mkdir(mode=0o700, exist_ok=True)
    held = links.lstat()
    if not stat.S_ISDIR(held.st_mode) or held.st_uid != os.getuid():
        raise PermissionError(f"{links} is not a folder of this user's; remove it")
    link = links / hashlib.sha256(os.fsencode(folder)).hexdigest()[:24]
    if not (link.is_symlink() and Path(os.readlink(link)) == folder):
        staged = link.with_name(f"{link.name}.{os.getpid()}")
        staged.unlink(missing_ok=True)
        staged.symlink_to(folder)
        staged.replace(link)  # atomic: a concurrent worker sees the old link or the new one
    return str(link)
