// @ts-check
// slides.html: plays the lesson one beat at a time and pauses (publish/kit/deck.py writes
// the page and its data: per step its clip and beats, and the words the footer says).

/** @typedef {[start: number, end: number, caption: string]} Beat */
/** @typedef {{ file: string, title: string, step: number, beats: Beat[] }} DeckStep */
/** @typedef {{ s: number, b: number, beat: Beat }} Slide */

/** @type {{ steps: DeckStep[], words: { step: string, beat: string, end: string } }} */
const { steps, words } = JSON.parse(document.getElementById("deck-data").textContent);
const videos = /** @type {HTMLVideoElement[]} */ ([...document.querySelectorAll("video.step")]);
const slides = steps.flatMap((step, s) => step.beats.map((beat, b) => ({ s, b, beat })));
let at = -1;       // the slide shown; -1 is the cover
/** @type {number | null} */
let stopAt = null; // while a beat plays: the time it pauses at

/**
 * @param {number} k the slide
 * @param {boolean} playing
 */
function show(k, playing) {
  at = k;
  const slide = slides[k];
  videos.forEach((video, s) => { video.hidden = s !== slide.s; });
  document.getElementById("cover").hidden = true;
  const step = steps[slide.s];
  document.getElementById("where").textContent = `${words.step} ${step.step}/${steps.length} · `
    + `${step.title} · ${words.beat} ${slide.b + 1}/${step.beats.length}`;
  /** @type {HTMLElement} */ (document.querySelector("#progress span")).style.width = `${100 * (k + 1) / slides.length}%`;
  document.getElementById("now").textContent = slide.beat[2];
  document.getElementById("upcoming").textContent =
    k + 1 < slides.length ? slides[k + 1].beat[2] : words.end;
  document.body.dataset.slide = String(k);
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

/** @param {number} k */
function play(k) {
  show(k, true);
  const video = videos[slides[k].s];
  const [start, end] = slides[k].beat;
  if (Math.abs(video.currentTime - start) > 0.05) video.currentTime = start;
  stopAt = end;
  video.play().then(() => requestAnimationFrame(watch), finish);
}

/** @param {number} k */
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
  /** @type {Record<string, () => unknown>} */
  const keys = {
    ArrowRight: next, " ": next, PageDown: next, Enter: next,
    ArrowLeft: back, PageUp: back, Backspace: back,
    Home: () => rest(0),
    n: () => { const notes = document.getElementById("notes"); notes.hidden = !notes.hidden; },
    m: () => {  // the narrator's voice, on or off: a lecturer may speak over the clips
      const muted = !videos[0].muted;
      videos.forEach((video) => { video.muted = muted; });
      document.body.dataset.muted = String(muted);
    },
    f: () => document.fullscreenElement ? document.exitFullscreen()
      : document.documentElement.requestFullscreen(),
  };
  const action = keys[event.key] || keys[event.key.toLowerCase()];
  if (action) { event.preventDefault(); action(); }
});
document.getElementById("stage").addEventListener("click", next);
document.body.dataset.slide = "-1";
document.body.dataset.state = "cover";
videos[0].hidden = false;
