// @ts-check
// The viewing, tracked: xAPI statements after the xAPI Video Profile, and SCORM 1.2 when the
// page runs inside an LMS. Inlined by publish/kit/quiz_player.py into
// (function (settings) { ... })(data), once per player; quiz_player.js follows it and calls
// tracker.answered().
//
// What this relies on from the xAPI Video Profile (https://w3id.org/xapi/video, v1.0.x):
// - every statement: a UUID id, an ISO 8601 timestamp, the video as an Activity of type
//   https://w3id.org/xapi/video/activity-type/video, the profile's id in
//   context.contextActivities.category, and the extension session-id in context.extensions;
// - initialized: first, once a session; context extensions length and completion-threshold;
// - played: result extension time;
// - paused: result extensions time, progress, played-segments; context extension length;
// - seeked: result extensions time-from and time-to;
// - completed: result.completion true, result.duration, result extensions time, progress,
//   played-segments; context extensions length, completion-threshold.
// Times are seconds to 3 places; played-segments is "from[.]to" joined by "[,]"; progress is
// the share of the length played (segments merged), 0 to 1. Completion here is reaching the
// end (completion-threshold 1: the position, not every second in between; progress says how
// much was really played). The quiz adds "answered" (ADL's verb): a cmi.interaction of type
// choice, with result.response (the letter picked) and result.success.
// Sent one by one, in order, by POST to ?xapi=URL (its /statements resource), with the
// headers X-Experience-API-Version: 1.0.3 and, given ?auth=, Authorization: that value (as an
// LMS launch passes it, "Basic ..."); ?actor= (JSON) names the learner, as in an xAPI launch.
// Without ?xapi= (or when a POST fails) they are appended to localStorage["attention-by-hand.xapi"].

/* global settings -- the function tracking.js runs in is given them (templates/quiz.html) */

const video = /** @type {KitVideo} */ (document.getElementById(settings.video));
const query = new URLSearchParams(location.search);
const PROFILE = "https://w3id.org/xapi/video";
const VERBS = {
  initialized: "http://adlnet.gov/expapi/verbs/initialized",
  played: `${PROFILE}/verbs/played`,
  paused: `${PROFILE}/verbs/paused`,
  seeked: `${PROFILE}/verbs/seeked`,
  completed: "http://adlnet.gov/expapi/verbs/completed",
  answered: "http://adlnet.gov/expapi/verbs/answered",
};
const STORE = "attention-by-hand.xapi";
const seconds = (/** @type {number} */ t) => Math.round(t * 1000) / 1000;
const extension = (/** @type {string} */ name) => `${PROFILE}/extensions/${name}`;

