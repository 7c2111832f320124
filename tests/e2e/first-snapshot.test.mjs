// What a document holds before and after its first call of the API
// (docs/architecture.md "Loaded on first use"; docs/benchmarks.md "What
// being installed costs"): until a page or the extension calls, only the
// MAIN-world facade and the bridge; the first call has the service worker
// inject the content runtime into that document alone. A document's first
// snapshot is computed by the service worker's engine while its own loads,
// and the engine here catches up on it, so diffs compare across the switch
// as within one engine. On trusted origins (where agents work) documents
// load the runtime as they load, before any call.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { open, snapshot, evaluate, isolatedWorld, viaWorker, suite, startServer, trustOrigins } from '../lib/harness.mjs';
import { assertSchema } from '../lib/expect.mjs';

const env = suite();
// A second origin the tests trust (the suite's own is not trusted).
let trusted = null;
before(async () => {
  trusted = await startServer();
});
after(async () => {
  await trusted?.close();
});

// The isolated world's globals of the runtime, and the engine's.
const RUNTIME = ['SentienceWalker', 'SentienceFrames', 'SentienceSnapshots', 'SentienceEngines', 'SentienceQueries', 'SentiencePageOps', 'SentienceEngine', 'SentienceQuery', 'SentienceOverlay'];
// (`typeof NAME`, not globalThis[NAME]: the wasm-bindgen glue declares its global with `let`.)
const present = (world) => world.evaluate(`[${RUNTIME.map((g) => `typeof ${g} !== 'undefined' && '${g}'`).join(', ')}].filter(Boolean)`);

test('until the first call, a document holds the facade and the bridge only; the call loads the runtime there alone', async () => {
  const page = await open(env.browser.context, `${env.server.url}/login.html`);
  const other = await open(env.browser.context, `${env.server.url}/login.html?other`);
  const world = await isolatedWorld(page, { runtime: false });
  const otherWorld = await isolatedWorld(other, { runtime: false });
  try {
    assert.equal(await evaluate(page, 'typeof window.sentience.snapshot'), 'function', 'the facade is there from the start');
    assert.deepEqual(await world.evaluate(`[typeof SentienceProtocol, typeof SentienceTrusted, typeof SentienceTrust]`), ['object', 'object', 'object']);
    assert.deepEqual(await present(world), [], 'no walker, engine, query module or operations before the first call');
    // ping says the content script is there without loading anything.
    // (with the document's identity, its address and its readyState, which
    // the MCP server's page state reads).
    const pong = await viaWorker(env.browser.worker, page, 'ping', {});
    assert.equal(pong.ready, true);
    assert.equal(pong.url, `${env.server.url}/login.html`);
    assert.equal(typeof pong.doc, 'string');
    assert.ok(['loading', 'interactive', 'complete'].includes(pong.state), String(pong.state));
    assert.deepEqual(await present(world), [], 'ping loads nothing');

    const snap = await snapshot(page);
    assert.equal(snap.status, 'success', snap.error);
    assertSchema(snap);
    assert.ok(snap.elements.some((e) => e.role === 'button' && e.text === 'Sign in'));
    assert.deepEqual((await present(world)).sort(), [...RUNTIME].sort(), 'the first call loaded the runtime');
    assert.deepEqual(await present(otherWorld), [], 'in that document only');
  } finally {
    await world.close();
    await otherWorld.close();
    await page.close();
    await other.close();
  }
});

