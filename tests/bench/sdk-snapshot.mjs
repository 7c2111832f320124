// The SDK packages' snapshot() against a bare page.evaluate, Playwright's
// ariaSnapshot() and the reference package's snapshot(browser)
// (docs/benchmarks.md "SDK packages"), on the same pages in one run:
//
//   bash pkg-scripts/bench.sh sdk [--runs=5] [--pages=N] [--no-reference]
//
// Pages: the 10,000-element generated page (tests/lib/generate.mjs, seed 1)
// and the 27 real saved pages (tests/lib/real-pages.mjs, cached in
// .bench/real-pages/), served on 127.0.0.1 (port 0) to Chromiums in which
// every other host name is unresolvable (THIRD_PARTY_CUT, for every browser
// alike).
//
// Three processes in turn, each its own Chromium (/usr/bin/chromium):
//   TypeScript (here): sentience-playwright's snapshot(page) (clients/playwright/dist)
//     vs page.evaluate(() => window.sentience.snapshot()) vs ariaSnapshot();
//   Python (clients/python/.venv, the installed wheel): sentience_sdk.snapshot(page)
//     vs the same bare evaluate (object, and JSON text + json.loads) vs aria_snapshot();
//   the reference (.bench/ref-venv: sentienceapi==0.99.7 and its own
//     extension, from the registry): snapshot(browser) with its defaults,
//     and a bare evaluate of its window.sentience.snapshot().
// Each figure: the median of --runs calls after one warm-up call, in ms, as
// the caller sees it (wall time around the call). Results: stdout and
// .bench/sdk-snapshot.json.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { ROOT, startServer } from '../lib/harness.mjs';
import { generatedRoute } from '../lib/generate.mjs';
import { PAGES, MORE_PAGES, THIRD_PARTY_CUT, fetchPages, pageRoutes } from '../lib/real-pages.mjs';

const argv = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=')).map(([k, v]) => [k, v ?? true]));
const RUNS = Number(argv.runs || 5);
const REF_SPEC = 'sentienceapi==0.99.7';
const REF_VENV = path.join(ROOT, '.bench/ref-venv');
const OURS_PY = path.join(ROOT, 'clients/python/.venv/bin/python');

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

function refVenv() {
  const py = path.join(REF_VENV, 'bin/python');
  const ok = fs.existsSync(py) && spawnSync(py, ['-c', 'import sentience'], { stdio: 'ignore' }).status === 0;
  if (ok) return py;
  console.error(`making ${REF_VENV} (${REF_SPEC} from the registry; once)`);
  fs.rmSync(REF_VENV, { recursive: true, force: true });
  execFileSync('python3', ['-m', 'venv', REF_VENV], { stdio: 'inherit' });
  execFileSync(path.join(REF_VENV, 'bin/pip'), ['install', '-q', '--disable-pip-version-check', REF_SPEC], { stdio: 'inherit' });
  return py;
}

const list = [...PAGES, ...MORE_PAGES].slice(0, argv.pages ? Number(argv.pages) : undefined);
const dir = fetchPages([...PAGES, ...MORE_PAGES]);
const server = await startServer(undefined, { '/gen': generatedRoute(), ...pageRoutes(dir, [...PAGES, ...MORE_PAGES]) });
const urls = [['generated-10k', `${server.url}/gen?n=10000&seed=1`], ...list.map((p) => [p.name, `${server.url}/${p.name}.html`])];
fs.mkdirSync(path.join(ROOT, '.bench'), { recursive: true });
const urlFile = path.join(ROOT, '.bench/sdk-urls.json');
fs.writeFileSync(urlFile, JSON.stringify(urls));

const results = {};
const merge = (part) => {
  for (const [page, methods] of Object.entries(part)) results[page] = { ...(results[page] || {}), ...methods };
};

// ---- TypeScript (this process)
{
  const s = await import(path.join(ROOT, 'clients/playwright/dist/index.js'));
  const browser = await s.launch({ args: THIRD_PARTY_CUT });
  const page = browser.page;
  const timed = async (fn) => {
    await fn();
    const out = [];
    for (let i = 0; i < RUNS; i++) {
      const t = performance.now();
      await fn();
      out.push(performance.now() - t);
    }
    return out;
  };
  for (const [name, url] of urls) {
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForFunction(() => typeof window.sentience === 'object');
    merge({
      [name]: {
        ts_bare_evaluate: await timed(() => page.evaluate(() => window.sentience.snapshot())),
        ts_sdk_snapshot: await timed(() => s.snapshot(page)),
        ts_aria_snapshot: await timed(() => page.locator('body').ariaSnapshot()),
      },
    });
    // The package's own layer, without the browser (as in the Python run).
    const text = await page.evaluate(async () => JSON.stringify(await window.sentience.snapshot()));
    const canned = { evaluate: async () => text };
    const layerRuns = Math.max(RUNS, 20);
    const layer = async (fn) => {
      await fn();
      const out = [];
      for (let i = 0; i < layerRuns; i++) {
        const t = performance.now();
        await fn();
        out.push(performance.now() - t);
      }
      return out;
    };
    merge({ [name]: { ts_layer_json_parse: await layer(async () => JSON.parse(text)), ts_layer_sdk_snapshot: await layer(() => s.snapshot(canned)) } });
    console.error(`  typescript ${name}: done`);
  }
  await browser.close();
}

