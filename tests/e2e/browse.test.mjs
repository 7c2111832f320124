// The HTML browse protocol end to end (docs/browse.md): the real
// `sentience browse` binary drives real Chromium and talks to the real
// server (in-process, or `sentience serve` on port 0) over HTTP and over the
// WebSocket, with the built-in policy, on the demo store and on pages built
// to tempt a server into typing before clicking or acting on a page the
// client is not on (tests/pages/browse/tempt-*.html).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { SENTIENCE, startAgentServer, startLlmServer } from '../lib/agent.mjs';
import path from 'node:path';
import { ROOT, startServer } from '../lib/harness.mjs';

let site;
let demoSite;
let agent;
before(async () => {
  site = await startServer();
  demoSite = await startServer(path.join(ROOT, 'demo'));
  agent = await startAgentServer({ args: ['--in-memory'] });
});
after(async () => {
  await agent.kill();
  await site.close();
  await demoSite.close();
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

/** docs/contracts/browse.md "You need to click a selector before typing into it". */
export function assertClickBeforeType(actions) {
  actions.forEach((a, i) => {
    if (a.kind !== 'type') return;
    const before = actions.slice(0, i);
    const lastNav = before.map((b) => b.kind === 'goto' || b.at !== a.at).lastIndexOf(true);
    const clicked = before.slice(lastNav + 1).some((b) => b.kind === 'click' && b.target === a.target);
    assert.ok(clicked, `type into ${a.target} without clicking it first on this page: ${JSON.stringify(actions)}`);
  });
}

test('in-process server: the demo store login with the built-in policy (HTTP)', async () => {
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

test('click before type: a field that must be clicked to be revealed', async () => {
  const r = await browse(['--server', agent.url, '--url', `${site.url}/browse/tempt-reveal.html`, '--task', 'Apply the coupon code "SPRING20"']);
  assert.equal(r.code, 0, r.stderr);
  const reveal = r.actions.findIndex((a) => a.kind === 'click' && a.target === '#add-coupon');
  const typeAt = r.actions.findIndex((a) => a.kind === 'type' && a.text === 'SPRING20');
  assert.ok(reveal >= 0 && typeAt > reveal, `revealed the field before typing: ${r.stderr}`);
  assertClickBeforeType(r.actions);
});

// ---------------------------------------------------------------- LLM policy
// The model is the only fake: a local OpenAI-compatible endpoint whose
// answers are scripted from what the server shows it (the listing's ids).
const completion = (content) => ({ status: 200, body: { id: 'chatcmpl-1', object: 'chat.completion', model: 'scripted', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] } });
const lastUser = (req) => [...req.messages].reverse().find((m) => m.role === 'user').content;
const idOf = (prompt, re) => {
  for (const m of prompt.matchAll(/^\[(\d+)\] (.*)$/gm)) if (re.test(m[2])) return Number(m[1]);
  throw new Error(`no element ${re} in the listing:\n${prompt}`);
};
const spec = (what) => `The user wants to log in as alice, our state is currently the log-in form, so we need to ${what} so that we can log in in the future.`;

/** The login, decided from the prompt: what was typed so far, and the page. */
function loginAnswer(req) {
  const first = req.messages.find((m) => m.role === 'user').content;
  if (/Welcome, alice/.test(first)) return JSON.stringify({ reason: 'The user wants to log in as alice, our state is the welcome page saying "Welcome, alice!", so we need to do nothing more and are finished.', action: 'finish' });
  if (!/typed "alice"/.test(first)) return JSON.stringify({ reason: spec('type the user name'), action: 'type', id: idOf(first, /Username/), text: 'alice' });
  if (!/typed "s3cret"/.test(first)) return JSON.stringify({ reason: spec('type the password'), action: 'type', id: idOf(first, /Password/), text: 's3cret' });
  return JSON.stringify({ reason: spec('press the log-in button'), action: 'click', id: idOf(first, /button "Log in"/) });
}

test('LLM policy: ids become selectors, a missing element and malformed JSON are corrected, and the login succeeds', async () => {
  const faults = { 0: () => JSON.stringify({ reason: spec('type the user name'), action: 'type', id: 999, text: 'alice' }), 3: () => 'Sure! {"reason": "The user wants to log in", "action": "click", "id": ' };
  let answered = 0;
  const llm = await startLlmServer((req) => {
    const correction = /Your last reply was unusable/.test(lastUser(req));
    const fault = !correction && faults[answered];
    answered++;
    return completion(fault ? fault() : loginAnswer(req));
  });
  try {
    const r = await browse(['--url', `${demoSite.url}/login.html`, '--task', 'Log in as "alice" with password "s3cret"'], {
      env: { LLM_API_KEY: 'test-key', LLM_BASE_URL: llm.url, LLM_MODEL: 'scripted', LLM_MAX_RETRIES: '0' },
    });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /✓ finished: The user wants to log in as alice, our state is the welcome page saying "Welcome, alice!"/, 'the model\'s own reason, in the spec\'s form, is passed on');
    const corrections = llm.calls.map(lastUser).filter((u) => /Your last reply was unusable/.test(u));
    assert.equal(corrections.length, 2, llm.calls.map(lastUser).join('\n---\n'));
    assert.match(corrections[0], /element \[999\] is not in the listing/);
    assert.match(corrections[1], /not a JSON object/);
    // The page is data, fenced as untrusted, and the model is told so.
    assert.match(llm.calls[0].messages[1].content, /<untrusted-page>/);
    assert.deepEqual(r.actions.filter((a) => a.kind === 'type').map((a) => [a.text, a.target]), [['alice', '#username'], ['s3cret', '#password']]);
    assertClickBeforeType(r.actions);
    assert.match(r.actions.at(-1).at, /welcome\.html/);
  } finally {
    await llm.close();
  }
});

test('LLM policy: a model that never answers usably ends the conversation with a clear reason', async () => {
  const llm = await startLlmServer(() => completion('I cannot help with that.'));
  try {
    const r = await browse(['--url', `${site.url}/browse/tempt-search.html`, '--task', 'Search the catalogue for "rake"'], {
      env: { LLM_API_KEY: 'test-key', LLM_BASE_URL: llm.url, LLM_MODEL: 'scripted', LLM_MAX_RETRIES: '0' },
    });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /✓ finished: .*unusable twice in a row .*not a JSON object/);
    assert.equal(r.actions.length, 0);
    assert.equal(llm.calls.length, 2);
  } finally {
    await llm.close();
  }
});

test('a server started with --api-key: refused without the key (clearly), served with --server-key over HTTP and the WebSocket', async () => {
  const keyed = await startAgentServer({ args: ['--in-memory', '--api-key', 'k-123'] });
  try {
    const url = `${site.url}/browse/tempt-search.html`;
    const task = 'Search the catalogue for "rake"';
    const without = await browse(['--server', keyed.url, '--url', url, '--task', task]);
    assert.notEqual(without.code, 0);
    assert.match(without.stderr, /the server refused: HTTP 401: Unauthorized: Missing or invalid API key/);
    const http = await browse(['--server', keyed.url, '--server-key', 'k-123', '--url', url, '--task', task]);
    assert.equal(http.code, 0, http.stderr);
    assert.ok(http.actions.some((a) => a.kind === 'type' && a.text === 'rake'), http.stderr);
    const ws = await browse(['--server', keyed.url, '--ws', '--url', url, '--task', task], { env: { SENTIENCE_API_KEY: 'k-123' } });
    assert.equal(ws.code, 0, ws.stderr);
  } finally {
    await keyed.kill();
  }
});
