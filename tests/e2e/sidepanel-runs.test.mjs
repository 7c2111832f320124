// The side panel, part 2: runs as people watch them. Steps appear live and
// in order (element text and role, a password masked, ✓/✗, durations, the
// address); pause, resume, stop; the panel closed and opened again loses
// nothing; careful mode's question shows the element and the page outlines
// it until answered (approve and refuse, by keyboard); the history keeps a
// finished run across a browser restart (same profile), opens it, runs it
// again, clears. Real Chromium with the extension, the real `sentience
// serve`; only the LLM is a scripted local server.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import { ROOT, startServer, launch, open, isolatedWorld } from '../lib/harness.mjs';
import { startAgentServer, startLlmServer, promptOf, historyOf, idOf, tabIdOf, configure, waitRun, runs } from '../lib/agent.mjs';
import { openPanel, shot, axeScan, stepTexts } from '../lib/panel.mjs';

let site;
let browser;
let agent; // built-in planner
before(async () => {
  site = await startServer(path.join(ROOT, 'demo'));
  browser = await launch();
  agent = await startAgentServer();
});
after(async () => {
  await browser?.close();
  await agent?.kill();
  await site?.close();
});

const terminal = (r) => ['completed', 'error', 'cancelled'].includes(r.status);

/** A page of the demo site and the panel beside it, the extension pointed at `server` (with `settings`). */
async function pageAndPanel(ctx, file, server, settings = {}) {
  await configure(ctx.worker, server, settings);
  const page = await open(ctx.context, `${site.url}/${file}`);
  const tabId = await tabIdOf(ctx.worker, page);
  const panel = await openPanel(ctx.context, tabId);
  await panel.waitForSelector('#server.up', { timeout: 15000 });
  return { page, tabId, panel };
}

/** The held highlight's element id in `page` (null: none), read in the extension's isolated world. */
async function heldId(page) {
  const world = await isolatedWorld(page, { runtime: false });
  try {
    return await world.evaluate('globalThis.SentienceOverlay ? SentienceOverlay.heldId() : null');
  } finally {
    await world.close();
  }
}

test('a run\'s steps appear live and in order, with what each acts on, a masked password, ✓ and durations, then the result with copy', async () => {
  // Each answer comes late enough to see the list grow.
  const llm = await startLlmServer(async (body) => {
    const p = promptOf(body);
    const hist = historyOf(p);
    if (/Welcome, alice/.test(p)) return { delayMs: 500, tool: 'finish', parameters: { result: 'Logged in as alice' } };
    if (!/alice/.test(hist)) return { delayMs: 500, tool: 'type', parameters: { id: idOf(p, 'Username'), text: 'alice' } };
    if (!/s3cret/.test(hist)) return { delayMs: 500, tool: 'type', parameters: { id: idOf(p, 'Password'), text: 's3cret' } };
    return { delayMs: 500, tool: 'click', parameters: { id: idOf(p, 'Log in') } };
  });
  const server = await startAgentServer({ env: { LLM_API_KEY: 'k', LLM_BASE_URL: llm.url, LLM_MODEL: 'scripted-model' } });
  try {
    const { page, panel } = await pageAndPanel(browser, 'login.html', server.url);
    assert.match(await panel.textContent('#server-state'), /LLM scripted-model/);
    // What the list shows, each time it changes: its tool lines and whether the run is over.
    await panel.evaluate(() => {
      window.seen = [];
      new MutationObserver(() => {
        const tools = [...document.querySelectorAll('#steps > li[data-kind=tool]')].map((li) => li.textContent.replace(/\s+/g, ' ').trim());
        window.seen.push({ tools, over: !document.querySelector('#outcome').hidden });
      }).observe(document.querySelector('#live'), { subtree: true, childList: true, characterData: true, attributes: true });
    });
    await panel.fill('#task', 'Log in with the saved account');
    await panel.click('#start');
    await panel.waitForSelector('#outcome:not([hidden])', { timeout: 45000 });

    const tools = await stepTexts(panel, '#steps', 'tool');
    assert.equal(tools.length, 3, tools.join('\n'));
    assert.match(tools[0], /^✓ Done: type “Username” textbox ← “alice” \d+\.\d s$/);
    assert.match(tools[1], /^✓ Done: type “Password” textbox ← •••••••• \(a password, hidden\) \d+\.\d s$/);
    assert.match(tools[2], /^✓ Done: click “Log in” button \d+\.\d s$/);
    assert.match((await stepTexts(panel)).at(-1), /^Finished: Logged in as alice/);
    // Live: each line showed while the run went on, one after the other.
    const seen = await panel.evaluate(() => window.seen);
    for (const n of [1, 2, 3]) assert.ok(seen.some((s) => s.tools.length === n && !s.over), `${n} step(s) shown before the end`);
    assert.ok(seen.some((s) => s.tools.length === 1 && /^… Under way: type/.test(s.tools[0])), 'a step shows while it runs');
    const counts = seen.map((s) => s.tools.length);
    assert.deepEqual(counts, [...counts].sort((a, b) => a - b), 'lines are only ever added, in order');
    assert.match(await panel.textContent('#live-url'), /welcome\.html/);
    assert.equal(await panel.textContent('#live-status'), 'Done');
    assert.equal(await panel.textContent('#outcome-text'), 'Logged in as alice');
    // The typed password is not kept in the run's record (the demo site's
    // form sends it in the address, which the record keeps as the page's).
    const [record] = await runs(panel);
    const stored = { ...record, url: '(the page address)' };
    assert.ok(!JSON.stringify(stored).includes('s3cret'), `the typed password is not stored: ${JSON.stringify(stored)}`);
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await panel.click('#outcome-copy');
    await panel.waitForFunction(() => document.querySelector('#copied').textContent === 'Copied to the clipboard.');
    assert.equal(await panel.evaluate(() => navigator.clipboard.readText()), 'Logged in as alice');
    await shot(panel, 'run-done');
    await axeScan(panel, 'a finished run');
    await panel.close();
    await page.close();
  } finally {
    await server.kill();
    await llm.close();
  }
});

