// Test harness: static servers on 127.0.0.1 port 0 and a real Chromium with
// the built extension (the repo root) loaded unpacked.
import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { before, after } from 'node:test';
import { execFileSync } from 'node:child_process';
import { chromium } from 'playwright-core';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const PAGES = path.join(ROOT, 'tests/pages');
export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
// Fixed by the manifest's "key": chrome-extension://EXTENSION_ID/…
export const EXTENSION_ID = 'hogbpejkhkeecefhknbglfhofifoajbn';

const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.json': 'application/json', '.css': 'text/css', '.png': 'image/png' };
// The strict policy real sites send: no 'wasm-unsafe-eval', so WebAssembly
// cannot run in the page or in content scripts.
export const STRICT_CSP = "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'";

/**
 * Serves `dir` on 127.0.0.1:0. Files named `*.csp.html` get STRICT_CSP.
 * `routes` maps a path to a handler (req, res) for generated pages.
 */
export function startServer(dir = PAGES, routes = {}) {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    if (routes[url.pathname]) return routes[url.pathname](req, res, url);
    const file = path.join(dir, path.normalize(decodeURIComponent(url.pathname)).replace(/^(\.\.[/\\])+/, ''));
    if (!file.startsWith(dir) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      res.writeHead(404).end('not found');
      return;
    }
    const headers = { 'content-type': TYPES[path.extname(file)] || 'application/octet-stream', 'cache-control': 'no-store' };
    if (file.endsWith('.csp.html')) headers['content-security-policy'] = STRICT_CSP;
    res.writeHead(200, headers);
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      resolve({ url: `http://127.0.0.1:${port}`, port, close: () => new Promise((r) => server.close(r)) });
    });
  });
}

/**
 * Launches headless Chromium with the extension; resolves once its service
 * worker runs. `args` are extra Chromium switches. `extension`: the
 * unpacked extension's folder (this repository by default; another one for
 * comparisons, or null for none: `worker` is then null). `profile`: a
 * user data directory to use and keep (a browser restarted on it finds
 * what the extension stored); by default a fresh one, removed on close.
 */
export async function launch({ headless = true, viewport = { width: 1280, height: 800 }, args = [], extension = ROOT, profile = null } = {}) {
  if (extension === ROOT) {
    if (!fs.existsSync(path.join(ROOT, 'pkg/sentience_wasm_bg.wasm'))) {
      throw new Error('pkg/ is missing: run pkg-scripts/build.sh first');
    }
    bundleContent();
  }
  const userDataDir = profile || fs.mkdtempSync(path.join(os.tmpdir(), 'sentience-test-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless,
    viewport,
    args: [
      ...(extension ? [`--disable-extensions-except=${extension}`, `--load-extension=${extension}`] : ['--disable-extensions']),
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      ...args,
    ],
  });
  let worker = extension ? context.serviceWorkers()[0] : null;
  if (extension && !worker) worker = await context.waitForEvent('serviceworker', { timeout: 20000 });
  const close = async () => {
    await context.close();
    if (!profile) fs.rmSync(userDataDir, { recursive: true, force: true });
  };
  return { context, worker, close };
}

/**
 * Rebuilds the content scripts' bundles (`pkg-scripts/build.sh content`:
 * the runtime, pkg/sentience_content.js, and the document_start scripts of
 * each world, pkg/sentience_start*.js) when one of their files changed
 * since: the extension loads the bundles, not the files.
 */
export function bundleContent() {
  const script = fs.readFileSync(path.join(ROOT, 'pkg-scripts/build.sh'), 'utf8');
  const lists = { CONTENT_RUNTIME: 'pkg/sentience_content.js', START_MAIN: 'pkg/sentience_start_main.js', START_ISOLATED: 'pkg/sentience_start.js' };
  const fresh = Object.entries(lists).every(([name, out]) => {
    const list = new RegExp(`${name}=\\(([^)]*)\\)`).exec(script);
    const bundle = path.join(ROOT, out);
    const built = fs.existsSync(bundle) ? fs.statSync(bundle).mtimeMs : 0;
    const files = list ? list[1].split(/\s+/).filter(Boolean) : [];
    return files.length > 0 && files.every((f) => fs.statSync(path.join(ROOT, f)).mtimeMs <= built);
  });
  if (!fresh) execFileSync('bash', [path.join(ROOT, 'pkg-scripts/build.sh'), 'content'], { stdio: 'ignore' });
}

