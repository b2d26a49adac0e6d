// @ts-check
// The twin's panel, mounted on the lesson's data (publish/kit/twin.py), after twin.js.
/* global Twin -- twin.js's */
const twinPanel = document.querySelector("[data-twin]");
Twin.mount(twinPanel, JSON.parse(document.getElementById("twin-data").textContent));
