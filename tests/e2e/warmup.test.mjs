// The engine warm-up flag (extension/engine-warmup.js; docs/benchmarks.md,
// "Real pages: the first snapshot"): in a fresh browser session a page's
// top frame is told not to warm the engine up; once a page has used
// window.sentience, the service worker records it in storage.session and
// every page is told to warm up; SentienceWarmup.reset() forgets it (the
// real-pages benchmark's --no-warmup). The messages are sent by the content
// script as bridge.js sends them, by their protocol.js names.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { suite, open, isolatedWorld } from '../lib/harness.mjs';

const env = suite();

test('pages warm the engine up only once window.sentience has been used in this session', async () => {
  const { worker, context } = env.browser;
  const names = await worker.evaluate(() => ({ key: SentienceProtocol.STORAGE.API_USED, warm: SentienceProtocol.MSG.ENGINE_WARM }));
  const flag = () => worker.evaluate((key) => chrome.storage.session.get(key).then((r) => (key in r ? r[key] : null)), names.key);
  // What a top frame's content script is told when it asks (bridge.js warmWhenIdle).
  const ask = async (page) => {
    const world = await isolatedWorld(page);
    assert.ok(world, 'the isolated world of the top frame');
    try {
      return await world.evaluate(`chrome.runtime.sendMessage({ type: ${JSON.stringify(names.warm)} })`);
    } finally {
      await world.close();
    }
  };

  const page = await open(context, `${env.server.url}/login.html`);
  assert.equal(await flag(), null, 'a fresh session has no use recorded');
  assert.deepEqual(await ask(page), { warm: false });

  const snap = await page.evaluate(() => window.sentience.snapshot({ limit: 1 }));
  assert.equal(snap.status, 'success');
  // The content script reports the use without waiting for an answer.
  for (let i = 0; i < 100 && (await flag()) !== true; i++) await new Promise((r) => setTimeout(r, 50));
  assert.equal(await flag(), true, 'the use is recorded in storage.session');
  assert.deepEqual(await ask(page), { warm: true });
  const other = await open(context, `${env.server.url}/login.html?again`);
  assert.deepEqual(await ask(other), { warm: true }, 'every page of the session is told');

  await worker.evaluate(() => SentienceWarmup.reset());
  assert.equal(await flag(), null, 'reset() forgets the use');
  assert.deepEqual(await ask(other), { warm: false });
  await other.close();
  await page.close();
});
