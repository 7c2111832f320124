// What merely being installed costs the pages a person visits
// (docs/benchmarks.md "What being installed costs"): the 27 real saved pages
// of tests/lib/real-pages.mjs loaded with no snapshot ever requested, in
// three browsers side by side — no extension, this one, and the reference
// extension the snapshot contract comes from (tests/lib/reference-extension.mjs)
// — alternating page by page and run by run, so the machine's load falls on
// all three alike.
//
//   bash pkg-scripts/bench.sh install-cost [--runs=5] [--page=NAME] [--settle-ms=500] [--before=DIR]
//
// --before=DIR adds a fourth browser with another build of this extension
// (an unpacked checkout, e.g. a worktree of main with its pkg/ built), in
// the same alternation: a change's before and after side by side.
//
// Per load (a fresh tab, 'load', then --settle-ms for scripts that run at
// document_idle or on a timer), from the page's renderer through CDP:
//   script  Performance.getMetrics ScriptDuration: JavaScript run for the
//           page, every world (the page's, the extensions' isolated and
//           MAIN-world scripts);
//   heap    JSHeapUsedSize after a full garbage collection (the page's and
//           the extensions' live objects);
//   load    the load event's time since navigation start
//           (PerformanceNavigationTiming.loadEventStart).
// Medians per page over --runs loads; "added" is a browser's median less
// the no-extension median of the same page; the summary gives the median
// and the worst page of what each extension adds.
//
// Target (issue 27): script time and heap added per page no more than the
// reference extension's, load time added at most 5 ms.
//
// Results: a table on stdout and JSON in .bench/install-cost.json.
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, startServer, launch } from '../lib/harness.mjs';
import { PAGES as TASK_PAGES, MORE_PAGES, THIRD_PARTY_CUT, fetchPages, pageRoutes } from '../lib/real-pages.mjs';
import { referenceExtension } from '../lib/reference-extension.mjs';

const PAGES = [...TASK_PAGES, ...MORE_PAGES];
const args = process.argv.slice(2);
const arg = (name, dflt) => {
  const a = args.find((x) => x.startsWith(`--${name}=`));
  return a ? a.slice(name.length + 3) : dflt;
};
const RUNS = Number(arg('runs', 5));
const SETTLE_MS = Number(arg('settle-ms', 500));
const ONLY = arg('page', null);
const BEFORE = arg('before', null);

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : NaN;
};
const round = (x, d = 2) => Math.round(x * 10 ** d) / 10 ** d;

/** One load of `url` in a fresh tab of `context`: {script_ms, heap_mb, load_ms}. */
async function measure(context, url) {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  try {
    await cdp.send('Performance.enable');
    await page.goto(url, { waitUntil: 'load', timeout: 60000 });
    await page.waitForTimeout(SETTLE_MS);
    await cdp.send('HeapProfiler.collectGarbage');
    const { metrics } = await cdp.send('Performance.getMetrics');
    const m = Object.fromEntries(metrics.map((x) => [x.name, x.value]));
    const load = await page.evaluate(() => performance.getEntriesByType('navigation')[0].loadEventStart);
    return { script_ms: m.ScriptDuration * 1000, heap_mb: m.JSHeapUsedSize / 1048576, load_ms: load };
  } finally {
    await cdp.detach().catch(() => {});
    await page.close();
  }
}

