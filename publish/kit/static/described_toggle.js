// @ts-check
// The "Described version" toggle (publish/kit/described_toggle.py): swaps its player between
// the plain and the described video at the same moment of the lesson, through the time map
// its data carries; bound once per toggle however many players include this script.

/** @typedef {[plain: number, described: number]} Corner */
/** @typedef {{ plain: string, described: string, map: Corner[], same: number, captions?: string }} Swap */

for (const button of document.querySelectorAll("button.described-toggle:not([data-bound])")) {
  button.dataset.bound = "";
  /** @type {Swap} */
  const swap = JSON.parse(button.dataset.swap);
  const video = /** @type {KitVideo} */ (document.getElementById(button.dataset.video));
  // A moment of one video in the other (0: the plain one, 1: the described one), through the
  // time map's corners: from the last corner reached, both run at one pace, unless the next
  // corner is reached without moving in the other video (a hold: its frame's moment, still).
  /**
   * @param {number} t
   * @param {0 | 1} from
   * @param {0 | 1} to
   * @returns {number}
   */
  const along = (t, from, to) => {
    const corners = swap.map;
    let i = -1;
    while (i + 1 < corners.length && t >= corners[i + 1][from] - swap.same) i++;
    if (i < 0) return t;
    const corner = corners[i];
    const next = corners[i + 1];
    return next && next[to] === corner[to] ? corner[to] : corner[to] + t - corner[from];
  };
  const later = (/** @type {number} */ t) => along(t, 0, 1);
  const earlier = (/** @type {number} */ t) => along(t, 1, 0);
  const seeks = () => document.querySelectorAll(
    `section.transcript[data-video="${video.id}"] [data-seek], ` +
    `ol.chapters[data-video="${video.id}"] [data-seek]`);
  const track = /** @type {HTMLTrackElement | null} */ (video.querySelector('track[kind="captions"]'));
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
    /** @type {HTMLSourceElement} */ (video.querySelector("source")).src = on ? swap.described : swap.plain;
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
