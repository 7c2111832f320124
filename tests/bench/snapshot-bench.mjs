// Snapshot benchmark: window.sentience.snapshot() against the plain-JS floor
// and Playwright's ariaSnapshot(), on generated pages of ~1k / ~10k / ~50k /
// ~100k elements and on the "reach" page (20 iframes, two origins, nested 3
// deep, and 500 shadow roots, half closed), all in ONE browser run so the
// ratios compare like with like; then the tab's memory over repeated
// snapshots.
//
//   node tests/bench/snapshot-bench.mjs            full run (1k, 10k, 50k, 100k, frames)
//   node tests/bench/snapshot-bench.mjs --smoke    1k and frames, 3 iterations (CI)
//   options: --sizes=1000,10000 (or none)  --no-frames  --iterations=15
//            --memory-repeats=30  --no-worker  --no-breakdown
//
// Methods, interleaved within each iteration (their order rotates from one
// iteration to the next, so none always runs first on a cold cache):
//   snapshot  `await window.sentience.snapshot()`, timed in the page with
//             performance.now() (walker + engine + hand-over + JSON.parse of
//             the answer in the page world);
//   floor     one pass over every element reading getBoundingClientRect()
//             and getComputedStyle(el).display, timed in the page: the
//             document, its open shadow roots, and its same-origin iframes
//             (recursively); cross-origin frames are timed the same way
//             inside each frame (Playwright evaluates there) and added. What
//             page JavaScript cannot reach, and so the floor leaves out:
//             closed shadow roots (the snapshot reads them through
//             chrome.dom.openOrClosedShadowRoot);
//   floor_top (frames page) the same pass over the top document and its
//             open shadow roots only, no frames: the like-for-like floor of
//             a snapshot that does not enter frames;
//   aria      `page.locator('body').ariaSnapshot()`, timed from Node (it runs
//             through Playwright's injected script and returns a string);
//   worker    the service-worker engine path: sentienceCall(tab, 'snapshot',
//             null, {path: 'service_worker'}), timed inside the service
//             worker (walker + chunked port transfer + wasm in the worker +
//             reply + JSON.parse in the worker).
// The page is loaded once per size and never changed: none of the methods
// mutates the DOM, so every iteration measures the same, clean layout (and
// Blink's DOM caches stay warm: the table is the warm, steady state). The
// first floor and snapshot calls on the fresh page are reported apart
// ("cold"); they are not in the medians.
//
// After the timed iterations, an optional breakdown times the walker and the
// wasm engine separately inside the extension's isolated world (through a
// CDP session attached only for that phase).
//
// Memory: after the timed iterations, `--memory-repeats` more snapshots are
// taken (each result dropped by the page); the tab's JS heap is read with
// CDP Runtime.getHeapUsage after HeapProfiler.collectGarbage at the start,
// half-way and at the end. The renderer's isolate holds the page's world and
// the extension's isolated world, so a retained copy of every snapshot would
// show as growth between half-way and the end.
//
// Results: a table on stdout and JSON in .bench/snapshot.json.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { ROOT, startServer, launch, open, isolatedWorld, trustOrigins } from '../lib/harness.mjs';
import { generatePageInfo, generatedRoute, framesPageInfo, framesRoutes } from '../lib/generate.mjs';
import { floorPass, floorRoots } from '../lib/floor.mjs';

const args = process.argv.slice(2);
const flag = (name) => args.includes(`--${name}`);
const opt = (name) => {
  const hit = args.find((a) => a.startsWith(`--${name}=`));
  return hit ? hit.slice(name.length + 3) : undefined;
};
const SMOKE = flag('smoke');
const SEED = Number(opt('seed') || 1);
const WITH_WORKER = !flag('no-worker');
const WITH_BREAKDOWN = !flag('no-breakdown') && !SMOKE;
const SIZES = opt('sizes') !== undefined ? (opt('sizes') === 'none' ? [] : opt('sizes').split(',').map(Number)) : SMOKE ? [1000] : [1000, 10000, 50000, 100000];
const WITH_FRAMES = !flag('no-frames');
const WARMUP = Number(opt('warmup') ?? (SMOKE ? 1 : 2));
const itersFor = (n) => Number(opt('iterations') || (SMOKE ? 3 : n >= 100000 ? 5 : n >= 50000 ? 7 : 15));
const memoryRepeatsFor = (n) => Number(opt('memory-repeats') || (SMOKE ? 4 : n >= 50000 ? 16 : 30));
const BREAKDOWN_ITERS = 3;