function uuid() {
  if (crypto.randomUUID) return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const hex = [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const session = uuid();
const activity = query.get("activity") || `${location.href.split(/[?#]/)[0]}#${settings.video}`;
/** @type {object | null} */
let actor = null;
try {
  actor = JSON.parse(query.get("actor"));
} catch {}
actor = actor || {
  objectType: "Agent",
  account: { homePage: "urn:attention-by-hand:anonymous", name: session },
};
const language = settings.language || document.documentElement.lang || "en";
const videoObject = {
  objectType: "Activity",
  id: activity,
  definition: {
    type: `${PROFILE}/activity-type/video`,
    name: { [language]: settings.title },
  },
};

const length = () => seconds(Number.isFinite(video.duration) ? video.duration : settings.length);
/** @type {[number, number][]} */
const segments = [];
/** @type {number | null} */
let from = null;
let last = 0;
const startedAt = Date.now();

/** @param {number} t */
function closeSegment(t) {
  if (from !== null && t > from) segments.push([from, t]);
  from = null;
}

function playedSegments() {
  return segments.map(([a, b]) => `${seconds(a)}[.]${seconds(b)}`).join("[,]");
}

function progress() {
  const sorted = segments.map((s) => [...s]).sort((x, y) => x[0] - y[0]);
  let played = 0;
  let reach = 0;
  for (const [a, b] of sorted) {
    const start = Math.max(a, reach);
    if (b > start) played += b - start;
    reach = Math.max(reach, b);
  }
  return seconds(Math.min(1, played / length()));
}

/** @param {object} statement */
function keep(statement) {
  try {
    const kept = JSON.parse(localStorage.getItem(STORE) || "[]");
    kept.push(statement);
    localStorage.setItem(STORE, JSON.stringify(kept));
  } catch {}  // no storage (a sandboxed frame): the statement is lost, the page goes on
}

const endpoint = query.get("xapi");
let sending = Promise.resolve();

/** @param {object} statement */
function send(statement) {
  if (!endpoint) return keep(statement);
  const url = /\/statements\/?$/.test(endpoint) ? endpoint : endpoint.replace(/\/?$/, "/statements");
  /** @type {Record<string, string>} */
  const headers = {
    "Content-Type": "application/json",
    "X-Experience-API-Version": "1.0.3",
  };
  const auth = query.get("auth");
  if (auth) headers.Authorization = auth;
  sending = sending  // one after another, so the store receives them in order
    .then(() => fetch(url, { method: "POST", headers, body: JSON.stringify(statement), keepalive: true }))
    .then((response) => {
      if (!response.ok) keep(statement);
    })
    .catch(() => keep(statement));
}

/**
 * @typedef {object} Emitted
 * @property {object} [result]
 * @property {Record<string, unknown>} [extensions]
 * @property {object} [object]
 * @property {boolean} [parent]
 */
/**
 * @param {keyof typeof VERBS} verb
 * @param {Emitted} [emitted]
 */
function emit(verb, { result, extensions, object, parent } = {}) {
  /** @type {{ language: string, contextActivities: Record<string, object[]>, extensions: object }} */
  const context = {
    language,
    contextActivities: { category: [{ id: PROFILE, definition: { type: "http://adlnet.gov/expapi/activities/profile" } }] },
    extensions: { [extension("session-id")]: session, ...extensions },
  };
  if (parent) context.contextActivities.parent = [{ id: activity, objectType: "Activity" }];
  /** @type {Record<string, unknown>} */
  const statement = {
    id: uuid(),
    actor,
    verb: { id: VERBS[verb], display: { "en-US": verb } },
    object: object || videoObject,
    context,
    timestamp: new Date().toISOString(),
  };
  if (result) statement.result = result;
  send(statement);
}

/** @param {Record<string, unknown>} values */
function ext(values) {
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [extension(k), v]));
}

let initialized = false;
function initialize() {
  if (initialized) return;
  initialized = true;
  emit("initialized", { extensions: ext({ length: length(), "completion-threshold": 1 }) });
}
if (video.readyState >= 1) initialize();
else video.addEventListener("loadedmetadata", initialize);

// Where the video is, as often as the screen draws while it plays: a seek's "from".
function follow() {
  if (!video.seeking) last = video.currentTime;
  if (!video.paused) requestAnimationFrame(follow);
}

video.addEventListener("play", () => {
  initialize();
  from = video.currentTime;
  last = from;
  emit("played", { result: { extensions: ext({ time: seconds(from) }) } });
  requestAnimationFrame(follow);
});
video.addEventListener("pause", () => {
  const t = video.currentTime;
  closeSegment(t);
  last = t;
  emit("paused", {
    result: {
      extensions: ext({ time: seconds(t), progress: progress(), "played-segments": playedSegments() }),
    },
    extensions: ext({ length: length() }),
  });
});
/** @type {number | null} */
let seekFrom = null;
/** @type {number | null} */
let seekTo = null;
video.addEventListener("seeking", () => {
  if (seekFrom === null) seekFrom = last;  // a drag fires several: one seek, from where it began
  seekTo = video.currentTime;  // to where the last of them went: a playing video moves on before "seeked"
  if (!video.paused) closeSegment(last);
});
video.addEventListener("seeked", () => {
  const to = seekTo ?? video.currentTime;
  seekTo = null;
  emit("seeked", { result: { extensions: ext({ "time-from": seconds(seekFrom ?? last), "time-to": seconds(to) }) } });
  seekFrom = null;
  last = to;
  if (!video.paused) from = to;
});
video.addEventListener("ended", () => {
  closeSegment(video.currentTime);
  const spent = (Date.now() - startedAt) / 1000;
  emit("completed", {
    result: {
      completion: true,
      duration: `PT${spent.toFixed(2)}S`,
      extensions: ext({
        time: seconds(video.currentTime),
        progress: progress(),
        "played-segments": playedSegments(),
      }),
    },
    extensions: ext({ length: length(), "completion-threshold": 1 }),
  });
  watched = true;
  report();
});

