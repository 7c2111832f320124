// Deterministic generator of large, realistic-ish test pages for the scale
// test and the benchmark.
//
// generatePage(n, seed) returns an HTML string whose DOM holds exactly n
// elements once parsed and run (html/head/body included; the elements the
// inline script puts into open shadow roots are part of the n). The mix:
// nested sections with headings, paragraphs with inline links, link lists,
// tables with a button per row, forms (labelled text inputs, selects,
// checkboxes, submit buttons), a fixed cookie banner covering the bottom of
// the viewport, hidden subtrees (display:none, the hidden attribute,
// aria-hidden="true"), clickable generics (cursor:pointer, onclick) and
// custom elements with an open shadow root holding a button.
//
// Counts are exact by construction: every element the generator writes is
// counted as it is written, and the markup avoids everything the HTML parser
// would repair (implied <tbody>, block elements inside <p>, nested forms or
// links), so document.getElementsByTagName('*').length === info.lightCount.
//
// No Math.random: a seeded mulberry32 drives every choice, so the same
// (n, seed) always gives the same bytes.

/** mulberry32: a tiny, well-distributed 32-bit PRNG. Returns floats in [0, 1). */
export function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = (
  'account order invoice search profile settings billing report export import customer product price ' +
  'shipping delivery address payment review rating cart checkout wishlist support help contact team ' +
  'project task status update archive delete share download upload message inbox draft calendar event ' +
  'photo gallery video music playlist news article comment reply forum topic thread member group admin'
).split(' ');
const VERBS = ['Save', 'Edit', 'Open', 'View', 'Delete', 'Share', 'Buy', 'Add', 'Remove', 'Apply', 'Send', 'Details'];

// Elements written per widget in its shadow root: div.w > span + button.
const SHADOW_PER_WIDGET = 3;

const HEAD_STYLE = `
body { font: 14px/1.4 sans-serif; margin: 0; }
header, main, footer { padding: 8px 16px; }
section { border-left: 2px solid #ddd; margin: 8px 0 8px 8px; padding-left: 8px; }
table { border-collapse: collapse; margin: 6px 0; }
td, th { border: 1px solid #ccc; padding: 2px 6px; }
form { margin: 6px 0; padding: 6px; background: #f6f6f6; }
form > div { margin: 2px 0; }
nav ul { margin: 4px 0; padding-left: 18px; }
.card { display: inline-block; padding: 4px 8px; margin: 2px; background: #eef; cursor: pointer; }
.primary { background: #1a73e8; color: #fff; border: 0; padding: 4px 10px; }
#cookie-banner { position: fixed; left: 0; right: 0; bottom: 0; height: 140px; z-index: 1000;
  background: #222; color: #fff; padding: 12px 16px; box-sizing: border-box; }
#cookie-banner button { margin-right: 8px; }
`;

// Defined in <head>, so every <x-widget> is upgraded (and gets its open
// shadow root) as the parser inserts it.
const WIDGET_SCRIPT = `
customElements.define('x-widget', class extends HTMLElement {
  // Parser-created custom elements get their attributes after the
  // constructor runs, so the shadow content is built on connection.
  connectedCallback() {
    if (this.shadowRoot) return;
    const root = this.attachShadow({ mode: 'open' });
    const box = document.createElement('div');
    box.className = 'w';
    const label = document.createElement('span');
    label.textContent = this.getAttribute('label') || 'Widget';
    const button = document.createElement('button');
    button.textContent = this.getAttribute('action') || 'Go';
    box.append(label, ' ', button);
    root.append(box);
  }
});
`;

/**
 * The page and what it holds.
 * @returns {{html: string, count: number, lightCount: number, shadowCount: number, stats: object}}
 *   count === n (all elements, shadow roots included); lightCount is what
 *   document.getElementsByTagName('*') sees; stats counts interactive
 *   elements by kind, split into visible / hidden / shadow.
 */