// ------------------------------------------------------------------ stats
function quantile(sorted, q) {
  // Nearest-rank: the smallest sample with at least q of the samples <= it.
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}
function summarise(samples) {
  const s = [...samples].sort((a, b) => a - b);
  const median = s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  const r = (x) => Math.round(x * 100) / 100;
  return { median: r(median), p95: r(quantile(s, 0.95)), min: r(s[0]), max: r(s[s.length - 1]), n: s.length, samples: s.map(r) };
}

const round2 = (x) => Math.round(x * 100) / 100;

// ---------------------------------------------------------------- methods
async function timeSnapshot(page) {
  return page.evaluate(async () => {
    const t0 = performance.now();
    const snap = await window.sentience.snapshot();
    const ms = performance.now() - t0;
    if (!snap || snap.status !== 'success') throw new Error(`snapshot failed: ${snap && snap.error}`);
    return { ms, elements: snap.elements.length, meta: snap.meta };
  });
}

async function timeFloor(page) {
  let ms = 0;
  let elements = 0;
  let frames = 0;
  for (const frame of floorRoots(page)) {
    const r = await frame.evaluate(floorPass, true);
    ms += r.ms;
    elements += r.elements;
    frames++;
  }
  return { ms, elements, evaluated_in_frames: frames };
}

async function timeFloorTop(page) {
  return page.evaluate(floorPass, false);
}

/** The tab's JS heap (MB) over `repeats` snapshots whose results are dropped. */
async function memoryProbe(page, repeats) {
  const cdp = await page.context().newCDPSession(page);
  try {
    const heap = async () => {
      await cdp.send('HeapProfiler.collectGarbage');
      await cdp.send('HeapProfiler.collectGarbage');
      const { usedSize } = await cdp.send('Runtime.getHeapUsage');
      return round2(usedSize / 1048576);
    };
    const once = () =>
      page.evaluate(async () => {
        const snap = await window.sentience.snapshot();
        if (!snap || snap.status !== 'success') throw new Error(`snapshot failed: ${snap && snap.error}`);
        return snap.elements.length;
      });
    const start = await heap();
    const half = Math.floor(repeats / 2);
    for (let i = 0; i < half; i++) await once();
    const mid = await heap();
    for (let i = half; i < repeats; i++) await once();
    const end = await heap();
    return { repeats, heap_used_mb: { start, after_half: mid, end }, growth_second_half_mb: round2(end - mid), growth_total_mb: round2(end - start) };
  } finally {
    await cdp.detach().catch(() => {});
  }
}

async function timeAria(page) {
  const t0 = performance.now();
  const text = await page.locator('body').ariaSnapshot({ timeout: 180000 });
  return { ms: performance.now() - t0, bytes: Buffer.byteLength(text) };
}

async function timeWorker(worker, url) {
  return worker.evaluate(async (url) => {
    const [tab] = await chrome.tabs.query({ url });
    const t0 = performance.now();
    const snap = await globalThis.sentienceCall(tab.id, 'snapshot', null, { path: 'service_worker' });
    const ms = performance.now() - t0;
    if (!snap || snap.status !== 'success') throw new Error(`service-worker snapshot failed: ${snap && snap.error}`);
    return { ms, elements: snap.elements.length, engine_path: snap.meta.engine_path };
  }, url);
}

