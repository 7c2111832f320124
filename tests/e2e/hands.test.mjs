// clients/hands (the WebAssembly build of crates/hands) in Node against a
// real `sentience tools` driving headless Chromium with the extension:
// self-healing clicks, the retry's session restart, loop detection, and the
// vision providers (impersonated by local servers answering as Lux, Gemini
// and an OpenAI-compatible model do, one of them failing, one disagreeing).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { SENTIENCE } from '../lib/agent.mjs';
import { ROOT, PAGES } from '../lib/harness.mjs';
import { createHands, createLoopDetector } from '../../clients/hands/index.mjs';

let tools; // { url, proc, profile }
let site; // base URL of tests/pages/hands

function startTools() {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'hands-tools-'));
  const proc = spawn(SENTIENCE, ['tools', '--port', '0', '--profile-dir', profile], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  proc.stderr.on('data', (d) => (err += d));
  return new Promise((resolve, reject) => {
    let out = '';
    proc.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/http:\/\/[\d.]+:\d+/);
      if (m) resolve({ url: m[0], proc, profile });
    });
    proc.on('exit', (code) => reject(new Error(`sentience tools exited (${code}): ${err}`)));
  });
}

function serve(handler) {
  return new Promise((resolve) => {
    const server = http.createServer(handler);
    server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${server.address().port}` }));
  });
}

const readBody = (req) => new Promise((resolve) => {
  let b = '';
  req.on('data', (d) => (b += d));
  req.on('end', () => resolve(b ? JSON.parse(b) : null));
});

let pages;
before(async () => {
  tools = await startTools();
  pages = await serve((req, res) => {
    const file = path.join(PAGES, 'hands', path.basename(req.url.split('?')[0]));
    if (!fs.existsSync(file)) return res.writeHead(404).end();
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(fs.readFileSync(file));
  });
  site = `${pages.url}/buttons.html`;
});

after(() => {
  tools?.proc.kill('SIGTERM');
  pages?.server.close();
});

/** A tool-server call outside the package (to look, or to break things). */
async function call(method, p, body) {
  const res = await fetch(tools.url + p, {
    method,
    headers: body ? { 'Content-Type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  return res.json();
}

async function statusText(sessionId) {
  const t = await call('GET', `/browser/dom/tree?session_id=${sessionId}`);
  const m = t.tree.match(/"((?:idle|go clicked|opened)[^"]*)"/);
  return m ? m[1] : null;
}

async function handsOnFixture(env = {}) {
  const hands = await createHands({ toolsUrl: tools.url, startUrl: site, env });
  const started = await hands.startBrowser(site);
  assert.equal(started.success, true, JSON.stringify(started));
  return hands;
}

const stop = (hands) => call('POST', `/browser/stop?session_id=${hands.sessionId}`);

test('a click that misses a button by a few pixels heals to the element centre', async () => {
  const hands = await handsOnFixture();
  try {
    // #go spans x 200..280, y 200..230: x 195 is 5 px to its left.
    const r = await hands.executeWithSelfHealing({ x: 195, y: 215, coordinate_origin: 'viewport' });
    assert.equal(r.success, true, JSON.stringify(r));
    assert.equal(r.healed, true);
    assert.equal(r.healingMethod, 'dom_element_center');
    assert.deepEqual(r.details.viewport_coords, { x: 240, y: 215 });
    assert.equal(await statusText(hands.sessionId), 'go clicked 1');
  } finally {
    await stop(hands);
  }
});

test('a button that needs a double click heals by double click', async () => {
  const hands = await handsOnFixture();
  try {
    const r = await hands.executeWithSelfHealing({ x: 540, y: 215, coordinate_origin: 'viewport' });
    assert.equal(r.success, true, JSON.stringify(r));
    assert.equal(r.healingMethod, 'double_click');
    assert.match(await statusText(hands.sessionId), /^opened/);
  } finally {
    await stop(hands);
  }
});

test('a dead session is restarted by the retry', async () => {
  const hands = await handsOnFixture();
  const first = hands.sessionId;
  await call('POST', `/browser/stop?session_id=${first}`);
  try {
    const r = await hands.executeWithRetry({ type: 'scroll', params: { direction: 'down', amount: 50 } });
    assert.equal(r.success, true, JSON.stringify(r));
    assert.equal(r.sessionRestarted, true);
    assert.notEqual(hands.sessionId, first);
    // The new session starts where the old one was (options.startUrl).
    assert.equal(await statusText(hands.sessionId), 'idle');
  } finally {
    await stop(hands);
  }
});

test('a loop is detected on a page where a button does nothing', async () => {
  const hands = await handsOnFixture();
  const loops = await createLoopDetector();
  try {
    for (const x of [835, 842, 848]) {
      const before = (await call('GET', `/browser/dom/tree?session_id=${hands.sessionId}`)).tree;
      const r = await hands.executeWithRetry({ type: 'click', x, y: 215 });
      assert.equal(r.success, false);
      assert.match(r.error, /All healing attempts failed/);
      assert.equal(r.retryable, false);
      const after = (await call('GET', `/browser/dom/tree?session_id=${hands.sessionId}`)).tree;
      loops.addAction({ action: 'click', x, y: 215, pageBefore: before, pageAfter: after });
      assert.equal(r.details[0].error, 'the click changed nothing on the page');
    }
    assert.equal(loops.detectLoop(), true);
    const report = loops.detect();
    assert.equal(report.kind, 'repeated_click');
    assert.deepEqual(report.workarounds, ['double_click', 'scroll_into_view', 'check_iframe', 'different_selector']);
    assert.equal(await statusText(hands.sessionId), 'idle');
  } finally {
    await stop(hands);
  }
});

/** Fake vision providers answering a point in the 1260×700 image. */
async function visionServers() {
  const state = { lux: null, openai: null, gemini: null, seen: {} };
  const answer = (name, req, res, body) => {
    state.seen[name] = { url: req.url, headers: req.headers, body };
    const p = state[name];
    if (!p) return res.writeHead(503, { 'Content-Type': 'application/json' }).end(JSON.stringify({ error: { message: 'overloaded' } }));
    let out;
    if (name === 'lux') out = { x: p.x, y: p.y };
    if (name === 'openai') out = { choices: [{ message: { content: `{"x": ${p.x}, "y": ${p.y}}` } }] };
    if (name === 'gemini') out = { candidates: [{ content: { parts: [{ text: JSON.stringify({ point: [p.y / 700 * 1000, p.x / 1260 * 1000] }) }] } }] };
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(out));
  };
  const servers = {};
  for (const name of ['lux', 'openai', 'gemini']) {
    servers[name] = await serve(async (req, res) => answer(name, req, res, await readBody(req)));
  }
  return {
    state,
    env: {
      LUX_API_URL: `${servers.lux.url}/v1/act`,
      LUX_API_KEY: 'lux-key',
      VISION_API_URL: `${servers.openai.url}/v1`,
    },
    geminiUrl: `${servers.gemini.url}/v1beta`,
    close: () => Object.values(servers).forEach((s) => s.server.close()),
  };
}

/** #go's centre in the tool server's lux_sdk space. */
async function goInLux(hands) {
  const c = await call('POST', '/coordinates/convert', { x: 240, y: 215, from_space: 'viewport', to_space: 'lux_sdk', session_id: hands.sessionId });
  return { x: c.x, y: c.y };
}

test('vision providers: agreement within 30 px, conflict beyond, fallback on error', async () => {
  const v = await visionServers();
  const hands = await handsOnFixture(v.env);
  try {
    const go = await goInLux(hands);
    v.state.lux = go;
    v.state.openai = { x: go.x + 10, y: go.y + 10 };
    const agreed = await hands.getCoordinatesWithFallback('Click the "Go" button', { hasSmallText: true });
    assert.equal(agreed.outcome, 'agreed', JSON.stringify(agreed));
    assert.equal(agreed.confidence, 'high');
    assert.deepEqual(agreed.agreedBy, ['lux', 'gemini']);
    assert.equal(agreed.point.x, go.x);
    // What Lux was sent: the spec's {image, task}, the 1260×700 PNG, the key.
    const sent = v.state.seen.lux;
    assert.equal(sent.headers.authorization, 'Bearer lux-key');
    assert.equal(sent.body.task, 'Click the "Go" button');
    const png = Buffer.from(sent.body.image, 'base64');
    assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [1260, 700]);

    v.state.openai = { x: go.x + 200, y: go.y };
    const conflict = await hands.getCoordinatesWithFallback('Click the "Go" button', { hasComplexForm: true });
    assert.equal(conflict.outcome, 'conflict', JSON.stringify(conflict));
    assert.equal(conflict.needsAgentB, true);
    assert.equal(conflict.geminiResult.x, go.x + 200);

    v.state.lux = null; // Lux now answers 503
    v.state.openai = go;
    const fb = await hands.getCoordinatesWithFallback('Click the "Go" button', {}, 'excel');
    assert.equal(fb.outcome, 'single', JSON.stringify(fb));
    assert.equal(fb.point.provider, 'openai');
    assert.equal(fb.fallbackFrom.provider, 'lux');
    assert.match(fb.fallbackFrom.message, /503 overloaded/);
  } finally {
    await stop(hands);
    v.close();
  }
});

test('a Gemini point in lux_sdk space lands on the button through the whole action', async () => {
  const v = await visionServers();
  const hands = await handsOnFixture({ GEMINI_API_URL: v.geminiUrl, HANDS_GEMINI_PROVIDER: 'gemini' });
  try {
    v.state.gemini = await goInLux(hands);
    const r = await hands.executeWithRetry({ type: 'click', target: 'Click the "Go" button' });
    assert.equal(r.success, true, JSON.stringify(r));
    assert.equal(r.vision.point.provider, 'gemini');
    assert.equal(r.healed, undefined);
    assert.equal(await statusText(hands.sessionId), 'go clicked 1');
    assert.match(v.state.seen.gemini.url, /\/v1beta\/models\/[^/]+:generateContent$/);
  } finally {
    await stop(hands);
    v.close();
  }
});

test('sentience act completes the demo login offline with the dom provider (browser scope)', async () => {
  const env = { ...process.env };
  for (const k of ['LLM_API_KEY', 'LUX_API_URL', 'GEMINI_API_KEY', 'GEMINI_API_URL', 'VISION_API_URL', 'HANDS_LUX_PROVIDER', 'HANDS_GEMINI_PROVIDER', 'SENTIENCE_TOOLS_URL']) delete env[k];
  const proc = spawn(SENTIENCE, ['act', '--scope', 'browser', '--json', '--task', 'Log in as "alice" with password "s3cret"'], {
    cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  proc.stdout.on('data', (d) => (stdout += d));
  proc.stderr.on('data', (d) => (stderr += d));
  const code = await new Promise((resolve) => proc.on('exit', resolve));
  assert.equal(code, 0, stderr);
  assert.match(stdout, /✓ completed: .*Welcome, alice/);
  const summary = JSON.parse(stdout.trim().split('\n').at(-1));
  assert.equal(summary.success, true);
  assert.equal(summary.failedActions, 0);
  // Each step says what, where and which provider.
  assert.match(stderr, /type "alice" → textbox "Username" at \(\d+, \d+\) viewport via dom ✓/);
  assert.match(stderr, /click button "Log in" at \(\d+, \d+\) viewport via dom ✓/);
});

test('the package exposes the pure rules with the spec names and values', async () => {
  const m = await import('../../clients/hands/index.mjs');
  await m.load();
  assert.deepEqual(m.detectBrowserBehavior('Apri una NUOVA scheda con Gmail'), { newTab: true, closeCurrent: false });
  assert.deepEqual(m.detectBrowserBehavior('Restart browser, then continue on this page'), { newTab: false, closeCurrent: false });
  assert.deepEqual(m.detectBrowserBehavior('Ricominciá da zero'), { newTab: false, closeCurrent: true });
  assert.deepEqual(m.categorizeAction({ type: 'go_back' }), { type: 'deterministic', endpoint: '/browser/back', needsVision: false });
  assert.equal(m.categorizeAction('click').needsVision, true);
  assert.equal(m.chooseVisionProvider({}, { scope: 'desktop' }), 'lux');
  assert.equal(m.chooseVisionProvider({ hasSmallText: true }, { scope: 'browser' }), 'both');
  assert.equal(m.chooseVisionProvider({}, { scope: 'browser' }), 'gemini');
  const cfg = m.defaultConfig();
  assert.deepEqual([cfg.loopHistory, cfg.loopRepeat, cfg.loopClickRadiusPx, cfg.agreementPx, cfg.maxAttempts, cfg.backoffStepMs], [10, 3, 50, 30, 3, 500]);
  const loops = await m.createLoopDetector();
  loops.addAction({ action: 'click', x: 100, y: 100 });
  loops.addAction({ action: 'click', x: 149, y: 100 });
  assert.equal(loops.detectLoop(), false);
  loops.addAction({ action: 'click', x: 120, y: 100 });
  assert.equal(loops.detectLoop(), true);
  loops.clear();
  for (const x of [100, 151, 120]) loops.addAction({ type: 'click', x, y: 100 });
  assert.equal(loops.detectLoop(), false);
  await assert.rejects(m.createHands({ toolsUrl: '' }), /toolsUrl is required/);
  assert.throws(() => loops.addAction({ action: 'click', x: 'left' }), /action/);
});
