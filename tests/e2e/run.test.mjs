// Agent runs end to end: real Chromium + the extension's service worker
// driving the real `sentience serve` (port 0) on the bundled demo site.
// The built-in System 2 scorer, careful mode, the LLM policy against a
// scripted OpenAI-compatible server, a stopped service worker, a server that
// is down, a stale element id, and the side panel itself.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import path from 'node:path';
import { ROOT, EXTENSION_ID, startServer, launch, open } from '../lib/harness.mjs';
import { startAgentServer, startLlmServer, promptOf, historyOf, idOf, panelUrl, tabIdOf, configure, waitRun, startRun, answer, runs } from '../lib/agent.mjs';

let site;
let browser;
let agent;
let ext; // an extension page: the UI channel, as the side panel uses it
before(async () => {
  site = await startServer(path.join(ROOT, 'demo'));
  browser = await launch();
  agent = await startAgentServer();
  ext = await browser.context.newPage();
  await ext.goto(`chrome-extension://${EXTENSION_ID}/extension/options/options.html`);
  await configure(ext, agent.url);
});
after(async () => {
  await browser?.close();
  await agent?.kill();
  await site?.close();
});

async function runOn(pagePath, task, { mode = 'autonomous', server } = {}) {
  if (server) await configure(ext, server);
  const page = await open(browser.context, `${site.url}/${pagePath}`);
  const tabId = await tabIdOf(browser.worker, page);
  const runId = await startRun(ext, { task, mode, tabId });
  return { page, tabId, runId };
}
const terminal = (r) => ['completed', 'error', 'cancelled'].includes(r.status);
const toolsOf = (run) => run.log.filter((e) => e.kind === 'tool').map((e) => `${e.tool}${e.target ? ` "${e.target}"` : ''}`);

test('built-in scorer logs in on the demo site', async () => {
  const { page, runId } = await runOn('login.html', 'Log in as "alice" with password "s3cret"');
  const run = await waitRun(ext, terminal, { runId });
  assert.equal(run.status, 'completed', `${run.error} ${toolsOf(run)}`);
  assert.match(page.url(), /welcome\.html\?user=alice&password=s3cret/);
  assert.match(await page.textContent('#msg'), /Welcome, alice/);
  await page.close();
});

test('built-in scorer searches for a term', async () => {
  const { page, runId } = await runOn('index.html', 'Search for "rust"');
  const run = await waitRun(ext, terminal, { runId });
  assert.equal(run.status, 'completed', `${run.error} ${toolsOf(run)}`);
  assert.match(page.url(), /search\.html\?q=rust/);
  await page.close();
});

test('built-in scorer fills and submits the contact form', async () => {
  const { page, runId } = await runOn('contact.html', 'Fill the contact form with name "Bob", email "bob@example.com" and message "Hello there" and submit it');
  const run = await waitRun(ext, terminal, { runId });
  assert.equal(run.status, 'completed', `${run.error} ${toolsOf(run)}`);
  assert.match(page.url(), /thanks\.html\?name=Bob&email=bob%40example\.com&message=Hello\+there/);
  await page.close();
});

test('careful mode asks before "Pay now"; refusing cancels the run and nothing is paid', async () => {
  const { page, runId } = await runOn('checkout.html', 'Pay for the order with card "4242 4242 4242 4242"', { mode: 'careful' });
  const asked = await waitRun(ext, (r) => r.status === 'waiting_user' || terminal(r), { runId });
  assert.equal(asked.status, 'waiting_user', `${asked.error} ${toolsOf(asked)}`);
  assert.match(asked.question, /Security check/);
  await answer(ext, runId, false);
  const run = await waitRun(ext, terminal, { runId });
  assert.equal(run.status, 'cancelled');
  assert.doesNotMatch(page.url(), /confirmation/);
  const server = await fetch(`${agent.url}/agent/run/${runId}`).then((r) => r.json());
  assert.equal(server.state.status, 'cancelled');
  await page.close();
});