const dir = fetchPages(PAGES);
const reference = referenceExtension();
const server = await startServer(dir, pageRoutes(dir, PAGES));
const BROWSERS = ['none', 'ours', 'reference', ...(BEFORE ? ['before'] : [])];
const ADDED = BROWSERS.filter((b) => b !== 'none');
/** @type {Record<string, Awaited<ReturnType<typeof launch>>>} */
const browsers = {
  none: await launch({ args: THIRD_PARTY_CUT, extension: null }),
  ours: await launch({ args: THIRD_PARTY_CUT }),
  reference: await launch({ args: THIRD_PARTY_CUT, extension: reference }),
};
if (BEFORE) browsers.before = await launch({ args: THIRD_PARTY_CUT, extension: path.resolve(BEFORE) });
const rows = [];
try {
  // Each browser's first load pays for its own start-up (caches, the
  // extension's service worker): one throwaway load each.
  for (const b of BROWSERS) await measure(browsers[b].context, `${server.url}/${PAGES[0].name}.html`);
  for (const p of PAGES) {
    if (ONLY && p.name !== ONLY) continue;
    const samples = Object.fromEntries(BROWSERS.map((b) => [b, []]));
    for (let r = 0; r < RUNS; r++) {
      // A different browser first on each run.
      for (let k = 0; k < BROWSERS.length; k++) {
        const b = BROWSERS[(r + k) % BROWSERS.length];
        samples[b].push(await measure(browsers[b].context, `${server.url}/${p.name}.html`));
      }
    }
    const med = (b, key) => median(samples[b].map((s) => s[key]));
    const row = { page: p.name };
    for (const b of BROWSERS) for (const key of ['script_ms', 'heap_mb', 'load_ms']) row[`${b}_${key}`] = round(med(b, key), 3);
    for (const b of ADDED) for (const key of ['script_ms', 'heap_mb', 'load_ms']) row[`${b}_added_${key}`] = round(row[`${b}_${key}`] - row[`none_${key}`], 3);
    rows.push(row);
    process.stderr.write(`${p.name} `);
  }
} finally {
  process.stderr.write('\n');
  for (const b of BROWSERS) await browsers[b].close();
  await server.close();
}

const pad = (s, n) => String(s).padEnd(n);
const num = (x, d = 1) => x.toFixed(d);
console.log(`${pad('page', 20)}${pad('none: script ms', 17)}${pad('heap MB', 9)}${pad('load ms', 9)}| ${pad('ours added: script', 20)}${pad('heap', 8)}${pad('load', 8)}| ${pad('reference added: script', 25)}${pad('heap', 8)}load`);
for (const r of rows) {
  console.log(
    `${pad(r.page, 20)}${pad(num(r.none_script_ms), 17)}${pad(num(r.none_heap_mb, 2), 9)}${pad(num(r.none_load_ms), 9)}| ${pad(num(r.ours_added_script_ms), 20)}${pad(num(r.ours_added_heap_mb, 2), 8)}${pad(num(r.ours_added_load_ms), 8)}| ${pad(num(r.reference_added_script_ms), 25)}${pad(num(r.reference_added_heap_mb, 2), 8)}${num(r.reference_added_load_ms)}`,
  );
}
const summary = { pages: rows.length, runs: RUNS, settle_ms: SETTLE_MS, before: BEFORE };
for (const b of ADDED) {
  for (const key of ['script_ms', 'heap_mb', 'load_ms']) {
    const added = rows.map((r) => r[`${b}_added_${key}`]);
    summary[`${b}_added_${key}_median`] = round(median(added), 3);
    summary[`${b}_added_${key}_worst`] = round(Math.max(...added), 3);
  }
}
const met = {
  script: summary.ours_added_script_ms_median <= summary.reference_added_script_ms_median,
  heap: summary.ours_added_heap_mb_median <= summary.reference_added_heap_mb_median,
  load: summary.ours_added_load_ms_median <= 5,
};
summary.target_met = met;
console.log(
  `\nmedian added per page (worst page): ours ${summary.ours_added_script_ms_median} ms script (${summary.ours_added_script_ms_worst}), ${summary.ours_added_heap_mb_median} MB heap (${summary.ours_added_heap_mb_worst}), ${summary.ours_added_load_ms_median} ms to load (${summary.ours_added_load_ms_worst}); ` +
    `reference ${summary.reference_added_script_ms_median} ms script (${summary.reference_added_script_ms_worst}), ${summary.reference_added_heap_mb_median} MB heap (${summary.reference_added_heap_mb_worst}), ${summary.reference_added_load_ms_median} ms to load (${summary.reference_added_load_ms_worst})`,
);
if (BEFORE) {
  console.log(
    `before (${BEFORE}): ${summary.before_added_script_ms_median} ms script (${summary.before_added_script_ms_worst}), ${summary.before_added_heap_mb_median} MB heap (${summary.before_added_heap_mb_worst}), ${summary.before_added_load_ms_median} ms to load (${summary.before_added_load_ms_worst})`,
  );
}
console.log(`target (script and heap ≤ the reference's, load ≤ 5 ms): script ${met.script ? 'met' : 'NOT met'}, heap ${met.heap ? 'met' : 'NOT met'}, load ${met.load ? 'met' : 'NOT met'}`);
fs.mkdirSync(path.join(ROOT, '.bench'), { recursive: true });
fs.writeFileSync(path.join(ROOT, '.bench/install-cost.json'), JSON.stringify({ summary, rows }, null, 2));
