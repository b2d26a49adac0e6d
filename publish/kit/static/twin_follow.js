(() => {
  const video = document.getElementById("whole");
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