test('a step that fails shows ✗ with its error in words, and the run goes on', async () => {
  // The model types into a button (the page refuses: it takes no text), then finishes.
  const llm = await startLlmServer(async (body) => {
    const p = promptOf(body);
    if (/type/.test(historyOf(p))) return { tool: 'finish', parameters: { result: 'The button takes no text' } };
    return { tool: 'type', parameters: { id: idOf(p, 'Add to cart'), text: 'two' } };
  });
  const server = await startAgentServer({ env: { LLM_API_KEY: 'k', LLM_BASE_URL: llm.url, LLM_MODEL: 'scripted-model' } });
  try {
    const { page, panel } = await pageAndPanel(browser, 'index.html', server.url);
    await panel.fill('#task', 'Type "two" into the first Add to cart button');
    await panel.click('#start');
    await panel.waitForSelector('#outcome:not([hidden])', { timeout: 45000 });
    const tools = await stepTexts(panel, '#steps', 'tool');
    assert.equal(tools.length, 1, (await stepTexts(panel)).join('\n'));
    assert.match(tools[0], /^✗ Failed: type “Add to cart” button ← “two” \d+\.\d s .*does not accept text/, 'the cross, the tool, its target, the time and the error');
    assert.equal(await panel.locator('#steps > li.fail .why').count(), 1, 'the error on a line of its own, in the failure colour');
    assert.match((await stepTexts(panel)).at(-1), /^Finished: The button takes no text/);
    assert.equal(await panel.textContent('#live-status'), 'Done');
    await shot(panel, 'run-failed-step');
    await panel.close();
    await page.close();
  } finally {
    await server.kill();
    await llm.close();
  }
});

test('pause holds the run after its step, the panel closed and opened again shows it as it was, resume goes on, stop ends it', async () => {
  const llm = await startLlmServer(async () => ({ delayMs: 250, tool: 'scroll', parameters: { direction: 'down' } }));
  const server = await startAgentServer({ env: { LLM_API_KEY: 'k', LLM_BASE_URL: llm.url } });
  try {
    const opened = await pageAndPanel(browser, 'index.html', server.url);
    const { page, tabId } = opened;
    let { panel } = opened;
    await panel.fill('#task', 'Keep scrolling');
    await panel.click('#start');
    await panel.waitForFunction(() => document.querySelectorAll('#steps > li[data-kind=tool]').length >= 2, null, { timeout: 30000 });
    await panel.click('#pause');
    await panel.waitForFunction(() => document.querySelector('#live-status').textContent === 'Paused');
    assert.equal(await panel.textContent('#pause'), 'Resume');
    // The step under way may finish; then nothing more happens.
    await new Promise((r) => setTimeout(r, 1500));
    const held = await stepTexts(panel);
    const calls = llm.calls.length;
    await new Promise((r) => setTimeout(r, 2000));
    assert.deepEqual(await stepTexts(panel), held, 'no step while paused');
    assert.equal(llm.calls.length, calls, 'the agent server is not asked while paused');

    // Closed and opened again: the same run, the same lines, still paused.
    await panel.close();
    panel = await openPanel(browser.context, tabId);
    assert.deepEqual(await stepTexts(panel), held);
    assert.equal(await panel.textContent('#live-status'), 'Paused');
    await shot(panel, 'run-paused');

    await panel.click('#pause');
    await panel.waitForFunction((n) => document.querySelectorAll('#steps > li[data-kind=tool]').length > n, held.filter((t) => /scroll/.test(t)).length, { timeout: 20000 });
    assert.match((await stepTexts(panel)).join('\n'), /Paused\nResumed/);
    // Every fifth step the server reflects on the run: shown where it was made.
    await panel.waitForSelector('#steps > li[data-kind=reflection]', { timeout: 30000 });
    assert.match(await panel.textContent('#steps > li[data-kind=reflection]'), /^Reflection after step \d+: efficiency \w+\./);
    await panel.click('#stop');
    await panel.waitForFunction(() => document.querySelector('#live-status').textContent === 'Stopped');
    assert.equal(await panel.isHidden('#live-controls'), true);
    assert.match(await panel.textContent('#outcome-text'), /cancelled by the user/);
    await panel.close();
    await page.close();
  } finally {
    await server.kill();
    await llm.close();
  }
});

