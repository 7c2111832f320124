// Iframes in snapshots (issue 5, "Reach"): same-origin and cross-origin
// frames, nested three deep across origins, clipped and covered frames,
// frames that never answer, actions inside frames, forged frame messages.
// The second origin is a second server reached as http://localhost:PORT
// (the first is http://127.0.0.1:PORT): another site, so Chromium puts its
// frames in another renderer process, as on the real web.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, evaluate, snapshot, viaWorker } from '../lib/harness.mjs';
import { assertSchema } from '../lib/expect.mjs';

const env = { one: null, two: null, browser: null, hanging: [] };
// A frame whose document never arrives.
const routes = { '/hang': (req, res) => env.hanging.push(res) };

before(async () => {
  env.one = await startServer(undefined, routes);
  env.two = await startServer(undefined, routes);
  env.o2 = `http://localhost:${env.two.port}`;
  env.browser = await launch();
});
after(async () => {
  await env.browser?.close();
  for (const res of env.hanging) res.destroy();
  await env.one?.close();
  await env.two?.close();
});

// Frames load after DOMContentLoaded; some never do, so `load` may never come.
async function openFrames(path, frameCount) {
  const page = await env.browser.context.newPage();
  await page.goto(`${env.one.url}${path}`, { waitUntil: 'domcontentloaded' });
  await page.waitForFunction(() => typeof window.sentience === 'object');
  if (frameCount) await waitFrames(page, frameCount);
  return page;
}

// Waits until `n` frames (besides the top) have a window.sentience.
async function waitFrames(page, n) {
  const until = Date.now() + 15000;
  for (;;) {
    const ready = await Promise.all(page.frames().slice(1).map((f) => f.evaluate(() => document.readyState === 'complete' && typeof window.sentience === 'object').catch(() => false)));
    if (ready.filter(Boolean).length >= n) return;
    if (Date.now() > until) throw new Error(`only ${ready.filter(Boolean).length} of ${n} frames ready`);
    await page.waitForTimeout(100);
  }
}

const byText = (snap, text) => snap.elements.find((e) => e.text === text);
function must(snap, text) {
  const e = byText(snap, text);
  assert.ok(e, `no element "${text}" in: ${snap.elements.map((x) => x.text).join(' | ')}`);
  return e;
}

test('same-origin, cross-origin and 3-deep frames appear with top-level bboxes and unique ids', async () => {
  const page = await openFrames(`/frames/top.html?o2=${encodeURIComponent(env.o2)}`, 5);
  try {
    const snap = await snapshot(page);
    assert.equal(snap.status, 'success', snap.error);
    assertSchema(snap);
    for (const text of ['Top button', 'Same-origin button', 'Cross-origin button', 'Level one link', 'Level two button', 'Deep button']) must(snap, text);
    assert.equal(new Set(snap.elements.map((e) => e.id)).size, snap.elements.length, 'ids are unique');
    assert.equal(snap.frames.included.length, 5, JSON.stringify(snap.frames));
    assert.deepEqual(snap.frames.skipped, []);
    assert.deepEqual(snap.frames.included.map((f) => f.depth).sort(), [1, 1, 1, 2, 3]);

    // Each bbox is where the browser draws the element, in top-level
    // viewport coordinates: compare with Playwright's own measurement.
    for (const [text, selector] of [['Same-origin button', '#same'], ['Cross-origin button', '#cross']]) {
      const e = must(snap, text);
      const frame = page.frames().find((f) => f.parentFrame() === page.mainFrame() && f.url().includes(selector === '#same' ? 'child-same' : 'child-cross'));
      const box = await frame.locator('#b').boundingBox();
      assert.ok(Math.abs(e.bbox.x - box.x) < 1 && Math.abs(e.bbox.y - box.y) < 1, `${text}: bbox ${JSON.stringify(e.bbox)} vs ${JSON.stringify(box)}`);
      assert.equal(e.in_viewport, true);
      assert.equal(e.is_occluded, false);
    }
    const deep = must(snap, 'Deep button');
    const deepFrame = page.frames().find((f) => f.url().includes('level3'));
    const box = await deepFrame.locator('button').boundingBox();
    assert.ok(Math.abs(deep.bbox.x - box.x) < 1 && Math.abs(deep.bbox.y - box.y) < 1, `deep bbox ${JSON.stringify(deep.bbox)} vs ${JSON.stringify(box)}`);

    // Ids stay the same across snapshots.
    const again = await snapshot(page);
    for (const text of ['Same-origin button', 'Cross-origin button', 'Deep button']) assert.equal(must(again, text).id, must(snap, text).id, text);
  } finally {
    await page.close();
  }
});
