// web-sys vs JS walker: is it faster for the Rust engine to read the DOM
// itself through web-sys, or to let a JS walker read it and hand the engine
// packed data? This bench times the SAME per-element reads done both ways,
// in the page's main world, on generated pages of ~1k and ~10k elements.
//
//   node tests/bench/websys-vs-walker.mjs                 1k and 10k, 9 runs each
//   options: --sizes=1000,10000  --runs=9  --warmup=1  --seed=1
//   (pkg-scripts/bench.sh websys-probe builds the probe first and runs this.)
//
// Methods (each timed with performance.now() inside the page; their order
// rotates from one iteration to the next):
//   websys[mvp]       walk_websys() from bench/websys-probe/pkg, built with
//                     -C target-cpu=mvp exactly like the extension's engine
//                     (pkg-scripts/build.sh): JS objects cross the boundary
//                     through wasm-bindgen's JS-side heap array;
//   websys[reftypes]  the same Rust, built with rustc's default wasm32
//                     features (reference-types: JS objects pass as
//                     externref); skipped if bench/websys-probe/pkg-reftypes
//                     is missing;
//   websys[intern]    mvp plus wasm-bindgen's string interning (the probe's
//                     `interning` feature): the names passed to
//                     getPropertyValue/getAttribute are cached JS strings;
//                     skipped if bench/websys-probe/pkg-intern is missing;
//   js                a plain-JS mirror of walk_websys doing exactly the same
//                     reads (getPropertyValue for display/cursor/position,
//                     localName, getBoundingClientRect for a/button/input/
//                     select/textarea/img or positioned elements, getAttribute
//                     role and aria-label) and the same checksum;
//   js-props          the mirror with the walker's own idiom for the style
//                     reads (cs.display, cs.cursor, cs.position) instead of
//                     getPropertyValue: shows what the idiom alone costs;
//   floor             getBoundingClientRect + getComputedStyle(el).display for
//                     every element (as in tests/bench/snapshot-bench.mjs).
// The checksums of websys[*], js and js-props must agree (checked).
//
// Output: a table on stdout and JSON in .bench/websys-vs-walker.json.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT, PAGES, startServer, launch, open } from '../lib/harness.mjs';
import { generatePageInfo, generatedRoute } from '../lib/generate.mjs';

const args = process.argv.slice(2);
const opt = (name) => {
  const hit = args.find((a) => a.startsWith(`--${name}=`));
  return hit ? hit.slice(name.length + 3) : undefined;
};
const SIZES = (opt('sizes') || '1000,10000').split(',').map(Number);
const RUNS = Number(opt('runs') || 9);
const WARMUP = Number(opt('warmup') || 1);
const SEED = Number(opt('seed') || 1);

// ------------------------------------------------------------ probe files
const PROBE = path.join(ROOT, 'bench/websys-probe');
const VARIANTS = [
  { name: 'mvp', dir: path.join(PROBE, 'pkg') },
  { name: 'reftypes', dir: path.join(PROBE, 'pkg-reftypes') },
  { name: 'intern', dir: path.join(PROBE, 'pkg-intern') },
].filter((v) => fs.existsSync(path.join(v.dir, 'websys_probe_bg.wasm')));
if (!VARIANTS.some((v) => v.name === 'mvp')) {
  console.error('bench/websys-probe/pkg is missing: run pkg-scripts/bench.sh websys-probe');
  process.exit(1);
}
const routes = { '/gen': generatedRoute() };
for (const v of VARIANTS) {
  for (const [file, type] of [['websys_probe.js', 'text/javascript'], ['websys_probe_bg.wasm', 'application/wasm']]) {
    routes[`/probe/${v.name}/${file}`] = (req, res) => {
      res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' });
      res.end(fs.readFileSync(path.join(v.dir, file)));
    };
  }
  v.wasmBytes = fs.statSync(path.join(v.dir, 'websys_probe_bg.wasm')).size;
}

// ------------------------------------------------------------------ stats
function summarise(samples) {
  const s = [...samples].sort((a, b) => a - b);
  const median = s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  const r = (x) => Math.round(x * 100) / 100;
  return { median: r(median), min: r(s[0]), max: r(s[s.length - 1]), n: s.length, samples: s.map(r) };
}

