// The HTML browse protocol end to end (docs/browse.md): the real
// `sentience browse` binary drives real Chromium and talks to the real
// server (in-process, or `sentience serve` on port 0) over HTTP and over the
// WebSocket, with the built-in policy, on the demo store and on pages built
// to tempt a server into typing before clicking or acting on a page the
// client is not on (tests/pages/browse/tempt-*.html).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { SENTIENCE, startAgentServer } from '../lib/agent.mjs';
import { startServer } from '../lib/harness.mjs';

let site;
let agent;
before(async () => {
  site = await startServer();
  agent = await startAgentServer({ args: ['--in-memory'] });
});
after(async () => {
  await agent.kill();
  await site.close();
});

export function browse(args, { env = {}, timeoutMs = 120000 } = {}) {
  return new Promise((resolve, reject) => {
    const clean = { ...process.env };
    for (const k of ['LLM_API_KEY', 'LLM_BASE_URL', 'LLM_MODEL']) delete clean[k];
    const proc = spawn(SENTIENCE, ['browse', ...args], { env: { ...clean, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    proc.stdout.on('data', (d) => (stdout += d));
    proc.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => { proc.kill('SIGKILL'); reject(new Error(`sentience browse timed out\n${stderr}`)); }, timeoutMs);
    proc.on('exit', (code) => { clearTimeout(timer); resolve({ code, stdout, stderr, actions: actionsOf(stderr) }); });
  });
}

/** The actions done, from the progress lines: {kind, target, text, at}. */
export function actionsOf(stderr) {
  const out = [];
  for (const m of stderr.matchAll(/→ (click|type|goto) (.*?)(?: \((?:mouse at|element\.click)[^)]*\)+)? ✓ [\d.]+ s, now at (\S+)/g)) {
    const [, kind, rest, at] = m;
    if (kind === 'type') {
      const t = rest.match(/^("(?:[^"\\]|\\.)*") into (.+)$/);
      out.push({ kind, text: JSON.parse(t[1]), target: t[2], at });
    } else {
      out.push({ kind, target: rest, at });
    }
  }
  return out;
}

/** specs/002 "You need to click a selector before typing into it". */
export function assertClickBeforeType(actions) {
  actions.forEach((a, i) => {
    if (a.kind !== 'type') return;
    const before = actions.slice(0, i);
    const lastNav = before.map((b) => b.kind === 'goto' || b.at !== a.at).lastIndexOf(true);
    const clicked = before.slice(lastNav + 1).some((b) => b.kind === 'click' && b.target === a.target);
    assert.ok(clicked, `type into ${a.target} without clicking it first on this page: ${JSON.stringify(actions)}`);
  });
}

// Known failures of the server's built-in policy, each with its reason (the
// test still runs and reports; see NEEDS-FROM-SERVER.md on branch browse-client).
const KNOWN = {
  login: 'the built-in policy first types the user name into the search box on the front page',
  coupon: 'the built-in policy clicks Apply again and again instead of typing into the revealed field',
};

test('in-process server: the demo store login with the built-in policy (HTTP)', { todo: KNOWN.login }, async () => {
  const r = await browse(['--task', 'Log in as "alice" with password "s3cret"']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /✓ finished: .*alice/i);
  const typed = r.actions.filter((a) => a.kind === 'type').map((a) => a.text);
  assert.deepEqual(typed, ['alice', 's3cret'], r.stderr);
  assert.match(r.actions.at(-1).at, /welcome\.html/, r.stderr);
  assertClickBeforeType(r.actions);
  // Every progress line starts with the server's reason in the spec's form.
  for (const m of r.stderr.matchAll(/^ {2}\[ ?\d+\] (.*)$/gm)) assert.match(m[1], /^The user wants/, m[1]);
});

test('sentience serve over HTTP: the demo store search', async () => {
  const r = await browse(['--server', agent.url, '--task', 'Search for "rake"']);
  assert.equal(r.code, 0, r.stderr);
  assert.ok(r.actions.some((a) => a.kind === 'type' && a.text === 'rake'), r.stderr);
  assert.match(r.actions.at(-1).at, /search\.html\?q=rake/, r.stderr);
  assertClickBeforeType(r.actions);
});

test('sentience serve over the WebSocket: the demo store login and search', async () => {
  const login = await browse(['--server', agent.url, '--ws', '--task', 'Log in as "alice" with password "s3cret"']);
  assert.equal(login.code, 0, login.stderr);
  assert.match(login.stderr, /via WebSocket ws:\/\/127\.0\.0\.1:\d+\/browse/);
  assert.match(login.actions.at(-1).at, /welcome\.html/, login.stderr);
  assertClickBeforeType(login.actions);
  const search = await browse(['--server', agent.url, '--ws', '--task', 'Search for "rake"']);
  assert.equal(search.code, 0, search.stderr);
  assert.match(search.actions.at(-1).at, /search\.html\?q=rake/, search.stderr);
});

test('key order on the raw bytes: reason is the first key of the answer, over HTTP', async () => {
  const res = await fetch(`${agent.url}/browse`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ endpoint: 'task', html: '<html><body><a href="/login">Log in</a></body></html>', action: 'Log in' }),
  });
  const text = await res.text();
  assert.equal(res.status, 200, text);
  assert.match(text, /^\{"reason":"/, text);
  assert.ok(res.headers.get('browse-session'), 'the task answer names the conversation');
});

test('goto before click: the search box is on another page, a tempting field is on this one', async () => {
  const r = await browse(['--server', agent.url, '--url', `${site.url}/browse/tempt-home.html`, '--task', 'Search the catalogue for "garden hose"']);
  assert.equal(r.code, 0, r.stderr);
  assert.ok(!r.actions.some((a) => a.kind === 'type' && a.target.includes('news')), `typed into the newsletter field: ${r.stderr}`);
  const typeAt = r.actions.findIndex((a) => a.kind === 'type' && a.text === 'garden hose');
  assert.ok(typeAt > 0, r.stderr);
  assert.match(r.actions[typeAt].at, /tempt-search\.html/, 'typed on the page that has the box');
  assert.ok(r.actions.slice(0, typeAt).some((a) => /tempt-search\.html/.test(a.at)), 'went to the search page first');
  assertClickBeforeType(r.actions);
});

test('click before type: a field that must be clicked to be revealed', { todo: KNOWN.coupon }, async () => {
  const r = await browse(['--server', agent.url, '--url', `${site.url}/browse/tempt-reveal.html`, '--task', 'Apply the coupon code "SPRING20"']);
  assert.equal(r.code, 0, r.stderr);
  const reveal = r.actions.findIndex((a) => a.kind === 'click' && a.target === '#add-coupon');
  const typeAt = r.actions.findIndex((a) => a.kind === 'type' && a.text === 'SPRING20');
  assert.ok(reveal >= 0 && typeAt > reveal, `revealed the field before typing: ${r.stderr}`);
  assertClickBeforeType(r.actions);
});
