// `sentience browse --server URL` as a test client of other docs/contracts/browse.md
// implementations (docs/browse.md "Using it to test a server"): against a
// scripted browse server that sends exactly the bytes each test chooses
// (conforming or not), the real binary drives real Chromium on
// tests/pages/browse/form.html, whose own scripts log every event the
// client causes into the page; the HTML the client sends next is how the
// test sees what it did. The real server is tested in browse.test.mjs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { SENTIENCE } from '../lib/agent.mjs';
import { startServer } from '../lib/harness.mjs';

let site;
before(async () => { site = await startServer(); });
after(async () => { await site.close(); });

/**
 * A browse server that answers the n-th request with `script[n]`: a raw
 * JSON string (sent byte for byte), or {status, body, headers}. Records
 * every request (parsed body + headers).
 */
function scriptedBrowseServer(script, { session = 'conv-1' } = {}) {
  const requests = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      const n = requests.length;
      requests.push({ path: req.url, headers: req.headers, body: JSON.parse(body) });
      const step = script[Math.min(n, script.length - 1)];
      const s = typeof step === 'string' ? { body: step } : step;
      const headers = { 'content-type': 'application/json', ...(session ? { 'browse-session': session } : {}), ...(s.headers || {}) };
      res.writeHead(s.status || 200, headers).end(s.body);
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({
    url: `http://127.0.0.1:${server.address().port}`, requests, close: () => new Promise((r) => server.close(r)),
  })));
}

