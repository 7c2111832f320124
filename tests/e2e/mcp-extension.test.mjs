// `sentience mcp --browser extension` (docs/mcp.md "Your own Chrome"): a
// Chromium with the extension stands for the user's browser; it is paired
// the way a person pairs it (the code the server prints, pasted into the
// extension's side panel, Settings, tabs ticked there); the agent then sees only the
// chosen tab, a page script can neither pair nor read the pairing, and
// unpairing ends the agent's access.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT, EXTENSION_ID, launch, open, evaluate, startServer } from '../lib/harness.mjs';
import { sentienceStdio, call, refused, text, idOf } from '../lib/mcp.mjs';

const env = {};
const PANEL = `chrome-extension://${EXTENSION_ID}/extension/sidepanel/sidepanel.html`;

/** The side panel (opened as a tab) on its Settings, where "Agent (MCP)" is. */
async function panelSettings(panel) {
  await panel.waitForSelector('body[data-ready=true]', { timeout: 15000 });
  await panel.click('button.nav[data-view=settings]');
}

/** The panel's "Agent (MCP)" state line, once it says `pattern`. */
async function panelState(panel, pattern) {
  await panel.waitForFunction((re) => new RegExp(re).test(document.getElementById('mcp-state')?.textContent || ''), pattern.source, { timeout: 15000 });
  return panel.textContent('#mcp-state');
}

before(async () => {
  env.server = await startServer(path.join(ROOT, 'demo'));
  env.browser = await launch();
  env.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sentience-mcp-pairing-'));
  env.s = await sentienceStdio(['--browser', 'extension', '--extension-port', '0', '--pairing-file', path.join(env.dir, 'pairing'), '--mode', 'autonomous']);
  // The server prints the pairing code as it starts.
  const deadline = Date.now() + 10000;
  let m;
  while (!(m = /pairing code (\d+-[a-z2-9]{20})/.exec(env.s.stderr())) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  assert.ok(m, `the server printed a pairing code: ${env.s.stderr()}`);
  env.code = m[1];
  env.port = Number(env.code.split('-')[0]);
  env.token = env.code.split('-')[1];
  env.shared = await open(env.browser.context, `${env.server.url}/login.html`);
  env.private = await open(env.browser.context, `${env.server.url}/contact.html`);
});

after(async () => {
  await env.s?.close();
  await env.browser?.close();
  await env.server?.close();
  fs.rmSync(env.dir, { recursive: true, force: true });
});

test('before pairing the agent is told how to connect', async () => {
  const msg = await refused(env.s.client, 'browser_tabs');
  assert.match(msg, /not connected/);
  assert.doesNotMatch(msg, new RegExp(env.token), 'the token never travels through MCP');
});

test('paired through the side panel, the agent sees only the ticked tab', async () => {
  const panel = await env.browser.context.newPage();
  await panel.goto(PANEL);
  await panelSettings(panel);
  await panel.fill('#mcp-code', env.code);
  await panel.click('#mcp-pair-button');
  await panelState(panel, /Connected/);
  // Tick the login tab, not the contact tab.
  const box = panel.locator(`#mcp-tabs label[title="${env.shared.url()}"] input`);
  await box.check();
  await panel.waitForFunction(() => true);
  env.panel = panel;

  const tabs = text(await call(env.s.client, 'browser_tabs'));
  assert.match(tabs, /login\.html/);
  assert.doesNotMatch(tabs, /contact\.html/, 'the other tab is invisible');
  const listing = text(await call(env.s.client, 'browser_snapshot'));
  assert.match(listing, /login\.html/);

  // The user sees it: the icon's badge on that tab, and the banner.
  const [sharedId, privateId] = await env.browser.worker.evaluate(
    async (urls) => Promise.all(urls.map(async (u) => (await chrome.tabs.query({ url: u }))[0].id)),
    [env.shared.url(), env.private.url()],
  );
  env.privateId = privateId;
  const badges = await env.browser.worker.evaluate(
    async (ids) => Promise.all(ids.map((tabId) => chrome.action.getBadgeText({ tabId }))),
    [sharedId, privateId],
  );
  assert.deepEqual(badges, ['AI', '']);
  await env.shared.waitForSelector('sentience-agent-banner', { state: 'attached', timeout: 5000 });
  assert.equal(await env.private.$('sentience-agent-banner'), null);
});

test('the agent acts in the shared tab; another tab is refused as if it did not exist', async () => {
  const c = env.s.client;
  const listing = text(await call(c, 'browser_snapshot'));
  const user = idOf(listing, 'textbox', /username/i);
  const typed = text(await call(c, 'browser_type', { id: user, text: 'alice' }));
  // Nothing changed but the field: the outcome alone.
  assert.equal(typed, `Typed into ${user} textbox "Username".\n`);
  assert.equal(await env.shared.inputValue('#username'), 'alice');
  const msg = await refused(c, 'browser_tabs', { action: 'select', tab: env.privateId });
  assert.match(msg, /No tab/);
  const shot = await call(c, 'browser_take_screenshot', { max_bytes: 100000 });
  const img = shot.content.find((x) => x.type === 'image');
  assert.ok(img && Buffer.from(img.data, 'base64').length <= 100000, 'a screenshot through the extension');
});

test('a page script cannot pair, reach the link, or read the pairing', async () => {
  const page = env.private;
  const result = await evaluate(
    page,
    `(async () => {
      const out = {};
      // The real token, as if the page had guessed it: refused for its origin.
      out.socket = await new Promise((resolve) => {
        const ws = new WebSocket('ws://127.0.0.1:${env.port}/extension');
        ws.onopen = () => ws.send(JSON.stringify({ type: 'hello', token: '${env.token}' }));
        ws.onmessage = (e) => resolve('answered: ' + e.data);
        ws.onclose = (e) => resolve('closed ' + e.code);
        setTimeout(() => resolve('timeout'), 5000);
      });
      out.api = typeof window.sentience.pair + ' ' + typeof window.sentience.mcp;
      out.runtime = typeof chrome === 'object' && chrome.runtime && typeof chrome.runtime.sendMessage === 'function'
        ? await chrome.runtime.sendMessage('${EXTENSION_ID}', { type: 'mcp-pair', code: '${env.code}' }).then(() => 'sent', (e) => 'refused: ' + e.message)
        : 'no runtime';
      out.found = document.documentElement.outerHTML.includes('${env.token}') || JSON.stringify(Object.keys(window)).includes('${env.token}');
      out.storage = typeof chrome === 'object' && chrome.storage ? 'storage visible' : 'no storage';
      return out;
    })()`,
  );
  assert.equal(result.socket, 'closed 1006', 'the handshake is refused (403) before any message');
  assert.equal(result.api, 'undefined undefined');
  assert.match(result.runtime, /^(no runtime|refused)/);
  assert.equal(result.found, false);
  assert.equal(result.storage, 'no storage');
  // The extension's link is still the one in place.
  assert.match(text(await call(env.s.client, 'browser_tabs')), /login\.html/);
});

test('unpairing ends access', async () => {
  await env.panel.reload();
  await panelSettings(env.panel);
  await env.panel.click('#mcp-unpair-button');
  await panelState(env.panel, /Not paired/);
  const msg = await refused(env.s.client, 'browser_snapshot');
  assert.match(msg, /not connected/);
  const badge = await env.browser.worker.evaluate(async (url) => chrome.action.getBadgeText({ tabId: (await chrome.tabs.query({ url }))[0].id }), env.shared.url());
  assert.equal(badge, '');
});
