// What people see: the options page (validation, test connection against a
// real server) and the highlight shown before an action.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { EXTENSION_ID, suite, open, snapshot, viaWorker } from '../lib/harness.mjs';
import { startAgentServer } from '../lib/agent.mjs';

const env = suite();
let agent;
before(async () => {
  agent = await startAgentServer();
});
after(async () => {
  await agent?.kill();
});

test('options page validates the server URL and tests the connection with /health', async () => {
  const page = await env.browser.context.newPage();
  await page.goto(`chrome-extension://${EXTENSION_ID}/extension/options/options.html`);
  // The settings arrive from storage after the page has loaded.
  await page.waitForSelector('#settings-form[data-loaded=true]');
  assert.equal(await page.inputValue('#serverUrl'), 'http://localhost:3131', 'default server URL');
  await page.fill('#serverUrl', 'ftp://nope');
  await page.click('#test');
  await page.waitForFunction(() => document.querySelector('#settings-status').textContent.length > 0);
  assert.match(await page.textContent('#settings-status'), /must start with http/);
  await page.fill('#serverUrl', agent.url);
  await page.click('#test');
  await page.waitForFunction(() => /Connected|Cannot/.test(document.querySelector('#settings-status').textContent));
  assert.match(await page.textContent('#settings-status'), /Connected: ok, built-in planner, server \d+\.\d+\.\d+/);
  await page.fill('#serverUrl', 'http://127.0.0.1:9');
  await page.click('#test');
  await page.waitForFunction(() => /Cannot/.test(document.querySelector('#settings-status').textContent), null, { timeout: 30000 });
  await page.fill('#serverUrl', agent.url);
  await page.selectOption('#defaultMode', 'careful');
  await page.click('button[type=submit]');
  await page.waitForFunction(() => document.querySelector('#settings-status').textContent === 'Saved.');
  const { settings } = await page.evaluate(() => chrome.storage.local.get('settings'));
  assert.deepEqual(settings, { serverUrl: agent.url, apiKey: '', defaultMode: 'careful' });
  await page.close();
});

test('the element about to be acted on is outlined, in a closed shadow root the page cannot reach', async () => {
  const page = await open(env.browser.context, `${env.server.url}/login.html`);
  const snap = await snapshot(page);
  const button = snap.elements.find((e) => e.text === 'Sign in');
  const res = await viaWorker(env.browser.worker, page, 'highlight', { id: button.id, label: 'click' });
  assert.equal(res.success, true);
  const seen = await page.evaluate(() => {
    const host = document.querySelector('sentience-overlay');
    return { present: !!host, shadowVisible: !!(host && host.shadowRoot) };
  });
  assert.deepEqual(seen, { present: true, shadowVisible: false });
  // The overlay never takes clicks or counts as an occluder.
  const again = await snapshot(page);
  assert.equal(again.elements.find((e) => e.id === button.id).is_occluded, false);
  await page.close();
});
