// The window.sentience API surface: registry, options and their errors,
// limit and filters, screenshots, both engine paths, stable ids.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { open, snapshot, evaluate, viaWorker, suite, engineLoaded } from '../lib/harness.mjs';
import { assertSchema } from '../lib/expect.mjs';

const env = suite({ trusted: true });

test('sentience_registry[id] is the live element of every id in the last snapshot', async () => {
  const page = await open(env.browser.context, `${env.server.url}/login.html`);
  const snap = await snapshot(page);
  const checks = await evaluate(
    page,
    `(() => {
      const snap = ${JSON.stringify(snap)};
      return snap.elements.map((e) => {
        const el = window.sentience_registry[e.id];
        return { ok: el instanceof Element, tag: el && el.localName, has: e.id in window.sentience_registry };
      });
    })()`,
  );
  assert.equal(checks.length, snap.elements.length);
  for (const c of checks) assert.deepEqual({ ok: c.ok, has: c.has }, { ok: true, has: true });
  assert.equal(await evaluate(page, 'window.sentience_registry[999999]'), undefined);
  assert.equal(await evaluate(page, 'Object.keys(window.sentience_registry).length'), snap.elements.length);
  // Read-only from the page.
  assert.equal(await evaluate(page, '(() => { window.sentience_registry[1] = 5; return window.sentience_registry[1] === 5; })()'), false);
  await page.close();
});

test('ids stay the same across snapshots while the element stays in the page', async () => {
  const page = await open(env.browser.context, `${env.server.url}/login.html`);
  const a = await snapshot(page);
  await page.evaluate(() => document.body.prepend(Object.assign(document.createElement('button'), { textContent: 'New first button' })));
  const b = await snapshot(page);
  const idOf = (s, text) => s.elements.find((e) => e.text === text).id;
  for (const text of ['Sign in', 'Username', 'Forgot password?']) assert.equal(idOf(a, text), idOf(b, text), text);
  const fresh = idOf(b, 'New first button');
  assert.ok(!a.elements.some((e) => e.id === fresh), 'a new element gets a new id');
  await page.close();
});

test('invalid options resolve to {status:"error"} and never throw', async () => {
  const page = await open(env.browser.context, `${env.server.url}/login.html`);
  const cases = {
    '{ limt: 5 }': /unknown field `limt`/,
    '{ limit: -1 }': /invalid snapshot options/,
    '{ limit: "5" }': /invalid snapshot options/,
    '{ filter: { allowed_roles: ["heading"] } }': /unknown variant `heading`/,
    '{ filter: { min_area: -1 } }': /min_area/,
    '{ screenshot: { format: "gif" } }': /invalid snapshot options/,
    '{ limit: () => 5 }': /invalid snapshot arguments/,
    '42': /invalid snapshot options/,
  };
  for (const [opts, pattern] of Object.entries(cases)) {
    const res = await evaluate(page, `window.sentience.snapshot(${opts})`);
    assert.equal(res.status, 'error', opts);
    assert.match(res.error, pattern, opts);
    assert.deepEqual(Object.keys(res).sort(), ['error', 'status'], opts);
    assertSchema(res);
  }
  await page.close();
});

test('limit keeps the top N; filters apply; meta says what was removed', async () => {
  const page = await open(env.browser.context, `${env.server.url}/login.html`);
  const all = await snapshot(page);
  const top = await snapshot(page, { limit: 2 });
  assert.deepEqual(top.elements, all.elements.slice(0, 2));
  assert.equal(top.meta.truncated_by_limit, all.elements.length - 2);
  const buttons = await snapshot(page, { filter: { allowed_roles: ['button'] } });
  assert.deepEqual(buttons.elements.map((e) => e.text).sort(), ['Cancel', 'Sign in']);
  assert.equal(buttons.meta.filtered_out, all.elements.length - 2);
  const big = await snapshot(page, { filter: { min_area: 5000 } });
  assert.ok(big.elements.every((e) => e.bbox.width * e.bbox.height >= 5000));
  assert.ok(big.elements.length < all.elements.length);
  const z = await snapshot(page, { filter: { min_z_index: 1 } });
  assert.equal(z.elements.length, 0);
  const vis = await snapshot(page, { filter: { in_viewport_only: true } });
  assert.ok(vis.elements.every((e) => e.in_viewport));
  await page.close();
});

