// Tool server benchmark (docs/tools.md "Benchmark"): latency p50/p95 of
// `sentience tools` over HTTP against the spec's own stack doing the same
// work directly, in one run, on the same page and display:
//   browser: POST /screenshot (original, lux), /click, /type (40 chars),
//            /keypress  vs  Playwright page.screenshot, mouse.click,
//            keyboard.type, keyboard.press (headless Chromium, same page);
//   desktop: /screenshot desktop+lux, /click, /type, /keypress  vs
//            PIL/pyautogui (ImageGrab + resize + PNG, click, write, hotkey)
//            on an Xvfb 1920x1080 display this script starts.
// Usage: node tests/bench/tools-bench.mjs [--runs 30] [--smoke]
// Needs: target/release/sentience (pkg-scripts/build.sh), Xvfb, and for the
// desktop comparison a venv at .bench/tools-venv with pyautogui + pillow
// (python3 -m venv .bench/tools-venv && .bench/tools-venv/bin/pip install pyautogui pillow).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const args = process.argv.slice(2);
const SMOKE = args.includes('--smoke');
const RUNS = SMOKE ? 3 : Number(args[args.indexOf('--runs') + 1] || 30) || 30;
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
// other would charge that change to one of them.
async function pair(n, ours, theirs) {
  await ours(); await theirs(); // warm-up
  const a = [], b = [];
  for (let i = 0; i < n; i++) {
    let t = performance.now();
    await ours(i);
    a.push(performance.now() - t);
    t = performance.now();
    await theirs(i);
    b.push(performance.now() - t);
  }
  return [stats(a), stats(b)];
}

function startXvfb() {
  for (let n = 120; n < 200; n++) {
    if (fs.existsSync(`/tmp/.X${n}-lock`) || fs.existsSync(`/tmp/.X11-unix/X${n}`)) continue;
    const p = spawn('Xvfb', [`:${n}`, '-screen', '0', '1920x1080x24', '-nolisten', 'tcp'], { stdio: 'ignore' });
    return { proc: p, display: `:${n}` };
  }
  throw new Error('no free X display');
}

