// @ts-check
// The quick check inside the video: inlined by publish/kit/quiz_player.py after tracking.js,
// in the same function, whose `settings` holds every text and number (made by Python from the
// worked lesson and the words). When the video, playing, reaches `settings.at`, it pauses and
// the form asks; the answer is checked against `settings.correct` (the option the video shows
// as right), every option's explanation follows, and "continue" plays on. A viewer who skipped
// past the moment is asked when the video ends (an LMS counts the lesson done only once it is
// answered). ?quiz=off: never asks.

/* global settings, tracker, video, query -- tracking.js's, in the same function */

const form = document.getElementById(`${settings.video}-quiz`);
const asking = Boolean(form && settings.options) && query.get("quiz") !== "off";
tracker.quizAsked = asking;

/**
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {string} [text]
 * @param {string} [className]
 * @returns {HTMLElementTagNameMap[K]}
 */
function element(tag, text, className) {
  const made = document.createElement(tag);
  if (text !== undefined) made.textContent = text;
  if (className) made.className = className;
  return made;
}

if (asking) {
  const LEAD = 0.1;  // seconds: pause a frame or so before the answer step's first frame
  const legend = form.querySelector("legend");
  legend.append(element("strong", settings.legend), " ", settings.question);
  const box = form.querySelector(".options");
  const radios = settings.options.map((option, i) => {
    const label = element("label");
    const radio = element("input");
    Object.assign(radio, { type: "radio", name: `${settings.video}-answer`, value: String(i), required: true });
    label.append(radio, " ", element("b", option.letter), ` ${option.text}`);
    box.append(label);
    return radio;
  });
  const check = /** @type {HTMLButtonElement} */ (form.querySelector("button.check"));
  check.textContent = settings.check;
  const result = form.querySelector(".result");
  const onward = form.querySelector("button.continue");
  onward.textContent = settings.continue;

  let asked = false;
  // The lesson's own moment: the described version's toggle maps its video's time back to it.
  const moment = () => (video.lessonTime ? video.lessonTime() : video.currentTime);
  let before = moment();

  function ask() {
    asked = true;
    video.pause();
    form.hidden = false;
    form.dataset.state = "asking";
    radios[0].focus();
  }

  // Asked when playing carries the video across the moment, not when a seek jumps past it.
  function crossed() {
    const now = moment();
    if (!asked && !video.paused && !video.seeking && before < settings.at && now >= settings.at - LEAD) ask();
    before = now;
  }
  function watch() {
    crossed();
    if (!video.paused) requestAnimationFrame(watch);
  }
  video.addEventListener("play", () => {
    before = moment();
    requestAnimationFrame(watch);
  });
  video.addEventListener("timeupdate", crossed);  // where frames are not drawn (a hidden tab)
  video.addEventListener("seeked", () => {
    before = moment();
  });
  video.addEventListener("ended", () => {
    if (!asked) ask();
  });

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const chosen = radios.findIndex((radio) => radio.checked);
    if (chosen < 0 || form.dataset.state !== "asking") return;
    const right = chosen === settings.correct;
    for (const radio of radios) radio.disabled = true;
    check.disabled = true;
    form.dataset.state = "answered";
    form.dataset.answer = settings.options[chosen].letter;
    form.dataset.success = String(right);
    const list = element("ul", undefined, "explanations");
    settings.options.forEach((option, i) => {
      if (!option.why) return;
      const item = element("li", option.why, i === chosen ? "picked" : "");
      item.dataset.letter = option.letter;
      list.append(item);
    });
    result.replaceChildren(
      element("p", right ? settings.right : settings.wrong, "verdict"),
      element("p", settings.answer, "answer"),
      list,
    );
    onward.hidden = false;
    onward.focus();
    tracker.answered(settings, chosen);
  });

  onward.addEventListener("click", () => {
    form.hidden = true;
    form.dataset.state = "done";
    video.focus();
    if (!video.ended) video.play();  // play() would start an ended video over
  });
}
