// launch()'s options (headless, userDataDir, storageState, executablePath)
// and connect(cdpUrl), each against a Chromium of its own, one at a time.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import * as s from 'sentience-playwright';
import { startSite } from './site.mjs';

const CHROMIUM = s.defaultChromium();
let site;
let tmp;
before(async () => {
  site = await startSite();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sentience-launch-test-'));
});
after(async () => {
  await site?.close();
  // A browser's helper processes can still be writing its profile for a
  // moment after the browser itself has gone.
  fs.rmSync(tmp, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
});

const userAgent = (b) => b.page.evaluate(() => navigator.userAgent);

test('executablePath is the browser started; headless by default', async () => {
  const marker = path.join(tmp, 'ran');
  const wrapper = path.join(tmp, 'my-chromium');
  fs.writeFileSync(wrapper, `#!/bin/sh\necho "$@" > "${marker}"\nexec "${CHROMIUM}" "$@"\n`, { mode: 0o755 });
  const b = await s.launch({ executablePath: wrapper });
  try {
    assert.match(await userAgent(b), /HeadlessChrome\//);
  } finally {
    await b.close();
  }
  assert.match(fs.readFileSync(marker, 'utf8'), /--load-extension=/);
  await assert.rejects(s.launch({ executablePath: path.join(tmp, 'no-such-chromium') }), /no-such-chromium/);
});

test('headless: false opens a window (under Xvfb)', async (t) => {
  const xvfb = ['/usr/bin/Xvfb', '/usr/local/bin/Xvfb'].find((p) => fs.existsSync(p));
  if (!xvfb) return t.skip('no Xvfb');
  const server = spawn(xvfb, ['-displayfd', '3', '-nolisten', 'tcp', '-screen', '0', '1280x800x24'], { stdio: ['ignore', 'ignore', 'ignore', 'pipe'] });
  const saved = process.env.DISPLAY;
  try {
    const display = await new Promise((resolve, reject) => {
      server.stdio[3].once('data', (d) => resolve(String(d).trim()));
      server.once('exit', () => reject(new Error('Xvfb exited')));
    });
    process.env.DISPLAY = `:${display}`;
    const b = await s.launch({ headless: false });
    try {
      const ua = await userAgent(b);
      assert.ok(!/HeadlessChrome/.test(ua) && /Chrome\//.test(ua), ua);
    } finally {
      await b.close();
    }
  } finally {
    if (saved === undefined) delete process.env.DISPLAY;
    else process.env.DISPLAY = saved;
    server.kill();
  }
});

test('userDataDir keeps the profile (storage, cookies, trusted origins)', async () => {
  const profile = path.join(tmp, 'profile');
  let b = await s.launch({ userDataDir: profile, trust: [site.url] });
  try {
    await b.page.goto(`${site.url}/demo/index.html`);
    await b.page.evaluate(() => {
      localStorage.setItem('kept', 'yes');
      document.cookie = 'session=abc; max-age=3600; path=/';
    });
  } finally {
    await b.close();
  }
  assert.ok(fs.existsSync(profile), 'a given profile is never deleted');
  b = await s.launch({ userDataDir: profile });
  try {
    await b.page.goto(`${site.url}/demo/index.html`);
    const [kept, cookie] = await b.page.evaluate(() => [localStorage.getItem('kept'), document.cookie]);
    assert.equal(kept, 'yes');
    assert.match(cookie, /session=abc/);
    assert.deepEqual(await b.trust([]), [site.url]);
  } finally {
    await b.close();
  }
});

test('storageState from an object and from a file: the initial state', async () => {
  const state = {
    cookies: [{ name: 'token', value: 't0k', url: site.url }],
    origins: [{ origin: site.url, localStorage: [{ name: 'theme', value: 'dark' }] }],
  };
  const file = path.join(tmp, 'state.json');
  fs.writeFileSync(file, JSON.stringify(state));
  for (const storageState of [state, file]) {
    const b = await s.launch({ storageState });
    try {
      await b.page.goto(`${site.url}/demo/index.html`);
      assert.deepEqual(await b.page.evaluate(() => [document.cookie, localStorage.getItem('theme')]), ['token=t0k', 'dark']);
      // The page's own change is kept across loads (not reset each time).
      await b.page.evaluate(() => localStorage.setItem('theme', 'light'));
      await b.page.reload();
      assert.equal(await b.page.evaluate(() => localStorage.getItem('theme')), 'light');
    } finally {
      await b.close();
    }
  }
});

/** A Chromium started apart with a DevTools port (and the extension unless `plain`): its CDP URL and process. */
async function startChromium(name, { plain = false } = {}) {
  const profile = path.join(tmp, name);
  const args = ['--headless', `--user-data-dir=${profile}`, '--remote-debugging-port=0', '--no-first-run', '--disable-gpu'];
  // As Playwright does: Chromium refuses to run as root with its sandbox.
  if (process.getuid?.() === 0) args.push('--no-sandbox');
  if (!plain) args.push(...s.extensionArgs());
  const proc = spawn(CHROMIUM, [...args, 'about:blank'], { stdio: 'ignore' });
  const portFile = path.join(profile, 'DevToolsActivePort');
  for (let i = 0; i < 600 && !(fs.existsSync(portFile) && fs.readFileSync(portFile, 'utf8').trim()); i++) {
    if (proc.exitCode !== null) throw new Error(`Chromium exited (${proc.exitCode}) before opening its DevTools port`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return { url: `http://127.0.0.1:${fs.readFileSync(portFile, 'utf8').split('\n')[0]}`, proc };
}

/** Ends a browser started by `startChromium`, and waits until it has exited. */
async function stop(proc) {
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise((resolve) => proc.once('exit', resolve));
  proc.kill();
  await exited;
}

test('connect(cdpUrl) to a running browser: trust, snapshot, act; close only disconnects', async () => {
  const { url, proc } = await startChromium('own');
  try {
    const b = await s.connect(url, { trust: [site.url] });
    await b.page.goto(`${site.url}/frame.html`);
    assert.deepEqual((await s.snapshot(b.page)).frames.included.map((f) => f.via), ['message']);
    assert.ok((await s.typeText(b.page, await s.find(b.page, 'role=textbox text~user'), 'dora')).success);
    await b.close();
    assert.equal(proc.exitCode, null, 'the browser was closed, not only disconnected');
  } finally {
    await stop(proc);
  }
  const plain = await startChromium('plain', { plain: true });
  try {
    await assert.rejects(s.connect(plain.url, { timeout: 2000 }), (e) => e instanceof s.SentienceError && /has no Sentience extension running/.test(e.message));
  } finally {
    await stop(plain.proc);
  }
});
