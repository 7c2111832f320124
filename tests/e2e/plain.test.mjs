// The walker skips the style reads of "plain" elements, decided from the
// page's style sheets (extension/content/walker.js styledElements). That
// may never change a snapshot: on every fixture page, the raw walk with the
// analysis must equal the walk that reads every element's style, and where
// the analysis cannot vouch for the sheets it must give up.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { startServer, launch, open, isolatedWorld, PAGES } from '../lib/harness.mjs';
import { generatedRoute } from '../lib/generate.mjs';

const env = {};
before(async () => {
  env.two = await startServer();
  const routes = {
    '/gen': generatedRoute(),
    // A sheet from another origin, without CORS: its rules cannot be read.
    '/xsheet.html': (req, res) =>
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(`<!doctype html><link rel="stylesheet" href="${env.two.url}/plain/imported.css"><div class="row"><div class="by-import">Styled from afar</div></div>`),
  };
  env.one = await startServer(undefined, routes);
  env.browser = await launch();
});
after(async () => {
  await env.browser?.close();
  await env.one?.close();
  await env.two?.close();
});

// Both walks in the page's isolated world: differences in the numbers and
// in the string column (the timestamp aside), and the analysis's count. The
// analysis runs whatever its cost (budget: false): most fixture pages are
// too small for the rules they hold, and the budget would skip it there.
const COMPARE = `(() => {
  const a = SentienceWalker.collect({ budget: false });
  const b = SentienceWalker.collect({ plain: false });
  const sa = a.strs.split('\\u001f');
  const sb = b.strs.split('\\u001f');
  sa[1] = sb[1] = '';
  const nums = [];
  if (a.nums.length !== b.nums.length) nums.push('length ' + a.nums.length + ' vs ' + b.nums.length);
  else for (let i = 0; i < a.nums.length && nums.length < 5; i++) if (!Object.is(a.nums[i], b.nums[i])) nums.push('node ' + Math.floor(i / 16) + ' field ' + (i % 16) + ': ' + a.nums[i] + ' vs ' + b.nums[i] + ' (' + sb[2 + Math.floor(i / 16) * 13] + ')');
  const strs = sa.length !== sb.length ? ['length ' + sa.length + ' vs ' + sb.length] : sa.flatMap((s, i) => (s === sb[i] ? [] : [i + ': ' + s + ' vs ' + sb[i]])).slice(0, 5);
  return JSON.stringify({ plain: a.plain, budgeted: SentienceWalker.collect().plain, unanalysed: b.plain, recorded: a.elements.length, scanned: a.meta[3], nums, strs, meta: String(a.meta) === String(b.meta) });
})()`;

async function compare(url) {
  const page = await open(env.browser.context, url);
  try {
    const world = await isolatedWorld(page);
    try {
      return JSON.parse(await world.evaluate(COMPARE));
    } finally {
      await world.close();
    }
  } finally {
    await page.close();
  }
}

function assertSame(r, what) {
  assert.deepEqual(r.nums, [], `${what}: numbers differ`);
  assert.deepEqual(r.strs, [], `${what}: strings differ`);
  assert.equal(r.meta, true, `${what}: meta differs`);
  assert.equal(r.unanalysed, -1);
}

test('the walk with plain elements skipped equals the full walk on every fixture page', async () => {
  const pages = fs.readdirSync(PAGES).filter((f) => f.endsWith('.html') && !f.endsWith('.csp.html'));
  assert.ok(pages.length >= 10, pages.join(' '));
  let plainSeen = 0;
  for (const file of pages) {
    const r = await compare(`${env.one.url}/${file}`);
    assertSame(r, file);
    if (r.plain > 0) plainSeen++;
  }
  // The analysis ran (and skipped something) on most of them.
  assert.ok(plainSeen >= pages.length / 2, `plain elements on only ${plainSeen} of ${pages.length} pages`);
  for (const n of [1000, 10000]) {
    const r = await compare(`${env.one.url}/gen?n=${n}&seed=3`);
    assertSame(r, `generated ${n}`);
    assert.ok(r.plain > r.scanned / 2, `generated ${n}: ${r.plain} of ${r.scanned} plain`);
    // Big enough for its 12 rules: the analysis runs within its budget too.
    assert.equal(r.budgeted, r.plain);
  }
});

test('rules in @media, @supports, @layer, @container, @import, adopted sheets, :has/:is, var(), all, animations, :host and ::slotted are all seen', async () => {
  const r = await compare(`${env.one.url}/plain/rules.html`);
  assertSame(r, 'rules.html');
  assert.ok(r.plain > 5, `only ${r.plain} plain elements`);
  // ~30 rules for ~60 elements: more than skipping reads would pay for.
  assert.equal(r.budgeted, -1);
});

test('the analysis gives up, and every style is read, for nested rules and for a cross-origin sheet', async () => {
  const nested = await compare(`${env.one.url}/plain/nested.html`);
  assert.equal(nested.plain, -1);
  assertSame(nested, 'nested.html');
  assert.equal(nested.recorded > 0, true);
  const cross = await compare(`${env.one.url}/xsheet.html`);
  assert.equal(cross.plain, -1);
  assertSame(cross, 'xsheet.html');
});
