// Token counting shared by the format benchmarks (tests/bench/format-tokens.mjs
// on the fixture and demo pages, tests/bench/real-pages.mjs on real saved
// pages): the same three counts for every text, and the same measurement of
// one open page.
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { encode as cl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import { encode as o200k } from 'gpt-tokenizer/encoding/o200k_base';
import { ROOT, evaluate } from './harness.mjs';

// The no-modules glue, run in a vm context (its option objects must come
// from that context's realm).
function loadEstimator() {
  const context = { TextDecoder, TextEncoder, WebAssembly, console, location: { href: 'file:///' } };
  vm.createContext(context);
  context.bytes = fs.readFileSync(path.join(ROOT, 'pkg/sentience_query_bg.wasm'));
  vm.runInContext(`${fs.readFileSync(path.join(ROOT, 'pkg/sentience_query.js'), 'utf8')}; SentienceQuery.initSync({ module: bytes }); this.estimate = (t) => SentienceQuery.estimate_tokens(t);`, context);
  return context.estimate;
}

let estimate = null;

/**
 * Tokens of `text` three ways: `est`, the format's own conservative estimate
 * (crates/snapshot-query/src/tokens.rs, from pkg/sentience_query_bg.wasm);
 * `cl100k` and `o200k`, OpenAI's real BPE encoders (gpt-tokenizer, pinned).
 */
export function count(text) {
  estimate ??= loadEstimator();
  return { est: estimate(text), cl100k: cl100k(text).length, o200k: o200k(text).length };
}

/**
 * Measures an open page: a snapshot of the top `top` elements, then
 * format() of them without a budget cut and at its default budget,
 * Playwright's ariaSnapshot() of the body and the contract JSON of the same
 * elements. Returns the snapshot, the default listing, the ids it lists and
 * the token counts. Adds to `problems` any estimate below a real count and a
 * default listing over its 1,000-token budget.
 */
export async function measureTokens(page, name, top, problems) {
  const snap = await evaluate(page, `window.sentience.snapshot({limit: ${top}})`);
  if (snap.status !== 'success') throw new Error(`${name}: ${snap.error}`);
  const fmt = await evaluate(page, 'window.sentience.format(null, {max_tokens: 100000})');
  const fmtDefault = await evaluate(page, 'window.sentience.format()');
  const aria = await page.locator('body').ariaSnapshot();
  const json = JSON.stringify(snap.elements);
  const t = { format: count(fmt), aria: count(aria), json: count(json), format1000: count(fmtDefault) };
  for (const [what, c] of Object.entries(t)) {
    if (c.est < c.cl100k || c.est < c.o200k) problems.push(`${name}: ${what} estimate ${c.est} below real (${c.cl100k} / ${c.o200k})`);
  }
  if (t.format1000.est > 1000) problems.push(`${name}: format() over its budget (${t.format1000.est})`);
  const listed = new Set([...fmtDefault.matchAll(/^(\d+) /gm)].map((m) => Number(m[1])));
  return { snap, fmtDefault, listed, t };
}

/** "est / cl100k / o200k" */
export const cell = (c) => `${c.est} / ${c.cl100k} / ${c.o200k}`;
