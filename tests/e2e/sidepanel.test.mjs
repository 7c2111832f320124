// The side panel, part 1: how it opens, the agent server's status (down,
// then up as a server starts, then down again), the first-run onboarding
// (shown until a server has answered, then gone for good), a run that
// cannot start against a server that is down, and the settings
// (validation, the connection test, API keys), each scanned by axe-core.
// Runs, approvals and the history: sidepanel-runs.test.mjs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, EXTENSION_ID, startServer, launch, open } from '../lib/harness.mjs';
import { startAgentServer, tabIdOf, freePort } from '../lib/agent.mjs';
import { openPanel, shot, axeScan } from '../lib/panel.mjs';

let site;
let browser;
let agent; // started by the status test, on `port`
let port;
before(async () => {
  site = await startServer(path.join(ROOT, 'demo'));
  browser = await launch();
  port = await freePort();
});
after(async () => {
  await browser?.close();
  await agent?.kill();
  await site?.close();
});

const settingsOf = (page) => page.evaluate(() => chrome.storage.local.get(['settings', 'server_seen']));

test('the toolbar icon and its keyboard shortcut open the side panel, the panel page of its own', async () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'manifest.json'), 'utf8'));
  assert.equal(manifest.side_panel.default_path, 'extension/sidepanel/sidepanel.html');
  assert.equal(manifest.action.default_popup, undefined, 'no popup stands between the icon and the panel');
  assert.ok(manifest.commands._execute_action.suggested_key.default, 'a keyboard shortcut for the icon');
  const behavior = await browser.worker.evaluate(() => chrome.sidePanel.getPanelBehavior());
  assert.equal(behavior.openPanelOnActionClick, true);
});

test('status: down with the address, the error in words and what to do; onboarding until a server answers; up with its engine and version as it starts', async () => {
  const page = await open(browser.context, `${site.url}/index.html`);
  const tabId = await tabIdOf(browser.worker, page);
  await browser.worker.evaluate((u) => chrome.storage.local.set({ settings: { serverUrl: u, apiKey: '', defaultMode: 'autonomous' } }), `http://127.0.0.1:${port}`);
  const panel = await openPanel(browser.context, tabId);

  // Down, on the first run: the onboarding says what to do.
  await panel.waitForSelector('#server.down');
  assert.match(await panel.textContent('#server-state'), /not reachable/);
  assert.match(await panel.textContent('#server-detail'), new RegExp(`Nothing answers at http://127\\.0\\.0\\.1:${port}`));
  assert.equal(await panel.isVisible('#view-onboarding'), true);
  assert.equal(await panel.isVisible('#composer'), false);
  assert.match(await panel.textContent('#view-onboarding'), /sentience serve/);
  assert.equal(await panel.isDisabled('#onboarding-done'), true);
  assert.equal(await panel.inputValue('#onboarding-url'), `http://127.0.0.1:${port}`);
  // The connection test, asked: the error and what to do.
  await panel.click('#onboarding-test');
  await panel.waitForFunction(() => /Cannot use the server/.test(document.querySelector('#onboarding-result').textContent));
  assert.match(await panel.textContent('#onboarding-result'), /nothing answers at .*Start the agent server on this computer with sentience serve, or/);
  assert.equal(await panel.textContent('#onboarding-result code'), 'sentience serve', 'the command shown as code, not in backticks');
  // The default mode chosen here is saved.
  await panel.check('input[name=onboarding-mode][value=careful]');
  await panel.waitForFunction(async () => (await chrome.storage.local.get('settings')).settings.defaultMode === 'careful');
  await shot(panel, 'onboarding');
  // The one-liner copies with a click (and the button, saying "Copied", keeps its accessible name in step: scanned below).
  await browser.context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await panel.click('#view-onboarding button[data-copy]');
  await panel.waitForFunction(() => document.querySelector('#copied').textContent === 'Copied to the clipboard.');
  assert.equal(await panel.evaluate(() => navigator.clipboard.readText()), 'sentience serve');
  await axeScan(panel, 'onboarding');
  assert.equal((await settingsOf(panel)).server_seen, undefined);

  // A server starts: the panel sees it by itself.
  agent = await startAgentServer({ port });
  await panel.waitForSelector('#server.up', { timeout: 15000 });
  assert.match(await panel.textContent('#server-state'), /connected · built-in planner/);
  assert.match(await panel.textContent('#server-detail'), new RegExp(`http://127\\.0\\.0\\.1:${port} · version \\d+\\.\\d+\\.\\d+`));
  await panel.waitForFunction(() => !document.querySelector('#onboarding-done').disabled);
  assert.match(await panel.textContent('#onboarding-result'), /Connected: ok, built-in planner, server \d+\.\d+\.\d+/);
  assert.ok((await settingsOf(panel)).server_seen, 'the server has answered once');
  await shot(panel, 'onboarding-connected');
  await panel.click('#onboarding-done');
  assert.equal(await panel.isVisible('#composer'), true);
  assert.equal(await panel.isChecked('input[name=mode][value=careful]'), true, 'the mode chosen in the onboarding');

  // Gone for good: the panel opened again goes straight to the task.
  await panel.reload();
  await panel.waitForSelector('body[data-ready=true]');
  assert.equal(await panel.isVisible('#view-onboarding'), false);
  assert.equal(await panel.isVisible('#composer'), true);
  assert.equal(await panel.isEnabled('#start'), true);
  await panel.fill('#task', 'Search for "rake"');
  await shot(panel, 'ready');
  await axeScan(panel, 'ready to run');
  // Dark mode follows the system's.
  const colors = async (colorScheme) => {
    await panel.emulateMedia({ colorScheme });
    return panel.evaluate(() => [getComputedStyle(document.body).backgroundColor, getComputedStyle(document.body).color]);
  };
  const [light, dark] = [await colors('light'), await colors('dark')];
  assert.notDeepEqual(dark, light, 'the dark scheme has colours of its own');
  await shot(panel, 'ready-dark');
  await panel.emulateMedia({ colorScheme: null });

  // The server stops: down again, and Start says why it cannot start.
  await agent.kill();
  agent = null;
  // The panel checks a server that is up every 15 s (POLL_UP_MS in
  // extension/sidepanel/server-status.js): wait longer than one period.
  await panel.waitForSelector('#server.down', { timeout: 25000 });
  assert.equal(await panel.isDisabled('#start'), true);
  assert.match(await panel.textContent('#start-blocked'), /agent server is not reachable/);
  assert.equal(await panel.isVisible('#server-help'), true);
  assert.match(await panel.textContent('#server-hint'), /Start the agent server on this computer with sentience serve, or change/);
  assert.equal(await panel.textContent('#server-hint code'), 'sentience serve');
  await shot(panel, 'server-down');
  await axeScan(panel, 'server down');
  await panel.close();
  await page.close();
});