// ---- Python: ours, then the reference
// (Asynchronously: this process serves the pages meanwhile.)
function python(py, impl) {
  const args = [path.join(ROOT, 'clients/python/bench/snapshot_bench.py'), '--impl', impl, '--urls', urlFile, '--runs', String(RUNS), ...THIRD_PARTY_CUT.map((a) => `--arg=${a}`)];
  return new Promise((resolve, reject) => {
    const p = spawn(py, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    p.stdout.on('data', (d) => (out += d));
    p.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`${impl} Python benchmark failed (${code})`))));
  });
}
merge(await python(OURS_PY, 'ours'));
if (!argv['no-reference']) merge(await python(refVenv(), 'reference'));
await server.close();

// ---- Report
const cols = [
  ['elements', (r) => r.elements],
  ['py bare', (r) => median(r.bare_evaluate)],
  ['py sdk', (r) => median(r.sdk_snapshot)],
  ['py ovh', (r) => median(r.sdk_snapshot) - median(r.bare_evaluate)],
  ['py ovh json', (r) => median(r.sdk_snapshot) - median(r.bare_evaluate_json)],
  ['py all ids', (r) => median(r.sdk_snapshot_read_all)],
  ['py aria', (r) => median(r.aria_snapshot)],
  ['ts bare', (r) => median(r.ts_bare_evaluate)],
  ['ts sdk', (r) => median(r.ts_sdk_snapshot)],
  ['ts ovh', (r) => median(r.ts_sdk_snapshot) - median(r.ts_bare_evaluate)],
  ['ts aria', (r) => median(r.ts_aria_snapshot)],
  ['py layer', (r) => median(r.layer_sdk_snapshot) - median(r.layer_json_loads)],
  ['ts layer', (r) => median(r.ts_layer_sdk_snapshot) - median(r.ts_layer_json_parse)],
  ['ref', (r) => (r.reference_snapshot ? median(r.reference_snapshot) : NaN)],
  ['ref elems', (r) => (r.reference_elements === undefined ? NaN : r.reference_elements)],
  ['ref÷py', (r) => (r.reference_snapshot ? median(r.reference_snapshot) / median(r.sdk_snapshot) : NaN)],
];
const fmt = (v) => (Number.isNaN(v) || v === undefined ? '-' : Math.abs(v) >= 100 ? v.toFixed(0) : v.toFixed(2));
console.log(`\nmedian ms per call, ${RUNS} calls after a warm-up; ovh = sdk − bare evaluate (ovh json: − evaluate of JSON text + json.loads); layer = sdk over a stand-in page − JSON parsing alone`);
console.log(['page'.padEnd(18), ...cols.map(([c]) => c.padStart(11))].join(''));
const ratios = [];
const overheads = { py: [], ts: [], pyJson: [], pyLayer: [], tsLayer: [] };
for (const [name] of urls) {
  const r = results[name];
  if (!r) continue;
  console.log([name.padEnd(18), ...cols.map(([, f]) => fmt(f(r)).padStart(11))].join(''));
  if (r.reference_snapshot) ratios.push(median(r.reference_snapshot) / median(r.sdk_snapshot));
  overheads.py.push(median(r.sdk_snapshot) - median(r.bare_evaluate));
  overheads.pyJson.push(median(r.sdk_snapshot) - median(r.bare_evaluate_json));
  overheads.ts.push(median(r.ts_sdk_snapshot) - median(r.ts_bare_evaluate));
  overheads.pyLayer.push(median(r.layer_sdk_snapshot) - median(r.layer_json_loads));
  overheads.tsLayer.push(median(r.ts_layer_sdk_snapshot) - median(r.ts_layer_json_parse));
}
const geo = (xs) => Math.exp(xs.reduce((a, x) => a + Math.log(x), 0) / xs.length);
console.log(`\noverhead over a bare page.evaluate, median over pages: Python ${fmt(median(overheads.py))} ms (max ${fmt(Math.max(...overheads.py))}), ` +
  `Python vs evaluate of JSON text ${fmt(median(overheads.pyJson))} ms (max ${fmt(Math.max(...overheads.pyJson))}), TypeScript ${fmt(median(overheads.ts))} ms (max ${fmt(Math.max(...overheads.ts))})`);
console.log(`the packages' own layer (a stand-in page answering the JSON text at once; vs JSON parsing alone): Python ${fmt(median(overheads.pyLayer))} ms (max ${fmt(Math.max(...overheads.pyLayer))}), TypeScript ${fmt(median(overheads.tsLayer))} ms (max ${fmt(Math.max(...overheads.tsLayer))})`);
if (ratios.length) console.log(`reference snapshot(browser) ÷ sentience_sdk.snapshot(page): geometric mean ${fmt(geo(ratios))}×, min ${fmt(Math.min(...ratios))}×, max ${fmt(Math.max(...ratios))}× over ${ratios.length} pages`);
fs.writeFileSync(path.join(ROOT, '.bench/sdk-snapshot.json'), JSON.stringify({ runs: RUNS, results }, null, 1));