test('screenshot: true and {format:"jpeg"} return data URLs captured by the service worker', async () => {
  const page = await open(env.browser.context, `${env.server.url}/login.html`);
  await page.bringToFront();
  const png = await snapshot(page, { screenshot: true, limit: 1 });
  assertSchema(png);
  assert.equal(png.screenshot_format, 'png');
  assert.match(png.screenshot, /^data:image\/png;base64,iVBOR/);
  const jpeg = await snapshot(page, { screenshot: { format: 'jpeg', quality: 50 }, limit: 1 });
  assert.equal(jpeg.screenshot_format, 'jpeg');
  assert.match(jpeg.screenshot, /^data:image\/jpeg;base64,\/9j\//);
  const none = await snapshot(page, { limit: 1 });
  assert.equal('screenshot' in none, false);
  await page.close();
});

test('a background tab cannot capture the visible tab', async () => {
  const back = await open(env.browser.context, `${env.server.url}/login.html`);
  const front = await open(env.browser.context, `${env.server.url}/hidden.html`);
  await front.bringToFront();
  const res = await snapshot(back, { screenshot: true });
  assert.equal(res.status, 'error');
  assert.match(res.error, /not the visible tab/);
  await back.close();
  await front.close();
});

test('the service-worker path gives the same snapshot as the content-script path', async () => {
  const page = await open(env.browser.context, `${env.server.url}/labels.html`);
  await engineLoaded(page);
  const local = await snapshot(page);
  const remote = await viaWorker(env.browser.worker, page, 'snapshot', null, { path: 'service_worker' });
  assert.equal(local.meta.engine_path, 'content_script');
  assert.equal(remote.meta.engine_path, 'service_worker');
  assertSchema(remote);
  const strip = (s) => s.elements;
  assert.deepEqual(strip(remote), strip(local));
  await page.close();
});

test("answers to the extension's own calls never reach the page", async () => {
  const page = await open(env.browser.context, `${env.server.url}/login.html`);
  await page.evaluate(() => {
    window.seen = [];
    window.addEventListener('message', (e) => window.seen.push(e.data), true);
    document.addEventListener('sentience', (e) => window.seen.push(e.type), true);
  });
  const res = await viaWorker(env.browser.worker, page, 'snapshot', { limit: 3 });
  assert.equal(res.status, 'success');
  await snapshot(page, { limit: 3 });
  assert.deepEqual(await page.evaluate('window.seen'), []);
  await page.close();
});

// The facade hands its secret event names to the bridge by one synchronous
// event at document_start (main-world.js, bridge.js): a page that listens
// for it from its first script, or from a parent reaching into a new
// frame, hears nothing; its own handshakes and calls on names it chose are
// not taken, and the real API still answers after it broke the prototypes.
test('a page can neither hear nor forge the handshake between the facade and the bridge', async () => {
  const page = await open(env.browser.context, `${env.server.url}/handshake.html`);
  await page.waitForFunction(() => window.forged === true);
  assert.deepEqual(await page.evaluate('window.taken'), { head: false, child: false, load: false, call: false, childCall: false }, 'no forged handshake or call was taken');
  const snap = await snapshot(page);
  assert.equal(snap.status, 'success', snap.error);
  assert.ok(snap.elements.some((e) => e.text === 'Real button'), 'the real API answers');
  const child = await page.evaluate(() => document.querySelector('iframe').contentWindow.sentience.snapshot());
  assert.equal(child.status, 'success', child.error);
  assert.ok(child.elements.some((e) => e.text === 'Child button'), "the child frame's API answers");
  assert.deepEqual(await page.evaluate('window.seen'), [], 'the page heard no handshake and the facade used no patched prototype');
  assert.deepEqual(await page.evaluate('[window.replies, document.querySelector("iframe").contentWindow.replies]'), [[], []], 'no answer on names the page chose');
  await page.close();
});
