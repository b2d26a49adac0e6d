"""The one door to the standard library's internals: on its own Python it stops the fork
server and finds a pool's workers; on another it says what to do and steps aside.

(That no code outside the door names them: ``tests/test_manim_internals.py``, for both doors.)
"""

from __future__ import annotations

import os
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path

from publish.render import stdlib_internals as door

ROOT = Path(__file__).parent.parent

STOPPED = """
import os
from multiprocessing import forkserver
from publish.render import stdlib_internals as door
forkserver.ensure_running()
server = forkserver._forkserver._forkserver_pid
door.stop_forkserver()
try:
    os.waitpid(server, os.WNOHANG)
    print("running" if forkserver._forkserver._forkserver_pid else "not waited for")
except ChildProcessError:
    print("stopped and waited for")
"""
"""A fork server started, then stopped through the door: reaped already, or left running."""


def _in_a_process(code: str, before: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", before + code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_on_its_own_python_the_fork_server_is_stopped_and_waited_for() -> None:
    assert door.SAME
    assert door.version_advice(door.WRITTEN_FOR) is None
    done = _in_a_process(STOPPED)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[0] == "stopped and waited for"


def test_a_pools_processes_are_its_workers() -> None:
    with ProcessPoolExecutor(1, mp_context=get_context("spawn")) as executor:
        worker = executor.submit(os.getpid).result(timeout=120)
        assert [process.pid for process in door.pool_processes(executor)] == [worker]


def test_on_another_python_the_door_says_what_to_do_and_steps_aside() -> None:
    done = _in_a_process(STOPPED, "import sys; sys.version_info = (3, 12, 0, 'final', 0)\n")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[0] == "running"  # left to end as this process does
    warned = [line for line in done.stderr.splitlines() if "PythonVersionWarning" in line]
    assert len(warned) == 1
    assert "Python 3.12 is running" in warned[0]
    assert "run `bash scripts/setup.sh` to make .venv/ with Python 3.11" in warned[0]
