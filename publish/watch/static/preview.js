// @ts-check
// The preview page (publish/watch/page.py): polls /state.json, lists the beats, plays the
// clips one after another and jumps to the first beat a save changed.
"use strict";

/** @typedef {{ id: string, caption: string, start: number, end: number }} PreviewBeat */
/**
 * @typedef {object} PreviewClip
 * @property {string} name
 * @property {string} title
 * @property {string} video
 * @property {string | null} captions
 * @property {PreviewBeat[]} beats
 * @property {number} generation
 * @property {string[]} fresh
 * @property {boolean} complete
 */
/**
 * @typedef {object} PreviewState
 * @property {number} version
 * @property {boolean} done
 * @property {string | null} error
 * @property {{ clip: string, generation: number, start: number } | null} changed
 * @property {string} last
 * @property {PreviewClip[]} clips
 */

const video = /** @type {HTMLVideoElement} */ (document.getElementById("video"));
const list = /** @type {HTMLElement} */ (document.getElementById("beats"));
/** @type {PreviewState | null} */
let state = null;
/** @type {PreviewClip | null} */
let clip = null;
let version = -1, jumped = 0, waiting = false;

/**
 * @param {string} name the clip
 * @param {number} at seconds into it
 * @param {boolean} play
 */
function load(name, at, play) {
  const c = state.clips.find(x => x.name === name);
  if (!c) return;
  const same = clip && clip.video === c.video;
  clip = c; waiting = false;
  if (!same) {
    video.querySelectorAll("track").forEach(t => t.remove());
    video.src = c.video;
    if (c.captions) {
      const track = document.createElement("track");
      Object.assign(track, {kind: "captions", src: c.captions, default: true, label: "captions"});
      video.appendChild(track);
    }
  }
  const seek = () => { video.currentTime = at; if (play) video.play().catch(() => {}); };
  if (video.readyState >= 1 && same) seek();
  else video.addEventListener("loadedmetadata", seek, {once: true});
  mark();
}

function draw() {
  list.innerHTML = "";
  for (const c of state.clips) {
    const h = document.createElement("h2");
    h.textContent = c.name + " · " + c.title;
    list.appendChild(h);
    const ul = document.createElement("ul");
    for (const b of c.beats) {
      const li = document.createElement("li");
      li.textContent = b.caption;
      li.dataset.clip = c.name; li.dataset.start = String(b.start); li.dataset.end = String(b.end); li.id = b.id;
      if (c.generation > 1 && c.fresh.includes(b.id)) li.classList.add("fresh");
      li.onclick = () => load(c.name, b.start + 0.01, true);
      ul.appendChild(li);
    }
    if (!c.complete) {  // its first beats only, so far
      const li = document.createElement("li");
      li.className = "pending"; li.textContent = "… the rest of this step is rendering";
      ul.appendChild(li);
    }
    list.appendChild(ul);
  }
  mark();
}

function mark() {
  const t = video.currentTime;
  for (const li of list.querySelectorAll("li")) {
    const here = clip && li.dataset.clip === clip.name;
    const now = here && t >= +li.dataset.start && t < +li.dataset.end;
    if (now && !li.classList.contains("now")) li.scrollIntoView({block: "nearest"});
    li.classList.toggle("now", now);
  }
}

video.addEventListener("timeupdate", mark);
video.addEventListener("ended", () => {
  if (!clip.complete) { waiting = true; return; }  // it carries on once the rest is in
  const i = state.clips.findIndex(c => c.name === clip.name);
  if (i + 1 < state.clips.length) load(state.clips[i + 1].name, 0, true);
});

async function poll() {
  try {
    const at = clip ? "?watching=" + encodeURIComponent(clip.name) : "";
    /** @type {PreviewState} */
    const s = await (await fetch("/state.json" + at, {cache: "no-store"})).json();
    if (s.version !== version) {
      version = s.version; state = s;
      const e = document.getElementById("error");
      e.style.display = s.error ? "block" : "none";
      e.textContent = s.error || "";
      document.getElementById("status").textContent = s.last + (s.done ? "" : " (rendering…)");
      draw();
      const ch = s.changed;
      const ready = ch && s.clips.some(c => c.name === ch.clip && c.generation === ch.generation);
      if (ready && ch.generation > jumped) {
        jumped = ch.generation;
        load(ch.clip, ch.start + 0.01, !video.paused || !clip);
      } else if (!clip && s.clips.length) {
        load(s.clips[0].name, 0, false);
      } else if (clip) {
        const c = s.clips.find(x => x.name === clip.name);
        if (c && c.video !== clip.video) load(c.name, video.currentTime, !video.paused || waiting);
      }
    }
  } catch { document.getElementById("status").textContent = "preview stopped"; }
  setTimeout(poll, 250);
}
poll();