// ------------------------------------------------- in-page setup (main world)
/** Loads the probe modules and defines the JS walks on `window`. */
async function setupPage(page, variants) {
  return page.evaluate(async (variants) => {
    const loaded = {};
    window.__websys = {};
    for (const v of variants) {
      const t0 = performance.now();
      const m = await import(`/probe/${v}/websys_probe.js`);
      await m.default();
      window.__websys[v] = m.walk_websys;
      loaded[v] = performance.now() - t0;
    }

    const mix = (h, v) => (Math.imul(h, 31) + v) >>> 0;
    const RECT_TAGS = new Set(['a', 'button', 'input', 'select', 'textarea', 'img']);

    // Plain-JS mirror of walk_websys (bench/websys-probe/src/lib.rs): the
    // same reads in the same order, the same checksum.
    window.__walkJs = () => {
      let h = 0;
      let el = document.documentElement;
      while (el) {
        const tag = el.localName;
        h = mix(h, tag.length);
        const cs = window.getComputedStyle(el);
        const display = cs.getPropertyValue('display');
        const cursor = cs.getPropertyValue('cursor');
        const position = cs.getPropertyValue('position');
        h = mix(h, display.length);
        h = mix(h, cursor.length);
        h = mix(h, position.length);
        if (RECT_TAGS.has(tag) || position !== 'static') {
          const r = el.getBoundingClientRect();
          h = mix(h, r.width >>> 0);
          h = mix(h, r.height >>> 0);
        }
        const role = el.getAttribute('role');
        if (role !== null) h = mix(h, role.length + 1);
        const label = el.getAttribute('aria-label');
        if (label !== null) h = mix(h, label.length + 1);
        let next = el.firstElementChild;
        if (!next) {
          let cur = el;
          for (;;) {
            const s = cur.nextElementSibling;
            if (s) {
              next = s;
              break;
            }
            cur = cur.parentElement;
            if (!cur) break;
          }
        }
        el = next;
      }
      return h;
    };

    // The same, with the walker's idiom for the style reads.
    window.__walkJsProps = () => {
      let h = 0;
      let el = document.documentElement;
      while (el) {
        const tag = el.localName;
        h = mix(h, tag.length);
        const cs = getComputedStyle(el);
        const display = cs.display;
        const cursor = cs.cursor;
        const position = cs.position;
        h = mix(h, display.length);
        h = mix(h, cursor.length);
        h = mix(h, position.length);
        if (RECT_TAGS.has(tag) || position !== 'static') {
          const r = el.getBoundingClientRect();
          h = mix(h, r.width >>> 0);
          h = mix(h, r.height >>> 0);
        }
        const role = el.getAttribute('role');
        if (role !== null) h = mix(h, role.length + 1);
        const label = el.getAttribute('aria-label');
        if (label !== null) h = mix(h, label.length + 1);
        let next = el.firstElementChild;
        if (!next) {
          let cur = el;
          for (;;) {
            const s = cur.nextElementSibling;
            if (s) {
              next = s;
              break;
            }
            cur = cur.parentElement;
            if (!cur) break;
          }
        }
        el = next;
      }
      return h;
    };

    // The floor of tests/bench/snapshot-bench.mjs.
    window.__floor = () => {
      const all = document.getElementsByTagName('*');
      let sink = 0;
      for (let i = 0; i < all.length; i++) {
        const el = all[i];
        const r = el.getBoundingClientRect();
        const cs = getComputedStyle(el);
        if (cs.display === 'none') sink++;
        sink += r.width > 0 ? 1 : 0;
      }
      return sink;
    };

    // Facts about the page the walks cover.
    let elements = 0;
    let rects = 0;
    for (const el of document.getElementsByTagName('*')) {
      elements++;
      if (RECT_TAGS.has(el.localName) || getComputedStyle(el).position !== 'static') rects++;
    }
    return { loaded, elements, rects };
  }, variants);
}

/** Times one method inside the page. */
function timeIt(page, method) {
  return page.evaluate((method) => {
    const fn =
      method === 'js' ? window.__walkJs : method === 'js-props' ? window.__walkJsProps : method === 'floor' ? window.__floor : window.__websys[method.slice(7, -1)];
    const t0 = performance.now();
    const sum = fn();
    return { ms: performance.now() - t0, sum };
  }, method);
}