export function generatePageInfo(n, seed = 1) {
  if (!Number.isInteger(n) || n < 40) throw new Error(`generatePage: n must be an integer >= 40, got ${n}`);
  const rnd = mulberry32(seed);
  const int = (lo, hi) => lo + Math.floor(rnd() * (hi - lo + 1)); // inclusive
  const pick = (arr) => arr[Math.floor(rnd() * arr.length)];
  const words = (k) => Array.from({ length: k }, () => pick(WORDS)).join(' ');
  const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);

  let light = 0;
  let shadow = 0;
  let uid = 0;
  let hidden = 0; // depth of hidden wrappers around what is being written
  const stats = {
    visible: { link: 0, button: 0, textbox: 0, combobox: 0, checkbox: 0, clickable: 0 },
    hidden: { link: 0, button: 0, textbox: 0, combobox: 0, checkbox: 0, clickable: 0 },
    shadow: { button: 0, widgets: 0 },
  };
  const hit = (kind) => {
    (hidden ? stats.hidden : stats.visible)[kind]++;
  };
  const remaining = () => n - light - shadow;

  // ---- leaf blocks: each takes a budget (>= 1) and writes at most that many elements.
  function paragraph(budget) {
    light++;
    let out = `<p>${cap(words(int(4, 12)))}`;
    const extras = Math.min(budget - 1, int(0, 3));
    for (let i = 0; i < extras; i++) {
      light++;
      const r = rnd();
      if (r < 0.5) {
        hit('link');
        out += ` <a href="#p${uid++}">${words(int(1, 3))}</a>`;
      } else if (r < 0.8) out += ` <strong>${words(int(1, 2))}</strong>`;
      else out += ` <em>${words(int(1, 2))}</em>`;
      out += ` ${words(int(2, 8))}`;
    }
    return `${out}.</p>\n`;
  }

  function linkList(budget) {
    if (budget < 4) return paragraph(budget);
    const k = Math.min(int(3, 12), Math.floor((budget - 2) / 2));
    light += 2 + 2 * k;
    let out = '<nav><ul>';
    for (let i = 0; i < k; i++) {
      hit('link');
      out += `<li><a href="/page/${uid++}">${cap(words(int(1, 3)))}</a></li>`;
    }
    return `${out}</ul></nav>\n`;
  }

  function table(budget) {
    if (budget < 12) return linkList(budget);
    const k = Math.min(int(3, 15), Math.floor((budget - 7) / 5));
    light += 7 + 5 * k;
    let out = '<table><thead><tr><th>Name</th><th>Status</th><th>Action</th></tr></thead><tbody>';
    for (let i = 0; i < k; i++) {
      hit('button');
      out += `<tr><td>${cap(words(2))} ${uid++}</td><td>${pick(WORDS)}</td><td><button type="button">${pick(VERBS)}</button></td></tr>`;
    }
    return `${out}</tbody></table>\n`;
  }

  function form(budget) {
    if (budget < 8) return table(budget);
    light++; // <form>
    let used = 1;
    let out = `<form action="#" onsubmit="return false"><h3>${cap(words(2))}</h3>`;
    light++;
    used++;
    const fields = int(1, 5);
    for (let f = 0; f < fields; f++) {
      const id = `f${uid++}`;
      const r = rnd();
      if (r < 0.5 && used + 3 <= budget - 1) {
        light += 3;
        used += 3;
        hit('textbox');
        out += `<div><label for="${id}">${cap(words(int(1, 2)))}</label> <input type="text" id="${id}" name="${id}" placeholder="${words(2)}"></div>`;
      } else if (r < 0.75 && used + 5 <= budget - 1) {
        const m = Math.min(int(2, 6), budget - 1 - used - 3);
        light += 3 + m;
        used += 3 + m;
        hit('combobox');
        let opts = '';
        for (let i = 0; i < m; i++) opts += `<option>${cap(pick(WORDS))}</option>`;
        out += `<div><label for="${id}">${cap(pick(WORDS))}</label> <select id="${id}" name="${id}">${opts}</select></div>`;
      } else if (used + 2 <= budget - 1) {
        light += 2;
        used += 2;
        hit('checkbox');
        out += `<label><input type="checkbox" name="${id}"> ${cap(words(int(2, 4)))}</label> `;
      }
    }
    light++; // submit
    hit('button');
    return `${out}<button type="submit" class="primary">${pick(VERBS)}</button></form>\n`;
  }

  function clickable(budget) {
    const r = rnd();
    hit('clickable');
    if (r < 0.4 || budget < 2) {
      light++;
      return `<div class="card">${cap(words(int(1, 3)))}</div>\n`;
    }
    if (r < 0.7) {
      light++;
      return `<span onclick="void 0">${cap(words(int(1, 3)))}</span>\n`;
    }
    light += 2;
    return `<div onclick="void 0" style="cursor:pointer"><span>${cap(words(int(1, 3)))}</span></div>\n`;
  }

  function widget(budget) {
    if (budget < 1 + SHADOW_PER_WIDGET || hidden) return paragraph(budget);
    light++;
    shadow += SHADOW_PER_WIDGET;
    stats.shadow.widgets++;
    stats.shadow.button++;
    return `<x-widget label="${cap(words(2))}" action="${pick(VERBS)}"></x-widget>\n`;
  }

  function hiddenBlock(budget) {
    if (budget < 3) return paragraph(budget);
    light++;
    const r = rnd();
    const open = r < 0.4 ? '<div style="display:none">' : r < 0.7 ? '<div hidden>' : '<div aria-hidden="true">';
    hidden++;
    const inner = leaf(budget - 1, true);
    hidden--;
    return `${open}${inner}</div>\n`;
  }

  function leaf(budget, noHidden = false) {
    const r = rnd();
    if (r < 0.3) return paragraph(budget);
    if (r < 0.45) return linkList(Math.min(budget, 26));
    if (r < 0.6) return table(Math.min(budget, 82));
    if (r < 0.72) return form(Math.min(budget, 30));
    if (r < 0.8) return clickable(budget);
    if (r < 0.86) return widget(budget);
    if (r < 0.92 && !noHidden) return hiddenBlock(Math.min(budget, 40));
    light++;
    return `<h3>${cap(words(int(2, 5)))}</h3>\n`;
  }

  function section(budget, depth) {
    // <section><h2>…</h2> children </section>
    light += 2;
    let used = 2;
    let out = `<section><h${Math.min(2 + depth, 6)}>${cap(words(int(2, 5)))}</h${Math.min(2 + depth, 6)}>\n`;
    while (used < budget) {
      const left = budget - used;
      const before = light + shadow;
      if (depth < 3 && left > 60 && rnd() < 0.25) out += section(Math.min(left, int(40, 300)), depth + 1);
      else out += leaf(left);
      used += light + shadow - before;
    }
    return `${out}</section>\n`;
  }

  // ---- the page. Fixed part: html head meta title style script body header
  // h1 main (10) and the cookie banner (div p button button a: 5).
  light += 10;
  const BANNER = 5;
  let header = `<header><h1>Generated page n=${n} seed=${seed}</h1>\n`;
  header += linkList(Math.min(remaining() - BANNER, 16));
  header += '</header>\n';
  let main = '';
  while (remaining() > BANNER) {
    const left = remaining() - BANNER;
    if (left >= 20) main += section(Math.min(left, int(20, 400)), 0);
    else if (left >= 1) main += leaf(left);
  }
  light += BANNER;
  stats.visible.button += 2;
  stats.visible.link += 1;
  const banner =
    '<div id="cookie-banner"><p>We use cookies to improve your experience.</p>' +
    '<button type="button" class="primary">Accept all</button><button type="button">Reject</button>' +
    '<a href="#cookies">Cookie settings</a></div>\n';

  const html =
    `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>Generated ${n}</title>` +
    `<style>${HEAD_STYLE}</style><script>${WIDGET_SCRIPT}</script></head>\n<body>\n` +
    `${header}<main>\n${main}</main>\n${banner}</body></html>\n`;
  return { html, count: light + shadow, lightCount: light, shadowCount: shadow, stats };
}

