// @ts-check
// The twin follows the whole lesson's player: the chapter playing picks the step shown.
/* global Twin, twinPanel -- twin.js's, and twin_mount.js's */
(() => {
  const video = /** @type {HTMLVideoElement} */ (document.getElementById("whole"));
  const chapters = [...document.querySelectorAll("ol.chapters [data-seek]")];
  const places = JSON.parse(twinPanel.dataset.chapters);
  let shown = 0;
  video.addEventListener("timeupdate", () => {
    // read each time: the described version's toggle moves the chapters to its video's times
    let chapter = 0;
    chapters.forEach((button, i) => {
      if (video.currentTime + 1e-3 >= Number(button.dataset.seek)) chapter = i;
    });
    const place = places[chapter] ?? chapter;
    if (place !== shown) { shown = place; Twin.showStep(twinPanel, place); }
  });
})();
