// Ad-hoc: marginal cost of the walker's reads, in the isolated world.
import { generatedWorld } from './generated-world.mjs';
const n = Number(process.argv[2] || 10000);
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
const { world, close } = await generatedWorld(n);
try {
  const time = (body) => world.evaluate(`(() => { const all = Array.from(document.getElementsByTagName('*')); let s = 0; const t0 = performance.now(); ${body} return performance.now() - t0; })()`);
  const res = {};
  for (let it = 0; it < 9; it++) for (const [k, b] of Object.entries(V)) {
    const t = await time(b);
    if (it >= 2) (res[k] ||= []).push(t);
  }
  const med = (a) => a.sort((x, y) => x - y)[a.length >> 1].toFixed(1);
  for (const k of Object.keys(V)) console.log(k.padEnd(14), med(res[k]));
} finally {
  await close();
}
