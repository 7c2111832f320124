// The snapshot on real saved pages (docs/benchmarks.md "Real pages"): per page the plain-JS floor,
// the first ("cold") snapshot after the page loads and warm snapshots, the
// frames skipped and why, and the agreement with Chromium's own
// accessibility tree (recall of its visible actionable nodes, role and name
// agreement, elements per actionable node).
//
//   bash pkg-scripts/bench.sh real-pages [--iterations=9] [--cold-runs=3] [--page=NAME] [--misses]
//
// Pages: the 27 of tests/lib/real-pages.mjs, PAGES and MORE_PAGES (pinned, checksummed PyPI sdists, cached
// in .bench/real-pages/), served on 127.0.0.1 (port 0) to a Chromium in
// which every other host name is unresolvable (third-party requests fail at
// once, as behind a blocker or on a flaky network: their iframes become
// error pages).
//
// Times (all measured in the page with performance.now()):
//   floor     one pass over every element reading getBoundingClientRect()
//             and getComputedStyle(el).display, as in snapshot-bench.mjs
//             (the document, its open shadow roots and same-origin frames;
//             other-origin frames timed inside themselves and added);
//   cold      the first window.sentience.snapshot() on a freshly loaded
//             page (a fresh tab), right after 'load'; median of
//             --cold-runs loads. The document holds only the facade and
//             the bridge until then: this first call has the service worker
//             inject the content runtime, and the snapshot is computed by
//             the service worker's engine while the page's own loads
//             (docs/architecture.md "Loaded on first use"). The run starts
//             with one snapshot on a page, as any agent's session has taken
//             one before (the service worker and its engine are running);
//   warm      medians of --iterations snapshots and floors, interleaved,
//             after 2 warm-up rounds;
//   frames    what the page's frames cost a warm snapshot: its median less
//             that of snapshot({frames: false}) (interleaved too); a page
//             whose frames are all dead should cost ~0.
//   cold floor the first floor pass on another fresh load of the page (it
//             pays what any first pass pays: style and layout pending);
// `cold÷fl` divides the cold snapshot by the cold floor (first pass against
// first pass), `warm÷fl` the warm medians.
//
// Agreement with Chromium (CDP Accessibility.getFullAXTree of the top
// document): its non-ignored nodes with an actionable role (link, button,
// textbox, searchbox, checkbox, radio, switch, combobox, listbox, slider,
// spinbutton, menuitem*, tab, DisclosureTriangle) whose DOM node has a box
// of at least 1×1 px and computed visibility `visible`. One counts as found
// when a snapshot element is that node, or its ancestor or descendant (a
// card link listed by its inner heading link, or a button by its label).
//   recall          found ÷ Chromium's visible actionable nodes;
//   role / name     of the snapshot elements that are exactly an AX node:
//                   role mapped as in tests/e2e/ax-agreement.test.mjs, name
//                   equal after whitespace folding (first 100 characters);
//   elems/node      snapshot elements of actionable roles that are, contain
//                   or lie inside a found node ÷ found nodes (duplicates).
// --misses prints each page's missed nodes (role, name, tag and class).
//
// Results: a table on stdout and JSON in .bench/real-pages-snapshot.json.
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, startServer, launch, open, trustOrigins } from '../lib/harness.mjs';
import { axRecall as agreement } from '../lib/ax-recall.mjs';
import { PAGES as TASK_PAGES, MORE_PAGES, THIRD_PARTY_CUT, fetchPages, pageRoutes } from '../lib/real-pages.mjs';
import { floorPass, floorRoots } from '../lib/floor.mjs';

const PAGES = [...TASK_PAGES, ...MORE_PAGES];

const args = process.argv.slice(2);
const arg = (name, dflt) => {
  const a = args.find((x) => x.startsWith(`--${name}=`));
  return a ? a.slice(name.length + 3) : dflt;
};
const ITERATIONS = Number(arg('iterations', 9));
const COLD_RUNS = Number(arg('cold-runs', 3));
const ONLY = arg('page', null);
const MISSES = args.includes('--misses');
const WARMUP = 2;

const round2 = (x) => Math.round(x * 100) / 100;
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : NaN;
};

