// Iframes in snapshots (docs/api.md "Iframes and shadow DOM"): same-origin and cross-origin
// frames, nested three deep across origins, clipped and covered frames,
// frames that never answer, actions inside frames, forged frame messages.
// The second origin is a second server reached as http://localhost:PORT
// (the first is http://127.0.0.1:PORT): another site, so Chromium puts its
// frames in another renderer process, as on the real web.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, evaluate, snapshot, viaWorker, trustOrigins, isolatedWorld } from '../lib/harness.mjs';
import { assertSchema } from '../lib/expect.mjs';

const env = { one: null, two: null, browser: null, hanging: [] };
// A frame whose document never arrives.
const routes = {
  '/hang': (req, res) => env.hanging.push(res),
  // A document that refuses to be framed: Chromium shows its error page.
  '/redirect-dead': (req, res) => res.writeHead(302, { location: 'http://127.0.0.1:9/redirected-nowhere' }).end(),
  '/xfo-deny': (req, res) => res.writeHead(200, { 'content-type': 'text/html', 'x-frame-options': 'DENY' }).end('<button>Framed anyway</button>'),
};

before(async () => {
  env.one = await startServer(undefined, routes);
  env.two = await startServer(undefined, routes);
  env.o2 = `http://localhost:${env.two.port}`;
  env.browser = await launch();
  // These tests are about reach: the page API of an allowed origin sees and
  // acts in every frame, as the extension's own callers do. What other pages
  // get is tests/e2e/same-origin.test.mjs.
  await trustOrigins(env.browser.worker, [env.one.url]);
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
    // A frame still navigating (the one that never loads) would hold
    // evaluate() forever: give each an answer time.
    const ask = (f) => Promise.race([f.evaluate(() => document.readyState === 'complete' && typeof window.sentience === 'object').catch(() => false), new Promise((r) => setTimeout(() => r(false), 500))]);
    const ready = await Promise.all(page.frames().slice(1).map(ask));
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
    // The same-origin child is now walked by the top frame directly; the
    // cross-origin one still sends its walk by message.
    const viaOf = (s, part) => s.frames.included.find((f) => f.url.includes(part)).via;
    assert.equal(viaOf(again, 'child-same'), 'direct');
    assert.equal(viaOf(again, 'child-cross'), 'message');
    for (const text of ['Same-origin button', 'Cross-origin button', 'Deep button']) assert.equal(must(again, text).id, must(snap, text).id, text);
    // Also when an element drops out of a snapshot for a while.
    const cross = page.frames().find((f) => f.url().includes('child-cross'));
    await cross.evaluate(() => (document.getElementById('b').style.display = 'none'));
    assert.ok(!byText(await snapshot(page), 'Cross-origin button'));
    await cross.evaluate(() => (document.getElementById('b').style.display = ''));
    assert.equal(must(await snapshot(page), 'Cross-origin button').id, must(snap, 'Cross-origin button').id);

    // Frames walk when their nonce arrives, at most once per 50 ms; a
    // snapshot right after another gets its walks by asking the frames
    // (the service worker's request): both ways give every frame, fresh.
    await cross.evaluate(() => (document.getElementById('b').textContent = 'Renamed cross button'));
    const [first, second] = await evaluate(page, 'Promise.all([window.sentience.snapshot(), window.sentience.snapshot()])');
    for (const s of [first, second]) {
      assert.equal(s.status, 'success', s.error);
      assert.equal(s.frames.included.length, 5, JSON.stringify(s.frames));
      for (const text of ['Same-origin button', 'Renamed cross button', 'Deep button']) must(s, text);
    }
  } finally {
    await page.close();
  }
});