test('careful mode: the question names the element, the page outlines it until answered; refused by keyboard, nothing is paid', async () => {
  const { page, panel } = await pageAndPanel(browser, 'checkout.html', agent.url);
  await panel.fill('#task', 'Pay for the order with card "4242 4242 4242 4242"');
  await panel.check('input[name=mode][value=careful]');
  await panel.click('#start');
  await panel.waitForSelector('#ask:not([hidden])', { timeout: 30000 });
  assert.match(await panel.textContent('#ask-question'), /Security check: Attempting to type card data into 'Card number'/);
  assert.equal(await panel.textContent('#ask-action'), 'type “4242 4242 4242 4242”');
  assert.equal(await panel.textContent('#ask-element'), '“Card number” (textbox)');
  assert.equal(await panel.textContent('#ask-reason'), 'enters card data');
  assert.equal(await panel.evaluate(() => document.activeElement.id), 'ask', 'the question takes the keyboard focus');
  // The page outlines that element while the question waits.
  const [run] = (await runs(panel)).filter((r) => r.status === 'waiting_user');
  assert.equal(run.ask.element.role, 'textbox');
  assert.equal(await heldId(page), run.ask.element.id);
  await shot(panel, 'approval');
  await page.bringToFront();
  await shot(page, 'approval-page', { clip: { x: 0, y: 0, width: 400, height: 320 } });
  await panel.bringToFront();
  await axeScan(panel, 'a question in careful mode');
  await new Promise((r) => setTimeout(r, 2000));
  assert.equal(await heldId(page), run.ask.element.id, 'still outlined: it lasts until the answer');

  // Keyboard only: from the question, Tab to the answer, Approve, Refuse.
  await panel.keyboard.press('Tab');
  assert.equal(await panel.evaluate(() => document.activeElement.id), 'ask-text');
  await panel.keyboard.press('Tab');
  assert.equal(await panel.evaluate(() => document.activeElement.id), 'approve');
  await panel.keyboard.press('Tab');
  assert.equal(await panel.evaluate(() => document.activeElement.id), 'refuse');
  await panel.keyboard.press('Enter');
  await panel.waitForFunction(() => document.querySelector('#live-status').textContent === 'Stopped', null, { timeout: 15000 });
  assert.equal(await heldId(page), null, 'the outline goes with the answer');
  assert.doesNotMatch(page.url(), /confirmation/);
  assert.match((await stepTexts(panel)).join('\n'), /You refused\nStopped: refused by the user/);
  await panel.close();
  await page.close();
});

test('careful mode: each question approved by keyboard, the payment goes through and every outline is gone', async () => {
  const { page, panel } = await pageAndPanel(browser, 'checkout.html', agent.url);
  await panel.fill('#task', 'Pay for the order with card "4242 4242 4242 4242"');
  await panel.check('input[name=mode][value=careful]');
  await panel.click('#start');
  const elements = [];
  for (let asked = 0; ; asked++) {
    await panel.waitForFunction(() => !document.querySelector('#ask').hidden || !document.querySelector('#outcome').hidden, null, { timeout: 30000 });
    if (await panel.isVisible('#outcome')) break;
    assert.ok(asked < 3, 'asked too often');
    const [run] = (await runs(panel)).filter((r) => r.status === 'waiting_user');
    elements.push(await panel.textContent('#ask-element'));
    assert.equal(await heldId(page), run.ask.element.id);
    await panel.keyboard.press('Tab'); // the answer (optional: given to the first question)
    if (asked === 0) await panel.keyboard.type('yes, the card ending 4242');
    await panel.keyboard.press('Tab'); // Approve
    await panel.keyboard.press('Enter');
    await panel.waitForFunction((q) => document.querySelector('#ask').hidden || document.querySelector('#ask-question').textContent !== q, run.question, { timeout: 15000 });
  }
  assert.deepEqual(elements, ['“Card number” (textbox)', '“Pay now” (button)']);
  assert.equal(await panel.textContent('#live-status'), 'Done');
  assert.match(page.url(), /confirmation\.html/);
  assert.equal(await heldId(page), null);
  const answers = await stepTexts(panel, '#steps', 'answer');
  assert.equal(answers.length, 2);
  assert.match(answers[0], /approved: yes, the card ending 4242/i, 'the answer text goes with the approval');
  assert.doesNotMatch(answers[1], /card ending/, 'and only with the question it answered');
  await panel.close();
  await page.close();
});

