// Tool server benchmark (docs/tools.md "Benchmark"): latency p50/p95 of
// `sentience tools` over HTTP against the spec's own stack doing the same
// work directly, in one run, on the same page and display:
//   browser: POST /screenshot (original, lux), /click, /type (40 chars),
//            /keypress  vs  Playwright page.screenshot, mouse.click,
//            keyboard.type, keyboard.press (headless Chromium, same page);
//   desktop: /screenshot desktop+lux, /click, /type, /keypress  vs
//            PIL/pyautogui (ImageGrab + resize + PNG, click, write, hotkey)
//            on an Xvfb 1920x1080 display this script starts.
// Usage: node tests/bench/tools-bench.mjs [--runs 30] [--smoke] [--client agent|socket|fetch]
// --client: how our HTTP calls are made (docs/tools.md "Benchmark"):
//   agent  (default) node:http with a keep-alive Agent: one connection,
//          reused, as an operator's app keeps its connection to the server;
//   socket a persistent socket writing HTTP/1.1 requests itself (the
//          least client overhead node allows);
//   fetch  Node's fetch (undici), the contract's own client code.
// Whatever the choice, the HTTP hop alone (GET /) and the desktop click are
// also measured with all three clients, alternately, in a table of their own.
// Needs: target/release/sentience (pkg-scripts/build.sh), Xvfb, and for the
// desktop comparison a venv at .bench/tools-venv with pyautogui + pillow
// (bash pkg-scripts/bench.sh tools makes it once, pinned).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import readline from 'node:readline';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const args = process.argv.slice(2);
const SMOKE = args.includes('--smoke');
const RUNS = SMOKE ? 3 : Number(args[args.indexOf('--runs') + 1] || 30) || 30;
const CLIENTS = ['agent', 'socket', 'fetch'];
const CLIENT = args.includes('--client') ? args[args.indexOf('--client') + 1] : 'agent';
if (!CLIENTS.includes(CLIENT)) throw new Error(`--client takes one of ${CLIENTS.join(', ')}`);
const TEXT = 'The quick brown fox jumps over the lazy d'; // 41 → sliced to 40
const TEXT40 = TEXT.slice(0, 40);

const PAGE = `<!doctype html><title>bench</title><style>body{margin:0;font:16px sans-serif}
#t{position:absolute;left:100px;top:100px;width:600px;height:300px}</style>
<textarea id=t></textarea><p style="position:absolute;top:450px">${'Lorem ipsum dolor sit amet. '.repeat(200)}</p>`;

function pageServer() {
  return new Promise((resolve) => {
    const srv = http.createServer((req, res) => { res.setHeader('content-type', 'text/html'); res.end(PAGE); });
    srv.listen(0, '127.0.0.1', () => resolve(srv));
  });
}

function stats(ms) {
  const s = [...ms].sort((a, b) => a - b);
  const q = (p) => s[Math.min(s.length - 1, Math.round((s.length - 1) * p))];
  return { p50: q(0.5), p95: q(0.95) };
}

async function time(n, fn) {
  await fn(); // warm-up
  const out = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn(i);
    out.push(performance.now() - t);
  }
  return stats(out);
}

// Ours and theirs alternately, call by call: on a shared machine the load
// changes from one second to the next, and timing one side after the
// other would charge that change to one of them. The HTTP hop alone
// (`ping`) is timed in the same rotation, so that the row's "without the
// hop" figure subtracts the hop of the same moments. `theirs` may report
// its own duration (a number: the Python worker); otherwise it is timed.
async function pair(n, ours, theirs, ping) {
  await ours(); await theirs(); await ping(); // warm-up
  const a = [], b = [], h = [];
  for (let i = 0; i < n; i++) {
    let t = performance.now();
    await ours(i);
    a.push(performance.now() - t);
    t = performance.now();
    const own = await theirs(i);
    b.push(typeof own === 'number' ? own : performance.now() - t);
    t = performance.now();
    await ping();
    h.push(performance.now() - t);
  }
  return [stats(a), stats(b), stats(h)];
}

