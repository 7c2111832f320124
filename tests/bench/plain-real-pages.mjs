// Ad-hoc: the plain-element analysis on the real saved pages that
// pkg-scripts/bench.sh real-pages-tokens caches in .bench/real-pages/pages (run that
// first). Per page: the walk with the analysis (run whatever its cost,
// budget: false) against the walk reading every style; `nd`/`sd` count the
// numbers and strings that differ (must be 0), `plain` the elements walked
// without a style read (-1: the analysis gave up).
//   cd tests && node bench/plain-real-pages.mjs
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, startServer, launch, open, isolatedWorld } from '../lib/harness.mjs';

const dir = path.join(ROOT, '.bench/real-pages/pages');
const files = fs.readdirSync(dir).filter((f) => f.endsWith('.html'));
const routes = Object.fromEntries(files.map((f) => [`/${f}`, (req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(fs.readFileSync(path.join(dir, f)))]));
const server = await startServer(undefined, routes);
const browser = await launch();
const COMPARE = `(() => {
  const t0 = performance.now();
  const a = SentienceWalker.collect({ budget: false });
  const t1 = performance.now();
  const b = SentienceWalker.collect({ plain: false });
  const t2 = performance.now();
  const sa = a.strs.split('\\u001f');
  const sb = b.strs.split('\\u001f');
  sa[1] = sb[1] = '';
  let nd = a.nums.length === b.nums.length ? 0 : -1;
  if (nd === 0) for (let i = 0; i < a.nums.length; i++) if (!Object.is(a.nums[i], b.nums[i])) nd++;
  const sd = sa.length === sb.length ? sa.filter((x, i) => x !== sb[i]).length : -1;
  return JSON.stringify({ plain: a.plain, budgeted: SentienceWalker.collect().plain, scanned: a.meta[3], nd, sd, with_ms: +(t1 - t0).toFixed(1), without_ms: +(t2 - t1).toFixed(1) });
})()`;
try {
  for (const f of files) {
    const page = await open(browser.context, `${server.url}/${f}`);
    try {
      const world = await isolatedWorld(page);
      await world.evaluate(COMPARE); // warm-up
      console.log(f.padEnd(28), await world.evaluate(COMPARE));
      await world.close();
    } finally {
      await page.close();
    }
  }
} finally {
  await browser.close();
  server.close();
}
