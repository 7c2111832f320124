// The page API never crosses the same-origin policy (docs/api.md "Who may see
// and do what"). A shop page (http://127.0.0.1:PORT) embeds a payment
// provider's frame from another origin (http://localhost:PORT2): the shop's
// scripts get none of the frame's texts, values or ids through
// window.sentience, cannot act in it, and cannot take screenshots; an
// allow-listed origin and the extension's own agent keep everything.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, evaluate, snapshot, viaWorker, trustOrigins, isolatedWorld, EXTENSION_ID } from '../lib/harness.mjs';
import { startAgentServer, configure, startRun, waitRun, tabIdOf } from '../lib/agent.mjs';

const env = { one: null, two: null, browser: null };
// What the provider's frame holds that its embedder may not learn. The card
// number is matched with its space: a bare '4242' also matches a server's
// port (4242x), which snapshots show in the skipped frame's url.
const SECRETS = ['4242 4242', 'Confirm payment', 'DE89', 'DE44', 'PayBank', 'Savings'];

before(async () => {
  env.one = await startServer();
  env.two = await startServer();
  env.o2 = `http://localhost:${env.two.port}`;
  env.browser = await launch();
});
after(async () => {
  await env.browser?.close();
  await env.one?.close();
  await env.two?.close();
});

// The shop with its provider frame loaded and the user's card number typed in.
async function openShop(frame = 'provider.html') {
  const page = await env.browser.context.newPage();
  await page.goto(`${env.one.url}/origins/shop.html?p=${encodeURIComponent(env.o2)}&frame=${frame}`);
  await page.waitForFunction(() => typeof window.sentience === 'object');
  const provider = await providerFrame(page, frame);
  if (frame === 'provider.html') {
    await provider.fill('#card', '4242 4242 4242 4242');
    await provider.evaluate(() => (window.events = []));
  }
  return { page, provider };
}

async function providerFrame(page, name) {
  const until = Date.now() + 10000;
  for (;;) {
    const f = page.frames().find((x) => x.url().includes(`/origins/${name}`));
    if (f && (await f.evaluate(() => document.readyState === 'complete' && typeof window.sentience === 'object').catch(() => false))) return f;
    if (Date.now() > until) throw new Error(`the ${name} frame did not load`);
    await page.waitForTimeout(50);
  }
}

function leaks(value) {
  const text = JSON.stringify(value);
  return SECRETS.filter((s) => text.includes(s));
}

const textsOf = (snap) => snap.elements.map((e) => e.text);

test('a page script gets nothing of a cross-origin frame: snapshot, format, query, find, registry', async () => {
  const { page } = await openShop();
  try {
    const snap = await snapshot(page);
    assert.equal(snap.status, 'success', snap.error);
    assert.ok(textsOf(snap).includes('Buy the lamp'), 'the shop sees its own elements');
    assert.deepEqual(leaks(snap), []);
    assert.deepEqual(snap.frames.included, []);
    assert.deepEqual(
      snap.frames.skipped.map((s) => s.reason),
      ['cross_origin'],
    );
    assert.match(snap.frames.skipped[0].url, /provider\.html/);

    const format = await evaluate(page, 'window.sentience.format()');
    assert.equal(typeof format, 'string');
    assert.match(format, /Buy the lamp/);
    assert.deepEqual(leaks(format), []);
    assert.deepEqual(await evaluate(page, `window.sentience.query("text~'confirm'")`), []);
    assert.deepEqual(await evaluate(page, `window.sentience.query("role=textbox")`), []);
    assert.equal(await evaluate(page, `window.sentience.find("text~'account'")`), null);
    // Every id the registry lists resolves to an element of the shop's own document.
    const registry = await evaluate(page, `Object.keys(window.sentience_registry).map((k) => { const el = window.sentience_registry[k]; return el ? el.ownerDocument === document : 'missing'; })`);
    assert.ok(registry.length >= 2);
    assert.ok(registry.every((own) => own === true), JSON.stringify(registry));
    // Asking for it by every id the extension's own (full) snapshot gave the frame's elements.
    const full = await viaWorker(env.browser.worker, page, 'snapshot', {});
    const frameIds = full.elements.filter((e) => SECRETS.some((s) => (e.text || '').includes(s)) || e.role === 'textbox' || e.role === 'combobox').map((e) => e.id);
    assert.ok(frameIds.length >= 4, `the full view lists the frame's elements: ${textsOf(full).join(' | ')}`);
    const resolved = await evaluate(page, `${JSON.stringify(frameIds)}.map((id) => window.sentience_registry[id] === undefined)`);
    assert.ok(resolved.every(Boolean));
    // A page snapshot taken after the extension's full one still shows nothing of the frame.
    assert.deepEqual(leaks(await snapshot(page)), []);
    assert.deepEqual(leaks(await evaluate(page, 'window.sentience.format()')), []);
  } finally {
    await page.close();
  }
});

