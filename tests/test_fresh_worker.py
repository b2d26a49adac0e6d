"""From a clone of this commit set up by scripts/setup.sh in a fresh Debian 12 root, a Dask
worker renders for this machine's client the clip a local render makes, byte for byte.

scripts/fresh_worker.sh makes the root (debootstrap minbase plus python3, git and
ca-certificates), sets it up and starts the worker in a chroot, which shares this machine's
network, so it joins a scheduler on 127.0.0.1. Marked ``slow`` (making and setting up the root
takes 4 to 10 minutes, and root): deselected by default, run by ``bash run.sh test -m slow``;
``FRESH_ROOT=/var/tmp/worker-root`` reuses a root set up before.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
from distributed import Client, LocalCluster

from .conftest import LOW, ROOT, cli
from .test_cluster import clip_entries, files_of

pytestmark = [pytest.mark.slow, pytest.mark.render, pytest.mark.cluster]

SCENE, CLIP, SLUG = "2", "02_big_picture", "big_picture"
"""The step rendered, its clip's name, and its work folder's (``publish.render.remote``: a
worker keeps one per client output folder and scene in its scratch directory)."""
READY_SECONDS = 45 * 60
"""How long the root may take to be made and set up before its worker joins (4 to 10 min)."""
STOP_SECONDS = 600
"""How long the script may take to stop its worker, unmount and delete the root (its 3 GB of
small files took 3 minutes on this machine while others' tests ran)."""
MIRROR_UNREACHABLE = 3
"""scripts/fresh_root.sh's exit status when debootstrap cannot reach the Debian mirror."""


def test_a_worker_in_a_fresh_debian_root_renders_the_local_clip(tmp_path: Path) -> None:
    if os.geteuid() != 0:
        pytest.skip("needs root for debootstrap and chroot: sudo bash run.sh test -m slow")
    _require_committed()
    log = tmp_path / "fresh_worker.log"
    with (
        LocalCluster(
            n_workers=0, host="127.0.0.1", scheduler_port=0, dashboard_address="127.0.0.1:0"
        ) as scheduler,
        Client(scheduler, set_as_default=False) as client,
        log.open("w") as written,
    ):
        address = scheduler.scheduler_address
        command = ["bash", str(ROOT / "scripts" / "fresh_worker.sh"), address]
        script = subprocess.Popen(
            [*command, "--host", "127.0.0.1", "--dashboard-address", "127.0.0.1:0"],
            stdout=written,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )
        try:
            local = cli(tmp_path / "local", "--scene", SCENE)  # while the root is being made
            assert local.returncode == 0, local.stdout + local.stderr
            there = _joined(client, script, log)
            root = Path(_said(log, "root "))
            pid = client.run(os.getpid, workers=[there])[there]
            assert Path(os.readlink(f"/proc/{pid}/root")) == root, "the worker is not in the root"
            scratch = client.run(lambda dask_worker: dask_worker.local_directory, workers=[there])
            client.get_task_stream()  # the scheduler records the tasks from now on

            result = cli(tmp_path / "remote", "--scheduler", address, "--scene", SCENE)
            output = result.stdout + result.stderr
            refused = [line for line in output.splitlines() if " refused: " in line]
            assert not refused, refused[0]
            assert result.returncode == 0, output
            # rendered there: by the root's worker, in its scratch folder inside the root (the
            # clip itself is deleted there once shipped; the scene's TeX and beats stay)
            stream = [task for task in client.get_task_stream() if _is_clip(task)]
            assert stream, "no clip was rendered on the cluster"
            assert {task["worker"] for task in stream} == {there}
            work = root / scratch[there].lstrip("/") / "attention-by-hand"
            assert list(work.glob(f"*/{SLUG}/*")), f"no {SLUG} work folder in {work}"
        finally:
            _stop(script)
            _left_nothing(log)
        remote, here = tmp_path / "remote" / LOW.name, tmp_path / "local" / LOW.name
        assert (remote / f"{CLIP}.mp4").is_file()
        assert files_of(remote, [CLIP]) == files_of(here, [CLIP])
        assert clip_entries(remote, [CLIP]) == clip_entries(here, [CLIP])


def _require_committed() -> None:
    """The worker's root clones the commit; the client's source digest covers the working tree."""
    changed = subprocess.run(
        ["git", "-C", str(ROOT), "status", "--porcelain"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    if changed:
        pytest.fail(
            f"uncommitted changes ({changed[0].strip()}, {len(changed)} in all): the fresh "
            "root clones this checkout's commit, so its worker would be refused; commit first",
            pytrace=False,
        )


def _joined(client: Client, script: subprocess.Popen[bytes], log: Path) -> str:
    """The address of the root's worker once it has joined; skip if the mirror is unreachable."""
    deadline = time.monotonic() + READY_SECONDS
    while not (workers := client.scheduler_info()["workers"]):
        if script.poll() is not None:
            said = log.read_text("utf-8", errors="replace")
            if script.returncode == MIRROR_UNREACHABLE:
                pytest.skip(next(line for line in said.splitlines() if "cannot" in line))
            pytest.fail(f"fresh_worker.sh exited with {script.returncode}:\n{said[-3000:]}")
        assert time.monotonic() < deadline, f"no worker after {READY_SECONDS} s: see {log}"
        time.sleep(2)
    (address,) = workers
    return str(address)


def _said(log: Path, prefix: str) -> str:
    """The rest of the script's first line that starts ``fresh_worker: {prefix}``."""
    for line in log.read_text("utf-8", errors="replace").splitlines():
        if line.startswith(f"fresh_worker: {prefix}"):
            return line.removeprefix(f"fresh_worker: {prefix}")
    raise AssertionError(f"fresh_worker.sh never said {prefix!r}: see {log}")


def _is_clip(task: dict[str, Any]) -> bool:
    return str(task["key"]).startswith("render_clip-") and task.get("status") == "OK"


def _stop(script: subprocess.Popen[bytes]) -> None:
    """Stop the script as Ctrl-C would: it stops the worker, unmounts and removes the root."""
    if script.poll() is None:
        script.send_signal(signal.SIGTERM)
    script.wait(timeout=STOP_SECONDS)


def _left_nothing(log: Path) -> None:
    """No mount under the root, no process in it, and the root gone unless it was to be kept."""
    if "fresh_worker: root " not in log.read_text("utf-8", errors="replace"):
        return  # it stopped before making one
    root = Path(_said(log, "root "))
    mounts = Path("/proc/self/mounts").read_text("utf-8").splitlines()
    assert not [line for line in mounts if f" {root}/" in line], f"mounts left under {root}"
    inside = []
    for proc in Path("/proc").iterdir():
        try:
            if proc.name.isdigit() and Path(os.readlink(proc / "root")) == root:
                inside.append(proc.name)
        except OSError:
            continue  # gone already
    assert not inside, f"processes left in {root}: {inside}"
    if not os.environ.get("FRESH_ROOT") and os.environ.get("KEEP_ROOT") != "1":
        assert not root.exists(), f"{root} left behind"
