// Ad-hoc: marginal cost of the walker's reads, in the isolated world.
import { startServer, launch, open, isolatedWorld } from '../lib/harness.mjs';
import { generatedRoute } from '../lib/generate.mjs';
const n = Number(process.argv[2] || 10000);
const server = await startServer(undefined, { '/gen': generatedRoute() });
const browser = await launch();
const V = {
  tree: `let c=0; for (const el of all) { c++; }`,
  gcs: `for (const el of all) { const cs = getComputedStyle(el); s += cs.display === 'none' ? 1 : 0; }`,
  gcs3: `for (const el of all) { const cs = getComputedStyle(el); s += cs.display === 'none' ? 1 : 0; s += cs.cursor === 'pointer' ? 1 : 0; s += cs.position === 'static' ? 1 : 0; }`,
  gcs3names: `for (const el of all) { const cs = getComputedStyle(el); s += cs.display === 'none' ? 1 : 0; s += cs.cursor === 'pointer' ? 1 : 0; s += cs.position === 'static' ? 1 : 0; s += el.getAttributeNames().length; }`,
  gcsMap: `for (const el of all) { const m = el.computedStyleMap(); s += m.get('display').value === 'none' ? 1 : 0; s += m.get('cursor').value === 'pointer' ? 1 : 0; s += m.get('position').value === 'static' ? 1 : 0; }`,
  gpv: `for (const el of all) { const cs = getComputedStyle(el); s += cs.getPropertyValue('display') === 'none' ? 1 : 0; s += cs.getPropertyValue('cursor') === 'pointer' ? 1 : 0; s += cs.getPropertyValue('position') === 'static' ? 1 : 0; }`,
  floor: `for (const el of all) { const r = el.getBoundingClientRect(); const cs = getComputedStyle(el); if (cs.display === 'none') s++; s += r.width > 0 ? 1 : 0; }`,
  rects: `for (const el of all) { const r = el.getBoundingClientRect(); s += r.width > 0 ? 1 : 0; }`,
  rectsQuarter: `for (let i = 0; i < all.length; i += 4) { const r = all[i].getBoundingClientRect(); s += r.width > 0 ? 1 : 0; }`,
  bgQuarter: `for (let i = 0; i < all.length; i += 4) { const cs = getComputedStyle(all[i]); s += cs.backgroundColor.length; }`,
  collect: `SentienceWalker.collect();`,
};
try {
  const page = await open(browser.context, `${server.url}/gen?n=${n}&seed=1`);
  const world = await isolatedWorld(page);
  if (!world) throw new Error('the extension did not load in the page');
  const time = (body) => world.evaluate(`(() => { const all = Array.from(document.getElementsByTagName('*')); let s = 0; const t0 = performance.now(); ${body} return performance.now() - t0; })()`);
  const res = {};
  for (let it = 0; it < 9; it++) for (const [k, b] of Object.entries(V)) {
    const t = await time(b);
    if (it >= 2) (res[k] ||= []).push(t);
  }
  const med = (a) => a.sort((x, y) => x - y)[a.length >> 1].toFixed(1);
  for (const k of Object.keys(V)) console.log(k.padEnd(14), med(res[k]));
} finally {
  await browser.close();
  server.close();
}