test("actions on the frame's elements fail with a clear error and the frame receives no event", async () => {
  const { page, provider } = await openShop();
  try {
    await snapshot(page);
    // The ids the extension's own snapshot gives the frame's elements.
    const full = await viaWorker(env.browser.worker, page, 'snapshot', {});
    const pick = (pred) => {
      const e = full.elements.find(pred);
      assert.ok(e, `missing in the full view: ${textsOf(full).join(' | ')}`);
      return e.id;
    };
    const confirm = pick((e) => e.text === 'Confirm payment');
    const card = pick((e) => e.role === 'textbox');
    const from = pick((e) => e.role === 'combobox');
    const acct = pick((e) => e.role === 'link' && e.text.includes('DE89'));
    const calls = [
      `window.sentience.click(${confirm})`,
      `window.sentience.click(${acct})`,
      `window.sentience.type(${card}, '4000 0000 0000 0002')`,
      `window.sentience.select(${from}, 'Savings')`,
      `window.sentience.scroll(${confirm})`,
    ];
    for (const call of calls) {
      const res = await evaluate(page, call);
      assert.equal(res.success, false, `${call} succeeded`);
      assert.match(res.error, /another origin/, call);
    }
    // Every id the page never got, one by one: none acts in the frame.
    const own = new Set((await snapshot(page)).elements.map((e) => e.id));
    const others = full.elements.map((e) => e.id).filter((id) => !own.has(id));
    const results = await evaluate(page, `Promise.all(${JSON.stringify(others)}.map((id) => window.sentience.click(id)))`);
    assert.ok(results.every((r) => r.success === false));
    // The extension focused the card field (as an agent would): the page's press() does not reach it.
    const typed = await viaWorker(env.browser.worker, page, 'type', { id: card, text: '4' });
    assert.equal(typed.success, true, typed.error);
    await provider.evaluate(() => (window.events = []));
    await evaluate(page, `window.sentience.press('Enter')`);
    await page.waitForTimeout(100);
    assert.deepEqual(await provider.evaluate(() => window.events), []);
    assert.equal(await provider.textContent('#out'), '');
    assert.equal(await provider.inputValue('#card'), '4');
  } finally {
    await page.close();
  }
});

test('screenshots are refused to page scripts with a clear error', async () => {
  const { page } = await openShop();
  try {
    for (const shot of ['true', '{format: "jpeg", quality: 50}', '{annotate: true}']) {
      const res = await evaluate(page, `window.sentience.snapshot({screenshot: ${shot}})`);
      assert.equal(res.status, 'error', shot);
      assert.match(res.error, /screenshots are not available to page scripts/);
      assert.equal('screenshot' in res, false);
    }
    // The extension's own callers still get them.
    const own = await viaWorker(env.browser.worker, page, 'snapshot', { screenshot: true, limit: 1 });
    assert.match(own.screenshot, /^data:image\/png;base64,/);
  } finally {
    await page.close();
  }
});

test("a debugger (CDP in the extension's world) gets the full view: the tool server's and automation's path", async () => {
  const { page, provider } = await openShop();
  const world = await isolatedWorld(page);
  try {
    assert.ok(world, "the extension's isolated world");
    const snap = await world.evaluate(`SentienceTrusted.call('snapshot', {})`);
    const confirm = snap.elements.find((e) => e.text === 'Confirm payment');
    assert.ok(confirm, textsOf(snap).join(' | '));
    const clicked = await world.evaluate(`SentienceTrusted.call('click', {id: ${confirm.id}})`);
    assert.equal(clicked.success, true, clicked.error);
    assert.equal(await provider.textContent('#out'), 'Payment confirmed');
    // ...and the page's own view is untouched by it.
    assert.deepEqual(leaks(await snapshot(page)), []);
    assert.equal(await evaluate(page, 'typeof window.SentienceTrusted'), 'undefined');
  } finally {
    await world?.close();
    await page.close();
  }
});

test('a cross-origin child frame calling the API sees only its own document', async () => {
  const { page, provider } = await openShop();
  try {
    const snap = await provider.evaluate(() => window.sentience.snapshot());
    assert.equal(snap.status, 'success', snap.error);
    assert.ok(textsOf(snap).includes('Confirm payment'));
    assert.equal(textsOf(snap).includes('Buy the lamp'), false);
  } finally {
    await page.close();
  }
});