function browse(args, { timeoutMs = 90000 } = {}) {
  return new Promise((resolve, reject) => {
    const env = { ...process.env };
    delete env.LLM_API_KEY;
    const proc = spawn(SENTIENCE, ['browse', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    proc.stdout.on('data', (d) => (stdout += d));
    proc.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => { proc.kill('SIGKILL'); reject(new Error(`sentience browse timed out\n${stderr}`)); }, timeoutMs);
    proc.on('exit', (code) => { clearTimeout(timer); resolve({ code, stdout, stderr }); });
  });
}

const answer = (o) => JSON.stringify(o);
const reason = 'The user wants to sign the guest book, our state is the form page, so we act on it so that the name gets in.';
const finish = answer({ reason: 'The user wanted the guest book signed, and the thanks page shows it is, so we are finished.', endpoint: 'finish' });
const logOf = (html) => [...html.matchAll(/<li>([^<]*)<\/li>/g)].map((m) => m[1]);

test('a conforming conversation: task, then state after each action; trusted mouse clicks, typed text, values sent back', async () => {
  const srv = await scriptedBrowseServer([
    answer({ reason, endpoint: 'click', selector: '#reveal' }),
    answer({ reason, endpoint: 'click', selector: '#name' }),
    answer({ reason, endpoint: 'type', selector: '#name', text: 'Ada "the first" Lovelace' }),
    answer({ reason, endpoint: 'type', selector: 'textarea', text: 'line one\nline two' }),
    answer({ reason, endpoint: 'type', selector: '#pw', text: 's3cret' }),
    answer({ reason, endpoint: 'click', selector: '#agree' }),
    answer({ reason, endpoint: 'type', selector: '#colour', text: 'light BLUE' }),
    answer({ reason, endpoint: 'click', selector: '#bottom' }),
    answer({ reason, endpoint: 'click', selector: '#next' }),
    finish,
  ]);
  try {
    const task = 'Sign the guest book as Ada';
    const r = await browse(['--server', srv.url, '--url', `${site.url}/browse/form.html`, '--task', task]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /✓ finished: The user wanted the guest book signed/);
    const q = srv.requests;
    assert.equal(q.length, 10);
    assert.deepEqual(Object.keys(q[0].body), ['endpoint', 'html', 'action', 'url', 'accepts'], 'task request shape (and our url and accepts)');
    assert.deepEqual(q[0].body.accepts, ['press', 'wait'], 'the answers beyond the four this client carries out');
    assert.equal(q[0].body.url, `${site.url}/browse/form.html`);
    assert.equal(q[0].body.endpoint, 'task');
    assert.equal(q[0].body.action, task);
    assert.equal(q[0].headers['browse-session'], undefined, 'no session before the server names one');
    assert.match(q[0].body.html, /^<html lang="en"><head>/);
    for (const later of q.slice(1)) {
      assert.deepEqual(Object.keys(later.body), ['endpoint', 'html', 'url']);
      assert.equal(later.body.endpoint, 'state');
      assert.equal(later.headers['browse-session'], 'conv-1', 'the session header is sent back');
      assert.equal(later.path, '/browse');
    }
    // After the first click: a real (trusted) mouse press and click on the button.
    assert.deepEqual(logOf(q[1].body.html).filter((l) => !l.startsWith('focus')).slice(0, 2), ['mousedown #reveal trusted', 'click #reveal trusted']);
    assert.doesNotMatch(q[1].body.html, /id="box" hidden/, 'the click revealed the box');
    // Typing: trusted input events on the field, then change; the value is in the HTML sent.
    const afterType = logOf(q[3].body.html);
    assert.ok(afterType.includes('input #name trusted'), afterType.join(' | '));
    assert.ok(afterType.includes('change #name untrusted'), afterType.join(' | '));
    assert.match(q[3].body.html, /<input id="name" name="name" value="Ada &quot;the first&quot; Lovelace">/);
    assert.match(q[4].body.html, /<textarea id="note">line one\nline two<\/textarea>/);
    assert.match(q[5].body.html, /<input id="pw" type="password">/, 'a password is not sent back');
    assert.match(q[6].body.html, /<input id="agree" type="checkbox" checked="">/);
    // Typing into a list picks the option by its text, as typing on a focused list does.
    assert.match(q[7].body.html, /<option>Red<\/option><option value="b" selected="">Light blue<\/option>/);
    assert.ok(logOf(q[7].body.html).includes('change #colour untrusted'));
    // A button 2000 px down is scrolled into view and clicked with the mouse.
    assert.ok(logOf(q[8].body.html).includes('click #bottom trusted'));
    // The link navigated: the next state is the new page.
    assert.match(q[9].body.html, /Thanks for signing/);
    assert.equal(q[9].body.url, `${site.url}/browse/done.html`);
    assert.match(r.stderr, /\[ 1\] The user wants to sign the guest book/);
    assert.match(r.stderr, /→ click #reveal \(mouse at \(\d+, \d+\)\) ✓/);
    assert.match(r.stderr, /→ type "Ada \\"the first\\" Lovelace" into #name ✓/);
  } finally {
    await srv.close();
  }
});

test('what the page\'s stylesheets hide is sent marked hidden (outermost element only); what they show again is not', async () => {
  const srv = await scriptedBrowseServer([answer({ reason, endpoint: 'click', selector: '#next' }), finish]);
  try {
    const r = await browse(['--server', srv.url, '--url', `${site.url}/browse/css-hidden.html`, '--task', 'Sign in']);
    assert.equal(r.code, 0, r.stderr);
    const [first, second] = srv.requests.map((q) => q.body.html);
    assert.match(first, /<div id="step2" class="hidden" hidden="">/, 'the second step is hidden by the sheet');
    assert.match(first, /<input id="pw" type="password">/, 'only the outermost hidden element is marked');
    assert.match(first, /<div id="menu" class="menu" hidden="">/);
    assert.match(first, /<div id="step1">/, 'what is shown is not marked');
    assert.match(first, /<option selected="">Small<\/option><option>Large<\/option>/, 'options have no box and are never marked');
    assert.match(first, /<p id="note" hidden="">/, 'an element hidden already keeps its attribute as it was');
    assert.match(second, /<div id="step1" class="hidden" hidden="">/);
    assert.match(second, /<div id="step2" class="">/, 'the click showed the second step');
  } finally {
    await srv.close();
  }
});

test('a covered element is clicked with element.click(), and said so; --no-url sends only the spec\'s keys', async () => {
  const srv = await scriptedBrowseServer([answer({ reason, endpoint: 'click', selector: '#covered' }), finish]);
  try {
    const r = await browse(['--server', srv.url, '--url', `${site.url}/browse/form.html`, '--task', 'press the veiled button', '--no-url']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(Object.keys(srv.requests[0].body), ['endpoint', 'html', 'action']);
    assert.deepEqual(Object.keys(srv.requests[1].body), ['endpoint', 'html']);
    assert.ok(logOf(srv.requests[1].body.html).includes('click #covered untrusted'));
    assert.match(r.stderr, /element\.click\(\): covered, hidden or out of view/);
  } finally {
    await srv.close();
  }
});

test('a page that overrides querySelectorAll, outerHTML and click cannot mislead the client', async () => {
  const srv = await scriptedBrowseServer([answer({ reason, endpoint: 'click', selector: '#go' }), finish]);
  try {
    const r = await browse(['--server', srv.url, '--url', `${site.url}/browse/tamper.html`, '--task', 'press Go']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(srv.requests[0].body.html, /<h1 id="title">Real page<\/h1>/);
    assert.doesNotMatch(srv.requests[0].body.html, /^<html><body>forged page/);
    assert.match(srv.requests[1].body.html, /<h1 id="title">Clicked for real<\/h1>/);
  } finally {
    await srv.close();
  }
});

test('goto follows a relative URL against the current page; a javascript: URL is refused', async () => {
  const srv = await scriptedBrowseServer([answer({ reason, endpoint: 'goto', url: 'done.html' }), answer({ reason, endpoint: 'goto', url: 'javascript:alert(1)' })]);
  try {
    const r = await browse(['--server', srv.url, '--url', `${site.url}/browse/form.html`, '--task', 'go on']);
    assert.notEqual(r.code, 0);
    assert.match(srv.requests[1].body.html, /Thanks for signing/);
    assert.match(r.stderr, /refusing to go to javascript:alert\(1\): only http, https and file URLs are followed/);
  } finally {
    await srv.close();
  }
});

test('protocol violations are reported as such: reason not first, no session header, unknown endpoint, not JSON', async () => {
  const cases = [
    [[JSON.stringify({ endpoint: 'finish', reason: 'done' })], {}, /protocol violation: `reason` must be the first key of every answer, but `endpoint` comes first/],
    [[finish], { session: null }, /protocol violation: the answer to `task` has no Browse-Session header/],
    [[answer({ reason, endpoint: 'scroll', direction: 'down' })], {}, /protocol violation: unknown endpoint `scroll`/],
    [['{"reason": "cut off'], {}, /protocol violation: the answer is not JSON/],
    [[answer({ reason, endpoint: 'type', selector: '#name' })], {}, /protocol violation: the `type` answer has no `text`/],
  ];
  for (const [script, opts, expected] of cases) {
    const srv = await scriptedBrowseServer(script, opts);
    try {
      const r = await browse(['--server', srv.url, '--url', `${site.url}/browse/done.html`, '--task', 'anything']);
      assert.notEqual(r.code, 0, script[0]);
      assert.match(r.stderr, expected);
    } finally {
      await srv.close();
    }
  }
});

test('extra keys are tolerated and shown; server errors are shown with their message', async () => {
  const srv = await scriptedBrowseServer([
    answer({ reason, endpoint: 'click', selector: '#reveal', confidence: 0.9 }),
    { status: 404, body: answer({ error: 'Not found', message: 'No browse conversation conv-1 (expired?)' }) },
  ]);
  try {
    const r = await browse(['--server', srv.url, '--url', `${site.url}/browse/form.html`, '--task', 'anything']);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /keys docs\/contracts\/browse\.md does not define: confidence; ignored/);
    assert.match(r.stderr, /the server refused: HTTP 404: Not found: No browse conversation conv-1 \(expired\?\)/);
  } finally {
    await srv.close();
  }
});

test('a selector matching nothing, several elements, or invalid CSS stops the run with a clear message', async () => {
  const cases = [
    ['#nope', /the selector #nope matches no element on the page/],
    ['.dup', /the selector \.dup matches 3 elements on the page; a selector must name exactly one/],
    ['button[', /the selector button\[ is not valid CSS/],
  ];
  for (const [selector, expected] of cases) {
    const srv = await scriptedBrowseServer([answer({ reason, endpoint: 'click', selector })]);
    try {
      const r = await browse(['--server', srv.url, '--url', `${site.url}/browse/form.html`, '--task', 'anything']);
      assert.notEqual(r.code, 0);
      assert.match(r.stderr, expected);
      assert.equal(srv.requests.length, 1, 'nothing is sent after a failed action');
    } finally {
      await srv.close();
    }
  }
});

test('typing into something that is not a field is refused; a list without that option says which it has', async () => {
  const list = await scriptedBrowseServer([answer({ reason, endpoint: 'type', selector: '#colour', text: 'green' })]);
  try {
    const r = await browse(['--server', list.url, '--url', `${site.url}/browse/form.html`, '--task', 'anything']);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /the list #colour has no option "green" \(its options: \["Red","Light blue"\]\)/);
  } finally {
    await list.close();
  }
  const srv = await scriptedBrowseServer([answer({ reason, endpoint: 'type', selector: '#reveal', text: 'x' })]);
  try {
    const r = await browse(['--server', srv.url, '--url', `${site.url}/browse/form.html`, '--task', 'anything']);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /cannot type into #reveal: it is not a text field, list or editable element \(button\[type=button\]\)/);
  } finally {
    await srv.close();
  }
});

test('--max-steps stops a server that never finishes, non-zero, with the next action named', async () => {
  const srv = await scriptedBrowseServer([answer({ reason, endpoint: 'click', selector: '#reveal' })]);
  try {
    const r = await browse(['--server', srv.url, '--url', `${site.url}/browse/form.html`, '--task', 'anything', '--max-steps', '2']);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /gave up after 2 actions without `finish` \(raise --max-steps\); the server's next action was: click #reveal/);
    assert.equal(srv.requests.length, 3);
  } finally {
    await srv.close();
  }
});

/** The PIDs whose parent is `pid` (Linux /proc). */
function childrenOf(pid) {
  const out = [];
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
      // "pid (comm) state ppid …": comm may hold spaces, so split after its ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) out.push(Number(d));
    } catch { /* gone meanwhile */ }
  }
  return out;
}

/** A process that no longer runs: gone, or a zombie waiting to be reaped. */
function ended(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return true;
  }
}

test('stopped with SIGTERM while it waits for the server, it closes the Chromium it launched', async () => {
  let arrived;
  const first = new Promise((r) => (arrived = r));
  const server = http.createServer(() => arrived()); // never answers
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const env = { ...process.env };
  delete env.LLM_API_KEY;
  const url = `http://127.0.0.1:${server.address().port}`;
  const proc = spawn(SENTIENCE, ['browse', '--server', url, '--url', `${site.url}/browse/form.html`, '--task', 'Sign the guest book'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  proc.stderr.on('data', (d) => (stderr += d));
  try {
    await first; // the page was read: Chromium is up
    const browsers = childrenOf(proc.pid).filter((p) => {
      try { return fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').includes('chrom'); } catch { return false; }
    });
    assert.ok(browsers.length > 0, `no Chromium child of sentience browse\n${stderr}`);
    const exited = new Promise((r) => proc.once('exit', (code, signal) => r({ code, signal })));
    proc.kill('SIGTERM');
    const { code, signal } = await exited;
    assert.equal(signal, null, 'the CLI handles SIGTERM rather than dying of it');
    assert.notEqual(code, 0);
    const deadline = Date.now() + 5000;
    while (!browsers.every(ended) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(browsers.filter((p) => !ended(p)), [], 'Chromium still runs after its CLI was stopped');
  } finally {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
});
