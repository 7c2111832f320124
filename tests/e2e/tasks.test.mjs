// The built-in agent (docs/agent.md) (System 2 scorer, no LLM) understands tasks as
// people write them and carries out multi-step plans, end to end: real
// Chromium + the extension's service worker + the real `sentience serve` on
// local pages of our own (tests/pages/tasks). Each page records what the
// user would see as the outcome in body[data-result].
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { ROOT, EXTENSION_ID, startServer, launch, open } from '../lib/harness.mjs';
import { startAgentServer, tabIdOf, configure, waitRun, startRun } from '../lib/agent.mjs';

let site;
let browser;
let agent;
let ext;
before(async () => {
  site = await startServer(path.join(ROOT, 'tests/pages/tasks'));
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

const terminal = (r) => ['completed', 'error', 'cancelled', 'waiting_user'].includes(r.status);
const toolsOf = (run) => run.log.filter((e) => e.kind === 'tool').map((e) => `${e.tool}${e.target ? ` "${e.target}"` : ''}${e.params && e.params.text !== undefined ? `=${JSON.stringify(e.params.text)}` : ''}`);

/** Runs `task` on tests/pages/tasks/`file`; returns the finished run and the page's recorded outcome. */
async function perform(file, task) {
  const page = await open(browser.context, `${site.url}/${file}`);
  const tabId = await tabIdOf(browser.worker, page);
  const runId = await startRun(ext, { task, mode: 'autonomous', tabId });
  const run = await waitRun(ext, terminal, { runId, timeoutMs: 45000 });
  const result = await page.evaluate(() => document.body.dataset.result ?? null);
  await page.close();
  return { run, result, why: `${run.status} ${run.error || run.result || run.question || ''} | ${toolsOf(run).join(' → ')}` };
}

test('login with unquoted values', async () => {
  const { run, result, why } = await perform('login.html', 'Log in with username alice and password wonderland');
  assert.equal(run.status, 'completed', why);
  assert.deepEqual(JSON.parse(result), { u: 'alice', p: 'wonderland' }, why);
});

test('a checkbox set: exactly the named boxes, a pre-ticked one unticked', async () => {
  const { run, result, why } = await perform('checkboxes.html', 'Select Apples, Cherries and Dates and click Submit');
  assert.equal(run.status, 'completed', why);
  assert.deepEqual(JSON.parse(result), ['apples', 'cherries', 'dates'], why);
});

test('a collapsible section is opened before its button is clicked', async () => {
  const { run, result, why } = await perform('collapsible.html', 'Expand the Shipping section and click Confirm shipping');
  assert.equal(run.status, 'completed', why);
  assert.equal(result, 'confirm', why);
});

test('tabs are switched until the link shows', async () => {
  const { run, result, why } = await perform('tabs.html', 'Switch between the tabs to find and click the link "Refund policy"');
  assert.equal(run.status, 'completed', why);
  assert.equal(result, '#refunds', why);
});

test('a dropdown option is chosen, then the button clicked', async () => {
  const { run, result, why } = await perform('dropdown.html', 'Choose Large from the size dropdown and click Add to cart');
  assert.equal(run.status, 'completed', why);
  assert.deepEqual(JSON.parse(result), { size: 'Large', colour: 'Blue' }, why);
});

test('an autocomplete suggestion is picked from a partial entry', async () => {
  const { run, result, why } = await perform('autocomplete.html', 'Enter a city that starts with "Ams" and ends with "dam"');
  assert.equal(run.status, 'completed', why);
  assert.equal(result, 'Amsterdam', why);
});

test('a date and a time go into their fields', async () => {
  const { run, result, why } = await perform('date.html', 'Set the date to 12/25/2024 and the time to 19:30, then click Book');
  assert.equal(run.status, 'completed', why);
  assert.deepEqual(JSON.parse(result), { date: '12/25/2024', time: '19:30' }, why);
});

test('a long list is scrolled to reach the target', async () => {
  const { run, result, why } = await perform('scroll.html', 'Click the link "Issue 128"');
  assert.equal(run.status, 'completed', why);
  assert.equal(result, 'Issue 128', why);
});

test('a table lookup: read a value on the page and enter it', async () => {
  const { run, result, why } = await perform('table.html', 'Enter the phone number of Carol Diaz into the Phone field and click Save');
  assert.equal(run.status, 'completed', why);
  assert.equal(result, '555-0177', why);
});
