// The tool server's sessions are trusted callers (docs/api.md "Who may see
// and do what"): `GET /browser/snapshot` and `POST /browser/act` see and act
// in frames of other origins, which the page's own scripts may not.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { SENTIENCE } from '../lib/agent.mjs';
import { ROOT, startServer } from '../lib/harness.mjs';

const env = { tools: null, one: null, two: null, profile: null };

before(async () => {
  env.one = await startServer();
  env.two = await startServer();
  env.profile = fs.mkdtempSync(path.join(os.tmpdir(), 'tools-scope-'));
  const proc = spawn(SENTIENCE, ['tools', '--port', '0', '--profile-dir', env.profile], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  proc.stderr.on('data', (d) => (err += d));
  env.tools = await new Promise((resolve, reject) => {
    let out = '';
    proc.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/http:\/\/[\d.]+:\d+/);
      if (m) resolve({ url: m[0], proc });
    });
    proc.on('exit', (code) => reject(new Error(`sentience tools exited (${code}): ${err}`)));
  });
});
after(async () => {
  if (env.tools) {
    await fetch(`${env.tools.url}/browser/stop`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }).catch(() => {});
    env.tools.proc.kill('SIGKILL');
  }
  await env.one?.close();
  await env.two?.close();
  fs.rmSync(env.profile, { recursive: true, force: true });
});

const call = async (method, route, body) => {
  const res = await fetch(`${env.tools.url}${route}`, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  return res.json();
};

async function snapshotWith(text) {
  const until = Date.now() + 15000;
  for (;;) {
    const got = await call('GET', '/browser/snapshot');
    const found = got.success && got.snapshot.elements.find((e) => e.text === text);
    if (found) return { snap: got.snapshot, found };
    if (Date.now() > until) throw new Error(`no "${text}" in ${JSON.stringify(got).slice(0, 2000)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

test("a tool-server session snapshots and acts inside a cross-origin frame", async () => {
  const start = `${env.one.url}/origins/shop.html?p=${encodeURIComponent(`http://localhost:${env.two.port}`)}`;
  const started = await call('POST', '/browser/start', { start_url: start, headless: true });
  assert.equal(started.success, true, JSON.stringify(started));
  const { found } = await snapshotWith('Confirm payment');
  const acted = await call('POST', '/browser/act', { element_id: found.id, action: 'click' });
  assert.equal(acted.success, true, JSON.stringify(acted));
  // The click landed in the frame (its button now says so).
  await snapshotWith('Payment confirmed');
  const text = await call('GET', '/browser/snapshot?format=text');
  assert.equal(text.success, true, JSON.stringify(text));
  assert.match(text.text, /Payment confirmed/);
});
