// A user who limits the extension's site access (chrome://extensions →
// "Site access: on specific sites") leaves frames of other sites without our
// content scripts. Such a frame can never answer a snapshot: it is skipped
// at once as `no_script` (extension/frame-liveness.js), not waited for.
// Its own browser: the setting changes the whole browser.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, open, snapshot, trustOrigins, EXTENSION_ID } from '../lib/harness.mjs';
import { assertSchema } from '../lib/expect.mjs';

const env = { server: null, browser: null };

before(async () => {
  env.server = await startServer(undefined, {
    // The frame comes from localhost: another site than 127.0.0.1.
    '/top.html': (req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><button>Top button</button><iframe src="http://localhost:${env.server.port}/child.html"></iframe>`),
    '/child.html': (req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><button>Child button</button>'),
  });
  env.browser = await launch();
  await trustOrigins(env.browser.worker, [env.server.url]);
  // What the extensions page does when the user picks "on specific sites".
  const settings = await env.browser.context.newPage();
  await settings.goto('chrome://extensions');
  await settings.evaluate(async (id) => {
    await chrome.developerPrivate.updateExtensionConfiguration({ extensionId: id, hostAccess: 'ON_SPECIFIC_SITES' });
    await chrome.developerPrivate.addHostPermission(id, 'http://127.0.0.1/*');
  }, EXTENSION_ID);
  await settings.close();
});
after(async () => {
  await env.browser?.close();
  await env.server?.close();
});

test('a frame of a site the extension may not access is skipped as no_script, never waited for', async () => {
  const page = await open(env.browser.context, `${env.server.url}/top.html`);
  try {
    const child = page.frames().find((f) => f.url().includes('/child.html'));
    assert.ok(child, 'the child frame loaded');
    assert.equal(await child.evaluate(() => typeof window.sentience), 'undefined', 'no content script in the frame');
    // The longest timeout: a reason other than `timeout` means the relay
    // did not wait it out. Twice: the second is answered from memory.
    for (let i = 0; i < 2; i++) {
      const snap = await snapshot(page, { frames: { timeout_ms: 10000 } });
      assert.equal(snap.status, 'success', snap.error);
      assertSchema(snap);
      assert.deepEqual(snap.frames.skipped.map((s) => [new URL(s.url).pathname, s.reason]), [['/child.html', 'no_script']], JSON.stringify(snap.frames));
      assert.deepEqual(snap.frames.included, []);
      assert.ok(snap.elements.some((e) => e.text === 'Top button'));
    }
  } finally {
    await page.close();
  }
});
