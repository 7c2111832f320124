// Unit tests of the frame gathering (extension/content/frame-merge.js), a
// pure function, run in Node on hand-built walks: the wire it writes for the
// engine (frame-table rows, walks in pre-order), ids and routes; then that
// wire through the real engine (pkg/sentience_wasm_bg.wasm, as built) for
// placement, translation, clipping and stacking, which the engine decides
// (crates/snapshot-core/src/frames.rs, tested natively in frames/tests.rs
// on the same pages). Every column is named through extension/content/wire.js,
// the file generated from the engine's wire definition: nothing here
// restates the layout. The browser suites (frames.test.mjs) check the same
// against real pages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { ROOT } from '../lib/harness.mjs';

const context = vm.createContext({ console, TextEncoder, TextDecoder });
for (const file of ['extension/content/wire.js', 'extension/content/frame-merge.js', 'pkg/sentience_wasm.js']) {
  vm.runInContext(fs.readFileSync(path.join(ROOT, file), 'utf8'), context, { filename: file });
}
const W = context.SentienceWire;
const { merge } = context.SentienceFrameMerge;
const engine = vm.runInContext('SentienceEngine', context);
// (The argument object is made in the context's realm: the glue checks its prototype.)
vm.runInContext('(bytes) => SentienceEngine.initSync({ module: bytes })', context)(fs.readFileSync(path.join(ROOT, 'pkg/sentience_wasm_bg.wasm')));
const { NUM_STRIDE, STR_FIELDS, PAGE_STRS, META_LEN, FRAME_STRIDE, SEP } = W;

// A node's numbers (by column name) and its text.
function node(id, parent, x, y, { w = 50, h = 20, clip = null, form = -1, label = -1, z = 0 } = {}) {
  const row = new Array(NUM_STRIDE).fill(0);
  row[W.N_STABLE_ID] = id;
  row[W.N_PARENT] = parent;
  row[W.N_X] = x;
  row[W.N_Y] = y;
  row[W.N_W] = w;
  row[W.N_H] = h;
  row[W.N_FLAGS] = W.FLAGS.VISIBLE;
  row[W.N_Z] = z;
  row[W.N_BG] = -1;
  row[W.N_BG_EFFECTIVE] = -1;
  [row[W.N_CLIP_X], row[W.N_CLIP_Y], row[W.N_CLIP_W], row[W.N_CLIP_H]] = clip || [0, 0, -1, -1];
  row[W.N_FORM] = form;
  row[W.N_LABEL_FOR] = label;
  return row;
}
// Buttons, but for the layout elements around them (a candidate inside a
// button would collapse into it).
const TAGS = { container: 'div', form: 'form' };
function nodeStrs(text) {
  const s = new Array(STR_FIELDS).fill('');
  s[W.S_TAG] = TAGS[text] || 'button';
  s[W.S_TEXT] = text;
  return s;
}
function walk(nodes, texts) {
  const page = [];
  page[W.P_URL] = 'url';
  page[W.P_TIMESTAMP] = 'now';
  return { count: nodes.length, nums: nodes.flat(), strs: [...page, ...texts.flatMap(nodeStrs)].join(SEP) };
}
function topRaw(nodes, texts) {
  const w = walk(nodes, texts);
  const meta = new Float64Array(META_LEN);
  meta[W.M_VERSION] = W.WIRE_VERSION;
  meta[W.M_VIEWPORT_W] = 800;
  meta[W.M_VIEWPORT_H] = 600;
  meta[W.M_SCANNED] = 10;
  meta[W.M_NODES] = w.count;
  return { meta, nums: new Float64Array(w.nums), strs: w.strs, elements: nodes.map(() => ({})), frames: [] };
}
/** The frame-table rows of a gathered wire, by column name. */
function frameRows(merged) {
  const rows = [];
  for (let o = META_LEN; o < merged.meta.length; o += FRAME_STRIDE) {
    rows.push(Object.fromEntries(Object.keys(W).filter((k) => k.startsWith('FR_')).map((k) => [k, merged.meta[o + W[k]]])));
  }
  return rows;
}
/** Each node of the wire in wire order: its numbers by column name, and its text. */
function wireNodes(merged) {
  const strs = merged.strs.split(SEP);
  const out = [];
  let walkStart = 0; // node index of the current walk's first node
  let walkIndex = 0;
  const counts = [merged.meta[W.M_NODES], ...frameRows(merged).map((r) => r.FR_NODES)];
  for (const count of counts) {
    for (let i = 0; i < count; i++) {
      const n = walkStart + i;
      const s = (walkIndex + 1) * PAGE_STRS + n * STR_FIELDS;
      out.push({ id: merged.nums[n * NUM_STRIDE + W.N_STABLE_ID], x: merged.nums[n * NUM_STRIDE + W.N_X], text: strs[s + W.S_TEXT] });
    }
    walkStart += count;
    walkIndex++;
  }
  return out;
}
/** The engine's snapshot of a gathered wire, elements by text. */
function snapshot(merged) {
  const e = new engine.Engine('content_script');
  const json = e.snapshot(merged, 'null', [0, 0, -1, 0, 0], '');
  e.free();
  const snap = JSON.parse(json);
  assert.equal(snap.status, 'success', json);
  return { snap, byText: Object.fromEntries(snap.elements.map((el) => [el.text, el])) };
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
  const kid = { desc, frameId: 7, token: 'doc-a', scanned: 3, kids: [], ...f };
  const merged = merge(raw, [kid], new Map(), () => 'iframe-el', reserveId);
  // The wire: the top walk, then the frame's, and one row describing its iframe.
  assert.deepEqual(
    wireNodes(merged).map((n) => n.text),
    ['container', 'after', 'form', 'label', 'input'],
  );
  assert.deepEqual(frameRows(merged), [
    { FR_HOST: -1, FR_AT: 1, FR_PARENT: 0, FR_Z: 5, FR_X: 100, FR_Y: 50, FR_W: 200, FR_H: 100, FR_CLIP_X: 0, FR_CLIP_Y: 0, FR_CLIP_W: 800, FR_CLIP_H: 120, FR_NODES: 3, FR_SCANNED: 3 },
  ]);
  assert.equal(merged.meta[W.M_NODES], 2, 'the header counts the top walk only');
  // Frame-local coordinates travel as they are: the engine translates.
  assert.deepEqual(wireNodes(merged).map((n) => n.x), [0, 10, 0, 0, 0]);
  const [formId, labelId, inputId] = wireNodes(merged).slice(2).map((n) => n.id);
  assert.ok(formId >= 1000 && labelId >= 1000 && inputId >= 1000, 'frame ids come from the driver sequence');
  // Routes and id stability.
  assert.deepEqual({ ...merged.routes.get(inputId), chain: undefined }, { frameId: 7, token: 'doc-a', localId: 3, chain: undefined });
  assert.deepEqual([...merged.routes.get(inputId).chain], ['iframe-el']);
  const again = merge(raw, [kid], merged.idMaps, () => 'iframe-el', reserveId);
  assert.deepEqual(wireNodes(again).map((x) => x.id), wireNodes(merged).map((x) => x.id));
  // A new document in the same frame gets new ids.
  const reloaded = wireNodes(merge(raw, [{ ...kid, token: 'doc-b' }], merged.idMaps, () => 'iframe-el', reserveId));
  assert.ok(reloaded[4].id > inputId);

  // Through the engine: translated by the frame's content-box origin, the
  // iframe's stacking level, the top's own ids untouched.
  const { snap, byText } = snapshot(merged);
  assert.equal(snap.meta.elements_scanned, 13, 'elements_scanned adds the frames');
  assert.deepEqual([byText.label.bbox.x, byText.label.bbox.y], [100, 60]);
  assert.deepEqual([byText.input.bbox.x, byText.input.bbox.y], [100, 140]);
  assert.equal(byText.input.id, inputId);
  assert.equal(byText.input.z_index, 5);
  assert.equal(byText.after.id, 2);
  // Clip: the frame box (100,50,200,100) cut by its ancestor clip (y < 120):
  // the label shows, the input scrolled below the clip does not.
  assert.equal(byText.label.in_viewport, true);
  assert.equal(byText.input.in_viewport, false);
});

