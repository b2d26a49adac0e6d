// @ts-check
// The lesson's twin: attention_core's maths and formatting, in the browser.
//
// Written from attention_core (maths.py, matrix.py, heads.py, sums.py, worked*.py) so that
// every number it shows is, character for character, the one the video shows for the same
// inputs: products rounded as numpy rounds them, every sum exact and rounded once (math.fsum),
// and each number formatted by the rules attention_core.formatting exports as data (RULES),
// never by a copy of them. tests/test_twin.py proves it on random lessons in Chromium.
"use strict";

/* exported Twin -- twin_mount.js and twin_follow.js use it, after it on the page */

/** @typedef {number[]} Vector */
/** @typedef {number[][]} Matrix */
/**
 * One entry of attention_core.formatting.RULES.
 * @typedef {{ places: number, scale: number, significant: number, trim: boolean, bare: boolean,
 *   brackets: boolean, suffix: string, masked: string | null, zero: string | null }} Rule
 */
/** @typedef {{ key: Vector, value: Vector, query: Vector | null, embedding: Vector | null }} Token */
/** @typedef {{ w_q: Matrix, w_k: Matrix, w_v: Matrix }} Head */
/**
 * The lesson's inputs, as twin.py's data() writes them.
 * @typedef {object} Inputs
 * @property {string[]} steps
 * @property {boolean} written_query
 * @property {Vector} query
 * @property {Token[]} tokens
 * @property {{ key: Vector, value: Vector } | null} rival
 * @property {{ filler_score: number, bonus_filler_score: number }
 *   | { asker: number, to: number, head: number | null } | null} quiz
 * @property {string | null} mask
 * @property {Head[]} heads
 * @property {Matrix | null} w_o
 */
/** @typedef {{ about: string, invalid: string }} TwinWords */
/**
 * One number a kind's twin spec names (attention_core.twin_spec.Number): its source, its
 * rule, and the axes it runs over.
 * @typedef {{ quantity: string, source: string, rule: string, over: string[], label: string[],
 *   roughly: boolean }} SpecNumber
 */
/**
 * @typedef {{ lesson: Inputs, kinds: Record<string, SpecNumber[]>, rules: Record<string, Rule>,
 *   words: TwinWords, shade: { faintest: number, fullest: number } }} TwinData
 */
/** A number as the page shows it: its text, and the number itself, which the drawing is sized by.
 * @typedef {{ text: string, x: number }} Shown
 */
/** @typedef {{ token?: number | string, head?: number | string, row?: number | string, col?: number | string }} Place */

