// Tokens of the browse LLM policy's distilled page vs the raw HTML on the
// real saved pages (docs/contracts/browse.md §9). The listing comes from
// crates/browse/examples/distill.rs (release build), unbounded and at the
// policy's default budget; tokens are counted with OpenAI's o200k and
// cl100k encoders (gpt-tokenizer, pinned in tests/package-lock.json).
//   bash pkg-scripts/bench.sh browse-tokens   (builds the example, then runs this)
// The pages are tests/lib/real-pages.mjs's 27, downloaded and checked once
// into .bench/real-pages/pages (PAGES=dir reads another folder instead).
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { encode as cl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import { encode as o200k } from 'gpt-tokenizer/encoding/o200k_base';
import { PAGES as REAL_PAGES, MORE_PAGES, fetchPages } from '../lib/real-pages.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dir = process.env.PAGES || fetchPages([...REAL_PAGES, ...MORE_PAGES]);
const bin = path.join(ROOT, 'target/release/examples/distill');
if (!fs.existsSync(dir)) throw new Error(`${dir} is missing`);
if (!fs.existsSync(bin)) throw new Error(`${bin} is missing: cargo build --release -p sentience-browse --example distill`);

function listing(file, budget) {
  const out = execFileSync(bin, [file, String(budget)], { encoding: 'utf8', maxBuffer: 64 << 20 });
  const lines = out.trimEnd().split('\n');
  const stats = lines.pop();
  return { text: lines.join('\n'), stats };
}

const rows = [];
for (const name of fs.readdirSync(dir).filter((f) => f.endsWith('.html')).sort()) {
  const file = path.join(dir, name);
  const html = fs.readFileSync(file, 'utf8');
  const full = listing(file, 100_000_000);
  const capped = listing(file, 6000);
  rows.push({
    page: name.replace(/\.html$/, ''),
    raw: o200k(html).length,
    rawCl: cl100k(html).length,
    full: o200k(full.text).length,
    capped: o200k(capped.text).length,
    cappedStats: capped.stats,
  });
}
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
console.log('| page | raw HTML (o200k) | distilled, no budget | distilled, 6,000 budget | no budget / raw |');
console.log('|---|---|---|---|---|');
for (const r of rows) console.log(`| ${r.page} | ${r.raw} | ${r.full} | ${r.capped} | ${(100 * r.full / r.raw).toFixed(1)}% |`);
const sum = (k) => rows.reduce((a, r) => a + r[k], 0);
console.log(`| **all ${rows.length}** | ${sum('raw')} | ${sum('full')} | ${sum('capped')} | ${(100 * sum('full') / sum('raw')).toFixed(1)}% |`);
console.log(`median ratio (no budget / raw): ${(100 * median(rows.map((r) => r.full / r.raw))).toFixed(1)}%; pages over 6,000 o200k tokens at the default budget: ${rows.filter((r) => r.capped > 6000).map((r) => `${r.page} (${r.capped})`).join(', ') || 'none'}`);