test('click, type and press inside a cross-origin frame, through the page API and the service worker', async () => {
  const page = await openFrames(`/frames/top.html?o2=${encodeURIComponent(env.o2)}`, 5);
  try {
    const snap = await snapshot(page);
    const cross = page.frames().find((f) => f.url().includes('child-cross'));
    const button = must(snap, 'Cross-origin button');
    const clicked = await evaluate(page, `window.sentience.click(${button.id})`);
    assert.equal(clicked.success, true, clicked.error);
    assert.equal(await cross.locator('#b').textContent(), 'Cross clicked');

    const field = snap.elements.find((e) => e.role === 'textbox' && e.text === 'Cross-origin field');
    assert.ok(field, 'cross-origin text field listed');
    const typed = await evaluate(page, `window.sentience.type(${field.id}, 'hello frames')`);
    assert.equal(typed.success, true, typed.error);
    assert.equal(await cross.locator('#q').inputValue(), 'hello frames');
    // The field has focus inside the frame: Enter goes there.
    const pressed = await evaluate(page, `window.sentience.press('Enter')`);
    assert.equal(pressed.success, true, pressed.error);
    assert.equal(await cross.locator('#b').textContent(), 'Entered hello frames');

    // The extension's own path (agent runs): the same ids through the service worker.
    const deep = must(snap, 'Deep button');
    const viaSw = await viaWorker(env.browser.worker, page, 'click', { id: deep.id });
    assert.equal(viaSw.success, true, viaSw.error);
    const deepFrame = page.frames().find((f) => f.url().includes('level3'));
    assert.equal(await deepFrame.locator('button').textContent(), 'Deep clicked');
    const info = await viaWorker(env.browser.worker, page, 'page_info', { ids: [field.id, deep.id] });
    assert.equal(info.elements[field.id].tag, 'input');
    assert.equal(info.elements[field.id].value, 'hello frames');
    assert.equal(info.elements[deep.id].tag, 'button');
    const hl = await viaWorker(env.browser.worker, page, 'highlight', { id: deep.id, label: 'click' });
    assert.equal(hl.success, true, hl.error);

    // A frame element id dies with its document.
    await deepFrame.evaluate(() => location.reload());
    await waitFrames(page, 5);
    const stale = await evaluate(page, `window.sentience.click(${deep.id})`);
    assert.equal(stale.success, false);
    assert.match(stale.error, /navigated|no element|gone/);
  } finally {
    await page.close();
  }
});

test('agent loop tools (observe, type, click) work on frame elements', async () => {
  const page = await openFrames(`/frames/top.html?o2=${encodeURIComponent(env.o2)}`, 5);
  try {
    const got = await env.browser.worker.evaluate(async ({ url }) => {
      const [tab] = await chrome.tabs.query({ url });
      const obs = await SentienceTools.observe(tab.id);
      const field = obs.elements.find((e) => e.text === 'Cross-origin field');
      const deep = obs.elements.find((e) => e.text === 'Deep button');
      const typed = await SentienceTools.execute(tab.id, { name: 'type', parameters: { id: field.id, text: 'from the agent' } });
      const clicked = await SentienceTools.execute(tab.id, { name: 'click', parameters: { id: `agent-${deep.id}` } });
      return { tag: field.tag, placeholder: field.placeholder, deepTag: deep.tag, typed: typed.success, clicked: clicked.success, frames: obs.frames.included.length, text: obs.visibleText };
    }, { url: page.url() });
    // The visible text the server's policies read includes the frames'.
    assert.match(got.text, /Top button.*Cross-origin button.*Deep button/);
    delete got.text;
    assert.deepEqual(got, { tag: 'input', placeholder: 'Cross-origin field', deepTag: 'button', typed: true, clicked: true, frames: 5 });
    const cross = page.frames().find((f) => f.url().includes('child-cross'));
    assert.equal(await cross.locator('#q').inputValue(), 'from the agent');
    assert.equal(await page.frames().find((f) => f.url().includes('level3')).locator('button').textContent(), 'Deep clicked');
  } finally {
    await page.close();
  }
});

test('about:blank frames filled by their parent and srcdoc frames are included', async () => {
  const page = await openFrames('/frames/blank.html', 0);
  try {
    await page.waitForFunction(() => document.getElementById('doc').contentDocument?.querySelector('button'));
    const snap = await snapshot(page);
    assert.equal(snap.status, 'success', snap.error);
    assertSchema(snap);
    assert.deepEqual(snap.frames.skipped, []);
    for (const text of ['Blank page top', 'Blank frame button', 'Srcdoc button']) must(snap, text);
    assert.equal((await evaluate(page, `window.sentience.click(${must(snap, 'Srcdoc button').id})`)).success, true);
    assert.equal((await evaluate(page, `window.sentience.click(${must(snap, 'Blank frame button').id})`)).success, true);
    const texts = await page.evaluate(() => ['blank', 'doc'].map((id) => document.getElementById(id).contentDocument.querySelector('button').textContent));
    assert.deepEqual(texts, ['Blank clicked', 'Srcdoc clicked']);
  } finally {
    await page.close();
  }
});