/** Walker and engine timed apart, in the extension's isolated world. */
async function breakdown(page, iterations) {
  // The top frame's isolated world (every frame has one; only the top
  // frame's has taken a snapshot, so only there is the engine loaded).
  const world = await isolatedWorld(page);
  if (!world) return null;
  try {
    const expression = `(() => {
      const t0 = performance.now();
      const raw = SentienceWalker.collect();
      const t1 = performance.now();
      // An engine handle of its own, snapshot_id 0: not numbered nor
      // recorded (no page's diff history touched), no wait.
      const engine = new SentienceEngine.Engine('content_script');
      const json = engine.snapshot(raw, 'null', [0, 0, -1, 0, 0], '');
      engine.free();
      const t2 = performance.now();
      JSON.parse(json);
      const t3 = performance.now();
      return JSON.stringify({ collect: t1 - t0, wasm: t2 - t1, parse: t3 - t2, recorded: raw.elements.length, wire_strs_chars: raw.strs.length, json_chars: json.length });
    })()`;
    const runs = [];
    for (let i = 0; i < iterations; i++) {
      try {
        runs.push(JSON.parse(await world.evaluate(expression)));
      } catch (e) {
        return { error: e.message };
      }
    }
    const last = runs[runs.length - 1];
    return {
      walker_collect_ms: summarise(runs.map((r) => r.collect)),
      wasm_engine_ms: summarise(runs.map((r) => r.wasm)),
      json_parse_ms: summarise(runs.map((r) => r.parse)),
      recorded_nodes: last.recorded,
      wire_strs_chars: last.wire_strs_chars,
      json_chars: last.json_chars,
    };
  } finally {
    await world.close();
  }
}

