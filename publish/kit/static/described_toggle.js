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
