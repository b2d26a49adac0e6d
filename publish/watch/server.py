"""The preview's local web server: the page, its state as JSON and the clips (with ranges)."""

from __future__ import annotations

import json
import re
from contextlib import suppress
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from publish.watch.page import PAGE
from publish.watch.state import State

__all__ = ["serve"]

TYPES = {".mp4": "video/mp4", ".webm": "video/webm", ".mov": "video/quicktime", ".vtt": "text/vtt"}
RANGE = re.compile(r"bytes=(\d*)-(\d*)$")


def serve(state: State, folder: Path, port: int) -> ThreadingHTTPServer:
    """A server on 127.0.0.1:``port`` (0: any free port) for ``state``'s clips in ``folder``;
    raises OSError when the port is taken. Start it with ``serve_forever`` in a thread."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            url = urlsplit(self.path)
            if url.path == "/":
                self._send(PAGE.encode("utf-8"), "text/html; charset=utf-8")
            elif url.path == "/state.json":
                watching = parse_qs(url.query).get("watching")
                if watching:  # the clip the page shows: rendered first on the next save
                    state.watching = watching[0]
                self._send(json.dumps(state.to_json()).encode("utf-8"), "application/json")
            elif url.path == "/favicon.ico":
                self.send_response(HTTPStatus.NO_CONTENT)
                self.end_headers()
            elif url.path.startswith("/media/"):
                self._file(url.path.removeprefix("/media/"))
            else:
                self.send_error(HTTPStatus.NOT_FOUND)

        def _send(self, body: bytes, kind: str) -> None:
            self.send_response(HTTPStatus.OK)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            with suppress(BrokenPipeError, ConnectionResetError):  # the page went away
                self.wfile.write(body)

        def _file(self, name: str) -> None:
            if name not in state.files():  # only the clips of the state: no path tricks
                self.send_error(HTTPStatus.NOT_FOUND)
                return
            try:
                data = (folder / name).read_bytes()
            except OSError:
                self.send_error(HTTPStatus.NOT_FOUND)
                return
            kind = TYPES.get(Path(name).suffix, "application/octet-stream")
            found = RANGE.match(self.headers.get("Range", ""))
            if not found:  # files are named by content: cached for good
                self.send_response(HTTPStatus.OK)
                body = data
            else:
                first = int(found[1]) if found[1] else max(0, len(data) - int(found[2] or 0))
                last = int(found[2]) if found[1] and found[2] else len(data) - 1
                last = min(last, len(data) - 1)
                body = data[first : last + 1]
                self.send_response(HTTPStatus.PARTIAL_CONTENT)
                self.send_header("Content-Range", f"bytes {first}-{last}/{len(data)}")
            self.send_header("Content-Type", kind)
            self.send_header("Accept-Ranges", "bytes")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            with suppress(BrokenPipeError, ConnectionResetError):  # the page moved on mid-video
                self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:
            pass  # the terminal is for what was rendered

    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    server.daemon_threads = True
    return server