test('a question the server ended meanwhile (cancelled by another client) is settled on the worker\'s next wake-up', async () => {
  const { page, runId } = await runOn('checkout.html', 'Pay for the order with card "4242 4242 4242 4242"', { mode: 'careful' });
  const asked = await waitRun(ext, (r) => r.status === 'waiting_user' || terminal(r), { runId });
  assert.equal(asked.status, 'waiting_user', `${asked.error} ${toolsOf(asked)}`);
  // `sentience run` or another client cancels it on the server.
  const res = await fetch(`${agent.url}/agent/run/${runId}/cancel`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  assert.equal(res.status, 200);
  // The resume alarm's wake-up (every 30 s), called at once here.
  await browser.worker.evaluate(() => globalThis.SentienceRuns.resumeAll());
  const run = await waitRun(ext, terminal, { runId, timeoutMs: 5000 });
  assert.equal(run.status, 'cancelled');
  assert.equal(run.question, null);
  assert.match(run.log.at(-1).text, /agent server ended the run \(cancelled\)/);
  assert.doesNotMatch(page.url(), /confirmation/);
  await page.close();
});

test('careful mode: approving each security check lets the payment through', async () => {
  const { page, runId } = await runOn('checkout.html', 'Pay for the order with card "4242 4242 4242 4242"', { mode: 'careful' });
  let questions = 0;
  for (;;) {
    const r = await waitRun(ext, (x) => x.status === 'waiting_user' || terminal(x), { runId });
    if (terminal(r)) {
      assert.equal(r.status, 'completed', `${r.error} ${toolsOf(r)}`);
      break;
    }
    questions++;
    assert.ok(questions <= 3, 'asked too often');
    await answer(ext, runId, true);
    await waitRun(ext, (x) => x.status !== 'waiting_user' || x.question !== r.question, { runId });
  }
  assert.ok(questions >= 1);
  assert.match(page.url(), /confirmation\.html/);
  await page.close();
});

test('autonomous mode pays without asking', async () => {
  const { page, runId } = await runOn('checkout.html', 'Pay for the order with card "4242 4242 4242 4242"');
  const run = await waitRun(ext, terminal, { runId });
  assert.equal(run.status, 'completed', `${run.error} ${toolsOf(run)}`);
  assert.ok(!run.log.some((e) => e.kind === 'ask'));
  assert.match(page.url(), /confirmation\.html/);
  await page.close();
});

test('runs in two tabs at once are bound to their tabs and do not interfere', async () => {
  const a = await runOn('login.html', 'Log in as "bob" with password "hunter2"');
  const b = await runOn('index.html', 'Search for "rake"');
  const [ra, rb] = await Promise.all([waitRun(ext, terminal, { runId: a.runId }), waitRun(ext, terminal, { runId: b.runId })]);
  assert.equal(ra.status, 'completed', `${ra.error} ${toolsOf(ra)}`);
  assert.equal(rb.status, 'completed', `${rb.error} ${toolsOf(rb)}`);
  assert.notEqual(ra.tabId, rb.tabId);
  assert.match(a.page.url(), /welcome\.html\?user=bob/);
  assert.match(b.page.url(), /search\.html\?q=rake/);
  await a.page.close();
  await b.page.close();
});

test('LLM policy drives a multi-page task through a scripted OpenAI-compatible server', async () => {
  const llm = await startLlmServer((body) => {
    const p = promptOf(body);
    const hist = historyOf(p);
    if (/Welcome, alice/.test(p)) return { tool: 'finish', parameters: { result: 'Logged in as alice' } };
    if (idOf(p, 'Username') === null) return { tool: 'click', parameters: { id: idOf(p, 'Log in') } }; // the store's link
    if (!hist.includes('"alice"')) return { tool: 'type', parameters: { id: idOf(p, 'Username'), text: 'alice' } };
    if (!hist.includes('"s3cret"')) return { tool: 'type', parameters: { id: idOf(p, 'Password'), text: 's3cret' } };
    return { tool: 'click', parameters: { id: idOf(p, 'Log in') } }; // the form's button
  });

  const server = await startAgentServer({ env: { LLM_API_KEY: 'test-key', LLM_BASE_URL: llm.url, LLM_MODEL: 'scripted-model' } });
  try {
    const health = await fetch(`${server.url}/health`).then((r) => r.json());
    assert.equal(health.model, 'scripted-model');
    assert.equal(health.baseUrl, llm.url);
    const { page, runId } = await runOn('index.html', 'Log in as alice with password s3cret', { server: server.url });
    const run = await waitRun(ext, terminal, { runId });
    assert.equal(run.status, 'completed', `${run.error} ${toolsOf(run)}`);
    assert.equal(run.result, 'Logged in as alice');
    assert.match(page.url(), /welcome\.html/);
    assert.ok(llm.calls.length >= 4, `LLM called ${llm.calls.length} times`);
    assert.equal(llm.calls[0].model, 'scripted-model');
    await page.close();
  } finally {
    await configure(ext, agent.url);
    await server.kill();
    await llm.close();
  }
});

test('a stopped service worker resumes the run without repeating an action', async () => {
  let stopped = false;
  const llm = await startLlmServer(async (body) => {
    const p = promptOf(body);
    if (/Welcome, alice/.test(p)) return { tool: 'finish', parameters: { result: 'done' } };
    const hist = historyOf(p);
    if (!/alice/.test(hist)) return { tool: 'type', parameters: { id: idOf(p, 'Username'), text: 'alice' } };
    if (!/s3cret/.test(hist)) {
      // Answer late: the test stops the worker while this request is in flight.
      return { delayMs: stopped ? 0 : 2500, tool: 'type', parameters: { id: idOf(p, 'Password'), text: 's3cret' } };
    }
    return { tool: 'click', parameters: { id: idOf(p, 'Log in') } };
  });
  const server = await startAgentServer({ env: { LLM_API_KEY: 'k', LLM_BASE_URL: llm.url } });
  try {
    const { page, runId } = await runOn('login.html', 'Log in as alice with password s3cret', { server: server.url });
    await waitRun(ext, (r) => r.log.some((e) => e.kind === 'tool' && e.tool === 'type' && e.result), { runId });
    await new Promise((r) => setTimeout(r, 600)); // the next /step is in flight
    const cdp = await browser.context.newCDPSession(ext);
    await cdp.send('ServiceWorker.enable');
    await cdp.send('ServiceWorker.stopAllWorkers');
    stopped = true;
    const { targetInfos } = await cdp.send('Target.getTargets');
    assert.ok(!targetInfos.some((t) => t.type === 'service_worker'), 'the worker is stopped');
    await cdp.detach();
    await ext.reload(); // someone opens an extension page: the worker starts again
    await configure(ext, server.url);
    const run = await waitRun(ext, terminal, { runId, timeoutMs: 60000 });
    assert.equal(run.status, 'completed', `${run.error} ${toolsOf(run)}`);
    // (What goes into the password field is masked in the record.)
    const typed = run.log.filter((e) => e.kind === 'tool' && e.tool === 'type').map((e) => e.params.text);
    assert.deepEqual(typed, ['alice', '••••••••'], 'each action exactly once');
    const state = await fetch(`${server.url}/agent/run/${runId}`).then((r) => r.json());
    const actions = state.state.history.map((h) => h.action).filter((a) => a === 'type');
    assert.equal(actions.length, 2, `server history: ${JSON.stringify(state.state.history)}`);
    assert.match(page.url(), /welcome\.html/);
    await page.close();
  } finally {
    await configure(ext, agent.url);
    await server.kill();
    await llm.close();
  }
});

test('a stale element id gives a failed ToolResult and the run recovers', async () => {
  const llm = await startLlmServer(async (body, i) => {
    const p = promptOf(body);
    if (/Order confirmed/.test(p)) return { tool: 'finish', parameters: { result: 'paid' } };
    // The first answer comes after the page has re-rendered its button.
    if (i === 0) return { delayMs: 1500, tool: 'click', parameters: { id: idOf(p, 'Pay now') } };
    return { tool: 'click', parameters: { id: idOf(p, 'Pay now') } };
  });
  const server = await startAgentServer({ env: { LLM_API_KEY: 'k', LLM_BASE_URL: llm.url } });
  try {
    const { page, runId } = await runOn('checkout.html', 'Pay', { server: server.url });
    // Re-render the button (a new element, so a new id) while the LLM thinks.
    await page.evaluate(() => setTimeout(() => {
      const old = document.querySelector('.pay');
      old.replaceWith(old.cloneNode(true));
    }, 700));
    const run = await waitRun(ext, terminal, { runId });
    assert.equal(run.status, 'completed', `${run.error} ${toolsOf(run)}`);
    const clicks = run.log.filter((e) => e.kind === 'tool' && e.tool === 'click');
    assert.equal(clicks[0].result.success, false);
    assert.match(clicks[0].result.error, /no longer in the document/);
    assert.equal(clicks[1].result.success, true);
    const second = promptOf(llm.calls[1]);
    assert.match(second, /no longer in the document/, 'the failure reached the policy');
    await page.close();
  } finally {
    await configure(ext, agent.url);
    await server.kill();
    await llm.close();
  }
});

test('a server that is down gives a clear error, not a hang', async () => {
  const page = await open(browser.context, `${site.url}/index.html`);
  const tabId = await tabIdOf(browser.worker, page);
  await configure(ext, 'http://127.0.0.1:9'); // nothing listens on the discard port
  try {
    const res = await ext.evaluate((m) => chrome.runtime.sendMessage(m), { type: 'run-start', task: 'Search for "x"', mode: 'autonomous', tabId });
    assert.match(res.error, /nothing answers at http:\/\/127\.0\.0\.1:9 .*`sentience serve`/);
  } finally {
    await configure(ext, agent.url);
  }
  await page.close();
});

test('closing the run\'s tab cancels the run', async () => {
  const llm = await startLlmServer(async () => ({ delayMs: 800, tool: 'scroll', parameters: { direction: 'down' } }));
  const server = await startAgentServer({ env: { LLM_API_KEY: 'k', LLM_BASE_URL: llm.url } });
  try {
    const { page, runId } = await runOn('index.html', 'Keep scrolling', { server: server.url });
    await waitRun(ext, (r) => r.log.length > 0, { runId });
    await page.close();
    const run = await waitRun(ext, terminal, { runId });
    assert.equal(run.status, 'cancelled');
    assert.match(run.log.at(-1).text, /tab was closed/);
  } finally {
    await configure(ext, agent.url);
    await server.kill();
    await llm.close();
  }
});

test('closing the tab while its action runs cancels the run, not an error', async () => {
  // The action (a navigation to a page that takes 3 s to answer) is still
  // running when the tab closes: it then fails, and that failure must not
  // write the run back as running over its cancellation.
  const slow = http.createServer((req, res) => setTimeout(() => res.end('<p>slow</p>'), 3000)).listen(0, '127.0.0.1');
  await new Promise((r) => slow.once('listening', r));
  const slowUrl = `http://127.0.0.1:${slow.address().port}/`;
  const llm = await startLlmServer(async (_, i) => (i === 0 ? { tool: 'navigate', parameters: { url: slowUrl } } : { tool: 'scroll', parameters: { direction: 'down' } }));
  const server = await startAgentServer({ env: { LLM_API_KEY: 'k', LLM_BASE_URL: llm.url } });
  try {
    const { page, runId } = await runOn('index.html', 'Open the slow page', { server: server.url });
    await waitRun(ext, (r) => r.log.some((e) => e.kind === 'tool' && e.tool === 'navigate'), { runId });
    await new Promise((r) => setTimeout(r, 500)); // the navigation is under way
    await page.close();
    const run = await waitRun(ext, terminal, { runId });
    assert.equal(run.status, 'cancelled', JSON.stringify(run.log.slice(-3)));
    assert.match(run.log.at(-1).text, /tab was closed/);
    // And it stays so: the driver's late save does not undo it.
    await new Promise((r) => setTimeout(r, 1500));
    assert.equal((await waitRun(ext, terminal, { runId })).status, 'cancelled');
  } finally {
    await configure(ext, agent.url);
    await server.kill();
    await llm.close();
    slow.closeAllConnections();
    slow.close();
  }
});

test('page scripts cannot start runs', async () => {
  const page = await open(browser.context, `${site.url}/index.html`);
  const before = (await runs(ext)).length;
  const reachable = await page.evaluate(() => typeof chrome !== 'undefined' && !!(chrome.runtime && chrome.runtime.sendMessage));
  if (reachable) {
    const err = await page.evaluate(() => new Promise((r) => {
      try {
        chrome.runtime.sendMessage('hogbpejkhkeecefhknbglfhofifoajbn', { type: 'run-start', task: 'x', mode: 'autonomous', tabId: 1 }, () => r(chrome.runtime.lastError && chrome.runtime.lastError.message));
      } catch (e) {
        r(e.message);
      }
    }));
    assert.ok(err, 'the message must be refused');
  }
  await new Promise((r) => setTimeout(r, 300));
  assert.equal((await runs(ext)).length, before);
  await page.close();
});

test('the side panel starts a run, shows progress and answers ask_user through its UI', async () => {
  const page = await open(browser.context, `${site.url}/checkout.html`);
  const tabId = await tabIdOf(browser.worker, page);
  const panel = await browser.context.newPage();
  await panel.goto(panelUrl(tabId));
  await panel.fill('#task', 'Pay for the order with card "4242 4242 4242 4242"');
  await panel.check('input[name=mode][value=careful]');
  await panel.click('#start');
  await panel.waitForSelector('#ask:not([hidden])', { timeout: 30000 });
  assert.match(await panel.textContent('#ask-question'), /Security check/);
  assert.match(await panel.textContent('#live-progress'), /^Step \d+ of 150/);
  assert.ok((await panel.locator('#steps li').count()) >= 1);
  await panel.click('#refuse');
  await panel.waitForFunction(() => document.querySelector('#live-status').textContent === 'Stopped', null, { timeout: 10000 });
  assert.equal(await panel.isHidden('#ask'), true);
  await panel.close();
  await page.close();
});
