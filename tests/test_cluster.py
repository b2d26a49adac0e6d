"""render.py --scheduler: clips rendered on a real Dask cluster are the local clips, byte for
byte; a worker killed mid-clip costs a retry, not the run; a worker from another checkout is
refused by name; a scheduler that is not there is one line."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from distributed import Client, LocalCluster

from publish.media.files import sha256
from publish.render.cluster import differences, identity

from .conftest import LOW, ROOT, SERIES, CourseRun, Rendered, cli

SCENES = {"2": "02_big_picture", "3": "03_score"}
COURSE_SCENE = "2"
"""The step the course test renders of each lesson: one clip per worker."""
"""Short steps, and neither shows the lesson's minutes (which would dry-run all the others)."""
KILLED = "3"


@pytest.fixture(scope="module")
def cluster() -> Iterator[LocalCluster]:
    with LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        scheduler_port=0,
        dashboard_address=":0",
    ) as started:
        yield started


def files_of(folder: Path, names: list[str]) -> dict[str, str]:
    """SHA-256 of each named clip's video, poster and captions."""
    return {
        f"{name}{suffix}": sha256(folder / f"{name}{suffix}")
        for name in names
        for suffix in (".mp4", ".png", ".srt", ".vtt")
    }


def clip_entries(folder: Path, names: list[str]) -> list[dict[str, Any]]:
    manifest = json.loads((folder / "manifest.json").read_text("utf-8"))
    return [clip for clip in manifest["clips"] if Path(clip["file"]).stem in names]


@pytest.mark.render
@pytest.mark.cluster
def test_a_course_rendered_on_a_cluster_is_the_local_course(
    cluster: LocalCluster, series: CourseRun, tmp_path: Path
) -> None:
    """Two lessons of the series, their clips all rendered on the cluster (nothing cached),
    against the same clips of the series rendered by the local pool."""
    out = tmp_path / "media"
    lessons = {"default": "default", "day005_masked": str(SERIES.parent / "day005_masked.toml")}
    chosen = [arg for file in lessons.values() for arg in ("--lesson", file)]
    result = cli(out, "--scheduler", cluster.scheduler_address, *chosen, "--scene", COURSE_SCENE)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "cached" not in result.stdout
    for lesson in lessons:
        ours, local = out / LOW.name / lesson, series.folder / lesson
        [clip] = json.loads((ours / "manifest.json").read_text("utf-8"))["clips"]
        names = [Path(clip["file"]).stem]
        assert names[0].startswith(f"0{COURSE_SCENE}_"), names
        assert files_of(ours, names) == files_of(local, names)
        assert clip_entries(ours, names) == clip_entries(local, names)
    # and the beat store: the clips' segments and records came back, the same bytes per key
    ours, local = beat_store(out / LOW.name), beat_store(series.folder)
    segments = [name for name in ours if not name.startswith("records/")]
    assert len(segments) >= 2 * 3, ours  # each lesson's step 2 has beats
    assert {name: ours[name] for name in segments} == {name: local.get(name) for name in segments}
    records = [name for name in ours if name.startswith("records/")]
    assert len(records) == len(lessons)
    # the series copied the default lesson's clips from the lone render's cache, so only
    # Day 005's record is the series' own there
    [shared] = [name for name in records if name in local]
    assert ours[shared] == local[shared]


def beat_store(folder: Path) -> dict[str, str]:
    """SHA-256 of each file of the quality folder's beat store, by its path there."""
    store = folder / ".beats"
    return {p.relative_to(store).as_posix(): sha256(p) for p in store.rglob("*") if p.is_file()}


@pytest.mark.render
@pytest.mark.cluster
def test_a_worker_killed_mid_clip_costs_a_retry_not_the_run(
    cluster: LocalCluster, rendered: Rendered, tmp_path: Path
) -> None:
    out = tmp_path / "media"
    command = [sys.executable, str(ROOT / "render.py"), "--quality", "low", "--voice", "none"]
    command += ["--out", str(out), "--scheduler", cluster.scheduler_address, "--scene", KILLED]
    with Client(cluster, set_as_default=False) as client:
        run = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        try:
            victim = _rendering_worker(client)
            time.sleep(2)  # well into the clip: it takes seconds
            pid = client.run(os.getpid, workers=[victim])[victim]
            assert client.processing()[victim], "the clip finished before the kill"
            os.kill(pid, signal.SIGKILL)
            output, _ = run.communicate(timeout=300)
        finally:
            run.kill()
    assert run.returncode == 0, output.decode()
    names = [SCENES[KILLED]]
    assert files_of(out / LOW.name, names) == files_of(rendered.folder, names)