const Twin = (() => {
  // --- exact arithmetic: what Python's fsum, round() and f"{x:.2f}" do ---------------------

  const view = new DataView(new ArrayBuffer(8));

  /**
   * A finite double as sign × mantissa × 2^exponent, the mantissa a BigInt.
   * @param {number} x
   */
  function parts(x) {
    view.setFloat64(0, x);
    const high = view.getUint32(0);
    const low = view.getUint32(4);
    const biased = (high >>> 20) & 0x7ff;
    let mantissa = (BigInt(high & 0xfffff) << 32n) | BigInt(low);
    if (biased !== 0) mantissa |= 1n << 52n;
    const exponent = (biased === 0 ? 1 : biased) - 1075;
    return { negative: high >>> 31 === 1, mantissa, exponent };
  }

  /**
   * The exact sum of finite doubles, rounded once, half to even: Python's math.fsum.
   * @param {number[]} terms
   * @returns {number}
   */
  function exactSum(terms) {
    const split = terms.filter((x) => x !== 0).map(parts);
    if (!split.length) return 0;
    const lowest = Math.min(...split.map((p) => p.exponent));
    let sum = 0n;
    for (const p of split) {
      const scaled = p.mantissa << BigInt(p.exponent - lowest);
      sum += p.negative ? -scaled : scaled;
    }
    const negative = sum < 0n;
    let size = negative ? -sum : sum;
    let exponent = lowest;
    const bits = size.toString(2).length;
    if (bits > 53) {
      const shift = BigInt(bits - 53);
      const kept = size >> shift;
      const rest = size - (kept << shift);
      const half = 1n << (shift - 1n);
      size = rest > half || (rest === half && (kept & 1n) === 1n) ? kept + 1n : kept;
      exponent += bits - 53;
    }
    const value = Number(size) * 2 ** exponent;
    return negative ? -value : value;
  }

  /**
   * x to `places` decimals on its exact binary value, ties to even (Python's f"{x:.Nf}").
   * @param {number} x
   * @param {number} places
   * @returns {string}
   */
  function exactFixed(x, places) {
    const doubled = x * 2 ** (places + 1); // exact: a power of two
    if (Number.isInteger(doubled) && Math.abs(doubled) % 2 === 1) {
      // An exact tie: toFixed would round it up, Python rounds it to the even neighbour.
      const twice = BigInt(Math.abs(doubled)) * 5n ** BigInt(places); // 2·|x|·10^places, odd
      let whole = (twice - 1n) / 2n;
      if (whole % 2n === 1n) whole += 1n;
      const digits = whole.toString().padStart(places + 1, "0");
      const body = places ? `${digits.slice(0, -places)}.${digits.slice(-places)}` : digits;
      return (x < 0 ? "-" : "") + body;
    }
    return x.toFixed(places); // exact on the binary value otherwise (ECMA-262 Number.prototype.toFixed)
  }

  /**
   * Python's round(x, digits): the correctly rounded decimal, ties to even.
   * @param {number} x
   * @param {number} digits
   */
  function roundTo(x, digits) {
    if (digits >= 0) return Number(exactFixed(x, digits));
    const unit = 10n ** BigInt(-digits);
    const magnitude = Math.abs(x);
    const whole = BigInt(Math.trunc(magnitude));
    const fraction = magnitude - Math.trunc(magnitude);
    const rest = whole % unit;
    const base = whole - rest;
    const half = unit / 2n;
    const odd = (base / unit) % 2n === 1n;
    const up = rest > half || (rest === half && (fraction > 0 || odd));
    const rounded = Number(up ? base + unit : base);
    return x < 0 ? -rounded : rounded;
  }

  /**
   * Fixed-point text with no "-0.00", as attention_core.formatting._fixed.
   * @param {number} x
   * @param {number} places
   */
  function fixed(x, places) {
    const text = exactFixed(x, places);
    return text.startsWith("-") && Number(text) === 0 ? text.slice(1) : text;
  }

  /**
   * x as `rule` (one entry of attention_core.formatting.RULES) writes it.
   * @param {Rule} rule
   * @param {number} x
   * @returns {string}
   */
  function format(rule, x) {
    if (rule.masked !== null && x === -Infinity) return rule.masked;
    if (rule.zero !== null && x === 0) return rule.zero;
    if (rule.significant && x !== 0) {
      // formatting.magnitude: the leading digit's power of ten as the shortest digits write it
      const magnitude = Number(Math.abs(x).toExponential().split("e")[1]);
      x = roundTo(x, rule.significant - 1 - magnitude);
    }
    let text = fixed(rule.scale !== 1 ? x * rule.scale : x, rule.places);
    if (rule.trim && text.includes(".")) text = text.replace(/0+$/, "").replace(/\.$/, "");
    if (rule.bare && text.startsWith("0")) text = text.slice(1);
    if (rule.brackets && text.startsWith("-")) text = `(${text})`;
    return text + rule.suffix;
  }

  // --- the maths, as attention_core works it -----------------------------------------------

  /**
   * numpy's rint: to the nearest whole number, ties to even.
   * @param {number} y
   */
  function rint(y) {
    const r = Math.round(y);
    return Math.abs(y % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
  }

  /**
   * matrix.project: x·W, rounded to two places as numpy's round does (x·100, rint, ÷100).
   * @param {Vector} x
   * @param {Matrix} w
   * @returns {Vector}
   */
  function project(x, w) {
    return times([x], w)[0].map((entry) => rint(entry * 100) / 100 + 0);
  }

  /**
   * sums.times: each entry the exact sum of its rounded products.
   * @param {Matrix} a
   * @param {Matrix} b
   * @returns {Matrix}
   */
  function times(a, b) {
    return a.map((row) => b[0].map((_, c) => exactSum(row.map((x, k) => x * b[k][c]))));
  }

  // --- e^x: attention_core/exponential.py's steps, in its order: the same bits -----------

  const LN2_HI = 6.93147180369123816490e-01;
  const LN2_LO = 1.90821492927058770002e-10;
  const INV_LN2 = 1.44269504088896338700e00;
  const P = [
    1.66666666666666019037e-01, -2.77777777770155933842e-03, 6.61375632143793436117e-05,
    -1.65339022054652515390e-06, 4.13813679705723846039e-08,
  ];
  const OVERFLOW = 7.09782712893383973096e02;
  const UNDERFLOW = -7.45133219101941108420e02;

  /**
   * 2^k exactly, for an integer k from -1022 to 1023, written as its bits.
   * @param {number} k
   */
  function power(k) {
    view.setUint32(0, (k + 1023) << 20);
    view.setUint32(4, 0);
    return view.getFloat64(0);
  }

  /**
   * exponential.exp: e^x by fdlibm's algorithm in IEEE operations only (never Math.exp, whose
   * last bit is the browser's), 0 for −∞.
   * @param {number} x
   */
  function exp(x) {
    if (Number.isNaN(x)) return x;
    if (x > OVERFLOW) return Infinity;
    if (x < UNDERFLOW) return 0;
    const k = Math.trunc(INV_LN2 * x + (x >= 0 ? 0.5 : -0.5));
    const hi = x - k * LN2_HI;
    const lo = k * LN2_LO;
    const r = hi - lo;
    const t = r * r;
    const c = r - t * (P[0] + t * (P[1] + t * (P[2] + t * (P[3] + t * P[4]))));
    const y = 1.0 - ((lo - (r * c) / (2.0 - c)) - hi);
    if (k > 1023) return y * power(1023) * 2;
    if (k >= -1021) return y * power(k);
    return y * power(k + 1000) * power(-1000);
  }

  /**
   * maths.softmax: shares adding up to 1, the top score subtracted first (−∞ gets 0).
   * @param {Vector} scores
   * @returns {Vector}
   */
  function softmax(scores) {
    const top = Math.max(...scores);
    const shifted = scores.map((s) => exp(s - top));
    const total = exactSum(shifted);
    return shifted.map((p) => p / total);
  }

  /**
   * maths.attend: one query over keys and values.
   * @param {Vector} query
   * @param {Vector[]} keys
   * @param {Vector[]} values
   */
  function attend(query, keys, values) {
    const root = Math.sqrt(query.length);
    const products = keys.map((k) => k.map((x, i) => x * query[i]));
    const dots = products.map(exactSum);
    const scores = dots.map((d) => d / root);
    const pulls = scores.map(exp);
    const weights = softmax(scores);
    return {
      root,
      products,
      dots,
      scores,
      pulls,
      total: exactSum(pulls),
      weights,
      scaled: values.map((v, i) => v.map((x) => weights[i] * x)),
      output: times([weights], values)[0],
    };
  }

  /**
   * matrix.attend_all: every query over every key, the causal mask applied if asked.
   * @param {Vector[]} queries
   * @param {Vector[]} keys
   * @param {Vector[]} values
   * @param {string | null} mask
   */
  function attendAll(queries, keys, values, mask) {
    const root = Math.sqrt(queries[0].length);
    const hidden = queries.map((_, i) => keys.map((_, j) => mask === "causal" && j > i));
    const dots = queries.map((q) => keys.map((k) => exactSum(q.map((x, d) => x * k[d]))));
    const scores = dots.map((row, i) => row.map((d, j) => (hidden[i][j] ? -Infinity : d / root)));
    const pulls = scores.map((row) => row.map(exp));
    const weights = scores.map(softmax);
    return {
      root,
      dots,
      scores,
      pulls,
      totals: pulls.map(exactSum),
      weights,
      outputs: times(weights, values),
    };
  }

  /** The lesson as attention_core.lesson builds it from the inputs: in a heads lesson each
   * token's query, key and value projected through the first head; the one query written,
   * or else the newest token's own.
   * @param {Inputs} inputs
   * @returns {Inputs}
   */
  function derived(inputs) {
    const first = inputs.heads[0];
    const tokens = inputs.tokens.map((t) =>
      first
        ? {
            ...t,
            query: project(t.embedding, first.w_q),
            key: project(t.embedding, first.w_k),
            value: project(t.embedding, first.w_v),
          }
        : t,
    );
    const query = inputs.written_query ? inputs.query : tokens[tokens.length - 1].query;
    return { ...inputs, tokens, query };
  }

  // --- the sources a kind's twin spec names, and the numbers each step shows by key --------

  /**
   * @param {string} quantity
   * @param {Place} [at]
   */
  function key(quantity, at = {}) {
    return [quantity, at.token ?? "", at.head ?? "", at.row ?? "", at.col ?? ""].join("|");
  }

  /**
   * A value computed when first asked for, then kept.
   * @template T
   * @param {() => T} make
   * @returns {() => T}
   */
  function lazy(make) {
    /** @type {T} */
    let made;
    let done = false;
    return () => {
      if (!done) [made, done] = [make(), true];
      return made;
    };
  }

  /** Every source of attention_core.twin_spec.SOURCES, by name, each computed when first read:
   * the numbers twin_numbers.py reads from attention_core.worked, or null where the lesson has
   * none (no rival, no heads). A nested array by place, or an object by key ("rival", a head).
   * @param {Inputs} lesson
   * @returns {Record<string, () => Nested | null>}
   */
  function sources(lesson) {
    const n = lesson.tokens.length;
    const keys = lesson.tokens.map((t) => t.key);
    const values = lesson.tokens.map((t) => t.value);
    const before = lazy(() => attend(lesson.query, keys, values));
    const after = lazy(() =>
      lesson.rival ? attend(lesson.query, [...keys, lesson.rival.key], [...values, lesson.rival.value]) : null,
    );
    const filler = lazy(() => {
      if (!lesson.quiz || !("filler_score" in lesson.quiz)) return null;
      // maths.quiz_answer: the rival scored alone, then e^gap.
      const rivalScore = attend(lesson.query, [lesson.rival.key], [lesson.rival.value]).scores[0];
      const gap = rivalScore - lesson.quiz.filler_score;
      const bonusGap = rivalScore - lesson.quiz.bonus_filler_score;
      const needed = exp(gap);
      const options = [1.0, gap, needed, exp(2 * gap)];
      return { rivalScore, gap, needed, options, bonusGap, bonusNeeded: exp(bonusGap) };
    });
    const asks = lesson.tokens.every((t) => t.query);
    const queries = lesson.tokens.map((t) => t.query);
    const grid = lazy(() => (asks ? attendAll(queries, keys, values, lesson.mask) : null));
    const open = lazy(() => (asks ? attendAll(queries, keys, values, null) : null));
    const heads = lazy(() =>
      lesson.heads.map((h) => {
        const x = lesson.tokens.map((t) => t.embedding);
        const [q, k, v] = [h.w_q, h.w_k, h.w_v].map((w) => x.map((e) => project(e, w)));
        return { q, k, v, grid: attendAll(q, k, v, lesson.mask) };
      }),
    );
    const joined = lazy(() => lesson.tokens.map((_, t) => heads().flatMap((h) => h.grid.outputs[t])));
    const share = lazy(() => {
      if (!asks || !lesson.quiz || !("asker" in lesson.quiz)) return null;
      const quiz = lesson.quiz;
      const on = heads().length ? heads()[quiz.head].grid : grid();
      return { on, head: heads().length ? quiz.head : "", i: quiz.asker, to: quiz.to };
    });

    /** @typedef {ReturnType<typeof attendAll>} Grid */
    /** @type {(read: (a: ReturnType<typeof attend>) => Nested) => () => Nested | null} */
    const ifRival = (read) => () => (lesson.rival ? read(after()) : null);
    /** @type {(read: (q: ReturnType<typeof filler>) => Nested) => () => Nested | null} */
    const ifFiller = (read) => () => (filler() ? read(filler()) : null);
    /** @type {(read: (a: Grid, i: number, to: number) => Nested) => () => Nested | null} */
    const asked = (read) => () => {
      const s = share();
      return s && { [s.head]: read(s.on, s.i, s.to) };
    };
    /** @type {(read: (hs: ReturnType<typeof heads>) => Nested) => () => Nested | null} */
    const ifHeads = (read) => () => (lesson.heads.length ? read(heads()) : null);
    /** @type {(name: string, which: () => Grid | null) => Record<string, () => Nested | null>} */
    const gridSources = (name, which) =>
      Object.fromEntries(
        ["dots", "scores", "pulls", "weights", "outputs", "totals"].map((field) => [
          `${name}.${field}`,
          () => which()?.[/** @type {keyof Grid} */ (field)] ?? null,
        ]),
      );
    /** @type {(xs: number[]) => Record<string, number>} */
    const withRival = (xs) => Object.fromEntries(xs.map((x, t) => [t === n ? "rival" : t, x]));
    return {
      "one.root_d_k": () => before().root,
      "one.products": () => before().products,
      "one.dots": () => before().dots,
      "one.scores": () => before().scores,
      "one.pulls": () => before().pulls,
      "one.total": () => before().total,
      "one.weights": () => before().weights,
      "one.scaled": () => before().scaled,
      "one.output": () => before().output,
      budget: () => 1, // maths.BUDGET: every row of shares adds up to it
      "rival.dot": ifRival((a) => ({ rival: a.dots[n] })),
      "rival.score": ifRival((a) => ({ rival: a.scores[n] })),
      "rival.weights": ifRival((a) => withRival(a.weights)),
      "rival.output": ifRival((a) => a.output),
      "rival.left": ifRival((a) => {
        const shares = before().weights;
        return a.weights[shares.indexOf(Math.max(...shares))]; // np.argmax: the first
      }),
      "quiz.rival_score": ifFiller((q) => ({ rival: q.rivalScore })),
      "quiz.gap": ifFiller((q) => q.gap),
      "quiz.needed": ifFiller((q) => q.needed),
      "quiz.options": ifFiller((q) => q.options),
      "quiz.bonus_gap": ifFiller((q) => q.bonusGap),
      "quiz.bonus_needed": ifFiller((q) => q.bonusNeeded),
      "share_quiz.scores": asked((a, i) => a.scores[i]),
      "share_quiz.pulls": asked((a, i) => a.pulls[i]),
      "share_quiz.weights": asked((a, i) => a.weights[i]),
      "share_quiz.total": asked((a, i) => a.totals[i]),
      "share_quiz.answer": asked((a, i, to) => a.weights[i][to]),
      ...gridSources("grid", grid),
      ...gridSources("first_grid", () => (lesson.steps.includes("mask") ? open() : grid())),
      "heads.q": ifHeads((hs) => hs.map((h) => h.q)),
      "heads.k": ifHeads((hs) => hs.map((h) => h.k)),
      "heads.v": ifHeads((hs) => hs.map((h) => h.v)),
      "heads.weights": ifHeads((hs) => hs.map((h) => h.grid.weights)),
      "heads.outputs": ifHeads((hs) => hs.map((h) => h.grid.outputs)),
      "heads.joined": ifHeads(() => joined()),
      "heads.mixed": ifHeads(() => (lesson.w_o ? times(joined(), lesson.w_o) : null)),
    };
  }

  /**
   * Each number of a nested value (arrays by place, objects by key) with its places.
   * @param {Nested} value
   * @param {number} depth
   * @param {(number | string)[]} at
   * @param {(at: (number | string)[], x: number) => void} each
   * @returns {void}
   */
  function places(value, depth, at, each) {
    if (depth === 0) return each(at, /** @type {number} */ (value));
    /** @type {[number | string, Nested][]} */
    const entries = Array.isArray(value) ? value.map((inner, place) => [place, inner]) : Object.entries(value);
    for (const [place, inner] of entries) places(inner, depth - 1, [...at, place], each);
  }

  /** A number in the words' "about {count}" unless the rule's text is the number exactly
   * (formatting.option).
   * @param {Rule} rule
   * @param {number} x
   * @param {TwinWords} words
   */
  function roughly(rule, x, words) {
    const rough = format(rule, x);
    return Number(rough) === x ? rough : words.about.replace("{count}", rough);
  }

  /** Every number each kind shows, by key: the sources its twin spec (`kinds`, by kind) names,
   * each set in its rule (and the number, which the drawing is sized by).
   * @param {Inputs} inputs
   * @param {Record<string, Rule>} rules
   * @param {TwinWords} words
   * @param {Record<string, SpecNumber[]>} kinds
   * @returns {Record<string, Map<string, Shown>>}
   */
  function numbers(inputs, rules, words, kinds) {
    const source = sources(derived(inputs));
    /** @type {Record<string, Map<string, Shown>>} */
    const byKind = {};
    for (const [kind, listed] of Object.entries(kinds)) {
      const shown = (byKind[kind] = new Map());
      for (const number of listed) {
        const value = source[number.source]?.();
        if (value === null || value === undefined) continue;
        const rule = rules[number.rule];
        places(value, number.over.length, [], (at, x) => {
          const where = Object.fromEntries(number.over.map((axis, i) => [axis, at[i]]));
          const text = number.roughly ? roughly(rule, x, words) : format(rule, x);
          shown.set(key(number.quantity, where), { text, x });
        });
      }
    }
    return byKind;
  }

  // --- the panel: inputs in, every shown number out ------------------------------------------

  /**
   * The inputs with the page's fields written into them; null while a field holds no number.
   * @param {HTMLElement} panel
   * @param {Inputs} lesson
   * @returns {Inputs | null}
   */
  function read(panel, lesson) {
    /** @type {any} the inputs, written by the fields' roles */
    const inputs = structuredClone(lesson);
    let complete = true;
    for (const field of /** @type {NodeListOf<HTMLInputElement>} */ (panel.querySelectorAll("[data-input]"))) {
      const value = field.value.trim() === "" ? NaN : Number(field.value);
      const ok = Number.isFinite(value);
      field.setAttribute("aria-invalid", String(!ok));
      if (!ok) {
        complete = false;
        continue;
      }
      const { input, token, head, row, col, index } = field.dataset;
      const target = token === "rival" ? inputs.rival : token !== undefined ? inputs.tokens[Number(token)] : inputs;
      if (input === "filler_score" || input === "bonus_filler_score") inputs.quiz[input] = value;
      else if (input === "w_o") inputs.w_o[Number(row)][Number(col)] = value;
      else if (head !== undefined) inputs.heads[Number(head)][input][Number(row)][Number(col)] = value;
      else target[input][Number(index)] = value;
    }
    return complete ? inputs : null;
  }

  /**
   * Every number of the panel written from `inputs`: its text (none where the script computes
   * no number for its key, so a key it misses shows as missing), its drawing, the picker's
   * labels (the steps' headings) and the input cells' shading.
   * @param {HTMLElement} panel
   * @param {Inputs} inputs
   * @param {TwinData} data
   */
  function show(panel, inputs, data) {
    const byKind = numbers(inputs, data.rules, data.words, data.kinds);
    for (const section of panel.querySelectorAll("[data-kind]")) {
      const shown = byKind[section.dataset.kind] ?? new Map();
      for (const element of section.querySelectorAll("[data-quantity]")) {
        const d = element.dataset;
        const number = shown.get(key(d.quantity, d));
        element.textContent = number ? number.text : "";
        element.toggleAttribute("data-unset", !number);
      }
      for (const svg of section.querySelectorAll("svg")) draw(svg, shown, data.shade);
    }
    const picker = /** @type {HTMLSelectElement | null} */ (panel.querySelector("[data-twin-picker]"));
    for (const option of picker ? picker.options : []) {
      option.textContent = panel.querySelector(`[data-step="${option.value}"] h3`).textContent;
    }
    shadeFields(panel, data.shade);
  }

  /**
   * A cell's fill opacity as the video shades it: faint for nothing, fullest at `peak`.
   * @param {number} x
   * @param {number} peak
   * @param {{ faintest: number, fullest: number }} shade
   */
  function heat(x, peak, shade) {
    const part = peak > 0 && Number.isFinite(x) ? Math.min(1, Math.abs(x) / peak) : 0;
    return shade.faintest + (shade.fullest - shade.faintest) * part;
  }

  /**
   * One drawn table (twin_drawing.py's) sized by its numbers: a cell shaded by its size against
   * the largest of its quantity in the table, a bar as long, a share as long as its part of the
   * budget, and each budget bar sliced in its rows' order; −∞ drawn as a masked cell.
   * @param {Element} svg
   * @param {Map<string, Shown>} shown
   * @param {{ faintest: number, fullest: number }} shade
   */
  function draw(svg, shown, shade) {
    const slots = [...svg.querySelectorAll("[data-look] [data-quantity]")].map((text) => {
      const d = /** @type {HTMLElement} */ (text).dataset;
      return { rect: /** @type {HTMLElement} */ (text.previousElementSibling), look: text.parentElement.dataset.look, quantity: d.quantity, x: shown.get(key(d.quantity, d))?.x ?? 0 };
    });
    /** @type {Record<string, number>} */
    const peaks = {};
    for (const s of slots) {
      if (Number.isFinite(s.x)) peaks[s.quantity] = Math.max(peaks[s.quantity] ?? 0, Math.abs(s.x));
    }
    for (const { rect, look, quantity, x } of slots) {
      rect.classList.toggle("masked", x === -Infinity);
      rect.classList.toggle("negative", x < 0);
      if (look === "cell") rect.style.fillOpacity = String(heat(x, peaks[quantity], shade));
      else {
        const part = Number.isFinite(x) ? Math.abs(x) / (look === "share" ? 1 : peaks[quantity] || 1) : 0;
        rect.style.transform = `scaleX(${Math.max(part, 0.005)})`;
      }
    }
    for (const budget of svg.querySelectorAll(".budget")) {
      let start = 0;
      for (const segment of /** @type {NodeListOf<HTMLElement>} */ (budget.querySelectorAll(".segment"))) {
        const d = segment.dataset;
        const part = shown.get(key(d.of, d))?.x ?? 0;
        const width = Number(segment.getAttribute("width"));
        segment.style.transform = `translateX(${start * width}px) scaleX(${Math.max(part, 0.001)})`;
        start += part;
      }
    }
  }

  /**
   * Each input cell shaded by its number against the largest of its role, as the video's
   * vectors are.
   * @param {HTMLElement} panel
   * @param {{ faintest: number, fullest: number }} shade
   */
  function shadeFields(panel, shade) {
    const fields = [.../** @type {NodeListOf<HTMLInputElement>} */ (panel.querySelectorAll("[data-input]"))];
    /** @type {Record<string, number>} */
    const peaks = {};
    for (const field of fields) {
      const x = Math.abs(Number(field.value));
      if (Number.isFinite(x)) peaks[field.dataset.input] = Math.max(peaks[field.dataset.input] ?? 0, x);
    }
    for (const field of fields) {
      const x = Number(field.value);
      field.style.setProperty("--shade", String(heat(x, peaks[field.dataset.input], shade)));
    }
  }

  /**
   * Every field back to the lesson's own number: the value the page was written with.
   * @param {HTMLElement} panel
   */
  function restore(panel) {
    for (const field of /** @type {NodeListOf<HTMLInputElement>} */ (panel.querySelectorAll("[data-input]"))) field.value = field.defaultValue;
  }

  /** Wire a panel: `data` is the JSON twin.py writes (the lesson's inputs, its kinds' twin
   * specs, RULES, words).
   * @param {HTMLElement} panel
   * @param {TwinData} data
   */
  function mount(panel, data) {
    const status = panel.querySelector("[data-twin-status]");
    const update = () => {
      const inputs = read(panel, data.lesson);
      if (inputs) show(panel, inputs, data);
      status.textContent = inputs ? "" : data.words.invalid; // the numbers stay the last good ones
    };
    panel.addEventListener("input", update);
    panel.querySelector("[data-twin-back]").addEventListener("click", () => {
      restore(panel);
      update();
    });
    const picker = /** @type {HTMLSelectElement | null} */ (panel.querySelector("[data-twin-picker]"));
    if (picker) {
      picker.addEventListener("change", () => showStep(panel, Number(picker.value)));
    }
    update();
  }

  /**
   * Show step `place` (from 0) of the panel's steps, hide the others.
   * @param {HTMLElement} panel
   * @param {number} place
   */
  function showStep(panel, place) {
    for (const section of panel.querySelectorAll("[data-kind]")) {
      section.hidden = Number(section.dataset.step) !== place;
    }
  }

  return { mount, showStep, format, exactSum, roundTo, exp, numbers, sources };
})();
