// The `sentience` binary as people run it: `snapshot` prints the contract
// JSON of the bundled demo page; `run` drives a whole agent run (Chromium +
// the extension + the in-process agent server) and answers questions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import http from 'node:http';
import { SENTIENCE, startAgentServer } from '../lib/agent.mjs';
import { assertSchema } from '../lib/expect.mjs';
import { startServer } from '../lib/harness.mjs';

function sentience(args, { timeoutMs = 120000 } = {}) {
  return new Promise((resolve, reject) => {
    const env = { ...process.env };
    delete env.LLM_API_KEY;
    const proc = spawn(SENTIENCE, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    proc.stdout.on('data', (d) => (stdout += d));
    proc.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`sentience ${args.join(' ')} timed out\n${stderr}`));
    }, timeoutMs);
    proc.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

test('sentience snapshot prints the demo page snapshot as contract JSON', async () => {
  const { code, stdout, stderr } = await sentience(['snapshot', '--limit', '5']);
  assert.equal(code, 0, stderr);
  const snap = JSON.parse(stdout);
  assertSchema(snap);
  assert.equal(snap.status, 'success');
  assert.equal(snap.elements.length, 5);
  assert.equal(Object.keys(snap)[0], 'status', 'contract field order');
  assert.ok(snap.elements.some((e) => e.role === 'searchbox' && e.text === 'Search products'));
});

test('sentience snapshot is trusted with the page it was asked for: frames of other origins and a screenshot', async () => {
  const one = await startServer();
  const two = await startServer();
  try {
    const url = `${one.url}/origins/shop.html?p=${encodeURIComponent(`http://localhost:${two.port}`)}`;
    const { code, stdout, stderr } = await sentience(['snapshot', url, '--options', JSON.stringify({ screenshot: { format: 'jpeg', quality: 40 }, frames: { timeout_ms: 5000 } })]);
    assert.equal(code, 0, stderr);
    const snap = JSON.parse(stdout);
    assert.match(snap.screenshot, /^data:image\/jpeg;base64,/);
    assert.ok(snap.elements.some((e) => e.text === 'Confirm payment'), snap.elements.map((e) => e.text).join(' | '));
  } finally {
    await one.close();
    await two.close();
  }
});

test('sentience snapshot with bad options exits non-zero with the error', async () => {
  const { code, stdout } = await sentience(['snapshot', '--options', '{"limt": 3}']);
  assert.notEqual(code, 0);
  assert.match(JSON.parse(stdout).error, /unknown field `limt`/);
});

test('sentience snapshot --query keeps the matching elements; --format prints the LLM listing', async () => {
  const q = await sentience(['snapshot', '--query', "role=searchbox text~'search'"]);
  assert.equal(q.code, 0, q.stderr);
  const matches = JSON.parse(q.stdout);
  assert.equal(matches.length, 1);
  assert.equal(matches[0].text, 'Search products');
  const f = await sentience(['snapshot', '--format', '--max-tokens', '60']);
  assert.equal(f.code, 0, f.stderr);
  const lines = f.stdout.trimEnd().split('\n');
  assert.match(lines[0], /^\d+ searchbox "Search products" @\d+,\d+$/);
  assert.match(lines.at(-1), /^… \d+ more elements/);
  const both = await sentience(['snapshot', '--format', '--query', 'role=link']);
  assert.equal(both.code, 0, both.stderr);
  for (const line of both.stdout.trimEnd().split('\n')) assert.match(line, /^\d+ link /);
});

test('sentience snapshot with a bad --query fails with the position', async () => {
  const { code, stderr } = await sentience(['snapshot', '--query', 'role button']);
  assert.notEqual(code, 0);
  assert.match(stderr, /invalid --query: expected an operator .* after 'role', found 'button' at column 6/);
});

test('sentience run logs in on the demo store with the built-in scorer', async () => {
  const { code, stdout, stderr } = await sentience(['run', '--task', 'Log in as "alice" with password "s3cret"']);
  assert.equal(code, 0, stderr);
  assert.match(stderr, /type "Username" ← "alice" ✓/);
  assert.match(stdout, /✓ completed: .*Welcome, alice/);
  // Printed from the server's run stream, not from the fallback.
  assert.doesNotMatch(stderr, /stream is unavailable/);
});

test('sentience run follows the extension\'s record when the server offers no run stream', async () => {
  // A proxy in front of a real `sentience serve` that passes HTTP but not
  // WebSockets (as an older server, or a proxy without upgrades, answers).
  const agent = await startAgentServer();
  const target = new URL(agent.url);
  const proxy = http.createServer((req, res) => {
    const up = http.request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: { ...req.headers, host: target.host } }, (r) => {
      res.writeHead(r.statusCode, r.headers);
      r.pipe(res);
    });
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  proxy.on('upgrade', (req, socket) => socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n'));
  await new Promise((r) => proxy.listen(0, '127.0.0.1', r));
  try {
    const server = `http://127.0.0.1:${proxy.address().port}`;
    const { code, stdout, stderr } = await sentience(['run', '--server', server, '--task', 'Log in as "alice" with password "s3cret"']);
    assert.equal(code, 0, stderr);
    assert.match(stderr, /the run's stream is unavailable: the server answered 404 Not Found; following the extension's record instead/);
    assert.match(stderr, /type "Username" ← "alice" ✓/);
    assert.match(stdout, /✓ completed: .*Welcome, alice/);
  } finally {
    proxy.close();
    await agent.kill();
  }
});

test('sentience run in careful mode asks before paying; --yes approves, no terminal refuses', async () => {
  const task = 'Go to checkout and pay with card "4242 4242 4242 4242"';
  const yes = await sentience(['run', '--mode', 'careful', '--yes', '--task', task]);
  assert.equal(yes.code, 0, yes.stderr);
  assert.match(yes.stderr, /Security check: .* → yes \(--yes\)/);
  assert.match(yes.stdout, /✓ completed: .*Thank you/);
  const no = await sentience(['run', '--mode', 'careful', '--task', task]);
  assert.notEqual(no.code, 0);
  assert.match(no.stderr, /→ refused \(no terminal to ask; pass --yes to approve\)/);
  assert.match(no.stderr, /the run was cancelled/);
});