// ------------------------------------------------------------------- main
const started = Date.now();
const load0 = os.loadavg();
const server = await startServer(PAGES, routes);
const browser = await launch();
const results = [];
let userAgent = '';
try {
  for (const n of SIZES) {
    const info = generatePageInfo(n, SEED);
    const page = await open(browser.context, `${server.url}/gen?n=${n}&seed=${SEED}`);
    await page.bringToFront();
    userAgent ||= await page.evaluate(() => navigator.userAgent);
    const facts = await setupPage(page, VARIANTS.map((v) => v.name));
    const names = [...VARIANTS.map((v) => `websys[${v.name}]`), 'js', 'js-props', 'floor'];
    const samples = Object.fromEntries(names.map((m) => [m, []]));
    const sums = {};
    process.stderr.write(`n=${n}: ${facts.elements} light-DOM elements, ${facts.rects} with a rect read; ${WARMUP} warm-up + ${RUNS} runs of ${names.join(', ')}\n`);
    for (let it = 0; it < WARMUP + RUNS; it++) {
      for (let k = 0; k < names.length; k++) {
        const m = names[(it + k) % names.length];
        const r = await timeIt(page, m);
        if (it >= WARMUP) samples[m].push(r.ms);
        if (m !== 'floor') {
          if (sums[m] !== undefined && sums[m] !== r.sum) throw new Error(`${m}: checksum changed between runs`);
          sums[m] = r.sum;
        }
      }
      process.stderr.write('.');
    }
    process.stderr.write('\n');
    const distinct = new Set(Object.values(sums));
    if (distinct.size !== 1) throw new Error(`checksums disagree: ${JSON.stringify(sums)}`);
    const ms = Object.fromEntries(names.map((m) => [m, summarise(samples[m])]));
    results.push({ n, seed: SEED, elements_walked: facts.elements, rect_reads: facts.rects, light_dom_elements: info.lightCount, checksum: [...distinct][0], probe_load_ms: facts.loaded, ms });
    await page.close();
  }
} finally {
  await browser.close();
  await server.close();
}
const load1 = os.loadavg();

// ------------------------------------------------------------------ report
const fmt = (x) => (x >= 100 ? String(Math.round(x)) : x.toFixed(2));
// Ratios of medians (the headline) and of minimums (less sensitive to other
// processes on a busy machine: the fastest run is the least disturbed one).
const rows = [['elements', 'method', 'median ms', 'min ms', 'max ms', 'runs', 'µs/element', '÷ js', '÷ js (min)', '÷ floor']];
for (const r of results) {
  for (const [m, s] of Object.entries(r.ms)) {
    rows.push([String(r.elements_walked), m, fmt(s.median), fmt(s.min), fmt(s.max), String(s.n), ((s.median * 1000) / r.elements_walked).toFixed(2), (s.median / r.ms.js.median).toFixed(2), (s.min / r.ms.js.min).toFixed(2), (s.median / r.ms.floor.median).toFixed(2)]);
  }
}
const widths = rows[0].map((_, c) => Math.max(...rows.map((row) => row[c].length)));
const line = (row) => row.map((cell, c) => (c < 2 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  ');
console.log(`\nweb-sys vs JS walker — ${userAgent.match(/Chrome\/[\d.]+/)?.[0] || userAgent}, page main world, ${os.cpus().length} CPUs`);
console.log(`load avg (1/5/15 min): ${load0.map((x) => x.toFixed(2)).join(' ')} at start, ${load1.map((x) => x.toFixed(2)).join(' ')} at end`);
console.log(`probe .wasm (no wasm-opt): ${VARIANTS.map((v) => `${v.name} ${v.wasmBytes} bytes`).join(', ')}\n`);
console.log(line(rows[0]));
console.log(widths.map((w) => '-'.repeat(w)).join('  '));
for (const row of rows.slice(1)) console.log(line(row));
console.log('');
for (const r of results) {
  const ratios = VARIANTS.map((v) => `websys[${v.name}] / js = ${(r.ms[`websys[${v.name}]`].median / r.ms.js.median).toFixed(2)} (min ${(r.ms[`websys[${v.name}]`].min / r.ms.js.min).toFixed(2)})`).join(', ');
  console.log(`n=${r.elements_walked}: ${ratios}; js-props / js = ${(r.ms['js-props'].median / r.ms.js.median).toFixed(2)}; ${r.rect_reads} rect reads; checksums agree (${r.checksum})`);
}
const report = {
  date: new Date().toISOString(),
  user_agent: userAgent,
  node: process.version,
  cpus: os.cpus().length,
  loadavg_start: load0,
  loadavg_end: load1,
  runs: RUNS,
  warmup: WARMUP,
  probe_wasm_bytes: Object.fromEntries(VARIANTS.map((v) => [v.name, v.wasmBytes])),
  results,
  total_s: Math.round((Date.now() - started) / 100) / 10,
};
const outDir = path.join(ROOT, '.bench');
fs.mkdirSync(outDir, { recursive: true });
const outFile = path.join(outDir, 'websys-vs-walker.json');
fs.writeFileSync(outFile, `${JSON.stringify(report, null, 2)}\n`);
console.log(`\nwrote ${path.relative(process.cwd(), outFile) || outFile} in ${report.total_s} s`);