test('sentience_registry gives same-origin frame elements, undefined for cross-origin ones', async () => {
  const page = await openFrames(`/frames/top.html?o2=${encodeURIComponent(env.o2)}`, 5);
  try {
    const snap = await snapshot(page);
    const same = must(snap, 'Same-origin button');
    const cross = must(snap, 'Cross-origin button');
    const deep = must(snap, 'Deep button'); // top → same-origin → cross-origin → same-origin
    const got = await evaluate(page, `(() => {
      const s = window.sentience_registry[${same.id}];
      const c = window.sentience_registry[${cross.id}];
      const d = window.sentience_registry[${deep.id}];
      return { same: s ? s.textContent : null, sameInFrame: !!s && s.ownerDocument !== document, cross: c === undefined, deep: d === undefined };
    })()`);
    assert.deepEqual(got, { same: 'Same-origin button', sameInFrame: true, cross: true, deep: true });
    // Three same-origin levels: the registry reaches the innermost frame.
    const strict = await openFrames('/frames/nested-same.html', 3);
    try {
      const s2 = await snapshot(strict);
      const inner = must(s2, 'Deep button');
      const mid = must(s2, 'Level two button');
      const r = await evaluate(strict, `(() => {
        const i = window.sentience_registry[${inner.id}];
        const m = window.sentience_registry[${mid.id}];
        return [i && i.textContent, i && (() => { let w = i.ownerDocument.defaultView, n = 0; while (w !== window && n < 9) { w = w.parent; n++; } return n; })(), m && m.textContent];
      })()`);
      assert.deepEqual(r, ['Deep button', 3, 'Level two button']);
      // The first snapshot taught each frame its frameId: from now on every
      // level is walked by its parent directly, in the same task, and the
      // ids, the registry and actions (routed by that frameId) still hold.
      assert.ok(s2.frames.included.every((f) => f.via === 'message'), JSON.stringify(s2.frames));
      const s3 = await snapshot(strict);
      assertSchema(s3);
      assert.deepEqual(s3.frames.included.map((f) => [f.depth, f.via]), [[1, 'direct'], [2, 'direct'], [3, 'direct']]);
      assert.equal(must(s3, 'Deep button').id, inner.id);
      assert.equal(await evaluate(strict, `window.sentience_registry[${inner.id}].textContent`), 'Deep button');
      const clicked = await evaluate(strict, `window.sentience.click(${inner.id})`);
      assert.equal(clicked.success, true, clicked.error);
      assert.equal(await strict.frames().find((f) => f.url().includes('level3')).locator('button').textContent(), 'Deep clicked');
    } finally {
      await strict.close();
    }
  } finally {
    await page.close();
  }
});

test('a frame partly scrolled out of its scroller is clipped to what shows', async () => {
  const page = await openFrames('/frames/clipped.html', 1);
  try {
    const snap = await snapshot(page);
    assertSchema(snap);
    const shown = must(snap, 'Shown part');
    const clipped = must(snap, 'Clipped part');
    assert.equal(shown.in_viewport, true);
    assert.equal(shown.is_occluded, false);
    assert.ok(shown.bbox.y >= 200 && shown.bbox.y < 300, `shown bbox ${JSON.stringify(shown.bbox)}`);
    // Inside the top viewport (y ≈ 460) but clipped away by the scroller.
    assert.ok(clipped.bbox.y > 300 && clipped.bbox.y < 800, `clipped bbox ${JSON.stringify(clipped.bbox)}`);
    assert.equal(clipped.in_viewport, false);
    // Scroll the scroller so the frame's bottom shows.
    await page.evaluate(() => (document.getElementById('scroller').scrollTop = 300));
    const after = await snapshot(page);
    assert.equal(must(after, 'Clipped part').in_viewport, true);
    assert.equal(must(after, 'Shown part').in_viewport, false);
  } finally {
    await page.close();
  }
});

test('a frame covered by a modal in the top page: its elements are occluded', async () => {
  const page = await openFrames('/frames/modal.html', 2);
  try {
    const snap = await snapshot(page);
    assertSchema(snap);
    const behind = must(snap, 'Same-origin button');
    assert.equal(behind.in_viewport, true);
    assert.equal(behind.is_occluded, true);
    assert.equal(must(snap, 'Close modal').is_occluded, false);
    // The frame inside the modal is part of it, not under it.
    assert.equal(must(snap, 'Deep button').is_occluded, false);
    assert.equal(must(snap, 'Deep button').z_index, 101);
    const close = await evaluate(page, `window.sentience.click(${must(snap, 'Close modal').id})`);
    assert.equal(close.success, true);
    assert.equal(must(await snapshot(page), 'Same-origin button').is_occluded, false);
  } finally {
    await page.close();
  }
});

