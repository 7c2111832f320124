// Unit tests of the frame merge (extension/content/frame-merge.js), a pure
// function, run in Node on hand-built walks: translation, clipping,
// renumbering, placement in document order, ids. The browser suites
// (frames.test.mjs) check the same against real pages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { ROOT } from '../lib/harness.mjs';

const NUM_STRIDE = 16;
const STR_FIELDS = 12;
const SEP = '\u001f';
const context = vm.createContext({ SentienceWalker: { NUM_STRIDE, STR_FIELDS } });
vm.runInContext(fs.readFileSync(path.join(ROOT, 'extension/content/frame-merge.js'), 'utf8'), context);
const { merge } = context.SentienceFrameMerge;

// A node: [id, parent, x, y, w, h, flags, z, bg, bgEff, cx, cy, cw, ch, form, labelFor] and its text.
function node(id, parent, x, y, { w = 50, h = 20, clip = null, form = -1, label = -1, z = 0 } = {}) {
  return [id, parent, x, y, w, h, 1, z, -1, -1, ...(clip || [0, 0, -1, -1]), form, label];
}
function walk(nodes, texts) {
  return {
    count: nodes.length,
    nums: nodes.flat(),
    strs: ['url', 'now', ...texts.flatMap((t) => ['button', '', '', '', '', '', '', '', '', '', t, ''])],
  };
}
function topRaw(nodes, texts) {
  const w = walk(nodes, texts);
  return { meta: new Float64Array([1, 800, 600, 10, w.count]), nums: new Float64Array(w.nums), strs: w.strs.join(SEP), elements: nodes.map(() => ({})), frames: [] };
}
function rows(merged) {
  const n = merged.meta[4];
  const strs = merged.strs.split(SEP);
  return Array.from({ length: n }, (_, i) => ({ num: Array.from(merged.nums.subarray(i * NUM_STRIDE, (i + 1) * NUM_STRIDE)), text: strs[2 + i * STR_FIELDS + 10] }));
}
let next = 1000;
const reserveId = () => next++;

test('frame nodes are translated, clipped to the frame, renumbered and placed at their iframe', () => {
  // Top: [0] container (id 1), [1] button after the iframe (id 2). The iframe sits inside node 0, before node 1.
  const raw = topRaw([node(1, -1, 0, 0, { w: 800, h: 600 }), node(2, 0, 10, 500)], ['container', 'after']);
  // Frame at (100, 50), 200×100, its overflow ancestor clipping it to y < 120.
  const desc = { at: 1, parent: 0, z: 5, rect: { x: 100, y: 50, w: 200, h: 100 }, clip: { x: 0, y: 0, w: 800, h: 120 }, nonce: 'n1' };
  // Frame: [0] form (id 1, same local id as a top node), [1] label for [2], [2] input in the form, scrolled below.
  const f = walk([node(1, -1, 0, 0, { w: 200, h: 300 }), node(2, 0, 0, 10, { label: 2, form: 0 }), node(3, 0, 0, 90, { form: 0 })], ['form', 'label', 'input']);
  const kid = { desc, frameId: 7, token: 'doc-a', scanned: 3, kids: [], ...f, strs: f.strs };
  const merged = merge(raw, [kid], new Map(), () => 'iframe-el', reserveId);
  const r = rows(merged);
  assert.deepEqual(r.map((x) => x.text), ['container', 'form', 'label', 'input', 'after']);
  assert.equal(merged.meta[3], 13, 'elements_scanned adds the frames');
  const [formId, labelId, inputId] = [r[1].num[0], r[2].num[0], r[3].num[0]];
  assert.ok(formId >= 1000 && labelId >= 1000 && inputId >= 1000, 'frame ids come from the driver sequence');
  // Parents: frame root under the iframe's recorded ancestor (0); others renumbered.
  assert.deepEqual(r.map((x) => x.num[1]), [-1, 0, 1, 1, 0]);
  // Translated by the frame's content-box origin.
  assert.deepEqual([r[2].num[2], r[2].num[3]], [100, 60]);
  assert.deepEqual([r[3].num[2], r[3].num[3]], [100, 140]);
  // Clip: frame box (100,50,200,100) cut by its ancestor clip (y < 120).
  assert.deepEqual(r[3].num.slice(10, 14), [100, 50, 200, 70]);
  // z: the iframe's stacking level; form and label indices renumbered.
  assert.equal(r[3].num[7], 5);
  assert.equal(r[3].num[14], 1);
  assert.equal(r[2].num[15], 3);
  // The top's own rows: untouched ids, renumbered when after the frame.
  assert.deepEqual([r[4].num[0], r[4].num[1]], [2, 0]);
  // Routes and id stability.
  assert.deepEqual({ ...merged.routes.get(inputId), chain: undefined }, { frameId: 7, token: 'doc-a', localId: 3, chain: undefined });
  assert.deepEqual([...merged.routes.get(inputId).chain], ['iframe-el']);
  const again = rows(merge(raw, [kid], merged.idMaps, () => 'iframe-el', reserveId));
  assert.deepEqual(again.map((x) => x.num[0]), r.map((x) => x.num[0]));
  // A new document in the same frame gets new ids.
  const reloaded = rows(merge(raw, [{ ...kid, token: 'doc-b' }], merged.idMaps, () => 'iframe-el', reserveId));
  assert.ok(reloaded[3].num[0] > inputId);
});

test('nested frames: offsets and visible areas compose, z is the top-level iframe', () => {
  const raw = topRaw([node(1, -1, 0, 0)], ['top']);
  const outer = walk([node(1, -1, 0, 0)], ['outer']);
  const inner = walk([node(1, -1, 5, 5, { z: 9 })], ['inner']);
  const innerKid = { desc: { at: 1, parent: -1, z: 3, rect: { x: 30, y: 40, w: 100, h: 30 }, clip: null, nonce: 'n2' }, frameId: 9, token: 'i', scanned: 1, kids: [], ...inner };
  const outerKid = { desc: { at: 1, parent: -1, z: 2, rect: { x: 10, y: 20, w: 300, h: 200 }, clip: null, nonce: 'n1' }, frameId: 8, token: 'o', scanned: 1, kids: [innerKid], ...outer };
  const merged = merge(raw, [outerKid], new Map(), () => 'iframe-el', reserveId);
  const r = rows(merged);
  assert.deepEqual(r.map((x) => x.text), ['top', 'outer', 'inner']);
  assert.deepEqual([r[2].num[2], r[2].num[3]], [45, 65]);
  assert.deepEqual(r[2].num.slice(10, 14), [40, 60, 100, 30]);
  assert.equal(r[2].num[7], 2);
  // No recorded ancestor of either iframe: roots all the way down.
  assert.deepEqual(r.map((x) => x.num[1]), [-1, -1, -1]);
  assert.deepEqual([...merged.routes.get(r[2].num[0]).chain], ['iframe-el', 'n2']);
});