async function startTools(env) {
  const bin = path.join(ROOT, 'target/release/sentience');
  const p = spawn(bin, ['tools', '--port', '0', '--profile-dir', fs.mkdtempSync('/tmp/tools-bench-')], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  const base = await new Promise((resolve, reject) => {
    let buf = '';
    p.stdout.on('data', (d) => { buf += d; const m = buf.match(/listening on (http:\/\/\S+)/); if (m) resolve(m[1]); });
    p.on('exit', (c) => reject(new Error(`sentience tools exited ${c}`)));
  });
  const call = async (route, body) => {
    const r = await fetch(base + route, { method: 'POST', body: JSON.stringify(body ?? {}) });
    const v = await r.json();
    if (!v.success) throw new Error(`${route}: ${JSON.stringify(v).slice(0, 300)}`);
    return v;
  };
  // The HTTP hop alone (no browser, no X call): the floor of every row.
  const ping = async () => { const r = await fetch(base + '/'); await r.json(); };
  return { proc: p, base, call, ping };
}

const rows = [];
const row = (name, ours, theirs, theirName) => rows.push({ name, ours, theirs, theirName, floor });
let floor = null; // p50 of the HTTP hop alone, measured on each server
const both = async (name, ours, theirs, theirName) => {
  const [a, b] = await pair(RUNS, ours, theirs);
  row(name, a, b, theirName);
};

async function browserBench(url) {
  const tools = await startTools({ ...process.env, DISPLAY: '' });
  try {
    await tools.call('/browser/start', { start_url: url, headless: true, profile: 'bench' });
    const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    await page.goto(url);
    const hop = await time(RUNS, tools.ping);
    floor = hop.p50;
    row('HTTP round trip alone (GET /, browser server)', hop, null, 'the floor of the rows below');
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
    await browser.close();
  } finally {
    tools.proc.kill('SIGINT');
  }
}

const PY = `
import sys, time, io, json, statistics
import pyautogui
from PIL import ImageGrab
pyautogui.PAUSE = 0
pyautogui.FAILSAFE = False
runs = int(sys.argv[1]); text = sys.argv[2]
def t(fn):
    fn(); out = []
    for _ in range(runs):
        s = time.perf_counter(); fn(); out.append((time.perf_counter() - s) * 1000)
    out.sort(); q = lambda p: out[min(len(out) - 1, round((len(out) - 1) * p))]
    return {"p50": q(0.5), "p95": q(0.95)}
def shot():
    img = ImageGrab.grab().resize((1260, 700))
    b = io.BytesIO(); img.save(b, format="PNG")
print(json.dumps({
  "screenshot": t(shot),
  "click": t(lambda: pyautogui.click(300, 200)),
  "type": t(lambda: pyautogui.write(text)),
  "keypress": t(lambda: pyautogui.hotkey("ctrl", "a")),
}))
`;

async function desktopBench() {
  const py = path.join(ROOT, '.bench/tools-venv/bin/python');
  const x = startXvfb();
  await new Promise((r) => setTimeout(r, 1000));
  const env = { ...process.env, DISPLAY: x.display };
  const tools = await startTools(env);
  try {
    const hop = await time(RUNS, tools.ping);
    floor = hop.p50;
    row('HTTP round trip alone (GET /, desktop server)', hop, null, 'the floor of the rows below');
    const ours = {
      screenshot: await time(RUNS, () => tools.call('/screenshot', { scope: 'desktop', optimize_for: 'lux' })),
      click: await time(RUNS, () => tools.call('/click', { scope: 'desktop', x: 300, y: 200 })),
      type: await time(RUNS, () => tools.call('/type', { scope: 'desktop', text: TEXT40, method: 'keystrokes' })),
      keypress: await time(RUNS, () => tools.call('/keypress', { scope: 'desktop', key: 'Ctrl+A' })),
    };
    let theirs = null;
    if (fs.existsSync(py)) {
      // python-xlib insists on an Xauthority file; Xvfb here needs none.
      const xauth = path.join(fs.mkdtempSync('/tmp/tools-bench-xauth-'), 'Xauthority');
      fs.writeFileSync(xauth, '');
      const r = spawnSync(py, ['-c', PY, String(RUNS), TEXT40], { env: { ...env, XAUTHORITY: xauth }, encoding: 'utf8' });
      if (r.status === 0) theirs = JSON.parse(r.stdout.trim().split('\n').pop());
      else console.error('pyautogui run failed:', r.stderr.slice(-500));
    } else console.error(`no ${py}: desktop figures without the pyautogui comparison`);
    row('screenshot (desktop 1920x1080, lux)', ours.screenshot, theirs?.screenshot, 'PIL ImageGrab+resize+PNG');
    row('click (desktop)', ours.click, theirs?.click, 'pyautogui.click');
    row('type 40 chars (desktop keystrokes)', ours.type, theirs?.type, 'pyautogui.write');
    row('keypress Ctrl+A (desktop)', ours.keypress, theirs?.keypress, 'pyautogui.hotkey');
  } finally {
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

const f = (s) => (s ? `${s.p50.toFixed(1)} / ${s.p95.toFixed(1)}` : 'n/a');
const load = fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
console.log(`\n${RUNS} runs each (ours and the direct call alternately); ms p50 / p95; load average ${load}\n`);
console.log('| action | sentience tools (HTTP) | direct | direct call | ratio p50 | ratio p50 without the HTTP hop |');
console.log('|---|---|---|---|---|---|');
for (const r of rows) {
  const ratio = r.theirs ? (r.ours.p50 / r.theirs.p50).toFixed(2) : 'n/a';
  const net = r.theirs && r.floor != null ? (Math.max(0, r.ours.p50 - r.floor) / r.theirs.p50).toFixed(2) : 'n/a';
  console.log(`| ${r.name} | ${f(r.ours)} | ${f(r.theirs)} | ${r.theirName} | ${ratio} | ${net} |`);
}
process.exit(0);