test('nested frames: only chains of the same origin count (A → B → A is out, A → A → A is in)', async () => {
  const page = await env.browser.context.newPage();
  try {
    await page.goto(`${env.one.url}/origins/chain-top.html?b=${encodeURIComponent(env.o2)}`);
    await page.waitForFunction(() => typeof window.sentience === 'object');
    const until = Date.now() + 10000;
    while ((await Promise.all(page.frames().map((f) => f.evaluate(() => document.readyState === 'complete' && !!window.sentience).catch(() => false)))).filter(Boolean).length < 5) {
      if (Date.now() > until) throw new Error('frames did not load');
      await page.waitForTimeout(50);
    }
    const snap = await snapshot(page);
    assert.deepEqual(textsOf(snap).sort(), ['Inner button under A', 'Middle A button', 'Top A button']);
    assert.deepEqual(snap.frames.skipped.map((s) => s.reason), ['cross_origin']);
    const full = await viaWorker(env.browser.worker, page, 'snapshot', {});
    assert.deepEqual(textsOf(full).sort(), ['Inner button under A', 'Inner button under B', 'Middle A button', 'Middle B button', 'Top A button']);
    // The page may act in its same-origin chain.
    const inner = snap.elements.find((e) => e.text === 'Inner button under A');
    assert.equal((await evaluate(page, `window.sentience.click(${inner.id})`)).success, true);
  } finally {
    await page.close();
  }
});

test("the extension's own agent signs in inside the cross-origin frame", async () => {
  const agent = await startAgentServer();
  const ext = await env.browser.context.newPage();
  try {
    await ext.goto(`chrome-extension://${EXTENSION_ID}/extension/options/options.html`);
    await configure(ext, agent.url);
    const { page, provider } = await openShop('signin.html');
    const tabId = await tabIdOf(env.browser.worker, page);
    const runId = await startRun(ext, { task: 'Log in as "alice" with password "s3cret"', mode: 'autonomous', tabId });
    const run = await waitRun(ext, (r) => ['completed', 'error', 'cancelled'].includes(r.status), { runId });
    assert.equal(run.status, 'completed', `${run.error} ${JSON.stringify(run.log.filter((e) => e.kind === 'tool'))}`);
    assert.match(await provider.textContent('#msg'), /Welcome, alice/);
    await page.close();
  } finally {
    await ext.close();
    await agent.kill();
  }
});

// The policy's list reaches pages through a mirror in storage.local
// (extension/policy-mirror.js) so that first calls need not wait for the
// policy service; a mirror that names an origin the policy does not (a
// policy changed while the browser was closed) must grant nothing.
test('a stale mirror of the managed policy grants nothing', async () => {
  const setMirror = (o) => env.browser.worker.evaluate((list) => chrome.storage.local.set({ managed_trusted_origins: list }), o);
  await setMirror([env.one.url]);
  const { page } = await openShop();
  try {
    const snap = await snapshot(page);
    assert.equal(snap.status, 'success', snap.error);
    assert.deepEqual(leaks(snap), []);
    assert.deepEqual(snap.frames.skipped.map((s) => s.reason), ['cross_origin']);
  } finally {
    await setMirror([]);
    await page.close();
  }
});

// Last: it changes the browser's allow-list.
test('an allow-listed origin gets the full view and every power', async () => {
  await trustOrigins(env.browser.worker, [env.one.url]);
  const { page, provider } = await openShop();
  try {
    const snap = await snapshot(page);
    assert.equal(snap.status, 'success', snap.error);
    const confirm = snap.elements.find((e) => e.text === 'Confirm payment');
    assert.ok(confirm, textsOf(snap).join(' | '));
    assert.ok(snap.elements.some((e) => e.role === 'textbox' && JSON.stringify(e).includes('4242 4242')), 'the card field with its value');
    assert.equal(snap.frames.included.length, 1);
    const clicked = await evaluate(page, `window.sentience.click(${confirm.id})`);
    assert.equal(clicked.success, true, clicked.error);
    assert.equal(await provider.textContent('#out'), 'Payment confirmed');
    const shot = await evaluate(page, 'window.sentience.snapshot({screenshot: true, limit: 1})');
    assert.match(shot.screenshot, /^data:image\/png;base64,/);
    // Taken off the list (the options page or policy), the open page loses it again.
    await trustOrigins(env.browser.worker, []);
    await page.waitForTimeout(100);
    assert.deepEqual(leaks(await snapshot(page)), []);
  } finally {
    await trustOrigins(env.browser.worker, []);
    await page.close();
  }
});
