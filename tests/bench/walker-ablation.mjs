// Ad-hoc: time SentienceWalker.collect() variants with parts switched off
// (source patched and evaluated in the isolated world), to see what each
// part of the walk costs.
import fs from 'node:fs';
import { ROOT } from '../lib/harness.mjs';
import { generatedWorld } from './generated-world.mjs';
const n = Number(process.argv[2] || 10000);
// ABLATE_BASE=file: another walker.js to time as the variant "other" (e.g. `git show HEAD~1:extension/content/walker.js > /tmp/w.js`).
const src = fs.readFileSync(`${ROOT}/extension/content/walker.js`, 'utf8');
const other = process.env.ABLATE_BASE ? fs.readFileSync(process.env.ABLATE_BASE, 'utf8') : null;
// Each variant is evaluated once, as globalThis.Variants[name], and warmed
// up before the interleaved timed runs, so every variant runs optimised code.
const patch = (name, pairs) => {
  const as = `(globalThis.Variants ||= {})[${JSON.stringify(name)}] =`;
  if (pairs === 'other') return other.replace('globalThis.SentienceWalker =', as);
  let s = src.replace('globalThis.SentienceWalker =', as);
  for (const [a, b] of pairs) {
    if (!s.includes(a)) throw new Error(`patch not found: ${a}`);
    s = s.split(a).join(b);
  }
  return s;
};
const only = process.argv[3] ? process.argv[3].split(',') : null;
const variants0 = {
  base: [],
  noText: [['const text = wantsText ? textOf(el) : \'\';', "const text = '';"]],
  noBg: [['const bgRaw = cs.backgroundColor;', "const bgRaw = 'rgba(0, 0, 0, 0)';"], ['const raw = ancStyle[k].backgroundColor;', "const raw = 'rgba(0, 0, 0, 0)';"]],
  noMeasure: [['    measure(nums, elements, clipEls, clipParent, frames);\n', '']],
  noClip: [['nums[o + N_CLIP_X] = fixed ? -1 : clipOf(depth - 1);', 'nums[o + N_CLIP_X] = -1;']],
  noShadow: [['const shadow = shadowOf(el, tag);', 'const shadow = el.shadowRoot;']],
  noVisOpa: [["if (cs.visibility === 'visible') flags |= F.VISIBLE;", 'flags |= F.VISIBLE;'], ["if (!fixedRole && cs.opacity === '0') flags |= F.TRANSPARENT;", '']],
  // The node's strings go to a throw-away array (shadowing the walk's).
  noStrs: [['const so = PAGE_STRS + i * STR_FIELDS;', 'const so = PAGE_STRS + i * STR_FIELDS; const strs = [];']],
  deferText: [
    ["const text = wantsText ? textOf(el) : '';", "const text = 'x';"],
    ['    measure(nums, elements, clipEls, clipParent, frames);\n', `    measure(nums, elements, clipEls, clipParent, frames);
    for (let i = 0; i < elements.length; i++) { const el = elements[i]; const tag = el.localName; const wantsText = tag !== 'form' && tag !== 'label' && tag !== 'select' && tag !== 'input' && tag !== 'textarea'; if (wantsText) strs[PAGE_STRS + i * STR_FIELDS + S_TEXT] = textOf(el); }
`],
  ],
  // With ABLATE_SETUP=bench/oracle-plain.js: no style reads for the elements the oracle marks.
  skipPlain: [
    ['        const raw = ancStyle[k].backgroundColor;', '        const raw = (ancStyle[k] || (ancStyle[k] = getComputedStyle(anc[k]))).backgroundColor;'],
    ['        const style = ancStyle[k];', '        const style = ancStyle[k] || (ancStyle[k] = getComputedStyle(anc[k]));'],
    ['        const cs = getComputedStyle(el);\n        const display = cs.display;', "        const plain = !!globalThis.__plain && __plain.has(el);\n        const cs = plain ? null : getComputedStyle(el);\n        const display = plain ? 'block' : cs.display;"],
    ["          const cursorPointer = !roleClickable && cs.cursor === 'pointer';\n          const position = cs.position;", "          const cursorPointer = plain ? ctxPointer[depth] : !roleClickable && cs.cursor === 'pointer';\n          const position = plain ? 'static' : cs.position;"],
  ],
  noCursorPos: [["const cursorPointer = !roleClickable && cs.cursor === 'pointer';", 'const cursorPointer = false;'], ['const position = cs.position;', "const position = 'static';"]],
};
if (other) variants0.other = 'other';
const variants = Object.fromEntries(Object.entries(variants0).filter(([k]) => !only || k === 'base' || only.includes(k)));
const { world, close } = await generatedWorld(n);
try {
  const ev = world.evaluate;
  // ABLATE_SETUP=file: evaluated once in the isolated world before timing.
  if (process.env.ABLATE_SETUP) console.log('setup:', await ev(fs.readFileSync(process.env.ABLATE_SETUP, 'utf8')));
  const res = {};
  const ITERS = Number(process.env.ITERS || 9);
  const time = (k) => ev(`(() => { const t0 = performance.now(); Variants[${JSON.stringify(k)}].collect(); return performance.now() - t0; })()`);
  for (const [k, pairs] of Object.entries(variants)) {
    await ev(patch(k, pairs));
    for (let w = 0; w < 3; w++) await time(k);
  }
  for (let it = 0; it < ITERS; it++) for (const k of Object.keys(variants)) (res[k] ||= []).push(await time(k));
  const med = (a) => a.sort((x, y) => x - y)[a.length >> 1];
  const b = med(res.base);
  for (const k of Object.keys(variants)) console.log(k.padEnd(12), med(res[k]).toFixed(1).padStart(7), (med(res[k]) - b).toFixed(1).padStart(7));
} finally {
  await close();
}