test('the history keeps a finished run across a browser restart, opens it, runs it again, and clears', async () => {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'sentience-profile-'));
  let restarted = null;
  try {
    const first = await launch({ profile });
    try {
      const { page, panel } = await pageAndPanel(first, 'login.html', agent.url);
      await panel.fill('#task', 'Log in as "alice" with password "s3cret"');
      await panel.click('#start');
      await panel.waitForSelector('#outcome:not([hidden])', { timeout: 45000 });
      assert.equal(await panel.textContent('#live-status'), 'Done');
      await page.close();
      await panel.close();
    } finally {
      await first.close();
    }

    // The browser again, on the same profile.
    restarted = await launch({ profile });
    const page = await open(restarted.context, `${site.url}/index.html`);
    const tabId = await tabIdOf(restarted.worker, page);
    const panel = await openPanel(restarted.context, tabId);
    await panel.waitForSelector('#server.up', { timeout: 15000 });
    await panel.click('button.nav[data-view=history]');
    await panel.waitForSelector('.history-item');
    assert.equal(await panel.locator('.history-item').count(), 1);
    const item = (await panel.textContent('.history-item')).replace(/\s+/g, ' ');
    assert.match(item, new RegExp(`Log in as "alice" with password "s3cret" Done ${new URL(site.url).host} · \\d+ steps · (just now|\\d+ min ago)`));
    assert.match(await panel.textContent('.history-item .result'), /Welcome, alice/, 'the result, in the list');
    await shot(panel, 'history');
    await axeScan(panel, 'history');
    await panel.click('.history-item');
    const steps = await stepTexts(panel, '#history-steps', 'tool');
    assert.ok(steps.length >= 3, steps.join('\n'));
    assert.ok(steps.some((t) => /type “Password” textbox ← ••••••••/.test(t)), steps.join('\n'));
    assert.match(await panel.textContent('#history-detail-meta'), /autonomous · http:\/\/.*\/login\.html/);
    await shot(panel, 'history-run');
    await axeScan(panel, 'a run in the history');

    // Run again: from where it started, in the panel's tab.
    await panel.click('#history-rerun');
    await panel.waitForSelector('#view-run:not([hidden]) #live:not([hidden])');
    await panel.waitForFunction(() => document.querySelector('#live-status').textContent === 'Done', null, { timeout: 45000 });
    assert.match(page.url(), /welcome\.html\?user=alice/);
    await panel.click('button.nav[data-view=history]');
    await panel.waitForFunction(() => document.querySelectorAll('.history-item').length === 2);

    await panel.click('#history-clear');
    assert.match(await panel.textContent('#history-confirm-text'), /Delete the 2 finished runs/);
    await panel.click('#history-confirm-yes');
    await panel.waitForSelector('#history-empty:not([hidden])');
    assert.equal(await panel.locator('.history-item').count(), 0);
    assert.deepEqual(await runs(panel), []);
  } finally {
    await restarted?.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
});