test('frames that never answer are skipped with a reason, without stalling the snapshot', async () => {
  const page = await openFrames(`/frames/slow.html?o2=${encodeURIComponent(env.o2)}`, 3);
  try {
    if (process.env.DEBUG_FRAMES) console.error('slow: frames ready');
    const busy = page.frames().find((f) => f.url().includes('busy.html'));
    await busy.evaluate(() => window.busy(4000));
    await page.waitForTimeout(100);
    if (process.env.DEBUG_FRAMES) console.error('slow: busy');
    const snap = await snapshot(page, { frames: { timeout_ms: 300 } });
    if (process.env.DEBUG_FRAMES) console.error('slow: snapshot', JSON.stringify(snap.frames));
    assert.equal(snap.status, 'success', snap.error);
    assertSchema(snap);
    must(snap, 'Top of slow page');
    must(snap, 'Same-origin button');
    assert.ok(!byText(snap, 'Busy frame button'));
    const reasons = Object.fromEntries(snap.frames.skipped.map((s) => [new URL(s.url).pathname, s.reason]));
    assert.deepEqual(reasons, { '/hang': 'not_loaded', '/frames/busy.html': 'timeout', '/frames/child-same.html': 'hidden' });
    assert.equal(snap.frames.included.length, 1);
    // Options are checked.
    const bad = await snapshot(page, { frames: { timeout_ms: 0 } });
    assert.equal(bad.status, 'error');
    assert.match(bad.error, /timeout_ms/);
    const off = await snapshot(page, { frames: false });
    assert.equal(off.status, 'success');
    assert.equal(off.frames, undefined);
    assert.ok(!byText(off, 'Same-origin button'));
  } finally {
    await page.close();
  }
});

// Dead frames (docs/benchmarks.md "Frames that cannot answer"): frames that can
// never answer are skipped at once with the browser's reason. Asked with the
// longest timeout (10 s): a reason other than `timeout` means the relay did not
// wait it out (the time itself is measured by pkg-scripts/real-pages-bench.sh,
// not asserted here).
test('dead, blocked, sandboxed and blank frames: truthful reasons, never waited for', async () => {
  // (Page scripts do not run in the sandboxed frame: two frames have a
  // window.sentience; the third is awaited through snapshots.)
  const page = await openFrames('/frames/dead.html', 2);
  try {
    for (let i = 0; i < 50 && (await snapshot(page)).frames.included.length < 3; i++) await page.waitForTimeout(100);
    for (let i = 0; i < 2; i++) {
      const snap = await snapshot(page, { frames: { timeout_ms: 10000 } });
      assert.equal(snap.status, 'success', snap.error);
      assertSchema(snap);
      const reasons = Object.fromEntries(snap.frames.skipped.map((s) => [new URL(s.url).pathname, s.reason]));
      assert.deepEqual(reasons, { '/nothing-listens-here': 'load_failed', '/blocked-by-frame-src': 'load_failed', '/xfo-deny': 'load_failed', '/redirect-dead': 'load_failed', '/hang': 'not_loaded' }, JSON.stringify(snap.frames));
      // The extension's scripts run in sandboxed and never-written about:blank frames.
      assert.deepEqual(snap.frames.included.map((f) => f.url.replace(/^http:\/\/[^/]+/, '')).sort(), ['/frames/child-cross.html', '/frames/child-same.html', 'about:blank']);
      must(snap, 'Top of dead page');
      must(snap, 'Same-origin button');
      must(snap, 'Cross-origin button');
      assert.ok(!byText(snap, 'Framed anyway'));
    }
  } finally {
    await page.close();
  }
});

