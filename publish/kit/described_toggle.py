"""The player's "Described version" toggle: where the lesson's audio-described video exists, a
button swaps the player's source to it at the same moment of the lesson, and back.

The two videos differ only by the holds (:mod:`publish.described.holds`), exported into the page as
JSON; the script maps the moment through them both ways, and moves the captions track, the
transcript's lines and the chapters' seeks to the video playing.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path

from attention_core import Words
from publish.described.holds import SAME, described_name, holds_of
from publish.kit.webpage import html_attribute, html_text

__all__ = ["SCRIPT", "STYLE", "described_toggle"]


def described_toggle(full: str, folder: Path, words: Words, video: str, prefix: str = "") -> str:
    """The toggle for the player ``video`` of the whole video ``full`` (as the page links to it,
    ``prefix`` before), with its script; nothing where no described video is beside it."""
    target = folder / described_name(full)
    sidecar, captions = target.with_suffix(".json"), target.with_suffix(".vtt")
    if not (target.is_file() and sidecar.is_file()):
        return ""
    swap = {
        "plain": prefix + full,
        "described": prefix + target.name,
        "holds": [[hold.at, hold.length] for hold in holds_of(sidecar)],
        "same": SAME,
    }
    if captions.is_file():
        data = base64.b64encode(captions.read_bytes()).decode("ascii")
        swap["captions"] = f"data:text/vtt;base64,{data}"
    return (
        f'<button type="button" class=described-toggle aria-pressed="false" '
        f'data-video="{html_attribute(video)}" data-swap="{html_attribute(json.dumps(swap))}">'
        f"{html_text(words['page.word.described_version'])}</button><script>{SCRIPT}</script>"
    )


STYLE = """
button.described-toggle { font: inherit; margin: .5rem 0; padding: .25rem .7rem; border-radius: 5px;
  border: 1px solid #99a; background: #f3f4f8; cursor: pointer; }
button.described-toggle[aria-pressed="true"] { background: #1f2a5c; color: #fff; }
"""

SCRIPT = """
for (const button of document.querySelectorAll("button.described-toggle:not([data-bound])")) {
  button.dataset.bound = "";
  const swap = JSON.parse(button.dataset.swap);
  const video = document.getElementById(button.dataset.video);
  const later = (t) => t + swap.holds.reduce((s, [at, n]) => s + (at <= t + swap.same ? n : 0), 0);
  const earlier = (t) => {
    let shift = 0;
    for (const [at, n] of swap.holds) {
      if (t < at + shift - swap.same) break;
      if (t < at + shift + n - swap.same) return at;
      shift += n;
    }
    return t - shift;
  };
  const seeks = () => document.querySelectorAll(
    `section.transcript[data-video="${video.id}"] [data-seek], ` +
    `ol.chapters[data-video="${video.id}"] [data-seek]`);
  const track = video.querySelector('track[kind="captions"]');
  const plainCaptions = track?.getAttribute("src");
  button.addEventListener("click", () => {
    const on = button.getAttribute("aria-pressed") !== "true";
    const at = on ? later(video.currentTime) : earlier(video.currentTime);
    const playing = !video.paused;
    for (const element of seeks()) {  // the transcript's lines and the chapters, moved
      for (const key of ["seek", "end"]) {
        if (!(key in element.dataset)) continue;
        const plain = (element.dataset[`plain_${key}`] ??= element.dataset[key]);
        element.dataset[key] = String(on ? later(Number(plain)) : Number(plain));
      }
    }
    if (track && swap.captions) track.src = on ? swap.captions : plainCaptions;
    video.querySelector("source").src = on ? swap.described : swap.plain;
    video.load();
    video.addEventListener("loadedmetadata", () => {
      video.currentTime = at;
      if (playing) video.play().catch(() => {});
    }, { once: true });
    button.setAttribute("aria-pressed", String(on));
    // what follows the lesson's own moments (the quiz) reads them through this
    video.lessonTime = on ? () => earlier(video.currentTime) : undefined;
  });
}
"""
"""Binds every toggle on the page once, however many players (a course page) include it."""