test('nested frames: offsets and visible areas compose, z is the top-level iframe', () => {
  const raw = topRaw([node(1, -1, 0, 0)], ['top']);
  const outer = walk([node(1, -1, 0, 0)], ['outer']);
  const inner = walk([node(1, -1, 5, 5, { z: 9 })], ['inner']);
  const innerKid = { desc: { at: 1, parent: -1, z: 3, rect: { x: 30, y: 40, w: 100, h: 30 }, clip: null, nonce: 'n2' }, frameId: 9, token: 'i', scanned: 1, kids: [], ...inner };
  const outerKid = { desc: { at: 1, parent: -1, z: 2, rect: { x: 10, y: 20, w: 300, h: 200 }, clip: null, nonce: 'n1' }, frameId: 8, token: 'o', scanned: 1, kids: [innerKid], ...outer };
  const merged = merge(raw, [outerKid], new Map(), () => 'iframe-el', reserveId);
  assert.deepEqual(wireNodes(merged).map((x) => x.text), ['top', 'outer', 'inner']);
  // The inner frame's host is the outer frame's row.
  assert.deepEqual(frameRows(merged).map((r) => [r.FR_HOST, r.FR_Z, r.FR_CLIP_W]), [[-1, 2, -1], [0, 3, -1]]);
  const innerId = wireNodes(merged)[2].id;
  assert.deepEqual([...merged.routes.get(innerId).chain], ['iframe-el', 'n2']);
  const { byText } = snapshot(merged);
  assert.deepEqual([byText.inner.bbox.x, byText.inner.bbox.y], [45, 65]);
  assert.equal(byText.inner.z_index, 2);
});

test('the engine refuses a gathered wire whose frame rows do not add up', () => {
  const raw = topRaw([node(1, -1, 0, 0)], ['top']);
  const f = walk([node(1, -1, 0, 0)], ['frame']);
  const kid = { desc: { at: 1, parent: -1, z: 0, rect: { x: 0, y: 0, w: 10, h: 10 }, clip: null, nonce: 'n' }, frameId: 1, token: 't', scanned: 1, kids: [], ...f };
  const merged = merge(raw, [kid], new Map(), () => 'iframe-el', reserveId);
  merged.meta[META_LEN + W.FR_AT] = 5; // past the top walk's nodes
  const e = new engine.Engine('content_script');
  const snap = JSON.parse(e.snapshot(merged, 'null', [0, 0, -1, 0, 0], ''));
  e.free();
  assert.deepEqual(snap, { status: 'error', error: 'raw page: frame 0 is not placed in a walk before it' });
});