/** Opens `url` in a fresh tab and waits until window.sentience exists. */
export async function open(context, url) {
  const page = await context.newPage();
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForFunction(() => typeof window.sentience === 'object', null, { timeout: 10000 });
  return page;
}

/**
 * Evaluates `expression` in the page's main world through CDP and returns
 * its value, serialised by V8 itself: pages that break built-ins (the
 * tampering fixture) cannot break the harness's own serialisation.
 */
export async function evaluate(page, expression) {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { result, exceptionDetails } = await cdp.send('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true });
    if (exceptionDetails) throw new Error(`page threw: ${exceptionDetails.exception?.description || exceptionDetails.text}`);
    return result.value;
  } finally {
    await cdp.detach();
  }
}

/**
 * The extension's isolated world in the page's top frame, through CDP:
 * `{cdp, evaluate(expression) → value, close()}`; `evaluate` awaits
 * promises and throws what the expression threw. null when the world did
 * not show within 2 s (the content script did not load). With `runtime`
 * (the default), the document's content runtime is loaded first (it loads
 * on a document's first call: extension/content/bridge.js), so the
 * walker, frames and engine globals are there.
 */
export async function isolatedWorld(page, { runtime = true } = {}) {
  const cdp = await page.context().newCDPSession(page);
  const contexts = [];
  cdp.on('Runtime.executionContextCreated', (e) => contexts.push(e.context));
  await cdp.send('Runtime.enable');
  const { frameTree } = await cdp.send('Page.getFrameTree');
  const top = frameTree.frame.id;
  const deadline = Date.now() + 2000;
  let iso;
  while (!(iso = contexts.find((c) => c.name === 'Sentience' && c.auxData && c.auxData.type === 'isolated' && c.auxData.frameId === top)) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
  }
  const close = async () => {
    await cdp.send('Runtime.disable').catch(() => {});
    await cdp.detach().catch(() => {});
  };
  if (!iso) {
    await close();
    return null;
  }
  const evaluateIn = async (expression) => {
    const { result, exceptionDetails } = await cdp.send('Runtime.evaluate', { expression, contextId: iso.id, returnByValue: true, awaitPromise: true });
    if (exceptionDetails) throw new Error(exceptionDetails.exception?.description || exceptionDetails.text);
    return result.value;
  };
  if (runtime) await evaluateIn(`SentienceTrusted.call('clear_overlay')`);
  return { cdp, evaluate: evaluateIn, close };
}

/**
 * Waits until the page's top frame has loaded its own engine (a
 * document's first snapshot is computed by the service worker's while it
 * loads: extension/content/engine.js), after one call to load the runtime.
 */
export async function engineLoaded(page) {
  const world = await isolatedWorld(page);
  try {
    await world.evaluate('SentienceEngines.load()');
  } finally {
    await world.close();
  }
}

export const snapshot = (page, options) => evaluate(page, `window.sentience.snapshot(${options === undefined ? '' : JSON.stringify(options)})`);

/** Calls a window.sentience operation through the service worker (the extension's own path). */
export async function viaWorker(worker, page, op, args, via) {
  return worker.evaluate(
    async ({ url, op, args, via }) => {
      const [tab] = await chrome.tabs.query({ url });
      return globalThis.sentienceCall(tab.id, op, args, via);
    },
    { url: page.url(), op, args, via },
  );
}

/**
 * Gives page scripts of `origins` the full view of window.sentience
 * (cross-origin frames, screenshots), as the options page's "trusted
 * origins" does: the one line docs/api.md shows for Playwright. Documents
 * loaded before the call see the change once storage.onChanged reaches
 * them, so callers set it before opening their pages.
 */
export async function trustOrigins(worker, origins) {
  await worker.evaluate((o) => chrome.storage.local.set({ trusted_origins: o }), origins);
}

/**
 * The usual suite: fixture pages served on port 0 and one browser with the
 * extension, started before the suite's tests and closed after them.
 * Returns an object whose `server` and `browser` are set once started.
 * `trusted`: the server's origin is a trusted origin (screenshots and
 * cross-origin frames through the page API).
 */
export function suite({ dir = PAGES, routes = {}, trusted = false } = {}) {
  const env = { server: null, browser: null };
  before(async () => {
    env.server = await startServer(dir, routes);
    env.browser = await launch();
    if (trusted) await trustOrigins(env.browser.worker, [env.server.url]);
  });
  after(async () => {
    await env.browser?.close();
    await env.server?.close();
  });
  return env;
}
