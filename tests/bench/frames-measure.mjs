// Snapshot time on a page with iframes against the plain-JS floor over the
// same content (docs/benchmarks.md "Iframes in the snapshot"). Not a test:
// prints figures, asserts nothing.
//
//   node bench/frames-measure.mjs [frames=20] [elements per frame=500] [runs=7]
//
// The top page holds `frames` iframes, alternately same-origin
// (127.0.0.1) and cross-origin (localhost, another site: another renderer
// process), each a generated page (tests/lib/generate.mjs) of about
// `elements per frame` elements. Floor: getBoundingClientRect +
// getComputedStyle for every element, summed over the top document and
// every frame (each timed inside its own frame, one after another).
// "Standalone" is the sum of snapshot({frames: false}) taken inside each
// document on its own: the difference to "with frames" is what the frame
// machinery (nonces, messaging, merge) costs.
import { startServer, launch } from '../lib/harness.mjs';
import { generatedRoute } from '../lib/generate.mjs';

const [K = 20, N = 500, RUNS = 7] = process.argv.slice(2).map(Number);
const top = (o2) => `<!doctype html><meta charset="utf-8"><style>iframe{width:600px;height:300px;border:0;display:block}</style>
<h1>Frames bench</h1><button>Top</button>${Array.from({ length: K }, (_, i) => `<iframe src="${i % 2 ? o2 : ''}/gen?n=${N}&seed=${i + 1}"></iframe>`).join('')}`;
const routes = {
  '/gen': generatedRoute(),
  '/top': (req, res, url) => res.writeHead(200, { 'content-type': 'text/html' }).end(top(url.searchParams.get('o2'))),
};
const one = await startServer(undefined, routes);
const two = await startServer(undefined, routes);
const browser = await launch();

const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
const floorIn = (frame) =>
  frame.evaluate(() => {
    const t0 = performance.now();
    const all = document.getElementsByTagName('*');
    let sink = 0;
    for (let i = 0; i < all.length; i++) {
      const r = all[i].getBoundingClientRect();
      if (getComputedStyle(all[i]).display === 'none') sink++;
      sink += r.width > 0 ? 1 : 0;
    }
    return { ms: performance.now() - t0, n: all.length, sink };
  });
const snap = (page, options) =>
  page.evaluate(async (options) => {
    const t0 = performance.now();
    const s = await window.sentience.snapshot(options);
    if (s.status !== 'success') throw new Error(s.error);
    return { ms: performance.now() - t0, elements: s.elements.length, scanned: s.meta.elements_scanned, included: s.frames ? s.frames.included.length : 0, skipped: s.frames ? s.frames.skipped : [] };
  }, options);

try {
  const page = await browser.context.newPage();
  await page.goto(`${one.url}/top?o2=${encodeURIComponent(`http://localhost:${two.port}`)}`, { waitUntil: 'load' });
  await page.waitForFunction(() => typeof window.sentience === 'object');
  await page.waitForTimeout(500);
  await snap(page); // warm-up: engine load, first layout
  const rows = { withFrames: [], topOnly: [], floor: [], standalone: [] };
  let last;
  for (let i = 0; i < RUNS; i++) {
    let floor = 0;
    let n = 0;
    for (const f of page.frames()) {
      const r = await floorIn(f);
      floor += r.ms;
      n += r.n;
    }
    rows.floor.push(floor);
    let alone = 0;
    for (const f of page.frames()) alone += (await snap(f, { frames: false })).ms;
    rows.standalone.push(alone);
    last = await snap(page);
    rows.withFrames.push(last.ms);
    rows.topOnly.push((await snap(page, { frames: false })).ms);
    last.floorElements = n;
  }
  const m = { floor: median(rows.floor), withFrames: median(rows.withFrames), topOnly: median(rows.topOnly), standalone: median(rows.standalone) };
  console.log(`${K} iframes × ~${N} elements (${last.floorElements} elements in all; ${last.scanned} scanned, ${last.included} frames included, ${last.skipped.length} skipped)`);
  console.log(`  floor (sum over frames)      median ${m.floor.toFixed(1)} ms`);
  console.log(`  snapshot with frames         median ${m.withFrames.toFixed(1)} ms  (${(m.withFrames / m.floor).toFixed(2)}× floor)`);
  console.log(`  standalone snapshots, summed  median ${m.standalone.toFixed(1)} ms  (${(m.standalone / m.floor).toFixed(2)}× floor)`);
  console.log(`  snapshot, frames: false      median ${m.topOnly.toFixed(1)} ms`);
  console.log(`  runs: ${RUNS}; samples with frames: ${rows.withFrames.map((x) => x.toFixed(0)).join(', ')}`);
} finally {
  await browser.close();
  await one.close();
  await two.close();
}
