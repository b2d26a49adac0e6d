// @ts-check
// Each interactive transcript (publish/kit/transcript.py) seeks its own player and marks the
// beat being said.
for (const section of document.querySelectorAll("section.transcript[data-video]")) {
  const video = /** @type {HTMLVideoElement | null} */ (document.getElementById(section.dataset.video));
  if (!video) continue;
  const lines = [...section.querySelectorAll("button.line")];
  const box = section.querySelector(".lines");
  for (const line of lines) {
    line.addEventListener("click", () => {  // a button: Enter and Space click it too
      video.currentTime = Number(line.dataset.seek);
      video.play().catch(() => {});  // a page may not play on its own: the seek still holds
    });
  }
  /** @type {HTMLElement | null} */
  let current = null;
  video.addEventListener("timeupdate", () => {
    const t = video.currentTime;
    const now = lines.find((b) => Number(b.dataset.seek) <= t && t < Number(b.dataset.end));
    if (now === current) return;
    current?.removeAttribute("aria-current");
    current = now ?? null;
    if (!current) return;
    current.setAttribute("aria-current", "true");
    const top = current.offsetTop - box.offsetTop;
    if (top < box.scrollTop || top > box.scrollTop + box.clientHeight - current.offsetHeight) {
      box.scrollTop = top - box.clientHeight / 3;  // keep the beat in view, not the page moved
    }
  });
}