async function timeFloor(page) {
  let ms = 0;
  for (const frame of floorRoots(page)) {
    const r = await Promise.race([frame.evaluate(floorPass, true).catch(() => ({ ms: 0 })), new Promise((res) => setTimeout(() => res({ ms: 0 }), 2000))]);
    ms += r.ms;
  }
  return ms;
}

function timeSnapshot(page, options) {
  return page.evaluate(async (options) => {
    const t0 = performance.now();
    const snap = await window.sentience.snapshot(options);
    const ms = performance.now() - t0;
    if (!snap || snap.status !== 'success') throw new Error(`snapshot failed: ${snap && snap.error}`);
    return { ms, elements: snap.elements.length, frames: snap.frames };
  }, options);
}

const dir = fetchPages(PAGES);
const server = await startServer(dir, pageRoutes(dir, PAGES));
const browser = await launch({ args: THIRD_PARTY_CUT });
// The view an agent gets (every frame, whatever its origin: the frames that
// never load are mostly third-party); `--page-scope` measures what a page
// script of the site gets instead (docs/api.md "Who may see and do what").
if (!process.argv.includes('--page-scope')) await trustOrigins(browser.worker, [server.url]);
const rows = [];
try {
  // One snapshot first, as in any agent's session: the service worker and
  // its engine are running (they compute each document's first snapshot).
  const primer = await open(browser.context, `${server.url}/${PAGES[0].name}.html`);
  await timeSnapshot(primer);
  await primer.close();
  for (const p of PAGES) {
    if (ONLY && p.name !== ONLY) continue;
    // Cold floor: the first pass over a freshly loaded page (it pays what
    // any first pass pays: style and layout still pending after 'load');
    // cold snapshot: the first snapshot on other fresh loads. Medians of
    // --cold-runs loads each.
    const coldFloors = [];
    const colds = [];
    for (let i = 0; i < COLD_RUNS; i++) {
      const first = await open(browser.context, `${server.url}/${p.name}.html`);
      await first.bringToFront();
      coldFloors.push(await timeFloor(first));
      await first.close();
      const again = await open(browser.context, `${server.url}/${p.name}.html`);
      await again.bringToFront();
      colds.push(await timeSnapshot(again));
      await again.close();
    }
    const coldFloor = median(coldFloors);
    const cold = { ...colds[0], ms: median(colds.map((c) => c.ms)) };
    const page = await open(browser.context, `${server.url}/${p.name}.html`);
    await page.bringToFront();
    try {
      const floors = [];
      const snaps = [];
      const tops = [];
      let lastFrames = cold.frames;
      for (let it = 0; it < WARMUP + ITERATIONS; it++) {
        const f = await timeFloor(page);
        const s = await timeSnapshot(page);
        const top = await timeSnapshot(page, { frames: false });
        lastFrames = s.frames;
        if (it >= WARMUP) {
          floors.push(f);
          snaps.push(s.ms);
          tops.push(top.ms);
        }
      }
      const ag = await agreement(page);
      const floor = median(floors);
      const warm = median(snaps);
      const skipped = {};
      for (const s of (lastFrames && lastFrames.skipped) || []) skipped[s.reason] = (skipped[s.reason] || 0) + 1;
      const coldSkipped = {};
      for (const s of (cold.frames && cold.frames.skipped) || []) coldSkipped[s.reason] = (coldSkipped[s.reason] || 0) + 1;
      rows.push({
        page: p.name,
        elements: cold.elements,
        floor_cold_ms: round2(coldFloor),
        floor_ms: round2(floor),
        cold_ms: round2(cold.ms),
        cold_runs_ms: colds.map((c) => round2(c.ms)),
        warm_ms: round2(warm),
        warm_no_frames_ms: round2(median(tops)),
        frames_cost_ms: round2(warm - median(tops)),
        cold_over_floor: round2(cold.ms / coldFloor),
        warm_over_floor: round2(warm / floor),
        frames_included: ((lastFrames && lastFrames.included) || []).length,
        frames_skipped_cold: coldSkipped,
        frames_skipped: skipped,
        ax_visible_actionable: ag.total,
        found: ag.found,
        recall: ag.total ? ag.found / ag.total : 1,
        role_agreement: ag.exact ? ag.role_ok / ag.exact : 1,
        name_agreement: ag.exact ? ag.name_ok / ag.exact : 1,
        elements_per_node: ag.found ? ag.dup_elements / ag.found : 1,
        misses: ag.misses,
      });
      process.stderr.write(`${p.name} `);
    } finally {
      await page.close();
    }
  }
} finally {
  process.stderr.write('\n');
  await browser.close();
  await server.close();
}