function startXvfb() {
  for (let n = 120; n < 200; n++) {
    if (fs.existsSync(`/tmp/.X${n}-lock`) || fs.existsSync(`/tmp/.X11-unix/X${n}`)) continue;
    const p = spawn('Xvfb', [`:${n}`, '-screen', '0', '1920x1080x24', '-nolisten', 'tcp'], { stdio: 'ignore' });
    return { proc: p, display: `:${n}` };
  }
  throw new Error('no free X display');
}

// HTTP clients of the server at `base`: each returns
// `(method, route, body?) => parsed JSON answer`.
function clientOf(kind, base) {
  const u = new URL(base);
  if (kind === 'fetch') {
    return async (method, route, body) => {
      const r = await fetch(base + route, { method, body });
      return r.json();
    };
  }
  if (kind === 'agent') {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    return (method, route, body) => new Promise((resolve, reject) => {
      const headers = body === undefined ? {} : { 'content-length': Buffer.byteLength(body) };
      const req = http.request({ host: u.hostname, port: u.port, method, path: route, agent, headers }, (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => { try { resolve(JSON.parse(Buffer.concat(chunks))); } catch (e) { reject(e); } });
      });
      req.on('error', reject);
      req.end(body);
    });
  }
  // One socket for the run, HTTP/1.1 requests written by hand; answers
  // are read by their Content-Length (the server always sends it).
  const sock = net.connect(Number(u.port), u.hostname);
  sock.setNoDelay(true);
  let buf = Buffer.alloc(0);
  let waiter = null;
  const take = () => {
    const end = buf.indexOf('\r\n\r\n');
    if (!waiter || end < 0) return;
    const m = buf.subarray(0, end).toString().match(/\r\ncontent-length: *(\d+)/i);
    if (!m) { waiter.reject(new Error('answer without Content-Length')); waiter = null; return; }
    const len = Number(m[1]);
    if (buf.length < end + 4 + len) return;
    const body = buf.subarray(end + 4, end + 4 + len);
    buf = buf.subarray(end + 4 + len);
    const w = waiter;
    waiter = null;
    try { w.resolve(JSON.parse(body)); } catch (e) { w.reject(e); }
  };
  sock.on('data', (d) => { buf = Buffer.concat([buf, d]); take(); });
  sock.on('error', (e) => waiter?.reject(e));
  sock.unref();
  return (method, route, body = '') => new Promise((resolve, reject) => {
    waiter = { resolve, reject };
    sock.write(`${method} ${route} HTTP/1.1\r\nhost: ${u.host}\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  });
}

async function startTools(env) {
  const bin = path.join(ROOT, 'target/release/sentience');
  const p = spawn(bin, ['tools', '--port', '0', '--profile-dir', fs.mkdtempSync('/tmp/tools-bench-')], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  const base = await new Promise((resolve, reject) => {
    let buf = '';
    p.stdout.on('data', (d) => { buf += d; const m = buf.match(/listening on (http:\/\/\S+)/); if (m) resolve(m[1]); });
    p.on('exit', (c) => reject(new Error(`sentience tools exited ${c}`)));
  });
  const clients = Object.fromEntries(CLIENTS.map((k) => [k, clientOf(k, base)]));
  const callWith = (kind) => async (route, body) => {
    const v = await clients[kind]('POST', route, JSON.stringify(body ?? {}));
    if (!v.success) throw new Error(`${route}: ${JSON.stringify(v).slice(0, 300)}`);
    return v;
  };
  // The HTTP hop alone (no browser, no X call): the floor of every row.
  const pingWith = (kind) => () => clients[kind]('GET', '/');
  return { proc: p, base, call: callWith(CLIENT), ping: pingWith(CLIENT), callWith, pingWith };
}

// The same call with every client, alternately (its own table).
const clientRows = [];
async function byClient(name, make) {
  const fns = CLIENTS.map(make);
  for (const f of fns) { await f(); await f(); } // warm-up
  const t = CLIENTS.map(() => []);
  for (let i = 0; i < RUNS; i++) {
    for (let k = 0; k < fns.length; k++) {
      const s = performance.now();
      await fns[k]();
      t[k].push(performance.now() - s);
    }
  }
  clientRows.push({ name, stats: t.map(stats) });
}

const rows = [];
const row = (name, ours, theirs, theirName, hop) => rows.push({ name, ours, theirs, theirName, hop });
let ping = null; // the HTTP hop alone on the current server
const both = async (name, ours, theirs, theirName) => {
  const [a, b, h] = await pair(RUNS, ours, theirs, ping);
  row(name, a, b, theirName, h);
};

async function browserBench(url) {
  const tools = await startTools({ ...process.env, DISPLAY: '' });
  try {
    await tools.call('/browser/start', { start_url: url, headless: true, profile: 'bench' });
    const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    await page.goto(url);
    ping = tools.ping;
    row('HTTP round trip alone (GET /, browser server)', await time(RUNS, ping), null, 'the floor of the rows below');

    await both('screenshot (browser, original)', () => tools.call('/screenshot', { scope: 'browser' }),
      () => page.screenshot(), 'page.screenshot()');
    await both('screenshot (browser, lux 1260x700)', () => tools.call('/screenshot', { scope: 'browser', optimize_for: 'lux' }),
      () => page.screenshot(), 'page.screenshot()');
    await both('click', () => tools.call('/click', { x: 300, y: 200 }),
      () => page.mouse.click(300, 200), 'mouse.click');
    await both('type 40 chars (keystrokes)', () => tools.call('/type', { text: TEXT40, method: 'keystrokes' }),
      () => page.keyboard.type(TEXT40), 'keyboard.type');
    await both('type 40 chars (clipboard = insertText)', () => tools.call('/type', { text: TEXT40 }),
      () => page.keyboard.insertText(TEXT40), 'keyboard.insertText');
    await both('keypress Ctrl+A', () => tools.call('/keypress', { key: 'Ctrl+A' }),
      () => page.keyboard.press('Control+A'), 'keyboard.press');
    await byClient('GET / (browser server)', (k) => tools.pingWith(k));
    await byClient('POST /click (browser)', (k) => () => tools.callWith(k)('/click', { x: 300, y: 200 }));
    await browser.close();
  } finally {
    tools.proc.kill('SIGINT');
  }
}

// The direct desktop calls, in a Python process that stays up: it runs
// one call per line it reads and answers the call's own duration (timed
// in Python, so the pipe is not counted), so that ours and theirs can
// alternate call by call as in the browser part.
const PY = `
import sys, time, io
import pyautogui
from PIL import ImageGrab
pyautogui.PAUSE = 0
pyautogui.FAILSAFE = False
text = sys.argv[1]
def shot():
    img = ImageGrab.grab().resize((1260, 700))
    b = io.BytesIO(); img.save(b, format="PNG")
calls = {
  "screenshot": shot,
  "click": lambda: pyautogui.click(300, 200),
  "type": lambda: pyautogui.write(text),
  "keypress": lambda: pyautogui.hotkey("ctrl", "a"),
}
print("ready", flush=True)
for line in sys.stdin:
    fn = calls[line.strip()]
    s = time.perf_counter(); fn(); ms = (time.perf_counter() - s) * 1000
    print(ms, flush=True)
`;

function pythonWorker(py, env) {
  const p = spawn(py, ['-c', PY, TEXT40], { env, stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = readline.createInterface({ input: p.stdout });
  const queue = [];
  lines.on('line', (l) => queue.shift()?.(l));
  const next = () => new Promise((resolve) => queue.push(resolve));
  const ready = next();
  return {
    ready: Promise.race([ready, new Promise((_, reject) => p.on('exit', (c) => reject(new Error(`python exited ${c}`))))]),
    run: async (name) => { const answer = next(); p.stdin.write(`${name}\n`); return Number(await answer); },
    close: () => p.kill(),
  };
}

async function desktopBench() {
  const py = path.join(ROOT, '.bench/tools-venv/bin/python');
  const x = startXvfb();
  await new Promise((r) => setTimeout(r, 1000));
  const env = { ...process.env, DISPLAY: x.display };
  const tools = await startTools(env);
  let worker = null;
  try {
    ping = tools.ping;
    row('HTTP round trip alone (GET /, desktop server)', await time(RUNS, ping), null, 'the floor of the rows below');
    await byClient('GET / (desktop server)', (k) => tools.pingWith(k));
    await byClient('POST /click (desktop)', (k) => () => tools.callWith(k)('/click', { scope: 'desktop', x: 300, y: 200 }));
    if (fs.existsSync(py)) {
      // python-xlib insists on an Xauthority file; Xvfb here needs none.
      const xauth = path.join(fs.mkdtempSync('/tmp/tools-bench-xauth-'), 'Xauthority');
      fs.writeFileSync(xauth, '');
      worker = pythonWorker(py, { ...env, XAUTHORITY: xauth });
      try { await worker.ready; } catch (e) { console.error('pyautogui failed to start:', e.message); worker = null; }
    } else console.error(`no ${py}: desktop figures without the pyautogui comparison`);
    const cases = [
      ['screenshot (desktop 1920x1080, lux)', 'screenshot', () => tools.call('/screenshot', { scope: 'desktop', optimize_for: 'lux' }), 'PIL ImageGrab+resize+PNG'],
      ['click (desktop)', 'click', () => tools.call('/click', { scope: 'desktop', x: 300, y: 200 }), 'pyautogui.click'],
      ['type 40 chars (desktop keystrokes)', 'type', () => tools.call('/type', { scope: 'desktop', text: TEXT40, method: 'keystrokes' }), 'pyautogui.write'],
      ['keypress Ctrl+A (desktop)', 'keypress', () => tools.call('/keypress', { scope: 'desktop', key: 'Ctrl+A' }), 'pyautogui.hotkey'],
    ];
    for (const [name, py, ours, theirName] of cases) {
      if (worker) await both(name, ours, () => worker.run(py), theirName);
      else row(name, await time(RUNS, ours), null, theirName);
    }
  } finally {
    worker?.close();
    tools.proc.kill('SIGINT');
    x.proc.kill();
  }
}

const srv = await pageServer();
const url = `http://127.0.0.1:${srv.address().port}/`;
await browserBench(url);
if (spawnSync('Xvfb', ['-help']).error) console.error('Xvfb missing: desktop part skipped');
else await desktopBench();
srv.close();

const f = (s) => (s ? `${s.p50.toFixed(2)} / ${s.p95.toFixed(2)}` : 'n/a');
const load = fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
console.log(`\n${RUNS} runs each (ours and the direct call alternately); our client: ${CLIENT}; ms p50 / p95; load average ${load}\n`);
console.log('| action | sentience tools (HTTP) | direct | direct call | ratio p50 | ratio p50 without the HTTP hop (hop p50 alongside) |');
console.log('|---|---|---|---|---|---|');
for (const r of rows) {
  const ratio = r.theirs ? (r.ours.p50 / r.theirs.p50).toFixed(2) : 'n/a';
  const net = r.theirs && r.hop ? `${(Math.max(0, r.ours.p50 - r.hop.p50) / r.theirs.p50).toFixed(2)} (${r.hop.p50.toFixed(2)})` : 'n/a';
  console.log(`| ${r.name} | ${f(r.ours)} | ${f(r.theirs)} | ${r.theirName} | ${ratio} | ${net} |`);
}
console.log(`\nThe same calls with each HTTP client, alternately (ms p50 / p95):\n`);
console.log(`| call | ${CLIENTS.join(' | ')} |`);
console.log(`|---|${CLIENTS.map(() => '---').join('|')}|`);
for (const r of clientRows) console.log(`| ${r.name} | ${r.stats.map(f).join(' | ')} |`);
process.exit(0);
