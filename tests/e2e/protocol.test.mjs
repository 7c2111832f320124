// The extension's protocol module (extension/protocol.js) where it runs:
// the isolated world, the service worker and the extension's pages see it;
// page scripts see neither it nor the MAIN world's generated part
// (content/facade-protocol.js), which main-world.js takes and deletes
// before any page script runs. Node-only checks: tests/unit/protocol.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EXTENSION_ID, suite, open, isolatedWorld } from '../lib/harness.mjs';

const env = suite();

test('page scripts never see the protocol globals; the facade still works', async () => {
  const page = await open(env.browser.context, `${env.server.url}/login.html`);
  const seen = await page.evaluate(() => ({
    facade: 'SentienceFacadeProtocol' in window,
    protocol: 'SentienceProtocol' in window,
    names: Object.getOwnPropertyNames(window).filter((n) => /protocol/i.test(n)),
  }));
  assert.deepEqual(seen, { facade: false, protocol: false, names: [] });
  // The facade read the tag and the status operations before the global went.
  const snap = await page.evaluate(() => window.sentience.snapshot({ limit: 1 }));
  assert.equal(snap.status, 'success');
  const bad = await page.evaluate(() => window.sentience.query(() => 1));
  assert.equal(bad.status, 'error', 'an unclonable argument: a {status:"error"} value, as protocol.js STATUS_OPS says for query');
  const badClick = await page.evaluate(() => window.sentience.click(() => 1));
  assert.equal(badClick.success, false, 'an action answers {success:false}');
  await page.close();
});

test('the isolated world, the service worker and the side panel share one protocol object', async () => {
  const page = await open(env.browser.context, `${env.server.url}/login.html`);
  const world = await isolatedWorld(page);
  assert.ok(world, 'the isolated world of the top frame');
  const inWorld = await world.evaluate('JSON.stringify([SentienceProtocol.MSG, SentienceProtocol.FACADE_OPS, Object.isFrozen(SentienceProtocol)])');
  await world.close();
  const inWorker = await env.browser.worker.evaluate(() => JSON.stringify([SentienceProtocol.MSG, SentienceProtocol.FACADE_OPS, Object.isFrozen(SentienceProtocol)]));
  const panel = await env.browser.context.newPage();
  await panel.goto(`chrome-extension://${EXTENSION_ID}/extension/sidepanel/sidepanel.html`);
  const inPanel = await panel.evaluate(() => JSON.stringify([SentienceProtocol.MSG, SentienceProtocol.FACADE_OPS, Object.isFrozen(SentienceProtocol)]));
  assert.equal(inWorld, inWorker);
  assert.equal(inPanel, inWorker);
  assert.ok(JSON.parse(inWorker)[2], 'frozen');
  // An extension page's unknown message is answered with the reason.
  const answer = await panel.evaluate(() => chrome.runtime.sendMessage({ type: 'no-such-message' }));
  assert.deepEqual(answer, { error: 'unknown message type no-such-message' });
  await panel.close();
  await page.close();
});
