// @ts-check
// index.html: the chapters seek the whole lesson's player; each snippet's button copies it.
const whole = /** @type {HTMLVideoElement} */ (document.getElementById("whole"));
for (const button of document.querySelectorAll("ol.chapters [data-seek]")) {
  button.addEventListener("click", () => {
    whole.currentTime = Number(button.dataset.seek);
    whole.play();
  });
}
for (const button of document.querySelectorAll("button.copy")) {
  button.addEventListener("click", async () => {
    const code = button.previousElementSibling.textContent;
    try {
      await navigator.clipboard.writeText(code);
    } catch {
      const range = document.createRange();  // file:// pages may not use the clipboard API
      range.selectNodeContents(button.previousElementSibling);
      getSelection().removeAllRanges();
      getSelection().addRange(range);
      document.execCommand("copy");
    }
    button.textContent = button.dataset.done;
  });
}