const pad = (s, n) => String(s).padEnd(n);
const pct = (x) => `${(x * 100).toFixed(1)}%`;
const fmtSkips = (o) => Object.entries(o).map(([k, v]) => `${v} ${k}`).join(', ') || '-';
console.log(`${pad('page', 20)}${pad('elems', 7)}${pad('fl cold', 8)}${pad('floor', 8)}${pad('cold', 8)}${pad('warm', 8)}${pad('frames', 8)}${pad('cold÷fl', 9)}${pad('warm÷fl', 9)}${pad('AX', 6)}${pad('recall', 8)}${pad('role', 8)}${pad('name', 8)}${pad('el/node', 9)}frames skipped`);
for (const r of rows) {
  console.log(
    `${pad(r.page, 20)}${pad(r.elements, 7)}${pad(r.floor_cold_ms.toFixed(1), 8)}${pad(r.floor_ms.toFixed(1), 8)}${pad(r.cold_ms.toFixed(1), 8)}${pad(r.warm_ms.toFixed(1), 8)}${pad(r.frames_cost_ms.toFixed(1), 8)}${pad(r.cold_over_floor.toFixed(2), 9)}${pad(r.warm_over_floor.toFixed(2), 9)}${pad(r.ax_visible_actionable, 6)}${pad(pct(r.recall), 8)}${pad(pct(r.role_agreement), 8)}${pad(pct(r.name_agreement), 8)}${pad(r.elements_per_node.toFixed(2), 9)}${fmtSkips(r.frames_skipped)}`,
  );
  if (MISSES) for (const m of r.misses) console.log(`    missed ${m.role} "${m.name}" <${m.tag} class="${m.cls}"> y=${m.y}`);
}
const sum = (k) => rows.reduce((n, r) => n + r[k], 0);
const total = sum('ax_visible_actionable');
const summary = {
  pages: rows.length,
  median_cold_over_floor: round2(median(rows.map((r) => r.cold_over_floor))),
  median_warm_over_floor: round2(median(rows.map((r) => r.warm_over_floor))),
  median_cold_ms: round2(median(rows.map((r) => r.cold_ms))),
  median_warm_ms: round2(median(rows.map((r) => r.warm_ms))),
  max_dead_frames_cost_ms: round2(Math.max(0, ...rows.filter((r) => !r.frames_included && Object.keys(r.frames_skipped).length).map((r) => r.frames_cost_ms))),
  median_floor_ms: round2(median(rows.map((r) => r.floor_ms))),
  median_cold_floor_ms: round2(median(rows.map((r) => r.floor_cold_ms))),
  recall: total ? sum('found') / total : 1,
  worst_page_recall: Math.min(...rows.map((r) => r.recall)),
  elements_per_node: sum('found') ? rows.reduce((n, r) => n + r.elements_per_node * r.found, 0) / sum('found') : 1,
};
console.log(
  `\nmedians: cold floor ${summary.median_cold_floor_ms} ms, cold snapshot ${summary.median_cold_ms} ms (${summary.median_cold_over_floor}× cold floor); floor ${summary.median_floor_ms} ms, warm ${summary.median_warm_ms} ms (${summary.median_warm_over_floor}× floor); pages with only dead frames: at most ${summary.max_dead_frames_cost_ms} ms for their frames; recall ${pct(summary.recall)} (worst page ${pct(summary.worst_page_recall)}), ${summary.elements_per_node.toFixed(2)} elements per node`,
);
fs.mkdirSync(path.join(ROOT, '.bench'), { recursive: true });
fs.writeFileSync(path.join(ROOT, '.bench/real-pages-snapshot.json'), JSON.stringify({ iterations: ITERATIONS, summary, rows }, null, 2));
