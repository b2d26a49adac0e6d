"""slides.html: the lesson as an offline slide deck that plays one beat at a time and pauses.

One ``<video>`` per step (the clips beside the page); the beats come from the captions, which
are also the speaker notes. Keys: → / space / click next, ← back, N notes, F full screen.
"""

from __future__ import annotations

import html
import json
from collections.abc import Sequence

from attention_core import Lesson
from publish.kit.webpage import page
from publish.media.clip_beats import Step

__all__ = ["deck_data", "deck_html"]


def deck_data(steps: Sequence[Step]) -> list[dict[str, object]]:
    """What the deck's script plays: per step its clip and beats (seconds, caption)."""
    return [
        {
            "file": step.clip.file,
            "title": step.clip.title,
            "step": step.clip.step,
            "beats": [[beat.start, beat.end, beat.caption] for beat in step.beats],
        }
        for step in steps
    ]


def deck_html(lesson: Lesson, steps: Sequence[Step], mime: str) -> str:
    """The deck page, in the lesson's words; it finds its clips beside it."""
    words = lesson.words
    videos = "\n".join(
        f'<video class=step preload="auto" playsinline poster="{_attr(step.clip.poster.file)}"'
        f' hidden><source src="{_attr(step.clip.file)}" type="{mime}"></video>'
        for step in steps
    )
    script_words = {name: words[f"deck.word.{name}"] for name in ("step", "beat", "end")}
    data = json.dumps({"steps": deck_data(steps), "words": script_words}, ensure_ascii=False)
    body = f"""<main id=stage>
{videos}
<div id=cover><h1>{_text(lesson.title)}</h1><p>{_text(words["deck.line.start"])}</p>
<p class=keys>{_text(words["deck.line.keys"])}</p></div>
</main>
<footer><span id=where></span><span id=progress><span></span></span></footer>
<aside id=notes hidden><h2>{_text(words["deck.word.notes"])}</h2>
<p><b>{_text(words["deck.word.now"])}:</b> <span id=now></span></p>
<p class=next><b>{_text(words["deck.word.next"])}:</b> <span id=upcoming></span></p></aside>
<script type="application/json" id=deck-data>{_script_safe(data)}</script>"""
    return page(lesson.title, words["common.word.language"], _STYLE, body, _SCRIPT)


def _script_safe(text: str) -> str:
    """JSON inside <script>: a caption must not be able to close the element."""
    return text.replace("</", "<\\/")


def _text(value: str) -> str:
    return html.escape(value, quote=False)


def _attr(value: str) -> str:
    return html.escape(value, quote=True)


_STYLE = """
[hidden] { display: none !important; }
html, body { margin: 0; height: 100%; background: #000; color: #eee;
  font: 18px/1.4 Inter, "DejaVu Sans", system-ui, sans-serif; overflow: hidden; }
#stage { position: fixed; inset: 0 0 2.2rem 0; cursor: pointer; }
#stage video { width: 100%; height: 100%; object-fit: contain; display: block; }
#cover { position: absolute; inset: 0; display: flex; flex-direction: column; align-items: center;
  justify-content: center; background: rgba(0, 0, 0, .55); text-align: center; }
#cover h1 { font-size: 3rem; margin: 0 0 1rem; }
#cover .keys { color: #aab; font-size: .9rem; }
footer { position: fixed; left: 0; right: 0; bottom: 0; height: 2.2rem; display: flex;
  align-items: center; gap: 1rem; padding: 0 1rem; background: #111;
  font-size: .85rem; color: #aab; }
#progress { flex: 1; height: 4px; background: #333; border-radius: 2px; }
#progress span { display: block; height: 100%; width: 0; background: #f5c542; border-radius: 2px; }
#notes { position: fixed; right: 1rem; bottom: 3rem; width: min(34rem, 45vw); background: #1b1d29ee;
  border: 1px solid #445; border-radius: 8px; padding: .8rem 1.1rem; font-size: 1rem; }
#notes h2 { font-size: .8rem; letter-spacing: .06em; text-transform: uppercase; color: #aab;
  margin: 0; }
#notes .next { color: #aab; }
"""

_SCRIPT = """
const { steps, words } = JSON.parse(document.getElementById("deck-data").textContent);
const videos = [...document.querySelectorAll("video.step")];
const slides = steps.flatMap((step, s) => step.beats.map((beat, b) => ({ s, b, beat })));
let at = -1;       // the slide shown; -1 is the cover
let stopAt = null; // while a beat plays: the time it pauses at

function show(k, playing) {
  at = k;
  const slide = slides[k];
  videos.forEach((video, s) => { video.hidden = s !== slide.s; });
  document.getElementById("cover").hidden = true;
  const step = steps[slide.s];
  document.getElementById("where").textContent = `${words.step} ${step.step}/${steps.length} · `
    + `${step.title} · ${words.beat} ${slide.b + 1}/${step.beats.length}`;
  document.querySelector("#progress span").style.width = `${100 * (k + 1) / slides.length}%`;
  document.getElementById("now").textContent = slide.beat[2];
  document.getElementById("upcoming").textContent =
    k + 1 < slides.length ? slides[k + 1].beat[2] : words.end;
  document.body.dataset.slide = k;
  document.body.dataset.state = playing ? "playing" : "paused";
}

function finish() {
  const video = videos[slides[at].s];
  stopAt = null;
  video.pause();
  video.currentTime = Math.min(slides[at].beat[1], video.duration || Infinity);
  document.body.dataset.state = "paused";
}

function watch() {
  if (stopAt === null) return;
  const video = videos[slides[at].s];
  if (video.currentTime >= stopAt || video.ended) finish();
  else requestAnimationFrame(watch);
}

function play(k) {
  show(k, true);
  const video = videos[slides[k].s];
  const [start, end] = slides[k].beat;
  if (Math.abs(video.currentTime - start) > 0.05) video.currentTime = start;
  stopAt = end;
  video.play().then(() => requestAnimationFrame(watch), finish);
}

function rest(k) {  // a slide as it looks once its beat has played
  stopAt = null;
  videos.forEach((video) => video.pause());
  show(k, false);
  finish();
}

function next() {
  if (stopAt !== null) finish();  // mid-beat: jump to its end
  else if (at + 1 < slides.length) play(at + 1);
}

function back() {
  if (at > 0) rest(at - 1);
}

document.addEventListener("keydown", (event) => {
  const keys = {
    ArrowRight: next, " ": next, PageDown: next, Enter: next,
    ArrowLeft: back, PageUp: back, Backspace: back,
    Home: () => rest(0),
    n: () => { const notes = document.getElementById("notes"); notes.hidden = !notes.hidden; },
    m: () => {  // the narrator's voice, on or off: a lecturer may speak over the clips
      const muted = !videos[0].muted;
      videos.forEach((video) => { video.muted = muted; });
      document.body.dataset.muted = muted;
    },
    f: () => document.fullscreenElement ? document.exitFullscreen()
      : document.documentElement.requestFullscreen(),
  };
  const action = keys[event.key] || keys[event.key.toLowerCase()];
  if (action) { event.preventDefault(); action(); }
});
document.getElementById("stage").addEventListener("click", next);
document.body.dataset.slide = -1;
document.body.dataset.state = "cover";
videos[0].hidden = false;
"""