/** The HTML of a page with n elements (exactly; see generatePageInfo). */
export function generatePage(n, seed = 1) {
  return generatePageInfo(n, seed).html;
}

/** The exact number of elements generatePage(n, seed) produces (=== n). */
export function generatedCount(n, seed = 1) {
  return generatePageInfo(n, seed).count;
}

/**
 * A startServer route handler serving `/gen?n=N&seed=S`. Pages are cached
 * per (n, seed), so repeated loads cost no generation time.
 */
export function generatedRoute() {
  const cache = new Map();
  return (req, res, url) => {
    const n = Number(url.searchParams.get('n') || 1000);
    const seed = Number(url.searchParams.get('seed') || 1);
    const key = `${n}:${seed}`;
    let html = cache.get(key);
    if (html === undefined) {
      try {
        html = generatePage(n, seed);
      } catch (e) {
        res.writeHead(400, { 'content-type': 'text/plain' }).end(String(e.message));
        return;
      }
      cache.set(key, html);
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(html);
  };
}

// ------------------------------------------------------------------ frames
// The benchmark's "reach" page (the frames page of docs/benchmarks.md): a generated top page plus
// SHADOW_HOSTS custom elements with a shadow root each (half open, half
// closed) and 20 iframes, half from the page's origin and half from a second
// local origin (another port), some nested up to 3 frames deep. Every frame
// is itself a generated page.

const SHADOW_HOSTS = 500;
const PER_CARD = 4; // div.c > span + input + button, in the card's shadow root
const TOP_N = 2000;
const FRAME_N = 300;
/** The frame tree: `origin` a = the top page's, b = the second origin. */
export const BENCH_FRAMES = [
  ...Array.from({ length: 14 }, (_, i) => ({ id: i, parent: null, origin: i % 2 ? 'b' : 'a' })),
  { id: 14, parent: 0, origin: 'b' },
  { id: 15, parent: 1, origin: 'a' },
  { id: 16, parent: 2, origin: 'b' },
  { id: 17, parent: 3, origin: 'a' },
  { id: 18, parent: 14, origin: 'a' }, // top → 0 → 14 → 18: three frames deep
  { id: 19, parent: 15, origin: 'b' },
];

const CARD_SCRIPT = `
customElements.define('x-card', class extends HTMLElement {
  connectedCallback() {
    if (this.done) return;
    this.done = true;
    const root = this.attachShadow({ mode: this.getAttribute('mode') === 'closed' ? 'closed' : 'open' });
    const box = document.createElement('div');
    box.className = 'c';
    const label = document.createElement('span');
    label.textContent = this.getAttribute('label');
    const input = document.createElement('input');
    input.placeholder = 'Quantity';
    const button = document.createElement('button');
    button.textContent = 'Add';
    box.append(label, ' ', input, ' ', button);
    root.append(box);
  }
});
`;

function frameTags(parent, a, b, width, height) {
  return BENCH_FRAMES.filter((f) => f.parent === parent)
    .map((f) => {
      const origin = f.origin === 'a' ? a : b;
      const src = `${origin}/bench-frame?id=${f.id}&a=${encodeURIComponent(a)}&b=${encodeURIComponent(b)}`;
      return `<iframe title="frame ${f.id}" src="${src}" style="width:${width}px;height:${height}px;border:1px solid #ccc;margin:4px"></iframe>`;
    })
    .join('\n');
}

/**
 * What the frames page holds (the top document; each frame is
 * generatePageInfo(FRAME_N, 1000 + id) plus its child iframes).
 */
export function framesPageInfo(seed = 1) {
  const top = generatePageInfo(TOP_N, seed);
  const frameElements = BENCH_FRAMES.length * FRAME_N + BENCH_FRAMES.filter((f) => f.parent !== null).length;
  return {
    frames: BENCH_FRAMES.length,
    frames_other_origin: BENCH_FRAMES.filter((f) => f.origin === 'b').length,
    max_frame_depth: 3,
    shadow_roots: SHADOW_HOSTS + top.stats.shadow.widgets,
    closed_shadow_roots: SHADOW_HOSTS / 2,
    // html head … plus the card script, the hosts and the top-level iframes.
    top_light_elements: top.lightCount + 1 + SHADOW_HOSTS + BENCH_FRAMES.filter((f) => f.parent === null).length + 1,
    top_shadow_elements: top.shadowCount + SHADOW_HOSTS * PER_CARD,
    closed_shadow_elements: (SHADOW_HOSTS / 2) * PER_CARD,
    frame_elements: frameElements,
  };
}

/**
 * Routes for the frames page, to install on BOTH servers: `/bench-frames?b=ORIGIN`
 * (the top page; ORIGIN is the second server) and `/bench-frame?id=&a=&b=`.
 */
export function framesRoutes(seed = 1) {
  const send = (res, html) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(html);
  };
  return {
    '/bench-frames': (req, res, url) => {
      const a = `http://${req.headers.host}`;
      const b = url.searchParams.get('b') || a;
      const rnd = mulberry32(seed + 7);
      let cards = '';
      for (let i = 0; i < SHADOW_HOSTS; i++) {
        cards += `<x-card mode="${i % 2 ? 'closed' : 'open'}" label="${WORDS[Math.floor(rnd() * WORDS.length)]} ${i}"></x-card>\n`;
      }
      const html = generatePage(TOP_N, seed)
        .replace('</head>', `<script>${CARD_SCRIPT}</script></head>`)
        .replace('</body>', `<div id="bench-frames">\n${cards}${frameTags(null, a, b, 480, 360)}\n</div></body>`);
      send(res, html);
    },
    '/bench-frame': (req, res, url) => {
      const id = Number(url.searchParams.get('id'));
      const a = url.searchParams.get('a');
      const b = url.searchParams.get('b');
      if (!BENCH_FRAMES[id] || !a || !b) {
        res.writeHead(400).end('bad frame');
        return;
      }
      send(res, generatePage(FRAME_N, 1000 + id).replace('</body>', `${frameTags(id, a, b, 400, 300)}</body>`));
    },
  };
}