// When a document's first call loads the runtime, the service worker also
// tells which of its frames failed to load (content/frames.js
// learnDeadFrames): the first snapshot skips them without asking anyone.
test('frames that failed to load are known from the first call on', async () => {
  const page = await env.browser.context.newPage();
  try {
    await page.goto(`${env.one.url}/frames/dead-loaded.html`, { waitUntil: 'load' });
    await page.waitForFunction(() => typeof window.sentience === 'object');
    // A first call that is not a snapshot (no snapshot yet: an error value).
    assert.equal((await evaluate(page, `window.sentience.query('role=button')`)).status, 'error');
    const world = await isolatedWorld(page);
    const known = await world.evaluate(`Array.from(document.querySelectorAll('iframe'), (el) => [el.id, SentienceFrames.deadOf(el) || null])`);
    await world.close();
    assert.deepEqual(Object.fromEntries(known), { failed: 'load_failed', csp: 'load_failed', xfo: 'load_failed' }, 'marked dead before any snapshot');
    const snap = await snapshot(page);
    assert.equal(snap.status, 'success', snap.error);
    assertSchema(snap);
    const reasons = Object.fromEntries(snap.frames.skipped.map((s) => [new URL(s.url).pathname, s.reason]));
    assert.deepEqual(reasons, { '/nothing-listens-here': 'load_failed', '/blocked-by-frame-src': 'load_failed', '/xfo-deny': 'load_failed' }, JSON.stringify(snap.frames));
    must(snap, 'Top of page with failed frames');
  } finally {
    await page.close();
  }
});

test('a frame that timed out is not waited for again until it answers or navigates', async () => {
  const page = await openFrames(`/frames/slow.html?o2=${encodeURIComponent(env.o2)}`, 3);
  try {
    const busy = page.frames().find((f) => f.url().includes('busy.html'));
    const reasonOf = (snap) => snap.frames.skipped.find((s) => s.url.includes('busy.html'))?.reason;
    // Busy for 3 s: the first snapshot waits 300 ms and gives up; the
    // second, with the longest timeout, does not wait for it at all.
    await busy.evaluate(() => window.busy(3000));
    await page.waitForTimeout(100);
    const first = await snapshot(page, { frames: { timeout_ms: 300 } });
    assert.equal(reasonOf(first), 'timeout', JSON.stringify(first.frames));
    const second = await snapshot(page, { frames: { timeout_ms: 10000 } });
    assert.equal(second.status, 'success', second.error);
    assertSchema(second);
    assert.equal(reasonOf(second), 'unresponsive', JSON.stringify(second.frames));
    must(second, 'Same-origin button');
    // Once free again it claims the nonces it was sent (announcing itself):
    // a later snapshot waits for it and includes it.
    for (let i = 0; i < 50 && byText(await snapshot(page), 'Busy frame button') === undefined; i++) await page.waitForTimeout(200);
    must(await snapshot(page), 'Busy frame button');
  } finally {
    await page.close();
  }
});

test('forged frame messages cannot inject elements', async () => {
  const page = await openFrames('/frames/forge.html', 2);
  try {
    await page.waitForTimeout(200);
    for (let i = 0; i < 3; i++) {
      const snap = await snapshot(page);
      assert.equal(snap.status, 'success', snap.error);
      assertSchema(snap);
      assert.ok(!JSON.stringify(snap).includes('INJECTED'), 'no forged element');
      must(snap, 'Real top button');
      assert.ok(snap.elements.filter((e) => e.text === 'Same-origin button').length === 1);
      // A same-origin parent that overhears a nonce and replays it to the
      // other frame can at most get the frame skipped as ambiguous (when the
      // replayed claim comes before the driver takes the walk); it never
      // gets the other frame's walk put in its place (checked above: the
      // other frame's button is there once).
      const a = snap.frames.skipped.find((s) => s.url.includes('forge-child'));
      if (a) assert.equal(a.reason, 'ambiguous', JSON.stringify(snap.frames));
      else must(snap, 'Real frame button');
    }
  } finally {
    await page.close();
  }
});

test('strict-CSP page: frames merged before the engine runs in the service worker', async () => {
  const page = await openFrames('/frames/strict.csp.html', 2);
  try {
    const snap = await snapshot(page);
    assert.equal(snap.status, 'success', snap.error);
    assertSchema(snap);
    assert.equal(snap.meta.engine_path, 'service_worker');
    must(snap, 'Strict top button');
    must(snap, 'Same-origin button');
    const deep = must(snap, 'Deep button');
    assert.equal((await evaluate(page, `window.sentience.click(${deep.id})`)).success, true);
    const frame = page.frames().find((f) => f.url().includes('level3'));
    assert.equal(await frame.locator('button').textContent(), 'Deep clicked');
  } finally {
    await page.close();
  }
});