test("a document's first snapshot comes from the service worker's engine, the next from its own, and diffs span the switch", async () => {
  const page = await open(env.browser.context, `${env.server.url}/login.html`);
  try {
    const first = await snapshot(page, { diff: true });
    assert.equal(first.status, 'success', first.error);
    assert.equal(first.meta.engine_path, 'service_worker', 'the worker computes it while the engine here loads');
    assert.equal(first.diff.since, null);
    // (Time for the engine here to load; not a timing assertion.)
    await page.waitForTimeout(300);
    await evaluate(page, `document.querySelector('.secondary').remove()`);
    const second = await snapshot(page, { diff: true });
    assert.equal(second.status, 'success', second.error);
    assert.equal(second.meta.engine_path, 'content_script');
    const cancel = first.elements.find((e) => e.text === 'Cancel');
    assert.ok(cancel, 'the first snapshot lists Cancel');
    assert.deepEqual(second.diff, { since: first.snapshot_id, added: [], removed: [cancel.id], changed: [] }, 'compared with the snapshot the worker computed');
    const third = await snapshot(page, { since: first.snapshot_id });
    assert.deepEqual(third.diff.removed, [cancel.id], '`since` reaches it too');
    // The same page, both engines: the same elements.
    const strip = (s) => JSON.stringify(s.elements);
    const again = await open(env.browser.context, `${env.server.url}/login.html`);
    const firstAgain = await snapshot(again);
    const secondAgain = await snapshot(again);
    assert.equal(firstAgain.meta.engine_path, 'service_worker');
    assert.equal(secondAgain.meta.engine_path, 'content_script');
    assert.equal(strip(firstAgain), strip(secondAgain));
    await again.close();
  } finally {
    await page.close();
  }
});

test('child frames load the runtime when a parent snapshot asks for their walk', async () => {
  const page = await env.browser.context.newPage();
  try {
    await page.goto(`${env.server.url}/frames/nested-same.html`, { waitUntil: 'load' });
    await page.waitForFunction(() => typeof window.sentience === 'object');
    assert.ok(page.frames().length > 1, 'the page has frames');
    const snap = await snapshot(page);
    assert.equal(snap.status, 'success', snap.error);
    assert.ok(snap.frames.included.length > 0, JSON.stringify(snap.frames));
    assert.deepEqual(snap.frames.skipped, [], JSON.stringify(snap.frames));
  } finally {
    await page.close();
  }
});

test("a trusted origin's documents load the runtime as they load, before any call; others do not", async () => {
  await trustOrigins(env.browser.worker, [trusted.url]);
  // (The worker registers the preload when the setting changes: a moment.)
  const registered = () => env.browser.worker.evaluate(() => chrome.scripting.getRegisteredContentScripts({ ids: [SentienceProtocol.PRELOAD_SCRIPT_ID] }).then((l) => l.length));
  for (let i = 0; i < 50 && (await registered()) === 0; i++) await new Promise((r) => setTimeout(r, 100));
  const worked = await open(env.browser.context, `${trusted.url}/login.html`);
  const plain = await open(env.browser.context, `${env.server.url}/login.html`);
  const [w, p] = [await isolatedWorld(worked, { runtime: false }), await isolatedWorld(plain, { runtime: false })];
  try {
    let loaded = [];
    for (let i = 0; i < 50 && !loaded.includes('SentienceWalker'); i++) {
      await new Promise((r) => setTimeout(r, 100));
      loaded = await present(w);
    }
    assert.deepEqual(loaded.sort(), [...RUNTIME].sort(), 'loaded with no call');
    assert.ok(await w.evaluate('SentienceEngines.loaded() !== null'), 'and the engine prepared');
    assert.deepEqual(await present(p), [], 'not on an origin nobody trusted');
    const snap = await snapshot(worked);
    assert.equal(snap.status, 'success', snap.error);
    assert.equal(snap.meta.engine_path, 'content_script', 'the first snapshot needs no worker');
    assert.equal(snap.snapshot_id, 1, 'the preparation took no snapshot of the page');
  } finally {
    await trustOrigins(env.browser.worker, []);
    await w.close();
    await p.close();
    await worked.close();
    await plain.close();
  }
});

test('under a strict CSP the runtime loads all the same and the worker computes every snapshot', async () => {
  const page = await open(env.browser.context, `${env.server.url}/strict.csp.html`);
  try {
    const first = await snapshot(page);
    assert.equal(first.status, 'success', first.error);
    await page.waitForTimeout(300);
    const second = await snapshot(page, { diff: true });
    assert.equal(second.status, 'success', second.error);
    assert.equal(second.meta.engine_path, 'service_worker');
    assert.deepEqual(second.diff, { since: first.snapshot_id, added: [], removed: [], changed: [] });
  } finally {
    await page.close();
  }
});