test('a run asked of a server that is down fails at once, saying what to do', async () => {
  const page = await open(browser.context, `${site.url}/index.html`);
  const tabId = await tabIdOf(browser.worker, page);
  const dead = await freePort();
  await browser.worker.evaluate((u) => chrome.storage.local.set({ settings: { serverUrl: u, apiKey: '', defaultMode: 'autonomous' } }), `http://127.0.0.1:${dead}`);
  const ext = await browser.context.newPage();
  await ext.goto(`chrome-extension://${EXTENSION_ID}/extension/options/options.html`);
  const began = Date.now();
  const res = await ext.evaluate((m) => chrome.runtime.sendMessage(m), { type: 'run-start', task: 'Search for "x"', mode: 'autonomous', tabId });
  const took = Date.now() - began;
  assert.match(res.error, new RegExp(`nothing answers at http://127\\.0\\.0\\.1:${dead}.*sentience serve`));
  // Not after the run API's retries (~20 s before): one bounded check.
  assert.ok(took < 8000, `answered after ${took} ms`);
  await ext.close();
  await page.close();
});

test('settings refuse a bad address or origin with a message by the field, test the connection and the API key, then save', async () => {
  const keyed = await startAgentServer({ args: ['--api-key', 'right-key'] });
  try {
    const page = await open(browser.context, `${site.url}/index.html`);
    const tabId = await tabIdOf(browser.worker, page);
    const panel = await openPanel(browser.context, tabId);
    await panel.click('button.nav[data-view=settings]');
    await panel.waitForSelector('#settings-form[data-loaded=true]');
    const before = (await settingsOf(panel)).settings;

    for (const [bad, said] of [
      ['ftp://example.com', /must start with http:\/\/ or https:\/\//],
      ['localhost 3131', /is not a web address/],
      ['', /Enter the agent server’s address/],
      ['http://me:secret@localhost:3131', /Leave the user name and password out/],
    ]) {
      await panel.fill('#serverUrl', bad);
      await panel.click('#settings-form button[type=submit]');
      await panel.waitForFunction(() => !document.querySelector('#serverUrl-error').hidden);
      assert.match(await panel.textContent('#serverUrl-error'), said, bad);
      assert.equal(await panel.getAttribute('#serverUrl', 'aria-invalid'), 'true');
      assert.equal(await panel.evaluate(() => document.activeElement.id), 'serverUrl', 'focus goes to the field');
      assert.deepEqual((await settingsOf(panel)).settings, before, 'nothing saved');
    }
    await shot(panel, 'settings-refused');
    await axeScan(panel, 'settings with an error');

    await panel.fill('#serverUrl', keyed.url);
    await panel.fill('#trustedOrigins', 'https://example.com\nnot an origin');
    await panel.click('#settings-form button[type=submit]');
    await panel.waitForFunction(() => !document.querySelector('#trustedOrigins-error').hidden);
    assert.match(await panel.textContent('#trustedOrigins-error'), /Not an http\(s\) origin: not an origin/);
    assert.equal(await panel.isHidden('#serverUrl-error'), true, 'the address is right now');
    await panel.fill('#trustedOrigins', 'https://example.com/some/page');

    // The key: none, a wrong one, the right one.
    const test = async () => {
      await panel.click('#test');
      await panel.waitForFunction(() => /^(Connected|Cannot)/.test(document.querySelector('#settings-status').textContent));
      return panel.textContent('#settings-status');
    };
    assert.match(await test(), /Cannot use the server: the server at .* needs an API key.*Enter the server’s API key in Settings/);
    await panel.fill('#apiKey', 'wrong-key');
    assert.match(await test(), /refused the API key/);
    await panel.fill('#apiKey', 'right-key');
    assert.match(await test(), /^Connected: ok, built-in planner, server \d+\.\d+\.\d+/);
    await panel.selectOption('#defaultMode', 'careful');
    await panel.click('#settings-form button[type=submit]');
    await panel.waitForFunction(() => document.querySelector('#settings-status').textContent === 'Saved.');
    const saved = await panel.evaluate(() => chrome.storage.local.get(['settings', 'trusted_origins']));
    assert.deepEqual(saved, { settings: { serverUrl: keyed.url, apiKey: 'right-key', defaultMode: 'careful' }, trusted_origins: ['https://example.com'] });
    assert.equal(await panel.inputValue('#trustedOrigins'), 'https://example.com', 'the field shows what was saved: the origin, not the page typed');
    await panel.waitForSelector('#server.up', { timeout: 10000 });
    await shot(panel, 'settings');
    await axeScan(panel, 'settings');
    await panel.close();
    await page.close();
  } finally {
    await keyed.kill();
  }
});