def _rendering_worker(client: Client) -> str:
    """The address of the worker that has started rendering a clip."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        for address, keys in client.processing().items():
            if any(str(key).startswith("render_clip-") for key in keys):
                return str(address)
        time.sleep(0.1)
    raise AssertionError("no worker started rendering within a minute")


@pytest.mark.render
@pytest.mark.cluster
def test_a_worker_from_another_checkout_is_refused_by_name(tmp_path: Path) -> None:
    checkout = tmp_path / "other"
    for package in ("attention_core", "scenes", "publish"):
        shutil.copytree(ROOT / package, checkout / package, ignore=shutil.ignore_patterns("*.pyc"))
    with (checkout / "scenes" / "style.py").open("a", encoding="utf-8") as style:
        style.write("# one line edited in this checkout\n")
    with LocalCluster(n_workers=0, scheduler_port=0, dashboard_address=":0") as scheduler:
        dask = Path(sys.executable).with_name("dask")
        stale = subprocess.Popen(
            [str(dask), "worker", scheduler.scheduler_address, "--nthreads", "1", "--no-nanny"],
            cwd=checkout,
            env={**os.environ, "PYTHONPATH": str(checkout)},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            with Client(scheduler, set_as_default=False) as client:
                client.wait_for_workers(1, timeout=60)
                (address,) = client.scheduler_info()["workers"]
            result = cli(
                tmp_path / "media", "--scheduler", scheduler.scheduler_address, "--scene", "3"
            )
        finally:
            stale.terminate()
            stale.wait(timeout=30)
    assert result.returncode == 2, result.stdout + result.stderr
    said = result.stdout + result.stderr
    refusal = f"worker {address} refused: project source {identity()['project source'][:8]}… "
    assert refusal in said
    assert "run `bash scripts/setup.sh` in a checkout of commit" in said
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "media" / LOW.name / f"{SCENES['3']}.mp4").exists()


@pytest.mark.render
@pytest.mark.cluster
def test_a_scheduler_that_is_not_there_is_one_line(tmp_path: Path) -> None:
    with socket.socket() as unused:
        unused.bind(("127.0.0.1", 0))
        address = f"tcp://127.0.0.1:{unused.getsockname()[1]}"
    result = cli(tmp_path / "media", "--scheduler", address, "--scene", "3")
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1, result.stderr
    assert f"--scheduler {address}: cannot reach a Dask scheduler there" in result.stderr


def test_differences_name_what_differs_with_both_values() -> None:
    ours = identity()
    tools = ours["tools"]
    inter = tools["fonts"]["Inter-Regular.otf"]["sha256"]
    article = "$TEXMFDIST/tex/latex/base/article.cls"
    theirs = {
        "project source": "f" * 64,
        "tools": {
            **tools,
            "manim": "0.19.0",
            "cairo": "1.18.0",
            "fonts": {
                **{k: v for k, v in tools["fonts"].items() if k != "NotoSansThai-Regular.ttf"},
                "Inter-Regular.otf": {"size": 1, "sha256": "9f8e7d6c" + "0" * 56},
                "DejaVuSans-ExtraLight.ttf": {"size": 1, "sha256": "0" * 64},
            },
            "tex_files": {k: v for k, v in tools["tex_files"].items() if k != article},
            "pyav_libraries": [*tools["pyav_libraries"], "libextra-0a1b2c3d.so.1"],
        },
    }
    assert article in tools["tex_files"]
    assert differences(ours, ours) == []
    assert differences(ours, theirs) == [
        f"project source {ours['project source'][:8]}… here, ffffffff… there",
        "manim 0.22.0 here, 0.19.0 there",
        f"cairo {tools['cairo']} here, 1.18.0 there",
        f"font Inter-Regular.otf sha256 {inter[:8]}… here, 9f8e7d6c… there",
        "font NotoSansThai-Regular.ttf here only",
        f"TeX file {article} here only",
        "PyAV library libextra-0a1b2c3d.so.1 there only",
        "font DejaVuSans-ExtraLight.ttf there only",
    ]
