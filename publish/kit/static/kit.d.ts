// What the kit's scripts hand one another on a page, for tsc (tsconfig.json): each .js file is
// checked on its own (moduleDetection "force"), while the page runs them as classic scripts,
// one after another: tracking.js then quiz_player.js inside one function of `settings`
// (publish/kit/templates/quiz.html), twin.js then twin_mount.js then twin_follow.js.

/** A player of the page; the described version's toggle gives it the lesson's own moment. */
interface KitVideo extends HTMLVideoElement {
  lessonTime?: () => number;
}

/** One option of the quiz, as publish/kit/quiz_player.py writes it. */
interface QuizOption {
  letter: string;
  text: string;
  why: string;
}

/** quiz_player.py's settings: the player and, where the lesson asks one, the quiz. */
interface QuizSettings {
  video: string;
  title: string;
  length: number;
  language?: string;
  at?: number;
  legend?: string;
  check?: string;
  continue?: string;
  right?: string;
  wrong?: string;
  question?: string;
  options?: QuizOption[];
  correct?: number;
  answer?: string;
}

/** The SCORM 1.2 runtime an LMS puts on a window above the page. */
interface ScormApi {
  LMSInitialize(empty: string): string | boolean;
  LMSFinish(empty: string): string | boolean;
  LMSGetValue(name: string): string;
  LMSSetValue(name: string, value: string): string | boolean;
  LMSCommit(empty: string): string | boolean;
}

interface Window {
  API?: ScormApi;
  attentionScormClaimed?: boolean;
}

/** tracking.js's report of the quiz, which quiz_player.js calls. */
interface Tracker {
  quizAsked: boolean;
  answered(quiz: QuizSettings, picked: number): void;
}

/** A number of twin.js's sources: a number, or numbers nested by place (arrays) or key. */
type Nested = number | Nested[] | { [key: string]: Nested };

/** twin.js: the lesson's maths in the browser. */
interface TwinApi {
  mount(panel: HTMLElement, data: unknown): void;
  showStep(panel: HTMLElement, place: number): void;
}

declare const settings: QuizSettings;
declare const tracker: Tracker;
declare const video: KitVideo;
declare const query: URLSearchParams;
declare const Twin: TwinApi;
declare const twinPanel: HTMLElement;

// Every element the kit's scripts select by a CSS selector is an HTML element of its pages.
interface ParentNode {
  querySelector(selectors: string): HTMLElement | null;
  querySelectorAll(selectors: string): NodeListOf<HTMLElement>;
}
