// How many tokens an agent pays to see a page: window.sentience.format() of
// the top 50 elements vs Playwright's ariaSnapshot() of the page vs the raw
// contract JSON of the same 50 elements, on the fixture pages (tests/pages)
// and the demo store (demo/).
//
//   node tests/bench/format-tokens.mjs        (after pkg-scripts/build.sh wasm)
//
// Tokens are counted three ways, the same for all three texts:
//   est     the format's own conservative estimate (crates/snapshot-query,
//           src/tokens.rs, run from pkg/sentience_query_bg.wasm);
//   cl100k  OpenAI's cl100k_base BPE (gpt-tokenizer, pinned in package.json);
//   o200k   OpenAI's o200k_base BPE.
// It also checks, per page, that the estimate is at least both real counts
// for every text (the budget guarantee rests on that), and that every
// actionable element of the page's task is listed: on the demo pages the
// elements named in TASKS; on every page, each element that is in the
// viewport, not occluded and not disabled. Both checks use format() at its
// default budget (1,000 tokens).
//
// Results: a table on stdout and JSON in .bench/format-tokens.json.
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, PAGES, startServer, launch, open } from '../lib/harness.mjs';
import { measureTokens, cell } from '../lib/tokens.mjs';

const TOP = 50;

// The obvious task of each demo page and the elements it needs (role, text).
const TASKS = {
  'demo/index.html': ['search for a product, log in or check out', [['searchbox', /search products/i], ['link', /log ?in|sign ?in/i], ['link', /checkout/i]]],
  'demo/login.html': ['log in', [['textbox', /user/i], ['textbox', /pass/i], ['button', /log ?in|sign ?in/i]]],
  'demo/search.html': ['search', [['searchbox', /search/i], ['button', /search/i]]],
  'demo/checkout.html': ['pay by card', [['textbox', /card|1234/i], ['button', /pay/i]]],
  'demo/contact.html': ['send a message', [['textbox', /name/i], ['textbox', /mail/i], ['textbox', /message/i], ['button', /send/i]]],
};

const fixtureServer = await startServer(PAGES);
const demoServer = await startServer(path.join(ROOT, 'demo'));
const browser = await launch();
const pages = [
  ...fs.readdirSync(PAGES).filter((f) => f.endsWith('.html') && f !== 'tamper.html').sort().map((f) => [`tests/pages/${f}`, `${fixtureServer.url}/${f}`]),
  ...fs.readdirSync(path.join(ROOT, 'demo')).filter((f) => f.endsWith('.html')).sort().map((f) => [`demo/${f}`, `${demoServer.url}/${f}`]),
];

const rows = [];
const problems = [];
try {
  for (const [name, url] of pages) {
    const page = await open(browser.context, url);
    try {
      const { snap, listed, t } = await measureTokens(page, name, TOP, problems);
      // Every actionable element of the task is listed.
      const need = snap.elements.filter((e) => e.in_viewport && !e.is_occluded && !(e.state && e.state.disabled));
      const [task, wanted] = TASKS[name] || [null, []];
      for (const [role, re] of wanted) {
        const e = snap.elements.find((x) => x.role === role && re.test(x.text || ''));
        if (!e) problems.push(`${name}: task "${task}" needs a ${role} ${re}, not in the snapshot`);
        else need.push(e);
      }
      const missing = need.filter((e) => !listed.has(e.id));
      for (const e of missing) problems.push(`${name}: ${e.role} "${e.text}" not listed`);
      rows.push({ page: name, elements: snap.elements.length, ...t, task, listed_all_needed: missing.length === 0 });
    } finally {
      await page.close();
    }
  }
} finally {
  await browser.close();
  await fixtureServer.close();
  await demoServer.close();
}

const pad = (s, n) => String(s).padEnd(n);
console.log(`tokens (estimate / cl100k / o200k) for the top ${TOP} elements\n`);
console.log(`${pad('page', 30)}${pad('elems', 7)}${pad('format()', 20)}${pad('ariaSnapshot()', 22)}${pad('contract JSON', 22)}needed listed`);
const sum = { format: [0, 0, 0], aria: [0, 0, 0], json: [0, 0, 0] };
for (const r of rows) {
  console.log(`${pad(r.page, 30)}${pad(r.elements, 7)}${pad(cell(r.format), 20)}${pad(cell(r.aria), 22)}${pad(cell(r.json), 22)}${r.listed_all_needed ? 'yes' : 'NO'}`);
  for (const k of Object.keys(sum)) ['est', 'cl100k', 'o200k'].forEach((m, i) => (sum[k][i] += r[k][m]));
}
console.log(`${pad('total', 37)}${pad(sum.format.join(' / '), 20)}${pad(sum.aria.join(' / '), 22)}${pad(sum.json.join(' / '), 22)}`);
fs.mkdirSync(path.join(ROOT, '.bench'), { recursive: true });
fs.writeFileSync(path.join(ROOT, '.bench/format-tokens.json'), JSON.stringify({ top: TOP, rows, problems }, null, 2));
if (problems.length) {
  console.log(`\n${problems.length} problem(s):\n${problems.join('\n')}`);
  process.exitCode = 1;
}
