"""Render the lesson into upload-ready video (not built yet: see the render.py issue)."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    print("render.py: rendering is not built yet; the set-up is done.", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