test('runs stay within the history\'s size cap, oldest first to go', async () => {
  const panel = await openPanel(browser.context);
  await panel.evaluate((m) => chrome.runtime.sendMessage(m), { type: 'runs-clear' });
  // 105 finished runs, written as the service worker writes them; then one more ends.
  await panel.evaluate(async () => {
    const at = Date.now() - 1e6;
    const old = {};
    for (let i = 0; i < 105; i++) old[`run:old-${i}`] = { runId: `old-${i}`, tabId: 1, task: `task ${i}`, mode: 'autonomous', status: 'completed', log: [], reflections: [], createdAt: at + i, updatedAt: at + i, endedAt: at + i, currentStep: 1, maxSteps: 150 };
    await chrome.storage.local.set(old);
  });
  const page = await open(browser.context, `${site.url}/index.html`);
  const tabId = await tabIdOf(browser.worker, page);
  await configure(panel, agent.url);
  const runId = await panel.evaluate((m) => chrome.runtime.sendMessage(m), { type: 'run-start', task: 'Search for "rake"', mode: 'autonomous', tabId }).then((r) => r.runId);
  await waitRun(panel, terminal, { runId });
  const kept = await runs(panel);
  assert.equal(kept.length, 100);
  assert.ok(kept.some((r) => r.runId === runId), 'the newest is kept');
  assert.ok(!kept.some((r) => r.runId === 'old-0') && !kept.some((r) => r.runId === 'old-5'), 'the oldest went');
  assert.ok(kept.some((r) => r.runId === 'old-6'));
  await panel.evaluate((m) => chrome.runtime.sendMessage(m), { type: 'runs-clear' });
  await page.close();
  await panel.close();
});

test('the server\'s run stream shows what only the server knows: a run cancelled by another client ends in the panel at once', async () => {
  // With an API key (one a WebSocket subprotocol could not carry as it is):
  // the panel sends it as the subprotocol `sentience.key.<hex>`.
  const key = 'k3y/with=chars';
  const keyed = await startAgentServer({ env: { SENTIENCE_API_KEY: key } });
  try {
    await streamShowsCancel(keyed.url, key);
  } finally {
    await keyed.kill();
  }
});

async function streamShowsCancel(url, key) {
  const { page, panel } = await pageAndPanel(browser, 'checkout.html', url, { apiKey: key });
  await panel.fill('#task', 'Pay for the order with card "4242 4242 4242 4242"');
  await panel.check('input[name=mode][value=careful]');
  await panel.click('#start');
  await panel.waitForSelector('#ask:not([hidden])', { timeout: 30000 });
  const run = await waitRun(panel, (r) => r.status === 'waiting_user');
  // Another client (`sentience`, an SDK, a script) cancels the run on the
  // server; the service worker, waiting for the user's answer, does not ask.
  const res = await fetch(`${url}/agent/run/${run.runId}/cancel`, { method: 'POST', headers: { authorization: `Bearer ${key}` } });
  assert.equal(res.status, 200, await res.text());
  await panel.waitForFunction(() => document.querySelector('#live-status').textContent === 'Stopped', null, { timeout: 10000 });
  assert.ok(await panel.isHidden('#ask'), 'the question goes with the run');
  assert.ok(await panel.isVisible('#outcome'));
  // It came from the stream: the service worker's record still waits.
  const [record] = (await runs(panel)).filter((r) => r.runId === run.runId);
  assert.equal(record.status, 'waiting_user');
  // Nothing shown twice: the same lines after a reload (replayed from seq 0).
  const lines = await stepTexts(panel);
  await panel.reload();
  await panel.waitForFunction(() => document.querySelector('#live-status').textContent === 'Stopped', null, { timeout: 10000 });
  assert.deepEqual(await stepTexts(panel), lines);
  await panel.evaluate((runId) => chrome.runtime.sendMessage({ type: 'run-cancel', runId }), run.runId);
  await waitRun(panel, (r) => r.status === 'cancelled', { runId: run.runId });
  await panel.close();
  await page.close();
}

test('when the server\'s run stream is refused (a proxy without WebSockets), the panel follows the service worker\'s record', async () => {
  // A proxy in front of the real server: HTTP passes, upgrades get 404.
  const target = new URL(agent.url);
  let upgrades = 0;
  const proxy = http.createServer((req, res) => {
    const up = http.request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: { ...req.headers, host: target.host } }, (r) => {
      res.writeHead(r.statusCode, r.headers);
      r.pipe(res);
    });
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  proxy.on('upgrade', (req, socket) => {
    upgrades++;
    socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
  });
  await new Promise((r) => proxy.listen(0, '127.0.0.1', r));
  try {
    const { page, panel } = await pageAndPanel(browser, 'login.html', `http://127.0.0.1:${proxy.address().port}`);
    await panel.fill('#task', 'Log in as "alice" with password "s3cret"');
    await panel.click('#start');
    await panel.waitForSelector('#outcome:not([hidden])', { timeout: 45000 });
    assert.equal(await panel.textContent('#live-status'), 'Done');
    assert.ok(upgrades >= 1, 'the panel asked for the stream');
    assert.equal(upgrades, 1, 'and, refused, did not ask again');
    const tools = await stepTexts(panel, '#steps', 'tool');
    assert.match(tools[0], /type “Username” textbox ← “alice”/);
    await panel.close();
    await page.close();
  } finally {
    proxy.close();
  }
});