// --- SCORM 1.2: the LMS's API, found by the standard search up the frames and the opener ---

/**
 * @param {Window} start
 * @returns {ScormApi | null}
 */
function findAPI(start) {
  let win = start;
  for (let hops = 0; win && hops <= 7; hops++) {
    try {
      if (win.API) return win.API;
      if (win.parent === win) return null;
      win = win.parent;
    } catch {
      return null;  // a frame of another origin: no API above it we may call
    }
  }
  return null;
}

/** @type {ScormApi | null} */
let scorm = null;
if (!window.attentionScormClaimed) {  // one SCO per page: the first player reports
  const api = findAPI(window) || (window.opener ? findAPI(window.opener) : null);
  if (api && String(api.LMSInitialize("")) === "true") {
    scorm = api;
    window.attentionScormClaimed = true;
    const status = String(scorm.LMSGetValue("cmi.core.lesson_status"));
    if (status === "" || status === "not attempted") {
      scorm.LMSSetValue("cmi.core.lesson_status", "incomplete");
    }
    scorm.LMSCommit("");
  }
}
let watched = false;
/** @type {{ success: boolean } | null} */
let answer = null;  // { success } once the quiz is answered

function sessionTime() {  // CMITimespan: HHHH:MM:SS.SS
  const hundredths = Math.round((Date.now() - startedAt) / 10);
  const h = Math.floor(hundredths / 360000);
  const m = Math.floor((hundredths % 360000) / 6000);
  const s = (hundredths % 6000) / 100;
  const pad = (/** @type {number} */ n, /** @type {number} */ w) => String(n).padStart(w, "0");
  return `${pad(h, 4)}:${pad(m, 2)}:${pad(Math.floor(s), 2)}.${pad(Math.round((s % 1) * 100), 2)}`;
}

function report() {
  if (!scorm) return;
  if (answer !== null) {
    scorm.LMSSetValue("cmi.core.score.min", "0");
    scorm.LMSSetValue("cmi.core.score.max", "100");
    scorm.LMSSetValue("cmi.core.score.raw", answer.success ? "100" : "0");
  }
  if (watched && (answer !== null || !tracker.quizAsked)) {
    const status = answer === null ? "completed" : answer.success ? "passed" : "failed";
    scorm.LMSSetValue("cmi.core.lesson_status", status);
  }
  scorm.LMSSetValue("cmi.core.session_time", sessionTime());
  scorm.LMSCommit("");
}

let finished = false;
function finish() {
  if (!scorm || finished) return;
  finished = true;
  report();
  scorm.LMSFinish("");
}
window.addEventListener("pagehide", finish);
window.addEventListener("beforeunload", finish);

/** @type {Tracker} */
const tracker = {
  quizAsked: false,
  /** The quiz's answer: xAPI "answered", and the SCORM score and status. */
  answered(quiz, picked) {
    const success = picked === quiz.correct;
    const letters = quiz.options.map((o) => o.letter);
    emit("answered", {
      object: {
        objectType: "Activity",
        id: `${activity}/quiz`,
        definition: {
          type: "http://adlnet.gov/expapi/activities/cmi.interaction",
          name: { [language]: quiz.legend },
          description: { [language]: quiz.question },
          interactionType: "choice",
          correctResponsesPattern: [letters[quiz.correct]],
          choices: quiz.options.map((o) => ({ id: o.letter, description: { [language]: o.text } })),
        },
      },
      parent: true,
      result: { response: letters[picked], success },
    });
    answer = { success };
    report();
  },
};