// ------------------------------------------------------------------- main
const started = Date.now();
const wasmPath = path.join(ROOT, 'pkg/sentience_wasm_bg.wasm');
const wasmBytes = fs.statSync(wasmPath).size;
const load0 = os.loadavg();
const server = await startServer(undefined, { '/gen': generatedRoute(), ...framesRoutes(SEED) });
// The frames page's second origin: same routes, another port.
const other = await startServer(undefined, framesRoutes(SEED));
const browser = await launch();
// The benchmark is automation the user allowed: the page API gets the full
// view (every frame, whatever its origin), the work the snapshot was always
// measured doing (docs/api.md "Who may see and do what").
await trustOrigins(browser.worker, [server.url]);
const results = [];
let userAgent = '';
const pages = SIZES.map((n) => {
  const info = generatePageInfo(n, SEED);
  return {
    name: String(n),
    n,
    url: `${server.url}/gen?n=${n}&seed=${SEED}`,
    page: { elements_total: info.count, light_dom_elements: info.lightCount, shadow_dom_elements: info.shadowCount, html_bytes: Buffer.byteLength(info.html) },
  };
});
if (WITH_FRAMES) {
  const info = framesPageInfo(SEED);
  const n = info.top_light_elements + info.top_shadow_elements + info.frame_elements;
  pages.push({ name: 'frames', n, frames: true, url: `${server.url}/bench-frames?b=${encodeURIComponent(other.url)}`, page: { elements_total: n, ...info } });
}
try {
  for (const spec of pages) {
    const { n, url } = spec;
    const tLoad = performance.now();
    const page = await open(browser.context, url);
    const loadMs = performance.now() - tLoad;
    await page.bringToFront();
    userAgent ||= await page.evaluate(() => navigator.userAgent);
    // Cold: the first calls on the freshly loaded page (one sample each).
    // The floor goes first so that it, not the snapshot, absorbs any layout
    // still pending after 'load'; the snapshot then pays its own first-call
    // costs (engine compile, isolated-world wrappers, per-control `labels`
    // lists that Blink builds by walking the document and caches until the
    // DOM changes).
    const cold = { floor_ms: round2((await timeFloor(page)).ms), snapshot_ms: round2((await timeSnapshot(page)).ms) };
    const methods = { snapshot: (p) => timeSnapshot(p), floor: (p) => timeFloor(p), aria: (p) => timeAria(p) };
    if (spec.frames) methods.floor_top = (p) => timeFloorTop(p);
    if (WITH_WORKER) methods.worker = (p) => timeWorker(browser.worker, p.url());
    const names = Object.keys(methods);
    const samples = Object.fromEntries(names.map((m) => [m, []]));
    const last = {};
    const iterations = itersFor(n);
    process.stderr.write(`${spec.name}: loaded in ${Math.round(loadMs)} ms; ${WARMUP} warm-up + ${iterations} iterations of ${names.join(', ')}\n`);
    for (let it = 0; it < WARMUP + iterations; it++) {
      // Rotate the order each iteration.
      for (let k = 0; k < names.length; k++) {
        const m = names[(it + k) % names.length];
        const r = await methods[m](page);
        last[m] = r;
        if (it >= WARMUP) samples[m].push(r.ms);
      }
      process.stderr.write('.');
    }
    process.stderr.write('\n');
    const stats = Object.fromEntries(names.map((m) => [m, summarise(samples[m])]));
    const ratio = (a, b) => (stats[a] && stats[b] ? Math.round((stats[a].median / stats[b].median) * 100) / 100 : null);
    const entry = {
      name: spec.name,
      n,
      seed: SEED,
      page: { ...spec.page, load_ms: Math.round(loadMs), frames_loaded: page.frames().length - 1 },
      floor_elements: last.floor.elements,
      floor_evaluated_in_frames: last.floor.evaluated_in_frames,
      snapshot_meta: last.snapshot.meta,
      snapshot_elements: last.snapshot.elements,
      aria_snapshot_bytes: last.aria.bytes,
      cold_first_call: cold,
      worker_elements: last.worker ? last.worker.elements : null,
      ms: stats,
      ratios_of_medians: {
        snapshot_over_floor: ratio('snapshot', 'floor'),
        aria_over_floor: ratio('aria', 'floor'),
        worker_over_floor: ratio('worker', 'floor'),
        snapshot_over_aria: ratio('snapshot', 'aria'),
        snapshot_over_floor_top: ratio('snapshot', 'floor_top'),
      },
    };
    if (WITH_BREAKDOWN) entry.breakdown_isolated_world = await breakdown(page, BREAKDOWN_ITERS);
    process.stderr.write(`${spec.name}: memory over ${memoryRepeatsFor(n)} snapshots\n`);
    entry.memory = await memoryProbe(page, memoryRepeatsFor(n));
    results.push(entry);
    await page.close();
  }
} finally {
  await browser.close();
  await server.close();
  await other.close();
}

