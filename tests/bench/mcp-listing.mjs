// The `browser_snapshot` listing on the 27 saved real pages, offline: a
// fast loop for the listing's rule (docs/mcp.md "How much a snapshot
// lists"), without the two MCP servers of mcp-bench.mjs.
//
//   bash pkg-scripts/bench.sh mcp-listing [args]   (after pkg-scripts/build.sh wasm)
//   node tests/bench/mcp-listing.mjs --capture     once (or when missing): each page's snapshot
//        (Chromium with the extension, 1280×720, third-party hosts
//        unresolvable, as `sentience mcp`) into .bench/real-pages/snapshots/
//   node tests/bench/mcp-listing.mjs [--split=design|held-out|all] [--budget=N] [--mode=enough|budget] [--show=NAME]
//        lists each captured snapshot as the MCP server does (the Rust
//        example crates/snapshot-query/examples/listing.rs, built on
//        first use) and reports o200k tokens and task elements per page and
//        the median per split (the split: tests/lib/real-pages.mjs `SPLIT`,
//        docs/benchmarks.md "MCP").
//
// The figures of record come from mcp-bench.mjs (the real servers, ids as
// a tab numbers them); these are for iterating, and agree with them to a
// few tokens a page (ids differ in length).
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { ROOT, startServer, launch, open, evaluate } from '../lib/harness.mjs';
import { count } from '../lib/tokens.mjs';
import { PAGES, MORE_PAGES, CACHE, THIRD_PARTY_CUT, fetchPages, pageRoutes, splitOf } from '../lib/real-pages.mjs';

const ALL = [...PAGES, ...MORE_PAGES];
const SNAPS = path.join(CACHE, 'snapshots');
const arg = (name, dflt) => (process.argv.find((a) => a.startsWith(`--${name}=`)) || `=${dflt}`).split('=')[1];

const captured = ALL.every((p) => fs.existsSync(path.join(SNAPS, `${p.name}.json`)));
if (process.argv.includes('--capture') || !captured) {
  const dir = fetchPages(ALL);
  const server = await startServer(dir, pageRoutes(dir, ALL));
  const browser = await launch({ args: THIRD_PARTY_CUT, viewport: { width: 1280, height: 720 } });
  fs.mkdirSync(SNAPS, { recursive: true });
  try {
    for (const p of ALL) {
      const page = await open(browser.context, `${server.url}/${p.name}.html`);
      const snap = await evaluate(page, 'window.sentience.snapshot()');
      fs.writeFileSync(path.join(SNAPS, `${p.name}.json`), JSON.stringify(snap));
      console.error(`${p.name}: ${snap.elements?.length ?? snap.error} elements`);
      await page.close();
    }
  } finally {
    await browser.close();
    server.close();
  }
  if (process.argv.includes('--capture')) process.exit(0);
}

const split = arg('split', 'all');
const budget = Number(arg('budget', 2000));
const mode = arg('mode', 'enough');
const show = arg('show', '');
const chosen = ALL.filter((p) => split === 'all' || splitOf(p.name) === split);
execFileSync('cargo', ['build', '--quiet', '--release', '-p', 'sentience-snapshot-query', '--example', 'listing'], { cwd: ROOT, stdio: 'inherit' });
const bin = path.join(ROOT, 'target/release/examples/listing');
const out = JSON.parse(execFileSync(bin, [String(budget), mode, ...chosen.map((p) => path.join(SNAPS, `${p.name}.json`))], { maxBuffer: 64 << 20 }).toString());

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const rows = [];
for (const [i, p] of chosen.entries()) {
  const text = `Page: http://127.0.0.1:40000/${p.name}.html\n${out[i]}`;
  const els = [...text.matchAll(/^(\d+) (\w+)(?: "((?:[^"\\]|\\.)*)")?/gm)].map((m) => ({ role: m[2], name: (m[3] || '').replace(/\\(.)/g, '$1') }));
  const needs = (p.needs || []).map(([roles, re]) => els.some((e) => roles.includes(e.role) && re.test(e.name)));
  rows.push({ page: p.name, split: splitOf(p.name), tokens: count(text).o200k, lines: els.length, found: needs.filter(Boolean).length, needs: needs.length });
  if (show === p.name) console.log(text);
}
for (const r of rows) console.log(`${r.page.padEnd(20)} ${r.split.padEnd(9)} ${String(r.tokens).padStart(5)} tokens ${String(r.lines).padStart(4)} lines  task ${r.found}/${r.needs}${r.found < r.needs ? '  MISSING' : ''}`);
const t = rows.map((r) => r.tokens);
console.log(`${split} (${rows.length} pages, budget ${budget}, ${mode}): median ${median(t)}, worst ${Math.max(...t)}, task elements ${rows.reduce((a, r) => a + r.found, 0)}/${rows.reduce((a, r) => a + r.needs, 0)}`);
