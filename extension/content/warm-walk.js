// @ts-check
// A small made-up walk (the wire of extension/content/wire.js) for warming
// the engine up without reading the page, on trusted origins' documents as
// they load (content/preload.js, content/engine.js `prepare`;
// docs/benchmarks.md "Real pages: the first snapshot").
//
// WebAssembly functions are compiled on their first call, so a page's first
// snapshot used to pay for compiling most of the engine (1–3 ms on the real
// pages, a third of the plain-JS floor). Running the engine once over this
// walk as soon as it has loaded, while the page is still loading, compiles
// the code every snapshot runs (decoding, roles, names, importance, sorting,
// occlusion, the JSON writer) at a time nobody waits for, and touches
// nothing of the page: no DOM read, no style or layout.
'use strict';

globalThis.SentienceWarmWalk = (() => {
  const W = SentienceWire;
  const F = W.FLAGS;
  const VIS = F.VISIBLE;

  // [tag, role attr, type, aria-label, text, flags, x, y, w, h, parent, extra strings]
  // A link, a button, text inputs, a checkbox, a select, a generic made
  // clickable by its cursor, an image, a heading, a form and its label:
  // every kind of element a real page's snapshot lists.
  /** @type {[string, string, string, string, string, number, number, number, number, number, number, Record<number, string> | null][]} */
  const NODES = [
    ['nav', '', '', 'Main', '', VIS, 0, 0, 1280, 60, -1, null],
    ['a', '', '', '', 'Home page', VIS | F.HAS_HREF | F.NATIVELY_FOCUSABLE, 10, 10, 120, 20, 0, null],
    ['a', '', '', '', 'Story of the day: a long headline', VIS | F.HAS_HREF | F.NATIVELY_FOCUSABLE | F.CURSOR_POINTER, 140, 10, 300, 40, 0, { [W.S_TITLE]: 'Read more' }],
    ['form', 'search', '', '', '', VIS | F.IN_SEARCH, 800, 10, 400, 40, -1, null],
    ['label', '', '', '', 'Search', VIS | F.IN_SEARCH, 800, 10, 60, 20, 3, null],
    ['input', '', 'search', '', '', VIS | F.IN_SEARCH | F.NATIVELY_FOCUSABLE, 860, 10, 200, 30, 3, { [W.S_PLACEHOLDER]: 'Search…', [W.S_NAME]: 'q', [W.S_LABELS]: 'Search' }],
    ['button', '', 'submit', 'Go', '', VIS | F.IN_SEARCH | F.NATIVELY_FOCUSABLE, 1070, 10, 60, 30, 3, null],
    ['h1', '', '', '', 'Headline', VIS, 10, 80, 600, 40, -1, null],
    ['img', '', '', '', '', VIS | F.REPLACED, 10, 130, 300, 200, -1, { [W.S_ALT]: 'A picture' }],
    ['div', 'button', '', '', 'Open menu', VIS | F.TABINDEX | F.HAS_POPUP | F.COLLAPSED | F.POSITIONED | F.FIXED, 1200, 700, 60, 60, -1, null],
    ['span', '', '', '', 'Clickable text', VIS | F.CURSOR_POINTER | F.ONCLICK, 10, 340, 100, 20, -1, null],
    ['input', '', 'checkbox', 'Remember me', '', VIS | F.CHECKED | F.NATIVELY_FOCUSABLE, 10, 370, 16, 16, -1, null],
    ['select', '', '', '', '', VIS | F.NATIVELY_FOCUSABLE, 40, 370, 120, 24, -1, { [W.S_VALUE]: 'One', [W.S_OPTIONS]: ['One', 'one', '1'].join(W.OPT_FIELD) + W.OPT_SEP + ['Two', 'two', ''].join(W.OPT_FIELD) }],
    ['textarea', '', '', '', '', VIS | F.NATIVELY_FOCUSABLE | F.REQUIRED, 10, 400, 400, 80, -1, { [W.S_VALUE]: 'Some text' }],
    ['a', '', '', '', 'Below the fold', VIS | F.HAS_HREF | F.NATIVELY_FOCUSABLE, 10, 1500, 120, 20, -1, null],
  ];

  /**
   * The walk: {meta, nums, strs}, as SentienceWalker.collect() returns
   * them, with `copies` copies of NODES one below the other.
   * @param {number} [copies]
   */
  function walk(copies = 1) {
    const n = NODES.length * copies;
    const nums = new Float64Array(n * W.NUM_STRIDE);
    const strs = [];
    strs[W.P_URL] = 'about:blank';
    strs[W.P_TIMESTAMP] = '2000-01-01T00:00:00.000Z';
    for (let i = 0; i < n; i++) {
      const base = i - (i % NODES.length);
      const [tag, role, type, aria, text, flags, x, y0, w, h, p, extra] = NODES[i % NODES.length];
      const parent = p < 0 ? -1 : base + p;
      const y = y0 + (base / NODES.length) * 1600;
      const at = i * W.NUM_STRIDE;
      nums.fill(-1, at, at + W.NUM_STRIDE);
      nums[at + W.N_STABLE_ID] = i + 1;
      nums[at + W.N_PARENT] = parent;
      nums[at + W.N_X] = x;
      nums[at + W.N_Y] = y;
      nums[at + W.N_W] = w;
      nums[at + W.N_H] = h;
      nums[at + W.N_FLAGS] = flags;
      nums[at + W.N_Z] = flags & F.FIXED ? 10 : 0;
      nums[at + W.N_BG] = tag === 'button' ? 0x3366ccff : -1;
      nums[at + W.N_BG_EFFECTIVE] = 0xffffffff;
      nums[at + W.N_FORM] = p === 3 ? base + 3 : -1;
      nums[at + W.N_LABEL_FOR] = tag === 'label' ? base + 5 : -1;
      const row = new Array(W.STR_FIELDS).fill('');
      row[W.S_TAG] = tag;
      row[W.S_ROLE] = role;
      row[W.S_TYPE] = type;
      row[W.S_ARIA_LABEL] = aria;
      row[W.S_TEXT] = text;
      if (extra) for (const [k, v] of Object.entries(extra)) row[Number(k)] = v;
      strs.push(...row);
    }
    const meta = [];
    meta[W.M_VERSION] = W.WIRE_VERSION;
    meta[W.M_VIEWPORT_W] = 1280;
    meta[W.M_VIEWPORT_H] = 800;
    meta[W.M_SCANNED] = n;
    meta[W.M_NODES] = n;
    return { meta, nums, strs: strs.join(W.SEP) };
  }

  return { walk };
})();