// ------------------------------------------------------------------ report
const fmt = (x) => (x === null || x === undefined ? '-' : x >= 100 ? String(Math.round(x)) : x.toFixed(1));
const rows = [['page', 'method', 'median ms', 'p95 ms', 'min ms', 'max ms', 'runs', '÷ floor (median)']];
for (const r of results) {
  for (const [m, s] of Object.entries(r.ms)) {
    rows.push([r.name, m, fmt(s.median), fmt(s.p95), fmt(s.min), fmt(s.max), String(s.n), m === 'floor' ? '1.00' : (s.median / r.ms.floor.median).toFixed(2)]);
  }
}
const widths = rows[0].map((_, c) => Math.max(...rows.map((row) => row[c].length)));
const line = (row) => row.map((cell, c) => (c < 2 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  ');
console.log(`\nsentience snapshot bench${SMOKE ? ' (smoke)' : ''} — ${userAgent.match(/Chrome\/[\d.]+/)?.[0] || userAgent}, ${os.cpus().length} CPUs, load avg ${load0[0].toFixed(2)} at start`);
console.log(`pkg/sentience_wasm_bg.wasm: ${wasmBytes} bytes\n`);
console.log(line(rows[0]));
console.log(widths.map((w) => '-'.repeat(w)).join('  '));
for (const row of rows.slice(1)) console.log(line(row));
console.log('');
for (const r of results) {
  const m = r.snapshot_meta;
  if (r.page.frames) {
    const p = r.page;
    console.log(`frames: ${p.frames} iframes (${p.frames_other_origin} from a second origin, ${p.frames_loaded} loaded, nested ${p.max_frame_depth} deep), ${p.shadow_roots} shadow roots (${p.closed_shadow_roots} closed); ${p.top_light_elements} + ${p.top_shadow_elements} shadow elements on top, ${p.frame_elements} in frames`);
    console.log(`        floor read ${r.floor_elements} elements (evaluated in ${r.floor_evaluated_in_frames} frames; ${p.closed_shadow_elements} in closed shadow roots are out of page JS's reach); snapshot ÷ floor_top ${r.ratios_of_medians.snapshot_over_floor_top}`);
  }
  console.log(`${r.name}: ${r.page.light_dom_elements ?? r.page.top_light_elements} light-DOM + ${r.page.shadow_dom_elements ?? r.page.top_shadow_elements} shadow elements; snapshot scanned ${m.elements_scanned}, returned ${r.snapshot_elements} (candidates ${m.candidates}); worker returned ${r.worker_elements ?? '-'}; ariaSnapshot ${r.aria_snapshot_bytes} bytes; page load ${r.page.load_ms} ms`);
  console.log(`        first calls on the fresh page: floor ${fmt(r.cold_first_call.floor_ms)} ms, then snapshot ${fmt(r.cold_first_call.snapshot_ms)} ms`);
  const b = r.breakdown_isolated_world;
  if (b && !b.error) {
    console.log(`        breakdown (isolated world, median of ${BREAKDOWN_ITERS}): walker collect ${fmt(b.walker_collect_ms.median)} ms (${b.recorded_nodes} nodes recorded), wasm engine ${fmt(b.wasm_engine_ms.median)} ms, JSON.parse ${fmt(b.json_parse_ms.median)} ms (${b.json_chars} chars)`);
  } else if (b) console.log(`        breakdown failed: ${b.error}`);
  const mem = r.memory;
  console.log(`        JS heap over ${mem.repeats} more snapshots (GC forced): ${mem.heap_used_mb.start} → ${mem.heap_used_mb.after_half} → ${mem.heap_used_mb.end} MB (second half ${mem.growth_second_half_mb >= 0 ? '+' : ''}${mem.growth_second_half_mb} MB)`);
}
const load1 = os.loadavg();
const report = {
  date: new Date().toISOString(),
  smoke: SMOKE,
  user_agent: userAgent,
  node: process.version,
  cpus: os.cpus().length,
  loadavg_start: load0,
  loadavg_end: load1,
  wasm_bytes: wasmBytes,
  warmup: WARMUP,
  method_notes: {
    snapshot: 'await window.sentience.snapshot(), performance.now() in the page (main world)',
    floor: 'getBoundingClientRect + getComputedStyle(el).display for every element of the document, its open shadow roots and same-origin iframes; cross-origin frames timed in themselves and added; closed shadow roots unreachable; performance.now() in each frame',
    floor_top: 'the same pass over the top document and its open shadow roots only (frames page)',
    memory: 'CDP Runtime.getHeapUsage().usedSize after HeapProfiler.collectGarbage x2, before / half-way / after the repeated snapshots',
    aria: "page.locator('body').ariaSnapshot(), performance.now() in Node",
    worker: "sentienceCall(tab, 'snapshot', null, {path:'service_worker'}), performance.now() in the service worker",
    p95: 'nearest-rank',
  },
  results,
  total_s: Math.round((Date.now() - started) / 100) / 10,
};
const outDir = path.join(ROOT, '.bench');
fs.mkdirSync(outDir, { recursive: true });
const outFile = path.join(outDir, SMOKE ? 'snapshot-smoke.json' : 'snapshot.json');
fs.writeFileSync(outFile, `${JSON.stringify(report, null, 2)}\n`);
console.log(`\nwrote ${path.relative(process.cwd(), outFile) || outFile} in ${report.total_s} s (load avg ${load1[0].toFixed(2)} at end)`);
